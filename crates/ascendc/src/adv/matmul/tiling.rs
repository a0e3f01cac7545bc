//! The Matmul host tiling library (`matmul_tiling::MatmulApiTiling` / `MultiCoreMatmulTiling` /
//! `BatchMatmulTiling`): from the A/B/C/bias types, the shapes and the product's buffer sizes it
//! chooses the split of one Matmul — the cores (`usedCoreNum`, `singleCoreM/N/K`), the block of
//! one Mmad (`baseM/N/K`), what L1 holds (`stepM/N/Ka/Kb`, `depthA1/B1`), the L0 double buffers
//! and the iteration order — and fills the [`TCubeTiling`] the kernel's Matmul reads.
//!
//! The choice is this crate's own (a small cost model, see docs/high-level/matmul-tiling.md);
//! every result satisfies the constraints of the TCubeTiling page (L0A/L0B/L0C/BiasTable/L1 fit,
//! 16-element `baseM`/`baseN`, C0-aligned `baseK`, `depthA1 = stepM·stepKa·db`, …). The sizes the
//! vendor derives from the choice (`transLength`, `shareL1Size`, `shareL0CSize`, `shareUbSize`)
//! use the vendor's formulas.

use crate::chip::ChipProfile;
use crate::position::Hardware;

/// The kernel struct `AscendC::tiling::TCubeTiling` (and the layout of `optiling::TCubeTiling`):
/// 49 `int32_t` fields in the vendor's order.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[allow(non_snake_case)]
pub struct TCubeTiling {
    pub usedCoreNum: i32,
    pub M: i32,
    pub N: i32,
    pub Ka: i32,
    pub Kb: i32,
    pub singleCoreM: i32,
    pub singleCoreN: i32,
    pub singleCoreK: i32,
    pub baseM: i32,
    pub baseN: i32,
    pub baseK: i32,
    pub depthA1: i32,
    pub depthB1: i32,
    pub stepM: i32,
    pub stepN: i32,
    pub isBias: i32,
    pub transLength: i32,
    pub iterateOrder: i32,
    pub shareMode: i32,
    pub shareL1Size: i32,
    pub shareL0CSize: i32,
    pub shareUbSize: i32,
    pub batchM: i32,
    pub batchN: i32,
    pub singleBatchM: i32,
    pub singleBatchN: i32,
    pub stepKa: i32,
    pub stepKb: i32,
    pub depthAL1CacheUB: i32,
    pub depthBL1CacheUB: i32,
    pub dbL0A: i32,
    pub dbL0B: i32,
    pub dbL0C: i32,
    pub ALayoutInfoB: i32,
    pub ALayoutInfoS: i32,
    pub ALayoutInfoN: i32,
    pub ALayoutInfoG: i32,
    pub ALayoutInfoD: i32,
    pub BLayoutInfoB: i32,
    pub BLayoutInfoS: i32,
    pub BLayoutInfoN: i32,
    pub BLayoutInfoG: i32,
    pub BLayoutInfoD: i32,
    pub CLayoutInfoB: i32,
    pub CLayoutInfoS1: i32,
    pub CLayoutInfoN: i32,
    pub CLayoutInfoG: i32,
    pub CLayoutInfoS2: i32,
    pub BatchNum: i32,
    pub mxTypePara: i32,
}

/// `matmul_tiling::DataType` (the vendor's numbering; the types Matmul tiling accepts).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(i32)]
pub enum MmDataType {
    Float = 0,
    Float16 = 1,
    Int8 = 2,
    Int32 = 3,
    /// `DT_BF16`.
    Bf16 = 27,
    /// `DT_INT4` (`int4b_t`, two to a byte).
    Int4 = 29,
    /// `DT_BFLOAT16` (the same type as `DT_BF16`).
    Bfloat16 = 33,
}

/// `matmul_tiling::TPosition` (the vendor's numbering).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(i32)]
pub enum MmPosition {
    GM = 0,
    A1 = 1,
    A2 = 2,
    B1 = 3,
    B2 = 4,
    C1 = 5,
    C2 = 6,
    CO1 = 7,
    CO2 = 8,
    VECIN = 9,
    VECOUT = 10,
    VECCALC = 11,
    SPM = 12,
    TSCM = 13,
}

/// `matmul_tiling::CubeFormat` (the vendor's numbering).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(i32)]
pub enum CubeFormat {
    ND = 0,
    NZ = 1,
    ZN = 2,
    ZZ = 3,
    NN = 4,
    NdAlign = 5,
    Scalar = 6,
    Vector = 7,
    ColumnMajor = 8,
}

/// Which tiling class the request comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(i32)]
pub enum TilingKind {
    /// `MatmulApiTiling`: one core, `SetShape` is the core's shape.
    Single = 0,
    /// `MultiCoreMatmulTiling`: `SetShape` is split over up to `SetDim` cores.
    MultiCore = 1,
    /// `BatchMatmulTiling`: one core per batch block.
    Batch = 2,
}

/// `matmul_tiling::SysTilingTempBufSize`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[allow(non_snake_case)]
pub struct SysTilingTempBufSize {
    pub ubSize: i32,
    pub l1Size: i32,
    pub l0cSize: i32,
}

/// `MatmulGetTmpBufSize` (and its MultiCore / Batch / V2 forms): raises `buf` to the L1, L0C and
/// UB space `tiling` uses (UB: at least twice `transLength`, the ND2NZ staging). Returns 0.
pub fn matmul_get_tmp_buf_size(tiling: &TCubeTiling, buf: &mut SysTilingTempBufSize) -> i32 {
    buf.l1Size = buf.l1Size.max(tiling.shareL1Size);
    buf.l0cSize = buf.l0cSize.max(tiling.shareL0CSize);
    buf.ubSize = buf
        .ubSize
        .max(tiling.shareUbSize.max(2 * tiling.transLength));
    0
}

