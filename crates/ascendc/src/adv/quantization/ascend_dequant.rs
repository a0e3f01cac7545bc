//! `AscendDequant` (量化操作/AscendDequant): `dst[i, j] = dstT(float(src[i, j]) · deqScale[j])`
//! for the first `calCount` columns of each row of an int32 `[m, n]` source; A2, A3 and 310P (the
//! same sequence on both, only the dtype combinations differ).
//!
//! As the device does it: the temporary buffer, as float, holds the scale row (rounded up to 8
//! elements) and then `k` whole source rows. The scale row becomes float (`Adds 0` from float,
//! `Cast` from bfloat16, `GatherMask` of the low words of uint64). Per chunk of `k` rows: `Cast`
//! int32 → float (`CAST_NONE`) into the buffer, `Mul` by the scale row over the first `calCount`
//! columns of every row (counter mode over whole 64-element repeats, then a normal-mode bitmask
//! for the rest of a row), `Cast` float → dstT row by row into rows of `n` rounded up to 32 bytes
//! (`CAST_RINT` to bfloat16 on A2/A3, `CAST_NONE` otherwise; `Adds 0` to float). The columns past
//! `calCount` hold the unscaled source converted to dstT.

use crate::adv::common::{barrier_v, require, run, Tmp, A2_A3_310P};
use crate::api::vec::binary::mul_l0;
use crate::api::vec::cast::cast_l0;
use crate::api::vec::duplicate::duplicate;
use crate::api::vec::gather::{gather_mask, GatherMaskParams};
use crate::api::vec::mask::{reset_mask, set_mask_count, set_mask_norm, set_vector_mask};
use crate::api::vec::scalar::adds_l0;
use crate::api::vec::Mask;
use crate::chip::Product;
use crate::dtype::{bf16, DType, Element};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::numeric::RoundMode;
use crate::{BinaryRepeatParams, LocalTensor, MaskMode, UnaryRepeatParams, MASK_PLACEHOLDER};

const API: &str = "AscendDequant";

/// Float elements in a 32-byte block and in a 256-byte repeat.
const F32_BLOCK: u32 = 8;
const F32_REPEAT: u32 = 64;
/// The largest repeat count of one instruction.
const MAX_REPEAT: u32 = 255;

/// `{1, 1, 8, 8}`.
const SAME: UnaryRepeatParams = UnaryRepeatParams::new(1, 1, 8, 8);
/// `{1, 1, 1, 8, 8, 8}`.
const BINARY: BinaryRepeatParams = BinaryRepeatParams::new(1, 1, 1, 8, 8, 8);

/// `DequantParams {m, n, calCount}`: an `[m, n]` source (n · 4 bytes a multiple of 32) of which
/// the first `calCount` columns of each row are scaled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DequantParams {
    pub m: u32,
    pub n: u32,
    pub cal_count: u32,
}

/// `DeQuantMode`: how `{1, n, calCount}` is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum DeQuantMode {
    /// `DEQUANT_WITH_SINGLE_ROW` (the default): `{1, n, c}` with `c` a multiple of
    /// `32 / sizeof(dstT)` dividing `n` is computed as `{n / c, c, c}`.
    #[default]
    SingleRow,
    /// `DEQUANT_WITH_MULTI_ROW`: `{1, n, c}` stays one row.
    MultiRow,
}

/// Which part of the source a tensor-scale call covers.
#[derive(Clone, Copy, Debug)]
pub enum DequantExtent {
    /// `DequantParams` (the recommended overloads).
    Params(DequantParams),
    /// `calCount` (deprecated overloads): the source is `[size / scaleSize, scaleSize]`, the
    /// first `calCount` elements are converted, every one of them scaled.
    Count(u32),
    /// No count (deprecated overloads): the whole source, `[size / scaleSize, scaleSize]`.
    Whole,
}

