//! Transpose, TransDataTo5HD, VectorPadding and BilinearInterpolation over the C ABI.

use crate::abi::{call, dtype, AscLoc, AscLocal};
use crate::vec::{AscMask, AscRepeat};
use crate::with_dtype;
use ascendc::api::vec::interp::bilinear_interpolation;
use ascendc::api::vec::padding::{vector_padding, vector_padding_l0};
use ascendc::api::vec::trans_data::*;
use ascendc::api::vec::transpose::*;
use ascendc::error::{Category, SimError};
use ascendc::{f16, DType, LocalTensor, Mask, UnaryRepeatParams};

/// `TransposeParamsExt` as C++ lays it out.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct AscTransposeParams {
    /// N axis length.
    pub n: u16,
    /// C axis length.
    pub c: u16,
    /// H axis length.
    pub h: u16,
    /// W axis length.
    pub w: u16,
    /// `TransposeType` value.
    pub transpose_type: u8,
}

impl AscTransposeParams {
    fn params(&self) -> Result<TransposeParamsExt, SimError> {
        let t = TransposeType::from_u8(self.transpose_type).ok_or_else(|| {
            SimError::range(
                "Transpose",
                "transposeParams.transposeType",
                self.transpose_type,
                "[0, 12] (TRANSPOSE_TYPE_NONE … TRANSPOSE_NHWC2NCHW)",
            )
        })?;
        Ok(TransposeParamsExt::new(self.n, self.c, self.h, self.w, t))
    }
}

/// `TransDataTo5HDParams` as C++ lays it out.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct AscTransDataParams {
    /// `dstHighHalf` (0 or 1).
    pub dst_high_half: u8,
    /// `srcHighHalf` (0 or 1).
    pub src_high_half: u8,
    /// `repeatTimes`.
    pub repeat_times: u8,
    /// `dstRepStride`, in 32-byte blocks.
    pub dst_rep_stride: u16,
    /// `srcRepStride`, in 32-byte blocks.
    pub src_rep_stride: u16,
}

impl From<AscTransDataParams> for TransDataTo5HDParams {
    fn from(p: AscTransDataParams) -> Self {
        TransDataTo5HDParams::new(
            p.dst_high_half != 0,
            p.src_high_half != 0,
            p.repeat_times,
            p.dst_rep_stride,
            p.src_rep_stride,
        )
    }
}

/// `Transpose(dst, src)`.
///
/// # Safety
/// Tensor pointers valid.
#[no_mangle]
pub unsafe extern "C" fn ascendc_transpose(
    elem: u8,
    dst: *const AscLocal,
    src: *const AscLocal,
    loc: AscLoc,
) -> i32 {
    call(
        loc,
        || with_dtype!(dtype(elem)?, T => transpose(&(*dst).tensor::<T>()?, &(*src).tensor::<T>()?)),
    )
}

/// `Transpose(dst, src, sharedTmpBuffer, transposeParams)`.
///
/// # Safety
/// Tensor and parameter pointers valid.
#[no_mangle]
pub unsafe extern "C" fn ascendc_transpose_ext(
    elem: u8,
    dst: *const AscLocal,
    src: *const AscLocal,
    tmp: *const AscLocal,
    params: *const AscTransposeParams,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let p = (*params).params()?;
        let tmp = (*tmp).tensor::<u8>()?;
        with_dtype!(dtype(elem)?, T => transpose_ext(&(*dst).tensor::<T>()?, &(*src).tensor::<T>()?, &tmp, p))
    })
}

/// The 16 tensors of a list form.
///
/// # Safety
/// `list` points at 16 tensors.
unsafe fn list<T: ascendc::Element>(
    list: *const AscLocal,
) -> Result<[LocalTensor<T>; NCHW_CONV_ADDR_LIST_SIZE], SimError> {
    let v = (0..NCHW_CONV_ADDR_LIST_SIZE)
        .map(|i| (*list.add(i)).tensor::<T>())
        .collect::<Result<Vec<_>, _>>()?;
    v.try_into().map_err(|_| {
        SimError::new(
            Category::Size,
            "TransDataTo5HD",
            "an address list must hold 16 tensors",
        )
    })
}

