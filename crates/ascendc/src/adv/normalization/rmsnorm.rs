//! `RmsNorm` (归一化操作/RmsNorm): `dst = src / sqrt(mean(src², last axis) + ε) · γ` over a
//! `[B, S, H]` tensor, half or float; A2, A3 and 310P.
//!
//! As the device does it, in counter mode, `mainBsLength` rows at a time: half rows are widened
//! to float; `x²`; a per-row sum (repeated `RepeatReduceSum` over the original H, or with
//! `isBasicBlock` an `Add` fold of the 64-wide column blocks and one `RepeatReduceSum`); `· 1/H`;
//! `+ ε`; the inverse root as `exp(-0.5 · ln(·))`; a per-row `Muls` by that factor (basic block
//! with many rows: `Brcb` on A2/A3 or `TransDataTo5HD` on 310P, `Adds 0` and one `Mul`); `· γ`
//! (γ widened for half) and, for half, the narrowing back. The temporary buffer holds the row
//! sums (`mainBsLengthAlign` floats), the product rows (`mainBshLength` floats) and, for half,
//! the widened rows (`mainBshLength` floats).

use crate::adv::common::{barrier_v, require, run, sync_event, Tmp, A2_A3_310P};
use crate::api::vec::binary::{add_l0, mul_l0};
use crate::api::vec::cast::cast_l0;
use crate::api::vec::fill::{brcb, BrcbRepeatParams};
use crate::api::vec::mask::{reset_mask, set_mask_count, set_mask_norm, set_vector_mask};
use crate::api::vec::reduce::repeat_reduce_sum;
use crate::api::vec::scalar::{adds_l0, muls_l0};
use crate::api::vec::trans_data::{trans_data_to_5hd, TransDataTo5HDParams};
use crate::api::vec::unary::{exp_l0, ln_l0};
use crate::chip::Product;
use crate::dtype::{DType, Element};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::numeric::RoundMode;
use crate::{
    BinaryRepeatParams, HardEvent, LocalTensor, Mask, MaskMode, UnaryRepeatParams, MASK_PLACEHOLDER,
};

const API: &str = "RmsNorm";
/// Columns of one basic block (`isBasicBlock`: H is a multiple of it).
const BASIC_H: u32 = 64;
/// Rows of one basic block.
const BASIC_BS: u32 = 8;
/// Floats of one 32-byte block.
const FLOAT_PER_BLOCK: u32 = 8;
/// The most rows one pass takes without basic blocks (a repeat count).
const MAX_REPEAT: u32 = 255;

/// The tiling `GetRmsNormTilingInfo` fills (`RmsNormTiling`, field order and types as the
/// kernel reads it from GM). Lengths in elements.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct RmsNormTiling {
    /// B of the `[B, S, H]` source.
    pub b_length: u32,
    /// S.
    pub s_length: u32,
    /// H (padded to whole 32-byte blocks).
    pub h_length: u32,
    /// H before padding: the count the mean divides by and the row sums cover.
    pub original_h_length: u32,
    /// `1 / originalHLength`.
    pub reciprocal_of_h_length: f32,
    /// Elements of one pass (`mainBsLength · hLength`).
    pub main_bsh_length: u32,
    /// Rows of one pass.
    pub main_bs_length: u32,
    /// `mainBsLength` rounded up to 8 (the float row sums' block).
    pub main_bs_length_align: u32,
    /// Full passes.
    pub loop_round: u32,
    /// Element offset of the tail pass.
    pub input_tail_pos: u32,
    /// Elements of the tail pass.
    pub tail_bsh_length: u32,
    /// Rows of the tail pass (0: none).
    pub tail_bs_length: u32,
}

