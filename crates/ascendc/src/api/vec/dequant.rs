//! CastDequant and the quantisation forms of `SetDeqScale` that feed it.
//!
//! DEQSCALE is one 64-bit register. `SetDeqScale(half)` (in `control.rs`) sets the int32 → half
//! factor; [`set_deq_scale_quant`] sets one (scale, offset, signMode) word for int16 → b8;
//! [`set_deq_scale_vector`] writes sixteen such words to a UB tensor and points DEQSCALE at it.
//! A word holds the float scale in bits 0–31 (the hardware uses it as a (1, 8, 10) float: the low
//! 13 fraction bits are dropped), a 9-bit signed offset in bits 37–45 and signMode in bit 46.
//!
//! int16 → b8: lane `k` of a repeat reads element `k % 16` of source block `k / 16` and writes
//! byte `k % 16` of one half of destination block `k / 16`: the upper 16 bytes with `half_block`
//! true, the lower 16 with false; the other half is not written. The result is
//! `saturate(rint(src × scale) + offset)` to int8 (signMode 1) or uint8 (signMode 0); with the
//! vector table, element `k % 16` of its block uses word `k % 16`.

use super::binary::lanes_for;
use super::fused::{check_pair, half_deq_scale};
use super::support;
use super::{run, Count, Issue, Mask, Opnd, UnaryRepeatParams};
use crate::api::context::with_core;
use crate::api::tensor::LocalTensor;
use crate::core::dma::{self, Endpoint};
use crate::core::spr::DeqScaleReg;
use crate::core::trace::{Access, Pipe, Space};
use crate::core::vector::{for_lanes, map1};
use crate::core::Core;
use crate::dtype::{f16, DType};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::numeric::{round_integral, CastElem, Exact, RoundMode};
use crate::position::Hardware;

/// The sixteen quantisation parameter sets of the vector form of `SetDeqScale` (`VdeqInfo`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VdeqInfo {
    /// `vdeqScale[16]`: the factors.
    pub vdeq_scale: [f32; 16],
    /// `vdeqOffset[16]`: the offsets (only the low 9 bits, signed, are used).
    pub vdeq_offset: [i16; 16],
    /// `vdeqSignMode[16]`: true = signed (int8) result, false = unsigned (uint8).
    pub vdeq_sign_mode: [bool; 16],
}

impl VdeqInfo {
    /// `VdeqInfo(vdeqScale, vdeqOffset, vdeqSignMode)`.
    pub const fn new(scale: [f32; 16], offset: [i16; 16], sign_mode: [bool; 16]) -> VdeqInfo {
        VdeqInfo {
            vdeq_scale: scale,
            vdeq_offset: offset,
            vdeq_sign_mode: sign_mode,
        }
    }
}

/// One decoded quantisation word.
#[derive(Debug, Clone, Copy)]
struct Quant {
    scale: f64,
    offset: i64,
    signed: bool,
}

/// Packs a (scale, offset, signMode) word.
fn pack(scale: f32, offset: i16, sign_mode: bool) -> u64 {
    scale.to_bits() as u64 | ((offset as u64 & 0x1FF) << 37) | ((sign_mode as u64) << 46)
}

fn unpack(w: u64) -> Quant {
    let off9 = ((w >> 37) & 0x1FF) as i64;
    Quant {
        scale: f32::from_bits(w as u32 & 0xFFFF_E000) as f64,
        offset: if off9 >= 256 { off9 - 512 } else { off9 },
        signed: (w >> 46) & 1 == 1,
    }
}

fn warn_offset(core: &mut Core, api: &'static str, loc: SourceLoc, offset: i16) {
    if !(-256..=255).contains(&offset) {
        let used = unpack(pack(0.0, offset, false)).offset;
        core.warn(
            Category::Range,
            api,
            format!("parameter `offset` = {offset}: only its low 9 bits are used (the offset is {used}); range [-256, 255]"),
            loc,
        );
    }
}

fn check_quant_product(core: &Core, api: &'static str) -> Result<()> {
    let pairs = support::CAST_DEQUANT.pairs(core.profile.product);
    if pairs.iter().any(|p| p.0 == DType::Int16) {
        Ok(())
    } else {
        Err(SimError::new(
            Category::Unsupported,
            api,
            format!(
                "the quantisation forms of SetDeqScale serve CastDequant int16 → int8/uint8, which {} lacks",
                core.profile
            ),
        ))
    }
}

/// `SetDeqScale(float scale, int16_t offset, bool signMode)`: the per-tensor quantisation of
/// CastDequant int16 → int8 (`sign_mode` true) / uint8 (false); `offset` uses its low 9 bits.
#[track_caller]
pub fn set_deq_scale_quant(scale: f32, offset: i16, sign_mode: bool) -> Result<()> {
    const API: &str = "SetDeqScale";
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        check_quant_product(core, API)?;
        warn_offset(core, API, loc, offset);
        core.spr.deq = DeqScaleReg::Quant(pack(scale, offset, sign_mode));
        core.issue(Pipe::S, API, loc, &[]);
        Ok(())
    })
}

