//! `LayerNormGrad` and `LayerNormGradBeta` (归一化操作/LayerNormGrad, LayerNormGradBeta): the
//! backward pass of LayerNorm over a `[B, S, H]` tensor, half or float; A2, A3 and 310P.
//!
//! `LayerNormGrad`, as the device does it with level-2 instructions, `nohCalSize` rows
//! (`oneCalSize` elements) per pass, in float (half operands widened, results narrowed):
//! `x1 = dy · γ`, `x2 = x − mean`; `pdVar = Σ_h −0.5 · x1 · x2 · (var + ε)^-1.5` (the power as
//! `1 / sqrt((var + ε)³)`); `r = 1 / sqrt(var + ε)`, `resForGamma = x2 · r`, `x3 = x1 · r`;
//! `pdMean = Σ_h −x3 + pdVar · (1/H₀) · Σ_h −2 · x2`; `pdX = pdVar · (2/H₀) · x2 + pdMean ·
//! (1/H₀) + x3`. Per-row values are spread over their rows by `Brcb` on A2/A3 and by a scalar
//! `Duplicate` per row on 310P; the row sums are repeated `WholeReduceSum`s of 64 lanes.
//!
//! `LayerNormGradBeta`: `pdGamma = Σ_rows dy · resForGamma`, `pdBeta = Σ_rows dy` over the first
//! `originalHLength` columns, in counter mode, by a running `Add` row after row.

use crate::adv::common::{barrier_v, require, run, sync_event, Tmp, A2_A3_310P};
use crate::api::vec::binary::{add, add_l0, div_l0, mul, mul_l0, sub};
use crate::api::vec::cast::{cast, cast_l0};
use crate::api::vec::duplicate::{duplicate, duplicate_l0};
use crate::api::vec::fill::{brcb, BrcbRepeatParams};
use crate::api::vec::mask::{reset_mask, set_mask_count, set_mask_norm, set_vector_mask};
use crate::api::vec::reduce::whole_reduce_sum;
use crate::api::vec::scalar::{adds, adds_l0, muls};
use crate::api::vec::unary::sqrt;
use crate::chip::Product;
use crate::dtype::{DType, Element};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::numeric::RoundMode;
use crate::{
    f16, BinaryRepeatParams, HardEvent, LocalTensor, MaskMode, UnaryRepeatParams, MASK_PLACEHOLDER,
};

const GRAD: &str = "LayerNormGrad";
const BETA: &str = "LayerNormGradBeta";
/// Floats of one 256-byte repeat.
const REP_FLOATS: u32 = 64;
/// The most repeats of one instruction.
const MAX_REPEAT: u32 = 255;
/// Rows one `Brcb` repeat spreads.
const BRCB_ROWS: u32 = 8;

/// The tiling `GetLayerNormGradNDTilingInfo` fills (`LayerNormGradTiling`, 30 `uint32_t` in the
/// device's order). Positions and sizes in floats of the temporary buffer; `lastDimValueBack`
/// and `lastDimValueBackMulTwo` are the bits of `1/H₀` and `2/H₀`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct LayerNormGradTiling {
    /// Bytes of temporary space the tiling was computed for.
    pub stack_buffer_size: u32,
    /// B.
    pub b_length: u32,
    /// S.
    pub s_length: u32,
    /// H (a whole number of 32-byte blocks).
    pub h_length: u32,
    /// H before padding.
    pub original_h_length: u32,
    /// Elements of one pass (`nohCalSize · hLength`).
    pub one_cal_size: u32,
    /// Rows of one pass.
    pub noh_cal_size: u32,
    /// Full passes.
    pub loop_num: u32,
    /// Elements of the tail pass.
    pub tail_size: u32,
    /// Rows of the tail pass.
    pub noh_tail_size: u32,
    /// Where the broadcast scratch starts.
    pub tmp_tensor_bsh_pos: u32,
    /// Its size.
    pub tmp_tensor_bsh_size: u32,
    /// Where `pdVar` starts.
    pub pd_var_tensor_pos: u32,
    /// Its size.
    pub pd_var_tensor_size: u32,
    /// Where `pdMean` starts.
    pub pd_mean_tensor_pos: u32,
    /// Its size.
    pub pd_mean_tensor_size: u32,
    /// Where `x1 = dy · γ` starts.
    pub x1_tensor_pos: u32,
    /// Its size.
    pub x1_tensor_size: u32,
    /// Where `x2 = x − mean` starts.
    pub x2_tensor_pos: u32,
    /// Its size.
    pub x2_tensor_size: u32,
    /// Where `x3 = x1 · r` starts.
    pub x3_tensor_pos: u32,
    /// Its size.
    pub x3_tensor_size: u32,
    /// Where the per-row scratch starts (half; float uses `outputPdX`).
    pub tmp_tensor_pos: u32,
    /// Its size.
    pub tmp_tensor_size: u32,
    /// Where the first widened operand starts (half).
    pub tmp_tensor1_pos: u32,
    /// Its size.
    pub tmp_tensor1_size: u32,
    /// Where the second widened operand starts (half).
    pub tmp_tensor2_pos: u32,
    /// Its size.
    pub tmp_tensor2_size: u32,
    /// Bits of `1 / originalHLength`.
    pub last_dim_value_back: u32,
    /// Bits of `2 / originalHLength`.
    pub last_dim_value_back_mul_two: u32,
}

