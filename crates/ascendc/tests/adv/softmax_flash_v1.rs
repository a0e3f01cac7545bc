//! SoftmaxFlash (the first version): with isUpdate bit-exact against a host emulation of the
//! device's order (ReduceMaxLastND / ReduceSumLastND or the basic-block fold + BlockReduce
//! trees, Exp in float, the update's Max/Sub/Exp/Mul/Add/Div, the half narrowing with the
//! fp16 saturation mode) for float, half and half-with-float-stats data on random ND shapes
//! (passes, tail passes, padded rows) and basic-block shapes, with edge values, on A2 and
//! 310P; the documented formula against float64, with and without isUpdate; without isUpdate
//! bit-exact against SoftMax; the host helpers' formulas; the checks.

use crate::ub_harness;

use ascendc::adv::activation::softmax::flash_v1::{
    softmax_flash, softmax_flash_max_tmp_size, softmax_flash_min_tmp_size, softmax_flash_tiling,
};
use ascendc::adv::activation::softmax::tiling::softmax_tiling;
use ascendc::adv::activation::softmax::{softmax, SoftMaxShapeInfo};
use ascendc::adv::common::Tmp;
use ascendc::prelude::*;
use ascendc::{f16, Category};
use ub_harness::{error_on, run_p};

/// Deterministic values in [-span, span).
fn values(n: usize, seed: u32, span: f32) -> Vec<f32> {
    let mut s = seed.wrapping_mul(2654435761).wrapping_add(12345);
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            ((s >> 8) as f32 / (1u32 << 24) as f32 * 2.0 - 1.0) * span
        })
        .collect()
}

/// float and half with conversions from and to f32.
trait Num: Element + Copy {
    fn of(v: f32) -> Self;
    fn get(self) -> f32;
}

impl Num for f32 {
    fn of(v: f32) -> Self {
        v
    }
    fn get(self) -> f32 {
        self
    }
}

impl Num for f16 {
    fn of(v: f32) -> Self {
        f16::from_f32(v)
    }
    fn get(self) -> f32 {
        self.to_f32()
    }
}

/// The outputs of one call, as f32: dst, max, sum, expMax, and src after the call.
type Out = (Vec<f32>, Vec<f32>, Vec<f32>, Vec<f32>, Vec<f32>);

/// Runs SoftmaxFlash on `m` rows of `k` with `work` bytes of temporary space (the tiling for
/// it), `isUpdate` with inMax/inSum per row from `in_max`/`in_sum`.
#[allow(clippy::too_many_arguments)]
fn call<T: Num, S: Num>(
    product: &str,
    m: u32,
    k: u32,
    work: u32,
    update: bool,
    basic: bool,
    in_max: &[f32],
    in_sum: &[f32],
) -> Out {
    let x: Vec<T> = values((m * k) as usize, m * 31 + k, 4.0)
        .into_iter()
        .map(T::of)
        .collect();
    let rk = 32 / S::SIZE as u32;
    let ek = if T::SIZE == 2 && S::SIZE == 4 { 16 } else { rk };
    let row = |v: &[f32], w: u32| -> Vec<S> {
        v.iter()
            .flat_map(|&a| std::iter::repeat_n(S::of(a), w as usize))
            .collect()
    };
    let (imx, ism) = (row(in_max, rk), row(in_sum, rk));
    let size = T::SIZE as u32;
    run_p(product, move |ub| {
        let src = ub.from(&x);
        let dst = ub.tensor::<T>(m * k, T::of(0.0));
        let max = ub.tensor::<S>(m * rk, S::of(0.0));
        let sum = ub.tensor::<S>(m * rk, S::of(0.0));
        let exp_max = ub.tensor::<T>(m * ek, T::of(0.0));
        let in_max = ub.from(&imx);
        let in_sum = ub.from(&ism);
        let tmp = ub.tensor::<u8>(work, 0);
        let t = softmax_flash_tiling(
            m,
            k,
            if S::SIZE == 4 && size == 2 { 4 } else { size },
            work,
            update,
        );
        softmax_flash(
            &dst,
            &sum,
            &max,
            &src,
            &exp_max,
            &in_sum,
            &in_max,
            Tmp::Shared(&tmp),
            &t,
            update,
            SoftMaxShapeInfo::default_for(m, k),
            basic,
        )?;
        let f = |v: Vec<T>| v.into_iter().map(Num::get).collect::<Vec<f32>>();
        let g = |v: Vec<S>| v.into_iter().map(Num::get).collect::<Vec<f32>>();
        Ok((
            f(dst.to_vec()?),
            g(max.to_vec()?),
            g(sum.to_vec()?),
            f(exp_max.to_vec()?),
            f(src.to_vec()?),
        ))
    })
}

