//! Global memory: host-allocated regions shared by every block of a launch.
//!
//! A region has exact bounds: an access past either end is an error naming the API and the
//! block, never a stray write. Blocks run on host threads and write GM without locks, as the cores
//! of a device do; writes by different blocks to the same bytes are a kernel bug (as on hardware).

use crate::dtype::Element;
use crate::error::{Category, Result, SimError};
use std::cell::Cell;
use std::fmt;
use std::mem::ManuallyDrop;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

pub mod guarded;

static NEXT_REGION: AtomicU64 = AtomicU64::new(1);

/// One GM allocation. The bytes live behind a raw pointer so that blocks on different threads can
/// read and write disjoint parts concurrently; the mapping ends with a guard page (see
/// [`guarded`]).
pub(crate) struct GmRegion {
    id: u64,
    mem: guarded::Guarded,
    /// Bytes that belong to the allocation's owner; the rest up to `mem.len` is the padding a
    /// device allocator adds (see [`GmBuffer::try_device_sized`]). Equal to `mem.len` otherwise.
    valid: usize,
}

// SAFETY: the region is a plain byte array; concurrent access to disjoint bytes is sound, and the
// simulator never hands out Rust references into it (all accesses are raw copies).
unsafe impl Send for GmRegion {}
unsafe impl Sync for GmRegion {}

impl GmRegion {
    /// `len` bytes holding `data` (zero when `None`).
    fn new(len: usize, data: Option<&[u8]>) -> Result<GmRegion> {
        let id = NEXT_REGION.fetch_add(1, Ordering::Relaxed);
        let mem = guarded::Guarded::try_new(id, len, data).map_err(|why| {
            SimError::new(
                Category::Memory,
                "GM allocation",
                format!("{why}: not allocated"),
            )
        })?;
        Ok(GmRegion {
            id,
            mem,
            valid: len,
        })
    }
}

/// Bytes the device's allocator reserves for a request of `bytes`: rounded up to 32 and 32 more.
pub fn device_alloc_size(bytes: usize) -> Option<usize> {
    bytes.checked_next_multiple_of(32)?.checked_add(32)
}

/// An access that reached the padding of a device-sized allocation (kept for the API call that
/// made it, which reports it as a warning with its source line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PaddingTouch {
    /// First byte accessed, from the start of the allocation.
    pub begin: u64,
    /// Bytes accessed.
    pub len: u64,
    /// The owner's bytes.
    pub valid: usize,
    /// The whole allocation with its padding.
    pub total: usize,
}

thread_local! {
    static PADDING_TOUCH: Cell<Option<PaddingTouch>> = const { Cell::new(None) };
}

/// The padding access made on this thread since the last call, if any.
#[inline(always)]
pub(crate) fn take_padding_touch() -> Option<PaddingTouch> {
    PADDING_TOUCH.with(Cell::take)
}

/// A GM buffer owned by the host (what `GmAlloc` returns in the vendor flow). Cloning shares the
/// same memory.
#[derive(Clone)]
pub struct GmBuffer {
    region: Arc<GmRegion>,
}

impl fmt::Debug for GmBuffer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "GmBuffer(#{}, {} bytes)",
            self.region.id, self.region.mem.len
        )
    }
}

impl GmBuffer {
    /// A zero-filled buffer of `bytes` bytes, or the reason the host cannot provide it (a size
    /// past the address space, or more than the host can map).
    pub fn try_zeroed(bytes: usize) -> Result<GmBuffer> {
        Ok(GmBuffer {
            region: Arc::new(GmRegion::new(bytes, None)?),
        })
    }

    /// A zero-filled buffer for `bytes` bytes sized as the device's allocator sizes it
    /// ([`device_alloc_size`]: rounded up to 32 and 32 more). Kernels that read or write the
    /// aligned tail of a tensor run there, so they run here: an access reaching the padding is a
    /// warning on the calling API, one past it an error.
    pub fn try_device_sized(bytes: usize) -> Result<GmBuffer> {
        let total = device_alloc_size(bytes).ok_or_else(|| {
            SimError::new(
                Category::Memory,
                "GM allocation",
                format!("{bytes} bytes with the device's padding exceed the address space: not allocated"),
            )
        })?;
        let mut region = GmRegion::new(total, None)?;
        region.valid = bytes;
        Ok(GmBuffer {
            region: Arc::new(region),
        })
    }

