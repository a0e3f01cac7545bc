//! The quantization family (量化操作): `AscendQuant`, with its host helpers.

pub mod ascend_quant;

pub use ascend_quant::{
    ascend_quant, ascend_quant_max_min_tmp_size, ascend_quant_tmp_buffer_factor_size, QuantParams,
};
