//! The cube unit: `LoadData` (L1 → L0A/L0B on PIPE_MTE1), `Mmad` (L0A × L0B → L0C on PIPE_M),
//! `Fixpipe` and the `DataCopy` L0C forms with their registers (L0C → GM/L1 on PIPE_FIX), `Fill`
//! (L1/L0A/L0B set to a constant), `BroadCastVecToMM` (UB → L0C on PIPE_V) and the 4:2 sparse
//! `LoadDataWithSparse` / `MmadWithSparse`, with the fractal layouts of `layout` and the
//! per-product tables of `support`. docs/cube.md describes the numerics.

pub mod broadcast;
pub mod copy_out;
pub mod fill;
pub mod fixpipe;
pub mod fixpipe_regs;
pub mod layout;
pub mod load;
pub mod load3d;
pub mod load_gm;
pub mod mmad;
pub mod mode;
pub mod sparse;
pub mod support;

use crate::api::tensor::LocalTensor;
use crate::core::trace::{Access, Space};
use crate::core::Core;
use crate::dtype::TensorElement;
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::position::Hardware;

/// Checks that `t` lives in `hw` at one of `positions`, starts `align`-byte aligned and that the
/// `need` bytes the instruction touches from its start lie inside `hw`. Bytes past the tensor's
/// declared length but inside the buffer are what the device touches too (nothing bounds a
/// tensor inside L1/L0/BiasTable): a warning, once per call site, not an error.
#[allow(clippy::too_many_arguments)]
pub(crate) fn operand<T: TensorElement>(
    core: &mut Core,
    loc: SourceLoc,
    api: &'static str,
    role: &str,
    t: &LocalTensor<T>,
    hw: Hardware,
    positions: &str,
    align: u32,
    need: u64,
) -> Result<()> {
    if t.hw != hw {
        return Err(SimError::new(
            Category::Position,
            api,
            format!(
                "the {role} is {} in {}; it must be {positions} in {hw}",
                t.pos, t.hw
            ),
        ));
    }
    if !t.addr.is_multiple_of(align) {
        return Err(SimError::align(api, role, t.addr as u64, align, hw));
    }
    let end = t.addr as u64 + need;
    let size = core.mem.size(hw) as u64;
    if end > size {
        return Err(SimError::new(
            Category::Memory,
            api,
            format!(
                "the {role} ({}, {} bytes) must hold {need} bytes for these parameters and runs past the end \
                 of the {size}-byte {hw} (byte {end})",
                t.pos, t.len
            ),
        ));
    }
    if need > t.len as u64 {
        core.warn_once(
            Category::Size,
            api,
            role,
            format!(
                "these parameters touch {need} bytes of the {role} ({}), which is declared with {}: the \
                 instruction goes on into {hw} bytes {}..{end} past the tensor, as on the device",
                t.pos,
                t.len,
                t.addr as u64 + t.len as u64
            ),
            loc,
        );
    }
    Ok(())
}

/// Fails with the product's name when `ok` is false.
pub(crate) fn require(core: &Core, api: &'static str, ok: bool, what: &str) -> Result<()> {
    if ok {
        Ok(())
    } else {
        Err(SimError::new(
            Category::Unsupported,
            api,
            format!("{what} is not supported on {}", core.profile),
        ))
    }
}

/// A contiguous access of a local tensor's first `len` bytes.
pub(crate) fn local_access<T>(write: bool, t: &LocalTensor<T>, len: u64) -> Access {
    Access::contiguous(write, Space::Local(t.hw), t.addr as u64, len)
}
