//! `SoftmaxGrad` and `SoftmaxGradFront` (激活函数/SoftMax接口): per row of `x` (the softmax
//! output) and `grad`, `s = Σ grad·x`; SoftmaxGradFront (and SoftmaxGrad with `isFront`) writes
//! `s` repeated over one 32-byte block per row, SoftmaxGrad writes `(grad − s)·x`.
//!
//! As the device does it, per pass of `tiling.splitM` rows. Half data is widened into the
//! temporary buffer (`x`, `grad`, the product: three `splitSize` float areas, then the row
//! sums' scratch and result, 16 floats per row each) and narrowed at the end (`CAST_ROUND` on
//! A2/A3, `CAST_NONE` on 310P); float data uses one `splitSize` area for the product, then the
//! scratch and result rows (8 floats each). The row sum is the device's last-axis reduction:
//! on A2/A3 each 64-element block of a row `BlockReduceSum`med to 8 partial sums that are
//! added up block by block, the row's tail `WholeReduceSum`med and added, a last
//! `BlockReduceSum` per row and a `Brcb` broadcast (scalar `Duplicate`s for the last rows not
//! filling 8); on 310P one `WholeReduceSum` per 64-element block of every row, added up, and
//! a scalar read and `Duplicate` per row. SoftmaxGrad broadcasts the sums over the rows (a
//! counter-mode `Copy` on A2/A3, `Duplicate`s on 310P), then `Sub` and `Mul`.
//! SoftmaxGradFront with `isBasicBlock` (rows a multiple of 8, row length a multiple of 64)
//! folds the 64-element blocks of each row with `Add`, then two `BlockReduceSum`s and `Brcb`
//! (310P: `Duplicate`s under a 8- or 16-lane mask).
//!
//! NZ data (`isDataFormatNZ`): the `k / 16` column blocks of `srcM × 16` elements each; the
//! blocks are multiplied (and widened) block by block in counter mode, added up with the last
//! block under a lane mask of the valid columns, each row's 16 sums folded to one with an
//! `Add` of its two halves and a `BlockReduceSum`, and the row sums broadcast over 16 elements
//! (`Muls` copies and `TransDataTo5HD` when the rows are a multiple of 8, else scalar
//! `Duplicate`s); SoftmaxGrad then subtracts and multiplies block by block.

use super::rows::{counter, normal};
use super::tiling::{SoftMaxShapeInfo, SoftMaxTiling};
use crate::adv::common::{barrier_v, require, run, sync_event, Tmp};
use crate::api::vec::binary::{add, add_l0, mul, mul_l0, sub, sub_l0};
use crate::api::vec::cast::{cast, cast_l0};
use crate::api::vec::copy::{copy, CopyRepeatParams};
use crate::api::vec::duplicate::duplicate_l0;
use crate::api::vec::fill::{brcb, BrcbRepeatParams};
use crate::api::vec::mask::{reset_mask, set_mask_count, set_mask_norm, set_vector_mask};
use crate::api::vec::scalar::muls_l0;
use crate::api::vec::trans_data::{trans_data_to_5hd, TransDataTo5HDParams};
use crate::chip::Product;
use crate::dtype::{DType, Element};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::numeric::RoundMode;
use crate::{
    block_reduce_sum, data_copy, f16, whole_reduce_sum, BinaryRepeatParams, DataCopyParams,
    HardEvent, LocalTensor, MaskMode, UnaryRepeatParams, MASK_PLACEHOLDER,
};

/// Floats of one repeat.
const REP: u32 = 64;
/// Repeats one instruction issues at most.
const MAX_REP: u32 = 255;
/// Columns of one NZ block.
const NZ: u32 = 16;

/// `ReduceLastND`: `ori_m` rows (`src_m` stored) of `ori_k` valid elements `src_k` apart,
/// summed into `dst_m` rows of `dst_k`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RowSum {
    pub(crate) ori_m: u32,
    pub(crate) ori_k: u32,
    pub(crate) src_m: u32,
    pub(crate) src_k: u32,
    pub(crate) dst_m: u32,
    pub(crate) dst_k: u32,
}

/// `BroadCastLastND`: `src_m` row values `src_k` apart spread over `dst_m` rows of `dst_k`.
#[derive(Clone, Copy, Debug)]
struct Spread {
    dst_m: u32,
    dst_k: u32,
    src_m: u32,
    src_k: u32,
}

/// The running call: its API name and product.
#[derive(Clone, Copy)]
pub(crate) struct Ctx {
    pub(crate) api: &'static str,
    pub(crate) p: Product,
}

impl Ctx {
    fn v200(self) -> bool {
        self.p == Product::Ascend310P
    }

    /// The float → half narrowing mode (`FLOAT2HALF_ROUND_MODE`).
    fn narrow(self) -> RoundMode {
        if self.v200() {
            RoundMode::CAST_NONE
        } else {
            RoundMode::CAST_ROUND
        }
    }
}

/// Runs `f(first_row, rows)` over `m` rows in groups of at most 255 repeats.
pub(super) fn for_rows(m: u32, mut f: impl FnMut(u32, u32) -> Result<()>) -> Result<()> {
    let mut row = 0;
    while row < m {
        let n = (m - row).min(MAX_REP);
        f(row, n)?;
        row += n;
    }
    Ok(())
}

const fn bin(blk: u8, rep: u8) -> BinaryRepeatParams {
    BinaryRepeatParams::new(blk, blk, blk, rep, rep, rep)
}

// ------------------------------------------------------------------ the row sum (ND)

/// `ReduceSumLastNDImpl`: `dst` = each row's sum, broadcast over `dst_k`; `tmp` scratch of
/// `dst_m · dst_k` floats.
pub(crate) fn row_sum(
    c: Ctx,
    dst: &LocalTensor<f32>,
    src: &LocalTensor<f32>,
    tmp: &LocalTensor<f32>,
    r: RowSum,
) -> Result<()> {
    if c.v200() {
        row_sum_v200(c, dst, src, tmp, r)
    } else {
        row_sum_v220(c, dst, src, tmp, r)
    }
}

