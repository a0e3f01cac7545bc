//! `Log`, `Log2`, `Log10` (数学计算/Log): logarithms to base e, 2 and 10. half and float; A2,
//! A3 and 310P.
//!
//! As the device does it: `Log` is the `Ln` instruction under a counter mask of `calCount`;
//! `Log10` is `Ln` then `Muls` by `1/ln 10` (rounded to `T`), in `T`; `Log2` is `Ln` then `Muls`
//! by `1/ln 2` in float: a half source is widened chunk by chunk into the temporary buffer,
//! computed in float and narrowed back.

use super::{is_half, UNARY};
use crate::adv::common::{
    barrier_v, check_count, counter_loop, require, run, split_count, Tmp, A2_A3_310P,
};
use crate::adv::math::round::floor::{NARROW, WIDEN};
use crate::api::vec::cast::cast_l0;
use crate::api::vec::mask::{reset_mask, set_mask_count, set_mask_norm, set_vector_mask};
use crate::api::vec::scalar::muls_l0;
use crate::api::vec::unary::ln_l0;
use crate::dtype::Element;
use crate::error::{Result, SourceLoc};
use crate::numeric::RoundMode;
use crate::{f16, LocalTensor, MaskMode, MASK_PLACEHOLDER};

/// `1 / ln 2`, as the device writes it.
#[allow(clippy::approx_constant)]
const LN2_RECIPROCAL: f64 = 1.4426950408889634;
/// `1 / ln 10`, as the device writes it (one binary64 ulp below `LOG10_E`).
#[allow(clippy::approx_constant)]
const LN10_RECIPROCAL: f64 = 0.43429448190325176;

/// The checks every form makes: `T`, `calCount`, product. `true` for half.
fn check<T: Element>(
    api: &'static str,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    count: u32,
) -> Result<bool> {
    let half = is_half::<T>(api)?;
    check_count(
        api,
        count,
        &[("dstTensor", dst.get_size()), ("srcTensor", src.get_size())],
    )?;
    require(api, A2_A3_310P)?;
    Ok(half)
}

/// Runs `body` under a counter mask of `count` elements of `T`, then restores the normal mask.
fn counted<T: Element>(count: u32, body: impl FnOnce() -> Result<()>) -> Result<()> {
    set_mask_count()?;
    set_vector_mask::<T>(MaskMode::COUNTER, count as u64)?;
    body()?;
    set_mask_norm()?;
    reset_mask()
}

/// `Log<T, isReuseSource>(dst, src, [calCount])`: `dst[i] = ln src[i]` for the first `count`
/// elements. `T`: half or float. No temporary space.
#[track_caller]
pub fn log<T: Element>(dst: &LocalTensor<T>, src: &LocalTensor<T>, count: u32) -> Result<()> {
    const API: &str = "Log";
    run(API, SourceLoc::caller(), || {
        if check(API, dst, src, count)? {
            counted::<T>(count, || {
                ln_l0::<f16>(
                    &dst.reinterpret_cast(),
                    &src.reinterpret_cast(),
                    MASK_PLACEHOLDER,
                    1,
                    UNARY,
                )
            })
        } else {
            counted::<T>(count, || {
                ln_l0::<f32>(
                    &dst.reinterpret_cast(),
                    &src.reinterpret_cast(),
                    MASK_PLACEHOLDER,
                    1,
                    UNARY,
                )
            })
        }
    })
}

