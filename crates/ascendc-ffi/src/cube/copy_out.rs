//! The Fixpipe registers and `DataCopy` from L0C for C++ kernels.

use super::{no_combination, quant};
use crate::abi::{call, dtype, AscGlobal, AscLoc, AscLocal};
use crate::gm::global;
use crate::with_dtype;
use ascendc::api::cube::copy_out::DataCopyCO12DstParams;
use ascendc::api::cube::fixpipe_regs::{
    set_fix_pipe_addr, set_fix_pipe_clip_relu, set_fix_pipe_config, set_fix_pipe_config_pair,
    set_fixpipe_nz2nd_flag, set_fixpipe_pre_quant_flag,
};
use ascendc::error::{Category, SimError};
use ascendc::{bf16, data_copy, f16, DType};

/// `SetFixpipePreQuantFlag(config)`.
#[no_mangle]
pub extern "C" fn ascendc_set_fixpipe_pre_quant_flag(config: u64, loc: AscLoc) -> i32 {
    call(loc, || set_fixpipe_pre_quant_flag(config))
}

/// `SetFixpipeNz2ndFlag(ndNum, srcNdStride, dstNdStride)`.
#[no_mangle]
pub extern "C" fn ascendc_set_fixpipe_nz2nd_flag(
    nd_num: u16,
    src_nd_stride: u16,
    dst_nd_stride: u16,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        set_fixpipe_nz2nd_flag(nd_num, src_nd_stride, dst_nd_stride)
    })
}

/// `SetFixPipeConfig`: the one-tensor form `<T, setRelu>(preData, isUnitFlag)` when `relu` is
/// null, else `(reluPre, quantPre, isUnitFlag)`.
///
/// # Safety
/// `quant` is valid for reads; `relu` is null or valid.
#[no_mangle]
pub unsafe extern "C" fn ascendc_set_fix_pipe_config(
    elem: u8,
    relu: *const AscLocal,
    quant: *const AscLocal,
    set_relu: u8,
    is_unit_flag: u8,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        with_dtype!(dtype(elem)?, T => {
            let q = (*quant).tensor::<T>()?;
            match relu.as_ref() {
                None => set_fix_pipe_config(&q, set_relu != 0, is_unit_flag != 0),
                Some(r) => set_fix_pipe_config_pair(&r.tensor::<T>()?, &q, is_unit_flag != 0),
            }
        })
    })
}

/// `SetFixPipeClipRelu(config)`.
#[no_mangle]
pub extern "C" fn ascendc_set_fix_pipe_clip_relu(config: u64, loc: AscLoc) -> i32 {
    call(loc, || set_fix_pipe_clip_relu(config))
}

/// `SetFixPipeAddr(eleWiseData, c0ChStride)`; `elem` must be half.
///
/// # Safety
/// `ele_wise` is valid for reads.
#[no_mangle]
pub unsafe extern "C" fn ascendc_set_fix_pipe_addr(
    elem: u8,
    ele_wise: *const AscLocal,
    c0_ch_stride: u16,
    loc: AscLoc,
) -> i32 {
    call(loc, || match dtype(elem)? {
        DType::Half => set_fix_pipe_addr(&(*ele_wise).tensor::<f16>()?, c0_ch_stride),
        t => Err(SimError::new(
            Category::Type,
            "SetFixPipeAddr",
            format!("the element-wise operand is half, not {t}"),
        )),
    })
}

/// `DataCopyCO12DstParams` as C++ lays it out.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct AscCo12Dst {
    /// Reserved.
    pub sid: u8,
    /// Columns.
    pub n_size: u16,
    /// Rows.
    pub m_size: u16,
    /// Destination stride (NZ: 32-byte blocks between groups; ND: row length).
    pub dst_stride: u32,
    /// Source group distance, in 64-byte rows.
    pub src_stride: u16,
    /// Unit flag.
    pub unit_flag: u8,
    /// ClipReLU (0/1).
    pub clip_relu_pre: u8,
    /// Element-wise step (0, 1 add, 2 subtract).
    pub elt_wise_op: u8,
    /// `QuantMode_t` index.
    pub quant_pre: u8,
    /// ReLU (0/1).
    pub relu_pre: u8,
    /// Channel split (0/1).
    pub channel_split: u8,
    /// NZ → ND (0/1).
    pub nz2nd_en: u8,
}

/// `DataCopy(dst, src, DataCopyCO12DstParams)` from L0C: `to_gm` 1 writes `dst_g`, 0 writes
/// `dst_l` (L1).
///
/// # Safety
/// The pointers the call uses are valid for reads.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_data_copy_co1(
    dst_elem: u8,
    src_elem: u8,
    to_gm: u8,
    dst_l: *const AscLocal,
    dst_g: *const AscGlobal,
    src: *const AscLocal,
    p: *const AscCo12Dst,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let r = *p;
        let mut q = DataCopyCO12DstParams::new(
            r.n_size,
            r.m_size,
            r.dst_stride,
            r.src_stride,
            quant(r.quant_pre)?,
            r.relu_pre,
            r.channel_split != 0,
            r.nz2nd_en != 0,
        );
        q.sid = r.sid;
        q.unit_flag = r.unit_flag;
        q.clip_relu_pre = r.clip_relu_pre;
        q.elt_wise_op = r.elt_wise_op;
        macro_rules! go {
            ($d:ty, $s:ty) => {{
                let s = (*src).tensor::<$s>()?;
                if to_gm != 0 {
                    data_copy(&global::<$d>("DataCopy", &*dst_g)?, &s, q)
                } else {
                    data_copy(&(*dst_l).tensor::<$d>()?, &s, q)
                }
            }};
        }
        use DType::*;
        match (dtype(src_elem)?, dtype(dst_elem)?) {
            (Float, Float) => go!(f32, f32),
            (Float, Half) => go!(f16, f32),
            (Float, Bfloat16) => go!(bf16, f32),
            (Float, Int8) => go!(i8, f32),
            (Float, Uint8) => go!(u8, f32),
            (Int32, Int32) => go!(i32, i32),
            (Int32, Half) => go!(f16, i32),
            (Int32, Int8) => go!(i8, i32),
            (Int32, Uint8) => go!(u8, i32),
            (a, b) => Err(no_combination(
                "DataCopy",
                format!(
                    "{a} → {b} is not an L0C conversion: the source is float or int32_t in L0C"
                ),
            )),
        }
    })
}
