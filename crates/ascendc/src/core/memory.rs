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

/// 64-bit words in the pseudo-random tile a memory's initial pattern repeats (4 KiB).
const TILE_WORDS: usize = 512;

/// Per memory, the byte range `[start, end)` handed out writable since the last fill (outside it
/// the memory still holds the pattern); `start >= end` when none.
type Dirty = (u32, u32);

/// No bytes written.
const CLEAN: Dirty = (u32::MAX, 0);

/// One byte array per on-chip memory, sized by the chip profile.
pub struct LocalMemory {
    bufs: [Box<[Line]>; 7],
    sizes: [u32; 7],
    /// The pattern the memories were last filled with, and each memory's tile of it.
    seed: u64,
    tiles: Box<[[u64; TILE_WORDS]; 7]>,
    dirty: [Dirty; 7],
}

/// The tile of memory `i`'s pattern under `seed` (an xorshift sequence).
fn tile(seed: u64, i: usize) -> [u64; TILE_WORDS] {
    let mut s = seed ^ (0x9E37_79B9_7F4A_7C15u64.wrapping_mul(i as u64 + 1)) | 1;
    std::array::from_fn(|_| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    })
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
            tiles: Box::new(std::array::from_fn(|i| tile(seed, i))),
            dirty: std::array::from_fn(|i| (0, profile.buffer_size[i])),
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
    /// (deterministic). Only the bytes handed out writable since the last fill with the same
    /// seed are rewritten, so reusing the memories of a core that touched a few buffers costs
    /// a copy of those buffers, not of the memories.
    pub fn refill(&mut self, seed: u64) {
        if seed != self.seed {
            self.seed = seed;
            for (i, t) in self.tiles.iter_mut().enumerate() {
                *t = tile(seed, i);
            }
            self.dirty = std::array::from_fn(|i| (0, self.sizes[i]));
        }
        for (i, buf) in self.bufs.iter_mut().enumerate() {
            let (start, end) = std::mem::replace(&mut self.dirty[i], CLEAN);
            if start >= end {
                continue;
            }
            let words: &mut [u64] = bytemuck::cast_slice_mut(buf);
            let tile = &self.tiles[i];
            // Word `w` holds word `w % TILE_WORDS` of the tile.
            let (mut w, last) = (start as usize / 8, (end as usize).div_ceil(8));
            while w < last {
                let t = w % TILE_WORDS;
                let n = (TILE_WORDS - t).min(last - w);
                words[w..w + n].copy_from_slice(&tile[t..t + n]);
                w += n;
            }
        }
    }

    /// Notes bytes `start .. end` of memory `i` as written.
    #[inline(always)]
    fn touch(&mut self, i: usize, start: usize, end: usize) {
        if start < end {
            let d = &mut self.dirty[i];
            *d = (d.0.min(start as u32), d.1.max(end as u32));
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
        let size = self.sizes[i] as usize;
        self.touch(i, 0, size);
        &mut bytemuck::cast_slice_mut(&mut self.bufs[i])[..size]
    }

    /// Bytes `start .. end` of one memory, writable (panics outside the memory).
    #[inline(always)]
    pub fn range_mut(&mut self, hw: Hardware, start: usize, end: usize) -> &mut [u8] {
        let i = hw.local_index().expect("GM is not a local memory");
        let size = self.sizes[i] as usize;
        assert!(
            start <= end && end <= size,
            "range {start}..{end} outside {hw}"
        );
        self.touch(i, start, end);
        &mut bytemuck::cast_slice_mut(&mut self.bufs[i])[start..end]
    }

    /// The bytes of one memory, writable, for a caller that writes only bytes `start .. end`
    /// (and reads any; the part of the range past the memory is ignored).
    #[inline(always)]
    pub fn bytes_mut_writing(&mut self, hw: Hardware, start: usize, end: usize) -> &mut [u8] {
        let i = hw.local_index().expect("GM is not a local memory");
        let size = self.sizes[i] as usize;
        self.touch(i, start, end.min(size));
        &mut bytemuck::cast_slice_mut(&mut self.bufs[i])[..size]
    }

    /// Two different memories at once, the first writable.
    pub fn pair_mut(&mut self, dst: Hardware, src: Hardware) -> (&mut [u8], &[u8]) {
        let size = self.size(dst) as usize;
        self.pair_mut_writing(dst, src, 0, size)
    }

    /// [`LocalMemory::pair_mut`] for a caller that writes only bytes `start .. end` of `dst` (the
    /// part of the range past the memory is ignored).
    pub fn pair_mut_writing(
        &mut self,
        dst: Hardware,
        src: Hardware,
        start: usize,
        end: usize,
    ) -> (&mut [u8], &[u8]) {
        let (d, s) = (
            dst.local_index().expect("GM is not a local memory"),
            src.local_index().expect("GM is not a local memory"),
        );
        assert_ne!(d, s, "pair_mut needs two different memories");
        let (ds, ss) = (self.sizes[d] as usize, self.sizes[s] as usize);
        self.touch(d, start, end.min(ds));
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
    fn refill_restores_written_bytes_only() {
        let fresh = LocalMemory::new(&ASCEND910B, 7);
        let mut m = LocalMemory::new(&ASCEND910B, 7);
        assert_eq!(m.dirty, [CLEAN; 7]);
        m.bytes_mut(Hardware::UB)[100] ^= 0xFF;
        let (l1, _) = m.pair_mut(Hardware::L1, Hardware::UB);
        l1[5] ^= 0xFF;
        // Ranges across tile boundaries and at odd offsets, and a write range wider than what is
        // written.
        m.range_mut(Hardware::L0A, 4093, 8200).fill(0xAB);
        m.bytes_mut_writing(Hardware::L0B, 17, 9000)[17..9000].fill(0xCD);
        let (l0c, _) = m.pair_mut_writing(Hardware::L0C, Hardware::UB, 30_000, 30_003);
        l0c[30_001] = 0x11;
        let ub = m.size(Hardware::UB);
        assert_eq!(m.dirty[Hardware::UB.local_index().unwrap()], (0, ub));
        assert_eq!(m.dirty[Hardware::L0A.local_index().unwrap()], (4093, 8200));
        assert_eq!(
            m.dirty[Hardware::L0C.local_index().unwrap()],
            (30_000, 30_003)
        );
        m.refill(7);
        assert_eq!(m.dirty, [CLEAN; 7]);
        for hw in Hardware::LOCAL {
            assert!(m.bytes(hw) == fresh.bytes(hw), "{hw}");
        }
        m.refill(8);
        let other = LocalMemory::new(&ASCEND910B, 8);
        for hw in Hardware::LOCAL {
            assert!(m.bytes(hw) == other.bytes(hw), "{hw}");
        }
    }

    #[test]
    fn touches_grow_one_range() {
        let mut m = LocalMemory::new(&ASCEND910B, 3);
        let fresh = LocalMemory::new(&ASCEND910B, 3);
        m.range_mut(Hardware::UB, 512, 1024).fill(1);
        m.range_mut(Hardware::UB, 64_000, 64_032).fill(2);
        m.range_mut(Hardware::UB, 100, 101).fill(3);
        assert_eq!(m.dirty[Hardware::UB.local_index().unwrap()], (100, 64_032));
        // A write range reaching past the memory covers up to its end.
        let ub = m.size(Hardware::UB) as usize;
        m.bytes_mut_writing(Hardware::UB, ub - 10, ub + 100)[ub - 1] = 4;
        assert_eq!(
            m.dirty[Hardware::UB.local_index().unwrap()],
            (100, ub as u32)
        );
        m.refill(3);
        assert!(m.bytes(Hardware::UB) == fresh.bytes(Hardware::UB));
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
