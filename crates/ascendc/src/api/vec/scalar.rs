//! Tensor-scalar instructions (`UnaryRepeatParams` + a scalar of the element type): Adds, Muls,
//! Maxs, Mins, LeakyRelu, ShiftLeft, ShiftRight, Axpy.
//!
//! Level 2: `op(dst, src, scalar, count)`; level 0:
//! `op_l0(dst, src, scalar, mask, repeat_times, params)`.

use super::binary::{lanes_for, mixed_dtype, Widen};
use super::support::{self, OpSupport};
use super::unary::{unary, unary_operands};
use super::{check_dtype, run, Count, Issue, Mask, Opnd, UnaryRepeatParams};
use crate::api::context::with_core;
use crate::api::tensor::LocalTensor;
use crate::core::vector::{map1, map2};
use crate::dtype::Element;
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::numeric::{Arith, BitArith};

/// Runs `dst = f(src, scalar, sat)` on every enabled lane: a one-source instruction with the
/// scalar as a constant operand.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn scalar_op<T: Element, F: Fn(T, T, bool) -> T>(
    api: &'static str,
    support: &OpSupport,
    loc: SourceLoc,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    scalar: T,
    issue: Issue,
    p: UnaryRepeatParams,
    f: F,
) -> Result<()> {
    unary(api, support, loc, dst, src, issue, p, move |a: T, sat| {
        f(a, scalar, sat)
    })
}

macro_rules! scalar_op {
    ($name:ident, $name_l0:ident, $api:literal, $support:expr, $bound:path, $formula:literal, $f:expr) => {
        #[doc = concat!("`", $api, "(dst, src, scalar, count)`: level 2, `", $formula,
            "` for the first `count` elements (or [`KEEP_MASK`](super::KEEP_MASK)).")]
        #[track_caller]
        #[inline(always)]
        pub fn $name<T: $bound>(
            dst: &LocalTensor<T>,
            src: &LocalTensor<T>,
            scalar: T,
            count: impl Into<Count>,
        ) -> Result<()> {
            scalar_op(
                $api,
                &$support,
                SourceLoc::caller(),
                dst,
                src,
                scalar,
                count.into().into(),
                UnaryRepeatParams::default(),
                $f,
            )
        }

        #[doc = concat!("`", $api, "(dst, src, scalar, mask, repeatTime, params)`: level 0, `",
            $formula, "` on the lanes `mask` enables, for `repeat_times` repeats; strides in ",
            "32-byte blocks.")]
        #[track_caller]
        pub fn $name_l0<T: $bound>(
            dst: &LocalTensor<T>,
            src: &LocalTensor<T>,
            scalar: T,
            mask: impl Into<Mask>,
            repeat_times: u8,
            params: UnaryRepeatParams,
        ) -> Result<()> {
            scalar_op(
                $api,
                &$support,
                SourceLoc::caller(),
                dst,
                src,
                scalar,
                Issue::level0(mask, repeat_times),
                params,
                $f,
            )
        }
    };
}

scalar_op!(
    adds,
    adds_l0,
    "Adds",
    support::SCALAR_ARITH,
    Arith,
    "dst = src + scalar",
    T::add
);
scalar_op!(
    muls,
    muls_l0,
    "Muls",
    support::SCALAR_ARITH,
    Arith,
    "dst = src × scalar",
    T::mul
);
scalar_op!(
    maxs,
    maxs_l0,
    "Maxs",
    support::SCALAR_MAX_MIN,
    Arith,
    "dst = max(src, scalar)",
    |a, b, s| T::max(a, b).finish(s)
);
scalar_op!(
    mins,
    mins_l0,
    "Mins",
    support::SCALAR_MAX_MIN,
    Arith,
    "dst = min(src, scalar)",
    |a, b, s| T::min(a, b).finish(s)
);
scalar_op!(
    leaky_relu,
    leaky_relu_l0,
    "LeakyRelu",
    support::LEAKY_RELU,
    Arith,
    "dst = src if src ≥ 0 else scalar × src",
    |a, b, s| if T::non_negative(a) {
        a.finish(s)
    } else {
        T::mul(b, a, s)
    }
);

/// Runs a shift after checking the amount (`[0, bits]`) and `roundEn`.
#[allow(clippy::too_many_arguments)]
fn shift<T: BitArith>(
    api: &'static str,
    loc: SourceLoc,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    amount: T,
    round_en: bool,
    issue: Issue,
    p: UnaryRepeatParams,
) -> Result<()> {
    with_core(api, loc, |core| {
        check_dtype(core, api, T::DTYPE, &support::SHIFT)?;
        let s = T::amount(amount);
        if s > T::BITS {
            return Err(SimError::range(
                api,
                "scalarValue",
                amount,
                format!("[0, {}] for {}", T::BITS, T::DTYPE),
            ));
        }
        if round_en && !T::SIGNED {
            return Err(SimError::new(
                Category::Type,
                api,
                format!(
                    "parameter `roundEn` = true needs a signed element type; {} is unsigned",
                    T::DTYPE
                ),
            ));
        }
        if round_en && !support::SHIFT_ROUND_EN[core.profile.product as usize] {
            return Err(SimError::new(
                Category::Unsupported,
                api,
                format!(
                    "parameter `roundEn` = true is not supported on {} (only false)",
                    core.profile.soc
                ),
            ));
        }
        let ops = unary_operands(dst, src, &p);
        let left = api == "ShiftLeft";
        run(
            core,
            api,
            loc,
            lanes_for(T::SIZE),
            issue,
            &ops,
            |ub, shape, o| {
                map1(ub, shape, o[0], o[1], |a: T| {
                    if left {
                        T::shl(a, s)
                    } else {
                        T::shr(a, s, round_en)
                    }
                })
            },
        )
    })
}

