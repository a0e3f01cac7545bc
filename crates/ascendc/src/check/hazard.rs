//! Missing synchronisation inside one core, found with a vector-clock model over the
//! instruction record (`sync-and-launch.md` §5).
//!
//! Pipes run concurrently and a pipe may start an instruction before its previous one has
//! finished writing. Two accesses to the same bytes, at least one a write, are ordered only by a
//! `PipeBarrier` on the pipe, or by a `SetFlag` on the first pipe issued after the first access
//! and a matching `WaitFlag` on the second pipe issued before the second access (queue
//! operations record exactly these flags). Pairs the compiler's automatic synchronisation
//! orders (vector after vector, anything with the scalar pipe) are not reported.

use super::{overlap_span, runs};
use crate::core::trace::{Access, HardEvent, InstrKind, Pipe, Space, Trace};
use crate::error::{Category, Diagnostic, Severity, SourceLoc};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

const PIPES: usize = 8;

/// An access still able to conflict with later ones.
struct Live {
    pipe: Pipe,
    seq: u64,
    write: bool,
    space: Space,
    runs: Vec<(u64, u64)>,
    api: &'static str,
    location: SourceLoc,
    /// False once a later access of the same pipe to the same bytes took its place.
    alive: bool,
    /// The last query that visited this access (to visit it once per query).
    seen: u64,
}

/// An access pattern as a key: pipe, memory, write, base, run length, runs per group, block
/// stride, groups, repeat stride.
type Pattern = (Pipe, Space, bool, u64, u32, u32, u64, u32, u64);

fn pattern(pipe: Pipe, acc: &Access, write: bool) -> Pattern {
    (
        pipe,
        acc.space,
        write,
        acc.base,
        acc.len,
        acc.blocks,
        acc.block_stride,
        acc.repeats,
        acc.repeat_stride,
    )
}

/// Bytes per bucket of the address index.
const PAGE: u64 = 4096;
/// Accesses spanning more buckets than this are kept in one list every query visits.
const MAX_PAGES: u64 = 256;

/// The live accesses, indexed by the address buckets they touch, so that a query visits only
/// accesses near its own bytes; and by exact pattern, so that a loop writing the same buffer
/// again replaces its earlier access (a later access of the same pipe to the same bytes conflicts
/// with everything the earlier one would, so the earlier one is not needed). This keeps the work
/// per instruction bounded by the accesses alive around its bytes instead of the whole history.
#[derive(Default)]
struct LiveSet {
    all: Vec<Live>,
    pages: HashMap<(Space, u64), Vec<usize>>,
    wide: Vec<usize>,
    by_pattern: HashMap<Pattern, usize>,
    query: u64,
}

impl LiveSet {
    fn buckets(acc: &Access) -> Option<std::ops::RangeInclusive<u64>> {
        let (first, last) = (acc.base / PAGE, (acc.end() - 1) / PAGE);
        (last - first < MAX_PAGES).then_some(first..=last)
    }

    /// Calls `f` once for every live access that may share bytes with `acc`.
    fn near(&mut self, acc: &Access, mut f: impl FnMut(&Live)) {
        self.query += 1;
        let q = self.query;
        let mut visit = |i: usize, all: &mut Vec<Live>| {
            let l = &mut all[i];
            if l.alive && l.seen != q {
                l.seen = q;
                f(l);
            }
        };
        for &i in &self.wide {
            visit(i, &mut self.all);
        }
        match Self::buckets(acc) {
            Some(pages) => {
                for page in pages {
                    if let Some(list) = self.pages.get(&(acc.space, page)) {
                        for &i in list {
                            visit(i, &mut self.all);
                        }
                    }
                }
            }
            None => {
                for i in 0..self.all.len() {
                    if self.all[i].space == acc.space {
                        visit(i, &mut self.all);
                    }
                }
            }
        }
    }

    fn insert(
        &mut self,
        pipe: Pipe,
        seq: u64,
        acc: &Access,
        api: &'static str,
        location: SourceLoc,
    ) {
        let superseded: &[bool] = if acc.write { &[false, true] } else { &[false] };
        for &w in superseded {
            if let Some(i) = self.by_pattern.remove(&pattern(pipe, acc, w)) {
                self.all[i].alive = false;
            }
        }
        let i = self.all.len();
        self.all.push(Live {
            pipe,
            seq,
            write: acc.write,
            space: acc.space,
            runs: runs(acc),
            api,
            location,
            alive: true,
            seen: 0,
        });
        self.by_pattern.insert(pattern(pipe, acc, acc.write), i);
        let all = &self.all;
        let add = |list: &mut Vec<usize>| {
            if list.len() >= 32 {
                list.retain(|&j| all[j].alive);
            }
            list.push(i);
        };
        match Self::buckets(acc) {
            Some(pages) => {
                for page in pages {
                    add(self.pages.entry((acc.space, page)).or_default());
                }
            }
            None => add(&mut self.wide),
        }
    }
}

