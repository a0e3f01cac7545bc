//! The row operations the SoftMax family is built from, on float data laid out as `m` rows of
//! `ks` elements (`ks` a multiple of 8): the per-row max or sum of the first `k` elements
//! broadcast into `m` rows of `rk` (8 or 16) elements, and element-wise arithmetic of each row
//! with its row value. The instruction sequence is the device's: the 64-lane blocks of a row
//! folded lane-wise into a 64-float scratch row, the row's tail block folded in under a lane
//! mask, then two `BlockReduce` steps (64 → 8 → 1) — or one `WholeReduce` for a row shorter
//! than 64 — and a `Brcb` broadcast (A2/A3) or per-row `Duplicate` (310P).

use crate::adv::common::barrier_v;
use crate::api::vec::binary::{add_l0, div, div_l0, max_l0, mul_l0, sub_l0};
use crate::api::vec::copy::{copy, CopyRepeatParams};
use crate::api::vec::duplicate::duplicate;
use crate::api::vec::fill::{brcb, BrcbRepeatParams};
use crate::api::vec::mask::{reset_mask, set_mask_count, set_mask_norm, set_vector_mask};
use crate::api::vec::scalar::adds_l0;
use crate::chip::Product;
use crate::error::Result;
use crate::{
    block_reduce_max, block_reduce_sum, whole_reduce_max, whole_reduce_sum, BinaryRepeatParams,
    LocalTensor, MaskMode, ReduceOrder, UnaryRepeatParams, MASK_PLACEHOLDER,
};

/// Floats of one repeat.
const REP: u32 = 64;
/// Repeats one instruction issues at most.
const MAX_REP: u32 = 255;

/// Max or sum.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Reduce {
    Max,
    Sum,
}

/// The shape of one pass: `m` rows of `k` valid elements stored `ks` apart; row values `rk`
/// elements apart.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rows {
    pub m: u32,
    pub k: u32,
    pub ks: u32,
    pub rk: u32,
}

/// A level-0 binary instruction.
type Bin = fn(
    &LocalTensor<f32>,
    &LocalTensor<f32>,
    &LocalTensor<f32>,
    crate::Mask,
    u8,
    BinaryRepeatParams,
) -> Result<()>;

fn fold(op: Reduce) -> Bin {
    match op {
        Reduce::Max => |d, a, b, m, r, p| max_l0(d, a, b, m, r, p),
        Reduce::Sum => |d, a, b, m, r, p| add_l0(d, a, b, m, r, p),
    }
}

/// Counter mask mode with `n` f32 lanes.
pub(super) fn counter(n: u32) -> Result<()> {
    set_mask_count()?;
    set_vector_mask::<f32>(MaskMode::COUNTER, n as u64)
}

/// Back to normal mask mode with the full mask.
pub(super) fn normal() -> Result<()> {
    set_mask_norm()?;
    reset_mask()
}

