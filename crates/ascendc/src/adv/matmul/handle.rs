//! The Matmul object a kernel holds, whichever core runs it: on a cube core (cube-only kernels,
//! coupled AI Cores) the Matmul itself, on a vector core of a mixed kernel a client of its
//! AI Core's cube core ([`super::kfc`]). Front ends (the C ABI) call these methods.

use super::kfc::{self, Client, Lock, Registered, STAGING_BYTES};
use super::object::{new_matmul, GmOperand, MatmulOps};
use super::spec::MatmulSpec;
use super::tiling::TCubeTiling;
use crate::api::system::{is_aic, is_aiv};
use crate::error::{Category, Result, SimError};
use crate::{
    data_copy, pipe_barrier, DataCopyParams, GlobalTensor, GmBuffer, LocalTensor, Pipe, TPipe,
};

/// How a Matmul object runs on the current core.
enum Mode {
    /// Registered nowhere yet.
    Unregistered,
    /// The Matmul itself (cube core).
    Local(Box<dyn MatmulOps>),
    /// A client of the cube core.
    Client(Client),
}

/// A kernel's Matmul object.
pub struct MatmulHandle {
    spec: MatmulSpec,
    mode: Mode,
    /// The blocks an asynchronous `Iterate<false>` wrote into the workspace: (elements from the
    /// start, rows, columns), in order, and how many `GetTensorC<false>` took.
    blocks: Vec<(u64, u32, u32)>,
    taken: usize,
    /// The workspace of asynchronous iteration (`SetWorkspace`).
    workspace: Option<GmOperand>,
    /// The GM buffer results for UB pass through (no L0C → UB path on the simulated products).
    staging: Option<GmBuffer>,
    /// `SetBatchNum(batchA, batchB)`.
    batch: (u32, u32),
}

/// How `REGIST_MATMUL_OBJ` treats the kernel: `CubeOnly` (ASCENDC_CUBE_ONLY: the Matmul runs
/// where it is called) or `Mixed` (cube core serves, vector cores are clients).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kernel {
    /// `ASCENDC_CUBE_ONLY`.
    CubeOnly,
    /// A mixed kernel.
    Mixed,
}

impl MatmulHandle {
    /// An object of `spec`, not registered.
    pub fn new(spec: MatmulSpec) -> MatmulHandle {
        MatmulHandle {
            spec,
            mode: Mode::Unregistered,
            blocks: Vec::new(),
            taken: 0,
            workspace: None,
            staging: None,
            batch: (1, 1),
        }
    }

    /// `REGIST_MATMUL_OBJ` for the objects of a kernel, each with its tiling (or none). On the
    /// cube core of a mixed kernel this serves the vector cores and returns true: the kernel
    /// returns. Elsewhere it makes each object local or a client and returns false.
    pub fn register(
        pipe: &mut TPipe,
        kernel: Kernel,
        objects: &mut [(&mut MatmulHandle, Option<TCubeTiling>)],
    ) -> Result<bool> {
        const API: &str = "REGIST_MATMUL_OBJ";
        let loc = crate::error::SourceLoc::caller();
        if objects.iter().any(|(h, _)| h.spec.cfg.callbacks) {
            crate::api::context::with_core(API, loc, |core| {
                core.warn_once(
                    Category::Unsupported,
                    API,
                    "callbacks",
                    "the Matmul's MatmulCallBackFunc copy functions are not run: it copies A and B from SetTensorA/SetTensorB's GM itself and writes C with Fixpipe",
                    loc,
                );
                Ok(())
            })?;
        }
        // A mixed kernel: the cube core of a mixed launch serves, a vector core is a client
        // (refused without a cube core); a coupled core, or a cube core alone, runs it itself.
        let mixed = kernel == Kernel::Mixed && is_aic() != is_aiv();
        if mixed && is_aic() && kfc::paired() {
            let regs: Vec<Registered> = objects
                .iter()
                .map(|(h, t)| Registered {
                    spec: h.spec,
                    tiling: *t,
                })
                .collect();
            kfc::serve(pipe, &regs)?;
            return Ok(true);
        }
        // Every object's buffers start at the same place (InitShareBufStart): the objects run
        // one after another, each ended by End.
        let start = pipe.cursors();
        let mut end = start;
        for (i, (h, t)) in objects.iter_mut().enumerate() {
            if mixed && is_aiv() {
                h.mode = Mode::Client(Client::new(i, API)?);
            } else {
                let mut m = new_matmul(h.spec)?;
                if let Some(t) = t {
                    pipe.set_cursors(start);
                    m.init(pipe, t)?;
                    for (e, c) in end.iter_mut().zip(pipe.cursors()) {
                        *e = (*e).max(c);
                    }
                }
                h.mode = Mode::Local(m);
            }
        }
        pipe.set_cursors(end);
        Ok(false)
    }

