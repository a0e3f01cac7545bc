//! WelfordUpdate, WelfordFinalize, BatchNorm and GroupNorm: bit-exact against a host emulation
//! of the device's instruction sequence, the pages' worked examples, the host helpers, errors.

use crate::ub_harness;

use ascendc::adv::common::Tmp;
use ascendc::adv::normalization::welford::{
    welford_finalize, welford_finalize_max_min_tmp_size, welford_update,
    welford_update_max_min_tmp_size, WelfordFinalizePara, WelfordUpdateParam,
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

fn read<T: ascendc::Element>(t: &ascendc::LocalTensor<T>, n: u32) -> Vec<T> {
    (0..n).map(|i| t.get_value(i).unwrap()).collect()
}

fn same(got: &[f32], want: &[f32], what: &str) {
    assert_eq!(got.len(), want.len());
    for (i, (a, w)) in got.iter().zip(want).enumerate() {
        assert!(
            a.to_bits() == w.to_bits() || (a.is_nan() && w.is_nan()),
            "{what} at {i}: {a} vs {w}"
        );
    }
}

// ---------------------------------------------------------------- WelfordUpdate

/// Host emulation: (mean, M) of one element.
fn wf_update(x: f32, m0: f32, v0: f32, n_rec: f32) -> (f32, f32) {
    let d = x - m0;
    let m = d * n_rec + m0;
    (m, d * (x - m) + v0)
}

struct UpdateCase<'a> {
    x: &'a [f32],
    m0: &'a [f32],
    v0: &'a [f32],
    compute: u32,
    n_rec: f32,
    tmp: u32,
    reuse: bool,
    inplace: bool,
}

/// Runs WelfordUpdate (`half`: x given to the kernel as half) and returns (mean, M).
fn run_update(p: &str, c: &UpdateCase, half: bool) -> (Vec<f32>, Vec<f32>) {
    let ab = c.x.len() as u32;
    run_p(p, |ub| {
        let im = ub.from(c.m0);
        let iv = ub.from(c.v0);
        let om = ub.tensor(ab, -7.0f32);
        let ov = ub.tensor(ab, -7.0f32);
        let tmp = ub.tensor::<u8>(c.tmp, 0);
        let para = WelfordUpdateParam {
            rn_length: 1,
            ab_length: ab,
            ab_compute_length: c.compute,
            n_rec: c.n_rec,
        };
        if half {
            let hx: Vec<f16> = c.x.iter().map(|&v| f16::from_f32(v)).collect();
            let x = ub.from(&hx);
            welford_update(
                &om,
                &ov,
                &im,
                &iv,
                &x,
                Tmp::Shared(&tmp),
                &para,
                c.reuse,
                c.inplace,
            )?;
        } else {
            let x = ub.from(c.x);
            welford_update(
                &om,
                &ov,
                &im,
                &iv,
                &x,
                Tmp::Shared(&tmp),
                &para,
                c.reuse,
                c.inplace,
            )?;
        }
        Ok((read(&om, ab), read(&ov, ab)))
    })
}

fn expect_update(c: &UpdateCase, half: bool) -> (Vec<f32>, Vec<f32>) {
    let ab = c.x.len();
    let mut m = vec![-7.0f32; ab];
    let mut v = vec![-7.0f32; ab];
    if c.inplace && (c.compute as usize) < ab {
        let len = (ab - c.compute as usize).div_ceil(8) * 8;
        m[ab - len..].copy_from_slice(&c.m0[ab - len..ab]);
        v[ab - len..].copy_from_slice(&c.v0[ab - len..ab]);
    }
    for i in 0..c.compute as usize {
        let x = if half {
            f16::from_f32(c.x[i]).to_f32()
        } else {
            c.x[i]
        };
        (m[i], v[i]) = wf_update(x, c.m0[i], c.v0[i], c.n_rec);
    }
    (m, v)
}

