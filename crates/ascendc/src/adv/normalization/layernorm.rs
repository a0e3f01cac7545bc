//! `LayerNorm` (归一化操作/LayerNorm), both forms; half or float; A2, A3 and 310P.
//!
//! - `[B, S, H]`, outputs y, mean and variance ([`layer_norm`], tiling [`LayerNormTiling`]). As the
//!   device does it, in counter mode, `oneTmpSize` elements (whole rows) at a time: half rows
//!   widened; `x · 1/H₀`; per-row sums (an `Add` fold of the 64-wide column blocks into the first,
//!   then `WholeReduceSum`, written both compact and at each row's start); the row value spread
//!   over its row (`SetCmpMask` + `Select` mode 1 on a zeroed selection); `x − mean`, its square,
//!   `· 1/H₀` and the same sums for the variance; `1 / sqrt(variance + ε)` (`Adds`, `Sqrt`, a
//!   `Div` of a block of ones); `· (x − mean)`; per row `· γ` and `+ β` (widened for half) and the
//!   narrowing back. The temporary buffer holds three float tensors A, B, C of `oneTmpSize` (two
//!   with `isReuseSource` for float: A is the source) and, for half, the float mean and variance.
//! - `[A, R]`, outputs y, mean and rstd ([`layer_norm_rstd`], tiling [`LayerNormSeparateTiling`]).
//!   Padding columns of the source are first zeroed in place (`· [1…1, 0…0]`); per group of rows
//!   the rows copied (float) or widened (half), `· 1/R`, the same row sums into the mean; the rows
//!   again, per row `+ (−mean)` over R, the square, `· 1/R` and the sums into the variance (kept in
//!   the buffer); then [`Normalize`](super::normalize::normalize) on the rest of the buffer.

use super::normalize::{check_types, normalize_impl, NormalizeConfig, NormalizePara};
use crate::adv::common::{barrier_v, require, run, sync_event, Tmp, A2_A3_310P};
use crate::api::vec::binary::{add_l0, div_l0, mul, mul_l0, sub_l0};
use crate::api::vec::cast::{cast, cast_l0};
use crate::api::vec::cmp_mask::{select_cmp_mask_scalar, set_cmp_mask};
use crate::api::vec::duplicate::{duplicate, duplicate_l0};
use crate::api::vec::mask::{reset_mask, set_mask_count, set_mask_norm, set_vector_mask};
use crate::api::vec::reduce::whole_reduce_sum;
use crate::api::vec::scalar::{adds, adds_l0, muls, muls_l0};
use crate::api::vec::unary::sqrt_l0;
use crate::dtype::{DType, Element};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::numeric::{Arith, RoundMode};
use crate::{
    data_copy, f16, BinaryRepeatParams, HardEvent, LocalTensor, MaskMode, UnaryRepeatParams,
    MASK_PLACEHOLDER,
};

const API: &str = "LayerNorm";
/// Floats of one repeat.
const REPEAT_FLOATS: u32 = 64;
/// The most repeats of one instruction.
const MAX_REPEAT: u32 = 255;

/// The tiling `GetLayerNormNDTilingInfo` fills for the `[B, S, H]` form (`LayerNormTiling`,
/// field order and types as the kernel reads it). Sizes and positions in floats.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct LayerNormTiling {
    /// B.
    pub b_length: u32,
    /// S.
    pub s_length: u32,
    /// H (padded to whole 32-byte blocks).
    pub h_length: u32,
    /// H before padding.
    pub original_h_length: u32,
    /// B·S·H.
    pub input_x_size: u32,
    /// B·S.
    pub mean_var_size: u32,
    /// Tensors of `oneTmpSize` the buffer holds (3, or 2 with `isReuseSource` for float).
    pub number_of_tmp_buf: u32,
    /// Position of the float mean (half).
    pub mean_tmp_tensor_pos: u32,
    /// B·S rounded up to 8.
    pub mean_tmp_tensor_size: u32,
    /// Position of the float variance (half).
    pub variance_tmp_tensor_pos: u32,
    /// B·S rounded up to 8.
    pub variance_tmp_tensor_size: u32,
    /// Floats of the buffer.
    pub tmp_buf_size: u32,
    /// Elements of one pass (whole rows).
    pub one_tmp_size: u32,
    /// Position of tensor A.
    pub first_tmp_start_pos: u32,
    /// Position of tensor B.
    pub second_tmp_start_pos: u32,
    /// Position of tensor C.
    pub third_tmp_start_pos: u32,
    /// Full passes.
    pub loop_round: u32,
    /// Elements of a full pass.
    pub input_round_size: u32,
    /// Elements of the tail pass (0: none).
    pub input_tail_size: u32,
    /// Element offset of the tail pass.
    pub input_tail_pos: u32,
    /// Rows of a full pass.
    pub mean_var_round_size: u32,
    /// Rows of the tail pass.
    pub mean_var_tail_size: u32,
    /// Row offset of the tail pass.
    pub mean_var_tail_pos: u32,
    /// Elements of the current pass (the kernel sets the tail's).
    pub bsh_cur_length: u32,
    /// Rows of the current pass.
    pub bs_cur_length: u32,
    /// `1 / originalHLength`.
    pub last_dim_value_back: f32,
}

