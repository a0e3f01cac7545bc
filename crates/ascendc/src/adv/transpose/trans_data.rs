//! TransData: NCDHW ⇄ NDC1HWC0 and NCDHW ⇄ FRACTAL_Z_3D in UB (张量变换/TransData), 16-bit
//! elements (`int16_t`, `uint16_t`, `half`, `bfloat16_t`); A2 and A3 (the page lists neither
//! 310P, 310B nor the training series).
//!
//! `C` splits into `C1 = ⌈C/16⌉` groups of `C0 = 16`, `N` into `N1 = ⌈N/16⌉` groups of
//! `N0 = 16`; the split's padding channels and batches read as zero. An NCDHW operand holds each
//! `(n, c, d)` row of `H·W` elements padded to 32 bytes (`padHw = ⌈H·W/16⌉·16`): the caller pads
//! an NCDHW input, and an NCDHW output carries the padding (its values are undefined). The
//! NDC1HWC0 and FRACTAL_Z_3D operands are dense.
//!
//! The device's instruction sequence, issued here through the basic API:
//! * NCDHW → NDC1HWC0: `Duplicate` zeros (`D·padHw`) at the start of the temporary buffer; per
//!   batch, one `TransDataTo5HD` per `C1` group (`C` rows of `D·padHw` → `D·padHw` rows of
//!   `C0`, the missing channels read from the zeros) into the buffer after the zeros, then per
//!   group a `DataCopy` of `D` blocks of `H·W·C0` dropping the row padding into the output.
//! * NDC1HWC0 → NCDHW: per batch, `D` `DataCopy`s regrouping the input as `C1, D, padHw, C0`
//!   after 512 reserved bytes of the buffer, then one `TransDataTo5HD` per `C1` group back to
//!   channel rows (the rows of missing channels land in the reserved bytes).
//! * NCDHW → FRACTAL_Z_3D: `Duplicate` zeros, one `TransDataTo5HD` per `N1` group (`N` rows →
//!   `C·D·padHw` rows of `N1·N0`), a `DataCopy` dropping the `H·W` padding when there is some,
//!   one `TransDataTo5HD` per `C1` group (→ `C1, D·H·W·N1·N0, C0`), and per `C1` group a
//!   `DataCopy` of `D` blocks into `D, C1, H·W·N1·N0·C0`.
//! * FRACTAL_Z_3D → NCDHW (in half): `Duplicate` zeros, `D` `DataCopy`s into `C1, D, padHw,
//!   N1·N0·C0`, one `TransDataTo5HD` per `C1` group (→ `C1·C0, D·padHw·N1·N0`), one per `N1`
//!   group (→ `N, C·D·padHw`). With `C` and `N` multiples of 16 the output holds the first
//!   stage; otherwise the buffer holds both.
//!
//! Every call ends with `PipeBarrier<PIPE_V>`. Deviation: the device stores repeat counts and
//! copy lengths in 8- and 16-bit fields without a check; a shape that would overflow one is an
//! error here.

use crate::adv::common::{barrier_v, require, run, Tmp};
use crate::api::vec::duplicate::duplicate;
use crate::api::vec::trans_data::{trans_data_to_5hd_addr, TransDataTo5HDParams};
use crate::chip::Product;
use crate::dtype::{DType, Element};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::{data_copy, f16, DataCopyParams, LocalTensor};

const API: &str = "TransData";
const A2_A3: &[Product] = &[Product::Ascend910B, Product::Ascend910_93];
/// C0 = N0 = 16, and the elements of a 32-byte block (every type is 16-bit).
const K: i64 = 16;
/// Bytes of an element.
const ES: u64 = 2;

/// `AscendC::DataFormat`: the layouts `TransDataConfig` names (the discriminants are the
/// device's).
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::upper_case_acronyms, non_camel_case_types)]
pub enum DataFormat {
    /// `ND`.
    ND = 0,
    /// `NZ`.
    NZ,
    /// `NCHW`.
    NCHW,
    /// `NC1HWC0`.
    NC1HWC0,
    /// `NHWC`.
    NHWC,
    /// `NCDHW`: `[N, C, D, H, W]`.
    NCDHW,
    /// `NDC1HWC0`: `[N, D, C1, H, W, C0]`.
    NDC1HWC0,
    /// `FRACTAL_Z_3D`: `[D, C1, H, W, N1, N0, C0]`.
    FRACTAL_Z_3D,
}

