//! Two-source element-wise instructions.

use super::support::{self, OpSupport};
use super::{check_dtype, run, BinaryRepeatParams, Issue, Mask, Opnd};
use crate::api::context::with_core;
use crate::api::tensor::LocalTensor;
use crate::core::vector::{map2, REPEAT_BYTES};
use crate::error::{Result, SourceLoc};
use crate::numeric::Arith;

fn binary<T: Arith, F: Fn(T, T, bool) -> T>(
    api: &'static str,
    support: &OpSupport,
    loc: SourceLoc,
    [dst, src0, src1]: [&LocalTensor<T>; 3],
    issue: Issue,
    p: BinaryRepeatParams,
    f: F,
) -> Result<()> {
    with_core(api, loc, |core| {
        check_dtype(core, api, T::DTYPE, support)?;
        let ops = [
            Opnd::of(
                "dst",
                dst,
                p.dst_blk_stride as u32,
                p.dst_rep_stride as u32,
                true,
            ),
            Opnd::of(
                "src0",
                src0,
                p.src0_blk_stride as u32,
                p.src0_rep_stride as u32,
                false,
            ),
            Opnd::of(
                "src1",
                src1,
                p.src1_blk_stride as u32,
                p.src1_rep_stride as u32,
                false,
            ),
        ];
        let sat = core.vector.fp16_saturation;
        let lanes = (REPEAT_BYTES as usize / T::SIZE).min(128) as u32;
        run(core, api, loc, lanes, issue, &ops, |ub, shape, o| {
            map2(ub, shape, o[0], o[1], o[2], |a: T, b: T| f(a, b, sat))
        })
    })
}

/// `Add(dst, src0, src1, count)`: `dst[i] = src0[i] + src1[i]` for the first `count` elements.
#[track_caller]
pub fn add<T: Arith>(
    dst: &LocalTensor<T>,
    src0: &LocalTensor<T>,
    src1: &LocalTensor<T>,
    count: i32,
) -> Result<()> {
    binary(
        "Add",
        &support::ARITH,
        SourceLoc::caller(),
        [dst, src0, src1],
        Issue::Count(count as i64),
        BinaryRepeatParams::default(),
        T::add,
    )
}

/// `Add(dst, src0, src1, mask, repeatTimes, params)`: level 0, `dst = src0 + src1` on the lanes
/// the mask enables, for `repeat_times` repeats with the given block and repeat strides.
#[track_caller]
pub fn add_l0<T: Arith>(
    dst: &LocalTensor<T>,
    src0: &LocalTensor<T>,
    src1: &LocalTensor<T>,
    mask: impl Into<Mask>,
    repeat_times: u8,
    params: BinaryRepeatParams,
) -> Result<()> {
    binary(
        "Add",
        &support::ARITH,
        SourceLoc::caller(),
        [dst, src0, src1],
        Issue::Level0 {
            mask: mask.into(),
            repeat: repeat_times,
        },
        params,
        T::add,
    )
}
