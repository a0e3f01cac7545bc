//! VectorPadding: each destination block is the padding block that sits beside the matching
//! source block, built from that block's own values.

use super::binary::lanes_for;
use super::layout_support as table;
use super::unary::unary_operands;
use super::{check_dtype, run, Count, Issue, Mask, UnaryRepeatParams};
use crate::api::context::with_core;
use crate::api::tensor::LocalTensor;
use crate::core::vector::BLOCK;
use crate::dtype::Element;
use crate::error::{Result, SimError, SourceLoc};

const API: &str = "VectorPadding";

/// The padding block of one source block of `e` elements of `size` bytes (`src` and the result
/// are `e·size` bytes). `pad_side` false pads on the left (before element 0), true on the right:
/// * mode 0 repeats the nearest element (`aaa|abc`, `nop|ppp`);
/// * mode 1 mirrors the block including its edge element (`cba|abc`, `nop|pon`);
/// * mode 2 mirrors it without the edge element and fills the far end with 0 (`xcb|abc`,
///   `nop|onx`, x = 0).
pub fn padding_block(src: &[u8], size: usize, pad_mode: u8, pad_side: bool) -> Vec<u8> {
    let e = src.len() / size;
    let el = |i: usize| &src[i * size..(i + 1) * size];
    let zero = vec![0u8; size];
    let mut out = Vec::with_capacity(src.len());
    for i in 0..e {
        let v: &[u8] = match (pad_mode, pad_side) {
            (0, false) => el(0),
            (0, true) => el(e - 1),
            (1, _) => el(e - 1 - i),
            (_, false) => {
                if i == 0 {
                    &zero
                } else {
                    el(e - i)
                }
            }
            (_, true) => {
                if i == e - 1 {
                    &zero
                } else {
                    el(e - 2 - i)
                }
            }
        };
        out.extend_from_slice(v);
    }
    out
}

fn vector_padding_run<T: Element>(
    loc: SourceLoc,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    pad_mode: u8,
    pad_side: bool,
    issue: Issue,
    p: UnaryRepeatParams,
) -> Result<()> {
    with_core(API, loc, |core| {
        check_dtype(core, API, T::DTYPE, &table::VECTOR_PADDING)?;
        if pad_mode > 2 {
            return Err(SimError::range(API, "padMode", pad_mode, "[0, 2]"));
        }
        let ops = unary_operands(dst, src, &p);
        let size = T::SIZE;
        let e = BLOCK as usize / size;
        run(
            core,
            API,
            loc,
            lanes_for(size),
            issue,
            &ops,
            |ub, shape, o| {
                for r in 0..shape.repeats {
                    let bits = shape.bits(r);
                    let on = |k: u32| bits[(k / 64) as usize] >> (k % 64) & 1 == 1;
                    for blk in 0..shape.lanes / e as u32 {
                        let first = blk * e as u32;
                        if !(first..first + e as u32).any(on) {
                            continue;
                        }
                        // The whole source block is read whatever the mask.
                        let s = o[1].lane_addr(size, r, first) as usize;
                        let pad =
                            padding_block(&ub[s..s + BLOCK as usize], size, pad_mode, pad_side);
                        for i in 0..e {
                            if on(first + i as u32) {
                                let d = o[0].lane_addr(size, r, first + i as u32) as usize;
                                ub[d..d + size].copy_from_slice(&pad[i * size..(i + 1) * size]);
                            }
                        }
                    }
                }
            },
        )
    })
}

/// `VectorPadding(dst, src, padMode, padSide, count)`: level 2, the first `count` destination
/// elements (or [`KEEP_MASK`](super::KEEP_MASK)); each 32-byte destination block gets the
/// [`padding_block`] of the source block at the same position. `pad_mode` in [0, 2].
#[track_caller]
pub fn vector_padding<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    pad_mode: u8,
    pad_side: bool,
    count: impl Into<Count>,
) -> Result<()> {
    vector_padding_run(
        SourceLoc::caller(),
        dst,
        src,
        pad_mode,
        pad_side,
        count.into().into(),
        UnaryRepeatParams::default(),
    )
}

/// `VectorPadding(dst, src, padMode, padSide, mask, repeatTime, repeatParams)`: level 0; the mask
/// selects the destination elements written, the source blocks are read whole. Strides in
/// 32-byte blocks.
#[track_caller]
pub fn vector_padding_l0<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    pad_mode: u8,
    pad_side: bool,
    mask: impl Into<Mask>,
    repeat_time: u8,
    params: UnaryRepeatParams,
) -> Result<()> {
    vector_padding_run(
        SourceLoc::caller(),
        dst,
        src,
        pad_mode,
        pad_side,
        Issue::level0(mask, repeat_time),
        params,
    )
}
