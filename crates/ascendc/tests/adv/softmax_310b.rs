//! The SoftMax family on Atlas 200I/500 A2 (310B): SoftMax, SimpleSoftMax, SoftmaxFlashV2
//! (with and without update), SoftmaxGrad and SoftmaxGradFront bit-exact against a host
//! emulation of the device's 310B order (the row max / sum folded over repeat-wide blocks and
//! one whole-repeat reduction per row; half data's max in half, everything else in float; no
//! 1/sum: a true division; results narrowed with CAST_ROUND), on float and half, for row
//! lengths on each reduction path, several passes with tail rows and padded rows; the checks
//! and the APIs whose pages do not list 310B.

use crate::ub_harness;

use ascendc::adv::activation::softmax::tiling::{
    flash_v2_min_tmp_size, flash_v2_tiling, grad_min_tmp_size, grad_tiling, softmax_min_tmp_size,
    softmax_tiling,
};
use ascendc::adv::activation::softmax::{
    adjust_softmax_res, log_softmax, simple_softmax, softmax, softmax_flash_v2, softmax_grad,
    softmax_grad_front, softmax_no_stats, FlashV2Flags, SoftMaxShapeInfo, SoftMaxTiling,
};
use ascendc::adv::common::Tmp;
use ascendc::numeric::{round_to_format, saturate_f16, RoundMode, HALF};
use ascendc::prelude::*;
use ascendc::{f16, Category};
use ub_harness::{error_on, run_p};

const P: &str = "310B";

// ---------------------------------------------------------------- host emulation

/// The Max instruction: NaN propagates; equal values give `b` when `a` is negative.
fn vmax(a: f32, b: f32) -> f32 {
    if a.is_nan() {
        a
    } else if b.is_nan() || b > a || (b == a && a.is_sign_negative()) {
        b
    } else {
        a
    }
}

/// WholeReduceMax: the lanes in order, a strictly greater (or NaN) value replacing the best.
fn wmax(v: &[f32]) -> f32 {
    let mut best = v[0];
    for &c in &v[1..] {
        if !best.is_nan() && (c.is_nan() || c > best) {
            best = c;
        }
    }
    best
}

/// WholeReduceSum: the pairwise tree over the 64 float lanes (disabled lanes +0).
fn tree(v: &[f32]) -> f32 {
    let mut l = [0.0f32; 64];
    l[..v.len()].copy_from_slice(v);
    let mut n = 64;
    while n > 1 {
        for i in 0..n / 2 {
            l[i] = l[2 * i] + l[2 * i + 1];
        }
        n /= 2;
    }
    l[0]
}

#[derive(Clone, Copy, PartialEq)]
enum Red {
    Max,
    Sum,
}

/// The row max / sum of `x` (its valid elements) over `lanes`-wide blocks; `many`: the pass
/// has more rows than blocks per row (the fold's operand order differs).
fn row_reduce(op: Red, x: &[f32], lanes: usize, many: bool) -> f32 {
    let f = |a: f32, b: f32| if op == Red::Max { vmax(a, b) } else { a + b };
    let fin = |v: &[f32]| if op == Red::Max { wmax(v) } else { tree(v) };
    let k = x.len();
    if k <= lanes {
        return fin(x);
    }
    let (split, tail) = (k / lanes, k % lanes);
    let mut acc = x[..lanes].to_vec();
    for i in 1..split {
        for j in 0..lanes {
            let v = x[i * lanes + j];
            acc[j] = if many { f(acc[j], v) } else { f(v, acc[j]) };
        }
    }
    for j in 0..tail {
        acc[j] = f(acc[j], x[split * lanes + j]);
    }
    fin(&acc)
}

fn exp32(x: f32) -> f32 {
    (x as f64).exp() as f32
}

/// CAST_ROUND to half with the 310B's saturation (±∞ → ±65504, NaN → 0), as a float.
fn rnd(v: f32) -> f32 {
    saturate_f16(f16::from_f64(round_to_format(
        v as f64,
        HALF,
        RoundMode::CAST_ROUND,
    )))
    .to_f32()
}

