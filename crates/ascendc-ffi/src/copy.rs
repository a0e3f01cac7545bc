//! `DataCopy`: level 0, level 2, ND→NZ, NZ→ND, slices and the enhanced form.

use crate::abi::{call, call_at, dtype, AscGlobal, AscLoc, AscLocal};
use crate::gm::{global, with_global};
use crate::{with_dtype, with_tensor_dtype};
use ascendc::error::{Category, SimError};
use ascendc::{
    data_copy, f16, BlockMode, DType, DataCopyArgs, DataCopyEnhancedParams, DataCopyParams,
    DeqScale, GlobalTensor, Int4, LocalTensor, Nd2NzParams, Nz2NdParamsFull, PadMode, SliceInfo,
};

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

/// `DataCopy(dst, src, params)` when `params` is not null, else `DataCopy(dst, src, count)`
/// (between GM and a local tensor, that is [`ascendc_data_copy_gm`]).
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
    const API: &str = "DataCopy";
    let Some(params) = params.as_ref().map(|p| DataCopyParams::from(*p)) else {
        return match dir {
            0 => ascendc_data_copy_gm(elem.into(), dst_l, src_g, count, loc),
            1 => ascendc_data_copy_gm(u16::from(elem) | 256, src_l, dst_g, count, loc),
            _ => call(loc, || {
                with_tensor_dtype!(dtype(elem)?, T => (*dst_l).with(|l: &LocalTensor<T>| {
                    (*src_l).with(|src: &LocalTensor<T>| data_copy(l, src, count))
                }))
            }),
        };
    };
    call(loc, || {
        with_tensor_dtype!(dtype(elem)?, T => {
            // The handles are checked in argument order.
            match dir {
                0 => (*dst_l).with(|l: &LocalTensor<T>| {
                    with_global(API, &*src_g, |g: &GlobalTensor<T>| data_copy(l, g, params))
                }),
                1 => with_global(API, &*dst_g, |g: &GlobalTensor<T>| {
                    (*src_l).with(|l: &LocalTensor<T>| data_copy(g, l, params))
                }),
                _ => (*dst_l).with(|l: &LocalTensor<T>| {
                    (*src_l).with(|src: &LocalTensor<T>| data_copy(l, src, params))
                }),
            }
        })
    })
}

/// `DataCopy(dst, src, count)` between GM and a local tensor, the form a kernel's hot loop calls
/// most: `form` is the element type index, plus 256 for local→GM (`gm` the destination). The
/// location goes to the copy itself, without a location scope.
///
/// # Safety
/// `local` and `gm` are valid for reads.
#[no_mangle]
pub unsafe extern "C" fn ascendc_data_copy_gm(
    form: u16,
    local: *const AscLocal,
    gm: *const AscGlobal,
    count: u32,
    loc: AscLoc,
) -> i32 {
    const API: &str = "DataCopy";
    call_at(loc, |loc| {
        with_tensor_dtype!(dtype(form as u8)?, T => {
            // The handles are checked in argument order.
            // The closures are inlined: the call is one function from the entry point down.
            if form >> 8 == 0 {
                (*local).with(
                    #[inline(always)]
                    |l: &LocalTensor<T>| {
                        with_global(API, &*gm, #[inline(always)] |g: &GlobalTensor<T>| count.copy(l, g, loc))
                    },
                )
            } else {
                with_global(
                    API,
                    &*gm,
                    #[inline(always)]
                    |g: &GlobalTensor<T>| {
                        (*local).with(#[inline(always)] |l: &LocalTensor<T>| count.copy(g, l, loc))
                    },
                )
            }
        })
    })
}

/// `SliceInfo` as C++ lays it out.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct AscSlice {
    /// First selected index.
    pub start_index: u32,
    /// Last selected index (inclusive).
    pub end_index: u32,
    /// Elements skipped between runs.
    pub stride: u32,
    /// Run length.
    pub burst_len: u32,
    /// Dimension extent (0: from ShapeInfo).
    pub shape_value: u32,
}

impl From<&AscSlice> for SliceInfo {
    fn from(s: &AscSlice) -> Self {
        SliceInfo::with_shape(
            s.start_index,
            s.end_index,
            s.stride,
            s.burst_len,
            s.shape_value,
        )
    }
}

/// `Nd2NzParams` from its eight fields in declaration order.
pub(crate) fn nd2nz(v: &[u16; 8]) -> Nd2NzParams {
    Nd2NzParams::new(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7])
}

