//! `Broadcast` (张量变换/Broadcast): a 1-D or 2-D source expanded to the destination shape along
//! axis 0 (`[1, n]` → `[m, n]`) or axis 1 (`[m, 1]` → `[m, n]`); 1-, 2- and 4-byte elements
//! (the page lists int8_t, uint8_t, half, float); A2, A3 and 310P.
//!
//! As the device does it. 1-byte elements go through half in the temporary buffer (`Cast` in,
//! broadcast, `Cast` out). Equal sizes are a copy (`Copy` on A2/A3, `DataCopy` on 310P); one
//! source element is read by the scalar unit and `Duplicate`d. Axis 0: rows are written by `Or`
//! with a zero block, eight rows a repeat (or a row an instruction for rows of 255 blocks and
//! more). Axis 1 on A2/A3: `Brcb` spreads the source to one block per element in the buffer, then
//! `Copy` (counter mode: the count is per repeat) writes a row per repeat; rows that are not
//! whole blocks are built padded and packed by `GatherMask`. Axis 1 on 310P: the source is
//! repeated as rows by `Or`, then `Transpose` (NCHW → NHWC) turns them into columns; the column
//! count must be whole blocks.

use crate::adv::common::{barrier_v, require, run, sync_event, Tmp, A2_A3_310P};
use crate::api::data_copy::data_copy;
use crate::api::vec::binary::or_l0;
use crate::api::vec::cast::cast_l0;
use crate::api::vec::copy::{copy, CopyRepeatParams};
use crate::api::vec::duplicate::duplicate;
use crate::api::vec::fill::{brcb, BrcbRepeatParams};
use crate::api::vec::gather::{gather_mask, GatherMaskParams};
use crate::api::vec::mask::{reset_mask, set_mask_count, set_mask_norm, set_vector_mask};
use crate::api::vec::transpose::{transpose_ext, TransposeParamsExt, TransposeType};
use crate::chip::Product;
use crate::dtype::{DType, Element};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::numeric::RoundMode;
use crate::{
    f16, BinaryRepeatParams, HardEvent, LocalTensor, MaskMode, UnaryRepeatParams, MASK_PLACEHOLDER,
};

const API: &str = "Broadcast";

/// Rows one `Or` repeat writes on the axis-0 path.
const OR_ROWS: u32 = 8;
/// The largest repeat count.
const MAX_REPEAT: u32 = 255;

/// `Broadcast<T, dim, axis, isReuseSource>(dst, src, dstShape, srcShape, [sharedTmpBuffer])`:
/// `dst_shape`/`src_shape` of 1 or 2 dimensions; `axis` the expanded one (0 or 1). `T`: 1-, 2- or
/// 4-byte elements (1-byte ones int8/uint8). `tmp`: `GetBroadCastMaxMinTmpSize` bytes.
#[track_caller]
pub fn broadcast<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    dst_shape: &[u32],
    src_shape: &[u32],
    axis: u32,
    tmp: Tmp,
) -> Result<()> {
    run(API, SourceLoc::caller(), || {
        let p = require(API, A2_A3_310P)?;
        check(T::DTYPE, dst_shape, src_shape, axis)?;
        let (src_size, dst_size): (u32, u32) =
            (src_shape.iter().product(), dst_shape.iter().product());
        for (what, need, have) in [
            ("srcTensor", src_size, src.get_size()),
            ("dstTensor", dst_size, dst.get_size()),
        ] {
            if need > have {
                return Err(SimError::new(
                    Category::Size,
                    API,
                    format!("{what} has {have} elements: its shape needs {need}"),
                ));
            }
        }
        let buf = tmp.buffer(API)?;
        let b = Brc {
            dst_shape,
            src_size,
            dst_size,
            axis,
            product: p,
        };
        if T::SIZE == 1 {
            // Through half: source, result and the broadcast's own buffer one after another.
            let halves = buf.reinterpret_cast::<f16>();
            let (s16, d16) = (src_size.div_ceil(16) * 16, dst_size.div_ceil(16) * 16);
            if halves.get_size() <= s16 + d16 {
                return Err(SimError::new(
                    Category::Size,
                    API,
                    format!(
                        "sharedTmpBuffer of {} bytes is too small: 1-byte elements go through half, {} bytes for the source and result copies and more for the broadcast; size it with GetBroadCastMaxMinTmpSize",
                        buf.get_size(),
                        (s16 + d16) * 2
                    ),
                ));
            }
            let src_h = halves;
            let dst_h = halves.at(s16)?;
            let rest = dst_h.at(d16)?;
            set_mask_count()?;
            set_vector_mask::<T>(MaskMode::COUNTER, src_size as u64)?;
            byte_cast(&src_h, src, true)?;
            barrier_v()?;
            b.compute(&dst_h, &src_h, &rest)?;
            set_vector_mask::<T>(MaskMode::COUNTER, dst_size as u64)?;
            byte_cast(&dst_h, dst, false)?;
            barrier_v()?;
        } else {
            set_mask_count()?;
            b.compute(dst, src, &buf.reinterpret_cast())?;
        }
        set_mask_norm()?;
        reset_mask()
    })
}

