//! `DataCopy` in its GM→local, local→GM and local→local forms, level 0 (params) and level 2
//! (element count).

use crate::abi::{call, dtype, AscGlobal, AscLoc, AscLocal};
use crate::gm::global;
use crate::with_dtype;
use ascendc::{data_copy, DataCopyParams};

/// `DataCopyParams` as C++ lays it out.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct AscCopyParams {
    /// Number of blocks.
    pub block_count: u16,
    /// Block length in units.
    pub block_len: u16,
    /// Source gap in units.
    pub src_stride: u16,
    /// Destination gap in units.
    pub dst_stride: u16,
}

impl From<AscCopyParams> for DataCopyParams {
    fn from(p: AscCopyParams) -> Self {
        DataCopyParams::new(p.block_count, p.block_len, p.src_stride, p.dst_stride)
    }
}

/// `DataCopy(dst, src, params)` when `params` is not null, else `DataCopy(dst, src, count)`.
/// `dir`: 0 GM→local (`src_g`, `dst_l`), 1 local→GM (`src_l`, `dst_g`), 2 local→local.
///
/// # Safety
/// The pointers the direction uses are valid for reads; `params` is null or valid.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_data_copy(
    elem: u8,
    dir: u8,
    dst_l: *const AscLocal,
    dst_g: *const AscGlobal,
    src_l: *const AscLocal,
    src_g: *const AscGlobal,
    params: *const AscCopyParams,
    count: u32,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        with_dtype!(dtype(elem)?, T => {
            let params = params.as_ref().map(|p| DataCopyParams::from(*p));
            match (dir, params) {
                (0, Some(p)) => data_copy(&(*dst_l).tensor::<T>()?, &global::<T>("DataCopy", &*src_g)?, p),
                (0, None) => data_copy(&(*dst_l).tensor::<T>()?, &global::<T>("DataCopy", &*src_g)?, count),
                (1, Some(p)) => data_copy(&global::<T>("DataCopy", &*dst_g)?, &(*src_l).tensor::<T>()?, p),
                (1, None) => data_copy(&global::<T>("DataCopy", &*dst_g)?, &(*src_l).tensor::<T>()?, count),
                (_, Some(p)) => data_copy(&(*dst_l).tensor::<T>()?, &(*src_l).tensor::<T>()?, p),
                (_, None) => data_copy(&(*dst_l).tensor::<T>()?, &(*src_l).tensor::<T>()?, count),
            }
        })
    })
}
