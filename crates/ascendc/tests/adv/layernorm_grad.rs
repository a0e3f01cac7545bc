//! LayerNormGrad and LayerNormGradBeta: bit-exact against a host emulation of the device's
//! instruction sequence on A2 (Brcb) and 310P (Duplicate), the tiling helpers, and errors.

use crate::ub_harness;

use ascendc::adv::common::Tmp;
use ascendc::adv::normalization::layernorm_grad::{
    layer_norm_grad, layer_norm_grad_beta, layer_norm_grad_beta_max_min_tmp_size,
    layer_norm_grad_beta_tiling_info, layer_norm_grad_max_min_tmp_size,
    layer_norm_grad_tiling_info, LayerNormGradBetaTiling, LayerNormGradTiling,
};
use ascendc::{f16, Element, LocalTensor};
use ub_harness::*;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn f(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * ((self.next() >> 40) as f32 / (1u64 << 24) as f32)
    }
}

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

/// The repeated 64-lane `WholeReduceSum` of a row.
fn row_sum(v: &[f32]) -> f32 {
    let mut v = v.to_vec();
    while v.len() > 1 {
        v = v.chunks(64).map(tree64).collect();
    }
    v[0]
}

fn read<T: Element>(t: &LocalTensor<T>, n: usize) -> Vec<T> {
    (0..n as u32).map(|i| t.get_value(i).unwrap()).collect()
}

fn same(got: &[f32], want: &[f32], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}");
    for (i, (a, w)) in got.iter().zip(want).enumerate() {
        assert!(
            a.to_bits() == w.to_bits() || (a.is_nan() && w.is_nan()),
            "{what} at {i}: {a} vs {w}"
        );
    }
}

/// Host emulation of one row of LayerNormGrad: (pdX, resForGamma).
#[allow(clippy::too_many_arguments)]
fn grad_row(
    dy: &[f32],
    x: &[f32],
    g: &[f32],
    var: f32,
    mean: f32,
    eps: f32,
    inv_h: f32,
    two_inv_h: f32,
) -> (Vec<f32>, Vec<f32>) {
    let x1: Vec<f32> = dy.iter().zip(g).map(|(a, b)| a * b).collect();
    let x2: Vec<f32> = x.iter().map(|v| v - mean).collect();
    let t = var + eps;
    let b = t * t;
    let t = (b * t).sqrt();
    let t = 1.0 / t;
    let prod: Vec<f32> = x2
        .iter()
        .zip(&x1)
        .map(|(a, c)| c * (a * t) * -0.5)
        .collect();
    let pd_var = row_sum(&prod);
    let r = 1.0 / (var + eps).sqrt();
    let rg: Vec<f32> = x2.iter().map(|a| a * r).collect();
    let x3: Vec<f32> = x1.iter().map(|a| a * r).collect();
    let neg: Vec<f32> = x3.iter().map(|a| a * -1.0).collect();
    let mut pd_mean = row_sum(&neg);
    let m2: Vec<f32> = x2.iter().map(|a| a * -2.0).collect();
    let s = row_sum(&m2) * inv_h;
    pd_mean += pd_var * s;
    let v2 = pd_var * two_inv_h;
    let pm = pd_mean * inv_h;
    let pdx = x2.iter().zip(&x3).map(|(a, c)| (v2 * a + pm) + c).collect();
    (pdx, rg)
}

struct GradCase {
    rows: usize,
    h: usize,
    oh: usize,
    tmp: u32,
}

fn inputs(rng: &mut Rng, c: &GradCase) -> [Vec<f32>; 5] {
    let n = c.rows * c.h;
    let mut dy: Vec<f32> = (0..n).map(|_| rng.f(-2.0, 2.0)).collect();
    let x: Vec<f32> = (0..n).map(|_| rng.f(-3.0, 3.0)).collect();
    let g: Vec<f32> = (0..c.h).map(|_| rng.f(-1.5, 1.5)).collect();
    let mut var: Vec<f32> = (0..c.rows).map(|_| rng.f(0.0, 4.0)).collect();
    let mean: Vec<f32> = (0..c.rows).map(|_| rng.f(-1.0, 1.0)).collect();
    var[0] = 0.0;
    dy[1] = -0.0;
    dy[2] = 1e-30;
    dy[3] = 3e4;
    [dy, x, g, var, mean]
}

