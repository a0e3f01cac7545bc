// Host helpers of BatchNorm: GetBatchNormMaxMinTmpSize, GetBatchNormNDTilingInfo and the host
// tiling class optiling::BatchNormTiling (a field of an operator's TilingData through
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
