//! `BatchNorm` (归一化操作/BatchNorm): normalization over the first axis of a `[B, S, H]`
//! tensor, half or float; A2, A3 and 310P.
//!
//! For each of the `S·H` columns: `mean = Σ_b (x_b · (1/B))`, `variance = Σ_b ((x_b − mean)² ·
//! (1/B))` (sums in row order), and `output_b = γ_b · (x_b − mean) · exp(−0.5 · ln(variance + ε))
//! + β_b`, all in float (half operands widened, results narrowed). The device works on
//! `shCurLength` columns of every row per pass, with level-2 instructions under the counter
//! mask; `γ_b` and `β_b` are spread over their rows by a scalar read and a `Duplicate` per row.

use crate::adv::common::{barrier_v, require, run, sync_event, Tmp, A2_A3_310P};
use crate::api::vec::binary::{add_l0, mul_l0, sub_l0};
use crate::api::vec::cast::cast_l0;
use crate::api::vec::duplicate::duplicate_l0;
use crate::api::vec::mask::{reset_mask, set_mask_count, set_mask_norm, set_vector_mask};
use crate::api::vec::scalar::{adds_l0, muls_l0};
use crate::api::vec::unary::{exp_l0, ln_l0};
use crate::dtype::{DType, Element};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::numeric::RoundMode;
use crate::{
    data_copy, f16, BinaryRepeatParams, DataCopyParams, HardEvent, LocalTensor, MaskMode,
    UnaryRepeatParams, MASK_PLACEHOLDER,
};

const API: &str = "BatchNorm";
/// Floats of one 32-byte block.
const BLOCK_FLOATS: u32 = 8;
/// Halves of one 32-byte block.
const BLOCK_HALVES: u32 = 16;
/// Columns of a basic block.
const BASIC_SH: u32 = 64;
const BINARY: BinaryRepeatParams = BinaryRepeatParams::new(1, 1, 1, 8, 8, 8);
const UNARY: UnaryRepeatParams = UnaryRepeatParams::new(1, 1, 8, 8);

/// The tiling `GetBatchNormNDTilingInfo` fills (`BatchNormTiling`, 20 fields of 4 bytes in the
/// device's order). Positions and sizes in floats of the temporary buffer.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct BatchNormTiling {
    /// B (the axis normalized over).
    pub original_b_length: u32,
    /// `S · H`: the row stride of the input and output, the length of mean and variance.
    pub mean_var_size: u32,
    /// Where the float mean starts (half).
    pub mean_tmp_tensor_pos: u32,
    /// Where the float variance starts (half).
    pub variance_tmp_tensor_pos: u32,
    /// Floats of temporary space the tiling was computed for.
    pub tmp_buf_size: u32,
    /// Floats of each of the three pass buffers (`B · shCurLength`).
    pub one_tmp_size: u32,
    /// Where the first pass buffer starts.
    pub first_tmp_start_pos: u32,
    /// Where the second starts.
    pub second_tmp_start_pos: u32,
    /// Where the third starts.
    pub third_tmp_start_pos: u32,
    /// Full passes.
    pub loop_round: u32,
    /// Elements of the tail pass (all rows).
    pub input_tail_size: u32,
    /// Column where the tail pass starts in the input.
    pub input_tail_pos: u32,
    /// Columns of the tail pass.
    pub mean_var_tail_size: u32,
    /// Column where the tail pass starts in mean and variance.
    pub mean_var_tail_pos: u32,
    /// Elements of a pass (all rows).
    pub bsh_cur_length: u32,
    /// Columns of a pass.
    pub sh_cur_length: u32,
    /// `1 / B`.
    pub first_dim_value_back: f32,
    /// Repeat stride of a half operand of a widening or narrowing `Cast` (4 blocks).
    pub cast_half_rep_stride: u32,
    /// Blocks of float in `shCurLength`.
    pub sh_cur_length_block_num: u32,
    /// `S · H / 16`: half blocks of a row.
    pub cast_half_out_rep_stride: u32,
}

