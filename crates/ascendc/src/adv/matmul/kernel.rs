//! The kernel-side Matmul on a cube core (`MatmulImpl`): from the tiling, the shapes and the
//! operands it walks C's `baseM × baseN` blocks, and for each block issues the basic API's cube
//! instructions — ND→NZ `DataCopy` of A and B tiles into L1 (PIPE_MTE2), `LoadData` into L0A /
//! L0B (PIPE_MTE1), one `Mmad` per K step into L0C (PIPE_M, the first step starting from zero or
//! from the bias row in the BiasTable) and `Fixpipe` out of L0C (PIPE_FIX) — handing buffers over
//! with TQue EnQue/DeQue, as the vendor's implementation does. The accumulation order is the
//! device's: per block, L0C = bias (or 0), then one Mmad per K step in increasing K, each adding
//! its `baseK` (or tail) columns in fp32 (int32 for int8); the output type is reached once, in
//! Fixpipe (docs/high-level/matmul.md).

use super::spec::{IterateOrder, MatType, MatmulSpec, Schedule};
use super::tiling::{CubeFormat, TCubeTiling};
use crate::api::cube::fixpipe::{fixpipe, FixpipeParamsV220, QuantMode, CFG_NZ, CFG_ROW_MAJOR};
use crate::api::cube::load::{
    load_data, load_data_with_transpose, LoadData2DParams, LoadData2dTransposeParams,
};
use crate::api::cube::mmad::{mmad, MmadParams};
use crate::api::cube::mode::{set_hf32_mode, set_hf32_trans_mode, HF32Mode, HF32TransMode};
use crate::api::cube::sparse::{load_data_with_sparse, mmad_with_sparse};
use crate::api::data_copy::nz::Nd2NzParams;
use crate::api::data_copy::{data_copy, DataCopyParams};
use crate::dtype::{bf16, f16, DType, Element, Int4, TensorElement};
use crate::error::{Category, Result, SimError};
use crate::multicore::api::{set_atomic_add, set_atomic_max, set_atomic_min, set_atomic_none};
use crate::position::{Hardware, QuePosition, TPosition};
use crate::{pipe_barrier, GlobalTensor, LocalTensor, Pipe, TPipe, TQue};

/// Bytes of one fractal (16 rows of 32 bytes).
const FRACTAL: u32 = 512;

/// An input element type of the cube and its accumulator (`L0cT`): float for half, bfloat16
/// and float, int32 for int8.
pub trait MmInput: TensorElement {
    /// The L0C element type.
    type Acc: Element;
}

impl MmInput for f16 {
    type Acc = f32;
}
impl MmInput for bf16 {
    type Acc = f32;
}
impl MmInput for f32 {
    type Acc = f32;
}
impl MmInput for i8 {
    type Acc = i32;
}
impl MmInput for Int4 {
    type Acc = i32;
}

/// Bytes of `n` elements of `T` (int4: two to a byte).
fn bytes_of<T: TensorElement>(n: u32) -> u32 {
    n * T::BITS / 8
}

/// `ceil(x / a) · a`.
fn align(x: u32, a: u32) -> u32 {
    x.div_ceil(a) * a
}

/// The Fixpipe conversion of each output element type (`quantPre`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quant {
    /// No quantisation word set.
    None,
    /// `SetQuantScalar(word)`: one word for every column.
    Scalar(u64),
    /// `SetQuantVector(words)`: one word per column of C (N words in GM).
    Vector,
}

/// One block of C: its indices and real size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Block {
    m: u32,
    n: u32,
    rows: u32,
    cols: u32,
}

/// Where an input matrix is: in GM (ND, or one row for a VECTOR A), or — declared at position
/// TSCM — already in L1, this core's whole share in NZ (`SetTensorA/B(LocalTensor)`).
#[derive(Clone)]
enum Operand<T: TensorElement> {
    Gm(GlobalTensor<T>),
    L1(LocalTensor<T>),
}

impl<T: TensorElement> Operand<T> {
    /// The GM tensor, for the calls that take only GM operands.
    fn gm(&self, api: &'static str) -> Result<&GlobalTensor<T>> {
        match self {
            Operand::Gm(g) => Ok(g),
            Operand::L1(_) => Err(SimError::new(
                Category::Unsupported,
                api,
                "an operand already in L1 (TSCM) is not modelled here: pass it in GM",
            )),
        }
    }
}

/// The Matmul's buffers, allocated from the kernel's pipe at `Init`.
struct Buffers {
    a1: TQue<QuePosition::A1, 2>,
    b1: TQue<QuePosition::B1, 2>,
    a2: TQue<QuePosition::A2, 2>,
    b2: TQue<QuePosition::B2, 2>,
    co1: TQue<QuePosition::CO1, 1>,
    bias1: TQue<QuePosition::C1, 1>,
    bias2: TQue<QuePosition::C2, 1>,
    quant1: TQue<QuePosition::C1, 1>,
    /// The index tiles of a sparse B.
    idx1: TQue<QuePosition::B1, 2>,
}

/// A kernel-side Matmul on a cube core: A and B of `A`, C of `C`, bias of `Bias`.
pub struct MatmulCore<A: MmInput, C: Element, Bias: Element> {
    spec: MatmulSpec,
    tiling: TCubeTiling,
    /// (M, N, Ka, Kb, Kc): the whole matrices' shapes (`SetOrgShape`).
    org: [u32; 5],
    /// (singleCoreM, singleCoreN, singleCoreK): this core's share (`SetTail`/`SetSingleShape`).
    single: [u32; 3],
    a: Option<Operand<A>>,
    b: Option<Operand<A>>,
    trans_a: bool,
    trans_b: bool,
    bias: Option<GlobalTensor<Bias>>,
    quant: Quant,
    quant_vec: Option<GlobalTensor<u64>>,
    /// The index matrix of a sparse B (`SetSparseIndex`).
    index: Option<GlobalTensor<u8>>,
    bufs: Option<Buffers>,
    /// The walk: the blocks (m, n, K step or `u32::MAX` for all) in iteration order and the
    /// next one's index.
    order: Vec<(u32, u32, u32)>,
    next: usize,
    /// The block whose result L0C holds, if `Iterate` computed one `GetTensorC` has not taken.
    ready: Option<(Block, LocalTensor<A::Acc>)>,
    _c: std::marker::PhantomData<C>,
}

fn err(api: &'static str, msg: impl Into<String>) -> SimError {
    SimError::new(Category::Range, api, msg.into())
}

impl<A: MmInput, C: Element, Bias: Element> MatmulCore<A, C, Bias> {
    /// A Matmul of `spec` (not initialised).
    pub fn new(spec: MatmulSpec) -> Self {
        MatmulCore {
            spec,
            tiling: TCubeTiling::default(),
            org: [0; 5],
            single: [0; 3],
            a: None,
            b: None,
            trans_a: false,
            trans_b: false,
            bias: None,
            quant: Quant::None,
            quant_vec: None,
            index: None,
            bufs: None,
            order: Vec::new(),
            next: 0,
            ready: None,
            _c: std::marker::PhantomData,
        }
    }

