//! Element arithmetic with the hardware's numerics: one rounding per result (round to nearest
//! even), fp16 saturation (±65504, NaN → 0) unless the core runs in IEEE Inf/NaN mode, integer
//! wrap-around.

use crate::dtype::{bf16, f16, Element};

/// Largest finite half.
pub const HALF_MAX: f16 = f16::MAX;

/// Applies fp16 saturation: ±Inf → ±65504, NaN → 0.
#[inline]
pub fn saturate_f16(x: f16) -> f16 {
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

/// Rounds an `f32` to half (nearest even), saturating when `sat`.
///
/// An f32 computed from half operands by one correctly rounded `+ − × ÷ √` carries enough
/// precision (24 ≥ 2·11 + 2 bits) that rounding it again to half gives the correctly rounded
/// half result.
#[inline]
pub fn round_f16(x: f32, sat: bool) -> f16 {
    let h = f16::from_f32(x);
    if sat {
        saturate_f16(h)
    } else {
        h
    }
}

/// Element types the vector unit computes on, with the hardware's rounding and overflow rules.
/// `sat` selects fp16 saturation; it affects only half.
pub trait Arith: Element + Copy + PartialOrd {
    /// Applies the fp16 overflow mode to a result (half only: ±Inf → ±65504, NaN → 0 when `sat`).
    #[inline(always)]
    fn finish(self, _sat: bool) -> Self {
        self
    }
    /// `a + b`.
    fn add(a: Self, b: Self, sat: bool) -> Self;
    /// `a − b`.
    fn sub(a: Self, b: Self, sat: bool) -> Self;
    /// `a × b`.
    fn mul(a: Self, b: Self, sat: bool) -> Self;
    /// The larger of `a` and `b` (NaN if either is NaN; `max(+0, −0) = +0`).
    fn max(a: Self, b: Self) -> Self;
    /// The smaller of `a` and `b` (NaN if either is NaN; `min(+0, −0) = −0`).
    fn min(a: Self, b: Self) -> Self;
    /// `|a|` (integers wrap: `|MIN| = MIN`).
    fn abs(a: Self) -> Self;
    /// `a ≥ 0` (false for NaN).
    fn non_negative(a: Self) -> bool;
}

macro_rules! int_arith {
    ($($t:ty),*) => {$(
        impl Arith for $t {
            #[inline(always)]
            fn add(a: Self, b: Self, _sat: bool) -> Self {
                a.wrapping_add(b)
            }
            #[inline(always)]
            fn sub(a: Self, b: Self, _sat: bool) -> Self {
                a.wrapping_sub(b)
            }
            #[inline(always)]
            fn mul(a: Self, b: Self, _sat: bool) -> Self {
                a.wrapping_mul(b)
            }
            #[inline(always)]
            fn max(a: Self, b: Self) -> Self {
                Ord::max(a, b)
            }
            #[inline(always)]
            fn min(a: Self, b: Self) -> Self {
                Ord::min(a, b)
            }
            #[inline(always)]
            #[allow(unused_comparisons)]
            fn abs(a: Self) -> Self {
                if a < 0 { (0 as $t).wrapping_sub(a) } else { a }
            }
            #[inline(always)]
            #[allow(unused_comparisons)]
            fn non_negative(a: Self) -> bool {
                a >= 0
            }
        }
    )*};
}
int_arith!(i8, u8, i16, u16, i32, u32, i64, u64);

macro_rules! native_float_arith {
    ($($t:ty),*) => {$(
        impl Arith for $t {
            #[inline(always)]
            fn add(a: Self, b: Self, _sat: bool) -> Self {
                a + b
            }
            #[inline(always)]
            fn sub(a: Self, b: Self, _sat: bool) -> Self {
                a - b
            }
            #[inline(always)]
            fn mul(a: Self, b: Self, _sat: bool) -> Self {
                a * b
            }
            #[inline(always)]
            fn max(a: Self, b: Self) -> Self {
                nan_max(a, b)
            }
            #[inline(always)]
            fn min(a: Self, b: Self) -> Self {
                nan_min(a, b)
            }
            #[inline(always)]
            fn abs(a: Self) -> Self {
                a.abs()
            }
            #[inline(always)]
            fn non_negative(a: Self) -> bool {
                a >= 0.0
            }
        }
    )*};
}
native_float_arith!(f32, f64);

impl Arith for f16 {
    #[inline(always)]
    fn finish(self, sat: bool) -> Self {
        if sat {
            saturate_f16(self)
        } else {
            self
        }
    }
    #[inline(always)]
    fn add(a: Self, b: Self, sat: bool) -> Self {
        round_f16(a.to_f32() + b.to_f32(), sat)
    }
    #[inline(always)]
    fn sub(a: Self, b: Self, sat: bool) -> Self {
        round_f16(a.to_f32() - b.to_f32(), sat)
    }
    #[inline(always)]
    fn mul(a: Self, b: Self, sat: bool) -> Self {
        round_f16(a.to_f32() * b.to_f32(), sat)
    }
    #[inline(always)]
    fn max(a: Self, b: Self) -> Self {
        nan_max(a, b)
    }
    #[inline(always)]
    fn min(a: Self, b: Self) -> Self {
        nan_min(a, b)
    }
    #[inline(always)]
    fn abs(a: Self) -> Self {
        f16::from_bits(a.to_bits() & 0x7FFF)
    }
    #[inline(always)]
    fn non_negative(a: Self) -> bool {
        a.to_f32() >= 0.0
    }
}

impl Arith for bf16 {
    #[inline(always)]
    fn finish(self, sat: bool) -> Self {
        if sat && self.is_nan() {
            bf16::ZERO
        } else if sat && self.is_infinite() {
            if self.is_sign_negative() {
                bf16::MIN
            } else {
                bf16::MAX
            }
        } else {
            self
        }
    }
    #[inline(always)]
    fn add(a: Self, b: Self, sat: bool) -> Self {
        bf16::from_f32(a.to_f32() + b.to_f32()).finish(sat)
    }
    #[inline(always)]
    fn sub(a: Self, b: Self, sat: bool) -> Self {
        bf16::from_f32(a.to_f32() - b.to_f32()).finish(sat)
    }
    #[inline(always)]
    fn mul(a: Self, b: Self, sat: bool) -> Self {
        bf16::from_f32(a.to_f32() * b.to_f32()).finish(sat)
    }
    #[inline(always)]
    fn max(a: Self, b: Self) -> Self {
        nan_max(a, b)
    }
    #[inline(always)]
    fn min(a: Self, b: Self) -> Self {
        nan_min(a, b)
    }
    #[inline(always)]
    fn abs(a: Self) -> Self {
        bf16::from_bits(a.to_bits() & 0x7FFF)
    }
    #[inline(always)]
    fn non_negative(a: Self) -> bool {
        a.to_f32() >= 0.0
    }
}

/// Floating-point element types (half, float): division and the transcendental functions.
///
/// Division and square root are correctly rounded (one RNE rounding of the exact result). `exp`,
/// `ln`, `rsqrt` and `reciprocal` are computed in binary64 and rounded once to the element type;
/// the hardware's approximations are not public, so the last bit may differ from a device.
pub trait FloatArith: Arith {
    /// The value rounded once (nearest even) from `f64`, then the overflow mode applied.
    fn round_from(v: f64, sat: bool) -> Self;
    /// `a ÷ b`.
    #[inline(always)]
    fn div(a: Self, b: Self, sat: bool) -> Self {
        Self::round_from(a.to_f64() / b.to_f64(), sat)
    }
    /// `e^a`.
    #[inline(always)]
    fn exp(a: Self, sat: bool) -> Self {
        Self::round_from(a.to_f64().exp(), sat)
    }
    /// `ln a`.
    #[inline(always)]
    fn ln(a: Self, sat: bool) -> Self {
        Self::round_from(a.to_f64().ln(), sat)
    }
    /// `√a`.
    #[inline(always)]
    fn sqrt(a: Self, sat: bool) -> Self {
        Self::round_from(a.to_f64().sqrt(), sat)
    }
    /// `1 / √a`.
    #[inline(always)]
    fn rsqrt(a: Self, sat: bool) -> Self {
        Self::round_from(1.0 / a.to_f64().sqrt(), sat)
    }
    /// `1 / a`.
    #[inline(always)]
    fn reciprocal(a: Self, sat: bool) -> Self {
        Self::round_from(1.0 / a.to_f64(), sat)
    }
}

impl FloatArith for f16 {
    #[inline(always)]
    fn round_from(v: f64, sat: bool) -> Self {
        f16::from_f64(v).finish(sat)
    }
}

impl FloatArith for f32 {
    #[inline(always)]
    fn round_from(v: f64, _sat: bool) -> Self {
        v as f32
    }
    #[inline(always)]
    fn div(a: Self, b: Self, _sat: bool) -> Self {
        a / b
    }
}

/// Integer element types of the bitwise and shift instructions (int16, uint16, int32, uint32).
pub trait BitArith: Element + Copy {
    /// Signed type.
    const SIGNED: bool;
    /// Width in bits.
    const BITS: u32;
    /// `a & b`.
    fn and(a: Self, b: Self) -> Self;
    /// `a | b`.
    fn or(a: Self, b: Self) -> Self;
    /// `!a`.
    fn not(a: Self) -> Self;
    /// The shift amount as an unsigned number (negative values map to large ones).
    fn amount(s: Self) -> u32;
    /// Left shift by `s` bits (`s ≤ BITS`): logical for unsigned types; signed types keep the
    /// sign bit and shift the other bits (`(x & SIGN) | ((x << s) & !SIGN)`).
    fn shl(a: Self, s: u32) -> Self;
    /// Right shift by `s` bits (`s ≤ BITS`): logical for unsigned, arithmetic for signed types;
    /// `round` adds bit `s − 1` of the source (signed types only).
    fn shr(a: Self, s: u32, round: bool) -> Self;
}

macro_rules! bit_arith {
    ($($t:ty, $u:ty, $signed:expr);*) => {$(
        impl BitArith for $t {
            const SIGNED: bool = $signed;
            const BITS: u32 = <$t>::BITS;
            #[inline(always)]
            fn and(a: Self, b: Self) -> Self {
                a & b
            }
            #[inline(always)]
            fn or(a: Self, b: Self) -> Self {
                a | b
            }
            #[inline(always)]
            fn not(a: Self) -> Self {
                !a
            }
            #[inline(always)]
            fn amount(s: Self) -> u32 {
                (s as $u) as u32
            }
            #[inline(always)]
            fn shl(a: Self, s: u32) -> Self {
                let shifted = (a as $u).checked_shl(s).unwrap_or(0);
                if $signed {
                    let sign: $u = 1 << (<$t>::BITS - 1);
                    (((a as $u) & sign) | (shifted & !sign)) as $t
                } else {
                    shifted as $t
                }
            }
            #[inline(always)]
            fn shr(a: Self, s: u32, round: bool) -> Self {
                let w = <$t>::BITS;
                let v = if s >= w {
                    // Full-width shift: logical → 0, arithmetic → the sign fill.
                    if $signed { a.checked_shr(w - 1).unwrap_or(0) } else { 0 }
                } else {
                    a >> s
                };
                if round && s > 0 && s <= w {
                    let bit = ((a as $u) >> (s - 1)) & 1;
                    v.wrapping_add(bit as $t)
                } else {
                    v
                }
            }
        }
    )*};
}
bit_arith!(i16, u16, true; u16, u16, false; i32, u32, true; u32, u32, false);

/// NaN-propagating maximum (IEEE ordering otherwise; of two zeros, +0 wins).
#[inline(always)]
fn nan_max<T: PartialOrd + Copy + Element>(a: T, b: T) -> T {
    #[allow(clippy::eq_op)]
    if a != a {
        a
    } else if b != b || b > a || (b == a && a.to_f64().is_sign_negative()) {
        b
    } else {
        a
    }
}

/// NaN-propagating minimum (IEEE ordering otherwise; of two zeros, −0 wins).
#[inline(always)]
fn nan_min<T: PartialOrd + Copy + Element>(a: T, b: T) -> T {
    #[allow(clippy::eq_op)]
    if a != a {
        a
    } else if b != b || b < a || (b == a && b.to_f64().is_sign_negative()) {
        b
    } else {
        a
    }
}

/// Rounding mode of `Cast` (`RoundMode`, in enum order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(non_camel_case_types)]
pub enum RoundMode {
    /// Exact when representable, otherwise as `CAST_RINT`.
    CAST_NONE = 0,
    /// To nearest, ties to even.
    CAST_RINT,
    /// Toward −∞.
    CAST_FLOOR,
    /// Toward +∞.
    CAST_CEIL,
    /// To nearest, ties away from zero.
    CAST_ROUND,
    /// Toward zero.
    CAST_TRUNC,
    /// Round to odd: an inexact result gets an odd last bit.
    CAST_ODD,
}

impl RoundMode {
    /// Every mode, in enum order.
    pub const ALL: [RoundMode; 7] = [
        RoundMode::CAST_NONE,
        RoundMode::CAST_RINT,
        RoundMode::CAST_FLOOR,
        RoundMode::CAST_CEIL,
        RoundMode::CAST_ROUND,
        RoundMode::CAST_TRUNC,
        RoundMode::CAST_ODD,
    ];

    /// Rounds the non-negative magnitude `y` to an integer (`neg` = sign of the value).
    #[inline]
    fn round_magnitude(self, y: f64, neg: bool) -> f64 {
        let fl = y.floor();
        let frac = y - fl;
        let up = match self {
            RoundMode::CAST_NONE | RoundMode::CAST_RINT => {
                frac > 0.5 || (frac == 0.5 && fl % 2.0 != 0.0)
            }
            RoundMode::CAST_FLOOR => neg && frac > 0.0,
            RoundMode::CAST_CEIL => !neg && frac > 0.0,
            RoundMode::CAST_ROUND => frac >= 0.5,
            RoundMode::CAST_TRUNC => false,
            RoundMode::CAST_ODD => frac > 0.0 && fl % 2.0 == 0.0,
        };
        if up {
            fl + 1.0
        } else {
            fl
        }
    }

    /// True when a result too large for the format becomes ±Inf (otherwise ±MAX).
    fn overflows_to_inf(self, neg: bool) -> bool {
        match self {
            RoundMode::CAST_NONE | RoundMode::CAST_RINT | RoundMode::CAST_ROUND => true,
            RoundMode::CAST_FLOOR => neg,
            RoundMode::CAST_CEIL => !neg,
            RoundMode::CAST_TRUNC | RoundMode::CAST_ODD => false,
        }
    }
}

impl std::fmt::Display for RoundMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}

