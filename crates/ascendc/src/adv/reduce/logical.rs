//! The patterned product and logical reductions (归约操作/ReduceProd, ReduceAny, ReduceAll):
//! `Pattern::Reduce::AR` (one result per row) and `RA` (one per column) of a `[first, last]`
//! source whose rows are 32-byte aligned; A2 and A3.
//!
//! `ReduceProd` (float) multiplies each row down to one block, broadcasts it with `Brcb`,
//! multiplies the blocks together and gathers lane 0 of each row. `ReduceAny` / `ReduceAll`
//! are the maximum / minimum: of floats as `ReduceMax` / `ReduceMin`; of `uint8_t` rows through
//! half (`AR`) or as `int16_t` pairs with `Or` / `And` (`RA`).

use super::pattern::{block_loop, by_first_axis, by_last_axis, count, finish, BinFn, Mode};
use super::patterned::{
    check, check_tmp, find_k, ra_rows, reduce_max_max_min_tmp_size, ReducePattern,
};
use crate::adv::common::{barrier_v, run, Tmp};
use crate::api::vec::binary::{and_l0, max_l0, min_l0, mul_l0, or_l0};
use crate::api::vec::cast::cast_l0;
use crate::api::vec::duplicate::duplicate;
use crate::api::vec::fill::{brcb, BrcbRepeatParams};
use crate::api::vec::gather::{gather_mask_tensor, GatherMaskParams};
use crate::api::vec::mask::{reset_mask, set_mask_count, set_mask_norm};
use crate::api::vec::scalar::adds_l0;
use crate::dtype::{DType, Element};
use crate::error::{Result, SourceLoc};
use crate::numeric::RoundMode;
use crate::{f16, BinaryRepeatParams, LocalTensor, UnaryRepeatParams, MASK_PLACEHOLDER};

const BINARY: BinaryRepeatParams = BinaryRepeatParams::new(1, 1, 1, 8, 8, 8);
const UNARY: UnaryRepeatParams = UnaryRepeatParams::new(1, 1, 8, 8);
/// Floats per block / per repeat.
const F32_BLK: u32 = 8;
const F32_REP: u32 = 64;
/// Halves per block.
const F16_BLK: u32 = 16;

fn fmul() -> BinFn<f32> {
    |d, a, b, m, r, p| mul_l0(d, a, b, m, r, p)
}

/// `ReduceProd<T, pattern, isReuseSource>(dst, src, [sharedTmpBuffer,] srcShape, srcInnerPad)`:
/// the product of each row (`AR`) or column (`RA`) of the `[first, last]` source. `T`: float;
/// A2/A3. `reuse_source` lets it overwrite `src`. Temporary space:
/// `reduce_prod_max_min_tmp_size` bytes.
#[track_caller]
pub fn reduce_prod<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: Tmp,
    pattern: ReducePattern,
    reuse_source: bool,
    src_shape: [u32; 2],
    src_inner_pad: bool,
) -> Result<()> {
    const API: &str = "ReduceProd";
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
        let need = reduce_prod_max_min_tmp_size(src_shape, pattern, reuse_source).1;
        check_tmp(API, &buf, need)?;
        let (d, s, t) = (
            dst.reinterpret_cast::<f32>(),
            src.reinterpret_cast::<f32>(),
            buf.reinterpret_cast::<f32>(),
        );
        match pattern {
            ReducePattern::AR => prod_by_last_axis(reuse_source, &d, &s, &t, first, last, pad)?,
            ReducePattern::RA => by_first_axis(fmul(), reuse_source, &d, &s, &t, first, last, pad)?,
        }
        finish()
    })
}

