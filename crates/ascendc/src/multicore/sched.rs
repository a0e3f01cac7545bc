//! The launch scheduler: which cores of a launch have started, run, wait or have finished; the
//! cross-core synchronisation state (SyncAll barriers, IBSet slots, CrossCoreSetFlag counters);
//! the vector clocks that order GM accesses between cores; and deadlock detection.
//!
//! Two ways of running, chosen by the launch:
//! * free (no schedule): a pool of worker threads takes unstarted cores; a core that waits for
//!   another keeps its thread and the pool gets one more worker while unstarted cores remain, so
//!   every core that can be waited for eventually runs;
//! * scheduled ([`Schedule`]): one core runs at a time, the schedule picks the next at every start
//!   and synchronisation point.
//!
//! In both, a state in which no core runs, none can start and no waiting core's condition holds
//! is a deadlock: every waiting core fails with what it waits for.

use super::schedule::{pick, Schedule};
use crate::core::{CoreId, CoreKind};
use crate::error::{Category, Result, SimError, SourceLoc};
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap, VecDeque};
use std::fmt::Write as _;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// A vector clock: per core of the launch, the latest of its epochs this core is ordered after.
pub type Clock = Vec<u32>;

/// What a waiting core waits for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum WaitOn {
    /// A barrier to pass generation `gen`.
    Barrier { key: BarrierKey, gen: u64 },
    /// The `IBSet`/`IBWait` slot of block `block`, event `event` (GM slot `slot` of allocation
    /// `region`) to hold `want`: 1 for an `IBWait` (an `IBSet` to consume), 0 for an `IBSet` (the
    /// slot's earlier `IBSet` consumed).
    Ib {
        region: u64,
        slot: usize,
        block: i32,
        event: i32,
        want: i32,
    },
    /// A `CrossCoreSetFlag` counter of this core to become non-zero.
    Flag { flag: u8, mode: u8 },
    /// The `need`-th `NotifyNextBlock` of core `pre` on the workspace at (`region`, `offset`).
    Determine {
        region: u64,
        offset: usize,
        pre: usize,
        need: u32,
    },
    /// The GM counter at (`region`, `offset`) to reach `need` (`what` it counts, for the
    /// deadlock report).
    Counter {
        region: u64,
        offset: usize,
        need: u32,
        what: &'static str,
    },
    /// A message to this cube core from a vector core of its AI Core, or the end of all of them.
    Mail,
    /// The answer of this vector core's cube core to its last message.
    Reply,
}

/// A message between the cores of one AI Core (the high-level Matmul's requests and answers):
/// opaque to the scheduler, which only orders and delivers it.
pub(crate) type Mail = Box<dyn std::any::Any + Send>;

/// One barrier: the hardware SyncAll of the vector cores or of all cores, or a software SyncAll
/// on a GM workspace.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum BarrierKey {
    /// `SyncAll<true>()`: every vector core (every core on coupled products).
    Vector,
    /// `SyncAll<false>()`: every core of the launch.
    All,
    /// `SyncAll(gmWorkspace, ubWorkspace, usedCores)` on a workspace at (allocation, byte).
    Soft(u64, usize),
}

#[derive(Debug, Clone)]
struct Wait {
    on: WaitOn,
    api: &'static str,
    loc: SourceLoc,
}

#[derive(Debug, Clone)]
enum Status {
    Unstarted,
    Running,
    /// Scheduled mode: parked at a synchronisation point, runnable, waiting for the baton.
    Ready,
    Waiting(Wait),
    Finished,
}

#[derive(Debug, Default)]
struct Barrier {
    participants: Vec<usize>,
    arrived: Vec<usize>,
    gen: u64,
    merged: Clock,
    released: Clock,
}

/// One `IBSet`/`IBWait` slot: the value its GM flag holds (read from GM whenever a core reaches
/// the slot, written under the scheduler lock) and the merged clocks of the calls that wrote it.
#[derive(Debug)]
struct IbSlot {
    value: i32,
    clock: Clock,
}

/// A GM counter that cores add to atomically and wait on (`GroupBarrier`): the value GM holds,
/// the merged clocks of the additions and the cores that added.
#[derive(Debug)]
struct GmCounter {
    value: u32,
    clock: Clock,
    adders: Vec<usize>,
}

/// A group of `CrossCoreSetFlag` calls that completes together: (mode, AI Core, flag, set by
/// the AIC).
type FlagGroup = (u8, u32, u8, bool);

