//! GroupNorm: bit-exact against a host emulation of the device's instruction sequence on A2 and
//! A3 (float and half, general and small-shape paths, passes with a tail, isReuseSource), the
//! page's example, the tiling helpers, errors, and the error against float64.

use crate::ub_harness;

use ascendc::adv::common::Tmp;
use ascendc::adv::normalization::groupnorm::{
    group_norm, group_norm_max_min_tmp_size, group_norm_tiling_info, GroupNormTiling,
};
use ascendc::{f16, Category, Element, LocalTensor};
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

/// The 64-lane pairwise tree (absent lanes +0).
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

/// A2/A3 level-2 ReduceSum: a tree per 64 elements, the trees added in order.
fn reduce_sum(v: &[f32]) -> f32 {
    let p: Vec<f32> = v.chunks(64).map(tree64).collect();
    p[1..].iter().fold(p[0], |a, &x| a + x)
}

/// The small-shape sum: a tree per `mask1` lanes, the partial sums 8 floats apart (zeros
/// between), one tree over them.
fn small_sum(v: &[f32]) -> f32 {
    let dhw = v.len() as u32;
    let mut m1 = dhw;
    if dhw > 64 {
        m1 = 64;
        while !dhw.is_multiple_of(m1) {
            m1 -= 8;
        }
    }
    let mut part = vec![0f32; (dhw / m1 * 8) as usize];
    for (r, c) in v.chunks(m1 as usize).enumerate() {
        part[r * 8] = tree64(c);
    }
    tree64(&part)
}

/// Host emulation on the padded float layout: (output, mean, variance) in float.
fn expect(
    x: &[f32],
    g: &[f32],
    be: &[f32],
    t: &GroupNormTiling,
    eps: f32,
) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
    let (dhw, hwa, hw) = (
        t.dhw_align_size as usize,
        t.hw_align_size as usize,
        t.hw as usize,
    );
    let (d, c) = (t.d as usize, t.c as usize);
    let mut out = vec![0f32; x.len()];
    let (mut mean, mut var) = (vec![], vec![]);
    for k in 0..t.mean_var_size as usize {
        let grp = &x[k * dhw..(k + 1) * dhw];
        let sum = |v: &[f32]| {
            if t.small_shape != 0 {
                small_sum(v)
            } else {
                reduce_sum(v)
            }
        };
        let m = sum(grp) * t.factor;
        let mut dv = grp.to_vec();
        for ch in 0..d {
            for j in 0..hw {
                dv[ch * hwa + j] = grp[ch * hwa + j] + -m;
            }
        }
        let sq: Vec<f32> = dv.iter().map(|v| v * v).collect();
        let v = sum(&sq) * t.factor;
        let r = 1.0f32 / (v + eps).sqrt();
        for ch in 0..d {
            let cc = (k * d + ch) % c;
            for j in 0..hwa {
                let mut y = dv[ch * hwa + j] * r;
                if j < hw {
                    y = y * g[cc] + be[cc];
                }
                out[k * dhw + ch * hwa + j] = y;
            }
        }
        mean.push(m);
        var.push(v);
    }
    (out, mean, var)
}

/// `[N, C, H·W]` values padded per channel row to `hwa` with zeros.
fn padded(rng: &mut Rng, rows: usize, hw: usize, hwa: usize, edges: &[f32]) -> Vec<f32> {
    let mut x = vec![0f32; rows * hwa];
    for r in 0..rows {
        for j in 0..hw {
            x[r * hwa + j] = rng.f(-4.0, 4.0);
        }
    }
    for (k, e) in edges.iter().enumerate() {
        x[(k * 7 % rows) * hwa + k % hw] = *e;
    }
    x
}

