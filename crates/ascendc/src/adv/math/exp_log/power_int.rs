//! `Power` on int32: square-and-multiply on the vector unit (`CommonPowerI`) and the split of
//! the temporary buffer.
//!
//! Per chunk: `e = |exp|`; while some `e` is non-zero, `dst = dst²` and `done = 2·done` where
//! `e` (shifted right once per step) is not yet zero; then `dst = dst · base` and `done − 1`
//! one step at a time until every `|exp| − done` is zero (each step's test is a `ReduceSum`
//! of the remaining counts read back on the scalar pipe); negative exponents give
//! `trunc(1 / dst)`, a zero base with one gives 0. The selections are `Select` mode 2 (the
//! selection's UB address written to CMPMASK).
//!
//! The temporary buffer holds int32 chunks (exponent, |exponent|, done, 2 working tensors, one
//! more on 310P), then two bit masks of one byte per element and 32 bytes of scalars; a scalar
//! operand is duplicated into a chunk at the start.

use super::power::{Form, Operand, API};
use super::{compare_repeats, too_small, BINARY, UNARY};
use crate::adv::common::barrier_v;
use crate::api::vec::binary::{and_l0, div_l0, mul_l0, sub_l0};
use crate::api::vec::cast::cast_l0;
use crate::api::vec::cmp_mask::{select_cmp_mask, set_cmp_mask};
use crate::api::vec::duplicate::duplicate_l0;
use crate::api::vec::mask::{set_mask_count, set_mask_norm, set_vector_mask};
use crate::api::vec::reduce::reduce_sum;
use crate::api::vec::scalar::{adds_l0, muls_l0, shift_right_l0};
use crate::error::Result;
use crate::numeric::RoundMode;
use crate::{LocalTensor, MaskMode, CMPMODE, MASK_PLACEHOLDER, SELMODE};

/// The working tensors of `CommonPowerI`.
struct Work {
    /// 310P: zero tests in float, the halving through float, the sum in normal mask mode.
    v200: bool,
    /// The exponent still to square by, halved each bulk step.
    exp: LocalTensor<i32>,
    /// `|exp|`; later the float result of `1 / dst`.
    abs_exp: LocalTensor<i32>,
    /// The exponent `dst` holds so far.
    done: LocalTensor<i32>,
    t1: LocalTensor<i32>,
    t2: LocalTensor<i32>,
    /// 310P only; the A2 `ReduceSum` is given `t2` as its (unused) work tensor.
    t3: LocalTensor<i32>,
    negative: LocalTensor<u8>,
    mask: LocalTensor<u8>,
    /// The `ReduceSum` result and the CMPMASK address.
    scalar: LocalTensor<u8>,
}

impl Work {
    /// The tensors from byte `at` (`PowerIParamsCalc`), `split` elements each.
    fn new(v200: bool, buf: &LocalTensor<u8>, at: u32, split: u32) -> Result<Work> {
        let base = buf.at(at)?;
        let i = base.reinterpret_cast::<i32>();
        let chunk = |k: u32| i.at(k * split);
        let ints = if v200 { 6 } else { 5 };
        let byte = |k: u32| base.at(ints * split * 4 + k * split);
        Ok(Work {
            v200,
            exp: chunk(0)?,
            abs_exp: chunk(1)?,
            done: chunk(2)?,
            t1: chunk(3)?,
            t2: chunk(4)?,
            t3: if v200 { chunk(5)? } else { chunk(4)? },
            negative: byte(0)?,
            mask: byte(1)?,
            scalar: byte(2)?,
        })
    }

    /// `dst = sel ? a : b` by `Select` mode 2: the address of `sel` goes to CMPMASK.
    fn select(
        &self,
        dst: &LocalTensor<i32>,
        sel: &LocalTensor<u8>,
        a: &LocalTensor<i32>,
        b: &LocalTensor<i32>,
        count: u32,
    ) -> Result<()> {
        let reg = self.scalar.reinterpret_cast::<u32>();
        set_vector_mask::<u32>(MaskMode::COUNTER, 1)?;
        duplicate_l0(&reg, sel.get_phy_addr(), MASK_PLACEHOLDER, 1, 1, 8)?;
        barrier_v()?;
        set_vector_mask::<f32>(MaskMode::COUNTER, count as u64)?;
        set_cmp_mask(&self.scalar.reinterpret_cast::<i64>())?;
        barrier_v()?;
        select_cmp_mask::<f32>(
            &dst.reinterpret_cast(),
            &a.reinterpret_cast(),
            &b.reinterpret_cast(),
            SELMODE::VSEL_TENSOR_TENSOR_MODE,
            1,
            BINARY,
        )
    }

