//! The core a kernel's API calls run on: one per host thread while a block executes, as each
//! Ascend C block runs on its own AI core and calls free functions (`DataCopy`, `Add`, …).

use crate::core::Core;
use crate::error::{Category, Result, SimError, SourceLoc};
use std::cell::Cell;

/// This thread's current core: a pointer to the core `install` boxed (null when none), and
/// whether an API call is running on it. Plain `Cell`s without destructors, so reaching them is
/// one thread-local load on every API call.
struct Slot {
    core: Cell<*mut Core>,
    busy: Cell<bool>,
}

thread_local! {
    static CURRENT: Slot = const {
        Slot {
            core: Cell::new(std::ptr::null_mut()),
            busy: Cell::new(false),
        }
    };
    /// The block of the current core, kept apart from it: a `Cell` of plain data has no
    /// destructor, so it stays readable while the process exits (glibc destroys the calling
    /// thread's other thread-locals before it runs `atexit` handlers) and from signal handlers.
    static BLOCK: Cell<Option<u32>> = const { Cell::new(None) };
}

/// Makes `core` the current core of this thread (replacing and dropping any previous one).
pub(crate) fn install(core: Core) {
    BLOCK.with(|b| b.set(Some(core.block_idx)));
    let old = CURRENT.with(|s| s.core.replace(Box::into_raw(Box::new(core))));
    if !old.is_null() {
        // SAFETY: a non-null slot always holds a pointer from `Box::into_raw` above, owned by
        // the slot; it was just taken out, so nothing else refers to it.
        drop(unsafe { Box::from_raw(old) });
    }
}

/// Removes and returns the current core of this thread.
pub(crate) fn take() -> Option<Core> {
    BLOCK.with(|b| b.set(None));
    let p = CURRENT.with(|s| s.core.replace(std::ptr::null_mut()));
    // SAFETY: as in `install`: the pointer came from `Box::into_raw` and the slot gave it up.
    (!p.is_null()).then(|| *unsafe { Box::from_raw(p) })
}

/// Clears the busy mark when an API call ends, also when it unwinds.
struct Busy<'a>(&'a Cell<bool>);

impl Drop for Busy<'_> {
    fn drop(&mut self) {
        self.0.set(false);
    }
}

/// Runs `f` on the current core if there is one and no API call is running on it already.
#[inline(always)]
fn enter<R>(f: impl FnOnce(Option<&mut Core>) -> R) -> R {
    // Only the slot's address leaves `with`, so that `f` (the whole API call) is inlined into
    // the caller instead of into a `with` that is not, which would pass every result through
    // memory.
    let s: *const Slot = CURRENT.with(|s| s as *const Slot);
    // SAFETY: the slot is this thread's, alive until the thread exits, which cannot happen
    // during this call; it is only used here.
    let s = unsafe { &*s };
    let p = s.core.get();
    if p.is_null() || s.busy.replace(true) {
        return f(None);
    }
    let _busy = Busy(&s.busy);
    // SAFETY: `p` is the live boxed core of this thread (only `take`/`install` on this thread
    // replace it, and they are not API calls); `busy` guarantees this is the only reference to
    // it until `_busy` drops.
    f(Some(unsafe { &mut *p }))
}

/// Runs `f` on the current core. Errors get the block index and source line, and the first one
/// is kept by the core so that the launch fails even if the kernel ignores it.
#[inline(always)]
pub(crate) fn with_core<R>(
    api: &'static str,
    loc: SourceLoc,
    f: impl FnOnce(&mut Core) -> Result<R>,
) -> Result<R> {
    enter(
        #[inline(always)]
        |core| match core {
            None => Err(no_core(api, loc)),
            Some(core) => match f(core) {
                // A CheckLocalMemoryIA exception raised by the call's instructions fails it.
                Ok(r) => match core.ia.take_fault() {
                    None => {
                        if let Some(t) = crate::gm::take_padding_touch() {
                            padding_warning(core, api, loc, t);
                        }
                        Ok(r)
                    }
                    Some(e) => Err(core.fail(e, loc)),
                },
                Err(e) => Err(core.fail(e, loc)),
            },
        },
    )
}

/// Warns (once per API and line) that a call reached a device-sized allocation's padding.
#[cold]
#[inline(never)]
fn padding_warning(core: &mut Core, api: &'static str, loc: SourceLoc, t: crate::gm::PaddingTouch) {
    core.warn_once(
        Category::Memory,
        api,
        "gm padding",
        format!(
            "GM access of {} bytes at byte {} reaches past the {} bytes of its tensor into the padding the device's allocator adds (the allocation holds {} bytes): it runs on the device, but the bytes there are not the tensor's",
            t.len, t.begin, t.valid, t.total
        ),
        loc,
    );
}

#[cold]
#[inline(never)]
fn no_core(api: &'static str, loc: SourceLoc) -> SimError {
    let installed = CURRENT.with(|s| !s.core.get().is_null());
    let msg = if installed {
        "called while another API call is running on this core (an API call from inside an API call)"
    } else {
        "called outside a kernel launch: run the kernel with ascendc::Launch"
    };
    SimError::new(Category::Launch, api, msg).at(loc)
}

/// Runs `f` on the current core if there is one.
pub(crate) fn try_with_core<R>(f: impl FnOnce(&mut Core) -> R) -> Option<R> {
    enter(|core| core.map(f))
}

/// The block the current thread is running, if any, found without waiting or panicking (for
/// fault and exit reports, which may run in a signal handler or while the process exits). `None`
/// outside a kernel.
pub fn running_block() -> Option<u32> {
    BLOCK.try_with(|b| b.get()).ok().flatten()
}
