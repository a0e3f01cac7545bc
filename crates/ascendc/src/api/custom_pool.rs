//! Custom `TBufPool`s (`EXTERN_IMPL_BUFPOOL`): a pool whose owner places the buffers of queues
//! and TBufs itself — not necessarily one after another, possibly shared between queues — with
//! the pool's bookkeeping (`GetBufHandle`, `GetCurAddr`/`SetCurAddr`,
//! `GetCurBufSize`/`SetCurBufSize`, `Init`, `Reset`) and the queue side
//! (`TQueBind::InitStartBufHandle`, `InitBufHandle`).
//!
//! The pool still gets its memory from `TPipe::InitBufPool`. A buffer handle names a pool and a
//! block index below the pool's `BUFID_SIZE`; a queue given `num` buffers by
//! `InitStartBufHandle(handle, num, len)` can allocate once `InitBufHandle` has placed each of
//! them inside the pool's memory. The pool's `Reset` ends every buffer it placed, as a
//! `TBufPool`'s does, and also gives the pool's memory back.

use super::context::with_core;
use super::tbuf::TBuf;
use super::tbuf_pool::TBufPool;
use super::tensor::Owner;
use super::tpipe::next_owner_id;
use super::tque::{Queue, QueueState};
use crate::core::Core;
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::position::{Hardware, QuePos, TPosition};

const INIT_START: &str = "InitStartBufHandle";
const INIT_BUF: &str = "InitBufHandle";

/// A buffer handle of a pool (`TBufHandle`, from `GetBufHandle`): block `slot` of pool `pool`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TBufHandle {
    pool: u32,
    slot: u8,
}

impl TBufHandle {
    /// The handle as one non-zero number (a C++ `TBufHandle` pointer's value).
    #[doc(hidden)]
    pub fn to_bits(self) -> u64 {
        (self.pool as u64) << 8 | self.slot as u64
    }

    /// The handle [`TBufHandle::to_bits`] gave; `None` for a number no handle gives.
    #[doc(hidden)]
    pub fn from_bits(bits: u64) -> Option<TBufHandle> {
        let pool = u32::try_from(bits >> 8).ok().filter(|p| *p != 0)?;
        Some(TBufHandle {
            pool,
            slot: bits as u8,
        })
    }
}

impl<P: QuePos> TBufPool<P> {
    /// A custom pool of at most `buf_id_size` buffers (`EXTERN_IMPL_BUFPOOL(…, POSITION,
    /// BUFID_SIZE)`); give it memory with `TPipe::init_buf_pool`.
    pub fn custom(buf_id_size: u32) -> Self {
        let mut p = Self::with_buf_id_size(buf_id_size);
        p.custom = true;
        p
    }

    /// [`TBufPool::custom`] at a position chosen at run time (the C ABI's pools).
    #[doc(hidden)]
    pub fn custom_at_position(pos: TPosition, buf_id_size: u32) -> Self {
        let mut p = Self::at_position(pos, buf_id_size);
        p.custom = true;
        p
    }

    /// The custom pool's `Init()`: no memory, no buffers (what its constructor does before
    /// `TPipe::InitBufPool`).
    pub fn init(&mut self) {
        self.base = 0;
        self.len = 0;
        self.cursor = 0;
        self.handles = 0;
    }

    /// `GetBufHandle(offset)`: the handle of block `offset` (below `BUFID_SIZE`).
    #[track_caller]
    pub fn get_buf_handle(&self, offset: u8) -> Result<TBufHandle> {
        let loc = SourceLoc::caller();
        with_core("GetBufHandle", loc, |_| {
            if offset as u32 >= self.max {
                return Err(SimError::range(
                    "GetBufHandle",
                    "offset",
                    offset,
                    format!("[0, {}] (BUFID_SIZE {})", self.max.max(1) - 1, self.max),
                ));
            }
            Ok(TBufHandle {
                pool: self.id,
                slot: offset,
            })
        })
    }

    /// `GetCurAddr()`: the address in the physical buffer up to which the pool has placed
    /// buffers (its start right after `InitBufPool`).
    pub fn get_cur_addr(&self) -> u32 {
        self.base + self.cursor
    }

