// Host helpers of the gamma-function APIs: GetDigammaMaxMinTmpSize, GetDigammaTmpBufferFactorSize,
// GetLgammaMaxMinTmpSize, GetLgammaTmpBufferFactorSize.
#pragma once

#include "../host/ge_shape.h"
#include "common.h"

extern "C" {
void ascendc_adv_gamma_tmp_size(uint8_t op, uint32_t elements, uint32_t typeSize, bool isReuseSource,
                                uint32_t* maxValue, uint32_t* minValue);
void ascendc_adv_gamma_tmp_factor(uint8_t op, uint32_t typeSize, uint32_t* maxLiveNodeCount, uint32_t* extraBuf);
}

namespace AscendC {
ASCENDC_ADV_TMP_SIZE(Digamma, ascendc_adv_gamma_tmp_size, ascendc_adv_gamma_tmp_factor, 0)
ASCENDC_ADV_TMP_SIZE(Lgamma, ascendc_adv_gamma_tmp_size, ascendc_adv_gamma_tmp_factor, 1)
}  // namespace AscendC
