// Host helpers of the SoftMax family: the optiling::SoftMaxTiling / LogSoftMaxTiling classes (for
// TILING_DATA_FIELD_DEF_STRUCT), the tiling functions and the temporary-space sizes, as the
// vendor's softmax_tiling.h / logsoftmax_tiling.h declare them.
#pragma once

#include "../../register/tilingdata_base.h"
#include "../host/ge_shape.h"
#include "common.h"
#include "softmax_struct.h"

extern "C" {
void ascendc_adv_softmax_tmp_size(uint8_t which, uint32_t m, uint32_t k, uint32_t size1, uint32_t size2,
                                  uint32_t flags, uint32_t* maxValue, uint32_t* minValue);
void ascendc_adv_softmax_tiling(uint8_t which, uint32_t m, uint32_t k, uint32_t size1, uint32_t size2,
                                uint32_t workBytes, uint32_t flags, uint32_t* words);
bool ascendc_adv_softmax_is_basic(const uint32_t* words, uint32_t typeSize);
}

// One field of the host tiling classes (written without the BEGIN_TILING_DATA_DEF macros, which a
// kernel header included later may have redefined).
#define ASCENDC_SOFTMAX_HOST_FIELD(field)                                                                    \
private:                                                                                                     \
    ::optiling::detail::FieldSlot field##_ascendc_slot_ =                                                    \
        ::optiling::detail::FieldSlot::Scalar<uint32_t>(this, "uint32_t", #field, 1);                        \
                                                                                                             \
public:                                                                                                      \
    void set_##field(uint32_t value) { AscendcPut(field##_ascendc_slot_.offset, &value, sizeof(uint32_t)); } \
    uint32_t get_##field() const {                                                                           \
        uint32_t value;                                                                                      \
        AscendcGet(field##_ascendc_slot_.offset, &value, sizeof(uint32_t));                                  \
        return value;                                                                                        \
    }

#define ASCENDC_SOFTMAX_HOST_CLASS(Name)                                                 \
    class Name : public ::optiling::TilingDef {                                          \
    public:                                                                              \
        Name() : ::optiling::TilingDef(#Name) {}                                         \
        ASCENDC_SOFTMAX_HOST_FIELD(srcM)                                                 \
        ASCENDC_SOFTMAX_HOST_FIELD(srcK)                                                 \
        ASCENDC_SOFTMAX_HOST_FIELD(srcSize)                                              \
        ASCENDC_SOFTMAX_HOST_FIELD(outMaxM)                                              \
        ASCENDC_SOFTMAX_HOST_FIELD(outMaxK)                                              \
        ASCENDC_SOFTMAX_HOST_FIELD(outMaxSize)                                           \
        ASCENDC_SOFTMAX_HOST_FIELD(splitM)                                               \
        ASCENDC_SOFTMAX_HOST_FIELD(splitK)                                               \
        ASCENDC_SOFTMAX_HOST_FIELD(splitSize)                                            \
        ASCENDC_SOFTMAX_HOST_FIELD(reduceM)                                              \
        ASCENDC_SOFTMAX_HOST_FIELD(reduceK)                                              \
        ASCENDC_SOFTMAX_HOST_FIELD(reduceSize)                                           \
        ASCENDC_SOFTMAX_HOST_FIELD(rangeM)                                               \
        ASCENDC_SOFTMAX_HOST_FIELD(tailM)                                                \
        ASCENDC_SOFTMAX_HOST_FIELD(tailSplitSize)                                        \
        ASCENDC_SOFTMAX_HOST_FIELD(tailReduceSize)                                       \
    public:                                                                              \
        /* The 16 words in field order (the kernel struct's layout). */                  \
        void AscendcFrom(const uint32_t* w) { AscendcPut(0, w, 64); }                    \
        void AscendcTo(uint32_t* w) const { AscendcGet(0, w, 64); }                      \
    };

namespace optiling {
ASCENDC_SOFTMAX_HOST_CLASS(SoftMaxTiling)
ASCENDC_SOFTMAX_HOST_CLASS(LogSoftMaxTiling)
}  // namespace optiling

#undef ASCENDC_SOFTMAX_HOST_CLASS
#undef ASCENDC_SOFTMAX_HOST_FIELD

namespace AscendC {
namespace detail {

// (rows, last axis) of a shape.
inline void SoftMaxRows(const ge::Shape& s, uint32_t& m, uint32_t& k) {
    const int64_t size = s.GetShapeSize();
    const int64_t last = s.GetDimNum() > 0 ? s.GetDim(s.GetDimNum() - 1) : 1;
    k = static_cast<uint32_t>(last > 0 ? last : 1);
    m = static_cast<uint32_t>(size / static_cast<int64_t>(k));
}

inline uint32_t SoftMaxTmp(uint8_t which, const ge::Shape& s, uint32_t size1, uint32_t size2, uint32_t flags,
                           bool wantMax) {
    uint32_t m, k, hi, lo;
    SoftMaxRows(s, m, k);
    ascendc_adv_softmax_tmp_size(which, m, k, size1, size2, flags, &hi, &lo);
    return wantMax ? hi : lo;
}

template <typename Words>
inline void SoftMaxTilingTo(uint8_t which, const ge::Shape& s, uint32_t size1, uint32_t size2, uint32_t work,
                            uint32_t flags, Words& out) {
    uint32_t m, k, w[16];
    SoftMaxRows(s, m, k);
    ascendc_adv_softmax_tiling(which, m, k, size1, size2, work, flags, w);
    out.AscendcFrom(w);
}

// The kernel struct as the host class's word interface.
template <typename Plain>
struct PlainWords {
    Plain& t;
    void AscendcFrom(const uint32_t* w) { std::memcpy(&t, w, 64); }
};

}  // namespace detail

inline uint32_t GetSoftMaxMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool) {
    return detail::SoftMaxTmp(0, srcShape, dataTypeSize, dataTypeSize, 0, true);
}
inline uint32_t GetSoftMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool) {
    return detail::SoftMaxTmp(0, srcShape, dataTypeSize, dataTypeSize, 0, false);
}
inline void SoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                              optiling::SoftMaxTiling& softmaxTiling) {
    detail::SoftMaxTilingTo(0, srcShape, dataTypeSize, dataTypeSize, localWorkSpaceSize, 0, softmaxTiling);
}
inline void SoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                              ::SoftMaxTiling& softmaxTiling) {
    detail::PlainWords<::SoftMaxTiling> w{softmaxTiling};
    detail::SoftMaxTilingTo(0, srcShape, dataTypeSize, dataTypeSize, localWorkSpaceSize, 0, w);
}

