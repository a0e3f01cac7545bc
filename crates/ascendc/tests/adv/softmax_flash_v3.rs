//! SoftmaxFlashV3: bit-exact against a host emulation of the device's instruction order (the
//! block-wise mean of the eighths, the α/(1 − α) shift, the row max and sum on the 512+ path,
//! the mean/max/sum updates, Exp in float, the CAST_ROUND narrowing), without and with update,
//! over one pass, several passes and a tail, in place as the vendor example calls it; the
//! page's example; the host helpers; the checks; the refusal on 310P.

use crate::ub_harness;

use ascendc::adv::activation::softmax::flash_v3::{
    softmax_flash_v3_max_min_tmp_size, softmax_flash_v3_tiling,
};
use ascendc::adv::activation::softmax::{softmax_flash_v3, SoftMaxParams, SoftMaxTiling};
use ascendc::adv::common::Tmp;
use ascendc::numeric::{round_to_format, saturate_f16, HALF};
use ascendc::prelude::*;
use ascendc::{Category, RoundMode};
use ub_harness::{error_on, run_p};

// ---------------------------------------------------------------- host emulation

fn tree(v: &[f32], f: fn(f32, f32) -> f32) -> f32 {
    let mut v = v.to_vec();
    while v.len() > 1 {
        v = v.chunks(2).map(|p| f(p[0], p[1])).collect();
    }
    v[0]
}

fn add(a: f32, b: f32) -> f32 {
    a + b
}

/// The simulator's NaN-propagating max (+0 over −0).
fn nmax(a: f32, b: f32) -> f32 {
    if a.is_nan() {
        a
    } else if b.is_nan() || b > a || (b == a && a.is_sign_negative()) {
        b
    } else {
        a
    }
}

/// The 64 lanes of a row after the 512-head block reduction and the lane-wise folds.
fn fold64(x: &[f32], f: fn(f32, f32) -> f32) -> [f32; 64] {
    let mut acc = [0.0f32; 64];
    for (l, a) in acc.iter_mut().enumerate() {
        *a = tree(&x[8 * l..8 * l + 8], f);
    }
    for b in 8..x.len() / 64 {
        for (l, a) in acc.iter_mut().enumerate() {
            *a = f(x[b * 64 + l], *a);
        }
    }
    acc
}

fn reduce(x: &[f32], f: fn(f32, f32) -> f32) -> f32 {
    let acc = fold64(x, f);
    let eights: Vec<f32> = acc.chunks(8).map(|c| tree(c, f)).collect();
    tree(&eights, f)
}

fn exp32(x: f32) -> f32 {
    (x as f64).exp() as f32
}

/// The previous step's statistics of a row.
#[derive(Clone, Copy)]
struct Prev {
    mean: f32,
    max: f32,
    sum: f32,
}

struct Row {
    dst: Vec<f16>,
    mean: f32,
    max: f32,
    sum: f32,
    exp_max: f16,
}

/// float → half as the device's `CAST_ROUND` narrows (half away from zero) in the default
/// saturation mode (NaN → 0, ±Inf → ±65504).
fn narrow(v: f32) -> f16 {
    let r = round_to_format(v as f64, HALF, RoundMode::CAST_ROUND);
    saturate_f16(f16::from_f64(r))
}

