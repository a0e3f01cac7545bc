//! Faults native kernel code causes outside the simulator's checks: a raw access that runs into
//! the guard page after a GM allocation (SIGSEGV/SIGBUS), and `exit()` called inside a kernel.
//! Both are reported with the block and, for the guard page, the allocation; the process then
//! ends with status 1 (after a real memory fault it cannot go on).

use std::sync::Once;

static INSTALL: Once = Once::new();

/// Installs the fault reporters once per process.
pub fn install() {
    INSTALL.call_once(|| {
        // SAFETY: `on_fault` only calls async-signal-safe functions (write, _exit) and lock-free
        // lookups; `on_exit` is a plain C callback.
        unsafe {
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = on_fault as *const () as usize;
            sa.sa_flags = libc::SA_SIGINFO;
            libc::sigemptyset(&mut sa.sa_mask);
            libc::sigaction(libc::SIGSEGV, &sa, std::ptr::null_mut());
            libc::sigaction(libc::SIGBUS, &sa, std::ptr::null_mut());
            libc::atexit(on_exit);
        }
    });
}

/// Writes `msg` to stderr without allocating.
fn say(msg: &[u8]) {
    // SAFETY: writes a valid buffer to fd 2.
    unsafe { libc::write(2, msg.as_ptr() as *const libc::c_void, msg.len()) };
}

/// A fixed buffer to format into without allocating.
struct Buf {
    bytes: [u8; 512],
    len: usize,
}

impl std::fmt::Write for Buf {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let n = s.len().min(self.bytes.len() - self.len);
        self.bytes[self.len..self.len + n].copy_from_slice(&s.as_bytes()[..n]);
        self.len += n;
        Ok(())
    }
}

extern "C" fn on_fault(sig: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
    use std::fmt::Write;
    // SAFETY: the kernel passes a valid siginfo for SA_SIGINFO handlers.
    let addr = unsafe { (*info).si_addr() } as usize;
    let mut b = Buf {
        bytes: [0; 512],
        len: 0,
    };
    let block = ascendc::running_block();
    let _ = match block {
        Some(n) => write!(b, "error: block {n}: "),
        None => write!(b, "error: "),
    };
    let _ = match ascendc::gm::guarded::owner_of_guard(addr) {
        Some((id, start, len)) => writeln!(
            b,
            "a raw access at {addr:#x} runs {} bytes past the end of GM allocation #{id} ({len} bytes at {start:#x}): \
             the kernel used a pointer past its data (accesses through GM pointers are not checked; use GlobalTensor)",
            addr - (start + len)
        ),
        None => writeln!(
            b,
            "memory fault (signal {sig}) at {addr:#x}: a raw pointer in native code points outside any memory"
        ),
    };
    say(&b.bytes[..b.len]);
    // SAFETY: ends the process without running handlers that might touch the broken state.
    unsafe { libc::_exit(1) };
}

/// `exit()` while a block runs on this thread: the launch cannot finish, so say which block
/// stopped it and end with a failure status whatever status `exit` was given.
extern "C" fn on_exit() {
    if let Some(n) = ascendc::running_block() {
        use std::fmt::Write;
        let mut b = Buf {
            bytes: [0; 512],
            len: 0,
        };
        let _ = writeln!(
            b,
            "error: block {n}: the kernel called exit(): the process ends with the launch unfinished (return from the kernel instead)"
        );
        say(&b.bytes[..b.len]);
        // SAFETY: ends the process at once with a failure status; the launch cannot finish.
        unsafe { libc::_exit(1) };
    }
}
