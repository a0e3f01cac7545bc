//! `SoftmaxFlashV2` (FlashAttention-2's online softmax) on ND data, as the device computes it:
//! per pass of `tiling.splitM` rows, the row max (with `isUpdate`, the max with `inMax`),
//! `x - max`, `Exp`, the row sum (with `isUpdate`, plus `exp(inMax - max) · inExpSum`), in
//! float; half data widened into the temporary buffer first and narrowed at the end
//! (`CAST_ROUND` on A2/A3, `CAST_NONE` on 310P). The basic-block path (`isBasicBlock`, rows a
//! multiple of 8, a row a multiple of 64 floats) reduces with `BlockReduce` trees and
//! broadcasts with `Brcb` (310P: scalar reads and `Duplicate`), as the device does.

use super::grad::{
    nz_columns, nz_lane_mask, nz_row_sum, nz_transpose_rows, Ctx as GradCtx, RowSum,
};
use super::rows::{counter, normal};
use super::rows::{reduce_rows, row_op, Reduce, RowOp, Rows};
use super::tiling::{SoftMaxShapeInfo, SoftMaxTiling};
use crate::adv::common::{barrier_v, require, run, sync_event, Tmp};
use crate::api::vec::binary::{add, add_l0, max, max_l0, mul, mul_l0, sub, sub_l0};
use crate::api::vec::cast::{cast, cast_l0};
use crate::api::vec::copy::{copy, CopyRepeatParams};
use crate::api::vec::duplicate::duplicate_l0;
use crate::api::vec::fill::{brcb, BrcbRepeatParams};
use crate::api::vec::mask::{reset_mask, set_mask_count, set_vector_mask};
use crate::api::vec::scalar::{adds, adds_l0, muls_l0};
use crate::api::vec::unary::{exp, exp_l0};
use crate::chip::Product;
use crate::dtype::{DType, Element};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::numeric::RoundMode;
use crate::{
    block_reduce_max, block_reduce_sum, f16, whole_reduce_max, whole_reduce_sum,
    BinaryRepeatParams, HardEvent, LocalTensor, MaskMode, ReduceOrder, UnaryRepeatParams,
    MASK_PLACEHOLDER,
};

const API: &str = "SoftmaxFlashV2";
/// Floats of one repeat.
const REP: u32 = 64;
/// Rows of one basic block.
const TILE: u32 = 8;

/// `SoftmaxMode`: whether the max/sum outputs are broadcast to one 32-byte block per row.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SoftmaxMode {
    /// `SOFTMAX_NORMAL`: one 32-byte block per row.
    #[default]
    Normal,
    /// `SOFTMAX_OUTPUT_WITHOUT_BRC`: one value per row.
    OutputWithoutBrc,
}

/// `SoftmaxConfig {isCheckTiling, oriSrcM, oriSrcK, mode}`: re-tile when the call's shape
/// differs from the tiling's; a compile-time original shape (non-zero: the basic-block path is
/// chosen from it, `isBasicBlock` ignored); the output mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SoftmaxConfig {
    pub is_check_tiling: bool,
    pub ori_src_m: u32,
    pub ori_src_k: u32,
    pub mode: SoftmaxMode,
}

impl Default for SoftmaxConfig {
    /// `SOFTMAX_DEFAULT_CFG = {true, 0, 0, SOFTMAX_NORMAL}`.
    fn default() -> Self {
        SoftmaxConfig {
            is_check_tiling: true,
            ori_src_m: 0,
            ori_src_k: 0,
            mode: SoftmaxMode::Normal,
        }
    }
}

/// The template flags of `SoftmaxFlashV2<T, isUpdate, isReuseSource, isBasicBlock,
/// isDataFormatNZ, config>` (`isReuseSource` is reserved and has no flag).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FlashV2Flags {
    pub is_update: bool,
    pub is_basic_block: bool,
    pub is_data_format_nz: bool,
    pub config: SoftmaxConfig,
}

/// The kernel's `SoftMaxFlashV2TilingFunc(shapeInfo, dataTypeSize1, dataTypeSize2,
/// localWorkSpaceSize, isUpdate, isBasicBlock, isDataFormatNZ, isFlashOutputBrc)` with the
/// buffer in floats (`work_floats`); rows per pass 0 when not one row fits.
#[allow(clippy::too_many_arguments)]
pub fn flash_v2_kernel_tiling(
    m: u32,
    k: u32,
    size1: u32,
    size2: u32,
    work_floats: u32,
    basic: bool,
    nz: bool,
    output_brc: bool,
) -> SoftMaxTiling {
    let per_blk = 32 / size2.max(1);
    let mut rows = if nz {
        work_floats / (16 * 3 + k)
    } else if basic && k.is_multiple_of(REP) && m.is_multiple_of(TILE) {
        let mut s = if size1 == 2 {
            work_floats / (per_blk + k + REP)
        } else {
            work_floats / (per_blk + REP)
        }
        .min(m);
        if s > TILE {
            s = s / TILE * TILE;
            while !m.is_multiple_of(s) {
                s -= TILE;
            }
            while s * k >= REP * 256 {
                s /= 2;
            }
        }
        s
    } else if size1 == 2 {
        work_floats / (2 * per_blk + k + REP)
    } else {
        work_floats / (per_blk + REP)
    };
    let unit = if output_brc && size1 == 2 { 16 } else { TILE };
    if rows < m && rows > unit {
        rows = rows / unit * unit;
    }
    rows = rows.min(m);
    let (range, tail) = m.checked_div(rows).map_or((0, 0), |r| (r, m % rows));
    SoftMaxTiling {
        src_m: m,
        src_k: k,
        src_size: m * k,
        out_max_m: m,
        out_max_k: per_blk,
        out_max_size: m * per_blk,
        split_m: rows,
        split_k: k,
        split_size: rows * k,
        reduce_m: rows,
        reduce_k: per_blk,
        reduce_size: rows * per_blk,
        range_m: range,
        tail_m: tail,
        tail_split_size: tail * k,
        tail_reduce_size: tail * per_blk,
    }
}

/// Data and max/sum types of a call.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    F32,
    F16F16,
    F16F32,
}

/// What every pass needs.
struct Ctx {
    p: Product,
    /// float → half narrowing.
    round: RoundMode,
    t: SoftMaxTiling,
    /// Valid elements of a row.
    ori_k: u32,
    /// Row stride the reductions use (`tiling.splitK`, or the aligned `config.oriSrcK`).
    ks: u32,
}

impl Ctx {
    fn rows(&self, m: u32) -> Rows {
        Rows {
            m,
            k: self.ori_k,
            ks: self.ks,
            rk: self.t.reduce_k,
        }
    }
}

fn err(cat: Category, msg: String) -> SimError {
    SimError::new(cat, API, msg)
}

fn bin() -> BinaryRepeatParams {
    BinaryRepeatParams::new(1, 1, 1, 8, 8, 8)
}

fn un(dst_rep: u8, src_rep: u8) -> UnaryRepeatParams {
    UnaryRepeatParams::new(1, 1, dst_rep, src_rep)
}

/// `DataCopy` (A2/A3) or `Adds(…, 0)` (310P) of `n` floats.
fn copy_floats(p: Product, dst: &LocalTensor<f32>, src: &LocalTensor<f32>, n: u32) -> Result<()> {
    if p == Product::Ascend310P {
        adds(dst, src, 0.0f32, n)
    } else {
        crate::data_copy(dst, src, n)
    }
}

/// `BroadCastLastImpl`: `m` row values `src_k` apart into rows of `dst_k` (A2/A3: counter-mode
/// `Copy`; 310P: scalar reads and one `Duplicate` per row).
pub(crate) fn broadcast_last(
    p: Product,
    dst: &LocalTensor<f32>,
    src: &LocalTensor<f32>,
    m: u32,
    dst_k: u32,
    src_k: u32,
) -> Result<()> {
    if p == Product::Ascend310P {
        sync_event(API, HardEvent::V_S)?;
        for row in 0..m {
            let v = src.get_value(row * src_k)?;
            let (full, tail) = (dst_k / REP, dst_k % REP);
            for j in 0..full {
                duplicate_l0(&dst.at(row * dst_k + j * REP)?, v, REP, 1, 1, 8)?;
            }
            if tail != 0 {
                duplicate_l0(&dst.at(row * dst_k + full * REP)?, v, tail, 1, 1, 8)?;
            }
        }
        return Ok(());
    }
    let repeat = dst_k / 8;
    counter(m * 8)?;
    let mut done = 0;
    while done < repeat {
        let n = (repeat - done).min(255);
        copy(
            &dst.at(done * 8)?,
            src,
            MASK_PLACEHOLDER,
            n as u8,
            CopyRepeatParams::new(repeat as u16, (src_k / 8) as u16, 1, 0),
        )?;
        done += n;
    }
    normal()
}

/// The row values at `src[0]`, `src[1]`, … broadcast to rows of `width` (8 or 16) at `dst`:
/// `Brcb` (A2/A3) or `AlignedBrcbImpl` (310P: eight scalar reads, eight `Duplicate`s per
/// eight rows).
fn brcb_rows(
    p: Product,
    dst: &LocalTensor<f32>,
    src: &LocalTensor<f32>,
    m: u32,
    width: u32,
) -> Result<()> {
    let groups = m.div_ceil(8);
    if p == Product::Ascend310P {
        sync_event(API, HardEvent::V_S)?;
        for g in 0..groups {
            set_vector_mask::<f32>(MaskMode::NORMAL, width as u64)?;
            let vals = (0..8)
                .map(|j| src.get_value(g * 8 + j))
                .collect::<Result<Vec<f32>>>()?;
            for (j, v) in vals.into_iter().enumerate() {
                duplicate_l0(
                    &dst.at((g * 8 + j as u32) * width)?,
                    v,
                    MASK_PLACEHOLDER,
                    1,
                    1,
                    8,
                )?;
            }
        }
        return reset_mask();
    }
    if width == 16 {
        brcb(dst, src, groups as u8, BrcbRepeatParams::new(2, 16))?;
        brcb(&dst.at(8)?, src, groups as u8, BrcbRepeatParams::new(2, 16))
    } else {
        brcb(dst, src, groups as u8, BrcbRepeatParams::new(1, 8))
    }
}

// ---------------------------------------------------------------- basic-block reductions

fn block_reduce(
    op: Reduce,
    dst: &LocalTensor<f32>,
    src: &LocalTensor<f32>,
    repeat: u32,
    blk: i32,
    rep: i32,
) -> Result<()> {
    match op {
        Reduce::Max => block_reduce_max(dst, src, repeat as i32, MASK_PLACEHOLDER, 1, blk, rep),
        Reduce::Sum => block_reduce_sum(dst, src, repeat as i32, MASK_PLACEHOLDER, 1, blk, rep),
    }
}

fn fold(
    op: Reduce,
    d: &LocalTensor<f32>,
    a: &LocalTensor<f32>,
    b: &LocalTensor<f32>,
    repeat: u32,
    prm: BinaryRepeatParams,
) -> Result<()> {
    if repeat == 0 {
        return Ok(());
    }
    match op {
        Reduce::Max => max_l0(d, a, b, MASK_PLACEHOLDER, repeat as u8, prm),
        Reduce::Sum => add_l0(d, a, b, MASK_PLACEHOLDER, repeat as u8, prm),
    }
}

