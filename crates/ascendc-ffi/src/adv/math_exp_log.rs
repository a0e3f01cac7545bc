//! Exponential, logarithm, power and error-function APIs of the math family. `op` of the
//! element-wise entry and of the host helpers: 0 Log, 1 Log2, 2 Log10, 3 Erf, 4 Erfc (and 5 Exp
//! for the host helpers); `Exp` and `Power` have entries of their own.

use super::{pair, put_pair, with_tmp};
use crate::abi::{call, dtype, AscLoc, AscLocal};
use crate::with_dtype;
use ascendc::adv::math::exp_log::{erf, erfc, exp, log, power, PowerOperand};
use ascendc::chip::Product;
use ascendc::error::SimError;
use ascendc::{Category, Element, LocalTensor, TPipe};

fn name(op: u8) -> &'static str {
    match op {
        0 => "Log",
        1 => "Log2",
        2 => "Log10",
        3 => "Erf",
        4 => "Erfc",
        5 => "Exp",
        _ => "unknown exp/log API",
    }
}

/// `op(dst, src, [tmp,] count)` on elements of type `elem`; `tmp` null takes `pipe`'s stack
/// buffer (Log and Log10 use none).
///
/// # Safety
/// Tensor handles valid; `tmp` null or valid; `pipe` null or from `ascendc_pipe_new`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_exp_log(
    op: u8,
    elem: u8,
    dst: *const AscLocal,
    src: *const AscLocal,
    tmp: *const AscLocal,
    pipe: *const TPipe,
    count: u32,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let api = name(op);
        with_dtype!(dtype(elem)?, T => {
            let (d, s) = pair::<T>(dst, src)?;
            match op {
                0 => log::log(&d, &s, count),
                2 => log::log10(&d, &s, count),
                _ => with_tmp(api, tmp, pipe, |t| match op {
                    1 => log::log2(&d, &s, t, count),
                    3 => erf::erf(&d, &s, t, count),
                    4 => erfc::erfc(&d, &s, t, count),
                    _ => Err(SimError::new(Category::Range, api, format!("op {op}"))),
                }),
            }
        })
    })
}

/// `Exp<T, level, reuse>(dst, src, [tmp,] count)`; `tmp` null takes `pipe`'s stack buffer.
///
/// # Safety
/// Tensor handles valid; `tmp` null or valid; `pipe` null or from `ascendc_pipe_new`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_exp(
    elem: u8,
    level: u8,
    reuse: bool,
    dst: *const AscLocal,
    src: *const AscLocal,
    tmp: *const AscLocal,
    pipe: *const TPipe,
    count: u32,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        with_dtype!(dtype(elem)?, T => {
            let (d, s) = pair::<T>(dst, src)?;
            with_tmp("Exp", tmp, pipe, |t| exp::exp(&d, &s, level, reuse, t, count))
        })
    })
}

/// A `Power` operand: the tensor, or (null) the scalar whose bits are `bits` (the low
/// `sizeof(T)` bytes).
///
/// # Safety
/// `t` null or a valid handle.
unsafe fn operand<T: Element>(t: *const AscLocal, bits: u32) -> Result<Operand<T>, SimError> {
    Ok(match t.as_ref() {
        Some(t) => Operand::Tensor(t.tensor()?),
        None => Operand::Scalar(bytemuck::pod_read_unaligned(&bits.to_le_bytes()[..T::SIZE])),
    })
}

/// An owned [`PowerOperand`].
enum Operand<T> {
    Tensor(LocalTensor<T>),
    Scalar(T),
}

impl<T: Copy> Operand<T> {
    fn get(&self) -> PowerOperand<'_, T> {
        match self {
            Operand::Tensor(t) => PowerOperand::Tensor(t),
            Operand::Scalar(s) => PowerOperand::Scalar(*s),
        }
    }
}

