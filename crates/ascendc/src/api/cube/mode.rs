//! The Mmad control bits (Atlas A2/A3/200I-500 A2): HF32 (`SetHF32Mode`, `SetHF32TransMode`) and
//! the order the cube produces results in (`SetMMRowMajor`, `SetMMColumnMajor`). Each is one
//! scalar-pipe instruction.
//!
//! With HF32 on, every float element of L0A and L0B is rounded to HF32 before a `Mmad` multiplies
//! it: sign, the 8 exponent bits and the top 11 of the 23 mantissa bits, to nearest with ties to
//! even (`NEAREST_EVEN`, the reset state) or ties away from zero (`NEAREST_ZERO`, which the
//! high-level `SetHF32` page spells "就近舍入，距离相等时向远离0方向进位"). The products and the
//! accumulation then follow the float model of `Mmad`. The result order has no effect on values
//! (every result element is computed on its own).

use super::require;
use super::support::cube_facts;
use crate::api::context::with_core;
use crate::core::trace::Pipe;
use crate::core::Core;
use crate::error::{Result, SourceLoc};

/// `HF32Mode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HF32Mode {
    /// Float inputs are rounded to HF32.
    Enable,
    /// Plain float multiplication (the reset state).
    Disable,
}

/// `HF32TransMode`: how float rounds to HF32.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HF32TransMode {
    /// To nearest, ties away from zero.
    NearestZero,
    /// To nearest, ties to even (the reset state).
    NearestEven,
}

/// Mantissa bits of float HF32 drops.
const HF32_DROPPED_BITS: u32 = 23 - 11;

/// `x` rounded to HF32 (`away`: ties away from zero, else to even); infinities and NaNs are kept.
pub fn round_hf32(x: f32, away: bool) -> f32 {
    let bits = x.to_bits();
    if !x.is_finite() {
        return x;
    }
    let half = 1u32 << (HF32_DROPPED_BITS - 1);
    let low = bits & ((1 << HF32_DROPPED_BITS) - 1);
    let kept = bits & !((1 << HF32_DROPPED_BITS) - 1);
    let odd = kept >> HF32_DROPPED_BITS & 1 == 1;
    let up = low > half || (low == half && (away || odd));
    // A carry out of the mantissa moves to the next exponent (past the largest float: infinity).
    f32::from_bits(if up {
        kept + (1 << HF32_DROPPED_BITS)
    } else {
        kept
    })
}

#[track_caller]
fn setter(api: &'static str, f: impl FnOnce(&mut Core)) -> Result<()> {
    let loc = SourceLoc::caller();
    with_core(api, loc, |core| {
        require(core, api, cube_facts(core.profile).mmad_modes, api)?;
        f(core);
        core.issue(Pipe::S, api, loc, &[]);
        Ok(())
    })
}

/// `SetHF32Mode(mode)`.
#[track_caller]
pub fn set_hf32_mode(mode: HF32Mode) -> Result<()> {
    setter("SetHF32Mode", |core| {
        core.cube.hf32 = mode == HF32Mode::Enable
    })
}

/// `SetHF32TransMode(mode)`.
#[track_caller]
pub fn set_hf32_trans_mode(mode: HF32TransMode) -> Result<()> {
    setter("SetHF32TransMode", |core| {
        core.cube.hf32_away = mode == HF32TransMode::NearestZero
    })
}

/// `SetMMRowMajor()`: results along N first, then M.
#[track_caller]
pub fn set_mm_row_major() -> Result<()> {
    setter("SetMMRowMajor", |core| core.cube.mm_row_major = true)
}

/// `SetMMColumnMajor()`: results along M first, then N (the reset state).
#[track_caller]
pub fn set_mm_column_major() -> Result<()> {
    setter("SetMMColumnMajor", |core| core.cube.mm_row_major = false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hf32_keeps_eleven_mantissa_bits() {
        // 1 + 2^-11 is exact; 1 + 2^-12 is a tie: even rounds down, away rounds up.
        let exact = 1.0 + 2f32.powi(-11);
        assert_eq!(round_hf32(exact, false), exact);
        let tie = 1.0 + 2f32.powi(-12);
        assert_eq!(round_hf32(tie, false), 1.0);
        assert_eq!(round_hf32(tie, true), exact);
        assert_eq!(round_hf32(-tie, true), -exact);
        // A tie above an odd last bit rounds up either way.
        let odd_tie = exact + 2f32.powi(-12);
        assert_eq!(round_hf32(odd_tie, false), 1.0 + 2f32.powi(-10));
        assert_eq!(round_hf32(f32::MAX, false), f32::INFINITY);
        assert!(round_hf32(f32::NAN, true).is_nan());
    }
}
