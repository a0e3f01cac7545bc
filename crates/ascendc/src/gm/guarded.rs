//! Host memory for GM allocations, laid out so that raw overruns by native code fault: the data
//! ends (rounded up to 32 bytes) right against an inaccessible guard page, and the bytes before
//! the data and in the rounding gap hold a canary pattern that [`Guarded::intact`] checks.

use std::collections::BTreeMap;
use std::sync::RwLock;

/// The byte the slack around the data holds.
pub const CANARY: u8 = 0xA5;

/// A live allocation's guard page, by its first byte: (allocation id, data start, data bytes).
static GUARDS: RwLock<BTreeMap<usize, (u64, usize, usize)>> = RwLock::new(BTreeMap::new());

fn page() -> usize {
    // SAFETY: sysconf has no preconditions.
    let p = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if p > 0 {
        p as usize
    } else {
        4096
    }
}

/// One mapping: leading slack, data, rounding gap, guard page.
pub struct Guarded {
    base: *mut u8,
    total: usize,
    /// First data byte.
    pub ptr: *mut u8,
    /// Data bytes.
    pub len: usize,
}

impl Guarded {
    /// Maps room for `len` bytes (32-byte aligned start) followed by a guard page, fills the
    /// data with `data` (or leaves it zero when `data` is `None`; the kernel's fresh pages are
    /// zero and untouched pages cost no memory) and the slack with [`CANARY`]; `id` names the
    /// allocation in fault reports. Fails with the reason when the size does not fit the address
    /// space or the host cannot map it.
    pub fn try_new(id: u64, len: usize, data: Option<&[u8]>) -> Result<Guarded, String> {
        let page = page();
        let sizes = len
            .checked_add(31)
            .map(|x| (x / 32).max(1) * 32)
            .and_then(|rounded| {
                let body = rounded.checked_add(page - 1)? / page * page;
                Some((rounded, body, body.checked_add(page)?))
            });
        let Some((rounded, body, total)) = sizes else {
            return Err(format!("{len} bytes do not fit the host's address space"));
        };
        // SAFETY: an anonymous private mapping with no address hint; the result is checked.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                total,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return Err(format!(
                "the host cannot map {len} bytes ({})",
                std::io::Error::last_os_error()
            ));
        }
        let base = base as *mut u8;
        // SAFETY: `base .. base + total` is the mapping made above; the guard page is its last
        // page, and the data (with its canaries) lies inside the first `body` bytes.
        unsafe {
            libc::mprotect(base.add(body) as *mut libc::c_void, page, libc::PROT_NONE);
            let ptr = base.add(body - rounded);
            std::ptr::write_bytes(base, CANARY, body - rounded);
            std::ptr::write_bytes(ptr.add(len), CANARY, rounded - len);
            if let Some(d) = data {
                std::ptr::copy_nonoverlapping(d.as_ptr(), ptr, len.min(d.len()));
            }
            GUARDS
                .write()
                .unwrap_or_else(|e| e.into_inner())
                .insert(base.add(body) as usize, (id, ptr as usize, len));
            Ok(Guarded {
                base,
                total,
                ptr,
                len,
            })
        }
    }

    /// True while every byte around the data still holds [`CANARY`]: no native code wrote just
    /// before the data or into the rounding gap after it.
    pub fn intact(&self) -> bool {
        let gap = self.len.div_ceil(32).max(1) * 32 - self.len;
        // SAFETY: the leading slack and the rounding gap lie inside the mapping's accessible part.
        unsafe {
            let lead =
                std::slice::from_raw_parts(self.base, self.ptr.offset_from(self.base) as usize);
            let tail = std::slice::from_raw_parts(self.ptr.add(self.len), gap);
            lead.iter().chain(tail).all(|&b| b == CANARY)
        }
    }
}

impl Drop for Guarded {
    fn drop(&mut self) {
        let guard = self.base as usize + self.total - page();
        GUARDS
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&guard);
        // SAFETY: unmaps exactly the mapping `new` made; no reference into it outlives `self`.
        unsafe { libc::munmap(self.base as *mut libc::c_void, self.total) };
    }
}

/// The allocation whose guard page holds `addr`: (allocation id, data start, data bytes), for
/// fault reports. Never blocks (it may run in a signal handler): `None` when the table is busy.
pub fn owner_of_guard(addr: usize) -> Option<(u64, usize, usize)> {
    let guards = GUARDS.try_read().ok()?;
    let (&start, &owner) = guards.range(..=addr).next_back()?;
    (addr < start + page()).then_some(owner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_ends_against_the_guard_and_slack_holds_canaries() {
        let g = Guarded::try_new(7, 3, Some(&[1, 2, 3])).unwrap();
        assert_eq!(g.ptr as usize % 32, 0);
        // SAFETY: reads the 3 data bytes.
        assert_eq!(unsafe { std::slice::from_raw_parts(g.ptr, 3) }, &[1, 2, 3]);
        assert!(g.intact());
        let guard = g.ptr as usize + 32;
        assert_eq!(owner_of_guard(guard), Some((7, g.ptr as usize, 3)));
        assert_eq!(owner_of_guard(guard + page()), None);
        // SAFETY: byte 5 is inside the mapping's accessible rounding gap.
        unsafe { g.ptr.add(5).write(0) };
        assert!(!g.intact());
    }

    #[test]
    fn sizes_past_the_address_space_are_errors() {
        assert!(Guarded::try_new(1, usize::MAX - 8, None).is_err());
        assert!(Guarded::try_new(1, 1 << 50, None).is_err());
        let g = Guarded::try_new(2, 100, None).unwrap();
        // SAFETY: reads the 100 data bytes.
        assert!(unsafe { std::slice::from_raw_parts(g.ptr, 100) }
            .iter()
            .all(|&b| b == 0));
        assert!(g.intact());
    }
}
