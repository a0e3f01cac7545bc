//! The level-0 instructions Digamma and Lgamma issue under the counter mask (one repeat,
//! contiguous blocks, a `PipeBarrier<PIPE_V>` after each), their bit-mask steps, and the float
//! Sin, Cos and Tan bodies they call on slices of their own temporary buffer.

use crate::adv::common::{barrier_v, ONE_REPEAT_BYTES};
use crate::api::vec::binary::{add_l0, and_l0, div_l0, mul_l0, sub_l0};
use crate::api::vec::cast::cast_l0;
use crate::api::vec::cmp_mask::{select_cmp_mask_scalar, set_cmp_mask};
use crate::api::vec::compare::compare_l0;
use crate::api::vec::duplicate::duplicate_l0;
use crate::api::vec::mask::set_vector_mask;
use crate::api::vec::scalar::{adds_l0, maxs_l0, mins_l0, muls_l0};
use crate::api::vec::unary::{abs_l0, ln_l0, not_l0, reciprocal_l0};
use crate::chip::Product;
use crate::error::Result;
use crate::numeric::RoundMode;
use crate::{
    f16, BinaryRepeatParams, LocalTensor, MaskMode, UnaryRepeatParams, CMPMODE, MASK_PLACEHOLDER,
};

pub(super) type L = LocalTensor<f32>;
pub(super) type M = LocalTensor<u8>;

/// One repeat of contiguous blocks (`{1, 1, 8, 8}`).
const SAME: UnaryRepeatParams = UnaryRepeatParams::new(1, 1, 8, 8);
/// Binary instructions on contiguous blocks (`{1, 1, 1, 8, 8, 8}`).
const BIN: BinaryRepeatParams = BinaryRepeatParams::new(1, 1, 1, 8, 8, 8);

/// float NaN (`0x7FC00000`).
pub(super) const NAN: f32 = f32::from_bits(0x7FC0_0000);

pub(super) fn muls(d: &L, s: &L, x: f32) -> Result<()> {
    muls_l0(d, s, x, MASK_PLACEHOLDER, 1, SAME)?;
    barrier_v()
}
pub(super) fn adds(d: &L, s: &L, x: f32) -> Result<()> {
    adds_l0(d, s, x, MASK_PLACEHOLDER, 1, SAME)?;
    barrier_v()
}
pub(super) fn add(d: &L, a: &L, b: &L) -> Result<()> {
    add_l0(d, a, b, MASK_PLACEHOLDER, 1, BIN)?;
    barrier_v()
}
pub(super) fn sub(d: &L, a: &L, b: &L) -> Result<()> {
    sub_l0(d, a, b, MASK_PLACEHOLDER, 1, BIN)?;
    barrier_v()
}
pub(super) fn mul(d: &L, a: &L, b: &L) -> Result<()> {
    mul_l0(d, a, b, MASK_PLACEHOLDER, 1, BIN)?;
    barrier_v()
}
pub(super) fn div(d: &L, a: &L, b: &L) -> Result<()> {
    div_l0(d, a, b, MASK_PLACEHOLDER, 1, BIN)?;
    barrier_v()
}
pub(super) fn ln(d: &L, s: &L) -> Result<()> {
    ln_l0(d, s, MASK_PLACEHOLDER, 1, SAME)?;
    barrier_v()
}
pub(super) fn abs(d: &L, s: &L) -> Result<()> {
    abs_l0(d, s, MASK_PLACEHOLDER, 1, SAME)?;
    barrier_v()
}
pub(super) fn reciprocal(d: &L, s: &L) -> Result<()> {
    reciprocal_l0(d, s, MASK_PLACEHOLDER, 1, SAME)?;
    barrier_v()
}
/// `Duplicate`: every counted element of `d` becomes `x`.
pub(super) fn dup(d: &L, x: f32) -> Result<()> {
    duplicate_l0(d, x, MASK_PLACEHOLDER, 1, 1, 8)?;
    barrier_v()
}

/// `Cast` half → float (`{1, 1, 8, 4}`).
pub(super) fn widen(d: &L, s: &LocalTensor<f16>) -> Result<()> {
    let p = UnaryRepeatParams::new(1, 1, 8, 4);
    cast_l0(d, s, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, p)?;
    barrier_v()
}

/// `Cast` float → half, `CAST_NONE` (`{1, 1, 4, 8}`).
pub(super) fn narrow(d: &LocalTensor<f16>, s: &L) -> Result<()> {
    let p = UnaryRepeatParams::new(1, 1, 4, 8);
    cast_l0(d, s, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, p)?;
    barrier_v()
}

