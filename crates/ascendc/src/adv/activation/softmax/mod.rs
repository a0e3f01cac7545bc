//! The SoftMax family (激活函数/SoftMax接口): `SoftMax`, `SimpleSoftMax`, `LogSoftMax`,
//! `AdjustSoftMaxRes`, their tiling struct and host helpers.

pub mod flash;
pub mod flash_v1;
pub mod flash_v3;
pub mod grad;
pub mod nd;
mod rows;
pub mod tiling;
mod v300;

pub use flash::{softmax_flash_v2, FlashV2Flags};
pub use flash_v1::softmax_flash;
pub use flash_v3::{softmax_flash_v3, SoftMaxParams};
pub use grad::{softmax_grad, softmax_grad_front};
pub use nd::{
    adjust_softmax_res, log_softmax, log_softmax_mixed, simple_softmax, softmax, softmax_no_stats,
};
pub use tiling::{SoftMaxShapeInfo, SoftMaxTiling};