fn check(t: DType, dst: &[u32], src: &[u32], axis: u32) -> Result<()> {
    let err = |c, m: String| Err(SimError::new(c, API, m));
    if !matches!(t.size(), 1 | 2 | 4) || (t.size() == 1 && !matches!(t, DType::Int8 | DType::Uint8))
    {
        return err(
            Category::Type,
            format!("T = {t} is not supported: Broadcast takes 1-, 2- or 4-byte elements (int8_t, uint8_t, half, float on its page)"),
        );
    }
    if !(1..=2).contains(&dst.len()) || dst.len() != src.len() {
        return err(
            Category::Range,
            format!(
                "dim = {}: Broadcast takes 1 or 2 dimensions, the same for src and dst",
                dst.len()
            ),
        );
    }
    if axis > 1 {
        return err(Category::Range, format!("axis = {axis}: must be 0 or 1"));
    }
    for (i, (&d, &s)) in dst.iter().zip(src).enumerate() {
        if s != d && s != 1 {
            return err(
                Category::Size,
                format!("srcShape[{i}] = {s} can not broadcast to dstShape[{i}] = {d}"),
            );
        }
    }
    Ok(())
}

/// `Cast` between the 1-byte type and half (`CAST_NONE`): to half when `widen`.
fn byte_cast<T: Element>(h: &LocalTensor<f16>, t: &LocalTensor<T>, widen: bool) -> Result<()> {
    let (to_h, to_t) = (
        UnaryRepeatParams::new(1, 1, 8, 4),
        UnaryRepeatParams::new(1, 1, 4, 8),
    );
    let m = RoundMode::CAST_NONE;
    match (T::DTYPE, widen) {
        (DType::Int8, true) => {
            cast_l0(h, &t.reinterpret_cast::<i8>(), m, MASK_PLACEHOLDER, 1, to_h)
        }
        (DType::Int8, false) => {
            cast_l0(&t.reinterpret_cast::<i8>(), h, m, MASK_PLACEHOLDER, 1, to_t)
        }
        (_, true) => cast_l0(h, &t.reinterpret_cast::<u8>(), m, MASK_PLACEHOLDER, 1, to_h),
        (_, false) => cast_l0(&t.reinterpret_cast::<u8>(), h, m, MASK_PLACEHOLDER, 1, to_t),
    }
}

/// One call's shape facts.
struct Brc<'a> {
    dst_shape: &'a [u32],
    src_size: u32,
    dst_size: u32,
    axis: u32,
    product: Product,
}