#[test]
fn welford_update_page_example() {
    let x = vec![1.0f32; 64];
    let iota: Vec<f32> = (0..64).map(|v| v as f32).collect();
    let c = UpdateCase {
        x: &x,
        m0: &iota,
        v0: &iota,
        compute: 35,
        n_rec: 0.125,
        tmp: 512,
        reuse: false,
        inplace: true,
    };
    let (m, v) = run_update("a2", &c, false);
    assert_eq!(&m[..4], &[0.125, 1.0, 1.875, 2.75]);
    assert_eq!(m[34], 29.875);
    assert_eq!(m[35], 35.0);
    assert_eq!(m[63], 63.0);
    assert_eq!(&v[..4], &[0.875, 1.0, 2.875, 6.5]);
    assert_eq!(v[34], 986.875);
    assert_eq!(v[35], 35.0);
}

#[test]
fn welford_update_exact_a2_310p() {
    let mut rng = Rng(11);
    for &(ab, compute, tmp, reuse, inplace, half) in &[
        (64u32, 64u32, 512u32, false, false, false),
        (200, 197, 512, false, true, false),
        (256, 130, 1024, true, false, false),
        (512, 500, 768, false, true, true),
        (96, 1, 768, false, true, true),
        (1024, 1024, 4096, false, false, true),
    ] {
        let n = ab as usize;
        let mut x: Vec<f32> = (0..n).map(|_| rng.f(-50.0, 50.0)).collect();
        let m0: Vec<f32> = (0..n).map(|_| rng.f(-10.0, 10.0)).collect();
        let v0: Vec<f32> = (0..n).map(|_| rng.f(0.0, 100.0)).collect();
        let specials = [
            0.0,
            -0.0,
            1e-40,
            -3e-39,
            f32::INFINITY,
            f32::NAN,
            6e4,
            -1e30,
        ];
        for (k, s) in specials.iter().enumerate() {
            x[k * 7 % n] = *s;
        }
        let c = UpdateCase {
            x: &x,
            m0: &m0,
            v0: &v0,
            compute,
            n_rec: 1.0 / 3.0,
            tmp,
            reuse,
            inplace,
        };
        let (wm, wv) = expect_update(&c, half);
        for p in ["a2", "310p"] {
            if reuse && p == "310p" {
                continue;
            }
            let (m, v) = run_update(p, &c, half);
            same(&m, &wm, &format!("{p} mean ab={ab}"));
            same(&v, &wv, &format!("{p} var ab={ab}"));
        }
    }
}

#[test]
fn welford_update_errors() {
    let err = |p: &str, ab: u32, compute: u32, rn: u32, tmp: u32, reuse: bool| {
        error_on(p, move |ub| {
            let t = ub.tensor(256, 0f32);
            let x = ub.tensor(256, 0f32);
            let buf = ub.tensor::<u8>(tmp, 0);
            let para = WelfordUpdateParam {
                rn_length: rn,
                ab_length: ab,
                ab_compute_length: compute,
                n_rec: 1.0,
            };
            welford_update(&t, &t, &t, &t, &x, Tmp::Shared(&buf), &para, reuse, false)
        })
        .to_string()
    };
    assert!(err("a2", 64, 64, 2, 512, false).contains("para.rnLength = 2"));
    assert!(err("a2", 60, 60, 1, 512, false).contains("para.abLength = 60"));
    assert!(err("a2", 64, 0, 1, 512, false).contains("para.abComputeLength = 0"));
    assert!(err("a2", 64, 65, 1, 512, false).contains("para.abComputeLength = 65"));
    assert!(err("a2", 512, 64, 1, 512, false).contains("`outputMean` holds 256"));
    assert!(err("a2", 64, 64, 1, 256, false).contains("too small"));
    assert!(err("310p", 64, 64, 1, 512, true).contains("isReuseSource"));
    let e = error_on("a2", |ub| {
        let t = ub.tensor(64, 0f32);
        let x = ub.tensor(64, 0i32);
        let buf = ub.tensor::<u8>(512, 0);
        let para = WelfordUpdateParam {
            rn_length: 1,
            ab_length: 64,
            ab_compute_length: 64,
            n_rec: 1.0,
        };
        welford_update(&t, &t, &t, &t, &x, Tmp::Shared(&buf), &para, false, false)
    });
    assert!(e.to_string().contains("T = int32"), "{e}");
}

