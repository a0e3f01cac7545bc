//! `LoadData` (2D, with [`LoadData2DParams`]) and `LoadDataWithTranspose`
//! ([`LoadData2dTransposeParams`]): L1 (A1/B1) → L0A (A2) / L0B (B2) in 512-byte fractals, on
//! PIPE_MTE1. [`LoadData2DParamsV2`] exists only on products this simulator does not model and
//! is refused with that reason.
//!
//! `int4b_t` (two elements to a byte, the even one in the low nibble) loads with
//! `LoadData2DParams` where [`LOAD2D_INT4`] lists it (fractals of 16 × 64 elements, moved as
//! bytes) and with `LoadDataWithTranspose` into L0B (squares of 64 × 64).

use super::layout::FRACTAL_BYTES;
use super::support::cube_facts;
use super::{operand, require};
use crate::api::context::with_core;
use crate::api::tensor::LocalTensor;
use crate::chip::Product;
use crate::core::trace::{Access, Pipe, Space};
use crate::dtype::{DType, TensorElement};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::position::Hardware;

const API: &str = "LoadData";
const API_T: &str = "LoadDataWithTranspose";

/// Products whose `LoadData` with `LoadData2DParams` takes `int4b_t` (L1 → L0A/L0B).
pub const LOAD2D_INT4: [Product; 3] = [
    Product::Ascend910B,
    Product::Ascend910_93,
    Product::Ascend310P,
];

/// `LoadData2DParams`: `repeatTimes` fractals of 512 bytes from L1 to L0A/L0B.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LoadData2DParams {
    /// First source fractal, in 512-byte fractals, [0, 65535].
    pub start_index: u16,
    /// Fractals moved, [0, 255] (0: no-op).
    pub repeat_times: u8,
    /// Head-to-head distance of consecutive source fractals, in fractals (0 re-reads one).
    pub src_stride: u16,
    /// Reserved, 0.
    pub sid: u8,
    /// Gap between consecutive destination fractals, in fractals.
    pub dst_gap: u16,
    /// Transpose every 16 × 16 fractal (16-bit types only).
    pub if_transpose: bool,
    /// Source address update: 0 increasing; 1 (decreasing) exists only for GM → L1.
    pub addr_mode: u8,
}

impl LoadData2DParams {
    /// `LoadData2DParams(startIndex, repeatTimes, srcStride, sid, dstGap, ifTranspose, addrMode)`.
    pub const fn new(
        start_index: u16,
        repeat_times: u8,
        src_stride: u16,
        sid: u8,
        dst_gap: u16,
        if_transpose: bool,
        addr_mode: u8,
    ) -> Self {
        LoadData2DParams {
            start_index,
            repeat_times,
            src_stride,
            sid,
            dst_gap,
            if_transpose,
            addr_mode,
        }
    }
}

/// `LoadData2DParamsV2` (M/K start positions and steps). Only Ascend 950 has it; every modelled
/// product refuses it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LoadData2DParamsV2 {
    /// Start along M, in 16 rows.
    pub m_start_position: u32,
    /// Start along K, in 32 bytes.
    pub k_start_position: u32,
    /// Length along M, in 16 rows, [0, 255].
    pub m_step: u16,
    /// Length along K, in 32 bytes, [0, 255].
    pub k_step: u16,
    /// Source distance between K fractals, in 512 bytes.
    pub src_stride: i32,
    /// Destination distance between K fractals, in 512 bytes.
    pub dst_stride: u16,
    /// Transpose each fractal.
    pub if_transpose: bool,
    /// Reserved, 0.
    pub sid: u8,
}

/// `LoadData2dTransposeParams`: square blocks (32 × 32 bytes… see [`load_data_with_transpose`])
/// transposed from L1 into L0A/L0B.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LoadData2dTransposeParams {
    /// First source square, in squares, [0, 65535].
    pub start_index: u16,
    /// Squares moved, [0, 255] (0: no-op).
    pub repeat_times: u8,
    /// Head-to-head distance of consecutive source squares, in squares.
    pub src_stride: u16,
    /// Gap after the first destination fractal of a square to the next square, in 512 bytes.
    pub dst_gap: u16,
    /// Gap between the destination fractals of one square, in 512 bytes (8- and 32-bit types).
    pub dst_frac_gap: u16,
    /// Source address update: only `false` (increasing) is modelled.
    pub addr_mode: bool,
}

