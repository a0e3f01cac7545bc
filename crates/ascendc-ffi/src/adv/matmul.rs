//! The kernel-side Matmul's C ABI: a C++ `Matmul<A, B, C, Bias, CFG>` object holds a
//! [`MatmulHandle`] made from its declaration; `REGIST_MATMUL_OBJ`, `Init` and the calls forward
//! here. GM operands cross as `AscGlobal` with their element type.

use crate::abi::{call, dtype, position, AscGlobal, AscLoc, AscLocal};
use crate::gm::lookup;
use ascendc::adv::matmul::{
    CubeFormat, GmOperand, IterateOrder, Kernel, MatType, MatmulConfig, MatmulHandle, MatmulSpec,
    Schedule, TCubeTiling,
};
use ascendc::error::{Category, SimError};
use ascendc::TPipe;

/// A `MatmulType` as C++ passes it.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct AscMmType {
    /// `TPosition` index.
    pub pos: u8,
    /// `CubeFormat` value.
    pub format: u8,
    /// Element type tag.
    pub dtype: u8,
    /// `ISTRANS`.
    pub trans: u8,
    /// `LayoutMode` value.
    pub layout: u8,
    /// `IBSHARE`.
    pub ib_share: u8,
    /// `SparseMatmulType` (an index matrix comes with it).
    pub sparse: u8,
}

/// A Matmul's declaration as C++ passes it: the four types and the config's switches.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct AscMmSpec {
    /// A, B, C, bias.
    pub types: [AscMmType; 4],
    /// 0 Norm, 1 MDL, 2 IBShare Norm, 3 other.
    pub schedule: u8,
    /// `IterateOrder` value (0 ORDER_M, 1 ORDER_N, 2 UNDEF).
    pub iterate_order: u8,
    /// `enUnitFlag`.
    pub unit_flag: u8,
    /// `enableRelu`.
    pub relu: u8,
    /// `isPartialOutput`.
    pub partial_output: u8,
    /// `isEnableChannelSplit`.
    pub channel_split: u8,
    /// `isBiasBatch`.
    pub bias_batch: u8,
    /// The MatmulPolicy's kind (0 default, 1 N_BUFFER_33, 2 upper, 3 lower triangular).
    pub policy: u8,
    /// `MatmulCallBackFunc` names a copy function.
    pub callbacks: u8,
}

fn format(v: u8) -> Result<CubeFormat, SimError> {
    use CubeFormat::*;
    Ok(match v {
        0 => ND,
        1 => NZ,
        2 => ZN,
        3 => ZZ,
        4 => NN,
        5 => NdAlign,
        6 => Scalar,
        7 => Vector,
        8 => ColumnMajor,
        v => {
            return Err(SimError::new(
                Category::Range,
                "MatmulType",
                format!("CubeFormat {v} does not exist"),
            ))
        }
    })
}

fn mat_type(t: &AscMmType) -> Result<MatType, SimError> {
    Ok(MatType {
        pos: position(t.pos)?,
        format: format(t.format)?,
        dtype: dtype(t.dtype)?,
        trans: t.trans != 0,
        layout: t.layout,
        ib_share: t.ib_share != 0,
        sparse: t.sparse != 0,
    })
}

fn spec(s: &AscMmSpec) -> Result<MatmulSpec, SimError> {
    Ok(MatmulSpec {
        a: mat_type(&s.types[0])?,
        b: mat_type(&s.types[1])?,
        c: mat_type(&s.types[2])?,
        bias: mat_type(&s.types[3])?,
        cfg: MatmulConfig {
            schedule: match s.schedule {
                0 => Schedule::Norm,
                1 => Schedule::Mdl,
                2 => Schedule::IbShareNorm,
                _ => Schedule::Other,
            },
            iterate_order: match s.iterate_order {
                0 => IterateOrder::OrderM,
                1 => IterateOrder::OrderN,
                _ => IterateOrder::Undef,
            },
            unit_flag: s.unit_flag != 0,
            relu: s.relu != 0,
            partial_output: s.partial_output != 0,
            channel_split: s.channel_split != 0,
            bias_batch: s.bias_batch != 0,
            policy: s.policy,
            callbacks: s.callbacks != 0,
            shape: [0; 6],
        },
    })
}

/// A GM operand of element type `elem` from a C++ GlobalTensor.
unsafe fn operand(api: &'static str, g: *const AscGlobal, elem: u8) -> Result<GmOperand, SimError> {
    let g = &*g;
    Ok(GmOperand {
        addr: lookup(api, g.ptr)?,
        size: g.size,
        dtype: dtype(elem)?,
    })
}

