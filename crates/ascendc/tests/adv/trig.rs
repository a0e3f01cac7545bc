//! The trigonometric and hyperbolic high-level APIs: bit-exact against a host emulation of the
//! device's instruction sequence (float and half, A2 and 310P, edge values included), the
//! pages' worked examples, the host helpers, the checks, and the accuracy against f64.
// The emulation spells each instruction as the device issues it (`x · −1`, `y / y`).
#![allow(
    clippy::excessive_precision,
    clippy::approx_constant,
    clippy::neg_multiply,
    clippy::eq_op
)]

use crate::ub_harness;

use ascendc::adv::math::trig::{self, asin_acos, atan, hyperbolic, inverse_hyperbolic, sin_cos};
use ascendc::adv::math::Tmp;
use ascendc::prelude::*;
use ascendc::Category;
use ub_harness::{error_on, run_p};

// ---------------------------------------------------------------------------------------------
// Host emulation: one function per instruction, in the element type the device uses.

#[derive(Clone, Copy, PartialEq, Debug)]
enum P {
    A2,
    P310,
}

/// min with NaN propagation and min(+0, −0) = −0 (the vector unit's Min/Mins).
fn vmin(a: f32, b: f32) -> f32 {
    if a.is_nan() {
        a
    } else if b.is_nan() || b < a || (b == a && b.is_sign_negative()) {
        b
    } else {
        a
    }
}

fn vmax(a: f32, b: f32) -> f32 {
    if a.is_nan() {
        a
    } else if b.is_nan() || b > a || (b == a && a.is_sign_negative()) {
        b
    } else {
        a
    }
}

fn exp(x: f32) -> f32 {
    (x as f64).exp() as f32
}
fn ln(x: f32) -> f32 {
    (x as f64).ln() as f32
}
fn sqrt(x: f32) -> f32 {
    (x as f64).sqrt() as f32
}

#[derive(Clone, Copy)]
enum Mode {
    Round,
    Rint,
    Floor,
}

/// `Cast` float → float: IEEE rounding to integral (the sign of a zero kept).
fn integral(x: f32, m: Mode) -> f32 {
    match m {
        Mode::Round => x.round(),
        Mode::Rint => x.round_ties_even(),
        Mode::Floor => x.floor(),
    }
}

/// float → float rounding on A2; float → int32 → float on 310P (NaN → 0, saturating).
fn round_float(p: P, x: f32, m: Mode) -> f32 {
    match p {
        P::A2 => integral(x, m),
        P::P310 => {
            if x.is_nan() {
                0.0
            } else {
                (integral(x, m) as f64).clamp(i32::MIN as f64, i32::MAX as f64) as i32 as f32
            }
        }
    }
}

fn floor_i32(x: f32) -> f32 {
    round_float(P::P310, x, Mode::Floor)
}

