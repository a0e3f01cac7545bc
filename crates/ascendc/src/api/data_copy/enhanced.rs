//! Enhanced `DataCopy` with [`DataCopyEnhancedParams`]: on GM↔UB/L1 and UB→UB it is the level-0
//! copy; CO1→CO2 (L0C→UB, Atlas training and 310P) moves 16×16 fractals with on-the-fly
//! precision conversion (DEQ, VDEQ, DEQ8, VDEQ8, DEQ16, VDEQ16, float→half) and ReLU.
//!
//! CO1→CO2 geometry: every `blockLen` unit consumes one 16×16 fractal of L0C (512 bytes for
//! 16-bit, 1024 bytes for 32-bit elements; `srcStride` is in fractals too) and delivers, in fractal
//! order, all 256 elements (MATRIX), the first 1×16 row (VECTOR) or the first 4 columns of the 16
//! rows (SMALL_CHANNEL, 16×4) to UB, converted. The UB-side unit is the size of what one unit
//! delivers (so it halves when 32-bit values become 16-bit ones); `dstStride` is in 32-byte blocks.
//! DEQ8/VDEQ8 write each 16 one-byte results into the first (`sidStoreMode` 0) or second (1) half
//! of a 32-byte block, or contiguously (2 or 3).
//!
//! The simulator has no cube unit: kernels fill CO1 (L0C) themselves, through a
//! `TQue<QuePosition::CO1, 1>` tensor and [`LocalTensor::set_value`] (recorded on the scalar pipe),
//! in the fractal layout described above.

use super::{check_alignment, check_path, copy_level0, DataCopyArgs, DataCopyParams, Side};
use crate::api::context::with_core;
use crate::api::tensor::{GlobalTensor, LocalTensor};
use crate::chip::DataPath;
use crate::core::trace::{Access, Pipe, Space};
use crate::core::Core;
use crate::dtype::{f16, DType, Element};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::numeric::round_f16;
use crate::position::Hardware;

const API: &str = "DataCopy";

/// The transfer unit of an enhanced copy (`BlockMode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[allow(non_camel_case_types)]
pub enum BlockMode {
    /// 32-byte blocks: every path but CO1→CO2.
    #[default]
    BLOCK_MODE_NORMAL,
    /// One 16×16 fractal per unit (CO1→CO2).
    BLOCK_MODE_MATRIX,
    /// One 1×16 row per unit (CO1→CO2).
    BLOCK_MODE_VECTOR,
    /// One 16×4 block per unit (CO1→CO2).
    BLOCK_MODE_SMALL_CHANNEL,
    /// 16×16 with channel split (CO1→CO2); not supported yet.
    BLOCK_MODE_DEPTHWISE,
}

/// The quantisation mode of CO1→CO2 (`DeqScale`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[allow(non_camel_case_types)]
pub enum DeqScale {
    /// No quantisation (same type, or float→half).
    #[default]
    DEQ_NONE,
    /// Multiply by the half in `deqValue` bits 0–15 (int32→half, half→half).
    DEQ,
    /// Multiply by a per-channel half from a 16-entry vector at `deqTensorAddr`.
    VDEQ,
    /// int32→int8/uint8 with the scalar quantisation word `deqValue`.
    DEQ8,
    /// int32→int8/uint8 with a per-channel vector of 16 quantisation words.
    VDEQ8,
    /// int32→half/int16 with the scalar quantisation word.
    DEQ16,
    /// int32→half/int16 with a per-channel vector of 16 quantisation words.
    VDEQ16,
}

/// On-the-fly padding of GM→A1/B1 (`pad_t`); reserved, only `PAD_NONE` is supported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[allow(non_camel_case_types)]
pub enum PadMode {
    /// No padding.
    #[default]
    PAD_NONE,
    /// Padding mode 1 (not supported).
    PAD_MODE1,
    /// Padding mode 2 (not supported).
    PAD_MODE2,
    /// Padding mode 3 (not supported).
    PAD_MODE3,
    /// Padding mode 4 (not supported).
    PAD_MODE4,
}

