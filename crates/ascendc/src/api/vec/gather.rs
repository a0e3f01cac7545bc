//! Gather, scatter and compaction: GatherMask (built-in or tensor bit pattern, normal or counter
//! mode, the kept-element count), Gather (byte offsets per element, level 0 and level 2),
//! Gatherb (byte offsets per 32-byte block) and Scatter (byte offsets per element).
//!
//! Elements move as bit copies. Every offset is validated (alignment, inside the tensor it
//! addresses) before anything is written; the instruction record holds the byte hull of each
//! operand.

use super::operand::{bytes, plan, u32_at, Ub};
use super::support::{self, GatherMaskCounter};
use super::{check_dtype, Count, Issue, Mask};
use crate::api::context::with_core;
use crate::api::tensor::LocalTensor;
use crate::core::trace::Pipe;
use crate::core::vector::{for_lanes, Shape, BLOCK};
use crate::core::Core;
use crate::dtype::{DType, Element};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::position::Hardware;

/// `GatherMaskParams`: strides of a GatherMask, in 32-byte blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GatherMaskParams {
    /// Block stride of `src0` inside a repeat.
    pub src0_block_stride: u8,
    /// Repeats, [0, 255] (ignored in counter mode on the Atlas inference series).
    pub repeat_times: u16,
    /// `src0` repeat stride.
    pub src0_repeat_stride: u16,
    /// Pattern-tensor repeat stride (ignored for built-in patterns).
    pub src1_repeat_stride: u8,
}

impl GatherMaskParams {
    /// `{src0BlockStride, repeatTimes, src0RepeatStride, src1RepeatStride}`.
    pub const fn new(
        src0_block_stride: u8,
        repeat_times: u16,
        src0_repeat_stride: u16,
        src1_repeat_stride: u8,
    ) -> Self {
        GatherMaskParams {
            src0_block_stride,
            repeat_times,
            src0_repeat_stride,
            src1_repeat_stride,
        }
    }
}

impl Default for GatherMaskParams {
    fn default() -> Self {
        GatherMaskParams::new(1, 0, 0, 0)
    }
}

/// `GatherRepeatParams`: destination strides of Gatherb, in 32-byte blocks (the other fields of
/// the vendor struct are reserved and ignored).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GatherRepeatParams {
    /// Block stride inside a repeat.
    pub dst_blk_stride: u8,
    /// Repeat stride.
    pub dst_rep_stride: u16,
}

impl GatherRepeatParams {
    /// `{dstBlkStride, dstRepStride}`.
    pub const fn new(dst_blk_stride: u8, dst_rep_stride: u16) -> Self {
        GatherRepeatParams {
            dst_blk_stride,
            dst_rep_stride,
        }
    }
}

impl Default for GatherRepeatParams {
    fn default() -> Self {
        GatherRepeatParams::new(1, 8)
    }
}

/// Where the bits of a GatherMask pattern come from.
#[derive(Debug, Clone, Copy)]
enum Pattern {
    /// Built-in pattern 1–7.
    Builtin(u8),
    /// A pattern tensor; the start of repeat `r` is `addr + r·stride·32`.
    Tensor(Ub, u32),
}

impl Pattern {
    fn bit(&self, ub: &[u8], r: u32, k: u32) -> bool {
        match *self {
            Pattern::Builtin(p) => match p {
                1 => k.is_multiple_of(2),
                2 => k % 2 == 1,
                3..=6 => k % 4 == (p - 3) as u32,
                _ => true,
            },
            Pattern::Tensor(t, stride) => {
                let at = t.addr + r as u64 * stride as u64 * BLOCK + (k / 8) as u64;
                ub[at as usize] >> (k % 8) & 1 == 1
            }
        }
    }
}

const GATHER_MASK: &str = "GatherMask";

