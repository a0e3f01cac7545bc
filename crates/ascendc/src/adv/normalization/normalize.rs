//! `Normalize` (归一化操作/Normalize): given the per-row mean and variance of an `[A, R]` tensor,
//! `rstd = 1 / sqrt(variance + ε)` and `y = (x − mean) · rstd · γ + β`; T half or float (γ, β
//! of type U: float, or half with half T); A2, A3 and 310P.
//!
//! As the device does it, in counter mode: `rstd` as `Adds ε`, `Sqrt` and a `Div` of a row of
//! ones; half γ/β widened once; then `N` rows at a time (as many as the temporary buffer holds
//! twice): the rows copied (float, `Adds 0`) or widened (half) into buffer A, per row a
//! `Duplicate` of its mean into buffer B and one `Sub`, per row a `Duplicate` of its rstd and one
//! `Mul`, per row `Mul γ` and `Add β` over the first R columns, and the copy or narrowing out.

use crate::adv::common::{barrier_v, require, run, sync_event, Tmp, A2_A3_310P};
use crate::api::vec::binary::{add_l0, div_l0, mul_l0, sub_l0};
use crate::api::vec::cast::cast_l0;
use crate::api::vec::duplicate::duplicate_l0;
use crate::api::vec::mask::{reset_mask, set_mask_count, set_mask_norm, set_vector_mask};
use crate::api::vec::scalar::adds_l0;
use crate::api::vec::unary::sqrt_l0;
use crate::dtype::{DType, Element};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::numeric::RoundMode;
use crate::{
    f16, BinaryRepeatParams, HardEvent, LocalTensor, MaskMode, UnaryRepeatParams, MASK_PLACEHOLDER,
};

const API: &str = "Normalize";

/// `NormalizePara`: the `[A, R]` geometry (lengths in elements; `R` padded to whole 32-byte
/// blocks of T is `r_length_with_padding`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct NormalizePara {
    /// Rows.
    pub a_length: u32,
    /// Columns that count.
    pub r_length: u32,
    /// Row stride (R padded to whole 32-byte blocks).
    pub r_length_with_padding: u32,
}

/// `NormalizeConfig` (the AR reduce pattern is the only one on these products).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NormalizeConfig {
    /// `aLength`: −1, or A fixed at compile time (must then equal `para.aLength`; never 1).
    pub a_length: i32,
    /// Leave β out.
    pub is_no_beta: bool,
    /// Leave γ out.
    pub is_no_gamma: bool,
    /// Output y only (must be false on these products).
    pub is_only_output: bool,
}

/// `NLCFG_NORM`: γ and β used, A from `para`.
pub const NLCFG_NORM: NormalizeConfig = NormalizeConfig {
    a_length: -1,
    is_no_beta: false,
    is_no_gamma: false,
    is_only_output: false,
};

impl Default for NormalizeConfig {
    fn default() -> Self {
        NLCFG_NORM
    }
}

/// `Normalize<U, T, isReuseSource, config>(output, outputRstd, inputMean, inputVariance, inputX,
/// gamma, beta, [sharedTmpBuffer,] epsilon, para)`: `outputRstd[a] = 1 / sqrt(inputVariance[a] +
/// ε)` and `output[a, r] = (inputX[a, r] − inputMean[a]) · outputRstd[a] · gamma[r] + beta[r]`
/// for `r < R` (γ/β left out per `config`; the padding columns hold scratch). T half or float, U
/// float or (T half) half; computed in float. `tmp`: at least `GetNormalizeMaxMinTmpSize`'s
/// minimum.
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn normalize<U: Element, T: Element>(
    output: &LocalTensor<T>,
    output_rstd: &LocalTensor<f32>,
    input_mean: &LocalTensor<f32>,
    input_variance: &LocalTensor<f32>,
    input_x: &LocalTensor<T>,
    gamma: &LocalTensor<U>,
    beta: &LocalTensor<U>,
    tmp: Tmp,
    epsilon: f32,
    para: &NormalizePara,
    config: &NormalizeConfig,
) -> Result<()> {
    run(API, SourceLoc::caller(), || {
        require(API, A2_A3_310P)?;
        let buf = tmp.buffer(API)?;
        normalize_impl(
            API,
            output,
            output_rstd,
            input_mean,
            input_variance,
            input_x,
            gamma,
            beta,
            &buf,
            epsilon,
            para,
            config,
        )
    })
}