fn expect_grad(
    inp: &[Vec<f32>; 5],
    c: &GradCase,
    eps: f32,
    t: &LayerNormGradTiling,
) -> (Vec<f32>, Vec<f32>) {
    let [dy, x, g, var, mean] = inp;
    let (inv, two) = (
        f32::from_bits(t.last_dim_value_back),
        f32::from_bits(t.last_dim_value_back_mul_two),
    );
    let (mut pdx, mut rg) = (Vec::new(), Vec::new());
    for r in 0..c.rows {
        let s = r * c.h..(r + 1) * c.h;
        let (a, b) = grad_row(&dy[s.clone()], &x[s], g, var[r], mean[r], eps, inv, two);
        pdx.extend(a);
        rg.extend(b);
    }
    (pdx, rg)
}

fn run_grad_f32(
    p: &str,
    inp: &[Vec<f32>; 5],
    c: &GradCase,
    eps: f32,
    t: &LayerNormGradTiling,
    reuse: bool,
) -> (Vec<f32>, Vec<f32>) {
    let n = c.rows * c.h;
    run_p(p, |ub| {
        let [dy, x, g, var, mean] = inp;
        let (dy, x, g) = (ub.from(dy), ub.from(x), ub.from(g));
        let (var, mean) = (ub.from(var), ub.from(mean));
        let pdx = ub.tensor(n as u32, 0f32);
        let rg = ub.tensor(n as u32, 0f32);
        let tmp = ub.tensor::<u8>(c.tmp, 0);
        layer_norm_grad(
            &pdx,
            &rg,
            &dy,
            &x,
            &var,
            &mean,
            &g,
            Tmp::Shared(&tmp),
            eps,
            t,
            reuse,
        )?;
        Ok((read(&pdx, n), read(&rg, n)))
    })
}

#[test]
fn layer_norm_grad_float_exact_a2_310p() {
    let mut rng = Rng(3);
    for c in [
        GradCase {
            rows: 12,
            h: 72,
            oh: 72,
            tmp: 8 * 72 * 4,
        },
        GradCase {
            rows: 3,
            h: 136,
            oh: 130,
            tmp: 8 * 136 * 4,
        },
        GradCase {
            rows: 6,
            h: 64,
            oh: 64,
            tmp: 16 * 64 * 4,
        },
    ] {
        let inp = inputs(&mut rng, &c);
        let shape = [1, c.rows as u32, c.h as u32, c.oh as u32];
        for (reuse, bufs) in [(false, 6), (true, 4)] {
            // A whole block of rows per buffer (the tiling rounds the rows up to one).
            let c = GradCase {
                tmp: c.tmp * bufs,
                ..c
            };
            let t = layer_norm_grad_tiling_info(&shape, c.tmp, 4, reuse).unwrap();
            let (wp, wr) = expect_grad(&inp, &c, 1e-5, &t);
            for p in ["a2", "310p"] {
                let (gp, gr) = run_grad_f32(p, &inp, &c, 1e-5, &t, reuse);
                same(&gp, &wp, &format!("{p} pdX h={} reuse={reuse}", c.h));
                same(&gr, &wr, &format!("{p} resForGamma h={}", c.h));
            }
        }
    }
}

#[test]
fn layer_norm_grad_half_exact_a2_310p() {
    let mut rng = Rng(9);
    let c = GradCase {
        rows: 20,
        h: 32,
        oh: 32,
        tmp: 9 * 16 * 32 * 4,
    };
    let mut inp = inputs(&mut rng, &c);
    for v in inp.iter_mut() {
        for e in v.iter_mut() {
            *e = f16::from_f32(*e).to_f32();
        }
    }
    let eps = f16::from_f32(1e-3);
    let t = layer_norm_grad_tiling_info(&[4, 5, 32, 32], c.tmp, 2, false).unwrap();
    let (wp, wr) = expect_grad(&inp, &c, eps.to_f32(), &t);
    // Float to half saturates (no fp16 Inf/NaN mode).
    let narrow = |v: Vec<f32>| -> Vec<f32> {
        v.iter()
            .map(|&a| f16::from_f32(a).to_f32().clamp(-65504.0, 65504.0))
            .collect()
    };
    let (wp, wr) = (narrow(wp), narrow(wr));
    let n = c.rows * c.h;
    for p in ["a2", "310p"] {
        let (gp, gr) = run_p(p, |ub| {
            let h: Vec<Vec<f16>> = inp
                .iter()
                .map(|v| v.iter().map(|&a| f16::from_f32(a)).collect())
                .collect();
            let (dy, x, g) = (ub.from(&h[0]), ub.from(&h[1]), ub.from(&h[2]));
            let (var, mean) = (ub.from(&h[3]), ub.from(&h[4]));
            let pdx = ub.tensor(n as u32, f16::ZERO);
            let rg = ub.tensor(n as u32, f16::ZERO);
            let tmp = ub.tensor::<u8>(c.tmp, 0);
            layer_norm_grad(
                &pdx,
                &rg,
                &dy,
                &x,
                &var,
                &mean,
                &g,
                Tmp::Shared(&tmp),
                eps,
                &t,
                false,
            )?;
            let f = |t: &LocalTensor<f16>| -> Vec<f32> {
                read(t, n).iter().map(|a| a.to_f32()).collect()
            };
            Ok((f(&pdx), f(&rg)))
        });
        same(&gp, &wp, &format!("{p} half pdX"));
        same(&gr, &wr, &format!("{p} half resForGamma"));
    }
}