struct State {
    status: Vec<Status>,
    unstarted: VecDeque<usize>,
    /// Scheduled mode: the cores the schedule started that have not finished (few: one runs,
    /// the others wait or yielded), so that a hand-over does not look at every core.
    live: BTreeSet<usize>,
    running: usize,
    finished: usize,
    spawn_workers: usize,
    start_threads: Vec<usize>,
    baton: Option<usize>,
    rng: u64,
    deadlock: bool,
    /// Core threads asleep on the condition variable.
    sleepers: usize,
    barriers: HashMap<BarrierKey, Barrier>,
    /// Per core and flag ID: one clock per pending count of the flag's counter (cores that
    /// never received a flag have no entry).
    flags: HashMap<usize, [VecDeque<Clock>; 16]>,
    /// Pending `CrossCoreSetFlag` calls of a group that completes together: (mode, group, flag,
    /// setter kind) → per member, the clocks of its sets not yet matched.
    flag_sets: HashMap<FlagGroup, HashMap<usize, VecDeque<Clock>>>,
    /// The `IBSet`/`IBWait` slots touched so far, per GM slot.
    ib: HashMap<(u64, usize), IbSlot>,
    /// Clocks of the `NotifyNextBlock` calls per (workspace allocation, byte, core), one per call.
    notifies: HashMap<(u64, usize, usize), Vec<Clock>>,
    /// The GM counters added to or waited on so far, per (allocation, byte).
    counters: HashMap<(u64, usize), GmCounter>,
    /// Per core, its vector clock; empty until the core first synchronises (launches of tens of
    /// thousands of blocks never synchronise across cores, and n clocks of n entries would not fit).
    clocks: Vec<Clock>,
    /// Per cube core: the messages its vector cores posted and it has not taken (sender,
    /// sender's clock, message).
    mail: HashMap<usize, VecDeque<(usize, Clock, Mail)>>,
    /// Per vector core: the answers posted to it and not yet taken.
    replies: HashMap<usize, VecDeque<(Clock, Mail)>>,
}

impl State {
    /// The vector clock of core `me`, created (own entry 1) on first use.
    fn clock_mut(&mut self, me: usize) -> &mut Clock {
        let n = self.status.len();
        let c = &mut self.clocks[me];
        if c.is_empty() {
            c.resize(n, 0);
            c[me] = 1;
        }
        c
    }
}

