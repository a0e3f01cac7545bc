//! The element-wise activations (Sigmoid, Silu, Swish, Gelu, FasterGelu, FasterGeluV2, SwiGLU,
//! GeGLU, ReGlu): bit-exact against a host emulation of the device's instruction sequence
//! (each step rounded to the computing type, fp16 saturation as the core's default), on random
//! and edge values, on A2 and 310P, with the temporary buffer forcing several chunks; the
//! documentation page's example; the host helpers; the error cases.

use crate::ub_harness;

use ascendc::adv::activation::gelu::{gelu_max_min_tmp_size, gelu_max_tmp_size, gelu_min_tmp_size};
use ascendc::adv::activation::glu::{
    geglu_max_min_tmp_size, geglu_tmp_buffer_factor_size, reglu_max_min_tmp_size,
    swiglu_max_min_tmp_size, swiglu_tmp_buffer_factor_size,
};
use ascendc::adv::activation::sigmoid::sigmoid_max_min_tmp_size;
use ascendc::adv::activation::swish::swish_tmp_size;
use ascendc::adv::activation::{
    faster_gelu, faster_gelu_v2, geglu, gelu, reglu, sigmoid, silu, swiglu, swish, GeluMode, Tmp,
};
use ascendc::prelude::*;
use ascendc::{bf16, Category, Element};
use ub_harness::*;

// ---- host emulation of the vector instructions ---------------------------------------------

/// One element type's instruction arithmetic: one rounding per result, fp16 saturation.
trait Num: Element + Copy + std::fmt::Debug {
    fn k(x: f64) -> Self {
        Self::from_f64(x)
    }
    fn add(a: Self, b: Self) -> Self;
    fn mul(a: Self, b: Self) -> Self;
    fn div(a: Self, b: Self) -> Self;
    fn exp(a: Self) -> Self;
    fn rec(a: Self) -> Self;
    fn abs(a: Self) -> Self;
    fn bits(self) -> u32;
    fn min(a: Self, b: Self) -> Self {
        let (x, y) = (a.to_f64(), b.to_f64());
        if x.is_nan() {
            a
        } else if y.is_nan() || y < x || (y == x && y.is_sign_negative()) {
            b
        } else {
            a
        }
    }
    fn max(a: Self, b: Self) -> Self {
        let (x, y) = (a.to_f64(), b.to_f64());
        if x.is_nan() {
            a
        } else if y.is_nan() || y > x || (y == x && x.is_sign_negative()) {
            b
        } else {
            a
        }
    }
}

impl Num for f32 {
    fn add(a: f32, b: f32) -> f32 {
        a + b
    }
    fn mul(a: f32, b: f32) -> f32 {
        a * b
    }
    fn div(a: f32, b: f32) -> f32 {
        a / b
    }
    fn exp(a: f32) -> f32 {
        (a as f64).exp() as f32
    }
    fn rec(a: f32) -> f32 {
        (1.0 / a as f64) as f32
    }
    fn abs(a: f32) -> f32 {
        a.abs()
    }
    fn bits(self) -> u32 {
        self.to_bits()
    }
}

/// fp16 saturation: ±Inf → ±65504, NaN → 0.
fn sat(x: f16) -> f16 {
    if x.is_nan() {
        f16::ZERO
    } else if x.is_infinite() {
        if x.is_sign_negative() {
            f16::MIN
        } else {
            f16::MAX
        }
    } else {
        x
    }
}

impl Num for f16 {
    fn add(a: f16, b: f16) -> f16 {
        sat(f16::from_f32(a.to_f32() + b.to_f32()))
    }
    fn mul(a: f16, b: f16) -> f16 {
        sat(f16::from_f32(a.to_f32() * b.to_f32()))
    }
    fn div(a: f16, b: f16) -> f16 {
        sat(f16::from_f64(a.to_f64() / b.to_f64()))
    }
    fn exp(a: f16) -> f16 {
        sat(f16::from_f64(a.to_f64().exp()))
    }
    fn rec(a: f16) -> f16 {
        sat(f16::from_f64(1.0 / a.to_f64()))
    }
    fn abs(a: f16) -> f16 {
        f16::from_bits(a.to_bits() & 0x7FFF)
    }
    fn bits(self) -> u32 {
        self.to_bits() as u32
    }
}

