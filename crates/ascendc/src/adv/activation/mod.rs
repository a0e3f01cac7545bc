//! The activation family (激活函数): element-wise activations and the SoftMax family.
//!
//! Each element-wise API issues the same basic instructions, in the same data type and order,
//! as the device's implementation, and has its host helpers (`Get<Api>MaxMinTmpSize`, …).

pub mod gelu;
pub mod glu;
pub mod sigmoid;
pub mod softmax;
mod support;
pub mod swish;

pub use crate::adv::common::Tmp;
pub use gelu::{faster_gelu, faster_gelu_v2, gelu, GeluMode};
pub use glu::{geglu, reglu, swiglu};
pub use sigmoid::sigmoid;
pub use swish::{silu, swish};
