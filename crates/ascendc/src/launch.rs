//! Multi-core launch: runs `blockDim` blocks of a kernel, each on its own simulated core, on host
//! threads (or one after another in block order).

use crate::api::context;
use crate::chip::ChipProfile;
use crate::core::memory::LocalMemory;
use crate::core::trace::{Pipe, Trace};
use crate::core::{Core, CoreId, CoreKind, CoreOptions, CountRounding};
use crate::error::{panic_text, Category, Diagnostic, Result, Severity, SimError};
use crate::multicore::sched::{self, Sched};
use crate::multicore::schedule::Schedule;
use crate::multicore::CoreSync;
use crate::timing::Timeline;
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// Which cores each block uses on products with separate cube and vector cores (A2/A3)
/// (`SetKernelMode`). Coupled products run one AI Core per block in every mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum KernelMode {
    /// One vector core (AIV) per block (`AIV_MODE`). The default.
    #[default]
    Aiv,
    /// One cube core (AIC) per block (`AIC_MODE`).
    Aic,
    /// One AIC and two AIVs per block (`MIX_MODE`): the AIVs see `GetBlockIdx()` = 2·block + sub-block.
    Mix,
    /// One AIC and one AIV per block (`MIX_AIC_1_1`).
    MixAic1_1,
}

/// A launch configuration (`kernel<<<blockDim, …>>>` / `ICPU_RUN_KF(kernel, blockDim, …)`).
#[derive(Debug, Clone)]
pub struct Launch {
    profile: &'static ChipProfile,
    mode: KernelMode,
    block_dim: u32,
    threads: Option<usize>,
    options: CoreOptions,
    check_hazards: bool,
    check_gm_races: bool,
    schedule: Option<Schedule>,
    /// Keep the instruction record: `None` decides by the consumers asked for.
    record: Option<bool>,
    trace_path: Option<PathBuf>,
    timing_report: bool,
}

/// What each core did.
#[derive(Debug)]
pub struct BlockReport {
    /// `GetBlockIdx()` of the core.
    pub block_idx: u32,
    /// Which core of the launch ran it.
    pub core: CoreId,
    /// Instructions issued per pipe, indexed by `Pipe as usize`.
    pub instr_counts: [u64; 8],
    /// The instruction record (empty when recording was off).
    pub trace: Trace,
    /// Warnings and notes.
    pub diagnostics: Vec<Diagnostic>,
    /// Cross-core ordering and atomic-mode record (for the inter-block race check).
    pub sync: CoreSync,
}

impl BlockReport {
    /// Instructions issued on one pipe.
    pub fn count(&self, pipe: Pipe) -> u64 {
        self.instr_counts[pipe as usize]
    }
}

/// The items of `lists` in increasing order of `key`: a merge of the lists, each sorted first
/// unless it is in order already (a thread takes its cores in launch order), that moves each
/// item once. Many lists (a thread per core) are joined and sorted instead.
fn merged<T>(mut lists: Vec<Vec<T>>, key: impl Fn(&T) -> usize) -> impl Iterator<Item = T> {
    if lists.len() > 8 {
        let mut all: Vec<T> = lists.into_iter().flatten().collect();
        all.sort_unstable_by_key(&key);
        lists = vec![all];
    }
    let mut heads: Vec<_> = lists
        .into_iter()
        .map(|mut l| {
            if !l.is_sorted_by_key(&key) {
                l.sort_unstable_by_key(&key);
            }
            l.into_iter().peekable()
        })
        .collect();
    std::iter::from_fn(move || {
        let (_, k) = (0..heads.len())
            .filter_map(|k| heads[k].peek().map(|t| (key(t), k)))
            .min()?;
        heads[k].next()
    })
}

/// The result of a launch: one report per block, in block order.
#[derive(Debug)]
pub struct LaunchReport {
    /// The product simulated.
    pub profile: &'static ChipProfile,
    /// Per-core reports, in launch order (block by block; in mixed mode AIC first, then its AIVs).
    pub blocks: Vec<BlockReport>,
    /// Launch-level diagnostics (e.g. limits of the vendor CPU-debug library).
    pub diagnostics: Vec<Diagnostic>,
    /// The estimated timeline, when [`Launch::trace`] or [`Launch::report`] asked for it.
    pub timeline: Option<Box<Timeline>>,
}

