//! What front ends in other languages need to pass tensor handles by value cheaply: a C-layout
//! twin of [`LocalTensor`] that foreign code holds and hands back, the running core's on-chip
//! buffer sizes, read once per block, to check such handles without entering the core, and
//! ShapeInfos stored for the life of the process, which foreign handles point at.

use super::context::try_with_core;
use super::tensor::{intern, GlobalTensor, LocalTensor, OwnerParts, ShapeInfo};
use crate::dtype::TensorElement;
use crate::error::Result;
use crate::position::{Hardware, TPosition};
use std::mem::{offset_of, size_of};

/// The byte sizes of a core's on-chip buffers ([`Hardware::LOCAL`] order), as
/// [`LocalSizes::current`] read them from the running core.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LocalSizes([u32; Hardware::LOCAL.len()]);

impl LocalSizes {
    /// The running core's buffer sizes; `None` outside a kernel (or inside another API call).
    pub fn current() -> Option<LocalSizes> {
        try_with_core(|core| LocalSizes(Hardware::LOCAL.map(|hw| core.mem.size(hw))))
    }

    /// The size of buffer `hw` in bytes (0 for GM).
    #[inline]
    pub fn size(&self, hw: Hardware) -> u32 {
        hw.local_index().map_or(0, |i| self.0[i])
    }
}

/// A [`LocalTensor`] as foreign code holds it: the same bytes, as plain integers and a pointer
/// (any bits are a value of this type; [`ForeignLocal::view`] checks them before they become a
/// tensor). Made by [`ForeignLocal::of`]; `shape` is null or a [`ShapeInfo::interned`] pointer.
#[doc(hidden)]
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ForeignLocal {
    /// Byte address in the physical buffer.
    pub addr: u32,
    /// Length in bytes.
    pub len: u32,
    /// Owning queue id, 0 when the tensor is not a queue buffer.
    pub owner_queue: u32,
    /// Allocation (generation) of the owning queue buffer.
    pub owner_gen: u32,
    /// Buffer index in the owning queue.
    pub owner_buf: u16,
    /// `TPosition` index.
    pub pos: u8,
    /// `Hardware` index.
    pub hw: u8,
    /// The ShapeInfo, null when none.
    pub shape: *const ShapeInfo,
}

// Field for field the layout of `LocalTensor`, whatever its element type.
const _: () = {
    type L = LocalTensor<u8>;
    assert!(size_of::<ForeignLocal>() == size_of::<L>());
    assert!(size_of::<L>() == size_of::<LocalTensor<f64>>());
    assert!(offset_of!(ForeignLocal, addr) == offset_of!(L, addr));
    assert!(offset_of!(ForeignLocal, len) == offset_of!(L, len));
    assert!(offset_of!(ForeignLocal, owner_queue) == offset_of!(L, owner_queue));
    assert!(offset_of!(ForeignLocal, owner_gen) == offset_of!(L, owner_gen));
    assert!(offset_of!(ForeignLocal, owner_buf) == offset_of!(L, owner_buf));
    assert!(offset_of!(ForeignLocal, pos) == offset_of!(L, pos));
    assert!(offset_of!(ForeignLocal, hw) == offset_of!(L, hw));
    assert!(offset_of!(ForeignLocal, shape) == offset_of!(L, shape));
    assert!(size_of::<TPosition>() == 1 && size_of::<Hardware>() == 1);
    assert!(size_of::<*const ShapeInfo>() == size_of::<Option<&'static ShapeInfo>>());
};

/// Number of `TPosition` values (indices `0 ..` this).
const POSITIONS: u8 = TPosition::C2PIPE2LOCAL as u8 + 1;

impl Default for ForeignLocal {
    /// All zero: a GM "tensor", which no API accepts (what a default C++ handle is).
    fn default() -> Self {
        ForeignLocal {
            addr: 0,
            len: 0,
            owner_queue: 0,
            owner_gen: 0,
            owner_buf: 0,
            pos: 0,
            hw: 0,
            shape: std::ptr::null(),
        }
    }
}

impl ForeignLocal {
    /// The foreign form of `t` (a copy of its bytes).
    #[inline(always)]
    pub fn of<T>(t: &LocalTensor<T>) -> ForeignLocal {
        // SAFETY: the two types have one layout (asserted above) and every bit pattern is a
        // `ForeignLocal`.
        unsafe { std::mem::transmute_copy(t) }
    }

    /// This handle as the tensor it holds, when its position and buffer are valid indices and
    /// its bytes lie inside an on-chip buffer of `sizes`; `None` when [`ForeignLocal::checked`]
    /// must decide (and report).
    ///
    /// # Safety
    /// `shape` is null or came from [`ShapeInfo::interned`] (or [`ForeignLocal::of`]).
    #[inline(always)]
    pub unsafe fn view<T>(&self, sizes: &LocalSizes) -> Option<&LocalTensor<T>> {
        let limit = *sizes.0.get((self.hw as usize).wrapping_sub(1))?;
        if self.pos >= POSITIONS || self.addr as u64 + self.len as u64 > limit as u64 {
            return None;
        }
        // SAFETY: same layout; `pos` and `hw` are valid discriminants (checked), `shape` is null
        // or a `&'static ShapeInfo` (the caller's promise), the other fields are integers.
        Some(&*(self as *const ForeignLocal as *const LocalTensor<T>))
    }

    /// This handle as a tensor of position `pos` in buffer `hw` (its indices, as the front end
    /// decoded and reported them), checked on the running core: a GM "tensor", or bytes outside
    /// the buffer, are errors.
    ///
    /// # Safety
    /// As for [`ForeignLocal::view`].
    #[inline(never)]
    pub unsafe fn checked<T: TensorElement>(
        &self,
        pos: TPosition,
        hw: Hardware,
    ) -> Result<LocalTensor<T>> {
        let owner: Option<OwnerParts> =
            (self.owner_queue != 0).then_some((self.owner_queue, self.owner_buf, self.owner_gen));
        let mut t = LocalTensor::from_parts(pos, hw, self.addr, self.len, owner)?;
        t.shape = self.shape.as_ref();
        Ok(t)
    }
}

impl ShapeInfo {
    /// The process-wide copy of this ShapeInfo (one per distinct value), as foreign handles
    /// point at it.
    #[doc(hidden)]
    pub fn interned(&self) -> &'static ShapeInfo {
        intern(*self)
    }
}

