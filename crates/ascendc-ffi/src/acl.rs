//! The acl runtime subset host programs use, exported under the names `include/acl/acl.h` and
//! `acl/acl_rt.h` declare: initialisation, one device (0), contexts and streams as handles, device
//! memory as simulator GM with exact bounds (the same allocations as `GmAlloc`), host memory,
//! checked copies and memsets, `aclFloat16` conversions. Events are in `acl_event`, kernel
//! binaries and launches in `acl_kernel`.
//!
//! Work on a stream runs when it is issued (launches are synchronous), so the `…Async` calls are
//! done when they return and the synchronisation calls only check their handles.
//!
//! A call returns an acl error code; a failing call also records a message that
//! `aclGetRecentErrMsg` returns, and prints it to stderr. Misuse is an error code, never a crash.
#![allow(non_snake_case)]

use crate::gm;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::ffi::{c_char, c_void, CString};
use std::sync::Mutex;

/// `ACL_SUCCESS`.
pub const ACL_SUCCESS: i32 = 0;
/// `ACL_ERROR_INVALID_PARAM`: a parameter failed validation.
pub const ACL_ERROR_INVALID_PARAM: i32 = 100_000;
/// `ACL_ERROR_REPEAT_INITIALIZE`: `aclInit` twice.
pub const ACL_ERROR_REPEAT_INITIALIZE: i32 = 100_002;
/// `ACL_ERROR_REPEAT_FINALIZE`: `aclFinalize` twice.
pub const ACL_ERROR_REPEAT_FINALIZE: i32 = 100_037;
/// `ACL_ERROR_BAD_ALLOC`: the memory cannot be allocated.
pub const ACL_ERROR_BAD_ALLOC: i32 = 200_000;
/// `ACL_ERROR_INVALID_DEVICE`: a device id other than 0 (the simulator has one device).
pub const ACL_ERROR_INVALID_DEVICE: i32 = 200_002;
/// `ACL_ERROR_INVALID_RESOURCE_HANDLE`: a context or stream that is not live.
pub const ACL_ERROR_INVALID_RESOURCE_HANDLE: i32 = 200_005;
/// `ACL_ERROR_RT_CONTEXT_NULL`: no device set on the calling thread.
pub const ACL_ERROR_RT_CONTEXT_NULL: i32 = 107_002;
/// `ACL_ERROR_RT_FEATURE_NOT_SUPPORT`.
pub const ACL_ERROR_RT_FEATURE_NOT_SUPPORT: i32 = 207_000;

/// Number of simulated devices.
pub const DEVICE_COUNT: u32 = 1;

/// `aclrtMemcpyKind` names, by value.
pub(crate) const KIND_NAMES: [&str; 8] = [
    "ACL_MEMCPY_HOST_TO_HOST",
    "ACL_MEMCPY_HOST_TO_DEVICE",
    "ACL_MEMCPY_DEVICE_TO_HOST",
    "ACL_MEMCPY_DEVICE_TO_DEVICE",
    "ACL_MEMCPY_DEFAULT",
    "ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE",
    "ACL_MEMCPY_INNER_DEVICE_TO_DEVICE",
    "ACL_MEMCPY_INTER_DEVICE_TO_DEVICE",
];

/// Where a memcpy kind requires (source, destination) to be: `Some(true)` device memory,
/// `Some(false)` host memory, `None` either (`ACL_MEMCPY_DEFAULT`).
fn kind_sides(kind: u32) -> Option<(Option<bool>, Option<bool>)> {
    Some(match kind {
        0 => (Some(false), Some(false)),
        1 | 5 => (Some(false), Some(true)),
        2 => (Some(true), Some(false)),
        3 | 6 | 7 => (Some(true), Some(true)),
        4 => (None, None),
        _ => return None,
    })
}

/// Initialisation state: never initialised, initialised, finalised.
#[derive(Default, Clone, Copy, PartialEq)]
enum Init {
    #[default]
    Never,
    Live,
    Finalized,
}

