//! `Digamma` (数学计算/Digamma): ψ(x) = d/dx ln Γ(x). half and float; A2, A3 and 310P.
//!
//! As the device does it, in float, chunk by chunk under the counter mask. Every branch is
//! computed for the whole chunk and picked by a bit mask (`Compare`, then `Select` against 0
//! and `Add` into the result):
//! - float: x ≥ 0: ψ(x) = ln w − 1/(2w) − z(1/12 − z(1/120 − z(1/252 − z(1/240 − z(1/132 −
//!   z(691/32760 − z/12)))))) − Σ_{k=0..9} 1/(x + k), w = x + 10, z = 1/w²; x < 0: the
//!   reflection ψ(1 − x) + π·cot-like term from a polynomial in (2x − round(2x))·π/2;
//!   NaN for x ≤ −2²³ and the negative integers, NaN kept.
//! - half: w = x + 3 with three asymptotic terms and Σ_{k=0..2}; for x < −0.0001 the reflection
//!   ψ(1 − x) − π/tan(π(x − ⌊x⌋)) (Tan on the buffer), for −0.0001 ≤ x < 0 the same with
//!   π·cos/sin (Cos and Sin on the buffer); then narrowed to half.
//!
//! Rounding to integers is one `Cast` float → float on A2/A3 and a round trip through int32 on
//! 310P. Temporary space per element: float 28 bytes (7 floats) or 24 with `isReuseSource`
//! (which then overwrites `srcTensor`'s first chunk), half 32 bytes (8 floats). The last chunk's
//! length is rounded up to 8 elements, so up to 7 elements past `calCount` are written.

use super::ops::{
    add, adds, and_bits, and_words, compare, div, dup, ln, mul, muls, narrow, not_bits,
    round_float, select, sin_cos, sub, tan, widen, L, M, NAN,
};
use crate::adv::common::{barrier_v, check_count, require, run, Tmp, A2_A3_310P};
use crate::adv::math::exp_log::{is_half, too_small};
use crate::api::vec::cast::cast_l0;
use crate::api::vec::duplicate::duplicate_l0;
use crate::api::vec::mask::{reset_mask, set_mask_count, set_mask_norm, set_vector_mask};
use crate::chip::Product;
use crate::dtype::Element;
use crate::error::{Result, SourceLoc};
use crate::numeric::RoundMode;
use crate::{f16, LocalTensor, MaskMode, UnaryRepeatParams, CMPMODE, MASK_PLACEHOLDER};

const API: &str = "Digamma";

/// −2²³: from here down every float is an integer.
const MIN_NEG: f32 = -8388608.0;
/// π as float.
const PI: f32 = 3.141592653589793238;
/// The float asymptotic series, innermost first.
const SERIES: [f32; 6] = [
    2.10927960927960927961e-2_f64 as f32,
    7.57575757575757575758e-3_f64 as f32,
    4.16666666666666666667e-3_f64 as f32,
    3.96825396825396825397e-3_f64 as f32,
    8.33333333333333333333e-3_f64 as f32,
    8.33333333333333333333e-2_f64 as f32,
];
/// The reflection polynomial in r², innermost first (after 0.0093383789065).
const PICOT: [f32; 5] = [
    0.00326538085938,
    0.0242919921875,
    0.053466796875,
    0.133377909660,
    0.333332300186,
];

