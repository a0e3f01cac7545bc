//! The exponential, logarithm, power and error-function APIs of the math family (Exp, Log,
//! Log2, Log10, Power, Erf, Erfc): bit-exact against a host emulation of the device's
//! instruction sequence (the simulator's per-instruction arithmetic) on A2 and 310P, in several
//! chunks of a small temporary buffer and from the pipe's stack buffer; the pages' worked
//! examples; the host helpers; the checks.

// The emulation spells each instruction out (`x * -1.0` is a Muls, `p = p * q` a Mul).
#![allow(clippy::neg_multiply, clippy::assign_op_pattern)]
#![allow(clippy::needless_range_loop, clippy::type_complexity)]

use ascendc::adv::math::exp_log::{erf, erfc, exp, log, power, PowerOperand};
use ascendc::adv::math::Tmp;
use ascendc::numeric::{Arith, CastElem, FloatArith};
use ascendc::prelude::*;
use ascendc::{Category, ChipProfile, Element, LaunchError, Product, SimError};
use std::sync::Mutex;

// ---------------------------------------------------------------- kernel harness

/// Tensors handed out one after another from a 128 KiB VECCALC buffer; the rest of UB is the
/// stack buffer.
struct Ub<'a> {
    buf: TBuf<QuePosition::VECCALC>,
    next: u32,
    pipe: &'a TPipe,
}

impl Ub<'_> {
    fn tensor<T: Element>(&mut self, n: u32) -> LocalTensor<T> {
        let bytes = (n * T::SIZE as u32).div_ceil(32) * 32;
        let mut t = self
            .buf
            .get::<u8>()
            .unwrap()
            .at(self.next)
            .unwrap()
            .reinterpret_cast::<T>();
        t.set_size(n).unwrap();
        self.next += bytes;
        t
    }
    fn from<T: Element>(&mut self, v: &[T]) -> LocalTensor<T> {
        let t = self.tensor::<T>(v.len() as u32);
        for (i, x) in v.iter().enumerate() {
            t.set_value(i as u32, *x).unwrap();
        }
        t
    }
}

fn read<T: Element>(t: &LocalTensor<T>, n: usize) -> Vec<T> {
    (0..n as u32).map(|i| t.get_value(i).unwrap()).collect()
}

fn launch<R: Send>(
    product: &str,
    f: impl Fn(&mut Ub) -> ascendc::Result<R> + Sync,
) -> Result<R, LaunchError> {
    let out = Mutex::new(None);
    let l = Launch::new(1).profile(ChipProfile::by_name(product).unwrap());
    l.run(|| {
        let mut pipe = TPipe::new();
        let mut buf = TBuf::<QuePosition::VECCALC>::new();
        pipe.init_buffer(&mut buf, 1, 128 * 1024)?;
        let mut ub = Ub {
            buf,
            next: 0,
            pipe: &pipe,
        };
        *out.lock().unwrap() = Some(f(&mut ub)?);
        Ok(())
    })?;
    Ok(out.into_inner().unwrap().unwrap())
}

fn run<R: Send>(product: &str, f: impl Fn(&mut Ub) -> ascendc::Result<R> + Sync) -> R {
    launch(product, f).unwrap()
}

fn error(product: &str, f: impl Fn(&mut Ub) -> ascendc::Result<()> + Sync) -> SimError {
    match launch(product, f) {
        Ok(()) => panic!("the kernel did not fail"),
        Err(e) => e.errors[0].clone(),
    }
}

const PRODUCTS: [&str; 2] = ["A2", "310P"];

fn v200(product: &str) -> bool {
    product == "310P"
}

// ---------------------------------------------------------------- data

/// Deterministic pseudo-random values (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// Uniform in `[lo, hi)`.
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (self.next() >> 11) as f64 / (1u64 << 53) as f64 * (hi - lo)
    }
}

/// `n` floats in `[lo, hi)` after the edge values.
fn floats(seed: u64, n: usize, lo: f64, hi: f64) -> Vec<f32> {
    let mut v = vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        f32::from_bits(1),
        -f32::from_bits(0x0040_0000),
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        1e30,
        -1e30,
        0.5,
        2.5,
        -3.5,
    ];
    let mut r = Rng(seed);
    while v.len() < n {
        v.push(r.range(lo, hi) as f32);
    }
    v
}

fn halves(v: &[f32]) -> Vec<f16> {
    v.iter().map(|&x| f16::from_f32(x)).collect()
}

/// Bitwise equality (NaN = NaN of the same bits).
fn same<T: Element>(a: &[T], b: &[T], what: &str) {
    let (ab, bb): (&[u8], &[u8]) = (bytemuck::cast_slice(a), bytemuck::cast_slice(b));
    if ab != bb {
        let i = (0..a.len())
            .find(|&i| bytemuck::bytes_of(&a[i]) != bytemuck::bytes_of(&b[i]))
            .unwrap();
        panic!("{what}: element {i}: got {} expected {}", a[i], b[i]);
    }
}

// ---------------------------------------------------------------- host emulation

/// Cast with the hardware's rounding (fp16 saturation on, the default).
fn cast<D: CastElem, S: CastElem>(x: S, mode: RoundMode) -> D {
    D::convert(x.exact(), mode, true).0
}
fn wide(x: f16) -> f32 {
    x.to_f32()
}
fn narrow(x: f32, mode: RoundMode) -> f16 {
    cast(x, mode)
}
fn fexp(x: f32) -> f32 {
    <f32 as FloatArith>::exp(x, true)
}
fn fln(x: f32) -> f32 {
    <f32 as FloatArith>::ln(x, true)
}
fn fdiv(a: f32, b: f32) -> f32 {
    <f32 as FloatArith>::div(a, b, true)
}
/// Float → float rounding: A2 directly, 310P through int32.
fn round_f(x: f32, mode: RoundMode, v200: bool) -> f32 {
    if v200 {
        cast::<f32, i32>(cast::<i32, f32>(x, mode), RoundMode::CAST_NONE)
    } else {
        ascendc::numeric::round_integral(x as f64, mode) as f32
    }
}

