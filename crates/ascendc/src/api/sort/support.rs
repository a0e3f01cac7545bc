//! Which products and element types each sorting API accepts (the products tables of the
//! 排序组合 pages), and the per-product facts of the merges.

use super::high_level::SortLayout;
use crate::api::vec::support::OpSupport;
use crate::dtype::{DType, DTypeSet};

const NONE: DTypeSet = DTypeSet::EMPTY;
const H: DTypeSet = DTypeSet::of(&[DType::Half]);
const H_F: DTypeSet = DTypeSet::of(&[DType::Half, DType::Float]);

/// Sort32 and MrgSort ((score, index) pairs): A2, A3 and 310B, half and float.
pub const PAIRS: OpSupport = OpSupport::per_family(NONE, NONE, H_F, H_F);

/// ProposalConcat, ProposalExtract, RpSort16 and MrgSort4 (region proposals): half on the
/// training series, half and float on the inference series AI Core.
pub const PROPOSALS: OpSupport = OpSupport::per_family(H, H_F, NONE, NONE);

/// GetMrgSortResult, per product (910, 310P, A2, A3, 310B): every product with a merge except
/// the training series.
pub const MRG_SORT_RESULT: [bool; 5] = [false, true, true, true, true];

/// The layout of the high-level Sort / Concat / Extract / MrgSort / GetSortOffset / GetSortLen
/// per product (910, 310P, A2, A3, 310B); `None` where the pages list no support.
pub const HIGH_LEVEL: [Option<SortLayout>; 5] = [
    None,
    Some(SortLayout::Proposals),
    Some(SortLayout::Pairs),
    Some(SortLayout::Pairs),
    None,
];
