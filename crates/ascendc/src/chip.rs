//! Chip profiles: everything that differs between products, as data — one profile per series
//! and one per SoC of a series ([`SOCS`]).

mod soc;

pub use soc::{by_arch, SOCS};

use crate::dtype::{DType, DTypeSet};
use crate::position::{Hardware, TPosition};
use std::fmt;

/// The products the simulator models.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Product {
    /// Atlas training series (Ascend 910, `__NPU_ARCH__` 1001).
    Ascend910,
    /// Atlas inference series AI Core (Ascend 310P, 2002).
    Ascend310P,
    /// Atlas A2 training / inference (Ascend 910B, 2201).
    Ascend910B,
    /// Atlas A3 training / inference (Ascend 910_93, 2201).
    Ascend910_93,
    /// Atlas 200I/500 A2 inference (Ascend 310B, 3002).
    Ascend310B,
}

/// Data paths of the DataCopy family whose availability differs per product.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DataPath {
    /// GM ↔ UB, level 0 and level 2.
    GmUb,
    /// UB → UB (VECIN/VECCALC → VECCALC/VECOUT).
    UbUb,
    /// GM → L1 (A1/B1).
    GmL1,
    /// UB → L1 (TSCM/A1/B1).
    UbL1,
    /// L1 → BiasTable.
    L1Bt,
    /// L1 → Fixpipe buffer.
    L1Fb,
    /// L1 → GM.
    L1Gm,
    /// CO2 → GM (CO2 in UB).
    Co2Gm,
    /// Enhanced CO1 → CO2 (L0C → UB).
    Co1Co2,
    /// Slice copy (`SliceInfo`).
    Slice,
    /// ND → NZ from GM to L1.
    Nd2NzGmL1,
    /// ND → NZ from GM to UB (emulated).
    Nd2NzGmUb,
    /// NZ → ND from UB to GM (emulated).
    Nz2NdUbGm,
    /// DataCopyPad between GM and UB.
    DataCopyPad,
    /// DataCopyPad UB → TSCM (through GM).
    DataCopyPadTscm,
}

impl DataPath {
    const fn bit(self) -> u32 {
        1 << (self as u32)
    }
}

/// A set of data paths.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PathSet(u32);

impl PathSet {
    /// Builds a set from a list.
    pub const fn of(paths: &[DataPath]) -> PathSet {
        let mut bits = 0;
        let mut i = 0;
        while i < paths.len() {
            bits |= paths[i].bit();
            i += 1;
        }
        PathSet(bits)
    }

    /// True when `p` is in the set.
    pub const fn contains(self, p: DataPath) -> bool {
        self.0 & p.bit() != 0
    }
}

/// One product's facts. Sizes in bytes.
#[derive(Debug, Clone)]
pub struct ChipProfile {
    /// The product.
    pub product: Product,
    /// Product name as the docs write it.
    pub name: &'static str,
    /// SoC short name (`Ascend910B`, …).
    pub soc: &'static str,
    /// `__NPU_ARCH__` number.
    pub npu_arch: u32,
    /// Capacity of each on-chip memory, indexed by [`Hardware::local_index`] (UB, L1, L0A, L0B, L0C, BT, FB).
    pub buffer_size: [u32; 7],
    /// Required start alignment of each on-chip memory, same indexing.
    pub buffer_align: [u32; 7],
    /// Physical buffer of each [`TPosition`] (indexed by the position's number); `None` where the
    /// product has no such position.
    pub position_map: [Option<Hardware>; 16],
    /// Number of AI Cores (AIC on separated products).
    pub ai_cores: u32,
    /// Number of vector cores (AIV on separated products; 0 where there are none).
    pub vector_cores: u32,
    /// Cube and vector are separate cores (A2/A3).
    pub separated: bool,
    /// Event IDs per hardware-event kind (`QUE_MAX_EVENT`).
    pub max_event_ids: u32,
    /// The vector mask has a counter mode.
    pub counter_mode: bool,
    /// The fp16 overflow mode can be switched to IEEE Inf/NaN at run time.
    pub fp16_inf_nan_switchable: bool,
    /// A zero blockCount/blockLen, repeat or mask is a no-op with a warning (A2/A3) instead of an error.
    pub zero_is_nop: bool,
    /// A vector mask that enables no lane is a no-op with a warning (A2/A3/310B) instead of an error.
    pub mask_zero_is_nop: bool,
    /// Data paths this product supports.
    pub paths: PathSet,
    /// Element types DataCopy moves between GM and UB.
    pub gm_ub_dtypes: DTypeSet,
    /// Element types DataCopyPad accepts.
    pub pad_dtypes: DTypeSet,
    /// Block count limit of the vendor CPU-debug launcher for vector-only launches.
    pub cpu_debug_max_blocks: u32,
    /// Block count limit of the vendor CPU-debug launcher for cube-only and mixed launches.
    pub cpu_debug_max_mix_blocks: u32,
    /// System workspace the launcher reserves in GM.
    pub workspace_bytes: u32,
}

