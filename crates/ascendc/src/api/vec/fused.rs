//! Fused two-source instructions that convert their result: AddReluCast, SubReluCast, MulCast,
//! AddDeqRelu, and the fused multiply-add with ReLU, MulAddRelu.
//!
//! Each result is computed in the source type (one rounding, fp16 saturation by default), then
//! converted to the destination type with round-to-nearest-even (`CAST_RINT`); integer
//! destinations saturate at their range. Lanes per repeat follow the wider operand type (the
//! `mask` counts source elements for half → int8). Level 2 takes a count, level 0 a mask, a
//! repeat count and `BinaryRepeatParams` strides in 32-byte blocks; disabled lanes keep the old
//! destination.

use super::binary::{lanes_for, ternary};
use super::support::{self, PairSupport};
use super::{run, BinaryRepeatParams, Count, Issue, Mask};
use crate::api::context::with_core;
use crate::api::tensor::LocalTensor;
use crate::core::spr::DeqScaleReg;
use crate::core::vector::map2;
use crate::core::Core;
use crate::dtype::{f16, DType, Element};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::numeric::{Arith, CastElem, Exact, FloatArith, RoundMode};
use std::cell::Cell;

/// Checks a (source, destination) pair against a per-product table.
pub(crate) fn check_pair(
    core: &Core,
    api: &'static str,
    src: DType,
    dst: DType,
    table: &PairSupport,
) -> Result<()> {
    let pairs = table.pairs(core.profile.product);
    if pairs.is_empty() {
        return Err(SimError::new(
            Category::Unsupported,
            api,
            format!("{api} is not supported on {}", core.profile),
        ));
    }
    if pairs.contains(&(src, dst)) {
        return Ok(());
    }
    let list: Vec<String> = pairs.iter().map(|(s, d)| format!("{s} → {d}")).collect();
    Err(SimError::new(
        Category::Type,
        api,
        format!(
            "source type {src} with destination type {dst} is not supported on {} (supported: {})",
            core.profile.soc,
            list.join(", ")
        ),
    ))
}

/// The half factor of `SetDeqScale(half)`, or an error when DEQSCALE holds another form.
pub(crate) fn half_deq_scale(core: &Core, api: &'static str) -> Result<f64> {
    match core.spr.deq {
        DeqScaleReg::Reset | DeqScaleReg::Half => Ok(core.vector.deq_scale.to_f64()),
        other => Err(SimError::new(
            Category::Unsupported,
            api,
            format!(
                "{api} int32 → half reads the factor of SetDeqScale(half scale), but DEQSCALE holds the {} form",
                match other {
                    DeqScaleReg::Quant(_) => "(float scale, int16_t offset, bool signMode)",
                    _ => "vector-table (vdeq, vdeqInfo)",
                }
            ),
        )),
    }
}

/// Runs `dst = convert(f(src0, src1, sat))` on every enabled lane: `f` gives the exact value the
/// destination receives (`deq`: given the `SetDeqScale(half)` factor), converted with `CAST_RINT` (negative values to an unsigned type are
/// a hardware exception, written as 0 with a warning).
#[allow(clippy::too_many_arguments)]
fn converting<D: CastElem, S: Element>(
    api: &'static str,
    table: &PairSupport,
    loc: SourceLoc,
    dst: &LocalTensor<D>,
    [src0, src1]: [&LocalTensor<S>; 2],
    issue: Issue,
    p: BinaryRepeatParams,
    deq: bool,
    f: impl Fn(S, S, bool, f64) -> Exact,
) -> Result<()> {
    with_core(api, loc, |core| {
        check_pair(core, api, S::DTYPE, D::DTYPE, table)?;
        let scale = if deq { half_deq_scale(core, api)? } else { 1.0 };
        let ops = super::binary::operands(dst, src0, src1, &p);
        let sat = core.vector.fp16_saturation;
        let exceptions = Cell::new(0u64);
        let lanes = lanes_for(S::SIZE.max(D::SIZE));
        run(core, api, loc, lanes, issue, &ops, |ub, shape, o| {
            map2(ub, shape, o[0], o[1], o[2], |a: S, b: S| {
                let (d, exception) = D::convert(f(a, b, sat, scale), RoundMode::CAST_RINT, sat);
                if exception {
                    exceptions.set(exceptions.get() + 1);
                }
                d
            })
        })?;
        if exceptions.get() > 0 {
            core.warn(
                Category::DataLoss,
                api,
                format!(
                    "{} negative product(s) converted to unsigned {} (a hardware exception): written as 0",
                    exceptions.get(),
                    D::DTYPE
                ),
                loc,
            );
        }
        Ok(())
    })
}