fn exp_ref(x: f32, level: u8, v200: bool) -> f32 {
    let fl = round_f(x, RoundMode::CAST_FLOOR, v200);
    let f = x - fl;
    let ip = fexp(fl);
    let mut pw = f + 0.0;
    let mut sum = f + 0.0;
    sum += 1.0;
    for i in 2..=level as u32 {
        pw = f * pw;
        pw *= 1.0 / i as f32;
        sum += pw;
    }
    sum * ip
}

fn erf_ref(x: f32) -> f32 {
    const P: [f32; 6] = [
        0.053443748819f64 as f32,
        0.75517016694e1f64 as f32,
        0.10162808918e3f64 as f32,
        0.13938061484e4f64 as f32,
        0.50637915060e4f64 as f32,
        0.29639384698e5f64 as f32,
    ];
    const Q: [f32; 5] = [
        0.31212858877e2f64 as f32,
        0.39856963806e3f64 as f32,
        0.30231248150e4f64 as f32,
        0.13243365831e5f64 as f32,
        0.26267224157e5f64 as f32,
    ];
    let x = nan_max(nan_min(x, 3.92f64 as f32), -(3.92f64 as f32));
    let sq = x * x;
    let mut p = sq * P[0];
    let mut q = p + P[1];
    for &c in &P[2..] {
        p = sq * q;
        q = p + c;
    }
    p = x * q;
    q = sq + Q[0];
    for &c in &Q[1..] {
        let t = sq * q;
        q = t + c;
    }
    fdiv(p, q)
}

fn erfc_ref(x: f32) -> f32 {
    const R: [f32; 9] = [
        0.1735313680e-7f64 as f32,
        -0.9856738394e-6f64 as f32,
        0.2517003236e-4f64 as f32,
        -0.3848015171e-3f64 as f32,
        0.5681528564e0f64 as f32,
        0.5245623129e1f64 as f32,
        0.2107740710e2f64 as f32,
        0.4212761755e2f64 as f32,
        0.4380524149e2f64 as f32,
    ];
    const S: [f32; 5] = [
        0.9349684299e1f64 as f32,
        0.3756930664e2f64 as f32,
        0.8058268949e2f64 as f32,
        0.9155653738e2f64 as f32,
        0.4380524152e2f64 as f32,
    ];
    let x = nan_max(nan_min(x, 10.0), -10.0);
    let z = x.abs() + 2.168404344971009e-19f64 as f32;
    let s = fdiv(x, z);
    let mut r = z * R[0] + R[1];
    for &c in &R[2..] {
        r = z * r + c;
    }
    let mut q = z + S[0];
    for &c in &S[1..] {
        q = z * q + c;
    }
    let e = fexp((z * z) * -1.0);
    let v = e * fdiv(r, q);
    v * s + (s * -1.0 + 1.0)
}

/// `f32::min`/`max` of the vector unit: NaN propagates.
fn nan_min(a: f32, b: f32) -> f32 {
    <f32 as Arith>::min(a, b)
}
fn nan_max(a: f32, b: f32) -> f32 {
    <f32 as Arith>::max(a, b)
}
/// The device's `1/ln 2` and `1/ln 10`.
#[allow(clippy::approx_constant)]
const LN2_F64: f64 = 1.4426950408889634;
#[allow(clippy::approx_constant)]
const LN10_F64: f64 = 0.43429448190325176;
const LN2_INV: f32 = LN2_F64 as f32;
const LN10_INV: f32 = LN10_F64 as f32;

fn power_ref(x: f32, y: f32, v200: bool) -> f32 {
    let mut d = fexp(y * fln(x.abs()));
    let mut t1 = round_f(y.abs(), RoundMode::CAST_RINT, v200);
    let t2 = round_f(t1 * 0.5, RoundMode::CAST_FLOOR, v200) * 2.0;
    t1 = round_f((t1 - t2) * -2.0 + 1.0, RoundMode::CAST_RINT, v200);
    let negative = x.to_bits() >> 31 == 1;
    let a = y.abs();
    let integral = (a - round_f(a, RoundMode::CAST_RINT, v200)).abs() < 1e-8;
    d *= if negative && integral { t1 } else { 1.0 };
    let keep = a != 0.0 && x != 1.0 && (x != -1.0 || a != f32::INFINITY);
    if !keep {
        d = 1.0;
    }
    let ok = a == f32::INFINITY || integral || x >= 0.0 || x == f32::NEG_INFINITY;
    if !ok {
        d = f32::from_bits(0x7fc0_0000);
    }
    d
}

