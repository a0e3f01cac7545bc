//! `SoftmaxFlashV3` (the Softmax PASA step of FlashAttention) on ND half data with float row
//! statistics, A2/A3 only, as the device computes it per pass of `tiling.splitM` rows: the half
//! rows widened into the temporary buffer; the row mean from a block-wise sum (`BlockReduceSum`
//! of the first 512 elements, the further 64-lane blocks folded in, then 64 → 8 local sums ×
//! 1/baseK and 8 → 1 × 1/8); every element shifted by (global − local mean of its eighth) ×
//! α/(1 − α); the row max; the mean/max updates; `Exp`; the row sum; the result narrowed with
//! `CAST_ROUND`. Its host helpers (`GetSoftMaxFlashV3MaxMinTmpSize`, `SoftMaxFlashV3TilingFunc`)
//! are here too.

use super::rows::{counter, normal};
use super::rows::{reduce_rows, row_op, Reduce, RowOp, Rows};
use super::tiling::{last_axis, SoftMaxTiling};
use crate::adv::common::{barrier_v, require, run, Tmp};
use crate::api::vec::binary::{add, add_l0, max as vmax, mul, sub, sub_l0};
use crate::api::vec::cast::cast;
use crate::api::vec::copy::{copy, CopyRepeatParams};
use crate::api::vec::fill::{brcb, BrcbRepeatParams};
use crate::api::vec::mask::{reset_mask, set_mask_count, set_mask_norm, set_vector_mask};
use crate::api::vec::scalar::{muls, muls_l0};
use crate::api::vec::unary::exp;
use crate::chip::Product;
use crate::dtype::{DType, Element};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::numeric::RoundMode;
use crate::{
    block_reduce_sum, f16, BinaryRepeatParams, LocalTensor, MaskMode, UnaryRepeatParams,
    MASK_PLACEHOLDER,
};

const API: &str = "SoftmaxFlashV3";
/// The products SoftmaxFlashV3's page lists (besides Ascend 950).
const PRODUCTS: &[Product] = &[Product::Ascend910B, Product::Ascend910_93];
/// Floats of one repeat.
const REP: u32 = 64;
/// Floats of one 32-byte block: a row's statistic in the float tensors.
const BLK: u32 = 8;
/// The block-reduced head of a row (floats).
const HEAD: u32 = 512;

/// `SoftMaxParams {srcM, srcK, oriSrcM, oriSrcK, loopCnt, splitMeanCnt, alpha}`: the call's
/// rows and (64-aligned, ≥ 512) row length, the same originals, the update's step count, the
/// mean's split (8) and α.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SoftMaxParams {
    pub src_m: u32,
    pub src_k: u32,
    pub ori_src_m: u32,
    pub ori_src_k: u32,
    pub loop_cnt: u32,
    pub split_mean_cnt: u32,
    pub alpha: f32,
}

impl SoftMaxParams {
    /// `m` rows of `k`, `loopCnt` = `loop_cnt`, the split of 8 and `alpha`.
    pub fn new(m: u32, k: u32, loop_cnt: u32, alpha: f32) -> Self {
        SoftMaxParams {
            src_m: m,
            src_k: k,
            ori_src_m: m,
            ori_src_k: k,
            loop_cnt,
            split_mean_cnt: 8,
            alpha,
        }
    }
}

/// The operands of one call (float views of the statistics).
struct Ops {
    dst: LocalTensor<f16>,
    src: LocalTensor<f16>,
    exp_max: LocalTensor<f16>,
    mean: LocalTensor<f32>,
    sum: LocalTensor<f32>,
    max: LocalTensor<f32>,
    in_mean: LocalTensor<f32>,
    in_sum: LocalTensor<f32>,
    in_max: LocalTensor<f32>,
    work: LocalTensor<f32>,
}

fn err(category: Category, msg: String) -> SimError {
    SimError::new(category, API, msg)
}

/// Floats one call's passes use of the buffer: the widened rows, the mean, the 64-float row
/// scratch, the row statistics (4 blocks per row, 5 with update), one broadcast row of `k` —
/// or further, when longer, the local means' scaling, which runs over `splitM · 64` floats.
fn work_floats(t: &SoftMaxTiling, update: bool) -> u32 {
    let stats = if update { 4 } else { 3 };
    let base = t.split_size + t.split_m * REP;
    (base + t.reduce_size * stats + t.split_k).max(base + t.reduce_size + t.split_m * REP)
}

