//! `SoftmaxFlash` (the first flash softmax, deprecated by the vendor for `SoftmaxFlashV2`) on
//! ND data, as the device computes it. Without `isUpdate` it is [`softmax`](super::softmax)
//! (the kernel re-tiles with this API's own formula first). With `isUpdate`, per pass of
//! `tiling.splitM` rows, in float: the row max (`ReduceMaxLastNDImpl`), `x − max`, `Exp`, the
//! row sum (`ReduceSumLastNDImpl`), then per row `newMax = max(inMax, max)`,
//! `sum = e^(inMax − newMax)·inSum + e^(max − newMax)·rowSum`, `expMax = e^(inMax −
//! newMax)·inSum / sum` and `dst = e^(x − max) · e^(max − newMax) / sum`; half data is widened
//! into the temporary buffer and narrowed at the end (`CAST_ROUND` on A2/A3, `CAST_NONE` on
//! 310P). On A2/A3 `isBasicBlock` with `isUpdate` takes the device's basic-block path
//! (`BlockReduce` trees and `Brcb`, whole passes of a multiple of 8 rows of a multiple of 64).

use super::grad::{for_rows, row_sum, Ctx, RowSum};
use super::nd::{softmax_call, Kind as NdKind};
use super::rows::{counter, normal};
use super::tiling::{adjust_basic_block, round_rows, SoftMaxShapeInfo, SoftMaxTiling};
use crate::adv::common::{barrier_v, require, run, sync_event, Tmp, A2_A3_310P};
use crate::api::vec::binary::{add, add_l0, div, div_l0, max, max_l0, mul, mul_l0, sub, sub_l0};
use crate::api::vec::cast::{cast, cast_l0};
use crate::api::vec::copy::{copy, CopyRepeatParams};
use crate::api::vec::duplicate::duplicate_l0;
use crate::api::vec::fill::{brcb, BrcbRepeatParams};
use crate::api::vec::mask::{set_mask_count, set_vector_mask};
use crate::api::vec::unary::{exp, exp_l0};
use crate::chip::Product;
use crate::dtype::{DType, Element};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::numeric::RoundMode;
use crate::{
    block_reduce_max, block_reduce_sum, data_copy, f16, whole_reduce_max, BinaryRepeatParams,
    DataCopyParams, HardEvent, LocalTensor, MaskMode, ReduceOrder, UnaryRepeatParams,
    MASK_PLACEHOLDER,
};

const API: &str = "SoftmaxFlash";
/// Floats of one repeat.
const REP: u32 = 64;
/// Repeats one instruction issues at most.
const MAX_REP: u32 = 255;

// ---------------------------------------------------------------- host helpers

/// Floats one row needs: `32/typeSize + k + 64` without update, `4·32/typeSize + 2k` with it.
fn row_floats(k: u32, type_size: u32, is_update: bool) -> u32 {
    let per_blk = 32 / type_size.max(1);
    if is_update {
        per_blk * 4 + k * 2
    } else {
        per_blk + k + REP
    }
}

/// `GetSoftMaxFlashMaxTmpSize(srcShape, dataTypeSize, isUpdate, isReuseSource)` (A2/A3/310P):
/// bytes for all `m` rows of `k` in one pass.
pub fn softmax_flash_max_tmp_size(m: u32, k: u32, type_size: u32, is_update: bool) -> u32 {
    m * row_floats(k, type_size, is_update) * 4
}

/// `GetSoftMaxFlashMinTmpSize(srcShape, dataTypeSize, isUpdate, isReuseSource)`: bytes for one
/// row per pass.
pub fn softmax_flash_min_tmp_size(k: u32, type_size: u32, is_update: bool) -> u32 {
    row_floats(k, type_size, is_update) * 4
}

/// `SoftMaxFlashTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, tiling, isUpdate)`: rows
/// per pass = the buffer's floats / the row need, in whole 8-row units below the row count,
/// adjusted to basic blocks (0 when not one row fits).
pub fn softmax_flash_tiling(
    m: u32,
    k: u32,
    type_size: u32,
    work_bytes: u32,
    is_update: bool,
) -> SoftMaxTiling {
    let mut base_m = round_rows((work_bytes / 4) / row_floats(k, type_size, is_update), m, 8);
    adjust_basic_block(&mut base_m, m, k);
    SoftMaxTiling::fill(m, k, base_m, 32 / type_size.max(1))
}

/// The kernel's re-tiling (`SoftMaxFlashTilingFunc` of the device) for `work` floats when the
/// call's shape differs from the tiling's; `per_blk` row values per row.
fn kernel_tiling(
    work: u32,
    m: u32,
    k: u32,
    per_blk: u32,
    update: bool,
    basic: bool,
) -> SoftMaxTiling {
    let mut rows = if update {
        work / (per_blk * 4 + k * 2)
    } else {
        work / (per_blk * 2 + k * 2)
    }
    .min(m);
    if basic && rows > 8 && m.is_multiple_of(8) {
        rows = rows / 8 * 8;
        while !m.is_multiple_of(rows) {
            rows -= 8;
        }
    }
    SoftMaxTiling::fill(m, k, rows, per_blk)
}

// ---------------------------------------------------------------- row max and broadcast

fn err(cat: Category, msg: String) -> SimError {
    SimError::new(cat, API, msg)
}