#[derive(Default)]
struct Runtime {
    init: Init,
    /// Live context and stream handles (addresses of their boxes).
    contexts: BTreeMap<usize, Box<u64>>,
    streams: BTreeMap<usize, Box<u64>>,
    /// `aclrtMallocHost` allocations by start address: 64-byte aligned storage and size in bytes.
    host: BTreeMap<usize, (Vec<Align64>, usize)>,
}

/// One 64-byte aligned block of host memory.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Align64([u8; 64]);

static RUNTIME: Mutex<Option<Runtime>> = Mutex::new(None);

fn with_runtime<R>(f: impl FnOnce(&mut Runtime) -> R) -> R {
    let mut guard = RUNTIME.lock().unwrap_or_else(|e| e.into_inner());
    f(guard.get_or_insert_with(Runtime::default))
}

thread_local! {
    static RECENT: RefCell<Option<CString>> = const { RefCell::new(None) };
    static RETURNED: RefCell<Option<CString>> = const { RefCell::new(None) };
    /// The device `aclrtSetDevice` / `aclrtCreateContext` made current on this thread.
    static CURRENT_DEVICE: std::cell::Cell<Option<i32>> = const { std::cell::Cell::new(None) };
}

/// Records a failed call's message for `aclGetRecentErrMsg`, prints it, returns `code`.
pub(crate) fn fail(code: i32, api: &str, msg: String) -> i32 {
    let text = format!("{api}: {msg} (acl error {code})");
    eprintln!("error: {text}");
    RECENT.with(|r| *r.borrow_mut() = CString::new(text).ok());
    code
}

/// `aclGetRecentErrMsg()`: the most recent failed acl call's message on this thread, then
/// cleared; null when there is none. The text stays valid until the next call on this thread.
#[no_mangle]
pub extern "C" fn aclGetRecentErrMsg() -> *const c_char {
    let msg = RECENT.with(|r| r.borrow_mut().take());
    RETURNED.with(|r| {
        let mut r = r.borrow_mut();
        *r = msg;
        r.as_ref().map_or(std::ptr::null(), |c| c.as_ptr())
    })
}

/// `aclInit(configPath)`: once (again only after `aclFinalize`); the configuration file is not read.
#[no_mangle]
pub extern "C" fn aclInit(_config_path: *const c_char) -> i32 {
    let before = with_runtime(|rt| std::mem::replace(&mut rt.init, Init::Live));
    if before == Init::Live {
        return fail(
            ACL_ERROR_REPEAT_INITIALIZE,
            "aclInit",
            "acl is already initialized (call aclFinalize first)".into(),
        );
    }
    ACL_SUCCESS
}

/// `aclFinalize()`: releases what `aclInit` set up. Without an `aclInit` before it there is
/// nothing to release and it succeeds quietly, as the vendor's runtime does (its CPU-debug
/// domain stubs both calls); only a repeated `aclFinalize` is an error.
#[no_mangle]
pub extern "C" fn aclFinalize() -> i32 {
    let before = with_runtime(|rt| std::mem::replace(&mut rt.init, Init::Finalized));
    match before {
        Init::Live | Init::Never => ACL_SUCCESS,
        Init::Finalized => fail(
            ACL_ERROR_REPEAT_FINALIZE,
            "aclFinalize",
            "acl is already finalized".into(),
        ),
    }
}

fn check_device(api: &str, device: i32) -> i32 {
    if (0..DEVICE_COUNT as i32).contains(&device) {
        return ACL_SUCCESS;
    }
    fail(
        ACL_ERROR_INVALID_DEVICE,
        api,
        format!("device id {device} does not exist (the simulator has {DEVICE_COUNT} device: 0)"),
    )
}

/// `aclrtSetDevice(deviceId)`: device 0, current on this thread from now on.
#[no_mangle]
pub extern "C" fn aclrtSetDevice(device: i32) -> i32 {
    let r = check_device("aclrtSetDevice", device);
    if r == ACL_SUCCESS {
        CURRENT_DEVICE.with(|c| c.set(Some(device)));
    }
    r
}

