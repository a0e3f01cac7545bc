// Vector instructions: the repeat parameters, masks and the level 2 (element count) and level 0
// (mask, repeat times, strides) forms of the two-source, one-source and tensor-scalar
// instructions.
#pragma once

#include "tensor.h"

namespace AscendC {

struct BinaryRepeatParams {
    uint8_t dstBlkStride = 1, src0BlkStride = 1, src1BlkStride = 1;
    uint8_t dstRepStride = 8, src0RepStride = 8, src1RepStride = 8;

    BinaryRepeatParams() = default;
    BinaryRepeatParams(uint8_t dstBlk, uint8_t src0Blk, uint8_t src1Blk, uint8_t dstRep, uint8_t src0Rep,
                       uint8_t src1Rep)
        : dstBlkStride(dstBlk), src0BlkStride(src0Blk), src1BlkStride(src1Blk), dstRepStride(dstRep),
          src0RepStride(src0Rep), src1RepStride(src1Rep) {}
};

struct UnaryRepeatParams {
    uint16_t dstBlkStride = 1, srcBlkStride = 1;
    uint8_t dstRepStride = 8, srcRepStride = 8;

    UnaryRepeatParams() = default;
    UnaryRepeatParams(uint16_t dstBlk, uint16_t srcBlk, uint8_t dstRep, uint8_t srcRep)
        : dstBlkStride(dstBlk), srcBlkStride(srcBlk), dstRepStride(dstRep), srcRepStride(srcRep) {}
};

enum class RoundMode : uint8_t { CAST_NONE = 0, CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC, CAST_ODD };
enum class CMPMODE : uint8_t { LT = 0, GT, EQ, LE, GE, NE };
enum class SELMODE : uint8_t { VSEL_CMPMASK_SPR = 0, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };
enum class MaskMode : uint8_t { NORMAL = 0, COUNTER };

namespace detail {

// Keeps a parameter out of template argument deduction (scalars convert to the tensor type).
template <typename T>
struct Identity {
    using type = T;
};
template <typename T>
using Same = typename Identity<T>::type;

inline RawMask CountMask(bool isSetMask, uint64_t mask) { return {uint8_t(isSetMask ? 0 : 2), mask, 0}; }
inline RawMask BitMask(bool isSetMask, const uint64_t mask[]) {
    return {uint8_t(isSetMask ? 1 : 2), mask[0], mask[1]};
}
inline RawRepeat Strides(const BinaryRepeatParams& p) {
    return {{p.dstBlkStride, p.src0BlkStride, p.src1BlkStride}, {p.dstRepStride, p.src0RepStride, p.src1RepStride}};
}
inline RawRepeat Strides(const UnaryRepeatParams& p) {
    return {{p.dstBlkStride, p.srcBlkStride, 0}, {p.dstRepStride, p.srcRepStride, 0}};
}

// Level 2 (no mask) or level 0 (mask, repeat times, strides) of one call.
struct Issue {
    int32_t count = 0;
    bool level0 = false;
    RawMask mask{};
    uint8_t repeat = 0;
    RawRepeat strides{};