fn bin8() -> BinaryRepeatParams {
    BinaryRepeatParams::new(1, 1, 1, 8, 8, 8)
}

/// `ReduceMaxLastNDImpl`: `dst` = each row's max over its first `ori_k` elements, broadcast over
/// `dst_k`; `tmp` scratch of `dst_m · dst_k` floats.
fn row_max(
    p: Product,
    dst: &LocalTensor<f32>,
    src: &LocalTensor<f32>,
    tmp: &LocalTensor<f32>,
    r: RowSum,
) -> Result<()> {
    let rs = (r.src_k / 8) as i32;
    if p == Product::Ascend310P {
        // WholeReduceMax per 64-element column block ((value, index) pairs, rows dst_k apart).
        let part = |out: &LocalTensor<f32>, rows: u32, lanes: u32, block: u32| {
            for_rows(rows, |row, n| {
                whole_reduce_max(
                    &out.at(row * r.dst_k)?,
                    &src.at(block * REP + row * r.src_k)?,
                    lanes,
                    n as i32,
                    (r.dst_k / 2) as i32,
                    1,
                    rs,
                    ReduceOrder::ORDER_VALUE_INDEX,
                )
            })
        };
        if r.ori_k <= REP {
            part(dst, r.ori_m, r.ori_k, 0)?;
        } else {
            let n = r.dst_m * r.dst_k;
            let blocks = r.ori_k / REP;
            for b in 0..blocks {
                part(tmp, r.src_m, REP, b)?;
                barrier_v()?;
                if b == 0 {
                    data_copy(dst, tmp, n)?;
                } else {
                    max(dst, dst, tmp, n)?;
                }
                barrier_v()?;
            }
            if !r.ori_k.is_multiple_of(REP) {
                part(tmp, r.src_m, r.ori_k % REP, blocks)?;
                barrier_v()?;
                max(dst, dst, tmp, n)?;
            }
        }
        barrier_v()?;
        return super::flash::broadcast_last(p, dst, dst, r.dst_m, r.dst_k, r.dst_k);
    }
    let blocks = r.ori_k / REP;
    let tail = r.ori_k % REP;
    if blocks > 0 {
        // Block 0's 8 partial maxima per row into dst, copied to tmp; each further block's folded.
        counter(r.src_m * REP)?;
        block_reduce_max(dst, src, 1, MASK_PLACEHOLDER, 1, 1, rs)?;
        normal()?;
        barrier_v()?;
        data_copy(tmp, dst, DataCopyParams::new(1, r.src_m as u16, 0, 0))?;
        barrier_v()?;
        set_mask_count()?;
        for i in 1..blocks {
            set_vector_mask::<f32>(MaskMode::COUNTER, (r.src_m * REP) as u64)?;
            block_reduce_max(dst, &src.at(i * REP)?, 1, MASK_PLACEHOLDER, 1, 1, rs)?;
            barrier_v()?;
            set_vector_mask::<f32>(MaskMode::COUNTER, (r.src_m * 8) as u64)?;
            max_l0(tmp, tmp, dst, MASK_PLACEHOLDER, 1, bin8())?;
            barrier_v()?;
        }
        set_vector_mask::<f32>(MaskMode::COUNTER, (r.src_m * 8) as u64)?;
        block_reduce_max(tmp, tmp, 1, MASK_PLACEHOLDER, 1, 1, 8)?;
        normal()?;
    }
    if tail != 0 {
        for_rows(r.src_m, |row, n| {
            whole_reduce_max(
                &dst.at(row)?,
                &src.at(blocks * REP + row * r.src_k)?,
                tail,
                n as i32,
                1,
                1,
                rs,
                ReduceOrder::ORDER_ONLY_VALUE,
            )
        })?;
        barrier_v()?;
        if blocks == 0 {
            data_copy(tmp, dst, DataCopyParams::new(1, r.src_m as u16, 0, 0))?;
        } else {
            counter(r.src_m * 8)?;
            max_l0(tmp, tmp, dst, MASK_PLACEHOLDER, 1, bin8())?;
            normal()?;
        }
    }
    barrier_v()?;
    // SingleBlockBroadCastImpl: Brcb for whole groups of 8 rows, Duplicate for the rest.
    let (range, rest) = (r.ori_m / 8, r.ori_m % 8);
    if range != 0 {
        if r.dst_k == 16 {
            brcb(dst, tmp, range as u8, BrcbRepeatParams::new(2, 16))?;
            brcb(&dst.at(8)?, tmp, range as u8, BrcbRepeatParams::new(2, 16))?;
        } else {
            brcb(dst, tmp, range as u8, BrcbRepeatParams::new(1, 8))?;
        }
    }
    if rest != 0 {
        sync_event(API, HardEvent::V_S)?;
        let values = (0..rest)
            .map(|j| tmp.get_value(range * 8 + j))
            .collect::<Result<Vec<f32>>>()?;
        sync_event(API, HardEvent::S_V)?;
        for (j, v) in values.into_iter().enumerate() {
            let row = range * 8 + j as u32;
            duplicate_l0(&dst.at(row * r.dst_k)?, v, r.dst_k, 1, 1, 8)?;
        }
    }
    Ok(())
}

// ---------------------------------------------------------------- the update passes (ND)

/// What every pass needs.
struct Ctx1 {
    p: Product,
    /// float → half narrowing (`FLOAT2HALF_ROUND_MODE`).
    round: RoundMode,
    t: SoftMaxTiling,
    /// Valid elements of a row.
    ori_k: u32,
}

