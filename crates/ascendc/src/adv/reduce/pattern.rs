//! The instruction sequences the patterned reductions (`ReduceMax<T, Pattern::Reduce::AR>` …)
//! share on A2/A3: reducing the last axis (`AR`) block-wise, reducing the first axis (`RA`) by
//! halving, and the block-reduce loop over many rows.

use crate::adv::common::barrier_v;
use crate::api::vec::mask::{reset_mask, set_mask_count, set_mask_norm, set_vector_mask};
use crate::api::vec::reduce::{
    block_reduce_max, block_reduce_min, block_reduce_sum, whole_reduce_max, whole_reduce_min,
    ReduceElement, ReduceOrder,
};
use crate::api::vec::scalar::adds_l0;
use crate::error::Result;
use crate::numeric::Arith;
use crate::{BinaryRepeatParams, LocalTensor, Mask, MaskMode, UnaryRepeatParams, MASK_PLACEHOLDER};

/// The most repeats one instruction takes.
pub(crate) const MAX_REPEAT: u32 = 255;

/// The reduction an AR pass ends with: `BlockReduce*`/`WholeReduce*` of this kind.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    Sum,
    Min,
    Max,
}

/// A level-0 two-source instruction (`Add<T, false>`, `Max<T, false>`, …).
pub(crate) type BinFn<T> = fn(
    &LocalTensor<T>,
    &LocalTensor<T>,
    &LocalTensor<T>,
    Mask,
    u8,
    BinaryRepeatParams,
) -> Result<()>;

const UNARY: UnaryRepeatParams = UnaryRepeatParams::new(1, 1, 8, 8);
const BINARY: BinaryRepeatParams = BinaryRepeatParams::new(1, 1, 1, 8, 8, 8);

/// `SetVectorMask<T, COUNTER>(0, n)`.
pub(crate) fn count<T: crate::Element>(n: u32) -> Result<()> {
    set_vector_mask::<T>(MaskMode::COUNTER, n as u64)
}

/// `Adds<T, false>(dst, src, 0, MASK_PLACEHOLDER, 1, params)`: a copy under the current mask.
pub(crate) fn copy<T: Arith>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    params: UnaryRepeatParams,
) -> Result<()> {
    adds_l0(dst, src, T::from_f64(0.0), MASK_PLACEHOLDER, 1, params)
}

/// `ComputeMaskBit<T>`: the first `on` lanes of each of the first `blocks` blocks of
/// `per_blk` elements, as `[low, high]`.
pub(crate) fn block_mask<T: crate::Element>(on: u32, per_blk: u32, blocks: u32) -> [u64; 2] {
    let lanes = (1u64 << on) - 1;
    let mut m = [0u64; 2];
    if T::SIZE == 2 {
        let low = blocks.min(4);
        for k in 0..low {
            m[0] += lanes << (k * per_blk);
        }
        for k in 0..blocks - low {
            m[1] += lanes << (k * per_blk);
        }
    } else {
        for k in 0..blocks {
            m[0] += lanes << (k * per_blk);
        }
    }
    m
}

/// `BlockReduceCompute<T, mode, NORMAL>`: `BlockReduce*(dst, src, repeat, mask, 1, 1, 8)`.
fn block_normal<T: ReduceElement>(
    mode: Mode,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    repeat: u32,
    mask: [u64; 2],
) -> Result<()> {
    let r = repeat as i32;
    match mode {
        Mode::Sum => block_reduce_sum(dst, src, r, mask, 1, 1, 8),
        Mode::Min => block_reduce_min(dst, src, r, mask, 1, 1, 8),
        Mode::Max => block_reduce_max(dst, src, r, mask, 1, 1, 8),
    }
}

