//! `AscendAntiQuant` (量化操作/AscendAntiQuant): `dst = scale · (src + offset)` from int8 (or
//! int4b_t on A2/A3) to half (or bfloat16 on A2/A3), the offset and scale per channel (tensors)
//! or per tensor (scalars), the offset optional, the source `[K, N]` or transposed `[N, K]`.
//!
//! As the device does it. Half results are computed in half: the source is `Cast` to half in
//! `dst`, then `Add` of the offset and `Mul` by the scale in half (per channel: strided repeats
//! over the rows; transposed: the offset/scale columns broadcast to blocks first — `Brcb` on
//! A2/A3, `TransDataTo5HD` on 310P). Bfloat16 results go through float in the temporary buffer:
//! `Cast` int → half → float, `Add`/`Mul` in float with the offset/scale converted from bfloat16,
//! `Cast` float → bfloat16 (`CAST_RINT`). When the buffer or the shape does not fit the fast
//! layout, the device falls back to a row (or group) at a time with scalar coefficients read
//! from the tensors; that is reproduced too, with its quirks.

use crate::adv::common::{barrier_v, require, run, Tmp, A2_A3_310P};
use crate::api::vec::binary::{add_l0, mul_l0};
use crate::api::vec::cast::cast_l0;
use crate::api::vec::fill::{brcb, BrcbRepeatParams};
use crate::api::vec::mask::{reset_mask, set_mask_count, set_mask_norm, set_vector_mask};
use crate::api::vec::scalar::{adds_l0, muls_l0};
use crate::api::vec::trans_data::{trans_data_to_5hd_addr, TransDataTo5HDParams};
use crate::api::vec::Mask;
use crate::chip::Product;
use crate::dtype::{bf16, DType, Element, Int4, TensorElement};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::numeric::RoundMode;
use crate::{f16, BinaryRepeatParams, LocalTensor, MaskMode, UnaryRepeatParams, MASK_PLACEHOLDER};

const API: &str = "AscendAntiQuant";

/// `{1, 1, 1, 8, 8, 8}`.
const BINARY: BinaryRepeatParams = BinaryRepeatParams::new(1, 1, 1, 8, 8, 8);
/// `{1, 1, 8, 8}`.
const SAME: UnaryRepeatParams = UnaryRepeatParams::new(1, 1, 8, 8);
/// 2-byte source to float (`srcRepStride` 4).
const WIDEN: UnaryRepeatParams = UnaryRepeatParams::new(1, 1, 8, 4);
/// Float to a 2-byte result (`dstRepStride` 4).
const NARROW: UnaryRepeatParams = UnaryRepeatParams::new(1, 1, 4, 8);
/// Rows of the per-channel fast path per instruction (the largest repeat count).
const MAX_K: u32 = 255;
/// Columns per instruction of the per-channel fast path: half, bfloat16 (through float).
const COLS_HALF: u32 = 128;
const COLS_FLOAT: u32 = 64;

/// `AntiQuantShapeInfo`: the offset and scale shapes (0: read the tensor's ShapeInfo).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AntiQuantShapeInfo {
    pub offset_height: u32,
    pub offset_width: u32,
    pub scale_height: u32,
    pub scale_width: u32,
}

/// The coefficients of a call.
#[derive(Clone, Copy)]
pub enum AntiQuantParams<'a, D: Element> {
    /// PER_CHANNEL: offset and scale tensors.
    Channel {
        offset: &'a LocalTensor<D>,
        scale: &'a LocalTensor<D>,
    },
    /// PER_CHANNEL without offset.
    ChannelScale { scale: &'a LocalTensor<D> },
    /// PER_TENSOR: one offset, one scale.
    Tensor { offset: D, scale: D },
    /// PER_TENSOR without offset.
    TensorScale { scale: D },
}

/// A coefficient: a tensor row or one value.
#[derive(Clone, Copy)]
enum Coef<'a, D: Element> {
    Row(&'a LocalTensor<D>),
    Value(D),
}

