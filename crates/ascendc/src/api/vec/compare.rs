//! Compare / CompareScalar (one result bit per element) and Select (per-lane choice by bits).
//!
//! Bit `i` of a bit tensor is bit `i % 8` of byte `i / 8` (least significant bit first).

use super::binary::lanes_for;
use super::support;
use super::{
    check_dtype, run_bits, BinaryRepeatParams, BitOpnd, Count, Issue, Mask, Opnd, UnaryRepeatParams,
};
use crate::api::context::with_core;
use crate::api::tensor::LocalTensor;
use crate::core::vector::{for_lanes, Operand, Shape};
use crate::core::Core;
use crate::dtype::Element;
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::numeric::Arith;

/// Comparison of `Compare` (`CMPMODE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(clippy::upper_case_acronyms)]
pub enum CMPMODE {
    /// `src0 < src1`.
    LT,
    /// `src0 > src1`.
    GT,
    /// `src0 ≥ src1`.
    GE,
    /// `src0 == src1`.
    EQ,
    /// `src0 != src1` (true when either is NaN).
    NE,
    /// `src0 ≤ src1`.
    LE,
}

impl CMPMODE {
    /// The IEEE comparison (every mode but NE is false on NaN).
    #[inline]
    pub fn test<T: PartialOrd>(self, a: T, b: T) -> bool {
        match self {
            CMPMODE::LT => a < b,
            CMPMODE::GT => a > b,
            CMPMODE::GE => a >= b,
            CMPMODE::EQ => a == b,
            CMPMODE::NE => a != b,
            CMPMODE::LE => a <= b,
        }
    }
}

/// The element type of a bit-mask tensor: `uint8_t` or `int8_t`.
pub trait ByteMask: Element {}
impl ByteMask for u8 {}
impl ByteMask for i8 {}

/// The element type of a `selMask` tensor (any unsigned integer; only its bits matter).
pub trait SelMaskElem: Element {}
impl SelMaskElem for u8 {}
impl SelMaskElem for u16 {}
impl SelMaskElem for u32 {}
impl SelMaskElem for u64 {}

#[inline]
fn get_bit(ub: &[u8], base: u64, i: u64) -> bool {
    ub[(base + i / 8) as usize] >> (i % 8) & 1 != 0
}

#[inline]
fn set_bit(ub: &mut [u8], base: u64, i: u64, v: bool) {
    let b = &mut ub[(base + i / 8) as usize];
    if v {
        *b |= 1 << (i % 8);
    } else {
        *b &= !(1 << (i % 8));
    }
}

#[inline]
fn read<T: Element>(ub: &[u8], addr: u64) -> T {
    bytemuck::pod_read_unaligned(&ub[addr as usize..addr as usize + T::SIZE])
}

fn check_compare_type<T: Element>(
    core: &Core,
    api: &'static str,
    mode: CMPMODE,
    table: &support::OpSupport,
) -> Result<()> {
    let product = core.profile.product;
    if support::COMPARE_EQ_ONLY.types(product).contains(T::DTYPE) {
        if mode != CMPMODE::EQ {
            return Err(SimError::new(
                Category::Type,
                api,
                format!(
                    "parameter `cmpMode` = {mode:?}: {} supports only CMPMODE::EQ on {}",
                    T::DTYPE,
                    core.profile.soc
                ),
            ));
        }
        return Ok(());
    }
    check_dtype(core, api, T::DTYPE, table)
}

/// Level 2 of Compare needs `count × sizeof(T)` to be whole 256-byte repeats: the remainder is
/// not computed (a warning).
fn compare_issue<T: Element>(
    core: &mut Core,
    api: &'static str,
    loc: SourceLoc,
    issue: Issue,
) -> Issue {
    if let Issue::Count(n) = issue {
        let lanes = lanes_for(T::SIZE) as i64;
        if n > 0 && n % lanes != 0 {
            core.warn(
                Category::DataLoss,
                api,
                format!(
                    "parameter `count` = {n}: count × sizeof({}) = {} bytes is not a multiple of 256; the last {} element(s) are not compared",
                    T::DTYPE,
                    n * T::SIZE as i64,
                    n % lanes
                ),
                loc,
            );
            return Issue::Count(n - n % lanes);
        }
    }
    issue
}

