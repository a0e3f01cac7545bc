//! LayerNorm (both forms), Normalize and DeepNorm: bit-exact against a host emulation of the
//! device's instruction sequence on A2 and 310P, the page's worked example, the host helpers and
//! the errors; plus the error against a float64 reference (printed with `--nocapture`).

use crate::ub_harness;

use ascendc::adv::common::Tmp;
use ascendc::adv::normalization::deepnorm::{
    deep_norm, deep_norm_max_min_tmp_size, deep_norm_tiling_info, DeepNormTiling,
};
use ascendc::adv::normalization::layernorm::{
    layer_norm, layer_norm_max_min_tmp_size, layer_norm_nd_tiling_info, layer_norm_rstd,
    layer_norm_rstd_max_min_tmp_size, layer_norm_separate_tiling_info, LayerNormConfig,
    LayerNormPara, LayerNormTiling, LNCFG_NORM,
};
use ascendc::adv::normalization::normalize::{
    normalize, normalize_max_min_tmp_size, NormalizeConfig, NormalizePara, NLCFG_NORM,
};
use ascendc::f16;
use ub_harness::*;

/// A small deterministic generator (xorshift).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// Uniform in [lo, hi).
    fn f(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * ((self.next() >> 40) as f32 / (1u64 << 24) as f32)
    }
}

