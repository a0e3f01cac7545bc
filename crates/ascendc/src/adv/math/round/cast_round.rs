//! What the rounding APIs share: the repeat strides of their casts, float rounding per product
//! (one `Cast` float → float on A2/A3; float → int32 → float on 310P, which has no float →
//! float rounding cast), and the chunk loop of the APIs that widen half to float.

use crate::adv::common::{barrier_v, counter_loop, split_count, Tmp};
use crate::api::vec::cast::cast_l0;
use crate::chip::Product;
use crate::dtype::DType;
use crate::error::{Category, Result, SimError};
use crate::numeric::RoundMode;
use crate::{f16, LocalTensor, UnaryRepeatParams, MASK_PLACEHOLDER};

/// One repeat of contiguous blocks (`{1, 1, 8, 8}`).
pub(crate) const SAME: UnaryRepeatParams = UnaryRepeatParams::new(1, 1, 8, 8);
/// half → float: the half source advances 4 blocks per repeat (`{1, 1, 8, 4}`).
pub(crate) const WIDEN: UnaryRepeatParams = UnaryRepeatParams::new(1, 1, 8, 4);
/// float → half: the half destination advances 4 blocks per repeat (`{1, 1, 4, 8}`).
pub(crate) const NARROW: UnaryRepeatParams = UnaryRepeatParams::new(1, 1, 4, 8);

/// `dst = round(src)` under the current counter mask. 310P goes through `int` (values beyond
/// the int32 range saturate there); `int` may alias `dst` or `src`.
pub(crate) fn round_float(
    p: Product,
    mode: RoundMode,
    dst: &LocalTensor<f32>,
    src: &LocalTensor<f32>,
    int: &LocalTensor<i32>,
) -> Result<()> {
    if p == Product::Ascend310P {
        cast_l0(int, src, mode, MASK_PLACEHOLDER, 1, SAME)?;
        barrier_v()?;
        cast_l0(dst, int, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, SAME)?;
    } else {
        cast_l0(dst, src, mode, MASK_PLACEHOLDER, 1, SAME)?;
    }
    barrier_v()
}

/// half → float under the current counter mask, then a barrier.
pub(crate) fn widen(dst: &LocalTensor<f32>, src: &LocalTensor<f16>) -> Result<()> {
    cast_l0(dst, src, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, WIDEN)?;
    barrier_v()
}

/// float → half (nearest even) under the current counter mask, then a barrier.
pub(crate) fn narrow(dst: &LocalTensor<f16>, src: &LocalTensor<f32>) -> Result<()> {
    cast_l0(dst, src, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, NARROW)?;
    barrier_v()
}

/// The error for an element type `api` does not take (`allowed`: "half or float", …).
pub(crate) fn bad_type(api: &'static str, t: DType, allowed: &str) -> SimError {
    SimError::new(
        Category::Type,
        api,
        format!("T = {t} is not supported: {api} takes {allowed}"),
    )
}

/// The half and float types of the rounding APIs.
pub(crate) enum Float {
    /// `(dst, src)` as half.
    Half(LocalTensor<f16>, LocalTensor<f16>),
    /// `(dst, src)` as float.
    Single(LocalTensor<f32>, LocalTensor<f32>),
}

/// `(dst, src)` as the float type they hold; an error for any other `T`.
pub(crate) fn float_pair<T: crate::Element>(
    api: &'static str,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
) -> Result<Float> {
    match T::DTYPE {
        DType::Half => Ok(Float::Half(dst.reinterpret_cast(), src.reinterpret_cast())),
        DType::Float => Ok(Float::Single(
            dst.reinterpret_cast(),
            src.reinterpret_cast(),
        )),
        other => Err(bad_type(api, other, "half or float")),
    }
}

/// The loop of Floor (half), Ceil, Trunc and Round: chunks of the temporary buffer's capacity
/// at `bytes_per_elem` (whole 32-element units) under the counter mask. A half chunk is widened
/// into the buffer, rounded there in place (310P: through int32 in the same bytes) and narrowed
/// into `dst`; a float chunk is rounded from `src` into `dst` with the buffer as the int32 step.
pub(crate) fn rounded_chunks(
    api: &'static str,
    p: Product,
    mode: RoundMode,
    pair: Float,
    tmp: Tmp,
    count: u32,
    bytes_per_elem: u32,
) -> Result<()> {
    let buf = tmp.buffer(api)?;
    let split = split_count(api, buf.get_size(), bytes_per_elem)?;
    let (wide, int) = (buf.reinterpret_cast::<f32>(), buf.reinterpret_cast::<i32>());
    match pair {
        Float::Half(dst, src) => counter_loop::<f16>(count, split, |at| {
            widen(&wide, &src.at(at)?)?;
            round_float(p, mode, &wide, &wide, &int)?;
            narrow(&dst.at(at)?, &wide)
        }),
        Float::Single(dst, src) => counter_loop::<f32>(count, split, |at| {
            round_float(p, mode, &dst.at(at)?, &src.at(at)?, &int)
        }),
    }
}