impl Brc<'_> {
    /// `BroadCastCompute` on 2- or 4-byte elements; counter mode on return.
    fn compute<T: Element>(
        &self,
        dst: &LocalTensor<T>,
        src: &LocalTensor<T>,
        tmp: &LocalTensor<T>,
    ) -> Result<()> {
        if self.src_size == self.dst_size {
            set_vector_mask::<T>(MaskMode::COUNTER, self.dst_size as u64)?;
            if self.product == Product::Ascend310P {
                data_copy(dst, src, self.dst_size)?;
            } else {
                copy(
                    dst,
                    src,
                    MASK_PLACEHOLDER,
                    1,
                    CopyRepeatParams::new(1, 1, 8, 8),
                )?;
            }
            barrier_v()?;
        } else if self.src_size == 1 {
            sync_event(API, HardEvent::V_S)?;
            let v = src.get_value(0)?;
            sync_event(API, HardEvent::S_V)?;
            duplicate(dst, v, self.dst_size)?;
            barrier_v()?;
        } else if self.axis == 1 {
            if self.product == Product::Ascend310P {
                self.columns_310p(dst, src, tmp)?;
            } else {
                self.columns(dst, src, tmp)?;
            }
        } else {
            self.rows(dst, src, tmp)?;
        }
        set_mask_count()
    }

    /// Axis 0: every row of dst a copy of the source row, by `Or` with a zero block.
    fn rows<T: Element>(
        &self,
        dst: &LocalTensor<T>,
        src: &LocalTensor<T>,
        tmp: &LocalTensor<T>,
    ) -> Result<()> {
        let (m, n) = (self.dst_shape[0], self.dst_shape[1]);
        let blk = 32 / T::SIZE as u32;
        if !n.is_multiple_of(blk) {
            return Err(SimError::new(
                Category::Size,
                API,
                format!("dstShape[1] = {n}: broadcasting along axis 0 needs rows of whole 32-byte blocks ({blk} elements)"),
            ));
        }
        let zero = zero_block(tmp)?;
        if n >= MAX_REPEAT * blk {
            return or_rows(dst, src, &zero, n, m);
        }
        spread_rows(dst, src, &zero, m, n)
    }

    /// Axis 1 on A2/A3: `Brcb` to a block per source element, `Copy` a row per repeat (padded
    /// rows packed by `GatherMask`), in chunks the buffer holds.
    fn columns<T: Element>(
        &self,
        dst: &LocalTensor<T>,
        src: &LocalTensor<T>,
        tmp: &LocalTensor<T>,
    ) -> Result<()> {
        let (m, n) = (self.dst_shape[0], self.dst_shape[1]);
        let blk = 32 / T::SIZE as u32;
        let aligned = n.is_multiple_of(blk);
        let reps = n.div_ceil(blk);
        let row = reps * blk;
        let min = blk * blk + if aligned { 0 } else { blk * row };
        if tmp.get_size() < min {
            return Err(SimError::new(
                Category::Size,
                API,
                format!(
                    "sharedTmpBuffer of {} bytes is too small: axis 1 needs {} bytes; size it with GetBroadCastMaxMinTmpSize",
                    tmp.get_size() * T::SIZE as u32,
                    min * T::SIZE as u32
                ),
            ));
        }
        let chunk = tmp.get_size() / min * blk;
        let mut done = 0;
        while done < m {
            let rows = (m - done).min(chunk);
            let (d, s) = (dst.at(done * n)?, src.at(done)?);
            brcb_blocks(&s, rows, blk, tmp)?;
            if aligned {
                set_vector_mask::<T>(MaskMode::COUNTER, n as u64)?;
                copy_rows(
                    &d,
                    tmp,
                    rows,
                    CopyRepeatParams::new(1, 0, reps as u16, 1),
                    n,
                    blk,
                )?;
            } else {
                set_vector_mask::<T>(MaskMode::COUNTER, row as u64)?;
                let padded = tmp.at(rows * blk)?;
                copy_rows(
                    &padded,
                    tmp,
                    rows,
                    CopyRepeatParams::new(1, 0, reps as u16, 1),
                    row,
                    blk,
                )?;
                barrier_v()?;
                gather_mask(
                    &d,
                    &padded,
                    7,
                    true,
                    n,
                    GatherMaskParams::new(1, rows as u16, reps as u16, 0),
                )?;
                set_mask_count()?;
            }
            barrier_v()?;
            done += rows;
        }
        Ok(())
    }

    /// Axis 1 on 310P: rows of the source built by `Or`, turned into columns by `Transpose`.
    fn columns_310p<T: Element>(
        &self,
        dst: &LocalTensor<T>,
        src: &LocalTensor<T>,
        tmp: &LocalTensor<T>,
    ) -> Result<()> {
        let (m, n) = (self.dst_shape[0], self.dst_shape[1]);
        let blk = 32 / T::SIZE as u32;
        let zero = zero_block(tmp)?;
        let work = tmp.at(blk)?;
        if m >= MAX_REPEAT * blk {
            or_rows(&work, src, &zero, m, n)?;
            to_columns(dst, &work, m, n)?;
            return barrier_v();
        }
        if !(m * T::SIZE as u32).is_multiple_of(32) {
            return Err(SimError::new(
                Category::Size,
                API,
                format!("dstShape[0] = {m}: on Atlas inference products broadcasting along axis 1 needs whole 32-byte blocks of rows"),
            ));
        }
        let room = tmp.get_size() - blk;
        let min = blk * n.div_ceil(OR_ROWS);
        // (The device's debug build asserts `room > min`, failing at the size its own host helper
        // returns as the minimum; the computation needs `room ≥ min`.)
        if room < min {
            return Err(SimError::new(
                Category::Size,
                API,
                format!(
                    "sharedTmpBuffer of {} bytes is too small: axis 1 needs {} bytes; size it with GetBroadCastMaxMinTmpSize",
                    tmp.get_size() * T::SIZE as u32,
                    (min + blk) * T::SIZE as u32
                ),
            ));
        }
        let chunk = room / min * blk;
        let mut done = 0;
        while done < m {
            let rows = (m - done).min(chunk);
            if n * rows > room {
                // The device sizes its chunks from `⌈n / 8⌉` blocks a row but writes `n` rows of
                // the chunk: below about the maximum size it runs past the buffer.
                return Err(SimError::new(
                    Category::Size,
                    API,
                    format!(
                        "sharedTmpBuffer of {} bytes is too small: a chunk of {rows} rows is built as {n} rows of {rows} ({} bytes after the zero block); on Atlas inference products give axis 1 GetBroadCastMaxMinTmpSize's maximum",
                        tmp.get_size() * T::SIZE as u32,
                        n * rows * T::SIZE as u32
                    ),
                ));
            }
            spread_rows(&work, &src.at(done)?, &zero, n, rows)?;
            to_columns(&dst.at(done * n)?, &work, rows, n)?;
            barrier_v()?;
            done += rows;
        }
        Ok(())
    }
}