impl DataFormat {
    /// The format with discriminant `v`.
    pub fn from_u8(v: u8) -> Option<DataFormat> {
        use DataFormat::*;
        [ND, NZ, NCHW, NC1HWC0, NHWC, NCDHW, NDC1HWC0, FRACTAL_Z_3D]
            .get(v as usize)
            .copied()
    }
}

/// `TransDataConfig { srcFormat, dstFormat }`: the conversion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TransDataConfig {
    /// The source's layout.
    pub src_format: DataFormat,
    /// The destination's layout.
    pub dst_format: DataFormat,
}

impl TransDataConfig {
    /// `{srcFormat, dstFormat}`.
    pub const fn new(src_format: DataFormat, dst_format: DataFormat) -> Self {
        TransDataConfig {
            src_format,
            dst_format,
        }
    }
}

/// The four supported conversions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scene {
    NcdhwTo6hd,
    SixHdToNcdhw,
    NcdhwToFz3d,
    Fz3dToNcdhw,
}

/// The NCDHW extents and their splits.
#[derive(Clone, Copy, Debug)]
struct Dims {
    n: i64,
    c: i64,
    d: i64,
    h: i64,
    w: i64,
    n1: i64,
    c1: i64,
    /// `H·W` rounded up to 16 elements (32 bytes).
    pad_hw: i64,
}

fn ceil(a: i64, b: i64) -> i64 {
    (a + b - 1) / b
}

/// The scene of `config` and the extents of the shapes, checked against each other (the rule
/// both the kernel and `GetTransDataMaxMinTmpSize` keep); an error message otherwise.
fn scene_dims(
    config: TransDataConfig,
    src: &[i64],
    dst: &[i64],
) -> std::result::Result<(Scene, Dims), String> {
    use DataFormat::*;
    let scene = match (config.src_format, config.dst_format) {
        (NCDHW, NDC1HWC0) => Scene::NcdhwTo6hd,
        (NDC1HWC0, NCDHW) => Scene::SixHdToNcdhw,
        (NCDHW, FRACTAL_Z_3D) => Scene::NcdhwToFz3d,
        (FRACTAL_Z_3D, NCDHW) => Scene::Fz3dToNcdhw,
        (s, d) => {
            return Err(format!(
                "config {{{s:?}, {d:?}}} is not supported: the conversions are NCDHW -> NDC1HWC0, NDC1HWC0 -> NCDHW, NCDHW -> FRACTAL_Z_3D and FRACTAL_Z_3D -> NCDHW"
            ))
        }
    };
    let (ncdhw, other, other_rank, other_name) = match scene {
        Scene::NcdhwTo6hd => (src, dst, 6, "dstLayout (NDC1HWC0)"),
        Scene::SixHdToNcdhw => (dst, src, 6, "srcLayout (NDC1HWC0)"),
        Scene::NcdhwToFz3d => (src, dst, 7, "dstLayout (FRACTAL_Z_3D)"),
        Scene::Fz3dToNcdhw => (dst, src, 7, "srcLayout (FRACTAL_Z_3D)"),
    };
    let ncdhw_name = if matches!(scene, Scene::NcdhwTo6hd | Scene::NcdhwToFz3d) {
        "srcLayout (NCDHW)"
    } else {
        "dstLayout (NCDHW)"
    };
    if ncdhw.len() != 5 {
        return Err(format!(
            "{ncdhw_name} has {} dimensions {ncdhw:?}: NCDHW has 5",
            ncdhw.len()
        ));
    }
    if other.len() != other_rank {
        return Err(format!(
            "{other_name} has {} dimensions {other:?}: it has {other_rank}",
            other.len()
        ));
    }
    if let Some(v) = ncdhw.iter().chain(other).find(|&&v| v <= 0) {
        return Err(format!(
            "shape dimension {v} is not positive ({ncdhw_name} {ncdhw:?}, {other_name} {other:?})"
        ));
    }
    let (n, c, d, h, w) = (ncdhw[0], ncdhw[1], ncdhw[2], ncdhw[3], ncdhw[4]);
    let (n1, c1) = (ceil(n, K), ceil(c, K));
    // (what, got, want)
    let checks: Vec<(&str, i64, i64)> = if other_rank == 6 {
        vec![
            ("N", other[0], n),
            ("D", other[1], d),
            ("C1", other[2], c1),
            ("H", other[3], h),
            ("W", other[4], w),
            ("C0", other[5], K),
        ]
    } else {
        vec![
            ("D", other[0], d),
            ("C1", other[1], c1),
            ("H", other[2], h),
            ("W", other[3], w),
            ("N1", other[4], n1),
            ("N0", other[5], K),
            ("C0", other[6], K),
        ]
    };
    for (what, got, want) in checks {
        if got != want {
            return Err(format!(
                "{other_name} {other:?} does not match {ncdhw_name} {ncdhw:?}: its {what} is {got}, must be {want} (C1 = ceil(C/16), N1 = ceil(N/16), C0 = N0 = 16)"
            ));
        }
    }
    let pad_hw = ceil(h * w, K) * K;
    Ok((
        scene,
        Dims {
            n,
            c,
            d,
            h,
            w,
            n1,
            c1,
            pad_hw,
        },
    ))
}

