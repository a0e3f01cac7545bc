//! `Sin` and `Cos` (数学计算/Sin, Cos): half and float; A2, A3 and 310P.
//!
//! As the device does it, in float (half is widened first and narrowed at the end): the
//! argument is reduced by k = round(x/π) (Cos: k = rint(x/π + ½), then shifted by π/2) with π
//! split into four (Cos: five) parts, so x − kπ keeps its low bits; then
//! sin(r) ≈ r·(1 + r²(R3 + r²(R2 + r²(R1 + r²R0)))) times the sign (−1)^k, computed as
//! 4⌊k/2⌋ − 2k + 1. Cos clamps the result to [−1, 1]. The rounding of k is one `Cast` float →
//! float on A2/A3 and a round trip through int32 on 310P. The page requires |x| ≤ 65504.
//!
//! Temporary space per element: half 16 bytes (4 floats), float 12 bytes (3 floats) or 8 with
//! `isReuseSource`, which then overwrites `srcTensor` with the reduced argument.

use super::common::{
    add, adds, element_wise, horner, maxs, mins, mul, muls, narrow, round_float, scaled_tmp_size,
    sub, widen, Chunk,
};
use crate::adv::common::Tmp;
use crate::chip::Product;
use crate::dtype::{DType, Element};
use crate::error::{Result, SourceLoc};
use crate::numeric::RoundMode;
use crate::LocalTensor;

/// 1/π.
const INV_PI: f32 = 0.3183098733425140380859375_f64 as f32;
/// π in parts: 3.140625 + 0.0009670257568359375 + 6.27711e-7 + 1.21645e-10 (+ Cos's fifth).
const PI_PARTS: [f32; 4] = [
    3.140625,
    0.0009670257568359375_f64 as f32,
    6.2771141529083251953125e-7_f64 as f32,
    1.21644916362129151821136474609375e-10_f64 as f32,
];
/// Cos's fifth part of π.
const PI_PART_4: f32 = -1.0290623200529979163359041220560e-13_f64 as f32;
/// π/2 rounded to float, added after the second part (Cos).
const HALF_PI_HIGH: f32 = 1.57079637050628662109375_f64 as f32;
/// π/2's remainder below [`HALF_PI_HIGH`], negated (Cos).
const HALF_PI_LOW_NEG: f32 = -0.00000004371139000189375_f64 as f32;
/// sin(r)/r ≈ Σ c[k]·r^(2k), c[0] first.
const SIN_POLY: [f32; 5] = [
    1.0,
    -0.1666665792_f64 as f32,
    0.008333049340_f64 as f32,
    -0.0001980894471_f64 as f32,
    2.604926501e-6_f64 as f32,
];

type L = LocalTensor<f32>;

/// Which function a call computes.
#[derive(Clone, Copy, PartialEq)]
enum Which {
    Sin,
    Cos,
}

/// `Sin<T, isReuseSource>(dst, src, [sharedTmpBuffer,] calCount)`: `dst[i] = sin(src[i])` for
/// the first `count` elements (radians, |x| ≤ 65504). `T`: half or float. `tmp`: the caller's
/// buffer or the pipe's stack (`GetSinMaxMinTmpSize`). `reuse_source` (float only) lets the
/// call overwrite `src`.
#[track_caller]
pub fn sin<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: Tmp,
    count: u32,
    reuse_source: bool,
) -> Result<()> {
    sin_or_cos(
        Which::Sin,
        SourceLoc::caller(),
        dst,
        src,
        tmp,
        count,
        reuse_source,
    )
}

/// `Cos<T, isReuseSource>(dst, src, [sharedTmpBuffer,] calCount)`: `dst[i] = cos(src[i])` for
/// the first `count` elements (radians, |x| ≤ 65504), clamped to [−1, 1]. As [`sin`]
/// otherwise (`GetCosMaxMinTmpSize`).
#[track_caller]
pub fn cos<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: Tmp,
    count: u32,
    reuse_source: bool,
) -> Result<()> {
    sin_or_cos(
        Which::Cos,
        SourceLoc::caller(),
        dst,
        src,
        tmp,
        count,
        reuse_source,
    )
}

