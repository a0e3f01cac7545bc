//! The element-wise activations' C ABI: `ascendc_adv_activation` (one source: Sigmoid, Silu,
//! Swish, Gelu, FasterGelu, FasterGeluV2), `ascendc_adv_glu` (two sources: SwiGLU, GeGLU,
//! ReGlu) and the host helpers `ascendc_adv_activation_tmp_size` / `_tmp_factor`.

use super::{pair, put_pair, with_tmp};
use crate::abi::{call, dtype, AscLoc, AscLocal};
use crate::with_dtype;
use ascendc::adv::activation::{gelu, glu, sigmoid, swish, GeluMode};
use ascendc::error::SimError;
use ascendc::{Category, TPipe};
use std::ffi::c_void;

/// `op` of `ascendc_adv_activation`: the low 4 bits select the API (0 Sigmoid, 1 Silu, 2 Swish,
/// 3 Gelu, 4 FasterGelu, 5 FasterGeluV2); bit 4 is `highPrecision`, bit 5 `highPerformance`.
fn name(op: u8) -> &'static str {
    match op & 0xF {
        0 => "Sigmoid",
        1 => "Silu",
        2 => "Swish",
        3 => "Gelu",
        4 => "FasterGelu",
        5 => "FasterGeluV2",
        _ => "unknown activation API",
    }
}

/// `op(dst, src, [tmp,] count)` on elements of type `elem`; `scalar` points to Swish's β (one
/// `elem`); `tmp` null takes `pipe`'s stack buffer.
///
/// # Safety
/// Tensor handles valid; `tmp` null or valid; `pipe` null or from `ascendc_pipe_new`; `scalar`
/// valid for Swish.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_activation(
    op: u8,
    elem: u8,
    dst: *const AscLocal,
    src: *const AscLocal,
    scalar: *const c_void,
    tmp: *const AscLocal,
    pipe: *const TPipe,
    count: u32,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let api = name(op);
        let mode = GeluMode {
            high_precision: op & 0x10 != 0,
            high_performance: op & 0x20 != 0,
        };
        with_dtype!(dtype(elem)?, T => {
            let (d, s) = pair::<T>(dst, src)?;
            match op & 0xF {
                1 => swish::silu(&d, &s, count),
                2 => {
                    if scalar.is_null() {
                        return Err(SimError::new(Category::Range, api, "no scalarValue given"));
                    }
                    swish::swish(&d, &s, count, (scalar as *const T).read_unaligned())
                }
                n => with_tmp(api, tmp, pipe, |t| match n {
                    0 => sigmoid::sigmoid(&d, &s, t, count),
                    3 => gelu::gelu(&d, &s, t, count, mode),
                    4 => gelu::faster_gelu(&d, &s, t, count, mode),
                    5 => gelu::faster_gelu_v2(&d, &s, t, count, mode),
                    _ => Err(SimError::new(Category::Range, api, format!("op {op}"))),
                }),
            }
        })
    })
}

/// `op(dst, src0, src1, [beta,] [tmp,] count)` on elements of type `elem`: 0 SwiGLU (`beta` a
/// float), 1 GeGLU, 2 ReGlu; `tmp` null takes `pipe`'s stack buffer.
///
/// # Safety
/// Tensor handles valid; `tmp` null or valid; `pipe` null or from `ascendc_pipe_new`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_glu(
    op: u8,
    elem: u8,
    dst: *const AscLocal,
    src0: *const AscLocal,
    src1: *const AscLocal,
    beta: f32,
    tmp: *const AscLocal,
    pipe: *const TPipe,
    count: u32,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let api = ["SwiGLU", "GeGLU", "ReGlu"]
            .get(op as usize)
            .copied()
            .unwrap_or("unknown GLU API");
        with_dtype!(dtype(elem)?, T => {
            let (d, a) = pair::<T>(dst, src0)?;
            let b = (*src1).tensor::<T>()?;
            with_tmp(api, tmp, pipe, |t| match op {
                0 => glu::swiglu(&d, &a, &b, beta, t, count),
                1 => glu::geglu(&d, &a, &b, t, count),
                2 => glu::reglu(&d, &a, &b, t, count),
                _ => Err(SimError::new(Category::Range, api, format!("op {op}"))),
            })
        })
    })
}

/// The temporary-space sizes of API `op` (0 Sigmoid, 1 Silu, 2 Swish, 3 Gelu, 4 SwiGLU,
/// 5 GeGLU, 6 ReGlu) for `elements` elements of `type_size` bytes, as `(max, min)` bytes.
///
/// # Safety
/// `max` and `min` valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_activation_tmp_size(
    op: u8,
    elements: u32,
    type_size: u32,
    _reuse: bool,
    max: *mut u32,
    min: *mut u32,
) {
    let r = match op {
        0 => sigmoid::sigmoid_max_min_tmp_size(elements, type_size),
        3 => gelu::gelu_max_min_tmp_size(elements),
        4 => glu::swiglu_max_min_tmp_size(elements, type_size),
        5 => glu::geglu_max_min_tmp_size(elements, type_size),
        6 => glu::reglu_max_min_tmp_size(elements, type_size),
        _ => swish::swish_tmp_size(),
    };
    put_pair(max, min, r);
}

/// `Get<Api>TmpBufferFactorSize` of API `op` (4 SwiGLU, 5 GeGLU).
///
/// # Safety
/// Both pointers valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_activation_tmp_factor(
    op: u8,
    type_size: u32,
    live: *mut u32,
    extra: *mut u32,
) {
    let r = if op == 4 {
        glu::swiglu_tmp_buffer_factor_size(type_size)
    } else {
        glu::geglu_tmp_buffer_factor_size(type_size)
    };
    put_pair(live, extra, r);
}
