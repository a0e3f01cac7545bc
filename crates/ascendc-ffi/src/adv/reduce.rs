//! The reduce family's C ABI: `Sum`/`Mean` (`ascendc_adv_sum`, `op` 0 Sum, 1 Mean), the
//! patterned reductions (`ascendc_adv_reduce`, `op` 0 ReduceMax, 1 ReduceMin, 2 ReduceSum,
//! 3 ReduceMean, 4 ReduceProd, 5 ReduceAny, 6 ReduceAll), `ReduceXorSum` and their host
//! helpers.

use super::{put_pair, with_tmp};
use crate::abi::{call, dtype, AscLoc, AscLocal};
use crate::with_dtype;
use ascendc::adv::reduce::logical::{
    reduce_any_all_max_min_tmp_size, reduce_prod_max_min_tmp_size,
};
use ascendc::adv::reduce::mean::{mean_max_min_tmp_size, mean_tmp_buffer_factor_size};
use ascendc::adv::reduce::patterned::{
    reduce_max_max_min_tmp_size, reduce_min_max_min_tmp_size, reduce_sum_max_min_tmp_size,
};
use ascendc::adv::reduce::sum::sum_max_min_tmp_size;
use ascendc::adv::reduce::xor_sum::reduce_xor_sum_max_min_tmp_size;
use ascendc::adv::reduce::{
    mean, reduce_all, reduce_any, reduce_max, reduce_mean, reduce_min, reduce_prod, reduce_sum,
    reduce_xor_sum, sum, ReducePattern, SumParams,
};
use ascendc::error::SimError;
use ascendc::{f16, DType, LocalTensor, TPipe};

fn pattern(p: u8) -> ReducePattern {
    if p == 0 {
        ReducePattern::AR
    } else {
        ReducePattern::RA
    }
}

/// `Sum` (`op` 0) or `Mean<T, accType>` (`op` 1) of `outter` rows of `inner` elements (`n`
/// reduced); `acc` the element code of `accType`. `tmp` null takes `pipe`'s stack buffer.
///
/// # Safety
/// Tensor handles valid; `tmp` null or valid; `pipe` null or from `ascendc_pipe_new`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_sum(
    op: u8,
    elem: u8,
    acc: u8,
    dst: *const AscLocal,
    src: *const AscLocal,
    tmp: *const AscLocal,
    pipe: *const TPipe,
    outter: u32,
    inner: u32,
    n: u32,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let api = if op == 0 { "Sum" } else { "Mean" };
        let params = SumParams { outter, inner, n };
        with_dtype!(dtype(elem)?, T => {
            let d: LocalTensor<T> = (*dst).tensor()?;
            let s: LocalTensor<T> = (*src).tensor()?;
            with_tmp(api, tmp, pipe, |t| {
                if op == 0 {
                    sum(&d, &s, t, params)
                } else if dtype(acc)? == DType::Float {
                    mean::<T, f32>(&d, &s, t, params)
                } else if dtype(acc)? == DType::Half {
                    mean::<T, f16>(&d, &s, t, params)
                } else {
                    Err(SimError::new(ascendc::Category::Type, api, "accType must be half or float"))
                }
            })
        })
    })
}

/// A patterned reduction `op` of a `[first, last]` source with pattern `pat` (0 AR, 1 RA).
///
/// # Safety
/// Tensor handles valid; `tmp` null or valid; `pipe` null or from `ascendc_pipe_new`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_reduce(
    op: u8,
    elem: u8,
    pat: u8,
    reuse: bool,
    dst: *const AscLocal,
    src: *const AscLocal,
    tmp: *const AscLocal,
    pipe: *const TPipe,
    first: u32,
    last: u32,
    inner_pad: bool,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let api = [
            "ReduceMax",
            "ReduceMin",
            "ReduceSum",
            "ReduceMean",
            "ReduceProd",
            "ReduceAny",
            "ReduceAll",
        ][op.min(6) as usize];
        let shape = [first, last];
        with_dtype!(dtype(elem)?, T => {
            let d: LocalTensor<T> = (*dst).tensor()?;
            let s: LocalTensor<T> = (*src).tensor()?;
            with_tmp(api, tmp, pipe, |t| {
                let p = pattern(pat);
                match op {
                    0 => reduce_max(&d, &s, t, p, reuse, shape, inner_pad),
                    1 => reduce_min(&d, &s, t, p, reuse, shape, inner_pad),
                    2 => reduce_sum(&d, &s, t, p, reuse, shape, inner_pad),
                    3 => reduce_mean(&d, &s, t, p, reuse, shape, inner_pad),
                    4 => reduce_prod(&d, &s, t, p, reuse, shape, inner_pad),
                    5 => reduce_any(&d, &s, t, p, reuse, shape, inner_pad),
                    _ => reduce_all(&d, &s, t, p, reuse, shape, inner_pad),
                }
            })
        })
    })
}

