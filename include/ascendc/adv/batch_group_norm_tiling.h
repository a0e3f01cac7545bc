// Host helpers of BatchNorm and GroupNorm: GetBatchNormMaxMinTmpSize, GetBatchNormNDTilingInfo,
// GetGroupNormMaxMinTmpSize, GetGroupNormNDTilingInfo and the host tiling classes
// optiling::BatchNormTiling, optiling::GroupNormTiling (fields of an operator's TilingData through
// TILING_DATA_FIELD_DEF_STRUCT).
#pragma once

#include <cstring>
#include <string>
#include <vector>

#include "../../register/tilingdata_base.h"
#include "../host/ge_shape.h"
#include "batch_group_norm.h"
#include "common.h"

extern "C" {
bool ascendc_adv_batch_norm_tmp_size(const int64_t* dims, uint32_t rank, const int64_t* originDims,
                                     uint32_t originRank, uint32_t typeSize, bool isReuseSource, bool isBasicBlock,
                                     uint32_t* maxValue, uint32_t* minValue);
bool ascendc_adv_batch_norm_tiling(const int64_t* dims, uint32_t rank, const int64_t* originDims,
                                   uint32_t originRank, uint32_t stackBufferByteSize, uint32_t typeSize,
                                   bool isReuseSource, bool isBasicBlock, void* tiling);
}

// One field of the host tiling class (written without the BEGIN_TILING_DATA_DEF macros, which a
// kernel header included later may have redefined).
#define ASCENDC_BN_HOST_FIELD(type, field)                                                                    \
private:                                                                                                      \
    ::optiling::detail::FieldSlot field##_ascendc_slot_ =                                                     \
        ::optiling::detail::FieldSlot::Scalar<type>(this, #type, #field, 1);                                  \
                                                                                                              \
public:                                                                                                       \
    void set_##field(type value) { AscendcPut(field##_ascendc_slot_.offset, &value, sizeof(type)); }          \
    type get_##field() const {                                                                                \
        type value;                                                                                           \
        AscendcGet(field##_ascendc_slot_.offset, &value, sizeof(type));                                       \
        return value;                                                                                         \
    }

namespace optiling {
class BatchNormTiling : public ::optiling::TilingDef {
public:
    BatchNormTiling() : ::optiling::TilingDef("BatchNormTiling") {}
    ASCENDC_BATCHNORM_FIELDS(ASCENDC_BN_HOST_FIELD)
public:
    // The fields in order (the kernel struct's layout).
    void AscendcFrom(const ::BatchNormTiling& t) { AscendcPut(0, &t, sizeof(t)); }
};
}  // namespace optiling

#undef ASCENDC_BN_HOST_FIELD

namespace AscendC {
// Bytes of temporary space BatchNorm needs for srcShape [B, S, H] (originSrcShape [B0, S0, H0]);
// false for a rank other than 3 or a shape isBasicBlock refuses.
inline bool GetBatchNormMaxMinTmpSize(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                      const uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue,
                                      uint32_t& minValue, const bool isBasicBlock = false) {
    std::vector<int64_t> d = srcShape.GetDims();
    std::vector<int64_t> o = originSrcShape.GetDims();
    return ascendc_adv_batch_norm_tmp_size(d.data(), static_cast<uint32_t>(d.size()), o.data(),
                                           static_cast<uint32_t>(o.size()), typeSize, isReuseSource, isBasicBlock,
                                           &maxValue, &minValue);
}

// The kernel tiling for srcShape [B, S, H] and stackBufferByteSize bytes of temporary space;
// false (tiling untouched) for a refused shape or a buffer below the minimum.
inline bool GetBatchNormNDTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                     const uint32_t stackBufferByteSize, const uint32_t typeSize,
                                     const bool isReuseSource, AscendC::tiling::BatchNormTiling& tilling,
                                     const bool isBasicBlock = false) {
    std::vector<int64_t> d = srcShape.GetDims();
    std::vector<int64_t> o = originSrcShape.GetDims();
    return ascendc_adv_batch_norm_tiling(d.data(), static_cast<uint32_t>(d.size()), o.data(),
                                         static_cast<uint32_t>(o.size()), stackBufferByteSize, typeSize,
                                         isReuseSource, isBasicBlock, &tilling);
}
inline bool GetBatchNormNDTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                     const uint32_t stackBufferByteSize, const uint32_t typeSize,
                                     const bool isReuseSource, optiling::BatchNormTiling& tilling,
                                     const bool isBasicBlock = false) {
    ::BatchNormTiling t{};
    bool ok = GetBatchNormNDTilingInfo(srcShape, originSrcShape, stackBufferByteSize, typeSize, isReuseSource, t,
                                       isBasicBlock);
    tilling.AscendcFrom(t);
    return ok;
}
}  // namespace AscendC

