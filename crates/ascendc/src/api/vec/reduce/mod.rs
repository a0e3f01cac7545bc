//! Reductions (`reductions.md`): the one-instruction forms RepeatReduceSum, WholeReduceSum/Max/Min,
//! BlockReduceSum/Max/Min and PairReduceSum, and the whole-tensor sequences ReduceSum/Max/Min that
//! use a work buffer (`sharedTmpBuffer`).
//!
//! Sums use the pairwise tree over lane positions (disabled lanes contribute +0), rounded to `T`
//! and — for half in saturation mode — saturated at every level. Max/Min select exactly and keep
//! the smallest index on ties.

mod engine;
mod reduce_type;
mod tree;
mod whole_tensor;

use super::support::{self, CountSumOrder, OpSupport, ReduceRules};
use super::{check_dtype, Count, Mask};
use crate::api::context::with_core;
use crate::api::tensor::LocalTensor;
use crate::core::spr::MaxMinSpr;
use crate::core::trace::{Access, Pipe, Space};
use crate::core::vector::{contiguous_mask_bits, for_lanes, Enable, Operand, Shape, BLOCK};
use crate::core::Core;
use crate::dtype::{f16, Element};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::numeric::Arith;
use crate::position::Hardware;
use engine::*;
pub use reduce_type::*;
use tree::*;
pub use whole_tensor::*;

/// Element types the reductions compute on (half and float).
pub trait ReduceElement: Arith + PartialOrd {
    /// +0.
    const ZERO: Self;
    /// What a MAX over an empty group writes on products that write defaults (−65504 / −inf).
    const MAX_DEFAULT: Self;
    /// What a MIN over an empty group writes on products that write defaults (+65504 / +inf).
    const MIN_DEFAULT: Self;
    /// Largest index a `T` slot can hold (65535 for half's uint16, 2^32 − 1 for float's uint32).
    const INDEX_MAX: u32;
    /// A `T` slot holding the raw bits of the unsigned index `i` (uint16 for half, uint32 for float).
    fn index_slot(i: u32) -> Self;
}

impl ReduceElement for f16 {
    const ZERO: Self = f16::ZERO;
    const MAX_DEFAULT: Self = f16::MIN;
    const MIN_DEFAULT: Self = f16::MAX;
    const INDEX_MAX: u32 = u16::MAX as u32;
    fn index_slot(i: u32) -> Self {
        f16::from_bits(i as u16)
    }
}

impl ReduceElement for f32 {
    const ZERO: Self = 0.0;
    const MAX_DEFAULT: Self = f32::NEG_INFINITY;
    const MIN_DEFAULT: Self = f32::INFINITY;
    const INDEX_MAX: u32 = u32::MAX;
    fn index_slot(i: u32) -> Self {
        f32::from_bits(i)
    }
}

/// `ReduceOrder`: what WholeReduceMax/Min write per repeat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum ReduceOrder {
    /// `[value, index]` (the default).
    ORDER_VALUE_INDEX = 0,
    /// `[index, value]`.
    ORDER_INDEX_VALUE = 1,
    /// `[value]`.
    ORDER_ONLY_VALUE = 2,
    /// `[index]` as a uint32, also for half.
    ORDER_ONLY_INDEX = 3,
}

