//! `Sinh`, `Cosh` and `Tanh` (数学计算/Sinh, Cosh, Tanh): half and float; A2, A3 and 310P.
//!
//! As the device does it, in float (half is widened first):
//! sinh(x) = e^(x − ln2) − e^(−x − ln2); cosh(x) = y + 0.25/y with y = e^(x − ln2) (half is
//! narrowed with `CAST_ROUND` on A2/A3, `CAST_NONE` on 310P); tanh(x) = (e^(2c) − 1)/(e^(2c) + 1)
//! with c = x clipped to [−8.8, 8.8].
//!
//! Temporary space per element: Sinh and Tanh half 8 bytes, float 4; Cosh half 12, float 8.

use super::common::{
    add, adds, div, dup, element_wise, exp, maxs, mins, muls, narrow, per_elem, scaled_tmp_size,
    sub, widen, Chunk,
};
use crate::adv::common::Tmp;
use crate::chip::Product;
use crate::dtype::{DType, Element};
use crate::error::{Result, SourceLoc};
use crate::numeric::RoundMode;
use crate::LocalTensor;

/// −ln 2.
const NEG_LN2: f32 = -0.69314718055994530941723212145818_f64 as f32;
/// tanh's input clip: tanh(8.8) rounds to 1 in float.
const TANH_CLIP: f32 = 8.8;

type L<T> = LocalTensor<T>;

/// `Sinh<T, isReuseSource>(dst, src, [sharedTmpBuffer,] calCount)`: `dst[i] = sinh(src[i])`
/// for the first `count` elements. `T`: half or float. `tmp`: the caller's buffer or the
/// pipe's stack (`GetSinhMaxMinTmpSize`).
#[track_caller]
pub fn sinh<T: Element>(dst: &L<T>, src: &L<T>, tmp: Tmp, count: u32) -> Result<()> {
    let per = per_elem(8, 4);
    element_wise(
        "Sinh",
        SourceLoc::caller(),
        dst,
        src,
        tmp,
        count,
        per,
        false,
        |c: Chunk<T>| {
            let f1 = c.f32_slot(0)?;
            if T::DTYPE == DType::Float {
                let (d, s) = c.as_type::<f32>();
                muls(&f1, &s, -1.0)?;
                adds(&f1, &f1, NEG_LN2)?;
                exp(&f1, &f1)?;
                adds(&d, &s, NEG_LN2)?;
                exp(&d, &d)?;
                sub(&d, &d, &f1)
            } else {
                let (d, s) = c.as_type();
                let f2 = c.f32_slot(1)?;
                widen(&f1, &s)?;
                adds(&f2, &f1, NEG_LN2)?;
                exp(&f2, &f2)?;
                muls(&f1, &f1, -1.0)?;
                adds(&f1, &f1, NEG_LN2)?;
                exp(&f1, &f1)?;
                sub(&f2, &f2, &f1)?;
                narrow(&d, &f2, RoundMode::CAST_NONE)
            }
        },
    )
}

/// `Cosh<T, isReuseSource>(dst, src, [sharedTmpBuffer,] calCount)`: `dst[i] = cosh(src[i])`
/// for the first `count` elements. `T`: half or float. `tmp`: the caller's buffer or the
/// pipe's stack (`GetCoshMaxMinTmpSize`).
#[track_caller]
pub fn cosh<T: Element>(dst: &L<T>, src: &L<T>, tmp: Tmp, count: u32) -> Result<()> {
    let per = per_elem(12, 8);
    element_wise(
        "Cosh",
        SourceLoc::caller(),
        dst,
        src,
        tmp,
        count,
        per,
        false,
        |c: Chunk<T>| {
            let (f1, f2) = (c.f32_slot(0)?, c.f32_slot(1)?);
            if T::DTYPE == DType::Float {
                let (d, s) = c.as_type::<f32>();
                y_plus_quarter_over_y(&d, &s, &f1, &f2)
            } else {
                let (d, s) = c.as_type();
                let f3 = c.f32_slot(2)?;
                widen(&f3, &s)?;
                y_plus_quarter_over_y(&f3, &f3, &f1, &f2)?;
                let mode = if c.product == Product::Ascend310P {
                    RoundMode::CAST_NONE
                } else {
                    RoundMode::CAST_ROUND
                };
                narrow(&d, &f3, mode)
            }
        },
    )
}

