//! Capturing stream work into a model run instance (`aclmdlRI`, ACLGraph; `acl/acl_mdl.h`).
//!
//! Between `aclmdlRICaptureBegin(stream)` and `aclmdlRICaptureEnd(stream, &ri)` the work issued
//! on the capturing stream is recorded instead of run: `aclrtMemcpyAsync`, `aclrtMemsetAsync`,
//! `<<<>>>` launches, `aclrtRecordEvent` and `aclrtStreamWaitEvent`. A stream that waits on an
//! event recorded inside the capture joins it (its work is recorded too), so work spread over
//! several streams through events is captured as on the device. Copies and fills are checked
//! when they are captured; a launch is checked when it runs. `aclmdlRIExecuteAsync` replays the
//! tasks in the order they were issued, which respects every stream order and event dependency
//! of the capture; like every launch on the simulator it is done when it returns.
#![allow(non_snake_case)]

use crate::acl::{
    check_stream, check_timeout, copy, fail, set, ACL_ERROR_INVALID_PARAM,
    ACL_ERROR_INVALID_RESOURCE_HANDLE, ACL_SUCCESS, KIND_NAMES,
};
use crate::handles::Handles;
use std::collections::BTreeSet;
use std::ffi::{c_char, c_void, CStr};
use std::fmt::Write as _;
use std::sync::Mutex;

/// A launch captured from C++: `run(ctx)` launches it (0 on success), `free(ctx)` releases it.
pub struct Closure {
    name: String,
    block_dim: u32,
    run: unsafe extern "C" fn(*mut c_void) -> i32,
    free: unsafe extern "C" fn(*mut c_void),
    ctx: *mut c_void,
}

// SAFETY: the closure's context is owned by the task alone and only used under the capture or
// instance table's lock.
unsafe impl Send for Closure {}

impl Drop for Closure {
    fn drop(&mut self) {
        // SAFETY: `ctx` came with `free` from the launch that was captured, and is freed once.
        unsafe { (self.free)(self.ctx) }
    }
}

/// One captured piece of stream work (addresses as integers).
pub enum Task {
    Memcpy {
        dst: usize,
        dest_max: usize,
        src: usize,
        count: usize,
        kind: u32,
    },
    Memset {
        dst: usize,
        max_count: usize,
        value: i32,
        count: usize,
    },
    Launch(Closure),
    Record {
        event: usize,
    },
    Wait {
        event: usize,
    },
}

/// A capture in progress.
struct Capture {
    /// The stream `aclmdlRICaptureBegin` was called on.
    origin: usize,
    /// The origin and every stream that joined by waiting on a captured event.
    streams: BTreeSet<usize>,
    /// Events recorded inside the capture.
    events: BTreeSet<usize>,
    /// The work in issue order, with its stream.
    tasks: Vec<(usize, Task)>,
}

static CAPTURES: Mutex<Vec<Capture>> = Mutex::new(Vec::new());

/// Captured instances (`aclmdlRI` handles).
static INSTANCES: Handles<Vec<(usize, Task)>> = Handles::new();

fn captures() -> std::sync::MutexGuard<'static, Vec<Capture>> {
    CAPTURES.lock().unwrap_or_else(|e| e.into_inner())
}

/// Records `task` when `stream` is capturing and returns true; false when the work runs now.
pub(crate) fn captured(stream: *mut c_void, task: Task) -> bool {
    let key = stream as usize;
    let mut caps = captures();
    let Some(cap) = caps.iter_mut().find(|c| c.streams.contains(&key)) else {
        return false;
    };
    if let Task::Record { event } = task {
        cap.events.insert(event);
    }
    cap.tasks.push((key, task));
    true
}

/// `aclrtStreamWaitEvent(stream, event)` after its checks: a stream waiting on an event recorded
/// inside a capture joins that capture; a wait on a capturing stream is recorded.
pub(crate) fn wait(stream: *mut c_void, event: *mut c_void) {
    let (key, ev) = (stream as usize, event as usize);
    let mut caps = captures();
    if let Some(cap) = caps
        .iter_mut()
        .find(|c| c.events.contains(&ev) || c.streams.contains(&key))
    {
        cap.streams.insert(key);
        cap.tasks.push((key, Task::Wait { event: ev }));
    }
}

