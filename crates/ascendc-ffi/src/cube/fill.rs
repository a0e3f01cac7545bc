//! `Fill` / `InitConstValue` for C++ kernels.

use crate::abi::{call, dtype, AscLoc, AscLocal};
use ascendc::api::cube::fill::{fill, InitConstValueParams};
use ascendc::error::{Category, SimError};
use ascendc::{bf16, f16, DType};

/// `Fill(dst, InitConstValueParams<T>{repeatTimes, blockNum, dstGap, initValue})`; `value` points
/// at one element of type `elem`.
///
/// # Safety
/// `dst` and `value` are valid for reads.
#[no_mangle]
pub unsafe extern "C" fn ascendc_fill(
    elem: u8,
    dst: *const AscLocal,
    repeat_times: u16,
    block_num: u16,
    dst_gap: u16,
    value: *const u8,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        macro_rules! go {
            ($t:ty) => {{
                let v = (value as *const $t).read_unaligned();
                let p = InitConstValueParams::new(repeat_times, block_num, dst_gap, v);
                fill(&(*dst).tensor::<$t>()?, p)
            }};
        }
        match dtype(elem)? {
            DType::Int16 => go!(i16),
            DType::Uint16 => go!(u16),
            DType::Half => go!(f16),
            DType::Bfloat16 => go!(bf16),
            DType::Int32 => go!(i32),
            DType::Uint32 => go!(u32),
            DType::Float => go!(f32),
            t => Err(SimError::new(
                Category::Type,
                "Fill",
                format!("element type {t} is not supported: int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float"),
            )),
        }
    })
}