#[allow(clippy::too_many_arguments)]
fn gather_mask_run<T: Element>(
    loc: SourceLoc,
    dst: &LocalTensor<T>,
    src0: &LocalTensor<T>,
    pattern: impl FnOnce(&Core) -> Result<Pattern>,
    pattern_bytes_ok: impl Fn(u64, u32) -> Result<()>,
    reduce_mode: bool,
    mask: u32,
    p: GatherMaskParams,
) -> Result<u64> {
    let api = GATHER_MASK;
    with_core(api, loc, |core| {
        check_dtype(core, api, T::DTYPE, &support::GATHER_MASK)?;
        let product = core.profile.product as usize;
        let d = Ub::of(api, "dst", dst, BLOCK)?;
        let s = Ub::of(api, "src0", src0, BLOCK)?;
        let pattern = pattern(core)?;
        if p.repeat_times > 255 {
            return Err(SimError::range(
                api,
                "gatherMaskParams.repeatTimes",
                p.repeat_times,
                "[0, 255]",
            ));
        }
        let size = T::SIZE as u64;
        let e = (BLOCK / size) as u32;
        let l = 256 / T::SIZE as u32;
        // Elements of each repeat.
        let per_repeat: Vec<u32> = if !reduce_mode {
            vec![l; p.repeat_times as usize]
        } else {
            if mask == 0 {
                return Err(SimError::range(
                    api,
                    "mask",
                    0,
                    "[1, 2^32 − 1] in counter mode (reduceMode = true)",
                ));
            }
            match support::GATHER_MASK_COUNTER[product] {
                GatherMaskCounter::PerRepeat => vec![mask; p.repeat_times as usize],
                GatherMaskCounter::Total => {
                    let reps = mask.div_ceil(l);
                    (0..reps).map(|r| (mask - r * l).min(l)).collect()
                }
            }
        };
        if per_repeat.is_empty() {
            core.warn(
                Category::Nop,
                api,
                "repeatTimes = 0: the instruction does nothing",
                loc,
            );
            core.spr.gather_mask_count = Some(0);
            return Ok(0);
        }
        let blk = p.src0_block_stride as u64 * BLOCK;
        let rep = p.src0_repeat_stride as u64 * BLOCK;
        let elem_at = |r: u32, k: u32| -> u64 {
            s.addr + r as u64 * rep + (k / e) as u64 * blk + (k % e) as u64 * size
        };
        let mut src_end = s.addr;
        for (r, &n) in per_repeat.iter().enumerate() {
            let r = r as u32;
            src_end = src_end.max(elem_at(r, n - 1) + size);
            pattern_bytes_ok(r as u64, n)?;
        }
        s.fits(api, src_end, "the repeats and strides of the call")?;
        let ub = core.mem.bytes_mut(Hardware::UB);
        let mut kept: Vec<u8> = Vec::new();
        for (r, &n) in per_repeat.iter().enumerate() {
            for k in 0..n {
                if pattern.bit(ub, r as u32, k) {
                    kept.extend_from_slice(bytes(ub, elem_at(r as u32, k), T::SIZE));
                }
            }
        }
        let count = (kept.len() / T::SIZE) as u64;
        d.fits(
            api,
            d.addr + kept.len() as u64,
            &format!("the {count} kept elements"),
        )?;
        ub[d.addr as usize..d.addr as usize + kept.len()].copy_from_slice(&kept);
        // Counter mode leaves the mask register holding the count, and the mode normal.
        if reduce_mode {
            core.vector.mask = [mask as u64, 0];
        }
        core.vector.counter_mode = false;
        core.spr.gather_mask_count = Some(count);
        let mut acc = vec![
            Ub::access(true, d.addr, d.addr + kept.len() as u64),
            Ub::access(false, s.addr, src_end),
        ];
        if let Pattern::Tensor(t, stride) = pattern {
            let last = per_repeat.len() as u64 - 1;
            let n = *per_repeat.last().unwrap_or(&0);
            let end = t.addr + last * stride as u64 * BLOCK + (n as u64).div_ceil(8);
            acc.push(Ub::access(false, t.addr, end.max(t.addr + (l as u64) / 8)));
        }
        core.issue(Pipe::V, api, loc, &acc);
        Ok(count)
    })
}

