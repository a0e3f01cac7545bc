//! The high-level sorting API (高阶API / 排序操作): Concat, Sort, Extract, MrgSort with counts,
//! GetSortOffset and GetSortLen, lowered onto the basic sort instructions of the product's
//! layout: (score, index) pairs on Atlas A2 / A3, region proposals on the Atlas inference
//! series AI Core.

use super::merge::{MrgSort4Info, MrgSortSrcList};
use super::pairs::{mrg_sort_at, sort32, PAIR_BYTES};
use super::proposal::{mrg_sort4_at, proposal_concat, proposal_extract, rp_sort16, PROPOSAL_ELEMS};
use super::{repeat_in, support};
use crate::api::context::with_core;
use crate::api::tensor::LocalTensor;
use crate::api::vec::gather::{gather_mask, GatherMaskParams};
use crate::api::vec::operand::Ub;
use crate::core::trace::{Access, Pipe, Space};
use crate::dtype::{DType, Element};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::position::Hardware;

/// The layout the high-level sort API uses on a product (`support::HIGH_LEVEL`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortLayout {
    /// 8-byte (score, index) pairs, 32 sorted per repeat.
    Pairs,
    /// 8-element region proposals, 16 sorted per repeat.
    Proposals,
}

/// The layout of this core's product; an error where the high-level sort API does not exist,
/// or for a type other than half/float.
fn layout_of(api: &'static str, loc: SourceLoc, dt: DType) -> Result<SortLayout> {
    with_core(api, loc, |core| {
        let layout = support::HIGH_LEVEL[core.profile.product as usize].ok_or_else(|| {
            SimError::new(
                Category::Unsupported,
                api,
                format!("{api} is not supported on {}", core.profile),
            )
        })?;
        if dt != DType::Half && dt != DType::Float {
            return Err(SimError::new(
                Category::Type,
                api,
                format!("element type {dt} is not supported (half, float)"),
            ));
        }
        Ok(layout)
    })
}

/// Items sorted by one repeat, and bytes per item, of `layout` for elements of `size` bytes.
fn item_shape(layout: SortLayout, size: u64) -> (u64, u64) {
    match layout {
        SortLayout::Pairs => (32, PAIR_BYTES),
        SortLayout::Proposals => (16, PROPOSAL_ELEMS * size),
    }
}

/// `Concat(concat, src, tmp, repeatTime)`: prepares `src` (16 scores per repeat) for [`sort`].
/// On the pairs layout `concat` becomes `src` (no instruction); on region proposals the scores
/// go into the score field of `tmp` (ProposalConcat) and `concat` becomes `tmp`.
/// `repeat_time` in [0, 255].
#[track_caller]
pub fn concat<T: Element>(
    concat: &mut LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: &LocalTensor<T>,
    repeat_time: i32,
) -> Result<()> {
    let loc = SourceLoc::caller();
    let layout = layout_of("Concat", loc, T::DTYPE)?;
    with_core("Concat", loc, |_| {
        repeat_in("Concat", "repeatTime", repeat_time as i64, 0)
    })?;
    match layout {
        SortLayout::Pairs => *concat = *src,
        SortLayout::Proposals => {
            proposal_concat(tmp, src, repeat_time, 4)?;
            *concat = *tmp;
        }
    }
    Ok(())
}

