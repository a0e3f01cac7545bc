//! Events of the acl runtime (`acl/acl_rt.h`) on the simulator. Work on a stream is done when it
//! is issued, so an event is complete as soon as it is recorded: `aclrtSynchronizeEvent` and
//! `aclrtStreamWaitEvent` have nothing to wait for (they check their handles), and
//! `aclrtEventElapsedTime` is the host time between the two records, which includes the
//! simulated kernels launched between them.
#![allow(non_snake_case)]

use crate::acl::{
    check_stream, check_timeout, fail, ACL_ERROR_INVALID_PARAM, ACL_ERROR_INVALID_RESOURCE_HANDLE,
    ACL_SUCCESS,
};
use crate::acl_graph::Task;
use crate::handles::Handles;
use std::ffi::c_void;
use std::time::Instant;

/// `ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID`: timing an event that was not recorded.
pub const ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID: i32 = 107_006;
/// `ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL`: the end event was recorded before the start event.
pub const ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL: i32 = 107_007;

/// `ACL_EVENT_SYNC`, `_CAPTURE_STREAM_PROGRESS`, `_TIME_LINE`, `_DEVICE_USE_ONLY`, `_EXTERNAL`,
/// `_IPC`.
const FLAGS: u32 = 0x01 | 0x02 | 0x08 | 0x10 | 0x20 | 0x40;
/// `ACL_EVENT_TIME_LINE`.
const TIME_LINE: u32 = 0x08;

/// One event.
struct Event {
    /// The creation flags; `None` for `aclrtCreateEvent` (usable for everything).
    flags: Option<u32>,
    /// When it was last recorded.
    recorded: Option<Instant>,
}

static EVENTS: Handles<Event> = Handles::new();

fn dead(api: &str, event: *mut c_void) -> i32 {
    fail(
        ACL_ERROR_INVALID_RESOURCE_HANDLE,
        api,
        format!("{event:p} is not a live event (destroyed, or never created)"),
    )
}

/// Runs `f` on `event`, or fails with `ACL_ERROR_INVALID_RESOURCE_HANDLE`.
fn with_event(api: &str, event: *mut c_void, f: impl FnOnce(&mut Event) -> i32) -> i32 {
    EVENTS.with(event, f).unwrap_or_else(|| dead(api, event))
}

/// # Safety
/// `out` is null or valid for a write.
unsafe fn create(api: &str, out: *mut *mut c_void, flags: Option<u32>) -> i32 {
    if out.is_null() {
        return fail(
            ACL_ERROR_INVALID_PARAM,
            api,
            "event is a null pointer".into(),
        );
    }
    if let Some(f) = flags.filter(|f| f & !FLAGS != 0) {
        return fail(
            ACL_ERROR_INVALID_PARAM,
            api,
            format!("flag {f:#x} has bits that are not ACL_EVENT_* flags ({FLAGS:#x})"),
        );
    }
    *out = EVENTS.insert(Event {
        flags,
        recorded: None,
    });
    0
}

/// `aclrtCreateEvent(event)`: an event for timing and synchronisation.
///
/// # Safety
/// `event` is null or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn aclrtCreateEvent(event: *mut *mut c_void) -> i32 {
    create("aclrtCreateEvent", event, None)
}

/// `aclrtCreateEventWithFlag(event, flag)`: `flag` a combination of the `ACL_EVENT_*` flags; only
/// `ACL_EVENT_TIME_LINE` events can be timed.
///
/// # Safety
/// `event` is null or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn aclrtCreateEventWithFlag(event: *mut *mut c_void, flag: u32) -> i32 {
    create("aclrtCreateEventWithFlag", event, Some(flag))
}

/// `aclrtCreateEventExWithFlag(event, flag)`: as `aclrtCreateEventWithFlag` (events are reusable
/// here anyway).
///
/// # Safety
/// `event` is null or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn aclrtCreateEventExWithFlag(event: *mut *mut c_void, flag: u32) -> i32 {
    create("aclrtCreateEventExWithFlag", event, Some(flag))
}