    /// A zero-filled buffer of `bytes` bytes. Panics (with the reason) when the host cannot
    /// provide it; [`GmBuffer::try_zeroed`] returns the error instead.
    pub fn zeroed(bytes: usize) -> GmBuffer {
        GmBuffer::try_zeroed(bytes).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A buffer holding a copy of `data` (little-endian, as numpy `tofile` writes it); the data
    /// is copied once, straight into the buffer. Panics when the host cannot map it.
    pub fn from_slice<T: Element>(data: &[T]) -> GmBuffer {
        GmBuffer::copied(bytemuck::cast_slice(data))
    }

    /// A buffer holding a copy of raw bytes. Panics when the host cannot map it.
    pub fn from_bytes(bytes: Vec<u8>) -> GmBuffer {
        GmBuffer::copied(&bytes)
    }

    fn copied(bytes: &[u8]) -> GmBuffer {
        let region = GmRegion::new(bytes.len(), Some(bytes)).unwrap_or_else(|e| panic!("{e}"));
        GmBuffer {
            region: Arc::new(region),
        }
    }

    /// A buffer loaded from a raw `.bin` file.
    pub fn from_bin_file(path: impl AsRef<Path>) -> std::io::Result<GmBuffer> {
        Ok(GmBuffer::from_bytes(std::fs::read(path)?))
    }

    /// Writes the whole buffer to a raw `.bin` file.
    pub fn write_bin_file(&self, path: impl AsRef<Path>) -> std::io::Result<()> {
        std::fs::write(path, self.to_bytes())
    }

    /// True while nothing wrote into the slack around the data (bytes just before it, or past
    /// its end up to the next 32-byte boundary): a raw overrun by native code that the guard page
    /// after the data did not catch. Front ends check it when an allocation is freed.
    pub fn slack_intact(&self) -> bool {
        self.region.mem.intact()
    }

    /// Size in bytes.
    pub fn len_bytes(&self) -> usize {
        self.region.mem.len
    }

    /// A copy of the whole buffer as bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = vec![0u8; self.region.mem.len];
        // SAFETY: in bounds by construction; raw copy out of the region.
        unsafe { std::ptr::copy_nonoverlapping(self.region.mem.ptr, out.as_mut_ptr(), out.len()) };
        out
    }

    /// A copy of the whole buffer as elements of `T` (a trailing partial element is dropped).
    pub fn to_vec<T: Element>(&self) -> Vec<T> {
        let n = self.region.mem.len / T::SIZE;
        let mut out = vec![T::default(); n];
        // SAFETY: `n * T::SIZE <= len`; T is Pod.
        unsafe {
            std::ptr::copy_nonoverlapping(
                self.region.mem.ptr,
                out.as_mut_ptr() as *mut u8,
                n * T::SIZE,
            )
        };
        out
    }

    /// The whole buffer as elements of `T`, bracketed and space-separated (`[1 2 3]`), as the
    /// documentation's examples print tensors.
    pub fn format<T: Element>(&self) -> String {
        let items: Vec<String> = self.to_vec::<T>().iter().map(|v| v.to_string()).collect();
        format!("[{}]", items.join(" "))
    }

    /// Overwrites elements starting at element `offset` with `data`.
    pub fn write_slice<T: Element>(&self, offset: usize, data: &[T]) -> Result<()> {
        let bytes: &[u8] = bytemuck::cast_slice(data);
        let start = offset.checked_mul(T::SIZE).ok_or_else(|| {
            SimError::range(
                "GmBuffer::write_slice",
                "offset",
                offset,
                format!("[0, {}] elements", self.region.mem.len / T::SIZE),
            )
        })?;
        self.addr()
            .write_bytes("GmBuffer::write_slice", start, bytes)
    }

    /// The host address of the first byte, for front ends whose kernels hold raw `GM_ADDR`
    /// pointers; every access must still go through a [`GmAddr`].
    #[doc(hidden)]
    pub fn host_ptr(&self) -> *mut u8 {
        self.region.mem.ptr
    }

    /// The address of the first byte, to pass to a kernel (`GM_ADDR`).
    pub fn addr(&self) -> GmAddr {
        GmAddr {
            share: Share::new(self.region.clone()),
            offset: 0,
        }
    }
}