/// `AscendDequant<dstT, scaleT, mode>(dst, src, deqScale, [sharedTmpBuffer,] params | calCount)`
/// with a scale row. `dstT`/`scaleT`: half/uint64 (the low 32 bits of each uint64 are the float
/// scale), float/float; on A2/A3 also float/bfloat16, bfloat16/bfloat16, bfloat16/float.
/// `dst` rows are `n` rounded up to 32 bytes of dstT. `tmp`: at least `(64 + n + n + 8) · 4` bytes
/// (`GetAscendDequantMaxMinTmpSize`); more holds more rows per chunk.
#[track_caller]
pub fn ascend_dequant<D: Element, S: Element>(
    dst: &LocalTensor<D>,
    src: &LocalTensor<i32>,
    deq_scale: &LocalTensor<S>,
    tmp: Tmp,
    extent: DequantExtent,
    mode: DeQuantMode,
) -> Result<()> {
    run(API, SourceLoc::caller(), || {
        let p = require(API, A2_A3_310P)?;
        check_types(p, D::DTYPE, S::DTYPE, true)?;
        let scale_size = deq_scale.get_size();
        let (mut params, count, pure) = match extent {
            DequantExtent::Params(dp) => (dp, dp.m.wrapping_mul(dp.n), true),
            DequantExtent::Count(_) | DequantExtent::Whole => {
                let c = match extent {
                    DequantExtent::Count(c) => c,
                    _ => src.get_size(),
                };
                check_whole(src.get_size(), scale_size, S::DTYPE, c)?;
                let dp = DequantParams {
                    m: src.get_size() / scale_size,
                    n: scale_size,
                    cal_count: scale_size,
                };
                (dp, c, false)
            }
        };
        check_params(&params, src.get_size(), dst.get_size(), D::SIZE as u32)?;
        if params.cal_count > scale_size {
            return Err(size_err(format!(
                "params.calCount = {} exceeds the {scale_size} elements of deqScale",
                params.cal_count
            )));
        }
        update(&mut params, mode, D::SIZE as u32);
        let stack = tmp.buffer(API)?.reinterpret_cast::<f32>();
        let split = split_buffer(&stack, &params, params.m * params.n)?;
        set_mask_count()?;
        scale_row(&split.scale, deq_scale, params.cal_count)?;
        by_rows(dst, src, &split, &params, count, pure, p)?;
        set_mask_norm()?;
        reset_mask()
    })
}

/// `AscendDequant<dstT, scaleT, mode>(dst, src, deqScale, [sharedTmpBuffer,] params)` with one
/// scale: as [`ascend_dequant`] with the scale repeated along the row. `dstT`/`scaleT`:
/// float/float; on A2/A3 also bfloat16/bfloat16, float/bfloat16, bfloat16/float.
#[track_caller]
pub fn ascend_dequant_scalar<D: Element, S: Element>(
    dst: &LocalTensor<D>,
    src: &LocalTensor<i32>,
    deq_scale: S,
    tmp: Tmp,
    params: DequantParams,
    mode: DeQuantMode,
) -> Result<()> {
    run(API, SourceLoc::caller(), || {
        let p = require(API, A2_A3_310P)?;
        check_types(p, D::DTYPE, S::DTYPE, false)?;
        let mut params = params;
        check_params(&params, src.get_size(), dst.get_size(), D::SIZE as u32)?;
        update(&mut params, mode, D::SIZE as u32);
        let stack = tmp.buffer(API)?.reinterpret_cast::<f32>();
        set_mask_count()?;
        let split = split_buffer(&stack, &params, params.m * params.n)?;
        duplicate(
            &split.scale,
            deq_scale.to_f64() as f32,
            params.cal_count as i32,
        )?;
        barrier_v()?;
        set_mask_count()?;
        // The float row in the buffer is the scale row: `Adds 0` onto itself.
        scale_row(&split.scale, &split.scale, params.cal_count)?;
        by_rows(dst, src, &split, &params, params.m * params.n, true, p)?;
        set_mask_norm()?;
        reset_mask()
    })
}

/// The dtype combinations of the page's tables 5 (scale row) and 6 (scalar), per product.
fn check_types(p: Product, d: DType, s: DType, row: bool) -> Result<()> {
    use DType::{Bfloat16 as B, Float as F, Half as H, Uint64 as U};
    let a2 = p != Product::Ascend310P;
    let ok = match (d, s) {
        (H, U) => row,
        (F, F) => true,
        (F, B) | (B, B) | (B, F) => a2,
        _ => false,
    };
    if ok {
        return Ok(());
    }
    let list = match (row, a2) {
        (true, true) => {
            "half/uint64_t, float/float, float/bfloat16_t, bfloat16_t/bfloat16_t, bfloat16_t/float"
        }
        (true, false) => "half/uint64_t, float/float",
        (false, true) => "float/float, float/bfloat16_t, bfloat16_t/bfloat16_t, bfloat16_t/float",
        (false, false) => "float/float",
    };
    Err(SimError::new(
        Category::Type,
        API,
        format!(
            "dstT = {d} with a {} deqScale of {s} is not supported on {p:?}: dstT/scaleT takes {list}",
            if row { "tensor" } else { "scalar" }
        ),
    ))
}