/// One row; `in_place`: the outputs are the inputs' tensors, so a statistic read after its
/// output was written reads the new value (as the device's instruction order makes it).
fn emulate_row(src: &[f16], alpha: f32, update: Option<(Prev, u32)>, in_place: bool) -> Row {
    let k = src.len();
    let base_k = (k / 8) as u32;
    let mut x: Vec<f32> = src.iter().map(|h| h.to_f32()).collect();
    let acc = fold64(&x, add);
    let local: Vec<f32> = acc
        .chunks(8)
        .map(|c| tree(c, add) * (1.0f32 / base_k as f32))
        .collect();
    let pm = tree(&local, add) * (1.0f32 / 8.0);
    let a = alpha / (1.0f32 - alpha);
    let shift: Vec<f32> = local.iter().map(|&l| (pm - l) * a).collect();
    for (j, v) in x.iter_mut().enumerate() {
        *v -= shift[j / base_k as usize];
    }
    let rmax = reduce(&x, nmax);
    let (mean, max, shift_curr, sum0, em) = match update {
        None => {
            // shiftCurr = (pass mean − mean) · a with mean = the pass mean: 0, or NaN for ±Inf.
            let mean = pm;
            let sc = (pm - mean) * a;
            (mean, rmax + sc, sc, None, 0.0)
        }
        Some((p, n)) => {
            let mean = (p.mean * (n as f32 - 1.0) + pm) * (1.0f32 / n as f32);
            let sc = (pm - mean) * a;
            let max = rmax + sc;
            let in_mean = if in_place { mean } else { p.mean };
            let in_max = if in_place { max } else { p.max };
            let sp = (in_mean - mean) * a;
            let max = nmax(max, in_max + sp);
            let in_max = if in_place { max } else { p.max };
            let em = exp32(sp + (in_max - max));
            (mean, max, sc, Some(em * p.sum), em)
        }
    };
    let m2 = max - shift_curr;
    let y: Vec<f32> = x.iter().map(|&v| exp32(v - m2)).collect();
    let rs = reduce(&y, add);
    Row {
        dst: y.iter().map(|&v| narrow(v)).collect(),
        mean,
        max,
        sum: sum0.map_or(rs, |s| s + rs),
        exp_max: narrow(em),
    }
}

/// Deterministic half values in (−lim, lim).
fn values(n: usize, seed: u64, lim: f32) -> Vec<f16> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            f16::from_f32(((s >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * lim)
        })
        .collect()
}

// ---------------------------------------------------------------- kernel runs

struct Out {
    dst: Vec<f16>,
    mean: Vec<f32>,
    max: Vec<f32>,
    sum: Vec<f32>,
    exp_max: Vec<f16>,
}

/// One call on `m` rows of `k` with a buffer of `tmp_bytes`; `prev` per row for the update;
/// `in_place`: the statistics are the inputs' tensors (as the vendor example calls it).
fn run_v3(
    x: &[f16],
    m: u32,
    k: u32,
    tmp_bytes: u32,
    prev: Option<(&[Prev], u32)>,
    in_place: bool,
    alpha: f32,
) -> Out {
    let x = x.to_vec();
    let prev: Option<(Vec<Prev>, u32)> = prev.map(|(p, n)| (p.to_vec(), n));
    run_p("A2", move |ub| {
        let src = ub.from(&x);
        let dst = ub.tensor::<f16>(m * k, f16::ZERO);
        let exp_max = ub.tensor::<f16>(m * 16, f16::ZERO);
        let stat = |ub: &mut ub_harness::Ub, f: fn(&Prev) -> f32| {
            let t = ub.tensor::<f32>(m * 8, 0.0);
            if let Some((p, _)) = &prev {
                for (i, r) in p.iter().enumerate() {
                    for j in 0..8 {
                        t.set_value(i as u32 * 8 + j, f(r)).unwrap();
                    }
                }
            }
            t
        };
        let in_mean = stat(ub, |p| p.mean);
        let in_sum = stat(ub, |p| p.sum);
        let in_max = stat(ub, |p| p.max);
        let (mean, sum, max) = if in_place {
            (in_mean, in_sum, in_max)
        } else {
            (
                ub.tensor::<f32>(m * 8, 0.0),
                ub.tensor::<f32>(m * 8, 0.0),
                ub.tensor::<f32>(m * 8, 0.0),
            )
        };
        let tmp = ub.tensor::<u8>(tmp_bytes, 0);
        let tiling = softmax_flash_v3_tiling(&[m as u64, k as u64], 2, 4, tmp_bytes);
        let loop_cnt = prev.as_ref().map_or(1, |p| p.1);
        let params = SoftMaxParams::new(m, k, loop_cnt, alpha);
        softmax_flash_v3(
            &dst,
            &mean,
            &sum,
            &max,
            &src,
            &exp_max,
            &in_mean,
            &in_sum,
            &in_max,
            Tmp::Shared(&tmp),
            &tiling,
            &params,
            prev.is_some(),
        )?;
        let rd = |t: &LocalTensor<f32>| (0..m * 8).map(|i| t.get_value(i).unwrap()).collect();
        Ok(Out {
            dst: (0..m * k).map(|i| dst.get_value(i).unwrap()).collect(),
            mean: rd(&mean),
            max: rd(&max),
            sum: rd(&sum),
            exp_max: (0..m * 16).map(|i| exp_max.get_value(i).unwrap()).collect(),
        })
    })
}

