//! `TPipe`, `TQue` / `TQueBind` and `TBuf` behind opaque handles owned by the C++ objects.

use crate::abi::{call, call_at, dtype, position, AscLoc, AscLocal};
use crate::sync::event;
use crate::with_tensor_dtype;
use ascendc::api::custom_pool::{CustomPoolBuffer, TBufHandle};
use ascendc::api::tque::DynQue;
use ascendc::core::spare::{BoxStack, SpareBoxes};
use ascendc::error::{SimError, SourceLoc};
use ascendc::position::QuePosition;
use ascendc::{LocalTensor, TBuf, TPipe, TPosition};
use std::cell::RefCell;

/// A `TBuf` of any position.
pub trait AnyTBuf {
    /// `TPipe::InitBuffer(buf, len)`.
    fn init(&mut self, pipe: &mut TPipe, len: u32) -> Result<(), SimError>;
    /// `TBufPool::InitBuffer(buf, len)`.
    fn init_from_pool(
        &mut self,
        pool: &mut ascendc::TBufPool<QuePosition::VECCALC>,
        len: u32,
    ) -> Result<(), SimError>;
    /// `Get<T>()` (`count` < 0) or `Get<T>(count)`.
    fn get(&self, t: ascendc::DType, count: i64) -> Result<AscLocal, SimError>;
    /// `GetWithOffset<T>(count, offset)`.
    fn get_with_offset(
        &self,
        t: ascendc::DType,
        count: u32,
        offset: u32,
    ) -> Result<AscLocal, SimError>;
    /// `InitStartBufHandle(handle, num, len)` (a custom pool places the TBuf).
    fn init_start_buf_handle(&mut self, h: TBufHandle, num: u8, len: u32) -> Result<(), SimError>;
    /// `InitBufHandle(pool, index, handle, curPoolAddr, len)`.
    fn init_buf_handle(
        &mut self,
        pool: &mut ascendc::TBufPool<QuePosition::VECCALC>,
        index: u32,
        h: TBufHandle,
        cur_pool_addr: u32,
        len: u32,
    ) -> Result<(), SimError>;
}

impl<P: ascendc::position::QuePos> AnyTBuf for TBuf<P> {
    fn init_start_buf_handle(&mut self, h: TBufHandle, num: u8, len: u32) -> Result<(), SimError> {
        CustomPoolBuffer::init_start_buf_handle(self, h, num, len)
    }

    fn init_buf_handle(
        &mut self,
        pool: &mut ascendc::TBufPool<QuePosition::VECCALC>,
        index: u32,
        h: TBufHandle,
        cur_pool_addr: u32,
        len: u32,
    ) -> Result<(), SimError> {
        CustomPoolBuffer::init_buf_handle(self, pool, index, h, cur_pool_addr, len)
    }

    fn init(&mut self, pipe: &mut TPipe, len: u32) -> Result<(), SimError> {
        pipe.init_buffer(self, 1, len)
    }

    fn init_from_pool(
        &mut self,
        pool: &mut ascendc::TBufPool<QuePosition::VECCALC>,
        len: u32,
    ) -> Result<(), SimError> {
        pool.init_buffer(self, 1, len)
    }

    fn get(&self, t: ascendc::DType, count: i64) -> Result<AscLocal, SimError> {
        with_tensor_dtype!(t, T => {
            let l: LocalTensor<T> = if count < 0 { self.get::<T>()? } else { self.get_count::<T>(count as u32)? };
            Ok(AscLocal::of(&l))
        })
    }

    fn get_with_offset(
        &self,
        t: ascendc::DType,
        count: u32,
        offset: u32,
    ) -> Result<AscLocal, SimError> {
        with_tensor_dtype!(t, T => Ok(AscLocal::of(&self.get_with_offset::<T>(count, offset)?)))
    }
}

fn new_tbuf(pos: TPosition) -> Box<dyn AnyTBuf> {
    use TPosition::*;
    match pos {
        A1 => Box::new(TBuf::<QuePosition::A1>::new()),
        A2 => Box::new(TBuf::<QuePosition::A2>::new()),
        B1 => Box::new(TBuf::<QuePosition::B1>::new()),
        B2 => Box::new(TBuf::<QuePosition::B2>::new()),
        C1 => Box::new(TBuf::<QuePosition::C1>::new()),
        C2 => Box::new(TBuf::<QuePosition::C2>::new()),
        CO1 => Box::new(TBuf::<QuePosition::CO1>::new()),
        CO2 => Box::new(TBuf::<QuePosition::CO2>::new()),
        VECIN => Box::new(TBuf::<QuePosition::VECIN>::new()),
        VECOUT => Box::new(TBuf::<QuePosition::VECOUT>::new()),
        SPM => Box::new(TBuf::<QuePosition::SPM>::new()),
        TSCM => Box::new(TBuf::<QuePosition::TSCM>::new()),
        C2PIPE2GM => Box::new(TBuf::<QuePosition::C2PIPE2GM>::new()),
        GM => Box::new(TBuf::<QuePosition::GM>::new()),
        VECCALC | C2PIPE2LOCAL => Box::new(TBuf::<QuePosition::VECCALC>::new()),
    }
}

