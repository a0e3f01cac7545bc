//! Transpose: the 16×16 two-byte block transpose, and the enhanced form (`TransposeParamsExt`)
//! with the same block transpose and the NCHW ↔ NHWC layout changes.

use super::check_dtype;
use super::layout_support::{self as table, TransposeTmp};
use super::operand::Ub;
use crate::api::context::with_core;
use crate::api::tensor::LocalTensor;
use crate::core::trace::Pipe;
use crate::core::vector::BLOCK;
use crate::core::Core;
use crate::dtype::Element;
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::position::Hardware;

const API: &str = "Transpose";

/// `TransposeType`: what the enhanced `Transpose` does (one enum for it and the high-level
/// `ConfusionTranspose`, whose scenes 1–7 and 13–16 are values 1–7 and 13–16). Only
/// `TRANSPOSE_ND2ND_B16`, `TRANSPOSE_NCHW2NHWC` and `TRANSPOSE_NHWC2NCHW` are implemented by this
/// API; `TRANSPOSE_TYPE_NONE` does nothing and the others are refused as the documentation marks
/// them unsupported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[allow(non_camel_case_types)]
#[repr(u8)]
pub enum TransposeType {
    /// The API does nothing.
    TRANSPOSE_TYPE_NONE = 0,
    /// Not supported by the API.
    TRANSPOSE_NZ2ND_0213,
    /// Not supported by the API.
    TRANSPOSE_NZ2NZ_0213,
    /// Not supported by the API.
    TRANSPOSE_NZ2NZ_012_WITH_N,
    /// Not supported by the API.
    TRANSPOSE_NZ2ND_012_WITH_N,
    /// Not supported by the API.
    TRANSPOSE_NZ2ND_012_WITHOUT_N,
    /// Not supported by the API.
    TRANSPOSE_NZ2NZ_012_WITHOUT_N,
    /// Not supported by the API.
    TRANSPOSE_ND2ND_ONLY,
    /// Not supported by the API.
    TRANSPOSE_ND_UB_GM,
    /// Not supported by the API.
    TRANSPOSE_GRAD_ND_UB_GM,
    /// The `[16, 16]` two-byte block transpose (the default).
    #[default]
    TRANSPOSE_ND2ND_B16,
    /// `[N, C, H, W] → [N, H, W, C]`.
    TRANSPOSE_NCHW2NHWC,
    /// `[N, H, W, C] → [N, C, H, W]`.
    TRANSPOSE_NHWC2NCHW,
    /// ConfusionTranspose scene 13 (Ascend 950 only).
    TRANSPOSE_ND2ND_021,
    /// ConfusionTranspose scene 14 (Ascend 950 only).
    TRANSPOSE_ND2ND_102,
    /// ConfusionTranspose scene 15 (Ascend 950 only).
    TRANSPOSE_ND2ND_210,
    /// ConfusionTranspose scene 16 (Ascend 950 only).
    TRANSPOSE_ND2NZ_WITH_INTLV,
}

impl TransposeType {
    /// Every value, in the order of the C++ enum (its numeric values).
    pub const ALL: [TransposeType; 17] = [
        TransposeType::TRANSPOSE_TYPE_NONE,
        TransposeType::TRANSPOSE_NZ2ND_0213,
        TransposeType::TRANSPOSE_NZ2NZ_0213,
        TransposeType::TRANSPOSE_NZ2NZ_012_WITH_N,
        TransposeType::TRANSPOSE_NZ2ND_012_WITH_N,
        TransposeType::TRANSPOSE_NZ2ND_012_WITHOUT_N,
        TransposeType::TRANSPOSE_NZ2NZ_012_WITHOUT_N,
        TransposeType::TRANSPOSE_ND2ND_ONLY,
        TransposeType::TRANSPOSE_ND_UB_GM,
        TransposeType::TRANSPOSE_GRAD_ND_UB_GM,
        TransposeType::TRANSPOSE_ND2ND_B16,
        TransposeType::TRANSPOSE_NCHW2NHWC,
        TransposeType::TRANSPOSE_NHWC2NCHW,
        TransposeType::TRANSPOSE_ND2ND_021,
        TransposeType::TRANSPOSE_ND2ND_102,
        TransposeType::TRANSPOSE_ND2ND_210,
        TransposeType::TRANSPOSE_ND2NZ_WITH_INTLV,
    ];

    /// The value with C++ enum number `v`, if any.
    pub fn from_u8(v: u8) -> Option<TransposeType> {
        TransposeType::ALL.get(v as usize).copied()
    }
}

/// `TransposeParamsExt`: the shape (in elements per axis) and the transpose type of the enhanced
/// `Transpose`. For `TRANSPOSE_ND2ND_B16` only `h_size = w_size = 16` is accepted and `n_size`,
/// `c_size` are ignored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TransposeParamsExt {
    /// N axis length, [0, 65535].
    pub n_size: u16,
    /// C axis length, [0, 4095].
    pub c_size: u16,
    /// H axis length: `h_size·w_size` in [0, 4095] with `h_size·w_size·sizeof(T)` a multiple of 32.
    pub h_size: u16,
    /// W axis length (see `h_size`).
    pub w_size: u16,
    /// What to do.
    pub transpose_type: TransposeType,
}

