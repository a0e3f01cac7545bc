//! `LoadData` from GM into L1 for C++ kernels.

use super::AscLoad2D;
use crate::abi::{call, dtype, AscGlobal, AscLoc, AscLocal};
use crate::gm::global;
use crate::with_dtype;
use ascendc::api::cube::load_gm::load_data_from_gm;
use ascendc::LoadData2DParams;

/// `LoadData(dst, src, LoadData2DParams)` with a GM source.
///
/// # Safety
/// `dst`, `src` and `p` are valid for reads.
#[no_mangle]
pub unsafe extern "C" fn ascendc_load_data_gm(
    elem: u8,
    dst: *const AscLocal,
    src: *const AscGlobal,
    p: *const AscLoad2D,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let r = *p;
        let q = LoadData2DParams::new(
            r.start_index,
            r.repeat_times,
            r.src_stride,
            r.sid,
            r.dst_gap,
            r.if_transpose != 0,
            r.addr_mode,
        );
        with_dtype!(dtype(elem)?, T => {
            load_data_from_gm(&(*dst).tensor::<T>()?, &global::<T>("LoadData", &*src)?, q)
        })
    })
}
