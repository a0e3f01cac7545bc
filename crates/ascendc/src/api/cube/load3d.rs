//! `LoadData` for convolution (image to column, PIPE_MTE1): a feature map in L1 (NC1HWC0: `C1`
//! groups of `l1H × l1W × C0` elements) is unfolded into the im2col matrix — row `p` is output
//! pixel `p` (`oh = p / Wout`, `ow = p % Wout`), column `(c1 · Hk · Wk + kh · Wk + kw) · C0 + c0`
//! the feature-map element under kernel point `(kh, kw)` of channel `c1 · C0 + c0`, or the pad
//! value outside the map — and the block `[mStartPt, + mExtension) × [kStartPt, + kExtension)` of
//! it goes to L0A as ZZ (or, with `enTranspose`, its transpose as ZZ) or to L0B as ZN, exactly as
//! the pages' reference pseudo-code (load3d.py) arranges it. Fractal padding past the extensions
//! is not written.
//!
//! The feature-map shape and padding come from the parameters or, with `isSetFMatrix = false`,
//! from `SetFmatrix`; the pad value likewise from `SetLoadDataPaddingValue`. `SetLoadDataRepeat`
//! repeats the block `repeatTime` times along M (mode 0, `repeatStride` in 16 rows) or K (mode 1,
//! in 32 bytes; 64 on the Atlas 200I/500 A2), the blocks forming one larger matrix;
//! `SetLoadDataBoundary` makes source addresses past the boundary wrap to the start of L1.
//!
//! `LoadData3DParamsV2`/`V2Pro` run on Atlas A2/A3/200I-500 A2 and 310P. `LoadData3DParamsV1`
//! (Atlas training, 310P) is refused: its fractal walk is not specified precisely enough to
//! model. `channelSize` values with a partial last C0 group (4, 8, `N·C0 + 4` …) are refused too.

use super::{operand, require};
use crate::api::context::with_core;
use crate::api::tensor::LocalTensor;
use crate::chip::Product;
use crate::core::trace::{Access, Pipe, Space};
use crate::core::Core;
use crate::dtype::{DType, DTypeSet, Element, TensorElement};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::position::Hardware;

const API: &str = "LoadData";

/// `LoadData3DParamsV2<T>`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LoadData3DParamsV2<T> {
    /// Padding `[left, right, top, bottom]`, each [0, 255].
    pub pad_list: [u8; 4],
    /// Feature-map height, [0, 32767] (0: no-op).
    pub l1_h: u16,
    /// Feature-map width, [0, 32767] (0: no-op).
    pub l1_w: u16,
    /// Channels (0: no-op); a multiple of C0 here.
    pub channel_size: u16,
    /// Columns moved (0: no-op).
    pub k_extension: u16,
    /// Rows moved (0: no-op).
    pub m_extension: u16,
    /// First column, a multiple of C0.
    pub k_start_pt: u16,
    /// First row, [0, 32767].
    pub m_start_pt: u16,
    /// Kernel step along W, [1, 63].
    pub stride_w: u8,
    /// Kernel step along H, [1, 63].
    pub stride_h: u8,
    /// Kernel width, [0, 255] (0 without `filterSizeW`: no-op).
    pub filter_w: u8,
    /// Kernel height, [0, 255] (0 without `filterSizeH`: no-op).
    pub filter_h: u8,
    /// Kernel dilation along W, [0, 255].
    pub dilation_filter_w: u8,
    /// Kernel dilation along H, [0, 255].
    pub dilation_filter_h: u8,
    /// L0A: write the transpose (16- and 32-bit types); L0B always transposes.
    pub en_transpose: bool,
    /// No longer supported; false.
    pub en_small_k: bool,
    /// The pad value.
    pub pad_value: T,
    /// Kernel width + 256.
    pub filter_size_w: bool,
    /// Kernel height + 256.
    pub filter_size_h: bool,
    /// Read the feature-map registers of the right matrix; only false is supported.
    pub f_matrix_ctrl: bool,
}

