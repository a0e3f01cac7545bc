//! `BroadCastVecToMM` (Atlas inference series AI Core): vectors in the Unified Buffer broadcast
//! into L0C fractals on PIPE_V. Every 16 elements of a source block become one 16 × 16 fractal
//! whose rows are all those 16 elements (the usual way to start a matmul from its bias).

use super::support::cube_facts;
use super::{operand, require};
use crate::api::context::with_core;
use crate::api::tensor::LocalTensor;
use crate::core::trace::{Access, Pipe, Space};
use crate::dtype::{DType, Element};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::position::Hardware;

const API: &str = "BroadCastVecToMM";

/// `BroadCastVecToMM(dst, src, blockCount, blockLen, srcGap, dstGap)`: block `b` of the source
/// (`blockLen · 16` elements, `srcGap` 32-byte blocks after the previous one) fills the
/// `blockLen` fractals starting at fractal `b · (blockLen + dstGap)` of `dst` (CO1, L0C). The
/// destination starts 256-element aligned; half, int32_t and float, the same on both sides.
#[track_caller]
pub fn broad_cast_vec_to_mm<T: Element, U: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<U>,
    block_count: i32,
    block_len: u8,
    src_gap: u8,
    dst_gap: u8,
) -> Result<()> {
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        require(
            core,
            API,
            cube_facts(core.profile).broadcast_vec_to_mm,
            "BroadCastVecToMM",
        )?;
        if T::DTYPE != U::DTYPE || !matches!(T::DTYPE, DType::Half | DType::Int32 | DType::Float) {
            return Err(SimError::new(
                Category::Type,
                API,
                format!(
                    "{} → {} is not supported: the source and destination are both half, int32_t or float",
                    U::DTYPE,
                    T::DTYPE
                ),
            ));
        }
        if !(1..=255).contains(&block_count) {
            return Err(SimError::range(API, "blockCount", block_count, "[1, 255]"));
        }
        if block_len == 0 {
            return Err(SimError::range(API, "blockLen", block_len, "[1, 255]"));
        }
        let es = T::SIZE as u64;
        let (n, len) = (block_count as u64, block_len as u64);
        let src_block = len * 16 * es;
        let src_step = src_block + src_gap as u64 * 32;
        let frac = 256 * es;
        let dst_step = (len + dst_gap as u64) * frac;
        operand(
            core,
            loc,
            API,
            "source",
            src,
            Hardware::UB,
            "VECIN/VECCALC/VECOUT",
            32,
            (n - 1) * src_step + src_block,
        )?;
        operand(
            core,
            loc,
            API,
            "destination",
            dst,
            Hardware::L0C,
            "CO1",
            frac as u32,
            (n - 1) * dst_step + len * frac,
        )?;
        let (s0, d0) = (src.addr as u64, dst.addr as u64);
        let cl = (16 * es) as usize;
        let mut chunk = vec![0u8; cl];
        for b in 0..n {
            for j in 0..len {
                let s = (s0 + b * src_step + j * 16 * es) as usize;
                chunk.copy_from_slice(&core.mem.bytes(Hardware::UB)[s..s + cl]);
                let d = (d0 + b * dst_step + j * frac) as usize;
                let rows = &mut core.mem.bytes_mut(Hardware::L0C)[d..d + frac as usize];
                for row in rows.chunks_exact_mut(cl) {
                    row.copy_from_slice(&chunk);
                }
            }
        }
        let acc = [
            Access {
                write: false,
                space: Space::Local(Hardware::UB),
                base: s0,
                len: src_block as u32,
                blocks: n as u32,
                block_stride: src_step,
                repeats: 1,
                repeat_stride: 0,
            },
            Access {
                write: true,
                space: Space::Local(Hardware::L0C),
                base: d0,
                len: (len * frac) as u32,
                blocks: n as u32,
                block_stride: dst_step,
                repeats: 1,
                repeat_stride: 0,
            },
        ];
        core.issue(Pipe::V, API, loc, &acc);
        Ok(())
    })
}
