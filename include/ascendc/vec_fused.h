// Fused vector instructions (AddReluCast, SubReluCast, MulCast, AddDeqRelu, MulAddRelu,
// FusedMulAdd, MulAddDst, Axpy), CastDequant and the quantisation forms of SetDeqScale,
// Compares, and the CMPMASK register: Compare into it, GetCmpMask, SetCmpMask and the Select
// forms without a mask argument.
#pragma once

#include "vec_select.h"

extern "C" {
int32_t ascendc_vec_fused(uint8_t op, uint8_t dstElem, uint8_t srcElem, const AscLocal* dst, const AscLocal* src0,
                          const AscLocal* src1, const void* scalar, int32_t count, const AscendC::detail::RawMask* mask,
                          uint8_t repeat, const AscendC::detail::RawRepeat* params, AscLoc loc);
int32_t ascendc_cast_dequant(uint8_t dstElem, uint8_t srcElem, const AscLocal* dst, const AscLocal* src,
                             uint8_t isVecDeq, uint8_t halfBlock, int32_t count, const AscendC::detail::RawMask* mask,
                             uint8_t repeat, const AscendC::detail::RawRepeat* params, AscLoc loc);
int32_t ascendc_set_deq_scale_quant(float scale, int16_t offset, uint8_t signMode, AscLoc loc);
int32_t ascendc_set_deq_scale_vector(const AscLocal* vdeq, const float* scale, const int16_t* offset,
                                     const uint8_t* signMode, AscLoc loc);
int32_t ascendc_vec_compares(uint8_t dstElem, uint8_t elem, const AscLocal* dst, const AscLocal* src0,
                             const void* scalar, uint8_t cmp, int32_t count, const AscendC::detail::RawMask* mask,
                             uint8_t repeat, const AscendC::detail::RawRepeat* params, AscLoc loc);
int32_t ascendc_compare_cmp_mask(uint8_t elem, const AscLocal* src0, const AscLocal* src1, uint8_t cmp,
                                 const AscendC::detail::RawMask* mask, const AscendC::detail::RawRepeat* params,
                                 AscLoc loc);
int32_t ascendc_cmp_mask(uint8_t op, uint8_t elem, const AscLocal* t, AscLoc loc);
int32_t ascendc_select_cmp_mask(uint8_t elem, uint8_t maskElem, const AscLocal* dst, const AscLocal* selMask,
                                const AscLocal* src0, const AscLocal* src1, uint8_t sel, uint8_t repeat,
                                const AscendC::detail::RawRepeat* params, AscLoc loc);
}

namespace AscendC {

namespace detail {

enum FusedOp : uint8_t {
    kAddReluCast = 0,
    kSubReluCast,
    kMulCast,
    kAddDeqRelu,
    kMulAddRelu,
    kFusedMulAdd,
    kMulAddDst,
    kAxpy
};

template <typename T, typename U>
void FusedIssue(FusedOp op, const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>* src1,
                const U* scalar, const Issue& i, Loc loc) {
    Check(ascendc_vec_fused(op, dtype<T>, dtype<U>, &dst.Raw(), &src0.Raw(), src1 != nullptr ? &src1->Raw() : nullptr,
                            scalar, i.count, i.Mask(), i.repeat, i.Params(), loc));
}

}  // namespace detail

// The two-source fused instructions share one set of three prototypes each.
#define ASCENDC_FUSED_BINARY(NAME, OP)                                                                              \
    template <typename T, typename U>                                                                              \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,                  \
              const int32_t& count, detail::Loc loc = detail::Loc()) {                                              \
        detail::FusedIssue<T, U>(OP, dst, src0, &src1, nullptr, detail::Count(count), loc);                        \
    }                                                                                                              \
    template <typename T, typename U, bool isSetMask = true>                                                       \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1, uint64_t mask[], \
              const uint8_t repeatTime, const BinaryRepeatParams& repeatParams, detail::Loc loc = detail::Loc()) {  \
        detail::FusedIssue<T, U>(OP, dst, src0, &src1, nullptr,                                                   \
                                 detail::Level0(detail::BitMask(isSetMask, mask), repeatTime, repeatParams), loc); \
    }                                                                                                              \
    template <typename T, typename U, bool isSetMask = true>                                                       \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1, uint64_t mask,   \
              const uint8_t repeatTime, const BinaryRepeatParams& repeatParams, detail::Loc loc = detail::Loc()) {  \
        detail::FusedIssue<T, U>(OP, dst, src0, &src1, nullptr,                                                   \
                                 detail::Level0(detail::CountMask(isSetMask, mask), repeatTime, repeatParams),     \
                                 loc);                                                                             \
    }

