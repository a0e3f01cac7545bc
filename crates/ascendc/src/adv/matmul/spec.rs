//! What a kernel-side Matmul is declared with: the `MatmulType` of each operand (position,
//! format, element type, whether it may be transposed) and the parts of `MatmulConfig` that
//! change what the Matmul issues.

use super::tiling::CubeFormat;
use crate::dtype::DType;
use crate::position::TPosition;

/// One operand's `MatmulType<POSITION, FORMAT, TYPE, ISTRANS, LAYOUT, IBSHARE>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatType {
    /// Where the operand lives (GM, VECIN/VECOUT, TSCM, CO1).
    pub pos: TPosition,
    /// Its layout.
    pub format: CubeFormat,
    /// Its element type.
    pub dtype: DType,
    /// Transposition is allowed (the runtime flag of `SetTensorA/B` must not exceed it).
    pub trans: bool,
    /// `LayoutMode` (0: NONE, 1: BSNGD, 2: SBNGD, 3: BNGS1S2, 4: NORMAL).
    pub layout: u8,
    /// `IBShare`: the operand's L1 copy is shared by the vector cores of one AI Core.
    pub ib_share: bool,
    /// `SparseMatmulType`: a 4:2 densified int8 B that comes with an index matrix
    /// (`SetSparseIndex`).
    pub sparse: bool,
}

impl MatType {
    /// A GM, ND operand of `dtype`.
    pub fn gm(dtype: DType) -> MatType {
        MatType {
            pos: TPosition::GM,
            format: CubeFormat::ND,
            dtype,
            trans: false,
            layout: 0,
            ib_share: false,
            sparse: false,
        }
    }

    /// The same operand, transposable.
    pub fn transposable(mut self) -> MatType {
        self.trans = true;
        self
    }
}

/// The template a Matmul runs (the `MatmulConfig` flags `doNorm`, `doMultiDataLoad`, …).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Schedule {
    /// Norm (`CFG_NORM`): one `baseM × baseK` and one `baseK × baseN` tile per K step.
    Norm,
    /// MDL (`CFG_MDL`): `stepM·baseM × stepKa·baseK` and `stepKb·baseK × stepN·baseN` tiles.
    Mdl,
    /// IBShare Norm (`CFG_IBSHARE_NORM`).
    IbShareNorm,
    /// Special MDL, basic block: numerically the MDL walk.
    Other,
}

/// The walk over C's blocks (`IterateOrder`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IterateOrder {
    /// N groups outside, M inside.
    OrderM,
    /// M groups outside, N inside.
    OrderN,
    /// From the tiling's `iterateOrder`.
    Undef,
}

/// The behaviour-changing part of `MatmulConfig`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatmulConfig {
    /// The template.
    pub schedule: Schedule,
    /// The block walk.
    pub iterate_order: IterateOrder,
    /// Mmad and Fixpipe hand L0C over with unit flags (`enUnitFlag`).
    pub unit_flag: bool,
    /// Fixpipe applies ReLU (`enableRelu`).
    pub relu: bool,
    /// Each K step's partial block is an output of its own (`isPartialOutput`).
    pub partial_output: bool,
    /// A float NZ C in GM is written in 16 × 8 fractals (`isEnableChannelSplit`).
    pub channel_split: bool,
    /// A batch Matmul's bias has a batch axis (`isBiasBatch`).
    pub bias_batch: bool,
    /// The Matmul was declared with copy callbacks (`MatmulCallBackFunc` with a function): they
    /// are not run, the Matmul copies A and B itself (a warning at registration).
    pub callbacks: bool,
    /// The `MatmulPolicy`'s kind: 0 the default, 1 N_BUFFER_33, 2 upper triangular, 3 lower
    /// triangular (blocks below / above the diagonal of the core's window are not written).
    pub policy: u8,
    /// Constant tiling: (singleCoreM, singleCoreN, singleCoreK, baseM, baseN, baseK) from the
    /// config, zeros when the tiling comes at run time.
    pub shape: [u32; 6],
}

impl MatmulConfig {
    /// `CFG_NORM`.
    pub const NORM: MatmulConfig = MatmulConfig {
        schedule: Schedule::Norm,
        iterate_order: IterateOrder::Undef,
        unit_flag: true,
        relu: false,
        partial_output: false,
        channel_split: false,
        bias_batch: true,
        callbacks: false,
        policy: 0,
        shape: [0; 6],
    };

    /// `CFG_MDL`.
    pub const MDL: MatmulConfig = MatmulConfig {
        schedule: Schedule::Mdl,
        unit_flag: false,
        ..MatmulConfig::NORM
    };
}

/// A Matmul's declaration: the four operand types and the config.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatmulSpec {
    /// Left matrix A (M × K).
    pub a: MatType,
    /// Right matrix B (K × N).
    pub b: MatType,
    /// Result C (M × N).
    pub c: MatType,
    /// Bias (1 × N).
    pub bias: MatType,
    /// The config.
    pub cfg: MatmulConfig,
}

impl MatmulSpec {
    /// GM, ND operands of the given types with `CFG_NORM`.
    pub fn gm(a: DType, c: DType, bias: DType) -> MatmulSpec {
        MatmulSpec {
            a: MatType::gm(a).transposable(),
            b: MatType::gm(a).transposable(),
            c: MatType::gm(c),
            bias: MatType::gm(bias),
            cfg: MatmulConfig::NORM,
        }
    }
}