/// The documented formula in float64 for row `x`: (dst, max, sum, expMax).
fn reference(x: &[f32], in_max: Option<(f64, f64)>) -> (Vec<f64>, f64, f64, f64) {
    let row_max = x.iter().fold(f64::NEG_INFINITY, |a, &b| a.max(b as f64));
    let (mx, prev) = match in_max {
        Some((im, is)) => (row_max.max(im), Some((im, is))),
        None => (row_max, None),
    };
    let e: Vec<f64> = x.iter().map(|&v| (v as f64 - mx).exp()).collect();
    let mut s: f64 = e.iter().sum();
    let mut em = 0.0;
    if let Some((im, is)) = prev {
        let scaled = (im - mx).exp() * is;
        s += scaled;
        em = scaled / s;
    }
    (e.iter().map(|v| v / s).collect(), mx, s, em)
}

/// Checks one call against the reference within `tol` (relative, of the value or 1).
#[allow(clippy::too_many_arguments)]
fn check(
    out: &Out,
    x: &[f32],
    m: u32,
    k: u32,
    rk: u32,
    ek: u32,
    update: bool,
    in_max: &[f32],
    in_sum: &[f32],
    tol: f64,
    in_src: bool,
) {
    let (dst, max, sum, em, src) = out;
    let dst = if in_src { src } else { dst };
    for r in 0..m as usize {
        let row = &x[r * k as usize..(r + 1) * k as usize];
        let prev = update.then(|| (in_max[r] as f64, in_sum[r] as f64));
        let (d, mx, s, e) = reference(row, prev);
        for (j, &v) in d.iter().enumerate() {
            let got = dst[r * k as usize + j] as f64;
            assert!(
                (got - v).abs() <= tol * v.abs().max(1e-3),
                "row {r} col {j}: {got} vs {v}"
            );
        }
        for j in 0..rk as usize {
            let gm = max[r * rk as usize + j] as f64;
            assert!(
                (gm - mx).abs() <= tol * mx.abs().max(1.0),
                "max row {r}: {gm} vs {mx}"
            );
            let gs = sum[r * rk as usize + j] as f64;
            assert!((gs - s).abs() <= tol * s, "sum row {r}: {gs} vs {s}");
        }
        if update {
            for j in 0..ek as usize {
                let ge = em[r * ek as usize + j] as f64;
                assert!(
                    (ge - e).abs() <= tol * e.max(1e-3),
                    "expMax row {r}: {ge} vs {e}"
                );
            }
        }
    }
}

fn cases<T: Num, S: Num>(tol: f64) {
    let rk = 32 / S::SIZE as u32;
    let ek = if T::SIZE == 2 && S::SIZE == 4 { 16 } else { rk };
    for product in ["A2", "310P"] {
        // (m, k, work bytes, basic): one pass, passes with a tail, tails of a row, long rows.
        for &(m, k, work, basic) in &[
            (8u32, 64u32, 16384u32, false),
            (13, 48, 3000, false),
            (10, 80, 2200, false),
            (4, 640, 16384, false),
            (16, 128, 20480, true),
            (16, 128, 9000, true),
        ] {
            for update in [false, true] {
                let xs: Vec<f32> = values((m * k) as usize, m * 31 + k, 4.0)
                    .into_iter()
                    .map(|v| T::get(T::of(v)))
                    .collect();
                let in_max: Vec<f32> = values(m as usize, k, 3.0)
                    .into_iter()
                    .map(|v| S::get(S::of(v)))
                    .collect();
                let in_sum: Vec<f32> = values(m as usize, k + 1, 1.0)
                    .into_iter()
                    .map(|v| S::get(S::of(v.abs() * 20.0 + 1.0)))
                    .collect();
                let out = call::<T, S>(product, m, k, work, update, basic, &in_max, &in_sum);
                // The float basic-block update path (A2/A3) writes into src, without tail rows.
                let in_src = update && basic && product == "A2" && T::SIZE == 4;
                let rows = if in_src {
                    let t = softmax_flash_tiling(m, k, 4, work, true);
                    t.range_m * t.split_m
                } else {
                    m
                };
                check(
                    &out, &xs, rows, k, rk, ek, update, &in_max, &in_sum, tol, in_src,
                );
            }
        }
    }
}

