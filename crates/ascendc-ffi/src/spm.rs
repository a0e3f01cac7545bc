//! The pipe's SPM buffer: `TPipe::InitSpmBuffer`, `WriteSpmBuffer`, `ReadSpmBuffer`.

use crate::abi::{call, dtype, AscGlobal, AscLoc, AscLocal};
use crate::gm::global;
use crate::with_dtype;
use ascendc::{DataCopyParams, TPipe};

/// `pipe.InitSpmBuffer(*workspace, size)` (`workspace` non-null, `elem` its element type) or
/// `pipe.InitSpmBuffer(size)` (null: the L1 form).
///
/// # Safety
/// `pipe` from `ascendc_pipe_new`; `workspace` null or readable.
#[no_mangle]
pub unsafe extern "C" fn ascendc_spm_init(
    pipe: *mut TPipe,
    workspace: *const AscGlobal,
    elem: u8,
    size: i32,
    loc: AscLoc,
) -> i32 {
    call(loc, || match workspace.as_ref() {
        None => (*pipe).init_spm_buffer_l1(size),
        Some(w) => with_dtype!(dtype(elem)?, T => {
            let g = global::<T>("TPipe::InitSpmBuffer", w)?;
            (*pipe).init_spm_buffer(&g, size)
        }),
    })
}

/// `pipe.WriteSpmBuffer` (`write` 1) or `ReadSpmBuffer` (0) of `tensor`: with `params`
/// (`with_params` 1: blockCount, blockLen, srcGap, dstGap) or `count` elements, at byte
/// `offset` of the SPM buffer.
///
/// # Safety
/// `pipe` from `ascendc_pipe_new`; `tensor` and `params` readable.
#[no_mangle]
pub unsafe extern "C" fn ascendc_spm_copy(
    pipe: *mut TPipe,
    write: u8,
    tensor: *const AscLocal,
    elem: u8,
    with_params: u8,
    params: *const u16,
    count: i32,
    offset: i32,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        with_dtype!(dtype(elem)?, T => {
            let t = (*tensor).tensor::<T>()?;
            let p = std::slice::from_raw_parts(params, 4);
            let cp = DataCopyParams::new(p[0], p[1], p[2], p[3]);
            let pipe = &*pipe;
            match (write != 0, with_params != 0) {
                (true, true) => pipe.write_spm_buffer(&t, cp, offset),
                (true, false) => pipe.write_spm_buffer_count(&t, count, offset),
                (false, true) => pipe.read_spm_buffer(&t, cp, offset),
                (false, false) => pipe.read_spm_buffer_count(&t, count, offset),
            }
        })
    })
}