    /// The declaration.
    pub fn spec(&self) -> &MatmulSpec {
        &self.spec
    }

    /// `Init(&tiling, pipe)`: checks the tiling, takes its shapes and allocates the buffers.
    pub fn init(&mut self, pipe: &mut TPipe, tiling: &TCubeTiling) -> Result<()> {
        const API: &str = "Matmul::Init";
        let t = *tiling;
        let pos = |name: &str, v: i32| -> Result<u32> {
            if v <= 0 {
                Err(err(
                    API,
                    format!("tiling.{name} is {v}: it must be positive (fill the TCubeTiling with GetTiling)"),
                ))
            } else {
                Ok(v as u32)
            }
        };
        let (base_m, base_n, base_k) = (
            pos("baseM", t.baseM)?,
            pos("baseN", t.baseN)?,
            pos("baseK", t.baseK)?,
        );
        let c0 = 256 / A::BITS;
        let acc = <A::Acc as Element>::SIZE as u32;
        let (bm, bn, bk) = (
            align(base_m, 16),
            align(base_n, 16),
            align(base_k, c0.max(16)),
        );
        let mut b = Buffers {
            a1: TQue::new(),
            b1: TQue::new(),
            a2: TQue::new(),
            b2: TQue::new(),
            co1: TQue::new(),
            bias1: TQue::new(),
            bias2: TQue::new(),
            quant1: TQue::new(),
            idx1: TQue::new(),
        };
        let two = |d: i32| if d >= 2 { 2 } else { 1 };
        // One tile either way round: `align16(rows) × align(cols, C0)` with M (N) or K as the
        // rows; int8 keeps K rows in groups of 32, int4 of 64 (the transposing squares).
        let k_rows = align(base_k, c0.max(16));
        let tile =
            |x: u32| bytes_of::<A>((align(x, 16) * align(base_k, c0)).max(k_rows * align(x, c0)));
        pipe.init_buffer(&mut b.a1, two(t.depthA1), tile(base_m))?;
        pipe.init_buffer(&mut b.b1, two(t.depthB1), tile(base_n))?;
        // int8 (int4) B lands in L0B as whole 32 × 32 (64 × 64) squares.
        let nb = if c0 >= 32 { align(bn, c0) } else { bn };
        pipe.init_buffer(&mut b.a2, two(t.dbL0A), bytes_of::<A>(bm * bk))?;
        pipe.init_buffer(&mut b.b2, two(t.dbL0B), bytes_of::<A>(nb * bk))?;
        pipe.init_buffer(&mut b.co1, 1, bm * bn * acc)?;
        if t.isBias != 0 {
            pipe.init_buffer(&mut b.bias1, 1, align(bn * Bias::SIZE as u32, 64))?;
            pipe.init_buffer(&mut b.bias2, 1, 1024)?;
        }
        if A::DTYPE == DType::Int8 && C::DTYPE != DType::Int32 {
            pipe.init_buffer(&mut b.quant1, 1, align(bn * 8, 128))?;
        }
        if self.spec.b.sparse {
            // One index byte per 8 columns of A, in NZ groups of 8 bytes.
            pipe.init_buffer(
                &mut b.idx1,
                two(t.depthB1),
                bn * align(base_k.div_ceil(8), 8),
            )?;
        }
        self.tiling = t;
        self.org = [
            t.M as u32,
            t.N as u32,
            t.Ka as u32,
            t.Kb.max(t.Ka) as u32,
            0,
        ];
        self.single = [
            t.singleCoreM as u32,
            t.singleCoreN as u32,
            t.singleCoreK as u32,
        ];
        self.bufs = Some(b);
        self.reset();
        Ok(())
    }

    fn bufs(&mut self, api: &'static str) -> Result<&mut Buffers> {
        self.bufs.as_mut().ok_or_else(|| {
            SimError::new(
                Category::QueueState,
                api,
                "the Matmul has no tiling: register it with REGIST_MATMUL_OBJ(&pipe, workspace, mm, &tiling) or call Init(&tiling) first",
            )
        })
    }

    /// Starts the walk over C's blocks again (after new operands or shapes).
    fn reset(&mut self) {
        self.order.clear();
        self.next = 0;
    }

    /// `SetOrgShape(orgM, orgN, orgKa, orgKb, orgKc)`: the whole matrices' shapes (Kc 0: N).
    pub fn set_org_shape(&mut self, m: i32, n: i32, ka: i32, kb: i32, kc: i32) -> Result<()> {
        const API: &str = "Matmul::SetOrgShape";
        for (name, v) in [("orgM", m), ("orgN", n), ("orgKa", ka), ("orgKb", kb)] {
            if v <= 0 {
                return Err(err(API, format!("{name} is {v}: it must be positive")));
            }
        }
        if kc < 0 {
            return Err(err(API, format!("orgKc is {kc}: it must not be negative")));
        }
        self.org = [m as u32, n as u32, ka as u32, kb as u32, kc as u32];
        self.reset();
        Ok(())
    }

    /// `SetTail(tailM, tailN, tailK)` / `SetSingleShape`: this core's share of M, N and K (−1
    /// keeps a value).
    pub fn set_tail(&mut self, m: i32, n: i32, k: i32) -> Result<()> {
        const API: &str = "Matmul::SetTail";
        for (i, (name, v)) in [("tailM", m), ("tailN", n), ("tailK", k)]
            .into_iter()
            .enumerate()
        {
            match v {
                -1 => {}
                v if v > 0 => self.single[i] = v as u32,
                v => {
                    return Err(err(
                        API,
                        format!("{name} is {v}: it must be positive (or -1 to keep it)"),
                    ))
                }
            }
        }
        self.reset();
        Ok(())
    }

    /// `SetTensorA(gm, isTransposeA)`.
    pub fn set_tensor_a(&mut self, a: &GlobalTensor<A>, trans: bool) -> Result<()> {
        self.set_operand(false, Operand::Gm(a.clone()), trans)
    }

    /// `SetTensorB(gm, isTransposeB)`.
    pub fn set_tensor_b(&mut self, b: &GlobalTensor<A>, trans: bool) -> Result<()> {
        self.set_operand(true, Operand::Gm(b.clone()), trans)
    }

    /// (API, name, declaration) of A, or of B when `b`.
    fn operand_decl(&self, b: bool) -> (&'static str, &'static str, MatType) {
        if b {
            ("Matmul::SetTensorB", "B", self.spec.b)
        } else {
            ("Matmul::SetTensorA", "A", self.spec.a)
        }
    }

