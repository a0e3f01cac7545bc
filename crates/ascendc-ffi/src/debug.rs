//! `DumpTensor` / `DumpAccChkPoint` for C++ kernels: the text goes back to the C++ side, which
//! prints it on its own stdout stream so it stays in order with the kernel's `printf`.

use crate::abi::{call, dtype, AscGlobal, AscLoc, AscLocal, AscShape};
use crate::gm::global;
use crate::with_dtype;
use std::ffi::{c_char, CString};

/// Receives the printed text (NUL-terminated).
pub type TextSink = unsafe extern "C" fn(text: *const c_char);

/// Dumps `dump_size` elements of the tensor (`local`, or `global` when `local` is null) from
/// element `count_off`, with `desc` in the header and laid out by `shape` when not null; the text
/// goes to `sink`.
///
/// # Safety
/// Exactly one of `local` / `global` is valid for reads; `shape` is null or valid.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_dump(
    elem: u8,
    local: *const AscLocal,
    global_t: *const AscGlobal,
    desc: u32,
    count_off: u32,
    dump_size: u32,
    shape: *const AscShape,
    sink: TextSink,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let shape = match shape.as_ref() {
            Some(s) => Some(s.info()?),
            None => None,
        };
        let text = with_dtype!(dtype(elem)?, T => {
            match local.as_ref() {
                Some(l) => ascendc::dump_text(&l.tensor::<T>()?, desc, count_off, dump_size, shape.as_ref())?,
                None => {
                    let g = global::<T>("DumpTensor", &*global_t)?;
                    ascendc::dump_text(&g, desc, count_off, dump_size, shape.as_ref())?
                }
            }
        });
        if !text.is_empty() {
            let c = CString::new(text).unwrap_or_default();
            sink(c.as_ptr());
        }
        Ok(())
    })
}
