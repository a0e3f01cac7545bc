//! The timing model: turns each core's instruction record into a timeline (start and end cycle
//! of every instruction on its pipe), a Chrome/Perfetto trace and a pipe-utilisation report.
//! Estimates, not measurements: `docs/timing.md` gives the model, its sources and where it is
//! approximate.

pub mod cost;
mod perfetto;
mod report;
pub mod schedule;
pub mod table;

pub use cost::{Cost, WhatIf};
pub use schedule::{CoreTimeline, Flow, Slice, Stall};
pub use table::CostTable;

use crate::chip::ChipProfile;
use crate::core::trace::InstrKind;
use crate::error::SourceLoc;
use crate::launch::LaunchReport;
use rustc_hash::FxHashMap;
use std::path::Path;

/// Bank-conflicted instructions of one API call site, with the change that helps most.
#[derive(Debug, Clone, PartialEq)]
pub struct BankHotspot {
    /// Core (index into [`Timeline::cores`]) of the worst instance.
    pub core: usize,
    /// API.
    pub api: &'static str,
    /// Kernel source line.
    pub location: SourceLoc,
    /// Instructions issued from this call site with conflicts.
    pub count: u64,
    /// Cycles lost to conflicts over all of them.
    pub extra: u64,
    /// Cycles of the worst instance.
    pub cycles: u64,
    /// Its cycles without conflicts.
    pub ideal: u64,
    /// The single-operand change that removes the most of them, if one helps.
    pub what_if: Option<WhatIf>,
}

/// The timeline of a launch.
#[derive(Debug, Clone)]
pub struct Timeline {
    /// The product simulated.
    pub profile: &'static ChipProfile,
    /// Its timing figures.
    pub table: &'static CostTable,
    /// One timeline per core, in launch order.
    pub cores: Vec<CoreTimeline>,
    /// The most bank-conflicted call sites, worst first.
    pub hotspots: Vec<BankHotspot>,
}

/// Call sites kept in [`Timeline::hotspots`].
const HOTSPOTS: usize = 10;

impl Timeline {
    /// Schedules every core of a finished launch. Cores launched without the instruction record
    /// have no instructions and take no cycles.
    pub fn new(report: &LaunchReport) -> Timeline {
        let table = CostTable::of(report.profile);
        let cores: Vec<_> = report.blocks.iter().map(|b| (b.core, &b.trace)).collect();
        let lines = schedule::schedule(table, &cores);
        let mut sites: FxHashMap<(&'static str, SourceLoc), BankHotspot> = FxHashMap::default();
        let mut worst: FxHashMap<(&'static str, SourceLoc), (usize, usize)> = FxHashMap::default();
        for (c, l) in lines.iter().enumerate() {
            for (i, (s, k)) in l.slices.iter().zip(&l.costs).enumerate() {
                if k.busy <= k.ideal || s.kind != InstrKind::Op {
                    continue;
                }
                let key = (s.api, s.location);
                let h = sites.entry(key).or_insert(BankHotspot {
                    core: c,
                    api: s.api,
                    location: s.location,
                    count: 0,
                    extra: 0,
                    cycles: 0,
                    ideal: 0,
                    what_if: None,
                });
                h.count += 1;
                h.extra += k.busy - k.ideal;
                if k.busy - k.ideal > h.cycles - h.ideal {
                    (h.core, h.cycles, h.ideal) = (c, k.busy, k.ideal);
                    worst.insert(key, (c, i));
                }
            }
        }
        let mut hotspots: Vec<BankHotspot> = sites.into_values().collect();
        hotspots.sort_by(|a, b| {
            b.extra
                .cmp(&a.extra)
                .then(a.location.line.cmp(&b.location.line))
        });
        hotspots.truncate(HOTSPOTS);
        for h in &mut hotspots {
            let (c, i) = worst[&(h.api, h.location)];
            let trace = cores[c].1;
            let ins = trace
                .instrs()
                .nth(i)
                .expect("a hotspot is a recorded instruction");
            let mut acc = Vec::new();
            ins.accesses_into(&mut acc);
            h.what_if = cost::what_if_of(table, &ins.instr(), &acc);
        }
        Timeline {
            profile: report.profile,
            table,
            cores: lines,
            hotspots,
        }
    }

    /// Cycles of the slowest core.
    pub fn total_cycles(&self) -> u64 {
        self.cores.iter().map(|c| c.total).max().unwrap_or(0)
    }

    /// Estimated run time of the launch in µs at the product's clock.
    pub fn micros(&self) -> f64 {
        self.table.micros(self.total_cycles())
    }

    /// The Chrome/Perfetto trace-event JSON: one process per core, one thread per pipe, one
    /// complete event per instruction, flow arrows from each `SetFlag` to the `WaitFlag` it released.
    pub fn trace_json(&self) -> String {
        perfetto::render(self)
    }

    /// Writes [`Timeline::trace_json`] to `path`.
    pub fn write_trace(&self, path: &Path) -> std::io::Result<()> {
        std::fs::write(path, self.trace_json())
    }

    /// The text report: totals, per-pipe utilisation, double-buffer overlap, the `top` longest
    /// stalls and the `top` most bank-conflicted call sites with a what-if.
    pub fn report(&self, top: usize) -> String {
        report::render(self, top)
    }
}
