// High-level API, quantization (量化操作): AscendQuant (half/float → int8; A2, A3, 310P), per tensor
// and per channel, with and without sharedTmpBuffer, with and without calCount.
#pragma once

#include "common.h"

extern "C" {
int32_t ascendc_adv_ascend_quant(uint8_t elem, uint8_t mode, const AscLocal* dst, const AscLocal* src,
                                 const AscLocal* tmp, const void* pipe, float scale, float offset,
                                 const AscLocal* scaleTensor, const AscLocal* offsetTensor, uint32_t scaleCount,
                                 uint32_t offsetCount, uint32_t calCount, AscLoc loc);
}

namespace AscendC {
// Compile-time sizes of AscendQuant (all 0: taken from the call's arguments).
struct AscendQuantConfig {
    constexpr AscendQuantConfig(const uint32_t calcCount, const uint32_t offsetCount, const uint32_t scaleCount,
                                const uint32_t workLocalSize)
        : calcCount(calcCount), offsetCount(offsetCount), scaleCount(scaleCount), workLocalSize(workLocalSize) {}
    uint32_t calcCount = 0;
    uint32_t offsetCount = 0;
    uint32_t scaleCount = 0;
    uint32_t workLocalSize = 0;
};
constexpr AscendQuantConfig ASCEND_QUANT_DEFAULT_CFG = {0, 0, 0, 0};

enum class AscendQuantPolicy : int32_t {
    PER_TENSOR,
    PER_CHANNEL,
    PER_TOKEN,
    PER_GROUP,
    PER_CHANNEL_PER_GROUP,
    PER_TOKEN_PER_GROUP
};

struct AscendQuantParam {
    uint32_t m;
    uint32_t n;
    uint32_t calCount;
    uint32_t groupSize = 0;
};

namespace detail {
template <const AscendQuantConfig& config>
constexpr bool QuantDefaultConfig() {
    return config.calcCount == 0 && config.offsetCount == 0 && config.scaleCount == 0 && config.workLocalSize == 0;
}

template <typename T, const AscendQuantConfig& config>
inline void Quant(uint8_t mode, const LocalTensor<int8_t>& dst, const LocalTensor<T>& src,
                  const LocalTensor<uint8_t>* tmp, float scale, float offset, const LocalTensor<T>* scaleTensor,
                  const LocalTensor<T>* offsetTensor, uint32_t scaleCount, uint32_t offsetCount, uint32_t calCount,
                  Loc loc) {
    static_assert(QuantDefaultConfig<config>(),
                  "AscendQuant: a non-default AscendQuantConfig (compile-time sizes) is not supported by the "
                  "simulator; pass the sizes as arguments");
    const void* pipe = PipeHandle();
    Check(ascendc_adv_ascend_quant(detail::dtype<T>, mode, &dst.Raw(), &src.Raw(), tmp != nullptr ? &tmp->Raw() : nullptr,
                                   pipe, scale, offset, scaleTensor != nullptr ? &scaleTensor->Raw() : nullptr,
                                   offsetTensor != nullptr ? &offsetTensor->Raw() : nullptr, scaleCount, offsetCount,
                                   calCount, loc));
}
}  // namespace detail

// Per tensor: dst = int8(src · scale + offset).
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const float scale, const float offset,
                 const uint32_t calCount, detail::Loc loc = detail::Loc()) {
    detail::Quant<T, config>(0, dstTensor, srcTensor, &sharedTmpBuffer, scale, offset, nullptr, nullptr, 0, 0, calCount,
                             loc);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor, const float scale,
                 const float offset, const uint32_t calCount, detail::Loc loc = detail::Loc()) {
    detail::Quant<T, config>(0, dstTensor, srcTensor, nullptr, scale, offset, nullptr, nullptr, 0, 0, calCount, loc);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const float scale, const float offset,
                 detail::Loc loc = detail::Loc()) {
    detail::Quant<T, config>(0, dstTensor, srcTensor, &sharedTmpBuffer, scale, offset, nullptr, nullptr, 0, 0,
                             srcTensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor, const float scale,
                 const float offset, detail::Loc loc = detail::Loc()) {
    detail::Quant<T, config>(0, dstTensor, srcTensor, nullptr, scale, offset, nullptr, nullptr, 0, 0,
                             srcTensor.GetSize(), loc);
}

// Per channel, scalar offset: dst[i, j] = int8(src[i, j] · scaleTensor[j] + offset).
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor, const T offset,
                 const uint32_t scaleCount, const uint32_t calCount, detail::Loc loc = detail::Loc()) {
    detail::Quant<T, config>(1, dstTensor, srcTensor, &sharedTmpBuffer, 0, static_cast<float>(offset), &scaleTensor,
                             nullptr, scaleCount, 0, calCount, loc);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<T>& scaleTensor, const T offset, const uint32_t scaleCount, const uint32_t calCount,
                 detail::Loc loc = detail::Loc()) {
    detail::Quant<T, config>(1, dstTensor, srcTensor, nullptr, 0, static_cast<float>(offset), &scaleTensor, nullptr,
                             scaleCount, 0, calCount, loc);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor, const T offset,
                 detail::Loc loc = detail::Loc()) {
    detail::Quant<T, config>(1, dstTensor, srcTensor, &sharedTmpBuffer, 0, static_cast<float>(offset), &scaleTensor,
                             nullptr, scaleTensor.GetSize(), 0, srcTensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<T>& scaleTensor, const T offset, detail::Loc loc = detail::Loc()) {
    detail::Quant<T, config>(1, dstTensor, srcTensor, nullptr, 0, static_cast<float>(offset), &scaleTensor, nullptr,
                             scaleTensor.GetSize(), 0, srcTensor.GetSize(), loc);
}

// Per channel, offset row: dst[i, j] = int8(src[i, j] · scaleTensor[j] + offsetTensor[j]).
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor,
                 const LocalTensor<T>& offsetTensor, const uint32_t scaleCount, const uint32_t offsetCount,
                 const uint32_t calCount, detail::Loc loc = detail::Loc()) {
    detail::Quant<T, config>(2, dstTensor, srcTensor, &sharedTmpBuffer, 0, 0, &scaleTensor, &offsetTensor, scaleCount,
                             offsetCount, calCount, loc);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<T>& scaleTensor, const LocalTensor<T>& offsetTensor, const uint32_t scaleCount,
                 const uint32_t offsetCount, const uint32_t calCount, detail::Loc loc = detail::Loc()) {
    detail::Quant<T, config>(2, dstTensor, srcTensor, nullptr, 0, 0, &scaleTensor, &offsetTensor, scaleCount,
                             offsetCount, calCount, loc);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor,
                 const LocalTensor<T>& offsetTensor, detail::Loc loc = detail::Loc()) {
    detail::Quant<T, config>(2, dstTensor, srcTensor, &sharedTmpBuffer, 0, 0, &scaleTensor, &offsetTensor,
                             scaleTensor.GetSize(), offsetTensor.GetSize(), srcTensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<T>& scaleTensor, const LocalTensor<T>& offsetTensor,
                 detail::Loc loc = detail::Loc()) {
    detail::Quant<T, config>(2, dstTensor, srcTensor, nullptr, 0, 0, &scaleTensor, &offsetTensor,
                             scaleTensor.GetSize(), offsetTensor.GetSize(), srcTensor.GetSize(), loc);
}
}  // namespace AscendC