/// A new Matmul object of declaration `spec` (freed with [`ascendc_mm_free`]); null with the
/// error kept for a declaration the simulator cannot read.
///
/// # Safety
/// `spec` valid for reads.
#[no_mangle]
pub unsafe extern "C" fn ascendc_mm_new(
    s: *const AscMmSpec,
    out: *mut *mut MatmulHandle,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let h = MatmulHandle::new(spec(&*s)?);
        *out = Box::into_raw(Box::new(h));
        Ok(())
    })
}

/// Frees an object of [`ascendc_mm_new`] (null: nothing).
///
/// # Safety
/// `h` null or from [`ascendc_mm_new`], not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn ascendc_mm_free(h: *mut MatmulHandle) {
    if !h.is_null() {
        drop(Box::from_raw(h));
    }
}

/// `REGIST_MATMUL_OBJ(pipe, workspace, obj0, tiling0, …)`: `n` objects and their tilings (null:
/// none). `*served` becomes 1 on the cube core of a mixed kernel, which served the vector cores
/// and returns from the kernel.
///
/// # Safety
/// `pipe` from `ascendc_pipe_new`; `objs` and `tilings` hold `n` valid pointers (tilings may
/// be null); `served` valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_mm_register(
    pipe: *mut TPipe,
    cube_only: u8,
    n: u32,
    objs: *const *mut MatmulHandle,
    tilings: *const *const TCubeTiling,
    served: *mut u8,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let pipe = pipe.as_mut().ok_or_else(|| {
            SimError::new(
                Category::QueueState,
                "REGIST_MATMUL_OBJ",
                "no TPipe: pass the kernel's TPipe (REGIST_MATMUL_OBJ(&pipe, …))",
            )
        })?;
        let mut list: Vec<(&mut MatmulHandle, Option<TCubeTiling>)> = (0..n as usize)
            .map(|i| {
                let t = *tilings.add(i);
                (&mut **objs.add(i), t.as_ref().copied())
            })
            .collect();
        let kernel = if cube_only != 0 {
            Kernel::CubeOnly
        } else {
            Kernel::Mixed
        };
        *served = MatmulHandle::register(pipe, kernel, &mut list)? as u8;
        Ok(())
    })
}

/// `Init(&tiling[, pipe])`.
///
/// # Safety
/// `h` from [`ascendc_mm_new`]; `pipe` null or from `ascendc_pipe_new`; `tiling` valid.
#[no_mangle]
pub unsafe extern "C" fn ascendc_mm_init(
    h: *mut MatmulHandle,
    pipe: *mut TPipe,
    tiling: *const TCubeTiling,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let t = tiling.as_ref().ok_or_else(|| {
            SimError::new(
                Category::Range,
                "Matmul::Init",
                "the tiling pointer is null",
            )
        })?;
        (*h).init(pipe.as_mut(), t)
    })
}

/// `SetOrgShape(M, N, Ka, Kb, Kc)`.
///
/// # Safety
/// `h` from [`ascendc_mm_new`].
#[no_mangle]
pub unsafe extern "C" fn ascendc_mm_set_org_shape(
    h: *mut MatmulHandle,
    s: *const i32,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let s = std::slice::from_raw_parts(s, 5);
        (*h).set_org_shape([s[0], s[1], s[2], s[3], s[4]])
    })
}

/// `SetTail(m, n, k)` / `SetSingleShape(m, n, k)` (−1 keeps a value).
///
/// # Safety
/// `h` from [`ascendc_mm_new`].
#[no_mangle]
pub unsafe extern "C" fn ascendc_mm_set_tail(
    h: *mut MatmulHandle,
    m: i32,
    n: i32,
    k: i32,
    loc: AscLoc,
) -> i32 {
    call(loc, || (*h).set_tail(m, n, k))
}

/// `SetTensorA` (0), `SetTensorB` (1), `SetBias` (2), `SetQuantVector` (3), `SetWorkspace`
/// (4) and `SetSparseIndex` (5) with a GM tensor of element type `elem`.
///
/// # Safety
/// `h` from [`ascendc_mm_new`]; `g` valid.
#[no_mangle]
pub unsafe extern "C" fn ascendc_mm_set_gm(
    h: *mut MatmulHandle,
    which: u8,
    g: *const AscGlobal,
    elem: u8,
    trans: u8,
    loc: AscLoc,
) -> i32 {
    const API: [&str; 6] = [
        "Matmul::SetTensorA",
        "Matmul::SetTensorB",
        "Matmul::SetBias",
        "Matmul::SetQuantVector",
        "Matmul::SetWorkspace",
        "Matmul::SetSparseIndex",
    ];
    call(loc, || {
        let api = API.get(which as usize).copied().unwrap_or("Matmul");
        let o = operand(api, g, elem)?;
        let h = &mut *h;
        match which {
            0 => h.set_tensor_a(o, trans != 0),
            1 => h.set_tensor_b(o, trans != 0),
            2 => h.set_bias(o),
            3 => h.set_quant_vector(o),
            5 => h.set_sparse_index(o),
            _ => {
                h.set_workspace(o);
                Ok(())
            }
        }
    })
}

