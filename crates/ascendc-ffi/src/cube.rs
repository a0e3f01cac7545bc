//! The cube unit for C++ kernels: `LoadData`, `LoadDataWithTranspose`, `Mmad` and `Fixpipe`; the
//! other cube families in the submodules.

pub mod broadcast;
pub mod copy_out;
pub mod fill;
pub mod load3d;
pub mod load_gm;
pub mod mode;
pub mod sparse;

use crate::abi::{call, dtype, AscGlobal, AscLoc, AscLocal};
use crate::gm::global;
use crate::with_tensor_dtype;
use ascendc::api::cube::fixpipe::FixpipeArgs;
use ascendc::api::cube::support::FixpipeForm;
use ascendc::error::{Category, SimError};
use ascendc::{
    bf16, f16, fixpipe, load_data, load_data_with_transpose, mmad, DType, Element,
    FixpipeParamsM300, FixpipeParamsV220, LoadData2DParams, LoadData2DParamsV2,
    LoadData2dTransposeParams, LocalTensor, MmadParams, QuantMode, TensorElement, CFG_NZ,
    CFG_ROW_MAJOR,
};

/// `LoadData2DParams` as C++ lays it out.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct AscLoad2D {
    /// First source fractal.
    pub start_index: u16,
    /// Fractals moved.
    pub repeat_times: u8,
    /// Source distance between fractals, in fractals.
    pub src_stride: u16,
    /// Reserved.
    pub sid: u8,
    /// Destination gap, in fractals.
    pub dst_gap: u16,
    /// Transpose each fractal (0/1).
    pub if_transpose: u8,
    /// Address mode.
    pub addr_mode: u8,
}

/// `LoadData2dTransposeParams` as C++ lays it out.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct AscLoadTranspose {
    /// First source square.
    pub start_index: u16,
    /// Squares moved.
    pub repeat_times: u8,
    /// Source distance between squares, in squares.
    pub src_stride: u16,
    /// Destination gap, in fractals.
    pub dst_gap: u16,
    /// Gap between the fractals of one square, in fractals.
    pub dst_frac_gap: u16,
    /// Address mode (0/1).
    pub addr_mode: u8,
}

/// `LoadData(dst, src, params)`: `kind` 0 `LoadData2DParams` (`p` → [`AscLoad2D`]), 1
/// `LoadData2DParamsV2`, 2 `LoadDataWithTranspose` (`p` → [`AscLoadTranspose`]).
///
/// # Safety
/// `dst`, `src` and `p` are valid for reads (`p` may be null for kind 1).
#[no_mangle]
pub unsafe extern "C" fn ascendc_load_data(
    elem: u8,
    kind: u8,
    dst: *const AscLocal,
    src: *const AscLocal,
    p: *const u8,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        with_tensor_dtype!(dtype(elem)?, T => {
            let (d, s) = ((*dst).tensor::<T>()?, (*src).tensor::<T>()?);
            match kind {
                0 => {
                    let r = *(p as *const AscLoad2D);
                    let q = LoadData2DParams::new(r.start_index, r.repeat_times, r.src_stride, r.sid,
                        r.dst_gap, r.if_transpose != 0, r.addr_mode);
                    load_data(&d, &s, q)
                }
                1 => load_data(&d, &s, LoadData2DParamsV2::default()),
                _ => {
                    let r = *(p as *const AscLoadTranspose);
                    let q = LoadData2dTransposeParams::new(r.start_index, r.repeat_times, r.src_stride,
                        r.dst_gap, r.dst_frac_gap, r.addr_mode != 0);
                    load_data_with_transpose(&d, &s, q)
                }
            }
        })
    })
}

/// `MmadParams` as C++ lays it out.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct AscMmad {
    /// Rows of A and C.
    pub m: u16,
    /// Columns of B and C.
    pub n: u16,
    /// Columns of A, rows of B.
    pub k: u16,
    /// Deprecated accumulate flag.
    pub is_bias: u8,
    /// Unit flag (0, 2, 3).
    pub unit_flag: u8,
    /// K padded to 16 for float.
    pub k_direction_align: u8,
    /// C from the BiasTable.
    pub cmatrix_source: u8,
    /// C starts at 0.
    pub cmatrix_init_val: u8,
}

pub(crate) fn no_combination(api: &'static str, what: String) -> SimError {
    SimError::new(Category::Type, api, what)
}