extern "C" {
bool ascendc_adv_group_norm_tmp_size(const int64_t* dims, uint32_t rank, uint32_t typeSize, bool isReuseSource,
                                     uint32_t groupNum, uint32_t* maxValue, uint32_t* minValue);
bool ascendc_adv_group_norm_tiling(const int64_t* dims, uint32_t rank, uint32_t stackBufferSize, uint32_t typeSize,
                                   bool isReuseSource, uint32_t groupNum, void* tiling);
}

// One field of a host tiling class (see ASCENDC_BN_HOST_FIELD).
#define ASCENDC_GN_HOST_FIELD(type, field)                                                                    \
private:                                                                                                      \
    ::optiling::detail::FieldSlot field##_ascendc_slot_ =                                                     \
        ::optiling::detail::FieldSlot::Scalar<type>(this, #type, #field, 1);                                  \
                                                                                                              \
public:                                                                                                       \
    void set_##field(type value) { AscendcPut(field##_ascendc_slot_.offset, &value, sizeof(type)); }          \
    type get_##field() const {                                                                                \
        type value;                                                                                           \
        AscendcGet(field##_ascendc_slot_.offset, &value, sizeof(type));                                       \
        return value;                                                                                         \
    }

namespace optiling {
class GroupNormTiling : public ::optiling::TilingDef {
public:
    GroupNormTiling() : ::optiling::TilingDef("GroupNormTiling") {}
    ASCENDC_GROUPNORM_FIELDS(ASCENDC_GN_HOST_FIELD)
public:
    // The fields in order (the kernel struct's layout).
    void AscendcFrom(const ::GroupNormTiling& t) { AscendcPut(0, &t, sizeof(t)); }
};
}  // namespace optiling

#undef ASCENDC_GN_HOST_FIELD

namespace AscendC {
// Bytes of temporary space GroupNorm needs for srcShape [N, C, H, W] and groupNum groups
// (0, 0 for a refused shape).
inline void GetGroupNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                      const uint32_t groupNum, uint32_t& maxValue, uint32_t& minValue) {
    std::vector<int64_t> d = srcShape.GetDims();
    ascendc_adv_group_norm_tmp_size(d.data(), static_cast<uint32_t>(d.size()), typeSize, isReuseSource, groupNum,
                                    &maxValue, &minValue);
}

// The kernel tiling for srcShape [N, C, H, W] and stackBufferSize bytes of temporary space; the
// tiling is left untouched for a refused shape, C not a multiple of groupNum or a buffer below
// one group.
inline void GetGroupNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                     const uint32_t typeSize, const bool isReuseSource, const uint32_t groupNum,
                                     AscendC::tiling::GroupNormTiling& tiling) {
    std::vector<int64_t> d = srcShape.GetDims();
    ascendc_adv_group_norm_tiling(d.data(), static_cast<uint32_t>(d.size()), stackBufferSize, typeSize,
                                  isReuseSource, groupNum, &tiling);
}
inline void GetGroupNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                     const uint32_t typeSize, const bool isReuseSource, const uint32_t groupNum,
                                     optiling::GroupNormTiling& tiling) {
    std::vector<int64_t> d = srcShape.GetDims();
    ::GroupNormTiling t{};
    if (ascendc_adv_group_norm_tiling(d.data(), static_cast<uint32_t>(d.size()), stackBufferSize, typeSize,
                                      isReuseSource, groupNum, &t)) {
        tiling.AscendcFrom(t);
    }
}
}  // namespace AscendC
