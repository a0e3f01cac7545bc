// Copy: the UB -> UB vector copy with a mask and block / repeat strides.
#pragma once

#include "vec.h"

extern "C" int32_t ascendc_vec_copy(uint8_t elem, const AscLocal* dst, const AscLocal* src,
                                    const AscendC::detail::RawMask* mask, uint8_t repeat, const uint16_t* params,
                                    AscLoc loc);

namespace AscendC {

struct CopyRepeatParams {
    uint16_t dstStride = 1;
    uint16_t srcStride = 1;
    uint16_t dstRepeatSize = 8;
    uint16_t srcRepeatSize = 8;

    CopyRepeatParams() = default;
    CopyRepeatParams(uint16_t dstStrideIn, uint16_t srcStrideIn, uint16_t dstRepeatSizeIn, uint16_t srcRepeatSizeIn)
        : dstStride(dstStrideIn), srcStride(srcStrideIn), dstRepeatSize(dstRepeatSizeIn),
          srcRepeatSize(srcRepeatSizeIn) {}
};

template <typename T, bool isSetMask = true>
void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[], const uint8_t repeatTime,
          const CopyRepeatParams& repeatParams, detail::Loc loc = detail::Loc()) {
    detail::RawMask m = detail::BitMask(isSetMask, mask);
    const uint16_t p[4] = {repeatParams.dstStride, repeatParams.srcStride, repeatParams.dstRepeatSize,
                           repeatParams.srcRepeatSize};
    detail::Check(ascendc_vec_copy(detail::dtype<T>, &dst.Raw(), &src.Raw(), &m, repeatTime, p, loc));
}
template <typename T, bool isSetMask = true>
void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask, const uint8_t repeatTime,
          const CopyRepeatParams& repeatParams, detail::Loc loc = detail::Loc()) {
    detail::RawMask m = detail::CountMask(isSetMask, mask);
    const uint16_t p[4] = {repeatParams.dstStride, repeatParams.srcStride, repeatParams.dstRepeatSize,
                           repeatParams.srcRepeatSize};
    detail::Check(ascendc_vec_copy(detail::dtype<T>, &dst.Raw(), &src.Raw(), &m, repeatTime, p, loc));
}

}  // namespace AscendC