    /// Takes A (B when `b`) after checking the transpose against the declaration.
    fn set_operand(&mut self, b: bool, op: Operand<A>, trans: bool) -> Result<()> {
        let (api, name, ty) = self.operand_decl(b);
        if trans && !ty.trans {
            return Err(err(
                api,
                format!("isTranspose{name} is true but {name}'s MatmulType says isTrans = false"),
            ));
        }
        if b {
            self.b = Some(op);
            self.trans_b = trans;
        } else {
            self.a = Some(op);
            self.trans_a = trans;
        }
        self.reset();
        Ok(())
    }

    /// `SetTensorA(localTensor, isTransposeA)` / `SetTensorB` (`b`): an operand declared at
    /// position TSCM in NZ, already in L1: this core's whole share (`singleCoreM × singleCoreK`
    /// for A, `singleCoreK × singleCoreN` for B, or their transposes), rows aligned to 16 (to 32
    /// for the K rows of an int8 B, and of a transposed int8 A), columns to 32 bytes.
    pub fn set_tensor_l1(&mut self, b: bool, t: &LocalTensor<A>, trans: bool) -> Result<()> {
        let (api, name, ty) = self.operand_decl(b);
        if ty.pos != TPosition::TSCM {
            return Err(SimError::new(
                Category::Position,
                api,
                format!("a LocalTensor operand needs {name}'s MatmulType at TPosition::TSCM; it is declared at {} (pass a GlobalTensor)", ty.pos),
            ));
        }
        if ty.format != CubeFormat::NZ {
            return Err(SimError::new(
                Category::Unsupported,
                api,
                format!(
                    "a TSCM {name} in {:?} is not modelled: declare it NZ (CubeFormat::NZ)",
                    ty.format
                ),
            ));
        }
        if t.hardware() != Hardware::L1 {
            return Err(SimError::new(
                Category::Position,
                api,
                format!(
                    "{name} is a tensor of {} in {}; a TSCM operand is in L1",
                    t.get_position(),
                    t.hardware()
                ),
            ));
        }
        self.set_operand(b, Operand::L1(*t), trans)
    }

    /// `SetBias(gm)`: C starts from this row of N values.
    pub fn set_bias(&mut self, bias: &GlobalTensor<Bias>) -> Result<()> {
        if Bias::DTYPE != <A::Acc as Element>::DTYPE {
            return Err(err(
                "Matmul::SetBias",
                format!(
                    "a {} bias with a {} accumulator is not modelled (the bias type must be the accumulator's)",
                    Bias::DTYPE,
                    <A::Acc as Element>::DTYPE
                ),
            ));
        }
        if self.tiling.isBias == 0 && self.bufs.is_some() {
            return Err(err(
                "Matmul::SetBias",
                "the tiling has isBias = 0, so no bias buffer was allocated: call EnableBias(true) on the host tiling",
            ));
        }
        self.bias = Some(bias.clone());
        self.reset();
        Ok(())
    }

    /// `DisableBias()` / `ClearBias()`.
    pub fn disable_bias(&mut self) {
        self.bias = None;
    }

    /// `SetSparseIndex(gm)`: the index matrix of a `SparseMatmulType` B — 2-bit indices four to a
    /// byte (the first in the low bits), one byte per 8 columns of A, in NZ (fractals of 16 rows
    /// of 8 bytes, column groups `align16(orgN)` rows tall).
    pub fn set_sparse_index(&mut self, index: &GlobalTensor<u8>) -> Result<()> {
        const API: &str = "Matmul::SetSparseIndex";
        if !self.spec.b.sparse {
            return Err(SimError::new(
                Category::Type,
                API,
                "B is not a SparseMatmulType: declare it SparseMatmulType<pos, indexPos, format, int8_t, true>",
            ));
        }
        self.index = Some(index.clone());
        self.reset();
        Ok(())
    }

    /// `SetHF32(enableHF32, transMode)`: float inputs are rounded to HF32 before each Mmad
    /// (the cube core's `SetHF32Mode`), ties away from zero with `transMode` 1 (else to even).
    pub fn set_hf32(&mut self, enable: bool, trans_mode: i32) -> Result<()> {
        if !matches!(trans_mode, 0 | 1) {
            return Err(err(
                "Matmul::SetHF32",
                format!("transMode is {trans_mode}: 0 (ties to even) or 1 (ties away from zero)"),
            ));
        }
        set_hf32_mode(if enable {
            HF32Mode::Enable
        } else {
            HF32Mode::Disable
        })?;
        set_hf32_trans_mode(if trans_mode == 1 {
            HF32TransMode::NearestZero
        } else {
            HF32TransMode::NearestEven
        })
    }

    /// `SetQuantScalar(word)`.
    pub fn set_quant_scalar(&mut self, word: u64) {
        self.quant = Quant::Scalar(word);
    }

    /// `SetQuantVector(words)`: N quantisation words in GM.
    pub fn set_quant_vector(&mut self, words: &GlobalTensor<u64>) {
        self.quant = Quant::Vector;
        self.quant_vec = Some(words.clone());
    }

    /// The walk over the blocks: `(mIter, nIter)` and the order.
    fn plan(&mut self) -> Result<()> {
        let t = &self.tiling;
        let [sm, sn, _] = self.single;
        let (bm, bn) = (t.baseM as u32, t.baseN as u32);
        let (mi, ni) = (sm.div_ceil(bm), sn.div_ceil(bn));
        let order = match self.spec.cfg.iterate_order {
            IterateOrder::Undef => {
                if t.iterateOrder == 1 {
                    IterateOrder::OrderN
                } else {
                    IterateOrder::OrderM
                }
            }
            o => o,
        };
        let (step_m, step_n) = (t.stepM.max(1) as u32, t.stepN.max(1) as u32);
        let mut v = Vec::with_capacity((mi * ni) as usize);
        if order == IterateOrder::OrderM {
            for g in (0..ni).step_by(step_n as usize) {
                for m in 0..mi {
                    for n in g..(g + step_n).min(ni) {
                        v.push((m, n));
                    }
                }
            }
        } else {
            for g in (0..mi).step_by(step_m as usize) {
                for n in 0..ni {
                    for m in g..(g + step_m).min(mi) {
                        v.push((m, n));
                    }
                }
            }
        }
        // With isPartialOutput each K step of a block is an output of its own, K innermost.
        let ks = if self.spec.cfg.partial_output {
            self.k_steps().len() as u32
        } else {
            0
        };
        self.order = v
            .into_iter()
            .flat_map(|(m, n)| {
                let per: Vec<u32> = if ks == 0 {
                    vec![u32::MAX]
                } else {
                    (0..ks).collect()
                };
                per.into_iter().map(move |k| (m, n, k))
            })
            .collect();
        self.next = 0;
        Ok(())
    }

    /// `Iterate()`: computes the next block of C into L0C; false when every block is done.
    /// With `isPartialOutput` each K step of a block is an Iterate of its own.
    pub fn iterate(&mut self) -> Result<bool> {
        self.step(None)
    }

