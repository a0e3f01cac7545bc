//! Cube-unit state of one core: the L0C unit flags that `unitFlag` Mmad/Fixpipe pairs hand over,
//! and the Fixpipe registers the `DataCopy` L0C forms read.

/// Bytes of L0C one unit flag covers.
pub const UNIT_BYTES: u64 = 512;

/// Per-core cube state.
#[derive(Debug, Default)]
pub struct CubeState {
    /// One flag per 512-byte unit of L0C: `true` once a Mmad with `unitFlag = 3` wrote it and
    /// until a Fixpipe with `unitFlag = 3` read it (absent units are `false`).
    unit_flags: Vec<bool>,
    /// The Fixpipe registers.
    pub fix: FixRegs,
}

/// The Fixpipe registers: written by `SetFixpipePreQuantFlag`, `SetFixpipeNz2ndFlag`,
/// `SetFixPipeConfig`, `SetFixPipeClipRelu`, `SetFixPipeAddr` and by `Fixpipe` itself, read by the
/// `DataCopy` L0C forms.
#[derive(Debug, Default, Clone, Copy)]
pub struct FixRegs {
    /// QUANT_PRE: the scalar quantisation word.
    pub quant_pre: Option<u64>,
    /// FPC QuantPreAddr: the Fixpipe-buffer byte address of the per-column quantisation words.
    pub quant_tensor: Option<u64>,
    /// ND_PARA: `(ndNum, srcNdStride, dstNdStride)` of NZ → ND.
    pub nd_para: Option<(u16, u16, u16)>,
    /// The ClipReLU maximum (half bits, Atlas 200I/500 A2).
    pub clip_relu: Option<u16>,
    /// The element-wise operand (Atlas 200I/500 A2): L1 byte address and C0-channel stride in
    /// 32-byte blocks.
    pub eltwise: Option<(u64, u16)>,
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

    /// Clears every unit flag (`SetFixPipeConfig` with `isUnitFlag`).
    pub fn clear_flags(&mut self) {
        self.unit_flags.clear();
    }
}