fn half_or_float<T: Element>() -> Result<bool> {
    match T::DTYPE {
        DType::Half => Ok(true),
        DType::Float => Ok(false),
        other => Err(SimError::new(
            Category::Type,
            API,
            format!("T = {other} is not supported: BatchNorm takes half or float"),
        )),
    }
}

fn need(name: &str, size: u32, want: u64) -> Result<()> {
    if (size as u64) < want {
        return Err(SimError::new(
            Category::Size,
            API,
            format!("`{name}` holds {size} elements, the tiling needs {want}"),
        ));
    }
    Ok(())
}

fn count(n: u32) -> Result<()> {
    set_vector_mask::<f32>(MaskMode::COUNTER, n as u64)
}

/// The three pass buffers and the shape of the current pass.
struct Pass {
    a: LocalTensor<f32>,
    b: LocalTensor<f32>,
    c: LocalTensor<f32>,
    rows: u32,
    sh: u32,
    bsh: u32,
    mvs: u32,
    inv_b: f32,
    eps: f32,
    cast_rep: u8,
}

/// `BatchNorm<T, isReuseSource, isBasicBlock>(output, outputMean, outputVariance, inputX, gamm,
/// beta, [sharedTmpBuffer,] epsilon, tiling)`: `inputX` `[B, S, H]` normalized over `B` (see the
/// module documentation); `outputMean`, `outputVariance` `[S, H]`; `gamm`, `beta` `[B]`. `T`: half
/// or float (computed in float). `tmp`: at least the `tmpBufSize` floats the tiling was computed
/// for. As on the device, a tail pass leaves `bshCurLength`, `shCurLength` and
/// `shCurLengthBlockNum` of `tiling` set to the tail's. `basic_block` (`isBasicBlock`) needs
/// `shCurLength` a multiple of 64 and `B` of 8; the device then schedules the same float
/// operations differently, with the same results. `reuse_source` is accepted and unused.
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn batch_norm<T: Element>(
    output: &LocalTensor<T>,
    output_mean: &LocalTensor<T>,
    output_variance: &LocalTensor<T>,
    input_x: &LocalTensor<T>,
    gamm: &LocalTensor<T>,
    beta: &LocalTensor<T>,
    tmp: Tmp,
    epsilon: T,
    tiling: &mut BatchNormTiling,
    reuse_source: bool,
    basic_block: bool,
) -> Result<()> {
    let _ = reuse_source;
    run(API, SourceLoc::caller(), || {
        require(API, A2_A3_310P)?;
        let half = half_or_float::<T>()?;
        let t = *tiling;
        let rows = t.original_b_length;
        if rows == 0
            || t.sh_cur_length == 0
            || t.bsh_cur_length != rows * t.sh_cur_length
            || t.one_tmp_size < t.bsh_cur_length
        {
            return Err(SimError::new(
                Category::Range,
                API,
                format!(
                    "tiling originalBLength = {rows}, shCurLength = {}, bshCurLength = {}, oneTmpSize = {}: need bshCurLength = originalBLength · shCurLength ≤ oneTmpSize, all > 0 (fill it with GetBatchNormNDTilingInfo)",
                    t.sh_cur_length, t.bsh_cur_length, t.one_tmp_size
                ),
            ));
        }
        if basic_block
            && (!t.sh_cur_length.is_multiple_of(BASIC_SH) || !rows.is_multiple_of(BLOCK_FLOATS))
        {
            return Err(SimError::new(
                Category::Range,
                API,
                format!(
                    "isBasicBlock = true needs shCurLength a multiple of 64 and originalBLength a multiple of 8, the tiling has {} and {rows}",
                    t.sh_cur_length
                ),
            ));
        }
        let buf = tmp.buffer(API)?.reinterpret_cast::<f32>();
        if buf.get_size() < t.tmp_buf_size {
            return Err(SimError::new(
                Category::Size,
                API,
                format!(
                    "sharedTmpBuffer holds {} floats, the tiling was computed for tmpBufSize = {}",
                    buf.get_size(),
                    t.tmp_buf_size
                ),
            ));
        }
        if t.third_tmp_start_pos as u64 + t.one_tmp_size as u64 > t.tmp_buf_size as u64 {
            return Err(SimError::new(
                Category::Size,
                API,
                format!(
                    "tiling thirdTmpStartPos + oneTmpSize = {} exceeds tmpBufSize = {}",
                    t.third_tmp_start_pos as u64 + t.one_tmp_size as u64,
                    t.tmp_buf_size
                ),
            ));
        }
        let mvs = t.mean_var_size;
        need("output", output.get_size(), rows as u64 * mvs as u64)?;
        need("inputX", input_x.get_size(), rows as u64 * mvs as u64)?;
        need("outputMean", output_mean.get_size(), mvs as u64)?;
        need("outputVariance", output_variance.get_size(), mvs as u64)?;
        need("gamm", gamm.get_size(), rows as u64)?;
        need("beta", beta.get_size(), rows as u64)?;
        let mut p = Pass {
            a: buf.at(t.first_tmp_start_pos)?,
            b: buf.at(t.second_tmp_start_pos)?,
            c: buf.at(t.third_tmp_start_pos)?,
            rows,
            sh: t.sh_cur_length,
            bsh: t.bsh_cur_length,
            mvs,
            inv_b: t.first_dim_value_back,
            eps: epsilon.to_f64() as f32,
            cast_rep: t.cast_half_rep_stride as u8,
        };
        let (mean_tmp, var_tmp) = if half {
            need(
                "sharedTmpBuffer (floats)",
                buf.get_size(),
                t.mean_tmp_tensor_pos.max(t.variance_tmp_tensor_pos) as u64 + mvs as u64,
            )?;
            (
                buf.at(t.mean_tmp_tensor_pos)?,
                buf.at(t.variance_tmp_tensor_pos)?,
            )
        } else {
            (
                output_mean.reinterpret_cast(),
                output_variance.reinterpret_cast(),
            )
        };
        let exe = |p: &Pass, x_at: u32, mv_at: u32| -> Result<()> {
            let (x, out) = (input_x.at(x_at)?, output.at(x_at)?);
            let (mean, var) = (mean_tmp.at(mv_at)?, var_tmp.at(mv_at)?);
            if half {
                p.exe_half(
                    &x.reinterpret_cast(),
                    &out.reinterpret_cast(),
                    &output_mean.at(mv_at)?.reinterpret_cast(),
                    &output_variance.at(mv_at)?.reinterpret_cast(),
                    &mean,
                    &var,
                    &gamm.reinterpret_cast(),
                    &beta.reinterpret_cast(),
                )
            } else {
                p.exe_float(
                    &x.reinterpret_cast(),
                    &out.reinterpret_cast(),
                    &mean,
                    &var,
                    &gamm.reinterpret_cast(),
                    &beta.reinterpret_cast(),
                )
            }
        };
        set_mask_count()?;
        let mut mv = 0;
        for _ in 0..t.loop_round {
            exe(&p, mv, mv)?;
            mv += t.sh_cur_length;
        }
        if t.input_tail_size > 0 {
            tiling.bsh_cur_length = t.input_tail_size;
            tiling.sh_cur_length = t.mean_var_tail_size;
            tiling.sh_cur_length_block_num = t.mean_var_tail_size / BLOCK_FLOATS;
            p.sh = t.mean_var_tail_size;
            p.bsh = t.input_tail_size;
            exe(&p, t.input_tail_pos, t.mean_var_tail_pos)?;
        }
        set_mask_norm()?;
        reset_mask()
    })
}

