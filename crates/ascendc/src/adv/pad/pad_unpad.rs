//! `Pad` / `UnPad` (张量变换/Pad, UnPad): pad each row of a `height × width` tensor on the right
//! (and left) to a 32-byte multiple, or drop columns from its right. int16, uint16, half, int32,
//! uint32 and float; A2, A3 and 310P.
//!
//! As the device does it. Pad of a 32-byte aligned width (redundant last columns): copy the
//! tensor, then `Duplicate` the pad value into the last block of each row under a bit mask, 255
//! rows per instruction. Pad of an unaligned width goes through two halves of the temporary
//! buffer: each source element is broadcast to one 32-byte block (`Brcb` on A2/A3, a scalar read
//! and `Duplicate` per element on 310P), 16 blocks per unit are gathered in the second half with
//! the pad blocks, transposed in place by `TransDataTo5HD`, and the first line of each 16 × 16
//! unit is copied to the destination. UnPad on A2/A3 is one `GatherMask` (pattern 7, counter
//! mode) over the rows; on 310P it takes the same broadcast/transpose route as Pad.

use crate::adv::common::{barrier_v, require, run, sync_event, Tmp, A2_A3_310P};
use crate::api::vec::duplicate::{duplicate, duplicate_l0};
use crate::api::vec::fill::{brcb, BrcbRepeatParams};
use crate::api::vec::gather::{gather_mask, GatherMaskParams};
use crate::api::vec::mask::reset_mask;
use crate::api::vec::trans_data::{
    trans_data_to_5hd_addr, TransDataTo5HDParams, NCHW_CONV_ADDR_LIST_SIZE,
};
use crate::chip::Product;
use crate::dtype::{DType, Element};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::{data_copy, DataCopyParams, HardEvent, LocalTensor};

/// Bytes of one block.
const BLK: u32 = 32;
/// Blocks one `TransDataTo5HD` unit transposes (its address lists).
const LIST: u32 = NCHW_CONV_ADDR_LIST_SIZE as u32;

/// `PadParams`: columns to add on each side (`leftPad`, `rightPad`) and the value they get
/// (`padValue`, converted to `T` as `static_cast<T>` does).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PadParams {
    pub left_pad: u16,
    pub right_pad: u16,
    pub pad_value: i32,
}

/// `UnPadParams`: columns to drop on each side (only `rightPad` is used).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct UnPadParams {
    pub left_pad: u16,
    pub right_pad: u16,
}

/// `PadTiling` (`AscendC::tiling::PadTiling`): the vendor's field order, all `uint32_t`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PadTiling {
    pub src_height: u32,
    pub src_width: u32,
    pub src_ori_width: u32,
    pub width_without_last_block: u32,
    pub blocks_per_row: u32,
    pub height_tiling: u32,
    pub height_fractal: u32,
    pub height_fractal_tail: u32,
    pub main_loop_offset: u32,
    pub tail_block_offset: u32,
    pub tmp_buffer1_block_num: u32,
    pub tmp_buffer1_row_num: u32,
    pub tmp_buffer2_offset: u32,
    pub width_tiling: u32,
    pub width_fractal: u32,
    pub width_fractal_tail: u32,
    pub width_fractal_tail_alingned: u32,
    pub brcb_tiling: u32,
    pub brcb_fractal: u32,
    pub brcb_fractal_tail: u32,
    pub max_repeat_times: u32,
    pub brcb_tiling_repeat_times: u32,
    pub brcb_tiling_repeat_times_tail: u32,
    pub brcb_fractal_tail_repeat_times: u32,
    pub brcb_fractal_tail_repeat_times_tail: u32,
    pub reserved: u32,
}

/// `UnPadTiling` (`AscendC::tiling::UnPadTiling`): the vendor's field order, all `uint32_t`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct UnPadTiling {
    pub src_height: u32,
    pub src_width: u32,
    pub tmp_buffer1_block_num: u32,
    pub tmp_buffer1_row_num: u32,
    pub tmp_buffer2_offset: u32,
    pub width_tiling: u32,
    pub width_fractal: u32,
    pub width_fractal_tail: u32,
}

