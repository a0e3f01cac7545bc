//! `Lgamma` (数学计算/Lgamma): ln |Γ(x)|. half and float; A2, A3 and 310P.
//!
//! As the device does it, in float, chunk by chunk under the counter mask; every branch is
//! computed for the whole chunk and picked by a bit mask (`Compare`, then `Select` against the
//! zero in CMPMASK and `Add` into the result).
//! - float, on |x|: polynomials on [0, 0.7) (−ln(x·P(x) + x)), [0.7, 1.5) in 1 − x, [1.5, 3) in
//!   x − 2, a rational function on [3, 5.8) in x − 3, and Stirling's series from 5.8 (∞ kept);
//!   for x < 0 the reflection ln π − ln |x·sin(πx)| − lgamma(|x|) with sin from two
//!   polynomials selected by the parity of ⌊2|x| + ½⌋, −ln |x| below 1e−19, +∞ at the
//!   negative integers; NaN as |NaN|.
//! - half: lgamma(x) = g(x + 4) − Σ_{k=0..3} ln(x + k) with g(y) = ½ ln(2π/y) + y(ln(y +
//!   1/(12y − 0.1/y)) − 1); for x < 0 the reflection −lgamma(1 − x) + ln(π / |sin(π(x −
//!   ⌊x⌋))|) (Sin on the buffer); |x| ≥ 65504 gives 655040, narrowed to half.
//!
//! ⌊·⌋ is one `Cast` float → float on A2/A3, a round trip through int32 on 310P. Temporary
//! space per element: float 32 bytes (8 floats) or 28 with `isReuseSource` (which then
//! overwrites `srcTensor`'s first chunk with zeros), half 52 bytes (13 floats).

use super::ops::{
    abs, add, adds, and_bits, compare, div, dup, ln, mul, muls, narrow, not_bits, reciprocal,
    round_float, select, sin_cos, sub, widen, L, M,
};
use crate::adv::common::{check_count, counter_loop, require, run, Tmp, A2_A3_310P};
use crate::adv::math::exp_log::{is_half, too_small};
use crate::chip::Product;
use crate::dtype::Element;
use crate::error::{Result, SourceLoc};
use crate::numeric::RoundMode;
use crate::{f16, LocalTensor, CMPMODE};

const API: &str = "Lgamma";

/// π as float.
const PI: f32 = 3.14159265358979323846264338327950288_f64 as f32;
/// Below this |x| a negative x gives −ln |x|.
const TINY: f32 = 9.99999968266e-20_f64 as f32;

/// A `constexpr float` from a double literal (rounded to double first, as C++ does).
const fn c(x: f64) -> f32 {
    x as f32
}

const P007: [f32; 7] = [
    c(0.00358751555905),
    c(-0.00547128543258),
    c(-0.0446271263063),
    c(0.167317703366),
    c(-0.0421359799802),
    c(-0.655867278576),
    c(0.577215373516),
];
const P0715: [f32; 11] = [
    c(0.0458826646209),
    c(0.103739671409),
    c(0.122803635895),
    c(0.127524212003),
    c(0.143216684461),
    c(0.169343575835),
    c(0.207407936454),
    c(0.27058750391),
    c(0.400685429573),
    c(0.82246696949),
    c(0.577215671539),
];
const P153: [f32; 10] = [
    c(4.95984932058e-05),
    c(-0.000220894842641),
    c(0.000541314249858),
    c(-0.00120451697148),
    c(0.00288425176404),
    c(-0.00738275796175),
    c(0.0205813199282),
    c(-0.067352488637),
    c(0.322467029095),
    c(0.422784328461),
];
const P378_NUM: [f32; 4] = [-748.890319824, -12349.7421875, -41061.375, -48310.6640625];
const P378_DEN: [f32; 3] = [-259.250976562, -10777.1796875, -92685.046875];
const P58: [f32; 2] = [c(0.000777830660809), c(-0.00277765537612)];
const NEG_ODD: [f32; 4] = [
    0.00002427957952022552490234375,
    -0.001388786011375486850738525390625,
    0.0416667275130748748779296875,
    -0.4999999701976776123046875,
];
const NEG_EVEN: [f32; 3] = [
    -0.000195746586541645228862762451171875,
    0.0083327032625675201416015625,
    -0.16666662693023681640625,
];