/// The call's checks (the device's kernel checks, and the operand sizes the passes touch).
fn check(o: &Ops, t: &SoftMaxTiling, prm: &SoftMaxParams, update: bool) -> Result<()> {
    let (m, k) = (prm.src_m, prm.src_k);
    if k < HEAD || !k.is_multiple_of(REP) {
        return Err(SimError::range(
            API,
            "params.srcK",
            k,
            "≥ 512 and a multiple of 64",
        ));
    }
    if !m.is_multiple_of(8) || m == 0 {
        return Err(SimError::range(
            API,
            "params.srcM",
            m,
            "a positive multiple of 8",
        ));
    }
    if prm.ori_src_m != m || prm.ori_src_k != k {
        return Err(err(
            Category::Range,
            format!(
                "params.oriSrcM × oriSrcK = {} × {} differs from srcM × srcK = {m} × {k}: SoftmaxFlashV3 takes no padding",
                prm.ori_src_m, prm.ori_src_k
            ),
        ));
    }
    if prm.split_mean_cnt != 8 {
        return Err(SimError::range(
            API,
            "params.splitMeanCnt",
            prm.split_mean_cnt,
            "8 (the only split supported)",
        ));
    }
    if update && prm.loop_cnt == 0 {
        return Err(SimError::range(
            API,
            "params.loopCnt",
            0,
            "≥ 1 with isUpdate = true",
        ));
    }
    if t.split_m == 0 || t.split_k != k || t.src_k != k || t.reduce_k != BLK {
        return Err(err(
            Category::Range,
            format!(
                "tiling (splitM {}, srcK {}, splitK {}, reduceK {}) does not describe rows of {k} halves with float statistics: fill it with SoftMaxFlashV3TilingFunc",
                t.split_m, t.src_k, t.split_k, t.reduce_k
            ),
        ));
    }
    if !update && t.reduce_size > REP {
        return Err(err(
            Category::Range,
            format!(
                "isUpdate = false with tiling.splitM = {}: the device copies a pass's mean with one Copy whose mask is reduceSize = {} lanes, at most 64 (rows past the 8th would not be written); tile with at most 8 rows per pass",
                t.split_m, t.reduce_size
            ),
        ));
    }
    let rows = t.range_m * t.split_m + t.tail_m;
    if rows > m {
        return Err(err(
            Category::Range,
            format!("tiling covers {rows} rows, params.srcM is {m}"),
        ));
    }
    if o.src.get_size() < m * k {
        return Err(err(
            Category::Size,
            format!(
                "params.srcM × srcK = {m} × {k} exceeds the {} elements of srcTensor",
                o.src.get_size()
            ),
        ));
    }
    if o.dst.get_size() != o.src.get_size() {
        return Err(err(
            Category::Size,
            format!(
                "dstTensor holds {} elements, srcTensor {}: they must be equal",
                o.dst.get_size(),
                o.src.get_size()
            ),
        ));
    }
    let mut stats = vec![
        ("meanTensor", &o.mean),
        ("expSumTensor", &o.sum),
        ("maxTensor", &o.max),
    ];
    if update {
        stats.extend([
            ("inMeanTensor", &o.in_mean),
            ("inExpSumTensor", &o.in_sum),
            ("inMaxTensor", &o.in_max),
        ]);
        if o.exp_max.get_size() < rows * 16 {
            return Err(err(
                Category::Size,
                format!(
                    "expMaxTensor holds {} halves, {rows} rows × 16 needed",
                    o.exp_max.get_size()
                ),
            ));
        }
    }
    for (name, s) in stats {
        if s.get_size() < rows * BLK {
            return Err(err(
                Category::Size,
                format!(
                    "{name} holds {} floats, {rows} rows × 8 needed",
                    s.get_size()
                ),
            ));
        }
    }
    let need = work_floats(t, update);
    if o.work.get_size() < need {
        return Err(err(
            Category::Size,
            format!(
                "the temporary buffer of {} bytes is too small for passes of {} rows of {k}: {} bytes needed (GetSoftMaxFlashV3MaxMinTmpSize / SoftMaxFlashV3TilingFunc with this buffer's size)",
                o.work.get_size() * 4,
                t.split_m,
                need * 4
            ),
        ));
    }
    Ok(())
}