thread_local! {
    static PIPE_BOXES: BoxStack<TPipe> = const { RefCell::new(Vec::new()) };
    static QUEUE_BOXES: BoxStack<DynQue> = const { RefCell::new(Vec::new()) };
}

/// Boxes of the pipes and queues C++ kernels hold, reused from block to block on a thread.
static PIPES: SpareBoxes<TPipe> = SpareBoxes::new(&PIPE_BOXES);
static QUEUES: SpareBoxes<DynQue> = SpareBoxes::new(&QUEUE_BOXES);

/// Constructs the kernel's `TPipe`.
#[no_mangle]
pub extern "C" fn ascendc_pipe_new(loc: AscLoc) -> *mut TPipe {
    loc.source().scope(|| PIPES.boxed(TPipe::new()))
}

/// Destroys a `TPipe` made by [`ascendc_pipe_new`].
///
/// # Safety
/// `pipe` comes from [`ascendc_pipe_new`] and is not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn ascendc_pipe_free(pipe: *mut TPipe) {
    PIPES.free(pipe);
}

/// `TPipe::Reset()`.
///
/// # Safety
/// `pipe` comes from [`ascendc_pipe_new`].
#[no_mangle]
pub unsafe extern "C" fn ascendc_pipe_reset(pipe: *mut TPipe) {
    (*pipe).reset();
}

/// `TPipe::Destroy()`.
///
/// # Safety
/// `pipe` comes from [`ascendc_pipe_new`].
#[no_mangle]
pub unsafe extern "C" fn ascendc_pipe_destroy(pipe: *mut TPipe) {
    (*pipe).destroy();
}

/// `TPipe::InitBuffer(que, num, len)`.
///
/// # Safety
/// `pipe` and `que` come from their constructors.
#[no_mangle]
pub unsafe extern "C" fn ascendc_pipe_init_queue(
    pipe: *mut TPipe,
    que: *mut DynQue,
    num: u32,
    len: u32,
    loc: AscLoc,
) -> i32 {
    call(loc, || (*pipe).init_buffer(&mut *que, num, len))
}

/// `TPipe::InitBuffer(tbuf, len)`.
///
/// # Safety
/// `pipe` and `buf` come from their constructors.
#[no_mangle]
pub unsafe extern "C" fn ascendc_pipe_init_tbuf(
    pipe: *mut TPipe,
    buf: *mut Box<dyn AnyTBuf>,
    len: u32,
    loc: AscLoc,
) -> i32 {
    call(loc, || (*buf).init(&mut *pipe, len))
}

/// `TPipe::AllocEventID<event>()` (`op` 0, the ID in `*id`), `ReleaseEventID<event>(*id)` (1),
/// `FetchEventID(event)` (2, the ID in `*id`).
///
/// # Safety
/// `pipe` comes from [`ascendc_pipe_new`]; `id` is valid for reads and writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_pipe_event(
    pipe: *mut TPipe,
    op: u8,
    event_idx: u8,
    id: *mut u32,
    loc: AscLoc,
) -> i32 {
    const NAMES: [&str; 3] = [
        "TPipe::AllocEventID",
        "TPipe::ReleaseEventID",
        "TPipe::FetchEventID",
    ];
    call(loc, || {
        let e = event(event_idx, NAMES[op.min(2) as usize])?;
        let p = &mut *pipe;
        match op {
            0 => *id = p.alloc_event_id(e)?,
            1 => p.release_event_id(e, *id)?,
            _ => *id = p.fetch_event_id(e)?,
        }
        Ok(())
    })
}

/// Constructs `TQue<pos, depth>`, or `TQueBind<src, dst, depth>` when `dst` is not 255.
#[no_mangle]
pub extern "C" fn ascendc_que_new(src: u8, dst: u8, depth: u8) -> *mut DynQue {
    let pos = |i| position(i).unwrap_or(TPosition::VECCALC);
    let q = if dst == u8::MAX {
        DynQue::que(pos(src), depth)
    } else {
        DynQue::bind(pos(src), pos(dst), depth)
    };
    QUEUES.boxed(q)
}

/// Destroys a queue made by [`ascendc_que_new`].
///
/// # Safety
/// `que` comes from [`ascendc_que_new`] and is not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn ascendc_que_free(que: *mut DynQue) {
    QUEUES.free(que);
}

// The queue operations. The element type does not change what a queue does, so every form runs
// with bytes; each has its own entry point, as the hot loop of a kernel calls them all.

