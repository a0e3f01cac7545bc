//! `Asinh`, `Acosh` and `Atanh` (数学计算/Asinh, Acosh, Atanh): half and float; A2, A3 and
//! 310P.
//!
//! As the device does it, in float (half is widened first): asinh(x) = sign(x)·ln(|x| +
//! √(x² + 1)) with sign(x) = x·2^62/(|x·2^62| + 2^−62); acosh(x) = ln(y·(y/y)), y = x +
//! √(x² − 1) (so y = ∞ gives NaN); atanh(x) = ½·ln((1 + x)/(1 − x)). Each lays out its tail
//! chunk by the tail's length rounded up to 32 elements.
//!
//! Temporary space per element: Asinh 12 bytes; Acosh half 8, float 4; Atanh half 8, float 4.

use super::common::{
    abs, add, adds, div, element_wise, ln, mul, muls, narrow, per_elem, sign, sqrt, widen, Chunk,
};
use crate::adv::common::Tmp;
use crate::dtype::{DType, Element};
use crate::error::{Result, SourceLoc};
use crate::numeric::RoundMode;
use crate::LocalTensor;

type L<T> = LocalTensor<T>;

/// `Asinh<T, isReuseSource>(dst, src, [sharedTmpBuffer,] calCount)`: `dst[i] = asinh(src[i])`
/// for the first `count` elements. `T`: half or float. `tmp`: the caller's buffer or the
/// pipe's stack (`GetAsinhMaxMinTmpSize`).
#[track_caller]
pub fn asinh<T: Element>(dst: &L<T>, src: &L<T>, tmp: Tmp, count: u32) -> Result<()> {
    let per = per_elem(12, 12);
    element_wise(
        "Asinh",
        SourceLoc::caller(),
        dst,
        src,
        tmp,
        count,
        per,
        true,
        |c: Chunk<T>| {
            let (f1, f3, f2) = (c.f32_slot(0)?, c.f32_slot(1)?, c.f32_slot(2)?);
            if T::DTYPE == DType::Float {
                let (d, s) = c.as_type::<f32>();
                abs(&f1, &s)?;
                ln_of_sum(&f2, &f1)?;
                sign(&f1, &s, &f3)?;
                mul(&d, &f2, &f1)
            } else {
                let (d, s) = c.as_type();
                widen(&f1, &s)?;
                abs(&f1, &f1)?;
                ln_of_sum(&f2, &f1)?;
                widen(&f1, &s)?;
                sign(&f1, &f1, &f3)?;
                mul(&f2, &f2, &f1)?;
                narrow(&d, &f2, RoundMode::CAST_NONE)
            }
        },
    )
}

/// dst = ln(a + √(a² + 1)).
fn ln_of_sum(dst: &L<f32>, a: &L<f32>) -> Result<()> {
    mul(dst, a, a)?;
    adds(dst, dst, 1.0)?;
    sqrt(dst, dst)?;
    add(dst, dst, a)?;
    ln(dst, dst)
}

/// `Acosh<T, isReuseSource>(dst, src, [sharedTmpBuffer,] calCount)`: `dst[i] = acosh(src[i])`
/// (src ≥ 1; NaN below) for the first `count` elements. `T`: half or float. `tmp`: the
/// caller's buffer or the pipe's stack (`GetAcoshMaxMinTmpSize`); float also uses `dstTensor`
/// as scratch.
#[track_caller]
pub fn acosh<T: Element>(dst: &L<T>, src: &L<T>, tmp: Tmp, count: u32) -> Result<()> {
    let per = per_elem(8, 4);
    element_wise(
        "Acosh",
        SourceLoc::caller(),
        dst,
        src,
        tmp,
        count,
        per,
        true,
        |c: Chunk<T>| {
            let f1 = c.f32_slot(0)?;
            if T::DTYPE == DType::Float {
                let (d, s) = c.as_type::<f32>();
                mul(&f1, &s, &s)?;
                adds(&f1, &f1, -1.0)?;
                sqrt(&f1, &f1)?;
                add(&f1, &s, &f1)?;
                div(&d, &f1, &f1)?;
                mul(&f1, &f1, &d)?;
                ln(&d, &f1)
            } else {
                let (d, s) = c.as_type();
                let f2 = c.f32_slot(1)?;
                widen(&f1, &s)?;
                mul(&f2, &f1, &f1)?;
                adds(&f2, &f2, -1.0)?;
                sqrt(&f2, &f2)?;
                add(&f2, &f2, &f1)?;
                div(&f1, &f2, &f2)?;
                mul(&f2, &f2, &f1)?;
                ln(&f2, &f2)?;
                narrow(&d, &f2, RoundMode::CAST_NONE)
            }
        },
    )
}