/// `SetDeqScale(vdeq, vdeqInfo)`: writes the sixteen words of `info` to `vdeq` (128 bytes, a
/// 32-byte aligned UB tensor) and points DEQSCALE at them, for CastDequant with `is_vec_deq`.
#[track_caller]
pub fn set_deq_scale_vector(vdeq: &LocalTensor<u64>, info: &VdeqInfo) -> Result<()> {
    const API: &str = "SetDeqScale";
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        check_quant_product(core, API)?;
        vdeq.check_live(core, API, "vdeq")?;
        if vdeq.hw != Hardware::UB {
            return Err(SimError::new(
                Category::Position,
                API,
                format!(
                    "parameter `vdeq` is in {} ({}); it must be a VECIN/VECCALC/VECOUT tensor",
                    vdeq.pos, vdeq.hw
                ),
            ));
        }
        if !vdeq.addr.is_multiple_of(32) {
            return Err(SimError::align(
                API,
                "parameter `vdeq`",
                vdeq.addr as u64,
                32,
                "UB",
            ));
        }
        if vdeq.len < 128 {
            return Err(SimError::new(
                Category::Size,
                API,
                format!(
                    "parameter `vdeq` holds {} bytes; the sixteen quantisation words need 128",
                    vdeq.len
                ),
            ));
        }
        let mut bytes = [0u8; 128];
        for i in 0..16 {
            warn_offset(core, API, loc, info.vdeq_offset[i]);
            let w = pack(
                info.vdeq_scale[i],
                info.vdeq_offset[i],
                info.vdeq_sign_mode[i],
            );
            bytes[i * 8..i * 8 + 8].copy_from_slice(&w.to_le_bytes());
        }
        dma::write(
            core,
            API,
            Endpoint::Local(Hardware::UB, vdeq.addr as u64),
            &bytes,
        )?;
        core.issue(
            Pipe::S,
            API,
            loc,
            &[Access::contiguous(
                true,
                Space::Local(Hardware::UB),
                vdeq.addr as u64,
                128,
            )],
        );
        core.spr.deq = DeqScaleReg::Vector(vdeq.addr);
        Ok(())
    })
}

/// The destination types of CastDequant: int8 / uint8 (from int16) and half (from int32).
pub trait DequantDst: CastElem {}
impl DequantDst for i8 {}
impl DequantDst for u8 {}
impl DequantDst for f16 {}

/// The source types of CastDequant: int16 and int32.
pub trait DequantSrc: CastElem {}
impl DequantSrc for i16 {}
impl DequantSrc for i32 {}

/// The sixteen parameter sets an int16 → b8 CastDequant uses, checked against the destination.
fn quant_params(
    core: &Core,
    api: &'static str,
    is_vec_deq: bool,
    dst: DType,
) -> Result<[Quant; 16]> {
    let words: [u64; 16] = match (core.spr.deq, is_vec_deq) {
        (DeqScaleReg::Quant(w), false) => [w; 16],
        (DeqScaleReg::Vector(a), true) => {
            let ub = core.mem.bytes(Hardware::UB);
            let a = a as usize;
            if a + 128 > ub.len() {
                return Err(SimError::new(
                    Category::Memory,
                    api,
                    format!(
                        "the vdeq table at UB byte {a} runs past the end of the {}-byte UB",
                        ub.len()
                    ),
                ));
            }
            std::array::from_fn(|i| {
                u64::from_le_bytes(ub[a + i * 8..a + i * 8 + 8].try_into().expect("8 bytes"))
            })
        }
        (reg, _) => {
            let need = if is_vec_deq {
                "isVecDeq = true needs SetDeqScale(vdeq, vdeqInfo)"
            } else {
                "isVecDeq = false needs SetDeqScale(float scale, int16_t offset, bool signMode)"
            };
            let has = match reg {
                DeqScaleReg::Reset => "DEQSCALE was never set".to_string(),
                DeqScaleReg::Half => "the last SetDeqScale was the half form".to_string(),
                DeqScaleReg::Quant(_) => {
                    "the last SetDeqScale was the (float, offset, signMode) form".to_string()
                }
                DeqScaleReg::Vector(_) => {
                    "the last SetDeqScale was the vector-table form".to_string()
                }
            };
            return Err(SimError::new(
                Category::Unsupported,
                api,
                format!("int16 → {dst} with {need}; {has}"),
            ));
        }
    };
    let q = words.map(unpack);
    let want_signed = dst == DType::Int8;
    if let Some(i) = q.iter().position(|p| p.signed != want_signed) {
        return Err(SimError::new(
            Category::Type,
            api,
            format!(
                "destination type {dst} needs signMode = {want_signed}, but quantisation word {i} has signMode = {}",
                q[i].signed
            ),
        ));
    }
    Ok(q)
}