fn sin_or_cos<T: Element>(
    which: Which,
    loc: SourceLoc,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: Tmp,
    count: u32,
    reuse: bool,
) -> Result<()> {
    let api = if which == Which::Sin { "Sin" } else { "Cos" };
    let float_bytes = if reuse { 8 } else { 12 };
    let per = move |t: DType| if t == DType::Half { 16 } else { float_bytes };
    element_wise(api, loc, dst, src, tmp, count, per, false, |c: Chunk<T>| {
        let (round, kpi) = (c.f32_slot(0)?, c.f32_slot(1)?);
        if T::DTYPE == DType::Float {
            let (d, s) = c.as_type::<f32>();
            let x = if reuse { s } else { c.f32_slot(2)? };
            reduce(which, c.product, &x, &s, &round, &kpi)?;
            polynomial(which, c.product, &d, &x, &round, &kpi)
        } else {
            let (d, s) = c.as_type();
            let (wide, round, kpi, x) = (round, kpi, c.f32_slot(2)?, c.f32_slot(3)?);
            widen(&wide, &s)?;
            reduce(which, c.product, &x, &wide, &round, &kpi)?;
            polynomial(which, c.product, &wide, &x, &round, &kpi)?;
            narrow(&d, &wide, RoundMode::CAST_NONE)
        }
    })
}

/// x = src − k·π in `x`, k in `round` (`kpi` scratch).
fn reduce(which: Which, p: Product, x: &L, src: &L, round: &L, kpi: &L) -> Result<()> {
    muls(round, src, INV_PI)?;
    if which == Which::Sin {
        round_float(p, round, round, RoundMode::CAST_ROUND)?;
    } else {
        adds(round, round, 0.5)?;
        round_float(p, round, round, RoundMode::CAST_RINT)?;
    }
    for (i, &part) in PI_PARTS.iter().enumerate() {
        muls(kpi, round, part)?;
        sub(x, if i == 0 { src } else { x }, kpi)?;
        if which == Which::Cos && i == 1 {
            adds(x, x, HALF_PI_HIGH)?;
        }
    }
    if which == Which::Cos {
        muls(kpi, round, PI_PART_4)?;
        sub(x, x, kpi)?;
        adds(x, x, HALF_PI_LOW_NEG)?;
    }
    Ok(())
}

/// dst = (−1)^k · x·P(x²) (Cos: clamped to [−1, 1]); `round` (k) and `kpi` are consumed.
fn polynomial(which: Which, p: Product, dst: &L, x: &L, round: &L, kpi: &L) -> Result<()> {
    // The sign 4⌊k/2⌋ − 2k + 1, and x² in kpi.
    mul(kpi, x, x)?;
    muls(dst, round, 0.5)?;
    round_float(p, dst, dst, RoundMode::CAST_FLOOR)?;
    muls(dst, dst, 4.0)?;
    muls(round, round, -2.0)?;
    add(dst, dst, round)?;
    adds(dst, dst, 1.0)?;
    horner(round, kpi, kpi, &SIN_POLY)?;
    mul(round, round, x)?;
    mul(dst, round, dst)?;
    if which == Which::Cos {
        mins(dst, dst, 1.0)?;
        maxs(dst, dst, -1.0)?;
    }
    Ok(())
}

/// The `maxLiveNodeCount` of Sin and Cos: float 3 (2 with `isReuseSource`), half 8.
fn factor(type_size: u32, reuse: bool) -> u32 {
    match (type_size, reuse) {
        (4, true) => 2,
        (4, false) => 3,
        _ => 8,
    }
}

/// `GetSinMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue)` (and
/// `GetCosMaxMinTmpSize`, the same): bytes as `(max, min)`: factor · max(elements ·
/// typeSize, 256) and factor · 256, factor 3 for float (2 reusing the source), 8 for half;
/// `(0, 0)` for half with `isReuseSource`, which the vendor rejects.
pub fn sin_max_min_tmp_size(elements: u32, type_size: u32, reuse: bool) -> (u32, u32) {
    if type_size != 4 && reuse {
        return (0, 0);
    }
    scaled_tmp_size(elements, type_size, factor(type_size, reuse))
}

/// `GetSinTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuf)` (and Cos's): float 3,
/// half 8; no extra bytes.
pub fn sin_tmp_buffer_factor_size(type_size: u32) -> (u32, u32) {
    (factor(type_size, false), 0)
}
