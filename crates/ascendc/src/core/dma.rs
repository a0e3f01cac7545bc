//! The DMA engine: block-strided byte copies between GM and the on-chip memories.

use super::trace::{Access, Space};
use super::Core;
use crate::error::{Category, Result, SimError};
use crate::gm::GmAddr;
use crate::multicore::atomic;
use crate::position::Hardware;

/// One side of a copy.
#[derive(Clone, Copy)]
pub enum Endpoint<'a> {
    /// GM: an address and a byte offset from it.
    Gm(&'a GmAddr, u64),
    /// An on-chip memory and a byte address in it.
    Local(Hardware, u64),
}

impl Endpoint<'_> {
    pub(crate) fn space(&self) -> Space {
        match self {
            Endpoint::Gm(a, _) => Space::Gm(a.region_id()),
            Endpoint::Local(h, _) => Space::Local(*h),
        }
    }

    pub(crate) fn base(&self) -> u64 {
        match self {
            Endpoint::Gm(a, off) => a.offset() as u64 + off,
            Endpoint::Local(_, addr) => *addr,
        }
    }

    /// Checks that `[base + start, base + start + len)` exists.
    pub(crate) fn check(&self, core: &Core, api: &'static str, start: u64, len: u64) -> Result<()> {
        match self {
            Endpoint::Gm(a, off) => a.check(api, off.saturating_add(start), len),
            Endpoint::Local(h, addr) => {
                let size = core.mem.size(*h) as u64;
                let begin = addr.saturating_add(start);
                if begin.saturating_add(len) > size {
                    Err(SimError::new(
                        Category::Memory,
                        api,
                        format!(
                            "{h} access of {len} bytes at byte {begin} runs past the end of the {size}-byte {h}"
                        ),
                    ))
                } else {
                    Ok(())
                }
            }
        }
    }
}

/// A block-strided copy: `count` runs of `len` bytes; run `i` reads at `i·src_stride` and writes
/// at `i·dst_stride` bytes past the respective base.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Blocks {
    /// Number of runs.
    pub count: u32,
    /// Bytes per run.
    pub len: u64,
    /// Bytes between source run starts.
    pub src_stride: u64,
    /// Bytes between destination run starts.
    pub dst_stride: u64,
}

impl Blocks {
    /// One contiguous run.
    pub fn contiguous(len: u64) -> Blocks {
        Blocks {
            count: 1,
            len,
            src_stride: len,
            dst_stride: len,
        }
    }

    fn extent(&self, stride: u64) -> u64 {
        if self.count == 0 || self.len == 0 {
            0
        } else {
            (self.count as u64 - 1) * stride + self.len
        }
    }

    /// The (read, write) access patterns of the copy.
    pub fn accesses(&self, dst: Endpoint, src: Endpoint) -> [Access; 2] {
        let mk = |write, e: Endpoint, stride| Access {
            write,
            space: e.space(),
            base: e.base(),
            len: self.len as u32,
            blocks: self.count,
            block_stride: stride,
            repeats: 1,
            repeat_stride: 0,
        };
        [
            mk(false, src, self.src_stride),
            mk(true, dst, self.dst_stride),
        ]
    }
}

