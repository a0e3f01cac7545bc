// High-level API SoftmaxFlashV3 (Softmax PASA, ND, T = half with U = float statistics; A2/A3):
// both overloads (framework temporary space / sharedTmpBuffer). isReuseSource, isBasicBlock and
// config are accepted (reserved); the NZ layout is refused at compile time.
#pragma once

#include <cstring>

#include "common.h"
#include "softmax.h"
#include "softmax_struct.h"

extern "C" {
int32_t ascendc_adv_softmax_flash_v3(bool update, uint8_t elem, uint8_t stat, const AscLocal* dst,
                                     const AscLocal* mean, const AscLocal* expSum, const AscLocal* max,
                                     const AscLocal* src, const AscLocal* expMax, const AscLocal* inMean,
                                     const AscLocal* inExpSum, const AscLocal* inMax, const AscLocal* tmp,
                                     const void* pipe, const uint32_t* tiling, const uint32_t* params, AscLoc loc);
}

namespace AscendC {
namespace detail {

template <typename T, typename U>
inline void SoftmaxFlashV3Call(bool update, const LocalTensor<T>& dst, const LocalTensor<U>& mean,
                               const LocalTensor<U>& expSum, const LocalTensor<U>& max, const LocalTensor<T>& src,
                               const LocalTensor<T>& expMax, const LocalTensor<U>& inMean,
                               const LocalTensor<U>& inExpSum, const LocalTensor<U>& inMax,
                               const LocalTensor<uint8_t>* tmp, const SoftMaxTiling& tiling,
                               const SoftMaxParams& params, Loc loc) {
    uint32_t words[16];
    std::memcpy(words, &tiling, sizeof(words));
    uint32_t alpha = 0;
    std::memcpy(&alpha, &params.alpha, sizeof(alpha));
    const uint32_t p[7] = {params.srcM,    params.srcK,         params.oriSrcM, params.oriSrcK,
                           params.loopCnt, params.splitMeanCnt, alpha};
    Check(ascendc_adv_softmax_flash_v3(update, dtype<T>, dtype<U>, &dst.Raw(), &mean.Raw(), &expSum.Raw(),
                                       &max.Raw(), &src.Raw(), &expMax.Raw(), &inMean.Raw(), &inExpSum.Raw(),
                                       &inMax.Raw(), tmp != nullptr ? &tmp->Raw() : nullptr, PipeHandle(), words, p,
                                       loc));
}

}  // namespace detail

template <typename T, typename U, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftmaxFlashV3(const LocalTensor<T>& dstTensor, const LocalTensor<U>& meanTensor,
                    const LocalTensor<U>& expSumTensor, const LocalTensor<U>& maxTensor,
                    const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
                    const LocalTensor<U>& inMeanTensor, const LocalTensor<U>& inExpSumTensor,
                    const LocalTensor<U>& inMaxTensor, const SoftMaxTiling& tiling, const SoftMaxParams& params,
                    detail::Loc loc = detail::Loc()) {
    detail::SoftMaxNd<isDataFormatNZ>();
    detail::SoftmaxFlashV3Call(isUpdate, dstTensor, meanTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor,
                               inMeanTensor, inExpSumTensor, inMaxTensor, nullptr, tiling, params, loc);
}

template <typename T, typename U, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftmaxFlashV3(const LocalTensor<T>& dstTensor, const LocalTensor<U>& meanTensor,
                    const LocalTensor<U>& expSumTensor, const LocalTensor<U>& maxTensor,
                    const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
                    const LocalTensor<U>& inMeanTensor, const LocalTensor<U>& inExpSumTensor,
                    const LocalTensor<U>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                    const SoftMaxTiling& tiling, const SoftMaxParams& params, detail::Loc loc = detail::Loc()) {
    detail::SoftMaxNd<isDataFormatNZ>();
    detail::SoftmaxFlashV3Call(isUpdate, dstTensor, meanTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor,
                               inMeanTensor, inExpSumTensor, inMaxTensor, &sharedTmpBuffer, tiling, params, loc);
}

}  // namespace AscendC