/// Whether each row is in a pass with more rows than the row has blocks of `lanes`.
fn many_per_row(t: &SoftMaxTiling, m: usize, k: usize, lanes: usize) -> Vec<bool> {
    (0..m)
        .map(|r| {
            let rows = if (r as u32) < t.range_m * t.split_m {
                t.split_m
            } else {
                t.tail_m
            };
            rows as usize > k / lanes
        })
        .collect()
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum Api {
    Soft,
    Simple,
    Flash,
    FlashUpdate,
    Grad,
    Front,
}

#[derive(Clone, Copy, Debug)]
struct Case {
    api: Api,
    half: bool,
    m: u32,
    k: u32,
    ori_k: u32,
    tmp: u32,
}

/// The inputs of a case (float values, half-exact for half cases).
#[derive(Clone)]
struct Inputs {
    x: Vec<f32>,
    g: Vec<f32>,
    in_max: Vec<f32>,
    in_sum: Vec<f32>,
}

/// The outputs: dst (`m · k`, GradFront `m · rk`), max, sum and expMax (`m · rk`).
#[derive(Debug, Default)]
struct Outs {
    dst: Vec<f32>,
    max: Vec<f32>,
    sum: Vec<f32>,
    exp_max: Vec<f32>,
}

fn tiling_of(c: &Case) -> SoftMaxTiling {
    let size = if c.half { 2 } else { 4 };
    match c.api {
        Api::Soft | Api::Simple => softmax_tiling(c.m, c.k, size, c.tmp),
        Api::Flash | Api::FlashUpdate => flash_v2_tiling(c.m, c.k, size, size, c.tmp, false, false),
        Api::Grad | Api::Front => grad_tiling(c.m, c.k, size, c.tmp, c.api == Api::Front),
    }
}

/// The device's 310B results, emulated.
fn emulate(c: &Case, inp: &Inputs) -> Outs {
    let (m, k, ok) = (c.m as usize, c.k as usize, c.ori_k as usize);
    let rk = if c.half { 16 } else { 8 };
    let t = tiling_of(c);
    let many64 = many_per_row(&t, m, ok, 64);
    let many128 = many_per_row(&t, m, ok, 128);
    let mut o = Outs::default();
    let n = |v: f32| if c.half { rnd(v) } else { v };
    for r in 0..m {
        let x = &inp.x[r * k..(r + 1) * k];
        let g = &inp.g[r * k..(r + 1) * k];
        let (im, is) = (inp.in_max[r], inp.in_sum[r]);
        let d: Vec<f32>;
        let (mut mx, mut sm, mut em) = (0.0, 0.0, 0.0);
        match c.api {
            Api::Soft | Api::Flash => {
                mx = if c.half {
                    row_reduce(Red::Max, &x[..ok], 128, many128[r])
                } else {
                    row_reduce(Red::Max, &x[..ok], 64, many64[r])
                };
                let e: Vec<f32> = x.iter().map(|&v| exp32(v - mx)).collect();
                let s = row_reduce(Red::Sum, &e[..ok], 64, many64[r]);
                sm = n(s);
                d = if c.api == Api::Flash {
                    e.iter().map(|&v| n(v)).collect()
                } else {
                    e.iter().map(|&v| n(v / s)).collect()
                };
            }
            Api::Simple => {
                d = x.iter().map(|&v| n(exp32(v - im) / is)).collect();
            }
            Api::FlashUpdate => {
                let rm = row_reduce(Red::Max, &x[..ok], 64, many64[r]);
                let nm = if c.half { vmax(rm, im) } else { vmax(im, rm) };
                let ex = exp32(im - nm);
                let e: Vec<f32> = x.iter().map(|&v| exp32(v - nm)).collect();
                let s = row_reduce(Red::Sum, &e[..ok], 64, many64[r]);
                mx = n(nm);
                em = n(ex);
                sm = n(ex * is + s);
                d = e.iter().map(|&v| n(v)).collect();
            }
            Api::Grad | Api::Front => {
                let p: Vec<f32> = x.iter().zip(g).map(|(&a, &b)| a * b).collect();
                let s = row_reduce(Red::Sum, &p[..ok], 64, many64[r]);
                if c.api == Api::Front {
                    d = vec![n(s); rk];
                } else {
                    d = x.iter().zip(g).map(|(&a, &b)| n(a * (b - s))).collect();
                }
            }
        }
        o.dst.extend(d);
        o.max.extend(std::iter::repeat_n(mx, rk));
        o.sum.extend(std::iter::repeat_n(sm, rk));
        o.exp_max.extend(std::iter::repeat_n(em, rk));
    }
    o
}

// ---------------------------------------------------------------- kernel runs

trait Val: Element + Default {
    fn of(v: f32) -> Self;
    fn f(self) -> f32;
}

impl Val for f32 {
    fn of(v: f32) -> Self {
        v
    }
    fn f(self) -> f32 {
        self
    }
}

impl Val for f16 {
    fn of(v: f32) -> Self {
        f16::from_f32(v)
    }
    fn f(self) -> f32 {
        self.to_f32()
    }
}

fn run_case<T: Val>(c: Case, inp: &Inputs) -> Outs {
    let inp = inp.clone();
    let rk = 32 / T::SIZE as u32;
    run_p(P, move |ub| {
        let (m, k) = (c.m, c.k);
        let conv = |v: &[f32]| v.iter().map(|&x| T::of(x)).collect::<Vec<T>>();
        let per_row = |v: &[f32]| {
            conv(
                &v.iter()
                    .flat_map(|&x| std::iter::repeat_n(x, rk as usize))
                    .collect::<Vec<f32>>(),
            )
        };
        let src = ub.from(&conv(&inp.x));
        let grad = ub.from(&conv(&inp.g));
        let out_n = if c.api == Api::Front { m * rk } else { m * k };
        let dst = ub.tensor::<T>(out_n, T::default());
        let max = ub.from(&per_row(&inp.in_max));
        let sum = ub.from(&per_row(&inp.in_sum));
        let (imax, isum) = (
            ub.from(&per_row(&inp.in_max)),
            ub.from(&per_row(&inp.in_sum)),
        );
        let exp_max = ub.tensor::<T>(m * rk, T::default());
        let tmp = ub.tensor::<u8>(c.tmp, 0);
        let t = tiling_of(&c);
        let shape = SoftMaxShapeInfo {
            src_m: m,
            src_k: k,
            ori_src_m: m,
            ori_src_k: c.ori_k,
        };
        let tm = Tmp::Shared(&tmp);
        match c.api {
            Api::Soft => softmax(&dst, &sum, &max, &src, tm, &t, shape)?,
            Api::Simple => simple_softmax(&dst, &sum, &max, &src, tm, &t, shape)?,
            Api::Flash | Api::FlashUpdate => softmax_flash_v2(
                &dst,
                &sum,
                &max,
                &src,
                &exp_max,
                &isum,
                &imax,
                tm,
                &t,
                shape,
                FlashV2Flags {
                    is_update: c.api == Api::FlashUpdate,
                    ..Default::default()
                },
            )?,
            Api::Grad => softmax_grad(&dst, &grad, &src, tm, &t, false, shape, false)?,
            Api::Front => softmax_grad_front(&dst, &grad, &src, tm, &t, shape, false, false)?,
        }
        let read = |t: &LocalTensor<T>, n: u32| -> Vec<f32> {
            (0..n).map(|i| t.get_value(i).unwrap().f()).collect()
        };
        Ok(Outs {
            dst: read(&dst, out_n),
            max: read(&max, m * rk),
            sum: read(&sum, m * rk),
            exp_max: read(&exp_max, m * rk),
        })
    })
}

fn same(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

fn check(c: Case, inp: &Inputs) {
    let got = if c.half {
        run_case::<f16>(c, inp)
    } else {
        run_case::<f32>(c, inp)
    };
    let want = emulate(&c, inp);
    let mut parts = vec![("dst", &got.dst, &want.dst)];
    if matches!(c.api, Api::Soft | Api::Flash | Api::FlashUpdate) {
        parts.push(("max", &got.max, &want.max));
        parts.push(("sum", &got.sum, &want.sum));
    }
    if c.api == Api::FlashUpdate {
        parts.push(("expMax", &got.exp_max, &want.exp_max));
    }
    for (name, g, w) in parts {
        assert_eq!(g.len(), w.len(), "{c:?} {name}");
        for (i, (a, b)) in g.iter().zip(w.iter()).enumerate() {
            assert!(same(*a, *b), "{c:?} {name}[{i}]: {a:e} vs {b:e} (emulated)");
        }
    }
}

/// Deterministic values in (−lim, lim), half-exact for `half`.
fn values(n: usize, seed: u64, lim: f32, half: bool) -> Vec<f32> {
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let v = ((s >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * lim;
            if half {
                f16::from_f32(v).to_f32()
            } else {
                v
            }
        })
        .collect()
}

/// Inputs with edge values: ±0, a denormal, a large value, −∞ in the first rows.
fn inputs(c: &Case, seed: u64) -> Inputs {
    let n = (c.m * c.k) as usize;
    let mut x = values(n, seed, 8.0, c.half);
    let g = values(n, seed + 7, 2.0, c.half);
    let den = if c.half { 6e-8 } else { 1e-40 };
    for (i, v) in [0.0, -0.0, den, 11.0, f32::NEG_INFINITY]
        .into_iter()
        .enumerate()
    {
        if i < n && c.api != Api::Grad && c.api != Api::Front {
            x[i * (c.k as usize + 1) % n] = v;
        }
    }
    let m = c.m as usize;
    let in_max: Vec<f32> = values(m, seed + 3, 8.0, c.half)
        .into_iter()
        .map(|v| v + 6.0)
        .map(|v| if c.half { f16::from_f32(v).to_f32() } else { v })
        .collect();
    let in_sum: Vec<f32> = values(m, seed + 5, 4.0, c.half)
        .into_iter()
        .map(|v| v.abs() + 1.0)
        .map(|v| if c.half { f16::from_f32(v).to_f32() } else { v })
        .collect();
    Inputs {
        x,
        g,
        in_max,
        in_sum,
    }
}

/// The minimum buffer of a case's API (bytes).
fn min_tmp(api: Api, half: bool, m: u32, k: u32) -> u32 {
    let size = if half { 2 } else { 4 };
    match api {
        Api::Soft | Api::Simple => softmax_min_tmp_size(k, size),
        Api::Flash => flash_v2_min_tmp_size(m, k, size, size, false, false),
        Api::FlashUpdate => flash_v2_min_tmp_size(m, k, size, size, false, false),
        Api::Grad => grad_min_tmp_size(k, size, false),
        Api::Front => grad_min_tmp_size(k, size, true),
    }
}

/// Shapes on each path: rows within one repeat, several blocks, tails, the fold's two operand
/// orders (more rows than blocks or not), several passes with a tail pass.
fn sweep(api: Api) {
    let shapes: &[(u32, u32, u32)] = &[
        (4, 16, 16),
        (3, 64, 64),
        (5, 72, 72),
        (2, 200, 200),
        (1, 136, 136),
        (3, 640, 640),
        (9, 32, 32),
        (17, 48, 48),
        (6, 96, 80),
        (2, 256, 256),
        (4, 144, 144),
        (5, 208, 208),
        (3, 400, 384),
        (2, 160, 160),
    ];
    for half in [false, true] {
        for &(m, k, ok) in shapes {
            if half && k % 16 != 0 {
                continue;
            }
            let min = min_tmp(api, half, m, k);
            for (i, tmp) in [min, min * 3, (min * 16).min(24 * 1024)]
                .into_iter()
                .enumerate()
            {
                let c = Case {
                    api,
                    half,
                    m,
                    k,
                    ori_k: ok,
                    tmp,
                };
                check(c, &inputs(&c, (m * 1000 + k + i as u32) as u64));
            }
        }
    }
}

#[test]
fn softmax_310b_bit_exact() {
    sweep(Api::Soft);
}

#[test]
fn simple_softmax_310b_bit_exact() {
    sweep(Api::Simple);
}

#[test]
fn softmax_flash_v2_310b_bit_exact() {
    sweep(Api::Flash);
}

#[test]
fn softmax_flash_v2_update_310b_bit_exact() {
    sweep(Api::FlashUpdate);
}

#[test]
fn softmax_grad_310b_bit_exact() {
    sweep(Api::Grad);
}

#[test]
fn softmax_grad_front_310b_bit_exact() {
    sweep(Api::Front);
}

#[test]
fn softmax_310b_nan_and_infinity_rows() {
    // Float data (half results saturate: NaN → 0, ±∞ → ±65504, as the sweep's checks cover).
    {
        let half = false;
        let c = Case {
            api: Api::Soft,
            half,
            m: 4,
            k: 160,
            ori_k: 160,
            tmp: 16 * 1024,
        };
        let mut inp = inputs(&c, 99);
        inp.x[3] = f32::NAN;
        inp.x[160 + 100] = f32::INFINITY;
        inp.x[320..480].fill(f32::NEG_INFINITY);
        check(c, &inp);
    }
}

#[test]
fn softmax_310b_matches_float64_closely() {
    // Sanity against the exact softmax (the bit-exact tests fix the order).
    let c = Case {
        api: Api::Soft,
        half: false,
        m: 8,
        k: 200,
        ori_k: 200,
        tmp: 16 * 1024,
    };
    let inp = inputs(
        &Case {
            api: Api::Grad,
            ..c
        },
        5,
    );
    let got = run_case::<f32>(c, &inp).dst;
    for r in 0..8 {
        let row = &inp.x[r * 200..(r + 1) * 200];
        let mx = row.iter().fold(f64::NEG_INFINITY, |a, &b| a.max(b as f64));
        let s: f64 = row.iter().map(|&v| (v as f64 - mx).exp()).sum();
        for j in 0..200 {
            let want = (row[j] as f64 - mx).exp() / s;
            let e = (got[r * 200 + j] as f64 - want).abs();
            assert!(e <= 2e-7 * want.max(1e-3), "row {r} col {j}: {e}");
        }
    }
}

// ---------------------------------------------------------------- the checks

fn shape(m: u32, k: u32) -> SoftMaxShapeInfo {
    SoftMaxShapeInfo {
        src_m: m,
        src_k: k,
        ori_src_m: m,
        ori_src_k: k,
    }
}

#[test]
fn apis_not_on_310b_are_refused() {
    let e = error_on(P, |ub| {
        let x = ub.tensor::<f32>(64, 0.0);
        let s = ub.tensor::<f32>(8, 0.0);
        let tmp = ub.tensor::<u8>(4096, 0);
        let t = softmax_tiling(1, 64, 4, 4096);
        log_softmax(&x, &s, &s, &x, Tmp::Shared(&tmp), &t, shape(1, 64))
    });
    assert_eq!(e.category, Category::Unsupported);
    assert!(e.message.contains("LogSoftMax is not available on"), "{e}");
    let e = error_on(P, |ub| {
        let x = ub.tensor::<f32>(64, 0.0);
        let s = ub.tensor::<f32>(8, 0.0);
        adjust_softmax_res(&x, &s, 0, 0.0f32, shape(1, 64)).map(|_| ())
    });
    assert_eq!(e.category, Category::Unsupported);
    assert!(e.message.contains("AdjustSoftMaxRes"), "{e}");
}

#[test]
fn softmax_310b_refusals() {
    // Half data with float max/sum.
    let e = error_on(P, |ub| {
        let x = ub.tensor::<f16>(64, f16::ZERO);
        let s = ub.tensor::<f32>(16, 0.0);
        let tmp = ub.tensor::<u8>(4096, 0);
        let t = softmax_tiling(1, 64, 2, 4096);
        softmax(&x, &s, &s, &x, Tmp::Shared(&tmp), &t, shape(1, 64))
    });
    assert_eq!(e.category, Category::Type);
    assert!(e.message.contains("Ascend310B"), "{e}");
    // SoftMax without max/sum.
    let e = error_on(P, |ub| {
        let x = ub.tensor::<f32>(64, 0.0);
        let tmp = ub.tensor::<u8>(4096, 0);
        let t = softmax_tiling(1, 64, 4, 4096);
        softmax_no_stats(&x, &x, Tmp::Shared(&tmp), &t, shape(1, 64))
    });
    assert_eq!(e.category, Category::Unsupported);
    assert!(e.message.contains("sumTensor"), "{e}");
    // NZ grad.
    let e = error_on(P, |ub| {
        let x = ub.tensor::<f32>(64, 0.0);
        let tmp = ub.tensor::<u8>(4096, 0);
        let t = grad_tiling(1, 64, 4, 4096, false);
        softmax_grad(&x, &x, &x, Tmp::Shared(&tmp), &t, false, shape(1, 64), true)
    });
    assert_eq!(e.category, Category::Unsupported);
    assert!(e.message.contains("NZ"), "{e}");
    // NZ FlashV2.
    let e = error_on(P, |ub| {
        let x = ub.tensor::<f32>(64, 0.0);
        let s = ub.tensor::<f32>(8, 0.0);
        let tmp = ub.tensor::<u8>(4096, 0);
        let t = flash_v2_tiling(1, 64, 4, 4, 4096, false, false);
        let f = FlashV2Flags {
            is_data_format_nz: true,
            ..Default::default()
        };
        softmax_flash_v2(
            &x,
            &s,
            &s,
            &x,
            &x,
            &s,
            &s,
            Tmp::Shared(&tmp),
            &t,
            shape(1, 64),
            f,
        )
    });
    assert_eq!(e.category, Category::Unsupported);
    assert!(e.message.contains("Ascend310B"), "{e}");
}

#[test]
fn softmax_310b_buffer_too_small() {
    // A buffer below the pass's scratch.
    let e = error_on(P, |ub| {
        let x = ub.tensor::<f32>(8 * 128, 0.0);
        let s = ub.tensor::<f32>(64, 0.0);
        let tmp = ub.tensor::<u8>(512, 0);
        let t = softmax_tiling(8, 128, 4, 8192);
        softmax(&x, &s, &s, &x, Tmp::Shared(&tmp), &t, shape(8, 128))
    });
    assert_eq!(e.category, Category::Size);
}

// ---------------------------------------------------------------- accuracy

/// The exact results (float64) of a case: dst and the per-row sum.
fn reference(c: &Case, inp: &Inputs) -> (Vec<f64>, Vec<f64>) {
    let (m, k) = (c.m as usize, c.k as usize);
    let (mut d, mut sums) = (vec![], vec![]);
    for r in 0..m {
        let x: Vec<f64> = inp.x[r * k..(r + 1) * k]
            .iter()
            .map(|&v| v as f64)
            .collect();
        let g: Vec<f64> = inp.g[r * k..(r + 1) * k]
            .iter()
            .map(|&v| v as f64)
            .collect();
        let (im, is) = (inp.in_max[r] as f64, inp.in_sum[r] as f64);
        let mx = x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        match c.api {
            Api::Soft | Api::Flash => {
                let s: f64 = x.iter().map(|v| (v - mx).exp()).sum();
                let div = if c.api == Api::Soft { s } else { 1.0 };
                d.extend(x.iter().map(|v| (v - mx).exp() / div));
                sums.push(s);
            }
            Api::Simple => d.extend(x.iter().map(|v| (v - im).exp() / is)),
            Api::FlashUpdate => {
                let nm = mx.max(im);
                let s: f64 = x.iter().map(|v| (v - nm).exp()).sum();
                d.extend(x.iter().map(|v| (v - nm).exp()));
                sums.push((im - nm).exp() * is + s);
            }
            Api::Grad | Api::Front => {
                let s: f64 = x.iter().zip(&g).map(|(a, b)| a * b).sum();
                if c.api == Api::Front {
                    sums.push(s);
                } else {
                    d.extend(x.iter().zip(&g).map(|(a, b)| a * (b - s)));
                }
            }
        }
    }
    (d, sums)
}

/// (max abs error, max rel error over |exact| ≥ 1e-3) of `got` against `want`.
fn errors(got: &[f32], want: &[f64]) -> (f64, f64) {
    got.iter().zip(want).fold((0.0, 0.0), |(a, r), (&g, &w)| {
        let e = (g as f64 - w).abs();
        let rel = if w.abs() >= 1e-3 { e / w.abs() } else { 0.0 };
        (f64::max(a, e), f64::max(r, rel))
    })
}

#[test]
fn softmax_310b_error_vs_float64() {
    // The table of docs/high-level/softmax.md (run with --nocapture to print it).
    for api in [
        Api::Soft,
        Api::Simple,
        Api::Flash,
        Api::FlashUpdate,
        Api::Grad,
        Api::Front,
    ] {
        for half in [false, true] {
            let (m, k) = if half { (16, 256) } else { (16, 160) };
            let c = Case {
                api,
                half,
                m,
                k,
                ori_k: k,
                tmp: min_tmp(api, half, m, k) * 2,
            };
            let mut inp = inputs(
                &Case {
                    api: Api::Grad,
                    ..c
                },
                77,
            );
            if matches!(api, Api::Grad | Api::Front) {
                // Softmax-like probabilities as the forward output.
                inp.x = values((m * k) as usize, 78, 1.0, half)
                    .into_iter()
                    .map(|v| v.abs() / 64.0)
                    .map(|v| if half { f16::from_f32(v).to_f32() } else { v })
                    .collect();
            }
            let got = if half {
                run_case::<f16>(c, &inp)
            } else {
                run_case::<f32>(c, &inp)
            };
            let (d, sums) = reference(&c, &inp);
            let rk = if half { 16 } else { 8 };
            let (da, dr) = if api == Api::Front {
                let g: Vec<f32> = got.dst.iter().step_by(rk).copied().collect();
                errors(&g, &sums)
            } else {
                errors(&got.dst, &d)
            };
            let (sa, sr) = if matches!(api, Api::Soft | Api::Flash | Api::FlashUpdate) {
                let g: Vec<f32> = got.sum.iter().step_by(rk).copied().collect();
                errors(&g, &sums)
            } else {
                (0.0, 0.0)
            };
            println!(
                "| {api:?} | {} | {m} x {k} | {da:.2e} | {dr:.2e} | {sa:.2e} | {sr:.2e} |",
                if half { "half" } else { "float" }
            );
            let bound = if half { 4e-3 } else { 2e-6 };
            assert!(dr < bound && sr < bound, "{api:?} half={half}: {dr} {sr}");
        }
    }
}
