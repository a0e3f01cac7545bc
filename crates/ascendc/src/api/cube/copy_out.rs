//! `DataCopy` of L0C results with [`DataCopyCO12DstParams`] (Atlas A2/A3/200I-500 A2): the
//! Fixpipe move (PIPE_FIX) with its settings split between the parameters and the Fixpipe
//! registers (`SetFixpipePreQuantFlag`, `SetFixPipeConfig`, `SetFixpipeNz2ndFlag`, and on the
//! Atlas 200I/500 A2 `SetFixPipeClipRelu`, `SetFixPipeAddr`). L0C → GM writes NZ or, with
//! `nz2ndEn`, ND; L0C → L1 writes NZ and always converts (no `NoQuant`).

use super::fixpipe::{
    execute, Eltwise, FixpipeParamsV220, FixpipeTarget, Move, QuantMode, VectorWords,
};
use super::require;
use super::support::{cube_facts, FixpipeForm};
use crate::api::context::with_core;
use crate::api::data_copy::DataCopyArgs;
use crate::api::tensor::{GlobalTensor, LocalTensor};
use crate::core::Core;
use crate::dtype::{DType, Element};
use crate::error::{Category, Result, SimError, SourceLoc};

const API: &str = "DataCopy";

/// `DataCopyCO12DstParams`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DataCopyCO12DstParams {
    /// Reserved, 0.
    pub sid: u8,
    /// Columns (N), [0, 4095] (0: no-op); in NZ a multiple of 16 (8 with channel split, 32 for
    /// 8-bit results).
    pub n_size: u16,
    /// Rows (M), [0, 65535] in NZ, [0, 8192] with NZ → ND (0: no-op).
    pub m_size: u16,
    /// NZ: distance between destination column groups in 32-byte blocks; ND: elements per
    /// destination row. Not 0.
    pub dst_stride: u32,
    /// Distance between the source's 16-column groups, in 64-byte rows.
    pub src_stride: u16,
    /// 0, 2 or 3 (Atlas A2/A3): read units a Mmad with unitFlag 3 handed over.
    pub unit_flag: u8,
    /// 1: ClipReLU with the `SetFixPipeClipRelu` maximum (Atlas 200I/500 A2).
    pub clip_relu_pre: u8,
    /// 1: add, 2: subtract the `SetFixPipeAddr` operand (Atlas 200I/500 A2).
    pub elt_wise_op: u8,
    /// Conversion; the scalar modes use `SetFixpipePreQuantFlag`, the vector modes the tensor of
    /// `SetFixPipeConfig`.
    pub quant_pre: QuantMode,
    /// 1: ReLU.
    pub relu_pre: u8,
    /// float → float NZ into GM: 16 × 8 groups.
    pub channel_split: bool,
    /// NZ → ND into GM with the `SetFixpipeNz2ndFlag` parameters.
    pub nz2nd_en: bool,
}

impl DataCopyCO12DstParams {
    /// `DataCopyCO12DstParams(nSize, mSize, dstStride, srcStride, quantPre, reluPre,
    /// channelSplit, nz2ndEn)`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        n_size: u16,
        m_size: u16,
        dst_stride: u32,
        src_stride: u16,
        quant_pre: QuantMode,
        relu_pre: u8,
        channel_split: bool,
        nz2nd_en: bool,
    ) -> Self {
        DataCopyCO12DstParams {
            n_size,
            m_size,
            dst_stride,
            src_stride,
            quant_pre,
            relu_pre,
            channel_split,
            nz2nd_en,
            ..Default::default()
        }
    }
}