impl LoadData2dTransposeParams {
    /// `LoadData2dTransposeParams(startIndex, repeatTimes, srcStride, dstGap, dstFracGap, addrMode)`.
    pub const fn new(
        start_index: u16,
        repeat_times: u8,
        src_stride: u16,
        dst_gap: u16,
        dst_frac_gap: u16,
        addr_mode: bool,
    ) -> Self {
        LoadData2dTransposeParams {
            start_index,
            repeat_times,
            src_stride,
            dst_gap,
            dst_frac_gap,
            addr_mode,
        }
    }
}

/// The parameter structures `LoadData` takes.
pub trait LoadDataArgs {
    /// Runs the load.
    fn load<T: TensorElement>(
        self,
        dst: &LocalTensor<T>,
        src: &LocalTensor<T>,
        loc: SourceLoc,
    ) -> Result<()>;
}

/// `LoadData(dst, src, params)`: L1 (A1/B1) → L0A (A2) or L0B (B2).
#[track_caller]
pub fn load_data<T: TensorElement>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    params: impl LoadDataArgs,
) -> Result<()> {
    params.load(dst, src, SourceLoc::caller())
}

/// Checks the common operands of an L1 → L0 load and returns the destination buffer.
fn l1_to_l0<T: TensorElement>(
    api: &'static str,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
) -> Result<Hardware> {
    if src.hw != Hardware::L1 {
        return Err(SimError::new(
            Category::Position,
            api,
            format!(
                "the source is {} in {}; it must be A1/B1 in L1 (L1 → L0A/L0B)",
                src.pos, src.hw
            ),
        ));
    }
    if !matches!(dst.hw, Hardware::L0A | Hardware::L0B) {
        return Err(SimError::new(
            Category::Position,
            api,
            format!(
                "the destination is {} in {}; it must be A2 in L0A or B2 in L0B",
                dst.pos, dst.hw
            ),
        ));
    }
    Ok(dst.hw)
}

