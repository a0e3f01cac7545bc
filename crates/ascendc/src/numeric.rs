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
pub trait Arith: Element + Copy {
    /// `a + b`.
    fn add(a: Self, b: Self, sat: bool) -> Self;
    /// `a − b`.
    fn sub(a: Self, b: Self, sat: bool) -> Self;
    /// `a × b`.
    fn mul(a: Self, b: Self, sat: bool) -> Self;
    /// The larger of `a` and `b` (NaN if either is NaN).
    fn max(a: Self, b: Self) -> Self;
    /// The smaller of `a` and `b` (NaN if either is NaN).
    fn min(a: Self, b: Self) -> Self;
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
        }
    )*};
}
int_arith!(i8, u8, i16, u16, i32, u32, i64, u64);

impl Arith for f32 {
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
}

impl Arith for f64 {
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
}

impl Arith for f16 {
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
}

impl Arith for bf16 {
    #[inline(always)]
    fn add(a: Self, b: Self, _sat: bool) -> Self {
        bf16::from_f32(a.to_f32() + b.to_f32())
    }
    #[inline(always)]
    fn sub(a: Self, b: Self, _sat: bool) -> Self {
        bf16::from_f32(a.to_f32() - b.to_f32())
    }
    #[inline(always)]
    fn mul(a: Self, b: Self, _sat: bool) -> Self {
        bf16::from_f32(a.to_f32() * b.to_f32())
    }
    #[inline(always)]
    fn max(a: Self, b: Self) -> Self {
        nan_max(a, b)
    }
    #[inline(always)]
    fn min(a: Self, b: Self) -> Self {
        nan_min(a, b)
    }
}

/// NaN-propagating maximum (IEEE ordering otherwise; `max(+0, −0)` is the first operand).
#[inline(always)]
fn nan_max<T: PartialOrd + Copy>(a: T, b: T) -> T {
    #[allow(clippy::eq_op)]
    if a != a {
        a
    } else if b != b || b > a {
        b
    } else {
        a
    }
}

/// NaN-propagating minimum (IEEE ordering otherwise; `min(+0, −0)` is the first operand).
#[inline(always)]
fn nan_min<T: PartialOrd + Copy>(a: T, b: T) -> T {
    #[allow(clippy::eq_op)]
    if a != a {
        a
    } else if b != b || b < a {
        b
    } else {
        a
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(bits: u16) -> f16 {
        f16::from_bits(bits)
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