/// Builds the move of `p` from the registers; `to_l1` for the L0C → L1 form.
fn moving<'a>(core: &Core, p: &DataCopyCO12DstParams, to_l1: bool) -> Result<Move<'a>> {
    let form = cube_facts(core.profile).fixpipe;
    require(
        core,
        API,
        form.is_some(),
        "DataCopy from L0C (CO1) to GM or L1",
    )?;
    for (name, v, max) in [
        ("reluPre", p.relu_pre, 1),
        ("clipReluPre", p.clip_relu_pre, 1),
        ("eltWiseOp", p.elt_wise_op, 2),
    ] {
        if v > max {
            return Err(SimError::range(API, name, v, format!("[0, {max}]")));
        }
    }
    let m300 = form == Some(FixpipeForm::M300);
    if p.clip_relu_pre != 0 || p.elt_wise_op != 0 {
        require(core, API, m300, "clipReluPre / eltWiseOp")?;
    }
    let regs = core.cube.fix;
    let clip = if p.clip_relu_pre != 0 {
        if p.quant_pre == QuantMode::NoQuant || p.quant_pre == QuantMode::F322BF16 {
            return Err(SimError::new(
                Category::Range,
                API,
                format!(
                    "clipReluPre = 1 follows a quantisation (F322F16, (V)DEQF16, (V)QF322B8_PRE, (V)REQ8), \
                     not quantPre {:?}",
                    p.quant_pre
                ),
            ));
        }
        Some(regs.clip_relu.ok_or_else(|| {
            SimError::new(
                Category::Sync,
                API,
                "clipReluPre = 1 uses the maximum of SetFixPipeClipRelu: call it first",
            )
        })?)
    } else {
        None
    };
    let eltwise = if p.elt_wise_op != 0 {
        let (addr, stride) = regs.eltwise.ok_or_else(|| {
            SimError::new(
                Category::Sync,
                API,
                "eltWiseOp uses the operand of SetFixPipeAddr: call it first",
            )
        })?;
        Some(Eltwise {
            sub: p.elt_wise_op == 2,
            addr,
            stride,
        })
    } else {
        None
    };
    // Into L1 the result is NZ and channel split does not apply.
    let nd = p.nz2nd_en && !to_l1;
    let (nd_num, src_nd_stride, dst_nd_stride) = if nd {
        regs.nd_para.ok_or_else(|| {
            SimError::new(
                Category::Sync,
                API,
                "nz2ndEn = true uses the parameters of SetFixpipeNz2ndFlag: call it first",
            )
        })?
    } else {
        (1, 0, 0)
    };
    let mut f = FixpipeParamsV220::new(
        p.n_size,
        p.m_size,
        p.src_stride,
        p.dst_stride,
        p.relu_pre == 1,
    );
    f.quant_pre = p.quant_pre;
    f.nd_num = nd_num;
    f.src_nd_stride = src_nd_stride;
    f.dst_nd_stride = dst_nd_stride as u32;
    f.unit_flag = p.unit_flag;
    f.is_channel_split = p.channel_split && !to_l1;
    Ok(Move {
        api: API,
        p: f,
        nd,
        scalar: regs.quant_pre,
        vector: VectorWords::FixBuf(regs.quant_tensor),
        clip,
        eltwise,
    })
}

/// `DataCopy(dst, src, DataCopyCO12DstParams)`: L0C (CO1) → GM.
impl<D: Element, S: Element> DataCopyArgs<GlobalTensor<D>, LocalTensor<S>>
    for DataCopyCO12DstParams
{
    fn copy(self, dst: &GlobalTensor<D>, src: &LocalTensor<S>, loc: SourceLoc) -> Result<()> {
        with_core(API, loc, |core| {
            let target = FixpipeTarget::Gm(dst.gm(API)?);
            let mv = moving(core, &self, false)?;
            execute::<D, S>(core, loc, target, src, &mv)
        })
    }
}

/// `DataCopy(dst, src, DataCopyCO12DstParams)`: L0C (CO1) → L1 (A1/B1/C1), NZ, converted: float
/// → int8_t/uint8_t/half/bfloat16_t, int32_t → int8_t/uint8_t/half.
impl<D: Element, S: Element> DataCopyArgs<LocalTensor<D>, LocalTensor<S>>
    for DataCopyCO12DstParams
{
    fn copy(self, dst: &LocalTensor<D>, src: &LocalTensor<S>, loc: SourceLoc) -> Result<()> {
        with_core(API, loc, |core| {
            if self.quant_pre == QuantMode::NoQuant
                || D::DTYPE == DType::Float
                || D::DTYPE == DType::Int32
            {
                return Err(SimError::new(
                    Category::Type,
                    API,
                    format!(
                        "L0C → L1 converts: float → int8_t/uint8_t/half/bfloat16_t, int32_t → \
                         int8_t/uint8_t/half (not {} → {} with quantPre {:?})",
                        S::DTYPE,
                        D::DTYPE,
                        self.quant_pre
                    ),
                ));
            }
            let target = FixpipeTarget::Local(dst.pos, dst.hw, dst.addr, dst.len);
            let mv = moving(core, &self, true)?;
            execute::<D, S>(core, loc, target, src, &mv)
        })
    }
}
