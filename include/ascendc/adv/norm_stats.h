// High-level API, normalization statistics (归一化操作): WelfordUpdate and WelfordFinalize
// (A2, A3, 310P), their parameter and config structs.
#pragma once

#include "common.h"

extern "C" {
int32_t ascendc_adv_welford_update(uint8_t elem, bool isReuseSource, bool isInplace, const AscLocal* outMean,
                                   const AscLocal* outVar, const AscLocal* inMean, const AscLocal* inVar,
                                   const AscLocal* x, const AscLocal* tmp, const void* pipe, const void* para,
                                   AscLoc loc);
int32_t ascendc_adv_welford_finalize(const AscLocal* outMean, const AscLocal* outVar, const AscLocal* inMean,
                                     const AscLocal* inVar, const AscLocal* counts, const AscLocal* tmp,
                                     const void* pipe, const void* para, AscLoc loc);
}

namespace AscendC {
// WelfordUpdate's template config: isInplace copies the outputs past abComputeLength from the
// inputs.
struct WelfordUpdateConfig {
    constexpr WelfordUpdateConfig(const bool isInplaceIn) : isInplace(isInplaceIn) {}
    bool isInplace = false;
};
constexpr WelfordUpdateConfig WFUPDATE_DEFAULT_CFG = {false};

// One block of the reduce axis: rnLength (1), abLength (a multiple of 32 bytes of T),
// abComputeLength (elements computed) and nRec (1 / the block's index from 1).
struct WelfordUpdateParam {
    uint32_t rnLength;
    uint32_t abLength;
    uint32_t abComputeLength;
    float nRec;
};

// WelfordFinalize's template config (isCorrection: Ascend 950 only).
struct WelfordFinalizeConfig {
    constexpr WelfordFinalizeConfig(const bool isCorrectionIn) : isCorrection(isCorrectionIn) {}
    bool isCorrection = false;
};
constexpr WelfordFinalizeConfig WFFINALIZE_DEFAULT_CFG = {false};

// The partials' layout and weights (rRecWithCorrection: Ascend 950 only, ignored).
struct WelfordFinalizePara {
    uint32_t rnLength;
    uint32_t abLength;
    uint32_t headCount;
    uint32_t headCountLength;
    uint32_t tailCount;
    uint32_t tailCountLength;
    float abRec;
    float rRec;
    float rRecWithCorrection;
};

// outputMean/outputVariance: the running mean and sum of squared deviations after folding in
// the block inputX (T half or float; U float).
template <typename T, typename U, bool isReuseSource = false, const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
                   const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance, const LocalTensor<T>& inputX,
                   const LocalTensor<uint8_t>& sharedTmpBuffer, const WelfordUpdateParam& para,
                   detail::Loc loc = detail::Loc()) {
    static_assert(std::is_same<U, float>::value, "WelfordUpdate: U (mean/variance) must be float");
    detail::Check(ascendc_adv_welford_update(detail::dtype<T>, isReuseSource, config.isInplace, &outputMean.Raw(),
                                             &outputVariance.Raw(), &inputMean.Raw(), &inputVariance.Raw(),
                                             &inputX.Raw(), &sharedTmpBuffer.Raw(), detail::PipeHandle(), &para, loc));
}

// As above, the temporary space being the UB the pipe has not given out.
template <typename T, typename U, bool isReuseSource = false, const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
                   const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance, const LocalTensor<T>& inputX,
                   const WelfordUpdateParam& para, detail::Loc loc = detail::Loc()) {
    static_assert(std::is_same<U, float>::value, "WelfordUpdate: U (mean/variance) must be float");
    detail::Check(ascendc_adv_welford_update(detail::dtype<T>, isReuseSource, config.isInplace, &outputMean.Raw(),
                                             &outputVariance.Raw(), &inputMean.Raw(), &inputVariance.Raw(),
                                             &inputX.Raw(), nullptr, detail::PipeHandle(), &para, loc));
}

// The mean and variance of the partials (element 0 of each output; elements 1..7 zeroed).
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                     const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                     const LocalTensor<uint8_t>& sharedTmpBuffer, WelfordFinalizePara& para,
                     detail::Loc loc = detail::Loc()) {
    static_assert(!config.isCorrection, "WelfordFinalize: isCorrection is supported on Ascend 950 only");
    detail::Check(ascendc_adv_welford_finalize(&outputMean.Raw(), &outputVariance.Raw(), &inputMean.Raw(),
                                               &inputVariance.Raw(), nullptr, &sharedTmpBuffer.Raw(),
                                               detail::PipeHandle(), &para, loc));
}

// As above, each partial weighted by counts.
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                     const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                     const LocalTensor<int32_t>& counts, const LocalTensor<uint8_t>& sharedTmpBuffer,
                     WelfordFinalizePara& para, detail::Loc loc = detail::Loc()) {
    static_assert(!config.isCorrection, "WelfordFinalize: isCorrection is supported on Ascend 950 only");
    detail::Check(ascendc_adv_welford_finalize(&outputMean.Raw(), &outputVariance.Raw(), &inputMean.Raw(),
                                               &inputVariance.Raw(), &counts.Raw(), &sharedTmpBuffer.Raw(),
                                               detail::PipeHandle(), &para, loc));
}

// The two forms above with the temporary space being the UB the pipe has not given out.
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                     const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                     WelfordFinalizePara& para, detail::Loc loc = detail::Loc()) {
    static_assert(!config.isCorrection, "WelfordFinalize: isCorrection is supported on Ascend 950 only");
    detail::Check(ascendc_adv_welford_finalize(&outputMean.Raw(), &outputVariance.Raw(), &inputMean.Raw(),
                                               &inputVariance.Raw(), nullptr, nullptr, detail::PipeHandle(), &para,
                                               loc));
}
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                     const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                     const LocalTensor<int32_t>& counts, WelfordFinalizePara& para, detail::Loc loc = detail::Loc()) {
    static_assert(!config.isCorrection, "WelfordFinalize: isCorrection is supported on Ascend 950 only");
    detail::Check(ascendc_adv_welford_finalize(&outputMean.Raw(), &outputVariance.Raw(), &inputMean.Raw(),
                                               &inputVariance.Raw(), &counts.Raw(), nullptr, detail::PipeHandle(),
                                               &para, loc));
}
}  // namespace AscendC
