//! Cast: element type conversion with a rounding mode (`numerics.md` §6).
//!
//! Lanes per repeat follow the wider type (half → int32: 64 lanes; the half source then uses
//! 4 blocks per repeat, hence `srcRepStride = 4` for contiguous data). Integer targets saturate
//! at their range (NaN → 0; a negative value cast to an unsigned type gives 0 and a warning), or
//! keep the low bits of the integer result after `SetSaturationFlag<CAST>(false)`;
//! half/bfloat16 targets follow the fp16 overflow mode; float never saturates. Conversions to
//! and from `int4b_t` run in `cast_int4`.

use super::binary::lanes_for;
use super::support::{cast_rules, CastKind};
use super::unary::unary_operands;
use super::{run, Count, Issue, Mask, UnaryRepeatParams};
use crate::api::context::with_core;
use crate::api::tensor::LocalTensor;
use crate::core::vector::map1;
use crate::core::Core;
use crate::dtype::{DType, Int4, TensorElement};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::numeric::{round_integral, CastElem, Exact, RoundMode};
use std::cell::Cell;

pub(super) const API: &str = "Cast";

/// The conversion kind of `src → dst` with `mode` on the running product, or the error naming
/// what the product converts from `src` or the modes it accepts.
pub(super) fn cast_kind(core: &Core, src: DType, dst: DType, mode: RoundMode) -> Result<CastKind> {
    let rules = cast_rules(core.profile.product);
    let Some(rule) = rules.iter().find(|r| r.src == src && r.dst == dst) else {
        let targets: Vec<&str> = rules
            .iter()
            .filter(|r| r.src == src)
            .map(|r| r.dst.c_name())
            .collect();
        return Err(SimError::new(
            Category::Type,
            API,
            format!(
                "conversion {src} → {dst} is not supported on {} (from {src}: {})",
                core.profile.soc,
                if targets.is_empty() {
                    "none".to_string()
                } else {
                    targets.join(", ")
                }
            ),
        ));
    };
    if !rule.modes.contains(&mode) {
        let ok: Vec<String> = rule.modes.iter().map(|m| m.to_string()).collect();
        return Err(SimError::new(
            Category::Range,
            API,
            format!(
                "parameter `roundMode` = {mode} is not accepted for {src} → {dst} on {} (accepted: {})",
                core.profile.soc,
                ok.join(", ")
            ),
        ));
    }
    Ok(rule.kind)
}

/// One `Cast` call's arguments other than the tensors.
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct CastCall {
    pub(super) loc: SourceLoc,
    pub(super) mode: RoundMode,
    pub(super) issue: Issue,
    pub(super) params: UnaryRepeatParams,
}

/// The element types `Cast` converts between: every [`CastElem`], and [`Int4`] (`int4b_t`).
pub trait CastType: TensorElement {
    /// Runs `dst ← src` (dispatches on the source type next).
    #[doc(hidden)]
    fn cast_into<S: CastType>(
        call: CastCall,
        dst: &LocalTensor<Self>,
        src: &LocalTensor<S>,
    ) -> Result<()>;
    /// Runs `dst ← src` for a destination type already known.
    #[doc(hidden)]
    fn cast_from<D: CastElem>(
        call: CastCall,
        dst: &LocalTensor<D>,
        src: &LocalTensor<Self>,
    ) -> Result<()>;
}

impl<T: CastElem> CastType for T {
    fn cast_into<S: CastType>(
        call: CastCall,
        dst: &LocalTensor<T>,
        src: &LocalTensor<S>,
    ) -> Result<()> {
        S::cast_from(call, dst, src)
    }
    fn cast_from<D: CastElem>(
        call: CastCall,
        dst: &LocalTensor<D>,
        src: &LocalTensor<T>,
    ) -> Result<()> {
        cast_run(call, dst, src)
    }
}

impl CastType for Int4 {
    fn cast_into<S: CastType>(
        call: CastCall,
        dst: &LocalTensor<Int4>,
        src: &LocalTensor<S>,
    ) -> Result<()> {
        super::cast_int4::cast_packed(call, dst, src)
    }
    fn cast_from<D: CastElem>(
        call: CastCall,
        dst: &LocalTensor<D>,
        src: &LocalTensor<Int4>,
    ) -> Result<()> {
        super::cast_int4::cast_packed(call, dst, src)
    }
}