/// `Digamma<T, isReuseSource>(dst, src, [sharedTmpBuffer,] calCount)`: `dst[i] = ψ(src[i])`
/// for the first `count` elements (NaN at 0 from below, the negative integers and x ≤ −2²³).
/// `T`: half or float. `tmp`: the caller's buffer or the pipe's stack, at least 7 · 256 bytes
/// for float (6 · 256 with `reuse_source`), 16 · 256 for half (`GetDigammaMaxMinTmpSize`).
/// `reuse_source` (float only) lets the call use `src`'s first chunk as scratch.
#[track_caller]
pub fn digamma<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: Tmp,
    count: u32,
    reuse_source: bool,
) -> Result<()> {
    run(API, SourceLoc::caller(), || {
        let half = is_half::<T>(API)?;
        check_count(
            API,
            count,
            &[("dstTensor", dst.get_size()), ("srcTensor", src.get_size())],
        )?;
        let p = require(API, A2_A3_310P)?;
        let buf = tmp.buffer(API)?;
        let reuse = reuse_source && !half;
        let procs = match (half, reuse) {
            (true, _) => 8,
            (false, true) => 6,
            (false, false) => 7,
        };
        let split = buf.get_size() / 4 / procs / 32 * 32;
        if split == 0 {
            return Err(too_small(API, buf.get_size(), procs * 32 * 4));
        }
        let mut c = Ctx::new(p, &buf, split, half, reuse.then(|| src.reinterpret_cast()))?;
        let (loops, tail) = (count / split, count % split);
        set_mask_count()?;
        set_vector_mask::<T>(MaskMode::COUNTER, split as u64)?;
        for i in 0..loops {
            c.chunk(dst, src, i * split, split)?;
        }
        if tail > 0 {
            let n = tail.div_ceil(8) * 8;
            set_vector_mask::<T>(MaskMode::COUNTER, n as u64)?;
            c.split = n;
            c.chunk(dst, src, loops * split, n)?;
        }
        set_mask_norm()?;
        reset_mask()
    })
}

/// `dst[at..]` and `src[at..]` as `U`, each over at least `n` elements (the rounded tail).
fn views<U: Element, T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    at: u32,
    n: u32,
) -> Result<(LocalTensor<U>, LocalTensor<U>)> {
    let view = |t: &LocalTensor<T>| -> Result<LocalTensor<U>> {
        let mut v = t.at(at)?.reinterpret_cast::<U>();
        if v.get_size() < n {
            v.set_size(n)?;
        }
        Ok(v)
    };
    Ok((view(dst)?, view(src)?))
}

/// The vendor's layout of the temporary buffer and the current chunk length (`split`, the
/// tail's rounded length in the last chunk).
struct Ctx {
    p: Product,
    split: u32,
    result: L,
    c1: L,
    c2: L,
    c3: L,
    c4: L,
    /// Half only (the float layout has no sixth slot).
    c5: L,
    scalar: L,
    mask: M,
    mask1: M,
    mask2: M,
}

impl Ctx {
    /// float: result, c1, c2, c3, c4 (or `src` with `isReuseSource`), scalar, then three masks
    /// of `split` bytes; half: result (4 slots for Tan), c1 … c5, scalar, the masks.
    fn new(
        p: Product,
        buf: &LocalTensor<u8>,
        split: u32,
        half: bool,
        src: Option<L>,
    ) -> Result<Self> {
        let f = buf.reinterpret_cast::<f32>();
        let slot = |i: u32| f.at(i * split);
        let (c4, c5, scalar_at) = match (half, src) {
            (true, _) => (slot(4)?, slot(5)?, 6),
            (false, Some(mut s)) => {
                if s.get_size() < split {
                    s.set_size(split)?;
                }
                (s, slot(4)?, 4)
            }
            (false, None) => (slot(4)?, slot(5)?, 5),
        };
        let mask = buf.at((scalar_at + 1) * split * 4)?;
        Ok(Ctx {
            p,
            split,
            result: slot(0)?,
            c1: slot(1)?,
            c2: slot(2)?,
            c3: slot(3)?,
            c4,
            c5,
            scalar: slot(scalar_at)?,
            mask,
            mask1: mask.at(split)?,
            mask2: mask.at(2 * split)?,
        })
    }

