//! `GroupBarrier<PipeMode>`: one group of vector blocks (the Arrive group) releases another (the
//! Wait group) through counters in a GM workspace, round after round (Atlas A2 only).
//!
//! The workspace holds one 512-byte slot per index up to max(arriveSize, waitSize): the Arrive
//! counter at byte 0 of slot i and the Wait counter at byte 64. `Arrive` adds 1 to the Arrive
//! counter of every slot, `Wait(i)` waits until its slot's Arrive counter reaches
//! round · arriveSize and then adds 1 to the Wait counter of every slot, and `Arrive(i)` of
//! round r > 1 first waits until its slot's Wait counter is (r − 1) · waitSize, so an Arrive
//! group cannot overtake a Wait group still in the previous round. The counters are 32-bit
//! little-endian words in GM, updated under the launch scheduler's lock; waits are scheduler
//! waits, so a barrier that can never open is reported as a deadlock. On the device the
//! additions are atomic MTE3 copies from the last 1600 bytes of UB, which the barrier occupies:
//! the constructor refuses a pipe that has given those bytes out.

use super::api::{read_i32, sync_op};
use super::sched::Sched;
use crate::api::availability::require;
use crate::api::context::with_core;
use crate::api::stack_buffer::pop_stack_buffer_at;
use crate::api::tpipe::TPipe;
use crate::core::trace::{HardEvent, Pipe};
use crate::core::{Core, CoreKind};
use crate::dtype::DType;
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::gm::GmAddr;
use crate::position::{Hardware, TPosition};

/// The execution unit that sends a GroupBarrier's messages (`PipeMode`); only `MTE3_MODE` is
/// supported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum PipeMode {
    /// The scalar unit (not supported).
    SCALAR_MODE = 0,
    /// The MTE3 unit.
    MTE3_MODE = 1,
    /// The end marker (not a mode).
    MAX,
}

/// Bytes of workspace per index (one GM cache line).
pub const SLOT_BYTES: u64 = 512;
/// Offset of the Wait counter inside a slot (the Arrive counter is at 0).
const WAIT_COUNTER: usize = 64;
/// Bytes at the end of UB a GroupBarrier occupies.
pub const UB_RESERVED_BYTES: u32 = 1600;
/// Most `Arrive` or `Wait` rounds of one barrier (the documented loop limit).
pub const MAX_ROUNDS: u32 = 1_048_575;
/// Required alignment of the workspace.
const WORKSPACE_ALIGN: usize = 512;

const CTOR: &str = "GroupBarrier";
const ARRIVE: &str = "GroupBarrier::Arrive";
const WAIT: &str = "GroupBarrier::Wait";

/// A group barrier over a zero-initialised GM workspace (`GroupBarrier<pipeMode>`). Each block
/// constructs its own with the same workspace and sizes; on a cube core the object does nothing,
/// as on the device.
#[derive(Debug)]
pub struct GroupBarrier {
    /// The workspace; `None` on a cube core.
    workspace: Option<GmAddr>,
    arrive_size: u32,
    wait_size: u32,
    /// The round this block is in (from 1).
    round: u32,
    /// This block called `Arrive` in the current round.
    has_arrived: bool,
}

