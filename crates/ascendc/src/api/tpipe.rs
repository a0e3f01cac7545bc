//! `TPipe`: per-buffer bump allocation, the buffer-handle budget and the event-ID pools.

use super::context::{try_with_core, with_core};
use super::tbuf::TBuf;
use super::tque::{Queue, QueueState};
use crate::core::trace::HardEvent;
use crate::core::Core;
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::position::{Hardware, QuePos, TPosition};
use std::cell::Cell;
use std::sync::atomic::{AtomicU32, Ordering};

/// The next unused range of owner ids (queues and TBufs; 0 is no owner).
static NEXT_QUEUE: AtomicU32 = AtomicU32::new(1);

/// Owner ids a thread takes from [`NEXT_QUEUE`] at a time: every block makes its queues, and
/// threads counting on one shared counter for each would contend for it.
const OWNER_IDS_BATCH: u32 = 64;

thread_local! {
    /// This thread's unused owner ids: `[next, end)`.
    static OWNER_IDS: Cell<(u32, u32)> = const { Cell::new((0, 0)) };
}

/// A new owner id (a queue's or a TBuf's), unique in the process, never 0.
pub(crate) fn next_owner_id() -> u32 {
    OWNER_IDS.with(|ids| {
        let (mut next, mut end) = ids.get();
        if next == end {
            next = NEXT_QUEUE.fetch_add(OWNER_IDS_BATCH, Ordering::Relaxed);
            end = next.wrapping_add(OWNER_IDS_BATCH);
        }
        // After 2^32 ids the count wraps: 0 stays "no owner".
        let id = next.max(1);
        ids.set((next.wrapping_add(1), end));
        id
    })
}

/// Most buffers one TPipe manages.
pub const QBUF_MAX_LEN: u32 = 64;

/// The pipe: one bump allocator per physical buffer and the buffer-handle budget (`TPipe`).
/// Create exactly one per kernel.
pub struct TPipe {
    cursors: [u32; 7],
    tscm_ptr: Option<u32>,
    handles: u32,
    registered: bool,
    error: Option<SimError>,
    /// The SPM buffer of `InitSpmBuffer`, if any.
    pub(super) spm: Option<super::spm::SpmBuffer>,
}

impl Default for TPipe {
    #[track_caller]
    fn default() -> Self {
        TPipe::new()
    }
}

impl TPipe {
    /// Constructs the pipe and registers it with the current core. A second live pipe is an error,
    /// reported by this pipe's first `init_buffer` and by the launch.
    #[track_caller]
    pub fn new() -> TPipe {
        let loc = SourceLoc::caller();
        let mut error = None;
        let registered = try_with_core(|core| match core.register_pipe() {
            Ok(()) => true,
            Err(e) => {
                error = Some(core.fail(e, loc));
                false
            }
        })
        .unwrap_or(false);
        TPipe {
            cursors: [0; 7],
            tscm_ptr: None,
            handles: 0,
            registered,
            error,
            spm: None,
        }
    }

    /// The allocation cursors of the physical buffers (bytes given out from each).
    pub(crate) fn cursors(&self) -> [u32; 7] {
        self.cursors
    }

    /// Moves the allocation cursors back to `c` (`InitShareBufStart`: the next buffers alias
    /// earlier ones, for objects that never run at the same time).
    pub(crate) fn set_cursors(&mut self, c: [u32; 7]) {
        self.cursors = c;
    }

    pub(super) fn check_alive(&self) -> Result<()> {
        match &self.error {
            Some(e) => Err(e.clone()),
            None => Ok(()),
        }
    }

    /// `InitBuffer`: attaches `num` buffers of `len` bytes each to a queue (`TQue`, `TQueBind`),
    /// or `len` bytes to a `TBuf` (Ascend C's two-argument `InitBuffer(buf, len)`; a TBuf is one
    /// buffer, so `num` must be 1). `len` is rounded up to 32 bytes; buffers are carved from the
    /// physical buffer of the position in call order (TSCM queues top-down from the end of L1).
    #[track_caller]
    pub fn init_buffer<B: PipeBuffer>(&mut self, buf: &mut B, num: u32, len: u32) -> Result<()> {
        let loc = SourceLoc::caller();
        self.check_alive()?;
        buf.init(self, num, len, loc)
    }