/// `Lgamma<T, isReuseSource>(dst, src, [sharedTmpBuffer,] calCount)`: `dst[i] = ln |Γ(src[i])|`
/// for the first `count` elements (+∞ at 0 and the negative integers). `T`: half or float.
/// `tmp`: the caller's buffer or the pipe's stack, at least 8 · 256 bytes for float (7 · 256
/// with `reuse_source`), 26 · 256 for half (`GetLgammaMaxMinTmpSize`). `reuse_source` (float
/// only) lets the call use `src`'s first chunk as scratch.
#[track_caller]
pub fn lgamma<T: Element>(
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
            (true, _) => 13,
            (false, true) => 7,
            (false, false) => 8,
        };
        let split = buf.get_size() / 4 / procs / 32 * 32;
        if split == 0 {
            return Err(too_small(API, buf.get_size(), procs * 32 * 4));
        }
        let mut c = Ctx::new(p, &buf, split, half, reuse.then(|| src.reinterpret_cast()))?;
        let whole = count / split * split;
        counter_loop::<T>(count, split, |at| {
            if at == whole {
                c.split = count - whole;
            }
            if half {
                let (d, s) = (dst.at(at)?, src.at(at)?);
                c.half(&d.reinterpret_cast(), &s.reinterpret_cast(), split)
            } else {
                let (d, s) = (dst.at(at)?, src.at(at)?);
                c.float(&d.reinterpret_cast(), &s.reinterpret_cast())
            }
        })
    })
}

/// The vendor's layout of the temporary buffer and the current chunk length (`split`, the
/// tail's length in the last chunk).
struct Ctx {
    p: Product,
    split: u32,
    t: [L; 6],
    scalar: L,
    mask: M,
    m1: M,
    m2: M,
    m3: M,
}

impl Ctx {
    /// float: t1 … t6, scalar (or `src` with `isReuseSource`), then four masks of `split`
    /// bytes; half: t1 … t5, scalar, the masks (one slot), t6 (six slots for the branches).
    fn new(
        p: Product,
        buf: &LocalTensor<u8>,
        split: u32,
        half: bool,
        src: Option<L>,
    ) -> Result<Self> {
        let f = buf.reinterpret_cast::<f32>();
        let slot = |i: u32| f.at(i * split);
        let (t6, scalar, mask_at) = match (half, src) {
            (true, _) => (slot(7)?, slot(5)?, 6),
            (false, Some(mut s)) => {
                if s.get_size() < split {
                    s.set_size(split)?;
                }
                (slot(5)?, s, 6)
            }
            (false, None) => (slot(5)?, slot(6)?, 7),
        };
        let mask = buf.at(mask_at * split * 4)?;
        Ok(Ctx {
            p,
            split,
            t: [slot(0)?, slot(1)?, slot(2)?, slot(3)?, slot(4)?, t6],
            scalar,
            mask,
            m1: mask.at(split)?,
            m2: mask.at(2 * split)?,
            m3: mask.at(3 * split)?,
        })
    }

    /// `mask` = `src` `mode` `x`, x broadcast into `at` (Compare over `split` elements).
    fn cmp(&self, mask: &M, src: &L, x: f32, mode: CMPMODE, at: &L, split: u32) -> Result<()> {
        dup(at, x)?;
        compare(mask, src, at, mode, split)
    }

    /// The float path's mask step (x broadcast into t1).
    fn fcmp(&self, mask: &M, src: &L, x: f32, mode: CMPMODE) -> Result<()> {
        self.cmp(mask, src, x, mode, &self.t[0], self.split)
    }

    /// `dst += mask ? src : 0` (`out` scratch; the zero in `scalar`).
    fn pick(&self, dst: &L, src: &L, mask: &M, out: &L) -> Result<()> {
        select(out, mask, src, &self.scalar)?;
        add(dst, out, dst)
    }

    /// `mask` = min ≤ x < max (`m1` scratch).
    fn range(&self, x: &L, min: f32, max: f32) -> Result<()> {
        self.fcmp(&self.mask, x, max, CMPMODE::LT)?;
        self.fcmp(&self.m1, x, min, CMPMODE::GE)?;
        and_bits(&self.mask, &self.m1, &self.mask, self.split)
    }

