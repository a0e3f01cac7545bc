//! `Sum` (归约操作/Sum): the sum of each row's first `n` elements. half and float; A2, A3 and
//! 310P.
//!
//! As the device does it, in counter mode: `RepeatReduceSum` over the row's `n` elements leaves
//! one pairwise-tree sum per 256-byte repeat in the temporary buffer; the partial sums are
//! reduced again in place until one remains, the last pass writing `dst[row]`. A row of at most
//! one repeat is reduced straight into `dst`.

use crate::adv::common::{barrier_v, require, run, Tmp, A2_A3_310P};
use crate::api::vec::mask::{reset_mask, set_mask_count, set_mask_norm, set_vector_mask};
use crate::api::vec::reduce::{repeat_reduce_sum, ReduceElement};
use crate::dtype::{DType, Element};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::{f16, LocalTensor, Mask, MaskMode, MASK_PLACEHOLDER};

const API: &str = "Sum";

/// `SumParams` (also `MeanParams`): the shape of the source, `outter` rows of `inner` elements
/// (32-byte aligned) of which the first `n` are reduced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SumParams {
    /// Rows.
    pub outter: u32,
    /// Elements per row in memory: `n` rounded up to 32 bytes.
    pub inner: u32,
    /// Elements per row that are reduced, in `[1, inner]`.
    pub n: u32,
}

/// The shape checks Sum and Mean make: `T` half or float, `1 ≤ n ≤ inner`, `inner` a whole
/// number of 32-byte blocks, and the tensors large enough.
pub(crate) fn check_shape<T: Element>(
    api: &'static str,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    p: &SumParams,
) -> Result<()> {
    let err = |cat, msg: String| Err(SimError::new(cat, api, msg));
    if !matches!(T::DTYPE, DType::Half | DType::Float) {
        return err(
            Category::Type,
            format!(
                "T = {} is not supported: {api} takes half or float",
                T::DTYPE
            ),
        );
    }
    if p.n == 0 || p.n > p.inner {
        return err(
            Category::Range,
            format!("n = {} must be in [1, inner = {}]", p.n, p.inner),
        );
    }
    if !(p.inner * T::SIZE as u32).is_multiple_of(32) {
        return err(
            Category::Align,
            format!(
                "inner = {} elements is not a whole number of 32-byte blocks: inner = (n · sizeof(T) + 31) / 32 · 32 / sizeof(T)",
                p.inner
            ),
        );
    }
    if p.outter as u64 * p.inner as u64 > src.get_size() as u64 {
        return err(
            Category::Size,
            format!(
                "srcTensor holds {} elements, fewer than outter · inner = {} · {}",
                src.get_size(),
                p.outter,
                p.inner
            ),
        );
    }
    if p.outter > dst.get_size() {
        return err(
            Category::Size,
            format!(
                "dstTensor holds {} elements, fewer than outter = {}",
                dst.get_size(),
                p.outter
            ),
        );
    }
    Ok(())
}

/// An error unless `tmp` holds `need` bytes.
pub(crate) fn check_tmp(api: &'static str, tmp: &LocalTensor<u8>, need: u32) -> Result<()> {
    if tmp.get_size() < need {
        return Err(SimError::new(
            Category::Size,
            api,
            format!(
                "sharedTmpBuffer of {} bytes is too small: this shape needs {need} bytes (Get{api}MaxMinTmpSize)",
                tmp.get_size()
            ),
        ));
    }
    Ok(())
}

/// `RepeatReduceSum<T, false>(dst, src, 1, MASK_PLACEHOLDER, 1, 1, 1, 8)` under the counter.
pub(crate) fn reduce_once<T: ReduceElement>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
) -> Result<()> {
    repeat_reduce_sum(dst, src, 1, MASK_PLACEHOLDER, 1, 1, 1, 8)
}

/// `SetVectorMask<T>(0, n)`: in counter mode, the element count `n`.
pub(crate) fn count<T: Element>(n: u32) -> Result<()> {
    set_vector_mask::<T>(MaskMode::NORMAL, Mask::Bits([n as u64, 0]))
}

/// `Sum<T, reduceDim, isReuseSource, isBasicBlock>(dst, src, [sharedTmpBuffer,] sumParams)`:
/// `dst[r] = Σ src[r · inner + j]` for `j < n`, `r < outter`, summed as a pairwise tree per
/// 256-byte repeat and then over the partial sums. `T`: half or float. Temporary space:
/// `⌈⌈n / (256 / sizeof(T))⌉ · sizeof(T) / 32⌉ · 32` bytes (`GetSumMaxMinTmpSize`).
#[track_caller]
pub fn sum<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: Tmp,
    params: SumParams,
) -> Result<()> {
    run(API, SourceLoc::caller(), || {
        require(API, A2_A3_310P)?;
        check_shape(API, dst, src, &params)?;
        let buf = tmp.buffer(API)?;
        if T::DTYPE == DType::Half {
            typed::<f16>(
                &dst.reinterpret_cast(),
                &src.reinterpret_cast(),
                &buf,
                params,
            )
        } else {
            typed::<f32>(
                &dst.reinterpret_cast(),
                &src.reinterpret_cast(),
                &buf,
                params,
            )
        }
    })
}

fn typed<T: ReduceElement>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    buf: &LocalTensor<u8>,
    p: SumParams,
) -> Result<()> {
    let per_rep = 256 / T::SIZE as u32;
    let first_repeats = p.n.div_ceil(per_rep);
    set_mask_count()?;
    if first_repeats == 1 {
        count::<T>(p.n)?;
        for row in 0..p.outter {
            reduce_once(&dst.at(row)?, &src.at(row * p.inner)?)?;
        }
        set_mask_norm()?;
        return reset_mask();
    }
    check_tmp(API, buf, sum_max_min_tmp_size(p.n, T::SIZE as u32).1)?;
    let mut passes = 1;
    let mut left = first_repeats;
    while left > 1 {
        passes += 1;
        left = left.div_ceil(per_rep);
    }
    let work = buf.reinterpret_cast::<T>();
    for row in 0..p.outter {
        let mut len = p.n;
        count::<T>(len)?;
        reduce_once(&work, &src.at(row * p.inner)?)?;
        barrier_v()?;
        len = len.div_ceil(per_rep);
        for pass in (1..passes).rev() {
            count::<T>(len)?;
            if pass == 1 {
                reduce_once(&dst.at(row)?, &work)?;
            } else {
                reduce_once(&work, &work)?;
            }
            barrier_v()?;
            len = len.div_ceil(per_rep);
        }
    }
    set_mask_norm()
}

/// `GetSumMaxMinTmpSize(n, typeSize, isReuseSource, maxValue, minValue)`: `(max, min)` bytes of
/// temporary space for rows of `n` elements of `type_size` bytes, both
/// `⌈⌈n / (256 / typeSize)⌉ / (32 / typeSize)⌉ · 32`.
pub fn sum_max_min_tmp_size(n: u32, type_size: u32) -> (u32, u32) {
    if type_size == 0 || type_size > 32 {
        return (0, 0);
    }
    let per_blk = 32 / type_size;
    let repeats = n.div_ceil(256 / type_size);
    let bytes = repeats.div_ceil(per_blk) * per_blk * type_size;
    (bytes, bytes)
}
