//! `Round` (数学计算/Round): rounds each element to the nearest integer, ties to even (the
//! `CAST_RINT` mode). half and float; A2, A3 and 310P.
//!
//! As the device does it: float on A2/A3 is one `Cast` float → float `CAST_RINT` over all
//! elements (no temporary space). Otherwise chunks of the temporary buffer under the counter
//! mask: float on 310P goes float → int32 (in the buffer) → float, so values beyond the int32
//! range saturate; half is widened into the buffer, rounded there (310P: through int32 in the
//! same bytes) and narrowed. A chunk is the buffer's bytes / 4 elements (310P half: / 8), in
//! whole 32-element units.

use super::cast_round::{float_pair, rounded_chunks, Float, SAME};
use crate::adv::common::{check_count, counter_loop, require, run, Tmp, A2_A3_310P};
use crate::api::vec::cast::cast_l0;
use crate::chip::Product;
use crate::error::{Result, SourceLoc};
use crate::numeric::RoundMode;
use crate::{Element, LocalTensor, MASK_PLACEHOLDER};

const API: &str = "Round";

/// `Round<T, isReuseSource>(dst, src, [sharedTmpBuffer,] calCount)`: `dst[i]` = `src[i]`
/// rounded to the nearest integer, ties to even, for the first `count` elements. `T`: half or
/// float. `tmp`: A2/A3 float none, half 256 bytes at least; 310P float 256, half 512
/// (`GetRoundMaxMinTmpSize`).
#[track_caller]
pub fn round<T: Element>(
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
        match (pair, p == Product::Ascend310P) {
            (Float::Single(d, s), false) => counter_loop::<f32>(count, count.max(1), |_| {
                cast_l0(&d, &s, RoundMode::CAST_RINT, MASK_PLACEHOLDER, 1, SAME)
            }),
            (half @ Float::Half(..), true) => {
                rounded_chunks(API, p, RoundMode::CAST_RINT, half, tmp, count, 8)
            }
            (pair, _) => rounded_chunks(API, p, RoundMode::CAST_RINT, pair, tmp, count, 4),
        }
    })
}

/// `GetRoundMaxMinTmpSize(ascendcPlatform, srcShape, typeSize, isReuseSource, maxValue,
/// minValue)`: `(max, min)` bytes on product `p` for `elements` elements of `type_size` bytes.
/// A2/A3: float none, half max(elements · 2, 256) and 256; 310P: float max(elements · 4, 256)
/// and 256, half 2 · max(elements · 2, 256) and 512.
pub fn round_max_min_tmp_size(p: Product, elements: u32, type_size: u32) -> (u32, u32) {
    let (float, half) = round_live(p);
    super::ceil::live_buffers(elements, type_size, float, half)
}

/// `GetRoundTmpBufferFactorSize(ascendcPlatform, typeSize, maxLiveNodeCount, extraBuf)` on
/// product `p`: `(maxLiveNodeCount, 0)`.
pub fn round_tmp_buffer_factor_size(p: Product, type_size: u32) -> (u32, u32) {
    let (float, half) = round_live(p);
    (if type_size == 4 { float } else { half }, 0)
}

/// Input-sized buffers Round needs on `p`, for float and for half.
fn round_live(p: Product) -> (u32, u32) {
    if p == Product::Ascend310P {
        (1, 2)
    } else {
        (0, 1)
    }
}
