//! The instruction record: every API call executes as one or more instructions on a named pipe,
//! each listing the memory it reads and writes. The hazard checker and timing model read this.

use crate::error::SourceLoc;
use crate::position::Hardware;
use std::fmt;

/// The execution pipes of an AI core.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(clippy::upper_case_acronyms)]
pub enum Pipe {
    /// Scalar unit.
    S = 0,
    /// Vector unit.
    V,
    /// Cube unit.
    M,
    /// L1 → L0A/L0B/BT moves.
    MTE1,
    /// GM → local moves.
    MTE2,
    /// Local → GM moves.
    MTE3,
    /// Fixpipe (L0C → GM/L1, L1 → FB).
    FIX,
    /// Every pipe (barriers only).
    ALL,
}

impl Pipe {
    /// All pipes, in `Pipe as usize` order.
    pub const ALL_PIPES: [Pipe; 8] = [
        Pipe::S,
        Pipe::V,
        Pipe::M,
        Pipe::MTE1,
        Pipe::MTE2,
        Pipe::MTE3,
        Pipe::FIX,
        Pipe::ALL,
    ];

    /// The Ascend C spelling (`PIPE_MTE2`, …).
    pub const fn c_name(self) -> &'static str {
        match self {
            Pipe::S => "PIPE_S",
            Pipe::V => "PIPE_V",
            Pipe::M => "PIPE_M",
            Pipe::MTE1 => "PIPE_MTE1",
            Pipe::MTE2 => "PIPE_MTE2",
            Pipe::MTE3 => "PIPE_MTE3",
            Pipe::FIX => "PIPE_FIX",
            Pipe::ALL => "PIPE_ALL",
        }
    }
}

impl fmt::Display for Pipe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.c_name())
    }
}

/// Hardware events (`HardEvent`): the second pipe waits for the first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(non_camel_case_types, clippy::upper_case_acronyms, missing_docs)]
pub enum HardEvent {
    MTE2_MTE1 = 0,
    MTE1_MTE2,
    MTE1_M,
    M_MTE1,
    MTE2_V,
    V_MTE2,
    MTE3_V,
    V_MTE3,
    M_V,
    V_M,
    V_V,
    MTE3_MTE1,
    MTE1_MTE3,
    MTE1_V,
    MTE2_M,
    M_MTE2,
    V_MTE1,
    M_FIX,
    FIX_M,
    MTE3_MTE2,
    MTE2_MTE3,
    S_V,
    V_S,
    S_MTE2,
    MTE2_S,
    S_MTE3,
    MTE3_S,
    MTE2_FIX,
    FIX_MTE2,
    FIX_S,
    M_S,
    FIX_MTE3,
    MTE1_FIX,
    FIX_MTE1,
    FIX_FIX,
}

impl HardEvent {
    /// Number of event kinds.
    pub const COUNT: usize = 35;

    /// The (setting, waiting) pipes of the event.
    pub const fn pipes(self) -> (Pipe, Pipe) {
        use HardEvent::*;
        use Pipe::*;
        match self {
            MTE2_MTE1 => (MTE2, MTE1),
            MTE1_MTE2 => (MTE1, MTE2),
            MTE1_M => (MTE1, M),
            M_MTE1 => (M, MTE1),
            MTE2_V => (MTE2, V),
            V_MTE2 => (V, MTE2),
            MTE3_V => (MTE3, V),
            V_MTE3 => (V, MTE3),
            M_V => (M, V),
            V_M => (V, M),
            V_V => (V, V),
            MTE3_MTE1 => (MTE3, MTE1),
            MTE1_MTE3 => (MTE1, MTE3),
            MTE1_V => (MTE1, V),
            MTE2_M => (MTE2, M),
            M_MTE2 => (M, MTE2),
            V_MTE1 => (V, MTE1),
            M_FIX => (M, FIX),
            FIX_M => (FIX, M),
            MTE3_MTE2 => (MTE3, MTE2),
            MTE2_MTE3 => (MTE2, MTE3),
            S_V => (S, V),
            V_S => (V, S),
            S_MTE2 => (S, MTE2),
            MTE2_S => (MTE2, S),
            S_MTE3 => (S, MTE3),
            MTE3_S => (MTE3, S),
            MTE2_FIX => (MTE2, FIX),
            FIX_MTE2 => (FIX, MTE2),
            FIX_S => (FIX, S),
            M_S => (M, S),
            FIX_MTE3 => (FIX, MTE3),
            MTE1_FIX => (MTE1, FIX),
            FIX_MTE1 => (FIX, MTE1),
            FIX_FIX => (FIX, FIX),
        }
    }
}

/// Which memory an access touches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Space {
    /// A GM allocation, by region id.
    Gm(u64),
    /// An on-chip memory of the core.
    Local(Hardware),
}