impl Pass {
    fn exe_float(
        &self,
        x: &LocalTensor<f32>,
        out: &LocalTensor<f32>,
        mean: &LocalTensor<f32>,
        var: &LocalTensor<f32>,
        gamm: &LocalTensor<f32>,
        beta: &LocalTensor<f32>,
    ) -> Result<()> {
        self.mean_of(mean, x, self.mvs)?;
        self.variance_of(var, x, self.mvs, mean)?;
        self.normalize(var)?;
        set_mask_count()?;
        count(self.sh)?;
        self.spread(&self.b, gamm)?;
        count(self.bsh)?;
        mul_l0(&self.c, &self.b, &self.c, MASK_PLACEHOLDER, 1, BINARY)?;
        barrier_v()?;
        count(self.sh)?;
        self.spread(&self.b, beta)?;
        for i in 0..self.rows {
            add_l0(
                &out.at(i * self.mvs)?,
                &self.b.at(i * self.sh)?,
                &self.c.at(i * self.sh)?,
                MASK_PLACEHOLDER,
                1,
                BINARY,
            )?;
        }
        barrier_v()
    }

    #[allow(clippy::too_many_arguments)]
    fn exe_half(
        &self,
        x: &LocalTensor<f16>,
        out: &LocalTensor<f16>,
        out_mean: &LocalTensor<f16>,
        out_var: &LocalTensor<f16>,
        mean: &LocalTensor<f32>,
        var: &LocalTensor<f32>,
        gamm: &LocalTensor<f16>,
        beta: &LocalTensor<f16>,
    ) -> Result<()> {
        let none = RoundMode::CAST_NONE;
        let widen = UnaryRepeatParams::new(1, 1, 8, self.cast_rep);
        let narrow = UnaryRepeatParams::new(1, 1, self.cast_rep, 8);
        count(self.sh)?;
        for i in 0..self.rows {
            cast_l0(
                &self.a.at(i * self.sh)?,
                &x.at(i * self.mvs)?,
                none,
                MASK_PLACEHOLDER,
                1,
                widen,
            )?;
        }
        barrier_v()?;
        self.mean_of(mean, &self.a, self.sh)?;
        self.narrow(out_mean, mean)?;
        self.variance_of(var, &self.a, self.sh, mean)?;
        self.narrow(out_var, var)?;
        self.normalize(var)?;
        self.widen_rows(gamm)?;
        set_mask_count()?;
        count(self.sh)?;
        self.spread(&self.b, &self.a)?;
        count(self.bsh)?;
        mul_l0(&self.c, &self.b, &self.c, MASK_PLACEHOLDER, 1, BINARY)?;
        barrier_v()?;
        self.widen_rows(beta)?;
        set_mask_count()?;
        count(self.sh)?;
        self.spread(&self.b, &self.a)?;
        barrier_v()?;
        for i in 0..self.rows {
            let b = self.b.at(i * self.sh)?;
            add_l0(
                &b,
                &b,
                &self.c.at(i * self.sh)?,
                MASK_PLACEHOLDER,
                1,
                BINARY,
            )?;
        }
        barrier_v()?;
        count(self.sh)?;
        for i in 0..self.rows {
            cast_l0(
                &out.at(i * self.mvs)?,
                &self.b.at(i * self.sh)?,
                none,
                MASK_PLACEHOLDER,
                1,
                narrow,
            )?;
        }
        barrier_v()
    }

