//! Data filtering (数据过滤): `Select` with a byte mask, and `DropOut`.

pub mod dropout;
pub mod select;

pub use dropout::{drop_out, drop_out_bit_mode_init, drop_out_max_min_tmp_size, DropOutShapeInfo};
pub use select::{
    select_max_min_tmp_size, select_with_bytes_mask, SelectScalar, SelectWithBytesMaskShapeInfo,
};
