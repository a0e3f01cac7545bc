//! `Select` (数据过滤/Select, the vendor's `SelectWithBytesMask`): chooses, element by element,
//! between a tensor and a scalar by a mask of whole elements (not bits). T half or float; mask
//! type of 1, 2 or 4 bytes (bool, int8, uint8, int16, uint16, int32, uint32); A2, A3 and 310P.
//!
//! As the device does it: the scalar is duplicated into the temporary buffer and loaded into
//! CMPMASK once (`SetCmpMask`); then, chunk by chunk under the counter mask, the mask is cast to
//! half in the temporary buffer (4-byte masks are read as float and cast with `CAST_ODD`, so any
//! nonzero bit pattern stays nonzero), compared with 0 into a bit mask in place
//! (`CompareScalar` EQ, or NE when the scalar is the first source), and one CMPMASK `Select`
//! (mode 1) writes the chunk. When the mask rows are longer than the source rows, A2/A3 first
//! pack the mask rows with `GatherMask` (into the temporary buffer unless `isReuseMask`, else in
//! place), while 310P walks the rows one by one.

use crate::adv::common::{barrier_v, require, run, A2_A3_310P, ONE_BLK_SIZE, ONE_REPEAT_BYTES};
use crate::api::vec::cast::cast_l0;
use crate::api::vec::cmp_mask::{select_cmp_mask_scalar, set_cmp_mask};
use crate::api::vec::compare::compare_scalar_l0;
use crate::api::vec::duplicate::duplicate_l0;
use crate::api::vec::gather::{gather_mask, GatherMaskParams};
use crate::api::vec::mask::{reset_mask, set_mask_count, set_mask_norm, set_vector_mask};
use crate::chip::Product;
use crate::dtype::{DType, Element};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::numeric::{Arith, RoundMode};
use crate::{
    f16, BinaryRepeatParams, LocalTensor, MaskMode, UnaryRepeatParams, CMPMODE, MASK_PLACEHOLDER,
};

const API: &str = "Select";

/// `SelectWithBytesMaskShapeInfo`: `firstAxis` rows of `srcLastAxis` source elements and
/// `maskLastAxis` mask elements (`maskLastAxis ≥ srcLastAxis`; the extra mask columns are
/// ignored).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SelectWithBytesMaskShapeInfo {
    pub first_axis: u32,
    pub src_last_axis: u32,
    pub mask_last_axis: u32,
}

/// Which operand of `Select` is the scalar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SelectScalar {
    /// `Select(dst, src0Tensor, src1Scalar, …)`: mask 0 → the tensor, else the scalar.
    Second,
    /// `Select(dst, src0Scalar, src1Tensor, …)`: mask 0 → the scalar, else the tensor.
    First,
}

/// `Select<T, U, isReuseMask>(dst, src0, src1, mask, sharedTmpBuffer, info)`: `dst[i]` is
/// `scalar` or `src[i]` by `mask` (see [`SelectScalar`]) for the `src.GetSize()` elements.
/// `tmp` holds at least 1024 bytes (`GetSelectMaxMinTmpSize`); with rows of different lengths and
/// `reuse_mask` false, A2/A3 also need the packed mask (its bytes rounded up to 32) in it, and
/// with `reuse_mask` true the mask tensor is overwritten there.
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn select_with_bytes_mask<T: Element, U: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    scalar: T,
    which: SelectScalar,
    mask: &LocalTensor<U>,
    tmp: &LocalTensor<u8>,
    info: &SelectWithBytesMaskShapeInfo,
    reuse_mask: bool,
) -> Result<()> {
    run(API, SourceLoc::caller(), || {
        let p = require(API, A2_A3_310P)?;
        if !matches!(U::SIZE, 1 | 2 | 4) {
            return Err(SimError::new(
                Category::Type,
                API,
                format!(
                    "U = {} is not supported: the mask holds 1-, 2- or 4-byte elements",
                    U::DTYPE
                ),
            ));
        }
        let reverse = which == SelectScalar::First;
        match T::DTYPE {
            DType::Half => body::<f16, U>(
                p,
                &dst.reinterpret_cast(),
                &src.reinterpret_cast(),
                f16::from_f64(scalar.to_f64()),
                mask,
                tmp,
                info,
                reuse_mask,
                reverse,
            ),
            DType::Float => body::<f32, U>(
                p,
                &dst.reinterpret_cast(),
                &src.reinterpret_cast(),
                scalar.to_f64() as f32,
                mask,
                tmp,
                info,
                reuse_mask,
                reverse,
            ),
            other => Err(SimError::new(
                Category::Type,
                API,
                format!("T = {other} is not supported: Select takes half or float"),
            )),
        }
    })
}

