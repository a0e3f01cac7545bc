//! The 4-way merge shared by MrgSort (pairs) and MrgSort4 (region proposals), its parameter
//! structs, and GetMrgSortResult.

use super::{chunked, repeat_in, runs, scores, support};
use crate::api::context::with_core;
use crate::api::tensor::LocalTensor;
use crate::api::vec::check_dtype;
use crate::api::vec::operand::Ub;
use crate::core::spr::MrgSortSpr;
use crate::core::trace::{Access, Pipe};
use crate::core::Core;
use crate::dtype::Element;
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::position::Hardware;

/// `MrgSortSrcList<T>`: the four sorted source lists of a merge. Lists outside `validBit` are
/// not read (a default, empty tensor will do).
#[derive(Debug, Clone, Copy)]
pub struct MrgSortSrcList<T> {
    /// First list.
    pub src1: LocalTensor<T>,
    /// Second list.
    pub src2: LocalTensor<T>,
    /// Third list (read when `validBit` is 7 or 15).
    pub src3: LocalTensor<T>,
    /// Fourth list (read when `validBit` is 15).
    pub src4: LocalTensor<T>,
}

impl<T: Element> MrgSortSrcList<T> {
    /// `MrgSortSrcList(src1, src2, src3, src4)`.
    pub fn new(
        src1: LocalTensor<T>,
        src2: LocalTensor<T>,
        src3: LocalTensor<T>,
        src4: LocalTensor<T>,
    ) -> Self {
        MrgSortSrcList {
            src1,
            src2,
            src3,
            src4,
        }
    }

    fn list(&self, k: usize) -> &LocalTensor<T> {
        [&self.src1, &self.src2, &self.src3, &self.src4][k]
    }
}

impl<T: Element> Default for MrgSortSrcList<T> {
    fn default() -> Self {
        let e = LocalTensor::default();
        MrgSortSrcList::new(e, e, e, e)
    }
}

/// `MrgSort4Info`: the parameters of a merge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MrgSort4Info {
    /// Items in each list, [0, 4095]: 8-byte pairs (MrgSort) or region proposals (MrgSort4).
    pub element_lengths: [u16; 4],
    /// Stop as soon as one valid list is exhausted (the counts are then read with
    /// GetMrgSortResult).
    pub if_exhausted_suspension: bool,
    /// Valid lists: 3 (`0b11`, lists 1–2), 7 (lists 1–3) or 15 (all four).
    pub valid_bit: u16,
    /// Merges, [0, 255] for MrgSort (0 does nothing) and [1, 255] for MrgSort4; each repeat
    /// moves sources and destination on by the four lists' total. More than 1 needs four
    /// contiguous lists of equal length, `validBit = 15` and no suspension.
    pub repeat_times: u16,
}

impl MrgSort4Info {
    /// `MrgSort4Info(elementLengths, ifExhaustedSuspension, validBit, repeatTimes)`.
    pub const fn new(
        element_lengths: [u16; 4],
        if_exhausted_suspension: bool,
        valid_bit: u16,
        repeat_times: u16,
    ) -> Self {
        MrgSort4Info {
            element_lengths,
            if_exhausted_suspension,
            valid_bit,
            repeat_times,
        }
    }
}

/// How the items of a merge are laid out.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Layout {
    /// Bytes per item.
    pub item: u64,
    /// Byte offset of the score inside an item.
    pub score_off: u64,
    /// Required alignment of the destination start, bytes.
    pub dst_align: u64,
    /// Required alignment of each source list start, bytes.
    pub src_align: u64,
    /// Smallest accepted `repeatTimes` (0 means a repeat count of 0 does nothing).
    pub min_repeat: i64,
}

