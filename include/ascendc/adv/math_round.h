// High-level math API, rounding, sign and remainder: Floor, Ceil, Trunc, Round, Frac, Sign,
// Fmod, Xor, ClampMax, ClampMin, Axpy (A2, A3, 310P; Xor also 310B).
#pragma once

#include "common.h"

extern "C" {
int32_t ascendc_adv_round(uint8_t op, uint8_t elem, const AscLocal* dst, const AscLocal* src, const AscLocal* tmp,
                          const void* pipe, uint32_t count, AscLoc loc);
int32_t ascendc_adv_round_binary(uint8_t op, uint8_t elem, const AscLocal* dst, const AscLocal* src0,
                                 const AscLocal* src1, const AscLocal* tmp, const void* pipe, uint32_t count,
                                 AscLoc loc);
int32_t ascendc_adv_round_clamp(uint8_t op, uint8_t elem, const AscLocal* dst, const AscLocal* src,
                                const AscLocal* tmp, const void* pipe, float scalar, uint32_t count, AscLoc loc);
int32_t ascendc_adv_axpy(uint8_t dstElem, uint8_t srcElem, const AscLocal* dst, const AscLocal* src, float scalar,
                         const AscLocal* tmp, const void* pipe, uint32_t count, AscLoc loc);
}

namespace AscendC {
ASCENDC_ADV_UNARY(Floor, ascendc_adv_round, 0)
ASCENDC_ADV_UNARY(Ceil, ascendc_adv_round, 1)
ASCENDC_ADV_UNARY_ALL(Trunc, ascendc_adv_round, 2)
ASCENDC_ADV_UNARY(Round, ascendc_adv_round, 3)
ASCENDC_ADV_UNARY_ALL(Frac, ascendc_adv_round, 4)
ASCENDC_ADV_UNARY_ALL(Sign, ascendc_adv_round, 5)

// Fmod's algorithm choice (used on Ascend 950; accepted and ignored here).
constexpr uint32_t FMOD_ITERATION_NUM_MAX = 11;
enum class FmodAlgo {
    NORMAL = 0,
    ITERATION_COMPENSATION = 1,
};
struct FmodConfig {
    FmodAlgo algo = FmodAlgo::NORMAL;
    uint32_t iterationNum = FMOD_ITERATION_NUM_MAX;
};
constexpr FmodConfig DEFAULT_FMOD_CONFIG = {FmodAlgo::NORMAL, FMOD_ITERATION_NUM_MAX};

namespace detail {
template <typename T>
inline void AdvRoundBinary(uint8_t op, const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                           const LocalTensor<T>& src1, const LocalTensor<uint8_t>* tmp, uint32_t count, Loc loc) {
    const void* pipe = PipeHandle();
    Check(ascendc_adv_round_binary(op, dtype<T>, &dst.Raw(), &src0.Raw(), &src1.Raw(),
                                   tmp != nullptr ? &tmp->Raw() : nullptr, pipe, count, loc));
}

template <typename T>
inline void AdvClamp(uint8_t op, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                     const LocalTensor<uint8_t>* tmp, T scalar, uint32_t count, Loc loc) {
    const void* pipe = PipeHandle();
    Check(ascendc_adv_round_clamp(op, dtype<T>, &dst.Raw(), &src.Raw(), tmp != nullptr ? &tmp->Raw() : nullptr, pipe,
                                  static_cast<float>(scalar), count, loc));
}
}  // namespace detail

// `Name(dst, src0, src1, [sharedTmpBuffer,] [calCount])`, with `extra` template parameters.
#define ASCENDC_ADV_ROUND_BINARY(Name, op, ...)                                                            \
    template <typename T, bool isReuseSource = false __VA_ARGS__>                                       \
    void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,                           \
              const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,               \
              const uint32_t calCount, detail::Loc loc = detail::Loc()) {                                  \
        detail::AdvRoundBinary<T>(op, dstTensor, src0Tensor, src1Tensor, &sharedTmpBuffer, calCount, loc); \
    }                                                                                                     \
    template <typename T, bool isReuseSource = false __VA_ARGS__>                                       \
    void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,                           \
              const LocalTensor<T>& src1Tensor, const uint32_t calCount, detail::Loc loc = detail::Loc()) { \
        detail::AdvRoundBinary<T>(op, dstTensor, src0Tensor, src1Tensor, nullptr, calCount, loc);          \
    }                                                                                                     \
    template <typename T, bool isReuseSource = false __VA_ARGS__>                                       \
    void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,                           \
              const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,               \
              detail::Loc loc = detail::Loc()) {                                                           \
        detail::AdvRoundBinary<T>(op, dstTensor, src0Tensor, src1Tensor, &sharedTmpBuffer,                 \
                                  src0Tensor.GetSize(), loc);                                              \
    }                                                                                                     \
    template <typename T, bool isReuseSource = false __VA_ARGS__>                                       \
    void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,                           \
              const LocalTensor<T>& src1Tensor, detail::Loc loc = detail::Loc()) {                         \
        detail::AdvRoundBinary<T>(op, dstTensor, src0Tensor, src1Tensor, nullptr, src0Tensor.GetSize(), loc); \
    }