#[test]
fn float_against_float64() {
    cases::<f32, f32>(2e-5);
}

#[test]
fn half_against_float64() {
    cases::<f16, f16>(1.2e-2);
}

#[test]
fn half_with_float_stats_against_float64() {
    cases::<f16, f32>(4e-3);
}

/// Without isUpdate the call is SoftMax with this API's tiling: bit-exact.
#[test]
fn no_update_is_softmax() {
    for product in ["A2", "310P"] {
        let (m, k) = (12u32, 96u32);
        let x = values((m * k) as usize, m * 31 + k, 4.0);
        let ours = call::<f32, f32>(product, m, k, 4096, false, false, &[0.0; 12], &[1.0; 12]);
        let x2 = x.clone();
        let theirs: (Vec<f32>, Vec<f32>) = run_p(product, move |ub| {
            let src = ub.from(&x2);
            let dst = ub.tensor::<f32>(m * k, 0.0);
            let max = ub.tensor::<f32>(m * 8, 0.0);
            let sum = ub.tensor::<f32>(m * 8, 0.0);
            let tmp = ub.tensor::<u8>(4096, 0);
            let t = softmax_flash_tiling(m, k, 4, 4096, false);
            softmax(
                &dst,
                &sum,
                &max,
                &src,
                Tmp::Shared(&tmp),
                &t,
                SoftMaxShapeInfo::default_for(m, k),
            )?;
            Ok((dst.to_vec()?, sum.to_vec()?))
        });
        let _ = x;
        let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&ours.0), bits(&theirs.0), "{product}");
        assert_eq!(bits(&ours.2), bits(&theirs.1), "{product}");
    }
}

/// The update of the page's formula on a worked case: one row [0, ln 3] after inMax = 0,
/// inSum = 2: max = ln 3, sum = 2/3 + 4/3 = 2, expMax = (2/3)/2 = 1/3, dst = [1/6, 1/2].
#[test]
fn worked_update() {
    let l3 = 3f32.ln();
    let out: (Vec<f32>, Vec<f32>, Vec<f32>, Vec<f32>) = run_p("A2", move |ub| {
        let mut row = vec![f32::NEG_INFINITY; 8];
        row[0] = 0.0;
        row[1] = l3;
        let src = ub.from(&row);
        let dst = ub.tensor::<f32>(8, 0.0);
        let st: Vec<LocalTensor<f32>> = (0..3).map(|_| ub.tensor::<f32>(8, 0.0)).collect();
        let in_max = ub.from(&[0.0f32; 8]);
        let in_sum = ub.from(&[2.0f32; 8]);
        let tmp = ub.tensor::<u8>(4096, 0);
        let t = softmax_flash_tiling(1, 8, 4, 4096, true);
        softmax_flash(
            &dst,
            &st[0],
            &st[1],
            &src,
            &st[2],
            &in_sum,
            &in_max,
            Tmp::Shared(&tmp),
            &t,
            true,
            SoftMaxShapeInfo::default_for(1, 8),
            false,
        )?;
        Ok((
            dst.to_vec()?,
            st[1].to_vec()?,
            st[0].to_vec()?,
            st[2].to_vec()?,
        ))
    });
    let near = |a: f32, b: f32| (a - b).abs() < 1e-6;
    assert!(
        near(out.0[0], 1.0 / 6.0) && near(out.0[1], 0.5),
        "{:?}",
        out.0
    );
    assert_eq!(out.0[2], 0.0);
    assert!(out.1.iter().all(|&v| near(v, l3)), "{:?}", out.1);
    assert!(out.2.iter().all(|&v| near(v, 2.0)), "{:?}", out.2);
    assert!(out.3.iter().all(|&v| near(v, 1.0 / 3.0)), "{:?}", out.3);
}

