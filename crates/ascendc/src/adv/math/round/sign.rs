//! `Sign` (数学计算/Sign): −1, 0 or 1 by the sign of each element (0 for ±0 and NaN). half and
//! float; A2, A3 and 310P.
//!
//! As the device does it, per chunk under the counter mask: zeros into the destination, two
//! `Compare`s of the source with them (`LT`, `GT`) into bit masks, two `Select`s against the
//! scalar in CMPMASK (`1` where not negative, `−1` where not positive), and their `Add`. The
//! temporary buffer holds the two bit masks (each a whole number of 32-byte blocks) and two
//! chunks of `T`: a chunk is the buffer's bytes / sizeof(T) / 3, in whole 32-element units. The
//! `Compare`s run level-0 with whole repeats: in normal mask mode on 310P, in counter mode (where
//! their mask is reserved) on A2/A3.

use super::cast_round::bad_type;
use crate::adv::common::{
    barrier_v, check_count, counter_loop, require, run, split_count, Tmp, A2_A3_310P, ONE_BLK_SIZE,
    ONE_REPEAT_BYTES,
};
use crate::api::vec::binary::add_l0;
use crate::api::vec::cmp_mask::{select_cmp_mask_scalar, set_cmp_mask, CmpMaskElem};
use crate::api::vec::compare::compare_l0;
use crate::api::vec::duplicate::duplicate_l0;
use crate::api::vec::mask::{reset_mask, set_mask_count, set_mask_norm, set_vector_mask};
use crate::chip::Product;
use crate::dtype::DType;
use crate::error::{Result, SourceLoc};
use crate::numeric::Arith;
use crate::{f16, BinaryRepeatParams, Element, LocalTensor, MaskMode, CMPMODE, MASK_PLACEHOLDER};

const API: &str = "Sign";

/// `Sign<T, isReuseSource>(dst, src, [sharedTmpBuffer,] [calCount])`: `dst[i]` = −1, 0 or 1 as
/// `src[i]` is negative, zero (or NaN) or positive, for the first `count` elements. `T`: half or
/// float. `tmp`: 3 · 256 bytes at least (`GetSignMaxMinTmpSize`).
#[track_caller]
pub fn sign<T: Element>(
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
        let normal = require(API, A2_A3_310P)? == Product::Ascend310P;
        match T::DTYPE {
            DType::Half => signs::<f16>(
                &dst.reinterpret_cast(),
                &src.reinterpret_cast(),
                tmp,
                count,
                normal,
                [f16::from_f32(1.0), f16::from_f32(-1.0)],
            ),
            DType::Float => signs::<f32>(
                &dst.reinterpret_cast(),
                &src.reinterpret_cast(),
                tmp,
                count,
                normal,
                [1.0, -1.0],
            ),
            other => Err(bad_type(API, other, "half or float")),
        }
    })
}

/// The chunk loop; `ones` is `T`'s 1 and −1; `normal`: the `Compare`s run in normal mask mode
/// (310P).
fn signs<T: Arith + CmpMaskElem>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: Tmp,
    count: u32,
    normal: bool,
    [one, minus_one]: [T; 2],
) -> Result<()> {
    let buf = tmp.buffer(API)?;
    let size = T::SIZE as u32;
    let split = split_count(API, buf.get_size(), size * 3)?;
    let mask_len = (split / 8).div_ceil(ONE_BLK_SIZE) * ONE_BLK_SIZE;
    let (neg, pos) = (buf, buf.at(mask_len)?);
    let scalar = buf.at(mask_len * 2)?.reinterpret_cast::<T>();
    let picked = scalar.at(split)?;
    counter_loop::<T>(count, split, |at| {
        let n = split.min(count - at);
        let repeats = (n * size).div_ceil(ONE_REPEAT_BYTES) as u8;
        let (d, s) = (dst.at(at)?, src.at(at)?);
        let params = BinaryRepeatParams::default();
        duplicate_l0(&d, T::default(), MASK_PLACEHOLDER, 1, 1, 8)?;
        barrier_v()?;
        // On A2/A3 the Compares stay in counter mode, where their mask is reserved: whole
        // repeats either way.
        if normal {
            set_mask_norm()?;
            reset_mask()?;
        }
        compare_l0(&neg, &s, &d, CMPMODE::LT, MASK_PLACEHOLDER, repeats, params)?;
        compare_l0(&pos, &s, &d, CMPMODE::GT, MASK_PLACEHOLDER, repeats, params)?;
        if normal {
            set_mask_count()?;
            set_vector_mask::<T>(MaskMode::COUNTER, n as u64)?;
        }
        duplicate_l0(&scalar, one, MASK_PLACEHOLDER, 1, 1, 8)?;
        barrier_v()?;
        set_cmp_mask(&scalar)?;
        select_cmp_mask_scalar(&picked, &neg, &d, 1, params)?;
        barrier_v()?;
        duplicate_l0(&scalar, minus_one, MASK_PLACEHOLDER, 1, 1, 8)?;
        barrier_v()?;
        set_cmp_mask(&scalar)?;
        select_cmp_mask_scalar(&d, &pos, &d, 1, params)?;
        barrier_v()?;
        add_l0(&d, &picked, &d, MASK_PLACEHOLDER, 1, params)?;
        barrier_v()
    })
}

/// `GetSignMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue)`: `(max, min)`
/// bytes: 3 · max(elements · typeSize, 256) and 3 · 256.
pub fn sign_max_min_tmp_size(elements: u32, type_size: u32) -> (u32, u32) {
    let min = 3 * 256;
    ((3 * elements * type_size).max(min), min)
}

/// `GetSignTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuffer)`: `(3, 0)`.
pub fn sign_tmp_buffer_factor_size(_type_size: u32) -> (u32, u32) {
    (3, 0)
}