/// `aclrtResetDevice(deviceId)`: device 0; no longer current on this thread.
#[no_mangle]
pub extern "C" fn aclrtResetDevice(device: i32) -> i32 {
    let r = check_device("aclrtResetDevice", device);
    if r == ACL_SUCCESS {
        CURRENT_DEVICE.with(|c| c.set(None));
    }
    r
}

/// `aclrtGetDevice(deviceId)`: the device current on this thread (`aclrtSetDevice`,
/// `aclrtCreateContext`).
///
/// # Safety
/// `device` is null or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn aclrtGetDevice(device: *mut i32) -> i32 {
    const API: &str = "aclrtGetDevice";
    if device.is_null() {
        return fail(
            ACL_ERROR_INVALID_PARAM,
            API,
            "deviceId is a null pointer".into(),
        );
    }
    match CURRENT_DEVICE.with(|c| c.get()) {
        Some(d) => {
            *device = d;
            ACL_SUCCESS
        }
        None => fail(
            ACL_ERROR_RT_CONTEXT_NULL,
            API,
            "no device is current on this thread (call aclrtSetDevice first)".into(),
        ),
    }
}

/// `aclrtGetDeviceCount(count)`: 1.
///
/// # Safety
/// `count` is null or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn aclrtGetDeviceCount(count: *mut u32) -> i32 {
    if count.is_null() {
        return fail(
            ACL_ERROR_INVALID_PARAM,
            "aclrtGetDeviceCount",
            "count is a null pointer".into(),
        );
    }
    *count = DEVICE_COUNT;
    ACL_SUCCESS
}

/// Which handle table a call uses.
#[derive(Clone, Copy)]
enum Handle {
    Context,
    Stream,
}

fn table(rt: &mut Runtime, h: Handle) -> &mut BTreeMap<usize, Box<u64>> {
    match h {
        Handle::Context => &mut rt.contexts,
        Handle::Stream => &mut rt.streams,
    }
}

/// # Safety
/// `out` is null or valid for a write.
unsafe fn create(api: &str, h: Handle, out: *mut *mut c_void) -> i32 {
    if out.is_null() {
        return fail(
            ACL_ERROR_INVALID_PARAM,
            api,
            "the output pointer is null".into(),
        );
    }
    let b = Box::new(0u64);
    let key = &*b as *const u64 as usize;
    with_runtime(|rt| table(rt, h).insert(key, b));
    *out = key as *mut c_void;
    ACL_SUCCESS
}

fn destroy(api: &str, h: Handle, handle: *mut c_void) -> i32 {
    if with_runtime(|rt| table(rt, h).remove(&(handle as usize)).is_some()) {
        return ACL_SUCCESS;
    }
    let what = match h {
        Handle::Context => "context",
        Handle::Stream => "stream",
    };
    fail(
        ACL_ERROR_INVALID_RESOURCE_HANDLE,
        api,
        format!("{handle:p} is not a live {what} (destroyed twice, or never created)"),
    )
}

/// `aclrtCreateContext(context, deviceId)`.
///
/// # Safety
/// `context` is null or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn aclrtCreateContext(context: *mut *mut c_void, device: i32) -> i32 {
    match check_device("aclrtCreateContext", device) {
        ACL_SUCCESS => {
            CURRENT_DEVICE.with(|c| c.set(Some(device)));
            create("aclrtCreateContext", Handle::Context, context)
        }
        e => e,
    }
}

/// `aclrtDestroyContext(context)`: a live context.
#[no_mangle]
pub extern "C" fn aclrtDestroyContext(context: *mut c_void) -> i32 {
    destroy("aclrtDestroyContext", Handle::Context, context)
}

