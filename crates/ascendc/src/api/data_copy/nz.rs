//! Format-converting `DataCopy`: ND→NZ with [`Nd2NzParams`] (GM→A1/B1, and GM→VECIN as the
//! vendor's software emulation does it) and NZ→ND with [`Nz2NdParamsFull`] (VECOUT→GM).
//!
//! NZ layout: the columns of an ND matrix are cut into groups of `C0 = 32 / sizeof(T)` elements;
//! each group is stored as a stack of 32-byte rows. The NZ source of NZ→ND always uses
//! 16-element groups (16×16 fractals), whatever the element size.
//!
//! `int4b_t` moves ND→NZ into L1 on Atlas A2/A3 as the vendor code does it: as `int8_t`, each
//! byte holding two elements, so `dValue`, `srcDValue` and `dstNzMatrixStride` count bytes.

use super::{check_alignment, check_path_documented, DataCopyArgs, Side};
use crate::api::context::with_core;
use crate::api::tensor::{GlobalTensor, LocalTensor};
use crate::chip::DataPath;
use crate::chip::Product;
use crate::core::dma::{self, Blocks, Endpoint};
use crate::core::trace::{Access, Pipe, Space};
use crate::core::Core;
use crate::dtype::{DType, Element, TensorElement};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::gm::GmAddr;
use crate::position::{Hardware, TPosition};

const API: &str = "DataCopy";

/// ND→NZ parameters (`Nd2NzParams`). `ndNum` matrices of `nValue` rows × `dValue` columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Nd2NzParams {
    /// Number of ND matrices, [0, 4095] (0: no-op).
    pub nd_num: u16,
    /// Rows per matrix, [0, 16384] (0: no-op).
    pub n_value: u16,
    /// Columns per matrix in elements, [0, 65535] (0: no-op).
    pub d_value: u16,
    /// Head-to-head distance of source matrices, in elements.
    pub src_nd_matrix_stride: u16,
    /// Head-to-head distance of source rows, in elements, [1, 65535].
    pub src_d_value: u16,
    /// Destination distance between the column groups of one row, in 32-byte blocks, [1, 16384].
    pub dst_nz_c0_stride: u16,
    /// Destination distance between consecutive rows, in 32-byte blocks, [1, 16384].
    pub dst_nz_n_stride: u16,
    /// Head-to-head distance of destination matrices, in elements, [0, 65535].
    pub dst_nz_matrix_stride: u16,
}

impl Nd2NzParams {
    /// `Nd2NzParams(ndNum, nValue, dValue, srcNdMatrixStride, srcDValue, dstNzC0Stride,
    /// dstNzNStride, dstNzMatrixStride)`.
    #[allow(clippy::too_many_arguments)]
    pub const fn new(
        nd_num: u16,
        n_value: u16,
        d_value: u16,
        src_nd_matrix_stride: u16,
        src_d_value: u16,
        dst_nz_c0_stride: u16,
        dst_nz_n_stride: u16,
        dst_nz_matrix_stride: u16,
    ) -> Self {
        Nd2NzParams {
            nd_num,
            n_value,
            d_value,
            src_nd_matrix_stride,
            src_d_value,
            dst_nz_c0_stride,
            dst_nz_n_stride,
            dst_nz_matrix_stride,
        }
    }
}

/// A validated ND→NZ move: bytes the destination must hold and bytes read from the source.
pub(crate) struct Nd2NzPlan {
    p: Nd2NzParams,
    elem: u64,
    groups: u64,
    /// Bytes from the destination start to the end of the last 32-byte row written.
    pub dst_need: u64,
    /// Bytes from the source start to the end of the last element read.
    pub src_extent: u64,
}