/// Bytes of temporary space a scene needs (`GetTransDataMaxMinTmpSize`'s value).
fn tmp_bytes(scene: Scene, g: &Dims) -> i64 {
    let Dims {
        n,
        c,
        d,
        h,
        w,
        n1,
        c1,
        pad_hw,
    } = *g;
    let es = ES as i64;
    match scene {
        Scene::NcdhwTo6hd => d * pad_hw * es + d * c1 * K * pad_hw * es,
        Scene::SixHdToNcdhw => d * c1 * K * pad_hw * es + 512,
        Scene::NcdhwToFz3d => {
            (c * d * pad_hw * es).max(d * h * w * n1 * K * es) + n1 * K * d * c1 * K * pad_hw * es
        }
        Scene::Fz3dToNcdhw => {
            let one = n1 * K * c1 * K * d * pad_hw * es;
            if n == n1 * K && c == c1 * K {
                one
            } else {
                2 * one
            }
        }
    }
}

/// `GetTransDataMaxMinTmpSize(platform, srcShape, dstShape, dataType, config, maxValue,
/// minValue)` on `product`: `(max, min)` in bytes (they are equal), or the reason the device's
/// helper returns false (a product other than A2/A3, a type other than half / bfloat16 / int16 /
/// uint16, an unsupported conversion, shapes that do not match).
pub fn trans_data_max_min_tmp_size(
    product: Product,
    src_shape: &[i64],
    dst_shape: &[i64],
    data_type: DType,
    config: TransDataConfig,
) -> std::result::Result<(u32, u32), String> {
    if !matches!(
        data_type,
        DType::Half | DType::Bfloat16 | DType::Int16 | DType::Uint16
    ) {
        return Err(format!(
            "dataType {data_type} is not supported: it only supports DT_FLOAT16/DT_BF16/DT_UINT16/DT_INT16"
        ));
    }
    let (scene, g) = scene_dims(config, src_shape, dst_shape)?;
    if !A2_A3.contains(&product) {
        return Err(format!(
            "TransData is not available on {product:?}: its page lists {A2_A3:?}"
        ));
    }
    let b = tmp_bytes(scene, &g);
    let b = u32::try_from(b).map_err(|_| format!("the temporary space of {b} bytes overflows"))?;
    Ok((b, b))
}

fn error(category: Category, message: String) -> SimError {
    SimError::new(category, API, message)
}

/// `v` as a field of at most `max` (`what` names it).
fn field(what: &str, v: i64, max: i64) -> Result<i64> {
    if v < 0 || v > max {
        return Err(error(
            Category::Range,
            format!("the shape needs {what} = {v}, past the instruction's limit {max} (split the data into smaller calls)"),
        ));
    }
    Ok(v)
}

