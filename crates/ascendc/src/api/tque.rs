//! `TQue` / `TQueBind`: the queue state machine (AllocTensor, EnQue, DeQue, FreeTensor) and the
//! flags its operations raise.

use super::context::with_core;
use super::tensor::{LocalTensor, Owner, ShapeInfo};
use super::tpipe::next_owner_id;
use crate::core::spare::{Spares, VecStack};
use crate::core::trace::HardEvent;
use crate::core::Core;
use crate::dtype::TensorElement;
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::position::{Hardware, QuePos, TPosition};
use std::cell::RefCell;
use std::marker::PhantomData;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BufState {
    /// Not in use.
    Free,
    /// Allocated, not yet enqueued.
    Occupied,
    /// Enqueued.
    Enque,
    /// Dequeued.
    Deque,
}

#[derive(Debug, Clone)]
struct BufHandle {
    addr: u32,
    len: u32,
    state: BufState,
    enq_id: Option<u32>,
    free_id: Option<u32>,
    /// The ShapeInfo of the tensor last enqueued from this buffer (returned by DeQue).
    shape: Option<&'static ShapeInfo>,
    /// The buffer's current allocation (see `core::lifetime`).
    gen: u32,
}

/// The state shared by `TQue` and `TQueBind`.
#[derive(Debug)]
pub struct QueueState {
    id: u32,
    src: TPosition,
    pub(super) dst: TPosition,
    depth: u8,
    pub(super) initialised: bool,
    hw: Hardware,
    pub(super) pos: TPosition,
    bufs: Vec<BufHandle>,
    cursor: usize,
    used_count: u32,
    buf_used: u32,
    slots: Vec<Option<u16>>,
    head: usize,
    tail: usize,
    enq_event: Option<HardEvent>,
    free_event: Option<HardEvent>,
    /// The `TQueConfig` template argument, if any.
    pub(super) config: Option<super::que_config::TQueConfig>,
    /// The first buffer handle of a queue a custom pool places (`InitStartBufHandle`).
    pub(super) start_handle: Option<super::custom_pool::TBufHandle>,
}

thread_local! {
    static BUF_STACK: VecStack<BufHandle> = const { RefCell::new(Vec::new()) };
    static SLOT_STACK: VecStack<Option<u16>> = const { RefCell::new(Vec::new()) };
}

/// Storage of buffer tables and FIFO slots, reused from queue to queue (queues are made in
/// every block).
static SPARE_BUFS: Spares<BufHandle> = Spares::new(&BUF_STACK);
static SPARE_SLOTS: Spares<Option<u16>> = Spares::new(&SLOT_STACK);

impl Drop for QueueState {
    fn drop(&mut self) {
        SPARE_BUFS.give(std::mem::take(&mut self.bufs));
        SPARE_SLOTS.give(std::mem::take(&mut self.slots));
    }
}

/// The events a queue between two physical buffers uses: (enqueue, free).
fn queue_events(src: Hardware, dst: Hardware) -> Option<(HardEvent, HardEvent)> {
    use HardEvent::*;
    use Hardware::*;
    Some(match (src, dst) {
        (GM, UB) => (MTE2_V, V_MTE2),
        (UB, GM) => (V_MTE3, MTE3_V),
        (UB, UB) => (MTE2_MTE3, MTE3_MTE2),
        (GM, L1) => (MTE2_MTE1, MTE1_MTE2),
        (GM, L0A) | (GM, L0B) => (MTE2_M, M_MTE2),
        (UB, L1) => (MTE3_MTE1, MTE1_MTE3),
        (L1, UB) => (MTE1_V, V_MTE1),
        (L1, L0A) | (L1, L0B) | (L1, BIAS) => (MTE1_M, M_MTE1),
        (L1, FIXBUF) => (MTE1_FIX, FIX_MTE1),
        (L0C, UB) => (M_V, V_M),
        (L0C, GM) => (M_FIX, FIX_M),
        (UB, L0C) => (V_V, V_V),
        _ => return None,
    })
}