#[test]
fn host_helpers() {
    // Without update: 4 · (32/typeSize + k + 64) per row; with it: 4 · (4 · 32/typeSize + 2k).
    assert_eq!(
        softmax_flash_min_tmp_size(144, 2, false),
        4 * (16 + 144 + 64)
    );
    assert_eq!(softmax_flash_min_tmp_size(144, 2, true), 4 * (64 + 288));
    assert_eq!(
        softmax_flash_max_tmp_size(80, 144, 4, true),
        80 * 4 * (32 + 288)
    );
    // Same split as SoftMaxTilingFunc without update.
    assert_eq!(
        softmax_flash_tiling(80, 144, 2, 20000, false),
        softmax_tiling(80, 144, 2, 20000)
    );
    let t = softmax_flash_tiling(80, 144, 2, 20000, true);
    // 5000 floats / (64 + 288) = 14 rows → 8.
    assert_eq!((t.split_m, t.range_m, t.tail_m, t.reduce_k), (8, 10, 0, 16));
    let t = softmax_flash_tiling(16, 128, 4, 4 * (32 + 256) * 3, true);
    assert_eq!((t.split_m, t.tail_m), (3, 1));
    assert_eq!(softmax_flash_tiling(4, 1024, 4, 100, true).split_m, 0);
}

#[test]
fn checks() {
    let run_err = |p: &'static str, work: u32, k: u32| {
        error_on(p, move |ub| {
            let x = ub.tensor::<f32>(8 * k, 0.0);
            let s: Vec<LocalTensor<f32>> = (0..5).map(|_| ub.tensor::<f32>(64, 0.0)).collect();
            let tmp = ub.tensor::<u8>(work, 0);
            let t = softmax_flash_tiling(8, 64, 4, 16384, true);
            softmax_flash(
                &x,
                &s[0],
                &s[1],
                &x,
                &s[2],
                &s[3],
                &s[4],
                Tmp::Shared(&tmp),
                &t,
                true,
                SoftMaxShapeInfo::default_for(8, k),
                false,
            )
        })
    };
    let e = run_err("A2", 1024, 64);
    assert_eq!(e.category, Category::Size, "{e}");
    assert!(e.message.contains("too small"), "{e}");
    let e = run_err("A2", 64, 72);
    assert_eq!(e.category, Category::Size, "{e}");
    assert!(e.message.contains("GetSoftMaxFlashMinTmpSize"), "{e}");
    let e = run_err("A2", 4096, 20);
    assert_eq!(e.category, Category::Align, "{e}");
    let e = run_err("310B", 4096, 64);
    assert!(e.message.contains("SoftmaxFlash"), "{e}");
    let e = error_on("A2", |ub| {
        let x = ub.tensor::<i32>(512, 0);
        let tmp = ub.tensor::<u8>(4096, 0);
        let t = softmax_flash_tiling(8, 64, 4, 4096, false);
        softmax_flash(
            &x,
            &x,
            &x,
            &x,
            &x,
            &x,
            &x,
            Tmp::Shared(&tmp),
            &t,
            false,
            SoftMaxShapeInfo::default_for(8, 64),
            false,
        )
    });
    assert_eq!(e.category, Category::Type, "{e}");
    let e = error_on("A2", |ub| {
        let x = ub.tensor::<f32>(512, 0.0);
        let s: Vec<LocalTensor<f32>> = (0..4).map(|_| ub.tensor::<f32>(64, 0.0)).collect();
        let small = ub.tensor::<f32>(16, 0.0);
        let tmp = ub.tensor::<u8>(16384, 0);
        let t = softmax_flash_tiling(8, 64, 4, 16384, true);
        softmax_flash(
            &x,
            &s[0],
            &s[1],
            &x,
            &small,
            &s[2],
            &s[3],
            Tmp::Shared(&tmp),
            &t,
            true,
            SoftMaxShapeInfo::default_for(8, 64),
            false,
        )
    });
    assert_eq!(e.category, Category::Size, "{e}");
    assert!(e.message.contains("expMaxTensor"), "{e}");
}

// ---------------------------------------------------------------- bit-exact emulation (isUpdate)

/// The simulator's pairwise tree over `v` (a power of two long).
fn tree(v: &[f32]) -> f32 {
    let mut v = v.to_vec();
    while v.len() > 1 {
        v = v.chunks(2).map(|p| p[0] + p[1]).collect();
    }
    v[0]
}

/// WholeReduceSum over the first `v.len()` (≤ 64) lanes: the 64-lane tree, idle lanes +0.
fn tree64(v: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 64];
    lanes[..v.len()].copy_from_slice(v);
    tree(&lanes)
}

