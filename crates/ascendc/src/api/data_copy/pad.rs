//! `DataCopyPad`: byte-granular movement between GM and UB with optional padding, and UB→TSCM
//! through GM with an ND→NZ conversion.
//!
//! Block lengths are in bytes. A stride is a tail-to-head gap whose unit is that of its side:
//! bytes on GM, 32-byte blocks on UB. GM→UB pads every block in UB to a multiple of 32 bytes:
//! `leftPadding` pad elements, the data, `rightPadding` pad elements, then dummy bytes up to the
//! 32-byte boundary. UB→GM writes exactly `blockLen` bytes per block and never touches the gaps.
//!
//! Padding values come from a per-core pad register: `isPad = true` or [`set_pad_value`] writes
//! it; while it was never written, padding and dummy bytes hold [`PAD_POISON`] (`0xA5` bytes)
//! and a warning is recorded. With no left/right padding the dummy bytes repeat the first
//! element of the block. 64-bit types move as 32-bit elements with doubled paddings, so their
//! padding and dummy units are 4 bytes wide.

use super::nz::{exec_nd2nz, plan_nd2nz, Nd2NzParams};
use super::{check_alignment, check_path, DataCopyParams, Side};
use crate::api::context::with_core;
use crate::api::tensor::{GlobalTensor, LocalTensor};
use crate::chip::DataPath;
use crate::core::dma::{self, Blocks, Endpoint};
use crate::core::trace::{Access, Pipe, Space};
use crate::core::{Core, PAD_POISON};
use crate::dtype::Element;
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::gm::{GmAddr, GmBuffer};
use crate::position::{Hardware, TPosition};

const API: &str = "DataCopyPad";

/// Movement parameters with 32-bit fields (`DataCopyExtParams`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DataCopyExtParams {
    /// Number of blocks, [1, 4095].
    pub block_count: u16,
    /// Bytes per block, [1, 2097151].
    pub block_len: u32,
    /// Source gap between blocks: bytes when the source is GM, 32-byte blocks when it is UB.
    pub src_stride: u32,
    /// Destination gap between blocks: bytes when the destination is GM, 32-byte blocks when UB.
    pub dst_stride: u32,
    /// Reserved.
    pub rsv: u32,
}

impl Default for DataCopyExtParams {
    fn default() -> Self {
        DataCopyExtParams::new(1, 0, 0, 0, 0)
    }
}

impl DataCopyExtParams {
    /// `DataCopyExtParams(blockCount, blockLen, srcStride, dstStride, rsv)`.
    pub const fn new(
        block_count: u16,
        block_len: u32,
        src_stride: u32,
        dst_stride: u32,
        rsv: u32,
    ) -> Self {
        DataCopyExtParams {
            block_count,
            block_len,
            src_stride,
            dst_stride,
            rsv,
        }
    }
}

impl From<DataCopyParams> for DataCopyExtParams {
    /// The 16-bit `DataCopyParams` read the DataCopyPad way (blockLen in bytes).
    fn from(p: DataCopyParams) -> Self {
        DataCopyExtParams::new(
            p.block_count,
            p.block_len as u32,
            p.src_stride as u32,
            p.dst_stride as u32,
            0,
        )
    }
}

/// GM→UB padding (`DataCopyPadExtParams<T>`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DataCopyPadExtParams<T> {
    /// Write `padding_value` into the pad register before the move.
    pub is_pad: bool,
    /// Pad elements before each block's data, at most 32 bytes.
    pub left_padding: u8,
    /// Pad elements after each block's data, at most 32 bytes.
    pub right_padding: u8,
    /// The pad value (0 for 64-bit types).
    pub padding_value: T,
}

impl<T: Element> Default for DataCopyPadExtParams<T> {
    fn default() -> Self {
        DataCopyPadExtParams::new(false, 0, 0, T::default())
    }
}

impl<T> DataCopyPadExtParams<T> {
    /// `DataCopyPadExtParams<T>(isPad, leftPadding, rightPadding, paddingValue)`.
    pub const fn new(is_pad: bool, left_padding: u8, right_padding: u8, padding_value: T) -> Self {
        DataCopyPadExtParams {
            is_pad,
            left_padding,
            right_padding,
            padding_value,
        }
    }
}

