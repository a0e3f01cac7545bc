//! Running the compiled program as a child that never outlives `ascendc`: SIGINT, SIGTERM and
//! SIGHUP sent to `ascendc` (a Ctrl-C, `kill`, `timeout`) are passed on to the program, which is
//! then waited for, so that the caller's temporary directory (with its executable) is removed on
//! the way out.

use std::io;
use std::process::{Child, Command, ExitStatus};
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::{Duration, Instant};

/// The last of SIGINT / SIGTERM / SIGHUP received (0: none).
static RECEIVED: AtomicI32 = AtomicI32::new(0);

extern "C" fn note(sig: libc::c_int) {
    RECEIVED.store(sig, Ordering::SeqCst);
}

/// How the program ended.
pub enum Ended {
    /// It exited (or was killed by a signal nobody sent through `ascendc`).
    Exited(ExitStatus),
    /// `ascendc` received this signal and passed it on; the program has ended.
    Interrupted(i32),
}

/// Runs `cmd` to completion, passing on the termination signals `ascendc` receives meanwhile.
/// With a `limit` (seconds; the program's own watchdog, `ASCENDC_TIMEOUT`, ends it then with
/// its report), a program still running five seconds past it is killed.
pub fn run(cmd: &mut Command, limit: Option<f64>) -> io::Result<Ended> {
    let kill_at = limit.map(|s| Instant::now() + Duration::from_secs_f64(s + 5.0));
    for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        // SAFETY: `note` only stores to an atomic, which is async-signal-safe.
        unsafe {
            libc::signal(
                sig,
                note as extern "C" fn(libc::c_int) as libc::sighandler_t,
            )
        };
    }
    let mut child = cmd.spawn()?;
    loop {
        if let Some(status) = child.try_wait()? {
            let sig = RECEIVED.load(Ordering::SeqCst);
            return Ok(if sig != 0 {
                Ended::Interrupted(sig)
            } else {
                Ended::Exited(status)
            });
        }
        let sig = RECEIVED.load(Ordering::SeqCst);
        if sig != 0 {
            stop(&mut child, sig)?;
            return Ok(Ended::Interrupted(sig));
        }
        if kill_at.is_some_and(|t| Instant::now() >= t) {
            eprintln!(
                "error: the program did not end at its --timeout (its watchdog never ran: no kernel launch, or it is stuck before one); killed"
            );
            child.kill()?;
            return child.wait().map(Ended::Exited);
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Passes `sig` on to the child, then kills it if it has not ended within two seconds.
fn stop(child: &mut Child, sig: i32) -> io::Result<()> {
    // SAFETY: kill(2) on the pid of a child not yet waited for (it cannot have been reused).
    unsafe { libc::kill(child.id() as libc::pid_t, sig) };
    let until = Instant::now() + Duration::from_secs(2);
    while Instant::now() < until {
        if child.try_wait()?.is_some() {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill()?;
    child.wait().map(|_| ())
}