/// `aclrtDestroyEvent(event)`.
#[no_mangle]
pub extern "C" fn aclrtDestroyEvent(event: *mut c_void) -> i32 {
    match EVENTS.remove(event) {
        Some(_) => 0,
        None => dead("aclrtDestroyEvent", event),
    }
}

/// `aclrtRecordEvent(event, stream)`: complete at once (the stream's earlier work is done).
#[no_mangle]
pub extern "C" fn aclrtRecordEvent(event: *mut c_void, stream: *mut c_void) -> i32 {
    const API: &str = "aclrtRecordEvent";
    let checked = match check_stream(API, stream) {
        0 => with_event(API, event, |_| 0),
        err => err,
    };
    if checked == 0
        && !crate::acl_graph::captured(
            stream,
            Task::Record {
                event: event as usize,
            },
        )
    {
        record(event);
    }
    checked
}

/// Marks a live event recorded now (an `aclrtRecordEvent` issued, or replayed from an
/// `aclmdlRI`).
pub(crate) fn record(event: *mut c_void) {
    EVENTS.with(event, |e| e.recorded = Some(Instant::now()));
}

/// `aclrtResetEvent(event, stream)`: not recorded any more.
#[no_mangle]
pub extern "C" fn aclrtResetEvent(event: *mut c_void, stream: *mut c_void) -> i32 {
    const API: &str = "aclrtResetEvent";
    match check_stream(API, stream) {
        0 => with_event(API, event, |e| {
            e.recorded = None;
            0
        }),
        err => err,
    }
}

/// `aclrtQueryEventStatus(event, status)`: `ACL_EVENT_RECORDED_STATUS_COMPLETE` (1) once
/// recorded, `ACL_EVENT_RECORDED_STATUS_NOT_READY` (0) before.
///
/// # Safety
/// `status` is null or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn aclrtQueryEventStatus(event: *mut c_void, status: *mut u32) -> i32 {
    const API: &str = "aclrtQueryEventStatus";
    if status.is_null() {
        return fail(
            ACL_ERROR_INVALID_PARAM,
            API,
            "status is a null pointer".into(),
        );
    }
    with_event(API, event, |e| {
        *status = u32::from(e.recorded.is_some());
        0
    })
}

/// `aclrtQueryEvent(event, status)` (deprecated): `ACL_EVENT_STATUS_COMPLETE` (0) once recorded,
/// `ACL_EVENT_STATUS_NOT_READY` (1) before.
///
/// # Safety
/// `status` is null or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn aclrtQueryEvent(event: *mut c_void, status: *mut u32) -> i32 {
    const API: &str = "aclrtQueryEvent";
    if status.is_null() {
        return fail(
            ACL_ERROR_INVALID_PARAM,
            API,
            "status is a null pointer".into(),
        );
    }
    with_event(API, event, |e| {
        *status = u32::from(e.recorded.is_none());
        0
    })
}

/// `aclrtSynchronizeEvent(event)`: nothing to wait for.
#[no_mangle]
pub extern "C" fn aclrtSynchronizeEvent(event: *mut c_void) -> i32 {
    with_event("aclrtSynchronizeEvent", event, |_| 0)
}

/// `aclrtSynchronizeEventWithTimeout(event, timeout)`: nothing to wait for; the timeout is -1, 0
/// or positive.
#[no_mangle]
pub extern "C" fn aclrtSynchronizeEventWithTimeout(event: *mut c_void, timeout: i32) -> i32 {
    const API: &str = "aclrtSynchronizeEventWithTimeout";
    match check_timeout(API, timeout) {
        ACL_SUCCESS => with_event(API, event, |_| 0),
        e => e,
    }
}

/// `aclrtStreamWaitEvent(stream, event)`: the event is complete once recorded, so the stream
/// does not wait.
#[no_mangle]
pub extern "C" fn aclrtStreamWaitEvent(stream: *mut c_void, event: *mut c_void) -> i32 {
    const API: &str = "aclrtStreamWaitEvent";
    let checked = match check_stream(API, stream) {
        0 => with_event(API, event, |_| 0),
        err => err,
    };
    if checked == 0 {
        crate::acl_graph::wait(stream, event);
    }
    checked
}

