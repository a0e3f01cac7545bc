//! The rounding, sign and remainder APIs of the math family (Floor, Ceil, Trunc, Round, Frac,
//! Sign, Fmod, ClampMax/ClampMin, Axpy, Xor): bit-exact against a host emulation of the
//! device's instruction sequence on A2 and 310P, in several chunks of a small temporary buffer
//! and from the pipe's stack buffer; the pages' worked examples; the checks.

use ascendc::adv::math::round::cumsum::{self, CumSumConfig, CumSumInfo};
use ascendc::adv::math::round::{axpy, ceil, clamp, floor, fmod, frac, nearest, sign, xor};
use ascendc::adv::math::Tmp;
use ascendc::prelude::*;
use ascendc::{Category, ChipProfile, Element, LaunchError, Product, SimError};
use std::sync::Mutex;

// ---------------------------------------------------------------- kernel harness

/// Scratch tensors handed out one after another from a 96 KiB VECCALC buffer; the rest of UB
/// stays free for the stack buffer.
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
    fn read<T: Element>(t: &LocalTensor<T>, n: usize) -> Vec<T> {
        (0..n as u32).map(|i| t.get_value(i).unwrap()).collect()
    }
}

fn launch<R: Send>(
    product: &str,
    inf_nan: bool,
    f: impl Fn(&mut Ub) -> ascendc::Result<R> + Sync,
) -> Result<R, LaunchError> {
    let out = Mutex::new(None);
    let l = Launch::new(1)
        .profile(ChipProfile::by_name(product).unwrap())
        .fp16_inf_nan(inf_nan);
    l.run(|| {
        let mut pipe = TPipe::new();
        let mut buf = TBuf::<QuePosition::VECCALC>::new();
        pipe.init_buffer(&mut buf, 1, 96 * 1024)?;
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
    launch(product, false, f).unwrap()
}

fn error(product: &str, f: impl Fn(&mut Ub) -> ascendc::Result<()> + Sync) -> SimError {
    match launch(product, false, f) {
        Ok(()) => panic!("the kernel did not fail"),
        Err(e) => e.errors[0].clone(),
    }
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
    /// Uniform in [-r, r).
    fn uniform(&mut self, r: f64) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 * 2.0 * r - r
    }
}

/// Edge values and `n` random ones in several ranges (whole numbers and halves among them).
fn values(n: usize, seed: u64) -> Vec<f32> {
    let mut v = vec![
        0.0,
        -0.0,
        0.5,
        -0.5,
        1.5,
        -1.5,
        2.5,
        -2.5,
        f32::MIN_POSITIVE / 4.0,
        -f32::MIN_POSITIVE / 4.0,
        1e-40,
        3.0,
        -7.0,
        8388607.5,
        -8388607.5,
        16777217.0,
        2147483520.0,
        3.0e9,
        -3.0e9,
        1.0e20,
        -1.0e30,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        65504.0,
        -65504.0,
        0.99999994,
        -0.99999994,
    ];
    let mut r = Rng(seed);
    while v.len() < n {
        let x = match v.len() % 5 {
            0 => r.uniform(4.0),
            1 => r.uniform(1000.0),
            2 => (r.uniform(100.0) * 2.0).round() / 2.0,
            3 => r.uniform(60000.0),
            _ => r.uniform(1.0e6),
        };
        v.push(x as f32);
    }
    v
}

fn halves(v: &[f32]) -> Vec<f16> {
    v.iter().map(|&x| f16::from_f32(x)).collect()
}

// ---------------------------------------------------------------- emulation

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Floor,
    Ceil,
    Trunc,
    Rint,
}

/// Rounded as float → float Cast does: IEEE rounding to integral (the sign of a zero kept).
fn round_exact(x: f32, m: Mode) -> f32 {
    match m {
        Mode::Floor => x.floor(),
        Mode::Ceil => x.ceil(),
        Mode::Trunc => x.trunc(),
        Mode::Rint => x.round_ties_even(),
    }
}

/// float rounding as the product runs it: 310P through int32 (NaN → 0, saturating).
fn round_on(p310: bool, x: f32, m: Mode) -> f32 {
    if !p310 {
        return round_exact(x, m);
    }
    if x.is_nan() {
        return 0.0;
    }
    let r = round_exact(x, m) as f64;
    r.clamp(i32::MIN as f64, i32::MAX as f64) as i32 as f32
}

