//! Special registers that vector instructions leave results in: the extreme value and index of
//! the last `vcmax`/`vcmin` (ReduceRepeat<MAX/MIN>, ReduceMax/Min), the last ReduceSum result and
//! the element count kept by the last GatherMask, the per-list counts of the last MrgSort /
//! MrgSort4, the 128-bit CMPMASK register, the quantisation forms of the DEQSCALE register; and
//! the control-register bits that are not
//! vector-unit state (the conversion overflow mode; `CTRL[48]` lives in the vector state).

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
    /// The conversion overflow mode of Cast.
    pub cast_overflow: CastOverflow,
    /// CMPMASK: 128 bits, little-endian bytes (bit `k` is bit `k % 8` of byte `k / 8`); written
    /// by `Compare` (register form) and `SetCmpMask`, read by `GetCmpMask` and the `Select` forms
    /// without a `selMask` tensor.
    pub cmp_mask: [u8; 16],
    /// What the last `SetDeqScale` put in DEQSCALE; the half factor itself lives in
    /// [`VectorState::deq_scale`](super::vector::VectorState).
    pub deq: DeqScaleReg,
}

/// The CTRL bit that selects the fp16 overflow mode on A2/A3: 0 = saturation (±Inf → ±MAX,
/// NaN → 0), 1 = Inf/NaN kept. Its state is `VectorState::fp16_saturation` (inverted), which the
/// vector unit, Mmad and Fixpipe read.
pub const CTRL_FP16_INF_NAN_BIT: u8 = 48;

/// The CTRL bits that `SetCtrlSpr` / `GetCtrlSpr` may address on A2/A3 (the documentation lists
/// only bit 48 for these products).
pub const CTRL_BITS_A2_A3: &[u8] = &[CTRL_FP16_INF_NAN_BIT];

/// The conversion overflow mode (`SetSaturationFlag<SaturationMode::CAST>`): `false` (the reset
/// state) saturates integer results of a Cast at the target's range; `true` keeps the low bits
/// of the integer result instead.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CastOverflow {
    /// Integer Cast results wrap to the target's width instead of saturating.
    pub truncate: bool,
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
