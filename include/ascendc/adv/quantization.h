// High-level API, quantization (量化操作): AscendQuant (half/float → int8; A2, A3, 310P), per tensor
// and per channel, with and without sharedTmpBuffer, with and without calCount; AscendDequant (int32 →
// half/float/bfloat16_t with a scale row or scalar); AscendAntiQuant (int8/int4b_t → half/bfloat16_t).
#pragma once

#include "common.h"

extern "C" {
int32_t ascendc_adv_ascend_quant(uint8_t elem, uint8_t mode, const AscLocal* dst, const AscLocal* src,
                                 const AscLocal* tmp, const void* pipe, float scale, float offset,
                                 const AscLocal* scaleTensor, const AscLocal* offsetTensor, uint32_t scaleCount,
                                 uint32_t offsetCount, uint32_t calCount, AscLoc loc);
int32_t ascendc_adv_ascend_dequant(uint8_t dstElem, uint8_t scaleElem, uint8_t form, uint8_t mode, const AscLocal* dst,
                                   const AscLocal* src, const AscLocal* scale, float scaleValue, const AscLocal* tmp,
                                   const void* pipe, uint32_t m, uint32_t n, uint32_t calCount, AscLoc loc);
int32_t ascendc_adv_ascend_antiquant(uint8_t srcElem, uint8_t dstElem, uint8_t form, bool transpose, const AscLocal* dst,
                                     const AscLocal* src, const AscLocal* offset, const AscLocal* scale,
                                     float offsetValue, float scaleValue, const AscLocal* tmp, const void* pipe,
                                     uint32_t k, const uint32_t* shapeInfo, AscLoc loc);
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

// ---- AscendDequant ----

// How AscendDequant reads DequantParams {1, n, calCount}.
enum class DeQuantMode : uint8_t {
    DEQUANT_WITH_SINGLE_ROW = 0,  // {1, n, c} computed as {n / c, c, c} when c is whole 32 bytes of dstT dividing n
    DEQUANT_WITH_MULTI_ROW,       // {1, n, c} stays one row
};

// The shape of an AscendDequant source: m rows of n int32 (n · 4 bytes a multiple of 32), of which the
// first calCount columns are scaled.
struct DequantParams {
    uint32_t m;
    uint32_t n;
    uint32_t calCount;
};

// PER_TOKEN / PER_GROUP dequantisation (Ascend 950 only).
struct AscendDeQuantConfig {
    bool hasOffset;
    int32_t kDim = 1;
};
enum class AscendDeQuantPolicy : int32_t { PER_TOKEN, PER_GROUP, PER_CHANNEL_PER_GROUP, PER_TOKEN_PER_GROUP };
struct AscendDeQuantParam {
    uint32_t m;
    uint32_t n;
    uint32_t calCount;
    uint32_t groupSize = 0;
};

namespace detail {
// form: 0 DequantParams, 1 calCount, 2 neither (scale tensor), 3 scalar scale with DequantParams.
template <typename dstT, typename scaleT, DeQuantMode mode>
inline void Dequant(uint8_t form, const LocalTensor<dstT>& dst, const LocalTensor<int32_t>& src,
                    const LocalTensor<scaleT>* scale, float scaleValue, const LocalTensor<uint8_t>* tmp,
                    DequantParams params, Loc loc) {
    Check(ascendc_adv_ascend_dequant(detail::dtype<dstT>, detail::dtype<scaleT>, form, static_cast<uint8_t>(mode),
                                     &dst.Raw(), &src.Raw(), scale != nullptr ? &scale->Raw() : nullptr, scaleValue,
                                     tmp != nullptr ? &tmp->Raw() : nullptr, PipeHandle(), params.m, params.n,
                                     params.calCount, loc));
}
}  // namespace detail

// Scale row: dst[i, j] = dstT(float(src[i, j]) · deqScale[j]) for j < params.calCount.
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                   const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                   DequantParams params, detail::Loc loc = detail::Loc()) {
    detail::Dequant<dstT, scaleT, mode>(0, dstTensor, srcTensor, &deqScale, 0, &sharedTmpBuffer, params, loc);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                   const LocalTensor<scaleT>& deqScale, DequantParams params, detail::Loc loc = detail::Loc()) {
    detail::Dequant<dstT, scaleT, mode>(0, dstTensor, srcTensor, &deqScale, 0, nullptr, params, loc);
}
// Deprecated forms: the source is [size / deqScale.GetSize(), deqScale.GetSize()]; calCount elements (or all).
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                   const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                   const uint32_t calCount, detail::Loc loc = detail::Loc()) {
    detail::Dequant<dstT, scaleT, mode>(1, dstTensor, srcTensor, &deqScale, 0, &sharedTmpBuffer, {0, 0, calCount},
                                        loc);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                   const LocalTensor<scaleT>& deqScale, const uint32_t calCount, detail::Loc loc = detail::Loc()) {
    detail::Dequant<dstT, scaleT, mode>(1, dstTensor, srcTensor, &deqScale, 0, nullptr, {0, 0, calCount}, loc);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                   const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                   detail::Loc loc = detail::Loc()) {
    detail::Dequant<dstT, scaleT, mode>(2, dstTensor, srcTensor, &deqScale, 0, &sharedTmpBuffer, {0, 0, 0}, loc);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                   const LocalTensor<scaleT>& deqScale, detail::Loc loc = detail::Loc()) {
    detail::Dequant<dstT, scaleT, mode>(2, dstTensor, srcTensor, &deqScale, 0, nullptr, {0, 0, 0}, loc);
}
// Scalar scale: dst[i, j] = dstT(float(src[i, j]) · deqScale) for j < params.calCount.
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor, const scaleT deqScale,
                   const LocalTensor<uint8_t>& sharedTmpBuffer, DequantParams params,
                   detail::Loc loc = detail::Loc()) {
    detail::Dequant<dstT, scaleT, mode>(3, dstTensor, srcTensor, static_cast<const LocalTensor<scaleT>*>(nullptr),
                                        static_cast<float>(deqScale), &sharedTmpBuffer, params, loc);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor, const scaleT deqScale,
                   DequantParams params, detail::Loc loc = detail::Loc()) {
    detail::Dequant<dstT, scaleT, mode>(3, dstTensor, srcTensor, static_cast<const LocalTensor<scaleT>*>(nullptr),
                                        static_cast<float>(deqScale), nullptr, params, loc);
}
// PER_TOKEN / PER_GROUP (Ascend 950 only): declared so that code naming them compiles to a clear error.
template <typename dstT, typename srcT, typename scaleT, const AscendDeQuantConfig& config,
          const AscendDeQuantPolicy& policy>
