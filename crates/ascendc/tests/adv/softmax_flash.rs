//! SoftmaxFlashV2 bit-exact against a host emulation of the device's order (row max; with
//! isUpdate the max with inMax; Exp in float; the row sum folded block-wise then tree-reduced,
//! or on the basic-block path of 1024-element rows the device's block trees; then
//! expMax · inExpSum plus the sum), for float, half and half-with-float-stats data, the
//! general and basic-block paths, passes with tail rows, on A2 and 310P; the documented
//! formula against float64; the kernel re-tiling; the checks.

use crate::ub_harness;

use ascendc::adv::activation::softmax::flash::{
    flash_v2_kernel_tiling, softmax_flash_v2, softmax_flash_v2_reduce_max, FlashV2Flags,
    SoftmaxConfig, SoftmaxMode,
};
use ascendc::adv::activation::softmax::tiling::{flash_v2_min_tmp_size, flash_v2_tiling};
use ascendc::adv::activation::softmax::SoftMaxShapeInfo;
use ascendc::adv::common::Tmp;
use ascendc::prelude::*;
use ascendc::{f16, Category};
use ub_harness::{error_on, run_p};

// ---------------------------------------------------------------- host emulation

fn tree(v: &[f32]) -> f32 {
    let mut v = v.to_vec();
    while v.len() > 1 {
        v = v.chunks(2).map(|p| p[0] + p[1]).collect();
    }
    v[0]
}

/// The row sum of the general path (and of the basic-block path except for k = 1024).
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

/// The basic-block row sum of a 1024-element row: 128 block sums, 16 sums of those, the
/// pairs (j, 8 + j) added, then one tree.
fn basic_sum_1024(x: &[f32]) -> f32 {
    let a: Vec<f32> = x.chunks(8).map(tree).collect();
    let b: Vec<f32> = a.chunks(8).map(tree).collect();
    let c: Vec<f32> = (0..8).map(|j| b[j] + b[8 + j]).collect();
    tree(&c)
}

/// float → half: `CAST_ROUND` (A2/A3) rounds ties away from zero, `CAST_NONE` (310P) to even.
fn narrow(product: &str, v: f32) -> f16 {
    let a = f16::from_f32(v);
    if product == "310P" || a.to_f32() == v || !v.is_finite() || a.is_infinite() {
        return a;
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
        b
    } else {
        a
    }
}

fn exp32(x: f32) -> f32 {
    (x as f64).exp() as f32
}

/// (dst, max, sum, expMax) of one float row; `prev` = (inMax, inExpSum) with isUpdate.
fn emulate(x: &[f32], prev: Option<(f32, f32)>, basic: bool) -> (Vec<f32>, f32, f32, f32) {
    let rmax = x.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let m = prev.map_or(rmax, |(im, _)| im.max(rmax));
    let d: Vec<f32> = x.iter().map(|&v| exp32(v - m)).collect();
    let s = if basic && x.len() == 1024 {
        basic_sum_1024(&d)
    } else {
        row_sum(&d)
    };
    match prev {
        None => (d, m, s, 0.0),
        Some((im, is)) => {
            let e = exp32(im - m);
            (d, m, e * is + s, e)
        }
    }
}

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

struct Out<T, S> {
    dst: Vec<T>,
    max: Vec<S>,
    sum: Vec<S>,
    exp_max: Vec<T>,
    src: Vec<T>,
}

struct Case {
    m: u32,
    k: u32,
    ori_k: u32,
    tmp_bytes: u32,
    flags: FlashV2Flags,
}

/// One call on data `x` (m × k) with previous stats `in_max`, `in_sum` (per row).
fn run_case<T: Element, S: Element>(
    product: &str,
    c: &Case,
    x: &[T],
    in_max: &[S],
    in_sum: &[S],
) -> Out<T, S> {
    let (x, in_max, in_sum) = (x.to_vec(), in_max.to_vec(), in_sum.to_vec());
    let (m, k) = (c.m, c.k);
    let rk = 32 / S::SIZE as u32;
    let ek = if T::SIZE == 2 && S::SIZE == 4 { 16 } else { rk };
    let (flags, tmp_bytes, ori_k) = (c.flags, c.tmp_bytes, c.ori_k);
    run_p(product, move |ub| {
        let src = ub.from(&x);
        // Large cases run in place (the 64 KiB harness).
        let dst = if m * k * T::SIZE as u32 > 16384 {
            src
        } else {
            ub.tensor::<T>(m * k, T::default())
        };
        let max = ub.tensor::<S>(m * rk, S::default());
        let sum = ub.tensor::<S>(m * rk, S::default());
        let exp_max = ub.tensor::<T>(m * ek, T::default());
        let imax = ub.tensor::<S>(m * rk, S::default());
        let isum = ub.tensor::<S>(m * rk, S::default());
        for r in 0..m {
            for j in 0..rk {
                imax.set_value(r * rk + j, in_max[r as usize])?;
                isum.set_value(r * rk + j, in_sum[r as usize])?;
            }
        }
        let tmp = ub.tensor::<u8>(tmp_bytes, 0);
        let tiling = flash_v2_tiling(
            m,
            k,
            T::SIZE as u32,
            S::SIZE as u32,
            tmp_bytes,
            flags.is_basic_block,
            false,
        );
        let shape = SoftMaxShapeInfo {
            src_m: m,
            src_k: k,
            ori_src_m: m,
            ori_src_k: ori_k,
        };
        softmax_flash_v2(
            &dst,
            &sum,
            &max,
            &src,
            &exp_max,
            &isum,
            &imax,
            Tmp::Shared(&tmp),
            &tiling,
            shape,
            flags,
        )?;
        let read = |t: &LocalTensor<T>, n: u32| (0..n).map(|i| t.get_value(i).unwrap()).collect();
        let reads = |t: &LocalTensor<S>, n: u32| (0..n).map(|i| t.get_value(i).unwrap()).collect();
        Ok(Out {
            dst: read(&dst, m * k),
            max: reads(&max, m * rk),
            sum: reads(&sum, m * rk),
            exp_max: read(&exp_max, m * ek),
            src: read(&src, m * k),
        })
    })
}

