//! `ICPU_RUN_KF`: runs a C++ kernel's blocks on simulated cores and reports the outcome.

use crate::abi::{block_scope, call, take_last_error, AscLoc};
use ascendc::error::{Category, SimError};
use ascendc::{get_block_idx, KernelMode, Launch, Schedule};
use std::ffi::{c_char, c_void, CStr};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, AtomicU8, Ordering};

/// The mode `SetKernelMode` chose, in C++ `KernelMode` order (`u8::MAX`: not set, the library's
/// default).
static MODE: AtomicU8 = AtomicU8::new(u8::MAX);

/// `SetKernelMode(mode)`: `MIX_MODE` (0), `AIC_MODE` (1), `AIV_MODE` (2), `MIX_AIC_1_1` (3), for
/// the following launches.
#[no_mangle]
pub extern "C" fn ascendc_set_kernel_mode(mode: u8) {
    MODE.store(mode, Ordering::Relaxed);
}

/// The kernel mode numbered `mode` in C++ `KernelMode` order; `u8::MAX`: the mode
/// `SetKernelMode` chose, else the library's default; `0x80 | m`: the mode `SetKernelMode`
/// chose, else `m` (ICPU_RUN_KF of a kernel with a mode of its own).
fn kernel_mode(mode: u8) -> KernelMode {
    let set = MODE.load(Ordering::Relaxed);
    let chosen = if mode == u8::MAX {
        set
    } else if mode & 0x80 != 0 {
        // The kernel's own mode, unless SetKernelMode chose one.
        if set == u8::MAX {
            mode & 0x7f
        } else {
            set
        }
    } else {
        mode
    };
    match chosen {
        0 => KernelMode::Mix,
        1 => KernelMode::Aic,
        2 => KernelMode::Aiv,
        3 => KernelMode::MixAic1_1,
        _ => KernelMode::default(),
    }
}

/// True when the environment variable is set to anything but empty or `0`.
fn env_flag(name: &str) -> bool {
    std::env::var_os(name).is_some_and(|v| !v.is_empty() && v != "0")
}

/// Launches that wrote a trace so far.
static TRACES: AtomicU32 = AtomicU32::new(0);

/// Where this launch writes its trace: `$ASCENDC_TRACE` for the first launch of the program,
/// `NAME.N.EXT` for the N-th after it (`out.json`, `out.1.json`, …).
fn trace_path() -> Option<PathBuf> {
    let path = PathBuf::from(std::env::var_os("ASCENDC_TRACE").filter(|v| !v.is_empty())?);
    let n = TRACES.fetch_add(1, Ordering::Relaxed);
    if n == 0 {
        return Some(path);
    }
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    let name = match path.extension() {
        Some(ext) => format!("{stem}.{n}.{}", ext.to_string_lossy()),
        None => format!("{stem}.{n}"),
    };
    Some(path.with_file_name(name))
}

/// Runs one block: the C++ trampoline calls the kernel and returns 0, or 1 when the block stopped
/// at a failed call or an exception.
pub type BlockFn = unsafe extern "C" fn(ctx: *mut c_void) -> i32;

/// `$ASCENDC_SCHEDULE` (`order`, `reverse`, `shuffle:SEED`) and `$ASCENDC_SCHEDULE_CHECK` (a
/// number of schedules), as `ascendc run --schedule / --schedule-check` set them.
fn schedule_env() -> Result<(Option<Schedule>, Option<usize>), String> {
    let schedule = match std::env::var("ASCENDC_SCHEDULE") {
        Ok(s) => Some(Schedule::parse(&s).ok_or_else(|| {
            format!("ASCENDC_SCHEDULE={s} is not a schedule (order, reverse, shuffle:SEED)")
        })?),
        Err(_) => None,
    };
    let check = match std::env::var("ASCENDC_SCHEDULE_CHECK") {
        Ok(n) => Some(n.parse().ok().filter(|&n| n >= 2).ok_or_else(|| {
            format!("ASCENDC_SCHEDULE_CHECK={n} is not a number of schedules (2 or more)")
        })?),
        Err(_) => None,
    };
    Ok((schedule, check))
}