/// `TransDataTo5HDParams` without high halves; `(0, 0)` strides for a single repeat, as the
/// device sets them.
fn t5(what: &str, repeats: i64, dst_stride: i64, src_stride: i64) -> Result<TransDataTo5HDParams> {
    let r = field(&format!("{what} TransDataTo5HD repeatTimes"), repeats, 255)?;
    let (ds, ss) = if r == 1 {
        (0, 0)
    } else {
        (dst_stride, src_stride)
    };
    Ok(TransDataTo5HDParams::new(
        false,
        false,
        r as u8,
        field("dstRepStride", ds, 65535)? as u16,
        field("srcRepStride", ss, 65535)? as u16,
    ))
}

/// `DataCopyParams` (lengths and gaps in 32-byte blocks), range-checked.
fn copy(what: &str, count: i64, len: i64, src_gap: i64, dst_gap: i64) -> Result<DataCopyParams> {
    Ok(DataCopyParams::new(
        field(&format!("{what} DataCopy blockCount"), count, 4095)? as u16,
        field(&format!("{what} DataCopy blockLen"), len, 65535)? as u16,
        field(&format!("{what} DataCopy srcStride"), src_gap, 65535)? as u16,
        field(&format!("{what} DataCopy dstStride"), dst_gap, 65535)? as u16,
    ))
}

/// `TransDataTo5HD<half>` with address lists `f(i) = (dst_i, src_i)` (UB byte addresses).
fn transpose(p: TransDataTo5HDParams, f: impl Fn(i64) -> (u64, u64)) -> Result<()> {
    let (mut d, mut s) = ([0u64; 16], [0u64; 16]);
    for i in 0..16 {
        (d[i], s[i]) = f(i as i64);
    }
    trans_data_to_5hd_addr::<f16>(&d, &s, p)
}

/// UB byte address of element `i` of `t`.
fn at<E: Element>(t: &LocalTensor<E>, i: i64) -> u64 {
    t.get_phy_addr() as u64 + i as u64 * ES
}

/// `t[i]` (`operator[]`).
fn view<E: Element>(t: &LocalTensor<E>, i: i64) -> Result<LocalTensor<E>> {
    t.at(i as u32)
}