/// The shared scheduler of one launch.
pub(crate) struct Sched {
    state: Mutex<State>,
    cv: Condvar,
    /// The cores of the launch, in launch order.
    pub cores: Vec<CoreId>,
    /// The AI Core (block group) of each core.
    group: Vec<u32>,
    /// `blockDim`.
    pub block_dim: u32,
    /// How many blocks of this launch's mode the product can hold at once.
    pub resident_limit: (u32, &'static str),
    schedule: Option<Schedule>,
}

thread_local! {
    static CURRENT: RefCell<Option<(Arc<Sched>, usize)>> = const { RefCell::new(None) };
}

/// Makes `(sched, core)` the scheduler and launch core index of this thread.
pub(crate) fn install(sched: Arc<Sched>, core: usize) {
    CURRENT.with(|c| *c.borrow_mut() = Some((sched, core)));
}

/// Removes this thread's scheduler.
pub(crate) fn uninstall() {
    CURRENT.with(|c| *c.borrow_mut() = None);
}

/// This thread's scheduler and core index.
pub(crate) fn current(api: &'static str) -> Result<(Arc<Sched>, usize)> {
    CURRENT.with(|c| c.borrow().clone()).ok_or_else(|| {
        SimError::new(
            Category::Launch,
            api,
            "called outside a kernel launch: run the kernel with ascendc::Launch",
        )
    })
}

impl Sched {
    /// A scheduler for `cores` (launch order) grouped by AI Core in `group`.
    pub(crate) fn new(
        cores: Vec<CoreId>,
        group: Vec<u32>,
        block_dim: u32,
        resident_limit: (u32, &'static str),
        schedule: Option<Schedule>,
    ) -> Sched {
        let n = cores.len();
        let unstarted: VecDeque<usize> = match schedule {
            Some(Schedule::Reverse) => (0..n).rev().collect(),
            _ => (0..n).collect(),
        };
        let clocks = vec![Clock::new(); n];
        Sched {
            state: Mutex::new(State {
                status: vec![Status::Unstarted; n],
                unstarted,
                live: BTreeSet::new(),
                running: 0,
                finished: 0,
                spawn_workers: 0,
                start_threads: Vec::new(),
                baton: None,
                rng: match schedule {
                    Some(Schedule::Shuffle(s)) => s,
                    _ => 0,
                },
                deadlock: false,
                sleepers: 0,
                barriers: HashMap::new(),
                flags: HashMap::new(),
                flag_sets: HashMap::new(),
                ib: HashMap::new(),
                notifies: HashMap::new(),
                counters: HashMap::new(),
                clocks,
                mail: HashMap::new(),
                replies: HashMap::new(),
            }),
            cv: Condvar::new(),
            cores,
            group,
            block_dim,
            resident_limit,
            schedule,
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sleeps on the condition variable as a core (counted, so that finishing cores know
    /// whether anyone needs waking).
    fn wait<'a>(&self, mut g: MutexGuard<'a, State>) -> MutexGuard<'a, State> {
        g.sleepers += 1;
        let mut g = self.cv.wait(g).unwrap_or_else(|e| e.into_inner());
        g.sleepers -= 1;
        g
    }

    /// True when the launch runs one core at a time under a schedule.
    pub(crate) fn scheduled(&self) -> bool {
        self.schedule.is_some()
    }

    // ---- the launch side ----

    /// Drives the launch on the calling thread: `spawn_worker` starts a pool worker (free mode),
    /// `spawn_core` a thread for one core (scheduled mode). Returns when every core finished.
    pub(crate) fn drive(
        &self,
        workers: usize,
        mut spawn_worker: impl FnMut(),
        mut spawn_core: impl FnMut(usize),
    ) {
        let mut st = self.lock();
        if self.scheduled() {
            self.hand_over(&mut st);
        } else {
            st.spawn_workers = workers.max(1);
        }
        loop {
            if st.spawn_workers > 0 {
                st.spawn_workers -= 1;
                drop(st);
                spawn_worker();
                st = self.lock();
                continue;
            }
            if let Some(i) = st.start_threads.pop() {
                drop(st);
                spawn_core(i);
                st = self.lock();
                continue;
            }
            if st.finished == self.cores.len() {
                return;
            }
            st = self.cv.wait(st).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Free mode: the next core for a pool worker, marked running (`None`: all started).
    pub(crate) fn next_core(&self) -> Option<usize> {
        let mut st = self.lock();
        let Some(i) = st.unstarted.pop_front() else {
            // A worker added for a waiting core found nothing left: every core has started.
            self.detect(&mut st);
            return None;
        };
        st.status[i] = Status::Running;
        st.running += 1;
        Some(i)
    }

    /// Scheduled mode: blocks the core's own thread until the schedule starts it.
    pub(crate) fn begin(&self, me: usize) {
        let mut st = self.lock();
        while st.baton != Some(me) {
            st = self.wait(st);
        }
        st.status[me] = Status::Running;
        st.running += 1;
    }

    /// Marks a core finished (whatever its outcome).
    pub(crate) fn finish(&self, me: usize) {
        let mut st = self.lock();
        self.finish_locked(&mut st, me);
    }

    /// Free mode: marks core `me` finished and hands out the next core, under one lock.
    pub(crate) fn finish_and_next(&self, me: usize) -> Option<usize> {
        let mut st = self.lock();
        self.finish_locked(&mut st, me);
        let i = st.unstarted.pop_front()?;
        st.status[i] = Status::Running;
        st.running += 1;
        Some(i)
    }

    fn finish_locked(&self, st: &mut State, me: usize) {
        st.status[me] = Status::Finished;
        st.live.remove(&me);
        st.running -= 1;
        st.finished += 1;
        if self.scheduled() {
            self.hand_over(st);
        } else {
            self.detect(st);
        }
        // The launch thread only needs waking for the last core; waiting cores for anything.
        if st.sleepers > 0 || st.finished == self.cores.len() || self.scheduled() {
            self.cv.notify_all();
        }
    }

    // ---- the kernel side ----

    /// Checks the rule every cross-core synchronisation needs: all blocks resident at once.
    pub(crate) fn check_resident(&self, api: &'static str) -> Result<()> {
        let (limit, what) = self.resident_limit;
        if self.block_dim > limit {
            return Err(SimError::new(
                Category::Launch,
                api,
                format!(
                    "a kernel that synchronises across cores needs every block resident at once: blockDim {} exceeds the {limit} {what} of the product (blockDim must not exceed the core count)",
                    self.block_dim
                ),
            ));
        }
        Ok(())
    }

    /// The vector clock of core `me` now.
    pub(crate) fn clock(&self, me: usize) -> Clock {
        self.lock().clock_mut(me).clone()
    }

    /// The core indices of a hardware barrier's participants.
    fn participants(&self, key: BarrierKey, used: usize) -> Vec<usize> {
        (0..self.cores.len())
            .filter(|&i| {
                let c = self.cores[i];
                match key {
                    BarrierKey::All => true,
                    BarrierKey::Vector => c.kind != CoreKind::Aic,
                    BarrierKey::Soft(..) => {
                        c.kind != CoreKind::Aic && (c.block_idx as usize) < used
                    }
                }
            })
            .collect()
    }

    /// Arrives at a barrier and waits until every participant has (`SyncAll`). `used` is the
    /// number of participating blocks of a software barrier.
    pub(crate) fn barrier(
        &self,
        me: usize,
        key: BarrierKey,
        used: usize,
        api: &'static str,
        loc: SourceLoc,
    ) -> Result<()> {
        let mut st = self.lock();
        let participants = self.participants(key, used);
        if !participants.contains(&me) {
            return Err(SimError::new(
                Category::Sync,
                api,
                format!("{} does not take part in this barrier", self.cores[me]),
            ));
        }
        let clock = st.clock_mut(me).clone();
        st.clock_mut(me)[me] += 1;
        let b = st.barriers.entry(key).or_default();
        if b.participants.is_empty() {
            b.participants = participants;
            b.merged = vec![0; self.cores.len()];
        }
        merge(&mut b.merged, &clock);
        b.arrived.push(me);
        let gen = b.gen;
        if b.arrived.len() == b.participants.len() {
            b.gen += 1;
            b.arrived.clear();
            b.released = std::mem::replace(&mut b.merged, vec![0; self.cores.len()]);
            self.cv.notify_all();
        }
        let mut st = self.block_on(st, me, WaitOn::Barrier { key, gen }, api, loc)?;
        let released = st.barriers[&key].released.clone();
        merge(st.clock_mut(me), &released);
        Ok(())
    }

    /// `IBSet` (`want` = 0) or `IBWait` (`want` = 1) on slot (`region`, `slot`): waits until the
    /// slot's flag holds `want`, then writes `1 - want` (`IBSet` raises the flag, `IBWait`
    /// consumes it). `read` and `write` access the GM flag; both run under the scheduler lock, so
    /// the test and the write are one step. The caller is ordered after the call that last wrote
    /// the slot, and the next call on the slot after the caller.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn ib(
        &self,
        me: usize,
        (region, slot): (u64, usize),
        (block, event): (i32, i32),
        want: i32,
        read: impl FnOnce() -> Result<i32>,
        write: impl FnOnce(i32) -> Result<()>,
        api: &'static str,
        loc: SourceLoc,
    ) -> Result<()> {
        let mut st = self.lock();
        if st.deadlock {
            return Err(SimError::new(Category::Sync, api, "the launch is deadlocked").at(loc));
        }
        let value = read()?;
        let n = self.cores.len();
        st.ib
            .entry((region, slot))
            .or_insert_with(|| IbSlot {
                value,
                clock: vec![0; n],
            })
            .value = value;
        let on = WaitOn::Ib {
            region,
            slot,
            block,
            event,
            want,
        };
        let mut waited = false;
        while !self.ready(&st, me, &on) {
            st = self.block_on(st, me, on.clone(), api, loc)?;
            waited = true;
        }
        write(1 - want)?;
        let clock = st.clock_mut(me).clone();
        st.clock_mut(me)[me] += 1;
        let e = st.ib.get_mut(&(region, slot)).expect("entered above");
        e.value = 1 - want;
        merge(&mut e.clock, &clock);
        let published = e.clock.clone();
        merge(st.clock_mut(me), &published);
        self.cv.notify_all();
        if waited {
            Ok(())
        } else {
            self.yield_point(st, me, api, loc).map(drop)
        }
    }

    /// The cores a `CrossCoreSetFlag` of `me` in `mode` counts towards, and the cores whose
    /// counters it raises once the group is complete: (members that must all set, receivers).
    fn flag_group(&self, me: usize, mode: u8) -> (Vec<usize>, Vec<usize>) {
        let c = self.cores[me];
        let all = 0..self.cores.len();
        match mode {
            0 => {
                let same: Vec<usize> = all.filter(|&i| self.cores[i].kind == c.kind).collect();
                (same.clone(), same)
            }
            1 => {
                let sib: Vec<usize> = all
                    .filter(|&i| {
                        self.cores[i].kind == CoreKind::Aiv && self.group[i] == self.group[me]
                    })
                    .collect();
                (sib.clone(), sib)
            }
            _ => {
                let in_group = |k: CoreKind| -> Vec<usize> {
                    (0..self.cores.len())
                        .filter(|&i| self.cores[i].kind == k && self.group[i] == self.group[me])
                        .collect()
                };
                if c.kind == CoreKind::Aic {
                    (vec![me], in_group(CoreKind::Aiv))
                } else {
                    (in_group(CoreKind::Aiv), in_group(CoreKind::Aic))
                }
            }
        }
    }

    /// `CrossCoreSetFlag<mode>(flag)`: counts this core's set; when every member of the group
    /// has set the flag, raises the flag counter of each receiver.
    pub(crate) fn cross_set(
        &self,
        me: usize,
        mode: u8,
        flag: u8,
        api: &'static str,
        loc: SourceLoc,
    ) -> Result<()> {
        let (members, receivers) = self.flag_group(me, mode);
        let mut st = self.lock();
        let clock = st.clock_mut(me).clone();
        st.clock_mut(me)[me] += 1;
        let key = (
            mode,
            if mode == 0 { 0 } else { self.group[me] },
            flag,
            self.cores[me].kind == CoreKind::Aic,
        );
        let pending = st.flag_sets.entry(key).or_default();
        pending.entry(me).or_default().push_back(clock);
        if members
            .iter()
            .all(|m| pending.get(m).is_some_and(|q| !q.is_empty()))
        {
            let mut merged = vec![0; self.cores.len()];
            for m in &members {
                let c = pending
                    .get_mut(m)
                    .and_then(|q| q.pop_front())
                    .expect("checked non-empty");
                merge(&mut merged, &c);
            }
            for r in receivers {
                let q = &mut st.flags.entry(r).or_default()[flag as usize];
                if q.len() >= 15 {
                    return Err(SimError::new(
                        Category::Sync,
                        api,
                        format!(
                            "flag {flag} counter of {} would exceed 15: it was set {} times without a CrossCoreWaitFlag",
                            self.cores[r],
                            q.len()
                        ),
                    ));
                }
                q.push_back(merged.clone());
            }
            self.cv.notify_all();
        }
        self.yield_point(st, me, api, loc).map(drop)
    }

    /// `CrossCoreWaitFlag<mode>(flag)`: waits until this core's counter of `flag` is non-zero,
    /// then takes one count.
    pub(crate) fn cross_wait(
        &self,
        me: usize,
        mode: u8,
        flag: u8,
        api: &'static str,
        loc: SourceLoc,
    ) -> Result<()> {
        let st = self.lock();
        let mut st = self.block_on(st, me, WaitOn::Flag { flag, mode }, api, loc)?;
        let c = st
            .flags
            .get_mut(&me)
            .and_then(|f| f[flag as usize].pop_front())
            .expect("ready means non-zero");
        merge(st.clock_mut(me), &c);
        Ok(())
    }

    /// The vector cores of core `me`'s AI Core.
    fn group_vector_cores(&self, me: usize) -> impl Iterator<Item = usize> + '_ {
        let g = self.group[me];
        (0..self.cores.len())
            .filter(move |&i| self.group[i] == g && self.cores[i].kind != CoreKind::Aic)
    }

    /// True when core `me`'s AI Core has a core of the other kind (cube and vector).
    pub(crate) fn has_partner(&self, me: usize) -> bool {
        let is_cube = self.cores[me].kind == CoreKind::Aic;
        if is_cube {
            self.group_vector_cores(me).next().is_some()
        } else {
            self.group_cube_core(me).is_some()
        }
    }

    /// The cube core of core `me`'s AI Core, if the launch has one.
    pub(crate) fn group_cube_core(&self, me: usize) -> Option<usize> {
        let g = self.group[me];
        (0..self.cores.len()).find(|&i| self.group[i] == g && self.cores[i].kind == CoreKind::Aic)
    }

    /// Posts `mail` from vector core `me` to the cube core `to` of its AI Core; the cube core is
    /// ordered after everything `me` did before.
    pub(crate) fn post(&self, me: usize, to: usize, mail: Mail) {
        let mut st = self.lock();
        let clock = st.clock_mut(me).clone();
        st.clock_mut(me)[me] += 1;
        st.mail.entry(to).or_default().push_back((me, clock, mail));
        self.cv.notify_all();
    }

    /// Cube core `me` takes the next message of its vector cores, waiting for one; `None` once
    /// every vector core of its AI Core has finished and no message is left.
    pub(crate) fn receive(
        &self,
        me: usize,
        api: &'static str,
        loc: SourceLoc,
    ) -> Result<Option<(usize, Mail)>> {
        let st = self.lock();
        let mut st = self.block_on(st, me, WaitOn::Mail, api, loc)?;
        let Some((from, clock, mail)) = st.mail.get_mut(&me).and_then(VecDeque::pop_front) else {
            return Ok(None);
        };
        merge(st.clock_mut(me), &clock);
        Ok(Some((from, mail)))
    }

    /// Cube core `me` answers vector core `to`; `to` is ordered after everything `me` did before.
    pub(crate) fn reply(&self, me: usize, to: usize, mail: Mail) {
        let mut st = self.lock();
        let clock = st.clock_mut(me).clone();
        st.clock_mut(me)[me] += 1;
        st.replies.entry(to).or_default().push_back((clock, mail));
        self.cv.notify_all();
    }

    /// Vector core `me` waits for its cube core's next answer.
    pub(crate) fn await_reply(&self, me: usize, api: &'static str, loc: SourceLoc) -> Result<Mail> {
        let st = self.lock();
        let mut st = self.block_on(st, me, WaitOn::Reply, api, loc)?;
        let (clock, mail) = st
            .replies
            .get_mut(&me)
            .and_then(VecDeque::pop_front)
            .expect("ready means an answer");
        merge(st.clock_mut(me), &clock);
        Ok(mail)
    }

    /// The vector cores of the launch (every core but the cube cores).
    pub(crate) fn vector_cores(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.cores.len()).filter(|&i| self.cores[i].kind != CoreKind::Aic)
    }

    /// `NotifyNextBlock`: publishes this core's clock as its next notification on the workspace
    /// at (`region`, `offset`); `write` updates the GM slot under the scheduler lock.
    pub(crate) fn determine_notify(
        &self,
        me: usize,
        region: u64,
        offset: usize,
        write: impl FnOnce() -> Result<()>,
        api: &'static str,
        loc: SourceLoc,
    ) -> Result<()> {
        let mut st = self.lock();
        write()?;
        let clock = st.clock_mut(me).clone();
        st.clock_mut(me)[me] += 1;
        st.notifies
            .entry((region, offset, me))
            .or_default()
            .push(clock);
        self.cv.notify_all();
        self.yield_point(st, me, api, loc).map(drop)
    }

    /// `WaitPreBlock`: waits until core `pre` has notified `need` times on the workspace, then
    /// carries the clock of that notification.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn determine_wait(
        &self,
        me: usize,
        pre: usize,
        need: u32,
        region: u64,
        offset: usize,
        api: &'static str,
        loc: SourceLoc,
    ) -> Result<()> {
        let st = self.lock();
        if need == 0 {
            return self.yield_point(st, me, api, loc).map(drop);
        }
        let on = WaitOn::Determine {
            region,
            offset,
            pre,
            need,
        };
        let mut st = self.block_on(st, me, on, api, loc)?;
        if let Some(c) = st
            .notifies
            .get(&(region, offset, pre))
            .and_then(|v| v.get(need as usize - 1))
            .cloned()
        {
            merge(st.clock_mut(me), &c);
        }
        Ok(())
    }

