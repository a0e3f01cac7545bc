//! `DeepNorm` (归一化操作/DeepNorm): LayerNorm of `α·x + gx` over the last axis of a `[B, S, H]`
//! tensor, outputs y, mean and variance; half or float; A2, A3 and 310P.
//!
//! As the device does it, in counter mode, `oneTmpSize` elements (whole rows) at a time, in float
//! tensors A, B, C: `x · α + gx` (half widened first); `· 1/H₀` and per-row sums (without basic
//! blocks: repeated `RepeatReduceSum` of 64-lane partial sums; with `isBasicBlock`: an `Add` fold
//! of the 64-wide column blocks and one `RepeatReduceSum`); per row `+ (−mean)`, the square,
//! `· 1/H₀` and the same sums for the variance; `1 / sqrt(variance + ε)` (`Adds`, `Sqrt`, a `Div`
//! of ones); per row `· rstd`; `· γ` and `+ β` (widened for half) and the narrowing back. With
//! basic blocks and passes of whole groups of 8 rows longer than H/64 rows, the per-row steps
//! spread the row values over 64 columns instead (`Brcb` on A2/A3, `TransDataTo5HD` on 310P,
//! then `Adds 0`) and use one `Sub`/`Mul` per 64 columns. The buffer holds A, B, C (two with
//! `isReuseSrc` for float: A is the source) and, for half, the float mean and variance.

use crate::adv::common::{barrier_v, require, run, sync_event, Tmp, A2_A3_310P};
use crate::api::vec::binary::{add_l0, div_l0, mul_l0, sub_l0};
use crate::api::vec::cast::cast_l0;
use crate::api::vec::duplicate::duplicate_l0;
use crate::api::vec::fill::{brcb, BrcbRepeatParams};
use crate::api::vec::mask::{reset_mask, set_mask_count, set_mask_norm, set_vector_mask};
use crate::api::vec::reduce::repeat_reduce_sum;
use crate::api::vec::scalar::{adds_l0, muls_l0};
use crate::api::vec::trans_data::{trans_data_to_5hd, TransDataTo5HDParams};
use crate::api::vec::unary::sqrt_l0;
use crate::chip::Product;
use crate::dtype::{DType, Element};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::numeric::RoundMode;
use crate::{
    f16, BinaryRepeatParams, HardEvent, LocalTensor, MaskMode, UnaryRepeatParams, MASK_PLACEHOLDER,
};

const API: &str = "DeepNorm";
/// Columns of one basic block (`isBasicBlock`: H a multiple of it).
const BASIC_H: u32 = 64;
/// Rows of one basic block.
const BASIC_BS: u32 = 8;
/// The largest H (a repeat stride of H/8 blocks fits a byte).
const MAX_H: u32 = 255 * 8;

/// The tiling `GetDeepNormTilingInfo` fills (`DeepNormTiling`, field order and types as the
/// kernel reads it). Sizes and positions in floats.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct DeepNormTiling {
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
    /// Tensors of `oneTmpSize` (3, or 2 with `isReuseSource` for float).
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
    /// Elements of one pass (whole rows; with basic blocks whole groups of 8 rows if possible).
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