/// Executes a block copy after checking that every byte it touches exists. Nothing is written
/// when a check fails. Returns the (read, write) accesses for the instruction record.
pub fn copy(
    core: &mut Core,
    api: &'static str,
    dst: Endpoint,
    src: Endpoint,
    b: Blocks,
) -> Result<[Access; 2]> {
    src.check(core, api, 0, b.extent(b.src_stride))?;
    dst.check(core, api, 0, b.extent(b.dst_stride))?;
    let acc = b.accesses(dst, src);
    if b.count == 0 || b.len == 0 {
        return Ok(acc);
    }
    let contiguous = b.count == 1 || (b.src_stride == b.len && b.dst_stride == b.len);
    let runs = if contiguous {
        [(b.len * b.count as u64, 1u32)]
    } else {
        [(b.len, b.count)]
    };
    let (len, count) = runs[0];
    let len = len as usize;
    // The destination bytes, when on chip.
    let written = |da: u64| (da as usize, (da + b.extent(b.dst_stride)) as usize);
    match (dst, src) {
        (Endpoint::Local(dh, da), Endpoint::Gm(g, go)) => {
            let (start, end) = written(da);
            let mem = core.mem.bytes_mut_writing(dh, start, end);
            for i in 0..count as u64 {
                let s = g.ptr((go + i * b.src_stride) as usize);
                let d = (da + i * b.dst_stride) as usize;
                // SAFETY: both extents were checked above; GM and local memory never overlap.
                unsafe { host_copy(s, mem[d..d + len].as_mut_ptr(), len) };
            }
        }
        (Endpoint::Gm(g, go), Endpoint::Local(sh, sa)) if core.sync.atomic.op.is_some() => {
            let (op, dtype) = core
                .sync
                .atomic
                .check_write(core.profile, api, sh, len as u64)?;
            let sat = core.options.fp16_saturation;
            let mem = core.mem.bytes(sh);
            for i in 0..count as u64 {
                let s = (sa + i * b.src_stride) as usize;
                let d = g.ptr((go + i * b.dst_stride) as usize);
                // SAFETY: the destination extent was checked above and lies in `g`'s allocation.
                unsafe { atomic::apply(g.region_id(), d, &mem[s..s + len], op, dtype, sat) };
            }
        }
        (Endpoint::Gm(g, go), Endpoint::Local(sh, sa)) => {
            let mem = core.mem.bytes(sh);
            for i in 0..count as u64 {
                let s = (sa + i * b.src_stride) as usize;
                let d = g.ptr((go + i * b.dst_stride) as usize);
                // SAFETY: both extents were checked above; GM and local memory never overlap.
                unsafe { host_copy_to_gm(mem[s..s + len].as_ptr(), d, len) };
            }
        }
        (Endpoint::Local(dh, da), Endpoint::Local(sh, sa)) if dh == sh => {
            let (start, end) = written(da);
            let mem = core.mem.bytes_mut_writing(dh, start, end);
            for i in 0..count as u64 {
                let s = (sa + i * b.src_stride) as usize;
                let d = (da + i * b.dst_stride) as usize;
                mem.copy_within(s..s + len, d);
            }
        }
        (Endpoint::Local(dh, da), Endpoint::Local(sh, sa)) => {
            let (start, end) = written(da);
            let (dm, sm) = core.mem.pair_mut_writing(dh, sh, start, end);
            for i in 0..count as u64 {
                let s = (sa + i * b.src_stride) as usize;
                let d = (da + i * b.dst_stride) as usize;
                dm[d..d + len].copy_from_slice(&sm[s..s + len]);
            }
        }
        (Endpoint::Gm(dg, dof), Endpoint::Gm(sg, sof)) => {
            for i in 0..count as u64 {
                let s = sg.ptr((sof + i * b.src_stride) as usize);
                let d = dg.ptr((dof + i * b.dst_stride) as usize);
                // SAFETY: both extents checked; `copy` tolerates overlap.
                unsafe { std::ptr::copy(s, d, len) };
            }
        }
    }
    Ok(acc)
}

/// Reads `out.len()` bytes from an endpoint.
pub fn read(core: &Core, api: &'static str, src: Endpoint, out: &mut [u8]) -> Result<()> {
    src.check(core, api, 0, out.len() as u64)?;
    match src {
        Endpoint::Gm(g, off) => g.read_bytes(api, off as usize, out),
        Endpoint::Local(h, a) => {
            out.copy_from_slice(&core.mem.bytes(h)[a as usize..a as usize + out.len()]);
            Ok(())
        }
    }
}

/// Writes `data` to an endpoint.
pub fn write(core: &mut Core, api: &'static str, dst: Endpoint, data: &[u8]) -> Result<()> {
    dst.check(core, api, 0, data.len() as u64)?;
    match dst {
        Endpoint::Gm(g, off) => g.write_bytes(api, off as usize, data),
        Endpoint::Local(h, a) => {
            core.mem
                .range_mut(h, a as usize, a as usize + data.len())
                .copy_from_slice(data);
            Ok(())
        }
    }
}

/// The longest copy [`host_copy`] makes with its own loop when the two addresses are aligned
/// to each other.
const SHORT: usize = 4096;

/// Copies `n` bytes between GM and a local memory. Tile-sized copies (up to 4 KiB), and longer
/// ones between addresses not aligned to each other on a 64-byte boundary, run as a plain vector
/// loop: the host's `memcpy` was up to three times slower on them (its short-copy paths are
/// tuned for data that is not reused at once, and its string moves for long copies slow down
/// on such pairs). Long mutually aligned copies are one `memcpy`.
///
/// # Safety
/// `src .. src + n` must be readable, `dst .. dst + n` writable, and the two must not overlap.
#[inline]
pub(crate) unsafe fn host_copy(src: *const u8, dst: *mut u8, n: usize) {
    if n > SHORT && (dst as usize).wrapping_sub(src as usize).is_multiple_of(64) {
        // SAFETY: the caller's contract.
        return unsafe { std::ptr::copy_nonoverlapping(src, dst, n) };
    }
    let mut i = 0;
    while i + 64 <= n {
        // SAFETY: `i + 64 <= n`, inside both ranges.
        unsafe {
            let v = (src.add(i) as *const [u64; 8]).read_unaligned();
            (dst.add(i) as *mut [u64; 8]).write_unaligned(v);
        }
        i += 64;
    }
    // The tail (< 64 bytes; DataCopy moves whole 32-byte blocks, so mostly none or one).
    if i + 32 <= n {
        // SAFETY: `i + 32 <= n`, inside both ranges.
        unsafe {
            let v = (src.add(i) as *const [u64; 4]).read_unaligned();
            (dst.add(i) as *mut [u64; 4]).write_unaligned(v);
        }
        i += 32;
    }
    if i < n {
        // SAFETY: `i < n`: the last `n - i` (< 32) bytes of both ranges.
        unsafe { std::ptr::copy_nonoverlapping(src.add(i), dst.add(i), n - i) };
    }
}