/// A two-level strided byte pattern: `repeats` groups, each of `blocks` runs of `len` bytes.
/// Run `(r, b)` starts at `base + r·repeat_stride + b·block_stride`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Access {
    /// True for a write, false for a read.
    pub write: bool,
    /// The memory.
    pub space: Space,
    /// First byte.
    pub base: u64,
    /// Bytes per run.
    pub len: u32,
    /// Runs per group.
    pub blocks: u32,
    /// Bytes between run starts inside a group.
    pub block_stride: u64,
    /// Number of groups.
    pub repeats: u32,
    /// Bytes between group starts.
    pub repeat_stride: u64,
}

impl Access {
    /// One contiguous run of `len` bytes.
    pub fn contiguous(write: bool, space: Space, base: u64, len: u64) -> Access {
        Access {
            write,
            space,
            base,
            len: len.min(u32::MAX as u64) as u32,
            blocks: 1,
            block_stride: 0,
            repeats: 1,
            repeat_stride: 0,
        }
    }

    /// First byte past the pattern's furthest run (`base` when empty).
    pub fn end(&self) -> u64 {
        if self.len == 0 || self.blocks == 0 || self.repeats == 0 {
            return self.base;
        }
        self.base
            + (self.repeats as u64 - 1) * self.repeat_stride
            + (self.blocks as u64 - 1) * self.block_stride
            + self.len as u64
    }

    /// Total bytes moved (runs × len; overlapping runs count twice).
    pub fn bytes(&self) -> u64 {
        self.len as u64 * self.blocks as u64 * self.repeats as u64
    }
}

/// What an instruction does besides touching memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InstrKind {
    /// Data movement or computation.
    Op,
    /// `PipeBarrier<pipe>`.
    Barrier,
    /// `SetFlag<event>(id)`.
    SetFlag(HardEvent, u32),
    /// `WaitFlag<event>(id)`.
    WaitFlag(HardEvent, u32),
}

/// One recorded instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Instr {
    /// Pipe it runs on.
    pub pipe: Pipe,
    /// API that issued it.
    pub api: &'static str,
    /// Kind.
    pub kind: InstrKind,
    /// Kernel source line of the API call.
    pub location: SourceLoc,
    /// Lanes per repeat of a vector instruction (`256 / widest element size` bytes, at most 128;
    /// 0 for other instructions): the timing model's key for per-type throughput.
    pub lanes: u16,
    accesses: (u32, u32),
}

/// One entry of the GM footprint: GM bytes an instruction (or a run of instructions from one
/// call site between two synchronisations, whose contiguous accesses were merged) touched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GmTouch {
    /// The pattern (its `space` is the GM allocation).
    pub access: Access,
    /// Sequence number of the first instruction (its index in the full record when one is kept).
    pub seq: u32,
    /// API that issued it.
    pub api: &'static str,
    /// Kernel source line of the API call.
    pub location: SourceLoc,
    epoch: u32,
}

/// The per-core instruction record.
#[derive(Debug, Clone, Default)]
pub struct Trace {
    enabled: bool,
    instrs: Vec<Instr>,
    accesses: Vec<Access>,
    counts: [u64; 8],
    seq: u32,
    gm_log: bool,
    gm: Vec<GmTouch>,
    /// Per (allocation, write): the index in `gm` of the last entry, the one a contiguous next
    /// access may extend.
    gm_last: Vec<(u64, bool, usize)>,
    epoch: u32,
}

impl Trace {
    /// A trace that keeps full records when `enabled`, otherwise only per-pipe counts.
    pub fn new(enabled: bool) -> Trace {
        Trace {
            enabled,
            ..Trace::default()
        }
    }

    /// [`Trace::new`], also keeping the GM footprint (for the inter-core race check) when
    /// `gm_log`.
    pub fn with_gm_log(enabled: bool, gm_log: bool) -> Trace {
        Trace {
            enabled,
            gm_log,
            ..Trace::default()
        }
    }

    /// Sequence number the next instruction gets: the number issued so far.
    pub fn seq(&self) -> u32 {
        self.seq
    }

    /// Ends the current merge window of the GM footprint: accesses after a synchronisation or an
    /// atomic-mode change are never merged with earlier ones.
    pub fn gm_fence(&mut self) {
        self.epoch = self.epoch.wrapping_add(1);
    }

    /// The GM footprint (empty unless kept).
    pub fn gm_touches(&self) -> &[GmTouch] {
        &self.gm
    }