/// The position after `i` in a ring of `n` (a compare instead of a division: this runs on
/// every queue operation).
#[inline]
fn next_slot(i: usize, n: usize) -> usize {
    if i + 1 == n {
        0
    } else {
        i + 1
    }
}

impl QueueState {
    fn new(src: TPosition, dst: TPosition, depth: u8) -> QueueState {
        QueueState {
            id: next_owner_id(),
            src,
            dst,
            depth,
            initialised: false,
            hw: Hardware::UB,
            pos: if matches!(dst, TPosition::GM | TPosition::CO2) {
                src
            } else {
                dst
            },
            bufs: SPARE_BUFS.take(),
            cursor: 0,
            used_count: 0,
            buf_used: 0,
            slots: {
                let mut slots = SPARE_SLOTS.take();
                slots.resize(depth.max(1) as usize, None);
                slots
            },
            head: 0,
            tail: 0,
            enq_event: None,
            free_event: None,
            config: None,
            start_handle: None,
        }
    }

    /// Finds the physical buffer of the queue's storage side on this product.
    pub(super) fn resolve(&mut self, core: &Core, api: &'static str) -> Result<Hardware> {
        let p = core.profile;
        if self.src == self.dst {
            return Err(SimError::new(
                Category::Position,
                api,
                format!(
                    "{} is not a valid queue position: use a TBuf for scratch memory",
                    self.src
                ),
            ));
        }
        let side = self.pos;
        let hw = p.hardware_of(side).ok_or_else(|| {
            SimError::new(
                Category::Unsupported,
                api,
                format!("position {side} does not exist on {}", p.soc),
            )
        })?;
        if hw == Hardware::GM {
            return Err(SimError::new(
                Category::Position,
                api,
                format!(
                    "buffer position cannot be GM: a queue on {side} has its storage in GM on {}",
                    p.soc
                ),
            ));
        }
        let src_hw = p.hardware_of(self.src).unwrap_or(Hardware::GM);
        let dst_hw = p.hardware_of(self.dst).unwrap_or(Hardware::GM);
        if let Some((e, f)) = queue_events(src_hw, dst_hw) {
            self.enq_event = Some(e);
            self.free_event = Some(f);
        }
        Ok(hw)
    }

    pub(super) fn attach(
        &mut self,
        core: &mut Core,
        hw: Hardware,
        bufs: impl Iterator<Item = (u32, u32)>,
        api: &'static str,
    ) -> Result<()> {
        self.hw = hw;
        self.bufs.clear();
        self.bufs.extend(bufs.map(|(addr, len)| BufHandle {
            addr,
            len,
            state: BufState::Free,
            enq_id: None,
            free_id: None,
            shape: None,
            gen: 0,
        }));
        if self.depth == 0 {
            if let (Some(e), Some(f)) = (self.enq_event, self.free_event) {
                for b in &mut self.bufs {
                    b.enq_id = Some(core.alloc_event_id(e, api)?);
                    b.free_id = Some(core.alloc_event_id(f, api)?);
                }
            }
        }
        self.initialised = true;
        core.lives.attached(self.id);
        Ok(())
    }

    /// Places buffer `index` of a queue a custom pool gives memory to one buffer at a time
    /// (`InitBufHandle`); true once every buffer has its memory.
    pub(super) fn place(&mut self, index: usize, addr: u32, len: u32) -> bool {
        let b = &mut self.bufs[index];
        b.addr = addr;
        b.len = len;
        self.initialised = self.bufs.iter().all(|b| b.len > 0);
        self.initialised
    }

    /// The number of buffers the queue has (or is being given).
    pub(super) fn buf_num(&self) -> usize {
        self.bufs.len()
    }

    /// The queue's identity in the buffer lifetimes (`core::lifetime`).
    pub(super) fn id(&self) -> u32 {
        self.id
    }