/// `AscendAntiQuant<InputDataType, OutputDataType, isTranspose>(dst, src, [offset,] scale,
/// [sharedTmpBuffer,] k, shapeInfo)`: `dst = scale · (src + offset)` over all of `src` (`[k, N]`,
/// or `[N, k]` when `transpose`). `S`: `i8` or [`Int4`] (A2/A3); `D`: half or bfloat16 (A2/A3).
/// Temporary space: none for half results, else `GetAscendAntiQuantMaxMinTmpSize` (bytes).
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn ascend_antiquant<S: TensorElement, D: Element>(
    dst: &LocalTensor<D>,
    src: &LocalTensor<S>,
    params: AntiQuantParams<D>,
    tmp: Tmp,
    k: u32,
    transpose: bool,
    shape: AntiQuantShapeInfo,
) -> Result<()> {
    run(API, SourceLoc::caller(), || {
        let p = require(API, A2_A3_310P)?;
        check_types(p, S::DTYPE, D::DTYPE)?;
        check_sizes(
            dst.get_size(),
            src.get_size(),
            k,
            transpose,
            &params,
            &shape,
        )?;
        let tmp = tmp.buffer(API)?;
        let a = AntiQuant {
            dst: *dst,
            src: *src,
            tmp,
            k,
            shape,
            product: p,
        };
        match params {
            AntiQuantParams::Channel { offset, scale } => {
                if !transpose {
                    a.channel(offset, scale)?;
                } else if D::DTYPE == DType::Half {
                    a.half_transposed(Some(offset), scale)?;
                } else {
                    a.float_transposed(Some(offset), scale)?;
                }
            }
            AntiQuantParams::ChannelScale { scale } => {
                if !transpose {
                    a.channel_scale(scale)?;
                } else if D::DTYPE == DType::Half {
                    a.half_transposed(None, scale)?;
                } else {
                    a.float_transposed(None, scale)?;
                }
            }
            AntiQuantParams::Tensor { offset, scale } => {
                set_mask_count()?;
                a.outer(
                    &a.dst,
                    &a.src,
                    Some(Coef::Value(offset)),
                    Coef::Value(scale),
                    a.src.get_size(),
                )?;
            }
            AntiQuantParams::TensorScale { scale } => {
                set_mask_count()?;
                a.outer(&a.dst, &a.src, None, Coef::Value(scale), a.src.get_size())?;
            }
        }
        set_mask_norm()?;
        reset_mask()
    })
}

fn check_types(p: Product, s: DType, d: DType) -> Result<()> {
    let a2 = p != Product::Ascend310P;
    let src_ok = s == DType::Int8 || (a2 && s == DType::Int4);
    let dst_ok = d == DType::Half || (a2 && d == DType::Bfloat16);
    if src_ok && dst_ok {
        return Ok(());
    }
    let rule = if a2 {
        "int8_t or int4b_t to half or bfloat16_t"
    } else {
        "int8_t to half"
    };
    Err(SimError::new(
        Category::Type,
        API,
        format!(
            "InputDataType = {s}, OutputDataType = {d} is not supported on {p:?}: it takes {rule}"
        ),
    ))
}

fn size_err(m: String) -> SimError {
    SimError::new(Category::Size, API, m)
}

/// The checks of the device's debug build, and the sizes every path relies on.
fn check_sizes<D: Element>(
    dst: u32,
    src: u32,
    k: u32,
    transpose: bool,
    params: &AntiQuantParams<D>,
    shape: &AntiQuantShapeInfo,
) -> Result<()> {
    if k == 0 || !src.is_multiple_of(k) {
        return Err(size_err(format!(
            "parameter `k` = {k}: must be positive and divide the {src} elements of src"
        )));
    }
    if dst < src {
        return Err(size_err(format!(
            "dst has {dst} elements, fewer than the {src} of src"
        )));
    }
    if transpose && !k.is_multiple_of(32) {
        return Err(size_err(format!(
            "parameter `k` = {k}: with isTranspose, K · sizeof(InputDataType) must be a multiple of 32 bytes"
        )));
    }
    let fits = |h: u32, w: u32, t: &LocalTensor<D>, what: &str| {
        if h as u64 * w as u64 > t.get_size() as u64 {
            Err(size_err(format!(
                "shapeInfo {what} {h} × {w} exceeds the {} elements of the {what} tensor",
                t.get_size()
            )))
        } else {
            Ok(())
        }
    };
    match params {
        AntiQuantParams::Channel { offset, scale } => {
            fits(shape.scale_height, shape.scale_width, scale, "scale")?;
            fits(shape.offset_height, shape.offset_width, offset, "offset")
        }
        AntiQuantParams::ChannelScale { scale } => {
            fits(shape.scale_height, shape.scale_width, scale, "scale")
        }
        _ => Ok(()),
    }
}

/// Dimension `i` of a coefficient's shape: `given`, or the tensor's ShapeInfo when 0.
fn dim<D: Element>(given: u32, t: &LocalTensor<D>, i: usize, what: &str) -> Result<u32> {
    let v = if given != 0 {
        given
    } else {
        t.get_shape_info().map(|s| s.shape[i]).unwrap_or(0)
    };
    if v == 0 {
        return Err(size_err(format!(
            "the {what} shape is unknown: pass it in shapeInfo or set the tensor's ShapeInfo"
        )));
    }
    Ok(v)
}

/// One call's operands.
struct AntiQuant<S: TensorElement, D: Element> {
    dst: LocalTensor<D>,
    src: LocalTensor<S>,
    tmp: LocalTensor<u8>,
    k: u32,
    shape: AntiQuantShapeInfo,
    product: Product,
}

/// `Cast` of the source to half (`CAST_NONE`).
fn src_to_half<S: TensorElement>(
    dst: &LocalTensor<f16>,
    src: &LocalTensor<S>,
    repeat: u8,
    params: UnaryRepeatParams,
) -> Result<()> {
    if S::DTYPE == DType::Int4 {
        let s = src.reinterpret_cast::<Int4>();
        cast_l0(
            dst,
            &s,
            RoundMode::CAST_NONE,
            MASK_PLACEHOLDER,
            repeat,
            params,
        )
    } else {
        let s = src.reinterpret_cast::<i8>();
        cast_l0(
            dst,
            &s,
            RoundMode::CAST_NONE,
            MASK_PLACEHOLDER,
            repeat,
            params,
        )
    }
}