/// The vector `Max` instruction: a NaN operand wins, of two zeros +0.
fn vmax(a: f32, b: f32) -> f32 {
    if a.is_nan() {
        a
    } else if b.is_nan() || b > a || (b == a && a.is_sign_negative()) {
        b
    } else {
        a
    }
}

/// A max reduction's pick (WholeReduceMax / BlockReduceMax): the first NaN, else the first of
/// the largest.
fn red_max(v: &[f32]) -> f32 {
    let mut best = v[0];
    for &c in &v[1..] {
        if !best.is_nan() && (c.is_nan() || c > best) {
            best = c;
        }
    }
    best
}

fn exp32(x: f32) -> f32 {
    (x as f64).exp() as f32
}

/// `ReduceMaxLastNDImpl` of one row's valid elements: 310P WholeReduceMax per 64-element
/// block folded with Max; A2 BlockReduceMax per block (8 partials) folded with Max, then one
/// BlockReduceMax, the tail's WholeReduceMax folded last.
fn nd_max(p310: bool, x: &[f32]) -> f32 {
    let (blocks, tail) = (x.len() / 64, x.len() % 64);
    let mut total = None;
    if p310 {
        if x.len() <= 64 {
            return red_max(x);
        }
        let mut acc = red_max(&x[..64]);
        for b in 1..blocks {
            acc = vmax(acc, red_max(&x[64 * b..64 * b + 64]));
        }
        total = Some(acc);
    } else if blocks > 0 {
        let mut part: Vec<f32> = x[..64].chunks(8).map(red_max).collect();
        for b in 1..blocks {
            for (j, p) in part.iter_mut().enumerate() {
                *p = vmax(*p, red_max(&x[64 * b + 8 * j..64 * b + 8 * j + 8]));
            }
        }
        total = Some(red_max(&part));
    }
    if tail == 0 {
        return total.unwrap();
    }
    let tv = red_max(&x[64 * blocks..]);
    total.map_or(tv, |t| vmax(t, tv))
}

/// `ReduceSumLastNDImpl` of one row's valid elements: 310P WholeReduceSum per block added up;
/// A2 BlockReduceSum per block (8 partials) added block by block, one BlockReduceSum, the
/// tail's WholeReduceSum added last.
fn nd_sum(p310: bool, x: &[f32]) -> f32 {
    let (blocks, tail) = (x.len() / 64, x.len() % 64);
    let mut total = None;
    if p310 {
        if x.len() <= 64 {
            return tree64(x);
        }
        let mut acc = tree64(&x[..64]);
        for b in 1..blocks {
            acc += tree64(&x[64 * b..64 * b + 64]);
        }
        total = Some(acc);
    } else if blocks > 0 {
        let mut part: Vec<f32> = x[..64].chunks(8).map(tree).collect();
        for b in 1..blocks {
            for (j, p) in part.iter_mut().enumerate() {
                *p += tree(&x[64 * b + 8 * j..64 * b + 8 * j + 8]);
            }
        }
        total = Some(tree(&part));
    }
    if tail == 0 {
        return total.unwrap();
    }
    let tv = tree64(&x[64 * blocks..]);
    total.map_or(tv, |t| t + tv)
}

/// The basic-block fold of a row (a multiple of 64) into 64 lanes: a single block copied,
/// else block 0 `op` block 1, then each further block.
fn basic_fold(x: &[f32], op: fn(f32, f32) -> f32) -> Vec<f32> {
    let blocks = x.len() / 64;
    if blocks == 1 {
        return x.to_vec();
    }
    let mut lanes: Vec<f32> = (0..64).map(|l| op(x[l], x[64 + l])).collect();
    for b in 2..blocks {
        for (l, v) in lanes.iter_mut().enumerate() {
            *v = op(*v, x[64 * b + l]);
        }
    }
    lanes
}

fn basic_max(x: &[f32]) -> f32 {
    let part: Vec<f32> = basic_fold(x, vmax).chunks(8).map(red_max).collect();
    red_max(&part)
}

fn basic_sum(x: &[f32]) -> f32 {
    let part: Vec<f32> = basic_fold(x, |a, b| a + b).chunks(8).map(tree).collect();
    tree(&part)
}

/// One row's update results in float: (dst, new max, new sum, expMax).
struct Row {
    dst: Vec<f32>,
    max: f32,
    sum: f32,
    em: f32,
}

