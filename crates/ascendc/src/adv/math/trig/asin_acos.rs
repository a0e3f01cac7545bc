//! `Asin` and `Acos` (数学计算/Asin, Acos): half and float; A2, A3 and 310P.
//!
//! As the device does it: with P the degree-15 Taylor series of asin, res1 = P(|x|) and
//! res2 = π/2 − P(√(1 − x²)); the result is sign(x)·(res1 if |x| < √½ else res2), the choice
//! made arithmetically as c = −⌊min(|x|, √½) − √½⌋ (a `Cast` to int32, half: int8, with
//! `CAST_FLOOR` and back), res1·c + res2·(1 − c); the sign is x·M / (|x·M| + 1/M). Acos is
//! π/2 − asin. half computes res2 and the blend in float and res1 and the choice in half.
//! Inputs outside [−1, 1] give NaN.
//!
//! Temporary space per element: half 12 bytes (2 floats + 2 halves), float 16 bytes.

use super::common::{
    abs, add, adds, element_wise, floor_via_int32, floor_via_int8, horner, mins, mul, muls, narrow,
    per_elem, scaled_tmp_size, sign, sqrt, widen, Chunk,
};
use crate::adv::common::Tmp;
use crate::dtype::{DType, Element};
use crate::error::{Result, SourceLoc};
use crate::numeric::{FloatArith, RoundMode};
use crate::{f16, LocalTensor};

/// Taylor coefficients of asin(x)/x in x², c[0] first.
const TAYLOR: [f32; 8] = [
    1.0,
    0.16666666666666666666666666666667_f64 as f32,
    0.075,
    0.04464285714285714285714285714286_f64 as f32,
    0.03038194444444444444444444444444_f64 as f32,
    0.02237215909090909090909090909091_f64 as f32,
    0.01735276442307692307692307692308_f64 as f32,
    0.01396484375,
];
const HALF_PI: f32 = 1.5707963267948966192313216916398_f64 as f32;
/// √½: where the two expansions meet.
const BOUNDARY: f32 = 0.70710678118654752440084436210485_f64 as f32;

type L<T> = LocalTensor<T>;

/// `Asin<T, isReuseSource>(dst, src, [sharedTmpBuffer,] calCount)`: `dst[i] = asin(src[i])`
/// (radians, src in [−1, 1]) for the first `count` elements. `T`: half or float. `tmp`: the
/// caller's buffer or the pipe's stack (`GetAsinMaxMinTmpSize`).
#[track_caller]
pub fn asin<T: Element>(dst: &L<T>, src: &L<T>, tmp: Tmp, count: u32) -> Result<()> {
    asin_or_acos("Asin", SourceLoc::caller(), dst, src, tmp, count)
}

/// `Acos<T, isReuseSource>(dst, src, [sharedTmpBuffer,] calCount)`: `dst[i] = acos(src[i])`
/// (radians, src in [−1, 1]) for the first `count` elements, as π/2 − asin. As [`asin`]
/// otherwise (`GetAcosMaxMinTmpSize`).
#[track_caller]
pub fn acos<T: Element>(dst: &L<T>, src: &L<T>, tmp: Tmp, count: u32) -> Result<()> {
    asin_or_acos("Acos", SourceLoc::caller(), dst, src, tmp, count)
}

fn asin_or_acos<T: Element>(
    api: &'static str,
    loc: SourceLoc,
    dst: &L<T>,
    src: &L<T>,
    tmp: Tmp,
    count: u32,
) -> Result<()> {
    let acos = api == "Acos";
    element_wise(
        api,
        loc,
        dst,
        src,
        tmp,
        count,
        per_elem(12, 16),
        false,
        |c: Chunk<T>| {
            let (f1, f2) = (c.f32_slot(0)?, c.f32_slot(1)?);
            if T::DTYPE == DType::Float {
                let (d, s) = c.as_type::<f32>();
                asin_float(&d, &s, &f1, &f2)?;
                if acos {
                    adds(&d, &d, -HALF_PI)?;
                    muls(&d, &d, -1.0)?;
                }
                Ok(())
            } else {
                let (d, s) = c.as_type::<f16>();
                let (h1, h2) = (c.f16_slot(4)?, c.f16_slot(5)?);
                asin_half(&d, &s, &f1, &f2, &h1, &h2)?;
                if acos {
                    adds(&f1, &f1, -HALF_PI)?;
                    muls(&f1, &f1, -1.0)?;
                    narrow(&d, &f1, RoundMode::CAST_NONE)?;
                }
                Ok(())
            }
        },
    )
}

