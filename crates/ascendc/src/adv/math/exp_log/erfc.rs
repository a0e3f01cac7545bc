//! `Erfc` (数学计算/Erfc): the complementary error function. half and float; A2, A3 and 310P.
//!
//! As the device does it, in float, chunk by chunk: `x` is clipped to `[−10, 10]`, its sign
//! taken as `s = x / (|x| + 2⁻⁶²)` and `z = |x| + 2⁻⁶²`; `erfc z ≈ e^(−z²) · R(z) / S(z)` (`R` of
//! degree 8, `S` monic of degree 5, by Horner steps) and the result is `s · erfc z + (1 − s)`.
//! half is widened into the temporary buffer and narrowed back (`CAST_ROUND` on A2/A3,
//! `CAST_NONE` on 310P); float uses the destination as one working tensor. The chunk is the
//! buffer's capacity in whole 32-element units: 5 float tensors for float, 6 for half.

use super::{is_half, too_small, BINARY, UNARY};
use crate::adv::common::{barrier_v, check_count, counter_loop, require, run, Tmp, A2_A3_310P};
use crate::adv::math::round::floor::{NARROW, WIDEN};
use crate::api::vec::binary::{add_l0, div_l0, mul_l0};
use crate::api::vec::cast::cast_l0;
use crate::api::vec::scalar::{adds_l0, maxs_l0, mins_l0, muls_l0};
use crate::api::vec::unary::{abs_l0, exp_l0};
use crate::chip::Product;
use crate::dtype::Element;
use crate::error::{Result, SourceLoc};
use crate::numeric::RoundMode;
use crate::{f16, LocalTensor, MASK_PLACEHOLDER};

const API: &str = "Erfc";

/// The clip bound.
const BOUND: f32 = 10.0;
/// Added to `|x|` so that `x / |x|` is defined at 0: 2⁻⁶².
const TINY: f32 = 2.168404344971009e-19f64 as f32;
/// `R`, highest degree first.
const R: [f32; 9] = [
    0.1735313680e-7f64 as f32,
    -0.9856738394e-6f64 as f32,
    0.2517003236e-4f64 as f32,
    -0.3848015171e-3f64 as f32,
    0.5681528564e0f64 as f32,
    0.5245623129e1f64 as f32,
    0.2107740710e2f64 as f32,
    0.4212761755e2f64 as f32,
    0.4380524149e2f64 as f32,
];
/// `S` below its leading 1, highest degree first.
const S: [f32; 5] = [
    0.9349684299e1f64 as f32,
    0.3756930664e2f64 as f32,
    0.8058268949e2f64 as f32,
    0.9155653738e2f64 as f32,
    0.4380524152e2f64 as f32,
];

/// `Erfc<T, isReuseSource>(dst, src, [sharedTmpBuffer,] [calCount])`: `dst[i] = erfc src[i]`
/// for the first `count` elements. `T`: half or float. `tmp` is the caller's buffer or the
/// pipe's stack: at least 7 · 256 bytes for float, 16 · 256 for half (`GetErfcMaxMinTmpSize`).
#[track_caller]
pub fn erfc<T: Element>(
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
        let units = if half { 12 } else { 5 };
        let cal = buf.get_size() / T::SIZE as u32 / units / 32 * 32;
        if cal == 0 {
            return Err(too_small(API, buf.get_size(), units * 32 * T::SIZE as u32));
        }
        let t = buf.reinterpret_cast::<f32>();
        let b = [
            t.at(0)?,
            t.at(cal)?,
            t.at(2 * cal)?,
            t.at(3 * cal)?,
            t.at(4 * cal)?,
        ];
        counter_loop::<f16>(count, cal, |off| {
            if half {
                let x = t.at(5 * cal)?;
                let s = src.reinterpret_cast::<f16>().at(off)?;
                cast_l0(&x, &s, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, WIDEN)?;
                barrier_v()?;
                clip(&b[0], &x, &x)?;
                sign(&x, &b[0])?;
                erfc_abs(&b)?;
                combine(&b[0], &x, &b)?;
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
                clip(&d, &src.reinterpret_cast::<f32>().at(off)?, &d)?;
                sign(&d, &b[0])?;
                erfc_abs(&b)?;
                combine(&d, &d, &b)
            }
        })
    })
}

