//! `WelfordUpdate` and `WelfordFinalize` (归一化操作/WelfordUpdate, WelfordFinalize): the online
//! mean/variance of a reduce axis split into blocks; A2, A3 and 310P.
//!
//! `WelfordUpdate` folds one `[1, abLength]` block `x` into the running mean and the running sum
//! of squared deviations (`M`), element-wise in float, in counter mode, in chunks of 64 floats
//! per 256 bytes of temporary space per buffer (half `x` is first widened):
//! `d = x − mean₀`, `mean = d · nRec + mean₀`, `M = d · (x − mean) + M₀`.
//!
//! `WelfordFinalize` reduces the `abLength` partial means and `M`s to one mean and one variance:
//! each chunk of the temporary space is scaled (`· abRec`, or by the head/tail counts `· rRec`,
//! or by the `counts` tensor `· rRec`) and summed (a 64-column `Add` fold and one
//! `WholeReduceSum`) into one partial per chunk; the partials are summed by `WholeReduceSum`;
//! the variance pass broadcasts that mean (`SetCmpMask` + `Select`) and sums
//! `(M + count · (mean_i − mean)²) · rRec` the same way. Lanes 1‥7 of both outputs become 0.

use crate::adv::common::{barrier_v, require, run, Tmp, A2_A3_310P};
use crate::api::vec::binary::{add_l0, mul_l0, sub_l0};
use crate::api::vec::cast::cast_l0;
use crate::api::vec::cmp_mask::{select_cmp_mask_scalar, set_cmp_mask};
use crate::api::vec::duplicate::duplicate_l0;
use crate::api::vec::mask::{reset_mask, set_mask_count, set_mask_norm, set_vector_mask};
use crate::api::vec::reduce::whole_reduce_sum;
use crate::api::vec::scalar::{adds, muls_l0};
use crate::dtype::{DType, Element};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::numeric::RoundMode;
use crate::{
    data_copy, BinaryRepeatParams, LocalTensor, Mask, MaskMode, UnaryRepeatParams, MASK_PLACEHOLDER,
};

const UPDATE: &str = "WelfordUpdate";
const FINALIZE: &str = "WelfordFinalize";
/// Floats of one 256-byte repeat.
const REP_FLOATS: u32 = 64;
/// Floats of one 32-byte block.
const BLK_FLOATS: u32 = 8;
/// The most repeats of one instruction.
const MAX_REPEAT: u32 = 255;

/// `{1, 1, 8, 8}`.
const UNARY: UnaryRepeatParams = UnaryRepeatParams::new(1, 1, 8, 8);
/// `{1, 1, 1, 8, 8, 8}`.
const BINARY: BinaryRepeatParams = BinaryRepeatParams::new(1, 1, 1, 8, 8, 8);

/// `WelfordUpdateParam`: the block's shape and the update weight.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct WelfordUpdateParam {
    /// Rows (must be 1).
    pub rn_length: u32,
    /// Elements of the block (a multiple of `32 / sizeof(T)`).
    pub ab_length: u32,
    /// Elements computed from the start (`0 < abComputeLength ≤ abLength`).
    pub ab_compute_length: u32,
    /// `1 / i` for the `i`-th block.
    pub n_rec: f32,
}

/// `WelfordFinalizePara` (A2/A3/310P fields; `rRecWithCorrection`, an Ascend 950 field, is
/// carried and ignored).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct WelfordFinalizePara {
    /// Blocks the reduce axis was split into (rounded up).
    pub rn_length: u32,
    /// Partial results (a multiple of 8).
    pub ab_length: u32,
    /// Count of the head partials (the form without `counts`).
    pub head_count: u32,
    /// Partials with `headCount`.
    pub head_count_length: u32,
    /// Count of the tail partials (0: no tail).
    pub tail_count: u32,
    /// Partials with `tailCount` (`headCountLength + tailCountLength = abLength`).
    pub tail_count_length: u32,
    /// `1 / abLength`.
    pub ab_rec: f32,
    /// `1 / R` (R the whole reduce axis).
    pub r_rec: f32,
    /// Ascend 950 only (`isCorrection`); unused here.
    pub r_rec_with_correction: f32,
}

