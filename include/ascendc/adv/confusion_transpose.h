// High-level API, tensor transforms (张量变换): Transpose / ConfusionTranspose with a TransposeType
// (scenes 1-7: NZ/ND reshapes of [B, N, S, H/N] and the 2-D transpose; int16_t, uint16_t, half,
// int32_t, uint32_t, float; A2, A3, 310P), and ConfusionTransposeTiling as the kernel reads it (at
// global scope and in AscendC::tiling; host code fills it with confusion_transpose_tiling.h).
#pragma once

#include "../transpose.h"
#include "common.h"

// What GetTransposeTilingInfo fills: 18 uint32_t whose meaning depends on the scene.
struct ConfusionTransposeTiling {
    uint32_t param0 = 0;
    uint32_t param1 = 0;
    uint32_t param2 = 0;
    uint32_t param3 = 0;
    uint32_t param4 = 0;
    uint32_t param5 = 0;
    uint32_t param6 = 0;
    uint32_t param7 = 0;
    uint32_t param8 = 0;
    uint32_t param9 = 0;
    uint32_t param10 = 0;
    uint32_t param11 = 0;
    uint32_t param12 = 0;
    uint32_t param13 = 0;
    uint32_t param14 = 0;
    uint32_t param15 = 0;
    uint32_t param16 = 0;
    uint32_t param17 = 0;
};

static_assert(sizeof(ConfusionTransposeTiling) == 72, "ConfusionTransposeTiling is 18 uint32_t");

namespace AscendC {
namespace tiling {
using ::ConfusionTransposeTiling;
}  // namespace tiling
}  // namespace AscendC

extern "C" {
int32_t ascendc_adv_confusion_transpose(uint8_t elem, const AscLocal* dst, const AscLocal* src, const AscLocal* tmp,
                                        const void* pipe, uint8_t transposeType, const void* tiling, AscLoc loc);
}

namespace AscendC {
// Transpose (the high-level overloads): dst = src reshaped as transposeType says (scenes 1-7; 13-16
// are Ascend 950 only and refused), sharedTmpBuffer at least GetTransposeMaxMinTmpSize's minimum.
template <typename T>
void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
               TransposeType transposeType, const ConfusionTransposeTiling& tiling, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_adv_confusion_transpose(detail::dtype<T>, &dst.Raw(), &src.Raw(), &sharedTmpBuffer.Raw(),
                                                  detail::PipeHandle(), static_cast<uint8_t>(transposeType), &tiling,
                                                  loc));
}

// As above, the temporary space being the UB the pipe has not given out.
template <typename T>
void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, TransposeType transposeType,
               const ConfusionTransposeTiling& tiling, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_adv_confusion_transpose(detail::dtype<T>, &dst.Raw(), &src.Raw(), nullptr,
                                                  detail::PipeHandle(), static_cast<uint8_t>(transposeType), &tiling,
                                                  loc));
}

// The older name of the same API.
template <typename T>
void ConfusionTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                        const LocalTensor<uint8_t>& sharedTmpBuffer, TransposeType transposeType,
                        const ConfusionTransposeTiling& tiling, detail::Loc loc = detail::Loc()) {
    Transpose(dst, src, sharedTmpBuffer, transposeType, tiling, loc);
}

template <typename T>
void ConfusionTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src, TransposeType transposeType,
                        const ConfusionTransposeTiling& tiling, detail::Loc loc = detail::Loc()) {
    Transpose(dst, src, transposeType, tiling, loc);
}
}  // namespace AscendC