/// Legacy GM→UB padding (`DataCopyPadParams`); only `padding_value = 0` is accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DataCopyPadParams {
    /// Write `padding_value` into the pad register before the move.
    pub is_pad: bool,
    /// Pad elements before each block's data, at most 32 bytes.
    pub left_padding: u8,
    /// Pad elements after each block's data, at most 32 bytes.
    pub right_padding: u8,
    /// The pad value's bits; must be 0.
    pub padding_value: u64,
}

impl DataCopyPadParams {
    /// `DataCopyPadParams(isPad, leftPadding, rightPadding, paddingValue)`.
    pub const fn new(
        is_pad: bool,
        left_padding: u8,
        right_padding: u8,
        padding_value: u64,
    ) -> Self {
        DataCopyPadParams {
            is_pad,
            left_padding,
            right_padding,
            padding_value,
        }
    }
}

/// The `(params, extra)` pairs [`data_copy_pad`] accepts for a destination `D` and source `S`:
/// `params` a [`DataCopyExtParams`] or a [`DataCopyParams`]; `extra` a [`DataCopyPadExtParams`] or
/// a [`DataCopyPadParams`] for GM→UB, `()` for UB→GM, a [`Nd2NzParams`] for UB→TSCM.
pub trait DataCopyPadArgs<D: ?Sized, S: ?Sized> {
    /// Performs the copy.
    fn copy_pad(self, dst: &D, src: &S, loc: SourceLoc) -> Result<()>;
}

/// `DataCopyPad(dst, src, params, extra)`: GM→VECIN/VECOUT with padding (`extra` the pad
/// parameters), VECIN/VECOUT→GM (`extra` = `()`: Ascend C's three-argument form),
/// VECIN/VECOUT→TSCM (through GM, with ND→NZ; `extra` the [`Nd2NzParams`]). Atlas A2/A3 and 310B
/// (no TSCM form on 310B).
#[track_caller]
pub fn data_copy_pad<D: ?Sized, S: ?Sized, P, X>(
    dst: &D,
    src: &S,
    params: P,
    extra: X,
) -> Result<()>
where
    (P, X): DataCopyPadArgs<D, S>,
{
    (params, extra).copy_pad(dst, src, SourceLoc::caller())
}

/// `SetPadValue<T>(value)`: writes the pad register DataCopyPad takes padding from (A2/A3).
#[track_caller]
pub fn set_pad_value<T: Element>(value: T) -> Result<()> {
    let loc = SourceLoc::caller();
    const SPV: &str = "SetPadValue";
    with_core(SPV, loc, |core| {
        if !core.profile.copy_facts().set_pad_value {
            return Err(SimError::new(
                Category::Unsupported,
                SPV,
                format!("SetPadValue is not supported on {}", core.profile),
            ));
        }
        core.pad_register = Some(pad_bits(value));
        core.issue(Pipe::S, SPV, loc, &[]);
        Ok(())
    })
}

/// The bits of a value, zero-extended to 64 bits.
fn pad_bits<T: Element>(v: T) -> u64 {
    let mut b = [0u8; 8];
    b[..T::SIZE].copy_from_slice(bytemuck::bytes_of(&v));
    u64::from_le_bytes(b)
}

/// Product, type and count checks shared by every form. `Ok(false)`: a zero count, no-op.
fn check_common<T: Element>(
    core: &mut Core,
    loc: SourceLoc,
    path: DataPath,
    p: &DataCopyExtParams,
) -> Result<bool> {
    check_path(core, API, path)?;
    let types = core.profile.pad_dtypes;
    if !types.contains(T::DTYPE) {
        return Err(SimError::new(
            Category::Type,
            API,
            format!(
                "element type {} is not supported on {} (supported: {types})",
                T::DTYPE,
                core.profile.soc
            ),
        ));
    }
    if p.block_count > 4095 {
        return Err(SimError::range(
            API,
            "blockCount",
            p.block_count,
            "[1, 4095]",
        ));
    }
    if p.block_len > 2_097_151 {
        return Err(SimError::range(
            API,
            "blockLen",
            p.block_len,
            "[1, 2097151] bytes",
        ));
    }
    for (name, v) in [
        ("blockCount", p.block_count as u32),
        ("blockLen", p.block_len),
    ] {
        if v == 0 {
            if core.profile.zero_is_nop && path != DataPath::DataCopyPadTscm {
                core.warn(
                    Category::Nop,
                    API,
                    format!(
                        "parameter `{name}` = 0: the copy does nothing on {}",
                        core.profile.soc
                    ),
                    loc,
                );
                return Ok(false);
            }
            let max = if name == "blockCount" {
                4095
            } else {
                2_097_151
            };
            return Err(SimError::range(
                API,
                name,
                0,
                format!("[1, {max}] on {}", core.profile.soc),
            ));
        }
    }
    Ok(true)
}