    /// One float chunk.
    fn float(&self, dst: &L, src: &L) -> Result<()> {
        let [_, _, _, t4, t5, t6] = &self.t;
        self.fcmp(&self.m2, src, 0.0, CMPMODE::GE)?;
        self.fcmp(&self.m3, src, 0.0, CMPMODE::LT)?;
        abs(t6, src)?;
        dup(&self.scalar, 0.0)?;
        self.positive()?;
        dup(dst, 0.0)?;
        self.pick(dst, t5, &self.m2, &self.t[0])?;
        self.negative()?;
        self.pick(dst, t4, &self.m3, &self.t[0])?;
        not_bits(&self.mask, &self.m2, self.split)?;
        not_bits(&self.m1, &self.m3, self.split)?;
        and_bits(&self.mask, &self.m1, &self.mask, self.split)?;
        self.pick(dst, t6, &self.mask, &self.t[0])
    }

    /// t5 = lgamma(t6) for t6 = |x| ≥ 0, piece by piece.
    fn positive(&self) -> Result<()> {
        let [t1, t2, t3, t4, t5, t6] = &self.t;
        dup(t5, 0.0)?;
        // [0, 0.7): −ln(x·P(x)·x + x)
        self.fcmp(&self.mask, t6, 0.7f64 as f32, CMPMODE::LT)?;
        poly(t1, t6, &P007)?;
        mul(t1, t1, t6)?;
        add(t1, t1, t6)?;
        ln(t1, t1)?;
        muls(t1, t1, -1.0)?;
        self.pick(t5, t1, &self.mask, t1)?;
        // [0.7, 1.5): P(1 − x)
        self.range(t6, 0.7f64 as f32, 1.5)?;
        muls(t1, t6, -1.0)?;
        adds(t1, t1, 1.0)?;
        poly(t2, t1, &P0715)?;
        self.pick(t5, t2, &self.mask, t1)?;
        // [1.5, 3): P(x − 2)
        self.range(t6, 1.5, 3.0)?;
        adds(t1, t6, -2.0)?;
        poly(t2, t1, &P153)?;
        self.pick(t5, t2, &self.mask, t1)?;
        // [3, 5.8): y + N(y) / D(y), y = x − 3
        self.range(t6, 3.0, 5.8f64 as f32)?;
        adds(t1, t6, -3.0)?;
        poly(t2, t1, &P378_NUM)?;
        adds(t2, t2, -143033.40625)?;
        poly(t3, t1, &P378_DEN)?;
        adds(t3, t3, -206353.578125)?;
        div(t3, t2, t3)?;
        add(t3, t3, t1)?;
        self.pick(t5, t3, &self.mask, t1)?;
        // [5.8, ∞): Stirling
        self.range(t6, 5.8f64 as f32, f32::INFINITY)?;
        ln(t1, t6)?;
        muls(t1, t1, 0.5)?;
        adds(t2, t6, -0.5)?;
        mul(t2, t2, t1)?;
        reciprocal(t3, t6)?;
        mul(t4, t3, t3)?;
        poly(t1, t4, &P58)?;
        adds(t1, t1, 0.0833332762122f64 as f32)?;
        mul(t1, t1, t3)?;
        adds(t1, t1, 0.91893851757f64 as f32)?;
        add(t1, t1, t2)?;
        add(t1, t1, t2)?;
        sub(t1, t1, t6)?;
        self.pick(t5, t1, &self.mask, t1)?;
        // ∞
        self.fcmp(&self.mask, t6, f32::INFINITY, CMPMODE::GE)?;
        self.pick(t5, t6, &self.mask, t1)
    }

