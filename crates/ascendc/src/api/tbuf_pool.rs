//! `TBufPool`: a sub-pool of one physical buffer carved from the pipe (`TPipe::InitBufPool`) or
//! from another pool (`TBufPool::InitBufPool`), optionally sharing the start and length of an
//! existing pool; queues and TBufs get their memory from it with `InitBuffer`, and `Reset` makes
//! the whole pool available again for the next phase.

use super::context::with_core;
use super::tbuf::TBuf;
use super::tensor::Owner;
use super::tpipe::{next_owner_id, TPipe};
use super::tque::{Queue, QueueState};
use crate::core::Core;
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::position::{Hardware, QuePos, TPosition};
use std::marker::PhantomData;

/// A buffer pool at position `P` managing at most `bufIDSize` buffers (`TBufPool<pos,
/// bufIDSize>`; 4 unless made with [`TBufPool::with_buf_id_size`]).
pub struct TBufPool<P: QuePos> {
    pos: TPosition,
    pub(super) max: u32,
    pub(super) hw: Hardware,
    /// First byte in the physical buffer.
    pub(super) base: u32,
    /// Bytes (a multiple of 32); 0 until initialised.
    pub(super) len: u32,
    pub(super) cursor: u32,
    pub(super) handles: u32,
    /// Lifetime identities (`core::lifetime`) of the queues and TBufs given memory since the
    /// last `Reset`.
    pub(super) members: Vec<u32>,
    /// The pool's identity in its buffer handles (`GetBufHandle`).
    pub(super) id: u32,
    /// A custom pool (`EXTERN_IMPL_BUFPOOL`, `api::custom_pool`): `Reset` also gives its memory
    /// back.
    pub(super) custom: bool,
    _p: PhantomData<P>,
}

impl<P: QuePos> Default for TBufPool<P> {
    fn default() -> Self {
        Self::new()
    }
}

impl<P: QuePos> std::fmt::Debug for TBufPool<P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "TBufPool<{}>({} bytes at byte {} of {}, {} used)",
            self.pos, self.len, self.base, self.hw, self.cursor
        )
    }
}

/// What a pool gives memory to with [`TBufPool::init_buffer`]: queues and TBufs.
pub trait PoolBuffer {
    /// Attaches `num` buffers of `len` bytes each, carved from `carve(bytes)`; returns the
    /// number of buffers and the lifetime identity of the queue or TBuf.
    #[doc(hidden)]
    fn init_from_pool(
        &mut self,
        core: &mut Core,
        hw: Hardware,
        num: u32,
        len: u32,
        carve: &mut dyn FnMut(u32) -> Result<u32>,
        loc: SourceLoc,
    ) -> Result<(u32, u32)>;
}

const INIT_BUFFER: &str = "TBufPool::InitBuffer";

fn check_len(api: &'static str, len: u32, room: u32, what: &str) -> Result<u32> {
    let r = len.div_ceil(32) * 32;
    if len == 0 || r > room {
        return Err(SimError::range(
            api,
            "len",
            len,
            format!("(0, {room}] bytes ({what})"),
        ));
    }
    Ok(r)
}

impl<Q: Queue> PoolBuffer for Q {
    fn init_from_pool(
        &mut self,
        core: &mut Core,
        hw: Hardware,
        num: u32,
        len: u32,
        carve: &mut dyn FnMut(u32) -> Result<u32>,
        _loc: SourceLoc,
    ) -> Result<(u32, u32)> {
        let q: &mut QueueState = self.state_mut();
        let qhw = q.resolve(core, INIT_BUFFER)?;
        if qhw != hw {
            return Err(SimError::new(
                Category::Position,
                INIT_BUFFER,
                format!("the queue's buffers live in {qhw}, the pool in {hw}: a pool gives memory only to queues of its own buffer"),
            ));
        }
        if !(1..=64).contains(&num) {
            return Err(SimError::range(INIT_BUFFER, "num", num, "[1, 64]"));
        }
        let rlen = len.div_ceil(32) * 32;
        if len == 0 {
            return Err(SimError::range(INIT_BUFFER, "len", len, "(0, pool size]"));
        }
        super::que_config::check_init(q, core, INIT_BUFFER, num, len)?;
        let base = carve(num * rlen)?;
        q.attach(
            core,
            hw,
            (0..num).map(|i| (base + i * rlen, rlen)),
            INIT_BUFFER,
        )?;
        Ok((num, q.id()))
    }
}