/// Checks the ND→NZ ranges (rule N1); `None` (after a warning) when a zero count makes it a no-op.
pub(crate) fn plan_nd2nz(
    core: &mut Core,
    api: &'static str,
    loc: SourceLoc,
    p: Nd2NzParams,
    elem: usize,
) -> Result<Option<Nd2NzPlan>> {
    let ranges: [(&str, u16, u16, u16); 6] = [
        ("ndNum", p.nd_num, 0, 4095),
        ("nValue", p.n_value, 0, 16384),
        ("srcDValue", p.src_d_value, 1, 65535),
        ("dstNzC0Stride", p.dst_nz_c0_stride, 1, 16384),
        ("dstNzNStride", p.dst_nz_n_stride, 1, 16384),
        ("dstNzMatrixStride", p.dst_nz_matrix_stride, 0, 65535),
    ];
    for (name, v, lo, hi) in ranges {
        if v < lo || v > hi {
            return Err(SimError::range(
                api,
                &format!("Nd2NzParams.{name}"),
                v,
                format!("[{lo}, {hi}]"),
            ));
        }
    }
    for (name, v) in [
        ("ndNum", p.nd_num),
        ("nValue", p.n_value),
        ("dValue", p.d_value),
    ] {
        if v == 0 {
            core.warn(
                Category::Nop,
                api,
                format!("parameter `Nd2NzParams.{name}` = 0: the ND→NZ copy does nothing"),
                loc,
            );
            return Ok(None);
        }
    }
    let e = elem as u64;
    let groups = (p.d_value as u64 * e).div_ceil(32);
    let dst_need = (p.nd_num as u64 - 1) * p.dst_nz_matrix_stride as u64 * e
        + (p.n_value as u64 - 1) * p.dst_nz_n_stride as u64 * 32
        + (groups - 1) * p.dst_nz_c0_stride as u64 * 32
        + 32;
    let src_extent = ((p.nd_num as u64 - 1) * p.src_nd_matrix_stride as u64
        + (p.n_value as u64 - 1) * p.src_d_value as u64
        + p.d_value as u64)
        * e;
    Ok(Some(Nd2NzPlan {
        p,
        elem: e,
        groups,
        dst_need,
        src_extent,
    }))
}

/// Executes a validated ND→NZ move from GM into a local buffer; returns the accesses.
pub(crate) fn exec_nd2nz(
    core: &mut Core,
    api: &'static str,
    src: &GmAddr,
    dst_hw: Hardware,
    dst_addr: u64,
    plan: &Nd2NzPlan,
) -> Result<Vec<Access>> {
    let (p, e) = (plan.p, plan.elem);
    let row_bytes = (p.d_value as u64 * e) as usize;
    let mut row = vec![0u8; plan.groups as usize * 32];
    let mut acc = vec![Access {
        write: false,
        space: Space::Gm(src.region_id()),
        base: src.offset() as u64,
        len: row_bytes as u32,
        blocks: p.n_value as u32,
        block_stride: p.src_d_value as u64 * e,
        repeats: p.nd_num as u32,
        repeat_stride: p.src_nd_matrix_stride as u64 * e,
    }];
    for m in 0..p.nd_num as u64 {
        let dst_m = dst_addr + m * p.dst_nz_matrix_stride as u64 * e;
        for n in 0..p.n_value as u64 {
            let s = (m * p.src_nd_matrix_stride as u64 + n * p.src_d_value as u64) * e;
            dma::read(core, api, Endpoint::Gm(src, s), &mut row[..row_bytes])?;
            let mem = core.mem.bytes_mut(dst_hw);
            for g in 0..plan.groups {
                let d = (dst_m
                    + g * p.dst_nz_c0_stride as u64 * 32
                    + n * p.dst_nz_n_stride as u64 * 32) as usize;
                let chunk = &row[g as usize * 32..g as usize * 32 + 32];
                mem[d..d + 32].copy_from_slice(chunk);
            }
        }
        acc.push(Access {
            write: true,
            space: Space::Local(dst_hw),
            base: dst_m,
            len: 32,
            blocks: p.n_value as u32,
            block_stride: p.dst_nz_n_stride as u64 * 32,
            repeats: plan.groups as u32,
            repeat_stride: p.dst_nz_c0_stride as u64 * 32,
        });
    }
    Ok(acc)
}

/// Products whose ND→NZ GM→L1 copy takes `int4b_t` (its documentation lists b4 there only).
const ND2NZ_INT4: [Product; 2] = [Product::Ascend910B, Product::Ascend910_93];