/// The tiling `GetLayerNormNDTilingInfo(…, isComputeRstd, …)` fills for the `[A, R]` form
/// (`LayerNormSeparateTiling`, field order and types as the kernel reads it). Sizes and positions
/// in floats; `halfAddRepeatTimes`, `rHeadLength`, `k2Rec`, `k2RRec` and `thirdTmpStartPos` are
/// for other products (0 here).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct LayerNormSeparateTiling {
    /// A.
    pub a_length: u32,
    /// R.
    pub r_length: u32,
    /// Unused here.
    pub half_add_repeat_times: u32,
    /// Unused here.
    pub r_head_length: u32,
    /// Unused here.
    pub k2_rec: f32,
    /// Unused here.
    pub k2_r_rec: f32,
    /// A · R padded.
    pub input_x_size: u32,
    /// A.
    pub mean_var_size: u32,
    /// Tensors of `oneTmpSize` (2).
    pub number_of_tmp_buf: u32,
    /// Position of the variance (0).
    pub variance_tmp_tensor_pos: u32,
    /// A rounded up to 8.
    pub variance_tmp_tensor_size: u32,
    /// Floats of the buffer.
    pub tmp_buf_size: u32,
    /// Elements of one pass (whole rows).
    pub one_tmp_size: u32,
    /// Position of tensor A.
    pub first_tmp_start_pos: u32,
    /// Position of tensor B.
    pub second_tmp_start_pos: u32,
    /// Unused here.
    pub third_tmp_start_pos: u32,
    /// Full passes.
    pub loop_round: u32,
    /// Elements of a full pass.
    pub input_round_size: u32,
    /// Elements of the tail pass (0: none).
    pub input_tail_size: u32,
    /// Element offset of the tail pass.
    pub input_tail_pos: u32,
    /// Rows of a full pass.
    pub mean_var_round_size: u32,
    /// Rows of the tail pass.
    pub mean_var_tail_size: u32,
    /// Row offset of the tail pass.
    pub mean_var_tail_pos: u32,
    /// Elements of the current pass (the kernel sets the tail's).
    pub ar_cur_length: u32,
    /// Rows of the current pass.
    pub a_cur_length: u32,
    /// `1 / rLength`.
    pub r_value_back: f32,
}

/// `LayerNormPara`: the `[A, R]` geometry (lengths in elements).
pub type LayerNormPara = NormalizePara;

/// `LayerNormConfig` (`isOutputRstd` false, the variance, is for other products).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LayerNormConfig {
    /// Leave β out.
    pub is_no_beta: bool,
    /// Leave γ out.
    pub is_no_gamma: bool,
    /// Output y only (must be false).
    pub is_only_output: bool,
    /// Output rstd (must be true here).
    pub is_output_rstd: bool,
}

/// `LNCFG_NORM`: γ and β used, y, mean and rstd output.
pub const LNCFG_NORM: LayerNormConfig = LayerNormConfig {
    is_no_beta: false,
    is_no_gamma: false,
    is_only_output: false,
    is_output_rstd: true,
};

impl Default for LayerNormConfig {
    fn default() -> Self {
        LNCFG_NORM
    }
}

/// `{1, 1, 8, 8}`.
const UNARY: UnaryRepeatParams = UnaryRepeatParams::new(1, 1, 8, 8);
/// half → float (`{1, 1, 8, 4}`).
const WIDEN: UnaryRepeatParams = UnaryRepeatParams::new(1, 1, 8, 4);
/// float → half (`{1, 1, 4, 8}`).
const NARROW: UnaryRepeatParams = UnaryRepeatParams::new(1, 1, 4, 8);
/// `{1, 1, 1, 8, 8, 8}`.
const BINARY: BinaryRepeatParams = BinaryRepeatParams::new(1, 1, 1, 8, 8, 8);

fn count(n: u32) -> Result<()> {
    set_vector_mask::<f32>(MaskMode::COUNTER, n as u64)
}

/// Whether T is half (else float); an error for another type.
fn half_or_float<T: Element>() -> Result<bool> {
    match T::DTYPE {
        DType::Float => Ok(false),
        DType::Half => Ok(true),
        other => Err(SimError::new(
            Category::Type,
            API,
            format!("T = {other} is not supported: LayerNorm takes half or float"),
        )),
    }
}