fn check_type<T: Element>(api: &'static str) -> Result<()> {
    match T::DTYPE {
        DType::Int16 | DType::Uint16 | DType::Half | DType::Int32 | DType::Uint32 | DType::Float => {
            Ok(())
        }
        other => Err(SimError::new(
            Category::Type,
            api,
            format!("T = {other} is not supported: {api} takes int16_t, uint16_t, half, int32_t, uint32_t or float"),
        )),
    }
}

/// `static_cast<T>(v)` of an `int32_t` (integers wrap, floats round).
fn cast_i32<T: Element>(v: i32) -> T {
    T::from_f64(match T::DTYPE {
        DType::Int16 => v as i16 as f64,
        DType::Uint16 => v as u16 as f64,
        DType::Uint32 => v as u32 as f64,
        _ => v as f64,
    })
}

/// A `DataCopy` of `rows` consecutive 32-byte rows.
fn copy_rows<T: Element>(dst: &LocalTensor<T>, src: &LocalTensor<T>, rows: u32) -> Result<()> {
    data_copy(dst, src, DataCopyParams::new(1, rows as u16, 0, 0))
}

/// `Pad<T>(dst, src, padParams, [sharedTmpBuffer,] tiling)`: each of the `srcHeight` rows of
/// `src` (`srcWidth` wide) becomes a row of `dst`, `leftPad + srcWidth + rightPad` wide, the
/// new columns holding `padValue`. With a 32-byte aligned `srcWidth` (whose last `srcWidth −
/// srcOriWidth` columns are redundant) the first `rightPad` redundant columns of each row are
/// overwritten in place of a copy, and no temporary space is used; otherwise `tmp` must hold what
/// `GetPadMaxMinTmpSize` gives (at least 1 KiB) and `tiling` be from `PadTilingFunc` with its size.
#[track_caller]
pub fn pad<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    params: &PadParams,
    tmp: Tmp,
    tiling: &PadTiling,
) -> Result<()> {
    const API: &str = "Pad";
    run(API, SourceLoc::caller(), || {
        let p = require(API, A2_A3_310P)?;
        check_type::<T>(API)?;
        if (tiling.src_width * T::SIZE as u32).is_multiple_of(BLK) {
            return aligned_pad(dst, src, params, tiling);
        }
        let buf = tmp.buffer(API)?;
        if tiling.tmp_buffer1_block_num == 0 {
            return Err(SimError::new(
                Category::Size,
                API,
                "tiling.tmpBuffer1BlockNum is 0: PadTilingFunc was given a stackBufferSize below GetPadMaxMinTmpSize's minimum (1024 bytes)",
            ));
        }
        unaligned_pad(p, dst, src, params, &buf.reinterpret_cast(), tiling)
    })
}

/// Aligned width: copy, then the pad value into the last block of each row.
fn aligned_pad<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    params: &PadParams,
    t: &PadTiling,
) -> Result<()> {
    let per_block = BLK / T::SIZE as u32;
    data_copy(dst, src, t.src_height.wrapping_mul(t.src_width))?;
    barrier_v()?;
    let redundant = t.src_width.wrapping_sub(t.src_ori_width);
    let right = params.right_pad as u32;
    if redundant > per_block || right > redundant {
        return Err(SimError::new(
            Category::Range,
            "Pad",
            format!(
                "a 32-byte aligned srcWidth pads only its redundant last block: rightPad = {right} and srcWidth − srcOriWidth = {redundant} must satisfy rightPad ≤ {redundant} ≤ {per_block}"
            ),
        ));
    }
    let ones = ((1u64 << right) - 1) as u32 as u64;
    let mask = [ones << (per_block - redundant), 0];
    let value = cast_i32::<T>(params.pad_value);
    let rep_stride = t.blocks_per_row as u8;
    for i in 0..t.height_fractal {
        let at = dst.at(i * t.main_loop_offset + t.width_without_last_block)?;
        duplicate_l0(&at, value, mask, t.height_tiling as u8, 1, rep_stride)?;
    }
    if t.height_fractal_tail != 0 {
        let at = dst.at(t.tail_block_offset)?;
        duplicate_l0(&at, value, mask, t.height_fractal_tail as u8, 1, rep_stride)?;
    }
    Ok(())
}

