//! The `ReduceType`-templated spellings `ReduceRepeat`, `ReduceDataBlock` and `ReducePairElem`
//! (the same instructions as WholeReduce*, BlockReduce* and PairReduceSum), and the special
//! registers reductions leave results in (`GetReduceRepeatMaxMinSpr`, `GetReduceRepeatSumSpr`).

use super::*;
use crate::api::vec::support::{MaxMinSprForm, MAX_MIN_SPR, SUM_SPR};

/// `ReduceType`: the operation of a ReduceRepeat / ReduceDataBlock / ReducePairElem.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum ReduceType {
    /// Sum (pairwise tree).
    SUM,
    /// Maximum.
    MAX,
    /// Minimum.
    MIN,
}

impl ReduceType {
    fn op(self) -> Op {
        match self {
            ReduceType::SUM => Op::Sum,
            ReduceType::MAX => Op::Max,
            ReduceType::MIN => Op::Min,
        }
    }
}

/// `ReduceRepeat<reduceType>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride,
/// order)`: one result per repeat (the sum, or the extreme with its lane index laid out by
/// `order`; `order` is ignored for SUM). Element types per product as the page lists them (half
/// only on the training series, also for SUM).
///
/// `mask`: lane count, `[low, high]` lane bits or `MASK_PLACEHOLDER`; `repeat_time` in [0, 255];
/// `dst_rep_stride` in units of one repeat's output (SUM: one element; MAX/MIN: see
/// [`ReduceOrder`]); `src_blk_stride`, `src_rep_stride` in 32-byte blocks.
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn reduce_repeat<T: ReduceElement>(
    reduce_type: ReduceType,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    mask: impl Into<Mask>,
    repeat_time: i32,
    dst_rep_stride: i32,
    src_blk_stride: i32,
    src_rep_stride: i32,
    order: ReduceOrder,
) -> Result<()> {
    let order = if reduce_type == ReduceType::SUM {
        ReduceOrder::ORDER_ONLY_VALUE
    } else {
        order
    };
    let form = Form {
        api: "ReduceRepeat",
        support: &support::REDUCE_OTHER,
        op: reduce_type.op(),
        group: Group::Repeat,
        order,
        contiguous_only: false,
    };
    level0(
        form,
        SourceLoc::caller(),
        dst,
        src,
        mask.into(),
        repeat_time,
        dst_rep_stride,
        src_blk_stride,
        src_rep_stride,
    )
}

/// `ReduceDataBlock<reduceType>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride,
/// srcRepStride)`: per repeat 8 results, the sum / maximum / minimum of each 32-byte block's
/// enabled lanes (the instruction of BlockReduceSum/Max/Min; note the mask comes before
/// `repeatTime`). `dst_rep_stride` in units of 8 elements; `src_blk_stride`, `src_rep_stride` in
/// 32-byte blocks.
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn reduce_data_block<T: ReduceElement>(
    reduce_type: ReduceType,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    mask: impl Into<Mask>,
    repeat_time: i32,
    dst_rep_stride: i32,
    src_blk_stride: i32,
    src_rep_stride: i32,
) -> Result<()> {
    level0(
        grouped("ReduceDataBlock", reduce_type.op(), Group::Block),
        SourceLoc::caller(),
        dst,
        src,
        mask.into(),
        repeat_time,
        dst_rep_stride,
        src_blk_stride,
        src_rep_stride,
    )
}

/// `ReducePairElem<ReduceType::SUM>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride,
/// srcRepStride)`: per repeat L/2 results, lane 2i + lane 2i+1 (the instruction of
/// PairReduceSum). Only SUM exists. `dst_rep_stride` in 128-byte units; `src_blk_stride`,
/// `src_rep_stride` in 32-byte blocks.
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn reduce_pair_elem<T: ReduceElement>(
    reduce_type: ReduceType,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    mask: impl Into<Mask>,
    repeat_time: i32,
    dst_rep_stride: i32,
    src_blk_stride: i32,
    src_rep_stride: i32,
) -> Result<()> {
    let loc = SourceLoc::caller();
    if reduce_type != ReduceType::SUM {
        return with_core("ReducePairElem", loc, |_| {
            Err(SimError::new(
                Category::Unsupported,
                "ReducePairElem",
                format!("template parameter `reduceType` = {reduce_type:?}: ReducePairElem supports ReduceType::SUM only"),
            ))
        });
    }
    level0(
        grouped("ReducePairElem", Op::Sum, Group::Pair),
        loc,
        dst,
        src,
        mask.into(),
        repeat_time,
        dst_rep_stride,
        src_blk_stride,
        src_rep_stride,
    )
}

