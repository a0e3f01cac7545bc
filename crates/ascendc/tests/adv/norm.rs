//! The normalization and quantization high-level APIs: bit-exact against a host emulation of
//! the device's instruction sequence, the pages' worked examples, the host helpers, and errors.

use crate::ub_harness;

use ascendc::adv::common::Tmp;
use ascendc::adv::normalization::{
    rms_norm, rms_norm_max_min_tmp_size, rms_norm_tiling_info, RmsNormTiling,
};
use ascendc::adv::quantization::{
    ascend_quant, ascend_quant_max_min_tmp_size, ascend_quant_tmp_buffer_factor_size, QuantParams,
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

/// The 64-lane pairwise tree of `RepeatReduceSum` (absent lanes +0).
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

/// Host emulation of RmsNorm's float path for one row (generic reduction).
fn rms_row(x: &[f32], g: &[f32], h0: usize, recip: f32, eps: f32) -> Vec<f32> {
    let mut sq: Vec<f32> = x.iter().map(|v| v * v).collect();
    let mut total = h0;
    let mut sum = sq[0];
    while total > 1 {
        let parts: Vec<f32> = sq[..total].chunks(64).map(tree64).collect();
        total = parts.len();
        sq[..total].copy_from_slice(&parts);
        sum = parts[0];
    }
    let r = sum * recip + eps;
    let r = ((r as f64).ln() as f32) * -0.5;
    let r = (r as f64).exp() as f32;
    x.iter().zip(g).map(|(v, g)| v * r * g).collect()
}

fn tiling(b: u32, s: u32, h: u32, oh: u32, bytes: u32, ts: u32, basic: bool) -> RmsNormTiling {
    rms_norm_tiling_info(&[b, s, h], &[b, s, oh], bytes, ts, basic).unwrap()
}

/// Runs float RmsNorm on `p` and returns dst.
fn run_rms_f32(
    p: &str,
    x: &[f32],
    g: &[f32],
    eps: f32,
    t: RmsNormTiling,
    basic: bool,
    tmp_bytes: u32,
) -> Vec<f32> {
    run_p(p, |ub| {
        let src = ub.from(x);
        let gamma = ub.from(g);
        let dst = ub.tensor(x.len() as u32, 0f32);
        let tmp = ub.tensor::<u8>(tmp_bytes, 0);
        rms_norm(&dst, &src, &gamma, Tmp::Shared(&tmp), eps, &t, basic)?;
        Ok((0..x.len() as u32)
            .map(|i| dst.get_value(i).unwrap())
            .collect::<Vec<_>>())
    })
}

fn expect_rms(x: &[f32], g: &[f32], rows: usize, h: usize, h0: usize, eps: f32) -> Vec<f32> {
    let recip = (1.0f64 / h0 as f64) as f32;
    (0..rows)
        .flat_map(|r| rms_row(&x[r * h..(r + 1) * h], g, h0, recip, eps))
        .collect()
}

#[test]
fn rms_norm_page_example() {
    let x: Vec<f32> = (0..16).map(|v| v as f32).collect();
    let t = tiling(1, 1, 16, 16, 4096, 4, false);
    let out = run_rms_f32("a2", &x, &x, 1e-5, t, false, 4096);
    let page = [
        0.0, 0.11359233, 0.4543693, 1.022331, 1.8174772, 2.8398082, 4.089324, 5.566024, 7.269909,
        9.200979, 11.359233, 13.744672, 16.357296, 19.197104, 22.264095, 25.558275,
    ];
    for (a, b) in out.iter().zip(page) {
        assert!((a - b).abs() <= 2e-6 * b.abs().max(1.0), "{a} vs {b}");
    }
}

#[test]
fn rms_norm_float_exact_a2_310p() {
    let mut rng = Rng(7);
    // (b, s, h, originalH, tmp bytes): several passes with a tail; H below, at and above 64;
    // H padded (original shorter); H above 64 not a multiple of 64.
    for &(b, s, h, oh, bytes) in &[
        (2, 5, 64, 64, 1024u32),
        (1, 7, 32, 27, 512),
        (3, 4, 160, 150, 4000),
        (1, 2, 2048, 2048, 9000),
        (2, 2, 200, 200, 4000),
    ] {
        let n = (b * s * h) as usize;
        let mut x: Vec<f32> = (0..n).map(|_| rng.f(-3.0, 3.0)).collect();
        x[0] = 0.0;
        x[1] = -0.0;
        x[2] = 1e-40;
        x[3] = 1e20;
        let g: Vec<f32> = (0..h).map(|_| rng.f(-2.0, 2.0)).collect();
        let t = tiling(b, s, h, oh, bytes, 4, false);
        let want = expect_rms(&x, &g, (b * s) as usize, h as usize, oh as usize, 1e-5);
        for p in ["a2", "310p"] {
            let got = run_rms_f32(p, &x, &g, 1e-5, t, false, bytes);
            for (i, (a, w)) in got.iter().zip(&want).enumerate() {
                assert_eq!(
                    a.to_bits(),
                    w.to_bits(),
                    "{p} shape {b}x{s}x{h} at {i}: {a} vs {w}"
                );
            }
        }
    }
}

#[test]
fn rms_norm_basic_block_matches_on_both_products() {
    let mut rng = Rng(11);
    let (b, s, h) = (2u32, 8u32, 128u32);
    let n = (b * s * h) as usize;
    let x: Vec<f32> = (0..n).map(|_| rng.f(-2.0, 2.0)).collect();
    let g: Vec<f32> = (0..h).map(|_| rng.f(-2.0, 2.0)).collect();
    let (max, _) = rms_norm_max_min_tmp_size(&[b, s, h], 4, true).unwrap();
    let t = tiling(b, s, h, h, max, 4, true);
    assert_eq!(t.main_bs_length, 16);
    // Basic blocks sum each row as: fold the 64-wide column blocks with Add, then one tree.
    let want: Vec<f32> = (0..(b * s) as usize)
        .flat_map(|r| {
            let row = &x[r * 128..(r + 1) * 128];
            let sq: Vec<f32> = row.iter().map(|v| v * v).collect();
            let folded: Vec<f32> = (0..64).map(|k| sq[k] + sq[64 + k]).collect();
            let sum = tree64(&folded);
            let f = ((sum * (1.0 / 128.0) + 1e-5) as f64).ln() as f32 * -0.5;
            let f = (f as f64).exp() as f32;
            row.iter()
                .zip(&g)
                .map(move |(v, g)| v * f * g)
                .collect::<Vec<_>>()
        })
        .collect();
    for p in ["a2", "310p"] {
        let got = run_rms_f32(p, &x, &g, 1e-5, t, true, max);
        for (i, (a, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(a.to_bits(), w.to_bits(), "{p} at {i}: {a} vs {w}");
        }
    }
}

#[test]
fn rms_norm_half_exact() {
    let mut rng = Rng(3);
    let (b, s, h) = (1u32, 10u32, 48u32);
    let n = (b * s * h) as usize;
    let x: Vec<f16> = (0..n).map(|_| h16(rng.f(-4.0, 4.0))).collect();
    let g: Vec<f16> = (0..h).map(|_| h16(rng.f(-1.0, 1.0))).collect();
    let eps = h16(1e-3);
    let (_, min) = rms_norm_max_min_tmp_size(&[b, s, h], 2, false).unwrap();
    let bytes = min * 3;
    let t = tiling(b, s, h, h, bytes, 2, false);
    assert!(t.loop_round > 1 && t.tail_bs_length > 0, "{t:?}");
    let xf: Vec<f32> = x.iter().map(|v| v.to_f32()).collect();
    let gf: Vec<f32> = g.iter().map(|v| v.to_f32()).collect();
    let want: Vec<u16> = expect_rms(
        &xf,
        &gf,
        (b * s) as usize,
        h as usize,
        h as usize,
        eps.to_f32(),
    )
    .iter()
    .map(|v| f16::from_f32(*v).to_bits())
    .collect();
    for p in ["a2", "310p"] {
        let got = run_p(p, |ub| {
            let src = ub.from(&x);
            let gamma = ub.from(&g);
            let dst = ub.tensor(n as u32, f16::ZERO);
            let tmp = ub.tensor::<u8>(bytes, 0);
            rms_norm(&dst, &src, &gamma, Tmp::Shared(&tmp), eps, &t, false)?;
            Ok((0..n as u32)
                .map(|i| dst.get_value(i).unwrap().to_bits())
                .collect::<Vec<_>>())
        });
        assert_eq!(got, want, "{p}");
    }
}

fn h16(v: f32) -> f16 {
    f16::from_f32(v)
}

#[test]
fn rms_norm_host_helpers() {
    // float: max B·S·H + align(B·S, 8) floats, min H + 8 floats.
    assert_eq!(
        rms_norm_max_min_tmp_size(&[2, 16, 64], 4, false),
        Some(((2048 + 32) * 4, (64 + 8) * 4))
    );
    // half: twice the rows; B·S aligned to 16.
    assert_eq!(
        rms_norm_max_min_tmp_size(&[1, 3, 32], 2, false),
        Some(((192 + 16) * 4, (64 + 8) * 4))
    );
    assert_eq!(rms_norm_max_min_tmp_size(&[1, 3, 64], 4, true), None);
    assert_eq!(rms_norm_max_min_tmp_size(&[2, 4, 2048], 4, true), None);
    // The vendor's loop: rows while (rows+1)·H + align8(rows+1) floats fit.
    let t = tiling(2, 16, 64, 60, 1000 * 4, 4, false);
    assert_eq!(t.main_bs_length, 15);
    assert_eq!(t.main_bsh_length, 960);
    assert_eq!(t.main_bs_length_align, 16);
    assert_eq!(t.loop_round, 2);
    assert_eq!(t.tail_bsh_length, 2048 - 1920);
    assert_eq!(t.tail_bs_length, 2);
    assert_eq!(t.input_tail_pos, 1920);
    assert_eq!(t.reciprocal_of_h_length, 1.0 / 60.0);
    // Refusals: below the minimum, H not whole blocks, B differing, bad rank.
    assert!(rms_norm_tiling_info(&[1, 1, 64], &[1, 1, 64], 71 * 4, 4, false).is_none());
    assert!(rms_norm_tiling_info(&[1, 1, 60], &[1, 1, 60], 4096, 4, false).is_none());
    assert!(rms_norm_tiling_info(&[1, 2, 64], &[2, 1, 64], 4096, 4, false).is_none());
    assert!(rms_norm_tiling_info(&[2, 64], &[2, 64], 4096, 4, false).is_none());
    assert_eq!(std::mem::size_of::<RmsNormTiling>(), 48);
}

#[test]
fn rms_norm_errors() {
    let t = tiling(1, 2, 64, 64, 4096, 4, false);
    let e = error_on("a2", |ub| {
        let x = ub.tensor(128, 1f32);
        let g = ub.tensor(64, 1f32);
        let tmp = ub.tensor::<u8>(64, 0);
        rms_norm(&x, &x, &g, Tmp::Shared(&tmp), 1e-5, &t, false)
    });
    assert_eq!(e.api, "RmsNorm");
    assert!(e.message.contains("sharedTmpBuffer"), "{e}");
    let e = error_on("a2", |ub| {
        let x = ub.tensor(64, 1f32);
        let g = ub.tensor(64, 1f32);
        let tmp = ub.tensor::<u8>(4096, 0);
        rms_norm(&x, &x, &g, Tmp::Shared(&tmp), 1e-5, &t, false)
    });
    assert!(e.message.contains("dstLocal"), "{e}");
    let e = error_on("a2", |ub| {
        let x = ub.tensor(128, 1i32);
        let tmp = ub.tensor::<u8>(4096, 0);
        rms_norm(&x, &x, &x, Tmp::Shared(&tmp), 1, &t, false)
    });
    assert!(e.message.contains("half or float"), "{e}");
    let e = error_on("310b", |ub| {
        let x = ub.tensor(128, 1f32);
        let tmp = ub.tensor::<u8>(4096, 0);
        rms_norm(&x, &x, &x, Tmp::Shared(&tmp), 1e-5, &t, false)
    });
    assert!(e.message.contains("not available"), "{e}");
    let bad = RmsNormTiling::default();
    let e = error_on("a2", |ub| {
        let x = ub.tensor(128, 1f32);
        let tmp = ub.tensor::<u8>(4096, 0);
        rms_norm(&x, &x, &x, Tmp::Shared(&tmp), 1e-5, &bad, false)
    });
    assert!(e.message.contains("GetRmsNormTilingInfo"), "{e}");
}

/// Max error vs f64 (for the docs table): printed with `--nocapture`.
#[test]
fn rms_norm_error_vs_f64() {
    let mut rng = Rng(99);
    let (b, s, h) = (1u32, 12u32, 256u32);
    let n = (b * s * h) as usize;
    let x: Vec<f32> = (0..n).map(|_| rng.f(-10.0, 10.0)).collect();
    let g: Vec<f32> = (0..h).map(|_| rng.f(-2.0, 2.0)).collect();
    let t = tiling(b, s, h, h, 13_000, 4, false);
    let got = run_rms_f32("a2", &x, &g, 1e-5, t, false, 13_000);
    let mut worst = 0f64;
    for r in 0..(b * s) as usize {
        let row = &x[r * 256..(r + 1) * 256];
        let ms: f64 = row.iter().map(|v| (*v as f64).powi(2)).sum::<f64>() / 256.0;
        let f = 1.0 / (ms + 1e-5f32 as f64).sqrt();
        for k in 0..256 {
            let w = row[k] as f64 * f * g[k] as f64;
            let e = (got[r * 256 + k] as f64 - w).abs() / w.abs().max(1e-3);
            worst = worst.max(e);
        }
    }
    println!("RmsNorm float max rel error {worst:e}");
    assert!(worst < 1e-5, "{worst}");
}

/// f16 arithmetic as one instruction does it: in float, rounded to half.
fn hmul(a: f16, b: f16) -> f16 {
    f16::from_f32(a.to_f32() * b.to_f32())
}
fn hadd(a: f16, b: f16) -> f16 {
    f16::from_f32(a.to_f32() + b.to_f32())
}
/// `Cast` half → int8 with `CAST_NONE`: to nearest even, saturating.
fn to_i8(v: f16) -> i8 {
    v.to_f32().round_ties_even().clamp(-128.0, 127.0) as i8
}

fn quant_inputs(n: usize, seed: u64) -> Vec<f32> {
    let mut rng = Rng(seed);
    let mut x: Vec<f32> = (0..n).map(|_| rng.f(-70.0, 70.0)).collect();
    for (i, v) in [0.0, -0.0, 1e-6, 0.25, 0.75, -2.5, 300.0, -1000.0, 63.75]
        .iter()
        .enumerate()
    {
        x[i] = *v;
    }
    x
}

#[test]
fn ascend_quant_per_tensor_exact() {
    let n = 1000usize;
    let x = quant_inputs(n, 5);
    let (scale, offset) = (2.0f32, 0.9f32);
    let (s, o) = (h16(scale), h16(offset));
    let want: Vec<i8> = x.iter().map(|v| to_i8(hadd(hmul(h16(*v), s), o))).collect();
    for p in ["a2", "310p"] {
        // float source, a buffer smaller than the count (several chunks and a tail)
        let got = run_p(p, |ub| {
            let src = ub.from(&x);
            let dst = ub.tensor(n as u32, 0i8);
            let tmp = ub.tensor::<u8>(512, 0);
            ascend_quant(
                &dst,
                &src,
                Tmp::Shared(&tmp),
                QuantParams::Tensor { scale, offset },
                n as u32,
            )?;
            Ok((0..n as u32)
                .map(|i| dst.get_value(i).unwrap())
                .collect::<Vec<_>>())
        });
        assert_eq!(got, want, "{p} float");
        let xh: Vec<f16> = x.iter().map(|v| h16(*v)).collect();
        let got = run_p(p, |ub| {
            let src = ub.from(&xh);
            let dst = ub.tensor(n as u32, 0i8);
            let tmp = ub.tensor::<u8>(2048, 0);
            ascend_quant(
                &dst,
                &src,
                Tmp::Shared(&tmp),
                QuantParams::Tensor { scale, offset },
                n as u32,
            )?;
            Ok((0..n as u32)
                .map(|i| dst.get_value(i).unwrap())
                .collect::<Vec<_>>())
        });
        assert_eq!(got, want, "{p} half");
    }
}

#[test]
fn ascend_quant_per_channel_exact() {
    let (m, k) = (5usize, 96usize);
    let x = quant_inputs(m * k, 8);
    let mut rng = Rng(21);
    let sc: Vec<f32> = (0..k).map(|_| rng.f(-3.0, 3.0)).collect();
    let of: Vec<f32> = (0..k).map(|_| rng.f(-5.0, 5.0)).collect();
    let off = 1.5f32;
    let scalar: Vec<i8> = (0..m * k)
        .map(|i| to_i8(hadd(hmul(h16(x[i]), h16(sc[i % k])), h16(off))))
        .collect();
    let rows: Vec<i8> = (0..m * k)
        .map(|i| to_i8(hadd(hmul(h16(x[i]), h16(sc[i % k])), h16(of[i % k]))))
        .collect();
    for p in ["a2", "310p"] {
        let (a, b) = run_p(p, |ub| {
            let src = ub.from(&x);
            let scale = ub.from(&sc);
            let offs = ub.from(&of);
            let dst = ub.tensor((m * k) as u32, 0i8);
            let tmp = ub.tensor::<u8>(128, 0);
            let params = QuantParams::Channel {
                scale: &scale,
                offset: off,
                scale_count: k as u32,
            };
            ascend_quant(&dst, &src, Tmp::Shared(&tmp), params, (m * k) as u32)?;
            let a: Vec<i8> = (0..(m * k) as u32)
                .map(|i| dst.get_value(i).unwrap())
                .collect();
            let scale = ub.from(&sc);
            let params = QuantParams::ChannelOffsets {
                scale: &scale,
                offset: &offs,
                scale_count: k as u32,
                offset_count: k as u32,
            };
            ascend_quant(&dst, &src, Tmp::Shared(&tmp), params, (m * k) as u32)?;
            let b: Vec<i8> = (0..(m * k) as u32)
                .map(|i| dst.get_value(i).unwrap())
                .collect();
            Ok((a, b))
        });
        assert_eq!(a, scalar, "{p} scalar offset");
        assert_eq!(b, rows, "{p} offset row");
    }
}

#[test]
fn ascend_quant_examples_and_helpers() {
    // The vendor example's parameters: scale 2, offset 0.9 on float input.
    let x = [0.1f32, -0.3, 1.2, 30.0, -64.2, 0.0, 5.55, -0.45];
    let mut src = x.to_vec();
    src.resize(32, 0.0);
    let got = run(|ub| {
        let s = ub.from(&src);
        let d = ub.tensor(32, 0i8);
        let tmp = ub.tensor::<u8>(512, 0);
        ascend_quant(
            &d,
            &s,
            Tmp::Shared(&tmp),
            QuantParams::Tensor {
                scale: 2.0,
                offset: 0.9,
            },
            32,
        )?;
        Ok((0..8).map(|i| d.get_value(i).unwrap()).collect::<Vec<_>>())
    });
    assert_eq!(got, vec![1, 0, 3, 61, -128, 1, 12, 0]);
    // The page's per-tensor example: -512 … 511, scale 0.02, offset 0.9 → [-9 -9 -9 … 11 …].
    let src: Vec<f16> = (-512..512).map(|v| h16(v as f32)).collect();
    let got = run(|ub| {
        let s = ub.from(&src);
        let d = ub.tensor(1024, 0i8);
        ascend_quant(
            &d,
            &s,
            Tmp::Shared(&ub.tensor::<u8>(4096, 0)),
            QuantParams::Tensor {
                scale: 0.02,
                offset: 0.9,
            },
            1024,
        )?;
        Ok((0..1024)
            .map(|i| d.get_value(i).unwrap())
            .collect::<Vec<_>>())
    });
    assert_eq!(&got[..3], &[-9, -9, -9]);
    assert_eq!(got[1021], 11);
    assert_eq!(ascend_quant_max_min_tmp_size(1024), (2048, 512));
    assert_eq!(ascend_quant_max_min_tmp_size(100), (512, 512));
    assert_eq!(ascend_quant_tmp_buffer_factor_size(), (2, 0));
}

#[test]
fn ascend_quant_errors() {
    let e = error_on("a2", |ub| {
        let s = ub.tensor(64, 1f32);
        let d = ub.tensor(64, 0i8);
        let tmp = ub.tensor::<u8>(32, 0);
        ascend_quant(
            &d,
            &s,
            Tmp::Shared(&tmp),
            QuantParams::Tensor {
                scale: 1.0,
                offset: 0.0,
            },
            64,
        )
    });
    assert_eq!(e.api, "AscendQuant");
    assert!(e.message.contains("too small"), "{e}");
    let e = error_on("a2", |ub| {
        let s = ub.tensor(64, 1f32);
        let d = ub.tensor(64, 0i8);
        let tmp = ub.tensor::<u8>(512, 0);
        ascend_quant(
            &d,
            &s,
            Tmp::Shared(&tmp),
            QuantParams::Tensor {
                scale: 1.0,
                offset: 0.0,
            },
            65,
        )
    });
    assert!(e.message.contains("calCount"), "{e}");
    let e = error_on("a2", |ub| {
        let s = ub.tensor(64, 1f32);
        let sc = ub.tensor(24, 1f32);
        let d = ub.tensor(64, 0i8);
        let tmp = ub.tensor::<u8>(512, 0);
        let params = QuantParams::Channel {
            scale: &sc,
            offset: 0.0,
            scale_count: 24,
        };
        ascend_quant(&d, &s, Tmp::Shared(&tmp), params, 64)
    });
    assert!(e.message.contains("scaleCount"), "{e}");
    let e = error_on("a2", |ub| {
        let s = ub.tensor(64, 1i16);
        let d = ub.tensor(64, 0i8);
        let tmp = ub.tensor::<u8>(512, 0);
        ascend_quant(
            &d,
            &s,
            Tmp::Shared(&tmp),
            QuantParams::Tensor {
                scale: 1.0,
                offset: 0.0,
            },
            64,
        )
    });
    assert!(e.message.contains("half or float"), "{e}");
}
