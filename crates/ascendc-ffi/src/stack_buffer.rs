//! `PopStackBuffer<T, pos>(tensor)` on the pipe of the running kernel.

use crate::abi::{call, dtype, position, AscLoc, AscLocal};
use crate::with_dtype;
use ascendc::api::stack_buffer::pop_stack_buffer_at;
use ascendc::error::{Category, SimError};
use ascendc::TPipe;

/// `*ok = PopStackBuffer<T, pos>(*out)`: `*ok` is 0 (and `*out` untouched) when nothing is
/// left; `pipe` null (no TPipe in this kernel) is an error.
///
/// # Safety
/// `pipe` null or from `ascendc_pipe_new`; `out` and `ok` writable.
#[no_mangle]
pub unsafe extern "C" fn ascendc_pop_stack_buffer(
    pipe: *const TPipe,
    elem: u8,
    pos: u8,
    out: *mut AscLocal,
    ok: *mut u8,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let pipe = pipe.as_ref().ok_or_else(|| {
            SimError::new(
                Category::QueueState,
                "PopStackBuffer",
                "no TPipe exists in this kernel: the stack buffer is the rest of the pipe's memory",
            )
        })?;
        let pos = position(pos)?;
        with_dtype!(dtype(elem)?, T => {
            match pop_stack_buffer_at::<T>(pipe, pos)? {
                Some(t) => {
                    *out = AscLocal::of(&t);
                    *ok = 1;
                }
                None => *ok = 0,
            }
            Ok(())
        })
    })
}
