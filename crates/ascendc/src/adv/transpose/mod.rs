//! Tensor transforms (the vendor's `transpose` family): ConfusionTranspose / Transpose and
//! TransData.

pub mod confusion_transpose;
pub mod trans_data;