/// [`host_copy`] into GM: long copies with non-temporal stores (no read of the destination's
/// old bytes into the cache, which a kernel's output does not need).
///
/// # Safety
/// As [`host_copy`].
#[inline]
pub(crate) unsafe fn host_copy_to_gm(src: *const u8, dst: *mut u8, n: usize) {
    #[cfg(target_arch = "x86_64")]
    if n >= STREAM_FROM {
        use std::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_sfence, _mm_stream_si128};
        let head = (dst as usize).wrapping_neg() % 16;
        // SAFETY: the caller's contract; `head < 16 <= n`.
        unsafe { host_copy(src, dst, head) };
        let mut i = head;
        while i + 64 <= n {
            // SAFETY: `i + 64 <= n`, inside both ranges; `dst + i` is 16-byte aligned.
            unsafe {
                let s = src.add(i) as *const __m128i;
                let d = dst.add(i) as *mut __m128i;
                let (a, b, c, e) = (
                    _mm_loadu_si128(s),
                    _mm_loadu_si128(s.add(1)),
                    _mm_loadu_si128(s.add(2)),
                    _mm_loadu_si128(s.add(3)),
                );
                _mm_stream_si128(d, a);
                _mm_stream_si128(d.add(1), b);
                _mm_stream_si128(d.add(2), c);
                _mm_stream_si128(d.add(3), e);
            }
            i += 64;
        }
        // SAFETY: the rest of both ranges.
        unsafe { host_copy(src.add(i), dst.add(i), n - i) };
        // The streamed stores are ordered before anything the thread does next.
        // SAFETY: SSE is part of x86_64.
        unsafe { _mm_sfence() };
        return;
    }
    // SAFETY: the caller's contract.
    unsafe { host_copy(src, dst, n) }
}

/// Asks the host to bring the bytes after a GM read of `n` bytes at `src` (as many, at most
/// [`PREFETCH_MAX`]) into its L2 cache: kernels read GM a tile after the other, and the
/// host's prefetchers stop at page boundaries, so the next tile's read would otherwise wait
/// for memory. A hint only: it reads nothing a kernel sees, and cannot fault (the bytes may lie
/// past the end of the allocation).
#[inline]
pub(crate) fn prefetch_next(src: *const u8, n: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T1};
        let next = src.wrapping_add(n);
        let mut k = 0;
        while k < n.min(PREFETCH_MAX) {
            // SAFETY: a prefetch reads no memory the program sees and never faults.
            unsafe { _mm_prefetch(next.wrapping_add(k) as *const i8, _MM_HINT_T1) };
            k += 64;
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (src, n);
}

/// The most bytes [`prefetch_next`] asks for (a large tile; more would only push data out of
/// the host's L2 before it is read).
const PREFETCH_MAX: usize = 16 << 10;

