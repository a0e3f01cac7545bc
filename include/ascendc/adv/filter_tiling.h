// Host helpers of Select (byte mask) and DropOut: GetSelectMaxMinTmpSize / GetSelect{Max,Min}TmpSize
// (and their SelectWithBytesMask names), GetDropOutMaxMinTmpSize / GetDropOut{Max,Min}TmpSize.
#pragma once

#include "../host/ge_shape.h"
#include "common.h"

extern "C" {
void ascendc_adv_select_tmp_size(uint32_t srcSize, uint32_t srcLast, uint32_t maskLast, uint32_t maskTypeSize,
                                 bool reuseMask, uint32_t* maxValue, uint32_t* minValue);
void ascendc_adv_dropout_tmp_size(uint32_t elements, uint32_t* maxValue, uint32_t* minValue);
}

namespace AscendC {
namespace detail {
inline uint32_t LastDim(const ge::Shape& s) {
    return s.GetDimNum() == 0 ? 0 : static_cast<uint32_t>(s.GetDim(s.GetDimNum() - 1));
}
inline void SelectTmp(const ge::Shape& src0Shape, const ge::Shape& src1Shape, const ge::Shape& maskShape,
                      uint32_t maskTypeSize, bool isReuseMask, uint32_t& maxValue, uint32_t& minValue) {
    const bool src0Scalar = src0Shape.GetDimNum() == 0 || src0Shape.GetShapeSize() == 1;
    const ge::Shape& src = src0Scalar ? src1Shape : src0Shape;
    ascendc_adv_select_tmp_size(static_cast<uint32_t>(src.GetShapeSize()), LastDim(src), LastDim(maskShape),
                                maskTypeSize, isReuseMask, &maxValue, &minValue);
}
}  // namespace detail

inline void GetSelectMaxMinTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape, const uint32_t srcTypeSize,
                                   const ge::Shape& maskShape, const uint32_t maskTypeSize, const bool isReuseMask,
                                   uint32_t& maxValue, uint32_t& minValue) {
    (void)srcTypeSize;
    detail::SelectTmp(src0Shape, src1Shape, maskShape, maskTypeSize, isReuseMask, maxValue, minValue);
}
inline uint32_t GetSelectMaxTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape, const uint32_t srcTypeSize,
                                    const ge::Shape& maskShape, const uint32_t maskTypeSize, const bool isReuseMask) {
    uint32_t maxValue = 0, minValue = 0;
    GetSelectMaxMinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask, maxValue, minValue);
    return maxValue;
}
inline uint32_t GetSelectMinTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape, const uint32_t srcTypeSize,
                                    const ge::Shape& maskShape, const uint32_t maskTypeSize, const bool isReuseMask) {
    uint32_t maxValue = 0, minValue = 0;
    GetSelectMaxMinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask, maxValue, minValue);
    return minValue;
}
inline void GetSelectWithBytesMaskMaxMinTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape,
                                                const uint32_t srcTypeSize, const ge::Shape& maskShape,
                                                const uint32_t maskTypeSize, const bool isReuseMask,
                                                uint32_t& maxValue, uint32_t& minValue) {
    GetSelectMaxMinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask, maxValue, minValue);
}
inline uint32_t GetSelectWithBytesMaskMaxTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape,
                                                 const uint32_t srcTypeSize, const ge::Shape& maskShape,
                                                 const uint32_t maskTypeSize, const bool isReuseMask) {
    return GetSelectMaxTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask);
}
inline uint32_t GetSelectWithBytesMaskMinTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape,
                                                 const uint32_t srcTypeSize, const ge::Shape& maskShape,
                                                 const uint32_t maskTypeSize, const bool isReuseMask) {
    return GetSelectMinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask);
}

inline void GetDropOutMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                    uint32_t& maxValue, uint32_t& minValue) {
    (void)typeSize;
    (void)isReuseSource;
    ascendc_adv_dropout_tmp_size(static_cast<uint32_t>(srcShape.GetShapeSize()), &maxValue, &minValue);
}
inline uint32_t GetDropOutMaxTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource) {
    uint32_t maxValue = 0, minValue = 0;
    GetDropOutMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue);
    return maxValue;
}
inline uint32_t GetDropOutMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource) {
    uint32_t maxValue = 0, minValue = 0;
    GetDropOutMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue);
    return minValue;
}
}  // namespace AscendC