/// `dst[0..m·rk]` = the max (or sum) of each row of `src`, broadcast over the row's `rk`
/// elements; `tmp` holds `m · 64` floats of scratch.
pub(crate) fn reduce_rows(
    p: Product,
    op: Reduce,
    dst: &LocalTensor<f32>,
    src: &LocalTensor<f32>,
    tmp: &LocalTensor<f32>,
    r: Rows,
) -> Result<()> {
    let stride = r.ks / 8;
    // 310P's WholeReduceMax writes (value, index) pairs; A2/A3 values only.
    let (order, pitch) = if p == Product::Ascend310P && op == Reduce::Max {
        (ReduceOrder::ORDER_VALUE_INDEX, 2)
    } else {
        (ReduceOrder::ORDER_ONLY_VALUE, 1)
    };
    if r.k < REP {
        // One WholeReduce per row, the results packed at dst[0..m].
        let mut row = 0;
        while row < r.m {
            let n = (r.m - row).min(MAX_REP);
            let (d, s) = (dst.at(row * pitch)?, src.at(row * r.ks)?);
            match op {
                Reduce::Max => whole_reduce_max(&d, &s, r.k, n as i32, 1, 1, stride as i32, order)?,
                Reduce::Sum => whole_reduce_sum(&d, &s, r.k, n as i32, 1, 1, stride as i32)?,
            }
            row += n;
        }
        reset_mask()?;
        barrier_v()?;
        return broadcast(p, dst, tmp, r, pitch);
    }
    let blocks = r.k / REP;
    let tail = r.k % REP;
    let f = fold(op);
    if r.k >= 512 {
        // Each row's first 512 elements block-reduced to 64, the further blocks folded in.
        for i in 0..r.m {
            let (d, s) = (tmp.at(i * REP)?, src.at(i * r.ks)?);
            match op {
                Reduce::Max => block_reduce_max(&d, &s, 8, MASK_PLACEHOLDER, 1, 1, 8)?,
                Reduce::Sum => block_reduce_sum(&d, &s, 8, MASK_PLACEHOLDER, 1, 1, 8)?,
            }
        }
        if blocks > 8 {
            barrier_v()?;
            for j in 0..r.m {
                let d = tmp.at(j * REP)?;
                f(
                    &d,
                    &src.at(512 + j * r.ks)?,
                    &d,
                    MASK_PLACEHOLDER,
                    (blocks - 8) as u8,
                    BinaryRepeatParams::new(1, 1, 1, 0, 8, 0),
                )?;
            }
        }
    } else if r.k >= 2 * REP {
        // Blocks 0 and 1 of every row, then the further blocks.
        for_rows(r.m, |row, n| {
            f(
                &tmp.at(row * REP)?,
                &src.at(row * r.ks)?,
                &src.at(row * r.ks + REP)?,
                MASK_PLACEHOLDER,
                n,
                BinaryRepeatParams::new(1, 1, 1, 8, stride as u8, stride as u8),
            )
        })?;
        if r.m > blocks {
            for b in 2..blocks {
                barrier_v()?;
                for_rows(r.m, |row, n| {
                    let d = tmp.at(row * REP)?;
                    f(
                        &d,
                        &d,
                        &src.at(row * r.ks + b * REP)?,
                        MASK_PLACEHOLDER,
                        n,
                        BinaryRepeatParams::new(1, 1, 1, 8, 8, stride as u8),
                    )
                })?;
            }
        } else if blocks > 2 {
            barrier_v()?;
            for j in 0..r.m {
                let d = tmp.at(j * REP)?;
                f(
                    &d,
                    &src.at(2 * REP + j * r.ks)?,
                    &d,
                    MASK_PLACEHOLDER,
                    (blocks - 2) as u8,
                    BinaryRepeatParams::new(1, 1, 1, 0, 8, 0),
                )?;
            }
        }
    } else if p == Product::Ascend310P {
        counter(r.m * REP)?;
        adds_l0(
            tmp,
            src,
            0.0,
            MASK_PLACEHOLDER,
            1,
            UnaryRepeatParams::new(1, 1, 8, stride as u8),
        )?;
        normal()?;
    } else {
        for_rows(r.m, |row, n| {
            copy(
                &tmp.at(row * REP)?,
                &src.at(row * r.ks)?,
                MASK_PLACEHOLDER,
                n,
                CopyRepeatParams::new(1, 1, 8, stride as u16),
            )
        })?;
    }
    if tail != 0 {
        barrier_v()?;
        let start = blocks * REP;
        if r.ks > MAX_REP * 8 {
            for i in 0..r.m {
                let d = tmp.at(i * REP)?;
                f(
                    &d,
                    &d,
                    &src.at(start + i * r.ks)?,
                    tail.into(),
                    1,
                    BinaryRepeatParams::new(1, 1, 1, 8, 8, 8),
                )?;
            }
        } else {
            for_rows(r.m, |row, n| {
                let d = tmp.at(row * REP)?;
                f(
                    &d,
                    &d,
                    &src.at(start + row * r.ks)?,
                    tail.into(),
                    n,
                    BinaryRepeatParams::new(1, 1, 1, 8, 8, stride as u8),
                )
            })?;
        }
        reset_mask()?;
    }
    barrier_v()?;
    if r.m == 1 {
        // One row: eight WholeReduce repeats of the same 64 lanes give the value eight times.
        let (n, rs) = if p == Product::Ascend310P {
            (1, 8)
        } else {
            (8, 0)
        };
        match op {
            Reduce::Max => whole_reduce_max(dst, tmp, MASK_PLACEHOLDER, n, 1, 1, rs, order)?,
            Reduce::Sum => whole_reduce_sum(dst, tmp, MASK_PLACEHOLDER, n, 1, 1, rs)?,
        }
        if p == Product::Ascend310P {
            let v = dst.get_value(0)?;
            duplicate(dst, v, r.rk)?;
            return reset_mask();
        }
        if r.rk == 16 {
            barrier_v()?;
            copy_block(&dst.at(8)?, dst)?;
        }
        if r.k > REP {
            return Ok(());
        }
        barrier_v()?;
        return broadcast(p, dst, tmp, r, 1);
    }
    counter(r.m * REP)?;
    match op {
        Reduce::Max => block_reduce_max(tmp, tmp, 1, MASK_PLACEHOLDER, 1, 1, 8)?,
        Reduce::Sum => block_reduce_sum(tmp, tmp, 1, MASK_PLACEHOLDER, 1, 1, 8)?,
    }
    barrier_v()?;
    set_vector_mask::<f32>(MaskMode::COUNTER, (r.m * 8) as u64)?;
    match op {
        Reduce::Max => block_reduce_max(dst, tmp, 1, MASK_PLACEHOLDER, 1, 1, 8)?,
        Reduce::Sum => block_reduce_sum(dst, tmp, 1, MASK_PLACEHOLDER, 1, 1, 8)?,
    }
    normal()?;
    barrier_v()?;
    broadcast(p, dst, tmp, r, 1)
}