/// The source-to-half repeat parameters of a contiguous cast (`srcRepStride` 4 for int8, 2 for
/// int4b_t).
fn src_params<S: TensorElement>() -> UnaryRepeatParams {
    if S::DTYPE == DType::Int4 {
        UnaryRepeatParams::new(1, 1, 8, 2)
    } else {
        WIDEN
    }
}

fn as_f32(t: &LocalTensor<u8>, byte: u32) -> Result<LocalTensor<f32>> {
    Ok(t.at(byte)?.reinterpret_cast())
}

impl<S: TensorElement, D: Element> AntiQuant<S, D> {
    fn half(&self) -> bool {
        D::DTYPE == DType::Half
    }

    /// `AntiQuantOuterLoop`: `count` elements with the coefficients as given (rows are not
    /// advanced across the float chunks, as on the device); counter mode.
    fn outer(
        &self,
        dst: &LocalTensor<D>,
        src: &LocalTensor<S>,
        offset: Option<Coef<D>>,
        scale: Coef<D>,
        count: u32,
    ) -> Result<()> {
        if self.half() {
            return self.inner_half(dst, src, offset, scale, count);
        }
        let chunk = self.tmp.get_size() / 2 / 4;
        if chunk == 0 {
            return Err(size_err(format!(
                "sharedTmpBuffer of {} bytes is too small for a bfloat16_t result; size it with GetAscendAntiQuantMaxMinTmpSize",
                self.tmp.get_size()
            )));
        }
        let (loops, tail) = (count / chunk, count % chunk);
        for i in 0..loops {
            let at = i * chunk;
            self.inner_float(&dst.at(at)?, &src.at(at)?, offset, scale, chunk)?;
        }
        if tail > 0 {
            let at = loops * chunk;
            self.inner_float(&dst.at(at)?, &src.at(at)?, offset, scale, tail)?;
        }
        Ok(())
    }

    /// Half result: `Cast` into dst, `Add`(s) the offset, `Mul`(s) by the scale.
    fn inner_half(
        &self,
        dst: &LocalTensor<D>,
        src: &LocalTensor<S>,
        offset: Option<Coef<D>>,
        scale: Coef<D>,
        count: u32,
    ) -> Result<()> {
        let d = dst.reinterpret_cast::<f16>();
        set_vector_mask::<f16>(MaskMode::COUNTER, count as u64)?;
        src_to_half(&d, src, 1, src_params::<S>())?;
        barrier_v()?;
        match offset {
            Some(Coef::Row(o)) => {
                add_l0(&d, &o.reinterpret_cast(), &d, MASK_PLACEHOLDER, 1, BINARY)?;
                barrier_v()?;
            }
            Some(Coef::Value(o)) => {
                adds_l0(&d, &d, f16::from_f64(o.to_f64()), MASK_PLACEHOLDER, 1, SAME)?;
                barrier_v()?;
            }
            None => {}
        }
        match scale {
            Coef::Row(s) => mul_l0(&d, &s.reinterpret_cast(), &d, MASK_PLACEHOLDER, 1, BINARY)?,
            Coef::Value(s) => {
                muls_l0(&d, &d, f16::from_f64(s.to_f64()), MASK_PLACEHOLDER, 1, SAME)?
            }
        }
        barrier_v()
    }

    /// Bfloat16 result of `count` elements through float in the buffer: the float result at
    /// byte 0, the half source at byte `2·count`, the float offset/scale row at `4·count`.
    fn inner_float(
        &self,
        dst: &LocalTensor<D>,
        src: &LocalTensor<S>,
        offset: Option<Coef<D>>,
        scale: Coef<D>,
        count: u32,
    ) -> Result<()> {
        let halves = self.tmp.at(count * 2)?.reinterpret_cast::<f16>();
        let res = self.tmp.reinterpret_cast::<f32>();
        set_vector_mask::<f32>(MaskMode::COUNTER, count as u64)?;
        src_to_half(&halves, src, 1, src_params::<S>())?;
        barrier_v()?;
        cast_l0(
            &res,
            &halves,
            RoundMode::CAST_NONE,
            MASK_PLACEHOLDER,
            1,
            WIDEN,
        )?;
        barrier_v()?;
        let row = || as_f32(&self.tmp, count * 4);
        match offset {
            Some(Coef::Row(o)) => {
                let row = row()?;
                let o = o.reinterpret_cast::<bf16>();
                cast_l0(&row, &o, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, WIDEN)?;
                barrier_v()?;
                add_l0(&res, &res, &row, MASK_PLACEHOLDER, 1, BINARY)?;
                barrier_v()?;
            }
            Some(Coef::Value(o)) => {
                adds_l0(&res, &res, o.to_f64() as f32, MASK_PLACEHOLDER, 1, SAME)?;
                barrier_v()?;
            }
            None => {}
        }
        match scale {
            Coef::Row(s) => {
                let row = row()?;
                let s = s.reinterpret_cast::<bf16>();
                cast_l0(&row, &s, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, WIDEN)?;
                barrier_v()?;
                mul_l0(&res, &res, &row, MASK_PLACEHOLDER, 1, BINARY)?;
            }
            Coef::Value(s) => muls_l0(&res, &res, s.to_f64() as f32, MASK_PLACEHOLDER, 1, SAME)?,
        }
        barrier_v()?;
        let d = dst.reinterpret_cast::<bf16>();
        cast_l0(&d, &res, RoundMode::CAST_RINT, MASK_PLACEHOLDER, 1, NARROW)?;
        barrier_v()
    }