/// A small number naming the calling thread (never 0).
#[inline(always)]
fn thread_token() -> u64 {
    thread_local! {
        static TOKEN: Cell<u64> = const { Cell::new(0) };
    }
    /// Gives this thread its token (the first time it asks).
    #[cold]
    #[inline(never)]
    fn first(t: &Cell<u64>) -> u64 {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        t.set(n);
        n
    }
    TOKEN.with(|t| match t.get() {
        0 => first(t),
        n => n,
    })
}

/// One thread's counted reference to a region: the addresses a thread copies count on its own
/// share, so that threads do not contend for one reference count.
struct Share {
    thread: u64,
    region: Arc<GmRegion>,
}

impl Share {
    fn new(region: Arc<GmRegion>) -> Arc<Share> {
        Arc::new(Share {
            thread: thread_token(),
            region,
        })
    }

    /// This thread's share of `region`: the one it keeps while it runs blocks
    /// ([`with_thread_shares`]), otherwise a new one.
    #[inline(never)]
    fn of_this_thread(region: &Arc<GmRegion>) -> Arc<Share> {
        THREAD_SHARES
            .try_with(|kept| {
                let mut kept = kept.try_borrow_mut().ok()?;
                let kept = kept.as_mut()?;
                if let Some(s) = kept.iter().find(|s| Arc::ptr_eq(&s.region, region)) {
                    return Some(s.clone());
                }
                let s = Share::new(region.clone());
                if kept.len() < MAX_THREAD_SHARES {
                    kept.push(s.clone());
                }
                Some(s)
            })
            .ok()
            .flatten()
            .unwrap_or_else(|| Share::new(region.clone()))
    }
}

/// Most regions a thread keeps a share of while it runs blocks.
const MAX_THREAD_SHARES: usize = 64;

thread_local! {
    /// While this thread runs blocks: its shares of the regions it was handed from other
    /// threads. A kernel's arguments are copied in every block; without these each copy would
    /// make a share (an allocation, and a contended count on the region).
    static THREAD_SHARES: std::cell::RefCell<Option<Vec<Arc<Share>>>> =
        const { std::cell::RefCell::new(None) };
}

/// Runs `f` (the blocks a thread runs for one launch) with this thread keeping its shares of the
/// regions the blocks copy addresses of; they are dropped when `f` returns, so that no region
/// outlives the launch because of them.
pub(crate) fn with_thread_shares<R>(f: impl FnOnce() -> R) -> R {
    struct End(bool);
    impl Drop for End {
        fn drop(&mut self) {
            if self.0 {
                // Taken out first: dropping a share must not run while the cell is borrowed.
                let kept = THREAD_SHARES.with(|k| k.borrow_mut().take());
                drop(kept);
            }
        }
    }
    // A launch from inside a block leaves the outer launch's shares in place.
    let started = THREAD_SHARES.with(|k| {
        let mut k = k.borrow_mut();
        k.is_none() && {
            *k = Some(Vec::new());
            true
        }
    });
    let _end = End(started);
    f()
}

/// A byte address in GM (`GM_ADDR`, `__gm__ uint8_t*`): a region and a byte offset into it.
pub struct GmAddr {
    share: Arc<Share>,
    offset: usize,
}

impl Clone for GmAddr {
    #[inline]
    fn clone(&self) -> Self {
        self.at_offset(self.offset)
    }
}

impl fmt::Debug for GmAddr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GmAddr(#{} + {})", self.region().id, self.offset)
    }
}

impl GmAddr {
    #[inline]
    fn region(&self) -> &GmRegion {
        &self.share.region
    }

    /// The same region at byte `offset`, sharing this thread's reference count.
    #[inline]
    fn at_offset(&self, offset: usize) -> GmAddr {
        let share = if self.share.thread == thread_token() {
            self.share.clone()
        } else {
            Share::of_this_thread(&self.share.region)
        };
        GmAddr { share, offset }
    }

    /// This address moved by `bytes` bytes, sharing this one's reference to the allocation
    /// without counting it: it must never be dropped and must not outlive `self`.
    ///
    /// # Safety
    /// The caller keeps the result in its `ManuallyDrop` and uses it only while `self` lives.
    #[inline(always)]
    pub(crate) unsafe fn alias_at(&self, bytes: usize) -> ManuallyDrop<GmAddr> {
        ManuallyDrop::new(GmAddr {
            // SAFETY (caller): the copy is never dropped and does not outlive `self`.
            share: unsafe { std::ptr::read(&self.share) },
            offset: self.offset + bytes,
        })
    }