    /// The chunk of `n` elements at `at` (its views widened to `n`, the rounded tail).
    fn chunk<T: Element>(
        &self,
        dst: &LocalTensor<T>,
        src: &LocalTensor<T>,
        at: u32,
        n: u32,
    ) -> Result<()> {
        if T::DTYPE == crate::dtype::DType::Half {
            let (d, s) = views::<f16, T>(dst, src, at, n)?;
            self.half(&d, &s)
        } else {
            let (d, s) = views::<f32, T>(dst, src, at, n)?;
            self.float(&d, &s)
        }
    }

    /// `mask` = `src` `mode` `x` (x broadcast into `scalar`).
    fn cmp(&self, mask: &M, src: &L, x: f32, mode: CMPMODE) -> Result<()> {
        dup(&self.scalar, x)?;
        compare(mask, src, &self.scalar, mode, self.split)
    }

    /// `dst += mask ? src : 0` (`out` scratch).
    fn pick(&self, dst: &L, src: &L, mask: &M, out: &L) -> Result<()> {
        dup(&self.scalar, 0.0)?;
        select(out, mask, src, &self.scalar)?;
        add(dst, out, dst)
    }

    /// `mask1` = the negative integers above −2²³ (`c1` scratch).
    fn neg_int_mask(&self, src: &L) -> Result<()> {
        self.cmp(&self.mask1, src, 0.0, CMPMODE::LT)?;
        self.cmp(&self.mask2, src, MIN_NEG, CMPMODE::GT)?;
        and_bits(&self.mask1, &self.mask1, &self.mask2, self.split)?;
        round_float(self.p, &self.c1, src, RoundMode::CAST_ROUND)?;
        compare(&self.mask2, src, &self.c1, CMPMODE::EQ, self.split)?;
        and_bits(&self.mask1, &self.mask1, &self.mask2, self.split)
    }

    /// `mask` = NaN (neither < 0 nor ≥ 0).
    fn nan_mask(&self, src: &L) -> Result<()> {
        self.cmp(&self.mask1, src, 0.0, CMPMODE::LT)?;
        self.cmp(&self.mask2, src, 0.0, CMPMODE::GE)?;
        not_bits(&self.mask1, &self.mask1, self.split)?;
        not_bits(&self.mask2, &self.mask2, self.split)?;
        and_bits(&self.mask, &self.mask1, &self.mask2, self.split)
    }

    /// The masks both types start with: NaN where x ≤ −2²³ or a negative integer, x where NaN;
    /// into `acc` (`out` scratch).
    fn specials(&self, acc: &L, x: &L, out: &L) -> Result<()> {
        dup(&self.result, NAN)?;
        self.cmp(&self.mask, x, MIN_NEG, CMPMODE::LE)?;
        self.pick(acc, &self.result, &self.mask, out)?;
        self.neg_int_mask(x)?;
        self.pick(acc, &self.result, &self.mask1, out)?;
        self.nan_mask(x)?;
        self.pick(acc, x, &self.mask, out)
    }

    /// One float chunk.
    fn float(&self, dst: &L, src: &L) -> Result<()> {
        dup(dst, 0.0)?;
        self.specials(dst, src, &self.c3)?;
        self.cmp(&self.mask, src, 0.0, CMPMODE::GE)?;
        self.positive(&self.result, src)?;
        self.pick(dst, &self.result, &self.mask, &self.c3)?;
        self.cmp(&self.mask, src, 0.0, CMPMODE::LT)?;
        self.negative(&self.result, src)?;
        self.pick(dst, &self.result, &self.mask, &self.c3)
    }

