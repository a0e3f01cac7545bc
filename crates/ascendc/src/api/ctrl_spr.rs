//! The CTRL special register: `SetCtrlSpr` / `GetCtrlSpr` on bit ranges, and the saturation
//! modes behind `SetSaturationFlag` / `GetSaturationFlag`.
//!
//! On A2/A3 the documented CTRL bit is 48, the fp16/bfloat16 overflow mode of vector
//! arithmetic and conversions, Mmad and Fixpipe: 0 = saturation (±Inf → ±MAX, NaN → 0, the
//! reset state), 1 = Inf/NaN kept. `SetSaturationFlag<FLOAT>(on)` writes the same bit inverted.
//! `SaturationMode::CAST` selects whether integer Cast results saturate (reset state) or keep
//! their low bits.

use super::context::with_core;
use super::sys_support::require;
use crate::core::spr::{CTRL_BITS_A2_A3, CTRL_FP16_INF_NAN_BIT};
use crate::core::trace::Pipe;
use crate::core::Core;
use crate::error::{Category, Result, SimError, SourceLoc};

/// Which saturation mode `SetSaturationFlag` / `GetSaturationFlag` address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(clippy::upper_case_acronyms)]
pub enum SaturationMode {
    /// Floating-point arithmetic and float conversions (half, bfloat16): `CTRL[48]`.
    FLOAT,
    /// Float → integer and integer → integer conversions.
    CAST,
}

/// Checks a `[start_bit, end_bit]` range against the register width and the bits the product
/// documents; returns the range's width in bits.
fn bit_range(core: &Core, api: &'static str, start_bit: i8, end_bit: i8) -> Result<u32> {
    for (name, b) in [("startBit", start_bit), ("endBit", end_bit)] {
        if !(0..=63).contains(&b) {
            return Err(SimError::range(api, name, b, "[0, 63]"));
        }
    }
    if start_bit > end_bit {
        return Err(SimError::new(
            Category::Range,
            api,
            format!("startBit = {start_bit} must be ≤ endBit = {end_bit}"),
        ));
    }
    if let Some(b) = (start_bit as u8..=end_bit as u8).find(|b| !CTRL_BITS_A2_A3.contains(b)) {
        return Err(SimError::new(
            Category::Unsupported,
            api,
            format!(
                "CTRL[{end_bit}:{start_bit}] includes bit {b}: {} supports only CTRL[{CTRL_FP16_INF_NAN_BIT}]",
                core.profile
            ),
        ));
    }
    Ok((end_bit - start_bit) as u32 + 1)
}

/// The modelled CTRL bits as a register value.
fn ctrl_value(core: &Core) -> u64 {
    (!core.vector.fp16_saturation as u64) << CTRL_FP16_INF_NAN_BIT
}

/// `SetCtrlSpr<startBit, endBit>(value)`: writes `value` into CTRL bits `[startBit, endBit]`
/// (bit indices in [0, 63]; on A2/A3 only bit 48 exists for this call). `value` must fit in the
/// range's width.
#[track_caller]
pub fn set_ctrl_spr(start_bit: i8, end_bit: i8, value: i64) -> Result<()> {
    const API: &str = "SetCtrlSpr";
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        require(core.profile, API, API)?;
        let width = bit_range(core, API, start_bit, end_bit)?;
        let max = if width == 64 {
            u64::MAX
        } else {
            (1u64 << width) - 1
        };
        if value < 0 || value as u64 > max {
            return Err(SimError::range(
                API,
                "value",
                value,
                format!("[0, {max}] (CTRL[{end_bit}:{start_bit}] has {width} bit(s))"),
            ));
        }
        let bits = (value as u64) << start_bit;
        core.vector.fp16_saturation = bits >> CTRL_FP16_INF_NAN_BIT & 1 == 0;
        core.issue(Pipe::S, API, loc, &[]);
        Ok(())
    })
}

/// `GetCtrlSpr<startBit, endBit>()`: the value of CTRL bits `[startBit, endBit]` (bit indices in
/// [0, 63]; on A2/A3 only bit 48 exists for this call).
#[track_caller]
pub fn get_ctrl_spr(start_bit: i8, end_bit: i8) -> Result<i64> {
    const API: &str = "GetCtrlSpr";
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        require(core.profile, API, API)?;
        let width = bit_range(core, API, start_bit, end_bit)?;
        let v = ctrl_value(core) >> start_bit;
        core.issue(Pipe::S, API, loc, &[]);
        Ok(if width == 64 {
            v as i64
        } else {
            (v & ((1u64 << width) - 1)) as i64
        })
    })
}

/// `SetSaturationFlag<mode>(enableSat)`: `true` turns saturation on for `mode`, `false` off
/// (FLOAT: Inf/NaN kept, `CTRL[48]` = 1; CAST: integer Cast results keep their low bits). A2/A3.
#[track_caller]
pub fn set_saturation_flag_mode(mode: SaturationMode, enable_sat: bool) -> Result<()> {
    const API: &str = "SetSaturationFlag";
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        require(core.profile, API, API)?;
        match mode {
            SaturationMode::FLOAT => core.vector.fp16_saturation = enable_sat,
            SaturationMode::CAST => core.spr.cast_overflow.truncate = !enable_sat,
        }
        core.issue(Pipe::S, API, loc, &[]);
        Ok(())
    })
}

/// `AscendCUtils::SetOverflow(ctrlValue)`: 1 selects the fp16 Inf/NaN mode, anything else
/// saturation (A2/A3 and 310B: `CTRL[48]`; 310P: `CTRL[53]`, inverted). Where the simulator's
/// vector unit always saturates (310P, 910), selecting saturation does nothing and selecting
/// Inf/NaN warns that results still saturate.
#[track_caller]
pub fn set_overflow(ctrl_value: u64) -> Result<()> {
    const API: &str = "AscendCUtils::SetOverflow";
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        let inf_nan = ctrl_value == 1;
        if core.profile.fp16_inf_nan_switchable {
            core.vector.fp16_saturation = !inf_nan;
        } else if inf_nan {
            core.warn_once(
                Category::Unsupported,
                API,
                "inf-nan",
                format!(
                    "the fp16 Inf/NaN mode is not modelled on {}: half results keep saturating",
                    core.profile
                ),
                loc,
            );
        }
        core.issue(Pipe::S, API, loc, &[]);
        Ok(())
    })
}

/// `GetSaturationFlag<mode>()`: whether saturation is on for `mode` (both are on at reset).
/// A2/A3.
#[track_caller]
pub fn get_saturation_flag(mode: SaturationMode) -> Result<bool> {
    const API: &str = "GetSaturationFlag";
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        require(core.profile, API, API)?;
        core.issue(Pipe::S, API, loc, &[]);
        Ok(match mode {
            SaturationMode::FLOAT => core.vector.fp16_saturation,
            SaturationMode::CAST => !core.spr.cast_overflow.truncate,
        })
    })
}
