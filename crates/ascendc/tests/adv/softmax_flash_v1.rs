//! SoftmaxFlash (the first version): the documented formula against float64 for float, half
//! and half-with-float-stats data, with and without isUpdate, general and basic-block paths,
//! passes with tail rows, on A2 and 310P; without isUpdate bit-exact against SoftMax; the
//! host helpers' formulas; the checks.

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
