// Host helpers of LayerNorm (both forms), Normalize and DeepNorm: the optiling::LayerNormTiling /
// LayerNormSeparateTiling / DeepNormTiling classes (for TILING_DATA_FIELD_DEF_STRUCT), the
// temporary-space sizes and the tiling functions, as the vendor's layernorm_tiling.h,
// normalize_tiling.h and deepnorm_tiling.h declare them.
#pragma once

#include <cstring>
#include <vector>

#include "../../register/tilingdata_base.h"
#include "../host/ge_shape.h"
#include "common.h"
#include "layernorm.h"

extern "C" {
bool ascendc_adv_layer_norm_tmp_size(const int64_t* dims, uint32_t rank, uint32_t typeSize, bool isReuseSource,
                                     uint32_t* maxValue, uint32_t* minValue);
bool ascendc_adv_layer_norm_tiling(const int64_t* dims, uint32_t rank, uint32_t stackBufferSize, uint32_t typeSize,
                                   bool isReuseSource, void* tiling);
bool ascendc_adv_layer_norm_rstd_tmp_size(const int64_t* dims, uint32_t rank, uint32_t typeSize, bool isComputeRstd,
                                          bool isOnlyOutput, uint32_t* maxValue, uint32_t* minValue);
bool ascendc_adv_layer_norm_separate_tiling(const int64_t* dims, uint32_t rank, uint32_t stackBufferSize,
                                            uint32_t typeSize, void* tiling);
bool ascendc_adv_normalize_tmp_size(const int64_t* dims, uint32_t rank, uint32_t typeSizeU, uint32_t typeSizeT,
                                    bool isComputeRstd, bool isOnlyOutput, uint32_t* maxValue, uint32_t* minValue);
bool ascendc_adv_deep_norm_tmp_size(const int64_t* dims, uint32_t rank, uint32_t typeSize, bool isReuseSource,
                                    bool isBasicBlock, uint32_t* maxValue, uint32_t* minValue);
bool ascendc_adv_deep_norm_tiling(const int64_t* dims, uint32_t rank, const int64_t* originDims, uint32_t originRank,
                                  uint32_t stackBufferSize, uint32_t typeSize, bool isReuseSource, bool isBasicBlock,
                                  void* tiling);
}