fn widen(x: f16) -> f32 {
    x.to_f32()
}

fn narrow(x: f32) -> f16 {
    sat(f16::from_f32(x))
}

fn sigmoid_ref<T: Num>(x: T) -> T {
    let d = T::add(T::exp(T::mul(x, T::k(-1.0))), T::k(1.0));
    T::div(T::k(1.0), d)
}

fn swish_ref<T: Num>(x: T, scale: T) -> T {
    T::div(x, T::add(T::exp(T::mul(x, scale)), T::k(1.0)))
}

fn divide<T: Num>(x: T, q: T, perf: bool) -> T {
    if perf {
        T::mul(x, T::rec(q))
    } else {
        T::div(x, q)
    }
}

fn gelu_ref<T: Num>(x: T, perf: bool) -> T {
    let a = T::mul(x, x);
    let b = T::mul(x, a);
    let a = T::mul(b, T::k(0.044715));
    let b = T::add(x, a);
    let y = T::mul(b, T::k(1.5957691216057308));
    let e = T::exp(T::min(y, T::k(0.0)));
    let a = T::add(T::exp(T::mul(T::abs(y), T::k(-1.0))), T::k(1.0));
    T::mul(divide(x, a, perf), e)
}

fn faster_ref<T: Num>(x: T, perf: bool) -> T {
    let a = T::add(T::exp(T::mul(x, T::k(-1.702))), T::k(1.0));
    divide(x, a, perf)
}

#[allow(clippy::approx_constant)] // the device's 0.7071, not 1/√2
fn faster_v2_ref<T: Num>(x: T, perf: bool) -> T {
    let a = T::abs(T::mul(x, T::k(0.7071)));
    let a = T::add(T::min(a, T::k(1.769)), T::k(-1.769));
    let a = T::add(T::mul(T::mul(a, a), T::k(-0.1444)), T::k(0.5));
    let b = T::add(x, T::k(0.000000000001));
    let s = divide(b, T::abs(b), perf);
    T::mul(x, T::add(T::mul(a, s), T::k(0.5)))
}

fn geglu_gate<T: Num>(x: T) -> T {
    let w = T::mul(x, x);
    let w = T::add(w, T::k(2.2363860002236e1_f64 as f32 as f64));
    let w = T::mul(w, x);
    let w = T::mul(w, T::k(-0.0713548162726_f64 as f32 as f64));
    let w = T::add(T::exp(w), T::k(1.0));
    T::div(x, w)
}

// ---- inputs ------------------------------------------------------------------------------------

/// xorshift64*: reproducible values without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// `n` values: the edge values first (±0, denormals, ±Inf, NaN, large, ±1), then random ones
/// over several scales.
fn inputs<T: Num>(n: usize, seed: u64) -> Vec<T> {
    let half = T::SIZE == 2;
    let edge = [
        0.0,
        -0.0,
        if half { 3e-7 } else { 1e-40 },
        if half { -3e-7 } else { -1e-40 },
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        if half { 60000.0 } else { 1e30 },
        if half { -60000.0 } else { -1e30 },
        1.0,
        -1.0,
        88.0,
        -88.0,
        11.0,
        -11.0,
        1e-3,
    ];
    let mut r = Rng(seed | 1);
    let mut v: Vec<T> = edge.iter().map(|&x| T::from_f64(x)).collect();
    while v.len() < n {
        let scale = [1.0, 4.0, 12.0, 100.0][v.len() % 4];
        v.push(T::from_f64((r.next() * 2.0 - 1.0) * scale));
    }
    v.truncate(n);
    v
}

/// Bit-exact, except that any NaN matches any NaN: a NaN's sign and payload are not modelled (the
/// host's own arithmetic gives either sign, by optimisation level).
fn check_bits<T: Num>(what: &str, got: &[T], want: &[T], x: &[T]) {
    for i in 0..want.len() {
        if got[i].to_f64().is_nan() && want[i].to_f64().is_nan() {
            continue;
        }
        assert_eq!(
            got[i].bits(),
            want[i].bits(),
            "{what}: element {i}, x = {:?}: got {:?}, want {:?}",
            x[i],
            got[i],
            want[i]
        );
    }
}