impl Ctx1 {
    fn grad(&self) -> Ctx {
        Ctx {
            api: API,
            p: self.p,
        }
    }

    /// `ReduceLastND` of `m` rows.
    fn rows(&self, m: u32) -> RowSum {
        RowSum {
            ori_m: m,
            ori_k: self.ori_k,
            src_m: m,
            src_k: self.t.split_k,
            dst_m: m,
            dst_k: self.t.reduce_k,
        }
    }

    /// `BroadCastLastImpl` of `m` row values (`reduceK` apart) over rows of `splitK`.
    fn spread(&self, dst: &LocalTensor<f32>, src: &LocalTensor<f32>, m: u32) -> Result<()> {
        super::flash::broadcast_last(self.p, dst, src, m, self.t.split_k, self.t.reduce_k)
    }
}

/// One pass: element and row-value offsets, rows, elements, row-value elements, and whether
/// it is the tail pass.
#[derive(Clone, Copy)]
struct Pass {
    o1: u32,
    o2: u32,
    m: u32,
    split: u32,
    reduce: u32,
    tail: bool,
}

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

/// Float data: the reductions and broadcasts use the pass's own rows.
fn pass_f32(c: &Ctx1, io: &Io<f32, f32>, w: &LocalTensor<f32>, s: Pass) -> Result<()> {
    let (ss, rr) = (c.t.split_size, c.t.reduce_size);
    let t0 = *w;
    let t1 = w.at(ss)?;
    let t2 = w.at(2 * ss)?;
    let rsum = w.at(2 * ss + rr)?;
    let t4 = w.at(2 * ss + 2 * rr)?;
    let in_sum_tmp = w.at(2 * ss + 3 * rr)?;
    let in_max_tmp = t0;
    let (src, dst) = (io.src.at(s.o1)?, io.dst.at(s.o1)?);
    let (mx, sm, em) = (io.max.at(s.o2)?, io.sum.at(s.o2)?, io.exp_max.at(s.o2)?);
    let (n, rn) = (s.split, s.reduce);
    barrier_v()?;
    row_max(c.p, &t4, &src, &rsum, c.rows(s.m))?;
    barrier_v()?;
    c.spread(&t1, &t4, s.m)?;
    barrier_v()?;
    sub(&t1, &src, &t1, n)?;
    barrier_v()?;
    exp(&t1, &t1, n)?;
    barrier_v()?;
    row_sum(c.grad(), &rsum, &t1, &t2, c.rows(s.m))?;
    barrier_v()?;
    data_copy(&in_max_tmp, &io.in_max.at(s.o2)?, rn)?;
    barrier_v()?;
    max(&t2, &in_max_tmp, &t4, rn)?;
    barrier_v()?;
    data_copy(&mx, &t2, rn)?;
    barrier_v()?;
    sub(&t4, &t4, &t2, rn)?;
    barrier_v()?;
    exp(&t4, &t4, rn)?;
    sub(&in_max_tmp, &in_max_tmp, &t2, rn)?;
    barrier_v()?;
    exp(&in_max_tmp, &in_max_tmp, rn)?;
    data_copy(&in_sum_tmp, &io.in_sum.at(s.o2)?, rn)?;
    barrier_v()?;
    mul(&in_max_tmp, &in_max_tmp, &in_sum_tmp, rn)?;
    mul(&rsum, &t4, &rsum, rn)?;
    barrier_v()?;
    add(&sm, &in_max_tmp, &rsum, rn)?;
    barrier_v()?;
    div(&em, &in_max_tmp, &sm, rn)?;
    if !s.tail {
        barrier_v()?;
        data_copy(&sm, &sm, rn)?;
    }
    div(&t4, &t4, &sm, rn)?;
    barrier_v()?;
    c.spread(&t0, &t4, s.m)?;
    barrier_v()?;
    mul(&dst, &t1, &t0, n)
}

