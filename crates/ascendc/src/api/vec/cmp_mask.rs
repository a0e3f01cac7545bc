//! The `Compares` spelling of CompareScalar, and the 128-bit CMPMASK register: Compare with its
//! result in the register, `GetCmpMask`, `SetCmpMask`, and the `Select` forms without a mask
//! argument that read it.
//!
//! CMPMASK bit `k` is bit `k % 8` of byte `k / 8`. What the `Select` forms take from it depends
//! on the mode: mode 0 the selection bits themselves (the same `256 / sizeof(T)` bits for every
//! repeat), mode 1 the scalar `src1` (its first `sizeof(T)` bytes), mode 2 the UB byte address of
//! the `selMask` bits (its low 32 bits; repeat `r` uses bits `[r·L, (r+1)·L)` from there). These
//! forms run under the mask the program set (`SetVectorMask`); disabled lanes keep the old
//! destination.

use super::binary::lanes_for;
use super::compare::{compare_run, select_lanes, ByteMask, SelMaskElem, CMPMODE, SELMODE};
use super::support;
use super::UnaryRepeatParams;
use super::{check_dtype, run, run_bits, BinaryRepeatParams, BitOpnd, Count, Issue, Mask, Opnd};
use crate::api::context::with_core;
use crate::api::tensor::LocalTensor;
use crate::core::trace::{Access, Space};
use crate::core::vector::for_lanes;
use crate::core::Core;
use crate::dtype::Element;
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::numeric::Arith;
use crate::position::{Hardware, TPosition};

/// `Compares(dst, src0, src1Scalar, cmpMode, count)`: level 2, bit `i` of `dst` =
/// `src0[i] cmp scalar` for the first `count` elements (`count × sizeof(T)` a multiple of 256
/// bytes; the remainder is not compared). The instruction of [`compare_scalar`](super::compare::compare_scalar),
/// with the element types of the `Compares` page.
#[track_caller]
pub fn compares<U: ByteMask, T: Arith>(
    dst: &LocalTensor<U>,
    src0: &LocalTensor<T>,
    scalar: T,
    cmp_mode: CMPMODE,
    count: impl Into<Count>,
) -> Result<()> {
    compare_run(
        "Compares",
        &support::COMPARES,
        SourceLoc::caller(),
        dst,
        src0,
        None,
        scalar,
        cmp_mode,
        count.into().into(),
        [(1, 8), (1, 8)],
    )
}

/// `Compares(dst, src0, src1Scalar, cmpMode, mask, repeatTime, params)`: level 0 of
/// [`compares`]; repeat `r` writes bits `[r·L, (r+1)·L)` of `dst`; strides in 32-byte blocks
/// (the destination's are not used). The mask is reserved (every lane compared) except on 310B.
#[track_caller]
pub fn compares_l0<U: ByteMask, T: Arith>(
    dst: &LocalTensor<U>,
    src0: &LocalTensor<T>,
    scalar: T,
    cmp_mode: CMPMODE,
    mask: impl Into<Mask>,
    repeat_times: u8,
    params: UnaryRepeatParams,
) -> Result<()> {
    compare_run(
        "Compares",
        &support::COMPARES,
        SourceLoc::caller(),
        dst,
        src0,
        None,
        scalar,
        cmp_mode,
        Issue::level0(mask, repeat_times),
        [
            (params.src_blk_stride as u32, params.src_rep_stride as u32),
            (0, 0),
        ],
    )
}

/// Refuses the CMPMASK APIs on the products without the register.
fn check_register(core: &Core, api: &'static str) -> Result<()> {
    if support::CMP_MASK_REG[core.profile.product as usize] {
        Ok(())
    } else {
        Err(SimError::new(
            Category::Unsupported,
            api,
            format!(
                "{api} is not supported on {}: it has no CMPMASK register",
                core.profile
            ),
        ))
    }
}