/// dst = y + 0.25/y with y = e^(src − ln2) (`y` and `t` scratch; `dst` may be `src`).
fn y_plus_quarter_over_y(dst: &L<f32>, src: &L<f32>, y: &L<f32>, t: &L<f32>) -> Result<()> {
    adds(t, src, NEG_LN2)?;
    exp(y, t)?;
    dup(dst, 0.25)?;
    div(t, dst, y)?;
    add(dst, y, t)
}

/// `Tanh<T, isReuseSource>(dst, src, [sharedTmpBuffer,] calCount)`: `dst[i] = tanh(src[i])`
/// for the first `count` elements. `T`: half or float. `tmp`: the caller's buffer or the
/// pipe's stack (`GetTanhMaxMinTmpSize`).
#[track_caller]
pub fn tanh<T: Element>(dst: &L<T>, src: &L<T>, tmp: Tmp, count: u32) -> Result<()> {
    let per = per_elem(8, 4);
    element_wise(
        "Tanh",
        SourceLoc::caller(),
        dst,
        src,
        tmp,
        count,
        per,
        false,
        |c: Chunk<T>| {
            if T::DTYPE == DType::Float {
                let (d, s) = c.as_type::<f32>();
                tanh_formula(&d, &s, &c.f32_slot(0)?)
            } else {
                let (d, s) = c.as_type();
                let (wide, clip) = (c.f32_slot(0)?, c.f32_slot(1)?);
                widen(&wide, &s)?;
                tanh_formula(&wide, &wide, &clip)?;
                narrow(&d, &wide, RoundMode::CAST_NONE)
            }
        },
    )
}

/// dst = (e^(2c) − 1)/(e^(2c) + 1), c = src clipped to ±8.8 in `clip`.
fn tanh_formula(dst: &L<f32>, src: &L<f32>, clip: &L<f32>) -> Result<()> {
    mins(clip, src, TANH_CLIP)?;
    maxs(clip, clip, -TANH_CLIP)?;
    muls(clip, clip, 2.0)?;
    exp(clip, clip)?;
    adds(dst, clip, -1.0)?;
    adds(clip, clip, 1.0)?;
    div(dst, dst, clip)
}

/// `GetSinhMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue)` (and
/// `GetTanhMaxMinTmpSize`, the same): bytes as `(max, min)`: factor · max(elements ·
/// typeSize, 256) and factor · 256; factor 1 for float, 4 for half.
pub fn sinh_max_min_tmp_size(elements: u32, type_size: u32) -> (u32, u32) {
    scaled_tmp_size(
        elements,
        type_size,
        sinh_tmp_buffer_factor_size(type_size).0,
    )
}

/// `GetSinhTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuf)` (and Tanh's): float 1,
/// half 4.
pub fn sinh_tmp_buffer_factor_size(type_size: u32) -> (u32, u32) {
    (if type_size == 4 { 1 } else { 4 }, 0)
}

/// `GetCoshMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue)`: bytes as
/// `(max, min)`: factor · max(elements · typeSize, 256) and factor · 256; factor 2 for float,
/// 6 for half.
pub fn cosh_max_min_tmp_size(elements: u32, type_size: u32) -> (u32, u32) {
    scaled_tmp_size(
        elements,
        type_size,
        cosh_tmp_buffer_factor_size(type_size).0,
    )
}

/// `GetCoshTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuffer)`: float 2, half 6.
pub fn cosh_tmp_buffer_factor_size(type_size: u32) -> (u32, u32) {
    (if type_size == 4 { 2 } else { 6 }, 0)
}