/// `aclrtCreateStream(stream)`.
///
/// # Safety
/// `stream` is null or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn aclrtCreateStream(stream: *mut *mut c_void) -> i32 {
    create("aclrtCreateStream", Handle::Stream, stream)
}

/// `aclrtDestroyStream(stream)`: a live stream.
#[no_mangle]
pub extern "C" fn aclrtDestroyStream(stream: *mut c_void) -> i32 {
    destroy("aclrtDestroyStream", Handle::Stream, stream)
}

/// Checks that `stream` is null (the default stream) or live.
pub(crate) fn check_stream(api: &str, stream: *mut c_void) -> i32 {
    let key = stream as usize;
    if stream.is_null() || with_runtime(|rt| rt.streams.contains_key(&key)) {
        return ACL_SUCCESS;
    }
    fail(
        ACL_ERROR_INVALID_RESOURCE_HANDLE,
        api,
        format!("{stream:p} is not a live stream (destroyed, or never created)"),
    )
}

/// Checks a synchronisation timeout: -1 (wait as long as it takes), 0 (check) or milliseconds.
pub(crate) fn check_timeout(api: &str, timeout: i32) -> i32 {
    if timeout >= -1 {
        return ACL_SUCCESS;
    }
    fail(
        ACL_ERROR_INVALID_PARAM,
        api,
        format!(
            "timeout {timeout} ms is not -1 (no limit), 0 or a positive number of milliseconds"
        ),
    )
}

/// `aclrtSynchronizeStream(stream)`: launches run to completion when issued, so this only checks
/// the stream (null, the default stream, or a live one).
#[no_mangle]
pub extern "C" fn aclrtSynchronizeStream(stream: *mut c_void) -> i32 {
    const API: &str = "aclrtSynchronizeStream";
    match check_stream(API, stream) {
        ACL_SUCCESS => crate::acl_graph::check_not_capturing(API, stream),
        e => e,
    }
}

/// `aclrtSynchronizeStreamWithTimeout(stream, timeout)`: as `aclrtSynchronizeStream` (nothing is
/// left to wait for, so no timeout expires); the timeout is checked.
#[no_mangle]
pub extern "C" fn aclrtSynchronizeStreamWithTimeout(stream: *mut c_void, timeout: i32) -> i32 {
    const API: &str = "aclrtSynchronizeStreamWithTimeout";
    match check_timeout(API, timeout) {
        ACL_SUCCESS => check_stream(API, stream),
        e => e,
    }
}

/// `aclrtSynchronizeDevice()`: every launch has finished when it returned, so nothing is left
/// to wait for.
#[no_mangle]
pub extern "C" fn aclrtSynchronizeDevice() -> i32 {
    ACL_SUCCESS
}

/// `aclrtSynchronizeDeviceWithTimeout(timeout)`: as `aclrtSynchronizeDevice`; the timeout is
/// checked.
#[no_mangle]
pub extern "C" fn aclrtSynchronizeDeviceWithTimeout(timeout: i32) -> i32 {
    check_timeout("aclrtSynchronizeDeviceWithTimeout", timeout)
}

/// `aclrtMalloc(devPtr, size, policy)`: `size` bytes of zero-filled simulator GM, bounded exactly.
///
/// # Safety
/// `dev` is null or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn aclrtMalloc(dev: *mut *mut c_void, size: usize, _policy: u32) -> i32 {
    if dev.is_null() || size == 0 {
        let msg = if dev.is_null() {
            "devPtr is a null pointer"
        } else {
            "size is 0 bytes (must be at least 1)"
        };
        return fail(ACL_ERROR_INVALID_PARAM, "aclrtMalloc", msg.into());
    }
    match gm::try_alloc(size as u64) {
        Ok(p) => {
            *dev = p as *mut c_void;
            ACL_SUCCESS
        }
        Err(e) => fail(ACL_ERROR_BAD_ALLOC, "aclrtMalloc", e.to_string()),
    }
}