/// Runs float GroupNorm; `extra` elements of room after inputX and output.
#[allow(clippy::too_many_arguments)]
fn run_f32(
    p: &str,
    x: &[f32],
    g: &[f32],
    be: &[f32],
    tmp: u32,
    eps: f32,
    t: &GroupNormTiling,
    reuse: bool,
    extra: usize,
) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
    let n = x.len();
    let mvs = t.mean_var_size as usize;
    run_p(p, |ub| {
        let mut xp = x.to_vec();
        xp.resize(n + extra, 0.0);
        let (xs, gs, bs) = (ub.from(&xp), ub.from(g), ub.from(be));
        let out = ub.tensor((n + extra) as u32, 0f32);
        let (mean, var) = (ub.tensor(mvs as u32, 0f32), ub.tensor(mvs as u32, 0f32));
        let tb = ub.tensor::<u8>(tmp, 0);
        group_norm(
            &out,
            &mean,
            &var,
            &xs,
            &gs,
            &bs,
            Tmp::Shared(&tb),
            eps,
            t,
            reuse,
        )?;
        Ok((read(&out, n), read(&mean, mvs), read(&var, mvs)))
    })
}

#[allow(clippy::too_many_arguments)]
fn run_f16(
    p: &str,
    x: &[f16],
    g: &[f16],
    be: &[f16],
    tmp: u32,
    eps: f16,
    t: &GroupNormTiling,
    extra: usize,
) -> (Vec<f16>, Vec<f16>, Vec<f16>) {
    let n = x.len();
    let mvs = t.mean_var_size as usize;
    run_p(p, |ub| {
        let mut xp = x.to_vec();
        xp.resize(n + extra, f16::ZERO);
        let (xs, gs, bs) = (ub.from(&xp), ub.from(g), ub.from(be));
        let out = ub.tensor((n + extra) as u32, f16::ZERO);
        let (mean, var) = (
            ub.tensor(mvs as u32, f16::ZERO),
            ub.tensor(mvs as u32, f16::ZERO),
        );
        let tb = ub.tensor::<u8>(tmp, 0);
        group_norm(
            &out,
            &mean,
            &var,
            &xs,
            &gs,
            &bs,
            Tmp::Shared(&tb),
            eps,
            t,
            false,
        )?;
        Ok((read(&out, n), read(&mean, mvs), read(&var, mvs)))
    })
}

const EDGES: [f32; 7] = [
    0.0,
    -0.0,
    1e-40,
    3e19,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::NAN,
];

#[test]
fn group_norm_float_exact_a2_a3() {
    let mut rng = Rng(7);
    // (N, C, H·W, groups, tmp bytes, reuse, expect small, expect tail): general one pass; general
    // with a tail; small one pass; small with a tail; reuse; a group over 64 floats (small).
    for (n, c, hw, grp, tmp, reuse, small, tail) in [
        (2usize, 4u32, 100u32, 2u32, 12000u32, false, false, false),
        (2, 4, 100, 2, 7488, false, false, true),
        (2, 8, 8, 4, 4096, false, true, false),
        (3, 8, 6, 4, 960, false, true, true),
        (2, 4, 100, 2, 8000, true, false, false),
        (2, 6, 24, 2, 9000, false, true, false),
        (2, 8, 8, 4, 2 * 3 * 16 * 4, true, true, true),
    ] {
        let t = group_norm_tiling_info(&[n as u32, c, hw, 1], tmp, 4, reuse, grp).unwrap();
        assert_eq!(t.small_shape != 0, small, "{t:?}");
        assert_eq!(t.input_tail_size > 0, tail, "{t:?}");
        let rows = n * c as usize;
        let hwa = t.hw_align_size as usize;
        let edges = if reuse { &EDGES[..0] } else { &EDGES[..] };
        let x = padded(&mut rng, rows, hw as usize, hwa, edges);
        let g: Vec<f32> = (0..c).map(|_| rng.f(-2.0, 2.0)).collect();
        let be: Vec<f32> = (0..c).map(|_| rng.f(-2.0, 2.0)).collect();
        let (wo, wm, wv) = expect(&x, &g, &be, &t, 1e-5);
        let extra = if tail {
            t.input_round_size as usize * 2
        } else {
            0
        };
        for p in ["a2", "a3"] {
            let (o, m, v) = run_f32(p, &x, &g, &be, tmp, 1e-5, &t, reuse, extra);
            let what = format!("{p} n={n} c={c} hw={hw} g={grp} tmp={tmp} reuse={reuse}");
            same(&m, &wm, &format!("{what} mean"));
            same(&v, &wv, &format!("{what} variance"));
            // The float small-shape tail zeroes single lanes of the output from the tail's start
            // on (as the device does): compare the valid rows only.
            for r in 0..rows {
                let s = r * hwa;
                same(
                    &o[s..s + hw as usize],
                    &wo[s..s + hw as usize],
                    &format!("{what} output row {r}"),
                );
            }
            if !small {
                same(&o, &wo, &format!("{what} output (padding)"));
            }
        }
    }
}

