// High-level API, reduce family: Sum and Mean (half/float; A2, A3, 310P), ReduceXorSum (int16_t;
// A2, A3, 310P) and the patterned ReduceMax / ReduceMin / ReduceSum / ReduceMean / ReduceProd /
// ReduceAny / ReduceAll (Pattern::Reduce::AR / RA; A2, A3). The
// patterned templates take the pattern as an explicit template argument, so they never
// compete with the basic API's ReduceMax/ReduceMin/ReduceSum(dst, src, work, count, ...).
#pragma once

#include "common.h"

extern "C" {
int32_t ascendc_adv_sum(uint8_t op, uint8_t elem, uint8_t acc, const AscLocal* dst, const AscLocal* src,
                        const AscLocal* tmp, const void* pipe, uint32_t outter, uint32_t inner, uint32_t n,
                        AscLoc loc);
int32_t ascendc_adv_reduce(uint8_t op, uint8_t elem, uint8_t pattern, bool reuse, const AscLocal* dst,
                           const AscLocal* src, const AscLocal* tmp, const void* pipe, uint32_t first,
                           uint32_t last, bool srcInnerPad, AscLoc loc);
int32_t ascendc_adv_reduce_xor_sum(uint8_t elem, bool reuse, const AscLocal* dst, const AscLocal* src0,
                                   const AscLocal* src1, const AscLocal* tmp, const void* pipe, uint32_t count,
                                   AscLoc loc);
}

namespace AscendC {

// The shape of Sum's source: `outter` rows of `inner` elements (32-byte aligned), `n` reduced.
struct SumParams {
    uint32_t outter = 1;
    uint32_t inner;
    uint32_t n;
};
// The shape of Mean's source, as SumParams.
struct MeanParams {
    uint32_t outter = 1;
    uint32_t inner;
    uint32_t n;
};

// The reduce patterns: AR reduces the last axis, RA the first (the others are not available
// on these products).
namespace Pattern {
namespace Reduce {
struct AR {
    static constexpr uint8_t ID = 0;
};
struct RA {
    static constexpr uint8_t ID = 1;
};
}  // namespace Reduce
}  // namespace Pattern

namespace detail {

template <typename T, typename Acc>
inline void AdvSum(uint8_t op, const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>* tmp,
                   uint32_t outter, uint32_t inner, uint32_t n, Loc loc) {
    Check(ascendc_adv_sum(op, dtype<T>, dtype<Acc>, &dst.Raw(), &src.Raw(), tmp != nullptr ? &tmp->Raw() : nullptr,
                          PipeHandle(), outter, inner, n, loc));
}

template <typename T, class pattern, bool isReuseSource>
inline void AdvReduce(uint8_t op, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                      const LocalTensor<uint8_t>* tmp, const uint32_t srcShape[], bool srcInnerPad, Loc loc) {
    Check(ascendc_adv_reduce(op, dtype<T>, pattern::ID, isReuseSource, &dst.Raw(), &src.Raw(),
                             tmp != nullptr ? &tmp->Raw() : nullptr, PipeHandle(), srcShape[0], srcShape[1], srcInnerPad,
                             loc));
}
}  // namespace detail

// Sum of each row's first n elements.
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
         const SumParams& sumParams, detail::Loc loc = detail::Loc()) {
    detail::AdvSum<T, T>(0, dstTensor, srcTensor, &sharedTmpBuffer, sumParams.outter, sumParams.inner, sumParams.n, loc);
}
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const SumParams& sumParams,
         detail::Loc loc = detail::Loc()) {
    detail::AdvSum<T, T>(0, dstTensor, srcTensor, nullptr, sumParams.outter, sumParams.inner, sumParams.n, loc);
}

// Mean of each row's first n elements, accumulated in accType.
template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false,
          int32_t reduceDim = -1>
void Mean(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
          const MeanParams& meanParams, detail::Loc loc = detail::Loc()) {
    detail::AdvSum<T, accType>(1, dstTensor, srcTensor, &sharedTmpBuffer, meanParams.outter, meanParams.inner,
                               meanParams.n, loc);
}
template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false,
          int32_t reduceDim = -1>
void Mean(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const MeanParams& meanParams,
          detail::Loc loc = detail::Loc()) {
    detail::AdvSum<T, accType>(1, dstTensor, srcTensor, nullptr, meanParams.outter, meanParams.inner, meanParams.n,
                               loc);
}

#define ASCENDC_ADV_PATTERNED(Name, op)                                                                         \
    template <class T, class pattern, bool isReuseSource = false>                                               \
    void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                                  \
              const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t srcShape[], bool srcInnerPad,          \
              detail::Loc loc = detail::Loc()) {                                                                 \
        detail::AdvReduce<T, pattern, isReuseSource>(op, dstTensor, srcTensor, &sharedTmpBuffer, srcShape,       \
                                                     srcInnerPad, loc);                                          \
    }                                                                                                           \
    template <class T, class pattern, bool isReuseSource = false>                                               \
    void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t srcShape[],       \
              bool srcInnerPad, detail::Loc loc = detail::Loc()) {                                               \
        detail::AdvReduce<T, pattern, isReuseSource>(op, dstTensor, srcTensor, nullptr, srcShape, srcInnerPad,   \
                                                     loc);                                                       \
    }

ASCENDC_ADV_PATTERNED(ReduceMax, 0)
ASCENDC_ADV_PATTERNED(ReduceMin, 1)
ASCENDC_ADV_PATTERNED(ReduceSum, 2)
ASCENDC_ADV_PATTERNED(ReduceMean, 3)
ASCENDC_ADV_PATTERNED(ReduceProd, 4)
ASCENDC_ADV_PATTERNED(ReduceAny, 5)
ASCENDC_ADV_PATTERNED(ReduceAll, 6)
#undef ASCENDC_ADV_PATTERNED

// The sum of src0 ^ src1 over calCount int16_t elements, into dstTensor[0].
template <typename T, bool isReuseSource = false>
void ReduceXorSum(LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
                  LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_adv_reduce_xor_sum(detail::dtype<T>, isReuseSource, &dstTensor.Raw(), &src0Tensor.Raw(),
                                             &src1Tensor.Raw(), &sharedTmpBuffer.Raw(), detail::PipeHandle(),
                                             calCount, loc));
}
template <typename T, bool isReuseSource = false>
void ReduceXorSum(LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
                  const uint32_t calCount, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_adv_reduce_xor_sum(detail::dtype<T>, isReuseSource, &dstTensor.Raw(), &src0Tensor.Raw(),
                                             &src1Tensor.Raw(), nullptr, detail::PipeHandle(), calCount, loc));
}

}  // namespace AscendC