impl Default for TransposeParamsExt {
    fn default() -> Self {
        TransposeParamsExt::new(0, 0, 0, 0, TransposeType::TRANSPOSE_ND2ND_B16)
    }
}

impl TransposeParamsExt {
    /// `{nSize, cSize, hSize, wSize, transposeType}`.
    pub const fn new(n: u16, c: u16, h: u16, w: u16, transpose_type: TransposeType) -> Self {
        TransposeParamsExt {
            n_size: n,
            c_size: c,
            h_size: h,
            w_size: w,
            transpose_type,
        }
    }
}

/// Bytes of `sharedTmpBuffer` the enhanced `Transpose` needs for element type `T` on a product
/// with rule `rule` (0 where no buffer is needed).
pub fn transpose_tmp_bytes<T: Element>(rule: TransposeTmp, params: &TransposeParamsExt) -> u64 {
    let size = T::SIZE as u64;
    let h0 = if size == 1 { 32 } else { 16 };
    let w0 = BLOCK / size;
    let c = params.c_size as u64;
    match (rule, params.transpose_type) {
        (TransposeTmp::Staged, TransposeType::TRANSPOSE_NCHW2NHWC) => (c + 2) * h0 * w0 * size,
        (TransposeTmp::Staged, TransposeType::TRANSPOSE_NHWC2NCHW) => (2 * c + 1) * h0 * w0 * size,
        _ => 0,
    }
}

/// `Transpose(dst, src)`: `dst` = the transpose of the 16×16 matrix of two-byte elements at
/// `src` (256 elements, 512 bytes each). `dst` may be `src` itself.
#[track_caller]
pub fn transpose<T: Element>(dst: &LocalTensor<T>, src: &LocalTensor<T>) -> Result<()> {
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        check_dtype(core, API, T::DTYPE, &table::TRANSPOSE)?;
        block_transpose::<T>(core, loc, dst, src)
    })
}

/// `Transpose(dst, src, sharedTmpBuffer, transposeParams)`: the enhanced transpose. Checks the
/// type against the product's table, the shape ranges, the `sharedTmpBuffer` size (bytes) and,
/// for the NCHW ↔ NHWC types, that `src` and `dst` do not overlap. A zero axis does nothing.
#[track_caller]
pub fn transpose_ext<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    shared_tmp_buffer: &LocalTensor<u8>,
    params: TransposeParamsExt,
) -> Result<()> {
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        use TransposeType::*;
        match params.transpose_type {
            TRANSPOSE_TYPE_NONE => {
                core.warn(
                    Category::Nop,
                    API,
                    "transposeType = TRANSPOSE_TYPE_NONE: the call does nothing",
                    loc,
                );
                Ok(())
            }
            TRANSPOSE_ND2ND_B16 => {
                check_type_support(core, &table::TRANSPOSE_ND2ND_B16, T::DTYPE, &params)?;
                for (name, v) in [
                    ("transposeParams.hSize", params.h_size),
                    ("transposeParams.wSize", params.w_size),
                ] {
                    if v != 16 {
                        return Err(SimError::range(
                            API,
                            name,
                            v,
                            "{16} (TRANSPOSE_ND2ND_B16 transposes one 16×16 block)",
                        ));
                    }
                }
                block_transpose::<T>(core, loc, dst, src)
            }
            TRANSPOSE_NCHW2NHWC | TRANSPOSE_NHWC2NCHW => {
                check_type_support(core, &table::TRANSPOSE_NCHW_NHWC, T::DTYPE, &params)?;
                layout_transpose::<T>(core, loc, dst, src, shared_tmp_buffer, &params)
            }
            other => Err(SimError::new(
                Category::Unsupported,
                API,
                format!("transposeType = {other:?} is not supported by the API on any product (supported: TRANSPOSE_ND2ND_B16, TRANSPOSE_NCHW2NHWC, TRANSPOSE_NHWC2NCHW)"),
            )),
        }
    })
}

/// Refuses a transpose type the product does not have, or an element type it does not take.
fn check_type_support(
    core: &Core,
    support: &super::support::OpSupport,
    t: crate::dtype::DType,
    params: &TransposeParamsExt,
) -> Result<()> {
    let set = support.types(core.profile.product);
    if set == crate::dtype::DTypeSet::EMPTY {
        return Err(SimError::new(
            Category::Unsupported,
            API,
            format!(
                "transposeType = {:?} of the enhanced Transpose (TransposeParamsExt) is not supported on {}",
                params.transpose_type, core.profile
            ),
        ));
    }
    if !set.contains(t) {
        return Err(SimError::new(
            Category::Type,
            API,
            format!(
                "element type {t} is not supported with transposeType = {:?} on {} (supported: {set})",
                params.transpose_type, core.profile.soc
            ),
        ));
    }
    Ok(())
}

