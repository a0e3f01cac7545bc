//! Duplicate, Cast, Compare / CompareScalar, Select and the mask register.

use super::{unsupported, AscMask, AscRepeat, Level};
use crate::abi::{call, dtype, AscLoc, AscLocal};
use crate::with_dtype;
use ascendc::api::vec::cast::{cast, cast_l0, CastType};
use ascendc::api::vec::compare::*;
use ascendc::api::vec::control::{set_deq_scale, set_saturation_flag};
use ascendc::api::vec::duplicate::{duplicate, duplicate_l0};
use ascendc::api::vec::mask::{
    reset_mask, set_mask_count, set_mask_norm, set_vector_mask, MaskMode,
};
use ascendc::error::SimError;
use ascendc::numeric::{Arith, RoundMode};
use ascendc::{bf16, f16, DType, Mask};
use std::ffi::c_void;

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

fn cast_to<D: CastType, S: CastType>(
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
    match scalar {
        Some(v) => level!(
            l,
            select,
            select_l0,
            binary,
            (&d, &m, &a, SelectSrc1::Scalar(v), mode)
        ),
        None => {
            let b = b.tensor::<T>()?;
            level!(
                l,
                select,
                select_l0,
                binary,
                (&d, &m, &a, SelectSrc1::Tensor(&b), mode)
            )
        }
    }
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

/// Control registers: `SetSaturationFlag(value != 0)` (`op` 0) and `SetDeqScale(half)` with the
/// scale's bits in `value` (`op` 1).
#[no_mangle]
pub extern "C" fn ascendc_vec_control(op: u8, value: u16, loc: AscLoc) -> i32 {
    call(loc, || match op {
        0 => set_saturation_flag(value != 0),
        _ => set_deq_scale(f16::from_bits(value)),
    })
}
