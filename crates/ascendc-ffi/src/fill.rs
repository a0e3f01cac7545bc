//! Brcb and CreateVecIndex over the C ABI.

use crate::abi::{call, dtype, AscLoc, AscLocal};
use crate::vec::AscMask;
use ascendc::api::vec::fill::*;
use ascendc::error::{Category, SimError};
use ascendc::{bf16, f16, DType, Mask};

/// `Brcb(dst, src, repeatTime, {dstBlkStride, dstRepStride})`.
///
/// # Safety
/// Tensor pointers valid.
#[no_mangle]
pub unsafe extern "C" fn ascendc_brcb(
    elem: u8,
    dst: *const AscLocal,
    src: *const AscLocal,
    repeat: u8,
    dst_blk: u16,
    dst_rep: u16,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let p = BrcbRepeatParams::new(dst_blk, dst_rep);
        macro_rules! go {
            ($t:ty) => {
                brcb(&(*dst).tensor::<$t>()?, &(*src).tensor::<$t>()?, repeat, p)
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
                "Brcb",
                format!("element type {t} is not supported"),
            )),
        }
    })
}

/// `CreateVecIndex`: level 2 when `mask` is null (`count` elements), else level 0.
///
/// # Safety
/// `dst` and `first` (an element of type `elem`) valid; `mask` null or valid.
#[no_mangle]
pub unsafe extern "C" fn ascendc_create_vec_index(
    elem: u8,
    dst: *const AscLocal,
    first: *const u8,
    count: i32,
    mask: *const AscMask,
    repeat: u8,
    dst_blk: u16,
    dst_rep: u8,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let m = mask.as_ref().map(|m| Mask::from(*m));
        macro_rules! go {
            ($t:ty) => {{
                let d = (*dst).tensor::<$t>()?;
                let v = (first as *const $t).read_unaligned();
                match m {
                    None => create_vec_index(&d, v, count),
                    Some(m) => create_vec_index_l0(&d, v, m, repeat, dst_blk, dst_rep),
                }
            }};
        }
        match dtype(elem)? {
            DType::Int16 => go!(i16),
            DType::Half => go!(f16),
            DType::Int32 => go!(i32),
            DType::Float => go!(f32),
            t => Err(SimError::new(
                Category::Type,
                "CreateVecIndex",
                format!("element type {t} is not supported (int16_t, half, int32_t, float)"),
            )),
        }
    })
}
