// High-level API, normalization (归一化操作): LayerNorm (the [B, S, H] form with mean and variance,
// the [A, R] form with mean and rstd), Normalize and DeepNorm (half/float; A2, A3, 310P), and the
// kernel side of their tiling structs (LayerNormTiling, LayerNormSeparateTiling, DeepNormTiling:
// at global scope and in AscendC::tiling, as kernel_tiling.h has them).
#pragma once

#include <cstdint>

// What GetLayerNormNDTilingInfo fills for the [B, S, H] form (field order and types as the
// device's); sizes and positions in floats.
struct LayerNormTiling {
    uint32_t bLength = 0;
    uint32_t sLength = 0;
    uint32_t hLength = 0;
    uint32_t originalHLength = 0;
    uint32_t inputXSize = 0;
    uint32_t meanVarSize = 0;
    uint32_t numberOfTmpBuf = 0;
    uint32_t meanTmpTensorPos = 0;
    uint32_t meanTmpTensorSize = 0;
    uint32_t varianceTmpTensorPos = 0;
    uint32_t varianceTmpTensorSize = 0;
    uint32_t tmpBufSize = 0;
    uint32_t oneTmpSize = 0;
    uint32_t firstTmpStartPos = 0;
    uint32_t secondTmpStartPos = 0;
    uint32_t thirdTmpStartPos = 0;
    uint32_t loopRound = 0;
    uint32_t inputRoundSize = 0;
    uint32_t inputTailSize = 0;
    uint32_t inputTailPos = 0;
    uint32_t meanVarRoundSize = 0;
    uint32_t meanVarTailSize = 0;
    uint32_t meanVarTailPos = 0;
    uint32_t bshCurLength = 0;
    uint32_t bsCurLength = 0;
    float lastDimValueBack = 0;
};

// What GetLayerNormNDTilingInfo(..., isComputeRstd, ...) fills for the [A, R] form.
struct LayerNormSeparateTiling {
    uint32_t aLength = 0;
    uint32_t rLength = 0;
    uint32_t halfAddRepeatTimes = 0;
    uint32_t rHeadLength = 0;
    float k2Rec = 0;
    float k2RRec = 0;
    uint32_t inputXSize = 0;
    uint32_t meanVarSize = 0;
    uint32_t numberOfTmpBuf = 0;
    uint32_t varianceTmpTensorPos = 0;
    uint32_t varianceTmpTensorSize = 0;
    uint32_t tmpBufSize = 0;
    uint32_t oneTmpSize = 0;
    uint32_t firstTmpStartPos = 0;
    uint32_t secondTmpStartPos = 0;
    uint32_t thirdTmpStartPos = 0;
    uint32_t loopRound = 0;
    uint32_t inputRoundSize = 0;
    uint32_t inputTailSize = 0;
    uint32_t inputTailPos = 0;
    uint32_t meanVarRoundSize = 0;
    uint32_t meanVarTailSize = 0;
    uint32_t meanVarTailPos = 0;
    uint32_t arCurLength = 0;
    uint32_t aCurLength = 0;
    float rValueBack = 0;
};

// What GetDeepNormTilingInfo fills (the [B, S, H] LayerNorm fields).
struct DeepNormTiling {
    uint32_t bLength = 0;
    uint32_t sLength = 0;
    uint32_t hLength = 0;
    uint32_t originalHLength = 0;
    uint32_t inputXSize = 0;
    uint32_t meanVarSize = 0;
    uint32_t numberOfTmpBuf = 0;
    uint32_t meanTmpTensorPos = 0;
    uint32_t meanTmpTensorSize = 0;
    uint32_t varianceTmpTensorPos = 0;
    uint32_t varianceTmpTensorSize = 0;
    uint32_t tmpBufSize = 0;
    uint32_t oneTmpSize = 0;
    uint32_t firstTmpStartPos = 0;
    uint32_t secondTmpStartPos = 0;
    uint32_t thirdTmpStartPos = 0;
    uint32_t loopRound = 0;
    uint32_t inputRoundSize = 0;
    uint32_t inputTailSize = 0;
    uint32_t inputTailPos = 0;
    uint32_t meanVarRoundSize = 0;
    uint32_t meanVarTailSize = 0;
    uint32_t meanVarTailPos = 0;
    uint32_t bshCurLength = 0;
    uint32_t bsCurLength = 0;
    float lastDimValueBack = 0;
};