void AscendDequant(const LocalTensor<dstT>&, const LocalTensor<srcT>&, const LocalTensor<scaleT>&,
                   const LocalTensor<scaleT>&, const LocalTensor<uint8_t>&, const AscendDeQuantParam&) {
    static_assert(sizeof(dstT) == 0, "AscendDequant PER_TOKEN/PER_GROUP is only on Ascend 950, not simulated");
}
template <typename dstT, typename srcT, typename scaleT, const AscendDeQuantConfig& config,
          const AscendDeQuantPolicy& policy>
void AscendDequant(const LocalTensor<dstT>&, const LocalTensor<srcT>&, const LocalTensor<scaleT>&,
                   const LocalTensor<scaleT>&, const AscendDeQuantParam&) {
    static_assert(sizeof(dstT) == 0, "AscendDequant PER_TOKEN/PER_GROUP is only on Ascend 950, not simulated");
}

// ---- AscendAntiQuant ----

// The offset and scale shapes of a PER_CHANNEL call (0: taken from the tensors' ShapeInfo).
struct AntiQuantShapeInfo {
    uint32_t offsetHeight{0};
    uint32_t offsetWidth{0};
    uint32_t scaleHeight{0};
    uint32_t scaleWidth{0};
};

// PER_TOKEN / PER_GROUP antiquantisation (Ascend 950 only).
struct AscendAntiQuantConfig {
    bool hasOffset;
    bool isTranspose;
    int32_t kDim = 1;
};
enum class AscendAntiQuantPolicy : int32_t {
    PER_TENSOR,
    PER_CHANNEL,
    PER_TOKEN,
    PER_GROUP,
    PER_CHANNEL_PER_GROUP,
    PER_TOKEN_PER_GROUP
};
struct AscendAntiQuantParam {
    uint32_t m;
    uint32_t n;
    uint32_t calCount;
    uint32_t groupSize = 0;
};

namespace detail {
// form: 0 offset and scale tensors, 1 scale tensor, 2 offset and scale values, 3 scale value.
template <typename InputDataType, typename OutputDataType, bool isTranspose>
inline void AntiQuant(uint8_t form, const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                      const LocalTensor<OutputDataType>* offset, const LocalTensor<OutputDataType>* scale,
                      float offsetValue, float scaleValue, const LocalTensor<uint8_t>* tmp, uint32_t k,
                      const AntiQuantShapeInfo& shapeInfo, Loc loc) {
    const uint32_t shape[4] = {shapeInfo.offsetHeight, shapeInfo.offsetWidth, shapeInfo.scaleHeight,
                               shapeInfo.scaleWidth};
    Check(ascendc_adv_ascend_antiquant(detail::dtype<InputDataType>, detail::dtype<OutputDataType>, form, isTranspose,
                                       &dst.Raw(), &src.Raw(), offset != nullptr ? &offset->Raw() : nullptr,
                                       scale != nullptr ? &scale->Raw() : nullptr, offsetValue, scaleValue,
                                       tmp != nullptr ? &tmp->Raw() : nullptr, PipeHandle(), k, shape, loc));
}
}  // namespace detail

