//! Vector instructions: level 2 (element count) and level 0 (mask, repeat, strides) forms of
//! the two-source, one-source, tensor-scalar, duplicate, cast, compare and select instructions,
//! and the mask register APIs. This module holds what they share: the mask and stride types,
//! the level of a call and the element-type dispatch.

use crate::abi::AscLocal;
use ascendc::error::{Category, SimError};
use ascendc::{BinaryRepeatParams, DType, Element, LocalTensor, Mask, UnaryRepeatParams};

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

/// Block strides (dst, src0, src1) and repeat strides (dst, src0, src1) of a level-0 call; the
/// one-source forms use the first two of each.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct AscRepeat {
    /// Block strides.
    pub blk: [u16; 3],
    /// Repeat strides.
    pub rep: [u8; 3],
}

impl AscRepeat {
    pub(crate) fn binary(&self) -> BinaryRepeatParams {
        let b = self.blk.map(|v| v as u8);
        BinaryRepeatParams::new(b[0], b[1], b[2], self.rep[0], self.rep[1], self.rep[2])
    }

    pub(crate) fn unary(&self) -> UnaryRepeatParams {
        UnaryRepeatParams::new(self.blk[0], self.blk[1], self.rep[0], self.rep[1])
    }
}

/// Level 2 (`count`) or level 0 (`mask`, `repeat`, strides).
#[derive(Clone, Copy)]
pub(crate) enum Level {
    Count(i32),
    L0(Mask, u8, AscRepeat),
}

impl Level {
    /// # Safety
    /// `mask` and `params` are both null (level 2) or both valid.
    pub(crate) unsafe fn of(
        count: i32,
        mask: *const AscMask,
        repeat: u8,
        params: *const AscRepeat,
    ) -> Level {
        match (mask.as_ref(), params.as_ref()) {
            (Some(m), Some(p)) => Level::L0(Mask::from(*m), repeat, *p),
            _ => Level::Count(count),
        }
    }
}

fn unsupported(api: &'static str, t: DType, set: &str) -> SimError {
    SimError::new(
        Category::Type,
        api,
        format!("element type {t} is not supported (supported: {set})"),
    )
}

fn unknown(kind: &str, op: u8) -> SimError {
    SimError::new(
        Category::Unsupported,
        "C ABI",
        format!("{kind} operation {op} is not available in this build"),
    )
}

/// Dispatches on the types with floating-point vector arithmetic (half, float).
macro_rules! with_float {
    ($d:expr, $api:expr, $t:ident => $body:expr) => {
        match $d {
            DType::Half => {
                type $t = f16;
                $body
            }
            DType::Float => {
                type $t = f32;
                $body
            }
            t => Err(unsupported($api, t, "half/float")),
        }
    };
}

/// Dispatches on the types with bitwise vector operations (int16, uint16, int32, uint32).
macro_rules! with_bits {
    ($d:expr, $api:expr, $t:ident => $body:expr) => {
        match $d {
            DType::Int16 => {
                type $t = i16;
                $body
            }
            DType::Uint16 => {
                type $t = u16;
                $body
            }
            DType::Int32 => {
                type $t = i32;
                $body
            }
            DType::Uint32 => {
                type $t = u32;
                $body
            }
            t => Err(unsupported($api, t, "int16_t/uint16_t/int32_t/uint32_t")),
        }
    };
}

/// Dispatches on the types `Cast` converts between.
macro_rules! with_cast {
    ($d:expr, $t:ident => $body:expr) => {
        match $d {
            DType::Int4 => {
                type $t = ascendc::Int4;
                $body
            }
            DType::Int8 => {
                type $t = i8;
                $body
            }
            DType::Uint8 => {
                type $t = u8;
                $body
            }
            DType::Int16 => {
                type $t = i16;
                $body
            }
            DType::Uint16 => {
                type $t = u16;
                $body
            }
            DType::Int32 => {
                type $t = i32;
                $body
            }
            DType::Uint32 => {
                type $t = u32;
                $body
            }
            DType::Int64 => {
                type $t = i64;
                $body
            }
            DType::Half => {
                type $t = f16;
                $body
            }
            DType::Bfloat16 => {
                type $t = bf16;
                $body
            }
            DType::Float => {
                type $t = f32;
                $body
            }
            t => Err(unsupported(
                "Cast",
                t,
                "int4b_t, int8_t … int64_t, half, bfloat16_t, float",
            )),
        }
    };
}

/// Calls the level-2 or level-0 form of an instruction.
macro_rules! level {
    ($lvl:expr, $f:ident, $f0:ident, $to:ident, ($($a:expr),*)) => {
        match $lvl {
            Level::Count(n) => $f($($a),*, n),
            Level::L0(m, r, p) => $f0($($a),*, m, r, p.$to()),
        }
    };
}
pub(crate) use level;

/// Runs `f` on the tensors of a call as the simulator's handles: the C++ handles themselves
/// when they pass the block's cached checks, checked copies otherwise.
#[inline(always)]
fn with_tensors<T: Element, const N: usize>(
    raw: [*const AscLocal; N],
    f: impl FnOnce([&LocalTensor<T>; N]) -> Result<(), SimError>,
) -> Result<(), SimError> {
    // SAFETY (caller of the entry point): the tensor pointers are valid.
    let raw = raw.map(|r| unsafe { &*r });
    if let Some(views) = AscLocal::views(raw) {
        return f(views);
    }
    let mut ts = [LocalTensor::<T>::default(); N];
    for (t, r) in ts.iter_mut().zip(raw) {
        r.load(t)?;
    }
    f(ts.each_ref())
}

mod elementwise;
mod select;