impl LoadDataArgs for LoadData2DParams {
    fn load<T: TensorElement>(
        self,
        dst: &LocalTensor<T>,
        src: &LocalTensor<T>,
        loc: SourceLoc,
    ) -> Result<()> {
        with_core(API, loc, |core| {
            let facts = cube_facts(core.profile);
            let hw = l1_to_l0(API, dst, src)?;
            let int4 = LOAD2D_INT4.contains(&core.profile.product);
            if !(facts.load2d_dtypes.contains(T::DTYPE) || int4 && T::DTYPE == DType::Int4) {
                return Err(SimError::new(
                    Category::Type,
                    API,
                    format!(
                        "LoadData2DParams moves {}{} on {}, not {}",
                        facts.load2d_dtypes,
                        if int4 { "/int4b_t" } else { "" },
                        core.profile,
                        T::DTYPE
                    ),
                ));
            }
            if self.if_transpose && T::BITS != 16 {
                return Err(SimError::new(
                    Category::Type,
                    API,
                    format!(
                        "ifTranspose = true needs a 16-bit element type (half, bfloat16_t, int16_t, uint16_t), not {}",
                        T::DTYPE
                    ),
                ));
            }
            if self.addr_mode != 0 {
                return Err(SimError::range(
                    API,
                    "addrMode",
                    self.addr_mode,
                    "0 on L1 → L0A/L0B (decreasing addresses exist only for GM → L1)",
                ));
            }
            if self.repeat_times == 0 {
                return Ok(());
            }
            let f = FRACTAL_BYTES as u64;
            let n = self.repeat_times as u64;
            let last_src = self.start_index as u64 + (n - 1) * self.src_stride as u64;
            let dst_step = (1 + self.dst_gap as u64) * f;
            operand(
                core,
                loc,
                API,
                "source",
                src,
                Hardware::L1,
                "A1/B1",
                32,
                (last_src + 1) * f,
            )?;
            operand(
                core,
                loc,
                API,
                "destination",
                dst,
                hw,
                "A2/B2",
                512,
                (n - 1) * dst_step + f,
            )?;
            let (s0, d0) = (src.addr as u64, dst.addr as u64);
            let mut frac = [0u8; 512];
            for i in 0..n {
                let s = (s0 + (self.start_index as u64 + i * self.src_stride as u64) * f) as usize;
                frac.copy_from_slice(&core.mem.bytes(Hardware::L1)[s..s + 512]);
                let d = (d0 + i * dst_step) as usize;
                let out = &mut core.mem.bytes_mut(hw)[d..d + 512];
                if self.if_transpose {
                    for r in 0..16 {
                        for c in 0..16 {
                            out[(r * 16 + c) * 2..(r * 16 + c) * 2 + 2]
                                .copy_from_slice(&frac[(c * 16 + r) * 2..(c * 16 + r) * 2 + 2]);
                        }
                    }
                } else {
                    out.copy_from_slice(&frac);
                }
            }
            let acc = [
                Access {
                    write: false,
                    space: Space::Local(Hardware::L1),
                    base: s0 + self.start_index as u64 * f,
                    len: 512,
                    blocks: n as u32,
                    block_stride: self.src_stride as u64 * f,
                    repeats: 1,
                    repeat_stride: 0,
                },
                Access {
                    write: true,
                    space: Space::Local(hw),
                    base: d0,
                    len: 512,
                    blocks: n as u32,
                    block_stride: dst_step,
                    repeats: 1,
                    repeat_stride: 0,
                },
            ];
            core.issue(Pipe::MTE1, API, loc, &acc);
            Ok(())
        })
    }
}

impl LoadDataArgs for LoadData2DParamsV2 {
    fn load<T: TensorElement>(
        self,
        _dst: &LocalTensor<T>,
        _src: &LocalTensor<T>,
        loc: SourceLoc,
    ) -> Result<()> {
        with_core(API, loc, |core| {
            require(
                core,
                API,
                false,
                "LoadData with LoadData2DParamsV2 (an Ascend 950 form; use LoadData2DParams)",
            )
        })
    }
}