fn type_error(api: &'static str, what: &str, got: DType, want: &str) -> SimError {
    SimError::new(
        Category::Type,
        api,
        format!("{what} = {got} is not supported: {api} takes {want}"),
    )
}

fn size_error(api: &'static str, msg: String) -> SimError {
    SimError::new(Category::Size, api, msg)
}

fn range_error(api: &'static str, msg: String) -> SimError {
    SimError::new(Category::Range, api, msg)
}

/// `WelfordUpdate<T, U, isReuseSource, config>(outputMean, outputVariance, inputMean,
/// inputVariance, inputX, [sharedTmpBuffer,] para)`: for `i < abComputeLength`,
/// `d = x[i] − inMean[i]`, `outMean[i] = d · nRec + inMean[i]`,
/// `outVar[i] = d · (x[i] − outMean[i]) + inVar[i]` in float. `T` (x): half or float; `U`
/// (means, variances): float. `inplace` (`config.isInplace`): the elements from
/// `abComputeLength` on (rounded out to a whole 32-byte block) are copied from the inputs.
/// `tmp`: at least 256 bytes per buffer (3 for half, 1 for float with `reuse_source`, which
/// then overwrites `inputX`, else 2); each 256 bytes per buffer is 64 elements per pass.
/// `reuse_source` is refused on 310P.
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn welford_update<T: Element>(
    output_mean: &LocalTensor<f32>,
    output_variance: &LocalTensor<f32>,
    input_mean: &LocalTensor<f32>,
    input_variance: &LocalTensor<f32>,
    input_x: &LocalTensor<T>,
    tmp: Tmp,
    para: &WelfordUpdateParam,
    reuse_source: bool,
    inplace: bool,
) -> Result<()> {
    run(UPDATE, SourceLoc::caller(), || {
        let p = require(UPDATE, A2_A3_310P)?;
        let half = match T::DTYPE {
            DType::Half => true,
            DType::Float => false,
            other => return Err(type_error(UPDATE, "T", other, "half or float inputX")),
        };
        if reuse_source && p == crate::Product::Ascend310P {
            return Err(range_error(
                UPDATE,
                "isReuseSource = true is not supported on Ascend310P (the parameter is reserved there: pass false)".into(),
            ));
        }
        check_update(para, T::SIZE as u32)?;
        let need = para.rn_length * para.ab_length;
        for (name, size) in [
            ("outputMean", output_mean.get_size()),
            ("outputVariance", output_variance.get_size()),
            ("inputMean", input_mean.get_size()),
            ("inputVariance", input_variance.get_size()),
            ("inputX", input_x.get_size()),
        ] {
            if need > size {
                return Err(size_error(
                    UPDATE,
                    format!(
                        "`{name}` holds {size} elements, para.rnLength · para.abLength is {need}"
                    ),
                ));
            }
        }
        let bufs: u32 = if half {
            3
        } else if reuse_source {
            1
        } else {
            2
        };
        let buf = tmp.buffer(UPDATE)?;
        let per = buf.get_size() / (256 * bufs);
        if per == 0 {
            return Err(size_error(
                UPDATE,
                format!(
                    "sharedTmpBuffer of {} bytes is too small: it needs at least {} bytes ({bufs} buffers of 256); size it with GetWelfordUpdateMaxMinTmpSize",
                    buf.get_size(),
                    256 * bufs
                ),
            ));
        }
        let buf = buf.reinterpret_cast::<f32>();
        set_mask_count()?;
        if inplace && para.ab_compute_length < para.ab_length {
            let len = (para.ab_length - para.ab_compute_length).div_ceil(BLK_FLOATS) * BLK_FLOATS;
            let at = para.ab_length - len;
            data_copy(&output_mean.at(at)?, &input_mean.at(at)?, len)?;
            data_copy(&output_variance.at(at)?, &input_variance.at(at)?, len)?;
            barrier_v()?;
        }
        let split = REP_FLOATS * per;
        let (rounds, tail) = (
            para.ab_compute_length / split,
            para.ab_compute_length % split,
        );
        set_vector_mask::<f32>(MaskMode::COUNTER, split as u64)?;
        let step = |at: u32| -> Result<()> {
            let (om, ov, im, iv) = (
                output_mean.at(at)?,
                output_variance.at(at)?,
                input_mean.at(at)?,
                input_variance.at(at)?,
            );
            let x = input_x.at(at)?;
            if half {
                // Widened x, then d, then the scratch for x − mean.
                let (wide, d, out) = (buf, buf.at(split)?, buf.at(2 * split)?);
                barrier_v()?;
                let h: LocalTensor<crate::f16> = x.reinterpret_cast();
                cast_l0(
                    &wide,
                    &h,
                    RoundMode::CAST_NONE,
                    MASK_PLACEHOLDER,
                    1,
                    UnaryRepeatParams::new(1, 1, 8, 4),
                )?;
                update_mean(&d, &wide, &im, &out, &om, para.n_rec)?;
                sub_l0(&out, &wide, &om, MASK_PLACEHOLDER, 1, BINARY)?;
                barrier_v()?;
                mul_l0(&d, &d, &out, MASK_PLACEHOLDER, 1, BINARY)?;
                update_var(&d, &iv, &ov)
            } else if reuse_source {
                let x: LocalTensor<f32> = x.reinterpret_cast();
                update_mean(&buf, &x, &im, &buf, &om, para.n_rec)?;
                sub_l0(&buf, &x, &om, MASK_PLACEHOLDER, 1, BINARY)?;
                barrier_v()?;
                sub_l0(&x, &x, &im, MASK_PLACEHOLDER, 1, BINARY)?;
                barrier_v()?;
                mul_l0(&buf, &buf, &x, MASK_PLACEHOLDER, 1, BINARY)?;
                update_var(&buf, &iv, &ov)
            } else {
                let x: LocalTensor<f32> = x.reinterpret_cast();
                let out = buf.at(split)?;
                update_mean(&buf, &x, &im, &out, &om, para.n_rec)?;
                sub_l0(&out, &x, &om, MASK_PLACEHOLDER, 1, BINARY)?;
                barrier_v()?;
                mul_l0(&buf, &buf, &out, MASK_PLACEHOLDER, 1, BINARY)?;
                update_var(&buf, &iv, &ov)
            }
        };
        for i in 0..rounds {
            step(i * split)?;
        }
        if tail != 0 {
            set_vector_mask::<f32>(MaskMode::COUNTER, tail as u64)?;
            step(rounds * split)?;
        }
        set_mask_norm()?;
        reset_mask()
    })
}

