//! The quantization family's C ABI: `AscendQuant`, `AscendDequant`, `AscendAntiQuant` and their
//! host helpers.

use super::{put_pair, with_tmp};
use crate::abi::{call, dtype, AscLoc, AscLocal};
use ascendc::adv::quantization::ascend_antiquant::{
    ascend_antiquant, ascend_antiquant_max_tmp_size, ascend_antiquant_min_tmp_size,
    ascend_antiquant_tmp_buffer_factor_size, AntiQuantParams, AntiQuantShapeInfo, AntiQuantShapes,
};
use ascendc::adv::quantization::ascend_dequant::{
    ascend_dequant, ascend_dequant_max_min_tmp_size, ascend_dequant_scalar,
    ascend_dequant_tmp_buffer_factor_size, DeQuantMode, DequantExtent, DequantParams,
};
use ascendc::adv::quantization::ascend_quant::{
    ascend_quant, ascend_quant_max_min_tmp_size, ascend_quant_tmp_buffer_factor_size, QuantParams,
};
use ascendc::error::SimError;
use ascendc::{bf16, f16, Category, DType, Element, Int4, LocalTensor, TPipe, TensorElement};

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

/// A shape passed as `rank` dimensions at `dims` (each cut to 32 bits, as the vendor's host
/// helpers read them).
///
/// # Safety
/// `dims` valid for `rank` reads (or null).
unsafe fn shape(dims: *const i64, rank: u32) -> Vec<u32> {
    if dims.is_null() {
        return Vec::new();
    }
    std::slice::from_raw_parts(dims, rank as usize)
        .iter()
        .map(|&d| d as u32)
        .collect()
}

/// `AscendDequant<dstT, scaleT, mode>` with dst elements `dst_elem` and scale elements
/// `scale_elem`. `form`: 0 `DequantParams {m, n, calCount}`, 1 `calCount`, 2 neither (all with
/// the `scale` tensor), 3 the scalar `scale_value` with `DequantParams`. `mode` 0
/// `DEQUANT_WITH_SINGLE_ROW`, 1 `DEQUANT_WITH_MULTI_ROW`. `tmp` null takes `pipe`'s stack buffer.
///
/// # Safety
/// Tensor handles valid (`scale` may be null for form 3); `pipe` null or from `ascendc_pipe_new`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_ascend_dequant(
    dst_elem: u8,
    scale_elem: u8,
    form: u8,
    mode: u8,
    dst: *const AscLocal,
    src: *const AscLocal,
    scale: *const AscLocal,
    scale_value: f32,
    tmp: *const AscLocal,
    pipe: *const TPipe,
    m: u32,
    n: u32,
    cal_count: u32,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let call = DequantCall {
            form,
            mode: if mode == 0 {
                DeQuantMode::SingleRow
            } else {
                DeQuantMode::MultiRow
            },
            dst,
            src,
            scale,
            scale_value,
            tmp,
            pipe,
            params: DequantParams { m, n, cal_count },
        };
        match (dtype(dst_elem)?, dtype(scale_elem)?) {
            (DType::Half, DType::Uint64) => call.run::<f16, u64>(),
            (DType::Float, DType::Float) => call.run::<f32, f32>(),
            (DType::Float, DType::Bfloat16) => call.run::<f32, bf16>(),
            (DType::Bfloat16, DType::Bfloat16) => call.run::<bf16, bf16>(),
            (DType::Bfloat16, DType::Float) => call.run::<bf16, f32>(),
            (DType::Half, DType::Float) => call.run::<f16, f32>(),
            (DType::Half, DType::Bfloat16) => call.run::<f16, bf16>(),
            (DType::Float, DType::Uint64) => call.run::<f32, u64>(),
            (DType::Bfloat16, DType::Uint64) => call.run::<bf16, u64>(),
            (d, s) => Err(SimError::new(
                Category::Type,
                "AscendDequant",
                format!(
                    "dstT = {d} with scaleT = {s} is not supported: see the page's tables 5 and 6"
                ),
            )),
        }
    })
}