    /// `CompareZeroPositive`: bit `i` of `dst` = `src[i] == 0` (`src` non-negative).
    fn is_zero(&self, dst: &LocalTensor<u8>, src: &LocalTensor<i32>, repeat: u8) -> Result<()> {
        if self.v200 {
            let f = src.reinterpret_cast::<f32>();
            compare_repeats(dst, &f, 0.0, CMPMODE::EQ, repeat)
        } else {
            compare_repeats(dst, src, 0, CMPMODE::EQ, repeat)
        }
    }

    /// `CompareIntZero`: bit `i` of `dst` = `src[i] == 0` (any sign).
    fn is_int_zero(&self, dst: &LocalTensor<u8>, src: &LocalTensor<i32>, repeat: u8) -> Result<()> {
        if self.v200 {
            adds_l0(&self.t3, src, 0x3f80_0000, MASK_PLACEHOLDER, 1, UNARY)?;
            barrier_v()?;
            let f = self.t3.reinterpret_cast::<f32>();
            compare_repeats(dst, &f, 1.0, CMPMODE::EQ, repeat)
        } else {
            compare_repeats(dst, src, 0, CMPMODE::EQ, repeat)
        }
    }

    /// `ShiftRightOneBit`: `exp >>= 1` (non-negative values).
    fn halve(&self, count: u32) -> Result<()> {
        let e = &self.exp;
        if !self.v200 {
            return shift_right_l0(e, e, 1, MASK_PLACEHOLDER, 1, UNARY, false);
        }
        let t = &self.t3;
        duplicate_l0(
            &t.reinterpret_cast::<u32>(),
            0xffff_fffe,
            MASK_PLACEHOLDER,
            1,
            1,
            8,
        )?;
        barrier_v()?;
        set_vector_mask::<u16>(MaskMode::COUNTER, count as u64 * 2)?;
        let h = t.reinterpret_cast::<u16>();
        and_l0(&h, &e.reinterpret_cast(), &h, MASK_PLACEHOLDER, 1, BINARY)?;
        barrier_v()?;
        set_vector_mask::<u32>(MaskMode::COUNTER, count as u64)?;
        let f = t.reinterpret_cast::<f32>();
        cast_l0(&f, t, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        muls_l0(&f, &f, 0.5, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        cast_l0(e, &f, RoundMode::CAST_RINT, MASK_PLACEHOLDER, 1, UNARY)
    }

    /// `Σ float(src)` of `count` elements, read on the scalar pipe (`ReduceSumCount`).
    fn sum(&self, src: &LocalTensor<i32>, count: u32) -> Result<f32> {
        let f = self.t1.reinterpret_cast::<f32>();
        cast_l0(&f, src, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        let out = self.scalar.reinterpret_cast::<f32>();
        let work = if self.v200 { &self.t3 } else { &self.t2 };
        if self.v200 {
            set_mask_norm()?;
        }
        reduce_sum(&out, &f, &work.reinterpret_cast(), count)?;
        // The level-2 ReduceSum leaves the normal mask; both devices continue counting.
        set_mask_count()?;
        set_vector_mask::<i32>(MaskMode::COUNTER, count as u64)?;
        let s = out.get_value(0)?;
        barrier_v()?;
        Ok(s)
    }

    /// `CommonPowerI`: `dst = src0^src1` for `count` elements under the current counter mask.
    fn power(
        &self,
        dst: &LocalTensor<i32>,
        s0: &LocalTensor<i32>,
        s1: &LocalTensor<i32>,
        count: u32,
    ) -> Result<()> {
        let repeat = (count * 4).div_ceil(256) as u8;
        let (t1, t2) = (&self.t1, &self.t2);
        barrier_v()?;
        // exp = |src1|, negative = src1 < 0, done = (|src1| ≠ 0), dst = |src1| ≠ 0 ? src0 : 1.
        let f = t1.reinterpret_cast::<f32>();
        cast_l0(&f, s1, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        compare_repeats(&self.negative, &f, 0.0, CMPMODE::LT, repeat)?;
        barrier_v()?;
        muls_l0(t1, s1, -1, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        self.select(&self.exp, &self.negative, t1, s1, count)?;
        barrier_v()?;
        muls_l0(&self.abs_exp, &self.exp, 1, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        self.is_zero(&self.mask, &self.abs_exp, repeat)?;
        duplicate_l0(&self.done, 0, MASK_PLACEHOLDER, 1, 1, 8)?;
        barrier_v()?;
        duplicate_l0(t2, 1, MASK_PLACEHOLDER, 1, 1, 8)?;
        barrier_v()?;
        self.select(&self.done, &self.mask, &self.done, t2, count)?;
        self.select(dst, &self.mask, t2, s0, count)?;
        self.halve(count)?;
        barrier_v()?;
        self.is_zero(&self.mask, &self.exp, repeat)?;
        barrier_v()?;
        // Squaring while some exponent has bits left.
        loop {
            let left = self.sum(&self.exp, count)?;
            if left != 0.0 {
                mul_l0(t1, dst, dst, MASK_PLACEHOLDER, 1, BINARY)?;
                muls_l0(t2, &self.done, 2, MASK_PLACEHOLDER, 1, UNARY)?;
                barrier_v()?;
                self.select(dst, &self.mask, dst, t1, count)?;
                self.select(&self.done, &self.mask, &self.done, t2, count)?;
                self.halve(count)?;
                barrier_v()?;
                self.is_int_zero(&self.mask, &self.exp, repeat)?;
            }
            barrier_v()?;
            if left == 0.0 {
                break;
            }
        }
        // done = |src1| − done; one multiplication per remaining unit.
        sub_l0(
            &self.done,
            &self.abs_exp,
            &self.done,
            MASK_PLACEHOLDER,
            1,
            BINARY,
        )?;
        barrier_v()?;
        self.is_zero(&self.mask, &self.done, repeat)?;
        barrier_v()?;
        loop {
            let left = self.sum(&self.done, count)?;
            if left != 0.0 {
                mul_l0(t1, dst, s0, MASK_PLACEHOLDER, 1, BINARY)?;
                adds_l0(t2, &self.done, -1, MASK_PLACEHOLDER, 1, UNARY)?;
                barrier_v()?;
                self.select(dst, &self.mask, dst, t1, count)?;
                self.select(&self.done, &self.mask, &self.done, t2, count)?;
                barrier_v()?;
                self.is_zero(&self.mask, &self.done, repeat)?;
            }
            barrier_v()?;
            if left == 0.0 {
                break;
            }
        }
        // Negative exponents: trunc(1 / dst); 0 where dst is 0.
        self.is_int_zero(&self.mask, dst, repeat)?;
        let res = self.abs_exp.reinterpret_cast::<f32>();
        let one = self.exp.reinterpret_cast::<f32>();
        cast_l0(&res, dst, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, UNARY)?;
        duplicate_l0(&one, 1.0, MASK_PLACEHOLDER, 1, 1, 8)?;
        barrier_v()?;
        div_l0(&res, &one, &res, MASK_PLACEHOLDER, 1, BINARY)?;
        barrier_v()?;
        cast_l0(t1, &res, RoundMode::CAST_TRUNC, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        self.select(dst, &self.negative, t1, dst, count)?;
        duplicate_l0(t2, 0, MASK_PLACEHOLDER, 1, 1, 8)?;
        barrier_v()?;
        self.select(dst, &self.mask, t2, dst, count)?;
        barrier_v()
    }
}

/// int32: the operands are used in place; a scalar is duplicated into a chunk.
pub(super) fn int(
    v200: bool,
    form: Form,
    dst: &LocalTensor<i32>,
    base: Operand<i32>,
    exp: Operand<i32>,
    buf: &LocalTensor<u8>,
    count: u32,
) -> Result<()> {
    let units = match (form, v200) {
        (Form::TensorTensor, false) => 6,
        (Form::TensorTensor, true) => 7,
        (Form::WithScalar, false) => 7,
        (Form::WithScalar, true) => 8,
    };
    let split = buf.get_size() / 4 / units / 32 * 32;
    if split == 0 {
        return Err(too_small(API, buf.get_size(), units * 4 * 32));
    }
    let scalar_chunk = buf.reinterpret_cast::<i32>();
    let work_at = if form == Form::TensorTensor {
        0
    } else {
        split * 4
    };
    let w = Work::new(v200, buf, work_at, split)?;
    set_vector_mask::<i32>(MaskMode::COUNTER, split as u64)?;
    let fill = |s: i32| -> Result<()> {
        barrier_v()?;
        duplicate_l0(&scalar_chunk, s, MASK_PLACEHOLDER, 1, 1, 8)?;
        barrier_v()
    };
    match (base, exp) {
        (Operand::Tensor(_), Operand::Scalar(s)) | (Operand::Scalar(s), Operand::Tensor(_)) => {
            fill(s)?
        }
        _ => {}
    }
    let operand = |o: &Operand<i32>, off: u32| -> Result<LocalTensor<i32>> {
        match o {
            Operand::Tensor(t) => t.at(off),
            Operand::Scalar(_) => Ok(scalar_chunk),
        }
    };
    let tt = form == Form::TensorTensor;
    let (loops, tail) = (count / split, count % split);
    for i in 0..loops {
        let off = i * split;
        if tt {
            barrier_v()?;
        }
        w.power(
            &dst.at(off)?,
            &operand(&base, off)?,
            &operand(&exp, off)?,
            split,
        )?;
        if !tt {
            barrier_v()?;
        }
    }
    if tail > 0 {
        let off = loops * split;
        set_vector_mask::<i32>(MaskMode::COUNTER, tail as u64)?;
        if tt {
            barrier_v()?;
        }
        w.power(
            &dst.at(off)?,
            &operand(&base, off)?,
            &operand(&exp, off)?,
            tail,
        )?;
        barrier_v()?;
    }
    Ok(())
}
