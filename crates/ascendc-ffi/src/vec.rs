//! Vector instructions: level 2 (element count) and level 0 (mask, repeat, strides) forms of
//! the two-source, one-source, tensor-scalar, duplicate, cast, compare and select instructions,
//! and the mask register APIs.

use crate::abi::{call, dtype, AscLoc, AscLocal};
use crate::with_dtype;
use ascendc::api::vec::binary::*;
use ascendc::api::vec::cast::{cast, cast_l0};
use ascendc::api::vec::compare::*;
use ascendc::api::vec::duplicate::{duplicate, duplicate_l0};
use ascendc::api::vec::mask::{
    reset_mask, set_mask_count, set_mask_norm, set_vector_mask, MaskMode,
};
use ascendc::api::vec::scalar::*;
use ascendc::api::vec::unary::*;
use ascendc::error::{Category, SimError};
use ascendc::numeric::{Arith, BitArith, CastElem, FloatArith, RoundMode};
use ascendc::{
    bf16, f16, BinaryRepeatParams, DType, Element, LocalTensor, Mask, UnaryRepeatParams,
};
use std::ffi::c_void;

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
    fn binary(&self) -> BinaryRepeatParams {
        let b = self.blk.map(|v| v as u8);
        BinaryRepeatParams::new(b[0], b[1], b[2], self.rep[0], self.rep[1], self.rep[2])
    }

    fn unary(&self) -> UnaryRepeatParams {
        UnaryRepeatParams::new(self.blk[0], self.blk[1], self.rep[0], self.rep[1])
    }
}

/// Level 2 (`count`) or level 0 (`mask`, `repeat`, strides).
#[derive(Clone, Copy)]
enum Level {
    Count(i32),
    L0(Mask, u8, AscRepeat),
}

impl Level {
    /// # Safety
    /// `mask` and `params` are both null (level 2) or both valid.
    unsafe fn of(count: i32, mask: *const AscMask, repeat: u8, params: *const AscRepeat) -> Level {
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
                "int8_t … int64_t, half, bfloat16_t, float",
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

type Three<T> = [LocalTensor<T>; 3];

fn binary_arith<T: Arith>(op: u8, [d, a, b]: Three<T>, l: Level) -> Result<(), SimError> {
    match op {
        0 => level!(l, add, add_l0, binary, (&d, &a, &b)),
        1 => level!(l, sub, sub_l0, binary, (&d, &a, &b)),
        2 => level!(l, mul, mul_l0, binary, (&d, &a, &b)),
        4 => level!(l, max, max_l0, binary, (&d, &a, &b)),
        5 => level!(l, min, min_l0, binary, (&d, &a, &b)),
        8 => level!(l, add_relu, add_relu_l0, binary, (&d, &a, &b)),
        9 => level!(l, sub_relu, sub_relu_l0, binary, (&d, &a, &b)),
        _ => Err(unknown("two-source", op)),
    }
}

fn binary_float<T: FloatArith>([d, a, b]: Three<T>, l: Level) -> Result<(), SimError> {
    level!(l, div, div_l0, binary, (&d, &a, &b))
}

fn binary_bits<T: BitArith>(op: u8, [d, a, b]: Three<T>, l: Level) -> Result<(), SimError> {
    match op {
        6 => level!(l, and, and_l0, binary, (&d, &a, &b)),
        _ => level!(l, or, or_l0, binary, (&d, &a, &b)),
    }
}

fn tensors<T: Element, const N: usize>(
    raw: [*const AscLocal; N],
) -> Result<[LocalTensor<T>; N], SimError> {
    let mut out = [LocalTensor::<T>::default(); N];
    for (o, r) in out.iter_mut().zip(raw) {
        // SAFETY (caller of the entry point): the tensor pointers are valid.
        *o = unsafe { &*r }.tensor::<T>()?;
    }
    Ok(out)
}

/// Two-source instruction `op`: 0 Add, 1 Sub, 2 Mul, 3 Div, 4 Max, 5 Min, 6 And, 7 Or,
/// 8 AddRelu, 9 SubRelu. Level 2 when `mask` and `params` are null.
///
/// # Safety
/// The tensor pointers are valid for reads; `mask` and `params` are both null or both valid.
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
    params: *const AscRepeat,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let l = Level::of(count, mask, repeat, params);
        let t = dtype(elem)?;
        let raw = [dst, src0, src1];
        match op {
            3 => with_float!(t, "Div", T => binary_float::<T>(tensors(raw)?, l)),
            6 | 7 => {
                with_bits!(t, if op == 6 { "And" } else { "Or" }, T => binary_bits::<T>(op, tensors(raw)?, l))
            }
            _ => with_dtype!(t, T => binary_arith::<T>(op, tensors(raw)?, l)),
        }
    })
}