    #[inline(never)]
    fn log_gm(&mut self, api: &'static str, location: SourceLoc, accesses: &[Access]) {
        for a in accesses {
            let Space::Gm(region) = a.space else {
                continue;
            };
            if a.len == 0 || a.blocks == 0 || a.repeats == 0 {
                continue;
            }
            let slot = self
                .gm_last
                .iter()
                .position(|&(r, w, _)| r == region && w == a.write);
            if let Some(k) = slot {
                if a.blocks == 1
                    && a.repeats == 1
                    && self.extend(self.gm_last[k].2, api, location, a)
                {
                    continue;
                }
            }
            let idx = self.gm.len();
            self.gm.push(GmTouch {
                access: *a,
                seq: self.seq,
                api,
                location,
                epoch: self.epoch,
            });
            match slot {
                Some(k) => self.gm_last[k].2 = idx,
                None => self.gm_last.push((region, a.write, idx)),
            }
        }
    }

    /// Grows footprint entry `i` by the contiguous run `a` when both come from the same call
    /// site in the same merge window and `a` starts where the entry ends.
    #[inline]
    fn extend(&mut self, i: usize, api: &'static str, location: SourceLoc, a: &Access) -> bool {
        let last = &mut self.gm[i];
        let l = &last.access;
        // Same call site, compared by address (a site is one string in the binary).
        if last.epoch != self.epoch
            || l.blocks != 1
            || l.repeats != 1
            || l.base + l.len as u64 != a.base
            || last.location.line != location.line
            || last.location.column != location.column
            || !std::ptr::eq(last.api, api)
            || !std::ptr::eq(last.location.file, location.file)
        {
            return false;
        }
        match l.len.checked_add(a.len) {
            Some(len) => {
                last.access.len = len;
                true
            }
            None => false,
        }
    }

    /// Records one instruction.
    #[inline]
    pub fn record(
        &mut self,
        pipe: Pipe,
        api: &'static str,
        kind: InstrKind,
        location: SourceLoc,
        accesses: &[Access],
    ) {
        self.record_lanes(pipe, api, kind, location, accesses, 0);
    }

    /// Records one instruction with its lanes per repeat (vector instructions).
    #[inline]
    pub fn record_lanes(
        &mut self,
        pipe: Pipe,
        api: &'static str,
        kind: InstrKind,
        location: SourceLoc,
        accesses: &[Access],
        lanes: u16,
    ) {
        self.counts[pipe as usize] += 1;
        if self.gm_log && !accesses.is_empty() {
            self.log_gm(api, location, accesses);
        }
        self.seq = self.seq.wrapping_add(1);
        if self.enabled {
            self.push(pipe, api, kind, location, accesses, lanes);
        }
    }

    #[inline(never)]
    fn push(
        &mut self,
        pipe: Pipe,
        api: &'static str,
        kind: InstrKind,
        location: SourceLoc,
        accesses: &[Access],
        lanes: u16,
    ) {
        let start = self.accesses.len() as u32;
        self.accesses.extend_from_slice(accesses);
        self.instrs.push(Instr {
            pipe,
            api,
            kind,
            location,
            lanes,
            accesses: (start, self.accesses.len() as u32),
        });
    }

    /// Counts `n` instructions on `pipe` without recording them (only valid while the record
    /// is off: a kept record must list every instruction).
    pub fn count(&mut self, pipe: Pipe, n: u64) {
        debug_assert!(!self.enabled, "a kept record must list every instruction");
        self.counts[pipe as usize] += n;
        self.seq = self.seq.wrapping_add(n as u32);
    }

    /// True when full records are kept.
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// Instructions issued per pipe, indexed by `Pipe as usize`.
    pub fn counts(&self) -> [u64; 8] {
        self.counts
    }

    /// The recorded instructions (empty when recording was off).
    pub fn instructions(&self) -> &[Instr] {
        &self.instrs
    }

    /// The memory accesses of one recorded instruction.
    pub fn accesses(&self, instr: &Instr) -> &[Access] {
        &self.accesses[instr.accesses.0 as usize..instr.accesses.1 as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn access_extent() {
        let a = Access {
            write: true,
            space: Space::Local(Hardware::UB),
            base: 64,
            len: 256,
            blocks: 2,
            block_stride: 288,
            repeats: 1,
            repeat_stride: 0,
        };
        assert_eq!(a.end(), 64 + 288 + 256);
        assert_eq!(a.bytes(), 512);
    }

    #[test]
    fn counts_without_records() {
        let mut t = Trace::new(false);
        let loc = SourceLoc::caller();
        t.record(Pipe::V, "Add", InstrKind::Op, loc, &[]);
        assert_eq!(t.counts()[Pipe::V as usize], 1);
        assert!(t.instructions().is_empty());
        let mut t = Trace::new(true);
        let acc = [Access::contiguous(false, Space::Gm(1), 0, 32)];
        t.record(Pipe::MTE2, "DataCopy", InstrKind::Op, loc, &acc);
        assert_eq!(t.accesses(&t.instructions()[0]), &acc);
    }
}