/// The tiling `GetLayerNormGradBetaNDTilingInfo` fills (`LayerNormGradBetaTiling`, 20 `uint32_t`
/// in the device's order). `stackBufferSize`, sizes and positions in floats.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct LayerNormGradBetaTiling {
    /// Floats of temporary space the tiling was computed for.
    pub stack_buffer_size: u32,
    /// B.
    pub b_length: u32,
    /// S.
    pub s_length: u32,
    /// H.
    pub h_length: u32,
    /// H before padding: the columns summed, and the row stride the sums use.
    pub original_h_length: u32,
    /// `B · S · H`.
    pub bsh_length: u32,
    /// `B · S`.
    pub bs_length: u32,
    /// Elements of one pass.
    pub one_cal_size: u32,
    /// Buffers of one pass (1 float, 2 half).
    pub number_of_tmp_buf: u32,
    /// Passes before the tail.
    pub loop_round: u32,
    /// Elements of the tail pass.
    pub input_tail_size: u32,
    /// Element offset of the tail pass.
    pub input_tail_pos: u32,
    /// Rows of the tail pass.
    pub bs_tail_size: u32,
    /// Elements of a full pass.
    pub bsh_cur_length: u32,
    /// Rows of a full pass.
    pub bs_cur_length: u32,
    /// Where the float `pdGamma` starts (half).
    pub gamma_temp_tensor_pos: u32,
    /// Where the float `pdBeta` starts (half).
    pub beta_temp_tensor_pos: u32,
    /// Where the widened `dy` starts (half).
    pub input_dy_tmp_tensor_pos: u32,
    /// Where `dy · resForGamma` starts.
    pub res_for_gamma_tmp_tensor_pos: u32,
    /// Unused.
    pub reserved: u32,
}

fn half_or_float<T: Element>(api: &'static str) -> Result<bool> {
    match T::DTYPE {
        DType::Half => Ok(true),
        DType::Float => Ok(false),
        other => Err(SimError::new(
            Category::Type,
            api,
            format!("T = {other} is not supported: {api} takes half or float"),
        )),
    }
}

fn need_size(api: &'static str, name: &str, size: u32, want: u32) -> Result<()> {
    if size < want {
        return Err(SimError::new(
            Category::Size,
            api,
            format!("`{name}` holds {size} elements, the tiling needs {want}"),
        ));
    }
    Ok(())
}

/// The views of the temporary buffer one `LayerNormGrad` call works in.
#[derive(Clone, Copy)]
struct Grad {
    p: Product,
    h: u32,
    inv_h: f32,
    two_inv_h: f32,
    bsh: LocalTensor<f32>,
    pd_var: LocalTensor<f32>,
    pd_mean: LocalTensor<f32>,
    x1: LocalTensor<f32>,
    x2: LocalTensor<f32>,
    x3: LocalTensor<f32>,
    tmp: LocalTensor<f32>,
    tmp1: LocalTensor<f32>,
    tmp2: LocalTensor<f32>,
}

