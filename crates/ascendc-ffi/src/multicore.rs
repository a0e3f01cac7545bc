//! `SyncAll`, `IBSet`/`IBWait`, `CrossCoreSetFlag`/`CrossCoreWaitFlag`, `SetAtomicAdd/Max/Min/
//! Type`, `DisableDmaAtomic`.

use crate::abi::{call, dtype, AscGlobal, AscLoc, AscLocal};
use crate::gm::global;
use crate::with_dtype;
use ascendc::error::{Category, SimError};
use ascendc::{
    cross_core_set_flag, cross_core_wait_flag, disable_dma_atomic, ib_set, ib_wait, set_atomic_add,
    set_atomic_max, set_atomic_min, set_atomic_none, set_atomic_type, sync_all, sync_all_mix,
    sync_all_soft, Pipe,
};

/// Hardware `SyncAll<isAIVOnly>()` (`aiv_only` = 1: the vector cores; 0: every core).
#[no_mangle]
pub extern "C" fn ascendc_sync_all(aiv_only: u8, loc: AscLoc) -> i32 {
    call(loc, || {
        if aiv_only != 0 {
            sync_all()
        } else {
            sync_all_mix()
        }
    })
}

/// Software `SyncAll(gmWorkspace, ubWorkspace, usedCores)` (int32 workspaces).
///
/// # Safety
/// `gm` and `ub` are valid for reads.
#[no_mangle]
pub unsafe extern "C" fn ascendc_sync_all_soft(
    gm: *const AscGlobal,
    ub: *const AscLocal,
    used_cores: i32,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let g = global::<i32>("SyncAll", &*gm)?;
        sync_all_soft(&g, &(*ub).tensor::<i32>()?, used_cores)
    })
}

/// `IBSet` (`wait` = 0) or `IBWait` (`wait` = 1) on int32 workspaces.
///
/// # Safety
/// `gm` and `ub` are valid for reads.
#[no_mangle]
pub unsafe extern "C" fn ascendc_ib(
    wait: u8,
    gm: *const AscGlobal,
    ub: *const AscLocal,
    block_idx: i32,
    event_id: i32,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let api = if wait == 0 { "IBSet" } else { "IBWait" };
        let g = global::<i32>(api, &*gm)?;
        let u = (*ub).tensor::<i32>()?;
        if wait == 0 {
            ib_set(&g, &u, block_idx, event_id)
        } else {
            ib_wait(&g, &u, block_idx, event_id)
        }
    })
}

/// `CrossCoreSetFlag<mode, pipe>(flagId)` (`wait` = 0) or `CrossCoreWaitFlag` (`wait` = 1);
/// `pipe` in `Pipe` order (`PIPE_S` = 0 … `PIPE_ALL` = 7).
#[no_mangle]
pub extern "C" fn ascendc_cross_core_flag(
    wait: u8,
    mode: u8,
    pipe: u8,
    flag_id: u16,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let api = if wait == 0 {
            "CrossCoreSetFlag"
        } else {
            "CrossCoreWaitFlag"
        };
        let p = Pipe::ALL_PIPES.get(pipe as usize).copied().ok_or_else(|| {
            SimError::new(Category::Range, api, format!("invalid pipe index {pipe}"))
        })?;
        if wait == 0 {
            cross_core_set_flag(mode, p, flag_id)
        } else {
            cross_core_wait_flag(mode, p, flag_id)
        }
    })
}

/// GM atomic mode: `op` 0 = `DisableDmaAtomic`, 1 = `SetAtomicAdd<T>`, 2 = `SetAtomicMax<T>`,
/// 3 = `SetAtomicMin<T>`, 4 = `SetAtomicType<T>`, 5 = `SetAtomicNone`; `elem` the `DType` of `T`.
#[no_mangle]
pub extern "C" fn ascendc_set_atomic(op: u8, elem: u8, loc: AscLoc) -> i32 {
    call(loc, || match op {
        0 => disable_dma_atomic(),
        5 => set_atomic_none(),
        1..=4 => with_dtype!(dtype(elem)?, T => match op {
            1 => set_atomic_add::<T>(),
            2 => set_atomic_max::<T>(),
            3 => set_atomic_min::<T>(),
            _ => set_atomic_type::<T>(),
        }),
        _ => Err(SimError::new(
            Category::Range,
            "SetAtomic",
            format!("invalid atomic operation index {op}"),
        )),
    })
}