fn flags(update: bool, basic: bool) -> FlashV2Flags {
    FlashV2Flags {
        is_update: update,
        is_basic_block: basic,
        ..Default::default()
    }
}

/// Float rows with edge values (signed zeros, a denormal, a large spread).
fn float_input(m: u32, k: u32, seed: u64) -> Vec<f32> {
    let mut x = values((m * k) as usize, seed, 8.0);
    x[1] = 0.0;
    x[2] = -0.0;
    x[3] = 1e-40;
    let n = x.len();
    x[(k + 1) as usize % n] = 60.0;
    x[(k + 2) as usize % n] = -90.0;
    x
}

fn check_f32(product: &str, c: &Case, seed: u64) {
    let (m, k) = (c.m, c.k);
    let x = float_input(m, k, seed);
    let in_max: Vec<f32> = values(m as usize, seed + 1, 9.0);
    let in_sum: Vec<f32> = values(m as usize, seed + 2, 50.0)
        .iter()
        .map(|v| v.abs() + 1.0)
        .collect();
    let out = run_case::<f32, f32>(product, c, &x, &in_max, &in_sum);
    let ctx = format!("{product} m={m} k={k} ori={} {:?}", c.ori_k, c.flags);
    for r in 0..m as usize {
        let row = &x[r * k as usize..r * k as usize + c.ori_k as usize];
        let prev = c.flags.is_update.then(|| (in_max[r], in_sum[r]));
        let (d, mx, sm, em) = emulate(row, prev, c.flags.is_basic_block);
        for j in 0..8 {
            assert_eq!(
                out.max[r * 8 + j].to_bits(),
                mx.to_bits(),
                "{ctx} max row {r}"
            );
            assert_eq!(
                out.sum[r * 8 + j].to_bits(),
                sm.to_bits(),
                "{ctx} sum row {r}: {} vs {sm}",
                out.sum[r * 8 + j]
            );
            if c.flags.is_update {
                assert_eq!(
                    out.exp_max[r * 8 + j].to_bits(),
                    em.to_bits(),
                    "{ctx} expMax row {r}"
                );
            }
        }
        for (j, v) in d.iter().enumerate() {
            let got = out.dst[r * k as usize + j];
            assert_eq!(
                got.to_bits(),
                v.to_bits(),
                "{ctx} row {r} col {j}: {got} vs {v}"
            );
        }
    }
}

#[test]
fn float_general_path_bit_exact() {
    for product in ["A2", "310P"] {
        for &(m, k, ori) in &[
            (3, 16, 16),
            (5, 40, 37),
            (10, 64, 64),
            (7, 96, 90),
            (9, 200, 200),
            (4, 640, 640),
        ] {
            for update in [false, true] {
                // Room for 3 rows per pass: passes and a tail pass.
                let tmp = 3 * (8 + 64) * 4 + 64;
                let c = Case {
                    m,
                    k,
                    ori_k: ori,
                    tmp_bytes: tmp,
                    flags: flags(update, false),
                };
                check_f32(product, &c, (m * k) as u64);
            }
        }
    }
}

#[test]
fn float_basic_block_path_bit_exact() {
    for product in ["A2", "310P"] {
        for &(m, k) in &[
            (16, 512),
            (8, 1024),
            (16, 128),
            (8, 64),
            (8, 640),
            (24, 192),
        ] {
            for update in [false, true] {
                let tmp = flash_v2_min_tmp_size(m, k, 4, 4, true, false) * 2;
                let c = Case {
                    m,
                    k,
                    ori_k: k,
                    tmp_bytes: tmp,
                    flags: flags(update, true),
                };
                check_f32(product, &c, (m + k) as u64);
            }
        }
    }
}

#[test]
fn basic_block_float_leaves_its_device_side_effects() {
    // Without isUpdate the basic-block float path subtracts the max in src.
    let (m, k) = (8u32, 128u32);
    let x = float_input(m, k, 5);
    let c = Case {
        m,
        k,
        ori_k: k,
        tmp_bytes: 8192,
        flags: flags(false, true),
    };
    let out = run_case::<f32, f32>("A2", &c, &x, &[0.0; 8], &[0.0; 8]);
    for r in 0..m as usize {
        let mx = out.max[r * 8];
        for j in 0..k as usize {
            assert_eq!(
                out.src[r * k as usize + j].to_bits(),
                (x[r * k as usize + j] - mx).to_bits()
            );
        }
    }
}

/// Half rows (and half or float stats) against the float emulation narrowed.
fn check_half<S: Element>(
    product: &str,
    c: &Case,
    seed: u64,
    to_s: fn(f32) -> S,
    from_s: fn(S) -> f32,
) {
    let (m, k) = (c.m, c.k);
    let x: Vec<f16> = values((m * k) as usize, seed, 6.0)
        .iter()
        .map(|&v| f16::from_f32(v))
        .collect();
    let in_max: Vec<S> = values(m as usize, seed + 1, 5.0)
        .iter()
        .map(|&v| to_s(v))
        .collect();
    let in_sum: Vec<S> = values(m as usize, seed + 2, 30.0)
        .iter()
        .map(|&v| to_s(v.abs() + 1.0))
        .collect();
    let out = run_case::<f16, S>(product, c, &x, &in_max, &in_sum);
    let rk = 32 / S::SIZE;
    let ek = if S::SIZE == 4 { 16 } else { rk };
    let ctx = format!("{product} m={m} k={k} {:?} S={}", c.flags, S::DTYPE);
    let narrow = |v: f32| narrow(product, v);
    for r in 0..m as usize {
        let row: Vec<f32> = (0..k as usize)
            .map(|j| x[r * k as usize + j].to_f32())
            .collect();
        let prev = c
            .flags
            .is_update
            .then(|| (from_s(in_max[r]), from_s(in_sum[r])));
        let (d, mx, sm, em) = emulate(&row, prev, c.flags.is_basic_block);
        let (gm, gs) = (from_s(out.max[r * rk]), from_s(out.sum[r * rk]));
        let (wm, ws) = if S::SIZE == 2 {
            (narrow(mx).to_f32(), narrow(sm).to_f32())
        } else {
            (mx, sm)
        };
        assert_eq!(gm.to_bits(), wm.to_bits(), "{ctx} max row {r}");
        assert_eq!(
            gs.to_bits(),
            ws.to_bits(),
            "{ctx} sum row {r}: {gs} vs {ws}"
        );
        if c.flags.is_update {
            for j in 0..ek {
                assert_eq!(
                    out.exp_max[r * ek + j].to_bits(),
                    narrow(em).to_bits(),
                    "{ctx} expMax row {r}"
                );
            }
        }
        for (j, v) in d.iter().enumerate() {
            assert_eq!(
                out.dst[r * k as usize + j].to_bits(),
                narrow(*v).to_bits(),
                "{ctx} row {r} col {j}"
            );
        }
    }
}

