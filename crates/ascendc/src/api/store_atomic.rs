//! `SetStoreAtomicConfig` / `GetStoreAtomicConfig`: the GM atomic state of `SetAtomicAdd` /
//! `SetAtomicType` / `DisableDmaAtomic` as the numeric codes of the store-atomic configuration
//! (element type code and operation code).

use super::context::with_core;
use super::sys_support::require;
use crate::core::trace::Pipe;
use crate::dtype::DType;
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::multicore::api::set_atomic;
use crate::multicore::atomic;

/// The atomic element type of `SetStoreAtomicConfig` (`AtomicDtype`); the discriminant is the
/// code `GetStoreAtomicConfig` returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)]
#[repr(u16)]
pub enum AtomicDtype {
    /// No atomic operation: later GM writes overwrite.
    ATOMIC_NONE = 0,
    /// float.
    ATOMIC_F32 = 1,
    /// half.
    ATOMIC_F16 = 2,
    /// int16_t.
    ATOMIC_S16 = 3,
    /// int32_t.
    ATOMIC_S32 = 4,
    /// int8_t.
    ATOMIC_S8 = 5,
    /// bfloat16_t.
    ATOMIC_BF16 = 6,
}

/// The atomic operation of `SetStoreAtomicConfig` (`AtomicOp`): only the sum exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)]
#[repr(u16)]
pub enum AtomicOp {
    /// GM ← GM + data.
    ATOMIC_SUM = 0,
}

impl AtomicDtype {
    /// The element type, `None` for `ATOMIC_NONE`.
    pub fn dtype(self) -> Option<DType> {
        Some(match self {
            AtomicDtype::ATOMIC_NONE => return None,
            AtomicDtype::ATOMIC_F32 => DType::Float,
            AtomicDtype::ATOMIC_F16 => DType::Half,
            AtomicDtype::ATOMIC_S16 => DType::Int16,
            AtomicDtype::ATOMIC_S32 => DType::Int32,
            AtomicDtype::ATOMIC_S8 => DType::Int8,
            AtomicDtype::ATOMIC_BF16 => DType::Bfloat16,
        })
    }

    /// The code of an element type (0 for types without one).
    fn code_of(t: DType) -> u16 {
        [
            AtomicDtype::ATOMIC_F32,
            AtomicDtype::ATOMIC_F16,
            AtomicDtype::ATOMIC_S16,
            AtomicDtype::ATOMIC_S32,
            AtomicDtype::ATOMIC_S8,
            AtomicDtype::ATOMIC_BF16,
        ]
        .into_iter()
        .find(|a| a.dtype() == Some(t))
        .map_or(0, |a| a as u16)
    }

    /// The enumerator with code `code` (0–6).
    pub fn from_code(code: u16) -> Option<AtomicDtype> {
        use AtomicDtype::*;
        [
            ATOMIC_NONE,
            ATOMIC_F32,
            ATOMIC_F16,
            ATOMIC_S16,
            ATOMIC_S32,
            ATOMIC_S8,
            ATOMIC_BF16,
        ]
        .into_iter()
        .find(|a| *a as u16 == code)
    }
}

/// `SetStoreAtomicConfig<type, op>()`: `ATOMIC_NONE` is `DisableDmaAtomic()`; any other type is
/// `SetAtomicAdd<T>()` with its element type (the product's SetAtomicAdd types). A2, A3, 310B.
#[track_caller]
pub fn set_store_atomic_config(ty: AtomicDtype, op: AtomicOp) -> Result<()> {
    const API: &str = "SetStoreAtomicConfig";
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| require(core.profile, API, API))?;
    let AtomicOp::ATOMIC_SUM = op;
    match ty.dtype() {
        None => set_atomic(API, loc, None, None),
        Some(t) => set_atomic(API, loc, Some(atomic::AtomicOp::Add), Some(t)),
    }
}

/// `GetStoreAtomicConfig(atomicType, atomicOp)`: the codes of the GM atomic state in force —
/// (`AtomicDtype` code, operation code: 0 sum, 1 max, 2 min). (0, 0) when no atomic is set.
/// A2, A3, 310B.
#[track_caller]
pub fn get_store_atomic_config() -> Result<(u16, u16)> {
    const API: &str = "GetStoreAtomicConfig";
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        require(core.profile, API, API)?;
        let st = core.sync.atomic;
        core.issue(Pipe::S, API, loc, &[]);
        let Some(op) = st.op else {
            return Ok((0, 0));
        };
        let ty = st.dtype.map_or(0, AtomicDtype::code_of);
        if ty == 0 {
            return Err(SimError::new(
                Category::Type,
                API,
                format!(
                    "the atomic in force works on {:?}, which has no AtomicDtype code",
                    st.dtype
                ),
            ));
        }
        let code = match op {
            atomic::AtomicOp::Add => 0,
            atomic::AtomicOp::Max => 1,
            atomic::AtomicOp::Min => 2,
        };
        Ok((ty, code))
    })
}
