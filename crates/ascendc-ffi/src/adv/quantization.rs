//! The quantization family's C ABI: `AscendQuant` and its host helpers.

use super::{put_pair, with_tmp};
use crate::abi::{call, dtype, AscLoc, AscLocal};
use ascendc::adv::quantization::ascend_quant::{
    ascend_quant, ascend_quant_max_min_tmp_size, ascend_quant_tmp_buffer_factor_size, QuantParams,
};
use ascendc::error::SimError;
use ascendc::{f16, Category, DType, Element, LocalTensor, TPipe, TensorElement};

/// `AscendQuant` with source elements of type `elem`: `mode` 0 per tensor (`scale`, `offset`),
/// 1 per channel with a scalar offset (`scaleT`, `offset` as the T value), 2 per channel with
/// an offset row (`scaleT`, `offsetT`). `tmp` null takes `pipe`'s stack buffer.
///
/// # Safety
/// Tensor handles valid (or null where the mode does not read them); `pipe` null or from
/// `ascendc_pipe_new`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_ascend_quant(
    elem: u8,
    mode: u8,
    dst: *const AscLocal,
    src: *const AscLocal,
    tmp: *const AscLocal,
    pipe: *const TPipe,
    scale: f32,
    offset: f32,
    scale_t: *const AscLocal,
    offset_t: *const AscLocal,
    scale_count: u32,
    offset_count: u32,
    count: u32,
    loc: AscLoc,
) -> i32 {
    call(loc, || match dtype(elem)? {
        DType::Half => quant::<f16>(
            mode,
            dst,
            src,
            tmp,
            pipe,
            scale,
            offset,
            scale_t,
            offset_t,
            scale_count,
            offset_count,
            count,
        ),
        DType::Float => quant::<f32>(
            mode,
            dst,
            src,
            tmp,
            pipe,
            scale,
            offset,
            scale_t,
            offset_t,
            scale_count,
            offset_count,
            count,
        ),
        other => Err(SimError::new(
            Category::Type,
            "AscendQuant",
            format!("T = {other} is not supported: AscendQuant takes half or float"),
        )),
    })
}

/// [`ascendc_adv_ascend_quant`] for one source type.
///
/// # Safety
/// As [`ascendc_adv_ascend_quant`].
#[allow(clippy::too_many_arguments)]
unsafe fn quant<T: Element + TensorElement>(
    mode: u8,
    dst: *const AscLocal,
    src: *const AscLocal,
    tmp: *const AscLocal,
    pipe: *const TPipe,
    scale: f32,
    offset: f32,
    scale_t: *const AscLocal,
    offset_t: *const AscLocal,
    scale_count: u32,
    offset_count: u32,
    count: u32,
) -> Result<(), SimError> {
    let d: LocalTensor<i8> = (*dst).tensor()?;
    let s: LocalTensor<T> = (*src).tensor()?;
    let st: Option<LocalTensor<T>> = scale_t.as_ref().map(|t| t.tensor()).transpose()?;
    let ot: Option<LocalTensor<T>> = offset_t.as_ref().map(|t| t.tensor()).transpose()?;
    let params = match (mode, &st, &ot) {
        (1, Some(sc), _) => QuantParams::Channel {
            scale: sc,
            offset: T::from_f64(offset as f64),
            scale_count,
        },
        (2, Some(sc), Some(of)) => QuantParams::ChannelOffsets {
            scale: sc,
            offset: of,
            scale_count,
            offset_count,
        },
        _ => QuantParams::Tensor { scale, offset },
    };
    with_tmp("AscendQuant", tmp, pipe, |t| {
        ascend_quant(&d, &s, t, params, count)
    })
}

/// `GetAscendQuantMaxMinTmpSize` for `elements` source elements.
///
/// # Safety
/// `max`, `min` valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_ascend_quant_tmp_size(
    elements: u32,
    max: *mut u32,
    min: *mut u32,
) {
    put_pair(max, min, ascend_quant_max_min_tmp_size(elements));
}

/// `GetAscendQuantTmpBufferFactorSize`.
///
/// # Safety
/// Both pointers valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_ascend_quant_tmp_factor(live: *mut u32, extra: *mut u32) {
    put_pair(live, extra, ascend_quant_tmp_buffer_factor_size());
}