fn power_int_ref(x: i32, y: i32, v200: bool) -> i32 {
    let zero = |v: i32| {
        if v200 {
            f32::from_bits(v as u32) == 0.0
        } else {
            v == 0
        }
    };
    let halve = |e: i32| {
        if v200 {
            cast::<i32, f32>(
                cast::<f32, i32>(e & !1, RoundMode::CAST_NONE) * 0.5,
                RoundMode::CAST_RINT,
            )
        } else {
            e >> 1
        }
    };
    let neg = (y as f32) < 0.0;
    let abs = if neg { y.wrapping_neg() } else { y };
    let (mut d, mut done) = if zero(abs) { (1, 0) } else { (x, 1) };
    let mut e = halve(abs);
    while e != 0 {
        d = d.wrapping_mul(d);
        done *= 2;
        e = halve(e);
    }
    let mut rem = abs - done;
    while !zero(rem) {
        d = d.wrapping_mul(x);
        rem -= 1;
    }
    let was_zero = d == 0;
    let inv: i32 = cast(fdiv(1.0, d as f32), RoundMode::CAST_TRUNC);
    if neg {
        d = inv;
    }
    if was_zero {
        0
    } else {
        d
    }
}

// ---------------------------------------------------------------- Exp

#[test]
fn exp_matches_the_taylor_sequence_in_chunks_and_from_the_stack() {
    let x = floats(1, 700, -20.0, 20.0);
    for p in PRODUCTS {
        for &(level, reuse) in &[(1u8, false), (10, false), (10, true), (15, false)] {
            let want: Vec<f32> = x
                .iter()
                .map(|&v| exp_ref(v + 0.0, level, v200(p)))
                .collect();
            for stack in [false, true] {
                let got = run(p, |ub| {
                    let s = ub.from(&x);
                    let d = ub.tensor::<f32>(700);
                    let t = ub.tensor::<u8>(3 * 256);
                    let tmp = if stack {
                        Tmp::Stack(ub.pipe)
                    } else {
                        Tmp::Shared(&t)
                    };
                    exp(&d, &s, level, reuse, tmp, 700)?;
                    Ok(read(&d, 700))
                });
                same(
                    &got,
                    &want,
                    &format!("Exp float {p} level {level} reuse {reuse} stack {stack}"),
                );
            }
            let xh = halves(&x);
            let want: Vec<f16> = xh
                .iter()
                .map(|&v| narrow(exp_ref(wide(v), level, v200(p)), RoundMode::CAST_NONE))
                .collect();
            let got = run(p, |ub| {
                let s = ub.from(&xh);
                let d = ub.tensor::<f16>(700);
                let t = ub.tensor::<u8>(4 * 256);
                exp(&d, &s, level, reuse, Tmp::Shared(&t), 700)?;
                Ok(read(&d, 700))
            });
            same(&got, &want, &format!("Exp half {p} level {level}"));
        }
    }
}

#[test]
fn exp_level_zero_is_the_basic_instruction() {
    let x = floats(2, 100, -10.0, 10.0);
    let got = run("A2", |ub| {
        let s = ub.from(&x);
        let d = ub.tensor::<f32>(100);
        exp(&d, &s, 0, false, Tmp::Stack(ub.pipe), 100)?;
        Ok(read(&d, 100))
    });
    let want: Vec<f32> = x.iter().map(|&v| fexp(v)).collect();
    same(&got, &want, "Exp level 0");
}

#[test]
fn exp_page_example() {
    let x: Vec<f32> = (0..512).map(|i| i as f32 * 0.01).collect();
    let got = run("A2", |ub| {
        let s = ub.from(&x);
        let d = ub.tensor::<f32>(512);
        let t = ub.tensor::<u8>(3 * 512 * 4);
        exp(&d, &s, 15, false, Tmp::Shared(&t), 512)?;
        Ok(read(&d, 512))
    });
    for (i, want) in [
        (0, 1.0f32),
        (1, 1.0100503),
        (2, 1.0202013),
        (3, 1.0304545),
        (511, 165.67036),
    ] {
        assert!(
            (got[i] - want).abs() <= want * 1e-6,
            "Exp({}) = {} expected {want}",
            x[i],
            got[i]
        );
    }
}

// ---------------------------------------------------------------- Log

#[test]
fn log_log2_log10_match_the_instruction_sequence() {
    let x = floats(3, 600, 0.0, 1e4);
    let xh = halves(&floats(4, 600, 0.0, 6e4));
    let c10h = f16::from_f64(LN10_F64);
    for p in PRODUCTS {
        let got = run(p, |ub| {
            let (s, sh) = (ub.from(&x), ub.from(&xh));
            let (d, d2, d10) = (
                ub.tensor::<f32>(600),
                ub.tensor::<f32>(600),
                ub.tensor::<f32>(600),
            );
            let (e, e2, e10) = (
                ub.tensor::<f16>(600),
                ub.tensor::<f16>(600),
                ub.tensor::<f16>(600),
            );
            let t = ub.tensor::<u8>(256);
            log::log(&d, &s, 600)?;
            log::log2(&d2, &s, Tmp::Stack(ub.pipe), 600)?;
            log::log10(&d10, &s, 600)?;
            log::log(&e, &sh, 600)?;
            log::log2(&e2, &sh, Tmp::Shared(&t), 600)?;
            log::log10(&e10, &sh, 600)?;
            Ok((
                read(&d, 600),
                read(&d2, 600),
                read(&d10, 600),
                read(&e, 600),
                read(&e2, 600),
                read(&e10, 600),
            ))
        });
        let ln: Vec<f32> = x.iter().map(|&v| fln(v)).collect();
        same(&got.0, &ln, "Log float");
        let l2: Vec<f32> = ln.iter().map(|&v| v * LN2_INV).collect();
        same(&got.1, &l2, "Log2 float");
        let l10: Vec<f32> = ln.iter().map(|&v| v * LN10_INV).collect();
        same(&got.2, &l10, "Log10 float");
        let lnh: Vec<f16> = xh.iter().map(|&v| f16::ln(v, true)).collect();
        same(&got.3, &lnh, "Log half");
        let l2h: Vec<f16> = xh
            .iter()
            .map(|&v| narrow(fln(wide(v)) * LN2_INV, RoundMode::CAST_NONE))
            .collect();
        same(&got.4, &l2h, "Log2 half");
        let l10h: Vec<f16> = lnh.iter().map(|&v| f16::mul(v, c10h, true)).collect();
        same(&got.5, &l10h, "Log10 half");
    }
}