/// Runs a compare. `src1 = None` compares with `scalar`; `table` gives the element types.
#[allow(clippy::too_many_arguments)]
pub(crate) fn compare_run<U: ByteMask, T: Arith>(
    api: &'static str,
    table: &support::OpSupport,
    loc: SourceLoc,
    dst: &LocalTensor<U>,
    src0: &LocalTensor<T>,
    src1: Option<&LocalTensor<T>>,
    scalar: T,
    mode: CMPMODE,
    issue: Issue,
    strides: [(u32, u32); 2],
) -> Result<()> {
    with_core(api, loc, |core| {
        check_compare_type::<T>(core, api, mode, table)?;
        let mut issue = compare_issue::<T>(core, api, loc, issue);
        let saved = core.vector.mask;
        let saved_counter = core.vector.counter_mode;
        let ineffective = !support::COMPARE_MASK_EFFECTIVE[core.profile.product as usize];
        if let (true, Issue::Level0 { repeat, .. }) = (ineffective, issue) {
            // The mask argument is reserved: every lane of `repeat` repeats is compared, in
            // counter mode too (the counter is not read), and the register is untouched.
            issue = Issue::Level0 {
                mask: Mask::Bits([u64::MAX; 2]),
                repeat,
            };
            core.vector.counter_mode = false;
        }
        let lanes = lanes_for(T::SIZE);
        let mut ops = vec![Opnd::of("src0", src0, strides[0].0, strides[0].1, false)];
        if let Some(s1) = src1 {
            ops.push(Opnd::of("src1", s1, strides[1].0, strides[1].1, false));
        }
        let bits = [BitOpnd::of("dst", dst, true, true)];
        let two = src1.is_some();
        let r = run_bits(core, api, loc, lanes, issue, &ops, &bits, |ub, shape, o| {
            compare_exec(ub, shape, o, two, scalar, mode)
        });
        if ineffective && matches!(issue, Issue::Level0 { .. }) {
            core.vector.mask = saved;
            core.vector.counter_mode = saved_counter;
        }
        r
    })
}

fn compare_exec<T: Arith>(
    ub: &mut [u8],
    shape: &Shape,
    o: &[Operand],
    two: bool,
    scalar: T,
    mode: CMPMODE,
) {
    let size = T::SIZE;
    let dst = o[o.len() - 1].addr;
    for r in 0..shape.repeats {
        let bits = shape.bits(r);
        let mut res = [false; 128];
        for_lanes(bits, shape.lanes, |k| {
            let a: T = read(ub, o[0].lane_addr(size, r, k));
            let b: T = if two {
                read(ub, o[1].lane_addr(size, r, k))
            } else {
                scalar
            };
            res[k as usize] = mode.test(a, b);
        });
        for_lanes(bits, shape.lanes, |k| {
            set_bit(
                ub,
                dst,
                r as u64 * shape.lanes as u64 + k as u64,
                res[k as usize],
            )
        });
    }
}

/// `Compare(dst, src0, src1, cmpMode, count)`: level 2, bit `i` of `dst` = `src0[i] cmp src1[i]`
/// for the first `count` elements; `count × sizeof(T)` should be a multiple of 256 bytes (the
/// remainder is not computed).
#[track_caller]
pub fn compare<U: ByteMask, T: Arith>(
    dst: &LocalTensor<U>,
    src0: &LocalTensor<T>,
    src1: &LocalTensor<T>,
    cmp_mode: CMPMODE,
    count: impl Into<Count>,
) -> Result<()> {
    let issue = count.into().into();
    let st = [(1, 8), (1, 8)];
    compare_run(
        "Compare",
        &support::COMPARE,
        SourceLoc::caller(),
        dst,
        src0,
        Some(src1),
        T::default(),
        cmp_mode,
        issue,
        st,
    )
}

/// `Compare(dst, src0, src1, cmpMode, mask, repeatTime, params)`: level 0; repeat `r` writes
/// bits `[r·L, (r+1)·L)` of `dst` (L = 256 / sizeof(T)); the destination strides are not used.
/// The mask is reserved (every lane compared) except on 310B. Strides in 32-byte blocks.
#[track_caller]
pub fn compare_l0<U: ByteMask, T: Arith>(
    dst: &LocalTensor<U>,
    src0: &LocalTensor<T>,
    src1: &LocalTensor<T>,
    cmp_mode: CMPMODE,
    mask: impl Into<Mask>,
    repeat_times: u8,
    params: BinaryRepeatParams,
) -> Result<()> {
    let issue = Issue::level0(mask, repeat_times);
    let st = [
        (params.src0_blk_stride as u32, params.src0_rep_stride as u32),
        (params.src1_blk_stride as u32, params.src1_rep_stride as u32),
    ];
    compare_run(
        "Compare",
        &support::COMPARE,
        SourceLoc::caller(),
        dst,
        src0,
        Some(src1),
        T::default(),
        cmp_mode,
        issue,
        st,
    )
}