const PRODUCTS: [&str; 2] = ["a2", "310p"];

/// Runs a one-source API on `x` (the whole of `x`, with `tmp_bytes` of temporary space)
/// and returns the destination.
fn run_unary<T: Num + Send + Sync>(
    p: &str,
    x: &[T],
    tmp_bytes: u32,
    f: impl Fn(&LocalTensor<T>, &LocalTensor<T>, Tmp, u32) -> Result<()> + Sync,
) -> Vec<T> {
    run_p(p, |ub| {
        let src = ub.from(x);
        let dst = ub.tensor(x.len() as u32, T::default());
        let tmp = ub.tensor::<u8>(tmp_bytes, 0);
        f(&dst, &src, Tmp::Shared(&tmp), x.len() as u32)?;
        (0..x.len() as u32).map(|i| dst.get_value(i)).collect()
    })
}

fn run_binary<T: Num + Send + Sync>(
    p: &str,
    x0: &[T],
    x1: &[T],
    tmp_bytes: u32,
    f: impl Fn(&LocalTensor<T>, &LocalTensor<T>, &LocalTensor<T>, Tmp, u32) -> Result<()> + Sync,
) -> Vec<T> {
    run_p(p, |ub| {
        let (a, b) = (ub.from(x0), ub.from(x1));
        let dst = ub.tensor(x0.len() as u32, T::default());
        let tmp = ub.tensor::<u8>(tmp_bytes, 0);
        f(&dst, &a, &b, Tmp::Shared(&tmp), x0.len() as u32)?;
        (0..x0.len() as u32).map(|i| dst.get_value(i)).collect()
    })
}

// ---- Sigmoid, Silu, Swish ----------------------------------------------------------------------

fn sigmoid_case<T: Num + Send + Sync>() {
    let x = inputs::<T>(1000, 11);
    let want: Vec<T> = x.iter().map(|&v| sigmoid_ref(v)).collect();
    for p in PRODUCTS {
        // 256 bytes: chunks of 64 floats / 128 halves and a tail.
        let got = run_unary(p, &x, 256, |d, s, t, n| sigmoid(d, s, t, n));
        check_bits(&format!("Sigmoid {} on {p}", T::DTYPE), &got, &want, &x);
    }
}

#[test]
fn sigmoid_matches_the_instruction_sequence() {
    sigmoid_case::<f32>();
    sigmoid_case::<f16>();
}

fn swish_case<T: Num + Send + Sync>() {
    let x = inputs::<T>(900, 12);
    for p in PRODUCTS {
        let silu_want: Vec<T> = x.iter().map(|&v| swish_ref(v, T::k(-1.0))).collect();
        let got = run_unary(p, &x, 0, |d, s, _, n| silu(d, s, n));
        check_bits(&format!("Silu {} on {p}", T::DTYPE), &got, &silu_want, &x);
        let beta = T::k(1.5);
        let want: Vec<T> = x.iter().map(|&v| swish_ref(v, T::k(-1.5))).collect();
        let got = run_unary(p, &x, 0, |d, s, _, n| swish(d, s, n, beta));
        check_bits(&format!("Swish {} on {p}", T::DTYPE), &got, &want, &x);
    }
}

#[test]
fn silu_and_swish_match_the_instruction_sequence() {
    swish_case::<f32>();
    swish_case::<f16>();
}

// ---- Gelu family -------------------------------------------------------------------------------

type GeluFn<T> = fn(&LocalTensor<T>, &LocalTensor<T>, Tmp, u32, GeluMode) -> Result<()>;

fn gelu_case<T: Num + Send + Sync>(
    name: &str,
    api: GeluFn<T>,
    reference: fn(T, bool) -> T,
    wide: fn(f32, bool) -> f32,
) {
    let x = inputs::<T>(700, 13);
    for p in PRODUCTS {
        for (hp, perf) in [(false, false), (false, true), (true, false), (true, true)] {
            let mode = GeluMode {
                high_precision: hp,
                high_performance: perf,
            };
            let want: Vec<T> = if hp && T::SIZE == 2 {
                x.iter()
                    .map(|&v| {
                        T::from_f64(narrow(wide(widen(f16::from_f64(v.to_f64())), perf)).to_f64())
                    })
                    .collect()
            } else {
                x.iter().map(|&v| reference(v, perf)).collect()
            };
            // 768 bytes: the minimum, several chunks.
            let got = run_unary(p, &x, 768, |d, s, t, n| api(d, s, t, n, mode));
            check_bits(
                &format!("{name} {} {mode:?} on {p}", T::DTYPE),
                &got,
                &want,
                &x,
            );
        }
    }
}