#[test]
fn log_page_examples() {
    let got = run("A2", |ub| {
        let s = ub.from(&[
            144.22607f32,
            9634.764,
            1835.1245,
            3145.5125,
            6299.54,
            338.45963,
            2.853525,
            5752.1323,
        ]);
        let s10 = ub.from(&[
            712.7535f32,
            78.36265,
            3099.0571,
            9313.082,
            1.0,
            1.0,
            1.0,
            1.0,
        ]);
        let (d, d2, d10) = (
            ub.tensor::<f32>(8),
            ub.tensor::<f32>(8),
            ub.tensor::<f32>(8),
        );
        log::log(&d, &s, 8)?;
        log::log2(&d2, &s, Tmp::Stack(ub.pipe), 8)?;
        log::log10(&d10, &s10, 8)?;
        Ok((read(&d, 8), read(&d2, 8), read(&d10, 8)))
    });
    let close = |a: f32, b: f32| assert!((a - b).abs() <= b.abs() * 3e-7, "{a} vs {b}");
    for (i, w) in [4.971382f32, 9.173133, 7.514868, 8.053732]
        .iter()
        .enumerate()
    {
        close(got.0[i], *w);
    }
    for (i, w) in [12.621031f32, 8.40284, 1.5127451, 12.4898815]
        .iter()
        .enumerate()
    {
        close(got.1[i + 4], *w);
    }
    for (i, w) in [2.8529394f32, 1.8941091, 3.4912295, 3.9690933]
        .iter()
        .enumerate()
    {
        close(got.2[i], *w);
    }
}

// ---------------------------------------------------------------- Erf, Erfc

#[test]
fn erf_and_erfc_match_the_polynomials() {
    let x = floats(5, 900, -6.0, 6.0);
    let xh = halves(&x);
    for p in PRODUCTS {
        let mode = if v200(p) {
            RoundMode::CAST_NONE
        } else {
            RoundMode::CAST_ROUND
        };
        let got = run(p, |ub| {
            let (s, sh) = (ub.from(&x), ub.from(&xh));
            let (d, dc) = (ub.tensor::<f32>(900), ub.tensor::<f32>(900));
            let (e, ec) = (ub.tensor::<f16>(900), ub.tensor::<f16>(900));
            let t = ub.tensor::<u8>(16 * 256);
            erf(&d, &s, Tmp::Shared(&t.at(0)?), 900)?;
            erfc(&dc, &s, Tmp::Stack(ub.pipe), 900)?;
            erf(&e, &sh, Tmp::Shared(&t), 900)?;
            erfc(&ec, &sh, Tmp::Shared(&t), 900)?;
            Ok((read(&d, 900), read(&dc, 900), read(&e, 900), read(&ec, 900)))
        });
        same(
            &got.0,
            &x.iter().map(|&v| erf_ref(v)).collect::<Vec<_>>(),
            &format!("Erf float {p}"),
        );
        same(
            &got.1,
            &x.iter().map(|&v| erfc_ref(v)).collect::<Vec<_>>(),
            &format!("Erfc float {p}"),
        );
        let h: Vec<f16> = xh.iter().map(|&v| narrow(erf_ref(wide(v)), mode)).collect();
        same(&got.2, &h, &format!("Erf half {p}"));
        let h: Vec<f16> = xh
            .iter()
            .map(|&v| narrow(erfc_ref(wide(v)), mode))
            .collect();
        same(&got.3, &h, &format!("Erfc half {p}"));
    }
}

#[test]
fn erf_and_erfc_page_examples() {
    let got = run("A2", |ub| {
        let s = ub.from(&[
            2.015634f32,
            -2.3880906,
            -0.2151161,
            -2.5,
            0.0,
            2.5,
            1.0,
            3.0,
        ]);
        let (d, dc) = (ub.tensor::<f32>(8), ub.tensor::<f32>(8));
        erf(&d, &s, Tmp::Stack(ub.pipe), 8)?;
        erfc(&dc, &s, Tmp::Stack(ub.pipe), 8)?;
        Ok((read(&d, 8), read(&dc, 8)))
    });
    for (i, w) in [
        0.99563545f32,
        -0.999268,
        -0.23903976,
        -0.9995931,
        0.0,
        0.9995931,
    ]
    .iter()
    .enumerate()
    {
        assert!((got.0[i] - w).abs() <= 2e-7, "Erf {i}: {} vs {w}", got.0[i]);
    }
    for (i, w) in [(4, 1.0f32), (6, 0.157_299_2), (7, 2.209_049_7e-5)] {
        assert!(
            (got.1[i] - w).abs() <= w * 1e-5,
            "Erfc {i}: {} vs {w}",
            got.1[i]
        );
    }
}

// ---------------------------------------------------------------- Power

fn power_inputs() -> (Vec<f32>, Vec<f32>) {
    let mut base = floats(6, 800, -8.0, 8.0);
    let mut exp = floats(7, 800, -6.0, 6.0);
    // Integral exponents, ±1 bases, infinities against each other.
    for i in 0..200 {
        exp[100 + i] = exp[100 + i].round();
    }
    base[20..26].copy_from_slice(&[-1.0, -1.0, 1.0, -2.0, f32::NEG_INFINITY, -0.0]);
    exp[20..26].copy_from_slice(&[f32::INFINITY, 3.0, f32::NAN, 0.5, 3.0, -1.0]);
    (base, exp)
}

