//! The sorting family over the C ABI: Sort32, MrgSort, ProposalConcat, ProposalExtract,
//! RpSort16, MrgSort4 and GetMrgSortResult.

use crate::abi::{call, dtype, AscLoc, AscLocal};
use ascendc::api::sort::*;
use ascendc::error::{Category, SimError};
use ascendc::{f16, DType, LocalTensor};

/// Dispatches on the score types of the family (half, float); other element types are a type
/// error.
macro_rules! with_score {
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
            t => Err(SimError::new(
                Category::Type,
                $api,
                format!("element type {t} is not supported (half, float)"),
            )),
        }
    };
}

/// A tensor argument that may be a default-constructed C++ `LocalTensor` (no buffer, no
/// length): the empty tensor then, else the converted handle.
fn optional<T: ascendc::Element>(raw: &AscLocal) -> Result<LocalTensor<T>, SimError> {
    if raw.len == 0 && raw.addr == 0 && raw.owner_queue == 0 {
        Ok(LocalTensor::default())
    } else {
        raw.tensor::<T>()
    }
}

/// `Sort32(dst, src0, src1, repeatTime)`.
///
/// # Safety
/// Tensor pointers valid.
#[no_mangle]
pub unsafe extern "C" fn ascendc_sort32(
    elem: u8,
    dst: *const AscLocal,
    src0: *const AscLocal,
    src1: *const AscLocal,
    repeat: i32,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        with_score!(dtype(elem)?, "Sort32", T => sort32(
            &(*dst).tensor::<T>()?,
            &(*src0).tensor::<T>()?,
            &(*src1).tensor::<u32>()?,
            repeat
        ))
    })
}

/// MrgSort (`proposals` 0) or MrgSort4 (`proposals` 1): `srcs` points at four tensors,
/// `lens` at the four `elementLengths`.
///
/// # Safety
/// `dst`, `srcs[0..4]` and `lens[0..4]` valid.
#[no_mangle]
pub unsafe extern "C" fn ascendc_mrg_sort(
    proposals: u8,
    elem: u8,
    dst: *const AscLocal,
    srcs: *const AscLocal,
    lens: *const u16,
    suspension: u8,
    valid_bit: u16,
    repeat: u16,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let api = if proposals == 0 {
            "MrgSort"
        } else {
            "MrgSort4"
        };
        let l = std::slice::from_raw_parts(lens, 4);
        let info = MrgSort4Info::new([l[0], l[1], l[2], l[3]], suspension != 0, valid_bit, repeat);
        let s = std::slice::from_raw_parts(srcs, 4);
        with_score!(dtype(elem)?, api, T => {
            // Lists left out by `validBit` (3: lists 1-2, 7: lists 1-3) may be
            // default-constructed C++ tensors: they are not converted.
            let used = match valid_bit {
                3 => 2,
                7 => 3,
                _ => 4,
            };
            let mut t = [LocalTensor::<T>::default(); 4];
            for (slot, raw) in t.iter_mut().zip(s).take(used) {
                *slot = raw.tensor::<T>()?;
            }
            let list = MrgSortSrcList::new(t[0], t[1], t[2], t[3]);
            let d = (*dst).tensor::<T>()?;
            if proposals == 0 {
                mrg_sort(&d, &list, &info)
            } else {
                mrg_sort4(&d, &list, &info)
            }
        })
    })
}

/// ProposalConcat (`op` 0), ProposalExtract (`op` 1) or RpSort16 (`op` 2, `mode` ignored).
///
/// # Safety
/// Tensor pointers valid.
#[no_mangle]
pub unsafe extern "C" fn ascendc_proposal(
    op: u8,
    elem: u8,
    dst: *const AscLocal,
    src: *const AscLocal,
    repeat: i32,
    mode: i32,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let api = ["ProposalConcat", "ProposalExtract", "RpSort16"][op.min(2) as usize];
        with_score!(dtype(elem)?, api, T => {
            let (d, s) = ((*dst).tensor::<T>()?, (*src).tensor::<T>()?);
            match op {
                0 => proposal_concat(&d, &s, repeat, mode),
                1 => proposal_extract(&d, &s, repeat, mode),
                _ => rp_sort16(&d, &s, repeat),
            }
        })
    })
}