/// `TransData<config>(dstTensor, srcTensor, [sharedTmpBuffer,] params)` with the shapes of
/// `params.srcLayout` / `params.dstLayout` as plain arrays (`src_shape`, `dst_shape`; the NCDHW
/// one is the unpadded `[N, C, D, H, W]`). Temporary space: [`trans_data_max_min_tmp_size`].
///
/// `srcTensor` must hold the source's elements (NCDHW: `N·C·D·padHw`), `dstTensor` the
/// destination's, and none of the three may overlap.
#[track_caller]
pub fn trans_data<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: Tmp,
    config: TransDataConfig,
    src_shape: &[i64],
    dst_shape: &[i64],
) -> Result<()> {
    run(API, SourceLoc::caller(), || {
        require(API, A2_A3)?;
        if !matches!(
            T::DTYPE,
            DType::Half | DType::Bfloat16 | DType::Int16 | DType::Uint16
        ) {
            return Err(error(
                Category::Type,
                format!(
                    "T = {} is not supported: TransData takes int16_t, uint16_t, half or bfloat16_t",
                    T::DTYPE
                ),
            ));
        }
        let (scene, g) =
            scene_dims(config, src_shape, dst_shape).map_err(|m| error(Category::Range, m))?;
        let buf = tmp.buffer(API)?;
        let ncdhw = g.n * g.c * g.d * g.pad_hw;
        let six = g.n * g.d * g.c1 * g.h * g.w * K;
        let fz = g.d * g.c1 * g.h * g.w * g.n1 * K * K;
        let (src_need, dst_need) = match scene {
            Scene::NcdhwTo6hd => (ncdhw, six),
            Scene::SixHdToNcdhw => (six, ncdhw),
            Scene::NcdhwToFz3d => (ncdhw, fz),
            Scene::Fz3dToNcdhw => (fz, ncdhw),
        };
        let tmp_need = tmp_bytes(scene, &g);
        for (name, have, need) in [
            ("srcTensor", src.get_size() as i64, src_need),
            ("dstTensor", dst.get_size() as i64, dst_need),
        ] {
            if have < need {
                return Err(error(
                    Category::Size,
                    format!(
                        "`{name}` holds {have} elements, the shapes need {need} (NCDHW rows of H·W padded to {} elements)",
                        g.pad_hw
                    ),
                ));
            }
        }
        if (buf.get_size() as i64) < tmp_need {
            return Err(error(
                Category::Size,
                format!(
                    "sharedTmpBuffer holds {} bytes, {scene:?} needs {tmp_need} (GetTransDataMaxMinTmpSize)",
                    buf.get_size()
                ),
            ));
        }
        let ranges = [
            (
                "srcTensor",
                src.hardware(),
                at(src, 0),
                src_need as u64 * ES,
            ),
            (
                "dstTensor",
                dst.hardware(),
                at(dst, 0),
                dst_need as u64 * ES,
            ),
            (
                "sharedTmpBuffer",
                buf.hardware(),
                buf.get_phy_addr() as u64,
                tmp_need as u64,
            ),
        ];
        for i in 0..3 {
            for j in i + 1..3 {
                let (a, b) = (ranges[i], ranges[j]);
                if a.1 == b.1 && a.2 < b.2 + b.3 && b.2 < a.2 + a.3 {
                    return Err(error(
                        Category::Overlap,
                        format!(
                            "`{}` [{:#x}, {:#x}) and `{}` [{:#x}, {:#x}) overlap: TransData's operands must not",
                            a.0,
                            a.2,
                            a.2 + a.3,
                            b.0,
                            b.2,
                            b.2 + b.3
                        ),
                    ));
                }
            }
        }
        match scene {
            Scene::NcdhwTo6hd => ncdhw_to_6hd(dst, src, &buf, &g),
            Scene::SixHdToNcdhw => six_hd_to_ncdhw(dst, src, &buf, &g),
            Scene::NcdhwToFz3d => ncdhw_to_fz3d(dst, src, &buf, &g),
            Scene::Fz3dToNcdhw => fz3d_to_ncdhw(
                &dst.reinterpret_cast::<f16>(),
                &src.reinterpret_cast::<f16>(),
                &buf.reinterpret_cast::<f16>(),
                &g,
            ),
        }
    })
}

/// NCDHW (rows padded to `padHw`) → NDC1HWC0.
fn ncdhw_to_6hd<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    buf: &LocalTensor<u8>,
    g: &Dims,
) -> Result<()> {
    let Dims {
        n,
        c,
        d,
        h,
        w,
        c1,
        pad_hw,
        ..
    } = *g;
    let pad_hwd = pad_hw * d;
    let hwc0 = h * w * K;
    let c1hwdc0 = hwc0 * c1 * d;
    let pad_hwdc0 = pad_hwd * K;
    duplicate(&buf.reinterpret_cast::<T>(), T::default(), pad_hwd as u32)?;
    barrier_v()?;
    let work = buf
        .at((pad_hwd as u64 * ES) as u32)?
        .reinterpret_cast::<T>();
    let zeros = buf.get_phy_addr() as u64;
    let p = t5("the C1 split's", pad_hwd / K, K, 1)?;
    let cp = copy(
        "the D regroup's",
        d,
        h * w,
        pad_hw - h * w,
        (c1 - 1) * h * w,
    )?;
    for k in 0..n {
        let src_start = k * pad_hwd * c;
        let dst_start = k * c1hwdc0;
        for j in 0..c1 {
            let remain = if j == c1 - 1 { c - j * K } else { K };
            transpose(p, |i| {
                let s = if i < remain {
                    at(src, src_start + j * pad_hwdc0 + i * pad_hwd)
                } else {
                    zeros
                };
                (at(&work, j * pad_hwdc0 + i * K), s)
            })?;
        }
        barrier_v()?;
        for i in 0..c1 {
            data_copy(
                &view(dst, dst_start + i * hwc0)?,
                &view(&work, i * pad_hwdc0)?,
                cp,
            )?;
        }
        barrier_v()?;
    }
    Ok(())
}