/// `BlockReduceCompute<T, mode, COUNTER>`: `BlockReduceMax/Min<T, false>(dst, src, 1,
/// MASK_PLACEHOLDER, 1, blkStride, repStride)` (nothing for a sum).
fn block_counter<T: ReduceElement>(
    mode: Mode,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    blk_stride: u32,
    rep_stride: u32,
) -> Result<()> {
    let (b, r) = (blk_stride as i32, rep_stride as i32);
    match mode {
        Mode::Sum => Ok(()),
        Mode::Min => block_reduce_min(dst, src, 1, MASK_PLACEHOLDER, 1, b, r),
        Mode::Max => block_reduce_max(dst, src, 1, MASK_PLACEHOLDER, 1, b, r),
    }
}

/// `WholeReduceCompute<T, mode>`: `WholeReduceMax/Min(dst, src, mask, repeat, 1, 1, repStride,
/// ORDER_ONLY_VALUE)`.
fn whole<T: ReduceElement>(
    mode: Mode,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    repeat: u32,
    mask: u32,
    rep_stride: u32,
) -> Result<()> {
    let (r, s) = (repeat as i32, rep_stride as i32);
    let o = ReduceOrder::ORDER_ONLY_VALUE;
    match mode {
        Mode::Min => whole_reduce_min(dst, src, mask, r, 1, 1, s, o),
        _ => whole_reduce_max(dst, src, mask, r, 1, 1, s, o),
    }
}

/// Repeat-count chunks of at most 255: `(index, repeats)` for `n` repeats.
fn chunks(n: u32) -> impl Iterator<Item = (u32, u32)> {
    let k = n.div_ceil(MAX_REPEAT);
    let tail = if n.is_multiple_of(MAX_REPEAT) {
        MAX_REPEAT
    } else {
        n % MAX_REPEAT
    };
    (0..k).map(move |i| (i, if i == k - 1 { tail } else { MAX_REPEAT }))
}

/// `BlockReduceByLastAxis`: `dst[r] = op over src[r · pad + j], j < last` for `r < first`
/// (`AR`), by the last axis's length: under a block, one block, under a repeat, up to 255
/// blocks, longer.
#[allow(clippy::too_many_arguments)]
pub(crate) fn by_last_axis<T: ReduceElement>(
    mode: Mode,
    func: BinFn<T>,
    reuse: bool,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: &LocalTensor<T>,
    first: u32,
    last: u32,
    pad: u32,
) -> Result<()> {
    let per_blk = 32 / T::SIZE as u32;
    let per_rep = 256 / T::SIZE as u32;
    if last < per_blk {
        less_than_block(mode, dst, src, first, last)
    } else if last == per_blk {
        set_mask_count()?;
        count::<T>(first * last)?;
        block_counter(mode, dst, src, 1, 8)
    } else if last < per_rep {
        by_block(mode, func, reuse, dst, src, tmp, first, last, pad)
    } else if last <= MAX_REPEAT * per_blk {
        by_repeat(mode, func, reuse, dst, src, tmp, first, last, pad)
    } else {
        long_last(mode, func, reuse, dst, src, tmp, first, last, pad)
    }
}

/// `DoReduceLessThanBlk`: each row is one block; `BlockReduce*` with the first `last` lanes of
/// each block enabled, 8 rows per repeat.
fn less_than_block<T: ReduceElement>(
    mode: Mode,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    first: u32,
    last: u32,
) -> Result<()> {
    let per_blk = 32 / T::SIZE as u32;
    let per_rep = 256 / T::SIZE as u32;
    let repeats = first.div_ceil(8);
    let main = block_mask::<T>(last, per_blk, first.min(8));
    let tail_blocks = first % 8;
    if tail_blocks == 0 || first < 8 {
        for (i, n) in chunks(repeats) {
            let at = i * MAX_REPEAT;
            block_normal(mode, &dst.at(at * 8)?, &src.at(at * per_rep)?, n, main)?;
            barrier_v()?;
        }
        return Ok(());
    }
    let tail = block_mask::<T>(last, per_blk, tail_blocks);
    let k = repeats.div_ceil(MAX_REPEAT);
    for (i, n) in chunks(repeats) {
        let at = i * MAX_REPEAT;
        if i == k - 1 {
            block_normal(mode, &dst.at(at * 8)?, &src.at(at * per_rep)?, n - 1, main)?;
            barrier_v()?;
            let t = at + n - 1;
            block_normal(mode, &dst.at(t * 8)?, &src.at(t * per_rep)?, 1, tail)?;
        } else {
            block_normal(mode, &dst.at(at * 8)?, &src.at(at * per_rep)?, n, main)?;
            barrier_v()?;
        }
    }
    Ok(())
}

