//! The SoftMax family: SoftMax / LogSoftMax / SimpleSoftMax / AdjustSoftMaxRes bit-exact
//! against a host emulation of the device's instruction order (row max; x − max; Exp in
//! float; the row sum folded block-wise then tree-reduced per 32-byte block; the division, or
//! on 310P the multiplication by 1/sum), for row lengths on each of the reduction's paths, on
//! A2 and 310P; the host tiling formulas; the checks.

use crate::ub_harness;

use ascendc::adv::activation::softmax::tiling::{
    softmax_max_tmp_size, softmax_min_tmp_size, softmax_tiling,
};
use ascendc::adv::activation::softmax::{
    adjust_softmax_res, log_softmax, simple_softmax, softmax, softmax_no_stats, SoftMaxShapeInfo,
};
use ascendc::adv::common::Tmp;
use ascendc::prelude::*;
use ascendc::Category;
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

/// The row sum in the device's order.
fn row_sum(x: &[f32]) -> f32 {
    let k = x.len();
    if k < 64 {
        let mut lanes = [0.0f32; 64];
        lanes[..k].copy_from_slice(x);
        return tree(&lanes);
    }
    let blocks = k / 64;
    let mut acc = [0.0f32; 64];
    if k >= 512 {
        for (v, a) in acc.iter_mut().enumerate() {
            *a = tree(&x[8 * v..8 * v + 8]);
        }
        for b in 8..blocks {
            for (j, a) in acc.iter_mut().enumerate() {
                *a += x[b * 64 + j];
            }
        }
    } else {
        acc.copy_from_slice(&x[..64]);
        for b in 1..blocks {
            for j in 0..64 {
                acc[j] += x[b * 64 + j];
            }
        }
    }
    for j in 0..k % 64 {
        acc[j] += x[blocks * 64 + j];
    }
    let eights: Vec<f32> = acc.chunks(8).map(tree).collect();
    tree(&eights)
}

fn exp32(x: f32) -> f32 {
    (x as f64).exp() as f32
}

