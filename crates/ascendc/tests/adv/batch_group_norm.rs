//! BatchNorm: bit-exact against a host emulation of the device's instruction sequence on A2 and
//! 310P (float and half, several passes with a tail), the page's example, the tiling helpers,
//! errors, and the error against float64.

use crate::ub_harness;

use ascendc::adv::common::Tmp;
use ascendc::adv::normalization::batchnorm::{
    batch_norm, batch_norm_max_min_tmp_size, batch_norm_tiling_info, BatchNormTiling,
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

/// Host emulation, column by column, in float: (output, mean, variance).
fn expect(x: &[f32], g: &[f32], be: &[f32], b: usize, eps: f32) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
    let n = x.len() / b;
    let inv_b = 1.0 / b as f32;
    let (mut out, mut mean, mut var) = (vec![0f32; b * n], vec![0f32; n], vec![0f32; n]);
    for j in 0..n {
        let mut m = x[j] * inv_b;
        for i in 1..b {
            m += x[i * n + j] * inv_b;
        }
        let d: Vec<f32> = (0..b).map(|i| x[i * n + j] - m).collect();
        let mut v = d[0] * d[0] * inv_b;
        for di in &d[1..] {
            v += di * di * inv_b;
        }
        let r = ((v + eps) as f64).ln() as f32 * -0.5;
        let r = (r as f64).exp() as f32;
        for i in 0..b {
            out[i * n + j] = be[i] + g[i] * (d[i] * r);
        }
        mean[j] = m;
        var[j] = v;
    }
    (out, mean, var)
}

#[allow(clippy::too_many_arguments)]
fn run_f32(
    p: &str,
    x: &[f32],
    g: &[f32],
    be: &[f32],
    tmp: u32,
    eps: f32,
    t: &BatchNormTiling,
    basic: bool,
) -> (Vec<f32>, Vec<f32>, Vec<f32>, BatchNormTiling) {
    let n = x.len();
    let mvs = t.mean_var_size as usize;
    run_p(p, |ub| {
        let (xs, gs, bs) = (ub.from(x), ub.from(g), ub.from(be));
        let out = ub.tensor(n as u32, 0f32);
        let (mean, var) = (ub.tensor(mvs as u32, 0f32), ub.tensor(mvs as u32, 0f32));
        let tb = ub.tensor::<u8>(tmp, 0);
        let mut t = *t;
        batch_norm(
            &out,
            &mean,
            &var,
            &xs,
            &gs,
            &bs,
            Tmp::Shared(&tb),
            eps,
            &mut t,
            false,
            basic,
        )?;
        Ok((read(&out, n), read(&mean, mvs), read(&var, mvs), t))
    })
}

fn run_f16(
    p: &str,
    x: &[f16],
    g: &[f16],
    be: &[f16],
    tmp: u32,
    eps: f16,
    t: &BatchNormTiling,
) -> (Vec<f16>, Vec<f16>, Vec<f16>) {
    let n = x.len();
    let mvs = t.mean_var_size as usize;
    run_p(p, |ub| {
        let (xs, gs, bs) = (ub.from(x), ub.from(g), ub.from(be));
        let out = ub.tensor(n as u32, f16::ZERO);
        let (mean, var) = (
            ub.tensor(mvs as u32, f16::ZERO),
            ub.tensor(mvs as u32, f16::ZERO),
        );
        let tb = ub.tensor::<u8>(tmp, 0);
        let mut t = *t;
        batch_norm(
            &out,
            &mean,
            &var,
            &xs,
            &gs,
            &bs,
            Tmp::Shared(&tb),
            eps,
            &mut t,
            false,
            false,
        )?;
        Ok((read(&out, n), read(&mean, mvs), read(&var, mvs)))
    })
}

fn edges(rng: &mut Rng, n: usize) -> Vec<f32> {
    let mut x: Vec<f32> = (0..n).map(|_| rng.f(-4.0, 4.0)).collect();
    // One column of each: ±0, a denormal, a large value, ±inf, NaN.
    let edge = [
        0.0,
        -0.0,
        1e-40,
        3e19,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
    ];
    for (k, e) in edge.iter().enumerate() {
        x[k * 3 + 1] = *e;
    }
    x
}

