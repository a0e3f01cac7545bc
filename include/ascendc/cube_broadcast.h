// BroadCastVecToMM (Atlas inference series AI Core): UB vectors broadcast into L0C fractals.
#pragma once

#include "tensor.h"

extern "C" {
int32_t ascendc_broadcast_vec_to_mm(uint8_t dstElem, uint8_t srcElem, const AscLocal* dst, const AscLocal* src,
                                    int32_t blockCount, uint8_t blockLen, uint8_t srcGap, uint8_t dstGap,
                                    AscLoc loc);
}

namespace AscendC {

// Every 16 elements of a source block (blockLen x 16 elements, srcGap 32-byte blocks apart)
// become a 16 x 16 fractal of dst (CO1) with those elements in every row; blocks start
// (blockLen + dstGap) fractals apart.
template <typename T, typename U>
void BroadCastVecToMM(const LocalTensor<T>& dst, const LocalTensor<U>& src, const int32_t blockCount,
                      const uint8_t blockLen, const uint8_t srcGap, const uint8_t dstGap,
                      detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_broadcast_vec_to_mm(detail::dtype<T>, detail::dtype<U>, &dst.Raw(), &src.Raw(), blockCount,
                                              blockLen, srcGap, dstGap, loc));
}

}  // namespace AscendC