fn size_err(m: String) -> SimError {
    SimError::new(Category::Size, API, m)
}

/// The checks of the overloads without `DequantParams`.
fn check_whole(src: u32, scale: u32, s: DType, count: u32) -> Result<()> {
    if count == 0 || count > src {
        return Err(size_err(format!(
            "parameter `calCount` = {count}: must be in (0, {src}] (the elements of srcTensor)"
        )));
    }
    if scale == 0 || !src.is_multiple_of(scale) {
        return Err(size_err(format!(
            "without DequantParams the {src} elements of srcTensor must be a multiple of the {scale} of deqScale"
        )));
    }
    if s == DType::Uint64 && !scale.is_multiple_of(8) {
        return Err(size_err(format!(
            "without DequantParams a uint64_t deqScale needs a multiple of 8 elements, not {scale}"
        )));
    }
    Ok(())
}

/// The `DequantParams` checks of the device's debug build.
fn check_params(dp: &DequantParams, src: u32, dst: u32, dst_size: u32) -> Result<()> {
    if !dp.n.is_multiple_of(F32_BLOCK) {
        return Err(size_err(format!(
            "params.n = {}: must be a multiple of 8 (rows of 32 bytes of int32)",
            dp.n
        )));
    }
    if dp.m as u64 * dp.n as u64 > src as u64 {
        return Err(size_err(format!(
            "params.m · params.n = {} · {} exceeds the {src} elements of srcTensor",
            dp.m, dp.n
        )));
    }
    if dp.cal_count == 0 || dp.cal_count > dp.n {
        return Err(size_err(format!(
            "params.calCount = {}: must be in (0, params.n = {}]",
            dp.cal_count, dp.n
        )));
    }
    let row = dp.n.div_ceil(32 / dst_size) * (32 / dst_size);
    if dp.m as u64 * row as u64 > dst as u64 {
        return Err(size_err(format!(
            "dstTensor has {dst} elements: params.m rows of {row} (params.n rounded up to 32 bytes) need {}",
            dp.m as u64 * row as u64
        )));
    }
    Ok(())
}

/// `DEQUANT_WITH_SINGLE_ROW`: `{1, n, c}` → `{n / c, c, c}` when `c` is whole blocks of dstT
/// and divides `n`.
fn update(dp: &mut DequantParams, mode: DeQuantMode, dst_size: u32) {
    if mode == DeQuantMode::SingleRow
        && dp.m == 1
        && dp.cal_count.is_multiple_of(32 / dst_size)
        && dp.n.is_multiple_of(dp.cal_count)
    {
        dp.m = dp.n / dp.cal_count;
        dp.n = dp.cal_count;
    }
}

/// The buffer as the device splits it: the float scale row (`calCount` rounded up to 8), then
/// `size` floats, whole rows, at most the source's.
struct Split {
    scale: LocalTensor<f32>,
    rows: LocalTensor<f32>,
    size: u32,
}

fn split_buffer(stack: &LocalTensor<f32>, dp: &DequantParams, src_size: u32) -> Result<Split> {
    let scale_len = dp.cal_count.div_ceil(F32_BLOCK) * F32_BLOCK;
    let total = stack.get_size();
    let size = total.saturating_sub(scale_len) / dp.n * dp.n;
    if size == 0 {
        return Err(SimError::new(
            Category::Size,
            API,
            format!(
                "sharedTmpBuffer of {} bytes is too small: the scale row and one row take ({scale_len} + {}) · 4 bytes; size it with GetAscendDequantMaxMinTmpSize",
                total * 4,
                dp.n
            ),
        ));
    }
    Ok(Split {
        scale: *stack,
        rows: stack.at(scale_len)?,
        size: size.min(src_size),
    })
}

/// The scale row as float in the buffer (`CastDeqscale`), counter mode on return.
fn scale_row<S: Element>(dst: &LocalTensor<f32>, scale: &LocalTensor<S>, n: u32) -> Result<()> {
    match S::DTYPE {
        DType::Float => {
            set_vector_mask::<f32>(MaskMode::COUNTER, n as u64)?;
            adds_l0(
                dst,
                &scale.reinterpret_cast::<f32>(),
                0.0,
                MASK_PLACEHOLDER,
                1,
                SAME,
            )?;
            barrier_v()
        }
        DType::Uint64 => {
            gather_mask(
                dst,
                &scale.reinterpret_cast::<f32>(),
                1,
                true,
                n * 2,
                GatherMaskParams::new(1, 1, 8, 8),
            )?;
            barrier_v()?;
            set_mask_count()
        }
        _ => {
            set_vector_mask::<f32>(MaskMode::COUNTER, n as u64)?;
            cast_l0(
                dst,
                &scale.reinterpret_cast::<bf16>(),
                RoundMode::CAST_NONE,
                MASK_PLACEHOLDER,
                1,
                UnaryRepeatParams::new(1, 1, 8, 4),
            )?;
            barrier_v()
        }
    }
}

