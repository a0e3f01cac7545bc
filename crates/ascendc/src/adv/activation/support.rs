//! What the element-wise activations share: the repeat strides of their level-0 calls, the
//! data-type check, and the single counter-mode pass of the APIs that need no chunking.

use crate::adv::common::barrier_v;
use crate::api::vec::binary::div_l0;
use crate::api::vec::mask::{reset_mask, set_mask_count, set_mask_norm, set_vector_mask};
use crate::api::vec::scalar::{adds_l0, muls_l0};
use crate::api::vec::unary::exp_l0;
use crate::dtype::{DType, Element};
use crate::error::{Category, Result, SimError};
use crate::numeric::FloatArith;
use crate::{BinaryRepeatParams, LocalTensor, MaskMode, UnaryRepeatParams, MASK_PLACEHOLDER};

/// One repeat of contiguous blocks (`{1, 1, 8, 8}`).
pub(crate) const SAME: UnaryRepeatParams = UnaryRepeatParams::new(1, 1, 8, 8);
/// half/bfloat16 → float: the narrow source advances 4 blocks per repeat (`{1, 1, 8, 4}`).
pub(crate) const WIDEN: UnaryRepeatParams = UnaryRepeatParams::new(1, 1, 8, 4);
/// float → half/bfloat16: the narrow destination advances 4 blocks per repeat (`{1, 1, 4, 8}`).
pub(crate) const NARROW: UnaryRepeatParams = UnaryRepeatParams::new(1, 1, 4, 8);
/// Two sources, contiguous blocks (`{1, 1, 1, 8, 8, 8}`).
pub(crate) const BIN: BinaryRepeatParams = BinaryRepeatParams::new(1, 1, 1, 8, 8, 8);

/// An error unless `T` is one of `types` (named in the message as the page lists them).
pub(crate) fn check_type<T: Element>(api: &'static str, types: &[DType]) -> Result<()> {
    if types.contains(&T::DTYPE) {
        return Ok(());
    }
    let names: Vec<String> = types.iter().map(|t| t.to_string()).collect();
    Err(SimError::new(
        Category::Type,
        api,
        format!(
            "T = {} is not supported: {api} takes {} here",
            T::DTYPE,
            names.join(" or ")
        ),
    ))
}

/// half or float.
pub(crate) const HALF_FLOAT: &[DType] = &[DType::Half, DType::Float];

/// `SetMaskCount`, the counter set to `count` elements, `body` once, `SetMaskNorm`, `ResetMask`.
pub(crate) fn counter_pass<T: Element>(
    count: u32,
    body: impl FnOnce() -> Result<()>,
) -> Result<()> {
    set_mask_count()?;
    set_vector_mask::<T>(MaskMode::COUNTER, count as u64)?;
    body()?;
    set_mask_norm()?;
    reset_mask()
}

/// `dst = src / (e^(scale · src) + 1)` under the current mask: `Muls`, `Exp`, `Adds 1`, `Div`,
/// each followed by a barrier (the kernel of Silu, Swish and SwiGLU).
pub(crate) fn swish_steps<U: FloatArith>(
    dst: &LocalTensor<U>,
    src: &LocalTensor<U>,
    scale: U,
) -> Result<()> {
    muls_l0(dst, src, scale, MASK_PLACEHOLDER, 1, SAME)?;
    barrier_v()?;
    exp_l0(dst, dst, MASK_PLACEHOLDER, 1, SAME)?;
    barrier_v()?;
    adds_l0(dst, dst, U::from_f64(1.0), MASK_PLACEHOLDER, 1, SAME)?;
    barrier_v()?;
    div_l0(dst, src, dst, MASK_PLACEHOLDER, 1, BIN)?;
    barrier_v()
}