#[allow(clippy::too_many_arguments)]
fn body<T: Arith, U: Element>(
    p: Product,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    scalar: T,
    mask: &LocalTensor<U>,
    tmp: &LocalTensor<u8>,
    info: &SelectWithBytesMaskShapeInfo,
    reuse_mask: bool,
    reverse: bool,
) -> Result<()> {
    const MIN_BUFFER: u32 = 1024;
    const RESERVED: u32 = 256;
    barrier_v()?;
    let mut bytes = tmp.get_size();
    if bytes < MIN_BUFFER {
        return Err(SimError::new(
            Category::Size,
            API,
            format!("sharedTmpBuffer of {bytes} bytes is too small: it needs at least {MIN_BUFFER} (GetSelectMaxMinTmpSize)"),
        ));
    }
    if info.mask_last_axis < info.src_last_axis {
        return Err(SimError::new(
            Category::Range,
            API,
            format!(
                "info.maskLastAxis = {} is below info.srcLastAxis = {}: every source element needs a mask element",
                info.mask_last_axis, info.src_last_axis
            ),
        ));
    }
    let unaligned = info.src_last_axis != info.mask_last_axis;
    let a2 = p != Product::Ascend310P;
    let mut packed = *mask;
    let mut offset = 0;
    if a2 && unaligned && !reuse_mask {
        let need = (src.get_size() * U::SIZE as u32).div_ceil(ONE_BLK_SIZE) * ONE_BLK_SIZE;
        if bytes < MIN_BUFFER + need {
            return Err(SimError::new(
                Category::Size,
                API,
                format!(
                    "sharedTmpBuffer of {bytes} bytes is too small: with isReuseMask = false and maskLastAxis ≠ srcLastAxis it needs {} (GetSelectMaxMinTmpSize)",
                    MIN_BUFFER + need
                ),
            ));
        }
        packed = tmp.reinterpret_cast();
        packed.set_size(need / U::SIZE as u32)?;
        bytes -= need;
        offset = need;
    }
    bytes -= RESERVED;
    let chunk = (bytes / 2 / ONE_BLK_SIZE * ONE_BLK_SIZE).min(255 * ONE_REPEAT_BYTES / 2);
    set_mask_count()?;
    let scalar_buf = tmp.reinterpret_cast::<T>();
    set_vector_mask::<f16>(
        MaskMode::COUNTER,
        (ONE_REPEAT_BYTES / T::SIZE as u32) as u64,
    )?;
    duplicate_l0(&scalar_buf, scalar, MASK_PLACEHOLDER, 1, 1, 8)?;
    barrier_v()?;
    set_cmp_mask(tmp)?;
    barrier_v()?;
    let work = tmp.at(offset)?;
    let rows = Rows {
        dst,
        src,
        work: &work,
        chunk,
        reverse,
    };
    if a2 {
        if unaligned {
            let (d, m) = (
                packed.reinterpret_cast::<u16>(),
                mask.reinterpret_cast::<u16>(),
            );
            let params = GatherMaskParams::new(
                1,
                info.first_axis as u16,
                (info.mask_last_axis * U::SIZE as u32 / ONE_BLK_SIZE) as u16,
                0,
            );
            gather_mask(
                &d,
                &m,
                7,
                true,
                info.src_last_axis * U::SIZE as u32 / 2,
                params,
            )?;
            set_mask_count()?;
            barrier_v()?;
        }
        rows.run(&packed, src.get_size(), 0, 0)?;
    } else if !unaligned {
        rows.run(mask, src.get_size(), 0, 0)?;
    } else {
        for r in 0..info.first_axis {
            rows.run(
                mask,
                info.src_last_axis,
                r * info.src_last_axis,
                r * info.mask_last_axis,
            )?;
        }
    }
    set_mask_norm()?;
    reset_mask()
}

