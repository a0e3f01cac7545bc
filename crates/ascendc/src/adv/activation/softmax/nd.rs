//! `SoftMax`, `SimpleSoftMax`, `LogSoftMax` and `AdjustSoftMaxRes` on ND data (rows of the
//! last axis), as the device computes them: per pass of `tiling.splitM` rows, the row max,
//! `x - max`, `Exp`, the row sum and the division (310P: multiplication by `1 / sum`) in float,
//! half data widened into the temporary buffer first and narrowed at the end (`CAST_ROUND` on
//! A2/A3, `CAST_NONE` on 310P); LogSoftMax then takes `Ln` and scales by log10(e) (the
//! device's LogSoftMax is the base-10 logarithm of the softmax).

use super::rows::{divide_rows, reduce_rows, row_op, Reduce, RowOp, Rows};
use super::tiling::{kernel_tiling, SoftMaxShapeInfo, SoftMaxTiling};
use super::v300;
use crate::adv::common::{barrier_v, require, run, Tmp, A2_A3_310P};
use crate::api::vec::cast::cast;
use crate::api::vec::duplicate::duplicate;
use crate::api::vec::mask::{reset_mask, set_mask_norm};
use crate::api::vec::scalar::muls;
use crate::api::vec::unary::{exp, ln};
use crate::chip::Product;
use crate::dtype::{DType, Element};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::numeric::RoundMode;
use crate::{f16, LocalTensor};

/// log10(e), LogSoftMax's scale after `Ln` (the device's 0.4342944819 is this float).
const LOG10_E: f32 = std::f32::consts::LOG10_E;

/// The rows of one call: `m` rows of `k` (aligned) elements, `ori_k` of them valid, and the
/// tiling the passes follow.
struct Plan {
    ori_k: u32,
    tiling: SoftMaxTiling,
}

/// Which operands a call has.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// SoftMax / LogSoftMax: computes max and sum.
    Full { log: bool },
    /// SoftMax without max/sum outputs.
    NoStats,
    /// SimpleSoftMax: max and sum are inputs.
    Simple,
}

fn type_error(api: &'static str, what: &str) -> SimError {
    SimError::new(Category::Type, api, what.to_string())
}

/// The shape of the call and the tiling to use: the given one, or the kernel's re-tiling for
/// the buffer when the shape differs from the tiling's (as the device does).
fn plan(
    api: &'static str,
    src_size: u32,
    shape_of_src: Option<crate::ShapeInfo>,
    shape: SoftMaxShapeInfo,
    tiling: &SoftMaxTiling,
    work_floats: u32,
    sizes: (u32, u32),
) -> Result<Plan> {
    let shape = if shape.src_m == 0 || shape.src_k == 0 {
        let info = shape_of_src.ok_or_else(|| {
            SimError::new(
                Category::Range,
                api,
                "softmaxShapeInfo is empty and srcTensor has no shape: pass {srcM, srcK, oriSrcM, oriSrcK}",
            )
        })?;
        let dims: Vec<u64> = info.shape[..info.shape_dim as usize]
            .iter()
            .map(|&d| d as u64)
            .collect();
        let odims: Vec<u64> = info.original_shape[..info.original_shape_dim as usize]
            .iter()
            .map(|&d| d as u64)
            .collect();
        let (m, k) = super::tiling::last_axis(&dims);
        let (om, ok) = if odims.is_empty() {
            (m, k)
        } else {
            super::tiling::last_axis(&odims)
        };
        SoftMaxShapeInfo {
            src_m: m,
            src_k: k,
            ori_src_m: om,
            ori_src_k: ok,
        }
    } else {
        shape
    };
    let elems = 32 / sizes.0;
    if shape.src_k % elems != 0 {
        return Err(SimError::new(
            Category::Align,
            api,
            format!(
                "softmaxShapeInfo.srcK = {} is not a multiple of {elems}: a row must be whole 32-byte blocks",
                shape.src_k
            ),
        ));
    }
    if shape.src_m * shape.src_k > src_size {
        return Err(SimError::new(
            Category::Size,
            api,
            format!(
                "softmaxShapeInfo {} x {} exceeds the {src_size} elements of srcTensor",
                shape.src_m, shape.src_k
            ),
        ));
    }
    let ori_k = if shape.ori_src_k == 0 {
        shape.src_k
    } else {
        shape.ori_src_k.min(shape.src_k)
    };
    let shape = SoftMaxShapeInfo {
        ori_src_m: if shape.ori_src_m == 0 {
            shape.src_m
        } else {
            shape.ori_src_m
        },
        ..shape
    };
    let tiling = if shape.src_k != tiling.src_k || shape.src_m != tiling.src_m {
        kernel_tiling(work_floats, &shape, sizes.0, sizes.1, false).ok_or_else(|| {
            SimError::new(
                Category::Size,
                api,
                format!(
                    "the temporary buffer of {work_floats} floats is too small for one row of {}: size it with GetSoftMaxMinTmpSize",
                    shape.src_k
                ),
            )
        })?
    } else {
        *tiling
    };
    if tiling.split_m == 0 {
        return Err(SimError::new(
            Category::Range,
            api,
            "tiling.splitM is 0: fill the tiling with SoftMaxTilingFunc",
        ));
    }
    Ok(Plan { ori_k, tiling })
}