const KB: u32 = 1024;

const BASE_TYPES: DTypeSet = DTypeSet::of(&[
    DType::Int8,
    DType::Uint8,
    DType::Int16,
    DType::Uint16,
    DType::Half,
    DType::Int32,
    DType::Uint32,
    DType::Float,
    DType::Int64,
    DType::Uint64,
    DType::Double,
]);
const WITH_BF16: DTypeSet = BASE_TYPES.union(DTypeSet::of(&[DType::Bfloat16]));
const PAD_310B: DTypeSet = DTypeSet::of(&[
    DType::Int8,
    DType::Uint8,
    DType::Half,
    DType::Bfloat16,
    DType::Int16,
    DType::Uint16,
    DType::Float,
    DType::Int32,
    DType::Uint32,
]);

use Hardware as H;

const fn map(c1: H, c2: H, co2: H, spm: H, c2pipe2gm: Option<H>) -> [Option<H>; 16] {
    [
        Some(H::GM),  // GM
        Some(H::L1),  // A1
        Some(H::L0A), // A2
        Some(H::L1),  // B1
        Some(H::L0B), // B2
        Some(c1),     // C1
        Some(c2),     // C2
        Some(H::L0C), // CO1
        Some(co2),    // CO2
        Some(H::UB),  // VECIN
        Some(H::UB),  // VECOUT
        Some(H::UB),  // VECCALC
        Some(spm),    // SPM
        Some(H::L1),  // TSCM
        c2pipe2gm,    // C2PIPE2GM
        None,         // C2PIPE2LOCAL
    ]
}

const COUPLED_ALIGN: [u32; 7] = [32, 32, 512, 512, 64, 64, 64];

/// Atlas training series (Ascend 910).
pub static ASCEND910: ChipProfile = TRAINING;

// The training-series facts, shared by its SoCs.
const TRAINING: ChipProfile = ChipProfile {
    product: Product::Ascend910,
    name: "Atlas training series",
    soc: "Ascend910",
    npu_arch: 1001,
    buffer_size: [256 * KB, 1024 * KB, 64 * KB, 64 * KB, 256 * KB, 0, 0],
    buffer_align: COUPLED_ALIGN,
    position_map: map(H::UB, H::L0C, H::UB, H::L1, None),
    ai_cores: 32,
    vector_cores: 0,
    separated: false,
    max_event_ids: 4,
    counter_mode: false,
    fp16_inf_nan_switchable: false,
    zero_is_nop: false,
    mask_zero_is_nop: false,
    paths: PathSet::of(&[
        DataPath::GmUb,
        DataPath::UbUb,
        DataPath::GmL1,
        DataPath::Co1Co2,
        DataPath::Slice,
        DataPath::Nd2NzGmL1,
        DataPath::Nz2NdUbGm,
    ]),
    gm_ub_dtypes: BASE_TYPES,
    pad_dtypes: DTypeSet::EMPTY,
    cpu_debug_max_blocks: 65535,
    cpu_debug_max_mix_blocks: 65535,
    workspace_bytes: 2 * 1024 * KB,
};

