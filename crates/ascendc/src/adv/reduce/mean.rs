//! `Mean` (归约操作/Mean): the mean of each row's first `n` elements. half (accumulated in half
//! or float) and float; A2, A3 and 310P.
//!
//! As the device does it, in counter mode. Same-type: each row is summed as [`Sum`](super::sum())
//! does (one `RepeatReduceSum` per 256-byte repeat, then over the partial sums), and after all
//! rows `Muls` by `T(1.0f / n)` scales the `outter` results. half with float accumulation: each
//! row is widened to float in the temporary buffer (`Cast`), summed in float after it,
//! multiplied by `1.0f / n`, narrowed to half and moved to `dst[row]` by a one-element
//! `RepeatReduceSum`.

use super::sum::{check_shape, check_tmp, count, reduce_once, SumParams};
use crate::adv::common::{barrier_v, require, run, Tmp, A2_A3_310P};
use crate::api::vec::cast::cast_l0;
use crate::api::vec::mask::{reset_mask, set_mask_count, set_mask_norm};
use crate::api::vec::reduce::ReduceElement;
use crate::api::vec::scalar::muls_l0;
use crate::dtype::{DType, Element};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::numeric::RoundMode;
use crate::{f16, LocalTensor, UnaryRepeatParams, MASK_PLACEHOLDER};

const API: &str = "Mean";

/// half → float: the half source advances 4 blocks per repeat (`{1, 1, 8, 4}`).
const WIDEN: UnaryRepeatParams = UnaryRepeatParams::new(1, 1, 8, 4);
/// float → half: the half destination advances 4 blocks per repeat (`{1, 1, 4, 8}`).
const NARROW: UnaryRepeatParams = UnaryRepeatParams::new(1, 1, 4, 8);

/// `MeanParams`: the same fields as [`SumParams`].
pub type MeanParams = SumParams;

/// `Mean<T, accType, isReuseSource, isBasicBlock, reduceDim>(dst, src, [sharedTmpBuffer,]
/// meanParams)`: `dst[r] = (Σ_{j<n} src[r · inner + j]) · (1 / n)`. `T`/`Acc`: half/half,
/// float/float or half/float. Temporary space as `GetMeanMaxMinTmpSize` computes it (the
/// rows' partial sums; with float accumulation also a float copy of one row).
#[track_caller]
pub fn mean<T: Element, Acc: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: Tmp,
    params: MeanParams,
) -> Result<()> {
    run(API, SourceLoc::caller(), || {
        require(API, A2_A3_310P)?;
        check_shape(API, dst, src, &params)?;
        let buf = tmp.buffer(API)?;
        match (T::DTYPE, Acc::DTYPE) {
            (DType::Half, DType::Float) => {
                mean_widened(&dst.reinterpret_cast(), &src.reinterpret_cast(), &buf, params)
            }
            (DType::Half, DType::Half) => {
                same::<f16>(&dst.reinterpret_cast(), &src.reinterpret_cast(), &buf, params)
            }
            (DType::Float, DType::Float) => {
                same::<f32>(&dst.reinterpret_cast(), &src.reinterpret_cast(), &buf, params)
            }
            (t, a) => Err(SimError::new(
                Category::Type,
                API,
                format!("T = {t} with accType = {a} is not supported: half/half, float/float or half/float"),
            )),
        }
    })
}

/// `1.0f / (float)(int32_t)n`.
fn reciprocal(n: u32) -> f32 {
    1.0 / (n as i32) as f32
}