impl<B: QuePos> PoolBuffer for TBuf<B> {
    fn init_from_pool(
        &mut self,
        core: &mut Core,
        hw: Hardware,
        num: u32,
        len: u32,
        carve: &mut dyn FnMut(u32) -> Result<u32>,
        loc: SourceLoc,
    ) -> Result<(u32, u32)> {
        if num != 1 {
            return Err(SimError::range(
                INIT_BUFFER,
                "num",
                num,
                "1 for a TBuf (InitBuffer(buf, len) is init_buffer(&mut buf, 1, len))",
            ));
        }
        let bhw = core.profile.hardware_of(B::POS);
        if bhw != Some(hw) {
            return Err(SimError::new(
                Category::Position,
                INIT_BUFFER,
                format!(
                    "TBuf<{}> is not in the pool's {hw}: a pool gives memory only to buffers of its own buffer",
                    B::POS
                ),
            ));
        }
        let reset = self
            .owner
            .is_some_and(|o| core.lives.detached_at(o.queue).is_some());
        if self.len != 0 && !reset {
            return Err(SimError::new(
                Category::QueueState,
                INIT_BUFFER,
                "this TBuf already has memory: InitBuffer may be called once per TBuf (again only after its pool's Reset)",
            ));
        }
        let rlen = len.div_ceil(32) * 32;
        if len == 0 {
            return Err(SimError::range(INIT_BUFFER, "len", len, "(0, pool size]"));
        }
        let addr = carve(rlen)?;
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
        self.addr = addr;
        self.len = rlen;
        Ok((1, id))
    }
}

impl<P: QuePos> TBufPool<P> {
    /// An uninitialised pool (give it memory with [`TPipe::init_buf_pool`] or
    /// [`TBufPool::init_buf_pool`]).
    pub fn new() -> Self {
        Self::with_buf_id_size(4)
    }

    /// An uninitialised pool managing at most `buf_id_size` buffers (`TBufPool<pos, bufIDSize>`).
    pub fn with_buf_id_size(buf_id_size: u32) -> Self {
        TBufPool {
            pos: P::POS,
            max: buf_id_size,
            hw: Hardware::UB,
            base: 0,
            len: 0,
            cursor: 0,
            handles: 0,
            members: Vec::new(),
            id: next_owner_id(),
            custom: false,
            _p: PhantomData,
        }
    }

    /// The pool's size in bytes (0 before initialisation).
    pub fn len(&self) -> u32 {
        self.len
    }

    /// True before initialisation.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// An uninitialised pool at a position chosen at run time (the C ABI's pools).
    #[doc(hidden)]
    pub fn at_position(pos: TPosition, buf_id_size: u32) -> Self {
        TBufPool {
            pos,
            ..Self::with_buf_id_size(buf_id_size)
        }
    }

    fn hardware(&self, core: &Core, api: &'static str) -> Result<Hardware> {
        core.profile
            .hardware_of(self.pos)
            .filter(|h| *h != Hardware::GM)
            .ok_or_else(|| {
                SimError::new(
                    Category::Position,
                    api,
                    format!(
                        "TBufPool<{}> has no on-chip buffer on {}",
                        self.pos, core.profile.soc
                    ),
                )
            })
    }

    fn fresh(&self, api: &'static str) -> Result<()> {
        if self.len != 0 {
            return Err(SimError::new(
                Category::QueueState,
                api,
                "this TBufPool is already initialised",
            ));
        }
        Ok(())
    }

    pub(super) fn ready(&self, api: &'static str) -> Result<()> {
        if self.len == 0 {
            return Err(SimError::new(
                Category::QueueState,
                api,
                "the TBufPool has no memory: initialise it with TPipe::InitBufPool or TBufPool::InitBufPool first",
            ));
        }
        Ok(())
    }

    /// Carves `bytes` from this pool's cursor.
    fn carve(&mut self, api: &'static str, bytes: u32) -> Result<u32> {
        let end = self.cursor as u64 + bytes as u64;
        if end > self.len as u64 {
            return Err(SimError::new(
                Category::Size,
                api,
                format!(
                    "the pool has {} of {} bytes left, {bytes} requested",
                    self.len - self.cursor,
                    self.len
                ),
            ));
        }
        let at = self.base + self.cursor;
        self.cursor = end as u32;
        Ok(at)
    }

    /// `TBufPool::InitBuffer`: `num` buffers of `len` bytes (rounded up to 32) for a queue, or
    /// `len` bytes for a TBuf (`num` = 1), from this pool in call order. At most `BUF_ID_SIZE`
    /// buffers per pool; the queue or TBuf must live in the pool's physical buffer.
    #[track_caller]
    pub fn init_buffer<B: PoolBuffer>(&mut self, buf: &mut B, num: u32, len: u32) -> Result<()> {
        let loc = SourceLoc::caller();
        with_core(INIT_BUFFER, loc, |core| {
            self.ready(INIT_BUFFER)?;
            if self.handles + num > self.max {
                return Err(SimError::new(
                    Category::Resource,
                    INIT_BUFFER,
                    format!(
                        "the pool manages at most {} buffers (bufIDSize): {} in use, {num} more requested",
                        self.max,
                        self.handles
                    ),
                ));
            }
            let hw = self.hw;
            let mut carve = |bytes: u32| self.carve(INIT_BUFFER, bytes);
            let (n, id) = buf.init_from_pool(core, hw, num, len, &mut carve, loc)?;
            self.handles += n;
            self.members.push(id);
            Ok(())
        })
    }

