// LoadData from GM into L1 (A1/B1) in 512-byte fractals with LoadData2DParams.
#pragma once

#include "tensor.h"

extern "C" {
int32_t ascendc_load_data_gm(uint8_t elem, const AscLocal* dst, const AscGlobal* src, const void* params, AscLoc loc);
}

namespace AscendC {

template <typename T>
void LoadData(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const LoadData2DParams& p,
              detail::Loc loc = detail::Loc()) {
    detail::RawLoad2D r{p.startIndex, p.repeatTimes, p.srcStride, p.sid, p.dstGap, uint8_t(p.ifTranspose), p.addrMode};
    detail::RawGlobal g = src.Raw();
    detail::Check(ascendc_load_data_gm(detail::dtype<T>, &dst.Raw(), &g, &r, loc));
}

}  // namespace AscendC