/// `DataCopy(dstLocal, srcGlobal, Nd2NzParams)`: GM→A1/B1/C1 (L1) or GM→VECIN (UB, emulated).
impl<T: TensorElement> DataCopyArgs<LocalTensor<T>, GlobalTensor<T>> for Nd2NzParams {
    fn copy(self, dst: &LocalTensor<T>, src: &GlobalTensor<T>, loc: SourceLoc) -> Result<()> {
        if crate::multicore::cube_call::is_remote(dst.get_position()) {
            return super::copy_on_cube(dst, src, self, loc);
        }
        with_core(API, loc, |core| {
            let g = src.gm(API)?;
            // The vendor's code sends the copy to the destination's buffer: C1 goes to L1 where
            // C1 is L1 (A2/A3; the vendor's GM→L1 example loads its bias this way).
            let path = match (dst.hw, dst.pos) {
                (
                    Hardware::L1,
                    TPosition::A1 | TPosition::B1 | TPosition::C1 | TPosition::TSCM,
                ) => {
                    DataPath::Nd2NzGmL1
                }
                (Hardware::UB, TPosition::VECIN) => DataPath::Nd2NzGmUb,
                (h, pos) => {
                    return Err(SimError::new(
                        Category::Position,
                        API,
                        format!(
                            "ND→NZ: the destination is {pos} in {h}; supported destinations are A1/B1/TSCM (L1), \
                             C1 where it is L1, and VECIN (UB)"
                        ),
                    ))
                }
            };
            check_path_documented(core, API, path, loc)?;
            let types = core.profile.copy_facts().nd2nz_dtypes;
            let int4 = T::DTYPE == DType::Int4
                && path == DataPath::Nd2NzGmL1
                && ND2NZ_INT4.contains(&core.profile.product);
            if !types.contains(T::DTYPE) && !int4 {
                let also = if ND2NZ_INT4.contains(&core.profile.product) {
                    ", and int4b_t into L1"
                } else {
                    ""
                };
                return Err(SimError::new(
                    Category::Type,
                    API,
                    format!(
                        "ND→NZ: element type {} is not supported here on {} (supported: {types}{also})",
                        T::DTYPE,
                        core.profile.soc
                    ),
                ));
            }
            // int4b_t moves as bytes (the storage size: two elements each).
            let size = T::DTYPE.size();
            check_alignment(core, API, Side::local(dst), "destination", size)?;
            let Some(plan) = plan_nd2nz(core, API, loc, self, size)? else {
                return Ok(());
            };
            if plan.dst_need > dst.len as u64 {
                return Err(SimError::new(
                    Category::Size,
                    API,
                    format!(
                        "ND→NZ: the destination tensor size needs to be at least {} bytes, it has only {}",
                        plan.dst_need, dst.len
                    ),
                ));
            }
            Endpoint::Gm(g, 0).check(core, API, 0, plan.src_extent)?;
            let acc = exec_nd2nz(core, API, g, dst.hw, dst.addr as u64, &plan)?;
            core.issue(Pipe::MTE2, API, loc, &acc);
            Ok(())
        })
    }
}

/// NZ→ND parameters (`Nz2NdParamsFull`). All distances are head to head.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Nz2NdParamsFull {
    /// Number of matrices, [0, 4095] (0: no-op).
    pub nd_num: u16,
    /// Rows per matrix, [1, 8192].
    pub n_value: u16,
    /// Columns per matrix in elements, [1, 8192], a multiple of 16.
    pub d_value: u16,
    /// Distance of source NZ matrices, in 16×16 fractals (256 elements), [1, 512].
    pub src_nd_matrix_stride: u16,
    /// Distance of the 16-column groups of one source matrix, in 16-element rows, [0, 4095].
    pub src_n_stride: u16,
    /// Distance of destination rows, in elements, [1, 65535].
    pub dst_d_stride: u16,
    /// Distance of destination matrices, in elements, [1, 65535].
    pub dst_nd_matrix_stride: u16,
}

impl Default for Nz2NdParamsFull {
    fn default() -> Self {
        Nz2NdParamsFull::new(1, 0, 0, 1, 0, 0, 1)
    }
}

impl Nz2NdParamsFull {
    /// `Nz2NdParamsFull(ndNum, nValue, dValue, srcNdMatrixStride, srcNStride, dstDStride,
    /// dstNdMatrixStride)`.
    pub const fn new(
        nd_num: u16,
        n_value: u16,
        d_value: u16,
        src_nd_matrix_stride: u16,
        src_n_stride: u16,
        dst_d_stride: u16,
        dst_nd_matrix_stride: u16,
    ) -> Self {
        Nz2NdParamsFull {
            nd_num,
            n_value,
            d_value,
            src_nd_matrix_stride,
            src_n_stride,
            dst_d_stride,
            dst_nd_matrix_stride,
        }
    }
}