/// `CalculateByInner`: `count` source elements in chunks of `split.size`.
fn by_rows<D: Element>(
    dst: &LocalTensor<D>,
    src: &LocalTensor<i32>,
    split: &Split,
    dp: &DequantParams,
    count: u32,
    pure: bool,
    p: Product,
) -> Result<()> {
    let blk = 32 / D::SIZE as u32;
    let dst_row = dp.n.div_ceil(blk) * blk;
    let size = split.size;
    let rows = size / dp.n;
    let stride = (dp.n / F32_BLOCK) as u8;
    let mul = BinaryRepeatParams::new(1, 1, 1, stride, stride, 0);
    let out = if D::DTYPE == DType::Float {
        SAME
    } else {
        UnaryRepeatParams::new(1, 1, 4, 8)
    };
    let round = if D::DTYPE == DType::Bfloat16 && p != Product::Ascend310P {
        RoundMode::CAST_RINT
    } else {
        RoundMode::CAST_NONE
    };
    let cast_out = CastOut {
        n: dp.n,
        dst_row,
        params: out,
        round,
    };
    let step = if dp.n == dst_row {
        size
    } else {
        rows * dst_row
    };
    let (loops, tail) = (count / size, count % size);
    for i in 0..loops {
        set_mask_count()?;
        to_float(&split.rows, &src.at(i * size)?, size)?;
        scale_rows(&split.rows, &split.scale, mul, dp, rows)?;
        set_mask_count()?;
        cast_out.run(&dst.at(i * step)?, &split.rows, size)?;
    }
    if tail > 0 {
        to_float(&split.rows, &src.at(count - tail)?, tail)?;
        scale_rows(&split.rows, &split.scale, mul, dp, tail / dp.n)?;
        let part = tail % dp.n;
        if !pure && part != 0 {
            set_mask_count()?;
            set_vector_mask::<f32>(MaskMode::COUNTER, part as u64)?;
            let at = split.rows.at(tail - part)?;
            mul_l0(&at, &at, &split.scale, MASK_PLACEHOLDER, 1, BINARY)?;
            barrier_v()?;
        }
        set_mask_count()?;
        let done = count - tail;
        let at = if dp.n == dst_row {
            done
        } else {
            done / dp.n * dst_row
        };
        cast_out.run(&dst.at(at)?, &split.rows, tail)?;
    }
    Ok(())
}

/// `Cast` int32 → float (`CAST_NONE`) of `n` elements.
fn to_float(dst: &LocalTensor<f32>, src: &LocalTensor<i32>, n: u32) -> Result<()> {
    set_vector_mask::<f32>(MaskMode::COUNTER, n as u64)?;
    cast_l0(dst, src, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, SAME)?;
    barrier_v()
}

/// `DequantMul`: the first `calCount` columns of `k` rows of `x` times the scale row, in place.
fn scale_rows(
    x: &LocalTensor<f32>,
    scale: &LocalTensor<f32>,
    mul: BinaryRepeatParams,
    dp: &DequantParams,
    k: u32,
) -> Result<()> {
    if k == 0 {
        return Ok(());
    }
    if dp.n > MAX_REPEAT * F32_BLOCK {
        // Row strides beyond a u8: one row per instruction.
        set_vector_mask::<f32>(MaskMode::COUNTER, dp.cal_count as u64)?;
        for i in 0..k {
            let row = x.at(i * dp.n)?;
            mul_l0(&row, &row, scale, MASK_PLACEHOLDER, 1, BINARY)?;
        }
        return barrier_v();
    }
    let (full, rest) = (dp.cal_count / F32_REPEAT, dp.cal_count % F32_REPEAT);
    set_vector_mask::<f32>(MaskMode::COUNTER, (F32_REPEAT * k) as u64)?;
    for i in 0..full {
        let col = x.at(i * F32_REPEAT)?;
        mul_l0(
            &col,
            &col,
            &scale.at(i * F32_REPEAT)?,
            MASK_PLACEHOLDER,
            1,
            mul,
        )?;
    }
    barrier_v()?;
    if rest != 0 {
        set_mask_norm()?;
        set_vector_mask::<f32>(MaskMode::NORMAL, Mask::high_low(0, (1u64 << rest) - 1))?;
        let base = full * F32_REPEAT;
        let s = scale.at(base)?;
        let mut row = 0;
        while row < k {
            let r = (k - row).min(MAX_REPEAT);
            let at = x.at(base + row * dp.n)?;
            mul_l0(&at, &at, &s, MASK_PLACEHOLDER, r as u8, mul)?;
            barrier_v()?;
            row += r;
        }
    }
    Ok(())
}

