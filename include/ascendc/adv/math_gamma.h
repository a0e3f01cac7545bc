// High-level math API, gamma functions: Digamma and Lgamma (half/float; A2, A3, 310P). Each has
// the vendor's two overloads: with sharedTmpBuffer, or with the pipe's stack buffer; both take
// calCount and isReuseSource (float only: the call may use srcTensor as scratch).
#pragma once

#include "common.h"

extern "C" {
int32_t ascendc_adv_gamma(uint8_t op, uint8_t elem, const AscLocal* dst, const AscLocal* src, const AscLocal* tmp,
                          const void* pipe, uint32_t count, AscLoc loc);
}

namespace AscendC {
namespace detail {
// The C ABI's `op` of a gamma API: bit 7 carries isReuseSource.
constexpr uint8_t GammaOp(uint8_t op, bool isReuseSource) {
    return static_cast<uint8_t>(op | (isReuseSource ? 0x80 : 0));
}
}  // namespace detail
}  // namespace AscendC

#define ASCENDC_ADV_GAMMA(Name, op)                                                                       \
    template <typename T, bool isReuseSource = false>                                                    \
    void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                            \
              const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,                        \
              detail::Loc loc = detail::Loc()) {                                                            \
        detail::AdvUnary<T>(ascendc_adv_gamma, detail::GammaOp(op, isReuseSource), dstTensor, srcTensor,   \
                            &sharedTmpBuffer, calCount, loc);                                             \
    }                                                                                                     \
    template <typename T, bool isReuseSource = false>                                                    \
    void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount,  \
              detail::Loc loc = detail::Loc()) {                                                            \
        detail::AdvUnary<T>(ascendc_adv_gamma, detail::GammaOp(op, isReuseSource), dstTensor, srcTensor,   \
                            nullptr, calCount, loc);                                                      \
    }

namespace AscendC {
ASCENDC_ADV_GAMMA(Digamma, 0)
ASCENDC_ADV_GAMMA(Lgamma, 1)
}  // namespace AscendC

#undef ASCENDC_ADV_GAMMA