// One field of the host tiling classes (written without the BEGIN_TILING_DATA_DEF macros, which a
// kernel header included later may have redefined).
#define ASCENDC_LN_HOST_FIELD(type, field)                                                            \
private:                                                                                              \
    ::optiling::detail::FieldSlot field##_ascendc_slot_ =                                             \
        ::optiling::detail::FieldSlot::Scalar<type>(this, #type, #field, 1);                          \
                                                                                                      \
public:                                                                                               \
    void set_##field(type value) { AscendcPut(field##_ascendc_slot_.offset, &value, sizeof(type)); } \
    type get_##field() const {                                                                        \
        type value;                                                                                   \
        AscendcGet(field##_ascendc_slot_.offset, &value, sizeof(type));                               \
        return value;                                                                                 \
    }
#define ASCENDC_LN_U32(field) ASCENDC_LN_HOST_FIELD(uint32_t, field)
#define ASCENDC_LN_F32(field) ASCENDC_LN_HOST_FIELD(float, field)
// The kernel struct's bytes in and out (the fields in order, 26 words).
#define ASCENDC_LN_HOST_COPY(Kernel)                                                   \
public:                                                                                \
    void AscendcFrom(const Kernel& k) { AscendcPut(0, &k, sizeof(Kernel)); }           \
    void AscendcTo(Kernel& k) const { AscendcGet(0, &k, sizeof(Kernel)); }

// The fields of LayerNormTiling and DeepNormTiling.
#define ASCENDC_LN_BSH_FIELDS                                                                           \
    ASCENDC_LN_U32(bLength)                                                                             \
    ASCENDC_LN_U32(sLength)                                                                             \
    ASCENDC_LN_U32(hLength)                                                                             \
    ASCENDC_LN_U32(originalHLength)                                                                     \
    ASCENDC_LN_U32(inputXSize)                                                                          \
    ASCENDC_LN_U32(meanVarSize)                                                                         \
    ASCENDC_LN_U32(numberOfTmpBuf)                                                                      \
    ASCENDC_LN_U32(meanTmpTensorPos)                                                                    \
    ASCENDC_LN_U32(meanTmpTensorSize)                                                                   \
    ASCENDC_LN_U32(varianceTmpTensorPos)                                                                \
    ASCENDC_LN_U32(varianceTmpTensorSize)                                                               \
    ASCENDC_LN_U32(tmpBufSize)                                                                          \
    ASCENDC_LN_U32(oneTmpSize)                                                                          \
    ASCENDC_LN_U32(firstTmpStartPos)                                                                    \
    ASCENDC_LN_U32(secondTmpStartPos)                                                                   \
    ASCENDC_LN_U32(thirdTmpStartPos)                                                                    \
    ASCENDC_LN_U32(loopRound)                                                                           \
    ASCENDC_LN_U32(inputRoundSize)                                                                      \
    ASCENDC_LN_U32(inputTailSize)                                                                       \
    ASCENDC_LN_U32(inputTailPos)                                                                        \
    ASCENDC_LN_U32(meanVarRoundSize)                                                                    \
    ASCENDC_LN_U32(meanVarTailSize)                                                                     \
    ASCENDC_LN_U32(meanVarTailPos)                                                                      \
    ASCENDC_LN_U32(bshCurLength)                                                                        \
    ASCENDC_LN_U32(bsCurLength)                                                                         \
    ASCENDC_LN_F32(lastDimValueBack)

namespace optiling {
class LayerNormTiling : public ::optiling::TilingDef {
public:
    LayerNormTiling() : ::optiling::TilingDef("LayerNormTiling") {}
    ASCENDC_LN_BSH_FIELDS
    ASCENDC_LN_HOST_COPY(::LayerNormTiling)
};

class DeepNormTiling : public ::optiling::TilingDef {
public:
    DeepNormTiling() : ::optiling::TilingDef("DeepNormTiling") {}
    ASCENDC_LN_BSH_FIELDS
    ASCENDC_LN_HOST_COPY(::DeepNormTiling)
};

class LayerNormSeparateTiling : public ::optiling::TilingDef {
public:
    LayerNormSeparateTiling() : ::optiling::TilingDef("LayerNormSeparateTiling") {}
    ASCENDC_LN_U32(aLength)
    ASCENDC_LN_U32(rLength)
    ASCENDC_LN_U32(halfAddRepeatTimes)
    ASCENDC_LN_U32(rHeadLength)
    ASCENDC_LN_F32(k2Rec)
    ASCENDC_LN_F32(k2RRec)
    ASCENDC_LN_U32(inputXSize)
    ASCENDC_LN_U32(meanVarSize)
    ASCENDC_LN_U32(numberOfTmpBuf)
    ASCENDC_LN_U32(varianceTmpTensorPos)
    ASCENDC_LN_U32(varianceTmpTensorSize)
    ASCENDC_LN_U32(tmpBufSize)
    ASCENDC_LN_U32(oneTmpSize)
    ASCENDC_LN_U32(firstTmpStartPos)
    ASCENDC_LN_U32(secondTmpStartPos)
    ASCENDC_LN_U32(thirdTmpStartPos)
    ASCENDC_LN_U32(loopRound)
    ASCENDC_LN_U32(inputRoundSize)
    ASCENDC_LN_U32(inputTailSize)
    ASCENDC_LN_U32(inputTailPos)
    ASCENDC_LN_U32(meanVarRoundSize)
    ASCENDC_LN_U32(meanVarTailSize)
    ASCENDC_LN_U32(meanVarTailPos)
    ASCENDC_LN_U32(arCurLength)
    ASCENDC_LN_U32(aCurLength)
    ASCENDC_LN_F32(rValueBack)
    ASCENDC_LN_HOST_COPY(::LayerNormSeparateTiling)
};
}  // namespace optiling

#undef ASCENDC_LN_BSH_FIELDS
#undef ASCENDC_LN_HOST_COPY
#undef ASCENDC_LN_F32
#undef ASCENDC_LN_U32
#undef ASCENDC_LN_HOST_FIELD

namespace AscendC {
namespace detail {
inline std::vector<int64_t> LayerNormDims(const ge::Shape& s) { return s.GetDims(); }
}  // namespace detail

// Bytes of temporary space the [B, S, H] LayerNorm needs for srcShape [B, S, H, originH]
// (three float tensors of B·S·H, of H for the minimum, two with isReuseSource and float, plus
// two of B·S); left unchanged for a shape of another rank or a type size other than 2 or 4.
inline void GetLayerNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                      uint32_t& maxValue, uint32_t& minValue) {
    std::vector<int64_t> d = detail::LayerNormDims(srcShape);
    ascendc_adv_layer_norm_tmp_size(d.data(), static_cast<uint32_t>(d.size()), typeSize, isReuseSource, &maxValue,
                                    &minValue);
}

// The [B, S, H] LayerNorm's tiling for srcShape [B, S, H, originH] and stackBufferSize bytes of
// temporary space (zeroed when the buffer holds no whole row).
inline void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                     const uint32_t typeSize, const bool isReuseSource,
                                     AscendC::tiling::LayerNormTiling& tiling) {
    std::vector<int64_t> d = detail::LayerNormDims(srcShape);
    ::LayerNormTiling out{};
    ascendc_adv_layer_norm_tiling(d.data(), static_cast<uint32_t>(d.size()), stackBufferSize, typeSize,
                                  isReuseSource, &out);
    tiling = out;
}

