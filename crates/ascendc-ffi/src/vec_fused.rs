//! Fused vector instructions over the C ABI (AddReluCast, SubReluCast, MulCast, AddDeqRelu,
//! MulAddRelu, FusedMulAdd, MulAddDst, Axpy), CastDequant with the quantisation forms of
//! SetDeqScale, Compares, and the CMPMASK register (Compare into it, GetCmpMask, SetCmpMask, the
//! Select forms that read it).

use crate::abi::{call, dtype, AscLoc, AscLocal};
use crate::vec::{level, AscMask, AscRepeat, Level};
use crate::with_dtype;
use ascendc::api::vec::binary::{fused_mul_add, fused_mul_add_l0, mul_add_dst, mul_add_dst_l0};
use ascendc::api::vec::cmp_mask::*;
use ascendc::api::vec::compare::{ByteMask, CMPMODE, SELMODE};
use ascendc::api::vec::dequant::*;
use ascendc::api::vec::fused::*;
use ascendc::api::vec::scalar::{axpy, axpy_l0};
use ascendc::error::{Category, SimError};
use ascendc::numeric::Arith;
use ascendc::{f16, DType, Mask};
use std::ffi::c_void;

fn pair_error(api: &'static str, d: DType, s: DType) -> SimError {
    SimError::new(
        Category::Type,
        api,
        format!("source type {s} with destination type {d} is not a combination {api} has"),
    )
}

/// Fused instruction `op`: 0 AddReluCast, 1 SubReluCast, 2 MulCast, 3 AddDeqRelu, 4 MulAddRelu,
/// 5 FusedMulAdd, 6 MulAddDst, 7 Axpy (`src1` null, `scalar` one source element, unary
/// strides). Level 2 when `mask` and `params` are null.
///
/// # Safety
/// Tensor pointers valid (`src1` may be null for Axpy); `scalar` null or one element of
/// `src_elem`; `mask` and `params` both null or both valid.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_vec_fused(
    op: u8,
    dst_elem: u8,
    src_elem: u8,
    dst: *const AscLocal,
    src0: *const AscLocal,
    src1: *const AscLocal,
    scalar: *const c_void,
    count: i32,
    mask: *const AscMask,
    repeat: u8,
    params: *const AscRepeat,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let l = Level::of(count, mask, repeat, params);
        let (dt, st) = (dtype(dst_elem)?, dtype(src_elem)?);
        let d = &*dst;
        let a = &*src0;
        let none = AscLocal::default();
        let b = src1.as_ref().unwrap_or(&none);
        macro_rules! conv {
            ($D:ty, $S:ty, $f:ident, $f0:ident) => {{
                let (d, a, b) = (d.tensor::<$D>()?, a.tensor::<$S>()?, b.tensor::<$S>()?);
                level!(l, $f, $f0, binary, (&d, &a, &b))
            }};
        }
        macro_rules! relu_cast {
            ($api:literal, $f:ident, $f0:ident) => {
                match (dt, st) {
                    (DType::Int8, DType::Half) => conv!(i8, f16, $f, $f0),
                    (DType::Int8, DType::Int16) => conv!(i8, i16, $f, $f0),
                    (DType::Half, DType::Float) => conv!(f16, f32, $f, $f0),
                    _ => Err(pair_error($api, dt, st)),
                }
            };
        }
        macro_rules! same_float {
            ($api:literal, $f:ident, $f0:ident) => {
                match (dt, st) {
                    (DType::Half, DType::Half) => conv!(f16, f16, $f, $f0),
                    (DType::Float, DType::Float) => conv!(f32, f32, $f, $f0),
                    _ => Err(pair_error($api, dt, st)),
                }
            };
        }
        match op {
            0 => relu_cast!("AddReluCast", add_relu_cast, add_relu_cast_l0),
            1 => relu_cast!("SubReluCast", sub_relu_cast, sub_relu_cast_l0),
            2 => match (dt, st) {
                (DType::Int8, DType::Half) => conv!(i8, f16, mul_cast, mul_cast_l0),
                (DType::Uint8, DType::Half) => conv!(u8, f16, mul_cast, mul_cast_l0),
                _ => Err(pair_error("MulCast", dt, st)),
            },
            3 => match (dt, st) {
                (DType::Half, DType::Int32) => conv!(f16, i32, add_deq_relu, add_deq_relu_l0),
                _ => Err(pair_error("AddDeqRelu", dt, st)),
            },
            4 => same_float!("MulAddRelu", mul_add_relu, mul_add_relu_l0),
            5 => same_float!("FusedMulAdd", fused_mul_add, fused_mul_add_l0),
            6 => match (dt, st) {
                (DType::Float, DType::Half) => conv!(f32, f16, mul_add_dst, mul_add_dst_l0),
                (DType::Half, DType::Half) => conv!(f16, f16, mul_add_dst, mul_add_dst_l0),
                (DType::Float, DType::Float) => conv!(f32, f32, mul_add_dst, mul_add_dst_l0),
                (DType::Int16, DType::Int16) => conv!(i16, i16, mul_add_dst, mul_add_dst_l0),
                (DType::Int32, DType::Int32) => conv!(i32, i32, mul_add_dst, mul_add_dst_l0),
                _ => Err(pair_error("MulAddDst", dt, st)),
            },
            7 => {
                macro_rules! ax {
                    ($D:ty, $S:ty) => {{
                        let (d, a) = (d.tensor::<$D>()?, a.tensor::<$S>()?);
                        let v = (scalar as *const $S).read_unaligned();
                        level!(l, axpy, axpy_l0, unary, (&d, &a, v))
                    }};
                }
                match (dt, st) {
                    (DType::Half, DType::Half) => ax!(f16, f16),
                    (DType::Float, DType::Float) => ax!(f32, f32),
                    (DType::Float, DType::Half) => ax!(f32, f16),
                    _ => Err(pair_error("Axpy", dt, st)),
                }
            }
            _ => Err(SimError::new(
                Category::Unsupported,
                "C ABI",
                format!("fused operation {op} is not available in this build"),
            )),
        }
    })
}

