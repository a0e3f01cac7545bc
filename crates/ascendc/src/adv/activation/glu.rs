//! The gated linear units (激活函数/SwiGLU, GeGLU, ReGlu): `src0 · act(src1)` element-wise.
//! A2, A3 and 310P.
//!
//! As the device does it: float runs in one counter-mode pass without temporary space
//! (SwiGLU in chunks of the count rounded down to 32 bytes). half (and bfloat16 for ReGlu)
//! widens each chunk of both sources to float in the temporary buffer, computes there and
//! narrows the product back:
//! - SwiGLU: act = Swish with β (`Muls −β`, `Exp`, `Adds 1`, `Div`); 3 float chunks, the chunk
//!   is the buffer's float capacity / 3 in 32-byte units (16 elements if that is none).
//! - GeGLU: act(x) = `x / (e^(−0.0713548162726 · x · (x² + 22.363860002236)) + 1)`; 2 float
//!   chunks, the chunk is the buffer's bytes / 8 in 32-byte units of half.
//! - ReGlu: act(x) = `max(x, 0)`; 3 float chunks of the buffer's float capacity / 3 in
//!   32-element units; bfloat16 (A2/A3) narrows with `CAST_RINT`.

use super::support::{check_type, counter_pass, swish_steps, BIN, HALF_FLOAT, NARROW, SAME, WIDEN};
use crate::adv::common::{
    barrier_v, check_count, counter_loop, require, run, split_count, Tmp, A2_A3_310P, ONE_BLK_SIZE,
};
use crate::api::vec::binary::{div_l0, mul_l0};
use crate::api::vec::cast::cast_l0;
use crate::api::vec::mask::{reset_mask, set_mask_count, set_mask_norm, set_vector_mask};
use crate::api::vec::scalar::{adds_l0, maxs_l0, muls_l0};
use crate::api::vec::unary::exp_l0;
use crate::chip::Product;
use crate::dtype::{DType, Element};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::numeric::{CastElem, FloatArith, RoundMode};
use crate::{bf16, f16, LocalTensor, MaskMode, MASK_PLACEHOLDER};

/// GeGLU's constants, `float` on the device (the tanh GELU as a sigmoid: `−2·√(2/π)·0.044715`
/// and `1 / 0.044715`).
const GEGLU_COEFF0: f64 = -0.0713548162726;
const GEGLU_COEFF1: f64 = 2.2363860002236e1;

/// The checks of the three APIs: type, product, equal sources, `count` within every operand.
fn check<T: Element>(
    api: &'static str,
    types: &[DType],
    dst: &LocalTensor<T>,
    src0: &LocalTensor<T>,
    src1: &LocalTensor<T>,
    count: u32,
) -> Result<Product> {
    check_type::<T>(api, types)?;
    let p = require(api, A2_A3_310P)?;
    if src0.get_size() != src1.get_size() {
        return Err(SimError::new(
            Category::Size,
            api,
            format!(
                "srcTensor0 has {} elements and srcTensor1 {}: they must be equal",
                src0.get_size(),
                src1.get_size()
            ),
        ));
    }
    check_count(
        api,
        count,
        &[
            ("dstTensor", dst.get_size()),
            ("srcTensor0", src0.get_size()),
        ],
    )?;
    Ok(p)
}

