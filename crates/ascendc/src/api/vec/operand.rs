//! Operand checks shared by the data-rearranging vector instructions (gather, scatter, brcb,
//! transpose, sort): a UB tensor with its alignment, the byte range an instruction touches inside
//! it, and the trace record of a byte range.

use super::{check_empty, level0_mask, Issue};
use crate::api::tensor::LocalTensor;
use crate::core::trace::{Access, Space};
use crate::core::vector::{Enable, Shape};
use crate::core::Core;
use crate::dtype::Element;
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::position::Hardware;

/// A UB operand: its name in the documentation, first byte and length in bytes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ub {
    pub name: &'static str,
    pub addr: u64,
    pub len: u64,
}

impl Ub {
    /// Checks that `t` is a VECIN/VECCALC/VECOUT tensor whose start is `align`-byte aligned.
    pub fn of<T: Element>(
        api: &'static str,
        name: &'static str,
        t: &LocalTensor<T>,
        align: u64,
    ) -> Result<Ub> {
        if t.hw != Hardware::UB {
            return Err(SimError::new(
                Category::Position,
                api,
                format!(
                    "tensor `{name}` is in {} ({}); supported positions are VECIN/VECCALC/VECOUT (UB)",
                    t.pos, t.hw
                ),
            ));
        }
        if !(t.addr as u64).is_multiple_of(align) {
            return Err(SimError::align(
                api,
                &format!("tensor `{name}`"),
                t.addr as u64,
                align as u32,
                "UB",
            ));
        }
        Ok(Ub {
            name,
            addr: t.addr as u64,
            len: t.len as u64,
        })
    }

    /// One past the last byte.
    pub fn end(&self) -> u64 {
        self.addr + self.len
    }

    /// Checks that the instruction touches nothing past the tensor: `end` is one past the last
    /// byte it reads or writes.
    pub fn fits(&self, api: &'static str, end: u64, what: &str) -> Result<()> {
        if end > self.end() {
            return Err(SimError::new(
                Category::Size,
                api,
                format!(
                    "tensor `{}` is too small for {what}: the instruction touches {} bytes from its start, while the tensor has only {} bytes",
                    self.name,
                    end - self.addr,
                    self.len
                ),
            ));
        }
        Ok(())
    }

    /// The trace record of bytes `[lo, hi)`.
    pub fn access(write: bool, lo: u64, hi: u64) -> Access {
        Access::contiguous(write, Space::Local(Hardware::UB), lo, hi.saturating_sub(lo))
    }
}

/// The lane pattern of a level-0 call (mask written to the mask register, as `isSetMask` does)
/// or of a level-2 call (one counter-mode instruction over `count` elements); `None` when the
/// call does nothing (warned about).
pub(crate) fn plan(
    core: &mut Core,
    api: &'static str,
    loc: SourceLoc,
    lanes: u32,
    issue: Issue,
) -> Result<Option<Shape>> {
    match issue {
        Issue::Level0 { mask, repeat } => {
            let mut state = core.vector;
            state.mask = level0_mask(core, api, loc, lanes, mask)?;
            let shape = state.shape(lanes, repeat as u32);
            let run = check_empty(core, api, loc, lanes, &shape, repeat == 0)?;
            core.vector.mask = state.mask;
            Ok(run.then_some(shape))
        }
        Issue::KeepMask => {
            let shape = core.vector.shape(lanes, 1);
            Ok(check_empty(core, api, loc, lanes, &shape, false)?.then_some(shape))
        }
        Issue::Count(n) => {
            if !(0..=i32::MAX as i64).contains(&n) {
                return Err(SimError::range(api, "count", n, "[0, 2^31 − 1]"));
            }
            if n == 0 {
                core.warn(Category::Nop, api, "count = 0: the call does nothing", loc);
                return Ok(None);
            }
            Ok(Some(Shape {
                lanes,
                repeats: (n as u64).div_ceil(lanes as u64) as u32,
                enable: Enable::Counter(n as u64),
            }))
        }
    }
}

/// Reads `n` bytes at `at`.
pub(crate) fn bytes(ub: &[u8], at: u64, n: usize) -> &[u8] {
    &ub[at as usize..at as usize + n]
}

/// Reads a little-endian `u32` at `at`.
pub(crate) fn u32_at(ub: &[u8], at: u64) -> u32 {
    u32::from_le_bytes(bytes(ub, at, 4).try_into().unwrap_or([0; 4]))
}
