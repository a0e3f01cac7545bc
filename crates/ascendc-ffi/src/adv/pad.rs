//! `Pad` / `UnPad` (张量变换) and their host helpers.

use super::{pair, put_pair, with_tmp};
use crate::abi::{call, dtype, AscLoc, AscLocal};
use crate::with_dtype;
use ascendc::adv::pad::{self as p, PadParams, PadTiling, UnPadParams, UnPadTiling};
use ascendc::{Product, TPipe};

/// `Pad(dst, src, padParams, [tmp,] tiling)` (`unpad` false) or `UnPad(dst, src, unPadParams,
/// [tmp,] tiling)` (true: `params` points to an `UnPadParams`, `tiling` to an `UnPadTiling`);
/// `tmp` null takes `pipe`'s stack buffer.
///
/// # Safety
/// Tensor handles valid; `params` and `tiling` point to the structs named; `tmp` null or valid;
/// `pipe` null or from `ascendc_pipe_new`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_pad(
    unpad: bool,
    elem: u8,
    dst: *const AscLocal,
    src: *const AscLocal,
    params: *const u8,
    tmp: *const AscLocal,
    pipe: *const TPipe,
    tiling: *const u8,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let api = if unpad { "UnPad" } else { "Pad" };
        with_dtype!(dtype(elem)?, T => {
            let (d, s) = pair::<T>(dst, src)?;
            with_tmp(api, tmp, pipe, |t| {
                if unpad {
                    let (params, tiling) = (&*(params as *const UnPadParams), &*(tiling as *const UnPadTiling));
                    p::unpad(&d, &s, params, t, tiling)
                } else {
                    let (params, tiling) = (&*(params as *const PadParams), &*(tiling as *const PadTiling));
                    p::pad(&d, &s, params, t, tiling)
                }
            })
        })
    })
}

/// `GetPadMaxMinTmpSize` (`npu_arch` 0) or `GetUnPadMaxMinTmpSize` on the platform of
/// `npu_arch` (`__NPU_ARCH__` numbering) for a `height × width` source.
///
/// # Safety
/// `max` and `min` valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_pad_tmp_size(
    npu_arch: u32,
    height: u32,
    width: u32,
    type_size: u32,
    max: *mut u32,
    min: *mut u32,
) {
    let r = match npu_arch {
        0 => p::pad_max_min_tmp_size(height, width, type_size),
        2201 | 3510 | 5102 => {
            p::unpad_max_min_tmp_size(Product::Ascend910B, height, width, type_size)
        }
        _ => p::unpad_max_min_tmp_size(Product::Ascend310P, height, width, type_size),
    };
    put_pair(max, min, r);
}

/// `PadTilingFunc(srcShape, oriSrcShape, stackBufferSize, typeSize, tiling)` into the plain
/// `PadTiling` at `out`.
///
/// # Safety
/// `out` valid for writing a `PadTiling`.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_pad_tiling(
    height: u32,
    width: u32,
    ori_width: u32,
    stack_buffer_size: u32,
    type_size: u32,
    out: *mut u8,
) {
    *(out as *mut PadTiling) =
        p::pad_tiling(height, width, ori_width, stack_buffer_size, type_size);
}

/// `UnPadTilingFunc(srcShape, stackBufferSize, typeSize, tiling)` into the plain `UnPadTiling`
/// at `out`.
///
/// # Safety
/// `out` valid for writing an `UnPadTiling`.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_unpad_tiling(
    height: u32,
    width: u32,
    stack_buffer_size: u32,
    type_size: u32,
    out: *mut u8,
) {
    *(out as *mut UnPadTiling) = p::unpad_tiling(height, width, stack_buffer_size, type_size);
}