/// `max(0, x)` as the exact value of an already rounded source-type result (NaN → 0).
fn relu_exact<S: CastElem + Arith>(x: S) -> Exact {
    match x.exact() {
        Exact::Int(i) => Exact::Int(i.max(0)),
        Exact::Float(v) => Exact::Float(if v > 0.0 { v } else { 0.0 }),
    }
}

/// Source types of AddReluCast / SubReluCast / MulCast: their arithmetic and exact value.
pub trait FusedSrc: Arith + CastElem {}
impl FusedSrc for f16 {}
impl FusedSrc for i16 {}
impl FusedSrc for f32 {}

macro_rules! relu_cast_op {
    ($name:ident, $name_l0:ident, $api:literal, $table:expr, $formula:literal, $f:expr) => {
        #[doc = concat!("`", $api, "(dst, src0, src1, count)`: level 2, `", $formula,
            "` for the first `count` elements (or [`KEEP_MASK`](super::KEEP_MASK)); the source-type ",
            "result is converted to `D` with round-to-nearest-even and saturation.")]
        #[track_caller]
        pub fn $name<D: CastElem, S: FusedSrc>(
            dst: &LocalTensor<D>,
            src0: &LocalTensor<S>,
            src1: &LocalTensor<S>,
            count: impl Into<Count>,
        ) -> Result<()> {
            converting(
                $api,
                &$table,
                SourceLoc::caller(),
                dst,
                [src0, src1],
                count.into().into(),
                BinaryRepeatParams::default(),
                false,
                $f,
            )
        }

        #[doc = concat!("`", $api, "(dst, src0, src1, mask, repeatTime, params)`: level 0 of [`",
            stringify!($name), "`]; `mask` counts lanes of the wider type; strides in 32-byte blocks.")]
        #[track_caller]
        pub fn $name_l0<D: CastElem, S: FusedSrc>(
            dst: &LocalTensor<D>,
            src0: &LocalTensor<S>,
            src1: &LocalTensor<S>,
            mask: impl Into<Mask>,
            repeat_times: u8,
            params: BinaryRepeatParams,
        ) -> Result<()> {
            converting(
                $api,
                &$table,
                SourceLoc::caller(),
                dst,
                [src0, src1],
                Issue::level0(mask, repeat_times),
                params,
                false,
                $f,
            )
        }
    };
}

relu_cast_op!(
    add_relu_cast,
    add_relu_cast_l0,
    "AddReluCast",
    support::RELU_CAST,
    "dst = Cast(max(0, src0 + src1))",
    |a: S, b: S, sat, _| relu_exact(S::add(a, b, sat))
);
relu_cast_op!(
    sub_relu_cast,
    sub_relu_cast_l0,
    "SubReluCast",
    support::RELU_CAST,
    "dst = Cast(max(0, src0 − src1))",
    |a: S, b: S, sat, _| relu_exact(S::sub(a, b, sat))
);
relu_cast_op!(
    mul_cast,
    mul_cast_l0,
    "MulCast",
    support::MUL_CAST,
    "dst = Cast(src0 × src1)",
    |a: S, b: S, sat, _| S::mul(a, b, sat).exact()
);