/// Refuses `api` on a capturing stream (synchronising it would wait for work that never runs).
pub(crate) fn check_not_capturing(api: &str, stream: *mut c_void) -> i32 {
    let key = stream as usize;
    if captures().iter().any(|c| c.streams.contains(&key)) {
        return fail(
            ACL_ERROR_INVALID_PARAM,
            api,
            format!("stream {stream:p} is being captured (aclmdlRICaptureBegin); its work runs when the aclmdlRI is executed"),
        );
    }
    ACL_SUCCESS
}

/// True when `stream` is being captured (a `<<<>>>` launch on it is recorded).
#[no_mangle]
pub extern "C" fn ascendc_stream_capturing(stream: *mut c_void) -> bool {
    let key = stream as usize;
    !stream.is_null() && captures().iter().any(|c| c.streams.contains(&key))
}

/// Records a `<<<>>>` launch on a capturing stream: `run(ctx)` launches it, `free(ctx)` releases
/// `ctx`. Returns 0, or 1 (with `ctx` freed) when the stream is not capturing.
///
/// # Safety
/// `name` is a NUL-terminated string; `run` and `free` accept `ctx`.
#[no_mangle]
pub unsafe extern "C" fn ascendc_capture_launch(
    stream: *mut c_void,
    name: *const c_char,
    block_dim: u32,
    run: unsafe extern "C" fn(*mut c_void) -> i32,
    free: unsafe extern "C" fn(*mut c_void),
    ctx: *mut c_void,
) -> i32 {
    let closure = Closure {
        name: if name.is_null() {
            String::from("<kernel>")
        } else {
            CStr::from_ptr(name).to_string_lossy().into_owned()
        },
        block_dim,
        run,
        free,
        ctx,
    };
    i32::from(!captured(stream, Task::Launch(closure)))
}

/// `aclmdlRICaptureBegin(stream, mode)`: starts capturing a created stream (not the default
/// stream, not one already capturing). `mode` is an `aclmdlRICaptureMode` (0 global, 1 thread
/// local, 2 relaxed); the simulator runs one host thread's work at a time, so all behave alike.
#[no_mangle]
pub extern "C" fn aclmdlRICaptureBegin(stream: *mut c_void, mode: u32) -> i32 {
    const API: &str = "aclmdlRICaptureBegin";
    if stream.is_null() {
        return fail(
            ACL_ERROR_INVALID_PARAM,
            API,
            "the default stream (null) cannot be captured: capture a stream made by aclrtCreateStream".into(),
        );
    }
    match check_mode(API, mode) {
        ACL_SUCCESS => {}
        e => return e,
    }
    match check_stream(API, stream) {
        ACL_SUCCESS => {}
        e => return e,
    }
    let key = stream as usize;
    let mut caps = captures();
    if caps.iter().any(|c| c.streams.contains(&key)) {
        return fail(
            ACL_ERROR_INVALID_PARAM,
            API,
            format!("stream {stream:p} is already being captured"),
        );
    }
    caps.push(Capture {
        origin: key,
        streams: BTreeSet::from([key]),
        events: BTreeSet::new(),
        tasks: Vec::new(),
    });
    ACL_SUCCESS
}

/// `aclmdlRICaptureEnd(stream, modelRI)`: ends the capture begun on `stream` and returns its
/// work as an `aclmdlRI`.
///
/// # Safety
/// `model_ri` is null or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn aclmdlRICaptureEnd(
    stream: *mut c_void,
    model_ri: *mut *mut c_void,
) -> i32 {
    const API: &str = "aclmdlRICaptureEnd";
    if model_ri.is_null() {
        return fail(
            ACL_ERROR_INVALID_PARAM,
            API,
            "modelRI is a null pointer".into(),
        );
    }
    let key = stream as usize;
    let mut caps = captures();
    let Some(at) = caps.iter().position(|c| c.origin == key) else {
        let joined = caps.iter().any(|c| c.streams.contains(&key));
        return fail(
            ACL_ERROR_INVALID_PARAM,
            API,
            if joined {
                format!("stream {stream:p} joined a capture through an event; end it on the stream that began it")
            } else {
                format!("stream {stream:p} is not being captured (no aclmdlRICaptureBegin on it)")
            },
        );
    };
    let cap = caps.remove(at);
    *model_ri = INSTANCES.insert(cap.tasks);
    ACL_SUCCESS
}

