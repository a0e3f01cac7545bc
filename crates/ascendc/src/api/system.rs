//! System state and queries: `GetSystemCycle`, `InitSocState`, the core-kind tests behind
//! `ASCEND_IS_AIV` / `ASCEND_IS_AIC`, and the kernel-type check of `KERNEL_TASK_TYPE`.

use super::context::{try_with_core, with_core};
use crate::core::trace::Pipe;
use crate::core::vector::VectorState;
use crate::core::CoreKind;
use crate::error::{Category, Result, SimError, SourceLoc};

/// `GetSystemCycle()`: the core's simulated cycle counter. The simulator has no timing model: the
/// counter is the number of instructions this core has issued so far on all pipes, this call
/// included (it is a `PIPE_S` instruction), so it increases strictly from call to call.
#[track_caller]
pub fn get_system_cycle() -> Result<i64> {
    let loc = SourceLoc::caller();
    with_core("GetSystemCycle", loc, |core| {
        core.issue(Pipe::S, "GetSystemCycle", loc, &[]);
        Ok(core.trace.counts().iter().sum::<u64>() as i64)
    })
}

/// `InitSocState()`: resets the core's vector state as the documentation's A2/A3 tables list:
/// normal mask mode and every mask bit set (the `SetDeqScale` factor and the fp16 saturation
/// mode are kept).
#[track_caller]
pub fn init_soc_state() -> Result<()> {
    let loc = SourceLoc::caller();
    with_core("InitSocState", loc, |core| {
        let reset = VectorState::new(core.vector.fp16_saturation);
        core.vector.mask = reset.mask;
        core.vector.counter_mode = reset.counter_mode;
        core.issue(Pipe::S, "InitSocState", loc, &[]);
        Ok(())
    })
}

/// `ASCEND_IS_AIV`: true on a vector core, and on a coupled AI Core (which runs vector
/// instructions itself); false on a cube core and outside a launch.
pub fn is_aiv() -> bool {
    try_with_core(|c| matches!(c.id.kind, CoreKind::Aiv | CoreKind::AiCore)).unwrap_or(false)
}

/// `ASCEND_IS_AIC`: true on a cube core, and on a coupled AI Core; false on a vector core and
/// outside a launch.
pub fn is_aic() -> bool {
    try_with_core(|c| matches!(c.id.kind, CoreKind::Aic | CoreKind::AiCore)).unwrap_or(false)
}

/// The kernel types of `KERNEL_TASK_TYPE_DEFAULT(value)` / `KERNEL_TASK_TYPE(key, value)`, in the
/// vendor's `KernelMetaType` order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum KernelMetaType {
    /// Vector cores only.
    KERNEL_TYPE_AIV_ONLY = 0,
    /// Cube cores only.
    KERNEL_TYPE_AIC_ONLY,
    /// Mixed kernel using only vector cores.
    KERNEL_TYPE_MIX_AIV_1_0,
    /// Mixed kernel using only cube cores.
    KERNEL_TYPE_MIX_AIC_1_0,
    /// One cube core with one vector core.
    KERNEL_TYPE_MIX_AIC_1_1,
    /// One cube core with two vector cores.
    KERNEL_TYPE_MIX_AIC_1_2,
    /// Coupled AI Core.
    KERNEL_TYPE_AICORE,
    /// Vector Core of the inference series.
    KERNEL_TYPE_VECTORCORE,
    /// AI Core and Vector Core mixed.
    KERNEL_TYPE_MIX_AICORE,
    /// Vector Core mixed.
    KERNEL_TYPE_MIX_VECTOR_CORE,
}

impl KernelMetaType {
    /// Every kernel type, indexed by its value.
    pub const ALL: [KernelMetaType; 10] = {
        use KernelMetaType::*;
        [
            KERNEL_TYPE_AIV_ONLY,
            KERNEL_TYPE_AIC_ONLY,
            KERNEL_TYPE_MIX_AIV_1_0,
            KERNEL_TYPE_MIX_AIC_1_0,
            KERNEL_TYPE_MIX_AIC_1_1,
            KERNEL_TYPE_MIX_AIC_1_2,
            KERNEL_TYPE_AICORE,
            KERNEL_TYPE_VECTORCORE,
            KERNEL_TYPE_MIX_AICORE,
            KERNEL_TYPE_MIX_VECTOR_CORE,
        ]
    };
}

/// The check behind `KERNEL_TASK_TYPE_DEFAULT(value)`: a kernel declared to run only on vector
/// cores must not be running on a cube core, and one declared cube-only not on a vector core (the
/// launch chose its cores with `SetKernelMode` / [`crate::Launch::kernel_mode`]).
#[track_caller]
pub fn kernel_task_type(value: KernelMetaType) -> Result<()> {
    use KernelMetaType::*;
    let loc = SourceLoc::caller();
    const API: &str = "KERNEL_TASK_TYPE";
    with_core(API, loc, |core| {
        let vector_only = matches!(
            value,
            KERNEL_TYPE_AIV_ONLY | KERNEL_TYPE_MIX_AIV_1_0 | KERNEL_TYPE_VECTORCORE
        );
        let cube_only = matches!(value, KERNEL_TYPE_AIC_ONLY | KERNEL_TYPE_MIX_AIC_1_0);
        let wrong = match core.id.kind {
            CoreKind::Aic => vector_only,
            CoreKind::Aiv => cube_only,
            CoreKind::AiCore => false,
        };
        if wrong {
            return Err(SimError::new(
                Category::Launch,
                API,
                format!(
                    "the kernel declares {value:?} but block {} runs on core {}: launch it in the matching kernel mode (SetKernelMode)",
                    core.block_idx, core.id
                ),
            ));
        }
        Ok(())
    })
}