    /// PER_CHANNEL, `[K, N]` source, offset and scale rows of N.
    fn channel(&self, offset: &LocalTensor<D>, scale: &LocalTensor<D>) -> Result<()> {
        let (k, n) = (self.k, self.src.get_size() / self.k);
        let fast = self.half()
            || self.tmp.get_size() as u64
                >= scale.get_size() as u64 * 8 + (COLS_FLOAT * k) as u64 * 4;
        if !fast {
            // A group of rows at a time, with the first group's coefficients.
            let groups = dim(self.shape.scale_height, scale, 0, "scale")?;
            set_mask_count()?;
            for j in 0..k / groups {
                self.outer(
                    &self.dst.at(j * n)?,
                    &self.src.at(j * n)?,
                    Some(Coef::Row(offset)),
                    Coef::Row(scale),
                    n,
                )?;
            }
            return Ok(());
        }
        self.pre_cast(offset, scale)?;
        let cols = if self.half() { COLS_HALF } else { COLS_FLOAT };
        let n_tail = n % cols;
        let n_align = n - n_tail;
        let mut row = 0;
        while row < k {
            let rows = (k - row).min(MAX_K);
            let at = row * n;
            let (d, s) = (self.dst.at(at)?, self.src.at(at)?);
            if self.half() {
                self.channel_half(&d, offset, scale, rows, n)?;
                if n_tail > 0 {
                    self.channel_half_tail(
                        &self.dst.at(at + n_align)?,
                        &offset.at(n_align)?,
                        &scale.at(n_align)?,
                        rows,
                        n,
                        n_tail,
                    )?;
                }
            } else {
                self.channel_float(&d, &s, rows, n)?;
                if n_tail > 0 {
                    self.channel_float_tail(
                        &self.dst.at(at + n_align)?,
                        &self.src.at(at + n_align)?,
                        rows,
                        n,
                        n_tail,
                    )?;
                }
            }
            row += rows;
        }
        Ok(())
    }

    /// `PreCast`: half, the whole source to half in dst; bfloat16, the offset and scale rows to
    /// float at the start of the buffer.
    fn pre_cast(&self, offset: &LocalTensor<D>, scale: &LocalTensor<D>) -> Result<()> {
        set_mask_count()?;
        if self.half() {
            set_vector_mask::<f16>(MaskMode::COUNTER, self.src.get_size() as u64)?;
            src_to_half(
                &self.dst.reinterpret_cast(),
                &self.src,
                1,
                src_params::<S>(),
            )?;
            return barrier_v();
        }
        let len = offset.get_size();
        set_vector_mask::<f16>(MaskMode::COUNTER, len as u64)?;
        let (o, s) = (as_f32(&self.tmp, 0)?, as_f32(&self.tmp, len * 4)?);
        cast_l0(
            &o,
            &offset.reinterpret_cast::<bf16>(),
            RoundMode::CAST_NONE,
            MASK_PLACEHOLDER,
            1,
            WIDEN,
        )?;
        barrier_v()?;
        cast_l0(
            &s,
            &scale.reinterpret_cast::<bf16>(),
            RoundMode::CAST_NONE,
            MASK_PLACEHOLDER,
            1,
            WIDEN,
        )?;
        barrier_v()
    }

    /// Half, whole 128-column strips of `rows` rows: `Add` then `Mul` with the row repeated.
    fn channel_half(
        &self,
        dst: &LocalTensor<D>,
        offset: &LocalTensor<D>,
        scale: &LocalTensor<D>,
        rows: u32,
        n: u32,
    ) -> Result<()> {
        let rs = (n * 2 / 32) as u8;
        let bp = BinaryRepeatParams::new(1, 1, 1, rs, rs, 0);
        set_mask_count()?;
        set_vector_mask::<f16>(MaskMode::COUNTER, (COLS_HALF * rows) as u64)?;
        for i in 0..n / COLS_HALF {
            let c = i * COLS_HALF;
            let d = dst.at(c)?.reinterpret_cast::<f16>();
            let o = offset.at(c)?.reinterpret_cast::<f16>();
            let s = scale.at(c)?.reinterpret_cast::<f16>();
            add_l0(&d, &d, &o, MASK_PLACEHOLDER, 1, bp)?;
            barrier_v()?;
            mul_l0(&d, &d, &s, MASK_PLACEHOLDER, 1, bp)?;
            barrier_v()?;
        }
        set_mask_norm()?;
        reset_mask()
    }