fn same<T: ReduceElement>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    buf: &LocalTensor<u8>,
    p: MeanParams,
) -> Result<()> {
    let per_rep = 256 / T::SIZE as u32;
    let repeats = p.n.div_ceil(per_rep);
    let scale = T::from_f64(reciprocal(p.n) as f64);
    set_mask_count()?;
    if repeats == 1 {
        count::<T>(p.n)?;
        for row in 0..p.outter {
            reduce_once(&dst.at(row)?, &src.at(row * p.inner)?)?;
        }
        barrier_v()?;
        count::<T>(p.outter)?;
        muls_l0(
            dst,
            dst,
            scale,
            MASK_PLACEHOLDER,
            1,
            UnaryRepeatParams::default(),
        )?;
        set_mask_norm()?;
        return reset_mask();
    }
    check_tmp(API, buf, (repeats * T::SIZE as u32).div_ceil(32) * 32)?;
    let work = buf.reinterpret_cast::<T>();
    for row in 0..p.outter {
        count::<T>(p.n)?;
        reduce_once(&work, &src.at(row * p.inner)?)?;
        barrier_v()?;
        let mut left = repeats;
        while left > 1 {
            count::<T>(left)?;
            left = left.div_ceil(per_rep);
            if left == 1 {
                reduce_once(&dst.at(row)?, &work)?;
            } else {
                reduce_once(&work, &work)?;
            }
            barrier_v()?;
        }
    }
    count::<T>(p.outter)?;
    muls_l0(
        dst,
        dst,
        scale,
        MASK_PLACEHOLDER,
        1,
        UnaryRepeatParams::default(),
    )?;
    set_mask_norm()
}

/// half rows accumulated in float (`MeanCast`).
fn mean_widened(
    dst: &LocalTensor<f16>,
    src: &LocalTensor<f16>,
    buf: &LocalTensor<u8>,
    p: MeanParams,
) -> Result<()> {
    let repeats = p.n.div_ceil(64);
    check_tmp(API, buf, (p.inner + repeats.div_ceil(8) * 8) * 4)?;
    let scale = reciprocal(p.n);
    let wide = buf.reinterpret_cast::<f32>();
    let narrow = buf.reinterpret_cast::<f16>();
    let acc = wide.at(p.inner)?;
    set_mask_count()?;
    for row in 0..p.outter {
        count::<f16>(p.n)?;
        cast_l0(
            &wide,
            &src.at(row * p.inner)?,
            RoundMode::CAST_NONE,
            MASK_PLACEHOLDER,
            1,
            WIDEN,
        )?;
        barrier_v()?;
        reduce_once(&acc, &wide)?;
        barrier_v()?;
        let mut left = repeats;
        while left > 1 {
            count::<f16>(left)?;
            left = left.div_ceil(64);
            reduce_once(&acc, &acc)?;
            barrier_v()?;
        }
        count::<f16>(1)?;
        muls_l0(
            &acc,
            &acc,
            scale,
            MASK_PLACEHOLDER,
            1,
            UnaryRepeatParams::default(),
        )?;
        barrier_v()?;
        cast_l0(
            &narrow,
            &acc,
            RoundMode::CAST_NONE,
            MASK_PLACEHOLDER,
            1,
            NARROW,
        )?;
        barrier_v()?;
        reduce_once(&dst.at(row)?, &narrow)?;
    }
    set_mask_norm()?;
    reset_mask()
}

/// `GetMeanMaxMinTmpSize(n, srcTypeSize, accTypeSize, isReuseSource, maxSize, minSize)`:
/// `(max, min)` bytes, both `⌈⌈n / (256 / size)⌉ / 32⌉ · 32` (`size` the accumulation type's),
/// plus `inner · 4` for half accumulated in float.
pub fn mean_max_min_tmp_size(n: u32, src_type_size: u32, acc_type_size: u32) -> (u32, u32) {
    if src_type_size == 0 || src_type_size > 32 {
        return (0, 0);
    }
    let inner = (n * src_type_size).div_ceil(32) * 32 / src_type_size;
    let bytes = if src_type_size == 2 && acc_type_size == 4 {
        n.div_ceil(64).div_ceil(32) * 32 + inner * 4
    } else {
        n.div_ceil(256 / src_type_size).div_ceil(32) * 32
    };
    (bytes, bytes)
}

/// `GetMeanTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuffer)`: `(1, 0)`.
pub fn mean_tmp_buffer_factor_size(_type_size: u32) -> (u32, u32) {
    (1, 0)
}