/// `LayerNorm<T, isReuseSource>(output, outputMean, outputVariance, inputX, gamma, beta,
/// [sharedTmpBuffer,] epsilon, tiling)`: for each row `r` of `[B·S, H]`, `mean[r] = Σ_h
/// x[r, h] / H₀`, `variance[r] = Σ_h (x[r, h] − mean[r])² / H₀` and `output[r, h] = (x[r, h] −
/// mean[r]) / sqrt(variance[r] + ε) · gamma[h] + beta[h]` (`H₀ = originalHLength`; padding columns
/// must be 0). T half or float (computed in float). `tmp`: at least `tiling.tmpBufSize` floats
/// (`GetLayerNormMaxMinTmpSize`). `reuse_source` (float only): `inputX` is scratch. As on the
/// device, a tail pass leaves its lengths in `tiling.bshCurLength`/`bsCurLength`.
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn layer_norm<T: Element>(
    output: &LocalTensor<T>,
    output_mean: &LocalTensor<T>,
    output_variance: &LocalTensor<T>,
    input_x: &LocalTensor<T>,
    gamma: &LocalTensor<T>,
    beta: &LocalTensor<T>,
    tmp: Tmp,
    epsilon: T,
    tiling: &mut LayerNormTiling,
    reuse_source: bool,
) -> Result<()> {
    run(API, SourceLoc::caller(), || {
        require(API, A2_A3_310P)?;
        let half = half_or_float::<T>()?;
        check_tiling(tiling)?;
        let stack = tmp.buffer(API)?.reinterpret_cast::<f32>();
        let t = *tiling;
        let limit = if !half && reuse_source {
            t.second_tmp_start_pos
        } else {
            t.third_tmp_start_pos
        };
        if limit + t.one_tmp_size > t.tmp_buf_size || stack.get_size() < t.tmp_buf_size {
            return Err(SimError::new(
                Category::Size,
                API,
                format!(
                    "sharedTmpBuffer holds {} floats, the tiling needs tmpBufSize = {} (≥ its last tensor's end {}): pass the buffer size the tiling was computed for",
                    stack.get_size(),
                    t.tmp_buf_size,
                    limit + t.one_tmp_size
                ),
            ));
        }
        let total = t.b_length * t.s_length * t.h_length;
        let rows = t.b_length * t.s_length;
        for (name, size, need) in [
            ("output", output.get_size(), total),
            ("inputX", input_x.get_size(), total),
            ("outputMean", output_mean.get_size(), rows),
            ("outputVariance", output_variance.get_size(), rows),
            ("gamma", gamma.get_size(), t.h_length),
            ("beta", beta.get_size(), t.h_length),
        ] {
            if size < need {
                return Err(SimError::new(
                    Category::Size,
                    API,
                    format!("`{name}` holds {size} elements, the tiling needs {need}"),
                ));
            }
        }
        let at = |pos: u32| stack.at(pos);
        let (a, b, c, mean, var) = if half {
            (
                at(t.first_tmp_start_pos)?,
                at(t.second_tmp_start_pos)?,
                at(t.third_tmp_start_pos)?,
                at(t.mean_tmp_tensor_pos)?,
                at(t.variance_tmp_tensor_pos)?,
            )
        } else if reuse_source {
            (
                input_x.reinterpret_cast(),
                at(t.first_tmp_start_pos)?,
                at(t.second_tmp_start_pos)?,
                output_mean.reinterpret_cast(),
                output_variance.reinterpret_cast(),
            )
        } else {
            (
                at(t.first_tmp_start_pos)?,
                at(t.second_tmp_start_pos)?,
                at(t.third_tmp_start_pos)?,
                output_mean.reinterpret_cast(),
                output_variance.reinterpret_cast(),
            )
        };
        let p = Bsh { a, b, c };
        let eps = epsilon.to_f64() as f32;
        set_mask_count()?;
        let (mut x_at, mut mv_at) = (0, 0);
        for _ in 0..t.loop_round {
            p.exe(
                tiling,
                &input_x.at(x_at)?,
                gamma,
                beta,
                &output.at(x_at)?,
                &mean.at(mv_at)?,
                &var.at(mv_at)?,
                eps,
            )?;
            x_at += t.input_round_size;
            mv_at += t.mean_var_round_size;
        }
        if t.input_tail_size > 0 {
            tiling.bsh_cur_length = t.input_tail_size;
            tiling.bs_cur_length = t.mean_var_tail_size;
            p.exe(
                tiling,
                &input_x.at(t.input_tail_pos)?,
                gamma,
                beta,
                &output.at(t.input_tail_pos)?,
                &mean.at(t.mean_var_tail_pos)?,
                &var.at(t.mean_var_tail_pos)?,
                eps,
            )?;
        }
        if half {
            count(t.mean_var_size)?;
            for (out, src) in [(output_mean, &mean), (output_variance, &var)] {
                let o: LocalTensor<f16> = out.reinterpret_cast();
                cast_l0(&o, src, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, NARROW)?;
                barrier_v()?;
            }
        }
        set_mask_norm()?;
        reset_mask()
    })
}