    /// Half, the last `tail` columns of `rows` rows under a normal-mode mask.
    fn channel_half_tail(
        &self,
        dst: &LocalTensor<D>,
        offset: &LocalTensor<D>,
        scale: &LocalTensor<D>,
        rows: u32,
        n: u32,
        tail: u32,
    ) -> Result<()> {
        let rs = (n * 2 / 32) as u8;
        let bp = BinaryRepeatParams::new(1, 1, 1, rs, rs, 0);
        set_mask_norm()?;
        set_vector_mask::<f16>(MaskMode::NORMAL, tail as u64)?;
        let d = dst.reinterpret_cast::<f16>();
        add_l0(
            &d,
            &d,
            &offset.reinterpret_cast(),
            MASK_PLACEHOLDER,
            rows as u8,
            bp,
        )?;
        barrier_v()?;
        mul_l0(
            &d,
            &d,
            &scale.reinterpret_cast(),
            MASK_PLACEHOLDER,
            rows as u8,
            bp,
        )?;
        barrier_v()?;
        reset_mask()
    }

    /// The buffer of the bfloat16 per-channel path: float offset row, float scale row, float
    /// strip of 64 × rows, half strip.
    fn strips(&self, n: u32, rows: u32) -> Result<(LocalTensor<f32>, LocalTensor<f16>)> {
        let res_at = n * 4 * 2;
        let half_at = res_at + COLS_FLOAT * rows * 2;
        Ok((
            as_f32(&self.tmp, res_at)?,
            self.tmp.at(half_at)?.reinterpret_cast(),
        ))
    }

    /// Bfloat16, whole 64-column strips: source → half (normal mode, a row per repeat) → float
    /// (counter), `Add`, `Mul` with the float rows, → bfloat16 into the strip of dst.
    fn channel_float(
        &self,
        dst: &LocalTensor<D>,
        src: &LocalTensor<S>,
        rows: u32,
        n: u32,
    ) -> Result<()> {
        let (res, halves) = self.strips(n, rows)?;
        let to_half = if S::DTYPE == DType::Int4 {
            UnaryRepeatParams::new(1, 1, 4, (n / 2 / 32) as u8)
        } else {
            UnaryRepeatParams::new(1, 1, 4, (n / 32) as u8)
        };
        let bp = BinaryRepeatParams::new(1, 1, 1, 8, 8, 0);
        let out = UnaryRepeatParams::new(1, 1, (n * 2 / 32) as u8, 8);
        for i in 0..n / COLS_FLOAT {
            let c = i * COLS_FLOAT;
            set_mask_norm()?;
            set_vector_mask::<f16>(MaskMode::NORMAL, COLS_FLOAT as u64)?;
            src_to_half(&halves, &src.at(c)?, rows as u8, to_half)?;
            barrier_v()?;
            set_mask_count()?;
            set_vector_mask::<f32>(MaskMode::COUNTER, (COLS_FLOAT * rows) as u64)?;
            cast_l0(
                &res,
                &halves,
                RoundMode::CAST_NONE,
                MASK_PLACEHOLDER,
                1,
                WIDEN,
            )?;
            barrier_v()?;
            add_l0(
                &res,
                &res,
                &as_f32(&self.tmp, c * 4)?,
                MASK_PLACEHOLDER,
                1,
                bp,
            )?;
            barrier_v()?;
            mul_l0(
                &res,
                &res,
                &as_f32(&self.tmp, n * 4 + c * 4)?,
                MASK_PLACEHOLDER,
                1,
                bp,
            )?;
            barrier_v()?;
            let d = dst.at(c)?.reinterpret_cast::<bf16>();
            cast_l0(&d, &res, RoundMode::CAST_RINT, MASK_PLACEHOLDER, 1, out)?;
            barrier_v()?;
        }
        set_mask_norm()?;
        reset_mask()
    }

    /// Bfloat16, the last `tail` columns, all in normal mode (the int4b_t source keeps the
    /// device's default half `dstRepStride` 8 here).
    fn channel_float_tail(
        &self,
        dst: &LocalTensor<D>,
        src: &LocalTensor<S>,
        rows: u32,
        n: u32,
        tail: u32,
    ) -> Result<()> {
        let col = n / COLS_FLOAT * COLS_FLOAT;
        let (res, halves) = self.strips(n, rows)?;
        let o = as_f32(&self.tmp, col * 4)?;
        let s = as_f32(&self.tmp, n * 4 + col * 4)?;
        let to_half = if S::DTYPE == DType::Int4 {
            UnaryRepeatParams::new(1, 1, 8, (n / 2 / 32) as u8)
        } else {
            UnaryRepeatParams::new(1, 1, 4, (n / 32) as u8)
        };
        let bp = BinaryRepeatParams::new(1, 1, 1, 8, 8, 0);
        let out = UnaryRepeatParams::new(1, 1, (n * 2 / 32) as u8, 8);
        let r = rows as u8;
        set_mask_norm()?;
        set_vector_mask::<f16>(MaskMode::NORMAL, tail as u64)?;
        src_to_half(&halves, src, r, to_half)?;
        barrier_v()?;
        cast_l0(
            &res,
            &halves,
            RoundMode::CAST_NONE,
            MASK_PLACEHOLDER,
            r,
            WIDEN,
        )?;
        barrier_v()?;
        add_l0(&res, &res, &o, MASK_PLACEHOLDER, r, bp)?;
        barrier_v()?;
        mul_l0(&res, &res, &s, MASK_PLACEHOLDER, r, bp)?;
        barrier_v()?;
        let d = dst.reinterpret_cast::<bf16>();
        cast_l0(&d, &res, RoundMode::CAST_RINT, MASK_PLACEHOLDER, r, out)?;
        barrier_v()?;
        reset_mask()
    }