#[allow(clippy::too_many_arguments)]
fn cast_dequant_run<D: DequantDst, S: DequantSrc>(
    loc: SourceLoc,
    dst: &LocalTensor<D>,
    src: &LocalTensor<S>,
    is_vec_deq: bool,
    half_block: bool,
    issue: Issue,
    p: UnaryRepeatParams,
) -> Result<()> {
    const API: &str = "CastDequant";
    with_core(API, loc, |core| {
        check_pair(core, API, S::DTYPE, D::DTYPE, &support::CAST_DEQUANT)?;
        let sat = core.vector.fp16_saturation;
        let d_op = Opnd::of(
            "dst",
            dst,
            p.dst_blk_stride as u32,
            p.dst_rep_stride as u32,
            true,
        );
        let s_op = Opnd::of(
            "src",
            src,
            p.src_blk_stride as u32,
            p.src_rep_stride as u32,
            false,
        );
        if S::DTYPE == DType::Int32 {
            let scale = half_deq_scale(core, API)?;
            return run(
                core,
                API,
                loc,
                lanes_for(4),
                issue,
                &[d_op, s_op],
                |ub, shape, o| {
                    map1(ub, shape, o[0], o[1], |x: S| {
                        let v = match x.exact() {
                            Exact::Int(i) => Exact::Float(i as f64 * scale),
                            e => e,
                        };
                        D::convert(v, RoundMode::CAST_RINT, sat).0
                    })
                },
            );
        }
        let q = quant_params(core, API, is_vec_deq, D::DTYPE)?;
        // The destination is addressed like the int16 source: one 32-byte block per 16 lanes.
        let d_op = Opnd { size: 2, ..d_op };
        let half = if half_block { 16 } else { 0 };
        run(
            core,
            API,
            loc,
            lanes_for(2),
            issue,
            &[d_op, s_op],
            |ub, shape, o| {
                for r in 0..shape.repeats {
                    for_lanes(shape.bits(r), shape.lanes, |k| {
                        let sa = o[1].lane_addr(2, r, k) as usize;
                        let x = i16::from_le_bytes([ub[sa], ub[sa + 1]]) as f64;
                        let j = (k % 16) as usize;
                        let v = round_integral(x * q[j].scale, RoundMode::CAST_RINT)
                            + q[j].offset as f64;
                        let b = if q[j].signed {
                            (v.clamp(-128.0, 127.0) as i8) as u8
                        } else {
                            v.clamp(0.0, 255.0) as u8
                        };
                        let da = o[0].lane_addr(2, r, k) as usize - 2 * j + half + j;
                        ub[da] = b;
                    });
                }
            },
        )
    })
}

/// `CastDequant<D, S, isVecDeq, halfBlock>(dst, src, count)`: level 2, the first `count`
/// elements: int32 → half `dst = half(src × scale)` with the `SetDeqScale(half)` factor, or
/// int16 → int8/uint8 through the quantisation words (`is_vec_deq`: the vector table of
/// [`set_deq_scale_vector`], else the word of [`set_deq_scale_quant`]); `half_block` picks the
/// half of each 32-byte destination block the 16 bytes of a source block go to (see the module
/// documentation). `count` may be [`KEEP_MASK`](super::KEEP_MASK).
#[track_caller]
pub fn cast_dequant<D: DequantDst, S: DequantSrc>(
    dst: &LocalTensor<D>,
    src: &LocalTensor<S>,
    is_vec_deq: bool,
    half_block: bool,
    count: impl Into<Count>,
) -> Result<()> {
    cast_dequant_run(
        SourceLoc::caller(),
        dst,
        src,
        is_vec_deq,
        half_block,
        count.into().into(),
        UnaryRepeatParams::default(),
    )
}

/// `CastDequant<D, S, isSetMask, isVecDeq, halfBlock>(dst, src, mask, repeatTime, params)`:
/// level 0 of [`cast_dequant`]; `mask` counts lanes of the wider type (128 for int16, 64 for
/// int32); strides in 32-byte blocks (for int16 → b8 the destination strides count whole
/// 32-byte blocks of which one half is written).
#[allow(clippy::too_many_arguments)]
#[track_caller]
pub fn cast_dequant_l0<D: DequantDst, S: DequantSrc>(
    dst: &LocalTensor<D>,
    src: &LocalTensor<S>,
    is_vec_deq: bool,
    half_block: bool,
    mask: impl Into<Mask>,
    repeat_times: u8,
    params: UnaryRepeatParams,
) -> Result<()> {
    cast_dequant_run(
        SourceLoc::caller(),
        dst,
        src,
        is_vec_deq,
        half_block,
        Issue::level0(mask, repeat_times),
        params,
    )
}
