//! Deterministic computation in block order: `InitDetermineComputeWorkspace`, `WaitPreBlock`,
//! `NotifyNextBlock`.
//!
//! The vector blocks take turns in ascending `GetBlockIdx()` order, round after round: block b's
//! k-th `WaitPreBlock` passes once block b − 1 has called `NotifyNextBlock` k times, and block 0's
//! k-th once the last block has notified k − 1 times. The code each block runs between the two
//! calls (typically an atomic accumulation into GM) therefore runs in the same order on every
//! schedule, and its result is the sequential one bit for bit. Each block keeps its notification
//! count in its 32-byte slot of the GM workspace; a wait for a notification that never comes is
//! reported as a deadlock.

use super::api::{read_i32, sync_op, workspace, SYNC_SLOT_BYTES};
use super::sched::Sched;
use crate::api::availability::require;
use crate::api::tensor::{GlobalTensor, LocalTensor};
use crate::core::trace::Pipe;
use crate::core::{Core, CoreKind};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::gm::GmAddr;

/// The checked workspace of a call: its GM address, the key of its state, the number of vector
/// blocks taking part and this block's slot byte.
fn determine_workspace(
    core: &Core,
    sched: &Sched,
    api: &'static str,
    gm: &GlobalTensor<i32>,
    ub: &LocalTensor<i32>,
) -> Result<(GmAddr, (u64, usize), u32, usize)> {
    require(core, api)?;
    if core.id.kind == CoreKind::Aic {
        return Err(SimError::new(
            Category::Sync,
            api,
            "WaitPreBlock/NotifyNextBlock order vector cores only; this is a cube core",
        ));
    }
    let n = sched.vector_cores().count() as u32;
    let bytes = n as usize * SYNC_SLOT_BYTES;
    let addr = workspace(api, gm, ub, bytes, bytes + SYNC_SLOT_BYTES)?;
    let key = (addr.region_id(), addr.offset());
    Ok((addr, key, n, core.block_idx as usize * SYNC_SLOT_BYTES))
}

/// This core's (waits, notifies) on workspace `key`, `None` before its
/// `InitDetermineComputeWorkspace`.
fn counts(core: &Core, key: (u64, usize)) -> Option<(u32, u32)> {
    core.sync
        .determine
        .iter()
        .find(|(k, _)| *k == key)
        .map(|(_, c)| *c)
}

fn set_counts(core: &mut Core, key: (u64, usize), c: (u32, u32)) {
    match core.sync.determine.iter_mut().find(|(k, _)| *k == key) {
        Some(e) => e.1 = c,
        None => core.sync.determine.push((key, c)),
    }
}

fn not_initialised(api: &'static str) -> SimError {
    SimError::new(
        Category::Sync,
        api,
        "this block has not called InitDetermineComputeWorkspace on this gmWorkspace: call it first, at the start of the kernel",
    )
}

/// `InitDetermineComputeWorkspace(gmWorkspace, ubWorkspace)`: starts block-ordered computation
/// on `gmWorkspace` (at least (vector blocks) · 32 bytes, any content) with `ubWorkspace` (at
/// least (vector blocks) · 32 + 32 bytes in VECIN/VECCALC/VECOUT): this block's slot is set to 0
/// notifications (310P, A2, A3; vector cores only; blockDim must not exceed the core count).
#[track_caller]
pub fn init_determine_compute_workspace(
    gm_workspace: &GlobalTensor<i32>,
    ub_workspace: &LocalTensor<i32>,
) -> Result<()> {
    const API: &str = "InitDetermineComputeWorkspace";
    let loc = SourceLoc::caller();
    sync_op(API, loc, Pipe::ALL, |core, sched, _| {
        let (addr, key, _, slot) =
            determine_workspace(core, sched, API, gm_workspace, ub_workspace)?;
        if let Some((w, n)) = counts(core, key) {
            if w + n > 0 {
                return Err(SimError::new(
                    Category::Sync,
                    API,
                    format!("called again after {w} WaitPreBlock and {n} NotifyNextBlock call(s) on this gmWorkspace: initialise once, at the start of the kernel"),
                ));
            }
        }
        addr.write_bytes(API, slot, &0i32.to_le_bytes())?;
        set_counts(core, key, (0, 0));
        Ok(())
    })
}

/// `WaitPreBlock(gmWorkspace, ubWorkspace)`: waits for the previous block's turn to end — the
/// k-th call of block b waits for the k-th `NotifyNextBlock` of block b − 1 (block 0: the
/// (k − 1)-th of the last block). Blocks every pipe of the core; a wait that can never end is
/// reported as a deadlock.
#[track_caller]
pub fn wait_pre_block(
    gm_workspace: &GlobalTensor<i32>,
    ub_workspace: &LocalTensor<i32>,
) -> Result<()> {
    const API: &str = "WaitPreBlock";
    let loc = SourceLoc::caller();
    sync_op(API, loc, Pipe::ALL, |core, sched, me| {
        let (_, key, n, _) = determine_workspace(core, sched, API, gm_workspace, ub_workspace)?;
        let (waits, notifies) = counts(core, key).ok_or_else(|| not_initialised(API))?;
        let k = waits + 1;
        let b = core.block_idx;
        let (pre_block, need) = if b == 0 { (n - 1, k - 1) } else { (b - 1, k) };
        let pre = sched
            .vector_cores()
            .find(|&i| sched.cores[i].block_idx == pre_block)
            .ok_or_else(|| {
                SimError::new(
                    Category::Sync,
                    API,
                    format!("no vector core runs block {pre_block}, the block before block {b}"),
                )
            })?;
        set_counts(core, key, (k, notifies));
        sched.determine_wait(me, pre, need, key.0, key.1, API, loc)
    })
}

/// `NotifyNextBlock(gmWorkspace, ubWorkspace)`: ends this block's turn — its slot of
/// `gmWorkspace` counts one more notification and the next block's matching `WaitPreBlock` may
/// pass. A notification without a preceding `WaitPreBlock` warns: that turn is not ordered.
#[track_caller]
pub fn notify_next_block(
    gm_workspace: &GlobalTensor<i32>,
    ub_workspace: &LocalTensor<i32>,
) -> Result<()> {
    const API: &str = "NotifyNextBlock";
    let loc = SourceLoc::caller();
    sync_op(API, loc, Pipe::ALL, |core, sched, me| {
        let (addr, key, _, slot) =
            determine_workspace(core, sched, API, gm_workspace, ub_workspace)?;
        let (waits, notifies) = counts(core, key).ok_or_else(|| not_initialised(API))?;
        let v = read_i32(&addr, API, slot)?;
        if v != notifies as i32 {
            return Err(SimError::new(
                Category::Sync,
                API,
                format!(
                    "gmWorkspace slot of block {} (byte {slot}) holds {v} where this block's {notifies} NotifyNextBlock call(s) left {notifies}: nothing else may write the workspace",
                    core.block_idx
                ),
            ));
        }
        if notifies >= waits {
            core.warn(
                Category::Sync,
                API,
                format!(
                    "NotifyNextBlock number {} without a matching WaitPreBlock: this block's turn is not ordered after the previous block's, and the result may vary",
                    notifies + 1
                ),
                loc,
            );
        }
        set_counts(core, key, (waits, notifies + 1));
        sched.determine_notify(
            me,
            key.0,
            key.1,
            || addr.write_bytes(API, slot, &(notifies as i32 + 1).to_le_bytes()),
            API,
            loc,
        )
    })
}