/// `Sort<T, isFullSort>(dst, concat, index, tmp, repeatTime)`: sorts by descending score,
/// equal scores in input order. Pairs layout: Sort32 of `concat` with the `uint32_t` `index`
/// (32 per repeat) into pairs. Region proposals: the indices (when `index` is not empty) go into
/// the proposals of `concat` (float: the label field; half: low 16 bits in y1, high 16 bits in
/// label), then RpSort16 (16 per repeat). With `is_full_sort` the sorted runs are merged into
/// one (MrgSort / MrgSort4 rounds through `tmp`, which must hold as many items as `dst`).
#[track_caller]
pub fn sort<T: Element>(
    dst: &LocalTensor<T>,
    concat: &LocalTensor<T>,
    index: &LocalTensor<u32>,
    tmp: &LocalTensor<T>,
    repeat_time: i32,
    is_full_sort: bool,
) -> Result<()> {
    let api = "Sort";
    let loc = SourceLoc::caller();
    let layout = layout_of(api, loc, T::DTYPE)?;
    let (per, item) = item_shape(layout, T::SIZE as u64);
    let repeat = with_core(api, loc, |_| {
        let r = repeat_in(api, "repeatTime", repeat_time as i64, 0)?;
        if is_full_sort && r > 0 {
            let t = Ub::of(api, "tmp", tmp, 32)?;
            t.fits(
                api,
                t.addr + r * per * item,
                &format!("the full sort's {} items of {item} bytes", r * per),
            )?;
        }
        Ok(r)
    })?;
    match layout {
        SortLayout::Pairs => sort32(dst, concat, index, repeat_time)?,
        SortLayout::Proposals => {
            if index.get_size() != 0 && repeat > 0 {
                if T::DTYPE == DType::Float {
                    proposal_concat(concat, &index.reinterpret_cast::<T>(), repeat_time, 5)?;
                } else {
                    split_index_into_proposals(loc, concat, index, repeat)?;
                }
            }
            rp_sort16(dst, concat, repeat_time)?;
        }
    }
    if is_full_sort && repeat > 1 {
        full_merge(loc, layout, dst, tmp, repeat * per, per, item)?;
    }
    Ok(())
}

/// Half proposals hold a 32-bit index as two halves' bits: low 16 in y1, high 16 in label.
fn split_index_into_proposals<T: Element>(
    loc: SourceLoc,
    concat: &LocalTensor<T>,
    index: &LocalTensor<u32>,
    repeat: u64,
) -> Result<()> {
    let api = "Sort";
    with_core(api, loc, |core| {
        let n = repeat * 16;
        let c = Ub::of(api, "concat", concat, 32)?;
        let i = Ub::of(api, "index", index, 32)?;
        c.fits(api, c.addr + n * 16, &format!("{n} region proposals"))?;
        i.fits(api, i.addr + n * 4, &format!("{n} indices"))?;
        let ub = core.mem.bytes_mut(Hardware::UB);
        for k in 0..n {
            let at = (i.addr + 4 * k) as usize;
            let v = [ub[at], ub[at + 1], ub[at + 2], ub[at + 3]];
            let p = (c.addr + 16 * k) as usize;
            ub[p + 2..p + 4].copy_from_slice(&v[..2]);
            ub[p + 10..p + 12].copy_from_slice(&v[2..]);
        }
        let field = |off: u64| Access {
            write: true,
            space: Space::Local(Hardware::UB),
            base: c.addr + off,
            len: 2,
            blocks: n as u32,
            block_stride: 16,
            repeats: 1,
            repeat_stride: 0,
        };
        core.issue(
            Pipe::V,
            api,
            loc,
            &[
                Ub::access(false, i.addr, i.addr + 4 * n),
                field(2),
                field(10),
            ],
        );
        Ok(())
    })
}