/// dst = x·P(x²) (`sq` receives x²).
fn taylor<T: FloatArith>(dst: &L<T>, x: &L<T>, sq: &L<T>) -> Result<()> {
    mul(dst, x, x)?;
    mul(sq, x, x)?;
    horner(dst, dst, sq, &TAYLOR)?;
    mul(dst, dst, x)
}

/// dst = √s·P(s) from the square s; `s` becomes √s.
fn taylor_of_square(dst: &L<f32>, s: &L<f32>) -> Result<()> {
    muls(dst, s, 1.0)?;
    horner(dst, dst, s, &TAYLOR)?;
    sqrt(s, s)?;
    mul(dst, dst, s)
}

/// Float asin with scratch `t` and `t2`.
fn asin_float(dst: &L<f32>, src: &L<f32>, t: &L<f32>, t2: &L<f32>) -> Result<()> {
    // res2 = π/2 − P(√(1 − x²)) in t2.
    mul(t2, src, src)?;
    muls(t2, t2, -1.0)?;
    adds(t2, t2, 1.0)?;
    sqrt(dst, t2)?;
    taylor(t2, dst, t)?;
    muls(t2, t2, -1.0)?;
    adds(t2, t2, HALF_PI)?;
    // res1 = P(|x|) in dst.
    mul(t, src, src)?;
    taylor_of_square(dst, t)?;
    // The choice c in t, the blend, the sign.
    mins(t, t, BOUNDARY)?;
    adds(t, t, -BOUNDARY)?;
    floor_via_int32(t, t)?;
    choose(dst, t)?;
    mul(t2, t2, t)?;
    add(dst, dst, t2)?;
    sign(t2, src, t)?;
    mul(dst, dst, t2)
}

/// From t = ⌊min(|x|, √½) − √½⌋ = −c: dst ·= c, and t becomes 1 − c.
fn choose<T: FloatArith>(dst: &L<T>, t: &L<T>) -> Result<()> {
    muls(t, t, T::from_f64(-1.0))?;
    mul(dst, dst, t)?;
    muls(t, t, T::from_f64(-1.0))?;
    adds(t, t, T::from_f64(1.0))
}

/// Half asin: res2 and the blend in float (`f1`, `f2`), res1 and the choice in half (`h1`,
/// `h2`); the float result stays in `f1`.
fn asin_half(
    dst: &L<f16>,
    src: &L<f16>,
    f1: &L<f32>,
    f2: &L<f32>,
    h1: &L<f16>,
    h2: &L<f16>,
) -> Result<()> {
    let h = |x: f32| f16::from_f64(x as f64);
    widen(f2, src)?;
    mul(f2, f2, f2)?;
    muls(f2, f2, -1.0)?;
    adds(f2, f2, 1.0)?;
    taylor_of_square(f1, f2)?;
    muls(f1, f1, -1.0)?;
    adds(f1, f1, HALF_PI)?;
    abs(h2, src)?;
    taylor(dst, h2, h1)?;
    mins(h2, h2, h(BOUNDARY))?;
    adds(h2, h2, h(-BOUNDARY))?;
    floor_via_int8(h2, h2, &h1.reinterpret_cast())?;
    choose(dst, h2)?;
    widen(f2, h2)?;
    mul(f1, f1, f2)?;
    widen(f2, dst)?;
    add(f1, f2, f1)?;
    sign(h1, src, h2)?;
    widen(f2, h1)?;
    mul(f1, f1, f2)?;
    narrow(dst, f1, RoundMode::CAST_NONE)
}

fn factor(type_size: u32) -> u32 {
    if type_size == 4 {
        2
    } else {
        6
    }
}

/// `GetAsinMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue)` (and
/// `GetAcosMaxMinTmpSize`, the same): bytes as `(max, min)`: factor · max(elements · typeSize,
/// 256) and factor · 256; factor 2 for float, 6 for half.
pub fn asin_max_min_tmp_size(elements: u32, type_size: u32) -> (u32, u32) {
    scaled_tmp_size(elements, type_size, factor(type_size))
}

/// `GetAsinTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuffer)` (and Acos's): float
/// 2, half 6.
pub fn asin_tmp_buffer_factor_size(type_size: u32) -> (u32, u32) {
    (factor(type_size), 0)
}