/// The 16 block addresses of the in-place `TransDataTo5HD` on the second half of the buffer, and
/// its parameters (`tmpBuffer1BlockNum` units 16 blocks apart).
fn transpose_list<T: Element>(
    tmp2: &LocalTensor<T>,
    blocks: u32,
) -> ([u64; NCHW_CONV_ADDR_LIST_SIZE], TransDataTo5HDParams) {
    let width = BLK / T::SIZE as u32;
    let list =
        std::array::from_fn(|i| (tmp2.get_phy_addr() + i as u32 * width * T::SIZE as u32) as u64);
    let stride = if blocks > 1 { 16 } else { 0 };
    (
        list,
        TransDataTo5HDParams::new(false, false, blocks as u8, stride, stride),
    )
}

/// `count` elements of `src`, each broadcast to one block of `dst` by scalar reads and
/// `Duplicate` (the 310P form of `Brcb`).
fn duplicate_last_dim<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    count: u32,
) -> Result<()> {
    let width = BLK / T::SIZE as u32;
    sync_event("Pad", HardEvent::V_S)?;
    for base in (0..count).step_by(8) {
        let n = (count - base).min(8);
        let values = (0..n)
            .map(|j| src.get_value(base + j))
            .collect::<Result<Vec<T>>>()?;
        for (j, v) in values.into_iter().enumerate() {
            duplicate(&dst.at((base + j as u32) * width)?, v, width)?;
        }
    }
    sync_event("Pad", HardEvent::S_V)
}

/// `Brcb` of `repeats` 8-element groups in instructions of at most `max` repeats.
fn brcb_chunks<T: Element>(
    tmp1: &LocalTensor<T>,
    src: &LocalTensor<T>,
    full: u32,
    tail: u32,
    max: u32,
) -> Result<()> {
    let width = BLK / T::SIZE as u32;
    let params = BrcbRepeatParams::new(1, 8);
    for i in 0..full {
        brcb(
            &tmp1.at(i * max * 8 * width)?,
            &src.at(i * max * 8)?,
            max as u8,
            params,
        )?;
    }
    if tail != 0 {
        brcb(
            &tmp1.at(full * max * 8 * width)?,
            &src.at(full * max * 8)?,
            tail as u8,
            params,
        )?;
    }
    Ok(())
}