fn spr_value<T: ReduceElement>(bits: u64) -> T {
    let b = bits.to_le_bytes();
    bytemuck::pod_read_unaligned(&b[..T::SIZE])
}

fn spr_type_check(
    api: &'static str,
    t: crate::dtype::DType,
    want: crate::dtype::DType,
) -> Result<()> {
    if t == want {
        Ok(())
    } else {
        Err(SimError::new(
            Category::Type,
            api,
            format!("template parameter `T` = {want} differs from the element type {t} of the reduction that set the register"),
        ))
    }
}

fn max_min_spr<T: ReduceElement>(api: &'static str, form: MaxMinSprForm) -> Result<(T, u64)> {
    let loc = SourceLoc::caller();
    with_core(api, loc, |core| {
        check_dtype(core, api, T::DTYPE, &support::REDUCE_SUM)?;
        let have = MAX_MIN_SPR[core.profile.product as usize];
        if have != Some(form) {
            let why = match have {
                None => "the product has no max/min register access".to_string(),
                Some(MaxMinSprForm::ValueOnly) => "the product has only the one-output form `GetReduceRepeatMaxMinSpr(maxMinValue)`".to_string(),
                Some(MaxMinSprForm::ValueIndex) => "the product has only the two-output form `GetReduceRepeatMaxMinSpr(maxMinValue, maxMinIndex)`".to_string(),
            };
            return Err(SimError::new(
                Category::Unsupported,
                api,
                format!("not supported on {}: {why}", core.profile.soc),
            ));
        }
        let Some(spr) = core.spr.max_min else {
            return Err(SimError::new(
                Category::QueueState,
                api,
                "no ReduceRepeat<MAX/MIN> (WholeReduceMax/Min) or ReduceMax/ReduceMin has run on this core: the register holds no result",
            ));
        };
        spr_type_check(api, spr.dtype, T::DTYPE)?;
        if !spr.contiguous {
            return Err(SimError::new(
                Category::Unsupported,
                api,
                "the last MAX/MIN reduction did not read its source contiguously (srcBlkStride = 1, srcRepStride = 8, normal mask mode): the register is only documented for that case",
            ));
        }
        core.issue(Pipe::S, api, loc, &[]);
        Ok((spr_value::<T>(spr.value_bits), spr.index))
    })
}

/// `GetReduceRepeatMaxMinSpr<T>(maxMinValue, maxMinIndex)` (A2/A3): the extreme over every repeat
/// of the last ReduceRepeat<MAX/MIN> (or WholeReduceMax/Min) and its index counted from the first
/// element read, stored as the raw bits of an unsigned integer in a `T` slot; after
/// ReduceMax/ReduceMin the value (the index is documented as not accurate there).
///
/// Errors: another product, no MAX/MIN reduction yet, `T` not the reduction's type, or a last
/// reduction that read non-contiguously or in counter mode (not documented).
#[track_caller]
pub fn get_reduce_repeat_max_min_spr<T: ReduceElement>() -> Result<(T, T)> {
    let (v, i) = max_min_spr::<T>("GetReduceRepeatMaxMinSpr", MaxMinSprForm::ValueIndex)?;
    Ok((v, T::index_slot(i.min(T::INDEX_MAX as u64) as u32)))
}

/// `GetReduceRepeatMaxMinSpr<T>(maxMinValue)` (the one-output form of the Atlas inference series):
/// the extreme over every repeat of the last MAX/MIN reduction. Errors as
/// [`get_reduce_repeat_max_min_spr`].
#[track_caller]
pub fn get_reduce_repeat_max_min_spr_value<T: ReduceElement>() -> Result<T> {
    Ok(max_min_spr::<T>("GetReduceRepeatMaxMinSpr", MaxMinSprForm::ValueOnly)?.0)
}

/// `GetReduceRepeatSumSpr<T>()` (A2/A3): the result of the last ReduceSum over the first `count`
/// elements. Errors: another product, no such ReduceSum yet, `T` not its type.
#[track_caller]
pub fn get_reduce_repeat_sum_spr<T: ReduceElement>() -> Result<T> {
    let api = "GetReduceRepeatSumSpr";
    let loc = SourceLoc::caller();
    with_core(api, loc, |core| {
        check_dtype(core, api, T::DTYPE, &SUM_SPR)?;
        let Some((t, bits)) = core.spr.sum else {
            return Err(SimError::new(
                Category::QueueState,
                api,
                "no ReduceSum over the first `count` elements has run on this core: the register holds no result",
            ));
        };
        spr_type_check(api, t, T::DTYPE)?;
        core.issue(Pipe::S, api, loc, &[]);
        Ok(spr_value::<T>(bits))
    })
}
