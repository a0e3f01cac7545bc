//! The C ABI of `BatchNorm` and `GroupNorm`, and their host helpers.

use super::norm_stats::{put_sizes, shape};
use super::with_tmp;
use crate::abi::{call, dtype, AscLoc, AscLocal};
use ascendc::adv::normalization::batchnorm::{
    batch_norm, batch_norm_max_min_tmp_size, batch_norm_tiling_info, BatchNormTiling,
};
use ascendc::adv::normalization::groupnorm::{
    group_norm, group_norm_max_min_tmp_size, group_norm_tiling_info, GroupNormTiling,
};
use ascendc::error::SimError;
use ascendc::{f16, Category, DType, LocalTensor, TPipe};

/// `BatchNorm<T, isReuseSource, isBasicBlock>(…)` on elements of type `elem` (half or float);
/// `epsilon` is the T value as float; `tmp` null takes `pipe`'s stack. A tail pass writes its
/// lengths back into `*tiling`, as the device does.
///
/// # Safety
/// Tensor handles valid; `tmp` null or valid; `pipe` null or from `ascendc_pipe_new`; `tiling`
/// points to a writable `BatchNormTiling`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_batch_norm(
    elem: u8,
    reuse_source: bool,
    basic_block: bool,
    output: *const AscLocal,
    output_mean: *const AscLocal,
    output_variance: *const AscLocal,
    input_x: *const AscLocal,
    gamm: *const AscLocal,
    beta: *const AscLocal,
    tmp: *const AscLocal,
    pipe: *const TPipe,
    epsilon: f32,
    tiling: *mut BatchNormTiling,
    loc: AscLoc,
) -> i32 {
    const API: &str = "BatchNorm";
    #[allow(clippy::too_many_arguments)]
    unsafe fn go<T: ascendc::TensorElement + ascendc::Element>(
        h: [*const AscLocal; 6],
        tmp: *const AscLocal,
        pipe: *const TPipe,
        eps: T,
        tiling: &mut BatchNormTiling,
        reuse: bool,
        basic: bool,
    ) -> Result<(), SimError> {
        let mut t: Vec<LocalTensor<T>> = Vec::with_capacity(6);
        for p in h {
            t.push((*p).tensor()?);
        }
        with_tmp(API, tmp, pipe, |b| {
            batch_norm(
                &t[0], &t[1], &t[2], &t[3], &t[4], &t[5], b, eps, tiling, reuse, basic,
            )
        })
    }
    call(loc, || {
        let mut t = tiling.read_unaligned();
        let h = [output, output_mean, output_variance, input_x, gamm, beta];
        let r = match dtype(elem)? {
            DType::Half => go(
                h,
                tmp,
                pipe,
                f16::from_f32(epsilon),
                &mut t,
                reuse_source,
                basic_block,
            ),
            DType::Float => go(h, tmp, pipe, epsilon, &mut t, reuse_source, basic_block),
            other => Err(SimError::new(
                Category::Type,
                API,
                format!("T = {other} is not supported: {API} takes half or float"),
            )),
        };
        tiling.write_unaligned(t);
        r
    })
}

/// `GetBatchNormMaxMinTmpSize`: false for a refused shape.
///
/// # Safety
/// `dims`, `origin_dims` valid for `rank`, `origin_rank` reads; `max`, `min` valid for writes.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_batch_norm_tmp_size(
    dims: *const i64,
    rank: u32,
    origin_dims: *const i64,
    origin_rank: u32,
    type_size: u32,
    reuse_source: bool,
    basic_block: bool,
    max: *mut u32,
    min: *mut u32,
) -> bool {
    let r = batch_norm_max_min_tmp_size(
        &shape(dims, rank),
        &shape(origin_dims, origin_rank),
        type_size,
        reuse_source,
        basic_block,
    );
    put_sizes(r, max, min)
}

