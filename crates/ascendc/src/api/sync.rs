//! Synchronisation and block queries: `PipeBarrier`, `SetFlag`/`WaitFlag`, `GetBlockIdx`,
//! `GetBlockNum`.

use super::context::{try_with_core, with_core};
use crate::core::trace::{HardEvent, Pipe};
use crate::error::{Category, Result, SimError, SourceLoc};

/// `PipeBarrier<pipe>()`: later instructions of `pipe` wait until its earlier ones have finished
/// (`Pipe::ALL` waits for every pipe). `PIPE_S` is not allowed.
#[track_caller]
pub fn pipe_barrier(pipe: Pipe) -> Result<()> {
    let loc = SourceLoc::caller();
    with_core("PipeBarrier", loc, |core| {
        if pipe == Pipe::S {
            return Err(SimError::new(
                Category::Sync,
                "PipeBarrier",
                "PIPE_S is not allowed: the scalar pipe is always in order",
            ));
        }
        core.barrier(pipe, "PipeBarrier", loc);
        Ok(())
    })
}

/// `SetFlag<event>(id)`: an instruction on the event's first pipe that signals `id` once that
/// pipe's earlier instructions are done.
#[track_caller]
pub fn set_flag(event: HardEvent, id: u32) -> Result<()> {
    let loc = SourceLoc::caller();
    with_core("SetFlag", loc, |core| {
        check_id(core.profile.max_event_ids, id, "SetFlag")?;
        core.kernel_set_flag(event, id, loc);
        Ok(())
    })
}

/// `WaitFlag<event>(id)`: the event's second pipe waits for the matching `SetFlag`.
#[track_caller]
pub fn wait_flag(event: HardEvent, id: u32) -> Result<()> {
    let loc = SourceLoc::caller();
    with_core("WaitFlag", loc, |core| {
        check_id(core.profile.max_event_ids, id, "WaitFlag")?;
        core.kernel_wait_flag(event, id, loc)
    })
}

fn check_id(max: u32, id: u32, api: &'static str) -> Result<()> {
    if id >= max {
        Err(SimError::range(api, "eventID", id, format!("[0, {max})")))
    } else {
        Ok(())
    }
}

/// `GetBlockIdx()`: index of the running block, in `[0, GetBlockNum())` (0 outside a launch).
pub fn get_block_idx() -> u32 {
    try_with_core(|c| c.block_idx).unwrap_or(0)
}

/// `GetSubBlockIdx()`: 0 or 1 on the vector cores of a 1:2 mixed group, 0 elsewhere.
pub fn get_sub_block_idx() -> u32 {
    try_with_core(|c| c.id.sub_block_idx).unwrap_or(0)
}

/// `GetTaskRatio()`: 2 on the vector cores of a 1:2 mixed group, 1 elsewhere.
pub fn get_task_ratio() -> u32 {
    try_with_core(|c| c.id.task_ratio).unwrap_or(1)
}

/// `GetBlockNum()`: number of blocks launched (1 outside a launch).
pub fn get_block_num() -> u32 {
    try_with_core(|c| c.block_num).unwrap_or(1)
}
