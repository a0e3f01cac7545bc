//! `GroupBarrier<pipeMode>` behind an opaque handle owned by the C++ object.

use crate::abi::{call, AscLoc};
use crate::gm::lookup;
use ascendc::error::{Category, SimError};
use ascendc::{GroupBarrier, PipeMode, TPipe};

/// `GroupBarrier<mode>(groupWorkspace, arriveSize, waitSize)` on the kernel's pipe (`pipe` null:
/// no TPipe, an error); the object in `*out`. `mode` in `PipeMode` order.
///
/// # Safety
/// `pipe` null or from `ascendc_pipe_new`; `out` writable.
#[no_mangle]
pub unsafe extern "C" fn ascendc_group_barrier_new(
    pipe: *const TPipe,
    mode: u8,
    workspace: *const u8,
    arrive_size: u32,
    wait_size: u32,
    out: *mut *mut GroupBarrier,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let pipe = pipe.as_ref().ok_or_else(|| {
            SimError::new(
                Category::QueueState,
                "GroupBarrier",
                "no TPipe exists in this kernel: the barrier takes its event IDs from GetTPipePtr() and keeps the end of the pipe's UB",
            )
        })?;
        let mode = match mode {
            0 => PipeMode::SCALAR_MODE,
            1 => PipeMode::MTE3_MODE,
            _ => PipeMode::MAX,
        };
        let ws = lookup("GroupBarrier", workspace)?;
        *out = Box::into_raw(Box::new(GroupBarrier::new(
            pipe,
            mode,
            &ws,
            arrive_size,
            wait_size,
        )?));
        Ok(())
    })
}

/// Destroys a barrier from [`ascendc_group_barrier_new`] (null: nothing).
///
/// # Safety
/// `barrier` null or from [`ascendc_group_barrier_new`], not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn ascendc_group_barrier_free(barrier: *mut GroupBarrier) {
    if !barrier.is_null() {
        drop(Box::from_raw(barrier));
    }
}

/// `Arrive(index)` (`wait` = 0) or `Wait(index)` (`wait` = 1).
///
/// # Safety
/// `barrier` from [`ascendc_group_barrier_new`].
#[no_mangle]
pub unsafe extern "C" fn ascendc_group_barrier_sync(
    barrier: *mut GroupBarrier,
    wait: u8,
    index: u32,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let b = &mut *barrier;
        if wait == 0 {
            b.arrive(index)
        } else {
            b.wait(index)
        }
    })
}

/// `GetWorkspaceLen()`.
///
/// # Safety
/// `barrier` from [`ascendc_group_barrier_new`].
#[no_mangle]
pub unsafe extern "C" fn ascendc_group_barrier_workspace_len(barrier: *const GroupBarrier) -> u64 {
    (*barrier).get_workspace_len()
}
