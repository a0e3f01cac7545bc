//! Rounding, sign and remainder APIs of the math family. `op` numbers the APIs for every entry:
//! 0 Floor, 1 Ceil, 2 Trunc, 3 Round, 4 Frac, 5 Sign (unary), 6 Fmod, 7 Xor (binary),
//! 8 ClampMax, 9 ClampMin (tensor and scalar), 10 Axpy; CumSum has its own entries.

use super::{pair, put_pair, with_tmp};
use crate::abi::{call, dtype, AscLoc, AscLocal};
use crate::with_dtype;
use ascendc::adv::math::round::cumsum::{self, CumSumConfig, CumSumInfo};
use ascendc::adv::math::round::{axpy, ceil, clamp, floor, fmod, frac, nearest, sign, xor};
use ascendc::adv::math::Tmp;
use ascendc::error::SimError;
use ascendc::{f16, Category, DType, LocalTensor, Product, TPipe};

fn name(op: u8) -> &'static str {
    match op {
        0 => "Floor",
        1 => "Ceil",
        2 => "Trunc",
        3 => "Round",
        4 => "Frac",
        5 => "Sign",
        6 => "Fmod",
        7 => "Xor",
        8 => "ClampMax",
        9 => "ClampMin",
        10 => "Axpy",
        _ => "unknown rounding API",
    }
}

fn bad_op(op: u8) -> SimError {
    SimError::new(Category::Range, name(op), format!("op {op}"))
}

/// `op(dst, src, [tmp,] count)` for the unary APIs (0–5) on elements of type `elem`; `tmp`
/// null takes `pipe`'s stack buffer.
///
/// # Safety
/// Tensor handles valid; `tmp` null or valid; `pipe` null or from `ascendc_pipe_new`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_round(
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
            with_tmp(api, tmp, pipe, |t| match op {
                0 => floor::floor(&d, &s, t, count),
                1 => ceil::ceil(&d, &s, t, count),
                2 => ceil::trunc(&d, &s, t, count),
                3 => nearest::round(&d, &s, t, count),
                4 => frac::frac(&d, &s, t, count),
                5 => sign::sign(&d, &s, t, count),
                _ => Err(bad_op(op)),
            })
        })
    })
}

/// `op(dst, src0, src1, [tmp,] count)` for the binary APIs (6 Fmod, 7 Xor).
///
/// # Safety
/// Tensor handles valid; `tmp` null or valid; `pipe` null or from `ascendc_pipe_new`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_round_binary(
    op: u8,
    elem: u8,
    dst: *const AscLocal,
    src0: *const AscLocal,
    src1: *const AscLocal,
    tmp: *const AscLocal,
    pipe: *const TPipe,
    count: u32,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let api = name(op);
        with_dtype!(dtype(elem)?, T => {
            let (d, a) = pair::<T>(dst, src0)?;
            let b: LocalTensor<T> = (*src1).tensor()?;
            with_tmp(api, tmp, pipe, |t| match op {
                6 => fmod::fmod(&d, &a, &b, t, count),
                7 => xor::xor(&d, &a, &b, t, count),
                _ => Err(bad_op(op)),
            })
        })
    })
}

/// `op(dst, src, [tmp,] scalar, count)` for 8 ClampMax and 9 ClampMin; `scalar` as float
/// (exact for half and float).
///
/// # Safety
/// Tensor handles valid; `tmp` null or valid; `pipe` null or from `ascendc_pipe_new`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_round_clamp(
    op: u8,
    elem: u8,
    dst: *const AscLocal,
    src: *const AscLocal,
    tmp: *const AscLocal,
    pipe: *const TPipe,
    scalar: f32,
    count: u32,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let api = name(op);
        if !(8..=9).contains(&op) {
            return Err(bad_op(op));
        }
        with_tmp(api, tmp, pipe, |t: Tmp| match dtype(elem)? {
            DType::Half => {
                let (d, s) = pair::<f16>(dst, src)?;
                let v = f16::from_f32(scalar);
                match op {
                    8 => clamp::clamp_max(&d, &s, t, v, count),
                    _ => clamp::clamp_min(&d, &s, t, v, count),
                }
            }
            DType::Float => {
                let (d, s) = pair::<f32>(dst, src)?;
                match op {
                    8 => clamp::clamp_max(&d, &s, t, scalar, count),
                    _ => clamp::clamp_min(&d, &s, t, scalar, count),
                }
            }
            other => Err(SimError::new(
                Category::Type,
                api,
                format!("T = {other} is not supported: {api} takes half or float"),
            )),
        })
    })
}

/// `Axpy(dst, src, scalar, tmp, count)` with destination type `dst_elem` and source type
/// `src_elem`; `scalar` as float (exact for half and float).
///
/// # Safety
/// Tensor handles valid; `tmp` null or valid; `pipe` null or from `ascendc_pipe_new`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_axpy(
    dst_elem: u8,
    src_elem: u8,
    dst: *const AscLocal,
    src: *const AscLocal,
    scalar: f32,
    tmp: *const AscLocal,
    pipe: *const TPipe,
    count: u32,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        with_tmp("Axpy", tmp, pipe, |t| {
            match (dtype(dst_elem)?, dtype(src_elem)?) {
                (DType::Half, DType::Half) => {
                    let (d, s) = pair::<f16>(dst, src)?;
                    axpy::axpy(&d, &s, f16::from_f32(scalar), t, count)
                }
                (DType::Float, DType::Half) => {
                    let d: LocalTensor<f32> = (*dst).tensor()?;
                    let s: LocalTensor<f16> = (*src).tensor()?;
                    axpy::axpy(&d, &s, f16::from_f32(scalar), t, count)
                }
                (DType::Float, DType::Float) => {
                    let (d, s) = pair::<f32>(dst, src)?;
                    axpy::axpy(&d, &s, scalar, t, count)
                }
                (a, b) => Err(SimError::new(
                    Category::Type,
                    "Axpy",
                    format!("(T, U) = ({a}, {b}) is not supported: Axpy takes (half, half), (float, float) or (float, half)"),
                )),
            }
        })
    })
}

