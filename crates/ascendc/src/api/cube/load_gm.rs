//! `LoadData` from GM into L1 (A1/B1) with `LoadData2DParams`: 512-byte fractals on PIPE_MTE2,
//! fractal `startIndex ± i · srcStride` (`addrMode` 0 increasing, 1 decreasing) of the source to
//! fractal `i · (1 + dstGap)` of the destination. No transposing on this path (`ifTranspose` has
//! no effect); the Atlas training series has no `dstGap`.

use super::layout::FRACTAL_BYTES;
use super::load::LoadData2DParams;
use super::operand;
use super::support::cube_facts;
use crate::api::context::with_core;
use crate::api::tensor::{GlobalTensor, LocalTensor};
use crate::chip::Product;
use crate::core::trace::{Access, Pipe, Space};
use crate::dtype::Element;
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::position::Hardware;

const API: &str = "LoadData";

/// `LoadData(dst, src, LoadData2DParams)`: GM → L1 (A1/B1) in 512-byte fractals.
#[track_caller]
pub fn load_data_from_gm<T: Element>(
    dst: &LocalTensor<T>,
    src: &GlobalTensor<T>,
    p: LoadData2DParams,
) -> Result<()> {
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        let facts = cube_facts(core.profile);
        let g = src.gm(API)?;
        if !facts.load2d_dtypes.contains(T::DTYPE) {
            return Err(SimError::new(
                Category::Type,
                API,
                format!(
                    "GM → L1 LoadData moves {} on {}, not {}",
                    facts.load2d_dtypes,
                    core.profile,
                    T::DTYPE
                ),
            ));
        }
        if p.addr_mode > 1 {
            return Err(SimError::range(
                API,
                "addrMode",
                p.addr_mode,
                "0 (increasing) or 1 (decreasing)",
            ));
        }
        if p.dst_gap != 0 && core.profile.product == Product::Ascend910 {
            return Err(SimError::range(
                API,
                "dstGap",
                p.dst_gap,
                format!("0 (there is no dstGap on {})", core.profile),
            ));
        }
        if p.repeat_times == 0 {
            return Ok(());
        }
        let f = FRACTAL_BYTES as u64;
        let n = p.repeat_times as u64;
        let (first, stride) = (p.start_index as u64, p.src_stride as u64);
        let last = if p.addr_mode == 0 {
            first + (n - 1) * stride
        } else {
            first.checked_sub((n - 1) * stride).ok_or_else(|| {
                SimError::new(
                    Category::Range,
                    API,
                    format!(
                        "addrMode 1 counts down from fractal {first} by {stride} for {n} fractals: it would pass fractal 0"
                    ),
                )
            })?
        };
        let dst_step = (1 + p.dst_gap as u64) * f;
        if dst.hw != Hardware::L1 {
            return Err(SimError::new(
                Category::Position,
                API,
                format!(
                    "the destination is {} in {}; from GM LoadData writes A1/B1 in L1",
                    dst.pos, dst.hw
                ),
            ));
        }
        operand(
            core,
            loc,
            API,
            "destination",
            dst,
            Hardware::L1,
            "A1/B1",
            32,
            (n - 1) * dst_step + f,
        )?;
        let (lo, hi) = (first.min(last), first.max(last));
        g.check(API, lo * f, (hi - lo + 1) * f)?;
        let d0 = dst.addr as u64;
        let mut frac = [0u8; 512];
        for i in 0..n {
            let idx = if p.addr_mode == 0 {
                first + i * stride
            } else {
                first - i * stride
            };
            g.read_bytes(API, (idx * f) as usize, &mut frac)?;
            let d = (d0 + i * dst_step) as usize;
            core.mem.bytes_mut(Hardware::L1)[d..d + 512].copy_from_slice(&frac);
        }
        let acc = [
            Access {
                write: false,
                space: Space::Gm(g.region_id()),
                base: g.offset() as u64 + lo * f,
                len: 512,
                blocks: n as u32,
                block_stride: stride * f,
                repeats: 1,
                repeat_stride: 0,
            },
            Access {
                write: true,
                space: Space::Local(Hardware::L1),
                base: d0,
                len: 512,
                blocks: n as u32,
                block_stride: dst_step,
                repeats: 1,
                repeat_stride: 0,
            },
        ];
        core.issue(Pipe::MTE2, API, loc, &acc);
        Ok(())
    })
}
