//! ProposalConcat, ProposalExtract, RpSort16 and MrgSort4: region proposals of 8 elements
//! (`[x1, y1, x2, y2, score, label, reserved, reserved]`) on the Atlas training series and the
//! Atlas inference series AI Core.

use super::merge::{merge_run, Layout, MrgSort4Info, MrgSortSrcList};
use super::{descending, repeat_in, runs, scores, support};
use crate::api::context::with_core;
use crate::api::tensor::LocalTensor;
use crate::api::vec::check_dtype;
use crate::api::vec::operand::Ub;
use crate::core::trace::{Access, Pipe, Space};
use crate::dtype::Element;
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::position::Hardware;

/// Elements of one region proposal.
pub const PROPOSAL_ELEMS: u64 = 8;

/// Proposals handled by one repeat of ProposalConcat / ProposalExtract / RpSort16.
const GROUP: u64 = 16;

/// Element index of the score inside a proposal.
const SCORE: u64 = 4;

/// Checks `modeNumber` (the field: 0 x1, 1 y1, 2 x2, 3 y2, 4 score, 5 label).
fn mode_in(api: &'static str, mode: i32) -> Result<u64> {
    if !(0..=5).contains(&mode) {
        return Err(SimError::range(
            api,
            "modeNumber",
            mode,
            "[0, 5] (0 x1, 1 y1, 2 x2, 3 y2, 4 score, 5 label)",
        ));
    }
    Ok(mode as u64)
}

/// ProposalConcat (`into` = true) or ProposalExtract.
fn field_move<T: Element>(
    api: &'static str,
    loc: SourceLoc,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    repeat_time: i32,
    mode_number: i32,
    into: bool,
) -> Result<()> {
    with_core(api, loc, |core| {
        check_dtype(core, api, T::DTYPE, &support::PROPOSALS)?;
        let repeat = repeat_in(api, "repeatTime", repeat_time as i64, 0)?;
        let mode = mode_in(api, mode_number)?;
        let d = Ub::of(api, "dst", dst, 32)?;
        let s = Ub::of(api, "src", src, 32)?;
        if repeat == 0 {
            core.warn(
                Category::Nop,
                api,
                "repeatTime = 0: the instruction does nothing",
                loc,
            );
            return Ok(());
        }
        let size = T::SIZE as u64;
        let n = repeat * GROUP;
        let (props, flat) = if into { (d, s) } else { (s, d) };
        props.fits(
            api,
            props.addr + n * PROPOSAL_ELEMS * size,
            &format!("{n} region proposals ({repeat} repeats of 16)"),
        )?;
        flat.fits(
            api,
            flat.addr + n * size,
            &format!("{n} elements ({repeat} repeats of 16)"),
        )?;
        let ub = core.mem.bytes_mut(Hardware::UB);
        let field = |i: u64| (props.addr + i * PROPOSAL_ELEMS * size + mode * size) as usize;
        let moved: Vec<u8> = (0..n)
            .flat_map(|i| {
                let at = if into {
                    (flat.addr + i * size) as usize
                } else {
                    field(i)
                };
                ub[at..at + size as usize].to_vec()
            })
            .collect();
        for i in 0..n {
            let at = if into {
                field(i)
            } else {
                (flat.addr + i * size) as usize
            };
            let v = &moved[(i * size) as usize..((i + 1) * size) as usize];
            ub[at..at + size as usize].copy_from_slice(v);
        }
        let fields = |write: bool| Access {
            write,
            space: Space::Local(Hardware::UB),
            base: props.addr + mode * size,
            len: size as u32,
            blocks: GROUP as u32,
            block_stride: PROPOSAL_ELEMS * size,
            repeats: repeat as u32,
            repeat_stride: GROUP * PROPOSAL_ELEMS * size,
        };
        let contiguous = |write: bool| runs(write, flat.addr, GROUP * size, repeat, GROUP * size);
        let acc = if into {
            [contiguous(false), fields(true)]
        } else {
            [fields(false), contiguous(true)]
        };
        core.issue(Pipe::V, api, loc, &acc);
        Ok(())
    })
}

/// `ProposalConcat(dst, src, repeatTime, modeNumber)`: each repeat writes 16 consecutive
/// elements of `src` into field `modeNumber` (0 x1, 1 y1, 2 x2, 3 y2, 4 score, 5 label) of 16
/// consecutive proposals of `dst`; the other fields are left as they are. `repeat_time` in
/// [0, 255]; starts 32-byte aligned.
#[track_caller]
pub fn proposal_concat<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    repeat_time: i32,
    mode_number: i32,
) -> Result<()> {
    field_move(
        "ProposalConcat",
        SourceLoc::caller(),
        dst,
        src,
        repeat_time,
        mode_number,
        true,
    )
}