/// `2^e` as an `f64` (`e` in the normal range).
#[inline]
fn pow2(e: i32) -> f64 {
    f64::from_bits(((1023 + e) as u64) << 52)
}

/// Rounds `x` to an integral value with `mode` (exact: no intermediate rounding). The sign is
/// kept, as IEEE 754 rounding to integral does: −0 stays −0, −0.3 rounded up is −0.
pub fn round_integral(x: f64, mode: RoundMode) -> f64 {
    if !x.is_finite() {
        return x;
    }
    let r = mode.round_magnitude(x.abs(), x < 0.0);
    if x.is_sign_negative() {
        -r
    } else {
        r
    }
}

/// A binary floating-point format narrower than `f64`.
#[derive(Debug, Clone, Copy)]
pub struct FloatFormat {
    /// Stored fraction bits (10 for half, 7 for bfloat16, 23 for float).
    pub fraction: i32,
    /// Exponent of the smallest normal number.
    pub emin: i32,
    /// Largest finite value.
    pub max: f64,
}

/// half.
pub const HALF: FloatFormat = FloatFormat {
    fraction: 10,
    emin: -14,
    max: 65504.0,
};
/// bfloat16.
pub const BFLOAT16: FloatFormat = FloatFormat {
    fraction: 7,
    emin: -126,
    max: 3.3895313892515355e38,
};
/// float.
pub const FLOAT: FloatFormat = FloatFormat {
    fraction: 23,
    emin: -126,
    max: f32::MAX as f64,
};

