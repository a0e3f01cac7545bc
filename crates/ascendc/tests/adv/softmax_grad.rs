//! SoftmaxGrad / SoftmaxGradFront bit-exact against a host emulation of the device's
//! instruction order (the product in float; the row sum as the A2/A3 block-wise or the 310P
//! per-block WholeReduceSum order, the basic-block fold, the NZ column-block order with its
//! masked last block; `(grad − sum) · x`; half narrowed with CAST_ROUND on A2, CAST_NONE on
//! 310P), ND and NZ, on A2 and 310P, with tail passes and padded columns; the page's worked
//! example; the checks.

use crate::ub_harness;

use ascendc::adv::activation::softmax::tiling::{
    grad_max_tmp_size, grad_min_tmp_size, grad_tiling,
};
use ascendc::adv::activation::softmax::{
    softmax_grad, softmax_grad_front, SoftMaxShapeInfo, SoftMaxTiling,
};
use ascendc::adv::common::Tmp;
use ascendc::numeric::{round_to_format, RoundMode, HALF};
use ascendc::prelude::*;
use ascendc::{Category, Element};
use ub_harness::{error_on, run_p};

// ---------------------------------------------------------------- host emulation

/// The pairwise tree of the simulator's reductions over `v` (length a power of two).
fn tree(v: &[f32]) -> f32 {
    let mut v = v.to_vec();
    while v.len() > 1 {
        v = v.chunks(2).map(|p| p[0] + p[1]).collect();
    }
    v[0]
}

/// A WholeReduceSum of the first `v.len()` (≤ 64) lanes.
fn whole(v: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 64];
    lanes[..v.len()].copy_from_slice(v);
    tree(&lanes)
}

/// The 8 BlockReduceSum results of 64 lanes.
fn blocks8(v: &[f32]) -> [f32; 8] {
    std::array::from_fn(|b| tree(&v[8 * b..8 * b + 8]))
}

/// The ND row sum of `p[..ori_k]`: A2/A3 folds the 8 block sums of each 64-element block, 310P
/// adds whole-block sums.
fn sum_nd(p310: bool, p: &[f32], ori_k: usize) -> f32 {
    let (blocks, tail) = (ori_k / 64, ori_k % 64);
    if p310 {
        if ori_k <= 64 {
            return whole(&p[..ori_k]);
        }
        let mut acc = whole(&p[..64]);
        for b in 1..blocks {
            acc += whole(&p[64 * b..64 * b + 64]);
        }
        if tail != 0 {
            acc += whole(&p[64 * blocks..ori_k]);
        }
        return acc;
    }
    let mut s = None;
    if blocks > 0 {
        let mut part = blocks8(&p[..64]);
        for b in 1..blocks {
            let n = blocks8(&p[64 * b..64 * b + 64]);
            for j in 0..8 {
                part[j] += n[j];
            }
        }
        s = Some(tree(&part));
    }
    if tail != 0 {
        let t = whole(&p[64 * blocks..ori_k]);
        s = Some(match s {
            Some(v) => v + t,
            None => t,
        });
    }
    s.unwrap()
}

/// The basic-block row sum: the 64-element blocks added lane-wise, then 8 block sums, then one.
fn sum_basic(p: &[f32]) -> f32 {
    let mut acc: Vec<f32> = p[..64].to_vec();
    for b in 1..p.len() / 64 {
        for j in 0..64 {
            acc[j] += p[64 * b + j];
        }
    }
    tree(&blocks8(&acc))
}

/// The NZ row sum: column blocks added lane-wise (the last one only over `last` columns when
/// the row is in the pass's partial last repeat), the two halves of the 16 lanes added, 8
/// summed.
fn sum_nz(p: &[f32], reduce_k: usize, full_last: bool) -> f32 {
    let nblk = p.len() / 16;
    let last = match reduce_k % 16 {
        0 => 16,
        l => l,
    };
    if nblk == 1 && last != 16 {
        return whole(&p[..last]);
    }
    let mut acc: Vec<f32> = p[..16].to_vec();
    if nblk > 1 {
        for j in 1..nblk - 1 {
            for c in 0..16 {
                acc[c] += p[16 * j + c];
            }
        }
        for c in 0..16 {
            if full_last || c < last {
                acc[c] += p[16 * (nblk - 1) + c];
            }
        }
    }
    let h: Vec<f32> = (0..8).map(|c| acc[c] + acc[c + 8]).collect();
    tree(&h)
}

