//! `WriteGmByPassDCache` / `ReadGmByPassDCache`: one scalar GM access that does not go through
//! the scalar data cache. GM is coherent in the simulator, so the value is the one GM holds; the
//! access is recorded on the scalar pipe like `GlobalTensor::GetValue` / `SetValue`, so the
//! hazard and race checks see it.

use super::context::with_core;
use super::sys_support::require;
use crate::core::dma::{self, Endpoint};
use crate::core::trace::{Access, Pipe, Space};
use crate::core::Core;
use crate::dtype::{DType, DTypeSet, Element};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::gm::GmAddr;

/// Element types of both calls: the 8- to 64-bit integers.
pub const GM_BYPASS_TYPES: DTypeSet = DTypeSet::of(&[
    DType::Int8,
    DType::Uint8,
    DType::Int16,
    DType::Uint16,
    DType::Int32,
    DType::Uint32,
    DType::Int64,
    DType::Uint64,
]);

fn check<T: Element>(core: &Core, api: &'static str, addr: &GmAddr) -> Result<()> {
    require(core.profile, api, api)?;
    if !GM_BYPASS_TYPES.contains(T::DTYPE) {
        return Err(SimError::new(
            Category::Type,
            api,
            format!(
                "T = {} is not supported (supported: {GM_BYPASS_TYPES})",
                T::DTYPE
            ),
        ));
    }
    let (off, len) = (addr.offset() as u64, addr.region_len() as u64);
    if off + T::SIZE as u64 > len {
        return Err(SimError::new(
            Category::Memory,
            api,
            format!(
                "`addr` is byte {off} of a {len}-byte GM allocation: the {}-byte {} there runs past its end",
                T::SIZE,
                T::DTYPE
            ),
        ));
    }
    Ok(())
}

fn access<T: Element>(write: bool, addr: &GmAddr) -> Access {
    Access::contiguous(
        write,
        Space::Gm(addr.region_id()),
        addr.offset() as u64,
        T::SIZE as u64,
    )
}

/// `WriteGmByPassDCache<T>(addr, value)`: stores `value` at GM address `addr` (a byte address
/// inside a GM allocation) on the scalar pipe. `T`: int8 … uint64. A2/A3 only.
#[track_caller]
pub fn write_gm_by_pass_dcache<T: Element>(addr: &GmAddr, value: T) -> Result<()> {
    const API: &str = "WriteGmByPassDCache";
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        check::<T>(core, API, addr)?;
        dma::write(core, API, Endpoint::Gm(addr, 0), bytemuck::bytes_of(&value))?;
        core.issue(Pipe::S, API, loc, &[access::<T>(true, addr)]);
        Ok(())
    })
}

/// `ReadGmByPassDCache<T>(addr)`: the `T` at GM address `addr`, read on the scalar pipe.
/// `T`: int8 … uint64. A2/A3 only.
#[track_caller]
pub fn read_gm_by_pass_dcache<T: Element>(addr: &GmAddr) -> Result<T> {
    const API: &str = "ReadGmByPassDCache";
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        check::<T>(core, API, addr)?;
        let mut v = T::default();
        dma::read(
            core,
            API,
            Endpoint::Gm(addr, 0),
            bytemuck::bytes_of_mut(&mut v),
        )?;
        core.issue(Pipe::S, API, loc, &[access::<T>(false, addr)]);
        Ok(v)
    })
}