    #[inline]
    fn owned(&self, api: &'static str, owner: Option<Owner>) -> Result<usize> {
        match owner {
            Some(o) if o.queue == self.id && (o.buf as usize) < self.bufs.len() => Ok(o.buf as usize),
            _ => Err(SimError::new(
                Category::QueueState,
                api,
                "the tensor's buffer does not belong to this queue (its address is outside the queue's buffers)",
            )),
        }
    }

    #[inline(always)]
    fn alloc_tensor<T: TensorElement>(
        &mut self,
        core: &mut Core,
        loc: SourceLoc,
    ) -> Result<LocalTensor<T>> {
        const API: &str = "TQue::AllocTensor";
        if !self.initialised || self.bufs.is_empty() {
            return Err(SimError::new(
                Category::QueueState,
                API,
                "bufNum must be > 0: call TPipe::InitBuffer on this queue first",
            ));
        }
        core.lives.check_attached(API, self.id)?;
        // A vector core's TSCM tensor names its cube core's L1 (filled through the cube core).
        if self.dst != TPosition::TSCM || core.id.kind != crate::core::CoreKind::Aiv {
            core.check_buffer(API, self.hw)?;
        }
        let n = self.bufs.len();
        let mut misses = 0;
        let idx = loop {
            let i = self.cursor;
            self.cursor = next_slot(i, n);
            if self.bufs[i].state == BufState::Free {
                break i;
            }
            misses += 1;
            if misses > n {
                return Err(SimError::new(
                    Category::Resource,
                    API,
                    format!(
                        "no free buffer: searched {} times over the queue's {n} buffers (hardware would wait forever); \
                         FreeTensor a buffer before allocating another",
                        misses
                    ),
                ));
            }
        };
        let gen = core.lives.allocate(self.id, idx as u16, self.pos, loc);
        let b = &mut self.bufs[idx];
        b.state = BufState::Occupied;
        b.gen = gen;
        if self.depth != 0 {
            if let (Some(id), Some(f)) = (b.free_id.take(), self.free_event) {
                core.wait_flag(f, id, API, loc);
                core.release_event_id(f, id, API)?;
            }
        } else if let (Some(id), Some(f)) = (b.free_id, self.free_event) {
            core.wait_flag(f, id, API, loc);
        }
        self.buf_used += 1;
        Ok(LocalTensor::raw(
            self.pos,
            self.hw,
            b.addr,
            b.len,
            Some(Owner {
                queue: self.id,
                buf: idx as u16,
                gen,
            }),
        ))
    }

    #[inline(always)]
    fn enque<T: TensorElement>(
        &mut self,
        core: &mut Core,
        t: &LocalTensor<T>,
        loc: SourceLoc,
    ) -> Result<()> {
        const API: &str = "TQue::EnQue";
        let idx = self.owned(API, t.owner())?;
        t.check_live(core, API, "tensor")?;
        if self.depth != 0 && self.used_count >= self.depth as u32 {
            return Err(SimError::new(
                Category::QueueState,
                API,
                format!(
                    "usedCount is {}, which reaches the depth limit {}: DeQue before enqueuing another tensor",
                    self.used_count, self.depth
                ),
            ));
        }
        let state = self.bufs[idx].state;
        if !matches!(state, BufState::Occupied | BufState::Deque) {
            return Err(SimError::new(
                Category::QueueState,
                API,
                format!(
                    "buffer state is {state:?}; it must be Occupied (after AllocTensor) or Deque"
                ),
            ));
        }
        self.bufs[idx].state = BufState::Enque;
        self.bufs[idx].shape = t.shape;
        if let Some(e) = self.enq_event {
            let id = if self.depth == 0 {
                self.bufs[idx].enq_id.unwrap_or(0)
            } else {
                let id = core.alloc_event_id(e, API)?;
                self.bufs[idx].enq_id = Some(id);
                id
            };
            core.set_flag(e, id, API, loc);
        }
        if self.depth != 0 {
            self.slots[self.tail] = Some(idx as u16);
            self.tail = next_slot(self.tail, self.slots.len());
            self.used_count += 1;
        }
        Ok(())
    }