/// `BasicBlockReduce{Max,Sum}Impl`: the `m` row values (packed) of `m` rows of `k` into `dst`,
/// with `tmp` of `m · 64` floats (`m · 128` for k = 1024).
fn basic_reduce(
    op: Reduce,
    dst: &LocalTensor<f32>,
    src: &LocalTensor<f32>,
    tmp: &LocalTensor<f32>,
    m: u32,
    k: u32,
) -> Result<()> {
    let blocks = k / REP;
    let ceil_m = m.div_ceil(8);
    if k == 512 {
        block_reduce(op, tmp, src, m * 8, 1, 8)?;
        barrier_v()?;
        block_reduce(op, tmp, tmp, m, 1, 8)?;
        barrier_v()?;
        return block_reduce(op, dst, tmp, ceil_m, 1, 8);
    }
    if k == 1024 {
        block_reduce(op, tmp, src, 2 * REP, 1, 8)?;
        barrier_v()?;
        block_reduce(op, tmp, tmp, 16, 1, 8)?;
        barrier_v()?;
        fold(
            op,
            tmp,
            tmp,
            &tmp.at(8)?,
            1,
            BinaryRepeatParams::new(1, 2, 2, 8, 16, 16),
        )?;
        barrier_v()?;
        return block_reduce(op, dst, tmp, 1, 1, 8);
    }
    if blocks == 1 {
        block_reduce(op, tmp, src, m, 1, 8)?;
    } else if k > 512 {
        for i in 0..m {
            block_reduce(op, &tmp.at(REP * i)?, &src.at(i * k)?, 8, 1, 8)?;
        }
        if blocks > 8 {
            barrier_v()?;
            for j in 0..m {
                let d = tmp.at(j * REP)?;
                fold(
                    op,
                    &d,
                    &src.at(512 + j * k)?,
                    &d,
                    blocks - 8,
                    BinaryRepeatParams::new(1, 1, 1, 0, 8, 0),
                )?;
            }
        }
        barrier_v()?;
        block_reduce(op, tmp, tmp, m, 1, 8)?;
    } else {
        let off = (8 * blocks) as u8;
        fold(
            op,
            tmp,
            src,
            &src.at(REP)?,
            m,
            BinaryRepeatParams::new(1, 1, 1, 8, off, off),
        )?;
        if m > blocks {
            for i in 2..blocks {
                barrier_v()?;
                fold(
                    op,
                    tmp,
                    tmp,
                    &src.at(REP * i)?,
                    m,
                    BinaryRepeatParams::new(1, 1, 1, 8, 8, off),
                )?;
            }
        } else {
            barrier_v()?;
            for j in 0..m {
                let d = tmp.at(j * REP)?;
                fold(
                    op,
                    &d,
                    &src.at(2 * REP + blocks * REP * j)?,
                    &d,
                    blocks - 2,
                    BinaryRepeatParams::new(1, 1, 1, 0, 8, 0),
                )?;
            }
        }
        barrier_v()?;
        block_reduce(op, tmp, tmp, m, 1, 8)?;
    }
    barrier_v()?;
    block_reduce(op, dst, tmp, ceil_m, 1, 8)
}

/// `x[r][j] -= rv[r]` for the `m` rows of `k` (row values `rv_blocks` blocks apart).
fn basic_sub(
    dst: &LocalTensor<f32>,
    src: &LocalTensor<f32>,
    rv: &LocalTensor<f32>,
    m: u32,
    k: u32,
    rv_blocks: u8,
) -> Result<()> {
    let off = (8 * (k / REP)) as u8;
    for j in 0..k / REP {
        sub_l0(
            &dst.at(REP * j)?,
            &src.at(REP * j)?,
            rv,
            MASK_PLACEHOLDER,
            m as u8,
            BinaryRepeatParams::new(1, 1, 0, off, off, rv_blocks),
        )?;
    }
    Ok(())
}

// ---------------------------------------------------------------- the passes (general path)

/// One pass on float data: `o1`/`o2` the offsets of the pass's rows and row values.
#[allow(clippy::too_many_arguments)]
fn pass_f32(
    c: &Ctx,
    update: bool,
    io: &Io<f32, f32>,
    work: &LocalTensor<f32>,
    o1: u32,
    o2: u32,
    m: u32,
    split: u32,
    reduce: u32,
) -> Result<()> {
    let (src, dst) = (io.src.at(o1)?, io.dst.at(o1)?);
    let (mx, sm) = (io.max.at(o2)?, io.sum.at(o2)?);
    let r = c.rows(m);
    let (ks, rk) = (c.t.src_k, c.t.reduce_k);
    if !update {
        reduce_rows(c.p, Reduce::Max, &mx, &src, work, r)?;
        barrier_v()?;
        row_op(RowOp::Sub, &dst, &src, &mx, m, ks, rk)?;
        barrier_v()?;
        exp(&dst, &dst, split)?;
        barrier_v()?;
        return reduce_rows(c.p, Reduce::Sum, &sm, &dst, work, r);
    }
    let (in_max, in_sum, e_max) = (io.in_max.at(o2)?, io.in_sum.at(o2)?, io.exp_max.at(o2)?);
    let t0 = *work;
    let t1 = work.at(c.t.reduce_size)?;
    reduce_rows(c.p, Reduce::Max, &t0, &src, &t1, r)?;
    barrier_v()?;
    counter(reduce)?;
    max_l0(&t0, &in_max, &t0, MASK_PLACEHOLDER, 1, bin())?;
    barrier_v()?;
    sub_l0(&t1, &in_max, &t0, MASK_PLACEHOLDER, 1, bin())?;
    barrier_v()?;
    exp_l0(&e_max, &t1, MASK_PLACEHOLDER, 1, un(8, 8))?;
    normal()?;
    row_op(RowOp::Sub, &dst, &src, &t0, m, ks, rk)?;
    barrier_v()?;
    exp(&dst, &dst, split)?;
    copy_floats(c.p, &mx, &t0, reduce)?;
    barrier_v()?;
    reduce_rows(c.p, Reduce::Sum, &t0, &dst, &t1, r)?;
    counter(reduce)?;
    mul_l0(&sm, &e_max, &in_sum, MASK_PLACEHOLDER, 1, bin())?;
    barrier_v()?;
    add_l0(&sm, &sm, &t0, MASK_PLACEHOLDER, 1, bin())?;
    normal()
}

/// One pass on half data with half max/sum.
#[allow(clippy::too_many_arguments)]
fn pass_f16(
    c: &Ctx,
    update: bool,
    io: &Io<f16, f16>,
    work: &LocalTensor<f32>,
    o1: u32,
    o2: u32,
    m: u32,
    split: u32,
    reduce: u32,
) -> Result<()> {
    let t = &c.t;
    let (src, dst) = (io.src.at(o1)?, io.dst.at(o1)?);
    let (mx, sm) = (io.max.at(o2)?, io.sum.at(o2)?);
    let r = c.rows(m);
    let t0 = *work;
    let t1 = work.at(t.split_size)?;
    let t2 = work.at(t.split_size + t.reduce_size)?;
    if !update {
        cast(&t0, &src, RoundMode::CAST_NONE, split)?;
        barrier_v()?;
        reduce_rows(c.p, Reduce::Max, &t1, &t0, &t2, r)?;
        barrier_v()?;
        row_op(RowOp::Sub, &t0, &t0, &t1, m, t.src_k, t.reduce_k)?;
        barrier_v()?;
        cast(&mx, &t1, c.round, reduce)?;
        exp(&t0, &t0, split)?;
        barrier_v()?;
        cast(&dst, &t0, c.round, split)?;
        barrier_v()?;
        reduce_rows(c.p, Reduce::Sum, &t1, &t0, &t2, r)?;
        barrier_v()?;
        return cast(&sm, &t1, c.round, reduce);
    }
    let (in_max, in_sum, e_max) = (io.in_max.at(o2)?, io.in_sum.at(o2)?, io.exp_max.at(o2)?);
    let t3 = work.at(t.split_size + t.reduce_size + t.split_m * REP)?;
    let narrow = UnaryRepeatParams::new(1, 1, 4, 8);
    cast(&t1, &in_max, RoundMode::CAST_NONE, reduce)?;
    cast(&t0, &src, RoundMode::CAST_NONE, split)?;
    barrier_v()?;
    reduce_rows(c.p, Reduce::Max, &t3, &t0, &t2, r)?;
    barrier_v()?;
    counter(reduce)?;
    max_l0(&t3, &t1, &t3, MASK_PLACEHOLDER, 1, bin())?;
    barrier_v()?;
    sub_l0(&t1, &t1, &t3, MASK_PLACEHOLDER, 1, bin())?;
    cast_l0(&mx, &t3, c.round, MASK_PLACEHOLDER, 1, narrow)?;
    normal()?;
    row_op(RowOp::Sub, &t0, &t0, &t3, m, t.src_k, t.reduce_k)?;
    barrier_v()?;
    counter(split)?;
    exp_l0(&t0, &t0, MASK_PLACEHOLDER, 1, un(8, 8))?;
    barrier_v()?;
    cast_l0(&dst, &t0, c.round, MASK_PLACEHOLDER, 1, narrow)?;
    normal()?;
    reduce_rows(c.p, Reduce::Sum, &t3, &t0, &t2, r)?;
    counter(reduce)?;
    exp_l0(&t1, &t1, MASK_PLACEHOLDER, 1, un(8, 8))?;
    barrier_v()?;
    cast_l0(&e_max, &t1, c.round, MASK_PLACEHOLDER, 1, narrow)?;
    cast_l0(
        &t2,
        &in_sum,
        RoundMode::CAST_NONE,
        MASK_PLACEHOLDER,
        1,
        UnaryRepeatParams::new(1, 1, 8, 4),
    )?;
    barrier_v()?;
    mul_l0(&t1, &t1, &t2, MASK_PLACEHOLDER, 1, bin())?;
    barrier_v()?;
    add_l0(&t2, &t1, &t3, MASK_PLACEHOLDER, 1, bin())?;
    barrier_v()?;
    cast_l0(&sm, &t2, c.round, MASK_PLACEHOLDER, 1, narrow)?;
    normal()
}

/// One pass on half data with float max/sum (expMax half, 16 per row).
#[allow(clippy::too_many_arguments)]
fn pass_mixed(
    c: &Ctx,
    update: bool,
    io: &Io<f16, f32>,
    work: &LocalTensor<f32>,
    o1: u32,
    o2: u32,
    m: u32,
    split: u32,
    reduce: u32,
) -> Result<()> {
    let t = &c.t;
    let (src, dst) = (io.src.at(o1)?, io.dst.at(o1)?);
    let (mx, sm) = (io.max.at(o2)?, io.sum.at(o2)?);
    let r = c.rows(m);
    let t0 = *work;
    if !update {
        let t1 = work.at(t.split_size)?;
        cast(&t0, &src, RoundMode::CAST_NONE, split)?;
        barrier_v()?;
        reduce_rows(c.p, Reduce::Max, &mx, &t0, &t1, r)?;
        barrier_v()?;
        row_op(RowOp::Sub, &t0, &t0, &mx, m, t.src_k, t.reduce_k)?;
        barrier_v()?;
        exp(&t0, &t0, split)?;
        barrier_v()?;
        cast(&dst, &t0, c.round, split)?;
        barrier_v()?;
        return reduce_rows(c.p, Reduce::Sum, &sm, &t0, &t1, r);
    }
    let (in_max, in_sum) = (io.in_max.at(o2)?, io.in_sum.at(o2)?);
    let t1 = work.at(t.split_size)?;
    let t2 = work.at(t.split_size + t.reduce_size)?;
    let t3 = work.at(t.split_size + t.reduce_size + t.split_m * REP)?;
    copy_floats(c.p, &t1, &in_max, reduce)?;
    cast(&t0, &src, RoundMode::CAST_NONE, split)?;
    barrier_v()?;
    reduce_rows(c.p, Reduce::Max, &t3, &t0, &t2, r)?;
    barrier_v()?;
    max(&mx, &in_max, &t3, reduce)?;
    barrier_v()?;
    row_op(RowOp::Sub, &t0, &t0, &mx, m, t.src_k, t.reduce_k)?;
    barrier_v()?;
    exp(&t0, &t0, split)?;
    barrier_v()?;
    cast(&dst, &t0, c.round, split)?;
    reduce_rows(c.p, Reduce::Sum, &t3, &t0, &t2, r)?;
    sub(&t1, &t1, &mx, reduce)?;
    barrier_v()?;
    exp(&t1, &t1, reduce)?;
    barrier_v()?;
    // The device broadcasts `tiling.reduceM` rows (also in the tail pass).
    broadcast_last(c.p, &t0, &t1, t.reduce_m, 16, t.reduce_k)?;
    barrier_v()?;
    cast(&io.exp_max.at(o2 * 2)?, &t0, c.round, reduce * 2)?;
    mul(&t1, &t1, &in_sum, reduce)?;
    barrier_v()?;
    add(&sm, &t1, &t3, reduce)
}