/// `ShiftLeft(dst, src, scalarValue, count)`: level 2, `dst = src << scalar_value` (bits,
/// `[0, width]`) for the first `count` elements. Unsigned: logical; signed: the sign bit is kept.
#[track_caller]
pub fn shift_left<T: BitArith>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    scalar_value: T,
    count: impl Into<Count>,
) -> Result<()> {
    let p = UnaryRepeatParams::default();
    let loc = SourceLoc::caller();
    shift(
        "ShiftLeft",
        loc,
        dst,
        src,
        scalar_value,
        false,
        count.into().into(),
        p,
    )
}

/// `ShiftLeft(dst, src, scalarValue, mask, repeatTime, params)`: level 0 of [`shift_left`];
/// shift amount in bits, strides in 32-byte blocks.
#[track_caller]
pub fn shift_left_l0<T: BitArith>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    scalar_value: T,
    mask: impl Into<Mask>,
    repeat_times: u8,
    params: UnaryRepeatParams,
) -> Result<()> {
    let issue = Issue::level0(mask, repeat_times);
    let loc = SourceLoc::caller();
    shift(
        "ShiftLeft",
        loc,
        dst,
        src,
        scalar_value,
        false,
        issue,
        params,
    )
}

/// `ShiftRight(dst, src, scalarValue, count)`: level 2, `dst = src >> scalar_value` (bits,
/// `[0, width]`) for the first `count` elements: logical for unsigned, arithmetic for signed.
#[track_caller]
pub fn shift_right<T: BitArith>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    scalar_value: T,
    count: impl Into<Count>,
) -> Result<()> {
    let p = UnaryRepeatParams::default();
    let loc = SourceLoc::caller();
    shift(
        "ShiftRight",
        loc,
        dst,
        src,
        scalar_value,
        false,
        count.into().into(),
        p,
    )
}

/// `ShiftRight(dst, src, scalarValue, mask, repeatTime, params, roundEn)`: level 0 of
/// [`shift_right`]; `round_en` (signed types, A2/A3) adds bit `scalar_value − 1` of the source
/// (round half up). Shift amount in bits, strides in 32-byte blocks.
#[track_caller]
pub fn shift_right_l0<T: BitArith>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    scalar_value: T,
    mask: impl Into<Mask>,
    repeat_times: u8,
    params: UnaryRepeatParams,
    round_en: bool,
) -> Result<()> {
    let issue = Issue::level0(mask, repeat_times);
    let loc = SourceLoc::caller();
    shift(
        "ShiftRight",
        loc,
        dst,
        src,
        scalar_value,
        round_en,
        issue,
        params,
    )
}

#[allow(clippy::too_many_arguments)]
fn axpy_run<D: Widen<S>, S: Arith>(
    loc: SourceLoc,
    dst: &LocalTensor<D>,
    src: &LocalTensor<S>,
    scalar: S,
    issue: Issue,
    p: UnaryRepeatParams,
) -> Result<()> {
    const API: &str = "Axpy";
    with_core(API, loc, |core| {
        if S::DTYPE == D::DTYPE {
            check_dtype(core, API, D::DTYPE, &support::AXPY)?;
        } else {
            mixed_dtype(core, API, S::DTYPE, D::DTYPE, &support::AXPY_HALF_FLOAT)?;
        }
        let [d, a] = unary_operands(dst, src, &p);
        let d_read = Opnd { write: false, ..d };
        let sat = core.vector.fp16_saturation;
        let s = D::widen(scalar);
        let lanes = lanes_for(D::SIZE.max(S::SIZE));
        run(
            core,
            API,
            loc,
            lanes,
            issue,
            &[d, a, d_read],
            |ub, shape, o| {
                map2(ub, shape, o[0], o[1], o[2], |x: S, y: D| {
                    D::add(D::mul(s, D::widen(x), sat), y, sat)
                })
            },
        )
    })
}

/// `Axpy(dst, src, scalar, count)`: level 2, `dst = scalar × src + dst` for the first `count`
/// elements; `D = S`, or a half source and scalar with a float destination (64 lanes per repeat).
/// The product and the sum are each rounded to `D`.
#[track_caller]
pub fn axpy<D: Widen<S>, S: Arith>(
    dst: &LocalTensor<D>,
    src: &LocalTensor<S>,
    scalar: S,
    count: impl Into<Count>,
) -> Result<()> {
    let p = UnaryRepeatParams::default();
    axpy_run(
        SourceLoc::caller(),
        dst,
        src,
        scalar,
        count.into().into(),
        p,
    )
}

/// `Axpy(dst, src, scalar, mask, repeatTime, params)`: level 0 of [`axpy`]; strides in 32-byte
/// blocks (a half source of a float destination uses 4 blocks per repeat).
#[track_caller]
pub fn axpy_l0<D: Widen<S>, S: Arith>(
    dst: &LocalTensor<D>,
    src: &LocalTensor<S>,
    scalar: S,
    mask: impl Into<Mask>,
    repeat_times: u8,
    params: UnaryRepeatParams,
) -> Result<()> {
    let issue = Issue::level0(mask, repeat_times);
    axpy_run(SourceLoc::caller(), dst, src, scalar, issue, params)
}
