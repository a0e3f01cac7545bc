// High-level API, element-wise activations (激活函数): Sigmoid, Silu, Swish, Gelu, FasterGelu,
// FasterGeluV2 (one source) and the gated units SwiGLU, GeGLU, ReGlu (two sources). half and
// float (ReGlu also bfloat16_t on A2/A3); A2, A3 and 310P. Each overload the vendor declares,
// with its template switches.
#pragma once

#include "common.h"

extern "C" {
int32_t ascendc_adv_activation(uint8_t op, uint8_t elem, const AscLocal* dst, const AscLocal* src, const void* scalar,
                               const AscLocal* tmp, const void* pipe, uint32_t count, AscLoc loc);
int32_t ascendc_adv_glu(uint8_t op, uint8_t elem, const AscLocal* dst, const AscLocal* src0, const AscLocal* src1,
                        float beta, const AscLocal* tmp, const void* pipe, uint32_t count, AscLoc loc);
}

namespace AscendC {
namespace detail {

// `op` of ascendc_adv_activation: the API in the low 4 bits, highPrecision in bit 4,
// highPerformance in bit 5.
enum : uint8_t { ACT_SIGMOID = 0, ACT_SILU = 1, ACT_SWISH = 2, ACT_GELU = 3, ACT_FASTER_GELU = 4, ACT_FASTER_GELU_V2 = 5 };

constexpr uint8_t GeluOp(uint8_t api, bool highPrecision, bool highPerformance) {
    return static_cast<uint8_t>(api | (highPrecision ? 0x10 : 0) | (highPerformance ? 0x20 : 0));
}

template <typename T>
inline void AdvActivation(uint8_t op, const LocalTensor<T>& dst, const LocalTensor<T>& src, const T* scalar,
                          const LocalTensor<uint8_t>* tmp, uint32_t count, Loc loc) {
    const void* pipe = PipeHandle();
    Check(ascendc_adv_activation(op, dtype<T>, &dst.Raw(), &src.Raw(), scalar, tmp != nullptr ? &tmp->Raw() : nullptr,
                                 pipe, count, loc));
}

// `op` of ascendc_adv_glu.
enum : uint8_t { GLU_SWIGLU = 0, GLU_GEGLU = 1, GLU_REGLU = 2 };

template <typename T>
inline void AdvGlu(uint8_t op, const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                   float beta, const LocalTensor<uint8_t>* tmp, uint32_t count, Loc loc) {
    const void* pipe = PipeHandle();
    Check(ascendc_adv_glu(op, dtype<T>, &dst.Raw(), &src0.Raw(), &src1.Raw(), beta,
                          tmp != nullptr ? &tmp->Raw() : nullptr, pipe, count, loc));
}

}  // namespace detail

// ---- Sigmoid: dst = 1 / (1 + e^-x) --------------------------------------------------------------

template <typename T, bool isReuseSource = false>
void Sigmoid(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
             const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount, detail::Loc loc = detail::Loc()) {
    detail::AdvActivation<T>(detail::ACT_SIGMOID, dstTensor, srcTensor, nullptr, &sharedTmpBuffer, calCount, loc);
}
template <typename T, bool isReuseSource = false>
void Sigmoid(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount,
             detail::Loc loc = detail::Loc()) {
    detail::AdvActivation<T>(detail::ACT_SIGMOID, dstTensor, srcTensor, nullptr, nullptr, calCount, loc);
}
template <typename T, bool isReuseSource = false>
void Sigmoid(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
             const LocalTensor<uint8_t>& sharedTmpBuffer, detail::Loc loc = detail::Loc()) {
    detail::AdvActivation<T>(detail::ACT_SIGMOID, dstTensor, srcTensor, nullptr, &sharedTmpBuffer,
                             srcTensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
void Sigmoid(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, detail::Loc loc = detail::Loc()) {
    detail::AdvActivation<T>(detail::ACT_SIGMOID, dstTensor, srcTensor, nullptr, nullptr, srcTensor.GetSize(), loc);
}

// ---- Silu: x / (1 + e^-x); Swish: x / (1 + e^(-beta x)) -----------------------------------------

template <typename T, bool isReuseSource = false>
void Silu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, uint32_t dataSize,
          detail::Loc loc = detail::Loc()) {
    detail::AdvActivation<T>(detail::ACT_SILU, dstLocal, srcLocal, nullptr, nullptr, dataSize, loc);
}

template <typename T, bool isReuseSource = false>
void Swish(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, uint32_t dataSize, const T scalarValue,
           detail::Loc loc = detail::Loc()) {
    detail::AdvActivation<T>(detail::ACT_SWISH, dstLocal, srcLocal, &scalarValue, nullptr, dataSize, loc);
}

// ---- Gelu, FasterGelu, FasterGeluV2 -------------------------------------------------------------

#define ASCENDC_ADV_GELU(Name, api)                                                                        \
    template <typename T, bool highPrecision = false, bool highPerformance = false>                        \
    void Name(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,                               \
              const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t dataSize,                         \
              detail::Loc loc = detail::Loc()) {                                                             \
        detail::AdvActivation<T>(detail::GeluOp(api, highPrecision, highPerformance), dstLocal, srcLocal,   \
                                 nullptr, &sharedTmpBuffer, dataSize, loc);                                 \
    }                                                                                                      \
    template <typename T, bool highPrecision = false, bool highPerformance = false>                        \
    void Name(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dataSize,      \
              detail::Loc loc = detail::Loc()) {                                                             \
        detail::AdvActivation<T>(detail::GeluOp(api, highPrecision, highPerformance), dstLocal, srcLocal,   \
                                 nullptr, nullptr, dataSize, loc);                                          \
    }

ASCENDC_ADV_GELU(Gelu, detail::ACT_GELU)
ASCENDC_ADV_GELU(FasterGelu, detail::ACT_FASTER_GELU)
ASCENDC_ADV_GELU(FasterGeluV2, detail::ACT_FASTER_GELU_V2)
#undef ASCENDC_ADV_GELU

// ---- SwiGLU: src0 * Swish_beta(src1) ------------------------------------------------------------

template <typename T, bool isReuseSource = false>
void SwiGLU(LocalTensor<T>& dstTensor, LocalTensor<T>& srcTensor0, LocalTensor<T>& srcTensor1,
            const float& scalarValue, detail::Loc loc = detail::Loc()) {
    detail::AdvGlu<T>(detail::GLU_SWIGLU, dstTensor, srcTensor0, srcTensor1, scalarValue, nullptr,
                      srcTensor0.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
void SwiGLU(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
            const float& scalarValue, const LocalTensor<uint8_t>& sharedTmpBuffer, detail::Loc loc = detail::Loc()) {
    detail::AdvGlu<T>(detail::GLU_SWIGLU, dstTensor, srcTensor0, srcTensor1, scalarValue, &sharedTmpBuffer,
                      srcTensor0.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
void SwiGLU(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
            const float& scalarValue, const uint32_t calCount, detail::Loc loc = detail::Loc()) {
    detail::AdvGlu<T>(detail::GLU_SWIGLU, dstTensor, srcTensor0, srcTensor1, scalarValue, nullptr, calCount, loc);
}
template <typename T, bool isReuseSource = false>
void SwiGLU(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
            const float& scalarValue, const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,
            detail::Loc loc = detail::Loc()) {
    detail::AdvGlu<T>(detail::GLU_SWIGLU, dstTensor, srcTensor0, srcTensor1, scalarValue, &sharedTmpBuffer, calCount,
                      loc);
}

// ---- GeGLU: src0 * Gelu(src1) -------------------------------------------------------------------

template <typename T, bool isReuseSource = false>
void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
           const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, detail::Loc loc = detail::Loc()) {
    detail::AdvGlu<T>(detail::GLU_GEGLU, dstTensor, srcTensor0, srcTensor1, 0.0f, &sharedTmpBuffer, calCount, loc);
}
template <typename T, bool isReuseSource = false>
void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
           uint32_t calCount, detail::Loc loc = detail::Loc()) {
    detail::AdvGlu<T>(detail::GLU_GEGLU, dstTensor, srcTensor0, srcTensor1, 0.0f, nullptr, calCount, loc);
}
template <typename T, bool isReuseSource = false>
void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
           const LocalTensor<uint8_t>& sharedTmpBuffer, detail::Loc loc = detail::Loc()) {
    detail::AdvGlu<T>(detail::GLU_GEGLU, dstTensor, srcTensor0, srcTensor1, 0.0f, &sharedTmpBuffer,
                      srcTensor0.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
           detail::Loc loc = detail::Loc()) {
    detail::AdvGlu<T>(detail::GLU_GEGLU, dstTensor, srcTensor0, srcTensor1, 0.0f, nullptr, srcTensor0.GetSize(), loc);
}

// ---- ReGlu: src0 * max(src1, 0) -----------------------------------------------------------------

template <typename T, bool isReuseSource = false>
void ReGlu(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
           const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount, detail::Loc loc = detail::Loc()) {
    detail::AdvGlu<T>(detail::GLU_REGLU, dstTensor, srcTensor0, srcTensor1, 0.0f, &sharedTmpBuffer, calCount, loc);
}
template <typename T, bool isReuseSource = false>
void ReGlu(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
           const uint32_t calCount, detail::Loc loc = detail::Loc()) {
    detail::AdvGlu<T>(detail::GLU_REGLU, dstTensor, srcTensor0, srcTensor1, 0.0f, nullptr, calCount, loc);
}

}  // namespace AscendC