impl ReduceOrder {
    /// Bytes written per repeat (also the `dstRepStride` unit and the dst alignment).
    fn bytes(self, size: usize) -> u64 {
        match self {
            ReduceOrder::ORDER_VALUE_INDEX | ReduceOrder::ORDER_INDEX_VALUE => 2 * size as u64,
            ReduceOrder::ORDER_ONLY_VALUE => size as u64,
            ReduceOrder::ORDER_ONLY_INDEX => 4,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Sum,
    Max,
    Min,
}

/// Lanes a group reduces: the whole repeat, one 32-byte block, or a pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Group {
    Repeat,
    Block,
    Pair,
}

/// One level-0 reduction instruction form.
#[derive(Debug, Clone, Copy)]
struct Form {
    api: &'static str,
    support: &'static OpSupport,
    op: Op,
    group: Group,
    order: ReduceOrder,
    /// `RepeatReduceSum`: contiguous mask only, parameter named `elemsInOneRepeat`.
    contiguous_only: bool,
}

const REPEAT_REDUCE_SUM: Form = Form {
    api: "RepeatReduceSum",
    support: &support::REDUCE_SUM,
    op: Op::Sum,
    group: Group::Repeat,
    order: ReduceOrder::ORDER_ONLY_VALUE,
    contiguous_only: true,
};

const fn whole(api: &'static str, op: Op, order: ReduceOrder) -> Form {
    Form {
        api,
        support: if matches!(op, Op::Sum) {
            &support::REDUCE_SUM
        } else {
            &support::REDUCE_OTHER
        },
        op,
        group: Group::Repeat,
        order,
        contiguous_only: false,
    }
}

const fn grouped(api: &'static str, op: Op, group: Group) -> Form {
    Form {
        api,
        support: &support::REDUCE_OTHER,
        op,
        group,
        order: ReduceOrder::ORDER_ONLY_VALUE,
        contiguous_only: false,
    }
}

/// `RepeatReduceSum<T, isSetMask>(dst, src, repeat, elemsInOneRepeat, dstBlkStride, srcBlkStride,
/// dstRepStride, srcRepStride)`: the pairwise-tree sum of the first `elems_in_one_repeat` lanes of
/// each of `repeat` repeats, one element per repeat.
///
/// `elems_in_one_repeat`: lanes per repeat ([1, 128] half, [1, 64] float), or `MASK_PLACEHOLDER`
/// for `isSetMask = false` (the current mask register and mode). `dst_blk_stride` is ignored.
/// `src_blk_stride` and `src_rep_stride` are in 32-byte blocks; `dst_rep_stride` in elements.
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn repeat_reduce_sum<T: ReduceElement>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    repeat: i32,
    elems_in_one_repeat: impl Into<Mask>,
    _dst_blk_stride: i32,
    src_blk_stride: i32,
    dst_rep_stride: i32,
    src_rep_stride: i32,
) -> Result<()> {
    level0(
        REPEAT_REDUCE_SUM,
        SourceLoc::caller(),
        dst,
        src,
        elems_in_one_repeat.into(),
        repeat,
        dst_rep_stride,
        src_blk_stride,
        src_rep_stride,
    )
}

