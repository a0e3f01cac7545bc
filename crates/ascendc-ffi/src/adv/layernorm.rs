//! The C ABI of `LayerNorm` (both forms), `Normalize` and `DeepNorm`, and their host helpers.

use super::with_tmp;
use crate::abi::{call, dtype, AscLoc, AscLocal};
use ascendc::adv::normalization::deepnorm::{
    deep_norm, deep_norm_max_min_tmp_size, deep_norm_tiling_info, DeepNormTiling,
};
use ascendc::adv::normalization::layernorm::{
    layer_norm, layer_norm_max_min_tmp_size, layer_norm_nd_tiling_info, layer_norm_rstd,
    layer_norm_rstd_max_min_tmp_size, layer_norm_separate_tiling_info, LayerNormConfig,
    LayerNormSeparateTiling, LayerNormTiling,
};
use ascendc::adv::normalization::normalize::{
    normalize, normalize_max_min_tmp_size, NormalizeConfig, NormalizePara,
};
use ascendc::error::SimError;
use ascendc::{f16, Category, DType, Element, LocalTensor, TPipe};

/// A shape passed as `rank` dimensions at `dims` (each cut to 32 bits, as the vendor's host
/// helpers read them).
///
/// # Safety
/// `dims` valid for `rank` reads.
unsafe fn shape(dims: *const i64, rank: u32) -> Vec<u32> {
    if dims.is_null() {
        return Vec::new();
    }
    std::slice::from_raw_parts(dims, rank as usize)
        .iter()
        .map(|&d| d as u32)
        .collect()
}

/// The error of an element type the API does not take.
fn unsupported(api: &'static str, what: &str) -> SimError {
    SimError::new(
        Category::Type,
        api,
        format!("{what} is not supported: {api} takes half or float"),
    )
}

/// `{isNoBeta, isNoGamma, isOnlyOutput, isOutputRstd}` as bits 0..3 of `flags`.
fn flag(flags: u32, bit: u32) -> bool {
    flags >> bit & 1 != 0
}

/// `LayerNorm<T, isReuseSource>(output, outputMean, outputVariance, inputX, gamma, beta, [tmp,]
/// epsilon, tiling)` on elements of type `elem` (half or float); `epsilon` is the T value as
/// float; `tmp` null takes `pipe`'s stack; `tiling` (a `LayerNormTiling`) gets the tail pass's
/// lengths back, as on the device.
///
/// # Safety
/// Tensor handles valid; `tmp` null or valid; `pipe` null or from `ascendc_pipe_new`; `tiling`
/// points to a `LayerNormTiling`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_layer_norm(
    elem: u8,
    reuse_source: bool,
    output: *const AscLocal,
    mean: *const AscLocal,
    variance: *const AscLocal,
    x: *const AscLocal,
    gamma: *const AscLocal,
    beta: *const AscLocal,
    tmp: *const AscLocal,
    pipe: *const TPipe,
    epsilon: f32,
    tiling: *mut LayerNormTiling,
    loc: AscLoc,
) -> i32 {
    unsafe fn go<T: Element>(
        ops: [*const AscLocal; 6],
        tmp: *const AscLocal,
        pipe: *const TPipe,
        eps: T,
        tiling: &mut LayerNormTiling,
        reuse: bool,
    ) -> Result<(), SimError> {
        let [o, m, v, x, g, b]: [LocalTensor<T>; 6] = [
            (*ops[0]).tensor()?,
            (*ops[1]).tensor()?,
            (*ops[2]).tensor()?,
            (*ops[3]).tensor()?,
            (*ops[4]).tensor()?,
            (*ops[5]).tensor()?,
        ];
        with_tmp("LayerNorm", tmp, pipe, |t| {
            layer_norm(&o, &m, &v, &x, &g, &b, t, eps, tiling, reuse)
        })
    }
    call(loc, || {
        let mut t = tiling.read_unaligned();
        let ops = [output, mean, variance, x, gamma, beta];
        let r = match dtype(elem)? {
            DType::Half => go(ops, tmp, pipe, f16::from_f32(epsilon), &mut t, reuse_source),
            DType::Float => go(ops, tmp, pipe, epsilon, &mut t, reuse_source),
            other => Err(unsupported("LayerNorm", &format!("T = {other}"))),
        };
        tiling.write_unaligned(t);
        r
    })
}