/// Half data with half max/sum (all row values widened; the reductions use the full pass's rows
/// also in the tail pass, as the device does).
fn pass_f16(c: &Ctx1, io: &Io<f16, f16>, w: &LocalTensor<f32>, s: Pass) -> Result<()> {
    let (ss, rr, full) = (c.t.split_size, c.t.reduce_size, c.t.split_m);
    let t0 = *w;
    let t1 = w.at(ss)?;
    let t2 = w.at(2 * ss)?;
    let rsum = w.at(2 * ss + rr)?;
    let t4 = w.at(2 * ss + 2 * rr)?;
    let in_sum_tmp = w.at(2 * ss + 3 * rr)?;
    let in_max_tmp = t0;
    let (n, rn) = (s.split, s.reduce);
    cast(&t0, &io.src.at(s.o1)?, RoundMode::CAST_NONE, n)?;
    barrier_v()?;
    row_max(c.p, &t4, &t0, &rsum, c.rows(full))?;
    barrier_v()?;
    c.spread(&t1, &t4, full)?;
    barrier_v()?;
    sub(&t1, &t0, &t1, n)?;
    barrier_v()?;
    exp(&t1, &t1, n)?;
    barrier_v()?;
    row_sum(c.grad(), &rsum, &t1, &t2, c.rows(full))?;
    barrier_v()?;
    cast(&in_max_tmp, &io.in_max.at(s.o2)?, RoundMode::CAST_NONE, rn)?;
    barrier_v()?;
    max(&t2, &in_max_tmp, &t4, rn)?;
    barrier_v()?;
    cast(&io.max.at(s.o2)?, &t2, c.round, rn)?;
    barrier_v()?;
    sub(&t4, &t4, &t2, rn)?;
    barrier_v()?;
    exp(&t4, &t4, rn)?;
    sub(&in_max_tmp, &in_max_tmp, &t2, rn)?;
    barrier_v()?;
    exp(&in_max_tmp, &in_max_tmp, rn)?;
    cast(&in_sum_tmp, &io.in_sum.at(s.o2)?, RoundMode::CAST_NONE, rn)?;
    barrier_v()?;
    mul(&in_max_tmp, &in_max_tmp, &in_sum_tmp, rn)?;
    mul(&rsum, &t4, &rsum, rn)?;
    barrier_v()?;
    add(&in_sum_tmp, &in_max_tmp, &rsum, rn)?;
    barrier_v()?;
    div(&in_max_tmp, &in_max_tmp, &in_sum_tmp, rn)?;
    barrier_v()?;
    cast(&io.exp_max.at(s.o2)?, &in_max_tmp, c.round, rn)?;
    cast(&io.sum.at(s.o2)?, &in_sum_tmp, c.round, rn)?;
    div(&t4, &t4, &in_sum_tmp, rn)?;
    barrier_v()?;
    c.spread(&t0, &t4, full)?;
    barrier_v()?;
    mul(&t1, &t1, &t0, n)?;
    barrier_v()?;
    cast(&io.dst.at(s.o1)?, &t1, c.round, n)
}

/// Half data with float max/sum (`expMax` holds 16 halves per row).
fn pass_mixed(c: &Ctx1, io: &Io<f16, f32>, w: &LocalTensor<f32>, s: Pass) -> Result<()> {
    let (ss, rr, full) = (c.t.split_size, c.t.reduce_size, c.t.split_m);
    let t0 = *w;
    let t1 = w.at(ss)?;
    let in_max_tmp = w.at(2 * ss)?;
    let rsum = w.at(2 * ss + rr)?;
    let t4 = w.at(2 * ss + 2 * rr)?;
    let in_sum_tmp = w.at(2 * ss + 3 * rr)?;
    let (n, rn) = (s.split, s.reduce);
    let (mx, sm) = (io.max.at(s.o2)?, io.sum.at(s.o2)?);
    cast(&t0, &io.src.at(s.o1)?, RoundMode::CAST_NONE, n)?;
    barrier_v()?;
    row_max(c.p, &t4, &t0, &rsum, c.rows(full))?;
    barrier_v()?;
    c.spread(&t1, &t4, full)?;
    barrier_v()?;
    sub(&t1, &t0, &t1, n)?;
    barrier_v()?;
    exp(&t1, &t1, n)?;
    barrier_v()?;
    row_sum(c.grad(), &rsum, &t1, &in_max_tmp, c.rows(full))?;
    barrier_v()?;
    data_copy(&in_max_tmp, &io.in_max.at(s.o2)?, rn)?;
    barrier_v()?;
    max(&mx, &in_max_tmp, &t4, rn)?;
    barrier_v()?;
    sub(&t4, &t4, &mx, rn)?;
    barrier_v()?;
    exp(&t4, &t4, rn)?;
    sub(&in_max_tmp, &in_max_tmp, &mx, rn)?;
    barrier_v()?;
    exp(&in_max_tmp, &in_max_tmp, rn)?;
    data_copy(&in_sum_tmp, &io.in_sum.at(s.o2)?, rn)?;
    barrier_v()?;
    mul(&in_max_tmp, &in_max_tmp, &in_sum_tmp, rn)?;
    mul(&rsum, &t4, &rsum, rn)?;
    barrier_v()?;
    add(&in_sum_tmp, &in_max_tmp, &rsum, rn)?;
    barrier_v()?;
    div(&in_max_tmp, &in_max_tmp, &in_sum_tmp, rn)?;
    barrier_v()?;
    // expMax: each row's 8 floats spread to 16, then narrowed.
    let em = io.exp_max.at(s.o2 * 2)?;
    let spread16 = |t: &LocalTensor<f32>| {
        super::flash::broadcast_last(c.p, t, &in_max_tmp, c.t.reduce_m, 16, c.t.reduce_k)
    };
    if s.tail {
        spread16(&t0)?;
        barrier_v()?;
        cast(&em, &t0, c.round, rn * 2)?;
        data_copy(&sm, &in_sum_tmp, rn)?;
    } else {
        data_copy(&sm, &in_sum_tmp, rn)?;
        spread16(&t0)?;
        barrier_v()?;
        cast(&em, &t0, c.round, rn * 2)?;
    }
    div(&t4, &t4, &in_sum_tmp, rn)?;
    barrier_v()?;
    c.spread(&t0, &t4, full)?;
    barrier_v()?;
    mul(&t1, &t1, &t0, n)?;
    barrier_v()?;
    cast(&io.dst.at(s.o1)?, &t1, c.round, n)
}

// ---------------------------------------------------------------- the basic-block passes (A2/A3)