impl GroupBarrier {
    /// `GroupBarrier<mode>(groupWorkspace, arriveSize, waitSize)`: `arrive_size` blocks call
    /// `Arrive`, `wait_size` blocks `Wait`, both in [1, GetBlockNum()]. The workspace must be
    /// 512-byte aligned, zero, and hold [`GroupBarrier::get_workspace_len`] bytes; `pipe` is the
    /// kernel's TPipe, which must leave the last 1600 bytes of UB free. A2 only, `MTE3_MODE` only.
    #[track_caller]
    pub fn new(
        pipe: &TPipe,
        mode: PipeMode,
        group_workspace: &GmAddr,
        arrive_size: u32,
        wait_size: u32,
    ) -> Result<GroupBarrier> {
        let loc = SourceLoc::caller();
        let mut barrier = GroupBarrier {
            workspace: None,
            arrive_size,
            wait_size,
            round: 1,
            has_arrived: false,
        };
        let cube = with_core(CTOR, loc, |core| Ok(core.id.kind == CoreKind::Aic))?;
        if cube {
            return Ok(barrier);
        }
        // Where the pipe's unallocated UB starts (the barrier's bytes must lie beyond it).
        let free = pop_stack_buffer_at::<u8>(pipe, TPosition::VECCALC)?;
        with_core(CTOR, loc, |core| {
            require(core, CTOR)?;
            if mode != PipeMode::MTE3_MODE {
                return Err(SimError::new(
                    Category::Unsupported,
                    CTOR,
                    format!("pipeMode {mode:?} is not supported: GroupBarrier sends its messages with PipeMode::MTE3_MODE only"),
                ));
            }
            let blocks = core.block_num;
            for (name, v) in [("arriveSizeIn", arrive_size), ("waitSizeIn", wait_size)] {
                if v == 0 || v > blocks {
                    return Err(SimError::range(
                        CTOR,
                        name,
                        v,
                        format!("[1, {blocks}] (GetBlockNum())"),
                    ));
                }
            }
            let off = group_workspace.offset();
            if !off.is_multiple_of(WORKSPACE_ALIGN) {
                return Err(SimError::new(
                    Category::Align,
                    CTOR,
                    format!("groupWorkspace is byte {off} of its GM allocation: it must be 512-byte aligned ({off} mod 512 = {})", off % WORKSPACE_ALIGN),
                ));
            }
            let need = barrier.get_workspace_len();
            let avail = (group_workspace.region_len() - off) as u64;
            if avail < need {
                return Err(SimError::new(
                    Category::Size,
                    CTOR,
                    format!("groupWorkspace has {avail} bytes to the end of its GM allocation; max(arriveSize, waitSize) · 512 = {need} are needed"),
                ));
            }
            let ub = core.profile.size_of(Hardware::UB);
            let reserved = ub - UB_RESERVED_BYTES;
            let used = free.as_ref().map_or(ub, |t| t.get_phy_addr());
            if used > reserved {
                return Err(SimError::new(
                    Category::Size,
                    CTOR,
                    format!("GroupBarrier occupies the last {UB_RESERVED_BYTES} bytes of UB (bytes {reserved}..{ub}), but the pipe has given out UB up to byte {used}: leave them free"),
                ));
            }
            // The device writes the 1 each addition adds into those UB bytes.
            core.issue(Pipe::S, CTOR, loc, &[]);
            Ok(())
        })?;
        barrier.workspace = Some(group_workspace.clone());
        Ok(barrier)
    }

    /// `GetWorkspaceLen()`: the GM bytes the barrier uses, max(arriveSize, waitSize) · 512.
    pub fn get_workspace_len(&self) -> u64 {
        self.arrive_size.max(self.wait_size) as u64 * SLOT_BYTES
    }

    /// `Arrive(arriveIndex)`: this block of the Arrive group (`arrive_index` in
    /// [0, arriveSize − 1]) has done its work; from the second round on it first waits until
    /// every block of the Wait group has passed the previous round.
    #[track_caller]
    pub fn arrive(&mut self, arrive_index: u32) -> Result<()> {
        let loc = SourceLoc::caller();
        let Some(ws) = self.workspace.clone() else {
            return Ok(());
        };
        let round = self.round;
        self.check(
            ARRIVE,
            "arriveIndex",
            arrive_index,
            self.arrive_size,
            round,
            loc,
        )?;
        let (arrive_size, wait_size) = (self.arrive_size, self.wait_size);
        sync_op(ARRIVE, loc, Pipe::S, |core, sched, me| {
            if round > 1 {
                let at = arrive_index as usize * SLOT_BYTES as usize + WAIT_COUNTER;
                let need = (round - 1) * wait_size;
                let now = counter(&ws, ARRIVE, at)?;
                if now > need {
                    return Err(SimError::new(
                        Category::Sync,
                        ARRIVE,
                        format!("the Wait counter of slot {arrive_index} holds {now}, more than the {need} Wait calls of {} round(s) of {wait_size} waiting blocks: more blocks call Wait than waitSize, or the workspace was not zero", round - 1),
                    ));
                }
                sched.counter_wait(
                    me,
                    (ws.region_id(), ws.offset() + at),
                    need,
                    "Wait calls on this GroupBarrier (every Wait-group block past the previous round)",
                    || counter(&ws, ARRIVE, at),
                    ARRIVE,
                    loc,
                )?;
            }
            add_to_all(
                core,
                sched,
                me,
                &ws,
                0,
                arrive_size.max(wait_size),
                ARRIVE,
                loc,
            )
        })?;
        self.round += 1;
        self.has_arrived = true;
        Ok(())
    }

