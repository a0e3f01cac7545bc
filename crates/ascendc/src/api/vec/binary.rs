//! Two-source element-wise instructions (`BinaryRepeatParams`): Add, Sub, Mul, Div, Max, Min,
//! And, Or, AddRelu, SubRelu, FusedMulAdd, MulAddDst.
//!
//! Every operation has a level-2 form `op(dst, src0, src1, count)` (the first `count` elements,
//! or [`KEEP_MASK`](super::KEEP_MASK) for `isSetMask = false`) and a level-0 form
//! `op_l0(dst, src0, src1, mask, repeat_times, params)`.

use super::support::{self, OpSupport};
use super::{check_dtype, dense, run, BinaryRepeatParams, Count, Issue, Mask, Opnd};
use crate::api::context::with_core;
use crate::api::tensor::LocalTensor;
use crate::core::vector::{dense2, map2, map3, REPEAT_BYTES};
use crate::dtype::Element;
use crate::error::{Result, SourceLoc};
use crate::numeric::{Arith, BitArith, FloatArith};

/// Lanes per repeat of an instruction whose widest operand has `size`-byte elements.
pub(crate) const fn lanes_for(size: usize) -> u32 {
    let l = REPEAT_BYTES as usize / size;
    if l > 128 {
        128
    } else {
        l as u32
    }
}

/// The (dst, src0, src1) operands of a two-source call with its `BinaryRepeatParams` strides.
pub(crate) fn operands<D: Element, A: Element, B: Element>(
    dst: &LocalTensor<D>,
    src0: &LocalTensor<A>,
    src1: &LocalTensor<B>,
    p: &BinaryRepeatParams,
) -> [Opnd; 3] {
    [
        Opnd::of(
            "dst",
            dst,
            p.dst_blk_stride as u32,
            p.dst_rep_stride as u32,
            true,
        ),
        Opnd::of(
            "src0",
            src0,
            p.src0_blk_stride as u32,
            p.src0_rep_stride as u32,
            false,
        ),
        Opnd::of(
            "src1",
            src1,
            p.src1_blk_stride as u32,
            p.src1_rep_stride as u32,
            false,
        ),
    ]
}

/// Runs `dst = f(src0, src1, sat)` on every enabled lane.
#[inline(always)]
pub(crate) fn binary<T: Element, F: Fn(T, T, bool) -> T>(
    api: &'static str,
    support: &OpSupport,
    loc: SourceLoc,
    [dst, src0, src1]: [&LocalTensor<T>; 3],
    issue: Issue,
    p: BinaryRepeatParams,
    f: F,
) -> Result<()> {
    with_core(
        api,
        loc,
        #[inline(always)]
        |core| {
            check_dtype(core, api, T::DTYPE, support)?;
            let sat = core.vector.fp16_saturation;
            let pass = |ub: &mut [u8], n, d, [a, b]: [u64; 2]| {
                dense2(ub, n, d, a, b, a == d || b == d, |x: T, y: T| f(x, y, sat))
            };
            if dense::try_pass(core, api, loc, issue, dst, [src0, src1], pass) {
                return Ok(());
            }
            let ops = operands(dst, src0, src1, &p);
            run(
                core,
                api,
                loc,
                lanes_for(T::SIZE),
                issue,
                &ops,
                |ub, shape, o| map2(ub, shape, o[0], o[1], o[2], |a: T, b: T| f(a, b, sat)),
            )
        },
    )
}

/// Runs `dst = f(src0, src1, dst, sat)` on every enabled lane (the destination is also read).
/// `S` and `D` may differ (half sources with a float destination); `mixed` then gives the
/// supported source types.
#[allow(clippy::too_many_arguments)]
pub(crate) fn ternary<D: Element, S: Element, F: Fn(S, S, D, bool) -> D>(
    api: &'static str,
    support: &OpSupport,
    mixed: &OpSupport,
    loc: SourceLoc,
    dst: &LocalTensor<D>,
    [src0, src1]: [&LocalTensor<S>; 2],
    issue: Issue,
    p: BinaryRepeatParams,
    f: F,
) -> Result<()> {
    with_core(api, loc, |core| {
        if S::DTYPE == D::DTYPE {
            check_dtype(core, api, D::DTYPE, support)?;
        } else {
            mixed_dtype(core, api, S::DTYPE, D::DTYPE, mixed)?;
        }
        let [d, a, b] = operands(dst, src0, src1, &p);
        let d_read = Opnd { write: false, ..d };
        let sat = core.vector.fp16_saturation;
        let lanes = lanes_for(D::SIZE.max(S::SIZE));
        run(
            core,
            api,
            loc,
            lanes,
            issue,
            &[d, a, b, d_read],
            |ub, shape, o| {
                map3(ub, shape, o[0], o[1], o[2], |x: S, y: S, z: D| {
                    f(x, y, z, sat)
                })
            },
        )
    })
}

