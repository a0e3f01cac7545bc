// VectorPadding (each destination block is the padding block beside its source block) and
// BilinearInterpolation (gathered blocks weighted and summed).
#pragma once

#include "vec.h"

extern "C" {
int32_t ascendc_vector_padding(uint8_t elem, const AscLocal* dst, const AscLocal* src, uint8_t padMode,
                               uint8_t padSide, int32_t count, const AscendC::detail::RawMask* mask, uint8_t repeat,
                               const AscendC::detail::RawRepeat* params, AscLoc loc);
int32_t ascendc_bilinear_interpolation(uint8_t elem, const AscLocal* dst, const AscLocal* src0,
                                       const AscLocal* src0Offset, const AscLocal* src1,
                                       const AscendC::detail::RawMask* mask, uint8_t hRepeat, uint8_t repeatMode,
                                       uint16_t dstBlkStride, uint16_t vROffset, uint8_t vRepeat,
                                       const AscLocal* sharedTmpBuffer, AscLoc loc);
}

namespace AscendC {

template <typename T>
void VectorPadding(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint8_t padMode, const bool padSide,
                   const uint32_t count, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_vector_padding(detail::dtype<T>, &dst.Raw(), &src.Raw(), padMode, padSide ? 1 : 0,
                                         static_cast<int32_t>(count), nullptr, 0, nullptr, loc));
}

template <typename T, bool isSetMask = true>
void VectorPadding(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint8_t padMode, const bool padSide,
                   const uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams& repeatParams,
                   detail::Loc loc = detail::Loc()) {
    detail::RawMask m = detail::BitMask(isSetMask, mask);
    detail::RawRepeat r = detail::Strides(repeatParams);
    detail::Check(ascendc_vector_padding(detail::dtype<T>, &dst.Raw(), &src.Raw(), padMode, padSide ? 1 : 0, 0, &m,
                                         repeatTime, &r, loc));
}

template <typename T, bool isSetMask = true>
void VectorPadding(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint8_t padMode, const bool padSide,
                   const uint64_t mask, const uint8_t repeatTime, const UnaryRepeatParams& repeatParams,
                   detail::Loc loc = detail::Loc()) {
    detail::RawMask m = detail::CountMask(isSetMask, mask);
    detail::RawRepeat r = detail::Strides(repeatParams);
    detail::Check(ascendc_vector_padding(detail::dtype<T>, &dst.Raw(), &src.Raw(), padMode, padSide ? 1 : 0, 0, &m,
                                         repeatTime, &r, loc));
}

template <typename T>
void BilinearInterpolation(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                           const LocalTensor<uint32_t>& src0Offset, const LocalTensor<T>& src1, uint64_t mask[],
                           uint8_t hRepeat, bool repeatMode, uint16_t dstBlkStride, uint16_t vROffset,
                           uint8_t vRepeat, const LocalTensor<uint8_t>& sharedTmpBuffer,
                           detail::Loc loc = detail::Loc()) {
    detail::RawMask m = detail::BitMask(true, mask);
    detail::Check(ascendc_bilinear_interpolation(detail::dtype<T>, &dst.Raw(), &src0.Raw(), &src0Offset.Raw(),
                                                 &src1.Raw(), &m, hRepeat, repeatMode ? 1 : 0, dstBlkStride,
                                                 vROffset, vRepeat, &sharedTmpBuffer.Raw(), loc));
}

template <typename T>
void BilinearInterpolation(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                           const LocalTensor<uint32_t>& src0Offset, const LocalTensor<T>& src1, uint64_t mask,
                           uint8_t hRepeat, bool repeatMode, uint16_t dstBlkStride, uint16_t vROffset,
                           uint8_t vRepeat, const LocalTensor<uint8_t>& sharedTmpBuffer,
                           detail::Loc loc = detail::Loc()) {
    detail::RawMask m = detail::CountMask(true, mask);
    detail::Check(ascendc_bilinear_interpolation(detail::dtype<T>, &dst.Raw(), &src0.Raw(), &src0Offset.Raw(),
                                                 &src1.Raw(), &m, hRepeat, repeatMode ? 1 : 0, dstBlkStride,
                                                 vROffset, vRepeat, &sharedTmpBuffer.Raw(), loc));
}

}  // namespace AscendC
