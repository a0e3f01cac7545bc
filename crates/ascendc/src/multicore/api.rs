//! The kernel-facing multi-core API: `SyncAll`, `IBSet`/`IBWait`,
//! `CrossCoreSetFlag`/`CrossCoreWaitFlag`, `SetAtomicAdd/Max/Min/Type`, `DisableDmaAtomic`.

use super::atomic::{self, AtomicOp};
use super::sched::{self, BarrierKey, Sched};
use super::sync_support;
use crate::api::context::with_core;
use crate::api::tensor::{GlobalTensor, LocalTensor};
use crate::core::trace::Pipe;
use crate::core::{Core, CoreKind};
use crate::dtype::{DType, Element};
use crate::error::{Category, Result, Severity, SimError, SourceLoc};
use crate::gm::GmAddr;
use crate::position::TPosition;
use std::sync::Arc;

/// Bytes of GM workspace per core of a software `SyncAll`, and of one `IBSet` slot.
pub const SYNC_SLOT_BYTES: usize = 32;

/// Runs a cross-core synchronisation `f` of the current core, then notes the core's new vector
/// clock for the race check.
pub(crate) fn sync_op(
    api: &'static str,
    loc: SourceLoc,
    pipe: Pipe,
    f: impl FnOnce(&mut Core, &Arc<Sched>, usize) -> Result<()>,
) -> Result<()> {
    let sched = sched::current(api);
    with_core(api, loc, |core| {
        let (sched, me) = sched?;
        sched.check_resident(api)?;
        if pipe == Pipe::ALL {
            core.barrier(Pipe::ALL, api, loc);
        } else {
            core.issue(pipe, api, loc, &[]);
        }
        f(core, &sched, me)?;
        let at = core.trace.seq();
        core.trace.gm_fence();
        core.sync.clocks.push((at, sched.clock(me)));
        Ok(())
    })
}

fn unsupported(core: &Core, api: &'static str) -> SimError {
    SimError::new(
        Category::Unsupported,
        api,
        format!("{api} is not available on {}", core.profile),
    )
}

/// `SyncAll()` (`isAIVOnly = true`): waits until every vector core of the launch has reached a
/// `SyncAll` (A2/A3). Every block must be resident: blockDim must not exceed the AIV core count.
#[track_caller]
pub fn sync_all() -> Result<()> {
    hard_sync_all(true, SourceLoc::caller())
}

/// `SyncAll<false>()`: the barrier of a mixed kernel over every cube and vector core (A2/A3).
#[track_caller]
pub fn sync_all_mix() -> Result<()> {
    hard_sync_all(false, SourceLoc::caller())
}

fn hard_sync_all(aiv_only: bool, loc: SourceLoc) -> Result<()> {
    const API: &str = "SyncAll";
    sync_op(API, loc, Pipe::ALL, |core, sched, me| {
        if !sync_support(core.profile).hard_sync_all {
            return Err(SimError::new(
                Category::Unsupported,
                API,
                format!(
                    "the hardware SyncAll() is not available on {}: use the software form SyncAll(gmWorkspace, ubWorkspace, usedCores)",
                    core.profile
                ),
            ));
        }
        let key = if aiv_only {
            if core.id.kind == CoreKind::Aic {
                return Err(SimError::new(
                    Category::Sync,
                    API,
                    "SyncAll<isAIVOnly = true> on a cube core: a mixed kernel synchronises all cores with SyncAll<false>",
                ));
            }
            BarrierKey::Vector
        } else {
            BarrierKey::All
        };
        sched.barrier(me, key, 0, API, loc)
    })
}

/// Checks a workspace pair of `SyncAll`/`IBSet`/`IBWait`: GM bytes available from the tensor's
/// start (its `SetGlobalBuffer` size when given), and a UB tensor in a vector position.
pub(crate) fn workspace(
    api: &'static str,
    gm: &GlobalTensor<i32>,
    ub: &LocalTensor<i32>,
    gm_need: usize,
    ub_need: usize,
) -> Result<GmAddr> {
    let addr = gm.gm(api)?.clone();
    let avail = if gm.get_size() > 0 {
        gm.get_size() as usize * 4
    } else {
        addr.region_len() - addr.offset()
    };
    if avail < gm_need {
        return Err(SimError::new(
            Category::Size,
            api,
            format!("gmWorkspace holds {avail} bytes; at least {gm_need} are needed"),
        ));
    }
    if !matches!(
        ub.get_position(),
        TPosition::VECIN | TPosition::VECOUT | TPosition::VECCALC
    ) {
        return Err(SimError::new(
            Category::Position,
            api,
            format!(
                "ubWorkspace is in {:?}; it must be in VECIN, VECCALC or VECOUT",
                ub.get_position()
            ),
        ));
    }
    if (ub.get_length() as usize) < ub_need {
        return Err(SimError::new(
            Category::Size,
            api,
            format!(
                "ubWorkspace holds {} bytes; at least {ub_need} are needed",
                ub.get_length()
            ),
        ));
    }
    Ok(addr)
}