// ---------------------------------------------------------------- the passes (basic block)

/// The sizes of one basic-block pass.
struct Basic {
    /// Repeats over a pass's floats.
    rep: u8,
    /// Repeats over its row values.
    rc: u8,
}

fn basic_f32(
    c: &Ctx,
    update: bool,
    io: &Io<f32, f32>,
    work: &LocalTensor<f32>,
    b: &Basic,
) -> Result<()> {
    let t = &c.t;
    let (m, k) = (t.split_m, t.split_k);
    let t1 = *work;
    let t2 = work.at(m * REP)?;
    let t3 = work.at(m * REP / 2)?;
    for i in 0..t.range_m {
        let (o1, o2) = (i * t.split_size, i * t.reduce_size);
        let (src, dst) = (io.src.at(o1)?, io.dst.at(o1)?);
        let (mx, sm) = (io.max.at(o2)?, io.sum.at(o2)?);
        barrier_v()?;
        basic_reduce(Reduce::Max, &t2, &src, &t1, m, k)?;
        barrier_v()?;
        if !update {
            brcb_rows(c.p, &mx, &t2, m, 8)?;
            barrier_v()?;
            basic_sub(&src, &src, &mx, m, k, 1)?;
            barrier_v()?;
            exp_l0(&dst, &src, MASK_PLACEHOLDER, b.rep, un(8, 8))?;
            barrier_v()?;
            basic_reduce(Reduce::Sum, &t2, &dst, &t1, m, k)?;
            barrier_v()?;
            brcb_rows(c.p, &sm, &t2, m, 8)?;
            continue;
        }
        let (in_max, in_sum, e_max) = (io.in_max.at(o2)?, io.in_sum.at(o2)?, io.exp_max.at(o2)?);
        brcb_rows(c.p, &t1, &t2, m, 8)?;
        if c.p == Product::Ascend310P {
            adds(&t2, &in_max, 0.0f32, t.reduce_size)?;
        } else {
            barrier_v()?;
            copy(
                &t2,
                &in_max,
                MASK_PLACEHOLDER,
                b.rc,
                CopyRepeatParams::new(1, 1, 8, 8),
            )?;
        }
        barrier_v()?;
        max_l0(&mx, &t2, &t1, MASK_PLACEHOLDER, b.rc, bin())?;
        barrier_v()?;
        basic_sub(&dst, &src, &mx, m, k, 1)?;
        sub_l0(&t2, &t2, &mx, MASK_PLACEHOLDER, b.rc, bin())?;
        barrier_v()?;
        exp_l0(&e_max, &t2, MASK_PLACEHOLDER, b.rc, un(8, 8))?;
        barrier_v()?;
        exp_l0(&dst, &dst, MASK_PLACEHOLDER, b.rep, un(8, 8))?;
        barrier_v()?;
        basic_reduce(Reduce::Sum, &t3, &dst, &t1, m, k)?;
        barrier_v()?;
        brcb_rows(c.p, &t1, &t3, m, 8)?;
        barrier_v()?;
        mul_l0(&in_sum, &e_max, &in_sum, MASK_PLACEHOLDER, b.rc, bin())?;
        barrier_v()?;
        add_l0(&sm, &in_sum, &t1, MASK_PLACEHOLDER, b.rc, bin())?;
    }
    Ok(())
}

fn basic_f16(
    c: &Ctx,
    update: bool,
    io: &Io<f16, f16>,
    work: &LocalTensor<f32>,
    b: &Basic,
) -> Result<()> {
    let t = &c.t;
    let (m, k) = (t.split_m, t.split_k);
    let widen = UnaryRepeatParams::new(1, 1, 8, 4);
    let narrow = UnaryRepeatParams::new(1, 1, 4, 8);
    let t0 = *work;
    let t2 = work.at(t.split_size)?;
    let t1 = work.at(t.split_size + t.reduce_size)?;
    let t3 = work.at(t.split_size + t.reduce_size + m * REP / 2)?;
    if update {
        barrier_v()?;
    }
    for i in 0..t.range_m {
        let (o1, o2) = (i * t.split_size, i * t.reduce_size);
        let (src, dst) = (io.src.at(o1)?, io.dst.at(o1)?);
        let (mx, sm) = (io.max.at(o2)?, io.sum.at(o2)?);
        if !update {
            normal()?;
            cast_l0(
                &t0,
                &src,
                RoundMode::CAST_NONE,
                MASK_PLACEHOLDER,
                b.rep,
                widen,
            )?;
            barrier_v()?;
            // The row values in the reduce-sum buffer (t2 here), broadcast to 16 per row in t1.
            basic_reduce(Reduce::Max, &t2, &t0, &t1, m, k)?;
            barrier_v()?;
            brcb_rows(c.p, &t1, &t2, m, 16)?;
            barrier_v()?;
            cast_l0(&mx, &t1, c.round, MASK_PLACEHOLDER, b.rc, narrow)?;
            barrier_v()?;
            basic_sub(&t0, &t0, &t1, m, k, 2)?;
            barrier_v()?;
            exp_l0(&t0, &t0, MASK_PLACEHOLDER, b.rep, un(8, 8))?;
            barrier_v()?;
            cast_l0(&dst, &t0, c.round, MASK_PLACEHOLDER, b.rep, narrow)?;
            basic_reduce(Reduce::Sum, &t2, &t0, &t1, m, k)?;
            barrier_v()?;
            brcb_rows(c.p, &t1, &t2, m, 16)?;
            barrier_v()?;
            cast_l0(&sm, &t1, c.round, MASK_PLACEHOLDER, b.rc, narrow)?;
            continue;
        }
        let (in_max, in_sum, e_max) = (io.in_max.at(o2)?, io.in_sum.at(o2)?, io.exp_max.at(o2)?);
        cast_l0(
            &t0,
            &src,
            RoundMode::CAST_NONE,
            MASK_PLACEHOLDER,
            b.rep,
            widen,
        )?;
        barrier_v()?;
        basic_reduce(Reduce::Max, &t3, &t0, &t1, m, k)?;
        barrier_v()?;
        brcb_rows(c.p, &t1, &t3, m, 16)?;
        barrier_v()?;
        cast_l0(
            &t2,
            &in_max,
            RoundMode::CAST_NONE,
            MASK_PLACEHOLDER,
            b.rc,
            widen,
        )?;
        barrier_v()?;
        max_l0(&t3, &t2, &t1, MASK_PLACEHOLDER, b.rc, bin())?;
        barrier_v()?;
        cast_l0(&mx, &t3, c.round, MASK_PLACEHOLDER, b.rc, narrow)?;
        sub_l0(&t2, &t2, &t3, MASK_PLACEHOLDER, b.rc, bin())?;
        barrier_v()?;
        exp_l0(&t2, &t2, MASK_PLACEHOLDER, b.rc, un(8, 8))?;
        barrier_v()?;
        cast_l0(&e_max, &t2, c.round, MASK_PLACEHOLDER, b.rc, narrow)?;
        barrier_v()?;
        basic_sub(&t0, &t0, &t3, m, k, 2)?;
        barrier_v()?;
        exp_l0(&t0, &t0, MASK_PLACEHOLDER, b.rep, un(8, 8))?;
        barrier_v()?;
        cast_l0(&dst, &t0, c.round, MASK_PLACEHOLDER, b.rep, narrow)?;
        basic_reduce(Reduce::Sum, &t3, &t0, &t1, m, k)?;
        barrier_v()?;
        brcb_rows(c.p, &t1, &t3, m, 16)?;
        barrier_v()?;
        cast_l0(
            &t3,
            &in_sum,
            RoundMode::CAST_NONE,
            MASK_PLACEHOLDER,
            b.rc,
            widen,
        )?;
        barrier_v()?;
        mul_l0(&t3, &t2, &t3, MASK_PLACEHOLDER, b.rc, bin())?;
        barrier_v()?;
        add_l0(&t3, &t3, &t1, MASK_PLACEHOLDER, b.rc, bin())?;
        barrier_v()?;
        cast_l0(&sm, &t3, c.round, MASK_PLACEHOLDER, b.rc, narrow)?;
    }
    Ok(())
}

fn basic_mixed(
    c: &Ctx,
    update: bool,
    io: &Io<f16, f32>,
    work: &LocalTensor<f32>,
    b: &Basic,
) -> Result<()> {
    let t = &c.t;
    let (m, k) = (t.split_m, t.split_k);
    let widen = UnaryRepeatParams::new(1, 1, 8, 4);
    let narrow = UnaryRepeatParams::new(1, 1, 4, 8);
    let t0 = *work;
    let t2 = work.at(t.split_size)?;
    let t1 = work.at(t.split_size + t.reduce_size)?;
    let in_sum_tmp = work.at(t.split_size + t.reduce_size + m * REP / 2)?;
    barrier_v()?;
    for i in 0..t.range_m {
        let (o1, o2) = (i * t.split_size, i * t.reduce_size);
        let (src, dst) = (io.src.at(o1)?, io.dst.at(o1)?);
        let (mx, sm) = (io.max.at(o2)?, io.sum.at(o2)?);
        cast_l0(
            &t0,
            &src,
            RoundMode::CAST_NONE,
            MASK_PLACEHOLDER,
            b.rep,
            widen,
        )?;
        barrier_v()?;
        basic_reduce(Reduce::Max, &t2, &t0, &t1, m, k)?;
        barrier_v()?;
        if !update {
            brcb_rows(c.p, &mx, &t2, m, 8)?;
            barrier_v()?;
            basic_sub(&t0, &t0, &mx, m, k, 1)?;
            barrier_v()?;
            exp_l0(&t0, &t0, MASK_PLACEHOLDER, b.rep, un(8, 8))?;
            barrier_v()?;
            cast_l0(&dst, &t0, c.round, MASK_PLACEHOLDER, b.rep, narrow)?;
            basic_reduce(Reduce::Sum, &t2, &t0, &t1, m, k)?;
            barrier_v()?;
            brcb_rows(c.p, &sm, &t2, m, 8)?;
            continue;
        }
        let (in_max, in_sum) = (io.in_max.at(o2)?, io.in_sum.at(o2)?);
        brcb_rows(c.p, &t1, &t2, m, 8)?;
        if c.p == Product::Ascend310P {
            adds(&t2, &in_max, 0.0f32, t.reduce_size)?;
        } else {
            barrier_v()?;
            copy(
                &t2,
                &in_max,
                MASK_PLACEHOLDER,
                b.rc,
                CopyRepeatParams::new(1, 1, 8, 8),
            )?;
        }
        barrier_v()?;
        max_l0(&mx, &t2, &t1, MASK_PLACEHOLDER, b.rc, bin())?;
        barrier_v()?;
        basic_sub(&t0, &t0, &mx, m, k, 1)?;
        sub_l0(&t2, &t2, &mx, MASK_PLACEHOLDER, b.rc, bin())?;
        barrier_v()?;
        exp_l0(&t2, &t2, MASK_PLACEHOLDER, b.rc, un(8, 8))?;
        barrier_v()?;
        // expMax: each row's 8 floats written twice (16 per row), then narrowed.
        if c.p == Product::Ascend310P {
            counter(t.reduce_size)?;
            let prm = UnaryRepeatParams::new(2, 1, 16, 8);
            adds_l0(&t1, &t2, 0.0f32, MASK_PLACEHOLDER, 1, prm)?;
            adds_l0(&t1.at(8)?, &t2, 0.0f32, MASK_PLACEHOLDER, 1, prm)?;
            normal()?;
        } else {
            let prm = CopyRepeatParams::new(2, 1, 16, 8);
            copy(&t1, &t2, MASK_PLACEHOLDER, b.rc, prm)?;
            copy(&t1.at(8)?, &t2, MASK_PLACEHOLDER, b.rc, prm)?;
        }
        barrier_v()?;
        cast_l0(
            &io.exp_max.at(o2 * 2)?,
            &t1,
            c.round,
            MASK_PLACEHOLDER,
            b.rc * 2,
            narrow,
        )?;
        barrier_v()?;
        exp_l0(&t0, &t0, MASK_PLACEHOLDER, b.rep, un(8, 8))?;
        barrier_v()?;
        cast_l0(&dst, &t0, c.round, MASK_PLACEHOLDER, b.rep, narrow)?;
        barrier_v()?;
        basic_reduce(Reduce::Sum, &in_sum_tmp, &t0, &t1, m, k)?;
        barrier_v()?;
        brcb_rows(c.p, &t1, &in_sum_tmp, m, 8)?;
        barrier_v()?;
        mul_l0(&in_sum_tmp, &t2, &in_sum, MASK_PLACEHOLDER, b.rc, bin())?;
        barrier_v()?;
        add_l0(&sm, &in_sum_tmp, &t1, MASK_PLACEHOLDER, b.rc, bin())?;
    }
    Ok(())
}

