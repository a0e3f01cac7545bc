//! `AscendQuant` (量化操作/AscendQuant): `dst = int8(src · scale + offset)`, half or float source;
//! A2, A3 and 310P (the same sequence on both).
//!
//! As the device does it, in counter mode, chunk by chunk of the temporary buffer's half
//! capacity: a float source is narrowed to half in the buffer; `Muls` by the scale (or `Mul` by
//! the scale row) and `Adds` of the offset (or `Add` of the offset row) in half; `Cast` half →
//! int8 (`CAST_NONE`: to nearest even, saturating). Scalars become half first. Per channel
//! (`[m, n]` source, `n = scaleCount`), a float scale/offset row is narrowed to half in place
//! in its own tensor (the caller's tensor then holds half values), and each row is quantised in
//! chunks.

use crate::adv::common::{barrier_v, require, run, split_count, Tmp, A2_A3_310P};
use crate::api::vec::binary::{add_l0, mul_l0};
use crate::api::vec::cast::cast_l0;
use crate::api::vec::mask::{reset_mask, set_mask_count, set_mask_norm, set_vector_mask};
use crate::api::vec::scalar::{adds_l0, muls_l0};
use crate::dtype::{DType, Element};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::numeric::RoundMode;
use crate::{f16, BinaryRepeatParams, LocalTensor, MaskMode, UnaryRepeatParams, MASK_PLACEHOLDER};

const API: &str = "AscendQuant";

/// Same-width operands (`{1, 1, 8, 8}`).
const SAME: UnaryRepeatParams = UnaryRepeatParams::new(1, 1, 8, 8);
/// Narrowing to half width (`dstRepStride` 4): float → half and half → int8.
const NARROW: UnaryRepeatParams = UnaryRepeatParams::new(1, 1, 4, 8);
/// `{1, 1, 1, 8, 8, 8}`.
const BINARY: BinaryRepeatParams = BinaryRepeatParams::new(1, 1, 1, 8, 8, 8);

/// The quantisation parameters of a call.
#[derive(Clone, Copy)]
pub enum QuantParams<'a, T: Element> {
    /// Per tensor: one scale and one offset (the float arguments).
    Tensor { scale: f32, offset: f32 },
    /// Per channel: `scaleTensor[scaleCount]` and one offset of type T.
    Channel {
        scale: &'a LocalTensor<T>,
        offset: T,
        scale_count: u32,
    },
    /// Per channel: `scaleTensor[scaleCount]` and `offsetTensor[offsetCount]`.
    ChannelOffsets {
        scale: &'a LocalTensor<T>,
        offset: &'a LocalTensor<T>,
        scale_count: u32,
        offset_count: u32,
    },
}

/// `AscendQuant<T, isReuseSource>(dst, src, [sharedTmpBuffer,] scale…, offset…, calCount)`:
/// `dst[i] = int8(half(src[i]) · scale + offset)` for the first `count` elements, the scale
/// and offset per tensor or per column of an `[m, scaleCount]` source. `T`: half or float.
/// `tmp`: at least 2 · 256 bytes (`GetAscendQuantMaxMinTmpSize`); the chunk is its half
/// capacity.
#[track_caller]
pub fn ascend_quant<T: Element>(
    dst: &LocalTensor<i8>,
    src: &LocalTensor<T>,
    tmp: Tmp,
    params: QuantParams<T>,
    count: u32,
) -> Result<()> {
    run(API, SourceLoc::caller(), || {
        require(API, A2_A3_310P)?;
        if !matches!(T::DTYPE, DType::Half | DType::Float) {
            return Err(SimError::new(
                Category::Type,
                API,
                format!(
                    "T = {} is not supported: AscendQuant takes half or float",
                    T::DTYPE
                ),
            ));
        }
        check(count, src.get_size(), dst.get_size(), &params)?;
        let buf = tmp.buffer(API)?;
        let split = split_count(API, buf.get_size(), 2)?;
        let stack = buf.reinterpret_cast::<f16>();
        set_mask_count()?;
        match params {
            QuantParams::Tensor { scale, offset } => {
                let (s, o) = (f16::from_f32(scale), f16::from_f32(offset));
                chunks::<T>(count, split, |at| {
                    let x = widen(&stack, &src.at(at)?)?;
                    muls_l0(&stack, &x, s, MASK_PLACEHOLDER, 1, SAME)?;
                    barrier_v()?;
                    adds_l0(&stack, &stack, o, MASK_PLACEHOLDER, 1, SAME)?;
                    barrier_v()?;
                    to_int8(&dst.at(at)?, &stack)
                })?;
            }
            QuantParams::Channel {
                scale,
                offset,
                scale_count,
            } => {
                let s = half_row(scale, scale_count)?;
                let o = f16::from_f64(offset.to_f64());
                for row in 0..count / scale_count {
                    let base = row * scale_count;
                    chunks::<T>(scale_count, split, |at| {
                        let x = widen(&stack, &src.at(base + at)?)?;
                        mul_l0(&stack, &x, &s.at(at)?, MASK_PLACEHOLDER, 1, BINARY)?;
                        barrier_v()?;
                        adds_l0(&stack, &stack, o, MASK_PLACEHOLDER, 1, SAME)?;
                        barrier_v()?;
                        to_int8(&dst.at(base + at)?, &stack)
                    })?;
                }
            }
            QuantParams::ChannelOffsets {
                scale,
                offset,
                scale_count,
                ..
            } => {
                let (s, o) = if T::DTYPE == DType::Float {
                    set_vector_mask::<f16>(MaskMode::COUNTER, scale_count as u64)?;
                    let (s, o) = (
                        scale.reinterpret_cast::<f16>(),
                        offset.reinterpret_cast::<f16>(),
                    );
                    let (sf, of) = (
                        scale.reinterpret_cast::<f32>(),
                        offset.reinterpret_cast::<f32>(),
                    );
                    cast_l0(&s, &sf, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, NARROW)?;
                    cast_l0(&o, &of, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, NARROW)?;
                    (s, o)
                } else {
                    (scale.reinterpret_cast(), offset.reinterpret_cast())
                };
                for row in 0..count / scale_count {
                    let base = row * scale_count;
                    chunks::<T>(scale_count, split, |at| {
                        let x = widen(&stack, &src.at(base + at)?)?;
                        mul_l0(&stack, &x, &s.at(at)?, MASK_PLACEHOLDER, 1, BINARY)?;
                        barrier_v()?;
                        add_l0(&stack, &stack, &o.at(at)?, MASK_PLACEHOLDER, 1, BINARY)?;
                        barrier_v()?;
                        to_int8(&dst.at(base + at)?, &stack)
                    })?;
                }
            }
        }
        set_mask_norm()?;
        reset_mask()
    })
}

