//! The run-time limit `ASCENDC_TIMEOUT=SECONDS` (`ascendc run --timeout`): a watchdog thread,
//! started by the first launch, ends a program still running that many seconds after it started with
//! status 124 and a report of every block running then: its core, its block index and the last
//! API call it made (file and line), so that a kernel stuck in a loop is found without a
//! debugger. Without the variable nothing is started and each API call pays one relaxed load.

use crate::core::CoreId;
use crate::error::SourceLoc;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Once};
use std::time::Duration;

/// True once a limit is set: the hooks below record where each block is.
static ACTIVE: AtomicBool = AtomicBool::new(false);
static START: Once = Once::new();
/// One slot per thread that ran a block.
static SLOTS: Mutex<Vec<Arc<Slot>>> = Mutex::new(Vec::new());

/// The block one thread runs and its last API call; written by its thread (uncontended but for
/// the watchdog's one read).
type Slot = Mutex<Option<(CoreId, Option<SourceLoc>)>>;

thread_local! {
    static MINE: std::cell::OnceCell<Arc<Slot>> = const { std::cell::OnceCell::new() };
}

fn mine<R>(f: impl FnOnce(&Slot) -> R) -> R {
    MINE.with(|m| {
        f(m.get_or_init(|| {
            let s: Arc<Slot> = Arc::new(Mutex::new(None));
            SLOTS
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(s.clone());
            s
        }))
    })
}

/// Reads `ASCENDC_TIMEOUT` once and starts the watchdog when it holds a positive number of
/// seconds; a value that is not one is reported once and ignored.
pub(crate) fn arm() {
    START.call_once(|| {
        let Ok(text) = std::env::var("ASCENDC_TIMEOUT") else {
            return;
        };
        let secs = match text.trim().parse::<f64>() {
            Ok(s) if s > 0.0 && s.is_finite() => s,
            _ => {
                eprintln!("warning: ASCENDC_TIMEOUT={text}: expected a positive number of seconds; no limit set");
                return;
            }
        };
        ACTIVE.store(true, Ordering::SeqCst);
        let spawned = std::thread::Builder::new()
            .name("ascendc-watchdog".into())
            .spawn(move || {
                let left = secs - process_age().unwrap_or(0.0);
                std::thread::sleep(Duration::from_secs_f64(left.max(0.0)));
                eprint!("{}", report(secs));
                // Not `exit`: the program's static destructors must not run under its still
                // running kernel threads.
                // SAFETY: _exit(2) ends the process at once; stderr is unbuffered.
                unsafe { libc::_exit(124) };
            });
        if spawned.is_err() {
            eprintln!("warning: ASCENDC_TIMEOUT: the watchdog thread could not start; no limit set");
        }
    });
}

/// Seconds since the process started (Linux: `/proc/self/stat` against `/proc/uptime`), so
/// that the limit counts the whole program as `ascendc run --timeout` does.
fn process_age() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name, which is in parentheses and may hold spaces.
    let rest = &stat[stat.rfind(')')? + 2..];
    let start_ticks: f64 = rest.split_whitespace().nth(19)?.parse().ok()?;
    let uptime: f64 = std::fs::read_to_string("/proc/uptime")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    // SAFETY: sysconf has no preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    (hz > 0).then(|| uptime - start_ticks / hz as f64)
}

/// The report printed when the limit is reached.
fn report(secs: f64) -> String {
    let mut s = format!(
        "error: the program ran longer than ASCENDC_TIMEOUT ({secs} s) and was ended; the blocks running then:\n"
    );
    let slots = SLOTS.lock().unwrap_or_else(|e| e.into_inner());
    let mut any = false;
    for slot in slots.iter() {
        let Some((core, at)) = *slot.lock().unwrap_or_else(|e| e.into_inner()) else {
            continue;
        };
        any = true;
        let _ = match at {
            Some(at) => writeln!(
                s,
                "  {core} (block {}): last API call at {}:{}",
                core.block_idx, at.file, at.line
            ),
            None => writeln!(s, "  {core} (block {}): no API call yet", core.block_idx),
        };
    }
    if !any {
        s.push_str("  none (the program was outside its kernels: host code)\n");
    }
    s
}

fn set(f: impl FnOnce(&mut Option<(CoreId, Option<SourceLoc>)>)) {
    mine(|slot| f(&mut slot.lock().unwrap_or_else(|e| e.into_inner())));
}

/// A block starts on this thread.
#[inline]
pub(crate) fn block_started(id: CoreId) {
    if ACTIVE.load(Ordering::Relaxed) {
        set(|s| *s = Some((id, None)));
    }
}

/// The block of this thread ended.
#[inline]
pub(crate) fn block_ended() {
    if ACTIVE.load(Ordering::Relaxed) {
        set(|s| *s = None);
    }
}

/// An API call at `loc` on this thread.
#[inline]
pub(crate) fn note(loc: SourceLoc) {
    if ACTIVE.load(Ordering::Relaxed) {
        set(|s| {
            if let Some((_, at)) = s {
                *at = Some(loc);
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::CoreKind;

    #[test]
    fn the_report_names_each_running_block_and_its_last_call() {
        let id = CoreId {
            kind: CoreKind::Aiv,
            index: 5,
            block_idx: 5,
            sub_block_idx: 0,
            task_ratio: 1,
        };
        ACTIVE.store(true, Ordering::SeqCst);
        std::thread::spawn(move || {
            block_started(id);
            note(SourceLoc {
                file: "kernel.cpp",
                line: 42,
                column: 0,
            });
        })
        .join()
        .unwrap();
        let r = report(2.0);
        assert!(r.contains("ASCENDC_TIMEOUT (2 s)"), "{r}");
        let age = process_age().expect("Linux /proc");
        assert!((0.0..3600.0).contains(&age), "{age}");
        assert!(
            r.contains("AIV_5 (block 5): last API call at kernel.cpp:42"),
            "{r}"
        );
    }
}