// PER_CHANNEL: dst = scale · (src + offset), the offset/scale row per row of [K, N] (per column group of
// [N, K] when isTranspose).
template <typename InputDataType, typename OutputDataType, bool isTranspose>
void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                     const LocalTensor<OutputDataType>& offset, const LocalTensor<OutputDataType>& scale,
                     const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k,
                     const AntiQuantShapeInfo& shapeInfo = {}, detail::Loc loc = detail::Loc()) {
    detail::AntiQuant<InputDataType, OutputDataType, isTranspose>(0, dst, src, &offset, &scale, 0, 0, &sharedTmpBuffer,
                                                                  k, shapeInfo, loc);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                     const LocalTensor<OutputDataType>& offset, const LocalTensor<OutputDataType>& scale,
                     const uint32_t k, const AntiQuantShapeInfo& shapeInfo = {}, detail::Loc loc = detail::Loc()) {
    detail::AntiQuant<InputDataType, OutputDataType, isTranspose>(0, dst, src, &offset, &scale, 0, 0, nullptr, k,
                                                                  shapeInfo, loc);
}
// PER_CHANNEL without offset: dst = scale · src.
template <typename InputDataType, typename OutputDataType, bool isTranspose>
void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                     const LocalTensor<OutputDataType>& scale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                     const uint32_t k, const AntiQuantShapeInfo& shapeInfo = {}, detail::Loc loc = detail::Loc()) {
    detail::AntiQuant<InputDataType, OutputDataType, isTranspose>(1, dst, src, nullptr, &scale, 0, 0, &sharedTmpBuffer,
                                                                  k, shapeInfo, loc);
}
// PER_TENSOR: dst = scale · (src + offset).
template <typename InputDataType, typename OutputDataType, bool isTranspose>
void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                     const OutputDataType offset, const OutputDataType scale,
                     const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k,
                     const AntiQuantShapeInfo& shapeInfo = {}, detail::Loc loc = detail::Loc()) {
    detail::AntiQuant<InputDataType, OutputDataType, isTranspose>(2, dst, src, nullptr, nullptr,
                                                                  static_cast<float>(offset),
                                                                  static_cast<float>(scale), &sharedTmpBuffer, k,
                                                                  shapeInfo, loc);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                     const OutputDataType offset, const OutputDataType scale, const uint32_t k,
                     const AntiQuantShapeInfo& shapeInfo = {}, detail::Loc loc = detail::Loc()) {
    detail::AntiQuant<InputDataType, OutputDataType, isTranspose>(2, dst, src, nullptr, nullptr,
                                                                  static_cast<float>(offset),
                                                                  static_cast<float>(scale), nullptr, k, shapeInfo,
                                                                  loc);
}
// PER_TENSOR without offset: dst = scale · src.
template <typename InputDataType, typename OutputDataType, bool isTranspose>
void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                     const OutputDataType scale, const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k,
                     const AntiQuantShapeInfo& shapeInfo = {}, detail::Loc loc = detail::Loc()) {
    detail::AntiQuant<InputDataType, OutputDataType, isTranspose>(3, dst, src, nullptr, nullptr, 0,
                                                                  static_cast<float>(scale), &sharedTmpBuffer, k,
                                                                  shapeInfo, loc);
}
// PER_TOKEN / PER_GROUP (Ascend 950 only): declared so that code naming them compiles to a clear error.
template <typename dstT, typename srcT, typename scaleT, const AscendAntiQuantConfig& config,
          const AscendAntiQuantPolicy& policy>
void AscendAntiQuant(const LocalTensor<dstT>&, const LocalTensor<srcT>&, const LocalTensor<scaleT>&,
                     const LocalTensor<scaleT>&, const LocalTensor<uint8_t>&, const AscendAntiQuantParam&) {
    static_assert(sizeof(dstT) == 0, "AscendAntiQuant PER_TOKEN/PER_GROUP is only on Ascend 950, not simulated");
}
template <typename dstT, typename srcT, typename scaleT, const AscendAntiQuantConfig& config,
          const AscendAntiQuantPolicy& policy>
void AscendAntiQuant(const LocalTensor<dstT>&, const LocalTensor<srcT>&, const LocalTensor<scaleT>&,
                     const LocalTensor<scaleT>&, const AscendAntiQuantParam&) {
    static_assert(sizeof(dstT) == 0, "AscendAntiQuant PER_TOKEN/PER_GROUP is only on Ascend 950, not simulated");
}
}  // namespace AscendC
