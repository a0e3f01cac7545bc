//! `ReduceXorSum` (归约操作/ReduceXorSum): the sum of `src0 ^ src1` over `calCount` int16
//! elements, as `(x | y) & ~(x & y)`, summed in float by the basic `ReduceSum` and cast back to
//! int16. A2, A3 and the Atlas inference series (which goes through half both ways).

use crate::adv::common::{barrier_v, check_count, require, run, Tmp, A2_A3_310P};
use crate::api::vec::binary::{and_l0, or_l0};
use crate::api::vec::cast::{cast_l0, CastType};
use crate::api::vec::mask::{reset_mask, set_mask_count, set_mask_norm, set_vector_mask};
use crate::api::vec::reduce::reduce_sum;
use crate::api::vec::unary::not_l0;
use crate::chip::Product;
use crate::dtype::{DType, Element};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::numeric::RoundMode;
use crate::{f16, BinaryRepeatParams, LocalTensor, MaskMode, UnaryRepeatParams, MASK_PLACEHOLDER};

const API: &str = "ReduceXorSum";
const BINARY: BinaryRepeatParams = BinaryRepeatParams::new(1, 1, 1, 8, 8, 8);
const UNARY: UnaryRepeatParams = UnaryRepeatParams::new(1, 1, 8, 8);

/// `Cast<D, S, false>(dst, src, mode, MASK_PLACEHOLDER, 1, {1, 1, dstRep, srcRep})`.
fn cast<D: CastType, S: CastType>(
    dst: &LocalTensor<D>,
    src: &LocalTensor<S>,
    mode: RoundMode,
    reps: (u8, u8),
) -> Result<()> {
    let params = UnaryRepeatParams::new(1, 1, reps.0, reps.1);
    cast_l0(dst, src, mode, MASK_PLACEHOLDER, 1, params)
}

/// `ReduceXorSum<T, isReuseSource>(dst, src0, src1, [sharedTmpBuffer,] calCount)`: `dst[0]` =
/// Σ `src0[i] ^ src1[i]` for `i < calCount`, accumulated in float and rounded back to int16.
/// `T`: int16_t; A2, A3, 310P. The temporary buffer is split in three (two with
/// `reuse_source`, which then uses `src1` as `ReduceSum`'s work space) parts of at least
/// `calCount` elements: `reduce_xor_sum_max_min_tmp_size` bytes.
#[track_caller]
pub fn reduce_xor_sum<T: Element>(
    dst: &LocalTensor<T>,
    src0: &LocalTensor<T>,
    src1: &LocalTensor<T>,
    tmp: Tmp,
    reuse_source: bool,
    count: u32,
) -> Result<()> {
    run(API, SourceLoc::caller(), || {
        let product = require(API, A2_A3_310P)?;
        if T::DTYPE != DType::Int16 {
            return Err(SimError::new(
                Category::Type,
                API,
                format!(
                    "T = {} is not supported: ReduceXorSum takes int16_t",
                    T::DTYPE
                ),
            ));
        }
        check_count(
            API,
            count,
            &[
                ("src0Tensor", src0.get_size()),
                ("src1Tensor", src1.get_size()),
            ],
        )?;
        let buf = tmp.buffer(API)?;
        let parts = if reuse_source { 2 } else { 3 };
        let split = buf.get_size() / 2 / parts / 32 * 32;
        if split < count {
            return Err(SimError::new(
                Category::Size,
                API,
                format!(
                    "sharedTmpBuffer of {} bytes is too small: its {parts} parts hold {split} elements each, fewer than calCount = {count} (GetReduceXorSumMaxMinTmpSize)",
                    buf.get_size()
                ),
            ));
        }
        let (d, a, b) = (
            dst.reinterpret_cast::<i16>(),
            src0.reinterpret_cast::<i16>(),
            src1.reinterpret_cast::<i16>(),
        );
        let t1 = buf.reinterpret_cast::<i16>();
        let t2 = t1.at(split)?;
        let t3 = if reuse_source { b } else { t2.at(split)? };
        set_mask_count()?;
        set_vector_mask::<i16>(MaskMode::COUNTER, count)?;
        and_l0(&t1, &a, &b, MASK_PLACEHOLDER, 1, BINARY)?;
        or_l0(&t2, &a, &b, MASK_PLACEHOLDER, 1, BINARY)?;
        barrier_v()?;
        not_l0(&t1, &t1, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        and_l0(&t2, &t1, &t2, MASK_PLACEHOLDER, 1, BINARY)?;
        barrier_v()?;
        let sum = t1.reinterpret_cast::<f32>();
        let v200 = product == Product::Ascend310P;
        if v200 {
            cast(
                &t2.reinterpret_cast::<f16>(),
                &t2,
                RoundMode::CAST_NONE,
                (8, 8),
            )?;
            barrier_v()?;
            cast(
                &sum,
                &t2.reinterpret_cast::<f16>(),
                RoundMode::CAST_NONE,
                (8, 4),
            )?;
        } else {
            cast(&sum, &t2, RoundMode::CAST_NONE, (8, 4))?;
        }
        barrier_v()?;
        set_mask_norm()?;
        reset_mask()?;
        reduce_sum(&sum, &sum, &t3.reinterpret_cast::<f32>(), count)?;
        barrier_v()?;
        set_mask_count()?;
        set_vector_mask::<i16>(MaskMode::COUNTER, 1u32)?;
        if v200 {
            cast(
                &d.reinterpret_cast::<f16>(),
                &sum,
                RoundMode::CAST_NONE,
                (4, 8),
            )?;
            barrier_v()?;
            cast(
                &d,
                &d.reinterpret_cast::<f16>(),
                RoundMode::CAST_RINT,
                (8, 8),
            )?;
        } else {
            cast(&d, &sum, RoundMode::CAST_ROUND, (4, 8))?;
        }
        barrier_v()?;
        set_mask_norm()?;
        reset_mask()
    })
}

/// `GetReduceXorSumMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue)`:
/// `(max, min)` bytes, `3 · max(n · typeSize, 256)` (2 with `isReuseSource`) for `n` elements.
pub fn reduce_xor_sum_max_min_tmp_size(n: u32, type_size: u32, reuse_source: bool) -> (u32, u32) {
    let parts = if reuse_source { 2 } else { 3 };
    let v = parts * (n * type_size).max(256);
    (v, v)
}