impl<T: TensorElement> Default for LoadData3DParamsV2<T> {
    fn default() -> Self {
        LoadData3DParamsV2 {
            pad_list: [0; 4],
            l1_h: 0,
            l1_w: 0,
            channel_size: 0,
            k_extension: 0,
            m_extension: 0,
            k_start_pt: 0,
            m_start_pt: 0,
            stride_w: 1,
            stride_h: 1,
            filter_w: 1,
            filter_h: 1,
            dilation_filter_w: 1,
            dilation_filter_h: 1,
            en_transpose: false,
            en_small_k: false,
            pad_value: T::default(),
            filter_size_w: false,
            filter_size_h: false,
            f_matrix_ctrl: false,
        }
    }
}

/// `LoadData3DParamsV2Pro`: the V2 fields packed into two words; the feature map and pad value
/// always come from `SetFmatrix` and `SetLoadDataPaddingValue`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoadData3DParamsV2Pro {
    /// Channels.
    pub channel_size: u16,
    /// As in V2.
    pub en_transpose: bool,
    /// As in V2.
    pub en_small_k: bool,
    /// As in V2.
    pub filter_size_w: bool,
    /// As in V2.
    pub filter_size_h: bool,
    /// As in V2.
    pub f_matrix_ctrl: bool,
    /// `mStartPt << 48 | kStartPt << 32 | mExtension << 16 | kExtension`.
    pub ext_config: u64,
    /// `dilationFilterH << 40 | dilationFilterW << 32 | filterH << 24 | filterW << 16 | strideH <<
    /// 8 | strideW`.
    pub filter_config: u64,
}

impl Default for LoadData3DParamsV2Pro {
    fn default() -> Self {
        LoadData3DParamsV2Pro {
            channel_size: 0,
            en_transpose: false,
            en_small_k: false,
            filter_size_w: false,
            filter_size_h: false,
            f_matrix_ctrl: false,
            ext_config: 0,
            filter_config: 0x10101010101,
        }
    }
}

/// `LoadData3DParamsV1<T>` (Atlas training, 310P).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct LoadData3DParamsV1<T> {
    /// Padding `[left, right, top, bottom]`.
    pub pad_list: [u8; 4],
    /// Feature-map height.
    pub l1_h: u16,
    /// Feature-map width.
    pub l1_w: u16,
    /// First C1 group.
    pub c1_index: u16,
    /// First kernel column.
    pub fetch_filter_w: u8,
    /// First kernel row.
    pub fetch_filter_h: u8,
    /// Window start along W.
    pub left_top_w: i16,
    /// Window start along H.
    pub left_top_h: i16,
    /// Kernel step along W.
    pub stride_w: u8,
    /// Kernel step along H.
    pub stride_h: u8,
    /// Kernel width.
    pub filter_w: u8,
    /// Kernel height.
    pub filter_h: u8,
    /// Dilation along W.
    pub dilation_filter_w: u8,
    /// Dilation along H.
    pub dilation_filter_h: u8,
    /// Destination step between iterations.
    pub jump_stride: u8,
    /// 0: kernel points, 1: window positions.
    pub repeat_mode: u8,
    /// Iterations.
    pub repeat_time: u8,
    /// The 4/8-channel form.
    pub c_size: u8,
    /// The pad value.
    pub pad_value: T,
}

/// `IsResetLoad3dConfig`: whether a V1/V2 load sets the feature-map and pad-value registers from
/// its parameters (true) or uses what `SetFmatrix` / `SetLoadDataPaddingValue` set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IsResetLoad3dConfig {
    /// Set the feature-map registers (`l1H`, `l1W`, `padList`).
    pub is_set_fmatrix: bool,
    /// Set the pad-value register.
    pub is_set_padding: bool,
}

/// `IS_RESER_LOAD3D_DEFAULT_CONFIG`: both set by the load.
pub const IS_RESER_LOAD3D_DEFAULT_CONFIG: IsResetLoad3dConfig = IsResetLoad3dConfig {
    is_set_fmatrix: true,
    is_set_padding: true,
};

/// `FmatrixMode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum FmatrixMode {
    /// The left-matrix registers (the only one supported; both matrices use it).
    FMATRIX_LEFT,
    /// The right-matrix registers.
    FMATRIX_RIGHT,
}

/// `LoadDataRepeatParam`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoadDataRepeatParam {
    /// Distance between iterations: 16 rows (mode 0) or 32 bytes (mode 1; 64 on the 200I/500 A2).
    pub repeat_stride: u16,
    /// Iterations, [0, 255] (0: loads are no-ops).
    pub repeat_time: u8,
    /// 0: along M (height), 1: along K (width).
    pub repeat_mode: u8,
}