    /// PER_CHANNEL without offset, `[K, N]`: row by row, the scale row of the row's group.
    fn channel_scale(&self, scale: &LocalTensor<D>) -> Result<()> {
        let groups = dim(self.shape.scale_height, scale, 0, "scale")?;
        let n = dim(self.shape.scale_width, scale, 1, "scale")?;
        let size = self.k / groups;
        set_mask_count()?;
        for i in 0..groups {
            for j in 0..size {
                let at = (i * size + j) * n;
                let row = scale.at(i * n)?;
                self.outer(
                    &self.dst.at(at)?,
                    &self.src.at(at)?,
                    None,
                    Coef::Row(&row),
                    n,
                )?;
            }
        }
        Ok(())
    }

    /// The transposed fallback: per row and group, the scalar coefficients read from the
    /// tensors.
    fn scalar_groups(&self, offset: Option<&LocalTensor<D>>, scale: &LocalTensor<D>) -> Result<()> {
        let k = self.k;
        let n = self.src.get_size() / k;
        let width = match offset {
            Some(o) => dim(self.shape.offset_width, o, 1, "offset")?,
            None => dim(self.shape.scale_width, scale, 1, "scale")?,
        };
        let size = k / width;
        if size == 0 {
            return Err(size_err(format!(
                "the coefficient width {width} exceeds k = {k}"
            )));
        }
        let len = k / size;
        set_mask_count()?;
        for i in 0..n {
            for j in 0..len {
                let at = i * k + j * size;
                let s = Coef::Value(scale.get_value(i * len + j)?);
                let o = match offset {
                    Some(o) => Some(Coef::Value(o.get_value(i * len + j)?)),
                    None => None,
                };
                self.outer(&self.dst.at(at)?, &self.src.at(at)?, o, s, size)?;
                barrier_v()?;
            }
        }
        Ok(())
    }

    /// Half result, `[N, K]` source: the coefficients broadcast to blocks of 16, then `Add`/`Mul`
    /// in 128-column strips with a row per repeat, and the last columns under a normal mask.
    fn half_transposed(
        &self,
        offset: Option<&LocalTensor<D>>,
        scale: &LocalTensor<D>,
    ) -> Result<()> {
        let k = self.k;
        let scale_n = dim(self.shape.scale_height, scale, 0, "scale")?;
        let need = 16 * scale_n * if offset.is_some() { 2 } else { 1 };
        if self.tmp.get_size() / 2 < need || k >= 4096 {
            return self.scalar_groups(offset, scale);
        }
        set_mask_count()?;
        set_vector_mask::<f16>(MaskMode::COUNTER, self.src.get_size() as u64)?;
        let d = self.dst.reinterpret_cast::<f16>();
        src_to_half(&d, &self.src, 1, src_params::<S>())?;
        barrier_v()?;
        let stack = self.tmp.reinterpret_cast::<f16>();
        let t_scale = stack;
        let t_offset = stack.at(16 * scale_n)?;
        self.broadcast16(&t_scale, &scale.reinterpret_cast(), scale_n)?;
        if let Some(o) = offset {
            self.broadcast16(&t_offset, &o.reinterpret_cast(), scale_n)?;
        }
        let t_offset = offset.map(|_| t_offset);
        let rows = self.src.get_size() / k;
        if k < COLS_HALF {
            return half_transposed_tail(&d, &t_scale, t_offset.as_ref(), rows, k);
        }
        set_mask_count()?;
        let rs = (k * 2 / 32) as u8;
        let bp = BinaryRepeatParams::new(1, 1, 0, rs, rs, 1);
        set_vector_mask::<f16>(MaskMode::COUNTER, (rows * COLS_HALF) as u64)?;
        for i in 0..k / COLS_HALF {
            let c = d.at(i * COLS_HALF)?;
            if let Some(o) = &t_offset {
                add_l0(&c, &c, o, MASK_PLACEHOLDER, 1, bp)?;
                barrier_v()?;
            }
            mul_l0(&c, &c, &t_scale, MASK_PLACEHOLDER, 1, bp)?;
            barrier_v()?;
        }
        let tail = k % COLS_HALF;
        if tail != 0 {
            half_transposed_tail(&d.at(k - tail)?, &t_scale, t_offset.as_ref(), rows, k)?;
        }
        Ok(())
    }

