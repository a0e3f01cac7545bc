//! Exponential, logarithm, power and error-function APIs of the math family: `Exp` (Taylor
//! refinement), `Log`/`Log2`/`Log10`, `Power` (tensor/scalar bases and exponents), `Erf`, `Erfc`.
//! Each is composed from vector instructions as the device does it, with its host helpers.

pub mod erf;
pub mod erfc;
pub mod exp;
pub mod log;
pub mod power;
mod power_float;
mod power_int;

pub use erf::erf;
pub use erfc::erfc;
pub use exp::exp;
pub use log::{log, log10, log2};
pub use power::{power, PowerOperand};

use crate::api::vec::compare::compare_scalar_l0;
use crate::dtype::{DType, Element};
use crate::error::{Category, Result, SimError};
use crate::numeric::Arith;
use crate::{BinaryRepeatParams, LocalTensor, UnaryRepeatParams, CMPMODE, MASK_PLACEHOLDER};

/// Contiguous one-source repeat (`{1, 1, 8, 8}`).
pub(crate) const UNARY: UnaryRepeatParams = UnaryRepeatParams::new(1, 1, 8, 8);
/// Contiguous two-source repeat (`{1, 1, 1, 8, 8, 8}`).
pub(crate) const BINARY: BinaryRepeatParams = BinaryRepeatParams::new(1, 1, 1, 8, 8, 8);

/// `true` for half, `false` for float; a type error naming `api` for any other `T`.
pub(crate) fn is_half<T: Element>(api: &'static str) -> Result<bool> {
    match T::DTYPE {
        DType::Half => Ok(true),
        DType::Float => Ok(false),
        other => Err(SimError::new(
            Category::Type,
            api,
            format!("T = {other} is not supported: {api} takes half or float"),
        )),
    }
}

/// The error of a temporary buffer smaller than one chunk (`CheckTmpBufferSize`).
pub(crate) fn too_small(api: &'static str, bytes: u32, need: u32) -> SimError {
    SimError::new(
        Category::Size,
        api,
        format!(
            "sharedTmpBuffer of {bytes} bytes is too small: at least {need} bytes are needed; size it with Get{api}MaxMinTmpSize"
        ),
    )
}

/// `CompareScalar<T, uint8_t, false>(dst, src, scalar, mode, MASK_PLACEHOLDER, repeat, {1,1,8,8})`
/// under a counter mask, as the device runs it on A2, A3 and 310P: the mask (and the counter) is
/// reserved there, so `repeat` whole repeats (256 bytes of `src`) are compared, on a view of
/// `src` widened to the repeats it covers.
pub(crate) fn compare_repeats<T: Arith>(
    dst: &LocalTensor<u8>,
    src: &LocalTensor<T>,
    scalar: T,
    mode: CMPMODE,
    repeat: u8,
) -> Result<()> {
    let mut s = *src;
    let need = repeat as u32 * 256 / T::SIZE as u32;
    if s.get_size() < need {
        s.set_size(need)?;
    }
    compare_scalar_l0(dst, &s, scalar, mode, MASK_PLACEHOLDER, repeat, UNARY)
}