/// `RmsNorm<T, isBasicBlock>(dst, src, gamma, [sharedTmpBuffer,] epsilon, tiling)`: for each
/// row `r` of `[B·S, H]`, `dst[r, h] = src[r, h] · (Σ_{h<H₀} src[r, h]² / H₀ + ε)^(-1/2) ·
/// gamma[h]` with `H₀ = originalHLength`. `T`: half or float (computed in float). `tmp`: the
/// caller's buffer or the pipe's stack, at least `GetRmsNormMaxMinTmpSize`'s minimum and the
/// size `tiling` was computed for. `basic_block`: the `isBasicBlock` template argument (H a
/// multiple of 64 below 2048, B·S a multiple of 8).
#[track_caller]
pub fn rms_norm<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    gamma: &LocalTensor<T>,
    tmp: Tmp,
    epsilon: T,
    tiling: &RmsNormTiling,
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
                    format!("T = {other} is not supported: RmsNorm takes half or float"),
                ))
            }
        };
        check_tiling(tiling)?;
        let buf = tmp.buffer(API)?.reinterpret_cast::<f32>();
        let need = tiling.main_bs_length_align + tiling.main_bsh_length * if half { 2 } else { 1 };
        if buf.get_size() < need {
            return Err(SimError::new(
                Category::Size,
                API,
                format!(
                    "sharedTmpBuffer holds {} floats, the tiling needs {need} (mainBsLengthAlign + {} · mainBshLength): pass the buffer size the tiling was computed for",
                    buf.get_size(),
                    if half { 2 } else { 1 }
                ),
            ));
        }
        let total = tiling.b_length * tiling.s_length * tiling.h_length;
        for (name, t) in [("dstLocal", dst.get_size()), ("srcLocal", src.get_size())] {
            if t < total {
                return Err(SimError::new(
                    Category::Size,
                    API,
                    format!("`{name}` holds {t} elements, the tiling's B·S·H is {total}"),
                ));
            }
        }
        if gamma.get_size() < tiling.h_length {
            return Err(SimError::new(
                Category::Size,
                API,
                format!(
                    "`gammaLocal` holds {} elements, the tiling's H is {}",
                    gamma.get_size(),
                    tiling.h_length
                ),
            ));
        }
        let ctx = Pass {
            p,
            basic_block,
            tiling,
            eps: epsilon.to_f64() as f32,
            reduced: buf,
            prod: buf.at(tiling.main_bs_length_align)?,
            wide: if half {
                Some(buf.at(tiling.main_bs_length_align + tiling.main_bsh_length)?)
            } else {
                None
            },
        };
        set_mask_count()?;
        for i in 0..tiling.loop_round {
            let at = i * tiling.main_bsh_length;
            ctx.compute(
                &dst.at(at)?,
                &src.at(at)?,
                gamma,
                tiling.main_bs_length,
                tiling.main_bsh_length,
            )?;
        }
        if tiling.tail_bs_length != 0 {
            let at = tiling.input_tail_pos;
            ctx.compute(
                &dst.at(at)?,
                &src.at(at)?,
                gamma,
                tiling.tail_bs_length,
                tiling.tail_bsh_length,
            )?;
        }
        set_mask_norm()?;
        reset_mask()
    })
}

/// The tiling's consistency (what a hand-filled struct can get wrong).
fn check_tiling(t: &RmsNormTiling) -> Result<()> {
    let bad = |rule: String| Err(SimError::new(Category::Range, API, rule));
    if t.h_length == 0 || t.original_h_length == 0 || t.original_h_length > t.h_length {
        return bad(format!(
            "tiling hLength = {} / originalHLength = {}: need 0 < originalHLength ≤ hLength (fill it with GetRmsNormTilingInfo)",
            t.h_length, t.original_h_length
        ));
    }
    if t.main_bs_length == 0 || t.main_bsh_length != t.main_bs_length * t.h_length {
        return bad(format!(
            "tiling mainBsLength = {} / mainBshLength = {}: need mainBshLength = mainBsLength · hLength > 0",
            t.main_bs_length, t.main_bsh_length
        ));
    }
    Ok(())
}

/// What one pass over a group of rows shares.
struct Pass<'a> {
    p: Product,
    basic_block: bool,
    tiling: &'a RmsNormTiling,
    eps: f32,
    /// Row sums, then the per-row factors.
    reduced: LocalTensor<f32>,
    /// `x²`, then the normalised rows.
    prod: LocalTensor<f32>,
    /// half: the widened rows, then the widened γ.
    wide: Option<LocalTensor<f32>>,
}

/// `{1, 1, 8, 8}`.
const UNARY: UnaryRepeatParams = UnaryRepeatParams::new(1, 1, 8, 8);
/// `{1, 1, 1, 8, 8, 8}`.
const BINARY: BinaryRepeatParams = BinaryRepeatParams::new(1, 1, 1, 8, 8, 8);

fn count<T: Element>(n: u32) -> Result<()> {
    set_vector_mask::<T>(MaskMode::COUNTER, n as u64)
}

