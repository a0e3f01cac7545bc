//! Cube-unit state of one core: the L0C unit flags that `unitFlag` Mmad/Fixpipe pairs hand over.

/// Bytes of L0C one unit flag covers.
pub const UNIT_BYTES: u64 = 512;

/// Per-core cube state.
#[derive(Debug, Default)]
pub struct CubeState {
    /// One flag per 512-byte unit of L0C: `true` once a Mmad with `unitFlag = 3` wrote it and
    /// until a Fixpipe with `unitFlag = 3` read it (absent units are `false`).
    unit_flags: Vec<bool>,
}

impl CubeState {
    /// The flag of the unit holding L0C byte `addr`.
    pub fn flag(&self, addr: u64) -> bool {
        self.unit_flags
            .get((addr / UNIT_BYTES) as usize)
            .copied()
            .unwrap_or(false)
    }

    /// Sets the flags of every unit in `[start, end)`.
    pub fn set_flags(&mut self, start: u64, end: u64, value: bool) {
        let (a, b) = (
            (start / UNIT_BYTES) as usize,
            end.div_ceil(UNIT_BYTES) as usize,
        );
        if self.unit_flags.len() < b {
            self.unit_flags.resize(b, false);
        }
        self.unit_flags[a..b].iter_mut().for_each(|f| *f = value);
    }
}
