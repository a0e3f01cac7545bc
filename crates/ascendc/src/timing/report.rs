//! The text report of a timeline: totals, per-pipe utilisation, whether MTE2 overlaps V
//! (double buffering), the longest stalls and the most bank-conflicted call sites.

use super::schedule::union;
use super::Timeline;
use crate::core::trace::{HardEvent, InstrKind, Pipe};
use crate::error::SourceLoc;
use rustc_hash::FxHashMap;
use std::fmt::Write;

/// Pipes reported, in this order.
const PIPES: [Pipe; 7] = [
    Pipe::MTE2,
    Pipe::V,
    Pipe::MTE3,
    Pipe::S,
    Pipe::MTE1,
    Pipe::M,
    Pipe::FIX,
];

/// Cycles in which both `a` and `b` are busy on a core, and cycles `b` is busy (each pipe's
/// busy cycles are the timeline's; only their union is counted here).
fn overlap(c: &super::CoreTimeline, a: Pipe, b: Pipe) -> (u64, u64) {
    let either = union(
        c.slices
            .iter()
            .filter(|s| (s.pipe == a || s.pipe == b) && s.kind == InstrKind::Op)
            .map(|s| (s.start, s.busy_end)),
    );
    let (ua, ub) = (c.busy[a as usize], c.busy[b as usize]);
    (ua + ub - either, ub)
}

/// What a stalled instruction waited for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Waited {
    /// A flag: the event and its ID.
    Flag(HardEvent, u32),
    /// A barrier of a pipe.
    Barrier(Pipe),
    /// Anything else.
    Other,
}

pub(super) fn render(t: &Timeline, top: usize) -> String {
    let mut out = String::new();
    let total = t.total_cycles();
    let slowest = t.cores.iter().max_by_key(|c| c.total);
    let _ = write!(
        out,
        "timing estimate ({} model, {} GHz): {} core(s), {} cycles = {:.3} µs",
        t.profile.soc,
        t.table.clock_ghz,
        t.cores.len(),
        total,
        t.micros()
    );
    if let Some(c) = slowest.filter(|_| t.cores.len() > 1) {
        let _ = write!(out, " (slowest core {})", c.core);
    }
    // Utilisation: busy cycles over the sum of the cores' totals.
    let span: u64 = t.cores.iter().map(|c| c.total).sum::<u64>().max(1);
    let util: Vec<String> = PIPES
        .iter()
        .filter_map(|p| {
            let b: u64 = t.cores.iter().map(|c| c.busy[*p as usize]).sum();
            (b > 0).then(|| {
                format!(
                    "{} {:.1}%",
                    p.c_name().trim_start_matches("PIPE_"),
                    100.0 * b as f64 / span as f64
                )
            })
        })
        .collect();
    let _ = write!(out, "\n  pipe utilisation: {}", util.join(", "));
    let (both, v): (u64, u64) = t
        .cores
        .iter()
        .map(|c| overlap(c, Pipe::MTE2, Pipe::V))
        .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    if v > 0 {
        let pct = 100.0 * both as f64 / v as f64;
        let _ = write!(
            out,
            "\n  double buffering: MTE2 overlaps V for {pct:.0}% of V's busy cycles{}",
            if pct < 5.0 {
                " — no overlap: loads and compute are serialised (two buffers per queue, InitBuffer(que, 2, len), would let them overlap)"
            } else {
                ""
            }
        );
    }
    // Stalls by call site and event (what waited: an event and ID, a barrier's pipe).
    let mut stalls: FxHashMap<(&str, Waited, SourceLoc), (u64, u64)> = FxHashMap::default();
    for c in &t.cores {
        for s in &c.stalls {
            let sl = &c.slices[s.slice];
            let what = match sl.kind {
                InstrKind::WaitFlag(e, id) => Waited::Flag(e, id),
                InstrKind::Barrier => Waited::Barrier(sl.pipe),
                _ => Waited::Other,
            };
            let e = stalls.entry((sl.api, what, sl.location)).or_default();
            e.0 += s.cycles;
            e.1 += 1;
        }
    }
    let mut stalls: Vec<_> = stalls.into_iter().collect();
    stalls.sort_by(|a, b| b.1 .0.cmp(&a.1 .0).then(a.0 .2.line.cmp(&b.0 .2.line)));
    if !stalls.is_empty() {
        let _ = write!(
            out,
            "\n  top stalls (cycles a pipe waited, over all cores):"
        );
        // Named only for the lines printed.
        for (i, ((api, what, loc), (cycles, n))) in stalls.iter().take(top).enumerate() {
            let _ = write!(out, "\n    {}. ", i + 1);
            let _ = match what {
                Waited::Flag(e, id) => write!(out, "{api} WaitFlag<{e:?}>({id})"),
                Waited::Barrier(p) => write!(out, "{api}<{}>", p.c_name()),
                Waited::Other => write!(out, "{api}"),
            };
            let _ = write!(out, " at {loc}: {cycles} cycles over {n} wait(s)");
        }
    }
    if !t.hotspots.is_empty() {
        let _ = write!(out, "\n  top UB bank conflicts:");
        for (i, h) in t.hotspots.iter().take(top).enumerate() {
            let _ = write!(
                out,
                "\n    {}. {} at {}: +{} cycles over {} instruction(s); worst {} cycles, {} without conflicts",
                i + 1,
                h.api,
                h.location,
                h.extra,
                h.count,
                h.cycles,
                h.ideal
            );
            match &h.what_if {
                Some(w) => {
                    let _ = write!(
                        out,
                        "\n       what if: {} {} → {} cycles",
                        w.operand, w.change, w.cycles
                    );
                }
                None => {
                    let _ = write!(out, "\n       what if: no single-operand move helps");
                }
            }
        }
    }
    out
}
