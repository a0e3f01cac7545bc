//! Special registers that vector instructions leave results in: the extreme value and index of
//! the last `vcmax`/`vcmin` (ReduceRepeat<MAX/MIN>, ReduceMax/Min), the last ReduceSum result and
//! the element count kept by the last GatherMask, the 128-bit CMPMASK register and the
//! quantisation forms of the DEQSCALE register.

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

/// The special registers of one core.
#[derive(Debug, Clone, Copy, Default)]
pub struct SpecialRegs {
    /// Max/min register; `None` until a MAX/MIN reduction ran.
    pub max_min: Option<MaxMinSpr>,
    /// The last level-2 ReduceSum result: element type and raw bits; `None` until one ran.
    pub sum: Option<(DType, u64)>,
    /// Elements kept by the last GatherMask; `None` until one ran.
    pub gather_mask_count: Option<u64>,
    /// CMPMASK: 128 bits, little-endian bytes (bit `k` is bit `k % 8` of byte `k / 8`); written
    /// by `Compare` (register form) and `SetCmpMask`, read by `GetCmpMask` and the `Select` forms
    /// without a `selMask` tensor.
    pub cmp_mask: [u8; 16],
    /// What the last `SetDeqScale` put in DEQSCALE; the half factor itself lives in
    /// [`VectorState::deq_scale`](super::vector::VectorState).
    pub deq: DeqScaleReg,
}

/// The DEQSCALE register by the `SetDeqScale` form that last wrote it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum DeqScaleReg {
    /// Never written: the reset factor 1.0 of the half form applies.
    #[default]
    Reset,
    /// `SetDeqScale(half scale)`: bits 0–15.
    Half,
    /// `SetDeqScale(float scale, int16_t offset, bool signMode)`: the raw 64-bit word (scale in
    /// bits 0–31, offset in bits 37–45, signMode in bit 46).
    Quant(u64),
    /// `SetDeqScale(vdeq, vdeqInfo)`: the UB byte address of the 16 quantisation words.
    Vector(u32),
}
