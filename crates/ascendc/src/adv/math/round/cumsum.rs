//! `CumSum` (数学计算/CumSum): running sums of an `outter × inner` matrix, down its columns
//! (first axis) or along its rows (last axis). half and float; A2, A3 and 310P.
//!
//! As the device does it. First axis: row `r` of the result = row `r − 1` + row `r` of the
//! source, one `Add` per row (half: in float in the temporary buffer, widened once and narrowed
//! once). Last axis: blocks of rows (16 per unit of the buffer's minimum) are transposed with
//! `TransDataTo5HD` into the temporary buffer, summed there row by row as in the first-axis
//! case (half: in float), transposed back and copied out (`Adds` 0). Sums run in float from the
//! first element on, so they are sequential float sums (half: each narrowed once, nearest even).

use super::cast_round::{bad_type, NARROW, SAME, WIDEN};
use crate::adv::common::{barrier_v, require, run, Tmp, A2_A3_310P};
use crate::api::vec::binary::add_l0;
use crate::api::vec::cast::cast_l0;
use crate::api::vec::mask::{reset_mask, set_mask_count, set_mask_norm, set_vector_mask};
use crate::api::vec::scalar::adds_l0;
use crate::api::vec::trans_data::{trans_data_to_5hd_addr, TransDataTo5HDParams};
use crate::dtype::DType;
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::numeric::{Arith, RoundMode};
use crate::{
    f16, BinaryRepeatParams, Element, LocalTensor, MaskMode, UnaryRepeatParams, MASK_PLACEHOLDER,
};

const API: &str = "CumSum";

/// Rows (and addresses) one `TransDataTo5HD` moves.
const LIST: u32 = 16;

/// `CumSumConfig`: which axis, and whether the last row of the result is also written to
/// `lastRowTensor`. (`isReuseSource` and the algorithm do not change the result here.)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CumSumConfig {
    /// Sum along each row (true) or down each column (false).
    pub is_last_axis: bool,
    /// `isReuseSource`: accepted, not used.
    pub is_reuse_source: bool,
    /// Also copy the last row of the result to `lastRowTensor`.
    pub output_last_row: bool,
}

impl Default for CumSumConfig {
    fn default() -> Self {
        CumSumConfig {
            is_last_axis: true,
            is_reuse_source: false,
            output_last_row: false,
        }
    }
}

/// `CumSumInfo`: the matrix, `outter` rows of `inner` elements (`inner · sizeof(T)` a multiple
/// of 32 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CumSumInfo {
    /// Rows.
    pub outter: u32,
    /// Elements of a row.
    pub inner: u32,
}

/// `CumSum<T, config>(dst, lastRow, src, [sharedTmpBuffer,] cumSumInfo)`: last axis
/// `dst[r][c] = Σ_{k ≤ c} src[r][k]`, first axis `dst[r][c] = Σ_{k ≤ r} src[k][c]`; with
/// `output_last_row`, `last_row` = the last row of `dst`. `T`: half or float. `tmp`
/// (`GetCumSumMaxMinTmpSize`): last axis at least 16 · inner · sizeof(T) · 2 bytes (half: plus
/// 16 · inner · 2); first axis half outter · inner · 4, float none.
#[track_caller]
pub fn cum_sum<T: Element>(
    dst: &LocalTensor<T>,
    last_row: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: Tmp,
    info: CumSumInfo,
    config: CumSumConfig,
) -> Result<()> {
    run(API, SourceLoc::caller(), || {
        require(API, A2_A3_310P)?;
        check_info::<T>(info, dst, src)?;
        match T::DTYPE {
            DType::Half => {
                let c = |t: &LocalTensor<T>| t.reinterpret_cast::<f16>();
                sums(&c(dst), &c(last_row), &c(src), tmp, info, config)
            }
            DType::Float => {
                let c = |t: &LocalTensor<T>| t.reinterpret_cast::<f32>();
                sums(&c(dst), &c(last_row), &c(src), tmp, info, config)
            }
            other => Err(bad_type(API, other, "half or float")),
        }
    })
}

/// The shape checks: a 32-byte multiple row, the matrix inside both tensors.
fn check_info<T: Element>(
    info: CumSumInfo,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
) -> Result<()> {
    let bad = |m: String| Err(SimError::new(Category::Range, API, m));
    if info.outter == 0 || info.inner == 0 || !(info.inner * T::SIZE as u32).is_multiple_of(32) {
        return bad(format!(
            "cumSumInfo = {{outter {}, inner {}}}: both must be positive and inner · sizeof(T) a multiple of 32 bytes",
            info.outter, info.inner
        ));
    }
    let n = info.outter as u64 * info.inner as u64;
    for (name, size) in [("dstTensor", dst.get_size()), ("srcTensor", src.get_size())] {
        if n > size as u64 {
            return Err(SimError::new(
                Category::Size,
                API,
                format!("cumSumInfo covers {n} elements but `{name}` has {size}"),
            ));
        }
    }
    Ok(())
}