    /// dst = ψ(x) for x > 0 (float): the series at w = x + 10 minus Σ 1/(x + k) (`c1`, `c2`,
    /// `scalar` scratch).
    fn positive(&self, dst: &L, x: &L) -> Result<()> {
        let (c1, c2, s) = (&self.c1, &self.c2, &self.scalar);
        adds(c1, x, 10.0)?;
        ln(dst, c1)?;
        dup(s, 1.0)?;
        div(c1, s, c1)?;
        muls(c2, c1, 0.5)?;
        sub(dst, dst, c2)?;
        mul(c1, c1, c1)?;
        dup(c2, 8.33333333333333333333e-2_f64 as f32)?;
        for k in SERIES {
            dup(s, k)?;
            mul(c2, c1, c2)?;
            sub(c2, s, c2)?;
        }
        mul(c2, c1, c2)?;
        sub(dst, dst, c2)?;
        // Σ_{k=0..9} 1/(x + k) into c1.
        dup(s, 1.0)?;
        div(c1, s, x)?;
        for k in 1..=9 {
            adds(c2, x, k as f32)?;
            div(c2, s, c2)?;
            add(c1, c1, c2)?;
        }
        sub(dst, dst, c1)
    }

    /// dst = ψ(1 − x) + the reflection term (float, x < 0).
    fn negative(&self, dst: &L, x: &L) -> Result<()> {
        muls(&self.c3, x, -1.0)?;
        adds(&self.c3, &self.c3, 1.0)?;
        self.positive(dst, &self.c3)?;
        self.reflection(&self.c4, x)?;
        add(dst, dst, &self.c4)
    }

    /// dst = π·(t or −1/t), t ≈ tan((2x − round(2x))·π/2), by the parity of round(2x).
    fn reflection(&self, dst: &L, x: &L) -> Result<()> {
        let (c1, c2, c3) = (&self.c1, &self.c2, &self.c3);
        add(c1, x, x)?;
        round_float(self.p, c2, c1, RoundMode::CAST_ROUND)?;
        sub(c1, c1, c2)?;
        muls(c1, c1, 1.5707963267948966)?;
        let int = c2.reinterpret_cast::<i32>();
        let same = UnaryRepeatParams::new(1, 1, 8, 8);
        cast_l0(&int, c2, RoundMode::CAST_ROUND, MASK_PLACEHOLDER, 1, same)?;
        barrier_v()?;
        duplicate_l0(&c3.reinterpret_cast::<i32>(), 1, MASK_PLACEHOLDER, 1, 1, 8)?;
        barrier_v()?;
        and_words(c2, c2, c3, self.split * 2, self.split)?;
        cast_l0(c2, &int, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, same)?;
        self.cmp(&self.mask1, c2, 0.5, CMPMODE::LT)?;
        self.cmp(&self.mask2, c2, 0.5, CMPMODE::GE)?;
        mul(c2, c1, c1)?;
        dup(dst, 0.0093383789065)?;
        for k in PICOT {
            mul(dst, dst, c2)?;
            adds(dst, dst, k)?;
        }
        mul(dst, dst, c2)?;
        mul(dst, dst, c1)?;
        add(c1, dst, c1)?;
        dup(dst, 0.0)?;
        self.pick(dst, c1, &self.mask2, c3)?;
        dup(&self.scalar, -1.0)?;
        div(c1, &self.scalar, c1)?;
        self.pick(dst, c1, &self.mask1, c3)?;
        muls(dst, dst, PI)
    }

    /// One half chunk, in float.
    fn half(&self, dst: &LocalTensor<f16>, src: &LocalTensor<f16>) -> Result<()> {
        let (c1, c3, c4, c5) = (&self.c1, &self.c3, &self.c4, &self.c5);
        widen(c5, src)?;
        // c3 = π / tan(π(x − ⌊x⌋)), Tan on result … c3.
        round_float(self.p, c4, c5, RoundMode::CAST_FLOOR)?;
        sub(c4, c5, c4)?;
        muls(c4, c4, PI)?;
        tan(self.p, &self.scalar, c4, &self.result, self.split)?;
        dup(c1, PI)?;
        div(c3, c1, &self.scalar)?;
        dup(c4, 0.0)?;
        self.specials(c4, c5, c1)?;
        self.cmp(&self.mask, c5, 0.0, CMPMODE::GE)?;
        self.positive_half(&self.result, c5)?;
        self.pick(c4, &self.result, &self.mask, c1)?;
        self.cmp(&self.mask, c5, -0.0001, CMPMODE::LT)?;
        self.negative_half(&self.result, c5)?;
        self.pick(c4, &self.result, &self.mask, c1)?;
        widen(c5, src)?;
        self.cmp(&self.mask1, c5, 0.0, CMPMODE::LT)?;
        self.cmp(&self.mask2, c5, -0.0001, CMPMODE::GE)?;
        and_bits(&self.mask, &self.mask1, &self.mask2, self.split)?;
        self.near_zero(&self.result, c5)?;
        self.pick(c4, &self.result, &self.mask, c1)?;
        narrow(dst, c4)
    }