/// Runs `$call` with `U`, `T` bound to the element types `$eu`, `$et` (each half or float; the
/// API checks the pair).
macro_rules! with_ut {
    ($api:literal, $eu:expr, $et:expr, |$u:ident, $t:ident| $call:expr) => {
        match (dtype($eu)?, dtype($et)?) {
            (DType::Float, DType::Float) => {
                type $u = f32;
                type $t = f32;
                $call
            }
            (DType::Float, DType::Half) => {
                type $u = f32;
                type $t = f16;
                $call
            }
            (DType::Half, DType::Half) => {
                type $u = f16;
                type $t = f16;
                $call
            }
            (DType::Half, DType::Float) => {
                type $u = f16;
                type $t = f32;
                $call
            }
            (u, t) => Err(unsupported($api, &format!("U = {u}, T = {t}"))),
        }
    };
}

/// The tensors `[output, inputX]` of T, `[gamma, beta]` of U and three float tensors.
type ArOps<U, T> = (
    [LocalTensor<T>; 2],
    [LocalTensor<U>; 2],
    [LocalTensor<f32>; 3],
);

/// # Safety
/// Handles valid.
unsafe fn ar_ops<U: Element, T: Element>(
    [o, x]: [*const AscLocal; 2],
    [g, b]: [*const AscLocal; 2],
    [f0, f1, f2]: [*const AscLocal; 3],
) -> Result<ArOps<U, T>, SimError> {
    Ok((
        [(*o).tensor()?, (*x).tensor()?],
        [(*g).tensor()?, (*b).tensor()?],
        [(*f0).tensor()?, (*f1).tensor()?, (*f2).tensor()?],
    ))
}

/// `LayerNorm<U, T, isReuseSource, config>(output, outputMean, outputRstd, inputX, gamma, beta,
/// epsilon, [tmp,] para, tiling)`; `flags` bits 0..3: `isNoBeta`, `isNoGamma`, `isOnlyOutput`,
/// `isOutputRstd`; `tmp` null takes `pipe`'s stack; `tiling` (a `LayerNormSeparateTiling`) gets
/// the tail pass's lengths back.
///
/// # Safety
/// Tensor handles valid; `tmp` null or valid; `pipe` null or from `ascendc_pipe_new`; `para`
/// points to a `LayerNormPara`, `tiling` to a `LayerNormSeparateTiling`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_layer_norm_rstd(
    elem_u: u8,
    elem_t: u8,
    flags: u32,
    output: *const AscLocal,
    mean: *const AscLocal,
    rstd: *const AscLocal,
    x: *const AscLocal,
    gamma: *const AscLocal,
    beta: *const AscLocal,
    epsilon: f32,
    tmp: *const AscLocal,
    pipe: *const TPipe,
    para: *const NormalizePara,
    tiling: *mut LayerNormSeparateTiling,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let para = para.read_unaligned();
        let mut t = tiling.read_unaligned();
        let config = LayerNormConfig {
            is_no_beta: flag(flags, 0),
            is_no_gamma: flag(flags, 1),
            is_only_output: flag(flags, 2),
            is_output_rstd: flag(flags, 3),
        };
        let r = with_ut!("LayerNorm", elem_u, elem_t, |U, T| {
            let ([o, xx], [g, b], [m, rs, _]) =
                ar_ops::<U, T>([output, x], [gamma, beta], [mean, rstd, rstd])?;
            with_tmp("LayerNorm", tmp, pipe, |w| {
                layer_norm_rstd(&o, &m, &rs, &xx, &g, &b, epsilon, w, &para, &mut t, &config)
            })
        });
        tiling.write_unaligned(t);
        r
    })
}