    #[inline(always)]
    fn deque<T: TensorElement>(
        &mut self,
        core: &mut Core,
        loc: SourceLoc,
    ) -> Result<LocalTensor<T>> {
        const API: &str = "TQue::DeQue";
        if self.depth == 0 {
            return Err(SimError::new(
                Category::QueueState,
                API,
                "a depth-0 queue has no FIFO: DeQue<T>() is not available",
            ));
        }
        let idx = self.slots[self.head].ok_or_else(|| {
            SimError::new(
                Category::QueueState,
                API,
                "buffer cannot be null: nothing was ever enqueued",
            )
        })? as usize;
        let state = self.bufs[idx].state;
        if state != BufState::Enque {
            return Err(SimError::new(
                Category::QueueState,
                API,
                format!(
                    "buffer state is {state:?}; it can only be Enque: EnQue a tensor before DeQue"
                ),
            ));
        }
        if self.used_count == 0 {
            return Err(SimError::new(
                Category::QueueState,
                API,
                "usedCount must be > 0",
            ));
        }
        self.used_count -= 1;
        self.bufs[idx].state = BufState::Deque;
        if let (Some(e), Some(id)) = (self.enq_event, self.bufs[idx].enq_id.take()) {
            core.wait_flag(e, id, API, loc);
            core.release_event_id(e, id, API)?;
        }
        self.head = next_slot(self.head, self.slots.len());
        let b = &self.bufs[idx];
        let mut t = LocalTensor::raw(
            self.pos,
            self.hw,
            b.addr,
            b.len,
            Some(Owner {
                queue: self.id,
                buf: idx as u16,
                gen: b.gen,
            }),
        );
        t.shape = b.shape;
        Ok(t)
    }

    #[inline(always)]
    fn free_tensor<T: TensorElement>(
        &mut self,
        core: &mut Core,
        t: &LocalTensor<T>,
        loc: SourceLoc,
    ) -> Result<()> {
        const API: &str = "TQue::FreeTensor";
        let idx = self.owned(API, t.owner())?;
        if self.bufs[idx].state != BufState::Free {
            t.check_live(core, API, "tensor")?;
        }
        if self.bufs[idx].state == BufState::Free {
            return Err(SimError::new(
                Category::QueueState,
                API,
                "buffer state can not be Free: this tensor was already freed (double FreeTensor)",
            ));
        }
        if let Some(f) = self.free_event {
            let id = if self.depth == 0 {
                self.bufs[idx].free_id.unwrap_or(0)
            } else {
                let id = core.alloc_event_id(f, API)?;
                self.bufs[idx].free_id = Some(id);
                id
            };
            core.set_flag(f, id, API, loc);
        }
        self.bufs[idx].state = BufState::Free;
        core.lives.free(self.id, idx as u16, loc);
        self.buf_used -= 1;
        Ok(())
    }

    fn free_all_event(&mut self, core: &mut Core, loc: SourceLoc) -> Result<()> {
        const API: &str = "TQue::FreeAllEvent";
        if self.depth == 0 {
            return Err(SimError::new(
                Category::QueueState,
                API,
                "not allowed for depth-0 queues",
            ));
        }
        for b in &mut self.bufs {
            if b.enq_id.is_some() {
                return Err(SimError::new(
                    Category::QueueState,
                    API,
                    "a buffer still holds an enqueue event ID: DeQue it first",
                ));
            }
            if let (Some(id), Some(f)) = (b.free_id.take(), self.free_event) {
                core.wait_flag(f, id, API, loc);
                core.release_event_id(f, id, API)?;
            }
        }
        Ok(())
    }

    /// The state of buffer `i` (for tests and diagnostics).
    pub fn buffer_state(&self, i: usize) -> Option<BufState> {
        self.bufs.get(i).map(|b| b.state)
    }
}

