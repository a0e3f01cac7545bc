//! The Matmul host tiling library's C ABI: the C++ classes (`include/ascendc/adv/matmul_tiling.h`)
//! keep their setters' values in a `MatmulTilingRequest` and pass it here for `GetTiling`.

use ascendc::adv::matmul::{MatmulTilingRequest, TCubeTiling};

/// `GetTiling`: 0 and the tiling in `*out`, or -1 with the reason (NUL-terminated, cut to
/// `msg_len` bytes) in `msg`.
///
/// # Safety
/// `req` and `out` valid; `msg` null or `msg_len` writable bytes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_matmul_tiling(
    req: *const MatmulTilingRequest,
    out: *mut TCubeTiling,
    msg: *mut u8,
    msg_len: usize,
) -> i64 {
    match (*req).get_tiling() {
        Ok(t) => {
            *out = t;
            0
        }
        Err(e) => {
            if !msg.is_null() && msg_len > 0 {
                let n = e.len().min(msg_len - 1);
                std::ptr::copy_nonoverlapping(e.as_ptr(), msg, n);
                *msg.add(n) = 0;
            }
            -1
        }
    }
}

/// `sizeof(MatmulTilingRequest)` and `sizeof(TCubeTiling)`, for the header's layout check.
///
/// # Safety
/// Both pointers valid.
#[no_mangle]
pub unsafe extern "C" fn ascendc_adv_matmul_tiling_sizes(request: *mut usize, tiling: *mut usize) {
    *request = std::mem::size_of::<MatmulTilingRequest>();
    *tiling = std::mem::size_of::<TCubeTiling>();
}
