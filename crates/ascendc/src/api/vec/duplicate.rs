//! Duplicate: fills the enabled lanes of the destination with a scalar (a bit copy).

use super::binary::lanes_for;
use super::{check_dtype, run, support, Count, Issue, Mask, Opnd};
use crate::api::context::with_core;
use crate::api::tensor::LocalTensor;
use crate::core::vector::map0;
use crate::dtype::Element;
use crate::error::{Result, SourceLoc};

fn duplicate_run<T: Element>(
    loc: SourceLoc,
    dst: &LocalTensor<T>,
    scalar: T,
    issue: Issue,
    blk: u16,
    rep: u8,
) -> Result<()> {
    const API: &str = "Duplicate";
    with_core(API, loc, |core| {
        check_dtype(core, API, T::DTYPE, &support::DUPLICATE)?;
        let ops = [Opnd::of("dst", dst, blk as u32, rep as u32, true)];
        run(
            core,
            API,
            loc,
            lanes_for(T::SIZE),
            issue,
            &ops,
            |ub, shape, o| map0(ub, shape, o[0], scalar),
        )
    })
}

/// `Duplicate(dst, scalar, count)`: level 2, the first `count` elements of `dst` become `scalar`
/// (or [`KEEP_MASK`](super::KEEP_MASK)).
#[track_caller]
pub fn duplicate<T: Element>(
    dst: &LocalTensor<T>,
    scalar: T,
    count: impl Into<Count>,
) -> Result<()> {
    duplicate_run(SourceLoc::caller(), dst, scalar, count.into().into(), 1, 8)
}

/// `Duplicate(dst, scalar, mask, repeatTime, dstBlockStride, dstRepeatStride)`: level 0, the
/// enabled lanes of `repeat_times` repeats become `scalar`; strides in 32-byte blocks.
#[track_caller]
pub fn duplicate_l0<T: Element>(
    dst: &LocalTensor<T>,
    scalar: T,
    mask: impl Into<Mask>,
    repeat_times: u8,
    dst_block_stride: u16,
    dst_repeat_stride: u8,
) -> Result<()> {
    let issue = Issue::level0(mask, repeat_times);
    duplicate_run(
        SourceLoc::caller(),
        dst,
        scalar,
        issue,
        dst_block_stride,
        dst_repeat_stride,
    )
}