#[test]
fn batch_norm_float_exact_a2_310p() {
    let mut rng = Rng(7);
    // (B, S, H, tmp bytes): one pass; several passes with a tail; a basic block.
    for (b, s, h, tmp, basic) in [
        (8usize, 4u32, 8u32, 8 * 32 * 4 * 3 + 256, false),
        (4, 5, 8, 1000, false),
        (3, 7, 8, 2000, false),
        (8, 2, 64, 3 * 8 * 64 * 4 + 1024, true),
    ] {
        let n = b * (s * h) as usize;
        let x = edges(&mut rng, n);
        let g: Vec<f32> = (0..b).map(|_| rng.f(-2.0, 2.0)).collect();
        let be: Vec<f32> = (0..b).map(|_| rng.f(-2.0, 2.0)).collect();
        let t = batch_norm_tiling_info(&[b as u32, s, h], &[b as u32, s, h], tmp, 4, false, basic)
            .unwrap();
        let (wo, wm, wv) = expect(&x, &g, &be, b, 1e-5);
        for p in ["a2", "310p"] {
            let (o, m, v, after) = run_f32(p, &x, &g, &be, tmp, 1e-5, &t, basic);
            same(&o, &wo, &format!("{p} output b={b} sh={}", s * h));
            same(&m, &wm, &format!("{p} mean"));
            same(&v, &wv, &format!("{p} variance"));
            if t.input_tail_size > 0 {
                assert_eq!(after.sh_cur_length, t.mean_var_tail_size);
                assert_eq!(after.bsh_cur_length, t.input_tail_size);
            } else {
                assert_eq!(after, t);
            }
        }
    }
}

#[test]
fn batch_norm_half_exact_a2_310p() {
    let mut rng = Rng(11);
    // (B, S, H, tmp bytes): passes of 16 and 32 columns, the second with a tail.
    for (b, s, h, tmp) in [
        (4usize, 5u32, 16u32, 2000u32),
        (4, 3, 16, 1944),
        (8, 1, 32, 4096),
    ] {
        let n = b * (s * h) as usize;
        // ±0, a half denormal, a large value (inf and NaN narrow to 0 in the default
        // saturation mode, which the float emulation does not model).
        let mut x: Vec<f32> = (0..n).map(|_| rng.f(-4.0, 4.0)).collect();
        x[1] = 0.0;
        x[4] = -0.0;
        x[7] = 3e-6;
        x[10] = 250.0;
        let x: Vec<f16> = x.iter().map(|v| f16::from_f32(*v)).collect();
        let g: Vec<f16> = (0..b).map(|_| h16(rng.f(-2.0, 2.0))).collect();
        let be: Vec<f16> = (0..b).map(|_| h16(rng.f(-2.0, 2.0))).collect();
        let t = batch_norm_tiling_info(&[b as u32, s, h], &[b as u32, s, h], tmp, 2, false, false)
            .unwrap();
        let wide = |v: &[f16]| v.iter().map(|x| x.to_f32()).collect::<Vec<f32>>();
        let eps = f16::from_f32(1e-3);
        let (wo, wm, wv) = expect(&wide(&x), &wide(&g), &wide(&be), b, eps.to_f32());
        let narrow = |v: &[f32]| {
            v.iter()
                .map(|x| f16::from_f32(*x).to_f32())
                .collect::<Vec<f32>>()
        };
        for p in ["a2", "310p"] {
            let (o, m, v) = run_f16(p, &x, &g, &be, tmp, eps, &t);
            same(&wide(&o), &narrow(&wo), &format!("{p} half output b={b}"));
            same(&wide(&m), &narrow(&wm), &format!("{p} half mean"));
            same(&wide(&v), &narrow(&wv), &format!("{p} half variance"));
        }
    }
}

fn h16(v: f32) -> f16 {
    f16::from_f32(v)
}

/// 调用示例: inputX 0..63 as [8, 4, 2], gamm = beta = 0..7.
#[test]
fn batch_norm_page_example() {
    let x: Vec<f32> = (0..64).map(|v| v as f32).collect();
    let g: Vec<f32> = (0..8).map(|v| v as f32).collect();
    let (mn, _) = batch_norm_max_min_tmp_size(&[8, 4, 2], &[8, 4, 2], 4, false, false).unwrap();
    let t = batch_norm_tiling_info(&[8, 4, 2], &[8, 4, 2], mn, 4, false, false).unwrap();
    let (o, m, v, _) = run_f32("a2", &x, &g, &g, mn, 0.01, &t, false);
    let rows = [
        0.0,
        -0.091073155,
        0.6907122,
        2.345356,
        4.8728585,
        8.27322,
        12.546439,
        17.692516,
    ];
    for (i, want) in rows.iter().enumerate() {
        for k in 0..8 {
            let got = o[i * 8 + k];
            assert!(
                (got - want).abs() <= 2e-6 * want.abs().max(1.0),
                "row {i}: {got} vs {want}"
            );
        }
    }
    assert_eq!(m, (28..36).map(|v| v as f32).collect::<Vec<_>>());
    assert_eq!(v, vec![336.0; 8]);
}

