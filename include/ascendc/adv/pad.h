// High-level API, tensor padding (张量变换): Pad and UnPad of a 2-D tensor along its width
// (int16/uint16/half/int32/uint32/float; A2, A3, 310P), with their parameter and tiling structs.
#pragma once

#include "common.h"

extern "C" {
int32_t ascendc_adv_pad(bool unpad, uint8_t elem, const AscLocal* dst, const AscLocal* src, const void* params,
                        const AscLocal* tmp, const void* pipe, const void* tiling, AscLoc loc);
}

namespace AscendC {

// Columns Pad adds on each side and the value they get.
struct PadParams {
    PadParams() = default;
    PadParams(const uint16_t leftPadIn, const uint16_t rightPadIn, const int32_t padValueIn)
        : leftPad(leftPadIn), rightPad(rightPadIn), padValue(padValueIn) {}
    uint16_t leftPad = 0;
    uint16_t rightPad = 0;
    int32_t padValue = 0;
};

// Columns UnPad drops on each side (only rightPad is used).
struct UnPadParams {
    UnPadParams() = default;
    UnPadParams(const uint16_t leftPadIn, const uint16_t rightPadIn) : leftPad(leftPadIn), rightPad(rightPadIn) {}
    uint16_t leftPad = 0;
    uint16_t rightPad = 0;
};

namespace tiling {
// The kernel's copy of Pad's tiling (PadTilingFunc fills it).
struct PadTiling {
    uint32_t srcHeight = 0;
    uint32_t srcWidth = 0;
    uint32_t srcOriWidth = 0;
    uint32_t widthWithoutLastBlock = 0;
    uint32_t blocksPerRow = 0;
    uint32_t heightTiling = 0;
    uint32_t heightFractal = 0;
    uint32_t heightFractalTail = 0;
    uint32_t mainLoopOffset = 0;
    uint32_t tailBlockOffset = 0;
    uint32_t tmpBuffer1BlockNum = 0;
    uint32_t tmpBuffer1RowNum = 0;
    uint32_t tmpBuffer2Offset = 0;
    uint32_t widthTiling = 0;
    uint32_t widthFractal = 0;
    uint32_t widthFractalTail = 0;
    uint32_t widthFractalTailAlingned = 0;
    uint32_t brcbTiling = 0;
    uint32_t brcbFractal = 0;
    uint32_t brcbFractalTail = 0;
    uint32_t maxRepeatTimes = 0;
    uint32_t brcbTilingRepeatTimes = 0;
    uint32_t brcbTilingRepeatTimesTail = 0;
    uint32_t brcbFractalTailRepeatTimes = 0;
    uint32_t brcbFractalTailRepeatTimesTail = 0;
    uint32_t reserved = 0;
};
// The kernel's copy of UnPad's tiling (UnPadTilingFunc fills it).
struct UnPadTiling {
    uint32_t srcHeight = 0;
    uint32_t srcWidth = 0;
    uint32_t tmpBuffer1BlockNum = 0;
    uint32_t tmpBuffer1RowNum = 0;
    uint32_t tmpBuffer2Offset = 0;
    uint32_t widthTiling = 0;
    uint32_t widthFractal = 0;
    uint32_t widthFractalTail = 0;
};
}  // namespace tiling

namespace detail {
template <typename T, typename P, typename Tiling>
inline void AdvPad(bool unpad, const LocalTensor<T>& dst, const LocalTensor<T>& src, const P& params,
                   const LocalTensor<uint8_t>* tmp, const Tiling& tiling, Loc loc) {
    const void* pipe = PipeHandle();
    Check(ascendc_adv_pad(unpad, dtype<T>, &dst.Raw(), &src.Raw(), &params, tmp != nullptr ? &tmp->Raw() : nullptr,
                          pipe, &tiling, loc));
}
}  // namespace detail

template <typename T>
void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const PadParams& padParams,
         const LocalTensor<uint8_t>& sharedTmpBuffer, const tiling::PadTiling& tiling, detail::Loc loc = detail::Loc()) {
    detail::AdvPad(false, dstTensor, srcTensor, padParams, &sharedTmpBuffer, tiling, loc);
}
template <typename T>
void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const PadParams& padParams,
         const tiling::PadTiling& tiling, detail::Loc loc = detail::Loc()) {
    detail::AdvPad(false, dstTensor, srcTensor, padParams, nullptr, tiling, loc);
}
template <typename T>
void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const UnPadParams& unPadParams,
           const LocalTensor<uint8_t>& sharedTmpBuffer, const tiling::UnPadTiling& tiling,
           detail::Loc loc = detail::Loc()) {
    detail::AdvPad(true, dstTensor, srcTensor, unPadParams, &sharedTmpBuffer, tiling, loc);
}
template <typename T>
void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const UnPadParams& unPadParams,
           const tiling::UnPadTiling& tiling, detail::Loc loc = detail::Loc()) {
    detail::AdvPad(true, dstTensor, srcTensor, unPadParams, nullptr, tiling, loc);
}

}  // namespace AscendC

// Kernels name the tiling structs unqualified, as the generated kernel_tiling.h declares them.
using AscendC::tiling::PadTiling;
using AscendC::tiling::UnPadTiling;