pub(crate) fn read_i32(addr: &GmAddr, api: &'static str, at: usize) -> Result<i32> {
    let mut b = [0u8; 4];
    addr.read_bytes(api, at, &mut b)?;
    Ok(i32::from_le_bytes(b))
}

/// `SyncAll(gmWorkspace, ubWorkspace, usedCores)`: the software barrier of the first `usedCores`
/// vector blocks (0: all `GetBlockNum() · GetTaskRatio()`). Each block writes its arrival count
/// into its 32-byte slot of `gmWorkspace` (≥ `GetBlockNum()` · 32 bytes, zero before the first
/// call) and waits until every participant's slot has caught up; `ubWorkspace` needs
/// `GetBlockNum()` · 32 bytes in VECIN/VECCALC/VECOUT.
#[track_caller]
pub fn sync_all_soft(
    gm_workspace: &GlobalTensor<i32>,
    ub_workspace: &LocalTensor<i32>,
    used_cores: i32,
) -> Result<()> {
    const API: &str = "SyncAll";
    let loc = SourceLoc::caller();
    sync_op(API, loc, Pipe::ALL, |core, sched, me| {
        if !sync_support(core.profile).soft_sync_all {
            return Err(unsupported(core, API));
        }
        let n = core.block_num as usize * SYNC_SLOT_BYTES;
        let addr = workspace(API, gm_workspace, ub_workspace, n, n)?;
        let max = (core.block_num * core.id.task_ratio) as i32;
        if !(0..=max).contains(&used_cores) {
            return Err(SimError::range(
                API,
                "usedCores",
                used_cores,
                format!("[0, {max}] (GetBlockNum() · GetTaskRatio(); 0 = all)"),
            ));
        }
        if core.id.kind == CoreKind::Aic {
            return Err(SimError::new(
                Category::Sync,
                API,
                "the software SyncAll synchronises vector cores only; this is a cube core",
            ));
        }
        let used = if used_cores == 0 { max } else { used_cores } as usize;
        if core.block_idx as usize >= used {
            return Err(SimError::new(
                Category::Sync,
                API,
                format!(
                    "block {} is not among the usedCores = {used} blocks this SyncAll synchronises",
                    core.block_idx
                ),
            ));
        }
        let key = (addr.region_id(), addr.offset());
        let rounds = core.sync.soft_rounds(key);
        let slot = core.block_idx as usize * SYNC_SLOT_BYTES;
        let v = read_i32(&addr, API, slot)?;
        if v != rounds as i32 {
            return Err(SimError::new(
                Category::Sync,
                API,
                format!(
                    "gmWorkspace slot of block {} (byte {slot}) holds {v} where {rounds} SyncAll call(s) of this block left {rounds}: the workspace must be zero-initialised before the first SyncAll and not written by anything else",
                    core.block_idx
                ),
            ));
        }
        addr.write_bytes(API, slot, &(rounds as i32 + 1).to_le_bytes())?;
        core.sync.set_soft_rounds(key, rounds + 1);
        sched.barrier(me, BarrierKey::Soft(key.0, key.1), used, API, loc)
    })
}

/// The GM byte of the `IBSet`/`IBWait` slot of (`block_idx`, `event_id`), checked.
fn ib_slot(
    core: &Core,
    api: &'static str,
    gm: &GlobalTensor<i32>,
    ub: &LocalTensor<i32>,
    block_idx: i32,
    event_id: i32,
) -> Result<(GmAddr, usize)> {
    if !sync_support(core.profile).ib_set_wait {
        return Err(unsupported(core, api));
    }
    if core.id.kind == CoreKind::Aic {
        return Err(SimError::new(
            Category::Sync,
            api,
            "IBSet/IBWait synchronise vector cores only on products with separate cube and vector cores; this is a cube core",
        ));
    }
    let cores = (core.block_num * core.id.task_ratio) as i32;
    if !(0..cores).contains(&block_idx) {
        return Err(SimError::range(
            api,
            "blockIdx",
            block_idx,
            format!("[0, {}]", cores - 1),
        ));
    }
    if event_id < 0 {
        return Err(SimError::range(api, "eventID", event_id, "[0, 2^31)"));
    }
    let slot = (event_id as usize * cores as usize + block_idx as usize) * SYNC_SLOT_BYTES;
    let addr = workspace(api, gm, ub, slot + SYNC_SLOT_BYTES, SYNC_SLOT_BYTES)?;
    Ok((addr, slot))
}