#[test]
fn layer_norm_grad_tiling_and_sizes() {
    assert_eq!(
        layer_norm_grad_max_min_tmp_size(&[2, 4, 16, 16], 4, false),
        Some((6 * 256 * 4, 6 * 128 * 4))
    );
    assert_eq!(
        layer_norm_grad_max_min_tmp_size(&[1, 1, 64, 64], 2, false),
        Some((9 * 4096 * 2, 9 * 64 * 2))
    );
    assert_eq!(
        layer_norm_grad_max_min_tmp_size(&[2, 4, 16, 16], 4, true),
        Some((4 * 256 * 4, 4 * 128 * 4))
    );
    assert_eq!(
        layer_norm_grad_max_min_tmp_size(&[2, 4, 16], 4, false),
        None
    );
    let t = layer_norm_grad_tiling_info(&[2, 5, 64, 60], 6 * 8 * 64 * 4, 4, false).unwrap();
    assert_eq!((t.one_cal_size, t.noh_cal_size), (512, 8));
    assert_eq!((t.loop_num, t.tail_size, t.noh_tail_size), (1, 128, 2));
    assert_eq!(
        (
            t.pd_var_tensor_pos,
            t.pd_mean_tensor_pos,
            t.x1_tensor_pos,
            t.x2_tensor_pos,
            t.x3_tensor_pos
        ),
        (512, 1024, 1536, 2048, 2560)
    );
    assert_eq!(f32::from_bits(t.last_dim_value_back), 1.0 / 60.0);
    let r = layer_norm_grad_tiling_info(&[2, 5, 64, 60], 6 * 8 * 64 * 4, 4, true).unwrap();
    // Reusing the sources: 4 buffers, 12 rows rounded up to 16.
    assert_eq!(
        (r.x1_tensor_pos, r.x2_tensor_pos, r.x3_tensor_pos),
        (0, 0, 3072)
    );
    let hf = layer_norm_grad_tiling_info(&[1, 1, 32, 32], 9 * 16 * 32 * 4, 2, false).unwrap();
    assert_eq!(
        (hf.tmp_tensor_pos, hf.tmp_tensor1_pos, hf.tmp_tensor2_pos),
        (3072, 3584, 4096)
    );
    assert_eq!(
        layer_norm_grad_tiling_info(&[1, 1, 64, 64], 100, 4, false),
        None
    );
}

#[test]
fn layer_norm_grad_errors() {
    let t = layer_norm_grad_tiling_info(&[1, 8, 64, 64], 6 * 8 * 64 * 4, 4, false).unwrap();
    let e = error_on("a2", move |ub| {
        let a = ub.tensor(512, 0f32);
        let tmp = ub.tensor::<u8>(1024, 0);
        layer_norm_grad(
            &a,
            &a,
            &a,
            &a,
            &a,
            &a,
            &a,
            Tmp::Shared(&tmp),
            0.0,
            &t,
            false,
        )
    });
    assert!(e.to_string().contains("stackBufferSize"), "{e}");
    let e = error_on("a2", move |ub| {
        let a = ub.tensor(256, 0f32);
        let tmp = ub.tensor::<u8>(6 * 8 * 64 * 4, 0);
        layer_norm_grad(
            &a,
            &a,
            &a,
            &a,
            &a,
            &a,
            &a,
            Tmp::Shared(&tmp),
            0.0,
            &t,
            false,
        )
    });
    assert!(e.to_string().contains("`outputPdX` holds 256"), "{e}");
    let e = error_on("a2", move |ub| {
        let a = ub.tensor(512, f16::ZERO);
        let tmp = ub.tensor::<u8>(6 * 8 * 64 * 4, 0);
        layer_norm_grad(
            &a,
            &a,
            &a,
            &a,
            &a,
            &a,
            &a,
            Tmp::Shared(&tmp),
            f16::ZERO,
            &t,
            true,
        )
    });
    assert!(e.to_string().contains("isReuseSource"), "{e}");
}

