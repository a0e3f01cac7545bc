//! `Floor` (数学计算/Floor): rounds each element toward −∞. half and float; A2, A3, 310P and
//! 310B.
//!
//! As the device does it: float on A2/A3 and 310B is one `Cast` float → float with
//! `CAST_FLOOR`; float on 310P goes through int32 (`Cast` float → int32 `CAST_FLOOR` into the
//! destination, then back), so values beyond the int32 range saturate there. half has no
//! rounding instruction: each chunk is widened to float in the temporary buffer, rounded there
//! as float is, and narrowed back. The chunk is the buffer's float capacity in whole 32-element
//! units; 310B runs the chunks with the count form of `Cast` (normal mask), the others under the
//! counter mask.

use super::cast_round::{float_pair, round_float, rounded_chunks, Float};
use crate::adv::common::{check_count, counter_loop, require, run, split_count, Tmp};
use crate::api::vec::cast::cast;
use crate::chip::Product;
use crate::error::{Result, SourceLoc};
use crate::numeric::RoundMode;
use crate::{Element, LocalTensor};

const API: &str = "Floor";

/// The products Floor's page lists.
const PRODUCTS: &[Product] = &[
    Product::Ascend910B,
    Product::Ascend910_93,
    Product::Ascend310P,
    Product::Ascend310B,
];

/// `Floor<T, isReuseSource>(dst, src, [sharedTmpBuffer,] calCount)`: `dst[i] = ⌊src[i]⌋` for
/// the first `count` elements. `T`: half or float. `tmp` is the caller's buffer or the pipe's
/// stack; half needs 2 · 256 bytes at least (`GetFloorMaxMinTmpSize`), float none (310B: half
/// needs one 32-element float unit, 128 bytes).
#[track_caller]
pub fn floor<T: Element>(
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
        let p = require(API, PRODUCTS)?;
        match float_pair(API, dst, src)? {
            Float::Single(d, s) if p == Product::Ascend310B => {
                cast(&d, &s, RoundMode::CAST_FLOOR, count)
            }
            Float::Half(d, s) if p == Product::Ascend310B => {
                let buf = tmp.buffer(API)?;
                let split = split_count(API, buf.get_size(), 4)?;
                let wide = buf.reinterpret_cast::<f32>();
                let mut at = 0;
                while at < count {
                    let n = split.min(count - at);
                    cast(&wide, &s.at(at)?, RoundMode::CAST_NONE, n)?;
                    cast(&wide, &wide, RoundMode::CAST_FLOOR, n)?;
                    cast(&d.at(at)?, &wide, RoundMode::CAST_NONE, n)?;
                    at += n;
                }
                Ok(())
            }
            Float::Single(d, s) if p == Product::Ascend310P => {
                counter_loop::<f32>(count, count.max(1), |_| {
                    round_float(p, RoundMode::CAST_FLOOR, &d, &s, &d.reinterpret_cast())
                })
            }
            Float::Single(d, s) => cast(&d, &s, RoundMode::CAST_FLOOR, count),
            half => rounded_chunks(API, p, RoundMode::CAST_FLOOR, half, tmp, count, 4),
        }
    })
}

/// `GetFloorMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue)`: bytes of
/// temporary space for `elements` elements of `type_size` bytes, as `(max, min)`: float needs
/// none; half 2 · max(elements · 2, 256) at most and 2 · 256 at least.
pub fn floor_max_min_tmp_size(elements: u32, type_size: u32) -> (u32, u32) {
    let factor = if type_size == 4 { 0 } else { 2 };
    (factor * (elements * type_size).max(256), factor * 256)
}

/// `GetFloorTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuf)`: the temporary space is
/// `maxLiveNodeCount · elements · typeSize + extraBuf` bytes, as `(maxLiveNodeCount, extraBuf)`.
pub fn floor_tmp_buffer_factor_size(type_size: u32) -> (u32, u32) {
    (if type_size == 4 { 0 } else { 2 }, 0)
}

/// The cast strides the half APIs of other families share.
pub(crate) use super::cast_round::{NARROW, WIDEN};