/// `IBSet(gmWorkspace, ubWorkspace, blockIdx, eventID)`: block `blockIdx` signals event
/// `eventID` through its 32-byte slot of the zero-initialised `gmWorkspace` (at least
/// cores · 32 · eventID + blockIdx · 32 + 32 bytes): waits until the slot reads 0 (an earlier
/// `IBSet` of the slot consumed by its `IBWait`), then writes 1.
#[track_caller]
pub fn ib_set(
    gm_workspace: &GlobalTensor<i32>,
    ub_workspace: &LocalTensor<i32>,
    block_idx: i32,
    event_id: i32,
) -> Result<()> {
    const API: &str = "IBSet";
    let loc = SourceLoc::caller();
    sync_op(API, loc, Pipe::ALL, |core, sched, me| {
        let (addr, slot) = ib_slot(core, API, gm_workspace, ub_workspace, block_idx, event_id)?;
        if core.block_idx as i32 != block_idx {
            core.warn(
                Category::Sync,
                API,
                format!(
                    "block {} sets the IBSet slot of block {block_idx}: the waiting side names the block it waits for",
                    core.block_idx
                ),
                loc,
            );
        }
        ib_handshake(sched, me, &addr, slot, (block_idx, event_id), 0, API, loc)
    })
}

/// `IBWait(gmWorkspace, ubWorkspace, blockIdx, eventID)`: waits until the slot of block
/// `blockIdx` and event `eventID` reads 1 (its `IBSet`), then writes 0, consuming that `IBSet`.
#[track_caller]
pub fn ib_wait(
    gm_workspace: &GlobalTensor<i32>,
    ub_workspace: &LocalTensor<i32>,
    block_idx: i32,
    event_id: i32,
) -> Result<()> {
    const API: &str = "IBWait";
    let loc = SourceLoc::caller();
    sync_op(API, loc, Pipe::ALL, |core, sched, me| {
        let (addr, slot) = ib_slot(core, API, gm_workspace, ub_workspace, block_idx, event_id)?;
        ib_handshake(sched, me, &addr, slot, (block_idx, event_id), 1, API, loc)
    })
}

/// The `IBSet` (`want` = 0) / `IBWait` (`want` = 1) step on the GM flag at byte `slot` of `addr`.
#[allow(clippy::too_many_arguments)]
fn ib_handshake(
    sched: &Sched,
    me: usize,
    addr: &GmAddr,
    slot: usize,
    ids: (i32, i32),
    want: i32,
    api: &'static str,
    loc: SourceLoc,
) -> Result<()> {
    sched.ib(
        me,
        (addr.region_id(), addr.offset() + slot),
        ids,
        want,
        || read_i32(addr, api, slot),
        |v| addr.write_bytes(api, slot, &v.to_le_bytes()),
        api,
        loc,
    )
}

fn check_cross(
    core: &mut Core,
    api: &'static str,
    mode: u8,
    pipe: Pipe,
    flag_id: u16,
    loc: SourceLoc,
) -> Result<u8> {
    if !sync_support(core.profile).cross_core_flags {
        return Err(unsupported(core, api));
    }
    if mode > 2 {
        return Err(SimError::range(api, "modeId", mode, "0, 1 or 2"));
    }
    if matches!(pipe, Pipe::S | Pipe::ALL) {
        return Err(SimError::new(
            Category::Range,
            api,
            format!("pipe {} is not allowed: use PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3 or PIPE_FIX", pipe.c_name()),
        ));
    }
    if mode > 0 && !core.sync.mixed {
        return Err(SimError::new(
            Category::Launch,
            api,
            format!("mode {mode} synchronises the cores of one AI Core and needs a mixed launch (MIX_MODE or MIX_AIC_1_1)"),
        ));
    }
    if flag_id > 15 {
        core.diag(
            Severity::Warning,
            Category::DataLoss,
            api,
            format!(
                "flagId {flag_id} is outside [0, 15]: the hardware keeps its low 4 bits, flag {}",
                flag_id & 15
            ),
            loc,
        );
    }
    Ok((flag_id & 15) as u8)
}

/// `CrossCoreSetFlag<modeId, pipe>(flagId)`: once `pipe`'s earlier work is done, reports flag
/// `flagId` (0–15) to the scheduling unit. Mode 0: every core of this kind (all AIVs or all AICs)
/// must set it, then each gets one count; mode 1: both AIVs of this AI Core; mode 2: the AIC's
/// set gives each of its AIVs a count, and all of the AIVs' sets give the AIC one (A2/A3).
#[track_caller]
pub fn cross_core_set_flag(mode: u8, pipe: Pipe, flag_id: u16) -> Result<()> {
    const API: &str = "CrossCoreSetFlag";
    let loc = SourceLoc::caller();
    sync_op(API, loc, pipe_or_v(pipe), |core, sched, me| {
        let flag = check_cross(core, API, mode, pipe, flag_id, loc)?;
        sched.cross_set(me, mode, flag, API, loc)
    })
}