/// `CastDequant<D, S, isVecDeq, halfBlock>(dst, src, …)`: level 2 when `mask` and `params` are
/// null.
///
/// # Safety
/// Tensor pointers valid; `mask` and `params` both null or both valid.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_cast_dequant(
    dst_elem: u8,
    src_elem: u8,
    dst: *const AscLocal,
    src: *const AscLocal,
    is_vec_deq: u8,
    half_block: u8,
    count: i32,
    mask: *const AscMask,
    repeat: u8,
    params: *const AscRepeat,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let l = Level::of(count, mask, repeat, params);
        let (dt, st) = (dtype(dst_elem)?, dtype(src_elem)?);
        let (v, hb) = (is_vec_deq != 0, half_block != 0);
        macro_rules! go {
            ($D:ty, $S:ty) => {{
                let (d, s) = ((*dst).tensor::<$D>()?, (*src).tensor::<$S>()?);
                level!(l, cast_dequant, cast_dequant_l0, unary, (&d, &s, v, hb))
            }};
        }
        match (dt, st) {
            (DType::Int8, DType::Int16) => go!(i8, i16),
            (DType::Uint8, DType::Int16) => go!(u8, i16),
            (DType::Half, DType::Int32) => go!(f16, i32),
            _ => Err(pair_error("CastDequant", dt, st)),
        }
    })
}

/// `SetDeqScale(float scale, int16_t offset, bool signMode)`.
///
/// # Safety
/// None beyond a valid `loc`.
#[no_mangle]
pub unsafe extern "C" fn ascendc_set_deq_scale_quant(
    scale: f32,
    offset: i16,
    sign_mode: u8,
    loc: AscLoc,
) -> i32 {
    call(loc, || set_deq_scale_quant(scale, offset, sign_mode != 0))
}

/// `SetDeqScale(vdeq, vdeqInfo)` with the three arrays of `VdeqInfo` (16 entries each).
///
/// # Safety
/// `vdeq` valid; `scale`, `offset` and `sign_mode` point to 16 elements each.
#[no_mangle]
pub unsafe extern "C" fn ascendc_set_deq_scale_vector(
    vdeq: *const AscLocal,
    scale: *const f32,
    offset: *const i16,
    sign_mode: *const u8,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let t = (*vdeq).tensor::<u64>()?;
        let info = VdeqInfo::new(
            std::array::from_fn(|i| scale.add(i).read_unaligned()),
            std::array::from_fn(|i| offset.add(i).read_unaligned()),
            std::array::from_fn(|i| sign_mode.add(i).read() != 0),
        );
        set_deq_scale_vector(&t, &info)
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

fn cmp_mode(api: &'static str, cmp: u8) -> Result<CMPMODE, SimError> {
    CMP_MODES
        .get(cmp as usize)
        .copied()
        .ok_or_else(|| SimError::range(api, "cmpMode", cmp, "[0, 5]"))
}

fn compares_in<U: ByteMask, T: Arith>(
    d: &AscLocal,
    a: &AscLocal,
    v: T,
    mode: CMPMODE,
    l: Level,
) -> Result<(), SimError> {
    let (d, a) = (d.tensor::<U>()?, a.tensor::<T>()?);
    level!(l, compares, compares_l0, unary, (&d, &a, v, mode))
}

/// `Compares(dst, src0, src1Scalar, cmpMode, …)`; `cmp` in C++ `CMPMODE` order.
///
/// # Safety
/// Tensor pointers valid; `scalar` one element of `elem`; `mask` and `params` both null or
/// both valid.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_vec_compares(
    dst_elem: u8,
    elem: u8,
    dst: *const AscLocal,
    src0: *const AscLocal,
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
        let mode = cmp_mode("Compares", cmp)?;
        let (d, a) = (&*dst, &*src0);
        with_dtype!(dtype(elem)?, T => {
            let v = (scalar as *const T).read_unaligned();
            match dtype(dst_elem)? {
                DType::Uint8 => compares_in::<u8, T>(d, a, v, mode, l),
                DType::Int8 => compares_in::<i8, T>(d, a, v, mode, l),
                t => Err(pair_error("Compares", t, dtype(elem)?)),
            }
        })
    })
}

