//! The Atlas 200I/500 A2 (310B, `__NPU_ARCH__` 3002) paths of `SoftMax`, `SimpleSoftMax`,
//! `SoftmaxFlashV2`, `SoftmaxGrad` and `SoftmaxGradFront` on ND data, as the device computes
//! them: per pass of `tiling.splitM` rows the row max (half data: in half) or sum — one
//! `WholeReduce` per row of at most one repeat, else the row's repeat-wide blocks folded
//! lane-wise into a scratch row (`DataCopy` of block 0, `Max`/`Add` of the others, the tail
//! block under a lane mask) and one `WholeReduce` per row — the row values broadcast into
//! one 32-byte block per row, then `Sub` / `Exp` / `Div` of each row with its row value
//! (column blocks of 8 rows per repeat for rows shorter than 64, else 64-lane column strips
//! of all rows, else row by row). Half data is widened into float (`CAST_NONE`) and the
//! results narrowed with `CAST_ROUND`. No pipe barriers: the vendor's 310B code has none.
//!
//! Two of the vendor's instructions are refused on 310B by the basic API, whose pages list
//! the product as unsupported although the 3002 build implements them: `Brcb` and the UB → UB
//! `DataCopy`. The broadcast of the row values (`Brcb` into scratch, then a `DataCopy` to the
//! rows) is therefore a scalar read of each row value and one `Duplicate` over its row block,
//! and the other UB → UB copies are the vector `Copy` — the same values in the same places.

use super::tiling::SoftMaxTiling;
use crate::adv::common::sync_event;
use crate::api::vec::binary::{add, add_l0, div_l0, max, max_l0, mul, sub, sub_l0};
use crate::api::vec::cast::cast;
use crate::api::vec::copy::{copy, CopyRepeatParams};
use crate::api::vec::duplicate::duplicate;
use crate::api::vec::unary::exp;
use crate::chip::Product;
use crate::dtype::{DType, Element};
use crate::error::{Category, Result, SimError};
use crate::numeric::{Arith, RoundMode};
use crate::{
    f16, whole_reduce_max, whole_reduce_sum, BinaryRepeatParams, HardEvent, LocalTensor, Mask,
    ReduceElement, ReduceOrder,
};

/// A2, A3, 310P and 310B: the pages of SoftMax, SimpleSoftMax, SoftmaxFlashV2, SoftmaxGrad and
/// SoftmaxGradFront.
pub(super) const PRODUCTS: &[Product] = &[
    Product::Ascend910B,
    Product::Ascend910_93,
    Product::Ascend310P,
    Product::Ascend310B,
];

/// Floats of one repeat.
const REP: u32 = 64;
/// Repeats one level-0 instruction issues at most.
const MAX_REP: u32 = 255;
/// Elements a row may span for its repeat stride to fit 8 bits (`255 · 8`).
const MAX_ROW: u32 = 2040;

/// One pass: `m` rows of `k` valid elements stored `ks` apart; row values `rk` apart.
#[derive(Clone, Copy, Debug)]
pub(super) struct Pass {
    pub m: u32,
    pub k: u32,
    pub ks: u32,
    pub rk: u32,
}

/// `v` as the 8-bit field the vendor's code passes it in, or an error naming it.
fn byte(api: &'static str, what: &str, v: u32) -> Result<u8> {
    u8::try_from(v).map_err(|_| {
        SimError::new(
            Category::Range,
            api,
            format!(
                "on Ascend310B {what} = {v} exceeds the 8-bit repeat field the device's implementation passes it in (at most 255): use fewer rows per pass (a smaller sharedTmpBuffer / tiling) or shorter rows"
            ),
        )
    })
}

/// Max or sum.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Op {
    Max,
    Sum,
}

fn fold<T: Arith>(
    op: Op,
    d: &LocalTensor<T>,
    a: &LocalTensor<T>,
    b: &LocalTensor<T>,
    mask: u32,
    rep: u8,
    p: BinaryRepeatParams,
) -> Result<()> {
    match op {
        Op::Max => max_l0(d, a, b, mask, rep, p),
        Op::Sum => add_l0(d, a, b, mask, rep, p),
    }
}

