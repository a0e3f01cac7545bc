//! Replays each core's instruction record on its pipes: the scalar unit issues in program order,
//! each pipe runs its instructions in order, `SetFlag`/`WaitFlag` (kernel and queue flags) and
//! `PipeBarrier` order pipes, and GM bandwidth is shared between the cores moving data at the
//! same time.

use super::cost::{cost_of, Cost, VectorMemo};
use super::table::CostTable;
use crate::core::trace::{HardEvent, InstrKind, Pipe, Trace};
use crate::core::CoreId;
use crate::error::SourceLoc;
use rustc_hash::FxHashMap;
use std::collections::VecDeque;

/// One scheduled instruction.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Slice {
    /// Index of the instruction in the core's record.
    pub instr: u32,
    /// Pipe it ran on (`PIPE_ALL` for a barrier of every pipe).
    pub pipe: Pipe,
    /// API that issued it.
    pub api: &'static str,
    /// What it is.
    pub kind: InstrKind,
    /// Kernel source line.
    pub location: SourceLoc,
    /// First cycle.
    pub start: u64,
    /// Cycle the pipe is free again.
    pub busy_end: u64,
    /// Cycle its result is readable.
    pub end: u64,
}

/// A flag from a `SetFlag` to the `WaitFlag` it released.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Flow {
    /// The event.
    pub event: HardEvent,
    /// The event ID.
    pub id: u32,
    /// Slice index of the `SetFlag`.
    pub set: usize,
    /// Slice index of the `WaitFlag`.
    pub wait: usize,
}

/// Cycles a pipe waited at a `WaitFlag` or `PipeBarrier`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stall {
    /// Slice index of the waiting instruction.
    pub slice: usize,
    /// Cycles waited beyond when the pipe was otherwise ready.
    pub cycles: u64,
}

/// The timeline of one core.
#[derive(Debug, Clone)]
pub struct CoreTimeline {
    /// The core.
    pub core: CoreId,
    /// Every instruction, in program order.
    pub slices: Vec<Slice>,
    /// Every flag that released a wait.
    pub flows: Vec<Flow>,
    /// Every wait that held its pipe.
    pub stalls: Vec<Stall>,
    /// The cost of every instruction (same order as `slices`).
    pub costs: Vec<Cost>,
    /// Cycles each pipe was busy (union of occupied intervals), indexed by `Pipe as usize`.
    pub busy: [u64; 8],
    /// Cycles from the first issue to the last result.
    pub total: u64,
}

/// When one instruction ran.
#[derive(Debug, Clone, Copy, Default)]
struct Times {
    /// First cycle.
    start: u64,
    /// Cycle the pipe is free again.
    busy_end: u64,
    /// Cycle its result is readable.
    end: u64,
}

/// The flags and waits of a replay, which only the last pass keeps.
#[derive(Debug, Default)]
struct Waits {
    flows: Vec<Flow>,
    stalls: Vec<Stall>,
}

