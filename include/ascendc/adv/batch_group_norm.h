// High-level API, normalization (归一化操作): BatchNorm (half/float; A2, A3, 310P), GroupNorm
// (half/float; A2, A3), and their tiling structs as the kernel reads them (at global scope and in
// AscendC::tiling; host code fills them with batch_group_norm_tiling.h).
#pragma once

#include "common.h"

// The fields of BatchNormTiling, in the device's order.
#define ASCENDC_BATCHNORM_FIELDS(F) \
    F(uint32_t, originalBLength)    \
    F(uint32_t, meanVarSize)        \
    F(uint32_t, meanTmpTensorPos)   \
    F(uint32_t, varianceTmpTensorPos) \
    F(uint32_t, tmpBufSize)         \
    F(uint32_t, oneTmpSize)         \
    F(uint32_t, firstTmpStartPos)   \
    F(uint32_t, secondTmpStartPos)  \
    F(uint32_t, thirdTmpStartPos)   \
    F(uint32_t, loopRound)          \
    F(uint32_t, inputTailSize)      \
    F(uint32_t, inputTailPos)       \
    F(uint32_t, meanVarTailSize)    \
    F(uint32_t, meanVarTailPos)     \
    F(uint32_t, bshCurLength)       \
    F(uint32_t, shCurLength)        \
    F(float, firstDimValueBack)     \
    F(uint32_t, castHalfRepStride)  \
    F(uint32_t, shCurLengthBlockNum) \
    F(uint32_t, castHalfOutRepStride)

#define ASCENDC_BN_KERNEL_FIELD(type, name) type name = 0;

// What GetBatchNormNDTilingInfo fills and BatchNorm reads.
struct BatchNormTiling {
    ASCENDC_BATCHNORM_FIELDS(ASCENDC_BN_KERNEL_FIELD)
};
#undef ASCENDC_BN_KERNEL_FIELD

static_assert(sizeof(BatchNormTiling) == 80, "BatchNormTiling is 20 fields of 4 bytes");

namespace AscendC {
namespace tiling {
using ::BatchNormTiling;
}  // namespace tiling
}  // namespace AscendC

extern "C" {
int32_t ascendc_adv_batch_norm(uint8_t elem, bool isReuseSource, bool isBasicBlock, const AscLocal* output,
                               const AscLocal* outputMean, const AscLocal* outputVariance, const AscLocal* inputX,
                               const AscLocal* gamm, const AscLocal* beta, const AscLocal* tmp, const void* pipe,
                               float epsilon, void* tiling, AscLoc loc);
}

namespace AscendC {
// output = gamm[b] * (inputX - mean) / sqrt(variance + epsilon) + beta[b] over the first axis of
// inputX [B, S, H]; outputMean and outputVariance [S, H]; gamm and beta [B].
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
void BatchNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance,
               const LocalTensor<T>& inputX, const LocalTensor<T>& gamm, const LocalTensor<T>& beta,
               const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon, BatchNormTiling& tiling,
               detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_adv_batch_norm(detail::dtype<T>, isReuseSource, isBasicBlock, &output.Raw(),
                                         &outputMean.Raw(), &outputVariance.Raw(), &inputX.Raw(), &gamm.Raw(),
                                         &beta.Raw(), &sharedTmpBuffer.Raw(), detail::PipeHandle(),
                                         static_cast<float>(epsilon), &tiling, loc));
}

// As above, the temporary space being the UB the pipe has not given out.
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
void BatchNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance,
               const LocalTensor<T>& inputX, const LocalTensor<T>& gamm, const LocalTensor<T>& beta, const T epsilon,
               BatchNormTiling& tiling, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_adv_batch_norm(detail::dtype<T>, isReuseSource, isBasicBlock, &output.Raw(),
                                         &outputMean.Raw(), &outputVariance.Raw(), &inputX.Raw(), &gamm.Raw(),
                                         &beta.Raw(), nullptr, detail::PipeHandle(), static_cast<float>(epsilon),
                                         &tiling, loc));
}
}  // namespace AscendC

