// Host helpers of the quantization family: Get{AscendQuant,AscendDequant,AscendAntiQuant}MaxMinTmpSize and
// their TmpBufferFactorSize.
#pragma once

#include "../host/ge_shape.h"
#include <vector>

#include "common.h"

extern "C" {
void ascendc_adv_ascend_quant_tmp_size(uint32_t elements, uint32_t* maxValue, uint32_t* minValue);
void ascendc_adv_ascend_quant_tmp_factor(uint32_t* maxLiveNodeCount, uint32_t* extraBuf);
bool ascendc_adv_ascend_dequant_tmp_size(const int64_t* dims, uint32_t rank, uint32_t typeSize, uint32_t* maxValue,
                                         uint32_t* minValue);
void ascendc_adv_ascend_antiquant_tmp(uint8_t which, const int64_t* src, uint32_t srcRank, const int64_t* scale,
                                      uint32_t scaleRank, bool isTranspose, bool fp4Input, bool halfOutput,
                                      uint32_t* a, uint32_t* b);
void ascendc_adv_ascend_dequant_tmp_factor(const int64_t* dims, uint32_t rank, uint32_t* maxLiveNodeCount,
                                           uint32_t* extraBuf);
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

// Bytes of temporary space AscendDequant needs for an [m, n] (or [n]) int32 source (typeSize 4); on a
// failed check the reason goes to stderr and the outputs stay unchanged.
inline void GetAscendDequantMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                          uint32_t& minValue) {
    std::vector<int64_t> d = srcShape.GetDims();
    ascendc_adv_ascend_dequant_tmp_size(d.data(), static_cast<uint32_t>(d.size()), typeSize, &maxValue, &minValue);
}
// The temporary space is maxLiveNodeCount · elements · typeSize + extraBuf bytes.
inline void GetAscendDequantTmpBufferFactorSize(const ge::Shape& srcShape, uint32_t& maxLiveNodeCount,
                                                uint32_t& extraBuf) {
    std::vector<int64_t> d = srcShape.GetDims();
    ascendc_adv_ascend_dequant_tmp_factor(d.data(), static_cast<uint32_t>(d.size()), &maxLiveNodeCount, &extraBuf);
}

namespace detail {
inline void AntiQuantTmp(uint8_t which, const ge::Shape& srcShape, const ge::Shape& scaleShape, bool isTranspose,
                         ge::DataType inputDataType, ge::DataType outputDataType, uint32_t* a, uint32_t* b) {
    std::vector<int64_t> s = srcShape.GetDims();
    std::vector<int64_t> c = scaleShape.GetDims();
    bool fp4 = inputDataType == ge::DT_FLOAT4_E2M1 || inputDataType == ge::DT_FLOAT4_E1M2;
    ascendc_adv_ascend_antiquant_tmp(which, s.data(), static_cast<uint32_t>(s.size()), c.data(),
                                     static_cast<uint32_t>(c.size()), isTranspose, fp4,
                                     outputDataType == ge::DT_FLOAT16, a, b);
}
}  // namespace detail

// Bytes of temporary space AscendAntiQuant uses at most / needs at least (0 for a half result).
inline uint32_t GetAscendAntiQuantMaxTmpSize(const ge::Shape& srcShape, const ge::Shape& scaleShape, bool isTranspose,
                                             ge::DataType inputDataType, ge::DataType outputDataType) {
    uint32_t v = 0;
    detail::AntiQuantTmp(0, srcShape, scaleShape, isTranspose, inputDataType, outputDataType, &v, nullptr);
    return v;
}
inline uint32_t GetAscendAntiQuantMinTmpSize(const ge::Shape& srcShape, const ge::Shape& scaleShape, bool isTranspose,
                                             ge::DataType inputDataType, ge::DataType outputDataType) {
    uint32_t v = 0;
    detail::AntiQuantTmp(1, srcShape, scaleShape, isTranspose, inputDataType, outputDataType, &v, nullptr);
    return v;
}
inline void GetAscendAntiQuantMaxMinTmpSize(const ge::Shape& srcShape, const ge::Shape& scaleShape, bool isTranspose,
                                            ge::DataType inputDataType, ge::DataType outputDataType,
                                            uint32_t& maxValue, uint32_t& minValue) {
    maxValue = GetAscendAntiQuantMaxTmpSize(srcShape, scaleShape, isTranspose, inputDataType, outputDataType);
    minValue = GetAscendAntiQuantMinTmpSize(srcShape, scaleShape, isTranspose, inputDataType, outputDataType);
}
// The temporary space is maxLiveNodeCount · elements · typeSize + extraBuf bytes.
inline void GetAscendAntiQuantTmpBufferFactorSize(const ge::Shape& srcShape, const ge::Shape& scaleShape,
                                                  bool isTranspose, ge::DataType inputDataType,
                                                  ge::DataType outputDataType, uint32_t& maxLiveNodeCount,
                                                  uint32_t& extraBuf) {
    detail::AntiQuantTmp(2, srcShape, scaleShape, isTranspose, inputDataType, outputDataType, &maxLiveNodeCount,
                         &extraBuf);
}
}  // namespace AscendC
