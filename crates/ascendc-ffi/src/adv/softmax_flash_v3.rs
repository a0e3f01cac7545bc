//! `SoftmaxFlashV3`'s C ABI: the kernel call (half data, float statistics) and its host
//! helpers (temporary-space sizes and the tiling function; tilings travel as their 16 words,
//! `SoftMaxParams` as 7 words with α's bit pattern last).

use super::with_tmp;
use crate::abi::{call, dtype, AscLoc, AscLocal};
use ascendc::adv::activation::softmax::flash_v3::{
    softmax_flash_v3_max_min_tmp_size, softmax_flash_v3_tiling,
};
use ascendc::adv::activation::softmax::{softmax_flash_v3, SoftMaxParams, SoftMaxTiling};
use ascendc::error::SimError;
use ascendc::{f16, Category, DType, LocalTensor, TPipe, TensorElement};

const API: &str = "SoftmaxFlashV3";

/// A tensor handle as a tensor of `T`.
///
/// # Safety
/// `h` a valid handle.
unsafe fn local<T: TensorElement>(h: *const AscLocal) -> Result<LocalTensor<T>, SimError> {
    (*h).tensor()
}

/// `SoftmaxFlashV3<T, U, isUpdate, …>`: `elem`/`stat` the dtypes of T/U; `tmp` null takes
/// `pipe`'s stack buffer.
///
/// # Safety
/// Handles valid (`tmp` may be null); `tiling` 16 words; `params` 7 words.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_softmax_flash_v3(
    update: bool,
    elem: u8,
    stat: u8,
    dst: *const AscLocal,
    mean: *const AscLocal,
    exp_sum: *const AscLocal,
    max: *const AscLocal,
    src: *const AscLocal,
    exp_max: *const AscLocal,
    in_mean: *const AscLocal,
    in_exp_sum: *const AscLocal,
    in_max: *const AscLocal,
    tmp: *const AscLocal,
    pipe: *const TPipe,
    tiling: *const u32,
    params: *const u32,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let tl = SoftMaxTiling::from_words(&*(tiling as *const [u32; 16]));
        let w = std::slice::from_raw_parts(params, 7);
        let prm = SoftMaxParams {
            src_m: w[0],
            src_k: w[1],
            ori_src_m: w[2],
            ori_src_k: w[3],
            loop_cnt: w[4],
            split_mean_cnt: w[5],
            alpha: f32::from_bits(w[6]),
        };
        match (dtype(elem)?, dtype(stat)?) {
            (DType::Half, DType::Float) => {
                let t = |h| local::<f16>(h);
                let u = |h| local::<f32>(h);
                let (d, x, em) = (t(dst)?, t(src)?, t(exp_max)?);
                let (mn, sm, mx) = (u(mean)?, u(exp_sum)?, u(max)?);
                let (imn, ism, imx) = (u(in_mean)?, u(in_exp_sum)?, u(in_max)?);
                with_tmp(API, tmp, pipe, |tm| {
                    softmax_flash_v3(
                        &d, &mn, &sm, &mx, &x, &em, &imn, &ism, &imx, tm, &tl, &prm, update,
                    )
                })
            }
            (a, b) => Err(SimError::new(
                Category::Type,
                API,
                format!("T = {a}, U = {b} is not supported: T half (src, dst, expMax) with U float (mean, sum, max)"),
            )),
        }
    })
}

/// `GetSoftMaxFlashV3MaxMinTmpSize` for `m` rows of `k`.
///
/// # Safety
/// `max` and `min` valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_softmax_flash_v3_tmp_size(
    m: u32,
    k: u32,
    size1: u32,
    size2: u32,
    max: *mut u32,
    min: *mut u32,
) {
    let (hi, lo) = softmax_flash_v3_max_min_tmp_size(&[m as u64, k as u64], size1, size2);
    *max = hi;
    *min = lo;
}

/// `SoftMaxFlashV3TilingFunc` for `m` rows of `k` into `words`.
///
/// # Safety
/// `words` valid for 16 writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_softmax_flash_v3_tiling(
    m: u32,
    k: u32,
    size1: u32,
    size2: u32,
    work: u32,
    words: *mut u32,
) {
    let t = softmax_flash_v3_tiling(&[m as u64, k as u64], size1, size2, work);
    std::ptr::copy_nonoverlapping(t.to_words().as_ptr(), words, 16);
}