/// Merges the `n / run` sorted runs of `dst` into one, four at a time, alternating between
/// `tmp` and `dst`; a single leftover run is carried over by a merge with an empty list.
fn full_merge<T: Element>(
    loc: SourceLoc,
    layout: SortLayout,
    dst: &LocalTensor<T>,
    tmp: &LocalTensor<T>,
    n: u64,
    mut run: u64,
    item: u64,
) -> Result<()> {
    let elems = item / T::SIZE as u64;
    let at = |t: &LocalTensor<T>, i: u64| t.at((i * elems) as u32);
    let merge = |d: &LocalTensor<T>, l: &MrgSortSrcList<T>, p: &MrgSort4Info| match layout {
        SortLayout::Pairs => mrg_sort_at(loc, d, l, p),
        SortLayout::Proposals => mrg_sort4_at(loc, d, l, p),
    };
    let (mut src, mut out) = (*dst, *tmp);
    while run < n {
        let groups = n / (4 * run);
        if groups > 0 {
            let l =
                MrgSortSrcList::new(src, at(&src, run)?, at(&src, 2 * run)?, at(&src, 3 * run)?);
            merge(
                &out,
                &l,
                &MrgSort4Info::new([run as u16; 4], false, 15, groups as u16),
            )?;
        }
        let start = groups * 4 * run;
        if start < n {
            let rest = n - start;
            let lists = rest.div_ceil(run);
            let mut lens = [0u16; 4];
            let mut t = [LocalTensor::<T>::default(); 4];
            for k in 0..lists.max(2) as usize {
                let lo = start + k as u64 * run;
                lens[k] = rest.saturating_sub(k as u64 * run).min(run) as u16;
                t[k] = if lo < n { at(&src, lo)? } else { t[0] };
            }
            let valid = if lists <= 2 { 3 } else { 7 };
            let l = MrgSortSrcList::new(t[0], t[1], t[2], t[3]);
            merge(
                &at(&out, start)?,
                &l,
                &MrgSort4Info::new(lens, false, valid, 1),
            )?;
        }
        std::mem::swap(&mut src, &mut out);
        run *= 4;
    }
    if src.get_phy_addr() != dst.get_phy_addr() {
        // Back into `dst` as a merge of the two halves (each list holds at most 4095 items).
        let half = n.div_ceil(2);
        let l = MrgSortSrcList::new(src, at(&src, half)?, src, src);
        let lens = [half as u16, (n - half) as u16, 0, 0];
        merge(dst, &l, &MrgSort4Info::new(lens, false, 3, 1))?;
    }
    Ok(())
}

/// `Extract(dstValue, dstIndex, sorted, repeatTime)`: splits sorted items into scores and
/// `uint32_t` indices. Pairs layout: 32 pairs per repeat (GatherMask of the scores and of the
/// index words). Region proposals: 16 proposals per repeat (ProposalExtract of the score; the
/// index, when `dst_index` is not empty, from the label field for float or from the y1/label
/// halves for half). `repeat_time` in [0, 255].
#[track_caller]
pub fn extract<T: Element>(
    dst_value: &LocalTensor<T>,
    dst_index: &LocalTensor<u32>,
    sorted: &LocalTensor<T>,
    repeat_time: i32,
) -> Result<()> {
    let api = "Extract";
    let loc = SourceLoc::caller();
    let layout = layout_of(api, loc, T::DTYPE)?;
    let repeat = with_core(api, loc, |_| {
        repeat_in(api, "repeatTime", repeat_time as i64, 0)
    })?;
    match layout {
        SortLayout::Pairs => {
            let p = GatherMaskParams::new(1, repeat as u16, 8, 0);
            let pattern = if T::DTYPE == DType::Half { 3 } else { 1 };
            gather_mask(dst_value, sorted, pattern, false, 0, p)?;
            gather_mask(dst_index, &sorted.reinterpret_cast::<u32>(), 2, false, 0, p)?;
        }
        SortLayout::Proposals => {
            proposal_extract(dst_value, sorted, repeat_time, 4)?;
            if dst_index.get_size() != 0 && repeat > 0 {
                if T::DTYPE == DType::Float {
                    proposal_extract(&dst_index.reinterpret_cast::<T>(), sorted, repeat_time, 5)?;
                } else {
                    join_index_from_proposals(loc, dst_index, sorted, repeat)?;
                }
            }
        }
    }
    Ok(())
}

