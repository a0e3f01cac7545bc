// Host helpers of the rounding, sign and remainder APIs: Get<Api>MaxMinTmpSize and
// Get<Api>TmpBufferFactorSize (Round's take the platform: its sizes differ on 310P).
#pragma once

#include "../../tiling/platform/platform_ascendc.h"
#include "../host/ge_shape.h"
#include "common.h"

extern "C" {
void ascendc_adv_round_tmp_size(uint8_t op, uint32_t elements, uint32_t typeSize, bool isReuseSource,
                                uint32_t* maxValue, uint32_t* minValue);
void ascendc_adv_round_tmp_factor(uint8_t op, uint32_t typeSize, uint32_t* maxLiveNodeCount, uint32_t* extraBuf);
void ascendc_adv_round_round_tmp_size(uint32_t npuArch, uint32_t elements, uint32_t typeSize, uint32_t* maxValue,
                                      uint32_t* minValue);
void ascendc_adv_round_round_tmp_factor(uint32_t npuArch, uint32_t typeSize, uint32_t* maxLiveNodeCount,
                                        uint32_t* extraBuf);
}

namespace AscendC {
ASCENDC_ADV_TMP_SIZE(Floor, ascendc_adv_round_tmp_size, ascendc_adv_round_tmp_factor, 0)
ASCENDC_ADV_TMP_SIZE(Ceil, ascendc_adv_round_tmp_size, ascendc_adv_round_tmp_factor, 1)
ASCENDC_ADV_TMP_SIZE(Trunc, ascendc_adv_round_tmp_size, ascendc_adv_round_tmp_factor, 2)
ASCENDC_ADV_TMP_SIZE(Frac, ascendc_adv_round_tmp_size, ascendc_adv_round_tmp_factor, 4)
ASCENDC_ADV_TMP_SIZE(Sign, ascendc_adv_round_tmp_size, ascendc_adv_round_tmp_factor, 5)
ASCENDC_ADV_TMP_SIZE(Fmod, ascendc_adv_round_tmp_size, ascendc_adv_round_tmp_factor, 6)
ASCENDC_ADV_TMP_SIZE(Xor, ascendc_adv_round_tmp_size, ascendc_adv_round_tmp_factor, 7)
ASCENDC_ADV_TMP_SIZE(Clamp, ascendc_adv_round_tmp_size, ascendc_adv_round_tmp_factor, 8)
ASCENDC_ADV_TMP_SIZE(Axpy, ascendc_adv_round_tmp_size, ascendc_adv_round_tmp_factor, 10)

inline void GetRoundMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const ge::Shape& srcShape,
                                  const uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue,
                                  uint32_t& minValue) {
    (void)isReuseSource;
    ascendc_adv_round_round_tmp_size(static_cast<uint32_t>(ascendcPlatform.GetCurNpuArch()),
                                     static_cast<uint32_t>(srcShape.GetShapeSize()), typeSize, &maxValue, &minValue);
}
inline void GetRoundTmpBufferFactorSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                                        const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    ascendc_adv_round_round_tmp_factor(static_cast<uint32_t>(ascendcPlatform.GetCurNpuArch()), typeSize,
                                       &maxLiveNodeCount, &extraBuf);
}
}  // namespace AscendC

extern "C" void ascendc_adv_cumsum_tmp_size(uint32_t outter, uint32_t inner, uint32_t typeSize, bool isLastAxis,
                                            uint32_t* maxValue, uint32_t* minValue);

namespace AscendC {
// GetCumSumMaxMinTmpSize(srcShape [outter, inner], typeSize, isLastAxis, isReuseSource, max, min).
inline void GetCumSumMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isLastAxis,
                                   const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    if (srcShape.GetDimNum() != 2) {
        ascendc_host::Fail("GetCumSumMaxMinTmpSize: srcShape has " + std::to_string(srcShape.GetDimNum()) +
                           " dimensions; only 2 ([outter, inner]) are supported");
    }
    if (typeSize != 2 && typeSize != 4) {
        ascendc_host::Fail("GetCumSumMaxMinTmpSize: typeSize = " + std::to_string(typeSize) +
                           "; only half (2) and float (4) are supported");
    }
    const int64_t inner = srcShape.GetDim(1);
    if (inner <= 0 || (inner * typeSize) % 32 != 0) {
        ascendc_host::Fail("GetCumSumMaxMinTmpSize: the inner dimension " + std::to_string(inner) +
                           " must be positive and a multiple of 32 bytes");
    }
    ascendc_adv_cumsum_tmp_size(static_cast<uint32_t>(srcShape.GetDim(0)), static_cast<uint32_t>(inner), typeSize,
                                isLastAxis, &maxValue, &minValue);
}
}  // namespace AscendC