/// The float type the sums run in, and how `T` gets there.
trait Summed: Arith {
    /// Whether `T` is half (sums are widened and narrowed).
    const HALF: bool;
}
impl Summed for f16 {
    const HALF: bool = true;
}
impl Summed for f32 {
    const HALF: bool = false;
}

fn sums<T: Summed>(
    dst: &LocalTensor<T>,
    last_row: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: Tmp,
    info: CumSumInfo,
    config: CumSumConfig,
) -> Result<()> {
    let buf = tmp.buffer(API)?;
    let size = T::SIZE as u32;
    if config.is_last_axis {
        let cast_part = if T::HALF { info.inner * LIST * 2 } else { 0 };
        let min = cast_part + LIST * info.inner * size * 2;
        need(buf.get_size(), min)?;
        let rows = buf.get_size() / min * LIST;
        let work = buf.reinterpret_cast::<T>();
        let mut row = 0;
        while row < info.outter {
            let n = rows.min(info.outter - row);
            let at = row * info.inner;
            let part = CumSumInfo {
                outter: n,
                inner: info.inner,
            };
            if T::HALF {
                last_axis_half(
                    &dst.at(at)?.reinterpret_cast(),
                    &src.at(at)?.reinterpret_cast(),
                    &work.reinterpret_cast(),
                    part,
                )?;
            } else {
                last_axis_float(
                    &dst.at(at)?.reinterpret_cast(),
                    &src.at(at)?.reinterpret_cast(),
                    &work.reinterpret_cast(),
                    part,
                )?;
            }
            row += n;
        }
    } else if T::HALF {
        need(buf.get_size(), info.outter * info.inner * 4)?;
        first_axis_half(
            &dst.reinterpret_cast(),
            &src.reinterpret_cast(),
            &buf.reinterpret_cast(),
            info,
        )?;
    } else {
        first_axis_float(&dst.reinterpret_cast(), &src.reinterpret_cast(), info)?;
    }
    if config.output_last_row {
        set_mask_count()?;
        set_vector_mask::<T>(MaskMode::COUNTER, info.inner as u64)?;
        let last = dst.at((info.outter - 1) * info.inner)?;
        adds_l0(last_row, &last, T::default(), MASK_PLACEHOLDER, 1, SAME)?;
        barrier_v()?;
        set_mask_norm()?;
        reset_mask()?;
    }
    Ok(())
}

/// The buffer-size check of the CPU-debug build.
fn need(have: u32, min: u32) -> Result<()> {
    if have < min {
        return Err(SimError::new(
            Category::Size,
            API,
            format!("sharedTmpBuffer of {have} bytes is too small: this shape needs {min} at least (GetCumSumMaxMinTmpSize)"),
        ));
    }
    Ok(())
}

/// First axis, float: `dst` row 0 = `src` row 0, then one `Add` per row.
fn first_axis_float(
    dst: &LocalTensor<f32>,
    src: &LocalTensor<f32>,
    info: CumSumInfo,
) -> Result<()> {
    let w = info.inner;
    set_mask_count()?;
    set_vector_mask::<f32>(MaskMode::COUNTER, w as u64)?;
    adds_l0(dst, src, 0.0, MASK_PLACEHOLDER, 1, SAME)?;
    barrier_v()?;
    for row in 1..info.outter {
        add_l0(
            &dst.at(row * w)?,
            &dst.at((row - 1) * w)?,
            &src.at(row * w)?,
            MASK_PLACEHOLDER,
            1,
            BinaryRepeatParams::default(),
        )?;
        barrier_v()?;
    }
    set_mask_norm()?;
    reset_mask()
}

/// First axis, half: widened into the buffer, summed there, narrowed into `dst`. As on the
/// device, the mask is left in counter mode.
fn first_axis_half(
    dst: &LocalTensor<f16>,
    src: &LocalTensor<f16>,
    wide: &LocalTensor<f32>,
    info: CumSumInfo,
) -> Result<()> {
    let (w, n) = (info.inner, (info.outter * info.inner) as u64);
    set_mask_count()?;
    set_vector_mask::<f32>(MaskMode::COUNTER, n)?;
    cast_l0(wide, src, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, WIDEN)?;
    barrier_v()?;
    set_vector_mask::<f16>(MaskMode::COUNTER, w as u64)?;
    row_sums(wide, w, info.outter)?;
    set_vector_mask::<f16>(MaskMode::COUNTER, n)?;
    cast_l0(dst, wide, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, NARROW)?;
    barrier_v()
}