// ---------------------------------------------------------------- SOFTMAX_OUTPUT_WITHOUT_BRC (A2/A3)

/// `NewReduce{Max,Sum}LastNDImpl<false>` (A2/A3): the row values of `r` packed at `dst[0..m]`
/// (a single row: the value eight times, sixteen when `r.rk` is 16); `tmp` holds `m · 64`
/// floats. Enters and leaves in counter mode.
fn reduce_packed(
    op: Reduce,
    dst: &LocalTensor<f32>,
    src: &LocalTensor<f32>,
    tmp: &LocalTensor<f32>,
    r: Rows,
) -> Result<()> {
    normal()?;
    let stride = r.ks / 8;
    if r.k < REP {
        let mut row = 0;
        while row < r.m {
            let n = (r.m - row).min(255);
            let (d, s) = (dst.at(row)?, src.at(row * r.ks)?);
            match op {
                Reduce::Max => whole_reduce_max(
                    &d,
                    &s,
                    r.k,
                    n as i32,
                    1,
                    1,
                    stride as i32,
                    ReduceOrder::ORDER_ONLY_VALUE,
                )?,
                Reduce::Sum => whole_reduce_sum(&d, &s, r.k, n as i32, 1, 1, stride as i32)?,
            }
            row += n;
        }
        reset_mask()?;
    } else {
        fold_rows(op, src, tmp, r)?;
        barrier_v()?;
        if r.m == 1 {
            match op {
                Reduce::Max => whole_reduce_max(
                    dst,
                    tmp,
                    MASK_PLACEHOLDER,
                    8,
                    1,
                    1,
                    0,
                    ReduceOrder::ORDER_ONLY_VALUE,
                )?,
                Reduce::Sum => whole_reduce_sum(dst, tmp, MASK_PLACEHOLDER, 8, 1, 1, 0)?,
            }
            if r.rk == 16 {
                barrier_v()?;
                crate::data_copy(&dst.at(8)?, dst, crate::DataCopyParams::new(1, 1, 0, 0))?;
            }
        } else {
            counter(r.m * REP)?;
            block_reduce(op, tmp, tmp, 1, 1, 8)?;
            barrier_v()?;
            set_vector_mask::<f32>(MaskMode::COUNTER, (r.m * 8) as u64)?;
            block_reduce(op, dst, tmp, 1, 1, 8)?;
            normal()?;
        }
    }
    barrier_v()?;
    set_mask_count()
}

/// The 64-lane blocks of each row of `r` folded lane-wise into `tmp` (64 floats a row), the
/// row's tail block under a lane mask (A2/A3's order).
fn fold_rows(op: Reduce, src: &LocalTensor<f32>, tmp: &LocalTensor<f32>, r: Rows) -> Result<()> {
    let stride = r.ks / 8;
    let (blocks, tail) = (r.k / REP, r.k % REP);
    let groups = |f: &mut dyn FnMut(u32, u32) -> Result<()>| -> Result<()> {
        let mut row = 0;
        while row < r.m {
            let n = (r.m - row).min(255);
            (f)(row, n)?;
            row += n;
        }
        Ok(())
    };
    if r.k >= 512 {
        for i in 0..r.m {
            block_reduce(op, &tmp.at(i * REP)?, &src.at(i * r.ks)?, 8, 1, 8)?;
        }
        if blocks > 8 {
            barrier_v()?;
            for j in 0..r.m {
                let d = tmp.at(j * REP)?;
                let s = src.at(512 + j * r.ks)?;
                fold(
                    op,
                    &d,
                    &s,
                    &d,
                    blocks - 8,
                    BinaryRepeatParams::new(1, 1, 1, 0, 8, 0),
                )?;
            }
        }
    } else if r.k >= 2 * REP {
        let st = stride as u8;
        groups(&mut |row, n| {
            let (a, b) = (src.at(row * r.ks)?, src.at(row * r.ks + REP)?);
            let prm = BinaryRepeatParams::new(1, 1, 1, 8, st, st);
            fold(op, &tmp.at(row * REP)?, &a, &b, n, prm)
        })?;
        if r.m > blocks {
            for b in 2..blocks {
                barrier_v()?;
                groups(&mut |row, n| {
                    let d = tmp.at(row * REP)?;
                    let s = src.at(row * r.ks + b * REP)?;
                    fold(
                        op,
                        &d,
                        &d,
                        &s,
                        n,
                        BinaryRepeatParams::new(1, 1, 1, 8, 8, st),
                    )
                })?;
            }
        } else if blocks > 2 {
            barrier_v()?;
            for j in 0..r.m {
                let d = tmp.at(j * REP)?;
                let s = src.at(2 * REP + j * r.ks)?;
                fold(
                    op,
                    &d,
                    &s,
                    &d,
                    blocks - 2,
                    BinaryRepeatParams::new(1, 1, 1, 0, 8, 0),
                )?;
            }
        }
    } else {
        groups(&mut |row, n| {
            let prm = CopyRepeatParams::new(1, 1, 8, stride as u16);
            let (d, s) = (tmp.at(row * REP)?, src.at(row * r.ks)?);
            copy(&d, &s, MASK_PLACEHOLDER, n as u8, prm)
        })?;
    }
    if tail == 0 {
        return Ok(());
    }
    barrier_v()?;
    let start = blocks * REP;
    let lanes = |d: &LocalTensor<f32>, s: &LocalTensor<f32>, n: u32, prm| match op {
        Reduce::Max => max_l0(d, d, s, tail, n as u8, prm),
        Reduce::Sum => add_l0(d, d, s, tail, n as u8, prm),
    };
    if r.ks > 255 * 8 {
        for i in 0..r.m {
            let prm = BinaryRepeatParams::new(1, 1, 1, 8, 8, 8);
            lanes(&tmp.at(i * REP)?, &src.at(start + i * r.ks)?, 1, prm)?;
        }
    } else {
        groups(&mut |row, n| {
            let prm = BinaryRepeatParams::new(1, 1, 1, 8, 8, stride as u8);
            lanes(&tmp.at(row * REP)?, &src.at(start + row * r.ks)?, n, prm)
        })?;
    }
    reset_mask()
}

/// `SoftmaxFlashV2M1BrcbSubImpl`: `dst = src − rv` per row, the packed row values `rv` first
/// spread to one block a row in `tmp` with `Brcb`. Leaves counter mode set.
#[allow(clippy::too_many_arguments)]
fn brcb_sub(
    dst: &LocalTensor<f32>,
    src: &LocalTensor<f32>,
    rv: &LocalTensor<f32>,
    tmp: &LocalTensor<f32>,
    m: u32,
    k: u32,
    basic: bool,
) -> Result<()> {
    brcb(tmp, rv, m.div_ceil(8) as u8, BrcbRepeatParams::new(1, 8))?;
    barrier_v()?;
    if basic {
        counter(m * REP)?;
        basic_sub(dst, src, tmp, m, k, 1)?;
    } else {
        row_op(RowOp::Sub, dst, src, tmp, m, k, 8)?;
        set_mask_count()?;
    }
    barrier_v()
}

/// `SoftMaxFlashV2M1CastIntrinsicsImpl`: `n` halves widened (`CAST_NONE`).
fn widen(dst: &LocalTensor<f32>, src: &LocalTensor<f16>, n: u32) -> Result<()> {
    counter(n)?;
    cast_l0(
        dst,
        src,
        RoundMode::CAST_NONE,
        MASK_PLACEHOLDER,
        1,
        un(8, 4),
    )?;
    barrier_v()
}

/// `n` floats narrowed to half with `round`.
fn narrow(dst: &LocalTensor<f16>, src: &LocalTensor<f32>, n: u32, round: RoundMode) -> Result<()> {
    counter(n)?;
    cast_l0(dst, src, round, MASK_PLACEHOLDER, 1, un(4, 8))?;
    barrier_v()
}

/// The float operands of one M1 pass (user tensors or their float copies in the buffer).
struct M1 {
    dst: LocalTensor<f32>,
    sum: LocalTensor<f32>,
    max: LocalTensor<f32>,
    src: LocalTensor<f32>,
    exp_max: LocalTensor<f32>,
    in_sum: LocalTensor<f32>,
    in_max: LocalTensor<f32>,
    work: LocalTensor<f32>,
}

/// The `outReduceMax` output: the row maxima before the update, in the max/sum type.
#[derive(Clone, Copy)]
enum ReduceMaxOut {
    None,
    F32(LocalTensor<f32>),
    F16(LocalTensor<f16>, RoundMode),
}

impl ReduceMaxOut {
    /// `SoftmaxFlashV2M12ReduceMax` under the counter mask of `m`.
    fn write(self, src: &LocalTensor<f32>, m: u32) -> Result<()> {
        match self {
            ReduceMaxOut::None => Ok(()),
            ReduceMaxOut::F32(d) => {
                copy(
                    &d,
                    src,
                    MASK_PLACEHOLDER,
                    1,
                    CopyRepeatParams::new(1, 1, 8, 8),
                )?;
                barrier_v()
            }
            ReduceMaxOut::F16(d, round) => narrow(&d, src, m, round),
        }
    }
}

/// One M1 pass without `isUpdate` (`SoftmaxFlashV2M1NoUpdate[BasicBlock]Process`).
fn m1_no_update(x: &M1, r: Rows, basic: bool) -> Result<()> {
    let (m, ks) = (r.m, r.ks);
    if basic {
        normal()?;
        basic_reduce(Reduce::Max, &x.max, &x.src, &x.work, m, ks)?;
        barrier_v()?;
        brcb_sub(&x.src, &x.src, &x.max, &x.work, m, ks, true)?;
        counter(m * ks)?;
        exp_l0(&x.dst, &x.src, MASK_PLACEHOLDER, 1, un(8, 8))?;
        barrier_v()?;
        normal()?;
        basic_reduce(Reduce::Sum, &x.sum, &x.dst, &x.work, m, ks)?;
        barrier_v()?;
        return set_mask_count();
    }
    reduce_packed(Reduce::Max, &x.max, &x.src, &x.work, r)?;
    brcb_sub(&x.dst, &x.src, &x.max, &x.work, m, ks, false)?;
    counter(m * ks)?;
    exp_l0(&x.dst, &x.dst, MASK_PLACEHOLDER, 1, un(8, 8))?;
    barrier_v()?;
    reduce_packed(Reduce::Sum, &x.sum, &x.dst, &x.work, r)
}