    /// This address moved by `bytes` bytes (pointer arithmetic on `GM_ADDR`). A move past the
    /// end of the address space stays past it (the offset saturates, it never wraps back into
    /// the allocation), so an access through it is an out-of-bounds error.
    #[inline]
    pub fn add_bytes(&self, bytes: usize) -> GmAddr {
        self.at_offset(self.offset.saturating_add(bytes))
    }

    /// Byte offset from the start of the allocation.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The host address of this byte (the `GM_ADDR` a C++ kernel holds).
    pub fn host_ptr(&self) -> *mut u8 {
        self.region().mem.ptr.wrapping_add(self.offset)
    }

    /// Identifier of the allocation (stable for its lifetime).
    pub fn region_id(&self) -> u64 {
        self.region().id
    }

    /// Size of the whole allocation in bytes.
    pub fn region_len(&self) -> usize {
        self.region().mem.len
    }

    /// Checks that `[offset + start, offset + start + len)` lies inside the allocation (computed
    /// without wrapping, whatever the operands).
    #[inline]
    pub(crate) fn check(&self, api: &'static str, start: u64, len: u64) -> Result<()> {
        let begin = self.offset as u128 + start as u128;
        if begin + len as u128 <= self.region().valid as u128 {
            return Ok(());
        }
        self.past_end(api, begin, len)
    }

    #[cold]
    #[inline(never)]
    fn past_end(&self, api: &'static str, begin: u128, len: u64) -> Result<()> {
        let (valid, total) = (self.region().valid, self.region().mem.len);
        if begin + len as u128 <= total as u128 {
            PADDING_TOUCH.with(|t| {
                t.set(Some(PaddingTouch {
                    begin: begin as u64,
                    len,
                    valid,
                    total,
                }))
            });
            return Ok(());
        }
        let what = if valid < total {
            format!(
                "a {valid}-byte allocation (with the device allocator's padding, {total} bytes)"
            )
        } else {
            format!("a {total}-byte allocation")
        };
        Err(SimError::new(
            Category::Memory,
            api,
            format!("GM access of {len} bytes at byte {begin} of {what} runs past its end"),
        ))
    }

    /// Raw pointer to byte `start` past this address. Caller must have checked bounds.
    pub(crate) fn ptr(&self, start: usize) -> *mut u8 {
        // SAFETY (of the later use): callers check bounds first.
        self.region().mem.ptr.wrapping_add(self.offset + start)
    }

    /// Copies `out.len()` bytes from `start` bytes past this address.
    pub(crate) fn read_bytes(&self, api: &'static str, start: usize, out: &mut [u8]) -> Result<()> {
        self.check(api, start as u64, out.len() as u64)?;
        // SAFETY: bounds checked; `out` is a distinct host buffer.
        unsafe { std::ptr::copy_nonoverlapping(self.ptr(start), out.as_mut_ptr(), out.len()) };
        Ok(())
    }