    /// `c_b = src_b · (1/B)` (rows `stride` apart), then their sum into `dst`.
    fn mean_of(&self, dst: &LocalTensor<f32>, src: &LocalTensor<f32>, stride: u32) -> Result<()> {
        set_mask_count()?;
        count(self.sh)?;
        for i in 0..self.rows {
            muls_l0(
                &self.c.at(i * self.sh)?,
                &src.at(i * stride)?,
                self.inv_b,
                MASK_PLACEHOLDER,
                1,
                UNARY,
            )?;
        }
        barrier_v()?;
        self.sum_rows(dst, &self.c)
    }

    /// `c_b = src_b − mean`, `b = c²`, `a = b · (1/B)`, then the sum of `a`'s rows into `dst`.
    fn variance_of(
        &self,
        dst: &LocalTensor<f32>,
        src: &LocalTensor<f32>,
        stride: u32,
        mean: &LocalTensor<f32>,
    ) -> Result<()> {
        set_mask_count()?;
        count(self.sh)?;
        for i in 0..self.rows {
            sub_l0(
                &self.c.at(i * self.sh)?,
                &src.at(i * stride)?,
                mean,
                MASK_PLACEHOLDER,
                1,
                BINARY,
            )?;
        }
        barrier_v()?;
        count(self.bsh)?;
        mul_l0(&self.b, &self.c, &self.c, MASK_PLACEHOLDER, 1, BINARY)?;
        barrier_v()?;
        muls_l0(&self.a, &self.b, self.inv_b, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        self.sum_rows(dst, &self.a)
    }

    /// `dst` = row 0 of `src` (a block copy), then `dst += src_b` row after row.
    fn sum_rows(&self, dst: &LocalTensor<f32>, src: &LocalTensor<f32>) -> Result<()> {
        set_mask_norm()?;
        reset_mask()?;
        let copy = DataCopyParams {
            block_count: 1,
            block_len: (self.sh / BLOCK_FLOATS) as u16,
            src_stride: 0,
            dst_stride: 0,
        };
        data_copy(dst, src, copy)?;
        barrier_v()?;
        set_mask_count()?;
        count(self.sh)?;
        for i in 1..self.rows {
            add_l0(dst, dst, &src.at(i * self.sh)?, MASK_PLACEHOLDER, 1, BINARY)?;
            barrier_v()?;
        }
        barrier_v()
    }

    /// `b = exp(−0.5 · ln(var + ε))` (via `a`), then `c_b ·= b`.
    fn normalize(&self, var: &LocalTensor<f32>) -> Result<()> {
        set_mask_count()?;
        count(self.sh)?;
        adds_l0(&self.a, var, self.eps, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        ln_l0(&self.b, &self.a, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        muls_l0(&self.a, &self.b, -0.5, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        exp_l0(&self.b, &self.a, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        for i in 0..self.rows {
            let c = self.c.at(i * self.sh)?;
            mul_l0(&c, &c, &self.b, MASK_PLACEHOLDER, 1, BINARY)?;
        }
        barrier_v()
    }

    /// The first `B` of half `src` widened into `a`, then the V→S hand-over for `spread`.
    fn widen_rows(&self, src: &LocalTensor<f16>) -> Result<()> {
        set_mask_count()?;
        count(self.rows)?;
        let widen = UnaryRepeatParams::new(1, 1, 8, self.cast_rep);
        cast_l0(
            &self.a,
            src,
            RoundMode::CAST_NONE,
            MASK_PLACEHOLDER,
            1,
            widen,
        )?;
        sync_event(API, HardEvent::V_S)
    }

    /// The float mean or variance narrowed to half.
    fn narrow(&self, dst: &LocalTensor<f16>, src: &LocalTensor<f32>) -> Result<()> {
        set_mask_count()?;
        count(self.sh)?;
        let narrow = UnaryRepeatParams::new(1, 1, self.cast_rep, 8);
        cast_l0(dst, src, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, narrow)?;
        barrier_v()
    }

    /// Row `b` of `dst` (`shCurLength` columns) filled with `src[b]`: a scalar read and a
    /// `Duplicate` under the counter mask per row.
    fn spread(&self, dst: &LocalTensor<f32>, src: &LocalTensor<f32>) -> Result<()> {
        for i in 0..self.rows {
            let v = src.get_value(i)?;
            duplicate_l0(&dst.at(i * self.sh)?, v, MASK_PLACEHOLDER, 1, 1, 8)?;
        }
        barrier_v()
    }
}

fn three(shape: &[u32]) -> Option<(u32, u32, u32)> {
    match *shape {
        [b, s, h] => Some((b, s, h)),
        _ => None,
    }
}

fn align(v: u32, to: u32) -> u32 {
    v.div_ceil(to) * to
}

/// `GetBatchNormMaxMinTmpSize(srcShape [B, S, H], originSrcShape [B₀, S₀, H₀], typeSize,
/// isReuseSource, max, min, isBasicBlock)`: bytes as `(max, min)`, `max = 3 · B₀·S·H·4 + 2 ·
/// S·H·4` and `min = 3 · B₀ · k + 2 · S·H·4` (`k` = 32 float, 64 half, 256 basic block; every
/// term rounded up to 32 bytes). `None` for a rank other than 3 or, with `isBasicBlock`,
/// `S·H` not a multiple of 64 or `B₀` not of 8.
pub fn batch_norm_max_min_tmp_size(
    src_shape: &[u32],
    origin_shape: &[u32],
    type_size: u32,
    reuse_source: bool,
    basic_block: bool,
) -> Option<(u32, u32)> {
    let _ = reuse_source;
    let (_, s, h) = three(src_shape)?;
    let (b0, _, _) = three(origin_shape)?;
    if basic_block
        && (!(s as u64 * h as u64).is_multiple_of(BASIC_SH as u64)
            || !b0.is_multiple_of(BLOCK_FLOATS))
    {
        return None;
    }
    let (b0, sh) = (b0 as u64, s as u64 * h as u64);
    let align32 = |v: u64| v.div_ceil(32) * 32;
    let mv = align32(sh * 4);
    let max = 3 * align32(b0 * sh * 4) + 2 * mv;
    let per_row = if basic_block {
        BASIC_SH as u64 * 4
    } else if type_size == 2 {
        64
    } else {
        32
    };
    Some((
        u32::try_from(max).ok()?,
        u32::try_from(3 * b0 * per_row + 2 * mv).ok()?,
    ))
}

/// `GetBatchNormNDTilingInfo(srcShape, originSrcShape, stackBufferByteSize, typeSize,
/// isReuseSource, tiling, isBasicBlock)`: three pass buffers of `B₀ · shCurLength` floats
/// (after the half mean and variance of `S·H` floats each), as many columns as the buffer holds
/// in whole blocks per row. `None` when the shape is refused (rank 3, `S·H·typeSize` a multiple
/// of 32, the basic-block rules) or the buffer is below the minimum.
pub fn batch_norm_tiling_info(
    src_shape: &[u32],
    origin_shape: &[u32],
    stack_bytes: u32,
    type_size: u32,
    reuse_source: bool,
    basic_block: bool,
) -> Option<BatchNormTiling> {
    let (_, s, h) = three(src_shape)?;
    let (b0, _, _) = three(origin_shape)?;
    let total = b0.checked_mul(s)?.checked_mul(h)?;
    if !(s as u64 * h as u64 * type_size as u64).is_multiple_of(32) {
        return None;
    }
    let (_, min) = batch_norm_max_min_tmp_size(
        src_shape,
        origin_shape,
        type_size,
        reuse_source,
        basic_block,
    )?;
    if stack_bytes < min || b0 == 0 {
        return None;
    }
    let mvs = s * h;
    let mv_tmp = align(mvs, BLOCK_FLOATS);
    let mv_total = if type_size == 4 { 0 } else { 2 * mv_tmp };
    let tmp_buf_size = stack_bytes / 4;
    let per = if type_size != 4 {
        BLOCK_HALVES
    } else {
        BLOCK_FLOATS
    };
    let mut one = (tmp_buf_size - mv_total) / 3 / (b0 * per) * (b0 * per);
    one = one.min(total);
    if one == 0 {
        return None;
    }
    let mut sh = one / b0;
    if basic_block && !sh.is_multiple_of(BASIC_SH) {
        sh = sh / BASIC_SH * BASIC_SH;
        one = sh * b0;
        if one == 0 {
            return None;
        }
    }
    let tail = total % one;
    Some(BatchNormTiling {
        original_b_length: b0,
        mean_var_size: mvs,
        mean_tmp_tensor_pos: 0,
        variance_tmp_tensor_pos: mv_tmp,
        tmp_buf_size,
        one_tmp_size: one,
        first_tmp_start_pos: mv_total,
        second_tmp_start_pos: mv_total + one,
        third_tmp_start_pos: mv_total + 2 * one,
        loop_round: total / one,
        input_tail_size: tail,
        input_tail_pos: (total - tail) / b0,
        mean_var_tail_size: tail / b0,
        mean_var_tail_pos: mvs - tail / b0,
        bsh_cur_length: one,
        sh_cur_length: sh,
        first_dim_value_back: 1.0 / b0 as f32,
        cast_half_rep_stride: 4,
        sh_cur_length_block_num: sh / BLOCK_FLOATS,
        cast_half_out_rep_stride: mvs / BLOCK_HALVES,
    })
}
