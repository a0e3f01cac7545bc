//! Which element types each vector operation accepts on each product (`vector-ops.md` tables),
//! and the other per-product facts of the vector instructions.

use crate::chip::Product;
use crate::dtype::{DType, DTypeSet};
use crate::numeric::RoundMode;

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

    /// One set per product family: 910, 310P, A2/A3, 310B.
    pub const fn per_family(
        p910: DTypeSet,
        p310p: DTypeSet,
        a2a3: DTypeSet,
        p310b: DTypeSet,
    ) -> OpSupport {
        OpSupport {
            per_product: [p910, p310p, a2a3, a2a3, p310b],
        }
    }

    /// Types supported on `p`.
    pub const fn types(&self, p: Product) -> DTypeSet {
        self.per_product[p as usize]
    }
}

use DType::*;

const NONE: DTypeSet = DTypeSet::EMPTY;
const H: DTypeSet = DTypeSet::of(&[Half]);
const H_F: DTypeSet = DTypeSet::of(&[Half, Float]);
const H_I32_F: DTypeSet = DTypeSet::of(&[Half, Int32, Float]);
const I16_H_I32_F: DTypeSet = DTypeSet::of(&[Int16, Half, Int32, Float]);
const I16_H_F: DTypeSet = DTypeSet::of(&[Int16, Half, Float]);
const I16_U16: DTypeSet = DTypeSet::of(&[Int16, Uint16]);
const SHIFT_TYPES: DTypeSet = DTypeSet::of(&[Int16, Uint16, Int32, Uint32]);

/// Add, Sub, Mul, Max, Min.
pub const ARITH: OpSupport = OpSupport::uniform(H_I32_F, I16_H_I32_F);

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
/// The forms of `GetReduceRepeatMaxMinSpr` a product has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MaxMinSprForm {
    /// `GetReduceRepeatMaxMinSpr(maxMinValue)` (Atlas inference series).
    ValueOnly,
    /// `GetReduceRepeatMaxMinSpr(maxMinValue, maxMinIndex)` (A2/A3).
    ValueIndex,
}
/// `GetReduceRepeatMaxMinSpr` per product (910, 310P, A2, A3, 310B).
pub const MAX_MIN_SPR: [Option<MaxMinSprForm>; 5] = [
    None,
    Some(MaxMinSprForm::ValueOnly),
    Some(MaxMinSprForm::ValueIndex),
    Some(MaxMinSprForm::ValueIndex),
    None,
];
/// `GetReduceRepeatSumSpr`: half and float on A2/A3.
pub const SUM_SPR: OpSupport = OpSupport::per_family(NONE, NONE, H_F, NONE);
const GATHER_16_32: DTypeSet = DTypeSet::of(&[Int16, Uint16, Half, Int32, Uint32, Float]);
const GATHER_16_32_BF: DTypeSet =
    DTypeSet::of(&[Int16, Uint16, Half, Bfloat16, Int32, Uint32, Float]);
const GATHER_8_16_32: DTypeSet =
    DTypeSet::of(&[Int8, Uint8, Int16, Uint16, Half, Int32, Uint32, Float]);
/// GatherMask (`src0`/`dst` type; the pattern tensor is uint16 / uint32 of the same width).
pub const GATHER_MASK: OpSupport =
    OpSupport::per_family(NONE, GATHER_16_32, GATHER_16_32_BF, GATHER_16_32);
/// The largest built-in GatherMask pattern per product (0: no GatherMask).
pub const GATHER_MASK_PATTERN_MAX: [u8; 5] = [0, 6, 7, 7, 7];
/// What the GatherMask `mask` counts in counter mode (`reduceMode = true`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GatherMaskCounter {
    /// Elements of each of `repeatTimes` repeats (A2/A3/310B).
    PerRepeat,
    /// Elements in total; `repeatTimes` is ignored (310P).
    Total,
}
/// GatherMask counter-mode meaning per product.
pub const GATHER_MASK_COUNTER: [GatherMaskCounter; 5] = [
    GatherMaskCounter::PerRepeat,
    GatherMaskCounter::Total,
    GatherMaskCounter::PerRepeat,
    GatherMaskCounter::PerRepeat,
    GatherMaskCounter::PerRepeat,
];
/// Gather.
pub const GATHER: OpSupport =
    OpSupport::per_family(NONE, GATHER_16_32, GATHER_16_32_BF, GATHER_8_16_32);