/// `GatherMask(dst, src0, src1Pattern, reduceMode, mask, gatherMaskParams, rsvdCnt)` with a
/// built-in pattern: keeps the elements of `src0` whose pattern bit is 1 and writes them packed
/// from the start of `dst`; returns `rsvdCnt`, the number kept.
///
/// `src1_pattern`: 1 even elements, 2 odd elements, 3–6 the first … fourth of every four, 7 all
/// (1–6 on the Atlas inference series). `reduce_mode = false` (normal): `repeat_times` repeats of
/// 256 bytes, `mask` ignored; `true` (counter): `mask` ∈ [1, 2^32 − 1] elements per repeat
/// (A2/A3/310B) or in total with `repeatTimes` ignored (310P). Strides in 32-byte blocks. After
/// the call the mask mode is normal (a counter-mode call leaves `[mask, 0]` in the mask register).
#[track_caller]
pub fn gather_mask<T: Element>(
    dst: &LocalTensor<T>,
    src0: &LocalTensor<T>,
    src1_pattern: u8,
    reduce_mode: bool,
    mask: u32,
    params: GatherMaskParams,
) -> Result<u64> {
    gather_mask_run(
        SourceLoc::caller(),
        dst,
        src0,
        |core| {
            let max = support::GATHER_MASK_PATTERN_MAX[core.profile.product as usize];
            if !(1..=max).contains(&src1_pattern) {
                return Err(SimError::range(
                    GATHER_MASK,
                    "src1Pattern",
                    src1_pattern,
                    format!("[1, {max}] on {}", core.profile.soc),
                ));
            }
            Ok(Pattern::Builtin(src1_pattern))
        },
        |_, _| Ok(()),
        reduce_mode,
        mask,
        params,
    )
}

/// `GatherMask(dst, src0, src1Pattern, reduceMode, mask, gatherMaskParams, rsvdCnt)` with a
/// pattern tensor: bit `k` (little-endian within each byte) of the bytes at
/// `src1Pattern + r·src1RepeatStride·32` selects element `k` of repeat `r`. `U` is uint16 for
/// 2-byte and uint32 for 4-byte `T`. Otherwise as [`gather_mask`].
#[track_caller]
pub fn gather_mask_tensor<T: Element, U: Element>(
    dst: &LocalTensor<T>,
    src0: &LocalTensor<T>,
    src1_pattern: &LocalTensor<U>,
    reduce_mode: bool,
    mask: u32,
    params: GatherMaskParams,
) -> Result<u64> {
    let t = *src1_pattern;
    let stride = params.src1_repeat_stride as u64 * BLOCK;
    gather_mask_run(
        SourceLoc::caller(),
        dst,
        src0,
        |_| {
            let want = if T::SIZE == 2 {
                DType::Uint16
            } else {
                DType::Uint32
            };
            if U::DTYPE != want {
                return Err(SimError::new(
                    Category::Type,
                    GATHER_MASK,
                    format!(
                        "pattern tensor element type {} does not match {}: the pattern of a {} GatherMask is {want}",
                        U::DTYPE,
                        T::DTYPE,
                        T::DTYPE
                    ),
                ));
            }
            Ok(Pattern::Tensor(
                Ub::of(GATHER_MASK, "src1Pattern", &t, BLOCK)?,
                params.src1_repeat_stride as u32,
            ))
        },
        move |r, n| {
            let ub = Ub {
                name: "src1Pattern",
                addr: t.addr as u64,
                len: t.len as u64,
            };
            ub.fits(
                GATHER_MASK,
                ub.addr + r * stride + (n as u64).div_ceil(8),
                &format!("the pattern bits of repeat {r} ({n} elements)"),
            )
        },
        reduce_mode,
        mask,
        params,
    )
}

/// `GetGatherMaskRemainCount()`: the `rsvdCnt` of the last GatherMask on this core (an earlier
/// spelling, not in the index). Errors before the first GatherMask.
#[track_caller]
pub fn get_gather_mask_remain_count() -> Result<u64> {
    let api = "GetGatherMaskRemainCount";
    let loc = SourceLoc::caller();
    with_core(api, loc, |core| {
        let n = core.spr.gather_mask_count.ok_or_else(|| {
            SimError::new(
                Category::QueueState,
                api,
                "no GatherMask has run on this core: there is no kept-element count",
            )
        })?;
        core.issue(Pipe::S, api, loc, &[]);
        Ok(n)
    })
}

/// Lanes of one Gather/Scatter repeat: 8 blocks, 4 for 8-bit elements.
fn index_lanes(size: usize) -> u32 {
    if size == 1 {
        128
    } else {
        256 / size as u32
    }
}