/// Runs `pass(offset1, offset2, rows, split_size, reduce_size)` over the tiling's passes.
fn passes(
    t: &SoftMaxTiling,
    mut pass: impl FnMut(u32, u32, u32, u32, u32) -> Result<()>,
) -> Result<()> {
    for i in 0..t.range_m {
        pass(
            i * t.split_size,
            i * t.reduce_size,
            t.split_m,
            t.split_size,
            t.reduce_size,
        )?;
    }
    if t.tail_m != 0 {
        barrier_v()?;
        pass(
            t.range_m * t.split_size,
            t.range_m * t.reduce_size,
            t.tail_m,
            t.tail_split_size,
            t.tail_reduce_size,
        )?;
    }
    Ok(())
}

/// The float → half narrowing mode of the product.
fn narrow(p: Product) -> RoundMode {
    if p == Product::Ascend310P {
        RoundMode::CAST_NONE
    } else {
        RoundMode::CAST_ROUND
    }
}

/// `Ln`, then the scale by log10(e), over `n` floats.
fn log10(x: &LocalTensor<f32>, n: u32) -> Result<()> {
    ln(x, x, n)?;
    barrier_v()?;
    muls(x, x, LOG10_E, n)?;
    barrier_v()
}

/// The float work of one pass on `x` (in place): `m` rows of `ks`; row values into `rmax`,
/// `rsum` (each `rk` per row) with `scratch` of `m · 64` floats. `simple`: `rmax`/`rsum` are
/// given.
#[allow(clippy::too_many_arguments)]
fn pass_f32(
    p: Product,
    kind: Kind,
    x_out: &LocalTensor<f32>,
    x_in: &LocalTensor<f32>,
    rmax: &LocalTensor<f32>,
    rsum: &LocalTensor<f32>,
    scratch: &LocalTensor<f32>,
    r: Rows,
    n: u32,
    after_max: &mut dyn FnMut() -> Result<()>,
    after_sum: &mut dyn FnMut() -> Result<()>,
) -> Result<()> {
    if kind != Kind::Simple {
        reduce_rows(p, Reduce::Max, rmax, x_in, scratch, r)?;
        barrier_v()?;
        after_max()?;
    }
    row_op(RowOp::Sub, x_out, x_in, rmax, r.m, r.ks, r.rk)?;
    barrier_v()?;
    exp(x_out, x_out, n)?;
    barrier_v()?;
    if kind != Kind::Simple {
        reduce_rows(p, Reduce::Sum, rsum, x_out, scratch, r)?;
        barrier_v()?;
        after_sum()?;
    }
    if kind == Kind::Simple {
        row_op(RowOp::Div, x_out, x_out, rsum, r.m, r.ks, r.rk)?;
    } else {
        divide_rows(p, x_out, rsum, scratch, r.m, r.ks, r.rk)?;
    }
    if let Kind::Full { log: true } = kind {
        barrier_v()?;
        log10(x_out, n)?;
    }
    Ok(())
}

