//! The patterned reductions of a two-dimensional source (归约操作/ReduceMax, ReduceMin,
//! ReduceSum, ReduceMean): `Pattern::Reduce::AR` reduces the last axis (one result per row),
//! `RA` the first (one result per column). A2 and A3 only (the pages list no 310P support).
//!
//! `srcShape = [first, last]`; rows are `last` rounded up to 32 bytes apart
//! (`srcInnerPad = true`, the only layout these products take). The sequences are the
//! device's: see the `pattern` module for max/min and the first axis; the sums fold each
//! row's upper part onto its largest power-of-two prefix, then `PairReduceSum` down to one
//! repeat and two `BlockReduceSum`s (rows of at most 64 elements: one `WholeReduceSum`).

use super::pattern::{block_loop, by_first_axis, by_last_axis, count, finish, BinFn, Mode};
use crate::adv::common::{barrier_v, require, run, Tmp};
use crate::api::vec::binary::{add_l0, max_l0, min_l0};
use crate::api::vec::mask::{reset_mask, set_mask_count, set_mask_norm, set_vector_mask};
use crate::api::vec::reduce::{block_reduce_sum, pair_reduce_sum, whole_reduce_sum, ReduceElement};
use crate::api::vec::scalar::muls_l0;
use crate::chip::Product;
use crate::data_copy;
use crate::dtype::{DType, Element};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::{
    f16, BinaryRepeatParams, DataCopyParams, LocalTensor, MaskMode, UnaryRepeatParams,
    MASK_PLACEHOLDER,
};

/// The products the patterned reductions run on.
const A2_A3: &[Product] = &[Product::Ascend910B, Product::Ascend910_93];

/// `Pattern::Reduce::AR` / `RA` (and the host enum `ReducePattern`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReducePattern {
    /// Reduce the last axis: `dst[r]` for each of the `first` rows.
    AR,
    /// Reduce the first axis: `dst[c]` for each of the `last` columns.
    RA,
}

/// The float-sum constants the device's sum path uses whatever `T` is.
const B32_PER_BLK: u32 = 8;
const B32_PER_REP: u32 = 64;
/// Rows one sum pass takes.
const SUM_ROWS: u32 = 248;

fn fmax<T: ReduceElement>() -> BinFn<T> {
    |d, a, b, m, r, p| max_l0(d, a, b, m, r, p)
}
fn fmin<T: ReduceElement>() -> BinFn<T> {
    |d, a, b, m, r, p| min_l0(d, a, b, m, r, p)
}
fn fadd<T: ReduceElement>() -> BinFn<T> {
    |d, a, b, m, r, p| add_l0(d, a, b, m, r, p)
}

/// Checks and returns `(first, last, padLast)`.
#[allow(clippy::too_many_arguments)]
pub(super) fn check<T: Element>(
    api: &'static str,
    types: &[DType],
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    shape: [u32; 2],
    inner_pad: bool,
    pattern: ReducePattern,
) -> Result<(u32, u32, u32)> {
    require(api, A2_A3)?;
    let err = |c, m: String| Err(SimError::new(c, api, m));
    if !types.contains(&T::DTYPE) {
        return err(
            Category::Type,
            format!("T = {} is not supported: {api} takes {types:?}", T::DTYPE),
        );
    }
    let [first, last] = shape;
    if first == 0 || last == 0 {
        return err(
            Category::Range,
            format!("srcShape = [{first}, {last}]: both axes must be greater than 0"),
        );
    }
    if !inner_pad {
        return err(
            Category::Range,
            "srcInnerPad = false is not supported on this product: rows must be 32-byte aligned"
                .into(),
        );
    }
    let per_blk = 32 / T::SIZE as u32;
    let pad = last.div_ceil(per_blk) * per_blk;
    if first as u64 * pad as u64 > src.get_size() as u64 {
        return err(
            Category::Size,
            format!(
                "srcTensor holds {} elements, fewer than first · padLast = {first} · {pad}",
                src.get_size()
            ),
        );
    }
    let out = if pattern == ReducePattern::AR {
        first
    } else {
        last
    };
    if dst.get_size() < out {
        return err(
            Category::Size,
            format!(
                "dstTensor holds {} elements, fewer than the {out} results",
                dst.get_size()
            ),
        );
    }
    Ok((first, last, pad))
}