ASCENDC_FUSED_BINARY(AddReluCast, detail::kAddReluCast)
ASCENDC_FUSED_BINARY(SubReluCast, detail::kSubReluCast)
ASCENDC_FUSED_BINARY(MulCast, detail::kMulCast)
ASCENDC_FUSED_BINARY(AddDeqRelu, detail::kAddDeqRelu)
ASCENDC_FUSED_BINARY(MulAddDst, detail::kMulAddDst)
#undef ASCENDC_FUSED_BINARY

// The same-type forms: MulAddRelu and FusedMulAdd (dst = src0 × dst + src1, ReLU for MulAddRelu).
#define ASCENDC_FUSED_SAME(NAME, OP)                                                                                \
    template <typename T>                                                                                          \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,                  \
              const int32_t& count, detail::Loc loc = detail::Loc()) {                                              \
        detail::FusedIssue<T, T>(OP, dst, src0, &src1, nullptr, detail::Count(count), loc);                        \
    }                                                                                                              \
    template <typename T, bool isSetMask = true>                                                                   \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, uint64_t mask[], \
              const uint8_t repeatTime, const BinaryRepeatParams& repeatParams, detail::Loc loc = detail::Loc()) {  \
        detail::FusedIssue<T, T>(OP, dst, src0, &src1, nullptr,                                                   \
                                 detail::Level0(detail::BitMask(isSetMask, mask), repeatTime, repeatParams), loc); \
    }                                                                                                              \
    template <typename T, bool isSetMask = true>                                                                   \
    void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, uint64_t mask,   \
              const uint8_t repeatTime, const BinaryRepeatParams& repeatParams, detail::Loc loc = detail::Loc()) {  \
        detail::FusedIssue<T, T>(OP, dst, src0, &src1, nullptr,                                                   \
                                 detail::Level0(detail::CountMask(isSetMask, mask), repeatTime, repeatParams),     \
                                 loc);                                                                             \
    }

ASCENDC_FUSED_SAME(MulAddRelu, detail::kMulAddRelu)
ASCENDC_FUSED_SAME(FusedMulAdd, detail::kFusedMulAdd)
#undef ASCENDC_FUSED_SAME

// Axpy: dst = dst + src × scalarValue.
template <typename T, typename U>
void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const detail::Same<U>& scalarValue,
          const int32_t& count, detail::Loc loc = detail::Loc()) {
    U v = scalarValue;
    detail::FusedIssue<T, U>(detail::kAxpy, dst, src, nullptr, &v, detail::Count(count), loc);
}
template <typename T, typename U, bool isSetMask = true>
void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const detail::Same<U>& scalarValue, uint64_t mask[],
          const uint8_t repeatTime, const UnaryRepeatParams& repeatParams, detail::Loc loc = detail::Loc()) {
    U v = scalarValue;
    detail::FusedIssue<T, U>(detail::kAxpy, dst, src, nullptr, &v,
                             detail::Level0(detail::BitMask(isSetMask, mask), repeatTime, repeatParams), loc);
}
template <typename T, typename U, bool isSetMask = true>
void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const detail::Same<U>& scalarValue, uint64_t mask,
          const uint8_t repeatTime, const UnaryRepeatParams& repeatParams, detail::Loc loc = detail::Loc()) {
    U v = scalarValue;
    detail::FusedIssue<T, U>(detail::kAxpy, dst, src, nullptr, &v,
                             detail::Level0(detail::CountMask(isSetMask, mask), repeatTime, repeatParams), loc);
}

// CastDequant and the quantisation forms of SetDeqScale.
struct VdeqInfo {
    float vdeqScale[16] = {0};
    int16_t vdeqOffset[16] = {0};
    bool vdeqSignMode[16] = {false};

