//! `Gelu`, `FasterGelu` and `FasterGeluV2` (激活函数/Gelu接口). half and float; A2, A3 and 310P.
//!
//! - Gelu: the tanh approximation in its overflow-free form,
//!   `y = 1.5957691216057308 · (x + 0.044715·x³)`, `x / (e^(−|y|) + 1) · e^(min(y, 0))`.
//! - FasterGelu: `x / (1 + e^(−1.702·x))`.
//! - FasterGeluV2: `x · (sgn(x) · (−0.1444 · (min(|0.7071·x|, 1.769) − 1.769)² + 0.5) + 0.5)`,
//!   the sign as `(x + 1e-12) / |x + 1e-12|`.
//!
//! As the device does it (the same on every product): in counter mode, chunk by chunk, with 2
//! (Gelu), 1 (FasterGelu) or 3 (FasterGeluV2) work tensors of one chunk each carved from the
//! temporary buffer; the chunk is the buffer's capacity in elements divided by the tensors
//! needed, in whole 32-element units. `highPrecision` on half widens each chunk to float in one
//! more buffer tensor, computes there and narrows back; `highPerformance` replaces each `Div`
//! by `Reciprocal` and `Mul`. The constants are rounded to the computing type.

use super::support::{check_type, BIN, HALF_FLOAT, NARROW, SAME, WIDEN};
use crate::adv::common::{
    barrier_v, check_count, counter_loop, require, run, split_count, Tmp, A2_A3_310P,
};
use crate::api::vec::binary::{add_l0, div_l0, mul_l0};
use crate::api::vec::cast::cast_l0;
use crate::api::vec::scalar::{adds_l0, mins_l0, muls_l0};
use crate::api::vec::unary::{abs_l0, exp_l0, reciprocal_l0};
use crate::dtype::{DType, Element};
use crate::error::{Result, SourceLoc};
use crate::numeric::{FloatArith, RoundMode};
use crate::{f16, LocalTensor, MASK_PLACEHOLDER};

/// The template switches `highPrecision` and `highPerformance` of the three APIs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GeluMode {
    /// half only: compute in float (one more float chunk in the temporary buffer).
    pub high_precision: bool,
    /// `Reciprocal` and `Mul` instead of `Div`.
    pub high_performance: bool,
}

/// Which formula, and how many work tensors it needs.
#[derive(Clone, Copy)]
enum Formula {
    Gelu,
    Faster,
    FasterV2,
}

impl Formula {
    fn api(self) -> &'static str {
        match self {
            Formula::Gelu => "Gelu",
            Formula::Faster => "FasterGelu",
            Formula::FasterV2 => "FasterGeluV2",
        }
    }

    fn buffers(self) -> u32 {
        match self {
            Formula::Gelu => 2,
            Formula::Faster => 1,
            Formula::FasterV2 => 3,
        }
    }
}

/// `Gelu<T, highPrecision, highPerformance>(dst, src, [sharedTmpBuffer,] dataSize)`: the GELU
/// (tanh form) of the first `count` elements. `T`: half or float. The temporary space holds 2
/// chunks of `T` (3 of float for half with `high_precision`): at least 32 elements' worth
/// (`GetGeluMaxMinTmpSize`: 768 bytes at least, `3 · count · 4` for one pass).
#[track_caller]
pub fn gelu<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: Tmp,
    count: u32,
    mode: GeluMode,
) -> Result<()> {
    family(
        Formula::Gelu,
        SourceLoc::caller(),
        dst,
        src,
        tmp,
        count,
        mode,
    )
}

/// `FasterGelu<T, highPrecision, highPerformance>(dst, src, [sharedTmpBuffer,] dataSize)`:
/// `dst[i] = src[i] / (1 + e^(−1.702·src[i]))` for the first `count` elements. `T`: half or
/// float. The temporary space holds 1 chunk of `T` (2 of float for half with `high_precision`).
#[track_caller]
pub fn faster_gelu<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: Tmp,
    count: u32,
    mode: GeluMode,
) -> Result<()> {
    family(
        Formula::Faster,
        SourceLoc::caller(),
        dst,
        src,
        tmp,
        count,
        mode,
    )
}

/// `FasterGeluV2<T, highPrecision, highPerformance>(dst, src, [sharedTmpBuffer,] dataSize)`:
/// the clipped-polynomial GELU of the first `count` elements. `T`: half or float. The
/// temporary space holds 3 chunks of `T` (4 of float for half with `high_precision`).
#[track_caller]
pub fn faster_gelu_v2<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: Tmp,
    count: u32,
    mode: GeluMode,
) -> Result<()> {
    family(
        Formula::FasterV2,
        SourceLoc::caller(),
        dst,
        src,
        tmp,
        count,
        mode,
    )
}

