//! `PipeBarrier`, `SetFlag` / `WaitFlag`, `GetBlockIdx` / `GetBlockNum`.

use crate::abi::{call, AscLoc};
use ascendc::error::{Category, SimError};
use ascendc::{
    get_block_idx, get_block_num, get_sub_block_idx, get_task_ratio, pipe_barrier, set_flag,
    wait_flag, HardEvent, Pipe,
};

const EVENTS: [HardEvent; HardEvent::COUNT] = {
    use HardEvent::*;
    [
        MTE2_MTE1, MTE1_MTE2, MTE1_M, M_MTE1, MTE2_V, V_MTE2, MTE3_V, V_MTE3, M_V, V_M, V_V,
        MTE3_MTE1, MTE1_MTE3, MTE1_V, MTE2_M, M_MTE2, V_MTE1, M_FIX, FIX_M, MTE3_MTE2, MTE2_MTE3,
        S_V, V_S, S_MTE2, MTE2_S, S_MTE3, MTE3_S, MTE2_FIX, FIX_MTE2, FIX_S, M_S, FIX_MTE3,
        MTE1_FIX, FIX_MTE1, FIX_FIX,
    ]
};

/// The `HardEvent` with C++ index `i`.
pub fn event(i: u8, api: &'static str) -> Result<HardEvent, SimError> {
    EVENTS
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