/// Deterministic values in (−lim, lim).
fn values(n: usize, seed: u64, lim: f32) -> Vec<f32> {
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * lim
        })
        .collect()
}

/// Which call.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Op {
    /// SoftmaxGrad.
    Grad,
    /// SoftmaxGrad with isFront.
    GradFront,
    /// SoftmaxGradFront (isBasicBlock).
    Front(bool),
}

impl Op {
    fn front(self) -> bool {
        self != Op::Grad
    }
}

/// One case: product, call, `m` rows of `k` (`ori_k` valid), NZ, temporary bytes.
#[derive(Clone, Copy, Debug)]
struct Case {
    p: &'static str,
    op: Op,
    m: u32,
    k: u32,
    ori_k: u32,
    nz: bool,
    tmp: u32,
}

/// The storage index of logical element (r, c).
fn index(c: &Case, r: usize, col: usize) -> usize {
    if c.nz {
        (col / 16) * c.m as usize * 16 + r * 16 + col % 16
    } else {
        r * c.k as usize + col
    }
}

/// The expected outputs in float (logical order: `m × k`, or `m × 32/size` for the sums).
fn emulate(c: &Case, t: &SoftMaxTiling, x: &[f32], g: &[f32], per_blk: usize) -> Vec<f32> {
    let (m, k) = (c.m as usize, c.k as usize);
    let p310 = c.p == "310P";
    let mut out = Vec::new();
    for r in 0..m {
        let xr = &x[r * k..r * k + k];
        let gr = &g[r * k..r * k + k];
        // SoftmaxGrad(isFront) on float ND multiplies grad · x (commutative in value).
        let prod: Vec<f32> = (0..k).map(|j| xr[j] * gr[j]).collect();
        let pass_row = r % t.split_m as usize;
        let in_tail = r >= (t.range_m * t.split_m) as usize;
        let pass_m = if in_tail { t.tail_m } else { t.split_m } as usize;
        let s = if c.nz {
            let reduce_k = if c.op.front() { k } else { c.ori_k as usize };
            sum_nz(&prod, reduce_k, pass_row < pass_m / 4 * 4)
        } else if c.op == Op::Front(true) && !in_tail {
            sum_basic(&prod)
        } else {
            sum_nd(p310, &prod, c.ori_k as usize)
        };
        if c.op.front() {
            out.extend(std::iter::repeat_n(s, per_blk));
        } else {
            out.extend((0..k).map(|j| (gr[j] - s) * xr[j]));
        }
    }
    out
}

/// A float → half narrowing as the product's `FLOAT2HALF_ROUND_MODE`.
fn narrow(p: &str, v: f32) -> f16 {
    let mode = if p == "310P" {
        RoundMode::CAST_RINT
    } else {
        RoundMode::CAST_ROUND
    };
    f16::from_f64(round_to_format(v as f64, HALF, mode))
}

/// Runs a case on `x`, `g` (logical order) and returns the output in logical order.
fn run_case<T: Element>(c: Case, t: SoftMaxTiling, x: &[T], g: &[T]) -> Vec<T> {
    let (m, k) = (c.m as usize, c.k as usize);
    let per_blk = 32 / T::SIZE as u32;
    let mut xs = vec![T::default(); m * k];
    let mut gs = xs.clone();
    for r in 0..m {
        for col in 0..k {
            xs[index(&c, r, col)] = x[r * k + col];
            gs[index(&c, r, col)] = g[r * k + col];
        }
    }
    let out_len = if c.op.front() {
        c.m * per_blk
    } else {
        c.m * c.k
    };
    let stored: Vec<T> = run_p(c.p, move |ub| {
        let src = ub.from(&xs);
        let grad = ub.from(&gs);
        let dst = ub.tensor::<T>(out_len, T::default());
        let tmp = ub.tensor::<u8>(c.tmp, 0);
        let shape = SoftMaxShapeInfo {
            src_m: c.m,
            src_k: c.k,
            ori_src_m: c.m,
            ori_src_k: c.ori_k,
        };
        let tm = Tmp::Shared(&tmp);
        match c.op {
            Op::Grad => softmax_grad(&dst, &grad, &src, tm, &t, false, shape, c.nz)?,
            Op::GradFront => softmax_grad(&dst, &grad, &src, tm, &t, true, shape, c.nz)?,
            Op::Front(basic) => softmax_grad_front(&dst, &grad, &src, tm, &t, shape, basic, c.nz)?,
        }
        Ok((0..out_len).map(|i| dst.get_value(i).unwrap()).collect())
    });
    if c.op.front() {
        return stored;
    }
    let mut out = vec![T::default(); m * k];
    for r in 0..m {
        for col in 0..k {
            out[r * k + col] = stored[index(&c, r, col)];
        }
    }
    out
}