/// The 64-lane pairwise tree of the reductions (absent lanes +0).
fn tree64(v: &[f32]) -> f32 {
    let mut l = [0f32; 64];
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

/// LayerNorm's row sum: the 64-wide column blocks added into the first in order, the tail block
/// likewise, then one tree over the first min(h, 64) lanes.
fn fold_sum(row: &[f32]) -> f32 {
    let h = row.len();
    let mut acc = row[..h.min(64)].to_vec();
    if h > 64 {
        for j in 1..h / 64 {
            for k in 0..64 {
                acc[k] += row[64 * j + k];
            }
        }
        let tail = h % 64;
        for k in 0..tail {
            acc[k] += row[h - tail + k];
        }
    }
    tree64(&acc)
}

/// `(y, mean, variance)` of one `[B, S, H]` LayerNorm row, as the device computes it.
fn ln_row(x: &[f32], g: &[f32], b: &[f32], k: f32, eps: f32) -> (Vec<f32>, f32, f32) {
    let mean = fold_sum(&x.iter().map(|v| v * k).collect::<Vec<_>>());
    let d: Vec<f32> = x.iter().map(|v| v - mean).collect();
    let var = fold_sum(&d.iter().map(|v| v * v * k).collect::<Vec<_>>());
    let f = 1.0 / (var + eps).sqrt();
    let y = d
        .iter()
        .zip(g.iter().zip(b))
        .map(|(d, (g, b))| f * d * g + b)
        .collect();
    (y, mean, var)
}

fn same(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

fn assert_same(what: &str, got: &[f32], want: &[f32]) {
    assert_eq!(got.len(), want.len());
    for (i, (a, w)) in got.iter().zip(want).enumerate() {
        assert!(same(*a, *w), "{what} at {i}: {a} vs {w}");
    }
}

fn read<T: ascendc::Element>(t: &ascendc::LocalTensor<T>, n: usize) -> Vec<T> {
    (0..n as u32).map(|i| t.get_value(i).unwrap()).collect()
}

type Outputs = (Vec<f32>, Vec<f32>, Vec<f32>);

/// Float `[B, S, H]` LayerNorm on `p`; returns (y, mean, variance) and the tiling afterwards.
#[allow(clippy::too_many_arguments)]
fn run_ln_f32(
    p: &str,
    x: &[f32],
    g: &[f32],
    b: &[f32],
    eps: f32,
    t: LayerNormTiling,
    tmp_bytes: u32,
    reuse: bool,
) -> (Outputs, LayerNormTiling) {
    let rows = (t.b_length * t.s_length) as usize;
    run_p(p, |ub| {
        let src = ub.from(x);
        let (gamma, beta) = (ub.from(g), ub.from(b));
        let y = ub.tensor(x.len() as u32, 0f32);
        let m = ub.tensor(rows as u32, 0f32);
        let v = ub.tensor(rows as u32, 0f32);
        let tmp = ub.tensor::<u8>(tmp_bytes, 0);
        let mut tt = t;
        layer_norm(
            &y,
            &m,
            &v,
            &src,
            &gamma,
            &beta,
            Tmp::Shared(&tmp),
            eps,
            &mut tt,
            reuse,
        )?;
        Ok(((read(&y, x.len()), read(&m, rows), read(&v, rows)), tt))
    })
}

#[test]
fn layer_norm_page_example() {
    let x: Vec<f32> = (0..64).map(|v| v as f32).collect();
    let g: Vec<f32> = (0..8).map(|v| v as f32).collect();
    let shape = [1, 8, 8, 8];
    let (_, min) = layer_norm_max_min_tmp_size(&shape, 4, false).unwrap();
    let t = layer_norm_nd_tiling_info(&shape, min, 4, false).unwrap();
    let ((y, m, v), _) = run_ln_f32("a2", &x, &g, &g, 1e-4, t, min, false);
    let page_y = [
        0.0,
        -0.09107912,
        0.69070506,
        2.3453526,
        4.8728633,
        8.273237,
        12.546474,
        17.692575,
    ];
    for r in 0..8 {
        assert_eq!(m[r], 3.5 + 8.0 * r as f32);
        assert_eq!(v[r], 5.25);
        for (a, w) in y[r * 8..r * 8 + 8].iter().zip(page_y) {
            assert!((a - w).abs() <= 1e-5 * w.abs().max(1.0), "{a} vs {w}");
        }
    }
}

#[test]
fn layer_norm_float_exact_a2_310p() {
    let mut rng = Rng(5);
    // (b, s, h, originalH, tmp bytes, reuse): one pass, several passes with a tail, H above 64
    // (a multiple of it, and not), H padded, isReuseSource.
    for &(b, s, h, oh, bytes, reuse) in &[
        (1, 4, 16, 16, 0u32, false),
        (2, 5, 64, 64, 1000, false),
        (1, 6, 200, 200, 3000, false),
        (1, 3, 256, 256, 8000, true),
        (2, 3, 24, 21, 600, false),
        (1, 2, 96, 96, 0, true),
    ] {
        let n = (b * s * h) as usize;
        let mut x: Vec<f32> = (0..n).map(|_| rng.f(-50.0, 50.0)).collect();
        for r in 0..(b * s) as usize {
            for c in oh as usize..h as usize {
                x[r * h as usize + c] = 0.0;
            }
        }
        x[1] = -0.0;
        x[2] = 1e-40;
        x[3] = 3e4;
        let g: Vec<f32> = (0..h).map(|_| rng.f(-2.0, 2.0)).collect();
        let bt: Vec<f32> = (0..h).map(|_| rng.f(-2.0, 2.0)).collect();
        let shape = [b, s, h, oh];
        let (max, min) = layer_norm_max_min_tmp_size(&shape, 4, reuse).unwrap();
        let bytes = if bytes == 0 { max } else { bytes.max(min) };
        let t = layer_norm_nd_tiling_info(&shape, bytes, 4, reuse).unwrap();
        let k = t.last_dim_value_back;
        let (mut wy, mut wm, mut wv) = (vec![], vec![], vec![]);
        for r in 0..(b * s) as usize {
            let row = &x[r * h as usize..(r + 1) * h as usize];
            let (y, m, v) = ln_row(row, &g, &bt, k, 1e-5);
            wy.extend(y);
            wm.push(m);
            wv.push(v);
        }
        for p in ["a2", "310p"] {
            let ((y, m, v), after) = run_ln_f32(p, &x, &g, &bt, 1e-5, t, bytes, reuse);
            let what = format!("{p} {b}x{s}x{h}");
            assert_same(&format!("{what} y"), &y, &wy);
            assert_same(&format!("{what} mean"), &m, &wm);
            assert_same(&format!("{what} variance"), &v, &wv);
            if t.input_tail_size > 0 {
                assert_eq!(after.bsh_cur_length, t.input_tail_size);
            }
        }
    }
}

#[test]
fn layer_norm_half_exact() {
    let mut rng = Rng(9);
    let (b, s, h) = (1u32, 9u32, 80u32);
    let n = (b * s * h) as usize;
    let x: Vec<f16> = (0..n).map(|_| f16::from_f32(rng.f(-8.0, 8.0))).collect();
    let g: Vec<f16> = (0..h).map(|_| f16::from_f32(rng.f(-1.0, 1.0))).collect();
    let bt: Vec<f16> = (0..h).map(|_| f16::from_f32(rng.f(-1.0, 1.0))).collect();
    let eps = f16::from_f32(1e-3);
    let shape = [b, s, h, h];
    // Two rows a pass: three passes of which the last has one row.
    let bytes = 2100;
    let t = layer_norm_nd_tiling_info(&shape, bytes, 2, false).unwrap();
    assert!(t.loop_round > 1 && t.input_tail_size > 0, "{t:?}");
    let f = |v: &[f16]| v.iter().map(|v| v.to_f32()).collect::<Vec<_>>();
    let (xf, gf, bf) = (f(&x), f(&g), f(&bt));
    let (mut wy, mut wm, mut wv) = (vec![], vec![], vec![]);
    for r in 0..(b * s) as usize {
        let (y, m, v) = ln_row(
            &xf[r * h as usize..(r + 1) * h as usize],
            &gf,
            &bf,
            t.last_dim_value_back,
            eps.to_f32(),
        );
        wy.extend(y.iter().map(|v| f16::from_f32(*v).to_bits()));
        wm.push(f16::from_f32(m).to_bits());
        wv.push(f16::from_f32(v).to_bits());
    }
    for p in ["a2", "310p"] {
        let (y, m, v) = run_p(p, |ub| {
            let src = ub.from(&x);
            let (gamma, beta) = (ub.from(&g), ub.from(&bt));
            let y = ub.tensor(n as u32, f16::ZERO);
            let m = ub.tensor(b * s, f16::ZERO);
            let v = ub.tensor(b * s, f16::ZERO);
            let tmp = ub.tensor::<u8>(bytes, 0);
            let mut tt = t;
            layer_norm(
                &y,
                &m,
                &v,
                &src,
                &gamma,
                &beta,
                Tmp::Shared(&tmp),
                eps,
                &mut tt,
                false,
            )?;
            Ok((
                bits16(&read(&y, n)),
                bits16(&read(&m, 9)),
                bits16(&read(&v, 9)),
            ))
        });
        assert_eq!(y, wy, "{p} y");
        assert_eq!(m, wm, "{p} mean");
        assert_eq!(v, wv, "{p} variance");
    }
}

/// `[A, R]` LayerNorm's mean and variance of one (zero-padded) row as the device computes them.
fn ar_stats(row: &[f32], r: usize, k: f32) -> (f32, f32) {
    let mean = fold_sum(&row.iter().map(|v| v * k).collect::<Vec<_>>());
    let d: Vec<f32> = row
        .iter()
        .enumerate()
        .map(|(c, v)| if c < r { v + -mean } else { *v })
        .collect();
    let var = fold_sum(&d.iter().map(|v| v * v * k).collect::<Vec<_>>());
    (mean, var)
}

/// Normalize of one row: `(y[..r], rstd)`.
fn norm_row(x: &[f32], g: &[f32], b: &[f32], mean: f32, var: f32, eps: f32) -> (Vec<f32>, f32) {
    let rstd = 1.0 / (var + eps).sqrt();
    let y = x
        .iter()
        .zip(g.iter().zip(b))
        .map(|(x, (g, b))| (x - mean) * rstd * g + b)
        .collect();
    (y, rstd)
}

#[test]
fn layer_norm_rstd_exact_and_pads_zeroed() {
    let mut rng = Rng(13);
    for &(a, r, extra) in &[(32u32, 32u32, 0u32), (5, 20, 100), (7, 130, 3000)] {
        let rp = r.div_ceil(8) * 8;
        let mut x: Vec<f32> = (0..a * rp).map(|_| rng.f(-10.0, 10.0)).collect();
        let g: Vec<f32> = (0..rp).map(|_| rng.f(-2.0, 2.0)).collect();
        let bt: Vec<f32> = (0..rp).map(|_| rng.f(-2.0, 2.0)).collect();
        let (_, min) = layer_norm_rstd_max_min_tmp_size(&[a, r], 4, true, false).unwrap();
        let bytes = min + extra;
        let t = layer_norm_separate_tiling_info(&[a, r], bytes, 4).unwrap();
        let para = LayerNormPara {
            a_length: a,
            r_length: r,
            r_length_with_padding: rp,
        };
        let eps = 1e-4;
        let (mut wy, mut wm, mut wr) = (vec![], vec![], vec![]);
        for i in 0..a as usize {
            for c in r as usize..rp as usize {
                x[i * rp as usize + c] = 0.0;
            }
        }
        for i in 0..a as usize {
            let row = &x[i * rp as usize..(i + 1) * rp as usize];
            let (m, v) = ar_stats(row, r as usize, t.r_value_back);
            let (y, rs) = norm_row(&row[..r as usize], &g, &bt, m, v, eps);
            wy.push(y);
            wm.push(m);
            wr.push(rs);
        }
        // The kernel zeroes the padding itself: give it garbage there.
        let mut xin = x.clone();
        for i in 0..a as usize {
            for c in r as usize..rp as usize {
                xin[i * rp as usize + c] = 77.0;
            }
        }
        for p in ["a2", "310p"] {
            let (y, m, rs) = run_p(p, |ub| {
                let src = ub.from(&xin);
                let (gm, bb) = (ub.from(&g), ub.from(&bt));
                let y = ub.tensor(a * rp, 0f32);
                let m = ub.tensor(a, 0f32);
                let rs = ub.tensor(a, 0f32);
                let tmp = ub.tensor::<u8>(bytes, 0);
                let mut tt = t;
                layer_norm_rstd(
                    &y,
                    &m,
                    &rs,
                    &src,
                    &gm,
                    &bb,
                    eps,
                    Tmp::Shared(&tmp),
                    &para,
                    &mut tt,
                    &LNCFG_NORM,
                )?;
                Ok((
                    read(&y, (a * rp) as usize),
                    read(&m, a as usize),
                    read(&rs, a as usize),
                ))
            });
            assert_same(&format!("{p} mean"), &m, &wm);
            assert_same(&format!("{p} rstd"), &rs, &wr);
            for i in 0..a as usize {
                let row = &y[i * rp as usize..i * rp as usize + r as usize];
                assert_same(&format!("{p} {a}x{r} y row {i}"), row, &wy[i]);
            }
        }
    }
}

#[test]
fn normalize_exact_float_and_half_with_float_gamma() {
    let mut rng = Rng(21);
    let (a, r) = (6u32, 48u32);
    let x: Vec<f32> = (0..a * r).map(|_| rng.f(-5.0, 5.0)).collect();
    let mean: Vec<f32> = (0..a).map(|_| rng.f(-1.0, 1.0)).collect();
    let var: Vec<f32> = (0..a).map(|_| rng.f(0.0, 4.0)).collect();
    let g: Vec<f32> = (0..r).map(|_| rng.f(-2.0, 2.0)).collect();
    let bt: Vec<f32> = (0..r).map(|_| rng.f(-2.0, 2.0)).collect();
    let eps = 1e-5;
    let para = NormalizePara {
        a_length: a,
        r_length: r,
        r_length_with_padding: r,
    };
    let no_beta = NormalizeConfig {
        is_no_beta: true,
        ..NLCFG_NORM
    };
    for cfg in [NLCFG_NORM, no_beta] {
        let (_, min) = normalize_max_min_tmp_size(&[a, r], 4, 4, true, false).unwrap();
        let mut want = vec![];
        let mut wr = vec![];
        for i in 0..a as usize {
            let zeros = vec![0f32; r as usize];
            let b = if cfg.is_no_beta { &zeros } else { &bt };
            let (y, rs) = norm_row(&x[i * 48..(i + 1) * 48], &g, b, mean[i], var[i], eps);
            want.extend(y);
            wr.push(rs);
        }
        // With no β the device skips the Add: y + 0 would turn −0 into +0, so compare values.
        for p in ["a2", "310p"] {
            let (y, rs) = run_p(p, |ub| {
                let (src, m, v) = (ub.from(&x), ub.from(&mean), ub.from(&var));
                let (gm, bb) = (ub.from(&g), ub.from(&bt));
                let y = ub.tensor(a * r, 0f32);
                let rs = ub.tensor(a, 0f32);
                let tmp = ub.tensor::<u8>(min, 0);
                normalize(
                    &y,
                    &rs,
                    &m,
                    &v,
                    &src,
                    &gm,
                    &bb,
                    Tmp::Shared(&tmp),
                    eps,
                    &para,
                    &cfg,
                )?;
                Ok((read(&y, (a * r) as usize), read(&rs, a as usize)))
            });
            assert_same(&format!("{p} rstd"), &rs, &wr);
            for (i, (a, w)) in y.iter().zip(&want).enumerate() {
                assert!(a == w, "{p} y at {i}: {a} vs {w}");
            }
        }
    }
    // Half x and output with float γ/β.
    let xh: Vec<f16> = x.iter().map(|v| f16::from_f32(*v)).collect();
    let (_, min) = normalize_max_min_tmp_size(&[a, r], 4, 2, true, false).unwrap();
    let want: Vec<u16> = (0..a as usize)
        .flat_map(|i| {
            let row: Vec<f32> = xh[i * 48..(i + 1) * 48]
                .iter()
                .map(|v| v.to_f32())
                .collect();
            norm_row(&row, &g, &bt, mean[i], var[i], eps).0
        })
        .map(|v| f16::from_f32(v).to_bits())
        .collect();
    for p in ["a2", "310p"] {
        let y = run_p(p, |ub| {
            let (src, m, v) = (ub.from(&xh), ub.from(&mean), ub.from(&var));
            let (gm, bb) = (ub.from(&g), ub.from(&bt));
            let y = ub.tensor(a * r, f16::ZERO);
            let rs = ub.tensor(a, 0f32);
            let tmp = ub.tensor::<u8>(min, 0);
            normalize(
                &y,
                &rs,
                &m,
                &v,
                &src,
                &gm,
                &bb,
                Tmp::Shared(&tmp),
                eps,
                &para,
                &NLCFG_NORM,
            )?;
            Ok(bits16(&read(&y, (a * r) as usize)))
        });
        assert_eq!(y, want, "{p}");
    }
}

/// `(y, mean, variance)` of one DeepNorm row: `X = x·α + gx`, then sums over H₀ (64-lane partial
/// sums, or with basic blocks the column-block fold).
#[allow(clippy::too_many_arguments)]
fn deep_row(
    x: &[f32],
    gx: &[f32],
    g: &[f32],
    b: &[f32],
    alpha: f32,
    eps: f32,
    k: f32,
    oh: usize,
    basic: bool,
) -> (Vec<f32>, f32, f32) {
    let xx: Vec<f32> = x.iter().zip(gx).map(|(x, g)| g + x * alpha).collect();
    let sum = |v: Vec<f32>| -> f32 {
        if basic {
            return fold_sum(&v);
        }
        let mut v = v[..oh].to_vec();
        while v.len() > 1 {
            v = v.chunks(64).map(tree64).collect();
        }
        v[0]
    };
    let mean = sum(xx.iter().map(|v| v * k).collect());
    let d: Vec<f32> = xx.iter().map(|v| v + -mean).collect();
    let var = sum(d.iter().map(|v| v * v * k).collect());
    let f = 1.0 / (var + eps).sqrt();
    let y = d
        .iter()
        .zip(g.iter().zip(b))
        .map(|(d, (g, b))| d * f * g + b)
        .collect();
    (y, mean, var)
}

#[allow(clippy::too_many_arguments)]
fn run_deep_f32(
    p: &str,
    x: &[f32],
    gx: &[f32],
    g: &[f32],
    b: &[f32],
    alpha: f32,
    eps: f32,
    t: DeepNormTiling,
    bytes: u32,
    basic: bool,
) -> Outputs {
    let rows = (t.b_length * t.s_length) as usize;
    run_p(p, |ub| {
        let (src, gxl) = (ub.from(x), ub.from(gx));
        let (gm, bb) = (ub.from(g), ub.from(b));
        let y = ub.tensor(x.len() as u32, 0f32);
        let m = ub.tensor(rows as u32, 0f32);
        let v = ub.tensor(rows as u32, 0f32);
        let tmp = ub.tensor::<u8>(bytes, 0);
        let mut tt = t;
        deep_norm(
            &y,
            &m,
            &v,
            &src,
            &gxl,
            &bb,
            &gm,
            Tmp::Shared(&tmp),
            alpha,
            eps,
            &mut tt,
            false,
            basic,
        )?;
        Ok((read(&y, x.len()), read(&m, rows), read(&v, rows)))
    })
}

#[test]
fn deep_norm_float_exact_a2_310p() {
    let mut rng = Rng(17);
    // (b, s, h, originalH, extra bytes over the minimum, basic): basic blocks with one row per
    // pass (the vendor example's minimum buffer), with 8 and 16 rows per pass (the spread path:
    // Brcb on A2, TransDataTo5HD on 310P), a padded H with 64-lane partial sums.
    for &(b, s, h, oh, extra, basic) in &[
        (4, 16, 64, 64, 0u32, true),
        (2, 8, 128, 128, 12000, true),
        (2, 16, 64, 64, 40000, true),
        (1, 8, 64, 64, 2200, true),
        (1, 5, 136, 130, 2500, false),
        (2, 3, 16, 16, 0, false),
    ] {
        let n = (b * s * h) as usize;
        let mut x: Vec<f32> = (0..n).map(|_| rng.f(-20.0, 20.0)).collect();
        let gx: Vec<f32> = (0..n).map(|_| rng.f(-20.0, 20.0)).collect();
        for r in 0..(b * s) as usize {
            for c in oh as usize..h as usize {
                x[r * h as usize + c] = 0.0;
            }
        }
        x[5] = 1e-39;
        let g: Vec<f32> = (0..h).map(|_| rng.f(-2.0, 2.0)).collect();
        let bt: Vec<f32> = (0..h).map(|_| rng.f(-2.0, 2.0)).collect();
        let (_, min) = deep_norm_max_min_tmp_size(&[b, s, h], 4, false, basic).unwrap();
        let bytes = min + extra;
        let t = deep_norm_tiling_info(&[b, s, h], &[b, s, oh], bytes, 4, false, basic).unwrap();
        let (alpha, eps) = (-5.5, 0.01);
        let (mut wy, mut wm, mut wv) = (vec![], vec![], vec![]);
        for r in 0..(b * s) as usize {
            let at = r * h as usize..(r + 1) * h as usize;
            let (y, m, v) = deep_row(
                &x[at.clone()],
                &gx[at],
                &g,
                &bt,
                alpha,
                eps,
                t.last_dim_value_back,
                oh as usize,
                basic,
            );
            wy.extend(y);
            wm.push(m);
            wv.push(v);
        }
        for p in ["a2", "310p"] {
            let (y, m, v) = run_deep_f32(p, &x, &gx, &g, &bt, alpha, eps, t, bytes, basic);
            let what = format!(
                "{p} {b}x{s}x{h} basic={basic} rows/pass={}",
                t.bs_cur_length
            );
            assert_same(&format!("{what} mean"), &m, &wm);
            assert_same(&format!("{what} variance"), &v, &wv);
            // The spread path copies with Adds 0 (−0 → +0): compare values.
            for (i, (a, w)) in y.iter().zip(&wy).enumerate() {
                assert!(a == w, "{what} y at {i}: {a} vs {w}");
            }
        }
    }
}

#[test]
fn deep_norm_half_exact() {
    let mut rng = Rng(29);
    let (b, s, h) = (1u32, 8u32, 64u32);
    let n = (b * s * h) as usize;
    let x: Vec<f16> = (0..n).map(|_| f16::from_f32(rng.f(-4.0, 4.0))).collect();
    let gx: Vec<f16> = (0..n).map(|_| f16::from_f32(rng.f(-4.0, 4.0))).collect();
    let g: Vec<f16> = (0..h).map(|_| f16::from_f32(rng.f(-1.0, 1.0))).collect();
    let bt: Vec<f16> = (0..h).map(|_| f16::from_f32(rng.f(-1.0, 1.0))).collect();
    let (alpha, eps) = (f16::from_f32(0.75), f16::from_f32(1e-3));
    let (max, _) = deep_norm_max_min_tmp_size(&[b, s, h], 2, false, false).unwrap();
    let t = deep_norm_tiling_info(&[b, s, h], &[b, s, h], max, 2, false, false).unwrap();
    let f = |v: &[f16]| v.iter().map(|v| v.to_f32()).collect::<Vec<_>>();
    let (xf, gxf, gf, bf) = (f(&x), f(&gx), f(&g), f(&bt));
    let (mut wy, mut wm, mut wv) = (vec![], vec![], vec![]);
    for r in 0..8 {
        let at = r * 64..(r + 1) * 64;
        let (y, m, v) = deep_row(
            &xf[at.clone()],
            &gxf[at],
            &gf,
            &bf,
            alpha.to_f32(),
            eps.to_f32(),
            t.last_dim_value_back,
            64,
            false,
        );
        wy.extend(y.iter().map(|v| f16::from_f32(*v).to_bits()));
        wm.push(f16::from_f32(m).to_bits());
        wv.push(f16::from_f32(v).to_bits());
    }
    for p in ["a2", "310p"] {
        let (y, m, v) = run_p(p, |ub| {
            let (src, gxl) = (ub.from(&x), ub.from(&gx));
            let (gm, bb) = (ub.from(&g), ub.from(&bt));
            let y = ub.tensor(n as u32, f16::ZERO);
            let m = ub.tensor(8, f16::ZERO);
            let v = ub.tensor(8, f16::ZERO);
            let tmp = ub.tensor::<u8>(max, 0);
            let mut tt = t;
            deep_norm(
                &y,
                &m,
                &v,
                &src,
                &gxl,
                &bb,
                &gm,
                Tmp::Shared(&tmp),
                alpha,
                eps,
                &mut tt,
                false,
                false,
            )?;
            Ok((
                bits16(&read(&y, n)),
                bits16(&read(&m, 8)),
                bits16(&read(&v, 8)),
            ))
        });
        assert_eq!(y, wy, "{p} y");
        assert_eq!(m, wm, "{p} mean");
        assert_eq!(v, wv, "{p} variance");
    }
}

#[test]
fn host_helpers_follow_the_vendor_formulas() {
    // [B, S, H, H₀] = [2, 32, 16, 16] float: 3 · 4096 + 2 · 256 and 3 · 64 + 2 · 256.
    assert_eq!(
        layer_norm_max_min_tmp_size(&[2, 32, 16, 16], 4, false),
        Some((3 * 4096 + 512, 192 + 512))
    );
    assert_eq!(
        layer_norm_max_min_tmp_size(&[2, 32, 16, 16], 4, true),
        Some((2 * 4096 + 512, 128 + 512))
    );
    assert_eq!(layer_norm_max_min_tmp_size(&[2, 32, 16], 4, false), None);
    let t = layer_norm_nd_tiling_info(&[2, 32, 16, 16], 704, 4, false).unwrap();
    assert_eq!(
        (t.tmp_buf_size, t.one_tmp_size, t.loop_round),
        (176, 48, 21)
    );
    assert_eq!((t.input_tail_size, t.input_tail_pos), (16, 1008));
    assert_eq!((t.mean_var_tail_size, t.mean_var_tail_pos), (1, 63));
    assert_eq!(t.last_dim_value_back, 1.0 / 16.0);
    // Half keeps the float mean and variance first.
    let t = layer_norm_nd_tiling_info(&[1, 3, 16, 16], 1024, 2, false).unwrap();
    assert_eq!((t.first_tmp_start_pos, t.variance_tmp_tensor_pos), (16, 8));
    assert_eq!(
        layer_norm_nd_tiling_info(&[1, 3, 16, 16], 64, 4, false),
        None
    );
    // [A, R] = [32, 32] float (the layernorm_v2 example): Normalize's need wins.
    assert_eq!(
        normalize_max_min_tmp_size(&[32, 32], 4, 4, true, false),
        Some((8448, 256))
    );
    assert_eq!(
        normalize_max_min_tmp_size(&[32, 32], 2, 2, true, false),
        Some((2 * 128 + 2 * 4096, 4 * 128))
    );
    assert_eq!(
        normalize_max_min_tmp_size(&[32, 32], 4, 4, false, false),
        None
    );
    assert_eq!(
        layer_norm_rstd_max_min_tmp_size(&[32, 32], 4, true, false),
        Some((8576, 384))
    );
    let t = layer_norm_separate_tiling_info(&[32, 32], 384, 4).unwrap();
    assert_eq!(
        (t.one_tmp_size, t.loop_round, t.first_tmp_start_pos),
        (32, 32, 32)
    );
    assert_eq!(t.r_value_back, 1.0 / 32.0);
    // DeepNorm [4, 16, 64] float basic (the vendor example): 3 · 256 + 2 · 256 minimum, one
    // row per pass; 8 rows fit a pass once 8 · 64 floats do.
    assert_eq!(
        deep_norm_max_min_tmp_size(&[4, 16, 64], 4, false, true),
        Some((3 * 16384 + 512, 1280))
    );
    assert_eq!(
        deep_norm_max_min_tmp_size(&[4, 15, 64], 4, false, true),
        None
    );
    let t = deep_norm_tiling_info(&[4, 16, 64], &[4, 16, 64], 1280, 4, false, true).unwrap();
    assert_eq!((t.one_tmp_size, t.bs_cur_length), (64, 1));
    let t = deep_norm_tiling_info(&[4, 16, 64], &[4, 16, 64], 7000, 4, false, true).unwrap();
    assert_eq!(t.one_tmp_size, 512);
    assert_eq!(
        deep_norm_tiling_info(&[4, 16, 64], &[4, 16, 60], 7000, 4, false, true),
        None
    );
    assert_eq!(
        deep_norm_tiling_info(&[4, 16, 64], &[4, 16, 64], 1000, 4, false, true),
        None
    );
}

#[test]
fn errors_name_the_api_and_rule() {
    let shape = [1, 2, 16, 16];
    let t = layer_norm_nd_tiling_info(&shape, 1024, 4, false).unwrap();
    let e = error_on("a2", |ub| {
        let x = ub.tensor(32, 1f32);
        let (m, g) = (ub.tensor(2, 0f32), ub.tensor(16, 1f32));
        let tmp = ub.tensor::<u8>(256, 0);
        let mut tt = t;
        layer_norm(
            &x,
            &m,
            &m,
            &x,
            &g,
            &g,
            Tmp::Shared(&tmp),
            1e-5,
            &mut tt,
            false,
        )
    });
    assert_eq!(e.api, "LayerNorm");
    assert!(e.message.contains("sharedTmpBuffer"), "{e}");
    let e = error_on("a2", |ub| {
        let x = ub.tensor(16, 1f32);
        let (m, g) = (ub.tensor(2, 0f32), ub.tensor(16, 1f32));
        let tmp = ub.tensor::<u8>(1024, 0);
        let mut tt = t;
        layer_norm(
            &x,
            &m,
            &m,
            &x,
            &g,
            &g,
            Tmp::Shared(&tmp),
            1e-5,
            &mut tt,
            false,
        )
    });
    assert!(e.message.contains("`output`"), "{e}");
    let e = error_on("a2", |ub| {
        let x = ub.tensor(32, 1i32);
        let tmp = ub.tensor::<u8>(1024, 0);
        let mut tt = t;
        layer_norm(&x, &x, &x, &x, &x, &x, Tmp::Shared(&tmp), 1, &mut tt, false)
    });
    assert!(e.message.contains("half or float"), "{e}");
    let e = error_on("310b", |ub| {
        let x = ub.tensor(32, 1f32);
        let tmp = ub.tensor::<u8>(1024, 0);
        let mut tt = t;
        layer_norm(
            &x,
            &x,
            &x,
            &x,
            &x,
            &x,
            Tmp::Shared(&tmp),
            1e-5,
            &mut tt,
            false,
        )
    });
    assert!(e.message.contains("not available"), "{e}");
    let e = error_on("a2", |ub| {
        let x = ub.tensor(32, 1f32);
        let tmp = ub.tensor::<u8>(1024, 0);
        let mut tt = LayerNormTiling::default();
        layer_norm(
            &x,
            &x,
            &x,
            &x,
            &x,
            &x,
            Tmp::Shared(&tmp),
            1e-5,
            &mut tt,
            false,
        )
    });
    assert!(e.message.contains("oneTmpSize"), "{e}");
    // [A, R]: half gamma with float x; the variance output (Ascend 950 only).
    let para = LayerNormPara {
        a_length: 2,
        r_length: 16,
        r_length_with_padding: 16,
    };
    let st = layer_norm_separate_tiling_info(&[2, 16], 512, 4).unwrap();
    let e = error_on("a2", |ub| {
        let x = ub.tensor(32, 1f32);
        let g = ub.tensor(16, f16::ONE);
        let tmp = ub.tensor::<u8>(512, 0);
        let mut tt = st;
        layer_norm_rstd(
            &x,
            &x,
            &x,
            &x,
            &g,
            &g,
            1e-5,
            Tmp::Shared(&tmp),
            &para,
            &mut tt,
            &LNCFG_NORM,
        )
    });
    assert!(e.message.contains("U = half, T = float"), "{e}");
    let var_out = LayerNormConfig {
        is_output_rstd: false,
        ..LNCFG_NORM
    };
    let e = error_on("a2", |ub| {
        let x = ub.tensor(32, 1f32);
        let tmp = ub.tensor::<u8>(512, 0);
        let mut tt = st;
        layer_norm_rstd(
            &x,
            &x,
            &x,
            &x,
            &x,
            &x,
            1e-5,
            Tmp::Shared(&tmp),
            &para,
            &mut tt,
            &var_out,
        )
    });
    assert!(e.message.contains("isOutputRstd"), "{e}");
    // Normalize: buffer below max(A, 2R) floats; config.aLength differing from para.
    let np = NormalizePara {
        a_length: 2,
        r_length: 16,
        r_length_with_padding: 16,
    };
    let e = error_on("310p", |ub| {
        let x = ub.tensor(32, 1f32);
        let tmp = ub.tensor::<u8>(64, 0);
        normalize(
            &x,
            &x,
            &x,
            &x,
            &x,
            &x,
            &x,
            Tmp::Shared(&tmp),
            1e-5,
            &np,
            &NLCFG_NORM,
        )
    });
    assert_eq!(e.api, "Normalize");
    assert!(e.message.contains("GetNormalizeMaxMinTmpSize"), "{e}");
    let fixed = NormalizeConfig {
        a_length: 3,
        ..NLCFG_NORM
    };
    let e = error_on("a2", |ub| {
        let x = ub.tensor(32, 1f32);
        let tmp = ub.tensor::<u8>(256, 0);
        normalize(
            &x,
            &x,
            &x,
            &x,
            &x,
            &x,
            &x,
            Tmp::Shared(&tmp),
            1e-5,
            &np,
            &fixed,
        )
    });
    assert!(e.message.contains("config.aLength"), "{e}");
    // DeepNorm: basic blocks with B·S not a multiple of 8.
    let mut dt = deep_norm_tiling_info(&[1, 8, 64], &[1, 8, 64], 4096, 4, false, true).unwrap();
    dt.s_length = 7;
    let e = error_on("a2", |ub| {
        let x = ub.tensor(512, 1f32);
        let tmp = ub.tensor::<u8>(4096, 0);
        let mut tt = dt;
        deep_norm(
            &x,
            &x,
            &x,
            &x,
            &x,
            &x,
            &x,
            Tmp::Shared(&tmp),
            1.0,
            1e-5,
            &mut tt,
            false,
            true,
        )
    });
    assert_eq!(e.api, "DeepNorm");
    assert!(e.message.contains("isBasicBlock"), "{e}");
}

/// Max abs / rel error of each API against float64 on a few thousand values (run with
/// `--nocapture` to see the table the documentation quotes).
#[test]
fn error_vs_float64() {
    let mut rng = Rng(99);
    let (rows, h) = (64usize, 64usize);
    let x: Vec<f32> = (0..rows * h).map(|_| rng.f(-10.0, 10.0)).collect();
    let gx: Vec<f32> = (0..rows * h).map(|_| rng.f(-10.0, 10.0)).collect();
    let g: Vec<f32> = (0..h).map(|_| rng.f(0.5, 2.0)).collect();
    let bt: Vec<f32> = (0..h).map(|_| rng.f(-1.0, 1.0)).collect();
    let eps = 1e-5f32;
    let reference = |x: &[f32]| {
        let (mut y, mut m, mut v, mut r) = (vec![], vec![], vec![], vec![]);
        for row in x.chunks(h) {
            let mean = row.iter().map(|&v| v as f64).sum::<f64>() / h as f64;
            let var = row.iter().map(|&v| (v as f64 - mean).powi(2)).sum::<f64>() / h as f64;
            let rs = 1.0 / (var + eps as f64).sqrt();
            for (c, &v) in row.iter().enumerate() {
                y.push((v as f64 - mean) * rs * g[c] as f64 + bt[c] as f64);
            }
            m.push(mean);
            v.push(var);
            r.push(rs);
        }
        (y, m, v, r)
    };
    let err = |got: &[f32], want: &[f64]| {
        got.iter().zip(want).fold((0f64, 0f64), |(a, r), (&g, &w)| {
            let e = (g as f64 - w).abs();
            (a.max(e), r.max(e / w.abs().max(1e-3)))
        })
    };
    let shape = [1, rows as u32, h as u32, h as u32];
    let (max, _) = layer_norm_max_min_tmp_size(&shape, 4, false).unwrap();
    let t = layer_norm_nd_tiling_info(&shape, max, 4, false).unwrap();
    let ((y, m, v), _) = run_ln_f32("a2", &x, &g, &bt, eps, t, max, false);
    let (ry, rm, rv, rr) = reference(&x);
    println!(
        "LayerNorm float y {:?} mean {:?} var {:?}",
        err(&y, &ry),
        err(&m, &rm),
        err(&v, &rv)
    );
    let para = LayerNormPara {
        a_length: rows as u32,
        r_length: h as u32,
        r_length_with_padding: h as u32,
    };
    let (max, _) =
        layer_norm_rstd_max_min_tmp_size(&[rows as u32, h as u32], 4, true, false).unwrap();
    let st = layer_norm_separate_tiling_info(&[rows as u32, h as u32], max, 4).unwrap();
    let (y2, m2, r2) = run_p("a2", |ub| {
        let src = ub.from(&x);
        let (gm, bb) = (ub.from(&g), ub.from(&bt));
        let y = ub.tensor((rows * h) as u32, 0f32);
        let m = ub.tensor(rows as u32, 0f32);
        let r = ub.tensor(rows as u32, 0f32);
        let tmp = ub.tensor::<u8>(max, 0);
        let mut tt = st;
        layer_norm_rstd(
            &y,
            &m,
            &r,
            &src,
            &gm,
            &bb,
            eps,
            Tmp::Shared(&tmp),
            &para,
            &mut tt,
            &LNCFG_NORM,
        )?;
        Ok((read(&y, rows * h), read(&m, rows), read(&r, rows)))
    });
    println!(
        "LayerNorm[A,R] float y {:?} mean {:?} rstd {:?}",
        err(&y2, &ry),
        err(&m2, &rm),
        err(&r2, &rr)
    );
    let xx: Vec<f32> = x.iter().zip(&gx).map(|(a, b)| b + a * 0.5).collect();
    let (dy, dm, dv, _) = reference(&xx);
    let (max, _) = deep_norm_max_min_tmp_size(&[1, rows as u32, h as u32], 4, false, true).unwrap();
    let dt = deep_norm_tiling_info(
        &[1, rows as u32, h as u32],
        &[1, rows as u32, h as u32],
        max,
        4,
        false,
        true,
    )
    .unwrap();
    let (y3, m3, v3) = run_deep_f32("a2", &x, &gx, &g, &bt, 0.5, eps, dt, max, true);
    println!(
        "DeepNorm float y {:?} mean {:?} var {:?}",
        err(&y3, &dy),
        err(&m3, &dm),
        err(&v3, &dv)
    );
    for (name, e) in [
        ("y", err(&y, &ry)),
        ("rstd", err(&r2, &rr)),
        ("deep y", err(&y3, &dy)),
    ] {
        assert!(e.0 < 1e-4 && e.1 < 1e-4, "{name} {e:?}");
    }
}
