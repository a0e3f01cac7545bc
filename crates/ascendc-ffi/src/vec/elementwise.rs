//! Two-source, one-source and tensor-scalar instructions.

use super::{unknown, unsupported, with_tensors, AscMask, AscRepeat, Level};
use crate::abi::{call, dtype, AscLoc, AscLocal};
use crate::with_dtype;
use ascendc::api::vec::binary::*;
use ascendc::api::vec::scalar::*;
use ascendc::api::vec::unary::*;
use ascendc::error::SimError;
use ascendc::numeric::{Arith, BitArith, FloatArith};
use ascendc::{f16, DType, LocalTensor};
use std::ffi::c_void;

type Three<'a, T> = [&'a LocalTensor<T>; 3];
type Two<'a, T> = [&'a LocalTensor<T>; 2];

fn binary_arith<T: Arith>(op: u8, [d, a, b]: Three<'_, T>, l: Level) -> Result<(), SimError> {
    match op {
        0 => level!(l, add, add_l0, binary, (d, a, b)),
        1 => level!(l, sub, sub_l0, binary, (d, a, b)),
        2 => level!(l, mul, mul_l0, binary, (d, a, b)),
        4 => level!(l, max, max_l0, binary, (d, a, b)),
        5 => level!(l, min, min_l0, binary, (d, a, b)),
        8 => level!(l, add_relu, add_relu_l0, binary, (d, a, b)),
        9 => level!(l, sub_relu, sub_relu_l0, binary, (d, a, b)),
        _ => Err(unknown("two-source", op)),
    }
}

fn binary_float<T: FloatArith>([d, a, b]: Three<'_, T>, l: Level) -> Result<(), SimError> {
    level!(l, div, div_l0, binary, (d, a, b))
}

fn binary_bits<T: BitArith>(op: u8, [d, a, b]: Three<'_, T>, l: Level) -> Result<(), SimError> {
    match op {
        6 => level!(l, and, and_l0, binary, (d, a, b)),
        _ => level!(l, or, or_l0, binary, (d, a, b)),
    }
}

/// Two-source instruction `op`: 0 Add, 1 Sub, 2 Mul, 3 Div, 4 Max, 5 Min, 6 And, 7 Or,
/// 8 AddRelu, 9 SubRelu. Level 2 when `mask` and `params` are null.
///
/// # Safety
/// The tensor pointers are valid for reads; `mask` and `params` are both null or both valid.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_vec_binary(
    op: u8,
    elem: u8,
    dst: *const AscLocal,
    src0: *const AscLocal,
    src1: *const AscLocal,
    count: i32,
    mask: *const AscMask,
    repeat: u8,
    params: *const AscRepeat,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let l = Level::of(count, mask, repeat, params);
        let t = dtype(elem)?;
        let raw = [dst, src0, src1];
        match op {
            3 => with_float!(t, "Div", T => with_tensors(raw, |ts| binary_float::<T>(ts, l))),
            6 | 7 => {
                with_bits!(t, if op == 6 { "And" } else { "Or" }, T => with_tensors(raw, |ts| binary_bits::<T>(op, ts, l)))
            }
            _ => with_dtype!(t, T => with_tensors(raw, |ts| binary_arith::<T>(op, ts, l))),
        }
    })
}

fn unary_arith<T: Arith>(op: u8, [d, s]: Two<'_, T>, l: Level) -> Result<(), SimError> {
    match op {
        5 => level!(l, abs, abs_l0, unary, (d, s)),
        _ => level!(l, relu, relu_l0, unary, (d, s)),
    }
}

fn unary_float<T: FloatArith>(op: u8, [d, s]: Two<'_, T>, l: Level) -> Result<(), SimError> {
    match op {
        0 => level!(l, exp, exp_l0, unary, (d, s)),
        1 => level!(l, ln, ln_l0, unary, (d, s)),
        2 => level!(l, sqrt, sqrt_l0, unary, (d, s)),
        3 => level!(l, rsqrt, rsqrt_l0, unary, (d, s)),
        _ => level!(l, reciprocal, reciprocal_l0, unary, (d, s)),
    }
}

