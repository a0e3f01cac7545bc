//! Replays each core's instruction record on its pipes: the scalar unit issues in program order,
//! each pipe runs its instructions in order, `SetFlag`/`WaitFlag` (kernel and queue flags) and
//! `PipeBarrier` order pipes, and GM bandwidth is shared between the cores moving data at the
//! same time.

use super::cost::{cost, Cost};
use super::table::CostTable;
use crate::core::trace::{HardEvent, InstrKind, Pipe, Trace};
use crate::core::CoreId;
use crate::error::SourceLoc;
use std::collections::{HashMap, VecDeque};

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

/// One pass over one core with a given GM bandwidth per instruction (bytes per cycle).
fn replay(
    table: &CostTable,
    core: CoreId,
    trace: &Trace,
    costs: &[Cost],
    gm_bpc: &[f64],
) -> CoreTimeline {
    let n = Pipe::ALL_PIPES.len();
    let mut scalar = 0u64;
    let mut free = vec![0u64; n];
    let mut done = vec![0u64; n];
    let mut flags: HashMap<(HardEvent, u32), VecDeque<(u64, usize)>> = HashMap::new();
    let mut slices = Vec::with_capacity(trace.instructions().len());
    let mut flows = Vec::new();
    let mut stalls = Vec::new();
    let issue = table.scalar_issue as u64;
    for (i, ins) in trace.instructions().iter().enumerate() {
        let c = costs[i];
        let p = ins.pipe as usize;
        let on_scalar = ins.pipe == Pipe::S;
        let mut slice = Slice {
            instr: i as u32,
            pipe: ins.pipe,
            api: ins.api,
            kind: ins.kind,
            location: ins.location,
            start: 0,
            busy_end: 0,
            end: 0,
        };
        // When the instruction leaves the scalar unit's in-order issue.
        let issued = scalar;
        if !on_scalar && ins.pipe != Pipe::ALL {
            scalar += issue;
        }
        match ins.kind {
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
                (slice.start, slice.busy_end, slice.end) = (start, busy_end, end);
            }
            InstrKind::Barrier if ins.pipe == Pipe::ALL => {
                let all = done.iter().copied().max().unwrap_or(0).max(issued);
                let end = all + c.busy;
                if all > issued {
                    stalls.push(Stall {
                        slice: slices.len(),
                        cycles: all - issued,
                    });
                }
                free.iter_mut().for_each(|f| *f = end);
                done.iter_mut().for_each(|d| *d = (*d).max(end));
                scalar = end;
                (slice.start, slice.busy_end, slice.end) = (issued, end, end);
            }
            InstrKind::Barrier => {
                let ready = issued.max(free[p]);
                let t = ready.max(done[p]);
                if t > ready {
                    stalls.push(Stall {
                        slice: slices.len(),
                        cycles: t - ready,
                    });
                }
                let end = t + c.busy;
                free[p] = end;
                done[p] = done[p].max(end);
                if on_scalar {
                    scalar = end;
                }
                (slice.start, slice.busy_end, slice.end) = (ready, end, end);
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
                flags
                    .entry((event, id))
                    .or_default()
                    .push_back((end, slices.len()));
                (slice.start, slice.busy_end, slice.end) = (t, end, end);
            }
            InstrKind::WaitFlag(event, id) => {
                let ready = issued.max(free[p]);
                let set = flags.get_mut(&(event, id)).and_then(|q| q.pop_front());
                let release = set.map_or(0, |(t, _)| t + table.flag_latency as u64);
                let t = ready.max(release);
                if t > ready {
                    stalls.push(Stall {
                        slice: slices.len(),
                        cycles: t - ready,
                    });
                }
                if let Some((_, s)) = set {
                    flows.push(Flow {
                        event,
                        id,
                        set: s,
                        wait: slices.len(),
                    });
                }
                let end = t + c.busy;
                free[p] = end;
                done[p] = done[p].max(end);
                if on_scalar {
                    scalar = end;
                }
                (slice.start, slice.busy_end, slice.end) = (ready, end, end);
            }
        }
        slices.push(slice);
    }
    let total = done.iter().copied().max().unwrap_or(0).max(scalar);
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
        flows,
        stalls,
        costs: costs.to_vec(),
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

/// Passes of the GM-sharing fixed point: each pass gives every GM transfer the bandwidth share
/// of the cores whose transfers overlapped it in the previous pass.
const GM_PASSES: usize = 4;

/// Schedules every core of a launch.
pub fn schedule(table: &CostTable, cores: &[(CoreId, &Trace)]) -> Vec<CoreTimeline> {
    let costs: Vec<Vec<Cost>> = cores
        .iter()
        .map(|(_, t)| t.instructions().iter().map(|i| cost(table, t, i)).collect())
        .collect();
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
    let mut lines: Vec<CoreTimeline> = Vec::new();
    for pass in 0..GM_PASSES {
        lines = cores
            .iter()
            .zip(&costs)
            .zip(&bpc)
            .map(|(((id, t), cs), b)| replay(table, *id, t, cs, b))
            .collect();
        if cores.len() < 2 || pass + 1 == GM_PASSES {
            break;
        }
        // GM transfer intervals of every (core, pipe) stream: in order and disjoint per stream.
        let mut streams: Vec<Vec<(u64, u64)>> = Vec::new();
        for (l, cs) in lines.iter().zip(&costs) {
            for p in [Pipe::MTE1, Pipe::MTE2, Pipe::MTE3, Pipe::FIX] {
                let v: Vec<(u64, u64)> = l
                    .slices
                    .iter()
                    .zip(cs)
                    .filter(|(s, c)| c.gm_bytes > 0 && s.pipe == p)
                    .map(|(s, _)| (s.start, s.busy_end))
                    .collect();
                if !v.is_empty() {
                    streams.push(v);
                }
            }
        }
        // Transfers in flight at cycle t.
        let active = |t: u64| {
            streams
                .iter()
                .filter(|v| {
                    let k = v.partition_point(|iv| iv.0 <= t);
                    k > 0 && v[k - 1].1 > t
                })
                .count()
                .max(1)
        };
        for ((l, cs), b) in lines.iter().zip(&costs).zip(bpc.iter_mut()) {
            for ((s, c), x) in l.slices.iter().zip(cs).zip(b.iter_mut()) {
                if c.gm_bytes > 0 {
                    let k = active((s.start + s.busy_end) / 2) as f64;
                    *x = per_core(c).min(total_bpc / k);
                }
            }
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn union_merges_overlaps() {
        assert_eq!(union([(0, 10), (5, 20), (30, 35)].into_iter()), 25);
        assert_eq!(union(std::iter::empty()), 0);
    }
}