    /// `Iterate(enPartialSum, l0cTensor)`: the next block into the caller's CO1 tensor, which
    /// the caller moves out itself (`GetTensorC` has nothing to take).
    pub fn iterate_into(&mut self, l0c: &LocalTensor<A::Acc>) -> Result<bool> {
        self.step(Some(l0c))
    }

    fn step(&mut self, into: Option<&LocalTensor<A::Acc>>) -> Result<bool> {
        const API: &str = "Matmul::Iterate";
        self.bufs(API)?;
        if self.a.is_none() || self.b.is_none() {
            return Err(err(
                API,
                "SetTensorA and SetTensorB must come before Iterate",
            ));
        }
        if let Some((_, l0c)) = self.ready.take() {
            // A block GetTensorC never took: its L0C goes back unread.
            let b = self.bufs(API)?;
            b.co1.deque::<A::Acc>()?;
            b.co1.free_tensor(&l0c)?;
        }
        if self.next == 0 && self.order.is_empty() {
            let named = [
                ("M (tiling.M or SetOrgShape)", self.org[0]),
                ("N (tiling.N or SetOrgShape)", self.org[1]),
                ("Ka (tiling.Ka or SetOrgShape)", self.org[2]),
                (
                    "singleCoreM (tiling or SetTail/SetSingleShape)",
                    self.single[0],
                ),
                (
                    "singleCoreN (tiling or SetTail/SetSingleShape)",
                    self.single[1],
                ),
                (
                    "singleCoreK (tiling or SetTail/SetSingleShape)",
                    self.single[2],
                ),
            ];
            if let Some((name, _)) = named.iter().find(|(_, v)| *v == 0) {
                return Err(err(
                    API,
                    format!("{name} is 0: the Matmul has no shape to compute"),
                ));
            }
            self.plan()?;
        }
        let Some(&(m, n, k)) = self.order.get(self.next) else {
            return Ok(false);
        };
        self.next += 1;
        let t = self.tiling;
        let [sm, sn, _] = self.single;
        let (bm, bn) = (t.baseM as u32, t.baseN as u32);
        let block = Block {
            m,
            n,
            rows: (sm - m * bm).min(bm),
            cols: (sn - n * bn).min(bn),
        };
        let all = self.k_steps();
        let steps = if k == u32::MAX {
            &all[..]
        } else {
            &all[k as usize..k as usize + 1]
        };
        let l0c = self.compute(block, steps, into)?;
        if let Some(l0c) = l0c {
            self.ready = Some((block, l0c));
        }
        Ok(true)
    }

    /// The index matrix of a sparse B, checking what a sparse Matmul needs.
    fn sparse_index(&self, trans_b: bool, bias: bool) -> Result<GlobalTensor<u8>> {
        const API: &str = "Matmul::Iterate";
        if A::DTYPE != DType::Int8 {
            return Err(err(
                API,
                format!("a SparseMatmulType B of {} (int8_t only)", A::DTYPE),
            ));
        }
        if !trans_b {
            return Err(err(
                API,
                "a sparse B is given transposed (N rows of K/2 dense values): SetTensorB(gm, true)",
            ));
        }
        if self.spec.cfg.schedule != Schedule::Mdl {
            return Err(err(
                API,
                "a sparse Matmul runs the MDL template: declare it with CFG_MDL",
            ));
        }
        if bias {
            return Err(SimError::new(
                Category::Unsupported,
                API,
                "a sparse Matmul with a bias is not modelled (MmadWithSparse starts C from 0 or from itself)",
            ));
        }
        self.index.clone().ok_or_else(|| {
            err(
                API,
                "a sparse B needs its index matrix: call SetSparseIndex first",
            )
        })
    }

    /// A triangular policy computes every block but writes only those on its side of the
    /// diagonal of the core's window (by block index).
    fn skipped(&self, blk: &Block) -> bool {
        match self.spec.cfg.policy {
            2 => blk.m > blk.n,
            3 => blk.m < blk.n,
            _ => false,
        }
    }

    /// Mmad and Fixpipe hand `blk`'s L0C over with unit flags: as the config says, except for a
    /// block no Fixpipe reads (a triangular policy's skipped one) and a one-row ND block (computed
    /// as 16 rows but moved out as one, which would leave the other rows' units with Fixpipe);
    /// those go by the queue alone.
    fn unit_flags(&self, blk: &Block) -> bool {
        self.spec.cfg.unit_flag
            && !(blk.rows == 1 && self.spec.a.format != CubeFormat::Vector)
            && !self.skipped(blk)
    }

    /// (rows, columns) of the block `Iterate` computed and `GetTensorC` has not taken.
    pub fn block_shape(&self) -> Option<(u32, u32)> {
        self.ready.as_ref().map(|(b, _)| (b.rows, b.cols))
    }

    /// The K steps of one block: (first K column, width), `baseK` wide (the last the tail).
    fn k_steps(&self) -> Vec<(u32, u32)> {
        let sk = self.single[2];
        let base_k = self.tiling.baseK as u32;
        let span = match self.spec.cfg.schedule {
            Schedule::Mdl | Schedule::Other => {
                base_k * (self.tiling.stepKa.min(self.tiling.stepKb).max(1) as u32)
            }
            Schedule::Norm | Schedule::IbShareNorm => base_k,
        };
        let mut v = Vec::new();
        let mut k0 = 0;
        while k0 < sk {
            let end = (k0 + span).min(sk);
            let mut k = k0;
            while k < end {
                v.push((k, base_k.min(end - k)));
                k += base_k;
            }
            k0 = end;
        }
        v
    }