/// `aclrtEventElapsedTime(ms, startEvent, endEvent)`: milliseconds between the two records. Both
/// events are timing events (`aclrtCreateEvent`, or `ACL_EVENT_TIME_LINE`) and recorded, the end
/// one not before the start one.
///
/// # Safety
/// `ms` is null or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn aclrtEventElapsedTime(
    ms: *mut f32,
    start: *mut c_void,
    end: *mut c_void,
) -> i32 {
    const API: &str = "aclrtEventElapsedTime";
    if ms.is_null() {
        return fail(ACL_ERROR_INVALID_PARAM, API, "ms is a null pointer".into());
    }
    let mut times = [None; 2];
    for (slot, (which, event)) in times
        .iter_mut()
        .zip([("startEvent", start), ("endEvent", end)])
    {
        let Some((flags, recorded)) = EVENTS.with(event, |e| (e.flags, e.recorded)) else {
            return dead(API, event);
        };
        if let Some(f) = flags.filter(|f| f & TIME_LINE == 0) {
            return fail(
                ACL_ERROR_INVALID_PARAM,
                API,
                format!("{which} was created with flag {f:#x}, without ACL_EVENT_TIME_LINE: it cannot be timed"),
            );
        }
        let Some(t) = recorded else {
            return fail(
                ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID,
                API,
                format!("{which} has not been recorded (aclrtRecordEvent)"),
            );
        };
        *slot = Some(t);
    }
    let [Some(t0), Some(t1)] = times else {
        unreachable!("both events were read")
    };
    if t1 < t0 {
        return fail(
            ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL,
            API,
            "endEvent was recorded before startEvent".into(),
        );
    }
    *ms = (t1 - t0).as_secs_f64() as f32 * 1000.0;
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_complete_when_recorded_and_time_their_interval() {
        let (mut a, mut b, mut sync) = (
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
        );
        let mut status = 9u32;
        let mut ms = -1.0f32;
        // SAFETY: valid out-pointers.
        unsafe {
            assert_eq!(aclrtCreateEvent(&mut a), 0);
            assert_eq!(aclrtCreateEventWithFlag(&mut b, TIME_LINE), 0);
            assert_eq!(aclrtCreateEventExWithFlag(&mut sync, 0x01), 0);
            assert_eq!(
                aclrtCreateEventWithFlag(&mut sync, 0x04),
                ACL_ERROR_INVALID_PARAM
            );
            assert_eq!(aclrtQueryEventStatus(a, &mut status), 0);
            assert_eq!(status, 0);
            assert_eq!(
                aclrtEventElapsedTime(&mut ms, a, b),
                ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID
            );
            assert_eq!(aclrtRecordEvent(a, std::ptr::null_mut()), 0);
            std::thread::sleep(std::time::Duration::from_millis(5));
            assert_eq!(aclrtRecordEvent(b, std::ptr::null_mut()), 0);
            assert_eq!(aclrtQueryEventStatus(a, &mut status), 0);
            assert_eq!(status, 1);
            assert_eq!(aclrtEventElapsedTime(&mut ms, a, b), 0);
            assert!(ms >= 5.0, "{ms}");
            assert_eq!(
                aclrtEventElapsedTime(&mut ms, b, a),
                ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL
            );
            assert_eq!(aclrtRecordEvent(sync, std::ptr::null_mut()), 0);
            assert_eq!(
                aclrtEventElapsedTime(&mut ms, a, sync),
                ACL_ERROR_INVALID_PARAM
            );
            assert_eq!(aclrtStreamWaitEvent(std::ptr::null_mut(), sync), 0);
            assert_eq!(aclrtDestroyEvent(a), 0);
            assert_eq!(aclrtSynchronizeEvent(a), ACL_ERROR_INVALID_RESOURCE_HANDLE);
        }
    }
}
