//! The normalization family (归一化操作): `RmsNorm`, with its host tiling helpers.

pub mod rmsnorm;

pub use rmsnorm::{rms_norm, rms_norm_max_min_tmp_size, rms_norm_tiling_info, RmsNormTiling};
