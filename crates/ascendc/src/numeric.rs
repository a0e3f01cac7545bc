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
}

macro_rules! int_arith {
    ($($t:ty),*) => {$(
        impl Arith for $t {
            #[inline(always)]
            fn add(a: Self, b: Self, _sat: bool) -> Self {
                a.wrapping_add(b)
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
}

impl Arith for f64 {
    #[inline(always)]
    fn add(a: Self, b: Self, _sat: bool) -> Self {
        a + b
    }
}

impl Arith for f16 {
    #[inline(always)]
    fn add(a: Self, b: Self, sat: bool) -> Self {
        round_f16(a.to_f32() + b.to_f32(), sat)
    }
}

impl Arith for bf16 {
    #[inline(always)]
    fn add(a: Self, b: Self, _sat: bool) -> Self {
        bf16::from_f32(a.to_f32() + b.to_f32())
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
    fn integers_wrap() {
        assert_eq!(i16::add(i16::MAX, 1, true), i16::MIN);
        assert_eq!(i32::add(-1, 1, true), 0);
    }
}