// As above, filling the host tiling class (left unchanged when the buffer holds no whole row).
inline void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                     const uint32_t typeSize, const bool isReuseSource,
                                     optiling::LayerNormTiling& tiling) {
    std::vector<int64_t> d = detail::LayerNormDims(srcShape);
    ::LayerNormTiling out{};
    if (ascendc_adv_layer_norm_tiling(d.data(), static_cast<uint32_t>(d.size()), stackBufferSize, typeSize,
                                      isReuseSource, &out)) {
        tiling.AscendcFrom(out);
    }
}

// The deprecated spelling of GetLayerNormNDTilingInfo.
[[deprecated("GetLayerNormNDTillingInfo is deprecated, please use GetLayerNormNDTilingInfo instead!")]]
inline void GetLayerNormNDTillingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                      const uint32_t typeSize, const bool isReuseSource,
                                      optiling::LayerNormTiling& tilling) {
    GetLayerNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, tilling);
}

// Bytes of temporary space the [A, R] LayerNorm needs for srcShape [A, R] (two float tensors of
// A·R, of R for the minimum, plus A floats, at least Normalize's need plus A floats); left
// unchanged when isOnlyOutput is true or the type size is not 2 or 4.
inline void GetLayerNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                      const bool isComputeRstd, const bool isOnlyOutput, uint32_t& maxValue,
                                      uint32_t& minValue) {
    (void)isReuseSource;
    std::vector<int64_t> d = detail::LayerNormDims(srcShape);
    ascendc_adv_layer_norm_rstd_tmp_size(d.data(), static_cast<uint32_t>(d.size()), typeSize, isComputeRstd,
                                         isOnlyOutput, &maxValue, &minValue);
}