/// The shared step of the basic-block passes: `x` (a pass of float rows) → its row max packed
/// into `t3`, broadcast to 8 floats per row at `rmax` (`w8 = 1`) or 16 (`w8 = 2`, two `Brcb`s),
/// `x −= max`, `Exp`, the row sum broadcast likewise into `t1`, and `x /= sum`. Only the
/// float form copies a single 64-element block instead of folding it with the next.
#[allow(clippy::too_many_arguments)]
fn basic_softmax(
    c: &Ctx1,
    x: &LocalTensor<f32>,
    t1: &LocalTensor<f32>,
    rmax: &LocalTensor<f32>,
    t3: &LocalTensor<f32>,
    w8: u8,
    float: bool,
) -> Result<()> {
    let t = &c.t;
    let m = t.split_m as u8;
    let blocks = t.split_k / REP;
    let off = (8 * blocks) as u8;
    let ceil_m = t.split_m.div_ceil(8) as u8;
    let brc = |d: &LocalTensor<f32>| -> Result<()> {
        if w8 == 2 {
            brcb(d, t3, ceil_m, BrcbRepeatParams::new(2, 16))?;
            brcb(&d.at(8)?, t3, ceil_m, BrcbRepeatParams::new(2, 16))
        } else {
            brcb(d, t3, ceil_m, BrcbRepeatParams::new(1, 8))
        }
    };
    let fold = |is_max: bool| -> Result<()> {
        let f = if is_max { max_l0 } else { add_l0 };
        if float && blocks == 1 {
            copy(
                t1,
                x,
                MASK_PLACEHOLDER,
                (t.split_size / REP) as u8,
                CopyRepeatParams::new(1, 1, 8, 8),
            )?;
        } else {
            f(
                t1,
                x,
                &x.at(REP)?,
                MASK_PLACEHOLDER,
                m,
                BinaryRepeatParams::new(1, 1, 1, 8, off, off),
            )?;
            for j in 2..blocks {
                barrier_v()?;
                f(
                    t1,
                    t1,
                    &x.at(REP * j)?,
                    MASK_PLACEHOLDER,
                    m,
                    BinaryRepeatParams::new(1, 1, 1, 8, 8, off),
                )?;
            }
        }
        barrier_v()?;
        if is_max {
            block_reduce_max(t1, t1, m as i32, MASK_PLACEHOLDER, 1, 1, 8)?;
            barrier_v()?;
            block_reduce_max(t3, t1, ceil_m as i32, MASK_PLACEHOLDER, 1, 1, 8)
        } else {
            block_reduce_sum(t1, t1, m as i32, MASK_PLACEHOLDER, 1, 1, 8)?;
            barrier_v()?;
            block_reduce_sum(t3, t1, ceil_m as i32, MASK_PLACEHOLDER, 1, 1, 8)
        }
    };
    fold(true)?;
    barrier_v()?;
    brc(rmax)?;
    barrier_v()?;
    for j in 0..blocks {
        let d = x.at(REP * j)?;
        sub_l0(
            &d,
            &d,
            rmax,
            MASK_PLACEHOLDER,
            m,
            BinaryRepeatParams::new(1, 1, 0, off, off, w8),
        )?;
    }
    barrier_v()?;
    exp_l0(
        x,
        x,
        MASK_PLACEHOLDER,
        (t.split_size / REP) as u8,
        UnaryRepeatParams::new(1, 1, 8, 8),
    )?;
    barrier_v()?;
    fold(false)?;
    barrier_v()?;
    brc(t1)?;
    barrier_v()?;
    for j in 0..blocks {
        let d = x.at(REP * j)?;
        div_l0(
            &d,
            &d,
            t1,
            MASK_PLACEHOLDER,
            m,
            BinaryRepeatParams::new(1, 1, 0, off, off, w8),
        )?;
    }
    barrier_v()
}

/// The basic-block update of the row values (counter mode over `reduceSize`): `rmax`/`rsum`
/// the pass's row max/sum, `imt`/`ist` the widened (or copied) inMax/inSum; writes `new_max`,
/// leaves `expMax` in `imt`, the new sum in `ist` and the row scale in `t3`.
#[allow(clippy::too_many_arguments)]
fn basic_update(
    rc: u8,
    new_max: &LocalTensor<f32>,
    rmax: &LocalTensor<f32>,
    rsum: &LocalTensor<f32>,
    t3: &LocalTensor<f32>,
    imt: &LocalTensor<f32>,
    ist: &LocalTensor<f32>,
    load_sum: &mut dyn FnMut() -> Result<()>,
) -> Result<()> {
    let b = BinaryRepeatParams::default();
    let u = UnaryRepeatParams::new(1, 1, 8, 8);
    sub_l0(t3, rmax, new_max, MASK_PLACEHOLDER, rc, b)?;
    barrier_v()?;
    exp_l0(t3, t3, MASK_PLACEHOLDER, rc, u)?;
    sub_l0(imt, imt, new_max, MASK_PLACEHOLDER, rc, b)?;
    barrier_v()?;
    exp_l0(imt, imt, MASK_PLACEHOLDER, rc, u)?;
    load_sum()?;
    barrier_v()?;
    mul_l0(imt, imt, ist, MASK_PLACEHOLDER, rc, b)?;
    mul_l0(t3, t3, rsum, MASK_PLACEHOLDER, rc, b)?;
    barrier_v()?;
    add_l0(ist, imt, t3, MASK_PLACEHOLDER, rc, b)?;
    barrier_v()?;
    div_l0(imt, imt, ist, MASK_PLACEHOLDER, rc, b)?;
    barrier_v()
}

