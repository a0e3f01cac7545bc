//! The Fixpipe register setters (Atlas A2/A3/200I-500 A2): the scalar quantisation word
//! (`SetFixpipePreQuantFlag`), the NZ → ND parameters (`SetFixpipeNz2ndFlag`), the Fixpipe-buffer
//! tensor of per-column words and the unit-flag reset (`SetFixPipeConfig`), and on the Atlas
//! 200I/500 A2 the ClipReLU maximum (`SetFixPipeClipRelu`) and the element-wise operand
//! (`SetFixPipeAddr`). The `DataCopy` L0C forms read them; `Fixpipe` writes the first two itself.
//! Each is one scalar-pipe instruction.

use super::support::{cube_facts, FixpipeForm};
use super::{operand, require};
use crate::api::context::with_core;
use crate::api::tensor::LocalTensor;
use crate::core::trace::Pipe;
use crate::core::Core;
use crate::dtype::{f16, DType, Element};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::position::Hardware;

/// Fails unless the product has Fixpipe (and, with `m300_only`, is the Atlas 200I/500 A2).
fn fixpipe_product(core: &Core, api: &'static str, m300_only: bool) -> Result<()> {
    let form = cube_facts(core.profile).fixpipe;
    let ok = if m300_only {
        form == Some(FixpipeForm::M300)
    } else {
        form.is_some()
    };
    require(core, api, ok, api)
}

/// `SetFixpipePreQuantFlag(config)`: the scalar quantisation word of DEQF16, QF322B8_PRE and
/// REQ8.
#[track_caller]
pub fn set_fixpipe_pre_quant_flag(config: u64) -> Result<()> {
    const API: &str = "SetFixpipePreQuantFlag";
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        fixpipe_product(core, API, false)?;
        core.cube.fix.quant_pre = Some(config);
        core.issue(Pipe::S, API, loc, &[]);
        Ok(())
    })
}

/// `SetFixpipeNz2ndFlag(ndNum, srcNdStride, dstNdStride)`: `ndNum` ∈ [1, 65535]; with more than
/// one matrix `srcNdStride` ∈ [1, 512] (64-byte rows, as `Fixpipe` counts it) and `dstNdStride` ∈
/// [1, 65535] elements (with one they are not used and may be 0).
#[track_caller]
pub fn set_fixpipe_nz2nd_flag(nd_num: u16, src_nd_stride: u16, dst_nd_stride: u16) -> Result<()> {
    const API: &str = "SetFixpipeNz2ndFlag";
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        fixpipe_product(core, API, false)?;
        if nd_num == 0 {
            return Err(SimError::range(API, "ndNum", nd_num, "[1, 65535]"));
        }
        let several = nd_num > 1;
        if src_nd_stride > 512 || (several && src_nd_stride == 0) {
            return Err(SimError::range(
                API,
                "srcNdStride",
                src_nd_stride,
                "[1, 512] with ndNum > 1 ([0, 512] with ndNum 1)",
            ));
        }
        if several && dst_nd_stride == 0 {
            return Err(SimError::range(
                API,
                "dstNdStride",
                dst_nd_stride,
                "[1, 65535] with ndNum > 1",
            ));
        }
        core.cube.fix.nd_para = Some((nd_num, src_nd_stride, dst_nd_stride));
        core.issue(Pipe::S, API, loc, &[]);
        Ok(())
    })
}

const CONFIG: &str = "SetFixPipeConfig";

/// Points FPC QuantPreAddr at `quant` (a `uint64_t` tensor in the Fixpipe buffer, 128-byte
/// aligned) or, for a CO1 tensor (the unit-flag reset form), at nothing usable.
fn quant_register<T: Element>(
    core: &mut Core,
    loc: SourceLoc,
    quant: &LocalTensor<T>,
) -> Result<()> {
    match quant.hw {
        Hardware::FIXBUF => {
            if T::DTYPE != DType::Uint64 {
                return Err(SimError::new(
                    Category::Type,
                    CONFIG,
                    format!(
                        "the quantisation tensor holds uint64_t words, not {}",
                        T::DTYPE
                    ),
                ));
            }
            operand(
                core,
                loc,
                CONFIG,
                "quantPre",
                quant,
                Hardware::FIXBUF,
                "C2PIPE2GM",
                128,
                0,
            )?;
            core.cube.fix.quant_tensor = Some(quant.addr as u64);
        }
        Hardware::L0C => core.cube.fix.quant_tensor = None,
        hw => {
            return Err(SimError::new(
                Category::Position,
                CONFIG,
                format!(
                "the tensor is {} in {hw}; it must be C2PIPE2GM in the Fixpipe buffer (or CO1 to \
                     reset the unit flags only)",
                quant.pos
            ),
            ))
        }
    }
    Ok(())
}

