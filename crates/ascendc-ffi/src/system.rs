//! Core state and queries for C++ kernels: `GetSystemCycle`, `InitSocState`, `ASCEND_IS_AIV` /
//! `ASCEND_IS_AIC`, `KERNEL_TASK_TYPE` and the system workspace.

use crate::abi::{call, AscLoc};
use crate::gm::lookup;
use ascendc::KernelMetaType;
use ascendc::{Category, SimError};
use std::ffi::{c_char, CStr};

/// `GetSystemCycle()` into `*out`.
///
/// # Safety
/// `out` is valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_get_system_cycle(out: *mut i64, loc: AscLoc) -> i32 {
    call(loc, || {
        *out = ascendc::get_system_cycle()?;
        Ok(())
    })
}

/// `InitSocState()`.
#[no_mangle]
pub extern "C" fn ascendc_init_soc_state(loc: AscLoc) -> i32 {
    call(loc, ascendc::init_soc_state)
}

/// `ASCEND_IS_AIV` (`which` = 0) or `ASCEND_IS_AIC` (`which` = 1): 1 when true.
#[no_mangle]
pub extern "C" fn ascendc_core_is(which: u8) -> u8 {
    (if which == 0 {
        ascendc::is_aiv()
    } else {
        ascendc::is_aic()
    }) as u8
}

/// The check of `KERNEL_TASK_TYPE_DEFAULT(value)` (`KernelMetaType` order).
#[no_mangle]
pub extern "C" fn ascendc_kernel_task_type(value: u8, loc: AscLoc) -> i32 {
    call(loc, || {
        let t = KernelMetaType::ALL.get(value as usize).ok_or_else(|| {
            SimError::new(
                Category::Range,
                "KERNEL_TASK_TYPE",
                format!("kernel type {value} is not a KernelMetaType (0..=9)"),
            )
        })?;
        ascendc::kernel_task_type(*t)
    })
}

/// `SetSysWorkspace(workspace)`; a null pointer clears it.
#[no_mangle]
pub extern "C" fn ascendc_set_sys_workspace(ptr: *const u8, loc: AscLoc) -> i32 {
    call(loc, || {
        if ptr.is_null() {
            return Ok(());
        }
        ascendc::set_sys_workspace(&lookup("SetSysWorkspace", ptr)?)
    })
}

/// `GetSysWorkSpacePtr()` into `*out` (null before `SetSysWorkspace`).
///
/// # Safety
/// `out` is valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_get_sys_workspace(out: *mut *mut u8, loc: AscLoc) -> i32 {
    call(loc, || {
        *out = ascendc::get_sys_workspace_ptr()?.map_or(std::ptr::null_mut(), |a| a.host_ptr());
        Ok(())
    })
}

/// `GetUserWorkspace(workspace)` into `*out`. In the CPU-debug flow (`cpu_debug` ≠ 0) the
/// vendor's library reserves no system part: the user workspace is `workspace` itself, which must
/// not be null. In the device flow it starts the product's system workspace size in.
///
/// # Safety
/// `out` is valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_get_user_workspace(
    ptr: *const u8,
    cpu_debug: u8,
    out: *mut *mut u8,
    loc: AscLoc,
) -> i32 {
    const API: &str = "GetUserWorkspace";
    call(loc, || {
        *out = if cpu_debug == 0 {
            ascendc::get_user_workspace(&lookup(API, ptr)?)?.host_ptr()
        } else if ptr.is_null() {
            return Err(SimError::new(
                Category::Memory,
                API,
                "workspace can not be nullptr (the CPU-debug flow's GetUserWorkspace returns the workspace itself)",
            ));
        } else {
            ptr as *mut u8
        };
        Ok(())
    })
}

/// A false `ASSERT(expr, message…)`: records the block's error and returns 1.
///
/// # Safety
/// `expr` and `message` are NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn ascendc_assert_failed(
    expr: *const c_char,
    message: *const c_char,
    loc: AscLoc,
) -> i32 {
    let expr = CStr::from_ptr(expr).to_string_lossy().into_owned();
    let message = CStr::from_ptr(message).to_string_lossy().into_owned();
    call(loc, || {
        let text = if message.is_empty() {
            format!("assertion `{expr}` failed")
        } else {
            format!("assertion `{expr}` failed: {message}")
        };
        Err(SimError::new(Category::Launch, "ASSERT", text))
    })
}

/// APIs implemented in the headers that report their errors through [`ascendc_api_error`].
const HEADER_APIS: [&str; 2] = ["ListTensorDesc", "TensorDesc"];

/// Records an error of a header-implemented API (`api`: 0 `ListTensorDesc`, 1 `TensorDesc`) and
/// returns 1.
///
/// # Safety
/// `message` is NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn ascendc_api_error(api: u8, message: *const c_char, loc: AscLoc) -> i32 {
    let message = CStr::from_ptr(message).to_string_lossy().into_owned();
    let api = HEADER_APIS.get(api as usize).copied().unwrap_or("kernel");
    call(loc, || Err(SimError::new(Category::Range, api, message)))
}