#[test]
fn power_float_and_half_match_the_sequence_in_every_form() {
    let (b, e) = power_inputs();
    let (bh, eh) = (halves(&b), halves(&e));
    let n = 800u32;
    for p in PRODUCTS {
        let v = v200(p);
        let got = run(p, |ub| {
            let (sb, se) = (ub.from(&b), ub.from(&e));
            let (hb, he) = (ub.from(&bh), ub.from(&eh));
            let d: Vec<LocalTensor<f32>> = (0..3).map(|_| ub.tensor::<f32>(n)).collect();
            let h: Vec<LocalTensor<f16>> = (0..3).map(|_| ub.tensor::<f16>(n)).collect();
            let t = ub.tensor::<u8>(256 + 8 * 4 * 96);
            let tmp = Tmp::Shared(&t);
            power(
                &d[0],
                PowerOperand::Tensor(&sb),
                PowerOperand::Tensor(&se),
                tmp,
                n,
            )?;
            power(
                &d[1],
                PowerOperand::Tensor(&sb),
                PowerOperand::Scalar(3.0),
                Tmp::Stack(ub.pipe),
                n,
            )?;
            power(
                &d[2],
                PowerOperand::Scalar(-2.5),
                PowerOperand::Tensor(&se),
                tmp,
                n,
            )?;
            power(
                &h[0],
                PowerOperand::Tensor(&hb),
                PowerOperand::Tensor(&he),
                tmp,
                n,
            )?;
            power(
                &h[1],
                PowerOperand::Tensor(&hb),
                PowerOperand::Scalar(f16::from_f32(-2.0)),
                tmp,
                n,
            )?;
            power(
                &h[2],
                PowerOperand::Scalar(f16::from_f32(1.5)),
                PowerOperand::Tensor(&he),
                tmp,
                n,
            )?;
            Ok((
                d.iter().map(|t| read(t, n as usize)).collect::<Vec<_>>(),
                h.iter().map(|t| read(t, n as usize)).collect::<Vec<_>>(),
            ))
        });
        let tt: Vec<f32> = b
            .iter()
            .zip(&e)
            .map(|(&x, &y)| power_ref(x, y, v))
            .collect();
        same(&got.0[0], &tt, &format!("Power float tensor^tensor {p}"));
        let ts: Vec<f32> = b.iter().map(|&x| power_ref(x, 3.0, v)).collect();
        same(&got.0[1], &ts, &format!("Power float tensor^scalar {p}"));
        let st: Vec<f32> = e.iter().map(|&y| power_ref(-2.5, y, v)).collect();
        same(&got.0[2], &st, &format!("Power float scalar^tensor {p}"));
        let hp = |x: f16, y: f16| narrow(power_ref(wide(x), wide(y), v), RoundMode::CAST_NONE);
        let tt: Vec<f16> = bh.iter().zip(&eh).map(|(&x, &y)| hp(x, y)).collect();
        same(&got.1[0], &tt, &format!("Power half tensor^tensor {p}"));
        let ts: Vec<f16> = bh.iter().map(|&x| hp(x, f16::from_f32(-2.0))).collect();
        same(&got.1[1], &ts, &format!("Power half tensor^scalar {p}"));
        let st: Vec<f16> = eh.iter().map(|&y| hp(f16::from_f32(1.5), y)).collect();
        same(&got.1[2], &st, &format!("Power half scalar^tensor {p}"));
    }
}

#[test]
fn power_int32_squares_and_multiplies() {
    let mut r = Rng(9);
    let n = 300usize;
    let b: Vec<i32> = (0..n)
        .map(|i| {
            if i < 8 {
                [0, 1, -1, 2, -2, 3, 0, 7][i]
            } else {
                (r.next() % 21) as i32 - 10
            }
        })
        .collect();
    let e: Vec<i32> = (0..n)
        .map(|i| {
            if i < 8 {
                [0, -3, 5, -1, 31, 0, -2, 11][i]
            } else {
                (r.next() % 40) as i32 - 10
            }
        })
        .collect();
    for p in PRODUCTS {
        let v = v200(p);
        let got = run(p, |ub| {
            let (sb, se) = (ub.from(&b), ub.from(&e));
            let d: Vec<LocalTensor<i32>> = (0..3).map(|_| ub.tensor::<i32>(n as u32)).collect();
            let t = ub.tensor::<u8>(8 * 4 * 128);
            power(
                &d[0],
                PowerOperand::Tensor(&sb),
                PowerOperand::Tensor(&se),
                Tmp::Shared(&t),
                n as u32,
            )?;
            power(
                &d[1],
                PowerOperand::Tensor(&sb),
                PowerOperand::Scalar(5),
                Tmp::Shared(&t),
                n as u32,
            )?;
            power(
                &d[2],
                PowerOperand::Scalar(-3),
                PowerOperand::Tensor(&se),
                Tmp::Stack(ub.pipe),
                n as u32,
            )?;
            Ok(d.iter().map(|t| read(t, n)).collect::<Vec<_>>())
        });
        let tt: Vec<i32> = b
            .iter()
            .zip(&e)
            .map(|(&x, &y)| power_int_ref(x, y, v))
            .collect();
        same(&got[0], &tt, &format!("Power int32 tensor^tensor {p}"));
        let ts: Vec<i32> = b.iter().map(|&x| power_int_ref(x, 5, v)).collect();
        same(&got[1], &ts, &format!("Power int32 tensor^scalar {p}"));
        let st: Vec<i32> = e.iter().map(|&y| power_int_ref(-3, y, v)).collect();
        same(&got[2], &st, &format!("Power int32 scalar^tensor {p}"));
        // Exact integer powers where they fit.
        for i in 0..n {
            if e[i] >= 0 {
                assert_eq!(
                    got[0][i],
                    b[i].wrapping_pow(e[i] as u32),
                    "{}^{}",
                    b[i],
                    e[i]
                );
            }
        }
    }
}