/// The shared body of SoftMax, SimpleSoftMax and LogSoftMax.
#[allow(clippy::too_many_arguments)]
pub(crate) fn softmax_call<T: Element, S: Element>(
    api: &'static str,
    kind: Kind,
    dst: &LocalTensor<T>,
    sum: Option<&LocalTensor<S>>,
    max: Option<&LocalTensor<S>>,
    src: &LocalTensor<T>,
    tmp: Tmp,
    tiling: &SoftMaxTiling,
    shape: SoftMaxShapeInfo,
) -> Result<()> {
    let log = matches!(kind, Kind::Full { log: true });
    let p = require(api, if log { A2_A3_310P } else { v300::PRODUCTS })?;
    let (t_half, s_half) = match (T::DTYPE, S::DTYPE) {
        (DType::Float, DType::Float) => (false, false),
        (DType::Half, DType::Half) => (true, true),
        (DType::Half, DType::Float) => (true, false),
        (t, s) => {
            return Err(type_error(
                api,
                &format!("T = {t} with max/sum of {s} is not supported: half or float data, max/sum of the same type or float for half"),
            ))
        }
    };
    if p == Product::Ascend310B && t_half != s_half {
        return Err(type_error(
            api,
            "half data with float max/sum is not supported on Ascend310B: max/sum of the data's type",
        ));
    }
    if p == Product::Ascend310B && kind == Kind::NoStats {
        return Err(SimError::new(
            Category::Unsupported,
            api,
            "SoftMax without sumTensor/maxTensor has no Ascend310B implementation: pass sumTensor and maxTensor",
        ));
    }
    let buf = tmp.buffer(api)?;
    let work = buf.reinterpret_cast::<f32>();
    let sizes = (if t_half { 2 } else { 4 }, if s_half { 2 } else { 4 });
    let plan = plan(
        api,
        src.get_size(),
        src.get_shape_info(),
        shape,
        tiling,
        work.get_size(),
        sizes,
    )?;
    let t = plan.tiling;
    let ks = t.src_k;
    let rk = t.reduce_k;
    let need = if t_half {
        t.split_size + t.reduce_size + t.split_m * 64
    } else if kind == Kind::NoStats {
        t.reduce_size + t.split_m * 64
    } else {
        t.split_m * 64
    };
    if work.get_size() < need {
        return Err(SimError::new(
            Category::Size,
            api,
            format!(
                "sharedTmpBuffer of {} bytes is too small for passes of {} rows of {ks}: {} bytes needed (GetSoftMaxMinTmpSize / SoftMaxTilingFunc with this buffer's size)",
                work.get_size() * 4,
                t.split_m,
                need * 4
            ),
        ));
    }
    if dst.get_size() < t.src_m * ks {
        return Err(SimError::new(
            Category::Size,
            api,
            format!(
                "dstTensor holds {} elements, {} x {ks} needed",
                dst.get_size(),
                t.src_m
            ),
        ));
    }
    for (name, s) in [("sumTensor", sum), ("maxTensor", max)] {
        if let Some(s) = s {
            if s.get_size() < t.src_m * rk {
                return Err(SimError::new(
                    Category::Size,
                    api,
                    format!(
                        "{name} holds {} elements, {} rows x {rk} needed",
                        s.get_size(),
                        t.src_m
                    ),
                ));
            }
        }
    }
    if p == Product::Ascend310B {
        let (sm, mx) = (
            sum.expect("310B has stats").reinterpret_cast::<T>(),
            max.expect("310B has stats").reinterpret_cast::<T>(),
        );
        let io = v300::Io {
            dst,
            sum: &sm,
            max: &mx,
            src,
        };
        return v300::softmax(api, kind == Kind::Simple, false, io, &work, &t, plan.ori_k);
    }
    set_mask_norm()?;
    reset_mask()?;
    barrier_v()?;
    passes(&t, |o1, o2, m, split, reduce| {
        let r = Rows {
            m,
            k: plan.ori_k,
            ks,
            rk,
        };
        if !t_half {
            let (d, s) = (
                dst.reinterpret_cast::<f32>().at(o1)?,
                src.reinterpret_cast::<f32>().at(o1)?,
            );
            let (rmax, rsum, scratch) = match (max, sum) {
                (Some(mx), Some(sm)) => (
                    mx.reinterpret_cast::<f32>().at(o2)?,
                    sm.reinterpret_cast::<f32>().at(o2)?,
                    work,
                ),
                _ => (work, work, work.at(t.reduce_size)?),
            };
            return pass_f32(
                p,
                kind,
                &d,
                &s,
                &rmax,
                &rsum,
                &scratch,
                r,
                split,
                &mut || Ok(()),
                &mut || Ok(()),
            );
        }
        // half data: widened into work[0 .. splitSize].
        let x = work;
        let d = dst.reinterpret_cast::<f16>().at(o1)?;
        cast(
            &x,
            &src.reinterpret_cast::<f16>().at(o1)?,
            RoundMode::CAST_NONE,
            split,
        )?;
        barrier_v()?;
        if s_half || kind == Kind::NoStats {
            let rows = work.at(t.split_size)?;
            let scratch = work.at(t.split_size + t.reduce_size)?;
            let (mut out_max, mut out_sum) = (None, None);
            if let (Some(mx), Some(sm)) = (max, sum) {
                out_max = Some(mx.reinterpret_cast::<f16>().at(o2)?);
                out_sum = Some(sm.reinterpret_cast::<f16>().at(o2)?);
            }
            if kind == Kind::Simple {
                // The given max, then the given sum, widened into the row buffer.
                cast(
                    &rows,
                    out_max.as_ref().expect("simple has max"),
                    RoundMode::CAST_NONE,
                    reduce,
                )?;
                barrier_v()?;
                row_op(RowOp::Sub, &x, &x, &rows, m, ks, rk)?;
                barrier_v()?;
                exp(&x, &x, split)?;
                barrier_v()?;
                cast(
                    &rows,
                    out_sum.as_ref().expect("simple has sum"),
                    RoundMode::CAST_NONE,
                    reduce,
                )?;
                barrier_v()?;
                row_op(RowOp::Div, &x, &x, &rows, m, ks, rk)?;
            } else {
                let mode = narrow(p);
                pass_f32(
                    p,
                    kind,
                    &x,
                    &x,
                    &rows,
                    &rows,
                    &scratch,
                    r,
                    split,
                    &mut || match &out_max {
                        Some(mx) => {
                            cast(mx, &rows, mode, reduce)?;
                            barrier_v()
                        }
                        None => Ok(()),
                    },
                    &mut || match &out_sum {
                        Some(sm) => {
                            cast(sm, &rows, mode, reduce)?;
                            barrier_v()
                        }
                        None => Ok(()),
                    },
                )?;
            }
        } else {
            let scratch = work.at(t.split_size)?;
            let (mx, sm) = (
                max.expect("stats").reinterpret_cast::<f32>().at(o2)?,
                sum.expect("stats").reinterpret_cast::<f32>().at(o2)?,
            );
            pass_f32(
                p,
                kind,
                &x,
                &x,
                &mx,
                &sm,
                &scratch,
                r,
                split,
                &mut || Ok(()),
                &mut || Ok(()),
            )?;
        }
        barrier_v()?;
        cast(&d, &x, narrow(p), split)
    })
}

