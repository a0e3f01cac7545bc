//! `Exp` (数学计算/Exp): `e^x` refined by a Taylor series. half and float; A2, A3 and 310P.
//!
//! As the device does it, in float, chunk by chunk: `x` is split into `⌊x⌋` (`Cast` with
//! `CAST_FLOOR`; on 310P through int32) and the fraction `f = x − ⌊x⌋`; the result is
//! `Exp(⌊x⌋) · (1 + f + f²/2! + … + fⁿ/n!)`, `n` = `taylorExpandLevel`, each term the previous
//! one times `f` times `1/i`. Level 0 is the basic `Exp` instruction. The temporary buffer holds
//! 4 float tensors for half (input, power, sum, integer part), 3 for float (the sum goes to the
//! destination) or 2 with `isReuseSource` (the source holds the fraction).

use super::{is_half, too_small, BINARY, UNARY};
use crate::adv::common::{barrier_v, check_count, counter_loop, require, run, Tmp, A2_A3_310P};
use crate::adv::math::round::floor::{NARROW, WIDEN};
use crate::api::vec::binary::{add_l0, mul_l0, sub_l0};
use crate::api::vec::cast::cast_l0;
use crate::api::vec::scalar::{adds_l0, muls_l0};
use crate::api::vec::unary::{exp as basic_exp, exp_l0};
use crate::chip::Product;
use crate::dtype::Element;
use crate::error::{Result, SourceLoc};
use crate::numeric::RoundMode;
use crate::{f16, LocalTensor, MASK_PLACEHOLDER};

const API: &str = "Exp";

/// `Exp<T, taylorExpandLevel, isReuseSource>(dst, src, [sharedTmpBuffer,] calCount)`:
/// `dst[i] = e^src[i]` for the first `count` elements. `T`: half or float. `level` 0 is the
/// basic `Exp`; otherwise the Taylor refinement above, with temporary space from `tmp` (at least
/// 4 · 256 bytes for half, 3 · 256 for float, 2 · 256 for float with `reuse_source`, which then
/// overwrites `src`; see `GetExpMaxMinTmpSize`).
#[track_caller]
pub fn exp<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    level: u8,
    reuse_source: bool,
    tmp: Tmp,
    count: u32,
) -> Result<()> {
    run(API, SourceLoc::caller(), || {
        let half = is_half::<T>(API)?;
        check_count(
            API,
            count,
            &[("dstLocal", dst.get_size()), ("srcLocal", src.get_size())],
        )?;
        let p = require(API, A2_A3_310P)?;
        if level == 0 {
            return if half {
                basic_exp::<f16>(&dst.reinterpret_cast(), &src.reinterpret_cast(), count)
            } else {
                basic_exp::<f32>(&dst.reinterpret_cast(), &src.reinterpret_cast(), count)
            };
        }
        let buf = tmp.buffer(API)?;
        let reuse = reuse_source && !half;
        let tensors = if half {
            4
        } else if reuse {
            2
        } else {
            3
        };
        let align = 32 / T::SIZE as u32;
        let one = buf.get_size() / 4 / tensors / align * align;
        if one == 0 {
            return Err(too_small(API, buf.get_size(), tensors * 4 * align));
        }
        let stack = buf.reinterpret_cast::<f32>();
        let at = |i: u32| stack.at(i * one);
        let frac = if reuse {
            src.reinterpret_cast()
        } else {
            at(0)?
        };
        let power = at(if reuse { 0 } else { 1 })?;
        let int_part = at(tensors - 1)?;
        let sum = if half { at(2)? } else { dst.reinterpret_cast() };
        let x = Parts {
            frac,
            power,
            int_part,
        };
        counter_loop::<f32>(count, one, |off| {
            if half {
                let s = src.reinterpret_cast::<f16>().at(off)?;
                cast_l0(
                    &x.frac,
                    &s,
                    RoundMode::CAST_NONE,
                    MASK_PLACEHOLDER,
                    1,
                    WIDEN,
                )?;
            } else {
                let s = src.reinterpret_cast::<f32>().at(off)?;
                adds_l0(&x.frac, &s, 0.0, MASK_PLACEHOLDER, 1, UNARY)?;
            }
            barrier_v()?;
            x.split(p)?;
            if half {
                x.taylor(&sum, level)?;
                let d = dst.reinterpret_cast::<f16>().at(off)?;
                cast_l0(&d, &sum, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, NARROW)?;
                barrier_v()
            } else {
                x.taylor(&sum.at(off)?, level)
            }
        })
    })
}