/// `Atanh<T, isReuseSource>(dst, src, [sharedTmpBuffer,] calCount)`: `dst[i] = atanh(src[i])`
/// (src in (−1, 1)) for the first `count` elements. `T`: half or float. `tmp`: the caller's
/// buffer or the pipe's stack (`GetAtanhMaxMinTmpSize`).
#[track_caller]
pub fn atanh<T: Element>(dst: &L<T>, src: &L<T>, tmp: Tmp, count: u32) -> Result<()> {
    let per = per_elem(8, 4);
    element_wise(
        "Atanh",
        SourceLoc::caller(),
        dst,
        src,
        tmp,
        count,
        per,
        true,
        |c: Chunk<T>| {
            let f1 = c.f32_slot(0)?;
            if T::DTYPE == DType::Float {
                let (d, s) = c.as_type::<f32>();
                adds(&f1, &s, 1.0)?;
                half_ln_ratio(&d, &s, &f1)
            } else {
                let (d, s) = c.as_type();
                let f2 = c.f32_slot(1)?;
                widen(&f1, &s)?;
                adds(&f2, &f1, 1.0)?;
                half_ln_ratio(&f1, &f1, &f2)?;
                narrow(&d, &f1, RoundMode::CAST_NONE)
            }
        },
    )
}

/// dst = ½·ln(num/(1 − x)) where `num` holds 1 + x (`dst` may be `x`).
fn half_ln_ratio(dst: &L<f32>, x: &L<f32>, num: &L<f32>) -> Result<()> {
    muls(dst, x, -1.0)?;
    adds(dst, dst, 1.0)?;
    div(dst, num, dst)?;
    ln(dst, dst)?;
    muls(dst, dst, 0.5)
}

/// `GetAsinhMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue)`: bytes as
/// `(max, min)`: 3 · max(elements · typeSize, 256) and 3 · 256.
pub fn asinh_max_min_tmp_size(elements: u32, type_size: u32) -> (u32, u32) {
    super::common::scaled_tmp_size(elements, type_size, 3)
}

/// `GetAsinhTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuf)`: 3 for both types.
pub fn asinh_tmp_buffer_factor_size(_type_size: u32) -> (u32, u32) {
    (3, 0)
}

/// `GetAcoshMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue)`: bytes as
/// `(max, min)`: max(factor · elements, 256) · typeSize and factor · 256; factor 1 for float, 2
/// for half.
pub fn acosh_max_min_tmp_size(elements: u32, type_size: u32) -> (u32, u32) {
    let calc = acosh_tmp_buffer_factor_size(type_size).0;
    ((calc * elements).max(256) * type_size, calc * 256)
}

/// `GetAcoshTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuf)`: float 1, half 2.
pub fn acosh_tmp_buffer_factor_size(type_size: u32) -> (u32, u32) {
    (if type_size == 4 { 1 } else { 2 }, 0)
}

/// `GetAtanhMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue)`: bytes as
/// `(max, min)`: factor · max(elements · typeSize, 256) and factor · 256; factor 1 for float,
/// 4 for half.
pub fn atanh_max_min_tmp_size(elements: u32, type_size: u32) -> (u32, u32) {
    super::common::scaled_tmp_size(
        elements,
        type_size,
        atanh_tmp_buffer_factor_size(type_size).0,
    )
}

/// `GetAtanhTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuf)`: float 1, half 4.
pub fn atanh_tmp_buffer_factor_size(type_size: u32) -> (u32, u32) {
    (if type_size == 4 { 1 } else { 4 }, 0)
}