/// `SwiGLU<T, isReuseSource>(dst, src0, src1, scalarValue, [sharedTmpBuffer,] [calCount])`:
/// `dst[i] = src0[i] · src1[i] / (1 + e^(−β·src1[i]))` for the first `count` elements
/// (`srcTensor0.GetSize()` in the forms without it), β = `beta`. `T`: half or float. half uses
/// 3 float chunks of temporary space (`GetSwiGLUMaxMinTmpSize`: 1536 bytes at least); float
/// none.
#[track_caller]
pub fn swiglu<T: Element>(
    dst: &LocalTensor<T>,
    src0: &LocalTensor<T>,
    src1: &LocalTensor<T>,
    beta: f32,
    tmp: Tmp,
    count: u32,
) -> Result<()> {
    const API: &str = "SwiGLU";
    run(API, SourceLoc::caller(), || {
        check(API, HALF_FLOAT, dst, src0, src1, count)?;
        // `−1.0f · β`: exact.
        let scale = -beta;
        if T::DTYPE == DType::Float {
            let (d, a, b) = (
                dst.reinterpret_cast::<f32>(),
                src0.reinterpret_cast(),
                src1.reinterpret_cast(),
            );
            let split = block_round::<f32>(count);
            return counter_loop::<f32>(count, split, |at| {
                let (d, a, b) = (d.at(at)?, a.at(at)?, b.at(at)?);
                swish_steps(&d, &b, scale)?;
                mul_l0(&d, &a, &d, MASK_PLACEHOLDER, 1, BIN)?;
                barrier_v()
            });
        }
        let buf = tmp.buffer(API)?;
        let split = block_round::<f16>(buf.get_size() / 4 / 3);
        if 3 * split * 4 > buf.get_size() {
            return Err(too_small(API, buf.get_size(), 3 * split * 4));
        }
        let wide = buf.reinterpret_cast::<f32>();
        let (d, a, b) = (
            dst.reinterpret_cast::<f16>(),
            src0.reinterpret_cast::<f16>(),
            src1.reinterpret_cast::<f16>(),
        );
        counter_loop::<f16>(count, split, |at| {
            let len = round_up::<f16>((count - at).min(split));
            let (x1, s, x0) = (wide.at(0)?, wide.at(len)?, wide.at(2 * len)?);
            cast_l0(
                &x1,
                &b.at(at)?,
                RoundMode::CAST_NONE,
                MASK_PLACEHOLDER,
                1,
                WIDEN,
            )?;
            barrier_v()?;
            swish_steps(&s, &x1, scale)?;
            cast_l0(
                &x0,
                &a.at(at)?,
                RoundMode::CAST_NONE,
                MASK_PLACEHOLDER,
                1,
                WIDEN,
            )?;
            barrier_v()?;
            mul_l0(&s, &x0, &s, MASK_PLACEHOLDER, 1, BIN)?;
            barrier_v()?;
            cast_l0(
                &d.at(at)?,
                &s,
                RoundMode::CAST_NONE,
                MASK_PLACEHOLDER,
                1,
                NARROW,
            )?;
            barrier_v()
        })
    })
}

/// `GeGLU<T, isReuseSource>(dst, src0, src1, [sharedTmpBuffer,] [calCount])`:
/// `dst[i] = src0[i] · GELU(src1[i])` (tanh form, as a sigmoid) for the first `count` elements
/// (`srcTensor0.GetSize()` in the forms without it). `T`: half or float. half uses 2 float
/// chunks of temporary space (`GetGeGLUMaxMinTmpSize`: 1024 bytes at least); float none.
#[track_caller]
pub fn geglu<T: Element>(
    dst: &LocalTensor<T>,
    src0: &LocalTensor<T>,
    src1: &LocalTensor<T>,
    tmp: Tmp,
    count: u32,
) -> Result<()> {
    const API: &str = "GeGLU";
    run(API, SourceLoc::caller(), || {
        check(API, HALF_FLOAT, dst, src0, src1, count)?;
        if T::DTYPE == DType::Float {
            let (d, a, b) = (
                dst.reinterpret_cast::<f32>(),
                src0.reinterpret_cast(),
                src1.reinterpret_cast(),
            );
            return counter_pass::<f32>(count, || {
                gelu_of(&d, &b, &d)?;
                mul_l0(&d, &a, &d, MASK_PLACEHOLDER, 1, BIN)?;
                barrier_v()
            });
        }
        let buf = tmp.buffer(API)?;
        let chunk = block_round_down::<f16>(buf.get_size() / 8);
        if chunk == 0 && count > 0 {
            return Err(too_small(API, buf.get_size(), 8 * 16));
        }
        let wide = buf.reinterpret_cast::<f32>();
        let (d, a, b) = (
            dst.reinterpret_cast::<f16>(),
            src0.reinterpret_cast::<f16>(),
            src1.reinterpret_cast::<f16>(),
        );
        set_mask_count()?;
        let mut at = 0;
        while at < count {
            let n = (count - at).min(chunk);
            set_vector_mask::<f16>(MaskMode::COUNTER, n as u64)?;
            let (x, g) = (wide.at(0)?, wide.at(round_up::<f16>(n))?);
            cast_l0(
                &x,
                &b.at(at)?,
                RoundMode::CAST_NONE,
                MASK_PLACEHOLDER,
                1,
                WIDEN,
            )?;
            barrier_v()?;
            gelu_of(&g, &x, &g)?;
            cast_l0(
                &x,
                &a.at(at)?,
                RoundMode::CAST_NONE,
                MASK_PLACEHOLDER,
                1,
                WIDEN,
            )?;
            barrier_v()?;
            mul_l0(&g, &x, &g, MASK_PLACEHOLDER, 1, BIN)?;
            barrier_v()?;
            cast_l0(
                &d.at(at)?,
                &g,
                RoundMode::CAST_NONE,
                MASK_PLACEHOLDER,
                1,
                NARROW,
            )?;
            barrier_v()?;
            at += chunk;
        }
        set_mask_norm()?;
        reset_mask()
    })
}

