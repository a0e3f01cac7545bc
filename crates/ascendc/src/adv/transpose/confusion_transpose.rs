//! `ConfusionTranspose` (张量变换/Transpose; the kernel calls it `Transpose` or
//! `ConfusionTranspose`): NZ/ND reshapes and 2-D transposes of 2- and 4-byte elements in UB,
//! built from `TransDataTo5HD` (16×16 fractal transposes) and UB→UB `DataCopy`.
//!
//! Products: A2, A3 and 310P (AI Core); 310B and the 910 (A1) are refused, and so are scenes 13–16
//! (`TRANSPOSE_ND2ND_021` … `TRANSPOSE_ND2NZ_WITH_INTLV`), which only Ascend 950 has.
//!
//! Layouts (element offsets; `⌈x⌉₁₆` is x rounded up to 16, `S' = ⌈S⌉₁₆`, `D = H/N`,
//! `D' = ⌈D⌉₁₆`, `H' = ⌈N·D⌉₁₆`; a fractal is 16 rows of 16 contiguous elements):
//! * scenes 1, 2 (`[B, N, S, D]` NZ, source `[B, N, D'/16, S'/16, 16, 16]`):
//!   `(b, n, s, d) → b·N·S'·D' + n·S'·D' + (d/16)·S'·16 + s·16 + d%16`; scene 1 writes ND
//!   `[B, S', N, D']`: `b·N·S'·D' + s·N·D' + n·D' + d`; scene 2 writes, per `(b, s)`, the
//!   fractal columns of the `[N, D']` matrix: `b·N·S'·D' + s·N·D' + (d/16)·N·16 + n·16 + d%16`
//!   (N rows per column, not padded to 16).
//! * scenes 3, 4 (source `[B, S, N·D]` NZ `[B, H'/16, S'/16, 16, 16]`:
//!   `(b, s, h) → b·H'·S' + (h/16)·S'·16 + s·16 + h%16`, `h = n·D + d`); scene 3 writes NZ
//!   `[B, N, D'/16, S'/16, 16, 16]` (the scene-1 source layout), scene 4 ND `[B, N, S', D']`:
//!   `b·N·S'·D' + n·S'·D' + s·D' + d`.
//! * scenes 5, 6 (source the scene-1 layout); scene 5 writes ND `[B, S', H']`:
//!   `b·S'·H' + s·H' + h`, scene 6 NZ `[B, H'/16, S'/16, 16, 16]` (the scene-3 source layout).
//! * scene 7: `[H, W]` ND → `[W, H]` ND, H and W multiples of 16.
//!
//! Padding rows and columns of the destination (s ≥ S, d ≥ D, h ≥ N·D) hold whatever the
//! transposes carry there (as on the device, they are not zeroed).
//!
//! Instruction sequence, as the device's: scenes 1/2 transpose a column of `newPopSize / 256`
//! source fractals into the temporary buffer (16 rows of `newPopH` elements, one
//! `TransDataTo5HD` with repeats) and transpose them back into the destination rows (a second
//! `TransDataTo5HD`), looping B, N, the `D'/16` fractal columns and the chunks of S';
//! 4-byte types take two passes of 8 columns each. Scenes 3–6 loop B, the S' blocks and the
//! source fractal columns: each fractal is transposed into tmp1 (the buffer's first 256
//! elements; a row per column h), the rows the current destination block still needs are moved
//! into tmp2 (the next 256 elements) with `DataCopy`, and each full destination block of 16
//! columns (or the last, short block of an H/N group or of H) is transposed from tmp2 into the
//! destination. Scene 7 is one `TransDataTo5HD` (with repeats along W) per 16 rows of H and
//! needs no temporary space. The row bookkeeping of scenes 3–6 is ours (the device's state
//! machine issues the same kinds of instructions in the same order of blocks).

use crate::adv::common::{barrier_v, require, run, Tmp};
use crate::api::data_copy::{data_copy, DataCopyParams};
use crate::api::vec::trans_data::{trans_data_to_5hd_addr, TransDataTo5HDParams};
use crate::chip::Product;
use crate::dtype::{DType, Element};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::LocalTensor;