/// `aclrtFree(devPtr)`: the start of a live `aclrtMalloc` (or `GmAlloc`) allocation.
#[no_mangle]
pub extern "C" fn aclrtFree(dev: *mut c_void) -> i32 {
    if gm::release(dev as *const u8).is_some() {
        return ACL_SUCCESS;
    }
    fail(
        ACL_ERROR_INVALID_PARAM,
        "aclrtFree",
        format!("{dev:p} is not the start of a live aclrtMalloc allocation (freed twice, offset, or host memory)"),
    )
}

/// `aclrtMallocHost(hostPtr, size)`: `size` bytes of zero-filled, 64-byte aligned host memory.
///
/// # Safety
/// `host` is null or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn aclrtMallocHost(host: *mut *mut c_void, size: usize) -> i32 {
    if host.is_null() || size == 0 {
        let msg = if host.is_null() {
            "hostPtr is a null pointer"
        } else {
            "size is 0 bytes (must be at least 1)"
        };
        return fail(ACL_ERROR_INVALID_PARAM, "aclrtMallocHost", msg.into());
    }
    let mut buf = vec![Align64([0; 64]); size.div_ceil(64)];
    let p = buf.as_mut_ptr() as *mut c_void;
    with_runtime(|rt| rt.host.insert(p as usize, (buf, size)));
    *host = p;
    ACL_SUCCESS
}

/// `aclrtFreeHost(hostPtr)`: the start of a live `aclrtMallocHost` allocation.
#[no_mangle]
pub extern "C" fn aclrtFreeHost(host: *mut c_void) -> i32 {
    if with_runtime(|rt| rt.host.remove(&(host as usize)).is_some()) {
        return ACL_SUCCESS;
    }
    fail(
        ACL_ERROR_INVALID_PARAM,
        "aclrtFreeHost",
        format!("{host:p} is not the start of a live aclrtMallocHost allocation (freed twice, offset, or not from aclrtMallocHost)"),
    )
}

/// What the runtime knows of a pointer, with the bytes from it to the end of its allocation.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Memory {
    Device(usize),
    Host(usize),
    /// Host memory the runtime did not allocate (stack, `malloc`, `new`): not bounds-checked.
    Foreign,
}

fn classify(p: *const u8) -> Memory {
    if let Ok(a) = gm::lookup("acl", p) {
        return Memory::Device(a.region_len() - a.offset());
    }
    let a = p as usize;
    with_runtime(|rt| match rt.host.range(..=a).next_back() {
        Some((start, (_, len))) if a - start <= *len => Memory::Host(len - (a - start)),
        _ => Memory::Foreign,
    })
}

fn describe(m: Memory) -> &'static str {
    match m {
        Memory::Device(_) => "device memory",
        Memory::Host(_) | Memory::Foreign => "host memory",
    }
}

/// Checks that `count` bytes fit from `p` to the end of its allocation.
fn check_room(side: &str, p: *const u8, m: Memory, count: usize) -> Result<(), String> {
    let room = match m {
        Memory::Device(r) | Memory::Host(r) => r,
        Memory::Foreign => return Ok(()),
    };
    if count > room {
        return Err(format!(
            "{count} bytes run past the end of the {side} {} at {p:p} ({room} bytes from there to the end of its allocation)",
            describe(m)
        ));
    }
    Ok(())
}

/// `aclrtMemcpy(dst, destMax, src, count, kind)`: `count` bytes; `count` at most `destMax`, the
/// pointers on the sides `kind` names, both ranges inside their allocations.
///
/// # Safety
/// Host pointers the runtime did not allocate must be valid for `count` bytes.
#[no_mangle]
pub unsafe extern "C" fn aclrtMemcpy(
    dst: *mut c_void,
    dest_max: usize,
    src: *const c_void,
    count: usize,
    kind: u32,
) -> i32 {
    copy("aclrtMemcpy", dst, dest_max, src, count, kind, true)
}