static_assert(sizeof(LayerNormTiling) == 104, "LayerNormTiling is 26 words");
static_assert(sizeof(LayerNormSeparateTiling) == 104, "LayerNormSeparateTiling is 26 words");
static_assert(sizeof(DeepNormTiling) == 104, "DeepNormTiling is 26 words");

namespace AscendC {
namespace tiling {
using ::DeepNormTiling;
using ::LayerNormSeparateTiling;
using ::LayerNormTiling;
}  // namespace tiling
}  // namespace AscendC

#include "common.h"
#include "reduce_pattern.h"

extern "C" {
int32_t ascendc_adv_layer_norm(uint8_t elem, bool isReuseSource, const AscLocal* output, const AscLocal* mean,
                               const AscLocal* variance, const AscLocal* x, const AscLocal* gamma,
                               const AscLocal* beta, const AscLocal* tmp, const void* pipe, float epsilon,
                               void* tiling, AscLoc loc);
int32_t ascendc_adv_layer_norm_rstd(uint8_t elemU, uint8_t elemT, uint32_t flags, const AscLocal* output,
                                    const AscLocal* mean, const AscLocal* rstd, const AscLocal* x,
                                    const AscLocal* gamma, const AscLocal* beta, float epsilon, const AscLocal* tmp,
                                    const void* pipe, const void* para, void* tiling, AscLoc loc);
int32_t ascendc_adv_normalize(uint8_t elemU, uint8_t elemT, int32_t aLength, uint32_t flags, const AscLocal* output,
                              const AscLocal* rstd, const AscLocal* mean, const AscLocal* variance,
                              const AscLocal* x, const AscLocal* gamma, const AscLocal* beta, const AscLocal* tmp,
                              const void* pipe, float epsilon, const void* para, AscLoc loc);
int32_t ascendc_adv_deep_norm(uint8_t elem, bool isReuseSrc, bool isBasicBlock, const AscLocal* const* ops,
                              const AscLocal* tmp, const void* pipe, float alpha, float epsilon, void* tiling,
                              AscLoc loc);
}

namespace AscendC {
// The [A, R] LayerNorm's template config (isOutputRstd = false, the variance, is Ascend 950 only).
struct LayerNormConfig {
    bool isNoBeta = false;
    bool isNoGamma = false;
    bool isOnlyOutput = false;
    bool isOutputRstd = true;
};
constexpr LayerNormConfig LNCFG_NORM = {false, false, false, true};

// The [A, R] geometry: rows, columns that count, row stride (R padded to 32 bytes of T).
struct LayerNormPara {
    uint32_t aLength;
    uint32_t rLength;
    uint32_t rLengthWithPadding;
};

// Normalize's template config (only the AR pattern on these products; aLength -1 or A).
struct NormalizeConfig {
    ReducePattern reducePattern = ReducePattern::AR;
    int32_t aLength = -1;
    bool isNoBeta = false;
    bool isNoGamma = false;
    bool isOnlyOutput = false;
};
constexpr NormalizeConfig NLCFG_NORM = {ReducePattern::AR, -1, false, false, false};
constexpr NormalizeConfig NLCFG_NOBETA = {ReducePattern::AR, -1, true, false, false};
constexpr NormalizeConfig NLCFG_NOGAMMA = {ReducePattern::AR, -1, false, true, false};
constexpr NormalizeConfig NLCFG_NOOPT = {ReducePattern::AR, -1, true, true, false};

// Normalize's geometry (as LayerNormPara).
struct NormalizePara {
    uint32_t aLength;
    uint32_t rLength;
    uint32_t rLengthWithPadding;
};

namespace detail {
inline constexpr uint32_t LayerNormFlags(bool noBeta, bool noGamma, bool onlyOutput, bool outputRstd) {
    return (noBeta ? 1u : 0u) | (noGamma ? 2u : 0u) | (onlyOutput ? 4u : 0u) | (outputRstd ? 8u : 0u);
}
}  // namespace detail

// [B, S, H]: mean and variance of each row over H (originalHLength counts), and
// output = (x − mean) / sqrt(variance + epsilon) · gamma + beta. The temporary space is
// sharedTmpBuffer (size from GetLayerNormMaxMinTmpSize, as given to GetLayerNormNDTilingInfo).
template <typename T, bool isReuseSource = false>
void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance,
               const LocalTensor<T>& inputX, const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
               const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon, LayerNormTiling& tiling,
               detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_adv_layer_norm(detail::dtype<T>, isReuseSource, &output.Raw(), &outputMean.Raw(),
                                         &outputVariance.Raw(), &inputX.Raw(), &gamma.Raw(), &beta.Raw(),
                                         &sharedTmpBuffer.Raw(), detail::PipeHandle(), static_cast<float>(epsilon),
                                         &tiling, loc));
}

