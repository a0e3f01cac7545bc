//! `Copy` (UB → UB with a mask and strides) over the C ABI.

use crate::abi::{call, dtype, AscLoc, AscLocal};
use crate::vec::AscMask;
use ascendc::api::vec::copy::{copy, CopyRepeatParams};
use ascendc::error::{Category, SimError};
use ascendc::{bf16, f16, DType, Mask};

/// `Copy(dst, src, mask, repeatTime, {dstStride, srcStride, dstRepeatSize, srcRepeatSize})`.
///
/// # Safety
/// Pointers valid; `params` holds 4 values.
#[no_mangle]
pub unsafe extern "C" fn ascendc_vec_copy(
    elem: u8,
    dst: *const AscLocal,
    src: *const AscLocal,
    mask: *const AscMask,
    repeat: u8,
    params: *const u16,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let p = std::slice::from_raw_parts(params, 4);
        let rp = CopyRepeatParams::new(p[0], p[1], p[2], p[3]);
        let m = Mask::from(*mask);
        macro_rules! go {
            ($t:ty) => {
                copy(
                    &(*dst).tensor::<$t>()?,
                    &(*src).tensor::<$t>()?,
                    m,
                    repeat,
                    rp,
                )
            };
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
                "Copy",
                format!("element type {t} is not supported"),
            )),
        }
    })
}