/// Everything the tiling classes' setters record, plus the platform the class was built with.
/// `-1` (or 0 where noted) means "not set". The C++ classes hold this struct and pass it whole.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatmulTilingRequest {
    /// [`TilingKind`] number.
    pub kind: i32,
    // The platform.
    pub npu_arch: i32,
    pub aic_num: i32,
    pub aiv_num: i32,
    pub l1_size: i32,
    pub l0a_size: i32,
    pub l0b_size: i32,
    pub l0c_size: i32,
    pub ub_size: i32,
    pub bt_size: i32,
    // SetBufferSpace (-1 = the whole buffer).
    pub space_l1: i32,
    pub space_l0c: i32,
    pub space_ub: i32,
    pub space_bt: i32,
    // SetAType / SetBType / SetCType / SetBiasType (positions, formats, types as numbered above).
    pub a_pos: i32,
    pub a_format: i32,
    pub a_dtype: i32,
    pub a_trans: i32,
    pub b_pos: i32,
    pub b_format: i32,
    pub b_dtype: i32,
    pub b_trans: i32,
    pub c_pos: i32,
    pub c_format: i32,
    pub c_dtype: i32,
    pub bias_pos: i32,
    pub bias_format: i32,
    pub bias_dtype: i32,
    /// EnableBias / SetBias.
    pub is_bias: i32,
    // SetShape.
    pub m: i32,
    pub n: i32,
    pub k: i32,
    // SetOrgShape.
    pub org_m: i32,
    pub org_n: i32,
    pub org_ka: i32,
    pub org_kb: i32,
    // SetSingleShape (MultiCore).
    pub single_core_m: i32,
    pub single_core_n: i32,
    pub single_core_k: i32,
    /// SetDim (0 = not set: all cube cores).
    pub dim: i32,
    // SetFixSplit.
    pub base_m: i32,
    pub base_n: i32,
    pub base_k: i32,
    // SetSplitRange.
    pub max_base_m: i32,
    pub max_base_n: i32,
    pub max_base_k: i32,
    pub min_base_m: i32,
    pub min_base_n: i32,
    pub min_base_k: i32,
    // SetSingleRange.
    pub max_single_m: i32,
    pub max_single_n: i32,
    pub max_single_k: i32,
    pub min_single_m: i32,
    pub min_single_n: i32,
    pub min_single_k: i32,
    // SetAlignSplit (0 or -1 = not set).
    pub align_m: i32,
    pub align_n: i32,
    pub align_k: i32,
    /// SetTraverse: 0 NOSET, 1 FIRSTM, 2 FIRSTN.
    pub traverse: i32,
    /// SetMadType: 0 NORMAL, 1 HF32, 2 MXMODE.
    pub mad_type: i32,
    /// SetDequantType: 0 SCALAR, 1 TENSOR.
    pub dequant_type: i32,
    /// EnableMultiCoreSplitK / SetSplitK.
    pub split_k: i32,
    /// SetMatmulConfigParams: 0 Norm, 1 MDL (the default).
    pub mm_config_type: i32,
    pub enable_l1_cache_ub: i32,
    /// 0 INNER_PRODUCT, 1 OUTER_PRODUCT, 2 N_BUFFER_33.
    pub schedule_type: i32,
    pub en_vec_nd2nz: i32,
    /// SetSparse.
    pub sparse: i32,
    // SetALayout / SetBLayout / SetCLayout (B, S, N, G, D).
    pub a_layout: [i32; 5],
    pub b_layout: [i32; 5],
    pub c_layout: [i32; 5],
    /// SetBatchNum.
    pub batch_num: i32,
}

const FP32_BYTES: i64 = 4;

fn ceil_div(a: i64, b: i64) -> i64 {
    (a + b - 1) / b
}

fn align_up(a: i64, b: i64) -> i64 {
    ceil_div(a, b) * b
}

/// Bits of an A or B element type (int4 has 4), `None` for a number the tiling does not accept.
fn dtype_bits(dt: i32) -> Option<i64> {
    match dt {
        29 => Some(4),
        dt => dtype_bytes(dt).map(|b| b * 8),
    }
}

/// Bytes of a Matmul element type, `None` for a number the tiling does not accept.
fn dtype_bytes(dt: i32) -> Option<i64> {
    match dt {
        0 | 3 => Some(4),
        1 | 27 | 33 => Some(2),
        2 => Some(1),
        _ => None,
    }
}

fn dtype_name(dt: i32) -> String {
    match dt {
        0 => "DT_FLOAT".into(),
        1 => "DT_FLOAT16".into(),
        2 => "DT_INT8".into(),
        3 => "DT_INT32".into(),
        29 => "DT_INT4".into(),
        27 => "DT_BF16".into(),
        33 => "DT_BFLOAT16".into(),
        n => format!("DataType({n})"),
    }
}

fn is_bf16(dt: i32) -> bool {
    dt == 27 || dt == 33
}

/// The series a `__NPU_ARCH__` number names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Series {
    A2,
    P310,
    B310,
    T910,
}

