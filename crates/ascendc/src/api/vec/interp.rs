//! BilinearInterpolation: gather 32-byte blocks of `src0` by byte offset, weight each by an
//! element of `src1` and sum the weighted blocks of `hRepeat` horizontal iterations, for
//! `vRepeat` vertical iterations.

use super::layout_support::{self as table, BilinearTmp};
use super::operand::{plan, u32_at, Ub};
use super::{check_dtype, Issue, Mask};
use crate::api::context::with_core;
use crate::api::tensor::LocalTensor;
use crate::core::trace::{Access, Pipe, Space};
use crate::core::vector::BLOCK;
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::numeric::Arith;
use crate::position::Hardware;

const API: &str = "BilinearInterpolation";

/// The loop counts and strides of a BilinearInterpolation call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct BilinearParams {
    /// Horizontal iterations summed into one output, [1, 255].
    h_repeat: u8,
    /// false: one `src1` element weights all 8 blocks of an iteration; true: one `src1` element
    /// per block (8 per iteration).
    repeat_mode: bool,
    /// Destination stride between the 8 blocks of an iteration, in 32-byte blocks.
    dst_blk_stride: u16,
    /// Destination offset between vertical iterations, in elements: [128, 65535) and a multiple
    /// of 32 bytes.
    v_r_offset: u16,
    /// Vertical iterations, [1, 255].
    v_repeat: u8,
}