/// Runs `op`, which gives a tensor of `que` (AllocTensor, DeQue), and writes it into `out`.
///
/// # Safety
/// `que` comes from [`ascendc_que_new`]; `out` is valid for writes.
#[inline(always)]
unsafe fn giving(
    que: *mut DynQue,
    out: *mut AscLocal,
    loc: AscLoc,
    op: impl FnOnce(&mut DynQue, SourceLoc) -> Result<LocalTensor<u8>, SimError>,
) -> i32 {
    call_at(loc, |loc| {
        AscLocal::write(&op(&mut *que, loc)?, out);
        Ok(())
    })
}

/// Runs `op`, which takes a tensor back to `que` (EnQue, FreeTensor), on the tensor `input`.
///
/// # Safety
/// `que` comes from [`ascendc_que_new`]; `input` is valid for reads.
#[inline(always)]
unsafe fn taking(
    que: *mut DynQue,
    input: *const AscLocal,
    loc: AscLoc,
    op: impl FnOnce(&mut DynQue, &LocalTensor<u8>, SourceLoc) -> Result<(), SimError>,
) -> i32 {
    call_at(loc, |loc| {
        let mut t = LocalTensor::<u8>::default();
        (*input).load_at(&mut t, loc)?;
        op(&mut *que, &t, loc)
    })
}

/// `AllocTensor`: the next free buffer of `que`, into `out`.
///
/// # Safety
/// `que` comes from [`ascendc_que_new`]; `out` is valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_que_alloc(
    que: *mut DynQue,
    out: *mut AscLocal,
    loc: AscLoc,
) -> i32 {
    giving(que, out, loc, |q, loc| q.alloc_tensor_at(loc))
}

/// `EnQue` of `input`.
///
/// # Safety
/// `que` comes from [`ascendc_que_new`]; `input` is valid for reads.
#[no_mangle]
pub unsafe extern "C" fn ascendc_que_enque(
    que: *mut DynQue,
    input: *const AscLocal,
    loc: AscLoc,
) -> i32 {
    taking(que, input, loc, |q, t, loc| q.enque_at(t, loc))
}

/// `DeQue`: the oldest enqueued tensor of `que`, into `out`.
///
/// # Safety
/// `que` comes from [`ascendc_que_new`]; `out` is valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_que_deque(
    que: *mut DynQue,
    out: *mut AscLocal,
    loc: AscLoc,
) -> i32 {
    giving(que, out, loc, |q, loc| q.deque_at(loc))
}

/// `FreeTensor` of `input`.
///
/// # Safety
/// `que` comes from [`ascendc_que_new`]; `input` is valid for reads.
#[no_mangle]
pub unsafe extern "C" fn ascendc_que_free_tensor(
    que: *mut DynQue,
    input: *const AscLocal,
    loc: AscLoc,
) -> i32 {
    taking(que, input, loc, |q, t, loc| q.free_tensor_at(t, loc))
}

/// `FreeAllEvent`.
///
/// # Safety
/// `que` comes from [`ascendc_que_new`].
#[no_mangle]
pub unsafe extern "C" fn ascendc_que_free_all_event(que: *mut DynQue, loc: AscLoc) -> i32 {
    call(loc, || (*que).free_all_event())
}

/// `VacantInQue` (0), `HasTensorInQue` (1), `GetTensorCountInQue` (2), `HasIdleBuffer` (3).
///
/// # Safety
/// `que` comes from [`ascendc_que_new`].
#[no_mangle]
pub unsafe extern "C" fn ascendc_que_query(que: *const DynQue, what: u8) -> u32 {
    let q = &*que;
    match what {
        0 => q.vacant_in_que() as u32,
        1 => q.has_tensor_in_que() as u32,
        2 => q.get_tensor_count_in_que(),
        _ => q.has_idle_buffer() as u32,
    }
}

/// Constructs `TBuf<pos>`.
#[no_mangle]
pub extern "C" fn ascendc_tbuf_new(pos: u8) -> *mut Box<dyn AnyTBuf> {
    Box::into_raw(Box::new(new_tbuf(
        position(pos).unwrap_or(TPosition::VECCALC),
    )))
}

/// Destroys a `TBuf` made by [`ascendc_tbuf_new`].
///
/// # Safety
/// `buf` comes from [`ascendc_tbuf_new`] and is not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn ascendc_tbuf_free(buf: *mut Box<dyn AnyTBuf>) {
    drop(Box::from_raw(buf));
}

/// `Get<T>()` (`count` < 0), `Get<T>(count)`, or `GetWithOffset<T>(count, offset)` (`offset` ≥ 0).
///
/// # Safety
/// `buf` comes from [`ascendc_tbuf_new`]; `out` is valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_tbuf_get(
    buf: *const Box<dyn AnyTBuf>,
    elem: u8,
    count: i64,
    offset: i64,
    out: *mut AscLocal,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let t = dtype(elem)?;
        *out = if offset < 0 {
            (*buf).get(t, count)?
        } else {
            (*buf).get_with_offset(t, count as u32, offset as u32)?
        };
        Ok(())
    })
}