    /// t4 = lgamma(x) for x < 0 from t6 = |x| and t5 = lgamma(|x|).
    fn negative(&self) -> Result<()> {
        let [t1, t2, t3, t4, t5, t6] = &self.t;
        let split = self.split;
        dup(t4, 0.0)?;
        self.fcmp(&self.mask, t6, TINY, CMPMODE::LT)?;
        ln(t1, t6)?;
        muls(t1, t1, -1.0)?;
        self.pick(t4, t1, &self.mask, t1)?;
        // n = ⌊2|x| + ½⌋; mask = n odd, m1 = n even; t2 = (|x| − n/2)·π.
        add(t2, t6, t6)?;
        adds(t2, t2, 0.5)?;
        round_float(self.p, t2, t2, RoundMode::CAST_FLOOR)?;
        muls(t3, t2, 0.5)?;
        round_float(self.p, t3, t3, RoundMode::CAST_FLOOR)?;
        muls(t3, t3, 2.0)?;
        sub(t3, t2, t3)?;
        self.fcmp(&self.mask, t3, 0.5, CMPMODE::GE)?;
        not_bits(&self.m1, &self.mask, split)?;
        muls(t2, t2, -0.5)?;
        add(t2, t2, t6)?;
        muls(t2, t2, PI)?;
        // t2 = ±sin or ±cos of the reduced argument by the parity.
        mul(t3, t2, t2)?;
        poly(t1, t3, &NEG_EVEN)?;
        mul(t1, t1, t2)?;
        add(t1, t1, t2)?;
        dup(t2, 0.0)?;
        self.pick(t2, t1, &self.m1, t1)?;
        poly(t1, t3, &NEG_ODD)?;
        adds(t1, t1, 1.0)?;
        self.pick(t2, t1, &self.mask, t1)?;
        // t2 = ln π − ln |t2·|x|| − t5; t3 = |t2·|x|| (for the ∞ test).
        abs(t1, t2)?;
        mul(t3, t1, t6)?;
        ln(t1, t3)?;
        muls(t1, t1, -1.0)?;
        adds(t1, t1, 1.1447298526763916015625)?;
        muls(t2, t5, -1.0)?;
        add(t2, t1, t2)?;
        // Non-integers with a finite product and |x| ≥ TINY take t2; the integers +∞.
        round_float(self.p, t1, t6, RoundMode::CAST_FLOOR)?;
        compare(&self.mask, t1, t6, CMPMODE::NE, split)?;
        dup(t1, f32::INFINITY)?;
        compare(&self.m1, t3, t1, CMPMODE::LT, split)?;
        and_bits(&self.mask, &self.m1, &self.mask, split)?;
        self.fcmp(&self.m1, t6, TINY, CMPMODE::GE)?;
        and_bits(&self.mask, &self.m1, &self.mask, split)?;
        self.pick(t4, t2, &self.mask, t1)?;
        not_bits(&self.m1, &self.mask, split)?;
        self.fcmp(&self.mask, t6, TINY, CMPMODE::GE)?;
        and_bits(&self.m1, &self.m1, &self.mask, split)?;
        dup(t2, f32::INFINITY)?;
        self.pick(t4, t2, &self.m1, t1)
    }

    /// One half chunk, in float; `full` is the chunk length of the layout (the masks' Compare
    /// covers it even in the tail).
    fn half(&self, dst: &LocalTensor<f16>, src: &LocalTensor<f16>, full: u32) -> Result<()> {
        let [t1, t2, t3, t4, t5, t6] = &self.t;
        dup(t1, 0.0)?;
        widen(t2, src)?;
        dup(&self.scalar, 0.0)?;
        positive_half(t3, t2, t6, full)?;
        self.cmp(&self.mask, t2, 0.0, CMPMODE::GE, t5, full)?;
        self.pick(t1, t3, &self.mask, t5)?;
        self.negative_half(t4, t2, t6, full)?;
        self.cmp(&self.m1, t2, 0.0, CMPMODE::LT, t5, full)?;
        self.pick(t1, t4, &self.m1, t5)?;
        // NaN: neither ≥ 0 nor < 0.
        not_bits(&self.m2, &self.mask, self.split)?;
        not_bits(&self.m3, &self.m1, self.split)?;
        and_bits(&self.m2, &self.m2, &self.m3, self.split)?;
        self.pick(t1, t2, &self.m2, t4)?;
        // |x| ≥ 65504 → 655040.
        abs(t2, t2)?;
        self.cmp(&self.m2, t2, 65504.0, CMPMODE::GE, t4, full)?;
        not_bits(&self.m3, &self.m2, self.split)?;
        dup(&self.scalar, 655040.0)?;
        select(t1, &self.m3, t1, &self.scalar)?;
        narrow(dst, t1)
    }

