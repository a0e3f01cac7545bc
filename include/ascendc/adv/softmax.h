// High-level API, the SoftMax family (ND layout; half/float; A2, A3, 310P): SoftMax,
// SimpleSoftMax, LogSoftMax, AdjustSoftMaxRes, with SoftmaxConfig, SoftMaxShapeInfo and
// SoftMaxParams. The NZ layout (isDataFormatNZ = true) is refused at compile time.
#pragma once

#include <cstring>

#include "common.h"
#include "softmax_struct.h"

extern "C" {
int32_t ascendc_adv_softmax(uint8_t op, uint8_t elem, uint8_t stat, const AscLocal* dst, const AscLocal* sum,
                            const AscLocal* max, const AscLocal* src, const AscLocal* tmp, const void* pipe,
                            const uint32_t* tiling, const uint32_t* shape, AscLoc loc);
int32_t ascendc_adv_adjust_softmax_res(uint8_t resType, uint8_t maxType, const AscLocal* res, const AscLocal* max,
                                       uint32_t from, uint32_t toBits, const uint32_t* shape, bool* adjusted,
                                       AscLoc loc);
}

namespace AscendC {

enum class SoftmaxMode {
    SOFTMAX_NORMAL = 0,
    SOFTMAX_OUTPUT_WITHOUT_BRC = 1,
};

// Compile-time options of the SoftMax APIs (accepted; the simulator computes from the tiling).
struct SoftmaxConfig {
    constexpr SoftmaxConfig(const bool isCheckTilingIn) : isCheckTiling(isCheckTilingIn) {}
    constexpr SoftmaxConfig(const bool isCheckTilingIn, const uint32_t oriSrcMIn, const uint32_t oriSrcKIn)
        : isCheckTiling(isCheckTilingIn), oriSrcM(oriSrcMIn), oriSrcK(oriSrcKIn) {}
    constexpr SoftmaxConfig(const bool isCheckTilingIn, const uint32_t oriSrcMIn, const uint32_t oriSrcKIn,
                            const SoftmaxMode modeIn)
        : isCheckTiling(isCheckTilingIn), oriSrcM(oriSrcMIn), oriSrcK(oriSrcKIn), mode(modeIn) {}
    bool isCheckTiling = true;
    uint32_t oriSrcM = 0;
    uint32_t oriSrcK = 0;
    SoftmaxMode mode = SoftmaxMode::SOFTMAX_NORMAL;
};

constexpr SoftmaxConfig SOFTMAX_DEFAULT_CFG = {true, 0, 0, SoftmaxMode::SOFTMAX_NORMAL};

// SoftmaxFlashV3's parameters.
struct SoftMaxParams {
    uint32_t srcM{0};
    uint32_t srcK{0};
    uint32_t oriSrcM{0};
    uint32_t oriSrcK{0};
    uint32_t loopCnt{1};
    uint32_t splitMeanCnt{8};
    float alpha{0.9375};
};

// The rows (srcM) and aligned row length (srcK) of a call, and the original ones; all zero:
// the source tensor's shape.
struct SoftMaxShapeInfo {
    uint32_t srcM{0};
    uint32_t srcK{0};
    uint32_t oriSrcM{0};
    uint32_t oriSrcK{0};
};

namespace detail {

template <typename Tiling>
inline void SoftMaxCall(uint8_t op, uint8_t elem, uint8_t stat, const AscLocal* dst, const AscLocal* sum,
                        const AscLocal* max, const AscLocal* src, const LocalTensor<uint8_t>* tmp,
                        const Tiling& tiling, const SoftMaxShapeInfo& shape, Loc loc) {
    static_assert(sizeof(Tiling) == 64, "the tiling is SoftMaxTiling / LogSoftMaxTiling");
    uint32_t words[16];
    std::memcpy(words, &tiling, sizeof(words));
    const uint32_t s[4] = {shape.srcM, shape.srcK, shape.oriSrcM, shape.oriSrcK};
    const void* pipe = PipeHandle();
    Check(ascendc_adv_softmax(op, elem, stat, dst, sum, max, src, tmp != nullptr ? &tmp->Raw() : nullptr, pipe, words,
                              s, loc));
}

template <bool isDataFormatNZ>
constexpr void SoftMaxNd() {
    static_assert(!isDataFormatNZ, "the SoftMax family's NZ layout (isDataFormatNZ = true) is not simulated: use ND");
}

}  // namespace detail

// ---- SoftMax ----------------------------------------------------------------------------------

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
             const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
             const SoftMaxShapeInfo& softmaxShapeInfo = {}, detail::Loc loc = detail::Loc()) {
    detail::SoftMaxNd<isDataFormatNZ>();
    detail::SoftMaxCall(0, detail::dtype<T>, detail::dtype<T>, &dstTensor.Raw(), &sumTensor.Raw(), &maxTensor.Raw(),
                        &srcTensor.Raw(), nullptr, tiling, softmaxShapeInfo, loc);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
             const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor, const SoftMaxTiling& tiling,
             const SoftMaxShapeInfo& softmaxShapeInfo = {}, detail::Loc loc = detail::Loc()) {
    detail::SoftMaxNd<isDataFormatNZ>();
    detail::SoftMaxCall(0, detail::dtype<half>, detail::dtype<float>, &dstTensor.Raw(), &sumTensor.Raw(),
                        &maxTensor.Raw(), &srcTensor.Raw(), nullptr, tiling, softmaxShapeInfo, loc);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
             const SoftMaxShapeInfo& softmaxShapeInfo = {}, detail::Loc loc = detail::Loc()) {
    detail::SoftMaxCall(1, detail::dtype<T>, detail::dtype<T>, &dstTensor.Raw(), nullptr, nullptr, &srcTensor.Raw(),
                        nullptr, tiling, softmaxShapeInfo, loc);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
             const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
             const SoftMaxShapeInfo& softmaxShapeInfo = {}, detail::Loc loc = detail::Loc()) {
    detail::SoftMaxCall(1, detail::dtype<T>, detail::dtype<T>, &dstTensor.Raw(), nullptr, nullptr, &srcTensor.Raw(),
                        &sharedTmpBuffer, tiling, softmaxShapeInfo, loc);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
             const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
             const SoftMaxShapeInfo& softmaxShapeInfo = {}, detail::Loc loc = detail::Loc()) {
    detail::SoftMaxNd<isDataFormatNZ>();
    detail::SoftMaxCall(0, detail::dtype<T>, detail::dtype<T>, &dstTensor.Raw(), &sumTensor.Raw(), &maxTensor.Raw(),
                        &srcTensor.Raw(), &sharedTmpBuffer, tiling, softmaxShapeInfo, loc);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
             const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
             const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
             const SoftMaxShapeInfo& softmaxShapeInfo = {}, detail::Loc loc = detail::Loc()) {
    detail::SoftMaxNd<isDataFormatNZ>();
    detail::SoftMaxCall(0, detail::dtype<half>, detail::dtype<float>, &dstTensor.Raw(), &sumTensor.Raw(),
                        &maxTensor.Raw(), &srcTensor.Raw(), &sharedTmpBuffer, tiling, softmaxShapeInfo, loc);
}