/// An error unless `tmp` holds the `need` bytes the host helper gives.
pub(super) fn check_tmp(api: &'static str, tmp: &LocalTensor<u8>, need: u32) -> Result<()> {
    if tmp.get_size() < need {
        return Err(SimError::new(
            Category::Size,
            api,
            format!(
                "sharedTmpBuffer of {} bytes is too small: this shape needs {need} bytes (Get{api}MaxMinTmpSize)",
                tmp.get_size()
            ),
        ));
    }
    Ok(())
}

macro_rules! max_min {
    ($(#[$doc:meta])* $name:ident, $api:literal, $mode:expr, $func:ident, $size:ident) => {
        $(#[$doc])*
        #[track_caller]
        #[allow(clippy::too_many_arguments)]
        pub fn $name<T: Element>(
            dst: &LocalTensor<T>,
            src: &LocalTensor<T>,
            tmp: Tmp,
            pattern: ReducePattern,
            reuse_source: bool,
            src_shape: [u32; 2],
            src_inner_pad: bool,
        ) -> Result<()> {
            const API: &str = $api;
            run(API, SourceLoc::caller(), || {
                let (first, last, pad) = check(
                    API, &[DType::Half, DType::Float], dst, src, src_shape, src_inner_pad, pattern,
                )?;
                let buf = tmp.buffer(API)?;
                check_tmp(API, &buf, $size(src_shape, T::SIZE as u32, pattern, reuse_source).1)?;
                if T::DTYPE == DType::Half {
                    extreme::<f16>($mode, $func(), reuse_source, &dst.reinterpret_cast(),
                        &src.reinterpret_cast(), &buf, pattern, first, last, pad)
                } else {
                    extreme::<f32>($mode, $func(), reuse_source, &dst.reinterpret_cast(),
                        &src.reinterpret_cast(), &buf, pattern, first, last, pad)
                }
            })
        }
    };
}

max_min!(
    /// `ReduceMax<T, pattern, isReuseSource>(dst, src, [sharedTmpBuffer,] srcShape,
    /// srcInnerPad)`: the maximum of each row (`AR`) or column (`RA`) of the `[first, last]`
    /// source. `T`: half or float; A2/A3. `reuse_source` lets it overwrite `src` (then no
    /// temporary space). Temporary space: `reduce_max_max_min_tmp_size`.
    reduce_max, "ReduceMax", Mode::Max, fmax, reduce_max_max_min_tmp_size
);
max_min!(
    /// `ReduceMin<T, pattern, isReuseSource>(…)`: as [`reduce_max`] with the minimum.
    reduce_min, "ReduceMin", Mode::Min, fmin, reduce_min_max_min_tmp_size
);

#[allow(clippy::too_many_arguments)]
fn extreme<T: ReduceElement>(
    mode: Mode,
    func: BinFn<T>,
    reuse: bool,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    buf: &LocalTensor<u8>,
    pattern: ReducePattern,
    first: u32,
    last: u32,
    pad: u32,
) -> Result<()> {
    let tmp = buf.reinterpret_cast::<T>();
    match pattern {
        ReducePattern::AR => by_last_axis(mode, func, reuse, dst, src, &tmp, first, last, pad)?,
        ReducePattern::RA => by_first_axis(func, reuse, dst, src, &tmp, first, last, pad)?,
    }
    finish()
}

/// `ReduceSum<T, pattern, isReuseSource>(dst, src, [sharedTmpBuffer,] srcShape, srcInnerPad)`:
/// the sum of each row (`AR`) or column (`RA`) of the `[first, last]` source. `T`: float;
/// A2/A3. Temporary space: `reduce_sum_max_min_tmp_size`.
#[track_caller]
pub fn reduce_sum<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: Tmp,
    pattern: ReducePattern,
    reuse_source: bool,
    src_shape: [u32; 2],
    src_inner_pad: bool,
) -> Result<()> {
    const API: &str = "ReduceSum";
    run(API, SourceLoc::caller(), || {
        let (first, last, pad) = check(
            API,
            &[DType::Float],
            dst,
            src,
            src_shape,
            src_inner_pad,
            pattern,
        )?;
        let buf = tmp.buffer(API)?;
        check_tmp(
            API,
            &buf,
            reduce_sum_max_min_tmp_size(src_shape, pattern, reuse_source).1,
        )?;
        let (d, s) = (dst.reinterpret_cast::<f32>(), src.reinterpret_cast::<f32>());
        sum_common(reuse_source, &d, &s, &buf, pattern, first, last, pad)?;
        finish()
    })
}

/// `ReduceMean<T, pattern, isReuseSource>(…)`: [`reduce_sum`] then `Muls` by `1.0f / n` (`n`
/// the reduced axis's length). `T`: half or float (the sums use the float layout constants
/// for both); A2/A3. Temporary space: `reduce_mean_max_min_tmp_size`.
#[track_caller]
pub fn reduce_mean<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: Tmp,
    pattern: ReducePattern,
    reuse_source: bool,
    src_shape: [u32; 2],
    src_inner_pad: bool,
) -> Result<()> {
    const API: &str = "ReduceMean";
    run(API, SourceLoc::caller(), || {
        let (first, last, pad) = check(
            API,
            &[DType::Half, DType::Float],
            dst,
            src,
            src_shape,
            src_inner_pad,
            pattern,
        )?;
        let buf = tmp.buffer(API)?;
        check_tmp(
            API,
            &buf,
            reduce_sum_max_min_tmp_size(src_shape, pattern, reuse_source).1,
        )?;
        if T::DTYPE == DType::Half {
            mean_typed::<f16>(
                reuse_source,
                &dst.reinterpret_cast(),
                &src.reinterpret_cast(),
                &buf,
                pattern,
                first,
                last,
                pad,
            )
        } else {
            mean_typed::<f32>(
                reuse_source,
                &dst.reinterpret_cast(),
                &src.reinterpret_cast(),
                &buf,
                pattern,
                first,
                last,
                pad,
            )
        }
    })
}

