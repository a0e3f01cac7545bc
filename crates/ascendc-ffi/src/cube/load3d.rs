//! `LoadData` for convolution and its registers for C++ kernels.

use crate::abi::{call, dtype, AscLoc, AscLocal};
use crate::{with_dtype, with_tensor_dtype};
use ascendc::api::cube::load3d::{
    load_data_3d_v1, load_data_3d_v2, load_data_3d_v2_pro, set_fmatrix, set_load_data_boundary,
    set_load_data_padding_value, set_load_data_repeat, FmatrixMode, IsResetLoad3dConfig,
    LoadData3DParamsV1, LoadData3DParamsV2, LoadData3DParamsV2Pro, LoadDataRepeatParam,
};
use ascendc::TensorElement;

/// The three parameter structures as the C++ side passes them.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct AscLoad3D {
    /// Padding `[left, right, top, bottom]`.
    pub pad_list: [u8; 4],
    /// Feature-map height.
    pub l1_h: u16,
    /// Feature-map width.
    pub l1_w: u16,
    /// Channels.
    pub channel_size: u16,
    /// Columns moved.
    pub k_extension: u16,
    /// Rows moved.
    pub m_extension: u16,
    /// First column.
    pub k_start_pt: u16,
    /// First row.
    pub m_start_pt: u16,
    /// Kernel step along W.
    pub stride_w: u8,
    /// Kernel step along H.
    pub stride_h: u8,
    /// Kernel width.
    pub filter_w: u8,
    /// Kernel height.
    pub filter_h: u8,
    /// Dilation along W.
    pub dilation_filter_w: u8,
    /// Dilation along H.
    pub dilation_filter_h: u8,
    /// Transpose into L0A (0/1).
    pub en_transpose: u8,
    /// Small K (0/1).
    pub en_small_k: u8,
    /// Kernel width + 256 (0/1).
    pub filter_size_w: u8,
    /// Kernel height + 256 (0/1).
    pub filter_size_h: u8,
    /// Right feature-map registers (0/1).
    pub f_matrix_ctrl: u8,
    /// `IsResetLoad3dConfig::isSetFMatrix` (0/1).
    pub is_set_fmatrix: u8,
    /// `IsResetLoad3dConfig::isSetPadding` (0/1).
    pub is_set_padding: u8,
    /// The pad value's bits.
    pub pad_value: u64,
    /// V2 Pro: the packed extensions and starts.
    pub ext_config: u64,
    /// V2 Pro: the packed strides, kernel and dilation.
    pub filter_config: u64,
}

fn pad<T: TensorElement>(bits: u64) -> T {
    T::get(&bits.to_le_bytes(), 0)
}

/// `LoadData(dst, src, params)` for convolution: `kind` 1 `LoadData3DParamsV1`, 2
/// `LoadData3DParamsV2`, 3 `LoadData3DParamsV2Pro`.
///
/// # Safety
/// `dst`, `src` and `p` are valid for reads.
#[no_mangle]
pub unsafe extern "C" fn ascendc_load_data_3d(
    elem: u8,
    kind: u8,
    dst: *const AscLocal,
    src: *const AscLocal,
    p: *const AscLoad3D,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let r = *p;
        let config = IsResetLoad3dConfig {
            is_set_fmatrix: r.is_set_fmatrix != 0,
            is_set_padding: r.is_set_padding != 0,
        };
        with_tensor_dtype!(dtype(elem)?, T => {
            let (d, s) = ((*dst).tensor::<T>()?, (*src).tensor::<T>()?);
            match kind {
                1 => load_data_3d_v1(&d, &s, LoadData3DParamsV1::<T>::default(), config),
                2 => {
                    let q = LoadData3DParamsV2 {
                        pad_list: r.pad_list,
                        l1_h: r.l1_h,
                        l1_w: r.l1_w,
                        channel_size: r.channel_size,
                        k_extension: r.k_extension,
                        m_extension: r.m_extension,
                        k_start_pt: r.k_start_pt,
                        m_start_pt: r.m_start_pt,
                        stride_w: r.stride_w,
                        stride_h: r.stride_h,
                        filter_w: r.filter_w,
                        filter_h: r.filter_h,
                        dilation_filter_w: r.dilation_filter_w,
                        dilation_filter_h: r.dilation_filter_h,
                        en_transpose: r.en_transpose != 0,
                        en_small_k: r.en_small_k != 0,
                        pad_value: pad::<T>(r.pad_value),
                        filter_size_w: r.filter_size_w != 0,
                        filter_size_h: r.filter_size_h != 0,
                        f_matrix_ctrl: r.f_matrix_ctrl != 0,
                    };
                    load_data_3d_v2(&d, &s, q, config)
                }
                _ => {
                    let q = LoadData3DParamsV2Pro {
                        channel_size: r.channel_size,
                        en_transpose: r.en_transpose != 0,
                        en_small_k: r.en_small_k != 0,
                        filter_size_w: r.filter_size_w != 0,
                        filter_size_h: r.filter_size_h != 0,
                        f_matrix_ctrl: r.f_matrix_ctrl != 0,
                        ext_config: r.ext_config,
                        filter_config: r.filter_config,
                    };
                    load_data_3d_v2_pro(&d, &s, q)
                }
            }
        })
    })
}

/// `SetFmatrix(l1H, l1W, padList, fmatrixMode)`; `mode` 0 left, 1 right.
///
/// # Safety
/// `pad_list` points at 4 bytes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_set_fmatrix(
    l1_h: u16,
    l1_w: u16,
    pad_list: *const u8,
    mode: u8,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let pads = [0, 1, 2, 3].map(|i| *pad_list.add(i));
        let mode = if mode == 0 {
            FmatrixMode::FMATRIX_LEFT
        } else {
            FmatrixMode::FMATRIX_RIGHT
        };
        set_fmatrix(l1_h, l1_w, pads, mode)
    })
}

/// `SetLoadDataBoundary(boundaryValue)`.
#[no_mangle]
pub extern "C" fn ascendc_set_load_data_boundary(boundary: u32, loc: AscLoc) -> i32 {
    call(loc, || set_load_data_boundary(boundary))
}

/// `SetLoadDataRepeat({repeatStride, repeatTime, repeatMode})`.
#[no_mangle]
pub extern "C" fn ascendc_set_load_data_repeat(
    repeat_stride: u16,
    repeat_time: u8,
    repeat_mode: u8,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        set_load_data_repeat(LoadDataRepeatParam {
            repeat_stride,
            repeat_time,
            repeat_mode,
        })
    })
}

/// `SetLoadDataPaddingValue<T>(padValue)`; `value` points at one element of type `elem`.
///
/// # Safety
/// `value` is valid for reads.
#[no_mangle]
pub unsafe extern "C" fn ascendc_set_load_data_padding_value(
    elem: u8,
    value: *const u8,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        with_dtype!(dtype(elem)?, T => {
            set_load_data_padding_value((value as *const T).read_unaligned())
        })
    })
}
