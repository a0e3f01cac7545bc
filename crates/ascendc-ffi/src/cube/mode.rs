//! The Mmad control bits for C++ kernels: HF32 and the result order.

use crate::abi::{call, AscLoc};
use ascendc::api::cube::mode::{
    set_hf32_mode, set_hf32_trans_mode, set_mm_column_major, set_mm_row_major, HF32Mode,
    HF32TransMode,
};

/// `SetHF32Mode`: `enable` 1 for `HF32Mode::ENABLE` (or `true`).
#[no_mangle]
pub extern "C" fn ascendc_set_hf32_mode(enable: u8, loc: AscLoc) -> i32 {
    call(loc, || {
        set_hf32_mode(if enable != 0 {
            HF32Mode::Enable
        } else {
            HF32Mode::Disable
        })
    })
}

/// `SetHF32TransMode`: `nearest_zero` 1 for `HF32TransMode::NEAREST_ZERO` (or `true`).
#[no_mangle]
pub extern "C" fn ascendc_set_hf32_trans_mode(nearest_zero: u8, loc: AscLoc) -> i32 {
    call(loc, || {
        set_hf32_trans_mode(if nearest_zero != 0 {
            HF32TransMode::NearestZero
        } else {
            HF32TransMode::NearestEven
        })
    })
}

/// `SetMMRowMajor` (`row_major` 1) / `SetMMColumnMajor` (0).
#[no_mangle]
pub extern "C" fn ascendc_set_mm_layout(row_major: u8, loc: AscLoc) -> i32 {
    call(loc, || {
        if row_major != 0 {
            set_mm_row_major()
        } else {
            set_mm_column_major()
        }
    })
}
