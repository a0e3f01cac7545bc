//! `GmAlloc` / `GmFree` (and `aclrtMalloc` / `aclrtFree`): GM allocations whose host addresses C++ kernels hold as `GM_ADDR`, and
//! the lookup from such a pointer back to the simulator's bounded [`GmAddr`].

use crate::abi::{call, AscGlobal, AscLoc};
use ascendc::error::{Category, SimError};
use ascendc::{GlobalTensor, GmAddr, GmBuffer};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::ffi::{c_char, CStr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, RwLock};

/// Live allocations by host start address.
static ALLOCS: RwLock<BTreeMap<usize, GmBuffer>> = RwLock::new(BTreeMap::new());

/// Changes of [`ALLOCS`]: a thread's [`RECENT`] entries are valid while this is unchanged.
static ALLOCS_VERSION: AtomicU64 = AtomicU64::new(0);

/// Most allocations a thread remembers.
const RECENT_MAX: usize = 8;

/// Allocations a thread looked up lately: (start, length in bytes, address).
type Recent = Vec<(usize, usize, GmAddr)>;

thread_local! {
    /// The allocations this thread looked up last and the [`ALLOCS_VERSION`] they were read at:
    /// a kernel's calls hit a handful of allocations, so most lookups need neither the lock nor
    /// the tree.
    static RECENT: RefCell<(u64, Recent)> = const { RefCell::new((u64::MAX, Vec::new())) };
}

fn allocs_changed() {
    ALLOCS_VERSION.fetch_add(1, Ordering::Release);
}

/// The GM address of host pointer `p`: inside a live allocation or one past its end.
#[inline]
pub fn lookup(api: &'static str, p: *const u8) -> Result<GmAddr, SimError> {
    lent(api, p, |base, bytes| base.add_bytes(bytes))
}

/// Runs `f` on the address of the live allocation holding host pointer `p` (or ending at it)
/// and the byte offset of `p` in it. The address is this thread's remembered copy, lent for
/// the call, when `p` is in an allocation it looked up lately.
#[inline(always)]
fn lent<R>(
    api: &'static str,
    p: *const u8,
    f: impl FnOnce(&GmAddr, usize) -> R,
) -> Result<R, SimError> {
    let a = p as usize;
    let version = ALLOCS_VERSION.load(Ordering::Acquire);
    // Only the address leaves `with`, so that `f` (the rest of the API call) is inlined here
    // rather than into an out-of-line `with`.
    let recent: *const RefCell<(u64, Recent)> = RECENT.with(|r| r as *const _);
    // SAFETY: the cell is this thread's, alive until the thread exits, which cannot happen
    // during this call.
    let recent = unsafe { &*recent }.borrow();
    if recent.0 == version {
        let found = recent
            .1
            .iter()
            .find(|(start, len, _)| a >= *start && a - start <= *len);
        if let Some((start, _, base)) = found {
            return Ok(f(base, a - start));
        }
    }
    drop(recent);
    let (start, base) = lookup_live(api, p, version)?;
    Ok(f(&base, a - start))
}

/// The start and address of the live allocation holding `p`, from the table of live
/// allocations. It joins the thread's recent ones (which are dropped first when `version` is
/// newer than theirs), unless one of those is lent out at the moment.
#[cold]
#[inline(never)]
fn lookup_live(api: &'static str, p: *const u8, version: u64) -> Result<(usize, GmAddr), SimError> {
    let a = p as usize;
    let allocs = ALLOCS.read().unwrap_or_else(|e| e.into_inner());
    match allocs.range(..=a).next_back() {
        Some((start, buf)) if a - start <= buf.len_bytes() => {
            RECENT.with(|r| {
                let Ok(mut r) = r.try_borrow_mut() else {
                    return;
                };
                if r.0 != version {
                    *r = (version, Vec::new());
                }
                if r.1.len() == RECENT_MAX {
                    r.1.remove(0);
                }
                r.1.push((*start, buf.len_bytes(), buf.addr()));
            });
            Ok((*start, buf.addr()))
        }
        _ => Err(SimError::new(
            Category::Memory,
            api,
            format!("GM pointer {p:p} is not inside a live GM allocation (pass memory from GmAlloc or aclrtMalloc, offset within its bounds)"),
        )),
    }
}