/// The U/T pairs Normalize and the `[A, R]` LayerNorm take: (float, float), (half, half),
/// (float, half); whether U is half.
pub(crate) fn check_types<U: Element, T: Element>(api: &'static str) -> Result<bool> {
    match (U::DTYPE, T::DTYPE) {
        (DType::Float, DType::Float) | (DType::Float, DType::Half) => Ok(false),
        (DType::Half, DType::Half) => Ok(true),
        (u, t) => Err(SimError::new(
            Category::Type,
            api,
            format!("U = {u}, T = {t} is not supported: {api} takes T float with U float, or T half with U half or float"),
        )),
    }
}

/// Normalize's body on the caller's buffer (LayerNorm's `[A, R]` form calls it on the rest of its
/// own buffer).
#[allow(clippy::too_many_arguments)]
pub(crate) fn normalize_impl<U: Element, T: Element>(
    api: &'static str,
    output: &LocalTensor<T>,
    output_rstd: &LocalTensor<f32>,
    input_mean: &LocalTensor<f32>,
    input_variance: &LocalTensor<f32>,
    input_x: &LocalTensor<T>,
    gamma: &LocalTensor<U>,
    beta: &LocalTensor<U>,
    buf: &LocalTensor<u8>,
    epsilon: f32,
    para: &NormalizePara,
    config: &NormalizeConfig,
) -> Result<()> {
    let u_half = check_types::<U, T>(api)?;
    let bad = |msg: String| Err(SimError::new(Category::Range, api, msg));
    if config.is_only_output {
        return bad("config.isOnlyOutput = true is not supported: it must be false".into());
    }
    if config.a_length == 1 {
        return bad("config.aLength = 1 is not supported: use −1 or the real A".into());
    }
    if config.a_length != -1 && config.a_length as i64 != para.a_length as i64 {
        return bad(format!(
            "config.aLength = {} differs from para.aLength = {}",
            config.a_length, para.a_length
        ));
    }
    let (a, r, rp) = (para.a_length, para.r_length, para.r_length_with_padding);
    if a == 0 || r == 0 || r > rp || !(rp * T::SIZE as u32).is_multiple_of(32) {
        return bad(format!(
            "para {{aLength = {a}, rLength = {r}, rLengthWithPadding = {rp}}}: need A > 0, 0 < rLength ≤ rLengthWithPadding, rLengthWithPadding · sizeof(T) a multiple of 32"
        ));
    }
    for (name, size) in [
        ("output", output.get_size()),
        ("inputX", input_x.get_size()),
    ] {
        if size < a * rp {
            return Err(SimError::new(
                Category::Size,
                api,
                format!(
                    "`{name}` holds {size} elements, [A, rLengthWithPadding] needs {}",
                    a * rp
                ),
            ));
        }
    }
    let stack = buf.reinterpret_cast::<f32>();
    let size = stack.get_size();
    let r2 = rp * 2;
    let need = if u_half { 2 * r2 } else { r2 };
    if size < a || size < need {
        return Err(SimError::new(
            Category::Size,
            api,
            format!(
                "sharedTmpBuffer holds {size} floats: it needs at least max(A = {a}, {} · rLengthWithPadding = {need}); size it with GetNormalizeMaxMinTmpSize",
                need / rp
            ),
        ));
    }
    let n = if u_half { (size - r2) / r2 } else { size / r2 }.min(a);
    let tmp_a = stack;
    let tmp_b = stack.at(n * rp)?;
    let (gamma_f, beta_f): (LocalTensor<f32>, LocalTensor<f32>) = if u_half {
        (stack.at(r2 * n)?, stack.at(r2 * n + rp)?)
    } else {
        (gamma.reinterpret_cast(), beta.reinterpret_cast())
    };
    let step = Step {
        para,
        config,
        mean: input_mean,
        rstd: output_rstd,
        a: tmp_a,
        b: tmp_b,
        gamma: gamma_f,
        beta: beta_f,
    };

    set_mask_count()?;
    count(a)?;
    adds_l0(
        output_rstd,
        input_variance,
        epsilon,
        MASK_PLACEHOLDER,
        1,
        UNARY,
    )?;
    barrier_v()?;
    duplicate_l0(&tmp_a, 1.0f32, MASK_PLACEHOLDER, 1, 1, 8)?;
    barrier_v()?;
    sqrt_l0(output_rstd, output_rstd, MASK_PLACEHOLDER, 1, UNARY)?;
    barrier_v()?;
    div_l0(
        output_rstd,
        &tmp_a,
        output_rstd,
        MASK_PLACEHOLDER,
        1,
        BinaryRepeatParams::default(),
    )?;
    barrier_v()?;
    if u_half {
        count(r)?;
        if !config.is_no_gamma {
            cast_l0(
                &gamma_f,
                &gamma.reinterpret_cast::<f16>(),
                RoundMode::CAST_NONE,
                MASK_PLACEHOLDER,
                1,
                WIDEN,
            )?;
            barrier_v()?;
        }
        if !config.is_no_beta {
            cast_l0(
                &beta_f,
                &beta.reinterpret_cast::<f16>(),
                RoundMode::CAST_NONE,
                MASK_PLACEHOLDER,
                1,
                WIDEN,
            )?;
            barrier_v()?;
        }
    }
    for i in 0..a / n {
        let at = rp * n * i;
        step.rows(&output.at(at)?, &input_x.at(at)?, n, n * i)?;
    }
    if a % n != 0 {
        let at = rp * n * (a / n);
        step.rows(&output.at(at)?, &input_x.at(at)?, a % n, n * (a / n))?;
    }
    set_mask_norm()?;
    reset_mask()
}

