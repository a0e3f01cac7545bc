//! Lifetimes of queue buffers: which allocation of each (queue, buffer) is current, so that a
//! `LocalTensor` used after its `FreeTensor` is an error instead of a silent read of memory the
//! queue may already have handed out again.
//!
//! Every `AllocTensor` starts a new *generation* of its buffer; the tensor carries that number.
//! `FreeTensor` ends it. An instruction whose operand carries a generation that is not the live
//! one fails, naming the queue, the `FreeTensor` line and (through the error) the use line.
//!
//! Buffers given out by a `TBufPool` (queue buffers and TBufs) are also ended by the pool's
//! `Reset`: every allocation current at the reset is invalid afterwards, and a queue of the pool
//! cannot allocate again until it is given memory anew (`InitBuffer`).

use super::spare::{Spares, VecStack};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::position::TPosition;
use std::cell::RefCell;

/// One allocation of one queue buffer.
#[derive(Debug, Clone, Copy)]
struct Life {
    queue: u32,
    buf: u16,
    gen: u32,
    /// `gen` while that allocation may be used, 0 once it was freed or its pool reset (the one
    /// compare of the common check).
    live: u32,
    pos: TPosition,
    alloc_at: SourceLoc,
    freed_at: Option<SourceLoc>,
    /// The last pool `Reset` that ended this buffer: allocations up to `gen` are invalid.
    reset: Option<(u32, SourceLoc)>,
}

impl Life {
    /// True while allocation `gen` of the buffer may be used.
    #[inline(always)]
    fn is_live(&self, gen: u32) -> bool {
        self.live == gen && gen != 0
    }
}

/// Slots of the direct-mapped index of [`BufferLives`].
const INDEX: usize = 64;

/// The buffer lifetimes of one core: a handful of queues with one or two buffers each, in a short
/// vector, found through a direct-mapped index on (queue, buffer) with a linear search behind it
/// for the rare collision.
#[derive(Debug)]
pub struct BufferLives {
    lives: Vec<Life>,
    /// `1 + ` the position in `lives` of the last buffer hashed to each slot (0: none).
    index: [u16; INDEX],
    /// Owners (queues) whose pool was reset and that have no memory again yet.
    detached: Vec<(u32, SourceLoc)>,
}

impl Default for BufferLives {
    fn default() -> Self {
        BufferLives {
            lives: Vec::new(),
            index: [0; INDEX],
            detached: Vec::new(),
        }
    }
}

thread_local! {
    static LIVES_STACK: VecStack<Life> = const { RefCell::new(Vec::new()) };
}

/// Lifetime tables of ended cores, for the next core on the thread.
static SPARE_LIVES: Spares<Life> = Spares::new(&LIVES_STACK);

impl Drop for BufferLives {
    fn drop(&mut self) {
        SPARE_LIVES.give(std::mem::take(&mut self.lives));
    }
}

impl BufferLives {
    #[inline]
    fn slot(queue: u32, buf: u16) -> usize {
        (queue as usize).wrapping_mul(4).wrapping_add(buf as usize) % INDEX
    }

    /// The life of buffer `buf` of queue `queue` when the direct-mapped index points at it (the
    /// common case), with its position in `lives`.
    #[inline(always)]
    fn indexed(&self, queue: u32, buf: u16) -> Option<(usize, &Life)> {
        let i = (self.index[Self::slot(queue, buf)] as usize).checked_sub(1)?;
        self.lives
            .get(i)
            .filter(|l| l.queue == queue && l.buf == buf)
            .map(|l| (i, l))
    }

    /// The position in `lives` of buffer `buf` of queue `queue`.
    #[inline]
    fn position(&self, queue: u32, buf: u16) -> Option<usize> {
        match self.indexed(queue, buf) {
            Some((i, _)) => Some(i),
            None => self
                .lives
                .iter()
                .position(|l| l.queue == queue && l.buf == buf),
        }
    }

    #[inline]
    fn find(&self, queue: u32, buf: u16) -> Option<&Life> {
        self.position(queue, buf).map(|i| &self.lives[i])
    }

    /// Starts a new allocation of buffer `buf` of queue `queue` (position `pos`) at `loc`;
    /// returns its generation.
    #[inline]
    pub fn allocate(&mut self, queue: u32, buf: u16, pos: TPosition, loc: SourceLoc) -> u32 {
        match self.position(queue, buf) {
            Some(i) => {
                let l = &mut self.lives[i];
                // Generation 0 marks "not live", so a wrapping count skips it.
                l.gen = l.gen.wrapping_add(1).max(1);
                l.live = l.gen;
                l.alloc_at = loc;
                l.freed_at = None;
                l.gen
            }
            None => {
                if self.lives.len() < u16::MAX as usize {
                    self.index[Self::slot(queue, buf)] = self.lives.len() as u16 + 1;
                }
                // Room for the buffers of a few double-buffered queues at once (a core starts
                // with none: an empty kernel allocates nothing), from an earlier core's table
                // when this thread has one.
                if self.lives.capacity() == 0 {
                    self.lives = SPARE_LIVES.take();
                    self.lives.reserve(16);
                }
                self.lives.push(Life {
                    queue,
                    buf,
                    gen: 1,
                    live: 1,
                    pos,
                    alloc_at: loc,
                    freed_at: None,
                    reset: None,
                });
                1
            }
        }
    }

    /// Ends the current allocation of the buffer (`FreeTensor` at `loc`).
    #[inline]
    pub fn free(&mut self, queue: u32, buf: u16, loc: SourceLoc) {
        if let Some(i) = self.position(queue, buf) {
            let l = &mut self.lives[i];
            l.freed_at = Some(loc);
            l.live = 0;
        }
    }

