// Host helpers of the exponential and logarithm family: Get<Api>MaxMinTmpSize and
// Get<Api>TmpBufferFactorSize of Exp, Log, Log2, Log10, Erf, Erfc and Power (whose sizes depend
// on the simulated product's architecture).
#pragma once

#include "../../tiling/platform/platform_ascendc.h"
#include "../host/fail.h"
#include "../host/ge_shape.h"
#include "common.h"

extern "C" {
void ascendc_adv_exp_log_tmp_size(uint8_t op, uint32_t elements, uint32_t typeSize, bool isReuseSource,
                                  uint32_t* maxValue, uint32_t* minValue);
void ascendc_adv_exp_log_tmp_factor(uint8_t op, uint32_t typeSize, uint32_t* maxLiveNodeCount, uint32_t* extraBuf);
int32_t ascendc_adv_power_tmp_size(uint32_t npuArch, uint32_t baseElements, uint32_t expElements, bool typeIsInt,
                                   uint32_t typeSize, uint32_t* maxValue, uint32_t* minValue);
int32_t ascendc_adv_power_tmp_factor(uint32_t npuArch, bool baseIsTensor, bool expIsTensor, bool typeIsInt,
                                     uint32_t typeSize, uint32_t* maxLiveNodeCount, uint32_t* extraBuffer);
}

namespace AscendC {
ASCENDC_ADV_TMP_SIZE(Log, ascendc_adv_exp_log_tmp_size, ascendc_adv_exp_log_tmp_factor, 0)
ASCENDC_ADV_TMP_SIZE(Log2, ascendc_adv_exp_log_tmp_size, ascendc_adv_exp_log_tmp_factor, 1)
ASCENDC_ADV_TMP_SIZE(Log10, ascendc_adv_exp_log_tmp_size, ascendc_adv_exp_log_tmp_factor, 2)
ASCENDC_ADV_TMP_SIZE(Erf, ascendc_adv_exp_log_tmp_size, ascendc_adv_exp_log_tmp_factor, 3)
ASCENDC_ADV_TMP_SIZE(Erfc, ascendc_adv_exp_log_tmp_size, ascendc_adv_exp_log_tmp_factor, 4)

// GetExpMaxMinTmpSize returns true.
inline bool GetExpMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                uint32_t& maxValue, uint32_t& minValue) {
    ascendc_adv_exp_log_tmp_size(5, static_cast<uint32_t>(srcShape.GetShapeSize()), typeSize, isReuseSource,
                                 &maxValue, &minValue);
    return true;
}
inline void GetExpTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
    ascendc_adv_exp_log_tmp_factor(5, typeSize, &maxLiveNodeCount, &extraBuffer);
}

namespace detail {
// A Power operand's element count, 0 for a scalar (shape {1}).
inline uint32_t PowerShapeElements(const ge::Shape& shape) {
    if (shape.GetDimNum() == 1 && shape.GetDim(0) == 1) {
        return 0;
    }
    return static_cast<uint32_t>(shape.GetShapeSize());
}
inline uint32_t PowerNpuArch() {
    return static_cast<uint32_t>(platform_ascendc::PlatformAscendCManager::GetInstance()->GetCurNpuArch());
}
}  // namespace detail

// Power's sizes depend on the architecture of the simulated product (A2/A3 or 310P).
inline void GetPowerMaxMinTmpSize(const ge::Shape& srcShape1, const ge::Shape& srcShape2, const bool typeIsInt,
                                  const uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue,
                                  uint32_t& minValue) {
    (void)isReuseSource;
    if (ascendc_adv_power_tmp_size(detail::PowerNpuArch(), detail::PowerShapeElements(srcShape1),
                                   detail::PowerShapeElements(srcShape2), typeIsInt, typeSize, &maxValue,
                                   &minValue) != 0) {
        ascendc_host::Fail("GetPowerMaxMinTmpSize is not supported on current device: Power is on A2, A3 and 310P");
    }
}
inline void GetPowerTmpBufferFactorSize(const bool baseIsTensor, const bool expIsTensor, const bool typeIsInt,
                                        const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
    if (ascendc_adv_power_tmp_factor(detail::PowerNpuArch(), baseIsTensor, expIsTensor, typeIsInt, typeSize,
                                     &maxLiveNodeCount, &extraBuffer) != 0) {
        ascendc_host::Fail(
            "GetPowerTmpBufferFactorSize is not supported on current device: Power is on A2, A3 and 310P");
    }
}
}  // namespace AscendC