#[test]
fn half_paths_round_through_float() {
    for product in ["A2", "310P"] {
        for update in [false, true] {
            for basic in [false, true] {
                let (m, k) = if basic { (16, 128) } else { (5, 48) };
                let tmp = flash_v2_min_tmp_size(m, k, 2, 2, basic, false) * 2;
                let c = Case {
                    m,
                    k,
                    ori_k: k,
                    tmp_bytes: tmp,
                    flags: flags(update, basic),
                };
                check_half::<f16>(product, &c, 7 + m as u64, f16::from_f32, |v| v.to_f32());
                let tmp = flash_v2_min_tmp_size(m, k, 2, 4, basic, false) * 2;
                let c = Case {
                    m,
                    k,
                    ori_k: k,
                    tmp_bytes: tmp,
                    flags: flags(update, basic),
                };
                check_half::<f32>(product, &c, 9 + m as u64, |v| v, |v| v);
            }
        }
    }
}

#[test]
fn documented_formula_within_float_rounding() {
    // The page's Python: x_max = max(inmax, rowmax), dst = exp(x - x_max), exp_max =
    // exp(inmax - x_max), x_sum = exp_max * insum + Σ dst.
    let (m, k) = (4u32, 256u32);
    let x = values((m * k) as usize, 21, 10.0);
    let (im, is) = (vec![3.0f32, 12.0, -4.0, 9.5], vec![2.0f32, 7.0, 1.0, 100.0]);
    let c = Case {
        m,
        k,
        ori_k: k,
        tmp_bytes: 8192,
        flags: flags(true, false),
    };
    let out = run_case::<f32, f32>("A2", &c, &x, &im, &is);
    for r in 0..m as usize {
        let row = &x[r * k as usize..(r + 1) * k as usize];
        let mx = row.iter().fold(im[r] as f64, |a, &v| a.max(v as f64));
        let s: f64 = row.iter().map(|&v| (v as f64 - mx).exp()).sum::<f64>()
            + (im[r] as f64 - mx).exp() * is[r] as f64;
        assert!(
            ((out.sum[r * 8] as f64 - s) / s).abs() < 1e-6,
            "row {r}: {} vs {s}",
            out.sum[r * 8]
        );
        assert_eq!(out.max[r * 8] as f64, mx);
    }
}

#[test]
fn kernel_retiling_matches_the_device_formula() {
    // Basic blocks of 16 × 512 floats with a minimal buffer: re-tiled for 16 × 448 → 8 rows.
    let t = flash_v2_kernel_tiling(16, 448, 4, 4, 576, true, false, false);
    assert_eq!((t.split_m, t.range_m, t.tail_m), (8, 2, 0));
    let t = flash_v2_kernel_tiling(10, 48, 2, 2, 2000, false, false, false);
    // 2000 / (2 · 16 + 48 + 64) = 13 ≥ 10 rows.
    assert_eq!((t.split_m, t.reduce_k, t.range_m), (10, 16, 1));
    let t = flash_v2_kernel_tiling(40, 64, 2, 2, 1000, false, false, true);
    // 1000 / 144 = 6 rows (below 16: kept).
    assert_eq!((t.split_m, t.tail_m), (6, 4));
    // A call whose shape differs from the tiling's is re-tiled for the buffer.
    let (m, k) = (12u32, 64u32);
    let x = float_input(m, k, 3);
    let xs = x.clone();
    let out: Vec<f32> = run_p("A2", move |ub| {
        let src = ub.from(&xs);
        let dst = ub.tensor::<f32>(m * k, 0.0);
        let st: Vec<LocalTensor<f32>> = (0..5).map(|_| ub.tensor::<f32>(m * 8, 0.0)).collect();
        let tmp = ub.tensor::<u8>(4 * 72 * 5, 0);
        let stale = flash_v2_tiling(4, 64, 4, 4, 4 * 72 * 5, false, false);
        softmax_flash_v2(
            &dst,
            &st[0],
            &st[1],
            &src,
            &st[2],
            &st[3],
            &st[4],
            Tmp::Shared(&tmp),
            &stale,
            SoftMaxShapeInfo::default_for(m, k),
            FlashV2Flags::default(),
        )?;
        Ok((0..m * 8).map(|i| st[0].get_value(i).unwrap()).collect())
    });
    for r in 0..m as usize {
        let (_, _, s, _) = emulate(&x[r * 64..(r + 1) * 64], None, false);
        assert_eq!(out[r * 8].to_bits(), s.to_bits(), "row {r}");
    }
}

