//! Special registers that vector instructions leave results in: the extreme value and index of
//! the last `vcmax`/`vcmin` (ReduceRepeat<MAX/MIN>, ReduceMax/Min), the last ReduceSum result and
//! the element count kept by the last GatherMask, and the per-list counts of the last
//! MrgSort / MrgSort4.

use crate::dtype::DType;

/// What the last MAX/MIN reduction left in the max/min register.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MaxMinSpr {
    /// Element type of the reduction.
    pub dtype: DType,
    /// Raw bits of the extreme value (low `size` bytes).
    pub value_bits: u64,
    /// Index of the extreme among the elements the instruction read (smallest on ties).
    pub index: u64,
    /// The instruction read its source contiguously (`srcBlkStride` 1, `srcRepStride` 8,
    /// normal mask mode): the only case the register is documented for.
    pub contiguous: bool,
}

/// What the last MrgSort / MrgSort4 left in its merge-count register.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MrgSortSpr {
    /// Items taken from each of the four lists (0 for lists outside `validBit`).
    pub counts: [u16; 4],
    /// The merge ran with `ifExhaustedSuspension = true` (the only mode the counts are
    /// documented for).
    pub exhausted_suspension: bool,
}

/// The special registers of one core.
#[derive(Debug, Clone, Copy, Default)]
pub struct SpecialRegs {
    /// Max/min register; `None` until a MAX/MIN reduction ran.
    pub max_min: Option<MaxMinSpr>,
    /// The last level-2 ReduceSum result: element type and raw bits; `None` until one ran.
    pub sum: Option<(DType, u64)>,
    /// Elements kept by the last GatherMask; `None` until one ran.
    pub gather_mask_count: Option<u64>,
    /// Counts of the last MrgSort / MrgSort4; `None` until one ran.
    pub mrg_sort: Option<MrgSortSpr>,
}