#[test]
fn power_page_examples() {
    for p in PRODUCTS {
        let got = run(p, |ub| {
            let b = ub.from(&[2i32, 3, 4, 5, 6, 7, 8, 9]);
            let e = ub.from(&[4i32, 3, 2, 1, 4, 3, 2, 1]);
            let bf = ub.from(&[2.0f32, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]);
            let ef = ub.from(&[4.0f32, 3.0, 2.0, 1.0, 4.0, 3.0, 2.0, 1.0]);
            let d: Vec<LocalTensor<i32>> = (0..3).map(|_| ub.tensor::<i32>(8)).collect();
            let f: Vec<LocalTensor<f32>> = (0..3).map(|_| ub.tensor::<f32>(8)).collect();
            let s = Tmp::Stack(ub.pipe);
            power(
                &d[0],
                PowerOperand::Tensor(&b),
                PowerOperand::Tensor(&e),
                s,
                8,
            )?;
            power(
                &d[1],
                PowerOperand::Scalar(2),
                PowerOperand::Tensor(&e),
                s,
                8,
            )?;
            power(
                &d[2],
                PowerOperand::Tensor(&b),
                PowerOperand::Scalar(4),
                s,
                8,
            )?;
            power(
                &f[0],
                PowerOperand::Tensor(&bf),
                PowerOperand::Tensor(&ef),
                s,
                8,
            )?;
            power(
                &f[1],
                PowerOperand::Scalar(2.0),
                PowerOperand::Tensor(&ef),
                s,
                8,
            )?;
            power(
                &f[2],
                PowerOperand::Tensor(&bf),
                PowerOperand::Scalar(4.0),
                s,
                8,
            )?;
            Ok((
                d.iter().map(|t| read(t, 8)).collect::<Vec<_>>(),
                f.iter().map(|t| read(t, 8)).collect::<Vec<_>>(),
            ))
        });
        let want = [
            vec![16, 27, 16, 5, 1296, 343, 64, 9],
            vec![16, 8, 4, 2, 16, 8, 4, 2],
            vec![16, 81, 256, 625, 1296, 2401, 4096, 6561],
        ];
        for k in 0..3 {
            assert_eq!(got.0[k], want[k], "int form {k} on {p}");
            for i in 0..8 {
                let w = want[k][i] as f32;
                assert!(
                    (got.1[k][i] - w).abs() <= w * 1e-6,
                    "float form {k} on {p}: {} vs {w}",
                    got.1[k][i]
                );
            }
        }
    }
}

// ---------------------------------------------------------------- host helpers

#[test]
fn host_helpers_follow_the_vendor_formulas() {
    use ascendc::adv::math::exp_log::{erf as e, erfc as c, exp as x, log as l, power as pw};
    assert_eq!(x::exp_max_min_tmp_size(1024, 4, false), (3 * 4096, 3 * 256));
    assert_eq!(x::exp_max_min_tmp_size(1024, 4, true), (2 * 4096, 2 * 256));
    assert_eq!(x::exp_max_min_tmp_size(16, 2, false), (4 * 256, 4 * 256));
    assert_eq!(x::exp_tmp_buffer_factor_size(2), (8, 0));
    assert_eq!(l::log2_max_min_tmp_size(1024, 2), (4096, 256));
    assert_eq!(l::log2_max_min_tmp_size(1024, 4), (0, 0));
    assert_eq!(l::log2_tmp_buffer_factor_size(2), (2, 0));
    assert_eq!(l::log_max_min_tmp_size(), (0, 0));
    assert_eq!(e::erf_max_min_tmp_size(1024, 2), (8 * 2048, 8 * 256));
    assert_eq!(c::erfc_max_min_tmp_size(1024, 4), (7 * 4096, 7 * 256));
    assert_eq!(c::erfc_tmp_buffer_factor_size(2), (16, 0));
    let a2 = Product::Ascend910B;
    let p3 = Product::Ascend310P;
    assert_eq!(
        pw::power_max_min_tmp_size(a2, Some(16), Some(16), false, 4).unwrap(),
        (4 * 256 + 256, 4 * 256 + 256)
    );
    assert_eq!(
        pw::power_max_min_tmp_size(a2, Some(1024), None, false, 4).unwrap(),
        (5 * 4096 + 256, 5 * 256 + 256)
    );
    assert_eq!(
        pw::power_max_min_tmp_size(p3, None, Some(1024), false, 2).unwrap(),
        (16 * 2048 + 256, 16 * 128 + 256)
    );
    assert_eq!(
        pw::power_max_min_tmp_size(a2, Some(100), Some(100), true, 4).unwrap(),
        (6 * 400, 6 * 256)
    );
    assert_eq!(
        pw::power_tmp_buffer_factor_size(p3, true, false, true, 4).unwrap(),
        (8, 0)
    );
    assert_eq!(
        pw::power_tmp_buffer_factor_size(a2, true, true, false, 2).unwrap(),
        (14, 256)
    );
    assert!(pw::power_max_min_tmp_size(Product::Ascend910, Some(1), Some(1), false, 4).is_err());
}