impl Default for LoadDataRepeatParam {
    fn default() -> Self {
        LoadDataRepeatParam {
            repeat_stride: 0,
            repeat_time: 1,
            repeat_mode: 0,
        }
    }
}

fn product(core: &Core, api: &'static str, ok: &[Product]) -> Result<()> {
    require(core, api, ok.contains(&core.profile.product), api)
}

const V2_PRODUCTS: [Product; 4] = [
    Product::Ascend910B,
    Product::Ascend910_93,
    Product::Ascend310B,
    Product::Ascend310P,
];

/// `SetFmatrix(l1H, l1W, padList, fmatrixMode)`: the feature-map registers (310P, A2, A3,
/// 200I/500 A2); `l1H`, `l1W` ∈ [1, 32767]; only `FMATRIX_LEFT`.
#[track_caller]
pub fn set_fmatrix(l1_h: u16, l1_w: u16, pad_list: [u8; 4], mode: FmatrixMode) -> Result<()> {
    const SET: &str = "SetFmatrix";
    let loc = SourceLoc::caller();
    with_core(SET, loc, |core| {
        product(core, SET, &V2_PRODUCTS)?;
        for (name, v) in [("l1H", l1_h), ("l1W", l1_w)] {
            if !(1..=32767).contains(&v) {
                return Err(SimError::range(SET, name, v, "[1, 32767]"));
            }
        }
        if mode != FmatrixMode::FMATRIX_LEFT {
            return Err(SimError::range(
                SET,
                "fmatrixMode",
                "FMATRIX_RIGHT",
                "FMATRIX_LEFT (both matrices use the left registers)",
            ));
        }
        core.cube.load3d.fmatrix = Some((l1_h, l1_w, pad_list));
        core.issue(Pipe::S, SET, loc, &[]);
        Ok(())
    })
}

/// `SetLoadDataBoundary(boundaryValue)` (310P, A2, A3): L1 source bytes past it wrap to byte 0;
/// 0 for none. A load under a boundary below 1024 fails (undefined on the device).
#[track_caller]
pub fn set_load_data_boundary(boundary_value: u32) -> Result<()> {
    const SET: &str = "SetLoadDataBoundary";
    let loc = SourceLoc::caller();
    with_core(SET, loc, |core| {
        product(
            core,
            SET,
            &[
                Product::Ascend910B,
                Product::Ascend910_93,
                Product::Ascend310P,
            ],
        )?;
        core.cube.load3d.boundary = boundary_value;
        core.issue(Pipe::S, SET, loc, &[]);
        Ok(())
    })
}

/// `SetLoadDataRepeat(repeatParams)` (A2, A3, 200I/500 A2).
#[track_caller]
pub fn set_load_data_repeat(repeat_params: LoadDataRepeatParam) -> Result<()> {
    const SET: &str = "SetLoadDataRepeat";
    let loc = SourceLoc::caller();
    with_core(SET, loc, |core| {
        product(
            core,
            SET,
            &[
                Product::Ascend910B,
                Product::Ascend910_93,
                Product::Ascend310B,
            ],
        )?;
        if repeat_params.repeat_mode > 1 {
            return Err(SimError::range(
                SET,
                "repeatMode",
                repeat_params.repeat_mode,
                "[0, 1]",
            ));
        }
        core.cube.load3d.repeat = (
            repeat_params.repeat_stride,
            repeat_params.repeat_time,
            repeat_params.repeat_mode,
        );
        core.issue(Pipe::S, SET, loc, &[]);
        Ok(())
    })
}

/// `SetLoadDataPaddingValue<T>(padValue)` (310P: 8/16-bit integers and half; A2/A3/200I-500 A2
/// also bfloat16, 32-bit integers and float).
#[track_caller]
pub fn set_load_data_padding_value<T: Element>(pad_value: T) -> Result<()> {
    const SET: &str = "SetLoadDataPaddingValue";
    let loc = SourceLoc::caller();
    with_core(SET, loc, |core| {
        product(core, SET, &V2_PRODUCTS)?;
        let types = pad_types(core.profile.product);
        if !types.contains(T::DTYPE) {
            return Err(SimError::new(
                Category::Type,
                SET,
                format!("{} is not supported on {}: {types}", T::DTYPE, core.profile),
            ));
        }
        core.cube.load3d.padding = bits(pad_value);
        core.issue(Pipe::S, SET, loc, &[]);
        Ok(())
    })
}