/// `AccValOnBlk`: folds blocks 1.. of each row onto block 0 (`tmp`), whole blocks in counter
/// mode, the partial last block under a normal-mode lane mask.
#[allow(clippy::too_many_arguments)]
fn acc_on_block<T: ReduceElement>(
    func: BinFn<T>,
    src: &LocalTensor<T>,
    tmp: &LocalTensor<T>,
    main: BinaryRepeatParams,
    tail_params: BinaryRepeatParams,
    first: u32,
    last: u32,
    tmp_offset: u32,
    pad: u32,
) -> Result<()> {
    let per_blk = 32 / T::SIZE as u32;
    let (blocks, rest) = (last / per_blk, last % per_blk);
    for i in 1..blocks {
        count::<T>(first * per_blk)?;
        func(tmp, tmp, &src.at(i * per_blk)?, MASK_PLACEHOLDER, 1, main)?;
        barrier_v()?;
    }
    if rest != 0 {
        set_mask_norm()?;
        set_vector_mask::<T>(MaskMode::NORMAL, rest as u64)?;
        for (i, n) in chunks(first) {
            let t = tmp.at(i * MAX_REPEAT * tmp_offset)?;
            let s = src.at(i * MAX_REPEAT * pad + blocks * per_blk)?;
            func(&t, &t, &s, MASK_PLACEHOLDER, n as u8, tail_params)?;
            barrier_v()?;
        }
        set_mask_count()?;
    }
    Ok(())
}

/// `DoReduceByBlk`: rows longer than a block and shorter than a repeat.
#[allow(clippy::too_many_arguments)]
fn by_block<T: ReduceElement>(
    mode: Mode,
    func: BinFn<T>,
    reuse: bool,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: &LocalTensor<T>,
    first: u32,
    last: u32,
    pad: u32,
) -> Result<()> {
    let per_blk = 32 / T::SIZE as u32;
    let row = (pad / per_blk) as u8;
    let rep = row.wrapping_mul(8);
    set_mask_count()?;
    if !reuse {
        count::<T>(first * per_blk)?;
        copy(tmp, src, UnaryRepeatParams::new(1, row as u16, 8, rep))?;
        barrier_v()?;
        let main = BinaryRepeatParams::new(1, 1, row, 8, 8, rep);
        let tail = BinaryRepeatParams::new(1, 1, 1, 1, 1, row);
        acc_on_block(func, src, tmp, main, tail, first, last, per_blk, pad)?;
        count::<T>(first * per_blk)?;
        block_counter(mode, dst, tmp, 1, 8)
    } else {
        let main = BinaryRepeatParams::new(row, row, row, rep, rep, rep);
        let tail = BinaryRepeatParams::new(1, 1, 1, row, row, row);
        acc_on_block(func, src, src, main, tail, first, last, pad, pad)?;
        count::<T>(first * per_blk)?;
        block_counter(mode, dst, src, row as u32, rep as u32)
    }
}

/// `GetReduceValOnRep`: one repeat per row in `tmp` (rows `tmp_offset` apart) to one value
/// per row: `WholeReduce*` for half, two `BlockReduce*` for float.
fn value_on_repeat<T: ReduceElement>(
    mode: Mode,
    dst: &LocalTensor<T>,
    tmp: &LocalTensor<T>,
    first: u32,
    tmp_offset: u32,
    rep_stride: u32,
) -> Result<()> {
    let per_rep = 256 / T::SIZE as u32;
    if T::SIZE == 2 {
        set_mask_norm()?;
        for (i, n) in chunks(first) {
            whole(
                mode,
                &dst.at(i * MAX_REPEAT)?,
                &tmp.at(i * MAX_REPEAT * tmp_offset)?,
                n,
                per_rep,
                rep_stride,
            )?;
            barrier_v()?;
        }
        Ok(())
    } else {
        count::<T>(first * per_rep)?;
        block_counter(mode, tmp, tmp, 1, rep_stride)?;
        barrier_v()?;
        count::<T>(first * 8)?;
        block_counter(mode, dst, tmp, 1, 8)
    }
}