/// `GetBatchNormNDTilingInfo`: fills `out` and returns true, or false (`out` untouched).
///
/// # Safety
/// `dims`, `origin_dims` valid for `rank`, `origin_rank` reads; `out` valid for a write of the
/// struct.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_batch_norm_tiling(
    dims: *const i64,
    rank: u32,
    origin_dims: *const i64,
    origin_rank: u32,
    stack_bytes: u32,
    type_size: u32,
    reuse_source: bool,
    basic_block: bool,
    out: *mut BatchNormTiling,
) -> bool {
    match batch_norm_tiling_info(
        &shape(dims, rank),
        &shape(origin_dims, origin_rank),
        stack_bytes,
        type_size,
        reuse_source,
        basic_block,
    ) {
        Some(t) => {
            out.write_unaligned(t);
            true
        }
        None => false,
    }
}

/// `GroupNorm<T, isReuseSource>(…)` on elements of type `elem` (half or float); `epsilon` is the
/// T value as float; `tmp` null takes `pipe`'s stack.
///
/// # Safety
/// Tensor handles valid; `tmp` null or valid; `pipe` null or from `ascendc_pipe_new`; `tiling`
/// points to a readable `GroupNormTiling`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_group_norm(
    elem: u8,
    reuse_source: bool,
    output: *const AscLocal,
    output_mean: *const AscLocal,
    output_variance: *const AscLocal,
    input_x: *const AscLocal,
    gamma: *const AscLocal,
    beta: *const AscLocal,
    tmp: *const AscLocal,
    pipe: *const TPipe,
    epsilon: f32,
    tiling: *const GroupNormTiling,
    loc: AscLoc,
) -> i32 {
    const API: &str = "GroupNorm";
    unsafe fn go<T: ascendc::TensorElement + ascendc::Element>(
        h: [*const AscLocal; 6],
        tmp: *const AscLocal,
        pipe: *const TPipe,
        eps: T,
        tiling: &GroupNormTiling,
        reuse: bool,
    ) -> Result<(), SimError> {
        let mut t: Vec<LocalTensor<T>> = Vec::with_capacity(6);
        for p in h {
            t.push((*p).tensor()?);
        }
        with_tmp(API, tmp, pipe, |b| {
            group_norm(
                &t[0], &t[1], &t[2], &t[3], &t[4], &t[5], b, eps, tiling, reuse,
            )
        })
    }
    call(loc, || {
        let t = tiling.read_unaligned();
        let h = [output, output_mean, output_variance, input_x, gamma, beta];
        match dtype(elem)? {
            DType::Half => go(h, tmp, pipe, f16::from_f32(epsilon), &t, reuse_source),
            DType::Float => go(h, tmp, pipe, epsilon, &t, reuse_source),
            other => Err(SimError::new(
                Category::Type,
                API,
                format!("T = {other} is not supported: {API} takes half or float"),
            )),
        }
    })
}

/// `GetGroupNormMaxMinTmpSize`: false (and 0, 0) for a refused shape.
///
/// # Safety
/// `dims` valid for `rank` reads; `max`, `min` valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_group_norm_tmp_size(
    dims: *const i64,
    rank: u32,
    type_size: u32,
    reuse_source: bool,
    group_num: u32,
    max: *mut u32,
    min: *mut u32,
) -> bool {
    let r = group_norm_max_min_tmp_size(&shape(dims, rank), type_size, reuse_source, group_num);
    put_sizes(Some(r.unwrap_or((0, 0))), max, min) && r.is_some()
}

/// `GetGroupNormNDTilingInfo`: fills `out` and returns true, or false (`out` untouched).
///
/// # Safety
/// `dims` valid for `rank` reads; `out` valid for a write of the struct.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_group_norm_tiling(
    dims: *const i64,
    rank: u32,
    stack_bytes: u32,
    type_size: u32,
    reuse_source: bool,
    group_num: u32,
    out: *mut GroupNormTiling,
) -> bool {
    match group_norm_tiling_info(
        &shape(dims, rank),
        stack_bytes,
        type_size,
        reuse_source,
        group_num,
    ) {
        Some(t) => {
            out.write_unaligned(t);
            true
        }
        None => false,
    }
}