    /// Atomic additions to GM counters: `add` updates them in GM under the scheduler lock and
    /// gives each one's key (allocation, byte) and new value. Each counter then carries the
    /// caller's clock, so a core that reads it afterwards is ordered after this call.
    pub(crate) fn counter_add(
        &self,
        me: usize,
        add: impl FnOnce() -> Result<Vec<((u64, usize), u32)>>,
        api: &'static str,
        loc: SourceLoc,
    ) -> Result<()> {
        let mut st = self.lock();
        if st.deadlock {
            return Err(SimError::new(Category::Sync, api, "the launch is deadlocked").at(loc));
        }
        let updated = add()?;
        let clock = st.clock_mut(me).clone();
        st.clock_mut(me)[me] += 1;
        let n = self.cores.len();
        for (key, value) in updated {
            let c = st.counters.entry(key).or_insert_with(|| GmCounter {
                value,
                clock: vec![0; n],
                adders: Vec::new(),
            });
            c.value = value;
            merge(&mut c.clock, &clock);
            if !c.adders.contains(&me) {
                c.adders.push(me);
            }
        }
        self.cv.notify_all();
        self.yield_point(st, me, api, loc).map(drop)
    }

    /// Waits until the GM counter at `key` holds at least `need` (`read` gives its value in GM,
    /// read under the scheduler lock), then carries the clocks of the additions it has seen.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn counter_wait(
        &self,
        me: usize,
        key: (u64, usize),
        need: u32,
        what: &'static str,
        read: impl FnOnce() -> Result<u32>,
        api: &'static str,
        loc: SourceLoc,
    ) -> Result<()> {
        let mut st = self.lock();
        if st.deadlock {
            return Err(SimError::new(Category::Sync, api, "the launch is deadlocked").at(loc));
        }
        let value = read()?;
        let n = self.cores.len();
        st.counters
            .entry(key)
            .or_insert_with(|| GmCounter {
                value,
                clock: vec![0; n],
                adders: Vec::new(),
            })
            .value = value;
        let on = WaitOn::Counter {
            region: key.0,
            offset: key.1,
            need,
            what,
        };
        let waited = !self.ready(&st, me, &on);
        if waited {
            st = self.block_on(st, me, on, api, loc)?;
        }
        let seen = st.counters[&key].clock.clone();
        merge(st.clock_mut(me), &seen);
        if waited {
            Ok(())
        } else {
            self.yield_point(st, me, api, loc).map(drop)
        }
    }