/// Enhanced parameters (`DataCopyEnhancedParams`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DataCopyEnhancedParams {
    /// Transfer unit.
    pub block_mode: BlockMode,
    /// Quantisation mode (CO1→CO2 only).
    pub deq_scale: DeqScale,
    /// Scalar quantisation word: a half multiplier in bits 0–15 (DEQ), or M (bits 0–31, float),
    /// N − 1 (32–35), MCB (36), offset (37–45, 9-bit signed), sign (46), ReLU (47) (DEQ8/DEQ16).
    pub deq_value: u64,
    /// DEQ8/VDEQ8 store mode on CO1→CO2 (0: first 16 bytes of each 32, 1: last 16, 2 or 3:
    /// contiguous); a stream id elsewhere.
    pub sid_store_mode: u8,
    /// Apply ReLU (CO1→CO2); wins over the ReLU bit of the quantisation word.
    pub is_relu: bool,
    /// Reserved.
    pub pad_mode: PadMode,
    /// Reserved.
    pub pad_value: u64,
    /// UB byte address of the VDEQ* parameter vectors (32-byte aligned): per block, 16 halves
    /// (32 bytes) for VDEQ, 16 quantisation words (128 bytes) for VDEQ8/VDEQ16.
    pub deq_tensor_addr: u64,
}

impl DataCopyEnhancedParams {
    /// `DataCopyEnhancedParams(blockMode, deqScale, deqValue, sidStoreMode, isRelu, padMode,
    /// padValue)`; `deq_tensor_addr` 0.
    pub const fn new(
        block_mode: BlockMode,
        deq_scale: DeqScale,
        deq_value: u64,
        sid_store_mode: u8,
        is_relu: bool,
        pad_mode: PadMode,
        pad_value: u64,
    ) -> Self {
        DataCopyEnhancedParams {
            block_mode,
            deq_scale,
            deq_value,
            sid_store_mode,
            is_relu,
            pad_mode,
            pad_value,
            deq_tensor_addr: 0,
        }
    }
}

/// Checks shared by every enhanced form: DEPTHWISE and padMode are not supported.
fn check_reserved(e: &DataCopyEnhancedParams) -> Result<()> {
    if e.block_mode == BlockMode::BLOCK_MODE_DEPTHWISE {
        return Err(SimError::new(
            Category::Unsupported,
            API,
            "blockMode BLOCK_MODE_DEPTHWISE is not supported yet",
        ));
    }
    if e.pad_mode != PadMode::PAD_NONE {
        return Err(SimError::new(
            Category::Unsupported,
            API,
            format!(
                "padMode {:?} is not supported yet (use PAD_NONE)",
                e.pad_mode
            ),
        ));
    }
    Ok(())
}

/// The enhanced form on a path other than CO1→CO2: the level-0 copy; CO1-only settings warn.
fn plain<T: Element>(
    core: &mut Core,
    loc: SourceLoc,
    dst: Side,
    src: Side,
    p: DataCopyParams,
    e: &DataCopyEnhancedParams,
) -> Result<()> {
    check_reserved(e)?;
    if e.block_mode != BlockMode::BLOCK_MODE_NORMAL
        || e.deq_scale != DeqScale::DEQ_NONE
        || e.is_relu
    {
        core.warn(
            Category::DataLoss,
            API,
            format!(
                "blockMode {:?}, deqScale {:?} and isRelu {} apply only to CO1→CO2: this copy ignores them \
                 (BLOCK_MODE_NORMAL, no conversion)",
                e.block_mode, e.deq_scale, e.is_relu
            ),
            loc,
        );
    }
    copy_level0::<T>(core, loc, dst, src, p)
}

impl<T: Element> DataCopyArgs<LocalTensor<T>, GlobalTensor<T>>
    for (DataCopyParams, DataCopyEnhancedParams)
{
    fn copy(self, dst: &LocalTensor<T>, src: &GlobalTensor<T>, loc: SourceLoc) -> Result<()> {
        with_core(API, loc, |core| {
            let s = Side::Gm(src.gm(API)?);
            plain::<T>(core, loc, Side::local(dst), s, self.0, &self.1)
        })
    }
}

