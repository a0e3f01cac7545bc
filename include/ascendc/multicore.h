// Multi-core kernels: SyncAll (hardware and software forms), IBSet / IBWait,
// CrossCoreSetFlag / CrossCoreWaitFlag between cube and vector cores, and the GM atomics
// (SetAtomicAdd / Max / Min / Type, DisableDmaAtomic) applied to every later DMA write to GM.
#pragma once

#include "tensor.h"

extern "C" {
int32_t ascendc_sync_all(uint8_t aivOnly, AscLoc loc);
int32_t ascendc_sync_all_soft(const AscGlobal* gm, const AscLocal* ub, int32_t usedCores, AscLoc loc);
int32_t ascendc_ib(uint8_t wait, const AscGlobal* gm, const AscLocal* ub, int32_t blockIdx, int32_t eventID,
                   AscLoc loc);
int32_t ascendc_cross_core_flag(uint8_t wait, uint8_t mode, uint8_t pipe, uint16_t flagId, AscLoc loc);
int32_t ascendc_set_atomic(uint8_t op, uint8_t elem, AscLoc loc);
}

namespace AscendC {

// Hardware barrier of every vector core (isAIVOnly = true) or of every cube and vector core of a
// mixed kernel (false). A2/A3 only; blockDim must not exceed the core count.
template <bool isAIVOnly = true>
void SyncAll(detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_sync_all(isAIVOnly ? 1 : 0, loc));
}

// Software barrier of the first usedCores vector blocks (0: all). gmWorkspace: at least
// GetBlockNum() * 32 bytes, zero before the first call; ubWorkspace: GetBlockNum() * 32 bytes.
template <bool isAIVOnly = true>
void SyncAll(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
             const int32_t usedCores = 0, detail::Loc loc = detail::Loc()) {
    detail::RawGlobal g = gmWorkspace.Raw();
    detail::Check(ascendc_sync_all_soft(&g, &ubWorkspace.Raw(), usedCores, loc));
}

// Block blockIdx signals eventID through its 32-byte slot of the zeroed gmWorkspace: waits until
// the slot reads 0 (its earlier IBSet consumed by an IBWait), then writes 1.
template <bool isAIVOnly = true>
void IBSet(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace, int32_t blockIdx,
           int32_t eventID, detail::Loc loc = detail::Loc()) {
    detail::RawGlobal g = gmWorkspace.Raw();
    detail::Check(ascendc_ib(0, &g, &ubWorkspace.Raw(), blockIdx, eventID, loc));
}

// Waits until the slot of block blockIdx and eventID reads 1 (its IBSet), then writes 0: each
// IBWait consumes one IBSet.
template <bool isAIVOnly = true>
void IBWait(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace, int32_t blockIdx,
            int32_t eventID, detail::Loc loc = detail::Loc()) {
    detail::RawGlobal g = gmWorkspace.Raw();
    detail::Check(ascendc_ib(1, &g, &ubWorkspace.Raw(), blockIdx, eventID, loc));
}

// Reports flagId (0-15) once pipe's earlier work is done. modeId 0: all cores of this kind;
// 1: the vector cores of one AI Core; 2: AIC <-> its AIVs. A2/A3.
template <uint8_t modeId, pipe_t pipe>
void CrossCoreSetFlag(uint16_t flagId, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_cross_core_flag(0, modeId, pipe, flagId, loc));
}

// Blocks this core until its counter of flagId is non-zero, then takes one count.
template <uint8_t modeId = 0, pipe_t pipe = PIPE_V>
void CrossCoreWaitFlag(uint16_t flagId, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_cross_core_flag(1, modeId, pipe, flagId, loc));
}

// Later DMA writes to GM add their T elements to GM's (one rounding per element).
template <typename T>
void SetAtomicAdd(detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_set_atomic(1, detail::dtype<T>, loc));
}

// Later DMA writes to GM keep the larger of data and GM (A2/A3).
template <typename T>
void SetAtomicMax(detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_set_atomic(2, detail::dtype<T>, loc));
}

// Later DMA writes to GM keep the smaller of data and GM (A2/A3).
template <typename T>
void SetAtomicMin(detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_set_atomic(3, detail::dtype<T>, loc));
}

// The element type of the atomic operation in force.
template <typename T>
void SetAtomicType(detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_set_atomic(4, detail::dtype<T>, loc));
}

// Later DMA writes to GM overwrite again.
inline void DisableDmaAtomic(detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_set_atomic(0, 0, loc));
}

// The former name of DisableDmaAtomic.
inline void SetAtomicNone(detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_set_atomic(5, 0, loc));
}

}  // namespace AscendC
