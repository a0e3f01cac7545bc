//! `Copy`: the UB → UB vector copy with a mask and block / repeat strides (a bit copy of every
//! enabled lane).

use super::binary::lanes_for;
use super::{check_dtype, run, run_copy_counter, support, Issue, Mask, Opnd};
use crate::api::context::with_core;
use crate::api::tensor::LocalTensor;
use crate::core::vector::map1;
use crate::dtype::Element;
use crate::error::{Result, SimError, SourceLoc};

/// `CopyRepeatParams`: strides in 32-byte blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CopyRepeatParams {
    /// Destination block stride inside a repeat, [0, 65535].
    pub dst_stride: u16,
    /// Source block stride inside a repeat, [0, 65535].
    pub src_stride: u16,
    /// Destination repeat stride, [0, 4095].
    pub dst_repeat_size: u16,
    /// Source repeat stride, [0, 4095].
    pub src_repeat_size: u16,
}

impl CopyRepeatParams {
    /// `{dstStride, srcStride, dstRepeatSize, srcRepeatSize}`.
    pub const fn new(
        dst_stride: u16,
        src_stride: u16,
        dst_repeat_size: u16,
        src_repeat_size: u16,
    ) -> Self {
        CopyRepeatParams {
            dst_stride,
            src_stride,
            dst_repeat_size,
            src_repeat_size,
        }
    }
}

impl Default for CopyRepeatParams {
    fn default() -> Self {
        CopyRepeatParams::new(1, 1, 8, 8)
    }
}

/// `Copy(dst, src, mask, repeatTime, repeatParams)`: copies the enabled lanes of `repeat_time`
/// repeats. In counter mode (`SetMaskCount`) Copy differs from the other vector instructions: the
/// mask register's count `n` is the element count of every repeat (`⌈n·size/32⌉` blocks at the
/// block stride, the last one holding what is left), and `repeat_time` counts.
#[track_caller]
pub fn copy<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    mask: impl Into<Mask>,
    repeat_time: u8,
    params: CopyRepeatParams,
) -> Result<()> {
    const API: &str = "Copy";
    let loc = SourceLoc::caller();
    let mask = mask.into();
    with_core(API, loc, |core| {
        check_dtype(core, API, T::DTYPE, &support::COPY)?;
        for (name, v) in [
            ("repeatParams.dstRepeatSize", params.dst_repeat_size),
            ("repeatParams.srcRepeatSize", params.src_repeat_size),
        ] {
            if v > 4095 {
                return Err(SimError::range(API, name, v, "[0, 4095] blocks"));
            }
        }
        let ops = [
            Opnd::of(
                "dst",
                dst,
                params.dst_stride as u32,
                params.dst_repeat_size as u32,
                true,
            ),
            Opnd::of(
                "src",
                src,
                params.src_stride as u32,
                params.src_repeat_size as u32,
                false,
            ),
        ];
        let lanes = lanes_for(T::SIZE);
        let exec = |ub: &mut [u8], shape: &_, o: &[_]| map1(ub, shape, o[0], o[1], |x: T| x);
        if core.vector.counter_mode {
            run_copy_counter(core, API, loc, lanes, (mask, repeat_time), &ops, exec)
        } else {
            run(
                core,
                API,
                loc,
                lanes,
                Issue::level0(mask, repeat_time),
                &ops,
                exec,
            )
        }
    })
}
