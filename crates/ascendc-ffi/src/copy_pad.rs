//! `DataCopyPad` in its GM→local (with padding), local→GM and local→TSCM forms, and
//! `SetPadValue`.

use crate::abi::{call, dtype, AscGlobal, AscLoc, AscLocal};
use crate::copy::nd2nz;
use crate::gm::global;
use crate::with_dtype;
use ascendc::error::SimError;
use ascendc::{
    data_copy_pad, set_pad_value, DataCopyExtParams, DataCopyPadExtParams, DataCopyPadParams,
    DataCopyParams,
};
use std::ffi::c_void;

/// `DataCopyExtParams` (`ext` 1) or `DataCopyParams` (`ext` 0) for `DataCopyPad`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct AscPadCopy {
    /// Which struct the C++ side passed.
    pub ext: u8,
    /// Number of blocks.
    pub block_count: u16,
    /// Block length (bytes for the ext form, 32-byte units otherwise).
    pub block_len: u32,
    /// Source stride.
    pub src_stride: u32,
    /// Destination stride.
    pub dst_stride: u32,
    /// Reserved.
    pub rsv: u32,
}

impl AscPadCopy {
    fn plain(&self) -> DataCopyParams {
        DataCopyParams::new(
            self.block_count,
            self.block_len as u16,
            self.src_stride as u16,
            self.dst_stride as u16,
        )
    }

    fn ext(&self) -> DataCopyExtParams {
        DataCopyExtParams::new(
            self.block_count,
            self.block_len,
            self.src_stride,
            self.dst_stride,
            self.rsv,
        )
    }
}

/// `DataCopyPadExtParams<T>` (`ext` 1, `value` holds the T's bytes) or `DataCopyPadParams`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct AscPad {
    /// Which struct the C++ side passed.
    pub ext: u8,
    /// `isPad`.
    pub is_pad: u8,
    /// `leftPadding`.
    pub left: u8,
    /// `rightPadding`.
    pub right: u8,
    /// `paddingValue` (raw bytes of a T for the ext form).
    pub value: u64,
}

fn value_of<T: ascendc::Element>(bits: u64) -> T {
    bytemuck::pod_read_unaligned(&bits.to_le_bytes()[..T::SIZE])
}

fn pad_copy<T: ascendc::Element>(
    dir: u8,
    [dst_l, src_l]: [*const AscLocal; 2],
    [dst_g, src_g]: [*const AscGlobal; 2],
    p: &AscPadCopy,
    pad: Option<&AscPad>,
    nz: Option<&[u16; 8]>,
) -> Result<(), SimError> {
    const API: &str = "DataCopyPad";
    // SAFETY (caller of the entry point): the pointers the direction uses are valid.
    unsafe {
        match dir {
            0 => {
                let (d, s) = ((*dst_l).tensor::<T>()?, global::<T>(API, &*src_g)?);
                let pad = pad.copied().unwrap_or(AscPad {
                    ext: 1,
                    is_pad: 0,
                    left: 0,
                    right: 0,
                    value: 0,
                });
                let ext_pad = DataCopyPadExtParams::new(
                    pad.is_pad != 0,
                    pad.left,
                    pad.right,
                    value_of::<T>(pad.value),
                );
                match (p.ext != 0, pad.ext != 0) {
                    (true, _) => data_copy_pad(&d, &s, p.ext(), ext_pad),
                    (false, true) => data_copy_pad(&d, &s, p.plain(), ext_pad),
                    (false, false) => {
                        let plain_pad =
                            DataCopyPadParams::new(pad.is_pad != 0, pad.left, pad.right, pad.value);
                        data_copy_pad(&d, &s, p.plain(), plain_pad)
                    }
                }
            }
            1 => {
                let (d, s) = (global::<T>(API, &*dst_g)?, (*src_l).tensor::<T>()?);
                if p.ext != 0 {
                    data_copy_pad(&d, &s, p.ext(), ())
                } else {
                    data_copy_pad(&d, &s, p.plain(), ())
                }
            }
            _ => {
                let (d, s) = ((*dst_l).tensor::<T>()?, (*src_l).tensor::<T>()?);
                let nz = nd2nz(nz.unwrap_or(&[0; 8]));
                if p.ext != 0 {
                    data_copy_pad(&d, &s, p.ext(), nz)
                } else {
                    data_copy_pad(&d, &s, p.plain(), nz)
                }
            }
        }
    }
}

/// `DataCopyPad`: `dir` 0 GM→local with `pad`, 1 local→GM, 2 local→TSCM with `nd2nz`.
///
/// # Safety
/// The pointers the direction uses are valid for reads; `pad` and `nd2nz` are null or valid.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_data_copy_pad(
    elem: u8,
    dir: u8,
    dst_l: *const AscLocal,
    dst_g: *const AscGlobal,
    src_l: *const AscLocal,
    src_g: *const AscGlobal,
    params: *const AscPadCopy,
    pad: *const AscPad,
    nd2nz: *const [u16; 8],
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        with_dtype!(dtype(elem)?, T => {
            pad_copy::<T>(dir, [dst_l, src_l], [dst_g, src_g], &*params, pad.as_ref(), nd2nz.as_ref())
        })
    })
}

/// `SetPadValue<T>(value)`; `value` points to one T.
///
/// # Safety
/// `value` is valid for a read of one element of type `elem`.
#[no_mangle]
pub unsafe extern "C" fn ascendc_set_pad_value(elem: u8, value: *const c_void, loc: AscLoc) -> i32 {
    call(
        loc,
        || with_dtype!(dtype(elem)?, T => set_pad_value((value as *const T).read_unaligned())),
    )
}