/// `aclmdlRICaptureGetInfo(stream, status, modelRI)`: `status` 1 (`ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE`)
/// while `stream` is capturing, else 0 (`…_NONE`); `modelRI` (optional) is null until the end.
///
/// # Safety
/// `status` is null or valid for a write; `model_ri` likewise.
#[no_mangle]
pub unsafe extern "C" fn aclmdlRICaptureGetInfo(
    stream: *mut c_void,
    status: *mut u32,
    model_ri: *mut *mut c_void,
) -> i32 {
    const API: &str = "aclmdlRICaptureGetInfo";
    if status.is_null() {
        return fail(
            ACL_ERROR_INVALID_PARAM,
            API,
            "status is a null pointer".into(),
        );
    }
    match check_stream(API, stream) {
        ACL_SUCCESS => {}
        e => return e,
    }
    *status = u32::from(ascendc_stream_capturing(stream));
    if !model_ri.is_null() {
        *model_ri = std::ptr::null_mut();
    }
    ACL_SUCCESS
}

/// `aclmdlRICaptureThreadExchangeMode(mode)`: the calling thread's capture mode; every mode
/// behaves alike on the simulator, so the value is checked and kept as it was.
///
/// # Safety
/// `mode` is null or valid for reads and writes.
#[no_mangle]
pub unsafe extern "C" fn aclmdlRICaptureThreadExchangeMode(mode: *mut u32) -> i32 {
    const API: &str = "aclmdlRICaptureThreadExchangeMode";
    if mode.is_null() {
        return fail(
            ACL_ERROR_INVALID_PARAM,
            API,
            "mode is a null pointer".into(),
        );
    }
    check_mode(API, *mode)
}

/// Checks an `aclmdlRICaptureMode` value.
fn check_mode(api: &str, mode: u32) -> i32 {
    if mode > 2 {
        return fail(
            ACL_ERROR_INVALID_PARAM,
            api,
            format!(
                "mode {mode} is not an aclmdlRICaptureMode (0 GLOBAL, 1 THREAD_LOCAL, 2 RELAXED)"
            ),
        );
    }
    ACL_SUCCESS
}

fn dead(api: &str, ri: *mut c_void) -> i32 {
    fail(
        ACL_ERROR_INVALID_RESOURCE_HANDLE,
        api,
        format!("{ri:p} is not a live aclmdlRI (destroyed, or never made by aclmdlRICaptureEnd)"),
    )
}

/// Replays the tasks of `ri`, stopping at the first that fails.
fn replay(api: &str, ri: *mut c_void) -> i32 {
    let result = INSTANCES.with(ri, |tasks| {
        for (_, task) in tasks.iter() {
            // SAFETY: copies and fills were checked against their allocations when captured;
            // a launch's closure is live until the instance is destroyed.
            let rc = unsafe {
                match *task {
                    Task::Memcpy {
                        dst,
                        dest_max,
                        src,
                        count,
                        kind,
                    } => copy(api, dst as _, dest_max, src as _, count, kind, true),
                    Task::Memset {
                        dst,
                        max_count,
                        value,
                        count,
                    } => set(api, dst as _, max_count, value, count, true),
                    Task::Launch(ref c) => (c.run)(c.ctx),
                    Task::Record { event } => {
                        crate::acl_event::record(event as _);
                        ACL_SUCCESS
                    }
                    Task::Wait { .. } => ACL_SUCCESS,
                }
            };
            if rc != ACL_SUCCESS {
                return rc;
            }
        }
        ACL_SUCCESS
    });
    result.unwrap_or_else(|| dead(api, ri))
}

