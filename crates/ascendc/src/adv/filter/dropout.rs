//! `DropOut` (数据过滤/DropOut): keeps the source elements a mask selects, scaled by
//! `1 / keepProb`, and zeroes the others. half and float; A2, A3 and 310P.
//!
//! As the device does it. Byte masks (one `uint8_t` 0/1 per element): chunk by chunk under the
//! counter mask, the mask is cast to half in the temporary buffer (then to float for float
//! data), multiplied with the source and scaled by `Muls`. Bit masks (one bit per element, the
//! mask rows `srcLastAxis / 8` bytes or longer): CMPMASK is loaded with zeros (`Muls` by 0 of 256
//! bytes of the temporary buffer, `SetCmpMask`; skipped with `isInitBitMode`, where the caller
//! did it with `DropOutBitModeInit`), a mode-1 `Select` takes source or 0 by bit, and `Muls`
//! scales. Mask rows longer than the source's are packed first with an in-place `GatherMask` on
//! A2/A3 (the mask tensor is overwritten) and walked row by row on 310P.

use crate::adv::common::{barrier_v, require, run, Tmp, A2_A3_310P, ONE_BLK_SIZE};
use crate::api::vec::binary::mul_l0;
use crate::api::vec::cast::cast_l0;
use crate::api::vec::cmp_mask::{select_cmp_mask_scalar, set_cmp_mask};
use crate::api::vec::gather::{gather_mask, GatherMaskParams};
use crate::api::vec::mask::{reset_mask, set_mask_count, set_mask_norm, set_vector_mask};
use crate::api::vec::scalar::muls_l0;
use crate::chip::Product;
use crate::dtype::{DType, Element};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::numeric::{Arith, RoundMode};
use crate::{f16, BinaryRepeatParams, LocalTensor, MaskMode, UnaryRepeatParams, MASK_PLACEHOLDER};

const API: &str = "DropOut";

/// `DropOutShapeInfo`: `firstAxis` rows of `srcLastAxis` elements; mask rows of
/// `maskLastAxis` bytes (one byte per element in byte mode, eight elements per byte in bit
/// mode).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DropOutShapeInfo {
    pub first_axis: u32,
    pub src_last_axis: u32,
    pub mask_last_axis: u32,
}

/// Byte mask, longer rows than the source (`DROPOUT_MODE_BYTE_MISALIGN`).
pub const DROPOUT_MODE_BYTE_MISALIGN: u32 = 1;
/// Byte mask, rows as long as the source's.
pub const DROPOUT_MODE_BYTE_ALIGN: u32 = 2;
/// Bit mask, rows of exactly `srcLastAxis / 8` bytes.
pub const DROPOUT_MODE_BIT_ALIGN: u32 = 3;
/// Bit mask, longer rows.
pub const DROPOUT_MODE_BIT_MISALIGN: u32 = 4;

/// `DropOut<T, isInitBitMode, dropOutMode>(dst, src, mask, [sharedTmpBuffer,] keepProb, info)`:
/// `dst[i] = mask_i ? src[i] · (1 / keepProb) : 0` over `firstAxis · srcLastAxis` elements, the
/// factor rounded to `T` first. `mode` 0 picks the mode from `info` (mask rows longer than the
/// source rows: byte misaligned; equal: byte aligned; an eighth: bit aligned; else bit
/// misaligned). `tmp`: at least 512 bytes (`GetDropOutMaxMinTmpSize`); a chunk is the buffer's
/// half capacity (float: its (2 + 4)-byte capacity) in whole 32-element units.
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn drop_out<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    mask: &LocalTensor<u8>,
    tmp: Tmp,
    keep_prob: f32,
    info: &DropOutShapeInfo,
    init_bit_mode: bool,
    mode: u32,
) -> Result<()> {
    run(API, SourceLoc::caller(), || {
        let p = require(API, A2_A3_310P)?;
        let tmp = tmp.buffer(API)?;
        let div = 1.0f32 / keep_prob;
        match T::DTYPE {
            DType::Half => {
                let s = Body {
                    p,
                    dst: &dst.reinterpret_cast(),
                    src: &src.reinterpret_cast(),
                    mask,
                    tmp: &tmp,
                };
                s.run(f16::from_f64(div as f64), info, init_bit_mode, mode)
            }
            DType::Float => {
                let s = Body {
                    p,
                    dst: &dst.reinterpret_cast(),
                    src: &src.reinterpret_cast(),
                    mask,
                    tmp: &tmp,
                };
                s.run(div, info, init_bit_mode, mode)
            }
            other => Err(SimError::new(
                Category::Type,
                API,
                format!("T = {other} is not supported: DropOut takes half or float"),
            )),
        }
    })
}