/// `LoadDataWithTranspose(dst, src, params)`: L1 → L0A/L0B, transposing square blocks (Atlas
/// A2/A3 and 200I/500 A2). A square is 64 × 64 for `int4b_t` (four 16 × 64 destination
/// fractals, into L0B only) and 32 × 32 for 8-bit types (two 16 × 32 fractals): fractal `j`
/// holds rows 16j…16j+15 of the transposed square. It is 16 × 16 for 16-bit types (one
/// fractal) and 16 × 16 for 32-bit types, read as two 16 × 8 source fractals side by side and
/// written as two 16 × 8 fractals (columns 0–7 and 8–15 of the transposed square).
#[track_caller]
pub fn load_data_with_transpose<T: TensorElement>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    params: LoadData2dTransposeParams,
) -> Result<()> {
    let loc = SourceLoc::caller();
    with_core(API_T, loc, |core| {
        require(
            core,
            API_T,
            cube_facts(core.profile).load_with_transpose,
            "LoadDataWithTranspose",
        )?;
        let hw = l1_to_l0(API_T, dst, src)?;
        use crate::dtype::DType::*;
        let int4_ok = T::DTYPE == Int4 && hw == Hardware::L0B;
        if !int4_ok
            && !matches!(
                T::DTYPE,
                Int8 | Uint8 | Half | Bfloat16 | Int32 | Uint32 | Float
            )
        {
            return Err(SimError::new(
                Category::Type,
                API_T,
                format!(
                    "element type {} is not supported into {hw}: int8_t, uint8_t, half, bfloat16_t, int32_t, uint32_t, \
                     float (and int4b_t into L0B)",
                    T::DTYPE
                ),
            ));
        }
        if params.addr_mode {
            return Err(SimError::range(
                API_T,
                "addrMode",
                1,
                "false (decreasing addresses are not modelled)",
            ));
        }
        if params.repeat_times == 0 {
            return Ok(());
        }
        let bits = T::BITS;
        let fractals: u64 = match bits {
            4 => 4,
            16 => 1,
            _ => 2,
        };
        let square = 512 * fractals;
        let f = 512u64;
        let n = params.repeat_times as u64;
        let last = params.start_index as u64 + (n - 1) * params.src_stride as u64;
        let dst_step = (1 + params.dst_gap as u64) * f;
        let frac_step = (1 + params.dst_frac_gap as u64) * f;
        let dst_extent = (n - 1) * dst_step + (fractals - 1) * frac_step + f;
        operand(
            core,
            loc,
            API_T,
            "source",
            src,
            Hardware::L1,
            "A1/B1",
            32,
            (last + 1) * square,
        )?;
        operand(
            core,
            loc,
            API_T,
            "destination",
            dst,
            hw,
            "A2/B2",
            512,
            dst_extent,
        )?;
        let (s0, d0) = (src.addr as u64, dst.addr as u64);
        let mut sq = vec![0u8; square as usize];
        let mut out = vec![0u8; square as usize];
        for i in 0..n {
            let s =
                (s0 + (params.start_index as u64 + i * params.src_stride as u64) * square) as usize;
            sq.copy_from_slice(&core.mem.bytes(Hardware::L1)[s..s + square as usize]);
            // Element (r, c) of destination fractal j, from the source square.
            match bits {
                4 => {
                    // 64 × 64 square S; fractal j row k = column 16j + k of S.
                    for j in 0..4 {
                        for k in 0..16 {
                            for t in 0..64 {
                                let v = crate::dtype::Int4::get(&sq, t * 64 + 16 * j + k);
                                crate::dtype::Int4::put(&mut out, j * 1024 + k * 64 + t, v);
                            }
                        }
                    }
                }
                8 => {
                    // 32 × 32 square S; fractal j row k = column 16j + k of S.
                    for j in 0..2 {
                        for k in 0..16 {
                            for t in 0..32 {
                                out[j * 512 + k * 32 + t] = sq[t * 32 + 16 * j + k];
                            }
                        }
                    }
                }
                16 => {
                    for k in 0..16 {
                        for t in 0..16 {
                            out[(k * 16 + t) * 2..(k * 16 + t) * 2 + 2]
                                .copy_from_slice(&sq[(t * 16 + k) * 2..(t * 16 + k) * 2 + 2]);
                        }
                    }
                }
                _ => {
                    // Source fractals F0 (columns 0–7) and F1 (columns 8–15), each 16 × 8;
                    // destination fractal j row r = column r % 8 of F(r / 8), rows 8j..8j+8.
                    for j in 0..2 {
                        for r in 0..16 {
                            for t in 0..8 {
                                let from = (r / 8) * 128 + (8 * j + t) * 8 + r % 8;
                                let to = j * 128 + r * 8 + t;
                                out[to * 4..to * 4 + 4]
                                    .copy_from_slice(&sq[from * 4..from * 4 + 4]);
                            }
                        }
                    }
                }
            }
            let mem = core.mem.bytes_mut(hw);
            for j in 0..fractals {
                let d = (d0 + i * dst_step + j * frac_step) as usize;
                mem[d..d + 512].copy_from_slice(&out[(j * 512) as usize..(j * 512 + 512) as usize]);
            }
        }
        let acc = [
            Access {
                write: false,
                space: Space::Local(Hardware::L1),
                base: s0 + params.start_index as u64 * square,
                len: square as u32,
                blocks: n as u32,
                block_stride: params.src_stride as u64 * square,
                repeats: 1,
                repeat_stride: 0,
            },
            Access {
                write: true,
                space: Space::Local(hw),
                base: d0,
                len: 512,
                blocks: fractals as u32,
                block_stride: frac_step,
                repeats: n as u32,
                repeat_stride: dst_step,
            },
        ];
        core.issue(Pipe::MTE1, API_T, loc, &acc);
        Ok(())
    })
}
