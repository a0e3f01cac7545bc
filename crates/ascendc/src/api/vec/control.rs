//! Control registers of the vector unit besides the mask: the fp16 overflow mode
//! (`SetSaturationFlag`) and the int32 → half dequantisation scale (`SetDeqScale`).

use crate::api::context::with_core;
use crate::core::trace::Pipe;
use crate::dtype::f16;
use crate::error::{Category, Result, SimError, SourceLoc};

/// `SetSaturationFlag<SaturationMode::FLOAT>(flag)`: `true` = fp16 saturation (±Inf → ±65504,
/// NaN → 0), `false` = IEEE Inf/NaN results (`CTRL[48]`). Only A2/A3 can switch; the other
/// products always saturate and refuse the call. float results never saturate.
#[track_caller]
pub fn set_saturation_flag(saturate: bool) -> Result<()> {
    const API: &str = "SetSaturationFlag";
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        if !core.profile.fp16_inf_nan_switchable {
            return Err(SimError::new(
                Category::Unsupported,
                API,
                format!(
                    "the fp16 overflow mode cannot be switched on {}: its vector unit always saturates",
                    core.profile
                ),
            ));
        }
        core.vector.fp16_saturation = saturate;
        core.issue(Pipe::S, API, loc, &[]);
        Ok(())
    })
}

/// `SetDeqScale(scale)`: the factor of the int32 → half Cast (`dst = half(src × scale)`, one
/// rounding) on the products that convert int32 → half through it.
#[track_caller]
pub fn set_deq_scale(scale: f16) -> Result<()> {
    const API: &str = "SetDeqScale";
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        core.vector.deq_scale = scale;
        core.spr.deq = crate::core::spr::DeqScaleReg::Half;
        core.issue(Pipe::S, API, loc, &[]);
        Ok(())
    })
}