#[allow(clippy::too_many_arguments)]
fn mean_typed<T: ReduceElement>(
    reuse: bool,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    buf: &LocalTensor<u8>,
    pattern: ReducePattern,
    first: u32,
    last: u32,
    pad: u32,
) -> Result<()> {
    sum_common(reuse, dst, src, buf, pattern, first, last, pad)?;
    set_mask_count()?;
    let (n, over) = match pattern {
        ReducePattern::AR => (first, last),
        ReducePattern::RA => (last, first),
    };
    let scale = T::from_f64((1.0f32 / (over as i32) as f32) as f64);
    count::<T>(n)?;
    muls_l0(
        dst,
        dst,
        scale,
        MASK_PLACEHOLDER,
        1,
        UnaryRepeatParams::default(),
    )?;
    barrier_v()?;
    finish()
}

/// `ReduceSumCommon`.
#[allow(clippy::too_many_arguments)]
fn sum_common<T: ReduceElement>(
    reuse: bool,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    buf: &LocalTensor<u8>,
    pattern: ReducePattern,
    first: u32,
    last: u32,
    pad: u32,
) -> Result<()> {
    let tmp = buf.reinterpret_cast::<T>();
    if pattern == ReducePattern::RA {
        return by_first_axis(fadd(), reuse, dst, src, &tmp, first, last, pad);
    }
    let per_blk = 32 / T::SIZE as u32;
    let mut split = 1u32 << (31 - last.leading_zeros());
    if last <= per_blk {
        split = 0;
    }
    let p = SumShape {
        first,
        last,
        pad,
        tail: last - split,
        per_blk,
    };
    if last <= B32_PER_BLK {
        return block_loop(Mode::Sum, dst, src, 0, first, last);
    }
    let mut per_row = per_blk.max(split);
    if last == split {
        per_row >>= 1;
    }
    let work = if reuse { *src } else { tmp };
    sum_rows(reuse, dst, src, &work, per_row, &p)
}

/// `ReduceParams` of the sum path.
struct SumShape {
    first: u32,
    last: u32,
    pad: u32,
    tail: u32,
    per_blk: u32,
}

