//! `DataCopy`: block-strided movement between GM, UB, L1, BiasTable and the Fixpipe buffer.
//!
//! Level 0 takes [`DataCopyParams`] (block count, block length and the tail-to-head gaps, in path
//! units: 32 bytes normally, 64 bytes into C2/BiasTable, 128 bytes into C2PIPE2GM/Fixpipe); level 2
//! takes an element count, lowered to one block of `count / (unit / sizeof(T))` units.

pub mod enhanced;
pub mod nz;
pub mod pad;
pub mod slice;

use super::context::with_core;
use super::tensor::{GlobalTensor, LocalTensor, Owner};
use crate::chip::DataPath;
use crate::core::dma::{self, Blocks, Endpoint};
use crate::core::trace::{Access, Pipe, Space};
use crate::core::{Core, CountRounding};
use crate::dtype::{f16, DType, TensorElement};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::gm::GmAddr;
use crate::position::{Hardware, TPosition};

const API: &str = "DataCopy";

/// Level-0 movement parameters (`DataCopyParams`). Lengths and gaps are in path units
/// (32 bytes, or 64 / 128 bytes for the C2 / C2PIPE2GM destinations).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DataCopyParams {
    /// Number of blocks, [1, 4095].
    pub block_count: u16,
    /// Length of each block in units, [1, 65535].
    pub block_len: u16,
    /// Source gap between the end of one block and the start of the next, in units.
    pub src_stride: u16,
    /// Destination gap between the end of one block and the start of the next, in units.
    pub dst_stride: u16,
}

impl Default for DataCopyParams {
    fn default() -> Self {
        DataCopyParams {
            block_count: 1,
            block_len: 0,
            src_stride: 0,
            dst_stride: 0,
        }
    }
}

impl DataCopyParams {
    /// `DataCopyParams(blockCount, blockLen, srcStride, dstStride)`.
    pub const fn new(block_count: u16, block_len: u16, src_stride: u16, dst_stride: u16) -> Self {
        DataCopyParams {
            block_count,
            block_len,
            src_stride,
            dst_stride,
        }
    }
}

/// One side of a copy as the API layer sees it.
#[derive(Clone, Copy)]
pub(crate) enum Side<'a> {
    Gm(&'a GmAddr),
    Local {
        pos: TPosition,
        hw: Hardware,
        addr: u32,
        len: u32,
        owner: Option<Owner>,
    },
}

impl<'a> Side<'a> {
    pub(crate) fn local<T: TensorElement>(t: &LocalTensor<T>) -> Side<'a> {
        Side::Local {
            pos: t.pos,
            hw: t.hw,
            addr: t.addr,
            len: t.len,
            owner: t.owner(),
        }
    }

    pub(crate) fn hw(&self) -> Hardware {
        match self {
            Side::Gm(_) => Hardware::GM,
            Side::Local { hw, .. } => *hw,
        }
    }

    fn endpoint(&self) -> Endpoint<'a> {
        match *self {
            Side::Gm(g) => Endpoint::Gm(g, 0),
            Side::Local { hw, addr, .. } => Endpoint::Local(hw, addr as u64),
        }
    }
}

/// A data path with its pipe and units (bytes): source block, source gap, destination block,
/// destination gap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Route {
    pub path: DataPath,
    pub pipe: Pipe,
    pub units: [u64; 4],
}