/// Unaligned width: broadcast, gather with the pad blocks, transpose, copy out.
fn unaligned_pad<T: Element>(
    p: Product,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    params: &PadParams,
    tmp: &LocalTensor<T>,
    t: &PadTiling,
) -> Result<()> {
    let (left, right) = (params.left_pad as u32, params.right_pad as u32);
    let value = cast_i32::<T>(params.pad_value);
    let width = BLK / T::SIZE as u32;
    let tmp1 = *tmp;
    let tmp2 = tmp.at(t.tmp_buffer2_offset)?;
    let blocks = t.tmp_buffer1_block_num;
    let tail_aligned = t.width_fractal_tail_alingned;
    let row_width = t.src_width + left + right;
    let (mut tmp1_full, mut tmp1_count) = (t.tmp_buffer1_row_num, t.tmp_buffer1_row_num);
    let tmp2_full = t.tmp_buffer1_row_num;
    let mut brcb_count = 0;
    let (list, trans) = transpose_list(&tmp2, blocks);
    for j in 0..t.src_height {
        for i in 0..=t.width_fractal {
            let mut tmp2_count = 0u32;
            if i == 0 && left != 0 {
                duplicate_l0(&tmp2, value, width, left as u8, 1, 1)?;
                tmp2_count += left;
            }
            let mut need = if i == t.width_fractal {
                if right != 0 {
                    let at = tmp2.at((tail_aligned - right) * width)?;
                    duplicate_l0(&at, value, width, right as u8, 1, 1)?;
                }
                tail_aligned.wrapping_sub(tmp2_count).wrapping_sub(right)
            } else {
                tmp2_full - tmp2_count
            };
            while need != 0 {
                barrier_v()?;
                let remain = tmp1_full - tmp1_count;
                if need > remain {
                    if remain != 0 {
                        copy_rows(
                            &tmp2.at(tmp2_count * width)?,
                            &tmp1.at(tmp1_count * width)?,
                            remain,
                        )?;
                        tmp2_count += remain;
                        need -= remain;
                        barrier_v()?;
                    }
                    let last = brcb_count == t.brcb_fractal;
                    let from = src.at(brcb_count * t.brcb_tiling)?;
                    if p == Product::Ascend310P {
                        let n = if last {
                            t.brcb_fractal_tail
                        } else {
                            t.brcb_tiling
                        };
                        duplicate_last_dim(&tmp1, &from, n)?;
                    } else if last {
                        let (full, tail) = (
                            t.brcb_fractal_tail_repeat_times,
                            t.brcb_fractal_tail_repeat_times_tail,
                        );
                        brcb_chunks(&tmp1, &from, full, tail, t.max_repeat_times)?;
                    } else {
                        let (full, tail) =
                            (t.brcb_tiling_repeat_times, t.brcb_tiling_repeat_times_tail);
                        brcb_chunks(&tmp1, &from, full, tail, t.max_repeat_times)?;
                    }
                    if last {
                        tmp1_full = t.brcb_fractal_tail;
                    }
                    brcb_count += 1;
                    tmp1_count = 0;
                } else {
                    copy_rows(
                        &tmp2.at(tmp2_count * width)?,
                        &tmp1.at(tmp1_count * width)?,
                        need,
                    )?;
                    tmp1_count += need;
                    tmp2_count += need;
                    need = 0;
                }
            }
            barrier_v()?;
            trans_data_to_5hd_addr::<T>(&list, &list, trans)?;
            barrier_v()?;
            let out = j * row_width + i * 16 * blocks;
            let float = T::SIZE == 4;
            if i == t.width_fractal {
                let units = tail_aligned / 16;
                if !float {
                    data_copy(
                        &dst.at(out)?,
                        &tmp2,
                        DataCopyParams::new(units as u16, 1, 15, 0),
                    )?;
                } else {
                    if units != 0 {
                        data_copy(
                            &dst.at(out)?,
                            &tmp2,
                            DataCopyParams::new(units as u16, 2, 14, 0),
                        )?;
                    }
                    if !tail_aligned.is_multiple_of(16) {
                        let from = tmp2.at(units * 16 * 8)?;
                        data_copy(
                            &dst.at(out + units * 16)?,
                            &from,
                            DataCopyParams::new(1, 1, 15, 0),
                        )?;
                    }
                }
            } else {
                let (len, gap) = if float { (2, 14) } else { (1, 15) };
                data_copy(
                    &dst.at(out)?,
                    &tmp2,
                    DataCopyParams::new(blocks as u16, len, gap, 0),
                )?;
            }
        }
    }
    Ok(())
}

/// `UnPad<T>(dst, src, unPadParams, [sharedTmpBuffer,] tiling)`: each of the `srcHeight` rows of
/// `src` (`srcWidth` wide, 32-byte aligned) loses its last `rightPad` columns; the rows are packed
/// into `dst`. A2/A3 use no temporary space; 310P needs what `GetUnPadMaxMinTmpSize` gives and a
/// `tiling` from `UnPadTilingFunc` with that size.
#[track_caller]
pub fn unpad<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    params: &UnPadParams,
    tmp: Tmp,
    tiling: &UnPadTiling,
) -> Result<()> {
    const API: &str = "UnPad";
    run(API, SourceLoc::caller(), || {
        let p = require(API, A2_A3_310P)?;
        check_type::<T>(API)?;
        let right = params.right_pad as u32;
        let (height, width) = (
            tiling.src_height as u16 as u32,
            tiling.src_width as u16 as u32,
        );
        if right >= width {
            return Err(SimError::new(
                Category::Range,
                API,
                format!("unPadParams.rightPad = {right} leaves no column of the {width} in tiling.srcWidth"),
            ));
        }
        if p != Product::Ascend310P {
            let params =
                GatherMaskParams::new(1, height as u16, (width * T::SIZE as u32 / BLK) as u16, 0);
            gather_mask(dst, src, 7, true, width - right, params)?;
            return reset_mask();
        }
        let buf = tmp.buffer(API)?;
        if tiling.tmp_buffer1_block_num == 0 {
            return Err(SimError::new(
                Category::Size,
                API,
                "tiling.tmpBuffer1BlockNum is 0: UnPadTilingFunc was given a stackBufferSize below GetUnPadMaxMinTmpSize's minimum (1024 bytes)",
            ));
        }
        unpad_v200(
            dst,
            src,
            right,
            height,
            width,
            &buf.reinterpret_cast(),
            tiling,
        )
    })
}