/// `ReduceProdByLastAxis`: per row, the upper part folded onto the largest power-of-two
/// prefix and halved down to one block; `Brcb` spreads its 8 lanes over 8 blocks, which are
/// multiplied down to one; lane 0 of each row's block is gathered at the end.
fn prod_by_last_axis(
    reuse: bool,
    dst: &LocalTensor<f32>,
    src: &LocalTensor<f32>,
    tmp: &LocalTensor<f32>,
    first: u32,
    last: u32,
    pad: u32,
) -> Result<()> {
    // `tmp[64]` on: the rows' blocks (with isReuseSource they stay in `src`).
    let staged = if reuse { *src } else { tmp.at(F32_REP)? };
    let results = staged;
    let split = find_k(last);
    let remain = last - split;
    set_mask_count()?;
    for j in 0..first {
        let row = if reuse {
            src.at(j * pad)?
        } else {
            staged.at(j * F32_BLK)?
        };
        let out = if reuse {
            src.at(j * F32_BLK)?
        } else {
            staged.at(j * F32_BLK)?
        };
        let mut k = prepare_row(reuse, src, &row, j, last, pad, remain, split)?;
        while k > F32_BLK {
            k >>= 1;
            count::<f32>(k)?;
            mul_l0(&row, &row, &row.at(k)?, MASK_PLACEHOLDER, 1, BINARY)?;
            barrier_v()?;
        }
        brcb(tmp, &row, 1, BrcbRepeatParams::default())?;
        barrier_v()?;
        let mut tail = if last < F32_BLK { split } else { F32_BLK };
        if split != last && tail < F32_BLK {
            count::<f32>(remain * F32_BLK)?;
            mul_l0(
                tmp,
                tmp,
                &tmp.at(split * F32_BLK)?,
                MASK_PLACEHOLDER,
                1,
                BINARY,
            )?;
            barrier_v()?;
        }
        while tail > 1 {
            tail >>= 1;
            count::<f32>(tail * F32_BLK)?;
            mul_l0(
                tmp,
                tmp,
                &tmp.at(tail * F32_BLK)?,
                MASK_PLACEHOLDER,
                1,
                BINARY,
            )?;
            barrier_v()?;
        }
        count::<f32>(F32_BLK)?;
        adds_l0(&out, tmp, 0.0, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
    }
    let pattern = tmp.reinterpret_cast::<u32>();
    duplicate(&pattern, 1u32, F32_REP)?;
    barrier_v()?;
    let params = GatherMaskParams::new(1, first as u16, 1, 0);
    gather_mask_tensor(dst, &results, &pattern, true, F32_BLK, params)?;
    Ok(())
}

/// `PreProcessReduceForAR`: the row's first pass into `row`; returns the length left.
#[allow(clippy::too_many_arguments)]
fn prepare_row(
    reuse: bool,
    src: &LocalTensor<f32>,
    row: &LocalTensor<f32>,
    j: u32,
    last: u32,
    pad: u32,
    remain: u32,
    mut split: u32,
) -> Result<u32> {
    let at = |o: u32| src.at(j * pad + o);
    if reuse {
        if last >= F32_BLK && remain != 0 {
            count::<f32>(remain)?;
            mul_l0(row, row, &row.at(split)?, MASK_PLACEHOLDER, 1, BINARY)?;
            barrier_v()?;
        }
    } else if last >= F32_BLK && remain != 0 {
        count::<f32>(split)?;
        adds_l0(row, &at(0)?, 0.0, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        count::<f32>(remain)?;
        mul_l0(row, row, &at(split)?, MASK_PLACEHOLDER, 1, BINARY)?;
        barrier_v()?;
    } else if split > F32_BLK {
        split >>= 1;
        count::<f32>(split)?;
        mul_l0(row, &at(0)?, &at(split)?, MASK_PLACEHOLDER, 1, BINARY)?;
        barrier_v()?;
    } else {
        count::<f32>(last)?;
        adds_l0(row, &at(0)?, 0.0, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
    }
    Ok(split)
}

macro_rules! any_all {
    ($(#[$doc:meta])* $name:ident, $api:literal, $mode:expr, $fold:ident, $bits:ident) => {
        $(#[$doc])*
        #[track_caller]
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
                    API, &[DType::Float, DType::Uint8], dst, src, src_shape, src_inner_pad, pattern,
                )?;
                let buf = tmp.buffer(API)?;
                let need = reduce_any_all_max_min_tmp_size(src_shape, T::SIZE as u32, pattern, reuse_source).1;
                check_tmp(API, &buf, need)?;
                if T::DTYPE == DType::Float {
                    let (d, s) = (dst.reinterpret_cast::<f32>(), src.reinterpret_cast::<f32>());
                    let t = buf.reinterpret_cast::<f32>();
                    let f: BinFn<f32> = |d, a, b, m, r, p| $fold(d, a, b, m, r, p);
                    match pattern {
                        ReducePattern::AR => by_last_axis($mode, f, reuse_source, &d, &s, &t, first, last, pad)?,
                        ReducePattern::RA => by_first_axis(f, reuse_source, &d, &s, &t, first, last, pad)?,
                    }
                } else if pattern == ReducePattern::AR {
                    let f: BinFn<f16> = |d, a, b, m, r, p| $fold(d, a, b, m, r, p);
                    bytes_by_last_axis($mode, f, &dst.reinterpret_cast(), &src.reinterpret_cast(),
                        &buf, first, last, pad)?;
                } else {
                    // Pairs of bytes as int16_t: half the columns.
                    let f: BinFn<i16> = |d, a, b, m, r, p| $bits(d, a, b, m, r, p);
                    by_first_axis(f, reuse_source, &dst.reinterpret_cast(), &src.reinterpret_cast(),
                        &buf.reinterpret_cast(), first, last.div_ceil(2), pad / 2)?;
                }
                finish()
            })
        }
    };
}

any_all!(
    /// `ReduceAny<T, pattern, isReuseSource>(dst, src, [sharedTmpBuffer,] srcShape,
    /// srcInnerPad)`: whether any element of each row (`AR`) or column (`RA`) is true — the
    /// maximum. `T`: float or uint8_t (0/1); A2/A3. Temporary space:
    /// `reduce_any_all_max_min_tmp_size` bytes.
    reduce_any, "ReduceAny", Mode::Max, max_l0, or_l0
);
any_all!(
    /// `ReduceAll<T, pattern, isReuseSource>(…)`: whether every element of each row / column is
    /// true — the minimum; as [`reduce_any`].
    reduce_all, "ReduceAll", Mode::Min, min_l0, and_l0
);

/// `BinaryReduceAnyAllCompute`: each `uint8_t` row cast to half, folded onto its largest
/// power-of-two prefix and halved down to one block (placed after the row, `padLast` halves
/// in), the blocks reduced by `BlockReduceMax/Min`, the results cast back to `uint8_t`.
#[allow(clippy::too_many_arguments)]
fn bytes_by_last_axis(
    mode: Mode,
    func: BinFn<f16>,
    dst: &LocalTensor<u8>,
    src: &LocalTensor<u8>,
    buf: &LocalTensor<u8>,
    first: u32,
    last: u32,
    pad: u32,
) -> Result<()> {
    let work = buf.reinterpret_cast::<f16>();
    let split = if last < 32 { 0 } else { find_k(last) };
    let tail = last - split;
    set_mask_count()?;
    for i in 0..first {
        count::<u8>(pad)?;
        let to_half = UnaryRepeatParams::new(1, 1, 8, 4);
        cast_l0(
            &work,
            &src.at(i * pad)?,
            RoundMode::CAST_NONE,
            MASK_PLACEHOLDER,
            1,
            to_half,
        )?;
        barrier_v()?;
        if tail > 0 && split > 0 {
            count::<f16>(tail)?;
            func(&work, &work, &work.at(split)?, MASK_PLACEHOLDER, 1, BINARY)?;
            barrier_v()?;
        }
        let mut k = split;
        while k > F16_BLK {
            k >>= 1;
            count::<f16>(k)?;
            func(&work, &work, &work.at(k)?, MASK_PLACEHOLDER, 1, BINARY)?;
            barrier_v()?;
        }
        count::<f16>(F16_BLK)?;
        let to = work.at(pad + i * F16_BLK)?;
        adds_l0(&to, &work, f16::from_f32(0.0), MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
    }
    set_mask_norm()?;
    reset_mask()?;
    block_loop(mode, &work, &work, pad, first, last)?;
    set_mask_count()?;
    count::<f16>(first)?;
    let to_u8 = UnaryRepeatParams::new(1, 1, 4, 8);
    cast_l0(dst, &work, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, to_u8)?;
    barrier_v()?;
    finish()
}

/// `GetReduceProdMaxMinTmpSize`: `(max, min)` bytes (float). `AR`: `(max(8, k) + 8 · first) · 4
/// + 256` (`k` the largest power of two not above `last`, halved when equal and `first > 1`),
/// 256 with `isReuseSource`; `RA`: `k` rows of the 32-byte aligned `last` floats, none with
/// `isReuseSource`.
pub fn reduce_prod_max_min_tmp_size(
    shape: [u32; 2],
    pattern: ReducePattern,
    reuse_source: bool,
) -> (u32, u32) {
    let [first, last] = shape;
    let v = match (pattern, reuse_source) {
        (ReducePattern::AR, true) => 256,
        (ReducePattern::RA, true) => 0,
        (ReducePattern::AR, false) => {
            let mut k = find_k(last);
            if k == last && first > 1 {
                k >>= 1;
            }
            (k.max(F32_BLK) + first * F32_BLK) * 4 + 256
        }
        (ReducePattern::RA, false) => ra_rows(first) * (last * 4).div_ceil(32) * 32,
    };
    (v, v)
}

/// `GetReduceAnyMaxMinTmpSize` / `GetReduceAllMaxMinTmpSize`: `(max, min)` bytes. Float: as
/// `ReduceMax`. `uint8_t`: `AR` `2 · padLast + 32 · first` (also with `isReuseSource`); `RA`
/// `k` rows of the 32-byte aligned `last` bytes, none with `isReuseSource`.
pub fn reduce_any_all_max_min_tmp_size(
    shape: [u32; 2],
    type_size: u32,
    pattern: ReducePattern,
    reuse_source: bool,
) -> (u32, u32) {
    if type_size != 1 {
        return reduce_max_max_min_tmp_size(shape, type_size, pattern, reuse_source);
    }
    let [first, last] = shape;
    let v = match pattern {
        ReducePattern::AR => last.div_ceil(32) * 32 * 2 + first * 32,
        ReducePattern::RA if reuse_source => 0,
        ReducePattern::RA => ra_rows(first) * last.div_ceil(32) * 32,
    };
    (v, v)
}