/// `x[r][j] *= scale[r]` in normal mode (the scale `w8` blocks per row), `reduceM` rows.
fn basic_scale(c: &Ctx1, x: &LocalTensor<f32>, scale: &LocalTensor<f32>, w8: u8) -> Result<()> {
    normal()?;
    let blocks = c.t.split_k / REP;
    let off = (8 * blocks) as u8;
    for j in 0..blocks {
        let d = x.at(REP * j)?;
        mul_l0(
            &d,
            &d,
            scale,
            MASK_PLACEHOLDER,
            c.t.reduce_m as u8,
            BinaryRepeatParams::new(1, 1, 0, off, off, w8),
        )?;
    }
    barrier_v()
}

/// `SoftmaxFlashBasicBlock` (half max/sum), `SoftmaxFlashBasicBlockFloat` and the mixed form.
fn basic(c: &Ctx1, kind: Kind, io: &Io<f32, f32>, w: &LocalTensor<f32>) -> Result<()> {
    let t = &c.t;
    let (ss, rr) = (t.split_size, t.reduce_size);
    let rep = (ss / REP) as u8;
    let rc = rr.div_ceil(REP) as u8;
    let half_split = ss / 2;
    let one = CopyRepeatParams::new(1, 1, 1, 0);
    let widen = UnaryRepeatParams::new(1, 1, 8, 4);
    let narrow = UnaryRepeatParams::new(1, 1, 4, 8);
    for i in 0..t.range_m {
        let (o1, o2) = (i * ss, i * rr);
        normal()?;
        barrier_v()?;
        if kind == Kind::F32 {
            let x = io.src.at(o1)?;
            let (t1, t2, t3) = (*w, w.at(ss)?, w.at(2 * ss)?);
            let (ist, imt) = (w.at(2 * ss + rr)?, w.at(2 * ss + 2 * rr)?);
            let rmax = t2.at(half_split)?;
            basic_softmax(c, &x, &t1, &rmax, &t3, 1, true)?;
            counter(rr)?;
            copy(&imt, &io.in_max.at(o2)?, MASK_PLACEHOLDER, 1, one)?;
            barrier_v()?;
            max_l0(
                &t2,
                &imt,
                &rmax,
                MASK_PLACEHOLDER,
                rc,
                BinaryRepeatParams::default(),
            )?;
            barrier_v()?;
            copy(&io.max.at(o2)?, &t2, MASK_PLACEHOLDER, 1, one)?;
            barrier_v()?;
            basic_update(rc, &t2, &rmax, &t1, &t3, &imt, &ist, &mut || {
                copy(&ist, &io.in_sum.at(o2)?, MASK_PLACEHOLDER, 1, one)
            })?;
            copy(&io.exp_max.at(o2)?, &imt, MASK_PLACEHOLDER, 1, one)?;
            copy(&io.sum.at(o2)?, &ist, MASK_PLACEHOLDER, 1, one)?;
            div_l0(
                &t3,
                &t3,
                &ist,
                MASK_PLACEHOLDER,
                rc,
                BinaryRepeatParams::default(),
            )?;
            barrier_v()?;
            basic_scale(c, &x, &t3, 1)?;
            continue;
        }
        let (t0, t1, t2) = (*w, w.at(ss)?, w.at(2 * ss)?);
        let t3 = w.at(2 * ss + rr)?;
        let (ist, imt) = (w.at(2 * ss + 2 * rr)?, w.at(2 * ss + 3 * rr)?);
        let src: LocalTensor<f16> = io.src.reinterpret_cast::<f16>().at(o1)?;
        cast_l0(
            &t0,
            &src,
            RoundMode::CAST_NONE,
            MASK_PLACEHOLDER,
            rep,
            widen,
        )?;
        barrier_v()?;
        let w8 = if kind == Kind::F16F16 { 2 } else { 1 };
        let rmax = t1.at(half_split)?;
        basic_softmax(c, &t0, &t1, &rmax, &t3, w8, false)?;
        counter(rr)?;
        let b = BinaryRepeatParams::default();
        if kind == Kind::F16F16 {
            let h = |x: &LocalTensor<f32>| x.reinterpret_cast::<f16>();
            cast_l0(
                &imt,
                &h(&io.in_max).at(o2)?,
                RoundMode::CAST_NONE,
                MASK_PLACEHOLDER,
                1,
                UnaryRepeatParams::new(1, 1, 8, 4),
            )?;
            barrier_v()?;
            max_l0(&t2, &imt, &rmax, MASK_PLACEHOLDER, rc, b)?;
            barrier_v()?;
            cast_l0(
                &h(&io.max).at(o2)?,
                &t2,
                c.round,
                MASK_PLACEHOLDER,
                rc,
                narrow,
            )?;
            barrier_v()?;
            basic_update(rc, &t2, &rmax, &t1, &t3, &imt, &ist, &mut || {
                cast_l0(
                    &ist,
                    &h(&io.in_sum).at(o2)?,
                    RoundMode::CAST_NONE,
                    MASK_PLACEHOLDER,
                    rc,
                    widen,
                )
            })?;
            cast_l0(
                &h(&io.exp_max).at(o2)?,
                &imt,
                c.round,
                MASK_PLACEHOLDER,
                rc,
                narrow,
            )?;
            cast_l0(
                &h(&io.sum).at(o2)?,
                &ist,
                c.round,
                MASK_PLACEHOLDER,
                rc,
                narrow,
            )?;
            div_l0(&t3, &t3, &ist, MASK_PLACEHOLDER, rc, b)?;
            barrier_v()?;
            basic_scale(c, &t0, &t3, 2)?;
        } else {
            copy(&imt, &io.in_max.at(o2)?, MASK_PLACEHOLDER, 1, one)?;
            barrier_v()?;
            max_l0(&t2, &imt, &rmax, MASK_PLACEHOLDER, rc, b)?;
            barrier_v()?;
            copy(&io.max.at(o2)?, &t2, MASK_PLACEHOLDER, 1, one)?;
            barrier_v()?;
            basic_update(rc, &t2, &rmax, &t1, &t3, &imt, &ist, &mut || {
                copy(&ist, &io.in_sum.at(o2)?, MASK_PLACEHOLDER, 1, one)
            })?;
            // expMax: each row's 8 floats written twice (16 per row), then narrowed.
            copy(
                &t1,
                &imt,
                MASK_PLACEHOLDER,
                2,
                CopyRepeatParams::new(2, 1, 1, 0),
            )?;
            barrier_v()?;
            set_vector_mask::<f32>(MaskMode::COUNTER, (rr * 2) as u64)?;
            cast_l0(
                &io.exp_max.reinterpret_cast::<f16>().at(o2 * 2)?,
                &t1,
                c.round,
                MASK_PLACEHOLDER,
                rc,
                narrow,
            )?;
            set_vector_mask::<f32>(MaskMode::COUNTER, rr as u64)?;
            copy(&io.sum.at(o2)?, &ist, MASK_PLACEHOLDER, 1, one)?;
            div_l0(&t3, &t3, &ist, MASK_PLACEHOLDER, rc, b)?;
            barrier_v()?;
            basic_scale(c, &t0, &t3, 1)?;
        }
        cast_l0(
            &io.dst.reinterpret_cast::<f16>().at(o1)?,
            &t0,
            c.round,
            MASK_PLACEHOLDER,
            rep,
            narrow,
        )?;
    }
    Ok(())
}