fn slices(p: *const AscSlice, dim: u32) -> Vec<SliceInfo> {
    // SAFETY (caller of the entry point): `p` holds `dim` entries, at most 8 are read.
    (0..dim.min(8) as usize)
        .map(|i| SliceInfo::from(unsafe { &*p.add(i) }))
        .collect()
}

/// The other `DataCopy` forms: `kind` 0 ND→NZ (GM→local, `params` = 8 `Nd2NzParams` fields),
/// 1 NZ→ND (local→GM, `params` = 7 `Nz2NdParamsFull` fields), 2 slice (`dir` 0 GM→local or
/// 1 local→GM, `dst_slices` / `src_slices` with `dim` entries each). `int4b_t` takes ND→NZ only.
///
/// # Safety
/// The pointers the form uses are valid for reads (`params`: 8 values; slices: `dim` entries).
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_data_copy_ex(
    elem: u8,
    kind: u8,
    dir: u8,
    local: *const AscLocal,
    gm: *const AscGlobal,
    params: *const [u16; 8],
    dst_slices: *const AscSlice,
    src_slices: *const AscSlice,
    dim: u32,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let d = dtype(elem)?;
        if (d, kind) == (DType::Int4, 0) {
            let (l, g) = (
                (*local).tensor::<Int4>()?,
                global::<Int4>("DataCopy", &*gm)?,
            );
            return data_copy(&l, &g, nd2nz(&*params));
        }
        with_dtype!(d, T => {
            let l = (*local).tensor::<T>()?;
            let g = global::<T>("DataCopy", &*gm)?;
            match (kind, dir) {
                (0, _) => data_copy(&l, &g, nd2nz(&*params)),
                (1, _) => {
                    let v = &*params;
                    data_copy(&g, &l, Nz2NdParamsFull::new(v[0], v[1], v[2], v[3], v[4], v[5], v[6]))
                }
                (_, 0) => data_copy(&l, &g, (&slices(dst_slices, dim)[..], &slices(src_slices, dim)[..], dim)),
                _ => data_copy(&g, &l, (&slices(dst_slices, dim)[..], &slices(src_slices, dim)[..], dim)),
            }
        })
    })
}

/// `DataCopyEnhancedParams` as C++ lays it out (enums as indices in declaration order).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct AscEnhanced {
    /// `BlockMode` index.
    pub block_mode: u8,
    /// `DeqScale` index.
    pub deq_scale: u8,
    /// `sidStoreMode`.
    pub sid_store_mode: u8,
    /// `isRelu`.
    pub is_relu: u8,
    /// `PadMode` index.
    pub pad_mode: u8,
    /// `deqValue`.
    pub deq_value: u64,
    /// `padValue`.
    pub pad_value: u64,
    /// `deqTensorAddr`.
    pub deq_tensor_addr: u64,
}