/// Rounds `s` to an integral float in `d` with `mode`: one `Cast` float → float on A2/A3, a
/// round trip through int32 in `d`'s bytes on 310P (NaN → 0, saturating at the int32 range).
pub(super) fn round_float(p: Product, d: &L, s: &L, mode: RoundMode) -> Result<()> {
    if p == Product::Ascend310P {
        let int = d.reinterpret_cast::<i32>();
        cast_l0(&int, s, mode, MASK_PLACEHOLDER, 1, SAME)?;
        barrier_v()?;
        cast_l0(d, &int, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, SAME)?;
    } else {
        cast_l0(d, s, mode, MASK_PLACEHOLDER, 1, SAME)?;
    }
    barrier_v()
}

/// `t` viewed over at least `n` elements (the instruction reads whole repeats past a chunk).
fn at_least(t: &L, n: u32) -> Result<L> {
    let mut v = *t;
    if v.get_size() < n {
        v.set_size(n)?;
    }
    Ok(v)
}

/// `Compare<float, uint8_t, false>(mask, a, b, mode, MASK_PLACEHOLDER, ⌈split·4/256⌉, …)`:
/// under the counter mask the mask is reserved, so whole repeats of 64 elements are compared.
pub(super) fn compare(mask: &M, a: &L, b: &L, mode: CMPMODE, split: u32) -> Result<()> {
    let repeat = (split * 4).div_ceil(ONE_REPEAT_BYTES) as u8;
    let n = repeat as u32 * 64;
    let (a, b) = (at_least(a, n)?, at_least(b, n)?);
    compare_l0(mask, &a, &b, mode, MASK_PLACEHOLDER, repeat, BIN)?;
    barrier_v()
}

/// Runs `f` with the counter set to `n` elements, then restores it to `split`
/// (`SetVectorMask<float>(0, n)` … `SetVectorMask<float>(0, split)`).
fn with_counter(n: u32, split: u32, f: impl FnOnce() -> Result<()>) -> Result<()> {
    set_vector_mask::<f32>(MaskMode::COUNTER, n as u64)?;
    f()?;
    barrier_v()?;
    set_vector_mask::<f32>(MaskMode::COUNTER, split as u64)
}

/// The uint16 words holding `split` mask bits.
fn words(split: u32) -> u32 {
    split.div_ceil(16)
}

/// `And<uint16_t>` of the first `split` bits of two masks into `d`.
pub(super) fn and_bits(d: &M, a: &M, b: &M, split: u32) -> Result<()> {
    let (d, a, b) = (
        d.reinterpret_cast::<u16>(),
        a.reinterpret_cast::<u16>(),
        b.reinterpret_cast::<u16>(),
    );
    with_counter(words(split), split, || {
        and_l0(&d, &a, &b, MASK_PLACEHOLDER, 1, BIN)
    })
}

/// `Not<uint16_t>` of the first `split` bits of `s` into `d`.
pub(super) fn not_bits(d: &M, s: &M, split: u32) -> Result<()> {
    let (d, s) = (d.reinterpret_cast::<u16>(), s.reinterpret_cast::<u16>());
    with_counter(words(split), split, || {
        not_l0(&d, &s, MASK_PLACEHOLDER, 1, SAME)
    })
}

/// `And<uint16_t>` over `n` uint16 words of two tensors' bytes (the counter restored to
/// `split` after).
pub(super) fn and_words(d: &L, a: &L, b: &L, n: u32, split: u32) -> Result<()> {
    let (d, a, b) = (
        d.reinterpret_cast::<u16>(),
        a.reinterpret_cast::<u16>(),
        b.reinterpret_cast::<u16>(),
    );
    with_counter(n, split, || and_l0(&d, &a, &b, MASK_PLACEHOLDER, 1, BIN))
}

/// `SetCmpMask(scalar)`, then `Select(out, mask, src, 1, …)` against the scalar in CMPMASK
/// (`src` where the bit is set, else the scalar).
pub(super) fn select(out: &L, mask: &M, src: &L, scalar: &L) -> Result<()> {
    set_cmp_mask(scalar)?;
    barrier_v()?;
    select_cmp_mask_scalar(out, mask, src, 1, BIN)?;
    barrier_v()
}

/// 1/π.
const INV_PI: f32 = 0.3183098733425140380859375_f64 as f32;
/// π in parts (the first four shared by Sin, Cos and Tan).
const PI_PARTS: [f32; 4] = [
    3.140625,
    0.0009670257568359375_f64 as f32,
    6.2771141529083251953125e-7_f64 as f32,
    1.21644916362129151821136474609375e-10_f64 as f32,
];
/// π/2 rounded to float.
const HALF_PI_HIGH: f32 = 1.57079637050628662109375_f64 as f32;
/// π/2's remainder below [`HALF_PI_HIGH`].
const HALF_PI_LOW: f32 = 0.00000004371139000189375_f64 as f32;
/// sin(r)/r ≈ Σ c[k]·r^(2k), highest degree first.
const SIN_POLY: [f32; 4] = [
    2.604926501e-6_f64 as f32,
    -0.0001980894471_f64 as f32,
    0.008333049340_f64 as f32,
    -0.1666665792_f64 as f32,
];

