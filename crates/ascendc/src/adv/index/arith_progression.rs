//! `ArithProgression` / `Arange` (索引计算/Arange): `dst[i] = firstValue + diffValue · i` for
//! `i < count`. int16_t, half, int32_t and float; A2, A3 and 310P; no temporary space.
//!
//! As the device does it: the first block (32 bytes of elements, at most `count`) is written by
//! the scalar unit (`SetValue`; half computes in float and rounds once). Longer sequences are
//! extended with `Adds` of the step times a block (block by block up to one repeat), then with
//! `Adds` of the step times a repeat (repeat by repeat, the tail rounded up to whole blocks).

use crate::adv::common::{barrier_v, require, run, sync_event, A2_A3_310P};
use crate::api::vec::mask::{reset_mask, set_vector_mask};
use crate::api::vec::scalar::adds_l0;
use crate::dtype::{DType, Element};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::numeric::Arith;
use crate::{f16, HardEvent, LocalTensor, Mask, MaskMode, UnaryRepeatParams, MASK_PLACEHOLDER};

const API: &str = "ArithProgression";

/// One repeat over adjacent blocks of one block each (`{1, 1, 1, 1}`).
const STRIDE1: UnaryRepeatParams = UnaryRepeatParams::new(1, 1, 1, 1);
/// One repeat of eight contiguous blocks (`{1, 1, 8, 8}`).
const STRIDE8: UnaryRepeatParams = UnaryRepeatParams::new(1, 1, 8, 8);

/// The element types and their scalar formulas.
trait Progression: Arith {
    /// `firstValue + diffValue · i` as the scalar unit computes it.
    fn term(first: Self, diff: Self, i: i32) -> Self;
    /// `diffValue · n` (`GetArithProgressionStep`): integers through int64, floats in float.
    fn step(diff: Self, n: i32) -> Self;
}

macro_rules! int_progression {
    ($($t:ty),*) => {$(
        impl Progression for $t {
            fn term(first: Self, diff: Self, i: i32) -> Self {
                // C++ arithmetic in int, truncated to T by SetValue.
                (first as i32).wrapping_add((diff as i32).wrapping_mul(i)) as $t
            }
            fn step(diff: Self, n: i32) -> Self {
                (diff as i64 * n as i64) as $t
            }
        }
    )*};
}
int_progression!(i16, i32);

impl Progression for f32 {
    fn term(first: Self, diff: Self, i: i32) -> Self {
        first + diff * i as f32
    }
    fn step(diff: Self, n: i32) -> Self {
        diff * n as f32
    }
}

impl Progression for f16 {
    fn term(first: Self, diff: Self, i: i32) -> Self {
        f16::from_f32(first.to_f32() + diff.to_f32() * i as f32)
    }
    fn step(diff: Self, n: i32) -> Self {
        f16::from_f32(diff.to_f32() * n as f32)
    }
}

/// `ArithProgression<T>(dst, firstValue, diffValue, count)` (also spelled `Arange`): the
/// arithmetic sequence of `count` elements starting at `first` with difference `diff`. `T`:
/// int16_t, half, int32_t or float. `dst` must hold `count` elements; beyond 32 bytes the last
/// block written is rounded up to a whole block. No temporary space.
#[track_caller]
pub fn arith_progression<T: Element>(
    dst: &LocalTensor<T>,
    first: T,
    diff: T,
    count: i32,
) -> Result<()> {
    run(API, SourceLoc::caller(), || {
        require(API, A2_A3_310P)?;
        if count <= 0 {
            return Err(SimError::new(
                Category::Range,
                API,
                format!("parameter `count` = {count} must be greater than 0"),
            ));
        }
        if count as u32 > dst.get_size() {
            return Err(SimError::new(
                Category::Size,
                API,
                format!(
                    "parameter `count` = {count} exceeds the {} elements of `dstLocal`",
                    dst.get_size()
                ),
            ));
        }
        match T::DTYPE {
            DType::Int16 => typed::<i16>(&dst.reinterpret_cast(), cast(first), cast(diff), count),
            DType::Int32 => typed::<i32>(&dst.reinterpret_cast(), cast(first), cast(diff), count),
            DType::Half => typed::<f16>(&dst.reinterpret_cast(), cast(first), cast(diff), count),
            DType::Float => typed::<f32>(&dst.reinterpret_cast(), cast(first), cast(diff), count),
            other => Err(SimError::new(
                Category::Type,
                API,
                format!("T = {other} is not supported: ArithProgression takes int16_t, half, int32_t or float"),
            )),
        }
    })
}

/// `v` as `U`, the same type (only called after matching `T::DTYPE`).
fn cast<T: Element, U: Element>(v: T) -> U {
    bytemuck::cast(v)
}

fn typed<T: Progression>(dst: &LocalTensor<T>, first: T, diff: T, count: i32) -> Result<()> {
    let blk = (32 / T::SIZE) as i32;
    let rep = (256 / T::SIZE) as i32;
    let fill_base = |n: i32| -> Result<()> {
        for i in 0..n {
            dst.set_value(i as u32, T::term(first, diff, i))?;
        }
        Ok(())
    };
    if count <= blk {
        sync_event(API, HardEvent::V_S)?;
        fill_base(count)?;
        return sync_event(API, HardEvent::S_V);
    }
    fill_base(blk)?;
    sync_event(API, HardEvent::S_V)?;
    let one_block = Mask::Bits([(1u64 << blk) - 1, 0]);
    let block_step = T::step(diff, blk);
    if count > rep {
        set_vector_mask::<T>(MaskMode::NORMAL, one_block)?;
        barrier_v()?;
        for i in 0..7 {
            adds_l0(
                &dst.at(((i + 1) * blk) as u32)?,
                &dst.at((i * blk) as u32)?,
                block_step,
                MASK_PLACEHOLDER,
                1,
                STRIDE1,
            )?;
            barrier_v()?;
        }
        let (repeat, tail) = (count / rep, count % rep);
        reset_mask()?;
        barrier_v()?;
        let rep_step = T::step(diff, rep);
        for i in 0..repeat - 1 {
            adds_l0(
                &dst.at(((i + 1) * rep) as u32)?,
                &dst.at((i * rep) as u32)?,
                rep_step,
                MASK_PLACEHOLDER,
                1,
                STRIDE8,
            )?;
            barrier_v()?;
        }
        if tail > 0 {
            let aligned = (tail + blk - 1) / blk * blk;
            set_vector_mask::<T>(MaskMode::NORMAL, aligned as u64)?;
            barrier_v()?;
            adds_l0(
                &dst.at((repeat * rep) as u32)?,
                &dst.at(((repeat - 1) * rep) as u32)?,
                rep_step,
                MASK_PLACEHOLDER,
                1,
                STRIDE8,
            )?;
            barrier_v()?;
        }
    } else {
        let repeat = (count + blk - 1) / blk;
        set_vector_mask::<T>(MaskMode::NORMAL, one_block)?;
        barrier_v()?;
        for i in 0..repeat - 1 {
            adds_l0(
                &dst.at(((i + 1) * blk) as u32)?,
                &dst.at((i * blk) as u32)?,
                block_step,
                MASK_PLACEHOLDER,
                1,
                STRIDE1,
            )?;
            barrier_v()?;
        }
    }
    Ok(())
}

/// `GetArithProgressionMaxMinTmpSize` / `GetArangeMaxMinTmpSize`: `(max, min)` bytes of temporary
/// space, both 0 (the API needs none).
pub fn arith_progression_max_min_tmp_size() -> (u32, u32) {
    (0, 0)
}
