//! Faults native kernel code causes outside the simulator's checks: a raw access that runs into
//! the guard page after a GM allocation (SIGSEGV/SIGBUS), a stack overflow, an arithmetic fault
//! (SIGFPE: an integer division by zero), an illegal instruction, `abort()` (a failed `assert`,
//! `std::terminate`) and `exit()` called inside a kernel. Each is reported with the block and,
//! for the guard page, the allocation; the process then ends with status 1 (after a real fault
//! it cannot go on). The handlers run on the alternate stack the launch gives each thread that
//! runs blocks. `abort()` outside a kernel keeps its usual effect.

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
            sa.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
            libc::sigemptyset(&mut sa.sa_mask);
            for sig in [
                libc::SIGSEGV,
                libc::SIGBUS,
                libc::SIGFPE,
                libc::SIGILL,
                libc::SIGABRT,
            ] {
                libc::sigaction(sig, &sa, std::ptr::null_mut());
            }
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

/// The stack pointer of the interrupted code, where the platform's context layout is known.
fn stack_pointer(ctx: *mut libc::c_void) -> Option<usize> {
    // SAFETY: `ctx` is the ucontext_t the kernel passes to SA_SIGINFO handlers.
    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    return Some(unsafe {
        (*(ctx as *const libc::ucontext_t)).uc_mcontext.gregs[libc::REG_RSP as usize]
    } as usize);
    // SAFETY: as above.
    #[cfg(all(target_os = "linux", target_arch = "aarch64"))]
    return Some(unsafe { (*(ctx as *const libc::ucontext_t)).uc_mcontext.sp } as usize);
    #[allow(unreachable_code)]
    {
        let _ = ctx;
        None
    }
}

extern "C" fn on_fault(sig: libc::c_int, info: *mut libc::siginfo_t, ctx: *mut libc::c_void) {
    use std::fmt::Write;
    let block = ascendc::running_block();
    if sig == libc::SIGABRT && block.is_none() {
        // Host code: the usual abort (status 134, a core dump where enabled).
        // SAFETY: restores the default action and raises the signal again.
        unsafe {
            libc::signal(libc::SIGABRT, libc::SIG_DFL);
            libc::raise(libc::SIGABRT);
        }
        return;
    }
    // SAFETY: the kernel passes a valid siginfo for SA_SIGINFO handlers.
    let addr = unsafe { (*info).si_addr() } as usize;
    let mut b = Buf {
        bytes: [0; 512],
        len: 0,
    };
    let _ = match block {
        Some(n) => write!(b, "error: block {n}: "),
        None => write!(b, "error: "),
    };
    let near_stack = stack_pointer(ctx).is_some_and(|sp| {
        addr <= sp.saturating_add(64 << 10) && addr >= sp.saturating_sub(1 << 20)
    });
    let _ = match sig {
        libc::SIGFPE => writeln!(
            b,
            "arithmetic fault (SIGFPE) at {addr:#x}: an integer division by zero or overflow in native code"
        ),
        libc::SIGILL => writeln!(b, "illegal instruction (SIGILL) at {addr:#x} in native code"),
        libc::SIGABRT => writeln!(
            b,
            "the kernel called abort() (a failed assert, std::terminate or an uncaught exception)"
        ),
        _ if near_stack => writeln!(
            b,
            "stack overflow (a fault at {addr:#x}, next to the stack pointer): deep recursion or large local arrays in the kernel"
        ),
        _ => Ok(()),
    };
    if matches!(sig, libc::SIGSEGV | libc::SIGBUS) && !near_stack {
        write_memory_fault(&mut b, sig, addr);
    }
    say(&b.bytes[..b.len]);
    // SAFETY: ends the process without running handlers that might touch the broken state.
    unsafe { libc::_exit(1) };
}

/// The report of a memory fault: a GM guard page, or any other address.
fn write_memory_fault(b: &mut Buf, sig: libc::c_int, addr: usize) {
    use std::fmt::Write;
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
