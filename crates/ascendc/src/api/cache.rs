//! Cache control: `DataCachePreload`, `DataCacheCleanAndInvalid`, `ICachePreLoad`,
//! `GetICachePreloadStatus`.
//!
//! The simulated GM is coherent: scalar accesses read and write GM itself, with no data cache in
//! between, so these calls change no data. They are validated as documented and recorded as
//! `PIPE_S` instructions (the pipe the API pipe table gives them).

use super::availability::require;
use super::context::with_core;
use super::tensor::{GlobalTensor, LocalTensor};
use crate::chip::Product;
use crate::core::trace::Pipe;
use crate::core::{Core, CoreKind};
use crate::dtype::Element;
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::position::Hardware;

/// Bytes of one data-cache line.
pub const CACHE_LINE_BYTES: u64 = 64;

/// `CacheLine`: what `DataCacheCleanAndInvalid` refreshes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum CacheLine {
    /// The cache line holding the address, from the address up to the next 64-byte boundary.
    SINGLE_CACHE_LINE,
    /// The whole data cache of the core (the address is not used).
    ENTIRE_DATA_CACHE,
}

/// `DcciDst`: which memory `DataCacheCleanAndInvalid` makes the data cache consistent with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum DcciDst {
    /// Same as `CACHELINE_OUT`.
    CACHELINE_ALL,
    /// The Unified Buffer (with a `LocalTensor` in UB).
    CACHELINE_UB,
    /// GM (with a `GlobalTensor`).
    CACHELINE_OUT,
    /// GM during atomic operations: not supported on any of the five products.
    CACHELINE_ATOMIC,
}

/// The byte `cacheOffset` bytes past a GM tensor's start, checked to lie in its allocation.
fn gm_byte<T: Element>(api: &'static str, t: &GlobalTensor<T>, offset: i64) -> Result<u64> {
    let g = t.gm(api)?;
    let b = g.offset() as i128 + offset as i128;
    if b < 0 || b >= g.region_len() as i128 {
        return Err(SimError::new(
            Category::Memory,
            api,
            format!(
                "the address {offset} bytes past the tensor (byte {b} of its allocation) lies outside the {}-byte GM allocation",
                g.region_len()
            ),
        ));
    }
    Ok(b as u64)
}

/// `DataCachePreload(src, cacheOffset)`: loads the 64-byte cache line holding the byte
/// `cacheOffset` bytes past `src` into the data cache. `cacheOffset` is in bytes (int16_t or
/// int64_t in Ascend C); the byte must lie in `src`'s GM allocation.
#[track_caller]
pub fn data_cache_preload(src: &GlobalTensor<u64>, cache_offset: impl Into<i64>) -> Result<()> {
    const API: &str = "DataCachePreload";
    let loc = SourceLoc::caller();
    let offset = cache_offset.into();
    with_core(API, loc, |core| {
        require(core, API)?;
        gm_byte(API, src, offset)?;
        core.issue(Pipe::S, API, loc, &[]);
        Ok(())
    })
}

