// Host helpers of the element-wise activations: the temporary space of Sigmoid, Silu, Swish,
// Gelu (shared by FasterGelu and FasterGeluV2), SwiGLU, GeGLU and ReGlu, with the vendor's
// names and argument orders.
#pragma once

#include "../host/ge_shape.h"
#include "common.h"

extern "C" {
void ascendc_adv_activation_tmp_size(uint8_t op, uint32_t elements, uint32_t typeSize, bool isReuseSource,
                                     uint32_t* maxValue, uint32_t* minValue);
void ascendc_adv_activation_tmp_factor(uint8_t op, uint32_t typeSize, uint32_t* maxLiveNodeCount, uint32_t* extraBuf);
}

namespace AscendC {
namespace detail {

// `op` of the host helpers.
enum : uint8_t { TMP_SIGMOID = 0, TMP_SILU = 1, TMP_SWISH = 2, TMP_GELU = 3, TMP_SWIGLU = 4, TMP_GEGLU = 5, TMP_REGLU = 6 };

inline void ActivationTmpSize(uint8_t op, uint32_t elements, uint32_t typeSize, bool isReuseSource,
                              uint32_t& maxValue, uint32_t& minValue) {
    ascendc_adv_activation_tmp_size(op, elements, typeSize, isReuseSource, &maxValue, &minValue);
}

// The product of the dimensions (1 for no dimension), as Gelu's and ReGlu's helpers count.
inline uint32_t DimsProduct(const ge::Shape& shape) {
    uint32_t n = 1;
    for (int64_t d : shape.GetDims()) {
        n *= static_cast<uint32_t>(d);
    }
    return n;
}

}  // namespace detail

inline void GetSigmoidMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, bool isReuseSource,
                                    uint32_t& maxValue, uint32_t& minValue) {
    detail::ActivationTmpSize(detail::TMP_SIGMOID, static_cast<uint32_t>(srcShape.GetShapeSize()), typeSize,
                              isReuseSource, maxValue, minValue);
}

inline void GetSiluTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                           uint32_t& maxValue, uint32_t& minValue) {
    detail::ActivationTmpSize(detail::TMP_SILU, static_cast<uint32_t>(srcShape.GetShapeSize()), typeSize,
                              isReuseSource, maxValue, minValue);
}

inline void GetSwishTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                            uint32_t& maxValue, uint32_t& minValue) {
    detail::ActivationTmpSize(detail::TMP_SWISH, static_cast<uint32_t>(srcShape.GetShapeSize()), typeSize,
                              isReuseSource, maxValue, minValue);
}

inline void GetGeluMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                 uint32_t& minValue) {
    detail::ActivationTmpSize(detail::TMP_GELU, detail::DimsProduct(srcShape), typeSize, false, maxValue, minValue);
}

inline uint32_t GetGeluMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize) {
    uint32_t maxValue = 0;
    uint32_t minValue = 0;
    GetGeluMaxMinTmpSize(srcShape, typeSize, maxValue, minValue);
    return minValue;
}

inline uint32_t GetGeluMaxTmpSize(const ge::Shape& srcShape, const uint32_t typeSize) {
    uint32_t maxValue = 0;
    uint32_t minValue = 0;
    GetGeluMaxMinTmpSize(srcShape, typeSize, maxValue, minValue);
    return maxValue;
}

inline void GetSwiGLUMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                   uint32_t& minValue, const bool isReuseSource) {
    detail::ActivationTmpSize(detail::TMP_SWIGLU, static_cast<uint32_t>(srcShape.GetShapeSize()), typeSize,
                              isReuseSource, maxValue, minValue);
}

inline void GetSwiGLUTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
    ascendc_adv_activation_tmp_factor(detail::TMP_SWIGLU, typeSize, &maxLiveNodeCount, &extraBuffer);
}

inline void GetGeGLUMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                  uint32_t& maxValue, uint32_t& minValue) {
    detail::ActivationTmpSize(detail::TMP_GEGLU, static_cast<uint32_t>(srcShape.GetShapeSize()), typeSize,
                              isReuseSource, maxValue, minValue);
}

inline void GetGeGLUTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    ascendc_adv_activation_tmp_factor(detail::TMP_GEGLU, typeSize, &maxLiveNodeCount, &extraBuf);
}

inline void GetReGluMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                  uint32_t& maxValue, uint32_t& minValue) {
    detail::ActivationTmpSize(detail::TMP_REGLU, detail::DimsProduct(srcShape), typeSize, isReuseSource, maxValue,
                              minValue);
}

}  // namespace AscendC