fn require_ub(side: &str, pos: TPosition, hw: Hardware, route: &str) -> Result<()> {
    if hw == Hardware::UB {
        Ok(())
    } else {
        Err(SimError::new(
            Category::Position,
            API,
            format!("the {side} is {pos} in {hw}; the supported route is {route}"),
        ))
    }
}

/// GM→UB with padding. `pad_value`: `Some(bits)` when `isPad` writes the pad register.
#[allow(clippy::too_many_arguments)]
fn gm_to_ub<T: Element>(
    core: &mut Core,
    loc: SourceLoc,
    dst: &LocalTensor<T>,
    src: &GmAddr,
    p: DataCopyExtParams,
    lp: u8,
    rp: u8,
    pad_value: Option<u64>,
) -> Result<()> {
    require_ub("destination", dst.pos, dst.hw, "GM → UB (VECIN/VECOUT)")?;
    if !check_common::<T>(core, loc, DataPath::DataCopyPad, &p)? {
        return Ok(());
    }
    check_alignment(core, API, Side::local(dst), "destination", T::SIZE)?;
    let e = T::SIZE as u64;
    if !(p.block_len as u64).is_multiple_of(e) {
        return Err(SimError::new(
            Category::Range,
            API,
            format!(
                "parameter `blockLen` = {} bytes must be divisible by sizeof({}) = {e}",
                p.block_len,
                T::DTYPE
            ),
        ));
    }
    let max_pad = 32 / e;
    for (name, v) in [("leftPadding", lp), ("rightPadding", rp)] {
        if v as u64 > max_pad {
            return Err(SimError::new(
                Category::Range,
                API,
                format!(
                    "parameter `{name}` = {v}: padding valid range is 0 ~ {max_pad} elements of {} (at most 32 bytes)",
                    T::DTYPE
                ),
            ));
        }
    }
    if e == 8 && pad_value.is_some_and(|v| v != 0) {
        return Err(SimError::new(
            Category::Range,
            API,
            format!(
                "parameter `paddingValue` = {}: when the element type is B64 ({}) paddingValue must be 0",
                pad_value.unwrap_or(0),
                T::DTYPE
            ),
        ));
    }
    let (n, b) = (p.block_count as u64, p.block_len as u64);
    let (lpb, rpb) = (lp as u64 * e, rp as u64 * e);
    let w = (b + lpb + rpb).div_ceil(32) * 32;
    let dst_step = w + p.dst_stride as u64 * 32;
    let need = n * w + (n - 1) * p.dst_stride as u64 * 32;
    if need > dst.len as u64 {
        return Err(SimError::new(
            Category::Size,
            API,
            format!(
                "the destination tensor size needs to be at least {need} bytes for blockCount {n} × {w} padded bytes \
                 (+ gaps), it has only {}",
                dst.len
            ),
        ));
    }
    let src_step = b + p.src_stride as u64;
    Endpoint::Gm(src, 0).check(core, API, 0, (n - 1) * src_step + b)?;
    if let Some(v) = pad_value {
        core.pad_register = Some(v);
    }
    let padded = lp != 0 || rp != 0;
    if padded && core.pad_register.is_none() {
        core.warn(
            Category::DataLoss,
            API,
            format!(
                "isPad = false and the pad value was never set: the padding and dummy bytes are undefined \
                 (filled with 0x{:02X})",
                PAD_POISON as u8
            ),
            loc,
        );
    }
    // Padding and dummy bytes are written in units of `unit` bytes (4 for 64-bit types).
    let unit = e.min(4) as usize;
    let reg = core.pad_register.unwrap_or(PAD_POISON).to_le_bytes();
    let base = dst.addr as u64;
    dma::copy(
        core,
        API,
        Endpoint::Local(Hardware::UB, base + lpb),
        Endpoint::Gm(src, 0),
        Blocks {
            count: n as u32,
            len: b,
            src_stride: src_step,
            dst_stride: dst_step,
        },
    )?;
    let mem = core.mem.bytes_mut(Hardware::UB);
    for i in 0..n {
        let u = (base + i * dst_step) as usize;
        let block = &mut mem[u..u + w as usize];
        let fill: [u8; 4] = if padded {
            reg[..4].try_into().expect("4 bytes")
        } else {
            let mut f = [0u8; 4];
            f[..unit].copy_from_slice(&block[..unit]);
            f
        };
        let fill_range = |r: &mut [u8]| {
            for c in r.chunks_mut(unit) {
                c.copy_from_slice(&fill[..c.len()]);
            }
        };
        fill_range(&mut block[..lpb as usize]);
        fill_range(&mut block[(lpb + b) as usize..]);
    }
    let acc = [
        Access {
            write: false,
            space: Space::Gm(src.region_id()),
            base: src.offset() as u64,
            len: b as u32,
            blocks: n as u32,
            block_stride: src_step,
            repeats: 1,
            repeat_stride: 0,
        },
        Access {
            write: true,
            space: Space::Local(Hardware::UB),
            base,
            len: w as u32,
            blocks: n as u32,
            block_stride: dst_step,
            repeats: 1,
            repeat_stride: 0,
        },
    ];
    core.issue(Pipe::MTE2, API, loc, &acc);
    Ok(())
}