/// Runs `block_dim` blocks of a kernel, each calling `block(ctx)` on its own simulated core, in
/// kernel mode `mode` (C++ `KernelMode` order: the mode of a `<<<>>>` launch's `__mix__(cube,
/// vec)`, `__cube__` or `__vector__` kernel; `255`: the mode `SetKernelMode` chose), and prints
/// the launch's diagnostics and errors to stderr (with `$ASCENDC_REPORT` set, also a summary of
/// cores and instructions per pipe). Returns 0 when every block succeeded.
///
/// # Safety
/// `name` must be NUL-terminated; `block` must be safe to call with `ctx` from several threads
/// at once.
#[no_mangle]
pub unsafe extern "C" fn ascendc_launch_with_mode(
    name: *const c_char,
    mode: u8,
    block_dim: u32,
    block: BlockFn,
    ctx: *mut c_void,
    loc: AscLoc,
) -> i32 {
    let name = CStr::from_ptr(name).to_string_lossy();
    let at = loc.source();
    crate::fault::install();
    let (profile, (schedule, check)) =
        match crate::platform::profile().and_then(|p| Ok((p, schedule_env()?))) {
            Ok(p) => p,
            Err(msg) => {
                eprintln!("error: {msg}");
                return 1;
            }
        };
    let ctx = ctx as usize;
    let mut launch = Launch::new(block_dim)
        .profile(profile)
        .kernel_mode(kernel_mode(mode))
        .check_hazards(env_flag("ASCENDC_CHECK"))
        .report(env_flag("ASCENDC_REPORT"));
    if let Some(s) = schedule {
        launch = launch.schedule(s);
    }
    let trace = trace_path();
    if let Some(p) = &trace {
        launch = launch.trace(p);
        eprintln!("kernel `{name}`: writing its timeline to {}", p.display());
    }
    let kernel = || {
        // SAFETY: the caller guarantees `block` may run concurrently with `ctx`.
        if block_scope(|| unsafe { block(ctx as *mut c_void) }) == 0 {
            return Ok(());
        }
        let mut e = take_last_error().unwrap_or_else(|| {
            SimError::new(
                Category::Launch,
                "kernel",
                "the block stopped without an error",
            )
        });
        e.block.get_or_insert(get_block_idx());
        Err(e)
    };
    let mut order_dependent = false;
    let result = match check {
        None => launch.run(kernel),
        Some(n) => {
            let buffers = crate::gm::live_buffers();
            let refs: Vec<&ascendc::GmBuffer> = buffers.iter().collect();
            launch.schedule_check(n, &refs, kernel).map(|c| {
                eprintln!("kernel `{name}`: {c}");
                order_dependent = !c.differences.iter().all(|d| d.summation_order_only);
                c.report
            })
        }
    };
    if order_dependent {
        eprintln!(
            "error: kernel `{name}` launched at {at}: its GM output depends on the block schedule"
        );
        return 1;
    }
    match result {
        Ok(report) if std::env::var_os("ASCENDC_REPORT").is_some() => {
            eprintln!("kernel `{name}`: {report}");
            0
        }
        Ok(report) => {
            for d in report.diagnostics() {
                eprintln!("{d}");
            }
            0
        }
        Err(mut e) => {
            // An exception escaping the kernel has no call site of its own: name the kernel and
            // its launch instead.
            for err in &mut e.errors {
                if err.location.is_some_and(|l| l.line == 0) {
                    err.message = format!("{} (kernel `{name}`)", err.message);
                    err.location = Some(at);
                }
            }
            for d in e.report.diagnostics() {
                eprintln!("{d}");
            }
            eprintln!("error: kernel `{name}` launched at {at} on {profile}: {e}");
            1
        }
    }
}

/// Records a block's failure that did not come from an API call (a C++ exception escaping the
/// kernel); the launch reports it as the block's error.
///
/// # Safety
/// `message` is NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn ascendc_block_error(message: *const c_char, loc: AscLoc) {
    let msg = CStr::from_ptr(message).to_string_lossy().into_owned();
    call(loc, || {
        Err(SimError::new(
            Category::Launch,
            "kernel",
            format!("the kernel threw a C++ exception: {msg}"),
        ))
    });
}