fn pad_types(p: Product) -> DTypeSet {
    use DType::*;
    if p == Product::Ascend310P {
        DTypeSet::of(&[Int8, Uint8, Int16, Uint16, Half])
    } else {
        DTypeSet::of(&[
            Int8, Uint8, Int16, Uint16, Half, Bfloat16, Int32, Uint32, Float,
        ])
    }
}

fn bits<T: TensorElement>(v: T) -> u64 {
    let mut b = [0u8; 8];
    T::put(&mut b, 0, v);
    u64::from_le_bytes(b)
}

/// Element types of a V2 load per product and destination.
fn load_types(p: Product, to_b: bool) -> DTypeSet {
    use DType::*;
    match (p, to_b) {
        (Product::Ascend310P, _) => DTypeSet::of(&[Int8, Uint8, Half]),
        (_, false) => DTypeSet::of(&[Int4, Int8, Uint8, Half, Bfloat16, Int32, Uint32, Float]),
        (_, true) => DTypeSet::of(&[Half, Bfloat16, Int32, Uint32, Float]),
    }
}

/// The V2 fields after the registers are applied.
#[derive(Debug, Clone, Copy)]
struct Geometry {
    l1_h: u64,
    l1_w: u64,
    pad: [u64; 4],
    pad_bits: u64,
    channels: u64,
    k_ext: u64,
    m_ext: u64,
    k_start: u64,
    m_start: u64,
    stride_w: u64,
    stride_h: u64,
    filter_w: u64,
    filter_h: u64,
    dil_w: u64,
    dil_h: u64,
    transpose: bool,
}

/// `LoadData<T, defaultConfig>(dst, src, LoadData3DParamsV2<T>)`: L1 (A1/B1) → L0A (A2) / L0B
/// (B2), image to column.
#[track_caller]
pub fn load_data_3d_v2<T: TensorElement>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    p: LoadData3DParamsV2<T>,
    config: IsResetLoad3dConfig,
) -> Result<()> {
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        product(core, "LoadData with LoadData3DParamsV2", &V2_PRODUCTS)?;
        flags(p.en_small_k, p.f_matrix_ctrl)?;
        // A load that sets the registers leaves them set.
        if config.is_set_fmatrix {
            core.cube.load3d.fmatrix = Some((p.l1_h, p.l1_w, p.pad_list));
        }
        if config.is_set_padding {
            core.cube.load3d.padding = bits(p.pad_value);
        }
        let Some((l1_h, l1_w, pad)) = core.cube.load3d.fmatrix else {
            return Err(SimError::new(
                Category::Sync,
                API,
                "isSetFMatrix = false reads the feature map of SetFmatrix: call it first",
            ));
        };
        let fw = p.filter_w as u64 + if p.filter_size_w { 256 } else { 0 };
        let fh = p.filter_h as u64 + if p.filter_size_h { 256 } else { 0 };
        let g = Geometry {
            l1_h: l1_h as u64,
            l1_w: l1_w as u64,
            pad: pad.map(|x| x as u64),
            pad_bits: core.cube.load3d.padding,
            channels: p.channel_size as u64,
            k_ext: p.k_extension as u64,
            m_ext: p.m_extension as u64,
            k_start: p.k_start_pt as u64,
            m_start: p.m_start_pt as u64,
            stride_w: p.stride_w as u64,
            stride_h: p.stride_h as u64,
            filter_w: fw,
            filter_h: fh,
            dil_w: p.dilation_filter_w as u64,
            dil_h: p.dilation_filter_h as u64,
            transpose: p.en_transpose,
        };
        unfold(core, loc, dst, src, g)
    })
}

