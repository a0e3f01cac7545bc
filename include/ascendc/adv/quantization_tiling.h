// Host helpers of the quantization family: GetAscendQuantMaxMinTmpSize, GetAscendQuantTmpBufferFactorSize.
#pragma once

#include "../host/ge_shape.h"
#include "common.h"

extern "C" {
void ascendc_adv_ascend_quant_tmp_size(uint32_t elements, uint32_t* maxValue, uint32_t* minValue);
void ascendc_adv_ascend_quant_tmp_factor(uint32_t* maxLiveNodeCount, uint32_t* extraBuf);
}

namespace AscendC {
// Bytes of temporary space AscendQuant needs for srcShape's elements (typeSize 2 or 4).
inline void GetAscendQuantMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                        uint32_t& minValue) {
    (void)typeSize;
    ascendc_adv_ascend_quant_tmp_size(static_cast<uint32_t>(srcShape.GetShapeSize()), &maxValue, &minValue);
}
// The temporary space is maxLiveNodeCount · elements · typeSize + extraBuf bytes.
inline void GetAscendQuantTmpBufferFactorSize(uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
    ascendc_adv_ascend_quant_tmp_factor(&maxLiveNodeCount, &extraBuf);
}
}  // namespace AscendC
