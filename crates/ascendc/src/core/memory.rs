//! The on-chip memories of one simulated core.

use crate::chip::ChipProfile;
use crate::position::Hardware;
use std::sync::Mutex;

/// Memories of finished launches, kept for the next launch's cores (a fresh set costs a
/// megabyte of allocation and fill).
static POOL: Mutex<Vec<LocalMemory>> = Mutex::new(Vec::new());

/// How many memory sets the pool keeps.
const POOL_SIZE: usize = 8;

/// One cache line of storage. Memories start on a 64-byte boundary, as GM allocations start on
/// a page: copies between them then keep the relative alignment the host's fast string moves
/// need (a `memcpy` between buffers misaligned to each other runs at a fraction of the speed),
/// and typed views of aligned addresses are valid for every element type.
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C, align(64))]
struct Line([u64; 8]);

/// One byte array per on-chip memory, sized by the chip profile.
pub struct LocalMemory {
    bufs: [Box<[Line]>; 7],
    sizes: [u32; 7],
    /// The pattern the memories were last filled with.
    seed: u64,
    /// Memories handed out writable since the last fill (the others still hold the pattern).
    dirty: [bool; 7],
}

impl LocalMemory {
    /// Memories sized for `profile`, filled with a deterministic pseudo-random pattern seeded by
    /// `seed` (fresh local memory holds meaningless data, as on hardware).
    pub fn new(profile: &ChipProfile, seed: u64) -> LocalMemory {
        let mut m = LocalMemory {
            bufs: std::array::from_fn(|i| {
                vec![Line([0; 8]); (profile.buffer_size[i] as usize).div_ceil(64)]
                    .into_boxed_slice()
            }),
            sizes: profile.buffer_size,
            seed,
            dirty: [true; 7],
        };
        m.refill(seed);
        m
    }

    /// A set from an earlier launch whose sizes fit `profile`, if one is pooled (refill it before
    /// use, as [`crate::core::Core::with_memory`] does).
    pub fn recycled(profile: &ChipProfile) -> Option<LocalMemory> {
        let mut pool = POOL.lock().unwrap_or_else(|e| e.into_inner());
        let i = pool.iter().position(|m| m.fits(profile))?;
        Some(pool.swap_remove(i))
    }

    /// Hands the set to the pool for a later launch (dropped when the pool is full).
    pub fn recycle(self) {
        let mut pool = POOL.lock().unwrap_or_else(|e| e.into_inner());
        if pool.len() < POOL_SIZE {
            pool.push(self);
        }
    }

    /// True when the memories have the sizes `profile` gives (so they can be reused for it).
    pub fn fits(&self, profile: &ChipProfile) -> bool {
        self.sizes == profile.buffer_size
    }

    /// Makes every memory hold the pattern `seed` selects: a 4 KiB pseudo-random tile, repeated
    /// (deterministic). Only memories written since the last fill with the same seed are
    /// rewritten, so reusing the memories of a core that touched nothing costs nothing.
    pub fn refill(&mut self, seed: u64) {
        if seed != self.seed {
            self.dirty = [true; 7];
            self.seed = seed;
        }
        for (i, buf) in self.bufs.iter_mut().enumerate() {
            if !std::mem::take(&mut self.dirty[i]) {
                continue;
            }
            let mut s = seed ^ (0x9E37_79B9_7F4A_7C15u64.wrapping_mul(i as u64 + 1)) | 1;
            let tile: Vec<u64> = (0..512)
                .map(|_| {
                    s ^= s << 13;
                    s ^= s >> 7;
                    s ^= s << 17;
                    s
                })
                .collect();
            let words: &mut [u64] = bytemuck::cast_slice_mut(buf);
            for chunk in words.chunks_mut(tile.len()) {
                chunk.copy_from_slice(&tile[..chunk.len()]);
            }
        }
    }

