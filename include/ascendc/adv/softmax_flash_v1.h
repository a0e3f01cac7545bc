// High-level API SoftmaxFlash (the first flash softmax, deprecated by the vendor for
// SoftmaxFlashV2; ND layout; half/float, or half data with float sum/max; A2, A3, 310P): every
// overload of the vendor's softmaxflash.h. isReuseSource is reserved and ignored.
#pragma once

#include <cstring>

#include "common.h"
#include "softmax.h"

extern "C" {
int32_t ascendc_adv_softmax_flash_v1(uint8_t elem, uint8_t stat, uint32_t flags, const AscLocal* dst,
                                     const AscLocal* sum, const AscLocal* max, const AscLocal* src,
                                     const AscLocal* expMax, const AscLocal* inSum, const AscLocal* inMax,
                                     const AscLocal* tmp, const void* pipe, const uint32_t* tiling,
                                     const uint32_t* shape, AscLoc loc);
}

namespace AscendC {
namespace detail {

inline void FlashV1Call(bool isUpdate, bool isBasicBlock, uint8_t elem, uint8_t stat, const AscLocal* dst,
                        const AscLocal* sum, const AscLocal* max, const AscLocal* src, const AscLocal* expMax,
                        const AscLocal* inSum, const AscLocal* inMax, const LocalTensor<uint8_t>* tmp,
                        const SoftMaxTiling& tiling, const SoftMaxShapeInfo& shape, Loc loc) {
    uint32_t words[16];
    std::memcpy(words, &tiling, sizeof(words));
    const uint32_t s[4] = {shape.srcM, shape.srcK, shape.oriSrcM, shape.oriSrcK};
    const uint32_t flags = (isUpdate ? 1u : 0u) | (isBasicBlock ? 2u : 0u);
    Check(ascendc_adv_softmax_flash_v1(elem, stat, flags, dst, sum, max, src, expMax, inSum, inMax,
                                       tmp != nullptr ? &tmp->Raw() : nullptr, PipeHandle(), words, s, loc));
}

}  // namespace detail

template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
void SoftmaxFlash(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
                  const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
                  const LocalTensor<T>& inSumTensor, const LocalTensor<T>& inMaxTensor, const SoftMaxTiling& tiling,
                  bool isUpdate = false, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                  detail::Loc loc = detail::Loc()) {
    detail::FlashV1Call(isUpdate, isBasicBlock, detail::dtype<T>, detail::dtype<T>, &dstTensor.Raw(),
                        &sumTensor.Raw(), &maxTensor.Raw(), &srcTensor.Raw(), &expMaxTensor.Raw(),
                        &inSumTensor.Raw(), &inMaxTensor.Raw(), nullptr, tiling, softmaxShapeInfo, loc);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
void SoftmaxFlash(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
                  const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                  const LocalTensor<half>& expMaxTensor, const LocalTensor<float>& inSumTensor,
                  const LocalTensor<float>& inMaxTensor, const SoftMaxTiling& tiling, bool isUpdate = false,
                  const SoftMaxShapeInfo& softmaxShapeInfo = {}, detail::Loc loc = detail::Loc()) {
    detail::FlashV1Call(isUpdate, isBasicBlock, detail::dtype<half>, detail::dtype<float>, &dstTensor.Raw(),
                        &sumTensor.Raw(), &maxTensor.Raw(), &srcTensor.Raw(), &expMaxTensor.Raw(),
                        &inSumTensor.Raw(), &inMaxTensor.Raw(), nullptr, tiling, softmaxShapeInfo, loc);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
void SoftmaxFlash(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
                  const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
                  const LocalTensor<T>& inSumTensor, const LocalTensor<T>& inMaxTensor,
                  const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling, bool isUpdate = false,
                  const SoftMaxShapeInfo& softmaxShapeInfo = {}, detail::Loc loc = detail::Loc()) {
    detail::FlashV1Call(isUpdate, isBasicBlock, detail::dtype<T>, detail::dtype<T>, &dstTensor.Raw(),
                        &sumTensor.Raw(), &maxTensor.Raw(), &srcTensor.Raw(), &expMaxTensor.Raw(),
                        &inSumTensor.Raw(), &inMaxTensor.Raw(), &sharedTmpBuffer, tiling, softmaxShapeInfo, loc);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
void SoftmaxFlash(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
                  const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                  const LocalTensor<half>& expMaxTensor, const LocalTensor<float>& inSumTensor,
                  const LocalTensor<float>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                  const SoftMaxTiling& tiling, bool isUpdate = false, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                  detail::Loc loc = detail::Loc()) {
    detail::FlashV1Call(isUpdate, isBasicBlock, detail::dtype<half>, detail::dtype<float>, &dstTensor.Raw(),
                        &sumTensor.Raw(), &maxTensor.Raw(), &srcTensor.Raw(), &expMaxTensor.Raw(),
                        &inSumTensor.Raw(), &inMaxTensor.Raw(), &sharedTmpBuffer, tiling, softmaxShapeInfo, loc);
}

}  // namespace AscendC