/// `LoadData(dst, src, LoadData3DParamsV2Pro)`: as V2 with the packed fields; the feature map and
/// pad value come from `SetFmatrix` and `SetLoadDataPaddingValue`.
#[track_caller]
pub fn load_data_3d_v2_pro<T: TensorElement>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    p: LoadData3DParamsV2Pro,
) -> Result<()> {
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        product(core, "LoadData with LoadData3DParamsV2Pro", &V2_PRODUCTS)?;
        flags(p.en_small_k, p.f_matrix_ctrl)?;
        let Some((l1_h, l1_w, pad)) = core.cube.load3d.fmatrix else {
            return Err(SimError::new(
                Category::Sync,
                API,
                "LoadData3DParamsV2Pro reads the feature map of SetFmatrix: call it first",
            ));
        };
        let (e, f) = (p.ext_config, p.filter_config);
        let field = |w: u64, shift: u32, bits: u32| (w >> shift) & ((1 << bits) - 1);
        let g = Geometry {
            l1_h: l1_h as u64,
            l1_w: l1_w as u64,
            pad: pad.map(|x| x as u64),
            pad_bits: core.cube.load3d.padding,
            channels: p.channel_size as u64,
            k_ext: field(e, 0, 16),
            m_ext: field(e, 16, 16),
            k_start: field(e, 32, 16),
            m_start: field(e, 48, 16),
            stride_w: field(f, 0, 8),
            stride_h: field(f, 8, 8),
            filter_w: field(f, 16, 8) + if p.filter_size_w { 256 } else { 0 },
            filter_h: field(f, 24, 8) + if p.filter_size_h { 256 } else { 0 },
            dil_w: field(f, 32, 8),
            dil_h: field(f, 40, 8),
            transpose: p.en_transpose,
        };
        unfold(core, loc, dst, src, g)
    })
}

/// `LoadData<T, defaultConfig>(dst, src, LoadData3DParamsV1<T>)`: refused (see the module page).
#[track_caller]
pub fn load_data_3d_v1<T: TensorElement>(
    _dst: &LocalTensor<T>,
    _src: &LocalTensor<T>,
    _p: LoadData3DParamsV1<T>,
    _config: IsResetLoad3dConfig,
) -> Result<()> {
    with_core(API, SourceLoc::caller(), |core| {
        let own = matches!(
            core.profile.product,
            Product::Ascend910 | Product::Ascend310P
        );
        require(core, API, own, "LoadData with LoadData3DParamsV1")?;
        Err(SimError::new(
            Category::Unsupported,
            API,
            "LoadData3DParamsV1 is not modelled: the order in which its iterations walk kernel points and \
             window positions (fetchFilter, leftTop, jumpStride, repeatMode) is not specified precisely \
             enough; on 310P use LoadData3DParamsV2",
        ))
    })
}

fn flags(small_k: bool, f_matrix_ctrl: bool) -> Result<()> {
    if small_k {
        return Err(SimError::range(
            API,
            "enSmallK",
            true,
            "false (the products no longer support small K)",
        ));
    }
    if f_matrix_ctrl {
        return Err(SimError::range(
            API,
            "fMatrixCtrl",
            true,
            "false (only the left feature-map registers are supported)",
        ));
    }
    Ok(())
}

