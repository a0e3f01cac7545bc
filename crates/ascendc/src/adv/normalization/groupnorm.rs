//! `GroupNorm` (归一化操作/GroupNorm): an `[N, C, H, W]` input normalized per group of
//! `D = C / groupNum` channels, half or float; A2 and A3 (the page lists neither 310P nor 310B).
//!
//! Each channel's `H·W` row is padded to 32 bytes (`hwAlignSize` elements) and the padding must
//! be zero: the group sums run over the padded rows. In float (half operands widened):
//! `mean = Σ x · (1/(D·H·W))`, `variance = Σ (x − mean)² · (1/(D·H·W))` (64-lane trees, see
//! below), `rstd = 1 / sqrt(variance + ε)`, `output = (x − mean) · rstd · γ_c + β_c`.
//! The device works on `bsCurLength` groups per pass. In the general path a group's sum is a
//! level-2 `ReduceSum` (A2/A3: a tree per 64 lanes, the trees added in order); in the small-shape
//! path (`hwAlignSize ≤ 64`, a group of at most 8 repeats) two `WholeReduceSum`s (a tree per
//! `mask1` lanes, then one tree over a group's partial sums).

use crate::adv::common::{barrier_v, require, run, sync_event, Tmp};
use crate::api::vec::binary::{div_l0, mul};
use crate::api::vec::cast::cast;
use crate::api::vec::duplicate::{duplicate, duplicate_l0};
use crate::api::vec::reduce::{reduce_sum, whole_reduce_sum};
use crate::api::vec::scalar::{adds, adds_l0, muls, muls_l0};
use crate::api::vec::unary::sqrt_l0;
use crate::chip::Product;
use crate::dtype::{DType, Element};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::numeric::RoundMode;
use crate::{f16, BinaryRepeatParams, HardEvent, LocalTensor, UnaryRepeatParams};

const API: &str = "GroupNorm";
const A2_A3: &[Product] = &[Product::Ascend910B, Product::Ascend910_93];
/// Lanes of a float repeat (the per-group lane masks work on 64 groups at a time).
const LANES: u32 = 64;
const UNARY: UnaryRepeatParams = UnaryRepeatParams::new(1, 1, 8, 8);
const BINARY: BinaryRepeatParams = BinaryRepeatParams::new(1, 1, 1, 8, 8, 8);
const NONE: RoundMode = RoundMode::CAST_NONE;

/// The tiling `GetGroupNormNDTilingInfo` fills (`GroupNormTiling`: 28 `uint32_t`, a float and a
/// bool, 120 bytes in the device's order). Sizes and positions in elements; the temporary
/// buffer's in floats.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct GroupNormTiling {
    /// N.
    pub n: u32,
    /// C.
    pub c: u32,
    /// `H · W`.
    pub hw: u32,
    /// groupNum.
    pub g: u32,
    /// Channels per group, `C / groupNum`.
    pub d: u32,
    /// `H · W` rounded up to 32 bytes of T.
    pub hw_align_size: u32,
    /// `d · hwAlignSize`: a group.
    pub dhw_align_size: u32,
    /// `N · C · hwAlignSize`.
    pub input_x_size: u32,
    /// `N · groupNum`: the length of mean and variance.
    pub mean_var_size: u32,
    /// Pass buffers: 3, or 2 for float with isReuseSource.
    pub number_of_tmp_buf: u32,
    /// Where the float mean starts (half).
    pub mean_tmp_tensor_pos: u32,
    /// `meanVarSize` rounded up to 8.
    pub mean_tmp_tensor_size: u32,
    /// Where the float variance starts (half).
    pub variance_tmp_tensor_pos: u32,
    /// As `meanTmpTensorSize`.
    pub variance_tmp_tensor_size: u32,
    /// Floats of temporary space the tiling was computed for.
    pub tmp_buf_size: u32,
    /// Floats of each pass buffer (`bsCurLength · dhwAlignSize`).
    pub one_tmp_size: u32,
    /// Where the first pass buffer starts.
    pub first_tmp_start_pos: u32,
    /// Where the second starts.
    pub second_tmp_start_pos: u32,
    /// Where the third starts.
    pub third_tmp_start_pos: u32,
    /// Full passes.
    pub loop_round: u32,
    /// Elements of a full pass.
    pub input_round_size: u32,
    /// Elements of the tail pass.
    pub input_tail_size: u32,
    /// Where the tail pass starts in the input.
    pub input_tail_pos: u32,
    /// Groups of a full pass.
    pub mean_var_round_size: u32,
    /// Groups of the tail pass.
    pub mean_var_tail_size: u32,
    /// Where the tail pass starts in mean and variance.
    pub mean_var_tail_pos: u32,
    /// Elements of the current pass.
    pub bsh_cur_length: u32,
    /// Groups of the current pass.
    pub bs_cur_length: u32,
    /// `1 / (d · H · W)`.
    pub factor: f32,
    /// 1 for the small-shape path (the C++ `bool smallShape`).
    pub small_shape: u8,
    /// The struct's trailing padding.
    pub pad: [u8; 3],
}