/// float → half (nearest even), saturating (±Inf → ±65504, NaN → 0) unless in Inf/NaN mode.
fn narrow(x: f32, inf_nan: bool) -> f16 {
    let h = f16::from_f32(x);
    if inf_nan {
        h
    } else if h.is_nan() {
        f16::from_f32(0.0)
    } else if h.is_infinite() {
        f16::from_f32(65504.0f32.copysign(x))
    } else {
        h
    }
}

fn same_f32(got: &[f32], want: &[f32], what: &str, input: &[f32]) {
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan()),
            "{what}: element {i} (input {}) = {g:e}, want {w:e}",
            input[i]
        );
    }
}

fn same_f16(got: &[f16], want: &[f16], what: &str, input: &[f16]) {
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan()),
            "{what}: element {i} (input {}) = {}, want {}",
            input[i].to_f32(),
            g.to_f32(),
            w.to_f32()
        );
    }
}

// ---------------------------------------------------------------- unary rounding APIs

type Api<T> = fn(&LocalTensor<T>, &LocalTensor<T>, Tmp, u32) -> ascendc::Result<()>;

/// Runs `api` on `input` (count 1000 of 1024) with a `tmp_bytes` buffer (0: the stack) on
/// `product`; the results.
fn unary<T: Element>(
    product: &str,
    api: Api<T>,
    input: &[T],
    tmp_bytes: u32,
    count: u32,
) -> Vec<T> {
    run(product, |ub| {
        let src = ub.from(input);
        let dst = ub.tensor::<T>(input.len() as u32);
        if tmp_bytes == 0 {
            api(&dst, &src, Tmp::Stack(ub.pipe), count)?;
        } else {
            let tmp = ub.tensor::<u8>(tmp_bytes);
            api(&dst, &src, Tmp::Shared(&tmp), count)?;
        }
        Ok(Ub::read(&dst, count as usize))
    })
}

fn check_rounding(name: &str, api32: Api<f32>, api16: Api<f16>, mode: Mode, frac_of: bool) {
    let input = values(1024, 7);
    let input16 = halves(&input);
    let count = 1000;
    for product in ["A2", "310P"] {
        let p310 = product == "310P";
        let emu = |x: f32| {
            let r = round_on(p310, x, mode);
            if frac_of {
                x - r
            } else {
                r
            }
        };
        for tmp in [1024, 0] {
            let got = unary(product, api32, &input, tmp, count);
            let want: Vec<f32> = input[..count as usize].iter().map(|&x| emu(x)).collect();
            same_f32(
                &got,
                &want,
                &format!("{name} float {product} tmp {tmp}"),
                &input,
            );
            let got = unary(product, api16, &input16, tmp, count);
            let want: Vec<f16> = input16[..count as usize]
                .iter()
                .map(|&x| narrow(emu(x.to_f32()), false))
                .collect();
            same_f16(
                &got,
                &want,
                &format!("{name} half {product} tmp {tmp}"),
                &input16,
            );
        }
    }
}

#[test]
fn floor_matches_the_emulation_on_both_products() {
    check_rounding("Floor", floor::floor, floor::floor, Mode::Floor, false);
}

#[test]
fn floor_on_310b_is_the_count_form_cast_chain() {
    let input = values(1024, 11);
    let input16 = halves(&input);
    let count = 1000;
    for tmp in [256, 0] {
        let got = unary("310B", floor::floor, &input, tmp, count);
        let want: Vec<f32> = input[..1000].iter().map(|x| x.floor()).collect();
        same_f32(&got, &want, &format!("Floor float 310B tmp {tmp}"), &input);
        let got = unary("310B", floor::floor, &input16, tmp, count);
        let want: Vec<f16> = input16[..1000]
            .iter()
            .map(|x| narrow(x.to_f32().floor(), false))
            .collect();
        same_f16(&got, &want, &format!("Floor half 310B tmp {tmp}"), &input16);
    }
    let e = error("310B", |ub| {
        let (d, s, t) = (
            ub.tensor::<f16>(64),
            ub.tensor::<f16>(64),
            ub.tensor::<u8>(96),
        );
        floor::floor(&d, &s, Tmp::Shared(&t), 64)
    });
    assert!(e.message.contains("96 bytes is too small"), "{e}");
    let e = error("310B", |ub| {
        let (d, s) = (ub.tensor::<f32>(64), ub.tensor::<f32>(64));
        ceil::ceil(&d, &s, Tmp::Stack(ub.pipe), 64)
    });
    assert!(
        e.message.contains("Ceil is not available on Ascend310B"),
        "{e}"
    );
}