// ---------------------------------------------------------------- LayerNormGradBeta

fn expect_beta(dy: &[f32], rg: &[f32], t: &LayerNormGradBetaTiling) -> (Vec<f32>, Vec<f32>) {
    let hc = t.original_h_length as usize;
    let mut passes = vec![(0usize, t.bs_cur_length as usize)];
    for i in 1..t.loop_round as usize {
        passes.push((i * t.one_cal_size as usize, t.bs_cur_length as usize));
    }
    if t.input_tail_size > 0 {
        passes.push((t.input_tail_pos as usize, t.bs_tail_size as usize));
    }
    let mut g = vec![0f32; hc];
    let mut b = vec![0f32; hc];
    let mut first = true;
    for (at, rows) in passes {
        for r in 0..rows {
            for k in 0..hc {
                let i = at + r * hc + k;
                let (pg, pb) = (dy[i] * rg[i], dy[i]);
                if first && r == 0 {
                    g[k] = pg + 0.0;
                    b[k] = pb + 0.0;
                } else {
                    g[k] += pg;
                    b[k] += pb;
                }
            }
        }
        first = false;
    }
    (g, b)
}

#[test]
fn layer_norm_grad_beta_exact_a2_310p() {
    let mut rng = Rng(21);
    // (b, s, h, oh, tmp bytes, half)
    for &(b, s, h, oh, tmp, half) in &[
        (2u32, 3u32, 64u32, 64u32, 2048u32, false),
        (1, 7, 40, 40, 2 * 40 * 4 * 3, false),
        (2, 5, 32, 32, 4 * 32 * 4 + 3 * 32 * 8, true),
        (1, 4, 48, 40, 4096, false),
    ] {
        let n = (b * s * h) as usize;
        let mut dy: Vec<f32> = (0..n).map(|_| rng.f(-2.0, 2.0)).collect();
        let mut rg: Vec<f32> = (0..n).map(|_| rng.f(-2.0, 2.0)).collect();
        dy[0] = -0.0;
        rg[0] = 0.5;
        if half {
            for v in dy.iter_mut().chain(rg.iter_mut()) {
                *v = f16::from_f32(*v).to_f32();
            }
        }
        let ts = if half { 2 } else { 4 };
        let t = layer_norm_grad_beta_tiling_info(&[b, s, h, oh], tmp, ts).unwrap();
        let (mut wg, mut wb) = expect_beta(&dy, &rg, &t);
        if half {
            for v in wg.iter_mut().chain(wb.iter_mut()) {
                *v = f16::from_f32(*v).to_f32();
            }
        }
        for p in ["a2", "310p"] {
            let (gg, gb) = run_p(p, |ub| {
                let tm = ub.tensor::<u8>(tmp, 0);
                if half {
                    let hd: Vec<f16> = dy.iter().map(|&v| f16::from_f32(v)).collect();
                    let hr: Vec<f16> = rg.iter().map(|&v| f16::from_f32(v)).collect();
                    let (d, r) = (ub.from(&hd), ub.from(&hr));
                    let (og, ob) = (ub.tensor(h, f16::ZERO), ub.tensor(h, f16::ZERO));
                    layer_norm_grad_beta(&og, &ob, &r, &d, Tmp::Shared(&tm), &t, false)?;
                    let f = |t: &LocalTensor<f16>| -> Vec<f32> {
                        read(t, oh as usize).iter().map(|a| a.to_f32()).collect()
                    };
                    Ok((f(&og), f(&ob)))
                } else {
                    let (d, r) = (ub.from(&dy), ub.from(&rg));
                    let (og, ob) = (ub.tensor(h, 0f32), ub.tensor(h, 0f32));
                    layer_norm_grad_beta(&og, &ob, &r, &d, Tmp::Shared(&tm), &t, false)?;
                    Ok((read(&og, oh as usize), read(&ob, oh as usize)))
                }
            });
            same(&gg, &wg, &format!("{p} pdGamma {b}x{s}x{h}"));
            same(&gb, &wb, &format!("{p} pdBeta {b}x{s}x{h}"));
        }
    }
}