/// Atlas inference series AI Core (Ascend 310P).
pub static ASCEND310P: ChipProfile = INFERENCE;

// The inference-series facts, shared by its SoCs.
const INFERENCE: ChipProfile = ChipProfile {
    product: Product::Ascend310P,
    name: "Atlas inference series (AI Core)",
    soc: "Ascend310P",
    npu_arch: 2002,
    buffer_size: [256 * KB, 1024 * KB, 64 * KB, 64 * KB, 256 * KB, 0, 0],
    buffer_align: COUPLED_ALIGN,
    position_map: map(H::UB, H::L0C, H::UB, H::L1, None),
    ai_cores: 8,
    vector_cores: 7,
    separated: false,
    max_event_ids: 8,
    counter_mode: true,
    fp16_inf_nan_switchable: false,
    zero_is_nop: false,
    mask_zero_is_nop: false,
    paths: PathSet::of(&[
        DataPath::GmUb,
        DataPath::UbUb,
        DataPath::GmL1,
        DataPath::UbL1,
        DataPath::Co2Gm,
        DataPath::Co1Co2,
        DataPath::Slice,
        DataPath::Nd2NzGmL1,
        DataPath::Nd2NzGmUb,
        DataPath::Nz2NdUbGm,
    ]),
    gm_ub_dtypes: BASE_TYPES,
    pad_dtypes: DTypeSet::EMPTY,
    cpu_debug_max_blocks: 65535,
    cpu_debug_max_mix_blocks: 65535,
    workspace_bytes: 2 * 1024 * KB,
};

const A2_PATHS: PathSet = PathSet::of(&[
    DataPath::GmUb,
    DataPath::UbUb,
    DataPath::GmL1,
    DataPath::UbL1,
    DataPath::L1Bt,
    DataPath::L1Fb,
    DataPath::L1Gm,
    DataPath::Slice,
    DataPath::Nd2NzGmL1,
    DataPath::Nd2NzGmUb,
    DataPath::Nz2NdUbGm,
    DataPath::DataCopyPad,
    DataPath::DataCopyPadTscm,
]);
const A2_ALIGN: [u32; 7] = [32, 32, 512, 512, 64, 64, 64];
const A2_MAP: [Option<H>; 16] = map(H::L1, H::BIAS, H::GM, H::L1, Some(H::FIXBUF));

/// Atlas A2 training / inference (Ascend 910B). The default profile.
pub static ASCEND910B: ChipProfile = A2;

/// Atlas A3 training / inference (Ascend 910_93).
pub static ASCEND910_93: ChipProfile = A3;

const A2: ChipProfile = ChipProfile {
    name: "Atlas A2 training/inference series",
    soc: "Ascend910B",
    ..ASCEND910B_FIELDS
};

const A3: ChipProfile = ChipProfile {
    product: Product::Ascend910_93,
    name: "Atlas A3 training/inference series",
    soc: "Ascend910_93",
    ..ASCEND910B_FIELDS
};

// The A2/A3 facts, shared by both profiles.
const ASCEND910B_FIELDS: ChipProfile = ChipProfile {
    product: Product::Ascend910B,
    name: "",
    soc: "",
    npu_arch: 2201,
    buffer_size: [192 * KB, 512 * KB, 64 * KB, 64 * KB, 128 * KB, KB, 7 * KB],
    buffer_align: A2_ALIGN,
    position_map: A2_MAP,
    ai_cores: 24,
    vector_cores: 48,
    separated: true,
    max_event_ids: 8,
    counter_mode: true,
    fp16_inf_nan_switchable: true,
    zero_is_nop: true,
    mask_zero_is_nop: true,
    paths: A2_PATHS,
    gm_ub_dtypes: WITH_BF16,
    pad_dtypes: WITH_BF16,
    cpu_debug_max_blocks: 50,
    cpu_debug_max_mix_blocks: 25,
    workspace_bytes: 16 * 1024 * KB,
};