/// GeGLU's gate of `x` into `out`, `work` holding the intermediate (`out` and `work` may be
/// one tensor): `x²`, `+ COEFF1`, `· x`, `· COEFF0`, `Exp`, `+ 1`, `x ÷`.
fn gelu_of<U: FloatArith>(
    out: &LocalTensor<U>,
    x: &LocalTensor<U>,
    work: &LocalTensor<U>,
) -> Result<()> {
    mul_l0(work, x, x, MASK_PLACEHOLDER, 1, BIN)?;
    barrier_v()?;
    adds_l0(
        work,
        work,
        U::from_f64(GEGLU_COEFF1 as f32 as f64),
        MASK_PLACEHOLDER,
        1,
        SAME,
    )?;
    barrier_v()?;
    mul_l0(work, work, x, MASK_PLACEHOLDER, 1, BIN)?;
    barrier_v()?;
    muls_l0(
        work,
        work,
        U::from_f64(GEGLU_COEFF0 as f32 as f64),
        MASK_PLACEHOLDER,
        1,
        SAME,
    )?;
    barrier_v()?;
    exp_l0(work, work, MASK_PLACEHOLDER, 1, SAME)?;
    barrier_v()?;
    adds_l0(work, work, U::from_f64(1.0), MASK_PLACEHOLDER, 1, SAME)?;
    barrier_v()?;
    div_l0(out, x, work, MASK_PLACEHOLDER, 1, BIN)?;
    barrier_v()
}

/// `ReGlu<T, isReuseSource>(dst, src0, src1, [sharedTmpBuffer,] calCount)`:
/// `dst[i] = src0[i] · max(src1[i], 0)` for the first `count` elements. `T`: half or float;
/// bfloat16 on A2/A3. half and bfloat16 use 3 float chunks of temporary space
/// (`GetReGluMaxMinTmpSize`: 1536 bytes at least); float takes the buffer but uses none.
#[track_caller]
pub fn reglu<T: Element>(
    dst: &LocalTensor<T>,
    src0: &LocalTensor<T>,
    src1: &LocalTensor<T>,
    tmp: Tmp,
    count: u32,
) -> Result<()> {
    const API: &str = "ReGlu";
    run(API, SourceLoc::caller(), || {
        let types: &[DType] = if crate::adv::common::product(API)? == Product::Ascend310P {
            HALF_FLOAT
        } else {
            &[DType::Half, DType::Bfloat16, DType::Float]
        };
        check(API, types, dst, src0, src1, count)?;
        let buf = tmp.buffer(API)?;
        match T::DTYPE {
            DType::Float => {
                let (d, a, b) = (
                    dst.reinterpret_cast::<f32>(),
                    src0.reinterpret_cast(),
                    src1.reinterpret_cast(),
                );
                counter_pass::<f32>(count, || relu_gate(&d, &a, &b))
            }
            DType::Half => {
                reglu_narrow::<f16>(API, dst, src0, src1, &buf, count, RoundMode::CAST_NONE)
            }
            _ => reglu_narrow::<bf16>(API, dst, src0, src1, &buf, count, RoundMode::CAST_RINT),
        }
    })
}

/// `dst = src0 · max(src1, 0)` in float under the current mask.
fn relu_gate(
    dst: &LocalTensor<f32>,
    src0: &LocalTensor<f32>,
    src1: &LocalTensor<f32>,
) -> Result<()> {
    maxs_l0(dst, src1, 0.0, MASK_PLACEHOLDER, 1, SAME)?;
    barrier_v()?;
    mul_l0(dst, src0, dst, MASK_PLACEHOLDER, 1, BIN)?;
    barrier_v()
}