/// The chunk loop over one stretch of the source and its mask.
struct Rows<'a, T: Element> {
    dst: &'a LocalTensor<T>,
    src: &'a LocalTensor<T>,
    work: &'a LocalTensor<u8>,
    chunk: u32,
    reverse: bool,
}

impl<T: Arith> Rows<'_, T> {
    fn run<U: Element>(
        &self,
        mask: &LocalTensor<U>,
        total: u32,
        src_at: u32,
        mask_at: u32,
    ) -> Result<()> {
        let mut off = 0;
        while off < total {
            let len = (total - off).min(self.chunk);
            self.chunk_of(
                &self.dst.at(src_at + off)?,
                &self.src.at(src_at + off)?,
                &mask.at(mask_at + off)?,
                len,
            )?;
            barrier_v()?;
            off += self.chunk;
        }
        Ok(())
    }

    /// One chunk of `len` elements: mask → half, compare with 0, select.
    fn chunk_of<U: Element>(
        &self,
        dst: &LocalTensor<T>,
        src: &LocalTensor<T>,
        mask: &LocalTensor<U>,
        len: u32,
    ) -> Result<()> {
        let bits = *self.work;
        let wide = self.work.reinterpret_cast::<f16>();
        set_vector_mask::<f16>(MaskMode::COUNTER, len as u64)?;
        match U::SIZE {
            4 => {
                let m = mask.reinterpret_cast::<f32>();
                cast_l0(
                    &wide,
                    &m,
                    RoundMode::CAST_ODD,
                    MASK_PLACEHOLDER,
                    1,
                    UnaryRepeatParams::new(1, 1, 4, 8),
                )?
            }
            2 => {
                let m = mask.reinterpret_cast::<i16>();
                cast_l0(
                    &wide,
                    &m,
                    RoundMode::CAST_NONE,
                    MASK_PLACEHOLDER,
                    1,
                    UnaryRepeatParams::new(1, 1, 8, 8),
                )?
            }
            _ => {
                let m = mask.reinterpret_cast::<u8>();
                cast_l0(
                    &wide,
                    &m,
                    RoundMode::CAST_NONE,
                    MASK_PLACEHOLDER,
                    1,
                    UnaryRepeatParams::new(1, 1, 8, 4),
                )?
            }
        }
        barrier_v()?;
        let repeats = len.div_ceil(ONE_REPEAT_BYTES / 2) as u8;
        let mode = if self.reverse {
            CMPMODE::NE
        } else {
            CMPMODE::EQ
        };
        // The compare ignores the vector mask (and the counter) on these products: `repeats`
        // whole repeats.
        compare_scalar_l0(
            &bits,
            &wide,
            f16::from_f64(0.0),
            mode,
            MASK_PLACEHOLDER,
            repeats,
            UnaryRepeatParams::default(),
        )?;
        barrier_v()?;
        select_cmp_mask_scalar(dst, &bits, src, 1, BinaryRepeatParams::default())
    }
}

/// `GetSelectMaxMinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize,
/// isReuseMask, maxValue, minValue)` from the element counts: `src_size` source elements with
/// rows of `src_last` and mask rows of `mask_last` elements of `mask_type_size` bytes; `(max,
/// min)` bytes: 2 bytes per element (at most 4096 for the minimum) rounded to 32 elements, plus
/// 512, at least 1024; plus the packed mask when the rows differ and the mask is not reused.
pub fn select_max_min_tmp_size(
    src_size: u32,
    src_last: u32,
    mask_last: u32,
    mask_type_size: u32,
    reuse_mask: bool,
) -> (u32, u32) {
    let size = |min: bool| {
        let cal = if min && src_size > 4096 {
            4096
        } else {
            src_size
        };
        let mut need = 1024u32.max(cal.div_ceil(32) * 32 * 2 + 512);
        if mask_last != src_last && !reuse_mask && mask_last > 1 {
            need += (src_size * mask_type_size).div_ceil(32) * 32;
        }
        need
    };
    (size(false), size(true))
}
