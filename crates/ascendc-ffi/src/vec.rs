//! Vector instructions: level 2 (element count) and level 0 (mask, repeat, strides).

use crate::abi::{call, dtype, AscLoc, AscLocal};
use crate::with_dtype;
use ascendc::api::vec::binary::{add, add_l0};
use ascendc::error::{Category, SimError};
use ascendc::numeric::Arith;
use ascendc::{BinaryRepeatParams, LocalTensor, Mask};

/// `BinaryRepeatParams` as C++ lays it out.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct AscBinaryParams {
    /// Block strides: dst, src0, src1.
    pub blk: [u8; 3],
    /// Repeat strides: dst, src0, src1.
    pub rep: [u8; 3],
}

/// A level-0 mask: mode 0 contiguous (`lo` = count), 1 bitwise (`lo`, `hi`), 2 `MASK_PLACEHOLDER`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct AscMask {
    /// Mode.
    pub mode: u8,
    /// Count, or the low 64 lanes.
    pub lo: u64,
    /// The high 64 lanes.
    pub hi: u64,
}

impl From<AscMask> for Mask {
    fn from(m: AscMask) -> Self {
        match m.mode {
            0 => Mask::Count(m.lo),
            1 => Mask::Bits([m.lo, m.hi]),
            _ => Mask::Keep,
        }
    }
}

fn unknown(op: u8) -> SimError {
    SimError::new(
        Category::Unsupported,
        "C ABI",
        format!("vector operation {op} is not available in this build"),
    )
}

type Ops<T> = [LocalTensor<T>; 3];

fn binary<T: Arith>(op: u8, [d, a, b]: Ops<T>, count: i32) -> Result<(), SimError> {
    match op {
        0 => add(&d, &a, &b, count),
        _ => Err(unknown(op)),
    }
}

fn binary_l0<T: Arith>(
    op: u8,
    [d, a, b]: Ops<T>,
    mask: Mask,
    repeat: u8,
    p: BinaryRepeatParams,
) -> Result<(), SimError> {
    match op {
        0 => add_l0(&d, &a, &b, mask, repeat, p),
        _ => Err(unknown(op)),
    }
}

/// Two-source operation `op` (0 `Add`) at level 2 (`params` null: the first `count` elements)
/// or level 0 (`mask`, `repeat`, `params`).
///
/// # Safety
/// The tensor pointers are valid for reads; `mask` and `params` are null or valid.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_vec_binary(
    op: u8,
    elem: u8,
    dst: *const AscLocal,
    src0: *const AscLocal,
    src1: *const AscLocal,
    count: i32,
    mask: *const AscMask,
    repeat: u8,
    params: *const AscBinaryParams,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        with_dtype!(dtype(elem)?, T => {
            let ops = [(*dst).tensor::<T>()?, (*src0).tensor::<T>()?, (*src1).tensor::<T>()?];
            match (mask.as_ref(), params.as_ref()) {
                (Some(m), Some(p)) => {
                    let p = BinaryRepeatParams::new(p.blk[0], p.blk[1], p.blk[2], p.rep[0], p.rep[1], p.rep[2]);
                    binary_l0(op, ops, Mask::from(*m), repeat, p)
                }
                _ => binary(op, ops, count),
            }
        })
    })
}