fn row_sum_v220(
    c: Ctx,
    dst: &LocalTensor<f32>,
    src: &LocalTensor<f32>,
    tmp: &LocalTensor<f32>,
    r: RowSum,
) -> Result<()> {
    let blocks = r.ori_k / REP;
    let tail = r.ori_k % REP;
    let rs = (r.src_k / 8) as i32;
    if blocks > 0 {
        // Block 0's 8 partial sums per row into dst, copied to tmp; each further block's added.
        counter(r.src_m * REP)?;
        block_reduce_sum(dst, src, 1, MASK_PLACEHOLDER, 1, 1, rs)?;
        normal()?;
        barrier_v()?;
        data_copy(tmp, dst, DataCopyParams::new(1, r.src_m as u16, 0, 0))?;
        barrier_v()?;
        set_mask_count()?;
        for i in 1..blocks {
            set_vector_mask::<f32>(MaskMode::COUNTER, (r.src_m * REP) as u64)?;
            block_reduce_sum(dst, &src.at(i * REP)?, 1, MASK_PLACEHOLDER, 1, 1, rs)?;
            barrier_v()?;
            set_vector_mask::<f32>(MaskMode::COUNTER, (r.src_m * 8) as u64)?;
            add_l0(tmp, tmp, dst, MASK_PLACEHOLDER, 1, bin(1, 8))?;
            barrier_v()?;
        }
        set_vector_mask::<f32>(MaskMode::COUNTER, (r.src_m * 8) as u64)?;
        block_reduce_sum(tmp, tmp, 1, MASK_PLACEHOLDER, 1, 1, 8)?;
        normal()?;
    }
    if tail != 0 {
        for_rows(r.src_m, |row, n| {
            whole_reduce_sum(
                &dst.at(row)?,
                &src.at(blocks * REP + row * r.src_k)?,
                tail,
                n as i32,
                1,
                1,
                rs,
            )
        })?;
        barrier_v()?;
        if blocks == 0 {
            data_copy(tmp, dst, DataCopyParams::new(1, r.src_m as u16, 0, 0))?;
        } else {
            counter(r.src_m * 8)?;
            add_l0(tmp, tmp, dst, MASK_PLACEHOLDER, 1, bin(1, 8))?;
            normal()?;
        }
    }
    barrier_v()?;
    // SingleBlockBroadCastImpl: Brcb for whole groups of 8 rows, Duplicate for the rest.
    let range = r.ori_m / 8;
    let rest = r.ori_m % 8;
    if range != 0 {
        if r.dst_k == 16 {
            brcb(dst, tmp, range as u8, BrcbRepeatParams::new(2, 16))?;
            brcb(&dst.at(8)?, tmp, range as u8, BrcbRepeatParams::new(2, 16))?;
        } else {
            brcb(dst, tmp, range as u8, BrcbRepeatParams::new(1, 8))?;
        }
    }
    if rest != 0 {
        sync_event(c.api, HardEvent::V_S)?;
        let values = (0..rest)
            .map(|j| tmp.get_value(range * 8 + j))
            .collect::<Result<Vec<f32>>>()?;
        sync_event(c.api, HardEvent::S_V)?;
        for (k, v) in values.into_iter().enumerate() {
            let row = range * 8 + k as u32;
            duplicate_l0(&dst.at(row * r.dst_k)?, v, r.dst_k, 1, 1, 8)?;
        }
    }
    Ok(())
}

fn row_sum_v200(
    c: Ctx,
    dst: &LocalTensor<f32>,
    src: &LocalTensor<f32>,
    tmp: &LocalTensor<f32>,
    r: RowSum,
) -> Result<()> {
    let rs = (r.src_k / 8) as i32;
    // One WholeReduceSum per row over columns [64·block, 64·block + lanes), results dst_k apart.
    let part = |out: &LocalTensor<f32>, lanes: u32, block: u32| {
        for_rows(r.src_m, |row, n| {
            whole_reduce_sum(
                &out.at(row * r.dst_k)?,
                &src.at(block * REP + row * r.src_k)?,
                lanes,
                n as i32,
                r.dst_k as i32,
                1,
                rs,
            )
        })
    };
    if r.ori_k <= REP {
        part(dst, r.ori_k, 0)?;
    } else {
        let n = r.dst_m * r.dst_k;
        let blocks = r.ori_k / REP;
        for b in 0..blocks {
            part(tmp, REP, b)?;
            barrier_v()?;
            if b == 0 {
                data_copy(dst, tmp, n)?;
            } else {
                add(dst, dst, tmp, n)?;
            }
            barrier_v()?;
        }
        if !r.ori_k.is_multiple_of(REP) {
            part(tmp, r.ori_k % REP, blocks)?;
            barrier_v()?;
            add(dst, dst, tmp, n)?;
        }
    }
    barrier_v()?;
    spread(
        c,
        dst,
        dst,
        Spread {
            dst_m: r.dst_m,
            dst_k: r.dst_k,
            src_m: r.dst_m,
            src_k: r.dst_k,
        },
    )
}