/// Merges the valid lists of `src` into `dst` (MrgSort / MrgSort4).
pub(crate) fn merge_run<T: Element>(
    api: &'static str,
    loc: SourceLoc,
    support: &crate::api::vec::support::OpSupport,
    layout: Layout,
    dst: &LocalTensor<T>,
    src: &MrgSortSrcList<T>,
    p: &MrgSort4Info,
) -> Result<()> {
    with_core(api, loc, |core| {
        check_dtype(core, api, T::DTYPE, support)?;
        let n_lists = match p.valid_bit {
            3 => 2,
            7 => 3,
            15 => 4,
            v => {
                return Err(SimError::range(
                    api,
                    "params.validBit",
                    v,
                    "3 (0b11), 7 (0b111) or 15 (0b1111)",
                ))
            }
        };
        let repeat = repeat_in(
            api,
            "params.repeatTimes",
            p.repeat_times as i64,
            layout.min_repeat,
        )?;
        let lens: Vec<u64> = p.element_lengths[..n_lists]
            .iter()
            .map(|&l| l as u64)
            .collect();
        for (k, &l) in lens.iter().enumerate() {
            if l > 4095 {
                return Err(SimError::range(
                    api,
                    &format!("params.elementLengths[{k}]"),
                    l,
                    "[0, 4095]",
                ));
            }
        }
        let item = layout.item;
        let mut lists = Vec::with_capacity(n_lists);
        const NAMES: [&str; 4] = ["src.src1", "src.src2", "src.src3", "src.src4"];
        for (k, name) in NAMES.iter().enumerate().take(n_lists) {
            lists.push(Ub::of(api, name, src.list(k), layout.src_align)?);
        }
        let d = Ub::of(api, "dst", dst, layout.dst_align)?;
        let group = lens.iter().sum::<u64>() * item;
        if repeat > 1 {
            let why = if p.valid_bit != 15 {
                Some(format!("validBit = {} (must be 15)", p.valid_bit))
            } else if p.if_exhausted_suspension {
                Some("ifExhaustedSuspension = true (must be false)".to_string())
            } else if lens.iter().any(|&l| l != lens[0]) {
                Some(format!(
                    "elementLengths = {:?} (must be equal)",
                    p.element_lengths
                ))
            } else {
                (1..4)
                    .find(|&k| lists[k].addr != lists[0].addr + k as u64 * lens[0] * item)
                    .map(|k| {
                        format!(
                            "list {} starts at byte {} of UB, not right after list {} (byte {})",
                            k + 1,
                            lists[k].addr,
                            k,
                            lists[0].addr + k as u64 * lens[0] * item
                        )
                    })
            };
            if let Some(why) = why {
                return Err(SimError::range(
                    api,
                    "params.repeatTimes",
                    repeat,
                    format!(
                        "[0, 1] here: more than one repeat needs four contiguous lists of equal length, validBit = 15 and ifExhaustedSuspension = false; this call has {why}"
                    ),
                ));
            }
        }
        if repeat == 0 {
            core.warn(
                Category::Nop,
                api,
                "repeatTimes = 0: the instruction does nothing",
                loc,
            );
            return Ok(());
        }
        // Every list of every repeat inside its tensor.
        for (k, t) in lists.iter().enumerate() {
            t.fits(
                api,
                t.addr + (repeat - 1) * group + lens[k] * item,
                &format!("{} items of {item} bytes", lens[k]),
            )?;
        }
        let ub = core.mem.bytes(Hardware::UB);
        let mut out = Vec::new();
        let mut counts = [0u16; 4];
        let mut read: Vec<(u64, u64)> = Vec::new();
        for r in 0..repeat {
            let mut heads = Vec::with_capacity(n_lists);
            for (k, t) in lists.iter().enumerate() {
                let base = t.addr + r * group;
                heads.push(scores(
                    api,
                    &format!("list {} (repeat {r})", k + 1),
                    ub,
                    base,
                    lens[k],
                    item,
                    layout.score_off,
                    T::DTYPE,
                )?);
            }
            let taken = merge_order(&heads, p.if_exhausted_suspension);
            let mut used = [0u64; 4];
            for &(k, i) in &taken {
                let at = (lists[k].addr + r * group + i * item) as usize;
                out.extend_from_slice(&ub[at..at + item as usize]);
                used[k] += 1;
            }
            for k in 0..n_lists {
                counts[k] = used[k] as u16;
                if used[k] > 0 {
                    let lo = lists[k].addr + r * group;
                    read.push((lo, lo + used[k] * item));
                }
            }
        }
        let total = out.len() as u64;
        d.fits(
            api,
            d.addr + total,
            &format!("the {} merged items of {item} bytes", total / item),
        )?;
        for (k, t) in lists.iter().enumerate() {
            let lo = t.addr;
            let hi = t.addr + (repeat - 1) * group + lens[k] * item;
            if lens[k] > 0 && total > 0 && lo < d.addr + total && d.addr < hi {
                return Err(SimError::new(
                    Category::Overlap,
                    api,
                    format!(
                        "`dst` (UB bytes {}..{}) overlaps source list {} (bytes {lo}..{hi}): source and destination must not overlap",
                        d.addr,
                        d.addr + total,
                        k + 1
                    ),
                ));
            }
        }
        core.mem.bytes_mut(Hardware::UB)[d.addr as usize..(d.addr + total) as usize]
            .copy_from_slice(&out);
        core.spr.mrg_sort = Some(MrgSortSpr {
            counts,
            exhausted_suspension: p.if_exhausted_suspension,
        });
        let mut acc: Vec<Access> = read
            .iter()
            .map(|&(lo, hi)| Ub::access(false, lo, hi))
            .collect();
        if repeat > 1 {
            // Equal contiguous lists: one strided record per list.
            acc.clear();
            for t in &lists {
                acc.push(runs(false, t.addr, lens[0] * item, repeat, group));
            }
        }
        acc.extend(chunked(true, d.addr, total, 256));
        core.issue(Pipe::V, api, loc, &acc);
        Ok(())
    })
}