    /// `SetCurAddr(curAddr)`: records that the pool has placed buffers up to `cur_addr`, which
    /// must lie in the pool's memory (its end included).
    #[track_caller]
    pub fn set_cur_addr(&mut self, cur_addr: u32) -> Result<()> {
        const API: &str = "SetCurAddr";
        let loc = SourceLoc::caller();
        with_core(API, loc, |_| {
            self.ready(API)?;
            let end = self.base + self.len;
            if !(self.base..=end).contains(&cur_addr) {
                return Err(SimError::range(
                    API,
                    "curAddr",
                    cur_addr,
                    format!("[{}, {end}] (the pool's memory in {})", self.base, self.hw),
                ));
            }
            self.cursor = cur_addr - self.base;
            Ok(())
        })
    }

    /// `GetCurBufSize()`: how many buffer blocks the pool has given out.
    pub fn get_cur_buf_size(&self) -> u8 {
        self.handles as u8
    }

    /// `SetCurBufSize(curBufSize)`: records how many blocks the pool has given out (at most
    /// `BUFID_SIZE`).
    #[track_caller]
    pub fn set_cur_buf_size(&mut self, cur_buf_size: u8) -> Result<()> {
        const API: &str = "SetCurBufSize";
        let loc = SourceLoc::caller();
        with_core(API, loc, |_| {
            if cur_buf_size as u32 > self.max {
                return Err(SimError::range(
                    API,
                    "curBufSize",
                    cur_buf_size,
                    format!("[0, {}] (BUFID_SIZE)", self.max),
                ));
            }
            self.handles = cur_buf_size as u32;
            Ok(())
        })
    }

    /// Checks a block `InitBufHandle` places: `handle` of this pool, block `index` of the
    /// queue's `num`, `len` bytes (rounded up to 32) at `addr` inside the pool's memory in
    /// `hw`. Returns the rounded length.
    #[allow(clippy::too_many_arguments)]
    fn check_place(
        &self,
        start: TBufHandle,
        handle: TBufHandle,
        index: u32,
        num: u32,
        hw: Hardware,
        addr: u32,
        len: u32,
    ) -> Result<u32> {
        self.ready(INIT_BUF)?;
        if handle.pool != self.id || start.pool != self.id {
            return Err(SimError::new(
                Category::QueueState,
                INIT_BUF,
                "the buffer handle comes from another pool than `bufPool`",
            ));
        }
        if index >= num {
            return Err(SimError::range(
                INIT_BUF,
                "index",
                index,
                format!("[0, {}] (the num of InitStartBufHandle)", num - 1),
            ));
        }
        let own = start.slot as u32 + index;
        if handle != start && handle.slot as u32 != own {
            return Err(SimError::new(
                Category::QueueState,
                INIT_BUF,
                format!("bufhandle is block {} of the pool, but InitStartBufHandle began at block {} (pass that handle, or block {own} for index {index})", handle.slot, start.slot),
            ));
        }
        if own >= self.max {
            return Err(SimError::new(
                Category::Resource,
                INIT_BUF,
                format!(
                    "block {own} (start {} + index {index}) is beyond the pool's BUFID_SIZE {}",
                    start.slot, self.max
                ),
            ));
        }
        if hw != self.hw {
            return Err(SimError::new(
                Category::Position,
                INIT_BUF,
                format!("the buffer lives in {hw}, the pool in {}: a pool places only buffers of its own memory", self.hw),
            ));
        }
        if len == 0 {
            return Err(SimError::range(INIT_BUF, "len", len, "(0, pool size]"));
        }
        if !addr.is_multiple_of(32) {
            return Err(SimError::align(
                INIT_BUF,
                "curPoolAddr",
                addr as u64,
                32,
                hw,
            ));
        }
        let rlen = len.div_ceil(32) * 32;
        let end = self.base + self.len;
        if addr < self.base || addr as u64 + rlen as u64 > end as u64 {
            return Err(SimError::new(
                Category::Size,
                INIT_BUF,
                format!(
                    "the block {addr}..{} lies outside the pool's memory {}..{end} in {hw}",
                    addr as u64 + rlen as u64,
                    self.base
                ),
            ));
        }
        Ok(rlen)
    }
}

/// What a custom pool places buffers of: queues (`TQue`, `TQueBind`) and TBufs.
pub trait CustomPoolBuffer {
    /// `InitStartBufHandle(startBufhandle, num, len)`: the queue gets `num` buffers of `len`
    /// bytes starting at block `start` of a pool (a TBuf: `num` = 1); each needs
    /// `init_buf_handle` before the queue can allocate.
    #[track_caller]
    fn init_start_buf_handle(&mut self, start: TBufHandle, num: u8, len: u32) -> Result<()>;