#[test]
fn welford_update_tmp_sizes() {
    assert_eq!(
        welford_update_max_min_tmp_size(&[1, 64], 4, false),
        Some((512, 512))
    );
    assert_eq!(
        welford_update_max_min_tmp_size(&[1, 200], 4, true),
        Some((1024, 256))
    );
    assert_eq!(
        welford_update_max_min_tmp_size(&[1, 128], 2, false),
        Some((1536, 768))
    );
    assert_eq!(welford_update_max_min_tmp_size(&[64], 4, false), None);
}

// ---------------------------------------------------------------- WelfordFinalize

/// The row sum of `reduce_rows`: the 64-column `Add` fold, then the tree.
fn row_sum(v: &mut [f32]) -> f32 {
    let h = v.len();
    if h > 64 {
        let (reps, rest) = (h / 64 - 1, h % 64);
        for r in 0..reps {
            for k in 0..64 {
                v[k] += v[64 + r * 64 + k];
            }
        }
        for k in 0..rest {
            v[k] += v[h - rest + k];
        }
    }
    tree64(&v[..h.min(64)])
}

/// Sums per-chunk partials as the device's slots do (fold every 64, then the rest).
fn slots_sum(parts: &[f32]) -> f32 {
    let mut slots: Vec<f32> = Vec::new();
    for &p in parts {
        slots.push(p);
        if slots.len() == 64 {
            slots = vec![tree64(&slots)];
        }
    }
    tree64(&slots)
}

/// Host emulation of WelfordFinalize: (mean, var).
fn expect_finalize(
    m: &[f32],
    v: &[f32],
    counts: Option<&[i32]>,
    para: &WelfordFinalizePara,
    tmp_bytes: u32,
) -> (f32, f32) {
    let len = ((tmp_bytes / 4 - 128) / 128 * 64) as usize;
    let ab = para.ab_length as usize;
    let tail = para.tail_count_length != 0 && para.tail_count != 0;
    let ratio = para.head_count as f32 / para.tail_count as f32;
    let chunks: Vec<(usize, usize)> = (0..ab)
        .step_by(len)
        .map(|s| (s, (ab - s).min(len)))
        .collect();
    let mean_parts: Vec<f32> = chunks
        .iter()
        .map(|&(s, n)| {
            let mut w: Vec<f32> = (s..s + n)
                .map(|i| match counts {
                    Some(c) => m[i] * c[i] as f32 * para.r_rec,
                    None if !tail => m[i] * para.ab_rec,
                    None => {
                        let t = m[i] * para.tail_count as f32 * para.r_rec;
                        if i < para.head_count_length as usize {
                            t * ratio
                        } else {
                            t
                        }
                    }
                })
                .collect();
            row_sum(&mut w)
        })
        .collect();
    let mean = slots_sum(&mean_parts);
    let var_parts: Vec<f32> = chunks
        .iter()
        .map(|&(s, n)| {
            let mut w: Vec<f32> = (s..s + n)
                .map(|i| {
                    let d = m[i] - mean;
                    let sq = d * d;
                    match counts {
                        Some(c) => (sq * c[i] as f32 + v[i]) * para.r_rec,
                        None => {
                            let wgt = if tail {
                                para.tail_count as f32
                            } else {
                                para.rn_length as f32
                            };
                            let mut t = sq * wgt;
                            if tail && i < para.head_count_length as usize {
                                t *= ratio;
                            }
                            (v[i] + t) * para.r_rec
                        }
                    }
                })
                .collect();
            row_sum(&mut w)
        })
        .collect();
    (mean, slots_sum(&var_parts))
}