/// `Duplicate` of one zero block (as uint16) at the start of the buffer.
fn zero_block<T: Element>(tmp: &LocalTensor<T>) -> Result<LocalTensor<u16>> {
    let z = tmp.reinterpret_cast::<u16>();
    duplicate(&z, 0u16, 16u32)?;
    barrier_v()?;
    Ok(z)
}

/// Lanes of uint16 per element (2 for 4-byte elements).
fn words<T: Element>() -> u32 {
    T::SIZE as u32 / 2
}

/// `rows` rows of `len` elements, each `src | 0`, an instruction per row (counter mode).
fn or_rows<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    zero: &LocalTensor<u16>,
    len: u32,
    rows: u32,
) -> Result<()> {
    set_mask_count()?;
    set_vector_mask::<T>(MaskMode::COUNTER, (len * words::<T>()) as u64)?;
    let bp = BinaryRepeatParams::new(1, 1, 0, 8, 8, 0);
    let s = src.reinterpret_cast::<u16>();
    for i in 0..rows {
        let d = dst.at(i * len)?.reinterpret_cast::<u16>();
        or_l0(&d, &s, zero, MASK_PLACEHOLDER, 1, bp)?;
    }
    barrier_v()
}

/// `rows` rows of `len` elements (whole blocks), each the source row: a repeat per block column,
/// eight rows per instruction through the destination block stride.
fn spread_rows<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    zero: &LocalTensor<u16>,
    rows: u32,
    len: u32,
) -> Result<()> {
    let blk = 32 / T::SIZE as u32;
    let reps = (len / blk) as u8;
    let stride = (len * words::<T>() / 16) as u8;
    let bp = BinaryRepeatParams::new(stride, 0, 0, 1, 1, 0);
    let s = src.reinterpret_cast::<u16>();
    set_mask_norm()?;
    set_vector_mask::<u16>(MaskMode::NORMAL, (OR_ROWS * 16) as u64)?;
    let full = rows / OR_ROWS;
    for i in 0..full {
        let d = dst.at(i * OR_ROWS * len)?.reinterpret_cast::<u16>();
        or_l0(&d, &s, zero, MASK_PLACEHOLDER, reps, bp)?;
    }
    let tail = rows - full * OR_ROWS;
    if tail > 0 {
        set_mask_norm()?;
        set_vector_mask::<u16>(MaskMode::NORMAL, (tail * 16) as u64)?;
        let d = dst.at(full * OR_ROWS * len)?.reinterpret_cast::<u16>();
        or_l0(&d, &s, zero, MASK_PLACEHOLDER, reps, bp)?;
    }
    barrier_v()
}