/// `BroadCastLastImpl`: row `i`'s value `src[i · src_k]` over `dst[i · dst_k ..][..dst_k]`.
fn spread(c: Ctx, dst: &LocalTensor<f32>, src: &LocalTensor<f32>, b: Spread) -> Result<()> {
    if !c.v200() {
        // Counter-mode Copy: repeat j fills column block j of every row.
        let repeat = b.dst_k / 8;
        let mask = [(b.src_m * 8) as u64, 0];
        let params = CopyRepeatParams::new(repeat as u16, (b.src_k / 8) as u16, 1, 0);
        set_mask_count()?;
        let (range, tail) = (repeat / MAX_REP, repeat % MAX_REP);
        for i in 0..range {
            copy(&dst.at(i * 8 * MAX_REP)?, src, mask, MAX_REP as u8, params)?;
        }
        if tail != 0 {
            copy(&dst.at(range * 8 * MAX_REP)?, src, mask, tail as u8, params)?;
        }
        return normal();
    }
    sync_event(c.api, HardEvent::V_S)?;
    let (groups, rest) = (b.dst_m / 8, b.dst_m % 8);
    let (full, tail) = (b.dst_k / REP, b.dst_k % REP);
    for (g, depth) in (0..groups).map(|g| (g, 8)).chain([(groups, rest)]) {
        let values = (0..depth)
            .map(|j| src.get_value((g * 8 + j) * b.src_k))
            .collect::<Result<Vec<f32>>>()?;
        for j in 0..full {
            for (k, &v) in values.iter().enumerate() {
                let row = g * 8 + k as u32;
                duplicate_l0(&dst.at(j * REP + row * b.dst_k)?, v, REP, 1, 1, 8)?;
            }
        }
        if tail != 0 {
            for (k, &v) in values.iter().enumerate() {
                let row = g * 8 + k as u32;
                duplicate_l0(&dst.at(full * REP + row * b.dst_k)?, v, tail, 1, 1, 8)?;
            }
        }
    }
    Ok(())
}

/// `AlignedBrcbImpl` (310P): the 8 values `src[0..8]` each over `count` elements of `dst`.
fn brcb_by_scalars(dst: &LocalTensor<f32>, src: &LocalTensor<f32>, count: u32) -> Result<()> {
    set_vector_mask::<f32>(MaskMode::NORMAL, count as u64)?;
    let values = (0..8)
        .map(|j| src.get_value(j))
        .collect::<Result<Vec<f32>>>()?;
    for (k, v) in values.into_iter().enumerate() {
        duplicate_l0(&dst.at(k as u32 * count)?, v, MASK_PLACEHOLDER, 1, 1, 8)?;
    }
    Ok(())
}

// ------------------------------------------------------------------ passes

/// One pass: element offset, row-value offset, rows, elements, row-value elements.
#[derive(Clone, Copy)]
struct Pass {
    o1: u32,
    o2: u32,
    m: u32,
    split: u32,
    reduce: u32,
}

fn passes(t: &SoftMaxTiling) -> impl Iterator<Item = (bool, Pass)> + '_ {
    let main = (0..t.range_m).map(|i| {
        (
            false,
            Pass {
                o1: i * t.split_size,
                o2: i * t.reduce_size,
                m: t.split_m,
                split: t.split_size,
                reduce: t.reduce_size,
            },
        )
    });
    let tail = (t.tail_m != 0).then_some((
        true,
        Pass {
            o1: t.range_m * t.split_size,
            o2: t.range_m * t.reduce_size,
            m: t.tail_m,
            split: t.tail_split_size,
            reduce: t.tail_reduce_size,
        },
    ));
    main.chain(tail)
}

/// What one call computes.
#[derive(Clone, Copy)]
struct Job {
    /// Only the row sums (SoftmaxGradFront, or SoftmaxGrad with `isFront`).
    front: bool,
    /// The call is SoftmaxGradFront (its own ND implementation: the mask reset first, and on
    /// float data the product `x · grad`; SoftmaxGrad with `isFront` multiplies `grad · x`).
    front_api: bool,
    /// SoftmaxGradFront's `isBasicBlock`.
    basic: bool,
}

/// The row-sum parameters of a pass of `m` rows.
fn row_param(t: &SoftMaxTiling, m: u32, ori_k: u32, dst_m: u32) -> RowSum {
    RowSum {
        ori_m: m,
        ori_k,
        src_m: m,
        src_k: t.split_k,
        dst_m,
        dst_k: t.reduce_k,
    }
}

/// ND half data.
#[allow(clippy::too_many_arguments)]
fn nd_half(
    c: Ctx,
    job: Job,
    dst: &LocalTensor<f16>,
    grad: &LocalTensor<f16>,
    src: &LocalTensor<f16>,
    work: &LocalTensor<f32>,
    t: &SoftMaxTiling,
    ori_k: u32,
) -> Result<()> {
    let xs = *work;
    let gs = work.at(t.split_size)?;
    let ps = work.at(2 * t.split_size)?;
    let scratch = work.at(3 * t.split_size)?;
    let sums = work.at(3 * t.split_size + t.reduce_size)?;
    if job.front_api {
        set_mask_norm()?;
        reset_mask()?;
    }
    for (is_tail, pass) in passes(t) {
        let Pass {
            o1,
            o2,
            m,
            split,
            reduce,
        } = pass;
        if job.basic && !is_tail {
            front_basic_half(c, dst, grad, src, work, t, o1, o2)?;
            continue;
        }
        cast(&xs, &src.at(o1)?, RoundMode::CAST_NONE, split)?;
        cast(&gs, &grad.at(o1)?, RoundMode::CAST_NONE, split)?;
        barrier_v()?;
        mul(&ps, &xs, &gs, split)?;
        barrier_v()?;
        let dst_m = if is_tail { m } else { t.reduce_m };
        row_sum(c, &sums, &ps, &scratch, row_param(t, m, ori_k, dst_m))?;
        barrier_v()?;
        if job.front {
            cast(&dst.at(o2)?, &sums, c.narrow(), reduce)?;
        } else {
            // The sums are spread over tiling.reduceM rows, also in the tail pass.
            let b = Spread {
                dst_m: t.reduce_m,
                dst_k: t.src_k,
                src_m: t.reduce_m,
                src_k: t.reduce_k,
            };
            spread(c, &ps, &sums, b)?;
            barrier_v()?;
            sub(&ps, &gs, &ps, split)?;
            barrier_v()?;
            mul(&ps, &ps, &xs, split)?;
            barrier_v()?;
            cast(&dst.at(o1)?, &ps, c.narrow(), split)?;
        }
    }
    Ok(())
}

