// Host helpers of the reduce family: GetSumMaxMinTmpSize, GetMeanMaxMinTmpSize,
// GetMeanTmpBufferFactorSize, GetReduce{Max,Min,Sum,Mean,Prod,Any,All}MaxMinTmpSize and
// GetReduceXorSumMaxMinTmpSize.
#pragma once

#include <vector>

#include "../host/ge_shape.h"
#include "common.h"
#include "reduce_pattern.h"

extern "C" {
void ascendc_adv_sum_tmp_size(uint32_t n, uint32_t typeSize, uint32_t* maxValue, uint32_t* minValue);
void ascendc_adv_mean_tmp_size(uint32_t n, uint32_t srcTypeSize, uint32_t accTypeSize, uint32_t* maxValue,
                               uint32_t* minValue);
void ascendc_adv_mean_tmp_factor(uint32_t typeSize, uint32_t* maxLiveNodeCount, uint32_t* extraBuf);
void ascendc_adv_reduce_tmp_size(uint8_t op, uint32_t first, uint32_t last, uint32_t typeSize, uint8_t pattern,
                                 bool isReuseSource, uint32_t* maxValue, uint32_t* minValue);
void ascendc_adv_reduce_xor_sum_tmp_size(uint32_t n, uint32_t typeSize, bool isReuseSource, uint32_t* maxValue,
                                         uint32_t* minValue);
}

namespace AscendC {

inline void GetSumMaxMinTmpSize(const uint32_t n, const uint32_t typeSize, const bool isReuseSource, uint32_t& maxSize,
                                uint32_t& minSize) {
    (void)isReuseSource;
    ascendc_adv_sum_tmp_size(n, typeSize, &maxSize, &minSize);
}

inline void GetMeanMaxMinTmpSize(const uint32_t n, const uint32_t srcTypeSize, const uint32_t accTypeSize,
                                 const bool isReuseSource, uint32_t& maxSize, uint32_t& minSize) {
    (void)isReuseSource;
    ascendc_adv_mean_tmp_size(n, srcTypeSize, accTypeSize, &maxSize, &minSize);
}

inline void GetMeanTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
    ascendc_adv_mean_tmp_factor(typeSize, &maxLiveNodeCount, &extraBuffer);
}

namespace detail {
inline uint32_t ReduceTypeSize(ge::DataType t) {
    return t == ge::DT_FLOAT || t == ge::DT_INT32 ? 4u : t == ge::DT_FLOAT16 ? 2u : 1u;
}
inline void ReduceTmp(uint8_t op, const ge::Shape& srcShape, ge::DataType dataType, ReducePattern pattern,
                      bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
    ascendc_adv_reduce_tmp_size(op, static_cast<uint32_t>(srcShape.GetDim(0)), static_cast<uint32_t>(srcShape.GetDim(1)),
                                ReduceTypeSize(dataType), pattern == ReducePattern::AR ? 0 : 1, isReuseSource,
                                &maxValue, &minValue);
}
}  // namespace detail

#define ASCENDC_ADV_REDUCE_TMP(Name, op)                                                                        \
    inline void Get##Name##MaxMinTmpSize(const ge::Shape& srcShape, const ge::DataType dataType,               \
                                         ReducePattern pattern, bool isSrcInnerPad, bool isReuseSource,          \
                                         uint32_t& maxValue, uint32_t& minValue) {                               \
        (void)isSrcInnerPad;                                                                                     \
        detail::ReduceTmp(op, srcShape, dataType, pattern, isReuseSource, maxValue, minValue);                  \
    }

ASCENDC_ADV_REDUCE_TMP(ReduceMax, 0)
ASCENDC_ADV_REDUCE_TMP(ReduceMin, 1)
ASCENDC_ADV_REDUCE_TMP(ReduceSum, 2)
ASCENDC_ADV_REDUCE_TMP(ReduceMean, 3)
ASCENDC_ADV_REDUCE_TMP(ReduceProd, 4)
ASCENDC_ADV_REDUCE_TMP(ReduceAny, 5)
ASCENDC_ADV_REDUCE_TMP(ReduceAll, 6)
#undef ASCENDC_ADV_REDUCE_TMP

inline void GetReduceXorSumMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                         uint32_t& maxValue, uint32_t& minValue) {
    ascendc_adv_reduce_xor_sum_tmp_size(static_cast<uint32_t>(srcShape.GetShapeSize()), typeSize, isReuseSource,
                                        &maxValue, &minValue);
}

}  // namespace AscendC