fn run_finalize(
    p: &str,
    m: &[f32],
    v: &[f32],
    counts: Option<&[i32]>,
    para: &WelfordFinalizePara,
    tmp_bytes: u32,
) -> (Vec<f32>, Vec<f32>) {
    run_p(p, |ub| {
        let im = ub.from(m);
        let iv = ub.from(v);
        let om = ub.tensor(8, -1f32);
        let ov = ub.tensor(8, -1f32);
        let tmp = ub.tensor::<u8>(tmp_bytes, 0);
        let c = counts.map(|c| ub.from(c));
        welford_finalize(&om, &ov, &im, &iv, c.as_ref(), Tmp::Shared(&tmp), para)?;
        Ok((read(&om, 8), read(&ov, 8)))
    })
}

#[test]
fn welford_finalize_page_example() {
    let iota: Vec<f32> = (0..32).map(|v| v as f32).collect();
    let counts = vec![4i32; 32];
    let para = WelfordFinalizePara {
        rn_length: 4,
        ab_length: 32,
        head_count: 4,
        head_count_length: 32,
        tail_count: 0,
        tail_count_length: 0,
        ab_rec: 1.0 / 32.0,
        r_rec: 1.0 / 4096.0,
        r_rec_with_correction: 0.0,
    };
    for p in ["a2", "310p"] {
        let (m, v) = run_finalize(p, &iota, &iota, Some(&counts), &para, 1024);
        assert_eq!(m[0], 0.484375);
        assert!((v[0] - 9.831062).abs() < 1e-5, "{}", v[0]);
        assert_eq!(&m[1..], &[0.0; 7]);
        assert_eq!(&v[1..], &[0.0; 7]);
    }
}

#[test]
fn welford_finalize_exact_a2_310p() {
    let mut rng = Rng(5);
    // (abLength, tmp bytes, head length, head count, tail count, counts form)
    for &(ab, tmp, head_len, hc, tc, with_counts) in &[
        (64u32, 1024u32, 64u32, 3u32, 0u32, false),
        (200, 1024, 150, 5, 2, false),
        (200, 2048, 200, 5, 0, true),
        (4232, 1024, 4000, 7, 3, false),
        (4232, 1024, 4232, 7, 0, true),
        (1000, 4096, 1000, 2, 0, false),
        (1000, 4000, 424, 9, 4, false),
    ] {
        let n = ab as usize;
        let m: Vec<f32> = (0..n).map(|_| rng.f(-5.0, 5.0)).collect();
        let v: Vec<f32> = (0..n).map(|_| rng.f(0.0, 20.0)).collect();
        let counts: Vec<i32> = (0..n).map(|_| (rng.next() % 9) as i32).collect();
        let para = WelfordFinalizePara {
            rn_length: 3,
            ab_length: ab,
            head_count: hc,
            head_count_length: head_len,
            tail_count: tc,
            tail_count_length: ab - head_len,
            ab_rec: 1.0 / ab as f32,
            r_rec: 1.0 / (ab * 4) as f32,
            r_rec_with_correction: 0.0,
        };
        let c = with_counts.then_some(&counts[..]);
        let (wm, wv) = expect_finalize(&m, &v, c, &para, tmp);
        for p in ["a2", "310p"] {
            let (gm, gv) = run_finalize(p, &m, &v, c, &para, tmp);
            same(&gm[..1], &[wm], &format!("{p} mean ab={ab}"));
            same(&gv[..1], &[wv], &format!("{p} var ab={ab}"));
            assert_eq!(&gm[1..], &[0.0; 7]);
        }
    }
}