impl LaunchReport {
    /// Every diagnostic of the launch and its blocks.
    pub fn diagnostics(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics
            .iter()
            .chain(self.blocks.iter().flat_map(|b| b.diagnostics.iter()))
    }

    /// Instructions issued per pipe over all blocks.
    pub fn total_counts(&self) -> [u64; 8] {
        let mut t = [0; 8];
        for b in &self.blocks {
            for (x, y) in t.iter_mut().zip(b.instr_counts) {
                *x += y;
            }
        }
        t
    }
}

impl fmt::Display for LaunchReport {
    /// One summary line (product, cores, instructions per pipe), then one line per diagnostic.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let counts = self.total_counts();
        let per_pipe: Vec<String> = Pipe::ALL_PIPES
            .iter()
            .filter(|p| counts[**p as usize] > 0)
            .map(|p| {
                format!(
                    "{} {}",
                    p.c_name().trim_start_matches("PIPE_"),
                    counts[*p as usize]
                )
            })
            .collect();
        write!(
            f,
            "{}: {} core(s), instructions {}",
            self.profile,
            self.blocks.len(),
            if per_pipe.is_empty() {
                "none".to_string()
            } else {
                per_pipe.join(", ")
            }
        )?;
        for d in self.diagnostics() {
            write!(f, "\n{d}")?;
        }
        if let Some(t) = &self.timeline {
            write!(f, "\n{}", t.report(5))?;
        }
        Ok(())
    }
}

/// A launch in which at least one block failed. GM keeps whatever the blocks wrote.
#[derive(Debug)]
pub struct LaunchError {
    /// The first error of each failed block, in block order.
    pub errors: Vec<SimError>,
    /// Reports of every block, failed or not.
    pub report: LaunchReport,
}