    // ---- waiting, scheduling and deadlock detection ----

    fn ready(&self, st: &State, me: usize, on: &WaitOn) -> bool {
        match on {
            WaitOn::Barrier { key, gen } => st.barriers.get(key).is_some_and(|b| b.gen > *gen),
            WaitOn::Ib {
                region, slot, want, ..
            } => st
                .ib
                .get(&(*region, *slot))
                .is_some_and(|e| e.value == *want),
            WaitOn::Flag { flag, .. } => st
                .flags
                .get(&me)
                .is_some_and(|f| !f[*flag as usize].is_empty()),
            WaitOn::Determine {
                region,
                offset,
                pre,
                need,
            } => st
                .notifies
                .get(&(*region, *offset, *pre))
                .is_some_and(|v| v.len() >= *need as usize),
            WaitOn::Counter {
                region,
                offset,
                need,
                ..
            } => st
                .counters
                .get(&(*region, *offset))
                .is_some_and(|c| c.value >= *need),
            WaitOn::Mail => {
                st.mail.get(&me).is_some_and(|q| !q.is_empty())
                    || self
                        .group_vector_cores(me)
                        .all(|i| matches!(st.status[i], Status::Finished))
            }
            WaitOn::Reply => st.replies.get(&me).is_some_and(|q| !q.is_empty()),
        }
    }

