//! Objects behind the opaque handles of the acl runtime (programs, binaries, functions, events):
//! each object gets a fresh handle, never reused and distinct across tables, so a destroyed,
//! made-up or other-kind handle is recognised instead of being used.

use std::collections::BTreeMap;
use std::ffi::c_void;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The next handle value of any table (16-byte steps from a non-null base, so handles look like
/// pointers and never collide).
static NEXT: AtomicUsize = AtomicUsize::new(0x5c00_0000);

/// A table of live objects by handle.
pub struct Handles<T>(Mutex<BTreeMap<usize, T>>);

impl<T> Handles<T> {
    pub const fn new() -> Self {
        Handles(Mutex::new(BTreeMap::new()))
    }

    fn map(&self) -> std::sync::MutexGuard<'_, BTreeMap<usize, T>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Adds `v` under a fresh handle.
    pub fn insert(&self, v: T) -> *mut c_void {
        let h = NEXT.fetch_add(16, Ordering::Relaxed);
        self.map().insert(h, v);
        h as *mut c_void
    }

    /// Runs `f` on the object of `h`; `None` when `h` is not live in this table.
    pub fn with<R>(&self, h: *const c_void, f: impl FnOnce(&mut T) -> R) -> Option<R> {
        self.map().get_mut(&(h as usize)).map(f)
    }

    /// Takes the object of `h` out of the table.
    pub fn remove(&self, h: *const c_void) -> Option<T> {
        self.map().remove(&(h as usize))
    }
}

impl<T> Default for Handles<T> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_are_fresh_and_per_table() {
        let a: Handles<u32> = Handles::new();
        let b: Handles<u32> = Handles::new();
        let h = a.insert(7);
        let g = b.insert(8);
        assert_ne!(h, g);
        assert_eq!(a.with(g, |v| *v), None);
        assert_eq!(a.with(h, |v| *v), Some(7));
        assert_eq!(a.remove(h), Some(7));
        assert_eq!(a.with(h, |v| *v), None);
        assert_ne!(a.insert(9), h);
    }
}
