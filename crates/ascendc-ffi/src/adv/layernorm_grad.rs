//! The C ABI of `LayerNormGrad` and `LayerNormGradBeta`, and their host helpers.

use super::norm_stats::{put_sizes, shape};
use super::with_tmp;
use crate::abi::{call, dtype, AscLoc, AscLocal};
use ascendc::adv::normalization::layernorm_grad::{
    layer_norm_grad, layer_norm_grad_beta, layer_norm_grad_beta_max_min_tmp_size,
    layer_norm_grad_beta_tiling_info, layer_norm_grad_max_min_tmp_size,
    layer_norm_grad_tiling_info, LayerNormGradBetaTiling, LayerNormGradTiling,
};
use ascendc::error::SimError;
use ascendc::{f16, Category, DType, LocalTensor, TPipe};

fn refuse(api: &'static str, t: DType) -> SimError {
    SimError::new(
        Category::Type,
        api,
        format!("T = {t} is not supported: {api} takes half or float"),
    )
}

/// `LayerNormGrad<T, isReuseSource>(…)` on elements of type `elem` (half or float); `epsilon`
/// is the T value as float; `tmp` null takes `pipe`'s stack.
///
/// # Safety
/// Tensor handles valid; `tmp` null or valid; `pipe` null or from `ascendc_pipe_new`; `tiling`
/// points to a `LayerNormGradTiling`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_layer_norm_grad(
    elem: u8,
    reuse_source: bool,
    pd_x: *const AscLocal,
    res_for_gamma: *const AscLocal,
    dy: *const AscLocal,
    x: *const AscLocal,
    variance: *const AscLocal,
    mean: *const AscLocal,
    gamma: *const AscLocal,
    tmp: *const AscLocal,
    pipe: *const TPipe,
    epsilon: f32,
    tiling: *const LayerNormGradTiling,
    loc: AscLoc,
) -> i32 {
    const API: &str = "LayerNormGrad";
    unsafe fn go<T: ascendc::TensorElement + ascendc::Element>(
        h: [*const AscLocal; 7],
        tmp: *const AscLocal,
        pipe: *const TPipe,
        eps: T,
        tiling: &LayerNormGradTiling,
        reuse: bool,
    ) -> Result<(), SimError> {
        let mut t: Vec<LocalTensor<T>> = Vec::with_capacity(7);
        for p in h {
            t.push((*p).tensor()?);
        }
        with_tmp(API, tmp, pipe, |b| {
            layer_norm_grad(
                &t[0], &t[1], &t[2], &t[3], &t[4], &t[5], &t[6], b, eps, tiling, reuse,
            )
        })
    }
    call(loc, || {
        let tiling = tiling.read_unaligned();
        let h = [pd_x, res_for_gamma, dy, x, variance, mean, gamma];
        match dtype(elem)? {
            DType::Half => go(h, tmp, pipe, f16::from_f32(epsilon), &tiling, reuse_source),
            DType::Float => go(h, tmp, pipe, epsilon, &tiling, reuse_source),
            other => Err(refuse(API, other)),
        }
    })
}

/// `LayerNormGradBeta<T, isReuseSource>(…)` on elements of type `elem` (half or float); `tmp`
/// null takes `pipe`'s stack.
///
/// # Safety
/// Tensor handles valid; `tmp` null or valid; `pipe` null or from `ascendc_pipe_new`; `tiling`
/// points to a `LayerNormGradBetaTiling`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_layer_norm_grad_beta(
    elem: u8,
    reuse_source: bool,
    pd_gamma: *const AscLocal,
    pd_beta: *const AscLocal,
    res_for_gamma: *const AscLocal,
    dy: *const AscLocal,
    tmp: *const AscLocal,
    pipe: *const TPipe,
    tiling: *const LayerNormGradBetaTiling,
    loc: AscLoc,
) -> i32 {
    const API: &str = "LayerNormGradBeta";
    unsafe fn go<T: ascendc::TensorElement + ascendc::Element>(
        h: [*const AscLocal; 4],
        tmp: *const AscLocal,
        pipe: *const TPipe,
        tiling: &LayerNormGradBetaTiling,
        reuse: bool,
    ) -> Result<(), SimError> {
        let (g, b, r, d): (
            LocalTensor<T>,
            LocalTensor<T>,
            LocalTensor<T>,
            LocalTensor<T>,
        ) = (
            (*h[0]).tensor()?,
            (*h[1]).tensor()?,
            (*h[2]).tensor()?,
            (*h[3]).tensor()?,
        );
        with_tmp(API, tmp, pipe, |t| {
            layer_norm_grad_beta(&g, &b, &r, &d, t, tiling, reuse)
        })
    }
    call(loc, || {
        let tiling = tiling.read_unaligned();
        let h = [pd_gamma, pd_beta, res_for_gamma, dy];
        match dtype(elem)? {
            DType::Half => go::<f16>(h, tmp, pipe, &tiling, reuse_source),
            DType::Float => go::<f32>(h, tmp, pipe, &tiling, reuse_source),
            other => Err(refuse(API, other)),
        }
    })
}

/// `GetLayerNormGradMaxMinTmpSize`: false for a refused shape or type size.
///
/// # Safety
/// `dims` valid for `rank` reads; `max`, `min` valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_layer_norm_grad_tmp_size(
    dims: *const i64,
    rank: u32,
    type_size: u32,
    reuse_source: bool,
    max: *mut u32,
    min: *mut u32,
) -> bool {
    let r = layer_norm_grad_max_min_tmp_size(&shape(dims, rank), type_size, reuse_source);
    put_sizes(r, max, min)
}

/// `GetLayerNormGradNDTilingInfo`: fills `out` and returns true, or false (`out` untouched).
///
/// # Safety
/// `dims` valid for `rank` reads; `out` valid for a write of the struct.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_layer_norm_grad_tiling(
    dims: *const i64,
    rank: u32,
    stack_bytes: u32,
    type_size: u32,
    reuse_source: bool,
    out: *mut LayerNormGradTiling,
) -> bool {
    match layer_norm_grad_tiling_info(&shape(dims, rank), stack_bytes, type_size, reuse_source) {
        Some(t) => {
            out.write_unaligned(t);
            true
        }
        None => false,
    }
}

/// `GetLayerNormGradBetaMaxMinTmpSize`: false for a refused shape or type size.
///
/// # Safety
/// `dims` valid for `rank` reads; `max`, `min` valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_layer_norm_grad_beta_tmp_size(
    dims: *const i64,
    rank: u32,
    type_size: u32,
    max: *mut u32,
    min: *mut u32,
) -> bool {
    let r = layer_norm_grad_beta_max_min_tmp_size(&shape(dims, rank), type_size);
    put_sizes(r, max, min)
}

/// `GetLayerNormGradBetaNDTilingInfo`: fills `out` and returns true, or false (`out`
/// untouched).
///
/// # Safety
/// `dims` valid for `rank` reads; `out` valid for a write of the struct.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_layer_norm_grad_beta_tiling(
    dims: *const i64,
    rank: u32,
    stack_bytes: u32,
    type_size: u32,
    out: *mut LayerNormGradBetaTiling,
) -> bool {
    match layer_norm_grad_beta_tiling_info(&shape(dims, rank), stack_bytes, type_size) {
        Some(t) => {
            out.write_unaligned(t);
            true
        }
        None => false,
    }
}