/// The documented limit of a byte offset for `size`-byte elements on this product.
fn offset_limit(core: &Core, size: usize) -> u64 {
    if support::GATHER_SMALL_OFFSET_LIMITS[core.profile.product as usize] {
        match size {
            1 => (1 << 16) - 1,
            2 => (1 << 17) - 1,
            _ => u32::MAX as u64,
        }
    } else {
        u32::MAX as u64
    }
}

/// Checks one element byte offset of Gather/Scatter: width alignment, documented limit, inside
/// the addressed tensor.
#[allow(clippy::too_many_arguments)]
fn check_offset(
    api: &'static str,
    param: &str,
    i: u64,
    base: u64,
    off: u32,
    size: usize,
    limit: u64,
    target: &Ub,
) -> Result<u64> {
    if off as u64 > limit {
        return Err(SimError::range(
            api,
            &format!("{param}[{i}]"),
            off,
            format!("[0, {limit}] bytes for {}-byte elements", size),
        ));
    }
    let rel = base + off as u64;
    if !rel.is_multiple_of(size as u64) {
        return Err(SimError::new(
            Category::Align,
            api,
            format!(
                "{param}[{i}] = {off} (+ base {base}) = byte {rel} is not a multiple of the element size {size}"
            ),
        ));
    }
    let at = target.addr + rel;
    if at + size as u64 > target.end() {
        return Err(SimError::new(
            Category::Size,
            api,
            format!(
                "{param}[{i}] = {off} (+ base {base}) addresses bytes {rel}..{} of `{}`, which has only {} bytes",
                rel + size as u64,
                target.name,
                target.len
            ),
        ));
    }
    Ok(at)
}

/// Every enabled (repeat, lane, linear index) of a shape.
fn lanes_of(shape: &Shape) -> Vec<(u32, u32, u64)> {
    let mut v = Vec::new();
    for r in 0..shape.repeats {
        for_lanes(shape.bits(r), shape.lanes, |k| {
            v.push((r, k, r as u64 * shape.lanes as u64 + k as u64))
        });
    }
    v
}

