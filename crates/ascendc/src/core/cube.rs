//! Cube-unit state of one core: the L0C unit flags that `unitFlag` Mmad/Fixpipe pairs hand over,
//! the Fixpipe registers the `DataCopy` L0C forms read, the sparse index buffer, the Mmad control
//! bits and the registers of `LoadData` for convolution.

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
    /// The sparse index buffer (a quarter of L0B) `LoadDataWithSparse` fills; `None` for bytes
    /// never loaded.
    sparse_index: Vec<Option<u8>>,
    /// HF32 mode: float Mmad inputs rounded to HF32.
    pub hf32: bool,
    /// HF32 rounding ties away from zero (`NEAREST_ZERO`) instead of to even.
    pub hf32_away: bool,
    /// Mmad produces results along N first (`SetMMRowMajor`).
    pub mm_row_major: bool,
    /// The registers of `LoadData` for convolution.
    pub load3d: Load3dRegs,
}

/// The registers of `LoadData` for convolution: written by `SetFmatrix`,
/// `SetLoadDataPaddingValue`, `SetLoadDataRepeat`, `SetLoadDataBoundary` and by the loads that set
/// their own feature map and pad value.
#[derive(Debug, Clone, Copy)]
pub struct Load3dRegs {
    /// FMATRIX (left): `(l1H, l1W, padList)`.
    pub fmatrix: Option<(u16, u16, [u8; 4])>,
    /// The pad value, as the bits of the type it was set with (reset: 0).
    pub padding: u64,
    /// `(repeatStride, repeatTime, repeatMode)` (reset: one iteration).
    pub repeat: (u16, u8, u8),
    /// The L1 boundary in bytes (0: none).
    pub boundary: u32,
}

impl Default for Load3dRegs {
    fn default() -> Self {
        Load3dRegs {
            fmatrix: None,
            padding: 0,
            repeat: (0, 1, 0),
            boundary: 0,
        }
    }
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

    /// Byte `at` of the sparse index buffer, if loaded.
    pub fn sparse_index(&self, at: u64) -> Option<u8> {
        self.sparse_index.get(at as usize).copied().flatten()
    }

    /// Writes `bytes` at `at` of the sparse index buffer of `size` bytes.
    pub fn write_sparse_index(&mut self, at: u64, bytes: &[u8], size: u64) {
        if self.sparse_index.len() < size as usize {
            self.sparse_index.resize(size as usize, None);
        }
        let at = at as usize;
        for (d, &b) in self.sparse_index[at..at + bytes.len()]
            .iter_mut()
            .zip(bytes)
        {
            *d = Some(b);
        }
    }
}
