//! Sort32 and MrgSort: (score, index) pairs of 8 bytes (Atlas A2 / A3, Atlas 200I/500 A2).

use super::merge::{merge_run, Layout, MrgSort4Info, MrgSortSrcList};
use super::{descending, repeat_in, runs, scores, support};
use crate::api::context::with_core;
use crate::api::tensor::LocalTensor;
use crate::api::vec::check_dtype;
use crate::api::vec::operand::Ub;
use crate::core::trace::Pipe;
use crate::dtype::Element;
use crate::error::{Category, Result, SourceLoc};
use crate::position::Hardware;

/// Bytes of one (score, index) pair.
pub const PAIR_BYTES: u64 = 8;

/// Elements sorted by one Sort32 repeat.
const SORT32_ITEMS: u64 = 32;

/// `Sort32(dst, src0, src1, repeatTime)`: each repeat sorts 32 scores of `src0` (with their
/// `uint32_t` indices from `src1`) by descending score into 32 pairs of `dst`; equal scores keep
/// their input order. Per repeat `src0` moves 32 elements, `src1` 128 bytes and `dst` 256 bytes
/// (32 pairs, i.e. 64 floats or 128 halves). Pair layout: score in bytes 0–3 (float) or 0–1
/// (half, bytes 2–3 written as 0), index in bytes 4–7. `repeat_time` in [0, 255] (0 does
/// nothing). Starts: 32-byte aligned, as the page's parameter table asks (its repeat paragraph
/// speaks of 128/256-byte alignment, but the vendor's own TopK issues Sort32 on buffers that are
/// only 32-byte aligned).
#[track_caller]
pub fn sort32<T: Element>(
    dst: &LocalTensor<T>,
    src0: &LocalTensor<T>,
    src1: &LocalTensor<u32>,
    repeat_time: i32,
) -> Result<()> {
    let api = "Sort32";
    let loc = SourceLoc::caller();
    with_core(api, loc, |core| {
        check_dtype(core, api, T::DTYPE, &support::PAIRS)?;
        let repeat = repeat_in(api, "repeatTime", repeat_time as i64, 0)?;
        let size = T::SIZE as u64;
        let d = Ub::of(api, "dst", dst, 32)?;
        let s0 = Ub::of(api, "src0", src0, 32)?;
        let s1 = Ub::of(api, "src1", src1, 32)?;
        if repeat == 0 {
            core.warn(
                Category::Nop,
                api,
                "repeatTime = 0: the instruction does nothing",
                loc,
            );
            return Ok(());
        }
        let n = repeat * SORT32_ITEMS;
        let what = format!("{repeat} repeats of 32 elements");
        s0.fits(api, s0.addr + n * size, &what)?;
        s1.fits(api, s1.addr + n * 4, &what)?;
        d.fits(api, d.addr + n * PAIR_BYTES, &what)?;
        let ub = core.mem.bytes(Hardware::UB);
        let s = scores(api, "src0", ub, s0.addr, n, size, 0, T::DTYPE)?;
        let idx: Vec<u8> = ub[s1.addr as usize..(s1.addr + n * 4) as usize].to_vec();
        let vals: Vec<u8> = ub[s0.addr as usize..(s0.addr + n * size) as usize].to_vec();
        let mut out = vec![0u8; (n * PAIR_BYTES) as usize];
        for r in 0..repeat as usize {
            let lo = r * SORT32_ITEMS as usize;
            let order = descending(&s[lo..lo + SORT32_ITEMS as usize]);
            for (j, &i) in order.iter().enumerate() {
                let e = lo + i;
                let o = &mut out[(lo + j) * 8..(lo + j) * 8 + 8];
                o[..size as usize]
                    .copy_from_slice(&vals[e * size as usize..(e + 1) * size as usize]);
                o[4..].copy_from_slice(&idx[e * 4..e * 4 + 4]);
            }
        }
        core.mem.bytes_mut(Hardware::UB)[d.addr as usize..(d.addr + n * PAIR_BYTES) as usize]
            .copy_from_slice(&out);
        core.issue(
            Pipe::V,
            api,
            loc,
            &[
                runs(false, s0.addr, 32 * size, repeat, 32 * size),
                runs(false, s1.addr, 128, repeat, 128),
                runs(true, d.addr, 256, repeat, 256),
            ],
        );
        Ok(())
    })
}

/// `MrgSort(dst, src, params)`: merges up to four lists of (score, index) pairs sorted by
/// descending score (Sort32's output) into one, largest score first; on equal scores the
/// lower-numbered list goes first. `params.elementLengths` count pairs (8 bytes each). `dst`
/// 32-byte aligned, lists 8-byte aligned; source and destination must not overlap. With
/// `ifExhaustedSuspension` the merge stops once a list is exhausted and GetMrgSortResult tells
/// how many pairs each list gave.
#[track_caller]
pub fn mrg_sort<T: Element>(
    dst: &LocalTensor<T>,
    src: &MrgSortSrcList<T>,
    params: &MrgSort4Info,
) -> Result<()> {
    mrg_sort_at(SourceLoc::caller(), dst, src, params)
}

/// [`mrg_sort`] reporting errors at `loc`.
pub(crate) fn mrg_sort_at<T: Element>(
    loc: SourceLoc,
    dst: &LocalTensor<T>,
    src: &MrgSortSrcList<T>,
    params: &MrgSort4Info,
) -> Result<()> {
    merge_run(
        "MrgSort",
        loc,
        &support::PAIRS,
        Layout {
            item: PAIR_BYTES,
            score_off: 0,
            dst_align: 32,
            src_align: 8,
            min_repeat: 0,
        },
        dst,
        src,
        params,
    )
}
