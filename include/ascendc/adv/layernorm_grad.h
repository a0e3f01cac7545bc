// High-level API, normalization (归一化操作): LayerNormGrad and LayerNormGradBeta (half/float; A2, A3,
// 310P), and their tiling structs as the kernel reads them (at global scope and in
// AscendC::tiling; host code fills them with layernorm_grad_tiling.h).
#pragma once

#include "common.h"

// The fields of the two tiling structs, all uint32_t, in the device's order.
#define ASCENDC_LAYERNORM_GRAD_FIELDS(F) \
    F(stackBufferSize)                                      \
    F(bLength)                                              \
    F(sLength)                                              \
    F(hLength)                                              \
    F(originalHLength)                                      \
    F(oneCalSize)                                           \
    F(nohCalSize)                                           \
    F(loopNum)                                              \
    F(tailSize)                                             \
    F(nohTailSize)                                          \
    F(tmpTensorBSHPos)                                      \
    F(tmpTensorBSHSize)                                     \
    F(pdVarTensorPos)                                       \
    F(pdVarTensorSize)                                      \
    F(pdMeanTensorPos)                                      \
    F(pdMeanTensorSize)                                     \
    F(x1TensorPos)                                          \
    F(x1TensorSize)                                         \
    F(x2TensorPos)                                          \
    F(x2TensorSize)                                         \
    F(x3TensorPos)                                          \
    F(x3TensorSize)                                         \
    F(tmpTensorPos)                                         \
    F(tmpTensorSize)                                        \
    F(tmpTensor1Pos)                                        \
    F(tmpTensor1Size)                                       \
    F(tmpTensor2Pos)                                        \
    F(tmpTensor2Size)                                       \
    F(lastDimValueBack)                                     \
    F(lastDimValueBackMulTwo)                               \

#define ASCENDC_LAYERNORM_GRAD_BETA_FIELDS(F) \
    F(stackBufferSize)                                      \
    F(bLength)                                              \
    F(sLength)                                              \
    F(hLength)                                              \
    F(originalHLength)                                      \
    F(bshLength)                                            \
    F(bsLength)                                             \
    F(oneCalSize)                                           \
    F(numberOfTmpBuf)                                       \
    F(loopRound)                                            \
    F(inputTailSize)                                        \
    F(inputTailPos)                                         \
    F(bsTailSize)                                           \
    F(bshCurLength)                                         \
    F(bsCurLength)                                          \
    F(gammaTempTensorPos)                                   \
    F(betaTempTensorPos)                                    \
    F(inputDyTmpTensorPos)                                  \
    F(resForGammaTmpTensorPos)                              \
    F(reserved)                                             \

#define ASCENDC_LNG_KERNEL_FIELD(name) uint32_t name = 0;

// What GetLayerNormGradNDTilingInfo fills and LayerNormGrad reads.
struct LayerNormGradTiling {
    ASCENDC_LAYERNORM_GRAD_FIELDS(ASCENDC_LNG_KERNEL_FIELD)
};
// What GetLayerNormGradBetaNDTilingInfo fills and LayerNormGradBeta reads.
struct LayerNormGradBetaTiling {
    ASCENDC_LAYERNORM_GRAD_BETA_FIELDS(ASCENDC_LNG_KERNEL_FIELD)
};
#undef ASCENDC_LNG_KERNEL_FIELD

static_assert(sizeof(LayerNormGradTiling) == 120, "LayerNormGradTiling is 30 uint32_t");
static_assert(sizeof(LayerNormGradBetaTiling) == 80, "LayerNormGradBetaTiling is 20 uint32_t");

namespace AscendC {
namespace tiling {
using ::LayerNormGradBetaTiling;
using ::LayerNormGradTiling;
}  // namespace tiling
}  // namespace AscendC

extern "C" {
int32_t ascendc_adv_layer_norm_grad(uint8_t elem, bool isReuseSource, const AscLocal* pdX, const AscLocal* resForGamma,
                                    const AscLocal* dy, const AscLocal* x, const AscLocal* variance,
                                    const AscLocal* mean, const AscLocal* gamma, const AscLocal* tmp, const void* pipe,
                                    float epsilon, const void* tiling, AscLoc loc);
int32_t ascendc_adv_layer_norm_grad_beta(uint8_t elem, bool isReuseSource, const AscLocal* pdGamma,
                                         const AscLocal* pdBeta, const AscLocal* resForGamma, const AscLocal* dy,
                                         const AscLocal* tmp, const void* pipe, const void* tiling, AscLoc loc);
}

