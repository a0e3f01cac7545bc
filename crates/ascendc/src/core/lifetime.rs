//! Lifetimes of queue buffers: which allocation of each (queue, buffer) is current, so that a
//! `LocalTensor` used after its `FreeTensor` is an error instead of a silent read of memory the
//! queue may already have handed out again.
//!
//! Every `AllocTensor` starts a new *generation* of its buffer; the tensor carries that number.
//! `FreeTensor` ends it. An instruction whose operand carries a generation that is not the live
//! one fails, naming the queue, the `FreeTensor` line and (through the error) the use line.

use crate::error::{Category, Result, SimError, SourceLoc};
use crate::position::TPosition;

/// One allocation of one queue buffer.
#[derive(Debug, Clone, Copy)]
struct Life {
    gen: u32,
    pos: TPosition,
    alloc_at: SourceLoc,
    freed_at: Option<SourceLoc>,
}

/// The buffer lifetimes of one core (a handful of queues with one or two buffers each, so a
/// short vector searched linearly).
#[derive(Debug, Default)]
pub struct BufferLives {
    /// `queue << 16 | buf` of each entry of `lives`, searched on every operand check.
    keys: Vec<u64>,
    lives: Vec<Life>,
}

impl BufferLives {
    fn key(queue: u32, buf: u16) -> u64 {
        (queue as u64) << 16 | buf as u64
    }

    fn index(&self, queue: u32, buf: u16) -> Option<usize> {
        let k = Self::key(queue, buf);
        self.keys.iter().position(|&x| x == k)
    }

    /// Starts a new allocation of buffer `buf` of queue `queue` (position `pos`) at `loc`;
    /// returns its generation.
    pub fn allocate(&mut self, queue: u32, buf: u16, pos: TPosition, loc: SourceLoc) -> u32 {
        match self.index(queue, buf) {
            Some(i) => {
                let l = &mut self.lives[i];
                l.gen = l.gen.wrapping_add(1);
                l.alloc_at = loc;
                l.freed_at = None;
                l.gen
            }
            None => {
                self.keys.push(Self::key(queue, buf));
                self.lives.push(Life {
                    gen: 1,
                    pos,
                    alloc_at: loc,
                    freed_at: None,
                });
                1
            }
        }
    }

    /// Ends the current allocation of the buffer (`FreeTensor` at `loc`).
    pub fn free(&mut self, queue: u32, buf: u16, loc: SourceLoc) {
        if let Some(i) = self.index(queue, buf) {
            self.lives[i].freed_at = Some(loc);
        }
    }

    /// Checks that operand `name` of `api`, a tensor of allocation `gen` of the buffer, is still
    /// live. Buffers this core never allocated (tensors from other front ends) pass.
    #[inline]
    pub fn check(
        &self,
        api: &'static str,
        name: &str,
        queue: u32,
        buf: u16,
        gen: u32,
    ) -> Result<()> {
        let Some(i) = self.index(queue, buf) else {
            return Ok(());
        };
        let l = &self.lives[i];
        if l.gen == gen && l.freed_at.is_none() {
            return Ok(());
        }
        Err(Self::stale(l, api, name, buf, gen))
    }

    /// The error for a use of allocation `gen` of buffer `buf` whose current life is `l`.
    #[cold]
    #[inline(never)]
    fn stale(l: &Life, api: &'static str, name: &str, buf: u16, gen: u32) -> SimError {
        let what = || {
            format!(
                "tensor `{name}` is buffer {buf} of a {} queue, allocated by AllocTensor",
                l.pos
            )
        };
        match l.freed_at {
            Some(f) if l.gen == gen => SimError::new(
                Category::QueueState,
                api,
                format!(
                    "{} at {} and freed by FreeTensor at {}: a tensor cannot be used after its FreeTensor \
                     (the queue may hand the buffer to the next AllocTensor)",
                    what(),
                    l.alloc_at,
                    f
                ),
            ),
            _ => SimError::new(
                Category::QueueState,
                api,
                format!(
                    "{} and since freed: the buffer now belongs to a later AllocTensor (at {}); \
                     use a tensor only between its AllocTensor/DeQue and its FreeTensor",
                    what(),
                    l.alloc_at
                ),
            ),
        }
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
