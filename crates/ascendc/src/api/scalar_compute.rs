//! Scalar compute (`标量计算`): bit counts and searches on 64-bit words and the scalar
//! conversions, run on the scalar pipe. Product support per the pages, in [`SCALAR_TABLE`].

use super::context::with_core;
use crate::core::trace::Pipe;
use crate::dtype::{bf16, f16};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::numeric::{round_integral, round_to_format, RoundMode, HALF};

/// Which scalar APIs a product has: (bit operations and the float → half/int32 Cast, the
/// bfloat16 Casts), in product order (910, 310P, A2, A3, 310B).
pub const SCALAR_TABLE: [(bool, bool); 5] = [
    (false, false),
    (true, false),
    (true, true),
    (true, true),
    (false, false),
];

fn scalar<R>(api: &'static str, bf: bool, f: impl FnOnce() -> Result<R>) -> Result<R> {
    let loc = SourceLoc::caller();
    with_core(api, loc, |core| {
        let (bits, bf16s) = SCALAR_TABLE[core.profile.product as usize];
        if !(if bf { bf16s } else { bits }) {
            return Err(SimError::new(
                Category::Unsupported,
                api,
                format!("{api} is not supported on {}", core.profile),
            ));
        }
        let r = f()?;
        core.issue(Pipe::S, api, loc, &[]);
        Ok(r)
    })
}

fn bit_value(api: &'static str, count_value: u8) -> Result<bool> {
    match count_value {
        0 => Ok(false),
        1 => Ok(true),
        v => Err(SimError::range(api, "countValue", v, "0 or 1")),
    }
}

/// `GetBitCount<countValue>(valueIn)`: the number of bits of `value_in` equal to `count_value`
/// (0 or 1).
#[track_caller]
pub fn get_bit_count(count_value: u8, value_in: u64) -> Result<i64> {
    scalar("GetBitCount", false, || {
        let ones = bit_value("GetBitCount", count_value)?;
        Ok(if ones {
            value_in.count_ones()
        } else {
            value_in.count_zeros()
        } as i64)
    })
}

/// `CountLeadingZero(valueIn)`: leading zero bits of `value_in` (64 for 0).
#[track_caller]
pub fn count_leading_zero(value_in: u64) -> Result<i64> {
    scalar("CountLeadingZero", false, || {
        Ok(value_in.leading_zeros() as i64)
    })
}

/// `CountBitsCntSameAsSignBit(valueIn)`: the number of consecutive bits below the sign bit equal
/// to it; −1 for 0 and −1 (every bit equal).
#[track_caller]
pub fn count_bits_cnt_same_as_sign_bit(value_in: i64) -> Result<i64> {
    scalar("CountBitsCntSameAsSignBit", false, || {
        Ok(if value_in == 0 || value_in == -1 {
            -1
        } else if value_in < 0 {
            (value_in << 1).leading_ones() as i64
        } else {
            (value_in << 1).leading_zeros() as i64
        })
    })
}

/// `GetSFFValue<countValue>(valueIn)`: the position of the lowest bit equal to `count_value` (0
/// or 1), −1 when there is none.
#[track_caller]
pub fn get_sff_value(count_value: u8, value_in: u64) -> Result<i64> {
    scalar("GetSFFValue", false, || {
        let ones = bit_value("GetSFFValue", count_value)?;
        let v = if ones { value_in } else { !value_in };
        Ok(if v == 0 {
            -1
        } else {
            v.trailing_zeros() as i64
        })
    })
}

/// `Cast<float, half, roundMode>(valueIn)`: `CAST_ODD` only (round to odd; beyond the half range
/// the result saturates to ±65504, NaN stays NaN).
#[track_caller]
pub fn scalar_cast_to_half(value_in: f32, round_mode: RoundMode) -> Result<f16> {
    scalar("Cast", false, || {
        if round_mode != RoundMode::CAST_ODD {
            return Err(SimError::new(
                Category::Unsupported,
                "Cast",
                format!("float → half takes CAST_ODD only, not {round_mode}"),
            ));
        }
        Ok(f16::from_f64(round_to_format(
            value_in as f64,
            HALF,
            RoundMode::CAST_ODD,
        )))
    })
}

/// `Cast<float, int32_t, roundMode>(valueIn)`: `CAST_ROUND`, `CAST_CEIL`, `CAST_FLOOR` or
/// `CAST_RINT`; out-of-range values saturate to the int32 range and NaN gives 0.
#[track_caller]
pub fn scalar_cast_to_int32(value_in: f32, round_mode: RoundMode) -> Result<i32> {
    use RoundMode::*;
    scalar("Cast", false, || {
        if !matches!(round_mode, CAST_ROUND | CAST_CEIL | CAST_FLOOR | CAST_RINT) {
            return Err(SimError::new(
                Category::Unsupported,
                "Cast",
                format!(
                    "float → int32_t takes CAST_ROUND, CAST_CEIL, CAST_FLOOR or CAST_RINT, not {round_mode}"
                ),
            ));
        }
        if value_in.is_nan() {
            return Ok(0);
        }
        let r = round_integral(value_in as f64, round_mode);
        Ok(r.clamp(i32::MIN as f64, i32::MAX as f64) as i32)
    })
}

/// `Cast(float)` → `bfloat16_t` (A2/A3): round to nearest even.
#[track_caller]
pub fn scalar_cast_to_bf16(value_in: f32) -> Result<bf16> {
    scalar("Cast", true, || Ok(bf16::from_f32(value_in)))
}

/// `Cast(bfloat16_t)` → float (A2/A3): exact.
#[track_caller]
pub fn scalar_cast_from_bf16(value_in: bf16) -> Result<f32> {
    scalar("Cast", true, || Ok(value_in.to_f32()))
}