fn cast_run<D: CastElem, S: CastElem>(
    call: CastCall,
    dst: &LocalTensor<D>,
    src: &LocalTensor<S>,
) -> Result<()> {
    let CastCall {
        loc,
        mode,
        issue,
        params: p,
    } = call;
    with_core(API, loc, |core| {
        let kind = cast_kind(core, S::DTYPE, D::DTYPE, mode)?;
        if let Issue::Count(n) = issue {
            check_overlap(dst, src, n)?;
        }
        let ops = unary_operands(dst, src, &p);
        let sat = core.vector.fp16_saturation;
        let scale = core.vector.deq_scale.to_f64();
        let truncate = core.spr.cast_overflow.truncate && !D::DTYPE.is_float();
        let same = S::DTYPE == D::DTYPE;
        let exceptions = Cell::new(0u64);
        let lanes = lanes_for(S::SIZE.max(D::SIZE));
        run(core, API, loc, lanes, issue, &ops, |ub, shape, o| {
            map1(ub, shape, o[0], o[1], |x: S| {
                let v = match (kind, x.exact()) {
                    (CastKind::DeqScale, Exact::Int(i)) => Exact::Float(i as f64 * scale),
                    (_, Exact::Float(f)) if same => Exact::Float(round_integral(f, mode)),
                    (_, e) => e,
                };
                let v = if truncate {
                    low_bits(v, D::DTYPE, mode)
                } else {
                    v
                };
                let (d, exception) = D::convert(v, mode, sat);
                if exception {
                    exceptions.set(exceptions.get() + 1);
                }
                d
            })
        })?;
        if exceptions.get() > 0 {
            core.warn(
                Category::DataLoss,
                API,
                format!(
                    "{} negative value(s) converted to unsigned {} (a hardware exception): written as 0",
                    exceptions.get(),
                    D::DTYPE
                ),
                loc,
            );
        }
        Ok(())
    })
}

/// The integer result of `v` (rounded with `mode`, NaN → 0) keeping only the low bits of
/// `dst`'s width: the conversion result with `SetSaturationFlag<CAST>(false)`.
fn low_bits(v: Exact, dst: DType, mode: RoundMode) -> Exact {
    let x: i128 = match v {
        Exact::Int(i) => i as i128,
        Exact::Float(f) if f.is_nan() => 0,
        Exact::Float(f) => round_integral(f, mode) as i128,
    };
    let bits = dst.size() as u32 * 8;
    let m = x & ((1i128 << bits) - 1);
    let signed = matches!(
        dst,
        DType::Int8 | DType::Int16 | DType::Int32 | DType::Int64
    );
    let w = if signed && m >> (bits - 1) == 1 {
        m - (1i128 << bits)
    } else {
        m
    };
    i64::try_from(w).map_or(Exact::Float(w as f64), Exact::Int)
}

/// The level-2 overlap check of the CPU-debug library: narrow → wide on the same address, or a
/// lower operand of more than 256 bytes running into the higher one.
pub(super) fn check_overlap<D: TensorElement, S: TensorElement>(
    dst: &LocalTensor<D>,
    src: &LocalTensor<S>,
    n: i64,
) -> Result<()> {
    if dst.hw != src.hw || n <= 0 {
        return Ok(());
    }
    let (sa, da) = (src.addr as u64, dst.addr as u64);
    // Saturating: a count too large for any buffer is refused by the range checks after this.
    let bytes = |bits: u32| (n as u64).saturating_mul(bits as u64) / 8;
    let (sb, db) = (bytes(S::BITS), bytes(D::BITS));
    let bad = if sa == da {
        S::BITS < D::BITS
    } else {
        let (lo, lo_bytes, hi) = if sa < da { (sa, sb, da) } else { (da, db, sa) };
        lo_bytes > 256 && lo + lo_bytes > hi
    };
    if bad {
        return Err(SimError::new(
            Category::Overlap,
            API,
            format!(
                "count mode check failed: src (UB bytes {sa}..{}) and dst (UB bytes {da}..{}) overlap in a way Cast does not support (narrow → wide in place, or partial overlap beyond 256 bytes)",
                sa + sb,
                da + db
            ),
        ));
    }
    Ok(())
}

/// `Cast(dst, src, roundMode, count)`: level 2, converts the first `count` elements of `src`
/// (type `S`) into `dst` (type `D`) with `round_mode`.
#[track_caller]
pub fn cast<D: CastType, S: CastType>(
    dst: &LocalTensor<D>,
    src: &LocalTensor<S>,
    round_mode: RoundMode,
    count: impl Into<Count>,
) -> Result<()> {
    let call = CastCall {
        loc: SourceLoc::caller(),
        mode: round_mode,
        issue: count.into().into(),
        params: UnaryRepeatParams::default(),
    };
    D::cast_into(call, dst, src)
}

/// `Cast(dst, src, roundMode, mask, repeatTime, params)`: level 0; the mask and the lanes per
/// repeat follow the wider type; strides in 32-byte blocks.
#[track_caller]
pub fn cast_l0<D: CastType, S: CastType>(
    dst: &LocalTensor<D>,
    src: &LocalTensor<S>,
    round_mode: RoundMode,
    mask: impl Into<Mask>,
    repeat_times: u8,
    params: UnaryRepeatParams,
) -> Result<()> {
    let call = CastCall {
        loc: SourceLoc::caller(),
        mode: round_mode,
        issue: Issue::level0(mask, repeat_times),
        params,
    };
    D::cast_into(call, dst, src)
}
