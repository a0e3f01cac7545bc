// High-level API, tensor transform (张量变换): Broadcast of a 1-D or 2-D tensor along axis 0 or 1 (1-, 2- and
// 4-byte elements; A2, A3, 310P), with and without sharedTmpBuffer.
#pragma once

#include "common.h"

extern "C" {
int32_t ascendc_adv_broadcast(uint8_t elem, uint32_t dim, uint32_t axis, const AscLocal* dst, const AscLocal* src,
                              const uint32_t* dstShape, const uint32_t* srcShape, const AscLocal* tmp,
                              const void* pipe, AscLoc loc);
}

namespace AscendC {
// The tiling of the any-rank Broadcast (Ascend 950 only).
struct BroadcastTiling {
    uint32_t oriRank;
    uint32_t rank;
    uint32_t dstSize;
    uint32_t srcSize;
    uint32_t loopNum = 0;
    uint32_t oriSrcShape[9];
    uint32_t oriDstShape[9];
    uint32_t dstShape[9];
    uint32_t dstStride[9];
    uint32_t srcStride[10];
};

// dst (dstShape) = src (srcShape) repeated along `axis`; dim is 1 or 2.
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim],
               const uint32_t srcShape[dim], LocalTensor<uint8_t>& sharedTmpBuffer, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_adv_broadcast(detail::dtype<T>, dim, axis, &dstLocal.Raw(), &srcLocal.Raw(), dstShape,
                                        srcShape, &sharedTmpBuffer.Raw(), detail::PipeHandle(), loc));
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dstShape[dim],
               const uint32_t srcShape[dim], detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_adv_broadcast(detail::dtype<T>, dim, axis, &dstLocal.Raw(), &srcLocal.Raw(), dstShape,
                                        srcShape, nullptr, detail::PipeHandle(), loc));
}

// Any-rank Broadcast with a BroadcastTiling (Ascend 950 only): declared so that code naming it compiles to a
// clear error.
template <typename T, int constRank = -1, uint32_t* constDstShape = nullptr, uint32_t* constSrcShape = nullptr>
void GetBroadcastTilingInfo(uint32_t, const uint32_t*, const uint32_t*, bool, BroadcastTiling&) {
    static_assert(sizeof(T) == 0, "GetBroadcastTilingInfo is only on Ascend 950, not simulated");
}
template <typename T, int constRank = -1, uint32_t* constDstShape = nullptr, uint32_t* constSrcShape = nullptr,
          bool constSrcInnerPad = false>
void Broadcast(const LocalTensor<T>&, const LocalTensor<T>&, const uint32_t*, const uint32_t*, BroadcastTiling*) {
    static_assert(sizeof(T) == 0, "Broadcast with a BroadcastTiling is only on Ascend 950, not simulated");
}
}  // namespace AscendC
