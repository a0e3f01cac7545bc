// Host helpers of the trigonometric and hyperbolic APIs: Get<Api>MaxMinTmpSize and
// Get<Api>TmpBufferFactorSize for Sin, Cos, Tan, Atan, Asin, Acos, Sinh, Cosh, Tanh, Asinh,
// Acosh, Atanh.
#pragma once

#include "../host/ge_shape.h"
#include "common.h"

extern "C" {
void ascendc_adv_trig_tmp_size(uint8_t op, uint32_t elements, uint32_t typeSize, bool isReuseSource,
                               uint32_t* maxValue, uint32_t* minValue);
void ascendc_adv_trig_tmp_factor(uint8_t op, uint32_t typeSize, uint32_t* maxLiveNodeCount, uint32_t* extraBuf);
}

namespace AscendC {
ASCENDC_ADV_TMP_SIZE(Sin, ascendc_adv_trig_tmp_size, ascendc_adv_trig_tmp_factor, 0)
ASCENDC_ADV_TMP_SIZE(Cos, ascendc_adv_trig_tmp_size, ascendc_adv_trig_tmp_factor, 1)
ASCENDC_ADV_TMP_SIZE(Tan, ascendc_adv_trig_tmp_size, ascendc_adv_trig_tmp_factor, 2)
ASCENDC_ADV_TMP_SIZE(Atan, ascendc_adv_trig_tmp_size, ascendc_adv_trig_tmp_factor, 3)
ASCENDC_ADV_TMP_SIZE(Asin, ascendc_adv_trig_tmp_size, ascendc_adv_trig_tmp_factor, 4)
ASCENDC_ADV_TMP_SIZE(Acos, ascendc_adv_trig_tmp_size, ascendc_adv_trig_tmp_factor, 5)
ASCENDC_ADV_TMP_SIZE(Sinh, ascendc_adv_trig_tmp_size, ascendc_adv_trig_tmp_factor, 6)
ASCENDC_ADV_TMP_SIZE(Cosh, ascendc_adv_trig_tmp_size, ascendc_adv_trig_tmp_factor, 7)
ASCENDC_ADV_TMP_SIZE(Tanh, ascendc_adv_trig_tmp_size, ascendc_adv_trig_tmp_factor, 8)
ASCENDC_ADV_TMP_SIZE(Asinh, ascendc_adv_trig_tmp_size, ascendc_adv_trig_tmp_factor, 9)
ASCENDC_ADV_TMP_SIZE(Acosh, ascendc_adv_trig_tmp_size, ascendc_adv_trig_tmp_factor, 10)
ASCENDC_ADV_TMP_SIZE(Atanh, ascendc_adv_trig_tmp_size, ascendc_adv_trig_tmp_factor, 11)
}  // namespace AscendC