/// `LayerNormGrad<T, isReuseSource>(outputPdX, resForGamma, inputDy, inputX, inputVariance,
/// inputMean, inputGamma, [sharedTmpBuffer,] epsilon, tiling)`: for each row of `[B·S, H]`,
/// `resForGamma = (x − mean) · (var + ε)^-½` and `outputPdX` the gradient of LayerNorm's input
/// (see the module documentation). `T`: half or float (computed in float). `tmp`: at least the
/// `stackBufferSize` the tiling was computed for. `reuse_source` (float only): `inputDy` and
/// `inputX` are overwritten as scratch.
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn layer_norm_grad<T: Element>(
    output_pd_x: &LocalTensor<T>,
    res_for_gamma: &LocalTensor<T>,
    input_dy: &LocalTensor<T>,
    input_x: &LocalTensor<T>,
    input_variance: &LocalTensor<T>,
    input_mean: &LocalTensor<T>,
    input_gamma: &LocalTensor<T>,
    tmp: Tmp,
    epsilon: T,
    tiling: &LayerNormGradTiling,
    reuse_source: bool,
) -> Result<()> {
    run(GRAD, SourceLoc::caller(), || {
        let p = require(GRAD, A2_A3_310P)?;
        let half = half_or_float::<T>(GRAD)?;
        if half && reuse_source {
            return Err(SimError::new(
                Category::Range,
                GRAD,
                "isReuseSource = true is not supported for half (float only)",
            ));
        }
        let t = tiling;
        if t.h_length == 0 || t.one_cal_size == 0 || t.one_cal_size != t.noh_cal_size * t.h_length {
            return Err(SimError::new(
                Category::Range,
                GRAD,
                format!(
                    "tiling hLength = {}, oneCalSize = {}, nohCalSize = {}: need oneCalSize = nohCalSize · hLength > 0 (fill it with GetLayerNormGradNDTilingInfo)",
                    t.h_length, t.one_cal_size, t.noh_cal_size
                ),
            ));
        }
        let buf = tmp.buffer(GRAD)?;
        if buf.get_size() < t.stack_buffer_size {
            return Err(SimError::new(
                Category::Size,
                GRAD,
                format!(
                    "sharedTmpBuffer holds {} bytes, the tiling was computed for stackBufferSize = {}",
                    buf.get_size(),
                    t.stack_buffer_size
                ),
            ));
        }
        let total = t.b_length * t.s_length * t.h_length;
        let rows = t.b_length * t.s_length;
        for (name, size) in [
            ("outputPdX", output_pd_x.get_size()),
            ("resForGamma", res_for_gamma.get_size()),
            ("inputDy", input_dy.get_size()),
            ("inputX", input_x.get_size()),
        ] {
            need_size(GRAD, name, size, total)?;
        }
        need_size(GRAD, "inputVariance", input_variance.get_size(), rows)?;
        need_size(GRAD, "inputMean", input_mean.get_size(), rows)?;
        need_size(GRAD, "inputGamma", input_gamma.get_size(), t.h_length)?;
        let f = buf.reinterpret_cast::<f32>();
        let mut used = vec![
            t.tmp_tensor_bsh_pos,
            t.pd_var_tensor_pos,
            t.pd_mean_tensor_pos,
            t.x3_tensor_pos,
        ];
        if !reuse_source || half {
            used.extend([t.x1_tensor_pos, t.x2_tensor_pos]);
        }
        if half {
            used.extend([t.tmp_tensor_pos, t.tmp_tensor1_pos, t.tmp_tensor2_pos]);
        }
        let end = used.iter().max().copied().unwrap_or(0) as u64 + t.one_cal_size as u64;
        if end > f.get_size() as u64 {
            return Err(SimError::new(
                Category::Size,
                GRAD,
                format!(
                    "the tiling's buffers end at float {end}, sharedTmpBuffer holds {} floats (nohCalSize = {} rows, rounded up to a 32-byte block of rows, exceeds what stackBufferSize holds per buffer): give a stackBufferSize holding a whole block of rows per buffer",
                    f.get_size(),
                    t.noh_cal_size
                ),
            ));
        }
        let g = Grad {
            p,
            h: t.h_length,
            inv_h: f32::from_bits(t.last_dim_value_back),
            two_inv_h: f32::from_bits(t.last_dim_value_back_mul_two),
            bsh: f.at(t.tmp_tensor_bsh_pos)?,
            pd_var: f.at(t.pd_var_tensor_pos)?,
            pd_mean: f.at(t.pd_mean_tensor_pos)?,
            x1: f.at(t.x1_tensor_pos)?,
            x2: f.at(t.x2_tensor_pos)?,
            x3: f.at(t.x3_tensor_pos)?,
            tmp: f.at(t.tmp_tensor_pos)?,
            tmp1: f.at(t.tmp_tensor1_pos)?,
            tmp2: f.at(t.tmp_tensor2_pos)?,
        };
        let eps = epsilon.to_f64() as f32;
        let pass = |at: u32, row: u32, cal: u32, noh: u32| -> Result<()> {
            let (pdx, rg, dy, x) = (
                output_pd_x.at(at)?,
                res_for_gamma.at(at)?,
                input_dy.at(at)?,
                input_x.at(at)?,
            );
            let (var, mean) = (input_variance.at(row)?, input_mean.at(row)?);
            if half {
                g.pass_half(
                    &pdx.reinterpret_cast(),
                    &rg.reinterpret_cast(),
                    &dy.reinterpret_cast(),
                    &x.reinterpret_cast(),
                    &var.reinterpret_cast(),
                    &mean.reinterpret_cast(),
                    &input_gamma.reinterpret_cast(),
                    eps,
                    cal,
                    noh,
                )
            } else {
                let mut g2 = Grad {
                    tmp: pdx.reinterpret_cast(),
                    ..g
                };
                if reuse_source {
                    g2.x1 = dy.reinterpret_cast();
                    g2.x2 = x.reinterpret_cast();
                }
                g2.pass_float(
                    &pdx.reinterpret_cast(),
                    &rg.reinterpret_cast(),
                    &dy.reinterpret_cast(),
                    &x.reinterpret_cast(),
                    &var.reinterpret_cast(),
                    &mean.reinterpret_cast(),
                    &input_gamma.reinterpret_cast(),
                    eps,
                    cal,
                    noh,
                )
            }
        };
        let (mut at, mut row) = (0, 0);
        for _ in 0..t.loop_num {
            pass(at, row, t.one_cal_size, t.noh_cal_size)?;
            at += t.one_cal_size;
            row += t.noh_cal_size;
        }
        if t.tail_size != 0 {
            pass(at, row, t.tail_size, t.noh_tail_size)?;
        }
        Ok(())
    })
}