/// The checks of the device's debug build: counts within the tensors, `count` a positive
/// multiple of `scaleCount`, `offsetCount == scaleCount`.
fn check<T: Element>(count: u32, src: u32, dst: u32, params: &QuantParams<T>) -> Result<()> {
    let err = |m: String| Err(SimError::new(Category::Size, API, m));
    if count > src || count > dst {
        return err(format!(
            "parameter `calCount` = {count} exceeds srcTensor ({src}) or dstTensor ({dst})"
        ));
    }
    let (sc, size) = match params {
        QuantParams::Tensor { .. } => return Ok(()),
        QuantParams::Channel {
            scale, scale_count, ..
        } => (*scale_count, scale.get_size()),
        QuantParams::ChannelOffsets {
            scale,
            offset,
            scale_count,
            offset_count,
        } => {
            if offset_count != scale_count || *offset_count > offset.get_size() {
                return err(format!(
                    "parameter `offsetCount` = {offset_count}: must equal scaleCount ({scale_count}) and fit offsetTensor ({})",
                    offset.get_size()
                ));
            }
            (*scale_count, scale.get_size())
        }
    };
    if sc == 0 || sc > size || count == 0 || !count.is_multiple_of(sc) {
        return err(format!(
            "parameter `scaleCount` = {sc}: must be positive, fit scaleTensor ({size}) and divide calCount ({count}), itself positive"
        ));
    }
    Ok(())
}

/// A float scale row narrowed to half in place (half rows as they are).
fn half_row<T: Element>(scale: &LocalTensor<T>, n: u32) -> Result<LocalTensor<f16>> {
    let s = scale.reinterpret_cast::<f16>();
    if T::DTYPE == DType::Float {
        set_vector_mask::<f16>(MaskMode::COUNTER, n as u64)?;
        cast_l0(
            &s,
            &scale.reinterpret_cast::<f32>(),
            RoundMode::CAST_NONE,
            MASK_PLACEHOLDER,
            1,
            NARROW,
        )?;
        barrier_v()?;
    }
    Ok(s)
}

/// `body(offset)` per chunk of `split` elements under the counter mask (already in counter
/// mode).
fn chunks<T: Element>(
    count: u32,
    split: u32,
    mut body: impl FnMut(u32) -> Result<()>,
) -> Result<()> {
    let (loops, tail) = (count / split, count % split);
    set_vector_mask::<T>(MaskMode::COUNTER, split as u64)?;
    for i in 0..loops {
        body(i * split)?;
    }
    if tail > 0 {
        set_vector_mask::<T>(MaskMode::COUNTER, tail as u64)?;
        body(loops * split)?;
    }
    Ok(())
}

/// The chunk as half: a float source narrowed into `stack`, a half one as it is.
fn widen<T: Element>(stack: &LocalTensor<f16>, src: &LocalTensor<T>) -> Result<LocalTensor<f16>> {
    if T::DTYPE == DType::Float {
        let s = src.reinterpret_cast::<f32>();
        cast_l0(stack, &s, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, NARROW)?;
        barrier_v()?;
        Ok(*stack)
    } else {
        Ok(src.reinterpret_cast())
    }
}

/// `Cast` half → int8 (`CAST_NONE`).
fn to_int8(dst: &LocalTensor<i8>, stack: &LocalTensor<f16>) -> Result<()> {
    cast_l0(
        dst,
        stack,
        RoundMode::CAST_NONE,
        MASK_PLACEHOLDER,
        1,
        NARROW,
    )?;
    barrier_v()
}

/// `GetAscendQuantMaxMinTmpSize(srcShape, typeSize, maxValue, minValue)`: `(max, min)` bytes
/// for `elements` source elements: max(2 · elements, 512) rounded up to 32, and 512.
pub fn ascend_quant_max_min_tmp_size(elements: u32) -> (u32, u32) {
    ((elements * 2).max(512).div_ceil(32) * 32, 512)
}

/// `GetAscendQuantTmpBufferFactorSize(maxLiveNodeCount, extraBuf)`: `(2, 0)`.
pub fn ascend_quant_tmp_buffer_factor_size() -> (u32, u32) {
    (2, 0)
}