impl fmt::Display for LaunchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.report.blocks.is_empty() {
            // Refused before any block ran (blockDim, product, mode).
            write!(f, "the launch was refused before any block ran")?;
        } else {
            write!(
                f,
                "kernel failed in {} of {} block(s)",
                self.errors.len(),
                self.report.blocks.len()
            )?;
        }
        for e in &self.errors {
            write!(f, "\n  {e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for LaunchError {}

impl Launch {
    /// A launch of `block_dim` blocks on the default product (Atlas A2).
    pub fn new(block_dim: u32) -> Launch {
        Launch {
            profile: ChipProfile::default_profile(),
            mode: KernelMode::default(),
            block_dim,
            threads: None,
            options: CoreOptions::default(),
            check_hazards: false,
            check_gm_races: true,
            schedule: None,
            record: None,
            trace_path: None,
            timing_report: false,
        }
    }

    /// Simulates another product.
    pub fn profile(mut self, profile: &'static ChipProfile) -> Launch {
        self.profile = profile;
        self
    }

    /// Chooses the cores of each block on separated products (`SetKernelMode`).
    pub fn kernel_mode(mut self, mode: KernelMode) -> Launch {
        self.mode = mode;
        self
    }

    /// Runs one core at a time, choosing at every block start and cross-core synchronisation
    /// point the runnable core `schedule` names (deterministic: the same schedule gives the same
    /// run). Without it, blocks run in parallel on host threads.
    pub fn schedule(mut self, schedule: Schedule) -> Launch {
        self.schedule = Some(schedule);
        self
    }

    /// The schedule set with [`Launch::schedule`], if any.
    pub fn get_schedule(&self) -> Option<Schedule> {
        self.schedule
    }

    /// The cores of the launch, in order, each with its AI Core (block group) index.
    fn cores(&self) -> Vec<(CoreId, u32)> {
        let mut cores = Vec::new();
        for b in 0..self.block_dim {
            if !self.profile.separated {
                cores.push((CoreId::single(CoreKind::AiCore, b), b));
                continue;
            }
            match self.mode {
                KernelMode::Aiv => cores.push((CoreId::single(CoreKind::Aiv, b), b)),
                KernelMode::Aic => cores.push((CoreId::single(CoreKind::Aic, b), b)),
                KernelMode::MixAic1_1 => {
                    cores.push((CoreId::single(CoreKind::Aic, b), b));
                    cores.push((CoreId::single(CoreKind::Aiv, b), b));
                }
                KernelMode::Mix => {
                    cores.push((CoreId::single(CoreKind::Aic, b), b));
                    for sub in 0..2 {
                        cores.push((
                            CoreId {
                                kind: CoreKind::Aiv,
                                index: 2 * b + sub,
                                block_idx: 2 * b + sub,
                                sub_block_idx: sub,
                                task_ratio: 2,
                            },
                            b,
                        ));
                    }
                }
            }
        }
        cores
    }

    /// Runs blocks one after another in block order on the calling thread (deterministic).
    pub fn sequential(mut self) -> Launch {
        self.threads = Some(1);
        self
    }

    /// Uses at most `n` host threads (default: the machine's parallelism).
    pub fn threads(mut self, n: usize) -> Launch {
        self.threads = Some(n.max(1));
        self
    }

    /// Keeps or drops the full per-instruction record in the report; counts are always kept. By
    /// default the report keeps it only for a trace or timing report (which read it even when
    /// this is off: the report then drops it once the timeline is made). The hazard checker reads
    /// each block's record as the block ends, whatever this says. (The inter-block GM race check
    /// keeps its own compact GM footprint instead.)
    pub fn record_trace(mut self, on: bool) -> Launch {
        self.record = Some(on);
        self
    }

    /// Reports GM bytes two cores touch, at least one writing, in an order no cross-core
    /// synchronisation fixes (on by default for launches of more than one core). Each core
    /// keeps a compact GM footprint for it: contiguous accesses from one call site between two
    /// synchronisations are merged, so its memory grows with the call sites and sync points,
    /// not with the instruction count.
    pub fn check_gm_races(mut self, on: bool) -> Launch {
        self.check_gm_races = on;
        self
    }

    /// Writes the estimated timeline of the launch as a Chrome/Perfetto trace-event JSON file
    /// at `path` (open it in ui.perfetto.dev or `chrome://tracing`). Keeps the record.
    pub fn trace(mut self, path: impl Into<PathBuf>) -> Launch {
        self.trace_path = Some(path.into());
        self
    }

    /// Computes the estimated timeline ([`LaunchReport::timeline`]); the report's `Display`
    /// then adds per-pipe utilisation, the longest stalls and the most bank-conflicted call
    /// sites. Keeps the record.
    pub fn report(mut self, on: bool) -> Launch {
        self.timing_report = on;
        self
    }

    /// Reports missing synchronisation inside each core (RAW/WAR/WAW between pipes not ordered by
    /// a barrier or flags, double `SetFlag`, `WaitFlag` without `SetFlag`) as warnings. Each
    /// block records its instructions and is checked as it ends (a block that repeats the last
    /// clean block of its host thread with its addresses moved, as the blocks of an SPMD kernel
    /// do, is found clean without a second check); the report keeps the records only when
    /// [`record_trace`](Launch::record_trace) (or timing) asks for them.
    pub fn check_hazards(mut self, on: bool) -> Launch {
        self.check_hazards = on;
        self
    }

    /// Chooses how a level-2 DataCopy treats counts that are not whole 32-byte blocks.
    pub fn count_rounding(mut self, mode: CountRounding) -> Launch {
        self.options.count_rounding = mode;
        self
    }

    /// Lets calls take their fast paths (on by default): contiguous level-2 copies as one host
    /// copy, same-type level-2 element-wise calls as one pass. Off, every call goes through the
    /// general lowering; results, counts, records and diagnostics are the same either way.
    pub fn fast_paths(mut self, on: bool) -> Launch {
        self.options.fast_paths = on;
        self
    }

    /// Runs fp16 in IEEE Inf/NaN mode instead of saturation (A2/A3 only).
    pub fn fp16_inf_nan(mut self, on: bool) -> Launch {
        self.options.fp16_saturation = !on;
        self
    }

    /// The product this launch simulates.
    pub fn get_profile(&self) -> &'static ChipProfile {
        self.profile
    }

    /// Runs `kernel` once per block. The kernel reads its block with
    /// [`get_block_idx`](crate::get_block_idx). Fails when any block fails; a panic inside a
    /// block is caught and reported as that block's error.
    pub fn run<F>(&self, kernel: F) -> std::result::Result<LaunchReport, LaunchError>
    where
        F: Fn() -> Result<()> + Sync,
    {
        crate::watchdog::arm();
        let mut diagnostics = Vec::new();
        let fail = |msg: String| {
            Err(LaunchError {
                errors: vec![SimError::new(Category::Launch, "Launch", msg)],
                report: LaunchReport {
                    profile: self.profile,
                    blocks: Vec::new(),
                    diagnostics: Vec::new(),
                    timeline: None,
                },
            })
        };
        if !(1..=65535).contains(&self.block_dim) {
            return fail(format!(
                "parameter `blockDim` = {} is out of range [1, 65535]",
                self.block_dim
            ));
        }
        if !self.options.fp16_saturation && !self.profile.fp16_inf_nan_switchable {
            return fail(format!(
                "fp16 Inf/NaN mode is not available on {}: its vector unit always saturates",
                self.profile
            ));
        }
        let limit = match self.mode {
            KernelMode::Aiv => self.profile.cpu_debug_max_blocks,
            _ => self.profile.cpu_debug_max_mix_blocks,
        };
        if self.block_dim > limit {
            diagnostics.push(Diagnostic {
                severity: Severity::Warning,
                category: Category::Launch,
                api: "Launch",
                message: format!(
                    "blockDim {} exceeds {limit}, the vendor CPU-debug library's limit on {} in {:?} mode (it would refuse this launch)",
                    self.block_dim, self.profile.soc, self.mode
                ),
                location: None,
                block: None,
            });
        }
        let (cores, group): (Vec<CoreId>, Vec<u32>) = self.cores().into_iter().unzip();
        let timing = self.trace_path.is_some() || self.timing_report;
        let mut resolved = self.clone();
        // The blocks keep their records for timing (which reads them once all blocks ended)
        // or when asked; the hazard checker reads each block's record as the block ends and
        // then drops it.
        let keep = timing || self.record == Some(true);
        resolved.options.record_trace = keep || self.check_hazards;
        // The schedule check also reads the footprint (GM bytes written by float atomics).
        resolved.options.gm_log =
            (self.check_gm_races || self.schedule.is_some()) && cores.len() > 1;
        let this = &resolved;
        let threads = self
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .min(cores.len());
        let resident = match (self.profile.separated, self.mode) {
            (false, _) => (self.profile.ai_cores, "AI Cores"),
            (true, KernelMode::Aiv) => (self.profile.vector_cores, "vector cores (AIV)"),
            (true, _) => (self.profile.ai_cores, "AI Cores (one AIC each)"),
        };
        let sched = Arc::new(Sched::new(
            cores.clone(),
            group,
            self.block_dim,
            resident,
            self.schedule,
        ));
        // The hazard check of a block runs on its thread as soon as the block ends.
        let check_hazards = self.check_hazards;
        type Outcome = (usize, BlockReport, Option<SimError>, Vec<Diagnostic>);
        // Each thread's outcomes, in the order it ran its cores.
        let results: Mutex<Vec<Vec<Outcome>>> = Mutex::new(Vec::new());
        // Each thread keeps its outcomes and hands them over once, at its end.
        let one = |i: usize, memory: Option<LocalMemory>, out: &mut Vec<Outcome>| -> LocalMemory {
            sched::install(sched.clone(), i);
            let (b, e, m) = this.run_block(cores[i], i, &kernel, memory);
            sched::uninstall();
            let mut b = b;
            // Without a record to keep, the checker takes a clean record over instead of
            // copying it.
            let check = |t: &mut Trace, block| match keep {
                true => crate::check::hazards(t, block),
                false => crate::check::hazards_and_forget(t, block),
            };
            let (hazards, e) = match check_hazards {
                true => match checked(&mut b, check) {
                    Ok(h) => (h, e),
                    Err(failed) => (Vec::new(), Some(e.unwrap_or(failed))),
                },
                false => (Vec::new(), e),
            };
            if !keep {
                b.trace.forget_record();
            }
            out.push((i, b, e, hazards));
            m
        };
        let hand_over = |out: Vec<Outcome>| {
            results.lock().unwrap_or_else(|e| e.into_inner()).push(out);
        };
        let worker = || {
            crate::gm::with_thread_shares(|| {
                let mut memory = LocalMemory::recycled(self.profile);
                // Threads take cores as they go, so one may run more than its share; growing
                // the list would copy it (memory reserved and not touched costs nothing).
                let mut out = Vec::with_capacity(cores.len() / threads * 3 / 2 + 16);
                let mut next = sched.next_core();
                while let Some(i) = next {
                    memory = Some(one(i, memory.take(), &mut out));
                    next = sched.finish_and_next(i);
                }
                hand_over(out);
                if let Some(m) = memory {
                    m.recycle();
                }
            })
        };
        let own_thread = |i: usize| {
            crate::gm::with_thread_shares(|| {
                sched.begin(i);
                let mut out = Vec::new();
                one(i, LocalMemory::recycled(self.profile), &mut out).recycle();
                hand_over(out);
                sched.finish(i);
            })
        };
        if cores.len() == 1 && !sched.scheduled() {
            worker();
        } else {
            std::thread::scope(|s| {
                sched.drive(
                    threads,
                    || {
                        s.spawn(worker);
                    },
                    |i| {
                        s.spawn(move || own_thread(i));
                    },
                );
            });
        }
        // Blocks that ran on this thread may have left it the memory of a dropped record and
        // of the checker.
        crate::core::trace::Trace::release_spare();
        crate::check::release_state();
        let mut errors = Vec::new();
        let mut blocks = Vec::with_capacity(cores.len());
        let mut hazards = Vec::new();
        let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
        for (_, b, e, h) in merged(results, |o: &Outcome| o.0) {
            hazards.extend(h);
            errors.extend(e);
            blocks.push(b);
        }
        if this.options.gm_log && self.check_gm_races {
            diagnostics.extend(crate::check::multi_core_gm_overlap(&blocks));
        }
        diagnostics.extend(hazards);
        let mut report = LaunchReport {
            profile: self.profile,
            blocks,
            diagnostics,
            timeline: None,
        };
        if timing {
            let t = Timeline::new(&report);
            if let Some(path) = &self.trace_path {
                if let Err(e) = t.write_trace(path) {
                    report.diagnostics.push(Diagnostic {
                        severity: Severity::Warning,
                        category: Category::Launch,
                        api: "Launch::trace",
                        message: format!("cannot write the trace to {}: {e}", path.display()),
                        location: None,
                        block: None,
                    });
                }
            }
            if self.timing_report {
                report.timeline = Some(Box::new(t));
            }
            // Asked not to keep the records: they served the timeline only.
            if self.record == Some(false) {
                for b in &mut report.blocks {
                    b.trace.forget_record();
                }
            }
        }
        if errors.is_empty() {
            Ok(report)
        } else {
            Err(LaunchError { errors, report })
        }
    }

    /// Runs one core, reusing `memory` from the thread's previous core; hands the memory back.
    fn run_block<F>(
        &self,
        id: CoreId,
        index: usize,
        kernel: &F,
        memory: Option<LocalMemory>,
    ) -> (BlockReport, Option<SimError>, LocalMemory)
    where
        F: Fn() -> Result<()> + Sync,
    {
        let mut core = Core::with_memory(self.profile, id, self.block_dim, self.options, memory);
        core.sync.core_index = index;
        core.sync.mixed = matches!(self.mode, KernelMode::Mix | KernelMode::MixAic1_1);
        context::install(core);
        crate::signal_stack::ensure();
        crate::watchdog::block_started(id);
        let outcome = catch_unwind(AssertUnwindSafe(kernel));
        crate::watchdog::block_ended();
        let mut core = context::take().expect("the block's core is installed");
        let sync = std::mem::take(&mut core.sync);
        let (trace, diagnostics, first, memory) = core.finish();
        let error = match outcome {
            Ok(Ok(())) => first,
            Ok(Err(e)) => Some(first.unwrap_or(e)),
            Err(panic) => {
                let mut e = SimError::new(
                    Category::Launch,
                    "kernel",
                    format!("the kernel panicked: {}", panic_text(&*panic)),
                );
                e.block = Some(id.block_idx);
                e.core = Some(id);
                Some(first.unwrap_or(e))
            }
        };
        (
            BlockReport {
                block_idx: id.block_idx,
                core: id,
                instr_counts: trace.counts(),
                trace,
                diagnostics,
                sync,
            },
            error,
            memory,
        )
    }
}

/// Runs the per-block check `check` on block `b`'s record. A panic inside it (a fault of the
/// simulator, never of the kernel) becomes the block's error instead of ending the worker
/// thread, which would leave the launch waiting for a block that never finishes.
fn checked(
    b: &mut BlockReport,
    check: impl FnOnce(&mut Trace, u32) -> Vec<Diagnostic>,
) -> std::result::Result<Vec<Diagnostic>, SimError> {
    let block = b.block_idx;
    catch_unwind(AssertUnwindSafe(|| check(&mut b.trace, block))).map_err(|panic| {
        let mut e = SimError::new(
            Category::Launch,
            "Launch::check_hazards",
            format!(
                "internal error in the synchronisation checker: {}",
                panic_text(&*panic)
            ),
        );
        e.block = Some(b.block_idx);
        e.core = Some(b.core);
        e
    })
}

#[cfg(test)]
mod tests {
    use super::{checked, merged, BlockReport};
    use crate::core::{CoreId, CoreKind};
    use crate::error::{Category, Diagnostic};

    #[test]
    fn a_panicking_check_becomes_the_block_error() {
        let core = CoreId {
            kind: CoreKind::Aiv,
            index: 3,
            block_idx: 3,
            sub_block_idx: 0,
            task_ratio: 1,
        };
        let mut b = BlockReport {
            block_idx: 3,
            core,
            instr_counts: [0; 8],
            trace: Default::default(),
            diagnostics: Vec::new(),
            sync: Default::default(),
        };
        let e = checked(&mut b, |_, _| -> Vec<Diagnostic> {
            panic!("bucket 7 out of range")
        })
        .expect_err("the panic is the block's error");
        assert_eq!(e.block, Some(3));
        assert_eq!(e.core, Some(core));
        assert_eq!(e.category, Category::Launch);
        assert!(
            e.message
                .contains("synchronisation checker: bucket 7 out of range"),
            "{}",
            e.message
        );
        let fine = checked(&mut b, |_, block| {
            assert_eq!(block, 3);
            Vec::new()
        });
        assert!(fine.expect("no panic").is_empty());
    }

    #[test]
    fn merged_lists_come_out_in_key_order() {
        let lists = vec![
            vec![(0, 'a'), (3, 'd'), (4, 'e'), (9, 'j')],
            vec![],
            vec![(2, 'c'), (1, 'b'), (8, 'i')],
            vec![(5, 'f'), (6, 'g'), (7, 'h')],
        ];
        let out: Vec<(usize, char)> = merged(lists, |t| t.0).collect();
        assert_eq!(out.iter().map(|t| t.1).collect::<String>(), "abcdefghij");
        assert!(out.iter().enumerate().all(|(i, t)| t.0 == i));
        // One list per item, as with a thread per core.
        let many: Vec<Vec<usize>> = (0..40).rev().map(|i| vec![i]).collect();
        assert!(merged(many, |&i| i).eq(0..40));
    }
}