/// The route between two physical buffers, or a position error naming the supported routes.
pub(crate) fn route(core: &Core, src: Side, dst: Side) -> Result<Route> {
    use Hardware::*;
    let (s, d) = (src.hw(), dst.hw());
    let plain = [32, 32, 32, 32];
    let r = |path, pipe, units| Route { path, pipe, units };
    let is_co2 = |side: Side| {
        matches!(
            side,
            Side::Local {
                pos: TPosition::CO2,
                ..
            }
        )
    };
    Ok(match (s, d) {
        (GM, UB) => r(DataPath::GmUb, Pipe::MTE2, plain),
        (GM, L1) => r(DataPath::GmL1, Pipe::MTE2, plain),
        (UB, GM) if is_co2(src) => r(DataPath::Co2Gm, Pipe::MTE3, plain),
        (UB, GM) => r(DataPath::GmUb, Pipe::MTE3, plain),
        (L1, GM) => r(DataPath::L1Gm, Pipe::MTE3, plain),
        (UB, UB) => r(DataPath::UbUb, Pipe::V, plain),
        (UB, L1) => r(DataPath::UbL1, Pipe::MTE3, plain),
        (L1, BIAS) => r(DataPath::L1Bt, Pipe::MTE1, [64, 32, 64, 64]),
        (L1, FIXBUF) => r(DataPath::L1Fb, Pipe::FIX, [128, 32, 128, 128]),
        (GM, _) | (_, GM) => {
            let (side, h) = if s == GM { ("destination", d) } else { ("source", s) };
            return Err(SimError::new(
                Category::Position,
                API,
                format!(
                    "tensor position check failed: the {side} is in {h}; a copy to or from GM needs a tensor in UB \
                     (VECIN/VECOUT/VECCALC) or L1 (A1/B1/C1) on {}",
                    core.profile.soc
                ),
            ));
        }
        _ => {
            return Err(SimError::new(
                Category::Position,
                API,
                format!(
                    "no local route {s} → {d}: supported routes are UB→UB, UB→L1, L1→BiasTable (C1→C2) and \
                     L1→Fixpipe (→C2PIPE2GM)"
                ),
            ))
        }
    })
}

/// Required start alignment of a DataCopy operand in a local buffer.
pub(crate) fn copy_align(hw: Hardware, elem_size: usize) -> u64 {
    match hw {
        Hardware::L0A | Hardware::L0B | Hardware::L0C => 512 * (elem_size as u64).div_ceil(2),
        Hardware::BIAS => 64,
        Hardware::FIXBUF => 128,
        _ => 32,
    }
}

/// Checks that a product supports a path, naming the product and the path.
pub(crate) fn check_path(core: &Core, api: &'static str, path: DataPath) -> Result<()> {
    if core.profile.supports(path) {
        Ok(())
    } else {
        Err(SimError::new(
            Category::Unsupported,
            api,
            format!(
                "the {path:?} data path is not supported on {}",
                core.profile
            ),
        ))
    }
}

/// Checks the start alignment of one side of a copy, and that a local side's tensor was not
/// freed.
pub(crate) fn check_alignment(
    core: &Core,
    api: &'static str,
    side: Side,
    what: &str,
    elem_size: usize,
) -> Result<()> {
    match side {
        Side::Gm(g) => {
            if g.offset() % elem_size != 0 {
                return Err(SimError::align(
                    api,
                    what,
                    g.offset() as u64,
                    elem_size as u32,
                    "GM",
                ));
            }
        }
        Side::Local {
            hw, addr, owner, ..
        } => {
            Owner::check_live(owner, core, api, what)?;
            let a = copy_align(hw, elem_size);
            if !(addr as u64).is_multiple_of(a) {
                return Err(SimError::align(api, what, addr as u64, a as u32, hw));
            }
        }
    }
    Ok(())
}

/// The error of a DataCopy of `int4b_t` other than ND→NZ: no DataCopy path lists the type.
fn packed_type(core: &Core, d: DType) -> SimError {
    SimError::new(
        Category::Type,
        API,
        format!(
            "element type {d} is not supported by DataCopy with DataCopyParams or a count on {}: copy its bytes as \
             int8_t/uint8_t (ReinterpretCast, two {d} to a byte), or use the ND→NZ form (Nd2NzParams) into L1",
            core.profile.soc
        ),
    )
}

/// The level-0 copy every DataCopy form lowers to.
pub(crate) fn copy_level0<T: TensorElement>(
    core: &mut Core,
    loc: SourceLoc,
    dst: Side,
    src: Side,
    p: DataCopyParams,
) -> Result<()> {
    if T::BITS < 8 {
        return Err(packed_type(core, T::DTYPE));
    }
    let rt = route(core, src, dst)?;
    copy_routed::<T>(core, loc, dst, src, p, rt)
}