#[test]
fn gelu_matches_the_instruction_sequence_in_every_mode() {
    gelu_case::<f32>("Gelu", gelu::<f32>, gelu_ref, gelu_ref);
    gelu_case::<f16>("Gelu", gelu::<f16>, gelu_ref, gelu_ref);
}

#[test]
fn faster_gelu_matches_the_instruction_sequence_in_every_mode() {
    gelu_case::<f32>("FasterGelu", faster_gelu::<f32>, faster_ref, faster_ref);
    gelu_case::<f16>("FasterGelu", faster_gelu::<f16>, faster_ref, faster_ref);
}

#[test]
fn faster_gelu_v2_matches_the_instruction_sequence_in_every_mode() {
    gelu_case::<f32>(
        "FasterGeluV2",
        faster_gelu_v2::<f32>,
        faster_v2_ref,
        faster_v2_ref,
    );
    gelu_case::<f16>(
        "FasterGeluV2",
        faster_gelu_v2::<f16>,
        faster_v2_ref,
        faster_v2_ref,
    );
}

#[test]
fn half_faster_gelu_v2_without_high_precision_has_no_sign_offset() {
    // 1e-12 is 0 in half: x = 0 gives 0 / 0 in the sign step, saturated to 0, so the result is
    // 0 · 0.5 = 0; in float the offset makes the sign +1.
    let got = run_unary("a2", &[f16::ZERO; 16], 768, |d, s, t, n| {
        faster_gelu_v2(d, s, t, n, GeluMode::default())
    });
    assert_eq!(got[0].to_bits(), 0);
}

#[test]
fn gelu_page_example() {
    // 调用示例: half, 32 elements, the first 32 computed.
    let x: Vec<f16> = [
        -2.56, -2.395, -2.23, -2.066, -1.9, -1.735, -1.571, -1.406, -1.241, -1.076, -0.9116,
        -0.7466, -0.582, -0.417, -0.2522, -0.0874, 0.0774, 0.2423, 0.407, 0.572, 0.737, 0.902,
        1.066, 1.231, 1.396, 1.561, 1.726, 1.891, 2.055, 2.22, 2.385, 2.55,
    ]
    .iter()
    .map(|&v| h(v))
    .collect();
    let page = [
        -0.01295471,
        -0.01953125,
        -0.02836609,
        -0.03991699,
        -0.05453491,
        -0.07196045,
        -0.09130859,
        -0.11254883,
        -0.13342285,
        -0.15185547,
        -0.16516113,
        -0.17004395,
        -0.16320801,
        -0.14111328,
        -0.10101318,
        -0.04067993,
        0.04107666,
        0.14428711,
        0.26782227,
        0.40942383,
        0.56689453,
        0.7363281,
        0.9135742,
        1.0966797,
        1.2822266,
        1.4677734,
        1.6533203,
        1.8349609,
        2.0136719,
        2.1914062,
        2.3632812,
        2.5390625,
    ];
    let got = run_unary("a2", &x, 768, |d, s, t, n| {
        gelu(d, s, t, n, GeluMode::default())
    });
    for i in 0..32 {
        let (g, w) = (got[i].to_f32(), page[i] as f32);
        // The page's device values: within 2 half ulps.
        assert!(
            (g - w).abs() <= 2.0 * f16::EPSILON.to_f32() * w.abs().max(0.0625),
            "{i}: {g} vs {w}"
        );
    }
}

// ---- GLUs --------------------------------------------------------------------------------------