/// NDC1HWC0 → NCDHW (rows padded to `padHw`, the padding undefined).
fn six_hd_to_ncdhw<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    buf: &LocalTensor<u8>,
    g: &Dims,
) -> Result<()> {
    let Dims {
        n,
        c,
        d,
        h,
        w,
        c1,
        pad_hw,
        ..
    } = *g;
    const RESERVED: u32 = 512;
    let work = buf.at(RESERVED)?.reinterpret_cast::<T>();
    let scrap = buf.get_phy_addr() as u64;
    let c1hwc0 = h * w * K * c1;
    let c1hwdc0 = c1hwc0 * d;
    let pad_hwd = pad_hw * d;
    let pad_hwc0 = pad_hw * K;
    let pad_hwdc0 = pad_hwd * K;
    let p = t5("the channel rows'", pad_hwd / K, 1, K)?;
    let cp = copy("the C1 regroup's", c1, h * w, 0, d * pad_hw - h * w)?;
    for k in 0..n {
        let src_start = k * c1hwdc0;
        let dst_start = k * pad_hwd * c;
        for i in 0..d {
            data_copy(
                &view(&work, i * pad_hwc0)?,
                &view(src, src_start + i * c1hwc0)?,
                cp,
            )?;
        }
        barrier_v()?;
        for j in 0..c1 {
            let remain = if j == c1 - 1 { c - j * K } else { K };
            transpose(p, |i| {
                let dd = if i < remain {
                    at(dst, dst_start + j * pad_hwdc0 + i * pad_hwd)
                } else {
                    scrap + i as u64 * 32
                };
                (dd, at(&work, j * pad_hwdc0 + i * K))
            })?;
        }
        barrier_v()?;
    }
    Ok(())
}

/// NCDHW (rows padded to `padHw`) → FRACTAL_Z_3D.
fn ncdhw_to_fz3d<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    buf: &LocalTensor<u8>,
    g: &Dims,
) -> Result<()> {
    let Dims {
        n,
        c,
        d,
        h,
        w,
        n1,
        c1,
        pad_hw,
    } = *g;
    let hw = h * w;
    let mut axis = c * d * pad_hw;
    let dup = axis.max(d * hw * n1 * K);
    duplicate(&buf.reinterpret_cast::<T>(), T::default(), dup as u32)?;
    barrier_v()?;
    let work = buf.at((dup as u64 * ES) as u32)?.reinterpret_cast::<T>();
    let zeros = buf.get_phy_addr() as u64;
    // N rows of C·D·padHw → C·D·padHw rows of N1·N0 (the missing batches from the zeros).
    let p = t5("the N1 split's", axis / K, n1 * K, 1)?;
    let padded = pad_hw != hw;
    let first = if padded { at(&work, 0) } else { at(dst, 0) };
    for j in 0..n1 {
        let remain = if j == n1 - 1 { n - j * K } else { K };
        transpose(p, |i| {
            let s = if i < remain {
                at(src, (j * K + i) * axis)
            } else {
                zeros
            };
            (first + ((j * K + i * n1 * K) as u64) * ES, s)
        })?;
    }
    barrier_v()?;
    if padded {
        // Drop the H·W padding: C·D rows of H·W·N1·N0.
        let cp = copy(
            "the padding removal's",
            c * d,
            hw * n1,
            (pad_hw - hw) * n1,
            0,
        )?;
        data_copy(dst, &work, cp)?;
        barrier_v()?;
    }
    // C rows of D·H·W·N1·N0 → C1, D·H·W·N1·N0, C0 (the missing channels from the zeros).
    axis = d * hw * n1 * K;
    let p = t5("the C1 split's", axis / K, K, 1)?;
    for j in 0..c1 {
        let remain = if j == c1 - 1 { c - j * K } else { K };
        transpose(p, |i| {
            let s = if i < remain {
                at(dst, (j * K + i) * axis)
            } else {
                zeros
            };
            (at(&work, j * axis * K + i * K), s)
        })?;
    }
    barrier_v()?;
    // C1, D, HWN1N0C0 → D, C1, HWN1N0C0.
    axis = K * hw * n1 * K;
    let cp = copy("the D regroup's", d, axis / K, 0, (c1 - 1) * axis / K)?;
    for i in 0..c1 {
        data_copy(&view(dst, i * axis)?, &view(&work, i * d * axis)?, cp)?;
    }
    barrier_v()
}