    /// Issues one block's copies, loads and Mmads over the K steps `steps`: into the caller's
    /// CO1 tensor `into`, or into one of the Matmul's own, enqueued for Fixpipe (returned).
    fn compute(
        &mut self,
        blk: Block,
        steps: &[(u32, u32)],
        into: Option<&LocalTensor<A::Acc>>,
    ) -> Result<Option<LocalTensor<A::Acc>>> {
        let a = self.a.clone().expect("checked");
        let b = self.b.clone().expect("checked");
        let bias = self.bias.clone();
        let (trans_a, trans_b) = (self.trans_a, self.trans_b);
        let index = if self.spec.b.sparse {
            Some(self.sparse_index(trans_b, bias.is_some())?)
        } else {
            None
        };
        let vector_a = self.spec.a.format == CubeFormat::Vector;
        let t = self.tiling;
        let [sm, sn, sk] = self.single;
        let [org_m, org_n, org_ka, org_kb, _] = self.org;
        let unit = self.unit_flags(&blk);
        let bufs = self.bufs("Matmul::Iterate")?;
        let c0 = 256 / A::BITS;
        let (rows, cols) = (blk.rows, blk.cols);
        let row0 = blk.m * t.baseM as u32;
        let col0 = blk.n * t.baseN as u32;
        let co1 = match into {
            Some(t) => *t,
            None => bufs.co1.alloc_tensor::<A::Acc>()?,
        };
        // The bias row goes GM -> C1 -> BiasTable once per block.
        let c2 = match &bias {
            Some(g) => {
                let c1 = bufs.bias1.alloc_tensor::<Bias>()?;
                let p = Nd2NzParams {
                    nd_num: 1,
                    n_value: 1,
                    d_value: cols as u16,
                    src_nd_matrix_stride: 0,
                    src_d_value: cols as u16,
                    dst_nz_c0_stride: 1,
                    dst_nz_n_stride: 1,
                    dst_nz_matrix_stride: 0,
                };
                data_copy(&c1, &g.at(col0 as u64)?, p)?;
                bufs.bias1.enque(&c1)?;
                let c1 = bufs.bias1.deque::<Bias>()?;
                let c2 = bufs.bias2.alloc_tensor::<A::Acc>()?;
                let bytes = cols * <A::Acc as Element>::SIZE as u32;
                let p = DataCopyParams {
                    block_count: 1,
                    block_len: bytes.div_ceil(64) as u16,
                    src_stride: 0,
                    dst_stride: 0,
                };
                data_copy(&c2, &c1.reinterpret_cast::<A::Acc>(), p)?;
                bufs.bias1.free_tensor(&c1)?;
                bufs.bias2.enque(&c2)?;
                Some(bufs.bias2.deque::<A::Acc>()?)
            }
            None => None,
        };
        let last = steps.len().saturating_sub(1);
        for (i, &(k0, kw)) in steps.iter().enumerate() {
            // GM -> L1 (ND -> NZ) and L1 -> L0A; a VECTOR A (GEMV) stays one row of K elements;
            // an A in TSCM is read where it is.
            let a2 = match &a {
                Operand::L1(l1) => {
                    let (h, w, r0, col) = if trans_a {
                        (sk, sm, k0, row0)
                    } else {
                        (sm, sk, row0, k0)
                    };
                    let h_al = align(h, if trans_a && c0 >= 32 { c0 } else { 16 });
                    let src = l1_tile(l1, "A", h_al, w, r0, col)?;
                    let a2 = bufs.a2.alloc_tensor::<A>()?;
                    load_a(&a2, &src, rows, kw, h_al, trans_a)?;
                    a2
                }
                Operand::Gm(a) => {
                    let a1 = bufs.a1.alloc_tensor::<A>()?;
                    if vector_a {
                        let bytes = bytes_of::<A>(kw);
                        let p = DataCopyParams {
                            block_count: 1,
                            block_len: bytes.div_ceil(32) as u16,
                            src_stride: 0,
                            dst_stride: 0,
                        };
                        data_copy(&a1, &a.at(k0 as u64)?, p)?;
                        bufs.a1.enque(&a1)?;
                        let a1 = bufs.a1.deque::<A>()?;
                        let a2 = bufs.a2.alloc_tensor::<A>()?;
                        let p = LoadData2DParams::new(
                            0,
                            bytes.div_ceil(FRACTAL) as u8,
                            1,
                            0,
                            0,
                            false,
                            0,
                        );
                        load_data(&a2, &a1, p)?;
                        bufs.a1.free_tensor(&a1)?;
                        a2
                    } else {
                        let (h, w, src_d, off) = if trans_a {
                            (kw, rows, org_m, k0 as u64 * org_m as u64 + row0 as u64)
                        } else {
                            (rows, kw, org_ka, row0 as u64 * org_ka as u64 + k0 as u64)
                        };
                        let h_al = align(h, if trans_a && c0 >= 32 { c0 } else { 16 });
                        nd2nz(&a1, &a.at(off)?, h, w, src_d, h_al)?;
                        bufs.a1.enque(&a1)?;
                        let a1 = bufs.a1.deque::<A>()?;
                        let a2 = bufs.a2.alloc_tensor::<A>()?;
                        load_a(&a2, &a1, rows, kw, h_al, trans_a)?;
                        bufs.a1.free_tensor(&a1)?;
                        a2
                    }
                }
            };
            bufs.a2.enque(&a2)?;
            // GM -> L1 and L1 -> L0B (a B in TSCM is read where it is).
            let b2 = match (&b, &index) {
                (Operand::Gm(b), Some(idx)) => {
                    // Sparse: the densified Bᵀ tile (N rows of kw/2 bytes) and its index tile
                    // (NZ groups of 8 bytes) into L1, then both into L0B and the index buffer.
                    let h_al = align(cols, 16);
                    let b1 = bufs.b1.alloc_tensor::<A>()?;
                    let dense = b.at(col0 as u64 * (org_kb / 2) as u64 + (k0 / 2) as u64)?;
                    nd2nz(&b1, &dense, cols, kw / 2, org_kb / 2, h_al)?;
                    let i1 = bufs.idx1.alloc_tensor::<u8>()?;
                    let g_rows = align(org_n, 16);
                    let p = DataCopyParams {
                        block_count: (kw / 8).div_ceil(8) as u16,
                        block_len: (h_al * 8 / 32) as u16,
                        src_stride: ((g_rows - h_al) * 8 / 32) as u16,
                        dst_stride: 0,
                    };
                    let at = (k0 / 64) as u64 * 8 * g_rows as u64 + col0 as u64 * 8;
                    data_copy(&i1, &idx.at(at)?, p)?;
                    bufs.b1.enque(&b1)?;
                    bufs.idx1.enque(&i1)?;
                    let b1 = bufs.b1.deque::<A>()?;
                    let i1 = bufs.idx1.deque::<u8>()?;
                    let b2 = bufs.b2.alloc_tensor::<A>()?;
                    let b2i = b2.reinterpret_cast::<i8>();
                    let n1 = cols.div_ceil(16);
                    for kd in 0..(kw / 2).div_ceil(32) {
                        let p = LoadData2DParams::new(
                            (kd * h_al / 16) as u16,
                            n1 as u8,
                            1,
                            0,
                            0,
                            false,
                            0,
                        );
                        load_data_with_sparse(
                            &b2i.at(kd * n1 * 512)?,
                            &b1.reinterpret_cast::<i8>(),
                            &i1,
                            p,
                        )?;
                    }
                    bufs.b1.free_tensor(&b1)?;
                    bufs.idx1.free_tensor(&i1)?;
                    b2
                }
                (Operand::L1(l1), _) => {
                    let (h, w, r0, col) = if trans_b {
                        (sn, sk, col0, k0)
                    } else {
                        (sk, sn, k0, col0)
                    };
                    let h_al = align(h, if !trans_b && c0 >= 32 { c0 } else { 16 });
                    let src = l1_tile(l1, "B", h_al, w, r0, col)?;
                    let b2 = bufs.b2.alloc_tensor::<A>()?;
                    load_b(&b2, &src, kw, cols, h_al, trans_b)?;
                    b2
                }
                (Operand::Gm(b), None) => {
                    let b1 = bufs.b1.alloc_tensor::<A>()?;
                    let (h, w, src_d, off) = if trans_b {
                        (cols, kw, org_kb, col0 as u64 * org_kb as u64 + k0 as u64)
                    } else {
                        (kw, cols, org_n, k0 as u64 * org_n as u64 + col0 as u64)
                    };
                    let h_al = align(h, if !trans_b && c0 >= 32 { c0 } else { 16 });
                    nd2nz(&b1, &b.at(off)?, h, w, src_d, h_al)?;
                    bufs.b1.enque(&b1)?;
                    let b1 = bufs.b1.deque::<A>()?;
                    let b2 = bufs.b2.alloc_tensor::<A>()?;
                    load_b(&b2, &b1, kw, cols, h_al, trans_b)?;
                    bufs.b1.free_tensor(&b1)?;
                    b2
                }
            };
            bufs.b2.enque(&b2)?;
            let a2 = bufs.a2.deque::<A>()?;
            let b2 = bufs.b2.deque::<A>()?;
            let first = i == 0;
            // One row of an ND A is computed as 16 (the hardware's GEMV mode is for VECTOR A).
            let mad_m = if rows == 1 && !vector_a { 16 } else { rows };
            let mut p = MmadParams::new(mad_m as u16, cols as u16, kw as u16, false);
            p.cmatrix_source = first && c2.is_some();
            p.cmatrix_init_val = first && c2.is_none();
            p.unit_flag = if unit {
                if i == last {
                    3
                } else {
                    2
                }
            } else {
                0
            };
            // The bias row starts C through cmatrixSource (the BiasTable from byte 0, as the
            // device's Matmul issues it; the only form int4 has), or, placed elsewhere, as the
            // bias operand.
            match (&c2, first) {
                _ if index.is_some() => mmad_with_sparse(
                    &co1.reinterpret_cast::<i32>(),
                    &a2.reinterpret_cast::<i8>(),
                    &b2.reinterpret_cast::<i8>(),
                    p,
                )?,
                (Some(c2), true) if c2.get_phy_addr() != 0 => mmad(&co1, &a2, &b2, c2, p)?,
                _ => mmad(&co1, &a2, &b2, (), p)?,
            }
            // A small Mmad leaves L0C before the next one may accumulate (the device's rule:
            // fewer than 10 whole 16 × 16 blocks).
            if (mad_m / 16) * (cols / 16) < 10 {
                pipe_barrier(Pipe::M)?;
            }
            bufs.a2.free_tensor(&a2)?;
            bufs.b2.free_tensor(&b2)?;
        }
        if let Some(c2) = c2 {
            bufs.bias2.free_tensor(&c2)?;
        }
        if into.is_some() {
            return Ok(None);
        }
        bufs.co1.enque(&co1)?;
        Ok(Some(co1))
    }