/// Something `TPipe::init_buffer` can attach buffers to.
pub trait Queue {
    /// The queue's state.
    fn state_mut(&mut self) -> &mut QueueState;
}

macro_rules! queue_methods {
    () => {
        /// Takes a free buffer (`AllocTensor`); round-robin over the queue's buffers.
        #[track_caller]
        #[inline(always)]
        pub fn alloc_tensor<T: TensorElement>(&mut self) -> Result<LocalTensor<T>> {
            self.alloc_tensor_at(SourceLoc::caller())
        }

        /// Hands a filled tensor to the consumer side (`EnQue`).
        #[track_caller]
        #[inline(always)]
        pub fn enque<T: TensorElement>(&mut self, t: &LocalTensor<T>) -> Result<()> {
            self.enque_at(t, SourceLoc::caller())
        }

        /// Takes the oldest enqueued tensor (`DeQue`).
        #[track_caller]
        #[inline(always)]
        pub fn deque<T: TensorElement>(&mut self) -> Result<LocalTensor<T>> {
            self.deque_at(SourceLoc::caller())
        }

        /// Returns a tensor's buffer to the queue (`FreeTensor`).
        #[track_caller]
        #[inline(always)]
        pub fn free_tensor<T: TensorElement>(&mut self, t: &LocalTensor<T>) -> Result<()> {
            self.free_tensor_at(t, SourceLoc::caller())
        }

        /// [`Self::alloc_tensor`] called at `loc` (a front end's call site).
        #[doc(hidden)]
        #[inline(always)]
        pub fn alloc_tensor_at<T: TensorElement>(
            &mut self,
            loc: SourceLoc,
        ) -> Result<LocalTensor<T>> {
            with_core(
                "TQue::AllocTensor",
                loc,
                #[inline(always)]
                |core| self.q.alloc_tensor(core, loc),
            )
        }

        /// [`Self::enque`] called at `loc`.
        #[doc(hidden)]
        #[inline(always)]
        pub fn enque_at<T: TensorElement>(
            &mut self,
            t: &LocalTensor<T>,
            loc: SourceLoc,
        ) -> Result<()> {
            with_core(
                "TQue::EnQue",
                loc,
                #[inline(always)]
                |core| self.q.enque(core, t, loc),
            )
        }

        /// [`Self::deque`] called at `loc`.
        #[doc(hidden)]
        #[inline(always)]
        pub fn deque_at<T: TensorElement>(&mut self, loc: SourceLoc) -> Result<LocalTensor<T>> {
            with_core(
                "TQue::DeQue",
                loc,
                #[inline(always)]
                |core| self.q.deque(core, loc),
            )
        }

        /// [`Self::free_tensor`] called at `loc`.
        #[doc(hidden)]
        #[inline(always)]
        pub fn free_tensor_at<T: TensorElement>(
            &mut self,
            t: &LocalTensor<T>,
            loc: SourceLoc,
        ) -> Result<()> {
            with_core(
                "TQue::FreeTensor",
                loc,
                #[inline(always)]
                |core| self.q.free_tensor(core, t, loc),
            )
        }

        /// Waits and releases every free-event ID the queue holds (`FreeAllEvent`).
        #[track_caller]
        pub fn free_all_event(&mut self) -> Result<()> {
            let loc = SourceLoc::caller();
            with_core("TQue::FreeAllEvent", loc, |core| {
                self.q.free_all_event(core, loc)
            })
        }

        /// True while fewer than `depth` tensors are enqueued (`VacantInQue`).
        pub fn vacant_in_que(&self) -> bool {
            self.q.used_count < self.q.depth as u32
        }

        /// True when a tensor is enqueued (`HasTensorInQue`).
        pub fn has_tensor_in_que(&self) -> bool {
            self.q.used_count > 0
        }

        /// Number of enqueued tensors (`GetTensorCountInQue`).
        pub fn get_tensor_count_in_que(&self) -> u32 {
            self.q.used_count
        }

        /// True when a buffer is free (`HasIdleBuffer`).
        pub fn has_idle_buffer(&self) -> bool {
            self.q.buf_used < self.q.bufs.len() as u32
        }

        /// The queue's state (buffer states, for tests and diagnostics).
        pub fn state(&self) -> &QueueState {
            &self.q
        }
    };
}

