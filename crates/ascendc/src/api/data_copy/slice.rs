//! Slice `DataCopy` with [`SliceInfo`]: up to 8 dimensions, GM→VECIN and VECOUT→GM.
//!
//! Dimension 0 is the innermost (contiguous) one. Every selected dimension-0 row is copied as
//! `blockCount` bursts of `burstLen` 32-byte blocks; burst `b` starts `b · (burstLen·C0 + stride)`
//! elements after the row start (`C0 = 32 / sizeof(T)`). Rows of higher dimensions are enumerated
//! with the lower dimension varying fastest and paired by position between source and destination.

use super::{check_path_documented, DataCopyArgs};
use crate::api::context::with_core;
use crate::api::tensor::{GlobalTensor, LocalTensor, ShapeInfo};
use crate::chip::DataPath;
use crate::core::dma::{self, Blocks, Endpoint};
use crate::core::trace::Pipe;
use crate::core::Core;
use crate::dtype::Element;
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::gm::GmAddr;
use crate::position::{Hardware, TPosition};

const API: &str = "DataCopy";

/// Largest number of dimension-0 rows one slice copy may move (`MAX_SLICE_SIZE`).
pub const MAX_SLICE_SIZE: usize = 1536;

/// Most dimensions of a slice copy (`K_MAX_DIM`).
pub const K_MAX_DIM: usize = 8;

/// One dimension of a slice (`SliceInfo`). Indices and strides in elements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SliceInfo {
    /// First selected index.
    pub start_index: u32,
    /// Last selected index (inclusive), below the dimension's extent.
    pub end_index: u32,
    /// Elements skipped between two selected runs.
    pub stride: u32,
    /// Dimension 0: run length in 32-byte blocks; other dimensions: 1.
    pub burst_len: u32,
    /// Extent of the dimension in elements; when dimension 0 of the source has a non-zero value
    /// these override the tensors' ShapeInfo on both sides.
    pub shape_value: u32,
}

impl Default for SliceInfo {
    fn default() -> Self {
        SliceInfo::new(0, 31, 0, 32)
    }
}

impl SliceInfo {
    /// `SliceInfo{startIndex, endIndex, stride, burstLen}` (shapeValue 0).
    pub const fn new(start_index: u32, end_index: u32, stride: u32, burst_len: u32) -> Self {
        SliceInfo {
            start_index,
            end_index,
            stride,
            burst_len,
            shape_value: 0,
        }
    }

    /// `SliceInfo{startIndex, endIndex, stride, burstLen, shapeValue}`.
    pub const fn with_shape(
        start_index: u32,
        end_index: u32,
        stride: u32,
        burst_len: u32,
        shape_value: u32,
    ) -> Self {
        SliceInfo {
            start_index,
            end_index,
            stride,
            burst_len,
            shape_value,
        }
    }
}

/// Element offsets of every selected dimension-0 row, and the offset of the first element.
fn rows(sl: &[SliceInfo], shape: &[u64]) -> (u64, Vec<u64>) {
    let mut start = sl[0].start_index as u64;
    let mut size = 1u64;
    let mut list = vec![0u64];
    for i in 1..sl.len() {
        size *= shape[i - 1];
        start += sl[i].start_index as u64 * size;
        let step = 1 + sl[i].stride as u64;
        let cnt = (sl[i].end_index as u64 - sl[i].start_index as u64 + step) / step;
        let base = list.clone();
        for j in 1..cnt {
            list.extend(base.iter().map(|b| b + j * step * size));
        }
    }
    (start, list)
}

/// The shape a side is sliced with, from `shapeValue` or the tensor's ShapeInfo.
fn shape_of(
    sl: &[SliceInfo],
    use_values: bool,
    info: Option<ShapeInfo>,
    side: &str,
) -> Result<Vec<u64>> {
    if use_values {
        return Ok(sl.iter().map(|s| s.shape_value as u64).collect());
    }
    let info = info.ok_or_else(|| {
        SimError::new(
            Category::Size,
            API,
            format!(
                "slice copy: the {side} tensor has no ShapeInfo (call SetShapeInfo) and srcSliceInfo[0].shapeValue is 0"
            ),
        )
    })?;
    if (info.shape_dim as usize) < sl.len() {
        return Err(SimError::new(
            Category::Range,
            API,
            format!(
                "slice copy: the {side} ShapeInfo has {} dimensions, dimValue is {}",
                info.shape_dim,
                sl.len()
            ),
        ));
    }
    Ok(info.shape[..sl.len()].iter().map(|&v| v as u64).collect())
}

/// The validated plan of a slice copy: row offsets of both sides and the burst geometry.
struct Plan {
    src_start: u64,
    dst_start: u64,
    src_rows: Vec<u64>,
    dst_rows: Vec<u64>,
    block_count: u64,
    burst_elems: u64,
    src_step: u64,
    dst_step: u64,
}

