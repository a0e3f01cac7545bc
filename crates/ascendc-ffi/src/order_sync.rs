//! Synchronisation for C++ kernels: `TQueSync`, `DataSyncBarrier`, `SetNextTaskStart`,
//! `WaitPreTaskEnd`, `InitDetermineComputeWorkspace`, `WaitPreBlock`, `NotifyNextBlock`.

use crate::abi::{call, AscGlobal, AscLoc, AscLocal};
use crate::gm::global;
use ascendc::{Category, MemDsbT, Pipe, SimError, TQueSync};

fn pipe(i: u8, api: &'static str) -> Result<Pipe, SimError> {
    Pipe::ALL_PIPES
        .get(i as usize)
        .copied()
        .ok_or_else(|| SimError::new(Category::Range, api, format!("invalid pipe index {i}")))
}

/// `TQueSync<src, dst>::SetFlag(id)` (`wait` = 0) or `::WaitFlag(id)` (1); pipes in `pipe_t`
/// order.
#[no_mangle]
pub extern "C" fn ascendc_que_sync(src: u8, dst: u8, id: i32, wait: u8, loc: AscLoc) -> i32 {
    call(loc, || {
        let s = TQueSync::new(pipe(src, "TQueSync")?, pipe(dst, "TQueSync")?);
        let id = u32::try_from(id).map_err(|_| SimError::range("TQueSync", "id", id, "≥ 0"))?;
        if wait == 0 {
            s.set_flag(id)
        } else {
            s.wait_flag(id)
        }
    })
}

/// `DataSyncBarrier<arg0>()`: 0 `ALL`, 1 `DDR`, 2 `UB`, 3 `SEQ`.
#[no_mangle]
pub extern "C" fn ascendc_data_sync_barrier(arg0: u8, loc: AscLoc) -> i32 {
    call(loc, || {
        let m = match arg0 {
            0 => MemDsbT::ALL,
            1 => MemDsbT::DDR,
            2 => MemDsbT::UB,
            3 => MemDsbT::SEQ,
            _ => return Err(SimError::range("DataSyncBarrier", "arg0", arg0, "0 to 3")),
        };
        ascendc::data_sync_barrier(m)
    })
}

/// `SetNextTaskStart<aiv, aic, force>()` (`end` = 0) or `WaitPreTaskEnd<force>()` (1).
#[no_mangle]
pub extern "C" fn ascendc_task_sync(end: u8, aiv: u8, aic: u8, force: u8, loc: AscLoc) -> i32 {
    call(loc, || {
        if end == 0 {
            ascendc::set_next_task_start(
                pipe(aiv, "SetNextTaskStart")?,
                pipe(aic, "SetNextTaskStart")?,
                force != 0,
            )
        } else {
            ascendc::wait_pre_task_end(force != 0)
        }
    })
}

/// `InitDetermineComputeWorkspace` (`op` = 0), `WaitPreBlock` (1), `NotifyNextBlock` (2) on
/// int32 workspaces.
///
/// # Safety
/// `gm` and `ub` are valid for reads.
#[no_mangle]
pub unsafe extern "C" fn ascendc_determine(
    op: u8,
    gm: *const AscGlobal,
    ub: *const AscLocal,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let api = match op {
            0 => "InitDetermineComputeWorkspace",
            1 => "WaitPreBlock",
            _ => "NotifyNextBlock",
        };
        let g = global::<i32>(api, &*gm)?;
        let u = (*ub).tensor::<i32>()?;
        match op {
            0 => ascendc::init_determine_compute_workspace(&g, &u),
            1 => ascendc::wait_pre_block(&g, &u),
            _ => ascendc::notify_next_block(&g, &u),
        }
    })
}