#[test]
fn group_norm_half_exact_a2_a3() {
    let mut rng = Rng(11);
    // (N, C, H·W, groups, tmp bytes, small, tail).
    for (n, c, hw, grp, tmp, small, tail) in [
        (2usize, 4u32, 100u32, 2u32, 12000u32, false, false),
        (2, 4, 100, 2, 8128, false, true),
        (2, 8, 8, 4, 8192, true, false),
        (3, 8, 6, 4, 2048, true, true),
    ] {
        let t = group_norm_tiling_info(&[n as u32, c, hw, 1], tmp, 2, false, grp).unwrap();
        assert_eq!(t.small_shape != 0, small, "{t:?}");
        assert_eq!(t.input_tail_size > 0, tail, "{t:?}");
        let rows = n * c as usize;
        let hwa = t.hw_align_size as usize;
        let xf = padded(&mut rng, rows, hw as usize, hwa, &[0.0, -0.0, 6e-8, 3000.0]);
        let x: Vec<f16> = xf.iter().map(|&v| f16::from_f32(v)).collect();
        let xw: Vec<f32> = x.iter().map(|v| v.to_f32()).collect();
        let g: Vec<f16> = (0..c).map(|_| f16::from_f32(rng.f(-2.0, 2.0))).collect();
        let be: Vec<f16> = (0..c).map(|_| f16::from_f32(rng.f(-2.0, 2.0))).collect();
        let gw: Vec<f32> = g.iter().map(|v| v.to_f32()).collect();
        let bw: Vec<f32> = be.iter().map(|v| v.to_f32()).collect();
        let eps = f16::from_f32(1e-3);
        let (wo, wm, wv) = expect(&xw, &gw, &bw, &t, eps.to_f32());
        // Narrowing saturates finite overflow to ±65504 (the default fp16 mode).
        let narrow = |v: &[f32]| -> Vec<u16> {
            v.iter()
                .map(|&x| {
                    let h = f16::from_f32(x);
                    if h.is_infinite() && x.is_finite() {
                        f16::from_f32(65504f32.copysign(x)).to_bits()
                    } else {
                        h.to_bits()
                    }
                })
                .collect()
        };
        let extra = if tail { t.input_round_size as usize } else { 0 };
        for p in ["a2", "a3"] {
            let (o, m, v) = run_f16(p, &x, &g, &be, tmp, eps, &t, extra);
            let what = format!("{p} n={n} c={c} hw={hw} g={grp} tmp={tmp}");
            assert_eq!(bits16(&m), narrow(&wm), "{what} mean");
            assert_eq!(bits16(&v), narrow(&wv), "{what} variance");
            assert_eq!(bits16(&o), narrow(&wo), "{what} output");
        }
    }
}

