//! What the trigonometric and hyperbolic APIs share: their call frame (checks, temporary
//! buffer, chunk loop) and the level-0 instructions they issue under the counter mask (one
//! repeat, contiguous blocks, a `PipeBarrier<PIPE_V>` after each).

use crate::adv::common::{
    barrier_v, check_count, counter_loop, require, run, split_count, Tmp, A2_A3_310P,
};
use crate::api::vec::binary::{add_l0, div_l0, min_l0, mul_l0, sub_l0};
use crate::api::vec::cast::cast_l0;
use crate::api::vec::duplicate::duplicate_l0;
use crate::api::vec::scalar::{adds_l0, maxs_l0, mins_l0, muls_l0};
use crate::api::vec::unary::{abs_l0, exp_l0, ln_l0, sqrt_l0};
use crate::chip::Product;
use crate::dtype::{DType, Element};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::numeric::{FloatArith, RoundMode};
use crate::{f16, BinaryRepeatParams, LocalTensor, UnaryRepeatParams, MASK_PLACEHOLDER};

type L<T> = LocalTensor<T>;

/// One repeat of contiguous blocks (`{1, 1, 8, 8}`).
const SAME: UnaryRepeatParams = UnaryRepeatParams::new(1, 1, 8, 8);
/// half → float: the half source advances 4 blocks per repeat (`{1, 1, 8, 4}`).
const WIDEN: UnaryRepeatParams = UnaryRepeatParams::new(1, 1, 8, 4);
/// float → half: the half destination advances 4 blocks per repeat (`{1, 1, 4, 8}`).
const NARROW: UnaryRepeatParams = UnaryRepeatParams::new(1, 1, 4, 8);
/// Binary instructions on contiguous blocks (`{1, 1, 1, 8, 8, 8}`).
const BIN: BinaryRepeatParams = BinaryRepeatParams::new(1, 1, 1, 8, 8, 8);

/// The tensors of one chunk: `dst` and `src` from the chunk's first element, the whole
/// temporary buffer, the chunk length the buffer was split by, and the product.
pub(crate) struct Chunk<'a, T: Element> {
    pub dst: L<T>,
    pub src: L<T>,
    pub tmp: &'a L<u8>,
    pub split: u32,
    pub product: Product,
}

/// Runs element-wise API `api` called at `loc`: checks `calCount` and the product, takes the
/// temporary buffer, splits it into chunks of `bytes_per_elem(T)` bytes per element (whole
/// 32-element units) and calls `body` for each chunk under the counter mask. `tail_split`
/// selects the vendor's variant that lays out the tail chunk by its own length rounded up to
/// 32 elements instead of the full chunk length.
#[allow(clippy::too_many_arguments)]
pub(crate) fn element_wise<T: Element>(
    api: &'static str,
    loc: SourceLoc,
    dst: &L<T>,
    src: &L<T>,
    tmp: Tmp,
    count: u32,
    bytes_per_elem: impl Fn(DType) -> u32,
    tail_split: bool,
    mut body: impl FnMut(Chunk<T>) -> Result<()>,
) -> Result<()> {
    run(api, loc, || {
        check_count(
            api,
            count,
            &[("dstTensor", dst.get_size()), ("srcTensor", src.get_size())],
        )?;
        let product = require(api, A2_A3_310P)?;
        if !matches!(T::DTYPE, DType::Half | DType::Float) {
            return Err(SimError::new(
                Category::Type,
                api,
                format!(
                    "T = {} is not supported: {api} takes half or float",
                    T::DTYPE
                ),
            ));
        }
        let buf = tmp.buffer(api)?;
        let split = split_count(api, buf.get_size(), bytes_per_elem(T::DTYPE))?;
        let whole = count / split * split;
        counter_loop::<T>(count, split, |at| {
            let split = if tail_split && at == whole {
                (count - whole).div_ceil(32) * 32
            } else {
                split
            };
            body(Chunk {
                dst: dst.at(at)?,
                src: src.at(at)?,
                tmp: &buf,
                split,
                product,
            })
        })
    })
}

impl<T: Element> Chunk<'_, T> {
    /// Float slot `i` of the temporary buffer (`tmp[i · split]` as float).
    pub fn f32_slot(&self, i: u32) -> Result<L<f32>> {
        self.tmp.reinterpret_cast::<f32>().at(i * self.split)
    }
    /// Half slot at half index `i · split` of the temporary buffer.
    pub fn f16_slot(&self, i: u32) -> Result<L<f16>> {
        self.tmp.reinterpret_cast::<f16>().at(i * self.split)
    }
    /// `dst` and `src` as `U` (the dtype the caller matched).
    pub fn as_type<U: Element>(&self) -> (L<U>, L<U>) {
        (self.dst.reinterpret_cast(), self.src.reinterpret_cast())
    }
}