/// `SoftMax<T, isReuseSource, isBasicBlock, isDataFormatNZ, config>(dst, sum, max, src,
/// [sharedTmpBuffer,] tiling, softmaxShapeInfo)`: per row of the last axis, `max` = the row
/// maximum, `sum` = Σ e^(x − max), `dst` = e^(x − max) / sum; `max` and `sum` hold each row's
/// value repeated over one 32-byte block (8 floats / 16 halves). `T`: half or float; `S` = `T`,
/// or float with half data. ND layout; A2, A3, 310P, 310B (310B: `S` = `T`; the 310B order is
/// the `v300` module's). Temporary space: `GetSoftMaxMinTmpSize` at
/// least; `tiling` from `SoftMaxTilingFunc` (re-tiled for the buffer when the shape differs).
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn softmax<T: Element, S: Element>(
    dst: &LocalTensor<T>,
    sum: &LocalTensor<S>,
    max: &LocalTensor<S>,
    src: &LocalTensor<T>,
    tmp: Tmp,
    tiling: &SoftMaxTiling,
    shape: SoftMaxShapeInfo,
) -> Result<()> {
    run("SoftMax", SourceLoc::caller(), || {
        softmax_call(
            "SoftMax",
            Kind::Full { log: false },
            dst,
            Some(sum),
            Some(max),
            src,
            tmp,
            tiling,
            shape,
        )
    })
}

/// `SoftMax<T, …>(dst, src, [sharedTmpBuffer,] tiling, softmaxShapeInfo)`: as [`softmax`]
/// without the max/sum outputs (they are kept in the temporary buffer).
#[track_caller]
pub fn softmax_no_stats<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: Tmp,
    tiling: &SoftMaxTiling,
    shape: SoftMaxShapeInfo,
) -> Result<()> {
    run("SoftMax", SourceLoc::caller(), || {
        softmax_call::<T, T>(
            "SoftMax",
            Kind::NoStats,
            dst,
            None,
            None,
            src,
            tmp,
            tiling,
            shape,
        )
    })
}

/// `SimpleSoftMax<T, …>(dst, inSum, inMax, src, [sharedTmpBuffer,] tiling, softmaxShapeInfo)`:
/// `dst` = e^(x − inMax) / inSum per row with the given row max and sum (no reduction). Types,
/// products and buffers as [`softmax`].
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn simple_softmax<T: Element, S: Element>(
    dst: &LocalTensor<T>,
    in_sum: &LocalTensor<S>,
    in_max: &LocalTensor<S>,
    src: &LocalTensor<T>,
    tmp: Tmp,
    tiling: &SoftMaxTiling,
    shape: SoftMaxShapeInfo,
) -> Result<()> {
    run("SimpleSoftMax", SourceLoc::caller(), || {
        softmax_call(
            "SimpleSoftMax",
            Kind::Simple,
            dst,
            Some(in_sum),
            Some(in_max),
            src,
            tmp,
            tiling,
            shape,
        )
    })
}