/// `WholeReduceMax` (values only) or `WholeReduceSum` of `m` rows of `mask` lanes, `src_rep`
/// blocks apart, into `dst[0..m]`. The device's register loop takes any row count; the basic
/// API's level-0 form takes 255 repeats, so more rows are issued in groups of 255.
fn whole<T: ReduceElement>(
    op: Op,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    mask: u32,
    m: u32,
    src_rep: u32,
) -> Result<()> {
    let mut row = 0;
    while row < m {
        let n = (m - row).min(MAX_REP);
        let (d, s) = (dst.at(row)?, src.at(row * src_rep * 32 / T::SIZE as u32)?);
        match op {
            Op::Max => whole_reduce_max(
                &d,
                &s,
                mask,
                n as i32,
                1,
                1,
                src_rep as i32,
                ReduceOrder::ORDER_ONLY_VALUE,
            )?,
            Op::Sum => whole_reduce_sum(&d, &s, mask, n as i32, 1, 1, src_rep as i32)?,
        }
        row += n;
    }
    Ok(())
}

/// `ReduceMaxImpl` / `ReduceSumImpl`: `dst[i·rk .. (i+1)·rk]` = the max (sum) of row `i`'s
/// first `k` elements; `tmp` holds `m` repeats of scratch.
fn reduce<T: ReduceElement>(
    api: &'static str,
    op: Op,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: &LocalTensor<T>,
    r: Pass,
) -> Result<()> {
    let lanes = 256 / T::SIZE as u32;
    let blk = 32 / T::SIZE as u32;
    let (split, tail) = (r.k / lanes, r.k % lanes);
    let stride = r.ks / blk;
    if r.k <= lanes {
        whole(op, dst, src, r.k, r.m, stride)?;
        return broadcast(api, dst, r.m, r.rk);
    }
    let m8 = byte(api, "the rows of a pass", r.m)?;
    // The vendor's DataCopy {m, 8, (ks − lanes) / blk, 0}: block 0 of every row.
    copy(
        tmp,
        src,
        lanes,
        m8,
        CopyRepeatParams::new(1, 1, 8, stride as u16),
    )?;
    if r.m > split {
        let s8 = byte(api, "the row stride in 32-byte blocks", stride)?;
        for i in 1..split {
            fold(
                op,
                tmp,
                tmp,
                &src.at(lanes * i)?,
                lanes,
                m8,
                BinaryRepeatParams::new(1, 1, 1, 8, 8, s8),
            )?;
        }
    } else if split > 1 {
        let n = byte(api, "the repeat-wide blocks of a row", split - 1)?;
        for j in 0..r.m {
            let d = tmp.at(j * lanes)?;
            fold(
                op,
                &d,
                &src.at(lanes + j * r.ks)?,
                &d,
                lanes,
                n,
                BinaryRepeatParams::new(1, 1, 1, 0, 8, 0),
            )?;
        }
    }
    if tail != 0 {
        let start = lanes * split;
        if r.ks > MAX_ROW {
            for i in 0..r.m {
                let d = tmp.at(i * lanes)?;
                fold(
                    op,
                    &d,
                    &d,
                    &src.at(start + i * r.ks)?,
                    tail,
                    1,
                    BinaryRepeatParams::new(1, 1, 1, 8, 8, 8),
                )?;
            }
        } else {
            let mut row = 0;
            while row < r.m {
                let n = (r.m - row).min(MAX_REP);
                let d = tmp.at(row * lanes)?;
                fold(
                    op,
                    &d,
                    &d,
                    &src.at(start + row * r.ks)?,
                    tail,
                    n as u8,
                    BinaryRepeatParams::new(1, 1, 1, 8, 8, stride as u8),
                )?;
                row += n;
            }
        }
    }
    whole(op, dst, tmp, lanes, r.m, 8)?;
    broadcast(api, dst, r.m, r.rk)
}