impl<T: Element> DataCopyArgs<GlobalTensor<T>, LocalTensor<T>>
    for (DataCopyParams, DataCopyEnhancedParams)
{
    fn copy(self, dst: &GlobalTensor<T>, src: &LocalTensor<T>, loc: SourceLoc) -> Result<()> {
        with_core(API, loc, |core| {
            let d = Side::Gm(dst.gm(API)?);
            plain::<T>(core, loc, d, Side::local(src), self.0, &self.1)
        })
    }
}

/// Local → local: CO1→CO2 (with conversion from `S` to `D`) when the source is in L0C,
/// otherwise the level-0 copy (same type on both sides).
impl<D: Element, S: Element> DataCopyArgs<LocalTensor<D>, LocalTensor<S>>
    for (DataCopyParams, DataCopyEnhancedParams)
{
    fn copy(self, dst: &LocalTensor<D>, src: &LocalTensor<S>, loc: SourceLoc) -> Result<()> {
        with_core(API, loc, |core| {
            if src.hw == Hardware::L0C {
                return co1_co2(core, loc, dst, src, self.0, &self.1);
            }
            if D::DTYPE != S::DTYPE {
                return Err(SimError::new(
                    Category::Type,
                    API,
                    format!(
                        "source {} and destination {} types differ: only CO1→CO2 converts types",
                        S::DTYPE,
                        D::DTYPE
                    ),
                ));
            }
            plain::<D>(
                core,
                loc,
                Side::local(dst),
                Side::local(src),
                self.0,
                &self.1,
            )
        })
    }
}

/// What happens to each element on CO1→CO2.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Conv {
    /// Same type (ReLU optional, ignored for uint32).
    Same,
    /// half × half M (DEQ).
    HalfDeq,
    /// float → half.
    FloatToHalf,
    /// int32 → half × half M (DEQ / VDEQ).
    IntDeqHalf,
    /// int32 → half through a quantisation word (DEQ16 / VDEQ16).
    Deq16Half,
    /// int32 → int16 through a quantisation word (DEQ16 / VDEQ16).
    Deq16Int16,
    /// int32 → int8 / uint8 through a quantisation word (DEQ8 / VDEQ8).
    Deq8,
}

/// The legal (source, destination, deqScale) combinations of CO1→CO2.
fn conversion(s: DType, d: DType, q: DeqScale) -> Option<Conv> {
    use DType::*;
    use DeqScale::*;
    Some(match (s, d, q) {
        (Half, Half, DEQ_NONE)
        | (Float, Float, DEQ_NONE)
        | (Int32, Int32, DEQ_NONE)
        | (Uint32, Uint32, DEQ_NONE) => Conv::Same,
        (Half, Half, DEQ) => Conv::HalfDeq,
        (Float, Half, DEQ_NONE) => Conv::FloatToHalf,
        (Int32, Half, DEQ | VDEQ) => Conv::IntDeqHalf,
        (Int32, Half, DEQ16 | VDEQ16) => Conv::Deq16Half,
        (Int32, Int16, DEQ16 | VDEQ16) => Conv::Deq16Int16,
        (Int32, Int8 | Uint8, DEQ8 | VDEQ8) => Conv::Deq8,
        _ => return None,
    })
}

/// A decoded quantisation word.
#[derive(Debug, Clone, Copy)]
struct Word {
    m: f32,
    n: u32,
    mcb: bool,
    offset: i32,
    signed: bool,
    relu_bit: bool,
}

impl Word {
    fn decode(w: u64) -> Word {
        let off = ((w >> 37) & 0x1FF) as i32;
        Word {
            m: f32::from_bits(w as u32),
            n: ((w >> 32) & 0xF) as u32 + 1,
            mcb: (w >> 36) & 1 == 1,
            offset: if off >= 256 { off - 512 } else { off },
            signed: (w >> 46) & 1 == 1,
            relu_bit: (w >> 47) & 1 == 1,
        }
    }

    /// The value before the multiply: `sat16(x >> N)` with MCB, else `x`.
    fn pre(&self, x: i32) -> f32 {
        if self.mcb {
            sat16(x >> self.n) as f32
        } else {
            x as f32
        }
    }
}