/// Every live `GmAlloc` allocation (what a schedule check restores between runs).
pub fn live_buffers() -> Vec<GmBuffer> {
    let allocs = ALLOCS.read().unwrap_or_else(|e| e.into_inner());
    allocs.values().cloned().collect()
}

/// The simulator's `GlobalTensor<T>` for a C++ one.
#[inline]
pub fn global<T: ascendc::TensorElement>(
    api: &'static str,
    g: &AscGlobal,
) -> Result<GlobalTensor<T>, SimError> {
    with_global(api, g, |t| Ok(t.clone()))
}

/// Runs `f` on the simulator's `GlobalTensor<T>` for the C++ one `g`, lent for the call (no
/// reference on the allocation is taken when this thread looked it up lately).
#[inline(always)]
pub fn with_global<T: ascendc::TensorElement, R>(
    api: &'static str,
    g: &AscGlobal,
    f: impl FnOnce(&GlobalTensor<T>) -> Result<R, SimError>,
) -> Result<R, SimError> {
    // SAFETY: `shape` is null or from `ascendc_shape_intern`.
    let shape = unsafe { g.shape.as_ref() };
    lent(
        api,
        g.ptr,
        #[inline(always)]
        |base, bytes| GlobalTensor::lend(base, bytes, g.size, shape, f),
    )?
}

/// `GmAlloc(size)`: a zero-filled GM allocation of `size` bytes (at least one byte is reserved so
/// that every allocation has its own address), or null with the reason on stderr when the host
/// cannot provide it.
#[no_mangle]
pub extern "C" fn ascendc_gm_alloc(size: u64) -> *mut u8 {
    match try_alloc(size) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: GmAlloc({size}): {e}");
            std::ptr::null_mut()
        }
    }
}

/// A zero-filled GM allocation for `size` bytes sized as the device's allocator sizes it
/// (rounded up to 32 bytes, plus 32), as `ascendc op run` gives an operator's tensors and
/// workspace: accesses reaching the padding are warnings, past it errors. Null with the reason
/// on stderr when the host cannot provide it.
#[no_mangle]
pub extern "C" fn ascendc_gm_alloc_device(size: u64) -> *mut u8 {
    let bytes = usize::try_from(size).unwrap_or(usize::MAX);
    match GmBuffer::try_device_sized(bytes).and_then(register) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: GM allocation of {size} bytes: {e}");
            std::ptr::null_mut()
        }
    }
}

/// A zero-filled GM allocation of `size` bytes (at least one), registered as live.
pub fn try_alloc(size: u64) -> Result<*mut u8, SimError> {
    let bytes = usize::try_from(size).unwrap_or(usize::MAX).max(1);
    register(GmBuffer::try_zeroed(bytes)?)
}

/// Registers `buf` as a live allocation and returns its host address.
fn register(buf: GmBuffer) -> Result<*mut u8, SimError> {
    crate::fault::install();
    let p = buf.host_ptr();
    ALLOCS
        .write()
        .unwrap_or_else(|e| e.into_inner())
        .insert(p as usize, buf);
    allocs_changed();
    Ok(p)
}

/// Releases the allocation starting at `ptr` and returns it; `None` when no live allocation
/// starts there.
pub fn release(ptr: *const u8) -> Option<GmBuffer> {
    let buf = ALLOCS
        .write()
        .unwrap_or_else(|e| e.into_inner())
        .remove(&(ptr as usize));
    allocs_changed();
    buf
}