/// `BrcbNDImpl`: the `m` values at `dst[0..m]` each filled over its row's `rk` elements at
/// `dst` (see the module note).
fn broadcast<T: Element>(api: &'static str, dst: &LocalTensor<T>, m: u32, rk: u32) -> Result<()> {
    byte(api, "the Brcb repeats (rows of a pass / 8)", m.div_ceil(8))?;
    sync_event(api, HardEvent::V_S)?;
    let values = (0..m)
        .map(|i| dst.get_value(i))
        .collect::<Result<Vec<T>>>()?;
    for (i, v) in values.into_iter().enumerate() {
        duplicate(&dst.at(i as u32 * rk)?, v, rk)?;
    }
    Ok(())
}

/// The vendor's `DataCopy(dst, src, n)` of `n` floats (whole blocks) as the vector `Copy`.
fn copy_floats(dst: &LocalTensor<f32>, src: &LocalTensor<f32>, n: u32) -> Result<()> {
    let (full, tail) = (n / REP, n % REP);
    let p = CopyRepeatParams::new(1, 1, 8, 8);
    if full > 0 {
        copy(dst, src, REP, full as u8, p)?;
    }
    if tail != 0 {
        copy(&dst.at(full * REP)?, &src.at(full * REP)?, tail, 1, p)?;
    }
    Ok(())
}

/// `SubNDImpl` / `DivNDImpl`: `dst[i][j] = src0[i][j] op rv[i]` over `m` rows of `ks`.
#[allow(clippy::too_many_arguments)]
fn row_op(
    api: &'static str,
    div: bool,
    dst: &LocalTensor<f32>,
    src0: &LocalTensor<f32>,
    rv: &LocalTensor<f32>,
    m: u32,
    ks: u32,
    rk: u32,
) -> Result<()> {
    let f =
        |d: &LocalTensor<f32>, a: &LocalTensor<f32>, b: &LocalTensor<f32>, mask: u32, n: u8, p| {
            if div {
                div_l0(d, a, b, Mask::from(mask), n, p)
            } else {
                sub_l0(d, a, b, Mask::from(mask), n, p)
            }
        };
    let (ds, s1) = ((ks / 8) as u8, (rk / 8) as u8);
    if ks < REP {
        // Column block j of 8 rows per repeat.
        let (rep, tail) = (m / 8, m % 8);
        let p = BinaryRepeatParams::new(ds, ds, s1, ks as u8, ks as u8, rk as u8);
        if rep > 0 {
            let rep = byte(api, "the 8-row repeats of a pass", rep)?;
            for j in 0..ks / 8 {
                f(&dst.at(j * 8)?, &src0.at(j * 8)?, rv, REP, rep, p)?;
            }
        }
        if tail != 0 {
            let (o, ro) = (rep * 8 * ks, rep * 8 * rk);
            for j in 0..ks / 8 {
                f(
                    &dst.at(o + j * 8)?,
                    &src0.at(o + j * 8)?,
                    &rv.at(ro)?,
                    tail * 8,
                    1,
                    p,
                )?;
            }
        }
    } else if ks <= MAX_ROW && m <= MAX_REP {
        // 64-lane column strips of all rows.
        let p = BinaryRepeatParams::new(1, 1, 0, ds, ds, s1);
        let (range, tail) = (ks / REP, ks % REP);
        for i in 0..range {
            f(&dst.at(i * REP)?, &src0.at(i * REP)?, rv, REP, m as u8, p)?;
        }
        if tail != 0 {
            f(
                &dst.at(range * REP)?,
                &src0.at(range * REP)?,
                rv,
                tail,
                m as u8,
                p,
            )?;
        }
    } else {
        let p = BinaryRepeatParams::new(1, 1, 0, 8, 8, 0);
        let (range, tail) = (ks / REP, ks % REP);
        let n = byte(api, "the repeats of a row", range)?;
        for j in 0..m {
            f(
                &dst.at(j * ks)?,
                &src0.at(j * ks)?,
                &rv.at(j * rk)?,
                REP,
                n,
                p,
            )?;
            if tail != 0 {
                let o = j * ks + range * REP;
                f(&dst.at(o)?, &src0.at(o)?, &rv.at(j * rk)?, tail, 1, p)?;
            }
        }
    }
    Ok(())
}