#[test]
fn group_norm_page_example() {
    // 调用示例: float [2, 8, 4, 2], 4 groups, x = 0..127, γ = β = 0..7.
    let x: Vec<f32> = (0..128).map(|v| v as f32).collect();
    let g: Vec<f32> = (0..8).map(|v| v as f32).collect();
    let (max, _) = group_norm_max_min_tmp_size(&[2, 8, 4, 2], 4, false, 4).unwrap();
    let t = group_norm_tiling_info(&[2, 8, 4, 2], max, 4, false, 4).unwrap();
    let (o, m, v) = run_f32("a2", &x, &g, &g, max, 1e-5, &t, false, 0);
    let (wo, wm, wv) = expect(&x, &g, &g, &t, 1e-5);
    same(&o, &wo, "output");
    same(&m, &wm, "mean");
    same(&v, &wv, "variance");
    assert_eq!(m, [7.5, 23.5, 39.5, 55.5, 71.5, 87.5, 103.5, 119.5]);
    assert_eq!(v, [21.25; 8]);
    let page = [
        1.1084652f32,
        1.3253956,
        1.542326,
        1.7592564,
        1.9761869,
        2.1931171,
        2.4100475,
        2.6269782,
    ];
    for (i, w) in page.iter().enumerate() {
        assert!((o[8 + i] - w).abs() < 1e-5, "{i}: {} vs {w}", o[8 + i]);
        assert!((o[72 + i] - w).abs() < 1e-5, "{i}");
    }
    assert!((o[127] - 18.388847).abs() < 1e-4, "{}", o[127]);
    assert!((o[16] + 1.2539563).abs() < 1e-5, "{}", o[16]);
}

#[test]
fn group_norm_tiling_helpers() {
    // The page's tiling example: half [2, 16, 8, 8], 4 groups. r = 64·2 bytes → 128/2·4 = 256;
    // mv = 8·4 = 32 bytes.
    assert_eq!(
        group_norm_max_min_tmp_size(&[2, 16, 8, 8], 2, false, 4),
        Some((3 * 2 * 16 * 256 + 64, 3 * 4 * 256 + 64))
    );
    // Float with isReuseSource: two buffers; H·W = 3 rounds to 8 floats.
    assert_eq!(
        group_norm_max_min_tmp_size(&[1, 4, 3, 1], 4, true, 2),
        Some((2 * 4 * 32 + 64, 2 * 2 * 32 + 64))
    );
    assert_eq!(group_norm_max_min_tmp_size(&[2, 16, 8], 2, false, 4), None);
    assert_eq!(
        group_norm_max_min_tmp_size(&[2, 16, 8, 8], 1, false, 4),
        None
    );
    assert_eq!(
        group_norm_max_min_tmp_size(&[2, 16, 8, 8], 2, false, 0),
        None
    );

    let t = group_norm_tiling_info(&[2, 16, 8, 8], 24640, 2, false, 4).unwrap();
    let want = GroupNormTiling {
        n: 2,
        c: 16,
        hw: 64,
        g: 4,
        d: 4,
        hw_align_size: 64,
        dhw_align_size: 256,
        input_x_size: 2048,
        mean_var_size: 8,
        number_of_tmp_buf: 3,
        mean_tmp_tensor_pos: 0,
        mean_tmp_tensor_size: 8,
        variance_tmp_tensor_pos: 8,
        variance_tmp_tensor_size: 8,
        tmp_buf_size: 6160,
        one_tmp_size: 2048,
        first_tmp_start_pos: 16,
        second_tmp_start_pos: 16 + 2048,
        third_tmp_start_pos: 16 + 4096,
        loop_round: 1,
        input_round_size: 2048,
        input_tail_size: 0,
        input_tail_pos: 2048,
        mean_var_round_size: 8,
        mean_var_tail_size: 0,
        mean_var_tail_pos: 8,
        bsh_cur_length: 2048,
        bs_cur_length: 8,
        factor: 1.0 / 256.0,
        small_shape: 1,
        pad: [0; 3],
    };
    assert_eq!(t, want);
    // At the minimum: one group a pass.
    let t = group_norm_tiling_info(&[2, 16, 8, 8], 3136, 2, false, 4).unwrap();
    assert_eq!(
        (t.bs_cur_length, t.loop_round, t.input_tail_size),
        (1, 8, 0)
    );
    // Below one group, C not a multiple of groupNum, rank 3: refused.
    assert_eq!(
        group_norm_tiling_info(&[2, 16, 8, 8], 3000, 2, false, 4),
        None
    );
    assert_eq!(
        group_norm_tiling_info(&[2, 15, 8, 8], 30000, 2, false, 4),
        None
    );
    assert_eq!(
        group_norm_tiling_info(&[2, 16, 64], 30000, 2, false, 4),
        None
    );
    // Small shape: at most 255 repeats of the first reduction, in whole 8s of groups.
    let t = group_norm_tiling_info(&[64, 8, 8, 8], 1 << 20, 4, false, 4).unwrap();
    assert_eq!((t.small_shape, t.dhw_align_size), (1, 128));
    assert_eq!(t.bs_cur_length, 255 / 2 / 8 * 8);
    assert_eq!(t.input_tail_size, 256 * 128 % (120 * 128));
}