/// One M1 pass with `isUpdate` (`SoftmaxFlashV2M1{BasicBlock,Update}ImplProcess`);
/// `reduce_size` the tiling's (the non-basic path's first scratch region).
fn m1_update(x: &M1, r: Rows, basic: bool, reduce_size: u32, rm: ReduceMaxOut) -> Result<()> {
    let (m, ks) = (r.m, r.ks);
    if basic {
        let (red, t) = (x.work, x.work.at(m * REP)?);
        normal()?;
        basic_reduce(Reduce::Max, &t, &x.src, &red, m, ks)?;
        barrier_v()?;
        counter(m)?;
        rm.write(&t, m)?;
        copy(
            &red,
            &x.in_max,
            MASK_PLACEHOLDER,
            1,
            CopyRepeatParams::new(1, 1, 8, 8),
        )?;
        barrier_v()?;
        max_l0(&x.max, &x.in_max, &t, MASK_PLACEHOLDER, 1, bin())?;
        barrier_v()?;
        sub_l0(&t, &red, &x.max, MASK_PLACEHOLDER, 1, bin())?;
        barrier_v()?;
        exp_l0(&x.exp_max, &t, MASK_PLACEHOLDER, 1, un(8, 8))?;
        barrier_v()?;
        brcb_sub(&x.dst, &x.src, &x.max, &t, m, ks, true)?;
        counter(m * ks)?;
        exp_l0(&x.dst, &x.dst, MASK_PLACEHOLDER, 1, un(8, 8))?;
        barrier_v()?;
        normal()?;
        basic_reduce(Reduce::Sum, &t, &x.dst, &red, m, ks)?;
        barrier_v()?;
        counter(m)?;
        mul_l0(&x.in_sum, &x.exp_max, &x.in_sum, MASK_PLACEHOLDER, 1, bin())?;
        barrier_v()?;
        add_l0(&x.sum, &x.in_sum, &t, MASK_PLACEHOLDER, 1, bin())?;
        return barrier_v();
    }
    let (t0, red) = (x.work, x.work.at(reduce_size)?);
    reduce_packed(Reduce::Max, &t0, &x.src, &red, r)?;
    counter(m)?;
    rm.write(&t0, m)?;
    max_l0(&t0, &x.in_max, &t0, MASK_PLACEHOLDER, 1, bin())?;
    barrier_v()?;
    sub_l0(&red, &x.in_max, &t0, MASK_PLACEHOLDER, 1, bin())?;
    barrier_v()?;
    exp_l0(&x.exp_max, &red, MASK_PLACEHOLDER, 1, un(8, 8))?;
    barrier_v()?;
    brcb_sub(&x.dst, &x.src, &t0, &red, m, ks, false)?;
    barrier_v()?;
    counter(m * ks)?;
    exp_l0(&x.dst, &x.dst, MASK_PLACEHOLDER, 1, un(8, 8))?;
    barrier_v()?;
    counter(m)?;
    copy(
        &x.max,
        &t0,
        MASK_PLACEHOLDER,
        1,
        CopyRepeatParams::new(1, 1, 8, 8),
    )?;
    barrier_v()?;
    reduce_packed(Reduce::Sum, &t0, &x.dst, &red, r)?;
    counter(m)?;
    mul_l0(&x.sum, &x.exp_max, &x.in_sum, MASK_PLACEHOLDER, 1, bin())?;
    barrier_v()?;
    add_l0(&x.sum, &x.sum, &t0, MASK_PLACEHOLDER, 1, bin())?;
    barrier_v()
}

/// One M1 pass of `m` rows at element offset `o1` and row offset `o2`: half operands widened
/// into the buffer (`[rows·k | sum | max | expMax | scratch]`, regions rounded to 8 rows)
/// around the float process, as `SoftmaxFlashV2M1{NoUpdate,Update}ImplPreCast/PostCast`.
#[allow(clippy::too_many_arguments)]
fn m1_pass<T: Element, S: Element>(
    c: &Ctx,
    kind: Kind,
    f: FlashV2Flags,
    io: &Io<T, S>,
    rm: Option<&LocalTensor<S>>,
    work: &LocalTensor<f32>,
    o1: u32,
    o2: u32,
    m: u32,
) -> Result<()> {
    let basic = f.is_basic_block;
    let r = Rows {
        m,
        k: c.ori_k,
        ks: c.t.split_k,
        rk: c.t.reduce_k,
    };
    let split = m * r.ks;
    let m8 = m.div_ceil(8) * 8;
    let (src, dst, em) = (io.src.at(o1)?, io.dst.at(o1)?, io.exp_max.at(o2)?);
    let (sm, mx, ism, imx) = (
        io.sum.at(o2)?,
        io.max.at(o2)?,
        io.in_sum.at(o2)?,
        io.in_max.at(o2)?,
    );
    let rm = match (rm, kind) {
        (None, _) => ReduceMaxOut::None,
        (Some(t), Kind::F16F16) => ReduceMaxOut::F16(t.at(o2)?.reinterpret_cast(), c.round),
        (Some(t), _) => ReduceMaxOut::F32(t.at(o2)?.reinterpret_cast()),
    };
    let f32v = |t: &LocalTensor<T>| t.reinterpret_cast::<f32>();
    let s32 = |t: &LocalTensor<S>| t.reinterpret_cast::<f32>();
    let h = |t: &LocalTensor<T>| t.reinterpret_cast::<f16>();
    let hs = |t: &LocalTensor<S>| t.reinterpret_cast::<f16>();
    let buf = || work.at(split);
    match kind {
        Kind::F32 => {
            let x = M1 {
                dst: f32v(&dst),
                sum: s32(&sm),
                max: s32(&mx),
                src: f32v(&src),
                exp_max: f32v(&em),
                in_sum: s32(&ism),
                in_max: s32(&imx),
                work: *work,
            };
            if f.is_update {
                m1_update(&x, r, basic, c.t.reduce_size, rm)
            } else {
                m1_no_update(&x, r, basic)
            }
        }
        Kind::F16F16 => {
            let sb = buf()?;
            let (mb, eb) = (sb.at(m8)?, sb.at(2 * m8)?);
            let scratch = if f.is_update { 3 * m8 } else { 2 * m8 };
            let x = M1 {
                dst: *work,
                sum: sb,
                max: mb,
                src: *work,
                exp_max: eb,
                in_sum: sb,
                in_max: mb,
                work: sb.at(scratch)?,
            };
            widen(work, &h(&src), split)?;
            if f.is_update {
                widen(&sb, &hs(&ism), m)?;
                widen(&mb, &hs(&imx), m)?;
                m1_update(&x, r, basic, c.t.reduce_size, rm)?;
            } else {
                m1_no_update(&x, r, basic)?;
            }
            narrow(&h(&dst), work, split, c.round)?;
            narrow(&hs(&sm), &sb, m, c.round)?;
            narrow(&hs(&mx), &mb, m, c.round)?;
            if f.is_update {
                narrow(&h(&em), &eb, m, c.round)?;
            }
            Ok(())
        }
        Kind::F16F32 => {
            // Without isUpdate the device's general path puts its scratch 8-row-rounded
            // `m` floats into the widened rows (they overlap when m · k > that offset).
            let eb = buf()?;
            let scratch = match (f.is_update, basic) {
                (true, _) => eb.at(m8)?,
                (false, true) => eb,
                (false, false) => work.at(m8)?,
            };
            let x = M1 {
                dst: *work,
                sum: s32(&sm),
                max: s32(&mx),
                src: *work,
                exp_max: eb,
                in_sum: s32(&ism),
                in_max: s32(&imx),
                work: scratch,
            };
            widen(work, &h(&src), split)?;
            if f.is_update {
                m1_update(&x, r, basic, c.t.reduce_size, rm)?;
            } else {
                m1_no_update(&x, r, basic)?;
            }
            narrow(&h(&dst), work, split, c.round)?;
            if f.is_update {
                narrow(&h(&em), &eb, m, c.round)?;
            }
            Ok(())
        }
    }
}

/// `SoftmaxFlashV2M1PostProcess`: `rangeM` passes of `splitM` rows, then (general path) the
/// tail pass; row values one a row.
fn m1_passes<T: Element, S: Element>(
    c: &Ctx,
    kind: Kind,
    f: FlashV2Flags,
    io: &Io<T, S>,
    rm: Option<&LocalTensor<S>>,
    work: &LocalTensor<f32>,
) -> Result<()> {
    let t = &c.t;
    barrier_v()?;
    set_mask_count()?;
    for i in 0..t.range_m {
        m1_pass(
            c,
            kind,
            f,
            io,
            rm,
            work,
            i * t.split_size,
            i * t.reduce_m,
            t.split_m,
        )?;
    }
    if !f.is_basic_block && t.tail_m != 0 {
        let (o1, o2) = (t.range_m * t.split_size, t.range_m * t.reduce_m);
        m1_pass(c, kind, f, io, rm, work, o1, o2, t.tail_m)?;
    }
    normal()
}

// ---------------------------------------------------------------- NZ layout

/// Columns of one NZ block.
const NZB: u32 = 16;

/// A masked level-0 float instruction of the NZ tail block (`BinaryComputeWithSpecialMask` /
/// `UnaryComputeWithSpecialMask`): `f(offset, mask, repeats)`.
type MaskedOp<'a> = &'a dyn Fn(u32, [u64; 2], u8) -> Result<()>;

/// `count` elements in repeats of 64 under the 16-lane-group mask `mask`, the last partial
/// repeat under the mask of `last` lanes per group.
fn nz_masked(f: MaskedOp, mask: u64, last: u32, count: u32) -> Result<()> {
    let (repeat, tail) = (count / REP, count % REP);
    let mut done = 0;
    while done < repeat {
        let n = (repeat - done).min(255);
        f(done * REP, [mask, 0], n as u8)?;
        done += n;
    }
    if tail != 0 {
        f(repeat * REP, [nz_lane_mask(last, tail / NZB), 0], 1)?;
    }
    Ok(())
}

/// `op` of the NZ tail block (`src1` row values repeat per 64 elements like the others).
fn nz_bin_masked(
    op: RowOp,
    dst: &LocalTensor<f32>,
    rv: &LocalTensor<f32>,
    mask: u64,
    last: u32,
    count: u32,
) -> Result<()> {
    let prm = BinaryRepeatParams::new(1, 1, 1, 8, 8, 8);
    let f = |o: u32, m: [u64; 2], n: u8| -> Result<()> {
        let (d, b) = (dst.at(o)?, rv.at(o)?);
        match op {
            RowOp::Sub => sub_l0(&d, &d, &b, m, n, prm),
            _ => max_l0(&d, &d, &b, m, n, prm),
        }
    };
    nz_masked(&f, mask, last, count)
}