#[test]
fn the_minimum_buffers_suffice() {
    // Each API runs with exactly its GetXxxMaxMinTmpSize minimum.
    for p in PRODUCTS {
        let product = if v200(p) {
            Product::Ascend310P
        } else {
            Product::Ascend910B
        };
        run(p, |ub| {
            let s = ub.from(&[0.5f32; 300]);
            let d = ub.tensor::<f32>(300);
            let sh = ub.from(&[f16::from_f32(0.5); 300]);
            let dh = ub.tensor::<f16>(300);
            let si = ub.from(&[3i32; 300]);
            let di = ub.tensor::<i32>(300);
            let buf = |ub: &mut Ub, bytes: u32| ub.tensor::<u8>(bytes);
            let t = buf(
                ub,
                ascendc::adv::math::exp_log::exp::exp_max_min_tmp_size(300, 2, false).1,
            );
            exp(&dh, &sh, 10, false, Tmp::Shared(&t), 300)?;
            let t = buf(
                ub,
                ascendc::adv::math::exp_log::erfc::erfc_max_min_tmp_size(300, 2).1,
            );
            erfc(&dh, &sh, Tmp::Shared(&t), 300)?;
            let t = buf(
                ub,
                ascendc::adv::math::exp_log::erf::erf_max_min_tmp_size(300, 4).1,
            );
            erf(&d, &s, Tmp::Shared(&t), 300)?;
            let min = |int, size, tt| {
                let e = if tt { Some(300) } else { None };
                ascendc::adv::math::exp_log::power::power_max_min_tmp_size(
                    product,
                    Some(300),
                    e,
                    int,
                    size,
                )
                .unwrap()
                .1
            };
            let t = buf(ub, min(false, 2, true));
            power(
                &dh,
                PowerOperand::Tensor(&sh),
                PowerOperand::Tensor(&sh),
                Tmp::Shared(&t),
                300,
            )?;
            let t = buf(ub, min(false, 4, false));
            power(
                &d,
                PowerOperand::Tensor(&s),
                PowerOperand::Scalar(2.0),
                Tmp::Shared(&t),
                300,
            )?;
            let t = buf(ub, min(true, 4, false));
            power(
                &di,
                PowerOperand::Tensor(&si),
                PowerOperand::Scalar(2),
                Tmp::Shared(&t),
                300,
            )?;
            assert_eq!(read(&di, 300), vec![9; 300]);
            Ok(())
        });
    }
}

// ---------------------------------------------------------------- checks

#[test]
fn the_checks_name_the_api_and_the_rule() {
    let e = error("A2", |ub| {
        let s = ub.from(&[1.0f32; 64]);
        let d = ub.tensor::<f32>(64);
        let t = ub.tensor::<u8>(64);
        exp(&d, &s, 10, false, Tmp::Shared(&t), 64)
    });
    assert_eq!((e.category, e.api), (Category::Size, "Exp"));
    assert!(e.message.contains("too small"), "{}", e.message);
    let e = error("A2", |ub| {
        let s = ub.from(&[1.0f32; 64]);
        let d = ub.tensor::<f32>(64);
        let t = ub.tensor::<u8>(256);
        power(
            &d,
            PowerOperand::Tensor(&s),
            PowerOperand::Tensor(&s),
            Tmp::Shared(&t),
            64,
        )
    });
    assert_eq!((e.category, e.api), (Category::Size, "Power"));
    let e = error("A2", |ub| {
        let s = ub.from(&[1i32; 64]);
        let d = ub.tensor::<i32>(64);
        erf(&d, &s, Tmp::Stack(ub.pipe), 64)
    });
    assert_eq!((e.category, e.api), (Category::Type, "Erf"));
    assert!(e.message.contains("half or float"), "{}", e.message);
    let e = error("310P", |ub| {
        let s = ub.from(&[1.0f32; 64]);
        let d = ub.tensor::<f32>(32);
        log::log(&d, &s, 64)
    });
    assert_eq!((e.category, e.api), (Category::Size, "Log"));
    assert!(e.message.contains("calCount"), "{}", e.message);
    let e = error("A2", |ub| {
        let d = ub.tensor::<f32>(32);
        power(
            &d,
            PowerOperand::Scalar(1.0),
            PowerOperand::Scalar(2.0),
            Tmp::Stack(ub.pipe),
            32,
        )
    });
    assert_eq!(e.api, "Power");
    let e = error("A2", |ub| {
        let s = ub.from(&[1u16; 64]);
        let d = ub.tensor::<u16>(64);
        power(
            &d,
            PowerOperand::Tensor(&s),
            PowerOperand::Tensor(&s),
            Tmp::Stack(ub.pipe),
            64,
        )
    });
    assert_eq!((e.category, e.api), (Category::Type, "Power"));
    let e = error("910", |ub| {
        let s = ub.from(&[1.0f32; 64]);
        let d = ub.tensor::<f32>(64);
        log::log10(&d, &s, 64)
    });
    assert_eq!((e.category, e.api), (Category::Unsupported, "Log10"));
}

// ---------------------------------------------------------------- accuracy

/// Max |error| and max relative error of `got` against `f` (ignoring non-finite references).
fn err_stats(x: &[f64], got: &[f64], f: impl Fn(f64) -> f64) -> (f64, f64) {
    let (mut abs, mut rel) = (0f64, 0f64);
    for (&xi, &g) in x.iter().zip(got) {
        let w = f(xi);
        if !w.is_finite() {
            continue;
        }
        let e = (g - w).abs();
        abs = abs.max(e);
        if w.abs() > 1e-30 {
            rel = rel.max(e / w.abs());
        }
    }
    (abs, rel)
}

