// High-level API SoftmaxFlashV2 (FlashAttention-2's online softmax; half/float; ND and NZ
// layouts; A2, A3, 310P) with its kernel-side tiling function SoftMaxFlashV2TilingFunc.
// SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC (one max/sum value a row, and the outReduceMax
// overloads) runs on A2/A3 only, as on the device.
#pragma once

#include <cstring>

#include "common.h"
#include "softmax.h"

extern "C" {
int32_t ascendc_adv_softmax_flash_v2(uint8_t elem, uint8_t stat, uint32_t flags, uint32_t oriM, uint32_t oriK,
                                     const AscLocal* dst, const AscLocal* rmax, const AscLocal* sum,
                                     const AscLocal* max,
                                     const AscLocal* src, const AscLocal* expMax, const AscLocal* inSum,
                                     const AscLocal* inMax, const AscLocal* tmp, const void* pipe,
                                     const uint32_t* tiling, const uint32_t* shape, AscLoc loc);
}

namespace AscendC {

// The kernel's re-tiling for `localWorkSpaceSize` bytes of temporary space (rows per pass 0 when
// not one row fits).
constexpr SoftMaxTiling SoftMaxFlashV2TilingFunc(const SoftMaxShapeInfo& shapeInfo, const uint32_t dataTypeSize1,
                                                 const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                                 const bool isUpdate = false, const bool isBasicBlock = false,
                                                 const bool isDataFormatNZ = false,
                                                 const bool isFlashOutputBrc = false) {
    (void)isUpdate;
    const uint32_t m = shapeInfo.srcM, k = shapeInfo.srcK, work = localWorkSpaceSize / 4;
    const uint32_t perBlk = 32 / (dataTypeSize2 == 0 ? 1 : dataTypeSize2);
    uint32_t rows = 0;
    if (isDataFormatNZ) {
        rows = work / (16 * 3 + k);
    } else if (isBasicBlock && k % 64 == 0 && m % 8 == 0) {
        rows = dataTypeSize1 == 2 ? work / (perBlk + k + 64) : work / (perBlk + 64);
        rows = rows < m ? rows : m;
        if (rows > 8) {
            rows = rows / 8 * 8;
            while (m % rows != 0) rows -= 8;
            while (rows * k >= 64 * 256) rows /= 2;
        }
    } else {
        rows = dataTypeSize1 == 2 ? work / (2 * perBlk + k + 64) : work / (perBlk + 64);
    }
    const uint32_t unit = (isFlashOutputBrc && dataTypeSize1 == 2) ? 16 : 8;
    if (rows < m && rows > unit) rows = rows / unit * unit;
    rows = rows < m ? rows : m;
    SoftMaxTiling t{};
    t.srcM = m;
    t.srcK = k;
    t.srcSize = m * k;
    t.outMaxM = m;
    t.outMaxK = perBlk;
    t.outMaxSize = m * perBlk;
    t.splitM = rows;
    t.splitK = k;
    t.splitSize = rows * k;
    t.reduceM = rows;
    t.reduceK = perBlk;
    t.reduceSize = rows * perBlk;
    t.rangeM = rows == 0 ? 0 : m / rows;
    t.tailM = rows == 0 ? 0 : m % rows;
    t.tailSplitSize = t.tailM * k;
    t.tailReduceSize = t.tailM * perBlk;
    return t;
}

namespace detail {

template <bool isUpdate, bool isBasicBlock, bool isDataFormatNZ, const SoftmaxConfig& config>
constexpr uint32_t FlashV2Flags() {
    return (isUpdate ? 1u : 0u) | (isBasicBlock ? 2u : 0u) | (isDataFormatNZ ? 4u : 0u) |
           (config.isCheckTiling ? 8u : 0u) | (config.mode == SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC ? 16u : 0u);
}

template <const SoftmaxConfig& config>
inline void FlashV2Call(uint32_t flags, uint8_t elem, uint8_t stat, const AscLocal* dst, const AscLocal* rmax,
                        const AscLocal* sum,
                        const AscLocal* max, const AscLocal* src, const AscLocal* expMax, const AscLocal* inSum,
                        const AscLocal* inMax, const LocalTensor<uint8_t>* tmp, const SoftMaxTiling& tiling,
                        const SoftMaxShapeInfo& shape, Loc loc) {
    uint32_t words[16];
    std::memcpy(words, &tiling, sizeof(words));
    const uint32_t s[4] = {shape.srcM, shape.srcK, shape.oriSrcM, shape.oriSrcK};
    Check(ascendc_adv_softmax_flash_v2(elem, stat, flags, config.oriSrcM, config.oriSrcK, dst, rmax, sum, max, src,
                                       expMax,
                                       inSum, inMax, tmp != nullptr ? &tmp->Raw() : nullptr, PipeHandle(), words, s,
                                       loc));
}

}  // namespace detail

#define ASCENDC_FLASH_V2_FLAGS detail::FlashV2Flags<isUpdate, isBasicBlock, isDataFormatNZ, config>()

template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& expSumTensor,
                    const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                    const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inExpSumTensor,
                    const LocalTensor<T>& inMaxTensor, const SoftMaxTiling& tiling,
                    const SoftMaxShapeInfo& softmaxShapeInfo = {}, detail::Loc loc = detail::Loc()) {
    detail::FlashV2Call<config>(ASCENDC_FLASH_V2_FLAGS, detail::dtype<T>, detail::dtype<T>, &dstTensor.Raw(), nullptr,
                                &expSumTensor.Raw(), &maxTensor.Raw(), &srcTensor.Raw(), &expMaxTensor.Raw(),
                                &inExpSumTensor.Raw(), &inMaxTensor.Raw(), nullptr, tiling, softmaxShapeInfo, loc);
}