/// `GetMrgSortResult(…)` into `out[0..4]`.
///
/// # Safety
/// `out` points at four writable `u16`.
#[no_mangle]
pub unsafe extern "C" fn ascendc_get_mrg_sort_result(out: *mut u16, loc: AscLoc) -> i32 {
    call(loc, || {
        let c = get_mrg_sort_result()?;
        std::slice::from_raw_parts_mut(out, 4).copy_from_slice(&c);
        Ok(())
    })
}

/// `Concat(concat, src, tmp, repeatTime)`: `cat` (the `concat` argument) is replaced by the
/// tensor to sort.
///
/// # Safety
/// Tensor pointers valid; `cat` writable.
#[no_mangle]
pub unsafe extern "C" fn ascendc_sort_concat(
    elem: u8,
    cat: *mut AscLocal,
    src: *const AscLocal,
    tmp: *const AscLocal,
    repeat: i32,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        with_score!(dtype(elem)?, "Concat", T => {
            let mut c = optional::<T>(&*cat)?;
            concat(&mut c, &(*src).tensor::<T>()?, &(*tmp).tensor::<T>()?, repeat)?;
            *cat = AscLocal::of(&c);
            Ok(())
        })
    })
}

/// `Sort<T, isFullSort>(dst, concat, index, tmp, repeatTime)`.
///
/// # Safety
/// Tensor pointers valid.
#[no_mangle]
pub unsafe extern "C" fn ascendc_sort_sort(
    elem: u8,
    dst: *const AscLocal,
    concat: *const AscLocal,
    index: *const AscLocal,
    tmp: *const AscLocal,
    repeat: i32,
    full: u8,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        with_score!(dtype(elem)?, "Sort", T => sort(
            &(*dst).tensor::<T>()?,
            &(*concat).tensor::<T>()?,
            &optional::<u32>(&*index)?,
            &optional::<T>(&*tmp)?,
            repeat,
            full != 0
        ))
    })
}

/// `Extract(dstValue, dstIndex, sorted, repeatTime)`.
///
/// # Safety
/// Tensor pointers valid.
#[no_mangle]
pub unsafe extern "C" fn ascendc_sort_extract(
    elem: u8,
    dst_value: *const AscLocal,
    dst_index: *const AscLocal,
    sorted: *const AscLocal,
    repeat: i32,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        with_score!(dtype(elem)?, "Extract", T => extract(
            &(*dst_value).tensor::<T>()?,
            &optional::<u32>(&*dst_index)?,
            &(*sorted).tensor::<T>()?,
            repeat
        ))
    })
}

/// The high-level `MrgSort<T, isExhaustedSuspension>(dst, sortList, elementCountList,
/// sortedNum, validBit, repeatTime)`.
///
/// # Safety
/// `dst`, `srcs[0..4]`, `lens[0..4]` and `sorted_num[0..4]` valid.
#[no_mangle]
pub unsafe extern "C" fn ascendc_sort_mrg_sort(
    elem: u8,
    dst: *const AscLocal,
    srcs: *const AscLocal,
    lens: *const u16,
    sorted_num: *mut u32,
    valid_bit: u16,
    repeat: i32,
    suspension: u8,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let l = std::slice::from_raw_parts(lens, 4);
        let s = std::slice::from_raw_parts(srcs, 4);
        let out = &mut *(sorted_num as *mut [u32; 4]);
        with_score!(dtype(elem)?, "MrgSort", T => {
            let mut t = [LocalTensor::<T>::default(); 4];
            for (slot, raw) in t.iter_mut().zip(s) {
                *slot = optional::<T>(raw)?;
            }
            let list = MrgSortSrcList::new(t[0], t[1], t[2], t[3]);
            mrg_sort_with_counts(
                &(*dst).tensor::<T>()?,
                &list,
                [l[0], l[1], l[2], l[3]],
                out,
                valid_bit,
                repeat,
                suspension != 0,
            )
        })
    })
}

/// `GetSortOffset<T>(n)` (`len` 0) or `GetSortLen<T>(n)` (`len` 1) into `out`.
///
/// # Safety
/// `out` writable.
#[no_mangle]
pub unsafe extern "C" fn ascendc_sort_elems(
    elem: u8,
    len: u8,
    n: u32,
    out: *mut u32,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let api = if len == 0 {
            "GetSortOffset"
        } else {
            "GetSortLen"
        };
        *out = with_score!(dtype(elem)?, api, T => if len == 0 {
            get_sort_offset::<T>(n)
        } else {
            get_sort_len::<T>(n)
        })?;
        Ok(())
    })
}