/// `LogSoftMax<T, isReuseSource, isDataFormatNZ>(dst, sum, max, src, sharedTmpBuffer, tiling,
/// softmaxShapeInfo)`: as [`softmax`], then `dst` = log10(softmax) (`Ln` then × log10(e), as
/// the device computes it). `T` = `S`: half or float; A2, A3, 310P.
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn log_softmax<T: Element>(
    dst: &LocalTensor<T>,
    sum: &LocalTensor<T>,
    max: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: Tmp,
    tiling: &SoftMaxTiling,
    shape: SoftMaxShapeInfo,
) -> Result<()> {
    run("LogSoftMax", SourceLoc::caller(), || {
        softmax_call(
            "LogSoftMax",
            Kind::Full { log: true },
            dst,
            Some(sum),
            Some(max),
            src,
            tmp,
            tiling,
            shape,
        )
    })
}

/// [`log_softmax`] with max/sum of another type than the data (refused with the API's type
/// error unless both are the data's type, as LogSoftMax takes one `T`).
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn log_softmax_mixed<T: Element, S: Element>(
    dst: &LocalTensor<T>,
    sum: &LocalTensor<S>,
    max: &LocalTensor<S>,
    src: &LocalTensor<T>,
    tmp: Tmp,
    tiling: &SoftMaxTiling,
    shape: SoftMaxShapeInfo,
) -> Result<()> {
    run("LogSoftMax", SourceLoc::caller(), || {
        if T::DTYPE != S::DTYPE {
            return Err(type_error(
                "LogSoftMax",
                &format!(
                    "max/sum of {} with T = {}: LogSoftMax takes one type",
                    S::DTYPE,
                    T::DTYPE
                ),
            ));
        }
        softmax_call(
            "LogSoftMax",
            Kind::Full { log: true },
            dst,
            Some(sum),
            Some(max),
            src,
            tmp,
            tiling,
            shape,
        )
    })
}

/// `AdjustSoftMaxRes<T1, T2, isDataFormatNZ, stepSizeMode>(softMaxRes, maxTensor, from, to,
/// softmaxShapeInfo)`: every row whose max (the first element of its 32-byte block in
/// `maxTensor`) has the bit pattern `from` (its low 16 bits for half) is set to `to`; returns
/// whether any row was. `T1`, `T2`: half or float; ND layout; A2, A3, 310P.
#[track_caller]
pub fn adjust_softmax_res<T1: Element, T2: Element>(
    res: &LocalTensor<T1>,
    max: &LocalTensor<T2>,
    from: u32,
    to: T1,
    shape: SoftMaxShapeInfo,
) -> Result<bool> {
    const API: &str = "AdjustSoftMaxRes";
    let mut hit = false;
    run(API, SourceLoc::caller(), || {
        require(API, A2_A3_310P)?;
        for d in [T1::DTYPE, T2::DTYPE] {
            if d != DType::Half && d != DType::Float {
                return Err(type_error(
                    API,
                    &format!("{d} is not supported: half or float"),
                ));
            }
        }
        let per_blk = 32 / T2::DTYPE.size() as u32;
        let (m, k) = (shape.src_m, shape.src_k);
        if m * k > res.get_size() || m * per_blk > max.get_size() {
            return Err(SimError::new(
                Category::Size,
                API,
                format!(
                    "softmaxShapeInfo {m} x {k} exceeds softMaxRes ({}) or maxTensor ({} for {m} rows of {per_blk})",
                    res.get_size(),
                    max.get_size()
                ),
            ));
        }
        for i in 0..m {
            let bits = match T2::DTYPE {
                DType::Float => max
                    .reinterpret_cast::<f32>()
                    .get_value(i * per_blk)?
                    .to_bits(),
                _ => max
                    .reinterpret_cast::<f16>()
                    .get_value(i * per_blk)?
                    .to_bits() as u32,
            };
            let want = if T2::DTYPE == DType::Float {
                from
            } else {
                from & 0xFFFF
            };
            if bits == want {
                hit = true;
                duplicate(&res.at(i * k)?, to, k)?;
            }
        }
        Ok(())
    })?;
    Ok(hit)
}