/// `GetSumMaxMinTmpSize(n, typeSize, isReuseSource, maxValue, minValue)`.
///
/// # Safety
/// Both pointers valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_sum_tmp_size(
    n: u32,
    type_size: u32,
    max: *mut u32,
    min: *mut u32,
) {
    put_pair(max, min, sum_max_min_tmp_size(n, type_size));
}

/// `GetMeanMaxMinTmpSize(n, srcTypeSize, accTypeSize, isReuseSource, maxSize, minSize)`.
///
/// # Safety
/// Both pointers valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_mean_tmp_size(
    n: u32,
    src_type_size: u32,
    acc_type_size: u32,
    max: *mut u32,
    min: *mut u32,
) {
    put_pair(
        max,
        min,
        mean_max_min_tmp_size(n, src_type_size, acc_type_size),
    );
}

/// `GetMeanTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuffer)`.
///
/// # Safety
/// Both pointers valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_mean_tmp_factor(
    type_size: u32,
    live: *mut u32,
    extra: *mut u32,
) {
    put_pair(live, extra, mean_tmp_buffer_factor_size(type_size));
}

/// `GetReduce{Max,Min,Sum,Mean}MaxMinTmpSize` (`op` as in [`ascendc_adv_reduce`]) of a
/// `[first, last]` source of `type_size`-byte elements.
///
/// # Safety
/// Both pointers valid for writes.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_reduce_tmp_size(
    op: u8,
    first: u32,
    last: u32,
    type_size: u32,
    pat: u8,
    reuse: bool,
    max: *mut u32,
    min: *mut u32,
) {
    let (shape, p) = ([first, last], pattern(pat));
    let r = match op {
        0 => reduce_max_max_min_tmp_size(shape, type_size, p, reuse),
        1 => reduce_min_max_min_tmp_size(shape, type_size, p, reuse),
        4 => reduce_prod_max_min_tmp_size(shape, p, reuse),
        5 | 6 => reduce_any_all_max_min_tmp_size(shape, type_size, p, reuse),
        _ => reduce_sum_max_min_tmp_size(shape, p, reuse),
    };
    put_pair(max, min, r);
}

/// `ReduceXorSum<T, isReuseSource>(dst, src0, src1, [tmp,] calCount)` on elements of type
/// `elem`. `tmp` null takes `pipe`'s stack buffer.
///
/// # Safety
/// Tensor handles valid; `tmp` null or valid; `pipe` null or from `ascendc_pipe_new`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_reduce_xor_sum(
    elem: u8,
    reuse: bool,
    dst: *const AscLocal,
    src0: *const AscLocal,
    src1: *const AscLocal,
    tmp: *const AscLocal,
    pipe: *const TPipe,
    count: u32,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        with_dtype!(dtype(elem)?, T => {
            let d: LocalTensor<T> = (*dst).tensor()?;
            let a: LocalTensor<T> = (*src0).tensor()?;
            let b: LocalTensor<T> = (*src1).tensor()?;
            with_tmp("ReduceXorSum", tmp, pipe, |t| reduce_xor_sum(&d, &a, &b, t, reuse, count))
        })
    })
}

/// `GetReduceXorSumMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue)` for
/// `n` elements.
///
/// # Safety
/// Both pointers valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_reduce_xor_sum_tmp_size(
    n: u32,
    type_size: u32,
    reuse: bool,
    max: *mut u32,
    min: *mut u32,
) {
    put_pair(
        max,
        min,
        reduce_xor_sum_max_min_tmp_size(n, type_size, reuse),
    );
}