/// Checks a mixed-type pair (`src` sources, `dst` destination) against the table of source
/// types accepted with a float destination.
pub(crate) fn mixed_dtype(
    core: &crate::core::Core,
    api: &'static str,
    src: crate::dtype::DType,
    dst: crate::dtype::DType,
    mixed: &OpSupport,
) -> Result<()> {
    let set = mixed.types(core.profile.product);
    if dst == crate::dtype::DType::Float && set.contains(src) {
        Ok(())
    } else {
        Err(crate::error::SimError::new(
            crate::error::Category::Type,
            api,
            format!(
                "source type {src} with destination type {dst} is not supported on {} (mixed forms: {} → float)",
                core.profile.soc,
                if set == crate::dtype::DTypeSet::EMPTY { "none".to_string() } else { set.to_string() }
            ),
        ))
    }
}

/// A type the destination of a mixed-precision multiply-add can hold: `S` widened to `Self`.
pub trait Widen<S>: Arith {
    /// The source value in the destination type (exact).
    fn widen(s: S) -> Self;
}

macro_rules! widen_same {
    ($($t:ty),*) => {$(
        impl Widen<$t> for $t {
            #[inline(always)]
            fn widen(s: $t) -> $t {
                s
            }
        }
    )*};
}
widen_same!(crate::dtype::f16, f32, i16, u16, i32, u32);

impl Widen<crate::dtype::f16> for f32 {
    #[inline(always)]
    fn widen(s: crate::dtype::f16) -> f32 {
        s.to_f32()
    }
}

macro_rules! binary_op {
    ($name:ident, $name_l0:ident, $api:literal, $support:expr, $bound:path, $formula:literal, $f:expr) => {
        #[doc = concat!("`", $api, "(dst, src0, src1, count)`: level 2, `", $formula,
            "` for the first `count` elements (or [`KEEP_MASK`](super::KEEP_MASK)).")]
        #[track_caller]
        #[inline(always)]
        pub fn $name<T: $bound>(
            dst: &LocalTensor<T>,
            src0: &LocalTensor<T>,
            src1: &LocalTensor<T>,
            count: impl Into<Count>,
        ) -> Result<()> {
            binary(
                $api,
                &$support,
                SourceLoc::caller(),
                [dst, src0, src1],
                count.into().into(),
                BinaryRepeatParams::default(),
                $f,
            )
        }

        #[doc = concat!("`", $api, "(dst, src0, src1, mask, repeatTime, params)`: level 0, `",
            $formula, "` on the lanes `mask` enables, for `repeat_times` repeats; strides in ",
            "32-byte blocks.")]
        #[track_caller]
        pub fn $name_l0<T: $bound>(
            dst: &LocalTensor<T>,
            src0: &LocalTensor<T>,
            src1: &LocalTensor<T>,
            mask: impl Into<Mask>,
            repeat_times: u8,
            params: BinaryRepeatParams,
        ) -> Result<()> {
            binary(
                $api,
                &$support,
                SourceLoc::caller(),
                [dst, src0, src1],
                Issue::level0(mask, repeat_times),
                params,
                $f,
            )
        }
    };
}

binary_op!(
    add,
    add_l0,
    "Add",
    support::ARITH,
    Arith,
    "dst = src0 + src1",
    T::add
);
binary_op!(
    sub,
    sub_l0,
    "Sub",
    support::ARITH,
    Arith,
    "dst = src0 − src1",
    T::sub
);
binary_op!(
    mul,
    mul_l0,
    "Mul",
    support::ARITH,
    Arith,
    "dst = src0 × src1",
    T::mul
);
binary_op!(
    div,
    div_l0,
    "Div",
    support::DIV,
    FloatArith,
    "dst = src0 ÷ src1",
    T::div
);
binary_op!(
    max,
    max_l0,
    "Max",
    support::ARITH,
    Arith,
    "dst = max(src0, src1)",
    |a, b, s| { T::max(a, b).finish(s) }
);
binary_op!(
    min,
    min_l0,
    "Min",
    support::ARITH,
    Arith,
    "dst = min(src0, src1)",
    |a, b, s| { T::min(a, b).finish(s) }
);
binary_op!(
    and,
    and_l0,
    "And",
    support::BITWISE,
    BitArith,
    "dst = src0 & src1",
    |a, b, _| { T::and(a, b) }
);
binary_op!(
    or,
    or_l0,
    "Or",
    support::BITWISE,
    BitArith,
    "dst = src0 | src1",
    |a, b, _| { T::or(a, b) }
);
binary_op!(
    add_relu,
    add_relu_l0,
    "AddRelu",
    support::ARITH_RELU,
    Arith,
    "dst = max(0, src0 + src1)",
    |a, b, s| T::max(T::add(a, b, s), T::default())
);
binary_op!(
    sub_relu,
    sub_relu_l0,
    "SubRelu",
    support::ARITH_RELU,
    Arith,
    "dst = max(0, src0 − src1)",
    |a, b, s| T::max(T::sub(a, b, s), T::default())
);