/// The device's pass loop: `rangeM` passes of `splitM` rows, then `tailM` rows;
/// `pass(element offset, row-value offset, rows, elements, row values)`.
fn passes(
    t: &SoftMaxTiling,
    mut pass: impl FnMut(u32, u32, u32, u32, u32) -> Result<()>,
) -> Result<()> {
    for i in 0..t.range_m {
        pass(
            i * t.split_size,
            i * t.reduce_size,
            t.split_m,
            t.split_size,
            t.reduce_size,
        )?;
    }
    if t.tail_m != 0 {
        pass(
            t.range_m * t.split_size,
            t.range_m * t.reduce_size,
            t.tail_m,
            t.tail_split_size,
            t.tail_reduce_size,
        )?;
    }
    Ok(())
}

/// The operands of one call, reinterpreted per data type.
pub(super) struct Io<'a, T: Element> {
    pub dst: &'a LocalTensor<T>,
    pub sum: &'a LocalTensor<T>,
    pub max: &'a LocalTensor<T>,
    pub src: &'a LocalTensor<T>,
}

fn f32s<T: Element>(x: &LocalTensor<T>) -> LocalTensor<f32> {
    x.reinterpret_cast()
}

fn f16s<T: Element>(x: &LocalTensor<T>) -> LocalTensor<f16> {
    x.reinterpret_cast()
}

/// An error unless the buffer holds `need` floats.
fn check_work(
    api: &'static str,
    work: &LocalTensor<f32>,
    t: &SoftMaxTiling,
    need: u32,
) -> Result<()> {
    if work.get_size() < need {
        return Err(SimError::new(
            Category::Size,
            api,
            format!(
                "sharedTmpBuffer of {} bytes is too small for passes of {} rows of {} on Ascend310B: {} bytes needed (size it with the API's GetXxxMinTmpSize and fill the tiling for this buffer)",
                work.get_size() * 4,
                t.split_m,
                t.split_k,
                need * 4
            ),
        ));
    }
    Ok(())
}

/// `SoftMaxGenericNDImpl` over the passes (`flash`: SoftmaxFlashV2 without update, no
/// division) or `SimpleSoftMaxGenericNDImpl` (`simple`: `sum`/`max` are inputs). `T` = the
/// row values' type (half or float); `ori_k` valid elements per row.
#[allow(clippy::too_many_arguments)]
pub(super) fn softmax<T: Element>(
    api: &'static str,
    simple: bool,
    flash: bool,
    io: Io<T>,
    work: &LocalTensor<f32>,
    t: &SoftMaxTiling,
    ori_k: u32,
) -> Result<()> {
    let (ks, rk) = (t.src_k, t.reduce_k);
    let half = T::DTYPE == DType::Half;
    if !half && simple {
        // Float SimpleSoftMax: one pass over all rows.
        let m = t.src_m;
        let (d, s, mx, sm) = (f32s(io.dst), f32s(io.src), f32s(io.max), f32s(io.sum));
        row_op(api, false, &d, &s, &mx, m, ks, rk)?;
        exp(&d, &d, m * t.split_k)?;
        return row_op(api, true, &d, &d, &sm, m, ks, rk);
    }
    let need = if half {
        t.split_size + t.reduce_size + if simple { 0 } else { t.split_m * REP }
    } else {
        t.split_m * REP
    };
    check_work(api, work, t, need)?;
    passes(t, |o1, o2, m, split, red| {
        let r = Pass {
            m,
            k: ori_k,
            ks,
            rk,
        };
        if !half {
            let (d, s) = (f32s(io.dst).at(o1)?, f32s(io.src).at(o1)?);
            let (mx, sm) = (f32s(io.max).at(o2)?, f32s(io.sum).at(o2)?);
            reduce(api, Op::Max, &mx, &s, work, r)?;
            row_op(api, false, &d, &s, &mx, m, ks, rk)?;
            exp(&d, &d, split)?;
            reduce(api, Op::Sum, &sm, &d, work, r)?;
            if !flash {
                row_op(api, true, &d, &d, &sm, m, ks, rk)?;
            }
            return Ok(());
        }
        let (d, s) = (f16s(io.dst).at(o1)?, f16s(io.src).at(o1)?);
        let (mx, sm) = (f16s(io.max).at(o2)?, f16s(io.sum).at(o2)?);
        let x = *work;
        let rows = work.at(t.split_size)?;
        if simple {
            cast(&x, &s, RoundMode::CAST_NONE, split)?;
            cast(&rows, &mx, RoundMode::CAST_NONE, red)?;
            row_op(api, false, &x, &x, &rows, m, ks, rk)?;
            exp(&x, &x, split)?;
            cast(&rows, &sm, RoundMode::CAST_NONE, red)?;
            row_op(api, true, &x, &x, &rows, m, ks, rk)?;
            return cast(&d, &x, RoundMode::CAST_ROUND, split);
        }
        let scratch = work.at(t.split_size + t.reduce_size)?;
        reduce(api, Op::Max, &mx, &s, &f16s(work), r)?;
        cast(&x, &s, RoundMode::CAST_NONE, split)?;
        cast(&rows, &mx, RoundMode::CAST_NONE, red)?;
        row_op(api, false, &x, &x, &rows, m, ks, rk)?;
        exp(&x, &x, split)?;
        reduce(api, Op::Sum, &rows, &x, &scratch, r)?;
        cast(&sm, &rows, RoundMode::CAST_ROUND, red)?;
        if !flash {
            row_op(api, true, &x, &x, &rows, m, ks, rk)?;
        }
        cast(&d, &x, RoundMode::CAST_ROUND, split)
    })
}