fn family<T: Element>(
    f: Formula,
    loc: SourceLoc,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: Tmp,
    count: u32,
    mode: GeluMode,
) -> Result<()> {
    let api = f.api();
    run(api, loc, || {
        check_type::<T>(api, HALF_FLOAT)?;
        require(api, A2_A3_310P)?;
        check_count(
            api,
            count,
            &[("dstTensor", dst.get_size()), ("srcTensor", src.get_size())],
        )?;
        let buf = tmp.buffer(api)?;
        let perf = mode.high_performance;
        match T::DTYPE {
            DType::Float => {
                let (d, s) = (dst.reinterpret_cast::<f32>(), src.reinterpret_cast::<f32>());
                let work = Work::<f32>::carve(api, &buf, f.buffers(), false)?;
                counter_loop::<u8>(count, work.split, |at| {
                    formula(f, &d.at(at)?, &s.at(at)?, &work, perf)
                })
            }
            _ if mode.high_precision => {
                let (d, s) = (dst.reinterpret_cast::<f16>(), src.reinterpret_cast::<f16>());
                let work = Work::<f32>::carve(api, &buf, f.buffers(), true)?;
                let conv = &work.conv;
                counter_loop::<u8>(count, work.split, |at| {
                    cast_l0(
                        conv,
                        &s.at(at)?,
                        RoundMode::CAST_NONE,
                        MASK_PLACEHOLDER,
                        1,
                        WIDEN,
                    )?;
                    barrier_v()?;
                    formula(f, conv, conv, &work, perf)?;
                    cast_l0(
                        &d.at(at)?,
                        conv,
                        RoundMode::CAST_NONE,
                        MASK_PLACEHOLDER,
                        1,
                        NARROW,
                    )?;
                    barrier_v()
                })
            }
            _ => {
                let (d, s) = (dst.reinterpret_cast::<f16>(), src.reinterpret_cast::<f16>());
                let work = Work::<f16>::carve(api, &buf, f.buffers(), false)?;
                counter_loop::<u8>(count, work.split, |at| {
                    formula(f, &d.at(at)?, &s.at(at)?, &work, perf)
                })
            }
        }
    })
}

/// The work tensors carved from the temporary buffer: `a`, `b`, `c` (as the formula needs) and
/// the float chunk of the high-precision mode, each `split` elements.
struct Work<U: FloatArith> {
    split: u32,
    a: LocalTensor<U>,
    b: LocalTensor<U>,
    c: LocalTensor<U>,
    conv: LocalTensor<U>,
}

impl<U: FloatArith> Work<U> {
    fn carve(api: &'static str, buf: &LocalTensor<u8>, buffers: u32, conv: bool) -> Result<Self> {
        let need = buffers + conv as u32;
        let split = split_count(api, buf.get_size(), need * U::SIZE as u32)?;
        let all = buf.reinterpret_cast::<U>();
        // Tensors the formula does not use alias `a`.
        let part = |k: u32| if k < need { all.at(k * split) } else { Ok(all) };
        Ok(Work {
            split,
            a: all,
            b: part(1)?,
            c: part(2)?,
            conv: part(buffers)?,
        })
    }
}

fn formula<U: FloatArith>(
    f: Formula,
    dst: &LocalTensor<U>,
    src: &LocalTensor<U>,
    w: &Work<U>,
    perf: bool,
) -> Result<()> {
    match f {
        Formula::Gelu => gelu_chunk(dst, src, w, perf),
        Formula::Faster => faster_chunk(dst, src, w, perf),
        Formula::FasterV2 => faster_v2_chunk(dst, src, w, perf),
    }
}

/// `dst = x ÷ q` (`Div`), or `dst = x · (1 / q)` with `Reciprocal` into `q` (high performance).
fn divide<U: FloatArith>(
    dst: &LocalTensor<U>,
    x: &LocalTensor<U>,
    q: &LocalTensor<U>,
    perf: bool,
) -> Result<()> {
    if perf {
        reciprocal_l0(q, q, MASK_PLACEHOLDER, 1, SAME)?;
        barrier_v()?;
        mul_l0(dst, x, q, MASK_PLACEHOLDER, 1, BIN)?;
    } else {
        div_l0(dst, x, q, MASK_PLACEHOLDER, 1, BIN)?;
    }
    barrier_v()
}