#[inline]
fn bit(bytes: &[u8], i: u64) -> bool {
    bytes[(i / 8) as usize] >> (i % 8) & 1 != 0
}

#[inline]
fn read<T: Element>(ub: &[u8], addr: u64) -> T {
    bytemuck::pod_read_unaligned(&ub[addr as usize..addr as usize + T::SIZE])
}

/// `Compare(src0, src1, cmpMode, mask, repeatParams)`: one repeat (256 bytes) compared into
/// CMPMASK, bit `k` = `src0 lane k cmp src1 lane k` for the lanes `mask` enables (the bits of
/// disabled lanes and bits past `256 / sizeof(T)` keep their value). half and float, on
/// 310P/A2/A3. The destination strides of `params` are not used.
#[track_caller]
pub fn compare_cmp_mask<T: Arith>(
    src0: &LocalTensor<T>,
    src1: &LocalTensor<T>,
    cmp_mode: CMPMODE,
    mask: impl Into<Mask>,
    params: BinaryRepeatParams,
) -> Result<()> {
    const API: &str = "Compare";
    let loc = SourceLoc::caller();
    let mask = mask.into();
    with_core(API, loc, |core| {
        check_register(core, API)?;
        check_dtype(core, API, T::DTYPE, &support::COMPARE_REG)?;
        let ops = [
            Opnd::of(
                "src0",
                src0,
                params.src0_blk_stride as u32,
                params.src0_rep_stride as u32,
                false,
            ),
            Opnd::of(
                "src1",
                src1,
                params.src1_blk_stride as u32,
                params.src1_rep_stride as u32,
                false,
            ),
        ];
        let mut reg = core.spr.cmp_mask;
        let issue = Issue::level0(mask, 1);
        run(
            core,
            API,
            loc,
            lanes_for(T::SIZE),
            issue,
            &ops,
            |ub, shape, o| {
                for r in 0..shape.repeats {
                    for_lanes(shape.bits(r), shape.lanes, |k| {
                        let a: T = read(ub, o[0].lane_addr(T::SIZE, r, k));
                        let b: T = read(ub, o[1].lane_addr(T::SIZE, r, k));
                        let byte = &mut reg[(k / 8) as usize];
                        if cmp_mode.test(a, b) {
                            *byte |= 1 << (k % 8);
                        } else {
                            *byte &= !(1 << (k % 8));
                        }
                    });
                }
            },
        )?;
        core.spr.cmp_mask = reg;
        Ok(())
    })
}

/// Element types of the CMPMASK transfers: b8, b16, b32 (`GetCmpMask`) and b64 (`SetCmpMask`).
pub trait CmpMaskElem: Element {}
impl CmpMaskElem for u8 {}
impl CmpMaskElem for i8 {}
impl CmpMaskElem for u16 {}
impl CmpMaskElem for i16 {}
impl CmpMaskElem for crate::dtype::f16 {}
impl CmpMaskElem for crate::dtype::bf16 {}
impl CmpMaskElem for u32 {}
impl CmpMaskElem for i32 {}
impl CmpMaskElem for f32 {}
impl CmpMaskElem for u64 {}
impl CmpMaskElem for i64 {}

/// Validates the UB tensor of a CMPMASK transfer: position, 16-byte alignment, `min` bytes.
fn check_transfer<T: Element>(
    core: &Core,
    api: &'static str,
    name: &str,
    t: &LocalTensor<T>,
    min: u32,
) -> Result<()> {
    t.check_live(core, api, name)?;
    if t.hw != Hardware::UB {
        return Err(SimError::new(
            Category::Position,
            api,
            format!(
                "parameter `{name}` is in {} ({}); it must be a VECIN/VECCALC/VECOUT tensor",
                t.pos, t.hw
            ),
        ));
    }
    if !t.addr.is_multiple_of(16) {
        return Err(SimError::align(
            api,
            &format!("parameter `{name}`"),
            t.addr as u64,
            16,
            "UB",
        ));
    }
    if t.len < min {
        return Err(SimError::new(
            Category::Size,
            api,
            format!(
                "parameter `{name}` holds {} bytes; at least {min} are required",
                t.len
            ),
        ));
    }
    Ok(())
}

