//! Digamma and Lgamma: bit-exact against a host emulation of the device's instruction sequence
//! (float and half, A2 and 310P, edge values included, several buffer sizes and tails), the
//! pages' worked examples, the host helpers, the checks, and the accuracy against f64.
// The emulation spells each instruction as the device issues it (`x · −1`, `0 + acc`).
#![allow(
    clippy::excessive_precision,
    clippy::approx_constant,
    clippy::neg_multiply,
    clippy::assign_op_pattern,
    clippy::manual_range_contains
)]

use crate::ub_harness;

use ascendc::adv::math::gamma::{self, digamma, lgamma};
use ascendc::adv::math::Tmp;
use ascendc::prelude::*;
use ascendc::Category;
use ub_harness::{error_on, run_p};

// ---------------------------------------------------------------------------------------------
// Host emulation: one step per instruction, in float, per lane.

#[derive(Clone, Copy, PartialEq, Debug)]
enum P {
    A2,
    P310,
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum Api {
    Digamma,
    Lgamma,
}

fn ln(x: f32) -> f32 {
    (x as f64).ln() as f32
}

#[derive(Clone, Copy)]
enum Mode {
    Round,
    Rint,
    Floor,
}

/// float → float rounding on A2; float → int32 → float on 310P (NaN → 0, saturating).
fn round_float(p: P, x: f32, m: Mode) -> f32 {
    let r = match m {
        Mode::Round => x.round(),
        Mode::Rint => x.round_ties_even(),
        Mode::Floor => x.floor(),
    };
    match p {
        P::A2 => r,
        P::P310 => to_i32(r) as f32,
    }
}

/// float → int32 (NaN → 0, saturating).
fn to_i32(x: f32) -> i32 {
    if x.is_nan() {
        0
    } else {
        (x as f64).clamp(i32::MIN as f64, i32::MAX as f64) as i32
    }
}

/// `Select` against 0 then `Add`: `(mask ? v : 0) + acc`.
fn pick(mask: bool, v: f32, acc: f32) -> f32 {
    (if mask { v } else { 0.0 }) + acc
}

/// float → half, nearest even, saturating (±Inf → ±65504, NaN → 0).
fn r16(x: f32) -> f16 {
    let h = f16::from_f32(x);
    if h.is_nan() {
        f16::ZERO
    } else if h.is_infinite() {
        if h.is_sign_negative() {
            f16::MIN
        } else {
            f16::MAX
        }
    } else {
        h
    }
}

const PI: f32 = 3.141592653589793238;
const INV_PI: f32 = 0.3183098733425140380859375_f64 as f32;
const PI4: [f32; 4] = [
    3.140625,
    0.0009670257568359375,
    6.2771141529083251953125e-7_f64 as f32,
    1.21644916362129151821136474609375e-10_f64 as f32,
];

fn sin_cos(p: P, x: f32, cos: bool) -> f32 {
    let mut k = x * INV_PI;
    k = if cos {
        round_float(p, k + 0.5, Mode::Rint)
    } else {
        round_float(p, k, Mode::Round)
    };
    let mut r = x - k * PI4[0];
    r -= k * PI4[1];
    if cos {
        r += 1.57079637050628662109375_f64 as f32;
    }
    r -= k * PI4[2];
    r -= k * PI4[3];
    if cos {
        r -= k * (-1.0290623200529979163359041220560e-13_f64 as f32);
        r += -0.00000004371139000189375_f64 as f32;
    }
    let sq = r * r;
    let mut s = round_float(p, k * 0.5, Mode::Floor) * 4.0;
    s = (s + k * -2.0) + 1.0;
    let c = [
        2.604926501e-6_f64 as f32,
        -0.0001980894471_f64 as f32,
        0.008333049340_f64 as f32,
        -0.1666665792_f64 as f32,
    ];
    let mut poly = sq * c[0];
    for &k in &c[1..] {
        poly = (poly + k) * sq;
    }
    poly = (poly + 1.0) * r;
    let mut d = poly * s;
    if cos {
        // Mins/Maxs propagate NaN.
        if !d.is_nan() {
            d = d.clamp(-1.0, 1.0);
        }
    }
    d
}

fn tan(p: P, x: f32) -> f32 {
    let mut x = x + 0.0;
    let k = round_float(p, x * INV_PI, Mode::Rint);
    let parts = [
        PI4[0],
        PI4[1],
        PI4[2],
        PI4[3],
        -1.0291767438275201129727065563201904296875e-13_f64 as f32,
    ];
    let hp = 1.57079637050628662109375_f64 as f32;
    let lo_c = 0.00000004371139000189375_f64 as f32;
    let (mut lo, mut hi) = (0.0, 0.0);
    for (i, &part) in parts.iter().enumerate() {
        let kpi = k * part;
        x -= kpi;
        if i == 1 {
            lo = x + hp;
            hi = x + -hp;
        }
        if i >= 2 {
            lo -= kpi;
            hi -= kpi;
        }
        if i == 2 {
            lo += -lo_c;
            hi += lo_c;
        }
    }
    let sq = x * x;
    let num = ((sq * (0.0698520831551998762793_f64 as f32) + (-6.8711573651634203789_f64 as f32))
        * sq
        + (61.20362572811089435388_f64 as f32))
        * x;
    let den = ((sq + (-24.8048928861126769186219_f64 as f32)) * lo) * hi;
    num / den
}

// --- Digamma ---

const MIN_NEG: f32 = -8388608.0;
const NAN: f32 = f32::from_bits(0x7FC0_0000);

fn dg_positive(x: f32) -> f32 {
    let series = [
        2.10927960927960927961e-2_f64 as f32,
        7.57575757575757575758e-3_f64 as f32,
        4.16666666666666666667e-3_f64 as f32,
        3.96825396825396825397e-3_f64 as f32,
        8.33333333333333333333e-3_f64 as f32,
        8.33333333333333333333e-2_f64 as f32,
    ];
    let w = x + 10.0;
    let mut d = ln(w);
    let inv = 1.0 / w;
    d -= inv * 0.5;
    let z = inv * inv;
    let mut c2 = 8.33333333333333333333e-2_f64 as f32;
    for k in series {
        c2 = k - z * c2;
    }
    d -= z * c2;
    let mut s = 1.0 / x;
    for k in 1..=9 {
        s += 1.0 / (x + k as f32);
    }
    d - s
}

fn dg_reflection(p: P, x: f32) -> f32 {
    let picot = [
        0.00326538085938f32,
        0.0242919921875,
        0.053466796875,
        0.133377909660,
        0.333332300186,
    ];
    let mut c1 = x + x;
    let c2 = round_float(p, c1, Mode::Round);
    c1 = (c1 - c2) * 1.5707963267948966f32;
    let parity = (to_i32(c2) & 1) as f32;
    let (even, odd) = (parity < 0.5, parity >= 0.5);
    let sq = c1 * c1;
    let mut d = 0.0093383789065f32;
    for k in picot {
        d = d * sq + k;
    }
    d = (d * sq) * c1;
    c1 = d + c1;
    let mut out = pick(odd, c1, 0.0);
    c1 = -1.0 / c1;
    out = pick(even, c1, out);
    out * PI
}

fn digamma_f32(p: P, x: f32) -> f32 {
    let neg_int = x < 0.0 && x > MIN_NEG && x == round_float(p, x, Mode::Round);
    let mut acc = pick(x <= MIN_NEG, NAN, 0.0);
    acc = pick(neg_int, NAN, acc);
    acc = pick(x.is_nan(), x, acc);
    acc = pick(x >= 0.0, dg_positive(x), acc);
    let neg = dg_positive(x * -1.0 + 1.0) + dg_reflection(p, x);
    pick(x < 0.0, neg, acc)
}

fn dg_positive_half(x: f32) -> f32 {
    let w = x + 3.0;
    let mut d = ln(w);
    let inv = 1.0 / w;
    d -= inv * 0.5;
    let z = inv * inv;
    d -= z * 0.0833333333333333f32;
    let z2 = z * z;
    d -= z2 * 0.0083333333333333f32;
    d -= (z2 * z) * 0.003968253968254f32;
    let mut s = 1.0 / x;
    for k in 1..=2 {
        s += 1.0 / (x + k as f32);
    }
    d - s
}

fn digamma_f16(p: P, h: f16) -> f16 {
    let x = h.to_f32();
    let frac = (x - round_float(p, x, Mode::Floor)) * PI;
    let c3 = PI / tan(p, frac);
    let neg_int = x < 0.0 && x > MIN_NEG && x == round_float(p, x, Mode::Round);
    let mut acc = pick(x <= MIN_NEG, NAN, 0.0);
    acc = pick(neg_int, NAN, acc);
    acc = pick(x.is_nan(), x, acc);
    acc = pick(x >= 0.0, dg_positive_half(x), acc);
    let reflected = dg_positive_half(1.0 - x);
    let c2 = reflected + 0.0;
    acc = pick(x < -0.0001f32, reflected - c3, acc);
    let s = (x - round_float(p, x, Mode::Floor)) * PI;
    let cos = sin_cos(p, s, true) * PI;
    let sin = sin_cos(p, x * -PI, false);
    acc = pick(x < 0.0 && x >= -0.0001f32, c2 - cos / sin, acc);
    r16(acc)
}

// --- Lgamma ---

const fn c(x: f64) -> f32 {
    x as f32
}
const P007: [f32; 7] = [
    c(0.00358751555905),
    c(-0.00547128543258),
    c(-0.0446271263063),
    c(0.167317703366),
    c(-0.0421359799802),
    c(-0.655867278576),
    c(0.577215373516),
];
const P0715: [f32; 11] = [
    c(0.0458826646209),
    c(0.103739671409),
    c(0.122803635895),
    c(0.127524212003),
    c(0.143216684461),
    c(0.169343575835),
    c(0.207407936454),
    c(0.27058750391),
    c(0.400685429573),
    c(0.82246696949),
    c(0.577215671539),
];
const P153: [f32; 10] = [
    c(4.95984932058e-05),
    c(-0.000220894842641),
    c(0.000541314249858),
    c(-0.00120451697148),
    c(0.00288425176404),
    c(-0.00738275796175),
    c(0.0205813199282),
    c(-0.067352488637),
    c(0.322467029095),
    c(0.422784328461),
];
const NUM: [f32; 4] = [-748.890319824, -12349.7421875, -41061.375, -48310.6640625];
const DEN: [f32; 3] = [-259.250976562, -10777.1796875, -92685.046875];
const P58: [f32; 2] = [c(0.000777830660809), c(-0.00277765537612)];
const ODD: [f32; 4] = [
    0.00002427957952022552490234375,
    -0.001388786011375486850738525390625,
    0.0416667275130748748779296875,
    -0.4999999701976776123046875,
];
const EVEN: [f32; 3] = [
    -0.000195746586541645228862762451171875,
    0.0083327032625675201416015625,
    -0.16666662693023681640625,
];
const TINY: f32 = c(9.99999968266e-20);

fn poly(x: f32, k: &[f32]) -> f32 {
    let mut a = x * k[0] + k[1];
    for &v in &k[2..] {
        a = a * x + v;
    }
    a * x
}

fn lg_positive(a: f32) -> f32 {
    let mut t5 = 0.0;
    let v = ln((poly(a, &P007) * a) + a) * -1.0;
    t5 = pick(a < c(0.7), v, t5);
    t5 = pick(a >= c(0.7) && a < 1.5, poly(a * -1.0 + 1.0, &P0715), t5);
    t5 = pick(a >= 1.5 && a < 3.0, poly(a + -2.0, &P153), t5);
    let y = a + -3.0;
    let v = (poly(y, &NUM) + -143033.40625) / (poly(y, &DEN) + -206353.578125) + y;
    t5 = pick(a >= 3.0 && a < c(5.8), v, t5);
    let t1 = ln(a) * 0.5;
    let t2 = (a + -0.5) * t1;
    let t3 = 1.0 / a;
    let mut v = poly(t3 * t3, &P58) + c(0.0833332762122);
    v = (v * t3) + c(0.91893851757);
    v = ((v + t2) + t2) - a;
    t5 = pick(a >= c(5.8) && a < f32::INFINITY, v, t5);
    pick(a >= f32::INFINITY, a, t5)
}

fn lg_negative(p: P, a: f32, t5: f32) -> f32 {
    let mut t4 = pick(a < TINY, ln(a) * -1.0, 0.0);
    let n = round_float(p, (a + a) + 0.5, Mode::Floor);
    let parity = n - round_float(p, n * 0.5, Mode::Floor) * 2.0;
    let odd = parity >= 0.5;
    let r = ((n * -0.5) + a) * c(3.1415927410125732421875);
    let sq = r * r;
    let mut v = pick(!odd, poly(sq, &EVEN) * r + r, 0.0);
    v = pick(odd, poly(sq, &ODD) + 1.0, v);
    let t3 = v.abs() * a;
    let t2 = ((ln(t3) * -1.0) + 1.1447298526763916015625) + t5 * -1.0;
    let fin = round_float(p, a, Mode::Floor) != a && t3 < f32::INFINITY && a >= TINY;
    t4 = pick(fin, t2, t4);
    pick(!fin && a >= TINY, f32::INFINITY, t4)
}

fn lgamma_f32(p: P, x: f32) -> f32 {
    let a = x.abs();
    let t5 = lg_positive(a);
    let mut acc = pick(x >= 0.0, t5, 0.0);
    acc = pick(x < 0.0, lg_negative(p, a, t5), acc);
    pick(x.is_nan(), a, acc)
}

fn lg_positive_half(x: f32) -> f32 {
    let y = x + 4.0;
    let inv = 1.0 / y;
    let half_log = ln((inv * PI) * 2.0) * 0.5;
    let mut t4 = (y * 12.0) + inv * -0.1f32;
    t4 = ln((1.0 / t4) + y) + -1.0;
    let mut d = t4 * y + half_log;
    let mut t3 = ln(x);
    for k in 1..=3 {
        t3 += ln(x + k as f32);
    }
    d -= t3;
    d
}

fn lgamma_f16(p: P, h: f16) -> f16 {
    let x = h.to_f32();
    let mut acc = pick(x >= 0.0, lg_positive_half(x), 0.0);
    let mut neg = lg_positive_half(x * -1.0 + 1.0) * -1.0;
    let s = sin_cos(p, (x - round_float(p, x, Mode::Floor)) * PI, false).abs();
    neg += ln(PI / s);
    acc = pick(x < 0.0, neg, acc);
    acc = pick(x.is_nan(), x, acc);
    if x.abs() >= 65504.0 {
        acc = 655040.0;
    }
    r16(acc)
}

// ---------------------------------------------------------------------------------------------
// Running the APIs.

fn product(p: P) -> &'static str {
    match p {
        P::A2 => "A2",
        P::P310 => "310P",
    }
}