/// `ReduceMaxLastNZImpl`: `dst[16i ..][..16]` = the maximum of row `i`'s valid columns of the
/// column blocks in `src` (`dst_m · 16` apart); the sum twin is SoftmaxGrad's `nz_row_sum`.
fn nz_row_max(
    c: GradCtx,
    dst: &LocalTensor<f32>,
    src: &LocalTensor<f32>,
    mask: u64,
    r: RowSum,
) -> Result<()> {
    let blk_off = r.dst_m * NZB;
    let count = r.ori_m * NZB;
    let blocks = r.src_k / NZB;
    let last = match r.ori_k % NZB {
        0 => NZB,
        l => l,
    };
    if blocks == 1 && last != NZB {
        let mut row = 0;
        while row < r.src_m {
            let n = (r.src_m - row).min(255);
            let (d, s) = (dst.at(row * NZB)?, src.at(row * NZB)?);
            whole_reduce_max(
                &d,
                &s,
                last,
                n as i32,
                8,
                1,
                2,
                ReduceOrder::ORDER_VALUE_INDEX,
            )?;
            row += n;
        }
        sync_event(API, HardEvent::V_S)?;
        nz_columns(dst, dst, r.ori_m, NZB)?;
        return reset_mask();
    }
    if blocks == 1 {
        nz_fold_max(dst, src, r.src_m)?;
    } else {
        counter(count)?;
        muls_l0(dst, src, 1.0, MASK_PLACEHOLDER, 1, un(8, 8))?;
        barrier_v()?;
        for j in 1..blocks - 1 {
            max_l0(dst, dst, &src.at(blk_off * j)?, MASK_PLACEHOLDER, 1, bin())?;
            barrier_v()?;
        }
        normal()?;
        let f = |o: u32, m: [u64; 2], n: u8| -> Result<()> {
            let (d, b) = (dst.at(o)?, src.at(blk_off * (blocks - 1) + o)?);
            max_l0(&d, &d, &b, m, n, bin())
        };
        nz_masked(&f, mask, last, count)?;
        barrier_v()?;
        nz_fold_max(dst, dst, r.src_m)?;
    }
    if r.ori_m.is_multiple_of(8) {
        barrier_v()?;
        nz_transpose_rows(dst, r.ori_m)
    } else {
        sync_event(c.api, HardEvent::V_S)?;
        nz_columns(dst, dst, r.ori_m, 1)?;
        reset_mask()
    }
}

/// `ReduceMaxBlockNZImpl`: each row's 16 values folded to 8 and block-reduced; the maxima of
/// rows `8q .. 8q + 8` land at `dst[128q ..][..8]`.
fn nz_fold_max(dst: &LocalTensor<f32>, src: &LocalTensor<f32>, m: u32) -> Result<()> {
    counter(m * 8)?;
    let prm = BinaryRepeatParams::new(2, 2, 2, 16, 16, 16);
    max_l0(dst, src, &src.at(8)?, MASK_PLACEHOLDER, 1, prm)?;
    barrier_v()?;
    block_reduce_max(dst, dst, (m / 8) as i32, MASK_PLACEHOLDER, 16, 2, 16)?;
    normal()
}

/// The NZ operands of one pass: the `blocks` column blocks of `rows · 16` elements (`stride`
/// apart in the tensors, `split_m · 16` in the buffer).
#[derive(Clone, Copy)]
struct NzPass {
    /// Element offset of the pass's rows in a column block.
    o1: u32,
    /// Element offset of its row values.
    o2: u32,
    /// Elements a column block holds of this pass (`rows · 16` less the padding rows).
    count: u32,
    r: RowSum,
}

/// One NZ pass (`FlashV2NZUpdateGenericImpl` / `SoftMaxGenericNZImpl<isFlashV2>`), all types.
#[allow(clippy::too_many_arguments)]
fn nz_pass<T: Element, S: Element>(
    c: &Ctx,
    kind: Kind,
    update: bool,
    io: &Io<T, S>,
    work: &LocalTensor<f32>,
    mask: u64,
    last: u32,
    p: NzPass,
) -> Result<()> {
    let t = &c.t;
    let gc = GradCtx { api: API, p: c.p };
    let blocks = t.src_k / NZB;
    let (so, stride) = (t.split_m * NZB, t.src_m * NZB);
    let (t0, t1) = (*work, work.at(t.split_size)?);
    let rs = t.reduce_size;
    let rows = p.count / NZB;
    let half = kind != Kind::F32;
    let f32v = |x: &LocalTensor<T>| x.reinterpret_cast::<f32>();
    let h = |x: &LocalTensor<T>| x.reinterpret_cast::<f16>();
    let s32 = |x: &LocalTensor<S>| x.reinterpret_cast::<f32>();
    let hs = |x: &LocalTensor<S>| x.reinterpret_cast::<f16>();
    let narrow_prm = un(4, 8);
    // Two blocks a row (the row values repeated over 16 lanes) from one block a row.
    let widen_rows = |dst: &LocalTensor<f32>, src: &LocalTensor<f32>| -> Result<()> {
        let prm = crate::DataCopyParams::new(rows as u16, 1, 0, 1);
        crate::data_copy(dst, src, prm)?;
        crate::data_copy(&dst.at(8)?, src, prm)
    };
    let one_block_a_row = crate::DataCopyParams::new(rows as u16, 1, 1, 0);
    let (in_max_t, in_sum_t) = match kind {
        Kind::F16F16 => (work.at(t.split_size + rs)?, work.at(t.split_size + 2 * rs)?),
        _ => (
            work.at(t.split_size + 2 * rs)?,
            work.at(t.split_size + 3 * rs)?,
        ),
    };
    // Load (widen) the column blocks; with update the float stats of the pass.
    if update && kind == Kind::F32 {
        let prm = crate::DataCopyParams::new(1, rows as u16, 0, 0);
        crate::data_copy(&in_sum_t, &s32(&io.in_sum.at(p.o2)?), prm)?;
        crate::data_copy(&in_max_t, &s32(&io.in_max.at(p.o2)?), prm)?;
    }
    if update && kind == Kind::F16F32 {
        let prm = crate::DataCopyParams::new(1, rows as u16, 0, 0);
        crate::data_copy(&in_max_t, &s32(&io.in_max.at(p.o2)?), prm)?;
    }
    if half {
        counter(p.count)?;
        for j in 0..blocks {
            let s = h(&io.src.at(p.o1 + j * stride)?);
            cast_l0(
                &t0.at(so * j)?,
                &s,
                RoundMode::CAST_NONE,
                MASK_PLACEHOLDER,
                1,
                un(8, 4),
            )?;
        }
        if update && kind == Kind::F16F16 {
            let prm = un(8, 4);
            let (im, is) = (hs(&io.in_max.at(p.o2)?), hs(&io.in_sum.at(p.o2)?));
            cast_l0(
                &in_max_t,
                &im,
                RoundMode::CAST_NONE,
                MASK_PLACEHOLDER,
                1,
                prm,
            )?;
            cast_l0(
                &in_sum_t,
                &is,
                RoundMode::CAST_NONE,
                MASK_PLACEHOLDER,
                1,
                prm,
            )?;
        }
        normal()?;
        barrier_v()?;
    } else {
        for j in 0..blocks {
            crate::data_copy(
                &t0.at(so * j)?,
                &f32v(&io.src.at(p.o1 + j * stride)?),
                p.count,
            )?;
        }
        barrier_v()?;
    }
    nz_row_max(gc, &t1, &t0, mask, p.r)?;
    barrier_v()?;
    // The max (and with update expMax), then t1 = the new max, 16 a row.
    match (kind, update) {
        (Kind::F16F16, false) => {
            counter(p.count)?;
            cast_l0(
                &hs(&io.max.at(p.o2)?),
                &t1,
                c.round,
                MASK_PLACEHOLDER,
                1,
                narrow_prm,
            )?;
        }
        (Kind::F16F16, true) => {
            counter(p.count)?;
            max_l0(&t1, &in_max_t, &t1, MASK_PLACEHOLDER, 1, bin())?;
            barrier_v()?;
            sub_l0(&in_max_t, &in_max_t, &t1, MASK_PLACEHOLDER, 1, bin())?;
            barrier_v()?;
            exp_l0(&in_max_t, &in_max_t, MASK_PLACEHOLDER, 1, un(8, 8))?;
            barrier_v()?;
            let em = h(&io.exp_max.at(p.o2)?);
            cast_l0(&em, &in_max_t, c.round, MASK_PLACEHOLDER, 1, narrow_prm)?;
            cast_l0(
                &hs(&io.max.at(p.o2)?),
                &t1,
                c.round,
                MASK_PLACEHOLDER,
                1,
                narrow_prm,
            )?;
        }
        (_, false) => {
            crate::data_copy(&s32(&io.max.at(p.o2)?), &t1, one_block_a_row)?;
            barrier_v()?;
            counter(p.count)?;
        }
        (_, true) => {
            let mx = s32(&io.max.at(p.o2)?);
            crate::data_copy(&mx, &t1, one_block_a_row)?;
            barrier_v()?;
            counter(p.count / 2)?;
            max_l0(&mx, &in_max_t, &mx, MASK_PLACEHOLDER, 1, bin())?;
            barrier_v()?;
            sub_l0(&in_max_t, &in_max_t, &mx, MASK_PLACEHOLDER, 1, bin())?;
            barrier_v()?;
            if kind == Kind::F32 {
                let em = f32v(&io.exp_max.at(p.o2)?);
                exp_l0(&em, &in_max_t, MASK_PLACEHOLDER, 1, un(8, 8))?;
                barrier_v()?;
                normal()?;
            } else {
                exp_l0(&in_max_t, &in_max_t, MASK_PLACEHOLDER, 1, un(8, 8))?;
                barrier_v()?;
                normal()?;
                widen_rows(&t1, &in_max_t)?;
                barrier_v()?;
                counter(p.count)?;
                let em = h(&io.exp_max.at(p.o2 * 2)?);
                cast_l0(&em, &t1, c.round, MASK_PLACEHOLDER, 1, narrow_prm)?;
                normal()?;
            }
            widen_rows(&t1, &mx)?;
            barrier_v()?;
            counter(p.count)?;
        }
    }
    // x − max and Exp: the full column blocks in counter mode, the last under the lane mask.
    for j in 0..blocks - 1 {
        let x = t0.at(so * j)?;
        sub_l0(&x, &x, &t1, MASK_PLACEHOLDER, 1, bin())?;
    }
    normal()?;
    let lastb = t0.at(so * (blocks - 1))?;
    nz_bin_masked(RowOp::Sub, &lastb, &t1, mask, last, p.count)?;
    barrier_v()?;
    counter(p.count)?;
    for j in 0..blocks - 1 {
        let x = t0.at(so * j)?;
        exp_l0(&x, &x, MASK_PLACEHOLDER, 1, un(8, 8))?;
    }
    normal()?;
    let f = |o: u32, m: [u64; 2], n: u8| -> Result<()> {
        let x = lastb.at(o)?;
        exp_l0(&x, &x, m, n, un(8, 8))
    };
    nz_masked(&f, mask, last, p.count)?;
    barrier_v()?;
    if update && kind == Kind::F16F32 {
        let prm = crate::DataCopyParams::new(1, rows as u16, 0, 0);
        crate::data_copy(&in_sum_t, &s32(&io.in_sum.at(p.o2)?), prm)?;
    }
    nz_row_sum(gc, &t1, &t0, mask, p.r)?;
    if !(update && kind == Kind::F16F16) {
        barrier_v()?;
    }
    // The sum, dst and with update sum = expMax · inExpSum + sum.
    match kind {
        Kind::F16F16 => {
            if !update {
                counter(p.count)?;
                cast_l0(
                    &hs(&io.sum.at(p.o2)?),
                    &t1,
                    c.round,
                    MASK_PLACEHOLDER,
                    1,
                    narrow_prm,
                )?;
                barrier_v()?;
            }
            counter(p.count)?;
            for j in 0..blocks {
                let d = h(&io.dst.at(p.o1 + j * stride)?);
                cast_l0(
                    &d,
                    &t0.at(so * j)?,
                    c.round,
                    MASK_PLACEHOLDER,
                    1,
                    narrow_prm,
                )?;
            }
            if update {
                mul_l0(&in_max_t, &in_max_t, &in_sum_t, MASK_PLACEHOLDER, 1, bin())?;
                barrier_v()?;
                add_l0(&in_sum_t, &in_max_t, &t1, MASK_PLACEHOLDER, 1, bin())?;
                barrier_v()?;
                let sm = hs(&io.sum.at(p.o2)?);
                cast_l0(&sm, &in_sum_t, c.round, MASK_PLACEHOLDER, 1, narrow_prm)?;
            }
            normal()
        }
        Kind::F32 | Kind::F16F32 => {
            let sm = s32(&io.sum.at(p.o2)?);
            crate::data_copy(&sm, &t1, one_block_a_row)?;
            if !update {
                barrier_v()?;
            }
            if kind == Kind::F32 {
                for j in 0..blocks {
                    let d = f32v(&io.dst.at(p.o1 + j * stride)?);
                    crate::data_copy(&d, &t0.at(so * j)?, p.count)?;
                }
            } else {
                if !update {
                    barrier_v()?;
                }
                counter(p.count)?;
                for j in 0..blocks {
                    let d = h(&io.dst.at(p.o1 + j * stride)?);
                    cast_l0(
                        &d,
                        &t0.at(so * j)?,
                        c.round,
                        MASK_PLACEHOLDER,
                        1,
                        narrow_prm,
                    )?;
                }
            }
            if update {
                counter(p.count / 2)?;
                let e = if kind == Kind::F32 {
                    f32v(&io.exp_max.at(p.o2)?)
                } else {
                    in_max_t
                };
                mul_l0(&in_max_t, &e, &in_sum_t, MASK_PLACEHOLDER, 1, bin())?;
                barrier_v()?;
                add_l0(&sm, &in_max_t, &sm, MASK_PLACEHOLDER, 1, bin())?;
            }
            normal()
        }
    }
}