/// `GetCmpMask(dst)`: writes the 16 bytes of CMPMASK to the start of `dst` (a 16-byte aligned
/// UB tensor of b8/b16/b32 elements of at least 128 bytes, as the page requires).
#[track_caller]
pub fn get_cmp_mask<T: CmpMaskElem>(dst: &LocalTensor<T>) -> Result<()> {
    const API: &str = "GetCmpMask";
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        check_register(core, API)?;
        if T::SIZE > 4 {
            return Err(SimError::new(
                Category::Type,
                API,
                format!(
                    "element type {} is not supported (supported: b8, b16, b32)",
                    T::DTYPE
                ),
            ));
        }
        check_transfer(core, API, "dst", dst, 128)?;
        let a = dst.addr as usize;
        let reg = core.spr.cmp_mask;
        core.mem.bytes_mut(Hardware::UB)[a..a + 16].copy_from_slice(&reg);
        let acc = [Access::contiguous(
            true,
            Space::Local(Hardware::UB),
            a as u64,
            16,
        )];
        core.issue_vector(API, loc, &acc, 128);
        Ok(())
    })
}

/// `SetCmpMask(src)`: loads CMPMASK from the first 16 bytes of `src` (a 16-byte aligned UB
/// tensor of b8/b16/b32/b64 elements): the selection bits for Select mode 0, the scalar for
/// mode 1, the `selMask` address for mode 2.
#[track_caller]
pub fn set_cmp_mask<T: CmpMaskElem>(src: &LocalTensor<T>) -> Result<()> {
    const API: &str = "SetCmpMask";
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        check_register(core, API)?;
        check_transfer(core, API, "src", src, 16)?;
        let a = src.addr as usize;
        let mut reg = [0u8; 16];
        reg.copy_from_slice(&core.mem.bytes(Hardware::UB)[a..a + 16]);
        core.spr.cmp_mask = reg;
        let acc = [Access::contiguous(
            false,
            Space::Local(Hardware::UB),
            a as u64,
            16,
        )];
        core.issue_vector(API, loc, &acc, 128);
        Ok(())
    })
}

/// Where the selection of a CMPMASK Select comes from.
enum Pick<T> {
    /// Mode 0: the register's bits, `src1` a tensor.
    RegBits([u8; 16]),
    /// Mode 1: bits from the `selMask` operand, `src1` the register's scalar.
    Scalar(T),
    /// Mode 2: bits from the `selMask` operand at the register's address, `src1` a tensor.
    Tensor,
}