/// Atlas 200I/500 A2 inference (Ascend 310B).
pub static ASCEND310B: ChipProfile = INFERENCE_A2;

// The Atlas 200I/500 A2 facts, shared by its SoCs.
const INFERENCE_A2: ChipProfile = ChipProfile {
    product: Product::Ascend310B,
    name: "Atlas 200I/500 A2 inference series",
    soc: "Ascend310B",
    npu_arch: 3002,
    buffer_size: [248 * KB, 1024 * KB, 64 * KB, 64 * KB, 128 * KB, KB, 7 * KB],
    buffer_align: A2_ALIGN,
    position_map: map(H::L1, H::BIAS, H::GM, H::L1, Some(H::FIXBUF)),
    ai_cores: 1,
    vector_cores: 0,
    separated: false,
    max_event_ids: 8,
    counter_mode: true,
    fp16_inf_nan_switchable: false,
    zero_is_nop: false,
    mask_zero_is_nop: true,
    paths: PathSet::of(&[
        DataPath::GmUb,
        DataPath::Slice,
        DataPath::Nd2NzGmL1,
        DataPath::Nz2NdUbGm,
        DataPath::DataCopyPad,
    ]),
    gm_ub_dtypes: WITH_BF16,
    pad_dtypes: PAD_310B,
    cpu_debug_max_blocks: 65535,
    cpu_debug_max_mix_blocks: 65535,
    workspace_bytes: 16 * 1024 * KB,
};

/// The memories of a cube core (AIC) of a separated product (A2/A3): no Unified Buffer.
pub const AIC_BUFFERS: [Hardware; 6] = [
    Hardware::L1,
    Hardware::L0A,
    Hardware::L0B,
    Hardware::L0C,
    Hardware::BIAS,
    Hardware::FIXBUF,
];
/// The memories a vector core (AIV) of a separated product uses in a mixed launch: the Unified
/// Buffer, and L1 for the TSCM paths; no L0A/L0B/L0C, BiasTable or Fixpipe buffer.
pub const AIV_BUFFERS: [Hardware; 2] = [Hardware::UB, Hardware::L1];

impl ChipProfile {
    /// Every series profile, training 910 first.
    pub fn all() -> [&'static ChipProfile; 5] {
        [
            &ASCEND910,
            &ASCEND310P,
            &ASCEND910B,
            &ASCEND910_93,
            &ASCEND310B,
        ]
    }

    /// The default profile (Atlas A2, Ascend910B).
    pub fn default_profile() -> &'static ChipProfile {
        &ASCEND910B
    }

    /// Looks a profile up by name, case-insensitive: a series (`910`, `310P`, `910B`/`A2`,
    /// `910_93`/`A3`, `310B`, or their SoC version `Ascend910B`, …), a SoC of one
    /// (`Ascend910B3`, `Ascend310P1`, `Ascend910_9382`, … in [`SOCS`]) or an NPU architecture
    /// (`dav-2201`, `dav-m200`, …, [`by_arch`]).
    pub fn by_name(name: &str) -> Option<&'static ChipProfile> {
        let n = name.to_ascii_lowercase();
        let n = n.trim_start_matches("ascend");
        Some(match n {
            "910" | "training" => &ASCEND910,
            "310p" | "inference" => &ASCEND310P,
            "910b" | "a2" => &ASCEND910B,
            "910_93" | "a3" => &ASCEND910_93,
            "310b" | "200i" | "500a2" => &ASCEND310B,
            _ => return soc::by_soc_name(name).or_else(|| by_arch(name)),
        })
    }

    /// Every name [`ChipProfile::by_name`] accepts, for error messages.
    pub fn accepted_names() -> String {
        soc::accepted_names()
    }

    /// The series profile this profile belongs to (itself for a series).
    pub fn series(&self) -> &'static ChipProfile {
        match self.product {
            Product::Ascend910 => &ASCEND910,
            Product::Ascend310P => &ASCEND310P,
            Product::Ascend910B => &ASCEND910B,
            Product::Ascend910_93 => &ASCEND910_93,
            Product::Ascend310B => &ASCEND310B,
        }
    }

    /// Capacity of an on-chip memory in bytes (0 where it does not exist; GM has no limit here).
    pub fn size_of(&self, hw: Hardware) -> u32 {
        hw.local_index().map_or(u32::MAX, |i| self.buffer_size[i])
    }

    /// Required start alignment of a memory in bytes (1 for GM).
    pub fn align_of(&self, hw: Hardware) -> u32 {
        hw.local_index().map_or(1, |i| self.buffer_align[i])
    }

    /// The physical buffer of a logical position, if the product has it.
    pub fn hardware_of(&self, pos: TPosition) -> Option<Hardware> {
        self.position_map[pos as usize]
    }

    /// True when the product supports the path.
    pub fn supports(&self, path: DataPath) -> bool {
        self.paths.contains(path)
    }
}