/// The device's order for one row `x` (all `k` columns; the reductions over `ori`) after
/// `inMax`/`inSum` = `im`/`is`, on the ND path or the A2 basic-block path.
fn emulate(p310: bool, basic: bool, x: &[f32], ori: usize, im: f32, is: f32) -> Row {
    let rmax = if basic {
        basic_max(x)
    } else {
        nd_max(p310, &x[..ori])
    };
    let e: Vec<f32> = x.iter().map(|&v| exp32(v - rmax)).collect();
    let rsum = if basic {
        basic_sum(&e)
    } else {
        nd_sum(p310, &e[..ori])
    };
    let nm = vmax(im, rmax);
    let a = exp32(rmax - nm);
    let b = exp32(im - nm) * is;
    let scaled = a * rsum;
    let s = b + scaled;
    let em = b / s;
    let dst = if basic {
        // x / rowSum first, then times (e^(max − newMax) · rowSum) / sum.
        let scale = scaled / s;
        e.iter().map(|&v| (v / rsum) * scale).collect()
    } else {
        let scale = a / s;
        e.iter().map(|&v| v * scale).collect()
    };
    Row {
        dst,
        max: nm,
        sum: s,
        em,
    }
}

/// float → half: `CAST_ROUND` (A2/A3) rounds ties away from zero, `CAST_NONE` (310P) to even;
/// then the default fp16 saturation mode (NaN → 0, ±inf → ±65504).
fn narrow(p310: bool, v: f32) -> f32 {
    let h = rounded(p310, v);
    if h.is_nan() {
        0.0
    } else if h.is_infinite() {
        65504f32.copysign(h)
    } else {
        h
    }
}

fn rounded(p310: bool, v: f32) -> f32 {
    let a = f16::from_f32(v);
    if p310 || a.to_f32() == v || !v.is_finite() || a.is_infinite() {
        return a.to_f32();
    }
    let b = if a.to_f32().abs() < v.abs() {
        f16::from_bits(a.to_bits() + 1)
    } else {
        f16::from_bits(a.to_bits() - 1)
    };
    let (da, db) = (
        (v as f64 - a.to_f32() as f64).abs(),
        (v as f64 - b.to_f32() as f64).abs(),
    );
    if da == db && b.to_f32().abs() > a.to_f32().abs() {
        b.to_f32()
    } else {
        a.to_f32()
    }
}

/// xorshift64*.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 32) as u32
    }
    /// In `lo..=hi`.
    fn range(&mut self, lo: u32, hi: u32) -> u32 {
        lo + self.next() % (hi - lo + 1)
    }
    /// In [-lim, lim).
    fn val(&mut self, lim: f32) -> f32 {
        ((self.next() >> 8) as f32 / (1u32 << 24) as f32 * 2.0 - 1.0) * lim
    }
    fn pick(&mut self, v: &[f32]) -> f32 {
        v[self.next() as usize % v.len()]
    }
}

/// Row data of `m` rows of `k`, in `T`'s precision: random values with edge values (signed
/// zeros, denormals, large values, −inf), some rows whose max is a zero, an all −inf row.
fn edge_rows<T: Num>(rng: &mut Rng, m: u32, k: u32) -> Vec<f32> {
    let half = T::SIZE == 2;
    let edges: &[f32] = if half {
        &[
            0.0,
            -0.0,
            3e-6,
            -6e-8,
            1000.0,
            -30000.0,
            11.0,
            f32::NEG_INFINITY,
        ]
    } else {
        &[
            0.0,
            -0.0,
            1e-40,
            -3e-42,
            80.0,
            -1e30,
            1e4,
            f32::NEG_INFINITY,
        ]
    };
    let mut x = Vec::with_capacity((m * k) as usize);
    for _ in 0..m {
        let kind = rng.range(0, 11);
        for j in 0..k {
            let v = match kind {
                // All −inf: NaN results.
                0 if m > 2 => f32::NEG_INFINITY,
                // Non-positive with zeros of both signs: the max is a zero.
                1 | 2 => match j % 7 {
                    1 => 0.0,
                    3 => -0.0,
                    _ => -rng.val(6.0).abs(),
                },
                _ if rng.range(0, 15) == 0 => rng.pick(edges),
                _ => rng.val(if half { 6.0 } else { 9.0 }),
            };
            x.push(T::get(T::of(v)));
        }
    }
    x
}