inline uint32_t GetLogSoftMaxMaxTmpSize(const ge::Shape srcShape, const uint32_t dataTypeSize, const bool) {
    return detail::SoftMaxTmp(0, srcShape, dataTypeSize, dataTypeSize, 0, true);
}
inline uint32_t GetLogSoftMaxMinTmpSize(const ge::Shape srcShape, const uint32_t dataTypeSize, const bool) {
    return detail::SoftMaxTmp(0, srcShape, dataTypeSize, dataTypeSize, 0, false);
}
inline void LogSoftMaxTilingFunc(const ge::Shape srcShape, const uint32_t dataTypeSize,
                                 const uint32_t localWorkSpaceSize, optiling::LogSoftMaxTiling& softmaxTiling) {
    detail::SoftMaxTilingTo(0, srcShape, dataTypeSize, dataTypeSize, localWorkSpaceSize, 0, softmaxTiling);
}
inline void LogSoftMaxTilingFunc(const ge::Shape srcShape, const uint32_t dataTypeSize,
                                 const uint32_t localWorkSpaceSize, ::LogSoftMaxTiling& softmaxTiling) {
    detail::PlainWords<::LogSoftMaxTiling> w{softmaxTiling};
    detail::SoftMaxTilingTo(0, srcShape, dataTypeSize, dataTypeSize, localWorkSpaceSize, 0, w);
}

inline uint32_t GetSoftMaxFlashV2MaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                            const uint32_t dataTypeSize2, const bool, const bool isBasicBlock = false,
                                            const bool isFlashOutputBrc = false) {
    return detail::SoftMaxTmp(1, srcShape, dataTypeSize1, dataTypeSize2,
                              (isBasicBlock ? 1u : 0u) | (isFlashOutputBrc ? 2u : 0u), true);
}
inline uint32_t GetSoftMaxFlashV2MinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                            const uint32_t dataTypeSize2, const bool, const bool isBasicBlock = false,
                                            const bool isFlashOutputBrc = false) {
    return detail::SoftMaxTmp(1, srcShape, dataTypeSize1, dataTypeSize2,
                              (isBasicBlock ? 1u : 0u) | (isFlashOutputBrc ? 2u : 0u), false);
}
inline void SoftMaxFlashV2TilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                     optiling::SoftMaxTiling& softmaxFlashTiling, const bool,
                                     const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
    detail::SoftMaxTilingTo(1, srcShape, dataTypeSize1, dataTypeSize2, localWorkSpaceSize,
                            (isBasicBlock ? 1u : 0u) | (isFlashOutputBrc ? 2u : 0u), softmaxFlashTiling);
}
inline void SoftMaxFlashV2TilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                     ::SoftMaxTiling& softmaxFlashTiling, const bool, const bool isBasicBlock = false,
                                     const bool isFlashOutputBrc = false) {
    detail::PlainWords<::SoftMaxTiling> w{softmaxFlashTiling};
    detail::SoftMaxTilingTo(1, srcShape, dataTypeSize1, dataTypeSize2, localWorkSpaceSize,
                            (isBasicBlock ? 1u : 0u) | (isFlashOutputBrc ? 2u : 0u), w);
}

inline uint32_t GetSoftMaxGradMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isFront,
                                         const bool) {
    return detail::SoftMaxTmp(2, srcShape, dataTypeSize, dataTypeSize, isFront ? 1u : 0u, true);
}
inline uint32_t GetSoftMaxGradMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isFront,
                                         const bool) {
    return detail::SoftMaxTmp(2, srcShape, dataTypeSize, dataTypeSize, isFront ? 1u : 0u, false);
}
inline void SoftMaxGradTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                                  const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling& softmaxGradTiling,
                                  const bool isFront = false) {
    detail::SoftMaxTilingTo(2, srcShape, dataTypeSize, dataTypeSize, localWorkSpaceSize, isFront ? 1u : 0u,
                            softmaxGradTiling);
}
inline void SoftMaxGradTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                                  const uint32_t localWorkSpaceSize, ::SoftMaxTiling& softmaxGradTiling,
                                  const bool isFront = false) {
    detail::PlainWords<::SoftMaxTiling> w{softmaxGradTiling};
    detail::SoftMaxTilingTo(2, srcShape, dataTypeSize, dataTypeSize, localWorkSpaceSize, isFront ? 1u : 0u, w);
}

inline bool IsBasicBlockInSoftMax(optiling::SoftMaxTiling& tiling, const uint32_t dataTypeSize = 2) {
    uint32_t w[16];
    tiling.AscendcTo(w);
    return ascendc_adv_softmax_is_basic(w, dataTypeSize);
}
inline bool IsBasicBlockInSoftMax(::SoftMaxTiling& tiling, const uint32_t dataTypeSize = 2) {
    return ascendc_adv_softmax_is_basic(reinterpret_cast<const uint32_t*>(&tiling), dataTypeSize);
}
}  // namespace AscendC