/// `SetFixPipeConfig<T, setRelu>(preData, isUnitFlag)`: `preData` is the quantisation tensor
/// (C2PIPE2GM, `uint64_t`); a CO1 tensor only resets the unit flags. `isUnitFlag` clears every
/// L0C unit flag. `setRelu = true` (a ReLU tensor) is not supported by the products.
#[track_caller]
pub fn set_fix_pipe_config<T: Element>(
    pre_data: &LocalTensor<T>,
    set_relu: bool,
    is_unit_flag: bool,
) -> Result<()> {
    let loc = SourceLoc::caller();
    with_core(CONFIG, loc, |core| {
        fixpipe_product(core, CONFIG, false)?;
        if set_relu {
            return Err(SimError::range(
                CONFIG,
                "setRelu",
                true,
                "false (only the quantisation tensor can be set)",
            ));
        }
        quant_register(core, loc, pre_data)?;
        if is_unit_flag {
            core.cube.clear_flags();
        }
        core.issue(Pipe::S, CONFIG, loc, &[]);
        Ok(())
    })
}

/// `SetFixPipeConfig(reluPre, quantPre, isUnitFlag)`: `reluPre` is reserved (an empty tensor),
/// `quantPre` the quantisation tensor (C2PIPE2GM, `uint64_t`).
#[track_caller]
pub fn set_fix_pipe_config_pair<T: Element>(
    _relu_pre: &LocalTensor<T>,
    quant_pre: &LocalTensor<T>,
    is_unit_flag: bool,
) -> Result<()> {
    let loc = SourceLoc::caller();
    with_core(CONFIG, loc, |core| {
        fixpipe_product(core, CONFIG, false)?;
        if quant_pre.hw != Hardware::FIXBUF {
            return Err(SimError::new(
                Category::Position,
                CONFIG,
                format!(
                    "quantPre is {} in {}; it must be C2PIPE2GM in the Fixpipe buffer",
                    quant_pre.pos, quant_pre.hw
                ),
            ));
        }
        quant_register(core, loc, quant_pre)?;
        if is_unit_flag {
            core.cube.clear_flags();
        }
        core.issue(Pipe::S, CONFIG, loc, &[]);
        Ok(())
    })
}

/// `SetFixPipeClipRelu(config)` (Atlas 200I/500 A2): bits 0–15 are the ClipReLU maximum as a
/// half, positive and finite; results become `min(max, x)` after quantisation and ReLU.
#[track_caller]
pub fn set_fix_pipe_clip_relu(config: u64) -> Result<()> {
    const API: &str = "SetFixPipeClipRelu";
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        fixpipe_product(core, API, true)?;
        let max = f16::from_bits(config as u16);
        if !(max.is_finite() && max > f16::ZERO) {
            return Err(SimError::range(
                API,
                "config",
                format!("{config:#x} (half {max})"),
                "bits 0-15 a positive finite half",
            ));
        }
        core.cube.fix.clip_relu = Some(config as u16);
        core.issue(Pipe::S, API, loc, &[]);
        Ok(())
    })
}

/// `SetFixPipeAddr(eleWiseData, c0ChStride)` (Atlas 200I/500 A2): the half operand of the
/// element-wise step in L1 (A1/B1/C1, 32-byte aligned), in 16-column groups `c0ChStride` 32-byte
/// blocks apart.
#[track_caller]
pub fn set_fix_pipe_addr(ele_wise_data: &LocalTensor<f16>, c0_ch_stride: u16) -> Result<()> {
    const API: &str = "SetFixPipeAddr";
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        fixpipe_product(core, API, true)?;
        operand(
            core,
            loc,
            API,
            "eleWiseData",
            ele_wise_data,
            Hardware::L1,
            "A1/B1/C1",
            32,
            0,
        )?;
        core.cube.fix.eltwise = Some((ele_wise_data.addr as u64, c0_ch_stride));
        core.issue(Pipe::S, API, loc, &[]);
        Ok(())
    })
}