fn unary_arith<T: Arith>(op: u8, [d, s]: [LocalTensor<T>; 2], l: Level) -> Result<(), SimError> {
    match op {
        5 => level!(l, abs, abs_l0, unary, (&d, &s)),
        _ => level!(l, relu, relu_l0, unary, (&d, &s)),
    }
}

fn unary_float<T: FloatArith>(
    op: u8,
    [d, s]: [LocalTensor<T>; 2],
    l: Level,
) -> Result<(), SimError> {
    match op {
        0 => level!(l, exp, exp_l0, unary, (&d, &s)),
        1 => level!(l, ln, ln_l0, unary, (&d, &s)),
        2 => level!(l, sqrt, sqrt_l0, unary, (&d, &s)),
        3 => level!(l, rsqrt, rsqrt_l0, unary, (&d, &s)),
        _ => level!(l, reciprocal, reciprocal_l0, unary, (&d, &s)),
    }
}

fn unary_bits<T: BitArith>([d, s]: [LocalTensor<T>; 2], l: Level) -> Result<(), SimError> {
    level!(l, not, not_l0, unary, (&d, &s))
}

const UNARY_NAMES: [&str; 8] = [
    "Exp",
    "Ln",
    "Sqrt",
    "Rsqrt",
    "Reciprocal",
    "Abs",
    "Relu",
    "Not",
];

/// One-source instruction `op`: 0 Exp, 1 Ln, 2 Sqrt, 3 Rsqrt, 4 Reciprocal, 5 Abs, 6 Relu, 7 Not.
///
/// # Safety
/// As [`ascendc_vec_binary`].
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_vec_unary(
    op: u8,
    elem: u8,
    dst: *const AscLocal,
    src: *const AscLocal,
    count: i32,
    mask: *const AscMask,
    repeat: u8,
    params: *const AscRepeat,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let l = Level::of(count, mask, repeat, params);
        let t = dtype(elem)?;
        let api = *UNARY_NAMES
            .get(op as usize)
            .ok_or_else(|| unknown("one-source", op))?;
        match op {
            0..=4 => with_float!(t, api, T => unary_float::<T>(op, tensors([dst, src])?, l)),
            7 => with_bits!(t, api, T => unary_bits::<T>(tensors([dst, src])?, l)),
            _ => with_dtype!(t, T => unary_arith::<T>(op, tensors([dst, src])?, l)),
        }
    })
}

fn scalar_arith<T: Arith>(
    op: u8,
    [d, s]: [LocalTensor<T>; 2],
    v: T,
    l: Level,
) -> Result<(), SimError> {
    match op {
        0 => level!(l, adds, adds_l0, unary, (&d, &s, v)),
        1 => level!(l, muls, muls_l0, unary, (&d, &s, v)),
        2 => level!(l, maxs, maxs_l0, unary, (&d, &s, v)),
        3 => level!(l, mins, mins_l0, unary, (&d, &s, v)),
        _ => level!(l, leaky_relu, leaky_relu_l0, unary, (&d, &s, v)),
    }
}

fn scalar_bits<T: BitArith>(
    op: u8,
    [d, s]: [LocalTensor<T>; 2],
    v: T,
    l: Level,
) -> Result<(), SimError> {
    match op {
        5 => level!(l, shift_left, shift_left_l0, unary, (&d, &s, v)),
        _ => match l {
            Level::Count(n) => shift_right(&d, &s, v, n),
            Level::L0(m, r, p) => shift_right_l0(&d, &s, v, m, r, p.unary(), op == 7),
        },
    }
}

