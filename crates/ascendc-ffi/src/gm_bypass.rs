//! `WriteGmByPassDCache` / `ReadGmByPassDCache` on a C++ `__gm__ T*`.

use crate::abi::{call, dtype, AscLoc};
use crate::gm::lookup;
use crate::with_dtype;
use ascendc::api::gm_bypass::{read_gm_by_pass_dcache, write_gm_by_pass_dcache};

/// `WriteGmByPassDCache<T>(addr, *value)` (`write` 1; the value in the low bytes of `*value`)
/// or `*value = ReadGmByPassDCache<T>(addr)` (0). `elem` is T's type index.
///
/// # Safety
/// `value` is readable and writable.
#[no_mangle]
pub unsafe extern "C" fn ascendc_gm_bypass(
    write: u8,
    elem: u8,
    addr: *const u8,
    value: *mut u64,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let api = if write != 0 {
            "WriteGmByPassDCache"
        } else {
            "ReadGmByPassDCache"
        };
        let g = lookup(api, addr)?;
        with_dtype!(dtype(elem)?, T => {
            let mut v = T::default();
            let bytes = bytemuck::bytes_of_mut(&mut v);
            let n = bytes.len();
            if write != 0 {
                bytes.copy_from_slice(&(*value).to_le_bytes()[..n]);
                write_gm_by_pass_dcache::<T>(&g, v)
            } else {
                let r = read_gm_by_pass_dcache::<T>(&g)?;
                let mut out = [0u8; 8];
                out[..n].copy_from_slice(bytemuck::bytes_of(&r));
                *value = u64::from_le_bytes(out);
                Ok(())
            }
        })
    })
}
