// What the high-level API headers share: the call of an element-wise API through the C ABI
// (its temporary buffer, or the kernel pipe's stack buffer when none is given), and macros
// declaring the vendor's overloads of an element-wise API.
#pragma once

#include "../tpipe.h"

namespace AscendC {
namespace detail {

// The kernel pipe's handle, or null without a TPipe: its stack buffer is the temporary space of a
// call given no sharedTmpBuffer.
inline const void* PipeHandle() { return currentPipe != nullptr ? currentPipe->Handle() : nullptr; }

// One C ABI entry of an element-wise family: `op` selects the API; `tmp` null takes the
// stack buffer of `pipe`.
using AdvUnaryFn = int32_t (*)(uint8_t op, uint8_t elem, const AscLocal* dst, const AscLocal* src,
                               const AscLocal* tmp, const void* pipe, uint32_t count, AscLoc loc);

template <typename T>
inline void AdvUnary(AdvUnaryFn f, uint8_t op, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                     const LocalTensor<uint8_t>* tmp, uint32_t count, Loc loc) {
    Check(f(op, dtype<T>, &dst.Raw(), &src.Raw(), tmp != nullptr ? &tmp->Raw() : nullptr, PipeHandle(), count, loc));
}

// The host helpers' C ABI: bytes of temporary space for `elements` elements of `typeSize`
// bytes (`Get<Api>MaxMinTmpSize`), and its factors (`Get<Api>TmpBufferFactorSize`).
using AdvTmpSizeFn = void (*)(uint8_t op, uint32_t elements, uint32_t typeSize, bool isReuseSource,
                              uint32_t* maxValue, uint32_t* minValue);
using AdvTmpFactorFn = void (*)(uint8_t op, uint32_t typeSize, uint32_t* maxLiveNodeCount, uint32_t* extraBuf);

}  // namespace detail
}  // namespace AscendC

// `Name(dst, src, sharedTmpBuffer, calCount)` and `Name(dst, src, calCount)`.
#define ASCENDC_ADV_UNARY(Name, fn, op)                                                                   \
    template <typename T, bool isReuseSource = false>                                                    \
    void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                            \
              const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,                        \
              detail::Loc loc = detail::Loc()) {                                                            \
        detail::AdvUnary<T>(fn, op, dstTensor, srcTensor, &sharedTmpBuffer, calCount, loc);              \
    }                                                                                                     \
    template <typename T, bool isReuseSource = false>                                                    \
    void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount,  \
              detail::Loc loc = detail::Loc()) {                                                            \
        detail::AdvUnary<T>(fn, op, dstTensor, srcTensor, nullptr, calCount, loc);                         \
    }

// ASCENDC_ADV_UNARY plus the forms without calCount (`srcTensor.GetSize()` elements).
#define ASCENDC_ADV_UNARY_ALL(Name, fn, op)                                                               \
    ASCENDC_ADV_UNARY(Name, fn, op)                                                                       \
    template <typename T, bool isReuseSource = false>                                                    \
    void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                            \
              const LocalTensor<uint8_t>& sharedTmpBuffer, detail::Loc loc = detail::Loc()) {             \
        detail::AdvUnary<T>(fn, op, dstTensor, srcTensor, &sharedTmpBuffer, srcTensor.GetSize(), loc);    \
    }                                                                                                     \
    template <typename T, bool isReuseSource = false>                                                    \
    void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                            \
              detail::Loc loc = detail::Loc()) {                                                            \
        detail::AdvUnary<T>(fn, op, dstTensor, srcTensor, nullptr, srcTensor.GetSize(), loc);              \
    }

// The host helpers `Get<Name>MaxMinTmpSize` (ge::Shape / AscendC::TensorShape form) and
// `Get<Name>TmpBufferFactorSize`.
#define ASCENDC_ADV_TMP_SIZE(Name, sizeFn, factorFn, op)                                                   \
    inline void Get##Name##MaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,              \
                                         const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) { \
        sizeFn(op, static_cast<uint32_t>(srcShape.GetShapeSize()), typeSize, isReuseSource, &maxValue,       \
               &minValue);                                                                                 \
    }                                                                                                     \
    inline void Get##Name##TmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,         \
                                               uint32_t& extraBuf) {                                        \
        factorFn(op, typeSize, &maxLiveNodeCount, &extraBuf);                                             \
    }