impl Grad {
    #[allow(clippy::too_many_arguments)]
    fn pass_float(
        &self,
        pdx: &LocalTensor<f32>,
        rg: &LocalTensor<f32>,
        dy: &LocalTensor<f32>,
        x: &LocalTensor<f32>,
        var: &LocalTensor<f32>,
        mean: &LocalTensor<f32>,
        gamma: &LocalTensor<f32>,
        eps: f32,
        cal: u32,
        noh: u32,
    ) -> Result<()> {
        self.x1_of(dy, gamma, noh)?;
        self.x2_of(x, mean, cal, noh)?;
        self.pd_var_of(var, eps, cal, noh)?;
        self.pd_mean_of(var, rg, eps, cal, noh)?;
        barrier_v()?;
        self.pd_x_of(pdx, cal, noh)
    }

    #[allow(clippy::too_many_arguments)]
    fn pass_half(
        &self,
        pdx: &LocalTensor<f16>,
        rg: &LocalTensor<f16>,
        dy: &LocalTensor<f16>,
        x: &LocalTensor<f16>,
        var: &LocalTensor<f16>,
        mean: &LocalTensor<f16>,
        gamma: &LocalTensor<f16>,
        eps: f32,
        cal: u32,
        noh: u32,
    ) -> Result<()> {
        let none = RoundMode::CAST_NONE;
        cast(&self.tmp1, dy, none, cal)?;
        cast(&self.tmp2, gamma, none, self.h)?;
        barrier_v()?;
        self.x1_of(&self.tmp1, &self.tmp2, noh)?;
        cast(&self.tmp1, x, none, cal)?;
        cast(&self.tmp2, mean, none, noh)?;
        barrier_v()?;
        self.x2_of(&self.tmp1, &self.tmp2, cal, noh)?;
        cast(&self.tmp1, var, none, noh)?;
        barrier_v()?;
        self.pd_var_of(&self.tmp1, eps, cal, noh)?;
        self.pd_mean_of(&self.tmp1, &self.tmp2, eps, cal, noh)?;
        self.pd_x_of(&self.tmp, cal, noh)?;
        cast(pdx, &self.tmp, none, cal)?;
        cast(rg, &self.tmp2, none, cal)?;
        barrier_v()
    }

    /// `x1[r, ·] = dy[r, ·] · γ`.
    fn x1_of(&self, dy: &LocalTensor<f32>, gamma: &LocalTensor<f32>, noh: u32) -> Result<()> {
        for i in 0..noh {
            let at = i * self.h;
            mul(&self.x1.at(at)?, &dy.at(at)?, gamma, self.h)?;
        }
        barrier_v()
    }

    /// `x2 = x − mean` (mean spread over its rows).
    fn x2_of(
        &self,
        x: &LocalTensor<f32>,
        mean: &LocalTensor<f32>,
        cal: u32,
        noh: u32,
    ) -> Result<()> {
        self.spread(&self.bsh, mean, noh)?;
        barrier_v()?;
        sub(&self.x2, x, &self.bsh, cal)?;
        barrier_v()
    }

    /// `pdVar[r] = Σ −0.5 · x1 · x2 · (var + ε)^-1.5`.
    fn pd_var_of(&self, var: &LocalTensor<f32>, eps: f32, cal: u32, noh: u32) -> Result<()> {
        let (t, b) = (&self.tmp, &self.bsh);
        adds(t, var, eps, noh)?;
        barrier_v()?;
        mul(b, t, t, noh)?;
        barrier_v()?;
        mul(t, b, t, noh)?;
        barrier_v()?;
        sqrt(t, t, noh)?;
        barrier_v()?;
        one_div(t, b, noh)?;
        self.spread(b, t, noh)?;
        barrier_v()?;
        mul(b, &self.x2, b, cal)?;
        barrier_v()?;
        mul(b, &self.x1, b, cal)?;
        barrier_v()?;
        muls(b, b, -0.5, cal)?;
        barrier_v()?;
        self.row_sums(&self.pd_var, b, cal)?;
        barrier_v()
    }

    /// `resForGamma = x2 · r`, `x3 = x1 · r` (`r = (var + ε)^-½`), and `pdMean`.
    fn pd_mean_of(
        &self,
        var: &LocalTensor<f32>,
        rg: &LocalTensor<f32>,
        eps: f32,
        cal: u32,
        noh: u32,
    ) -> Result<()> {
        let (t, b) = (&self.tmp, &self.bsh);
        adds(t, var, eps, noh)?;
        barrier_v()?;
        sqrt(t, t, noh)?;
        barrier_v()?;
        one_div(t, b, noh)?;
        self.spread(b, t, noh)?;
        barrier_v()?;
        mul(rg, &self.x2, b, cal)?;
        barrier_v()?;
        mul(&self.x3, &self.x1, b, cal)?;
        barrier_v()?;
        muls(b, &self.x3, -1.0, cal)?;
        barrier_v()?;
        self.row_sums(&self.pd_mean, b, cal)?;
        muls(b, &self.x2, -2.0, cal)?;
        barrier_v()?;
        self.row_sums(t, b, cal)?;
        barrier_v()?;
        muls(t, t, self.inv_h, noh)?;
        barrier_v()?;
        mul(t, &self.pd_var, t, noh)?;
        barrier_v()?;
        add(&self.pd_mean, &self.pd_mean, t, noh)?;
        barrier_v()
    }

