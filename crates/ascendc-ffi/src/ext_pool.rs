//! Custom `TBufPool`s (`EXTERN_IMPL_BUFPOOL`) and the queue and TBuf side of them
//! (`InitStartBufHandle`, `InitBufHandle`). A `TBufHandle` crosses as its number
//! (`TBufHandle::to_bits`).

use crate::abi::{call, position, AscLoc};
use crate::pipe::AnyTBuf;
use crate::pool::Pool;
use ascendc::api::custom_pool::{CustomPoolBuffer, TBufHandle};
use ascendc::api::tque::DynQue;
use ascendc::error::{Category, SimError};

fn handle(api: &'static str, bits: u64) -> Result<TBufHandle, SimError> {
    TBufHandle::from_bits(bits).ok_or_else(|| {
        SimError::new(
            Category::QueueState,
            api,
            format!("{bits:#x} is not a buffer handle: take one from the pool's GetBufHandle"),
        )
    })
}

/// A custom pool at position `pos` of at most `buf_id_size` buffers (freed with
/// `ascendc_pool_free`).
#[no_mangle]
pub extern "C" fn ascendc_ext_pool_new(pos: u8, buf_id_size: u32) -> *mut Pool {
    let p = position(pos).unwrap_or(ascendc::TPosition::VECCALC);
    Box::into_raw(Box::new(Pool::custom_at_position(p, buf_id_size)))
}

/// The custom pool's `Init()`.
///
/// # Safety
/// `pool` from [`ascendc_ext_pool_new`].
#[no_mangle]
pub unsafe extern "C" fn ascendc_ext_pool_init(pool: *mut Pool) {
    (*pool).init();
}

/// `GetBufHandle(offset)` into `*out`.
///
/// # Safety
/// `pool` from [`ascendc_ext_pool_new`]; `out` writable.
#[no_mangle]
pub unsafe extern "C" fn ascendc_ext_pool_buf_handle(
    pool: *const Pool,
    offset: u8,
    out: *mut u64,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        *out = (*pool).get_buf_handle(offset)?.to_bits();
        Ok(())
    })
}

/// `GetCurAddr()` (`what` 0) or `GetCurBufSize()` (1).
///
/// # Safety
/// `pool` from [`ascendc_ext_pool_new`].
#[no_mangle]
pub unsafe extern "C" fn ascendc_ext_pool_get(pool: *const Pool, what: u8) -> u32 {
    let p = &*pool;
    if what == 0 {
        p.get_cur_addr()
    } else {
        p.get_cur_buf_size() as u32
    }
}

/// `SetCurAddr(value)` (`what` 0) or `SetCurBufSize(value)` (1).
///
/// # Safety
/// `pool` from [`ascendc_ext_pool_new`].
#[no_mangle]
pub unsafe extern "C" fn ascendc_ext_pool_set(
    pool: *mut Pool,
    what: u8,
    value: u32,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let p = &mut *pool;
        if what == 0 {
            p.set_cur_addr(value)
        } else {
            let n = u8::try_from(value)
                .map_err(|_| SimError::range("SetCurBufSize", "curBufSize", value, "[0, 255]"))?;
            p.set_cur_buf_size(n)
        }
    })
}

/// `TQueBind::InitStartBufHandle(handle, num, len)`.
///
/// # Safety
/// `que` from `ascendc_que_new`.
#[no_mangle]
pub unsafe extern "C" fn ascendc_que_init_start_buf_handle(
    que: *mut DynQue,
    handle_bits: u64,
    num: u8,
    len: u32,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let h = handle("InitStartBufHandle", handle_bits)?;
        (*que).init_start_buf_handle(h, num, len)
    })
}

/// `TQueBind::InitBufHandle(pool, index, handle, curPoolAddr, len)`.
///
/// # Safety
/// `que` from `ascendc_que_new`, `pool` a pool handle.
#[no_mangle]
pub unsafe extern "C" fn ascendc_que_init_buf_handle(
    que: *mut DynQue,
    pool: *mut Pool,
    index: u32,
    handle_bits: u64,
    cur_pool_addr: u32,
    len: u32,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let h = handle("InitBufHandle", handle_bits)?;
        (*que).init_buf_handle(&mut *pool, index, h, cur_pool_addr, len)
    })
}

/// `TBuf::InitStartBufHandle(handle, num, len)`.
///
/// # Safety
/// `buf` from `ascendc_tbuf_new`.
#[no_mangle]
pub unsafe extern "C" fn ascendc_tbuf_init_start_buf_handle(
    buf: *mut Box<dyn AnyTBuf>,
    handle_bits: u64,
    num: u8,
    len: u32,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let h = handle("InitStartBufHandle", handle_bits)?;
        (*buf).init_start_buf_handle(h, num, len)
    })
}

/// `TBuf::InitBufHandle(pool, index, handle, curPoolAddr, len)`.
///
/// # Safety
/// `buf` from `ascendc_tbuf_new`, `pool` a pool handle.
#[no_mangle]
pub unsafe extern "C" fn ascendc_tbuf_init_buf_handle(
    buf: *mut Box<dyn AnyTBuf>,
    pool: *mut Pool,
    index: u32,
    handle_bits: u64,
    cur_pool_addr: u32,
    len: u32,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let h = handle("InitBufHandle", handle_bits)?;
        (*buf).init_buf_handle(&mut *pool, index, h, cur_pool_addr, len)
    })
}