// The fields of GroupNormTiling, in the device's order (28 uint32_t, a float, a bool).
#define ASCENDC_GROUPNORM_FIELDS(F) \
    F(uint32_t, n)                  \
    F(uint32_t, c)                  \
    F(uint32_t, hw)                 \
    F(uint32_t, g)                  \
    F(uint32_t, d)                  \
    F(uint32_t, hwAlignSize)        \
    F(uint32_t, dhwAlignSize)       \
    F(uint32_t, inputXSize)         \
    F(uint32_t, meanVarSize)        \
    F(uint32_t, numberOfTmpBuf)     \
    F(uint32_t, meanTmpTensorPos)   \
    F(uint32_t, meanTmpTensorSize)  \
    F(uint32_t, varianceTmpTensorPos) \
    F(uint32_t, varianceTmpTensorSize) \
    F(uint32_t, tmpBufSize)         \
    F(uint32_t, oneTmpSize)         \
    F(uint32_t, firstTmpStartPos)   \
    F(uint32_t, secondTmpStartPos)  \
    F(uint32_t, thirdTmpStartPos)   \
    F(uint32_t, loopRound)          \
    F(uint32_t, inputRoundSize)     \
    F(uint32_t, inputTailSize)      \
    F(uint32_t, inputTailPos)       \
    F(uint32_t, meanVarRoundSize)   \
    F(uint32_t, meanVarTailSize)    \
    F(uint32_t, meanVarTailPos)     \
    F(uint32_t, bshCurLength)       \
    F(uint32_t, bsCurLength)        \
    F(float, factor)                \
    F(bool, smallShape)

#define ASCENDC_GN_KERNEL_FIELD(type, name) type name = 0;

// What GetGroupNormNDTilingInfo fills and GroupNorm reads.
struct GroupNormTiling {
    ASCENDC_GROUPNORM_FIELDS(ASCENDC_GN_KERNEL_FIELD)
};
#undef ASCENDC_GN_KERNEL_FIELD

static_assert(sizeof(GroupNormTiling) == 120, "GroupNormTiling is 29 fields of 4 bytes and a bool");

namespace AscendC {
namespace tiling {
using ::GroupNormTiling;
}  // namespace tiling
}  // namespace AscendC

extern "C" {
int32_t ascendc_adv_group_norm(uint8_t elem, bool isReuseSource, const AscLocal* output, const AscLocal* outputMean,
                               const AscLocal* outputVariance, const AscLocal* inputX, const AscLocal* gamma,
                               const AscLocal* beta, const AscLocal* tmp, const void* pipe, float epsilon,
                               const void* tiling, AscLoc loc);
}

namespace AscendC {
// GroupNorm (half/float; A2, A3): inputX [N, C, H, W] (each channel's H*W row padded to 32 bytes
// with zeros) normalized per group of C / groupNum channels, then output = gamma[c] * x_hat +
// beta[c]; outputMean and outputVariance [N, groupNum]; gamma and beta [C].
template <typename T, bool isReuseSource = false>
void GroupNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance,
               const LocalTensor<T>& inputX, const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
               const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon, GroupNormTiling& tiling,
               detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_adv_group_norm(detail::dtype<T>, isReuseSource, &output.Raw(), &outputMean.Raw(),
                                         &outputVariance.Raw(), &inputX.Raw(), &gamma.Raw(), &beta.Raw(),
                                         &sharedTmpBuffer.Raw(), detail::PipeHandle(), static_cast<float>(epsilon),
                                         &tiling, loc));
}

// As above, the temporary space being the UB the pipe has not given out.
template <typename T, bool isReuseSource = false>
void GroupNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance,
               const LocalTensor<T>& inputX, const LocalTensor<T>& gamma, const LocalTensor<T>& beta, const T epsilon,
               GroupNormTiling& tiling, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_adv_group_norm(detail::dtype<T>, isReuseSource, &output.Raw(), &outputMean.Raw(),
                                         &outputVariance.Raw(), &inputX.Raw(), &gamma.Raw(), &beta.Raw(), nullptr,
                                         detail::PipeHandle(), static_cast<float>(epsilon), &tiling, loc));
}
}  // namespace AscendC
