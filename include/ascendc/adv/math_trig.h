// High-level math API, trigonometric and hyperbolic functions: Sin, Cos, Tan, Atan, Asin, Acos,
// Sinh, Cosh, Tanh, Asinh, Acosh, Atanh (half/float; A2, A3, 310P). Each has the vendor's four
// overloads: with or without sharedTmpBuffer, with or without calCount.
#pragma once

#include "common.h"

extern "C" {
int32_t ascendc_adv_trig(uint8_t op, uint8_t elem, const AscLocal* dst, const AscLocal* src, const AscLocal* tmp,
                         const void* pipe, uint32_t count, AscLoc loc);
}

namespace AscendC {

// The algorithm selections of Sin, Cos, Atan and Tanh. Their pages list a non-default choice
// for Ascend 950PR/950DT only, so on the simulated products only the default compiles.
enum class SinAlgo { POLYNOMIAL_APPROXIMATION = 0, RADIAN_REDUCTION };
struct SinConfig {
    SinAlgo algo = SinAlgo::POLYNOMIAL_APPROXIMATION;
};
constexpr SinConfig defaultSinConfig;

enum class CosAlgo { POLYNOMIAL_APPROXIMATION = 0, RADIAN_REDUCTION };
struct CosConfig {
    CosAlgo algo = CosAlgo::POLYNOMIAL_APPROXIMATION;
};
constexpr CosConfig defaultCosConfig;

enum class AtanAlgo { TAYLOR_EXPANSION = 0, POLYNOMIAL_APPROXIMATION };
struct AtanConfig {
    AtanAlgo algo = AtanAlgo::TAYLOR_EXPANSION;
};
constexpr AtanConfig defaultAtanConfig = {AtanAlgo::TAYLOR_EXPANSION};

enum class TanhAlgo { INTRINSIC = 0, SUBSECTION_COMPENSATION };
struct TanhConfig {
    TanhAlgo algo = TanhAlgo::INTRINSIC;
};
constexpr TanhConfig DEFAULT_TANH_CONFIG = {TanhAlgo::INTRINSIC};

namespace detail {
// The C ABI's `op` of a trigonometric API: bit 7 carries isReuseSource.
constexpr uint8_t TrigOp(uint8_t op, bool isReuseSource) {
    return static_cast<uint8_t>(op | (isReuseSource ? 0x80 : 0));
}
}  // namespace detail

}  // namespace AscendC

// The four overloads of a trigonometric API; `TPARAMS` are its template parameters after T
// (isReuseSource first) and `CHECK` a statement run at instantiation.
#define ASCENDC_ADV_TRIG(Name, op, TPARAMS, CHECK)                                                          \
    template <typename T, TPARAMS>                                                                       \
    void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                            \
              const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,                        \
              detail::Loc loc = detail::Loc()) {                                                            \
        CHECK;                                                                                            \
        detail::AdvUnary<T>(ascendc_adv_trig, detail::TrigOp(op, isReuseSource), dstTensor, srcTensor,     \
                            &sharedTmpBuffer, calCount, loc);                                             \
    }                                                                                                     \
    template <typename T, TPARAMS>                                                                       \
    void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                            \
              const LocalTensor<uint8_t>& sharedTmpBuffer, detail::Loc loc = detail::Loc()) {             \
        CHECK;                                                                                            \
        detail::AdvUnary<T>(ascendc_adv_trig, detail::TrigOp(op, isReuseSource), dstTensor, srcTensor,     \
                            &sharedTmpBuffer, srcTensor.GetSize(), loc);                                  \
    }                                                                                                     \
    template <typename T, TPARAMS>                                                                       \
    void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount,  \
              detail::Loc loc = detail::Loc()) {                                                            \
        CHECK;                                                                                            \
        detail::AdvUnary<T>(ascendc_adv_trig, detail::TrigOp(op, isReuseSource), dstTensor, srcTensor,     \
                            nullptr, calCount, loc);                                                      \
    }                                                                                                     \
    template <typename T, TPARAMS>                                                                       \
    void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                            \
              detail::Loc loc = detail::Loc()) {                                                            \
        CHECK;                                                                                            \
        detail::AdvUnary<T>(ascendc_adv_trig, detail::TrigOp(op, isReuseSource), dstTensor, srcTensor,     \
                            nullptr, srcTensor.GetSize(), loc);                                           \
    }

#define ASCENDC_TRIG_REUSE bool isReuseSource = false
#define ASCENDC_TRIG_CONFIG(Cfg, def) bool isReuseSource = false, const Cfg& config = def
#define ASCENDC_TRIG_DEFAULT_ONLY(Name, value)                                                             \
    static_assert(config.algo == value, #Name ": a non-default config is only supported on Ascend 950PR/950DT")

namespace AscendC {
ASCENDC_ADV_TRIG(Sin, 0, ASCENDC_TRIG_CONFIG(SinConfig, defaultSinConfig),
                 ASCENDC_TRIG_DEFAULT_ONLY(Sin, SinAlgo::POLYNOMIAL_APPROXIMATION))
ASCENDC_ADV_TRIG(Cos, 1, ASCENDC_TRIG_CONFIG(CosConfig, defaultCosConfig),
                 ASCENDC_TRIG_DEFAULT_ONLY(Cos, CosAlgo::POLYNOMIAL_APPROXIMATION))
ASCENDC_ADV_TRIG(Tan, 2, ASCENDC_TRIG_REUSE, (void)0)
ASCENDC_ADV_TRIG(Atan, 3, ASCENDC_TRIG_CONFIG(AtanConfig, defaultAtanConfig),
                 ASCENDC_TRIG_DEFAULT_ONLY(Atan, AtanAlgo::TAYLOR_EXPANSION))
ASCENDC_ADV_TRIG(Asin, 4, ASCENDC_TRIG_REUSE, (void)0)
ASCENDC_ADV_TRIG(Acos, 5, ASCENDC_TRIG_REUSE, (void)0)
ASCENDC_ADV_TRIG(Sinh, 6, ASCENDC_TRIG_REUSE, (void)0)
ASCENDC_ADV_TRIG(Cosh, 7, ASCENDC_TRIG_REUSE, (void)0)
ASCENDC_ADV_TRIG(Tanh, 8, ASCENDC_TRIG_CONFIG(TanhConfig, DEFAULT_TANH_CONFIG),
                 ASCENDC_TRIG_DEFAULT_ONLY(Tanh, TanhAlgo::INTRINSIC))
ASCENDC_ADV_TRIG(Asinh, 9, ASCENDC_TRIG_REUSE, (void)0)
ASCENDC_ADV_TRIG(Acosh, 10, ASCENDC_TRIG_REUSE, (void)0)
ASCENDC_ADV_TRIG(Atanh, 11, ASCENDC_TRIG_REUSE, (void)0)
}  // namespace AscendC

#undef ASCENDC_ADV_TRIG
#undef ASCENDC_TRIG_REUSE
#undef ASCENDC_TRIG_CONFIG
#undef ASCENDC_TRIG_DEFAULT_ONLY
