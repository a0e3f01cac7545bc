// Host helpers of the index family: GetArithProgressionMaxMinTmpSize / GetArangeMaxMinTmpSize.
#pragma once

#include "../host/ge_shape.h"
#include "common.h"

extern "C" {
void ascendc_adv_arith_progression_tmp_size(uint32_t* maxValue, uint32_t* minValue);
}

namespace AscendC {
// ArithProgression needs no temporary space: both 0.
inline void GetArithProgressionMaxMinTmpSize(uint32_t& maxValue, uint32_t& minValue) {
    ascendc_adv_arith_progression_tmp_size(&maxValue, &minValue);
}
inline void GetArangeMaxMinTmpSize(uint32_t& maxValue, uint32_t& minValue) {
    ascendc_adv_arith_progression_tmp_size(&maxValue, &minValue);
}
}  // namespace AscendC
