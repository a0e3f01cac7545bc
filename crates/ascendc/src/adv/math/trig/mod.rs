//! Trigonometric and hyperbolic APIs of the math family: `Sin`, `Cos`, `Tan`, `Atan`, `Asin`,
//! `Acos`, `Sinh`, `Cosh`, `Tanh`, `Asinh`, `Acosh`, `Atanh` (half and float; A2, A3 and 310P),
//! each with its host helpers.

// The vendor's constants are kept digit for digit (then rounded to float as it does).
#![allow(clippy::excessive_precision, clippy::approx_constant)]

mod common;

pub mod asin_acos;
pub mod atan;
pub mod hyperbolic;
pub mod inverse_hyperbolic;
pub mod sin_cos;
pub mod tan;

pub use asin_acos::{acos, asin};
pub use atan::atan;
pub use hyperbolic::{cosh, sinh, tanh};
pub use inverse_hyperbolic::{acosh, asinh, atanh};
pub use sin_cos::{cos, sin};
pub use tan::tan;