/// `SetTensorA` (`b` 0) or `SetTensorB` (`b` 1) with a TSCM tensor in L1 (as bytes).
///
/// # Safety
/// `h` from [`ascendc_mm_new`]; `t` valid.
#[no_mangle]
pub unsafe extern "C" fn ascendc_mm_set_local(
    h: *mut MatmulHandle,
    b: u8,
    t: *const AscLocal,
    trans: u8,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let t = (*t).tensor::<u8>()?;
        (*h).set_tensor_l1(b != 0, &t, trans != 0)
    })
}

/// `DisableBias()` / `ClearBias()` (0), `SetQuantScalar(word)` (1), `End()` (2),
/// `SetHF32(enableHF32, transMode)` (3: `word` bit 0 the enable, the bits above the transMode).
///
/// # Safety
/// `h` from [`ascendc_mm_new`].
#[no_mangle]
pub unsafe extern "C" fn ascendc_mm_call(
    h: *mut MatmulHandle,
    what: u8,
    word: u64,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let h = &mut *h;
        match what {
            0 => h.disable_bias(),
            1 => h.set_quant_scalar(word),
            2 => h.end(),
            // SetHF32: bit 0 enable, the transMode in the bits above.
            _ => h.set_hf32(word & 1 != 0, (word >> 1) as i32),
        }
    })
}

/// `Iterate<sync>()` into `*more`.
///
/// # Safety
/// `h` from [`ascendc_mm_new`]; `more` valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_mm_iterate(
    h: *mut MatmulHandle,
    sync: u8,
    more: *mut u8,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        *more = (*h).iterate(sync != 0)? as u8;
        Ok(())
    })
}

/// `Iterate(enPartialSum, l0cTensor)` into `*more`.
///
/// # Safety
/// `h` from [`ascendc_mm_new`]; `l0c` a valid handle; `more` valid for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_mm_iterate_into(
    h: *mut MatmulHandle,
    l0c: *const AscLocal,
    more: *mut u8,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let t = (*l0c).tensor::<u8>()?;
        *more = (*h).iterate_into(&t)? as u8;
        Ok(())
    })
}

/// `GetTensorC(gm, enAtomic, enSequentialWrite)` (`all` 0) or `IterateAll(gm, enAtomic)` (`all`
/// 1) into a GM tensor of element type `elem`.
///
/// # Safety
/// `h` from [`ascendc_mm_new`]; `g` valid.
#[no_mangle]
pub unsafe extern "C" fn ascendc_mm_out_gm(
    h: *mut MatmulHandle,
    all: u8,
    g: *const AscGlobal,
    elem: u8,
    atomic: u8,
    sequential: u8,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let api = if all != 0 {
            "Matmul::IterateAll"
        } else {
            "Matmul::GetTensorC"
        };
        let o = operand(api, g, elem)?;
        if all != 0 {
            (*h).iterate_all(o, atomic)
        } else {
            (*h).get_tensor_c(o, atomic, sequential != 0)
        }
    })
}

/// `SetBatchNum(batchA, batchB)` (`batch` 0), `IterateBatch(gm, batchA, batchB)` (`batch` 1;
/// batches 0, 0: those of SetBatchNum) into a GM tensor of element type `elem`, or
/// `IterateNBatch(batch - 2, batchA, batchB)` (`batch` 2 or more) into the SetWorkspace buffer.
///
/// # Safety
/// `h` from [`ascendc_mm_new`]; `g` valid when `batch` is 1.
#[no_mangle]
pub unsafe extern "C" fn ascendc_mm_batch(
    h: *mut MatmulHandle,
    batch: u32,
    g: *const AscGlobal,
    elem: u8,
    batch_a: u32,
    batch_b: u32,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        if batch == 0 {
            (*h).set_batch_num(batch_a, batch_b);
            return Ok(());
        }
        if batch >= 2 {
            return (*h).iterate_n_batch(batch - 2, batch_a, batch_b);
        }
        let o = operand("Matmul::IterateBatch", g, elem)?;
        (*h).iterate_batch(o, batch_a, batch_b)
    })
}

/// `GetTensorC<sync>(ubTensor)` on a vector core.
///
/// # Safety
/// `h` from [`ascendc_mm_new`]; `ub` a valid handle.
#[no_mangle]
pub unsafe extern "C" fn ascendc_mm_out_ub(
    h: *mut MatmulHandle,
    ub: *const AscLocal,
    sync: u8,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let t = (*ub).tensor::<u8>()?;
        (*h).get_tensor_c_ub(&t, sync != 0)
    })
}