/// SoftmaxGradFront's basic-block pass on half data.
#[allow(clippy::too_many_arguments)]
fn front_basic_half(
    c: Ctx,
    dst: &LocalTensor<f16>,
    grad: &LocalTensor<f16>,
    src: &LocalTensor<f16>,
    work: &LocalTensor<f32>,
    t: &SoftMaxTiling,
    o1: u32,
    o2: u32,
) -> Result<()> {
    let xs = *work;
    let gs = work.at(t.split_size)?;
    let ps = work.at(2 * t.split_size)?;
    let sums = work.at(3 * t.split_size)?;
    let blocks = t.split_k / REP;
    let stride = (blocks * 8) as u8;
    let groups = t.split_m.div_ceil(8) as u8;
    let repeat = (t.split_size / REP) as u8;
    let widen = UnaryRepeatParams::new(1, 1, 8, 4);
    cast_l0(
        &xs,
        &src.at(o1)?,
        RoundMode::CAST_NONE,
        MASK_PLACEHOLDER,
        repeat,
        widen,
    )?;
    cast_l0(
        &gs,
        &grad.at(o1)?,
        RoundMode::CAST_NONE,
        MASK_PLACEHOLDER,
        repeat,
        widen,
    )?;
    barrier_v()?;
    mul_l0(&ps, &xs, &gs, MASK_PLACEHOLDER, repeat, bin(1, 8))?;
    fold_blocks(&ps, blocks, t.split_m as u8, stride)?;
    block_reduce_sum(&sums, &ps, groups as i32, MASK_PLACEHOLDER, 1, 1, 8)?;
    barrier_v()?;
    if c.v200() {
        sync_event(c.api, HardEvent::V_S)?;
        for j in 0..groups as u32 {
            brcb_by_scalars(&ps.at(REP * j * 2)?, &sums.at(8 * j)?, 16)?;
        }
        reset_mask()?;
    } else {
        brcb(&ps, &sums, groups, BrcbRepeatParams::new(2, 16))?;
        brcb(&ps.at(8)?, &sums, groups, BrcbRepeatParams::new(2, 16))?;
    }
    barrier_v()?;
    let narrow = UnaryRepeatParams::new(1, 1, 4, 8);
    let rep = t.reduce_size.div_ceil(REP) as u8;
    cast_l0(&dst.at(o2)?, &ps, c.narrow(), MASK_PLACEHOLDER, rep, narrow)
}

/// The basic-block fold of `m` rows of `blocks` 64-element blocks (`stride` blocks apart) in
/// `x`: blocks 1.. added into block 0, then each row's 64 sums block-reduced to 8 at `x[8i]`.
fn fold_blocks(x: &LocalTensor<f32>, blocks: u32, m: u8, stride: u8) -> Result<()> {
    for j in 1..blocks {
        barrier_v()?;
        add_l0(x, x, &x.at(REP * j)?, MASK_PLACEHOLDER, m, bin(1, stride))?;
    }
    barrier_v()?;
    block_reduce_sum(x, x, m as i32, MASK_PLACEHOLDER, 1, 1, stride as i32)?;
    barrier_v()
}

/// ND float data.
#[allow(clippy::too_many_arguments)]
fn nd_float(
    c: Ctx,
    job: Job,
    dst: &LocalTensor<f32>,
    grad: &LocalTensor<f32>,
    src: &LocalTensor<f32>,
    work: &LocalTensor<f32>,
    t: &SoftMaxTiling,
    ori_k: u32,
) -> Result<()> {
    let ps = *work;
    let scratch = work.at(t.split_size)?;
    let sums = work.at(t.split_size + t.reduce_size)?;
    let (a, b) = if job.front_api {
        (src, grad)
    } else {
        (grad, src)
    };
    if job.front {
        set_mask_norm()?;
        reset_mask()?;
    }
    for (is_tail, pass) in passes(t) {
        let Pass {
            o1, o2, m, split, ..
        } = pass;
        if job.basic && !is_tail {
            barrier_v()?;
            front_basic_float(c, &dst.at(o2)?, &a.at(o1)?, &b.at(o1)?, work, t)?;
            continue;
        }
        mul(&ps, &a.at(o1)?, &b.at(o1)?, split)?;
        barrier_v()?;
        let dst_m = if is_tail { m } else { t.reduce_m };
        let param = row_param(t, m, ori_k, dst_m);
        if job.front {
            row_sum(c, &dst.at(o2)?, &ps, &scratch, param)?;
            barrier_v()?;
            continue;
        }
        row_sum(c, &sums, &ps, &scratch, param)?;
        barrier_v()?;
        let spread_to = Spread {
            dst_m: t.reduce_m,
            dst_k: t.src_k,
            src_m: t.reduce_m,
            src_k: 8,
        };
        spread(c, &ps, &sums, spread_to)?;
        barrier_v()?;
        sub(&ps, &grad.at(o1)?, &ps, split)?;
        barrier_v()?;
        mul(&dst.at(o1)?, &src.at(o1)?, &ps, split)?;
    }
    Ok(())
}

/// SoftmaxGradFront's basic-block pass on float data: `a · b` of `splitM` rows, row sums into
/// `dst` (8 per row).
fn front_basic_float(
    c: Ctx,
    dst: &LocalTensor<f32>,
    a: &LocalTensor<f32>,
    b: &LocalTensor<f32>,
    work: &LocalTensor<f32>,
    t: &SoftMaxTiling,
) -> Result<()> {
    let ps = *work;
    let sums = work.at(t.split_size)?;
    let blocks = t.split_k / REP;
    let stride = (blocks * 8) as u8;
    let groups = t.split_m.div_ceil(8) as u8;
    let repeat = (t.split_size / REP) as u8;
    mul_l0(&ps, a, b, MASK_PLACEHOLDER, repeat, bin(1, 8))?;
    fold_blocks(&ps, blocks, t.split_m as u8, stride)?;
    block_reduce_sum(&sums, &ps, groups as i32, MASK_PLACEHOLDER, 1, 1, 8)?;
    barrier_v()?;
    if c.v200() {
        sync_event(c.api, HardEvent::V_S)?;
        for j in 0..groups as u32 {
            brcb_by_scalars(&dst.at(REP * j)?, &sums.at(8 * j)?, 8)?;
        }
        reset_mask()
    } else {
        brcb(dst, &sums, groups, BrcbRepeatParams::new(1, 8))
    }
}