/// `ReduceSumArCompute`: rows in passes of 248.
fn sum_rows<T: ReduceElement>(
    reuse: bool,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: &LocalTensor<T>,
    per_row: u32,
    p: &SumShape,
) -> Result<()> {
    let (full, rest) = (p.first / SUM_ROWS, p.first % SUM_ROWS);
    let rep_stride = (p.pad / p.per_blk) as i32;
    if p.last <= B32_PER_REP {
        set_mask_norm()?;
        set_vector_mask::<T>(MaskMode::NORMAL, p.last as u64)?;
        for i in 0..full {
            let (d, s) = (dst.at(SUM_ROWS * i)?, src.at(SUM_ROWS * i * p.pad)?);
            whole_reduce_sum(&d, &s, MASK_PLACEHOLDER, SUM_ROWS as i32, 1, 1, rep_stride)?;
        }
        if rest > 0 {
            let r0 = p.first - rest;
            set_vector_mask::<T>(MaskMode::NORMAL, p.last as u64)?;
            whole_reduce_sum(
                &dst.at(r0)?,
                &src.at(r0 * p.pad)?,
                MASK_PLACEHOLDER,
                rest as i32,
                1,
                1,
                rep_stride,
            )?;
        }
    } else {
        set_mask_count()?;
        for i in 0..full {
            let r0 = SUM_ROWS * i;
            large_last(
                reuse,
                &dst.at(r0)?,
                &src.at(r0 * p.pad)?,
                &tmp.at(r0 * B32_PER_REP)?,
                SUM_ROWS,
                per_row,
                p,
            )?;
        }
        if rest > 0 {
            let r0 = p.first - rest;
            large_last(
                reuse,
                &dst.at(r0)?,
                &src.at(r0 * p.pad)?,
                &tmp.at(r0 * B32_PER_REP)?,
                rest,
                per_row,
                p,
            )?;
        }
        set_mask_norm()?;
    }
    barrier_v()?;
    reset_mask()
}

/// `DataCopy(dst, src, {rows, perRow / 8, (padLast − perRow) / 8, 0})`: packs each row's first
/// `per_row` elements.
fn pack<T: ReduceElement>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    rows: u32,
    per_row: u32,
    p: &SumShape,
) -> Result<()> {
    let params = DataCopyParams::new(
        rows as u16,
        (per_row / B32_PER_BLK) as u16,
        ((p.pad - per_row) / B32_PER_BLK) as u16,
        0,
    );
    data_copy(dst, src, params)?;
    barrier_v()
}

/// `ReduceSumInLargeLast`: `rows` rows longer than one repeat.
fn large_last<T: ReduceElement>(
    reuse: bool,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: &LocalTensor<T>,
    rows: u32,
    per_row: u32,
    p: &SumShape,
) -> Result<()> {
    if !reuse {
        pack(tmp, src, rows, per_row, p)?;
    }
    fold_tail(reuse, src, tmp, rows, per_row, p)?;
    reset_mask()?;
    set_mask_count()?;
    let mut k = per_row;
    while k > B32_PER_REP {
        count::<T>(rows * k)?;
        pair_reduce_sum(tmp, tmp, 1, MASK_PLACEHOLDER, 1, 1, 8)?;
        barrier_v()?;
        k >>= 1;
    }
    count::<T>(rows * B32_PER_REP)?;
    block_reduce_sum(tmp, tmp, 1, MASK_PLACEHOLDER, 1, 1, 8)?;
    barrier_v()?;
    count::<T>(rows * B32_PER_BLK)?;
    block_reduce_sum(dst, tmp, 1, MASK_PLACEHOLDER, 1, 1, 8)
}

/// `ReduceSumComputeTail`: adds each row's elements beyond `per_row` onto its first ones,
/// column-sliced (one `Add` of `rows` repeats per 64 columns) when that takes fewer
/// instructions, else row by row.
fn fold_tail<T: ReduceElement>(
    reuse: bool,
    src: &LocalTensor<T>,
    tmp: &LocalTensor<T>,
    rows: u32,
    per_row: u32,
    p: &SumShape,
) -> Result<()> {
    let tail = if p.tail == 0 && per_row > 0 {
        p.pad - per_row
    } else {
        p.tail
    };
    let (n, rem) = (tail / B32_PER_REP, tail % B32_PER_REP);
    let sliced =
        (n + (rem > 0) as u32) < rows && p.last > B32_PER_REP && per_row / B32_PER_BLK <= 255;
    let default = BinaryRepeatParams::default();
    if sliced {
        set_mask_norm()?;
        let row_size = if reuse { p.pad } else { per_row };
        let d_rep = (row_size / B32_PER_BLK) as u8;
        let s1_rep = (p.pad / B32_PER_BLK) as u8;
        let params = BinaryRepeatParams::new(1, 1, 1, d_rep, d_rep, s1_rep);
        set_vector_mask::<T>(MaskMode::NORMAL, B32_PER_REP as u64)?;
        for i in 0..n {
            let t = tmp.at(i * B32_PER_REP)?;
            add_l0(
                &t,
                &t,
                &src.at(per_row + i * B32_PER_REP)?,
                MASK_PLACEHOLDER,
                rows as u8,
                params,
            )?;
        }
        if rem > 0 {
            let t = tmp.at(n * B32_PER_REP)?;
            set_vector_mask::<T>(MaskMode::NORMAL, rem as u64)?;
            add_l0(
                &t,
                &t,
                &src.at(per_row + n * B32_PER_REP)?,
                MASK_PLACEHOLDER,
                rows as u8,
                params,
            )?;
        }
        barrier_v()?;
        if reuse {
            pack(tmp, tmp, rows, per_row, p)?;
        }
    } else if reuse {
        count::<T>(tail)?;
        for i in 0..rows {
            let t = tmp.at(i * p.pad)?;
            add_l0(
                &t,
                &t,
                &src.at(i * p.pad + per_row)?,
                MASK_PLACEHOLDER,
                1,
                default,
            )?;
        }
        barrier_v()?;
        pack(tmp, tmp, rows, per_row, p)?;
    } else {
        for i in 0..rows {
            count::<T>(tail)?;
            let t = tmp.at(i * per_row)?;
            add_l0(
                &t,
                &t,
                &src.at(i * p.pad + per_row)?,
                MASK_PLACEHOLDER,
                1,
                default,
            )?;
        }
        barrier_v()?;
    }
    Ok(())
}