fn swiglu_case<T: Num + Send + Sync>() {
    let (x0, x1) = (inputs::<T>(600, 21), inputs::<T>(600, 22));
    let beta = 0.75f32;
    let want: Vec<T> = if T::SIZE == 4 {
        (0..600)
            .map(|i| {
                let s = swish_ref(T::k(x1[i].to_f64()), T::k(-beta as f64));
                T::mul(x0[i], s)
            })
            .collect()
    } else {
        (0..600)
            .map(|i| {
                let (a, b) = (
                    widen(f16::from_f64(x0[i].to_f64())),
                    widen(f16::from_f64(x1[i].to_f64())),
                );
                let s = swish_ref(b, -beta);
                T::from_f64(narrow(f32::mul(a, s)).to_f64())
            })
            .collect()
    };
    for p in PRODUCTS {
        // 1536 bytes: the half minimum, chunks of 128.
        let got = run_binary(p, &x0, &x1, 1536, |d, a, b, t, n| {
            swiglu(d, a, b, beta, t, n)
        });
        check_bits(&format!("SwiGLU {} on {p}", T::DTYPE), &got, &want, &x1);
    }
}

#[test]
fn swiglu_matches_the_instruction_sequence() {
    swiglu_case::<f32>();
    swiglu_case::<f16>();
}

fn geglu_case<T: Num + Send + Sync>() {
    let (x0, x1) = (inputs::<T>(600, 31), inputs::<T>(600, 32));
    let want: Vec<T> = (0..600)
        .map(|i| {
            if T::SIZE == 4 {
                T::mul(x0[i], geglu_gate(x1[i]))
            } else {
                let (a, b) = (
                    widen(f16::from_f64(x0[i].to_f64())),
                    widen(f16::from_f64(x1[i].to_f64())),
                );
                T::from_f64(narrow(f32::mul(a, geglu_gate(b))).to_f64())
            }
        })
        .collect();
    for p in PRODUCTS {
        // 1024 bytes: the half minimum, chunks of 128.
        let got = run_binary(p, &x0, &x1, 1024, |d, a, b, t, n| geglu(d, a, b, t, n));
        check_bits(&format!("GeGLU {} on {p}", T::DTYPE), &got, &want, &x1);
    }
}

#[test]
fn geglu_matches_the_instruction_sequence() {
    geglu_case::<f32>();
    geglu_case::<f16>();
}

#[test]
fn reglu_matches_the_instruction_sequence() {
    let (x0, x1) = (inputs::<f32>(600, 41), inputs::<f32>(600, 42));
    // Maxs propagates NaN (f32::max would not).
    let f32_max = |a: f32| <f32 as Num>::max(a, 0.0);
    let want: Vec<f32> = (0..600).map(|i| x0[i] * f32_max(x1[i])).collect();
    let (h0, h1) = (inputs::<f16>(600, 43), inputs::<f16>(600, 44));
    let want_h: Vec<f16> = (0..600)
        .map(|i| narrow(widen(h0[i]) * f32_max(widen(h1[i]))))
        .collect();
    for p in PRODUCTS {
        let got = run_binary(p, &x0, &x1, 256, |d, a, b, t, n| reglu(d, a, b, t, n));
        check_bits(&format!("ReGlu float on {p}"), &got, &want, &x1);
        // 1536 bytes: chunks of 128.
        let got = run_binary(p, &h0, &h1, 1536, |d, a, b, t, n| reglu(d, a, b, t, n));
        check_bits(&format!("ReGlu half on {p}"), &got, &want_h, &h1);
    }
    // bfloat16 on A2: narrowed with CAST_RINT.
    let b0: Vec<bf16> = h0
        .iter()
        .map(|v| bf16::from_f32(v.to_f32() * 3.0))
        .collect();
    let b1: Vec<bf16> = h1
        .iter()
        .map(|v| bf16::from_f32(v.to_f32() * 0.7))
        .collect();
    let got = run_p("a2", |ub| {
        let (a, b) = (ub.from(&b0), ub.from(&b1));
        let dst = ub.tensor(600, bf16::ZERO);
        let tmp = ub.tensor::<u8>(1536, 0);
        reglu(&dst, &a, &b, Tmp::Shared(&tmp), 600)?;
        (0..600)
            .map(|i| dst.get_value(i))
            .collect::<Result<Vec<bf16>>>()
    });
    for i in 0..600 {
        let w = b0[i].to_f32() * f32_max(b1[i].to_f32());
        let w = if w.is_nan() {
            bf16::ZERO
        } else {
            bf16::from_f32(w)
        };
        let w = if w.is_infinite() {
            if w.is_sign_negative() {
                bf16::MIN
            } else {
                bf16::MAX
            }
        } else {
            w
        };
        assert_eq!(got[i].to_bits(), w.to_bits(), "bf16 element {i}");
    }
}