fn sat16(x: i32) -> i16 {
    x.clamp(i16::MIN as i32, i16::MAX as i32) as i16
}

/// Per-block multipliers: 16 quantisation words (or half bits for DEQ/VDEQ), one per channel.
type Channels = [u64; 16];

/// Converts one element (raw little-endian bits) and writes its bytes to `out`.
fn convert(c: Conv, x: u64, ch: u64, relu: bool, dst: DType, sat: bool, out: &mut [u8]) {
    let half = |v: f32| {
        let h = round_f16(v, sat);
        let h = if relu && h < f16::ZERO { f16::ZERO } else { h };
        h.to_bits().to_le_bytes()
    };
    match c {
        Conv::Same => match dst {
            DType::Half => {
                let v = f16::from_bits(x as u16);
                let v = if relu && v < f16::ZERO { f16::ZERO } else { v };
                out.copy_from_slice(&v.to_bits().to_le_bytes());
            }
            DType::Float => {
                let v = f32::from_bits(x as u32);
                let v = if relu && v < 0.0 { 0.0 } else { v };
                out.copy_from_slice(&v.to_bits().to_le_bytes());
            }
            DType::Int32 => {
                let v = x as u32 as i32;
                let v = if relu { v.max(0) } else { v };
                out.copy_from_slice(&v.to_le_bytes());
            }
            _ => out.copy_from_slice(&(x as u32).to_le_bytes()),
        },
        Conv::HalfDeq => out.copy_from_slice(&half(
            f16::from_bits(x as u16).to_f32() * f16::from_bits(ch as u16).to_f32(),
        )),
        Conv::FloatToHalf => out.copy_from_slice(&half(f32::from_bits(x as u32))),
        Conv::IntDeqHalf => out.copy_from_slice(&half(
            x as u32 as i32 as f32 * f16::from_bits(ch as u16).to_f32(),
        )),
        Conv::Deq16Half => {
            let w = Word::decode(ch);
            out.copy_from_slice(&half(w.pre(x as u32 as i32) * w.m))
        }
        Conv::Deq16Int16 => {
            let w = Word::decode(ch);
            let v = sat16((x as u32 as i32) >> w.n);
            let v = if relu { v.max(0) } else { v };
            out.copy_from_slice(&v.to_le_bytes());
        }
        Conv::Deq8 => {
            let w = Word::decode(ch);
            let mut v = w.pre(x as u32 as i32) * w.m;
            if relu {
                v = v.max(0.0);
            }
            let v = (v + w.offset as f32).round_ties_even();
            let b = if w.signed || dst == DType::Int8 {
                v.clamp(-128.0, 127.0) as i8 as u8
            } else {
                v.clamp(0.0, 255.0) as u8
            };
            out[0] = b;
        }
    }
}