/// The parameter rules of `WelfordUpdate` (`ts`: `sizeof(T)`).
fn check_update(para: &WelfordUpdateParam, ts: u32) -> Result<()> {
    if para.rn_length != 1 {
        return Err(range_error(
            UPDATE,
            format!("para.rnLength = {}: only 1 is supported", para.rn_length),
        ));
    }
    if !(para.ab_length * ts).is_multiple_of(32) {
        return Err(range_error(
            UPDATE,
            format!(
                "para.abLength = {} is not a multiple of {} (32 bytes of T)",
                para.ab_length,
                32 / ts
            ),
        ));
    }
    if para.ab_compute_length == 0 || para.ab_compute_length > para.ab_length {
        return Err(range_error(
            UPDATE,
            format!(
                "para.abComputeLength = {}: need 0 < abComputeLength ≤ abLength = {}",
                para.ab_compute_length, para.ab_length
            ),
        ));
    }
    Ok(())
}

/// `d = x − mean₀`, `t = d · nRec`, `mean = t + mean₀` (`t` may be `d`).
fn update_mean(
    d: &LocalTensor<f32>,
    x: &LocalTensor<f32>,
    mean0: &LocalTensor<f32>,
    t: &LocalTensor<f32>,
    mean: &LocalTensor<f32>,
    n_rec: f32,
) -> Result<()> {
    barrier_v()?;
    sub_l0(d, x, mean0, MASK_PLACEHOLDER, 1, BINARY)?;
    barrier_v()?;
    muls_l0(t, d, n_rec, MASK_PLACEHOLDER, 1, UNARY)?;
    barrier_v()?;
    add_l0(mean, t, mean0, MASK_PLACEHOLDER, 1, BINARY)?;
    barrier_v()
}

/// `M = p + M₀`.
fn update_var(p: &LocalTensor<f32>, m0: &LocalTensor<f32>, m: &LocalTensor<f32>) -> Result<()> {
    barrier_v()?;
    add_l0(m, p, m0, MASK_PLACEHOLDER, 1, BINARY)?;
    barrier_v()
}