impl Plan {
    /// Element extent (one past the last element) a side touches.
    fn extent(&self, start: u64, rows: &[u64], step: u64) -> u64 {
        start
            + rows.iter().copied().max().unwrap_or(0)
            + (self.block_count - 1) * step
            + self.burst_elems
    }
}

/// Checks rules S2 and S4–S9, S11 and builds the plan. `ub_is_dst`: GM→UB.
#[allow(clippy::too_many_arguments)]
fn plan<T: Element>(
    dst_slice: &[SliceInfo],
    src_slice: &[SliceInfo],
    dim: u32,
    dst_info: Option<ShapeInfo>,
    src_info: Option<ShapeInfo>,
    ub_is_dst: bool,
) -> Result<Plan> {
    if dim == 0 || dim as usize > K_MAX_DIM {
        return Err(SimError::range(API, "dimValue", dim, "[1, 8]"));
    }
    let d = dim as usize;
    for (name, sl) in [("dstSliceInfo", dst_slice), ("srcSliceInfo", src_slice)] {
        if sl.len() < d {
            return Err(SimError::new(
                Category::Range,
                API,
                format!(
                    "slice copy: {name} has {} entries, dimValue is {d}",
                    sl.len()
                ),
            ));
        }
    }
    let (ds, ss) = (&dst_slice[..d], &src_slice[..d]);
    let use_values = ss[0].shape_value != 0;
    let src_shape = shape_of(ss, use_values, src_info, "source")?;
    let dst_shape = shape_of(ds, use_values, dst_info, "destination")?;
    for i in 0..d {
        if ds[i].burst_len != ss[i].burst_len {
            return Err(SimError::new(
                Category::Range,
                API,
                format!(
                    "slice copy: burst lengths must be equal: dstSliceInfo[{i}].burstLen = {}, srcSliceInfo[{i}].burstLen = {}",
                    ds[i].burst_len, ss[i].burst_len
                ),
            ));
        }
        if i > 0 && ds[i].burst_len != 1 {
            return Err(SimError::new(
                Category::Range,
                API,
                format!(
                    "slice copy: dimension {i} burst length must be 1, it is {}",
                    ds[i].burst_len
                ),
            ));
        }
    }
    for (name, sl, shape) in [
        ("srcSliceInfo", ss, &src_shape),
        ("dstSliceInfo", ds, &dst_shape),
    ] {
        for i in 0..d {
            if sl[i].start_index >= sl[i].end_index {
                return Err(SimError::new(
                    Category::Range,
                    API,
                    format!(
                        "slice copy: {name}[{i}]: start index {} should be less than end index {}",
                        sl[i].start_index, sl[i].end_index
                    ),
                ));
            }
            if sl[i].end_index as u64 >= shape[i] {
                return Err(SimError::new(
                    Category::Range,
                    API,
                    format!(
                        "slice copy: {name}[{i}]: end index {} should be less than the shape {}",
                        sl[i].end_index, shape[i]
                    ),
                ));
            }
        }
    }
    let c0 = 32 / T::SIZE as u64;
    let burst = ss[0].burst_len as u64;
    if burst == 0 {
        return Err(SimError::range(
            API,
            "srcSliceInfo[0].burstLen",
            0,
            "[1, 2^32)",
        ));
    }
    let one_slice = burst * c0 + ss[0].stride as u64;
    let total = ss[0].end_index as u64 - ss[0].start_index as u64 + 1 + ss[0].stride as u64;
    if !total.is_multiple_of(one_slice) {
        return Err(SimError::new(
            Category::Range,
            API,
            format!(
                "slice copy: cannot construct the block count: srcSliceInfo[0] selects endIndex − startIndex + 1 + stride \
                 = {total} elements, not a multiple of burstLen × {c0} + stride = {one_slice}"
            ),
        ));
    }
    let ub = if ub_is_dst { ds } else { ss };
    if !(ub[0].stride as u64 * T::SIZE as u64).is_multiple_of(32) {
        return Err(SimError::new(
            Category::Align,
            API,
            format!(
                "slice copy: the UB-side dimension-0 stride {} elements = {} bytes should be a multiple of 32 bytes",
                ub[0].stride,
                ub[0].stride as u64 * T::SIZE as u64
            ),
        ));
    }
    let (src_start, src_rows) = rows(ss, &src_shape);
    let (dst_start, dst_rows) = rows(ds, &dst_shape);
    if src_rows.len() != dst_rows.len() || src_rows.len() > MAX_SLICE_SIZE {
        return Err(SimError::new(
            Category::Range,
            API,
            format!(
                "slice copy: the source selects {} dimension-0 rows and the destination {}: they must be equal and at \
                 most MAX_SLICE_SIZE = {MAX_SLICE_SIZE}",
                src_rows.len(),
                dst_rows.len()
            ),
        ));
    }
    Ok(Plan {
        src_start,
        dst_start,
        src_rows,
        dst_rows,
        block_count: total / one_slice,
        burst_elems: burst * c0,
        src_step: one_slice,
        dst_step: burst * c0 + ds[0].stride as u64,
    })
}

