//! `Fmod` (数学计算/Fmod): the remainder of `a / b` with the sign of `a`, `a − trunc(a / b) · b`.
//! half and float; A2, A3 and 310P.
//!
//! As the device does it: `Div`, `Trunc` (the high-level one, on the temporary buffer), `Mul`,
//! `Sub`, each over the whole count (level 2) in float. So the result is that of the rounded
//! quotient: for |a / b| ≥ 2^24 or an inexact quotient just below an integer it can differ from
//! the exact remainder, and on 310P quotients beyond the int32 range saturate in the `Trunc`.
//! half works in float in the temporary buffer: chunks of its bytes / 16 (whole 32-element
//! units, at most the source's size) hold the quotient, both operands and the `Trunc` space.

use super::cast_round::bad_type;
use super::ceil::{live_buffers, trunc_float};
use crate::adv::common::{barrier_v, check_count, require, run, split_count, Tmp, A2_A3_310P};
use crate::api::vec::binary::{div, mul, sub};
use crate::api::vec::cast::cast;
use crate::chip::Product;
use crate::dtype::DType;
use crate::error::{Result, SourceLoc};
use crate::numeric::RoundMode;
use crate::{f16, Element, LocalTensor};

const API: &str = "Fmod";

/// `Fmod<T, isReuseSource>(dst, src0, src1, [sharedTmpBuffer,] [calCount])`: `dst[i] =
/// src0[i] − trunc(src0[i] / src1[i]) · src1[i]` for the first `count` elements. `T`: half or
/// float. `tmp`: float 256 bytes at least, half 8 · 256 (`GetFmodMaxMinTmpSize`).
#[track_caller]
pub fn fmod<T: Element>(
    dst: &LocalTensor<T>,
    src0: &LocalTensor<T>,
    src1: &LocalTensor<T>,
    tmp: Tmp,
    count: u32,
) -> Result<()> {
    run(API, SourceLoc::caller(), || {
        check_count(
            API,
            count,
            &[
                ("dstTensor", dst.get_size()),
                ("src0Tensor", src0.get_size()),
                ("src1Tensor", src1.get_size()),
            ],
        )?;
        let p = require(API, A2_A3_310P)?;
        match T::DTYPE {
            DType::Float => {
                let buf = tmp.buffer(API)?;
                let f = |t: &LocalTensor<T>| t.reinterpret_cast::<f32>();
                remainder(p, &f(dst), &f(src0), &f(src1), &buf, count)
            }
            DType::Half => {
                let h = |t: &LocalTensor<T>| t.reinterpret_cast::<f16>();
                fmod_half(p, [&h(dst), &h(src0), &h(src1)], tmp, count)
            }
            other => Err(bad_type(API, other, "half or float")),
        }
    })
}

/// `dst = a − trunc(a / b) · b` over `count` elements; `tmp` is the Trunc space.
fn remainder(
    p: Product,
    dst: &LocalTensor<f32>,
    a: &LocalTensor<f32>,
    b: &LocalTensor<f32>,
    tmp: &LocalTensor<u8>,
    count: u32,
) -> Result<()> {
    barrier_v()?;
    div(dst, a, b, count)?;
    barrier_v()?;
    trunc_float(p, dst, dst, tmp, count)?;
    barrier_v()?;
    mul(dst, dst, b, count)?;
    barrier_v()?;
    sub(dst, a, dst, count)?;
    barrier_v()
}

/// half: chunk by chunk in float; the buffer is `| quotient | a | b | Trunc space |`.
fn fmod_half(p: Product, [dst, a, b]: [&LocalTensor<f16>; 3], tmp: Tmp, count: u32) -> Result<()> {
    let buf = tmp.buffer(API)?;
    let split = split_count(API, buf.get_size(), 16)?.min(a.get_size());
    let wide = buf.reinterpret_cast::<f32>();
    let (wa, wb) = (wide.at(split)?, wide.at(2 * split)?);
    let trunc_space = buf.at(3 * split * 4)?;
    let mut at = 0;
    while at < count {
        let n = split.min(count - at);
        barrier_v()?;
        cast(&wa, &a.at(at)?, RoundMode::CAST_NONE, n)?;
        cast(&wb, &b.at(at)?, RoundMode::CAST_NONE, n)?;
        barrier_v()?;
        remainder(p, &wide, &wa, &wb, &trunc_space, n)?;
        cast(&dst.at(at)?, &wide, RoundMode::CAST_NONE, n)?;
        barrier_v()?;
        at += n;
    }
    Ok(())
}

/// `GetFmodMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue)`: `(max, min)`
/// bytes: Trunc's plus, for half, 6 input-sized buffers: float max(elements · 4, 256) and 256;
/// half 8 · max(elements · 2, 256) and 2048.
pub fn fmod_max_min_tmp_size(elements: u32, type_size: u32) -> (u32, u32) {
    live_buffers(elements, type_size, 1, 8)
}

/// `GetFmodTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuf)`: `(1, 0)` for float,
/// `(8, 0)` for half.
pub fn fmod_tmp_buffer_factor_size(type_size: u32) -> (u32, u32) {
    (if type_size == 4 { 1 } else { 8 }, 0)
}