#[test]
fn checks_name_the_parameter() {
    let call = |tmp_bytes: u32, k: u32, fl: FlashV2Flags| {
        move |ub: &mut ub_harness::Ub| {
            let src = ub.tensor::<f32>(16 * k, 0.0);
            let dst = ub.tensor::<f32>(16 * k, 0.0);
            let st: Vec<LocalTensor<f32>> = (0..5).map(|_| ub.tensor::<f32>(128, 0.0)).collect();
            let tmp = ub.tensor::<u8>(tmp_bytes, 0);
            let t = flash_v2_tiling(16, k, 4, 4, 8192, fl.is_basic_block, false);
            softmax_flash_v2(
                &dst,
                &st[0],
                &st[1],
                &src,
                &st[2],
                &st[3],
                &st[4],
                Tmp::Shared(&tmp),
                &t,
                SoftMaxShapeInfo::default_for(16, k),
                fl,
            )
        }
    };
    let e = error_on("A2", call(64, 64, flags(true, false)));
    assert_eq!(e.category, Category::Size, "{e}");
    assert!(e.message.contains("too small"), "{e}");
    let e = error_on("A2", call(8192, 20, flags(false, false)));
    assert_eq!(e.category, Category::Align, "{e}");
    let nz = FlashV2Flags {
        is_data_format_nz: true,
        ..Default::default()
    };
    // NZ: whole 16-column blocks; at least 48 + srcK floats of buffer; not with WITHOUT_BRC.
    let e = error_on("A2", call(8192, 24, nz));
    assert_eq!(e.category, Category::Align, "{e}");
    assert!(e.message.contains("16"), "{e}");
    let e = error_on("A2", call(256, 64, nz));
    assert_eq!(e.category, Category::Size, "{e}");
    let nz_m1 = FlashV2Flags {
        config: SoftmaxConfig {
            mode: SoftmaxMode::OutputWithoutBrc,
            ..Default::default()
        },
        ..nz
    };
    let e = error_on("A2", call(8192, 64, nz_m1));
    assert_eq!(e.category, Category::Unsupported, "{e}");
    assert!(e.message.contains("isDataFormatNZ"), "{e}");
    let m1 = FlashV2Flags {
        config: SoftmaxConfig {
            mode: SoftmaxMode::OutputWithoutBrc,
            ..Default::default()
        },
        ..Default::default()
    };
    let e = error_on("310P", call(8192, 64, m1));
    assert_eq!(e.category, Category::Unsupported, "{e}");
    assert!(e.message.contains("SOFTMAX_OUTPUT_WITHOUT_BRC"), "{e}");
    let e = error_on("A2", |ub| {
        let x = ub.tensor::<i32>(128, 0);
        let tmp = ub.tensor::<u8>(4096, 0);
        let t = flash_v2_tiling(2, 64, 4, 4, 4096, false, false);
        softmax_flash_v2(
            &x,
            &x,
            &x,
            &x,
            &x,
            &x,
            &x,
            Tmp::Shared(&tmp),
            &t,
            SoftMaxShapeInfo::default_for(2, 64),
            FlashV2Flags::default(),
        )
    });
    assert_eq!(e.category, Category::Type, "{e}");
    let e = error_on("A2", |ub| {
        // isBasicBlock with rows that are not a multiple of 8.
        let src = ub.tensor::<f32>(5 * 64, 0.0);
        let st: Vec<LocalTensor<f32>> = (0..5).map(|_| ub.tensor::<f32>(40, 0.0)).collect();
        let tmp = ub.tensor::<u8>(8192, 0);
        let t = flash_v2_tiling(5, 64, 4, 4, 8192, false, false);
        softmax_flash_v2(
            &src,
            &st[0],
            &st[1],
            &src,
            &st[2],
            &st[3],
            &st[4],
            Tmp::Shared(&tmp),
            &t,
            SoftMaxShapeInfo::default_for(5, 64),
            flags(false, true),
        )
    });
    assert_eq!(e.category, Category::Range, "{e}");
    assert!(e.message.contains("isBasicBlock"), "{e}");
}

/// Max absolute error of dst (in (0, 1]) and relative error of expSum against float64 on 4096 values in (−8, 8) per type
/// pair and product (printed for docs/high-level/softmax-flash.md).
#[test]
fn error_against_float64() {
    let (m, k) = (32u32, 128u32);
    let x = values((m * k) as usize, 77, 8.0);
    let im: Vec<f32> = values(m as usize, 78, 8.0);
    let is: Vec<f32> = values(m as usize, 79, 40.0)
        .iter()
        .map(|v| v.abs() + 1.0)
        .collect();
    let c = Case {
        m,
        k,
        ori_k: k,
        tmp_bytes: 20000,
        flags: flags(true, false),
    };
    for product in ["A2", "310P"] {
        let xh: Vec<f16> = x.iter().map(|&v| f16::from_f32(v)).collect();
        let f = run_case::<f32, f32>(product, &c, &x, &im, &is);
        let mixed = run_case::<f16, f32>(product, &c, &xh, &im, &is);
        let imh: Vec<f16> = im.iter().map(|&v| f16::from_f32(v)).collect();
        let ish: Vec<f16> = is.iter().map(|&v| f16::from_f32(v)).collect();
        let h = run_case::<f16, f16>(product, &c, &xh, &imh, &ish);
        let mut worst = [[0.0f64; 2]; 3];
        for r in 0..m as usize {
            for (t, xin, imr, isr) in [
                (0, &x, im[r] as f64, is[r] as f64),
                (
                    1,
                    &xh.iter().map(|v| v.to_f32()).collect(),
                    im[r] as f64,
                    is[r] as f64,
                ),
                (
                    2,
                    &xh.iter().map(|v| v.to_f32()).collect(),
                    imh[r].to_f32() as f64,
                    ish[r].to_f32() as f64,
                ),
            ] {
                let row = &xin[r * k as usize..(r + 1) * k as usize];
                let mx = row.iter().fold(imr, |a, &v| a.max(v as f64));
                let s = row.iter().map(|&v| (v as f64 - mx).exp()).sum::<f64>()
                    + (imr - mx).exp() * isr;
                let (gs, gd): (f64, Vec<f64>) = match t {
                    0 => (
                        f.sum[r * 8] as f64,
                        f.dst[r * 128..(r + 1) * 128]
                            .iter()
                            .map(|&v| v as f64)
                            .collect(),
                    ),
                    1 => (
                        mixed.sum[r * 8] as f64,
                        mixed.dst[r * 128..(r + 1) * 128]
                            .iter()
                            .map(|v| v.to_f32() as f64)
                            .collect(),
                    ),
                    _ => (
                        h.sum[r * 16].to_f32() as f64,
                        h.dst[r * 128..(r + 1) * 128]
                            .iter()
                            .map(|v| v.to_f32() as f64)
                            .collect(),
                    ),
                };
                worst[t][1] = worst[t][1].max(((gs - s) / s).abs());
                for (j, &v) in row.iter().enumerate() {
                    let want = (v as f64 - mx).exp();
                    worst[t][0] = worst[t][0].max((gd[j] - want).abs());
                }
            }
        }
        println!("{product}: dst max abs / sum max rel err f32 {:.2e}/{:.2e}, half+float {:.2e}/{:.2e}, half {:.2e}/{:.2e}",
            worst[0][0], worst[0][1], worst[1][0], worst[1][1], worst[2][0], worst[2][1]);
        assert!(worst[0][0] < 1e-6 && worst[0][1] < 1e-6, "{worst:?}");
        assert!(worst[1][0] < 1e-3 && worst[1][1] < 1e-6, "{worst:?}");
        assert!(worst[2][0] < 1e-3 && worst[2][1] < 1e-3, "{worst:?}");
    }
}