/// `DataCopy(dstGlobal, srcLocal, Nz2NdParamsFull)`: VECOUT (UB, NZ) → GM (ND).
impl<T: Element> DataCopyArgs<GlobalTensor<T>, LocalTensor<T>> for Nz2NdParamsFull {
    fn copy(self, dst: &GlobalTensor<T>, src: &LocalTensor<T>, loc: SourceLoc) -> Result<()> {
        with_core(API, loc, |core| {
            let g = dst.gm(API)?;
            if src.hw != Hardware::UB {
                return Err(SimError::new(
                    Category::Position,
                    API,
                    format!(
                        "NZ→ND: the source is {} in {}; the supported source position is UB (VECOUT)",
                        src.pos, src.hw
                    ),
                ));
            }
            check_path_documented(core, API, DataPath::Nz2NdUbGm, loc)?;
            if !matches!(T::SIZE, 2 | 4) {
                return Err(SimError::new(
                    Category::Type,
                    API,
                    format!(
                        "NZ→ND: element type {} is not supported: only 2- and 4-byte types (B16, B32)",
                        T::DTYPE
                    ),
                ));
            }
            check_alignment(core, API, Side::local(src), "source", T::SIZE)?;
            let p = self;
            let ranges: [(&str, u16, u16, u16); 5] = [
                ("ndNum", p.nd_num, 0, 4095),
                ("nValue", p.n_value, 1, 8192),
                ("dValue", p.d_value, 1, 8192),
                ("srcNdMatrixStride", p.src_nd_matrix_stride, 1, 512),
                ("srcNStride", p.src_n_stride, 0, 4095),
            ];
            for (name, v, lo, hi) in ranges {
                if v < lo || v > hi {
                    return Err(SimError::range(
                        API,
                        &format!("Nz2NdParamsFull.{name}"),
                        v,
                        format!("[{lo}, {hi}]"),
                    ));
                }
            }
            for (name, v) in [
                ("dstDStride", p.dst_d_stride),
                ("dstNdMatrixStride", p.dst_nd_matrix_stride),
            ] {
                if v == 0 {
                    return Err(SimError::range(
                        API,
                        &format!("Nz2NdParamsFull.{name}"),
                        v,
                        "[1, 65535]",
                    ));
                }
            }
            if !p.d_value.is_multiple_of(16) {
                return Err(SimError::new(
                    Category::Range,
                    API,
                    format!(
                        "NZ→ND: parameter `Nz2NdParamsFull.dValue` = {} must be divisible by 16",
                        p.d_value
                    ),
                ));
            }
            let e = T::SIZE as u64;
            if p.nd_num != 1
                && !(p.src_nd_matrix_stride as u64 * 256).is_multiple_of(p.n_value as u64 * e)
            {
                return Err(SimError::new(
                    Category::Range,
                    API,
                    format!(
                        "NZ→ND: the element distance between NZ matrices (srcNdMatrixStride {} × 256 = {}) must be \
                         divisible by nValue × sizeof(T) = {}",
                        p.src_nd_matrix_stride,
                        p.src_nd_matrix_stride as u64 * 256,
                        p.n_value as u64 * e
                    ),
                ));
            }
            if p.nd_num == 0 {
                core.warn(
                    Category::Nop,
                    API,
                    "parameter `Nz2NdParamsFull.ndNum` = 0: the NZ→ND copy does nothing",
                    loc,
                );
                return Ok(());
            }
            let (nd, n, groups) = (p.nd_num as u64, p.n_value as u64, p.d_value as u64 / 16);
            let src_need = (nd - 1) * p.src_nd_matrix_stride as u64 * 256 * e
                + (groups - 1) * p.src_n_stride as u64 * 16 * e
                + 16 * n * e;
            if src_need > src.len as u64 {
                return Err(SimError::new(
                    Category::Size,
                    API,
                    format!(
                        "NZ→ND: the source tensor size needs to be at least {src_need} bytes, it has only {}",
                        src.len
                    ),
                ));
            }
            let dst_extent = ((nd - 1) * p.dst_nd_matrix_stride as u64
                + (n - 1) * p.dst_d_stride as u64
                + p.d_value as u64)
                * e;
            Endpoint::Gm(g, 0).check(core, API, 0, dst_extent)?;
            let mut acc = Vec::with_capacity((nd * groups * 2) as usize);
            for m in 0..nd {
                for c in 0..groups {
                    let s = src.addr as u64
                        + (m * p.src_nd_matrix_stride as u64 * 256
                            + c * p.src_n_stride as u64 * 16)
                            * e;
                    let d = (m * p.dst_nd_matrix_stride as u64 + c * 16) * e;
                    let b = Blocks {
                        count: n as u32,
                        len: 16 * e,
                        src_stride: 16 * e,
                        dst_stride: p.dst_d_stride as u64 * e,
                    };
                    let a = dma::copy(
                        core,
                        API,
                        Endpoint::Gm(g, d),
                        Endpoint::Local(Hardware::UB, s),
                        b,
                    )?;
                    acc.extend(a);
                }
            }
            core.issue(Pipe::MTE3, API, loc, &acc);
            Ok(())
        })
    }
}