    /// `pdX = pdVar · (2/H₀) · x2 + pdMean · (1/H₀) + x3` into `out`.
    fn pd_x_of(&self, out: &LocalTensor<f32>, cal: u32, noh: u32) -> Result<()> {
        let b = &self.bsh;
        muls(&self.pd_var, &self.pd_var, self.two_inv_h, noh)?;
        barrier_v()?;
        self.spread(b, &self.pd_var, noh)?;
        barrier_v()?;
        mul(&self.x1, b, &self.x2, cal)?;
        barrier_v()?;
        muls(&self.pd_mean, &self.pd_mean, self.inv_h, noh)?;
        barrier_v()?;
        self.spread(b, &self.pd_mean, noh)?;
        add(&self.x1, &self.x1, b, cal)?;
        barrier_v()?;
        add(out, &self.x1, &self.x3, cal)?;
        barrier_v()
    }

    /// Row `r` of `dst` (rows of H) filled with `src[r]`, `rows` rows; then a barrier.
    fn spread(&self, dst: &LocalTensor<f32>, src: &LocalTensor<f32>, rows: u32) -> Result<()> {
        let h = self.h;
        if self.p == Product::Ascend310P {
            duplicate_rows(dst, src, rows, h)?;
        } else {
            let cols = h / BRCB_ROWS;
            let groups = rows / BRCB_ROWS;
            let whole = groups * BRCB_ROWS;
            let (full, rest) = (groups / MAX_REPEAT, groups % MAX_REPEAT);
            let params = BrcbRepeatParams::new(cols as u16, h as u16);
            let span = BRCB_ROWS * MAX_REPEAT;
            for i in 0..cols {
                for j in 0..full {
                    let d = dst.at(i * BRCB_ROWS + j * span * h)?;
                    brcb(&d, &src.at(j * span)?, MAX_REPEAT as u8, params)?;
                }
                if rest > 0 {
                    let d = dst.at(i * BRCB_ROWS + full * span * h)?;
                    brcb(&d, &src.at(full * span)?, rest as u8, params)?;
                }
                barrier_v()?;
            }
            if rows > whole {
                duplicate_rows(&dst.at(whole * h)?, &src.at(whole)?, rows - whole, h)?;
                barrier_v()?;
            }
        }
        barrier_v()
    }

    /// `dst[r] = Σ_h src[r, ·]` for the `cal / H` rows: 64-lane `WholeReduceSum`s, repeated
    /// on the partial sums (kept at `dst[r · H ..]`) until one is left.
    fn row_sums(&self, dst: &LocalTensor<f32>, src: &LocalTensor<f32>, cal: u32) -> Result<()> {
        let h = self.h;
        for i in 0..cal / h {
            let base = i * h;
            let mut total = h;
            let mut from = *src;
            while total > 1 {
                let (reps, tail) = (total / REP_FLOATS, total % REP_FLOATS);
                let (blocks, rest) = (reps / MAX_REPEAT, reps % MAX_REPEAT);
                for j in 0..blocks {
                    whole_reduce_sum(
                        &dst.at(base + j * MAX_REPEAT)?,
                        &from.at(base + j * MAX_REPEAT * REP_FLOATS)?,
                        REP_FLOATS,
                        MAX_REPEAT as i32,
                        1,
                        1,
                        8,
                    )?;
                }
                barrier_v()?;
                if rest > 0 {
                    let d = if total == REP_FLOATS {
                        dst.at(i)?
                    } else {
                        dst.at(base + blocks * MAX_REPEAT)?
                    };
                    let s = from.at(base + blocks * MAX_REPEAT * REP_FLOATS)?;
                    whole_reduce_sum(&d, &s, REP_FLOATS, rest as i32, 1, 1, 8)?;
                    barrier_v()?;
                }
                if tail > 0 {
                    let d = if total < REP_FLOATS {
                        dst.at(i)?
                    } else {
                        dst.at(base + reps)?
                    };
                    let s = from.at(base + reps * REP_FLOATS)?;
                    whole_reduce_sum(&d, &s, tail, 1, 1, 1, 8)?;
                    barrier_v()?;
                }
                total = total.div_ceil(REP_FLOATS);
                from = *dst;
            }
        }
        Ok(())
    }
}

/// `dst = 1 / src` over `n` elements in counter mode: a block of ones in `ones`, then `Div`
/// with the ones' block stride 0; normal mode on return.
fn one_div(dst: &LocalTensor<f32>, ones: &LocalTensor<f32>, n: u32) -> Result<()> {
    set_mask_count()?;
    set_vector_mask::<u8>(MaskMode::COUNTER, 8u64)?;
    duplicate_l0(ones, 1.0, MASK_PLACEHOLDER, 1, 1, 8)?;
    barrier_v()?;
    set_vector_mask::<u8>(MaskMode::COUNTER, n as u64)?;
    div_l0(
        dst,
        ones,
        dst,
        MASK_PLACEHOLDER,
        1,
        BinaryRepeatParams::new(1, 0, 1, 8, 0, 8),
    )?;
    barrier_v()?;
    set_mask_norm()
}

