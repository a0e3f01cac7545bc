//! Tensor padding (张量变换): `Pad` and `UnPad` of a 2-D tensor along its width, with their
//! host tiling.

pub mod broadcast;
pub mod pad_unpad;

pub use pad_unpad::{
    pad, pad_max_min_tmp_size, pad_tiling, unpad, unpad_max_min_tmp_size, unpad_tiling, PadParams,
    PadTiling, UnPadParams, UnPadTiling,
};