/// [`copy_level0`] on a route already found.
fn copy_routed<T: TensorElement>(
    core: &mut Core,
    loc: SourceLoc,
    dst: Side,
    src: Side,
    p: DataCopyParams,
    rt: Route,
) -> Result<()> {
    check_path(core, API, rt.path)?;
    if matches!(rt.path, DataPath::GmUb) && !core.profile.gm_ub_dtypes.contains(T::DTYPE) {
        return Err(SimError::new(
            Category::Type,
            API,
            format!(
                "element type {} is not supported between GM and UB on {} (supported: {})",
                T::DTYPE,
                core.profile.soc,
                core.profile.gm_ub_dtypes
            ),
        ));
    }
    let size = T::DTYPE.size();
    check_alignment(core, API, src, "source", size)?;
    check_alignment(core, API, dst, "destination", size)?;
    let Some(b) = check_blocks(core, loc, src, dst, p, rt.units)? else {
        return Ok(());
    };
    let acc = dma::copy(core, API, dst.endpoint(), src.endpoint(), b)?;
    core.issue(rt.pipe, API, loc, &acc);
    Ok(())
}

/// Checks a level-0 block description against the product's ranges and both tensor views, and
/// turns it into byte geometry with `units` = (source block, source gap, destination block,
/// destination gap) in bytes. `None` when the copy is a no-op (a zero count on A2/A3).
fn check_blocks(
    core: &mut Core,
    loc: SourceLoc,
    src: Side,
    dst: Side,
    p: DataCopyParams,
    units: [u64; 4],
) -> Result<Option<Blocks>> {
    if p.block_count > 4095 {
        return Err(SimError::range(
            API,
            "blockCount",
            p.block_count,
            "[1, 4095]",
        ));
    }
    for (name, v) in [("blockCount", p.block_count), ("blockLen", p.block_len)] {
        if v == 0 {
            if core.profile.zero_is_nop {
                core.warn(
                    Category::Nop,
                    API,
                    format!(
                        "parameter `{name}` = 0: the copy does nothing on {}",
                        core.profile.soc
                    ),
                    loc,
                );
                return Ok(None);
            }
            let max = if name == "blockCount" { 4095 } else { 65535 };
            return Err(SimError::range(
                API,
                name,
                0,
                format!("[1, {max}] on {}", core.profile.soc),
            ));
        }
    }
    let [ls, gs, ld, gd] = units;
    let n = p.block_count as u64;
    let b = Blocks {
        count: p.block_count as u32,
        len: p.block_len as u64 * ls,
        src_stride: p.block_len as u64 * ls + p.src_stride as u64 * gs,
        dst_stride: p.block_len as u64 * ld + p.dst_stride as u64 * gd,
    };
    // Both local sides must hold the whole extent (rule D10: tensor view sizes).
    for (side, name, len_unit, gap, gap_unit) in [
        (src, "source", ls, p.src_stride, gs),
        (dst, "destination", ld, p.dst_stride, gd),
    ] {
        if let Side::Local { len, .. } = side {
            let need = n * p.block_len as u64 * len_unit + (n - 1) * gap as u64 * gap_unit;
            if need > len as u64 {
                return Err(SimError::new(
                    Category::Size,
                    API,
                    format!(
                        "the {name} tensor must hold at least {need} bytes for blockCount {} × blockLen {} \
                         (+ gaps), it has only {len}",
                        p.block_count, p.block_len
                    ),
                ));
            }
        }
    }
    Ok(Some(b))
}

