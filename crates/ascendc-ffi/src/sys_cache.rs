//! System variables and cache control for C++ kernels: `GetDataBlockSizeInBytes`,
//! `GetArchVersion`, `GetProgramCounter`, `GetSubBlockNum`, `DataCachePreload`,
//! `DataCacheCleanAndInvalid`, `ICachePreLoad`, `GetICachePreloadStatus`.

use crate::abi::{call, dtype, AscGlobal, AscLoc, AscLocal};
use crate::gm::global;
use crate::with_dtype;
use ascendc::{CacheLine, Category, DcciDst, SimError};

/// The system variable `which` into `*out`: 0 `GetDataBlockSizeInBytes`, 1 `GetArchVersion`,
/// 2 `GetProgramCounter`, 3 `GetSubBlockNum`, 4 `GetICachePreloadStatus`.
///
/// # Safety
/// `out` is valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_sys_var(which: u8, out: *mut i64, loc: AscLoc) -> i32 {
    call(loc, || {
        *out = match which {
            0 => ascendc::get_data_block_size_in_bytes()? as i64,
            1 => ascendc::get_arch_version()? as i64,
            2 => ascendc::get_program_counter()?,
            3 => ascendc::get_sub_block_num()?,
            4 => ascendc::get_icache_preload_status()?,
            _ => {
                return Err(SimError::new(
                    Category::Range,
                    "C ABI",
                    format!("invalid system variable {which}"),
                ))
            }
        };
        Ok(())
    })
}

/// `DataCachePreload(src, cacheOffset)` on a `uint64_t` GlobalTensor.
///
/// # Safety
/// `src` is valid for reads.
#[no_mangle]
pub unsafe extern "C" fn ascendc_data_cache_preload(
    src: *const AscGlobal,
    cache_offset: i64,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let g = global::<u64>("DataCachePreload", &*src)?;
        ascendc::data_cache_preload(&g, cache_offset)
    })
}

/// `DataCacheCleanAndInvalid<T, entireType[, dcciDst]>(dst)` on `global` or, when it is null,
/// `local`. `entire`: 0 `SINGLE_CACHE_LINE`, 1 `ENTIRE_DATA_CACHE`; `dcci`: 0 `CACHELINE_ALL`,
/// 1 `CACHELINE_UB`, 2 `CACHELINE_OUT`, 3 `CACHELINE_ATOMIC`, 255 the form without it.
///
/// # Safety
/// Exactly one of `local` / `global` is valid for reads.
#[no_mangle]
pub unsafe extern "C" fn ascendc_dcci(
    elem: u8,
    global_t: *const AscGlobal,
    local: *const AscLocal,
    entire: u8,
    dcci: u8,
    loc: AscLoc,
) -> i32 {
    const API: &str = "DataCacheCleanAndInvalid";
    call(loc, || {
        let entire = match entire {
            0 => CacheLine::SINGLE_CACHE_LINE,
            1 => CacheLine::ENTIRE_DATA_CACHE,
            _ => return Err(SimError::range(API, "entireType", entire, "0 or 1")),
        };
        let dst = match dcci {
            0 => Some(DcciDst::CACHELINE_ALL),
            1 => Some(DcciDst::CACHELINE_UB),
            2 => Some(DcciDst::CACHELINE_OUT),
            3 => Some(DcciDst::CACHELINE_ATOMIC),
            255 => None,
            _ => return Err(SimError::range(API, "dcciDst", dcci, "0 to 3")),
        };
        with_dtype!(dtype(elem)?, T => {
            match global_t.as_ref() {
                Some(g) => ascendc::data_cache_clean_and_invalid(&global::<T>(API, g)?, entire, dst)?,
                None => ascendc::data_cache_clean_and_invalid(&(*local).tensor::<T>()?, entire, dst)?,
            }
        });
        Ok(())
    })
}

/// `ICachePreLoad(preFetchLen)`.
#[no_mangle]
pub extern "C" fn ascendc_icache_preload(pre_fetch_len: i64, loc: AscLoc) -> i32 {
    call(loc, || ascendc::icache_preload(pre_fetch_len))
}

/// `Async<engine, …>`: `*out` = 1 when this core runs `engine`'s functions (0 `AIC`, 1 `AIV`).
///
/// # Safety
/// `out` is valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_async_runs(engine: u8, out: *mut u8, loc: AscLoc) -> i32 {
    call(loc, || {
        let engine = match engine {
            0 => ascendc::EngineType::AIC,
            1 => ascendc::EngineType::AIV,
            _ => return Err(SimError::range("Async", "engine", engine, "AIC or AIV")),
        };
        *out = 0;
        ascendc::async_on(engine, || {
            *out = 1;
            Ok(())
        })
    })
}