/// `{1, 1, 8, 8}`.
const UNARY: UnaryRepeatParams = UnaryRepeatParams::new(1, 1, 8, 8);
/// half → float (`{1, 1, 8, 4}`).
const WIDEN: UnaryRepeatParams = UnaryRepeatParams::new(1, 1, 8, 4);
/// float → half (`{1, 1, 4, 8}`).
const NARROW: UnaryRepeatParams = UnaryRepeatParams::new(1, 1, 4, 8);

fn count(n: u32) -> Result<()> {
    set_vector_mask::<f32>(MaskMode::COUNTER, n as u64)
}

/// What each group of rows shares.
struct Step<'a> {
    para: &'a NormalizePara,
    config: &'a NormalizeConfig,
    mean: &'a LocalTensor<f32>,
    rstd: &'a LocalTensor<f32>,
    /// The rows in float, then the results.
    a: LocalTensor<f32>,
    /// The broadcast means, then rstds.
    b: LocalTensor<f32>,
    gamma: LocalTensor<f32>,
    beta: LocalTensor<f32>,
}

impl Step<'_> {
    /// `rows` rows at `x`/`out`, the first being row `base`.
    fn rows<T: Element>(
        &self,
        out: &LocalTensor<T>,
        x: &LocalTensor<T>,
        rows: u32,
        base: u32,
    ) -> Result<()> {
        let (r, rp) = (self.para.r_length, self.para.r_length_with_padding);
        let (a, b) = (&self.a, &self.b);
        count(rows * rp)?;
        if T::DTYPE == DType::Float {
            let xf: LocalTensor<f32> = x.reinterpret_cast();
            adds_l0(a, &xf, 0.0, MASK_PLACEHOLDER, 1, UNARY)?;
        } else {
            let xh: LocalTensor<f16> = x.reinterpret_cast();
            cast_l0(a, &xh, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, WIDEN)?;
        }
        barrier_v()?;
        // x − mean, then · rstd, each with the row's value spread over its first R columns.
        count(r)?;
        sync_event(API, HardEvent::V_S)?;
        for (k, per_row) in [self.mean, self.rstd].into_iter().enumerate() {
            if k == 1 {
                count(r)?;
            }
            for i in 0..rows {
                let v = per_row.get_value(i + base)?;
                sync_event(API, HardEvent::S_V)?;
                duplicate_l0(&b.at(i * rp)?, v, MASK_PLACEHOLDER, 1, 1, 8)?;
            }
            barrier_v()?;
            count(rows * rp)?;
            if k == 0 {
                sub_l0(a, a, b, MASK_PLACEHOLDER, 1, BinaryRepeatParams::default())?;
            } else {
                mul_l0(a, a, b, MASK_PLACEHOLDER, 1, BinaryRepeatParams::default())?;
            }
            barrier_v()?;
        }
        count(r)?;
        for i in 0..rows {
            let row = a.at(i * rp)?;
            if !self.config.is_no_gamma {
                mul_l0(&row, &row, &self.gamma, MASK_PLACEHOLDER, 1, BINARY)?;
                barrier_v()?;
            }
            if !self.config.is_no_beta {
                add_l0(&row, &row, &self.beta, MASK_PLACEHOLDER, 1, BINARY)?;
                barrier_v()?;
            }
        }
        count(rows * rp)?;
        if T::DTYPE == DType::Float {
            adds_l0(&out.reinterpret_cast(), a, 0.0, MASK_PLACEHOLDER, 1, UNARY)?;
        } else {
            let oh: LocalTensor<f16> = out.reinterpret_cast();
            cast_l0(&oh, a, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, NARROW)?;
        }
        barrier_v()
    }
}

