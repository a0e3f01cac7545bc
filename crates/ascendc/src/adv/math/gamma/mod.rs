//! Gamma-function APIs of the math family: `Digamma` (ψ) and `Lgamma` (ln |Γ|), half and float
//! on A2, A3 and 310P, each with its host helpers.

// The vendor's constants are kept digit for digit (then rounded to float as it does).
#![allow(clippy::excessive_precision, clippy::approx_constant)]

mod ops;

pub mod digamma;
pub mod lgamma;

pub use digamma::{digamma, digamma_max_min_tmp_size, digamma_tmp_buffer_factor_size};
pub use lgamma::{lgamma, lgamma_max_min_tmp_size, lgamma_tmp_buffer_factor_size};