    /// dst = −lgamma(1 − x) + ln(π / |sin(π(x − ⌊x⌋))|) on slots of `tmp` (half path).
    fn negative_half(&self, dst: &L, x: &L, tmp: &L, split: u32) -> Result<()> {
        let (t1, t2, t3, t7) = (
            tmp.at(0)?,
            tmp.at(split)?,
            tmp.at(2 * split)?,
            tmp.at(2 * split)?,
        );
        muls(&t1, x, -1.0)?;
        adds(&t1, &t1, 1.0)?;
        positive_half(dst, &t1, &t7, split)?;
        muls(dst, dst, -1.0)?;
        round_float(self.p, &t1, x, RoundMode::CAST_FLOOR)?;
        sub(&t1, x, &t1)?;
        muls(&t1, &t1, PI)?;
        sin_cos(self.p, false, &t2, &t1, &t7, split, false)?;
        abs(&t2, &t2)?;
        dup(&t3, PI)?;
        div(&t2, &t3, &t2)?;
        ln(&t2, &t2)?;
        add(dst, dst, &t2)
    }
}

/// dst = lgamma(x) = g(x + 4) − ln(x(x + 1)(x + 2)(x + 3)) on four slots of `tmp` (half path).
fn positive_half(dst: &L, x: &L, tmp: &L, split: u32) -> Result<()> {
    let (t1, t2, t3, t4) = (
        tmp.at(0)?,
        tmp.at(split)?,
        tmp.at(2 * split)?,
        tmp.at(3 * split)?,
    );
    // g(y), y = x + 4: ½ ln(2π/y) + y(ln(y + 1/(12y − 0.1/y)) − 1)
    adds(&t1, x, 4.0)?;
    dup(dst, 1.0)?;
    div(dst, dst, &t1)?;
    muls(&t2, dst, PI)?;
    muls(&t2, &t2, 2.0)?;
    ln(&t2, &t2)?;
    muls(&t2, &t2, 0.5)?;
    muls(&t3, dst, -0.1)?;
    muls(&t4, &t1, 12.0)?;
    add(&t4, &t4, &t3)?;
    dup(dst, 1.0)?;
    div(&t4, dst, &t4)?;
    add(&t4, &t4, &t1)?;
    ln(&t4, &t4)?;
    adds(&t4, &t4, -1.0)?;
    mul(&t4, &t4, &t1)?;
    add(dst, &t4, &t2)?;
    ln(&t3, x)?;
    for k in 1..=3 {
        adds(&t2, x, k as f32)?;
        ln(&t2, &t2)?;
        add(&t3, &t3, &t2)?;
    }
    sub(dst, dst, &t3)
}

/// `acc = ((c[0]·x + c[1])·x + … + c[n−1])·x`: the vendor's multiply-add chain.
fn poly(acc: &L, x: &L, c: &[f32]) -> Result<()> {
    muls(acc, x, c[0])?;
    adds(acc, acc, c[1])?;
    for &k in &c[2..] {
        mul(acc, acc, x)?;
        adds(acc, acc, k)?;
    }
    mul(acc, acc, x)
}

/// `GetLgammaMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue)`: bytes as
/// `(max, min)`: factor · max(elements · typeSize, 256) (at least the minimum) and factor ·
/// 256, factor 8 for float (7 with `isReuseSource`), 26 for half.
pub fn lgamma_max_min_tmp_size(elements: u32, type_size: u32, reuse: bool) -> (u32, u32) {
    let factor = match (type_size, reuse) {
        (4, true) => 7,
        (4, false) => 8,
        _ => 26,
    };
    let min = factor * 256;
    ((factor * (elements * type_size).max(256)).max(min), min)
}

/// `GetLgammaTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuffer)`: float 8, half 13
/// (the vendor's value, half of what its half path takes per element); no extra bytes.
pub fn lgamma_tmp_buffer_factor_size(type_size: u32) -> (u32, u32) {
    (if type_size == 4 { 8 } else { 13 }, 0)
}
