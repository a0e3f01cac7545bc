//! `Fixpipe`: L0C (CO1) → GM or L1 on PIPE_FIX with NZ → ND (or NZ → NZ), on-the-fly
//! quantisation and ReLU. `FixpipeParamsV220` on Atlas A2/A3, `FixpipeParamsM300` on Atlas
//! 200I/500 A2 (L0C → GM only); Atlas training and 310P have no Fixpipe (their L0C results
//! leave through `DataCopy` CO1 → CO2 with `DataCopyEnhancedParams`).
//!
//! Quantisation words (`deqScalar`, or one `uint64_t` per column in the L1 workspace of the
//! vector modes): bits 0–31 a float multiplier of which the hardware keeps sign, exponent and
//! the top 10 mantissa bits (bits 13–31); bits 32–35 `N − 1`; bit 36 MCB (shift the int32 right
//! by `N` and saturate to int16 first); bits 37–45 a signed 9-bit offset (int8 modes); bit 46
//! signed (int8) or unsigned (uint8) result. The value is multiplied in fp32 (by 0 instead for
//! negative values under ReLU), clamped to [−256, 255] and rounded to nearest even, offset and
//! saturated (int8 modes), or rounded to half (DEQF16).

use super::support::{cube_facts, FixpipeForm};
use super::{operand, require};
use crate::api::context::with_core;
use crate::api::tensor::{GlobalTensor, LocalTensor};
use crate::core::trace::{Access, Pipe, Space};
use crate::core::Core;
use crate::dtype::{bf16, f16, DType, Element};
use crate::error::{Category, Result, Severity, SimError, SourceLoc};
use crate::gm::GmAddr;
use crate::position::Hardware;

const API: &str = "Fixpipe";

/// `QuantMode_t`: the conversion on the way out of L0C.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[allow(non_camel_case_types)]
pub enum QuantMode {
    /// Same type out (float → float, int32 → int32).
    #[default]
    NoQuant,
    /// float → half, round to nearest even.
    F322F16,
    /// float → bfloat16, round to nearest even.
    F322BF16,
    /// int32 → half with the scalar word `deqScalar`.
    DEQF16,
    /// int32 → half with one word per column.
    VDEQF16,
    /// float → int8/uint8 with the scalar word.
    QF322B8_PRE,
    /// float → int8/uint8 with one word per column.
    VQF322B8_PRE,
    /// int32 → int8/uint8 with the scalar word.
    REQ8,
    /// int32 → int8/uint8 with one word per column.
    VREQ8,
}

impl QuantMode {
    fn vector(self) -> bool {
        matches!(
            self,
            QuantMode::VDEQF16 | QuantMode::VQF322B8_PRE | QuantMode::VREQ8
        )
    }
}

/// The output layout (`FixpipeConfig`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FixpipeConfig {
    /// NZ → ND (`CFG_ROW_MAJOR`, the default).
    RowMajor,
    /// NZ → NZ (`CFG_NZ`).
    Nz,
}

/// `CFG_ROW_MAJOR`: NZ → ND.
pub const CFG_ROW_MAJOR: FixpipeConfig = FixpipeConfig::RowMajor;
/// `CFG_NZ`: NZ → NZ.
pub const CFG_NZ: FixpipeConfig = FixpipeConfig::Nz;