/// The arguments of one [`ascendc_adv_ascend_dequant`] call.
struct DequantCall {
    form: u8,
    mode: DeQuantMode,
    dst: *const AscLocal,
    src: *const AscLocal,
    scale: *const AscLocal,
    scale_value: f32,
    tmp: *const AscLocal,
    pipe: *const TPipe,
    params: DequantParams,
}

impl DequantCall {
    /// The call for one dtype pair.
    fn run<D: Element + TensorElement, S: Element + TensorElement>(&self) -> Result<(), SimError> {
        // SAFETY: the handles are valid as `ascendc_adv_ascend_dequant` requires.
        unsafe {
            let d: LocalTensor<D> = (*self.dst).tensor()?;
            let s: LocalTensor<i32> = (*self.src).tensor()?;
            with_tmp("AscendDequant", self.tmp, self.pipe, |t| {
                if self.form == 3 {
                    let v = S::from_f64(self.scale_value as f64);
                    return ascend_dequant_scalar(&d, &s, v, t, self.params, self.mode);
                }
                let sc: LocalTensor<S> = (*self.scale).tensor()?;
                let extent = match self.form {
                    0 => DequantExtent::Params(self.params),
                    1 => DequantExtent::Count(self.params.cal_count),
                    _ => DequantExtent::Whole,
                };
                ascend_dequant(&d, &s, &sc, t, extent, self.mode)
            })
        }
    }
}

/// `GetAscendDequantMaxMinTmpSize`: false (outputs untouched, the reason on stderr) when the
/// vendor's host checks fail.
///
/// # Safety
/// `dims` valid for `rank` reads; `max`, `min` valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_ascend_dequant_tmp_size(
    dims: *const i64,
    rank: u32,
    type_size: u32,
    max: *mut u32,
    min: *mut u32,
) -> bool {
    match ascend_dequant_max_min_tmp_size(&shape(dims, rank), type_size) {
        Ok(v) => {
            put_pair(max, min, v);
            true
        }
        Err(e) => {
            eprintln!("error: {e}");
            false
        }
    }
}

/// `GetAscendDequantTmpBufferFactorSize`.
///
/// # Safety
/// `dims` valid for `rank` reads; both outputs valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_ascend_dequant_tmp_factor(
    dims: *const i64,
    rank: u32,
    live: *mut u32,
    extra: *mut u32,
) {
    put_pair(
        live,
        extra,
        ascend_dequant_tmp_buffer_factor_size(&shape(dims, rank)),
    );
}

/// `AscendAntiQuant<InputDataType, OutputDataType, isTranspose>` with source elements
/// `src_elem` (int8_t, int4b_t) and results `dst_elem` (half, bfloat16_t). `form`: 0 offset and
/// scale tensors, 1 scale tensor, 2 offset and scale values, 3 scale value (values as float).
/// `shape`: the four `AntiQuantShapeInfo` fields. `tmp` null takes `pipe`'s stack buffer.
///
/// # Safety
/// Tensor handles valid where the form reads them; `shape` valid for 4 reads; `pipe` null or
/// from `ascendc_pipe_new`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_ascend_antiquant(
    src_elem: u8,
    dst_elem: u8,
    form: u8,
    transpose: bool,
    dst: *const AscLocal,
    src: *const AscLocal,
    offset: *const AscLocal,
    scale: *const AscLocal,
    offset_value: f32,
    scale_value: f32,
    tmp: *const AscLocal,
    pipe: *const TPipe,
    k: u32,
    shape: *const u32,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let sh = std::slice::from_raw_parts(shape, 4);
        let c = AntiQuantCall {
            form,
            transpose,
            dst,
            src,
            offset,
            scale,
            values: (offset_value, scale_value),
            tmp,
            pipe,
            k,
            shape: AntiQuantShapeInfo {
                offset_height: sh[0],
                offset_width: sh[1],
                scale_height: sh[2],
                scale_width: sh[3],
            },
        };
        match (dtype(src_elem)?, dtype(dst_elem)?) {
            (DType::Int8, DType::Half) => c.run::<i8, f16>(),
            (DType::Int8, DType::Bfloat16) => c.run::<i8, bf16>(),
            (DType::Int4, DType::Half) => c.run::<Int4, f16>(),
            (DType::Int4, DType::Bfloat16) => c.run::<Int4, bf16>(),
            (s, d) => Err(SimError::new(
                Category::Type,
                "AscendAntiQuant",
                format!("InputDataType = {s}, OutputDataType = {d} is not supported: it takes int8_t or int4b_t to half or bfloat16_t"),
            )),
        }
    })
}