/// Prints the accuracy table of docs/high-level/math-exp-log.md (`cargo test -p ascendc --test
/// adv_exp_log accuracy -- --ignored --nocapture`) and bounds it.
#[test]
#[ignore]
fn accuracy_against_f64() {
    let n = 4000usize;
    let grid = |lo: f64, hi: f64| {
        (0..n)
            .map(|i| lo + (hi - lo) * i as f64 / (n - 1) as f64)
            .collect::<Vec<_>>()
    };
    type Api = fn(&LocalTensor<f32>, &LocalTensor<f32>, Tmp, u32) -> ascendc::Result<()>;
    type ApiH = fn(&LocalTensor<f16>, &LocalTensor<f16>, Tmp, u32) -> ascendc::Result<()>;
    let cases: Vec<(&str, f64, f64, Api, ApiH, fn(f64) -> f64)> = vec![
        (
            "Exp (level 10)",
            -10.0,
            10.0,
            |d, s, t, c| exp(d, s, 10, false, t, c),
            |d, s, t, c| exp(d, s, 10, false, t, c),
            f64::exp,
        ),
        (
            "Log",
            1e-3,
            1e4,
            |d, s, _, c| log::log(d, s, c),
            |d, s, _, c| log::log(d, s, c),
            f64::ln,
        ),
        (
            "Log2",
            1e-3,
            1e4,
            |d, s, t, c| log::log2(d, s, t, c),
            |d, s, t, c| log::log2(d, s, t, c),
            f64::log2,
        ),
        (
            "Log10",
            1e-3,
            1e4,
            |d, s, _, c| log::log10(d, s, c),
            |d, s, _, c| log::log10(d, s, c),
            f64::log10,
        ),
        (
            "Erf",
            -5.0,
            5.0,
            |d, s, t, c| erf(d, s, t, c),
            |d, s, t, c| erf(d, s, t, c),
            libm_erf,
        ),
        (
            "Erfc",
            -5.0,
            9.0,
            |d, s, t, c| erfc(d, s, t, c),
            |d, s, t, c| erfc(d, s, t, c),
            |x| 1.0 - libm_erf(x),
        ),
    ];
    for (name, lo, hi, f, fh, r) in cases {
        let x = grid(lo, hi);
        let xf: Vec<f32> = x.iter().map(|&v| v as f32).collect();
        let xh = halves(&xf);
        let (gf, gh) = run("A2", |ub| {
            let (s, sh) = (ub.from(&xf), ub.from(&xh));
            let (d, dh) = (ub.tensor::<f32>(n as u32), ub.tensor::<f16>(n as u32));
            f(&d, &s, Tmp::Stack(ub.pipe), n as u32)?;
            fh(&dh, &sh, Tmp::Stack(ub.pipe), n as u32)?;
            Ok((read(&d, n), read(&dh, n)))
        });
        let xr: Vec<f64> = xf.iter().map(|&v| v as f64).collect();
        let (a, rl) = err_stats(&xr, &gf.iter().map(|&v| v as f64).collect::<Vec<_>>(), r);
        println!("| {name} | float | [{lo}, {hi}] | {a:.3e} | {rl:.3e} |");
        let xr: Vec<f64> = xh.iter().map(|&v| v.to_f64()).collect();
        let (ah, rh) = err_stats(&xr, &gh.iter().map(|v| v.to_f64()).collect::<Vec<_>>(), r);
        println!("| {name} | half | [{lo}, {hi}] | {ah:.3e} | {rh:.3e} |");
        assert!(rh < 2e-2 || ah < 2e-3, "{name} half");
    }
    // Power: base in [0.1, 10], exponent in [-5, 5].
    let b: Vec<f32> = grid(0.1, 10.0).iter().map(|&v| v as f32).collect();
    let e: Vec<f32> = grid(-5.0, 5.0).iter().rev().map(|&v| v as f32).collect();
    let got = run("A2", |ub| {
        let (sb, se) = (ub.from(&b), ub.from(&e));
        let d = ub.tensor::<f32>(n as u32);
        power(
            &d,
            PowerOperand::Tensor(&sb),
            PowerOperand::Tensor(&se),
            Tmp::Stack(ub.pipe),
            n as u32,
        )?;
        Ok(read(&d, n))
    });
    let (mut a, mut rl) = (0f64, 0f64);
    for i in 0..n {
        let w = (b[i] as f64).powf(e[i] as f64);
        a = a.max((got[i] as f64 - w).abs());
        rl = rl.max((got[i] as f64 - w).abs() / w);
    }
    println!("| Power | float | base [0.1, 10], exp [-5, 5] | {a:.3e} | {rl:.3e} |");
}

/// erf in f64 (Abramowitz–Stegun 7.1.26 is too coarse; this is the series / continued
/// fraction pair, accurate to ~1e-15).
fn libm_erf(x: f64) -> f64 {
    let ax = x.abs();
    let v = if ax < 2.5 {
        // Maclaurin series.
        let (mut term, mut sum, x2) = (ax, ax, ax * ax);
        for k in 1..200 {
            term *= -x2 / k as f64;
            let t = term / (2 * k + 1) as f64;
            sum += t;
            if t.abs() < 1e-17 {
                break;
            }
        }
        sum * 2.0 / std::f64::consts::PI.sqrt()
    } else {
        // erfc continued fraction (Lentz).
        let mut f = ax;
        for k in (1..200).rev() {
            f = ax + (k as f64 / 2.0) / f;
        }
        1.0 - (-ax * ax).exp() / (f * std::f64::consts::PI.sqrt())
    };
    v.copysign(x)
}
