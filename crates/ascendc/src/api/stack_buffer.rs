//! `PopStackBuffer`: a temporary tensor over everything the pipe has not yet given out in the
//! physical buffer of a position.

use super::context::with_core;
use super::sys_support::require;
use super::tensor::LocalTensor;
use super::tpipe::TPipe;
use crate::dtype::{DType, DTypeSet, Element};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::position::{Hardware, QuePos, TPosition};

const API: &str = "PopStackBuffer";

/// Element types of `PopStackBuffer`.
pub const POP_STACK_TYPES: DTypeSet = DTypeSet::of(&[
    DType::Uint8,
    DType::Int8,
    DType::Int16,
    DType::Uint16,
    DType::Int32,
    DType::Uint32,
    DType::Int64,
    DType::Uint64,
    DType::Float,
    DType::Half,
]);

/// `PopStackBuffer<T, pos>(popLocal)`: a tensor over the rest of the physical buffer of
/// position `P` after the buffers `pipe` has given out (its size in bytes is that remainder).
/// `None` (Ascend C's `false`) when nothing is left.
#[track_caller]
pub fn pop_stack_buffer<T: Element, P: QuePos>(pipe: &TPipe) -> Result<Option<LocalTensor<T>>> {
    pop_stack_buffer_at(pipe, P::POS)
}

/// [`pop_stack_buffer`] at a position chosen at run time (the C ABI's form).
#[doc(hidden)]
#[track_caller]
pub fn pop_stack_buffer_at<T: Element>(
    pipe: &TPipe,
    pos: TPosition,
) -> Result<Option<LocalTensor<T>>> {
    let loc = SourceLoc::caller();
    pipe.check_alive()?;
    with_core(API, loc, |core| {
        require(core.profile, API, API)?;
        if !POP_STACK_TYPES.contains(T::DTYPE) {
            return Err(SimError::new(
                Category::Type,
                API,
                format!(
                    "T = {} is not supported (supported: {POP_STACK_TYPES})",
                    T::DTYPE
                ),
            ));
        }
        let hw = core
            .profile
            .hardware_of(pos)
            .filter(|h| *h != Hardware::GM)
            .ok_or_else(|| {
                SimError::new(
                    Category::Position,
                    API,
                    format!(
                        "position {pos} has no on-chip buffer on {}",
                        core.profile.soc
                    ),
                )
            })?;
        core.check_buffer(API, hw)?;
        let (start, end) = pipe.free_range(core, hw);
        let len = (end - start) / T::SIZE as u32 * T::SIZE as u32;
        if len == 0 {
            return Ok(None);
        }
        Ok(Some(LocalTensor::raw(pos, hw, start, len, None)))
    })
}
