//! Conversions for the C++ `half` and `bfloat16_t` types (one rounding, to nearest even).

use ascendc::{bf16, f16};

/// `double` → `half` bits.
#[no_mangle]
pub extern "C" fn ascendc_f64_to_f16(v: f64) -> u16 {
    ascendc::numeric::f16_from_f64(v).to_bits()
}

/// `half` bits → `float` (exact).
#[no_mangle]
pub extern "C" fn ascendc_f16_to_f32(b: u16) -> f32 {
    f16::from_bits(b).to_f32()
}

/// `double` → `bfloat16_t` bits.
#[no_mangle]
pub extern "C" fn ascendc_f64_to_bf16(v: f64) -> u16 {
    ascendc::numeric::bf16_from_f64(v).to_bits()
}

/// `bfloat16_t` bits → `float` (exact).
#[no_mangle]
pub extern "C" fn ascendc_bf16_to_f32(b: u16) -> f32 {
    bf16::from_bits(b).to_f32()
}

/// Scalar compute: `op` 0 GetBitCount (`b` = countValue), 1 CountLeadingZero, 2
/// CountBitsCntSameAsSignBit, 3 GetSFFValue (`b` = countValue), 4 Cast float → half (`a` = the
/// float's bits, `b` = RoundMode index; half bits out), 5 Cast float → int32, 6 Cast float →
/// bfloat16 (bits out), 7 Cast bfloat16 → float (`a` = bits; float bits out).
///
/// # Safety
/// `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn ascendc_scalar(
    op: u8,
    a: u64,
    b: u64,
    out: *mut u64,
    loc: crate::abi::AscLoc,
) -> i32 {
    use ascendc::api::scalar_compute::*;
    use ascendc::RoundMode;
    crate::abi::call(loc, || {
        let f = f32::from_bits(a as u32);
        let mode = || -> Result<RoundMode, ascendc::SimError> {
            RoundMode::ALL.get(b as usize).copied().ok_or_else(|| {
                ascendc::SimError::range("Cast", "roundMode", b, "a RoundMode value")
            })
        };
        let v: u64 = match op {
            0 => get_bit_count(b as u8, a)? as u64,
            1 => count_leading_zero(a)? as u64,
            2 => count_bits_cnt_same_as_sign_bit(a as i64)? as u64,
            3 => get_sff_value(b as u8, a)? as u64,
            4 => scalar_cast_to_half(f, mode()?)?.to_bits() as u64,
            5 => scalar_cast_to_int32(f, mode()?)? as u32 as u64,
            6 => scalar_cast_to_bf16(f)?.to_bits() as u64,
            _ => scalar_cast_from_bf16(bf16::from_bits(a as u16))?.to_bits() as u64,
        };
        *out = v;
        Ok(())
    })
}