/// (dst, max, sum) of one row.
fn emulate_row(x: &[f32], p310: bool, log: bool) -> (Vec<f32>, f32, f32) {
    let max = x.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let e: Vec<f32> = x.iter().map(|&v| exp32(v - max)).collect();
    let sum = row_sum(&e);
    let mut d: Vec<f32> = if p310 {
        let r = (1.0f64 / sum as f64) as f32;
        e.iter().map(|&v| v * r).collect()
    } else {
        e.iter().map(|&v| (v as f64 / sum as f64) as f32).collect()
    };
    if log {
        d = d
            .iter()
            .map(|&v| ((v as f64).ln() as f32) * std::f32::consts::LOG10_E)
            .collect();
    }
    (d, max, sum)
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

// ---------------------------------------------------------------- kernel runs

struct Out {
    dst: Vec<f32>,
    max: Vec<f32>,
    sum: Vec<f32>,
}

/// SoftMax (or LogSoftMax) on float `x` of `m` rows of `k` with a buffer of `tmp_bytes`.
fn run_f32(product: &str, x: &[f32], m: u32, k: u32, tmp_bytes: u32, log: bool) -> Out {
    let x = x.to_vec();
    run_p(product, move |ub| {
        let src = ub.from(&x);
        let dst = ub.tensor::<f32>(m * k, 0.0);
        let max = ub.tensor::<f32>(m * 8, 0.0);
        let sum = ub.tensor::<f32>(m * 8, 0.0);
        let tmp = ub.tensor::<u8>(tmp_bytes, 0);
        let tiling = softmax_tiling(m, k, 4, tmp_bytes);
        let shape = SoftMaxShapeInfo {
            src_m: m,
            src_k: k,
            ori_src_m: m,
            ori_src_k: k,
        };
        if log {
            log_softmax(&dst, &sum, &max, &src, Tmp::Shared(&tmp), &tiling, shape)?;
        } else {
            softmax(&dst, &sum, &max, &src, Tmp::Shared(&tmp), &tiling, shape)?;
        }
        let read = |t: &LocalTensor<f32>, n: u32| (0..n).map(|i| t.get_value(i).unwrap()).collect();
        Ok(Out {
            dst: read(&dst, m * k),
            max: read(&max, m * 8),
            sum: read(&sum, m * 8),
        })
    })
}

fn check_f32(product: &str, m: u32, k: u32, tmp_bytes: u32, log: bool, seed: u64) {
    let mut x = values((m * k) as usize, seed, 10.0);
    // Edge values: a row with a large spread, signed zeros, a denormal.
    x[0] = 0.0;
    x[1] = -0.0;
    x[2] = 1e-40;
    if x.len() > 3 {
        x[3] = 80.0;
    }
    let out = run_f32(product, &x, m, k, tmp_bytes, log);
    let p310 = product == "310P";
    for r in 0..m as usize {
        let row = &x[r * k as usize..(r + 1) * k as usize];
        let (d, mx, sm) = emulate_row(row, p310, log);
        for j in 0..8 {
            assert_eq!(
                out.max[r * 8 + j].to_bits(),
                mx.to_bits(),
                "{product} k={k} max row {r}"
            );
            assert_eq!(
                out.sum[r * 8 + j].to_bits(),
                sm.to_bits(),
                "{product} k={k} sum row {r}"
            );
        }
        for (j, v) in d.iter().enumerate() {
            assert_eq!(
                out.dst[r * k as usize + j].to_bits(),
                v.to_bits(),
                "{product} m={m} k={k} log={log} row {r} col {j}: {} vs {v}",
                out.dst[r * k as usize + j]
            );
        }
    }
}

#[test]
fn softmax_float_bit_exact_on_every_reduction_path() {
    for product in ["A2", "310P"] {
        for (m, k) in [
            (4, 16),
            (3, 64),
            (5, 72),
            (2, 200),
            (1, 136),
            (3, 640),
            (1, 32),
            (9, 8),
        ] {
            let tmp = softmax_min_tmp_size(k, 4) * 2;
            check_f32(product, m, k, tmp, false, (m * k) as u64);
        }
    }
}

#[test]
fn log_softmax_float_is_log10_of_softmax() {
    for product in ["A2", "310P"] {
        for (m, k) in [(4, 32), (2, 136)] {
            check_f32(product, m, k, softmax_max_tmp_size(m, k, 4), true, 7);
        }
    }
}

#[test]
fn softmax_half_rounds_through_float() {
    let (m, k) = (3u32, 48u32);
    let x = values((m * k) as usize, 3, 6.0);
    let xh: Vec<f16> = x.iter().map(|&v| f16::from_f32(v)).collect();
    for product in ["A2", "310P"] {
        let xin = xh.clone();
        let (d, mx, sm): (Vec<f16>, Vec<f16>, Vec<f16>) = run_p(product, move |ub| {
            let src = ub.from(&xin);
            let dst = ub.tensor::<f16>(m * k, f16::ZERO);
            let max = ub.tensor::<f16>(m * 16, f16::ZERO);
            let sum = ub.tensor::<f16>(m * 16, f16::ZERO);
            let bytes = softmax_max_tmp_size(m, k, 2);
            let tmp = ub.tensor::<u8>(bytes, 0);
            let tiling = softmax_tiling(m, k, 2, bytes);
            softmax(
                &dst,
                &sum,
                &max,
                &src,
                Tmp::Shared(&tmp),
                &tiling,
                SoftMaxShapeInfo::default_for(m, k),
            )?;
            let read =
                |t: &LocalTensor<f16>, n: u32| (0..n).map(|i| t.get_value(i).unwrap()).collect();
            Ok((read(&dst, m * k), read(&max, m * 16), read(&sum, m * 16)))
        });
        // CAST_NONE (310P) rounds to nearest even, CAST_ROUND (A2) to nearest with ties away:
        // the same on these values (checked: no ties).
        let narrow = f16::from_f32;
        for r in 0..m as usize {
            let row: Vec<f32> = (0..k as usize)
                .map(|j| xh[r * k as usize + j].to_f32())
                .collect();
            let (e, rmax, rsum) = emulate_row(&row, product == "310P", false);
            assert_eq!(mx[r * 16].to_bits(), narrow(rmax).to_bits());
            assert_eq!(mx[r * 16 + 15].to_bits(), narrow(rmax).to_bits());
            assert_eq!(sm[r * 16].to_bits(), narrow(rsum).to_bits());
            for j in 0..k as usize {
                assert_eq!(
                    d[r * k as usize + j].to_bits(),
                    narrow(e[j]).to_bits(),
                    "{product} row {r} col {j}"
                );
            }
        }
    }
}

#[test]
fn simple_softmax_uses_the_given_max_and_sum() {
    let (m, k) = (2u32, 16u32);
    let x = values((m * k) as usize, 11, 4.0);
    let (d, _, _) = {
        let x = x.clone();
        let out: Vec<f32> = run_p("A2", move |ub| {
            let src = ub.from(&x);
            let dst = ub.tensor::<f32>(m * k, 0.0);
            let max = ub.tensor::<f32>(m * 8, 1.0);
            let sum = ub.tensor::<f32>(m * 8, 2.0);
            let tmp = ub.tensor::<u8>(1024, 0);
            let tiling = softmax_tiling(m, k, 4, 1024);
            simple_softmax(
                &dst,
                &sum,
                &max,
                &src,
                Tmp::Shared(&tmp),
                &tiling,
                SoftMaxShapeInfo::default_for(m, k),
            )?;
            Ok((0..m * k).map(|i| dst.get_value(i).unwrap()).collect())
        });
        (out, 0, 0)
    };
    for (i, &v) in x.iter().enumerate() {
        let want = (exp32(v - 1.0) as f64 / 2.0) as f32;
        assert_eq!(d[i].to_bits(), want.to_bits());
    }
}

#[test]
fn softmax_without_stats_and_adjust() {
    // The vendor example's post-processing: rows whose max is 0xFF7FFFFF (−FLT_MAX) become 0.
    let (m, k) = (3u32, 32u32);
    let mut x = values((m * k) as usize, 5, 3.0);
    for v in &mut x[32..64] {
        *v = f32::from_bits(0xFF7F_FFFF);
    }
    let (plain, adjusted, hit) = run_p("A2", move |ub| {
        let src = ub.from(&x);
        let dst = ub.tensor::<f32>(m * k, 0.0);
        let dst2 = ub.tensor::<f32>(m * k, 0.0);
        let max = ub.tensor::<f32>(m * 8, 0.0);
        let sum = ub.tensor::<f32>(m * 8, 0.0);
        let tmp = ub.tensor::<u8>(4096, 0);
        let tiling = softmax_tiling(m, k, 4, 4096);
        let shape = SoftMaxShapeInfo::default_for(m, k);
        softmax_no_stats(&dst, &src, Tmp::Shared(&tmp), &tiling, shape)?;
        softmax(&dst2, &sum, &max, &src, Tmp::Shared(&tmp), &tiling, shape)?;
        let hit = adjust_softmax_res(&dst2, &max, 0xFF7F_FFFF, 0.0f32, shape)?;
        let read = |t: &LocalTensor<f32>| {
            (0..m * k)
                .map(|i| t.get_value(i).unwrap())
                .collect::<Vec<_>>()
        };
        Ok((read(&dst), read(&dst2), hit))
    });
    assert!(hit);
    assert!(adjusted[32..64].iter().all(|&v| v == 0.0));
    assert_eq!(plain[32], 1.0 / 32.0);
    assert_eq!(plain[..32], adjusted[..32]);
    assert_eq!(plain[64..], adjusted[64..]);
}

#[test]
fn host_tiling_matches_the_vendor_formulas() {
    // The vendor example: 32 rows of 32 floats, buffer GetSoftMaxMinTmpSize({32, 32}).
    assert_eq!(softmax_min_tmp_size(32, 4), (8 + 32 + 64) * 4);
    assert_eq!(softmax_max_tmp_size(32, 32, 4), 32 * (8 + 32 + 64) * 4);
    let t = softmax_tiling(32, 32, 4, 416);
    assert_eq!(
        t.to_words(),
        [32, 32, 1024, 32, 8, 256, 1, 32, 32, 1, 8, 8, 32, 0, 0, 0]
    );
    // Basic-block rounding: 64 rows of 64, room for 40 rows → 32 (a divisor of 64, multiple of 8).
    let t = softmax_tiling(64, 64, 2, (16 + 64 + 64) * 4 * 40);
    assert_eq!((t.split_m, t.range_m, t.tail_m, t.reduce_k), (32, 2, 0, 16));
}

#[test]
fn checks_name_the_parameter() {
    let e = error_on("A2", |ub| {
        let src = ub.tensor::<f32>(64, 0.0);
        let dst = ub.tensor::<f32>(64, 0.0);
        let tmp = ub.tensor::<u8>(64, 0);
        let tiling = softmax_tiling(2, 32, 4, 4096);
        softmax_no_stats(
            &dst,
            &src,
            Tmp::Shared(&tmp),
            &tiling,
            SoftMaxShapeInfo::default_for(2, 32),
        )
    });
    assert_eq!(e.category, Category::Size, "{e}");
    assert!(e.message.contains("too small"), "{e}");
    let e = error_on("A2", |ub| {
        let src = ub.tensor::<f32>(60, 0.0);
        let dst = ub.tensor::<f32>(60, 0.0);
        let tmp = ub.tensor::<u8>(4096, 0);
        let tiling = softmax_tiling(2, 30, 4, 4096);
        softmax_no_stats(
            &dst,
            &src,
            Tmp::Shared(&tmp),
            &tiling,
            SoftMaxShapeInfo::default_for(2, 30),
        )
    });
    assert_eq!(e.category, Category::Align, "{e}");
    let e = error_on("A2", |ub| {
        let src = ub.tensor::<i32>(64, 0);
        let dst = ub.tensor::<i32>(64, 0);
        let tmp = ub.tensor::<u8>(4096, 0);
        let tiling = softmax_tiling(2, 32, 4, 4096);
        softmax_no_stats(
            &dst,
            &src,
            Tmp::Shared(&tmp),
            &tiling,
            SoftMaxShapeInfo::default_for(2, 32),
        )
    });
    assert_eq!(e.category, Category::Type, "{e}");
}