    /// `GetTensorC(gm, enAtomic, enSequentialWrite)`: the block `Iterate` computed goes to C in
    /// GM at its place (or, sequential, dense at the start of `c`). `atomic`: 0 none, 1 add,
    /// 2 max, 3 min.
    pub fn get_tensor_c(
        &mut self,
        c: &GlobalTensor<C>,
        atomic: u8,
        sequential: bool,
    ) -> Result<()> {
        const API: &str = "Matmul::GetTensorC";
        let Some((blk, _)) = self.ready.take() else {
            return Err(err(
                API,
                "no block to take: GetTensorC follows an Iterate that returned true",
            ));
        };
        let t = self.tiling;
        let [org_m, org_n, _, _, org_kc] = self.org;
        let quant = self.quant;
        let quant_vec = self.quant_vec.clone();
        let relu = self.spec.cfg.relu;
        let unit = self.unit_flags(&blk);
        let channel_split = self.spec.cfg.channel_split;
        let format = self.spec.c.format;
        let skip = self.skipped(&blk);
        let bufs = self.bufs(API)?;
        let co1 = bufs.co1.deque::<A::Acc>()?;
        if skip {
            return bufs.co1.free_tensor(&co1);
        }
        let (rows, cols) = (blk.rows, blk.cols);
        let mut p =
            FixpipeParamsV220::new(cols as u16, rows as u16, align(rows, 16) as u16, 0, relu);
        p.quant_pre = quant_mode(A::DTYPE, C::DTYPE, quant, API)?;
        if unit {
            p.unit_flag = 3;
        }
        if let Quant::Scalar(w) = quant {
            p.deq_scalar = w;
        }
        // The per-column words go GM -> C1 for the vector modes.
        let words = match (&quant_vec, quant) {
            (Some(g), Quant::Vector) => {
                let q1 = bufs.quant1.alloc_tensor::<u64>()?;
                let col0 = (blk.n * t.baseN as u32) as u64;
                let p = DataCopyParams {
                    block_count: 1,
                    block_len: (cols * 8).div_ceil(32) as u16,
                    src_stride: 0,
                    dst_stride: 0,
                };
                data_copy(&q1, &g.at(col0)?, p)?;
                bufs.quant1.enque(&q1)?;
                Some(bufs.quant1.deque::<u64>()?)
            }
            _ => None,
        };
        match atomic {
            0 => {}
            1 => set_atomic_add::<C>()?,
            2 => set_atomic_max::<C>()?,
            3 => set_atomic_min::<C>()?,
            v => {
                return Err(err(
                    API,
                    format!("enAtomic is {v}: 0 (none), 1 (add), 2 (max) or 3 (min)"),
                ))
            }
        }
        let done = if format == CubeFormat::NZ {
            // Column groups of 16, or of 8 floats with channel split.
            let split = channel_split && C::DTYPE == DType::Float;
            let group = if split { 8 } else { 16 };
            p.is_channel_split = split;
            p.n_size = align(cols, group) as u16;
            let (stride, off) = if sequential {
                (align(rows, 16), 0)
            } else {
                (
                    org_m,
                    (blk.n * t.baseN as u32) as u64 * org_m as u64
                        + (blk.m * t.baseM as u32) as u64 * group as u64,
                )
            };
            p.dst_stride = stride * group * C::SIZE as u32 / 32;
            fixpipe(&c.at(off)?, &co1, words.as_ref(), p, CFG_NZ)
        } else {
            let mut stride = if org_kc != 0 { org_kc } else { org_n };
            if format == CubeFormat::NdAlign {
                stride = align(stride, 32 / C::SIZE as u32);
            }
            let off = if sequential {
                stride = cols;
                0
            } else {
                (blk.m * t.baseM as u32) as u64 * stride as u64 + (blk.n * t.baseN as u32) as u64
            };
            p.dst_stride = stride;
            fixpipe(&c.at(off)?, &co1, words.as_ref(), p, CFG_ROW_MAJOR)
        };
        if atomic != 0 {
            set_atomic_none()?;
        }
        done?;
        if let Some(q1) = words {
            bufs.quant1.free_tensor(&q1)?;
        }
        bufs.co1.free_tensor(&co1)
    }

    /// `IterateAll(gm, enAtomic)`: every block of this core's share into C.
    pub fn iterate_all(&mut self, c: &GlobalTensor<C>, atomic: u8) -> Result<()> {
        while self.iterate()? {
            self.get_tensor_c(c, atomic, false)?;
        }
        Ok(())
    }