/// The float working tensors of one chunk.
struct Parts {
    /// The input, then its fraction `x − ⌊x⌋`.
    frac: LocalTensor<f32>,
    /// `fⁱ / i!`.
    power: LocalTensor<f32>,
    /// `⌊x⌋`, then `e^⌊x⌋`.
    int_part: LocalTensor<f32>,
}

impl Parts {
    /// `int_part = e^⌊x⌋`, `frac = x − ⌊x⌋`.
    fn split(&self, p: Product) -> Result<()> {
        let (frac, int) = (&self.frac, &self.int_part);
        if p == Product::Ascend310P {
            let as_int = int.reinterpret_cast::<i32>();
            cast_l0(
                &as_int,
                frac,
                RoundMode::CAST_FLOOR,
                MASK_PLACEHOLDER,
                1,
                UNARY,
            )?;
            barrier_v()?;
            cast_l0(
                int,
                &as_int,
                RoundMode::CAST_NONE,
                MASK_PLACEHOLDER,
                1,
                UNARY,
            )?;
        } else {
            cast_l0(int, frac, RoundMode::CAST_FLOOR, MASK_PLACEHOLDER, 1, UNARY)?;
        }
        barrier_v()?;
        sub_l0(frac, frac, int, MASK_PLACEHOLDER, 1, BINARY)?;
        barrier_v()?;
        exp_l0(int, int, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()
    }

    /// `sum = e^⌊x⌋ · Σ_{i ≤ level} fⁱ / i!`.
    fn taylor(&self, sum: &LocalTensor<f32>, level: u8) -> Result<()> {
        let (f, pw) = (&self.frac, &self.power);
        adds_l0(pw, f, 0.0, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        adds_l0(sum, f, 0.0, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        adds_l0(sum, sum, 1.0, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        for i in 2..=level as u32 {
            mul_l0(pw, f, pw, MASK_PLACEHOLDER, 1, BINARY)?;
            barrier_v()?;
            muls_l0(pw, pw, 1.0 / i as f32, MASK_PLACEHOLDER, 1, UNARY)?;
            barrier_v()?;
            add_l0(sum, sum, pw, MASK_PLACEHOLDER, 1, BINARY)?;
            barrier_v()?;
        }
        mul_l0(sum, sum, &self.int_part, MASK_PLACEHOLDER, 1, BINARY)?;
        barrier_v()
    }
}

/// Float tensors of temporary space per element: 4 for half, 3 for float, 2 for float reusing
/// the source.
fn tensors(type_size: u32, reuse_source: bool) -> u32 {
    match (type_size, reuse_source) {
        (4, true) => 2,
        (4, false) => 3,
        _ => 4,
    }
}

/// `GetExpMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue)`: bytes of
/// temporary space for `elements` elements of `type_size` bytes, as `(max, min)`: one float
/// tensor per working value, `max(elements · 4, 256)` bytes each at most, 256 at least.
pub fn exp_max_min_tmp_size(elements: u32, type_size: u32, reuse_source: bool) -> (u32, u32) {
    let n = tensors(type_size, reuse_source);
    (n * (elements * 4).max(256), n * 256)
}

/// `GetExpTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuf)`: the temporary space is
/// `maxLiveNodeCount · elements · typeSize + extraBuf` bytes, as `(maxLiveNodeCount, extraBuf)`:
/// 3 for float, 8 for half.
pub fn exp_tmp_buffer_factor_size(type_size: u32) -> (u32, u32) {
    (if type_size == 4 { 3 } else { 8 }, 0)
}