/// `SoftMaxFlashV2NZImpl`: `rangeM` passes of `splitM` rows and the tail pass; the last pass
/// leaves out the padding rows (`srcM − oriSrcM`).
fn nz_passes<T: Element, S: Element>(
    c: &Ctx,
    kind: Kind,
    update: bool,
    io: &Io<T, S>,
    work: &LocalTensor<f32>,
    ori_m: u32,
) -> Result<()> {
    let t = &c.t;
    normal()?;
    let last = match c.ori_k % NZB {
        0 => NZB,
        l => l,
    };
    let mask = nz_lane_mask(last, REP / NZB);
    let mut count = t.split_m * NZB;
    let padding = t.src_m.wrapping_sub(ori_m).wrapping_mul(NZB);
    let r = |m: u32| RowSum {
        ori_m: m,
        ori_k: c.ori_k,
        src_m: t.split_m,
        src_k: t.split_k,
        dst_m: t.split_m,
        dst_k: NZB,
    };
    for i in 0..t.range_m {
        let (o1, o2) = (i * count, i * t.reduce_size);
        if t.tail_m == 0 && i + 1 == t.range_m && count > padding {
            count -= padding;
        }
        let p = NzPass {
            o1,
            o2,
            count,
            r: r(t.split_m),
        };
        nz_pass(c, kind, update, io, work, mask, last, p)?;
    }
    barrier_v()?;
    if t.tail_m != 0 {
        let (o1, o2) = (t.range_m * count, t.range_m * t.reduce_size);
        let mut count = t.tail_m * NZB;
        if count > padding {
            count -= padding;
        }
        let p = NzPass {
            o1,
            o2,
            count,
            r: r(t.tail_m),
        };
        nz_pass(c, kind, update, io, work, mask, last, p)?;
    }
    Ok(())
}

/// The NZ form: always re-tiled for the buffer (`SoftMaxFlashV2TilingFunc` with
/// `isDataFormatNZ`); `isBasicBlock` and the config's shape are ignored, as on the device.
#[allow(clippy::too_many_arguments)]
fn nz_call<T: Element, S: Element>(
    p: Product,
    kind: Kind,
    f: FlashV2Flags,
    dst: &LocalTensor<T>,
    sum: &LocalTensor<S>,
    max: &LocalTensor<S>,
    src: &LocalTensor<T>,
    exp_max: &LocalTensor<T>,
    in_sum: &LocalTensor<S>,
    in_max: &LocalTensor<S>,
    work: &LocalTensor<f32>,
    shape: SoftMaxShapeInfo,
) -> Result<()> {
    let (m, k) = (shape.src_m, shape.src_k);
    if k % NZB != 0 {
        return Err(err(
            Category::Align,
            format!("softmaxShapeInfo.srcK = {k} is not a multiple of 16: NZ data is whole 16-column blocks"),
        ));
    }
    let floats = work.get_size();
    if floats < 3 * NZB + k {
        return Err(err(
            Category::Size,
            format!(
                "sharedTmpBuffer of {} bytes is below (48 + srcK) floats = {} bytes for NZ data (the device then takes the stack buffer instead): pass a larger buffer or none",
                floats * 4,
                (3 * NZB + k) * 4
            ),
        ));
    }
    let (s1, s2) = (T::DTYPE.size() as u32, S::DTYPE.size() as u32);
    let t = flash_v2_kernel_tiling(m, k, s1, s2, floats, false, true, false);
    let ori_k = if shape.ori_src_k == 0 {
        k
    } else {
        shape.ori_src_k
    };
    if ori_k > k {
        return Err(err(
            Category::Range,
            format!("softmaxShapeInfo.oriSrcK = {ori_k} exceeds srcK = {k}"),
        ));
    }
    for (name, size, per_row) in [
        ("srcTensor", src.get_size(), k),
        ("dstTensor", dst.get_size(), k),
        ("maxTensor", max.get_size(), t.reduce_k),
        ("expSumTensor", sum.get_size(), t.reduce_k),
    ] {
        check_rows(name, size, m, per_row)?;
    }
    if f.is_update {
        let em = if kind == Kind::F16F32 { 16 } else { t.reduce_k };
        check_rows("inMaxTensor", in_max.get_size(), m, t.reduce_k)?;
        check_rows("inExpSumTensor", in_sum.get_size(), m, t.reduce_k)?;
        check_rows("expMaxTensor", exp_max.get_size(), m, em)?;
    }
    let ctx = Ctx {
        p,
        round: if p == Product::Ascend310P {
            RoundMode::CAST_NONE
        } else {
            RoundMode::CAST_ROUND
        },
        t,
        ori_k,
        ks: k,
    };
    let io = Io {
        dst: *dst,
        sum: *sum,
        max: *max,
        src: *src,
        exp_max: *exp_max,
        in_sum: *in_sum,
        in_max: *in_max,
    };
    nz_passes(&ctx, kind, f.is_update, &io, work, shape.ori_src_m)
}

// ---------------------------------------------------------------- the call

/// The operands of one call in their device types.
struct Io<T: Element, S: Element> {
    dst: LocalTensor<T>,
    sum: LocalTensor<S>,
    max: LocalTensor<S>,
    src: LocalTensor<T>,
    exp_max: LocalTensor<T>,
    in_sum: LocalTensor<S>,
    in_max: LocalTensor<S>,
}

impl<T: Element, S: Element> Io<T, S> {
    fn cast<U: Element, V: Element>(&self) -> Io<U, V> {
        Io {
            dst: self.dst.reinterpret_cast(),
            sum: self.sum.reinterpret_cast(),
            max: self.max.reinterpret_cast(),
            src: self.src.reinterpret_cast(),
            exp_max: self.exp_max.reinterpret_cast(),
            in_sum: self.in_sum.reinterpret_cast(),
            in_max: self.in_max.reinterpret_cast(),
        }
    }
}

/// `(rows, row length)` of a shape argument, or of the source tensor's shape when it is empty.
pub(crate) fn call_shape<T: Element>(
    src: &LocalTensor<T>,
    shape: SoftMaxShapeInfo,
) -> Result<SoftMaxShapeInfo> {
    if shape.src_m != 0 && shape.src_k != 0 {
        return Ok(shape);
    }
    let info = src.get_shape_info().ok_or_else(|| {
        err(
            Category::Range,
            "softmaxShapeInfo is empty and srcTensor has no shape: pass {srcM, srcK, oriSrcM, oriSrcK}".into(),
        )
    })?;
    let dims: Vec<u64> = info.shape[..info.shape_dim as usize]
        .iter()
        .map(|&d| d as u64)
        .collect();
    let odims: Vec<u64> = info.original_shape[..info.original_shape_dim as usize]
        .iter()
        .map(|&d| d as u64)
        .collect();
    let (m, k) = super::tiling::last_axis(&dims);
    let (om, ok) = if odims.is_empty() {
        (m, k)
    } else {
        super::tiling::last_axis(&odims)
    };
    Ok(SoftMaxShapeInfo {
        src_m: m,
        src_k: k,
        ori_src_m: om,
        ori_src_k: ok,
    })
}

