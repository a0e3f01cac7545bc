//! The C ABI of the normalization statistics APIs: `WelfordUpdate`, `WelfordFinalize`,
//! `BatchNorm`, `GroupNorm`, and their host helpers.

use super::with_tmp;
use crate::abi::{call, dtype, AscLoc, AscLocal};
use ascendc::adv::normalization::welford::{
    welford_finalize, welford_finalize_max_min_tmp_size, welford_update,
    welford_update_max_min_tmp_size, WelfordFinalizePara, WelfordUpdateParam,
};
use ascendc::error::SimError;
use ascendc::{f16, Category, DType, LocalTensor, TPipe};

/// A shape passed as `rank` dimensions at `dims` (each cut to 32 bits, as the vendor's host
/// helpers read them).
///
/// # Safety
/// `dims` valid for `rank` reads.
pub(crate) unsafe fn shape(dims: *const i64, rank: u32) -> Vec<u32> {
    if dims.is_null() {
        return Vec::new();
    }
    std::slice::from_raw_parts(dims, rank as usize)
        .iter()
        .map(|&d| d as u32)
        .collect()
}

/// Writes `(max, min)` and returns true, or false for `None`.
///
/// # Safety
/// `max`, `min` valid for writes.
pub(crate) unsafe fn put_sizes(r: Option<(u32, u32)>, max: *mut u32, min: *mut u32) -> bool {
    match r {
        Some((hi, lo)) => {
            *max = hi;
            *min = lo;
            true
        }
        None => false,
    }
}

fn half_or_float(api: &'static str, elem: u8) -> Result<bool, SimError> {
    match dtype(elem)? {
        DType::Half => Ok(true),
        DType::Float => Ok(false),
        other => Err(SimError::new(
            Category::Type,
            api,
            format!("T = {other} is not supported: {api} takes half or float"),
        )),
    }
}

/// `WelfordUpdate<T, float, isReuseSource, {isInplace}>(…)` with `inputX` of type `elem`
/// (half or float); `tmp` null takes `pipe`'s stack.
///
/// # Safety
/// Tensor handles valid; `tmp` null or valid; `pipe` null or from `ascendc_pipe_new`; `para`
/// points to a `WelfordUpdateParam`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_welford_update(
    elem: u8,
    reuse_source: bool,
    inplace: bool,
    out_mean: *const AscLocal,
    out_var: *const AscLocal,
    in_mean: *const AscLocal,
    in_var: *const AscLocal,
    x: *const AscLocal,
    tmp: *const AscLocal,
    pipe: *const TPipe,
    para: *const WelfordUpdateParam,
    loc: AscLoc,
) -> i32 {
    const API: &str = "WelfordUpdate";
    call(loc, || {
        let para = para.read_unaligned();
        let (om, ov, im, iv): (
            LocalTensor<f32>,
            LocalTensor<f32>,
            LocalTensor<f32>,
            LocalTensor<f32>,
        ) = (
            (*out_mean).tensor()?,
            (*out_var).tensor()?,
            (*in_mean).tensor()?,
            (*in_var).tensor()?,
        );
        if half_or_float(API, elem)? {
            let x: LocalTensor<f16> = (*x).tensor()?;
            with_tmp(API, tmp, pipe, |t| {
                welford_update(&om, &ov, &im, &iv, &x, t, &para, reuse_source, inplace)
            })
        } else {
            let x: LocalTensor<f32> = (*x).tensor()?;
            with_tmp(API, tmp, pipe, |t| {
                welford_update(&om, &ov, &im, &iv, &x, t, &para, reuse_source, inplace)
            })
        }
    })
}

/// `GetWelfordUpdateMaxMinTmpSize`: false for a shape of another rank than 2.
///
/// # Safety
/// `dims` valid for `rank` reads; `max`, `min` valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_welford_update_tmp_size(
    dims: *const i64,
    rank: u32,
    type_size_t: u32,
    reuse_source: bool,
    max: *mut u32,
    min: *mut u32,
) -> bool {
    let r = welford_update_max_min_tmp_size(&shape(dims, rank), type_size_t, reuse_source);
    put_sizes(r, max, min)
}

/// `WelfordFinalize<isReuseSource>(…)`; `counts` null for the form without it, `tmp` null takes
/// `pipe`'s stack.
///
/// # Safety
/// Tensor handles valid; `counts`, `tmp` null or valid; `pipe` null or from
/// `ascendc_pipe_new`; `para` points to a `WelfordFinalizePara`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_welford_finalize(
    out_mean: *const AscLocal,
    out_var: *const AscLocal,
    in_mean: *const AscLocal,
    in_var: *const AscLocal,
    counts: *const AscLocal,
    tmp: *const AscLocal,
    pipe: *const TPipe,
    para: *const WelfordFinalizePara,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let para = para.read_unaligned();
        let (om, ov, im, iv): (
            LocalTensor<f32>,
            LocalTensor<f32>,
            LocalTensor<f32>,
            LocalTensor<f32>,
        ) = (
            (*out_mean).tensor()?,
            (*out_var).tensor()?,
            (*in_mean).tensor()?,
            (*in_var).tensor()?,
        );
        let c: Option<LocalTensor<i32>> = match counts.as_ref() {
            Some(c) => Some(c.tensor()?),
            None => None,
        };
        with_tmp("WelfordFinalize", tmp, pipe, |t| {
            welford_finalize(&om, &ov, &im, &iv, c.as_ref(), t, &para)
        })
    })
}

/// `GetWelfordFinalizeMaxMinTmpSize`: false for a shape of another rank than 1 or a length not
/// a non-zero multiple of 8.
///
/// # Safety
/// `dims` valid for `rank` reads; `max`, `min` valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_welford_finalize_tmp_size(
    dims: *const i64,
    rank: u32,
    max: *mut u32,
    min: *mut u32,
) -> bool {
    put_sizes(
        welford_finalize_max_min_tmp_size(&shape(dims, rank)),
        max,
        min,
    )
}