/// `DropOutBitModeInit(sharedTmpBuffer)`: CMPMASK ← 0 through the first 256 bytes of `tmp`,
/// for the bit mode of later `DropOut<T, true>` calls.
#[track_caller]
pub fn drop_out_bit_mode_init(tmp: Tmp) -> Result<()> {
    run(API, SourceLoc::caller(), || {
        let buf = tmp.buffer(API)?;
        bit_mode_init(&buf)
    })
}

fn bit_mode_init(tmp: &LocalTensor<u8>) -> Result<()> {
    reset_mask()?;
    let words = tmp.reinterpret_cast::<i16>();
    muls_l0(
        &words,
        &words,
        0i16,
        MASK_PLACEHOLDER,
        1,
        UnaryRepeatParams::default(),
    )?;
    barrier_v()?;
    set_cmp_mask(&words)?;
    barrier_v()
}

/// The operands of one call.
struct Body<'a, T: Element> {
    p: Product,
    dst: &'a LocalTensor<T>,
    src: &'a LocalTensor<T>,
    mask: &'a LocalTensor<u8>,
    tmp: &'a LocalTensor<u8>,
}

impl<T: Arith> Body<'_, T> {
    fn run(&self, div: T, info: &DropOutShapeInfo, init_bit_mode: bool, mode: u32) -> Result<()> {
        let mode = match mode {
            0 if info.src_last_axis < info.mask_last_axis => DROPOUT_MODE_BYTE_MISALIGN,
            0 if info.src_last_axis == info.mask_last_axis => DROPOUT_MODE_BYTE_ALIGN,
            0 if info.src_last_axis == info.mask_last_axis * 8 => DROPOUT_MODE_BIT_ALIGN,
            0 => DROPOUT_MODE_BIT_MISALIGN,
            m @ 1..=4 => m,
            m => {
                return Err(SimError::new(
                    Category::Range,
                    API,
                    format!("dropOutMode = {m} is not one of 0 (auto), 1, 2, 3, 4"),
                ))
            }
        };
        let total = info.first_axis * info.src_last_axis;
        let a2 = self.p != Product::Ascend310P;
        match mode {
            DROPOUT_MODE_BYTE_ALIGN => self.byte_mode(self.dst, self.src, self.mask, div, total),
            DROPOUT_MODE_BIT_ALIGN => self.bit_mode(div, total, init_bit_mode),
            DROPOUT_MODE_BYTE_MISALIGN if a2 => {
                self.pack_mask(info, info.src_last_axis / 2)?;
                self.byte_mode(self.dst, self.src, self.mask, div, total)
            }
            DROPOUT_MODE_BYTE_MISALIGN => {
                for i in 0..info.first_axis {
                    let (d, s) = (
                        self.dst.at(i * info.src_last_axis)?,
                        self.src.at(i * info.src_last_axis)?,
                    );
                    self.byte_mode(
                        &d,
                        &s,
                        &self.mask.at(i * info.mask_last_axis)?,
                        div,
                        info.src_last_axis,
                    )?;
                }
                Ok(())
            }
            _ if a2 => {
                if !init_bit_mode {
                    bit_mode_init(self.tmp)?;
                }
                self.pack_mask(info, info.src_last_axis / 8 / 2)?;
                self.bit_mode(div, total, true)
            }
            _ => self.bit_rows(div, info, init_bit_mode),
        }
    }

    /// A2/A3: the first `words` 16-bit words of each mask row packed in place.
    fn pack_mask(&self, info: &DropOutShapeInfo, words: u32) -> Result<()> {
        let m = self.mask.reinterpret_cast::<u16>();
        let params = GatherMaskParams::new(
            1,
            info.first_axis as u16,
            (info.mask_last_axis / ONE_BLK_SIZE) as u16,
            0,
        );
        gather_mask(&m, &m, 7, true, words, params)?;
        barrier_v()?;
        set_mask_count()
    }

    /// Bit mode over `total` elements with one select.
    fn bit_mode(&self, div: T, total: u32, init_bit_mode: bool) -> Result<()> {
        if !init_bit_mode {
            bit_mode_init(self.tmp)?;
        }
        set_mask_count()?;
        set_vector_mask::<u8>(MaskMode::COUNTER, total as u64)?;
        select_cmp_mask_scalar(
            self.dst,
            self.mask,
            self.src,
            1,
            BinaryRepeatParams::default(),
        )?;
        barrier_v()?;
        muls_l0(
            self.dst,
            self.dst,
            div,
            MASK_PLACEHOLDER,
            1,
            UnaryRepeatParams::default(),
        )?;
        barrier_v()?;
        set_mask_norm()?;
        reset_mask()
    }

    /// 310P bit mode with longer mask rows: one select per row, one scaling.
    fn bit_rows(&self, div: T, info: &DropOutShapeInfo, init_bit_mode: bool) -> Result<()> {
        if !init_bit_mode {
            bit_mode_init(self.tmp)?;
        }
        set_mask_count()?;
        set_vector_mask::<u8>(MaskMode::COUNTER, info.src_last_axis as u64)?;
        for i in 0..info.first_axis {
            let (d, s) = (
                self.dst.at(i * info.src_last_axis)?,
                self.src.at(i * info.src_last_axis)?,
            );
            let m = self.mask.at(i * info.mask_last_axis)?;
            select_cmp_mask_scalar(&d, &m, &s, 1, BinaryRepeatParams::default())?;
            barrier_v()?;
        }
        set_vector_mask::<u8>(
            MaskMode::COUNTER,
            (info.first_axis * info.src_last_axis) as u64,
        )?;
        muls_l0(
            self.dst,
            self.dst,
            div,
            MASK_PLACEHOLDER,
            1,
            UnaryRepeatParams::default(),
        )?;
        barrier_v()?;
        set_mask_norm()?;
        reset_mask()
    }

    /// Byte mode over `count` elements, in chunks the temporary buffer holds.
    fn byte_mode(
        &self,
        dst: &LocalTensor<T>,
        src: &LocalTensor<T>,
        mask: &LocalTensor<u8>,
        div: T,
        count: u32,
    ) -> Result<()> {
        let bytes = self.tmp.get_size();
        let per = if T::SIZE == 2 { 2 } else { 6 };
        let split = bytes / per / ONE_BLK_SIZE * ONE_BLK_SIZE;
        if split == 0 {
            return Err(SimError::new(
                Category::Size,
                API,
                format!("sharedTmpBuffer of {bytes} bytes is too small: byte mode needs {} at least (GetDropOutMaxMinTmpSize)", per * ONE_BLK_SIZE),
            ));
        }
        let first = self.tmp.reinterpret_cast::<f16>();
        let second = if T::SIZE == 4 {
            Some(self.tmp.at(split * 2)?.reinterpret_cast::<f32>())
        } else {
            None
        };
        let (rounds, tail) = (count / split, count % split);
        set_mask_count()?;
        set_vector_mask::<u8>(MaskMode::COUNTER, split as u64)?;
        let mut at = 0;
        for _ in 0..rounds {
            self.byte_chunk(
                &dst.at(at)?,
                &src.at(at)?,
                &mask.at(at)?,
                &first,
                &second,
                div,
            )?;
            at += split;
        }
        if tail != 0 {
            set_vector_mask::<u8>(MaskMode::COUNTER, tail as u64)?;
            self.byte_chunk(
                &dst.at(at)?,
                &src.at(at)?,
                &mask.at(at)?,
                &first,
                &second,
                div,
            )?;
        }
        set_mask_norm()?;
        reset_mask()
    }

    /// One chunk: mask → half (→ float), × source, × `div`.
    fn byte_chunk(
        &self,
        dst: &LocalTensor<T>,
        src: &LocalTensor<T>,
        mask: &LocalTensor<u8>,
        first: &LocalTensor<f16>,
        second: &Option<LocalTensor<f32>>,
        div: T,
    ) -> Result<()> {
        let widen = UnaryRepeatParams::new(1, 1, 8, 4);
        cast_l0(
            first,
            mask,
            RoundMode::CAST_NONE,
            MASK_PLACEHOLDER,
            1,
            widen,
        )?;
        barrier_v()?;
        let factor: LocalTensor<T> = match second {
            None => first.reinterpret_cast(),
            Some(second) => {
                cast_l0(
                    second,
                    first,
                    RoundMode::CAST_NONE,
                    MASK_PLACEHOLDER,
                    1,
                    widen,
                )?;
                barrier_v()?;
                second.reinterpret_cast()
            }
        };
        mul_l0(
            dst,
            &factor,
            src,
            MASK_PLACEHOLDER,
            1,
            BinaryRepeatParams::default(),
        )?;
        barrier_v()?;
        muls_l0(
            dst,
            dst,
            div,
            MASK_PLACEHOLDER,
            1,
            UnaryRepeatParams::default(),
        )?;
        barrier_v()
    }
}

/// `GetDropOutMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue)` for
/// `elements` source elements: `(max, min)` bytes, `max(2 · 4 · elements, 512)` and 512.
pub fn drop_out_max_min_tmp_size(elements: u32) -> (u32, u32) {
    let min = 2 * 256;
    ((2 * elements * 4).max(min), min)
}