/// The buffer's regions for one pass (offsets in floats).
struct Layout {
    /// The widened rows.
    x: LocalTensor<f32>,
    /// The pass's mean (then the update's row sums).
    mean_tmp: LocalTensor<f32>,
    /// The 64-float scratch rows.
    scratch: LocalTensor<f32>,
    /// The local means, then the row max.
    max_tmp: LocalTensor<f32>,
    /// The global sums, the mean shifts, then shiftCurr.
    shift_curr: LocalTensor<f32>,
    /// shiftPrev (update only).
    shift_prev: LocalTensor<f32>,
    /// One broadcast row of the shifts.
    row: LocalTensor<f32>,
}

fn layout(w: &LocalTensor<f32>, t: &SoftMaxTiling, update: bool) -> Result<Layout> {
    let base = t.split_size + t.split_m * REP;
    let stats = if update { 4 } else { 3 };
    Ok(Layout {
        x: *w,
        mean_tmp: w.at(t.split_size)?,
        scratch: w.at(t.split_size + t.reduce_size)?,
        max_tmp: w.at(base + t.reduce_size)?,
        shift_curr: w.at(base + t.reduce_size * 2)?,
        shift_prev: w.at(base + t.reduce_size * 3)?,
        row: w.at(base + t.reduce_size * stats)?,
    })
}

/// The mean shift of one pass (in place on `l.x`, `m` rows of `k`): `mean_tmp` = the row's
/// global mean (per row, over its 8 floats).
fn shift_input(l: &Layout, m: u32, k: u32, rs: u32, alpha: f32) -> Result<()> {
    let base_k = k / 8;
    let (acc, local, global) = (&l.scratch, &l.max_tmp, &l.shift_curr);
    // Each row's 512-float head block-reduced to 64, the further blocks folded lane-wise.
    for i in 0..m {
        block_reduce_sum(
            &acc.at(REP * i)?,
            &l.x.at(i * k)?,
            8,
            MASK_PLACEHOLDER,
            1,
            1,
            8,
        )?;
    }
    let more = (k / REP - 8) as u8;
    if more != 0 {
        barrier_v()?;
        for j in 0..m {
            let d = acc.at(j * REP)?;
            add_l0(
                &d,
                &l.x.at(HEAD + j * k)?,
                &d,
                MASK_PLACEHOLDER,
                more,
                BinaryRepeatParams::new(1, 1, 1, 0, 8, 0),
            )?;
        }
    }
    barrier_v()?;
    // 64 → 8 local sums × 1/baseK (the counter stays at m · 64), 8 → 1 global sums.
    counter(m * REP)?;
    block_reduce_sum(local, acc, 1, MASK_PLACEHOLDER, 1, 1, 8)?;
    barrier_v()?;
    let unary = UnaryRepeatParams::default();
    muls_l0(
        local,
        local,
        1.0f32 / base_k as f32,
        MASK_PLACEHOLDER,
        1,
        unary,
    )?;
    barrier_v()?;
    // The device keeps the counter at m · 64 here, reading past the local means into the
    // sums it writes (a partial overlap the simulator refuses); the m sums used come from the
    // first m · 8 floats, and the further outputs are overwritten below, so m · 8 is the same.
    set_vector_mask::<f32>(MaskMode::COUNTER, (m * BLK) as u64)?;
    block_reduce_sum(global, local, 1, MASK_PLACEHOLDER, 1, 1, 8)?;
    barrier_v()?;
    brcb(
        acc,
        global,
        m.div_ceil(8) as u8,
        BrcbRepeatParams::new(1, 8),
    )?;
    barrier_v()?;
    copy(
        global,
        acc,
        MASK_PLACEHOLDER,
        1,
        CopyRepeatParams::new(1, 1, 8, 8),
    )?;
    barrier_v()?;
    set_vector_mask::<f32>(MaskMode::COUNTER, rs as u64)?;
    muls_l0(
        &l.mean_tmp,
        global,
        1.0f32 / 8.0,
        MASK_PLACEHOLDER,
        1,
        unary,
    )?;
    normal()?;
    barrier_v()?;
    // (global − local mean) × α/(1 − α), broadcast over each eighth of the row and subtracted.
    counter(rs)?;
    let same = BinaryRepeatParams::new(1, 1, 1, 8, 8, 8);
    sub_l0(global, &l.mean_tmp, local, MASK_PLACEHOLDER, 1, same)?;
    barrier_v()?;
    muls_l0(
        global,
        global,
        alpha / (1.0f32 - alpha),
        MASK_PLACEHOLDER,
        1,
        unary,
    )?;
    barrier_v()?;
    for i in 0..m {
        brcb(acc, &global.at(i * 8)?, 1, BrcbRepeatParams::new(1, 8))?;
        barrier_v()?;
        set_vector_mask::<f32>(MaskMode::COUNTER, base_k as u64)?;
        copy(
            &l.row,
            acc,
            MASK_PLACEHOLDER,
            8,
            CopyRepeatParams::new(1, 0, (base_k / 8) as u16, 1),
        )?;
        barrier_v()?;
        set_vector_mask::<f32>(MaskMode::COUNTER, k as u64)?;
        let r = l.x.at(i * k)?;
        sub_l0(&r, &r, &l.row, MASK_PLACEHOLDER, 1, same)?;
        barrier_v()?;
    }
    normal()
}

