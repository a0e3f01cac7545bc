//! The multi-core runtime: cross-core synchronisation (`SyncAll`, `IBSet`/`IBWait`,
//! `CrossCoreSetFlag`/`CrossCoreWaitFlag`), GM atomics (`SetAtomicAdd` …), deadlock detection,
//! block schedules and the schedule check.

pub mod api;
pub mod atomic;
pub(crate) mod cube_call;
pub mod determine;
pub mod group_barrier;
pub(crate) mod sched;
pub mod schedule;
pub mod schedule_check;

use crate::chip::{ChipProfile, Product};
use atomic::AtomicState;

pub use sched::Clock;

/// Which cross-core synchronisation APIs a product has (the documentation's support lists).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SyncSupport {
    /// Hardware `SyncAll()` (no workspace).
    pub hard_sync_all: bool,
    /// Software `SyncAll(gmWorkspace, ubWorkspace, usedCores)`.
    pub soft_sync_all: bool,
    /// `IBSet` / `IBWait`.
    pub ib_set_wait: bool,
    /// `CrossCoreSetFlag` / `CrossCoreWaitFlag` (modes 0, 1, 2).
    pub cross_core_flags: bool,
}

/// The cross-core synchronisation a product supports.
pub fn sync_support(profile: &ChipProfile) -> SyncSupport {
    let separated = matches!(profile.product, Product::Ascend910B | Product::Ascend910_93);
    let soft = !matches!(profile.product, Product::Ascend310B);
    SyncSupport {
        hard_sync_all: separated,
        soft_sync_all: soft,
        ib_set_wait: soft,
        cross_core_flags: separated,
    }
}

/// A core's cross-core state: its GM atomic mode, and what the launch's race check needs to
/// order its GM accesses against other cores'.
#[derive(Debug, Clone, Default)]
pub struct CoreSync {
    /// The GM atomic mode in force.
    pub atomic: AtomicState,
    /// The core's index in the launch.
    pub core_index: usize,
    /// (first instruction index, vector clock from that instruction on), one per
    /// synchronisation; instructions before the first entry have the initial clock.
    pub clocks: Vec<(u32, Clock)>,
    /// (first instruction index, atomic mode from that instruction on), one per change.
    pub atomics: Vec<(u32, AtomicState)>,
    /// The launch runs cube and vector cores together (MIX_MODE / MIX_AIC_1_1).
    pub mixed: bool,
    soft_rounds: Vec<((u64, usize), u32)>,
    /// Markers of per-core API state: the once-per-core APIs this core has called
    /// (`SetNextTaskStart`, `WaitPreTaskEnd`) and an open `MetricsProfStart` range.
    pub(crate) marks: Vec<&'static str>,
    /// Per workspace (allocation, byte) of `InitDetermineComputeWorkspace`: this core's
    /// (`WaitPreBlock`, `NotifyNextBlock`) call counts.
    pub(crate) determine: Vec<((u64, usize), (u32, u32))>,
}

impl CoreSync {
    /// How many software `SyncAll`s this core completed on the workspace at (allocation, byte).
    pub(crate) fn soft_rounds(&self, key: (u64, usize)) -> u32 {
        self.soft_rounds
            .iter()
            .find(|(k, _)| *k == key)
            .map_or(0, |(_, n)| *n)
    }

    pub(crate) fn set_soft_rounds(&mut self, key: (u64, usize), n: u32) {
        match self.soft_rounds.iter_mut().find(|(k, _)| *k == key) {
            Some(e) => e.1 = n,
            None => self.soft_rounds.push((key, n)),
        }
    }

    /// The vector clock in force at instruction `i` of a core with launch index `me` among `n`.
    pub fn clock_at(&self, i: u32, me: usize, n: usize) -> std::borrow::Cow<'_, Clock> {
        let k = self.clocks.partition_point(|(at, _)| *at <= i);
        if k == 0 {
            let mut c = vec![0; n];
            c[me] = 1;
            std::borrow::Cow::Owned(c)
        } else {
            std::borrow::Cow::Borrowed(&self.clocks[k - 1].1)
        }
    }

    /// The atomic mode in force at instruction `i`.
    pub fn atomic_at(&self, i: u32) -> AtomicState {
        let k = self.atomics.partition_point(|(at, _)| *at <= i);
        if k == 0 {
            AtomicState::default()
        } else {
            self.atomics[k - 1].1
        }
    }
}