// ---------------------------------------------------------------- SOFTMAX_OUTPUT_WITHOUT_BRC

fn m1_flags(update: bool, basic: bool) -> FlashV2Flags {
    FlashV2Flags {
        config: SoftmaxConfig {
            mode: SoftmaxMode::OutputWithoutBrc,
            ..Default::default()
        },
        ..flags(update, basic)
    }
}

/// (dst, max, sum, expMax, outReduceMax, inExpSum after the call) of one M1 call; max/sum one
/// value a row; the `outReduceMax` form when `T` = `S`.
type M1Out<T, S> = (Vec<T>, Vec<S>, Vec<S>, Vec<T>, Vec<S>, Vec<S>);

fn run_m1<T: Element, S: Element>(
    product: &str,
    c: &Case,
    x: &[T],
    in_max: &[S],
    in_sum: &[S],
) -> M1Out<T, S> {
    let (x, in_max, in_sum) = (x.to_vec(), in_max.to_vec(), in_sum.to_vec());
    let (m, k, flags, tmp_bytes, ori_k) = (c.m, c.k, c.flags, c.tmp_bytes, c.ori_k);
    let same = T::SIZE == S::SIZE;
    run_p(product, move |ub| {
        let src = ub.from(&x);
        // Large cases run in place (the 64 KiB harness).
        let dst = if m * k * T::SIZE as u32 > 16384 {
            src
        } else {
            ub.tensor::<T>(m * k, T::default())
        };
        // Row values packed; a one-row pass writes a whole block, so round up to 16.
        let n = m.div_ceil(16) * 16;
        let max = ub.tensor::<S>(n, S::default());
        let sum = ub.tensor::<S>(n, S::default());
        let rmax = ub.tensor::<S>(n, S::default());
        let exp_max = ub.tensor::<T>(n, T::default());
        let imax = ub.from(&in_max);
        let isum = ub.from(&in_sum);
        let tmp = ub.tensor::<u8>(tmp_bytes, 0);
        let (s1, s2) = (T::SIZE as u32, S::SIZE as u32);
        let basic = flags.is_basic_block;
        let tiling = flash_v2_kernel_tiling(m, k, s1, s2, tmp_bytes / 4, basic, false, true);
        let shape = SoftMaxShapeInfo {
            src_m: m,
            src_k: k,
            ori_src_m: m,
            ori_src_k: ori_k,
        };
        let t = Tmp::Shared(&tmp);
        if same {
            let c = |v: &LocalTensor<S>| v.reinterpret_cast::<T>();
            softmax_flash_v2_reduce_max(
                &dst,
                &c(&rmax),
                &c(&sum),
                &c(&max),
                &src,
                &exp_max,
                &c(&isum),
                &c(&imax),
                t,
                &tiling,
                shape,
                flags,
            )?;
        } else {
            softmax_flash_v2(
                &dst, &sum, &max, &src, &exp_max, &isum, &imax, t, &tiling, shape, flags,
            )?;
        }
        let rd = |t: &LocalTensor<T>, n: u32| (0..n).map(|i| t.get_value(i).unwrap()).collect();
        let rs = |t: &LocalTensor<S>| (0..m).map(|i| t.get_value(i).unwrap()).collect();
        Ok((
            rd(&dst, m * k),
            rs(&max),
            rs(&sum),
            rd(&exp_max, m),
            rs(&rmax),
            rs(&isum),
        ))
    })
}

