//! Static tensor programming: `LocalMemAllocator<Hardware>` and `LocalTensor(pos, addr, size)`,
//! tensors placed at explicit addresses of an on-chip buffer without a TPipe.

use super::context::with_core;
use super::tensor::LocalTensor;
use crate::core::Core;
use crate::dtype::TensorElement;
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::position::{Hardware, TPosition};

/// The position `Alloc` without one uses: the first of these the product maps onto the buffer.
const DEFAULT_POSITIONS: [TPosition; 7] = [
    TPosition::VECCALC,
    TPosition::A1,
    TPosition::A2,
    TPosition::B2,
    TPosition::CO1,
    TPosition::C2,
    TPosition::C2PIPE2GM,
];

/// Checks that `count` elements of `T` at byte `addr` of position `pos` fit the product's buffer.
fn place<T: TensorElement>(
    core: &Core,
    api: &'static str,
    pos: TPosition,
    want: Option<Hardware>,
    addr: u64,
    count: u32,
) -> Result<LocalTensor<T>> {
    let hw = core
        .profile
        .hardware_of(pos)
        .filter(|h| *h != Hardware::GM)
        .ok_or_else(|| {
            SimError::new(
                Category::Position,
                api,
                format!("position {pos:?} has no on-chip buffer on {}", core.profile),
            )
        })?;
    core.check_buffer(api, hw)?;
    if let Some(w) = want {
        if w != hw {
            return Err(SimError::new(
                Category::Position,
                api,
                format!(
                    "position {pos:?} lives in {hw:?} on {}, not in the allocator's {w:?}",
                    core.profile
                ),
            ));
        }
    }
    if count == 0 {
        return Err(SimError::new(
            Category::Size,
            api,
            "tileSize is 0 elements; at least 1",
        ));
    }
    let align = core.profile.align_of(hw);
    if !addr.is_multiple_of(align as u64) {
        return Err(SimError::align(
            api,
            "tensor",
            addr,
            align,
            format!("{hw:?}"),
        ));
    }
    super::tensor::whole_bytes::<T>(api, "tileSize", count as u64)?;
    let len = T::bytes(count as u64);
    let size = core.profile.size_of(hw) as u64;
    if addr + len > size {
        return Err(SimError::new(
            Category::Memory,
            api,
            format!(
                "{count} elements ({len} bytes) at byte {addr} end at {} but {hw:?} of {} has {size} bytes",
                addr + len,
                core.profile
            ),
        ));
    }
    Ok(LocalTensor::raw(pos, hw, addr as u32, len as u32, None))
}

impl<T: TensorElement> LocalTensor<T> {
    /// `LocalTensor<T>(pos, addr, tileSize)`: `tile_size` elements at byte address `addr` of the
    /// buffer `pos` maps onto; `addr` must meet the buffer's alignment (32 bytes in UB) and the
    /// tensor must fit the buffer.
    #[track_caller]
    pub fn new_at(pos: TPosition, addr: u32, tile_size: u32) -> Result<LocalTensor<T>> {
        const API: &str = "LocalTensor(pos, addr, tileSize)";
        with_core(API, SourceLoc::caller(), |core| {
            place(core, API, pos, None, addr as u64, tile_size)
        })
    }
}

/// `LocalMemAllocator<hard>`: hands out consecutive tensors of one on-chip buffer from address 0
/// (each start rounded up to the buffer's alignment) and fails when the buffer is exhausted.
#[derive(Debug, Clone)]
pub struct LocalMemAllocator {
    hw: Hardware,
    cur: u32,
}

impl LocalMemAllocator {
    /// An allocator of `hw` (`UB`, `L1`, `L0A`, `L0B`, `L0C`, `BIAS` or `FIXBUF`; not `GM`).
    #[track_caller]
    pub fn new(hw: Hardware) -> Result<LocalMemAllocator> {
        if hw == Hardware::GM {
            return Err(SimError::new(
                Category::Position,
                "LocalMemAllocator",
                "Hardware::GM is not an on-chip buffer; use UB, L1, L0A, L0B, L0C, BIAS or FIXBUF",
            )
            .at(SourceLoc::caller()));
        }
        Ok(LocalMemAllocator { hw, cur: 0 })
    }

    /// The allocator of `hw` whose next free byte is `cur`, for front ends that hold it by value.
    #[doc(hidden)]
    pub fn from_parts(hw: Hardware, cur: u32) -> LocalMemAllocator {
        LocalMemAllocator { hw, cur }
    }

    /// `GetCurAddr()`: the first free byte address of the buffer.
    pub fn get_cur_addr(&self) -> u32 {
        self.cur
    }

    /// `Alloc<pos, T>(tileSize)`: the next `tile_size` elements of the buffer at position `pos`
    /// (which must live in the allocator's buffer).
    #[track_caller]
    pub fn alloc_at<T: TensorElement>(
        &mut self,
        pos: TPosition,
        tile_size: u32,
    ) -> Result<LocalTensor<T>> {
        self.take(Some(pos), tile_size)
    }

    /// `Alloc<T>(tileSize)`: the next `tile_size` elements at the buffer's default position
    /// (VECCALC in UB, A1 in L1, A2 in L0A, B2 in L0B, CO1 in L0C).
    #[track_caller]
    pub fn alloc<T: TensorElement>(&mut self, tile_size: u32) -> Result<LocalTensor<T>> {
        self.take(None, tile_size)
    }

    #[track_caller]
    fn take<T: TensorElement>(
        &mut self,
        pos: Option<TPosition>,
        tile_size: u32,
    ) -> Result<LocalTensor<T>> {
        const API: &str = "LocalMemAllocator::Alloc";
        let hw = self.hw;
        let cur = self.cur;
        let t = with_core(API, SourceLoc::caller(), |core| {
            let pos = match pos {
                Some(p) => p,
                None => DEFAULT_POSITIONS
                    .into_iter()
                    .find(|p| core.profile.hardware_of(*p) == Some(hw))
                    .ok_or_else(|| {
                        SimError::new(
                            Category::Position,
                            API,
                            format!(
                                "{hw:?} has no default position on {}; pass one",
                                core.profile
                            ),
                        )
                    })?,
            };
            let align = core.profile.align_of(hw);
            let start = cur.div_ceil(align) as u64 * align as u64;
            place::<T>(core, API, pos, Some(hw), start, tile_size)
        })?;
        self.cur = t.addr + t.len;
        Ok(t)
    }
}
