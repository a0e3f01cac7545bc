//! `BroadCastVecToMM` for C++ kernels.

use crate::abi::{call, dtype, AscLoc, AscLocal};
use ascendc::api::cube::broadcast::broad_cast_vec_to_mm;
use ascendc::error::{Category, SimError};
use ascendc::{f16, DType};

/// `BroadCastVecToMM(dst, src, blockCount, blockLen, srcGap, dstGap)`.
///
/// # Safety
/// `dst` and `src` are valid for reads.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_broadcast_vec_to_mm(
    dst_elem: u8,
    src_elem: u8,
    dst: *const AscLocal,
    src: *const AscLocal,
    block_count: i32,
    block_len: u8,
    src_gap: u8,
    dst_gap: u8,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        macro_rules! go {
            ($t:ty) => {
                broad_cast_vec_to_mm(
                    &(*dst).tensor::<$t>()?,
                    &(*src).tensor::<$t>()?,
                    block_count,
                    block_len,
                    src_gap,
                    dst_gap,
                )
            };
        }
        match (dtype(dst_elem)?, dtype(src_elem)?) {
            (DType::Half, DType::Half) => go!(f16),
            (DType::Int32, DType::Int32) => go!(i32),
            (DType::Float, DType::Float) => go!(f32),
            (d, s) => Err(SimError::new(
                Category::Type,
                "BroadCastVecToMM",
                format!("{s} → {d} is not supported: the source and destination are both half, int32_t or float"),
            )),
        }
    })
}