fn gn_case() -> (GroupNormTiling, u32) {
    let tmp = 4096;
    (
        group_norm_tiling_info(&[2, 8, 8, 1], tmp, 4, false, 4).unwrap(),
        tmp,
    )
}

#[test]
fn group_norm_errors() {
    let (t, tmp) = gn_case();
    let call = |ub: &mut Ub, tmp_bytes: u32, t: GroupNormTiling, reuse: bool, n: u32| {
        let x = ub.tensor(n, 1f32);
        let out = ub.tensor(n, 0f32);
        let (m, v) = (ub.tensor(8, 0f32), ub.tensor(8, 0f32));
        let gb = ub.tensor(8, 1f32);
        let tb = ub.tensor::<u8>(tmp_bytes, 0);
        group_norm(
            &out,
            &m,
            &v,
            &x,
            &gb,
            &gb,
            Tmp::Shared(&tb),
            1e-5,
            &t,
            reuse,
        )
    };
    let e = error_on("310p", |ub| call(ub, tmp, t, false, 128));
    assert_eq!(e.category, Category::Unsupported);
    assert!(e.message.contains("not available on"), "{}", e.message);
    let e = error_on("310b", |ub| call(ub, tmp, t, false, 128));
    assert_eq!(e.category, Category::Unsupported);
    let e = error_on("a2", |ub| call(ub, 1024, t, false, 128));
    assert!(e.message.contains("tmpBufSize = 1024"), "{}", e.message);
    let e = error_on("a2", |ub| call(ub, tmp, t, false, 100));
    assert!(
        e.message
            .contains("`inputX` holds 100 elements, the tiling needs 128"),
        "{}",
        e.message
    );
    let e = error_on("a2", |ub| {
        call(ub, tmp, GroupNormTiling::default(), false, 128)
    });
    assert_eq!(e.category, Category::Range);
    assert!(
        e.message.contains("GetGroupNormNDTilingInfo"),
        "{}",
        e.message
    );
    // The general path past 64 groups.
    let e = error_on("a2", |ub| {
        let t = GroupNormTiling {
            mean_var_size: 65,
            small_shape: 0,
            ..t
        };
        call(ub, tmp, t, false, 128)
    });
    assert!(
        e.message.contains("N · groupNum = 65 exceeds 64"),
        "{}",
        e.message
    );
    // half with isReuseSource, and a dtype GroupNorm does not take.
    let e = error_on("a2", |ub| {
        let x = ub.tensor(128, f16::ZERO);
        let m = ub.tensor(8, f16::ZERO);
        let tb = ub.tensor::<u8>(tmp, 0);
        group_norm(
            &x,
            &m,
            &m,
            &x,
            &m,
            &m,
            Tmp::Shared(&tb),
            f16::ZERO,
            &t,
            true,
        )
    });
    assert!(
        e.message
            .contains("isReuseSource = true is not supported for half"),
        "{}",
        e.message
    );
    let e = error_on("a2", |ub| {
        let x = ub.tensor(128, 0i32);
        let tb = ub.tensor::<u8>(tmp, 0);
        group_norm(&x, &x, &x, &x, &x, &x, Tmp::Shared(&tb), 0, &t, false)
    });
    assert_eq!(e.category, Category::Type);
    assert!(e.message.contains("T = int32"), "{}", e.message);
    // A small-shape tail reads a whole pass from its start: past an inputX of N·C·hwAlignSize.
    let t = group_norm_tiling_info(&[3, 8, 6, 1], 960, 4, false, 4).unwrap();
    assert!(t.input_tail_size > 0 && t.small_shape == 1);
    let e = error_on("a2", |ub| {
        let x = ub.tensor(192, 1f32);
        let out = ub.tensor(192, 0f32);
        let m = ub.tensor(12, 0f32);
        let gb = ub.tensor(8, 1f32);
        let tb = ub.tensor::<u8>(960, 0);
        group_norm(
            &out,
            &m,
            &m,
            &x,
            &gb,
            &gb,
            Tmp::Shared(&tb),
            1e-5,
            &t,
            false,
        )
    });
    assert!(
        e.message.contains("`inputX` holds 192 elements: the tail pass (inputTailPos = 160) covers a whole inputRoundSize = 80"),
        "{}",
        e.message
    );
}