fn error(cat: Category, msg: String) -> SimError {
    SimError::new(cat, API, msg)
}

fn need(name: &str, size: u32, want: u64) -> Result<()> {
    if (size as u64) < want {
        return Err(error(
            Category::Size,
            format!("`{name}` holds {size} elements, the tiling needs {want}"),
        ));
    }
    Ok(())
}

/// A level-0 mask enabling float lane `lane`.
fn lane(lane: u32) -> [u64; 2] {
    [1u64 << lane, 0]
}

/// The float operands of a pass.
struct Ctx {
    t: GroupNormTiling,
    a: LocalTensor<f32>,
    b: LocalTensor<f32>,
    c: LocalTensor<f32>,
    mean: LocalTensor<f32>,
    var: LocalTensor<f32>,
    eps: f32,
}

/// `GroupNorm<T, isReuseSource>(output, outputMean, outputVariance, inputX, gamma, beta,
/// [sharedTmpBuffer,] epsilon, tiling)`: `inputX`, `output` `[N, C, hwAlignSize]` (each channel's
/// row padded to 32 bytes with zeros), `outputMean`, `outputVariance` `[N, groupNum]`, `gamma`,
/// `beta` `[C]` (see the module documentation). `T`: half or float, computed in float. `tmp`:
/// at least the `tmpBufSize` floats the tiling was computed for (`GetGroupNormNDTilingInfo`).
/// `reuse_source` (float only) takes the first pass buffer from `inputX`, which it overwrites.
/// As on the device, a tail pass (half, or float on the small-shape path) reads, and for half
/// writes, a whole `inputRoundSize` from its start, so `inputX` and `output` must reach that far
/// (float small shape: `output` to `inputTailPos + N·groupNum`). The general path needs
/// `N · groupNum ≤ 64` (the device scales each group's sum under the lane mask `1 << group`).
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn group_norm<T: Element>(
    output: &LocalTensor<T>,
    output_mean: &LocalTensor<T>,
    output_variance: &LocalTensor<T>,
    input_x: &LocalTensor<T>,
    gamma: &LocalTensor<T>,
    beta: &LocalTensor<T>,
    tmp: Tmp,
    epsilon: T,
    tiling: &GroupNormTiling,
    reuse_source: bool,
) -> Result<()> {
    run(API, SourceLoc::caller(), || {
        require(API, A2_A3)?;
        let half = match T::DTYPE {
            DType::Half => true,
            DType::Float => false,
            other => {
                return Err(error(
                    Category::Type,
                    format!("T = {other} is not supported: GroupNorm takes half or float"),
                ))
            }
        };
        if half && reuse_source {
            return Err(error(
                Category::Unsupported,
                "isReuseSource = true is not supported for half (float only)".into(),
            ));
        }
        let t = *tiling;
        if t.one_tmp_size == 0
            || t.bs_cur_length == 0
            || t.d == 0
            || t.c == 0
            || t.hw > t.hw_align_size
            || t.dhw_align_size != t.d * t.hw_align_size
            || t.input_round_size != t.bs_cur_length * t.dhw_align_size
        {
            return Err(error(
                Category::Range,
                format!(
                    "tiling oneTmpSize = {}, bsCurLength = {}, d = {}, hw = {}, hwAlignSize = {}, dhwAlignSize = {}, inputRoundSize = {}: need all > 0, hw ≤ hwAlignSize, dhwAlignSize = d · hwAlignSize, inputRoundSize = bsCurLength · dhwAlignSize (fill it with GetGroupNormNDTilingInfo)",
                    t.one_tmp_size, t.bs_cur_length, t.d, t.hw, t.hw_align_size, t.dhw_align_size, t.input_round_size
                ),
            ));
        }
        let small = t.small_shape != 0;
        if !small && t.mean_var_size > LANES {
            return Err(error(
                Category::Range,
                format!(
                    "N · groupNum = {} exceeds 64 on the general path (smallShape = false): the device scales each group's sum under the lane mask 1 << group, undefined past lane 63",
                    t.mean_var_size
                ),
            ));
        }
        let buf = tmp.buffer(API)?.reinterpret_cast::<f32>();
        if buf.get_size() < t.tmp_buf_size {
            return Err(error(
                Category::Size,
                format!(
                    "sharedTmpBuffer holds {} floats, the tiling was computed for tmpBufSize = {}",
                    buf.get_size(),
                    t.tmp_buf_size
                ),
            ));
        }
        let reuse = reuse_source && !half;
        let last = if reuse {
            t.second_tmp_start_pos
        } else {
            t.third_tmp_start_pos
        };
        if last as u64 + t.one_tmp_size as u64 > t.tmp_buf_size as u64 {
            return Err(error(
                Category::Size,
                format!(
                    "tiling {}TmpStartPos + oneTmpSize = {} exceeds tmpBufSize = {}",
                    if reuse { "second" } else { "third" },
                    last as u64 + t.one_tmp_size as u64,
                    t.tmp_buf_size
                ),
            ));
        }
        need("inputX", input_x.get_size(), t.input_x_size as u64)?;
        need("output", output.get_size(), t.input_x_size as u64)?;
        need("outputMean", output_mean.get_size(), t.mean_var_size as u64)?;
        need(
            "outputVariance",
            output_variance.get_size(),
            t.mean_var_size as u64,
        )?;
        need("gamma", gamma.get_size(), t.c as u64)?;
        need("beta", beta.get_size(), t.c as u64)?;
        if t.input_tail_size > 0 {
            // The device's tail pass reaches past the tail (see the function documentation).
            let whole = t.input_tail_pos as u64 + t.input_round_size as u64;
            let reach = |name: &str, size: u32, want: u64, what: &str| -> Result<()> {
                if (size as u64) < want {
                    return Err(error(
                        Category::Size,
                        format!(
                            "`{name}` holds {size} elements: the tail pass (inputTailPos = {}) {what}, as on the device, so it needs {want}",
                            t.input_tail_pos
                        ),
                    ));
                }
                Ok(())
            };
            let round = format!("covers a whole inputRoundSize = {}", t.input_round_size);
            if half || small {
                reach("inputX", input_x.get_size(), whole, &round)?;
            }
            if half {
                reach("output", output.get_size(), whole, &round)?;
            } else if small {
                let lanes = t.input_tail_pos as u64 + t.mean_var_size as u64;
                reach(
                    "output",
                    output.get_size(),
                    lanes,
                    "clears lane k of its group k",
                )?;
            }
        }
        let (mean, var) = if half {
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
        let (a, b, c) = if reuse {
            (
                input_x.reinterpret_cast(),
                buf.at(t.first_tmp_start_pos)?,
                buf.at(t.second_tmp_start_pos)?,
            )
        } else {
            (
                buf.at(t.first_tmp_start_pos)?,
                buf.at(t.second_tmp_start_pos)?,
                buf.at(t.third_tmp_start_pos)?,
            )
        };
        let mut cx = Ctx {
            t,
            a,
            b,
            c,
            mean,
            var,
            eps: epsilon.to_f64() as f32,
        };
        let exe = |cx: &Ctx, at: u32, round: u32, mv: u32| -> Result<()> {
            let (x, out) = (input_x.at(at)?, output.at(at)?);
            match (half, small) {
                (true, false) => cx.exe_half(
                    &x.reinterpret_cast(),
                    &out.reinterpret_cast(),
                    &gamma.reinterpret_cast(),
                    &beta.reinterpret_cast(),
                    round,
                    mv,
                ),
                (true, true) => cx.exe_half_small(
                    &x.reinterpret_cast(),
                    &out.reinterpret_cast(),
                    &gamma.reinterpret_cast(),
                    &beta.reinterpret_cast(),
                    round,
                    mv,
                ),
                (false, false) => cx.exe_float(
                    &x.reinterpret_cast(),
                    &out.reinterpret_cast(),
                    &gamma.reinterpret_cast(),
                    &beta.reinterpret_cast(),
                    round,
                    mv,
                ),
                (false, true) => cx.exe_float_small(
                    &x.reinterpret_cast(),
                    &out.reinterpret_cast(),
                    &gamma.reinterpret_cast(),
                    &beta.reinterpret_cast(),
                    round,
                    mv,
                ),
            }
        };
        for round in 0..t.loop_round {
            exe(&cx, round * t.input_round_size, round, 0)?;
        }
        if t.input_tail_size > 0 {
            cx.t.bsh_cur_length = t.input_tail_size;
            cx.t.bs_cur_length = t.mean_var_tail_size;
            exe(&cx, t.input_tail_pos, 0, t.mean_var_tail_pos)?;
        }
        if half {
            let n = t.n * t.g;
            cast::<f16, f32>(&output_mean.reinterpret_cast(), &cx.mean, NONE, n)?;
            cast::<f16, f32>(&output_variance.reinterpret_cast(), &cx.var, NONE, n)?;
        }
        Ok(())
    })
}

impl Ctx {
    /// The first group of pass `round` (tail: `mv`).
    fn first(&self, round: u32, mv: u32) -> u32 {
        round * self.t.bs_cur_length + mv
    }

    /// The small-shape reductions: `mask1` lanes per repeat (`dhwAlignSize` or its largest
    /// divisor ≤ 64 in steps of 8), and `mask2` lanes of a group's partial sums.
    fn masks(&self) -> Result<(u32, u32)> {
        let dhw = self.t.dhw_align_size;
        let mut m1 = dhw;
        if dhw > LANES {
            m1 = LANES;
            while m1 != 0 && !dhw.is_multiple_of(m1) {
                m1 -= 8;
            }
        }
        if m1 == 0 {
            return Err(error(
                Category::Range,
                format!("dhwAlignSize = {dhw} has no reduction width (mask1 = 0)"),
            ));
        }
        Ok((m1, dhw / m1 * 8))
    }

    /// `mean[k] = ReduceSum(group k of x)`, then `· factor` under the lane mask of `k`.
    fn mean_sums(
        &self,
        x: &LocalTensor<f32>,
        tmp: &LocalTensor<f32>,
        round: u32,
        mv: u32,
    ) -> Result<()> {
        let (t, first) = (&self.t, self.first(round, mv));
        for i in 0..t.bs_cur_length {
            let at = i * t.dhw_align_size;
            reduce_sum(
                &self.mean.at(first + i)?,
                &x.at(at)?,
                &tmp.at(at)?,
                t.dhw_align_size,
            )?;
            barrier_v()?;
        }
        for i in 0..t.bs_cur_length {
            muls_l0(&self.mean, &self.mean, t.factor, lane(first + i), 1, UNARY)?;
        }
        sync_event(API, HardEvent::V_S)
    }

    /// `d1 = x − mean` per channel row, `d2 = d1²`, `var[k] = ReduceSum(group k of d2) · factor`.
    fn var_sums(
        &self,
        x: &LocalTensor<f32>,
        d1: &LocalTensor<f32>,
        d2: &LocalTensor<f32>,
        round: u32,
        mv: u32,
    ) -> Result<()> {
        let t = &self.t;
        for i in 0..t.d * t.bs_cur_length {
            let at = i * t.hw_align_size;
            let k = (i + round * t.d * t.bs_cur_length + mv * t.d) / t.d;
            // `−1 · mean` (the sign flip, exact).
            let m = -self.mean.get_value(k)?;
            adds(&d1.at(at)?, &x.at(at)?, m, t.hw)?;
            barrier_v()?;
        }
        mul(d2, d1, d1, t.bsh_cur_length)?;
        barrier_v()?;
        let first = self.first(round, mv);
        for i in 0..t.bs_cur_length {
            let at = i * t.dhw_align_size;
            let s = d2.at(at)?;
            reduce_sum(&self.var.at(first + i)?, &s, &s, t.dhw_align_size)?;
            barrier_v()?;
        }
        for i in 0..t.bs_cur_length {
            muls_l0(&self.var, &self.var, t.factor, lane(first + i), 1, UNARY)?;
            barrier_v()?;
        }
        Ok(())
    }

    /// Group `k`'s `1 / sqrt(var[k] + ε)` into lane `k mod 64` of `r` (via `ones`), then every
    /// group of `io` scaled by it.
    fn rstd_scale(
        &self,
        io: &LocalTensor<f32>,
        r: &LocalTensor<f32>,
        ones: &LocalTensor<f32>,
        round: u32,
        mv: u32,
    ) -> Result<()> {
        let (t, first) = (&self.t, self.first(round, mv));
        for i in 0..t.bs_cur_length {
            let k = first + i;
            let base = k / LANES * LANES;
            let m = lane(k - base);
            adds_l0(r, &self.var.at(base)?, self.eps, m, 1, UNARY)?;
            barrier_v()?;
            duplicate_l0(ones, 1.0f32, m, 1, 1, 1)?;
            barrier_v()?;
            sqrt_l0(r, r, m, 1, UNARY)?;
            barrier_v()?;
            div_l0(r, ones, r, m, 1, BINARY)?;
            barrier_v()?;
        }
        sync_event(API, HardEvent::V_S)?;
        for i in 0..t.bs_cur_length {
            let g = io.at(i * t.dhw_align_size)?;
            let s = r.get_value((first + i) % LANES)?;
            muls(&g, &g, s, t.dhw_align_size)?;
            barrier_v()?;
        }
        sync_event(API, HardEvent::V_S)?;
        barrier_v()
    }

    /// Each channel row of `io` times `γ_c`, then plus `β_c` (scalar reads).
    fn affine(
        &self,
        io: &LocalTensor<f32>,
        gamma: &LocalTensor<f32>,
        beta: &LocalTensor<f32>,
        round: u32,
        mv: u32,
    ) -> Result<()> {
        let t = &self.t;
        let first = round * t.bs_cur_length * t.d + mv * t.d;
        let rows = t.bs_cur_length * t.d;
        for j in 0..rows {
            let row = io.at(j * t.hw_align_size)?;
            muls(&row, &row, gamma.get_value((first + j) % t.c)?, t.hw)?;
            barrier_v()?;
        }
        for j in 0..rows {
            let row = io.at(j * t.hw_align_size)?;
            adds(&row, &row, beta.get_value((first + j) % t.c)?, t.hw)?;
            barrier_v()?;
        }
        Ok(())
    }

    /// Half γ and β widened into `a` and `c`, the affine step on `b`, `b` narrowed to `out`.
    fn finish_half(
        &self,
        out: &LocalTensor<f16>,
        gamma: &LocalTensor<f16>,
        beta: &LocalTensor<f16>,
        round: u32,
        mv: u32,
    ) -> Result<()> {
        cast(&self.a, gamma, NONE, self.t.c)?;
        barrier_v()?;
        cast(&self.c, beta, NONE, self.t.c)?;
        barrier_v()?;
        self.affine(&self.b, &self.a, &self.c, round, mv)?;
        cast(out, &self.b, NONE, self.t.input_round_size)?;
        barrier_v()
    }

    fn exe_half(
        &self,
        x: &LocalTensor<f16>,
        out: &LocalTensor<f16>,
        gamma: &LocalTensor<f16>,
        beta: &LocalTensor<f16>,
        round: u32,
        mv: u32,
    ) -> Result<()> {
        duplicate(&self.a, 0.0f32, self.t.bsh_cur_length)?;
        barrier_v()?;
        cast(&self.b, x, NONE, self.t.input_round_size)?;
        barrier_v()?;
        self.mean_sums(&self.b, &self.c, round, mv)?;
        self.var_sums(&self.b, &self.b, &self.c, round, mv)?;
        self.rstd_scale(&self.b, &self.a, &self.c, round, mv)?;
        self.finish_half(out, gamma, beta, round, mv)
    }

    fn exe_float(
        &self,
        x: &LocalTensor<f32>,
        out: &LocalTensor<f32>,
        gamma: &LocalTensor<f32>,
        beta: &LocalTensor<f32>,
        round: u32,
        mv: u32,
    ) -> Result<()> {
        self.mean_sums(x, out, round, mv)?;
        duplicate(out, 0.0f32, self.t.bsh_cur_length)?;
        barrier_v()?;
        self.var_sums(x, out, &self.c, round, mv)?;
        self.rstd_scale(out, &self.a, &self.b, round, mv)?;
        self.affine(out, gamma, beta, round, mv)
    }

    /// The small-shape group sums of `src` into `dst` (`WholeReduceSum` per `mask1` lanes into
    /// `part`, 8 floats apart, then per group), then `· factor` under each group's lane mask.
    fn small_sums(
        &self,
        dst: &LocalTensor<f32>,
        src: &LocalTensor<f32>,
        part: &LocalTensor<f32>,
        round: u32,
        mv: u32,
        barrier_each: bool,
    ) -> Result<()> {
        let t = &self.t;
        let (m1, m2) = self.masks()?;
        let repeat1 = t.dhw_align_size / m1 * t.mean_var_round_size;
        let first = self.first(round, mv);
        whole_reduce_sum(part, src, m1, repeat1 as i32, 8, 1, (m1 / 8) as i32)?;
        barrier_v()?;
        whole_reduce_sum(
            &dst.at(first)?,
            part,
            m2,
            t.bs_cur_length as i32,
            1,
            1,
            (m2 / 8) as i32,
        )?;
        barrier_v()?;
        for i in 0..t.bs_cur_length {
            let k = first + i;
            let base = dst.at(k / LANES * LANES)?;
            muls_l0(&base, &base, t.factor, lane(k % LANES), 1, UNARY)?;
            if barrier_each {
                barrier_v()?;
            }
        }
        Ok(())
    }

    /// `d = x − mean` per group (one level-0 `Adds` of `d` channel rows, `hw` lanes each).
    fn small_centre(
        &self,
        d: &LocalTensor<f32>,
        x: &LocalTensor<f32>,
        round: u32,
        mv: u32,
    ) -> Result<()> {
        let t = &self.t;
        let stride = (t.hw_align_size / 8) as u8;
        let first = self.first(round, mv);
        for i in 0..t.bs_cur_length {
            let at = i * t.dhw_align_size;
            let m = -self.mean.get_value(first + i)?;
            adds_l0(
                &d.at(at)?,
                &x.at(at)?,
                m,
                t.hw,
                t.d as u8,
                UnaryRepeatParams::new(1, 1, stride, stride),
            )?;
            barrier_v()?;
        }
        Ok(())
    }

    fn exe_half_small(
        &self,
        x: &LocalTensor<f16>,
        out: &LocalTensor<f16>,
        gamma: &LocalTensor<f16>,
        beta: &LocalTensor<f16>,
        round: u32,
        mv: u32,
    ) -> Result<()> {
        let t = &self.t;
        duplicate(&self.a, 0.0f32, t.input_round_size * t.number_of_tmp_buf)?;
        barrier_v()?;
        cast(&self.b, x, NONE, t.input_round_size)?;
        barrier_v()?;
        barrier_v()?;
        self.small_sums(&self.mean, &self.b, &self.c, round, mv, true)?;
        sync_event(API, HardEvent::V_S)?;
        self.small_centre(&self.b, &self.b, round, mv)?;
        mul(&self.c, &self.b, &self.b, t.bsh_cur_length)?;
        barrier_v()?;
        self.small_sums(&self.var, &self.c, &self.a, round, mv, true)?;
        self.rstd_scale(&self.b, &self.a, &self.c, round, mv)?;
        self.finish_half(out, gamma, beta, round, mv)
    }

    fn exe_float_small(
        &self,
        x: &LocalTensor<f32>,
        out: &LocalTensor<f32>,
        gamma: &LocalTensor<f32>,
        beta: &LocalTensor<f32>,
        round: u32,
        mv: u32,
    ) -> Result<()> {
        let t = &self.t;
        if mv != 0 {
            for i in 0..t.bs_cur_length {
                let k = i + round * t.bs_cur_length + mv;
                duplicate_l0(
                    &out.at(k / LANES * LANES)?,
                    0.0f32,
                    lane(k % LANES),
                    1,
                    1,
                    8,
                )?;
                barrier_v()?;
            }
        } else {
            duplicate(out, 0.0f32, t.input_round_size)?;
            barrier_v()?;
        }
        duplicate(&self.c, 0.0f32, t.input_round_size)?;
        barrier_v()?;
        barrier_v()?;
        self.small_sums(&self.mean, x, &self.c, round, mv, false)?;
        sync_event(API, HardEvent::V_S)?;
        self.small_centre(out, x, round, mv)?;
        mul(&self.c, out, out, t.bsh_cur_length)?;
        barrier_v()?;
        duplicate(&self.a, 0.0f32, t.input_round_size)?;
        barrier_v()?;
        self.small_sums(&self.var, &self.c, &self.a, round, mv, true)?;
        self.rstd_scale(out, &self.a, &self.b, round, mv)?;
        self.affine(out, gamma, beta, round, mv)
    }
}

/// `[N, C, H, W]` with `typeSize` 2 or 4 and no zero dimension, else `None` (the vendor's host
/// checks).
fn nchw(shape: &[u32], type_size: u32, group_num: u32) -> Option<(u32, u32, u32)> {
    match *shape {
        [n, c, h, w]
            if n > 0 && c > 0 && h > 0 && w > 0 && matches!(type_size, 2 | 4) && group_num > 0 =>
        {
            Some((n, c, h.checked_mul(w)?))
        }
        _ => None,
    }
}

fn align32(bytes: u64) -> u64 {
    bytes.div_ceil(32) * 32
}

/// `GetGroupNormMaxMinTmpSize(srcShape [N, C, H, W], typeSize, isReuseSource, groupNum, max,
/// min)`: bytes as `(max, min)`. With `r` = a channel's `H·W` row rounded up to 32 bytes of T,
/// in floats (`·4` bytes) and `mv` = `N · groupNum` floats rounded up to 32 bytes: `max = k · N·C·r
/// + 2·mv`, `min = k · (C/groupNum)·r + 2·mv`, `k` = 3, or 2 for float with `isReuseSource`.
/// `None` for a refused shape (rank other than 4, a zero dimension, `typeSize` not 2 or 4,
/// `groupNum` 0).
pub fn group_norm_max_min_tmp_size(
    src_shape: &[u32],
    type_size: u32,
    reuse_source: bool,
    group_num: u32,
) -> Option<(u32, u32)> {
    let (n, c, hw) = nchw(src_shape, type_size, group_num)?;
    let ts = type_size as u64;
    let row = align32(hw as u64 * ts) / ts * 4;
    let mv = align32(n as u64 * group_num as u64 * 4);
    let k = if reuse_source && type_size == 4 { 2 } else { 3 };
    let max = k * (n as u64 * c as u64 * row) + 2 * mv;
    let min = k * ((c / group_num) as u64 * row) + 2 * mv;
    Some((u32::try_from(max).ok()?, u32::try_from(min).ok()?))
}

/// `GetGroupNormNDTilingInfo(srcShape [N, C, H, W], stackBufferSize, typeSize, isReuseSource,
/// groupNum, tiling)`: passes of as many whole groups as a pass buffer holds (the buffer in
/// floats, less the half mean and variance, split in 3, or 2 for float with `isReuseSource`),
/// at most 255 repeats of the small-shape reduction, at most the whole input. `None` (the device
/// leaves the tiling untouched) for a refused shape, `C` not a multiple of `groupNum`, a buffer
/// below one group (half: below `C` floats per pass buffer).
pub fn group_norm_tiling_info(
    src_shape: &[u32],
    stack_bytes: u32,
    type_size: u32,
    reuse_source: bool,
    group_num: u32,
) -> Option<GroupNormTiling> {
    let (n, c, hw) = nchw(src_shape, type_size, group_num)?;
    if !c.is_multiple_of(group_num) {
        return None;
    }
    let g = group_num;
    let d = c / g;
    let hw_align = u32::try_from(align32(hw as u64 * type_size as u64) / type_size as u64).ok()?;
    let dhw = d.checked_mul(hw_align)?;
    let input_x_size = n.checked_mul(c)?.checked_mul(hw_align)?;
    let mvs = n.checked_mul(g)?;
    let mv_tmp = mvs.div_ceil(8) * 8;
    let mv_total = if type_size == 4 { 0 } else { 2 * mv_tmp };
    let bufs = if reuse_source && type_size == 4 { 2 } else { 3 };
    let tmp_buf_size = stack_bytes / 32 * 32 / 4;
    let one = tmp_buf_size.checked_sub(mv_total)? / bufs;
    let mut bs = one / dhw;
    let mut k = 8;
    while !(dhw / 8).is_multiple_of(k) {
        k -= 1;
    }
    let small = hw_align <= LANES && dhw <= LANES * k;
    if small {
        let mut m1 = LANES;
        if dhw > LANES {
            while m1 != 0 && !dhw.is_multiple_of(m1) {
                m1 -= 8;
            }
        } else {
            m1 = dhw;
        }
        if m1 == 0 {
            return None;
        }
        bs = bs.min(255 / (dhw / m1) / 8 * 8);
    }
    if type_size == 2 && (bs as u64 * dhw as u64) < c as u64 {
        return None;
    }
    let mut one = bs.checked_mul(dhw)?;
    if one > input_x_size {
        bs = mvs;
        one = input_x_size;
    }
    if one == 0 {
        return None;
    }
    let tail = input_x_size % one;
    Some(GroupNormTiling {
        n,
        c,
        hw,
        g,
        d,
        hw_align_size: hw_align,
        dhw_align_size: dhw,
        input_x_size,
        mean_var_size: mvs,
        number_of_tmp_buf: bufs,
        mean_tmp_tensor_pos: 0,
        mean_tmp_tensor_size: mv_tmp,
        variance_tmp_tensor_pos: mv_tmp,
        variance_tmp_tensor_size: mv_tmp,
        tmp_buf_size,
        one_tmp_size: one,
        first_tmp_start_pos: mv_total,
        second_tmp_start_pos: mv_total + one,
        third_tmp_start_pos: mv_total + 2 * one,
        loop_round: input_x_size / one,
        input_round_size: one,
        input_tail_size: tail,
        input_tail_pos: input_x_size - tail,
        mean_var_round_size: one / dhw,
        mean_var_tail_size: tail / dhw,
        mean_var_tail_pos: mvs - tail / dhw,
        bsh_cur_length: one,
        bs_cur_length: bs,
        factor: 1.0 / (d * hw) as f32,
        small_shape: small as u8,
        pad: [0; 3],
    })
}