/// `GmFree(ptr)`: releases an allocation; a pointer that is not the start of a live allocation
/// (double free, offset pointer, foreign memory) is an error.
#[no_mangle]
pub extern "C" fn ascendc_gm_free(ptr: *mut u8, loc: AscLoc) -> i32 {
    call(loc, || {
        match release(ptr) {
            Some(buf) if !buf.slack_intact() => {
                return Err(SimError::new(
                    Category::Memory,
                    "GmFree",
                    format!(
                        "the {} bytes at {ptr:p} were overrun: bytes just before them or past their end were written through a raw pointer",
                        buf.len_bytes()
                    ),
                ))
            }
            Some(_) => return Ok(()),
            None => {}
        }
        Err(SimError::new(
            Category::Memory,
            "GmFree",
            format!("pointer {ptr:p} is not the start of a live GmAlloc allocation (freed twice, or not from GmAlloc)"),
        ))
    })
}

/// Kernel arguments that are not GM (host structs passed by address), by start address: reads
/// through them (`GET_TILING_DATA`) are allowed and not bounds-checked.
static FOREIGN: RwLock<BTreeSet<usize>> = RwLock::new(BTreeSet::new());

/// Call sites and argument positions already warned about.
static WARNED: Mutex<BTreeSet<(String, u32, u32)>> = Mutex::new(BTreeSet::new());

/// The `index`-th (from 1) argument expression in a launch's argument text, split at commas
/// outside brackets.
fn arg_expr(text: &str, index: u32) -> Option<&str> {
    let mut depth = 0i32;
    let mut start = 0;
    let mut n = 1;
    for (i, c) in text.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                if n == index {
                    return Some(text[start..i].trim());
                }
                n += 1;
                start = i + 1;
            }
            _ => {}
        }
    }
    (n == index).then(|| text[start..].trim())
}

/// Checks a pointer argument of `ICPU_RUN_KF` or a `<<<>>>` launch (`index` counts from 1;
/// `arg_text` is the launch's argument source text, or null): null and GM pointers pass silently;
/// any other pointer (host memory passed by address) is accepted with one warning per call site
/// and argument, naming it, since accesses through it are not bounds-checked.
///
/// # Safety
/// `arg_text` is null or NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn ascendc_gm_check_arg(
    ptr: *const u8,
    index: u32,
    arg_text: *const c_char,
    loc: AscLoc,
) -> i32 {
    if ptr.is_null() || lookup("ICPU_RUN_KF", ptr).is_ok() {
        return 0;
    }
    FOREIGN
        .write()
        .unwrap_or_else(|e| e.into_inner())
        .insert(ptr as usize);
    let at = loc.source();
    let key = (at.file.to_string(), at.line, index);
    if WARNED.lock().unwrap_or_else(|e| e.into_inner()).insert(key) {
        let text = if arg_text.is_null() {
            None
        } else {
            // SAFETY: the caller passes a NUL-terminated string.
            Some(CStr::from_ptr(arg_text).to_string_lossy())
        };
        let expr = text
            .as_deref()
            .and_then(|t| arg_expr(t, index))
            .filter(|e| !e.is_empty())
            .map(|e| format!(" `{e}`"))
            .unwrap_or_default();
        eprintln!(
            "warning: {at}: kernel argument {index}{expr} ({ptr:p}) is not GM from GmAlloc/aclrtMalloc: accepted as host memory; accesses through it are not bounds-checked"
        );
    }
    0
}

/// The start of the non-GM kernel argument `p` points into (the nearest at or below it).
fn foreign(p: *const u8) -> Option<usize> {
    let f = FOREIGN.read().unwrap_or_else(|e| e.into_inner());
    f.range(..=p as usize).next_back().copied()
}