/// `WholeReduceSum(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride)`: the
/// pairwise-tree sum of the enabled lanes of each repeat (disabled lanes count as +0 in place).
///
/// `mask`: lane count, `[low, high]` lane bits, or `MASK_PLACEHOLDER` (`isSetMask = false`).
/// `dst_rep_stride` in elements; `src_blk_stride`, `src_rep_stride` in 32-byte blocks.
#[track_caller]
pub fn whole_reduce_sum<T: ReduceElement>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    mask: impl Into<Mask>,
    repeat_time: i32,
    dst_rep_stride: i32,
    src_blk_stride: i32,
    src_rep_stride: i32,
) -> Result<()> {
    level0(
        whole("WholeReduceSum", Op::Sum, ReduceOrder::ORDER_ONLY_VALUE),
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

/// `WholeReduceMax(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, order)`:
/// per repeat the maximum of the enabled lanes and its lane index (smallest on ties), laid out by
/// `order`; the index is the raw bits of an unsigned integer in a `T` slot.
///
/// `dst_rep_stride` in units of one repeat's output (`order`: 2 slots, 1 slot or 4 bytes);
/// `src_blk_stride`, `src_rep_stride` in 32-byte blocks.
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn whole_reduce_max<T: ReduceElement>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    mask: impl Into<Mask>,
    repeat_time: i32,
    dst_rep_stride: i32,
    src_blk_stride: i32,
    src_rep_stride: i32,
    order: ReduceOrder,
) -> Result<()> {
    level0(
        whole("WholeReduceMax", Op::Max, order),
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

/// `WholeReduceMin(…)`: as [`whole_reduce_max`] with the minimum.
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn whole_reduce_min<T: ReduceElement>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    mask: impl Into<Mask>,
    repeat_time: i32,
    dst_rep_stride: i32,
    src_blk_stride: i32,
    src_rep_stride: i32,
    order: ReduceOrder,
) -> Result<()> {
    level0(
        whole("WholeReduceMin", Op::Min, order),
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

macro_rules! grouped_api {
    ($(#[$doc:meta])* $name:ident, $api:literal, $op:expr, $group:expr) => {
        $(#[$doc])*
        #[track_caller]
        pub fn $name<T: ReduceElement>(
            dst: &LocalTensor<T>,
            src: &LocalTensor<T>,
            repeat_time: i32,
            mask: impl Into<Mask>,
            dst_rep_stride: i32,
            src_blk_stride: i32,
            src_rep_stride: i32,
        ) -> Result<()> {
            level0(
                grouped($api, $op, $group),
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
    };
}

grouped_api!(
    /// `BlockReduceSum(dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride)`: per
    /// repeat 8 results, the pairwise-tree sum of each 32-byte block's enabled lanes.
    /// `dst_rep_stride` in units of 8 elements; `src_blk_stride`, `src_rep_stride` in 32-byte blocks.
    block_reduce_sum, "BlockReduceSum", Op::Sum, Group::Block
);
grouped_api!(
    /// `BlockReduceMax(…)`: as [`block_reduce_sum`] with the maximum of each block.
    block_reduce_max, "BlockReduceMax", Op::Max, Group::Block
);
grouped_api!(
    /// `BlockReduceMin(…)`: as [`block_reduce_sum`] with the minimum of each block.
    block_reduce_min, "BlockReduceMin", Op::Min, Group::Block
);
grouped_api!(
    /// `PairReduceSum(dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride)`: per
    /// repeat L/2 results, lane 2i + lane 2i+1. `dst_rep_stride` in units of 128 bytes;
    /// `src_blk_stride`, `src_rep_stride` in 32-byte blocks.
    pair_reduce_sum, "PairReduceSum", Op::Sum, Group::Pair
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{tbuf::TBuf, tpipe::TPipe};
    use crate::launch::Launch;
    use crate::position::QuePosition;
    use std::sync::Mutex;

    #[test]
    fn tree_pairs_neighbours_level_by_level() {
        // [a, b, c, d] → (a + b) + (c + d): 2048 + 1 ties to 2048 before 1 + 1 is added.
        let mut v = [2048.0, 1.0, 1.0, 0.0].map(f16::from_f32);
        assert_eq!(tree(&mut v, true).to_f32(), 2048.0);
        let mut v = [2048.0, 1.0, 1.0, 1.0].map(f16::from_f32);
        assert_eq!(tree(&mut v, true).to_f32(), 2050.0);
    }

    #[test]
    fn checker_work_formula() {
        // validation.md §2.7, half (E 16, L 128).
        assert_eq!(max_index_work(1, 16, 128), 2);
        assert_eq!(max_index_work(20, 16, 128), 50);
        // 100 repeats: it1 200, s2 208, it2 4, s3 A(212) = 224 → 226.
        assert_eq!(max_index_work(100, 16, 128), 226);
        // 8192 repeats: it2 = 2·128 = 256 > L → A(s3 + c(256)) + 2.
        let s3 = (16384 + 256u64).div_ceil(16) * 16;
        assert_eq!(
            max_index_work(8192, 16, 128),
            (s3 + 4).div_ceil(16) * 16 + 2
        );
    }

    /// Counter mode (set on the core directly, as `SetMaskCount` + `SetVectorMask` would):
    /// N = 130 halves run two repeats, the second with lanes 0 and 1 only.
    #[test]
    fn counter_mode_with_mask_placeholder() {
        let out = Mutex::new(Vec::new());
        let report = Launch::new(1)
            .run(|| {
                let mut pipe = TPipe::new();
                let mut buf = TBuf::<QuePosition::VECCALC>::new();
                pipe.init_buffer(&mut buf, 1, 4096)?;
                let src = buf.get_with_offset::<f16>(256, 0)?;
                let dst = buf.get_with_offset::<f16>(16, 1024)?;
                for i in 0..256 {
                    src.set_value(i, f16::from_f32(if i == 129 { 5.0 } else { 1.0 }))?;
                }
                let loc = SourceLoc::caller();
                with_core("test", loc, |core| {
                    core.vector.counter_mode = true;
                    core.vector.mask = [130, 0];
                    Ok(())
                })?;
                whole_reduce_sum(&dst, &src, Mask::Keep, 1, 1, 1, 8)?;
                let sums = [dst.get_value(0)?, dst.get_value(1)?];
                whole_reduce_max(
                    &dst,
                    &src,
                    Mask::Keep,
                    1,
                    1,
                    1,
                    8,
                    ReduceOrder::ORDER_VALUE_INDEX,
                )?;
                let mut v = sums.to_vec();
                v.extend(dst.to_vec()?[..4].iter().copied());
                // A contiguous mask in counter mode becomes a bit pattern: warned about.
                whole_reduce_sum(&dst, &src, 3, 1, 1, 1, 8)?;
                *out.lock().unwrap() = v;
                Ok(())
            })
            .unwrap();
        let v: Vec<u16> = out
            .into_inner()
            .unwrap()
            .iter()
            .map(|x| x.to_bits())
            .collect();
        let h = |x: f32| f16::from_f32(x).to_bits();
        assert_eq!(v, [h(128.0), h(6.0), h(1.0), 0, h(5.0), 1]);
        assert!(report.diagnostics().any(|d| d
            .message
            .contains("counter mode with the contiguous `mask` = 3")));
    }
}
