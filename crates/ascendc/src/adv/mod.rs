//! The high-level API (the vendor's 高阶API, its `lib/` tree): functions composed only of the
//! crate's public basic API, so the instructions they record are the ones the device runs. One
//! module per family, as the vendor groups them.

pub mod activation;
pub mod common;
pub mod filter;
pub mod index;
pub mod math;
pub mod matmul;
pub mod normalization;
pub mod pad;
pub mod quantization;
pub mod reduce;
pub mod sort;
pub mod transpose;
pub mod utils;

pub use utils::init_global_memory::{fill, init_global_memory, init_output};
