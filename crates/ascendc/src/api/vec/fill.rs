//! Broadcast and index fills: Brcb (one element per 32-byte block) and CreateVecIndex
//! (`firstValue + i`).

use super::binary::lanes_for;
use super::operand::{bytes, Ub};
use super::{check_dtype, run, support, Count, Issue, Mask, Opnd};
use crate::api::context::with_core;
use crate::api::tensor::LocalTensor;
use crate::core::trace::Pipe;
use crate::core::vector::{for_lanes, BLOCK};
use crate::dtype::Element;
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::numeric::Arith;
use crate::position::Hardware;

/// `BrcbRepeatParams`: destination strides of Brcb in 32-byte blocks (the other fields of the
/// vendor struct are reserved and ignored).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BrcbRepeatParams {
    /// Block stride inside a repeat (0 is refused: undefined behaviour on the device).
    pub dst_blk_stride: u16,
    /// Repeat stride.
    pub dst_rep_stride: u16,
}

impl BrcbRepeatParams {
    /// `{dstBlkStride, dstRepStride}`.
    pub const fn new(dst_blk_stride: u16, dst_rep_stride: u16) -> Self {
        BrcbRepeatParams {
            dst_blk_stride,
            dst_rep_stride,
        }
    }
}

impl Default for BrcbRepeatParams {
    fn default() -> Self {
        BrcbRepeatParams::new(1, 8)
    }
}

/// `Brcb(dst, src, repeatTime, repeatParams)`: repeat `r` reads `src[8r .. 8r + 8]` (contiguous)
/// and fills block `j` at `dst + (r·dstRepStride + j·dstBlkStride)·32` with copies of element
/// `8r + j`. `repeat_time` in [0, 255]; strides in 32-byte blocks.
#[track_caller]
pub fn brcb<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    repeat_time: u8,
    params: BrcbRepeatParams,
) -> Result<()> {
    let api = "Brcb";
    let loc = SourceLoc::caller();
    with_core(api, loc, |core| {
        check_dtype(core, api, T::DTYPE, &support::BRCB)?;
        let d = Ub::of(api, "dst", dst, BLOCK)?;
        let s = Ub::of(api, "src", src, BLOCK)?;
        if d.addr == s.addr {
            return Err(SimError::new(
                Category::Overlap,
                api,
                "`dst` and `src` start at the same address: source and destination must be different memory",
            ));
        }
        if params.dst_blk_stride == 0 {
            return Err(SimError::range(
                api,
                "repeatParams.dstBlkStride",
                0,
                "[1, 65535] (0 is undefined behaviour)",
            ));
        }
        if repeat_time == 0 {
            core.warn(
                Category::Nop,
                api,
                "repeatTime = 0: the instruction does nothing",
                loc,
            );
            return Ok(());
        }
        let size = T::SIZE as u64;
        let n = repeat_time as u64 * 8;
        s.fits(
            api,
            s.addr + n * size,
            &format!("{n} elements (8 per repeat)"),
        )?;
        let at = |r: u64, j: u64| {
            d.addr + (r * params.dst_rep_stride as u64 + j * params.dst_blk_stride as u64) * BLOCK
        };
        let end = (0..repeat_time as u64)
            .map(|r| at(r, 7))
            .max()
            .unwrap_or(d.addr)
            + BLOCK;
        d.fits(api, end, "the repeats and strides of the call")?;
        let ub = core.mem.bytes_mut(Hardware::UB);
        let vals: Vec<u8> = bytes(ub, s.addr, (n * size) as usize).to_vec();
        for i in 0..n {
            let v = &vals[(i * size) as usize..((i + 1) * size) as usize];
            let b = at(i / 8, i % 8) as usize;
            for c in ub[b..b + BLOCK as usize].chunks_exact_mut(size as usize) {
                c.copy_from_slice(v);
            }
        }
        let dst_acc = crate::core::trace::Access {
            write: true,
            space: crate::core::trace::Space::Local(Hardware::UB),
            base: d.addr,
            len: BLOCK as u32,
            blocks: 8,
            block_stride: params.dst_blk_stride as u64 * BLOCK,
            repeats: repeat_time as u32,
            repeat_stride: params.dst_rep_stride as u64 * BLOCK,
        };
        core.issue(
            Pipe::V,
            api,
            loc,
            &[dst_acc, Ub::access(false, s.addr, s.addr + n * size)],
        );
        Ok(())
    })
}

fn create_vec_index_run<T: Arith>(
    loc: SourceLoc,
    dst: &LocalTensor<T>,
    first_value: T,
    issue: Issue,
    blk: u16,
    rep: u8,
) -> Result<()> {
    const API: &str = "CreateVecIndex";
    with_core(API, loc, |core| {
        check_dtype(core, API, T::DTYPE, &support::CREATE_VEC_INDEX)?;
        let sat = core.vector.fp16_saturation;
        let base = dst.addr as u64;
        let ops = [Opnd::of("dst", dst, blk as u32, rep as u32, true)];
        run(
            core,
            API,
            loc,
            lanes_for(T::SIZE),
            issue,
            &ops,
            |ub, shape, o| {
                // The instruction's first element (level 2 splits into several instructions).
                let first = (o[0].addr - base) / T::SIZE as u64;
                for r in 0..shape.repeats {
                    for_lanes(shape.bits(r), shape.lanes, |k| {
                        let i = first + r as u64 * shape.lanes as u64 + k as u64;
                        let v = T::add(first_value, T::from_f64(i as f64), sat);
                        let a = o[0].lane_addr(T::SIZE, r, k) as usize;
                        ub[a..a + T::SIZE].copy_from_slice(bytemuck::bytes_of(&v));
                    });
                }
            },
        )
    })
}

/// `CreateVecIndex(dst, firstValue, count)`: `dst[i] = firstValue + i` for the first `count`
/// elements (computed in `T`: half rounds to nearest even, int16 wraps).
#[track_caller]
pub fn create_vec_index<T: Arith>(
    dst: &LocalTensor<T>,
    first_value: T,
    count: impl Into<Count>,
) -> Result<()> {
    create_vec_index_run(
        SourceLoc::caller(),
        dst,
        first_value,
        count.into().into(),
        1,
        8,
    )
}

/// `CreateVecIndex(dst, firstValue, mask, repeatTime, dstBlkStride, dstRepStride)`: level 0;
/// lane `k` of repeat `r` gets `firstValue + r·L + k` (L lanes per repeat). Strides in 32-byte
/// blocks.
#[track_caller]
pub fn create_vec_index_l0<T: Arith>(
    dst: &LocalTensor<T>,
    first_value: T,
    mask: impl Into<Mask>,
    repeat_time: u8,
    dst_blk_stride: u16,
    dst_rep_stride: u8,
) -> Result<()> {
    create_vec_index_run(
        SourceLoc::caller(),
        dst,
        first_value,
        Issue::level0(mask, repeat_time),
        dst_blk_stride,
        dst_rep_stride,
    )
}