/// Rounds `x` once to `fmt` with `mode` (subnormals kept); an overflow gives ±Inf or ±MAX as
/// the mode directs. The result is exactly representable in `fmt`.
pub fn round_to_format(x: f64, fmt: FloatFormat, mode: RoundMode) -> f64 {
    if !x.is_finite() || x == 0.0 {
        return x;
    }
    let neg = x < 0.0;
    let a = x.abs();
    let e = ((a.to_bits() >> 52) & 0x7FF) as i32 - 1023;
    let q = e.max(fmt.emin) - fmt.fraction;
    let r = mode.round_magnitude(a * pow2(-q), neg) * pow2(q);
    let r = if r > fmt.max {
        if mode.overflows_to_inf(neg) {
            f64::INFINITY
        } else {
            fmt.max
        }
    } else {
        r
    };
    if neg {
        -r
    } else {
        r
    }
}

/// `v` rounded once to nearest-even half (`f16::from_f64` goes through `f32` and can round
/// twice: -12.722656408656363 gives 0xca5c instead of 0xca5d).
pub fn f16_from_f64(v: f64) -> f16 {
    f16::from_f64(round_to_format(v, HALF, RoundMode::CAST_RINT))
}

/// `v` rounded once to nearest-even bfloat16 (see [`f16_from_f64`]).
pub fn bf16_from_f64(v: f64) -> bf16 {
    bf16::from_f64(round_to_format(v, BFLOAT16, RoundMode::CAST_RINT))
}