/// The extra operands of SoftmaxFlashV2 with `isUpdate`.
pub(super) struct Update<'a, T: Element> {
    pub exp_max: &'a LocalTensor<T>,
    pub in_sum: &'a LocalTensor<T>,
    pub in_max: &'a LocalTensor<T>,
}

/// `SoftmaxFlashV2UpdateImpl` over the passes: the new max = max(row max, inMax), `expMax` =
/// e^(inMax − max), `dst` = e^(x − max), `sum` = Σ dst + expMax · inExpSum.
pub(super) fn flash_update<T: Element>(
    api: &'static str,
    io: Io<T>,
    u: Update<T>,
    work: &LocalTensor<f32>,
    t: &SoftMaxTiling,
    ori_k: u32,
) -> Result<()> {
    let (ks, rk) = (t.src_k, t.reduce_k);
    let half = T::DTYPE == DType::Half;
    let need = if half {
        t.split_size + t.split_m * REP + 2 * t.reduce_size
    } else {
        t.reduce_size + t.split_m * REP
    };
    check_work(api, work, t, need)?;
    passes(t, |o1, o2, m, split, red| {
        let r = Pass {
            m,
            k: ori_k,
            ks,
            rk,
        };
        if !half {
            let (d, s) = (f32s(io.dst).at(o1)?, f32s(io.src).at(o1)?);
            let (mx, sm) = (f32s(io.max).at(o2)?, f32s(io.sum).at(o2)?);
            let (em, isum, imax) = (
                f32s(u.exp_max).at(o2)?,
                f32s(u.in_sum).at(o2)?,
                f32s(u.in_max).at(o2)?,
            );
            let (t0, t1) = (*work, work.at(t.reduce_size)?);
            reduce(api, Op::Max, &t0, &s, &t1, r)?;
            max(&t0, &imax, &t0, red)?;
            sub(&t1, &imax, &t0, red)?;
            exp(&em, &t1, red)?;
            copy_floats(&mx, &t0, red)?;
            row_op(api, false, &d, &s, &mx, m, ks, rk)?;
            exp(&d, &d, split)?;
            reduce(api, Op::Sum, &t0, &d, &t1, r)?;
            mul(&sm, &em, &isum, red)?;
            return add(&sm, &sm, &t0, red);
        }
        let (d, s) = (f16s(io.dst).at(o1)?, f16s(io.src).at(o1)?);
        let (mx, sm) = (f16s(io.max).at(o2)?, f16s(io.sum).at(o2)?);
        let (em, isum, imax) = (
            f16s(u.exp_max).at(o2)?,
            f16s(u.in_sum).at(o2)?,
            f16s(u.in_max).at(o2)?,
        );
        let t0 = *work;
        let t1 = work.at(t.split_size)?;
        let t2 = work.at(t.split_size + t.split_m * REP)?;
        let t3 = work.at(t.split_size + t.split_m * REP + t.reduce_size)?;
        cast(&t0, &s, RoundMode::CAST_NONE, split)?;
        cast(&t3, &imax, RoundMode::CAST_NONE, red)?;
        reduce(api, Op::Max, &t2, &t0, &t1, r)?;
        max(&t2, &t2, &t3, red)?;
        cast(&mx, &t2, RoundMode::CAST_ROUND, red)?;
        sub(&t3, &t3, &t2, red)?;
        exp(&t3, &t3, red)?;
        cast(&em, &t3, RoundMode::CAST_ROUND, red)?;
        row_op(api, false, &t0, &t0, &t2, m, ks, rk)?;
        exp(&t0, &t0, split)?;
        cast(&d, &t0, RoundMode::CAST_ROUND, split)?;
        reduce(api, Op::Sum, &t2, &t0, &t1, r)?;
        cast(&t1, &isum, RoundMode::CAST_NONE, red)?;
        mul(&t1, &t3, &t1, red)?;
        add(&t1, &t1, &t2, red)?;
        cast(&sm, &t1, RoundMode::CAST_ROUND, red)
    })
}