// ---- the stack buffer ----------------------------------------------------------------------------

#[test]
fn forms_without_a_buffer_take_the_pipes_free_ub() {
    let x = inputs::<f16>(512, 51);
    let y = inputs::<f16>(512, 52);
    let out = std::sync::Mutex::new(Vec::new());
    Launch::new(1)
        .run(|| {
            let mut pipe = TPipe::new();
            let mut buf = TBuf::<QuePosition::VECCALC>::new();
            pipe.init_buffer(&mut buf, 1, 8192)?;
            let all = buf.get::<f16>()?;
            let (mut s, mut s1, mut d) = (all, all.at(1024)?, all.at(2048)?);
            for t in [&mut s, &mut s1, &mut d] {
                t.set_size(512)?;
            }
            for (i, (&a, &b)) in x.iter().zip(&y).enumerate() {
                s.set_value(i as u32, a)?;
                s1.set_value(i as u32, b)?;
            }
            let mut got = Vec::new();
            sigmoid(&d, &s, Tmp::Stack(&pipe), 512)?;
            got.push(
                (0..512)
                    .map(|i| d.get_value(i))
                    .collect::<Result<Vec<_>>>()?,
            );
            gelu(
                &d,
                &s,
                Tmp::Stack(&pipe),
                512,
                GeluMode {
                    high_precision: true,
                    high_performance: false,
                },
            )?;
            got.push(
                (0..512)
                    .map(|i| d.get_value(i))
                    .collect::<Result<Vec<_>>>()?,
            );
            swiglu(&d, &s, &s1, 1.0, Tmp::Stack(&pipe), 512)?;
            got.push(
                (0..512)
                    .map(|i| d.get_value(i))
                    .collect::<Result<Vec<_>>>()?,
            );
            *out.lock().unwrap() = got;
            Ok(())
        })
        .unwrap();
    let got = out.into_inner().unwrap();
    let sig: Vec<f16> = x.iter().map(|&v| sigmoid_ref(v)).collect();
    check_bits("Sigmoid (stack)", &got[0], &sig, &x);
    let ge: Vec<f16> = x
        .iter()
        .map(|&v| narrow(gelu_ref(widen(v), false)))
        .collect();
    check_bits("Gelu (stack)", &got[1], &ge, &x);
    let sw: Vec<f16> = (0..512)
        .map(|i| narrow(widen(x[i]) * swish_ref(widen(y[i]), -1.0)))
        .collect();
    check_bits("SwiGLU (stack)", &got[2], &sw, &y);
}

// ---- host helpers ----------------------------------------------------------------------------------

#[test]
fn host_helpers_follow_the_vendor_formulas() {
    assert_eq!(sigmoid_max_min_tmp_size(1024, 4), (4096, 256));
    assert_eq!(sigmoid_max_min_tmp_size(16, 2), (256, 256));
    assert_eq!(swish_tmp_size(), (0, 0));
    assert_eq!(gelu_min_tmp_size(), 768);
    assert_eq!(gelu_max_tmp_size(32), 768);
    assert_eq!(gelu_max_tmp_size(1024), 12288);
    assert_eq!(gelu_max_min_tmp_size(1024), (12288, 768));
    assert_eq!(swiglu_max_min_tmp_size(1024, 2), (12288, 1536));
    assert_eq!(swiglu_max_min_tmp_size(1024, 4), (0, 0));
    assert_eq!(swiglu_tmp_buffer_factor_size(2), (6, 0));
    assert_eq!(geglu_max_min_tmp_size(1024, 2), (8192, 1024));
    assert_eq!(geglu_max_min_tmp_size(64, 2), (1024, 1024));
    assert_eq!(geglu_tmp_buffer_factor_size(4), (0, 0));
    assert_eq!(reglu_max_min_tmp_size(1024, 2), (12288, 1536));
    assert_eq!(reglu_max_min_tmp_size(1024, 4), (256, 256));
}