/// An element's exact value, as the input of a conversion.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Exact {
    /// An integer.
    Int(i64),
    /// A floating-point value (exact in `f64`).
    Float(f64),
}

impl Exact {
    /// As `f64`; 64-bit integers beyond 2^53 are rounded to odd, so that a second rounding to a
    /// format of at most 51 bits is still correct in every mode.
    fn to_f64_odd(self) -> f64 {
        match self {
            Exact::Float(f) => f,
            Exact::Int(i) => {
                let m = i.unsigned_abs();
                let bits = 64 - m.leading_zeros();
                let v = if bits <= 53 {
                    m as f64
                } else {
                    let s = bits - 53;
                    let mut t = m >> s;
                    if m & ((1u64 << s) - 1) != 0 {
                        t |= 1;
                    }
                    t as f64 * pow2(s as i32)
                };
                if i < 0 {
                    -v
                } else {
                    v
                }
            }
        }
    }
}

/// Element types `Cast` converts between, with the conversion rules of `numerics.md` §6:
/// one rounding with the requested mode, integer targets saturate at their range (NaN → 0),
/// half/bfloat16 targets follow the fp16 overflow mode.
pub trait CastElem: Element + Copy {
    /// The exact value.
    fn exact(self) -> Exact;
    /// Converts an exact value; the flag reports a negative value cast to an unsigned type
    /// (an "exception" on the hardware; the result is 0).
    fn convert(v: Exact, mode: RoundMode, sat: bool) -> (Self, bool);
}