impl Pass<'_> {
    /// `RmsNormCompute` on `bs` rows (`bsh` elements) at `dst`/`src`.
    fn compute<T: Element>(
        &self,
        dst: &LocalTensor<T>,
        src: &LocalTensor<T>,
        gamma: &LocalTensor<T>,
        bs: u32,
        bsh: u32,
    ) -> Result<()> {
        let h = self.tiling.h_length;
        count::<T>(bsh)?;
        let x = match &self.wide {
            Some(wide) => {
                let s: LocalTensor<crate::f16> = src.reinterpret_cast();
                cast_l0(wide, &s, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, WIDEN)?;
                barrier_v()?;
                *wide
            }
            None => src.reinterpret_cast(),
        };
        mul_l0(&self.prod, &x, &x, MASK_PLACEHOLDER, 1, BINARY)?;
        barrier_v()?;
        self.reduce_sum(bs)?;
        count::<T>(bs)?;
        let r = &self.reduced;
        muls_l0(
            r,
            r,
            self.tiling.reciprocal_of_h_length,
            MASK_PLACEHOLDER,
            1,
            UNARY,
        )?;
        barrier_v()?;
        adds_l0(r, r, self.eps, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        ln_l0(r, r, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        muls_l0(r, r, -0.5, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        exp_l0(r, r, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        self.first_axis_mul(&x, bs, bsh)?;
        barrier_v()?;
        match &self.wide {
            Some(wide) => {
                count::<T>(h)?;
                let g: LocalTensor<crate::f16> = gamma.reinterpret_cast();
                cast_l0(wide, &g, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, WIDEN)?;
                barrier_v()?;
                self.last_axis_mul(&self.prod, &self.prod, wide, bs)?;
                count::<T>(bsh)?;
                let d: LocalTensor<crate::f16> = dst.reinterpret_cast();
                cast_l0(
                    &d,
                    &self.prod,
                    RoundMode::CAST_NONE,
                    MASK_PLACEHOLDER,
                    1,
                    NARROW,
                )?;
            }
            None => {
                self.last_axis_mul(
                    &dst.reinterpret_cast(),
                    &self.prod,
                    &gamma.reinterpret_cast(),
                    bs,
                )?;
            }
        }
        barrier_v()
    }

    /// Row sums of `prod` into `reduced[0 .. bs]`.
    fn reduce_sum(&self, bs: u32) -> Result<()> {
        let (h, prod) = (self.tiling.h_length, &self.prod);
        if self.basic_block {
            count::<f32>(bs * BASIC_H)?;
            let rep = (h / FLOAT_PER_BLOCK) as u8;
            let params = BinaryRepeatParams::new(1, 1, 1, rep, rep, rep);
            for i in 1..h / BASIC_H {
                add_l0(
                    prod,
                    prod,
                    &prod.at(i * BASIC_H)?,
                    MASK_PLACEHOLDER,
                    1,
                    params,
                )?;
                barrier_v()?;
            }
            repeat_reduce_sum(
                &self.reduced,
                prod,
                1,
                MASK_PLACEHOLDER,
                1,
                1,
                1,
                rep as i32,
            )?;
            return barrier_v();
        }
        // Each row: 64-lane partial sums in place until one is left, the last into `reduced[i]`.
        for i in 0..bs {
            let src = prod.at(i * h)?;
            let mut dst = src;
            let mut total = self.tiling.original_h_length;
            while total > 1 {
                if total <= BASIC_H {
                    dst = self.reduced.at(i)?;
                }
                count::<f32>(total)?;
                repeat_reduce_sum(&dst, &src, 1, MASK_PLACEHOLDER, 1, 1, 1, 8)?;
                barrier_v()?;
                total = total.div_ceil(BASIC_H);
            }
        }
        Ok(())
    }

    /// `prod[r, ·] = x[r, ·] · reduced[r]`.
    fn first_axis_mul(&self, x: &LocalTensor<f32>, bs: u32, bsh: u32) -> Result<()> {
        let h = self.tiling.h_length;
        if self.basic_block && bs > BASIC_BS && bs > h / BASIC_H {
            self.basic_block_brc(bs)?;
            count::<f32>(bsh)?;
            mul_l0(&self.prod, &self.prod, x, MASK_PLACEHOLDER, 1, BINARY)?;
            return barrier_v();
        }
        count::<f32>(h)?;
        sync_event(API, HardEvent::V_S)?;
        for i in 0..bs {
            let at = i * h;
            let factor = self.reduced.get_value(i)?;
            muls_l0(
                &self.prod.at(at)?,
                &x.at(at)?,
                factor,
                MASK_PLACEHOLDER,
                1,
                UNARY,
            )?;
        }
        barrier_v()?;
        count::<f32>(bsh)
    }

    /// Every row `r` of `prod` filled with `reduced[r]` (basic blocks, `bs` a multiple of 8).
    fn basic_block_brc(&self, bs: u32) -> Result<()> {
        let h = self.tiling.h_length;
        let blk = h / FLOAT_PER_BLOCK;
        let prod = &self.prod;
        if self.p == Product::Ascend310P {
            // No Brcb: TransDataTo5HD spreads each sum over the first block of its row.
            let mut rows = [*prod; 16];
            for (k, row) in (0u32..).zip(rows.iter_mut()) {
                *row = prod.at(k / 2 * h + k % 2 * FLOAT_PER_BLOCK)?;
            }
            let sums = [self.reduced; 16];
            let params =
                TransDataTo5HDParams::new(false, false, (bs / FLOAT_PER_BLOCK) as u8, h as u16, 1);
            trans_data_to_5hd(&rows, &sums, params)?;
            barrier_v()?;
        } else {
            set_mask_norm()?;
            reset_mask()?;
            let params = BrcbRepeatParams::new(blk as u16, (blk * BASIC_BS) as u16);
            brcb(prod, &self.reduced, (bs / BASIC_BS) as u8, params)?;
            barrier_v()?;
            set_mask_count()?;
        }
        count::<f32>(bs * BASIC_H)?;
        let params = UnaryRepeatParams::new(1, 0, blk as u8, blk as u8);
        for i in 0..h / BASIC_H {
            adds_l0(
                &prod.at(i * BASIC_H)?,
                prod,
                0.0,
                MASK_PLACEHOLDER,
                1,
                params,
            )?;
        }
        barrier_v()
    }

    /// `dst[r, ·] = src[r, ·] · g[·]` over `bs` rows.
    fn last_axis_mul(
        &self,
        dst: &LocalTensor<f32>,
        src: &LocalTensor<f32>,
        g: &LocalTensor<f32>,
        bs: u32,
    ) -> Result<()> {
        let h = self.tiling.h_length;
        if !self.basic_block && h == BASIC_H {
            count::<f32>(bs * h)?;
            mul_l0(
                dst,
                src,
                g,
                MASK_PLACEHOLDER,
                1,
                BinaryRepeatParams::new(1, 1, 1, 8, 8, 0),
            )?;
        } else if !self.basic_block && h < BASIC_H {
            set_mask_norm()?;
            set_vector_mask::<f32>(MaskMode::NORMAL, Mask::Bits([(1u64 << h) - 1, 0]))?;
            let rep = (h / FLOAT_PER_BLOCK) as u8;
            let params = BinaryRepeatParams::new(1, 1, 1, rep, rep, 0);
            mul_l0(dst, src, g, MASK_PLACEHOLDER, bs as u8, params)?;
            set_mask_count()?;
        } else {
            let blocks = h / BASIC_H;
            if blocks >= bs {
                count::<f32>(h)?;
                for i in 0..bs {
                    let at = i * h;
                    mul_l0(&dst.at(at)?, &src.at(at)?, g, MASK_PLACEHOLDER, 1, BINARY)?;
                }
            } else {
                count::<f32>(bs * BASIC_H)?;
                let rep = (h / FLOAT_PER_BLOCK) as u8;
                let params = BinaryRepeatParams::new(1, 1, 1, rep, rep, 0);
                for i in 0..blocks {
                    let at = i * BASIC_H;
                    mul_l0(
                        &dst.at(at)?,
                        &src.at(at)?,
                        &g.at(at)?,
                        MASK_PLACEHOLDER,
                        1,
                        params,
                    )?;
                }
                if !h.is_multiple_of(BASIC_H) {
                    let at = blocks * BASIC_H;
                    set_mask_norm()?;
                    set_vector_mask::<f32>(
                        MaskMode::NORMAL,
                        Mask::Bits([(1u64 << (h - at)) - 1, 0]),
                    )?;
                    mul_l0(
                        &dst.at(at)?,
                        &src.at(at)?,
                        &g.at(at)?,
                        MASK_PLACEHOLDER,
                        bs as u8,
                        params,
                    )?;
                    set_mask_count()?;
                }
            }
        }
        barrier_v()
    }
}

/// half → float (`{1, 1, 8, 4}`).
const WIDEN: UnaryRepeatParams = UnaryRepeatParams::new(1, 1, 8, 4);
/// float → half (`{1, 1, 4, 8}`).
const NARROW: UnaryRepeatParams = UnaryRepeatParams::new(1, 1, 4, 8);

/// A `[B, S, H]` shape's three lengths, or `None` for another rank.
fn bsh(shape: &[u32]) -> Option<(u32, u32, u32)> {
    match *shape {
        [b, s, h] => Some((b, s, h)),
        _ => None,
    }
}

/// Whether `[B, S, H]` breaks the basic-block rule (H a multiple of 64 below 2048, B·S a
/// multiple of 8).
fn not_basic(b: u32, s: u32, h: u32) -> bool {
    !h.is_multiple_of(BASIC_H) || !(b * s).is_multiple_of(BASIC_BS) || h >= 2048
}

/// `GetRmsNormMaxMinTmpSize(srcShape, typeSize, maxValue, minValue, isBasicBlock)`: bytes of
/// temporary space for a `[B, S, H]` source as `(max, min)`: all rows at once
/// (`B·S·H` floats, twice for half, plus `B·S` rounded up to a block of `typeSize`) or one row
/// (`H` floats, twice for half, plus 8). `None` (false) for a shape that breaks the basic-block
/// rule when `basic_block`.
pub fn rms_norm_max_min_tmp_size(
    shape: &[u32],
    type_size: u32,
    basic_block: bool,
) -> Option<(u32, u32)> {
    let (b, s, h) = bsh(shape)?;
    if basic_block && not_basic(b, s, h) {
        return None;
    }
    let coeff = if type_size == 2 { 2 } else { 1 };
    let unit = 32 / type_size.max(1);
    let bs_align = (b * s).div_ceil(unit) * unit;
    let max = b * s * h * coeff + bs_align;
    let min = h * coeff + FLOAT_PER_BLOCK;
    Some((max * 4, min * 4))
}

/// `GetRmsNormTilingInfo(srcShape, originSrcShape, stackBufferByteSize, typeSize, tiling,
/// isBasicBlock)`: the most rows one pass of `stack_bytes` of temporary space takes (at most
/// 255, or a multiple of 8 with basic blocks) and the passes over a `[B, S, H]` source whose
/// H was `originSrcShape`'s before padding. `None` (false) for shapes of another rank, B or S
/// differing, H not whole 32-byte blocks or below the original, a basic-block shape breaking
/// its rule, or a buffer below the minimum.
pub fn rms_norm_tiling_info(
    shape: &[u32],
    origin: &[u32],
    stack_bytes: u32,
    type_size: u32,
    basic_block: bool,
) -> Option<RmsNormTiling> {
    let (b, s, h) = bsh(shape)?;
    let (ob, os, oh) = bsh(origin)?;
    if b != ob || s != os || h < oh || oh == 0 || !(h * type_size).is_multiple_of(32) {
        return None;
    }
    if basic_block && not_basic(b, s, h) {
        return None;
    }
    let coeff = if type_size == 4 { 1 } else { 2 };
    if stack_bytes < (h * coeff + FLOAT_PER_BLOCK) * 4 {
        return None;
    }
    let total = stack_bytes / 4;
    let mut rows = 1u32;
    while total >= (rows + 1) * h * coeff + (rows + 1).div_ceil(8) * 8 {
        rows += 1;
    }
    let input = b * s * h;
    let mut rows = (rows * h).min(input) / h;
    if basic_block {
        if rows >= BASIC_BS {
            rows = rows / BASIC_BS * BASIC_BS;
        }
    } else {
        rows = rows.min(MAX_REPEAT);
    }
    let main = rows * h;
    let tail = input % main;
    Some(RmsNormTiling {
        b_length: b,
        s_length: s,
        h_length: h,
        original_h_length: oh,
        reciprocal_of_h_length: (1.0f64 / oh as f32 as f64) as f32,
        main_bsh_length: main,
        main_bs_length: rows,
        main_bs_length_align: rows.div_ceil(8) * 8,
        loop_round: input / main,
        input_tail_pos: input - tail,
        tail_bsh_length: tail,
        tail_bs_length: tail / h,
    })
}