impl<T> GlobalTensor<T> {
    /// Sets the ShapeInfo to a stored one (or none) without storing it again.
    #[doc(hidden)]
    #[inline]
    pub fn set_interned_shape(&mut self, shape: Option<&'static ShapeInfo>) {
        self.shape = shape;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Launch;

    /// A 64-byte VECIN handle at `addr` of buffer index `hw`, owned by buffer 1 of queue 3.
    fn handle(hw: u8, addr: u32) -> ForeignLocal {
        ForeignLocal {
            addr,
            len: 64,
            owner_queue: 3,
            owner_gen: 7,
            owner_buf: 1,
            pos: TPosition::VECIN as u8,
            hw,
            shape: std::ptr::null(),
        }
    }

    #[test]
    fn foreign_handles_round_trip_and_are_checked_against_the_cached_sizes() {
        assert_eq!(LocalSizes::current(), None);
        let e = Launch::new(1)
            .run(|| {
                let sizes = LocalSizes::current().expect("inside a kernel");
                let ub = sizes.size(Hardware::UB);
                assert_eq!(
                    ub,
                    crate::chip::ChipProfile::default_profile().buffer_size[0]
                );
                assert_eq!(sizes.size(Hardware::GM), 0);
                let info = crate::ShapeInfo::new(&[4, 2], crate::DataFormat::NZ)?;
                let h = ForeignLocal {
                    shape: info.interned(),
                    ..handle(Hardware::UB as u8, ub - 64)
                };
                // SAFETY: the shape pointer is an interned one.
                let t = *unsafe { h.view::<f32>(&sizes) }.expect("inside UB");
                let parts = (TPosition::VECIN, Hardware::UB, ub - 64, 64, Some((3, 1, 7)));
                assert_eq!(t.to_parts(), parts);
                assert_eq!(t.get_shape_info(), Some(info));
                assert_eq!(ForeignLocal::of(&t), h);
                let (vecin, ub_hw) = (TPosition::VECIN, Hardware::UB);
                assert_eq!(unsafe { h.checked::<f32>(vecin, ub_hw) }?.to_parts(), parts);
                // Past the end of UB, a GM "tensor", bad indices: only the checked way decides.
                for (hw, addr, pos) in [(1, ub - 32, 9), (0, 0, 9), (8, 0, 9), (1, 0, 16)] {
                    let h = ForeignLocal {
                        pos,
                        ..handle(hw, addr)
                    };
                    assert!(unsafe { h.view::<f32>(&sizes) }.is_none());
                }
                // A handle outside its buffer fails the block, as any failed call does.
                unsafe { handle(0, 0).checked::<f32>(vecin, Hardware::GM) }.map(|_| ())
            })
            .unwrap_err();
        assert_eq!(
            e.errors[0].message,
            "tensor of 64 bytes at byte 0 does not lie inside the 0-byte GM"
        );
    }
}
