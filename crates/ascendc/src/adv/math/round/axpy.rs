//! `Axpy` (数学计算/Axpy): `dst[i] += a · src[i]` with a scalar `a`. `(T, U)` = (half, half),
//! (float, float) or (float, half) for destination and source; A2, A3 and 310P.
//!
//! As the device does it: float sources are the basic `Axpy` over the count. half sources work
//! in float in the temporary buffer, in chunks under the counter mask: the source is widened,
//! scaled by `a` (`Muls`, in float) and added (`Add`) to the float destination, or (half
//! destination) to the widened destination, which is then narrowed (nearest even). A chunk is
//! the buffer's float capacity (half destination: half of it), in whole 32-element units.

use super::cast_round::{bad_type, narrow, widen};
use crate::adv::common::{barrier_v, check_count, counter_loop, require, run, Tmp, A2_A3_310P};
use crate::api::vec::binary::add_l0;
use crate::api::vec::scalar::{axpy as axpy_basic, muls_l0};
use crate::dtype::DType;
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::{f16, BinaryRepeatParams, Element, LocalTensor, UnaryRepeatParams, MASK_PLACEHOLDER};

const API: &str = "Axpy";

/// `Axpy<T, U, isReuseSource>(dst, src, scalarValue, sharedTmpBuffer, calCount)`: `dst[i] =
/// dst[i] + scalar · src[i]` for the first `count` elements. `(T, U)`: (half, half), (float,
/// float), (float, half). `tmp`: 4 · 256 bytes at least for a half source
/// (`GetAxpyMaxMinTmpSize`); not used for float.
#[track_caller]
pub fn axpy<T: Element, U: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<U>,
    scalar: U,
    tmp: Tmp,
    count: u32,
) -> Result<()> {
    run(API, SourceLoc::caller(), || {
        check_count(
            API,
            count,
            &[("dstTensor", dst.get_size()), ("srcTensor", src.get_size())],
        )?;
        require(API, A2_A3_310P)?;
        match (T::DTYPE, U::DTYPE) {
            (DType::Float, DType::Float) => axpy_basic::<f32, f32>(
                &dst.reinterpret_cast(),
                &src.reinterpret_cast(),
                scalar.to_f64() as f32,
                count,
            ),
            (DType::Half | DType::Float, DType::Half) => {
                let a = scalar.to_f64() as f32;
                let s = src.reinterpret_cast::<f16>();
                let buf = tmp.buffer(API)?;
                if buf.get_size() == 0 {
                    return Err(too_small(0));
                }
                let wide = buf.reinterpret_cast::<f32>();
                let floats = wide.get_size();
                if T::DTYPE == DType::Half {
                    let split = floats / 2 / 32 * 32;
                    if split == 0 {
                        return Err(too_small(buf.get_size()));
                    }
                    let (ws, wd) = (wide, wide.at(split)?);
                    let d = dst.reinterpret_cast::<f16>();
                    counter_loop::<f16>(count, split, |at| {
                        let dh = d.at(at)?;
                        widen(&ws, &s.at(at)?)?;
                        widen(&wd, &dh)?;
                        scale_add(&wd, &ws, a)?;
                        narrow(&dh, &wd)
                    })
                } else {
                    let split = floats / 32 * 32;
                    if split == 0 {
                        return Err(too_small(buf.get_size()));
                    }
                    let d = dst.reinterpret_cast::<f32>();
                    counter_loop::<f32>(count, split, |at| {
                        widen(&wide, &s.at(at)?)?;
                        scale_add(&d.at(at)?, &wide, a)
                    })
                }
            }
            (t, u) => Err(bad_type(
                API,
                t,
                &format!("(T, U) = (half, half), (float, float) or (float, half), not ({t}, {u})"),
            )),
        }
    })
}

/// `acc += a · x` in float under the counter mask (`x` is scaled in place).
fn scale_add(acc: &LocalTensor<f32>, x: &LocalTensor<f32>, a: f32) -> Result<()> {
    muls_l0(x, x, a, MASK_PLACEHOLDER, 1, UnaryRepeatParams::default())?;
    barrier_v()?;
    add_l0(
        acc,
        x,
        acc,
        MASK_PLACEHOLDER,
        1,
        BinaryRepeatParams::default(),
    )?;
    barrier_v()
}

/// The error for a buffer without room for one chunk.
fn too_small(bytes: u32) -> SimError {
    SimError::new(
        Category::Size,
        API,
        format!("sharedTmpBuffer of {bytes} bytes is too small: a half source needs whole 32-float chunks (GetAxpyMaxMinTmpSize)"),
    )
}

/// `GetAxpyMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue)`: `(max, min)`
/// bytes for `elements` elements of `type_size` bytes: float max(elements · 4, 256) and 256;
/// half 4 · max(elements · 2, 256) and 1024.
pub fn axpy_max_min_tmp_size(elements: u32, type_size: u32) -> (u32, u32) {
    super::ceil::live_buffers(elements, type_size, 1, 4)
}

/// `GetAxpyTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuf)`: `(1, 0)` for float,
/// `(4, 0)` for half.
pub fn axpy_tmp_buffer_factor_size(type_size: u32) -> (u32, u32) {
    (if type_size == 4 { 1 } else { 4 }, 0)
}