unsafe fn mmad_typed<D: Element, U: TensorElement, S: TensorElement>(
    dst: &AscLocal,
    fm: &AscLocal,
    filter: &AscLocal,
    bias: *const AscLocal,
    bias_elem: u8,
    p: MmadParams,
) -> Result<(), SimError> {
    let (c, a, b) = (dst.tensor::<D>()?, fm.tensor::<U>()?, filter.tensor::<S>()?);
    match bias.as_ref() {
        None => mmad(&c, &a, &b, (), p),
        Some(bt) => match dtype(bias_elem)? {
            DType::Float => mmad(&c, &a, &b, &bt.tensor::<f32>()?, p),
            DType::Int32 => mmad(&c, &a, &b, &bt.tensor::<i32>()?, p),
            t => Err(no_combination(
                "Mmad",
                format!("the bias must be float or int32_t, not {t}"),
            )),
        },
    }
}

/// `Mmad(dst, fm, filter[, bias], params)`; `bias` null for the form without bias.
///
/// # Safety
/// `dst`, `fm`, `filter` and `p` are valid for reads; `bias` is null or valid.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_mmad(
    dst_elem: u8,
    fm_elem: u8,
    filter_elem: u8,
    bias_elem: u8,
    dst: *const AscLocal,
    fm: *const AscLocal,
    filter: *const AscLocal,
    bias: *const AscLocal,
    p: *const AscMmad,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let r = *p;
        let mut q = MmadParams::new(r.m, r.n, r.k, r.is_bias != 0);
        q.unit_flag = r.unit_flag;
        q.k_direction_align = r.k_direction_align != 0;
        q.cmatrix_source = r.cmatrix_source != 0;
        q.cmatrix_init_val = r.cmatrix_init_val != 0;
        let (d, f, w) = (&*dst, &*fm, &*filter);
        use DType::*;
        match (dtype(fm_elem)?, dtype(filter_elem)?, dtype(dst_elem)?) {
            (Int4, Int4, Int32) => {
                mmad_typed::<i32, ascendc::Int4, ascendc::Int4>(d, f, w, bias, bias_elem, q)
            }
            (Int8, Int8, Int32) => mmad_typed::<i32, i8, i8>(d, f, w, bias, bias_elem, q),
            (Uint8, Int8, Int32) => mmad_typed::<i32, u8, i8>(d, f, w, bias, bias_elem, q),
            (Uint8, Uint8, Int32) => mmad_typed::<i32, u8, u8>(d, f, w, bias, bias_elem, q),
            (Uint8, Uint8, Uint32) => mmad_typed::<u32, u8, u8>(d, f, w, bias, bias_elem, q),
            (Half, Half, Float) => mmad_typed::<f32, f16, f16>(d, f, w, bias, bias_elem, q),
            (Half, Half, Half) => mmad_typed::<f16, f16, f16>(d, f, w, bias, bias_elem, q),
            (Float, Float, Float) => mmad_typed::<f32, f32, f32>(d, f, w, bias, bias_elem, q),
            (Bfloat16, Bfloat16, Float) => {
                mmad_typed::<f32, bf16, bf16>(d, f, w, bias, bias_elem, q)
            }
            (a, b, c) => Err(no_combination(
                "Mmad",
                format!("{a}×{b}→{c} is not a cube type combination of any modelled product"),
            )),
        }
    })
}

/// `FixpipeParamsV220` / `FixpipeParamsM300` as C++ lays them out.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct AscFixpipe {
    /// Columns.
    pub n_size: u16,
    /// Rows.
    pub m_size: u16,
    /// Source column-group distance, in 16-element rows.
    pub src_stride: u16,
    /// Destination row length (ND) or group distance in 32-byte blocks (NZ).
    pub dst_stride: u32,
    /// `QuantMode_t` index.
    pub quant_pre: u8,
    /// Scalar quantisation word.
    pub deq_scalar: u64,
    /// Matrices.
    pub nd_num: u16,
    /// Source matrix distance, in 64-byte rows.
    pub src_nd_stride: u16,
    /// Destination matrix distance, in elements.
    pub dst_nd_stride: u32,
    /// ReLU (0/1).
    pub relu_en: u8,
    /// Unit flag.
    pub unit_flag: u8,
    /// Channel split (0/1).
    pub is_channel_split: u8,
}

pub(crate) fn quant(i: u8) -> Result<QuantMode, SimError> {
    use QuantMode::*;
    [
        NoQuant,
        F322F16,
        F322BF16,
        DEQF16,
        VDEQF16,
        QF322B8_PRE,
        VQF322B8_PRE,
        REQ8,
        VREQ8,
    ]
    .get(i as usize)
    .copied()
    .ok_or_else(|| SimError::range("Fixpipe", "quantPre", i, "[0, 8]"))
}