/// `CompareScalar(dst, src0, src1Scalar, cmpMode, count)`: level 2, bit `i` of `dst` =
/// `src0[i] cmp scalar` for the first `count` elements.
#[track_caller]
pub fn compare_scalar<U: ByteMask, T: Arith>(
    dst: &LocalTensor<U>,
    src0: &LocalTensor<T>,
    scalar: T,
    cmp_mode: CMPMODE,
    count: impl Into<Count>,
) -> Result<()> {
    let issue = count.into().into();
    let st = [(1, 8), (1, 8)];
    compare_run(
        "CompareScalar",
        &support::COMPARE,
        SourceLoc::caller(),
        dst,
        src0,
        None,
        scalar,
        cmp_mode,
        issue,
        st,
    )
}

/// `CompareScalar(dst, src0, src1Scalar, cmpMode, mask, repeatTime, params)`: level 0 of
/// [`compare_scalar`]; strides in 32-byte blocks (the destination's are not used).
#[track_caller]
pub fn compare_scalar_l0<U: ByteMask, T: Arith>(
    dst: &LocalTensor<U>,
    src0: &LocalTensor<T>,
    scalar: T,
    cmp_mode: CMPMODE,
    mask: impl Into<Mask>,
    repeat_times: u8,
    params: UnaryRepeatParams,
) -> Result<()> {
    let issue = Issue::level0(mask, repeat_times);
    let st = [
        (params.src_blk_stride as u32, params.src_rep_stride as u32),
        (0, 0),
    ];
    compare_run(
        "CompareScalar",
        &support::COMPARE,
        SourceLoc::caller(),
        dst,
        src0,
        None,
        scalar,
        cmp_mode,
        issue,
        st,
    )
}

/// Select mode (`SELMODE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum SELMODE {
    /// Mode 0: the first `L` bits of `selMask` choose the lanes of every repeat.
    VSEL_CMPMASK_SPR = 0,
    /// Mode 1: tensor / scalar; repeat `r` uses bits `[r·L, (r+1)·L)` of `selMask`.
    VSEL_TENSOR_SCALAR_MODE = 1,
    /// Mode 2: tensor / tensor; repeat `r` uses bits `[r·L, (r+1)·L)` of `selMask`.
    VSEL_TENSOR_TENSOR_MODE = 2,
}

/// The second source of `Select`: a tensor (modes 0 and 2) or a scalar (mode 1).
#[derive(Debug, Clone, Copy)]
pub enum SelectSrc1<'a, T> {
    /// A tensor.
    Tensor(&'a LocalTensor<T>),
    /// A scalar.
    Scalar(T),
}

impl<'a, T> From<&'a LocalTensor<T>> for SelectSrc1<'a, T> {
    fn from(t: &'a LocalTensor<T>) -> Self {
        SelectSrc1::Tensor(t)
    }
}

#[allow(clippy::too_many_arguments)]
fn select_run<T: Arith, M: SelMaskElem>(
    loc: SourceLoc,
    dst: &LocalTensor<T>,
    sel_mask: &LocalTensor<M>,
    src0: &LocalTensor<T>,
    src1: SelectSrc1<'_, T>,
    sel_mode: SELMODE,
    issue: Issue,
    p: BinaryRepeatParams,
) -> Result<()> {
    const API: &str = "Select";
    with_core(API, loc, |core| {
        check_dtype(core, API, T::DTYPE, &support::SELECT)?;
        let modes = support::SELECT_MODES[core.profile.product as usize];
        if !modes.contains(&(sel_mode as u8)) {
            return Err(SimError::new(
                Category::Unsupported,
                API,
                format!(
                    "parameter `selMode` = {sel_mode:?} is not supported on {} (modes: {modes:?})",
                    core.profile.soc
                ),
            ));
        }
        let scalar = match (sel_mode, src1) {
            (SELMODE::VSEL_TENSOR_SCALAR_MODE, SelectSrc1::Scalar(s)) => Some(s),
            (SELMODE::VSEL_TENSOR_SCALAR_MODE, SelectSrc1::Tensor(_))
            | (_, SelectSrc1::Scalar(_)) => {
                return Err(SimError::new(
                    Category::Type,
                    API,
                    format!(
                        "parameter `src1`: mode {sel_mode:?} takes {}",
                        if sel_mode == SELMODE::VSEL_TENSOR_SCALAR_MODE {
                            "a scalar"
                        } else {
                            "a tensor"
                        }
                    ),
                ))
            }
            _ => None,
        };
        let mut ops = vec![
            Opnd::of(
                "dst",
                dst,
                p.dst_blk_stride as u32,
                p.dst_rep_stride as u32,
                true,
            ),
            Opnd::of(
                "src0",
                src0,
                p.src0_blk_stride as u32,
                p.src0_rep_stride as u32,
                false,
            ),
        ];
        if let SelectSrc1::Tensor(t) = src1 {
            ops.push(Opnd::of(
                "src1",
                t,
                p.src1_blk_stride as u32,
                p.src1_rep_stride as u32,
                false,
            ));
        }
        let advance = sel_mode != SELMODE::VSEL_CMPMASK_SPR;
        let bits = [BitOpnd::of("selMask", sel_mask, false, advance)];
        let lanes = lanes_for(T::SIZE);
        run_bits(core, API, loc, lanes, issue, &ops, &bits, |ub, shape, o| {
            let m = o[o.len() - 1].addr;
            select_lanes(ub, shape, o, scalar, |ub, r, k| {
                let first = if advance {
                    r as u64 * shape.lanes as u64
                } else {
                    0
                };
                get_bit(ub, m, first + k as u64)
            })
        })
    })
}