/// `max(0, (a + b) × scale)` exactly (int32 wrap-around sum; NaN → 0).
fn deq_relu(a: i32, b: i32, scale: f64) -> Exact {
    let v = a.wrapping_add(b) as f64 * scale;
    Exact::Float(if v > 0.0 { v } else { 0.0 })
}

/// `AddDeqRelu(dst, src0, src1, count)`: level 2, `dst = max(0, half((src0 + src1) × scale))`
/// for the first `count` elements (or [`KEEP_MASK`](super::KEEP_MASK)): int32 sources (the sum
/// wraps), the `SetDeqScale(half)` factor, one rounding to nearest even.
#[track_caller]
pub fn add_deq_relu(
    dst: &LocalTensor<f16>,
    src0: &LocalTensor<i32>,
    src1: &LocalTensor<i32>,
    count: impl Into<Count>,
) -> Result<()> {
    converting(
        "AddDeqRelu",
        &support::ADD_DEQ_RELU,
        SourceLoc::caller(),
        dst,
        [src0, src1],
        count.into().into(),
        BinaryRepeatParams::default(),
        true,
        |a: i32, b: i32, _, s| deq_relu(a, b, s),
    )
}

/// `AddDeqRelu(dst, src0, src1, mask, repeatTime, params)`: level 0 of [`add_deq_relu`] (64
/// lanes per repeat); strides in 32-byte blocks.
#[track_caller]
pub fn add_deq_relu_l0(
    dst: &LocalTensor<f16>,
    src0: &LocalTensor<i32>,
    src1: &LocalTensor<i32>,
    mask: impl Into<Mask>,
    repeat_times: u8,
    params: BinaryRepeatParams,
) -> Result<()> {
    converting(
        "AddDeqRelu",
        &support::ADD_DEQ_RELU,
        SourceLoc::caller(),
        dst,
        [src0, src1],
        Issue::level0(mask, repeat_times),
        params,
        true,
        |a: i32, b: i32, _, s| deq_relu(a, b, s),
    )
}

/// `max(0, src0 × dst + src1)`: the product and the sum each rounded to `T`.
fn mul_add_relu_lane<T: FloatArith>(a: T, b: T, d: T, s: bool) -> T {
    let r = T::add(T::mul(a, d, s), b, s);
    if r > T::default() {
        r
    } else {
        T::default()
    }
}

/// `MulAddRelu(dst, src0, src1, count)`: level 2, `dst = max(0, src0 × dst + src1)` for the
/// first `count` elements (or [`KEEP_MASK`](super::KEEP_MASK)); the product and the sum are
/// each rounded to `T` (NaN → 0).
#[track_caller]
pub fn mul_add_relu<T: FloatArith>(
    dst: &LocalTensor<T>,
    src0: &LocalTensor<T>,
    src1: &LocalTensor<T>,
    count: impl Into<Count>,
) -> Result<()> {
    ternary(
        "MulAddRelu",
        &support::MUL_ADD_RELU,
        &support::MUL_ADD_RELU,
        SourceLoc::caller(),
        dst,
        [src0, src1],
        count.into().into(),
        BinaryRepeatParams::default(),
        mul_add_relu_lane,
    )
}

/// `MulAddRelu(dst, src0, src1, mask, repeatTime, params)`: level 0 of [`mul_add_relu`];
/// strides in 32-byte blocks.
#[track_caller]
pub fn mul_add_relu_l0<T: FloatArith>(
    dst: &LocalTensor<T>,
    src0: &LocalTensor<T>,
    src1: &LocalTensor<T>,
    mask: impl Into<Mask>,
    repeat_times: u8,
    params: BinaryRepeatParams,
) -> Result<()> {
    ternary(
        "MulAddRelu",
        &support::MUL_ADD_RELU,
        &support::MUL_ADD_RELU,
        SourceLoc::caller(),
        dst,
        [src0, src1],
        Issue::level0(mask, repeat_times),
        params,
        mul_add_relu_lane,
    )
}