    const RawMask* Mask() const { return level0 ? &mask : nullptr; }
    const RawRepeat* Params() const { return level0 ? &strides : nullptr; }
};

inline Issue Count(int32_t n) {
    Issue i;
    i.count = n;
    return i;
}
template <typename P>
Issue Level0(const RawMask& mask, uint8_t repeat, const P& params) {
    Issue i;
    i.level0 = true;
    i.mask = mask;
    i.repeat = repeat;
    i.strides = Strides(params);
    return i;
}

template <typename T>
void Binary(uint8_t op, const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
            const Issue& i, Loc loc) {
    Check(ascendc_vec_binary(op, dtype<T>, &dst.Raw(), &src0.Raw(), &src1.Raw(), i.count, i.Mask(), i.repeat,
                             i.Params(), loc));
}

template <typename T>
void Unary(uint8_t op, const LocalTensor<T>& dst, const LocalTensor<T>& src, const Issue& i, Loc loc) {
    Check(ascendc_vec_unary(op, dtype<T>, &dst.Raw(), &src.Raw(), i.count, i.Mask(), i.repeat, i.Params(), loc));
}

template <typename T>
void Scalar(uint8_t op, const LocalTensor<T>& dst, const LocalTensor<T>& src, T value, const Issue& i, Loc loc) {
    Check(ascendc_vec_scalar(op, dtype<T>, &dst.Raw(), &src.Raw(), &value, i.count, i.Mask(), i.repeat, i.Params(),
                             loc));
}

}  // namespace detail

// The level-2 form and the two level-0 forms (contiguous and bitwise mask) of an instruction:
// TENSORS and ARGS (each ending in a comma) come before the count or mask, CALL issues it.
#define ASCENDC_VEC_FORMS(Name, TENSORS, ARGS, PARAMS, CALL)                                            \
    template <typename T>                                                                             \
    void Name(TENSORS ARGS const int32_t& calCount, detail::Loc loc = detail::Loc()) {               \
        CALL(detail::Count(calCount));                                                                \
    }                                                                                                 \
    template <typename T, bool isSetMask = true>                                                      \
    void Name(TENSORS ARGS uint64_t mask, const uint8_t repeatTimes, const PARAMS& repeatParams,     \
              detail::Loc loc = detail::Loc()) {                                                      \
        CALL(detail::Level0(detail::CountMask(isSetMask, mask), repeatTimes, repeatParams));          \
    }                                                                                                 \
    template <typename T, bool isSetMask = true>                                                      \
    void Name(TENSORS ARGS const uint64_t mask[], const uint8_t repeatTimes, const PARAMS& repeatParams, \
              detail::Loc loc = detail::Loc()) {                                                      \
        CALL(detail::Level0(detail::BitMask(isSetMask, mask), repeatTimes, repeatParams));            \
    }

#define ASCENDC_NOTHING
#define ASCENDC_TWO_SOURCES \
    const LocalTensor<T>&dstLocal, const LocalTensor<T>&src0Local, const LocalTensor<T>&src1Local,
#define ASCENDC_ONE_SOURCE const LocalTensor<T>&dstLocal, const LocalTensor<T>&srcLocal,
#define ASCENDC_SCALAR_ARG const detail::Same<T>&scalarValue,

#define ASCENDC_BINARY_OP(Name, id)                                                                   \
    ASCENDC_VEC_FORMS(Name, ASCENDC_TWO_SOURCES, ASCENDC_NOTHING, BinaryRepeatParams,                  \
                      [&](const detail::Issue& i) { detail::Binary(id, dstLocal, src0Local, src1Local, i, loc); })
#define ASCENDC_UNARY_OP(Name, id)                                                                    \
    ASCENDC_VEC_FORMS(Name, ASCENDC_ONE_SOURCE, ASCENDC_NOTHING, UnaryRepeatParams,                    \
                      [&](const detail::Issue& i) { detail::Unary(id, dstLocal, srcLocal, i, loc); })
#define ASCENDC_SCALAR_OP(Name, id)                                                                   \
    ASCENDC_VEC_FORMS(Name, ASCENDC_ONE_SOURCE, ASCENDC_SCALAR_ARG, UnaryRepeatParams,                 \
                      [&](const detail::Issue& i) { detail::Scalar<T>(id, dstLocal, srcLocal, scalarValue, i, loc); })

ASCENDC_BINARY_OP(Add, 0)
ASCENDC_BINARY_OP(Sub, 1)
ASCENDC_BINARY_OP(Mul, 2)
ASCENDC_BINARY_OP(Div, 3)

// The tensor-operator form: `dst = src0 + src1;` is Add(dst, src0, src1, dst.GetSize()).
template <typename T>
detail::TensorBinary<T> operator+(const LocalTensor<T>& src0, const LocalTensor<T>& src1) {
    return {&src0, &src1, 0};
}
template <typename T>
detail::TensorBinary<T> operator-(const LocalTensor<T>& src0, const LocalTensor<T>& src1) {
    return {&src0, &src1, 1};
}
template <typename T>
detail::TensorBinary<T> operator*(const LocalTensor<T>& src0, const LocalTensor<T>& src1) {
    return {&src0, &src1, 2};
}
template <typename T>
detail::TensorBinary<T> operator/(const LocalTensor<T>& src0, const LocalTensor<T>& src1) {
    return {&src0, &src1, 3};
}

namespace detail {
template <typename Tensor, typename T>
void AssignBinary(const Tensor& dst, const TensorBinary<T>& e) {
    const auto& a = *static_cast<const LocalTensor<T>*>(e.src0);
    const auto& b = *static_cast<const LocalTensor<T>*>(e.src1);
    switch (e.op) {
        case 0: Add(dst, a, b, dst.GetSize()); break;
        case 1: Sub(dst, a, b, dst.GetSize()); break;
        case 2: Mul(dst, a, b, dst.GetSize()); break;
        default: Div(dst, a, b, dst.GetSize()); break;
    }
}
}  // namespace detail
ASCENDC_BINARY_OP(Max, 4)
ASCENDC_BINARY_OP(Min, 5)
ASCENDC_BINARY_OP(And, 6)
ASCENDC_BINARY_OP(Or, 7)
ASCENDC_BINARY_OP(AddRelu, 8)
ASCENDC_BINARY_OP(SubRelu, 9)

ASCENDC_UNARY_OP(Exp, 0)
ASCENDC_UNARY_OP(Ln, 1)
ASCENDC_UNARY_OP(Sqrt, 2)
ASCENDC_UNARY_OP(Rsqrt, 3)
ASCENDC_UNARY_OP(Reciprocal, 4)
ASCENDC_UNARY_OP(Abs, 5)
ASCENDC_UNARY_OP(Relu, 6)
ASCENDC_UNARY_OP(Not, 7)

ASCENDC_SCALAR_OP(Adds, 0)
ASCENDC_SCALAR_OP(Muls, 1)
ASCENDC_SCALAR_OP(Maxs, 2)
ASCENDC_SCALAR_OP(Mins, 3)
ASCENDC_SCALAR_OP(LeakyRelu, 4)
ASCENDC_SCALAR_OP(ShiftLeft, 5)

// ShiftRight: level 0 takes roundEn after the strides.
template <typename T>
void ShiftRight(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const detail::Same<T>& scalarValue,
                const int32_t& calCount, detail::Loc loc = detail::Loc()) {
    detail::Scalar<T>(6, dstLocal, srcLocal, scalarValue, detail::Count(calCount), loc);
}
template <typename T, bool isSetMask = true>
void ShiftRight(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const detail::Same<T>& scalarValue,
                uint64_t mask, const uint8_t repeatTimes, const UnaryRepeatParams& repeatParams, bool roundEn = false,
                detail::Loc loc = detail::Loc()) {
    detail::Scalar<T>(roundEn ? 7 : 6, dstLocal, srcLocal, scalarValue,
                      detail::Level0(detail::CountMask(isSetMask, mask), repeatTimes, repeatParams), loc);
}
template <typename T, bool isSetMask = true>
void ShiftRight(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const detail::Same<T>& scalarValue,
                const uint64_t mask[], const uint8_t repeatTimes, const UnaryRepeatParams& repeatParams,
                bool roundEn = false, detail::Loc loc = detail::Loc()) {
    detail::Scalar<T>(roundEn ? 7 : 6, dstLocal, srcLocal, scalarValue,
                      detail::Level0(detail::BitMask(isSetMask, mask), repeatTimes, repeatParams), loc);
}

#undef ASCENDC_BINARY_OP
#undef ASCENDC_UNARY_OP
#undef ASCENDC_SCALAR_OP
#undef ASCENDC_VEC_FORMS
#undef ASCENDC_NOTHING
#undef ASCENDC_TWO_SOURCES
#undef ASCENDC_ONE_SOURCE
#undef ASCENDC_SCALAR_ARG

}  // namespace AscendC