macro_rules! int_cast {
    ($($t:ty),*) => {$(
        impl CastElem for $t {
            #[inline]
            fn exact(self) -> Exact {
                Exact::Int(self as i64)
            }
            #[inline]
            #[allow(unused_comparisons)]
            fn convert(v: Exact, mode: RoundMode, _sat: bool) -> (Self, bool) {
                let unsigned = <$t>::MIN == 0;
                match v {
                    Exact::Int(i) => {
                        let c = i.clamp(<$t>::MIN as i64, <$t>::MAX as i64) as $t;
                        (c, unsigned && i < 0)
                    }
                    Exact::Float(f) => {
                        if f.is_nan() {
                            return (0, false);
                        }
                        let r = round_integral(f, mode);
                        // `as` saturates at the target range.
                        (r as $t, unsigned && r < 0.0)
                    }
                }
            }
        }
    )*};
}
int_cast!(i8, u8, i16, u16, i32, u32, i64);

impl CastElem for f16 {
    #[inline]
    fn exact(self) -> Exact {
        Exact::Float(self.to_f64())
    }
    #[inline]
    fn convert(v: Exact, mode: RoundMode, sat: bool) -> (Self, bool) {
        let x = v.to_f64_odd();
        (
            f16::from_f64(round_to_format(x, HALF, mode)).finish(sat),
            false,
        )
    }
}

impl CastElem for bf16 {
    #[inline]
    fn exact(self) -> Exact {
        Exact::Float(self.to_f64())
    }
    #[inline]
    fn convert(v: Exact, mode: RoundMode, sat: bool) -> (Self, bool) {
        let x = v.to_f64_odd();
        (
            bf16::from_f64(round_to_format(x, BFLOAT16, mode)).finish(sat),
            false,
        )
    }
}