/// `TransDataTo5HD(dstList, srcList, params)` with two arrays of 16 tensors.
///
/// # Safety
/// `dst` and `src` point at 16 tensors each.
#[no_mangle]
pub unsafe extern "C" fn ascendc_trans_data_to_5hd(
    elem: u8,
    dst: *const AscLocal,
    src: *const AscLocal,
    params: AscTransDataParams,
    loc: AscLoc,
) -> i32 {
    call(
        loc,
        || with_dtype!(dtype(elem)?, T => trans_data_to_5hd(&list::<T>(dst)?, &list::<T>(src)?, params.into())),
    )
}

/// `TransDataTo5HD<T>(dstList, srcList, params)` with two arrays of 16 UB addresses.
///
/// # Safety
/// `dst` and `src` point at 16 `uint64_t` each.
#[no_mangle]
pub unsafe extern "C" fn ascendc_trans_data_to_5hd_addr(
    elem: u8,
    dst: *const u64,
    src: *const u64,
    params: AscTransDataParams,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let d: [u64; NCHW_CONV_ADDR_LIST_SIZE] = std::array::from_fn(|i| *dst.add(i));
        let s: [u64; NCHW_CONV_ADDR_LIST_SIZE] = std::array::from_fn(|i| *src.add(i));
        with_dtype!(dtype(elem)?, T => trans_data_to_5hd_addr::<T>(&d, &s, params.into()))
    })
}

/// `TransDataTo5HD<T>(dst, src, params)` with two `uint64_t` tensors of addresses.
///
/// # Safety
/// Tensor pointers valid.
#[no_mangle]
pub unsafe extern "C" fn ascendc_trans_data_to_5hd_addr_tensor(
    elem: u8,
    dst: *const AscLocal,
    src: *const AscLocal,
    params: AscTransDataParams,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let (d, s) = ((*dst).tensor::<u64>()?, (*src).tensor::<u64>()?);
        with_dtype!(dtype(elem)?, T => trans_data_to_5hd_addr_tensor::<T>(&d, &s, params.into()))
    })
}

/// `VectorPadding`: level 2 when `mask` is null (`count` elements), else level 0 with `repeat`
/// and the unary strides in `params`.
///
/// # Safety
/// Tensor pointers valid; `mask` and `params` both null or both valid.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_vector_padding(
    elem: u8,
    dst: *const AscLocal,
    src: *const AscLocal,
    pad_mode: u8,
    pad_side: u8,
    count: i32,
    mask: *const AscMask,
    repeat: u8,
    params: *const AscRepeat,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let level0 = match (mask.as_ref(), params.as_ref()) {
            (Some(m), Some(p)) => Some((
                Mask::from(*m),
                UnaryRepeatParams::new(p.blk[0], p.blk[1], p.rep[0], p.rep[1]),
            )),
            _ => None,
        };
        let side = pad_side != 0;
        with_dtype!(dtype(elem)?, T => {
            let (d, s) = ((*dst).tensor::<T>()?, (*src).tensor::<T>()?);
            match level0 {
                None => vector_padding(&d, &s, pad_mode, side, count),
                Some((m, p)) => vector_padding_l0(&d, &s, pad_mode, side, m, repeat, p),
            }
        })
    })
}

/// `BilinearInterpolation(dst, src0, src0Offset, src1, mask, hRepeat, repeatMode, dstBlkStride,
/// vROffset, vRepeat, sharedTmpBuffer)`.
///
/// # Safety
/// Tensor and mask pointers valid.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_bilinear_interpolation(
    elem: u8,
    dst: *const AscLocal,
    src0: *const AscLocal,
    src0_offset: *const AscLocal,
    src1: *const AscLocal,
    mask: *const AscMask,
    h_repeat: u8,
    repeat_mode: u8,
    dst_blk_stride: u16,
    v_r_offset: u16,
    v_repeat: u8,
    tmp: *const AscLocal,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let m = Mask::from(*mask);
        let off = (*src0_offset).tensor::<u32>()?;
        let tmp = (*tmp).tensor::<u8>()?;
        macro_rules! go {
            ($t:ty) => {
                bilinear_interpolation(
                    &(*dst).tensor::<$t>()?,
                    &(*src0).tensor::<$t>()?,
                    &off,
                    &(*src1).tensor::<$t>()?,
                    m,
                    h_repeat,
                    repeat_mode != 0,
                    dst_blk_stride,
                    v_r_offset,
                    v_repeat,
                    &tmp,
                )
            };
        }
        match dtype(elem)? {
            DType::Half => go!(f16),
            t => Err(SimError::new(
                Category::Type,
                "BilinearInterpolation",
                format!("element type {t} is not supported (supported: half)"),
            )),
        }
    })
}