ASCENDC_ADV_ROUND_BINARY(Fmod, 6, , const FmodConfig& config = DEFAULT_FMOD_CONFIG)
ASCENDC_ADV_ROUND_BINARY(Xor, 7, )
#undef ASCENDC_ADV_ROUND_BINARY

// `ClampMax/ClampMin(dst, src, [sharedTmpBuffer,] scalar, calCount)`.
#define ASCENDC_ADV_CLAMP(Name, op)                                                                        \
    template <typename T, bool isReuseSource = false>                                                    \
    void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                            \
              const LocalTensor<uint8_t>& sharedTmpBuffer, const T scalar, const uint32_t calCount,        \
              detail::Loc loc = detail::Loc()) {                                                           \
        detail::AdvClamp<T>(op, dstTensor, srcTensor, &sharedTmpBuffer, scalar, calCount, loc);            \
    }                                                                                                     \
    template <typename T, bool isReuseSource = false>                                                    \
    void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const T scalar,           \
              const uint32_t calCount, detail::Loc loc = detail::Loc()) {                                  \
        detail::AdvClamp<T>(op, dstTensor, srcTensor, nullptr, scalar, calCount, loc);                     \
    }

ASCENDC_ADV_CLAMP(ClampMax, 8)
ASCENDC_ADV_CLAMP(ClampMin, 9)
#undef ASCENDC_ADV_CLAMP

// `Axpy<T, U, isReuseSource>(dst, src, scalarValue, sharedTmpBuffer, calCount)`: dst += scalar · src.
template <typename T, typename U, bool isReuseSource = false>
void Axpy(const LocalTensor<T>& dstTensor, const LocalTensor<U>& srcTensor, const U scalarValue,
          const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount, detail::Loc loc = detail::Loc()) {
    const void* pipe = detail::PipeHandle();
    detail::Check(ascendc_adv_axpy(detail::dtype<T>, detail::dtype<U>, &dstTensor.Raw(), &srcTensor.Raw(),
                                   static_cast<float>(scalarValue), &sharedTmpBuffer.Raw(), pipe, calCount, loc));
}
}  // namespace AscendC

extern "C" int32_t ascendc_adv_cumsum(uint8_t elem, const AscLocal* dst, const AscLocal* lastRow, const AscLocal* src,
                                      const AscLocal* tmp, const void* pipe, uint32_t outter, uint32_t inner,
                                      bool isLastAxis, bool outputLastRow, AscLoc loc);

namespace AscendC {
enum class CumSumAlgorithm { CUMSUM_ALGORITHM_LINEBYLINE = 0, CUMSUM_ALGORITHM_SKLANSKY = 1 };

// CumSum's options: the axis summed, reuse of the source (not used), a copy of the last row.
struct CumSumConfig {
    bool isLastAxis{true};
    bool isReuseSource{false};
    bool outputLastRow{false};
    CumSumAlgorithm algorithm{CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
};
constexpr CumSumConfig defaultCumSumConfig = {true, false, false, CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};

// The matrix CumSum sums: `outter` rows of `inner` elements (inner · sizeof(T) a multiple of 32).
struct CumSumInfo {
    uint32_t outter{0};
    uint32_t inner{0};
};

namespace detail {
template <typename T>
inline void AdvCumSum(const LocalTensor<T>& dst, const LocalTensor<T>& lastRow, const LocalTensor<T>& src,
                      const LocalTensor<uint8_t>* tmp, const CumSumInfo& info, const CumSumConfig& config, Loc loc) {
    const void* pipe = PipeHandle();
    Check(ascendc_adv_cumsum(dtype<T>, &dst.Raw(), &lastRow.Raw(), &src.Raw(), tmp != nullptr ? &tmp->Raw() : nullptr,
                             pipe, info.outter, info.inner, config.isLastAxis, config.outputLastRow, loc));
}
}  // namespace detail

template <typename T, const CumSumConfig& config = defaultCumSumConfig>
void CumSum(LocalTensor<T>& dstTensor, LocalTensor<T>& lastRowTensor, const LocalTensor<T>& srcTensor,
            LocalTensor<uint8_t>& sharedTmpBuffer, const CumSumInfo& cumSumInfo, detail::Loc loc = detail::Loc()) {
    detail::AdvCumSum<T>(dstTensor, lastRowTensor, srcTensor, &sharedTmpBuffer, cumSumInfo, config, loc);
}
template <typename T, const CumSumConfig& config = defaultCumSumConfig>
void CumSum(LocalTensor<T>& dstTensor, LocalTensor<T>& lastRowTensor, const LocalTensor<T>& srcTensor,
            const CumSumInfo& cumSumInfo, detail::Loc loc = detail::Loc()) {
    detail::AdvCumSum<T>(dstTensor, lastRowTensor, srcTensor, nullptr, cumSumInfo, config, loc);
}
}  // namespace AscendC
