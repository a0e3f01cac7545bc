// High-level math API, exponential and logarithm family: Exp (Taylor refinement), Log, Log2,
// Log10, Power (tensor/scalar base and exponent), Erf, Erfc. half/float (Power also int32);
// A2, A3, 310P.
#pragma once

#include <cstring>

#include "common.h"

extern "C" {
int32_t ascendc_adv_exp_log(uint8_t op, uint8_t elem, const AscLocal* dst, const AscLocal* src, const AscLocal* tmp,
                            const void* pipe, uint32_t count, AscLoc loc);
int32_t ascendc_adv_exp(uint8_t elem, uint8_t level, bool reuse, const AscLocal* dst, const AscLocal* src,
                        const AscLocal* tmp, const void* pipe, uint32_t count, AscLoc loc);
int32_t ascendc_adv_power(uint8_t elem, const AscLocal* dst, const AscLocal* base, uint32_t baseBits,
                          const AscLocal* exp, uint32_t expBits, const AscLocal* tmp, const void* pipe, uint32_t count,
                          AscLoc loc);
}

namespace AscendC {

// Power's algorithm choice (used on Ascend 950 only; accepted and ignored here).
enum class PowerAlgo { INTRINSIC = 0, DOUBLE_FLOAT_TECH };
struct PowerConfig {
    PowerAlgo algo = PowerAlgo::INTRINSIC;
};
constexpr PowerConfig defaultPowerConfig = {PowerAlgo::INTRINSIC};

// Erf's algorithm choice (used on Ascend 950 only).
enum class ErfAlgo { PADE_APPROXIMATION = 0, SUBSECTION_POLYNOMIAL_APPROXIMATION };
struct ErfConfig {
    ErfAlgo algo = ErfAlgo::PADE_APPROXIMATION;
};
constexpr ErfConfig defaultErfConfig = {ErfAlgo::PADE_APPROXIMATION};

namespace detail {


// Exp: the basic instruction when taylorExpandLevel is 0, else the Taylor refinement.
template <typename T>
inline void AdvExp(uint8_t level, bool reuse, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                   const LocalTensor<uint8_t>* tmp, uint32_t count, Loc loc) {
    Check(ascendc_adv_exp(dtype<T>, level, reuse, &dst.Raw(), &src.Raw(), tmp != nullptr ? &tmp->Raw() : nullptr,
                          PipeHandle(), count, loc));
}

// A Power scalar as the low sizeof(T) bytes of a word.
template <typename T>
inline uint32_t PowerBits(const T& v) {
    uint32_t bits = 0;
    std::memcpy(&bits, &v, sizeof(T));
    return bits;
}

// Power: `base`/`exp` null for the scalar operand.
template <typename T>
inline void AdvPower(const LocalTensor<T>& dst, const LocalTensor<T>* base, const T& baseScalar,
                     const LocalTensor<T>* exp, const T& expScalar, const LocalTensor<uint8_t>* tmp, uint32_t count,
                     Loc loc) {
    Check(ascendc_adv_power(dtype<T>, &dst.Raw(), base != nullptr ? &base->Raw() : nullptr, PowerBits(baseScalar),
                            exp != nullptr ? &exp->Raw() : nullptr, PowerBits(expScalar),
                            tmp != nullptr ? &tmp->Raw() : nullptr, PipeHandle(), count, loc));
}

}  // namespace detail

// Exp<T, taylorExpandLevel, isReuseSource>: the level is a template argument, which keeps these
// apart from the basic Exp<T>(dst, src, calCount).
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
void Exp(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t calCount,
         detail::Loc loc = detail::Loc()) {
    detail::AdvExp<T>(taylorExpandLevel, isReuseSource, dstLocal, srcLocal, nullptr, calCount, loc);
}
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
void Exp(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<uint8_t>& sharedTmpBuffer,
         const uint32_t calCount, detail::Loc loc = detail::Loc()) {
    detail::AdvExp<T>(taylorExpandLevel, isReuseSource, dstLocal, srcLocal, &sharedTmpBuffer, calCount, loc);
}

// Log and Log10: no temporary space.
template <typename T, bool isReuseSource = false>
void Log(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, uint32_t calCount,
         detail::Loc loc = detail::Loc()) {
    detail::AdvUnary<T>(ascendc_adv_exp_log, 0, dstTensor, srcTensor, nullptr, calCount, loc);
}
template <typename T, bool isReuseSource = false>
void Log(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, detail::Loc loc = detail::Loc()) {
    detail::AdvUnary<T>(ascendc_adv_exp_log, 0, dstTensor, srcTensor, nullptr, srcTensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
void Log10(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, uint32_t calCount,
           detail::Loc loc = detail::Loc()) {
    detail::AdvUnary<T>(ascendc_adv_exp_log, 2, dstTensor, srcTensor, nullptr, calCount, loc);
}
template <typename T, bool isReuseSource = false>
void Log10(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, detail::Loc loc = detail::Loc()) {
    detail::AdvUnary<T>(ascendc_adv_exp_log, 2, dstTensor, srcTensor, nullptr, srcTensor.GetSize(), loc);
}

ASCENDC_ADV_UNARY_ALL(Log2, ascendc_adv_exp_log, 1)
ASCENDC_ADV_UNARY_ALL(Erf, ascendc_adv_exp_log, 3)
ASCENDC_ADV_UNARY_ALL(Erfc, ascendc_adv_exp_log, 4)

// Power: tensor^tensor, tensor^scalar, scalar^tensor; each with or without sharedTmpBuffer and
// calCount (default: the tensor operand's size).
#define ASCENDC_ADV_POWER_FORMS(ARGS, BASE, BASE_SCALAR, EXP, EXP_SCALAR, SIZE)                             \
    template <typename T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>      \
    void Power(const LocalTensor<T>& dstTensor, ARGS, const LocalTensor<uint8_t>& sharedTmpBuffer,          \
               uint32_t calCount, detail::Loc loc = detail::Loc()) {                                        \
        detail::AdvPower<T>(dstTensor, BASE, BASE_SCALAR, EXP, EXP_SCALAR, &sharedTmpBuffer, calCount, loc); \
    }                                                                                                       \
    template <typename T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>      \
    void Power(const LocalTensor<T>& dstTensor, ARGS, uint32_t calCount, detail::Loc loc = detail::Loc()) { \
        detail::AdvPower<T>(dstTensor, BASE, BASE_SCALAR, EXP, EXP_SCALAR, nullptr, calCount, loc);        \
    }                                                                                                       \
    template <typename T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>      \
    void Power(const LocalTensor<T>& dstTensor, ARGS, const LocalTensor<uint8_t>& sharedTmpBuffer,          \
               detail::Loc loc = detail::Loc()) {                                                           \
        detail::AdvPower<T>(dstTensor, BASE, BASE_SCALAR, EXP, EXP_SCALAR, &sharedTmpBuffer, SIZE, loc);   \
    }                                                                                                       \
    template <typename T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>      \
    void Power(const LocalTensor<T>& dstTensor, ARGS, detail::Loc loc = detail::Loc()) {                   \
        detail::AdvPower<T>(dstTensor, BASE, BASE_SCALAR, EXP, EXP_SCALAR, nullptr, SIZE, loc);            \
    }

#define ASCENDC_COMMA ,
ASCENDC_ADV_POWER_FORMS(const LocalTensor<T>& src0Tensor ASCENDC_COMMA const LocalTensor<T>& src1Tensor, &src0Tensor,
                        T(), &src1Tensor, T(), src0Tensor.GetSize())
ASCENDC_ADV_POWER_FORMS(const LocalTensor<T>& src0Tensor ASCENDC_COMMA const T& src1Scalar, &src0Tensor, T(), nullptr,
                        src1Scalar, src0Tensor.GetSize())
ASCENDC_ADV_POWER_FORMS(const T& src0Scalar ASCENDC_COMMA const LocalTensor<T>& src1Tensor, nullptr, src0Scalar,
                        &src1Tensor, T(), src1Tensor.GetSize())
#undef ASCENDC_COMMA
#undef ASCENDC_ADV_POWER_FORMS

}  // namespace AscendC