/// The common level-2 copy between GM and a UB tensor (`load`: GM → UB), without the general
/// path's parameter lowering: a whole number of 32-byte units (at most 65535) of a type the
/// product moves on that path, a live 32-byte aligned UB tensor holding them, an element-aligned
/// GM address whose allocation holds them, and no GM atomic mode on a store. The general path
/// would give no warning for such a copy and lower it to the same one-block instruction; this
/// moves the bytes and records that instruction. Returns `false`, having done nothing, when the
/// copy needs the general path (which also reports any error).
#[inline(always)]
fn copy_gm_ub_dense<T: TensorElement>(
    core: &mut Core,
    loc: SourceLoc,
    t: &LocalTensor<T>,
    g: &GmAddr,
    count: i64,
    load: bool,
) -> bool {
    const MAX_BYTES: u64 = 65535 * 32;
    let size = T::DTYPE.size();
    let bytes = count as u64 * size as u64;
    let addr = t.addr as u64;
    if !(1..=MAX_BYTES as i64).contains(&count)
        || !core.options.fast_paths
        || bytes > MAX_BYTES
        || !(bytes | addr).is_multiple_of(32)
        || t.hw != Hardware::UB
        || bytes > t.len as u64
        || (!load
            && (!matches!(
                t.pos,
                TPosition::VECOUT | TPosition::VECIN | TPosition::VECCALC
            ) || core.sync.atomic.op.is_some()))
        || addr + bytes > core.mem.size(Hardware::UB) as u64
        || !g.offset().is_multiple_of(size)
        || g.check(API, 0, bytes).is_err()
        || !core.profile.supports(DataPath::GmUb)
        || !core.profile.gm_ub_dtypes.contains(T::DTYPE)
        || t.check_live(core, API, "").is_err()
    {
        return false;
    }
    let (n, a, gp) = (bytes as usize, addr as usize, g.ptr(0));
    if load {
        let ub = core.mem.range_mut(Hardware::UB, a, a + n);
        // SAFETY: `gp` starts `n` bytes inside `g`'s allocation (checked above), which never
        // overlaps the core's local memory.
        unsafe { dma::host_copy(gp, ub.as_mut_ptr(), n) };
        dma::prefetch_next(gp, n);
    } else {
        let ub = &core.mem.bytes(Hardware::UB)[a..a + n];
        // SAFETY: as above, writing instead of reading.
        unsafe { dma::host_copy_to_gm(ub.as_ptr(), gp, n) };
    }
    // The (read, write) accesses of one block of `bytes`, as the general path records them.
    let run = |write: bool, space: Space, base: u64| Access {
        write,
        space,
        base,
        len: bytes as u32,
        blocks: 1,
        block_stride: bytes,
        repeats: 1,
        repeat_stride: 0,
    };
    let gm = run(!load, Space::Gm(g.region_id()), g.offset() as u64);
    let ub = run(load, Space::Local(Hardware::UB), addr);
    let (pipe, acc) = if load {
        (Pipe::MTE2, [gm, ub])
    } else {
        (Pipe::MTE3, [ub, gm])
    };
    core.issue(pipe, API, loc, &acc);
    true
}

/// The level-2 (element count) form: one block of `count` elements rounded down to whole units.
#[inline]
fn copy_count<T: TensorElement>(
    core: &mut Core,
    loc: SourceLoc,
    dst: Side,
    src: Side,
    count: i64,
) -> Result<()> {
    if T::BITS < 8 {
        return Err(packed_type(core, T::DTYPE));
    }
    let size = T::DTYPE.size() as u64;
    let rt = route(core, src, dst)?;
    if !(0..1 << 32).contains(&count) {
        return Err(SimError::range(API, "calCount", count, "[0, 2^32)"));
    }
    let per_unit = (rt.units[2] / size).max(1);
    let count = count as u64;
    let units = count / per_unit;
    let rem = count % per_unit;
    if rem != 0 {
        let msg = format!(
            "calCount = {count}: {} bytes is not a multiple of {} bytes; the copy moves {} elements and \
             the last {rem} are not copied",
            count * size,
            rt.units[2],
            units * per_unit
        );
        match core.options.count_rounding {
            CountRounding::Strict => return Err(SimError::new(Category::Range, API, msg)),
            CountRounding::Hardware => core.warn(Category::DataLoss, API, msg, loc),
        }
    }
    if units > 65535 {
        return Err(SimError::range(
            API,
            "calCount",
            count,
            format!(
                "[0, {}] (blockLen = calCount / {per_unit} must fit in 65535 units)",
                65535 * per_unit + per_unit - 1
            ),
        ));
    }
    copy_routed::<T>(
        core,
        loc,
        dst,
        src,
        DataCopyParams::new(1, units as u16, 0, 0),
        rt,
    )
}

