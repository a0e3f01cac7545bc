//! The SoftMax family (激活函数/SoftMax接口): `SoftMax`, `SimpleSoftMax`, `LogSoftMax`,
//! `AdjustSoftMaxRes`, their tiling struct and host helpers.

pub mod nd;
mod rows;
pub mod tiling;

pub use nd::{
    adjust_softmax_res, log_softmax, log_softmax_mixed, simple_softmax, softmax, softmax_no_stats,
};
pub use tiling::{SoftMaxShapeInfo, SoftMaxTiling};