/// The lane loop of every Select form over operands `[dst, src0, src1?]`: in repeat `r`, each
/// enabled lane `k` takes `src0` where `pick(ub, r, k)`, else `scalar` or `src1`. A repeat's
/// lanes are all read before any is written (`dst` may overlap a source).
pub(super) fn select_lanes<T: Arith>(
    ub: &mut [u8],
    shape: &Shape,
    o: &[Operand],
    scalar: Option<T>,
    pick: impl Fn(&[u8], u32, u32) -> bool,
) {
    let size = T::SIZE;
    let mut out = [T::default(); 128];
    for r in 0..shape.repeats {
        let en = shape.bits(r);
        for_lanes(en, shape.lanes, |k| {
            out[k as usize] = if pick(ub, r, k) {
                read(ub, o[1].lane_addr(size, r, k))
            } else if let Some(s) = scalar {
                s
            } else {
                read(ub, o[2].lane_addr(size, r, k))
            };
        });
        for_lanes(en, shape.lanes, |k| {
            let a = o[0].lane_addr(size, r, k) as usize;
            ub[a..a + size].copy_from_slice(bytemuck::bytes_of(&out[k as usize]));
        });
    }
}

/// `Select(dst, selMask, src0, src1, selMode, count)`: level 2, `dst[i] = bit ? src0[i] : src1`
/// for the first `count` elements, `src1` a tensor (modes 0, 2) or a scalar
/// ([`SelectSrc1::Scalar`], mode 1). Which `selMask` bit each element uses: see [`SELMODE`].
#[track_caller]
pub fn select<'a, T: Arith, M: SelMaskElem>(
    dst: &LocalTensor<T>,
    sel_mask: &LocalTensor<M>,
    src0: &LocalTensor<T>,
    src1: impl Into<SelectSrc1<'a, T>>,
    sel_mode: SELMODE,
    count: impl Into<Count>,
) -> Result<()> {
    let (issue, p) = (count.into().into(), BinaryRepeatParams::default());
    select_run(
        SourceLoc::caller(),
        dst,
        sel_mask,
        src0,
        src1.into(),
        sel_mode,
        issue,
        p,
    )
}

/// `Select(dst, selMask, src0, src1, selMode, mask, repeatTime, params)`: level 0 of [`select`];
/// lanes the mask disables keep the old destination. Strides in 32-byte blocks.
#[allow(clippy::too_many_arguments)]
#[track_caller]
pub fn select_l0<'a, T: Arith, M: SelMaskElem>(
    dst: &LocalTensor<T>,
    sel_mask: &LocalTensor<M>,
    src0: &LocalTensor<T>,
    src1: impl Into<SelectSrc1<'a, T>>,
    sel_mode: SELMODE,
    mask: impl Into<Mask>,
    repeat_times: u8,
    params: BinaryRepeatParams,
) -> Result<()> {
    let issue = Issue::level0(mask, repeat_times);
    select_run(
        SourceLoc::caller(),
        dst,
        sel_mask,
        src0,
        src1.into(),
        sel_mode,
        issue,
        params,
    )
}