// ---------------------------------------------------------------- the call

/// Data and max/sum types of a call.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    F32,
    F16F16,
    F16F32,
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
fn flash_call<T: Element, S: Element>(
    dst: &LocalTensor<T>,
    sum: &LocalTensor<S>,
    max: &LocalTensor<S>,
    src: &LocalTensor<T>,
    exp_max: &LocalTensor<T>,
    in_sum: &LocalTensor<S>,
    in_max: &LocalTensor<S>,
    tmp: Tmp,
    tiling: &SoftMaxTiling,
    is_update: bool,
    shape: SoftMaxShapeInfo,
    is_basic_block: bool,
) -> Result<()> {
    let p = require(API, A2_A3_310P)?;
    let kind = match (T::DTYPE, S::DTYPE) {
        (DType::Float, DType::Float) => Kind::F32,
        (DType::Half, DType::Half) => Kind::F16F16,
        (DType::Half, DType::Float) => Kind::F16F32,
        (t, s) => {
            return Err(err(
                Category::Type,
                format!("T = {t} with sum/max of {s} is not supported: half or float data, sum/max of the same type or float for half"),
            ))
        }
    };
    let size1 = T::DTYPE.size() as u32;
    let per_blk = if kind == Kind::F16F32 { 8 } else { 32 / size1 };
    let buf = tmp.buffer(API)?;
    let work = buf.reinterpret_cast::<f32>();
    let shape = super::flash::call_shape(src, shape)
        .map_err(|e| SimError::new(e.category, API, e.message.clone()))?;
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
    let t = if shape.src_m != tiling.src_m || shape.src_k != tiling.src_k {
        kernel_tiling(
            work.get_size(),
            shape.src_m,
            shape.src_k,
            per_blk,
            is_update,
            is_basic_block,
        )
    } else {
        *tiling
    };
    if t.split_m == 0 {
        return Err(err(
            Category::Size,
            format!(
                "the temporary buffer of {} bytes holds no pass of one row of {}: size it with GetSoftMaxFlashMinTmpSize (or fill the tiling with SoftMaxFlashTilingFunc)",
                work.get_size() * 4,
                shape.src_k
            ),
        ));
    }
    if !is_update {
        // SoftMaxNDImpl with this tiling (its shape now matches, so SoftMax keeps it).
        let nd_shape = SoftMaxShapeInfo {
            src_m: t.src_m,
            src_k: t.src_k,
            ..shape
        };
        return softmax_call(
            API,
            NdKind::Full { log: false },
            dst,
            Some(sum),
            Some(max),
            src,
            Tmp::Shared(&buf),
            &t,
            nd_shape,
        );
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
    let rows = t.src_m;
    for (name, size, per_row) in [
        ("srcTensor", src.get_size(), t.src_k),
        ("dstTensor", dst.get_size(), t.src_k),
        ("maxTensor", max.get_size(), t.reduce_k),
        ("sumTensor", sum.get_size(), t.reduce_k),
        ("inMaxTensor", in_max.get_size(), t.reduce_k),
        ("inSumTensor", in_sum.get_size(), t.reduce_k),
        (
            "expMaxTensor",
            exp_max.get_size(),
            if kind == Kind::F16F32 { 16 } else { t.reduce_k },
        ),
    ] {
        check_rows(name, size, rows, per_row)?;
    }
    let need = 2 * t.split_size + 4 * t.reduce_size;
    if work.get_size() < need {
        return Err(err(
            Category::Size,
            format!(
                "sharedTmpBuffer of {} bytes is too small for passes of {} rows of {}: {} bytes needed (GetSoftMaxFlashMinTmpSize / SoftMaxFlashTilingFunc with this buffer's size)",
                work.get_size() * 4,
                t.split_m,
                t.split_k,
                need * 4
            ),
        ));
    }
    let ctx = Ctx1 {
        p,
        round: if p == Product::Ascend310P {
            RoundMode::CAST_NONE
        } else {
            RoundMode::CAST_ROUND
        },
        t,
        ori_k,
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
    if is_basic_block && p != Product::Ascend310P {
        if t.split_k % REP != 0
            || t.split_size / REP > MAX_REP
            || t.reduce_size.div_ceil(REP) > MAX_REP
        {
            return Err(err(
                Category::Range,
                format!(
                    "isBasicBlock = true needs passes of rows of a multiple of 64 elements and at most 255 repeats; the tiling has splitM = {}, splitK = {}: use IsBasicBlockInSoftMax / SoftMaxFlashTilingFunc",
                    t.split_m, t.split_k
                ),
            ));
        }
        basic(&ctx, kind, &io.cast(), &work)?;
        if kind == Kind::F32 {
            // The float basic-block path has no tail pass.
            return Ok(());
        }
        barrier_v()?;
        return tail_pass(&ctx, kind, &io, &work);
    }
    for i in 0..t.range_m {
        let s = Pass {
            o1: i * t.split_size,
            o2: i * t.reduce_size,
            m: t.split_m,
            split: t.split_size,
            reduce: t.reduce_size,
            tail: false,
        };
        one_pass(&ctx, kind, &io, &work, s)?;
    }
    barrier_v()?;
    tail_pass(&ctx, kind, &io, &work)
}

fn one_pass<T: Element, S: Element>(
    c: &Ctx1,
    kind: Kind,
    io: &Io<T, S>,
    w: &LocalTensor<f32>,
    s: Pass,
) -> Result<()> {
    match kind {
        Kind::F32 => pass_f32(c, &io.cast(), w, s),
        Kind::F16F16 => pass_f16(c, &io.cast(), w, s),
        Kind::F16F32 => pass_mixed(c, &io.cast(), w, s),
    }
}

fn tail_pass<T: Element, S: Element>(
    c: &Ctx1,
    kind: Kind,
    io: &Io<T, S>,
    w: &LocalTensor<f32>,
) -> Result<()> {
    let t = &c.t;
    if t.tail_m == 0 {
        return Ok(());
    }
    let s = Pass {
        o1: t.range_m * t.split_size,
        o2: t.range_m * t.reduce_size,
        m: t.tail_m,
        split: t.tail_split_size,
        reduce: t.tail_reduce_size,
        tail: true,
    };
    one_pass(c, kind, io, w, s)
}

/// `SoftmaxFlash<T, isReuseSource, isBasicBlock>(dst, sum, max, src, expMax, inSum, inMax,
/// [sharedTmpBuffer,] tiling, isUpdate, softmaxShapeInfo)`: per row of the last axis, without
/// `isUpdate` exactly `SoftMax` (`max` = row max, `sum` = Σ e^(x − max), `dst` = e^(x − max) /
/// sum); with `isUpdate`: `max` = max(row max, inMax), `sum` = e^(inMax − max)·inSum +
/// Σ e^(x − max), `expMax` = e^(inMax − max)·inSum / sum, `dst` = e^(x − max) / sum. Row values
/// fill one 32-byte block per row (8 floats / 16 halves; with half data and float sum/max,
/// `expMax` holds 16 halves per row). `T`: half or float; `S` = `T`, or float with half data.
/// ND layout; A2, A3, 310P. Temporary space: `GetSoftMaxFlashMinTmpSize` bytes at least;
/// `tiling` from `SoftMaxFlashTilingFunc` (re-tiled for the buffer when the shape differs).
/// On the device the half/half update path takes the stack buffer even when a
/// `sharedTmpBuffer` is given; here the given buffer is used (same results). As on the device,
/// the float basic-block update path (A2/A3) writes its result into `src` (not `dst`) and
/// skips the tail rows of a tiling with `tailM != 0`.
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn softmax_flash<T: Element, S: Element>(
    dst: &LocalTensor<T>,
    sum: &LocalTensor<S>,
    max: &LocalTensor<S>,
    src: &LocalTensor<T>,
    exp_max: &LocalTensor<T>,
    in_sum: &LocalTensor<S>,
    in_max: &LocalTensor<S>,
    tmp: Tmp,
    tiling: &SoftMaxTiling,
    is_update: bool,
    shape: SoftMaxShapeInfo,
    is_basic_block: bool,
) -> Result<()> {
    run(API, SourceLoc::caller(), || {
        flash_call(
            dst,
            sum,
            max,
            src,
            exp_max,
            in_sum,
            in_max,
            tmp,
            tiling,
            is_update,
            shape,
            is_basic_block,
        )
    })
}