impl MatmulTilingRequest {
    /// A request as the class constructor leaves it, for `profile`'s platform (its cube cores,
    /// vector cores and L1/L0A/L0B/L0C/UB/BiasTable sizes).
    pub fn new(profile: &ChipProfile, kind: TilingKind) -> MatmulTilingRequest {
        let size = |h: Hardware| profile.size_of(h) as i32;
        MatmulTilingRequest {
            kind: kind as i32,
            npu_arch: profile.npu_arch as i32,
            aic_num: profile.ai_cores as i32,
            aiv_num: if profile.separated {
                profile.vector_cores as i32
            } else {
                profile.ai_cores as i32
            },
            l1_size: size(Hardware::L1),
            l0a_size: size(Hardware::L0A),
            l0b_size: size(Hardware::L0B),
            l0c_size: size(Hardware::L0C),
            ub_size: size(Hardware::UB),
            bt_size: size(Hardware::BIAS),
            space_l1: -1,
            space_l0c: -1,
            space_ub: -1,
            space_bt: -1,
            a_pos: 0,
            a_format: 0,
            a_dtype: 0,
            a_trans: 0,
            b_pos: 0,
            b_format: 0,
            b_dtype: 0,
            b_trans: 0,
            c_pos: 0,
            c_format: 0,
            c_dtype: 0,
            bias_pos: 0,
            bias_format: 0,
            bias_dtype: 0,
            is_bias: 0,
            m: -1,
            n: -1,
            k: -1,
            org_m: -1,
            org_n: -1,
            org_ka: -1,
            org_kb: -1,
            single_core_m: -1,
            single_core_n: -1,
            single_core_k: -1,
            dim: 0,
            base_m: -1,
            base_n: -1,
            base_k: -1,
            max_base_m: -1,
            max_base_n: -1,
            max_base_k: -1,
            min_base_m: -1,
            min_base_n: -1,
            min_base_k: -1,
            max_single_m: -1,
            max_single_n: -1,
            max_single_k: -1,
            min_single_m: -1,
            min_single_n: -1,
            min_single_k: -1,
            align_m: 0,
            align_n: 0,
            align_k: 0,
            traverse: 0,
            mad_type: 0,
            dequant_type: 0,
            split_k: 0,
            mm_config_type: 1,
            enable_l1_cache_ub: 0,
            schedule_type: 0,
            en_vec_nd2nz: 0,
            sparse: 0,
            a_layout: [0; 5],
            b_layout: [0; 5],
            c_layout: [0; 5],
            batch_num: 0,
        }
    }

    /// `SetAType(pos, type, dataType, isTrans)`.
    pub fn set_a_type(
        &mut self,
        pos: MmPosition,
        format: CubeFormat,
        dt: MmDataType,
        trans: bool,
    ) -> &mut Self {
        (self.a_pos, self.a_format, self.a_dtype, self.a_trans) =
            (pos as i32, format as i32, dt as i32, trans as i32);
        self
    }

    /// `SetBType(pos, type, dataType, isTrans)`.
    pub fn set_b_type(
        &mut self,
        pos: MmPosition,
        format: CubeFormat,
        dt: MmDataType,
        trans: bool,
    ) -> &mut Self {
        (self.b_pos, self.b_format, self.b_dtype, self.b_trans) =
            (pos as i32, format as i32, dt as i32, trans as i32);
        self
    }

    /// `SetCType(pos, type, dataType)`.
    pub fn set_c_type(&mut self, pos: MmPosition, format: CubeFormat, dt: MmDataType) -> &mut Self {
        (self.c_pos, self.c_format, self.c_dtype) = (pos as i32, format as i32, dt as i32);
        self
    }

    /// `SetBiasType(pos, type, dataType)`.
    pub fn set_bias_type(
        &mut self,
        pos: MmPosition,
        format: CubeFormat,
        dt: MmDataType,
    ) -> &mut Self {
        (self.bias_pos, self.bias_format, self.bias_dtype) = (pos as i32, format as i32, dt as i32);
        self
    }

    /// `SetShape(m, n, k)`; also the original shape while `SetOrgShape` has not been called.
    pub fn set_shape(&mut self, m: i32, n: i32, k: i32) -> &mut Self {
        (self.m, self.n, self.k) = (m, n, k);
        self
    }

    /// `SetOrgShape(m, n, ka, kb)`.
    pub fn set_org_shape(&mut self, m: i32, n: i32, ka: i32, kb: i32) -> &mut Self {
        (self.org_m, self.org_n, self.org_ka, self.org_kb) = (m, n, ka, kb);
        self
    }

    /// `SetSingleShape(m, n, k)` (values ≤ 0 leave that one to the tiling).
    pub fn set_single_shape(&mut self, m: i32, n: i32, k: i32) -> &mut Self {
        (self.single_core_m, self.single_core_n, self.single_core_k) = (m, n, k);
        self
    }

    /// `SetDim(dim)`.
    pub fn set_dim(&mut self, dim: i32) -> &mut Self {
        self.dim = dim;
        self
    }

    /// `EnableBias(flag)`.
    pub fn enable_bias(&mut self, on: bool) -> &mut Self {
        self.is_bias = on as i32;
        self
    }

    /// `SetFixSplit(baseM, baseN, baseK)`.
    pub fn set_fix_split(&mut self, m: i32, n: i32, k: i32) -> &mut Self {
        (self.base_m, self.base_n, self.base_k) = (m, n, k);
        self
    }

    /// `SetBufferSpace(l1, l0c, ub, bt)` (-1 = the whole buffer).
    pub fn set_buffer_space(&mut self, l1: i32, l0c: i32, ub: i32, bt: i32) -> &mut Self {
        (self.space_l1, self.space_l0c, self.space_ub, self.space_bt) = (l1, l0c, ub, bt);
        self
    }

    /// `SetTraverse` (1 FIRSTM, 2 FIRSTN).
    pub fn set_traverse(&mut self, traverse: i32) -> &mut Self {
        self.traverse = traverse;
        self
    }

    /// `EnableMultiCoreSplitK(flag)`.
    pub fn enable_split_k(&mut self, on: bool) -> &mut Self {
        self.split_k = on as i32;
        self
    }

    /// `GetTiling`: the tiling, or why there is none (the vendor returns -1 and logs it).
    pub fn get_tiling(&self) -> Result<TCubeTiling, String> {
        compute(self)
    }
}

fn err<T>(msg: String) -> Result<T, String> {
    Err(format!("MatmulApi Tiling : {msg}"))
}

/// The chosen L0 block.
#[derive(Debug, Clone, Copy)]
struct Base {
    m: i64,
    n: i64,
    k: i64,
    db_a: i64,
    db_b: i64,
    db_c: i64,
}