/// `CrossCoreWaitFlag<modeId, pipe>(flagId)`: blocks this core (every pipe, on A2/A3) until its
/// counter of `flagId` is non-zero, then takes one count.
#[track_caller]
pub fn cross_core_wait_flag(mode: u8, pipe: Pipe, flag_id: u16) -> Result<()> {
    const API: &str = "CrossCoreWaitFlag";
    let loc = SourceLoc::caller();
    sync_op(API, loc, Pipe::ALL, |core, sched, me| {
        let flag = check_cross(core, API, mode, pipe, flag_id, loc)?;
        sched.cross_wait(me, mode, flag, API, loc)
    })
}

/// The pipe an instruction is recorded on (invalid pipes are reported by the check).
fn pipe_or_v(p: Pipe) -> Pipe {
    if matches!(p, Pipe::S | Pipe::ALL) {
        Pipe::V
    } else {
        p
    }
}

pub(crate) fn set_atomic(
    api: &'static str,
    loc: SourceLoc,
    op: Option<AtomicOp>,
    dtype: Option<DType>,
) -> Result<()> {
    with_core(api, loc, |core| {
        let s = atomic::support(core.profile);
        if let Some(t) = dtype {
            let (allowed, what) = match op {
                Some(AtomicOp::Add) => (s.add, "SetAtomicAdd"),
                Some(_) => (s.max_min, "SetAtomicMax/SetAtomicMin"),
                None => {
                    if !s.set_type {
                        return Err(unsupported(core, api));
                    }
                    (s.add.union(s.max_min), "SetAtomicType")
                }
            };
            if allowed.iter().next().is_none() {
                return Err(unsupported(core, api));
            }
            if !allowed.contains(t) {
                return Err(SimError::new(
                    Category::Type,
                    api,
                    format!("{what} on {} supports {allowed}, not {t}", core.profile),
                ));
            }
        }
        core.issue(Pipe::S, api, loc, &[]);
        let st = &mut core.sync.atomic;
        match (op, dtype) {
            (Some(o), t) => {
                st.op = Some(o);
                st.dtype = t;
            }
            (None, Some(t)) => st.dtype = Some(t),
            (None, None) => st.op = None,
        }
        let at = core.trace.seq();
        core.trace.gm_fence();
        let state = core.sync.atomic;
        core.sync.atomics.push((at, state));
        Ok(())
    })
}

/// `SetAtomicAdd<T>()`: later DMA writes to GM add their `T` elements to GM's (one rounding per
/// float element, fp16 saturating unless in Inf/NaN mode, integers wrapping).
#[track_caller]
pub fn set_atomic_add<T: Element>() -> Result<()> {
    set_atomic(
        "SetAtomicAdd",
        SourceLoc::caller(),
        Some(AtomicOp::Add),
        Some(T::DTYPE),
    )
}

/// `SetAtomicMax<T>()`: later DMA writes to GM keep the larger of data and GM (A2/A3).
#[track_caller]
pub fn set_atomic_max<T: Element>() -> Result<()> {
    set_atomic(
        "SetAtomicMax",
        SourceLoc::caller(),
        Some(AtomicOp::Max),
        Some(T::DTYPE),
    )
}

/// `SetAtomicMin<T>()`: later DMA writes to GM keep the smaller of data and GM (A2/A3).
#[track_caller]
pub fn set_atomic_min<T: Element>() -> Result<()> {
    set_atomic(
        "SetAtomicMin",
        SourceLoc::caller(),
        Some(AtomicOp::Min),
        Some(T::DTYPE),
    )
}

/// `SetAtomicType<T>()`: the element type of the atomic operation in force.
#[track_caller]
pub fn set_atomic_type<T: Element>() -> Result<()> {
    set_atomic("SetAtomicType", SourceLoc::caller(), None, Some(T::DTYPE))
}

/// `DisableDmaAtomic()` (formerly `SetAtomicNone()`): later DMA writes to GM overwrite again.
#[track_caller]
pub fn disable_dma_atomic() -> Result<()> {
    set_atomic("DisableDmaAtomic", SourceLoc::caller(), None, None)
}

/// `SetAtomicNone()`: the former name of [`disable_dma_atomic`].
#[track_caller]
pub fn set_atomic_none() -> Result<()> {
    set_atomic("SetAtomicNone", SourceLoc::caller(), None, None)
}