    /// Copies `data` to `start` bytes past this address.
    pub(crate) fn write_bytes(&self, api: &'static str, start: usize, data: &[u8]) -> Result<()> {
        self.check(api, start as u64, data.len() as u64)?;
        // SAFETY: bounds checked; `data` is a distinct host buffer.
        unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), self.ptr(start), data.len()) };
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use half::f16;

    #[test]
    fn a_size_the_host_cannot_map_is_an_error() {
        let e = GmBuffer::try_zeroed(1 << 50).unwrap_err();
        assert_eq!(e.category, Category::Memory);
        assert!(e.to_string().contains("1125899906842624 bytes"), "{e}");
        assert!(GmBuffer::try_zeroed(usize::MAX).is_err());
        assert_eq!(GmBuffer::try_zeroed(8).unwrap().to_vec::<u16>(), vec![0; 4]);
    }

    #[test]
    fn add_bytes_never_wraps_back_into_the_allocation() {
        let b = GmBuffer::zeroed(64);
        let far = b.addr().add_bytes(16).add_bytes(usize::MAX - 8);
        assert_eq!(far.offset(), usize::MAX);
        assert_eq!(b.addr().add_bytes(8).offset(), 8);
    }

    #[test]
    fn blocks_on_one_thread_share_its_count_on_a_region_and_drop_it_with_the_launch() {
        let b = GmBuffer::zeroed(64);
        let a = b.addr();
        let shares = Arc::new(std::sync::Mutex::new(Vec::new()));
        let seen = shares.clone();
        crate::Launch::new(4)
            .threads(2)
            .run(move || {
                let copy = a.clone();
                let again = copy.add_bytes(4);
                // The worker's copies count on the worker's share, not on the host's.
                assert!(Arc::ptr_eq(&copy.share, &again.share));
                assert_eq!(copy.share.thread, thread_token());
                seen.lock().unwrap().push(Arc::as_ptr(&copy.share) as usize);
                Ok(())
            })
            .unwrap();
        let shares = shares.lock().unwrap();
        assert_eq!(shares.len(), 4);
        // At most one share per worker thread for the four blocks.
        let mut distinct = shares.clone();
        distinct.sort();
        distinct.dedup();
        assert!(distinct.len() <= 2, "{distinct:?}");
        // Once the launch ended only the buffer and the host's address (inside the closure,
        // dropped with it) held the region.
        assert_eq!(Arc::strong_count(&b.region), 1);
    }

    #[test]
    fn outside_a_launch_a_copy_from_another_thread_makes_a_share_that_is_not_kept() {
        let b = GmBuffer::zeroed(64);
        let a = b.addr();
        let copy = std::thread::scope(|s| s.spawn(|| a.clone()).join().unwrap());
        assert!(!Arc::ptr_eq(&copy.share, &a.share));
        drop((a, copy));
        assert_eq!(Arc::strong_count(&b.region), 1);
    }

    #[test]
    fn round_trip_and_bounds() {
        let b = GmBuffer::from_slice(&[1.0f32, 2.0, 3.0]);
        assert_eq!(b.len_bytes(), 12);
        assert_eq!(b.to_vec::<f32>(), vec![1.0, 2.0, 3.0]);
        b.write_slice(1, &[9.0f32]).unwrap();
        assert_eq!(b.to_vec::<f32>(), vec![1.0, 9.0, 3.0]);
        let e = b.write_slice(3, &[1.0f32]).unwrap_err();
        assert_eq!(e.category, Category::Memory);
        assert!(e.message.contains("12-byte allocation"), "{e}");
    }

    #[test]
    fn bin_files() {
        let dir = std::env::temp_dir().join(format!("ascendc-gm-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("x.bin");
        let b = GmBuffer::from_slice(&[f16::from_f32(1.5), f16::from_f32(-2.0)]);
        b.write_bin_file(&p).unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), vec![0x00, 0x3e, 0x00, 0xc0]);
        let c = GmBuffer::from_bin_file(&p).unwrap();
        assert_eq!(c.to_vec::<f16>()[1], f16::from_f32(-2.0));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn addresses_cloned_on_another_thread_count_there_and_keep_the_memory() {
        let b = GmBuffer::from_slice(&[1.0f32, 2.0, 3.0, 4.0]);
        let a = b.addr().add_bytes(4);
        let (other, same) = std::thread::scope(|s| {
            s.spawn(|| {
                let c = a.clone();
                let d = c.add_bytes(4);
                (
                    Arc::ptr_eq(&c.share, &a.share),
                    Arc::ptr_eq(&c.share, &d.share),
                )
            })
            .join()
            .unwrap()
        });
        assert!(
            !other,
            "a clone on another thread gets that thread's own share"
        );
        assert!(same, "addresses derived on one thread share its count");
        assert!(Arc::ptr_eq(&a.share, &a.add_bytes(8).share));
        let moved = std::thread::spawn({
            let a = a.clone();
            move || a.add_bytes(4)
        })
        .join()
        .unwrap();
        drop(b);
        assert_eq!(moved.region_id(), a.region_id());
        assert_eq!(moved.offset(), 8);
        let mut out = [0u8; 4];
        moved.read_bytes("test", 0, &mut out).unwrap();
        assert_eq!(
            f32::from_le_bytes(out),
            3.0,
            "the region outlives its GmBuffer"
        );
    }
}
