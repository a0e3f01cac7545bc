// Host helpers of the normalization family: GetRmsNormMaxMinTmpSize, GetRmsNormTilingInfo, and the
// host tiling class optiling::RmsNormTiling (a field of an operator's TilingData through
// TILING_DATA_FIELD_DEF_STRUCT).
#pragma once

#include <cstring>
#include <vector>

#include "../host/ge_shape.h"
#include "common.h"
#include "normalization.h"

extern "C" {
bool ascendc_adv_rms_norm_tmp_size(const int64_t* dims, uint32_t rank, uint32_t typeSize, bool isBasicBlock,
                                   uint32_t* maxValue, uint32_t* minValue);
bool ascendc_adv_rms_norm_tiling(const int64_t* dims, uint32_t rank, const int64_t* originDims, uint32_t originRank,
                                 uint32_t stackBufferByteSize, uint32_t typeSize, bool isBasicBlock, void* tiling);
}

namespace optiling {
BEGIN_TILING_DATA_DEF(RmsNormTiling)
TILING_DATA_FIELD_DEF(uint32_t, bLength);
TILING_DATA_FIELD_DEF(uint32_t, sLength);
TILING_DATA_FIELD_DEF(uint32_t, hLength);
TILING_DATA_FIELD_DEF(uint32_t, originalHLength);
TILING_DATA_FIELD_DEF(float, reciprocalOfHLength);
TILING_DATA_FIELD_DEF(uint32_t, mainBshLength);
TILING_DATA_FIELD_DEF(uint32_t, mainBsLength);
TILING_DATA_FIELD_DEF(uint32_t, mainBsLengthAlign);
TILING_DATA_FIELD_DEF(uint32_t, loopRound);
TILING_DATA_FIELD_DEF(uint32_t, inputTailPos);
TILING_DATA_FIELD_DEF(uint32_t, tailBshLength);
TILING_DATA_FIELD_DEF(uint32_t, tailBsLength);
END_TILING_DATA_DEF;
}  // namespace optiling

namespace AscendC {
// Bytes of temporary space RmsNorm needs for a [B, S, H] source; false when isBasicBlock and the
// shape breaks the basic-block rule (H a multiple of 64 below 2048, B·S a multiple of 8).
inline bool GetRmsNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                    uint32_t& minValue, const bool isBasicBlock = false) {
    std::vector<int64_t> d = srcShape.GetDims();
    return ascendc_adv_rms_norm_tmp_size(d.data(), static_cast<uint32_t>(d.size()), typeSize, isBasicBlock, &maxValue,
                                         &minValue);
}

// The kernel tiling for a [B, S, H] source (originSrcShape: before H was padded to whole 32-byte
// blocks) and stackBufferByteSize bytes of temporary space; false when a check fails (the
// struct is then zeroed).
inline bool GetRmsNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                 const uint32_t stackBufferByteSize, const uint32_t typeSize,
                                 AscendC::tiling::RmsNormTiling& tiling, const bool isBasicBlock = false) {
    std::vector<int64_t> d = srcShape.GetDims();
    std::vector<int64_t> o = originSrcShape.GetDims();
    AscendC::tiling::RmsNormTiling out{};
    bool ok = ascendc_adv_rms_norm_tiling(d.data(), static_cast<uint32_t>(d.size()), o.data(),
                                          static_cast<uint32_t>(o.size()), stackBufferByteSize, typeSize, isBasicBlock,
                                          &out);
    tiling = out;
    return ok;
}

// As above, filling the host tiling class (left unchanged when a check fails).
inline bool GetRmsNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                 const uint32_t stackBufferByteSize, const uint32_t typeSize,
                                 optiling::RmsNormTiling& tiling, const bool isBasicBlock = false) {
    AscendC::tiling::RmsNormTiling t{};
    if (!GetRmsNormTilingInfo(srcShape, originSrcShape, stackBufferByteSize, typeSize, t, isBasicBlock)) {
        return false;
    }
    tiling.set_bLength(t.bLength);
    tiling.set_sLength(t.sLength);
    tiling.set_hLength(t.hLength);
    tiling.set_originalHLength(t.originalHLength);
    tiling.set_reciprocalOfHLength(t.reciprocalOfHLength);
    tiling.set_mainBshLength(t.mainBshLength);
    tiling.set_mainBsLength(t.mainBsLength);
    tiling.set_mainBsLengthAlign(t.mainBsLengthAlign);
    tiling.set_loopRound(t.loopRound);
    tiling.set_inputTailPos(t.inputTailPos);
    tiling.set_tailBshLength(t.tailBshLength);
    tiling.set_tailBsLength(t.tailBsLength);
    return true;
}
}  // namespace AscendC