/// Per-product facts of the DataCopy family beyond [`ChipProfile::paths`].
#[derive(Debug, Clone, Copy)]
pub struct CopyFacts {
    /// `SetPadValue` (the DataCopyPad pad register written directly) exists.
    pub set_pad_value: bool,
    /// Element types the ND→NZ copies accept.
    pub nd2nz_dtypes: DTypeSet,
    /// Paths the product's documentation excludes although the vendor code implements them: accepted
    /// with a portability warning.
    pub undocumented: PathSet,
}

const ND2NZ_310P: DTypeSet = DTypeSet::of(&[
    DType::Int16,
    DType::Uint16,
    DType::Int32,
    DType::Uint32,
    DType::Half,
    DType::Float,
]);
const ND2NZ_A2: DTypeSet =
    ND2NZ_310P.union(DTypeSet::of(&[DType::Int8, DType::Uint8, DType::Bfloat16]));

static COPY_FACTS_COUPLED: CopyFacts = CopyFacts {
    set_pad_value: false,
    nd2nz_dtypes: ND2NZ_310P,
    undocumented: PathSet::of(&[]),
};
static COPY_FACTS_A2: CopyFacts = CopyFacts {
    set_pad_value: true,
    nd2nz_dtypes: ND2NZ_A2,
    undocumented: PathSet::of(&[]),
};
static COPY_FACTS_310B: CopyFacts = CopyFacts {
    set_pad_value: false,
    nd2nz_dtypes: ND2NZ_A2,
    undocumented: PathSet::of(&[DataPath::Slice, DataPath::Nd2NzGmL1, DataPath::Nz2NdUbGm]),
};

impl ChipProfile {
    /// The DataCopy-family facts of this product.
    pub fn copy_facts(&self) -> &'static CopyFacts {
        match self.product {
            Product::Ascend910 | Product::Ascend310P => &COPY_FACTS_COUPLED,
            Product::Ascend910B | Product::Ascend910_93 => &COPY_FACTS_A2,
            Product::Ascend310B => &COPY_FACTS_310B,
        }
    }
}

impl fmt::Display for ChipProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.name, self.soc)
    }
}

/// `GetArchVersion()` per product: the AI processor architecture version, hex-coded — its
/// hexadecimal digits are the product's `__NPU_ARCH__` (`%x` prints `2201` on A2/A3). Products
/// whose `GetArchVersion` page does not list them have no entry.
pub const ARCH_VERSION: [(Product, u32); 3] = [
    (Product::Ascend310P, 0x2002),
    (Product::Ascend910B, 0x2201),
    (Product::Ascend910_93, 0x2201),
];