/// Row `r` of `dst` (rows of `h`) filled with `src[r]` by scalar reads and level-2
/// `Duplicate`s, after a V→S hand-over.
fn duplicate_rows(dst: &LocalTensor<f32>, src: &LocalTensor<f32>, rows: u32, h: u32) -> Result<()> {
    sync_event(GRAD, HardEvent::V_S)?;
    for start in (0..rows).step_by(BRCB_ROWS as usize) {
        let n = (rows - start).min(BRCB_ROWS);
        let vals = (start..start + n)
            .map(|r| src.get_value(r))
            .collect::<Result<Vec<_>>>()?;
        for (k, v) in (start..).zip(vals) {
            duplicate(&dst.at(k * h)?, v, h)?;
        }
    }
    Ok(())
}

fn four(shape: &[u32]) -> Option<(u32, u32, u32, u32)> {
    match *shape {
        [b, s, h, oh] if b > 0 && s > 0 && h > 0 && oh > 0 => Some((b, s, h, oh)),
        _ => None,
    }
}

/// Buffers of `oneCalSize` floats `LayerNormGrad` splits its space into.
fn grad_buffers(type_size: u32, reuse_source: bool) -> u32 {
    if type_size == 2 {
        9
    } else if reuse_source {
        4
    } else {
        6
    }
}

/// `GetLayerNormGradMaxMinTmpSize(srcShape [B, S, H, H₀], typeSize, isReuseSource, max, min)`:
/// bytes as `(max, min)`: `k · max(B·S·H, H²) · typeSize` and `k · min(B·S·H, H²) · typeSize`
/// with `k` = 9 (half), 4 (float reusing the source) or 6. `None` for another rank, a zero
/// dimension or a type size other than 2 and 4.
pub fn layer_norm_grad_max_min_tmp_size(
    shape: &[u32],
    type_size: u32,
    reuse_source: bool,
) -> Option<(u32, u32)> {
    let (b, s, h, _) = four(shape)?;
    if type_size != 2 && type_size != 4 {
        return None;
    }
    let (input, sq) = (b * s * h, h * h);
    let k = grad_buffers(type_size, reuse_source) * type_size;
    Some((k * input.max(sq), k * input.min(sq)))
}

/// `GetLayerNormGradNDTilingInfo(srcShape [B, S, H, H₀], stackBufferSize, typeSize,
/// isReuseSource, tiling)`: rows per pass = the buffer's floats / buffers / H, rounded up to a
/// 32-byte block of rows; the buffers' positions; `1/H₀` and `2/H₀`. `None` when the shape or
/// type size is refused or the buffer holds less than one row per buffer.
pub fn layer_norm_grad_tiling_info(
    shape: &[u32],
    stack_bytes: u32,
    type_size: u32,
    reuse_source: bool,
) -> Option<LayerNormGradTiling> {
    let (b, s, h, oh) = four(shape)?;
    if type_size != 2 && type_size != 4 {
        return None;
    }
    let bufs = grad_buffers(type_size, reuse_source);
    let one = stack_bytes / 4 / bufs / h * h;
    if one == 0 {
        return None;
    }
    let per_block = 32 / type_size;
    let noh = (one / h).div_ceil(per_block) * per_block;
    let one = noh * h;
    let input = b * s * h;
    let pd_var = one;
    let pd_mean = pd_var + one;
    let (x1, x2, x3) = if reuse_source && type_size == 4 {
        (0, 0, pd_mean + one)
    } else {
        (pd_mean + one, pd_mean + 2 * one, pd_mean + 3 * one)
    };
    let (t0, t1, t2) = if type_size == 2 {
        (x3 + one, x3 + 2 * one, x3 + 3 * one)
    } else {
        (0, 0, 0)
    };
    Some(LayerNormGradTiling {
        stack_buffer_size: stack_bytes,
        b_length: b,
        s_length: s,
        h_length: h,
        original_h_length: oh,
        one_cal_size: one,
        noh_cal_size: noh,
        loop_num: input / one,
        tail_size: input % one,
        noh_tail_size: input % one / h,
        tmp_tensor_bsh_pos: 0,
        tmp_tensor_bsh_size: one,
        pd_var_tensor_pos: pd_var,
        pd_var_tensor_size: one,
        pd_mean_tensor_pos: pd_mean,
        pd_mean_tensor_size: one,
        x1_tensor_pos: x1,
        x1_tensor_size: one,
        x2_tensor_pos: x2,
        x2_tensor_size: one,
        x3_tensor_pos: x3,
        x3_tensor_size: one,
        tmp_tensor_pos: t0,
        tmp_tensor_size: one,
        tmp_tensor1_pos: t1,
        tmp_tensor1_size: one,
        tmp_tensor2_pos: t2,
        tmp_tensor2_size: one,
        last_dim_value_back: (1.0f32 / oh as f32).to_bits(),
        last_dim_value_back_mul_two: (2.0f32 / oh as f32).to_bits(),
    })
}