/// Gather / Scatter byte-offset limits of 8- and 16-bit elements (`2^16 − 1`, `2^17 − 1`) apply
/// (310B); elsewhere an offset may be any uint32.
pub const GATHER_SMALL_OFFSET_LIMITS: [bool; 5] = [false, false, false, false, true];
/// Gatherb.
pub const GATHERB: OpSupport = OpSupport::per_family(
    NONE,
    NONE,
    DTypeSet::of(&[Uint16, Uint32]),
    DTypeSet::of(&[
        Int8, Uint8, Int16, Uint16, Half, Bfloat16, Int32, Uint32, Float, Int64,
    ]),
);
/// Gatherb `dstBlkStride = 0` is taken as 1 (A2/A3).
pub const GATHERB_BLK_ZERO_IS_ONE: [bool; 5] = [false, false, true, true, false];
/// Scatter.
pub const SCATTER: OpSupport = OpSupport::per_family(
    NONE,
    DTypeSet::of(&[Uint16, Half, Uint32, Float]),
    NONE,
    GATHER_8_16_32,
);
/// Brcb.
pub const BRCB: OpSupport = OpSupport::per_family(NONE, GATHER_16_32, GATHER_16_32_BF, NONE);
/// CreateVecIndex (the 310P page lists no types: the A2 list is used there).
pub const CREATE_VEC_INDEX: OpSupport = OpSupport::per_family(
    NONE,
    DTypeSet::of(&[Int16, Half, Int32, Float]),
    DTypeSet::of(&[Int16, Half, Int32, Float]),
    DTypeSet::of(&[Int16, Half, Int32, Float]),
);
/// Copy (UB → UB with a mask and strides).
pub const COPY: OpSupport = OpSupport::per_family(NONE, NONE, GATHER_16_32_BF, GATHER_16_32_BF);
/// Div.
pub const DIV: OpSupport = OpSupport::uniform(H_F, H_F);
/// And, Or, Not.
pub const BITWISE: OpSupport = OpSupport::uniform(I16_U16, I16_U16);
/// AddRelu, SubRelu.
pub const ARITH_RELU: OpSupport = OpSupport::per_family(NONE, I16_H_F, I16_H_F, H_F);
/// FusedMulAdd.
pub const FUSED_MUL_ADD: OpSupport = OpSupport::per_family(NONE, H_F, H_F, H_F);
/// MulAddDst with one element type.
pub const MUL_ADD_DST: OpSupport = OpSupport::per_family(
    NONE,
    H_F,
    H_F,
    DTypeSet::of(&[Half, Float, Int16, Uint16, Int32, Uint32]),
);
/// MulAddDst with half sources and a float destination: the source type.
pub const MUL_ADD_DST_HALF_FLOAT: OpSupport = OpSupport::per_family(NONE, H, H, NONE);
/// Adds, Muls.
pub const SCALAR_ARITH: OpSupport = OpSupport::uniform(H_F, I16_H_I32_F);
/// Maxs, Mins.
pub const SCALAR_MAX_MIN: OpSupport = OpSupport::uniform(NONE, I16_H_I32_F);
/// LeakyRelu.
pub const LEAKY_RELU: OpSupport = OpSupport::uniform(NONE, H_F);
/// ShiftLeft, ShiftRight.
pub const SHIFT: OpSupport = OpSupport::per_family(NONE, NONE, SHIFT_TYPES, SHIFT_TYPES);
/// ShiftRight `roundEn = true` is accepted (A2/A3 only).
pub const SHIFT_ROUND_EN: [bool; 5] = [false, false, true, true, false];
/// Axpy with one element type.
pub const AXPY: OpSupport = OpSupport::uniform(H_F, H_F);
/// Axpy with a half source and a float destination: the source type.
pub const AXPY_HALF_FLOAT: OpSupport = OpSupport::uniform(H, H);
/// Exp, Ln, Reciprocal, Sqrt, Rsqrt.
pub const TRANSCENDENTAL: OpSupport = OpSupport::uniform(H_F, H_F);
/// Abs.
pub const ABS: OpSupport = OpSupport::per_family(H_F, H_F, H_F, I16_H_F);
/// Relu.
pub const RELU: OpSupport = OpSupport::uniform(H, H_I32_F);
/// Duplicate.
pub const DUPLICATE: OpSupport = OpSupport::uniform(
    DTypeSet::of(&[Int16, Uint16, Half, Bfloat16, Int32, Uint32, Float]),
    DTypeSet::of(&[Int16, Uint16, Half, Bfloat16, Int32, Uint32, Float]),
);
/// Compare / CompareScalar, every mode.
pub const COMPARE: OpSupport = OpSupport::uniform(H_F, H_F);
/// Compare / CompareScalar with `CMPMODE::EQ` only (int32 on A2/A3).
pub const COMPARE_EQ_ONLY: OpSupport =
    OpSupport::per_family(NONE, NONE, DTypeSet::of(&[Int32]), NONE);