    /// Size of a memory in bytes.
    #[inline]
    pub fn size(&self, hw: Hardware) -> u32 {
        hw.local_index().map_or(0, |i| self.sizes[i])
    }

    /// The bytes of one memory.
    #[inline(always)]
    pub fn bytes(&self, hw: Hardware) -> &[u8] {
        let i = hw.local_index().expect("GM is not a local memory");
        &bytemuck::cast_slice(&self.bufs[i])[..self.sizes[i] as usize]
    }

    /// The bytes of one memory, writable.
    #[inline(always)]
    pub fn bytes_mut(&mut self, hw: Hardware) -> &mut [u8] {
        let i = hw.local_index().expect("GM is not a local memory");
        self.dirty[i] = true;
        &mut bytemuck::cast_slice_mut(&mut self.bufs[i])[..self.sizes[i] as usize]
    }

    /// Two different memories at once, the first writable.
    pub fn pair_mut(&mut self, dst: Hardware, src: Hardware) -> (&mut [u8], &[u8]) {
        let (d, s) = (
            dst.local_index().expect("GM is not a local memory"),
            src.local_index().expect("GM is not a local memory"),
        );
        assert_ne!(d, s, "pair_mut needs two different memories");
        self.dirty[d] = true;
        let (ds, ss) = (self.sizes[d] as usize, self.sizes[s] as usize);
        if d < s {
            let (a, b) = self.bufs.split_at_mut(s);
            (
                &mut bytemuck::cast_slice_mut(&mut a[d])[..ds],
                &bytemuck::cast_slice(&b[0])[..ss],
            )
        } else {
            let (a, b) = self.bufs.split_at_mut(d);
            (
                &mut bytemuck::cast_slice_mut(&mut b[0])[..ds],
                &bytemuck::cast_slice(&a[s])[..ss],
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chip::ASCEND910B;

    #[test]
    fn sized_and_deterministic() {
        let a = LocalMemory::new(&ASCEND910B, 7);
        let b = LocalMemory::new(&ASCEND910B, 7);
        assert_eq!(a.bytes(Hardware::UB).len(), 196_608);
        assert_eq!(a.bytes(Hardware::FIXBUF).len(), 7 * 1024);
        assert_eq!(a.bytes(Hardware::UB)[..64], b.bytes(Hardware::UB)[..64]);
        let c = LocalMemory::new(&ASCEND910B, 8);
        assert_ne!(a.bytes(Hardware::UB)[..64], c.bytes(Hardware::UB)[..64]);
    }

    #[test]
    fn refill_restores_written_memories_only() {
        let fresh = LocalMemory::new(&ASCEND910B, 7);
        let mut m = LocalMemory::new(&ASCEND910B, 7);
        m.bytes_mut(Hardware::UB)[100] ^= 0xFF;
        let (l1, _) = m.pair_mut(Hardware::L1, Hardware::UB);
        l1[5] ^= 0xFF;
        assert_eq!(m.dirty.iter().filter(|d| **d).count(), 2);
        m.refill(7);
        assert_eq!(m.dirty, [false; 7]);
        for hw in Hardware::LOCAL {
            assert!(m.bytes(hw) == fresh.bytes(hw), "{hw}");
        }
        m.refill(8);
        let other = LocalMemory::new(&ASCEND910B, 8);
        assert!(m.bytes(Hardware::L0C) == other.bytes(Hardware::L0C));
    }

    #[test]
    fn pairs() {
        let mut m = LocalMemory::new(&ASCEND910B, 1);
        let l1_first = m.bytes(Hardware::L1)[0];
        let (ub, l1) = m.pair_mut(Hardware::UB, Hardware::L1);
        ub[0] = l1[0];
        assert_eq!(m.bytes(Hardware::UB)[0], l1_first);
        let (l1, ub) = m.pair_mut(Hardware::L1, Hardware::UB);
        l1[1] = ub[0];
        assert_eq!(m.bytes(Hardware::L1)[1], l1_first);
    }
}