    /// `IterateBatch`: `max(batchA, batchB)` matrix products, A and B of fewer batches repeating
    /// each matrix (`i / (batch / batchA)`), placed by the operands' `LayoutMode`: NORMAL
    /// matrices one after another (C `i·M·N`, the bias `i·N` with `isBiasBatch`), BSNGD and the
    /// other strided layouts batch `i` at `D` (`S2` for C) steps inside rows of `N·G·D` elements
    /// (`B` blocks of `S·N·G·D` past `N·G` batches), from the tiling's layout fields.
    pub fn iterate_batch(
        &mut self,
        c: &GlobalTensor<C>,
        batch_a: u32,
        batch_b: u32,
        bias_batch: bool,
    ) -> Result<()> {
        self.iterate_batches(c, batch_a, batch_b, bias_batch, 1)
    }

    /// `IterateNBatch(loops, batchA, batchB)`: `loops` IterateBatch calls over consecutive
    /// batches (loop `j` starts at A matrix `j·batchA`, B matrix `j·batchB`, C matrix
    /// `j·max(batchA, batchB)`), all into `c` (the workspace).
    pub fn iterate_n_batch(
        &mut self,
        c: &GlobalTensor<C>,
        loops: u32,
        batch_a: u32,
        batch_b: u32,
        bias_batch: bool,
    ) -> Result<()> {
        self.iterate_batches(c, batch_a, batch_b, bias_batch, loops)
    }

    fn iterate_batches(
        &mut self,
        c: &GlobalTensor<C>,
        batch_a: u32,
        batch_b: u32,
        bias_batch: bool,
        loops: u32,
    ) -> Result<()> {
        const API: &str = "Matmul::IterateBatch";
        let t = self.tiling;
        if batch_a == 0
            || batch_b == 0
            || !batch_a.max(batch_b).is_multiple_of(batch_a.min(batch_b))
        {
            return Err(err(
                API,
                format!("batchA {batch_a} and batchB {batch_b}: both positive, one a multiple of the other"),
            ));
        }
        let (Some(a0), Some(b0)) = (self.a.clone(), self.b.clone()) else {
            return Err(err(
                API,
                "SetTensorA and SetTensorB must come before IterateBatch",
            ));
        };
        let (ga, gb) = (a0.gm(API)?.clone(), b0.gm(API)?.clone());
        let bias0 = self.bias.clone();
        let (org0, single0) = (self.org, self.single);
        let [sm, sn, sk] = single0;
        let batch = batch_a.max(batch_b);
        let u = |v: i32| v.max(1) as u64;
        // (offset of matrix i, row stride) of each operand.
        let place = |layout: u8, info: [i32; 5], rows: u32, cols: u32, i: u64| -> (u64, u32) {
            if layout == 4 || layout == 0 {
                return (i * rows as u64 * cols as u64, cols);
            }
            let [_, s, n, g, d] = info.map(u);
            let per = n * g;
            ((i / per) * s * per * d + (i % per) * d, (per * d) as u32)
        };
        let a_info = [
            t.ALayoutInfoB,
            t.ALayoutInfoS,
            t.ALayoutInfoN,
            t.ALayoutInfoG,
            t.ALayoutInfoD,
        ];
        let b_info = [
            t.BLayoutInfoB,
            t.BLayoutInfoS,
            t.BLayoutInfoN,
            t.BLayoutInfoG,
            t.BLayoutInfoD,
        ];
        let c_info = [
            t.CLayoutInfoB,
            t.CLayoutInfoS1,
            t.CLayoutInfoN,
            t.CLayoutInfoG,
            t.CLayoutInfoS2,
        ];
        let (la, lb, lc) = (self.spec.a.layout, self.spec.b.layout, self.spec.c.layout);
        let (ta, tb) = (self.trans_a, self.trans_b);
        let result = (|| {
            for (j, i) in (0..loops).flat_map(|j| (0..batch).map(move |i| (j as u64, i))) {
                let ia = j * batch_a as u64 + (i / (batch / batch_a)) as u64;
                let ib = j * batch_b as u64 + (i / (batch / batch_b)) as u64;
                let i = j * batch as u64 + i as u64;
                let (ra, ca) = if ta { (sk, sm) } else { (sm, sk) };
                let (rb, cb) = if tb { (sn, sk) } else { (sk, sn) };
                let (oa, sa) = place(la, a_info, ra, ca, ia);
                let (ob, sb) = place(lb, b_info, rb, cb, ib);
                let (oc, scs) = place(lc, c_info, sm, sn, i);
                self.a = Some(Operand::Gm(ga.at(oa)?));
                self.b = Some(Operand::Gm(gb.at(ob)?));
                if let Some(g) = &bias0 {
                    self.bias = Some(if bias_batch {
                        g.at(i * sn as u64)?
                    } else {
                        g.clone()
                    });
                }
                self.org = [sa, sb, sa, sb, scs];
                self.reset();
                self.iterate_all(&c.at(oc)?, 0)?;
            }
            Ok(())
        })();
        self.a = Some(a0);
        self.b = Some(b0);
        self.bias = bias0;
        self.org = org0;
        self.reset();
        result
    }

    /// `End()`: the walk ends and every pipe drains (the queues' events are freed), so another
    /// Matmul object may use the buffers this one shares with it; the bias and the operands stay
    /// set.
    pub fn end(&mut self) -> Result<()> {
        if let Some((_, l0c)) = self.ready.take() {
            let b = self.bufs("Matmul::End")?;
            b.co1.deque::<A::Acc>()?;
            b.co1.free_tensor(&l0c)?;
        }
        self.reset();
        pipe_barrier(Pipe::ALL)?;
        if let Some(b) = self.bufs.as_mut() {
            b.a1.free_all_event()?;
            b.b1.free_all_event()?;
            b.a2.free_all_event()?;
            b.b2.free_all_event()?;
            b.co1.free_all_event()?;
            b.bias1.free_all_event()?;
            b.bias2.free_all_event()?;
            b.quant1.free_all_event()?;
        }
        Ok(())
    }
}

/// The Fixpipe conversion from the accumulator of `a` to `c`.
fn quant_mode(a: DType, c: DType, q: Quant, api: &'static str) -> Result<QuantMode> {
    use DType::*;
    Ok(match (a, c, q) {
        (Half | Bfloat16 | Float, Float, _) | (Int8 | Int4, Int32, _) => QuantMode::NoQuant,
        (Half | Bfloat16 | Float, Half, _) => QuantMode::F322F16,
        (Half | Bfloat16 | Float, Bfloat16, _) => QuantMode::F322BF16,
        (Int8, Half, Quant::Scalar(_)) => QuantMode::DEQF16,
        (Int8, Half, Quant::Vector) => QuantMode::VDEQF16,
        (Int8, Int8 | Uint8, Quant::Scalar(_)) => QuantMode::REQ8,
        (Int8, Int8 | Uint8, Quant::Vector) => QuantMode::VREQ8,
        (Int8, _, Quant::None) => {
            return Err(err(
                api,
                format!("an int8 Matmul with a {c} C needs SetQuantScalar or SetQuantVector first"),
            ))
        }
        _ => {
            return Err(err(
                api,
                format!("A of {a} and C of {c}: no Fixpipe conversion between them"),
            ))
        }
    })
}