/// The `[B, S, H]` tiling's consistency (what a hand-filled struct can get wrong).
fn check_tiling(t: &LayerNormTiling) -> Result<()> {
    let bad = |rule: String| Err(SimError::new(Category::Range, API, rule));
    if t.one_tmp_size == 0 {
        return bad("tiling.oneTmpSize = 0: the buffer given to GetLayerNormNDTilingInfo was below the minimum".into());
    }
    let h = t.h_length;
    if h == 0 || !h.is_multiple_of(8) || !t.one_tmp_size.is_multiple_of(h) {
        return bad(format!(
            "tiling hLength = {h} / oneTmpSize = {}: need hLength a positive multiple of 8 and oneTmpSize whole rows (fill it with GetLayerNormNDTilingInfo)",
            t.one_tmp_size
        ));
    }
    if t.bsh_cur_length > t.one_tmp_size || t.bsh_cur_length != t.bs_cur_length * h {
        return bad(format!(
            "tiling bshCurLength = {} / bsCurLength = {}: need bshCurLength = bsCurLength · hLength ≤ oneTmpSize",
            t.bsh_cur_length, t.bs_cur_length
        ));
    }
    Ok(())
}

/// Per-row sums of `src` (`rows` rows of `h`, folded in place): compact into `compact` when given,
/// and at each row's start in `strided`. Leaves counter mode on.
fn reduce_rows(
    compact: Option<&LocalTensor<f32>>,
    strided: &LocalTensor<f32>,
    src: &LocalTensor<f32>,
    rows: u32,
    h: u32,
) -> Result<()> {
    // The device resets the mask before leaving counter mode; the other order ends the same.
    set_mask_norm()?;
    reset_mask()?;
    if h > REPEAT_FLOATS {
        let folds = h / REPEAT_FLOATS - 1;
        let tail = h % REPEAT_FLOATS;
        let params = BinaryRepeatParams::new(1, 1, 1, 0, 8, 0);
        for i in 0..rows {
            let row = src.at(i * h)?;
            if folds > 0 {
                add_l0(
                    &row,
                    &row.at(REPEAT_FLOATS)?,
                    &row,
                    REPEAT_FLOATS,
                    folds as u8,
                    params,
                )?;
                barrier_v()?;
            }
            if tail > 0 {
                add_l0(&row, &row.at(h - tail)?, &row, tail, 1, params)?;
                barrier_v()?;
            }
        }
    }
    let lanes = h.min(REPEAT_FLOATS);
    let stride = (h / 8) as i32;
    let mut done = 0;
    while done < rows {
        let n = (rows - done).min(MAX_REPEAT);
        let s = src.at(done * h)?;
        if let Some(m) = compact {
            whole_reduce_sum(&m.at(done)?, &s, lanes, n as i32, 1, 1, stride)?;
        }
        whole_reduce_sum(
            &strided.at(done * h)?,
            &s,
            lanes,
            n as i32,
            h as i32,
            1,
            stride,
        )?;
        barrier_v()?;
        done += n;
    }
    set_mask_count()
}

/// `dst[r, ·] = src[r·h]` for `rows` rows of `h`: `SetCmpMask` of each row's value and `Select`
/// mode 1 on a selection of zeros (the first `h` halves of `src`, zeroed).
fn spread_rows(dst: &LocalTensor<f32>, src: &LocalTensor<f32>, rows: u32, h: u32) -> Result<()> {
    count(h)?;
    set_cmp_mask(src)?;
    barrier_v()?;
    let zeros: LocalTensor<i16> = src.reinterpret_cast();
    muls_l0(&zeros, &zeros, 0, MASK_PLACEHOLDER, 1, UNARY)?;
    barrier_v()?;
    let sel: LocalTensor<u16> = zeros.reinterpret_cast();
    select_cmp_mask_scalar(dst, &sel, dst, 1, BINARY)?;
    barrier_v()?;
    for i in 1..rows {
        set_cmp_mask(&src.at(i * h)?)?;
        barrier_v()?;
        select_cmp_mask_scalar(&dst.at(i * h)?, &sel, dst, 1, BINARY)?;
        barrier_v()?;
    }
    Ok(())
}

/// The `[B, S, H]` form's float tensors A, B, C.
struct Bsh {
    a: LocalTensor<f32>,
    b: LocalTensor<f32>,
    c: LocalTensor<f32>,
}