impl CastElem for f32 {
    #[inline]
    fn exact(self) -> Exact {
        Exact::Float(self as f64)
    }
    #[inline]
    fn convert(v: Exact, mode: RoundMode, _sat: bool) -> (Self, bool) {
        (round_to_format(v.to_f64_odd(), FLOAT, mode) as f32, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(bits: u16) -> f16 {
        f16::from_bits(bits)
    }

    #[test]
    fn double_to_16_bit_floats_round_once() {
        // Just above the half tie 12.72265625 (between 0xca5c and 0xca5d): a trip through f32
        // lands on the tie and rounds to even; one rounding goes up.
        assert_eq!(f16_from_f64(-12.722_656_408_656_363).to_bits(), 0xca5d);
        assert_eq!(bf16_from_f64(5.893_529_181_719_175e-9).to_bits(), 0x31cb);
        // Exact ties still go to even, overflow to infinity, NaN stays NaN.
        assert_eq!(f16_from_f64(2049.0).to_bits(), 0x6800);
        assert_eq!(f16_from_f64(65520.0).to_bits(), 0x7c00);
        assert_eq!(f16_from_f64(65519.0).to_bits(), 0x7bff);
        assert!(f16_from_f64(f64::NAN).is_nan() && bf16_from_f64(f64::NAN).is_nan());
        assert_eq!(f16_from_f64(-0.0).to_bits(), 0x8000);
        // Subnormals: half's smallest is 2^-24; half of it ties to zero, a bit more rounds up.
        assert_eq!(f16_from_f64(2f64.powi(-25)).to_bits(), 0);
        assert_eq!(f16_from_f64(2f64.powi(-25) * 1.0000001).to_bits(), 1);
    }

    #[test]
    fn half_add_saturates_by_default() {
        let big = f16::from_f32(60000.0);
        assert_eq!(f16::add(big, big, true), f16::MAX);
        assert!(f16::add(big, big, false).is_infinite());
        assert_eq!(f16::add(h(0x7E00), f16::ONE, true), f16::ZERO);
        assert_eq!(f16::add(f16::MIN, f16::MIN, true), f16::MIN);
    }

    #[test]
    fn half_add_rounds_to_nearest_even() {
        // 2048 + 1 is a tie between 2048 and 2050: even mantissa wins.
        assert_eq!(
            f16::add(f16::from_f32(2048.0), f16::ONE, true).to_f32(),
            2048.0
        );
        assert_eq!(
            f16::add(f16::from_f32(2050.0), f16::ONE, true).to_f32(),
            2052.0
        );
    }

    #[test]
    fn half_add_matches_exact_rounding_exhaustively_on_a_grid() {
        // The f32 path must equal rounding the exact (f64) sum once.
        for a in (0..=0xFFFFu16).step_by(97) {
            for b in (0..=0xFFFFu16).step_by(89) {
                let (x, y) = (h(a), h(b));
                if x.is_nan() || y.is_nan() {
                    continue;
                }
                let exact = f16::from_f64(x.to_f64() + y.to_f64());
                assert_eq!(
                    f16::add(x, y, false).to_bits(),
                    exact.to_bits(),
                    "{a:#x} + {b:#x}"
                );
            }
        }
    }

    #[test]
    fn max_min_propagate_nan() {
        let nan = f16::NAN;
        assert!(<f16 as Arith>::max(nan, f16::ONE).is_nan());
        assert!(<f16 as Arith>::min(f16::ONE, nan).is_nan());
        assert_eq!(<f32 as Arith>::max(1.0, 2.0), 2.0);
        assert_eq!(<i16 as Arith>::min(-3, 2), -3);
        assert_eq!(f16::sub(f16::MIN, f16::MAX, true), f16::MIN);
        assert_eq!(
            f16::mul(f16::from_f32(300.0), f16::from_f32(300.0), true),
            f16::MAX
        );
    }

    #[test]
    fn integers_wrap() {
        assert_eq!(i16::add(i16::MAX, 1, true), i16::MIN);
        assert_eq!(i32::add(-1, 1, true), 0);
    }
}