/// The UB→GM part: validated copy of `blockLen` bytes per block; returns the accesses.
fn ub_to_gm_checked<T: Element>(
    core: &mut Core,
    loc: SourceLoc,
    dst: &GmAddr,
    src: &LocalTensor<T>,
    p: DataCopyExtParams,
    path: DataPath,
) -> Result<Option<[Access; 2]>> {
    require_ub("source", src.pos, src.hw, "UB (VECIN/VECOUT) → GM")?;
    if !check_common::<T>(core, loc, path, &p)? {
        return Ok(None);
    }
    check_alignment(core, API, Side::local(src), "source", T::SIZE)?;
    let (n, b) = (p.block_count as u64, p.block_len as u64);
    if b % T::SIZE as u64 != 0 {
        core.warn(
            Category::Align,
            API,
            format!(
                "parameter `blockLen` = {b} bytes is not a multiple of sizeof({}) = {}: the last element of \
                 each block is cut",
                T::DTYPE,
                T::SIZE
            ),
            loc,
        );
    }
    let src_step = b.div_ceil(32) * 32 + p.src_stride as u64 * 32;
    let need = n * b.div_ceil(32) * 32 + (n - 1) * p.src_stride as u64 * 32;
    if need > src.len as u64 {
        return Err(SimError::new(
            Category::Size,
            API,
            format!(
                "the source tensor size needs to be at least {need} bytes for blockCount {n} × {} bytes \
                 (blockLen rounded up to 32, + gaps), it has only {}",
                b.div_ceil(32) * 32,
                src.len
            ),
        ));
    }
    let blocks = Blocks {
        count: n as u32,
        len: b,
        src_stride: src_step,
        dst_stride: b + p.dst_stride as u64,
    };
    let acc = dma::copy(
        core,
        API,
        Endpoint::Gm(dst, 0),
        Endpoint::Local(Hardware::UB, src.addr as u64),
        blocks,
    )?;
    Ok(Some(acc))
}

