//! `LocalMemAllocator<hard>::Alloc` and `LocalTensor(pos, addr, tileSize)` for C++ kernels.

use crate::abi::{call, dtype, hardware, position, AscLoc, AscLocal};
use crate::with_tensor_dtype;
use ascendc::{LocalMemAllocator, LocalTensor};

/// Position index meaning "the buffer's default position".
const DEFAULT_POS: u8 = 0xff;

/// `LocalMemAllocator<hw>` with next free byte `*cur`: allocates `tile` elements at position
/// `pos` (or the default position) into `*out` and advances `*cur`.
///
/// # Safety
/// `cur` is valid for reads and writes, `out` for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_local_alloc(
    hw: u8,
    cur: *mut u32,
    pos: u8,
    elem: u8,
    tile: u32,
    out: *mut AscLocal,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let mut a = LocalMemAllocator::from_parts(hardware(hw)?, *cur);
        with_tensor_dtype!(dtype(elem)?, T => {
            let t = if pos == DEFAULT_POS {
                a.alloc::<T>(tile)?
            } else {
                a.alloc_at::<T>(position(pos)?, tile)?
            };
            *out = AscLocal::of(&t);
        });
        *cur = a.get_cur_addr();
        Ok(())
    })
}

/// `LocalTensor<T>(pos, addr, tile)` into `*out`.
///
/// # Safety
/// `out` is valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_local_place(
    pos: u8,
    elem: u8,
    addr: u32,
    tile: u32,
    out: *mut AscLocal,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        with_tensor_dtype!(dtype(elem)?, T => {
            *out = AscLocal::of(&LocalTensor::<T>::new_at(position(pos)?, addr, tile)?);
        });
        Ok(())
    })
}
