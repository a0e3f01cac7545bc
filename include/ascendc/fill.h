// Broadcast and index fills: Brcb (one element per 32-byte block) and CreateVecIndex.
#pragma once

#include "vec.h"

extern "C" {
int32_t ascendc_brcb(uint8_t elem, const AscLocal* dst, const AscLocal* src, uint8_t repeat, uint16_t dstBlk,
                     uint16_t dstRep, AscLoc loc);
int32_t ascendc_create_vec_index(uint8_t elem, const AscLocal* dst, const void* first, int32_t count,
                                 const AscendC::detail::RawMask* mask, uint8_t repeat, uint16_t dstBlk,
                                 uint8_t dstRep, AscLoc loc);
}

namespace AscendC {

struct BrcbRepeatParams {
    uint16_t dstBlkStride = 1;
    uint16_t dstRepStride = 8;

    BrcbRepeatParams() = default;
    BrcbRepeatParams(uint16_t dstBlkStrideIn, uint16_t dstRepStrideIn)
        : dstBlkStride(dstBlkStrideIn), dstRepStride(dstRepStrideIn) {}
};

template <typename T>
void Brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint8_t repeatTime,
          const BrcbRepeatParams& repeatParams, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_brcb(detail::dtype<T>, &dst.Raw(), &src.Raw(), repeatTime, repeatParams.dstBlkStride,
                               repeatParams.dstRepStride, loc));
}

template <typename T>
void CreateVecIndex(LocalTensor<T> dst, const T& firstValue, uint32_t count, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_create_vec_index(detail::dtype<T>, &dst.Raw(), &firstValue, static_cast<int32_t>(count),
                                           nullptr, 0, 0, 0, loc));
}
template <typename T>
void CreateVecIndex(LocalTensor<T>& dst, const T& firstValue, uint64_t mask[], uint8_t repeatTime,
                    uint16_t dstBlkStride, uint8_t dstRepStride, detail::Loc loc = detail::Loc()) {
    detail::RawMask m = detail::BitMask(true, mask);
    detail::Check(ascendc_create_vec_index(detail::dtype<T>, &dst.Raw(), &firstValue, 0, &m, repeatTime,
                                           dstBlkStride, dstRepStride, loc));
}
template <typename T>
void CreateVecIndex(LocalTensor<T>& dst, const T& firstValue, uint64_t mask, uint8_t repeatTime,
                    uint16_t dstBlkStride, uint8_t dstRepStride, detail::Loc loc = detail::Loc()) {
    detail::RawMask m = detail::CountMask(true, mask);
    detail::Check(ascendc_create_vec_index(detail::dtype<T>, &dst.Raw(), &firstValue, 0, &m, repeatTime,
                                           dstBlkStride, dstRepStride, loc));
}

}  // namespace AscendC