const API: &str = "ConfusionTranspose";
const PRODUCTS: &[Product] = &[
    Product::Ascend910B,
    Product::Ascend910_93,
    Product::Ascend310P,
];
/// Elements of a 16×16 fractal.
const CUBE: u32 = 256;
/// Rows (and 2-byte columns) of a fractal.
const BC: u32 = 16;
/// Bytes of a block.
const BLK: u32 = 32;

pub use crate::api::vec::transpose::TransposeType;

/// Why a scene number is refused, or `None` for scenes 1–7.
fn scene_refusal(api: &str, v: u32, product: Option<Product>) -> Option<String> {
    let on = match product {
        Some(p) => format!("{p:?}"),
        None => "the products this simulator models (A2/A3, 310P)".to_string(),
    };
    match v {
        1..=7 => None,
        13..=16 => Some(format!(
            "{api}: transposeType {v} ({:?}, scene {v}) is available only on Ascend 950PR/950DT, not on {on}",
            TransposeType::from_u8(v as u8).expect("13..=16 are listed")
        )),
        _ => Some(format!(
            "{api}: transposeType {v} is not a supported scene: the range is [1, 7] (scenes 13–16 on Ascend 950 only)"
        )),
    }
}

/// `ConfusionTransposeTiling`: 18 `uint32_t` whose meaning depends on the scene (as
/// `GetTransposeTilingInfo` fills them; unused ones 0).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct ConfusionTransposeTiling {
    /// `param0` … `param17`.
    pub param: [u32; 18],
}

fn host_err(api: &str, msg: String) -> SimError {
    SimError::new(
        Category::Range,
        "ConfusionTranspose",
        format!("{api}: {msg}"),
    )
}

fn check_type_size(api: &str, type_size: u32) -> Result<()> {
    if type_size != 2 && type_size != 4 {
        return Err(host_err(
            api,
            format!("typeSize = {type_size}: scenes 1–7 take 2- or 4-byte elements"),
        ));
    }
    Ok(())
}

fn check_rank(api: &str, shape: &[u32], rank: usize, what: &str) -> Result<()> {
    if shape.len() != rank || shape.contains(&0) {
        return Err(host_err(
            api,
            format!("srcShape {shape:?}: this scene takes {what}, all positive"),
        ));
    }
    Ok(())
}

fn up16(x: u32) -> u32 {
    x.div_ceil(BC) * BC
}

/// `GetTransposeMaxMinTmpSize` / `GetConfusionTransposeMaxMinTmpSize`: (max, min) bytes of
/// temporary space for `transpose_type` (1–7) and `src_shape` (`[B, N, S, H/N]`, or `[H, W]` for
/// scene 7). Scenes 1/2: min one fractal, max a column of `S'/16` fractals; scenes 3–6: two
/// fractals; scene 7: none.
pub fn confusion_transpose_max_min_tmp_size(
    src_shape: &[u32],
    type_size: u32,
    transpose_type: u32,
) -> Result<(u32, u32)> {
    const F: &str = "GetTransposeMaxMinTmpSize";
    if let Some(m) = scene_refusal(F, transpose_type, None) {
        return Err(SimError::new(Category::Unsupported, API, m));
    }
    check_type_size(F, type_size)?;
    match transpose_type {
        1 | 2 => {
            check_rank(F, src_shape, 4, "[B, N, S, H/N]")?;
            Ok((up16(src_shape[2]) * BC * type_size, CUBE * type_size))
        }
        3..=6 => {
            check_rank(F, src_shape, 4, "[B, N, S, H/N]")?;
            Ok((2 * CUBE * type_size, 2 * CUBE * type_size))
        }
        _ => {
            check_rank(F, src_shape, 2, "[H, W]")?;
            Ok((0, 0))
        }
    }
}

