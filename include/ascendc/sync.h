// PipeBarrier, SetFlag / WaitFlag and the block index queries.
#pragma once

#include "types.h"

namespace AscendC {

template <pipe_t pipe>
void PipeBarrier(detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_pipe_barrier(pipe, loc));
}

template <HardEvent event>
void SetFlag(int32_t eventID, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_flag(static_cast<uint8_t>(event), static_cast<uint32_t>(eventID), 0, loc));
}

template <HardEvent event>
void WaitFlag(int32_t eventID, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_flag(static_cast<uint8_t>(event), static_cast<uint32_t>(eventID), 1, loc));
}

inline int64_t GetBlockIdx() { return ascendc_get_block_idx(); }
inline int64_t GetBlockNum() { return ascendc_get_block_num(); }
inline int64_t GetSubBlockIdx() { return ascendc_get_sub_block_idx(); }
inline int64_t GetTaskRatio() { return ascendc_get_task_ratio(); }

}  // namespace AscendC

// The device compiler's built-in block variables, per block as on the device: `block_idx` is the
// index of the running block (of its AIC/AIV group in a mixed launch: GetBlockIdx() on a vector
// core of a 1:2 group is block_idx * 2 + sub_block_idx), `block_num` the number launched. Set by
// the launch trampoline before the kernel body runs.
inline thread_local int64_t block_idx = 0;
inline thread_local int64_t block_num = 1;
inline thread_local int64_t sub_block_idx = 0;

// The older spelling of PipeBarrier.
inline void pipe_barrier(pipe_t pipe, AscendC::detail::Loc loc = AscendC::detail::Loc()) {
    AscendC::detail::Check(ascendc_pipe_barrier(pipe, loc));
}
