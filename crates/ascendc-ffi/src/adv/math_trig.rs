//! Trigonometric and hyperbolic APIs of the math family. `op`: 0 Sin, 1 Cos, 2 Tan, 3 Atan,
//! 4 Asin, 5 Acos, 6 Sinh, 7 Cosh, 8 Tanh, 9 Asinh, 10 Acosh, 11 Atanh; bit 7 set =
//! `isReuseSource` (Sin and Cos use it).

use super::{pair, put_pair, with_tmp};
use crate::abi::{call, dtype, AscLoc, AscLocal};
use crate::with_dtype;
use ascendc::adv::math::trig::{
    asin_acos, atan, hyperbolic as hyp, inverse_hyperbolic as inv, sin_cos, tan,
};
use ascendc::error::SimError;
use ascendc::TPipe;

/// Bit of `op` carrying `isReuseSource`.
const REUSE: u8 = 0x80;

fn name(op: u8) -> &'static str {
    const NAMES: [&str; 12] = [
        "Sin", "Cos", "Tan", "Atan", "Asin", "Acos", "Sinh", "Cosh", "Tanh", "Asinh", "Acosh",
        "Atanh",
    ];
    NAMES
        .get((op & !REUSE) as usize)
        .copied()
        .unwrap_or("unknown trigonometric API")
}

/// `op(dst, src, [tmp,] count)` on elements of type `elem`; `tmp` null takes `pipe`'s stack
/// buffer.
///
/// # Safety
/// Tensor handles valid; `tmp` null or valid; `pipe` null or from `ascendc_pipe_new`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_trig(
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
        let reuse = op & REUSE != 0;
        with_dtype!(dtype(elem)?, T => {
            let (d, s) = pair::<T>(dst, src)?;
            with_tmp(api, tmp, pipe, |t| match op & !REUSE {
                0 => sin_cos::sin(&d, &s, t, count, reuse),
                1 => sin_cos::cos(&d, &s, t, count, reuse),
                2 => tan::tan(&d, &s, t, count),
                3 => atan::atan(&d, &s, t, count),
                4 => asin_acos::asin(&d, &s, t, count),
                5 => asin_acos::acos(&d, &s, t, count),
                6 => hyp::sinh(&d, &s, t, count),
                7 => hyp::cosh(&d, &s, t, count),
                8 => hyp::tanh(&d, &s, t, count),
                9 => inv::asinh(&d, &s, t, count),
                10 => inv::acosh(&d, &s, t, count),
                11 => inv::atanh(&d, &s, t, count),
                _ => Err(SimError::new(ascendc::Category::Range, api, format!("op {op}"))),
            })
        })
    })
}

/// `Get<Api>MaxMinTmpSize` of API `op`: bytes for `elements` elements of `type_size` bytes.
///
/// # Safety
/// `max` and `min` valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_trig_tmp_size(
    op: u8,
    elements: u32,
    type_size: u32,
    reuse: bool,
    max: *mut u32,
    min: *mut u32,
) {
    let (n, t) = (elements, type_size);
    let r = match op {
        0 | 1 => sin_cos::sin_max_min_tmp_size(n, t, reuse),
        2 => tan::tan_max_min_tmp_size(n, t),
        3 => atan::atan_max_min_tmp_size(n, t),
        4 | 5 => asin_acos::asin_max_min_tmp_size(n, t),
        6 | 8 => hyp::sinh_max_min_tmp_size(n, t),
        7 => hyp::cosh_max_min_tmp_size(n, t),
        9 => inv::asinh_max_min_tmp_size(n, t),
        10 => inv::acosh_max_min_tmp_size(n, t),
        _ => inv::atanh_max_min_tmp_size(n, t),
    };
    put_pair(max, min, r);
}

/// `Get<Api>TmpBufferFactorSize` of API `op`.
///
/// # Safety
/// Both pointers valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_trig_tmp_factor(
    op: u8,
    type_size: u32,
    live: *mut u32,
    extra: *mut u32,
) {
    let t = type_size;
    let r = match op {
        0 | 1 => sin_cos::sin_tmp_buffer_factor_size(t),
        2 => tan::tan_tmp_buffer_factor_size(t),
        3 => atan::atan_tmp_buffer_factor_size(t),
        4 | 5 => asin_acos::asin_tmp_buffer_factor_size(t),
        6 | 8 => hyp::sinh_tmp_buffer_factor_size(t),
        7 => hyp::cosh_tmp_buffer_factor_size(t),
        9 => inv::asinh_tmp_buffer_factor_size(t),
        10 => inv::acosh_tmp_buffer_factor_size(t),
        _ => inv::atanh_tmp_buffer_factor_size(t),
    };
    put_pair(live, extra, r);
}