/// `shift = (a − mean) · α/(1 − α)`, `out = base + shift` over `rs` floats.
#[allow(clippy::too_many_arguments)]
fn shifted(
    out: &LocalTensor<f32>,
    mean: &LocalTensor<f32>,
    a: &LocalTensor<f32>,
    base: &LocalTensor<f32>,
    shift: &LocalTensor<f32>,
    alpha: f32,
    rs: u32,
) -> Result<()> {
    sub(shift, a, mean, rs)?;
    barrier_v()?;
    muls(shift, shift, alpha / (1.0 - alpha), rs)?;
    barrier_v()?;
    add(out, base, shift, rs)
}

/// One pass: `m` rows from row offset `o1` (elements) / `o2` (statistic floats).
#[allow(clippy::too_many_arguments)]
fn pass(
    p: Product,
    o: &Ops,
    t: &SoftMaxTiling,
    prm: &SoftMaxParams,
    update: bool,
    o1: u32,
    o2: u32,
    m: u32,
    split: u32,
    rs: u32,
) -> Result<()> {
    let k = t.split_k;
    let l = layout(&o.work, t, update)?;
    let rows = Rows {
        m,
        k: prm.ori_src_k,
        ks: k,
        rk: t.reduce_k,
    };
    let (mean, max, sum) = (o.mean.at(o2)?, o.max.at(o2)?, o.sum.at(o2)?);
    cast(&l.x, &o.src.at(o1)?, RoundMode::CAST_NONE, split)?;
    barrier_v()?;
    shift_input(&l, m, k, rs, prm.alpha)?;
    barrier_v()?;
    if update {
        // mean = (inMean · (loopCnt − 1) + pass mean) / loopCnt
        let in_mean = o.in_mean.at(o2)?;
        muls(&mean, &in_mean, prm.loop_cnt as f32 - 1.0, rs)?;
        barrier_v()?;
        add(&mean, &mean, &l.mean_tmp, rs)?;
        barrier_v()?;
        muls(&mean, &mean, 1.0f32 / prm.loop_cnt as f32, rs)?;
        barrier_v()?;
    } else {
        copy(&mean, &l.mean_tmp, rs, 1, CopyRepeatParams::new(1, 1, 8, 8))?;
        barrier_v()?;
        reset_mask()?;
    }
    reduce_rows(p, Reduce::Max, &l.max_tmp, &l.x, &l.scratch, rows)?;
    barrier_v()?;
    // shiftCurr = (pass mean − mean) · α/(1 − α); max = row max + shiftCurr
    shifted(
        &max,
        &mean,
        &l.mean_tmp,
        &l.max_tmp,
        &l.shift_curr,
        prm.alpha,
        rs,
    )?;
    barrier_v()?;
    if update {
        let (in_mean, in_max, in_sum) = (o.in_mean.at(o2)?, o.in_max.at(o2)?, o.in_sum.at(o2)?);
        // shiftPrev = (inMean − mean) · α/(1 − α); max = max(max, inMax + shiftPrev)
        shifted(
            &l.max_tmp,
            &mean,
            &in_mean,
            &in_max,
            &l.shift_prev,
            prm.alpha,
            rs,
        )?;
        barrier_v()?;
        vmax(&max, &max, &l.max_tmp, rs)?;
        barrier_v()?;
        // expMax = exp(inMax − max + shiftPrev); sum = expMax · inSum (+ the row sums below)
        sub(&l.max_tmp, &in_max, &max, rs)?;
        barrier_v()?;
        add(&l.max_tmp, &l.shift_prev, &l.max_tmp, rs)?;
        barrier_v()?;
        exp(&l.max_tmp, &l.max_tmp, rs)?;
        barrier_v()?;
        mul(&sum, &l.max_tmp, &in_sum, rs)?;
        barrier_v()?;
    }
    // x − (max − shiftCurr), Exp, narrowed to dst
    sub(&l.shift_curr, &max, &l.shift_curr, rs)?;
    barrier_v()?;
    row_op(
        RowOp::Sub,
        &l.x,
        &l.x,
        &l.shift_curr,
        m,
        t.src_k,
        t.reduce_k,
    )?;
    barrier_v()?;
    exp(&l.x, &l.x, split)?;
    barrier_v()?;
    cast(&o.dst.at(o1)?, &l.x, RoundMode::CAST_ROUND, split)?;
    barrier_v()?;
    if !update {
        return reduce_rows(p, Reduce::Sum, &sum, &l.x, &l.scratch, rows);
    }
    reduce_rows(p, Reduce::Sum, &l.mean_tmp, &l.x, &l.scratch, rows)?;
    barrier_v()?;
    add(&sum, &sum, &l.mean_tmp, rs)?;
    barrier_v()?;
    // expMax's 8 floats per row doubled to 16 (counter-mode Copy, two repeats) and narrowed.
    set_mask_count()?;
    copy(
        &l.x,
        &l.max_tmp,
        [(t.reduce_m * BLK) as u64, 0],
        2,
        CopyRepeatParams::new(2, (t.reduce_k / BLK) as u16, 1, 0),
    )?;
    normal()?;
    barrier_v()?;
    cast(&o.exp_max.at(o2 * 2)?, &l.x, RoundMode::CAST_ROUND, rs * 2)
}