// ------------------------------------------------------------------ NZ

/// `CreateSpecialFormatMask`: the low `len` lanes of each of `blocks` 16-lane groups.
pub(crate) fn nz_lane_mask(len: u32, blocks: u32) -> u64 {
    let one = 0xFFFFu64 >> (NZ - len);
    (0..blocks).fold(0, |m, _| (m << NZ) | one)
}

/// `BinaryComputeWithSpecialMask` with `Add`: `count` elements under the 16-lane-group mask
/// `mask`; the last partial repeat under the mask of `last` lanes per group.
fn add_masked(
    dst: &LocalTensor<f32>,
    a: &LocalTensor<f32>,
    b: &LocalTensor<f32>,
    mask: u64,
    last: u32,
    count: u32,
) -> Result<()> {
    let (repeat, tail) = (count / REP, count % REP);
    let chunk = MAX_REP * REP;
    let full = repeat / MAX_REP;
    for i in 0..full {
        let o = i * chunk;
        add_l0(
            &dst.at(o)?,
            &a.at(o)?,
            &b.at(o)?,
            [mask, 0],
            MAX_REP as u8,
            bin(1, 8),
        )?;
    }
    if !repeat.is_multiple_of(MAX_REP) {
        let o = full * chunk;
        let n = (repeat % MAX_REP) as u8;
        add_l0(&dst.at(o)?, &a.at(o)?, &b.at(o)?, [mask, 0], n, bin(1, 8))?;
    }
    if tail != 0 {
        let o = repeat * REP;
        let m = nz_lane_mask(last, tail / NZ);
        add_l0(&dst.at(o)?, &a.at(o)?, &b.at(o)?, [m, 0], 1, bin(1, 8))?;
    }
    Ok(())
}

/// `ReduceSumBlockNZImpl`: each row's 16 values (two blocks) folded to 8 and block-summed; the
/// sums of rows `8q .. 8q + 8` land at `dst[128q ..][..8]`.
fn nz_fold(dst: &LocalTensor<f32>, src: &LocalTensor<f32>, r: RowSum) -> Result<()> {
    counter(r.src_m * 8)?;
    add_l0(
        dst,
        src,
        &src.at(8)?,
        MASK_PLACEHOLDER,
        1,
        BinaryRepeatParams::new(2, 2, 2, 16, 16, 16),
    )?;
    barrier_v()?;
    block_reduce_sum(dst, dst, (r.src_m / 8) as i32, MASK_PLACEHOLDER, 16, 2, 16)?;
    normal()
}

/// The column `Duplicate`s: row `8g + k`'s value (`src[128g + k·step]`) over `dst[128g +
/// 16k ..][..16]`, for `m` rows.
pub(crate) fn nz_columns(
    dst: &LocalTensor<f32>,
    src: &LocalTensor<f32>,
    m: u32,
    step: u32,
) -> Result<()> {
    set_vector_mask::<f32>(MaskMode::NORMAL, NZ as u64)?;
    let (groups, rest) = (m / 8, m % 8);
    for (g, depth) in (0..groups).map(|g| (g, 8)).chain([(groups, rest)]) {
        let base = g * NZ * 8;
        let values = (0..depth)
            .map(|j| src.get_value(base + j * step))
            .collect::<Result<Vec<f32>>>()?;
        for (k, v) in values.into_iter().enumerate() {
            duplicate_l0(&dst.at(base + k as u32 * NZ)?, v, MASK_PLACEHOLDER, 1, 1, 8)?;
        }
    }
    Ok(())
}

/// `BroadCastNZImpl` in place: the sums at `x[128q ..][..8]` copied over the group's 16 blocks
/// (`Muls` by 1), then `TransDataTo5HD` turns each group into 8 rows of 16 equal values.
pub(crate) fn nz_transpose_rows(x: &LocalTensor<f32>, m: u32) -> Result<()> {
    let repeat = (m / 8) as u8;
    for i in 0..repeat as u32 {
        let o = i * 2 * REP;
        muls_l0(
            &x.at(o)?,
            &x.at(o)?,
            1.0,
            MASK_PLACEHOLDER,
            2,
            UnaryRepeatParams::new(1, 0, 8, 0),
        )?;
    }
    barrier_v()?;
    let mut list = [*x; 16];
    for (i, e) in list.iter_mut().enumerate() {
        *e = x.at(i as u32 * 8)?;
    }
    let stride = if repeat > 1 { 16 } else { 0 };
    trans_data_to_5hd(
        &list,
        &list,
        TransDataTo5HDParams::new(false, false, repeat, stride, stride),
    )
}

