//! The index family's C ABI: `ArithProgression` / `Arange` and its host helper.

use crate::abi::{call, dtype, AscLoc, AscLocal};
use crate::with_dtype;
use ascendc::adv::index::{arith_progression, arith_progression_max_min_tmp_size};
use ascendc::LocalTensor;

/// `ArithProgression<T>(dst, firstValue, diffValue, count)` on elements of type `elem`;
/// `first` and `diff` point at one `T` each.
///
/// # Safety
/// `dst` a valid handle; `first` and `diff` valid for reads of one element of type `elem`.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_arith_progression(
    elem: u8,
    dst: *const AscLocal,
    first: *const u8,
    diff: *const u8,
    count: i32,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        with_dtype!(dtype(elem)?, T => {
            let d: LocalTensor<T> = (*dst).tensor()?;
            let f = (first as *const T).read_unaligned();
            let s = (diff as *const T).read_unaligned();
            arith_progression(&d, f, s, count)
        })
    })
}

/// `GetArithProgressionMaxMinTmpSize` / `GetArangeMaxMinTmpSize`: both 0.
///
/// # Safety
/// Both pointers valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_arith_progression_tmp_size(max: *mut u32, min: *mut u32) {
    super::put_pair(max, min, arith_progression_max_min_tmp_size());
}