    /// `InitBufHandle(bufPool, index, bufhandle, curPoolAddr, len)`: buffer `index` gets `len`
    /// bytes (rounded up to 32) at `cur_pool_addr`, inside `pool`'s memory; `handle` is the
    /// start handle of `init_start_buf_handle` (or that of block start + `index`).
    #[track_caller]
    fn init_buf_handle<P: QuePos>(
        &mut self,
        pool: &mut TBufPool<P>,
        index: u32,
        handle: TBufHandle,
        cur_pool_addr: u32,
        len: u32,
    ) -> Result<()>;
}

impl<Q: Queue> CustomPoolBuffer for Q {
    fn init_start_buf_handle(&mut self, start: TBufHandle, num: u8, len: u32) -> Result<()> {
        let loc = SourceLoc::caller();
        with_core(INIT_START, loc, |core| {
            let q: &mut QueueState = self.state_mut();
            let hw = q.resolve(core, INIT_START)?;
            if !(1..=64).contains(&num) {
                return Err(SimError::range(INIT_START, "num", num, "[1, 64]"));
            }
            if len == 0 {
                return Err(SimError::range(INIT_START, "len", len, "(0, pool size]"));
            }
            super::que_config::check_init(q, core, INIT_START, num as u32, len)?;
            q.attach(core, hw, (0..num).map(|_| (0, 0)), INIT_START)?;
            q.initialised = false;
            q.start_handle = Some(start);
            Ok(())
        })
    }

    fn init_buf_handle<P: QuePos>(
        &mut self,
        pool: &mut TBufPool<P>,
        index: u32,
        handle: TBufHandle,
        cur_pool_addr: u32,
        len: u32,
    ) -> Result<()> {
        let loc = SourceLoc::caller();
        with_core(INIT_BUF, loc, |core| {
            let q: &mut QueueState = self.state_mut();
            let start = q.start_handle.ok_or_else(|| not_started("queue"))?;
            let hw = q.resolve(core, INIT_BUF)?;
            let num = q.buf_num() as u32;
            let rlen = pool.check_place(start, handle, index, num, hw, cur_pool_addr, len)?;
            if q.place(index as usize, cur_pool_addr, rlen) && !pool.members.contains(&q.id()) {
                pool.members.push(q.id());
            }
            Ok(())
        })
    }
}

impl<B: QuePos> CustomPoolBuffer for TBuf<B> {
    fn init_start_buf_handle(&mut self, start: TBufHandle, num: u8, len: u32) -> Result<()> {
        let loc = SourceLoc::caller();
        with_core(INIT_START, loc, |_| {
            if num != 1 {
                return Err(SimError::range(
                    INIT_START,
                    "num",
                    num,
                    "1 (a TBuf is one buffer)",
                ));
            }
            if len == 0 {
                return Err(SimError::range(INIT_START, "len", len, "(0, pool size]"));
            }
            self.start_handle = Some((start, len));
            Ok(())
        })
    }

    fn init_buf_handle<P: QuePos>(
        &mut self,
        pool: &mut TBufPool<P>,
        index: u32,
        handle: TBufHandle,
        cur_pool_addr: u32,
        len: u32,
    ) -> Result<()> {
        let loc = SourceLoc::caller();
        with_core(INIT_BUF, loc, |core| {
            let (start, _) = self.start_handle.ok_or_else(|| not_started("TBuf"))?;
            let hw = tbuf_hardware::<B>(core)?;
            let rlen = pool.check_place(start, handle, index, 1, hw, cur_pool_addr, len)?;
            let id = match self.owner {
                Some(o) => o.queue,
                None => next_owner_id(),
            };
            let gen = core.lives.allocate(id, 0, B::POS, loc);
            core.lives.attached(id);
            self.owner = Some(Owner {
                queue: id,
                buf: 0,
                gen,
            });
            self.hw = hw;
            self.addr = cur_pool_addr;
            self.len = rlen;
            if !pool.members.contains(&id) {
                pool.members.push(id);
            }
            Ok(())
        })
    }
}

fn not_started(what: &str) -> SimError {
    SimError::new(
        Category::QueueState,
        INIT_BUF,
        format!("this {what} has no start handle: call InitStartBufHandle first"),
    )
}

fn tbuf_hardware<B: QuePos>(core: &Core) -> Result<Hardware> {
    core.profile
        .hardware_of(B::POS)
        .filter(|h| *h != Hardware::GM)
        .ok_or_else(|| {
            SimError::new(
                Category::Position,
                INIT_BUF,
                format!(
                    "TBuf<{}> has no on-chip buffer on {}",
                    B::POS,
                    core.profile.soc
                ),
            )
        })
}