    fn block_on<'a>(
        &'a self,
        mut st: MutexGuard<'a, State>,
        me: usize,
        on: WaitOn,
        api: &'static str,
        loc: SourceLoc,
    ) -> Result<MutexGuard<'a, State>> {
        let wait = Wait {
            on: on.clone(),
            api,
            loc,
        };
        st.status[me] = Status::Waiting(wait.clone());
        st.running -= 1;
        if self.scheduled() {
            self.hand_over(&mut st);
        } else if !st.unstarted.is_empty() {
            // Keep the pool's width: another worker takes the next unstarted core.
            st.spawn_workers += 1;
            self.cv.notify_all();
        }
        loop {
            if st.deadlock {
                let msg = self.edge(&st, me, &wait);
                st.status[me] = Status::Running;
                st.running += 1;
                return Err(SimError::new(Category::Sync, api, msg).at(loc));
            }
            let go = if self.scheduled() {
                st.baton == Some(me)
            } else {
                self.ready(&st, me, &on)
            };
            if go {
                st.status[me] = Status::Running;
                st.running += 1;
                return Ok(st);
            }
            if !self.scheduled() {
                self.detect(&mut st);
                if st.deadlock {
                    continue;
                }
            }
            st = self.wait(st);
        }
    }

    /// A synchronisation point where the core stays runnable: under a schedule another runnable
    /// core may continue first.
    fn yield_point<'a>(
        &'a self,
        mut st: MutexGuard<'a, State>,
        me: usize,
        api: &'static str,
        loc: SourceLoc,
    ) -> Result<MutexGuard<'a, State>> {
        if self.scheduled() && !st.deadlock {
            st.status[me] = Status::Ready;
            st.running -= 1;
            self.hand_over(&mut st);
            while st.baton != Some(me) && !st.deadlock {
                st = self.wait(st);
            }
            st.status[me] = Status::Running;
            st.running += 1;
        }
        if st.deadlock {
            return Err(SimError::new(Category::Sync, api, "the launch is deadlocked").at(loc));
        }
        Ok(st)
    }

    /// Scheduled mode: gives the baton to the runnable core the schedule picks, starting its
    /// thread if it has not started; flags a deadlock when nothing can run but cores wait.
    fn hand_over(&self, st: &mut State) {
        let sched = self.schedule.expect("scheduled mode");
        // Started cores that can run now, ascending; unstarted cores wait in `unstarted` in the
        // schedule's start order (ascending, descending for `reverse`). Order and reverse take
        // an end of each, so a launch costs time linear in its blocks.
        let live: Vec<usize> = st
            .live
            .iter()
            .copied()
            .filter(|&i| match &st.status[i] {
                Status::Ready => true,
                Status::Waiting(w) => self.ready(st, i, &w.on),
                _ => false,
            })
            .collect();
        let next = match sched {
            Schedule::Order => match (live.first(), st.unstarted.front()) {
                (Some(&a), Some(&b)) => Some(a.min(b)),
                (a, b) => a.or(b).copied(),
            },
            Schedule::Reverse => match (live.last(), st.unstarted.front()) {
                (Some(&a), Some(&b)) => Some(a.max(b)),
                (a, b) => a.or(b).copied(),
            },
            Schedule::Shuffle(_) => {
                // Both lists ascending: one merge.
                let mut cand = Vec::with_capacity(live.len() + st.unstarted.len());
                let (mut i, mut j) = (0, 0);
                while i < live.len() || j < st.unstarted.len() {
                    if j == st.unstarted.len() || (i < live.len() && live[i] < st.unstarted[j]) {
                        cand.push(live[i]);
                        i += 1;
                    } else {
                        cand.push(st.unstarted[j]);
                        j += 1;
                    }
                }
                (!cand.is_empty()).then(|| pick(sched, &mut st.rng, &cand))
            }
        };
        match next {
            None => {
                st.baton = None;
                if st.status.iter().any(|s| matches!(s, Status::Waiting(_))) {
                    st.deadlock = true;
                }
            }
            Some(next) => {
                if matches!(st.status[next], Status::Unstarted) {
                    // Its thread starts now and waits in `begin` for the baton.
                    if st.unstarted.front() == Some(&next) {
                        st.unstarted.pop_front();
                    } else {
                        st.unstarted.retain(|&u| u != next);
                    }
                    st.live.insert(next);
                    st.start_threads.push(next);
                }
                st.baton = Some(next);
            }
        }
        self.cv.notify_all();
    }

    /// Free mode: flags a deadlock when no core runs or can start and no waiting core is ready.
    fn detect(&self, st: &mut State) {
        if st.deadlock || st.running > 0 || !st.unstarted.is_empty() {
            return;
        }
        let mut any = false;
        for (i, s) in st.status.iter().enumerate() {
            if let Status::Waiting(w) = s {
                any = true;
                if self.ready(st, i, &w.on) {
                    return;
                }
            }
        }
        if any {
            st.deadlock = true;
            self.cv.notify_all();
        }
    }

    /// One line of the wait-for graph: what core `me` waits for and who has not provided it.
    fn edge(&self, st: &State, me: usize, w: &Wait) -> String {
        let who = |i: usize| -> String {
            let state = match &st.status[i] {
                Status::Finished => "finished".to_string(),
                Status::Waiting(x) => format!("waiting in {} at {}", x.api, x.loc),
                Status::Running | Status::Ready => "running".to_string(),
                Status::Unstarted => "not started".to_string(),
            };
            format!(
                "{} (block {}, {state})",
                self.cores[i], self.cores[i].block_idx
            )
        };
        let mut s = format!(
            "deadlock: every live core of the launch is waiting; {} (block {}) waits here for ",
            self.cores[me], self.cores[me].block_idx
        );
        match &w.on {
            WaitOn::Barrier { key, .. } => {
                let b = &st.barriers[key];
                let missing: Vec<String> = b
                    .participants
                    .iter()
                    .filter(|p| !b.arrived.contains(p))
                    .map(|&p| who(p))
                    .collect();
                let _ = write!(
                    s,
                    "{} of {} cores at the barrier ({} arrived); not arrived: {}",
                    b.participants.len() - b.arrived.len(),
                    b.participants.len(),
                    b.arrived.len(),
                    missing.join(", ")
                );
            }
            WaitOn::Ib {
                block, event, want, ..
            } => {
                if *want == 1 {
                    let setters: Vec<String> = (0..self.cores.len())
                        .filter(|&i| {
                            self.cores[i].block_idx as i32 == *block
                                && self.cores[i].kind != CoreKind::Aic
                        })
                        .map(who)
                        .collect();
                    let _ = write!(s, "IBSet(blockIdx {block}, eventID {event}), which no core has called since the slot was last consumed; block {block}: {}", setters.join(", "));
                } else {
                    let _ = write!(s, "an IBWait(blockIdx {block}, eventID {event}) to consume the slot's earlier IBSet (the slot still holds 1; IBSet waits until it reads 0)");
                }
            }
            WaitOn::Flag { flag, mode } => {
                let missing: Vec<String> = (0..self.cores.len())
                    .filter(|&i| self.flag_group(i, *mode).1.contains(&me))
                    .filter(|&i| {
                        let key = (
                            *mode,
                            if *mode == 0 { 0 } else { self.group[i] },
                            *flag,
                            self.cores[i].kind == CoreKind::Aic,
                        );
                        st.flag_sets
                            .get(&key)
                            .and_then(|p| p.get(&i))
                            .is_none_or(|q| q.is_empty())
                    })
                    .map(who)
                    .collect();
                let _ = write!(
                    s,
                    "CrossCoreSetFlag<mode {mode}>(flagId {flag}); not set by: {}",
                    missing.join(", ")
                );
            }
            WaitOn::Determine {
                region,
                offset,
                pre,
                need,
            } => {
                let have = st
                    .notifies
                    .get(&(*region, *offset, *pre))
                    .map_or(0, Vec::len);
                let _ = write!(
                    s,
                    "NotifyNextBlock number {need} of block {} on this workspace, which has notified {have} time(s): {}",
                    self.cores[*pre].block_idx,
                    who(*pre)
                );
            }
            WaitOn::Counter {
                region,
                offset,
                need,
                what,
            } => {
                let (value, adders) = st
                    .counters
                    .get(&(*region, *offset))
                    .map_or((0, Vec::new()), |c| {
                        (c.value, c.adders.iter().map(|&i| who(i)).collect())
                    });
                let _ = write!(
                    s,
                    "{need} {what} in all (the GM counter at byte {offset} of its allocation holds {value}); counted so far by: {}",
                    if adders.is_empty() {
                        "no core".to_string()
                    } else {
                        adders.join(", ")
                    }
                );
            }
            WaitOn::Mail => {
                let senders: Vec<String> = self.group_vector_cores(me).map(who).collect();
                let _ = write!(
                    s,
                    "a Matmul request (or the end) of its vector cores: {}",
                    senders.join(", ")
                );
            }
            WaitOn::Reply => {
                let cube: Vec<String> = self.group_cube_core(me).into_iter().map(who).collect();
                let _ = write!(
                    s,
                    "its cube core's answer to a Matmul request: {}",
                    cube.join(", ")
                );
            }
        }
        s
    }
}

fn merge(into: &mut Clock, from: &Clock) {
    for (a, b) in into.iter_mut().zip(from) {
        *a = (*a).max(*b);
    }
}