/// `Muls`: `d = s × x`.
pub(crate) fn muls<T: FloatArith>(d: &L<T>, s: &L<T>, x: T) -> Result<()> {
    muls_l0(d, s, x, MASK_PLACEHOLDER, 1, SAME)?;
    barrier_v()
}

/// `Adds`: `d = s + x`.
pub(crate) fn adds<T: FloatArith>(d: &L<T>, s: &L<T>, x: T) -> Result<()> {
    adds_l0(d, s, x, MASK_PLACEHOLDER, 1, SAME)?;
    barrier_v()
}

/// `Mins`: `d = min(s, x)`.
pub(crate) fn mins<T: FloatArith>(d: &L<T>, s: &L<T>, x: T) -> Result<()> {
    mins_l0(d, s, x, MASK_PLACEHOLDER, 1, SAME)?;
    barrier_v()
}

/// `Maxs`: `d = max(s, x)`.
pub(crate) fn maxs<T: FloatArith>(d: &L<T>, s: &L<T>, x: T) -> Result<()> {
    maxs_l0(d, s, x, MASK_PLACEHOLDER, 1, SAME)?;
    barrier_v()
}

/// `Add`: `d = a + b`.
pub(crate) fn add<T: FloatArith>(d: &L<T>, a: &L<T>, b: &L<T>) -> Result<()> {
    add_l0(d, a, b, MASK_PLACEHOLDER, 1, BIN)?;
    barrier_v()
}

/// `Sub`: `d = a − b`.
pub(crate) fn sub<T: FloatArith>(d: &L<T>, a: &L<T>, b: &L<T>) -> Result<()> {
    sub_l0(d, a, b, MASK_PLACEHOLDER, 1, BIN)?;
    barrier_v()
}

/// `Mul`: `d = a × b`.
pub(crate) fn mul<T: FloatArith>(d: &L<T>, a: &L<T>, b: &L<T>) -> Result<()> {
    mul_l0(d, a, b, MASK_PLACEHOLDER, 1, BIN)?;
    barrier_v()
}

/// `Div`: `d = a ÷ b`.
pub(crate) fn div<T: FloatArith>(d: &L<T>, a: &L<T>, b: &L<T>) -> Result<()> {
    div_l0(d, a, b, MASK_PLACEHOLDER, 1, BIN)?;
    barrier_v()
}

/// `Min`: `d = min(a, b)`.
pub(crate) fn min<T: FloatArith>(d: &L<T>, a: &L<T>, b: &L<T>) -> Result<()> {
    min_l0(d, a, b, MASK_PLACEHOLDER, 1, BIN)?;
    barrier_v()
}

/// `Abs`: `d = |s|`.
pub(crate) fn abs<T: FloatArith>(d: &L<T>, s: &L<T>) -> Result<()> {
    abs_l0(d, s, MASK_PLACEHOLDER, 1, SAME)?;
    barrier_v()
}

/// `Exp`: `d = e^s`.
pub(crate) fn exp<T: FloatArith>(d: &L<T>, s: &L<T>) -> Result<()> {
    exp_l0(d, s, MASK_PLACEHOLDER, 1, SAME)?;
    barrier_v()
}

/// `Ln`: `d = ln s`.
pub(crate) fn ln<T: FloatArith>(d: &L<T>, s: &L<T>) -> Result<()> {
    ln_l0(d, s, MASK_PLACEHOLDER, 1, SAME)?;
    barrier_v()
}

/// `Sqrt`: `d = √s`.
pub(crate) fn sqrt<T: FloatArith>(d: &L<T>, s: &L<T>) -> Result<()> {
    sqrt_l0(d, s, MASK_PLACEHOLDER, 1, SAME)?;
    barrier_v()
}

/// `Duplicate`: every counted element of `d` becomes `x`.
pub(crate) fn dup<T: FloatArith>(d: &L<T>, x: T) -> Result<()> {
    duplicate_l0(d, x, MASK_PLACEHOLDER, 1, 1, 8)?;
    barrier_v()
}