    /// dst = ψ(x) for x ≥ 0 (half's short series at w = x + 3; `c1`, `c2`, `scalar` scratch).
    fn positive_half(&self, dst: &L, x: &L) -> Result<()> {
        let (c1, c2, s) = (&self.c1, &self.c2, &self.scalar);
        adds(c1, x, 3.0)?;
        ln(dst, c1)?;
        dup(s, 1.0)?;
        div(c1, s, c1)?;
        muls(s, c1, 0.5)?;
        sub(dst, dst, s)?;
        mul(c1, c1, c1)?;
        muls(s, c1, 0.0833333333333333)?;
        sub(dst, dst, s)?;
        mul(c2, c1, c1)?;
        muls(s, c2, 0.0083333333333333)?;
        sub(dst, dst, s)?;
        mul(c2, c2, c1)?;
        muls(s, c2, 0.003968253968254)?;
        sub(dst, dst, s)?;
        dup(s, 1.0)?;
        div(c1, s, x)?;
        for k in 1..=2 {
            adds(c2, x, k as f32)?;
            div(c2, s, c2)?;
            add(c1, c1, c2)?;
        }
        sub(dst, dst, c1)
    }

    /// dst = ψ(1 − x) − c3 (x < −0.0001); `x` becomes 1 − x and ψ(1 − x) is kept in `c2`.
    fn negative_half(&self, dst: &L, x: &L) -> Result<()> {
        dup(&self.scalar, 1.0)?;
        sub(x, &self.scalar, x)?;
        self.positive_half(dst, x)?;
        adds(&self.c2, dst, 0.0)?;
        sub(dst, dst, &self.c3)
    }

    /// dst = ψ(1 − x) − π·cos(π(x − ⌊x⌋)) / sin(−πx) for −0.0001 ≤ x < 0, ψ(1 − x) from `c2`;
    /// `x` is overwritten.
    fn near_zero(&self, dst: &L, x: &L) -> Result<()> {
        let (c3, s) = (&self.c3, &self.scalar);
        round_float(self.p, s, x, RoundMode::CAST_FLOOR)?;
        sub(s, x, s)?;
        muls(s, s, PI)?;
        sin_cos(self.p, true, c3, s, &self.result, self.split, true)?;
        muls(x, x, -PI)?;
        sin_cos(self.p, false, s, x, &self.result, self.split, true)?;
        muls(c3, c3, PI)?;
        div(c3, c3, s)?;
        sub(dst, &self.c2, c3)
    }
}

/// `GetDigammaMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue)`: bytes as
/// `(max, min)`: factor · max(elements · typeSize, 256) and factor · 256, factor 7 for float (6
/// with `isReuseSource`), 16 for half.
pub fn digamma_max_min_tmp_size(elements: u32, type_size: u32, reuse: bool) -> (u32, u32) {
    let factor = match (type_size, reuse) {
        (4, true) => 6,
        (4, false) => 7,
        _ => 16,
    };
    (factor * (elements * type_size).max(256), factor * 256)
}

/// `GetDigammaTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuffer)`: float 7, half 16;
/// no extra bytes.
pub fn digamma_tmp_buffer_factor_size(type_size: u32) -> (u32, u32) {
    (if type_size == 4 { 7 } else { 16 }, 0)
}