fn same(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

/// Inputs with edge values: signed zeros, denormals, a large value, and (float) Inf/NaN rows.
fn inputs(n: usize, seed: u64, specials: bool) -> (Vec<f32>, Vec<f32>) {
    let mut x = values(n, seed, 1.0);
    let mut g = values(n, seed + 1, 4.0);
    x[0] = 0.0;
    x[1] = -0.0;
    g[2] = 1e-40;
    x[3] = 1e-39;
    g[5] = 3000.0;
    if specials && n > 200 {
        g[150] = f32::INFINITY;
        x[190] = f32::NAN;
        g[200] = -1e30;
    }
    (x, g)
}

fn check_float(c: Case, t: SoftMaxTiling) {
    let n = (c.m * c.k) as usize;
    let (x, g) = inputs(n, (c.m * 31 + c.k) as u64, true);
    let got = run_case::<f32>(c, t, &x, &g);
    let want = emulate(&c, &t, &x, &g, 8);
    assert_eq!(got.len(), want.len());
    for (i, (a, b)) in got.iter().zip(&want).enumerate() {
        assert!(same(*a, *b), "{c:?} at {i}: {a} vs {b}");
    }
}

fn check_half(c: Case, t: SoftMaxTiling) {
    let n = (c.m * c.k) as usize;
    let (x, g) = inputs(n, (c.m * 7 + c.k) as u64, false);
    let xh: Vec<f16> = x.iter().map(|&v| f16::from_f32(v)).collect();
    let gh: Vec<f16> = g.iter().map(|&v| f16::from_f32(v / 4.0)).collect();
    let got = run_case::<f16>(c, t, &xh, &gh);
    let wx: Vec<f32> = xh.iter().map(|v| v.to_f32()).collect();
    let wg: Vec<f32> = gh.iter().map(|v| v.to_f32()).collect();
    let want = emulate(&c, &t, &wx, &wg, 16);
    assert_eq!(got.len(), want.len());
    for (i, (a, b)) in got.iter().zip(&want).enumerate() {
        let b = narrow(c.p, *b);
        assert_eq!(a.to_bits(), b.to_bits(), "{c:?} at {i}: {a} vs {b}");
    }
}

/// The case's tiling: the host's for `rows` rows' worth of buffer (`rows` = 0: the minimum).
#[allow(clippy::too_many_arguments)]
fn case(
    p: &'static str,
    op: Op,
    m: u32,
    k: u32,
    ori_k: u32,
    nz: bool,
    size: u32,
    rows: u32,
) -> (Case, SoftMaxTiling) {
    let front = op.front();
    let min = grad_min_tmp_size(k, size, front);
    let tmp = if rows == 0 { min } else { min * rows };
    let c = Case {
        p,
        op,
        m,
        k,
        ori_k,
        nz,
        tmp,
    };
    (c, grad_tiling(m, k, size, tmp, front))
}

// ---------------------------------------------------------------- ND

#[test]
fn grad_float_nd_bit_exact() {
    for p in ["A2", "310P"] {
        for op in [Op::Grad, Op::GradFront, Op::Front(false)] {
            for (m, k, ori_k, rows) in [
                (5, 8, 8, 0),
                (11, 64, 64, 4),
                (9, 72, 70, 8),
                (4, 136, 136, 0),
                (3, 640, 600, 2),
                (2, 200, 130, 0),
                (12, 16, 16, 5),
            ] {
                let (c, t) = case(p, op, m, k, ori_k, false, 4, rows);
                check_float(c, t);
            }
        }
    }
}

#[test]
fn grad_half_nd_bit_exact() {
    for p in ["A2", "310P"] {
        for op in [Op::Grad, Op::GradFront, Op::Front(false)] {
            for (m, k, ori_k, rows) in [
                (5, 16, 16, 0),
                (11, 64, 50, 4),
                (3, 144, 144, 0),
                (10, 32, 32, 9),
                (2, 576, 576, 0),
            ] {
                let (c, t) = case(p, op, m, k, ori_k, false, 2, rows);
                check_half(c, t);
            }
        }
    }
}

#[test]
fn grad_front_basic_block_bit_exact() {
    for p in ["A2", "310P"] {
        // 16 rows of 128: one pass (basic block) of 16; 24 rows of 64 in passes of 8.
        for (m, k, rows) in [(16, 128, 16), (24, 64, 8), (8, 256, 8)] {
            let (c, t) = case(p, Op::Front(true), m, k, k, false, 4, rows);
            assert_eq!(t.tail_m, 0);
            check_float(c, t);
            let (c, t) = case(p, Op::Front(true), m, k, k, false, 2, rows);
            check_half(c, t);
        }
    }
}

#[test]
fn grad_retiles_a_different_shape() {
    // The tiling is for another shape: the kernel re-tiles for its buffer (3 rows of 64).
    for p in ["A2", "310P"] {
        let other = grad_tiling(4, 32, 4, 4096, false);
        let tmp = grad_min_tmp_size(64, 4, false) * 3;
        let c = Case {
            p,
            op: Op::Grad,
            m: 7,
            k: 64,
            ori_k: 64,
            nz: false,
            tmp,
        };
        // The kernel's tiling equals the host's for the same buffer here.
        let t = grad_tiling(7, 64, 4, tmp, false);
        assert_eq!((t.split_m, t.range_m, t.tail_m), (3, 2, 1));
        let n = 7 * 64;
        let (x, g) = inputs(n, 3, false);
        let got = run_case::<f32>(c, other, &x, &g);
        let want = emulate(&c, &t, &x, &g, 8);
        for (i, (a, b)) in got.iter().zip(&want).enumerate() {
            assert!(same(*a, *b), "{p} at {i}: {a} vs {b}");
        }
    }
}

// ---------------------------------------------------------------- NZ

#[test]
fn grad_nz_bit_exact() {
    for p in ["A2", "310P"] {
        for op in [Op::Grad, Op::GradFront, Op::Front(false), Op::Front(true)] {
            for (m, k, ori_k, rows) in [
                (16, 32, 32, 0),
                (5, 48, 40, 0),
                (8, 16, 12, 0),
                (6, 16, 16, 0),
                (13, 64, 61, 6),
                (16, 32, 30, 8),
            ] {
                let (c, t) = case(p, op, m, k, ori_k, true, 4, rows);
                check_float(c, t);
                let (c, t) = case(p, op, m, k, ori_k, true, 2, rows);
                check_half(c, t);
            }
        }
    }
}

// ---------------------------------------------------------------- the page's example

#[test]
fn page_example() {
    let grad: Vec<f32> = vec![
        -100., -80., -60., -50., -30., -20., -15., -10., -9., -8., -7., -6., -5., -4., -3., -2.,
        -1.5, -1., -0.8, -0.6, -0.5, -0.45, -0.4, -0.35, -0.3, -0.25, -0.2, -0.15, -0.1, -0.05,
        -0.01, -0.001, 0., 0.001, 0.01, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6,
        0.8, 1., 1.5, 2., 3., 4., 5., 6., 7., 8., 9., 10., 15., 20., 30., 50., 60., 80.,
    ];
    let x = vec![2.0f32; 64];
    let front_want = [-730., -88., -11.2, -2.122, 1.522, 8.8, 73., 548.];
    let grad_want_row0 = [1260., 1300., 1340., 1360., 1400., 1420., 1430., 1440.];
    let grad_want_row7 = [-1078., -1076., -1066., -1056., -1036., -996., -976., -936.];
    for p in ["A2", "310P"] {
        let (c, t) = case(p, Op::Front(false), 8, 8, 8, false, 4, 0);
        let front = run_case::<f32>(c, t, &x, &grad);
        let (c, t) = case(p, Op::Grad, 8, 8, 8, false, 4, 0);
        let out = run_case::<f32>(c, t, &x, &grad);
        for r in 0..8 {
            for j in 0..8 {
                let v = front[r * 8 + j];
                assert!(
                    (v - front_want[r]).abs() <= 1e-3 * front_want[r].abs(),
                    "{p} {r}: {v}"
                );
            }
        }
        for j in 0..8 {
            assert!((out[j] - grad_want_row0[j]).abs() < 1e-2, "{p}: {}", out[j]);
            assert!(
                (out[56 + j] - grad_want_row7[j]).abs() < 1e-2,
                "{p}: {}",
                out[56 + j]
            );
        }
        assert!((out[4 * 8] - -3.044).abs() < 1e-3, "{}", out[32]);
    }
}

// ---------------------------------------------------------------- host helpers and checks

#[test]
fn host_helpers_match_the_vendor_formulas() {
    // The vendor example: 24 rows of 960 floats per loop, minimum buffer.
    assert_eq!(grad_min_tmp_size(960, 4, false), (16 + 960 + 64) * 4);
    assert_eq!(grad_min_tmp_size(960, 4, true), (8 + 960 + 64) * 4);
    assert_eq!(grad_max_tmp_size(8, 64, 2, false), 8 * (32 + 192 + 64) * 4);
    let t = grad_tiling(1, 960, 4, (16 + 960 + 64) * 4, false);
    assert_eq!((t.split_m, t.range_m, t.tail_m, t.reduce_k), (1, 1, 0, 8));
}

fn plain_call(
    p: &'static str,
    elem_k: u32,
    tmp_bytes: u32,
    dst_len: u32,
    nz: bool,
    basic: bool,
) -> ascendc::SimError {
    error_on(p, move |ub| {
        let src = ub.tensor::<f32>(8 * 64, 0.0);
        let grad = ub.tensor::<f32>(8 * 64, 0.0);
        let dst = ub.tensor::<f32>(dst_len, 0.0);
        let tmp = ub.tensor::<u8>(tmp_bytes, 0);
        let t = grad_tiling(8, elem_k, 4, tmp_bytes.max(4096), true);
        let shape = SoftMaxShapeInfo::default_for(8, elem_k);
        softmax_grad_front(&dst, &grad, &src, Tmp::Shared(&tmp), &t, shape, basic, nz)
    })
}

#[test]
fn checks_name_the_parameter() {
    // Buffer too small for the tiling's passes.
    let e = plain_call("A2", 64, 64, 64, false, false);
    assert_eq!(e.category, Category::Size, "{e}");
    assert!(e.message.contains("too small"), "{e}");
    assert_eq!(e.api, "SoftmaxGradFront", "{e}");
    // Row not whole blocks; NZ row not whole 16-column blocks.
    let e = plain_call("A2", 12, 8192, 64, false, false);
    assert_eq!(e.category, Category::Align, "{e}");
    let e = plain_call("A2", 24, 8192, 64, true, false);
    assert_eq!(e.category, Category::Align, "{e}");
    // dst too small for 8 rows of 8 sums.
    let e = plain_call("A2", 64, 8192, 32, false, false);
    assert_eq!(e.category, Category::Size, "{e}");
    assert!(e.message.contains("dstTensor"), "{e}");
    // isBasicBlock with a row not a multiple of 64.
    let e = plain_call("310P", 32, 8192, 64, false, true);
    assert_eq!(e.category, Category::Range, "{e}");
    assert!(e.message.contains("isBasicBlock"), "{e}");
    // Not a float type.
    let e = error_on("A2", |ub| {
        let src = ub.tensor::<i32>(64, 0);
        let dst = ub.tensor::<i32>(64, 0);
        let tmp = ub.tensor::<u8>(4096, 0);
        let t = grad_tiling(2, 32, 4, 4096, false);
        softmax_grad(
            &dst,
            &src,
            &src,
            Tmp::Shared(&tmp),
            &t,
            false,
            SoftMaxShapeInfo::default_for(2, 32),
            false,
        )
    });
    assert_eq!(e.category, Category::Type, "{e}");
    // Shape larger than the source.
    let e = error_on("310P", |ub| {
        let src = ub.tensor::<f32>(64, 0.0);
        let dst = ub.tensor::<f32>(128, 0.0);
        let tmp = ub.tensor::<u8>(4096, 0);
        let t = grad_tiling(4, 32, 4, 4096, false);
        softmax_grad(
            &dst,
            &src,
            &src,
            Tmp::Shared(&tmp),
            &t,
            false,
            SoftMaxShapeInfo::default_for(4, 32),
            false,
        )
    });
    assert_eq!(e.category, Category::Size, "{e}");
    assert!(e.message.contains("srcTensor"), "{e}");
}

#[test]
fn refuses_nz_on_310b() {
    // 310B runs ND data (tests/adv/softmax_310b.rs); NZ is refused there.
    let e = error_on("310B", |ub| {
        let src = ub.tensor::<f32>(64, 0.0);
        let dst = ub.tensor::<f32>(64, 0.0);
        let tmp = ub.tensor::<u8>(4096, 0);
        let t = grad_tiling(2, 32, 4, 4096, false);
        softmax_grad(
            &dst,
            &src,
            &src,
            Tmp::Shared(&tmp),
            &t,
            false,
            SoftMaxShapeInfo::default_for(2, 32),
            true,
        )
    });
    assert_eq!(e.category, Category::Unsupported, "{e}");
    assert!(e.message.contains("NZ"), "{e}");
}

// ---------------------------------------------------------------- accuracy

/// Max abs error and max relative error (over |ref| ≥ 1e-3 · max |ref|) against float64, for
/// `x` = softmax rows of 256 and `grad` in (−1, 1), 16 rows (4096 values).
fn accuracy<T: Element>(
    p: &'static str,
    op: Op,
    to: fn(f32) -> T,
    back: fn(T) -> f32,
) -> (f64, f64) {
    let (m, k) = (16u32, 256u32);
    let raw = values((m * k) as usize, 99, 4.0);
    let mut x = Vec::new();
    for row in raw.chunks(k as usize) {
        let mx = row.iter().copied().fold(f32::MIN, f32::max);
        let e: Vec<f64> = row.iter().map(|&v| ((v - mx) as f64).exp()).collect();
        let s: f64 = e.iter().sum();
        x.extend(e.iter().map(|v| to((v / s) as f32)));
    }
    let g: Vec<T> = values((m * k) as usize, 7, 1.0)
        .into_iter()
        .map(to)
        .collect();
    let size = T::SIZE as u32;
    let (c, t) = case(p, op, m, k, k, false, size, 8);
    let got = run_case::<T>(c, t, &x, &g);
    let per_blk = 32 / size as usize;
    let mut want = Vec::new();
    for r in 0..m as usize {
        let xr: Vec<f64> = (0..k as usize)
            .map(|j| back(x[r * k as usize + j]) as f64)
            .collect();
        let gr: Vec<f64> = (0..k as usize)
            .map(|j| back(g[r * k as usize + j]) as f64)
            .collect();
        let s: f64 = xr.iter().zip(&gr).map(|(a, b)| a * b).sum();
        if op.front() {
            want.extend(std::iter::repeat_n(s, per_blk));
        } else {
            want.extend((0..k as usize).map(|j| (gr[j] - s) * xr[j]));
        }
    }
    let top = want.iter().fold(0.0f64, |a, b| a.max(b.abs()));
    let (mut abs, mut rel) = (0.0f64, 0.0f64);
    for (a, b) in got.iter().zip(&want) {
        let e = (back(*a) as f64 - b).abs();
        abs = abs.max(e);
        if b.abs() >= 1e-3 * top {
            rel = rel.max(e / b.abs());
        }
    }
    (abs, rel)
}

#[test]
fn error_vs_float64() {
    for p in ["A2", "310P"] {
        for op in [Op::Grad, Op::Front(false), Op::Front(true)] {
            let (fa, fr) = accuracy::<f32>(p, op, |v| v, |v| v);
            let (ha, hr) = accuracy::<f16>(p, op, f16::from_f32, f16::to_f32);
            println!("{p} {op:?}: float abs {fa:.3e} rel {fr:.3e}; half abs {ha:.3e} rel {hr:.3e}");
            assert!(fa < 1e-7 && fr < 1e-4, "{p} {op:?} float {fa} {fr}");
            assert!(ha < 1e-3 && hr < 2e-2, "{p} {op:?} half {ha} {hr}");
        }
    }
}