/// The third argument of [`data_copy`]: [`DataCopyParams`] (level 0) or an element count (level 2).
pub trait DataCopyArgs<D: ?Sized, S: ?Sized> {
    /// Performs the copy.
    fn copy(self, dst: &D, src: &S, loc: SourceLoc) -> Result<()>;
}

/// `DataCopy(dst, src, params | count)`: GM→VECIN/A1/B1, UB→UB, UB→L1, L1→BT/FB and
/// VECOUT/L1/CO2→GM, per product.
#[track_caller]
#[inline(always)]
pub fn data_copy<D: ?Sized, S: ?Sized, A: DataCopyArgs<D, S>>(
    dst: &D,
    src: &S,
    args: A,
) -> Result<()> {
    args.copy(dst, src, SourceLoc::caller())
}

/// A vector core's copy from GM into its cube core's TSCM: the cube core performs it
/// (`cube_call`), into the same L1 bytes.
pub(crate) fn copy_on_cube<T, A>(
    dst: &LocalTensor<T>,
    src: &GlobalTensor<T>,
    args: A,
    loc: SourceLoc,
) -> Result<()>
where
    T: TensorElement,
    A: DataCopyArgs<LocalTensor<T>, GlobalTensor<T>> + Send + 'static,
{
    let (pos, addr, size) = (dst.get_position(), dst.get_phy_addr(), dst.get_size());
    let src = src.clone();
    crate::multicore::cube_call::call(API, loc, move || {
        let d = LocalTensor::<T>::new_at(pos, addr, size)?;
        args.copy(&d, &src, loc)
    })
}

impl<T: TensorElement> DataCopyArgs<LocalTensor<T>, GlobalTensor<T>> for DataCopyParams {
    fn copy(self, dst: &LocalTensor<T>, src: &GlobalTensor<T>, loc: SourceLoc) -> Result<()> {
        if crate::multicore::cube_call::is_remote(dst.get_position()) {
            return copy_on_cube(dst, src, self, loc);
        }
        with_core(API, loc, |core| {
            copy_level0::<T>(core, loc, Side::local(dst), Side::Gm(src.gm(API)?), self)
        })
    }
}

impl<T: TensorElement> DataCopyArgs<GlobalTensor<T>, LocalTensor<T>> for DataCopyParams {
    fn copy(self, dst: &GlobalTensor<T>, src: &LocalTensor<T>, loc: SourceLoc) -> Result<()> {
        with_core(API, loc, |core| {
            copy_level0::<T>(core, loc, Side::Gm(dst.gm(API)?), Side::local(src), self)
        })
    }
}

impl<T: TensorElement> DataCopyArgs<LocalTensor<T>, LocalTensor<T>> for DataCopyParams {
    fn copy(self, dst: &LocalTensor<T>, src: &LocalTensor<T>, loc: SourceLoc) -> Result<()> {
        with_core(API, loc, |core| {
            copy_level0::<T>(core, loc, Side::local(dst), Side::local(src), self)
        })
    }
}