/// One M1 case against the emulation (half results narrowed with the product's rounding).
fn check_m1<T: Element, S: Element>(
    product: &str,
    c: &Case,
    seed: u64,
    t_of: fn(f32) -> T,
    t_to: fn(T) -> f32,
    s_of: fn(f32) -> S,
    s_to: fn(S) -> f32,
) {
    let (m, k) = (c.m as usize, c.k as usize);
    let x: Vec<T> = float_input(c.m, c.k, seed).into_iter().map(t_of).collect();
    let in_max: Vec<S> = values(m, seed + 1, 9.0).into_iter().map(s_of).collect();
    let in_sum: Vec<S> = values(m, seed + 2, 50.0)
        .into_iter()
        .map(|v| s_of(v.abs() + 1.0))
        .collect();
    let (dst, max, sum, em, rmax, isum) = run_m1(product, c, &x, &in_max, &in_sum);
    let ctx = format!(
        "{product} m={m} k={k} ori={} {:?} T={} S={}",
        c.ori_k,
        c.flags,
        T::DTYPE,
        S::DTYPE
    );
    let nt = |v: f32| {
        if T::SIZE == 2 {
            narrow(product, v).to_f32()
        } else {
            v
        }
    };
    let ns = |v: f32| {
        if S::SIZE == 2 {
            narrow(product, v).to_f32()
        } else {
            v
        }
    };
    let bits = |a: f32, b: f32, what: &str, r: usize| {
        assert_eq!(a.to_bits(), b.to_bits(), "{ctx} {what} row {r}: {a} vs {b}")
    };
    for r in 0..m {
        let row: Vec<f32> = (0..c.ori_k as usize).map(|j| t_to(x[r * k + j])).collect();
        let prev = c
            .flags
            .is_update
            .then(|| (s_to(in_max[r]), s_to(in_sum[r])));
        let (d, mx, sm, e) = emulate(&row, prev, c.flags.is_basic_block);
        bits(s_to(max[r]), ns(mx), "max", r);
        bits(s_to(sum[r]), ns(sm), "sum", r);
        if c.flags.is_update {
            bits(t_to(em[r]), nt(e), "expMax", r);
            if T::SIZE == S::SIZE {
                let own = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
                bits(s_to(rmax[r]), ns(own), "outReduceMax", r);
            }
            if c.flags.is_basic_block && S::SIZE == 4 {
                // The float basic-block path leaves expMax · inExpSum in inExpSum.
                bits(s_to(isum[r]), e * s_to(in_sum[r]), "inExpSum", r);
            }
        }
        for (j, v) in d.iter().enumerate() {
            bits(t_to(dst[r * k + j]), nt(*v), &format!("col {j}"), r);
        }
    }
}

#[test]
fn without_brc_float_bit_exact() {
    let h = |v: f32| v;
    for update in [false, true] {
        for &(m, k, ori) in &[
            (3, 16, 16),
            (5, 40, 37),
            (10, 64, 64),
            (7, 96, 90),
            (9, 200, 200),
            (4, 640, 640),
            (1, 128, 128),
            (20, 24, 24),
        ] {
            // Room for 8 rows per pass: passes and a tail pass.
            let c = Case {
                m,
                k,
                ori_k: ori,
                tmp_bytes: 8 * (8 + 64) * 4 + 64,
                flags: m1_flags(update, false),
            };
            check_m1::<f32, f32>("A2", &c, (m * k) as u64, h, h, h, h);
        }
        for &(m, k) in &[
            (16, 512),
            (8, 1024),
            (16, 128),
            (8, 64),
            (8, 640),
            (24, 192),
        ] {
            let c = Case {
                m,
                k,
                ori_k: k,
                tmp_bytes: m * (64 * 2 + 8) * 4,
                flags: m1_flags(update, true),
            };
            check_m1::<f32, f32>("A2", &c, (m + k) as u64, h, h, h, h);
        }
    }
}

#[test]
fn without_brc_half_bit_exact() {
    let (hf, ht) = (
        f16::from_f32 as fn(f32) -> f16,
        (|v: f16| v.to_f32()) as fn(f16) -> f32,
    );
    let id = |v: f32| v;
    for update in [false, true] {
        for &(m, k, ori, basic) in &[
            (5, 48, 48, false),
            (21, 32, 30, false),
            (3, 144, 144, false),
            (16, 128, 128, true),
            (8, 512, 512, true),
        ] {
            // Passes of 8 rows (16 for half data when the rows need more than one pass).
            let rows = if basic { m } else { 16.min(m) };
            let tmp = rows * (k + 3 * 8 + 64 + 16 + 8) * 4 + 64;
            let c = Case {
                m,
                k,
                ori_k: ori,
                tmp_bytes: tmp,
                flags: m1_flags(update, basic),
            };
            let seed = (m * k) as u64 + 3;
            check_m1::<f16, f16>("A2", &c, seed, hf, ht, hf, ht);
            if update || basic {
                check_m1::<f16, f32>("A2", &c, seed, hf, ht, id, id);
            }
        }
    }
}

#[test]
fn without_brc_half_float_general_no_update_keeps_the_device_overlap() {
    // The device's general path without isUpdate for half data with float max/sum puts its
    // reduction scratch 8 rows' floats into the widened rows (srcBuffer[splitM]): the sums
    // come out wrong on the device, and here.
    let (m, k) = (5u32, 48u32);
    let x: Vec<f16> = values((m * k) as usize, 11, 4.0)
        .into_iter()
        .map(f16::from_f32)
        .collect();
    let c = Case {
        m,
        k,
        ori_k: k,
        tmp_bytes: 16 * (k + 112) * 4,
        flags: m1_flags(false, false),
    };
    let (_, _, sum, _, _, _) = run_m1::<f16, f32>("A2", &c, &x, &[0.0; 5], &[0.0; 5]);
    let row: Vec<f32> = x[..k as usize].iter().map(|v| v.to_f32()).collect();
    let (_, _, want, _) = emulate(&row, None, false);
    assert_ne!(sum[0].to_bits(), want.to_bits());
}

// ---------------------------------------------------------------- NZ layout

/// The row sum of NZ data: 16 lanes (first column block, the further blocks added, the last
/// under the mask of its valid columns), lanes j and j + 8 added, one 8-value tree; a single
/// partial block is one WholeReduceSum.
fn nz_sum(d: &[f32], k: usize) -> f32 {
    let blocks = k / 16;
    let last = if d.len().is_multiple_of(16) {
        16
    } else {
        d.len() % 16
    };
    if blocks == 1 && last != 16 {
        let mut lanes = [0.0f32; 64];
        lanes[..last].copy_from_slice(&d[..last]);
        return tree(&lanes);
    }
    let mut acc = [0.0f32; 16];
    acc.copy_from_slice(&d[..16]);
    if blocks > 1 {
        for j in 1..blocks - 1 {
            for (i, a) in acc.iter_mut().enumerate() {
                *a += d[16 * j + i];
            }
        }
        for (i, a) in acc.iter_mut().enumerate().take(last) {
            *a += d[16 * (blocks - 1) + i];
        }
    }
    let f8: Vec<f32> = (0..8).map(|i| acc[i] + acc[i + 8]).collect();
    tree(&f8)
}