/// UB→TSCM: UB→GM (a staging area) exactly as UB→GM, then GM→L1 with ND→NZ.
fn ub_to_tscm<T: Element>(
    core: &mut Core,
    loc: SourceLoc,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    p: DataCopyExtParams,
    nz: Nd2NzParams,
) -> Result<()> {
    if dst.hw != Hardware::L1 || dst.pos != TPosition::TSCM {
        return Err(SimError::new(
            Category::Position,
            API,
            format!(
                "the destination is {} in {}; the supported route is UB (VECIN/VECOUT) → TSCM (L1)",
                dst.pos, dst.hw
            ),
        ));
    }
    require_ub("source", src.pos, src.hw, "UB (VECIN/VECOUT) → TSCM (L1)")?;
    check_path(core, API, DataPath::DataCopyPadTscm)?;
    check_alignment(core, API, Side::local(dst), "destination", T::SIZE)?;
    if nz.nd_num != 1 {
        return Err(SimError::range(API, "Nd2NzParams.ndNum", nz.nd_num, "{1}"));
    }
    // Validate both halves before moving anything.
    if p.block_count == 0 || p.block_len == 0 {
        let name = if p.block_count == 0 {
            "blockCount"
        } else {
            "blockLen"
        };
        return Err(SimError::range(
            API,
            name,
            0,
            "[1, 4095] / [1, 2097151] (UB → TSCM)",
        ));
    }
    let Some(plan) = plan_nd2nz(core, API, loc, nz, T::SIZE)? else {
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
    let (n, b) = (p.block_count as u64, p.block_len as u64);
    let staged = (n - 1) * (b + p.dst_stride as u64) + b;
    if plan.src_extent > staged {
        return Err(SimError::new(
            Category::Size,
            API,
            format!(
                "ND→NZ reads {} bytes of the GM staging area but the UB → GM step writes only {staged}",
                plan.src_extent
            ),
        ));
    }
    let staging = GmBuffer::zeroed(staged as usize);
    let g = staging.addr();
    let Some(acc) = ub_to_gm_checked(core, loc, &g, src, p, DataPath::DataCopyPadTscm)? else {
        return Ok(());
    };
    core.issue(Pipe::MTE3, API, loc, &acc);
    let acc = exec_nd2nz(core, API, &g, Hardware::L1, dst.addr as u64, &plan)?;
    core.issue(Pipe::MTE2, API, loc, &acc);
    Ok(())
}

macro_rules! pad_forms {
    ($params:ty) => {
        impl<T: Element> DataCopyPadArgs<LocalTensor<T>, GlobalTensor<T>>
            for ($params, DataCopyPadExtParams<T>)
        {
            fn copy_pad(
                self,
                dst: &LocalTensor<T>,
                src: &GlobalTensor<T>,
                loc: SourceLoc,
            ) -> Result<()> {
                let (p, pad) = self;
                with_core(API, loc, |core| {
                    let v = pad.is_pad.then(|| pad_bits(pad.padding_value));
                    gm_to_ub(
                        core,
                        loc,
                        dst,
                        src.gm(API)?,
                        p.into(),
                        pad.left_padding,
                        pad.right_padding,
                        v,
                    )
                })
            }
        }

        impl<T: Element> DataCopyPadArgs<GlobalTensor<T>, LocalTensor<T>> for ($params, ()) {
            fn copy_pad(
                self,
                dst: &GlobalTensor<T>,
                src: &LocalTensor<T>,
                loc: SourceLoc,
            ) -> Result<()> {
                with_core(API, loc, |core| {
                    let g = dst.gm(API)?;
                    if let Some(acc) =
                        ub_to_gm_checked(core, loc, g, src, self.0.into(), DataPath::DataCopyPad)?
                    {
                        core.issue(Pipe::MTE3, API, loc, &acc);
                    }
                    Ok(())
                })
            }
        }

        impl<T: Element> DataCopyPadArgs<LocalTensor<T>, LocalTensor<T>>
            for ($params, Nd2NzParams)
        {
            fn copy_pad(
                self,
                dst: &LocalTensor<T>,
                src: &LocalTensor<T>,
                loc: SourceLoc,
            ) -> Result<()> {
                with_core(API, loc, |core| {
                    ub_to_tscm(core, loc, dst, src, self.0.into(), self.1)
                })
            }
        }
    };
}
pad_forms!(DataCopyExtParams);
pad_forms!(DataCopyParams);

impl<T: Element> DataCopyPadArgs<LocalTensor<T>, GlobalTensor<T>>
    for (DataCopyParams, DataCopyPadParams)
{
    fn copy_pad(self, dst: &LocalTensor<T>, src: &GlobalTensor<T>, loc: SourceLoc) -> Result<()> {
        let (p, pad) = self;
        with_core(API, loc, |core| {
            if pad.padding_value != 0 {
                return Err(SimError::new(
                    Category::Range,
                    API,
                    format!(
                        "parameter `DataCopyPadParams.paddingValue` = {}: only 0 is supported (use \
                         DataCopyPadExtParams<T> for other values)",
                        pad.padding_value
                    ),
                ));
            }
            let v = pad.is_pad.then_some(0);
            gm_to_ub(
                core,
                loc,
                dst,
                src.gm(API)?,
                p.into(),
                pad.left_padding,
                pad.right_padding,
                v,
            )
        })
    }
}