fn compute(r: &MatmulTilingRequest) -> Result<TCubeTiling, String> {
    let series = match r.npu_arch {
        2201 => Series::A2,
        2002 => Series::P310,
        3002 => Series::B310,
        1001 => Series::T910,
        a => {
            return err(format!(
                "the product with __NPU_ARCH__ {a} is not supported by Matmul tiling"
            ))
        }
    };
    let kind = match r.kind {
        0 => TilingKind::Single,
        1 => TilingKind::MultiCore,
        2 => TilingKind::Batch,
        k => return err(format!("unknown tiling class {k}")),
    };
    // ---- types ----
    // A and B in bits per element (int4 is half a byte), C and the bias in bytes.
    let sa = dtype_bits(r.a_dtype).ok_or_else(|| {
        format!(
            "MatmulApi Tiling : SetAType dataType {} is not supported",
            dtype_name(r.a_dtype)
        )
    })?;
    let sb = dtype_bits(r.b_dtype).ok_or_else(|| {
        format!(
            "MatmulApi Tiling : SetBType dataType {} is not supported",
            dtype_name(r.b_dtype)
        )
    })?;
    let sc = dtype_bytes(r.c_dtype).ok_or_else(|| {
        format!(
            "MatmulApi Tiling : SetCType dataType {} is not supported",
            dtype_name(r.c_dtype)
        )
    })?;
    let same_ab = r.a_dtype == r.b_dtype || (is_bf16(r.a_dtype) && is_bf16(r.b_dtype));
    if !same_ab || r.a_dtype == 3 {
        return err(format!(
            "A type {} with B type {} is not a Matmul input pair (half/half, bfloat16/bfloat16, float/float, int8/int8, int4/int4)",
            dtype_name(r.a_dtype),
            dtype_name(r.b_dtype)
        ));
    }
    let coupled = matches!(series, Series::P310 | Series::T910);
    if coupled && (r.a_dtype == 0 || is_bf16(r.a_dtype)) {
        return err(format!(
            "{} inputs are not supported on this product (the cube takes half and int8 only)",
            dtype_name(r.a_dtype)
        ));
    }
    if r.a_dtype == 29 && series == Series::T910 {
        return err(
            "DT_INT4 inputs are not supported on this product (its cube has no int4)".into(),
        );
    }
    let c_ok = match r.a_dtype {
        1 => matches!(r.c_dtype, 0 | 1),
        29 => r.c_dtype == 3,
        27 | 33 => r.c_dtype == 0 || is_bf16(r.c_dtype),
        0 => r.c_dtype == 0,
        _ => matches!(r.c_dtype, 1..=3),
    };
    if !c_ok {
        return err(format!(
            "C type {} is not an output of {} inputs",
            dtype_name(r.c_dtype),
            dtype_name(r.a_dtype)
        ));
    }
    let bias_bytes = if r.is_bias != 0 {
        let ok = match r.a_dtype {
            2 | 29 => r.bias_dtype == 3,
            _ => matches!(r.bias_dtype, 0 | 1) || is_bf16(r.bias_dtype),
        };
        if !ok {
            return err(format!(
                "bias type {} does not go with {} inputs",
                dtype_name(r.bias_dtype),
                dtype_name(r.a_dtype)
            ));
        }
        dtype_bytes(r.bias_dtype).unwrap_or(4)
    } else {
        0
    };
    if coupled && r.a_dtype == 2 && r.a_trans != 0 {
        return err("a transposed int8 A matrix is not supported on this product".into());
    }
    for (name, pos) in [("A", r.a_pos), ("B", r.b_pos)] {
        if !matches!(pos, 0 | 9 | 10 | 11 | 13) {
            return err(format!(
                "{name} position {pos} is not one of GM, VECIN/VECOUT/VECCALC, TSCM"
            ));
        }
    }
    if !matches!(r.c_pos, 0 | 9 | 10 | 11 | 1 | 13) {
        return err(format!(
            "C position {} is not one of GM, VECIN/VECOUT/VECCALC",
            r.c_pos
        ));
    }
    for (name, f) in [("A", r.a_format), ("B", r.b_format)] {
        if !matches!(f, 0 | 1 | 5 | 7 | 8) {
            return err(format!(
                "{name} format {f} is not one of ND, NZ, ND_ALIGN, VECTOR, COLUMN_MAJOR"
            ));
        }
    }
    if !matches!(r.c_format, 0 | 1 | 5 | 8) {
        return err(format!(
            "C format {} is not one of ND, NZ, ND_ALIGN",
            r.c_format
        ));
    }
    if coupled && r.is_bias != 0 && r.bias_pos == 13 {
        return err("bias in TSCM is not supported on this product".into());
    }
    if r.mad_type == 2 {
        return err("MXMODE (MxMatmul) is not supported by this simulator's products".into());
    }
    if r.mad_type == 1 && r.a_dtype != 0 {
        return err("HF32 mode needs float inputs".into());
    }
    if r.sparse != 0 && (series != Series::A2 || r.a_dtype != 2) {
        return err("SetSparse(true) needs int8 inputs on Atlas A2/A3".into());
    }

    // ---- buffers ----
    let pick = |space: i32, full: i32, name: &str| -> Result<i64, String> {
        if space == -1 {
            Ok(full as i64)
        } else if space <= 0 || space > full {
            err(format!(
                "SetBufferSpace {name} {space} is outside (0, {full}]"
            ))
        } else {
            Ok(space as i64)
        }
    };
    let l1 = pick(r.space_l1, r.l1_size, "l1Size")?;
    let l0c = pick(r.space_l0c, r.l0c_size, "l0CSize")?;
    let ub = pick(r.space_ub, r.ub_size, "ubSize")?;
    let bt = if r.bt_size > 0 {
        pick(r.space_bt, r.bt_size, "btSize")?
    } else {
        0
    };
    let l0a = r.l0a_size as i64;
    let l0b = r.l0b_size as i64;

    // ---- shapes ----
    // -1 in SetShape takes that size from SetOrgShape (M, N, Ka).
    let from_org = |v: i32, org: i32| if v == -1 && org > 0 { org } else { v };
    let (rm, rn, rk) = (
        from_org(r.m, r.org_m),
        from_org(r.n, r.org_n),
        from_org(r.k, r.org_ka),
    );
    if rm <= 0 || rn <= 0 || rk <= 0 {
        return err(format!(
            "SetShape({}, {}, {}): M, N and K must be set and positive (-1 takes SetOrgShape's)",
            r.m, r.n, r.k
        ));
    }
    let (m, n, k) = (rm as i64, rn as i64, rk as i64);
    let org_set = r.org_m > 0 || r.org_n > 0 || r.org_ka > 0 || r.org_kb > 0;
    let (org_m, org_n, org_ka, org_kb) = if org_set {
        (r.org_m, r.org_n, r.org_ka, r.org_kb)
    } else {
        (rm, rn, rk, rk)
    };
    if org_m <= 0 || org_n <= 0 || org_ka <= 0 || org_kb <= 0 {
        return err(format!(
            "SetOrgShape({org_m}, {org_n}, {org_ka}, {org_kb}): every size must be positive"
        ));
    }

    let c0_a = 256 / sa; // 16 half, 8 float, 32 int8, 64 int4
    let k_align = c0_a.max(16);
    // NZ inputs: the page's alignment of the original shape.
    if r.a_format == 1 && (org_m % 16 != 0 || (org_ka as i64) % c0_a != 0) {
        return err(format!(
            "A is NZ: M ({org_m}) must be a multiple of 16 and Ka ({org_ka}) of {c0_a}"
        ));
    }
    if r.b_format == 1 && (org_n % 16 != 0 || (org_kb as i64) % c0_a != 0) {
        return err(format!(
            "B is NZ: N ({org_n}) must be a multiple of 16 and Kb ({org_kb}) of {c0_a}"
        ));
    }

    // ---- cores ----
    let max_cores = r.aic_num.max(r.aiv_num).max(1) as i64;
    let (sc_m, sc_n, sc_k, used) = match kind {
        TilingKind::Single | TilingKind::Batch => (m, n, k, 1),
        TilingKind::MultiCore => {
            let dim = if r.dim > 0 {
                r.dim as i64
            } else {
                r.aic_num.max(1) as i64
            };
            if dim > max_cores {
                return err(format!(
                    "SetDim({dim}) is more than the {max_cores} cores of this product"
                ));
            }
            if mini_shape(r, (m, n, k), dim, c0_a, (l0a, l0b, l0c)) {
                (m, n, k, 1)
            } else {
                split_cores(r, m, n, k, dim, k_align)?
            }
        }
    };

    // ---- base block ----
    // 310P / 910 stage the C block (and ND tails) in UB: the block must leave room for that.
    let ub_block = if matches!(series, Series::T910 | Series::P310) && matches!(r.c_pos, 0 | 11) {
        sc
    } else {
        0
    };
    let sizes = Sizes {
        sa,
        sb,
        bias_bytes,
        k_align,
        l0a,
        l0b,
        l0c,
        l1,
        bt,
        ub,
        ub_block,
    };
    let mut base = choose_base(r, series, sc_m, sc_n, sc_k, &sizes)?;
    if r.sparse != 0 {
        // The vendor's sparse rule: baseK a multiple of 64 (one index byte per 8 columns of A,
        // whole 8-byte index groups).
        base.k = if base.k <= 64 { 64 } else { base.k / 64 * 64 };
    }

    // ---- L1 ----
    let bias_l1 =
        if r.is_bias != 0 && matches!(series, Series::A2 | Series::B310) && r.bias_pos != 13 {
            base.n * bias_bytes
        } else {
            0
        };
    let a_blk = if r.a_pos == 13 {
        0
    } else {
        base.m * base.k * sa / 8
    };
    let b_blk = if r.b_pos == 13 {
        0
    } else {
        base.n * base.k * sb / 8
    };
    let budget = l1 - bias_l1;
    let k_tiles = ceil_div(sc_k, base.k);
    let m_tiles = ceil_div(sc_m, base.m);
    let n_tiles = ceil_div(sc_n, base.n);
    let mut pick_l1 = None;
    'outer: for db in [2i64, 1] {
        let mut step_k = k_tiles;
        loop {
            let need = |sm: i64, sn: i64| db * step_k * (sm * a_blk + sn * b_blk);
            if need(1, 1) <= budget {
                let (mut sm, mut sn) = (1, 1);
                if step_k == k_tiles {
                    // K fully in L1: also hold the whole M and/or N side where it fits.
                    for (cm, cn) in [(m_tiles, n_tiles), (m_tiles, 1), (1, n_tiles)] {
                        if need(cm, cn) <= budget {
                            (sm, sn) = (cm, cn);
                            break;
                        }
                    }
                }
                pick_l1 = Some((db, step_k, sm, sn));
                break 'outer;
            }
            if step_k == 1 {
                break;
            }
            step_k = ceil_div(step_k, 2);
        }
    }
    let Some((db1, step_k, step_m, step_n)) = pick_l1 else {
        return err(format!(
            "L1 of {l1} bytes cannot hold one {}x{} A block and one {}x{} B block{}",
            base.m,
            base.k,
            base.k,
            base.n,
            if bias_l1 > 0 { " with the bias" } else { "" }
        ));
    };

    // ---- order ----
    let iterate_order = if r.traverse == 1 || r.traverse == 2 {
        (r.traverse - 1) as i64
    } else {
        // stepKa = stepKb: K is fully in L1 for both or for neither. Neither: M first. Both:
        // the order that loads fewer elements (the vendor's rule).
        if step_k * base.k < sc_k {
            0
        } else {
            let m_loop = ceil_div(sc_m, step_m * base.m);
            let n_loop = ceil_div(sc_n, step_n * base.n);
            let a_load = sc_m + sc_n * m_loop;
            let b_load = sc_n + sc_m * n_loop;
            i64::from(a_load < b_load)
        }
    } as i32;

    let mut t = TCubeTiling {
        usedCoreNum: used as i32,
        M: org_m,
        N: org_n,
        Ka: org_ka,
        Kb: org_kb,
        singleCoreM: sc_m as i32,
        singleCoreN: sc_n as i32,
        singleCoreK: sc_k as i32,
        baseM: base.m as i32,
        baseN: base.n as i32,
        baseK: base.k as i32,
        depthA1: (step_m * step_k * db1) as i32,
        depthB1: (step_n * step_k * db1) as i32,
        stepM: step_m as i32,
        stepN: step_n as i32,
        isBias: (r.is_bias != 0) as i32,
        iterateOrder: iterate_order,
        stepKa: step_k as i32,
        stepKb: step_k as i32,
        dbL0A: base.db_a as i32,
        dbL0B: base.db_b as i32,
        dbL0C: base.db_c as i32,
        BatchNum: r.batch_num,
        ..TCubeTiling::default()
    };
    if r.schedule_type == 2 {
        // N_BUFFER_33 keeps at most three blocks of A and of B in L1 along M and K.
        t.stepM = t.stepM.min(3);
        t.stepKa = t.stepKa.min(3);
        t.stepKb = t.stepKb.min(3);
        t.depthA1 = t.stepM * t.stepKa * db1 as i32;
        t.depthB1 = t.stepN * t.stepKb * db1 as i32;
    }
    [
        t.ALayoutInfoB,
        t.ALayoutInfoS,
        t.ALayoutInfoN,
        t.ALayoutInfoG,
        t.ALayoutInfoD,
    ] = r.a_layout;
    [
        t.BLayoutInfoB,
        t.BLayoutInfoS,
        t.BLayoutInfoN,
        t.BLayoutInfoG,
        t.BLayoutInfoD,
    ] = r.b_layout;
    [
        t.CLayoutInfoB,
        t.CLayoutInfoS1,
        t.CLayoutInfoN,
        t.CLayoutInfoG,
        t.CLayoutInfoS2,
    ] = r.c_layout;

    // ---- the sizes the vendor derives (its formulas) ----
    let ub_products = matches!(series, Series::T910 | Series::P310 | Series::B310);
    let mut trans = 0i64;
    if ub_products {
        let mdl = r.mm_config_type == 1;
        if r.a_format == 0 {
            let mut a = base.m * base.k * sa / 8;
            if mdl {
                a *= step_k * step_m;
            }
            trans = trans.max(a);
        }
        if r.b_format == 0 || (sb == 8 && r.b_format == 1 && r.b_trans == 0) {
            let mut b = base.n * base.k * sb / 8;
            if mdl {
                b *= step_k * step_n;
            }
            trans = trans.max(b);
        }
        if r.c_format == 0 || r.c_pos == 0 {
            trans = trans.max(base.m * base.n * sc);
        }
        let mut bias_len = if r.is_bias != 0 && r.bias_pos != 11 {
            base.n * bias_bytes
        } else {
            0
        };
        if sa == 8 {
            bias_len = bias_len.max(base.n * 8);
        }
        trans = trans.max(bias_len);
    }
    t.transLength = trans as i32;
    t.shareMode = 0;
    t.shareL1Size = (t.depthA1 as i64 * a_blk + t.depthB1 as i64 * b_blk + bias_l1) as i32;
    t.shareL0CSize = (base.m * base.n * FP32_BYTES) as i32;
    let mut ub_use = 0i64;
    if ub_products {
        let mut a_ub = 0;
        let mut b_ub = 0;
        if r.a_trans == 0 && (sc_k * sa) % 256 != 0 {
            a_ub = base.m * 32;
        }
        if r.a_trans != 0 && (sc_m * sa) % 256 != 0 {
            a_ub = base.k * 32;
        }
        if r.b_trans == 0 && (sc_n * sb) % 256 != 0 {
            b_ub = base.k * 32;
        }
        if r.b_trans != 0 && (sc_k * sb) % 256 != 0 {
            b_ub = base.n * 32;
        }
        if r.a_pos == 13 {
            a_ub = 0;
        }
        if r.b_pos == 13 {
            b_ub = 0;
        }
        if r.a_format == 0 || r.b_format == 0 {
            ub_use += a_ub.max(b_ub);
        }
        if series != Series::B310 {
            if r.c_pos == 0 {
                ub_use += base.m * base.n * sc;
                if r.c_format == 0 && (sc_n * sc) % 32 != 0 {
                    ub_use += 32;
                }
            }
            if r.c_pos == 11 && r.c_format != 1 {
                ub_use += base.m * base.n * sc;
            }
            if r.dequant_type == 1 && r.c_format == 1 {
                ub_use += base.n * 8;
            }
        }
    }
    t.shareUbSize = ub_use as i32;
    if ub_use > ub {
        return err(format!(
            "the UB space the tiling needs ({ub_use} bytes) is more than the {ub} bytes available"
        ));
    }
    if r.batch_num > 0 {
        let bias = if r.is_bias != 0 {
            sc_n * r.batch_num as i64 * sa / 8
        } else {
            0
        };
        let need = (sc_m * sc_k + sc_n * sc_k) * r.batch_num as i64 * sa / 8 + bias;
        if need > l1 {
            return err(format!(
                "the A and B matrices of {} batches need {need} bytes of L1, more than the {l1} available",
                r.batch_num
            ));
        }
    }
    Ok(t)
}