/// `GetWelfordUpdateMaxMinTmpSize(srcShape, typeSizeT, typeSizeU, isReuseSource, isInplace,
/// max, min)`: bytes as `(max, min)` for a `[rnLength, abLength]` block: `min` is 256 bytes per
/// buffer (3 for a 2-byte T, 1 for float with `isReuseSource`, else 2), `max` that for every
/// 64 elements. `None` for a shape of another rank.
pub fn welford_update_max_min_tmp_size(
    shape: &[u32],
    type_size_t: u32,
    reuse_source: bool,
) -> Option<(u32, u32)> {
    let [rn, ab] = *shape else { return None };
    let min = if type_size_t == 2 {
        3 * 256
    } else if reuse_source {
        256
    } else {
        2 * 256
    };
    Some(((rn * ab).div_ceil(REP_FLOATS) * min, min))
}

/// `GetWelfordFinalizeMaxMinTmpSize(srcShape, typeSize, isReuseSource, max, min)`: bytes as
/// `(max, min)` for `[abLength]` partials: `min` 1024 (four 64-float buffers), `max` the same up
/// to 64 partials, else `(128 + 2 · abLength) · 4`. `None` for another rank or `abLength` zero or
/// not a multiple of 8.
pub fn welford_finalize_max_min_tmp_size(shape: &[u32]) -> Option<(u32, u32)> {
    let [ab] = *shape else { return None };
    if ab == 0 || !ab.is_multiple_of(BLK_FLOATS) {
        return None;
    }
    let min = REP_FLOATS * 4 * 4;
    let max = if ab <= REP_FLOATS {
        min
    } else {
        (REP_FLOATS * 2 + ab * 2) * 4
    };
    Some((max, min))
}

/// `WelfordFinalize<isReuseSource>(outputMean, outputVariance, inputMean, inputVariance,
/// [counts,] [sharedTmpBuffer,] para)`: `mean = Σ wᵢ · meanᵢ` and `var = Σ (Mᵢ + cᵢ · (meanᵢ −
/// mean)²) · rRec` over the `abLength` partials, into element 0 of each output (elements 1‥7
/// become 0). Without `counts`: `wᵢ = abRec` and `cᵢ = rnLength` when there is no tail
/// (`tailCount` or `tailCountLength` 0), else `wᵢ = cᵢ · rRec` with `cᵢ` = `headCount` for the
/// first `headCountLength` partials and `tailCount` after; with `counts`: `cᵢ = counts[i]`,
/// `wᵢ = cᵢ · rRec`. All float (counts int32). `tmp`: at least 1024 bytes; each further 512
/// bytes takes 64 more partials per pass.
#[track_caller]
pub fn welford_finalize(
    output_mean: &LocalTensor<f32>,
    output_variance: &LocalTensor<f32>,
    input_mean: &LocalTensor<f32>,
    input_variance: &LocalTensor<f32>,
    counts: Option<&LocalTensor<i32>>,
    tmp: Tmp,
    para: &WelfordFinalizePara,
) -> Result<()> {
    run(FINALIZE, SourceLoc::caller(), || {
        require(FINALIZE, A2_A3_310P)?;
        check_finalize(
            output_mean,
            output_variance,
            input_mean,
            input_variance,
            counts,
            para,
        )?;
        let buf = tmp.buffer(FINALIZE)?.reinterpret_cast::<f32>();
        let floats = buf.get_size();
        if floats < 4 * REP_FLOATS {
            return Err(size_error(
                FINALIZE,
                format!(
                    "sharedTmpBuffer of {} bytes is too small: it needs at least {} bytes; size it with GetWelfordFinalizeMaxMinTmpSize",
                    floats * 4,
                    4 * REP_FLOATS * 4
                ),
            ));
        }
        let len = (floats - 2 * REP_FLOATS) / (2 * REP_FLOATS) * REP_FLOATS;
        let f = Finalize {
            para,
            counts: counts.copied(),
            out_mean: buf,
            out_var: buf.at(REP_FLOATS)?,
            t_mean: buf.at(2 * REP_FLOATS)?,
            t_var: buf.at(2 * REP_FLOATS + len)?,
        };
        let (rounds, tail) = (para.ab_length / len, para.ab_length % len);
        set_mask_count()?;
        // Pass 1: one partial mean per chunk, folded every 64 chunks.
        let mut slot = 0u32;
        for i in 0..rounds {
            f.mean_chunk(
                &input_mean.at(i * len)?,
                &f.out_mean.at(slot)?,
                len,
                i * len,
            )?;
            slot = f.fold(&f.out_mean, slot + 1)?;
        }
        if tail > 0 {
            let at = rounds * len;
            f.mean_chunk(&input_mean.at(at)?, &f.out_mean.at(slot)?, tail, at)?;
            slot += 1;
        }
        f.reduce_slots(&f.out_mean, slot)?;
        // Pass 2: the variance, with the mean broadcast over each chunk.
        slot = 0;
        for i in 0..rounds {
            adds(&f.t_mean, &f.out_mean, 0.0, 1u32)?;
            barrier_v()?;
            let at = i * len;
            f.var_chunk(
                &input_mean.at(at)?,
                &input_variance.at(at)?,
                &f.out_var.at(slot)?,
                len,
                at,
            )?;
            slot = f.fold(&f.out_var, slot + 1)?;
        }
        if tail > 0 {
            adds(&f.t_mean, &f.out_mean, 0.0, 1u32)?;
            barrier_v()?;
            let at = rounds * len;
            f.var_chunk(
                &input_mean.at(at)?,
                &input_variance.at(at)?,
                &f.out_var.at(slot)?,
                tail,
                at,
            )?;
            slot += 1;
        }
        f.reduce_slots(&f.out_var, slot)?;
        adds(output_mean, &f.out_mean, 0.0, 1u32)?;
        adds(output_variance, &f.out_var, 0.0, 1u32)?;
        barrier_v()?;
        set_mask_norm()?;
        set_vector_mask::<f32>(MaskMode::NORMAL, Mask::Bits([254, 0]))?;
        for out in [output_mean, output_variance] {
            duplicate_l0(out, 0.0, MASK_PLACEHOLDER, 1, 1, 8)?;
            barrier_v()?;
        }
        set_mask_norm()?;
        reset_mask()
    })
}

