//! The C ABI of `SoftmaxFlashV2`: `ascendc_adv_softmax_flash_v2` (data type `elem`, max/sum type
//! `stat`, the template flags as bits); tilings travel as their 16 words, shapes as 4.

use super::with_tmp;
use crate::abi::{call, dtype, AscLoc, AscLocal};
use ascendc::adv::activation::softmax::flash::{
    softmax_flash_v2, softmax_flash_v2_reduce_max, FlashV2Flags, SoftmaxConfig, SoftmaxMode,
};
use ascendc::adv::activation::softmax::{SoftMaxShapeInfo, SoftMaxTiling};
use ascendc::error::SimError;
use ascendc::{f16, Category, DType, LocalTensor, TPipe};

/// `flags` bit 0 isUpdate, 1 isBasicBlock, 2 isDataFormatNZ, 3 config.isCheckTiling, 4
/// config.mode = SOFTMAX_OUTPUT_WITHOUT_BRC.
fn flags(bits: u32, ori_m: u32, ori_k: u32) -> FlashV2Flags {
    FlashV2Flags {
        is_update: bits & 1 != 0,
        is_basic_block: bits & 2 != 0,
        is_data_format_nz: bits & 4 != 0,
        config: SoftmaxConfig {
            is_check_tiling: bits & 8 != 0,
            ori_src_m: ori_m,
            ori_src_k: ori_k,
            mode: if bits & 16 != 0 {
                SoftmaxMode::OutputWithoutBrc
            } else {
                SoftmaxMode::Normal
            },
        },
    }
}

/// A tensor handle as a tensor of `T`.
///
/// # Safety
/// `h` a valid handle.
unsafe fn local<T: ascendc::TensorElement>(h: *const AscLocal) -> Result<LocalTensor<T>, SimError> {
    (*h).tensor()
}

/// `SoftmaxFlashV2` on data of type `elem` with max/sum of type `stat`; `tmp` null takes
/// `pipe`'s stack buffer; `ori_m`/`ori_k` the config's compile-time shape; `rmax` non-null
/// selects the `outReduceMax` form (data and max/sum of one type).
///
/// # Safety
/// Handles valid (`tmp` and `rmax` may be null); `tiling` 16 words; `shape` 4 words.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_softmax_flash_v2(
    elem: u8,
    stat: u8,
    flag_bits: u32,
    ori_m: u32,
    ori_k: u32,
    dst: *const AscLocal,
    rmax: *const AscLocal,
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
        const API: &str = "SoftmaxFlashV2";
        let tl = SoftMaxTiling::from_words(&*(tiling_words as *const [u32; 16]));
        let s = std::slice::from_raw_parts(shape_words, 4);
        let sh = SoftMaxShapeInfo {
            src_m: s[0],
            src_k: s[1],
            ori_src_m: s[2],
            ori_src_k: s[3],
        };
        let fl = flags(flag_bits, ori_m, ori_k);
        macro_rules! go {
            ($t:ty, $s:ty) => {{
                let (d, x, e) = (local::<$t>(dst)?, local::<$t>(src)?, local::<$t>(exp_max)?);
                let (su, mx) = (local::<$s>(sum)?, local::<$s>(max)?);
                let (isu, imx) = (local::<$s>(in_sum)?, local::<$s>(in_max)?);
                with_tmp(API, tmp, pipe, |tm| {
                    softmax_flash_v2(&d, &su, &mx, &x, &e, &isu, &imx, tm, &tl, sh, fl)
                })
            }};
        }
        macro_rules! go_rmax {
            ($t:ty) => {{
                let (d, x, e) = (local::<$t>(dst)?, local::<$t>(src)?, local::<$t>(exp_max)?);
                let (su, mx, rm) = (local::<$t>(sum)?, local::<$t>(max)?, local::<$t>(rmax)?);
                let (isu, imx) = (local::<$t>(in_sum)?, local::<$t>(in_max)?);
                with_tmp(API, tmp, pipe, |tm| {
                    softmax_flash_v2_reduce_max(
                        &d, &rm, &su, &mx, &x, &e, &isu, &imx, tm, &tl, sh, fl,
                    )
                })
            }};
        }
        match (dtype(elem)?, dtype(stat)?) {
            (DType::Float, DType::Float) if !rmax.is_null() => go_rmax!(f32),
            (DType::Half, DType::Half) if !rmax.is_null() => go_rmax!(f16),
            (DType::Float, DType::Float) => go!(f32, f32),
            (DType::Half, DType::Half) => go!(f16, f16),
            (DType::Half, DType::Float) => go!(f16, f32),
            (a, b) => Err(SimError::new(
                Category::Type,
                API,
                format!("T = {a} with max/sum of {b} is not supported: half or float data, max/sum of the same type or float for half"),
            )),
        }
    })
}