/// One pass over one core with a given GM bandwidth per instruction (bytes per cycle): the
/// times of every instruction into `times` (cleared first), its flags and waits into `waits`
/// when given; returns the cycle of the last result.
fn replay_times(
    table: &CostTable,
    trace: &Trace,
    costs: &[Cost],
    gm_bpc: &[f64],
    times: &mut Vec<Times>,
    mut waits: Option<&mut Waits>,
) -> u64 {
    const N: usize = Pipe::ALL_PIPES.len();
    let mut scalar = 0u64;
    let mut free = [0u64; N];
    let mut done = [0u64; N];
    let mut flags: FxHashMap<(HardEvent, u32), VecDeque<(u64, usize)>> = FxHashMap::default();
    times.clear();
    times.reserve(costs.len());
    let issue = table.scalar_issue as u64;
    for (i, (ins, &c)) in trace.instrs().zip(costs).enumerate() {
        let (pipe, kind) = (ins.pipe(), ins.kind());
        let p = pipe as usize;
        let on_scalar = pipe == Pipe::S;
        // When the instruction leaves the scalar unit's in-order issue.
        let issued = scalar;
        if !on_scalar && pipe != Pipe::ALL {
            scalar += issue;
        }
        let mut stall = |cycles: u64| {
            if let Some(w) = waits.as_deref_mut() {
                w.stalls.push(Stall { slice: i, cycles });
            }
        };
        let (start, busy_end, end) = match kind {
            InstrKind::Op => {
                let gm = if c.gm_bytes > 0 {
                    (c.gm_bytes as f64 / gm_bpc[i]).ceil() as u64
                } else {
                    0
                };
                let start = issued.max(free[p]);
                let busy_end = start + c.busy + gm;
                let end = busy_end + c.latency;
                free[p] = busy_end;
                done[p] = done[p].max(end);
                if on_scalar {
                    scalar = busy_end;
                }
                (start, busy_end, end)
            }
            InstrKind::Barrier if pipe == Pipe::ALL => {
                let all = done.iter().copied().max().unwrap_or(0).max(issued);
                let end = all + c.busy;
                if all > issued {
                    stall(all - issued);
                }
                free.iter_mut().for_each(|f| *f = end);
                done.iter_mut().for_each(|d| *d = (*d).max(end));
                scalar = end;
                (issued, end, end)
            }
            InstrKind::Barrier => {
                let ready = issued.max(free[p]);
                let t = ready.max(done[p]);
                if t > ready {
                    stall(t - ready);
                }
                let end = t + c.busy;
                free[p] = end;
                done[p] = done[p].max(end);
                if on_scalar {
                    scalar = end;
                }
                (ready, end, end)
            }
            InstrKind::SetFlag(event, id) => {
                // The flag is raised once every earlier instruction of the pipe has finished.
                let t = issued.max(free[p]).max(done[p]);
                let end = t + c.busy;
                free[p] = end;
                done[p] = done[p].max(end);
                if on_scalar {
                    scalar = end;
                }
                flags.entry((event, id)).or_default().push_back((end, i));
                (t, end, end)
            }
            InstrKind::WaitFlag(event, id) => {
                let ready = issued.max(free[p]);
                let set = flags.get_mut(&(event, id)).and_then(|q| q.pop_front());
                let release = set.map_or(0, |(t, _)| t + table.flag_latency as u64);
                let t = ready.max(release);
                if t > ready {
                    stall(t - ready);
                }
                if let (Some((_, s)), Some(w)) = (set, waits.as_deref_mut()) {
                    w.flows.push(Flow {
                        event,
                        id,
                        set: s,
                        wait: i,
                    });
                }
                let end = t + c.busy;
                free[p] = end;
                done[p] = done[p].max(end);
                if on_scalar {
                    scalar = end;
                }
                (ready, end, end)
            }
        };
        times.push(Times {
            start,
            busy_end,
            end,
        });
    }
    done.iter().copied().max().unwrap_or(0).max(scalar)
}

/// The timeline of one core from its last pass.
fn replay(
    table: &CostTable,
    core: CoreId,
    trace: &Trace,
    costs: Vec<Cost>,
    gm_bpc: &[f64],
) -> CoreTimeline {
    let (mut times, mut waits) = (Vec::new(), Waits::default());
    let total = replay_times(table, trace, &costs, gm_bpc, &mut times, Some(&mut waits));
    let slices: Vec<Slice> = trace
        .instrs()
        .zip(&times)
        .enumerate()
        .map(|(i, (ins, t))| {
            let ins = ins.instr();
            Slice {
                instr: i as u32,
                pipe: ins.pipe,
                api: ins.api,
                kind: ins.kind,
                location: ins.location,
                start: t.start,
                busy_end: t.busy_end,
                end: t.end,
            }
        })
        .collect();
    let mut busy = [0u64; 8];
    for (p, b) in busy.iter_mut().enumerate() {
        *b = union(
            slices
                .iter()
                .filter(|s| s.pipe as usize == p && s.kind == InstrKind::Op)
                .map(|s| (s.start, s.busy_end)),
        );
    }
    CoreTimeline {
        core,
        slices,
        flows: waits.flows,
        stalls: waits.stalls,
        costs,
        busy,
        total,
    }
}