/// Copies `len` bytes from GM at `src` into host memory `dst`, checked against the allocation
/// (`GET_TILING_DATA` and friends).
///
/// # Safety
/// `dst` is valid for writes of `len` bytes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_gm_read(
    dst: *mut u8,
    src: *const u8,
    len: u64,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        const API: &str = "GET_TILING_DATA";
        let addr = match lookup(API, src) {
            Ok(a) => a,
            Err(e) => {
                if foreign(src).is_none() {
                    return Err(e);
                }
                // SAFETY: a host argument the program passed by address; not bounds-checked.
                std::ptr::copy_nonoverlapping(src, dst, len as usize);
                return Ok(());
            }
        };
        let end = addr.offset() as u64 + len;
        if end > addr.region_len() as u64 {
            return Err(SimError::new(
                Category::Memory,
                API,
                format!(
                    "reading {len} bytes at byte {} of a {}-byte GM allocation runs past its end",
                    addr.offset(),
                    addr.region_len()
                ),
            ));
        }
        // SAFETY: the range lies inside a live allocation; `dst` is the caller's buffer of `len` bytes.
        std::ptr::copy_nonoverlapping(src, dst, len as usize);
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn here() -> AscLoc {
        AscLoc {
            file: c"gm_test.cpp".as_ptr(),
            line: 7,
            column: 0,
        }
    }

    #[test]
    fn pointers_map_to_bounded_addresses() {
        let p = ascendc_gm_alloc(64);
        // SAFETY: 64-byte allocation; offsets stay within it or one past its end.
        let (mid, end) = unsafe { (p.add(40), p.add(64)) };
        let a = lookup("test", mid).unwrap();
        assert_eq!((a.offset(), a.region_len()), (40, 64));
        assert_eq!(lookup("test", end).unwrap().offset(), 64);
        let e = lookup("test", 8 as *const u8).unwrap_err();
        assert!(e.message.contains("not inside a live GM allocation"), "{e}");
        assert_eq!(ascendc_gm_free(p, here()), 0);
        assert!(lookup("test", mid).is_err());
        assert_eq!(ascendc_gm_free(p, here()), 1);
        let e = crate::abi::take_last_error().unwrap();
        assert_eq!(e.api, "GmFree");
        assert_eq!(e.location.unwrap().to_string(), "gm_test.cpp:7");
        let text = c"a, f(b, c), &tiling".as_ptr();
        // SAFETY: `text` is NUL-terminated.
        unsafe {
            assert_eq!(ascendc_gm_check_arg(std::ptr::null(), 1, text, here()), 0);
        }
        let host = [5u8; 4];
        // SAFETY: `text` is NUL-terminated.
        assert_eq!(
            unsafe { ascendc_gm_check_arg(host.as_ptr(), 3, text, here()) },
            0
        );
        assert_eq!(arg_expr("a, f(b, c), &tiling", 2), Some("f(b, c)"));
        assert_eq!(arg_expr("a, f(b, c), &tiling", 3), Some("&tiling"));
        assert_eq!(arg_expr("a", 2), None);
        let mut out = [0u8; 2];
        // SAFETY: `host` holds 4 bytes, `out` 2.
        assert_eq!(
            unsafe { ascendc_gm_read(out.as_mut_ptr(), host.as_ptr().add(2), 2, here()) },
            0
        );
        assert_eq!(out, [5, 5]);
    }

    #[test]
    fn reads_are_checked_against_the_allocation() {
        let p = ascendc_gm_alloc(8);
        // SAFETY: `p` holds 8 bytes.
        unsafe { p.copy_from([1u8, 2, 3, 4, 5, 6, 7, 8].as_ptr(), 8) };
        let mut out = [0u8; 8];
        // SAFETY: `out` holds 8 bytes.
        assert_eq!(
            unsafe { ascendc_gm_read(out.as_mut_ptr(), p.add(4), 4, here()) },
            0
        );
        assert_eq!(out[..4], [5, 6, 7, 8]);
        assert_eq!(
            unsafe { ascendc_gm_read(out.as_mut_ptr(), p.add(4), 8, here()) },
            1
        );
        let e = crate::abi::take_last_error().unwrap();
        assert!(
            e.message
                .contains("reading 8 bytes at byte 4 of a 8-byte GM allocation"),
            "{e}"
        );
        assert_eq!(ascendc_gm_free(p, here()), 0);
    }
}
