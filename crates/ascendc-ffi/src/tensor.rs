//! `LocalTensor` / `GlobalTensor` element access and views.

use crate::abi::{call, dtype, AscGlobal, AscLoc, AscLocal};
use crate::gm::{global, with_global};
use crate::with_tensor_dtype;
use std::ffi::c_void;

/// `LocalTensor::operator[](offset)`: the view `offset` elements in.
///
/// # Safety
/// `t` is valid for reads and `out` for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_local_at(
    elem: u8,
    t: *const AscLocal,
    offset: u32,
    out: *mut AscLocal,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        with_tensor_dtype!(dtype(elem)?, T => {
            *out = AscLocal::of(&(*t).tensor::<T>()?.at(offset)?);
            Ok(())
        })
    })
}

/// `LocalTensor::SetSize(n)`.
///
/// # Safety
/// `t` is valid for reads and writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_local_set_size(
    elem: u8,
    t: *mut AscLocal,
    n: u32,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        with_tensor_dtype!(dtype(elem)?, T => {
            let mut l = (*t).tensor::<T>()?;
            l.set_size(n)?;
            *t = AscLocal::of(&l);
            Ok(())
        })
    })
}

/// `LocalTensor::GetValue(i)` into `*value` (`set` = 0) or `SetValue(i, *value)` (`set` = 1).
///
/// # Safety
/// `t` is valid for reads; `value` points to one element of the tensor's type.
#[no_mangle]
pub unsafe extern "C" fn ascendc_local_value(
    elem: u8,
    t: *const AscLocal,
    i: u32,
    set: u8,
    value: *mut c_void,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        with_tensor_dtype!(dtype(elem)?, T => {
            let l = (*t).tensor::<T>()?;
            let v = value as *mut T;
            if set == 0 {
                v.write_unaligned(l.get_value(i)?);
                Ok(())
            } else {
                l.set_value(i, v.read_unaligned())
            }
        })
    })
}

/// `GlobalTensor::GetValue(i)` into `*value` (`set` = 0) or `SetValue(i, *value)` (`set` = 1).
///
/// # Safety
/// `g` is valid for reads; `value` points to one element of the tensor's type.
#[no_mangle]
pub unsafe extern "C" fn ascendc_global_value(
    elem: u8,
    g: *const AscGlobal,
    i: u64,
    set: u8,
    value: *mut c_void,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        with_tensor_dtype!(dtype(elem)?, T => {
            let api = if set == 0 { "GlobalTensor::GetValue" } else { "GlobalTensor::SetValue" };
            let t = global::<T>(api, &*g)?;
            let v = value as *mut T;
            if set == 0 {
                v.write_unaligned(t.get_value(i)?);
                Ok(())
            } else {
                t.set_value(i, v.read_unaligned())
            }
        })
    })
}

/// `GlobalTensor::operator[](offset)` checked on the simulator (the C++ side asks for `int4b_t`):
/// the view must start on a byte and inside its allocation; `out` gets its host address.
///
/// # Safety
/// `g` is valid for reads and `out` for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_global_at(
    elem: u8,
    g: *const AscGlobal,
    offset: u64,
    out: *mut *const u8,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        with_tensor_dtype!(dtype(elem)?, T => {
            with_global("GlobalTensor::operator[]", &*g, |t: &ascendc::GlobalTensor<T>| t.at(offset))?;
            *out = (*g).ptr.add(<T as ascendc::TensorElement>::bytes(offset) as usize);
            Ok(())
        })
    })
}