/// The size and parameter rules of `WelfordFinalize`.
fn check_finalize(
    output_mean: &LocalTensor<f32>,
    output_variance: &LocalTensor<f32>,
    input_mean: &LocalTensor<f32>,
    input_variance: &LocalTensor<f32>,
    counts: Option<&LocalTensor<i32>>,
    para: &WelfordFinalizePara,
) -> Result<()> {
    let ab = para.ab_length;
    let mut need = vec![
        ("inputMean", input_mean.get_size(), ab),
        ("inputVariance", input_variance.get_size(), ab),
        ("outputMean", output_mean.get_size(), BLK_FLOATS),
        ("outputVariance", output_variance.get_size(), BLK_FLOATS),
    ];
    if let Some(c) = counts {
        need.push(("counts", c.get_size(), ab));
    }
    for (name, size, want) in need {
        if size < want {
            return Err(size_error(
                FINALIZE,
                format!("`{name}` holds {size} elements, it needs {want}"),
            ));
        }
    }
    if ab == 0 || !ab.is_multiple_of(BLK_FLOATS) {
        return Err(range_error(
            FINALIZE,
            format!("para.abLength = {ab}: need a non-zero multiple of 8 (32 bytes of float)"),
        ));
    }
    if para.head_count_length as u64 + para.tail_count_length as u64 != ab as u64 {
        return Err(range_error(
            FINALIZE,
            format!(
                "para.headCountLength = {} + para.tailCountLength = {} differs from para.abLength = {ab}",
                para.head_count_length, para.tail_count_length
            ),
        ));
    }
    if counts.is_none() && para.tail_count == 0 && para.tail_count_length != 0 {
        return Err(range_error(
            FINALIZE,
            format!(
                "para.tailCount = 0 with para.tailCountLength = {}: a zero tail count needs a zero tail length on this product",
                para.tail_count_length
            ),
        ));
    }
    Ok(())
}

