//! `Frac` (数学计算/Frac): the fractional part of each element, `x − trunc(x)` (sign of `x`).
//! half and float; A2, A3 and 310P.
//!
//! As the device does it: `trunc(x)` is a `Cast` float → float `CAST_TRUNC` on A2/A3 and float
//! → int32 → float on 310P (so for |x| beyond the int32 range the result is not the fraction),
//! then a `Sub`. float works in the destination in one pass (the buffer is not used); half
//! works in float in the temporary buffer, in chunks of a quarter of the float capacity per
//! operand (whole 32-element units): `x` in the first half, the result in the second.

use super::cast_round::{float_pair, narrow, round_float, widen, Float};
use crate::adv::common::{
    barrier_v, check_count, counter_loop, require, run, split_count, Tmp, A2_A3_310P,
};
use crate::api::vec::binary::sub_l0;
use crate::chip::Product;
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::numeric::RoundMode;
use crate::{BinaryRepeatParams, Element, LocalTensor, MASK_PLACEHOLDER};

const API: &str = "Frac";

/// `Frac<T, isReuseSource>(dst, src, [sharedTmpBuffer,] [calCount])`: `dst[i] = src[i] −
/// trunc(src[i])` for the first `count` elements. `T`: half or float. `tmp`: half 1024 bytes
/// at least (`GetFracMaxMinTmpSize`); float needs none but the buffer must not be empty.
#[track_caller]
pub fn frac<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: Tmp,
    count: u32,
) -> Result<()> {
    run(API, SourceLoc::caller(), || {
        check_count(
            API,
            count,
            &[("dstTensor", dst.get_size()), ("srcTensor", src.get_size())],
        )?;
        let p = require(API, A2_A3_310P)?;
        let pair = float_pair(API, dst, src)?;
        let buf = tmp.buffer(API)?;
        if buf.get_size() < 4 {
            return Err(SimError::new(
                Category::Size,
                API,
                format!(
                    "sharedTmpBuffer of {} bytes is too small: it must hold one float",
                    buf.get_size()
                ),
            ));
        }
        match pair {
            Float::Single(d, s) => {
                counter_loop::<f32>(count, count.max(1), |_| fraction(p, &d, &s, &d))
            }
            Float::Half(d, s) => {
                let split = split_count(API, buf.get_size(), 8)?;
                let x = buf.reinterpret_cast::<f32>();
                let y = x.at(split)?;
                counter_loop::<f32>(count, split, |at| {
                    widen(&x, &s.at(at)?)?;
                    fraction(p, &y, &x, &y)?;
                    narrow(&d.at(at)?, &y)
                })
            }
        }
    })
}

/// `dst = src − trunc(src)` under the counter mask; `int` holds the 310P int32 step.
fn fraction(
    p: Product,
    dst: &LocalTensor<f32>,
    src: &LocalTensor<f32>,
    int: &LocalTensor<f32>,
) -> Result<()> {
    round_float(p, RoundMode::CAST_TRUNC, dst, src, &int.reinterpret_cast())?;
    sub_l0(
        dst,
        src,
        dst,
        MASK_PLACEHOLDER,
        1,
        BinaryRepeatParams::default(),
    )?;
    barrier_v()
}

/// `GetFracMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue)`: `(max, min)`
/// bytes for `elements` elements of `type_size` bytes: float none; half 4 · max(elements · 2,
/// 256) and 1024.
pub fn frac_max_min_tmp_size(elements: u32, type_size: u32) -> (u32, u32) {
    super::ceil::live_buffers(elements, type_size, 0, 4)
}

/// `GetFracTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuf)`: `(0, 0)` for float,
/// `(4, 0)` for half.
pub fn frac_tmp_buffer_factor_size(type_size: u32) -> (u32, u32) {
    (if type_size == 4 { 0 } else { 4 }, 0)
}