/// The unfold itself, shared by V2 and V2 Pro.
fn unfold<T: TensorElement>(
    core: &mut Core,
    loc: SourceLoc,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    g: Geometry,
) -> Result<()> {
    let to_b = match dst.hw {
        Hardware::L0A => false,
        Hardware::L0B => true,
        hw => {
            return Err(SimError::new(
                Category::Position,
                API,
                format!(
                    "the destination is {} in {hw}; it must be A2 in L0A or B2 in L0B",
                    dst.pos
                ),
            ))
        }
    };
    let product_id = core.profile.product;
    let types = load_types(product_id, to_b);
    if !types.contains(T::DTYPE) {
        return Err(SimError::new(
            Category::Type,
            API,
            format!(
                "{} is not supported into {} on {}: {types}",
                T::DTYPE,
                dst.hw,
                core.profile
            ),
        ));
    }
    // Element width in bits; C0 elements make 32 bytes, a fractal 4096 bits.
    let eb = T::BITS as u64;
    let c0 = 256 / eb;
    let frac = 4096 / eb;
    let transpose = !to_b && g.transpose;
    if transpose && eb <= 8 {
        return Err(SimError::new(
            Category::Type,
            API,
            "enTranspose into L0A takes 16- and 32-bit types, not 4- or 8-bit ones",
        ));
    }
    for (name, v, max) in [
        ("l1H", g.l1_h, 32767),
        ("l1W", g.l1_w, 32767),
        ("mStartPt", g.m_start, 32767),
        ("strideW", g.stride_w, 63),
        ("strideH", g.stride_h, 63),
    ] {
        if v > max {
            return Err(SimError::range(API, name, v, format!("[0, {max}]")));
        }
    }
    for (name, v) in [("strideW", g.stride_w), ("strideH", g.stride_h)] {
        if v == 0 {
            return Err(SimError::range(
                API,
                name,
                0,
                "[1, 63] (a zero stride is not modelled)",
            ));
        }
    }
    if !g.k_start.is_multiple_of(c0) {
        return Err(SimError::range(
            API,
            "kStartPt",
            g.k_start,
            format!("a multiple of {c0} for {}", T::DTYPE),
        ));
    }
    if g.l1_h == 0
        || g.l1_w == 0
        || g.channels == 0
        || g.k_ext == 0
        || g.m_ext == 0
        || g.filter_w == 0
        || g.filter_h == 0
    {
        return Ok(());
    }
    if !g.channels.is_multiple_of(c0) {
        return Err(SimError::new(
            Category::Unsupported,
            API,
            format!(
                "channelSize {} is not a multiple of C0 = {c0}: the partial-group channel sizes (4, 8, N·{c0} + 4, …) \
                 are not modelled",
                g.channels
            ),
        ));
    }
    // 310P has no repeat register: one iteration.
    let (stride, times, mode) = if product_id == Product::Ascend310P {
        (0, 1, 0)
    } else {
        core.cube.load3d.repeat
    };
    if times == 0 {
        return Ok(());
    }
    let boundary = core.cube.load3d.boundary as u64;
    if (1..1024).contains(&boundary) {
        return Err(SimError::range(
            "SetLoadDataBoundary",
            "boundaryValue",
            boundary,
            "0 (none) or at least 1024 with LoadData for convolution",
        ));
    }
    // The im2col matrix.
    let (kh_d, kw_d) = (
        (g.filter_h - 1) * g.dil_h + 1,
        (g.filter_w - 1) * g.dil_w + 1,
    );
    let (hp, wp) = (g.l1_h + g.pad[2] + g.pad[3], g.l1_w + g.pad[0] + g.pad[1]);
    if hp < kh_d || wp < kw_d {
        return Err(SimError::new(
            Category::Range,
            API,
            format!(
                "the dilated kernel ({kh_d} × {kw_d}) is larger than the padded feature map ({hp} × {wp})"
            ),
        ));
    }
    let (h_out, w_out) = ((hp - kh_d) / g.stride_h + 1, (wp - kw_d) / g.stride_w + 1);
    let rows = h_out * w_out;
    let c1 = g.channels / c0;
    let cols = c1 * g.filter_h * g.filter_w * c0;
    let times = times as u64;
    let unit = if product_id == Product::Ascend310B {
        2 * c0
    } else {
        c0
    };
    let step = stride as u64 * if mode == 0 { 16 } else { unit };
    // Extensions: a multiple of the fractal side unless the block reaches the matrix's edge.
    let last_k = g.k_start + (if mode == 1 { (times - 1) * step } else { 0 }) + g.k_ext;
    let last_m = g.m_start + (if mode == 0 { (times - 1) * step } else { 0 }) + g.m_ext;
    if last_k > cols {
        return Err(SimError::range(
            API,
            "kStartPt + kExtension",
            last_k,
            format!("at most the im2col width, channelSize · filterH · filterW = {cols}"),
        ));
    }
    if !g.k_ext.is_multiple_of(c0) && (last_k < cols || (mode == 1 && times > 1)) {
        return Err(SimError::range(
            API,
            "kExtension",
            g.k_ext,
            format!("a multiple of {c0} unless it reaches the last column"),
        ));
    }
    if !g.m_ext.is_multiple_of(16) && (last_m < rows || (mode == 0 && times > 1)) {
        return Err(SimError::range(
            API,
            "mExtension",
            g.m_ext,
            "a multiple of 16 unless it reaches the last row",
        ));
    }
    // The destination matrix (before transposing): all iterations side by side.
    let (m_all, k_all) = if mode == 0 {
        (times * g.m_ext, g.k_ext)
    } else {
        (g.m_ext, times * g.k_ext)
    };
    let (d_rows, d_cols) = if transpose {
        (k_all, m_all)
    } else {
        (m_all, k_all)
    };
    let pad = |x: u64, a: u64| x.div_ceil(a) * a;
    // Element index in the destination of (row, column), and the bytes written.
    let (dst_at, need): (Box<dyn Fn(u64, u64) -> u64>, u64) = if to_b {
        // ZN: C0 rows × 16 columns per fractal, row-major fractals, each column-major.
        let n1 = d_cols.div_ceil(16);
        (
            Box::new(move |r: u64, c: u64| {
                ((r / c0) * n1 + c / 16) * frac + (c % 16) * c0 + r % c0
            }),
            pad(d_rows, c0) / c0 * n1 * 512,
        )
    } else {
        // ZZ: 16 rows × C0 columns per fractal, row-major both ways.
        let k1 = d_cols.div_ceil(c0);
        (
            Box::new(move |r: u64, c: u64| {
                ((r / 16) * k1 + c / c0) * frac + (r % 16) * c0 + c % c0
            }),
            pad(d_rows, 16) / 16 * k1 * 512,
        )
    };
    operand(
        core,
        loc,
        API,
        "destination",
        dst,
        dst.hw,
        "A2/B2",
        512,
        need,
    )?;
    let map = c1 * g.l1_h * g.l1_w * 32;
    operand(
        core,
        loc,
        API,
        "source",
        src,
        Hardware::L1,
        "A1/B1",
        32,
        map,
    )?;
    if boundary != 0 && src.addr as u64 >= boundary {
        return Err(SimError::new(
            Category::Range,
            API,
            format!(
                "the source starts at L1 byte {} beyond the SetLoadDataBoundary boundary {boundary}",
                src.addr
            ),
        ));
    }
    let s0 = src.addr as u64;
    let l1 = core.mem.bytes(Hardware::L1);
    let pad_value = T::get(&g.pad_bits.to_le_bytes(), 0);
    let khw = g.filter_h * g.filter_w;
    // Element (row, column) of the im2col matrix.
    let value = |p: u64, k: u64| -> T {
        let (grp, rem) = (k / (khw * c0), k % (khw * c0));
        let (kpos, cc) = (rem / c0, rem % c0);
        let (kh, kw) = (kpos / g.filter_w, kpos % g.filter_w);
        let (oh, ow) = (p / w_out, p % w_out);
        let h = (oh * g.stride_h + kh * g.dil_h) as i64 - g.pad[2] as i64;
        let w = (ow * g.stride_w + kw * g.dil_w) as i64 - g.pad[0] as i64;
        if h < 0 || w < 0 || h as u64 >= g.l1_h || w as u64 >= g.l1_w {
            pad_value
        } else {
            // Bit address in L1, wrapped at the boundary (a whole number of bytes).
            let mut bit = s0 * 8 + (((grp * g.l1_h + h as u64) * g.l1_w + w as u64) * c0 + cc) * eb;
            if boundary != 0 {
                bit %= boundary * 8;
            }
            T::get(l1, (bit / eb) as usize)
        }
    };
    let mut writes = Vec::with_capacity((m_all * k_all) as usize);
    for it in 0..times {
        let (mo, ko) = if mode == 0 {
            (it * step, 0)
        } else {
            (0, it * step)
        };
        let (dm, dk) = if mode == 0 {
            (it * g.m_ext, 0)
        } else {
            (0, it * g.k_ext)
        };
        for i in 0..g.m_ext {
            for j in 0..g.k_ext {
                let v = value(g.m_start + mo + i, g.k_start + ko + j);
                let (r, c) = (dm + i, dk + j);
                let at = if transpose {
                    dst_at(c, r)
                } else {
                    dst_at(r, c)
                };
                writes.push((at, v));
            }
        }
    }
    let d0 = dst.addr as u64;
    let mem = core.mem.bytes_mut(dst.hw);
    for (at, v) in writes {
        T::put(mem, (d0 * 8 / eb + at) as usize, v);
    }
    let read = if boundary != 0 {
        Access::contiguous(false, Space::Local(Hardware::L1), 0, boundary)
    } else {
        Access::contiguous(false, Space::Local(Hardware::L1), s0, map)
    };
    let write = Access::contiguous(true, Space::Local(dst.hw), d0, need);
    core.issue(Pipe::MTE1, API, loc, &[read, write]);
    Ok(())
}