    /// `TBufPool::InitBufPool(bufPool, len)`: a nested pool of `len` bytes (rounded up to 32)
    /// carved from this one.
    #[track_caller]
    pub fn init_buf_pool<Q: QuePos>(&mut self, pool: &mut TBufPool<Q>, len: u32) -> Result<()> {
        const API: &str = "TBufPool::InitBufPool";
        let loc = SourceLoc::caller();
        with_core(API, loc, |core| {
            self.ready(API)?;
            pool.fresh(API)?;
            let hw = pool.hardware(core, API)?;
            if hw != self.hw {
                return Err(SimError::new(
                    Category::Position,
                    API,
                    format!("the nested pool is in {hw}, this pool in {}", self.hw),
                ));
            }
            let rlen = check_len(API, len, self.len - self.cursor, "what is left of the pool")?;
            let base = self.carve(API, rlen)?;
            pool.hw = hw;
            pool.base = base;
            pool.len = rlen;
            Ok(())
        })
    }

    /// `TBufPool::InitBufPool(bufPool, len, shareBuf)`: a nested pool sharing the start of
    /// `share` (`len` ≤ its length); nothing is carved.
    #[track_caller]
    pub fn init_buf_pool_shared<Q: QuePos, S: QuePos>(
        &mut self,
        pool: &mut TBufPool<Q>,
        len: u32,
        share: &TBufPool<S>,
    ) -> Result<()> {
        let loc = SourceLoc::caller();
        with_core("TBufPool::InitBufPool", loc, |core| {
            self.ready("TBufPool::InitBufPool")?;
            share_pool(core, "TBufPool::InitBufPool", pool, len, share)
        })
    }

    /// `Reset`: the whole pool is free again; buffers given out before hold no valid data and
    /// queues must be initialised anew before use. Tensors of the pool's queues and TBufs made
    /// before the reset are refused by every later call that uses them. A custom pool also gives
    /// its memory back (it needs `InitBufPool` again), and may be reset when it has none.
    #[track_caller]
    pub fn reset(&mut self) -> Result<()> {
        let loc = SourceLoc::caller();
        with_core("TBufPool::Reset", loc, |core| {
            if !self.custom {
                self.ready("TBufPool::Reset")?;
            }
            self.cursor = 0;
            self.handles = 0;
            for id in self.members.drain(..) {
                core.lives.reset_owner(id, loc);
            }
            if self.custom {
                self.base = 0;
                self.len = 0;
            }
            Ok(())
        })
    }
}

fn share_pool<Q: QuePos, S: QuePos>(
    core: &Core,
    api: &'static str,
    pool: &mut TBufPool<Q>,
    len: u32,
    share: &TBufPool<S>,
) -> Result<()> {
    pool.fresh(api)?;
    share.ready(api)?;
    let hw = pool.hardware(core, api)?;
    if hw != share.hw {
        return Err(SimError::new(
            Category::Position,
            api,
            format!(
                "the new pool is in {hw}, the shared pool in {}: they must be the same buffer",
                share.hw
            ),
        ));
    }
    let rlen = check_len(api, len, share.len, "the length of the shared pool")?;
    pool.hw = hw;
    pool.base = share.base;
    pool.len = rlen;
    Ok(())
}

impl TPipe {
    /// `TPipe::InitBufPool(bufPool, len)`: a pool of `len` bytes (rounded up to 32) carved from
    /// the pipe's allocator of the pool's buffer.
    #[track_caller]
    pub fn init_buf_pool<P: QuePos>(&mut self, pool: &mut TBufPool<P>, len: u32) -> Result<()> {
        const API: &str = "TPipe::InitBufPool";
        let loc = SourceLoc::caller();
        self.check_alive()?;
        with_core(API, loc, |core| {
            pool.fresh(API)?;
            let hw = pool.hardware(core, API)?;
            let size = core.profile.size_of(hw);
            let rlen = check_len(API, len, size, &format!("the {hw}"))?;
            let base = self.alloc(core, API, hw, rlen)?;
            pool.hw = hw;
            pool.base = base;
            pool.len = rlen;
            Ok(())
        })
    }

    /// `TPipe::InitBufPool(bufPool, len, shareBuf)`: a pool sharing the start of `share` (`len` ≤
    /// its length); nothing is carved from the pipe.
    #[track_caller]
    pub fn init_buf_pool_shared<P: QuePos, S: QuePos>(
        &mut self,
        pool: &mut TBufPool<P>,
        len: u32,
        share: &TBufPool<S>,
    ) -> Result<()> {
        let loc = SourceLoc::caller();
        self.check_alive()?;
        with_core("TPipe::InitBufPool", loc, |core| {
            share_pool(core, "TPipe::InitBufPool", pool, len, share)
        })
    }
}
