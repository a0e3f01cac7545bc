//! The C ABI of `SoftmaxFlash` (the first version): `ascendc_adv_softmax_flash_v1` (data type
//! `elem`, sum/max type `stat`, `flags` bit 0 isUpdate, bit 1 isBasicBlock; tilings travel as
//! their 16 words, shapes as 4) and its host helpers.

use super::with_tmp;
use crate::abi::{call, dtype, AscLoc, AscLocal};
use ascendc::adv::activation::softmax::flash_v1::{
    softmax_flash, softmax_flash_max_tmp_size, softmax_flash_min_tmp_size, softmax_flash_tiling,
};
use ascendc::adv::activation::softmax::{SoftMaxShapeInfo, SoftMaxTiling};
use ascendc::error::SimError;
use ascendc::{f16, Category, DType, TPipe};

/// `SoftmaxFlash` on data of type `elem` with sum/max of type `stat`; `tmp` null takes
/// `pipe`'s stack buffer.
///
/// # Safety
/// Handles valid (`tmp` may be null); `tiling` 16 words; `shape` 4 words.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_softmax_flash_v1(
    elem: u8,
    stat: u8,
    flags: u32,
    dst: *const AscLocal,
    sum: *const AscLocal,
    max: *const AscLocal,
    src: *const AscLocal,
    exp_max: *const AscLocal,
    in_sum: *const AscLocal,
    in_max: *const AscLocal,
    tmp: *const AscLocal,
    pipe: *const TPipe,
    tiling_words: *const u32,
    shape_words: *const u32,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        const API: &str = "SoftmaxFlash";
        let tl = SoftMaxTiling::from_words(&*(tiling_words as *const [u32; 16]));
        let s = std::slice::from_raw_parts(shape_words, 4);
        let sh = SoftMaxShapeInfo {
            src_m: s[0],
            src_k: s[1],
            ori_src_m: s[2],
            ori_src_k: s[3],
        };
        let (update, basic) = (flags & 1 != 0, flags & 2 != 0);
        macro_rules! go {
            ($t:ty, $s:ty) => {{
                let (d, x, e) = (
                    (*dst).tensor::<$t>()?,
                    (*src).tensor::<$t>()?,
                    (*exp_max).tensor::<$t>()?,
                );
                let (su, mx) = ((*sum).tensor::<$s>()?, (*max).tensor::<$s>()?);
                let (isu, imx) = ((*in_sum).tensor::<$s>()?, (*in_max).tensor::<$s>()?);
                with_tmp(API, tmp, pipe, |tm| {
                    softmax_flash(&d, &su, &mx, &x, &e, &isu, &imx, tm, &tl, update, sh, basic)
                })
            }};
        }
        match (dtype(elem)?, dtype(stat)?) {
            (DType::Float, DType::Float) => go!(f32, f32),
            (DType::Half, DType::Half) => go!(f16, f16),
            (DType::Half, DType::Float) => go!(f16, f32),
            (a, b) => Err(SimError::new(
                Category::Type,
                API,
                format!("T = {a} with sum/max of {b} is not supported: half or float data, sum/max of the same type or float for half"),
            )),
        }
    })
}

/// `GetSoftMaxFlashMaxTmpSize` (`want_max`) or `GetSoftMaxFlashMinTmpSize` in bytes.
#[no_mangle]
pub extern "C" fn ascendc_adv_softmax_flash_v1_tmp_size(
    m: u32,
    k: u32,
    type_size: u32,
    is_update: bool,
    want_max: bool,
) -> u32 {
    if want_max {
        softmax_flash_max_tmp_size(m, k, type_size, is_update)
    } else {
        softmax_flash_min_tmp_size(k, type_size, is_update)
    }
}

/// `SoftMaxFlashTilingFunc` into `words`.
///
/// # Safety
/// `words` valid for 16 writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_softmax_flash_v1_tiling(
    m: u32,
    k: u32,
    type_size: u32,
    work_bytes: u32,
    is_update: bool,
    words: *mut u32,
) {
    let t = softmax_flash_tiling(m, k, type_size, work_bytes, is_update);
    std::ptr::copy_nonoverlapping(t.to_words().as_ptr(), words, 16);
}