fn call<T: Element>(
    api: Api,
    d: &LocalTensor<T>,
    s: &LocalTensor<T>,
    t: Tmp,
    n: u32,
    reuse: bool,
) -> Result<()> {
    match api {
        Api::Digamma => digamma(d, s, t, n, reuse),
        Api::Lgamma => lgamma(d, s, t, n, reuse),
    }
}

/// Runs `api` on `xs` with a `tmp_bytes` temporary buffer; the outputs.
fn run_api<T: Element>(api: Api, p: P, xs: &[T], tmp_bytes: u32, reuse: bool) -> Vec<T> {
    run_p(product(p), |ub| {
        let n = xs.len() as u32;
        let s = ub.from(xs);
        let d = ub.tensor(n, T::default());
        let t = ub.tensor::<u8>(tmp_bytes, 0);
        call(api, &d, &s, Tmp::Shared(&t), n, reuse)?;
        (0..n).map(|i| d.get_value(i)).collect()
    })
}

/// Deterministic pseudo-random numbers in [0, 1).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// 1003 inputs (a tail that is not a multiple of 8): edge values, then uniform on (−30, 30),
/// then values near the poles and the interval boundaries.
fn inputs(seed: u64) -> Vec<f32> {
    let mut v = vec![
        0.0,
        -0.0,
        1e-40,
        -1e-40,
        1e-30,
        -1e-30,
        1e-20,
        -1e-20,
        -5e-5,
        -0.0001,
        -0.0002,
        1.0,
        2.0,
        -1.0,
        -2.0,
        -3.5,
        0.5,
        0.7,
        1.5,
        3.0,
        5.8,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        65504.0,
        -65504.0,
        1e10,
        -1e10,
        -8388608.0,
        -8388607.5,
        3.0e38,
        -3.0e38,
    ];
    let mut r = Rng(seed);
    while v.len() < 900 {
        v.push((-30.0 + 60.0 * r.next()) as f32);
    }
    while v.len() < 1003 {
        let k = -((r.next() * 20.0) as i32) as f32;
        v.push(k + ((r.next() - 0.5) * 1e-3) as f32);
    }
    v
}