// The [A, R] LayerNorm's tiling for srcShape [A, R] and stackBufferSize bytes of temporary space
// (zeroed when the buffer holds no whole row).
inline void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                     const uint32_t typeSize, const bool isReuseSource, const bool isComputeRstd,
                                     AscendC::tiling::LayerNormSeparateTiling& tiling) {
    (void)isReuseSource;
    (void)isComputeRstd;
    std::vector<int64_t> d = detail::LayerNormDims(srcShape);
    ::LayerNormSeparateTiling out{};
    ascendc_adv_layer_norm_separate_tiling(d.data(), static_cast<uint32_t>(d.size()), stackBufferSize, typeSize,
                                           &out);
    tiling = out;
}

// As above, filling the host tiling class (left unchanged when the buffer holds no whole row).
inline void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                     const uint32_t typeSize, const bool isReuseSource, const bool isComputeRstd,
                                     optiling::LayerNormSeparateTiling& tiling) {
    (void)isReuseSource;
    (void)isComputeRstd;
    std::vector<int64_t> d = detail::LayerNormDims(srcShape);
    ::LayerNormSeparateTiling out{};
    if (ascendc_adv_layer_norm_separate_tiling(d.data(), static_cast<uint32_t>(d.size()), stackBufferSize, typeSize,
                                               &out)) {
        tiling.AscendcFrom(out);
    }
}

// Bytes of temporary space Normalize needs for srcShape [A, R]: 2·R + 2·A·R floats at most, at
// least max(A, 2·R) floats (4·R with half gamma/beta); left unchanged when isComputeRstd is false
// or isOnlyOutput true.
inline void GetNormalizeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSizeU, const uint32_t typeSizeT,
                                      const bool isReuseSource, const bool isComputeRstd, const bool isOnlyOutput,
                                      uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    std::vector<int64_t> d = detail::LayerNormDims(srcShape);
    ascendc_adv_normalize_tmp_size(d.data(), static_cast<uint32_t>(d.size()), typeSizeU, typeSizeT, isComputeRstd,
                                   isOnlyOutput, &maxValue, &minValue);
}

// Bytes of temporary space DeepNorm needs for a [B, S, H] source; false for another rank or, with
// isBasicBlock, H not a multiple of 64 or B·S not of 8.
inline bool GetDeepNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                     const bool isBasicBlock, uint32_t& maxValue, uint32_t& minValue) {
    std::vector<int64_t> d = detail::LayerNormDims(srcShape);
    return ascendc_adv_deep_norm_tmp_size(d.data(), static_cast<uint32_t>(d.size()), typeSize, isReuseSource,
                                          isBasicBlock, &maxValue, &minValue);
}

// DeepNorm's tiling for a [B, S, H] source (originSrcShape: before H was padded) and
// stackBufferSize bytes of temporary space; false when a check fails (the struct is then zeroed).
inline bool GetDeepNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                  const uint32_t stackBufferSize, const uint32_t typeSize, const bool isReuseSource,
                                  const bool isBasicBlock, AscendC::tiling::DeepNormTiling& tiling) {
    std::vector<int64_t> d = detail::LayerNormDims(srcShape);
    std::vector<int64_t> o = detail::LayerNormDims(originSrcShape);
    ::DeepNormTiling out{};
    bool ok = ascendc_adv_deep_norm_tiling(d.data(), static_cast<uint32_t>(d.size()), o.data(),
                                           static_cast<uint32_t>(o.size()), stackBufferSize, typeSize, isReuseSource,
                                           isBasicBlock, &out);
    tiling = out;
    return ok;
}

// As above, filling the host tiling class (left unchanged when a check fails).
inline bool GetDeepNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                  const uint32_t stackBufferSize, const uint32_t typeSize, const bool isReuseSource,
                                  const bool isBasicBlock, optiling::DeepNormTiling& tiling) {
    ::DeepNormTiling out{};
    if (!GetDeepNormTilingInfo(srcShape, originSrcShape, stackBufferSize, typeSize, isReuseSource, isBasicBlock,
                               out)) {
        return false;
    }
    tiling.AscendcFrom(out);
    return true;
}
}  // namespace AscendC