    /// Each of `n` halves of `src` to a block of 16 copies: `Brcb` (A2/A3, 8 per repeat) or
    /// `TransDataTo5HD` with every source address the same (310P, 16 per repeat).
    fn broadcast16(&self, dst: &LocalTensor<f16>, src: &LocalTensor<f16>, n: u32) -> Result<()> {
        if self.product != Product::Ascend310P {
            set_mask_norm()?;
            reset_mask()?;
            brcb(dst, src, (n / 8) as u8, BrcbRepeatParams::new(1, 8))?;
            return barrier_v();
        }
        let base = dst.get_phy_addr() as u64;
        let dl: [u64; 16] = std::array::from_fn(|i| base + 32 * i as u64);
        let sl = [src.get_phy_addr() as u64; 16];
        let reps = n / 16;
        let (drs, srs) = if reps == 1 { (0, 0) } else { (16, 1) };
        trans_data_to_5hd_addr::<f16>(
            &dl,
            &sl,
            TransDataTo5HDParams::new(false, false, reps as u8, drs, srs),
        )?;
        barrier_v()
    }

    /// Bfloat16 result, `[N, K]` source with K a multiple of 64 (else the scalar fallback): the
    /// coefficients to float and broadcast to blocks of 8, then per 64-column strip of all rows:
    /// source → half → float, `Add`, `Mul`, → bfloat16.
    fn float_transposed(
        &self,
        offset: Option<&LocalTensor<D>>,
        scale: &LocalTensor<D>,
    ) -> Result<()> {
        let k = self.k;
        if k > MAX_K * 8 || !k.is_multiple_of(COLS_FLOAT) {
            return self.scalar_groups(offset, scale);
        }
        let mut stack = self.tmp.reinterpret_cast::<f32>();
        let size = scale.get_size();
        let (mut rows_n, mut shape_n) = (size, self.src.get_size() / k);
        stack.set_size(size * (COLS_FLOAT + 16)).map_err(|_| {
            size_err(format!(
                "sharedTmpBuffer of {} bytes is too small: the transposed bfloat16_t path takes (64 + 16) · {size} floats; size it with GetAscendAntiQuantMaxMinTmpSize",
                self.tmp.get_size()
            ))
        })?;
        if S::DTYPE == DType::Int4 {
            rows_n = dim(self.shape.scale_height, scale, 0, "scale")?;
            shape_n = rows_n;
        }
        let t_offset = stack;
        let t_scale = stack.at(8 * size)?;
        let input = stack.at(16 * size)?;
        let n = k / COLS_FLOAT;
        // Coefficients: bfloat16 → float after 7/8 of their broadcast area, then Brcb.
        set_mask_count()?;
        let ofs_len = offset.map_or(size, |o| o.get_size());
        let at = 7 * ofs_len;
        set_vector_mask::<f16>(MaskMode::COUNTER, rows_n as u64)?;
        if let Some(o) = offset {
            let o = o.reinterpret_cast::<bf16>();
            cast_l0(
                &t_offset.at(at)?,
                &o,
                RoundMode::CAST_NONE,
                MASK_PLACEHOLDER,
                1,
                WIDEN,
            )?;
            barrier_v()?;
        }
        let s = scale.reinterpret_cast::<bf16>();
        cast_l0(
            &t_scale.at(at)?,
            &s,
            RoundMode::CAST_NONE,
            MASK_PLACEHOLDER,
            1,
            WIDEN,
        )?;
        barrier_v()?;
        let reps = rows_n.div_ceil(8) as u8;
        set_mask_norm()?;
        reset_mask()?;
        if offset.is_some() {
            brcb(
                &t_offset,
                &t_offset.at(at)?,
                reps,
                BrcbRepeatParams::new(1, 8),
            )?;
            barrier_v()?;
        }
        brcb(
            &t_scale,
            &t_scale.at(at)?,
            reps,
            BrcbRepeatParams::new(1, 8),
        )?;
        barrier_v()?;
        let to_half = if S::DTYPE == DType::Int4 {
            UnaryRepeatParams::new(1, 1, 4, n as u8)
        } else {
            UnaryRepeatParams::new(1, 1, 4, (2 * n) as u8)
        };
        let bp = BinaryRepeatParams::new(1, 1, 0, 8, 8, 1);
        let out = UnaryRepeatParams::new(1, 1, (4 * n) as u8, 8);
        let halves = input.at(COLS_FLOAT * rows_n / 2)?.reinterpret_cast::<f16>();
        let full = Mask::high_low(0, u64::MAX);
        for i in 0..n {
            let c = i * COLS_FLOAT;
            set_mask_norm()?;
            set_vector_mask::<f16>(MaskMode::NORMAL, full)?;
            src_to_half(&halves, &self.src.at(c)?, rows_n as u8, to_half)?;
            barrier_v()?;
            cast_l0(
                &input,
                &halves,
                RoundMode::CAST_NONE,
                MASK_PLACEHOLDER,
                rows_n as u8,
                WIDEN,
            )?;
            barrier_v()?;
            set_mask_count()?;
            set_vector_mask::<f32>(MaskMode::COUNTER, (COLS_FLOAT * rows_n) as u64)?;
            if offset.is_some() {
                add_l0(&input, &input, &t_offset, MASK_PLACEHOLDER, 1, bp)?;
                barrier_v()?;
            }
            mul_l0(&input, &input, &t_scale, MASK_PLACEHOLDER, 1, bp)?;
            barrier_v()?;
            set_mask_norm()?;
            set_vector_mask::<f32>(MaskMode::NORMAL, full)?;
            let d = self.dst.at(c)?.reinterpret_cast::<bf16>();
            cast_l0(
                &d,
                &input,
                RoundMode::CAST_RINT,
                MASK_PLACEHOLDER,
                shape_n as u8,
                out,
            )?;
            barrier_v()?;
        }
        Ok(())
    }
}