/// `LayerNormGradBeta<T, isReuseSource>(outputPdGamma, outputPdBeta, resForGamma, inputDy,
/// [sharedTmpBuffer,] tiling)`: `pdGamma[h] = Σ_r dy[r, h] · resForGamma[r, h]` and `pdBeta[h] =
/// Σ_r dy[r, h]` for `h < originalHLength` (rows strided by `originalHLength`), summed row by row
/// in float. `T`: half or float. `tmp`: at least the tiling's `stackBufferSize` floats.
/// `reuse_source` (float): `resForGamma` is overwritten with the products.
#[track_caller]
pub fn layer_norm_grad_beta<T: Element>(
    output_pd_gamma: &LocalTensor<T>,
    output_pd_beta: &LocalTensor<T>,
    res_for_gamma: &LocalTensor<T>,
    input_dy: &LocalTensor<T>,
    tmp: Tmp,
    tiling: &LayerNormGradBetaTiling,
    reuse_source: bool,
) -> Result<()> {
    run(BETA, SourceLoc::caller(), || {
        require(BETA, A2_A3_310P)?;
        let half = half_or_float::<T>(BETA)?;
        let t = tiling;
        if t.one_cal_size == 0 || t.h_length == 0 {
            return Err(SimError::new(
                Category::Range,
                BETA,
                "tiling oneCalSize = 0: fill it with GetLayerNormGradBetaNDTilingInfo",
            ));
        }
        let f = tmp.buffer(BETA)?.reinterpret_cast::<f32>();
        if f.get_size() < t.stack_buffer_size {
            return Err(SimError::new(
                Category::Size,
                BETA,
                format!(
                    "sharedTmpBuffer holds {} floats, the tiling was computed for stackBufferSize = {} floats",
                    f.get_size(),
                    t.stack_buffer_size
                ),
            ));
        }
        let total = t.b_length * t.s_length * t.h_length;
        need_size(BETA, "resForGamma", res_for_gamma.get_size(), total)?;
        need_size(BETA, "inputDy", input_dy.get_size(), total)?;
        need_size(
            BETA,
            "outputPdGamma",
            output_pd_gamma.get_size(),
            t.h_length,
        )?;
        need_size(BETA, "outputPdBeta", output_pd_beta.get_size(), t.h_length)?;
        let hc = t.original_h_length;
        let prod = if !half && reuse_source {
            res_for_gamma.reinterpret_cast()
        } else {
            f.at(t.res_for_gamma_tmp_tensor_pos)?
        };
        let beta = BetaPass {
            hc,
            prod,
            gamma: f.at(t.gamma_temp_tensor_pos)?,
            beta: f.at(t.beta_temp_tensor_pos)?,
            dy: f.at(t.input_dy_tmp_tensor_pos)?,
        };
        set_mask_count()?;
        let pass = |at: u32, bsh: u32, rows: u32, first: bool| -> Result<()> {
            let (rg, dy) = (res_for_gamma.at(at)?, input_dy.at(at)?);
            if half {
                beta.half(
                    &rg.reinterpret_cast(),
                    &dy.reinterpret_cast(),
                    &output_pd_gamma.reinterpret_cast(),
                    &output_pd_beta.reinterpret_cast(),
                    bsh,
                    rows,
                    first,
                )
            } else {
                beta.float(
                    &rg.reinterpret_cast(),
                    &dy.reinterpret_cast(),
                    &output_pd_gamma.reinterpret_cast(),
                    &output_pd_beta.reinterpret_cast(),
                    bsh,
                    rows,
                    first,
                )
            }
        };
        pass(0, t.bsh_cur_length, t.bs_cur_length, true)?;
        let mut at = t.one_cal_size;
        for _ in 1..t.loop_round {
            pass(at, t.bsh_cur_length, t.bs_cur_length, false)?;
            at += t.one_cal_size;
        }
        if t.input_tail_size > 0 {
            pass(t.input_tail_pos, t.input_tail_size, t.bs_tail_size, false)?;
        }
        set_mask_norm()?;
        reset_mask()
    })
}

/// The float views one `LayerNormGradBeta` call works in.
struct BetaPass {
    /// Columns summed (and the row stride): `originalHLength`.
    hc: u32,
    prod: LocalTensor<f32>,
    gamma: LocalTensor<f32>,
    beta: LocalTensor<f32>,
    dy: LocalTensor<f32>,
}

/// `{1, 1, 1, 8, 8, 8}`.
const BINARY: BinaryRepeatParams = BinaryRepeatParams::new(1, 1, 1, 8, 8, 8);

impl BetaPass {
    #[allow(clippy::too_many_arguments)]
    fn float(
        &self,
        rg: &LocalTensor<f32>,
        dy: &LocalTensor<f32>,
        gamma: &LocalTensor<f32>,
        beta: &LocalTensor<f32>,
        bsh: u32,
        rows: u32,
        first: bool,
    ) -> Result<()> {
        set_vector_mask::<f32>(MaskMode::COUNTER, bsh as u64)?;
        mul_l0(&self.prod, dy, rg, MASK_PLACEHOLDER, 1, BINARY)?;
        barrier_v()?;
        self.column_sums(gamma, &self.prod, rows, first)?;
        self.column_sums(beta, dy, rows, first)
    }

