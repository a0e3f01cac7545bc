//! In-core and task synchronisation: `TQueSync`, `DataSyncBarrier`, `SetNextTaskStart`,
//! `WaitPreTaskEnd`.

use super::availability::require;
use super::context::with_core;
use super::sync::{set_flag, wait_flag};
use crate::core::trace::{HardEvent, Pipe};
use crate::error::{Category, Result, SimError, SourceLoc};

/// The hardware event in which `dst` waits for `src`, if there is one.
pub fn hard_event(src: Pipe, dst: Pipe) -> Option<HardEvent> {
    HardEvent::ALL
        .iter()
        .copied()
        .find(|e| e.pipes() == (src, dst))
}

/// `TQueSync<src, dst>`: `SetFlag`/`WaitFlag` between a fixed pair of pipes, the destination
/// pipe waiting for the source pipe. The pair must be one of the `HardEvent`s.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TQueSync {
    src: Pipe,
    dst: Pipe,
}

impl TQueSync {
    /// The synchroniser in which `dst` waits for `src`.
    pub const fn new(src: Pipe, dst: Pipe) -> TQueSync {
        TQueSync { src, dst }
    }

    #[track_caller]
    fn event(&self, api: &'static str) -> Result<HardEvent> {
        hard_event(self.src, self.dst).ok_or_else(|| {
            SimError::new(
                Category::Sync,
                api,
                format!(
                    "TQueSync<{}, {}> names no hardware event: the pipe pair has no SetFlag/WaitFlag",
                    self.src, self.dst
                ),
            )
            .at(SourceLoc::caller())
        })
    }

    /// `SetFlag(id)`: the source pipe signals event ID `id` once its earlier work is done.
    #[track_caller]
    pub fn set_flag(&self, id: u32) -> Result<()> {
        set_flag(self.event("TQueSync::SetFlag")?, id)
    }

    /// `WaitFlag(id)`: the destination pipe waits for the matching `SetFlag(id)`.
    #[track_caller]
    pub fn wait_flag(&self, id: u32) -> Result<()> {
        wait_flag(self.event("TQueSync::WaitFlag")?, id)
    }
}

/// `MemDsbT`: the memory accesses `DataSyncBarrier` waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(clippy::upper_case_acronyms)]
pub enum MemDsbT {
    /// GM and UB accesses (not L1 / L0C).
    ALL,
    /// GM accesses.
    DDR,
    /// UB accesses.
    UB,
    /// SEQ accesses.
    SEQ,
}

/// `DataSyncBarrier<arg0>()`: later instructions wait until the earlier memory accesses of kind
/// `arg0` have completed (A2/A3/310B). A `PIPE_S` instruction; the simulated scalar unit already
/// completes every access in order.
#[track_caller]
pub fn data_sync_barrier(arg0: MemDsbT) -> Result<()> {
    const API: &str = "DataSyncBarrier";
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        require(core, API)?;
        let _ = arg0;
        core.issue(Pipe::S, API, loc, &[]);
        Ok(())
    })
}

/// Records a call that the documentation allows once per core.
fn once(core: &mut crate::core::Core, api: &'static str) -> Result<()> {
    if core.sync.marks.contains(&api) {
        return Err(SimError::new(
            Category::Sync,
            api,
            format!("{api} is called more than once on this core: it must be called exactly once per core"),
        ));
    }
    core.sync.marks.push(api);
    Ok(())
}

/// `SetNextTaskStart<AIV_PIPE, AIC_PIPE, FORCE>()`: in a SuperKernel sub-kernel, lets the
/// instructions after it on `aiv_pipe` (vector cores: `PIPE_MTE2`, `PIPE_MTE3`, `PIPE_S`,
/// `PIPE_V`) or `aic_pipe` (cube cores: `PIPE_MTE1`, `PIPE_MTE2`, `PIPE_MTE3`, `PIPE_FIX`,
/// `PIPE_M`) overlap the next sub-kernel. A launch here runs one kernel, so nothing overlaps: the
/// call is validated (pipes, once per core) and recorded on `PIPE_S`. Defaults: `PIPE_MTE3`, and
/// `PIPE_FIX` (`PIPE_MTE3` on 910/310P), `false`.
#[track_caller]
pub fn set_next_task_start(aiv_pipe: Pipe, aic_pipe: Pipe, force: bool) -> Result<()> {
    const API: &str = "SetNextTaskStart";
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        require(core, API)?;
        let _ = force;
        if !matches!(aiv_pipe, Pipe::MTE2 | Pipe::MTE3 | Pipe::S | Pipe::V) {
            return Err(SimError::range(
                API,
                "AIV_PIPE",
                aiv_pipe,
                "PIPE_MTE2, PIPE_MTE3, PIPE_S or PIPE_V",
            ));
        }
        if !matches!(
            aic_pipe,
            Pipe::MTE1 | Pipe::MTE2 | Pipe::MTE3 | Pipe::FIX | Pipe::M
        ) {
            return Err(SimError::range(
                API,
                "AIC_PIPE",
                aic_pipe,
                "PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_FIX or PIPE_M",
            ));
        }
        once(core, API)?;
        core.issue(Pipe::S, API, loc, &[]);
        Ok(())
    })
}

/// `WaitPreTaskEnd<FORCE>()`: in a SuperKernel sub-kernel, the instructions before it may
/// overlap the previous sub-kernel. One kernel per launch here: validated (once per core) and
/// recorded on `PIPE_S`.
#[track_caller]
pub fn wait_pre_task_end(force: bool) -> Result<()> {
    const API: &str = "WaitPreTaskEnd";
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        require(core, API)?;
        let _ = force;
        once(core, API)?;
        core.issue(Pipe::S, API, loc, &[]);
        Ok(())
    })
}