    VdeqInfo() = default;
    VdeqInfo(const float scale[16], const int16_t offset[16], const bool signMode[16]) {
        for (int i = 0; i < 16; i++) {
            vdeqScale[i] = scale[i];
            vdeqOffset[i] = offset[i];
            vdeqSignMode[i] = signMode[i];
        }
    }
};

inline void SetDeqScale(float scale, int16_t offset, bool signMode, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_set_deq_scale_quant(scale, offset, signMode ? 1 : 0, loc));
}
template <typename T>
void SetDeqScale(const LocalTensor<T>& vdeq, const VdeqInfo& vdeqInfo, detail::Loc loc = detail::Loc()) {
    static_assert(sizeof(T) == 8, "SetDeqScale(vdeq, vdeqInfo) takes a uint64_t tensor");
    uint8_t signs[16];
    for (int i = 0; i < 16; i++) signs[i] = vdeqInfo.vdeqSignMode[i] ? 1 : 0;
    detail::Check(ascendc_set_deq_scale_vector(&vdeq.Raw(), vdeqInfo.vdeqScale, vdeqInfo.vdeqOffset, signs, loc));
}

namespace detail {
template <typename T, typename U>
void CastDequantIssue(const LocalTensor<T>& dst, const LocalTensor<U>& src, bool isVecDeq, bool halfBlock,
                      const Issue& i, Loc loc) {
    Check(ascendc_cast_dequant(dtype<T>, dtype<U>, &dst.Raw(), &src.Raw(), isVecDeq ? 1 : 0, halfBlock ? 1 : 0,
                               i.count, i.Mask(), i.repeat, i.Params(), loc));
}
}  // namespace detail

template <typename T, typename U, bool isVecDeq = true, bool halfBlock = true>
void CastDequant(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint32_t count,
                 detail::Loc loc = detail::Loc()) {
    detail::CastDequantIssue(dst, src, isVecDeq, halfBlock, detail::Count(static_cast<int32_t>(count)), loc);
}
template <typename T, typename U, bool isSetMask = true, bool isVecDeq = true, bool halfBlock = true>
void CastDequant(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint64_t mask[], uint8_t repeatTime,
                 const UnaryRepeatParams& repeatParams, detail::Loc loc = detail::Loc()) {
    detail::CastDequantIssue(dst, src, isVecDeq, halfBlock,
                             detail::Level0(detail::BitMask(isSetMask, mask), repeatTime, repeatParams), loc);
}
template <typename T, typename U, bool isSetMask = true, bool isVecDeq = true, bool halfBlock = true>
void CastDequant(const LocalTensor<T>& dst, const LocalTensor<U>& src, const int32_t mask, uint8_t repeatTime,
                 const UnaryRepeatParams& repeatParams, detail::Loc loc = detail::Loc()) {
    detail::CastDequantIssue(dst, src, isVecDeq, halfBlock,
                             detail::Level0(detail::CountMask(isSetMask, static_cast<uint64_t>(mask)), repeatTime,
                                            repeatParams),
                             loc);
}

// Compares (the instruction of CompareScalar, with the Compares page's element types).
namespace detail {
template <typename U, typename T>
void ComparesIssue(const LocalTensor<U>& dst, const LocalTensor<T>& src0, T scalar, CMPMODE mode, const Issue& i,
                   Loc loc) {
    Check(ascendc_vec_compares(dtype<U>, dtype<T>, &dst.Raw(), &src0.Raw(), &scalar, static_cast<uint8_t>(mode),
                               i.count, i.Mask(), i.repeat, i.Params(), loc));
}
}  // namespace detail