/// `aclrtMemcpyAsync(dst, destMax, src, count, kind, stream)`: as `aclrtMemcpy`, done when it
/// returns; the stream is checked, and a host-to-host copy is refused as on the device
/// (`ACL_ERROR_RT_FEATURE_NOT_SUPPORT`).
///
/// # Safety
/// As [`aclrtMemcpy`].
#[no_mangle]
pub unsafe extern "C" fn aclrtMemcpyAsync(
    dst: *mut c_void,
    dest_max: usize,
    src: *const c_void,
    count: usize,
    kind: u32,
    stream: *mut c_void,
) -> i32 {
    const API: &str = "aclrtMemcpyAsync";
    if kind == 0 {
        return fail(
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            API,
            "ACL_MEMCPY_HOST_TO_HOST is not an asynchronous copy (use aclrtMemcpy or memcpy)"
                .into(),
        );
    }
    match check_stream(API, stream) {
        ACL_SUCCESS => {
            let task = crate::acl_graph::Task::Memcpy {
                dst: dst as usize,
                dest_max,
                src: src as usize,
                count,
                kind,
            };
            match copy(API, dst, dest_max, src, count, kind, false) {
                ACL_SUCCESS if !crate::acl_graph::captured(stream, task) => {
                    copy(API, dst, dest_max, src, count, kind, true)
                }
                rc => rc,
            }
        }
        e => e,
    }
}

/// The checked copy of `aclrtMemcpy` and `aclrtMemcpyAsync`; with `run` false only the checks
/// (a copy captured into an `aclmdlRI`).
///
/// # Safety
/// As [`aclrtMemcpy`].
pub(crate) unsafe fn copy(
    api: &str,
    dst: *mut c_void,
    dest_max: usize,
    src: *const c_void,
    count: usize,
    kind: u32,
    run: bool,
) -> i32 {
    let bad = |msg: String| fail(ACL_ERROR_INVALID_PARAM, api, msg);
    let Some((src_side, dst_side)) = kind_sides(kind) else {
        return bad(format!(
            "kind {kind} is not an aclrtMemcpyKind (0 ACL_MEMCPY_HOST_TO_HOST … 7 ACL_MEMCPY_INTER_DEVICE_TO_DEVICE)"
        ));
    };
    if count > dest_max {
        return bad(format!(
            "count {count} bytes exceeds destMax {dest_max} bytes"
        ));
    }
    if count == 0 {
        return ACL_SUCCESS;
    }
    if dst.is_null() || src.is_null() {
        let which = if dst.is_null() { "dst" } else { "src" };
        return bad(format!("{which} is a null pointer"));
    }
    let (d, s) = (classify(dst as *const u8), classify(src as *const u8));
    for (side, want, m, p) in [
        ("source", src_side, s, src as *const u8),
        ("destination", dst_side, d, dst as *const u8),
    ] {
        if let Some(dev) = want {
            if matches!(m, Memory::Device(_)) != dev {
                return bad(format!(
                    "{} copies {} {}, but the {side} {p:p} is {}",
                    KIND_NAMES[kind as usize],
                    if side == "source" { "from" } else { "to" },
                    if dev { "device memory" } else { "host memory" },
                    describe(m)
                ));
            }
        }
        if let Err(msg) = check_room(side, p, m, count) {
            return bad(msg);
        }
    }
    if run {
        // SAFETY: both ranges were checked against their allocations, or are the caller's host
        // memory of `count` bytes; `copy` allows overlap (device to device within one buffer).
        std::ptr::copy(src as *const u8, dst as *mut u8, count);
    }
    ACL_SUCCESS
}

/// `aclrtMemset(devPtr, maxCount, value, count)`: `count` bytes (at most `maxCount`) set to the
/// low byte of `value`, inside the allocation.
///
/// # Safety
/// A host pointer the runtime did not allocate must be valid for `count` bytes.
#[no_mangle]
pub unsafe extern "C" fn aclrtMemset(
    dev: *mut c_void,
    max_count: usize,
    value: i32,
    count: usize,
) -> i32 {
    set("aclrtMemset", dev, max_count, value, count, true)
}