#[test]
fn welford_finalize_errors_and_sizes() {
    let err = |ab: u32, head: u32, tail_len: u32, tmp: u32| {
        error_on("a2", move |ub| {
            let t = ub.tensor(256, 0f32);
            let buf = ub.tensor::<u8>(tmp, 0);
            let para = WelfordFinalizePara {
                rn_length: 1,
                ab_length: ab,
                head_count: 1,
                head_count_length: head,
                tail_count: 0,
                tail_count_length: tail_len,
                ab_rec: 1.0,
                r_rec: 1.0,
                r_rec_with_correction: 0.0,
            };
            welford_finalize(&t, &t, &t, &t, None, Tmp::Shared(&buf), &para)
        })
        .to_string()
    };
    assert!(err(12, 12, 0, 1024).contains("para.abLength = 12"));
    assert!(err(64, 32, 0, 1024).contains("differs from para.abLength"));
    assert!(err(64, 32, 32, 1024).contains("para.tailCount = 0"));
    assert!(err(64, 64, 0, 992).contains("too small"));
    assert!(err(512, 512, 0, 1024).contains("`inputMean` holds 256"));
    assert_eq!(welford_finalize_max_min_tmp_size(&[64]), Some((1024, 1024)));
    assert_eq!(
        welford_finalize_max_min_tmp_size(&[200]),
        Some((2112, 1024))
    );
    assert_eq!(welford_finalize_max_min_tmp_size(&[12]), None);
    assert_eq!(welford_finalize_max_min_tmp_size(&[1, 64]), None);
}

/// Error against float64 on a few thousand values (the table in docs/high-level/norm-stats.md).
#[test]
fn welford_error_vs_f64() {
    let mut rng = Rng(77);
    let n = 2048usize;
    let x: Vec<f32> = (0..n).map(|_| rng.f(-100.0, 100.0)).collect();
    let m0: Vec<f32> = (0..n).map(|_| rng.f(-50.0, 50.0)).collect();
    let v0: Vec<f32> = (0..n).map(|_| rng.f(0.0, 1000.0)).collect();
    let c = UpdateCase {
        x: &x,
        m0: &m0,
        v0: &v0,
        compute: n as u32,
        n_rec: 1.0 / 7.0,
        tmp: 4096,
        reuse: false,
        inplace: false,
    };
    let (m, v) = run_update("a2", &c, false);
    let (mut em, mut ev) = (0f64, 0f64);
    for i in 0..n {
        let (x, a, b) = (x[i] as f64, m0[i] as f64, v0[i] as f64);
        let wm = a + (x - a) / 7.0;
        let wv = b + (x - a) * (x - wm);
        em = em.max((m[i] as f64 - wm).abs() / wm.abs().max(1.0));
        ev = ev.max((v[i] as f64 - wv).abs() / wv.abs().max(1.0));
    }
    println!("WelfordUpdate float: mean rel {em:.3e}, M rel {ev:.3e}");
    assert!(em < 4e-6 && ev < 1e-6, "{em} {ev}");
    // Finalize: 2048 partials with counts.
    let pm: Vec<f32> = (0..n).map(|_| rng.f(-5.0, 5.0)).collect();
    let pv: Vec<f32> = (0..n).map(|_| rng.f(0.0, 20.0)).collect();
    let counts: Vec<i32> = (0..n).map(|_| (rng.next() % 16 + 1) as i32).collect();
    let total: i64 = counts.iter().map(|&c| c as i64).sum();
    let para = WelfordFinalizePara {
        rn_length: 1,
        ab_length: n as u32,
        head_count: 1,
        head_count_length: n as u32,
        tail_count: 0,
        tail_count_length: 0,
        ab_rec: 1.0 / n as f32,
        r_rec: 1.0 / total as f32,
        r_rec_with_correction: 0.0,
    };
    let (gm, gv) = run_finalize("a2", &pm, &pv, Some(&counts), &para, 4096);
    let mean: f64 = (0..n).map(|i| pm[i] as f64 * counts[i] as f64).sum::<f64>() / total as f64;
    let var: f64 = (0..n)
        .map(|i| pv[i] as f64 + counts[i] as f64 * (pm[i] as f64 - mean).powi(2))
        .sum::<f64>()
        / total as f64;
    let (am, rv) = (
        (gm[0] as f64 - mean).abs(),
        (gv[0] as f64 - var).abs() / var,
    );
    println!("WelfordFinalize float (2048 partials): mean abs {am:.3e}, var rel {rv:.3e}");
    assert!(am < 1e-5 && rv < 1e-5, "{am} {rv}");
}