/// `GetTransposeTilingInfo` / `GetConfusionTransposeTilingInfo`: the tiling of `transpose_type`
/// (1–7) for `src_shape` and `stack_buffer_size` bytes of temporary space (used by scenes 1/2
/// only; rounded down to whole fractals, at least one).
pub fn confusion_transpose_tiling_info(
    src_shape: &[u32],
    stack_buffer_size: u32,
    type_size: u32,
    transpose_type: u32,
) -> Result<ConfusionTransposeTiling> {
    const F: &str = "GetTransposeTilingInfo";
    if let Some(m) = scene_refusal(F, transpose_type, None) {
        return Err(SimError::new(Category::Unsupported, API, m));
    }
    check_type_size(F, type_size)?;
    let block_size = BLK / type_size;
    let mut p = [0u32; 18];
    match transpose_type {
        1 | 2 => {
            check_rank(F, src_shape, 4, "[B, N, S, H/N]")?;
            let (b, a1) = (src_shape[0], src_shape[1]);
            let align_a2 = up16(src_shape[2]);
            let width_tiling = src_shape[3].div_ceil(BC);
            let align_a3 = width_tiling * BC;
            let new_pop_size = stack_buffer_size / type_size / CUBE * CUBE;
            if new_pop_size == 0 {
                return Err(host_err(
                    F,
                    format!(
                        "stackBufferSize = {stack_buffer_size} bytes holds no 16×16 fractal of {type_size}-byte elements (the minimum is {})",
                        CUBE * type_size
                    ),
                ));
            }
            let need_size = align_a2 * BC;
            // More than one column of fractals is never used, nor more than a TransDataTo5HD's
            // 255 repeats (the device's tiling would let the 8-bit repeat count wrap).
            let new_pop_size = new_pop_size.min(need_size).min(255 * CUBE);
            let new_pop_h = new_pop_size / BC;
            let main_blocks = need_size / new_pop_size;
            let tail_size = need_size % new_pop_size;
            let a2a3 = align_a2 * align_a3;
            let a3a1 = a1 * align_a3;
            p[..16].copy_from_slice(&[
                block_size,
                b,
                a1,
                align_a3,
                align_a2,
                width_tiling,
                new_pop_size,
                new_pop_h,
                need_size,
                main_blocks,
                tail_size,
                a2a3,
                a1 * a2a3,
                a3a1,
                a1 * BC,
                new_pop_h * main_blocks * a3a1,
            ]);
        }
        3..=6 => {
            check_rank(F, src_shape, 4, "[B, N, S, H/N]")?;
            let (b, n, hn) = (src_shape[0], src_shape[1], src_shape[3]);
            let h = n * hn;
            let h_blocks = h.div_ceil(BC);
            let s_blocks = src_shape[2].div_ceil(BC);
            let hn_blocks = hn.div_ceil(BC);
            let align_hn = hn_blocks * BC;
            let block_num = BC / block_size;
            match transpose_type {
                3 => p[..17].copy_from_slice(&[
                    block_size,
                    b,
                    n,
                    hn,
                    block_num,
                    h,
                    h_blocks,
                    s_blocks,
                    h_blocks * BC,
                    s_blocks * BC,
                    hn_blocks,
                    align_hn,
                    align_hn - hn,
                    s_blocks * CUBE,
                    n * hn_blocks,
                    n * align_hn * s_blocks * BC,
                    h_blocks * BC * s_blocks * BC,
                ]),
                4 => p.copy_from_slice(&[
                    block_size,
                    b,
                    n,
                    hn,
                    h,
                    h_blocks,
                    s_blocks,
                    hn_blocks,
                    align_hn,
                    align_hn - hn,
                    s_blocks * CUBE,
                    n * hn_blocks,
                    s_blocks * BC * align_hn,
                    align_hn * BC,
                    align_hn * block_size,
                    n * align_hn * s_blocks * BC,
                    h_blocks * s_blocks * CUBE,
                    block_num,
                ]),
                _ => p[..15].copy_from_slice(&[
                    block_size,
                    b,
                    n,
                    hn,
                    h,
                    h_blocks,
                    s_blocks,
                    hn_blocks,
                    h_blocks * BC,
                    s_blocks * CUBE,
                    h_blocks * BC * BC,
                    block_size * h_blocks * BC,
                    n * hn_blocks * BC * s_blocks * BC,
                    h_blocks * BC * s_blocks * BC,
                    block_num,
                ]),
            }
        }
        _ => {
            check_rank(F, src_shape, 2, "[H, W]")?;
            let (height, width) = (src_shape[0], src_shape[1]);
            p[..6].copy_from_slice(&[
                block_size,
                height,
                width,
                height / BC,
                height * block_size * type_size / BLK,
                width / block_size,
            ]);
        }
    }
    Ok(ConfusionTransposeTiling { param: p })
}

