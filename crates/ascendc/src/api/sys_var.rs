//! System variables and execution-unit dispatch: `GetDataBlockSizeInBytes`, `GetArchVersion`,
//! `GetProgramCounter`, `GetSubBlockNum` and `Async`.

use super::availability::require;
use super::context::with_core;
use crate::chip::{ARCH_VERSION, DATA_BLOCK_BYTES};
use crate::core::trace::Pipe;
use crate::core::CoreKind;
use crate::error::{Result, SourceLoc};

/// `GetDataBlockSizeInBytes()`: bytes of one DataBlock on the running product (32 on 910, 310P,
/// A2 and A3; refused on 310B, which the page does not list).
#[track_caller]
pub fn get_data_block_size_in_bytes() -> Result<i16> {
    const API: &str = "GetDataBlockSizeInBytes";
    with_core(API, SourceLoc::caller(), |core| {
        require(core, API)?;
        let p = core.profile.product;
        Ok(DATA_BLOCK_BYTES
            .iter()
            .find(|(q, _)| *q == p)
            .map_or(0, |(_, b)| *b))
    })
}

/// `GetArchVersion(coreVersion)`: the architecture version of the running product, hex-coded
/// (0x2002 on 310P, 0x2201 on A2/A3; print it with `%x`). A `PIPE_S` instruction.
#[track_caller]
pub fn get_arch_version() -> Result<u32> {
    const API: &str = "GetArchVersion";
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        require(core, API)?;
        core.issue(Pipe::S, API, loc, &[]);
        let p = core.profile.product;
        Ok(ARCH_VERSION
            .iter()
            .find(|(q, _)| *q == p)
            .map_or(0, |(_, v)| *v))
    })
}

/// The simulated program counter of a call site: a 31-bit hash of the source file in the upper
/// half and the line in the lower 32 bits, so one call site always reads the same value and
/// different sites different ones.
pub(crate) fn program_counter(loc: SourceLoc) -> i64 {
    let mut h: u32 = 0x811c_9dc5;
    for b in loc.file.bytes() {
        h = (h ^ b as u32).wrapping_mul(0x0100_0193);
    }
    (((h & 0x7fff_ffff) as i64) << 32) | loc.line as i64
}

/// `GetProgramCounter()`: the program counter at the call. The simulator has no instruction
/// addresses: the value identifies the call site (file hash in bits 32–62, line in bits 0–31).
/// A `PIPE_S` instruction (310P, A2, A3).
#[track_caller]
pub fn get_program_counter() -> Result<i64> {
    const API: &str = "GetProgramCounter";
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        require(core, API)?;
        core.issue(Pipe::S, API, loc, &[]);
        Ok(program_counter(loc))
    })
}

/// `GetSubBlockNum()`: cores of the running core's kind in one logical AI Core (A2/A3): 2 on the
/// vector cores of a 1:2 mixed launch, 1 on every other core.
#[track_caller]
pub fn get_sub_block_num() -> Result<i64> {
    const API: &str = "GetSubBlockNum";
    with_core(API, SourceLoc::caller(), |core| {
        require(core, API)?;
        Ok(match core.id.kind {
            CoreKind::Aic => 1,
            _ => core.id.task_ratio as i64,
        })
    })
}

/// The execution units of `Async` (`EngineType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(clippy::upper_case_acronyms)]
pub enum EngineType {
    /// The cube cores.
    AIC,
    /// The vector cores.
    AIV,
}

/// `Async<engine, func>(args…)`: runs `f` on the cores of `engine` only and skips it on the
/// others (A2/A3). Returns `f`'s result, `Ok(())` where skipped.
#[track_caller]
pub fn async_on(engine: EngineType, f: impl FnOnce() -> Result<()>) -> Result<()> {
    const API: &str = "Async";
    let kind = with_core(API, SourceLoc::caller(), |core| {
        require(core, API)?;
        Ok(core.id.kind)
    })?;
    let runs = match engine {
        EngineType::AIC => matches!(kind, CoreKind::Aic | CoreKind::AiCore),
        EngineType::AIV => matches!(kind, CoreKind::Aiv | CoreKind::AiCore),
    };
    if runs {
        f()
    } else {
        Ok(())
    }
}