    fn init_queue(&mut self, q: &mut QueueState, num: u32, len: u32, loc: SourceLoc) -> Result<()> {
        const API: &str = "TPipe::InitBuffer";
        with_core(API, loc, |core| {
            if q.initialised {
                return Err(SimError::new(
                    Category::QueueState,
                    API,
                    "this queue already has buffers: InitBuffer may be called once per queue (call TPipe::Reset first)",
                ));
            }
            if !(1..=QBUF_MAX_LEN).contains(&num) {
                return Err(SimError::range(API, "num", num, "[1, 64]"));
            }
            let hw = q.resolve(core, API)?;
            let pool = core.profile.size_of(hw);
            if len == 0 || len > pool {
                return Err(SimError::range(
                    API,
                    "len",
                    len,
                    format!("(0, {pool}] bytes (the {hw} of {})", core.profile.soc),
                ));
            }
            super::que_config::check_init(q, core, API, num, len)?;
            let rlen = len.div_ceil(32) * 32;
            let total = num as u64 * rlen as u64;
            if total > pool as u64 {
                return Err(SimError::new(
                    Category::Size,
                    API,
                    format!("buffer size exceeds the limit: {num} × {rlen} bytes = {total} > {pool} bytes of {hw}"),
                ));
            }
            self.take_handles(API, num)?;
            let base = if q.dst == TPosition::TSCM {
                let group = q.config.is_some_and(|c| c.scm_block_group);
                self.alloc_tscm(core, API, total as u32, group)?
            } else {
                self.alloc(core, API, hw, total as u32)?
            };
            q.attach(core, hw, (0..num).map(|i| (base + i * rlen, rlen)), API)?;
            Ok(())
        })
    }

    /// Attaches buffers at user-chosen addresses (`InitBuffer(que, tuple<addr, len>...)`): no
    /// rounding, no cursor move. Each pair is (byte address, byte length).
    #[track_caller]
    pub fn init_buffer_at<Q: Queue>(&mut self, que: &mut Q, buffers: &[(u32, u32)]) -> Result<()> {
        let loc = SourceLoc::caller();
        const API: &str = "TPipe::InitBuffer";
        self.check_alive()?;
        with_core(API, loc, |core| {
            let q = que.state_mut();
            if q.dst == TPosition::TSCM {
                return Err(SimError::new(
                    Category::Position,
                    API,
                    "user-placed buffers are not allowed for TSCM queues",
                ));
            }
            if buffers.is_empty() || buffers.len() > QBUF_MAX_LEN as usize {
                return Err(SimError::range(
                    API,
                    "number of buffers",
                    buffers.len(),
                    "[1, 64]",
                ));
            }
            let hw = q.resolve(core, API)?;
            let pool = core.profile.size_of(hw);
            for &(addr, len) in buffers {
                if addr as u64 + len as u64 > pool as u64 {
                    return Err(SimError::new(
                        Category::Size,
                        API,
                        format!(
                            "buffer at byte {addr} of {len} bytes exceeds the limit {pool} of {hw}"
                        ),
                    ));
                }
            }
            self.take_handles(API, buffers.len() as u32)?;
            q.attach(core, hw, buffers.iter().copied(), API)
        })
    }

