//! Rounding, sign, remainder and related APIs of the math family: Floor, Ceil, Trunc, Round,
//! Frac, Sign, Fmod, ClampMax/ClampMin, Axpy, Xor, CumSum.

mod cast_round;

pub mod axpy;
pub mod ceil;
pub mod clamp;
pub mod cumsum;
pub mod floor;
pub mod fmod;
pub mod frac;
pub mod nearest;
pub mod sign;
pub mod xor;

pub use axpy::axpy;
pub use ceil::{ceil, trunc};
pub use clamp::{clamp_max, clamp_min};
pub use cumsum::{cum_sum, CumSumConfig, CumSumInfo};
pub use floor::floor;
pub use fmod::fmod;
pub use frac::frac;
pub use nearest::round;
pub use sign::sign;
pub use xor::xor;