/// `rows` rows of `stride` floats in `t`: each row += the one before (under the current mask).
fn row_sums(t: &LocalTensor<f32>, stride: u32, rows: u32) -> Result<()> {
    for row in 1..rows {
        let cur = t.at(row * stride)?;
        add_l0(
            &cur,
            &t.at((row - 1) * stride)?,
            &cur,
            MASK_PLACEHOLDER,
            1,
            BinaryRepeatParams::default(),
        )?;
        barrier_v()?;
    }
    Ok(())
}

/// UB byte address of element `i` of `t`.
fn addr<T: Element>(t: &LocalTensor<T>, i: u32) -> u64 {
    t.get_phy_addr() as u64 + i as u64 * T::SIZE as u64
}

/// `TransDataTo5HD<T>` with address lists built by `f(n) = (dst, src)`.
fn transpose<T: Element>(
    params: TransDataTo5HDParams,
    mut f: impl FnMut(usize, &mut [u64; 16], &mut [u64; 16]),
) -> Result<()> {
    let (mut d, mut s) = ([0u64; 16], [0u64; 16]);
    for n in 0..LIST as usize {
        f(n, &mut d, &mut s);
    }
    trans_data_to_5hd_addr::<T>(&d, &s, params)
}

/// `TransDataTo5HDParams` without high halves.
fn params(repeats: u32, dst_stride: u32, src_stride: u32) -> TransDataTo5HDParams {
    TransDataTo5HDParams::new(
        false,
        false,
        repeats as u8,
        dst_stride as u16,
        src_stride as u16,
    )
}

/// Last axis, half: `outter` rows transposed into `work` (`inner` rows of `align` columns),
/// widened after them, summed, narrowed back over the transposed rows, transposed back after
/// them and copied to `dst`.
fn last_axis_half(
    dst: &LocalTensor<f16>,
    src: &LocalTensor<f16>,
    work: &LocalTensor<f16>,
    info: CumSumInfo,
) -> Result<()> {
    let (rows, w) = (info.outter, info.inner);
    let blk = 16;
    let align = rows.div_ceil(LIST) * LIST;
    if rows == align && align > w {
        let r = align / LIST;
        let p = if r > 1 {
            params(r, 1, w)
        } else {
            params(r, 0, 0)
        };
        for i in 0..w / blk {
            transpose::<f16>(p, |n, d, s| {
                let n = n as u32;
                s[n as usize] = addr(src, i * blk + n * w);
                d[n as usize] = addr(work, i * blk * align + align * n);
            })?;
        }
    } else {
        let r = w / blk;
        let p = if r > 1 {
            params(r, align, 1)
        } else {
            params(r, 0, 0)
        };
        for i in 0..align / LIST {
            transpose::<f16>(p, |n, d, s| {
                let n = n as u32;
                s[n as usize] = addr(src, (i * LIST + n % (rows - i * LIST)) * w);
                d[n as usize] = addr(work, i * LIST + align * n);
            })?;
        }
    }
    barrier_v()?;
    let total = (align * w) as u64;
    set_mask_count()?;
    set_vector_mask::<f32>(MaskMode::COUNTER, total)?;
    let wide = work.at(align * w)?.reinterpret_cast::<f32>();
    cast_l0(
        &wide,
        work,
        RoundMode::CAST_NONE,
        MASK_PLACEHOLDER,
        1,
        WIDEN,
    )?;
    barrier_v()?;
    set_vector_mask::<f32>(MaskMode::COUNTER, align as u64)?;
    row_sums(&wide, align, w)?;
    set_vector_mask::<f16>(MaskMode::COUNTER, total)?;
    cast_l0(
        work,
        &wide,
        RoundMode::CAST_NONE,
        MASK_PLACEHOLDER,
        1,
        NARROW,
    )?;
    barrier_v()?;
    set_mask_norm()?;
    reset_mask()?;
    let back = work.at(align * w)?;
    if align > w {
        let r = align / blk;
        let p = if r > 1 {
            params(r, w, 1)
        } else {
            params(r, 0, 0)
        };
        for i in 0..w / LIST {
            transpose::<f16>(p, |n, d, s| {
                let n = n as u32;
                s[n as usize] = addr(work, (i * LIST + n) * align);
                d[n as usize] = addr(&back, i * LIST + n * w);
            })?;
        }
    } else {
        let r = w / blk;
        let p = if r > 1 {
            params(r, 1, align)
        } else {
            params(r, 0, 0)
        };
        for i in 0..align / LIST {
            transpose::<f16>(p, |n, d, s| {
                let n = n as u32;
                s[n as usize] = addr(work, i * LIST + align * n);
                d[n as usize] = addr(&back, (i * LIST + n) * w);
            })?;
        }
    }
    copy_out(dst, &back, rows * w)
}