/// Bytes from which a copy into GM streams.
#[cfg(target_arch = "x86_64")]
const STREAM_FROM: usize = 4096;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chip::ASCEND910B;
    use crate::core::CoreOptions;
    use crate::gm::GmBuffer;

    #[test]
    fn prefetching_past_the_end_of_memory_does_not_fault() {
        // The bytes after the last one a process can map, and after a null pointer: reading
        // either would crash the test.
        for src in [usize::MAX - 63, 0] {
            prefetch_next(src as *const u8, 64 << 10);
        }
    }

    #[test]
    fn host_copy_moves_exactly_n_bytes_at_any_length_and_offset() {
        let src: Vec<u8> = (0..9000u32).map(|i| (i * 7 + 3) as u8).collect();
        for n in [
            0, 1, 31, 32, 33, 63, 64, 65, 96, 127, 128, 500, 4095, 4096, 4097, 4111, 8192,
        ] {
            for (so, dof, to_gm) in [
                (0, 0, false),
                (1, 0, false),
                (0, 3, false),
                (5, 17, false),
                (64, 32, false),
                (0, 0, true),
                (1, 0, true),
                (0, 3, true),
                (5, 17, true),
                (64, 32, true),
                (3, 15, true),
            ] {
                let mut dst = vec![0xAAu8; 9000];
                let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
                // SAFETY: both ranges lie inside their vectors and do not overlap.
                unsafe {
                    match to_gm {
                        false => host_copy(s.add(so), d.add(dof), n),
                        true => host_copy_to_gm(s.add(so), d.add(dof), n),
                    }
                }
                assert_eq!(
                    &dst[dof..dof + n],
                    &src[so..so + n],
                    "n {n}, offsets {so}/{dof}"
                );
                assert!(dst[..dof].iter().all(|&b| b == 0xAA), "n {n}: wrote before");
                assert!(
                    dst[dof + n..].iter().all(|&b| b == 0xAA),
                    "n {n}: wrote past"
                );
            }
        }
    }

    fn core() -> Core {
        Core::new(
            &ASCEND910B,
            crate::core::CoreId::single(crate::core::CoreKind::Aiv, 0),
            1,
            CoreOptions::default(),
        )
    }

    #[test]
    fn strided_gm_to_ub_and_back() {
        let mut c = core();
        let src: Vec<u8> = (0..=255).collect();
        let gm = GmBuffer::from_slice(&src);
        let g = gm.addr();
        let b = Blocks {
            count: 2,
            len: 64,
            src_stride: 64,
            dst_stride: 96,
        };
        copy(
            &mut c,
            "t",
            Endpoint::Local(Hardware::UB, 0),
            Endpoint::Gm(&g, 0),
            b,
        )
        .unwrap();
        let ub = c.mem.bytes(Hardware::UB);
        assert_eq!(&ub[..64], &src[..64]);
        assert_eq!(&ub[96..160], &src[64..128]);
        let out = GmBuffer::zeroed(256);
        let o = out.addr();
        copy(
            &mut c,
            "t",
            Endpoint::Gm(&o, 0),
            Endpoint::Local(Hardware::UB, 96),
            Blocks::contiguous(64),
        )
        .unwrap();
        assert_eq!(&out.to_bytes()[..64], &src[64..128]);
        assert!(out.to_bytes()[64..].iter().all(|&x| x == 0));
    }

    #[test]
    fn out_of_bounds_writes_nothing() {
        let mut c = core();
        let gm = GmBuffer::zeroed(64);
        let g = gm.addr();
        let before = c.mem.bytes(Hardware::UB)[..128].to_vec();
        let e = copy(
            &mut c,
            "DataCopy",
            Endpoint::Local(Hardware::UB, 0),
            Endpoint::Gm(&g, 0),
            Blocks::contiguous(128),
        )
        .unwrap_err();
        assert_eq!(e.category, Category::Memory);
        assert_eq!(&c.mem.bytes(Hardware::UB)[..128], &before[..]);
        let e = copy(
            &mut c,
            "DataCopy",
            Endpoint::Local(Hardware::UB, 196_608 - 32),
            Endpoint::Local(Hardware::UB, 0),
            Blocks::contiguous(64),
        )
        .unwrap_err();
        assert!(e.message.contains("196608-byte UB"), "{e}");
    }

    use proptest::prelude::*;

    proptest! {
        /// The one-memcpy and strided loops agree with a byte-by-byte model of the block rule.
        #[test]
        fn copy_matches_byte_model(
            count in 1u32..6,
            len in 1u64..80,
            src_gap in 0u64..3,
            dst_gap in 0u64..3,
            src_off in 0u64..64,
            dst_off in 0u64..64,
            local_to_local in any::<bool>(),
        ) {
            let mut c = core();
            let src_stride = len + src_gap * 32;
            let dst_stride = len + dst_gap * 32;
            let b = Blocks { count, len, src_stride, dst_stride };
            let data: Vec<u8> = (0..2048u32).map(|i| (i * 31 % 251) as u8).collect();
            let gm = GmBuffer::from_slice(&data);
            let g = gm.addr();
            let src = if local_to_local {
                c.mem.bytes_mut(Hardware::L1)[..2048].copy_from_slice(&data);
                Endpoint::Local(Hardware::L1, src_off)
            } else {
                Endpoint::Gm(&g, src_off)
            };
            let mut model = c.mem.bytes(Hardware::UB)[..4096].to_vec();
            for i in 0..count as u64 {
                for k in 0..len {
                    model[(dst_off + i * dst_stride + k) as usize] = data[(src_off + i * src_stride + k) as usize];
                }
            }
            copy(&mut c, "t", Endpoint::Local(Hardware::UB, dst_off), src, b).unwrap();
            prop_assert_eq!(&c.mem.bytes(Hardware::UB)[..4096], &model[..]);
        }
    }
}
