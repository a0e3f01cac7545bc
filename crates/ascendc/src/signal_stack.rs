//! An alternate signal stack for each thread that runs blocks, so that a fault handler (the C
//! ABI's, which reports faults of native kernel code with the block) still runs when a kernel
//! overflows its stack: a handler cannot run on the stack that overflowed. Installed once per
//! thread, removed when the thread ends; a thread that already has one keeps it.

use std::cell::RefCell;

/// Bytes of each alternate stack.
const SIZE: usize = 64 * 1024;

/// A mapping installed as this thread's alternate signal stack.
struct AltStack {
    base: *mut libc::c_void,
}

impl Drop for AltStack {
    fn drop(&mut self) {
        // SAFETY: disables this thread's alternate stack (ours) before unmapping its memory.
        unsafe {
            let off = libc::stack_t {
                ss_sp: std::ptr::null_mut(),
                ss_flags: libc::SS_DISABLE,
                ss_size: SIZE,
            };
            libc::sigaltstack(&off, std::ptr::null_mut());
            libc::munmap(self.base, SIZE);
        }
    }
}

thread_local! {
    static STACK: RefCell<Option<AltStack>> = const { RefCell::new(None) };
}

/// Gives the calling thread an alternate signal stack unless it has one.
pub(crate) fn ensure() {
    let _ = STACK.try_with(|s| {
        if s.borrow().is_some() {
            return;
        }
        // SAFETY: queries and sets this thread's alternate stack with valid structures; the
        // mapping lives until the thread-local is dropped at thread exit.
        unsafe {
            let mut old: libc::stack_t = std::mem::zeroed();
            if libc::sigaltstack(std::ptr::null(), &mut old) != 0
                || old.ss_flags & libc::SS_DISABLE == 0
            {
                return;
            }
            let base = libc::mmap(
                std::ptr::null_mut(),
                SIZE,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            );
            if base == libc::MAP_FAILED {
                return;
            }
            let new = libc::stack_t {
                ss_sp: base,
                ss_flags: 0,
                ss_size: SIZE,
            };
            if libc::sigaltstack(&new, std::ptr::null_mut()) != 0 {
                libc::munmap(base, SIZE);
                return;
            }
            *s.borrow_mut() = Some(AltStack { base });
        }
    });
}
