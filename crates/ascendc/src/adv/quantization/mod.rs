//! The quantization family (量化操作): `AscendQuant`, `AscendDequant` and `AscendAntiQuant`, with
//! their host helpers.

pub mod ascend_antiquant;
pub mod ascend_dequant;
pub mod ascend_quant;

pub use ascend_antiquant::{
    ascend_antiquant, ascend_antiquant_max_min_tmp_size, ascend_antiquant_max_tmp_size,
    ascend_antiquant_min_tmp_size, ascend_antiquant_tmp_buffer_factor_size, AntiQuantParams,
    AntiQuantShapeInfo, AntiQuantShapes,
};
pub use ascend_dequant::{
    ascend_dequant, ascend_dequant_max_min_tmp_size, ascend_dequant_scalar,
    ascend_dequant_tmp_buffer_factor_size, DeQuantMode, DequantExtent, DequantParams,
};
pub use ascend_quant::{
    ascend_quant, ascend_quant_max_min_tmp_size, ascend_quant_tmp_buffer_factor_size, QuantParams,
};