/// The vendor's mini-shape rule: a Matmul whose M and N are at most 32 fractals each, with as
/// few 16 × 16 blocks of C as there are cores, and whose A, B and C fit L0A, L0B and L0C
/// whole, runs on one core (no M, N or K split), so that no core pays the start-up for a sliver.
/// Not with `SetSingleShape`, `SetSingleRange` or `SetAlignSplit`.
fn mini_shape(
    r: &MatmulTilingRequest,
    (m, n, k): (i64, i64, i64),
    dim: i64,
    c0: i64,
    (l0a, l0b, l0c): (i64, i64, i64),
) -> bool {
    let constrained = [
        r.single_core_m,
        r.single_core_n,
        r.single_core_k,
        r.min_single_m,
        r.max_single_m,
        r.min_single_n,
        r.max_single_n,
        r.min_single_k,
        r.max_single_k,
    ]
    .iter()
    .any(|&v| v > 0)
        || [r.align_m, r.align_n, r.align_k].iter().any(|&a| a > 1);
    let (m16, n16, kc) = (ceil_div(m, 16), ceil_div(n, 16), ceil_div(k, c0));
    !constrained
        && (r.split_k == 0 || kc <= 32)
        && m16 <= 32
        && n16 <= 32
        && m16 * n16 <= dim
        && m16 * kc <= l0a / 512
        && n16 * kc <= l0b / 512
        && m16 * n16 <= l0c / 1024
}

