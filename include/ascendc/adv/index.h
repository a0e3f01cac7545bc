// High-level API, index family: ArithProgression / Arange (int16_t, half, int32_t, float;
// A2, A3, 310P).
#pragma once

#include "common.h"

extern "C" {
int32_t ascendc_adv_arith_progression(uint8_t elem, const AscLocal* dst, const void* first, const void* diff,
                                      int32_t count, AscLoc loc);
}

namespace AscendC {
// `dst[i] = firstValue + diffValue * i` for i < count.
template <typename T>
void ArithProgression(const LocalTensor<T>& dstLocal, const T firstValue, const T diffValue, const int32_t count,
                      detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_adv_arith_progression(detail::dtype<T>, &dstLocal.Raw(), &firstValue, &diffValue, count, loc));
}
// The same sequence under its documented name.
template <typename T>
void Arange(const LocalTensor<T>& dst, const T firstValue, const T diffValue, const int32_t count,
            detail::Loc loc = detail::Loc()) {
    ArithProgression<T>(dst, firstValue, diffValue, count, loc);
}
}  // namespace AscendC