/// A queue between two positions (`TQueBind<src, dst, depth>`).
pub struct TQueBind<S: QuePos, D: QuePos, const DEPTH: u8> {
    q: QueueState,
    _p: PhantomData<(S, D)>,
}

impl<S: QuePos, D: QuePos, const DEPTH: u8> Default for TQueBind<S, D, DEPTH> {
    fn default() -> Self {
        Self::new()
    }
}

impl<S: QuePos, D: QuePos, const DEPTH: u8> TQueBind<S, D, DEPTH> {
    /// A queue with no buffers yet.
    pub fn new() -> Self {
        TQueBind {
            q: QueueState::new(S::POS, D::POS, DEPTH),
            _p: PhantomData,
        }
    }
    queue_methods!();
}

impl<S: QuePos, D: QuePos, const DEPTH: u8> Queue for TQueBind<S, D, DEPTH> {
    fn state_mut(&mut self) -> &mut QueueState {
        &mut self.q
    }
}

/// A queue on one position (`TQue<pos, depth>`): VECIN is GM→VECIN, VECOUT is VECOUT→GM, A1 is
/// GM→A1, A2 is A1→A2, CO1 is CO1→CO2, and so on.
pub struct TQue<P: QuePos, const DEPTH: u8> {
    q: QueueState,
    _p: PhantomData<P>,
}

impl<P: QuePos, const DEPTH: u8> Default for TQue<P, DEPTH> {
    fn default() -> Self {
        Self::new()
    }
}

/// The (source, destination) positions a `TQue<pos>` stands for.
pub fn que_positions(pos: TPosition) -> (TPosition, TPosition) {
    use TPosition::*;
    match pos {
        VECIN | A1 | B1 | C1 => (GM, pos),
        VECOUT | CO2 => (pos, GM),
        A2 => (A1, A2),
        B2 => (B1, B2),
        C2 => (C1, C2),
        CO1 => (CO1, CO2),
        C2PIPE2GM => (B1, C2PIPE2GM),
        TSCM => (VECOUT, TSCM),
        other => (other, other),
    }
}

impl<P: QuePos, const DEPTH: u8> TQue<P, DEPTH> {
    /// A queue with no buffers yet.
    pub fn new() -> Self {
        let (s, d) = que_positions(P::POS);
        TQue {
            q: QueueState::new(s, d, DEPTH),
            _p: PhantomData,
        }
    }
    queue_methods!();
}

impl<P: QuePos, const DEPTH: u8> Queue for TQue<P, DEPTH> {
    fn state_mut(&mut self) -> &mut QueueState {
        &mut self.q
    }
}

/// A queue whose positions and depth are run-time values, for front ends in other languages:
/// `TQue<pos, depth>` is [`DynQue::que`], `TQueBind<src, dst, depth>` is [`DynQue::bind`].
#[doc(hidden)]
pub struct DynQue {
    q: QueueState,
}

impl DynQue {
    /// The queue `TQue<pos, depth>`.
    pub fn que(pos: TPosition, depth: u8) -> DynQue {
        let (s, d) = que_positions(pos);
        DynQue::bind(s, d, depth)
    }

    /// The queue `TQueBind<src, dst, depth>`.
    pub fn bind(src: TPosition, dst: TPosition, depth: u8) -> DynQue {
        DynQue {
            q: QueueState::new(src, dst, depth),
        }
    }
    queue_methods!();
}

impl Queue for DynQue {
    fn state_mut(&mut self) -> &mut QueueState {
        &mut self.q
    }
}