// ---- errors ------------------------------------------------------------------------------------------

#[test]
fn errors_name_the_api_and_the_rule() {
    // Temporary buffer below one chunk.
    let e = error_on("a2", |ub| {
        let (s, d) = (ub.tensor(64, 1.0f32), ub.tensor(64, 0.0f32));
        let t = ub.tensor::<u8>(128, 0);
        gelu(&d, &s, Tmp::Shared(&t), 64, GeluMode::default())
    });
    assert_eq!((e.api, e.category), ("Gelu", Category::Size), "{e}");
    assert!(e.message.contains("too small"), "{e}");
    let e = error_on("310p", |ub| {
        let (s, d) = (ub.tensor(64, h(1.0)), ub.tensor(64, h(0.0)));
        let t = ub.tensor::<u8>(0, 0);
        sigmoid(&d, &s, Tmp::Shared(&t), 64)
    });
    assert_eq!((e.api, e.category), ("Sigmoid", Category::Size), "{e}");
    let e = error_on("a2", |ub| {
        let (s, d) = (ub.tensor(64, h(1.0)), ub.tensor(64, h(0.0)));
        let t = ub.tensor::<u8>(256, 0);
        reglu(&d, &s, &s, Tmp::Shared(&t), 64)
    });
    assert_eq!((e.api, e.category), ("ReGlu", Category::Size), "{e}");
    let e = error_on("a2", |ub| {
        let (s, d) = (ub.tensor(64, h(1.0)), ub.tensor(64, h(0.0)));
        let t = ub.tensor::<u8>(64, 0);
        geglu(&d, &s, &s, Tmp::Shared(&t), 64)
    });
    assert_eq!((e.api, e.category), ("GeGLU", Category::Size), "{e}");
    let e = error_on("a2", |ub| {
        let (s, d) = (ub.tensor(64, h(1.0)), ub.tensor(64, h(0.0)));
        let t = ub.tensor::<u8>(96, 0);
        swiglu(&d, &s, &s, 1.0, Tmp::Shared(&t), 64)
    });
    assert_eq!((e.api, e.category), ("SwiGLU", Category::Size), "{e}");
    // Data types.
    let e = error_on("a2", |ub| {
        let (s, d) = (ub.tensor(64, 1i32), ub.tensor(64, 0i32));
        silu(&d, &s, 64)
    });
    assert_eq!((e.api, e.category), ("Silu", Category::Type), "{e}");
    assert!(e.message.contains("half or float"), "{e}");
    let e = error_on("310p", |ub| {
        let (s, d) = (ub.tensor(64, bf16::ONE), ub.tensor(64, bf16::ZERO));
        let t = ub.tensor::<u8>(2048, 0);
        reglu(&d, &s, &s, Tmp::Shared(&t), 64)
    });
    assert_eq!((e.api, e.category), ("ReGlu", Category::Type), "{e}");
    // Counts and sizes.
    let e = error_on("a2", |ub| {
        let (s, d) = (ub.tensor(64, 1.0f32), ub.tensor(32, 0.0f32));
        swish(&d, &s, 64, 1.0)
    });
    assert_eq!((e.api, e.category), ("Swish", Category::Size), "{e}");
    assert!(e.message.contains("calCount"), "{e}");
    let e = error_on("a2", |ub| {
        let (a, b, d) = (
            ub.tensor(64, 1.0f32),
            ub.tensor(32, 1.0f32),
            ub.tensor(64, 0.0f32),
        );
        geglu(&d, &a, &b, Tmp::Shared(&d.reinterpret_cast()), 32)
    });
    assert_eq!((e.api, e.category), ("GeGLU", Category::Size), "{e}");
    assert!(e.message.contains("equal"), "{e}");
    // Products without the API.
    let e = error_on("310b", |ub| {
        let (s, d) = (ub.tensor(64, 1.0f32), ub.tensor(64, 0.0f32));
        silu(&d, &s, 64)
    });
    assert_eq!(e.category, Category::Unsupported, "{e}");
}