    /// `Wait(waitIndex)`: this block of the Wait group (`wait_index` in [0, waitSize − 1])
    /// waits until every block of the Arrive group has arrived in the current round.
    #[track_caller]
    pub fn wait(&mut self, wait_index: u32) -> Result<()> {
        let loc = SourceLoc::caller();
        let Some(ws) = self.workspace.clone() else {
            return Ok(());
        };
        let round = if self.has_arrived {
            self.round - 1
        } else {
            self.round
        };
        self.check(WAIT, "waitIndex", wait_index, self.wait_size, round, loc)?;
        let (arrive_size, wait_size) = (self.arrive_size, self.wait_size);
        sync_op(WAIT, loc, Pipe::S, |core, sched, me| {
            let at = wait_index as usize * SLOT_BYTES as usize;
            sched.counter_wait(
                me,
                (ws.region_id(), ws.offset() + at),
                round * arrive_size,
                "Arrive calls on this GroupBarrier (every Arrive-group block in this round)",
                || counter(&ws, WAIT, at),
                WAIT,
                loc,
            )?;
            add_to_all(
                core,
                sched,
                me,
                &ws,
                WAIT_COUNTER,
                arrive_size.max(wait_size),
                WAIT,
                loc,
            )
        })?;
        if !self.has_arrived {
            self.round += 1;
        }
        self.has_arrived = false;
        Ok(())
    }

    /// The index range and the loop limit of `Arrive` / `Wait`.
    fn check(
        &self,
        api: &'static str,
        name: &str,
        index: u32,
        size: u32,
        round: u32,
        loc: SourceLoc,
    ) -> Result<()> {
        with_core(api, loc, |_| {
            if index >= size {
                return Err(SimError::range(
                    api,
                    name,
                    index,
                    format!("[0, {}]", size - 1),
                ));
            }
            if round > MAX_ROUNDS {
                return Err(SimError::new(
                    Category::Range,
                    api,
                    format!("round {round} of this GroupBarrier: it may be used in at most {MAX_ROUNDS} rounds"),
                ));
            }
            Ok(())
        })
    }
}

/// The 32-bit counter at byte `at` of the workspace.
fn counter(ws: &GmAddr, api: &'static str, at: usize) -> Result<u32> {
    read_i32(ws, api, at).map(|v| v as u32)
}

/// The device's message: S → MTE3 synchronisation, then one atomic int32 MTE3 copy adding 1 to
/// the counter at byte `field` of each of the first `slots` slots; the DMA atomic mode is off
/// afterwards.
#[allow(clippy::too_many_arguments)]
fn add_to_all(
    core: &mut Core,
    sched: &Sched,
    me: usize,
    ws: &GmAddr,
    field: usize,
    slots: u32,
    api: &'static str,
    loc: SourceLoc,
) -> Result<()> {
    let id = core.fetch_event_id(HardEvent::S_MTE3);
    if id >= core.profile.max_event_ids {
        return Err(SimError::new(
            Category::Resource,
            api,
            "no S_MTE3 event ID is free for the barrier's S -> MTE3 synchronisation: release one first",
        ));
    }
    core.set_flag(HardEvent::S_MTE3, id, api, loc);
    core.wait_flag(HardEvent::S_MTE3, id, api, loc);
    core.issue(Pipe::MTE3, api, loc, &[]);
    sched.counter_add(
        me,
        || {
            (0..slots as usize)
                .map(|i| {
                    let at = i * SLOT_BYTES as usize + field;
                    let v = counter(ws, api, at)?.wrapping_add(1);
                    ws.write_bytes(api, at, &v.to_le_bytes())?;
                    Ok(((ws.region_id(), ws.offset() + at), v))
                })
                .collect()
        },
        api,
        loc,
    )?;
    let atomic = &mut core.sync.atomic;
    atomic.op = None;
    atomic.dtype = Some(DType::Int32);
    let at = core.trace.seq();
    let state = core.sync.atomic;
    core.sync.atomics.push((at, state));
    Ok(())
}