    fn init_tbuf<P: QuePos>(
        &mut self,
        buf: &mut TBuf<P>,
        num: u32,
        len: u32,
        loc: SourceLoc,
    ) -> Result<()> {
        const API: &str = "TPipe::InitBuffer";
        with_core(API, loc, |core| {
            if num != 1 {
                return Err(SimError::range(
                    API,
                    "num",
                    num,
                    "1 for a TBuf (a TBuf is one buffer: InitBuffer(buf, len) is init_buffer(&mut buf, 1, len))",
                ));
            }
            if buf.len != 0 {
                return Err(SimError::new(
                    Category::QueueState,
                    API,
                    "this TBuf already has memory: InitBuffer may be called once per TBuf",
                ));
            }
            let hw = core
                .profile
                .hardware_of(P::POS)
                .filter(|h| *h != Hardware::GM)
                .ok_or_else(|| {
                    SimError::new(
                        Category::Position,
                        API,
                        format!(
                            "buffer position cannot be GM: TBuf<{}> has no on-chip memory on {}",
                            P::POS,
                            core.profile.soc
                        ),
                    )
                })?;
            let pool = core.profile.size_of(hw);
            if len == 0 || len > pool {
                return Err(SimError::range(
                    API,
                    "len",
                    len,
                    format!("(0, {pool}] bytes (the {hw})"),
                ));
            }
            let rlen = len.div_ceil(32) * 32;
            self.take_handles(API, 1)?;
            let addr = self.alloc(core, API, hw, rlen)?;
            buf.hw = hw;
            buf.addr = addr;
            buf.len = rlen;
            Ok(())
        })
    }

    fn take_handles(&mut self, api: &'static str, n: u32) -> Result<()> {
        if self.handles + n > QBUF_MAX_LEN {
            return Err(SimError::new(
                Category::Resource,
                api,
                format!(
                    "total buffer number managed by TPipe should be in (0, 64]: {} in use, {n} more requested",
                    self.handles
                ),
            ));
        }
        self.handles += n;
        Ok(())
    }

    pub(super) fn alloc(
        &mut self,
        core: &Core,
        api: &'static str,
        hw: Hardware,
        bytes: u32,
    ) -> Result<u32> {
        // Placing a buffer touches no memory: a kernel whose cores share the init code (a
        // cube core setting up UB queues it never uses) may do it; taking a tensor of a memory
        // the core lacks is the error (AllocTensor, TBuf::Get).
        let i = hw.local_index().expect("local buffer");
        let pool = core.profile.size_of(hw);
        let start = self.cursors[i];
        let end = start as u64 + bytes as u64;
        if end > pool as u64 {
            return Err(SimError::new(
                Category::Size,
                api,
                format!("{hw} pool cursor {end} exceeds the limit {pool} ({bytes} bytes requested at byte {start})"),
            ));
        }
        if hw == Hardware::L1 {
            let tscm = self.tscm_ptr.unwrap_or(pool);
            if end > tscm as u64 {
                return Err(SimError::new(
                    Category::Size,
                    api,
                    format!("L1 buffers would end at byte {end}, overlapping the TSCM area that starts at byte {tscm}"),
                ));
            }
        }
        self.cursors[i] = end as u32;
        Ok(start)
    }

    /// The bytes of `hw` no buffer of the pipe holds yet: (first byte, end byte), the end being
    /// the start of the TSCM area for L1.
    pub(super) fn free_range(&self, core: &Core, hw: Hardware) -> (u32, u32) {
        let size = core.profile.size_of(hw);
        let i = hw.local_index().expect("local buffer");
        let end = match hw {
            Hardware::L1 => self.tscm_ptr.unwrap_or(size),
            _ => size,
        };
        (self.cursors[i].min(end), end)
    }

    /// `bytes` of TSCM below the previous TSCM buffers. The vector cores of a 1:2 group share
    /// their cube core's L1, so each allocation takes `GetTaskRatio()` slices, the lowest for
    /// sub-block 0 (the device's layout), unless the queue's `scmBlockGroup` shares one.
    fn alloc_tscm(
        &mut self,
        core: &Core,
        api: &'static str,
        bytes: u32,
        group: bool,
    ) -> Result<u32> {
        let top = self.tscm_ptr.unwrap_or(core.profile.size_of(Hardware::L1));
        let (ratio, sub) = if group {
            (1, 0)
        } else {
            (core.id.task_ratio.max(1), core.id.sub_block_idx)
        };
        let l1_cursor = self.cursors[Hardware::L1.local_index().unwrap()];
        let low = (bytes as u64 * ratio as u64)
            .try_into()
            .ok()
            .and_then(|all: u32| top.checked_sub(all))
            .filter(|s| *s >= l1_cursor)
            .ok_or_else(|| {
                SimError::new(
                    Category::Size,
                    api,
                    format!("TSCM buffers of {bytes} bytes (× {ratio} vector cores) below byte {top} would overlap the L1 buffers that end at byte {l1_cursor}"),
                )
            })?;
        self.tscm_ptr = Some(low);
        Ok(low + sub * bytes)
    }