fn emu_f32(api: Api, p: P, x: f32) -> f32 {
    match api {
        Api::Digamma => digamma_f32(p, x),
        Api::Lgamma => lgamma_f32(p, x),
    }
}

fn emu_f16(api: Api, p: P, x: f16) -> f16 {
    match api {
        Api::Digamma => digamma_f16(p, x),
        Api::Lgamma => lgamma_f16(p, x),
    }
}

fn check_f32(api: Api, p: P, tmp_bytes: u32, reuse: bool) {
    let xs = inputs(7 + api as u64);
    let got = run_api(api, p, &xs, tmp_bytes, reuse);
    for (i, (&x, &g)) in xs.iter().zip(&got).enumerate() {
        let want = emu_f32(api, p, x);
        assert!(
            (g.is_nan() && want.is_nan()) || g.to_bits() == want.to_bits(),
            "{api:?} float on {p:?} (tmp {tmp_bytes}, reuse {reuse}): x[{i}] = {x:e}: got {g:e} ({:#x}), emulation {want:e} ({:#x})",
            g.to_bits(),
            want.to_bits()
        );
    }
}

fn check_f16(api: Api, p: P, tmp_bytes: u32) {
    let xs: Vec<f16> = inputs(11 + api as u64)
        .into_iter()
        .map(f16::from_f32)
        .collect();
    let got = run_api(api, p, &xs, tmp_bytes, false);
    for (i, (&x, &g)) in xs.iter().zip(&got).enumerate() {
        let want = emu_f16(api, p, x);
        assert!(
            (g.is_nan() && want.is_nan()) || g.to_bits() == want.to_bits(),
            "{api:?} half on {p:?} (tmp {tmp_bytes}): x[{i}] = {x}: got {g} ({:#x}), emulation {want} ({:#x})",
            g.to_bits(),
            want.to_bits()
        );
    }
}