/// The level-0 `mask` of Compare takes effect (reserved and ignored on 910/310P/A2/A3).
pub const COMPARE_MASK_EFFECTIVE: [bool; 5] = [false, false, false, false, true];
/// Select.
pub const SELECT: OpSupport = OpSupport::uniform(H_F, H_F);
/// Select modes each product accepts (`SELMODE` values 0, 1, 2).
pub const SELECT_MODES: [&[u8]; 5] = [&[0], &[0, 1, 2], &[0, 1, 2], &[0, 1, 2], &[0, 1, 2]];

/// How a Cast pair converts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CastKind {
    /// A value conversion with the requested rounding mode.
    Plain,
    /// int32 → half through the `SetDeqScale` factor (the rounding mode is ignored).
    DeqScale,
}

/// One supported Cast pair: source, destination, accepted rounding modes.
#[derive(Debug, Clone, Copy)]
pub struct CastRule {
    /// Source element type.
    pub src: DType,
    /// Destination element type.
    pub dst: DType,
    /// Accepted modes.
    pub modes: &'static [RoundMode],
    /// How the pair converts.
    pub kind: CastKind,
}

use RoundMode::*;

const M_NONE: &[RoundMode] = &[CAST_NONE];
const M_ALL5: &[RoundMode] = &[CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC];
const M_ALL5_NONE: &[RoundMode] = &[
    CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC, CAST_NONE,
];
const M_4_NONE: &[RoundMode] = &[CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC, CAST_NONE];
const M_F2H: &[RoundMode] = &[
    CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC, CAST_ODD, CAST_NONE,
];
const M_ANY: &[RoundMode] = &RoundMode::ALL;

const fn rule(src: DType, dst: DType, modes: &'static [RoundMode]) -> CastRule {
    CastRule {
        src,
        dst,
        modes,
        kind: CastKind::Plain,
    }
}

const DEQ: CastRule = CastRule {
    src: Int32,
    dst: Half,
    modes: M_ANY,
    kind: CastKind::DeqScale,
};

/// Cast pairs on the Atlas training series (910).
pub const CAST_910: &[CastRule] = &[
    rule(Int8, Half, M_NONE),
    rule(Uint8, Half, M_NONE),
    rule(Int16, Half, M_NONE),
    rule(Half, Int8, M_4_NONE),
    rule(Half, Uint8, M_4_NONE),
    rule(Half, Int32, M_ALL5),
    rule(Half, Float, M_NONE),
    rule(Int32, Float, M_NONE),
    rule(Float, Half, &[CAST_ODD, CAST_NONE]),
    rule(Float, Int64, M_ALL5),
];

/// Cast pairs on the Atlas inference series (310P).
pub const CAST_310P: &[CastRule] = &[
    rule(Int8, Half, M_NONE),
    rule(Uint8, Half, M_NONE),
    rule(Int16, Half, M_NONE),
    rule(Half, Int8, M_4_NONE),
    rule(Half, Uint8, M_4_NONE),
    rule(Half, Int32, M_ALL5),
    rule(Half, Float, M_NONE),
    rule(Int32, Float, M_NONE),
    rule(Float, Half, &[CAST_ODD, CAST_NONE]),
    rule(Float, Int64, M_ALL5),
    // Not in the page's table, whose float row names int64_t; the vendor's own 310P
    // implementations of Floor, Ceil, Round and Trunc issue float → int32_t with these modes.
    rule(Float, Int32, M_ALL5),
    rule(Half, Int16, &[CAST_RINT]),
    rule(Int32, Int16, M_NONE),
    DEQ,
    rule(Half, Int4, M_NONE),
];

/// Cast pairs on Atlas A2/A3.
pub const CAST_A2: &[CastRule] = &[
    rule(Int4, Half, M_NONE),
    rule(Half, Int4, M_ALL5_NONE),
    rule(Int8, Half, M_NONE),
    rule(Uint8, Half, M_NONE),
    rule(Int16, Half, M_ALL5_NONE),
    rule(Int16, Float, M_NONE),
    rule(Half, Int8, M_ALL5_NONE),
    rule(Half, Uint8, M_ALL5_NONE),
    rule(Half, Int16, M_ALL5),
    rule(Half, Int32, M_ALL5),
    rule(Half, Float, M_NONE),
    rule(Bfloat16, Float, M_NONE),
    rule(Bfloat16, Int32, M_ALL5),
    rule(Int32, Int16, M_NONE),
    rule(Int32, Int64, M_NONE),
    rule(Int64, Int32, M_NONE),
    DEQ,
    rule(Int32, Float, M_ALL5_NONE),
    rule(Float, Int16, M_ALL5),
    rule(Float, Int32, M_ALL5),
    rule(Float, Int64, M_ALL5),
    rule(Float, Bfloat16, M_ALL5),
    rule(Float, Float, M_ALL5),
    rule(Float, Half, M_F2H),
    rule(Int64, Float, M_ALL5),
];