/// A tensor `DataCacheCleanAndInvalid` can take: a [`GlobalTensor`] (consistency with GM) or a
/// [`LocalTensor`] in UB (consistency with UB, `DcciDst::CACHELINE_UB`).
pub trait DcciTarget {
    /// Checks the tensor against the mode and destination; returns the bytes refreshed (0 for
    /// the whole cache).
    #[doc(hidden)]
    fn dcci_check(&self, api: &'static str, entire: CacheLine, dst: Option<DcciDst>)
        -> Result<u64>;
}

impl<T: Element> DcciTarget for GlobalTensor<T> {
    fn dcci_check(
        &self,
        api: &'static str,
        entire: CacheLine,
        dst: Option<DcciDst>,
    ) -> Result<u64> {
        if dst == Some(DcciDst::CACHELINE_UB) {
            return Err(SimError::new(
                Category::Position,
                api,
                "DcciDst::CACHELINE_UB keeps the data cache consistent with UB and takes a LocalTensor in UB; a GlobalTensor takes CACHELINE_OUT or CACHELINE_ALL",
            ));
        }
        match entire {
            CacheLine::ENTIRE_DATA_CACHE => Ok(0),
            CacheLine::SINGLE_CACHE_LINE => {
                let b = gm_byte(api, self, 0)?;
                Ok(CACHE_LINE_BYTES - b % CACHE_LINE_BYTES)
            }
        }
    }
}

impl<T: Element> DcciTarget for LocalTensor<T> {
    fn dcci_check(
        &self,
        api: &'static str,
        entire: CacheLine,
        dst: Option<DcciDst>,
    ) -> Result<u64> {
        if dst != Some(DcciDst::CACHELINE_UB) {
            return Err(SimError::new(
                Category::Position,
                api,
                format!(
                    "a LocalTensor takes DcciDst::CACHELINE_UB (got {})",
                    dst.map_or("the form without dcciDst".to_string(), |d| format!("{d:?}"))
                ),
            ));
        }
        if self.hardware() != Hardware::UB {
            return Err(SimError::new(
                Category::Position,
                api,
                format!(
                    "the LocalTensor is in {:?}: CACHELINE_UB refreshes UB data",
                    self.get_position()
                ),
            ));
        }
        Ok(match entire {
            CacheLine::ENTIRE_DATA_CACHE => 0,
            CacheLine::SINGLE_CACHE_LINE => {
                CACHE_LINE_BYTES - self.get_phy_addr() as u64 % CACHE_LINE_BYTES
            }
        })
    }
}

/// `DataCacheCleanAndInvalid<T, entireType, dcciDst>(dst)`: writes dirty data-cache lines back
/// and invalidates them — the line holding `dst`'s first byte, up to the next 64-byte boundary
/// (`SINGLE_CACHE_LINE`), or the whole data cache (`ENTIRE_DATA_CACHE`). `dcci_dst = None` is the
/// prototype without `dcciDst` (GM; the only form on 310P). `CACHELINE_ATOMIC` is refused (not
/// yet supported on these products). Returns the bytes refreshed from `dst` (0 for the whole
/// cache); the data is unchanged, GM being coherent here.
#[track_caller]
pub fn data_cache_clean_and_invalid<D: DcciTarget>(
    dst: &D,
    entire_type: CacheLine,
    dcci_dst: Option<DcciDst>,
) -> Result<u64> {
    const API: &str = "DataCacheCleanAndInvalid";
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        require(core, API)?;
        match dcci_dst {
            Some(_) if core.profile.product == Product::Ascend310P => {
                return Err(SimError::new(
                    Category::Unsupported,
                    API,
                    format!(
                        "{} has only the prototype without dcciDst (DataCacheCleanAndInvalid<T, entireType>(GlobalTensor))",
                        core.profile
                    ),
                ))
            }
            Some(DcciDst::CACHELINE_ATOMIC) => {
                return Err(SimError::new(
                    Category::Unsupported,
                    API,
                    format!("DcciDst::CACHELINE_ATOMIC is not yet supported on {}", core.profile),
                ))
            }
            _ => {}
        }
        let bytes = dst.dcci_check(API, entire_type, dcci_dst)?;
        core.issue(Pipe::S, API, loc, &[]);
        Ok(bytes)
    })
}

/// ICache bytes of a core kind on A2/A3: 32 KiB on a cube core, 16 KiB on a vector core.
fn icache_bytes(core: &Core) -> i64 {
    if core.id.kind == CoreKind::Aic {
        32 * 1024
    } else {
        16 * 1024
    }
}

/// `ICachePreLoad(preFetchLen)`: preloads instructions into the instruction cache. On A2/A3
/// `preFetchLen` is in 2 KiB units and must be below ICache size / 2 KiB (16 on a cube core, 8 on
/// a vector core); on 310P it is ignored (128 bytes are loaded).
#[track_caller]
pub fn icache_preload(pre_fetch_len: i64) -> Result<()> {
    const API: &str = "ICachePreLoad";
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        require(core, API)?;
        if core.profile.product != Product::Ascend310P {
            let limit = icache_bytes(core) / 2048;
            if !(0..limit).contains(&pre_fetch_len) {
                return Err(SimError::range(
                    API,
                    "preFetchLen",
                    pre_fetch_len,
                    format!(
                        "[0, {limit}) in 2 KiB units (ICache of {} KiB on this {} core)",
                        icache_bytes(core) / 1024,
                        if core.id.kind == CoreKind::Aic {
                            "cube"
                        } else {
                            "vector"
                        }
                    ),
                ));
            }
        }
        core.issue(Pipe::S, API, loc, &[]);
        Ok(())
    })
}

/// `GetICachePreloadStatus()`: 0 when the last `ICachePreLoad` has completed, 1 while it runs.
/// Preloads complete at once here, so the value is 0 (A2/A3).
#[track_caller]
pub fn get_icache_preload_status() -> Result<i64> {
    const API: &str = "GetICachePreloadStatus";
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        require(core, API)?;
        core.issue(Pipe::S, API, loc, &[]);
        Ok(0)
    })
}