/// Tensor-scalar instruction `op`: 0 Adds, 1 Muls, 2 Maxs, 3 Mins, 4 LeakyRelu, 5 ShiftLeft,
/// 6 ShiftRight, 7 ShiftRight with `roundEn` (level 0); `scalar` points to one element.
///
/// # Safety
/// As [`ascendc_vec_binary`]; `scalar` is valid for a read of one element.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_vec_scalar(
    op: u8,
    elem: u8,
    dst: *const AscLocal,
    src: *const AscLocal,
    scalar: *const c_void,
    count: i32,
    mask: *const AscMask,
    repeat: u8,
    params: *const AscRepeat,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let l = Level::of(count, mask, repeat, params);
        let t = dtype(elem)?;
        match op {
            5..=7 => {
                let api = if op == 5 { "ShiftLeft" } else { "ShiftRight" };
                with_bits!(t, api, T => scalar_bits::<T>(op, tensors([dst, src])?, (scalar as *const T).read_unaligned(), l))
            }
            _ => {
                with_dtype!(t, T => scalar_arith::<T>(op, tensors([dst, src])?, (scalar as *const T).read_unaligned(), l))
            }
        }
    })
}

/// `Duplicate(dst, scalar, count)` or, with `mask`, `Duplicate(dst, scalar, mask, repeat,
/// dstBlockStride, dstRepeatStride)`.
///
/// # Safety
/// `dst` is valid; `scalar` points to one element; `mask` is null or valid.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_vec_duplicate(
    elem: u8,
    dst: *const AscLocal,
    scalar: *const c_void,
    count: i32,
    mask: *const AscMask,
    repeat: u8,
    dst_blk: u16,
    dst_rep: u8,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        with_dtype!(dtype(elem)?, T => {
            let d = (*dst).tensor::<T>()?;
            let v = (scalar as *const T).read_unaligned();
            match mask.as_ref() {
                Some(m) => duplicate_l0(&d, v, Mask::from(*m), repeat, dst_blk, dst_rep),
                None => duplicate(&d, v, count),
            }
        })
    })
}

fn cast_to<D: CastElem, S: CastElem>(
    d: &AscLocal,
    s: &AscLocal,
    mode: RoundMode,
    l: Level,
) -> Result<(), SimError> {
    let (d, s) = (d.tensor::<D>()?, s.tensor::<S>()?);
    level!(l, cast, cast_l0, unary, (&d, &s, mode))
}

/// `Cast(dst, src, roundMode, count)` or its level-0 form; `round` in `RoundMode` order.
///
/// # Safety
/// As [`ascendc_vec_binary`].
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_vec_cast(
    dst_elem: u8,
    src_elem: u8,
    dst: *const AscLocal,
    src: *const AscLocal,
    round: u8,
    count: i32,
    mask: *const AscMask,
    repeat: u8,
    params: *const AscRepeat,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let l = Level::of(count, mask, repeat, params);
        let mode = *RoundMode::ALL
            .get(round as usize)
            .ok_or_else(|| SimError::range("Cast", "roundMode", round, "[0, 6]"))?;
        let (d, s) = (&*dst, &*src);
        with_cast!(dtype(dst_elem)?, D => with_cast!(dtype(src_elem)?, S => cast_to::<D, S>(d, s, mode, l)))
    })
}

const CMP_MODES: [CMPMODE; 6] = [
    CMPMODE::LT,
    CMPMODE::GT,
    CMPMODE::EQ,
    CMPMODE::LE,
    CMPMODE::GE,
    CMPMODE::NE,
];

fn compare_in<U: ByteMask, T: Arith>(
    [d, a, b]: [&AscLocal; 3],
    scalar: Option<T>,
    mode: CMPMODE,
    l: Level,
) -> Result<(), SimError> {
    let (d, a) = (d.tensor::<U>()?, a.tensor::<T>()?);
    match scalar {
        Some(v) => level!(
            l,
            compare_scalar,
            compare_scalar_l0,
            unary,
            (&d, &a, v, mode)
        ),
        None => {
            let b = b.tensor::<T>()?;
            level!(l, compare, compare_l0, binary, (&d, &a, &b, mode))
        }
    }
}

