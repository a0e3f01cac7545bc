//! Per-product facts of the cube unit: element types, the LoadData forms, Mmad options and the
//! Fixpipe parameter form, as data.

use crate::chip::{ChipProfile, Product};
use crate::dtype::{DType, DTypeSet};

/// The Fixpipe parameter structure a product takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FixpipeForm {
    /// `FixpipeParamsV220` (Atlas A2/A3).
    V220,
    /// `FixpipeParamsM300` (Atlas 200I/500 A2).
    M300,
}

/// What a product's cube unit does.
#[derive(Debug, Clone, Copy)]
pub struct CubeFacts {
    /// Element types of `LoadData` with `LoadData2DParams`.
    pub load2d_dtypes: DTypeSet,
    /// `LoadDataWithTranspose` exists.
    pub load_with_transpose: bool,
    /// `(fm, filter, dst)` element types `Mmad` accepts.
    pub mmad_types: &'static [(DType, DType, DType)],
    /// `Mmad` with a bias tensor (BiasTable) and `cmatrixSource` exist.
    pub mmad_bias: bool,
    /// `unitFlag` of Mmad/Fixpipe exists.
    pub unit_flag: bool,
    /// `kDirectionAlign = true` is allowed.
    pub k_direction_align: bool,
    /// The Fixpipe form, or `None` where L0C leaves through `DataCopy` CO1→CO2 instead.
    pub fixpipe: Option<FixpipeForm>,
    /// Element types of `Fill`.
    pub fill_dtypes: DTypeSet,
    /// `Fill` takes `blockNum` and `dstGap` (otherwise 512 contiguous bytes per iteration).
    pub fill_blocks: bool,
    /// `BroadCastVecToMM` (UB → L0C) exists.
    pub broadcast_vec_to_mm: bool,
    /// `LoadDataWithSparse` and `MmadWithSparse` exist.
    pub sparse: bool,
    /// The Mmad control bits (HF32, result order) exist.
    pub mmad_modes: bool,
}

use DType::*;

const LOAD_A2: DTypeSet = DTypeSet::of(&[
    Uint8, Int8, Uint16, Int16, Half, Bfloat16, Uint32, Int32, Float,
]);
const LOAD_COUPLED: DTypeSet = DTypeSet::of(&[Uint8, Int8, Uint16, Int16, Half]);
const FILL_A2: DTypeSet = DTypeSet::of(&[Int16, Uint16, Half, Bfloat16, Int32, Uint32, Float]);

static MMAD_A2: [(DType, DType, DType); 4] = [
    (Int8, Int8, Int32),
    (Half, Half, Float),
    (Float, Float, Float),
    (Bfloat16, Bfloat16, Float),
];
static MMAD_310P: [(DType, DType, DType); 5] = [
    (Int8, Int8, Int32),
    (Uint8, Int8, Int32),
    (Uint8, Uint8, Int32),
    (Half, Half, Half),
    (Half, Half, Float),
];
static MMAD_910: [(DType, DType, DType); 5] = [
    (Uint8, Uint8, Uint32),
    (Int8, Int8, Int32),
    (Uint8, Int8, Int32),
    (Half, Half, Half),
    (Half, Half, Float),
];

static A2: CubeFacts = CubeFacts {
    load2d_dtypes: LOAD_A2,
    load_with_transpose: true,
    mmad_types: &MMAD_A2,
    mmad_bias: true,
    unit_flag: true,
    k_direction_align: true,
    fixpipe: Some(FixpipeForm::V220),
    fill_dtypes: FILL_A2,
    fill_blocks: true,
    broadcast_vec_to_mm: false,
    sparse: true,
    mmad_modes: true,
};
static B310: CubeFacts = CubeFacts {
    unit_flag: false,
    sparse: false,
    k_direction_align: false,
    fixpipe: Some(FixpipeForm::M300),
    ..A2
};
static P310: CubeFacts = CubeFacts {
    load2d_dtypes: LOAD_COUPLED,
    load_with_transpose: false,
    mmad_types: &MMAD_310P,
    mmad_bias: false,
    unit_flag: false,
    k_direction_align: false,
    fixpipe: None,
    fill_dtypes: DTypeSet::of(&[Int16, Uint16, Half]),
    fill_blocks: false,
    broadcast_vec_to_mm: true,
    sparse: false,
    mmad_modes: false,
};
static T910: CubeFacts = CubeFacts {
    mmad_types: &MMAD_910,
    fill_dtypes: DTypeSet::of(&[Half]),
    broadcast_vec_to_mm: false,
    ..P310
};

/// The cube facts of a product.
pub fn cube_facts(profile: &ChipProfile) -> &'static CubeFacts {
    match profile.product {
        Product::Ascend910B | Product::Ascend910_93 => &A2,
        Product::Ascend310B => &B310,
        Product::Ascend310P => &P310,
        Product::Ascend910 => &T910,
    }
}
