// High-level API, normalization (归一化操作): RmsNorm (half/float; A2, A3, 310P), and the kernel
// side of its tiling struct (AscendC::tiling::RmsNormTiling, also reachable as RmsNormTiling).
#pragma once

#include "common.h"

namespace AscendC {
namespace tiling {
// What GetRmsNormTilingInfo fills and RmsNorm reads (field order and types as the device's).
struct RmsNormTiling {
    uint32_t bLength = 0;
    uint32_t sLength = 0;
    uint32_t hLength = 0;
    uint32_t originalHLength = 0;
    float reciprocalOfHLength = 0;
    uint32_t mainBshLength = 0;
    uint32_t mainBsLength = 0;
    uint32_t mainBsLengthAlign = 0;
    uint32_t loopRound = 0;
    uint32_t inputTailPos = 0;
    uint32_t tailBshLength = 0;
    uint32_t tailBsLength = 0;
};
}  // namespace tiling
}  // namespace AscendC

using AscendC::tiling::RmsNormTiling;

extern "C" {
int32_t ascendc_adv_rms_norm(uint8_t elem, bool isBasicBlock, const AscLocal* dst, const AscLocal* src,
                             const AscLocal* gamma, const AscLocal* tmp, const void* pipe, float epsilon,
                             const void* tiling, AscLoc loc);
}

namespace AscendC {
// dst = src / sqrt(mean(src², last axis) + epsilon) · gamma over [B, S, H]; the temporary space
// is sharedTmpBuffer (size from GetRmsNormMaxMinTmpSize, as given to GetRmsNormTilingInfo).
template <typename T, bool isBasicBlock = false>
void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<T>& gammaLocal,
             const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon, const RmsNormTiling& tiling,
             detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_adv_rms_norm(detail::dtype<T>, isBasicBlock, &dstLocal.Raw(), &srcLocal.Raw(), &gammaLocal.Raw(),
                                       &sharedTmpBuffer.Raw(), detail::PipeHandle(), static_cast<float>(epsilon),
                                       &tiling, loc));
}

// As above, the temporary space being the UB the pipe has not given out.
template <typename T, bool isBasicBlock = false>
void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<T>& gammaLocal,
             const T epsilon, const RmsNormTiling& tiling, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_adv_rms_norm(detail::dtype<T>, isBasicBlock, &dstLocal.Raw(), &srcLocal.Raw(), &gammaLocal.Raw(),
                                       nullptr, detail::PipeHandle(), static_cast<float>(epsilon), &tiling, loc));
}
}  // namespace AscendC