fn nz_flags(update: bool) -> FlashV2Flags {
    FlashV2Flags {
        is_data_format_nz: true,
        ..flags(update, false)
    }
}

/// One NZ call: `x` given row-major (m × k) and laid out as k / 16 column blocks of m × 16;
/// returns dst row-major and the raw max/sum/expMax tensors.
fn run_nz<T: Element, S: Element>(
    product: &str,
    c: &Case,
    x: &[T],
    in_max: &[S],
    in_sum: &[S],
) -> Out<T, S> {
    let (m, k) = (c.m as usize, c.k as usize);
    let mut nz = vec![T::default(); m * k];
    for i in 0..m {
        for j in 0..k {
            nz[(j / 16) * m * 16 + i * 16 + j % 16] = x[i * k + j];
        }
    }
    let (in_max, in_sum) = (in_max.to_vec(), in_sum.to_vec());
    let (mu, ku, flags, tmp_bytes, ori_k) = (c.m, c.k, c.flags, c.tmp_bytes, c.ori_k);
    let rk = 32 / S::SIZE as u32;
    let ek = if T::SIZE == 2 && S::SIZE == 4 { 16 } else { rk };
    let out = run_p(product, move |ub| {
        let src = ub.from(&nz);
        let dst = ub.tensor::<T>(mu * ku, T::default());
        let max = ub.tensor::<S>(mu * rk, S::default());
        let sum = ub.tensor::<S>(mu * rk, S::default());
        let exp_max = ub.tensor::<T>(mu * ek, T::default());
        let imax = ub.tensor::<S>(mu * rk, S::default());
        let isum = ub.tensor::<S>(mu * rk, S::default());
        for r in 0..mu {
            for j in 0..rk {
                imax.set_value(r * rk + j, in_max[r as usize])?;
                isum.set_value(r * rk + j, in_sum[r as usize])?;
            }
        }
        let tmp = ub.tensor::<u8>(tmp_bytes, 0);
        // A stale tiling: NZ calls always re-tile for the buffer.
        let tiling = flash_v2_tiling(1, 16, T::SIZE as u32, S::SIZE as u32, 4096, false, false);
        let shape = SoftMaxShapeInfo {
            src_m: mu,
            src_k: ku,
            ori_src_m: mu,
            ori_src_k: ori_k,
        };
        softmax_flash_v2(
            &dst,
            &sum,
            &max,
            &src,
            &exp_max,
            &isum,
            &imax,
            Tmp::Shared(&tmp),
            &tiling,
            shape,
            flags,
        )?;
        let read = |t: &LocalTensor<T>, n: u32| (0..n).map(|i| t.get_value(i).unwrap()).collect();
        let reads = |t: &LocalTensor<S>, n: u32| (0..n).map(|i| t.get_value(i).unwrap()).collect();
        Ok(Out {
            dst: read(&dst, mu * ku),
            max: reads(&max, mu * rk),
            sum: reads(&sum, mu * rk),
            exp_max: read(&exp_max, mu * ek),
            src: read(&src, mu * ku),
        })
    });
    let mut dst = vec![T::default(); m * k];
    for i in 0..m {
        for j in 0..k {
            dst[i * k + j] = out.dst[(j / 16) * m * 16 + i * 16 + j % 16];
        }
    }
    Out { dst, ..out }
}

#[allow(clippy::too_many_arguments)]
fn check_nz<T: Element, S: Element>(
    product: &str,
    c: &Case,
    seed: u64,
    t_of: fn(f32) -> T,
    t_to: fn(T) -> f32,
    s_of: fn(f32) -> S,
    s_to: fn(S) -> f32,
) {
    let (m, k, ori) = (c.m as usize, c.k as usize, c.ori_k as usize);
    let x: Vec<T> = float_input(c.m, c.k, seed).into_iter().map(t_of).collect();
    let in_max: Vec<S> = values(m, seed + 1, 9.0).into_iter().map(s_of).collect();
    let in_sum: Vec<S> = values(m, seed + 2, 50.0)
        .into_iter()
        .map(|v| s_of(v.abs() + 1.0))
        .collect();
    let out = run_nz(product, c, &x, &in_max, &in_sum);
    let ctx = format!(
        "{product} NZ m={m} k={k} ori={ori} {:?} T={} S={}",
        c.flags,
        T::DTYPE,
        S::DTYPE
    );
    let nt = |v: f32| {
        if T::SIZE == 2 {
            narrow(product, v).to_f32()
        } else {
            v
        }
    };
    let ns = |v: f32| {
        if S::SIZE == 2 {
            narrow(product, v).to_f32()
        } else {
            v
        }
    };
    let bits = |a: f32, b: f32, what: &str, r: usize| {
        assert_eq!(a.to_bits(), b.to_bits(), "{ctx} {what} row {r}: {a} vs {b}")
    };
    let rk = 32 / S::SIZE;
    let ek = if T::SIZE == 2 && S::SIZE == 4 { 16 } else { rk };
    for r in 0..m {
        let row: Vec<f32> = (0..ori).map(|j| t_to(x[r * k + j])).collect();
        let rmax = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let prev = c
            .flags
            .is_update
            .then(|| (s_to(in_max[r]), s_to(in_sum[r])));
        let mx = prev.map_or(rmax, |(im, _)| im.max(rmax));
        let d: Vec<f32> = row.iter().map(|&v| exp32(v - mx)).collect();
        let s = nz_sum(&d, k);
        let (sm, e) = match prev {
            None => (s, 0.0),
            Some((im, is)) => {
                let e = exp32(im - mx);
                (e * is + s, e)
            }
        };
        for j in 0..rk {
            bits(s_to(out.max[r * rk + j]), ns(mx), "max", r);
            bits(s_to(out.sum[r * rk + j]), ns(sm), "sum", r);
        }
        if c.flags.is_update {
            for j in 0..ek {
                bits(t_to(out.exp_max[r * ek + j]), nt(e), "expMax", r);
            }
        }
        for (j, v) in d.iter().enumerate() {
            bits(t_to(out.dst[r * k + j]), nt(*v), &format!("col {j}"), r);
        }
    }
}