/// Shared body of Gather (`scatter = false`) and Scatter.
#[allow(clippy::too_many_arguments)]
fn index_move<T: Element>(
    api: &'static str,
    loc: SourceLoc,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    offset: &LocalTensor<u32>,
    base: u32,
    issue: Issue,
    rep_stride: u16,
    scatter: bool,
) -> Result<()> {
    with_core(api, loc, |core| {
        let table = if scatter {
            &support::SCATTER
        } else {
            &support::GATHER
        };
        check_dtype(core, api, T::DTYPE, table)?;
        let d = Ub::of(api, "dst", dst, BLOCK)?;
        let s = Ub::of(api, "src", src, BLOCK)?;
        let off_name = if scatter { "dstOffset" } else { "srcOffset" };
        let o = Ub::of(api, off_name, offset, BLOCK)?;
        if d.addr == s.addr {
            return Err(SimError::new(
                Category::Overlap,
                api,
                "`dst` and `src` start at the same address: source and destination must be different memory",
            ));
        }
        let size = T::SIZE;
        let l = index_lanes(size);
        let Some(shape) = plan(core, api, loc, l, issue)? else {
            return Ok(());
        };
        let level0 = matches!(issue, Issue::Level0 { .. });
        // The strided side (dst of Gather, src of Scatter): level 2 dense, level 0 by rep stride.
        let strided_at = |r: u32, k: u32, t: &Ub| -> u64 {
            let step = if level0 {
                rep_stride as u64 * BLOCK
            } else {
                l as u64 * size as u64
            };
            t.addr + r as u64 * step + k as u64 * size as u64
        };
        let limit = offset_limit(core, size);
        let (strided, indexed) = if scatter { (s, d) } else { (d, s) };
        let lanes = lanes_of(&shape);
        let last = lanes.iter().map(|&(_, _, i)| i).max().unwrap_or(0);
        o.fits(
            api,
            o.addr + (last + 1) * 4,
            &format!("{} offsets", last + 1),
        )?;
        let strided_end = lanes
            .iter()
            .map(|&(r, k, _)| strided_at(r, k, &strided) + size as u64)
            .max()
            .unwrap_or(strided.addr);
        strided.fits(api, strided_end, "the repeats and strides of the call")?;
        let ub = core.mem.bytes_mut(Hardware::UB);
        let mut moves = Vec::with_capacity(lanes.len());
        let (mut lo, mut hi) = (u64::MAX, 0);
        for &(r, k, i) in &lanes {
            let off = u32_at(ub, o.addr + i * 4);
            let at = check_offset(api, off_name, i, base as u64, off, size, limit, &indexed)?;
            lo = lo.min(at);
            hi = hi.max(at + size as u64);
            moves.push((strided_at(r, k, &strided), at, i));
        }
        if scatter {
            let mut seen: Vec<(u64, u64)> = moves.iter().map(|&(_, at, i)| (at, i)).collect();
            seen.sort_unstable();
            if let Some(w) = seen.windows(2).find(|w| w[0].0 == w[1].0) {
                return Err(SimError::new(
                    Category::Overlap,
                    api,
                    format!(
                        "dstOffset[{}] and dstOffset[{}] address the same element (byte {} of `dst`): offsets must be distinct",
                        w[0].1,
                        w[1].1,
                        w[0].0 - d.addr
                    ),
                ));
            }
        }
        let vals: Vec<Vec<u8>> = moves
            .iter()
            .map(|&(sa, ia, _)| bytes(ub, if scatter { sa } else { ia }, size).to_vec())
            .collect();
        for (&(sa, ia, _), v) in moves.iter().zip(&vals) {
            let to = if scatter { ia } else { sa } as usize;
            ub[to..to + size].copy_from_slice(v);
        }
        let (read_lo, read_hi, write_lo, write_hi) = if scatter {
            (strided.addr, strided_end, lo, hi)
        } else {
            (lo, hi, strided.addr, strided_end)
        };
        core.issue(
            Pipe::V,
            api,
            loc,
            &[
                Ub::access(true, write_lo, write_hi),
                Ub::access(false, read_lo, read_hi),
                Ub::access(false, o.addr, o.addr + (last + 1) * 4),
            ],
        );
        Ok(())
    })
}

/// `Gather(dst, src, srcOffset, srcBaseAddr, count)`: `dst[i]` = the element at byte
/// `srcBaseAddr + srcOffset[i]` of `src`, for the first `count` elements. Offsets and base in
/// bytes, aligned to the element width, inside `src`.
#[track_caller]
pub fn gather<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    src_offset: &LocalTensor<u32>,
    src_base_addr: u32,
    count: impl Into<Count>,
) -> Result<()> {
    let issue = Issue::from(count.into());
    index_move(
        "Gather",
        SourceLoc::caller(),
        dst,
        src,
        src_offset,
        src_base_addr,
        issue,
        0,
        false,
    )
}

/// `Gather(dst, src, srcOffset, srcBaseAddr, mask, repeatTime, dstRepStride)`: level 0; lane `k`
/// of repeat `r` reads offset `r·L + k` (L = 256 bytes of elements, 128 for 8-bit) and writes
/// `dst + r·dstRepStride·32 + k·size`. `dst_rep_stride` in 32-byte blocks.
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn gather_l0<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    src_offset: &LocalTensor<u32>,
    src_base_addr: u32,
    mask: impl Into<Mask>,
    repeat_time: u8,
    dst_rep_stride: u16,
) -> Result<()> {
    index_move(
        "Gather",
        SourceLoc::caller(),
        dst,
        src,
        src_offset,
        src_base_addr,
        Issue::level0(mask, repeat_time),
        dst_rep_stride,
        false,
    )
}

/// `Scatter(dst, src, dstOffset, dstBaseAddr, count)`: the element `src[i]` goes to byte
/// `dstBaseAddr + dstOffset[i]` of `dst`, for the first `count` elements. Offsets in bytes,
/// aligned to the element width, inside `dst` and distinct.
#[track_caller]
pub fn scatter<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    dst_offset: &LocalTensor<u32>,
    dst_base_addr: u32,
    count: impl Into<Count>,
) -> Result<()> {
    let issue = Issue::from(count.into());
    index_move(
        "Scatter",
        SourceLoc::caller(),
        dst,
        src,
        dst_offset,
        dst_base_addr,
        issue,
        0,
        true,
    )
}