impl Bsh {
    /// `LayerNormExe` on one pass (`tiling.bshCurLength` elements).
    #[allow(clippy::too_many_arguments)]
    fn exe<T: Element>(
        &self,
        t: &LayerNormTiling,
        x: &LocalTensor<T>,
        gamma: &LocalTensor<T>,
        beta: &LocalTensor<T>,
        out: &LocalTensor<T>,
        mean: &LocalTensor<f32>,
        var: &LocalTensor<f32>,
        eps: f32,
    ) -> Result<()> {
        let (a, b, c) = (&self.a, &self.b, &self.c);
        let (h, rows, n) = (t.h_length, t.bs_cur_length, t.bsh_cur_length);
        let k = t.last_dim_value_back;
        let half = T::DTYPE == DType::Half;
        let xf: LocalTensor<f32> = if half {
            count(n)?;
            let xh: LocalTensor<f16> = x.reinterpret_cast();
            cast_l0(a, &xh, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, WIDEN)?;
            barrier_v()?;
            *a
        } else {
            x.reinterpret_cast()
        };
        // Mean: strided into B, compact into `mean`.
        count(n)?;
        muls_l0(c, &xf, k, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        reduce_rows(Some(mean), b, c, rows, h)?;
        // Variance: x − mean into B, the sums strided into C.
        spread_rows(c, b, rows, h)?;
        count(n)?;
        sub_l0(b, &xf, c, MASK_PLACEHOLDER, 1, BINARY)?;
        barrier_v()?;
        mul_l0(c, b, b, MASK_PLACEHOLDER, 1, BINARY)?;
        barrier_v()?;
        muls_l0(a, c, k, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        reduce_rows(Some(var), c, a, rows, h)?;
        barrier_v()?;
        // (x − mean) / sqrt(variance + ε) into C.
        spread_rows(a, c, rows, h)?;
        count(n)?;
        adds_l0(c, a, eps, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        sqrt_l0(a, c, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        count(8)?;
        duplicate_l0(c, 1.0f32, MASK_PLACEHOLDER, 1, 1, 8)?;
        barrier_v()?;
        count(n)?;
        let ones = BinaryRepeatParams::new(1, 0, 1, 8, 0, 8);
        div_l0(a, c, a, MASK_PLACEHOLDER, 1, ones)?;
        barrier_v()?;
        mul_l0(c, a, b, MASK_PLACEHOLDER, 1, BINARY)?;
        barrier_v()?;
        // · γ + β.
        count(h)?;
        if half {
            cast_l0(
                a,
                &gamma.reinterpret_cast::<f16>(),
                RoundMode::CAST_NONE,
                MASK_PLACEHOLDER,
                1,
                WIDEN,
            )?;
            barrier_v()?;
            per_row(mul_l0, b, c, a, rows, h)?;
            cast_l0(
                c,
                &beta.reinterpret_cast::<f16>(),
                RoundMode::CAST_NONE,
                MASK_PLACEHOLDER,
                1,
                WIDEN,
            )?;
            barrier_v()?;
            per_row(add_l0, a, b, c, rows, h)?;
            count(n)?;
            let o: LocalTensor<f16> = out.reinterpret_cast();
            cast_l0(&o, a, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, NARROW)?;
            barrier_v()
        } else {
            per_row(mul_l0, a, c, &gamma.reinterpret_cast(), rows, h)?;
            per_row(
                add_l0,
                &out.reinterpret_cast(),
                a,
                &beta.reinterpret_cast(),
                rows,
                h,
            )
        }
    }
}

/// A level-0 binary instruction (`Add`/`Mul` on floats).
type BinaryL0 = fn(
    &LocalTensor<f32>,
    &LocalTensor<f32>,
    &LocalTensor<f32>,
    crate::Mask,
    u8,
    BinaryRepeatParams,
) -> Result<()>;

/// `dst[r, ·] = op(src[r, ·], row)` for `rows` rows of `h` under the current counter.
fn per_row(
    op: BinaryL0,
    dst: &LocalTensor<f32>,
    src: &LocalTensor<f32>,
    row: &LocalTensor<f32>,
    rows: u32,
    h: u32,
) -> Result<()> {
    for i in 0..rows {
        op(
            &dst.at(i * h)?,
            &src.at(i * h)?,
            row,
            MASK_PLACEHOLDER,
            1,
            BINARY,
        )?;
    }
    barrier_v()
}

/// `LayerNorm<U, T, isReuseSource, config>(output, outputMean, outputRstd, inputX, gamma, beta,
/// epsilon, [sharedTmpBuffer,] para, tiling)`: for each row `a` of `[A, R]`, `mean[a] = Σ_{r<R}
/// x[a, r] / R`, `rstd[a] = 1 / sqrt(Σ_{r<R} (x[a, r] − mean[a])² / R + ε)` and `output[a, r] =
/// (x[a, r] − mean[a]) · rstd[a] · gamma[r] + beta[r]` (γ/β left out per `config`). T half or
/// float; U float, or half with half T; computed in float. The padding columns of `inputX` are
/// set to 0 in place. `tmp`: at least `GetLayerNormMaxMinTmpSize(…, isComputeRstd, …)`'s minimum,
/// the size `tiling` was computed for. As on the device, a tail pass leaves its lengths in
/// `tiling.arCurLength`/`aCurLength`.
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn layer_norm_rstd<U: Element, T: Element>(
    output: &LocalTensor<T>,
    output_mean: &LocalTensor<f32>,
    output_rstd: &LocalTensor<f32>,
    input_x: &LocalTensor<T>,
    gamma: &LocalTensor<U>,
    beta: &LocalTensor<U>,
    epsilon: f32,
    tmp: Tmp,
    para: &LayerNormPara,
    tiling: &mut LayerNormSeparateTiling,
    config: &LayerNormConfig,
) -> Result<()> {
    run(API, SourceLoc::caller(), || {
        require(API, A2_A3_310P)?;
        check_types::<U, T>(API)?;
        let bad = |rule: String| Err(SimError::new(Category::Range, API, rule));
        if config.is_only_output {
            return bad("config.isOnlyOutput = true is not supported: it must be false".into());
        }
        if !config.is_output_rstd {
            return bad("config.isOutputRstd = false (output the variance) is only on Ascend 950: it must be true here".into());
        }
        let stack = tmp.buffer(API)?.reinterpret_cast::<f32>();
        let (r, rp) = (para.r_length, para.r_length_with_padding);
        if stack.get_size() <= rp {
            return Err(SimError::new(
                Category::Size,
                API,
                format!(
                    "sharedTmpBuffer holds {} floats: it must hold more than rLengthWithPadding = {rp} (size it with GetLayerNormMaxMinTmpSize)",
                    stack.get_size()
                ),
            ));
        }
        let t = *tiling;
        if t.one_tmp_size == 0 || rp == 0 || !t.one_tmp_size.is_multiple_of(rp) || r == 0 || r > rp
        {
            return bad(format!(
                "tiling oneTmpSize = {} with para rLength = {r}, rLengthWithPadding = {rp}: need 0 < rLength ≤ rLengthWithPadding and oneTmpSize whole rows > 0 (fill it with GetLayerNormNDTilingInfo for this shape)",
                t.one_tmp_size
            ));
        }
        if t.second_tmp_start_pos + t.one_tmp_size > t.tmp_buf_size
            || stack.get_size() < t.tmp_buf_size
        {
            return Err(SimError::new(
                Category::Size,
                API,
                format!(
                    "sharedTmpBuffer holds {} floats, the tiling needs tmpBufSize = {}: pass the buffer size the tiling was computed for",
                    stack.get_size(),
                    t.tmp_buf_size
                ),
            ));
        }
        let variance = stack.at(t.variance_tmp_tensor_pos)?;
        if r != rp {
            if T::DTYPE == DType::Half {
                zero_padding::<f16>(&input_x.reinterpret_cast(), &stack, para)?;
            } else {
                zero_padding::<f32>(&input_x.reinterpret_cast(), &stack, para)?;
            }
        }
        let ar = Ar {
            a: stack.at(t.first_tmp_start_pos)?,
            b: stack.at(t.second_tmp_start_pos)?,
            r,
            rp,
        };
        let (mut x_at, mut mv_at) = (0, 0);
        for _ in 0..t.loop_round {
            ar.mean_variance(
                tiling,
                &input_x.at(x_at)?,
                &output_mean.at(mv_at)?,
                &variance.at(mv_at)?,
            )?;
            x_at += t.input_round_size;
            mv_at += t.mean_var_round_size;
        }
        if t.input_tail_size > 0 {
            tiling.ar_cur_length = t.input_tail_size;
            tiling.a_cur_length = t.mean_var_tail_size;
            ar.mean_variance(
                tiling,
                &input_x.at(t.input_tail_pos)?,
                &output_mean.at(t.mean_var_tail_pos)?,
                &variance.at(t.mean_var_tail_pos)?,
            )?;
        }
        let rest = stack.at(t.first_tmp_start_pos)?.reinterpret_cast::<u8>();
        let cfg = NormalizeConfig {
            a_length: -1,
            is_no_beta: config.is_no_beta,
            is_no_gamma: config.is_no_gamma,
            is_only_output: false,
        };
        normalize_impl(
            API,
            output,
            output_rstd,
            output_mean,
            &variance,
            input_x,
            gamma,
            beta,
            &rest,
            epsilon,
            para,
            &cfg,
        )
    })
}

/// `x[a, ·] · [1 × R, 0 × padding]` for every row (the ones row built in `stack`).
fn zero_padding<E: Arith>(
    x: &LocalTensor<E>,
    stack: &LocalTensor<f32>,
    para: &LayerNormPara,
) -> Result<()> {
    let (r, rp) = (para.r_length, para.r_length_with_padding);
    let ones: LocalTensor<E> = stack.reinterpret_cast();
    duplicate(&ones, E::from_f64(0.0), rp)?;
    barrier_v()?;
    adds(&ones, &ones, E::from_f64(1.0), r)?;
    barrier_v()?;
    for i in 0..para.a_length {
        let row = x.at(i * rp)?;
        mul(&row, &row, &ones, rp)?;
    }
    barrier_v()
}

/// The `[A, R]` form's float tensors A, B and row geometry.
struct Ar {
    a: LocalTensor<f32>,
    b: LocalTensor<f32>,
    r: u32,
    rp: u32,
}

impl Ar {
    /// The rows of one pass in float into A.
    fn load<T: Element>(&self, x: &LocalTensor<T>, n: u32) -> Result<()> {
        if T::DTYPE == DType::Half {
            cast(
                &self.a,
                &x.reinterpret_cast::<f16>(),
                RoundMode::CAST_NONE,
                n,
            )?;
        } else {
            data_copy(&self.a, &x.reinterpret_cast::<f32>(), n)?;
        }
        barrier_v()
    }

    /// `ComputeMeanVariance` on one pass (`tiling.arCurLength` elements).
    fn mean_variance<T: Element>(
        &self,
        t: &LayerNormSeparateTiling,
        x: &LocalTensor<T>,
        mean: &LocalTensor<f32>,
        var: &LocalTensor<f32>,
    ) -> Result<()> {
        let (a, b) = (&self.a, &self.b);
        let (n, rows, k) = (t.ar_cur_length, t.a_cur_length, t.r_value_back);
        self.load(x, n)?;
        muls(a, a, k, n)?;
        barrier_v()?;
        reduce_rows(Some(mean), b, a, rows, self.rp)?;
        sync_event(API, HardEvent::V_S)?;
        if T::DTYPE == DType::Half {
            barrier_v()?;
        }
        self.load(x, n)?;
        for j in 0..rows {
            let m = -mean.get_value(j)?;
            sync_event(API, HardEvent::S_V)?;
            let row = a.at(j * self.rp)?;
            adds(&row, &row, m, self.r)?;
        }
        barrier_v()?;
        mul(a, a, a, n)?;
        barrier_v()?;
        muls(a, a, k, n)?;
        barrier_v()?;
        reduce_rows(Some(var), b, a, rows, self.rp)?;
        barrier_v()
    }
}

/// A 4-dimensional `[B, S, H, H₀]` shape's lengths, or `None`.
fn bshh(shape: &[u32]) -> Option<(u32, u32, u32, u32)> {
    match *shape {
        [b, s, h, oh] => Some((b, s, h, oh)),
        _ => None,
    }
}

/// Bytes rounded up to whole 32-byte blocks.
fn blk(bytes: u32) -> u32 {
    bytes.div_ceil(32) * 32
}

/// `GetLayerNormMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue)` for the
/// `[B, S, H, H₀]` form: bytes as `(max, min)`: three float tensors of all of `B·S·H` (of `H` for
/// the minimum; two with `isReuseSource` and float) plus two of `B·S`, each in whole 32-byte
/// blocks. `None` for a shape not of rank 4, an empty shape or a type size other than 2 or 4.
pub fn layer_norm_max_min_tmp_size(
    shape: &[u32],
    type_size: u32,
    reuse_source: bool,
) -> Option<(u32, u32)> {
    let (b, s, h, _) = bshh(shape)?;
    if b * s * h == 0 || !(type_size == 2 || type_size == 4) {
        return None;
    }
    let tensors = if reuse_source && type_size == 4 { 2 } else { 3 };
    let mv = blk(b * s * 4);
    Some((
        tensors * blk(b * s * h * 4) + 2 * mv,
        tensors * blk(h * 4) + 2 * mv,
    ))
}

/// `GetLayerNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, tiling)` for the
/// `[B, S, H, H₀]` form: the most whole rows one pass of `stack_bytes` takes (after the float
/// mean and variance for half) and the passes over the source. `None` (the tiling is left as it
/// was) when the buffer takes no whole row, or for a shape `layer_norm_max_min_tmp_size` refuses.
pub fn layer_norm_nd_tiling_info(
    shape: &[u32],
    stack_bytes: u32,
    type_size: u32,
    reuse_source: bool,
) -> Option<LayerNormTiling> {
    let (b, s, h, oh) = bshh(shape)?;
    if b * s * h == 0 || !(type_size == 2 || type_size == 4) {
        return None;
    }
    let tensors = if reuse_source && type_size == 4 { 2 } else { 3 };
    let input = b * s * h;
    let rows = b * s;
    let mv_size = rows.div_ceil(8) * 8;
    let mv_total = if type_size == 4 { 0 } else { 2 * mv_size };
    let tmp_buf = stack_bytes / 4;
    let one = (tmp_buf.checked_sub(mv_total)? / tensors / h * h).min(input);
    if one == 0 {
        return None;
    }
    let tail = input % one;
    Some(LayerNormTiling {
        b_length: b,
        s_length: s,
        h_length: h,
        original_h_length: oh,
        input_x_size: input,
        mean_var_size: rows,
        number_of_tmp_buf: tensors,
        mean_tmp_tensor_pos: 0,
        mean_tmp_tensor_size: mv_size,
        variance_tmp_tensor_pos: mv_size,
        variance_tmp_tensor_size: mv_size,
        tmp_buf_size: tmp_buf,
        one_tmp_size: one,
        first_tmp_start_pos: mv_total,
        second_tmp_start_pos: mv_total + one,
        third_tmp_start_pos: mv_total + 2 * one,
        loop_round: input / one,
        input_round_size: one,
        input_tail_size: tail,
        input_tail_pos: input - tail,
        mean_var_round_size: one / h,
        mean_var_tail_size: tail / h,
        mean_var_tail_pos: rows - tail / h,
        bsh_cur_length: one,
        bs_cur_length: one / h,
        last_dim_value_back: 1.0 / oh as f32,
    })
}

/// `[A, R]` with R padded to whole 32-byte blocks of `type_size`, or `None`.
fn a_r(shape: &[u32], type_size: u32) -> Option<(u32, u32, u32)> {
    if !(type_size == 2 || type_size == 4) {
        return None;
    }
    let (&a, &r) = (shape.first()?, shape.get(1)?);
    let align = 32 / type_size;
    Some((a, r, r.div_ceil(align) * align))
}

/// `GetLayerNormMaxMinTmpSize(srcShape, typeSize, isReuseSource, isComputeRstd, isOnlyOutput,
/// maxValue, minValue)` for the `[A, R]` form: bytes as `(max, min)`: two float tensors of all
/// of `A·R` (one row for the minimum) plus the variance (`A` floats), raised to Normalize's need
/// plus the variance where that is larger; R padded to 32 bytes of T. `None` for a type size
/// other than 2 or 4, a rank below 2, or `isOnlyOutput` true.
pub fn layer_norm_rstd_max_min_tmp_size(
    shape: &[u32],
    type_size: u32,
    compute_rstd: bool,
    only_output: bool,
) -> Option<(u32, u32)> {
    if only_output {
        return None;
    }
    let (a, _, rp) = a_r(shape, type_size)?;
    let mv = blk(a * 4);
    let mut max = 2 * blk(a * rp * 4) + mv;
    let mut min = 2 * blk(rp * 4) + mv;
    let (norm_max, norm_min) = super::normalize::normalize_max_min_tmp_size(
        shape,
        type_size,
        type_size,
        compute_rstd,
        only_output,
    )?;
    if min - mv <= norm_min {
        min = norm_min + mv;
    }
    if max - mv <= norm_max {
        max = norm_max + mv;
    }
    Some((max, min))
}

/// `GetLayerNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, isComputeRstd,
/// tiling)` for the `[A, R]` form: after the variance (`A` rounded up to 8 floats), two float
/// tensors of the most whole rows `stack_bytes` holds. `None` (the tiling left as it was) when no
/// whole row fits or the type size is not 2 or 4.
pub fn layer_norm_separate_tiling_info(
    shape: &[u32],
    stack_bytes: u32,
    type_size: u32,
) -> Option<LayerNormSeparateTiling> {
    let (a, r, rp) = a_r(shape, type_size)?;
    let input = a * rp;
    let var_size = a.div_ceil(8) * 8;
    let tmp_buf = stack_bytes / 4;
    let one = (tmp_buf.checked_sub(var_size)? / 2 / rp.max(1) * rp).min(input);
    if one == 0 {
        return None;
    }
    let tail = input % one;
    Some(LayerNormSeparateTiling {
        a_length: a,
        r_length: r,
        input_x_size: input,
        mean_var_size: a,
        number_of_tmp_buf: 2,
        variance_tmp_tensor_pos: 0,
        variance_tmp_tensor_size: var_size,
        tmp_buf_size: tmp_buf,
        one_tmp_size: one,
        first_tmp_start_pos: var_size,
        second_tmp_start_pos: var_size + one,
        loop_round: input / one,
        input_round_size: one,
        input_tail_size: tail,
        input_tail_pos: input - tail,
        mean_var_round_size: one / rp,
        mean_var_tail_size: tail / rp,
        mean_var_tail_pos: a - tail / rp,
        ar_cur_length: one,
        a_cur_length: one / rp,
        r_value_back: 1.0 / r as f32,
        ..Default::default()
    })
}