/// Cast pairs on the Atlas 200I/500 A2 inference series (310B): as A2, with a plain int32 → half.
pub const CAST_310B: &[CastRule] = &[
    rule(Int8, Half, M_NONE),
    rule(Uint8, Half, M_NONE),
    rule(Int16, Half, M_ALL5_NONE),
    rule(Int16, Float, M_NONE),
    rule(Half, Int8, M_ALL5_NONE),
    rule(Half, Uint8, M_ALL5_NONE),
    rule(Half, Int16, M_ALL5),
    rule(Half, Int32, M_ALL5),
    rule(Half, Float, M_NONE),
    rule(Bfloat16, Float, M_NONE),
    rule(Bfloat16, Int32, M_ALL5),
    rule(Int32, Int16, M_NONE),
    rule(Int32, Int64, M_NONE),
    rule(Int64, Int32, M_NONE),
    rule(Int32, Half, M_NONE),
    rule(Int32, Float, M_ALL5_NONE),
    rule(Float, Int16, M_ALL5),
    rule(Float, Int32, M_ALL5),
    rule(Float, Int64, M_ALL5),
    rule(Float, Bfloat16, M_ALL5),
    rule(Float, Float, M_ALL5),
    rule(Float, Half, M_F2H),
    rule(Int64, Float, M_ALL5),
];

/// The Cast pairs of a product.
pub const fn cast_rules(p: Product) -> &'static [CastRule] {
    match p {
        Product::Ascend910 => CAST_910,
        Product::Ascend310P => CAST_310P,
        Product::Ascend910B | Product::Ascend910_93 => CAST_A2,
        Product::Ascend310B => CAST_310B,
    }
}

/// A (source, destination) element-type pair of a converting instruction.
pub type TypePair = (DType, DType);

/// The (source, destination) pairs a converting instruction accepts, per product.
#[derive(Debug, Clone, Copy)]
pub struct PairSupport {
    /// Pairs on each product, in [`Product`] order; empty = the product lacks the instruction.
    pub per_product: [&'static [TypePair]; 5],
}

impl PairSupport {
    /// Pairs supported on `p`.
    pub const fn pairs(&self, p: Product) -> &'static [TypePair] {
        self.per_product[p as usize]
    }
}

const RELU_CAST_FULL: &[TypePair] = &[(Half, Int8), (Int16, Int8), (Float, Half)];
/// AddReluCast / SubReluCast (no int16 → int8 on 310B).
pub const RELU_CAST: PairSupport = PairSupport {
    per_product: [
        &[],
        RELU_CAST_FULL,
        RELU_CAST_FULL,
        RELU_CAST_FULL,
        &[(Half, Int8), (Float, Half)],
    ],
};
const MUL_CAST_PAIRS: &[TypePair] = &[(Half, Int8), (Half, Uint8)];
/// MulCast.
pub const MUL_CAST: PairSupport = PairSupport {
    per_product: [
        &[],
        MUL_CAST_PAIRS,
        MUL_CAST_PAIRS,
        MUL_CAST_PAIRS,
        MUL_CAST_PAIRS,
    ],
};
/// AddDeqRelu: int32 sources, half destination, on 310P/A2/A3.
pub const ADD_DEQ_RELU: PairSupport = PairSupport {
    per_product: [
        &[],
        &[(Int32, Half)],
        &[(Int32, Half)],
        &[(Int32, Half)],
        &[],
    ],
};
const DEQUANT_A2: &[TypePair] = &[(Int32, Half), (Int16, Int8), (Int16, Uint8)];
/// CastDequant (no int32 → half on 310P).
pub const CAST_DEQUANT: PairSupport = PairSupport {
    per_product: [
        &[],
        &[(Int16, Int8), (Int16, Uint8)],
        DEQUANT_A2,
        DEQUANT_A2,
        &[],
    ],
};
/// MulAddRelu.
pub const MUL_ADD_RELU: OpSupport = OpSupport::per_family(NONE, H_F, H_F, H_F);
/// Compares, every mode (the `CompareScalar` spelling keeps [`COMPARE`]); int32 on A2/A3 is
/// in [`COMPARE_EQ_ONLY`].
pub const COMPARES: OpSupport = OpSupport::per_family(
    NONE,
    H_F,
    H_F,
    DTypeSet::of(&[Int16, Uint16, Half, Int32, Uint32, Float]),
);
/// The CMPMASK register (Compare to the register, GetCmpMask, SetCmpMask and the Select forms
/// that read it) exists on 310P, A2 and A3.
pub const CMP_MASK_REG: [bool; 5] = [false, true, true, true, false];
/// Compare with its result in CMPMASK.
pub const COMPARE_REG: OpSupport = OpSupport::per_family(NONE, H_F, H_F, NONE);