/// `Power<T, reuse>(dst, base, exp, [tmp,] count)`: `base` / `exp` null for a scalar given by
/// `base_bits` / `exp_bits`; `tmp` null takes `pipe`'s stack buffer.
///
/// # Safety
/// Tensor handles valid or null as described; `pipe` null or from `ascendc_pipe_new`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_power(
    elem: u8,
    dst: *const AscLocal,
    base: *const AscLocal,
    base_bits: u32,
    exp: *const AscLocal,
    exp_bits: u32,
    tmp: *const AscLocal,
    pipe: *const TPipe,
    count: u32,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        with_dtype!(dtype(elem)?, T => {
            let d: LocalTensor<T> = (*dst).tensor()?;
            let (b, e) = (operand::<T>(base, base_bits)?, operand::<T>(exp, exp_bits)?);
            with_tmp("Power", tmp, pipe, |t| power::power(&d, b.get(), e.get(), t, count))
        })
    })
}

/// `Get<Api>MaxMinTmpSize` of API `op`: bytes for `elements` elements of `type_size` bytes.
///
/// # Safety
/// `max` and `min` valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_exp_log_tmp_size(
    op: u8,
    elements: u32,
    type_size: u32,
    reuse: bool,
    max: *mut u32,
    min: *mut u32,
) {
    let r = match op {
        1 => log::log2_max_min_tmp_size(elements, type_size),
        3 => erf::erf_max_min_tmp_size(elements, type_size),
        4 => erfc::erfc_max_min_tmp_size(elements, type_size),
        5 => exp::exp_max_min_tmp_size(elements, type_size, reuse),
        _ => log::log_max_min_tmp_size(),
    };
    put_pair(max, min, r);
}

/// `Get<Api>TmpBufferFactorSize` of API `op`.
///
/// # Safety
/// Both pointers valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_exp_log_tmp_factor(
    op: u8,
    type_size: u32,
    live: *mut u32,
    extra: *mut u32,
) {
    let r = match op {
        1 => log::log2_tmp_buffer_factor_size(type_size),
        3 => erf::erf_tmp_buffer_factor_size(type_size),
        4 => erfc::erfc_tmp_buffer_factor_size(type_size),
        5 => exp::exp_tmp_buffer_factor_size(type_size),
        _ => log::log_tmp_buffer_factor_size(),
    };
    put_pair(live, extra, r);
}

/// The product of a host helper's `__NPU_ARCH__` (2201 A2/A3, 2002 310P; others have no Power).
fn product_of(npu_arch: u32) -> Product {
    match npu_arch {
        2201 => Product::Ascend910B,
        2002 => Product::Ascend310P,
        3002 => Product::Ascend310B,
        _ => Product::Ascend910,
    }
}

/// `GetPowerMaxMinTmpSize` on the architecture `npu_arch`: a zero element count marks a scalar
/// (shape `{1}`). 0, or −1 off A2, A3 and 310P (the outputs are then untouched).
///
/// # Safety
/// `max` and `min` valid for writes.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_power_tmp_size(
    npu_arch: u32,
    base_elements: u32,
    exp_elements: u32,
    type_is_int: bool,
    type_size: u32,
    max: *mut u32,
    min: *mut u32,
) -> i32 {
    let shape = |n: u32| (n != 0).then_some(n);
    match power::power_max_min_tmp_size(
        product_of(npu_arch),
        shape(base_elements),
        shape(exp_elements),
        type_is_int,
        type_size,
    ) {
        Ok(r) => {
            put_pair(max, min, r);
            0
        }
        Err(_) => -1,
    }
}

/// `GetPowerTmpBufferFactorSize` on the architecture `npu_arch`: 0, or −1 off A2, A3 and 310P.
///
/// # Safety
/// Both pointers valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_power_tmp_factor(
    npu_arch: u32,
    base_is_tensor: bool,
    exp_is_tensor: bool,
    type_is_int: bool,
    type_size: u32,
    live: *mut u32,
    extra: *mut u32,
) -> i32 {
    match power::power_tmp_buffer_factor_size(
        product_of(npu_arch),
        base_is_tensor,
        exp_is_tensor,
        type_is_int,
        type_size,
    ) {
        Ok(r) => {
            put_pair(live, extra, r);
            0
        }
        Err(_) => -1,
    }
}