/// The reverse of [`split_index_into_proposals`].
fn join_index_from_proposals<T: Element>(
    loc: SourceLoc,
    dst_index: &LocalTensor<u32>,
    sorted: &LocalTensor<T>,
    repeat: u64,
) -> Result<()> {
    let api = "Extract";
    with_core(api, loc, |core| {
        let n = repeat * 16;
        let s = Ub::of(api, "sorted", sorted, 32)?;
        let d = Ub::of(api, "dstIndex", dst_index, 32)?;
        s.fits(api, s.addr + n * 16, &format!("{n} region proposals"))?;
        d.fits(api, d.addr + n * 4, &format!("{n} indices"))?;
        let ub = core.mem.bytes_mut(Hardware::UB);
        for k in 0..n {
            let p = (s.addr + 16 * k) as usize;
            let v = [ub[p + 2], ub[p + 3], ub[p + 10], ub[p + 11]];
            let at = (d.addr + 4 * k) as usize;
            ub[at..at + 4].copy_from_slice(&v);
        }
        let field = |off: u64| Access {
            write: false,
            space: Space::Local(Hardware::UB),
            base: s.addr + off,
            len: 2,
            blocks: n as u32,
            block_stride: 16,
            repeats: 1,
            repeat_stride: 0,
        };
        core.issue(
            Pipe::V,
            api,
            loc,
            &[
                field(2),
                field(10),
                Ub::access(true, d.addr, d.addr + 4 * n),
            ],
        );
        Ok(())
    })
}

/// `MrgSort<T, isExhaustedSuspension>(dst, sortList, elementCountList, sortedNum, validBit,
/// repeatTime)` (the high-level form; Rust name with the suffix naming it): MrgSort on the pairs
/// layout, MrgSort4 on region proposals. `element_count_list` counts items (8-byte pairs or
/// proposals); with `is_exhausted_suspension` the merge stops when a list runs out and
/// `sorted_num` receives the items taken from each list (left untouched otherwise).
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn mrg_sort_with_counts<T: Element>(
    dst: &LocalTensor<T>,
    sort_list: &MrgSortSrcList<T>,
    element_count_list: [u16; 4],
    sorted_num: &mut [u32; 4],
    valid_bit: u16,
    repeat_time: i32,
    is_exhausted_suspension: bool,
) -> Result<()> {
    let api = "MrgSort";
    let loc = SourceLoc::caller();
    let layout = layout_of(api, loc, T::DTYPE)?;
    let repeat = with_core(api, loc, |_| {
        repeat_in(api, "repeatTime", repeat_time as i64, 1)
    })?;
    let p = MrgSort4Info::new(
        element_count_list,
        is_exhausted_suspension,
        valid_bit,
        repeat as u16,
    );
    match layout {
        SortLayout::Pairs => mrg_sort_at(loc, dst, sort_list, &p)?,
        SortLayout::Proposals => mrg_sort4_at(loc, dst, sort_list, &p)?,
    }
    if is_exhausted_suspension {
        let counts = with_core(api, loc, |core| {
            Ok(core.spr.mrg_sort.map(|s| s.counts).unwrap_or_default())
        })?;
        for (o, c) in sorted_num.iter_mut().zip(counts) {
            *o = c as u32;
        }
    }
    Ok(())
}

/// `GetSortOffset<T>(elemOffset)`: where item `elem_offset` of sorted data starts, in elements
/// of `T` (usable as a `LocalTensor` index): 4 halves or 2 floats per pair, 8 elements per
/// region proposal. (The page calls the unit bytes; its example indexes a tensor with it.)
#[track_caller]
pub fn get_sort_offset<T: Element>(elem_offset: u32) -> Result<u32> {
    sort_elems::<T>("GetSortOffset", SourceLoc::caller(), elem_offset)
}

/// `GetSortLen<T>(elemCount)`: the size of `elem_count` sorted items, in elements of `T` (as
/// [`get_sort_offset`]).
#[track_caller]
pub fn get_sort_len<T: Element>(elem_count: u32) -> Result<u32> {
    sort_elems::<T>("GetSortLen", SourceLoc::caller(), elem_count)
}

fn sort_elems<T: Element>(api: &'static str, loc: SourceLoc, n: u32) -> Result<u32> {
    let layout = layout_of(api, loc, T::DTYPE)?;
    let (_, item) = item_shape(layout, T::SIZE as u64);
    let v = n as u64 * item / T::SIZE as u64;
    u32::try_from(v).map_err(|_| SimError::range(api, "count", n, "a result below 2^32"))
}