/// `mid = min(src, 10)`, `dst = max(mid, −10)`.
fn clip(mid: &LocalTensor<f32>, src: &LocalTensor<f32>, dst: &LocalTensor<f32>) -> Result<()> {
    mins_l0(mid, src, BOUND, MASK_PLACEHOLDER, 1, UNARY)?;
    barrier_v()?;
    maxs_l0(dst, mid, -BOUND, MASK_PLACEHOLDER, 1, UNARY)?;
    barrier_v()
}

/// `z = |x| + 2⁻⁶²`, `x = x / z` (the sign).
fn sign(x: &LocalTensor<f32>, z: &LocalTensor<f32>) -> Result<()> {
    abs_l0(z, x, MASK_PLACEHOLDER, 1, UNARY)?;
    barrier_v()?;
    adds_l0(z, z, TINY, MASK_PLACEHOLDER, 1, UNARY)?;
    barrier_v()?;
    div_l0(x, x, z, MASK_PLACEHOLDER, 1, BINARY)?;
    barrier_v()
}

/// `b[2] = e^(−z²) · R(z) / S(z)` for `z = b[0]`; `b[0]` becomes `e^(−z²)`.
fn erfc_abs(b: &[LocalTensor<f32>; 5]) -> Result<()> {
    let [z, b2, b3, b4, b5] = b;
    mins_l0(b2, z, BOUND, MASK_PLACEHOLDER, 1, UNARY)?;
    barrier_v()?;
    muls_l0(b3, z, R[0], MASK_PLACEHOLDER, 1, UNARY)?;
    barrier_v()?;
    adds_l0(b4, b3, R[1], MASK_PLACEHOLDER, 1, UNARY)?;
    barrier_v()?;
    for &c in &R[2..] {
        mul_l0(b3, z, b4, MASK_PLACEHOLDER, 1, BINARY)?;
        barrier_v()?;
        adds_l0(b4, b3, c, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
    }
    adds_l0(b3, z, S[0], MASK_PLACEHOLDER, 1, UNARY)?;
    barrier_v()?;
    for &c in &S[1..] {
        mul_l0(b5, z, b3, MASK_PLACEHOLDER, 1, BINARY)?;
        barrier_v()?;
        adds_l0(b3, b5, c, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
    }
    div_l0(b3, b4, b3, MASK_PLACEHOLDER, 1, BINARY)?;
    barrier_v()?;
    mul_l0(z, z, z, MASK_PLACEHOLDER, 1, BINARY)?;
    barrier_v()?;
    muls_l0(z, z, -1.0, MASK_PLACEHOLDER, 1, UNARY)?;
    barrier_v()?;
    exp_l0(z, z, MASK_PLACEHOLDER, 1, UNARY)?;
    barrier_v()?;
    mul_l0(b3, z, b3, MASK_PLACEHOLDER, 1, BINARY)?;
    barrier_v()
}

/// `dst = s · b[2] + (1 − s)` for the sign `s`.
fn combine(dst: &LocalTensor<f32>, s: &LocalTensor<f32>, b: &[LocalTensor<f32>; 5]) -> Result<()> {
    let (b2, b3) = (&b[1], &b[2]);
    muls_l0(b2, s, -1.0, MASK_PLACEHOLDER, 1, UNARY)?;
    barrier_v()?;
    adds_l0(b2, b2, 1.0, MASK_PLACEHOLDER, 1, UNARY)?;
    barrier_v()?;
    mul_l0(b3, b3, s, MASK_PLACEHOLDER, 1, BINARY)?;
    barrier_v()?;
    add_l0(dst, b3, b2, MASK_PLACEHOLDER, 1, BINARY)?;
    barrier_v()
}

/// Units of `type_size` bytes of temporary space per element in the host formulas: 7 for
/// float, 16 for half.
fn units(type_size: u32) -> u32 {
    if type_size == 4 {
        7
    } else {
        16
    }
}

/// `GetErfcMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue)`: bytes for
/// `elements` elements of `type_size` bytes, as `(max, min)`: `k · max(elements · typeSize,
/// 256)` and `k · 256`, `k` = 7 for float, 16 for half.
pub fn erfc_max_min_tmp_size(elements: u32, type_size: u32) -> (u32, u32) {
    let k = units(type_size);
    (k * (elements * type_size).max(256), k * 256)
}

/// `GetErfcTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuf)`: `(7, 0)` for float,
/// `(16, 0)` for half.
pub fn erfc_tmp_buffer_factor_size(type_size: u32) -> (u32, u32) {
    (units(type_size), 0)
}