/// The largest power of two not above `n` (`FindK`; 1 for 0).
pub(super) fn find_k(n: u32) -> u32 {
    if n == 0 {
        1
    } else {
        1 << (31 - n.leading_zeros())
    }
}

/// `GetReduceMaxMaxMinTmpSize` / `GetReduceMinMaxMinTmpSize` (`ReduceAny`/`ReduceAll` of float):
/// `(max, min)` bytes for `srcShape = [first, last]` of `type_size`-byte elements. `AR`: none
/// for rows of at most a block, `first` blocks for rows under a repeat, `first` repeats else;
/// `RA`: `k` rows (`k` the largest power of two below `first`, or `first / 2`) of 32-byte
/// aligned length. None with `isReuseSource`.
pub fn reduce_max_max_min_tmp_size(
    shape: [u32; 2],
    type_size: u32,
    pattern: ReducePattern,
    reuse_source: bool,
) -> (u32, u32) {
    let [first, last] = shape;
    if reuse_source || type_size == 0 || type_size > 32 {
        return (0, 0);
    }
    let v = match pattern {
        ReducePattern::AR => {
            let (blk, rep) = (32 / type_size, 256 / type_size);
            if last <= blk {
                0
            } else if last < rep {
                first * blk * type_size
            } else {
                first * rep * type_size
            }
        }
        ReducePattern::RA => ra_rows(first) * (last * type_size).div_ceil(32) * 32,
    };
    (v, v)
}

/// `GetReduceMinMaxMinTmpSize`: the same as [`reduce_max_max_min_tmp_size`].
pub fn reduce_min_max_min_tmp_size(
    shape: [u32; 2],
    type_size: u32,
    pattern: ReducePattern,
    reuse_source: bool,
) -> (u32, u32) {
    reduce_max_max_min_tmp_size(shape, type_size, pattern, reuse_source)
}

/// Rows the first-axis halving keeps in the temporary buffer.
pub(super) fn ra_rows(first: u32) -> u32 {
    let k = find_k(first);
    if k == first && first > 1 {
        k >> 1
    } else {
        k
    }
}

/// `GetReduceSumMaxMinTmpSize` / `GetReduceMeanMaxMinTmpSize`: `(max, min)` bytes (float).
/// `AR`: none for rows of at most 64, else `first · k · 4` (`k` the largest power of two not
/// above `last`, halved when equal and `first > 1`); `RA`: `k` rows (of `first`) of the
/// 8-aligned `last` floats. None with `isReuseSource`.
pub fn reduce_sum_max_min_tmp_size(
    shape: [u32; 2],
    pattern: ReducePattern,
    reuse_source: bool,
) -> (u32, u32) {
    let [first, last] = shape;
    if reuse_source {
        return (0, 0);
    }
    let v = match pattern {
        ReducePattern::AR => {
            let mut k = find_k(last);
            if k == last && first > 1 {
                k >>= 1;
            }
            if last <= B32_PER_REP {
                0
            } else {
                first * k * 4
            }
        }
        ReducePattern::RA => ra_rows(first) * last.div_ceil(8) * 8 * 4,
    };
    (v, v)
}