/// Last axis, float: as [`last_axis_half`] without the casts; a float transpose moves 16 rows
/// of 8 into 8 rows of 16 (two destination blocks per row).
fn last_axis_float(
    dst: &LocalTensor<f32>,
    src: &LocalTensor<f32>,
    work: &LocalTensor<f32>,
    info: CumSumInfo,
) -> Result<()> {
    let (rows, w) = (info.outter, info.inner);
    let blk = 8;
    let align = rows.div_ceil(LIST) * LIST;
    if rows == align && align > w {
        let r = align / LIST;
        let p = if r > 1 {
            params(r, 2, w * 2)
        } else {
            params(r, 0, 0)
        };
        for i in 0..w / blk {
            transpose::<f32>(p, |n, d, s| {
                let n32 = n as u32;
                s[n] = addr(src, i * blk + n32 * w);
                if n < 8 {
                    d[n * 2] = addr(work, (i * blk + n32) * align);
                    d[n * 2 + 1] = addr(work, (i * blk + n32) * align + blk);
                }
            })?;
        }
    } else {
        let r = w / blk;
        let p = if r > 1 {
            params(r, align, 1)
        } else {
            params(r, 0, 0)
        };
        for i in 0..align / LIST {
            transpose::<f32>(p, |n, d, s| {
                let n32 = n as u32;
                s[n] = addr(src, (i * LIST + n32 % (rows - i * LIST)) * w);
                if n < 8 {
                    d[n * 2] = addr(work, i * LIST + n32 * align);
                    d[n * 2 + 1] = addr(work, i * LIST + n32 * align + blk);
                }
            })?;
        }
    }
    barrier_v()?;
    set_mask_count()?;
    set_vector_mask::<f32>(MaskMode::COUNTER, align as u64)?;
    row_sums(work, align, w)?;
    set_mask_norm()?;
    reset_mask()?;
    let back = work.at(align * w)?;
    if align > w {
        let r = align / LIST;
        let p = if r > 1 {
            params(r, w * 2, 2)
        } else {
            params(r, 0, 0)
        };
        for i in 0..w / blk {
            transpose::<f32>(p, |n, d, s| {
                if n < 8 {
                    let n32 = n as u32;
                    s[n] = addr(work, i * blk * align + n32 * align);
                    s[n + 8] = addr(work, i * blk * align + n32 * align + blk);
                    d[n * 2] = addr(&back, i * blk + n32 * w);
                    d[n * 2 + 1] = addr(&back, i * blk + (n32 + blk) * w);
                }
            })?;
        }
    } else {
        let r = w / blk;
        let p = if r > 1 {
            params(r, 1, align)
        } else {
            params(r, 0, 0)
        };
        for i in 0..align / LIST {
            transpose::<f32>(p, |n, d, s| {
                if n < 8 {
                    let n32 = n as u32;
                    s[n] = addr(work, i * LIST + n32 * align);
                    s[n + 8] = addr(work, i * LIST + n32 * align + blk);
                    d[n * 2] = addr(&back, (i * LIST + n32) * w);
                    d[n * 2 + 1] = addr(&back, (i * LIST + n32 + 8) * w);
                }
            })?;
        }
    }
    copy_out(dst, &back, rows * w)
}

/// `dst = back + 0` over `n` elements under the counter mask.
fn copy_out<T: Arith>(dst: &LocalTensor<T>, back: &LocalTensor<T>, n: u32) -> Result<()> {
    barrier_v()?;
    set_mask_count()?;
    set_vector_mask::<T>(MaskMode::COUNTER, n as u64)?;
    adds_l0(
        dst,
        back,
        T::default(),
        MASK_PLACEHOLDER,
        1,
        UnaryRepeatParams::default(),
    )?;
    barrier_v()?;
    set_mask_norm()?;
    reset_mask()
}

/// `GetCumSumMaxMinTmpSize(srcShape, typeSize, isLastAxis, isReuseSource, maxValue,
/// minValue)` for a `[outter, inner]` shape: `(max, min)` bytes. First axis: half outter ·
/// inner · 4 both, float none. Last axis: 2 · 16 · inner · typeSize at least and 2 · align16(outter)
/// · inner · typeSize at most, half plus inner · 16 · 2 and inner · align16(outter) · 2.
pub fn cum_sum_max_min_tmp_size(
    outter: u32,
    inner: u32,
    type_size: u32,
    is_last_axis: bool,
) -> (u32, u32) {
    let half = type_size == 2;
    if !is_last_axis {
        let v = if half { outter * inner * 4 } else { 0 };
        return (v, v);
    }
    let align = outter.div_ceil(LIST) * LIST;
    let (cast_min, cast_max) = if half {
        (inner * LIST * 2, inner * align * 2)
    } else {
        (0, 0)
    };
    (
        cast_max + align * inner * type_size * 2,
        cast_min + LIST * inner * type_size * 2,
    )
}
