//! GM bytes written by more than one block.

use crate::core::trace::Space;
use crate::error::{Category, Diagnostic, Severity};
use crate::launch::BlockReport;
use std::collections::HashMap;

/// One GM byte run written by a block.
#[derive(Debug, Clone, Copy)]
struct Run {
    start: u64,
    end: u64,
    block: u32,
}

/// Finds GM bytes written by more than one block (the device gives no order between cores, so
/// the final contents depend on timing). Reports at most one diagnostic per pair of blocks and
/// allocation, naming the first overlapping byte range and the instructions' source lines.
pub fn multi_core_gm_overlap(blocks: &[BlockReport]) -> Vec<Diagnostic> {
    let mut runs: HashMap<u64, Vec<(Run, usize)>> = HashMap::new();
    let mut sites = Vec::new();
    for b in blocks {
        for ins in b.trace.instructions() {
            for acc in b.trace.accesses(ins) {
                let Space::Gm(region) = acc.space else {
                    continue;
                };
                if !acc.write || acc.len == 0 {
                    continue;
                }
                sites.push((ins.api, ins.location));
                let site = sites.len() - 1;
                let list = runs.entry(region).or_default();
                for r in 0..acc.repeats as u64 {
                    for k in 0..acc.blocks as u64 {
                        let start = acc.base + r * acc.repeat_stride + k * acc.block_stride;
                        list.push((
                            Run {
                                start,
                                end: start + acc.len as u64,
                                block: b.block_idx,
                            },
                            site,
                        ));
                    }
                }
            }
        }
    }
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (region, mut list) in runs {
        list.sort_by_key(|(r, _)| r.start);
        // Sweep keeping the furthest-reaching run of each block seen so far.
        let mut reach: Vec<(Run, usize)> = Vec::new();
        for (run, site) in list {
            reach.retain(|(r, _)| r.end > run.start);
            for (other, osite) in &reach {
                if other.block != run.block
                    && seen.insert((
                        region,
                        other.block.min(run.block),
                        other.block.max(run.block),
                    ))
                {
                    let (a, b) = (sites[*osite], sites[site]);
                    let lo = run.start.max(other.start);
                    let hi = run.end.min(other.end);
                    out.push(Diagnostic {
                        severity: Severity::Warning,
                        category: Category::Sync,
                        api: b.0,
                        message: format!(
                            "blocks {} and {} both write GM bytes {lo}..{hi} of allocation #{region} \
                             ({} at {}, {} at {}); the result depends on which core finishes last",
                            other.block, run.block, a.0, a.1, b.0, b.1
                        ),
                        location: Some(b.1),
                        block: Some(run.block),
                    });
                }
            }
            reach.push((run, site));
        }
    }
    out.sort_by_key(|d| d.block);
    out
}