fn err(cat: Category, msg: String) -> SimError {
    SimError::new(cat, API, msg)
}

/// UB byte address of element `off` of `t`.
fn addr<T: Element>(t: &LocalTensor<T>, off: u32) -> u64 {
    t.get_phy_addr() as u64 + off as u64 * T::SIZE as u64
}

/// `TransDataTo5HD` with `repeat` repeats (strides only when repeating, as the device sets
/// them), after a `PipeBarrier<PIPE_V>`.
fn t5hd<T: Element>(
    dst: &[u64; 16],
    src: &[u64; 16],
    repeat: u32,
    dst_rs: u32,
    src_rs: u32,
) -> Result<()> {
    barrier_v()?;
    t5hd_only::<T>(dst, src, repeat, dst_rs, src_rs)
}

/// [`t5hd`] without the barrier (scene 7 issues none).
fn t5hd_only<T: Element>(
    dst: &[u64; 16],
    src: &[u64; 16],
    repeat: u32,
    dst_rs: u32,
    src_rs: u32,
) -> Result<()> {
    let (d, s) = if repeat > 1 { (dst_rs, src_rs) } else { (0, 0) };
    let p = TransDataTo5HDParams {
        dst_high_half: false,
        src_high_half: false,
        repeat_times: repeat as u8,
        dst_rep_stride: d as u16,
        src_rep_stride: s as u16,
    };
    trans_data_to_5hd_addr::<T>(dst, src, p)
}

/// One 16×16 fractal transposed: `dst` row r (16 elements at `dst_row(r)`) gets column r of the
/// rows at `src_row(0..16)`. 2-byte: one instruction; 4-byte: two, 8 columns each.
fn fractal<T: Element>(dst_row: impl Fn(u32) -> u64, src_row: impl Fn(u32) -> u64) -> Result<()> {
    let sz = T::SIZE as u64;
    if T::SIZE == 2 {
        let d = std::array::from_fn(|n| dst_row(n as u32));
        let s = std::array::from_fn(|n| src_row(n as u32));
        return t5hd::<T>(&d, &s, 1, 0, 0);
    }
    for m in 0..2u32 {
        let d = std::array::from_fn(|n| dst_row(m * 8 + n as u32 / 2) + (n as u64 % 2) * 8 * sz);
        let s = std::array::from_fn(|n| src_row(n as u32) + (m * 8) as u64 * sz);
        t5hd::<T>(&d, &s, 1, 0, 0)?;
    }
    Ok(())
}

fn need<T: Element>(name: &str, t: &LocalTensor<T>, elems: u64) -> Result<()> {
    if (t.get_size() as u64) < elems {
        return Err(err(
            Category::Size,
            format!(
                "`{name}` holds {} elements, the tiling needs {elems}",
                t.get_size()
            ),
        ));
    }
    Ok(())
}

fn bad_tiling(what: String) -> SimError {
    err(
        Category::Range,
        format!("tiling {what} (fill it with GetTransposeTilingInfo for this scene)"),
    )
}

