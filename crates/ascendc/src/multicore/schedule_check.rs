//! The schedule check: runs a launch under several schedules from the same GM contents and
//! reports GM output that differs between them.

use super::atomic::AtomicOp;
use super::schedule::Schedule;
use crate::core::trace::Space;
use crate::dtype::DType;
use crate::error::{Category, Diagnostic, Result, Severity};
use crate::gm::GmBuffer;
use crate::launch::{Launch, LaunchError, LaunchReport};
use std::fmt;

/// GM output of one buffer that differs between two schedules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScheduleDifference {
    /// Index of the buffer in the list given to [`Launch::schedule_check`].
    pub buffer: usize,
    /// First differing byte.
    pub offset: usize,
    /// Number of differing bytes in the buffer.
    pub bytes: usize,
    /// The reference schedule (the first) and its bytes from `offset` (up to 8).
    pub reference: (Schedule, Vec<u8>),
    /// The other schedule and its bytes from `offset` (up to 8).
    pub other: (Schedule, Vec<u8>),
    /// Every differing byte was written by float atomic adds: the results differ only by the
    /// order in which the cores' partial values were summed (each order rounds differently).
    pub summation_order_only: bool,
}

impl fmt::Display for ScheduleDifference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "buffer {}: {} byte(s) differ, first at byte {}: {:02x?} under schedule {} vs {:02x?} under schedule {}",
            self.buffer, self.bytes, self.offset, self.reference.1, self.reference.0, self.other.1, self.other.0
        )?;
        if self.summation_order_only {
            write!(
                f,
                " (only float atomic-add results: they differ by summation order, not by a race)"
            )?;
        }
        Ok(())
    }
}

/// The outcome of a schedule check.
#[derive(Debug)]
pub struct ScheduleCheck {
    /// The schedules run, in order.
    pub schedules: Vec<Schedule>,
    /// Differences from the first schedule's output (at most one per buffer and schedule).
    pub differences: Vec<ScheduleDifference>,
    /// The report of the first schedule's run.
    pub report: LaunchReport,
}

impl ScheduleCheck {
    /// True when every schedule produced the same GM output.
    pub fn is_deterministic(&self) -> bool {
        self.differences.is_empty()
    }

    /// The differences as warnings.
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        self.differences
            .iter()
            .map(|d| Diagnostic {
                severity: Severity::Warning,
                category: Category::Sync,
                api: "schedule check",
                message: format!("GM output depends on the block schedule: {d}"),
                location: None,
                block: None,
            })
            .collect()
    }
}

impl fmt::Display for ScheduleCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<String> = self.schedules.iter().map(|s| s.to_string()).collect();
        if self.differences.is_empty() {
            write!(
                f,
                "schedule check: {} schedules ({}) give the same GM output",
                names.len(),
                names.join(", ")
            )
        } else {
            write!(
                f,
                "schedule check: GM output differs between schedules ({})",
                names.join(", ")
            )?;
            for d in &self.differences {
                write!(f, "\n  {d}")?;
            }
            Ok(())
        }
    }
}

/// GM byte runs written by float atomic adds in a launch: (allocation, start, end).
fn float_atomic_runs(report: &LaunchReport) -> Vec<(u64, u64, u64)> {
    let mut out = Vec::new();
    for b in &report.blocks {
        for t in b.trace.gm_touches() {
            let st = b.sync.atomic_at(t.seq);
            let float = matches!(st.dtype, Some(DType::Half | DType::Bfloat16 | DType::Float));
            if st.op != Some(AtomicOp::Add) || !float {
                continue;
            }
            if let (true, Space::Gm(region)) = (t.access.write, t.access.space) {
                for (s, e) in crate::check::runs(&t.access) {
                    out.push((region, s, e));
                }
            }
        }
    }
    out
}

impl Launch {
    /// Runs the launch under `n` schedules (order, reverse, then shuffles seeded 1, 2, …), each
    /// from the GM contents `gm` held before the first, and compares what the runs leave in
    /// `gm`. Afterwards `gm` holds the first schedule's output. Fails with the first failing
    /// run's error (its diagnostics name the schedule).
    pub fn schedule_check<F>(
        &self,
        n: usize,
        gm: &[&GmBuffer],
        kernel: F,
    ) -> std::result::Result<ScheduleCheck, LaunchError>
    where
        F: Fn() -> Result<()> + Sync,
    {
        let initial: Vec<Vec<u8>> = gm.iter().map(|b| b.to_bytes()).collect();
        let restore = |bytes: &[Vec<u8>]| {
            for (b, v) in gm.iter().zip(bytes) {
                b.write_slice(0, v).expect("same size");
            }
        };
        let mut schedules = Vec::new();
        let mut reference: Option<(Vec<Vec<u8>>, LaunchReport)> = None;
        let mut differences = Vec::new();
        for i in 0..n.max(1) {
            let s = Schedule::nth(i);
            schedules.push(s);
            restore(&initial);
            let report = match self.clone().schedule(s).run(&kernel) {
                Ok(r) => r,
                Err(mut e) => {
                    e.report.diagnostics.push(Diagnostic {
                        severity: Severity::Info,
                        category: Category::Launch,
                        api: "schedule check",
                        message: format!("the launch failed under schedule {s}"),
                        location: None,
                        block: None,
                    });
                    return Err(e);
                }
            };
            let out: Vec<Vec<u8>> = gm.iter().map(|b| b.to_bytes()).collect();
            match &reference {
                None => reference = Some((out, report)),
                Some((ref_out, ref_report)) => {
                    let mut atomic_runs = float_atomic_runs(ref_report);
                    atomic_runs.extend(float_atomic_runs(&report));
                    for (k, (a, b)) in ref_out.iter().zip(&out).enumerate() {
                        let diff: Vec<usize> = (0..a.len()).filter(|&j| a[j] != b[j]).collect();
                        let Some(&first) = diff.first() else {
                            continue;
                        };
                        let addr = gm[k].addr();
                        let region = addr.region_id();
                        let summation_order_only = diff.iter().all(|&j| {
                            atomic_runs
                                .iter()
                                .any(|&(r, s, e)| r == region && (s..e).contains(&(j as u64)))
                        });
                        let end = (first + 8).min(a.len());
                        differences.push(ScheduleDifference {
                            buffer: k,
                            offset: first,
                            bytes: diff.len(),
                            reference: (schedules[0], a[first..end].to_vec()),
                            other: (s, b[first..end].to_vec()),
                            summation_order_only,
                        });
                    }
                }
            }
        }
        let (ref_out, report) = reference.expect("at least one run");
        restore(&ref_out);
        Ok(ScheduleCheck {
            schedules,
            differences,
            report,
        })
    }
}