/// FRACTAL_Z_3D → NCDHW (rows padded to `padHw`, the padding undefined), in half.
fn fz3d_to_ncdhw(
    dst: &LocalTensor<f16>,
    src: &LocalTensor<f16>,
    tmp: &LocalTensor<f16>,
    g: &Dims,
) -> Result<()> {
    if g.c == g.c1 * K && g.n == g.n1 * K {
        fz_regroup(dst, src, g)?;
        fz_c0_rows(tmp, dst, g)?;
        fz_n_rows(dst, tmp, tmp, g)
    } else {
        let second = view(tmp, g.n1 * K * g.c1 * K * g.d * g.pad_hw)?;
        fz_regroup(tmp, src, g)?;
        fz_c0_rows(&second, tmp, g)?;
        fz_n_rows(dst, &second, tmp, g)
    }
}

/// D, C1, H·W·N1N0C0 → C1, D, padHw·N1N0C0 (the H·W padding zero).
fn fz_regroup(dst: &LocalTensor<f16>, src: &LocalTensor<f16>, g: &Dims) -> Result<()> {
    let Dims {
        d,
        h,
        w,
        n1,
        c1,
        pad_hw,
        ..
    } = *g;
    let last = h * w * n1 * K * K;
    let n1n0c0 = n1 * K * K;
    let hw_align = pad_hw * n1n0c0;
    let hw_pad = (pad_hw - h * w) * n1n0c0;
    let cp = copy(
        "the C1 regroup's",
        c1,
        last / K,
        0,
        ((d - 1) * hw_align + hw_pad) / K,
    )?;
    duplicate(dst, f16::ZERO, (c1 * d * pad_hw * n1n0c0) as u32)?;
    barrier_v()?;
    for d0 in 0..d {
        data_copy(&view(dst, d0 * hw_align)?, &view(src, d0 * c1 * last)?, cp)?;
    }
    barrier_v()
}

/// C1, D·padHw·N1N0, C0 → C1, C0, D·padHw·N1N0.
fn fz_c0_rows(dst: &LocalTensor<f16>, src: &LocalTensor<f16>, g: &Dims) -> Result<()> {
    let Dims {
        d, n1, c1, pad_hw, ..
    } = *g;
    let rows = d * pad_hw * n1 * K;
    let p = t5("the C0 rows'", d * pad_hw * n1, 1, K)?;
    for j in 0..c1 {
        let out = j * rows * K;
        transpose(p, |i| (at(dst, out + i * rows), at(src, out + i * K)))?;
    }
    barrier_v()
}

/// C1C0·D·padHw, N1N0 → N, C·D·padHw (the rows of missing batches land in `scrap`).
fn fz_n_rows(
    dst: &LocalTensor<f16>,
    src: &LocalTensor<f16>,
    scrap: &LocalTensor<f16>,
    g: &Dims,
) -> Result<()> {
    let Dims {
        n,
        c,
        d,
        n1,
        pad_hw,
        ..
    } = *g;
    let cdhw = c * d * pad_hw;
    let p = t5("the N rows'", cdhw / K, 1, K * n1)?;
    let mut cur = n;
    for j in 0..n1 {
        transpose(p, |i| {
            let dd = if i < cur {
                at(dst, j * K * cdhw + i * cdhw)
            } else {
                scrap.get_phy_addr() as u64 + i as u64 * 32 * ES
            };
            (dd, at(src, j * K + i * K * n1))
        })?;
        cur -= K;
    }
    barrier_v()
}