#[allow(clippy::too_many_arguments)]
fn select_reg_run<T: Arith, M: SelMaskElem>(
    loc: SourceLoc,
    dst: &LocalTensor<T>,
    sel_mask: Option<&LocalTensor<M>>,
    src0: &LocalTensor<T>,
    src1: Option<&LocalTensor<T>>,
    sel_mode: SELMODE,
    repeat_times: u8,
    p: BinaryRepeatParams,
) -> Result<()> {
    const API: &str = "Select";
    with_core(API, loc, |core| {
        check_register(core, API)?;
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
        let reg = core.spr.cmp_mask;
        let lanes = lanes_for(T::SIZE);
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
        if let Some(t) = src1 {
            ops.push(Opnd::of(
                "src1",
                t,
                p.src1_blk_stride as u32,
                p.src1_rep_stride as u32,
                false,
            ));
        }
        let mut bits = Vec::new();
        let pick = match sel_mode {
            SELMODE::VSEL_CMPMASK_SPR => Pick::RegBits(reg),
            SELMODE::VSEL_TENSOR_SCALAR_MODE => {
                let m = sel_mask.expect("mode 1 has a selMask tensor");
                bits.push(BitOpnd::of("selMask", m, false, true));
                Pick::Scalar(read::<T>(&reg, 0))
            }
            SELMODE::VSEL_TENSOR_TENSOR_MODE => {
                let addr = u32::from_le_bytes([reg[0], reg[1], reg[2], reg[3]]);
                let ub = core.mem.bytes(Hardware::UB).len() as u32;
                if !addr.is_multiple_of(32) || addr >= ub {
                    return Err(SimError::new(
                        Category::Memory,
                        API,
                        format!(
                            "mode VSEL_TENSOR_TENSOR_MODE: CMPMASK holds the selMask address {addr:#x}, which is not a 32-byte aligned UB address below {ub:#x} (SetCmpMask a tensor holding `selMask.get_phy_addr()`)"
                        ),
                    ));
                }
                bits.push(BitOpnd {
                    name: "selMask (CMPMASK address)",
                    pos: TPosition::VECCALC,
                    hw: Hardware::UB,
                    addr,
                    len: ub - addr,
                    write: false,
                    advance: true,
                    owner: None,
                });
                Pick::Tensor
            }
        };
        let issue = Issue::Level0 {
            mask: Mask::Keep,
            repeat: repeat_times,
        };
        let scalar = match pick {
            Pick::Scalar(s) => Some(s),
            _ => None,
        };
        run_bits(core, API, loc, lanes, issue, &ops, &bits, |ub, shape, o| {
            select_lanes(ub, shape, o, scalar, |ub, r, k| match &pick {
                Pick::RegBits(b) => bit(b, k as u64),
                _ => {
                    let m = o[o.len() - 1].addr;
                    let i = r as u64 * shape.lanes as u64 + k as u64;
                    ub[(m + i / 8) as usize] >> (i % 8) & 1 != 0
                }
            })
        })
    })
}

/// `Select<T, selMode>(dst, src0, src1, repeatTime, params)`: modes 0 and 2 with the selection
/// in CMPMASK (see the module documentation), under the current vector mask; lane takes `src0`
/// where its bit is 1, else `src1`. Strides in 32-byte blocks.
#[track_caller]
pub fn select_cmp_mask<T: Arith>(
    dst: &LocalTensor<T>,
    src0: &LocalTensor<T>,
    src1: &LocalTensor<T>,
    sel_mode: SELMODE,
    repeat_times: u8,
    params: BinaryRepeatParams,
) -> Result<()> {
    if sel_mode == SELMODE::VSEL_TENSOR_SCALAR_MODE {
        let loc = SourceLoc::caller();
        return with_core("Select", loc, |_| {
            Err(SimError::new(
                Category::Range,
                "Select",
                "parameter `selMode` = VSEL_TENSOR_SCALAR_MODE: this form takes modes 0 and 2; mode 1 is `Select(dst, selMask, src0, repeatTime, params)`",
            ))
        });
    }
    select_reg_run::<T, u8>(
        SourceLoc::caller(),
        dst,
        None,
        src0,
        Some(src1),
        sel_mode,
        repeat_times,
        params,
    )
}

/// `Select(dst, selMask, src0, repeatTime, params)`: mode 1 with the scalar `src1` in CMPMASK
/// (its first `sizeof(T)` bytes); repeat `r` uses bits `[r·L, (r+1)·L)` of `selMask`; under the
/// current vector mask. Strides in 32-byte blocks.
#[track_caller]
pub fn select_cmp_mask_scalar<T: Arith, M: SelMaskElem>(
    dst: &LocalTensor<T>,
    sel_mask: &LocalTensor<M>,
    src0: &LocalTensor<T>,
    repeat_times: u8,
    params: BinaryRepeatParams,
) -> Result<()> {
    select_reg_run(
        SourceLoc::caller(),
        dst,
        Some(sel_mask),
        src0,
        None,
        SELMODE::VSEL_TENSOR_SCALAR_MODE,
        repeat_times,
        params,
    )
}
