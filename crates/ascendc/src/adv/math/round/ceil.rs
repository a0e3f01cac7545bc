//! `Ceil` (数学计算/Ceil) and `Trunc` (数学计算/Trunc): round each element toward +∞ and toward
//! zero. half and float; A2, A3 and 310P.
//!
//! As the device does it: chunks of the temporary buffer's capacity (its bytes / 4, in whole
//! 32-element units) under the counter mask. A float chunk is one `Cast` float → float with the
//! rounding mode on A2/A3, float → int32 (into the buffer) → float on 310P, so values beyond the
//! int32 range saturate there. A half chunk is widened into the buffer, rounded there in place
//! as float is, and narrowed back.

use super::cast_round::{float_pair, rounded_chunks, Float};
use crate::adv::common::{check_count, require, run, Tmp, A2_A3_310P};
use crate::chip::Product;
use crate::error::{Result, SourceLoc};
use crate::numeric::RoundMode;
use crate::{Element, LocalTensor};

/// `Ceil<T, isReuseSource>(dst, src, [sharedTmpBuffer,] calCount)`: `dst[i] = ⌈src[i]⌉` for the
/// first `count` elements. `T`: half or float. `tmp` is the caller's buffer or the pipe's stack:
/// at least 256 bytes for float and 512 for half (`GetCeilMaxMinTmpSize`).
#[track_caller]
pub fn ceil<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: Tmp,
    count: u32,
) -> Result<()> {
    rounding("Ceil", RoundMode::CAST_CEIL, dst, src, tmp, count)
}

/// `Trunc<T, isReuseSource>(dst, src, [sharedTmpBuffer,] [calCount])`: `dst[i]` = the integer
/// part of `src[i]` (toward zero) for the first `count` elements. `T`: half or float. `tmp`:
/// at least 256 bytes for float and 512 for half (`GetTruncMaxMinTmpSize`).
#[track_caller]
pub fn trunc<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: Tmp,
    count: u32,
) -> Result<()> {
    rounding("Trunc", RoundMode::CAST_TRUNC, dst, src, tmp, count)
}

#[track_caller]
fn rounding<T: Element>(
    api: &'static str,
    mode: RoundMode,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: Tmp,
    count: u32,
) -> Result<()> {
    run(api, SourceLoc::caller(), || {
        check_count(
            api,
            count,
            &[("dstTensor", dst.get_size()), ("srcTensor", src.get_size())],
        )?;
        let p = require(api, A2_A3_310P)?;
        rounded_chunks(api, p, mode, float_pair(api, dst, src)?, tmp, count, 4)
    })
}

/// Trunc on float without the API's own checks and location: the step of Fmod.
pub(crate) fn trunc_float(
    p: Product,
    dst: &LocalTensor<f32>,
    src: &LocalTensor<f32>,
    tmp: &LocalTensor<u8>,
    count: u32,
) -> Result<()> {
    rounded_chunks(
        "Trunc",
        p,
        RoundMode::CAST_TRUNC,
        Float::Single(*dst, *src),
        Tmp::Shared(tmp),
        count,
        4,
    )
}

/// `(max, min)` bytes of the rounding APIs that need `live` buffers of the input's size for
/// half and `live_float` for float, each at least 256 bytes.
pub(crate) fn live_buffers(
    elements: u32,
    type_size: u32,
    live_float: u32,
    live: u32,
) -> (u32, u32) {
    let f = if type_size == 4 { live_float } else { live };
    (f * (elements * type_size).max(256), f * 256)
}

/// `GetCeilMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue)`: `(max, min)`
/// bytes for `elements` elements of `type_size` bytes: float max(elements · 4, 256) and 256;
/// half 2 · max(elements · 2, 256) and 512.
pub fn ceil_max_min_tmp_size(elements: u32, type_size: u32) -> (u32, u32) {
    live_buffers(elements, type_size, 1, 2)
}

/// `GetCeilTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuf)`: `(1, 0)` for float,
/// `(2, 0)` for half.
pub fn ceil_tmp_buffer_factor_size(type_size: u32) -> (u32, u32) {
    (if type_size == 4 { 1 } else { 2 }, 0)
}

/// `GetTruncMaxMinTmpSize`: as [`ceil_max_min_tmp_size`].
pub fn trunc_max_min_tmp_size(elements: u32, type_size: u32) -> (u32, u32) {
    live_buffers(elements, type_size, 1, 2)
}

/// `GetTruncTmpBufferFactorSize`: as [`ceil_tmp_buffer_factor_size`].
pub fn trunc_tmp_buffer_factor_size(type_size: u32) -> (u32, u32) {
    ceil_tmp_buffer_factor_size(type_size)
}