/// `Transpose` / `ConfusionTranspose(dst, src, [sharedTmpBuffer,] transposeType, tiling)`:
/// `T` int16/uint16/half/int32/uint32/float; `tmp` at least the minimum of
/// [`confusion_transpose_max_min_tmp_size`] (scenes 1/2: the `newPopSize` elements the tiling
/// was computed for; scenes 3–6: two fractals; scene 7 does not use it). See the module
/// documentation for the layouts.
#[track_caller]
pub fn confusion_transpose<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: Tmp,
    transpose_type: TransposeType,
    tiling: &ConfusionTransposeTiling,
) -> Result<()> {
    run(API, SourceLoc::caller(), || {
        let product = require(API, PRODUCTS)?;
        if let Some(m) = scene_refusal(API, transpose_type as u32, Some(product)) {
            return Err(err(Category::Unsupported, m));
        }
        if !matches!(
            T::DTYPE,
            DType::Int16
                | DType::Uint16
                | DType::Half
                | DType::Int32
                | DType::Uint32
                | DType::Float
        ) {
            return Err(err(
                Category::Type,
                format!(
                    "T = {}: scenes 1–7 take int16_t, uint16_t, half, int32_t, uint32_t or float",
                    T::DTYPE
                ),
            ));
        }
        let p = &tiling.param;
        let block_size = BLK / T::SIZE as u32;
        if p[0] != block_size {
            return Err(bad_tiling(format!(
                "blockSize (param0) = {} does not match T = {} ({block_size} elements a block)",
                p[0],
                T::DTYPE
            )));
        }
        use TransposeType::*;
        match transpose_type {
            TRANSPOSE_NZ2ND_0213 | TRANSPOSE_NZ2NZ_0213 => {
                let tmp = tmp.buffer(API)?.reinterpret_cast::<T>();
                scene_0213(dst, src, &tmp, transpose_type == TRANSPOSE_NZ2NZ_0213, p)
            }
            TRANSPOSE_ND2ND_ONLY => scene_only(dst, src, p),
            _ => {
                let tmp = tmp.buffer(API)?.reinterpret_cast::<T>();
                scene_stream(dst, src, &tmp, transpose_type, p)
            }
        }
    })
}

/// Scenes 1/2.
fn scene_0213<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: &LocalTensor<T>,
    nz: bool,
    p: &[u32; 18],
) -> Result<()> {
    let [bs, b, a1, a3, a2, wt, pop, pop_h, need_sz, main, tail, a2a3, batch, a3a1, a1bc, main_off, ..] =
        *p;
    if b == 0
        || a1 == 0
        || a2 == 0
        || a2 % BC != 0
        || a3 != wt * BC
        || pop == 0
        || pop % CUBE != 0
        || pop_h * BC != pop
        || need_sz != a2 * BC
        || main != need_sz / pop
        || tail != need_sz % pop
        || a2a3 != a2 * a3
        || batch != a1 * a2a3
        || a3a1 != a1 * a3
        || a1bc != a1 * BC
        || main_off != pop_h * main * a3a1
    {
        return Err(bad_tiling(format!("{p:?} is not a scene-1/2 tiling")));
    }
    if pop / CUBE > 255 {
        return Err(bad_tiling(format!(
            "newPopSize = {pop}: more than 255 fractals a TransDataTo5HD"
        )));
    }
    let total = b as u64 * batch as u64;
    need("srcTensor", src, total)?;
    need("dstTensor", dst, total)?;
    need("sharedTmpBuffer", tmp, pop as u64)?;
    let sz = T::SIZE as u64;
    let rows = |tensor: &LocalTensor<T>, base: u32, stride: u32| {
        let a = addr(tensor, base);
        move |n: u32| a + (n * stride) as u64 * sz
    };
    for k in 0..b {
        for i in 0..a1 {
            for j in 0..wt {
                let col = |m: u32, elems: u32| -> Result<()> {
                    let rep = elems / CUBE;
                    let src_base = m * pop + j * need_sz + i * a2a3 + k * batch;
                    let dst_base = pop_h * m * a3a1
                        + if nz {
                            j * a1bc + i * BC
                        } else {
                            j * BC + i * a3
                        }
                        + k * batch;
                    if T::SIZE == 2 {
                        let d = std::array::from_fn(|n| addr(tmp, pop_h * n as u32));
                        let s = std::array::from_fn(|n| addr(src, src_base + BC * n as u32));
                        t5hd::<T>(&d, &s, rep, BC / bs, CUBE / bs)?;
                        let d = std::array::from_fn(|n| addr(dst, dst_base + a3a1 * n as u32));
                        let s = std::array::from_fn(|n| addr(tmp, pop_h * n as u32));
                        t5hd::<T>(&d, &s, rep, a3a1 * BC / bs, BC / bs)?;
                    } else {
                        for q in 0..2u32 {
                            let t = rows(tmp, q * bs * pop_h, pop_h);
                            let d = std::array::from_fn(|n| {
                                t(n as u32 / 2) + (n as u64 % 2) * bs as u64 * sz
                            });
                            let s = std::array::from_fn(|n| {
                                addr(src, q * bs + src_base + BC * n as u32)
                            });
                            t5hd::<T>(&d, &s, rep, BC / bs, CUBE / bs)?;
                        }
                        for q in 0..2u32 {
                            let r = rows(dst, q * bs * a3a1 + dst_base, a3a1);
                            let d = std::array::from_fn(|n| {
                                r(n as u32 / 2) + (n as u64 % 2) * bs as u64 * sz
                            });
                            let s = std::array::from_fn(|n| addr(tmp, q * bs + pop_h * n as u32));
                            t5hd::<T>(&d, &s, rep, a3a1 * BC / bs, BC / bs)?;
                        }
                    }
                    Ok(())
                };
                for m in 0..main {
                    col(m, pop)?;
                }
                if tail != 0 {
                    col(main, tail)?;
                }
            }
        }
    }
    Ok(())
}