/// inMax / inSum per row in `S`'s precision, with edge values.
fn edge_stats<S: Num>(rng: &mut Rng, m: u32) -> (Vec<f32>, Vec<f32>) {
    let big = if S::SIZE == 2 { 1000.0 } else { 1e30 };
    (0..m)
        .map(|_| {
            let im = match rng.range(0, 9) {
                0 => f32::NEG_INFINITY,
                1 => 0.0,
                2 => -0.0,
                3 => big,
                _ => rng.val(9.0),
            };
            let is = match rng.range(0, 9) {
                0 => 0.0,
                1 => 6e-8,
                _ => rng.val(30.0).abs() + 0.5,
            };
            (S::get(S::of(im)), S::get(S::of(is)))
        })
        .unzip()
}

/// One isUpdate call on `x` (`m` rows of `k`, `ori` valid) with `work` bytes of temporary
/// space; also returns the tiling's rows per pass and passes.
#[allow(clippy::too_many_arguments)]
fn run_update<T: Num, S: Num>(
    product: &'static str,
    m: u32,
    k: u32,
    ori: u32,
    work: u32,
    basic: bool,
    x: &[f32],
    im: &[f32],
    is: &[f32],
) -> (Out, u32, u32) {
    let rk = 32 / S::SIZE as u32;
    let ek = if T::SIZE == 2 && S::SIZE == 4 { 16 } else { rk };
    let xs: Vec<T> = x.iter().map(|&v| T::of(v)).collect();
    let per_row = |v: &[f32]| -> Vec<S> {
        v.iter()
            .flat_map(|&a| std::iter::repeat_n(S::of(a), rk as usize))
            .collect()
    };
    let (imx, ism) = (per_row(im), per_row(is));
    let ts = if S::SIZE == 4 && T::SIZE == 2 {
        4
    } else {
        T::SIZE as u32
    };
    let t = softmax_flash_tiling(m, k, ts, work, true);
    let out = run_p(product, move |ub| {
        let src = ub.from(&xs);
        let dst = ub.tensor::<T>(m * k, T::of(0.0));
        let max = ub.tensor::<S>(m * rk, S::of(0.0));
        let sum = ub.tensor::<S>(m * rk, S::of(0.0));
        let exp_max = ub.tensor::<T>(m * ek, T::of(0.0));
        let in_max = ub.from(&imx);
        let in_sum = ub.from(&ism);
        let tmp = ub.tensor::<u8>(work, 0);
        let shape = SoftMaxShapeInfo {
            src_m: m,
            src_k: k,
            ori_src_m: m,
            ori_src_k: ori,
        };
        softmax_flash(
            &dst,
            &sum,
            &max,
            &src,
            &exp_max,
            &in_sum,
            &in_max,
            Tmp::Shared(&tmp),
            &t,
            true,
            shape,
            basic,
        )?;
        let f = |v: Vec<T>| v.into_iter().map(Num::get).collect::<Vec<f32>>();
        let g = |v: Vec<S>| v.into_iter().map(Num::get).collect::<Vec<f32>>();
        Ok((
            f(dst.to_vec()?),
            g(max.to_vec()?),
            g(sum.to_vec()?),
            f(exp_max.to_vec()?),
            f(src.to_vec()?),
        ))
    });
    (out, t.split_m, t.range_m)
}

