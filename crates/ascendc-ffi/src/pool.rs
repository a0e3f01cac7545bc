//! `TBufPool` behind an opaque handle owned by the C++ object: pools from the pipe or from
//! another pool (optionally sharing one), buffers for queues and TBufs, Reset.

use crate::abi::{call, position, AscLoc};
use crate::pipe::AnyTBuf;
use ascendc::api::tque::DynQue;
use ascendc::position::QuePosition;
use ascendc::{TBufPool, TPipe};

/// The C ABI's pool: its position is chosen at run time.
pub type Pool = TBufPool<QuePosition::VECCALC>;

/// A pool at position `pos` managing at most `buf_id_size` buffers.
#[no_mangle]
pub extern "C" fn ascendc_pool_new(pos: u8, buf_id_size: u32) -> *mut Pool {
    let p = position(pos).unwrap_or(ascendc::TPosition::VECCALC);
    Box::into_raw(Box::new(Pool::at_position(p, buf_id_size)))
}

/// Destroys a pool made by [`ascendc_pool_new`].
///
/// # Safety
/// `pool` comes from [`ascendc_pool_new`] and is not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn ascendc_pool_free(pool: *mut Pool) {
    drop(Box::from_raw(pool));
}

/// `TPipe::InitBufPool(pool, len)` (`share` null) or `(pool, len, share)`.
///
/// # Safety
/// Handles from their constructors; `share` null or a pool.
#[no_mangle]
pub unsafe extern "C" fn ascendc_pipe_init_pool(
    pipe: *mut TPipe,
    pool: *mut Pool,
    len: u32,
    share: *const Pool,
    loc: AscLoc,
) -> i32 {
    call(loc, || match share.as_ref() {
        None => (*pipe).init_buf_pool(&mut *pool, len),
        Some(s) => (*pipe).init_buf_pool_shared(&mut *pool, len, s),
    })
}

/// `TBufPool::InitBufPool(pool, len)` (`share` null) or `(pool, len, share)`.
///
/// # Safety
/// Handles from their constructors; `share` null or a pool.
#[no_mangle]
pub unsafe extern "C" fn ascendc_pool_init_pool(
    parent: *mut Pool,
    pool: *mut Pool,
    len: u32,
    share: *const Pool,
    loc: AscLoc,
) -> i32 {
    call(loc, || match share.as_ref() {
        None => (*parent).init_buf_pool(&mut *pool, len),
        Some(s) => (*parent).init_buf_pool_shared(&mut *pool, len, s),
    })
}

/// `TBufPool::InitBuffer(que, num, len)`.
///
/// # Safety
/// Handles from their constructors.
#[no_mangle]
pub unsafe extern "C" fn ascendc_pool_init_queue(
    pool: *mut Pool,
    que: *mut DynQue,
    num: u32,
    len: u32,
    loc: AscLoc,
) -> i32 {
    call(loc, || (*pool).init_buffer(&mut *que, num, len))
}

/// `TBufPool::InitBuffer(buf, len)`.
///
/// # Safety
/// Handles from their constructors.
#[no_mangle]
pub unsafe extern "C" fn ascendc_pool_init_tbuf(
    pool: *mut Pool,
    buf: *mut Box<dyn AnyTBuf>,
    len: u32,
    loc: AscLoc,
) -> i32 {
    call(loc, || (*buf).init_from_pool(&mut *pool, len))
}

/// `TBufPool::Reset()`.
///
/// # Safety
/// `pool` from [`ascendc_pool_new`].
#[no_mangle]
pub unsafe extern "C" fn ascendc_pool_reset(pool: *mut Pool, loc: AscLoc) -> i32 {
    call(loc, || (*pool).reset())
}