#[test]
fn ceil_matches_the_emulation_on_both_products() {
    check_rounding("Ceil", ceil::ceil, ceil::ceil, Mode::Ceil, false);
}

#[test]
fn trunc_matches_the_emulation_on_both_products() {
    check_rounding("Trunc", ceil::trunc, ceil::trunc, Mode::Trunc, false);
}

#[test]
fn round_matches_the_emulation_on_both_products() {
    check_rounding("Round", nearest::round, nearest::round, Mode::Rint, false);
}

#[test]
fn frac_matches_the_emulation_on_both_products() {
    check_rounding("Frac", frac::frac, frac::frac, Mode::Trunc, true);
}

#[test]
fn the_310p_int32_step_saturates_and_zeroes_nan() {
    let input = [3.0e9f32, -3.0e9, f32::NAN, 2.5];
    let got = unary("310P", floor::floor, &input, 0, 4);
    assert_eq!(got, [2147483648.0, -2147483648.0, 0.0, 2.0]);
    let got = unary("A2", floor::floor, &input, 0, 4);
    assert_eq!(got[..2], [3.0e9, -3.0e9]);
    assert!(got[2].is_nan());
}

#[test]
fn half_inf_nan_mode_keeps_infinities() {
    let input = halves(&[f32::INFINITY, -1.5, f32::NEG_INFINITY, 0.25]);
    let got = launch("A2", true, |ub| {
        let src = ub.from(&input);
        let dst = ub.tensor::<f16>(4);
        ceil::ceil(&dst, &src, Tmp::Stack(ub.pipe), 4)?;
        Ok(Ub::read(&dst, 4))
    })
    .unwrap();
    let f: Vec<f32> = got.iter().map(|x| x.to_f32()).collect();
    assert_eq!(f, [f32::INFINITY, -1.0, f32::NEG_INFINITY, 1.0]);
    // Saturation mode (the default): ±Inf come back as ±65504.
    let got = unary("A2", ceil::ceil, &input, 0, 4);
    assert_eq!(got[0].to_f32(), 65504.0);
    assert_eq!(got[2].to_f32(), -65504.0);
}