/// `SoftmaxGradFrontGenericNDImpl` (`front`: `dst` = the row sums of grad · src, one block
/// per row) or `SoftMaxGradGenericNDImpl` (`dst` = src · (grad − Σ grad · src)) over the
/// passes.
#[allow(clippy::too_many_arguments)]
pub(super) fn grad<T: Element>(
    api: &'static str,
    front: bool,
    dst: &LocalTensor<T>,
    grad: &LocalTensor<T>,
    src: &LocalTensor<T>,
    work: &LocalTensor<f32>,
    t: &SoftMaxTiling,
    ori_k: u32,
) -> Result<()> {
    let (ks, rk) = (t.src_k, t.reduce_k);
    let half = T::DTYPE == DType::Half;
    let (s3, red) = (3 * t.split_size, t.reduce_size);
    let need = match (half, front) {
        (true, true) => s3 + 2 * red,
        (true, false) => s3 + red + t.split_m * REP,
        (false, true) => t.split_size + t.split_m * REP,
        (false, false) => t.split_size + red + t.split_m * REP,
    };
    check_work(api, work, t, need)?;
    passes(t, |o1, o2, m, split, reduce_n| {
        let r = Pass {
            m,
            k: ori_k,
            ks,
            rk,
        };
        if !half {
            let (s, g) = (f32s(src).at(o1)?, f32s(grad).at(o1)?);
            let prod = *work;
            if front {
                mul(&prod, &s, &g, split)?;
                return reduce(
                    api,
                    Op::Sum,
                    &f32s(dst).at(o2)?,
                    &prod,
                    &work.at(t.split_size)?,
                    r,
                );
            }
            let sums = work.at(t.split_size)?;
            mul(&prod, &s, &g, split)?;
            reduce(api, Op::Sum, &sums, &prod, &work.at(t.split_size + red)?, r)?;
            row_op(api, false, &prod, &g, &sums, m, ks, rk)?;
            return mul(&f32s(dst).at(o1)?, &s, &prod, split);
        }
        let (s, g) = (f16s(src).at(o1)?, f16s(grad).at(o1)?);
        let (sb, gb, db) = (*work, work.at(t.split_size)?, work.at(2 * t.split_size)?);
        cast(&sb, &s, RoundMode::CAST_NONE, split)?;
        cast(&gb, &g, RoundMode::CAST_NONE, split)?;
        mul(&db, &sb, &gb, split)?;
        if front {
            let sums = work.at(s3 + red)?;
            reduce(api, Op::Sum, &sums, &db, &sb, r)?;
            return cast(&f16s(dst).at(o2)?, &sums, RoundMode::CAST_ROUND, reduce_n);
        }
        let sums = work.at(s3)?;
        reduce(api, Op::Sum, &sums, &db, &work.at(s3 + red)?, r)?;
        row_op(api, false, &db, &gb, &sums, m, ks, rk)?;
        mul(&db, &db, &sb, split)?;
        cast(&f16s(dst).at(o1)?, &db, RoundMode::CAST_ROUND, split)
    })
}