#[test]
fn batch_norm_tiling_and_sizes() {
    // max = 3·B·S·H·4 + 2·S·H·4; min = 3·B·32 (float) / 3·B·64 (half) / 3·B·256 (basic) + 2·S·H·4.
    assert_eq!(
        batch_norm_max_min_tmp_size(&[8, 4, 2], &[8, 4, 2], 4, false, false),
        Some((3 * 256 + 64, 3 * 8 * 32 + 64))
    );
    assert_eq!(
        batch_norm_max_min_tmp_size(&[8, 4, 16], &[8, 4, 16], 2, false, false),
        Some((3 * 8 * 64 * 4 + 2 * 256, 3 * 8 * 64 + 2 * 256))
    );
    assert_eq!(
        batch_norm_max_min_tmp_size(&[8, 1, 64], &[8, 1, 64], 4, false, true),
        Some((3 * 8 * 64 * 4 + 2 * 256, 3 * 8 * 256 + 2 * 256))
    );
    assert_eq!(
        batch_norm_max_min_tmp_size(&[8, 1, 32], &[8, 1, 32], 4, false, true),
        None
    );
    assert_eq!(
        batch_norm_max_min_tmp_size(&[8, 32], &[8, 32], 4, false, false),
        None
    );
    let t = batch_norm_tiling_info(&[4, 5, 8], &[4, 5, 8], 1000, 4, false, false).unwrap();
    assert_eq!(
        t,
        BatchNormTiling {
            original_b_length: 4,
            mean_var_size: 40,
            mean_tmp_tensor_pos: 0,
            variance_tmp_tensor_pos: 40,
            tmp_buf_size: 250,
            one_tmp_size: 64,
            first_tmp_start_pos: 0,
            second_tmp_start_pos: 64,
            third_tmp_start_pos: 128,
            loop_round: 2,
            input_tail_size: 32,
            input_tail_pos: 32,
            mean_var_tail_size: 8,
            mean_var_tail_pos: 32,
            bsh_cur_length: 64,
            sh_cur_length: 16,
            first_dim_value_back: 0.25,
            cast_half_rep_stride: 4,
            sh_cur_length_block_num: 2,
            cast_half_out_rep_stride: 2,
        }
    );
    let t = batch_norm_tiling_info(&[4, 3, 16], &[4, 3, 16], 1944, 2, false, false).unwrap();
    assert_eq!(
        (
            t.first_tmp_start_pos,
            t.one_tmp_size,
            t.sh_cur_length,
            t.input_tail_size
        ),
        (96, 128, 32, 64)
    );
    // S·H·typeSize not a multiple of 32; below the minimum.
    assert_eq!(
        batch_norm_tiling_info(&[4, 3, 4], &[4, 3, 4], 4096, 2, false, false),
        None
    );
    assert_eq!(
        batch_norm_tiling_info(&[4, 5, 8], &[4, 5, 8], 700, 4, false, false),
        None
    );
}

#[test]
fn batch_norm_errors() {
    let t = batch_norm_tiling_info(&[4, 5, 8], &[4, 5, 8], 1000, 4, false, false).unwrap();
    let e = error_on("a2", move |ub| {
        let a = ub.tensor(160, 0f32);
        let tmp = ub.tensor::<u8>(512, 0);
        let mut t = t;
        batch_norm(
            &a,
            &a,
            &a,
            &a,
            &a,
            &a,
            Tmp::Shared(&tmp),
            0.0,
            &mut t,
            false,
            false,
        )
    });
    assert!(e.to_string().contains("tmpBufSize = 250"), "{e}");
    let e = error_on("310p", move |ub| {
        let a = ub.tensor(128, 0f32);
        let tmp = ub.tensor::<u8>(1000, 0);
        let mut t = t;
        batch_norm(
            &a,
            &a,
            &a,
            &a,
            &a,
            &a,
            Tmp::Shared(&tmp),
            0.0,
            &mut t,
            false,
            false,
        )
    });
    assert!(e.to_string().contains("`output` holds 128"), "{e}");
    let e = error_on("a2", move |ub| {
        let a = ub.tensor(160, 0i32);
        let tmp = ub.tensor::<u8>(1000, 0);
        let mut t = t;
        batch_norm(
            &a,
            &a,
            &a,
            &a,
            &a,
            &a,
            Tmp::Shared(&tmp),
            0,
            &mut t,
            false,
            false,
        )
    });
    assert!(e.to_string().contains("half or float"), "{e}");
    let e = error_on("a2", move |ub| {
        let a = ub.tensor(160, 0f32);
        let tmp = ub.tensor::<u8>(1000, 0);
        let mut t = t;
        batch_norm(
            &a,
            &a,
            &a,
            &a,
            &a,
            &a,
            Tmp::Shared(&tmp),
            0.0,
            &mut t,
            false,
            true,
        )
    });
    assert!(e.to_string().contains("isBasicBlock"), "{e}");
    let e = error_on("a2", move |ub| {
        let a = ub.tensor(160, 0f32);
        let tmp = ub.tensor::<u8>(1000, 0);
        let mut t = BatchNormTiling::default();
        batch_norm(
            &a,
            &a,
            &a,
            &a,
            &a,
            &a,
            Tmp::Shared(&tmp),
            0.0,
            &mut t,
            false,
            false,
        )
    });
    assert!(e.to_string().contains("GetBatchNormNDTilingInfo"), "{e}");
}