fn same(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

#[allow(clippy::too_many_arguments)]
fn check(
    x: &[f16],
    m: u32,
    k: u32,
    tmp_bytes: u32,
    prev: Option<(&[Prev], u32)>,
    in_place: bool,
    alpha: f32,
    what: &str,
) {
    let out = run_v3(x, m, k, tmp_bytes, prev, in_place, alpha);
    for r in 0..m as usize {
        let row = &x[r * k as usize..(r + 1) * k as usize];
        let e = emulate_row(row, alpha, prev.map(|(p, n)| (p[r], n)), in_place);
        for j in 0..8 {
            let i = r * 8 + j;
            assert!(
                same(out.mean[i], e.mean),
                "{what} mean row {r}: {} vs {}",
                out.mean[i],
                e.mean
            );
            assert!(
                same(out.max[i], e.max),
                "{what} max row {r}: {} vs {}",
                out.max[i],
                e.max
            );
            assert!(
                same(out.sum[i], e.sum),
                "{what} sum row {r}: {} vs {}",
                out.sum[i],
                e.sum
            );
        }
        if prev.is_some() {
            for j in 0..16 {
                let v = out.exp_max[r * 16 + j];
                assert!(
                    same(v.to_f32(), e.exp_max.to_f32()),
                    "{what} expMax row {r}: {v} vs {}",
                    e.exp_max
                );
            }
        }
        for (j, v) in e.dst.iter().enumerate() {
            let got = out.dst[r * k as usize + j];
            assert!(
                same(got.to_f32(), v.to_f32()),
                "{what} row {r} col {j}: {got} vs {v}"
            );
        }
    }
}

fn prevs(m: usize) -> Vec<Prev> {
    (0..m)
        .map(|i| Prev {
            mean: 0.25 * i as f32 - 0.5,
            max: 1.5 + 0.75 * i as f32,
            sum: 3.0 + i as f32,
        })
        .collect()
}

fn min_tmp(k: u32) -> u32 {
    softmax_flash_v3_max_min_tmp_size(&[1, k as u64], 2, 4).1
}

#[test]
fn no_update_is_bit_exact() {
    for (m, k, rows) in [(8u32, 512u32, 8u32), (8, 1024, 2), (8, 576, 8)] {
        let mut x = values((m * k) as usize, (m * k) as u64, 6.0);
        x[0] = f16::from_f32(0.0);
        x[1] = f16::from_f32(-0.0);
        x[2] = f16::from_bits(0x0001); // the smallest half denormal
        x[3] = f16::from_f32(11.0);
        check(
            &x,
            m,
            k,
            min_tmp(k) * rows,
            None,
            false,
            0.9375,
            "no update",
        );
    }
}

#[test]
fn update_is_bit_exact_over_passes_and_tails() {
    let p = prevs(16);
    // One pass of 8 rows; 4 passes of 4 rows; 5 passes of 3 rows and a tail of 1.
    for (m, k, rows, alpha) in [
        (8u32, 1024u32, 2u32, 0.9375f32),
        (16, 512, 4, 0.96889),
        (16, 512, 3, 0.984497),
    ] {
        let x = values((m * k) as usize, 7 + (m * k + rows) as u64, 8.0);
        let what = format!("update m={m} k={k} rows/pass={rows}");
        check(
            &x,
            m,
            k,
            min_tmp(k) * rows,
            Some((&p[..m as usize], 3)),
            false,
            alpha,
            &what,
        );
    }
}

#[test]
fn update_in_place_as_the_vendor_example_calls_it() {
    let (m, k) = (8u32, 1024u32);
    let x = values((m * k) as usize, 99, 5.0);
    let p = prevs(8);
    check(
        &x,
        m,
        k,
        min_tmp(k) + 4096,
        Some((&p, 2)),
        true,
        0.9375,
        "in place",
    );
}

#[test]
fn large_values_and_nan_propagate() {
    let (m, k) = (8u32, 512u32);
    let mut x = values((m * k) as usize, 5, 2.0);
    x[k as usize + 7] = f16::from_f32(60000.0);
    x[2 * k as usize] = f16::NAN;
    x[3 * k as usize + 1] = f16::INFINITY;
    x[4 * k as usize + 2] = f16::NEG_INFINITY;
    let p = prevs(8);
    check(
        &x,
        m,
        k,
        min_tmp(k) * 8,
        Some((&p, 4)),
        false,
        0.9375,
        "edge",
    );
    let out = run_v3(&x, m, k, min_tmp(k) * 8, None, false, 0.9375);
    assert!(out.max[16].is_nan(), "a NaN in row 2 makes its max NaN");
}

/// The page's 调用示例: [8, 1024] ascending over 0 … 20, inMean/inExpSum/inMax 0.5, update.
/// The page does not give α or loopCnt, and its printed dst (0.0049 at [0][0]) needs a shift
/// between the first and last eighth that none of the recommended α (a = α/(1 − α) ≥ 15) gives,
/// so its shape of result is checked: each row peaks at 1.0 on its last elements, the values
/// inside an eighth rise as e^Δx, and everything is bit-exact against the emulation.
#[test]
fn page_example() {
    let (m, k) = (8u32, 1024u32);
    let x: Vec<f16> = (0..m * k)
        .map(|i| f16::from_f32(i as f32 * 20.0 / (m * k) as f32))
        .collect();
    let p = vec![
        Prev {
            mean: 0.5,
            max: 0.5,
            sum: 0.5
        };
        8
    ];
    let out = run_v3(&x, m, k, min_tmp(k) * 2, Some((&p, 2)), false, 0.9375);
    for r in 0..m as usize {
        let row = &out.dst[r * k as usize..(r + 1) * k as usize];
        assert_eq!(row[k as usize - 1].to_f32(), 1.0, "row {r}");
        assert!(
            row.iter().all(|v| v.to_f32() > 0.0 && v.to_f32() <= 1.0),
            "row {r}"
        );
    }
    let ratio = out.dst[1020].to_f32() / out.dst[1000].to_f32();
    let dx = x[1020].to_f32() - x[1000].to_f32();
    assert!((ratio - dx.exp()).abs() < 2e-3, "{ratio} vs e^{dx}");
    check(
        &x,
        m,
        k,
        min_tmp(k) * 2,
        Some((&p, 2)),
        false,
        0.9375,
        "page",
    );
}

#[test]
fn host_helpers() {
    // min = 4 · (8·5 + 2k + 64), max = rows × min.
    assert_eq!(
        softmax_flash_v3_max_min_tmp_size(&[2, 4, 1024], 2, 4),
        (8 * 8608, 8608)
    );
    assert_eq!(softmax_flash_v3_max_min_tmp_size(&[8, 1024], 4, 4), (0, 0));
    // 40 KiB: 10240 floats / (40 + 4096 + 64) → 2 rows of 2048 per pass.
    let t = softmax_flash_v3_tiling(&[8, 2048], 2, 4, 10 * 1024 * 4);
    assert_eq!(
        t.to_words(),
        [8, 2048, 16384, 8, 8, 64, 2, 2048, 4096, 2, 8, 16, 4, 0, 0, 0]
    );
    // 20 rows of room for 32 rows → 16 (whole 8-row units below the rows); tail 0.
    let t = softmax_flash_v3_tiling(&[32, 512], 2, 4, 4512 * 20);
    assert_eq!(
        (t.split_m, t.range_m, t.tail_m, t.tail_split_size),
        (16, 2, 0, 0)
    );
    let t = softmax_flash_v3_tiling(&[40, 512], 2, 4, 4512 * 12);
    assert_eq!(
        (t.split_m, t.range_m, t.tail_m, t.tail_reduce_size),
        (8, 5, 0, 0)
    );
    let t = softmax_flash_v3_tiling(&[16, 512], 2, 4, 4512 * 5);
    assert_eq!(
        (t.split_m, t.range_m, t.tail_m, t.tail_split_size),
        (5, 3, 1, 512)
    );
}

/// Runs one call with the given shape/params tweaks and returns its error.
fn fails(
    m: u32,
    k: u32,
    tmp_bytes: u32,
    update: bool,
    tweak: fn(&mut SoftMaxParams, &mut SoftMaxTiling),
) -> ascendc::SimError {
    error_on("A2", move |ub| {
        let src = ub.tensor::<f16>(m * k, f16::ZERO);
        let dst = ub.tensor::<f16>(m * k, f16::ZERO);
        let em = ub.tensor::<f16>(m * 16, f16::ZERO);
        let s: Vec<LocalTensor<f32>> = (0..3).map(|_| ub.tensor::<f32>(m * 8, 1.0)).collect();
        let tmp = ub.tensor::<u8>(tmp_bytes, 0);
        let mut t = softmax_flash_v3_tiling(&[m as u64, k as u64], 2, 4, tmp_bytes.max(64));
        let mut p = SoftMaxParams::new(m, k, 2, 0.9375);
        tweak(&mut p, &mut t);
        softmax_flash_v3(
            &dst,
            &s[0],
            &s[1],
            &s[2],
            &src,
            &em,
            &s[0],
            &s[1],
            &s[2],
            Tmp::Shared(&tmp),
            &t,
            &p,
            update,
        )
    })
}

#[test]
fn checks_name_the_rule() {
    let e = fails(8, 448, 4096, true, |_, _| {});
    assert!(
        e.message.contains("params.srcK") && e.message.contains("512"),
        "{e}"
    );
    let e = fails(4, 512, 4512 * 4, true, |_, _| {});
    assert!(
        e.message.contains("params.srcM") && e.message.contains("multiple of 8"),
        "{e}"
    );
    let e = fails(8, 512, 4512 * 8, true, |p, _| p.split_mean_cnt = 4);
    assert!(e.message.contains("splitMeanCnt"), "{e}");
    let e = fails(8, 512, 4512 * 8, true, |p, _| p.loop_cnt = 0);
    assert!(e.message.contains("loopCnt"), "{e}");
    let e = fails(8, 512, 4512 * 8, true, |p, _| p.ori_src_k = 500);
    assert!(e.message.contains("padding"), "{e}");
    // A buffer below the tiling's need.
    let e = fails(8, 512, 4512 * 4, true, |_, t| {
        *t = softmax_flash_v3_tiling(&[8, 512], 2, 4, 4512 * 8)
    });
    assert_eq!(e.category, Category::Size, "{e}");
    assert!(e.message.contains("too small"), "{e}");
    // A tiling for another row length.
    let e = fails(8, 512, 4512 * 8, true, |_, t| {
        *t = softmax_flash_v3_tiling(&[8, 1024], 2, 4, 8608 * 8)
    });
    assert!(e.message.contains("SoftMaxFlashV3TilingFunc"), "{e}");
    // Without update a pass of more than 8 rows would lose rows of the mean.
    let e = fails(16, 512, 4512 * 2, false, |_, t| {
        *t = softmax_flash_v3_tiling(&[16, 512], 2, 4, 4512 * 16)
    });
    assert!(e.message.contains("at most 8 rows"), "{e}");
    // Types and products.
    let e = error_on("A2", |ub| {
        let x = ub.tensor::<f32>(8 * 512, 0.0);
        let s = ub.tensor::<f32>(64, 0.0);
        let tmp = ub.tensor::<u8>(4512 * 8, 0);
        let t = softmax_flash_v3_tiling(&[8, 512], 2, 4, 4512 * 8);
        let p = SoftMaxParams::new(8, 512, 1, 0.9375);
        softmax_flash_v3(
            &x,
            &s,
            &s,
            &s,
            &x,
            &x,
            &s,
            &s,
            &s,
            Tmp::Shared(&tmp),
            &t,
            &p,
            false,
        )
    });
    assert_eq!(e.category, Category::Type, "{e}");
    let e = error_on("310P", |ub| {
        let x = ub.tensor::<f16>(8 * 512, f16::ZERO);
        let s = ub.tensor::<f32>(64, 0.0);
        let tmp = ub.tensor::<u8>(4512 * 8, 0);
        let t = softmax_flash_v3_tiling(&[8, 512], 2, 4, 4512 * 8);
        let p = SoftMaxParams::new(8, 512, 1, 0.9375);
        softmax_flash_v3(
            &x,
            &s,
            &s,
            &s,
            &x,
            &x,
            &s,
            &s,
            &s,
            Tmp::Shared(&tmp),
            &t,
            &p,
            false,
        )
    });
    assert_eq!(e.category, Category::Unsupported, "{e}");
}

/// The algorithm in float64 (the device's eighths, exact arithmetic): (dst, mean, max, sum, expMax).
fn model_f64(src: &[f16], alpha: f64, update: Option<(Prev, u32)>) -> (Vec<f64>, [f64; 4]) {
    let k = src.len();
    let x: Vec<f64> = src.iter().map(|h| h.to_f64()).collect();
    let mut lanes = [0.0f64; 64];
    for (l, a) in lanes.iter_mut().enumerate() {
        *a = x[8 * l..8 * l + 8].iter().sum::<f64>()
            + (8..k / 64).map(|b| x[b * 64 + l]).sum::<f64>();
    }
    let local: Vec<f64> = lanes
        .chunks(8)
        .map(|c| c.iter().sum::<f64>() / (k / 8) as f64)
        .collect();
    let pm = local.iter().sum::<f64>() / 8.0;
    let a = alpha / (1.0 - alpha);
    let v: Vec<f64> = (0..k)
        .map(|j| x[j] - (pm - local[j / (k / 8)]) * a)
        .collect();
    let rmax = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let (mean, max, sc, sum0, em) = match update {
        None => (pm, rmax, 0.0, 0.0, 0.0),
        Some((p, n)) => {
            let mean = (p.mean as f64 * (n as f64 - 1.0) + pm) / n as f64;
            let sc = (pm - mean) * a;
            let sp = (p.mean as f64 - mean) * a;
            let max = (rmax + sc).max(p.max as f64 + sp);
            let em = (p.max as f64 - max + sp).exp();
            (mean, max, sc, em * p.sum as f64, em)
        }
    };
    let y: Vec<f64> = v.iter().map(|&t| (t - (max - sc)).exp()).collect();
    let sum = sum0 + y.iter().sum::<f64>();
    (y, [mean, max, sum, em])
}

/// Max errors against float64 over 16 Ki values (8 rows of 1024, twice; inputs in ±8): the
/// numbers of docs/high-level/softmax-flash-v3.md.
#[test]
fn accuracy_against_float64() {
    let (m, k) = (8u32, 1024u32);
    let p = prevs(8);
    let (mut dst_abs, mut stat_rel) = (0.0f64, 0.0f64);
    for (seed, update) in [(11u64, false), (12, true)] {
        let x = values((m * k) as usize, seed, 8.0);
        let prev = update.then_some((&p[..], 3u32));
        let out = run_v3(&x, m, k, min_tmp(k) * 2, prev, false, 0.9375);
        for r in 0..m as usize {
            let (y, s) = model_f64(
                &x[r * k as usize..(r + 1) * k as usize],
                0.9375,
                prev.map(|(p, n)| (p[r], n)),
            );
            for (j, want) in y.iter().enumerate() {
                dst_abs = dst_abs.max((out.dst[r * k as usize + j].to_f64() - want).abs());
            }
            let got = [out.mean[r * 8], out.max[r * 8], out.sum[r * 8]];
            for (g, w) in got.iter().zip(s) {
                stat_rel = stat_rel.max((*g as f64 - w).abs() / w.abs().max(1e-30));
            }
        }
    }
    println!(
        "SoftmaxFlashV3 dst max abs error {dst_abs:.3e}, mean/max/sum max rel error {stat_rel:.3e}"
    );
    assert!(dst_abs < 1e-3, "{dst_abs}");
    assert!(stat_rel < 1e-5, "{stat_rel}");
}