macro_rules! fixpipe_params {
    ($(#[$doc:meta])* $name:ident, $form:expr) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
        pub struct $name {
            /// Columns (N) moved, [0, 4095] (0: no-op); NZ → NZ: a multiple of 16 (8 with
            /// channel split). NZ → ND writes exactly `nSize` columns per row.
            pub n_size: u16,
            /// Rows (M) moved, [0, 8192] with NZ → ND, [0, 65535] with NZ → NZ (0: no-op).
            pub m_size: u16,
            /// Distance between the 16-column fractal columns of the source, in rows of 16
            /// elements (`C0_Size` = 64 bytes): `mSize` rounded up to 16.
            pub src_stride: u16,
            /// NZ → ND: elements per destination row. NZ → NZ: distance between destination
            /// column groups, in 32-byte blocks. Not 0.
            pub dst_stride: u32,
            /// Conversion.
            pub quant_pre: QuantMode,
            /// Scalar quantisation word (DEQF16, QF322B8_PRE, REQ8).
            pub deq_scalar: u64,
            /// Source matrices (NZ → ND), [0, 65535] (0: no-op with a warning).
            pub nd_num: u16,
            /// Distance between source matrices, in units of 16 · `C0_Size` (1024 bytes, one
            /// 16 × 16 fractal of 4-byte accumulators) as the Fixpipe parameter table states and
            /// the vendor's A2 batch matmul sample uses, [0, 512]. (The NZ2ND page's pseudo-code
            /// and example count one `C0_Size`: that is the Ascend 950 unit.)
            pub src_nd_stride: u16,
            /// Distance between destination matrices, in elements.
            pub dst_nd_stride: u32,
            /// ReLU on the way out.
            pub relu_en: bool,
            /// 0 off, 2 or 3: read L0C units a Mmad with unitFlag 3 handed over (Atlas A2/A3).
            pub unit_flag: u8,
            /// float NZ → NZ only: split each 16-column group into two of 8.
            pub is_channel_split: bool,
        }

        impl $name {
            /// `(nSize, mSize, srcStride, dstStride, reluEn)`, `ndNum` 1, other fields default.
            pub fn new(n_size: u16, m_size: u16, src_stride: u16, dst_stride: u32, relu_en: bool) -> Self {
                $name { n_size, m_size, src_stride, dst_stride, relu_en, nd_num: 1, ..Default::default() }
            }
        }

        impl FixpipeArgs for $name {
            const FORM: Option<FixpipeForm> = Some($form);
            fn fields(self) -> FixpipeParamsV220 {
                FixpipeParamsV220 {
                    n_size: self.n_size,
                    m_size: self.m_size,
                    src_stride: self.src_stride,
                    dst_stride: self.dst_stride,
                    quant_pre: self.quant_pre,
                    deq_scalar: self.deq_scalar,
                    nd_num: self.nd_num,
                    src_nd_stride: self.src_nd_stride,
                    dst_nd_stride: self.dst_nd_stride,
                    relu_en: self.relu_en,
                    unit_flag: self.unit_flag,
                    is_channel_split: self.is_channel_split,
                }
            }
        }
    };
}

fixpipe_params!(
    /// `FixpipeParamsV220` (Atlas A2/A3).
    FixpipeParamsV220,
    FixpipeForm::V220
);
fixpipe_params!(
    /// `FixpipeParamsM300` (Atlas 200I/500 A2).
    FixpipeParamsM300,
    FixpipeForm::M300
);

/// The Fixpipe parameter structures.
pub trait FixpipeArgs: Copy {
    /// The product form this structure belongs to; `None` for the running product's own form
    /// (the C++ headers, where `FixpipeParamsM300` is another name of `FixpipeParamsV220`).
    const FORM: Option<FixpipeForm>;
    /// The fields.
    fn fields(self) -> FixpipeParamsV220;
}

/// Where a Fixpipe writes.
pub enum FixpipeTarget<'a> {
    /// GM.
    Gm(&'a GmAddr),
    /// L1: (position, buffer, byte address, byte length).
    Local(crate::position::TPosition, Hardware, u32, u32),
}

/// A Fixpipe destination: `&GlobalTensor<D>` or `&LocalTensor<D>` (L1).
pub trait FixpipeDst<D> {
    /// The destination (`api` names the call in errors).
    fn target(&self, api: &'static str) -> Result<FixpipeTarget<'_>>;
}

impl<D: Element> FixpipeDst<D> for &GlobalTensor<D> {
    fn target(&self, api: &'static str) -> Result<FixpipeTarget<'_>> {
        Ok(FixpipeTarget::Gm(self.gm(api)?))
    }
}

impl<D: Element> FixpipeDst<D> for &LocalTensor<D> {
    fn target(&self, _api: &'static str) -> Result<FixpipeTarget<'_>> {
        Ok(FixpipeTarget::Local(self.pos, self.hw, self.addr, self.len))
    }
}

/// `Fixpipe<D, S, config>(dst, src[, cbufWorkspace], params)`: L0C (CO1) → GM or L1.
/// `workspace` is the L1 tensor of per-column quantisation words of the vector modes.
#[track_caller]
pub fn fixpipe<D: Element, S: Element, P: FixpipeArgs>(
    dst: impl FixpipeDst<D>,
    src: &LocalTensor<S>,
    workspace: Option<&LocalTensor<u64>>,
    params: P,
    config: FixpipeConfig,
) -> Result<()> {
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        let target = dst.target(API)?;
        let p = params.fields();
        check_form(core, P::FORM, &target)?;
        let nd = config == FixpipeConfig::RowMajor;
        // Fixpipe writes the registers the DataCopy L0C forms read.
        let vector = p.quant_pre.vector();
        if nd {
            core.cube.fix.nd_para = Some((p.nd_num, p.src_nd_stride, p.dst_nd_stride as u16));
        }
        if vector {
            // The library stages the words in the Fixpipe buffer where it chooses.
            core.cube.fix.quant_tensor = None;
        } else if p.quant_pre != QuantMode::NoQuant {
            core.cube.fix.quant_pre = Some(p.deq_scalar);
        }
        let mv = Move {
            api: API,
            p,
            nd,
            scalar: Some(p.deq_scalar),
            vector: VectorWords::Workspace(workspace),
            clip: None,
            eltwise: None,
        };
        execute::<D, S>(core, loc, target, src, &mv)
    })
}

/// Checks that the product has Fixpipe, takes this parameter form (`None`: its own) and, for an
/// L1 destination, the L0C → L1 form.
fn check_form(core: &Core, form: Option<FixpipeForm>, target: &FixpipeTarget) -> Result<()> {
    let facts = cube_facts(core.profile);
    let Some(own) = facts.fixpipe else {
        return Err(SimError::new(
            Category::Unsupported,
            API,
            format!(
                "Fixpipe is not supported on {}: L0C results leave through DataCopy CO1 → CO2 \
                 (DataCopyEnhancedParams) on this product",
                core.profile
            ),
        ));
    };
    let form = form.unwrap_or(own);
    if form != own {
        return Err(SimError::new(
            Category::Type,
            API,
            format!(
                "{} takes FixpipeParams{own:?}, not FixpipeParams{form:?}",
                core.profile
            ),
        ));
    }
    if matches!(target, FixpipeTarget::Local(..)) {
        require(core, API, form == FixpipeForm::V220, "Fixpipe L0C → L1")?;
    }
    Ok(())
}

/// Where the per-column quantisation words of the vector modes come from.
pub(crate) enum VectorWords<'a> {
    /// Fixpipe's `cbufWorkspace` (L1), if passed.
    Workspace(Option<&'a LocalTensor<u64>>),
    /// The Fixpipe buffer at FPC QuantPreAddr (`SetFixPipeConfig`), if set.
    FixBuf(Option<u64>),
}

/// The element-wise step of the Atlas 200I/500 A2 (`eltWiseOp`, `SetFixPipeAddr`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Eltwise {
    /// Subtract (`eltWiseOp` 2) instead of add (1).
    pub sub: bool,
    /// L1 byte address of the half operand.
    pub addr: u64,
    /// Distance between its 16-column groups, in 32-byte blocks.
    pub stride: u16,
}

/// One move out of L0C: a `Fixpipe`, or a `DataCopy` L0C form with the registers applied.
pub(crate) struct Move<'a> {
    /// The API named in errors and in the record.
    pub api: &'static str,
    /// Sizes, strides, conversion, ReLU, NZ → ND parameters and unit flag.
    pub p: FixpipeParamsV220,
    /// NZ → ND (otherwise NZ → NZ).
    pub nd: bool,
    /// The scalar quantisation word (`None`: never set).
    pub scalar: Option<u64>,
    /// The per-column words.
    pub vector: VectorWords<'a>,
    /// The ClipReLU maximum, half bits (Atlas 200I/500 A2).
    pub clip: Option<u16>,
    /// The element-wise step (Atlas 200I/500 A2).
    pub eltwise: Option<Eltwise>,
}

