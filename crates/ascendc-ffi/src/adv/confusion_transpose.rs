//! C ABI of ConfusionTranspose (`Transpose` with a `TransposeType`) and its host tiling helpers.

use super::norm_stats::{put_sizes, shape};
use super::with_tmp;
use crate::abi::{call, dtype, AscLoc, AscLocal};
use ascendc::adv::transpose::confusion_transpose::{
    confusion_transpose, confusion_transpose_max_min_tmp_size, confusion_transpose_tiling_info,
    ConfusionTransposeTiling, TransposeType,
};
use ascendc::error::SimError;
use ascendc::{f16, Category, DType, LocalTensor, TPipe};

const API: &str = "ConfusionTranspose";

/// `Transpose` / `ConfusionTranspose<T>(dst, src, [sharedTmpBuffer,] transposeType, tiling)` on
/// elements of type `elem`; `tmp` null takes `pipe`'s stack.
///
/// # Safety
/// Tensor handles valid; `tmp` null or valid; `pipe` null or from `ascendc_pipe_new`; `tiling`
/// points to a readable `ConfusionTransposeTiling`.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_confusion_transpose(
    elem: u8,
    dst: *const AscLocal,
    src: *const AscLocal,
    tmp: *const AscLocal,
    pipe: *const TPipe,
    transpose_type: u8,
    tiling: *const ConfusionTransposeTiling,
    loc: AscLoc,
) -> i32 {
    unsafe fn go<T: ascendc::TensorElement + ascendc::Element>(
        dst: *const AscLocal,
        src: *const AscLocal,
        tmp: *const AscLocal,
        pipe: *const TPipe,
        ty: TransposeType,
        tiling: &ConfusionTransposeTiling,
    ) -> Result<(), SimError> {
        let d: LocalTensor<T> = (*dst).tensor()?;
        let s: LocalTensor<T> = (*src).tensor()?;
        with_tmp(API, tmp, pipe, |b| {
            confusion_transpose(&d, &s, b, ty, tiling)
        })
    }
    call(loc, || {
        let ty = TransposeType::from_u8(transpose_type).ok_or_else(|| {
            SimError::new(
                Category::Range,
                API,
                format!("transposeType = {transpose_type} is not a TransposeType value"),
            )
        })?;
        let t = tiling.read_unaligned();
        match dtype(elem)? {
            DType::Int16 => go::<i16>(dst, src, tmp, pipe, ty, &t),
            DType::Uint16 => go::<u16>(dst, src, tmp, pipe, ty, &t),
            DType::Half => go::<f16>(dst, src, tmp, pipe, ty, &t),
            DType::Int32 => go::<i32>(dst, src, tmp, pipe, ty, &t),
            DType::Uint32 => go::<u32>(dst, src, tmp, pipe, ty, &t),
            DType::Float => go::<f32>(dst, src, tmp, pipe, ty, &t),
            DType::Int8 => go::<i8>(dst, src, tmp, pipe, ty, &t),
            DType::Uint8 => go::<u8>(dst, src, tmp, pipe, ty, &t),
            other => Err(SimError::new(
                Category::Type,
                API,
                format!(
                    "T = {other}: scenes 1–7 take int16_t, uint16_t, half, int32_t, uint32_t or float"
                ),
            )),
        }
    })
}

/// `GetTransposeMaxMinTmpSize` / `GetConfusionTransposeMaxMinTmpSize`: false (and 0, 0, the
/// reason on stderr) for a refused scene, type size or shape.
///
/// # Safety
/// `dims` valid for `rank` reads; `max`, `min` valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_confusion_transpose_tmp_size(
    dims: *const i64,
    rank: u32,
    type_size: u32,
    transpose_type: u32,
    max: *mut u32,
    min: *mut u32,
) -> bool {
    match confusion_transpose_max_min_tmp_size(&shape(dims, rank), type_size, transpose_type) {
        Ok(r) => put_sizes(Some(r), max, min),
        Err(e) => {
            eprintln!("{e}");
            put_sizes(Some((0, 0)), max, min);
            false
        }
    }
}

/// `GetTransposeTilingInfo` / `GetConfusionTransposeTilingInfo` (`transpose_type` 1–7) and
/// `GetConfusionTransposeOnlyTilingInfo` (7): fills `out` and returns true, or prints the reason
/// on stderr and returns false (`out` untouched).
///
/// # Safety
/// `dims` valid for `rank` reads; `out` valid for a write of the struct.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_confusion_transpose_tiling(
    dims: *const i64,
    rank: u32,
    stack_bytes: u32,
    type_size: u32,
    transpose_type: u32,
    out: *mut ConfusionTransposeTiling,
) -> bool {
    match confusion_transpose_tiling_info(
        &shape(dims, rank),
        stack_bytes,
        type_size,
        transpose_type,
    ) {
        Ok(t) => {
            out.write_unaligned(t);
            true
        }
        Err(e) => {
            eprintln!("{e}");
            false
        }
    }
}