fn check_rows(name: &str, size: u32, rows: u32, per_row: u32) -> Result<()> {
    if size < rows * per_row {
        return Err(err(
            Category::Size,
            format!("{name} holds {size} elements, {rows} rows x {per_row} needed"),
        ));
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn flash_v2_call<T: Element, S: Element>(
    dst: &LocalTensor<T>,
    sum: &LocalTensor<S>,
    max: &LocalTensor<S>,
    src: &LocalTensor<T>,
    exp_max: &LocalTensor<T>,
    in_sum: &LocalTensor<S>,
    in_max: &LocalTensor<S>,
    tmp: Tmp,
    tiling: &SoftMaxTiling,
    shape: SoftMaxShapeInfo,
    f: FlashV2Flags,
    rm: Option<&LocalTensor<S>>,
) -> Result<()> {
    let p = require(API, super::v300::PRODUCTS)?;
    let kind = match (T::DTYPE, S::DTYPE) {
        (DType::Float, DType::Float) => Kind::F32,
        (DType::Half, DType::Half) => Kind::F16F16,
        (DType::Half, DType::Float) => Kind::F16F32,
        (t, s) => {
            return Err(err(
                Category::Type,
                format!("T = {t} with max/sum of {s} is not supported: half or float data, max/sum of the same type or float for half"),
            ))
        }
    };
    if p == Product::Ascend310B && kind == Kind::F16F32 {
        return Err(err(
            Category::Type,
            "half data with float max/sum is not supported on Ascend310B: max/sum of the data's type"
                .into(),
        ));
    }
    if f.is_data_format_nz && p == Product::Ascend310B {
        return Err(err(
            Category::Unsupported,
            "isDataFormatNZ = true is not supported on Ascend310B (its page: ND only): use the ND layout".into(),
        ));
    }
    if f.is_data_format_nz && f.config.mode == SoftmaxMode::OutputWithoutBrc {
        return Err(err(
            Category::Unsupported,
            "isDataFormatNZ = true with config.mode = SOFTMAX_OUTPUT_WITHOUT_BRC: the device ignores the mode on NZ data (max/sum stay one block a row); use SOFTMAX_NORMAL or the ND layout".into(),
        ));
    }
    let m1 = f.config.mode == SoftmaxMode::OutputWithoutBrc;
    if m1 && !matches!(p, Product::Ascend910B | Product::Ascend910_93) {
        return Err(err(
            Category::Unsupported,
            format!("config.mode = SOFTMAX_OUTPUT_WITHOUT_BRC is not supported on {p:?} (the device's implementation asserts): A2/A3 only; use SOFTMAX_NORMAL"),
        ));
    }
    let (size1, size2) = (T::DTYPE.size() as u32, S::DTYPE.size() as u32);
    let work = tmp.buffer(API)?.reinterpret_cast::<f32>();
    let shape = call_shape(src, shape)?;
    if shape.src_k % (32 / size1) != 0 {
        return Err(err(
            Category::Align,
            format!(
                "softmaxShapeInfo.srcK = {} is not a multiple of {}: a row must be whole 32-byte blocks",
                shape.src_k,
                32 / size1
            ),
        ));
    }
    if f.is_data_format_nz {
        return nz_call(
            p, kind, f, dst, sum, max, src, exp_max, in_sum, in_max, &work, shape,
        );
    }
    let cfg = f.config;
    let t = if rm.is_some()
        || !cfg.is_check_tiling
        || (shape.src_m == tiling.src_m && shape.src_k == tiling.src_k)
    {
        *tiling
    } else {
        flash_v2_kernel_tiling(
            shape.src_m,
            shape.src_k,
            size1,
            size2,
            work.get_size(),
            f.is_basic_block,
            false,
            m1,
        )
    };
    if t.split_m == 0 {
        return Err(err(
            Category::Size,
            format!(
                "the temporary buffer of {} bytes holds no pass of one row of {}: size it with GetSoftMaxFlashV2MinTmpSize (or fill the tiling with SoftMaxFlashV2TilingFunc)",
                work.get_size() * 4,
                shape.src_k
            ),
        ));
    }
    let ori_k = if shape.ori_src_k == 0 {
        shape.src_k
    } else {
        shape.ori_src_k
    };
    if ori_k > t.src_k {
        return Err(err(
            Category::Range,
            format!(
                "softmaxShapeInfo.oriSrcK = {ori_k} exceeds srcK = {}",
                t.src_k
            ),
        ));
    }
    let shape_ori_k = ori_k;
    // The compile-time shape of the config decides the basic-block path and the reduction shape.
    let (basic, ori_k, ks) = if cfg.ori_src_m != 0 && cfg.ori_src_k != 0 {
        (
            cfg.ori_src_k.is_multiple_of(REP)
                && cfg.ori_src_k < 2048
                && cfg.ori_src_m.is_multiple_of(8),
            cfg.ori_src_k,
            cfg.ori_src_k.div_ceil(8) * 8,
        )
    } else {
        (f.is_basic_block, ori_k, t.split_k)
    };
    let rows = t.src_m;
    // Row values: one a row without broadcast, else one 32-byte block a row.
    let rv = if m1 { 1 } else { t.reduce_k };
    for (name, size, per_row) in [
        ("srcTensor", src.get_size(), t.src_k),
        ("dstTensor", dst.get_size(), t.src_k),
        ("maxTensor", max.get_size(), rv),
        ("expSumTensor", sum.get_size(), rv),
    ] {
        check_rows(name, size, rows, per_row)?;
    }
    if let Some(o) = rm {
        check_rows("outReduceMax", o.get_size(), rows, 1)?;
    }
    if f.is_update {
        let em = match (m1, kind) {
            (true, _) => 1,
            (false, Kind::F16F32) => 16,
            _ => t.reduce_k,
        };
        check_rows("inMaxTensor", in_max.get_size(), rows, rv)?;
        check_rows("inExpSumTensor", in_sum.get_size(), rows, rv)?;
        check_rows("expMaxTensor", exp_max.get_size(), rows, em)?;
    }
    if p == Product::Ascend310B {
        // isBasicBlock and the config's shape are reserved on 310B.
        let io = super::v300::Io {
            dst,
            sum: &sum.reinterpret_cast(),
            max: &max.reinterpret_cast(),
            src,
        };
        if !f.is_update {
            return super::v300::softmax(API, false, true, io, &work, &t, shape_ori_k);
        }
        let u = super::v300::Update {
            exp_max,
            in_sum: &in_sum.reinterpret_cast(),
            in_max: &in_max.reinterpret_cast(),
        };
        return super::v300::flash_update(API, io, u, &work, &t, shape_ori_k);
    }
    let half = kind != Kind::F32;
    let unit = if basic && t.split_k == 1024 {
        2 * REP
    } else {
        REP
    };
    let m8 = t.split_m.div_ceil(8) * 8;
    let red = t.split_m
        * if f.is_basic_block && t.split_k == 1024 {
            2 * REP
        } else {
            REP
        };
    let split = t.split_size;
    let need = if m1 {
        let sc = match (f.is_update, f.is_basic_block) {
            (false, _) => red,
            (true, true) => red + t.split_m * 8,
            (true, false) => t.reduce_size + red,
        };
        match (kind, f.is_update, f.is_basic_block) {
            (Kind::F32, _, _) => sc,
            (Kind::F16F16, false, _) => split + 2 * m8 + sc,
            (Kind::F16F16, true, _) => split + 3 * m8 + sc,
            (Kind::F16F32, false, true) => split + sc,
            (Kind::F16F32, false, false) => split.max(m8 + sc),
            (Kind::F16F32, true, _) => split + m8 + sc,
        }
    } else {
        match (half, basic, f.is_update) {
            (false, false, false) => t.split_m * REP,
            (false, false, true) => t.reduce_size + t.split_m * REP,
            (false, true, _) => t.split_m * unit + t.reduce_size,
            (true, false, false) => t.split_size + t.reduce_size + t.split_m * REP,
            (true, false, true) => t.split_size + 2 * t.reduce_size + t.split_m * REP,
            (true, true, _) => t.split_size + t.reduce_size + t.split_m * unit,
        }
    };
    if work.get_size() < need {
        return Err(err(
            Category::Size,
            format!(
                "sharedTmpBuffer of {} bytes is too small for passes of {} rows of {}: {} bytes needed (GetSoftMaxFlashV2MinTmpSize / SoftMaxFlashV2TilingFunc with this buffer's size)",
                work.get_size() * 4,
                t.split_m,
                t.split_k,
                need * 4
            ),
        ));
    }
    let ctx = Ctx {
        p,
        round: if p == Product::Ascend310P {
            RoundMode::CAST_NONE
        } else {
            RoundMode::CAST_ROUND
        },
        t,
        ori_k,
        ks,
    };
    let io = Io {
        dst: *dst,
        sum: *sum,
        max: *max,
        src: *src,
        exp_max: *exp_max,
        in_sum: *in_sum,
        in_max: *in_max,
    };
    normal()?;
    let basic = if m1 { f.is_basic_block } else { basic };
    if basic {
        if t.split_k % REP != 0
            || t.split_m % TILE != 0
            || t.tail_m != 0
            || t.split_size / REP > 255
        {
            return Err(err(
                Category::Range,
                format!(
                    "isBasicBlock = true needs passes of a multiple of 8 rows of a multiple of 64 elements, at most 255 repeats and no tail rows; the tiling has splitM = {}, splitK = {}, tailM = {}: use IsBasicBlockInSoftMax / SoftMaxFlashV2TilingFunc with isBasicBlock",
                    t.split_m, t.split_k, t.tail_m
                ),
            ));
        }
        if m1 {
            return m1_passes(&ctx, kind, f, &io, rm, &work);
        }
        let b = Basic {
            rep: (t.split_size / REP) as u8,
            rc: t.reduce_size.div_ceil(REP) as u8,
        };
        return match kind {
            Kind::F32 => basic_f32(&ctx, f.is_update, &io.cast(), &work, &b),
            Kind::F16F16 => basic_f16(&ctx, f.is_update, &io.cast(), &work, &b),
            Kind::F16F32 => basic_mixed(&ctx, f.is_update, &io.cast(), &work, &b),
        };
    }
    if m1 {
        return m1_passes(&ctx, kind, f, &io, rm, &work);
    }
    let (io32, io16, iomix) = (
        io.cast::<f32, f32>(),
        io.cast::<f16, f16>(),
        io.cast::<f16, f32>(),
    );
    let pass = |o1: u32, o2: u32, m: u32, split: u32, reduce: u32| -> Result<()> {
        match kind {
            Kind::F32 => pass_f32(&ctx, f.is_update, &io32, &work, o1, o2, m, split, reduce),
            Kind::F16F16 => pass_f16(&ctx, f.is_update, &io16, &work, o1, o2, m, split, reduce),
            Kind::F16F32 => pass_mixed(&ctx, f.is_update, &iomix, &work, o1, o2, m, split, reduce),
        }
    };
    // The device's loop: rangeM passes, then the tail pass when tailM != 0.
    barrier_v()?;
    let (mut o1, mut o2) = (0, 0);
    let (mut m, mut split, mut reduce) = (t.split_m, t.split_size, t.reduce_size);
    let mut i = 0;
    while i <= t.range_m {
        pass(o1, o2, m, split, reduce)?;
        o1 += t.split_size;
        o2 += t.reduce_size;
        if i == t.range_m.wrapping_sub(1) {
            if t.tail_m == 0 {
                break;
            }
            o1 = t.range_m * t.split_size;
            o2 = t.range_m * t.reduce_size;
            (m, split, reduce) = (t.tail_m, t.tail_split_size, t.tail_reduce_size);
            barrier_v()?;
        }
        i += 1;
    }
    Ok(())
}

/// `SoftmaxFlashV2<T, isUpdate, isReuseSource, isBasicBlock, isDataFormatNZ, config>(dst,
/// expSum, max, src, expMax, inExpSum, inMax, [sharedTmpBuffer,] tiling, softmaxShapeInfo)`:
/// per row of the last axis, without `isUpdate`: `max` = the row maximum, `dst` = e^(x − max),
/// `expSum` = Σ dst; with `isUpdate`: `max` = max(row maximum, inMax), `dst` = e^(x − max),
/// `expMax` = e^(inMax − max), `expSum` = Σ dst + expMax · inExpSum. Row values fill one 32-byte
/// block per row (8 floats / 16 halves; with half data and float max/sum, `expMax` holds 16
/// halves per row). `T`: half or float; `S` = `T`, or float with half data. ND layout; A2, A3,
/// 310P, 310B (310B: `S` = `T`; `isBasicBlock` reserved; the `v300` module's order). Temporary space: `GetSoftMaxFlashV2MinTmpSize` bytes at least; `tiling` from
/// `SoftMaxFlashV2TilingFunc` (re-tiled for the buffer when the shape differs and
/// `config.isCheckTiling`). The basic-block float path leaves `src` holding x − max
/// (without `isUpdate`) or `inExpSum` holding expMax · inExpSum (with it), as on the device.
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn softmax_flash_v2<T: Element, S: Element>(
    dst: &LocalTensor<T>,
    exp_sum: &LocalTensor<S>,
    max: &LocalTensor<S>,
    src: &LocalTensor<T>,
    exp_max: &LocalTensor<T>,
    in_exp_sum: &LocalTensor<S>,
    in_max: &LocalTensor<S>,
    tmp: Tmp,
    tiling: &SoftMaxTiling,
    shape: SoftMaxShapeInfo,
    flags: FlashV2Flags,
) -> Result<()> {
    run(API, SourceLoc::caller(), || {
        flash_v2_call(
            dst, exp_sum, max, src, exp_max, in_exp_sum, in_max, tmp, tiling, shape, flags, None,
        )
    })
}

/// The `outReduceMax` form `SoftmaxFlashV2<T, …, config>(dst, outReduceMax, outExpSum, outMax,
/// src, outExpMax, inExpSum, inMax, [sharedTmpBuffer,] tiling, softmaxShapeInfo)`: with
/// `config.mode = SOFTMAX_OUTPUT_WITHOUT_BRC` as [`softmax_flash_v2`] in that mode, plus
/// `outReduceMax` = each row's own maximum (before the `isUpdate` max with `inMax`), one value a
/// row; `tiling` used as given (no re-tiling). With `SOFTMAX_NORMAL` it computes nothing, as on
/// the device. `T` = `S`: half or float; A2/A3.
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn softmax_flash_v2_reduce_max<T: Element>(
    dst: &LocalTensor<T>,
    out_reduce_max: &LocalTensor<T>,
    out_exp_sum: &LocalTensor<T>,
    out_max: &LocalTensor<T>,
    src: &LocalTensor<T>,
    out_exp_max: &LocalTensor<T>,
    in_exp_sum: &LocalTensor<T>,
    in_max: &LocalTensor<T>,
    tmp: Tmp,
    tiling: &SoftMaxTiling,
    shape: SoftMaxShapeInfo,
    flags: FlashV2Flags,
) -> Result<()> {
    run(API, SourceLoc::caller(), || {
        if flags.config.mode != SoftmaxMode::OutputWithoutBrc {
            return Ok(());
        }
        flash_v2_call(
            dst,
            out_exp_sum,
            out_max,
            src,
            out_exp_max,
            in_exp_sum,
            in_max,
            tmp,
            tiling,
            shape,
            flags,
            Some(out_reduce_max),
        )
    })
}
