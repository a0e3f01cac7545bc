//! The mask register and its mode: `SetVectorMask`, `SetMaskCount`, `SetMaskNorm`, `ResetMask`.
//!
//! Level-0 calls with a mask argument write the register (`isSetMask = true`); pass
//! [`MASK_PLACEHOLDER`](super::MASK_PLACEHOLDER) to a level-0 call, or
//! [`KEEP_MASK`](super::KEEP_MASK) as a level-2 count, to run under the state set here.

use super::binary::lanes_for;
use super::Mask;
use crate::api::context::with_core;
use crate::core::trace::Pipe;
use crate::core::vector::contiguous_mask_bits;
use crate::core::Core;
use crate::dtype::Element;
use crate::error::{Category, Result, SimError, SourceLoc};

/// How `SetVectorMask` interprets its argument (`MaskMode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[allow(clippy::upper_case_acronyms)]
pub enum MaskMode {
    /// A lane bit pattern per repeat (a length is converted to its first-`len`-lanes pattern).
    #[default]
    NORMAL,
    /// The total element count of the next instructions (`MASK[31:0]`).
    COUNTER,
}

fn require_counter(core: &Core, api: &'static str) -> Result<()> {
    if core.profile.counter_mode {
        Ok(())
    } else {
        Err(SimError::new(
            Category::Unsupported,
            api,
            format!("counter mask mode is not available on {}", core.profile),
        ))
    }
}

/// `SetVectorMask<T, mode>(len)` / `SetVectorMask<T, mode>(maskHigh, maskLow)`: writes the mask
/// register. `mask` is a length in elements ([`Mask::Count`]) or the two words
/// ([`Mask::Bits`] `[low, high]`, or [`Mask::high_low`] in the C++ argument order). In
/// `NORMAL` a length becomes the first-`len`-lanes pattern of `T` (clamped to `256 / sizeof(T)`
/// lanes); in `COUNTER` a length is the element count. The mode bit is not changed.
#[track_caller]
pub fn set_vector_mask<T: Element>(mode: MaskMode, mask: impl Into<Mask>) -> Result<()> {
    const API: &str = "SetVectorMask";
    let loc = SourceLoc::caller();
    let mask = mask.into();
    with_core(API, loc, |core| {
        if mode == MaskMode::COUNTER {
            require_counter(core, API)?;
        }
        let lanes = lanes_for(T::SIZE);
        let bits = match (mode, mask) {
            (_, Mask::Keep) => {
                return Err(SimError::new(
                    Category::Range,
                    API,
                    "parameter `mask` = MASK_PLACEHOLDER: give a length or the two mask words",
                ))
            }
            (MaskMode::NORMAL, Mask::Count(n)) => {
                if n > lanes as u64 {
                    core.warn(
                        Category::Range,
                        API,
                        format!("parameter `len` = {n} exceeds the {lanes} lanes of {}: treated as {lanes}", T::DTYPE),
                        loc,
                    );
                }
                contiguous_mask_bits(n, lanes)
            }
            (MaskMode::COUNTER, Mask::Count(n)) => {
                if n > u32::MAX as u64 {
                    core.warn(
                        Category::Range,
                        API,
                        format!("counter-mode `len` = {n} exceeds 2^32 − 1: only MASK[31:0] = {} is used", n & 0xFFFF_FFFF),
                        loc,
                    );
                }
                [n, 0]
            }
            (_, Mask::Bits(b)) => b,
        };
        core.vector.mask = bits;
        core.issue(Pipe::S, API, loc, &[]);
        Ok(())
    })
}

/// `SetMaskCount()`: switches the vector unit to counter mode (not on the training series).
#[track_caller]
pub fn set_mask_count() -> Result<()> {
    const API: &str = "SetMaskCount";
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        require_counter(core, API)?;
        core.vector.counter_mode = true;
        core.issue(Pipe::S, API, loc, &[]);
        Ok(())
    })
}

/// `SetMaskNorm()`: switches the vector unit to normal (bit-pattern) mask mode.
#[track_caller]
pub fn set_mask_norm() -> Result<()> {
    const API: &str = "SetMaskNorm";
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        core.vector.counter_mode = false;
        core.issue(Pipe::S, API, loc, &[]);
        Ok(())
    })
}

/// `ResetMask()`: every lane enabled (both mask words all ones). Meant for normal mode; in
/// counter mode it makes the count 2^32 − 1 (a warning).
#[track_caller]
pub fn reset_mask() -> Result<()> {
    const API: &str = "ResetMask";
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        if core.vector.counter_mode {
            core.warn(
                Category::Range,
                API,
                "called in counter mode: the element count becomes 2^32 − 1; call SetMaskNorm first",
                loc,
            );
        }
        core.vector.mask = [u64::MAX; 2];
        core.issue(Pipe::S, API, loc, &[]);
        Ok(())
    })
}