/// `BilinearInterpolation(dst, src0, src0Offset, src1, mask, hRepeat, repeatMode, dstBlkStride,
/// vROffset, vRepeat, sharedTmpBuffer)`.
///
/// Iteration `it = v·hRepeat + h` reads the 8 byte offsets `src0Offset[8·it .. 8·it + 8]`
/// (relative to `src0`, each landing on a 32-byte boundary inside UB) and the weights
/// `src1[it]` (`repeat_mode` false) or `src1[8·it + j]` for block `j` (true). Lane `16·j + i`
/// of vertical iteration `v` is `Σ_h block_j[i]·w`, each product and each partial sum rounded
/// to `T` (`h` in order), written to `dst + v·vROffset + j·dstBlkStride·32 bytes + i` where the
/// mask enables the lane. `shared_tmp_buffer` (bytes) must be as large as the product's rule.
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn bilinear_interpolation<T: Arith>(
    dst: &LocalTensor<T>,
    src0: &LocalTensor<T>,
    src0_offset: &LocalTensor<u32>,
    src1: &LocalTensor<T>,
    mask: impl Into<Mask>,
    h_repeat: u8,
    repeat_mode: bool,
    dst_blk_stride: u16,
    v_r_offset: u16,
    v_repeat: u8,
    shared_tmp_buffer: &LocalTensor<u8>,
) -> Result<()> {
    let loc = SourceLoc::caller();
    let p = BilinearParams {
        h_repeat,
        repeat_mode,
        dst_blk_stride,
        v_r_offset,
        v_repeat,
    };
    let mask = mask.into();
    with_core(API, loc, |core| {
        check_dtype(core, API, T::DTYPE, &table::BILINEAR_INTERPOLATION)?;
        let size = T::SIZE as u64;
        let d = Ub::of(API, "dst", dst, BLOCK)?;
        let s0 = Ub::of(API, "src0", src0, BLOCK)?;
        let so = Ub::of(API, "src0Offset", src0_offset, BLOCK)?;
        let s1 = Ub::of(API, "src1", src1, BLOCK)?;
        let tmp = Ub::of(API, "sharedTmpBuffer", shared_tmp_buffer, BLOCK)?;
        if p.h_repeat == 0 {
            return Err(SimError::range(API, "hRepeat", 0, "[1, 255]"));
        }
        if p.v_repeat == 0 {
            return Err(SimError::range(API, "vRepeat", 0, "[1, 255]"));
        }
        if p.v_r_offset < 128 || p.v_r_offset == u16::MAX {
            return Err(SimError::range(
                API,
                "vROffset",
                p.v_r_offset,
                "[128, 65535)",
            ));
        }
        if !(p.v_r_offset as u64 * size).is_multiple_of(BLOCK) {
            return Err(SimError::new(
                Category::Align,
                API,
                format!(
                    "vROffset·sizeof(T) = {}·{size} = {} bytes must be a multiple of 32",
                    p.v_r_offset,
                    p.v_r_offset as u64 * size
                ),
            ));
        }
        let need = match table::BILINEAR_TMP[core.profile.product as usize] {
            BilinearTmp::PerOffset => so.len / 4 * 4,
            BilinearTmp::PerElement => s0.len / size * 32 + s1.len / size * 32,
        };
        if tmp.len < need {
            return Err(SimError::new(
                Category::Size,
                API,
                format!(
                    "`sharedTmpBuffer` has {} bytes; {} needs at least {need} bytes here",
                    tmp.len, core.profile.soc
                ),
            ));
        }
        let iters = p.h_repeat as u64 * p.v_repeat as u64;
        so.fits(
            API,
            so.addr + iters * 8 * 4,
            &format!(
                "{} offsets (8 per iteration, hRepeat·vRepeat = {iters})",
                iters * 8
            ),
        )?;
        let weights = if p.repeat_mode { iters * 8 } else { iters };
        s1.fits(
            API,
            s1.addr + weights * size,
            &format!(
                "{weights} weights (repeatMode {}: {} per iteration)",
                p.repeat_mode,
                if p.repeat_mode { 8 } else { 1 }
            ),
        )?;
        let blk = p.dst_blk_stride as u64 * BLOCK;
        let vstep = p.v_r_offset as u64 * size;
        let one = 7 * blk + BLOCK;
        if p.v_repeat > 1 && vstep < one {
            return Err(SimError::new(
                Category::Overlap,
                API,
                format!("vROffset {} ({vstep} bytes) makes the destinations of two vertical iterations overlap (one iteration spans {one} bytes with dstBlkStride {})", p.v_r_offset, p.dst_blk_stride),
            ));
        }
        d.fits(
            API,
            d.addr + (p.v_repeat as u64 - 1) * vstep + one,
            "vRepeat iterations of 8 blocks",
        )?;
        let Some(shape) = plan(core, API, loc, 128, Issue::level0(mask, 1))? else {
            return Ok(());
        };
        let bits = shape.bits(0);
        let ub_size = core.mem.size(Hardware::UB) as u64;
        let ub = core.mem.bytes(Hardware::UB);
        let offsets: Vec<u64> = (0..iters * 8)
            .map(|k| u32_at(ub, so.addr + 4 * k) as u64)
            .collect();
        let (mut lo, mut hi) = (u64::MAX, 0);
        for (k, &off) in offsets.iter().enumerate() {
            let at = s0.addr + off;
            if !off.is_multiple_of(size) || !at.is_multiple_of(BLOCK) || at + BLOCK > ub_size {
                return Err(SimError::range(
                    API,
                    &format!("src0Offset[{k}]"),
                    off,
                    format!(
                        "byte offsets that are multiples of {size}, land src0 (UB byte {}) on a 32-byte boundary and keep the block inside UB ({ub_size} bytes)",
                        s0.addr
                    ),
                ));
            }
            lo = lo.min(at);
            hi = hi.max(at + BLOCK);
        }
        let used = [
            ("src0", lo, hi),
            ("src0Offset", so.addr, so.addr + iters * 32),
            ("src1", s1.addr, s1.addr + weights * size),
        ];
        for (i, a) in used.iter().enumerate() {
            for b in &used[i + 1..] {
                if a.1 < b.2 && b.1 < a.2 {
                    return Err(SimError::new(
                        Category::Overlap,
                        API,
                        format!(
                            "`{}` (UB bytes [{}, {})) overlaps `{}` (UB bytes [{}, {})): the sources must not overlap",
                            a.0, a.1, a.2, b.0, b.1, b.2
                        ),
                    ));
                }
            }
        }
        let sat = core.vector.fp16_saturation;
        let read = |ub: &[u8], at: u64| -> T {
            bytemuck::pod_read_unaligned(&ub[at as usize..at as usize + size as usize])
        };
        let mut out = vec![T::default(); (p.v_repeat as usize) * 128];
        for v in 0..p.v_repeat as u64 {
            for h in 0..p.h_repeat as u64 {
                let it = v * p.h_repeat as u64 + h;
                for j in 0..8u64 {
                    let w = read(
                        ub,
                        s1.addr + size * if p.repeat_mode { it * 8 + j } else { it },
                    );
                    let block = s0.addr + offsets[(it * 8 + j) as usize];
                    for i in 0..16u64 {
                        let prod = T::mul(read(ub, block + i * size), w, sat);
                        let slot = &mut out[(v * 128 + j * 16 + i) as usize];
                        *slot = if h == 0 {
                            prod
                        } else {
                            T::add(*slot, prod, sat)
                        };
                    }
                }
            }
        }
        let ub = core.mem.bytes_mut(Hardware::UB);
        for v in 0..p.v_repeat as u64 {
            for k in 0..128u64 {
                if bits[(k / 64) as usize] >> (k % 64) & 1 == 1 {
                    let at = (d.addr + v * vstep + (k / 16) * blk + (k % 16) * size) as usize;
                    ub[at..at + size as usize]
                        .copy_from_slice(bytemuck::bytes_of(&out[(v * 128 + k) as usize]));
                }
            }
        }
        let dst_acc = Access {
            write: true,
            space: Space::Local(Hardware::UB),
            base: d.addr,
            len: BLOCK as u32,
            blocks: 8,
            block_stride: blk,
            repeats: p.v_repeat as u32,
            repeat_stride: vstep,
        };
        core.issue(
            Pipe::V,
            API,
            loc,
            &[
                dst_acc,
                Ub::access(false, lo, hi),
                Ub::access(false, so.addr, so.addr + iters * 32),
                Ub::access(false, s1.addr, s1.addr + weights * size),
                Ub::access(true, tmp.addr, tmp.addr + need),
            ],
        );
        Ok(())
    })
}
