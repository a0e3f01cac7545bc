// Host helpers of LayerNormGrad and LayerNormGradBeta: Get*MaxMinTmpSize, Get*NDTilingInfo and the
// host tiling classes optiling::LayerNormGradTiling / LayerNormGradBetaTiling (fields of an
// operator's TilingData through TILING_DATA_FIELD_DEF_STRUCT).
#pragma once

#include <cstring>
#include <string>
#include <vector>

#include "../../register/tilingdata_base.h"
#include "../host/ge_shape.h"
#include "common.h"
#include "layernorm_grad.h"

extern "C" {
bool ascendc_adv_layer_norm_grad_tmp_size(const int64_t* dims, uint32_t rank, uint32_t typeSize, bool isReuseSource,
                                          uint32_t* maxValue, uint32_t* minValue);
bool ascendc_adv_layer_norm_grad_tiling(const int64_t* dims, uint32_t rank, uint32_t stackBufferSize,
                                        uint32_t typeSize, bool isReuseSource, void* tiling);
bool ascendc_adv_layer_norm_grad_beta_tmp_size(const int64_t* dims, uint32_t rank, uint32_t typeSize,
                                               uint32_t* maxValue, uint32_t* minValue);
bool ascendc_adv_layer_norm_grad_beta_tiling(const int64_t* dims, uint32_t rank, uint32_t stackBufferSize,
                                             uint32_t typeSize, void* tiling);
}

// One uint32_t field of the host tiling classes (written without the BEGIN_TILING_DATA_DEF macros,
// which a kernel header included later may have redefined).
#define ASCENDC_LNG_HOST_FIELD(field)                                                                        \
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

namespace optiling {
class LayerNormGradTiling : public ::optiling::TilingDef {
public:
    LayerNormGradTiling() : ::optiling::TilingDef("LayerNormGradTiling") {}
    ASCENDC_LAYERNORM_GRAD_FIELDS(ASCENDC_LNG_HOST_FIELD)
public:
    // The fields in order (the kernel struct's layout).
    void AscendcFrom(const ::LayerNormGradTiling& t) { AscendcPut(0, &t, sizeof(t)); }
};
class LayerNormGradBetaTiling : public ::optiling::TilingDef {
public:
    LayerNormGradBetaTiling() : ::optiling::TilingDef("LayerNormGradBetaTiling") {}
    ASCENDC_LAYERNORM_GRAD_BETA_FIELDS(ASCENDC_LNG_HOST_FIELD)
public:
    void AscendcFrom(const ::LayerNormGradBetaTiling& t) { AscendcPut(0, &t, sizeof(t)); }
};
}  // namespace optiling

#undef ASCENDC_LNG_HOST_FIELD

namespace AscendC {
namespace detail {
inline std::vector<int64_t> LayerNormGradDims(const char* api, const ge::Shape& srcShape, uint32_t typeSize) {
    std::vector<int64_t> d = srcShape.GetDims();
    if (typeSize != 2 && typeSize != 4) {
        ascendc_host::Fail(std::string(api) + ": typeSize = " + std::to_string(typeSize) +
                           " is unsupported (2 for half, 4 for float)");
    }
    if (d.size() != 4) {
        ascendc_host::Fail(std::string(api) + ": srcShape has " + std::to_string(d.size()) +
                           " dimensions, it must have 4 ([B, S, storageHLength, originHLength])");
    }
    for (int64_t v : d) {
        if (v <= 0) {
            ascendc_host::Fail(std::string(api) + ": every dimension of srcShape must be greater than 0");
        }
    }
    return d;
}
}  // namespace detail

// Bytes of temporary space LayerNormGrad needs for srcShape [B, S, H, originH].
inline void GetLayerNormGradMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                          uint32_t& maxValue, uint32_t& minValue) {
    std::vector<int64_t> d = detail::LayerNormGradDims("GetLayerNormGradMaxMinTmpSize", srcShape, typeSize);
    ascendc_adv_layer_norm_grad_tmp_size(d.data(), 4, typeSize, isReuseSource, &maxValue, &minValue);
}

// The kernel tiling for srcShape [B, S, H, originH] and stackBufferSize bytes of temporary space.
inline void GetLayerNormGradNDTilingInfo(const ge::Shape srcShape, const uint32_t stackBufferSize,
                                         const uint32_t typeSize, const bool isReuseSource,
                                         AscendC::tiling::LayerNormGradTiling& tiling) {
    std::vector<int64_t> d = detail::LayerNormGradDims("GetLayerNormGradNDTilingInfo", srcShape, typeSize);
    if (!ascendc_adv_layer_norm_grad_tiling(d.data(), 4, stackBufferSize, typeSize, isReuseSource, &tiling)) {
        ascendc_host::Fail("GetLayerNormGradNDTilingInfo: stackBufferSize = " + std::to_string(stackBufferSize) +
                           " is not enough (size it with GetLayerNormGradMaxMinTmpSize)");
    }
}
inline void GetLayerNormGradNDTilingInfo(const ge::Shape srcShape, const uint32_t stackBufferSize,
                                         const uint32_t typeSize, const bool isReuseSource,
                                         optiling::LayerNormGradTiling& tiling) {
    ::LayerNormGradTiling t{};
    GetLayerNormGradNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, t);
    tiling.AscendcFrom(t);
}

// Bytes of temporary space LayerNormGradBeta needs for srcShape [B, S, H, originH].
inline void GetLayerNormGradBetaMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                              const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    std::vector<int64_t> d = detail::LayerNormGradDims("GetLayerNormGradBetaMaxMinTmpSize", srcShape, typeSize);
    ascendc_adv_layer_norm_grad_beta_tmp_size(d.data(), 4, typeSize, &maxValue, &minValue);
}

// The kernel tiling for srcShape [B, S, H, originH] and stackBufferSize bytes of temporary space.
inline void GetLayerNormGradBetaNDTilingInfo(const ge::Shape srcShape, const uint32_t stackBufferSize,
                                             const uint32_t typeSize, const bool isReuseSource,
                                             AscendC::tiling::LayerNormGradBetaTiling& tiling) {
    (void)isReuseSource;
    std::vector<int64_t> d = detail::LayerNormGradDims("GetLayerNormGradBetaNDTilingInfo", srcShape, typeSize);
    if (!ascendc_adv_layer_norm_grad_beta_tiling(d.data(), 4, stackBufferSize, typeSize, &tiling)) {
        ascendc_host::Fail("GetLayerNormGradBetaNDTilingInfo: stackBufferSize = " + std::to_string(stackBufferSize) +
                           " is not enough (size it with GetLayerNormGradBetaMaxMinTmpSize)");
    }
}
inline void GetLayerNormGradBetaNDTilingInfo(const ge::Shape srcShape, const uint32_t stackBufferSize,
                                             const uint32_t typeSize, const bool isReuseSource,
                                             optiling::LayerNormGradBetaTiling& tiling) {
    ::LayerNormGradBetaTiling t{};
    GetLayerNormGradBetaNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, t);
    tiling.AscendcFrom(t);
}
}  // namespace AscendC
