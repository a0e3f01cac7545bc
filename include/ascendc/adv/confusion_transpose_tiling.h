// Host helpers of Transpose / ConfusionTranspose: GetTransposeMaxMinTmpSize,
// GetTransposeTilingInfo and their older names GetConfusionTransposeMaxMinTmpSize,
// GetConfusionTransposeTilingInfo, GetConfusionTransposeOnlyTilingInfo, and the host tiling class
// optiling::ConfusionTransposeTiling (a field of an operator's TilingData through
// TILING_DATA_FIELD_DEF_STRUCT).
#pragma once

#include <vector>

#include "../../register/tilingdata_base.h"
#include "../host/ge_shape.h"
#include "common.h"
#include "confusion_transpose.h"

extern "C" {
bool ascendc_adv_confusion_transpose_tmp_size(const int64_t* dims, uint32_t rank, uint32_t typeSize,
                                              uint32_t transposeType, uint32_t* maxValue, uint32_t* minValue);
bool ascendc_adv_confusion_transpose_tiling(const int64_t* dims, uint32_t rank, uint32_t stackBufferSize,
                                            uint32_t typeSize, uint32_t transposeType, void* tiling);
}

// One field of the host tiling class (written without the BEGIN_TILING_DATA_DEF macros, which a
// kernel header included later may have redefined).
#define ASCENDC_CT_HOST_FIELD(field)                                                                          \
private:                                                                                                      \
    ::optiling::detail::FieldSlot field##_ascendc_slot_ =                                                     \
        ::optiling::detail::FieldSlot::Scalar<uint32_t>(this, "uint32_t", #field, 1);                         \
                                                                                                              \
public:                                                                                                       \
    void set_##field(uint32_t value) { AscendcPut(field##_ascendc_slot_.offset, &value, sizeof(uint32_t)); }  \
    uint32_t get_##field() const {                                                                            \
        uint32_t value;                                                                                       \
        AscendcGet(field##_ascendc_slot_.offset, &value, sizeof(uint32_t));                                   \
        return value;                                                                                         \
    }

namespace optiling {
class ConfusionTransposeTiling : public ::optiling::TilingDef {
public:
    ConfusionTransposeTiling() : ::optiling::TilingDef("ConfusionTransposeTiling") {}
    ASCENDC_CT_HOST_FIELD(param0)
    ASCENDC_CT_HOST_FIELD(param1)
    ASCENDC_CT_HOST_FIELD(param2)
    ASCENDC_CT_HOST_FIELD(param3)
    ASCENDC_CT_HOST_FIELD(param4)
    ASCENDC_CT_HOST_FIELD(param5)
    ASCENDC_CT_HOST_FIELD(param6)
    ASCENDC_CT_HOST_FIELD(param7)
    ASCENDC_CT_HOST_FIELD(param8)
    ASCENDC_CT_HOST_FIELD(param9)
    ASCENDC_CT_HOST_FIELD(param10)
    ASCENDC_CT_HOST_FIELD(param11)
    ASCENDC_CT_HOST_FIELD(param12)
    ASCENDC_CT_HOST_FIELD(param13)
    ASCENDC_CT_HOST_FIELD(param14)
    ASCENDC_CT_HOST_FIELD(param15)
    ASCENDC_CT_HOST_FIELD(param16)
    ASCENDC_CT_HOST_FIELD(param17)
public:
    // The fields in order (the kernel struct's layout).
    void AscendcFrom(const ::ConfusionTransposeTiling& t) { AscendcPut(0, &t, sizeof(t)); }
};
}  // namespace optiling

#undef ASCENDC_CT_HOST_FIELD

namespace AscendC {
// Bytes of temporary space Transpose needs for transposeTypeIn (1-7) and srcShape ([B, N, S, H/N],
// or [H, W] for scene 7); 0, 0 (and the reason on stderr) for a refused scene or shape.
inline void GetTransposeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                      const uint32_t transposeTypeIn, uint32_t& maxValue, uint32_t& minValue) {
    std::vector<int64_t> d = srcShape.GetDims();
    ascendc_adv_confusion_transpose_tmp_size(d.data(), static_cast<uint32_t>(d.size()), typeSize, transposeTypeIn,
                                             &maxValue, &minValue);
}
inline void GetConfusionTransposeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                               const uint32_t transposeTypeIn, uint32_t& maxValue,
                                               uint32_t& minValue) {
    GetTransposeMaxMinTmpSize(srcShape, typeSize, transposeTypeIn, maxValue, minValue);
}

// The kernel tiling for transposeTypeIn (1-7), srcShape and stackBufferSize bytes of temporary
// space; the tiling is left untouched (the reason on stderr) for a refused scene or shape.
inline void GetTransposeTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                   const uint32_t typeSize, const uint32_t transposeTypeIn,
                                   AscendC::tiling::ConfusionTransposeTiling& tiling) {
    std::vector<int64_t> d = srcShape.GetDims();
    ascendc_adv_confusion_transpose_tiling(d.data(), static_cast<uint32_t>(d.size()), stackBufferSize, typeSize,
                                           transposeTypeIn, &tiling);
}
inline void GetTransposeTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                   const uint32_t typeSize, const uint32_t transposeTypeIn,
                                   optiling::ConfusionTransposeTiling& tiling) {
    std::vector<int64_t> d = srcShape.GetDims();
    ::ConfusionTransposeTiling t{};
    if (ascendc_adv_confusion_transpose_tiling(d.data(), static_cast<uint32_t>(d.size()), stackBufferSize, typeSize,
                                               transposeTypeIn, &t)) {
        tiling.AscendcFrom(t);
    }
}
inline void GetConfusionTransposeTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                            const uint32_t typeSize, const uint32_t transposeTypeIn,
                                            AscendC::tiling::ConfusionTransposeTiling& tiling) {
    GetTransposeTilingInfo(srcShape, stackBufferSize, typeSize, transposeTypeIn, tiling);
}
inline void GetConfusionTransposeTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                            const uint32_t typeSize, const uint32_t transposeTypeIn,
                                            optiling::ConfusionTransposeTiling& tiling) {
    GetTransposeTilingInfo(srcShape, stackBufferSize, typeSize, transposeTypeIn, tiling);
}
// Scene 7 ([H, W] -> [W, H]).
inline void GetConfusionTransposeOnlyTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                                const uint32_t typeSize,
                                                AscendC::tiling::ConfusionTransposeTiling& tiling) {
    GetTransposeTilingInfo(srcShape, stackBufferSize, typeSize, 7, tiling);
}
inline void GetConfusionTransposeOnlyTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                                const uint32_t typeSize, optiling::ConfusionTransposeTiling& tiling) {
    GetTransposeTilingInfo(srcShape, stackBufferSize, typeSize, 7, tiling);
}
}  // namespace AscendC