template <typename T, typename U>
void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const detail::Same<T> src1Scalar,
              CMPMODE cmpMode, uint32_t count, detail::Loc loc = detail::Loc()) {
    detail::ComparesIssue<U, T>(dst, src0, src1Scalar, cmpMode, detail::Count(static_cast<int32_t>(count)), loc);
}
template <typename T, typename U, bool isSetMask = true>
void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const detail::Same<T> src1Scalar,
              CMPMODE cmpMode, const uint64_t mask[], uint8_t repeatTime, const UnaryRepeatParams& repeatParams,
              detail::Loc loc = detail::Loc()) {
    detail::ComparesIssue<U, T>(dst, src0, src1Scalar, cmpMode,
                                detail::Level0(detail::BitMask(isSetMask, mask), repeatTime, repeatParams), loc);
}
template <typename T, typename U, bool isSetMask = true>
void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const detail::Same<T> src1Scalar,
              CMPMODE cmpMode, const uint64_t mask, uint8_t repeatTime, const UnaryRepeatParams& repeatParams,
              detail::Loc loc = detail::Loc()) {
    detail::ComparesIssue<U, T>(dst, src0, src1Scalar, cmpMode,
                                detail::Level0(detail::CountMask(isSetMask, mask), repeatTime, repeatParams), loc);
}

// Compare into CMPMASK (one repeat), GetCmpMask, SetCmpMask.
template <typename T, bool isSetMask = true>
void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode, const uint64_t mask[],
             const BinaryRepeatParams& repeatParams, detail::Loc loc = detail::Loc()) {
    detail::RawMask m = detail::BitMask(isSetMask, mask);
    detail::RawRepeat p = detail::Strides(repeatParams);
    detail::Check(ascendc_compare_cmp_mask(detail::dtype<T>, &src0.Raw(), &src1.Raw(), static_cast<uint8_t>(cmpMode),
                                           &m, &p, loc));
}
template <typename T, bool isSetMask = true>
void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode, const uint64_t mask,
             const BinaryRepeatParams& repeatParams, detail::Loc loc = detail::Loc()) {
    detail::RawMask m = detail::CountMask(isSetMask, mask);
    detail::RawRepeat p = detail::Strides(repeatParams);
    detail::Check(ascendc_compare_cmp_mask(detail::dtype<T>, &src0.Raw(), &src1.Raw(), static_cast<uint8_t>(cmpMode),
                                           &m, &p, loc));
}
template <typename T>
void GetCmpMask(const LocalTensor<T>& dst, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_cmp_mask(0, detail::dtype<T>, &dst.Raw(), loc));
}
template <typename T>
void SetCmpMask(const LocalTensor<T>& src, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_cmp_mask(1, detail::dtype<T>, &src.Raw(), loc));
}

// Select without a mask argument (after SetVectorMask and SetCmpMask).
template <typename T, typename U>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, uint8_t repeatTime,
            const BinaryRepeatParams& repeatParams, detail::Loc loc = detail::Loc()) {
    detail::RawRepeat p = detail::Strides(repeatParams);
    detail::Check(ascendc_select_cmp_mask(detail::dtype<T>, detail::dtype<U>, &dst.Raw(), &selMask.Raw(), &src0.Raw(),
                                          nullptr, 1, repeatTime, &p, loc));
}
template <typename T, SELMODE selMode>
void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, uint8_t repeatTime,
            const BinaryRepeatParams& repeatParams, detail::Loc loc = detail::Loc()) {
    detail::RawRepeat p = detail::Strides(repeatParams);
    detail::Check(ascendc_select_cmp_mask(detail::dtype<T>, 0, &dst.Raw(), nullptr, &src0.Raw(), &src1.Raw(),
                                          static_cast<uint8_t>(selMode), repeatTime, &p, loc));
}

// Select level 0 with a bit mask (uint64_t mask[2]).
template <typename T, typename U, bool isSetMask = true>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            const LocalTensor<T>& src1, SELMODE selMode, uint64_t mask[], uint8_t repeatTime,
            const BinaryRepeatParams& repeatParams, detail::Loc loc = detail::Loc()) {
    detail::SelectIssue<T, U>(dst, selMask, src0, &src1, nullptr, selMode,
                              detail::Level0(detail::BitMask(isSetMask, mask), repeatTime, repeatParams), loc);
}
template <typename T, typename U, bool isSetMask = true>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            const detail::Same<T> src1, SELMODE selMode, uint64_t mask[], uint8_t repeatTime,
            const BinaryRepeatParams& repeatParams, detail::Loc loc = detail::Loc()) {
    detail::SelectIssue<T, U>(dst, selMask, src0, nullptr, &src1, selMode,
                              detail::Level0(detail::BitMask(isSetMask, mask), repeatTime, repeatParams), loc);
}

}  // namespace AscendC