fn unary_bits<T: BitArith>([d, s]: Two<'_, T>, l: Level) -> Result<(), SimError> {
    level!(l, not, not_l0, unary, (d, s))
}

const UNARY_NAMES: [&str; 8] = [
    "Exp",
    "Ln",
    "Sqrt",
    "Rsqrt",
    "Reciprocal",
    "Abs",
    "Relu",
    "Not",
];

/// One-source instruction `op`: 0 Exp, 1 Ln, 2 Sqrt, 3 Rsqrt, 4 Reciprocal, 5 Abs, 6 Relu, 7 Not.
///
/// # Safety
/// As [`ascendc_vec_binary`].
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_vec_unary(
    op: u8,
    elem: u8,
    dst: *const AscLocal,
    src: *const AscLocal,
    count: i32,
    mask: *const AscMask,
    repeat: u8,
    params: *const AscRepeat,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let l = Level::of(count, mask, repeat, params);
        let t = dtype(elem)?;
        let api = *UNARY_NAMES
            .get(op as usize)
            .ok_or_else(|| unknown("one-source", op))?;
        match op {
            0..=4 => {
                with_float!(t, api, T => with_tensors([dst, src], |ts| unary_float::<T>(op, ts, l)))
            }
            7 => with_bits!(t, api, T => with_tensors([dst, src], |ts| unary_bits::<T>(ts, l))),
            _ => with_dtype!(t, T => with_tensors([dst, src], |ts| unary_arith::<T>(op, ts, l))),
        }
    })
}

fn scalar_arith<T: Arith>(op: u8, [d, s]: Two<'_, T>, v: T, l: Level) -> Result<(), SimError> {
    match op {
        0 => level!(l, adds, adds_l0, unary, (d, s, v)),
        1 => level!(l, muls, muls_l0, unary, (d, s, v)),
        2 => level!(l, maxs, maxs_l0, unary, (d, s, v)),
        3 => level!(l, mins, mins_l0, unary, (d, s, v)),
        _ => level!(l, leaky_relu, leaky_relu_l0, unary, (d, s, v)),
    }
}

fn scalar_bits<T: BitArith>(op: u8, [d, s]: Two<'_, T>, v: T, l: Level) -> Result<(), SimError> {
    match op {
        5 => level!(l, shift_left, shift_left_l0, unary, (d, s, v)),
        _ => match l {
            Level::Count(n) => shift_right(d, s, v, n),
            Level::L0(m, r, p) => shift_right_l0(d, s, v, m, r, p.unary(), op == 7),
        },
    }
}

/// Tensor-scalar instruction `op`: 0 Adds, 1 Muls, 2 Maxs, 3 Mins, 4 LeakyRelu, 5 ShiftLeft,
/// 6 ShiftRight, 7 ShiftRight with `roundEn` (level 0); `scalar` points to one element.
///
/// # Safety
/// As [`ascendc_vec_binary`]; `scalar` is valid for a read of one element.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_vec_scalar(
    op: u8,
    elem: u8,
    dst: *const AscLocal,
    src: *const AscLocal,
    scalar: *const c_void,
    count: i32,
    mask: *const AscMask,
    repeat: u8,
    params: *const AscRepeat,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let l = Level::of(count, mask, repeat, params);
        let t = dtype(elem)?;
        match op {
            5..=7 => {
                let api = if op == 5 { "ShiftLeft" } else { "ShiftRight" };
                with_bits!(t, api, T => with_tensors([dst, src], |ts| scalar_bits::<T>(op, ts, (scalar as *const T).read_unaligned(), l)))
            }
            _ => {
                with_dtype!(t, T => with_tensors([dst, src], |ts| scalar_arith::<T>(op, ts, (scalar as *const T).read_unaligned(), l)))
            }
        }
    })
}