/// `DoReduceByRep` + `AccValOnRep`: rows of one repeat up to 255 blocks.
#[allow(clippy::too_many_arguments)]
fn by_repeat<T: ReduceElement>(
    mode: Mode,
    func: BinFn<T>,
    reuse: bool,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: &LocalTensor<T>,
    first: u32,
    last: u32,
    pad: u32,
) -> Result<()> {
    let per_blk = 32 / T::SIZE as u32;
    let per_rep = 256 / T::SIZE as u32;
    let row = (pad / per_blk) as u8;
    set_mask_count()?;
    let (acc, params, tmp_offset, rep_stride) = if !reuse {
        count::<T>(first * per_rep)?;
        copy(tmp, src, UnaryRepeatParams::new(1, 1, 8, row))?;
        barrier_v()?;
        (
            *tmp,
            BinaryRepeatParams::new(1, 1, 1, 8, 8, row),
            per_rep,
            8,
        )
    } else {
        (
            *src,
            BinaryRepeatParams::new(1, 1, 1, row, row, row),
            pad,
            row as u32,
        )
    };
    let (reps, rest) = (last / per_rep, last % per_rep);
    for i in 1..reps {
        count::<T>(first * per_rep)?;
        func(
            &acc,
            &acc,
            &src.at(i * per_rep)?,
            MASK_PLACEHOLDER,
            1,
            params,
        )?;
        barrier_v()?;
    }
    if rest != 0 {
        set_mask_norm()?;
        set_vector_mask::<T>(MaskMode::NORMAL, rest as u64)?;
        for (i, n) in chunks(first) {
            let t = acc.at(i * MAX_REPEAT * tmp_offset)?;
            let s = src.at(i * MAX_REPEAT * pad + reps * per_rep)?;
            func(&t, &t, &s, MASK_PLACEHOLDER, n as u8, params)?;
            barrier_v()?;
        }
        set_mask_count()?;
    }
    value_on_repeat(mode, dst, &acc, first, tmp_offset, rep_stride)
}

/// `DoLongLastReduce`: rows longer than 255 blocks, folded repeat by repeat per row.
#[allow(clippy::too_many_arguments)]
fn long_last<T: ReduceElement>(
    mode: Mode,
    func: BinFn<T>,
    reuse: bool,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: &LocalTensor<T>,
    first: u32,
    last: u32,
    pad: u32,
) -> Result<()> {
    let per_rep = 256 / T::SIZE as u32;
    let reps = last.div_ceil(per_rep);
    let rest = if last.is_multiple_of(per_rep) {
        per_rep
    } else {
        last % per_rep
    };
    let width = |i: u32| if i == reps - 1 { rest } else { per_rep };
    set_mask_count()?;
    if !reuse {
        count::<T>(per_rep)?;
        for i in 0..first {
            copy(&tmp.at(i * per_rep)?, &src.at(i * pad)?, UNARY)?;
            barrier_v()?;
        }
        for i in 1..reps {
            count::<T>(width(i))?;
            for j in 0..first {
                let t = tmp.at(j * per_rep)?;
                func(
                    &t,
                    &t,
                    &src.at(j * pad + i * per_rep)?,
                    MASK_PLACEHOLDER,
                    1,
                    BINARY,
                )?;
                barrier_v()?;
            }
        }
        value_on_repeat(mode, dst, tmp, first, per_rep, 8)
    } else {
        for i in 0..first {
            for j in 1..reps {
                count::<T>(width(j))?;
                let d = src.at(i * per_rep)?;
                let a = if j == 1 { src.at(i * pad)? } else { d };
                func(
                    &d,
                    &a,
                    &src.at(i * pad + j * per_rep)?,
                    MASK_PLACEHOLDER,
                    1,
                    BINARY,
                )?;
                barrier_v()?;
            }
        }
        value_on_repeat(mode, dst, src, first, per_rep, 8)
    }
}

