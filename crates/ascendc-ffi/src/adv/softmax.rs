//! The SoftMax family's C ABI: `ascendc_adv_softmax` (op 0 SoftMax, 1 SoftMax without max/sum,
//! 2 SimpleSoftMax, 3 LogSoftMax), `ascendc_adv_adjust_softmax_res`, and the host helpers
//! (temporary-space sizes and tiling functions; tilings travel as their 16 words).

use super::with_tmp;
use crate::abi::{call, dtype, AscLoc, AscLocal};
use ascendc::adv::activation::softmax::{self as sm, tiling as t, SoftMaxShapeInfo, SoftMaxTiling};
use ascendc::error::SimError;
use ascendc::{f16, Category, DType, LocalTensor, TPipe};

fn api(op: u8) -> &'static str {
    match op {
        2 => "SimpleSoftMax",
        3 => "LogSoftMax",
        _ => "SoftMax",
    }
}

/// The tiling behind `words` (16 `uint32_t`).
///
/// # Safety
/// `words` valid for 16 reads.
unsafe fn tiling(words: *const u32) -> SoftMaxTiling {
    SoftMaxTiling::from_words(&*(words as *const [u32; 16]))
}

/// The shape behind `s` (4 `uint32_t`).
///
/// # Safety
/// `s` valid for 4 reads.
unsafe fn shape(s: *const u32) -> SoftMaxShapeInfo {
    let s = std::slice::from_raw_parts(s, 4);
    SoftMaxShapeInfo {
        src_m: s[0],
        src_k: s[1],
        ori_src_m: s[2],
        ori_src_k: s[3],
    }
}

/// A tensor handle as a tensor of `T`.
///
/// # Safety
/// `h` a valid handle.
unsafe fn local<T: ascendc::TensorElement>(h: *const AscLocal) -> Result<LocalTensor<T>, SimError> {
    (*h).tensor()
}

/// A SoftMax-family call on data of type `elem` with max/sum of type `stat`; `sum` and `max`
/// null for op 1; `tmp` null takes `pipe`'s stack buffer.
///
/// # Safety
/// Handles valid (or null as described); `tiling` 16 words; `shape` 4 words.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_softmax(
    op: u8,
    elem: u8,
    stat: u8,
    dst: *const AscLocal,
    sum: *const AscLocal,
    max: *const AscLocal,
    src: *const AscLocal,
    tmp: *const AscLocal,
    pipe: *const TPipe,
    tiling_words: *const u32,
    shape_words: *const u32,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let name = api(op);
        let (tl, sh) = (tiling(tiling_words), shape(shape_words));
        macro_rules! go {
            ($t:ty, $s:ty) => {{
                let (d, x) = (local::<$t>(dst)?, local::<$t>(src)?);
                with_tmp(name, tmp, pipe, |tm| match op {
                    1 => sm::softmax_no_stats(&d, &x, tm, &tl, sh),
                    _ => {
                        let (su, mx) = (local::<$s>(sum)?, local::<$s>(max)?);
                        match op {
                            0 => sm::softmax(&d, &su, &mx, &x, tm, &tl, sh),
                            2 => sm::simple_softmax(&d, &su, &mx, &x, tm, &tl, sh),
                            _ => sm::log_softmax_mixed(&d, &su, &mx, &x, tm, &tl, sh),
                        }
                    }
                })
            }};
        }
        match (dtype(elem)?, dtype(stat)?) {
            (DType::Float, DType::Float) => go!(f32, f32),
            (DType::Half, DType::Half) => go!(f16, f16),
            (DType::Half, DType::Float) => go!(f16, f32),
            (a, b) => Err(SimError::new(
                Category::Type,
                name,
                format!("T = {a} with max/sum of {b} is not supported: half or float data, max/sum of the same type or float for half"),
            )),
        }
    })
}

/// `AdjustSoftMaxRes`: `to_bits` is `to`'s bit pattern; `*adjusted` gets the result.
///
/// # Safety
/// Handles valid; `shape` 4 words; `adjusted` valid for a write.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_adjust_softmax_res(
    res_type: u8,
    max_type: u8,
    res: *const AscLocal,
    max: *const AscLocal,
    from: u32,
    to_bits: u32,
    shape_words: *const u32,
    adjusted: *mut bool,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let sh = shape(shape_words);
        macro_rules! go {
            ($t:ty, $to:expr) => {{
                let r = local::<$t>(res)?;
                let hit = match dtype(max_type)? {
                    DType::Half => sm::adjust_softmax_res(&r, &local::<f16>(max)?, from, $to, sh)?,
                    _ => sm::adjust_softmax_res(&r, &local::<f32>(max)?, from, $to, sh)?,
                };
                *adjusted = hit;
                Ok(())
            }};
        }
        match dtype(res_type)? {
            DType::Half => go!(f16, f16::from_bits(to_bits as u16)),
            _ => go!(f32, f32::from_bits(to_bits)),
        }
    })
}

/// Which host helper: 0 SoftMax / LogSoftMax, 1 SoftmaxFlashV2, 2 SoftmaxGrad (front when
/// `flags` bit 0), with SoftmaxFlashV2's `flags` bit 0 isBasicBlock, bit 1 isFlashOutputBrc.
///
/// # Safety
/// `max` and `min` valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_softmax_tmp_size(
    which: u8,
    m: u32,
    k: u32,
    size1: u32,
    size2: u32,
    flags: u32,
    max: *mut u32,
    min: *mut u32,
) {
    let (a, b) = (flags & 1 != 0, flags & 2 != 0);
    let (hi, lo) = match which {
        1 => (
            t::flash_v2_max_tmp_size(m, k, size1, size2, a),
            t::flash_v2_min_tmp_size(m, k, size1, size2, a, b),
        ),
        2 => (
            t::grad_max_tmp_size(m, k, size1, a),
            t::grad_min_tmp_size(k, size1, a),
        ),
        _ => (
            t::softmax_max_tmp_size(m, k, size1),
            t::softmax_min_tmp_size(k, size1),
        ),
    };
    *max = hi;
    *min = lo;
}

/// The tiling function of `which` (as [`ascendc_adv_softmax_tmp_size`]) into `words`.
///
/// # Safety
/// `words` valid for 16 writes.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_softmax_tiling(
    which: u8,
    m: u32,
    k: u32,
    size1: u32,
    size2: u32,
    work: u32,
    flags: u32,
    words: *mut u32,
) {
    let (a, b) = (flags & 1 != 0, flags & 2 != 0);
    let tl = match which {
        1 => t::flash_v2_tiling(m, k, size1, size2, work, a, b),
        2 => t::grad_tiling(m, k, size1, work, a),
        _ => t::softmax_tiling(m, k, size1, work),
    };
    std::ptr::copy_nonoverlapping(tl.to_words().as_ptr(), words, 16);
}

/// `IsBasicBlockInSoftMax(tiling, dataTypeSize)`.
///
/// # Safety
/// `words` valid for 16 reads.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_softmax_is_basic(words: *const u32, size: u32) -> bool {
    t::is_basic_block(&tiling(words), size)
}
