//! The sort family's C ABI: `TopK` (`ascendc_adv_topk`), its host helpers
//! (`GetTopKMaxMinTmpSize`, `TopKTilingFunc`; the tiling travels as its 112 bytes) and the
//! temporary-space sizes of the high-level `Concat` / `Sort`.

use super::with_tmp;
use crate::abi::{call, dtype, AscLoc, AscLocal};
use ascendc::adv::sort::sort_tiling::{concat_tmp_size, sort_tmp_size};
use ascendc::adv::sort::topk::{topk_host_check, topk_max_min_tmp_size, topk_tiling};
use ascendc::adv::sort::{topk, TopKInfo, TopKMode, TopKOptions, TopkTiling};
use ascendc::chip::Product;
use ascendc::error::{Category, SimError};
use ascendc::{f16, DType, LocalTensor, TPipe};
use std::ffi::c_char;

fn mode(m: u8) -> TopKMode {
    if m == 0 {
        TopKMode::Normal
    } else {
        TopKMode::NSmall
    }
}

/// The product of `PlatformAscendC::GetCurNpuArch` (2002: the inference series; otherwise
/// A2/A3).
fn arch_product(npu_arch: u32) -> Product {
    if npu_arch == 2002 {
        Product::Ascend310P
    } else {
        Product::Ascend910B
    }
}

/// The tensor behind `p`, or an empty one when the template switch leaves it unread.
///
/// # Safety
/// `p` a valid handle when `used`.
unsafe fn optional<T: ascendc::TensorElement>(
    p: *const AscLocal,
    used: bool,
) -> Result<LocalTensor<T>, SimError> {
    match p.as_ref() {
        Some(t) if used => t.tensor(),
        _ => Ok(LocalTensor::default()),
    }
}

/// `TopK<T, isInitIndex, isHasfinish, isReuseSrc, topkMode>(…)` on elements of type `elem`;
/// `flags` bit 0 `isInitIndex`, 1 `isHasfinish`, 2 `isReuseSrc`, 3 `isLargest`; `topk_mode` 0
/// Normal, 1 Small; `tiling` the 112 bytes of `TopkTiling`. `tmp` null takes `pipe`'s stack
/// buffer.
///
/// # Safety
/// Tensor handles valid (`src_index` / `finish` may be empty when unused); `tmp` null or valid;
/// `pipe` null or from `ascendc_pipe_new`; `tiling` valid for 112 reads.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_topk(
    elem: u8,
    topk_mode: u8,
    flags: u8,
    dst_value: *const AscLocal,
    dst_index: *const AscLocal,
    src: *const AscLocal,
    src_index: *const AscLocal,
    finish: *const AscLocal,
    tmp: *const AscLocal,
    pipe: *const TPipe,
    k: i32,
    tiling: *const u8,
    outter: i32,
    inner: i32,
    n: i32,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let opts = TopKOptions {
            is_init_index: flags & 1 != 0,
            is_has_finish: flags & 2 != 0,
            is_reuse_src: flags & 4 != 0,
            mode: mode(topk_mode),
        };
        let largest = flags & 8 != 0;
        let tl: TopkTiling = std::ptr::read_unaligned(tiling as *const TopkTiling);
        let info = TopKInfo { outter, inner, n };
        let di: LocalTensor<i32> = (*dst_index).tensor()?;
        let si: LocalTensor<i32> = optional(src_index, opts.is_init_index)?;
        let fin: LocalTensor<u8> = optional(finish, opts.is_has_finish)?;
        macro_rules! go {
            ($t:ty) => {{
                let dv: LocalTensor<$t> = (*dst_value).tensor()?;
                let s: LocalTensor<$t> = (*src).tensor()?;
                with_tmp("TopK", tmp, pipe, |t| {
                    topk(&dv, &di, &s, &si, &fin, t, k, &tl, info, largest, opts)
                })
            }};
        }
        match dtype(elem)? {
            DType::Half => go!(f16),
            DType::Float => go!(f32),
            d => Err(SimError::new(
                Category::Type,
                "TopK",
                format!("T = {d} is not supported: TopK takes half or float"),
            )),
        }
    })
}

/// Writes `m` (truncated) as a NUL-terminated string into `msg` of `cap` bytes.
///
/// # Safety
/// `msg` null or valid for `cap` writes.
unsafe fn put_message(msg: *mut c_char, cap: u32, m: &str) {
    if msg.is_null() || cap == 0 {
        return;
    }
    let n = m.len().min(cap as usize - 1);
    std::ptr::copy_nonoverlapping(m.as_ptr() as *const c_char, msg, n);
    *msg.add(n) = 0;
}

/// `GetTopKMaxMinTmpSize(platform, inner, outter, isReuseSource, isInitIndex, mode,
/// isLargest, dataTypeSize, maxValue, minValue)` for the platform's `npu_arch` and UB size;
/// false (and the reason in `msg`) when the host checks fail.
///
/// # Safety
/// `max` and `min` valid for writes; `msg` null or valid for `cap` writes.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_topk_tmp_size(
    npu_arch: u32,
    ub_bytes: u64,
    inner: i32,
    outter: i32,
    flags: u8,
    topk_mode: u8,
    type_size: u32,
    max: *mut u32,
    min: *mut u32,
    msg: *mut c_char,
    cap: u32,
) -> bool {
    let (p, m, init) = (arch_product(npu_arch), mode(topk_mode), flags & 1 != 0);
    let api = "GetTopKMaxMinTmpSize";
    if let Err(e) = topk_host_check(p, api, inner, outter, None, init, m, type_size, ub_bytes) {
        put_message(msg, cap, &e);
        return false;
    }
    let (reuse, largest) = (flags & 4 != 0, flags & 8 != 0);
    (*max, *min) = topk_max_min_tmp_size(p, inner, outter, reuse, init, m, largest, type_size);
    true
}

/// `TopKTilingFunc(platform, inner, outter, k, dataTypeSize, isInitIndex, mode, isLargest,
/// topKTiling)` into the 112 bytes at `out`; false (and the reason in `msg`) when the host
/// checks fail.
///
/// # Safety
/// `out` valid for 112 writes; `msg` null or valid for `cap` writes.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_topk_tiling(
    npu_arch: u32,
    ub_bytes: u64,
    inner: i32,
    outter: i32,
    k: i32,
    type_size: u32,
    flags: u8,
    topk_mode: u8,
    out: *mut u8,
    msg: *mut c_char,
    cap: u32,
) -> bool {
    let (p, m, init) = (arch_product(npu_arch), mode(topk_mode), flags & 1 != 0);
    let api = "TopKTilingFunc";
    if let Err(e) = topk_host_check(p, api, inner, outter, Some(k), init, m, type_size, ub_bytes) {
        put_message(msg, cap, &e);
        return false;
    }
    let t = topk_tiling(p, inner, outter, k, type_size, init, m, flags & 8 != 0);
    std::ptr::write_unaligned(out as *mut TopkTiling, t);
    true
}

/// `GetConcatTmpSize` (`which` 0) or `GetSortTmpSize` (1) for the platform's `npu_arch`.
#[no_mangle]
pub extern "C" fn ascendc_adv_sort_tmp_size(
    npu_arch: u32,
    which: u8,
    elem_count: u32,
    type_size: u32,
) -> u32 {
    let p = if npu_arch == 2201 {
        Product::Ascend910B
    } else {
        Product::Ascend310P
    };
    if which == 0 {
        concat_tmp_size(p, elem_count, type_size)
    } else {
        sort_tmp_size(p, elem_count, type_size)
    }
}