// As above, the temporary space being the UB the pipe has not given out.
template <typename T, bool isReuseSource = false>
void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance,
               const LocalTensor<T>& inputX, const LocalTensor<T>& gamma, const LocalTensor<T>& beta, const T epsilon,
               LayerNormTiling& tiling, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_adv_layer_norm(detail::dtype<T>, isReuseSource, &output.Raw(), &outputMean.Raw(),
                                         &outputVariance.Raw(), &inputX.Raw(), &gamma.Raw(), &beta.Raw(), nullptr,
                                         detail::PipeHandle(), static_cast<float>(epsilon), &tiling, loc));
}

// [A, R]: mean and rstd = 1 / sqrt(variance + epsilon) of each row over rLength, and
// output = (x − mean) · rstd · gamma + beta (gamma/beta left out per config); the padding columns
// of inputX are zeroed. Temporary space: the UB the pipe has not given out.
template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig& config = LNCFG_NORM>
void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean, const LocalTensor<float>& outputRstd,
               const LocalTensor<T>& inputX, const LocalTensor<U>& gamma, const LocalTensor<U>& beta,
               const float epsilon, const LayerNormPara& para, const LayerNormSeparateTiling& tiling,
               detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_adv_layer_norm_rstd(
        detail::dtype<U>, detail::dtype<T>,
        detail::LayerNormFlags(config.isNoBeta, config.isNoGamma, config.isOnlyOutput, config.isOutputRstd),
        &output.Raw(), &outputMean.Raw(), &outputRstd.Raw(), &inputX.Raw(), &gamma.Raw(), &beta.Raw(), epsilon,
        nullptr, detail::PipeHandle(), &para, const_cast<LayerNormSeparateTiling*>(&tiling), loc));
}

// As above with the caller's sharedTmpBuffer (size from GetLayerNormMaxMinTmpSize).
template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig& config = LNCFG_NORM>
void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean, const LocalTensor<float>& outputRstd,
               const LocalTensor<T>& inputX, const LocalTensor<U>& gamma, const LocalTensor<U>& beta,
               const float epsilon, const LocalTensor<uint8_t>& sharedTmpBuffer, const LayerNormPara& para,
               const LayerNormSeparateTiling& tiling, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_adv_layer_norm_rstd(
        detail::dtype<U>, detail::dtype<T>,
        detail::LayerNormFlags(config.isNoBeta, config.isNoGamma, config.isOnlyOutput, config.isOutputRstd),
        &output.Raw(), &outputMean.Raw(), &outputRstd.Raw(), &inputX.Raw(), &gamma.Raw(), &beta.Raw(), epsilon,
        &sharedTmpBuffer.Raw(), detail::PipeHandle(), &para, const_cast<LayerNormSeparateTiling*>(&tiling), loc));
}