/// `Compare(src0, src1, cmpMode, mask, repeatParams)` into CMPMASK.
///
/// # Safety
/// Tensor pointers, `mask` and `params` valid.
#[no_mangle]
pub unsafe extern "C" fn ascendc_compare_cmp_mask(
    elem: u8,
    src0: *const AscLocal,
    src1: *const AscLocal,
    cmp: u8,
    mask: *const AscMask,
    params: *const AscRepeat,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let mode = cmp_mode("Compare", cmp)?;
        let (m, p) = (Mask::from(*mask), (*params).binary());
        with_dtype!(dtype(elem)?, T => {
            let (a, b) = ((*src0).tensor::<T>()?, (*src1).tensor::<T>()?);
            compare_cmp_mask(&a, &b, mode, m, p)
        })
    })
}

/// `GetCmpMask(t)` (`op` 0) or `SetCmpMask(t)` (`op` 1).
///
/// # Safety
/// `t` valid.
#[no_mangle]
pub unsafe extern "C" fn ascendc_cmp_mask(
    op: u8,
    elem: u8,
    t: *const AscLocal,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        macro_rules! go {
            ($t:ty) => {{
                let t = (*t).tensor::<$t>()?;
                if op == 0 {
                    get_cmp_mask(&t)
                } else {
                    set_cmp_mask(&t)
                }
            }};
        }
        match dtype(elem)? {
            DType::Int8 => go!(i8),
            DType::Uint8 => go!(u8),
            DType::Int16 => go!(i16),
            DType::Uint16 => go!(u16),
            DType::Half => go!(f16),
            DType::Bfloat16 => go!(ascendc::bf16),
            DType::Int32 => go!(i32),
            DType::Uint32 => go!(u32),
            DType::Float => go!(f32),
            DType::Int64 => go!(i64),
            DType::Uint64 => go!(u64),
            t => Err(SimError::new(
                Category::Type,
                if op == 0 { "GetCmpMask" } else { "SetCmpMask" },
                format!("element type {t} is not supported (supported: b8, b16, b32, b64)"),
            )),
        }
    })
}

/// The `Select` forms without a mask argument: `sel_mask` non-null = mode 1
/// `Select(dst, selMask, src0, repeatTime, params)`, else `Select<T, sel>(dst, src0, src1,
/// repeatTime, params)`.
///
/// # Safety
/// Tensor pointers valid (`sel_mask` or `src1` null as above); `params` valid.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_select_cmp_mask(
    elem: u8,
    mask_elem: u8,
    dst: *const AscLocal,
    sel_mask: *const AscLocal,
    src0: *const AscLocal,
    src1: *const AscLocal,
    sel: u8,
    repeat: u8,
    params: *const AscRepeat,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let p = (*params).binary();
        let mode = match sel {
            0 => SELMODE::VSEL_CMPMASK_SPR,
            1 => SELMODE::VSEL_TENSOR_SCALAR_MODE,
            2 => SELMODE::VSEL_TENSOR_TENSOR_MODE,
            _ => return Err(SimError::range("Select", "selMode", sel, "[0, 2]")),
        };
        macro_rules! go {
            ($t:ty) => {{
                let (d, a) = ((*dst).tensor::<$t>()?, (*src0).tensor::<$t>()?);
                match sel_mask.as_ref() {
                    Some(m) => match dtype(mask_elem)? {
                        DType::Uint8 => select_cmp_mask_scalar(&d, &m.tensor::<u8>()?, &a, repeat, p),
                        DType::Uint16 => select_cmp_mask_scalar(&d, &m.tensor::<u16>()?, &a, repeat, p),
                        DType::Uint32 => select_cmp_mask_scalar(&d, &m.tensor::<u32>()?, &a, repeat, p),
                        DType::Uint64 => select_cmp_mask_scalar(&d, &m.tensor::<u64>()?, &a, repeat, p),
                        t => Err(SimError::new(
                            Category::Type,
                            "Select",
                            format!("selMask element type {t} is not supported (supported: uint8_t … uint64_t)"),
                        )),
                    },
                    None => select_cmp_mask(&d, &a, &(*src1).tensor::<$t>()?, mode, repeat, p),
                }
            }};
        }
        match dtype(elem)? {
            DType::Half => go!(f16),
            DType::Float => go!(f32),
            t => Err(SimError::new(
                Category::Type,
                "Select",
                format!("element type {t} is not supported (supported: half/float)"),
            )),
        }
    })
}
