// Reductions: RepeatReduceSum, WholeReduceSum/Max/Min, BlockReduceSum/Max/Min, PairReduceSum
// and ReduceSum/Max/Min.
#pragma once

#include <type_traits>

#include "vec.h"

namespace AscendC {

enum ReduceOrder : uint8_t {
    ORDER_VALUE_INDEX = 0,
    ORDER_INDEX_VALUE,
    ORDER_ONLY_VALUE,
    ORDER_ONLY_INDEX,
};

namespace detail {

struct RawReduceArgs {
    int32_t repeat;
    int32_t strides[4];  // dstBlk, srcBlk, dstRep, srcRep
    int32_t count;
    uint8_t order;
    uint8_t calIndex;
};

enum ReduceOp : uint8_t {
    REPEAT_REDUCE_SUM = 0,
    WHOLE_REDUCE_SUM,
    WHOLE_REDUCE_MAX,
    WHOLE_REDUCE_MIN,
    BLOCK_REDUCE_SUM,
    BLOCK_REDUCE_MAX,
    BLOCK_REDUCE_MIN,
    PAIR_REDUCE_SUM,
    REDUCE_SUM,
    REDUCE_MAX,
    REDUCE_MIN,
    REDUCE_SUM_L0,
    REDUCE_MAX_L0,
    REDUCE_MIN_L0,
};

template <typename T>
void Reduce(ReduceOp op, const LocalTensor<T>& dst, const LocalTensor<T>& src,
            const RawLocal* tmp, const RawMask& mask, const RawReduceArgs& args, Loc loc) {
    Check(ascendc_vec_reduce(op, dtype<T>, &dst.Raw(), &src.Raw(), tmp,
                             &mask, &args, loc));
}

inline RawReduceArgs Args(int32_t repeat, int32_t dstBlk, int32_t srcBlk, int32_t dstRep, int32_t srcRep,
                          int32_t count = 0, uint8_t order = 0, bool calIndex = false) {
    return {repeat, {dstBlk, srcBlk, dstRep, srcRep}, count, order, uint8_t(calIndex)};
}

}  // namespace detail

template <typename T, bool isSetMask = true>
void RepeatReduceSum(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const int32_t repeat,
                     const int32_t elemsInOneRepeat, const int32_t dstBlkStride, const int32_t srcBlkStride,
                     const int32_t dstRepStride, const int32_t srcRepStride, detail::Loc loc = detail::Loc()) {
    detail::Reduce(detail::REPEAT_REDUCE_SUM, dstLocal, srcLocal, nullptr,
                   detail::CountMask(isSetMask, static_cast<uint64_t>(elemsInOneRepeat)),
                   detail::Args(repeat, dstBlkStride, srcBlkStride, dstRepStride, srcRepStride), loc);
}

// WholeReduceSum / Max / Min, with a contiguous or a bitwise mask.
#define ASCENDC_WHOLE_REDUCE(Name, op, ORDER_PARAM, ORDER_ARG)                                              \
    template <typename T, bool isSetMask = true>                                                           \
    void Name(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const int32_t mask,          \
              const int32_t repeatTimes, const int32_t dstRepStride, const int32_t srcBlkStride,           \
              const int32_t srcRepStride ORDER_PARAM, detail::Loc loc = detail::Loc()) {                   \
        detail::Reduce(op, dstLocal, srcLocal, nullptr, detail::CountMask(isSetMask, uint64_t(mask)),      \
                       detail::Args(repeatTimes, 0, srcBlkStride, dstRepStride, srcRepStride, 0, ORDER_ARG), \
                       loc);                                                                               \
    }                                                                                                      \
    template <typename T, bool isSetMask = true>                                                           \
    void Name(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint64_t mask[],       \
              const int32_t repeatTimes, const int32_t dstRepStride, const int32_t srcBlkStride,           \
              const int32_t srcRepStride ORDER_PARAM, detail::Loc loc = detail::Loc()) {                   \
        detail::Reduce(op, dstLocal, srcLocal, nullptr, detail::BitMask(isSetMask, mask),                  \
                       detail::Args(repeatTimes, 0, srcBlkStride, dstRepStride, srcRepStride, 0, ORDER_ARG), \
                       loc);                                                                               \
    }

#define ASCENDC_ORDER_PARAM , ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX
ASCENDC_WHOLE_REDUCE(WholeReduceSum, detail::WHOLE_REDUCE_SUM, , 0)
ASCENDC_WHOLE_REDUCE(WholeReduceMax, detail::WHOLE_REDUCE_MAX, ASCENDC_ORDER_PARAM, order)
ASCENDC_WHOLE_REDUCE(WholeReduceMin, detail::WHOLE_REDUCE_MIN, ASCENDC_ORDER_PARAM, order)
#undef ASCENDC_ORDER_PARAM
#undef ASCENDC_WHOLE_REDUCE

// BlockReduceSum / Max / Min and PairReduceSum: repeat first, then the mask.
#define ASCENDC_GROUPED_REDUCE(Name, op)                                                                   \
    template <typename T, bool isSetMask = true>                                                           \
    void Name(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const int32_t repeat,        \
              const int32_t mask, const int32_t dstRepStride, const int32_t srcBlkStride,                  \
              const int32_t srcRepStride, detail::Loc loc = detail::Loc()) {                               \
        detail::Reduce(op, dstLocal, srcLocal, nullptr, detail::CountMask(isSetMask, uint64_t(mask)),      \
                       detail::Args(repeat, 0, srcBlkStride, dstRepStride, srcRepStride), loc);            \
    }                                                                                                      \
    template <typename T, bool isSetMask = true>                                                           \
    void Name(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const int32_t repeat,        \
              const uint64_t mask[], const int32_t dstRepStride, const int32_t srcBlkStride,               \
              const int32_t srcRepStride, detail::Loc loc = detail::Loc()) {                               \
        detail::Reduce(op, dstLocal, srcLocal, nullptr, detail::BitMask(isSetMask, mask),                  \
                       detail::Args(repeat, 0, srcBlkStride, dstRepStride, srcRepStride), loc);            \
    }

ASCENDC_GROUPED_REDUCE(BlockReduceSum, detail::BLOCK_REDUCE_SUM)
ASCENDC_GROUPED_REDUCE(BlockReduceMax, detail::BLOCK_REDUCE_MAX)
ASCENDC_GROUPED_REDUCE(BlockReduceMin, detail::BLOCK_REDUCE_MIN)
ASCENDC_GROUPED_REDUCE(PairReduceSum, detail::PAIR_REDUCE_SUM)
#undef ASCENDC_GROUPED_REDUCE

// ReduceSum / Max / Min over `count` elements, or over `repeatTimes` masked repeats.
template <typename T>
void ReduceSum(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<T>& sharedTmpBuffer,
               const int32_t count, detail::Loc loc = detail::Loc()) {
    detail::Reduce(detail::REDUCE_SUM, dstLocal, srcLocal, &sharedTmpBuffer.Raw(), detail::CountMask(true, 0),
                   detail::Args(0, 0, 0, 0, 0, count), loc);
}
template <typename T>
void ReduceSum(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<T>& sharedTmpBuffer,
               const int32_t mask, const int32_t repeatTimes, const int32_t srcRepStride,
               detail::Loc loc = detail::Loc()) {
    detail::Reduce(detail::REDUCE_SUM_L0, dstLocal, srcLocal, &sharedTmpBuffer.Raw(), detail::CountMask(true, uint64_t(mask)),
                   detail::Args(repeatTimes, 0, 0, 0, srcRepStride), loc);
}
template <typename T>
void ReduceSum(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<T>& sharedTmpBuffer,
               const uint64_t mask[], const int32_t repeatTimes, const int32_t srcRepStride,
               detail::Loc loc = detail::Loc()) {
    detail::Reduce(detail::REDUCE_SUM_L0, dstLocal, srcLocal, &sharedTmpBuffer.Raw(), detail::BitMask(true, mask),
                   detail::Args(repeatTimes, 0, 0, 0, srcRepStride), loc);
}

#define ASCENDC_REDUCE_EXTREME(Name, op, opL0)                                                                 \
    template <typename T>                                                                                      \
    void Name(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,                                  \
              const LocalTensor<T>& sharedTmpBuffer, const int32_t count, bool calIndex = false,               \
              detail::Loc loc = detail::Loc()) {                                                               \
        detail::Reduce(op, dstLocal, srcLocal, &sharedTmpBuffer.Raw(), detail::CountMask(true, 0),                   \
                       detail::Args(0, 0, 0, 0, 0, count, 0, calIndex), loc);                                  \
    }                                                                                                          \
    template <typename T>                                                                                      \
    void Name(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,                                  \
              const LocalTensor<T>& sharedTmpBuffer, const int32_t mask, const int32_t repeatTimes,            \
              const int32_t srcRepStride, bool calIndex = false, detail::Loc loc = detail::Loc()) {            \
        detail::Reduce(opL0, dstLocal, srcLocal, &sharedTmpBuffer.Raw(), detail::CountMask(true, uint64_t(mask)),    \
                       detail::Args(repeatTimes, 0, 0, 0, srcRepStride, 0, 0, calIndex), loc);                 \
    }                                                                                                          \
    template <typename T>                                                                                      \
    void Name(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,                                  \
              const LocalTensor<T>& sharedTmpBuffer, const uint64_t mask[], const int32_t repeatTimes,         \
              const int32_t srcRepStride, bool calIndex = false, detail::Loc loc = detail::Loc()) {            \
        detail::Reduce(opL0, dstLocal, srcLocal, &sharedTmpBuffer.Raw(), detail::BitMask(true, mask),                \
                       detail::Args(repeatTimes, 0, 0, 0, srcRepStride, 0, 0, calIndex), loc);                 \
    }

ASCENDC_REDUCE_EXTREME(ReduceMax, detail::REDUCE_MAX, detail::REDUCE_MAX_L0)
ASCENDC_REDUCE_EXTREME(ReduceMin, detail::REDUCE_MIN, detail::REDUCE_MIN_L0)
#undef ASCENDC_REDUCE_EXTREME

// The ReduceType spellings: ReduceRepeat (WholeReduce*), ReduceDataBlock (BlockReduce*) and
// ReducePairElem (PairReduceSum); the mask comes before repeatTime in all three.
enum class ReduceType : uint8_t { SUM = 0, MAX, MIN };

#define ASCENDC_TYPED_REDUCE(Name, base, ORDER_PARAM, ORDER_ARG)                                             \
    template <ReduceType reduceType, typename T, typename U = T, bool isSetMask = true>                       \
    void Name(const LocalTensor<T>& dst, const LocalTensor<U>& src, const int32_t mask, const int32_t repeatTime, \
              const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride ORDER_PARAM,   \
              detail::Loc loc = detail::Loc()) {                                                              \
        static_assert(std::is_same<T, U>::value, #Name ": dst and src have the same element type");           \
        detail::Reduce(detail::ReduceOp(base + uint8_t(reduceType)), dst, src, nullptr,                       \
                       detail::CountMask(isSetMask, uint64_t(mask)),                                          \
                       detail::Args(repeatTime, 0, srcBlkStride, dstRepStride, srcRepStride, 0, ORDER_ARG), loc); \
    }                                                                                                         \
    template <ReduceType reduceType, typename T, typename U = T, bool isSetMask = true>                       \
    void Name(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint64_t mask[], const int32_t repeatTime, \
              const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride ORDER_PARAM,   \
              detail::Loc loc = detail::Loc()) {                                                              \
        static_assert(std::is_same<T, U>::value, #Name ": dst and src have the same element type");           \
        detail::Reduce(detail::ReduceOp(base + uint8_t(reduceType)), dst, src, nullptr,                       \
                       detail::BitMask(isSetMask, mask),                                                      \
                       detail::Args(repeatTime, 0, srcBlkStride, dstRepStride, srcRepStride, 0, ORDER_ARG), loc); \
    }

#define ASCENDC_ORDER_PARAM , ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX
ASCENDC_TYPED_REDUCE(ReduceRepeat, 14, ASCENDC_ORDER_PARAM, uint8_t(order))
ASCENDC_TYPED_REDUCE(ReduceDataBlock, 17, , 0)
ASCENDC_TYPED_REDUCE(ReducePairElem, 20, , 0)
#undef ASCENDC_ORDER_PARAM
#undef ASCENDC_TYPED_REDUCE

// The result registers reductions leave behind.
template <typename T>
void GetReduceRepeatMaxMinSpr(T& maxMinValue, T& maxMinIndex, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_reduce_spr(0, detail::dtype<T>, &maxMinValue, &maxMinIndex, loc));
}
template <typename T>
void GetReduceRepeatMaxMinSpr(T& maxMinValue, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_reduce_spr(1, detail::dtype<T>, &maxMinValue, nullptr, loc));
}
template <typename T>
T GetReduceRepeatSumSpr(detail::Loc loc = detail::Loc()) {
    T value{};
    detail::Check(ascendc_reduce_spr(2, detail::dtype<T>, &value, nullptr, loc));
    return value;
}

// The earlier spellings GetAccVal and GetReduceMaxMinCount.
template <typename T>
T GetAccVal(detail::Loc loc = detail::Loc()) {
    return GetReduceRepeatSumSpr<T>(loc);
}
template <typename T>
void GetReduceMaxMinCount(T& maxMinValue, T& maxMinIndex, detail::Loc loc = detail::Loc()) {
    GetReduceRepeatMaxMinSpr<T>(maxMinValue, maxMinIndex, loc);
}
template <typename T>
void GetReduceMaxMinCount(T& maxMinValue, detail::Loc loc = detail::Loc()) {
    GetReduceRepeatMaxMinSpr<T>(maxMinValue, loc);
}

}  // namespace AscendC