fn max_min(api: Api, n: u32, ts: u32, reuse: bool) -> (u32, u32) {
    match api {
        Api::Digamma => gamma::digamma_max_min_tmp_size(n, ts, reuse),
        Api::Lgamma => gamma::lgamma_max_min_tmp_size(n, ts, reuse),
    }
}

#[test]
fn float_is_bit_exact_with_the_emulation() {
    for api in [Api::Digamma, Api::Lgamma] {
        for p in [P::A2, P::P310] {
            for reuse in [false, true] {
                // The minimum (chunks of 64) and a mid-size buffer (a long tail).
                let (_, min) = max_min(api, 1003, 4, reuse);
                check_f32(api, p, min, reuse);
                check_f32(api, p, 12 * 1024, reuse);
            }
        }
    }
}

#[test]
fn half_is_bit_exact_with_the_emulation() {
    for api in [Api::Digamma, Api::Lgamma] {
        for p in [P::A2, P::P310] {
            let (_, min) = max_min(api, 1003, 2, false);
            check_f16(api, p, min);
            check_f16(api, p, 20 * 1024);
        }
    }
}

#[test]
fn reuse_source_overwrites_only_the_first_chunk() {
    let xs: Vec<f32> = (0..256).map(|i| -7.3 + i as f32 * 0.05).collect();
    for api in [Api::Digamma, Api::Lgamma] {
        let (_, min) = max_min(api, 256, 4, true);
        let (got, src) = run_p("A2", |ub| {
            let s = ub.from(&xs);
            let d = ub.tensor(256, 0f32);
            let t = ub.tensor::<u8>(min, 0);
            call(api, &d, &s, Tmp::Shared(&t), 256, true)?;
            let get = |t: &LocalTensor<f32>| -> Result<Vec<f32>> {
                (0..256).map(|i| t.get_value(i)).collect()
            };
            Ok((get(&d)?, get(&s)?))
        });
        for (i, &x) in xs.iter().enumerate() {
            assert_eq!(
                got[i].to_bits(),
                emu_f32(api, P::A2, x).to_bits(),
                "{api:?} x = {x}"
            );
        }
        // The first chunk (64 elements) served as scratch; the rest is untouched.
        assert!(src[..64].iter().zip(&xs).any(|(a, b)| a != b), "{api:?}");
        assert_eq!(&src[64..], &xs[64..], "{api:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// The pages' examples.

/// Digamma's 结果示例 (float): [5.3675685 0.26528683 -2.872628 … 2.9387941 9.001339] →
/// [1.5843406 -3.978809 -6.2081366 … 0.8983184 2.1407988].
#[test]
fn digamma_page_example() {
    let xs = [5.3675685f32, 0.26528683, -2.872628, 2.9387941, 9.001339];
    let want = [1.5843406f32, -3.978809, -6.2081366, 0.8983184, 2.1407988];
    let got = run_api(Api::Digamma, P::A2, &xs, 8192, false);
    for ((x, g), w) in xs.iter().zip(&got).zip(want) {
        assert!(
            (g - w).abs() <= 2e-6 * w.abs().max(1.0),
            "ψ({x}) = {g}, page {w}"
        );
    }
}

/// Lgamma's 结果示例 (half): [0 0.01 0.02 0.03 0.04 …] → [inf 4.599480 3.900805 3.489971
/// 3.197078 …]; without the fp16 Inf/NaN mode the simulator saturates inf to 65504.
#[test]
fn lgamma_page_example() {
    let xs: Vec<f16> = (0..512).map(|i| f16::from_f32(i as f32 * 0.01)).collect();
    let got = run_api(Api::Lgamma, P::A2, &xs, 26 * 1024, false);
    assert_eq!(got[0], f16::MAX);
    for (i, w) in [
        (1, 4.599480f32),
        (2, 3.900805),
        (3, 3.489971),
        (4, 3.197078),
    ] {
        assert!(
            (got[i].to_f32() - w).abs() < 4e-3,
            "lgamma(0.0{i}) = {}, page {w}",
            got[i]
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Host helpers.

#[test]
fn host_tmp_sizes_follow_the_vendor_formulas() {
    assert_eq!(
        gamma::digamma_max_min_tmp_size(1024, 4, false),
        (7 * 4096, 7 * 256)
    );
    assert_eq!(
        gamma::digamma_max_min_tmp_size(1024, 4, true),
        (6 * 4096, 6 * 256)
    );
    assert_eq!(
        gamma::digamma_max_min_tmp_size(1024, 2, false),
        (16 * 2048, 16 * 256)
    );
    assert_eq!(
        gamma::digamma_max_min_tmp_size(16, 4, false),
        (7 * 256, 7 * 256)
    );
    assert_eq!(gamma::digamma_tmp_buffer_factor_size(4), (7, 0));
    assert_eq!(gamma::digamma_tmp_buffer_factor_size(2), (16, 0));
    assert_eq!(
        gamma::lgamma_max_min_tmp_size(1024, 4, false),
        (8 * 4096, 8 * 256)
    );
    assert_eq!(
        gamma::lgamma_max_min_tmp_size(1024, 4, true),
        (7 * 4096, 7 * 256)
    );
    assert_eq!(
        gamma::lgamma_max_min_tmp_size(1024, 2, false),
        (26 * 2048, 26 * 256)
    );
    assert_eq!(
        gamma::lgamma_max_min_tmp_size(8, 2, true),
        (26 * 256, 26 * 256)
    );
    assert_eq!(gamma::lgamma_tmp_buffer_factor_size(4), (8, 0));
    assert_eq!(gamma::lgamma_tmp_buffer_factor_size(2), (13, 0));
}

// ---------------------------------------------------------------------------------------------
// Checks.

#[test]
fn a_too_small_buffer_is_an_error() {
    for (api, bytes) in [(Api::Digamma, 7 * 128 - 4), (Api::Lgamma, 8 * 128 - 4)] {
        let e = error_on("A2", |ub| {
            let s = ub.tensor(64, 0.5f32);
            let d = ub.tensor(64, 0f32);
            let t = ub.tensor::<u8>(bytes, 0);
            call(api, &d, &s, Tmp::Shared(&t), 64, false)
        });
        let name = if api == Api::Digamma {
            "Digamma"
        } else {
            "Lgamma"
        };
        assert_eq!((e.api, e.category), (name, Category::Size));
        assert!(e.message.contains("too small"), "{}", e.message);
    }
}

#[test]
fn other_types_are_rejected() {
    for api in [Api::Digamma, Api::Lgamma] {
        let e = error_on("A2", |ub| {
            let s = ub.tensor(64, 1i32);
            let d = ub.tensor(64, 0i32);
            let t = ub.tensor::<u8>(4096, 0);
            call(api, &d, &s, Tmp::Shared(&t), 64, false)
        });
        assert_eq!(e.category, Category::Type);
        assert!(e.message.contains("half or float"), "{}", e.message);
    }
}

#[test]
fn count_beyond_the_tensors_is_an_error() {
    let e = error_on("310P", |ub| {
        let s = ub.tensor(64, 1f32);
        let d = ub.tensor(32, 0f32);
        let t = ub.tensor::<u8>(4096, 0);
        lgamma(&d, &s, Tmp::Shared(&t), 64, false)
    });
    assert_eq!((e.api, e.category), ("Lgamma", Category::Size));
    assert!(e.message.contains("dstTensor"), "{}", e.message);
}

#[test]
fn other_products_are_rejected() {
    let e = error_on("910", |ub| {
        let s = ub.tensor(64, 1f32);
        let d = ub.tensor(64, 0f32);
        let t = ub.tensor::<u8>(4096, 0);
        digamma(&d, &s, Tmp::Shared(&t), 64, false)
    });
    assert_eq!((e.api, e.category), ("Digamma", Category::Unsupported));
}

// ---------------------------------------------------------------------------------------------
// Accuracy against f64 (the table of docs/high-level/math-gamma.md).

/// ln |Γ(x)| (Lanczos, g = 7, with the reflection for x < ½).
fn lgamma_ref(x: f64) -> f64 {
    const G: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        let s = (std::f64::consts::PI * x).sin().abs();
        return std::f64::consts::PI.ln() - s.ln() - lgamma_ref(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = G[0];
    let t = x + 7.5;
    for (i, &g) in G.iter().enumerate().skip(1) {
        a += g / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// ψ(x): the recurrence up to x ≥ 10, then the asymptotic series; the reflection for x < 0.
fn digamma_ref(x: f64) -> f64 {
    if x < 0.0 {
        return digamma_ref(1.0 - x) - std::f64::consts::PI / (std::f64::consts::PI * x).tan();
    }
    let (mut x, mut acc) = (x, 0.0);
    while x < 10.0 {
        acc -= 1.0 / x;
        x += 1.0;
    }
    let z = 1.0 / (x * x);
    let s = z
        * (1.0 / 12.0
            - z * (1.0 / 120.0
                - z * (1.0 / 252.0 - z * (1.0 / 240.0 - z * (1.0 / 132.0 - z * 691.0 / 32760.0)))));
    acc + x.ln() - 0.5 / x - s
}

/// Max absolute and relative error on (−20, 20) away from the poles (distance ≥ 0.01 from a
/// non-positive integer), and separately within (0.0001, 0.01) of the poles −1 … −5. Printed
/// with `--nocapture`.
#[test]
fn accuracy_against_f64() {
    let n = 4000;
    let far: Vec<f32> = (0..n)
        .map(|i| (-20.0 + 40.0 * (i as f64 + 0.5) / n as f64) as f32)
        .filter(|&x| x > 0.0 || (x as f64 - (x as f64).round()).abs() >= 0.01)
        .collect();
    let near: Vec<f32> = (1..=5)
        .flat_map(|k| {
            (0..200).map(move |i| {
                let d = 0.0001 + 0.0099 * i as f64 / 199.0;
                (-(k as f64) + if i % 2 == 0 { d } else { -d }) as f32
            })
        })
        .collect();
    println!("| API | dtype | inputs | max abs error | max rel error |");
    for api in [Api::Digamma, Api::Lgamma] {
        for (label, xs) in [
            ("(-20, 20) away from poles", &far),
            ("near poles -1..-5", &near),
        ] {
            for half in [false, true] {
                let (used, got): (Vec<f64>, Vec<f64>) = if half {
                    let hx: Vec<f16> = xs.iter().map(|&x| f16::from_f32(x)).collect();
                    let mut all = Vec::new();
                    for c in hx.chunks(1024) {
                        all.extend(run_api(api, P::A2, c, 40 * 1024, false));
                    }
                    (
                        hx.iter().map(|x| x.to_f64()).collect(),
                        all.iter().map(|y| y.to_f64()).collect(),
                    )
                } else {
                    let mut all = Vec::new();
                    for c in xs.chunks(1024) {
                        all.extend(run_api(api, P::A2, c, 32 * 1024, false));
                    }
                    (
                        xs.iter().map(|&x| x as f64).collect(),
                        all.iter().map(|&y| y as f64).collect(),
                    )
                };
                let (mut abs, mut rel) = (0f64, 0f64);
                for (&x, &y) in used.iter().zip(&got) {
                    if x <= 0.0 && x == x.round() {
                        continue;
                    }
                    let r = match api {
                        Api::Digamma => digamma_ref(x),
                        Api::Lgamma => lgamma_ref(x),
                    };
                    if !r.is_finite() || r.abs() > 60000.0 {
                        continue;
                    }
                    let e = (y - r).abs();
                    abs = abs.max(e);
                    if r.abs() >= 1e-2 {
                        rel = rel.max(e / r.abs());
                    }
                }
                println!(
                    "| {api:?} | {} | {label} | {abs:.3e} | {rel:.3e} |",
                    if half { "half" } else { "float" }
                );
                assert!(
                    abs.is_finite() && rel < 1.0,
                    "{api:?} {label}: abs {abs:e} rel {rel:e}"
                );
            }
        }
    }
}