/// Half, transposed: the last `k % 128` columns of every row under a normal-mode mask, 255 rows
/// per instruction.
fn half_transposed_tail(
    d: &LocalTensor<f16>,
    t_scale: &LocalTensor<f16>,
    t_offset: Option<&LocalTensor<f16>>,
    rows: u32,
    k: u32,
) -> Result<()> {
    set_mask_norm()?;
    set_vector_mask::<f16>(MaskMode::NORMAL, (k % COLS_HALF) as u64)?;
    let rs = (k * 2 / 32) as u8;
    let bp = BinaryRepeatParams::new(1, 1, 0, rs, rs, 1);
    let mut row = 0;
    while row < rows {
        let r = (rows - row).min(MAX_K);
        let at = d.at(row * k)?;
        if let Some(o) = t_offset {
            add_l0(&at, &at, &o.at(row * 16)?, MASK_PLACEHOLDER, r as u8, bp)?;
            barrier_v()?;
        }
        mul_l0(
            &at,
            &at,
            &t_scale.at(row * 16)?,
            MASK_PLACEHOLDER,
            r as u8,
            bp,
        )?;
        barrier_v()?;
        row += r;
    }
    Ok(())
}

/// The host helpers' description of a call: `[K, N]` (or `[N, K]`) source and scale shapes,
/// whether transposed, whether the source is a 4-bit float (Ascend 950), whether the result is
/// half.
#[derive(Clone, Copy, Debug)]
pub struct AntiQuantShapes<'a> {
    pub src: &'a [u32],
    pub scale: &'a [u32],
    pub transpose: bool,
    pub fp4_input: bool,
    pub half_output: bool,
}

impl AntiQuantShapes<'_> {
    fn scale_size(&self) -> u32 {
        self.scale.iter().product()
    }
    fn src_size(&self) -> u32 {
        self.src.iter().product()
    }
    fn fp4(&self) -> u32 {
        if self.transpose {
            self.scale_size().div_ceil(32) * 32 * 2
        } else {
            0
        }
    }
    /// `64 · K` floats of strip plus the float offset and scale rows (per channel, `[K, N]`).
    fn channel_rows(&self) -> u32 {
        let k = self.src.first().copied().unwrap_or(0);
        self.scale_size() * 2 * 4 + 64 * k * 4
    }
}

/// `GetAscendAntiQuantMaxTmpSize`: bytes. 0 for a half result; per channel `80 · N · 4`
/// (transposed) or `8 · N + 256 · K` (not); per tensor 4 bytes per source element.
pub fn ascend_antiquant_max_tmp_size(s: &AntiQuantShapes) -> u32 {
    if s.fp4_input {
        return s.fp4();
    }
    if s.half_output {
        return 0;
    }
    let per_channel = s.scale_size() != 1;
    match (s.transpose, per_channel) {
        (true, true) => 80 * s.scale_size() * 4,
        (false, true) => s.channel_rows(),
        _ => s.src_size() * 4,
    }
}

/// `GetAscendAntiQuantMinTmpSize`: bytes. 0 for a half result, 1024 per tensor, per channel
/// as the maximum.
pub fn ascend_antiquant_min_tmp_size(s: &AntiQuantShapes) -> u32 {
    if s.fp4_input {
        return s.fp4();
    }
    if s.half_output {
        return 0;
    }
    if s.scale_size() == 1 {
        return 1024;
    }
    if s.transpose {
        80 * s.scale_size() * 4
    } else {
        s.channel_rows()
    }
}

/// `GetAscendAntiQuantMaxMinTmpSize`: `(max, min)` bytes.
pub fn ascend_antiquant_max_min_tmp_size(s: &AntiQuantShapes) -> (u32, u32) {
    (
        ascend_antiquant_max_tmp_size(s),
        ascend_antiquant_min_tmp_size(s),
    )
}

/// `GetAscendAntiQuantTmpBufferFactorSize`: `(maxLiveNodeCount, extraBuf)`.
pub fn ascend_antiquant_tmp_buffer_factor_size(s: &AntiQuantShapes) -> (u32, u32) {
    let per_channel = s.scale_size() != 1;
    if s.fp4_input {
        return (0, s.fp4());
    }
    if s.half_output {
        return (0, 0);
    }
    match (s.transpose, per_channel) {
        (true, true) => (0, 80 * s.scale_size() * 4),
        (false, true) => (0, s.channel_rows()),
        _ => (1, 0),
    }
}