namespace AscendC {
// The layout of LayerNormGrad's operands (ND only).
struct LayerNormGradShapeInfo {
    DataFormat dataFormat = DataFormat::ND;
};

namespace detail {
inline void LayerNormGradFormat(const LayerNormGradShapeInfo& shapeInfo, Loc loc) {
    if (shapeInfo.dataFormat != DataFormat::ND) {
        ascendc_block_error("LayerNormGrad: shapeInfo.dataFormat must be DataFormat::ND (the only layout supported)",
                            loc);
    }
}
}  // namespace detail

// outputPdX: the gradient of LayerNorm's input; resForGamma: (x - mean) / sqrt(variance + epsilon)
// for LayerNormGradBeta. Rows of [B, S, H]; variance and mean per row, gamma per column.
template <typename T, bool isReuseSource = false>
void LayerNormGrad(const LocalTensor<T>& outputPdX, const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                   const LocalTensor<T>& inputX, const LocalTensor<T>& inputVariance, const LocalTensor<T>& inputMean,
                   const LocalTensor<T>& inputGamma, LocalTensor<uint8_t>& sharedTmpBuffer, T epsilon,
                   LayerNormGradTiling& tiling, const LayerNormGradShapeInfo& shapeInfo = {},
                   detail::Loc loc = detail::Loc()) {
    detail::LayerNormGradFormat(shapeInfo, loc);
    detail::Check(ascendc_adv_layer_norm_grad(detail::dtype<T>, isReuseSource, &outputPdX.Raw(), &resForGamma.Raw(),
                                              &inputDy.Raw(), &inputX.Raw(), &inputVariance.Raw(), &inputMean.Raw(),
                                              &inputGamma.Raw(), &sharedTmpBuffer.Raw(), detail::PipeHandle(),
                                              static_cast<float>(epsilon), &tiling, loc));
}

// As above, the temporary space being the UB the pipe has not given out.
template <typename T, bool isReuseSource = false>
void LayerNormGrad(const LocalTensor<T>& outputPdX, const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                   const LocalTensor<T>& inputX, const LocalTensor<T>& inputVariance, const LocalTensor<T>& inputMean,
                   const LocalTensor<T>& inputGamma, T epsilon, LayerNormGradTiling& tiling,
                   const LayerNormGradShapeInfo& shapeInfo = {}, detail::Loc loc = detail::Loc()) {
    detail::LayerNormGradFormat(shapeInfo, loc);
    detail::Check(ascendc_adv_layer_norm_grad(detail::dtype<T>, isReuseSource, &outputPdX.Raw(), &resForGamma.Raw(),
                                              &inputDy.Raw(), &inputX.Raw(), &inputVariance.Raw(), &inputMean.Raw(),
                                              &inputGamma.Raw(), nullptr, detail::PipeHandle(),
                                              static_cast<float>(epsilon), &tiling, loc));
}

// outputPdGamma = sum over rows of inputDy * resForGamma, outputPdBeta = sum over rows of inputDy.
template <typename T, bool isReuseSource = false>
void LayerNormGradBeta(const LocalTensor<T>& outputPdGamma, const LocalTensor<T>& outputPdBeta,
                       const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                       const LocalTensor<uint8_t>& sharedTmpBuffer, const LayerNormGradBetaTiling& tiling,
                       detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_adv_layer_norm_grad_beta(detail::dtype<T>, isReuseSource, &outputPdGamma.Raw(),
                                                   &outputPdBeta.Raw(), &resForGamma.Raw(), &inputDy.Raw(),
                                                   &sharedTmpBuffer.Raw(), detail::PipeHandle(), &tiling, loc));
}

// As above, the temporary space being the UB the pipe has not given out.
template <typename T, bool isReuseSource = false>
void LayerNormGradBeta(const LocalTensor<T>& outputPdGamma, const LocalTensor<T>& outputPdBeta,
                       const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy, LayerNormGradBetaTiling& tiling,
                       detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_adv_layer_norm_grad_beta(detail::dtype<T>, isReuseSource, &outputPdGamma.Raw(),
                                                   &outputPdBeta.Raw(), &resForGamma.Raw(), &inputDy.Raw(), nullptr,
                                                   detail::PipeHandle(), &tiling, loc));
}
}  // namespace AscendC
