// High-level API SoftmaxGrad and SoftmaxGradFront (the SoftMax family; half/float; ND and NZ;
// A2, A3, 310P): per row, s = rowsum(grad * src); SoftmaxGrad writes (grad - s) * src, or with
// isFront the sums (one 32-byte block per row), SoftmaxGradFront the sums.
#pragma once

#include <cstring>

#include "common.h"
#include "softmax.h"
#include "softmax_struct.h"

extern "C" {
int32_t ascendc_adv_softmax_grad(uint8_t elem, uint32_t flags, const AscLocal* dst, const AscLocal* grad,
                                 const AscLocal* src, const AscLocal* tmp, const void* pipe, const uint32_t* tiling,
                                 const uint32_t* shape, AscLoc loc);
}

namespace AscendC {
namespace detail {

// flags: 1 SoftmaxGradFront, 2 isFront, 4 isBasicBlock, 8 isDataFormatNZ.
template <typename T>
inline void SoftmaxGradCall(uint32_t flags, const LocalTensor<T>& dst, const LocalTensor<T>& grad,
                            const LocalTensor<T>& src, const LocalTensor<uint8_t>* tmp, const SoftMaxTiling& tiling,
                            const SoftMaxShapeInfo& shape, Loc loc) {
    uint32_t words[16];
    std::memcpy(words, &tiling, sizeof(words));
    const uint32_t s[4] = {shape.srcM, shape.srcK, shape.oriSrcM, shape.oriSrcK};
    Check(ascendc_adv_softmax_grad(dtype<T>, flags, &dst.Raw(), &grad.Raw(), &src.Raw(),
                                   tmp != nullptr ? &tmp->Raw() : nullptr, PipeHandle(), words, s, loc));
}

constexpr uint32_t SoftmaxGradFlags(bool frontApi, bool isFront, bool isBasicBlock, bool isDataFormatNZ) {
    return (frontApi ? 1u : 0u) | (isFront ? 2u : 0u) | (isBasicBlock ? 4u : 0u) | (isDataFormatNZ ? 8u : 0u);
}

}  // namespace detail

template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor, const LocalTensor<T>& srcTensor,
                 const SoftMaxTiling& tiling, bool isFront = false, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                 detail::Loc loc = detail::Loc()) {
    detail::SoftmaxGradCall(detail::SoftmaxGradFlags(false, isFront, false, isDataFormatNZ), dstTensor, gradTensor,
                            srcTensor, nullptr, tiling, softmaxShapeInfo, loc);
}

template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling, bool isFront = false,
                 const SoftMaxShapeInfo& softmaxShapeInfo = {}, detail::Loc loc = detail::Loc()) {
    detail::SoftmaxGradCall(detail::SoftmaxGradFlags(false, isFront, false, isDataFormatNZ), dstTensor, gradTensor,
                            srcTensor, &sharedTmpBuffer, tiling, softmaxShapeInfo, loc);
}

template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                      const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
                      const SoftMaxShapeInfo& softmaxShapeInfo = {}, detail::Loc loc = detail::Loc()) {
    detail::SoftmaxGradCall(detail::SoftmaxGradFlags(true, true, isBasicBlock, isDataFormatNZ), dstTensor,
                            gradTensor, srcTensor, nullptr, tiling, softmaxShapeInfo, loc);
}

template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                      const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                      const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                      detail::Loc loc = detail::Loc()) {
    detail::SoftmaxGradCall(detail::SoftmaxGradFlags(true, true, isBasicBlock, isDataFormatNZ), dstTensor,
                            gradTensor, srcTensor, &sharedTmpBuffer, tiling, softmaxShapeInfo, loc);
}

}  // namespace AscendC