/// `BlkReduceForLoop`: `BlockReduce*` of one block per row (the first `min(last, block)`
/// lanes), rows `src_offset` elements into `tmp`, 8 rows per repeat, 255 repeats per call.
pub(crate) fn block_loop<T: ReduceElement>(
    mode: Mode,
    dst: &LocalTensor<T>,
    tmp: &LocalTensor<T>,
    src_offset: u32,
    first: u32,
    last: u32,
) -> Result<()> {
    let per_blk = 32 / T::SIZE as u32;
    let per_rep = per_blk * 8;
    let full = first / (MAX_REPEAT * 8);
    let rem = first % (MAX_REPEAT * 8);
    let (tail_reps, tail_blocks) = (rem / 8, rem % 8);
    let on = last.min(per_blk);
    let mask = block_mask::<T>(on, per_blk, 8);
    for _ in 0..full {
        block_normal(mode, dst, &tmp.at(src_offset)?, MAX_REPEAT, mask)?;
        barrier_v()?;
    }
    if tail_reps > 0 {
        let d = full * MAX_REPEAT * 8;
        let s = src_offset + full * MAX_REPEAT * 8 * per_blk;
        block_normal(mode, &dst.at(d)?, &tmp.at(s)?, tail_reps, mask)?;
        barrier_v()?;
    }
    if tail_blocks > 0 {
        let m = block_mask::<T>(on, per_blk, tail_blocks);
        let d = tail_reps * 8 + full * MAX_REPEAT * 8;
        let s = src_offset + tail_reps * per_rep + full * MAX_REPEAT * per_rep;
        block_normal(mode, &dst.at(d)?, &tmp.at(s)?, 1, m)?;
        barrier_v()?;
    }
    Ok(())
}

/// `BinaryReduceByFirstAxis`: `dst[j] = op over src[i · pad + j], i < first` for `j < last`
/// (`RA`): the rows beyond the largest power of two folded onto the first ones, then halving.
#[allow(clippy::too_many_arguments)]
pub(crate) fn by_first_axis<T: Arith>(
    func: BinFn<T>,
    reuse: bool,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: &LocalTensor<T>,
    first: u32,
    last: u32,
    pad: u32,
) -> Result<()> {
    let mut split = 1u32 << (31 - first.leading_zeros());
    let remain = first - split;
    set_mask_count()?;
    if reuse {
        if remain != 0 {
            count::<T>(pad * remain)?;
            func(src, src, &src.at(split * pad)?, MASK_PLACEHOLDER, 1, BINARY)?;
            barrier_v()?;
        }
    } else if remain != 0 {
        count::<T>(split * pad)?;
        copy(tmp, src, UNARY)?;
        barrier_v()?;
        count::<T>(pad * remain)?;
        func(tmp, tmp, &src.at(split * pad)?, MASK_PLACEHOLDER, 1, BINARY)?;
        barrier_v()?;
    } else if split > 1 {
        split >>= 1;
        count::<T>(pad * split)?;
        func(tmp, src, &src.at(split * pad)?, MASK_PLACEHOLDER, 1, BINARY)?;
        barrier_v()?;
    } else {
        count::<T>(last)?;
        copy(dst, src, UNARY)?;
        return barrier_v();
    }
    let cur = if reuse { src } else { tmp };
    while split > 1 {
        split >>= 1;
        count::<T>(pad * split)?;
        func(cur, cur, &cur.at(split * pad)?, MASK_PLACEHOLDER, 1, BINARY)?;
        barrier_v()?;
    }
    count::<T>(last)?;
    copy(dst, cur, UNARY)?;
    barrier_v()
}

/// `SetMaskNorm(); ResetMask();`, how every patterned reduction ends.
pub(crate) fn finish() -> Result<()> {
    set_mask_norm()?;
    reset_mask()
}