/// A decoded quantisation word.
#[derive(Debug, Clone, Copy)]
struct Word {
    m: f32,
    n: u32,
    mcb: bool,
    offset: i32,
    signed: bool,
}

impl Word {
    fn decode(w: u64) -> Word {
        let off = ((w >> 37) & 0x1FF) as i32;
        Word {
            m: f32::from_bits(w as u32 & 0xFFFF_E000),
            n: ((w >> 32) & 0xF) as u32 + 1,
            mcb: (w >> 36) & 1 == 1,
            offset: if off >= 256 { off - 512 } else { off },
            signed: (w >> 46) & 1 == 1,
        }
    }
}

/// Converts one accumulator value (raw bits) to the destination bytes.
fn convert(q: QuantMode, x: u32, w: Word, relu: bool, float_src: bool, sat: bool, out: &mut [u8]) {
    let scale = |v: f32| -> f32 {
        if v >= 0.0 {
            v * w.m
        } else if relu {
            v * 0.0
        } else {
            v * w.m
        }
    };
    let pre = |x: i32| -> f32 {
        if w.mcb {
            (x >> w.n).clamp(i16::MIN as i32, i16::MAX as i32) as f32
        } else {
            x as f32
        }
    };
    let b8 = |v: f32| -> u8 {
        let r = v.clamp(-256.0, 255.0).round_ties_even() as i32 + w.offset;
        if w.signed {
            r.clamp(-128, 127) as i8 as u8
        } else {
            r.clamp(0, 255) as u8
        }
    };
    match q {
        QuantMode::NoQuant => {
            let v = match (relu, float_src) {
                (true, true) if f32::from_bits(x) < 0.0 => 0,
                (true, false) if (x as i32) < 0 => 0,
                _ => x,
            };
            out.copy_from_slice(&v.to_le_bytes());
        }
        QuantMode::F322F16 => {
            let v = f32::from_bits(x);
            let v = if relu && v < 0.0 { 0.0 } else { v };
            out.copy_from_slice(&crate::numeric::round_f16(v, sat).to_bits().to_le_bytes());
        }
        QuantMode::F322BF16 => {
            let v = f32::from_bits(x);
            let v = if relu && v < 0.0 { 0.0 } else { v };
            out.copy_from_slice(&bf16::from_f32(v).to_bits().to_le_bytes());
        }
        QuantMode::DEQF16 | QuantMode::VDEQF16 => {
            let v = scale(pre(x as i32)).clamp(-65504.0, 65504.0);
            out.copy_from_slice(&f16::from_f32(v).to_bits().to_le_bytes());
        }
        QuantMode::REQ8 | QuantMode::VREQ8 => out[0] = b8(scale(pre(x as i32))),
        QuantMode::QF322B8_PRE | QuantMode::VQF322B8_PRE => out[0] = b8(scale(f32::from_bits(x))),
    }
}