#[test]
fn the_pages_examples() {
    let f = |api: Api<f32>, x: &[f32]| unary("A2", api, x, 1024, x.len() as u32);
    assert_eq!(
        f(floor::floor, &[-1.5, -0.5, 0.5, 1.5, 2.5, 3.5, 4.5, 5.5]),
        [-2.0, -1.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    );
    assert_eq!(
        f(ceil::ceil, &[-1.1, 0.0, 0.9, 1.9, 2.9, 3.9, 4.9, 5.9]),
        [-1.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    );
    let x = [9.33, -8.07, -6.38, 8.45, 5.83, 6.46, 4.18, 1.93];
    assert_eq!(
        f(ceil::trunc, &x),
        [9.0, -8.0, -6.0, 8.0, 5.0, 6.0, 4.0, 1.0]
    );
    let fr = f(frac::frac, &x);
    for (g, w) in fr
        .iter()
        .zip([0.33, -0.07, -0.38, 0.45, 0.83, 0.46, 0.18, 0.93])
    {
        assert!((g - w).abs() < 1e-5, "{g} vs {w}");
    }
    assert_eq!(
        f(
            nearest::round,
            &[0.80541134, 0.8385705, 0.49426016, 6.6, -4.3, -8.6, 8.8, -8.3]
        ),
        [1.0, 1.0, 0.0, 7.0, -4.0, -9.0, 9.0, -8.0]
    );
    let mut x = vec![0.0f32; 64];
    x[..8].copy_from_slice(&[
        f32::NEG_INFINITY,
        -2.0,
        -0.0,
        0.0,
        f32::NAN,
        -f32::NAN,
        2.0,
        f32::INFINITY,
    ]);
    let s = unary("A2", sign::sign, &x, 1024, 8);
    assert_eq!(s, [-1.0, -1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0]);
}

// ---------------------------------------------------------------- Sign

#[test]
fn sign_matches_on_both_products_and_types() {
    // 768 elements: Sign's Compares read whole 256-byte repeats past the count.
    let input = values(768, 11);
    let input16 = halves(&input);
    let want = |x: f32| {
        if x < 0.0 {
            -1.0
        } else if x > 0.0 {
            1.0
        } else {
            0.0
        }
    };
    for product in ["A2", "310P"] {
        for tmp in [3 * 256, 4096, 0] {
            let got = unary(product, sign::sign, &input, tmp, 650);
            let w: Vec<f32> = input[..650].iter().map(|&x| want(x)).collect();
            same_f32(&got, &w, &format!("Sign float {product} {tmp}"), &input);
            let got = unary(product, sign::sign, &input16, tmp, 650);
            let w: Vec<f16> = input16[..650]
                .iter()
                .map(|x| f16::from_f32(want(x.to_f32())))
                .collect();
            same_f16(&got, &w, &format!("Sign half {product} {tmp}"), &input16);
        }
    }
}

// ---------------------------------------------------------------- Fmod

fn fmod_f32(p310: bool, a: f32, b: f32) -> f32 {
    let q = a / b;
    let t = round_on(p310, q, Mode::Trunc);
    a - t * b
}

fn fmod_run<T: Element>(product: &str, a: &[T], b: &[T], tmp: u32, count: u32) -> Vec<T> {
    run(product, |ub| {
        let (x, y) = (ub.from(a), ub.from(b));
        let dst = ub.tensor::<T>(a.len() as u32);
        if tmp == 0 {
            fmod::fmod(&dst, &x, &y, Tmp::Stack(ub.pipe), count)?;
        } else {
            let t = ub.tensor::<u8>(tmp);
            fmod::fmod(&dst, &x, &y, Tmp::Shared(&t), count)?;
        }
        Ok(Ub::read(&dst, count as usize))
    })
}

#[test]
fn fmod_matches_on_both_products_and_types() {
    let a = values(800, 3);
    let mut r = Rng(99);
    let mut b: Vec<f32> = (0..800).map(|_| r.uniform(50.0) as f32).collect();
    b[..6].copy_from_slice(&[2.0, -3.0, 0.0, 1e-3, f32::INFINITY, 7.5]);
    let (a16, b16) = (halves(&a), halves(&b));
    for product in ["A2", "310P"] {
        let p310 = product == "310P";
        for tmp in [256, 2048, 0] {
            let got = fmod_run(product, &a, &b, tmp, 777);
            let want: Vec<f32> = (0..777).map(|i| fmod_f32(p310, a[i], b[i])).collect();
            same_f32(&got, &want, &format!("Fmod float {product} {tmp}"), &a);
        }
        for tmp in [2048, 8192, 0] {
            let got = fmod_run(product, &a16, &b16, tmp, 777);
            let want: Vec<f16> = (0..777)
                .map(|i| narrow(fmod_f32(p310, a16[i].to_f32(), b16[i].to_f32()), false))
                .collect();
            same_f16(&got, &want, &format!("Fmod half {product} {tmp}"), &a16);
        }
    }
    // The page's example.
    let x: Vec<f32> = (-256..=255).map(|i| i as f32 / 100.0).collect();
    let got = fmod_run("A2", &x, &vec![2.0; x.len()], 0, x.len() as u32);
    for (g, xi) in got.iter().zip(&x) {
        let w = (*xi as f64) % 2.0;
        assert!((*g as f64 - w).abs() < 1e-6, "Fmod({xi}, 2) = {g}");
    }
}

// ---------------------------------------------------------------- Clamp

#[test]
fn clamp_max_and_min_as_on_the_page() {
    let x: Vec<f32> = (0..128).map(|i| i as f32).collect();
    for product in ["A2", "310P"] {
        let (hi, lo) = run(product, |ub| {
            let src = ub.from(&x);
            let (a, b) = (ub.tensor::<f32>(128), ub.tensor::<f32>(128));
            let tmp = ub.tensor::<u8>(64);
            clamp::clamp_max(&a, &src, Tmp::Shared(&tmp), 2.0, 128)?;
            clamp::clamp_min(&b, &src, Tmp::Stack(ub.pipe), 2.0, 128)?;
            Ok((Ub::read(&a, 128), Ub::read(&b, 128)))
        });
        let want_hi: Vec<f32> = x.iter().map(|v| v.min(2.0)).collect();
        let want_lo: Vec<f32> = x.iter().map(|v| v.max(2.0)).collect();
        assert_eq!(hi, want_hi);
        assert_eq!(lo, want_lo);
    }
    let xh = halves(&[-3.5, 0.25, 7.0, 100.0]);
    let got = run("A2", |ub| {
        let src = ub.from(&xh);
        let d = ub.from(&[f16::from_f32(0.0); 4]);
        clamp::clamp_max(&d, &src, Tmp::Stack(ub.pipe), f16::from_f32(5.0), 3)?;
        Ok(Ub::read(&d, 4))
    });
    let f: Vec<f32> = got.iter().map(|v| v.to_f32()).collect();
    assert_eq!(
        f,
        [-3.5, 0.25, 5.0, 0.0],
        "the 4th element is outside the count"
    );
}

// ---------------------------------------------------------------- Axpy

#[test]
fn axpy_in_its_three_type_pairs() {
    let src = values(600, 5)
        .iter()
        .map(|x| x.clamp(-1000.0, 1000.0))
        .collect::<Vec<f32>>();
    let src16 = halves(&src);
    let mut r = Rng(17);
    let acc: Vec<f32> = (0..600).map(|_| r.uniform(100.0) as f32).collect();
    let acc16 = halves(&acc);
    let a = 1.7f32;
    let a16 = f16::from_f32(a);
    for product in ["A2", "310P"] {
        for tmp in [1024, 4096] {
            // half, half
            let got = run(product, |ub| {
                let (s, d) = (ub.from(&src16), ub.from(&acc16));
                let t = ub.tensor::<u8>(tmp);
                axpy::axpy(&d, &s, a16, Tmp::Shared(&t), 555)?;
                Ok(Ub::read(&d, 600))
            });
            let want: Vec<f16> = (0..600)
                .map(|i| {
                    if i >= 555 {
                        return acc16[i];
                    }
                    let x = src16[i].to_f32() * a16.to_f32();
                    narrow(acc16[i].to_f32() + x, false)
                })
                .collect();
            same_f16(
                &got,
                &want,
                &format!("Axpy half/half {product} {tmp}"),
                &src16,
            );
            // float, half
            let got = run(product, |ub| {
                let (s, d) = (ub.from(&src16), ub.from(&acc));
                let t = ub.tensor::<u8>(tmp);
                axpy::axpy(&d, &s, a16, Tmp::Shared(&t), 555)?;
                Ok(Ub::read(&d, 600))
            });
            let want: Vec<f32> = (0..600)
                .map(|i| {
                    if i >= 555 {
                        acc[i]
                    } else {
                        acc[i] + src16[i].to_f32() * a16.to_f32()
                    }
                })
                .collect();
            same_f32(
                &got,
                &want,
                &format!("Axpy float/half {product} {tmp}"),
                &acc,
            );
        }
        // float, float: the basic Axpy, product and sum each rounded.
        let got = run(product, |ub| {
            let (s, d) = (ub.from(&src), ub.from(&acc));
            let t = ub.tensor::<u8>(256);
            axpy::axpy(&d, &s, a, Tmp::Shared(&t), 600)?;
            Ok(Ub::read(&d, 600))
        });
        let want: Vec<f32> = (0..600).map(|i| acc[i] + src[i] * a).collect();
        same_f32(&got, &want, &format!("Axpy float/float {product}"), &acc);
    }
    // The page's example: 0 + 3 · (1..=512).
    let s: Vec<f16> = (1..=512).map(|i| f16::from_f32(i as f32)).collect();
    let got = run("A2", |ub| {
        let (x, d) = (ub.from(&s), ub.tensor::<f32>(512));
        ascendc::api::vec::duplicate::duplicate(&d, 0.0f32, 512u32)?;
        let t = ub.tensor::<u8>(4096);
        axpy::axpy(&d, &x, f16::from_f32(3.0), Tmp::Shared(&t), 512)?;
        Ok(Ub::read(&d, 512))
    });
    assert_eq!(got, (1..=512).map(|i| 3.0 * i as f32).collect::<Vec<_>>());
}

// ---------------------------------------------------------------- Xor

#[test]
fn xor_of_int16_and_uint16_on_every_listed_product() {
    let mut r = Rng(23);
    let a: Vec<i16> = (0..900).map(|_| r.next() as i16).collect();
    let b: Vec<i16> = (0..900).map(|_| r.next() as i16).collect();
    for product in ["A2", "310P", "310B"] {
        for tmp in [256, 1024, 0] {
            let got = run(product, |ub| {
                let (x, y, d) = (ub.from(&a), ub.from(&b), ub.tensor::<i16>(900));
                if tmp == 0 {
                    xor::xor(&d, &x, &y, Tmp::Stack(ub.pipe), 850)?;
                } else {
                    let t = ub.tensor::<u8>(tmp);
                    xor::xor(&d, &x, &y, Tmp::Shared(&t), 850)?;
                }
                Ok(Ub::read(&d, 850))
            });
            let want: Vec<i16> = (0..850).map(|i| a[i] ^ b[i]).collect();
            assert_eq!(got, want, "{product} {tmp}");
        }
    }
    let got = run("A2", |ub| {
        let x = ub.from(&[2u16, 3, 5, 7, 11, 13, 17, 19]);
        let y = ub.from(&[1u16, 2, 3, 4, 5, 6, 7, 8]);
        let d = ub.tensor::<u16>(8);
        xor::xor(&d, &x, &y, Tmp::Stack(ub.pipe), 8)?;
        Ok(Ub::read(&d, 8))
    });
    // The page prints 10 for 13 ^ 6 (= 11).
    assert_eq!(got, [3, 1, 6, 3, 14, 11, 22, 27]);
}

// ---------------------------------------------------------------- CumSum

/// Sequential float sums along the last axis (`last`) or down the first; half narrowed once.
fn cum_sum_emu(x: &[f32], rows: usize, w: usize, last: bool) -> Vec<f32> {
    let mut out = x.to_vec();
    for r in 0..rows {
        for c in 0..w {
            let prev = if last && c > 0 {
                Some(out[r * w + c - 1])
            } else if !last && r > 0 {
                Some(out[(r - 1) * w + c])
            } else {
                None
            };
            if let Some(p) = prev {
                out[r * w + c] = p + x[r * w + c];
            }
        }
    }
    out
}

fn cum_sum_run<T: Element>(
    product: &str,
    x: &[T],
    info: CumSumInfo,
    config: CumSumConfig,
    tmp: u32,
) -> (Vec<T>, Vec<T>) {
    run(product, |ub| {
        let src = ub.from(x);
        let dst = ub.tensor::<T>(x.len() as u32);
        let last = ub.tensor::<T>(info.inner);
        if tmp == 0 {
            cumsum::cum_sum(&dst, &last, &src, Tmp::Stack(ub.pipe), info, config)?;
        } else {
            let t = ub.tensor::<u8>(tmp);
            cumsum::cum_sum(&dst, &last, &src, Tmp::Shared(&t), info, config)?;
        }
        Ok((
            Ub::read(&dst, x.len()),
            Ub::read(&last, info.inner as usize),
        ))
    })
}

#[test]
fn cum_sum_along_either_axis_in_every_transpose_branch() {
    let mut r = Rng(31);
    for product in ["A2", "310P"] {
        for &(rows, w) in &[
            (5u32, 16u32),
            (16, 16),
            (48, 16),
            (16, 64),
            (3, 64),
            (37, 32),
            (32, 48),
        ] {
            for last_axis in [true, false] {
                let n = (rows * w) as usize;
                let x: Vec<f32> = (0..n).map(|_| r.uniform(10.0) as f32).collect();
                let x16 = halves(&x);
                let info = CumSumInfo {
                    outter: rows,
                    inner: w,
                };
                let config = CumSumConfig {
                    is_last_axis: last_axis,
                    is_reuse_source: false,
                    output_last_row: true,
                };
                let (max, min) = cumsum::cum_sum_max_min_tmp_size(rows, w, 4, last_axis);
                for tmp in [min.max(32), max.max(32), 0] {
                    let (got, row) = cum_sum_run(product, &x, info, config, tmp);
                    let want = cum_sum_emu(&x, rows as usize, w as usize, last_axis);
                    let what =
                        format!("CumSum float {product} {rows}x{w} last {last_axis} tmp {tmp}");
                    same_f32(&got, &want, &what, &x);
                    same_f32(&row, &want[n - w as usize..], &what, &x);
                }
                let (max, min) = cumsum::cum_sum_max_min_tmp_size(rows, w, 2, last_axis);
                for tmp in [min, max, 0] {
                    let (got, row) = cum_sum_run(product, &x16, info, config, tmp);
                    let wide: Vec<f32> = x16.iter().map(|v| v.to_f32()).collect();
                    let want: Vec<f16> = cum_sum_emu(&wide, rows as usize, w as usize, last_axis)
                        .iter()
                        .map(|&v| narrow(v, false))
                        .collect();
                    let what =
                        format!("CumSum half {product} {rows}x{w} last {last_axis} tmp {tmp}");
                    same_f16(&got, &want, &what, &x16);
                    same_f16(&row, &want[n - w as usize..], &what, &x16);
                }
            }
        }
    }
}

#[test]
fn cum_sum_checks_its_shape_and_buffer() {
    let e = error("A2", |ub| {
        let (s, d, t) = (
            ub.tensor::<f32>(64),
            ub.tensor::<f32>(64),
            ub.tensor::<u8>(4096),
        );
        let info = CumSumInfo {
            outter: 4,
            inner: 12,
        };
        cumsum::cum_sum(&d, &d, &s, Tmp::Shared(&t), info, CumSumConfig::default())
    });
    assert_eq!((e.api, e.category), ("CumSum", Category::Range));
    let e = error("A2", |ub| {
        let (s, d, t) = (
            ub.tensor::<f16>(256),
            ub.tensor::<f16>(256),
            ub.tensor::<u8>(1024),
        );
        let info = CumSumInfo {
            outter: 16,
            inner: 16,
        };
        cumsum::cum_sum(&d, &d, &s, Tmp::Shared(&t), info, CumSumConfig::default())
    });
    assert_eq!((e.api, e.category), ("CumSum", Category::Size));
    assert_eq!(
        cumsum::cum_sum_max_min_tmp_size(20, 16, 2, true),
        (32 * 16 * 2 + 32 * 16 * 4, 16 * 16 * 2 + 16 * 16 * 4)
    );
    assert_eq!(cumsum::cum_sum_max_min_tmp_size(20, 16, 4, false), (0, 0));
    assert_eq!(
        cumsum::cum_sum_max_min_tmp_size(20, 16, 2, false),
        (1280, 1280)
    );
}

// ---------------------------------------------------------------- checks

#[test]
fn a_too_small_buffer_a_wrong_type_or_count_and_a_product_are_refused() {
    let e = error("A2", |ub| {
        let (s, d, t) = (
            ub.tensor::<f16>(64),
            ub.tensor::<f16>(64),
            ub.tensor::<u8>(64),
        );
        floor::floor(&d, &s, Tmp::Shared(&t), 64)
    });
    assert_eq!((e.api, e.category), ("Floor", Category::Size));
    assert!(e.message.contains("too small"), "{}", e.message);

    let e = error("A2", |ub| {
        let (s, d, t) = (
            ub.tensor::<f32>(64),
            ub.tensor::<f32>(64),
            ub.tensor::<u8>(1024),
        );
        sign::sign(&d, &s, Tmp::Shared(&t), 65)
    });
    assert_eq!((e.api, e.category), ("Sign", Category::Size));
    assert!(e.message.contains("calCount"), "{}", e.message);

    let e = error("310P", |ub| {
        let (s, d, t) = (
            ub.tensor::<i32>(64),
            ub.tensor::<i32>(64),
            ub.tensor::<u8>(1024),
        );
        ceil::ceil(&d, &s, Tmp::Shared(&t), 64)
    });
    assert_eq!((e.api, e.category), ("Ceil", Category::Type));

    let e = error("A2", |ub| {
        let (a, b, d) = (
            ub.tensor::<f32>(64),
            ub.tensor::<f32>(64),
            ub.tensor::<f32>(64),
        );
        xor::xor(&d, &a, &b, Tmp::Stack(ub.pipe), 64)
    });
    assert_eq!((e.api, e.category), ("Xor", Category::Type));

    let e = error("310B", |ub| {
        let (s, d) = (ub.tensor::<f32>(64), ub.tensor::<f32>(64));
        nearest::round(&d, &s, Tmp::Stack(ub.pipe), 64)
    });
    assert_eq!((e.api, e.category), ("Round", Category::Unsupported));

    let e = error("A2", |ub| {
        let (s, d, t) = (
            ub.tensor::<f16>(64),
            ub.tensor::<f16>(64),
            ub.tensor::<u8>(256),
        );
        fmod::fmod(&d, &s, &s, Tmp::Shared(&t), 64)
    });
    assert_eq!((e.api, e.category), ("Fmod", Category::Size));

    let e = error("A2", |ub| {
        let (s, d, t) = (
            ub.tensor::<f32>(64),
            ub.tensor::<f16>(64),
            ub.tensor::<u8>(1024),
        );
        axpy::axpy(&d, &s, 1.0f32, Tmp::Shared(&t), 64)
    });
    assert_eq!((e.api, e.category), ("Axpy", Category::Type));
}

#[test]
fn host_helpers_give_the_vendor_sizes() {
    assert_eq!(floor::floor_max_min_tmp_size(1000, 2), (4000, 512));
    assert_eq!(floor::floor_max_min_tmp_size(1000, 4), (0, 0));
    assert_eq!(ceil::ceil_max_min_tmp_size(10, 4), (256, 256));
    assert_eq!(ceil::ceil_max_min_tmp_size(1000, 2), (4000, 512));
    assert_eq!(ceil::trunc_tmp_buffer_factor_size(4), (1, 0));
    assert_eq!(
        nearest::round_max_min_tmp_size(Product::Ascend910B, 1000, 4),
        (0, 0)
    );
    assert_eq!(
        nearest::round_max_min_tmp_size(Product::Ascend910B, 1000, 2),
        (2000, 256)
    );
    assert_eq!(
        nearest::round_max_min_tmp_size(Product::Ascend310P, 1000, 4),
        (4000, 256)
    );
    assert_eq!(
        nearest::round_max_min_tmp_size(Product::Ascend310P, 1000, 2),
        (4000, 512)
    );
    assert_eq!(frac::frac_max_min_tmp_size(1000, 2), (8000, 1024));
    assert_eq!(sign::sign_max_min_tmp_size(10, 4), (768, 768));
    assert_eq!(sign::sign_max_min_tmp_size(1000, 4), (12000, 768));
    assert_eq!(fmod::fmod_max_min_tmp_size(1000, 2), (16000, 2048));
    assert_eq!(fmod::fmod_max_min_tmp_size(1000, 4), (4000, 256));
    assert_eq!(fmod::fmod_tmp_buffer_factor_size(2), (8, 0));
    assert_eq!(clamp::clamp_max_min_tmp_size(1000, 4), (1000, 64));
    assert_eq!(clamp::clamp_max_min_tmp_size(10, 2), (128, 128));
    assert_eq!(axpy::axpy_max_min_tmp_size(512, 2), (4096, 1024));
    assert_eq!(xor::xor_max_min_tmp_size(1000, 2), (2000, 256));
}

// ---------------------------------------------------------------- accuracy

/// Max |error| against f64 references on 4096 float values in (−1000, 1000) (divisors in
/// (0.1, 50)), printed as the table of docs/high-level/math-round.md and bounded here.
#[test]
fn accuracy_against_f64_references() {
    let n = 4096usize;
    let mut r = Rng(2024);
    let x: Vec<f32> = (0..n).map(|_| r.uniform(1000.0) as f32).collect();
    let y: Vec<f32> = (0..n).map(|_| (r.uniform(24.95) + 25.05) as f32).collect();
    let stat = |got: &[f32], want: &[f64]| {
        got.iter()
            .zip(want)
            .map(|(g, w)| (*g as f64 - w).abs())
            .fold(0.0f64, f64::max)
    };
    for product in ["A2", "310P"] {
        let mut rows = Vec::new();
        for (name, api, f) in [
            (
                "Floor",
                floor::floor as Api<f32>,
                f64::floor as fn(f64) -> f64,
            ),
            ("Ceil", ceil::ceil, f64::ceil),
            ("Trunc", ceil::trunc, f64::trunc),
            ("Round", nearest::round, f64::round_ties_even),
            ("Frac", frac::frac, |v: f64| v - v.trunc()),
        ] {
            let got = unary(product, api, &x, 0, n as u32);
            let want: Vec<f64> = x.iter().map(|&v| f(v as f64)).collect();
            rows.push((name, stat(&got, &want)));
        }
        let got = fmod_run(product, &x, &y, 0, n as u32);
        let want: Vec<f64> = x
            .iter()
            .zip(&y)
            .map(|(&a, &b)| (a as f64) % (b as f64))
            .collect();
        let fm = stat(&got, &want);
        rows.push(("Fmod", fm));
        let rows_n = 64u32;
        let (cs, _) = cum_sum_run(
            product,
            &x,
            CumSumInfo {
                outter: rows_n,
                inner: n as u32 / rows_n,
            },
            CumSumConfig::default(),
            0,
        );
        let w = n / rows_n as usize;
        let mut want = vec![0.0f64; n];
        for i in 0..n {
            want[i] = x[i] as f64 + if i % w > 0 { want[i - 1] } else { 0.0 };
        }
        rows.push(("CumSum", stat(&cs, &want)));
        for (name, abs) in &rows {
            println!("{product} {name:6} float max abs error {abs:.3e}");
        }
        for (name, abs) in &rows[..5] {
            assert_eq!(*abs, 0.0, "{product} {name} is exact on |x| < 1000");
        }
        assert!(fm < 1e-4, "{product} Fmod {fm}");
        assert!(rows[6].1 < 1e-2, "{product} CumSum {}", rows[6].1);
    }
}
