//! C ABI of TransData and GetTransDataMaxMinTmpSize.

use super::with_tmp;
use crate::abi::{call, dtype, AscLoc, AscLocal};
use ascendc::adv::transpose::trans_data::{
    trans_data, trans_data_max_min_tmp_size, DataFormat, TransDataConfig,
};
use ascendc::chip::Product;
use ascendc::error::SimError;
use ascendc::{bf16, f16, Category, DType, TPipe};

const API: &str = "TransData";

/// `n` dimensions from `dims` (none for a null pointer).
unsafe fn dims<'a>(p: *const i64, n: u32) -> &'a [i64] {
    if p.is_null() || n == 0 {
        &[]
    } else {
        std::slice::from_raw_parts(p, n as usize)
    }
}

fn config(src: u8, dst: u8) -> Result<TransDataConfig, String> {
    let f = |v: u8| {
        DataFormat::from_u8(v).ok_or_else(|| format!("DataFormat value {v} is not a format"))
    };
    Ok(TransDataConfig::new(f(src)?, f(dst)?))
}

/// `TransData<config>(dst, src, [sharedTmpBuffer,] params)` on elements of type `elem`, the
/// shapes of `params.srcLayout` / `params.dstLayout` as arrays; `tmp` null takes `pipe`'s stack.
///
/// # Safety
/// Tensor handles valid; `tmp` null or valid; `pipe` null or from `ascendc_pipe_new`; the dims
/// arrays valid for their ranks.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_trans_data(
    elem: u8,
    src_format: u8,
    dst_format: u8,
    dst: *const AscLocal,
    src: *const AscLocal,
    tmp: *const AscLocal,
    pipe: *const TPipe,
    src_dims: *const i64,
    src_rank: u32,
    dst_dims: *const i64,
    dst_rank: u32,
    loc: AscLoc,
) -> i32 {
    unsafe fn go<T: ascendc::TensorElement + ascendc::Element>(
        dst: *const AscLocal,
        src: *const AscLocal,
        tmp: *const AscLocal,
        pipe: *const TPipe,
        cfg: TransDataConfig,
        ss: &[i64],
        ds: &[i64],
    ) -> Result<(), SimError> {
        let d = (*dst).tensor::<T>()?;
        let s = (*src).tensor::<T>()?;
        with_tmp(API, tmp, pipe, |b| trans_data(&d, &s, b, cfg, ss, ds))
    }
    call(loc, || {
        let cfg =
            config(src_format, dst_format).map_err(|m| SimError::new(Category::Range, API, m))?;
        let (ss, ds) = (dims(src_dims, src_rank), dims(dst_dims, dst_rank));
        match dtype(elem)? {
            DType::Half => go::<f16>(dst, src, tmp, pipe, cfg, ss, ds),
            DType::Bfloat16 => go::<bf16>(dst, src, tmp, pipe, cfg, ss, ds),
            DType::Int16 => go::<i16>(dst, src, tmp, pipe, cfg, ss, ds),
            DType::Uint16 => go::<u16>(dst, src, tmp, pipe, cfg, ss, ds),
            other => Err(SimError::new(
                Category::Type,
                API,
                format!(
                    "T = {other} is not supported: TransData takes int16_t, uint16_t, half or bfloat16_t"
                ),
            )),
        }
    })
}

/// `GetTransDataMaxMinTmpSize` for the platform of `npu_arch` (`__NPU_ARCH__` numbering) and the
/// `ge::DataType` value `data_type`: true with `*max`/`*min` set, or false (the reason on
/// stderr, as the device's helper logs it).
///
/// # Safety
/// The dims arrays valid for their ranks; `max`, `min` valid for writes.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_trans_data_tmp_size(
    npu_arch: u32,
    src_dims: *const i64,
    src_rank: u32,
    dst_dims: *const i64,
    dst_rank: u32,
    data_type: i32,
    src_format: u8,
    dst_format: u8,
    max: *mut u32,
    min: *mut u32,
) -> bool {
    let r = (|| {
        let product = match npu_arch {
            2201 => Product::Ascend910B,
            2002 => Product::Ascend310P,
            3002 => Product::Ascend310B,
            1001 => Product::Ascend910,
            other => return Err(format!("Unsupported NpuArch {other} for TransData API")),
        };
        // ge::DataType numbering.
        let dt = match data_type {
            0 => DType::Float,
            1 => DType::Half,
            6 => DType::Int16,
            7 => DType::Uint16,
            27 => DType::Bfloat16,
            3 => DType::Int32,
            other => {
                return Err(format!(
                    "dataType {other} is not supported: it only supports DT_FLOAT16/DT_BF16/DT_UINT16/DT_INT16"
                ))
            }
        };
        let cfg = config(src_format, dst_format)?;
        trans_data_max_min_tmp_size(
            product,
            dims(src_dims, src_rank),
            dims(dst_dims, dst_rank),
            dt,
            cfg,
        )
    })();
    match r {
        Ok((hi, lo)) => {
            *max = hi;
            *min = lo;
            true
        }
        Err(m) => {
            eprintln!("[ERROR] [TransData][GetTransDataMaxMinTmpSize] {m}");
            false
        }
    }
}