// outputRstd = 1 / sqrt(inputVariance + epsilon) and
// output = (inputX − inputMean) · outputRstd · gamma + beta over [A, R] (gamma/beta per config);
// the temporary space is sharedTmpBuffer (size from GetNormalizeMaxMinTmpSize).
template <typename U, typename T, bool isReuseSource = false, const NormalizeConfig& config = NLCFG_NORM>
void Normalize(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd, const LocalTensor<float>& inputMean,
               const LocalTensor<float>& inputVariance, const LocalTensor<T>& inputX, const LocalTensor<U>& gamma,
               const LocalTensor<U>& beta, const LocalTensor<uint8_t>& sharedTmpBuffer, const float epsilon,
               const NormalizePara& para, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_adv_normalize(
        detail::dtype<U>, detail::dtype<T>, config.aLength,
        detail::LayerNormFlags(config.isNoBeta, config.isNoGamma, config.isOnlyOutput, false), &output.Raw(),
        &outputRstd.Raw(), &inputMean.Raw(), &inputVariance.Raw(), &inputX.Raw(), &gamma.Raw(), &beta.Raw(),
        &sharedTmpBuffer.Raw(), detail::PipeHandle(), epsilon, &para, loc));
}

// As above, the temporary space being the UB the pipe has not given out.
template <typename U, typename T, bool isReuseSource = false, const NormalizeConfig& config = NLCFG_NORM>
void Normalize(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd, const LocalTensor<float>& inputMean,
               const LocalTensor<float>& inputVariance, const LocalTensor<T>& inputX, const LocalTensor<U>& gamma,
               const LocalTensor<U>& beta, const float epsilon, const NormalizePara& para,
               detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_adv_normalize(
        detail::dtype<U>, detail::dtype<T>, config.aLength,
        detail::LayerNormFlags(config.isNoBeta, config.isNoGamma, config.isOnlyOutput, false), &output.Raw(),
        &outputRstd.Raw(), &inputMean.Raw(), &inputVariance.Raw(), &inputX.Raw(), &gamma.Raw(), &beta.Raw(), nullptr,
        detail::PipeHandle(), epsilon, &para, loc));
}

// LayerNorm of X = alpha · srcLocal + gxLocal over [B, S, H]: meanLocal, rstdLocal (the variance,
// as the device names it) and dstLocal = (X − mean) / sqrt(variance + epsilon) · gamma + beta.
// The temporary space is sharedTmpBuffer (size from GetDeepNormMaxMinTmpSize).
template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
void DeepNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& meanLocal, const LocalTensor<T>& rstdLocal,
              const LocalTensor<T>& srcLocal, const LocalTensor<T>& gxLocal, const LocalTensor<T>& betaLocal,
              const LocalTensor<T>& gammaLocal, const LocalTensor<uint8_t>& sharedTmpBuffer, const T alpha,
              const T epsilon, DeepNormTiling& tiling, detail::Loc loc = detail::Loc()) {
    const AscLocal* ops[7] = {&dstLocal.Raw(), &meanLocal.Raw(), &rstdLocal.Raw(), &srcLocal.Raw(),
                              &gxLocal.Raw(),  &betaLocal.Raw(), &gammaLocal.Raw()};
    detail::Check(ascendc_adv_deep_norm(detail::dtype<T>, isReuseSrc, isBasicBlock, ops, &sharedTmpBuffer.Raw(),
                                        detail::PipeHandle(), static_cast<float>(alpha), static_cast<float>(epsilon),
                                        &tiling, loc));
}

// As above, the temporary space being the UB the pipe has not given out.
template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
void DeepNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& meanLocal, const LocalTensor<T>& rstdLocal,
              const LocalTensor<T>& srcLocal, const LocalTensor<T>& gxLocal, const LocalTensor<T>& betaLocal,
              const LocalTensor<T>& gammaLocal, const T alpha, const T epsilon, DeepNormTiling& tiling,
              detail::Loc loc = detail::Loc()) {
    const AscLocal* ops[7] = {&dstLocal.Raw(), &meanLocal.Raw(), &rstdLocal.Raw(), &srcLocal.Raw(),
                              &gxLocal.Raw(),  &betaLocal.Raw(), &gammaLocal.Raw()};
    detail::Check(ascendc_adv_deep_norm(detail::dtype<T>, isReuseSrc, isBasicBlock, ops, nullptr,
                                        detail::PipeHandle(), static_cast<float>(alpha), static_cast<float>(epsilon),
                                        &tiling, loc));
}
}  // namespace AscendC
