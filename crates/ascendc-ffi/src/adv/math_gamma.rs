//! Gamma-function APIs of the math family. `op`: 0 Digamma, 1 Lgamma; bit 7 set =
//! `isReuseSource`.

use super::{pair, put_pair, with_tmp};
use crate::abi::{call, dtype, AscLoc, AscLocal};
use crate::with_dtype;
use ascendc::adv::math::gamma::{digamma, lgamma};
use ascendc::error::SimError;
use ascendc::TPipe;

/// Bit of `op` carrying `isReuseSource`.
const REUSE: u8 = 0x80;

fn name(op: u8) -> &'static str {
    match op & !REUSE {
        0 => "Digamma",
        1 => "Lgamma",
        _ => "unknown gamma API",
    }
}

/// `op(dst, src, [tmp,] count)` on elements of type `elem`; `tmp` null takes `pipe`'s stack
/// buffer.
///
/// # Safety
/// Tensor handles valid; `tmp` null or valid; `pipe` null or from `ascendc_pipe_new`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_gamma(
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
                0 => digamma::digamma(&d, &s, t, count, reuse),
                1 => lgamma::lgamma(&d, &s, t, count, reuse),
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
pub unsafe extern "C" fn ascendc_adv_gamma_tmp_size(
    op: u8,
    elements: u32,
    type_size: u32,
    reuse: bool,
    max: *mut u32,
    min: *mut u32,
) {
    let r = if op == 0 {
        digamma::digamma_max_min_tmp_size(elements, type_size, reuse)
    } else {
        lgamma::lgamma_max_min_tmp_size(elements, type_size, reuse)
    };
    put_pair(max, min, r);
}

/// `Get<Api>TmpBufferFactorSize` of API `op`.
///
/// # Safety
/// Both pointers valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_gamma_tmp_factor(
    op: u8,
    type_size: u32,
    live: *mut u32,
    extra: *mut u32,
) {
    let r = if op == 0 {
        digamma::digamma_tmp_buffer_factor_size(type_size)
    } else {
        lgamma::lgamma_tmp_buffer_factor_size(type_size)
    };
    put_pair(live, extra, r);
}