fn gelu_chunk<U: FloatArith>(
    dst: &LocalTensor<U>,
    x: &LocalTensor<U>,
    w: &Work<U>,
    perf: bool,
) -> Result<()> {
    let (a, b) = (&w.a, &w.b);
    // y = 1.5957691216057308 · (x + 0.044715 · x³) in a.
    mul_l0(a, x, x, MASK_PLACEHOLDER, 1, BIN)?;
    barrier_v()?;
    mul_l0(b, x, a, MASK_PLACEHOLDER, 1, BIN)?;
    barrier_v()?;
    muls_l0(a, b, U::from_f64(0.044715), MASK_PLACEHOLDER, 1, SAME)?;
    barrier_v()?;
    add_l0(b, x, a, MASK_PLACEHOLDER, 1, BIN)?;
    barrier_v()?;
    muls_l0(
        a,
        b,
        U::from_f64(1.5957691216057308),
        MASK_PLACEHOLDER,
        1,
        SAME,
    )?;
    barrier_v()?;
    // e^(min(y, 0)) in b.
    mins_l0(b, a, U::from_f64(0.0), MASK_PLACEHOLDER, 1, SAME)?;
    barrier_v()?;
    exp_l0(b, b, MASK_PLACEHOLDER, 1, SAME)?;
    barrier_v()?;
    // x / (e^(−|y|) + 1) in a.
    abs_l0(a, a, MASK_PLACEHOLDER, 1, SAME)?;
    barrier_v()?;
    muls_l0(a, a, U::from_f64(-1.0), MASK_PLACEHOLDER, 1, SAME)?;
    barrier_v()?;
    exp_l0(a, a, MASK_PLACEHOLDER, 1, SAME)?;
    barrier_v()?;
    adds_l0(a, a, U::from_f64(1.0), MASK_PLACEHOLDER, 1, SAME)?;
    barrier_v()?;
    divide(a, x, a, perf)?;
    mul_l0(dst, a, b, MASK_PLACEHOLDER, 1, BIN)?;
    barrier_v()
}

fn faster_chunk<U: FloatArith>(
    dst: &LocalTensor<U>,
    x: &LocalTensor<U>,
    w: &Work<U>,
    perf: bool,
) -> Result<()> {
    let a = &w.a;
    muls_l0(a, x, U::from_f64(-1.702), MASK_PLACEHOLDER, 1, SAME)?;
    barrier_v()?;
    exp_l0(a, a, MASK_PLACEHOLDER, 1, SAME)?;
    barrier_v()?;
    adds_l0(a, a, U::from_f64(1.0), MASK_PLACEHOLDER, 1, SAME)?;
    barrier_v()?;
    divide(dst, x, a, perf)
}

/// FasterGeluV2's `0.7071` (not 1/√2 rounded: the device's constant).
#[allow(clippy::approx_constant)]
const V2_SCALE: f64 = 0.7071;

fn faster_v2_chunk<U: FloatArith>(
    dst: &LocalTensor<U>,
    x: &LocalTensor<U>,
    w: &Work<U>,
    perf: bool,
) -> Result<()> {
    let (a, b, c) = (&w.a, &w.b, &w.c);
    // −0.1444 · (min(|0.7071·x|, 1.769) − 1.769)² + 0.5 in a.
    muls_l0(a, x, U::from_f64(V2_SCALE), MASK_PLACEHOLDER, 1, SAME)?;
    barrier_v()?;
    abs_l0(a, a, MASK_PLACEHOLDER, 1, SAME)?;
    barrier_v()?;
    mins_l0(a, a, U::from_f64(1.769), MASK_PLACEHOLDER, 1, SAME)?;
    barrier_v()?;
    adds_l0(a, a, U::from_f64(-1.769), MASK_PLACEHOLDER, 1, SAME)?;
    barrier_v()?;
    mul_l0(a, a, a, MASK_PLACEHOLDER, 1, BIN)?;
    barrier_v()?;
    muls_l0(a, a, U::from_f64(-0.1444), MASK_PLACEHOLDER, 1, SAME)?;
    barrier_v()?;
    adds_l0(a, a, U::from_f64(0.5), MASK_PLACEHOLDER, 1, SAME)?;
    barrier_v()?;
    // The sign (x + 1e-12) / |x + 1e-12| in b (1e-12 is 0 in half).
    adds_l0(b, x, U::from_f64(0.000000000001), MASK_PLACEHOLDER, 1, SAME)?;
    barrier_v()?;
    abs_l0(c, b, MASK_PLACEHOLDER, 1, SAME)?;
    barrier_v()?;
    divide(b, b, c, perf)?;
    // x · (sign · a + 0.5).
    mul_l0(a, a, b, MASK_PLACEHOLDER, 1, BIN)?;
    barrier_v()?;
    adds_l0(a, a, U::from_f64(0.5), MASK_PLACEHOLDER, 1, SAME)?;
    barrier_v()?;
    mul_l0(dst, x, a, MASK_PLACEHOLDER, 1, BIN)?;
    barrier_v()
}

/// `GetGeluMinTmpSize(srcShape, typeSize)`: 768 bytes (3 · 256), for every type.
pub fn gelu_min_tmp_size() -> u32 {
    3 * 256
}

/// `GetGeluMaxTmpSize(srcShape, typeSize)`: `3 · elements · 4` bytes, at least the minimum.
pub fn gelu_max_tmp_size(elements: u32) -> u32 {
    (3 * elements * 4).max(gelu_min_tmp_size())
}

/// `GetGeluMaxMinTmpSize(srcShape, typeSize, maxValue, minValue)`: `(max, min)` in bytes, the
/// same for Gelu, FasterGelu and FasterGeluV2 and every mode.
pub fn gelu_max_min_tmp_size(elements: u32) -> (u32, u32) {
    (gelu_max_tmp_size(elements), gelu_min_tmp_size())
}
