//! The four UB access-check registers of `CheckLocalMemoryIA`: while a register is enabled, a UB
//! access of a selected kind (scalar, vector or MTE; read or write) into its range is an AI Core
//! exception.

use super::trace::{Access, Pipe, Space};
use crate::error::{Category, SimError, SourceLoc};
use crate::position::Hardware;

/// One enabled check register.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IaRegister {
    /// Range start in 32-byte units, excluded.
    pub start_addr: u32,
    /// Range end in 32-byte units, included.
    pub end_addr: u32,
    /// Checked access kinds: scalar read, scalar write, vector read, vector write, MTE read, MTE
    /// write.
    pub kinds: [bool; 6],
    /// Where the register was enabled.
    pub set_at: SourceLoc,
}

impl IaRegister {
    /// The UB bytes checked: the 32-byte units `startAddr + 1 ..= endAddr`.
    pub fn bytes(&self) -> (u64, u64) {
        (
            (self.start_addr as u64 + 1) * 32,
            (self.end_addr as u64 + 1) * 32,
        )
    }
}

const KIND_NAMES: [&str; 6] = [
    "scalar read",
    "scalar write",
    "vector read",
    "vector write",
    "MTE read",
    "MTE write",
];

/// The check registers of a core and the first exception they raised, not yet reported.
#[derive(Debug, Clone, Default)]
pub struct IaChecks {
    regs: [Option<IaRegister>; 4],
    active: bool,
    fault: Option<SimError>,
}

impl IaChecks {
    /// Enables register `bit` with `reg`, or disables it (`None`).
    pub fn set(&mut self, bit: usize, reg: Option<IaRegister>) {
        self.regs[bit] = reg;
        self.active = self.regs.iter().any(Option::is_some);
    }

    /// The enabled registers.
    pub fn enabled(&self) -> impl Iterator<Item = (usize, &IaRegister)> {
        self.regs
            .iter()
            .enumerate()
            .filter_map(|(i, r)| r.as_ref().map(|r| (i, r)))
    }

    /// True when a register is enabled (the check runs only then).
    #[inline]
    pub fn active(&self) -> bool {
        self.active
    }

    /// Checks one instruction's accesses; the first hit becomes the pending exception.
    pub fn check(&mut self, pipe: Pipe, api: &'static str, accesses: &[Access]) {
        if self.fault.is_some() {
            return;
        }
        let unit = match pipe {
            Pipe::S => 0,
            Pipe::V => 2,
            Pipe::MTE1 | Pipe::MTE2 | Pipe::MTE3 => 4,
            _ => return,
        };
        for a in accesses {
            if a.space != Space::Local(Hardware::UB) {
                continue;
            }
            let kind = unit + a.write as usize;
            for (bit, reg) in self.regs.iter().enumerate() {
                let Some(reg) = reg.filter(|r| r.kinds[kind]) else {
                    continue;
                };
                let (lo, hi) = reg.bytes();
                if let Some((s, e)) = first_overlap(a, lo, hi) {
                    self.fault = Some(SimError::new(
                        Category::Memory,
                        api,
                        format!(
                            "AI Core exception: {} of UB bytes [{s}, {e}) on {pipe} falls in the range checked by CheckLocalMemoryIA register {bit} (startAddr {}, endAddr {}: UB bytes [{lo}, {hi})) enabled at {}",
                            KIND_NAMES[kind], reg.start_addr, reg.end_addr, reg.set_at
                        ),
                    ));
                    return;
                }
            }
        }
    }

    /// Takes the pending exception.
    pub fn take_fault(&mut self) -> Option<SimError> {
        self.fault.take()
    }
}

/// The first run of `a` overlapping bytes `[lo, hi)`, clipped to them.
fn first_overlap(a: &Access, lo: u64, hi: u64) -> Option<(u64, u64)> {
    for r in 0..a.repeats as u64 {
        for b in 0..a.blocks as u64 {
            let s = a.base + r * a.repeat_stride + b * a.block_stride;
            let e = s + a.len as u64;
            if s < hi && e > lo {
                return Some((s.max(lo), e.min(hi)));
            }
        }
    }
    None
}