    #[allow(clippy::too_many_arguments)]
    fn half(
        &self,
        rg: &LocalTensor<f16>,
        dy: &LocalTensor<f16>,
        gamma: &LocalTensor<f16>,
        beta: &LocalTensor<f16>,
        bsh: u32,
        rows: u32,
        first: bool,
    ) -> Result<()> {
        set_vector_mask::<f16>(MaskMode::COUNTER, bsh as u64)?;
        let widen = UnaryRepeatParams::new(1, 1, 8, 4);
        let none = RoundMode::CAST_NONE;
        cast_l0(&self.dy, dy, none, MASK_PLACEHOLDER, 1, widen)?;
        barrier_v()?;
        // The products go where the widened resForGamma is, as the device does.
        cast_l0(&self.prod, rg, none, MASK_PLACEHOLDER, 1, widen)?;
        barrier_v()?;
        self.float(
            &self.prod,
            &self.dy,
            &self.gamma,
            &self.beta,
            bsh,
            rows,
            first,
        )?;
        set_vector_mask::<f32>(MaskMode::COUNTER, self.hc as u64)?;
        let narrow = UnaryRepeatParams::new(1, 1, 4, 8);
        cast_l0(gamma, &self.gamma, none, MASK_PLACEHOLDER, 1, narrow)?;
        barrier_v()?;
        cast_l0(beta, &self.beta, none, MASK_PLACEHOLDER, 1, narrow)?;
        barrier_v()
    }

    /// `dst += Σ_r src[r · hc ..]` over `rows` rows (`first`: `dst` starts as row 0).
    fn column_sums(
        &self,
        dst: &LocalTensor<f32>,
        src: &LocalTensor<f32>,
        rows: u32,
        first: bool,
    ) -> Result<()> {
        set_vector_mask::<f32>(MaskMode::COUNTER, self.hc as u64)?;
        let mut start = 0;
        if first {
            adds_l0(
                dst,
                src,
                0.0,
                MASK_PLACEHOLDER,
                1,
                UnaryRepeatParams::new(1, 1, 8, 8),
            )?;
            start = 1;
            barrier_v()?;
        }
        for r in start..rows {
            add_l0(dst, &src.at(r * self.hc)?, dst, MASK_PLACEHOLDER, 1, BINARY)?;
            barrier_v()?;
        }
        Ok(())
    }
}

/// `GetLayerNormGradBetaMaxMinTmpSize(srcShape [B, S, H, H₀], typeSize, isReuseSource, max,
/// min)`: bytes as `(max, min)`: `B·S·H` floats (`max`) or `H` floats (`min`), times 4 for half
/// and 2 for float. `None` for another rank, a zero dimension or a type size other than 2, 4.
pub fn layer_norm_grad_beta_max_min_tmp_size(shape: &[u32], type_size: u32) -> Option<(u32, u32)> {
    let (b, s, h, _) = four(shape)?;
    if type_size != 2 && type_size != 4 {
        return None;
    }
    let k = if type_size == 2 { 4 } else { 2 };
    Some((k * b * s * h * 4, k * h * 4))
}

/// `GetLayerNormGradBetaNDTilingInfo(srcShape [B, S, H, H₀], stackBufferSize, typeSize,
/// isReuseSource, tiling)`: whole rows per pass (the buffer's floats; half: less 2·H, halved),
/// at most all rows, and the half path's buffer positions. `None` when the shape or type size is
/// refused or the buffer is below `2·H` floats or one row.
pub fn layer_norm_grad_beta_tiling_info(
    shape: &[u32],
    stack_bytes: u32,
    type_size: u32,
) -> Option<LayerNormGradBetaTiling> {
    let (b, s, h, oh) = four(shape)?;
    if type_size != 2 && type_size != 4 {
        return None;
    }
    let floats = stack_bytes / 4;
    if floats < 2 * h {
        return None;
    }
    let (bufs, mut one) = if type_size == 2 {
        (2, (floats - 2 * h) / 2)
    } else {
        (1, floats)
    };
    one = one / h * h;
    if one == 0 {
        return None;
    }
    let bsh = b * s * h;
    one = one.min(bsh);
    let tail = bsh % one;
    let mut t = LayerNormGradBetaTiling {
        stack_buffer_size: floats,
        b_length: b,
        s_length: s,
        h_length: h,
        original_h_length: oh,
        bsh_length: bsh,
        bs_length: b * s,
        one_cal_size: one,
        number_of_tmp_buf: bufs,
        loop_round: bsh / one,
        input_tail_size: tail,
        input_tail_pos: bsh - tail,
        bs_tail_size: tail / h,
        bsh_cur_length: one,
        bs_cur_length: one / h,
        ..Default::default()
    };
    if type_size == 2 {
        t.beta_temp_tensor_pos = h;
        t.input_dy_tmp_tensor_pos = 2 * h;
        t.res_for_gamma_tmp_tensor_pos = 2 * h + one;
    }
    Some(t)
}