#[allow(clippy::too_many_arguments)]
unsafe fn fixpipe_typed<D: Element, S: Element>(
    to_gm: bool,
    dst_l: *const AscLocal,
    dst_g: *const AscGlobal,
    src: &AscLocal,
    ws: *const AscLocal,
    r: &AscFixpipe,
    form: u8,
    nz: bool,
) -> Result<(), SimError> {
    let s = src.tensor::<S>()?;
    let w: Option<LocalTensor<u64>> = match ws.as_ref() {
        Some(t) => Some(t.tensor::<u64>()?),
        None => None,
    };
    let mut p = FixpipeParamsV220::new(
        r.n_size,
        r.m_size,
        r.src_stride,
        r.dst_stride,
        r.relu_en != 0,
    );
    p.quant_pre = quant(r.quant_pre)?;
    p.deq_scalar = r.deq_scalar;
    p.nd_num = r.nd_num;
    p.src_nd_stride = r.src_nd_stride;
    p.dst_nd_stride = r.dst_nd_stride;
    p.unit_flag = r.unit_flag;
    p.is_channel_split = r.is_channel_split != 0;
    let cfg = if nz { CFG_NZ } else { CFG_ROW_MAJOR };
    let w = w.as_ref();
    macro_rules! go {
        ($q:expr) => {
            if to_gm {
                fixpipe(&global::<D>("Fixpipe", &*dst_g)?, &s, w, $q, cfg)
            } else {
                fixpipe(&(*dst_l).tensor::<D>()?, &s, w, $q, cfg)
            }
        };
    }
    match form {
        0 => go!(p),
        1 => go!(m300(p)),
        _ => go!(ProductForm(p)),
    }
}

fn m300(p: FixpipeParamsV220) -> FixpipeParamsM300 {
    FixpipeParamsM300 {
        n_size: p.n_size,
        m_size: p.m_size,
        src_stride: p.src_stride,
        dst_stride: p.dst_stride,
        quant_pre: p.quant_pre,
        deq_scalar: p.deq_scalar,
        nd_num: p.nd_num,
        src_nd_stride: p.src_nd_stride,
        dst_nd_stride: p.dst_nd_stride,
        relu_en: p.relu_en,
        unit_flag: p.unit_flag,
        is_channel_split: p.is_channel_split,
    }
}

/// The C++ `FixpipeParamsV220`, which is also `FixpipeParamsM300` there: whichever form the
/// running product takes.
#[derive(Clone, Copy)]
struct ProductForm(FixpipeParamsV220);

impl FixpipeArgs for ProductForm {
    const FORM: Option<FixpipeForm> = None;
    fn fields(self) -> FixpipeParamsV220 {
        self.0
    }
}

/// `Fixpipe<D, S, config>(dst, src[, cbufWorkspace], params)`: `to_gm` 1 writes `dst_g`, 0
/// writes `dst_l` (L1); `form` 0 `FixpipeParamsV220`, 1 `FixpipeParamsM300`, 2 the running
/// product's form (the C++ headers); `nz` 1 for `CFG_NZ`.
///
/// # Safety
/// The pointers the call uses are valid for reads; `ws` is null or valid.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_fixpipe(
    dst_elem: u8,
    src_elem: u8,
    to_gm: u8,
    dst_l: *const AscLocal,
    dst_g: *const AscGlobal,
    src: *const AscLocal,
    ws: *const AscLocal,
    p: *const AscFixpipe,
    form: u8,
    nz: u8,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let (g, r, s) = (to_gm != 0, &*p, &*src);
        let nz = nz != 0;
        use DType::*;
        match (dtype(src_elem)?, dtype(dst_elem)?) {
            (Float, Float) => fixpipe_typed::<f32, f32>(g, dst_l, dst_g, s, ws, r, form, nz),
            (Float, Half) => fixpipe_typed::<f16, f32>(g, dst_l, dst_g, s, ws, r, form, nz),
            (Float, Bfloat16) => fixpipe_typed::<bf16, f32>(g, dst_l, dst_g, s, ws, r, form, nz),
            (Float, Int8) => fixpipe_typed::<i8, f32>(g, dst_l, dst_g, s, ws, r, form, nz),
            (Float, Uint8) => fixpipe_typed::<u8, f32>(g, dst_l, dst_g, s, ws, r, form, nz),
            (Int32, Int32) => fixpipe_typed::<i32, i32>(g, dst_l, dst_g, s, ws, r, form, nz),
            (Int32, Half) => fixpipe_typed::<f16, i32>(g, dst_l, dst_g, s, ws, r, form, nz),
            (Int32, Int8) => fixpipe_typed::<i8, i32>(g, dst_l, dst_g, s, ws, r, form, nz),
            (Int32, Uint8) => fixpipe_typed::<u8, i32>(g, dst_l, dst_g, s, ws, r, form, nz),
            (a, b) => Err(no_combination(
                "Fixpipe",
                format!(
                    "{a} → {b} is not a Fixpipe conversion: the source is float or int32_t in L0C"
                ),
            )),
        }
    })
}
