//! Inter-block GM races: bytes that two cores touch, at least one writing, with no cross-core
//! synchronisation (`SyncAll`, `IBSet`/`IBWait`, `CrossCoreSetFlag`/`CrossCoreWaitFlag`)
//! ordering the accesses and not both atomic writes.

use crate::core::trace::Space;
use crate::error::{Category, Diagnostic, Severity, SourceLoc};
use crate::launch::BlockReport;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

/// One GM byte run touched by a core.
#[derive(Debug, Clone, Copy)]
struct Run {
    start: u64,
    end: u64,
    /// Index of the core's report.
    core: usize,
    /// Sequence number of the (first) instruction in its core.
    instr: u32,
    write: bool,
    atomic: bool,
    api: &'static str,
    location: SourceLoc,
}

/// True when access `a` happens before access `b` (of another core) by the launch's
/// synchronisation: `b`'s core had synchronised with `a`'s core after `a`.
fn before(blocks: &[BlockReport], a: &Run, b: &Run) -> bool {
    let n = blocks.len();
    let ca = blocks[a.core].sync.clock_at(a.instr, a.core, n);
    let cb = blocks[b.core].sync.clock_at(b.instr, b.core, n);
    ca[a.core] <= cb[a.core]
}

/// Finds GM bytes two cores touch (at least one writing) in an order the launch's
/// synchronisation leaves open — the device gives no order between cores, so the result
/// depends on timing — except when both are atomic writes (`SetAtomicAdd` …). Reports at most
/// one diagnostic per pair of cores and allocation, naming the first overlapping byte range and
/// both sides' API and source line.
pub fn multi_core_gm_overlap(blocks: &[BlockReport]) -> Vec<Diagnostic> {
    // Only allocations some core writes can race; the runs of the others are not collected.
    let written: HashSet<u64> = blocks
        .iter()
        .flat_map(|b| b.trace.gm_touches())
        .filter_map(|t| match t.access.space {
            Space::Gm(region) if t.access.write => Some(region),
            _ => None,
        })
        .collect();
    let mut runs: HashMap<u64, Vec<Run>> = HashMap::default();
    let mut scratch = Vec::new();
    for (c, b) in blocks.iter().enumerate() {
        for t in b.trace.gm_touches() {
            let acc = &t.access;
            let Space::Gm(region) = acc.space else {
                continue;
            };
            if !written.contains(&region) {
                continue;
            }
            let atomic = acc.write && b.sync.atomic_at(t.seq).op.is_some();
            let list = runs.entry(region).or_default();
            super::runs_into(acc, &mut scratch);
            for &(start, end) in &scratch {
                list.push(Run {
                    start,
                    end,
                    core: c,
                    instr: t.seq,
                    write: acc.write,
                    atomic,
                    api: t.api,
                    location: t.location,
                });
            }
        }
    }
    let mut out = Vec::new();
    let mut seen = HashSet::default();
    let mut regions: Vec<u64> = runs.keys().copied().collect();
    regions.sort_unstable();
    for region in regions {
        let mut list = runs.remove(&region).unwrap_or_default();
        list.sort_by_key(|r| r.start);
        // Sweep keeping the runs that reach past the current start.
        let mut reach: Vec<Run> = Vec::new();
        for run in list {
            reach.retain(|r| r.end > run.start);
            for other in &reach {
                if other.core == run.core
                    || !(other.write || run.write)
                    || (other.atomic && run.atomic)
                {
                    continue;
                }
                let key = (region, other.core.min(run.core), other.core.max(run.core));
                if seen.contains(&key) || before(blocks, other, &run) || before(blocks, &run, other)
                {
                    continue;
                }
                seen.insert(key);
                let (lo, hi) = (run.start.max(other.start), run.end.min(other.end));
                let b = &blocks[run.core];
                let (first, second) = if other.write {
                    (other, &run)
                } else {
                    (&run, other)
                };
                let (fa, fb) = (&blocks[first.core], &blocks[second.core]);
                let what = if second.write {
                    format!("blocks {} and {} both write", fa.block_idx, fb.block_idx)
                } else {
                    format!(
                        "block {} writes and block {} reads",
                        fa.block_idx, fb.block_idx
                    )
                };
                out.push(Diagnostic {
                    severity: Severity::Warning,
                    category: Category::Sync,
                    api: run.api,
                    message: format!(
                        "{what} GM bytes {lo}..{hi} of allocation #{region} ({}: {} at {}; {}: {} at {}) \
                         with no SyncAll or cross-core flag ordering them and not both atomic: \
                         the result depends on which core gets there first",
                        fa.core, first.api, first.location, fb.core, second.api, second.location
                    ),
                    location: Some(run.location),
                    block: Some(b.block_idx),
                });
            }
            reach.push(run);
        }
    }
    out.sort_by_key(|d| d.block);
    out
}
