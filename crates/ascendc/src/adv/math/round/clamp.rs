//! `ClampMax` and `ClampMin` (数学计算/Clamp): each element limited from above or below by a
//! scalar. half and float; A2, A3 and 310P. One `Mins` / `Maxs` over the count (level 2); the
//! temporary buffer is not used (the forms without one still take the pipe's stack buffer).

use super::cast_round::bad_type;
use crate::adv::common::{check_count, require, run, Tmp, A2_A3_310P};
use crate::api::vec::scalar::{maxs, mins};
use crate::dtype::DType;
use crate::error::{Result, SourceLoc};
use crate::numeric::Arith;
use crate::LocalTensor;

/// `ClampMax<T, isReuseSource>(dst, src, [sharedTmpBuffer,] scalar, calCount)`: `dst[i] =
/// min(src[i], scalar)` for the first `count` elements. `T`: half or float.
#[track_caller]
pub fn clamp_max<T: Arith>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: Tmp,
    scalar: T,
    count: u32,
) -> Result<()> {
    clamp("ClampMax", dst, src, tmp, count, || {
        mins(dst, src, scalar, count)
    })
}

/// `ClampMin<T, isReuseSource>(dst, src, [sharedTmpBuffer,] scalar, calCount)`: `dst[i] =
/// max(src[i], scalar)` for the first `count` elements. `T`: half or float.
#[track_caller]
pub fn clamp_min<T: Arith>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: Tmp,
    scalar: T,
    count: u32,
) -> Result<()> {
    clamp("ClampMin", dst, src, tmp, count, || {
        maxs(dst, src, scalar, count)
    })
}

#[track_caller]
fn clamp<T: Arith>(
    api: &'static str,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: Tmp,
    count: u32,
    op: impl FnOnce() -> Result<()>,
) -> Result<()> {
    run(api, SourceLoc::caller(), || {
        check_count(
            api,
            count,
            &[("dstTensor", dst.get_size()), ("srcTensor", src.get_size())],
        )?;
        require(api, A2_A3_310P)?;
        if !matches!(T::DTYPE, DType::Half | DType::Float) {
            return Err(bad_type(api, T::DTYPE, "half or float"));
        }
        tmp.buffer(api)?;
        op()
    })
}

/// `GetClampMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue)`: `(max,
/// min)` bytes: max(elements, 64) and 64 for float, max(elements, 128) and 128 for half.
pub fn clamp_max_min_tmp_size(elements: u32, type_size: u32) -> (u32, u32) {
    let min = if type_size == 4 { 64 } else { 128 };
    (elements.max(min), min)
}

/// `GetClampTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuf)`: `(1, 0)`.
pub fn clamp_tmp_buffer_factor_size(_type_size: u32) -> (u32, u32) {
    (1, 0)
}