/// Scene 7.
fn scene_only<T: Element>(dst: &LocalTensor<T>, src: &LocalTensor<T>, p: &[u32; 18]) -> Result<()> {
    let [bs, height, width, high_block, stride, repeat, ..] = *p;
    if height == 0
        || width == 0
        || height % BC != 0
        || width % BC != 0
        || high_block != height / BC
        || stride != height * bs * T::SIZE as u32 / BLK
        || repeat != width / bs
    {
        return Err(bad_tiling(format!(
            "{:?} is not a scene-7 tiling ([H, W] = [{height}, {width}]: both must be positive multiples of 16)",
            &p[..6]
        )));
    }
    if repeat > 255 {
        return Err(bad_tiling(format!(
            "W = {width}: {repeat} repeats, TransDataTo5HD takes at most 255"
        )));
    }
    let total = height as u64 * width as u64;
    need("srcTensor", src, total)?;
    need("dstTensor", dst, total)?;
    let sz = T::SIZE as u64;
    for i in 0..high_block {
        let s = std::array::from_fn(|n| addr(src, i * width * BC + width * n as u32));
        let d = if T::SIZE == 2 {
            std::array::from_fn(|m| addr(dst, i * BC + height * m as u32))
        } else {
            std::array::from_fn(|m| {
                addr(dst, i * BC + height * (m as u32 / 2)) + (m as u64 % 2) * bs as u64 * sz
            })
        };
        t5hd_only::<T>(&d, &s, repeat, stride, 1)?;
    }
    Ok(())
}

