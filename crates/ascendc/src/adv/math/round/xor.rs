//! `Xor` (数学计算/Xor): bitwise exclusive or of two int16/uint16 tensors, built as
//! `(a | b) & ~(a & b)`. A2, A3, 310P and 310B.
//!
//! As the device does it: chunks of the temporary buffer's capacity in `T` (whole 32-element
//! units), `a | b` kept there. A2/A3/310P run level-0 instructions under the counter mask;
//! 310B (no counter mode) runs level-2 instructions over each chunk.

use super::cast_round::bad_type;
use crate::adv::common::{barrier_v, check_count, counter_loop, require, run, split_count, Tmp};
use crate::api::vec::binary::{and, and_l0, or, or_l0};
use crate::api::vec::unary::{not, not_l0};
use crate::chip::Product;
use crate::dtype::DType;
use crate::error::{Result, SourceLoc};
use crate::numeric::BitArith;
use crate::{BinaryRepeatParams, Element, LocalTensor, UnaryRepeatParams, MASK_PLACEHOLDER};

const API: &str = "Xor";

/// Where the Xor page lists the API.
const PRODUCTS: &[Product] = &[
    Product::Ascend910B,
    Product::Ascend910_93,
    Product::Ascend310P,
    Product::Ascend310B,
];

/// `Xor<T, isReuseSource>(dst, src0, src1, [sharedTmpBuffer,] [calCount])`: `dst[i] = src0[i]
/// ^ src1[i]` for the first `count` elements. `T`: int16 or uint16. `tmp`: 256 bytes at least
/// (`GetXorMaxMinTmpSize`).
#[track_caller]
pub fn xor<T: Element>(
    dst: &LocalTensor<T>,
    src0: &LocalTensor<T>,
    src1: &LocalTensor<T>,
    tmp: Tmp,
    count: u32,
) -> Result<()> {
    run(API, SourceLoc::caller(), || {
        check_count(
            API,
            count,
            &[
                ("dstTensor", dst.get_size()),
                ("src0Tensor", src0.get_size()),
                ("src1Tensor", src1.get_size()),
            ],
        )?;
        let p = require(API, PRODUCTS)?;
        match T::DTYPE {
            DType::Int16 | DType::Uint16 => {
                let c = |t: &LocalTensor<T>| t.reinterpret_cast::<u16>();
                xor_u16(p, [&c(dst), &c(src0), &c(src1)], tmp, count)
            }
            other => Err(bad_type(API, other, "int16_t or uint16_t")),
        }
    })
}

/// The chunk loop on the bits (the operations do not depend on the sign).
fn xor_u16<T: BitArith>(
    p: Product,
    [dst, a, b]: [&LocalTensor<T>; 3],
    tmp: Tmp,
    count: u32,
) -> Result<()> {
    let buf = tmp.buffer(API)?;
    let split = split_count(API, buf.get_size(), T::SIZE as u32)?;
    let either = buf.reinterpret_cast::<T>();
    if p == Product::Ascend310B {
        let mut at = 0;
        while at < count {
            let n = split.min(count - at);
            let (d, a, b) = (dst.at(at)?, a.at(at)?, b.at(at)?);
            and(&d, &a, &b, n)?;
            or(&either, &a, &b, n)?;
            not(&d, &d, n)?;
            and(&d, &either, &d, n)?;
            at += n;
        }
        return Ok(());
    }
    let (bin, un) = (BinaryRepeatParams::default(), UnaryRepeatParams::default());
    counter_loop::<T>(count, split, |at| {
        let (d, a, b) = (dst.at(at)?, a.at(at)?, b.at(at)?);
        and_l0(&d, &a, &b, MASK_PLACEHOLDER, 1, bin)?;
        or_l0(&either, &a, &b, MASK_PLACEHOLDER, 1, bin)?;
        barrier_v()?;
        not_l0(&d, &d, MASK_PLACEHOLDER, 1, un)?;
        barrier_v()?;
        and_l0(&d, &either, &d, MASK_PLACEHOLDER, 1, bin)?;
        barrier_v()
    })
}

/// `GetXorMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue)`: `(max, min)`
/// bytes: max(elements · typeSize, 256) and 256.
pub fn xor_max_min_tmp_size(elements: u32, type_size: u32) -> (u32, u32) {
    ((elements * type_size).max(256), 256)
}

/// `GetXorTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuffer)`: `(1, 0)`.
pub fn xor_tmp_buffer_factor_size(_type_size: u32) -> (u32, u32) {
    (1, 0)
}