fn legal(s: DType, d: DType, q: QuantMode) -> bool {
    use DType::*;
    use QuantMode::*;
    matches!(
        (s, d, q),
        (Float, Float, NoQuant)
            | (Float, Half, F322F16)
            | (Float, Bfloat16, F322BF16)
            | (Float, Int8 | Uint8, QF322B8_PRE | VQF322B8_PRE)
            | (Int32, Int32, NoQuant)
            | (Int32, Half, DEQF16 | VDEQF16)
            | (Int32, Int8 | Uint8, REQ8 | VREQ8)
    )
}

/// Runs one move out of L0C (the shared part of `Fixpipe` and the `DataCopy` L0C forms).
pub(crate) fn execute<D: Element, S: Element>(
    core: &mut Core,
    loc: SourceLoc,
    target: FixpipeTarget,
    src: &LocalTensor<S>,
    mv: &Move,
) -> Result<()> {
    let (api, p, nd) = (mv.api, mv.p, mv.nd);
    let facts = cube_facts(core.profile);
    if !legal(S::DTYPE, D::DTYPE, p.quant_pre) {
        return Err(SimError::new(
            Category::Type,
            api,
            format!(
                "{} → {} with quantPre {:?} is not supported: float → float (NoQuant), half (F322F16), \
                 bfloat16_t (F322BF16), int8_t/uint8_t ((V)QF322B8_PRE); int32_t → int32_t (NoQuant), \
                 half ((V)DEQF16), int8_t/uint8_t ((V)REQ8)",
                S::DTYPE,
                D::DTYPE,
                p.quant_pre
            ),
        ));
    }
    if !matches!(p.unit_flag, 0 | 2 | 3) {
        return Err(SimError::range(api, "unitFlag", p.unit_flag, "0, 2 or 3"));
    }
    if p.unit_flag != 0 {
        require(core, api, facts.unit_flag, "unitFlag")?;
    }
    let split = p.is_channel_split;
    if split && (nd || S::DTYPE != DType::Float || D::DTYPE != DType::Float) {
        return Err(SimError::new(
            Category::Range,
            api,
            "channel split needs float → float in NZ (it cannot be combined with NZ → ND)",
        ));
    }
    // NZ groups: 8 columns with channel split, 32 for 8-bit results (channel merge), else 16.
    let group: u16 = if split {
        8
    } else if !nd && D::SIZE == 1 {
        32
    } else {
        16
    };
    let n_rule = if nd {
        "[0, 4095]".to_string()
    } else if group == 32 {
        "[0, 4095] and a multiple of 32 for an 8-bit NZ result (channel merge pairs 16-column \
         groups; an odd last group is not modelled)"
            .to_string()
    } else {
        format!("[0, 4095] and a multiple of {group} in NZ")
    };
    if p.n_size > 4095 || (!nd && !p.n_size.is_multiple_of(group)) {
        return Err(SimError::range(api, "nSize", p.n_size, n_rule));
    }
    let m_max = if nd { 8192 } else { 65535 };
    if p.m_size as u32 > m_max {
        return Err(SimError::range(
            api,
            "mSize",
            p.m_size,
            format!("[0, {m_max}]"),
        ));
    }
    if nd && p.src_nd_stride > 512 {
        return Err(SimError::range(
            api,
            "srcNdStride",
            p.src_nd_stride,
            "[0, 512]",
        ));
    }
    if nd && p.dst_nd_stride > 65535 {
        return Err(SimError::range(
            api,
            "dstNdStride",
            p.dst_nd_stride,
            "[0, 65535]",
        ));
    }
    if nd && p.nd_num == 0 {
        core.diag(
            Severity::Warning,
            Category::Nop,
            api,
            "ndNum = 0: nothing is moved",
            loc,
        );
        return Ok(());
    }
    if p.n_size == 0 || p.m_size == 0 {
        return Ok(());
    }
    if p.dst_stride == 0 {
        return Err(SimError::range(api, "dstStride", 0, "not 0"));
    }
    if mv.clip.is_some() && mv.eltwise.is_some() {
        return Err(SimError::new(
            Category::Unsupported,
            api,
            "ClipReLU together with the element-wise step is not modelled (their order is not documented)",
        ));
    }
    if (mv.clip.is_some() || mv.eltwise.is_some()) && D::DTYPE != DType::Half {
        return Err(SimError::new(
            Category::Unsupported,
            api,
            format!(
                "ClipReLU and the element-wise step are modelled for half results, not {}",
                D::DTYPE
            ),
        ));
    }
    let (n, m) = (p.n_size as u64, p.m_size as u64);
    let nd_num = if nd { p.nd_num as u64 } else { 1 };
    if mv.eltwise.is_some() && nd_num > 1 {
        return Err(SimError::new(
            Category::Unsupported,
            api,
            "the element-wise step with ndNum > 1 is not modelled",
        ));
    }
    let cols16 = n.div_ceil(16);
    let row = 64u64; // one 16-element row of a 4-byte L0C fractal
    let nd_unit = 16 * row; // srcNdStride counts whole 16 × 16 fractals
    let src_extent = (nd_num - 1) * p.src_nd_stride as u64 * nd_unit
        + (cols16 - 1) * p.src_stride as u64 * row
        + (m - 1) * row
        + row;
    operand(
        core,
        loc,
        api,
        "source",
        src,
        Hardware::L0C,
        "CO1",
        64,
        src_extent,
    )?;
    if S::SIZE != 4 {
        return Err(SimError::new(
            Category::Type,
            api,
            format!(
                "the source must be float or int32_t in L0C, not {}",
                S::DTYPE
            ),
        ));
    }
    // Quantisation words, and where they are read.
    let mut word_read: Option<Access> = None;
    let words: Vec<Word> = if p.quant_pre.vector() {
        let (hw, at) = match mv.vector {
            VectorWords::Workspace(Some(ws)) => {
                operand(core, loc, api, "cbufWorkspace", ws, Hardware::L1, "C1", 32, n * 8)?;
                (Hardware::L1, ws.addr as u64)
            }
            VectorWords::Workspace(None) => {
                return Err(SimError::new(
                    Category::Position,
                    api,
                    format!(
                        "quantPre {:?} reads one word per column from the cbufWorkspace tensor (C1 in L1): pass it",
                        p.quant_pre
                    ),
                ))
            }
            VectorWords::FixBuf(Some(at)) => {
                let size = core.mem.size(Hardware::FIXBUF) as u64;
                if at + n * 8 > size {
                    return Err(SimError::new(
                        Category::Memory,
                        api,
                        format!(
                            "the {n} quantisation words at Fixpipe-buffer byte {at} run past its {size} bytes"
                        ),
                    ));
                }
                (Hardware::FIXBUF, at)
            }
            VectorWords::FixBuf(None) => {
                return Err(SimError::new(
                    Category::Sync,
                    api,
                    format!(
                        "quantPre {:?} reads its words from the Fixpipe buffer tensor SetFixPipeConfig names: \
                         call SetFixPipeConfig first",
                        p.quant_pre
                    ),
                ))
            }
        };
        word_read = Some(Access::contiguous(false, Space::Local(hw), at, n * 8));
        let mem = core.mem.bytes(hw);
        (0..n as usize)
            .map(|c| {
                let a = at as usize + 8 * c;
                Word::decode(u64::from_le_bytes(
                    mem[a..a + 8].try_into().expect("8 bytes"),
                ))
            })
            .collect()
    } else if p.quant_pre == QuantMode::NoQuant
        || matches!(p.quant_pre, QuantMode::F322F16 | QuantMode::F322BF16)
    {
        vec![Word::decode(0); n as usize]
    } else {
        let Some(w) = mv.scalar else {
            return Err(SimError::new(
                Category::Sync,
                api,
                format!(
                    "quantPre {:?} uses the scalar word of SetFixpipePreQuantFlag: call it first",
                    p.quant_pre
                ),
            ));
        };
        vec![Word::decode(w); n as usize]
    };
    // Unit flags: every unit read must have been handed over by a Mmad with unitFlag 3.
    let s0 = src.addr as u64;
    if p.unit_flag != 0 {
        let mut a = s0 - s0 % crate::core::cube::UNIT_BYTES;
        while a < s0 + src_extent {
            if !core.cube.flag(a) {
                return Err(SimError::new(
                    Category::Sync,
                    api,
                    format!(
                        "unitFlag {}: L0C byte {a} was not handed over by a Mmad with unitFlag 3: the device \
                         would wait here forever",
                        p.unit_flag
                    ),
                ));
            }
            a += crate::core::cube::UNIT_BYTES;
        }
    }
    // Destination layout: byte offset of element (matrix, row, column).
    let ed = D::SIZE as u64;
    let group = group as u64;
    let dst_at = |mat: u64, r: u64, c: u64| -> u64 {
        if nd {
            (mat * p.dst_nd_stride as u64 + r * p.dst_stride as u64 + c) * ed
        } else {
            (c / group) * p.dst_stride as u64 * 32 + (r * group + c % group) * ed
        }
    };
    let dst_extent = dst_at(nd_num - 1, m - 1, n - 1) + ed;
    let (space, dbase) = match &target {
        FixpipeTarget::Gm(g) => {
            if !nd && g.offset() % 32 != 0 {
                return Err(SimError::align(
                    api,
                    "destination (NZ)",
                    g.offset() as u64,
                    32,
                    "GM",
                ));
            }
            g.check(api, 0, dst_extent)?;
            (Space::Gm(g.region_id()), g.offset() as u64)
        }
        FixpipeTarget::Local(pos, hw, addr, len) => {
            if *hw != Hardware::L1 {
                return Err(SimError::new(
                    Category::Position,
                    api,
                    format!("the destination is {pos} in {hw}; it must be GM or L1 (A1/B1/C1)"),
                ));
            }
            if addr % 32 != 0 {
                return Err(SimError::align(
                    api,
                    "destination",
                    *addr as u64,
                    32,
                    Hardware::L1,
                ));
            }
            if dst_extent > *len as u64 {
                return Err(SimError::new(
                    Category::Size,
                    api,
                    format!("the destination must hold at least {dst_extent} bytes, it has {len}"),
                ));
            }
            (Space::Local(Hardware::L1), *addr as u64)
        }
    };
    // The element-wise operand: element (row, column) of a half matrix in 16-column groups.
    let elt_at = |e: &Eltwise, r: u64, c: u64| -> u64 {
        e.addr + (c / 16) * e.stride as u64 * 32 + r * 32 + (c % 16) * 2
    };
    let mut elt_read: Option<Access> = None;
    if let Some(e) = &mv.eltwise {
        let end = elt_at(e, m - 1, n - 1) + 2;
        let size = core.mem.size(Hardware::L1) as u64;
        if end > size {
            return Err(SimError::new(
                Category::Memory,
                api,
                format!(
                    "the element-wise operand runs past the end of the {size}-byte L1 (byte {end})"
                ),
            ));
        }
        elt_read = Some(Access {
            write: false,
            space: Space::Local(Hardware::L1),
            base: e.addr,
            len: (m * 32) as u32,
            blocks: cols16 as u32,
            block_stride: e.stride as u64 * 32,
            repeats: 1,
            repeat_stride: 0,
        });
    }
    // Compute every output element, then write.
    let sat = core.vector.fp16_saturation; // CTRL[48]
    let l0c = core.mem.bytes(Hardware::L0C);
    let l1 = core.mem.bytes(Hardware::L1);
    let mut out: Vec<(u64, [u8; 4])> = Vec::with_capacity((nd_num * m * n) as usize);
    for mat in 0..nd_num {
        let sm = s0 + mat * p.src_nd_stride as u64 * nd_unit;
        for r in 0..m {
            for c in 0..n {
                let at =
                    (sm + (c / 16) * p.src_stride as u64 * row + r * row + (c % 16) * 4) as usize;
                let x = u32::from_le_bytes(l0c[at..at + 4].try_into().expect("4 bytes"));
                let mut b = [0u8; 4];
                convert(
                    p.quant_pre,
                    x,
                    words[c as usize],
                    p.relu_en,
                    S::DTYPE == DType::Float,
                    sat,
                    &mut b[..D::SIZE],
                );
                if let Some(max) = mv.clip {
                    let v = f16::from_bits(u16::from_le_bytes([b[0], b[1]]));
                    let max = f16::from_bits(max);
                    if v > max {
                        b[..2].copy_from_slice(&max.to_bits().to_le_bytes());
                    }
                }
                if let Some(e) = &mv.eltwise {
                    let ea = elt_at(e, r, c) as usize;
                    let y = f16::from_bits(u16::from_le_bytes([l1[ea], l1[ea + 1]])).to_f32();
                    let v = f16::from_bits(u16::from_le_bytes([b[0], b[1]])).to_f32();
                    let z = if e.sub { v - y } else { v + y };
                    b[..2].copy_from_slice(
                        &crate::numeric::round_f16(z, sat).to_bits().to_le_bytes(),
                    );
                }
                out.push((dst_at(mat, r, c), b));
            }
        }
    }
    // Under SetAtomicAdd/Max/Min each element combines with what GM holds (the atomic's type
    // must be the destination's).
    let atomic = match (&target, core.sync.atomic.op) {
        (FixpipeTarget::Gm(_), Some(_)) => {
            let (op, dtype) = core
                .sync
                .atomic
                .check_write(core.profile, api, Hardware::L0C, ed)?;
            if dtype != D::DTYPE {
                return Err(SimError::new(
                    Category::Type,
                    api,
                    format!(
                        "GM atomic {op:?} is set for {dtype} but Fixpipe writes {}",
                        D::DTYPE
                    ),
                ));
            }
            Some(op)
        }
        _ => None,
    };
    match target {
        FixpipeTarget::Gm(g) => {
            for (off, b) in &out {
                match atomic {
                    // SAFETY: the destination extent was checked above and lies in `g`'s allocation.
                    Some(op) => unsafe {
                        crate::multicore::atomic::apply(
                            g.region_id(),
                            g.ptr(*off as usize),
                            &b[..D::SIZE],
                            op,
                            D::DTYPE,
                            core.options.fp16_saturation,
                        )
                    },
                    None => g.write_bytes(api, *off as usize, &b[..D::SIZE])?,
                }
            }
        }
        FixpipeTarget::Local(_, _, addr, _) => {
            let l1 = core.mem.bytes_mut(Hardware::L1);
            for (off, b) in &out {
                let at = (addr as u64 + off) as usize;
                l1[at..at + D::SIZE].copy_from_slice(&b[..D::SIZE]);
            }
        }
    }
    if p.unit_flag == 3 {
        core.cube.set_flags(s0, s0 + src_extent, false);
    }
    let read = Access {
        write: false,
        space: Space::Local(Hardware::L0C),
        base: s0,
        len: (m * row) as u32,
        blocks: cols16 as u32,
        block_stride: p.src_stride as u64 * row,
        repeats: nd_num as u32,
        repeat_stride: p.src_nd_stride as u64 * nd_unit,
    };
    let write = if nd {
        Access {
            write: true,
            space,
            base: dbase,
            len: (n * ed) as u32,
            blocks: m as u32,
            block_stride: p.dst_stride as u64 * ed,
            repeats: nd_num as u32,
            repeat_stride: p.dst_nd_stride as u64 * ed,
        }
    } else {
        Access {
            write: true,
            space,
            base: dbase,
            len: (m * group * ed) as u32,
            blocks: (n / group) as u32,
            block_stride: p.dst_stride as u64 * 32,
            repeats: 1,
            repeat_stride: 0,
        }
    };
    let mut acc = vec![read, write];
    acc.extend(word_read);
    acc.extend(elt_read);
    core.issue(Pipe::FIX, api, loc, &acc);
    Ok(())
}