/// Error against float64 (the table in docs/high-level/batch-group-norm.md).
#[test]
fn batch_norm_error_vs_f64() {
    let mut rng = Rng(23);
    let (b, s, h) = (8usize, 8u32, 64u32);
    let n = b * (s * h) as usize;
    let cols = (s * h) as usize;
    let x: Vec<f32> = (0..n).map(|_| rng.f(-10.0, 10.0)).collect();
    let g: Vec<f32> = (0..b).map(|_| rng.f(0.5, 2.0)).collect();
    let be: Vec<f32> = (0..b).map(|_| rng.f(-1.0, 1.0)).collect();
    let reference = |x: &[f64], g: &[f64], be: &[f64]| {
        let mut out = vec![0f64; n];
        let (mut mean, mut var) = (vec![0f64; cols], vec![0f64; cols]);
        for j in 0..cols {
            let m = (0..b).map(|i| x[i * cols + j]).sum::<f64>() / b as f64;
            let v = (0..b).map(|i| (x[i * cols + j] - m).powi(2)).sum::<f64>() / b as f64;
            for i in 0..b {
                out[i * cols + j] = g[i] * (x[i * cols + j] - m) / (v + 1e-5).sqrt() + be[i];
            }
            mean[j] = m;
            var[j] = v;
        }
        (out, mean, var)
    };
    let f64s = |v: &[f32]| v.iter().map(|x| *x as f64).collect::<Vec<f64>>();
    let err = |got: &[f32], want: &[f64]| {
        got.iter()
            .zip(want)
            .map(|(a, w)| (*a as f64 - w).abs() / w.abs().max(1.0))
            .fold(0f64, f64::max)
    };
    let tmp = 48 * 1024;
    let t = batch_norm_tiling_info(&[8, s, h], &[8, s, h], tmp, 4, false, false).unwrap();
    let (o, m, v, _) = run_f32("a2", &x, &g, &be, tmp, 1e-5, &t, false);
    let (wo, wm, wv) = reference(&f64s(&x), &f64s(&g), &f64s(&be));
    let (eo, em, ev) = (err(&o, &wo), err(&m, &wm), err(&v, &wv));
    println!("BatchNorm float: output {eo:.3e}, mean {em:.3e}, variance {ev:.3e}");
    assert!(eo < 2e-6 && em < 1e-6 && ev < 2e-6, "{eo} {em} {ev}");
    let xh: Vec<f16> = x.iter().map(|v| h16(*v)).collect();
    let (gh, bh): (Vec<f16>, Vec<f16>) = (
        g.iter().map(|v| h16(*v)).collect(),
        be.iter().map(|v| h16(*v)).collect(),
    );
    let wide = |v: &[f16]| v.iter().map(|x| x.to_f32()).collect::<Vec<f32>>();
    let t = batch_norm_tiling_info(&[8, s, h], &[8, s, h], tmp, 2, false, false).unwrap();
    let (o, m, v) = run_f16("a2", &xh, &gh, &bh, tmp, h16(1e-5), &t);
    let (wo, wm, wv) = reference(&f64s(&wide(&xh)), &f64s(&wide(&gh)), &f64s(&wide(&bh)));
    let (eo, em, ev) = (
        err(&wide(&o), &wo),
        err(&wide(&m), &wm),
        err(&wide(&v), &wv),
    );
    println!("BatchNorm half: output {eo:.3e}, mean {em:.3e}, variance {ev:.3e}");
    assert!(eo < 1e-3 && em < 1e-3 && ev < 1e-3, "{eo} {em} {ev}");
}