fn flash_v3<T: Element, U: Element>(
    tensors: [&LocalTensor<T>; 3],
    stats: [&LocalTensor<U>; 6],
    tmp: Tmp,
    tiling: &SoftMaxTiling,
    prm: &SoftMaxParams,
    update: bool,
) -> Result<()> {
    let p = require(API, PRODUCTS)?;
    if T::DTYPE != DType::Half || U::DTYPE != DType::Float {
        return Err(err(
            Category::Type,
            format!(
                "T = {}, U = {} is not supported: T half (src, dst, expMax) with U float (mean, sum, max)",
                T::DTYPE,
                U::DTYPE
            ),
        ));
    }
    let [dst, src, exp_max] = tensors.map(|t| t.reinterpret_cast::<f16>());
    let [mean, sum, max, in_mean, in_sum, in_max] = stats.map(|t| t.reinterpret_cast::<f32>());
    let work = tmp.buffer(API)?.reinterpret_cast::<f32>();
    let o = Ops {
        dst,
        src,
        exp_max,
        mean,
        sum,
        max,
        in_mean,
        in_sum,
        in_max,
        work,
    };
    let t = *tiling;
    check(&o, &t, prm, update)?;
    set_mask_norm()?;
    reset_mask()?;
    barrier_v()?;
    for i in 0..t.range_m {
        pass(
            p,
            &o,
            &t,
            prm,
            update,
            i * t.split_size,
            i * t.reduce_size,
            t.split_m,
            t.split_size,
            t.reduce_size,
        )?;
        barrier_v()?;
    }
    if t.tail_m != 0 {
        pass(
            p,
            &o,
            &t,
            prm,
            update,
            t.range_m * t.split_size,
            t.range_m * t.reduce_size,
            t.tail_m,
            t.tail_split_size,
            t.tail_reduce_size,
        )?;
        barrier_v()?;
    }
    Ok(())
}

