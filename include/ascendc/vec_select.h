// Duplicate, Cast, Compare / CompareScalar, Select and the mask register.
#pragma once

#include "vec.h"

namespace AscendC {

template <typename T>
void Duplicate(const LocalTensor<T>& dstLocal, const detail::Same<T>& scalarValue, const int32_t& calCount,
               detail::Loc loc = detail::Loc()) {
    T v = scalarValue;
    detail::Check(ascendc_vec_duplicate(detail::dtype<T>, &dstLocal.Raw(), &v, calCount, nullptr, 0, 0, 0, loc));
}
template <typename T, bool isSetMask = true>
void Duplicate(const LocalTensor<T>& dstLocal, const detail::Same<T>& scalarValue, uint64_t mask,
               const uint8_t repeatTimes, const uint16_t dstBlockStride, const uint8_t dstRepeatStride,
               detail::Loc loc = detail::Loc()) {
    T v = scalarValue;
    detail::RawMask m = detail::CountMask(isSetMask, mask);
    detail::Check(ascendc_vec_duplicate(detail::dtype<T>, &dstLocal.Raw(), &v, 0, &m, repeatTimes, dstBlockStride,
                                        dstRepeatStride, loc));
}
template <typename T, bool isSetMask = true>
void Duplicate(const LocalTensor<T>& dstLocal, const detail::Same<T>& scalarValue, const uint64_t mask[],
               const uint8_t repeatTimes, const uint16_t dstBlockStride, const uint8_t dstRepeatStride,
               detail::Loc loc = detail::Loc()) {
    T v = scalarValue;
    detail::RawMask m = detail::BitMask(isSetMask, mask);
    detail::Check(ascendc_vec_duplicate(detail::dtype<T>, &dstLocal.Raw(), &v, 0, &m, repeatTimes, dstBlockStride,
                                        dstRepeatStride, loc));
}

namespace detail {

template <typename D, typename S>
void CastIssue(const LocalTensor<D>& dst, const LocalTensor<S>& src, RoundMode mode, const Issue& i, Loc loc) {
    Check(ascendc_vec_cast(dtype<D>, dtype<S>, &dst.Raw(), &src.Raw(), static_cast<uint8_t>(mode), i.count, i.Mask(),
                           i.repeat, i.Params(), loc));
}

template <typename U, typename T>
void CompareIssue(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>* src1,
                  const T* scalar, CMPMODE mode, const Issue& i, Loc loc) {
    Check(ascendc_vec_compare(dtype<U>, dtype<T>, &dst.Raw(), &src0.Raw(), src1 != nullptr ? &src1->Raw() : nullptr,
                              scalar, static_cast<uint8_t>(mode), i.count, i.Mask(), i.repeat, i.Params(), loc));
}

template <typename T, typename U>
void SelectIssue(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                 const LocalTensor<T>* src1, const T* scalar, SELMODE mode, const Issue& i, Loc loc) {
    Check(ascendc_vec_select(dtype<T>, dtype<U>, &dst.Raw(), &selMask.Raw(), &src0.Raw(),
                             src1 != nullptr ? &src1->Raw() : nullptr, scalar, static_cast<uint8_t>(mode), i.count,
                             i.Mask(), i.repeat, i.Params(), loc));
}

}  // namespace detail

template <typename T1, typename T2>
void Cast(const LocalTensor<T1>& dstLocal, const LocalTensor<T2>& srcLocal, const RoundMode& round_mode,
          const uint32_t calCount, detail::Loc loc = detail::Loc()) {
    detail::CastIssue(dstLocal, srcLocal, round_mode, detail::Count(calCount), loc);
}
template <typename T1, typename T2, bool isSetMask = true>
void Cast(const LocalTensor<T1>& dstLocal, const LocalTensor<T2>& srcLocal, const RoundMode& round_mode,
          uint64_t mask, const uint8_t repeatTimes, const UnaryRepeatParams& repeatParams,
          detail::Loc loc = detail::Loc()) {
    detail::CastIssue(dstLocal, srcLocal, round_mode,
                      detail::Level0(detail::CountMask(isSetMask, mask), repeatTimes, repeatParams), loc);
}
template <typename T1, typename T2, bool isSetMask = true>
void Cast(const LocalTensor<T1>& dstLocal, const LocalTensor<T2>& srcLocal, const RoundMode& round_mode,
          const uint64_t mask[], const uint8_t repeatTimes, const UnaryRepeatParams& repeatParams,
          detail::Loc loc = detail::Loc()) {
    detail::CastIssue(dstLocal, srcLocal, round_mode,
                      detail::Level0(detail::BitMask(isSetMask, mask), repeatTimes, repeatParams), loc);
}

template <typename T, typename U>
void Compare(const LocalTensor<U>& dstLocal, const LocalTensor<T>& src0Local, const LocalTensor<T>& src1Local,
             CMPMODE cmpMode, uint32_t calCount, detail::Loc loc = detail::Loc()) {
    detail::CompareIssue<U, T>(dstLocal, src0Local, &src1Local, nullptr, cmpMode, detail::Count(calCount), loc);
}
template <typename T, typename U, bool isSetMask = true>
void Compare(const LocalTensor<U>& dstLocal, const LocalTensor<T>& src0Local, const LocalTensor<T>& src1Local,
             CMPMODE cmpMode, uint64_t mask, uint8_t repeatTimes, const BinaryRepeatParams& repeatParams,
             detail::Loc loc = detail::Loc()) {
    detail::CompareIssue<U, T>(dstLocal, src0Local, &src1Local, nullptr, cmpMode,
                               detail::Level0(detail::CountMask(isSetMask, mask), repeatTimes, repeatParams), loc);
}
template <typename T, typename U, bool isSetMask = true>
void Compare(const LocalTensor<U>& dstLocal, const LocalTensor<T>& src0Local, const LocalTensor<T>& src1Local,
             CMPMODE cmpMode, const uint64_t mask[], uint8_t repeatTimes, const BinaryRepeatParams& repeatParams,
             detail::Loc loc = detail::Loc()) {
    detail::CompareIssue<U, T>(dstLocal, src0Local, &src1Local, nullptr, cmpMode,
                               detail::Level0(detail::BitMask(isSetMask, mask), repeatTimes, repeatParams), loc);
}

template <typename T, typename U>
void CompareScalar(const LocalTensor<U>& dstLocal, const LocalTensor<T>& src0Local, const detail::Same<T> src1Scalar,
                   CMPMODE cmpMode, uint32_t calCount, detail::Loc loc = detail::Loc()) {
    detail::CompareIssue<U, T>(dstLocal, src0Local, nullptr, &src1Scalar, cmpMode, detail::Count(calCount), loc);
}
template <typename T, typename U, bool isSetMask = true>
void CompareScalar(const LocalTensor<U>& dstLocal, const LocalTensor<T>& src0Local, const detail::Same<T> src1Scalar,
                   CMPMODE cmpMode, uint64_t mask, uint8_t repeatTimes, const UnaryRepeatParams& repeatParams,
                   detail::Loc loc = detail::Loc()) {
    detail::CompareIssue<U, T>(dstLocal, src0Local, nullptr, &src1Scalar, cmpMode,
                               detail::Level0(detail::CountMask(isSetMask, mask), repeatTimes, repeatParams), loc);
}

template <typename T, typename U>
void Select(const LocalTensor<T>& dstLocal, const LocalTensor<U>& selMask, const LocalTensor<T>& src0Local,
            const LocalTensor<T>& src1Local, SELMODE selMode, uint32_t calCount, detail::Loc loc = detail::Loc()) {
    detail::SelectIssue<T, U>(dstLocal, selMask, src0Local, &src1Local, nullptr, selMode, detail::Count(calCount), loc);
}
template <typename T, typename U>
void Select(const LocalTensor<T>& dstLocal, const LocalTensor<U>& selMask, const LocalTensor<T>& src0Local,
            const detail::Same<T> src1Scalar, SELMODE selMode, uint32_t calCount, detail::Loc loc = detail::Loc()) {
    detail::SelectIssue<T, U>(dstLocal, selMask, src0Local, nullptr, &src1Scalar, selMode, detail::Count(calCount),
                              loc);
}
template <typename T, typename U, bool isSetMask = true>
void Select(const LocalTensor<T>& dstLocal, const LocalTensor<U>& selMask, const LocalTensor<T>& src0Local,
            const LocalTensor<T>& src1Local, SELMODE selMode, uint64_t mask, uint8_t repeatTimes,
            const BinaryRepeatParams& repeatParams, detail::Loc loc = detail::Loc()) {
    detail::SelectIssue<T, U>(dstLocal, selMask, src0Local, &src1Local, nullptr, selMode,
                              detail::Level0(detail::CountMask(isSetMask, mask), repeatTimes, repeatParams), loc);
}
template <typename T, typename U, bool isSetMask = true>
void Select(const LocalTensor<T>& dstLocal, const LocalTensor<U>& selMask, const LocalTensor<T>& src0Local,
            const detail::Same<T> src1Scalar, SELMODE selMode, uint64_t mask, uint8_t repeatTimes,
            const BinaryRepeatParams& repeatParams, detail::Loc loc = detail::Loc()) {
    detail::SelectIssue<T, U>(dstLocal, selMask, src0Local, nullptr, &src1Scalar, selMode,
                              detail::Level0(detail::CountMask(isSetMask, mask), repeatTimes, repeatParams), loc);
}

// The mask register.
template <typename T, MaskMode mode = MaskMode::NORMAL>
void SetVectorMask(const uint64_t maskHigh, const uint64_t maskLow, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_vec_mask(0, detail::dtype<T>, mode == MaskMode::COUNTER, {1, maskLow, maskHigh}, loc));
}
template <typename T, MaskMode mode = MaskMode::NORMAL>
void SetVectorMask(int32_t len, detail::Loc loc = detail::Loc()) {
    detail::Check(
        ascendc_vec_mask(0, detail::dtype<T>, mode == MaskMode::COUNTER, {0, static_cast<uint64_t>(len), 0}, loc));
}
inline void SetMaskCount(detail::Loc loc = detail::Loc()) { detail::Check(ascendc_vec_mask(1, 0, 0, {}, loc)); }
inline void SetMaskNorm(detail::Loc loc = detail::Loc()) { detail::Check(ascendc_vec_mask(2, 0, 0, {}, loc)); }
inline void ResetMask(detail::Loc loc = detail::Loc()) { detail::Check(ascendc_vec_mask(3, 0, 0, {}, loc)); }

// Control registers: fp16 overflow mode (true = saturate, the reset state; false = IEEE Inf/NaN,
// A2/A3 only) and the int32 → half Cast scale.
inline void SetSaturationFlag(bool saturate, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_vec_control(0, saturate ? 1 : 0, loc));
}
inline void SetDeqScale(half scale, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_vec_control(1, scale.bits, loc));
}

}  // namespace AscendC