/// `Transpose` NCHW → NHWC of `[c, w]` rows into `[w, c]` (`c` = the broadcast length).
fn to_columns<T: Element>(
    dst: &LocalTensor<T>,
    rows: &LocalTensor<T>,
    w: u32,
    c: u32,
) -> Result<()> {
    let none = rows.reinterpret_cast::<u8>();
    let p = TransposeParamsExt {
        n_size: 1,
        c_size: c as u16,
        h_size: 1,
        w_size: w as u16,
        transpose_type: TransposeType::TRANSPOSE_NCHW2NHWC,
    };
    transpose_ext(dst, rows, &none, p)
}

/// `Brcb` of `rows` source elements to a block each at the start of the buffer (254 repeats an
/// instruction for 2-byte elements, 255 for 4-byte ones).
fn brcb_blocks<T: Element>(
    src: &LocalTensor<T>,
    rows: u32,
    blk: u32,
    tmp: &LocalTensor<T>,
) -> Result<()> {
    let reps = rows.div_ceil(8);
    let max = if T::SIZE == 4 { 255 } else { 254 };
    let (mut at_t, mut at_s) = (0, 0);
    let mut left = reps;
    while left > 0 {
        let r = left.min(max);
        brcb(
            &tmp.at(at_t)?,
            &src.at(at_s)?,
            r as u8,
            BrcbRepeatParams::new(1, 8),
        )?;
        at_t += r * blk * 8;
        at_s += r * 8;
        left -= r;
    }
    barrier_v()
}

/// `Copy` of `rows` blocks of the buffer to rows of `dst` (`row` elements apart), 255 a call.
fn copy_rows<T: Element>(
    dst: &LocalTensor<T>,
    tmp: &LocalTensor<T>,
    rows: u32,
    p: CopyRepeatParams,
    row: u32,
    blk: u32,
) -> Result<()> {
    let mut done = 0;
    while done < rows {
        let r = (rows - done).min(MAX_REPEAT);
        copy(
            &dst.at(done * row)?,
            &tmp.at(done * blk)?,
            MASK_PLACEHOLDER,
            r as u8,
            p,
        )?;
        done += r;
    }
    Ok(())
}

/// `GetBroadCastMaxMinTmpSize(platform, srcShape, dstShape, typeSize, isReuseSource, max, min)`:
/// `(max, min)` bytes on A2/A3 (`v200` false) or 310P, or `None` when the vendor's checks fail
/// (outputs left unchanged there).
pub fn broadcast_max_min_tmp_size(
    src: &[u32],
    dst: &[u32],
    type_size: u32,
    v200: bool,
) -> Option<(u32, u32)> {
    if !(1..=2).contains(&dst.len()) || src.len() != dst.len() || type_size == 0 {
        return None;
    }
    if src.iter().zip(dst).any(|(&s, &d)| s != d && s != 1) {
        return None;
    }
    let (src_size, dst_size): (u32, u32) = (src.iter().product(), dst.iter().product());
    if src_size == 0 {
        return None;
    }
    let (cast, ts) = if type_size == 1 {
        (
            (src_size.div_ceil(16) * 16 + dst_size.div_ceil(16) * 16) * 2,
            2,
        )
    } else {
        (0, type_size)
    };
    if src_size == dst_size || src_size == 1 {
        return Some(if type_size == 1 {
            (cast + 32, cast + 32)
        } else {
            (0, 0)
        });
    }
    let blk = 32 / ts;
    let (m, n) = (dst[0], dst.get(1).copied().unwrap_or(0));
    if src.get(1) != Some(&1) {
        // Axis 0.
        return n.is_multiple_of(blk).then_some((32 + cast, 32 + cast));
    }
    if v200 {
        if !m.is_multiple_of(blk) {
            return None;
        }
        let min = 32 + cast + blk * n.div_ceil(8) * ts;
        return Some((32 + cast + m * n * ts, min));
    }
    let brcb_min = blk * blk * ts;
    let brcb_max = m.div_ceil(8) * 8 * blk * ts;
    if n.is_multiple_of(blk) {
        Some((brcb_max + cast, brcb_min + cast))
    } else {
        let row = n.div_ceil(blk) * blk;
        Some((
            brcb_max + m * row * ts + cast,
            brcb_min + blk * row * ts + cast,
        ))
    }
}