/// `ReduceSumLastNZImpl`: `dst[16i ..][..16]` = the sum of row `i`'s valid columns of the
/// column blocks in `src` (`dst_m · 16` apart).
pub(crate) fn nz_row_sum(
    c: Ctx,
    dst: &LocalTensor<f32>,
    src: &LocalTensor<f32>,
    mask: u64,
    r: RowSum,
) -> Result<()> {
    let blk_off = r.dst_m * NZ;
    let count = r.ori_m * NZ;
    let blocks = r.src_k / NZ;
    let last = match r.ori_k % NZ {
        0 => NZ,
        l => l,
    };
    if blocks == 1 && last != NZ {
        for_rows(r.src_m, |row, n| {
            whole_reduce_sum(
                &dst.at(row * NZ)?,
                &src.at(row * NZ)?,
                last,
                n as i32,
                NZ as i32,
                1,
                2,
            )
        })?;
        sync_event(c.api, HardEvent::V_S)?;
        nz_columns(dst, dst, r.ori_m, NZ)?;
        return reset_mask();
    }
    if blocks == 1 {
        nz_fold(dst, src, r)?;
    } else {
        counter(count)?;
        muls_l0(
            dst,
            src,
            1.0,
            MASK_PLACEHOLDER,
            1,
            UnaryRepeatParams::new(1, 1, 8, 8),
        )?;
        barrier_v()?;
        for j in 1..blocks - 1 {
            add_l0(
                dst,
                dst,
                &src.at(blk_off * j)?,
                MASK_PLACEHOLDER,
                1,
                bin(1, 8),
            )?;
            barrier_v()?;
        }
        normal()?;
        add_masked(
            dst,
            dst,
            &src.at(blk_off * (blocks - 1))?,
            mask,
            last,
            count,
        )?;
        barrier_v()?;
        nz_fold(dst, dst, r)?;
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

/// NZ data of either type: per pass the column blocks (`tiling.srcM · 16` elements apart in
/// the tensors, `splitM · 16` in the buffer) in counter mode.
#[allow(clippy::too_many_arguments)]
fn nz<T: Element>(
    c: Ctx,
    front: bool,
    dst: &LocalTensor<T>,
    grad: &LocalTensor<T>,
    src: &LocalTensor<T>,
    work: &LocalTensor<f32>,
    t: &SoftMaxTiling,
    ori_k: u32,
) -> Result<()> {
    let last = match t.split_k % NZ {
        0 => NZ,
        l => l,
    };
    let mask = nz_lane_mask(last, REP / NZ);
    // SoftmaxGradFront reduces all srcK columns, SoftmaxGrad the valid ones.
    let reduce_k = if front { t.split_k } else { ori_k };
    let blk_off = t.split_m * NZ;
    let main = (0..t.range_m).map(|i| (i * blk_off, i * t.reduce_size, t.split_m));
    let tail =
        (t.tail_m != 0).then_some((t.range_m * blk_off, t.range_m * t.reduce_size, t.tail_m));
    for (i, (o, o2, m)) in main.chain(tail).enumerate() {
        if i as u32 == t.range_m {
            barrier_v()?;
        }
        let r = RowSum {
            ori_m: m,
            ori_k: reduce_k,
            src_m: t.split_m,
            src_k: t.split_k,
            dst_m: t.split_m,
            dst_k: NZ,
        };
        if T::DTYPE == DType::Half {
            let io = (
                dst.reinterpret_cast::<f16>(),
                grad.reinterpret_cast::<f16>(),
                src.reinterpret_cast::<f16>(),
            );
            nz_half(c, front, io, work, t, (o, o2, m), mask, r)?;
        } else {
            let io = (
                dst.reinterpret_cast::<f32>(),
                grad.reinterpret_cast::<f32>(),
                src.reinterpret_cast::<f32>(),
            );
            nz_float(c, front, io, work, t, (o, o2, m), mask, r)?;
        }
    }
    Ok(())
}

/// The tensors of a call: `(dst, grad, src)`.
type Io<T> = (LocalTensor<T>, LocalTensor<T>, LocalTensor<T>);

/// One NZ pass on half data: element offset `o`, row-value offset `o2`, `m` rows.
#[allow(clippy::too_many_arguments)]
fn nz_half(
    c: Ctx,
    front: bool,
    (dst, grad, src): Io<f16>,
    work: &LocalTensor<f32>,
    t: &SoftMaxTiling,
    (o, o2, m): (u32, u32, u32),
    mask: u64,
    r: RowSum,
) -> Result<()> {
    let blk_off = t.split_m * NZ;
    let col = |j: u32| o + j * t.src_m * NZ;
    // Buffer i's column block j.
    let at = |i: u32, j: u32| work.at(i * t.split_size + blk_off * j);
    let blocks = t.src_k / NZ;
    let count = m * NZ;
    let widen = UnaryRepeatParams::new(1, 1, 8, 4);
    let narrow = UnaryRepeatParams::new(1, 1, 4, 8);
    // x and grad widened into buffers 0 and 1; their product into 0 (front) or 2.
    counter(count)?;
    for j in 0..blocks {
        cast_l0(
            &at(0, j)?,
            &src.at(col(j))?,
            RoundMode::CAST_NONE,
            MASK_PLACEHOLDER,
            1,
            widen,
        )?;
        cast_l0(
            &at(1, j)?,
            &grad.at(col(j))?,
            RoundMode::CAST_NONE,
            MASK_PLACEHOLDER,
            1,
            widen,
        )?;
    }
    barrier_v()?;
    let prod = if front { 0 } else { 2 };
    for j in 0..blocks {
        mul_l0(
            &at(prod, j)?,
            &at(0, j)?,
            &at(1, j)?,
            MASK_PLACEHOLDER,
            1,
            bin(1, 8),
        )?;
    }
    normal()?;
    barrier_v()?;
    let sums = at(prod + 1, 0)?;
    nz_row_sum(c, &sums, &at(prod, 0)?, mask, r)?;
    barrier_v()?;
    counter(count)?;
    if front {
        cast_l0(&dst.at(o2)?, &sums, c.narrow(), MASK_PLACEHOLDER, 1, narrow)?;
        return normal();
    }
    for j in 0..blocks {
        sub_l0(
            &at(1, j)?,
            &at(1, j)?,
            &sums,
            MASK_PLACEHOLDER,
            1,
            bin(1, 8),
        )?;
    }
    barrier_v()?;
    for j in 0..blocks {
        mul_l0(
            &at(2, j)?,
            &at(1, j)?,
            &at(0, j)?,
            MASK_PLACEHOLDER,
            1,
            bin(1, 8),
        )?;
    }
    barrier_v()?;
    for j in 0..blocks {
        cast_l0(
            &dst.at(col(j))?,
            &at(2, j)?,
            c.narrow(),
            MASK_PLACEHOLDER,
            1,
            narrow,
        )?;
    }
    normal()
}

/// One NZ pass on float data (as [`nz_half`]).
#[allow(clippy::too_many_arguments)]
fn nz_float(
    c: Ctx,
    front: bool,
    (dst, grad, src): Io<f32>,
    work: &LocalTensor<f32>,
    t: &SoftMaxTiling,
    (o, o2, m): (u32, u32, u32),
    mask: u64,
    r: RowSum,
) -> Result<()> {
    let blk_off = t.split_m * NZ;
    let col = |j: u32| o + j * t.src_m * NZ;
    let prod = |j: u32| work.at(blk_off * j);
    let sums = work.at(t.split_size)?;
    let blocks = t.src_k / NZ;
    counter(m * NZ)?;
    for j in 0..blocks {
        mul_l0(
            &prod(j)?,
            &src.at(col(j))?,
            &grad.at(col(j))?,
            MASK_PLACEHOLDER,
            1,
            bin(1, 8),
        )?;
    }
    normal()?;
    barrier_v()?;
    nz_row_sum(c, &sums, work, mask, r)?;
    barrier_v()?;
    if front {
        // Rows of 16 sums → rows of 8.
        return data_copy(
            &dst.at(o2)?,
            &sums,
            DataCopyParams::new(r.ori_m as u16, 1, 1, 0),
        );
    }
    counter(m * NZ)?;
    for j in 0..blocks {
        sub_l0(
            &prod(j)?,
            &grad.at(col(j))?,
            &sums,
            MASK_PLACEHOLDER,
            1,
            bin(1, 8),
        )?;
    }
    barrier_v()?;
    for j in 0..blocks {
        mul_l0(
            &dst.at(col(j))?,
            &prod(j)?,
            &src.at(col(j))?,
            MASK_PLACEHOLDER,
            1,
            bin(1, 8),
        )?;
    }
    normal()
}

// ------------------------------------------------------------------ the calls

/// The kernel's `SoftMaxGradTilingFunc` for a call whose shape differs from the tiling's:
/// rows per pass from the buffer's `work` floats (`None` when not one row fits).
fn kernel_tiling(
    work: u32,
    m: u32,
    k: u32,
    per_blk: u32,
    job: Job,
    nz: bool,
) -> Option<SoftMaxTiling> {
    let row = if per_blk != 8 {
        per_blk * 2 + k * 3 + REP
    } else if job.front && !nz {
        per_blk + k + REP
    } else {
        k + per_blk * 2 + REP
    };
    let mut rows = work / row;
    if rows < m && rows > 8 {
        rows = rows / 8 * 8;
    }
    rows = rows.min(m);
    if job.basic && job.front && rows > 8 && m.is_multiple_of(8) {
        rows = rows / 8 * 8;
        while !m.is_multiple_of(rows) {
            rows -= 8;
        }
        while rows * k >= REP * 256 {
            rows /= 2;
        }
    }
    if rows == 0 {
        return None;
    }
    let (range, tail) = (m / rows, m % rows);
    Some(SoftMaxTiling {
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
    })
}

fn size_error(api: &'static str, msg: String) -> SimError {
    SimError::new(Category::Size, api, msg)
}

/// The shared body of SoftmaxGrad and SoftmaxGradFront.
#[allow(clippy::too_many_arguments)]
fn grad_call<T: Element>(
    api: &'static str,
    job: Job,
    dst: &LocalTensor<T>,
    grad: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: Tmp,
    tiling: &SoftMaxTiling,
    shape: SoftMaxShapeInfo,
    is_nz: bool,
) -> Result<()> {
    let p = product_of(api)?;
    if p == Product::Ascend310B && is_nz {
        return Err(SimError::new(
            Category::Unsupported,
            api,
            "isDataFormatNZ = true is not supported on Ascend310B (its page: ND only): use the ND layout",
        ));
    }
    let c = Ctx { api, p };
    // isBasicBlock is reserved for NZ data.
    let job = Job {
        basic: job.basic && !is_nz,
        ..job
    };
    let elem = match T::DTYPE {
        DType::Half => 2,
        DType::Float => 4,
        d => {
            return Err(SimError::new(
                Category::Type,
                api,
                format!("T = {d} is not supported: half or float"),
            ))
        }
    };
    let per_blk = 32 / elem;
    let (m, k, ori_k) = if shape.src_m == 0 || shape.src_k == 0 {
        let info = src.get_shape_info().ok_or_else(|| {
            SimError::new(
                Category::Range,
                api,
                "softmaxShapeInfo is empty and srcTensor has no shape: pass {srcM, srcK, oriSrcM, oriSrcK}",
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
        let ok = if odims.is_empty() {
            k
        } else {
            super::tiling::last_axis(&odims).1
        };
        (m, k, ok)
    } else {
        (shape.src_m, shape.src_k, shape.ori_src_k)
    };
    let ori_k = if ori_k == 0 { k } else { ori_k.min(k) };
    let align = if is_nz { NZ } else { per_blk };
    if !k.is_multiple_of(align) {
        return Err(SimError::new(
            Category::Align,
            api,
            format!(
                "softmaxShapeInfo.srcK = {k} is not a multiple of {align}: {}",
                if is_nz {
                    "NZ data is whole 16-column blocks"
                } else {
                    "a row must be whole 32-byte blocks"
                }
            ),
        ));
    }
    for (name, t) in [("srcTensor", src), ("gradTensor", grad)] {
        if m * k > t.get_size() {
            return Err(size_error(
                api,
                format!(
                    "softmaxShapeInfo {m} x {k} exceeds the {} elements of {name}",
                    t.get_size()
                ),
            ));
        }
    }
    let work = tmp.buffer(api)?.reinterpret_cast::<f32>();
    let t = if k != tiling.src_k || m != tiling.src_m {
        kernel_tiling(work.get_size(), m, k, per_blk, job, is_nz).ok_or_else(|| {
            size_error(
                api,
                format!(
                    "the temporary buffer of {} bytes is too small for one row of {k}: size it with GetSoftMaxGradMinTmpSize",
                    work.get_size() * 4
                ),
            )
        })?
    } else {
        *tiling
    };
    if t.split_m == 0 {
        return Err(SimError::new(
            Category::Range,
            api,
            "tiling.splitM is 0: fill the tiling with SoftMaxGradTilingFunc",
        ));
    }
    // Floats the buffer's areas take: the product (and widened operands) and the row sums.
    let sums = t.split_m * if is_nz { NZ } else { t.reduce_k };
    let need = match (elem, is_nz, job.front) {
        (2, true, true) => 2 * t.split_size + sums,
        (2, _, _) => 3 * t.split_size + 2 * sums,
        (_, true, _) => t.split_size + sums,
        (_, false, true) => t.split_size + sums,
        (_, false, false) => t.split_size + 2 * sums,
    };
    if c.p != Product::Ascend310B && work.get_size() < need {
        return Err(size_error(
            api,
            format!(
                "sharedTmpBuffer of {} bytes is too small for passes of {} rows of {k}: {} bytes needed (GetSoftMaxGradMinTmpSize / SoftMaxGradTilingFunc with this buffer's size)",
                work.get_size() * 4,
                t.split_m,
                need * 4
            ),
        ));
    }
    let rows = t.range_m * t.split_m + t.tail_m;
    let out = if job.front { rows * per_blk } else { rows * k };
    if dst.get_size() < out {
        return Err(size_error(
            api,
            format!(
                "dstTensor holds {} elements, {rows} rows x {} needed",
                dst.get_size(),
                if job.front { per_blk } else { k }
            ),
        ));
    }
    if c.p == Product::Ascend310B {
        // isBasicBlock is reserved on 310B.
        return super::v300::grad(api, job.front, dst, grad, src, &work, &t, ori_k);
    }
    if job.basic
        && t.range_m > 0
        && (!t.split_k.is_multiple_of(REP)
            || !t.split_m.is_multiple_of(8)
            || t.split_size / REP > MAX_REP)
    {
        return Err(SimError::new(
            Category::Range,
            api,
            format!(
                "isBasicBlock needs passes of a multiple of 8 rows of a multiple of 64 elements, at most 255 repeats: splitM = {}, splitK = {} (check with IsBasicBlockInSoftMax)",
                t.split_m, t.split_k
            ),
        ));
    }
    if is_nz {
        return nz(c, job.front, dst, grad, src, &work, &t, ori_k);
    }
    if elem == 2 {
        let h = |x: &LocalTensor<T>| x.reinterpret_cast::<f16>();
        nd_half(c, job, &h(dst), &h(grad), &h(src), &work, &t, ori_k)
    } else {
        let f = |x: &LocalTensor<T>| x.reinterpret_cast::<f32>();
        nd_float(c, job, &f(dst), &f(grad), &f(src), &work, &t, ori_k)
    }
}

/// The product of the running core (A2, A3, 310P or 310B).
fn product_of(api: &'static str) -> Result<Product> {
    require(api, super::v300::PRODUCTS)
}

/// `SoftmaxGrad<T, isReuseSource, isDataFormatNZ>(dst, grad, src, [sharedTmpBuffer,] tiling,
/// isFront, softmaxShapeInfo)`: per row of `m` rows of `k` (the last axis; NZ: `k / 16` column
/// blocks of `m × 16`), `s = Σ grad·src` over the `oriSrcK` valid columns; `dst = (grad − s) ·
/// src` (all `k` columns), or with `is_front` the sums, each repeated over one 32-byte block per
/// row (8 floats / 16 halves). `T`: half or float; A2, A3, 310P. Temporary space:
/// `GetSoftMaxGradMinTmpSize` bytes at least; `tiling` from `SoftMaxGradTilingFunc`
/// (re-tiled for the buffer when the shape differs). `isReuseSource` is reserved.
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn softmax_grad<T: Element>(
    dst: &LocalTensor<T>,
    grad: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: Tmp,
    tiling: &SoftMaxTiling,
    is_front: bool,
    shape: SoftMaxShapeInfo,
    is_data_format_nz: bool,
) -> Result<()> {
    const API: &str = "SoftmaxGrad";
    run(API, SourceLoc::caller(), || {
        let job = Job {
            front: is_front,
            front_api: false,
            basic: false,
        };
        grad_call(
            API,
            job,
            dst,
            grad,
            src,
            tmp,
            tiling,
            shape,
            is_data_format_nz,
        )
    })
}

/// `SoftmaxGradFront<T, isBasicBlock, isDataFormatNZ>(dst, grad, src, [sharedTmpBuffer,]
/// tiling, softmaxShapeInfo)`: per row, `Σ grad·src` repeated over one 32-byte block (8 floats
/// / 16 halves) of `dst`. ND rows sum their `oriSrcK` valid columns, NZ rows all `srcK`.
/// `is_basic_block` (ND; ignored for NZ): passes of a multiple of 8 rows of a multiple of 64
/// elements (`IsBasicBlockInSoftMax`), summed block-wise. Types, products and buffers as
/// [`softmax_grad`] (its `isFront` sizes).
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn softmax_grad_front<T: Element>(
    dst: &LocalTensor<T>,
    grad: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: Tmp,
    tiling: &SoftMaxTiling,
    shape: SoftMaxShapeInfo,
    is_basic_block: bool,
    is_data_format_nz: bool,
) -> Result<()> {
    const API: &str = "SoftmaxGradFront";
    run(API, SourceLoc::caller(), || {
        let job = Job {
            front: true,
            front_api: true,
            basic: is_basic_block,
        };
        grad_call(
            API,
            job,
            dst,
            grad,
            src,
            tmp,
            tiling,
            shape,
            is_data_format_nz,
        )
    })
}