/// The merge order of sorted lists given their scores: `(list, item)` pairs, largest score
/// first, ties to the lower-numbered list. With `suspend`, stops once a list is exhausted.
fn merge_order(lists: &[Vec<f32>], suspend: bool) -> Vec<(usize, u64)> {
    let mut pos = vec![0usize; lists.len()];
    let mut out = Vec::new();
    loop {
        if suspend && (0..lists.len()).any(|k| pos[k] == lists[k].len()) {
            break;
        }
        let mut best: Option<usize> = None;
        for k in 0..lists.len() {
            if pos[k] < lists[k].len() && best.is_none_or(|b| lists[k][pos[k]] > lists[b][pos[b]]) {
                best = Some(k);
            }
        }
        let Some(k) = best else { break };
        out.push((k, pos[k] as u64));
        pos[k] += 1;
    }
    out
}

/// `GetMrgSortResult(mrgSortList1, …, mrgSortList4)`: items taken from each list by the last
/// MrgSort / MrgSort4 of this core, which must have run with `ifExhaustedSuspension = true`.
#[track_caller]
pub fn get_mrg_sort_result() -> Result<[u16; 4]> {
    let api = "GetMrgSortResult";
    let loc = SourceLoc::caller();
    with_core(api, loc, |core: &mut Core| {
        if !support::MRG_SORT_RESULT[core.profile.product as usize] {
            return Err(SimError::new(
                Category::Unsupported,
                api,
                format!("{api} is not supported on {}", core.profile),
            ));
        }
        let spr = core.spr.mrg_sort.ok_or_else(|| {
            SimError::new(
                Category::Sync,
                api,
                "no MrgSort / MrgSort4 has run on this core: there are no list counts",
            )
        })?;
        if !spr.exhausted_suspension {
            return Err(SimError::new(
                Category::Range,
                api,
                "the last merge ran with ifExhaustedSuspension = false; the counts are only defined after a merge with ifExhaustedSuspension = true",
            ));
        }
        core.issue(Pipe::S, api, loc, &[]);
        Ok(spr.counts)
    })
}