/// `aclmdlRIExecuteAsync(modelRI, stream)`: runs the captured work (done when it returns).
#[no_mangle]
pub extern "C" fn aclmdlRIExecuteAsync(model_ri: *mut c_void, stream: *mut c_void) -> i32 {
    const API: &str = "aclmdlRIExecuteAsync";
    match check_stream(API, stream) {
        ACL_SUCCESS => replay(API, model_ri),
        e => e,
    }
}

/// `aclmdlRIExecute(modelRI, timeout)`: runs the captured work and waits for it; `timeout` is
/// -1 (no limit), 0 or milliseconds.
#[no_mangle]
pub extern "C" fn aclmdlRIExecute(model_ri: *mut c_void, timeout: i32) -> i32 {
    const API: &str = "aclmdlRIExecute";
    match check_timeout(API, timeout) {
        ACL_SUCCESS => replay(API, model_ri),
        e => e,
    }
}

/// `aclmdlRIDestroy(modelRI)`.
#[no_mangle]
pub extern "C" fn aclmdlRIDestroy(model_ri: *mut c_void) -> i32 {
    match INSTANCES.remove(model_ri) {
        Some(_) => ACL_SUCCESS,
        None => dead("aclmdlRIDestroy", model_ri),
    }
}

/// The tasks of an instance as JSON: `{"tasks": [{"index", "stream", "type", …}]}`.
fn to_json(tasks: &[(usize, Task)]) -> String {
    let mut out = String::from("{\n  \"tasks\": [");
    for (i, (stream, task)) in tasks.iter().enumerate() {
        let body = match task {
            Task::Memcpy { count, kind, .. } => format!(
                "\"type\": \"MEMCPY_ASYNC\", \"kind\": \"{}\", \"bytes\": {count}",
                KIND_NAMES.get(*kind as usize).unwrap_or(&"?")
            ),
            Task::Memset { count, value, .. } => {
                format!("\"type\": \"MEMSET_ASYNC\", \"value\": {value}, \"bytes\": {count}")
            }
            Task::Launch(c) => format!(
                "\"type\": \"KERNEL\", \"name\": \"{}\", \"blockDim\": {}",
                c.name.replace('\\', "\\\\").replace('"', "\\\""),
                c.block_dim
            ),
            Task::Record { event } => {
                format!("\"type\": \"EVENT_RECORD\", \"event\": \"{event:#x}\"")
            }
            Task::Wait { event } => format!("\"type\": \"EVENT_WAIT\", \"event\": \"{event:#x}\""),
        };
        let sep = if i == 0 { "" } else { "," };
        let _ = write!(
            out,
            "{sep}\n    {{\"index\": {i}, \"stream\": \"{stream:#x}\", {body}}}"
        );
    }
    out.push_str("\n  ]\n}\n");
    out
}

/// `aclmdlRIDebugJsonPrint(modelRI, path, flags)`: writes the captured tasks (their order,
/// streams, kinds, sizes and kernels) as JSON to `path`.
///
/// # Safety
/// `path` is null or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn aclmdlRIDebugJsonPrint(
    model_ri: *mut c_void,
    path: *const c_char,
    _flags: u32,
) -> i32 {
    const API: &str = "aclmdlRIDebugJsonPrint";
    if path.is_null() {
        return fail(
            ACL_ERROR_INVALID_PARAM,
            API,
            "path is a null pointer".into(),
        );
    }
    let path = CStr::from_ptr(path).to_string_lossy().into_owned();
    let Some(json) = INSTANCES.with(model_ri, |tasks| to_json(tasks)) else {
        return dead(API, model_ri);
    };
    match std::fs::write(&path, json) {
        Ok(()) => ACL_SUCCESS,
        Err(e) => fail(
            ACL_ERROR_INVALID_PARAM,
            API,
            format!("cannot write {path}: {e}"),
        ),
    }
}
