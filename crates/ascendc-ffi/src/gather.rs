//! GatherMask, Gather, Gatherb and Scatter over the C ABI.

use crate::abi::{call, dtype, AscLoc, AscLocal};
use crate::vec::AscMask;
use ascendc::api::vec::gather::*;
use ascendc::error::{Category, SimError};
use ascendc::{bf16, f16, DType, Mask};

/// Dispatches on every element type the gather family moves (bit copies).
macro_rules! with_elem {
    ($d:expr, $api:expr, $t:ident => $body:expr) => {
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
            DType::Half => {
                type $t = f16;
                $body
            }
            DType::Bfloat16 => {
                type $t = bf16;
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
            DType::Float => {
                type $t = f32;
                $body
            }
            DType::Int64 => {
                type $t = i64;
                $body
            }
            t => Err(SimError::new(
                Category::Type,
                $api,
                format!("element type {t} is not supported"),
            )),
        }
    };
}

/// `GatherMask`: `pattern` null for the built-in pattern `builtin`, else the pattern tensor of
/// element type `pat_elem`; `params` = src0BlockStride, repeatTimes, src0RepeatStride,
/// src1RepeatStride. Writes the kept count to `rsvd`.
///
/// # Safety
/// Pointers valid; `pattern` may be null.
#[no_mangle]
pub unsafe extern "C" fn ascendc_gather_mask(
    elem: u8,
    pat_elem: u8,
    dst: *const AscLocal,
    src0: *const AscLocal,
    pattern: *const AscLocal,
    builtin: u8,
    reduce_mode: u8,
    mask: u32,
    params: *const u16,
    rsvd: *mut u64,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let p = std::slice::from_raw_parts(params, 4);
        let gp = GatherMaskParams::new(p[0] as u8, p[1], p[2], p[3] as u8);
        let rm = reduce_mode != 0;
        let n = with_elem!(dtype(elem)?, "GatherMask", T => {
            let (d, s) = ((*dst).tensor::<T>()?, (*src0).tensor::<T>()?);
            match pattern.as_ref() {
                None => gather_mask(&d, &s, builtin, rm, mask, gp),
                Some(pt) => match dtype(pat_elem)? {
                    DType::Uint16 => gather_mask_tensor(&d, &s, &pt.tensor::<u16>()?, rm, mask, gp),
                    DType::Uint32 => gather_mask_tensor(&d, &s, &pt.tensor::<u32>()?, rm, mask, gp),
                    DType::Int16 => gather_mask_tensor(&d, &s, &pt.tensor::<i16>()?, rm, mask, gp),
                    DType::Int32 => gather_mask_tensor(&d, &s, &pt.tensor::<i32>()?, rm, mask, gp),
                    DType::Half => gather_mask_tensor(&d, &s, &pt.tensor::<f16>()?, rm, mask, gp),
                    DType::Float => gather_mask_tensor(&d, &s, &pt.tensor::<f32>()?, rm, mask, gp),
                    t => Err(SimError::new(
                        Category::Type,
                        "GatherMask",
                        format!("pattern tensor element type {t} is not supported (uint16_t / uint32_t)"),
                    )),
                },
            }
        })?;
        *rsvd = n;
        Ok(())
    })
}

/// `GetGatherMaskRemainCount()` into `out`.
///
/// # Safety
/// `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn ascendc_gather_mask_remain(out: *mut u64, loc: AscLoc) -> i32 {
    call(loc, || {
        *out = get_gather_mask_remain_count()?;
        Ok(())
    })
}

/// Gather (`op` 0) or Scatter (`op` 1): level 2 when `mask` is null (`count` elements), else
/// level 0 with `repeat` and the repeat stride `stride` (dst for Gather, src for Scatter).
///
/// # Safety
/// Tensor pointers valid; `mask` null or valid.
#[no_mangle]
pub unsafe extern "C" fn ascendc_gather(
    op: u8,
    elem: u8,
    dst: *const AscLocal,
    src: *const AscLocal,
    offset: *const AscLocal,
    base: u32,
    count: i32,
    mask: *const AscMask,
    repeat: u8,
    stride: u16,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let api = if op == 0 { "Gather" } else { "Scatter" };
        let o = (*offset).tensor::<u32>()?;
        let m = mask.as_ref().map(|m| Mask::from(*m));
        with_elem!(dtype(elem)?, api, T => {
            let (d, s) = ((*dst).tensor::<T>()?, (*src).tensor::<T>()?);
            match (op, m) {
                (0, None) => gather(&d, &s, &o, base, count),
                (0, Some(m)) => gather_l0(&d, &s, &o, base, m, repeat, stride),
                (_, None) => scatter(&d, &s, &o, base, count),
                (_, Some(m)) => scatter_l0(&d, &s, &o, base, m, repeat, stride as u8),
            }
        })
    })
}

/// `Gatherb(dst, src, offset, repeatTime, {dstBlkStride, dstRepStride})`.
///
/// # Safety
/// Tensor pointers valid.
#[no_mangle]
pub unsafe extern "C" fn ascendc_gatherb(
    elem: u8,
    dst: *const AscLocal,
    src: *const AscLocal,
    offset: *const AscLocal,
    repeat: u8,
    dst_blk: u8,
    dst_rep: u16,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let o = (*offset).tensor::<u32>()?;
        with_elem!(dtype(elem)?, "Gatherb", T => {
            let (d, s) = ((*dst).tensor::<T>()?, (*src).tensor::<T>()?);
            gatherb(&d, &s, &o, repeat, GatherRepeatParams::new(dst_blk, dst_rep))
        })
    })
}