/// ReGlu on half/bfloat16: chunks widened into the buffer, narrowed back with `narrow`.
fn reglu_narrow<N: CastElem + Element>(
    api: &'static str,
    dst: &LocalTensor<impl Element>,
    src0: &LocalTensor<impl Element>,
    src1: &LocalTensor<impl Element>,
    buf: &LocalTensor<u8>,
    count: u32,
    narrow: RoundMode,
) -> Result<()> {
    let split = split_count(api, buf.get_size(), 3 * 4)?;
    let wide = buf.reinterpret_cast::<f32>();
    let (x0, x1, y) = (wide.at(0)?, wide.at(split)?, wide.at(2 * split)?);
    let (d, a, b) = (
        dst.reinterpret_cast::<N>(),
        src0.reinterpret_cast::<N>(),
        src1.reinterpret_cast::<N>(),
    );
    counter_loop::<N>(count, split, |at| {
        cast_l0(
            &x0,
            &a.at(at)?,
            RoundMode::CAST_NONE,
            MASK_PLACEHOLDER,
            1,
            WIDEN,
        )?;
        cast_l0(
            &x1,
            &b.at(at)?,
            RoundMode::CAST_NONE,
            MASK_PLACEHOLDER,
            1,
            WIDEN,
        )?;
        barrier_v()?;
        relu_gate(&y, &x0, &x1)?;
        cast_l0(&d.at(at)?, &y, narrow, MASK_PLACEHOLDER, 1, NARROW)?;
        barrier_v()
    })
}

/// `n` elements of `T` rounded down to whole 32-byte blocks.
fn block_round_down<T: Element>(n: u32) -> u32 {
    n * T::SIZE as u32 / ONE_BLK_SIZE * ONE_BLK_SIZE / T::SIZE as u32
}

/// SwiGLU's chunk: `n` rounded down to whole 32-byte blocks, one block if that is none.
fn block_round<T: Element>(n: u32) -> u32 {
    match block_round_down::<T>(n) {
        0 => ONE_BLK_SIZE / T::SIZE as u32,
        s => s,
    }
}

/// `n` elements of `T` rounded up to whole 32-byte blocks.
fn round_up<T: Element>(n: u32) -> u32 {
    (n * T::SIZE as u32).div_ceil(ONE_BLK_SIZE) * ONE_BLK_SIZE / T::SIZE as u32
}

fn too_small(api: &'static str, have: u32, need: u32) -> SimError {
    SimError::new(
        Category::Size,
        api,
        format!(
            "sharedTmpBuffer of {have} bytes is too small: one chunk needs {need} bytes; size it with Get{api}MaxMinTmpSize"
        ),
    )
}

/// `GetSwiGLUMaxMinTmpSize(srcShape, typeSize, maxValue, minValue, isReuseSource)`: `(max, min)`
/// bytes for `elements` elements of `type_size` bytes: float none; half 6 · max(elements · 2,
/// 256) at most and 6 · 256 at least.
pub fn swiglu_max_min_tmp_size(elements: u32, type_size: u32) -> (u32, u32) {
    let f = swiglu_tmp_buffer_factor_size(type_size).0;
    (f * (elements * type_size).max(256), f * 256)
}

/// `GetSwiGLUTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuffer)`: the space is
/// `maxLiveNodeCount · elements · typeSize + extraBuffer` bytes, as `(maxLiveNodeCount,
/// extraBuffer)`: float (0, 0), half (6, 0).
pub fn swiglu_tmp_buffer_factor_size(type_size: u32) -> (u32, u32) {
    (if type_size == 4 { 0 } else { 6 }, 0)
}

/// `GetGeGLUMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue)`: float none;
/// half 4 · max(elements · 2, 256) at most and 4 · 256 at least.
pub fn geglu_max_min_tmp_size(elements: u32, type_size: u32) -> (u32, u32) {
    let f = geglu_tmp_buffer_factor_size(type_size).0;
    (f * (elements * type_size).max(256), f * 256)
}

/// `GetGeGLUTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuf)`: float (0, 0), half (4, 0).
pub fn geglu_tmp_buffer_factor_size(type_size: u32) -> (u32, u32) {
    (if type_size == 4 { 0 } else { 4 }, 0)
}

/// `GetReGluMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue)`: float 256
/// both; half/bfloat16 max(elements · 6 · 2, 1536) at most and 1536 at least.
pub fn reglu_max_min_tmp_size(elements: u32, type_size: u32) -> (u32, u32) {
    if type_size == 4 {
        return (256, 256);
    }
    let min = 6 * 256;
    ((elements * 6 * type_size).max(min), min)
}