#[test]
fn layer_norm_grad_beta_tiling_sizes_errors() {
    assert_eq!(
        layer_norm_grad_beta_max_min_tmp_size(&[2, 3, 64, 64], 4),
        Some((2 * 384 * 4, 2 * 64 * 4))
    );
    assert_eq!(
        layer_norm_grad_beta_max_min_tmp_size(&[2, 3, 64, 64], 2),
        Some((4 * 384 * 4, 4 * 64 * 4))
    );
    let t = layer_norm_grad_beta_tiling_info(&[2, 5, 32, 32], 1024, 2).unwrap();
    assert_eq!(
        (t.one_cal_size, t.loop_round, t.input_tail_size),
        (96, 3, 32)
    );
    assert_eq!(
        (
            t.beta_temp_tensor_pos,
            t.input_dy_tmp_tensor_pos,
            t.res_for_gamma_tmp_tensor_pos
        ),
        (32, 64, 160)
    );
    assert_eq!(
        layer_norm_grad_beta_tiling_info(&[2, 5, 32, 32], 200, 4),
        None
    );
    let e = error_on("a2", move |ub| {
        let a = ub.tensor(320, 0f32);
        let tmp = ub.tensor::<u8>(512, 0);
        layer_norm_grad_beta(&a, &a, &a, &a, Tmp::Shared(&tmp), &t, false)
    });
    assert!(e.to_string().contains("stackBufferSize"), "{e}");
}

/// Error against float64 (the table in docs/high-level/norm-stats.md).
#[test]
fn layer_norm_grad_error_vs_f64() {
    let mut rng = Rng(55);
    let c = GradCase {
        rows: 48,
        h: 64,
        oh: 64,
        tmp: 6 * 8 * 64 * 4,
    };
    let inp = inputs(&mut rng, &c);
    let t = layer_norm_grad_tiling_info(&[1, 48, 64, 64], c.tmp, 4, false).unwrap();
    let (pdx, rg) = run_grad_f32("a2", &inp, &c, 1e-5, &t, false);
    let [dy, x, g, var, mean] = &inp;
    let (mut e_pdx, mut e_rg) = (0f64, 0f64);
    for r in 0..c.rows {
        let v = var[r] as f64 + 1e-5;
        let rs = v.powf(-0.5);
        let row = r * c.h..(r + 1) * c.h;
        let x2: Vec<f64> = x[row.clone()]
            .iter()
            .map(|a| *a as f64 - mean[r] as f64)
            .collect();
        let x1: Vec<f64> = dy[row]
            .iter()
            .zip(g)
            .map(|(a, b)| *a as f64 * *b as f64)
            .collect();
        let pv: f64 = x1
            .iter()
            .zip(&x2)
            .map(|(a, b)| -0.5 * a * b * v.powf(-1.5))
            .sum();
        let pm: f64 = x1.iter().map(|a| -a * rs).sum::<f64>()
            + pv / 64.0 * x2.iter().map(|b| -2.0 * b).sum::<f64>();
        for k in 0..c.h {
            let w = x1[k] * rs + pv * 2.0 / 64.0 * x2[k] + pm / 64.0;
            let scale = (x1[k] * rs).abs() + (pv * 2.0 / 64.0 * x2[k]).abs() + (pm / 64.0).abs();
            e_pdx = e_pdx.max((pdx[r * c.h + k] as f64 - w).abs() / scale.max(1e-3));
            e_rg = e_rg
                .max((rg[r * c.h + k] as f64 - x2[k] * rs).abs() / (x2[k] * rs).abs().max(1e-3));
        }
    }
    println!("LayerNormGrad float: pdX rel (to the terms' magnitude) {e_pdx:.3e}, resForGamma rel {e_rg:.3e}");
    assert!(e_pdx < 1e-4 && e_rg < 1e-5, "{e_pdx} {e_rg}");
}