/// 310P: broadcast each row chunk, gather the kept blocks, transpose, copy out per full unit.
fn unpad_v200<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    right: u32,
    height: u32,
    width: u32,
    tmp: &LocalTensor<T>,
    t: &UnPadTiling,
) -> Result<()> {
    let w = BLK / T::SIZE as u32;
    let tmp1 = *tmp;
    let tmp2 = tmp.at(t.tmp_buffer2_offset)?;
    let blocks = t.tmp_buffer1_block_num;
    let per_unit = t.tmp_buffer1_row_num;
    let kept = height * (width - right);
    let (units, unit_tail) = (kept / per_unit, kept % per_unit);
    let mut tmp2_full = if units == 0 { unit_tail } else { per_unit };
    let mut tmp2_count = 0u32;
    let mut out_count = 0u32;
    let (list, trans) = transpose_list(&tmp2, blocks);
    let float = T::SIZE == 4;
    for j in 0..height {
        for i in 0..t.width_fractal {
            let mut need = tmp2_full - tmp2_count;
            let last = i == t.width_fractal - 1;
            let n = if last {
                t.width_fractal_tail
            } else {
                t.width_tiling
            };
            duplicate_last_dim(&tmp1, &src.at(j * width + i * t.width_tiling)?, n)?;
            let mut tmp1_count = 0u32;
            let tmp1_full = if last {
                t.width_fractal_tail - right
            } else {
                16 * blocks
            };
            barrier_v()?;
            while tmp1_count != tmp1_full {
                let remain = tmp1_full - tmp1_count;
                if need > remain {
                    copy_rows(&tmp2.at(tmp2_count * w)?, &tmp1.at(tmp1_count * w)?, remain)?;
                    tmp2_count += remain;
                    break;
                }
                copy_rows(&tmp2.at(tmp2_count * w)?, &tmp1.at(tmp1_count * w)?, need)?;
                tmp1_count += need;
                barrier_v()?;
                trans_data_to_5hd_addr::<T>(&list, &list, trans)?;
                barrier_v()?;
                let out = dst.at(out_count * blocks * 16)?;
                if out_count == units {
                    let whole = unit_tail / 16;
                    if !float {
                        data_copy(&out, &tmp2, DataCopyParams::new(whole as u16, 1, 15, 0))?;
                    } else {
                        if whole != 0 {
                            data_copy(&out, &tmp2, DataCopyParams::new(whole as u16, 2, 14, 0))?;
                        }
                        if !unit_tail.is_multiple_of(16) {
                            let from = tmp2.at(whole * 16 * w)?;
                            data_copy(
                                &dst.at(out_count * blocks * 16 + whole * 16)?,
                                &from,
                                DataCopyParams::new(1, 1, 15, 0),
                            )?;
                        }
                    }
                } else {
                    let (len, gap) = if float { (2, 14) } else { (1, 15) };
                    data_copy(&out, &tmp2, DataCopyParams::new(blocks as u16, len, gap, 0))?;
                }
                out_count += 1;
                if out_count == units {
                    tmp2_full = unit_tail;
                }
                tmp2_count = 0;
                need = tmp2_full;
            }
        }
    }
    Ok(())
}

/// Elements of one `TransDataTo5HD` unit row group: 16 blocks of `32 / typeSize` elements.
fn unit_elems(type_size: u32) -> u32 {
    LIST * (BLK / type_size)
}

/// `GetPadMaxMinTmpSize(srcShape, typeSize, maxValue, minValue)`: bytes of temporary space for
/// Pad of a `height × width` source of `type_size`-byte elements, as `(max, min)`: two halves of
/// `⌈height·width / 16⌉` units of 16 blocks at most, of one unit at least.
pub fn pad_max_min_tmp_size(height: u32, width: u32, type_size: u32) -> (u32, u32) {
    let units = (height * width).wrapping_sub(1) / LIST + 1;
    let unit = unit_elems(type_size) * 2 * type_size;
    (units * unit, unit)
}