/// Runs `f(first_row, rows)` over the rows in groups of at most 255 repeats.
fn for_rows(m: u32, mut f: impl FnMut(u32, u8) -> Result<()>) -> Result<()> {
    let mut row = 0;
    while row < m {
        let n = (m - row).min(MAX_REP);
        f(row, n as u8)?;
        row += n;
    }
    Ok(())
}

/// One 32-byte block `src` → `dst`.
fn copy_block(dst: &LocalTensor<f32>, src: &LocalTensor<f32>) -> Result<()> {
    crate::data_copy(dst, src, crate::DataCopyParams::new(1, 1, 0, 0))
}

/// The `m` row values at `dst[0]`, `dst[pitch]`, … broadcast in place to `m` rows of `rk`.
fn broadcast(
    p: Product,
    dst: &LocalTensor<f32>,
    tmp: &LocalTensor<f32>,
    r: Rows,
    pitch: u32,
) -> Result<()> {
    if p == Product::Ascend310P {
        // Scalar reads, then one Duplicate per row (last row first: the packed values sit in
        // the rows' leading elements).
        let values = (0..r.m)
            .map(|i| dst.get_value(i * pitch))
            .collect::<Result<Vec<f32>>>()?;
        for (i, v) in values.into_iter().enumerate() {
            duplicate(&dst.at(i as u32 * r.rk)?, v, r.rk)?;
        }
        return Ok(());
    }
    let repeat = r.m.div_ceil(8) as u8;
    if r.rk == 16 {
        brcb(tmp, dst, repeat, BrcbRepeatParams::new(2, 16))?;
        brcb(&tmp.at(8)?, dst, repeat, BrcbRepeatParams::new(2, 16))?;
    } else {
        brcb(tmp, dst, repeat, BrcbRepeatParams::new(1, 8))?;
    }
    barrier_v()?;
    counter(r.m * r.rk)?;
    copy(
        dst,
        tmp,
        MASK_PLACEHOLDER,
        1,
        CopyRepeatParams::new(1, 1, 8, 8),
    )?;
    normal()
}

/// The element-wise operations of a row with its row value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum RowOp {
    Sub,
    Div,
    Mul,
}

/// `dst[i][j] = src0[i][j] op rv[i]` for `m` rows of `ks` (row values `rk` apart).
pub(crate) fn row_op(
    op: RowOp,
    dst: &LocalTensor<f32>,
    src0: &LocalTensor<f32>,
    rv: &LocalTensor<f32>,
    m: u32,
    ks: u32,
    rk: u32,
) -> Result<()> {
    let f: Bin = match op {
        RowOp::Sub => |d, a, b, m, r, p| sub_l0(d, a, b, m, r, p),
        RowOp::Div => |d, a, b, m, r, p| div_l0(d, a, b, m, r, p),
        RowOp::Mul => |d, a, b, m, r, p| mul_l0(d, a, b, m, r, p),
    };
    if ks < 192 {
        // Column block j of every row at once: m blocks, one per row.
        let bs = (ks / 8) as u8;
        counter(m * 8)?;
        for j in 0..ks / 8 {
            f(
                &dst.at(j * 8)?,
                &src0.at(j * 8)?,
                rv,
                MASK_PLACEHOLDER,
                1,
                BinaryRepeatParams::new(bs, bs, (rk / 8) as u8, ks as u8, ks as u8, rk as u8),
            )?;
        }
    } else {
        counter(ks)?;
        for j in 0..m {
            f(
                &dst.at(j * ks)?,
                &src0.at(j * ks)?,
                &rv.at(j * rk)?,
                MASK_PLACEHOLDER,
                1,
                BinaryRepeatParams::new(1, 1, 0, 8, 8, 0),
            )?;
        }
    }
    normal()
}

/// The division by the row sums: `Div` on A2/A3; on 310P the reciprocals `1 / sum` first
/// (`Duplicate` 1.0, `Div` into `tmp`) and then `Mul`.
pub(crate) fn divide_rows(
    p: Product,
    dst: &LocalTensor<f32>,
    sum: &LocalTensor<f32>,
    tmp: &LocalTensor<f32>,
    m: u32,
    ks: u32,
    rk: u32,
) -> Result<()> {
    if p == Product::Ascend310P {
        duplicate(tmp, 1.0f32, m * rk)?;
        barrier_v()?;
        div(tmp, tmp, sum, m * rk)?;
        barrier_v()?;
        row_op(RowOp::Mul, dst, dst, tmp, m, ks, rk)
    } else {
        row_op(RowOp::Div, dst, dst, sum, m, ks, rk)
    }
}