/// ND -> NZ: `h` rows of `w` elements, rows `src_d` apart in GM, into an L1 tile whose C0
/// column groups are `h_al` rows tall.
fn nd2nz<T: TensorElement>(
    dst: &LocalTensor<T>,
    src: &GlobalTensor<T>,
    h: u32,
    w: u32,
    src_d: u32,
    h_al: u32,
) -> Result<()> {
    // int4 moves as bytes: widths count bytes (two elements each).
    let (w, src_d) = if T::BITS == 4 {
        (w.div_ceil(2), src_d.div_ceil(2))
    } else {
        (w, src_d)
    };
    if src_d > u16::MAX as u32 {
        return Err(err(
            "Matmul::Iterate",
            format!(
                "a row of {src_d} elements in GM is longer than the 65535 one ND->NZ copy takes"
            ),
        ));
    }
    let p = Nd2NzParams {
        nd_num: 1,
        n_value: h as u16,
        d_value: w as u16,
        src_nd_matrix_stride: 0,
        src_d_value: src_d as u16,
        dst_nz_c0_stride: h_al as u16,
        dst_nz_n_stride: 1,
        dst_nz_matrix_stride: 0,
    };
    data_copy(dst, src, p)
}

/// The tile at (`row`, `col`) of a whole NZ matrix in L1 that is `h_al` rows tall and `w`
/// columns wide (`what` names it in errors): NZ keeps columns in groups of C0 (32 bytes), each
/// group `h_al` rows, so the tile starts at `(col / C0)·h_al·C0 + row·C0`.
fn l1_tile<T: TensorElement>(
    l1: &LocalTensor<T>,
    what: &str,
    h_al: u32,
    w: u32,
    row: u32,
    col: u32,
) -> Result<LocalTensor<T>> {
    const API: &str = "Matmul::Iterate";
    let c0 = 256 / T::BITS;
    if !col.is_multiple_of(c0) {
        return Err(SimError::new(
            Category::Unsupported,
            API,
            format!("a block of the TSCM {what} starts at column {col}, inside a {c0}-column group of its NZ layout: choose baseM/baseN/baseK multiples of {c0}"),
        ));
    }
    let need = h_al as u64 * align(w, c0) as u64;
    if (l1.get_size() as u64) < need {
        return Err(SimError::new(
            Category::Size,
            API,
            format!("the TSCM {what} holds {} elements; its NZ layout ({h_al} rows × {} columns) needs {need}", l1.get_size(), align(w, c0)),
        ));
    }
    l1.at((col / c0) * h_al * c0 + row * c0)
}

/// L1 (NZ) -> L0A (ZZ): `m × k` of A. The L1 tile is `h_al` rows tall (M rows, or K rows when
/// transposed).
fn load_a<T: MmInput>(
    a2: &LocalTensor<T>,
    a1: &LocalTensor<T>,
    m: u32,
    k: u32,
    h_al: u32,
    trans: bool,
) -> Result<()> {
    let c0 = 256 / T::BITS;
    let fr = FRACTAL * 8 / T::BITS;
    let m1 = m.div_ceil(16);
    let k1 = k.div_ceil(c0);
    if !trans {
        // Fractal (i, j) of L1 sits at j·(h_al/16) + i: one row of K fractals per call.
        for i in 0..m1 {
            let p = LoadData2DParams::new(i as u16, k1 as u8, (h_al / 16) as u16, 0, 0, false, 0);
            load_data(&a2.at(i * k1 * fr)?, a1, p)?;
        }
        return Ok(());
    }
    match T::BITS {
        16 => {
            // L1 holds Aᵀ (K rows): fractal (k, m) at m·(h_al/16) + k; each one transposed.
            for i in 0..m1 {
                let p = LoadData2DParams::new((i * h_al / 16) as u16, k1 as u8, 1, 0, 0, true, 0);
                load_data(&a2.at(i * k1 * fr)?, a1, p)?;
            }
            Ok(())
        }
        _ => Err(err(
            "Matmul::Iterate",
            format!(
                "a transposed A of {} is not modelled (half and bfloat16 are)",
                T::DTYPE
            ),
        )),
    }
}

/// L1 (NZ) -> L0B (ZN): `k × n` of B. The L1 tile is `h_al` rows tall (K rows, or N rows when
/// transposed).
fn load_b<T: MmInput>(
    b2: &LocalTensor<T>,
    b1: &LocalTensor<T>,
    k: u32,
    n: u32,
    h_al: u32,
    trans: bool,
) -> Result<()> {
    let c0 = 256 / T::BITS;
    let fr = FRACTAL * 8 / T::BITS;
    let n1 = n.div_ceil(16);
    let k1 = k.div_ceil(c0);
    if trans {
        // L1 holds Bᵀ (N rows): its fractals are already ZN; fractal (k, n) at k·(h_al/16) + n.
        for kk in 0..k1 {
            let p = LoadData2DParams::new((kk * h_al / 16) as u16, n1 as u8, 1, 0, 0, false, 0);
            load_data(&b2.at(kk * n1 * fr)?, b1, p)?;
        }
        return Ok(());
    }
    match T::BITS {
        16 => {
            // Fractal (k, n) of L1 at n·(h_al/16) + k, each transposed.
            for kk in 0..k1 {
                let p = LoadData2DParams::new(kk as u16, n1 as u8, (h_al / 16) as u16, 0, 0, true, 0);
                load_data(&b2.at(kk * n1 * fr)?, b1, p)?;
            }
            Ok(())
        }
        8 | 4 => {
            // C0 × C0 squares (two stacked fractals of int8, four of int4) transposed into as
            // many C0 × 16 fractals; rows of Mmad's `ceil(n / 16)` fractals, so the spare
            // fractals of a row's last square are overwritten by the next row (in order on
            // PIPE_MTE1).
            let per = c0 / 16;
            let squares = n.div_ceil(c0);
            for kk in 0..k1 {
                let p = LoadData2dTransposeParams::new(
                    0,
                    squares as u8,
                    (h_al / c0) as u16,
                    (per - 1) as u16,
                    0,
                    false,
                );
                load_data_with_transpose(&b2.at(kk * n1 * fr)?, &b1.at(kk * per * fr)?, p)?;
            }
            Ok(())
        }
        _ => Err(err(
            "Matmul::Iterate",
            format!("a B of {} that is not transposed is not modelled (half, bfloat16 and int8 are; pass B transposed)", T::DTYPE),
        )),
    }
}