/// True when the compiler's automatic synchronisation orders the pair (`sync-and-launch.md` §4.2).
fn auto_synced(a: Pipe, b: Pipe) -> bool {
    a == Pipe::S || b == Pipe::S || (a == Pipe::V && b == Pipe::V)
}

fn space_name(s: Space) -> String {
    match s {
        Space::Gm(id) => format!("GM allocation #{id}"),
        Space::Local(h) => h.to_string(),
    }
}

fn event_name(first: Pipe, second: Pipe) -> String {
    let short = |p: Pipe| p.c_name().trim_start_matches("PIPE_").to_string();
    format!("{}_{}", short(first), short(second))
}

/// Reports the hazards of one core's record as warnings tagged with `block`.
pub fn hazards(trace: &Trace, block: u32) -> Vec<Diagnostic> {
    let mut count = [0u64; PIPES];
    let mut vc = [[0u64; PIPES]; PIPES];
    let mut flags: HashMap<(HardEvent, u32), [u64; PIPES]> = HashMap::default();
    let mut live = LiveSet::default();
    let mut out = Vec::new();
    let mut reported = HashSet::default();
    let warn = |api: &'static str, loc: SourceLoc, message: String| Diagnostic {
        severity: Severity::Warning,
        category: Category::Sync,
        api,
        message,
        location: Some(loc),
        block: Some(block),
    };
    for ins in trace.instructions() {
        let p = ins.pipe as usize;
        match ins.kind {
            InstrKind::Barrier if ins.pipe == Pipe::ALL => {
                for row in vc.iter_mut() {
                    *row = count;
                }
            }
            InstrKind::Barrier => vc[p][p] = count[p],
            InstrKind::SetFlag(e, id) => {
                let mut snap = vc[p];
                snap[p] = count[p];
                if flags.insert((e, id), snap).is_some() {
                    out.push(warn(
                        ins.api,
                        ins.location,
                        format!("SetFlag<{e:?}>({id}) while the flag is already set (a second set is lost on hardware)"),
                    ));
                }
            }
            InstrKind::WaitFlag(e, id) => match flags.remove(&(e, id)) {
                Some(snap) => {
                    for q in 0..PIPES {
                        vc[p][q] = vc[p][q].max(snap[q]);
                    }
                }
                None => out.push(warn(
                    ins.api,
                    ins.location,
                    format!("WaitFlag<{e:?}>({id}) without a preceding SetFlag: the pipe would wait forever on hardware"),
                )),
            },
            InstrKind::Op => {
                count[p] += 1;
                for acc in trace.accesses(ins) {
                    check_access(ins.pipe, acc, &vc, &mut live, |l, lo, hi| {
                        let kind = match (l.write, acc.write) {
                            (true, true) => "WAW",
                            (true, false) => "RAW",
                            _ => "WAR",
                        };
                        if !reported.insert((l.location, ins.location, kind)) {
                            return;
                        }
                        let fix = if l.pipe == ins.pipe {
                            format!("PipeBarrier<{}>", ins.pipe.c_name())
                        } else {
                            format!("SetFlag/WaitFlag<{}>", event_name(l.pipe, ins.pipe))
                        };
                        out.push(warn(
                            ins.api,
                            ins.location,
                            format!(
                                "{kind} hazard on {} bytes {lo}..{hi}: {} ({}) at {} and {} ({}) are not ordered; missing {fix}",
                                space_name(acc.space),
                                l.api,
                                l.pipe.c_name(),
                                l.location,
                                ins.api,
                                ins.pipe.c_name(),
                            ),
                        ));
                    });
                }
                for acc in trace.accesses(ins) {
                    if acc.len > 0 && acc.blocks > 0 && acc.repeats > 0 {
                        live.insert(ins.pipe, count[p], acc, ins.api, ins.location);
                    }
                }
            }
        }
    }
    out
}

fn check_access(
    pipe: Pipe,
    acc: &Access,
    vc: &[[u64; PIPES]; PIPES],
    live: &mut LiveSet,
    mut report: impl FnMut(&Live, u64, u64),
) {
    if acc.len == 0 || acc.blocks == 0 || acc.repeats == 0 {
        return;
    }
    let mut mine: Option<Vec<(u64, u64)>> = None;
    live.near(acc, |l| {
        if l.space != acc.space
            || !(l.write || acc.write)
            || auto_synced(l.pipe, pipe)
            || vc[pipe as usize][l.pipe as usize] >= l.seq
        {
            return;
        }
        let m = mine.get_or_insert_with(|| runs(acc));
        if let Some((lo, hi)) = overlap_span(&l.runs, m) {
            report(l, lo, hi);
        }
    });
}
