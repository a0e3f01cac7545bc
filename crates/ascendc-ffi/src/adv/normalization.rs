//! The normalization family's C ABI: `RmsNorm` and its host helpers.

use super::with_tmp;
use crate::abi::{call, dtype, AscLoc, AscLocal};
use ascendc::adv::normalization::rmsnorm::{
    rms_norm, rms_norm_max_min_tmp_size, rms_norm_tiling_info, RmsNormTiling,
};
use ascendc::error::SimError;
use ascendc::{f16, Category, DType, LocalTensor, TPipe};

/// A shape passed as `rank` dimensions at `dims` (each cut to 32 bits, as the vendor's host
/// helpers read them).
///
/// # Safety
/// `dims` valid for `rank` reads.
unsafe fn shape(dims: *const i64, rank: u32) -> Vec<u32> {
    if dims.is_null() {
        return Vec::new();
    }
    std::slice::from_raw_parts(dims, rank as usize)
        .iter()
        .map(|&d| d as u32)
        .collect::<Vec<_>>()
}

/// `RmsNorm<T, isBasicBlock>(dst, src, gamma, [tmp,] epsilon, tiling)` on elements of type
/// `elem` (half or float); `epsilon` is the T value as float; `tmp` null takes `pipe`'s stack.
///
/// # Safety
/// Tensor handles valid; `tmp` null or valid; `pipe` null or from `ascendc_pipe_new`; `tiling`
/// points to an `RmsNormTiling`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_rms_norm(
    elem: u8,
    basic_block: bool,
    dst: *const AscLocal,
    src: *const AscLocal,
    gamma: *const AscLocal,
    tmp: *const AscLocal,
    pipe: *const TPipe,
    epsilon: f32,
    tiling: *const RmsNormTiling,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let tiling = tiling.read_unaligned();
        match dtype(elem)? {
            DType::Half => {
                let (d, s, g): (LocalTensor<f16>, LocalTensor<f16>, LocalTensor<f16>) =
                    ((*dst).tensor()?, (*src).tensor()?, (*gamma).tensor()?);
                let eps = f16::from_f32(epsilon);
                with_tmp("RmsNorm", tmp, pipe, |t| {
                    rms_norm(&d, &s, &g, t, eps, &tiling, basic_block)
                })
            }
            DType::Float => {
                let (d, s, g): (LocalTensor<f32>, LocalTensor<f32>, LocalTensor<f32>) =
                    ((*dst).tensor()?, (*src).tensor()?, (*gamma).tensor()?);
                with_tmp("RmsNorm", tmp, pipe, |t| {
                    rms_norm(&d, &s, &g, t, epsilon, &tiling, basic_block)
                })
            }
            other => Err(SimError::new(
                Category::Type,
                "RmsNorm",
                format!("T = {other} is not supported: RmsNorm takes half or float"),
            )),
        }
    })
}

/// `GetRmsNormMaxMinTmpSize`: false for a shape breaking the basic-block rule.
///
/// # Safety
/// `dims` valid for `rank` reads; `max`, `min` valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_rms_norm_tmp_size(
    dims: *const i64,
    rank: u32,
    type_size: u32,
    basic_block: bool,
    max: *mut u32,
    min: *mut u32,
) -> bool {
    match rms_norm_max_min_tmp_size(&shape(dims, rank), type_size, basic_block) {
        Some((hi, lo)) => {
            *max = hi;
            *min = lo;
            true
        }
        None => false,
    }
}

/// `GetRmsNormTilingInfo`: fills `out` (an `RmsNormTiling`) and returns true, or false (the
/// vendor's checks fail; `out` untouched).
///
/// # Safety
/// `dims`/`odims` valid for `rank`/`orank` reads; `out` valid for a write of the struct.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_rms_norm_tiling(
    dims: *const i64,
    rank: u32,
    odims: *const i64,
    orank: u32,
    stack_bytes: u32,
    type_size: u32,
    basic_block: bool,
    out: *mut RmsNormTiling,
) -> bool {
    match rms_norm_tiling_info(
        &shape(dims, rank),
        &shape(odims, orank),
        stack_bytes,
        type_size,
        basic_block,
    ) {
        Some(t) => {
            out.write_unaligned(t);
            true
        }
        None => false,
    }
}
