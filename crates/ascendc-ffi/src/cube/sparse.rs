//! `LoadDataWithSparse` and `MmadWithSparse` for C++ kernels.

use super::AscLoad2D;
use crate::abi::{call, dtype, AscLoc, AscLocal};
use ascendc::api::cube::sparse::{load_data_with_sparse, mmad_with_sparse};
use ascendc::error::{Category, SimError};
use ascendc::{DType, LoadData2DParams, MmadParams};

fn int8_only(api: &'static str, what: &str, t: DType) -> SimError {
    SimError::new(
        Category::Type,
        api,
        format!(
            "{what} must be {}, not {t}",
            if what == "idx" { "uint8_t" } else { "int8_t" }
        ),
    )
}

/// `LoadDataWithSparse(dst, src, idx, loadDataParam)`: `dst`/`src` int8_t, `idx` uint8_t.
///
/// # Safety
/// The tensors and `p` are valid for reads.
#[no_mangle]
pub unsafe extern "C" fn ascendc_load_data_with_sparse(
    elem: u8,
    idx_elem: u8,
    dst: *const AscLocal,
    src: *const AscLocal,
    idx: *const AscLocal,
    p: *const AscLoad2D,
    loc: AscLoc,
) -> i32 {
    const API: &str = "LoadDataWithSparse";
    call(loc, || {
        match (dtype(elem)?, dtype(idx_elem)?) {
            (DType::Int8, DType::Uint8) => {}
            (DType::Int8, t) => return Err(int8_only(API, "idx", t)),
            (t, _) => return Err(int8_only(API, "dst and src", t)),
        }
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
        load_data_with_sparse(
            &(*dst).tensor::<i8>()?,
            &(*src).tensor::<i8>()?,
            &(*idx).tensor::<u8>()?,
            q,
        )
    })
}

/// `MmadWithSparse(dst, fm, filter, mmadParams)`: `dst` int32_t, `fm`/`filter` int8_t.
///
/// # Safety
/// The tensors and `p` are valid for reads.
#[no_mangle]
pub unsafe extern "C" fn ascendc_mmad_with_sparse(
    dst_elem: u8,
    elem: u8,
    dst: *const AscLocal,
    fm: *const AscLocal,
    filter: *const AscLocal,
    p: *const super::AscMmad,
    loc: AscLoc,
) -> i32 {
    const API: &str = "MmadWithSparse";
    call(loc, || {
        match (dtype(dst_elem)?, dtype(elem)?) {
            (DType::Int32, DType::Int8) => {}
            (DType::Int32, t) => return Err(int8_only(API, "fm and filter", t)),
            (t, _) => {
                return Err(SimError::new(
                    Category::Type,
                    API,
                    format!("dst must be int32_t, not {t}"),
                ))
            }
        }
        let r = *p;
        let mut q = MmadParams::new(r.m, r.n, r.k, r.is_bias != 0);
        q.unit_flag = r.unit_flag;
        q.k_direction_align = r.k_direction_align != 0;
        q.cmatrix_source = r.cmatrix_source != 0;
        q.cmatrix_init_val = r.cmatrix_init_val != 0;
        mmad_with_sparse(
            &(*dst).tensor::<i32>()?,
            &(*fm).tensor::<i8>()?,
            &(*filter).tensor::<i8>()?,
            q,
        )
    })
}