/// `GetDataBlockSizeInBytes()` per product: bytes of one DataBlock (the unit of the vector
/// block strides). Products whose page does not list them have no entry.
pub const DATA_BLOCK_BYTES: [(Product, i16); 4] = [
    (Product::Ascend910, 32),
    (Product::Ascend310P, 32),
    (Product::Ascend910B, 32),
    (Product::Ascend910_93, 32),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a2_is_default_and_maps_positions() {
        let p = ChipProfile::default_profile();
        assert_eq!(p.soc, "Ascend910B");
        assert_eq!(p.size_of(Hardware::UB), 196_608);
        assert_eq!(p.hardware_of(TPosition::CO2), Some(Hardware::GM));
        assert_eq!(p.hardware_of(TPosition::C2), Some(Hardware::BIAS));
        assert_eq!(ASCEND310P.hardware_of(TPosition::CO2), Some(Hardware::UB));
        assert_eq!(ASCEND910.max_event_ids, 4);
    }

    #[test]
    fn a3_matches_a2_but_its_name() {
        assert_eq!(ASCEND910_93.buffer_size, ASCEND910B.buffer_size);
        assert_eq!(ASCEND910_93.soc, "Ascend910_93");
        assert_eq!(ASCEND910_93.product, Product::Ascend910_93);
    }

    #[test]
    fn socs_keep_their_series_but_the_name_and_cores() {
        let b3 = ChipProfile::by_name("Ascend910B3").unwrap();
        assert_eq!(
            (b3.soc, b3.ai_cores, b3.vector_cores),
            ("Ascend910B3", 20, 40)
        );
        assert_eq!(b3.buffer_size, ASCEND910B.buffer_size);
        assert_eq!(b3.series().soc, "Ascend910B");
        let p1 = ChipProfile::by_name("ascend310p1").unwrap();
        assert_eq!(
            (p1.product, p1.ai_cores, p1.vector_cores),
            (Product::Ascend310P, 10, 8)
        );
        assert_eq!(
            ChipProfile::by_name("910B4-1").unwrap().soc,
            "Ascend910B4-1"
        );
        assert_eq!(
            ChipProfile::by_name("Ascend910_9382").unwrap().series().soc,
            "Ascend910_93"
        );
        for p in &SOCS {
            assert!(
                std::ptr::eq(ChipProfile::by_name(p.soc).unwrap(), p),
                "{}",
                p.soc
            );
            assert_eq!(p.npu_arch, p.series().npu_arch);
            assert!(ChipProfile::accepted_names().contains(p.soc));
        }
        // The series name keeps its series profile.
        assert_eq!(ChipProfile::by_name("Ascend910B").unwrap().vector_cores, 48);
    }

    #[test]
    fn npu_architectures_name_one_series() {
        let soc = |s: &str| ChipProfile::by_name(s).map(|p| p.soc);
        assert_eq!(soc("dav-2201"), Some("Ascend910B"));
        assert_eq!(soc("dav-c220-vec"), Some("Ascend910B"));
        assert_eq!(soc("DAV-M200"), Some("Ascend310P"));
        assert_eq!(soc("dav-2002"), Some("Ascend310P"));
        assert_eq!(soc("dav-c100"), Some("Ascend910"));
        assert_eq!(soc("dav-3002"), Some("Ascend310B"));
        assert_eq!(soc("dav-3510"), None);
        assert_eq!(soc("dav-"), None);
    }

    #[test]
    fn lookup() {
        assert_eq!(ChipProfile::by_name("Ascend310P").unwrap().npu_arch, 2002);
        assert_eq!(ChipProfile::by_name("a3").unwrap().soc, "Ascend910_93");
        assert!(ChipProfile::by_name("h100").is_none());
        assert!(!ASCEND910.supports(DataPath::DataCopyPad));
        assert!(ASCEND310B.supports(DataPath::DataCopyPad));
        assert!(!ASCEND310B.supports(DataPath::DataCopyPadTscm));
    }
}
