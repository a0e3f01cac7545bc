//! Logical positions (`TPosition`) and the physical buffers they map onto.

use std::fmt;

/// Ascend C logical positions, numbered as in `TPosition` (`GM = 0` … `C2PIPE2LOCAL = 15`; one
/// byte, as foreign front ends hold it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(clippy::upper_case_acronyms)]
#[repr(u8)]
pub enum TPosition {
    /// Global memory.
    GM = 0,
    /// Whole left matrix A (L1).
    A1,
    /// Tile of A ready for the cube (L0A).
    A2,
    /// Whole right matrix B (L1).
    B1,
    /// Tile of B (L0B).
    B2,
    /// Whole bias matrix.
    C1,
    /// Tile of bias.
    C2,
    /// Matmul result tile (L0C).
    CO1,
    /// Matmul result after the move-out.
    CO2,
    /// Vector input staging (UB).
    VECIN,
    /// Vector output staging (UB).
    VECOUT,
    /// Vector scratch (UB).
    VECCALC,
    /// Spill area.
    SPM,
    /// L1 area the vector side fills for Matmul.
    TSCM,
    /// Fixpipe quantisation parameters.
    C2PIPE2GM,
    /// Reserved.
    C2PIPE2LOCAL,
}

impl TPosition {
    /// Alias of [`TPosition::VECCALC`].
    pub const LCM: TPosition = TPosition::VECCALC;
    /// Alias of [`TPosition::SPM`].
    pub const SHM: TPosition = TPosition::SPM;

    /// True for VECIN, VECOUT and VECCALC.
    pub const fn is_vector(self) -> bool {
        matches!(
            self,
            TPosition::VECIN | TPosition::VECOUT | TPosition::VECCALC
        )
    }
}

impl fmt::Display for TPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// Physical memories of an AI core, plus GM (one byte, numbered as listed from `GM = 0`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(clippy::upper_case_acronyms)]
#[repr(u8)]
pub enum Hardware {
    /// Global memory.
    GM = 0,
    /// Unified Buffer.
    UB,
    /// L1 buffer.
    L1,
    /// Left-matrix cube buffer.
    L0A,
    /// Right-matrix cube buffer.
    L0B,
    /// Cube accumulator buffer.
    L0C,
    /// Bias table.
    BIAS,
    /// Fixpipe buffer.
    FIXBUF,
}

impl Hardware {
    /// The on-chip memories, in order (index = `self as usize - 1`).
    pub const LOCAL: [Hardware; 7] = [
        Hardware::UB,
        Hardware::L1,
        Hardware::L0A,
        Hardware::L0B,
        Hardware::L0C,
        Hardware::BIAS,
        Hardware::FIXBUF,
    ];

    /// Index into per-local-buffer tables (`None` for GM).
    pub const fn local_index(self) -> Option<usize> {
        match self {
            Hardware::GM => None,
            h => Some(h as usize - 1),
        }
    }
}

impl fmt::Display for Hardware {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// A queue position as a type, for `TQue<QuePosition::VECIN, 1>`.
pub trait QuePos: Send + Sync + 'static {
    /// The position this type stands for.
    const POS: TPosition;
}

/// Queue positions as types, so a queue is declared as in Ascend C: `TQue<QuePosition::VECIN, 1>`.
#[allow(non_snake_case)]
pub mod QuePosition {
    use super::{QuePos, TPosition};
    macro_rules! positions {
        ($($name:ident),*) => {$(
            #[doc = concat!("The `", stringify!($name), "` position as a type.")]
            #[derive(Debug, Clone, Copy)]
            #[allow(clippy::upper_case_acronyms)]
            pub struct $name;
            impl QuePos for $name {
                const POS: TPosition = TPosition::$name;
            }
        )*};
    }
    positions!(GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, SPM, TSCM, C2PIPE2GM);
}