/// Half results: rounded to nearest even, then fp16 saturation (±Inf → ±65504, NaN → 0).
fn sat(h: f16) -> f16 {
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
fn r16(x: f32) -> f16 {
    sat(f16::from_f32(x))
}
fn hk(x: f32) -> f16 {
    f16::from_f32(x)
}
fn hmul(a: f16, b: f16) -> f16 {
    r16(a.to_f32() * b.to_f32())
}
fn hadd(a: f16, b: f16) -> f16 {
    r16(a.to_f32() + b.to_f32())
}
fn hdiv(a: f16, b: f16) -> f16 {
    sat(f16::from_f64(a.to_f64() / b.to_f64()))
}
fn habs(a: f16) -> f16 {
    f16::from_bits(a.to_bits() & 0x7FFF)
}
fn hmin(a: f16, b: f16) -> f16 {
    let (x, y) = (a.to_f32(), b.to_f32());
    let m = if x.is_nan() {
        a
    } else if y.is_nan() || y < x || (y == x && b.is_sign_negative()) {
        b
    } else {
        a
    };
    sat(m)
}
/// half → int8 (`CAST_FLOOR`, saturating, NaN → 0) → half.
fn hfloor_i8(a: f16) -> f16 {
    let x = a.to_f32();
    let i = if x.is_nan() {
        0.0
    } else {
        x.floor().clamp(-128.0, 127.0)
    };
    f16::from_f32(i)
}
/// float → half with ties away from zero (`CAST_ROUND`), saturating.
fn narrow_away(x: f32) -> f16 {
    if !x.is_finite() {
        return r16(x);
    }
    let m = x.abs();
    let h = f16::from_f32(m);
    let mut best = h;
    for c in [
        f16::from_bits(h.to_bits().wrapping_sub(1)),
        h,
        f16::from_bits(h.to_bits() + 1),
    ] {
        let (dc, db) = (
            (c.to_f64() - m as f64).abs(),
            (best.to_f64() - m as f64).abs(),
        );
        if dc < db || (dc == db && c.to_f64() > best.to_f64()) {
            best = c;
        }
    }
    let out = if x < 0.0 { -best } else { best };
    sat(out)
}

const INV_PI: f32 = 0.3183098733425140380859375_f64 as f32;
const PI4: [f32; 4] = [
    3.140625,
    0.0009670257568359375,
    6.2771141529083251953125e-7_f64 as f32,
    1.21644916362129151821136474609375e-10_f64 as f32,
];
const SIN_C: [f32; 5] = [
    1.0,
    -0.1666665792_f64 as f32,
    0.008333049340_f64 as f32,
    -0.0001980894471_f64 as f32,
    2.604926501e-6_f64 as f32,
];

fn horner(first: f32, v: f32, c: &[f32]) -> f32 {
    let n = c.len() - 1;
    let mut acc = first * c[n];
    for &k in c[1..n].iter().rev() {
        acc = (acc + k) * v;
    }
    acc + c[0]
}

fn sin_cos_f32(p: P, x: f32, cos: bool) -> f32 {
    let mut k = x * INV_PI;
    if cos {
        k = round_float(p, k + 0.5, Mode::Rint);
    } else {
        k = round_float(p, k, Mode::Round);
    }
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
    let poly = horner(sq, sq, &SIN_C) * r;
    let mut d = poly * s;
    if cos {
        d = vmax(vmin(d, 1.0), -1.0);
    }
    d
}

/// Tan; the float path first copies the source with `Adds(x, src, 0)` (−0 becomes +0).
fn tan_f32(p: P, x: f32, copy: bool) -> f32 {
    let mut x = if copy { x + 0.0 } else { x };
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
    let r = [
        0.0698520831551998762793_f64 as f32,
        -6.8711573651634203789_f64 as f32,
        61.20362572811089435388_f64 as f32,
        -24.8048928861126769186219_f64 as f32,
    ];
    let sq = x * x;
    let num = ((sq * r[0] + r[1]) * sq + r[2]) * x;
    let den = ((sq + r[3]) * lo) * hi;
    num / den
}

fn sign_f32(x: f32) -> f32 {
    let d = x * 4611686018427387904.0;
    d / (d.abs() + 2.168404344971009e-19_f64 as f32)
}

fn sign_f16(x: f16) -> f16 {
    let d = hmul(x, hk(32768.0));
    hdiv(d, hadd(habs(d), hk(3.0517578125e-05)))
}

const ATAN_C: [f32; 7] = [
    1.0,
    -0.3333333333333333_f64 as f32,
    0.2,
    -0.14285714285714285_f64 as f32,
    0.1111111111111111_f64 as f32,
    -0.09090909090909091_f64 as f32,
    0.07692307692307693_f64 as f32,
];

fn atan_f32(x: f32) -> f32 {
    let pi4 = 0.78539816339744830961566084581988_f64 as f32;
    let pi8 = 0.39269908169872415480783042290994_f64 as f32;
    let t8 = 0.4142135623730950_f64 as f32;
    let taylor = |v: f32, n: usize| {
        let sq = v * v;
        horner(v * v, sq, &ATAN_C[..=n]) * v
    };
    let transform = |y: f32| ((y + (0.0 - t8)) / (y * t8 + 1.0)).abs();
    let clip = vmax(vmin(x, 10000.0), -10000.0);
    let a = clip.abs();
    let mut d = taylor(a, 4);
    d = vmin(d, taylor(transform(a), 4) + pi8);
    let t = ((a + -1.0) / (a + 1.0)).abs();
    d = vmin(d, taylor(t, 4) + pi4);
    d = vmin(d, (taylor(transform(t), 6) + pi8) + pi4);
    d * sign_f32(clip)
}

const ASIN_C: [f32; 8] = [
    1.0,
    0.16666666666666666666666666666667_f64 as f32,
    0.075,
    0.04464285714285714285714285714286_f64 as f32,
    0.03038194444444444444444444444444_f64 as f32,
    0.02237215909090909090909090909091_f64 as f32,
    0.01735276442307692307692307692308_f64 as f32,
    0.01396484375,
];
const HALF_PI: f32 = 1.5707963267948966192313216916398_f64 as f32;
const BOUND: f32 = 0.70710678118654752440084436210485_f64 as f32;

fn asin_f32(x: f32) -> f32 {
    let d = sqrt((x * x) * -1.0 + 1.0);
    let res2 = (horner(d * d, d * d, &ASIN_C) * d) * -1.0 + HALF_PI;
    let t = x * x;
    let a = sqrt(t);
    let mut res1 = horner(t * 1.0, t, &ASIN_C) * a;
    let mut c = floor_i32(vmin(a, BOUND) + -BOUND) * -1.0;
    res1 *= c;
    c = c * -1.0 + 1.0;
    (res1 + res2 * c) * sign_f32(x)
}

/// Half asin: the float result before narrowing.
fn asin_f16_wide(x: f16) -> f32 {
    let f2 = x.to_f32();
    let f2 = (f2 * f2) * -1.0 + 1.0;
    let f1 = (horner(f2 * 1.0, f2, &ASIN_C) * sqrt(f2)) * -1.0 + HALF_PI;
    let h2 = habs(x);
    let sq = hmul(h2, h2);
    let mut d = hmul(hmul(h2, h2), hk(ASIN_C[7]));
    for &k in ASIN_C[1..7].iter().rev() {
        d = hmul(hadd(d, hk(k)), sq);
    }
    d = hmul(hadd(d, hk(ASIN_C[0])), h2);
    let mut c = hfloor_i8(hadd(hmin(h2, hk(BOUND)), hk(-BOUND)));
    c = hmul(c, hk(-1.0));
    d = hmul(d, c);
    c = hadd(hmul(c, hk(-1.0)), hk(1.0));
    let f1 = d.to_f32() + f1 * c.to_f32();
    f1 * sign_f16(x).to_f32()
}

fn sinh_f32(x: f32) -> f32 {
    let neg_ln2 = -0.69314718055994530941723212145818_f64 as f32;
    exp(x + neg_ln2) - exp(x * -1.0 + neg_ln2)
}

fn cosh_f32(x: f32) -> f32 {
    let y = exp(x + (-0.69314718055994530941723212145818_f64 as f32));
    y + 0.25 / y
}

fn tanh_f32(x: f32) -> f32 {
    let e = exp(vmax(vmin(x, 8.8), -8.8) * 2.0);
    (e + -1.0) / (e + 1.0)
}

fn asinh_f32(x: f32) -> f32 {
    let a = x.abs();
    ln(sqrt(a * a + 1.0) + a) * sign_f32(x)
}

fn acosh_f32(x: f32) -> f32 {
    let y = x + sqrt(x * x + -1.0);
    ln(y * (y / y))
}

fn atanh_f32(x: f32) -> f32 {
    ln((x + 1.0) / (x * -1.0 + 1.0)) * 0.5
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum Api {
    Sin,
    Cos,
    Tan,
    Atan,
    Asin,
    Acos,
    Sinh,
    Cosh,
    Tanh,
    Asinh,
    Acosh,
    Atanh,
}

const ALL: [Api; 12] = [
    Api::Sin,
    Api::Cos,
    Api::Tan,
    Api::Atan,
    Api::Asin,
    Api::Acos,
    Api::Sinh,
    Api::Cosh,
    Api::Tanh,
    Api::Asinh,
    Api::Acosh,
    Api::Atanh,
];

fn emu_f32(api: Api, p: P, x: f32) -> f32 {
    match api {
        Api::Sin => sin_cos_f32(p, x, false),
        Api::Cos => sin_cos_f32(p, x, true),
        Api::Tan => tan_f32(p, x, true),
        Api::Atan => atan_f32(x),
        Api::Asin => asin_f32(x),
        Api::Acos => (asin_f32(x) + -HALF_PI) * -1.0,
        Api::Sinh => sinh_f32(x),
        Api::Cosh => cosh_f32(x),
        Api::Tanh => tanh_f32(x),
        Api::Asinh => asinh_f32(x),
        Api::Acosh => acosh_f32(x),
        Api::Atanh => atanh_f32(x),
    }
}

fn emu_f16(api: Api, p: P, x: f16) -> f16 {
    let w = x.to_f32();
    match api {
        Api::Asin => r16(asin_f16_wide(x)),
        Api::Acos => r16((asin_f16_wide(x) + -HALF_PI) * -1.0),
        Api::Cosh if p == P::A2 => narrow_away(cosh_f32(w)),
        Api::Tan => r16(tan_f32(p, w, false)),
        // The float path on the widened value; asinh takes |x| of the widened value too.
        _ => r16(emu_f32(api, p, w)),
    }
}

// ---------------------------------------------------------------------------------------------
// Running the APIs.

fn call<T: Element>(
    api: Api,
    d: &LocalTensor<T>,
    s: &LocalTensor<T>,
    t: Tmp,
    n: u32,
) -> Result<()> {
    match api {
        Api::Sin => trig::sin(d, s, t, n, false),
        Api::Cos => trig::cos(d, s, t, n, false),
        Api::Tan => trig::tan(d, s, t, n),
        Api::Atan => trig::atan(d, s, t, n),
        Api::Asin => trig::asin(d, s, t, n),
        Api::Acos => trig::acos(d, s, t, n),
        Api::Sinh => trig::sinh(d, s, t, n),
        Api::Cosh => trig::cosh(d, s, t, n),
        Api::Tanh => trig::tanh(d, s, t, n),
        Api::Asinh => trig::asinh(d, s, t, n),
        Api::Acosh => trig::acosh(d, s, t, n),
        Api::Atanh => trig::atanh(d, s, t, n),
    }
}

fn product(p: P) -> &'static str {
    match p {
        P::A2 => "A2",
        P::P310 => "310P",
    }
}

/// Runs `api` on `xs` with a `tmp_bytes` temporary buffer; the outputs.
fn run_api<T: Element>(api: Api, p: P, xs: &[T], tmp_bytes: u32) -> Vec<T> {
    run_p(product(p), |ub| {
        let n = xs.len() as u32;
        let s = ub.from(xs);
        let d = ub.tensor(n, T::default());
        let t = ub.tensor::<u8>(tmp_bytes, 0);
        call(api, &d, &s, Tmp::Shared(&t), n)?;
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

/// The domain each API is tested (and measured) on.
fn domain(api: Api) -> (f64, f64) {
    match api {
        Api::Sin | Api::Cos => (-100.0, 100.0),
        Api::Tan => (-10.0, 10.0),
        Api::Atan => (-50.0, 50.0),
        Api::Asin | Api::Acos | Api::Atanh => (-1.0, 1.0),
        Api::Sinh | Api::Cosh => (-10.0, 10.0),
        Api::Tanh => (-10.0, 10.0),
        Api::Asinh => (-1000.0, 1000.0),
        Api::Acosh => (1.0, 1000.0),
    }
}

fn inputs(api: Api, n: usize) -> Vec<f32> {
    let (lo, hi) = domain(api);
    let mut r = Rng(0x9E37_79B9_7F4A_7C15 ^ api as u64);
    let mut v: Vec<f32> = (0..n).map(|_| (lo + (hi - lo) * r.next()) as f32).collect();
    let edges = [
        0.0,
        -0.0,
        1e-40,
        -1e-40,
        1e-30,
        1.0,
        -1.0,
        0.5,
        0.70710677,
        0.7071068,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        3.0e4,
        -65504.0,
        65504.0,
        1.0e10,
        1.0e-3,
        std::f32::consts::PI,
        std::f32::consts::FRAC_PI_2,
        9.0,
        -20.0,
        100.0,
        1e5,
    ];
    v.splice(0..0, edges);
    v
}

fn same_f32(a: f32, b: f32) -> bool {
    (a.is_nan() && b.is_nan()) || a.to_bits() == b.to_bits()
}

fn check_f32(api: Api, p: P, tmp_bytes: u32) {
    let xs = inputs(api, 1000);
    let got = run_api(api, p, &xs, tmp_bytes);
    for (i, (&x, &g)) in xs.iter().zip(&got).enumerate() {
        let want = emu_f32(api, p, x);
        assert!(
            same_f32(g, want),
            "{api:?} float on {p:?}: x[{i}] = {x:e}: got {g:e} ({:#x}), emulation {want:e} ({:#x})",
            g.to_bits(),
            want.to_bits()
        );
    }
}

fn check_f16(api: Api, p: P, tmp_bytes: u32) {
    let xs: Vec<f16> = inputs(api, 1000).into_iter().map(f16::from_f32).collect();
    let got = run_api(api, p, &xs, tmp_bytes);
    for (i, (&x, &g)) in xs.iter().zip(&got).enumerate() {
        let want = emu_f16(api, p, x);
        assert!(
            g.to_bits() == want.to_bits() || (g.is_nan() && want.is_nan()),
            "{api:?} half on {p:?}: x[{i}] = {x}: got {g} ({:#x}), emulation {want} ({:#x})",
            g.to_bits(),
            want.to_bits()
        );
    }
}

#[test]
fn float_is_bit_exact_with_the_emulation() {
    for api in ALL {
        for p in [P::A2, P::P310] {
            // 4 KiB of temporary space: several chunks and a tail for 1024 elements.
            check_f32(api, p, 4096);
        }
    }
}

#[test]
fn half_is_bit_exact_with_the_emulation() {
    for api in ALL {
        for p in [P::A2, P::P310] {
            check_f16(api, p, 4096);
        }
    }
}

#[test]
fn the_minimum_buffer_gives_the_same_result() {
    for api in [Api::Sin, Api::Tan, Api::Asinh, Api::Acosh, Api::Atan] {
        let api_id = api as u8;
        let (_, min32) = host_size(api_id, 1024, 4);
        let (_, min16) = host_size(api_id, 1024, 2);
        check_f32(api, P::A2, min32);
        check_f16(api, P::P310, min16);
    }
}

/// Sin and Cos with isReuseSource: same result in a smaller buffer, the source overwritten
/// with the reduced argument.
#[test]
fn reuse_source_overwrites_the_source() {
    for cos in [false, true] {
        let xs: Vec<f32> = (0..200).map(|i| i as f32 * 0.37 - 30.0).collect();
        let (got, src) = run_p("A2", |ub| {
            let n = xs.len() as u32;
            let s = ub.from(&xs);
            let d = ub.tensor(n, 0f32);
            let (_, min) = sin_cos::sin_max_min_tmp_size(n, 4, true);
            assert_eq!(min, 512);
            let t = ub.tensor::<u8>(min, 0);
            if cos {
                trig::cos(&d, &s, Tmp::Shared(&t), n, true)?;
            } else {
                trig::sin(&d, &s, Tmp::Shared(&t), n, true)?;
            }
            let out: Result<Vec<f32>> = (0..n).map(|i| d.get_value(i)).collect();
            let src: Result<Vec<f32>> = (0..n).map(|i| s.get_value(i)).collect();
            Ok((out?, src?))
        });
        for (i, &x) in xs.iter().enumerate() {
            assert_eq!(
                got[i].to_bits(),
                sin_cos_f32(P::A2, x, cos).to_bits(),
                "x = {x}"
            );
            assert!(
                src[i].abs() <= 3.2,
                "src[{i}] = {} is the reduced argument",
                src[i]
            );
        }
        assert!(src.iter().zip(&xs).any(|(a, b)| a != b));
    }
}

// ---------------------------------------------------------------------------------------------
// The pages' examples.

/// Sin's 结果示例: [-2.56 -2.55 -2.54 … 2.55] → [-0.54889839 -0.55703507 -0.56672889 … 0.55703507].
#[test]
fn sin_page_example() {
    let xs: Vec<f32> = (0..512).map(|i| (i as f32 - 256.0) * 0.01).collect();
    let got = run_api(Api::Sin, P::A2, &xs, 8192);
    for (x, want) in [
        (-2.56f32, -0.54889839f32),
        (-2.55, -0.55703507),
        (-2.54, -0.56672889),
        (2.55, 0.55703507),
    ] {
        let i = ((x + 2.56) / 0.01).round() as usize;
        assert!(
            (got[i] - want).abs() < 2e-3,
            "sin({x}) = {}, page {want}",
            got[i]
        );
    }
    assert_eq!(got[256], 0.0);
}

// ---------------------------------------------------------------------------------------------
// Host helpers.

fn host_size(op: u8, n: u32, ts: u32) -> (u32, u32) {
    match op {
        0 | 1 => sin_cos::sin_max_min_tmp_size(n, ts, false),
        2 => trig::tan::tan_max_min_tmp_size(n, ts),
        3 => atan::atan_max_min_tmp_size(n, ts),
        4 | 5 => asin_acos::asin_max_min_tmp_size(n, ts),
        6 | 8 => hyperbolic::sinh_max_min_tmp_size(n, ts),
        7 => hyperbolic::cosh_max_min_tmp_size(n, ts),
        9 => inverse_hyperbolic::asinh_max_min_tmp_size(n, ts),
        10 => inverse_hyperbolic::acosh_max_min_tmp_size(n, ts),
        _ => inverse_hyperbolic::atanh_max_min_tmp_size(n, ts),
    }
}

#[test]
fn host_tmp_sizes_follow_the_vendor_formulas() {
    // (op, float factor, half factor) of factor · max(n · typeSize, 256).
    for (op, f, h) in [
        (0, 3, 8),
        (2, 4, 10),
        (3, 5, 12),
        (4, 2, 6),
        (6, 1, 4),
        (7, 2, 6),
        (8, 1, 4),
        (9, 3, 3),
        (11, 1, 4),
    ] {
        assert_eq!(host_size(op, 1024, 4), (f * 4096, f * 256), "op {op}");
        assert_eq!(host_size(op, 16, 4), (f * 256, f * 256), "op {op}");
        assert_eq!(host_size(op, 1024, 2), (h * 2048, h * 256), "op {op}");
    }
    // Acosh: max(factor · n, 256) · typeSize, factor · 256.
    assert_eq!(host_size(10, 16, 4), (1024, 256));
    assert_eq!(host_size(10, 1024, 2), (4096, 512));
    assert_eq!(sin_cos::sin_max_min_tmp_size(1024, 4, true), (8192, 512));
    assert_eq!(sin_cos::sin_max_min_tmp_size(1024, 2, true), (0, 0));
    assert_eq!(sin_cos::sin_tmp_buffer_factor_size(2), (8, 0));
    assert_eq!(atan::atan_tmp_buffer_factor_size(4), (5, 0));
    assert_eq!(inverse_hyperbolic::acosh_tmp_buffer_factor_size(2), (2, 0));
}

// ---------------------------------------------------------------------------------------------
// Checks.

#[test]
fn a_too_small_buffer_is_an_error() {
    let e = error_on("A2", |ub| {
        let s = ub.tensor(64, 0.5f32);
        let d = ub.tensor(64, 0f32);
        let t = ub.tensor::<u8>(256, 0);
        trig::sin(&d, &s, Tmp::Shared(&t), 64, false)
    });
    assert_eq!(e.api, "Sin");
    assert_eq!(e.category, Category::Size);
    assert!(e.message.contains("too small"), "{}", e.message);
}

#[test]
fn other_types_are_rejected() {
    let e = error_on("A2", |ub| {
        let s = ub.tensor(64, 1i32);
        let d = ub.tensor(64, 0i32);
        let t = ub.tensor::<u8>(1024, 0);
        trig::tanh(&d, &s, Tmp::Shared(&t), 64)
    });
    assert_eq!((e.api, e.category), ("Tanh", Category::Type));
    assert!(e.message.contains("half or float"), "{}", e.message);
}

#[test]
fn count_beyond_the_tensors_is_an_error() {
    let e = error_on("310P", |ub| {
        let s = ub.tensor(64, 1f32);
        let d = ub.tensor(32, 0f32);
        let t = ub.tensor::<u8>(1024, 0);
        trig::atanh(&d, &s, Tmp::Shared(&t), 64)
    });
    assert_eq!((e.api, e.category), ("Atanh", Category::Size));
    assert!(e.message.contains("dstTensor"), "{}", e.message);
}

#[test]
fn other_products_are_rejected() {
    let e = error_on("910", |ub| {
        let s = ub.tensor(64, 1f32);
        let d = ub.tensor(64, 0f32);
        let t = ub.tensor::<u8>(1024, 0);
        trig::cosh(&d, &s, Tmp::Shared(&t), 64)
    });
    assert_eq!((e.api, e.category), ("Cosh", Category::Unsupported));
}

// ---------------------------------------------------------------------------------------------
// Accuracy against f64 (the table of docs/high-level/math-trig.md).

fn reference(api: Api, x: f64) -> f64 {
    match api {
        Api::Sin => x.sin(),
        Api::Cos => x.cos(),
        Api::Tan => x.tan(),
        Api::Atan => x.atan(),
        Api::Asin => x.asin(),
        Api::Acos => x.acos(),
        Api::Sinh => x.sinh(),
        Api::Cosh => x.cosh(),
        Api::Tanh => x.tanh(),
        Api::Asinh => x.asinh(),
        Api::Acosh => x.acosh(),
        Api::Atanh => x.atanh(),
    }
}

/// Max absolute and relative error of float and half on 4000 points of the API's domain
/// (relative error over |reference| ≥ 1e-3; tan away from its poles). Printed with
/// `--nocapture`; asserted against loose bounds.
#[test]
fn accuracy_against_f64() {
    let mut rows = Vec::new();
    for api in ALL {
        let (lo, hi) = domain(api);
        let n = 4000;
        let xs: Vec<f32> = (0..n)
            .map(|i| (lo + (hi - lo) * (i as f64 + 0.5) / n as f64) as f32)
            .filter(|&x| api != Api::Tan || (x as f64).cos().abs() > 0.05)
            .collect();
        for half in [false, true] {
            let (xs_used, got): (Vec<f64>, Vec<f64>) = if half {
                let hx: Vec<f16> = xs.iter().map(|&x| f16::from_f32(x)).collect();
                let mut all = Vec::new();
                for c in hx.chunks(1024) {
                    all.extend(run_api(api, P::A2, c, 16384));
                }
                (
                    hx.iter().map(|x| x.to_f64()).collect(),
                    all.iter().map(|y| y.to_f64()).collect(),
                )
            } else {
                let mut all = Vec::new();
                for c in xs.chunks(1024) {
                    all.extend(run_api(api, P::A2, c, 16384));
                }
                (
                    xs.iter().map(|&x| x as f64).collect(),
                    all.iter().map(|&y| y as f64).collect(),
                )
            };
            let (mut abs, mut rel) = (0f64, 0f64);
            for (&x, &y) in xs_used.iter().zip(&got) {
                let r = reference(api, x);
                if !r.is_finite() || r.abs() > 65000.0 {
                    continue;
                }
                let e = (y - r).abs();
                abs = abs.max(e);
                if r.abs() >= 1e-3 {
                    rel = rel.max(e / r.abs());
                }
            }
            rows.push((api, half, abs, rel));
        }
    }
    println!("| API | dtype | range | max abs error | max rel error |");
    for (api, half, abs, rel) in &rows {
        let (lo, hi) = domain(*api);
        println!(
            "| {api:?} | {} | [{lo}, {hi}] | {abs:.3e} | {rel:.3e} |",
            if *half { "half" } else { "float" }
        );
        let bound = if *half { 2e-2 } else { 1e-3 };
        assert!(
            *rel < bound || *abs < bound,
            "{api:?} half={half}: abs {abs:e} rel {rel:e}"
        );
    }
}