/// `Compare(dst, src0, src1, cmpMode, …)`, or `CompareScalar` when `scalar` is not null;
/// `cmp` in C++ `CMPMODE` order (LT, GT, EQ, LE, GE, NE); `dst` holds uint8_t or int8_t.
///
/// # Safety
/// As [`ascendc_vec_binary`]; `src1` is valid when `scalar` is null; `scalar` is null or points
/// to one element.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_vec_compare(
    dst_elem: u8,
    elem: u8,
    dst: *const AscLocal,
    src0: *const AscLocal,
    src1: *const AscLocal,
    scalar: *const c_void,
    cmp: u8,
    count: i32,
    mask: *const AscMask,
    repeat: u8,
    params: *const AscRepeat,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let l = Level::of(count, mask, repeat, params);
        let mode = *CMP_MODES
            .get(cmp as usize)
            .ok_or_else(|| SimError::range("Compare", "cmpMode", cmp, "[0, 5]"))?;
        let none = AscLocal::default();
        let ops = [&*dst, &*src0, src1.as_ref().unwrap_or(&none)];
        with_dtype!(dtype(elem)?, T => {
            let v = (!scalar.is_null()).then(|| (scalar as *const T).read_unaligned());
            match dtype(dst_elem)? {
                DType::Uint8 => compare_in::<u8, T>(ops, v, mode, l),
                DType::Int8 => compare_in::<i8, T>(ops, v, mode, l),
                t => Err(unsupported("Compare", t, "uint8_t/int8_t destination")),
            }
        })
    })
}

fn select_in<T: Arith, M: SelMaskElem>(
    [d, m, a, b]: [&AscLocal; 4],
    scalar: Option<T>,
    mode: SELMODE,
    l: Level,
) -> Result<(), SimError> {
    let (d, m, a) = (d.tensor::<T>()?, m.tensor::<M>()?, a.tensor::<T>()?);
    let b = b.tensor::<T>()?;
    let src1 = match scalar {
        Some(v) => SelectSrc1::Scalar(v),
        None => SelectSrc1::Tensor(&b),
    };
    level!(l, select, select_l0, binary, (&d, &m, &a, src1, mode))
}

/// `Select(dst, selMask, src0, src1 | scalar, selMode, …)`; `sel` in `SELMODE` order.
///
/// # Safety
/// As [`ascendc_vec_compare`]; `sel_mask` is valid.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_vec_select(
    elem: u8,
    mask_elem: u8,
    dst: *const AscLocal,
    sel_mask: *const AscLocal,
    src0: *const AscLocal,
    src1: *const AscLocal,
    scalar: *const c_void,
    sel: u8,
    count: i32,
    mask: *const AscMask,
    repeat: u8,
    params: *const AscRepeat,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let l = Level::of(count, mask, repeat, params);
        let mode = match sel {
            0 => SELMODE::VSEL_CMPMASK_SPR,
            1 => SELMODE::VSEL_TENSOR_SCALAR_MODE,
            2 => SELMODE::VSEL_TENSOR_TENSOR_MODE,
            _ => return Err(SimError::range("Select", "selMode", sel, "[0, 2]")),
        };
        let none = AscLocal::default();
        let ops = [&*dst, &*sel_mask, &*src0, src1.as_ref().unwrap_or(&none)];
        with_dtype!(dtype(elem)?, T => {
            let v = (!scalar.is_null()).then(|| (scalar as *const T).read_unaligned());
            match dtype(mask_elem)? {
                DType::Uint8 => select_in::<T, u8>(ops, v, mode, l),
                DType::Uint16 => select_in::<T, u16>(ops, v, mode, l),
                DType::Uint32 => select_in::<T, u32>(ops, v, mode, l),
                DType::Uint64 => select_in::<T, u64>(ops, v, mode, l),
                t => Err(unsupported("Select", t, "uint8_t … uint64_t selMask")),
            }
        })
    })
}

/// `SetVectorMask<T, mode>` (`op` 0, `counter` selects COUNTER), `SetMaskCount` (1),
/// `SetMaskNorm` (2), `ResetMask` (3).
#[no_mangle]
pub extern "C" fn ascendc_vec_mask(
    op: u8,
    elem: u8,
    counter: u8,
    mask: AscMask,
    loc: AscLoc,
) -> i32 {
    call(loc, || match op {
        0 => {
            let mode = if counter != 0 {
                MaskMode::COUNTER
            } else {
                MaskMode::NORMAL
            };
            with_dtype!(dtype(elem)?, T => set_vector_mask::<T>(mode, Mask::from(mask)))
        }
        1 => set_mask_count(),
        2 => set_mask_norm(),
        _ => reset_mask(),
    })
}