impl AscEnhanced {
    fn params(&self) -> Result<DataCopyEnhancedParams, SimError> {
        use BlockMode::*;
        use DeqScale::*;
        use PadMode::*;
        let pick = |i: u8, name: &str, n: usize| {
            if (i as usize) < n {
                Ok(i as usize)
            } else {
                Err(SimError::range(
                    "DataCopy",
                    name,
                    i,
                    format!("[0, {}]", n - 1),
                ))
            }
        };
        let blocks = [
            BLOCK_MODE_NORMAL,
            BLOCK_MODE_MATRIX,
            BLOCK_MODE_VECTOR,
            BLOCK_MODE_SMALL_CHANNEL,
            BLOCK_MODE_DEPTHWISE,
        ];
        let deqs = [DEQ_NONE, DEQ, VDEQ, DEQ8, VDEQ8, DEQ16, VDEQ16];
        let pads = [PAD_NONE, PAD_MODE1, PAD_MODE2, PAD_MODE3, PAD_MODE4];
        Ok(DataCopyEnhancedParams {
            block_mode: blocks[pick(self.block_mode, "blockMode", blocks.len())?],
            deq_scale: deqs[pick(self.deq_scale, "deqScale", deqs.len())?],
            deq_value: self.deq_value,
            sid_store_mode: self.sid_store_mode,
            is_relu: self.is_relu != 0,
            pad_mode: pads[pick(self.pad_mode, "padMode", pads.len())?],
            pad_value: self.pad_value,
            deq_tensor_addr: self.deq_tensor_addr,
        })
    }
}

fn enhanced_local<D: ascendc::Element, S: ascendc::Element>(
    d: &AscLocal,
    s: &AscLocal,
    args: (DataCopyParams, DataCopyEnhancedParams),
) -> Result<(), SimError> {
    data_copy(&d.tensor::<D>()?, &s.tensor::<S>()?, args)
}

/// `DataCopy(dst, src, params, enhancedParams)`: `dir` 0 GM→local, 1 local→GM, 2 local→local
/// (CO1→CO2 may convert `src_elem` to `dst_elem`).
///
/// # Safety
/// The pointers the direction uses, `params` and `enhanced` are valid for reads.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_data_copy_enhanced(
    dst_elem: u8,
    src_elem: u8,
    dir: u8,
    dst_l: *const AscLocal,
    dst_g: *const AscGlobal,
    src_l: *const AscLocal,
    src_g: *const AscGlobal,
    params: *const AscCopyParams,
    enhanced: *const AscEnhanced,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let args = (DataCopyParams::from(*params), (*enhanced).params()?);
        let (dt, st) = (dtype(dst_elem)?, dtype(src_elem)?);
        match dir {
            0 => {
                with_dtype!(dt, T => data_copy(&(*dst_l).tensor::<T>()?, &global::<T>("DataCopy", &*src_g)?, args))
            }
            1 => {
                with_dtype!(dt, T => data_copy(&global::<T>("DataCopy", &*dst_g)?, &(*src_l).tensor::<T>()?, args))
            }
            _ if dt == st => with_dtype!(dt, T => enhanced_local::<T, T>(&*dst_l, &*src_l, args)),
            _ => {
                let (d, s) = (&*dst_l, &*src_l);
                macro_rules! dst_of {
                    ($s:ty) => {
                        match dt {
                            DType::Half => enhanced_local::<f16, $s>(d, s, args),
                            DType::Float => enhanced_local::<f32, $s>(d, s, args),
                            DType::Int32 => enhanced_local::<i32, $s>(d, s, args),
                            DType::Int16 => enhanced_local::<i16, $s>(d, s, args),
                            DType::Int8 => enhanced_local::<i8, $s>(d, s, args),
                            DType::Uint8 => enhanced_local::<u8, $s>(d, s, args),
                            t => Err(SimError::new(
                                Category::Type,
                                "DataCopy",
                                format!("CO1→CO2 cannot convert {st} to {t}"),
                            )),
                        }
                    };
                }
                match st {
                    DType::Float => dst_of!(f32),
                    DType::Int32 => dst_of!(i32),
                    DType::Half => dst_of!(f16),
                    t => Err(SimError::new(
                        Category::Type,
                        "DataCopy",
                        format!("CO1→CO2 cannot convert {t} to {dt}"),
                    )),
                }
            }
        }
    })
}