    /// Returns every allocator to its initial state (`Reset`); queues initialised before must be
    /// initialised again.
    #[track_caller]
    pub fn reset(&mut self) {
        self.cursors = [0; 7];
        self.tscm_ptr = None;
        self.handles = 0;
        self.spm = None;
        try_with_core(|core| core.reset_events());
    }

    /// Releases the pipe so that another may be constructed (`Destroy`).
    pub fn destroy(&mut self) {
        if self.registered {
            try_with_core(|core| core.unregister_pipe());
            self.registered = false;
        }
    }

    /// Takes the lowest free event ID of a kind (`AllocEventID`).
    #[track_caller]
    pub fn alloc_event_id(&mut self, event: HardEvent) -> Result<u32> {
        let loc = SourceLoc::caller();
        with_core("TPipe::AllocEventID", loc, |core| {
            core.alloc_event_id(event, "TPipe::AllocEventID")
        })
    }

    /// Gives an event ID back (`ReleaseEventID`).
    #[track_caller]
    pub fn release_event_id(&mut self, event: HardEvent, id: u32) -> Result<()> {
        let loc = SourceLoc::caller();
        with_core("TPipe::ReleaseEventID", loc, |core| {
            core.release_event_id(event, id, "TPipe::ReleaseEventID")
        })
    }

    /// The lowest free event ID of a kind, without taking it (`FetchEventID`).
    #[track_caller]
    pub fn fetch_event_id(&self, event: HardEvent) -> Result<u32> {
        let loc = SourceLoc::caller();
        with_core("TPipe::FetchEventID", loc, |core| {
            let id = core.fetch_event_id(event);
            if id >= core.profile.max_event_ids {
                return Err(SimError::new(
                    Category::Resource,
                    "TPipe::FetchEventID",
                    format!(
                        "no event ID of {event:?} left (at most {})",
                        core.profile.max_event_ids
                    ),
                ));
            }
            Ok(id)
        })
    }
}

impl Drop for TPipe {
    fn drop(&mut self) {
        self.destroy();
    }
}

/// What [`TPipe::init_buffer`] gives memory to: queues (`TQue`, `TQueBind`) and `TBuf`.
pub trait PipeBuffer {
    /// Attaches `num` buffers of `len` bytes (rounded up to 32) from `pipe`.
    fn init(&mut self, pipe: &mut TPipe, num: u32, len: u32, loc: SourceLoc) -> Result<()>;
}

impl<Q: Queue> PipeBuffer for Q {
    fn init(&mut self, pipe: &mut TPipe, num: u32, len: u32, loc: SourceLoc) -> Result<()> {
        pipe.init_queue(self.state_mut(), num, len, loc)
    }
}

impl<P: QuePos> PipeBuffer for TBuf<P> {
    fn init(&mut self, pipe: &mut TPipe, num: u32, len: u32, loc: SourceLoc) -> Result<()> {
        pipe.init_tbuf(self, num, len, loc)
    }
}

#[cfg(test)]
mod owner_id_tests {
    use super::*;

    #[test]
    fn owner_ids_are_unique_across_threads_and_never_zero() {
        let per_thread: Vec<Vec<u32>> = std::thread::scope(|s| {
            let hs: Vec<_> = (0..4)
                .map(|_| s.spawn(|| (0..200).map(|_| next_owner_id()).collect::<Vec<_>>()))
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let mut all: Vec<u32> = per_thread.concat();
        assert!(all.iter().all(|&id| id != 0));
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }
}