/// The temporary tensors of one `WelfordFinalize` call.
struct Finalize<'a> {
    para: &'a WelfordFinalizePara,
    counts: Option<LocalTensor<i32>>,
    /// Per-chunk partial means (64 floats).
    out_mean: LocalTensor<f32>,
    /// Per-chunk partial variances (64 floats).
    out_var: LocalTensor<f32>,
    /// One chunk of scratch, also the broadcast mean.
    t_mean: LocalTensor<f32>,
    /// Another chunk of scratch.
    t_var: LocalTensor<f32>,
}

fn count(n: u32) -> Result<()> {
    set_vector_mask::<f32>(MaskMode::COUNTER, n as u64)
}

impl Finalize<'_> {
    /// Whether the head/tail counts scale the partials (the form without `counts`).
    fn with_tail(&self) -> bool {
        self.para.tail_count_length != 0 && self.para.tail_count != 0
    }

    /// Elements of the chunk at `offset` (of `len`) that are head partials.
    fn head_len(&self, len: u32, offset: u32) -> u32 {
        (self.para.head_count_length as i64 - offset as i64).clamp(0, len as i64) as u32
    }

    /// `headCount / tailCount` in float.
    fn head_ratio(&self) -> f32 {
        self.para.head_count as i32 as f32 / self.para.tail_count as i32 as f32
    }

    /// `counts[offset ..]` as float into `dst` (the counter set to the chunk).
    fn counts_to(&self, dst: &LocalTensor<f32>, offset: u32) -> Result<()> {
        let c = self.counts.as_ref().expect("counts form").at(offset)?;
        cast_l0(dst, &c, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()
    }

    /// The weighted sum of `len` partial means at `mean` into `out`.
    fn mean_chunk(
        &self,
        mean: &LocalTensor<f32>,
        out: &LocalTensor<f32>,
        len: u32,
        offset: u32,
    ) -> Result<()> {
        let (tm, tv, r) = (&self.t_mean, &self.t_var, self.para.r_rec);
        set_mask_count()?;
        count(len)?;
        if self.counts.is_some() {
            self.counts_to(tm, offset)?;
            mul_l0(tm, mean, tm, MASK_PLACEHOLDER, 1, BINARY)?;
            barrier_v()?;
            muls_l0(tm, tm, r, MASK_PLACEHOLDER, 1, UNARY)?;
            barrier_v()?;
            return reduce_rows(tv, out, tm, 1, len);
        }
        if !self.with_tail() {
            muls_l0(tm, mean, self.para.ab_rec, MASK_PLACEHOLDER, 1, UNARY)?;
            barrier_v()?;
            return reduce_rows(tv, out, tm, 1, len);
        }
        let tail = self.para.tail_count as i32 as f32;
        muls_l0(tv, mean, tail, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        muls_l0(tm, tv, r, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        let head = self.head_len(len, offset);
        if head > 0 {
            count(head)?;
            muls_l0(tm, tm, self.head_ratio(), MASK_PLACEHOLDER, 1, UNARY)?;
            barrier_v()?;
        }
        count(len)?;
        reduce_rows(tv, out, tm, 1, len)
    }

    /// The weighted sum of `len` partial variances into `out`, `t_mean[0]` holding the mean.
    fn var_chunk(
        &self,
        mean: &LocalTensor<f32>,
        var: &LocalTensor<f32>,
        out: &LocalTensor<f32>,
        len: u32,
        offset: u32,
    ) -> Result<()> {
        let (tm, tv, r) = (&self.t_mean, &self.t_var, self.para.r_rec);
        adds(tv, tm, 0.0, 1u32)?;
        barrier_v()?;
        set_mask_count()?;
        broadcast_first(tm, tv, len)?;
        count(len)?;
        sub_l0(tv, mean, tm, MASK_PLACEHOLDER, 1, BINARY)?;
        barrier_v()?;
        mul_l0(tm, tv, tv, MASK_PLACEHOLDER, 1, BINARY)?;
        barrier_v()?;
        if self.counts.is_some() {
            self.counts_to(tv, offset)?;
            mul_l0(tm, tm, tv, MASK_PLACEHOLDER, 1, BINARY)?;
            barrier_v()?;
            add_l0(tv, tm, var, MASK_PLACEHOLDER, 1, BINARY)?;
            barrier_v()?;
            muls_l0(tv, tv, r, MASK_PLACEHOLDER, 1, UNARY)?;
            barrier_v()?;
            return reduce_rows(tm, out, tv, 1, len);
        }
        let weight = if self.with_tail() {
            self.para.tail_count as i32 as f32
        } else {
            self.para.rn_length as i32 as f32
        };
        muls_l0(tv, tm, weight, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        if self.with_tail() {
            let head = self.head_len(len, offset);
            if head > 0 {
                count(head)?;
                muls_l0(tv, tv, self.head_ratio(), MASK_PLACEHOLDER, 1, UNARY)?;
                barrier_v()?;
            }
            count(len)?;
        }
        add_l0(tm, var, tv, MASK_PLACEHOLDER, 1, BINARY)?;
        barrier_v()?;
        muls_l0(tv, tm, r, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        reduce_rows(tm, out, tv, 1, len)
    }

    /// After a chunk wrote slot `next − 1`: with all 64 slots full, sums them into slot 0
    /// (returns 1), else returns `next`.
    fn fold(&self, slots: &LocalTensor<f32>, next: u32) -> Result<u32> {
        if next < REP_FLOATS {
            return Ok(next);
        }
        set_mask_norm()?;
        whole_reduce_sum(slots, slots, REP_FLOATS, 1, 1, 1, (next >> 3) as i32)?;
        barrier_v()?;
        Ok(1)
    }

    /// The sum of the first `n` slots into slot 0.
    fn reduce_slots(&self, slots: &LocalTensor<f32>, n: u32) -> Result<()> {
        set_mask_norm()?;
        whole_reduce_sum(slots, slots, n, 1, 1, 1, (n >> 3) as i32)?;
        barrier_v()
    }
}

/// `dst[0 .. len] = src[0]` in counter mode: `src[0]` into CMPMASK, the first `len` halfwords
/// of `src` zeroed (all selection bits 0), and a mode-1 `Select` of the scalar. Destroys `src`.
fn broadcast_first(dst: &LocalTensor<f32>, src: &LocalTensor<f32>, len: u32) -> Result<()> {
    set_vector_mask::<u8>(MaskMode::COUNTER, len as u64)?;
    set_cmp_mask(src)?;
    barrier_v()?;
    let bits: LocalTensor<i16> = src.reinterpret_cast();
    muls_l0(&bits, &bits, 0, MASK_PLACEHOLDER, 1, UNARY)?;
    barrier_v()?;
    let sel: LocalTensor<u16> = bits.reinterpret_cast();
    select_cmp_mask_scalar(dst, &sel, dst, 1, BinaryRepeatParams::default())?;
    barrier_v()
}

/// The row sums of `rows` rows of `h` floats at `src` (folded in place to 64 columns by `Add`,
/// then `WholeReduceSum`) into `dst[r · h]` and, packed, `packed[r]`; normal mode inside,
/// counter mode on return.
fn reduce_rows(
    packed: &LocalTensor<f32>,
    dst: &LocalTensor<f32>,
    src: &LocalTensor<f32>,
    rows: u32,
    h: u32,
) -> Result<()> {
    // The device resets the mask, then leaves counter mode; the other order reaches the same
    // state without resetting a counter-mode mask.
    set_mask_norm()?;
    reset_mask()?;
    let fold = BinaryRepeatParams::new(1, 1, 1, 0, 8, 0);
    if h > REP_FLOATS {
        let (reps, rest) = (h / REP_FLOATS - 1, h % REP_FLOATS);
        for r in 0..rows {
            let row = src.at(r * h)?;
            if reps > 0 {
                let next = row.at(REP_FLOATS)?;
                add_l0(&row, &next, &row, REP_FLOATS, reps as u8, fold)?;
                barrier_v()?;
            }
            if rest > 0 {
                let last = row.at(h - rest)?;
                add_l0(&row, &last, &row, rest, 1, fold)?;
                barrier_v()?;
            }
        }
    }
    let lanes = h.min(REP_FLOATS);
    let stride = (h >> 3) as i32;
    let mut done = 0;
    while done < rows {
        let n = (rows - done).min(MAX_REPEAT);
        let s = src.at(done * h)?;
        whole_reduce_sum(&packed.at(done)?, &s, lanes, n as i32, 1, 1, stride)?;
        whole_reduce_sum(&dst.at(done * h)?, &s, lanes, n as i32, h as i32, 1, stride)?;
        barrier_v()?;
        done += n;
    }
    set_mask_count()
}