/// CO1 (L0C) → CO2 (UB) with conversion.
fn co1_co2<D: Element, S: Element>(
    core: &mut Core,
    loc: SourceLoc,
    dst: &LocalTensor<D>,
    src: &LocalTensor<S>,
    p: DataCopyParams,
    e: &DataCopyEnhancedParams,
) -> Result<()> {
    check_path(core, API, DataPath::Co1Co2)?;
    if dst.hw != Hardware::UB {
        return Err(SimError::new(
            Category::Position,
            API,
            format!(
                "CO1→CO2: the destination is {} in {}; it must be CO2 in UB",
                dst.pos, dst.hw
            ),
        ));
    }
    check_reserved(e)?;
    let (rows, cols) = match e.block_mode {
        BlockMode::BLOCK_MODE_MATRIX => (16u64, 16u64),
        BlockMode::BLOCK_MODE_VECTOR => (1, 16),
        BlockMode::BLOCK_MODE_SMALL_CHANNEL => (16, 4),
        m => {
            return Err(SimError::new(
                Category::Range,
                API,
                format!(
                "CO1→CO2: blockMode {m:?} is not allowed: blockMode should be BLOCK_MODE_MATRIX, \
                     BLOCK_MODE_VECTOR or BLOCK_MODE_SMALL_CHANNEL"
            ),
            ))
        }
    };
    let conv = conversion(S::DTYPE, D::DTYPE, e.deq_scale).ok_or_else(|| {
        let hint = match (S::DTYPE, D::DTYPE) {
            (DType::Int32, DType::Half) => "deqScale should be DEQ, VDEQ, DEQ16 or VDEQ16",
            (DType::Int32, DType::Int8 | DType::Uint8) => "deqScale should be DEQ8 or VDEQ8",
            (DType::Int32, DType::Int16) => "deqScale should be DEQ16 or VDEQ16",
            (DType::Half, DType::Half) => "deqScale should be DEQ_NONE or DEQ",
            _ => {
                "supported: half→half, float→float, int32→int32, uint32→uint32, float→half (DEQ_NONE), \
                 int32→half (DEQ/VDEQ/DEQ16/VDEQ16), int32→int16 (DEQ16/VDEQ16), int32→int8/uint8 (DEQ8/VDEQ8)"
            }
        };
        SimError::new(
            Category::Type,
            API,
            format!(
                "CO1→CO2: {} → {} with deqScale {:?} is not supported: {hint}",
                S::DTYPE,
                D::DTYPE,
                e.deq_scale
            ),
        )
    })?;
    let deq8 = conv == Conv::Deq8;
    let store = e.sid_store_mode;
    if deq8 && store > 3 {
        return Err(SimError::range(
            API,
            "sidStoreMode",
            store,
            "{0, 1, 2, 3} for DEQ8/VDEQ8 (0: first 16 bytes, 1: last 16 bytes, 2 or 3: contiguous)",
        ));
    }
    let split = deq8 && store < 2;
    check_alignment(core, API, Side::local(src), "source", S::SIZE)?;
    check_alignment(core, API, Side::local(dst), "destination", 32)?;
    for (name, v, max) in [
        ("blockCount", p.block_count, 4095u16),
        ("blockLen", p.block_len, 65535),
    ] {
        if v == 0 || v > max {
            return Err(SimError::range(API, name, v, format!("[1, {max}]")));
        }
    }
    let (es, ed) = (S::SIZE as u64, D::SIZE as u64);
    let per_unit = rows * cols;
    let ls = 256 * es;
    let ld = if split {
        per_unit / 16 * 32
    } else {
        per_unit * ed
    };
    let (n, len) = (p.block_count as u64, p.block_len as u64);
    let src_step = len * ls + p.src_stride as u64 * ls;
    let dst_step = len * ld + p.dst_stride as u64 * 32;
    let src_need = (n - 1) * src_step + len * ls;
    let dst_need = (n - 1) * dst_step + len * ld;
    for (side, need, have) in [
        ("source", src_need, src.len),
        ("destination", dst_need, dst.len),
    ] {
        if need > have as u64 {
            return Err(SimError::new(
                Category::Size,
                API,
                format!(
                    "CO1→CO2: the {side} tensor must hold at least {need} bytes for blockCount {n} × blockLen {len} \
                     (+ gaps), it has only {have}"
                ),
            ));
        }
    }
    // Per-block channel parameters.
    let vector = matches!(
        e.deq_scale,
        DeqScale::VDEQ | DeqScale::VDEQ8 | DeqScale::VDEQ16
    );
    let mut channels: Vec<Channels> = Vec::with_capacity(n as usize);
    let mut acc = Vec::with_capacity(3);
    if vector {
        let vsize = if e.deq_scale == DeqScale::VDEQ {
            32
        } else {
            128
        };
        let a = e.deq_tensor_addr;
        let ub = core.mem.size(Hardware::UB) as u64;
        if !a.is_multiple_of(32) {
            return Err(SimError::align(API, "deqTensorAddr", a, 32, "UB"));
        }
        if a + n * vsize > ub {
            return Err(SimError::new(
                Category::Memory,
                API,
                format!(
                    "deqTensorAddr {a}: {n} parameter vectors of {vsize} bytes run past the end of the {ub}-byte UB"
                ),
            ));
        }
        let mem = core.mem.bytes(Hardware::UB);
        for i in 0..n {
            let v = &mem[(a + i * vsize) as usize..(a + (i + 1) * vsize) as usize];
            let mut ch = [0u64; 16];
            for (k, c) in ch.iter_mut().enumerate() {
                *c = if vsize == 32 {
                    u16::from_le_bytes([v[2 * k], v[2 * k + 1]]) as u64
                } else {
                    u64::from_le_bytes(v[8 * k..8 * k + 8].try_into().expect("8 bytes"))
                };
            }
            if vsize == 128 && ch.iter().any(|&w| (w >> 36) & 1 != (ch[0] >> 36) & 1) {
                return Err(SimError::new(
                    Category::Range,
                    API,
                    format!(
                        "{:?}: the 16 quantisation words of block {i} must all have the same MCB bit (bit 36)",
                        e.deq_scale
                    ),
                ));
            }
            channels.push(ch);
        }
        acc.push(Access {
            write: false,
            space: Space::Local(Hardware::UB),
            base: a,
            len: (n * vsize) as u32,
            blocks: 1,
            block_stride: 0,
            repeats: 1,
            repeat_stride: 0,
        });
    } else {
        channels.push([e.deq_value; 16]);
        if matches!(e.deq_scale, DeqScale::DEQ8 | DeqScale::DEQ16)
            && Word::decode(e.deq_value).relu_bit != e.is_relu
        {
            core.warn(
                Category::DataLoss,
                API,
                format!(
                    "isRelu = {} and the ReLU bit (47) of deqValue disagree: isRelu wins",
                    e.is_relu
                ),
                loc,
            );
        }
    }
    if deq8 && e.is_relu {
        let want = if D::DTYPE == DType::Int8 { -128 } else { 0 };
        for ch in &channels {
            for &w in ch {
                let off = Word::decode(w).offset;
                if off != want {
                    return Err(SimError::new(
                        Category::Range,
                        API,
                        format!(
                            "{:?} with ReLU to {}: the offset (bits 37–45) must be {want}, it is {off}",
                            e.deq_scale,
                            D::DTYPE
                        ),
                    ));
                }
            }
        }
    }
    let relu = e.is_relu && !(S::DTYPE == DType::Uint32 && conv == Conv::Same);
    let sat = core.options.fp16_saturation;
    let (sbase, dbase) = (src.addr as u64, dst.addr as u64);
    let mut frac = vec![0u8; ls as usize];
    let mut out = vec![0u8; ld as usize];
    for i in 0..n {
        let ch = &channels[if vector { i as usize } else { 0 }];
        for u in 0..len {
            let s = (sbase + i * src_step + u * ls) as usize;
            frac.copy_from_slice(&core.mem.bytes(Hardware::L0C)[s..s + ls as usize]);
            let d = (dbase + i * dst_step + u * ld) as usize;
            let ub = core.mem.bytes_mut(Hardware::UB);
            out.copy_from_slice(&ub[d..d + ld as usize]);
            for r in 0..rows {
                for c in 0..cols {
                    let j = r * cols + c;
                    let at = ((r * 16 + c) * es) as usize;
                    let mut x = [0u8; 8];
                    x[..es as usize].copy_from_slice(&frac[at..at + es as usize]);
                    let o = if split {
                        (j / 16 * 32 + store as u64 * 16 + j % 16) as usize
                    } else {
                        (j * ed) as usize
                    };
                    convert(
                        conv,
                        u64::from_le_bytes(x),
                        ch[c as usize],
                        relu,
                        D::DTYPE,
                        sat,
                        &mut out[o..o + ed as usize],
                    );
                }
            }
            ub[d..d + ld as usize].copy_from_slice(&out);
        }
    }
    acc.push(Access {
        write: false,
        space: Space::Local(Hardware::L0C),
        base: sbase,
        len: ls as u32,
        blocks: len as u32,
        block_stride: ls,
        repeats: n as u32,
        repeat_stride: src_step,
    });
    acc.push(Access {
        write: true,
        space: Space::Local(Hardware::UB),
        base: dbase,
        len: ld as u32,
        blocks: len as u32,
        block_stride: ld,
        repeats: n as u32,
        repeat_stride: dst_step,
    });
    core.issue(Pipe::V, API, loc, &acc);
    Ok(())
}