/// `FusedMulAdd(dst, src0, src1, count)`: level 2, `dst = src0 × dst + src1` for the first
/// `count` elements (or [`KEEP_MASK`](super::KEEP_MASK)); the product and the sum are each
/// rounded to `T`.
#[track_caller]
pub fn fused_mul_add<T: FloatArith>(
    dst: &LocalTensor<T>,
    src0: &LocalTensor<T>,
    src1: &LocalTensor<T>,
    count: impl Into<Count>,
) -> Result<()> {
    ternary(
        "FusedMulAdd",
        &support::FUSED_MUL_ADD,
        &support::FUSED_MUL_ADD,
        SourceLoc::caller(),
        dst,
        [src0, src1],
        count.into().into(),
        BinaryRepeatParams::default(),
        |a: T, b: T, d: T, s| T::add(T::mul(a, d, s), b, s),
    )
}

/// `FusedMulAdd(dst, src0, src1, mask, repeatTime, params)`: level 0, `dst = src0 × dst + src1`
/// on the enabled lanes; strides in 32-byte blocks.
#[track_caller]
pub fn fused_mul_add_l0<T: FloatArith>(
    dst: &LocalTensor<T>,
    src0: &LocalTensor<T>,
    src1: &LocalTensor<T>,
    mask: impl Into<Mask>,
    repeat_times: u8,
    params: BinaryRepeatParams,
) -> Result<()> {
    ternary(
        "FusedMulAdd",
        &support::FUSED_MUL_ADD,
        &support::FUSED_MUL_ADD,
        SourceLoc::caller(),
        dst,
        [src0, src1],
        Issue::level0(mask, repeat_times),
        params,
        |a: T, b: T, d: T, s| T::add(T::mul(a, d, s), b, s),
    )
}

/// `MulAddDst(dst, src0, src1, count)`: level 2, `dst = src0 × src1 + dst` for the first `count`
/// elements (or [`KEEP_MASK`](super::KEEP_MASK)). `D = S`, or half sources with a float
/// destination (64 lanes per repeat, the half sources use 4 blocks per repeat). The product and
/// the sum are each rounded to `D`.
#[track_caller]
pub fn mul_add_dst<D: Widen<S>, S: Arith>(
    dst: &LocalTensor<D>,
    src0: &LocalTensor<S>,
    src1: &LocalTensor<S>,
    count: impl Into<Count>,
) -> Result<()> {
    ternary(
        "MulAddDst",
        &support::MUL_ADD_DST,
        &support::MUL_ADD_DST_HALF_FLOAT,
        SourceLoc::caller(),
        dst,
        [src0, src1],
        count.into().into(),
        BinaryRepeatParams::default(),
        |a: S, b: S, d: D, s| D::add(D::mul(D::widen(a), D::widen(b), s), d, s),
    )
}

/// `MulAddDst(dst, src0, src1, mask, repeatTime, params)`: level 0, `dst = src0 × src1 + dst` on
/// the enabled lanes (64 lanes for half → float); strides in 32-byte blocks.
#[track_caller]
pub fn mul_add_dst_l0<D: Widen<S>, S: Arith>(
    dst: &LocalTensor<D>,
    src0: &LocalTensor<S>,
    src1: &LocalTensor<S>,
    mask: impl Into<Mask>,
    repeat_times: u8,
    params: BinaryRepeatParams,
) -> Result<()> {
    ternary(
        "MulAddDst",
        &support::MUL_ADD_DST,
        &support::MUL_ADD_DST_HALF_FLOAT,
        SourceLoc::caller(),
        dst,
        [src0, src1],
        Issue::level0(mask, repeat_times),
        params,
        |a: S, b: S, d: D, s| D::add(D::mul(D::widen(a), D::widen(b), s), d, s),
    )
}