/// `GetUnPadMaxMinTmpSize(platform, srcShape, typeSize, maxValue, minValue)`: as
/// [`pad_max_min_tmp_size`] on 310P, none on A2/A3 (`(max, min)` bytes).
pub fn unpad_max_min_tmp_size(
    product: Product,
    height: u32,
    width: u32,
    type_size: u32,
) -> (u32, u32) {
    if product == Product::Ascend310P {
        pad_max_min_tmp_size(height, width, type_size)
    } else {
        (0, 0)
    }
}

/// `PadTilingFunc(srcShape, oriSrcShape, stackBufferSize, typeSize, tiling)`: the tiling of Pad
/// of a `height × width` source whose original width is `ori_width`, with `stack_buffer_size`
/// bytes of temporary space (0: the aligned case, which needs none).
pub fn pad_tiling(
    height: u32,
    width: u32,
    ori_width: u32,
    stack_buffer_size: u32,
    type_size: u32,
) -> PadTiling {
    let per_block = BLK / type_size;
    let width_without_last_block = width.wrapping_sub(per_block);
    let height_tiling = 255;
    let height_fractal = height / height_tiling;
    let mut t = PadTiling {
        src_height: height,
        src_width: width,
        src_ori_width: ori_width,
        width_without_last_block,
        blocks_per_row: width * type_size / BLK,
        height_tiling,
        height_fractal,
        height_fractal_tail: height % height_tiling,
        main_loop_offset: height_tiling * width,
        tail_block_offset: (height_fractal * height_tiling * width)
            .wrapping_add(width_without_last_block),
        ..PadTiling::default()
    };
    if stack_buffer_size == 0 {
        return t;
    }
    let unit = unit_elems(type_size);
    let blocks = stack_buffer_size / type_size / unit / 2;
    let width_tiling = LIST * blocks;
    t.tmp_buffer1_row_num = width_tiling;
    t.tmp_buffer1_block_num = blocks;
    t.tmp_buffer2_offset = blocks * unit;
    if width_tiling == 0 {
        return t;
    }
    t.width_tiling = width_tiling;
    t.width_fractal = width / width_tiling;
    t.width_fractal_tail = width % width_tiling;
    t.width_fractal_tail_alingned = (t.width_fractal_tail.wrapping_sub(1) / per_block)
        .wrapping_add(1)
        .wrapping_mul(per_block);
    t.brcb_tiling = width_tiling;
    t.brcb_fractal = height * width / width_tiling;
    t.brcb_fractal_tail = height * width % width_tiling;
    let max = 254;
    t.max_repeat_times = max;
    t.brcb_tiling_repeat_times = width_tiling / 8 / max;
    t.brcb_tiling_repeat_times_tail = width_tiling / 8 % max;
    t.brcb_fractal_tail_repeat_times = t.brcb_fractal_tail / 8 / max;
    t.brcb_fractal_tail_repeat_times_tail = t.brcb_fractal_tail / 8 % max;
    t
}

/// `UnPadTilingFunc(srcShape, stackBufferSize, typeSize, tiling)`: the tiling of UnPad of a
/// `height × width` source with `stack_buffer_size` bytes of temporary space (0 on A2/A3).
pub fn unpad_tiling(
    height: u32,
    width: u32,
    stack_buffer_size: u32,
    type_size: u32,
) -> UnPadTiling {
    let mut t = UnPadTiling {
        src_height: height,
        src_width: width,
        ..UnPadTiling::default()
    };
    if stack_buffer_size == 0 {
        return t;
    }
    let unit = unit_elems(type_size);
    let blocks = stack_buffer_size / type_size / unit / 2;
    let width_tiling = LIST * blocks;
    t.tmp_buffer1_block_num = blocks;
    t.tmp_buffer1_row_num = width_tiling;
    t.tmp_buffer2_offset = blocks * unit;
    if width_tiling == 0 {
        return t;
    }
    t.width_tiling = width_tiling;
    t.width_fractal = width / width_tiling;
    t.width_fractal_tail = width % width_tiling;
    if t.width_fractal_tail != 0 {
        t.width_fractal += 1;
    } else {
        t.width_fractal_tail = width_tiling;
    }
    t
}
