//! The core a kernel's API calls run on: one per host thread while a block executes, as each
//! Ascend C block runs on its own AI core and calls free functions (`DataCopy`, `Add`, …).

use crate::core::Core;
use crate::error::{Category, Result, SimError, SourceLoc};
use std::cell::{Cell, RefCell};

thread_local! {
    static CURRENT: RefCell<Option<Core>> = const { RefCell::new(None) };
    /// The block of the current core, kept apart from it: a `Cell` of plain data has no
    /// destructor, so it stays readable while the process exits (glibc destroys the calling
    /// thread's other thread-locals before it runs `atexit` handlers) and from signal handlers.
    static BLOCK: Cell<Option<u32>> = const { Cell::new(None) };
}

/// Makes `core` the current core of this thread.
pub(crate) fn install(core: Core) {
    BLOCK.with(|b| b.set(Some(core.block_idx)));
    CURRENT.with(|c| *c.borrow_mut() = Some(core));
}

/// Removes and returns the current core of this thread.
pub(crate) fn take() -> Option<Core> {
    BLOCK.with(|b| b.set(None));
    CURRENT.with(|c| c.borrow_mut().take())
}

/// Runs `f` on the current core. Errors get the block index and source line, and the first one
/// is kept by the core so that the launch fails even if the kernel ignores it.
pub(crate) fn with_core<R>(
    api: &'static str,
    loc: SourceLoc,
    f: impl FnOnce(&mut Core) -> Result<R>,
) -> Result<R> {
    CURRENT.with(|c| {
        let mut guard = c.borrow_mut();
        match guard.as_mut() {
            None => Err(SimError::new(
                Category::Launch,
                api,
                "called outside a kernel launch: run the kernel with ascendc::Launch",
            )
            .at(loc)),
            Some(core) => match f(core) {
                // A CheckLocalMemoryIA exception raised by the call's instructions fails it.
                Ok(r) => match core.ia.take_fault() {
                    None => Ok(r),
                    Some(e) => Err(core.fail(e, loc)),
                },
                Err(e) => Err(core.fail(e, loc)),
            },
        }
    })
}

/// Runs `f` on the current core if there is one.
pub(crate) fn try_with_core<R>(f: impl FnOnce(&mut Core) -> R) -> Option<R> {
    CURRENT.with(|c| c.borrow_mut().as_mut().map(f))
}

/// The block the current thread is running, if any, found without waiting or panicking (for
/// fault and exit reports, which may run in a signal handler or while the process exits). `None`
/// outside a kernel.
pub fn running_block() -> Option<u32> {
    BLOCK.try_with(|b| b.get()).ok().flatten()
}
