//! `PipeBarrier`, `SetFlag` / `WaitFlag`, `GetBlockIdx` / `GetBlockNum`.

use crate::abi::{call, AscLoc};
use ascendc::error::{Category, SimError};
use ascendc::{
    get_block_idx, get_block_num, get_sub_block_idx, get_task_ratio, pipe_barrier, set_flag,
    wait_flag, HardEvent, Pipe,
};

/// The `HardEvent` with C++ index `i`.
pub fn event(i: u8, api: &'static str) -> Result<HardEvent, SimError> {
    HardEvent::ALL
        .get(i as usize)
        .copied()
        .ok_or_else(|| SimError::new(Category::Range, api, format!("invalid HardEvent index {i}")))
}

/// `PipeBarrier<pipe>()`, `pipe` in `Pipe` order (`PIPE_S` = 0 … `PIPE_ALL` = 7).
#[no_mangle]
pub extern "C" fn ascendc_pipe_barrier(pipe: u8, loc: AscLoc) -> i32 {
    call(loc, || {
        let p = Pipe::ALL_PIPES.get(pipe as usize).copied().ok_or_else(|| {
            SimError::new(
                Category::Range,
                "PipeBarrier",
                format!("invalid pipe index {pipe}"),
            )
        })?;
        pipe_barrier(p)
    })
}

/// `SetFlag<event>(id)` (`wait` = 0) or `WaitFlag<event>(id)` (`wait` = 1).
#[no_mangle]
pub extern "C" fn ascendc_flag(event_idx: u8, id: u32, wait: u8, loc: AscLoc) -> i32 {
    call(loc, || {
        if wait == 0 {
            set_flag(event(event_idx, "SetFlag")?, id)
        } else {
            wait_flag(event(event_idx, "WaitFlag")?, id)
        }
    })
}

/// `GetBlockIdx()`.
#[no_mangle]
pub extern "C" fn ascendc_get_block_idx() -> u32 {
    get_block_idx()
}

/// `GetBlockNum()`.
#[no_mangle]
pub extern "C" fn ascendc_get_block_num() -> u32 {
    get_block_num()
}

/// `GetSubBlockIdx()`.
#[no_mangle]
pub extern "C" fn ascendc_get_sub_block_idx() -> u32 {
    get_sub_block_idx()
}

/// `GetTaskRatio()`.
#[no_mangle]
pub extern "C" fn ascendc_get_task_ratio() -> u32 {
    get_task_ratio()
}
