//! Exception detection and time stamps for C++ kernels: `ascendc_assert` / `assert`, `Trap`,
//! `CheckLocalMemoryIA`, `PrintTimeStamp`, `MetricsProfStart` / `MetricsProfStop`.

use crate::abi::{call, AscLoc};
use crate::debug::TextSink;
use ascendc::{Category, CheckLocalMemoryIAParam, SimError};
use std::ffi::{c_char, CStr, CString};

/// A failed or passing `ascendc_assert` (`api` = 0) or `assert` (`api` = 1): refused on products
/// the page does not list; when `holds` is 0, the `[ASSERT] …` line goes to `sink` and the block
/// fails.
///
/// # Safety
/// `expr` and `message` are NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn ascendc_assert_check(
    api: u8,
    holds: u8,
    expr: *const c_char,
    message: *const c_char,
    sink: TextSink,
    loc: AscLoc,
) -> i32 {
    let expr = CStr::from_ptr(expr).to_string_lossy().into_owned();
    let message = CStr::from_ptr(message).to_string_lossy().into_owned();
    call(loc, || {
        let name = match api {
            0 => "ascendc_assert",
            1 => "assert",
            _ => {
                return Err(SimError::new(
                    Category::Range,
                    "assert",
                    format!("invalid assert kind {api}"),
                ))
            }
        };
        ascendc::assert_check_with(
            name,
            holds != 0,
            &expr,
            || message,
            |line| {
                let c = CString::new(format!("{line}\n")).unwrap_or_default();
                sink(c.as_ptr());
            },
        )
    })
}

/// `Trap()`.
#[no_mangle]
pub extern "C" fn ascendc_trap(loc: AscLoc) -> i32 {
    call(loc, ascendc::trap)
}

/// `CheckLocalMemoryIA(checkParams)`; `kinds` bits 0–5: scalar read, scalar write, vector read,
/// vector write, MTE read, MTE write.
#[no_mangle]
pub extern "C" fn ascendc_check_local_memory_ia(
    enable_bit: u8,
    start_addr: u32,
    end_addr: u32,
    kinds: u8,
    is_enable: u8,
    loc: AscLoc,
) -> i32 {
    let bit = |i: u8| kinds & (1 << i) != 0;
    call(loc, || {
        ascendc::check_local_memory_ia(CheckLocalMemoryIAParam {
            enable_bit,
            start_addr,
            end_addr,
            is_scalar_read: bit(0),
            is_scalar_write: bit(1),
            is_vector_read: bit(2),
            is_vector_write: bit(3),
            is_mte_read: bit(4),
            is_mte_write: bit(5),
            is_enable: is_enable != 0,
            reserved: 0,
        })
    })
}

/// `PrintTimeStamp(descId)`: the record's text (one line) goes to `sink`.
#[no_mangle]
pub extern "C" fn ascendc_print_time_stamp(desc_id: u32, sink: TextSink, loc: AscLoc) -> i32 {
    call(loc, || {
        let t = ascendc::time_stamp(desc_id)?;
        let c = CString::new(format!("{t}\n")).unwrap_or_default();
        // SAFETY: `sink` is the C++ side's printer of NUL-terminated text.
        unsafe { sink(c.as_ptr()) };
        Ok(())
    })
}

/// `MetricsProfStart()` (`stop` = 0) or `MetricsProfStop()` (1).
#[no_mangle]
pub extern "C" fn ascendc_metrics_prof(stop: u8, loc: AscLoc) -> i32 {
    call(loc, || {
        if stop == 0 {
            ascendc::metrics_prof_start()
        } else {
            ascendc::metrics_prof_stop()
        }
    })
}