/// The arguments of one [`ascendc_adv_ascend_antiquant`] call.
struct AntiQuantCall {
    form: u8,
    transpose: bool,
    dst: *const AscLocal,
    src: *const AscLocal,
    offset: *const AscLocal,
    scale: *const AscLocal,
    values: (f32, f32),
    tmp: *const AscLocal,
    pipe: *const TPipe,
    k: u32,
    shape: AntiQuantShapeInfo,
}

impl AntiQuantCall {
    /// The call for one dtype pair.
    fn run<S: TensorElement, D: Element + TensorElement>(&self) -> Result<(), SimError> {
        // SAFETY: the handles are valid as `ascendc_adv_ascend_antiquant` requires.
        unsafe {
            let d: LocalTensor<D> = (*self.dst).tensor()?;
            let s: LocalTensor<S> = (*self.src).tensor()?;
            let st: Option<LocalTensor<D>> = self.scale.as_ref().map(|t| t.tensor()).transpose()?;
            let ot: Option<LocalTensor<D>> =
                self.offset.as_ref().map(|t| t.tensor()).transpose()?;
            let (ov, sv) = (
                D::from_f64(self.values.0 as f64),
                D::from_f64(self.values.1 as f64),
            );
            let params = match (self.form, &ot, &st) {
                (0, Some(offset), Some(scale)) => AntiQuantParams::Channel { offset, scale },
                (1, _, Some(scale)) => AntiQuantParams::ChannelScale { scale },
                (2, _, _) => AntiQuantParams::Tensor {
                    offset: ov,
                    scale: sv,
                },
                _ => AntiQuantParams::TensorScale { scale: sv },
            };
            with_tmp("AscendAntiQuant", self.tmp, self.pipe, |t| {
                ascend_antiquant(&d, &s, params, t, self.k, self.transpose, self.shape)
            })
        }
    }
}

/// `GetAscendAntiQuantMaxTmpSize` / `GetAscendAntiQuantMinTmpSize` / the factors: `which` 0 the
/// maximum, 1 the minimum (into `a`), 2 `(maxLiveNodeCount, extraBuf)` into `(a, b)`.
///
/// # Safety
/// `src`/`scale` valid for `src_rank`/`scale_rank` reads; `a`, `b` valid for writes.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_ascend_antiquant_tmp(
    which: u8,
    src: *const i64,
    src_rank: u32,
    scale: *const i64,
    scale_rank: u32,
    transpose: bool,
    fp4_input: bool,
    half_output: bool,
    a: *mut u32,
    b: *mut u32,
) {
    let (src, scale) = (shape(src, src_rank), shape(scale, scale_rank));
    let s = AntiQuantShapes {
        src: &src,
        scale: &scale,
        transpose,
        fp4_input,
        half_output,
    };
    match which {
        0 => *a = ascend_antiquant_max_tmp_size(&s),
        1 => *a = ascend_antiquant_min_tmp_size(&s),
        _ => put_pair(a, b, ascend_antiquant_tmp_buffer_factor_size(&s)),
    }
}