/// `Normalize<U, T, isReuseSource, config>(output, outputRstd, inputMean, inputVariance, inputX,
/// gamma, beta, [tmp,] epsilon, para)`; `a_length` is `config.aLength`; `flags` bits 0..2:
/// `isNoBeta`, `isNoGamma`, `isOnlyOutput`; `tmp` null takes `pipe`'s stack.
///
/// # Safety
/// Tensor handles valid; `tmp` null or valid; `pipe` null or from `ascendc_pipe_new`; `para`
/// points to a `NormalizePara`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_normalize(
    elem_u: u8,
    elem_t: u8,
    a_length: i32,
    flags: u32,
    output: *const AscLocal,
    rstd: *const AscLocal,
    mean: *const AscLocal,
    variance: *const AscLocal,
    x: *const AscLocal,
    gamma: *const AscLocal,
    beta: *const AscLocal,
    tmp: *const AscLocal,
    pipe: *const TPipe,
    epsilon: f32,
    para: *const NormalizePara,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let para = para.read_unaligned();
        let config = NormalizeConfig {
            a_length,
            is_no_beta: flag(flags, 0),
            is_no_gamma: flag(flags, 1),
            is_only_output: flag(flags, 2),
        };
        with_ut!("Normalize", elem_u, elem_t, |U, T| {
            let ([o, xx], [g, b], [rs, m, v]) =
                ar_ops::<U, T>([output, x], [gamma, beta], [rstd, mean, variance])?;
            with_tmp("Normalize", tmp, pipe, |w| {
                normalize(&o, &rs, &m, &v, &xx, &g, &b, w, epsilon, &para, &config)
            })
        })
    })
}

/// `DeepNorm<T, isReuseSrc, isBasicBlock>(dst, mean, rstd, src, gx, beta, gamma, [tmp,] alpha,
/// epsilon, tiling)` on elements of type `elem` (half or float); `alpha`, `epsilon` are the T
/// values as float; `tmp` null takes `pipe`'s stack; `tiling` (a `DeepNormTiling`) gets the tail
/// pass's lengths back.
///
/// # Safety
/// Tensor handles valid; `tmp` null or valid; `pipe` null or from `ascendc_pipe_new`; `tiling`
/// points to a `DeepNormTiling`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_deep_norm(
    elem: u8,
    reuse_source: bool,
    basic_block: bool,
    ops: *const *const AscLocal,
    tmp: *const AscLocal,
    pipe: *const TPipe,
    alpha: f32,
    epsilon: f32,
    tiling: *mut DeepNormTiling,
    loc: AscLoc,
) -> i32 {
    unsafe fn go<T: Element>(
        ops: &[*const AscLocal],
        tmp: *const AscLocal,
        pipe: *const TPipe,
        (alpha, eps): (T, T),
        tiling: &mut DeepNormTiling,
        (reuse, basic): (bool, bool),
    ) -> Result<(), SimError> {
        let t: Vec<LocalTensor<T>> = ops
            .iter()
            .map(|&p| (*p).tensor())
            .collect::<Result<_, _>>()?;
        with_tmp("DeepNorm", tmp, pipe, |w| {
            deep_norm(
                &t[0], &t[1], &t[2], &t[3], &t[4], &t[5], &t[6], w, alpha, eps, tiling, reuse,
                basic,
            )
        })
    }
    call(loc, || {
        let ops = std::slice::from_raw_parts(ops, 7);
        let mut t = tiling.read_unaligned();
        let flags = (reuse_source, basic_block);
        let r = match dtype(elem)? {
            DType::Half => {
                let ae = (f16::from_f32(alpha), f16::from_f32(epsilon));
                go(ops, tmp, pipe, ae, &mut t, flags)
            }
            DType::Float => go(ops, tmp, pipe, (alpha, epsilon), &mut t, flags),
            other => Err(unsupported("DeepNorm", &format!("T = {other}"))),
        };
        tiling.write_unaligned(t);
        r
    })
}

/// Writes `Some((max, min))` and returns true, or returns false.
///
/// # Safety
/// `max`, `min` valid for writes.
unsafe fn put(v: Option<(u32, u32)>, max: *mut u32, min: *mut u32) -> bool {
    match v {
        Some((hi, lo)) => {
            *max = hi;
            *min = lo;
            true
        }
        None => false,
    }
}

/// Writes `Some(t)` to `out` and returns true, or returns false (`out` untouched).
///
/// # Safety
/// `out` valid for a write of `T`.
unsafe fn put_tiling<T>(v: Option<T>, out: *mut T) -> bool {
    match v {
        Some(t) => {
            out.write_unaligned(t);
            true
        }
        None => false,
    }
}