#[test]
fn group_norm_error_vs_f64() {
    // Float and half, 4096 values in N(±4) per shape, γ, β in [−2, 2]: max abs error against a
    // float64 reference (the bounds are the measured values rounded up).
    let mut rng = Rng(99);
    for (hw, ts, bound) in [
        (64u32, 4u32, 2e-6f64),
        (100, 4, 2e-6),
        (64, 2, 4e-3),
        (6, 4, 2e-6),
    ] {
        let (n, c, grp) = (2usize, 16u32, 4u32);
        let shape = [n as u32, c, hw, 1];
        let (max, _) = group_norm_max_min_tmp_size(&shape, ts, false, grp).unwrap();
        let tmp = max.min(16000);
        let t = group_norm_tiling_info(&shape, tmp, ts, false, grp).unwrap();
        let rows = n * c as usize;
        let hwa = t.hw_align_size as usize;
        let x = padded(&mut rng, rows, hw as usize, hwa, &[]);
        let g: Vec<f32> = (0..c).map(|_| rng.f(-2.0, 2.0)).collect();
        let be: Vec<f32> = (0..c).map(|_| rng.f(-2.0, 2.0)).collect();
        let extra = t.input_round_size as usize;
        let (o, xs) = if ts == 4 {
            (
                run_f32("a2", &x, &g, &be, tmp, 1e-5, &t, false, extra).0,
                x.clone(),
            )
        } else {
            let xh: Vec<f16> = x.iter().map(|&v| f16::from_f32(v)).collect();
            let gh: Vec<f16> = g.iter().map(|&v| f16::from_f32(v)).collect();
            let bh: Vec<f16> = be.iter().map(|&v| f16::from_f32(v)).collect();
            let (o, _, _) = run_f16("a2", &xh, &gh, &bh, tmp, f16::from_f32(1e-5), &t, extra);
            (
                o.iter().map(|v| v.to_f32()).collect(),
                xh.iter().map(|v| v.to_f32()).collect(),
            )
        };
        let (g, be): (Vec<f32>, Vec<f32>) = if ts == 4 {
            (g, be)
        } else {
            (
                g.iter().map(|&v| f16::from_f32(v).to_f32()).collect(),
                be.iter().map(|&v| f16::from_f32(v).to_f32()).collect(),
            )
        };
        let (d, hwu) = (t.d as usize, hw as usize);
        let mut worst = 0f64;
        for k in 0..t.mean_var_size as usize {
            let vals: Vec<f64> = (0..d)
                .flat_map(|ch| (0..hwu).map(move |j| (ch, j)))
                .map(|(ch, j)| xs[(k * d + ch) * hwa + j] as f64)
                .collect();
            let m = vals.iter().sum::<f64>() / vals.len() as f64;
            let v = vals.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / vals.len() as f64;
            for ch in 0..d {
                let cc = (k * d + ch) % c as usize;
                for j in 0..hwu {
                    let i = (k * d + ch) * hwa + j;
                    let want =
                        (xs[i] as f64 - m) / (v + 1e-5).sqrt() * g[cc] as f64 + be[cc] as f64;
                    worst = worst.max((o[i] as f64 - want).abs());
                }
            }
        }
        eprintln!("GroupNorm typeSize {ts} H·W {hw}: max abs error {worst:e}");
        assert!(worst < bound, "typeSize {ts} hw {hw}: {worst}");
    }
}
