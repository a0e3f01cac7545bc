//! The high-level GM initialisation (`Fill`, `InitGlobalMemory`, `InitOutput`) on the kernel's
//! pipe: one entry for the three spellings.

use crate::abi::{call, dtype, AscGlobal, AscLoc};
use crate::gm::global;
use ascendc::adv::utils::init_global_memory::{
    fill, init_global_memory, init_output, FILL_TYPES, INIT_OUTPUT_TYPES,
};
use ascendc::error::{Category, SimError};
use ascendc::{bf16, f16, DType, Element, TPipe};
use std::ffi::c_void;

/// `Fill` (`form` 0), `InitGlobalMemory` (1) or `InitOutput` (2, `size` taken as uint32) of
/// `size` elements of type `elem` to `*value`; `pipe` null (no TPipe) is an error.
///
/// # Safety
/// `pipe` null or from `ascendc_pipe_new`; `gm` valid; `value` points to one element.
#[no_mangle]
pub unsafe extern "C" fn ascendc_init_global_memory(
    form: u8,
    pipe: *const TPipe,
    elem: u8,
    gm: *const AscGlobal,
    size: u64,
    value: *const c_void,
    loc: AscLoc,
) -> i32 {
    let api = match form {
        0 => "Fill",
        1 => "InitGlobalMemory",
        _ => "InitOutput",
    };
    call(loc, || {
        let pipe = pipe.as_ref().ok_or_else(|| {
            SimError::new(
                Category::QueueState,
                api,
                "no TPipe exists in this kernel: the staging buffer is the UB GetTPipePtr() has not given out",
            )
        })?;
        unsafe fn go<T: Element>(
            form: u8,
            api: &'static str,
            pipe: &TPipe,
            gm: &AscGlobal,
            size: u64,
            value: *const c_void,
        ) -> Result<(), SimError> {
            let g = global::<T>(api, gm)?;
            let v = (value as *const T).read_unaligned();
            match form {
                0 => fill(pipe, &g, size, v),
                1 => init_global_memory(pipe, &g, size, v),
                _ => init_output(pipe, &g, size as u32, v),
            }
        }
        let gm = &*gm;
        match dtype(elem)? {
            DType::Int16 => go::<i16>(form, api, pipe, gm, size, value),
            DType::Uint16 => go::<u16>(form, api, pipe, gm, size, value),
            DType::Half => go::<f16>(form, api, pipe, gm, size, value),
            DType::Bfloat16 => go::<bf16>(form, api, pipe, gm, size, value),
            DType::Int32 => go::<i32>(form, api, pipe, gm, size, value),
            DType::Uint32 => go::<u32>(form, api, pipe, gm, size, value),
            DType::Float => go::<f32>(form, api, pipe, gm, size, value),
            t => Err(SimError::new(
                Category::Type,
                api,
                format!(
                    "T = {t} is not supported (supported: {})",
                    if form == 2 {
                        INIT_OUTPUT_TYPES
                    } else {
                        FILL_TYPES
                    }
                ),
            )),
        }
    })
}
