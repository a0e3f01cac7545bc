//! Data filtering (数据过滤): `Select` with a byte mask, `DropOut`, and their host helpers.

use super::{pair, put_pair, with_tmp};
use crate::abi::{call, dtype, AscLoc, AscLocal};
use ascendc::adv::filter::{
    self as f, DropOutShapeInfo, SelectScalar, SelectWithBytesMaskShapeInfo,
};
use ascendc::error::SimError;
use ascendc::{f16, Category, DType, LocalTensor, TPipe};

fn half_or_float(api: &'static str, elem: u8) -> Result<DType, SimError> {
    match dtype(elem)? {
        d @ (DType::Half | DType::Float) => Ok(d),
        other => Err(SimError::new(
            Category::Type,
            api,
            format!("T = {other} is not supported: {api} takes half or float"),
        )),
    }
}

/// `Select<T, U, isReuseMask>(dst, src0, src1, mask, sharedTmpBuffer, info)`: the tensor `src`,
/// the scalar `scalar` (first operand when `scalar_first`), a mask of `mask_size`-byte elements.
///
/// # Safety
/// Tensor handles valid; `info` points to a `SelectWithBytesMaskShapeInfo`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_select(
    elem: u8,
    mask_size: u32,
    dst: *const AscLocal,
    src: *const AscLocal,
    scalar: f64,
    scalar_first: bool,
    mask: *const AscLocal,
    tmp: *const AscLocal,
    info: *const SelectWithBytesMaskShapeInfo,
    reuse_mask: bool,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let which = if scalar_first {
            SelectScalar::First
        } else {
            SelectScalar::Second
        };
        let (info, tmp): (_, LocalTensor<u8>) = (&*info, (*tmp).tensor()?);
        let m: LocalTensor<u8> = (*mask).tensor()?;
        macro_rules! go {
            ($t:ty, $v:expr) => {{
                let (d, s) = pair::<$t>(dst, src)?;
                match mask_size {
                    1 => f::select_with_bytes_mask(&d, &s, $v, which, &m, &tmp, info, reuse_mask),
                    2 => f::select_with_bytes_mask(
                        &d,
                        &s,
                        $v,
                        which,
                        &m.reinterpret_cast::<u16>(),
                        &tmp,
                        info,
                        reuse_mask,
                    ),
                    _ => f::select_with_bytes_mask(
                        &d,
                        &s,
                        $v,
                        which,
                        &m.reinterpret_cast::<u32>(),
                        &tmp,
                        info,
                        reuse_mask,
                    ),
                }
            }};
        }
        match half_or_float("Select", elem)? {
            DType::Half => go!(f16, f16::from_f64(scalar)),
            _ => go!(f32, scalar as f32),
        }
    })
}

/// `DropOut<T, isInitBitMode, dropOutMode>(dst, src, mask, [tmp,] keepProb, info)`; `tmp` null
/// takes `pipe`'s stack buffer.
///
/// # Safety
/// Tensor handles valid; `tmp` null or valid; `pipe` null or from `ascendc_pipe_new`; `info`
/// points to a `DropOutShapeInfo`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_dropout(
    elem: u8,
    dst: *const AscLocal,
    src: *const AscLocal,
    mask: *const AscLocal,
    tmp: *const AscLocal,
    pipe: *const TPipe,
    keep_prob: f32,
    info: *const DropOutShapeInfo,
    init_bit_mode: bool,
    mode: u32,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let m: LocalTensor<u8> = (*mask).tensor()?;
        let info = &*info;
        with_tmp("DropOut", tmp, pipe, |t| {
            match half_or_float("DropOut", elem)? {
                DType::Half => {
                    let (d, s) = pair::<f16>(dst, src)?;
                    f::drop_out(&d, &s, &m, t, keep_prob, info, init_bit_mode, mode)
                }
                _ => {
                    let (d, s) = pair::<f32>(dst, src)?;
                    f::drop_out(&d, &s, &m, t, keep_prob, info, init_bit_mode, mode)
                }
            }
        })
    })
}

/// `DropOutBitModeInit([sharedTmpBuffer])`; `tmp` null takes `pipe`'s stack buffer.
///
/// # Safety
/// `tmp` null or valid; `pipe` null or from `ascendc_pipe_new`.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_dropout_bit_mode_init(
    tmp: *const AscLocal,
    pipe: *const TPipe,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        with_tmp("DropOut", tmp, pipe, f::drop_out_bit_mode_init)
    })
}

/// `GetSelectMaxMinTmpSize` from the element counts (see
/// [`select_max_min_tmp_size`](f::select_max_min_tmp_size)).
///
/// # Safety
/// `max` and `min` valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_select_tmp_size(
    src_size: u32,
    src_last: u32,
    mask_last: u32,
    mask_type_size: u32,
    reuse_mask: bool,
    max: *mut u32,
    min: *mut u32,
) {
    put_pair(
        max,
        min,
        f::select_max_min_tmp_size(src_size, src_last, mask_last, mask_type_size, reuse_mask),
    );
}

/// `GetDropOutMaxMinTmpSize` for `elements` source elements.
///
/// # Safety
/// `max` and `min` valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_dropout_tmp_size(elements: u32, max: *mut u32, min: *mut u32) {
    put_pair(max, min, f::drop_out_max_min_tmp_size(elements));
}