/// Length of the union of intervals given in start order per pipe (in-order pipes give them so).
pub(crate) fn union(intervals: impl Iterator<Item = (u64, u64)>) -> u64 {
    let mut v: Vec<(u64, u64)> = intervals.filter(|(a, b)| b > a).collect();
    v.sort_unstable();
    let (mut total, mut cur): (u64, Option<(u64, u64)>) = (0, None);
    for (a, b) in v {
        cur = match cur {
            Some((s, e)) if a <= e => Some((s, e.max(b))),
            Some((s, e)) => {
                total += e - s;
                Some((a, b))
            }
            None => Some((a, b)),
        };
    }
    total + cur.map_or(0, |(s, e)| e - s)
}

/// The number of values of the sorted `v` at most `t`, searched from the earlier answer `hint`
/// outwards (steps doubling), so that nearby answers cost a few comparisons.
fn count_at_most(v: &[u64], t: u64, hint: usize) -> usize {
    let hint = hint.min(v.len());
    let (mut lo, mut hi) = if hint < v.len() && v[hint] <= t {
        // The answer is above the hint: [hint + 1, ..].
        let (mut lo, mut step) = (hint + 1, 1);
        while lo + step <= v.len() && v[lo + step - 1] <= t {
            lo += step;
            step *= 2;
        }
        (lo, (lo + step).min(v.len()))
    } else {
        // At or below the hint: [.., hint].
        let (mut hi, mut step) = (hint, 1);
        while hi >= step && v[hi - step] > t {
            hi -= step;
            step *= 2;
        }
        (hi.saturating_sub(step), hi)
    };
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if v[mid] <= t {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

/// Passes of the GM-sharing fixed point at most: each pass gives every GM transfer the
/// bandwidth share of the cores whose transfers overlapped it in the previous pass, until a pass
/// changes no share.
const GM_PASSES: usize = 4;

/// Schedules every core of a launch.
pub fn schedule(table: &CostTable, cores: &[(CoreId, &Trace)]) -> Vec<CoreTimeline> {
    // The compact records are read in place (expanding them would hold about a hundred bytes
    // per instruction for the life of the report).
    let work: usize = cores.iter().map(|(_, t)| t.instrs().len()).sum();
    let costs: Vec<Vec<Cost>> = par_map(cores, work, |(_, t)| {
        let (mut memo, mut acc) = (VectorMemo::default(), Vec::new());
        t.instrs()
            .map(|i| {
                i.accesses_into(&mut acc);
                cost_of(table, &i.instr(), &acc, &mut memo)
            })
            .collect()
    });
    let per_core = |c: &Cost| {
        table.bytes_per_cycle(if c.gm_write {
            table.gm_write_gbps
        } else {
            table.gm_read_gbps
        })
    };
    let total_bpc = table.bytes_per_cycle(table.gm_total_gbps);
    let mut bpc: Vec<Vec<f64>> = costs
        .iter()
        .map(|cs| cs.iter().map(per_core).collect())
        .collect();
    // Every pass but the last needs only the times of the GM transfers.
    let mut times: Vec<Vec<Times>> = vec![Vec::new(); cores.len()];
    for _ in 1..GM_PASSES {
        if cores.len() < 2 {
            break;
        }
        let mut jobs: Vec<_> = cores.iter().zip(&costs).zip(&bpc).zip(&mut times).collect();
        par_each(&mut jobs, work, |(((_, t), cs), b), tv| {
            replay_times(table, t, cs, b, tv, None);
        });
        // GM transfer intervals of every (core, pipe) stream, in order and disjoint per
        // stream, so that the streams in flight at cycle t are the intervals holding t: those
        // starting at or before t less those also ending by then.
        let (mut starts, mut ends) = (Vec::new(), Vec::new());
        for (((_, t), cs), tv) in cores.iter().zip(&costs).zip(&times) {
            for ((ins, c), x) in t.instrs().zip(cs).zip(tv) {
                let mte = matches!(ins.pipe(), Pipe::MTE1 | Pipe::MTE2 | Pipe::MTE3 | Pipe::FIX);
                if c.gm_bytes > 0 && mte {
                    starts.push(x.start);
                    ends.push(x.busy_end);
                }
            }
        }
        starts.sort_unstable();
        ends.sort_unstable();
        let mut changed = false;
        for ((cs, tv), b) in costs.iter().zip(&times).zip(bpc.iter_mut()) {
            // A core's transfers come mostly in time order: each search starts where the
            // previous one ended.
            let (mut s_at, mut e_at) = (0, 0);
            for ((c, x), bw) in cs.iter().zip(tv).zip(b.iter_mut()) {
                if c.gm_bytes > 0 {
                    // Transfers in flight at the middle of this one.
                    let t = (x.start + x.busy_end) / 2;
                    s_at = count_at_most(&starts, t, s_at);
                    e_at = count_at_most(&ends, t, e_at);
                    let k = (s_at - e_at).max(1) as f64;
                    let share = per_core(c).min(total_bpc / k);
                    changed |= *bw != share;
                    *bw = share;
                }
            }
        }
        // The shares settled: another pass would replay exactly this one.
        if !changed {
            break;
        }
    }
    // The last pass hands each core's costs over to its timeline.
    let mut jobs: Vec<_> = cores
        .iter()
        .zip(&bpc)
        .zip(costs.into_iter().map(|c| (c, None)))
        .collect();
    par_each(&mut jobs, work, |((id, t), b), (cs, line)| {
        *line = Some(replay(table, *id, t, std::mem::take(cs), b));
    });
    jobs.into_iter()
        .map(|(_, (_, line))| line.expect("every core is replayed"))
        .collect()
}

/// Instructions from which scheduling spreads its cores over the host's threads.
const PARALLEL_FROM: usize = 1 << 16;

/// `f` of every item, in order; spread over the host's threads when `work` (instructions in
/// all) is large.
fn par_map<T: Sync, R: Send>(items: &[T], work: usize, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let mut out: Vec<(&T, Option<R>)> = items.iter().map(|t| (t, None)).collect();
    par_each(&mut out, work, |t, r| *r = Some(f(t)));
    out.into_iter()
        .map(|(_, r)| r.expect("every item is mapped"))
        .collect()
}

/// Runs `f` on every pair of `items`, spread over the host's threads when `work` (instructions
/// in all) is large.
fn par_each<A: Send + Sync, B: Send>(
    items: &mut [(A, B)],
    work: usize,
    f: impl Fn(&A, &mut B) + Sync,
) {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    if work < PARALLEL_FROM || threads < 2 || items.len() < 2 {
        items.iter_mut().for_each(|(a, b)| f(a, b));
        return;
    }
    let per = items.len().div_ceil(threads);
    let f = &f;
    std::thread::scope(|s| {
        for chunk in items.chunks_mut(per) {
            s.spawn(move || chunk.iter_mut().for_each(|(a, b)| f(a, b)));
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counting_from_any_hint_matches_a_binary_search() {
        let v = [1u64, 3, 3, 3, 7, 9, 9, 12, 20, 20, 21];
        for t in 0..25 {
            let expected = v.partition_point(|&x| x <= t);
            for hint in 0..=v.len() + 2 {
                assert_eq!(count_at_most(&v, t, hint), expected, "t {t} hint {hint}");
            }
        }
        assert_eq!(count_at_most(&[], 5, 3), 0);
    }

    #[test]
    fn union_merges_overlaps() {
        assert_eq!(union([(0, 10), (5, 20), (30, 35)].into_iter()), 25);
        assert_eq!(union(std::iter::empty()), 0);
    }
}
