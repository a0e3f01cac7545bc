//! `Atan` (数学计算/Atan): half and float; A2, A3 and 310P.
//!
//! As the device does it, in float (half is widened first): x is clipped to [−10000, 10000]
//! and a = |x|; atan(a) is the least of four Taylor evaluations (degree 9 or 13 in the
//! reduced argument): atan(a), π/8 + atan(t(a)), π/4 + atan(|(a − 1)/(a + 1)|) and
//! 3π/8 + atan(t(|(a − 1)/(a + 1)|)), with t(y) = |(y − tan(π/8))/(1 + y·tan(π/8))|. The sign
//! comes back by multiplying with x·2^62 / (|x·2^62| + 2^−62).
//!
//! Temporary space per element: half 24 bytes (6 floats), float 20 bytes (5 floats).

use super::common::{
    abs, adds, div, element_wise, horner, maxs, min, mins, mul, muls, narrow, per_elem,
    scaled_tmp_size, sign, widen, Chunk,
};
use crate::adv::common::Tmp;
use crate::dtype::{DType, Element};
use crate::error::{Result, SourceLoc};
use crate::numeric::RoundMode;
use crate::LocalTensor;

const API: &str = "Atan";

/// Taylor coefficients of atan(x)/x in x²: (−1)^k/(2k + 1).
const TAYLOR: [f32; 7] = [
    1.0,
    -0.3333333333333333_f64 as f32,
    0.2,
    -0.14285714285714285_f64 as f32,
    0.1111111111111111_f64 as f32,
    -0.09090909090909091_f64 as f32,
    0.07692307692307693_f64 as f32,
];
const PI_4: f32 = 0.78539816339744830961566084581988_f64 as f32;
const PI_8: f32 = 0.39269908169872415480783042290994_f64 as f32;
const TAN_PI_8: f32 = 0.4142135623730950_f64 as f32;
/// |x| beyond this is clipped (tan(π/2 − 10^−4) ≈ 10^4).
const CLIP: f32 = 10000.0;

type L = LocalTensor<f32>;

/// `Atan<T, isReuseSource>(dst, src, [sharedTmpBuffer,] calCount)`: `dst[i] = atan(src[i])`
/// (radians) for the first `count` elements. `T`: half or float. `tmp`: the caller's buffer or
/// the pipe's stack (`GetAtanMaxMinTmpSize`).
#[track_caller]
pub fn atan<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: Tmp,
    count: u32,
) -> Result<()> {
    let per = per_elem(24, 20);
    element_wise(
        API,
        SourceLoc::caller(),
        dst,
        src,
        tmp,
        count,
        per,
        false,
        |c: Chunk<T>| {
            let slots = [
                c.f32_slot(0)?,
                c.f32_slot(1)?,
                c.f32_slot(2)?,
                c.f32_slot(3)?,
                c.f32_slot(4)?,
            ];
            if T::DTYPE == DType::Float {
                let (d, s) = c.as_type::<f32>();
                formula(&d, &s, &slots)
            } else {
                let (d, s) = c.as_type();
                let wide = c.f32_slot(5)?;
                widen(&wide, &s)?;
                formula(&wide, &wide, &slots)?;
                narrow(&d, &wide, RoundMode::CAST_NONE)
            }
        },
    )
}

/// dst = atan(src) with the five scratch slots `[t, clip, abs, t2, square]`.
fn formula(dst: &L, src: &L, [t, clip, a, t2, sq]: &[L; 5]) -> Result<()> {
    mins(clip, src, CLIP)?;
    maxs(clip, clip, -CLIP)?;
    abs(a, clip)?;
    taylor(dst, a, sq, 4)?;
    // π/8 + atan(t(a)).
    transform(t, a, t2)?;
    taylor(t2, t, sq, 4)?;
    adds(t2, t2, PI_8)?;
    min(dst, dst, t2)?;
    // π/4 + atan(|(a − 1)/(a + 1)|).
    adds(t2, a, 1.0)?;
    adds(t, a, -1.0)?;
    div(t, t, t2)?;
    abs(t, t)?;
    taylor(t2, t, sq, 4)?;
    adds(t2, t2, PI_4)?;
    min(dst, dst, t2)?;
    // 3π/8 + atan(t(|(a − 1)/(a + 1)|)).
    transform(t2, t, sq)?;
    taylor(t, t2, sq, 6)?;
    adds(t, t, PI_8)?;
    adds(t, t, PI_4)?;
    min(dst, dst, t)?;
    sign(t, clip, t2)?;
    mul(dst, dst, t)
}

/// dst = x·Σ_{k≤n} TAYLOR[k]·x^(2k) (`sq` receives x²).
fn taylor(dst: &L, x: &L, sq: &L, n: usize) -> Result<()> {
    mul(sq, x, x)?;
    mul(dst, x, x)?;
    horner(dst, dst, sq, &TAYLOR[..=n])?;
    mul(dst, dst, x)
}

/// dst = |(y − tan(π/8)) / (1 + y·tan(π/8))| (`scratch` receives y − tan(π/8)).
fn transform(dst: &L, y: &L, scratch: &L) -> Result<()> {
    muls(dst, y, TAN_PI_8)?;
    adds(dst, dst, 1.0)?;
    adds(scratch, y, 0.0 - TAN_PI_8)?;
    div(dst, scratch, dst)?;
    abs(dst, dst)
}

fn factor(type_size: u32) -> u32 {
    if type_size == 4 {
        5
    } else {
        12
    }
}

/// `GetAtanMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue)`: bytes as
/// `(max, min)`: factor · max(elements · typeSize, 256) and factor · 256; factor 5 for float,
/// 12 for half.
pub fn atan_max_min_tmp_size(elements: u32, type_size: u32) -> (u32, u32) {
    scaled_tmp_size(elements, type_size, factor(type_size))
}

/// `GetAtanTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuf)`: float 5, half 12.
pub fn atan_tmp_buffer_factor_size(type_size: u32) -> (u32, u32) {
    (factor(type_size), 0)
}