/// Bit equality, any NaN equal to any NaN.
fn same(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

/// One random isUpdate case checked bit-exactly: dst (or src, where the device writes the
/// result there), max, sum and expMax of every row.
#[allow(clippy::too_many_arguments)]
fn exact_case<T: Num, S: Num>(
    product: &'static str,
    rng: &mut Rng,
    m: u32,
    k: u32,
    ori: u32,
    work: u32,
    basic: bool,
) {
    let x = edge_rows::<T>(rng, m, k);
    let (im, is) = edge_stats::<S>(rng, m);
    let (out, split_m, range_m) = run_update::<T, S>(product, m, k, ori, work, basic, &x, &im, &is);
    let (dst, max, sum, em, src) = &out;
    let p310 = product == "310P";
    let on_basic = basic && !p310;
    let half = T::SIZE == 2;
    // The float basic-block path writes into src and leaves the tail rows alone.
    let in_src = on_basic && !half;
    let done = if in_src { range_m * split_m } else { m };
    let rk = 32 / S::SIZE;
    let ek = if half && S::SIZE == 4 { 16 } else { rk };
    let ctx = format!(
        "{product} T={} S={} m={m} k={k} ori={ori} work={work} basic={basic} splitM={split_m}",
        T::DTYPE,
        S::DTYPE
    );
    let k = k as usize;
    let t_out = |v: f32| if half { narrow(p310, v) } else { v };
    let s_out = |v: f32| if S::SIZE == 2 { narrow(p310, v) } else { v };
    for r in 0..m as usize {
        let row = &x[r * k..(r + 1) * k];
        let pass_row = r < done as usize;
        // A pass row by the basic-block path when the device takes it (the tail pass is ND).
        let by_basic = on_basic && r < (range_m * split_m) as usize;
        let want = if pass_row {
            let w = emulate(p310, by_basic, row, ori as usize, im[r], is[r]);
            Row {
                dst: w.dst.iter().map(|&v| t_out(v)).collect(),
                max: s_out(w.max),
                sum: s_out(w.sum),
                em: t_out(w.em),
            }
        } else {
            Row {
                dst: row.to_vec(),
                max: 0.0,
                sum: 0.0,
                em: 0.0,
            }
        };
        let got = if in_src { src } else { dst };
        for j in 0..k {
            let g = got[r * k + j];
            assert!(
                same(g, want.dst[j]),
                "{ctx} row {r} col {j}: {g} vs {} (x = {}, inMax = {}, inSum = {})",
                want.dst[j],
                row[j],
                im[r],
                is[r]
            );
            if in_src {
                assert_eq!(dst[r * k + j], 0.0, "{ctx} dst row {r} col {j} written");
            }
        }
        for j in 0..rk {
            let (gm, gs) = (max[r * rk + j], sum[r * rk + j]);
            assert!(
                same(gm, want.max),
                "{ctx} max row {r}: {gm} vs {}",
                want.max
            );
            assert!(
                same(gs, want.sum),
                "{ctx} sum row {r}: {gs} vs {}",
                want.sum
            );
        }
        for j in 0..ek {
            let ge = em[r * ek + j];
            assert!(
                same(ge, want.em),
                "{ctx} expMax row {r}: {ge} vs {}",
                want.em
            );
        }
    }
}

/// Random ND shapes (rows, row lengths of whole 32-byte blocks, padded rows, passes with tail
/// passes) and basic-block shapes, on A2 and 310P.
fn exact_cases<T: Num, S: Num>(seed: u64) {
    let mut rng = Rng(seed);
    let per = 32 / T::SIZE as u32;
    let ts = if S::SIZE == 4 && T::SIZE == 2 {
        4
    } else {
        T::SIZE as u32
    };
    let need = |k: u32| 4 * (4 * 32 / ts + 2 * k);
    for product in ["A2", "310P"] {
        for case in 0..14 {
            let m = rng.range(1, 20);
            let k = per * rng.range(1, (1536 / m / per).clamp(1, 40));
            // Some rows padded (oriSrcK < srcK), one case a single short row.
            let ori = if case % 2 == 1 { rng.range(1, k) } else { k };
            let rows = rng.range(1, m);
            let work = rows * need(k) + 32 * rng.range(0, 4);
            exact_case::<T, S>(product, &mut rng, m, k, ori, work, false);
        }
        // Basic blocks: rows of a multiple of 64 (half: of at least two blocks), passes of 8
        // or 16 rows (and all rows), rows not a multiple of 8 leaving a tail pass.
        let ks: &[u32] = if T::SIZE == 4 {
            &[64, 128, 192, 256, 512]
        } else {
            &[128, 192, 256, 512]
        };
        for &k in ks {
            for &(m, rows) in &[(8u32, 8u32), (16, 8), (24, 24), (12, 8), (20, 16)] {
                if m * k > 4096 || rows * k > 4096 {
                    continue;
                }
                exact_case::<T, S>(product, &mut rng, m, k, k, rows * need(k), true);
            }
        }
    }
}

#[test]
fn update_float_bit_exact() {
    exact_cases::<f32, f32>(0x5EED_0001);
}

#[test]
fn update_half_bit_exact() {
    exact_cases::<f16, f16>(0x5EED_0002);
}

#[test]
fn update_half_with_float_stats_bit_exact() {
    exact_cases::<f16, f32>(0x5EED_0003);
}
