//! Which element types each vector operation accepts on each product (`vector-ops.md` tables).

use crate::chip::Product;
use crate::dtype::{DType, DTypeSet};

/// An operation's type support: one set per product (910, 310P, A2, A3, 310B).
#[derive(Debug, Clone, Copy)]
pub struct OpSupport {
    /// Types on each product, in [`Product`] order.
    pub per_product: [DTypeSet; 5],
}

impl OpSupport {
    /// The same set on 310P, A2, A3 and 310B, and `on_910` on the training series.
    pub const fn uniform(on_910: DTypeSet, others: DTypeSet) -> OpSupport {
        OpSupport {
            per_product: [on_910, others, others, others, others],
        }
    }

    /// Types supported on `p`.
    pub const fn types(&self, p: Product) -> DTypeSet {
        self.per_product[p as usize]
    }
}

use DType::*;

const H_I32_F: DTypeSet = DTypeSet::of(&[Half, Int32, Float]);
const I16_H_I32_F: DTypeSet = DTypeSet::of(&[Int16, Half, Int32, Float]);

/// Add, Sub, Mul, Max, Min.
pub const ARITH: OpSupport = OpSupport::uniform(H_I32_F, I16_H_I32_F);

const H: DTypeSet = DTypeSet::of(&[Half]);
const H_F: DTypeSet = DTypeSet::of(&[Half, Float]);

/// RepeatReduceSum, WholeReduceSum, ReduceSum: half and float everywhere (`reductions.md` §2, A8).
pub const REDUCE_SUM: OpSupport = OpSupport::uniform(H_F, H_F);
/// WholeReduceMax/Min, BlockReduce*, PairReduceSum, ReduceMax/Min: half only on 910.
pub const REDUCE_OTHER: OpSupport = OpSupport::uniform(H, H_F);

/// How the level-2 (count) `ReduceSum` combines its per-repeat sums (`reductions.md` §7.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CountSumOrder {
    /// One counter-mode instruction accumulating across repeats in order (A2/A3).
    Sequential,
    /// A tree of trees over the full repeats, then the separately reduced tail added last.
    BodyTail,
}

/// The reduction facts that differ per product (`reductions.md` §3–§7).
#[derive(Debug, Clone, Copy)]
pub struct ReduceRules {
    /// `ReduceOrder` values accepted, indexed by the order's number.
    pub orders: [bool; 4],
    /// Fully masked groups of BlockReduce*/PairReduceSum get a default value (SUM 0, MAX lowest,
    /// MIN highest) instead of keeping the destination.
    pub empty_group_default: bool,
    /// `dstRepStride = 0` is accepted by RepeatReduceSum/WholeReduceSum/PairReduceSum.
    pub dst_rep_stride_zero: bool,
    /// Level-2 `ReduceSum` summation order.
    pub count_sum: CountSumOrder,
}

impl ReduceRules {
    /// The rules of product `p`.
    pub const fn of(p: Product) -> &'static ReduceRules {
        &REDUCE_RULES[p as usize]
    }
}

/// Reduction rules in [`Product`] order (910, 310P, A2, A3, 310B).
pub const REDUCE_RULES: [ReduceRules; 5] = {
    const A2: ReduceRules = ReduceRules {
        orders: [true; 4],
        empty_group_default: false,
        dst_rep_stride_zero: true,
        count_sum: CountSumOrder::Sequential,
    };
    [
        ReduceRules {
            orders: [true, false, false, false],
            empty_group_default: false,
            dst_rep_stride_zero: false,
            count_sum: CountSumOrder::BodyTail,
        },
        ReduceRules {
            orders: [true, true, false, false],
            empty_group_default: false,
            dst_rep_stride_zero: true,
            count_sum: CountSumOrder::BodyTail,
        },
        A2,
        A2,
        ReduceRules {
            orders: [true, false, true, false],
            empty_group_default: true,
            dst_rep_stride_zero: true,
            count_sum: CountSumOrder::BodyTail,
        },
    ]
};