template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftmaxFlashV2(const LocalTensor<half>& dstTensor, const LocalTensor<float>& expSumTensor,
                    const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                    const LocalTensor<half>& expMaxTensor, const LocalTensor<float>& inExpSumTensor,
                    const LocalTensor<float>& inMaxTensor, const SoftMaxTiling& tiling,
                    const SoftMaxShapeInfo& softmaxShapeInfo = {}, detail::Loc loc = detail::Loc()) {
    detail::FlashV2Call<config>(ASCENDC_FLASH_V2_FLAGS, detail::dtype<half>, detail::dtype<float>, &dstTensor.Raw(), nullptr,
                                &expSumTensor.Raw(), &maxTensor.Raw(), &srcTensor.Raw(), &expMaxTensor.Raw(),
                                &inExpSumTensor.Raw(), &inMaxTensor.Raw(), nullptr, tiling, softmaxShapeInfo, loc);
}

template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& expSumTensor,
                    const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                    const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inExpSumTensor,
                    const LocalTensor<T>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                    const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                    detail::Loc loc = detail::Loc()) {
    detail::FlashV2Call<config>(ASCENDC_FLASH_V2_FLAGS, detail::dtype<T>, detail::dtype<T>, &dstTensor.Raw(), nullptr,
                                &expSumTensor.Raw(), &maxTensor.Raw(), &srcTensor.Raw(), &expMaxTensor.Raw(),
                                &inExpSumTensor.Raw(), &inMaxTensor.Raw(), &sharedTmpBuffer, tiling,
                                softmaxShapeInfo, loc);
}

template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftmaxFlashV2(const LocalTensor<half>& dstTensor, const LocalTensor<float>& expSumTensor,
                    const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                    const LocalTensor<half>& expMaxTensor, const LocalTensor<float>& inExpSumTensor,
                    const LocalTensor<float>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                    const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                    detail::Loc loc = detail::Loc()) {
    detail::FlashV2Call<config>(ASCENDC_FLASH_V2_FLAGS, detail::dtype<half>, detail::dtype<float>, &dstTensor.Raw(), nullptr,
                                &expSumTensor.Raw(), &maxTensor.Raw(), &srcTensor.Raw(), &expMaxTensor.Raw(),
                                &inExpSumTensor.Raw(), &inMaxTensor.Raw(), &sharedTmpBuffer, tiling,
                                softmaxShapeInfo, loc);
}

// The outReduceMax forms: only with config.mode = SOFTMAX_OUTPUT_WITHOUT_BRC (otherwise the
// device computes nothing); the tiling is used as given.
template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& outReduceMax,
                    const LocalTensor<T>& outExpSum, const LocalTensor<T>& outMax, const LocalTensor<T>& srcTensor,
                    const LocalTensor<T>& outExpMax, const LocalTensor<T>& inExpSum, const LocalTensor<T>& inMax,
                    const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                    const SoftMaxShapeInfo& softmaxShapeInfo = {}, detail::Loc loc = detail::Loc()) {
    if constexpr (config.mode == SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC) {
        detail::FlashV2Call<config>(ASCENDC_FLASH_V2_FLAGS, detail::dtype<T>, detail::dtype<T>, &dstTensor.Raw(),
                                    &outReduceMax.Raw(), &outExpSum.Raw(), &outMax.Raw(), &srcTensor.Raw(), &outExpMax.Raw(),
                                    &inExpSum.Raw(), &inMax.Raw(), &sharedTmpBuffer, tiling, softmaxShapeInfo, loc);
    }
}

template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& outReduceMax,
                    const LocalTensor<T>& outExpSum, const LocalTensor<T>& outMax, const LocalTensor<T>& srcTensor,
                    const LocalTensor<T>& outExpMax, const LocalTensor<T>& inExpSum, const LocalTensor<T>& inMax,
                    const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                    detail::Loc loc = detail::Loc()) {
    if constexpr (config.mode == SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC) {
        detail::FlashV2Call<config>(ASCENDC_FLASH_V2_FLAGS, detail::dtype<T>, detail::dtype<T>, &dstTensor.Raw(),
                                    &outReduceMax.Raw(), &outExpSum.Raw(), &outMax.Raw(), &srcTensor.Raw(), &outExpMax.Raw(),
                                    &inExpSum.Raw(), &inMax.Raw(), nullptr, tiling, softmaxShapeInfo, loc);
    }
}

#undef ASCENDC_FLASH_V2_FLAGS

}  // namespace AscendC