macro_rules! count_forms {
    ($($c:ty),*) => {$(
        impl<T: TensorElement> DataCopyArgs<LocalTensor<T>, GlobalTensor<T>> for $c {
            #[inline(always)]
            fn copy(self, dst: &LocalTensor<T>, src: &GlobalTensor<T>, loc: SourceLoc) -> Result<()> {
                if crate::multicore::cube_call::is_remote(dst.get_position()) {
                    return copy_on_cube(dst, src, self, loc);
                }
                with_core(API, loc, #[inline(always)] |core| {
                    let g = src.gm(API)?;
                    if copy_gm_ub_dense(core, loc, dst, g, self as i64, true) {
                        return Ok(());
                    }
                    copy_count::<T>(core, loc, Side::local(dst), Side::Gm(g), self as i64)
                })
            }
        }
        impl<T: TensorElement> DataCopyArgs<GlobalTensor<T>, LocalTensor<T>> for $c {
            #[inline(always)]
            fn copy(self, dst: &GlobalTensor<T>, src: &LocalTensor<T>, loc: SourceLoc) -> Result<()> {
                with_core(API, loc, #[inline(always)] |core| {
                    let g = dst.gm(API)?;
                    if copy_gm_ub_dense(core, loc, src, g, self as i64, false) {
                        return Ok(());
                    }
                    copy_count::<T>(core, loc, Side::Gm(g), Side::local(src), self as i64)
                })
            }
        }
        impl<T: TensorElement> DataCopyArgs<LocalTensor<T>, LocalTensor<T>> for $c {
            fn copy(self, dst: &LocalTensor<T>, src: &LocalTensor<T>, loc: SourceLoc) -> Result<()> {
                with_core(API, loc, |core| {
                    copy_count::<T>(core, loc, Side::local(dst), Side::local(src), self as i64)
                })
            }
        }
    )*};
}
count_forms!(u32, i32, usize);

/// [`check_path`], plus a portability warning where the product's documentation excludes a path
/// that the vendor code implements.
pub(crate) fn check_path_documented(
    core: &mut Core,
    api: &'static str,
    path: DataPath,
    loc: SourceLoc,
) -> Result<()> {
    check_path(core, api, path)?;
    if core.profile.copy_facts().undocumented.contains(path) {
        let msg = format!(
            "the {path:?} path runs in the vendor code for {} but its documentation does not list it: \
             the kernel may not be portable",
            core.profile
        );
        core.warn(Category::Unsupported, api, msg, loc);
    }
    Ok(())
}

/// `DataCopy(dst: LocalTensor<float>, src: LocalTensor<half>, params)`: L1 (C1) → BiasTable (C2)
/// with each half widened to float. `blockLen` counts 64-byte source units (32 halves, which
/// become 128 destination bytes); `srcStride` is in 32-byte blocks, `dstStride` in 64-byte units.
impl DataCopyArgs<LocalTensor<f32>, LocalTensor<f16>> for DataCopyParams {
    fn copy(self, dst: &LocalTensor<f32>, src: &LocalTensor<f16>, loc: SourceLoc) -> Result<()> {
        with_core(API, loc, |core| {
            let (d, s) = (Side::local(dst), Side::local(src));
            if (src.hw, dst.hw) != (Hardware::L1, Hardware::BIAS) {
                return Err(SimError::new(
                    Category::Type,
                    API,
                    format!(
                        "a half → float DataCopy runs only L1 (C1) → BiasTable (C2); this one is {} → {} \
                         (other routes need the same element type on both sides)",
                        src.hw, dst.hw
                    ),
                ));
            }
            check_path(core, API, DataPath::L1Bt)?;
            check_alignment(core, API, s, "source", 2)?;
            check_alignment(core, API, d, "destination", 4)?;
            let Some(b) = check_blocks(core, loc, s, d, self, [64, 32, 128, 64])? else {
                return Ok(());
            };
            let (bias, l1) = core.mem.pair_mut(Hardware::BIAS, Hardware::L1);
            for i in 0..b.count as usize {
                let from = src.addr as usize + i * b.src_stride as usize;
                let to = dst.addr as usize + i * b.dst_stride as usize;
                let halves = &l1[from..from + b.len as usize];
                for (k, h) in halves.chunks_exact(2).enumerate() {
                    let v = f16::from_le_bytes([h[0], h[1]]).to_f32();
                    bias[to + 4 * k..to + 4 * k + 4].copy_from_slice(&v.to_le_bytes());
                }
            }
            let mut acc = b.accesses(d.endpoint(), s.endpoint());
            acc[1].len = (b.len * 2) as u32;
            core.issue(Pipe::MTE1, API, loc, &acc);
            Ok(())
        })
    }
}