/// `CastDst`: float rows of `n` into dstT rows of `dst_row`.
struct CastOut {
    n: u32,
    dst_row: u32,
    params: UnaryRepeatParams,
    round: RoundMode,
}

impl CastOut {
    fn run<D: Element>(
        &self,
        dst: &LocalTensor<D>,
        x: &LocalTensor<f32>,
        count: u32,
    ) -> Result<()> {
        if D::DTYPE == DType::Float {
            set_vector_mask::<f32>(MaskMode::COUNTER, count as u64)?;
            adds_l0(
                &dst.reinterpret_cast::<f32>(),
                x,
                0.0,
                MASK_PLACEHOLDER,
                1,
                self.params,
            )?;
            return barrier_v();
        }
        if self.n == self.dst_row {
            set_vector_mask::<f32>(MaskMode::COUNTER, count as u64)?;
            self.cast(dst, x)?;
            return barrier_v();
        }
        let (rows, part) = (count / self.n, count % self.n);
        set_vector_mask::<f32>(MaskMode::COUNTER, self.n as u64)?;
        for i in 0..rows {
            self.cast(&dst.at(i * self.dst_row)?, &x.at(i * self.n)?)?;
        }
        barrier_v()?;
        if part > 0 {
            set_vector_mask::<f32>(MaskMode::COUNTER, part as u64)?;
            self.cast(&dst.at(rows * self.dst_row)?, &x.at(rows * self.n)?)?;
            barrier_v()?;
        }
        Ok(())
    }

    fn cast<D: Element>(&self, dst: &LocalTensor<D>, x: &LocalTensor<f32>) -> Result<()> {
        if D::DTYPE == DType::Half {
            let d = dst.reinterpret_cast::<crate::f16>();
            cast_l0(&d, x, self.round, MASK_PLACEHOLDER, 1, self.params)
        } else {
            let d = dst.reinterpret_cast::<bf16>();
            cast_l0(&d, x, self.round, MASK_PLACEHOLDER, 1, self.params)
        }
    }
}

/// `GetAscendDequantMaxMinTmpSize(srcShape, typeSize, maxValue, minValue)`: `(max, min)` bytes
/// for an `[outer, inner]` (or `[inner]`) int32 source: `(64 + outer · inner + inner + 8) · 4`
/// and `(64 + inner + inner + 8) · 4`. An error for other ranks, an empty shape or
/// `typeSize != 4`.
pub fn ascend_dequant_max_min_tmp_size(dims: &[u32], type_size: u32) -> Result<(u32, u32)> {
    const HOST: &str = "GetAscendDequantMaxMinTmpSize";
    let (outer, inner) = match *dims {
        [n] => (1, n),
        [m, n] => (m, n),
        _ => {
            return Err(SimError::new(
                Category::Range,
                HOST,
                format!(
                    "srcShape has {} dimensions: AscendDequant takes 1 or 2",
                    dims.len()
                ),
            ))
        }
    };
    if outer == 0 || inner == 0 {
        return Err(SimError::new(
            Category::Range,
            HOST,
            "srcShape has no elements",
        ));
    }
    if type_size != 4 {
        return Err(SimError::new(
            Category::Type,
            HOST,
            format!("typeSize = {type_size}: the source is int32_t, typeSize 4"),
        ));
    }
    let scale = inner + F32_BLOCK;
    let max = (F32_REPEAT + outer * inner + scale) * 4;
    let min = (F32_REPEAT + inner + scale) * 4;
    Ok((max, min))
}

/// `GetAscendDequantTmpBufferFactorSize(srcShape, maxLiveNodeCount, extraBuf)`: `(1, 72 + n)`
/// for `[m, n]`, `(2, 72)` for `[n]`, `(0, 0)` otherwise.
pub fn ascend_dequant_tmp_buffer_factor_size(dims: &[u32]) -> (u32, u32) {
    let extra = F32_BLOCK + F32_REPEAT;
    match *dims {
        [_, n] => (1, extra + n),
        [_] => (2, extra),
        _ => (0, 0),
    }
}