/// `Cast` half → float.
pub(crate) fn widen(d: &L<f32>, s: &L<f16>) -> Result<()> {
    cast_l0(d, s, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, WIDEN)?;
    barrier_v()
}

/// `Cast` float → half with `mode`.
pub(crate) fn narrow(d: &L<f16>, s: &L<f32>, mode: RoundMode) -> Result<()> {
    cast_l0(d, s, mode, MASK_PLACEHOLDER, 1, NARROW)?;
    barrier_v()
}

/// Rounds float `s` to an integral float in `d` with `mode`: one `Cast` float → float on A2/A3;
/// on 310P a `Cast` float → int32 into `d`'s bytes and back (values beyond int32 saturate).
pub(crate) fn round_float(p: Product, d: &L<f32>, s: &L<f32>, mode: RoundMode) -> Result<()> {
    if p == Product::Ascend310P {
        let int = d.reinterpret_cast::<i32>();
        cast_l0(&int, s, mode, MASK_PLACEHOLDER, 1, SAME)?;
        barrier_v()?;
        cast_l0(d, &int, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, SAME)?;
    } else {
        cast_l0(d, s, mode, MASK_PLACEHOLDER, 1, SAME)?;
    }
    barrier_v()
}

/// `⌊s⌋` through int32 on every product (`Cast` float → int32 `CAST_FLOOR` in `d`'s bytes,
/// then back to float).
pub(crate) fn floor_via_int32(d: &L<f32>, s: &L<f32>) -> Result<()> {
    let int = d.reinterpret_cast::<i32>();
    cast_l0(&int, s, RoundMode::CAST_FLOOR, MASK_PLACEHOLDER, 1, SAME)?;
    barrier_v()?;
    cast_l0(d, &int, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, SAME)?;
    barrier_v()
}

/// `⌊s⌋` of a half through int8 (`Cast` half → int8 `CAST_FLOOR` into `int`, then back into
/// `d`); values beyond the int8 range saturate.
pub(crate) fn floor_via_int8(d: &L<f16>, s: &L<f16>, int: &L<i8>) -> Result<()> {
    cast_l0(int, s, RoundMode::CAST_FLOOR, MASK_PLACEHOLDER, 1, NARROW)?;
    barrier_v()?;
    cast_l0(d, int, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, WIDEN)?;
    barrier_v()
}

/// The sign of `s` by division, in `d` (`den` scratch): `s·M / (|s·M| + 1/M)` with
/// M = 2^62 for float and 2^15 for half; ±1 except within about 1/M² of zero, 0 at ±0.
pub(crate) fn sign<T: FloatArith>(d: &L<T>, s: &L<T>, den: &L<T>) -> Result<()> {
    let (big, small) = if T::DTYPE == DType::Float {
        (4611686018427387904.0, 2.168404344971009e-19)
    } else {
        (32768.0, 3.0517578125e-05)
    };
    muls(d, s, T::from_f64(big as f32 as f64))?;
    abs(den, d)?;
    adds(den, den, T::from_f64(small as f32 as f64))?;
    div(d, d, den)
}

/// `Σ c[k]·v^k` evaluated as the vendor does, innermost first: `((c[n]·first + c[n−1])·v + …)·v
/// + c[0]` into `acc` (`first` is `v` or a copy of it); `v` is left unchanged. The float
/// coefficients are converted to `T` (`static_cast<T>`).
pub(crate) fn horner<T: FloatArith>(acc: &L<T>, first: &L<T>, v: &L<T>, c: &[f32]) -> Result<()> {
    let n = c.len() - 1;
    let k = |x: f32| T::from_f64(x as f64);
    muls(acc, first, k(c[n]))?;
    for &x in c[1..n].iter().rev() {
        adds(acc, acc, k(x))?;
        mul(acc, acc, v)?;
    }
    adds(acc, acc, k(c[0]))
}

/// Bytes per element of an API whose chunk needs `half` bytes per half element and `float`
/// bytes per float element.
pub(crate) fn per_elem(half: u32, float: u32) -> impl Fn(DType) -> u32 {
    move |t| if t == DType::Half { half } else { float }
}

/// `calcPro · max(elements · typeSize, 256)` and `calcPro · 256`, the `(max, min)` most of the
/// family's `Get…MaxMinTmpSize` return; `calc` is the factor for the element size.
pub(crate) fn scaled_tmp_size(elements: u32, type_size: u32, calc: u32) -> (u32, u32) {
    (calc * (elements * type_size).max(256), calc * 256)
}