/// `Get<Api>MaxMinTmpSize` of API `op` (all but Round): bytes for `elements` elements of
/// `type_size` bytes.
///
/// # Safety
/// `max` and `min` valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_round_tmp_size(
    op: u8,
    elements: u32,
    type_size: u32,
    _reuse: bool,
    max: *mut u32,
    min: *mut u32,
) {
    let r = match op {
        0 => floor::floor_max_min_tmp_size(elements, type_size),
        1 => ceil::ceil_max_min_tmp_size(elements, type_size),
        2 => ceil::trunc_max_min_tmp_size(elements, type_size),
        4 => frac::frac_max_min_tmp_size(elements, type_size),
        5 => sign::sign_max_min_tmp_size(elements, type_size),
        6 => fmod::fmod_max_min_tmp_size(elements, type_size),
        7 => xor::xor_max_min_tmp_size(elements, type_size),
        8 | 9 => clamp::clamp_max_min_tmp_size(elements, type_size),
        _ => axpy::axpy_max_min_tmp_size(elements, type_size),
    };
    put_pair(max, min, r);
}

/// `Get<Api>TmpBufferFactorSize` of API `op` (all but Round).
///
/// # Safety
/// Both pointers valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_round_tmp_factor(
    op: u8,
    type_size: u32,
    live: *mut u32,
    extra: *mut u32,
) {
    let r = match op {
        0 => floor::floor_tmp_buffer_factor_size(type_size),
        1 => ceil::ceil_tmp_buffer_factor_size(type_size),
        2 => ceil::trunc_tmp_buffer_factor_size(type_size),
        4 => frac::frac_tmp_buffer_factor_size(type_size),
        5 => sign::sign_tmp_buffer_factor_size(type_size),
        6 => fmod::fmod_tmp_buffer_factor_size(type_size),
        7 => xor::xor_tmp_buffer_factor_size(type_size),
        8 | 9 => clamp::clamp_tmp_buffer_factor_size(type_size),
        _ => axpy::axpy_tmp_buffer_factor_size(type_size),
    };
    put_pair(live, extra, r);
}

/// The product of `PlatformAscendC::GetCurNpuArch` (2002: 310P; otherwise A2/A3).
fn arch_product(npu_arch: u32) -> Product {
    if npu_arch == 2002 {
        Product::Ascend310P
    } else {
        Product::Ascend910B
    }
}

/// `GetRoundMaxMinTmpSize(platform, …)` for the platform's `npu_arch`.
///
/// # Safety
/// `max` and `min` valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_round_round_tmp_size(
    npu_arch: u32,
    elements: u32,
    type_size: u32,
    max: *mut u32,
    min: *mut u32,
) {
    let r = nearest::round_max_min_tmp_size(arch_product(npu_arch), elements, type_size);
    put_pair(max, min, r);
}

/// `GetRoundTmpBufferFactorSize(platform, …)` for the platform's `npu_arch`.
///
/// # Safety
/// Both pointers valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_round_round_tmp_factor(
    npu_arch: u32,
    type_size: u32,
    live: *mut u32,
    extra: *mut u32,
) {
    let r = nearest::round_tmp_buffer_factor_size(arch_product(npu_arch), type_size);
    put_pair(live, extra, r);
}

/// `CumSum<T, config>(dst, lastRow, src, [tmp,] {outter, inner})` on elements of type `elem`.
///
/// # Safety
/// Tensor handles valid; `tmp` null or valid; `pipe` null or from `ascendc_pipe_new`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_cumsum(
    elem: u8,
    dst: *const AscLocal,
    last_row: *const AscLocal,
    src: *const AscLocal,
    tmp: *const AscLocal,
    pipe: *const TPipe,
    outter: u32,
    inner: u32,
    is_last_axis: bool,
    output_last_row: bool,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let info = CumSumInfo { outter, inner };
        let config = CumSumConfig {
            is_last_axis,
            is_reuse_source: false,
            output_last_row,
        };
        with_dtype!(dtype(elem)?, T => {
            let (d, s) = pair::<T>(dst, src)?;
            let l: LocalTensor<T> = (*last_row).tensor()?;
            with_tmp("CumSum", tmp, pipe, |t| cumsum::cum_sum(&d, &l, &s, t, info, config))
        })
    })
}

/// `GetCumSumMaxMinTmpSize` for a `[outter, inner]` shape.
///
/// # Safety
/// `max` and `min` valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_cumsum_tmp_size(
    outter: u32,
    inner: u32,
    type_size: u32,
    is_last_axis: bool,
    max: *mut u32,
    min: *mut u32,
) {
    put_pair(
        max,
        min,
        cumsum::cum_sum_max_min_tmp_size(outter, inner, type_size, is_last_axis),
    );
}