/// Checks the UB operand (rules S1, S3, S10).
fn check_ub<T: Element>(core: &Core, t: &LocalTensor<T>, side: &str) -> Result<()> {
    if t.hw != Hardware::UB || !(t.pos.is_vector() || t.pos == TPosition::CO2) {
        return Err(SimError::new(
            Category::Position,
            API,
            format!(
                "slice copy: tensor position check failed: the {side} is {} in {}; it must be VECIN/VECOUT/VECCALC (or CO2) in UB",
                t.pos, t.hw
            ),
        ));
    }
    let ub = core.profile.size_of(Hardware::UB);
    if t.len > ub {
        return Err(SimError::new(
            Category::Size,
            API,
            format!(
                "slice copy: allocated buffer size overflow: the {side} tensor has {} bytes, UB {ub}",
                t.len
            ),
        ));
    }
    if !t.addr.is_multiple_of(32) {
        return Err(SimError::align(
            API,
            &format!("slice copy {side}"),
            t.addr as u64,
            32,
            "UB",
        ));
    }
    Ok(())
}

/// Runs a planned slice copy between GM and UB.
fn run<T: Element>(
    core: &mut Core,
    loc: SourceLoc,
    ub: &LocalTensor<T>,
    gm: &GmAddr,
    p: &Plan,
    ub_is_dst: bool,
    pipe: Pipe,
) -> Result<()> {
    let e = T::SIZE as u64;
    let (ub_start, ub_rows, ub_step, gm_start, gm_rows, gm_step) = if ub_is_dst {
        (
            p.dst_start,
            &p.dst_rows,
            p.dst_step,
            p.src_start,
            &p.src_rows,
            p.src_step,
        )
    } else {
        (
            p.src_start,
            &p.src_rows,
            p.src_step,
            p.dst_start,
            &p.dst_rows,
            p.dst_step,
        )
    };
    let ub_need = p.extent(ub_start, ub_rows, ub_step) * e;
    if ub_need > ub.len as u64 {
        return Err(SimError::new(
            Category::Size,
            API,
            format!(
                "slice copy: the UB tensor must hold at least {ub_need} bytes, it has only {}",
                ub.len
            ),
        ));
    }
    Endpoint::Gm(gm, 0).check(core, API, 0, p.extent(gm_start, gm_rows, gm_step) * e)?;
    let mut acc = Vec::with_capacity(2 * ub_rows.len());
    for (u, g) in ub_rows.iter().zip(gm_rows) {
        let ue = Endpoint::Local(Hardware::UB, ub.addr as u64 + (ub_start + u) * e);
        let ge = Endpoint::Gm(gm, (gm_start + g) * e);
        let (dst, src, ds, ss) = if ub_is_dst {
            (ue, ge, ub_step, gm_step)
        } else {
            (ge, ue, gm_step, ub_step)
        };
        let b = Blocks {
            count: p.block_count as u32,
            len: p.burst_elems * e,
            src_stride: ss * e,
            dst_stride: ds * e,
        };
        acc.extend(dma::copy(core, API, dst, src, b)?);
    }
    core.issue(pipe, API, loc, &acc);
    Ok(())
}

/// `DataCopy(dstLocal, srcGlobal, dstSliceInfo[], srcSliceInfo[], dimValue)`: GM→VECIN.
impl<T: Element> DataCopyArgs<LocalTensor<T>, GlobalTensor<T>>
    for (&[SliceInfo], &[SliceInfo], u32)
{
    fn copy(self, dst: &LocalTensor<T>, src: &GlobalTensor<T>, loc: SourceLoc) -> Result<()> {
        let (ds, ss, dim) = self;
        with_core(API, loc, |core| {
            let g = src.gm(API)?;
            check_path_documented(core, API, DataPath::Slice, loc)?;
            check_ub(core, dst, "destination")?;
            let p = plan::<T>(ds, ss, dim, dst.shape.copied(), src.shape.copied(), true)?;
            run(core, loc, dst, g, &p, true, Pipe::MTE2)
        })
    }
}

/// `DataCopy(dstGlobal, srcLocal, dstSliceInfo[], srcSliceInfo[], dimValue)`: VECOUT→GM.
impl<T: Element> DataCopyArgs<GlobalTensor<T>, LocalTensor<T>>
    for (&[SliceInfo], &[SliceInfo], u32)
{
    fn copy(self, dst: &GlobalTensor<T>, src: &LocalTensor<T>, loc: SourceLoc) -> Result<()> {
        let (ds, ss, dim) = self;
        with_core(API, loc, |core| {
            let g = dst.gm(API)?;
            check_path_documented(core, API, DataPath::Slice, loc)?;
            check_ub(core, src, "source")?;
            let p = plan::<T>(ds, ss, dim, dst.shape.copied(), src.shape.copied(), false)?;
            run(core, loc, src, g, &p, false, Pipe::MTE3)
        })
    }
}