// ---- SimpleSoftMax ----------------------------------------------------------------------------

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SimpleSoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& inSumTensor,
                   const LocalTensor<T>& inMaxTensor, const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
                   const SoftMaxShapeInfo& softmaxShapeInfo = {}, detail::Loc loc = detail::Loc()) {
    detail::SoftMaxNd<isDataFormatNZ>();
    detail::SoftMaxCall(2, detail::dtype<T>, detail::dtype<T>, &dstTensor.Raw(), &inSumTensor.Raw(),
                        &inMaxTensor.Raw(), &srcTensor.Raw(), nullptr, tiling, softmaxShapeInfo, loc);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SimpleSoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& inSumTensor,
                   const LocalTensor<float>& inMaxTensor, const LocalTensor<half>& srcTensor,
                   const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                   detail::Loc loc = detail::Loc()) {
    detail::SoftMaxNd<isDataFormatNZ>();
    detail::SoftMaxCall(2, detail::dtype<half>, detail::dtype<float>, &dstTensor.Raw(), &inSumTensor.Raw(),
                        &inMaxTensor.Raw(), &srcTensor.Raw(), nullptr, tiling, softmaxShapeInfo, loc);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SimpleSoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& inSumTensor,
                   const LocalTensor<T>& inMaxTensor, const LocalTensor<T>& srcTensor,
                   const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                   const SoftMaxShapeInfo& softmaxShapeInfo = {}, detail::Loc loc = detail::Loc()) {
    detail::SoftMaxNd<isDataFormatNZ>();
    detail::SoftMaxCall(2, detail::dtype<T>, detail::dtype<T>, &dstTensor.Raw(), &inSumTensor.Raw(),
                        &inMaxTensor.Raw(), &srcTensor.Raw(), &sharedTmpBuffer, tiling, softmaxShapeInfo, loc);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SimpleSoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& inSumTensor,
                   const LocalTensor<float>& inMaxTensor, const LocalTensor<half>& srcTensor,
                   const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                   const SoftMaxShapeInfo& softmaxShapeInfo = {}, detail::Loc loc = detail::Loc()) {
    detail::SoftMaxNd<isDataFormatNZ>();
    detail::SoftMaxCall(2, detail::dtype<half>, detail::dtype<float>, &dstTensor.Raw(), &inSumTensor.Raw(),
                        &inMaxTensor.Raw(), &srcTensor.Raw(), &sharedTmpBuffer, tiling, softmaxShapeInfo, loc);
}

// ---- LogSoftMax -------------------------------------------------------------------------------

template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
void LogSoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& sum, const LocalTensor<T>& max,
                const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
                const LogSoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                detail::Loc loc = detail::Loc()) {
    detail::SoftMaxNd<isDataFormatNZ>();
    detail::SoftMaxCall(3, detail::dtype<T>, detail::dtype<T>, &dst.Raw(), &sum.Raw(), &max.Raw(), &src.Raw(),
                        &sharedTmpBuffer, tiling, softmaxShapeInfo, loc);
}

// ---- AdjustSoftMaxRes -------------------------------------------------------------------------

template <typename T1, typename T2, bool isDataFormatNZ = false, uint8_t stepSizeMode = 0>
bool AdjustSoftMaxRes(const LocalTensor<T1>& softMaxRes, const LocalTensor<T2>& maxTensor, const uint32_t from,
                      const T1 to, const SoftMaxShapeInfo& softmaxShapeInfo, detail::Loc loc = detail::Loc()) {
    detail::SoftMaxNd<isDataFormatNZ>();
    uint32_t toBits = 0;
    std::memcpy(&toBits, &to, sizeof(T1));
    const uint32_t s[4] = {softmaxShapeInfo.srcM, softmaxShapeInfo.srcK, softmaxShapeInfo.oriSrcM,
                           softmaxShapeInfo.oriSrcK};
    bool adjusted = false;
    detail::Check(ascendc_adv_adjust_softmax_res(detail::dtype<T1>, detail::dtype<T2>, &softMaxRes.Raw(),
                                                 &maxTensor.Raw(), from, toBits, s, &adjusted, loc));
    return adjusted;
}

}  // namespace AscendC