/// `SoftmaxFlashV3<T, U, isUpdate, isReuseSource, isBasicBlock, isDataFormatNZ, config>(dst,
/// mean, expSum, max, src, expMax, inMean, inExpSum, inMax, [sharedTmpBuffer,] tiling, params)`:
/// per row of `k` (≥ 512, a multiple of 64; rows a multiple of 8) with a = α/(1 − α): each
/// element shifted by (row mean − mean of its eighth of the row) · a; `mean` = the row mean
/// (update: (inMean · (loopCnt − 1) + row mean) / loopCnt); `max` = row max + (row mean − mean)
/// · a (update: the larger of that and inMax + (inMean − mean) · a); `dst` = e^(x − max + (row
/// mean − mean) · a); `expSum` = Σ dst (update: + expMax · inExpSum with expMax = e^(inMax −
/// max + (inMean − mean) · a), written as 16 halves per row). Statistics hold each row's value
/// over one 32-byte block (8 floats). `T` half, `U` float; ND; A2/A3. The sums are the
/// device's: its "eighth" means are block sums of a 512-element head plus 64-lane folds of the
/// rest, not contiguous eighths. Temporary space: `GetSoftMaxFlashV3MaxMinTmpSize`; `tiling`
/// from `SoftMaxFlashV3TilingFunc` (isUpdate = false takes at most 8 rows per pass).
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn softmax_flash_v3<T: Element, U: Element>(
    dst: &LocalTensor<T>,
    mean: &LocalTensor<U>,
    exp_sum: &LocalTensor<U>,
    max: &LocalTensor<U>,
    src: &LocalTensor<T>,
    exp_max: &LocalTensor<T>,
    in_mean: &LocalTensor<U>,
    in_exp_sum: &LocalTensor<U>,
    in_max: &LocalTensor<U>,
    tmp: Tmp,
    tiling: &SoftMaxTiling,
    params: &SoftMaxParams,
    update: bool,
) -> Result<()> {
    run(API, SourceLoc::caller(), || {
        flash_v3(
            [dst, src, exp_max],
            [mean, exp_sum, max, in_mean, in_exp_sum, in_max],
            tmp,
            tiling,
            params,
            update,
        )
    })
}

/// Floats one row needs in the host's formula: 5 statistic blocks, two rows of `k`, 64.
fn row_floats(k: u32) -> u32 {
    BLK * 5 + 2 * k + REP
}

/// `GetSoftMaxFlashV3MaxMinTmpSize(srcShape, dataTypeSize1, dataTypeSize2, maxValue, minValue,
/// isUpdate, isBasicBlock)` on A2/A3: `(max, min)` bytes, min = 4 · (8·5 + 2k + 64) for one row,
/// max = rows × min. Sizes other than half (2) / float (4) give `(0, 0)`.
pub fn softmax_flash_v3_max_min_tmp_size(dims: &[u64], size1: u32, size2: u32) -> (u32, u32) {
    if size1 != 2 || size2 != 4 {
        return (0, 0);
    }
    let (m, k) = last_axis(dims);
    let min = row_floats(k) * 4;
    (m * min, min)
}

/// `SoftMaxFlashV3TilingFunc(srcShape, dataTypeSize1, dataTypeSize2, localWorkSpaceSize, tiling,
/// isUpdate, isBasicBlock)`: rows per pass = the buffer's floats / (8·5 + 2k + 64), at most the
/// rows, rounded down to whole 8-row units below them.
pub fn softmax_flash_v3_tiling(
    dims: &[u64],
    size1: u32,
    size2: u32,
    work_bytes: u32,
) -> SoftMaxTiling {
    if size1 != 2 || size2 != 4 {
        return SoftMaxTiling::default();
    }
    let (m, k) = last_axis(dims);
    let mut base_m = (work_bytes / 4 / row_floats(k)).min(m);
    if base_m < m && base_m > BLK {
        base_m = base_m / BLK * BLK;
    }
    let (range_m, tail) = m
        .checked_div(base_m)
        .map_or((0, 0), |range| (range, m % base_m));
    SoftMaxTiling {
        src_m: m,
        src_k: k,
        src_size: m * k,
        out_max_m: m,
        out_max_k: BLK,
        out_max_size: m * BLK,
        split_m: base_m,
        split_k: k,
        split_size: base_m * k,
        reduce_m: base_m,
        reduce_k: BLK,
        reduce_size: base_m * BLK,
        range_m,
        tail_m: tail,
        tail_split_size: tail * k,
        tail_reduce_size: tail * BLK,
    }
}