    /// Ends every allocation of owner `id` (a queue or TBuf of a pool) at the pool's `Reset`
    /// at `loc`; a queue must be given memory again before its next AllocTensor.
    pub fn reset_owner(&mut self, id: u32, loc: SourceLoc) {
        for l in self.lives.iter_mut().filter(|l| l.queue == id) {
            l.reset = Some((l.gen, loc));
            l.live = 0;
        }
        self.detached.retain(|(q, _)| *q != id);
        self.detached.push((id, loc));
    }

    /// Owner `id` was given memory (`InitBuffer`).
    pub fn attached(&mut self, id: u32) {
        self.detached.retain(|(q, _)| *q != id);
    }

    /// The `Reset` that took owner `id`'s memory, while it has none again.
    pub fn detached_at(&self, id: u32) -> Option<SourceLoc> {
        self.detached
            .iter()
            .find(|(q, _)| *q == id)
            .map(|(_, l)| *l)
    }

    /// Checks that queue `queue` has memory (not taken by its pool's `Reset`).
    #[inline]
    pub fn check_attached(&self, api: &'static str, queue: u32) -> Result<()> {
        if self.detached.is_empty() {
            return Ok(());
        }
        self.detached_error(api, queue)
    }

    #[cold]
    #[inline(never)]
    fn detached_error(&self, api: &'static str, queue: u32) -> Result<()> {
        match self.detached_at(queue) {
            Some(at) => Err(SimError::new(
                Category::QueueState,
                api,
                format!(
                    "the queue's buffers came from a TBufPool that was Reset at {at}: give the queue memory again \
                     (TBufPool::InitBuffer) before allocating from it"
                ),
            )),
            None => Ok(()),
        }
    }

    /// Checks that operand `name` of `api`, a tensor of allocation `gen` of the buffer, is still
    /// live. Buffers this core never allocated (tensors from other front ends) pass.
    #[inline(always)]
    pub fn check(
        &self,
        api: &'static str,
        name: &str,
        queue: u32,
        buf: u16,
        gen: u32,
    ) -> Result<()> {
        // The common case: the indexed slot holds the buffer and the allocation is live.
        if self
            .indexed(queue, buf)
            .is_some_and(|(_, l)| l.is_live(gen))
        {
            return Ok(());
        }
        self.check_slow(api, name, queue, buf, gen)
    }

    #[inline(never)]
    fn check_slow(
        &self,
        api: &'static str,
        name: &str,
        queue: u32,
        buf: u16,
        gen: u32,
    ) -> Result<()> {
        let Some(l) = self.find(queue, buf) else {
            return Ok(());
        };
        if l.is_live(gen) {
            return Ok(());
        }
        Self::stale(l, api, name, buf, gen)
    }

    /// The error, if any, for a use of allocation `gen` of buffer `buf` whose life is `l`.
    #[cold]
    #[inline(never)]
    fn stale(l: &Life, api: &'static str, name: &str, buf: u16, gen: u32) -> Result<()> {
        if let Some((_, at)) = l.reset.filter(|(last, _)| gen <= *last) {
            return Err(SimError::new(
                Category::QueueState,
                api,
                format!(
                    "tensor `{name}` lies in a buffer of a TBufPool that was Reset at {at}: after Reset the \
                     pool's memory belongs to the next phase; get the tensor anew from a buffer initialised after \
                     the Reset"
                ),
            ));
        }
        let what = || {
            format!(
                "tensor `{name}` is buffer {buf} of a {} queue, allocated by AllocTensor",
                l.pos
            )
        };
        if l.gen != gen {
            return Err(SimError::new(
                Category::QueueState,
                api,
                format!(
                    "{} and since freed: the buffer now belongs to a later AllocTensor (at {}); \
                     use a tensor only between its AllocTensor/DeQue and its FreeTensor",
                    what(),
                    l.alloc_at
                ),
            ));
        }
        if let Some(f) = l.freed_at {
            return Err(SimError::new(
                Category::QueueState,
                api,
                format!(
                    "{} at {} and freed by FreeTensor at {}: a tensor cannot be used after its FreeTensor \
                     (the queue may hand the buffer to the next AllocTensor)",
                    what(),
                    l.alloc_at,
                    f
                ),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loc(line: u32) -> SourceLoc {
        SourceLoc {
            file: "k.cpp",
            line,
            column: 0,
        }
    }

    #[test]
    fn generations_follow_alloc_and_free() {
        let mut lives = BufferLives::default();
        let a = loc(10);
        let f = loc(20);
        let g1 = lives.allocate(7, 0, TPosition::VECIN, a);
        assert!(lives.check("Add", "src0", 7, 0, g1).is_ok());
        lives.free(7, 0, f);
        let e = lives
            .check("Add", "src0", 7, 0, g1)
            .unwrap_err()
            .to_string();
        assert!(e.contains("freed by FreeTensor at k.cpp:20"), "{e}");
        assert!(e.contains("VECIN"), "{e}");
        let g2 = lives.allocate(7, 0, TPosition::VECIN, loc(30));
        assert_ne!(g1, g2);
        assert!(lives.check("Add", "src0", 7, 0, g2).is_ok());
        let e = lives
            .check("Add", "src0", 7, 0, g1)
            .unwrap_err()
            .to_string();
        assert!(e.contains("later AllocTensor (at k.cpp:30)"), "{e}");
        assert!(lives.check("Add", "x", 8, 0, 1).is_ok());
    }
}
