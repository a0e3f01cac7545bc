//! `Tan` (数学计算/Tan): half and float; A2, A3 and 310P.
//!
//! As the device does it, in float (half is widened first): k = rint(x/π) (one `Cast` on
//! A2/A3, a round trip through int32 on 310P), r = x − kπ with π in five parts, and alongside
//! r ± π/2 with π/2 in two parts; then tan(r) = r·((r²·R0 + R1)·r² + R2) / ((r² + R3)·(r +
//! π/2)·(r − π/2)).
//!
//! Temporary space per element: half 20 bytes (5 floats), float 16 bytes (4 floats); the
//! float path also uses `dstTensor` as scratch. The tail chunk is laid out by its own length
//! rounded up to 32 elements.

use super::common::{
    adds, div, element_wise, mul, muls, narrow, per_elem, round_float, scaled_tmp_size, sub, widen,
    Chunk,
};
use crate::adv::common::Tmp;
use crate::chip::Product;
use crate::dtype::{DType, Element};
use crate::error::{Result, SourceLoc};
use crate::numeric::RoundMode;
use crate::LocalTensor;

const API: &str = "Tan";

/// 1/π.
const INV_PI: f32 = 0.3183098733425140380859375_f64 as f32;
/// π in five parts.
const PI_PARTS: [f32; 5] = [
    3.140625,
    0.0009670257568359375_f64 as f32,
    6.2771141529083251953125e-7_f64 as f32,
    1.21644916362129151821136474609375e-10_f64 as f32,
    -1.0291767438275201129727065563201904296875e-13_f64 as f32,
];
/// π/2 rounded to float.
const HALF_PI_HIGH: f32 = 1.57079637050628662109375_f64 as f32;
/// π/2's remainder below [`HALF_PI_HIGH`].
const HALF_PI_LOW: f32 = 0.00000004371139000189375_f64 as f32;
/// Numerator R0, R1, R2 and denominator R3 of the rational approximation.
const R: [f32; 4] = [
    0.0698520831551998762793_f64 as f32,
    -6.8711573651634203789_f64 as f32,
    61.20362572811089435388_f64 as f32,
    -24.8048928861126769186219_f64 as f32,
];

type L = LocalTensor<f32>;

/// `Tan<T, isReuseSource>(dst, src, [sharedTmpBuffer,] calCount)`: `dst[i] = tan(src[i])`
/// (radians) for the first `count` elements. `T`: half or float. `tmp`: the caller's buffer or
/// the pipe's stack (`GetTanMaxMinTmpSize`).
#[track_caller]
pub fn tan<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: Tmp,
    count: u32,
) -> Result<()> {
    let per = per_elem(20, 16);
    element_wise(
        API,
        SourceLoc::caller(),
        dst,
        src,
        tmp,
        count,
        per,
        true,
        |c: Chunk<T>| {
            let slot = |i| c.f32_slot(i);
            if T::DTYPE == DType::Float {
                let (d, s) = c.as_type::<f32>();
                let (round, lo, hi, x) = (slot(0)?, slot(1)?, slot(2)?, slot(3)?);
                adds(&x, &s, 0.0)?;
                reduce(c.product, &d, &x, &round, &lo, &hi)?;
                rational(&d, &x, &round, &lo, &hi)
            } else {
                let (d, s) = c.as_type();
                let (out, x, round, lo, hi) = (slot(0)?, slot(1)?, slot(2)?, slot(3)?, slot(4)?);
                widen(&x, &s)?;
                reduce(c.product, &out, &x, &round, &lo, &hi)?;
                rational(&out, &x, &round, &lo, &hi)?;
                narrow(&d, &out, RoundMode::CAST_NONE)
            }
        },
    )
}

/// x −= k·π with k = rint(x/π) in `round`; `lo` = x + π/2 and `hi` = x − π/2 (`kpi` scratch).
fn reduce(p: Product, kpi: &L, x: &L, round: &L, lo: &L, hi: &L) -> Result<()> {
    muls(round, x, INV_PI)?;
    round_float(p, round, round, RoundMode::CAST_RINT)?;
    for (i, &part) in PI_PARTS.iter().enumerate() {
        muls(kpi, round, part)?;
        sub(x, x, kpi)?;
        if i == 1 {
            adds(lo, x, HALF_PI_HIGH)?;
            adds(hi, x, -HALF_PI_HIGH)?;
        }
        if i >= 2 {
            sub(lo, lo, kpi)?;
            sub(hi, hi, kpi)?;
        }
        if i == 2 {
            adds(lo, lo, -HALF_PI_LOW)?;
            adds(hi, hi, HALF_PI_LOW)?;
        }
    }
    Ok(())
}

/// dst = x·P(x²) / ((x² + R3)·lo·hi); `sq` scratch.
fn rational(dst: &L, x: &L, sq: &L, lo: &L, hi: &L) -> Result<()> {
    mul(sq, x, x)?;
    muls(dst, sq, R[0])?;
    adds(dst, dst, R[1])?;
    mul(dst, dst, sq)?;
    adds(dst, dst, R[2])?;
    mul(dst, dst, x)?;
    adds(sq, sq, R[3])?;
    mul(sq, sq, lo)?;
    mul(sq, sq, hi)?;
    div(dst, dst, sq)
}

fn factor(type_size: u32) -> u32 {
    if type_size == 4 {
        4
    } else {
        10
    }
}

/// `GetTanMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue)`: bytes as
/// `(max, min)`: factor · max(elements · typeSize, 256) and factor · 256; factor 4 for float,
/// 10 for half.
pub fn tan_max_min_tmp_size(elements: u32, type_size: u32) -> (u32, u32) {
    scaled_tmp_size(elements, type_size, factor(type_size))
}

/// `GetTanTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuf)`: float 4, half 10.
pub fn tan_tmp_buffer_factor_size(type_size: u32) -> (u32, u32) {
    (factor(type_size), 0)
}