#[test]
fn nz_bit_exact() {
    let id = |v: f32| v;
    let (hf, ht) = (
        f16::from_f32 as fn(f32) -> f16,
        (|v: f16| v.to_f32()) as fn(f16) -> f32,
    );
    for product in ["A2", "310P"] {
        for update in [false, true] {
            // (m, k, oriK, rows per pass): passes with tail rows, one or more column blocks,
            // a partial last block, row counts that are and are not multiples of 8.
            for &(m, k, ori, rows) in &[
                (16, 64, 64, 8),
                (13, 48, 41, 5),
                (8, 16, 16, 8),
                (6, 16, 11, 6),
                (24, 128, 128, 16),
                (10, 32, 32, 4),
            ] {
                let c = Case {
                    m,
                    k,
                    ori_k: ori,
                    tmp_bytes: rows * (48 + k) * 4,
                    flags: nz_flags(update),
                };
                let seed = (m * k + ori) as u64;
                check_nz::<f32, f32>(product, &c, seed, id, id, id, id);
                check_nz::<f16, f16>(product, &c, seed, hf, ht, hf, ht);
                check_nz::<f16, f32>(product, &c, seed, hf, ht, id, id);
            }
        }
    }
}

/// Max abs error of dst and max rel error of expSum against float64 for the NZ layout and the
/// SOFTMAX_OUTPUT_WITHOUT_BRC mode (4096 values in (−8, 8), isUpdate; printed for the docs).
#[test]
fn nz_and_without_brc_error_against_float64() {
    let (m, k) = (32u32, 128u32);
    let x = values((m * k) as usize, 77, 8.0);
    let im: Vec<f32> = values(m as usize, 78, 8.0);
    let is: Vec<f32> = values(m as usize, 79, 40.0)
        .iter()
        .map(|v| v.abs() + 1.0)
        .collect();
    let h = |v: &[f32]| v.iter().map(|&a| f16::from_f32(a)).collect::<Vec<f16>>();
    let (xh, imh, ish) = (h(&x), h(&im), h(&is));
    let hf = |v: &[f16]| v.iter().map(|a| a.to_f32()).collect::<Vec<f32>>();
    // (data, inMax, inSum, dst, sum) as f32, per type pair.
    let worst = |xin: &[f32], imr: &[f32], isr: &[f32], dst: &[f32], sum: &[f32], rk: usize| {
        let mut w = [0.0f64; 2];
        for r in 0..m as usize {
            let row = &xin[r * k as usize..(r + 1) * k as usize];
            let mx = row.iter().fold(imr[r] as f64, |a, &v| a.max(v as f64));
            let s = row.iter().map(|&v| (v as f64 - mx).exp()).sum::<f64>()
                + (imr[r] as f64 - mx).exp() * isr[r] as f64;
            w[1] = w[1].max(((sum[r * rk] as f64 - s) / s).abs());
            for (j, &v) in row.iter().enumerate() {
                let got = dst[r * k as usize + j] as f64;
                w[0] = w[0].max((got - (v as f64 - mx).exp()).abs());
            }
        }
        w
    };
    let nz = Case {
        m,
        k,
        ori_k: k,
        tmp_bytes: 8 * (48 + k) * 4,
        flags: nz_flags(true),
    };
    let m1 = Case {
        tmp_bytes: 16 * (k + 112) * 4,
        flags: m1_flags(true, false),
        ..nz
    };
    for product in ["A2", "310P"] {
        let f = run_nz::<f32, f32>(product, &nz, &x, &im, &is);
        let a = worst(&x, &im, &is, &f.dst, &f.sum, 8);
        let f = run_nz::<f16, f32>(product, &nz, &xh, &im, &is);
        let b = worst(&hf(&xh), &im, &is, &hf(&f.dst), &f.sum, 8);
        let f = run_nz::<f16, f16>(product, &nz, &xh, &imh, &ish);
        let c = worst(&hf(&xh), &hf(&imh), &hf(&ish), &hf(&f.dst), &hf(&f.sum), 16);
        println!("{product} NZ: dst abs / sum rel f32 {:.2e}/{:.2e}, half+float {:.2e}/{:.2e}, half {:.2e}/{:.2e}",
            a[0], a[1], b[0], b[1], c[0], c[1]);
        assert!(a[0] < 1e-6 && a[1] < 1e-6, "{a:?}");
        assert!(b[0] < 1e-3 && b[1] < 1e-6, "{b:?}");
        assert!(c[0] < 1e-3 && c[1] < 1e-3, "{c:?}");
    }
    let (d, _, s, _, _, _) = run_m1::<f32, f32>("A2", &m1, &x, &im, &is);
    let a = worst(&x, &im, &is, &d, &s, 1);
    let (d, _, s, _, _, _) = run_m1::<f16, f32>("A2", &m1, &xh, &im, &is);
    let b = worst(&hf(&xh), &im, &is, &hf(&d), &s, 1);
    let (d, _, s, _, _, _) = run_m1::<f16, f16>("A2", &m1, &xh, &imh, &ish);
    let c = worst(&hf(&xh), &hf(&imh), &hf(&ish), &hf(&d), &hf(&s), 1);
    println!("A2 WITHOUT_BRC: dst abs / sum rel f32 {:.2e}/{:.2e}, half+float {:.2e}/{:.2e}, half {:.2e}/{:.2e}",
        a[0], a[1], b[0], b[1], c[0], c[1]);
    assert!(a[0] < 1e-6 && a[1] < 1e-6, "{a:?}");
    assert!(b[0] < 1e-3 && b[1] < 1e-6, "{b:?}");
    assert!(c[0] < 1e-3 && c[1] < 1e-3, "{c:?}");
}