/// `aclrtMemsetAsync(devPtr, maxCount, value, count, stream)`: as `aclrtMemset`, done when it
/// returns; the stream is checked.
///
/// # Safety
/// As [`aclrtMemset`].
#[no_mangle]
pub unsafe extern "C" fn aclrtMemsetAsync(
    dev: *mut c_void,
    max_count: usize,
    value: i32,
    count: usize,
    stream: *mut c_void,
) -> i32 {
    const API: &str = "aclrtMemsetAsync";
    match check_stream(API, stream) {
        ACL_SUCCESS => {
            let task = crate::acl_graph::Task::Memset {
                dst: dev as usize,
                max_count,
                value,
                count,
            };
            match set(API, dev, max_count, value, count, false) {
                ACL_SUCCESS if !crate::acl_graph::captured(stream, task) => {
                    set(API, dev, max_count, value, count, true)
                }
                rc => rc,
            }
        }
        e => e,
    }
}

/// The checked fill of `aclrtMemset` and `aclrtMemsetAsync`; with `run` false only the checks.
///
/// # Safety
/// As [`aclrtMemset`].
pub(crate) unsafe fn set(
    api: &str,
    dev: *mut c_void,
    max_count: usize,
    value: i32,
    count: usize,
    run: bool,
) -> i32 {
    let bad = |msg: String| fail(ACL_ERROR_INVALID_PARAM, api, msg);
    if count > max_count {
        return bad(format!(
            "count {count} bytes exceeds maxCount {max_count} bytes"
        ));
    }
    if count == 0 {
        return ACL_SUCCESS;
    }
    if dev.is_null() {
        return bad("devPtr is a null pointer".into());
    }
    let m = classify(dev as *const u8);
    if let Err(msg) = check_room("destination", dev as *const u8, m, count) {
        return bad(msg);
    }
    if run {
        // SAFETY: the range was checked against its allocation, or is the caller's host memory.
        std::ptr::write_bytes(dev as *mut u8, value as u8, count);
    }
    ACL_SUCCESS
}

/// `aclFloatToFloat16(value)`: round to nearest even, overflow to infinity.
#[no_mangle]
pub extern "C" fn aclFloatToFloat16(value: f32) -> u16 {
    ascendc::f16::from_f32(value).to_bits()
}

