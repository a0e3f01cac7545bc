//! Per-product tables of the data-layout instructions (Transpose, TransDataTo5HD) and of
//! VectorPadding and BilinearInterpolation, in [`Product`](crate::chip::Product) order
//! (910, 310P, A2, A3, 310B).

use super::support::OpSupport;
use crate::dtype::{DType::*, DTypeSet};

const NONE: DTypeSet = DTypeSet::EMPTY;
const B16: DTypeSet = DTypeSet::of(&[Int16, Uint16, Half]);
const U16: DTypeSet = DTypeSet::of(&[Uint16]);
const B8_B16: DTypeSet = DTypeSet::of(&[Int8, Uint8, Int16, Uint16, Half]);
const B8_B16_B32: DTypeSet =
    DTypeSet::of(&[Int8, Uint8, Int16, Uint16, Half, Int32, Uint32, Float]);
const B16_B32: DTypeSet = DTypeSet::of(&[Int16, Uint16, Half, Int32, Uint32, Float]);
const H: DTypeSet = DTypeSet::of(&[Half]);

/// `Transpose(dst, src)`: the 16×16 two-byte transpose, on every product.
pub const TRANSPOSE: OpSupport = OpSupport::uniform(B16, B16);

/// `Transpose(dst, src, tmp, params)` with `TRANSPOSE_ND2ND_B16`: uint16_t only; the training
/// series has no enhanced form.
pub const TRANSPOSE_ND2ND_B16: OpSupport = OpSupport::per_family(NONE, U16, U16, U16);

/// `Transpose(dst, src, tmp, params)` with `TRANSPOSE_NCHW2NHWC` / `TRANSPOSE_NHWC2NCHW`: not on
/// the training series nor on Atlas 200I/500 A2.
pub const TRANSPOSE_NCHW_NHWC: OpSupport =
    OpSupport::per_family(NONE, B8_B16_B32, B8_B16_B32, NONE);

/// How much `sharedTmpBuffer` the NCHW ↔ NHWC transposes need.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransposeTmp {
    /// No temporary buffer (Atlas inference series).
    NotNeeded,
    /// `(cSize + 2)·h0·w0·sizeof(T)` bytes for NCHW → NHWC and `(2·cSize + 1)·h0·w0·sizeof(T)`
    /// for NHWC → NCHW, with `w0 = 32 / sizeof(T)` and `h0` = 32 for 1-byte types, else 16 (A2/A3).
    Staged,
}

/// The `sharedTmpBuffer` rule of the NCHW ↔ NHWC transposes per product (unused where the
/// transposes are not supported).
pub const TRANSPOSE_TMP: [TransposeTmp; 5] = [
    TransposeTmp::NotNeeded,
    TransposeTmp::NotNeeded,
    TransposeTmp::Staged,
    TransposeTmp::Staged,
    TransposeTmp::NotNeeded,
];

/// TransDataTo5HD: 1- and 2-byte types on the training series, 1-, 2- and 4-byte types elsewhere.
pub const TRANS_DATA_TO_5HD: OpSupport =
    OpSupport::per_family(B8_B16, B8_B16_B32, B8_B16_B32, B8_B16_B32);

/// VectorPadding: Atlas inference series AI Core only.
pub const VECTOR_PADDING: OpSupport = OpSupport::per_family(NONE, B16_B32, NONE, NONE);

/// BilinearInterpolation: half on the inference series AI Core and on A2/A3.
pub const BILINEAR_INTERPOLATION: OpSupport = OpSupport::per_family(NONE, H, H, NONE);

/// How much `sharedTmpBuffer` BilinearInterpolation needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BilinearTmp {
    /// `src0Offset.GetSize()·4` bytes (Atlas inference series).
    PerOffset,
    /// `src0.GetSize()·32 + src1.GetSize()·32` bytes (A2/A3).
    PerElement,
}

/// The `sharedTmpBuffer` rule of BilinearInterpolation per product (unused where it is not
/// supported).
pub const BILINEAR_TMP: [BilinearTmp; 5] = [
    BilinearTmp::PerElement,
    BilinearTmp::PerOffset,
    BilinearTmp::PerElement,
    BilinearTmp::PerElement,
    BilinearTmp::PerElement,
];
