// Synchronisation: TQueSync, DataSyncBarrier, SetNextTaskStart / WaitPreTaskEnd, and
// deterministic block-ordered computation (InitDetermineComputeWorkspace, WaitPreBlock,
// NotifyNextBlock: the code between WaitPreBlock and NotifyNextBlock runs block by block in
// ascending GetBlockIdx() order, round after round).
#pragma once

#include "tensor.h"
#include "tpipe.h"

extern "C" {
int32_t ascendc_que_sync(uint8_t src, uint8_t dst, int32_t id, uint8_t wait, AscLoc loc);
int32_t ascendc_data_sync_barrier(uint8_t arg0, AscLoc loc);
int32_t ascendc_task_sync(uint8_t end, uint8_t aiv, uint8_t aic, uint8_t force, AscLoc loc);
int32_t ascendc_determine(uint8_t op, const AscGlobal* gm, const AscLocal* ub, AscLoc loc);
}

namespace AscendC {

// SetFlag / WaitFlag between a fixed pair of pipes: dst waits for src.
template <pipe_t src, pipe_t dst>
class TQueSync {
public:
    void SetFlag(TEventID id, detail::Loc loc = detail::Loc()) {
        detail::Check(ascendc_que_sync(src, dst, id, 0, loc));
    }
    void WaitFlag(TEventID id, detail::Loc loc = detail::Loc()) {
        detail::Check(ascendc_que_sync(src, dst, id, 1, loc));
    }
};

// The memory accesses DataSyncBarrier waits for.
enum class MemDsbT : uint8_t { ALL = 0, DDR, UB, SEQ };

// Later instructions wait until earlier accesses to arg0's memory are done (A2/A3/310B).
template <MemDsbT arg0>
void DataSyncBarrier(detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_data_sync_barrier(static_cast<uint8_t>(arg0), loc));
}

#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 1001 || __NPU_ARCH__ == 2002)
#define ASCENDC_TASK_AIC_PIPE PIPE_MTE3
#else
#define ASCENDC_TASK_AIC_PIPE PIPE_FIX
#endif

// SuperKernel early start: later work on AIV_PIPE / AIC_PIPE may overlap the next sub-kernel.
// Once per core. One kernel runs per launch here, so nothing overlaps.
template <pipe_t AIV_PIPE = PIPE_MTE3, pipe_t AIC_PIPE = ASCENDC_TASK_AIC_PIPE, bool FORCE = false>
void SetNextTaskStart(detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_task_sync(0, AIV_PIPE, AIC_PIPE, FORCE ? 1 : 0, loc));
}

#undef ASCENDC_TASK_AIC_PIPE

// SuperKernel early start: earlier work may overlap the previous sub-kernel. Once per core.
template <bool FORCE = false>
void WaitPreTaskEnd(detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_task_sync(1, 0, 0, FORCE ? 1 : 0, loc));
}

namespace detail {
inline void Determine(uint8_t op, const GlobalTensor<int32_t>& gm, const LocalTensor<int32_t>& ub, Loc loc) {
    RawGlobal g = gm.Raw();
    Check(ascendc_determine(op, &g, &ub.Raw(), loc));
}
}  // namespace detail

// Starts block-ordered computation: gmWorkspace >= vector blocks * 32 bytes (any content),
// ubWorkspace >= vector blocks * 32 + 32 bytes (310P, A2, A3).
inline void InitDetermineComputeWorkspace(const GlobalTensor<int32_t>& gmWorkspace,
                                          const LocalTensor<int32_t>& ubWorkspace, detail::Loc loc = detail::Loc()) {
    detail::Determine(0, gmWorkspace, ubWorkspace, loc);
}

// Waits for the previous block's turn (block 0: the last block's previous turn).
inline void WaitPreBlock(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
                         detail::Loc loc = detail::Loc()) {
    detail::Determine(1, gmWorkspace, ubWorkspace, loc);
}

// Ends this block's turn.
inline void NotifyNextBlock(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
                            detail::Loc loc = detail::Loc()) {
    detail::Determine(2, gmWorkspace, ubWorkspace, loc);
}

}  // namespace AscendC
