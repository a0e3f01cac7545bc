//! Conversions for the C++ `half` and `bfloat16_t` types (one rounding, to nearest even).

use ascendc::{bf16, f16};

/// `double` → `half` bits.
#[no_mangle]
pub extern "C" fn ascendc_f64_to_f16(v: f64) -> u16 {
    f16::from_f64(v).to_bits()
}

/// `half` bits → `float` (exact).
#[no_mangle]
pub extern "C" fn ascendc_f16_to_f32(b: u16) -> f32 {
    f16::from_bits(b).to_f32()
}

/// `double` → `bfloat16_t` bits.
#[no_mangle]
pub extern "C" fn ascendc_f64_to_bf16(v: f64) -> u16 {
    bf16::from_f64(v).to_bits()
}

/// `bfloat16_t` bits → `float` (exact).
#[no_mangle]
pub extern "C" fn ascendc_bf16_to_f32(b: u16) -> f32 {
    bf16::from_bits(b).to_f32()
}