/// Scenes 3–6: a stream of fractal columns (rows of h in the transposed domain) repacked into
/// destination blocks of columns.
fn scene_stream<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: &LocalTensor<T>,
    ty: TransposeType,
    p: &[u32; 18],
) -> Result<()> {
    use TransposeType::*;
    let (b, n, hn) = (p[1], p[2], p[3]);
    let bs = BLK / T::SIZE as u32;
    if b == 0 || n == 0 || hn == 0 {
        return Err(bad_tiling(format!(
            "B, N, H/N = {b}, {n}, {hn}: all must be positive"
        )));
    }
    let h = n * hn;
    let hb = h.div_ceil(BC);
    let hnb = hn.div_ceil(BC);
    let (align_h, align_hn) = (hb * BC, hnb * BC);
    // S' / 16, checked against the scene's own fields.
    let sb = match ty {
        TRANSPOSE_NZ2NZ_012_WITH_N => p[7],
        _ => p[6],
    };
    let expect =
        confusion_transpose_tiling_info(&[b, n, sb * BC, hn], 0, T::SIZE as u32, ty as u32)
            .map_err(|e| bad_tiling(format!("{e}")))?;
    if sb == 0 || expect.param != *p {
        return Err(bad_tiling(format!(
            "{p:?} is not a scene-{} tiling of T = {}",
            ty as u32,
            T::DTYPE
        )));
    }
    let align_s = sb * BC;
    let block_num = BC / bs;
    let split = matches!(ty, TRANSPOSE_NZ2NZ_012_WITH_N | TRANSPOSE_NZ2ND_012_WITH_N);
    let per_batch_src = if split {
        align_h * align_s
    } else {
        n * align_hn * align_s
    };
    let per_batch_dst = if split {
        n * align_hn * align_s
    } else {
        align_h * align_s
    };
    need("srcTensor", src, b as u64 * per_batch_src as u64)?;
    need("dstTensor", dst, b as u64 * per_batch_dst as u64)?;
    need("sharedTmpBuffer", tmp, 2 * CUBE as u64)?;
    let tmp2 = tmp.at(CUBE)?;
    // Source fractal columns: (offset of the column within a batch, first h, valid columns).
    let mut src_cols = Vec::new();
    // Destination blocks: (first h, columns) in h order.
    let mut dst_blocks = Vec::new();
    let mut per_head = Vec::new();
    for head in 0..n {
        for c in 0..hnb {
            let cols = (hn - c * BC).min(BC);
            per_head.push((head, c, head * hn + c * BC, cols));
        }
    }
    if split {
        for blk in 0..hb {
            src_cols.push((blk * align_s * BC, blk * BC, (h - blk * BC).min(BC)));
        }
        dst_blocks = per_head.clone();
    } else {
        for &(head, c, h0, cols) in &per_head {
            src_cols.push(((head * hnb + c) * align_s * BC, h0, cols));
        }
        for blk in 0..hb {
            dst_blocks.push((0, 0, blk * BC, (h - blk * BC).min(BC)));
        }
    }
    // Element offset of row s (within S block j) of destination block `d` of batch k.
    let dst_row = |k: u32, j: u32, d: &(u32, u32, u32, u32), s: u32| -> u32 {
        let &(head, c, h0, _) = d;
        let base = k * per_batch_dst;
        match ty {
            TRANSPOSE_NZ2NZ_012_WITH_N => {
                base + head * align_hn * align_s + c * align_s * BC + (j * BC + s) * BC
            }
            TRANSPOSE_NZ2ND_012_WITH_N => {
                base + head * align_s * align_hn + (j * BC + s) * align_hn + c * BC
            }
            TRANSPOSE_NZ2ND_012_WITHOUT_N => base + (j * BC + s) * align_h + h0,
            _ => base + (h0 / BC) * align_s * BC + (j * BC + s) * BC,
        }
    };
    let copy_rows = |to: u32, from: u32, rows: u32| -> Result<()> {
        barrier_v()?;
        data_copy(
            &tmp2.at(to * BC)?,
            &tmp.at(from * BC)?,
            DataCopyParams::new(1, (rows * block_num) as u16, 0, 0),
        )
    };
    for k in 0..b {
        for j in 0..sb {
            let mut di = 0usize;
            let mut filled = 0u32;
            for &(off, _, cols) in &src_cols {
                // src → tmp1: row c of tmp1 = column c of the fractal.
                let base = k * per_batch_src + off + j * CUBE;
                fractal::<T>(|r| addr(tmp, r * BC), |r| addr(src, base + r * BC))?;
                let mut taken = 0u32;
                while taken < cols {
                    let want = dst_blocks[di].3 - filled;
                    let rows = want.min(cols - taken);
                    copy_rows(filled, taken, rows)?;
                    taken += rows;
                    filled += rows;
                    if filled == dst_blocks[di].3 {
                        // tmp2 → dst: row s of the block = column s of tmp2's rows.
                        let d = dst_blocks[di];
                        fractal::<T>(|s| addr(dst, dst_row(k, j, &d, s)), |r| addr(&tmp2, r * BC))?;
                        di += 1;
                        filled = 0;
                    }
                }
            }
            debug_assert_eq!(di, dst_blocks.len());
        }
    }
    Ok(())
}
