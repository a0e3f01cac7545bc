//! `Erf` (数学计算/Erf): the error function. half and float; A2, A3 and 310P.
//!
//! As the device does it, in float, chunk by chunk: `x` is clipped to `[−3.92, 3.92]` and
//! `erf x ≈ P(x) / Q(x)`, `P` odd of degree 11 and `Q` even of degree 10 in `x²`, each by
//! Horner steps (`Mul` then `Adds`). half is widened into the temporary buffer and the quotient
//! narrowed back (`CAST_ROUND` on A2/A3, `CAST_NONE` on 310P); float uses the destination as
//! one working tensor. The chunk is the buffer's capacity in whole 32-element units: 3 float
//! tensors for float, 4 for half (8 half-sized units).

use super::{is_half, too_small, BINARY, UNARY};
use crate::adv::common::{barrier_v, check_count, counter_loop, require, run, Tmp, A2_A3_310P};
use crate::adv::math::round::floor::{NARROW, WIDEN};
use crate::api::vec::binary::{div_l0, mul_l0};
use crate::api::vec::cast::cast_l0;
use crate::api::vec::scalar::{adds_l0, maxs_l0, mins_l0, muls_l0};
use crate::chip::Product;
use crate::dtype::Element;
use crate::error::{Result, SourceLoc};
use crate::numeric::RoundMode;
use crate::{f16, LocalTensor, MASK_PLACEHOLDER};

const API: &str = "Erf";

/// The clip bound.
const BOUND: f32 = 3.92f64 as f32;
/// `P` in `x²`, highest degree first (then `· x`).
const P: [f32; 6] = [
    0.053443748819f64 as f32,
    0.75517016694e1f64 as f32,
    0.10162808918e3f64 as f32,
    0.13938061484e4f64 as f32,
    0.50637915060e4f64 as f32,
    0.29639384698e5f64 as f32,
];
/// `Q` in `x²` below its leading 1, highest degree first.
const Q: [f32; 5] = [
    0.31212858877e2f64 as f32,
    0.39856963806e3f64 as f32,
    0.30231248150e4f64 as f32,
    0.13243365831e5f64 as f32,
    0.26267224157e5f64 as f32,
];

/// `Erf<T, isReuseSource>(dst, src, [sharedTmpBuffer,] [calCount])`: `dst[i] = erf src[i]` for
/// the first `count` elements. `T`: half or float. `tmp` is the caller's buffer or the pipe's
/// stack: at least 3 · 256 bytes for float, 8 · 256 for half (`GetErfMaxMinTmpSize`).
#[track_caller]
pub fn erf<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: Tmp,
    count: u32,
) -> Result<()> {
    run(API, SourceLoc::caller(), || {
        let half = is_half::<T>(API)?;
        check_count(
            API,
            count,
            &[("dstTensor", dst.get_size()), ("srcTensor", src.get_size())],
        )?;
        let p = require(API, A2_A3_310P)?;
        let buf = tmp.buffer(API)?;
        let units = if half { 8 } else { 3 };
        let cal = buf.get_size() / T::SIZE as u32 / units / 32 * 32;
        if cal == 0 {
            return Err(too_small(API, buf.get_size(), units * 32 * T::SIZE as u32));
        }
        let t = buf.reinterpret_cast::<f32>();
        let b = [t.at(0)?, t.at(cal)?, t.at(2 * cal)?];
        counter_loop::<f16>(count, cal, |off| {
            if half {
                let x = t.at(3 * cal)?;
                let s = src.reinterpret_cast::<f16>().at(off)?;
                cast_l0(&x, &s, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, WIDEN)?;
                barrier_v()?;
                clip(&x, &x, &b[0])?;
                pade(&b, &x)?;
                div_l0(&b[0], &b[1], &b[2], MASK_PLACEHOLDER, 1, BINARY)?;
                barrier_v()?;
                let mode = if p == Product::Ascend310P {
                    RoundMode::CAST_NONE
                } else {
                    RoundMode::CAST_ROUND
                };
                let d = dst.reinterpret_cast::<f16>().at(off)?;
                cast_l0(&d, &b[0], mode, MASK_PLACEHOLDER, 1, NARROW)?;
                barrier_v()
            } else {
                let d = dst.reinterpret_cast::<f32>().at(off)?;
                clip(&d, &src.reinterpret_cast::<f32>().at(off)?, &b[0])?;
                pade(&b, &d)?;
                div_l0(&d, &b[1], &b[2], MASK_PLACEHOLDER, 1, BINARY)?;
                barrier_v()
            }
        })
    })
}

/// `dst = max(min(src, 3.92), −3.92)` through `tmp`.
fn clip(dst: &LocalTensor<f32>, src: &LocalTensor<f32>, tmp: &LocalTensor<f32>) -> Result<()> {
    mins_l0(tmp, src, BOUND, MASK_PLACEHOLDER, 1, UNARY)?;
    barrier_v()?;
    maxs_l0(dst, tmp, -BOUND, MASK_PLACEHOLDER, 1, UNARY)?;
    barrier_v()
}

/// `b[1] = P(x)`, `b[2] = Q(x)`, `b[0] = x²`; `x` is overwritten by the Horner steps of `Q`.
fn pade(b: &[LocalTensor<f32>; 3], x: &LocalTensor<f32>) -> Result<()> {
    let [sq, p, q] = b;
    mul_l0(sq, x, x, MASK_PLACEHOLDER, 1, BINARY)?;
    barrier_v()?;
    muls_l0(p, sq, P[0], MASK_PLACEHOLDER, 1, UNARY)?;
    barrier_v()?;
    adds_l0(q, p, P[1], MASK_PLACEHOLDER, 1, UNARY)?;
    barrier_v()?;
    for &c in &P[2..] {
        mul_l0(p, sq, q, MASK_PLACEHOLDER, 1, BINARY)?;
        barrier_v()?;
        adds_l0(q, p, c, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
    }
    mul_l0(p, x, q, MASK_PLACEHOLDER, 1, BINARY)?;
    barrier_v()?;
    adds_l0(q, sq, Q[0], MASK_PLACEHOLDER, 1, UNARY)?;
    barrier_v()?;
    for &c in &Q[1..] {
        mul_l0(x, sq, q, MASK_PLACEHOLDER, 1, BINARY)?;
        barrier_v()?;
        adds_l0(q, x, c, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
    }
    Ok(())
}

/// Units of `type_size` bytes of temporary space per element: 3 for float, 8 for half.
fn units(type_size: u32) -> u32 {
    if type_size == 4 {
        3
    } else {
        8
    }
}

/// `GetErfMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue)`: bytes for
/// `elements` elements of `type_size` bytes, as `(max, min)`: `k · max(elements · typeSize,
/// 256)` and `k · 256`, `k` = 3 for float, 8 for half.
pub fn erf_max_min_tmp_size(elements: u32, type_size: u32) -> (u32, u32) {
    let k = units(type_size);
    (k * (elements * type_size).max(256), k * 256)
}

/// `GetErfTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuf)`: `(3, 0)` for float,
/// `(8, 0)` for half.
pub fn erf_tmp_buffer_factor_size(type_size: u32) -> (u32, u32) {
    (units(type_size), 0)
}