/// The float body of `Sin` (`cos` false) or `Cos` on `split`-element slots of `tmp`: k in
/// `tmp[0]`, k·π parts in `tmp[split]`, the reduced argument in `src` itself (`reuse`) or
/// `tmp[2·split]`.
pub(super) fn sin_cos(
    p: Product,
    cos: bool,
    dst: &L,
    src: &L,
    tmp: &L,
    split: u32,
    reuse: bool,
) -> Result<()> {
    let (round, kpi) = (tmp.at(0)?, tmp.at(split)?);
    let x = if reuse { *src } else { tmp.at(2 * split)? };
    muls(&round, src, INV_PI)?;
    if cos {
        adds(&round, &round, 0.5)?;
        round_float(p, &round, &round, RoundMode::CAST_RINT)?;
    } else {
        round_float(p, &round, &round, RoundMode::CAST_ROUND)?;
    }
    for (i, &part) in PI_PARTS.iter().enumerate() {
        muls(&kpi, &round, part)?;
        sub(&x, if i == 0 { src } else { &x }, &kpi)?;
        if cos && i == 1 {
            adds(&x, &x, HALF_PI_HIGH)?;
        }
    }
    if cos {
        muls(
            &kpi,
            &round,
            -1.0290623200529979163359041220560e-13_f64 as f32,
        )?;
        sub(&x, &x, &kpi)?;
        adds(&x, &x, -HALF_PI_LOW)?;
    }
    // The sign 4⌊k/2⌋ − 2k + 1 into dst, x² into kpi, x·P(x²) into round.
    mul(&kpi, &x, &x)?;
    muls(dst, &round, 0.5)?;
    round_float(p, dst, dst, RoundMode::CAST_FLOOR)?;
    muls(dst, dst, 4.0)?;
    muls(&round, &round, -2.0)?;
    add(dst, dst, &round)?;
    adds(dst, dst, 1.0)?;
    muls(&round, &kpi, SIN_POLY[0])?;
    for &c in &SIN_POLY[1..] {
        adds(&round, &round, c)?;
        mul(&round, &round, &kpi)?;
    }
    adds(&round, &round, 1.0)?;
    mul(&round, &round, &x)?;
    mul(dst, &round, dst)?;
    if cos {
        mins_l0(dst, dst, 1.0, MASK_PLACEHOLDER, 1, SAME)?;
        barrier_v()?;
        maxs_l0(dst, dst, -1.0, MASK_PLACEHOLDER, 1, SAME)?;
        barrier_v()?;
    }
    Ok(())
}

/// The float body of `Tan` on `split`-element slots of `tmp` (k, x + π/2, x − π/2, x), `dst`
/// doubling as the k·π scratch.
pub(super) fn tan(p: Product, dst: &L, src: &L, tmp: &L, split: u32) -> Result<()> {
    let [round, lo, hi, x] = [0, 1, 2, 3].map(|i| tmp.at(i * split));
    let (round, lo, hi, x) = (round?, lo?, hi?, x?);
    adds(&x, src, 0.0)?;
    muls(&round, &x, INV_PI)?;
    round_float(p, &round, &round, RoundMode::CAST_RINT)?;
    let fifth = -1.0291767438275201129727065563201904296875e-13_f64 as f32;
    for (i, &part) in PI_PARTS.iter().chain([fifth].iter()).enumerate() {
        muls(dst, &round, part)?;
        sub(&x, &x, dst)?;
        if i == 1 {
            adds(&lo, &x, HALF_PI_HIGH)?;
            adds(&hi, &x, -HALF_PI_HIGH)?;
        }
        if i >= 2 {
            sub(&lo, &lo, dst)?;
            sub(&hi, &hi, dst)?;
        }
        if i == 2 {
            adds(&lo, &lo, -HALF_PI_LOW)?;
            adds(&hi, &hi, HALF_PI_LOW)?;
        }
    }
    // x·((x²·R0 + R1)·x² + R2) / ((x² + R3)·lo·hi)
    mul(&round, &x, &x)?;
    muls(dst, &round, 0.0698520831551998762793_f64 as f32)?;
    adds(dst, dst, -6.8711573651634203789_f64 as f32)?;
    mul(dst, dst, &round)?;
    adds(dst, dst, 61.20362572811089435388_f64 as f32)?;
    mul(dst, dst, &x)?;
    adds(&round, &round, -24.8048928861126769186219_f64 as f32)?;
    mul(&round, &round, &lo)?;
    mul(&round, &round, &hi)?;
    div(dst, dst, &round)
}