/// The split of (m, n, k) over at most `dim` cores: (singleCoreM, singleCoreN, singleCoreK, cores).
fn split_cores(
    r: &MatmulTilingRequest,
    m: i64,
    n: i64,
    k: i64,
    dim: i64,
    k_align: i64,
) -> Result<(i64, i64, i64, i64), String> {
    let al = |a: i32| if a > 0 { a as i64 } else { 1 };
    let (al_m, al_n, al_k) = (al(r.align_m), al(r.align_n), al(r.align_k));
    if r.single_core_m > 0 || r.single_core_n > 0 || r.single_core_k > 0 {
        let pick = |v: i32, full: i64| if v > 0 { (v as i64).min(full) } else { full };
        let (sm, sn) = (pick(r.single_core_m, m), pick(r.single_core_n, n));
        let sk = if r.split_k != 0 {
            pick(r.single_core_k, k)
        } else {
            k
        };
        let used = ceil_div(m, sm) * ceil_div(n, sn) * ceil_div(k, sk);
        if used > dim {
            return err(format!(
                "SetSingleShape({sm}, {sn}, {sk}) needs {used} cores for ({m}, {n}, {k}), more than SetDim({dim})"
            ));
        }
        return Ok((sm, sn, sk, used));
    }
    let in_range = |v: i64, lo: i32, hi: i32, full: i64| -> bool {
        (hi <= 0 || v <= hi as i64 || v == full.min(hi as i64))
            && (lo <= 0 || v >= lo as i64 || v == full)
    };
    type Split = (i64, i64, i64, i64);
    let mut best: Option<(f64, i64, Split)> = None;
    let k_dims = if r.split_k != 0 { dim } else { 1 };
    for md in 1..=dim.min(m) {
        let sm = align_up(ceil_div(m, md), al_m).min(align_up(m, al_m));
        if !in_range(sm, r.min_single_m, r.max_single_m, m) {
            continue;
        }
        let md_real = ceil_div(m, sm);
        for nd in 1..=(dim / md_real).min(n) {
            let sn = align_up(ceil_div(n, nd), al_n).min(align_up(n, al_n));
            if !in_range(sn, r.min_single_n, r.max_single_n, n) {
                continue;
            }
            let nd_real = ceil_div(n, sn);
            for kd in 1..=(dim / (md_real * nd_real)).min(k_dims).max(1) {
                let sk = if kd == 1 {
                    k
                } else {
                    align_up(ceil_div(k, kd), al_k.max(k_align))
                };
                if !in_range(sk, r.min_single_k, r.max_single_k, k) {
                    continue;
                }
                let kd_real = ceil_div(k, sk);
                let used = md_real * nd_real * kd_real;
                if used > dim {
                    continue;
                }
                // Per-core time: the cube work plus the bytes of A and B each core reads.
                let (pm, pn, pk) = (
                    align_up(sm, 16) as f64,
                    align_up(sn, 16) as f64,
                    align_up(sk, 16) as f64,
                );
                let mut cost = pm * pn * pk / 4096.0
                    + (pm + pn) * pk / 64.0
                    + if kd_real > 1 { pm * pn / 16.0 } else { 0.0 };
                // Even splits are preferred: kernels often take their window without SetTail.
                for (whole, part) in [(m, sm), (n, sn), (k, sk)] {
                    if whole % part != 0 {
                        cost *= 1.25;
                    }
                }
                let better = match &best {
                    None => true,
                    Some((c, u, _)) => cost < *c - 1e-9 || ((cost - *c).abs() <= 1e-9 && used < *u),
                };
                if better {
                    best = Some((cost, used, (sm, sn, sk, used)));
                }
            }
        }
    }
    match best {
        Some((_, _, s)) => Ok(s),
        None => err(format!(
            "no split of ({m}, {n}, {k}) over {dim} cores meets SetSingleRange / SetAlignSplit"
        )),
    }
}

