// Fill (earlier InitConstValue): L1 (A1/B1), L0A (A2) or L0B (B2) set to one value.
#pragma once

#include "tensor.h"

extern "C" {
int32_t ascendc_fill(uint8_t elem, const AscLocal* dst, uint16_t repeatTimes, uint16_t blockNum, uint16_t dstGap,
                     const void* value, AscLoc loc);
}

namespace AscendC {

template <typename T>
struct InitConstValueParams {
    uint16_t repeatTimes = 0;  // iterations, [0, 32767]
    uint16_t blockNum = 0;     // blocks per iteration (32 bytes in L1, 512 in L0A/L0B)
    uint16_t dstGap = 0;       // blocks between iterations, end to start
    T initValue = 0;
    InitConstValueParams() = default;
    InitConstValueParams(uint16_t repeatTimesIn, uint16_t blockNumIn, uint16_t dstGapIn, T initValueIn)
        : repeatTimes(repeatTimesIn), blockNum(blockNumIn), dstGap(dstGapIn), initValue(initValueIn) {}
    InitConstValueParams(uint16_t repeatTimesIn, T initValueIn) : repeatTimes(repeatTimesIn), initValue(initValueIn) {}
};

template <typename T, typename U = T, typename std::enable_if<std::is_same<T, U>::value, bool>::type = true>
void Fill(const LocalTensor<T>& dst, const InitConstValueParams<U>& p, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_fill(detail::dtype<T>, &dst.Raw(), p.repeatTimes, p.blockNum, p.dstGap, &p.initValue, loc));
}

// The earlier name of Fill.
template <typename T, typename U = T, typename std::enable_if<std::is_same<T, U>::value, bool>::type = true>
void InitConstValue(const LocalTensor<T>& dst, const InitConstValueParams<U>& p, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_fill(detail::dtype<T>, &dst.Raw(), p.repeatTimes, p.blockNum, p.dstGap, &p.initValue, loc));
}

}  // namespace AscendC