/// The 16×16 block transpose of two-byte elements (one vector instruction).
fn block_transpose<T: Element>(
    core: &mut Core,
    loc: SourceLoc,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
) -> Result<()> {
    let d = Ub::of(API, "dst", dst, BLOCK)?;
    let s = Ub::of(API, "src", src, BLOCK)?;
    let bytes = 256 * T::SIZE as u64;
    s.fits(API, s.addr + bytes, "a 16×16 block (256 elements)")?;
    d.fits(API, d.addr + bytes, "a 16×16 block (256 elements)")?;
    if d.addr != s.addr && d.addr < s.addr + bytes && s.addr < d.addr + bytes {
        core.warn(
            Category::Overlap,
            API,
            "`dst` partially overlaps `src` (only dst == src is supported); the simulator reads the whole block first",
            loc,
        );
    }
    let ub = core.mem.bytes_mut(Hardware::UB);
    let e = T::SIZE;
    let block = ub[s.addr as usize..(s.addr + bytes) as usize].to_vec();
    for r in 0..16 {
        for c in 0..16 {
            let to = d.addr as usize + (c * 16 + r) * e;
            let from = (r * 16 + c) * e;
            ub[to..to + e].copy_from_slice(&block[from..from + e]);
        }
    }
    core.issue_vector(
        API,
        loc,
        &[
            Ub::access(true, d.addr, d.addr + bytes),
            Ub::access(false, s.addr, s.addr + bytes),
        ],
        16,
    );
    Ok(())
}

/// NCHW ↔ NHWC (one vector instruction recording the temporary buffer as scratch written).
fn layout_transpose<T: Element>(
    core: &mut Core,
    loc: SourceLoc,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: &LocalTensor<u8>,
    params: &TransposeParamsExt,
) -> Result<()> {
    let d = Ub::of(API, "dst", dst, BLOCK)?;
    let s = Ub::of(API, "src", src, BLOCK)?;
    let (n, c, h, w) = (
        params.n_size as u64,
        params.c_size as u64,
        params.h_size as u64,
        params.w_size as u64,
    );
    let size = T::SIZE as u64;
    if c > 4095 {
        return Err(SimError::range(
            API,
            "transposeParams.cSize",
            c,
            "[0, 4095]",
        ));
    }
    let hw = h * w;
    if hw > 4095 {
        return Err(SimError::range(
            API,
            "transposeParams.hSize * wSize",
            format!("{h} × {w} = {hw}"),
            "[0, 4095]",
        ));
    }
    if !(hw * size).is_multiple_of(BLOCK) {
        return Err(SimError::new(
            Category::Align,
            API,
            format!(
                "hSize·wSize·sizeof(T) = {h}·{w}·{size} = {} bytes must be a multiple of 32",
                hw * size
            ),
        ));
    }
    if n == 0 || c == 0 || hw == 0 {
        core.warn(
            Category::Nop,
            API,
            format!(
                "a zero axis (nSize {n}, cSize {c}, hSize {h}, wSize {w}): the call does nothing"
            ),
            loc,
        );
        return Ok(());
    }
    let total = n * c * hw * size;
    let what = format!("{n}·{c}·{h}·{w} elements");
    s.fits(API, s.addr + total, &what)?;
    d.fits(API, d.addr + total, &what)?;
    if d.addr < s.addr + total && s.addr < d.addr + total {
        return Err(SimError::new(
            Category::Overlap,
            API,
            format!(
                "`dst` [{}, {}) overlaps `src` [{}, {}): {:?} does not support reusing the source",
                d.addr,
                d.addr + total,
                s.addr,
                s.addr + total,
                params.transpose_type
            ),
        ));
    }
    let need =
        transpose_tmp_bytes::<T>(table::TRANSPOSE_TMP[core.profile.product as usize], params);
    let mut accesses = vec![
        Ub::access(true, d.addr, d.addr + total),
        Ub::access(false, s.addr, s.addr + total),
    ];
    if need > 0 {
        let t = Ub::of(API, "sharedTmpBuffer", tmp, BLOCK)?;
        if t.len < need {
            return Err(SimError::new(
                Category::Size,
                API,
                format!(
                    "`sharedTmpBuffer` has {} bytes; {:?} with cSize {c} and {}-byte elements needs at least {need} bytes on {}",
                    t.len, params.transpose_type, size, core.profile.soc
                ),
            ));
        }
        accesses.push(Ub::access(true, t.addr, t.addr + need));
    }
    let ub = core.mem.bytes_mut(Hardware::UB);
    let e = size as usize;
    let (c, hw) = (c as usize, hw as usize);
    let src_bytes = ub[s.addr as usize..(s.addr + total) as usize].to_vec();
    let to_nhwc = params.transpose_type == TransposeType::TRANSPOSE_NCHW2NHWC;
    for b in 0..n as usize {
        let base = b * c * hw;
        for ch in 0..c {
            for p in 0..hw {
                let nchw = base + ch * hw + p;
                let nhwc = base + p * c + ch;
                let (from, to) = if to_nhwc { (nchw, nhwc) } else { (nhwc, nchw) };
                let at = d.addr as usize + to * e;
                ub[at..at + e].copy_from_slice(&src_bytes[from * e..from * e + e]);
            }
        }
    }
    core.issue(Pipe::V, API, loc, &accesses);
    Ok(())
}