    fn mode(&mut self, api: &'static str) -> Result<&mut Mode> {
        if matches!(self.mode, Mode::Unregistered) {
            return Err(SimError::new(
                Category::QueueState,
                api,
                "the Matmul object is not registered: call REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling) first",
            ));
        }
        Ok(&mut self.mode)
    }

    /// Runs `f` on the Matmul, here or on the cube core.
    fn run<R: Send + 'static>(
        &mut self,
        api: &'static str,
        pipe: Option<&mut TPipe>,
        lock: Lock,
        f: impl FnOnce(&mut dyn MatmulOps, Option<&mut TPipe>) -> Result<R> + Send + 'static,
    ) -> Result<R> {
        match self.mode(api)? {
            Mode::Local(m) => f(m.as_mut(), pipe),
            Mode::Client(c) => c.call(api, lock, move |m, p| f(m, Some(p))),
            Mode::Unregistered => unreachable!("checked"),
        }
    }

    /// `Init(&tiling)`.
    pub fn init(&mut self, pipe: Option<&mut TPipe>, tiling: &TCubeTiling) -> Result<()> {
        let t = *tiling;
        self.run("Matmul::Init", pipe, Lock::Keep, move |m, p| {
            let p = p.ok_or_else(|| {
                SimError::new(
                    Category::QueueState,
                    "Matmul::Init",
                    "no TPipe exists in this kernel: the Matmul takes its buffers from GetTPipePtr()",
                )
            })?;
            m.init(p, &t)
        })
    }

    /// `SetOrgShape`.
    pub fn set_org_shape(&mut self, s: [i32; 5]) -> Result<()> {
        self.run("Matmul::SetOrgShape", None, Lock::Keep, move |m, _| {
            m.set_org_shape(s)
        })
    }

    /// `SetTail` / `SetSingleShape`.
    pub fn set_tail(&mut self, mm: i32, n: i32, k: i32) -> Result<()> {
        self.run("Matmul::SetTail", None, Lock::Keep, move |m, _| {
            m.set_tail(mm, n, k)
        })
    }

    /// `SetTensorA(gm, trans)`.
    pub fn set_tensor_a(&mut self, a: GmOperand, trans: bool) -> Result<()> {
        self.run("Matmul::SetTensorA", None, Lock::Keep, move |m, _| {
            m.set_tensor_a(&a, trans)
        })
    }

    /// `SetTensorB(gm, trans)`.
    pub fn set_tensor_b(&mut self, b: GmOperand, trans: bool) -> Result<()> {
        self.run("Matmul::SetTensorB", None, Lock::Keep, move |m, _| {
            m.set_tensor_b(&b, trans)
        })
    }

    /// `SetTensorA/B(localTensor, trans)` (`b`: B): an operand declared TSCM, in L1 (bytes). A
    /// vector core passes its cube core the tensor's place; the cube core waits for its pipes
    /// first (the copies into TSCM it made for the vector core).
    pub fn set_tensor_l1(&mut self, b: bool, t: &LocalTensor<u8>, trans: bool) -> Result<()> {
        let api = if b {
            "Matmul::SetTensorB"
        } else {
            "Matmul::SetTensorA"
        };
        match self.mode(api)? {
            Mode::Local(m) => m.set_tensor_l1(b, t, trans),
            Mode::Client(c) => {
                let (pos, addr, size) = (t.get_position(), t.get_phy_addr(), t.get_size());
                c.call(api, Lock::Keep, move |m, _| {
                    pipe_barrier(Pipe::ALL)?;
                    let t = LocalTensor::<u8>::new_at(pos, addr, size)?;
                    m.set_tensor_l1(b, &t, trans)
                })
            }
            Mode::Unregistered => unreachable!("checked"),
        }
    }

    /// `SetBias(gm)`.
    pub fn set_bias(&mut self, bias: GmOperand) -> Result<()> {
        self.run("Matmul::SetBias", None, Lock::Keep, move |m, _| {
            m.set_bias(&bias)
        })
    }

    /// `DisableBias()` / `ClearBias()`.
    pub fn disable_bias(&mut self) -> Result<()> {
        self.run("Matmul::DisableBias", None, Lock::Keep, |m, _| {
            m.disable_bias();
            Ok(())
        })
    }

    /// `SetQuantScalar(word)`.
    pub fn set_quant_scalar(&mut self, word: u64) -> Result<()> {
        self.run("Matmul::SetQuantScalar", None, Lock::Keep, move |m, _| {
            m.set_quant_scalar(word);
            Ok(())
        })
    }

    /// `SetHF32(enableHF32, transMode)` (on the cube core that computes).
    pub fn set_hf32(&mut self, enable: bool, trans_mode: i32) -> Result<()> {
        self.run("Matmul::SetHF32", None, Lock::Keep, move |m, _| {
            m.set_hf32(enable, trans_mode)
        })
    }

    /// `SetSparseIndex(gm)`: the index matrix of a sparse B.
    pub fn set_sparse_index(&mut self, index: GmOperand) -> Result<()> {
        self.run("Matmul::SetSparseIndex", None, Lock::Keep, move |m, _| {
            m.set_sparse_index(&index)
        })
    }

    /// `SetQuantVector(gm)`.
    pub fn set_quant_vector(&mut self, words: GmOperand) -> Result<()> {
        self.run("Matmul::SetQuantVector", None, Lock::Keep, move |m, _| {
            m.set_quant_vector(&words)
        })
    }

    /// `SetWorkspace(gm)`: where asynchronous iteration leaves its blocks (vector cores).
    pub fn set_workspace(&mut self, ws: GmOperand) {
        self.workspace = Some(ws);
    }

    /// `Iterate<sync>()`. Synchronous: the next block into L0C (false when done). Asynchronous
    /// (vector cores): every block into the workspace; `GetTensorC<false>` takes them in order.
    pub fn iterate(&mut self, sync: bool) -> Result<bool> {
        const API: &str = "Matmul::Iterate";
        if sync {
            return self.run(API, None, Lock::Acquire, |m, _| m.iterate());
        }
        if self.taken < self.blocks.len() {
            return Ok(true);
        }
        if !self.blocks.is_empty() {
            self.blocks.clear();
            self.taken = 0;
            return Ok(false);
        }
        let ws = self.workspace.clone().ok_or_else(|| {
            SimError::new(
                Category::QueueState,
                API,
                "Iterate<false> needs SetWorkspace: the blocks wait there for GetTensorC<false>",
            )
        })?;
        let blocks = self.run(API, None, Lock::Release, move |m, _| {
            let mut v = Vec::new();
            let mut at = 0u64;
            while m.iterate()? {
                let (rows, cols) = m.block_shape().expect("a block was computed");
                let mut dst = ws.clone();
                dst.addr = dst.addr.add_bytes(at as usize * dst.dtype.size());
                m.get_tensor_c(&dst, 0, true)?;
                v.push((at, rows, cols));
                at += (rows * cols) as u64;
            }
            m.end()?;
            Ok(v)
        })?;
        self.blocks = blocks;
        self.taken = 0;
        Ok(!self.blocks.is_empty())
    }

    /// `Iterate(enPartialSum, l0cTensor)` on a cube core: the next block into the caller's CO1
    /// tensor.
    pub fn iterate_into(&mut self, l0c: &LocalTensor<u8>) -> Result<bool> {
        const API: &str = "Matmul::Iterate";
        match self.mode(API)? {
            Mode::Local(m) => m.iterate_into(l0c),
            _ => Err(SimError::new(
                Category::Position,
                API,
                "an L0C (CO1) tensor belongs to a cube core: Iterate into one runs where the Matmul does (define ASCENDC_CUBE_ONLY)",
            )),
        }
    }

    /// `GetTensorC(gm, enAtomic, enSequentialWrite)`.
    pub fn get_tensor_c(&mut self, c: GmOperand, atomic: u8, sequential: bool) -> Result<()> {
        self.run("Matmul::GetTensorC", None, Lock::Keep, move |m, _| {
            m.get_tensor_c(&c, atomic, sequential)
        })
    }

    /// `GetTensorC(ubTensor)`: the block goes densely into GM (the Fixpipe has no UB target on
    /// the simulated products), then into `ub` (bytes) by the calling core.
    pub fn get_tensor_c_ub(&mut self, ub: &LocalTensor<u8>, sync: bool) -> Result<()> {
        const API: &str = "Matmul::GetTensorC";
        let dtype = self.spec.c.dtype;
        if !sync {
            let (at, rows, cols) = *self.blocks.get(self.taken).ok_or_else(|| {
                SimError::new(
                    Category::QueueState,
                    API,
                    "no block left: GetTensorC<false> follows an Iterate<false> (as many calls as blocks)",
                )
            })?;
            self.taken += 1;
            let ws = self.workspace.clone().expect("Iterate<false> checked it");
            let mut g = GlobalTensor::<u8>::new();
            g.set_global_buffer(ws.addr.add_bytes(at as usize * dtype.size()));
            return copy_to_ub(ub, &g, rows * cols * dtype.size() as u32);
        }
        let buf = self
            .staging
            .get_or_insert_with(|| GmBuffer::zeroed(STAGING_BYTES))
            .clone();
        let dst = kfc::staging(&buf, dtype);
        let (rows, cols) = self.run(API, None, Lock::Keep, move |m, _| {
            let shape = m.block_shape().ok_or_else(|| {
                SimError::new(
                    Category::QueueState,
                    API,
                    "no block to take: GetTensorC follows an Iterate that returned true",
                )
            })?;
            m.get_tensor_c(&dst, 0, true)?;
            Ok(shape)
        })?;
        let mut g = GlobalTensor::<u8>::new();
        g.set_global_buffer(buf.addr());
        copy_to_ub(ub, &g, rows * cols * dtype.size() as u32)
    }

    /// `IterateAll(gm, enAtomic)`.
    pub fn iterate_all(&mut self, c: GmOperand, atomic: u8) -> Result<()> {
        let client = matches!(self.mode, Mode::Client(..));
        self.run("Matmul::IterateAll", None, Lock::Release, move |m, _| {
            m.iterate_all(&c, atomic)?;
            // The server ends the walk after each IterateAll message.
            if client {
                m.end()?;
            }
            Ok(())
        })
    }

    /// `SetBatchNum(batchA, batchB)` (cube-only kernels; a client passes them to IterateBatch).
    pub fn set_batch_num(&mut self, batch_a: u32, batch_b: u32) {
        self.batch = (batch_a, batch_b);
    }

    /// `IterateBatch(gm, batchA, batchB)` (0, 0: those of SetBatchNum).
    pub fn iterate_batch(&mut self, c: GmOperand, batch_a: u32, batch_b: u32) -> Result<()> {
        let (a, b) = if batch_a == 0 && batch_b == 0 {
            self.batch
        } else {
            (batch_a, batch_b)
        };
        self.run("Matmul::IterateBatch", None, Lock::Release, move |m, _| {
            m.iterate_batch(&c, a, b, 1)?;
            m.end()
        })
    }

    /// `IterateNBatch(loops, batchA, batchB)`: into the `SetWorkspace` buffer.
    pub fn iterate_n_batch(&mut self, loops: u32, batch_a: u32, batch_b: u32) -> Result<()> {
        const API: &str = "Matmul::IterateNBatch";
        let ws = self.workspace.clone().ok_or_else(|| {
            SimError::new(
                Category::QueueState,
                API,
                "IterateNBatch needs SetWorkspace: its results go there",
            )
        })?;
        self.run(API, None, Lock::Release, move |m, _| {
            m.iterate_batch(&ws, batch_a, batch_b, loops)?;
            m.end()
        })
    }

    /// `End()`.
    pub fn end(&mut self) -> Result<()> {
        self.run("Matmul::End", None, Lock::Release, |m, _| m.end())
    }
}

/// The vector core's copy of a block from GM into UB: `bytes` rounded up to 32.
fn copy_to_ub(ub: &LocalTensor<u8>, g: &GlobalTensor<u8>, bytes: u32) -> Result<()> {
    let blocks = bytes.div_ceil(32).min(ub.get_size() / 32);
    let p = DataCopyParams {
        block_count: 1,
        block_len: blocks as u16,
        src_stride: 0,
        dst_stride: 0,
    };
    data_copy(ub, g, p)
}