/// `ProposalExtract(dst, src, repeatTime, modeNumber)`: the reverse of ProposalConcat; each
/// repeat reads field `modeNumber` of 16 proposals of `src` into 16 consecutive elements of
/// `dst`. `repeat_time` in [0, 255]; starts 32-byte aligned.
#[track_caller]
pub fn proposal_extract<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    repeat_time: i32,
    mode_number: i32,
) -> Result<()> {
    field_move(
        "ProposalExtract",
        SourceLoc::caller(),
        dst,
        src,
        repeat_time,
        mode_number,
        false,
    )
}

/// `RpSort16(dst, src, repeatTime)`: each repeat sorts 16 proposals of `src` by descending
/// score (element 4) into `dst`, moving whole proposals; equal scores keep their input order.
/// `dst` may be `src` (in-place). `repeat_time` in [0, 255]; starts 32-byte aligned.
#[track_caller]
pub fn rp_sort16<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    repeat_time: i32,
) -> Result<()> {
    let api = "RpSort16";
    let loc = SourceLoc::caller();
    with_core(api, loc, |core| {
        check_dtype(core, api, T::DTYPE, &support::PROPOSALS)?;
        let repeat = repeat_in(api, "repeatTime", repeat_time as i64, 0)?;
        let d = Ub::of(api, "dst", dst, 32)?;
        let s = Ub::of(api, "src", src, 32)?;
        if repeat == 0 {
            core.warn(
                Category::Nop,
                api,
                "repeatTime = 0: the instruction does nothing",
                loc,
            );
            return Ok(());
        }
        let item = PROPOSAL_ELEMS * T::SIZE as u64;
        let n = repeat * GROUP;
        let what = format!("{n} region proposals ({repeat} repeats of 16)");
        s.fits(api, s.addr + n * item, &what)?;
        d.fits(api, d.addr + n * item, &what)?;
        let ub = core.mem.bytes(Hardware::UB);
        let sc = scores(
            api,
            "src",
            ub,
            s.addr,
            n,
            item,
            SCORE * T::SIZE as u64,
            T::DTYPE,
        )?;
        let all: Vec<u8> = ub[s.addr as usize..(s.addr + n * item) as usize].to_vec();
        let mut out = vec![0u8; all.len()];
        let it = item as usize;
        for r in 0..repeat as usize {
            let lo = r * GROUP as usize;
            for (j, &i) in descending(&sc[lo..lo + GROUP as usize]).iter().enumerate() {
                out[(lo + j) * it..(lo + j + 1) * it]
                    .copy_from_slice(&all[(lo + i) * it..(lo + i + 1) * it]);
            }
        }
        core.mem.bytes_mut(Hardware::UB)[d.addr as usize..(d.addr + n * item) as usize]
            .copy_from_slice(&out);
        core.issue(
            Pipe::V,
            api,
            loc,
            &[
                runs(false, s.addr, GROUP * item, repeat, GROUP * item),
                runs(true, d.addr, GROUP * item, repeat, GROUP * item),
            ],
        );
        Ok(())
    })
}

/// `MrgSort4(dst, src, params)`: merges up to four lists of region proposals sorted by
/// descending score (RpSort16's output) into one, largest score first; on equal scores the
/// lower-numbered list goes first. `params.elementLengths` count proposals; `repeatTimes` in
/// [1, 255]. Starts 16-byte (half) / 32-byte (float) aligned; source and destination must not
/// overlap. With `ifExhaustedSuspension` the merge stops once a list is exhausted
/// (GetMrgSortResult gives the counts on the inference series).
#[track_caller]
pub fn mrg_sort4<T: Element>(
    dst: &LocalTensor<T>,
    src: &MrgSortSrcList<T>,
    params: &MrgSort4Info,
) -> Result<()> {
    mrg_sort4_at(SourceLoc::caller(), dst, src, params)
}

/// [`mrg_sort4`] reporting errors at `loc`.
pub(crate) fn mrg_sort4_at<T: Element>(
    loc: SourceLoc,
    dst: &LocalTensor<T>,
    src: &MrgSortSrcList<T>,
    params: &MrgSort4Info,
) -> Result<()> {
    let item = PROPOSAL_ELEMS * T::SIZE as u64;
    merge_run(
        "MrgSort4",
        loc,
        &support::PROPOSALS,
        Layout {
            item,
            score_off: SCORE * T::SIZE as u64,
            dst_align: item,
            src_align: item,
            min_repeat: 1,
        },
        dst,
        src,
        params,
    )
}