/// `Log10<T, isReuseSource>(dst, src, [calCount])`: `dst[i] = log₁₀ src[i]` (`Ln`, then `Muls`
/// by `1/ln 10` in `T`) for the first `count` elements. `T`: half or float. No temporary space.
#[track_caller]
pub fn log10<T: Element>(dst: &LocalTensor<T>, src: &LocalTensor<T>, count: u32) -> Result<()> {
    const API: &str = "Log10";
    run(API, SourceLoc::caller(), || {
        if check(API, dst, src, count)? {
            let (d, s) = (dst.reinterpret_cast::<f16>(), src.reinterpret_cast());
            let c = f16::from_f64(LN10_RECIPROCAL);
            counted::<T>(count, || {
                ln_l0(&d, &s, MASK_PLACEHOLDER, 1, UNARY)?;
                barrier_v()?;
                muls_l0(&d, &d, c, MASK_PLACEHOLDER, 1, UNARY)
            })
        } else {
            let (d, s) = (dst.reinterpret_cast::<f32>(), src.reinterpret_cast());
            counted::<T>(count, || {
                ln_l0(&d, &s, MASK_PLACEHOLDER, 1, UNARY)?;
                barrier_v()?;
                muls_l0(&d, &d, LN10_RECIPROCAL as f32, MASK_PLACEHOLDER, 1, UNARY)
            })
        }
    })
}

/// `Log2<T, isReuseSource>(dst, src, [sharedTmpBuffer,] [calCount])`: `dst[i] = log₂ src[i]`
/// (`Ln`, then `Muls` by `1/ln 2`, in float) for the first `count` elements. `T`: half or float.
/// half takes `tmp` (the caller's buffer or the pipe's stack), at least 256 bytes
/// (`GetLog2MaxMinTmpSize`); float none.
#[track_caller]
pub fn log2<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: Tmp,
    count: u32,
) -> Result<()> {
    const API: &str = "Log2";
    run(API, SourceLoc::caller(), || {
        let c = LN2_RECIPROCAL as f32;
        if !check(API, dst, src, count)? {
            let (d, s) = (dst.reinterpret_cast::<f32>(), src.reinterpret_cast());
            return counted::<T>(count, || {
                ln_l0(&d, &s, MASK_PLACEHOLDER, 1, UNARY)?;
                barrier_v()?;
                muls_l0(&d, &d, c, MASK_PLACEHOLDER, 1, UNARY)
            });
        }
        let buf = tmp.buffer(API)?;
        let split = split_count(API, buf.get_size(), 4)?;
        let wide = buf.reinterpret_cast::<f32>();
        let (dst, src) = (dst.reinterpret_cast::<f16>(), src.reinterpret_cast::<f16>());
        counter_loop::<f16>(count, split, |at| {
            cast_l0(
                &wide,
                &src.at(at)?,
                RoundMode::CAST_NONE,
                MASK_PLACEHOLDER,
                1,
                WIDEN,
            )?;
            barrier_v()?;
            ln_l0(&wide, &wide, MASK_PLACEHOLDER, 1, UNARY)?;
            barrier_v()?;
            muls_l0(&wide, &wide, c, MASK_PLACEHOLDER, 1, UNARY)?;
            barrier_v()?;
            cast_l0(
                &dst.at(at)?,
                &wide,
                RoundMode::CAST_NONE,
                MASK_PLACEHOLDER,
                1,
                NARROW,
            )?;
            barrier_v()
        })
    })
}

/// `GetLogMaxMinTmpSize` / `GetLog10MaxMinTmpSize`: `Log` and `Log10` need no temporary space:
/// `(0, 0)`.
pub fn log_max_min_tmp_size() -> (u32, u32) {
    (0, 0)
}

/// `GetLogTmpBufferFactorSize` / `GetLog10TmpBufferFactorSize`: `(maxLiveNodeCount, extraBuf)`
/// = `(0, 0)`.
pub fn log_tmp_buffer_factor_size() -> (u32, u32) {
    (0, 0)
}

/// `GetLog2MaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue)`: bytes for
/// `elements` elements of `type_size` bytes, as `(max, min)`: half `max(elements · 4, 256)` at
/// most and 256 at least; float none.
pub fn log2_max_min_tmp_size(elements: u32, type_size: u32) -> (u32, u32) {
    if type_size == 2 {
        ((elements * 4).max(256), 256)
    } else {
        (0, 0)
    }
}

/// `GetLog2TmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuf)`: `(maxLiveNodeCount,
/// extraBuf)` = `(2, 0)` for half, `(0, 0)` for float.
pub fn log2_tmp_buffer_factor_size(type_size: u32) -> (u32, u32) {
    (if type_size == 4 { 0 } else { 2 }, 0)
}