/// `GetLayerNormMaxMinTmpSize` for `[B, S, H, H₀]`: false for a shape it refuses.
///
/// # Safety
/// `dims` valid for `rank` reads; `max`, `min` valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_layer_norm_tmp_size(
    dims: *const i64,
    rank: u32,
    type_size: u32,
    reuse_source: bool,
    max: *mut u32,
    min: *mut u32,
) -> bool {
    put(
        layer_norm_max_min_tmp_size(&shape(dims, rank), type_size, reuse_source),
        max,
        min,
    )
}

/// `GetLayerNormNDTilingInfo` for `[B, S, H, H₀]`: fills `out` (a `LayerNormTiling`) and returns
/// true, or false (`out` untouched).
///
/// # Safety
/// `dims` valid for `rank` reads; `out` valid for a write of the struct.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_layer_norm_tiling(
    dims: *const i64,
    rank: u32,
    stack_bytes: u32,
    type_size: u32,
    reuse_source: bool,
    out: *mut LayerNormTiling,
) -> bool {
    put_tiling(
        layer_norm_nd_tiling_info(&shape(dims, rank), stack_bytes, type_size, reuse_source),
        out,
    )
}

/// `GetLayerNormMaxMinTmpSize(…, isComputeRstd, isOnlyOutput, …)` for `[A, R]`.
///
/// # Safety
/// `dims` valid for `rank` reads; `max`, `min` valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_layer_norm_rstd_tmp_size(
    dims: *const i64,
    rank: u32,
    type_size: u32,
    compute_rstd: bool,
    only_output: bool,
    max: *mut u32,
    min: *mut u32,
) -> bool {
    put(
        layer_norm_rstd_max_min_tmp_size(&shape(dims, rank), type_size, compute_rstd, only_output),
        max,
        min,
    )
}

/// `GetLayerNormNDTilingInfo(…, isComputeRstd, tiling)` for `[A, R]`: fills `out` (a
/// `LayerNormSeparateTiling`) and returns true, or false (`out` untouched).
///
/// # Safety
/// `dims` valid for `rank` reads; `out` valid for a write of the struct.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_layer_norm_separate_tiling(
    dims: *const i64,
    rank: u32,
    stack_bytes: u32,
    type_size: u32,
    out: *mut LayerNormSeparateTiling,
) -> bool {
    put_tiling(
        layer_norm_separate_tiling_info(&shape(dims, rank), stack_bytes, type_size),
        out,
    )
}

/// `GetNormalizeMaxMinTmpSize`.
///
/// # Safety
/// `dims` valid for `rank` reads; `max`, `min` valid for writes.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_normalize_tmp_size(
    dims: *const i64,
    rank: u32,
    type_size_u: u32,
    type_size_t: u32,
    compute_rstd: bool,
    only_output: bool,
    max: *mut u32,
    min: *mut u32,
) -> bool {
    let s = shape(dims, rank);
    put(
        normalize_max_min_tmp_size(&s, type_size_u, type_size_t, compute_rstd, only_output),
        max,
        min,
    )
}

/// `GetDeepNormMaxMinTmpSize`: false for another rank or a shape breaking the basic-block rule.
///
/// # Safety
/// `dims` valid for `rank` reads; `max`, `min` valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_deep_norm_tmp_size(
    dims: *const i64,
    rank: u32,
    type_size: u32,
    reuse_source: bool,
    basic_block: bool,
    max: *mut u32,
    min: *mut u32,
) -> bool {
    let s = shape(dims, rank);
    put(
        deep_norm_max_min_tmp_size(&s, type_size, reuse_source, basic_block),
        max,
        min,
    )
}

/// `GetDeepNormTilingInfo`: fills `out` (a `DeepNormTiling`) and returns true, or false (`out`
/// untouched).
///
/// # Safety
/// `dims`/`odims` valid for `rank`/`orank` reads; `out` valid for a write of the struct.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_deep_norm_tiling(
    dims: *const i64,
    rank: u32,
    odims: *const i64,
    orank: u32,
    stack_bytes: u32,
    type_size: u32,
    reuse_source: bool,
    basic_block: bool,
    out: *mut DeepNormTiling,
) -> bool {
    put_tiling(
        deep_norm_tiling_info(
            &shape(dims, rank),
            &shape(odims, orank),
            stack_bytes,
            type_size,
            reuse_source,
            basic_block,
        ),
        out,
    )
}