/// `aclFloat16ToFloat(value)`: exact.
#[no_mangle]
pub extern "C" fn aclFloat16ToFloat(bits: u16) -> f32 {
    ascendc::f16::from_bits(bits).to_f32()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recent() -> String {
        let p = aclGetRecentErrMsg();
        assert!(!p.is_null());
        // SAFETY: a NUL-terminated message owned by this thread.
        unsafe { std::ffi::CStr::from_ptr(p) }
            .to_string_lossy()
            .into_owned()
    }

    #[test]
    fn device_memory_is_bounded_gm() {
        let mut d: *mut c_void = std::ptr::null_mut();
        let src = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
        let mut back = [0u8; 8];
        // SAFETY: valid out-pointers and host buffers of the stated sizes.
        unsafe {
            assert_eq!(aclrtMalloc(&mut d, 8, 0), 0);
            assert_eq!(aclrtMemcpy(d, 8, src.as_ptr().cast(), 8, 1), 0);
            assert_eq!(
                aclrtMemcpy(d, 16, src.as_ptr().cast(), 9, 1),
                ACL_ERROR_INVALID_PARAM
            );
            let m = recent();
            assert!(
                m.contains("9 bytes run past the end of the destination device memory"),
                "{m}"
            );
            assert_eq!(
                aclrtMemcpy(d, 4, src.as_ptr().cast(), 8, 1),
                ACL_ERROR_INVALID_PARAM
            );
            let m = recent();
            assert!(
                m.starts_with("aclrtMemcpy: count 8 bytes exceeds destMax 4 bytes"),
                "{m}"
            );
            assert_eq!(
                aclrtMemcpy(back.as_mut_ptr().cast(), 8, d, 8, 1),
                ACL_ERROR_INVALID_PARAM
            );
            let m = recent();
            assert!(
                m.contains("ACL_MEMCPY_HOST_TO_DEVICE copies from host memory, but the source"),
                "{m}"
            );
            assert_eq!(aclrtMemcpy(back.as_mut_ptr().cast(), 8, d, 8, 2), 0);
            assert_eq!(back, [1, 2, 3, 4, 5, 6, 7, 8]);
            assert_eq!(aclrtMemset(d, 8, 0x1ff, 4), 0);
            assert_eq!(aclrtMemcpy(back.as_mut_ptr().cast(), 8, d, 8, 4), 0);
            assert_eq!(back, [0xff, 0xff, 0xff, 0xff, 5, 6, 7, 8]);
            assert_eq!(aclrtMemset(d, 8, 0, 9), ACL_ERROR_INVALID_PARAM);
            assert!(recent().contains("count 9 bytes exceeds maxCount 8 bytes"));
            assert_eq!(aclrtMemset(d, 16, 0, 9), ACL_ERROR_INVALID_PARAM);
            assert!(recent().contains("run past the end of the destination device memory"));
            assert_eq!(aclrtFree(d), 0);
            assert_eq!(aclrtFree(d), ACL_ERROR_INVALID_PARAM);
            assert!(recent().contains("not the start of a live aclrtMalloc allocation"));
            assert!(aclGetRecentErrMsg().is_null());
        }
    }

    #[test]
    fn host_memory_and_handles_are_tracked() {
        let mut h: *mut c_void = std::ptr::null_mut();
        let mut s: *mut c_void = std::ptr::null_mut();
        // SAFETY: valid out-pointers; `h` holds 10 bytes.
        unsafe {
            assert_eq!(aclrtMallocHost(&mut h, 10), 0);
            assert_eq!(h as usize % 64, 0);
            let other = [7u8; 16];
            assert_eq!(
                aclrtMemcpy(h, 16, other.as_ptr().cast(), 16, 0),
                ACL_ERROR_INVALID_PARAM
            );
            assert!(recent().contains("run past the end of the destination host memory"));
            assert_eq!(aclrtMemcpy(h, 10, other.as_ptr().cast(), 10, 0), 0);
            assert_eq!(*(h as *const u8).add(9), 7);
            assert_eq!(aclrtFreeHost(h), 0);
            assert_eq!(aclrtFreeHost(h), ACL_ERROR_INVALID_PARAM);
            let _ = recent();
            assert_eq!(aclrtCreateStream(&mut s), 0);
            assert_eq!(aclrtSynchronizeStream(s), 0);
            assert_eq!(aclrtSynchronizeStream(std::ptr::null_mut()), 0);
            assert_eq!(aclrtDestroyStream(s), 0);
            assert_eq!(aclrtSynchronizeStream(s), ACL_ERROR_INVALID_RESOURCE_HANDLE);
            assert_eq!(aclrtDestroyStream(s), ACL_ERROR_INVALID_RESOURCE_HANDLE);
            assert!(recent().contains("is not a live stream"));
        }
        assert_eq!(aclrtSetDevice(1), ACL_ERROR_INVALID_DEVICE);
        assert!(recent().contains("device id 1 does not exist"));
        assert_eq!(aclrtSetDevice(0), 0);
    }

    #[test]
    fn float16_conversions_round_to_nearest_even() {
        assert_eq!(aclFloatToFloat16(1.0 + 1.0 / 2048.0), 0x3c00);
        assert_eq!(aclFloatToFloat16(1.0 + 3.0 / 2048.0), 0x3c02);
        assert_eq!(aclFloatToFloat16(65520.0), 0x7c00);
        assert_eq!(aclFloat16ToFloat(0x3555), 0.333_251_95);
    }
}