/// `DeepNorm<T, isReuseSrc, isBasicBlock>(dstLocal, meanLocal, rstdLocal, srcLocal, gxLocal,
/// betaLocal, gammaLocal, [sharedTmpBuffer,] alpha, epsilon, tiling)`: with `X = α · src + gx`,
/// per row `r` of `[B·S, H]`: `mean[r] = Σ_h X[r, h] / H₀`, `variance[r] = Σ_h (X[r, h] −
/// mean[r])² / H₀` (into `rstdLocal`, as the device names it) and `dst[r, h] = (X[r, h] −
/// mean[r]) / sqrt(variance[r] + ε) · gamma[h] + beta[h]` (`H₀ = originalHLength`). T half or
/// float (computed in float). `tmp`: at least `tiling.tmpBufSize` floats
/// (`GetDeepNormMaxMinTmpSize`). `reuse_source` (float only): `srcLocal` is scratch.
/// `basic_block`: H and H₀ multiples of 64, B·S of 8. As on the device, a tail pass leaves its
/// lengths in `tiling.bshCurLength`/`bsCurLength`.
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn deep_norm<T: Element>(
    dst: &LocalTensor<T>,
    mean: &LocalTensor<T>,
    rstd: &LocalTensor<T>,
    src: &LocalTensor<T>,
    gx: &LocalTensor<T>,
    beta: &LocalTensor<T>,
    gamma: &LocalTensor<T>,
    tmp: Tmp,
    alpha: T,
    epsilon: T,
    tiling: &mut DeepNormTiling,
    reuse_source: bool,
    basic_block: bool,
) -> Result<()> {
    run(API, SourceLoc::caller(), || {
        let p = require(API, A2_A3_310P)?;
        let half = match T::DTYPE {
            DType::Float => false,
            DType::Half => true,
            other => {
                return Err(SimError::new(
                    Category::Type,
                    API,
                    format!("T = {other} is not supported: DeepNorm takes half or float"),
                ))
            }
        };
        let t = *tiling;
        check_tiling(&t, basic_block)?;
        let stack = tmp.buffer(API)?.reinterpret_cast::<f32>();
        let reuse = !half && reuse_source;
        let limit = if reuse {
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
            ("dstLocal", dst.get_size(), total),
            ("srcLocal", src.get_size(), total),
            ("gxLocal", gx.get_size(), total),
            ("meanLocal", mean.get_size(), rows),
            ("rstdLocal", rstd.get_size(), rows),
            ("gammaLocal", gamma.get_size(), t.h_length),
            ("betaLocal", beta.get_size(), t.h_length),
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
        let (a, b, c, mean_f, var_f) = if half {
            (
                at(t.first_tmp_start_pos)?,
                at(t.second_tmp_start_pos)?,
                at(t.third_tmp_start_pos)?,
                at(t.mean_tmp_tensor_pos)?,
                at(t.variance_tmp_tensor_pos)?,
            )
        } else if reuse {
            (
                src.reinterpret_cast(),
                at(t.first_tmp_start_pos)?,
                at(t.second_tmp_start_pos)?,
                mean.reinterpret_cast(),
                rstd.reinterpret_cast(),
            )
        } else {
            (
                at(t.first_tmp_start_pos)?,
                at(t.second_tmp_start_pos)?,
                at(t.third_tmp_start_pos)?,
                mean.reinterpret_cast(),
                rstd.reinterpret_cast(),
            )
        };
        let pass = Pass {
            p,
            basic_block,
            a,
            b,
            c,
            alpha: alpha.to_f64() as f32,
            eps: epsilon.to_f64() as f32,
        };
        set_mask_count()?;
        let (mut x_at, mut mv_at) = (0, 0);
        for _ in 0..t.loop_round {
            pass.compute(
                tiling,
                [&src.at(x_at)?, &gx.at(x_at)?, gamma, beta, &dst.at(x_at)?],
                &mean_f.at(mv_at)?,
                &var_f.at(mv_at)?,
            )?;
            x_at += t.input_round_size;
            mv_at += t.mean_var_round_size;
        }
        if t.input_tail_size > 0 {
            tiling.bsh_cur_length = t.input_tail_size;
            tiling.bs_cur_length = t.mean_var_tail_size;
            let x_at = t.input_tail_pos;
            pass.compute(
                tiling,
                [&src.at(x_at)?, &gx.at(x_at)?, gamma, beta, &dst.at(x_at)?],
                &mean_f.at(t.mean_var_tail_pos)?,
                &var_f.at(t.mean_var_tail_pos)?,
            )?;
        }
        if half {
            count(t.mean_var_size)?;
            for (out, from) in [(mean, &mean_f), (rstd, &var_f)] {
                let o: LocalTensor<f16> = out.reinterpret_cast();
                cast_l0(&o, from, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, NARROW)?;
                barrier_v()?;
            }
        }
        set_mask_norm()?;
        reset_mask()
    })
}

/// The tiling's consistency (what a hand-filled struct can get wrong) and the basic-block rule.
fn check_tiling(t: &DeepNormTiling, basic_block: bool) -> Result<()> {
    let bad = |rule: String| Err(SimError::new(Category::Range, API, rule));
    if t.one_tmp_size == 0 {
        return bad("tiling.oneTmpSize = 0: the reduce axis is too long for the buffer (fill the tiling with GetDeepNormTilingInfo)".into());
    }
    let h = t.h_length;
    if h == 0 || !h.is_multiple_of(8) || h > MAX_H || !t.one_tmp_size.is_multiple_of(h) {
        return bad(format!(
            "tiling hLength = {h} / oneTmpSize = {}: need hLength a multiple of 8 in (0, {MAX_H}] and oneTmpSize whole rows",
            t.one_tmp_size
        ));
    }
    if t.original_h_length == 0 || t.original_h_length > h {
        return bad(format!(
            "tiling originalHLength = {}: need 0 < originalHLength ≤ hLength = {h}",
            t.original_h_length
        ));
    }
    if t.bsh_cur_length > t.one_tmp_size || t.bsh_cur_length != t.bs_cur_length * h {
        return bad(format!(
            "tiling bshCurLength = {} / bsCurLength = {}: need bshCurLength = bsCurLength · hLength ≤ oneTmpSize",
            t.bsh_cur_length, t.bs_cur_length
        ));
    }
    if basic_block
        && !(h.is_multiple_of(BASIC_H)
            && t.original_h_length.is_multiple_of(BASIC_H)
            && (t.b_length * t.s_length).is_multiple_of(BASIC_BS))
    {
        return bad(format!(
            "isBasicBlock = true needs hLength and originalHLength multiples of 64 and B·S of 8 (hLength = {h}, originalHLength = {}, B·S = {})",
            t.original_h_length,
            t.b_length * t.s_length
        ));
    }
    Ok(())
}

/// What each pass shares.
struct Pass {
    p: Product,
    basic_block: bool,
    a: LocalTensor<f32>,
    b: LocalTensor<f32>,
    c: LocalTensor<f32>,
    alpha: f32,
    eps: f32,
}

impl Pass {
    /// One pass: `[src, gx, gamma, beta, dst]` at the pass, its float mean and variance.
    fn compute<T: Element>(
        &self,
        t: &DeepNormTiling,
        [x, gx, gamma, beta, out]: [&LocalTensor<T>; 5],
        mean: &LocalTensor<f32>,
        var: &LocalTensor<f32>,
    ) -> Result<()> {
        let (a, b, c) = (&self.a, &self.b, &self.c);
        let (h, rows, n) = (t.h_length, t.bs_cur_length, t.bsh_cur_length);
        let k = t.last_dim_value_back;
        let half = T::DTYPE == DType::Half;
        // X = α·x + gx into A.
        count(n)?;
        if half {
            let (xh, gh): (LocalTensor<f16>, LocalTensor<f16>) =
                (x.reinterpret_cast(), gx.reinterpret_cast());
            cast_l0(a, &xh, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, WIDEN)?;
            barrier_v()?;
            cast_l0(c, &gh, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, WIDEN)?;
            barrier_v()?;
            muls_l0(a, a, self.alpha, MASK_PLACEHOLDER, 1, UNARY)?;
            barrier_v()?;
            add_l0(a, c, a, MASK_PLACEHOLDER, 1, BINARY)?;
        } else {
            muls_l0(
                b,
                &x.reinterpret_cast(),
                self.alpha,
                MASK_PLACEHOLDER,
                1,
                UNARY,
            )?;
            barrier_v()?;
            add_l0(a, &gx.reinterpret_cast(), b, MASK_PLACEHOLDER, 1, BINARY)?;
        }
        barrier_v()?;
        // Mean (compact into `mean` and C).
        count(n)?;
        muls_l0(c, a, k, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        self.reduce(t, mean, c, c)?;
        // Variance: X − mean into B.
        let spread =
            self.basic_block && t.one_tmp_size.is_multiple_of(h * BASIC_BS) && rows > h / BASIC_H;
        if spread {
            self.spread(c, mean, rows)?;
            let blocks = (h / BASIC_H) as u8;
            let params = BinaryRepeatParams::new(1, 1, 1, blocks * 8, blocks * 8, 8);
            count(n / blocks as u32)?;
            for i in 0..blocks as u32 {
                let at = i * BASIC_H;
                sub_l0(&b.at(at)?, &a.at(at)?, c, MASK_PLACEHOLDER, 1, params)?;
            }
            barrier_v()?;
            count(n)?;
        } else {
            sync_event(API, HardEvent::V_S)?;
            count(h)?;
            for i in 0..rows {
                let m = -mean.get_value(i)?;
                adds_l0(&b.at(i * h)?, &a.at(i * h)?, m, MASK_PLACEHOLDER, 1, UNARY)?;
            }
            barrier_v()?;
            count(n)?;
        }
        mul_l0(c, b, b, MASK_PLACEHOLDER, 1, BINARY)?;
        barrier_v()?;
        muls_l0(a, c, k, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        self.reduce(t, var, c, a)?;
        // rstd = 1 / sqrt(variance + ε) into A, then (X − mean) · rstd into C.
        count(rows)?;
        adds_l0(a, c, self.eps, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        duplicate_l0(c, 1.0f32, MASK_PLACEHOLDER, 1, 1, 8)?;
        barrier_v()?;
        sqrt_l0(a, a, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        div_l0(a, c, a, MASK_PLACEHOLDER, 1, BINARY)?;
        barrier_v()?;
        if spread {
            self.spread(c, a, rows)?;
            let blocks = (h / BASIC_H) as u8;
            let params = BinaryRepeatParams::new(1, 1, 1, blocks * 8, 8, blocks * 8);
            count(n / blocks as u32)?;
            for i in 0..blocks as u32 {
                let at = i * BASIC_H;
                mul_l0(&a.at(at)?, c, &b.at(at)?, MASK_PLACEHOLDER, 1, params)?;
            }
            barrier_v()?;
            count(n)?;
            adds_l0(c, a, 0.0, MASK_PLACEHOLDER, 1, UNARY)?;
            barrier_v()?;
        } else {
            sync_event(API, HardEvent::V_S)?;
            count(h)?;
            for i in 0..rows {
                let f = a.get_value(i)?;
                muls_l0(&c.at(i * h)?, &b.at(i * h)?, f, MASK_PLACEHOLDER, 1, UNARY)?;
            }
            barrier_v()?;
            count(n)?;
        }
        // · γ + β.
        count(h)?;
        if half {
            let (gh, bh): (LocalTensor<f16>, LocalTensor<f16>) =
                (gamma.reinterpret_cast(), beta.reinterpret_cast());
            cast_l0(a, &gh, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, WIDEN)?;
            barrier_v()?;
            self.with_row(mul_l0, b, c, a, rows, h)?;
            cast_l0(c, &bh, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, WIDEN)?;
            barrier_v()?;
            self.with_row(add_l0, a, b, c, rows, h)?;
            count(n)?;
            let o: LocalTensor<f16> = out.reinterpret_cast();
            cast_l0(&o, a, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, NARROW)?;
            barrier_v()
        } else {
            self.with_row(mul_l0, a, c, &gamma.reinterpret_cast(), rows, h)?;
            let o: LocalTensor<f32> = out.reinterpret_cast();
            self.with_row(add_l0, &o, a, &beta.reinterpret_cast(), rows, h)
        }
    }

    /// Per-row sums of `src` (scaled rows) into `out` and compact into `tmp`; leaves the counter
    /// at the rows.
    fn reduce(
        &self,
        t: &DeepNormTiling,
        out: &LocalTensor<f32>,
        tmp: &LocalTensor<f32>,
        src: &LocalTensor<f32>,
    ) -> Result<()> {
        let (h, rows) = (t.h_length, t.bs_cur_length);
        if self.basic_block {
            let blocks = h / BASIC_H;
            let rep = (blocks * 8) as u8;
            let params = BinaryRepeatParams::new(1, 1, 1, rep, rep, rep);
            count(rows * BASIC_H)?;
            for i in 1..blocks {
                add_l0(src, &src.at(i * BASIC_H)?, src, MASK_PLACEHOLDER, 1, params)?;
                barrier_v()?;
            }
            for dst in [out, tmp] {
                repeat_reduce_sum(dst, src, 1, MASK_PLACEHOLDER, 1, 1, 1, rep as i32)?;
                barrier_v()?;
            }
        } else {
            for i in 0..rows {
                let mut total = t.original_h_length;
                let mut s = src.at(i * h)?;
                let mut d = tmp.at(i * h)?;
                while total > 1 {
                    count(total)?;
                    if total <= BASIC_H {
                        repeat_reduce_sum(&out.at(i)?, &s, 1, MASK_PLACEHOLDER, 1, 1, 1, 8)?;
                        barrier_v()?;
                        d = tmp.at(i)?;
                    }
                    repeat_reduce_sum(&d, &s, 1, MASK_PLACEHOLDER, 1, 1, 1, 8)?;
                    barrier_v()?;
                    total = total.div_ceil(BASIC_H);
                    s = d;
                }
            }
        }
        count(rows)
    }

    /// Row `r` of `dst`'s first 64 columns (rows of 64) filled with `src[r]` (`rows` a multiple
    /// of 8): `Brcb` (A2/A3) or `TransDataTo5HD` (310P) into the first block, then `Adds 0`.
    fn spread(&self, dst: &LocalTensor<f32>, src: &LocalTensor<f32>, rows: u32) -> Result<()> {
        set_mask_norm()?;
        reset_mask()?;
        if self.p == Product::Ascend310P {
            let two = rows.is_multiple_of(16);
            let base = if two { 2 } else { 1 };
            let repeat = rows / (BASIC_BS * base);
            let (dst_rep, src_rep) = if repeat == 1 {
                (0, 0)
            } else {
                ((BASIC_H * base) as u16, base as u16)
            };
            let mut d = [*dst; 16];
            let mut s = [*src; 16];
            for i in 0..8u32 {
                d[2 * i as usize] = dst.at(i * BASIC_H)?;
                d[2 * i as usize + 1] = if two {
                    dst.at(i * BASIC_H + 8 * BASIC_H)?
                } else {
                    dst.at(i * BASIC_H + 8)?
                };
                if two {
                    s[i as usize + 8] = src.at(BASIC_BS)?;
                }
            }
            let params = TransDataTo5HDParams::new(false, false, repeat as u8, dst_rep, src_rep);
            trans_data_to_5hd(&d, &s, params)?;
        } else {
            brcb(
                dst,
                src,
                (rows / BASIC_BS) as u8,
                BrcbRepeatParams::new(8, 64),
            )?;
        }
        barrier_v()?;
        set_mask_count()?;
        count(rows * BASIC_H)?;
        adds_l0(
            dst,
            dst,
            0.0,
            MASK_PLACEHOLDER,
            1,
            UnaryRepeatParams::new(1, 0, 8, 8),
        )?;
        barrier_v()
    }

    /// `dst[r, ·] = op(src[r, ·], row[·])` over `rows` rows of `h`; leaves the counter at `h`.
    fn with_row(
        &self,
        op: Binary,
        dst: &LocalTensor<f32>,
        src: &LocalTensor<f32>,
        row: &LocalTensor<f32>,
        rows: u32,
        h: u32,
    ) -> Result<()> {
        if self.basic_block {
            let rep = (h / 8) as u8;
            let params = BinaryRepeatParams::new(1, 1, 1, rep, rep, 0);
            count(rows * BASIC_H)?;
            for i in 0..h / BASIC_H {
                let at = i * BASIC_H;
                op(
                    &dst.at(at)?,
                    &src.at(at)?,
                    &row.at(at)?,
                    MASK_PLACEHOLDER,
                    1,
                    params,
                )?;
            }
            barrier_v()?;
            count(h)
        } else {
            for i in 0..rows {
                let at = i * h;
                op(&dst.at(at)?, &src.at(at)?, row, MASK_PLACEHOLDER, 1, BINARY)?;
            }
            barrier_v()
        }
    }
}

/// A level-0 binary instruction on floats (`Add`/`Mul`).
type Binary = fn(
    &LocalTensor<f32>,
    &LocalTensor<f32>,
    &LocalTensor<f32>,
    crate::Mask,
    u8,
    BinaryRepeatParams,
) -> Result<()>;

/// A `[B, S, H]` shape's lengths, or `None` for another rank.
fn bsh(shape: &[u32]) -> Option<(u32, u32, u32)> {
    match *shape {
        [b, s, h] => Some((b, s, h)),
        _ => None,
    }
}

/// Bytes rounded up to whole 32-byte blocks.
fn blk(bytes: u32) -> u32 {
    bytes.div_ceil(32) * 32
}

/// `GetDeepNormMaxMinTmpSize(srcShape, typeSize, isReuseSource, isBasicBlock, maxValue,
/// minValue)`: bytes of temporary space for a `[B, S, H]` source as `(max, min)`: three float
/// tensors of all of `B·S·H` (of `H` for the minimum; two with `isReuseSource` and float) plus
/// two of `B·S`, each in whole 32-byte blocks. `None` (false) for another rank, or a shape
/// breaking the basic-block rule (H a multiple of 64, B·S of 8) when `basic_block`.
pub fn deep_norm_max_min_tmp_size(
    shape: &[u32],
    type_size: u32,
    reuse_source: bool,
    basic_block: bool,
) -> Option<(u32, u32)> {
    let (b, s, h) = bsh(shape)?;
    if basic_block && !(h > 0 && h.is_multiple_of(BASIC_H) && (b * s).is_multiple_of(BASIC_BS)) {
        return None;
    }
    let tensors = if reuse_source && type_size == 4 { 2 } else { 3 };
    let bs = blk(b * s * 4);
    Some((
        tensors * blk(b * s * h * 4) + 2 * bs,
        tensors * blk(h * 4) + 2 * bs,
    ))
}

/// `GetDeepNormTilingInfo(srcShape, originSrcShape, stackBufferSize, typeSize, isReuseSource,
/// isBasicBlock, tiling)`: the most whole rows one pass of `stack_bytes` takes (after the float
/// mean and variance for half; whole groups of 8 rows with basic blocks when at least 8 fit) and
/// the passes over the source. `None` (false) when the buffer is below the minimum or takes no
/// row, B or S differ from the origin's, H is not whole 32-byte blocks, above 2040 or below the
/// original H (or, with basic blocks, differs from it), or the shape breaks the basic-block rule.
pub fn deep_norm_tiling_info(
    shape: &[u32],
    origin: &[u32],
    stack_bytes: u32,
    type_size: u32,
    reuse_source: bool,
    basic_block: bool,
) -> Option<DeepNormTiling> {
    let (_, min) = deep_norm_max_min_tmp_size(shape, type_size, reuse_source, basic_block)?;
    if stack_bytes < min {
        return None;
    }
    let (b, s, h) = bsh(shape)?;
    let (ob, os, oh) = bsh(origin)?;
    if b != ob
        || s != os
        || !(h * type_size).is_multiple_of(32)
        || oh == 0
        || oh > h
        || (basic_block && oh != h)
        || h > MAX_H
    {
        return None;
    }
    let input = b * s * h;
    let rows = b * s;
    let tensors = if reuse_source && type_size == 4 { 2 } else { 3 };
    let mv_size = rows.div_ceil(8) * 8;
    let mv_total = if type_size == 4 { 0 } else { 2 * mv_size };
    let tmp_buf = stack_bytes / 4;
    let mut one = ((tmp_buf - mv_total) / tensors / h * h).min(input);
    let group = BASIC_BS * h;
    if basic_block && one / group > 0 {
        one = one / group * group;
    }
    if one == 0 {
        return None;
    }
    let tail = input % one;
    Some(DeepNormTiling {
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