/// `Scatter(dst, src, dstOffset, dstBaseAddr, mask, repeatTime, srcRepStride)`: level 0; lane `k`
/// of repeat `r` reads `src + r·srcRepStride·32 + k·size` and offset `r·L + k`.
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn scatter_l0<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    dst_offset: &LocalTensor<u32>,
    dst_base_addr: u32,
    mask: impl Into<Mask>,
    repeat_time: u8,
    src_rep_stride: u8,
) -> Result<()> {
    index_move(
        "Scatter",
        SourceLoc::caller(),
        dst,
        src,
        dst_offset,
        dst_base_addr,
        Issue::level0(mask, repeat_time),
        src_rep_stride as u16,
        true,
    )
}

/// `Gatherb(dst, src, offset, repeatTime, repeatParams)`: per repeat 8 blocks of 32 bytes; block
/// `j` of repeat `r` is copied from byte `offset[8r + j]` of `src` (32-byte aligned, inside
/// `src`) to `dst + (r·dstRepStride + j·dstBlkStride)·32`. `repeat_time` in [0, 255].
#[track_caller]
pub fn gatherb<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    offset: &LocalTensor<u32>,
    repeat_time: u8,
    params: GatherRepeatParams,
) -> Result<()> {
    let api = "Gatherb";
    let loc = SourceLoc::caller();
    with_core(api, loc, |core| {
        check_dtype(core, api, T::DTYPE, &support::GATHERB)?;
        let d = Ub::of(api, "dst", dst, BLOCK)?;
        let s = Ub::of(api, "src", src, BLOCK)?;
        let o = Ub::of(api, "offset", offset, BLOCK)?;
        if d.addr == s.addr {
            return Err(SimError::new(
                Category::Overlap,
                api,
                "`dst` and `src` start at the same address: source and destination must be different memory",
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
        let blk = match params.dst_blk_stride {
            0 if support::GATHERB_BLK_ZERO_IS_ONE[core.profile.product as usize] => 1,
            b => b,
        } as u64;
        let blocks = repeat_time as u64 * 8;
        o.fits(api, o.addr + blocks * 4, &format!("{blocks} block offsets"))?;
        let dst_at = |r: u64, j: u64| d.addr + (r * params.dst_rep_stride as u64 + j * blk) * BLOCK;
        let dst_end = (0..repeat_time as u64)
            .flat_map(|r| [dst_at(r, 0), dst_at(r, 7)])
            .max()
            .unwrap_or(d.addr)
            + BLOCK;
        d.fits(api, dst_end, "the repeats and strides of the call")?;
        let ub = core.mem.bytes_mut(Hardware::UB);
        let mut moves = Vec::with_capacity(blocks as usize);
        let (mut lo, mut hi) = (u64::MAX, 0);
        for i in 0..blocks {
            let off = u32_at(ub, o.addr + i * 4);
            if !(off as u64).is_multiple_of(BLOCK) {
                return Err(SimError::new(
                    Category::Align,
                    api,
                    format!("offset[{i}] = {off} bytes is not a multiple of 32 (a block offset)"),
                ));
            }
            let at = s.addr + off as u64;
            s.fits(api, at + BLOCK, &format!("offset[{i}] = {off}"))?;
            lo = lo.min(at);
            hi = hi.max(at + BLOCK);
            moves.push((at, dst_at(i / 8, i % 8)));
        }
        let data: Vec<u8> = moves
            .iter()
            .flat_map(|&(from, _)| bytes(ub, from, BLOCK as usize).to_vec())
            .collect();
        for (i, &(_, to)) in moves.iter().enumerate() {
            let b = &data[i * BLOCK as usize..(i + 1) * BLOCK as usize];
            ub[to as usize..(to + BLOCK) as usize].copy_from_slice(b);
        }
        core.issue(
            Pipe::V,
            api,
            loc,
            &[
                Ub::access(true, d.addr, dst_end),
                Ub::access(false, lo, hi),
                Ub::access(false, o.addr, o.addr + blocks * 4),
            ],
        );
        Ok(())
    })
}
