//! One-source element-wise instructions (`UnaryRepeatParams`): Exp, Ln, Abs, Reciprocal, Sqrt,
//! Rsqrt, Relu, Not.
//!
//! Level 2: `op(dst, src, count)`; level 0: `op_l0(dst, src, mask, repeat_times, params)`.
//! Exp, Ln, Reciprocal, Sqrt and Rsqrt are computed in binary64 and rounded once to the element
//! type: the vendor's approximations are not public, so the last bit may differ from hardware
//! (Reciprocal and Rsqrt are documented to be less accurate on the device).

use super::binary::lanes_for;
use super::support::{self, OpSupport};
use super::{check_dtype, dense, run, Count, Issue, Mask, Opnd, UnaryRepeatParams};
use crate::api::context::with_core;
use crate::api::tensor::LocalTensor;
use crate::core::vector::{dense1, map1};
use crate::dtype::Element;
use crate::error::{Result, SourceLoc};
use crate::numeric::{Arith, BitArith, FloatArith};

/// The two operands of a one-source instruction.
pub(crate) fn unary_operands<D: Element, S: Element>(
    dst: &LocalTensor<D>,
    src: &LocalTensor<S>,
    p: &UnaryRepeatParams,
) -> [Opnd; 2] {
    [
        Opnd::of(
            "dst",
            dst,
            p.dst_blk_stride as u32,
            p.dst_rep_stride as u32,
            true,
        ),
        Opnd::of(
            "src",
            src,
            p.src_blk_stride as u32,
            p.src_rep_stride as u32,
            false,
        ),
    ]
}

/// Runs `dst = f(src, sat)` on every enabled lane, with `T` checked against `support`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn unary<T: Element, F: Fn(T, bool) -> T>(
    api: &'static str,
    support: &OpSupport,
    loc: SourceLoc,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    issue: Issue,
    p: UnaryRepeatParams,
    f: F,
) -> Result<()> {
    with_core(
        api,
        loc,
        #[inline(always)]
        |core| {
            check_dtype(core, api, T::DTYPE, support)?;
            let sat = core.vector.fp16_saturation;
            let pass =
                |ub: &mut [u8], n, d, [a]: [u64; 1]| dense1(ub, n, d, a, a == d, |x: T| f(x, sat));
            if dense::try_pass(core, api, loc, issue, dst, [src], pass) {
                return Ok(());
            }
            let ops = unary_operands(dst, src, &p);
            run(
                core,
                api,
                loc,
                lanes_for(T::SIZE),
                issue,
                &ops,
                |ub, shape, o| map1(ub, shape, o[0], o[1], |a: T| f(a, sat)),
            )
        },
    )
}

macro_rules! unary_op {
    ($name:ident, $name_l0:ident, $api:literal, $support:expr, $bound:path, $formula:literal, $f:expr) => {
        #[doc = concat!("`", $api, "(dst, src, count)`: level 2, `", $formula,
            "` for the first `count` elements (or [`KEEP_MASK`](super::KEEP_MASK)).")]
        #[track_caller]
        #[inline(always)]
        pub fn $name<T: $bound>(
            dst: &LocalTensor<T>,
            src: &LocalTensor<T>,
            count: impl Into<Count>,
        ) -> Result<()> {
            unary(
                $api,
                &$support,
                SourceLoc::caller(),
                dst,
                src,
                count.into().into(),
                UnaryRepeatParams::default(),
                $f,
            )
        }

        #[doc = concat!("`", $api, "(dst, src, mask, repeatTime, params)`: level 0, `", $formula,
            "` on the lanes `mask` enables, for `repeat_times` repeats; strides in 32-byte blocks.")]
        #[track_caller]
        pub fn $name_l0<T: $bound>(
            dst: &LocalTensor<T>,
            src: &LocalTensor<T>,
            mask: impl Into<Mask>,
            repeat_times: u8,
            params: UnaryRepeatParams,
        ) -> Result<()> {
            unary(
                $api,
                &$support,
                SourceLoc::caller(),
                dst,
                src,
                Issue::level0(mask, repeat_times),
                params,
                $f,
            )
        }
    };
}

unary_op!(
    exp,
    exp_l0,
    "Exp",
    support::TRANSCENDENTAL,
    FloatArith,
    "dst = e^src",
    T::exp
);
unary_op!(
    ln,
    ln_l0,
    "Ln",
    support::TRANSCENDENTAL,
    FloatArith,
    "dst = ln(src)",
    T::ln
);
unary_op!(
    sqrt,
    sqrt_l0,
    "Sqrt",
    support::TRANSCENDENTAL,
    FloatArith,
    "dst = √src",
    T::sqrt
);
unary_op!(
    rsqrt,
    rsqrt_l0,
    "Rsqrt",
    support::TRANSCENDENTAL,
    FloatArith,
    "dst = 1 / √src",
    T::rsqrt
);
unary_op!(
    reciprocal,
    reciprocal_l0,
    "Reciprocal",
    support::TRANSCENDENTAL,
    FloatArith,
    "dst = 1 / src",
    T::reciprocal
);
unary_op!(
    abs,
    abs_l0,
    "Abs",
    support::ABS,
    Arith,
    "dst = |src|",
    |a, s| T::abs(a).finish(s)
);
unary_op!(
    relu,
    relu_l0,
    "Relu",
    support::RELU,
    Arith,
    "dst = max(0, src)",
    |a, s| { T::max(a, T::default()).finish(s) }
);
unary_op!(
    not,
    not_l0,
    "Not",
    support::BITWISE,
    BitArith,
    "dst = ~src (bitwise)",
    |a, _| T::not(a)
);