/// Element and buffer sizes the block choice works with (buffers in bytes).
struct Sizes {
    /// Bits of an A element.
    sa: i64,
    /// Bits of a B element.
    sb: i64,
    bias_bytes: i64,
    k_align: i64,
    l0a: i64,
    l0b: i64,
    l0c: i64,
    l1: i64,
    bt: i64,
    ub: i64,
    /// Bytes per C element staged in UB (0: no staging).
    ub_block: i64,
}

fn choose_base(
    r: &MatmulTilingRequest,
    series: Series,
    sc_m: i64,
    sc_n: i64,
    sc_k: i64,
    z: &Sizes,
) -> Result<Base, String> {
    let Sizes {
        sa,
        sb,
        bias_bytes,
        k_align,
        l0a,
        l0b,
        l0c,
        l1,
        bt,
        ub,
        ub_block,
    } = *z;
    let cap_m = align_up(sc_m, 16);
    let cap_n = align_up(sc_n, 16);
    let cap_k = align_up(sc_k, k_align);
    let bias_in_bt = r.is_bias != 0 && matches!(series, Series::A2 | Series::B310) && bt > 0;
    // Fixed blocks: the page's rules, checked.
    for (name, v, cap) in [("baseM", r.base_m, cap_m), ("baseN", r.base_n, cap_n)] {
        if v != -1 && (v <= 0 || v % 16 != 0) {
            return err(format!(
                "SetFixSplit {name} {v} must be a positive multiple of 16"
            ));
        }
        if v > 0 && v as i64 > cap {
            return err(format!(
                "SetFixSplit {name} {v} is more than the single-core size aligned to 16 ({cap})"
            ));
        }
    }
    if r.base_k != -1 && (r.base_k <= 0 || r.base_k as i64 % k_align != 0) {
        return err(format!(
            "SetFixSplit baseK {} must be a positive multiple of {k_align}",
            r.base_k
        ));
    }
    if r.base_m > 0 && r.base_n > 0 && r.base_m as i64 * r.base_n as i64 * FP32_BYTES > l0c {
        return err(format!(
            "baseM * baseN ({} x {}) of 4-byte results is larger than L0C ({l0c} bytes)",
            r.base_m, r.base_n
        ));
    }
    if r.base_m > 0 && r.base_k > 0 && r.base_m as i64 * r.base_k as i64 * sa / 8 > l0a {
        return err(format!(
            "baseM * baseK ({} x {}) is larger than L0A ({l0a} bytes)",
            r.base_m, r.base_k
        ));
    }
    if r.base_n > 0 && r.base_k > 0 && r.base_n as i64 * r.base_k as i64 * sb / 8 > l0b {
        return err(format!(
            "baseN * baseK ({} x {}) is larger than L0B ({l0b} bytes)",
            r.base_n, r.base_k
        ));
    }
    if bias_in_bt && r.base_n > 0 && r.base_n as i64 * bias_bytes > bt {
        return err(format!(
            "baseN {} of bias does not fit the BiasTable ({bt} bytes)",
            r.base_n
        ));
    }
    let range = |fixed: i32, lo: i32, hi: i32, cap: i64, step: i64| -> Vec<i64> {
        if fixed > 0 {
            return vec![fixed as i64];
        }
        let hi = if hi > 0 { (hi as i64).min(cap) } else { cap };
        let lo = if lo > 0 { lo as i64 } else { step };
        (1..=hi / step)
            .map(|i| i * step)
            .filter(|v| *v >= lo)
            .collect()
    };
    let ms = range(r.base_m, r.min_base_m, r.max_base_m, cap_m, 16);
    let ns = range(r.base_n, r.min_base_n, r.max_base_n, cap_n, 16);
    let bias_l1 = |bn: i64| {
        if r.is_bias != 0 && matches!(series, Series::A2 | Series::B310) {
            bn * bias_bytes
        } else {
            0
        }
    };
    let mut best: Option<(f64, Base)> = None;
    for &bm in &ms {
        for &bn in &ns {
            if bm * bn * FP32_BYTES > l0c || (bias_in_bt && bn * bias_bytes > bt) {
                continue;
            }
            let db_c = if bm * bn * FP32_BYTES * 2 <= l0c {
                2
            } else {
                1
            };
            // baseK: as large as L0A/L0B allow with double buffering, within the split range.
            let k_hi = if r.max_base_k > 0 {
                (r.max_base_k as i64).min(cap_k)
            } else {
                cap_k
            };
            let k_lo = if r.min_base_k > 0 {
                r.min_base_k as i64
            } else {
                k_align
            };
            let fit = |db: i64| {
                ((l0a * 8 / (db * bm * sa)).min(l0b * 8 / (db * bn * sb)) / k_align * k_align)
                    .min(k_hi)
            };
            let bk = if r.base_k > 0 {
                let bk = r.base_k as i64;
                if bm * bk * sa / 8 > l0a || bn * bk * sb / 8 > l0b {
                    continue;
                }
                bk
            } else if fit(2) >= k_lo.max(k_align) {
                // Even K blocks: as many as that size needs, each no larger than it.
                let most = fit(2);
                let blocks = ceil_div(sc_k, most);
                align_up(ceil_div(sc_k, blocks), k_align)
                    .min(most)
                    .max(k_lo)
            } else if fit(1) >= k_lo.max(k_align) {
                fit(1)
            } else {
                continue;
            };
            // Each side double-buffers its L0 when two blocks fit (the vendor's rule).
            let db_a = if 2 * bm * bk * sa / 8 <= l0a { 2 } else { 1 };
            let db_b = if 2 * bn * bk * sb / 8 <= l0b { 2 } else { 1 };
            if bm * bk * sa / 8 + bn * bk * sb / 8 + bias_l1(bn) > l1 {
                continue;
            }
            if ub_block > 0 && bm * bn * ub_block + 32 * bm.max(bn).max(bk) + 32 > ub {
                continue;
            }
            let blocks = (ceil_div(sc_m, bm) * ceil_div(sc_n, bn) * ceil_div(sc_k, bk)) as f64;
            let mad = (bm * bn * bk) as f64 / 4096.0;
            let load = ((bm * sa + bn * sb) * bk) as f64 / 1024.0;
            let out = (bm * bn) as f64 / 64.0 / ceil_div(sc_k, bk) as f64;
            let cost = blocks * (mad + load + out + 32.0);
            let cand = Base {
                m: bm,
                n: bn,
                k: bk,
                db_a,
                db_b,
                db_c,
            };
            let better = match &best {
                None => true,
                Some((c, b)) => {
                    cost < *c * (1.0 - 1e-9)
                        || ((cost - *c).abs() <= *c * 1e-9 && (bn, bm) > (b.n, b.m))
                }
            };
            if better {
                best = Some((cost, cand));
            }
        }
    }
    match best {
        Some((_, b)) => Ok(b),
        None => err(format!(
            "no baseM/baseN/baseK fits L0A {l0a}, L0B {l0b}, L0C {l0c} and L1 {l1} bytes within SetFixSplit / SetSplitRange"
        )),
    }
}