/// `{1, 1, 1, 8, 8, 8}`.
const BINARY: BinaryRepeatParams = BinaryRepeatParams::new(1, 1, 1, 8, 8, 8);

/// `GetNormalizeMaxMinTmpSize(srcShape, typeSizeU, typeSizeT, isReuseSource, isComputeRstd,
/// isOnlyOutput, maxValue, minValue)`: bytes of temporary space for an `[A, R]` source as
/// `(max, min)`: all rows at once (`2·R + 2·A·R` floats, A rounded up to 8) or one row (`2·R`
/// floats, `4·R` for half U) but at least `A` floats, each part in whole 32-byte blocks (R padded
/// to 32 bytes of T). `None` for a shape of rank below 2, a zero type size, `isComputeRstd`
/// false or `isOnlyOutput` true (the vendor's checks).
pub fn normalize_max_min_tmp_size(
    shape: &[u32],
    type_size_u: u32,
    type_size_t: u32,
    compute_rstd: bool,
    only_output: bool,
) -> Option<(u32, u32)> {
    if !compute_rstd || only_output || type_size_u == 0 || type_size_t == 0 {
        return None;
    }
    let (&a, &r) = (shape.first()?, shape.get(1)?);
    let align = 32 / type_size_t;
    let rp = r.div_ceil(align) * align;
    let blk = |bytes: u32| bytes.div_ceil(32) * 32;
    let r_bytes = blk(rp * 4);
    let a_pad = a.div_ceil(8) * 8;
    let max = 2 * r_bytes + 2 * blk(a_pad * rp * 4);
    let nr = if type_size_u == 4 { 2 } else { 4 } * r_bytes;
    let min = blk(a * 4).max(nr);
    Some((max, min))
}
