//! `Power` on float and half: the instruction sequence of one chunk (`CommonPowerF`) and the
//! split of the temporary buffer.
//!
//! The buffer starts with 256 bytes of constants (1.0 at float 0, NaN at float 8, for the
//! scalar `Select`), then for half three float chunks (base, exponent, result), for float one
//! chunk holding a scalar operand, then the working tensors: 3 float chunks (4 on 310P) and 4
//! bit masks of one byte per element.

use super::power::{Form, Operand, API};
use super::{compare_repeats, too_small, BINARY, UNARY};
use crate::adv::common::barrier_v;
use crate::adv::math::round::floor::{NARROW, WIDEN};
use crate::api::vec::binary::{and_l0, mul_l0, or_l0, sub_l0};
use crate::api::vec::cast::cast_l0;
use crate::api::vec::cmp_mask::{select_cmp_mask_scalar, set_cmp_mask};
use crate::api::vec::duplicate::duplicate_l0;
use crate::api::vec::mask::set_vector_mask;
use crate::api::vec::scalar::{adds_l0, muls_l0, shift_right_l0};
use crate::api::vec::unary::{abs_l0, exp_l0, ln_l0};
use crate::error::Result;
use crate::numeric::RoundMode;
use crate::{f16, LocalTensor, MaskMode, CMPMODE, MASK_PLACEHOLDER};

/// Bytes of the constants at the start of the buffer.
const SCALARS: u32 = 256;

/// The working tensors of `CommonPowerF`.
struct Work {
    /// 310P: float → float rounding goes through int32, and the sign bit through And/Or.
    v200: bool,
    /// 1.0 at element 0, NaN at element 8.
    scalars: LocalTensor<f32>,
    t1: LocalTensor<f32>,
    t2: LocalTensor<f32>,
    t3: LocalTensor<f32>,
    /// 310P only (the A2 sign-bit test needs no second tensor).
    t4: LocalTensor<f32>,
    m1: LocalTensor<u8>,
    m2: LocalTensor<u8>,
    m3: LocalTensor<u8>,
    /// Where the exponent is integral.
    integral: LocalTensor<u8>,
}

impl Work {
    /// The tensors from `at` (`PowerFParamsCalc`), `split` elements each.
    fn new(v200: bool, buf: &LocalTensor<u8>, at: u32, split: u32) -> Result<Work> {
        let f = buf.reinterpret_cast::<f32>();
        let tensor = |i: u32| f.at(at / 4 + i * split);
        let floats = if v200 { 4 } else { 3 };
        let mask = |i: u32| buf.at(at + floats * split * 4 + i * split);
        Ok(Work {
            v200,
            scalars: f,
            t1: tensor(0)?,
            t2: tensor(1)?,
            t3: tensor(2)?,
            t4: if v200 { tensor(3)? } else { tensor(0)? },
            m1: mask(0)?,
            m2: mask(1)?,
            m3: mask(2)?,
            integral: mask(3)?,
        })
    }

    /// `InitTmpScalar`: 8 × 1.0, then 8 × NaN.
    fn init_scalars(&self) -> Result<()> {
        set_vector_mask::<f32>(MaskMode::COUNTER, 8)?;
        duplicate_l0(&self.scalars, 1.0, MASK_PLACEHOLDER, 1, 1, 8)?;
        duplicate_l0(
            &self.scalars.at(8)?,
            f32::from_bits(0x7fc0_0000),
            MASK_PLACEHOLDER,
            1,
            1,
            8,
        )
    }

    /// Float → float rounding with `mode` (`CastFloat2Float`).
    fn round(&self, dst: &LocalTensor<f32>, src: &LocalTensor<f32>, mode: RoundMode) -> Result<()> {
        if self.v200 {
            let int = dst.reinterpret_cast::<i32>();
            cast_l0(&int, src, mode, MASK_PLACEHOLDER, 1, UNARY)?;
            barrier_v()?;
            cast_l0(dst, &int, RoundMode::CAST_NONE, MASK_PLACEHOLDER, 1, UNARY)
        } else {
            cast_l0(dst, src, mode, MASK_PLACEHOLDER, 1, UNARY)
        }
    }

    /// `dst = bits ? src : scalars[at]` (`Select` mode 1 with the scalar in CMPMASK).
    fn select(
        &self,
        dst: &LocalTensor<f32>,
        bits: &LocalTensor<u8>,
        src: &LocalTensor<f32>,
        at: u32,
    ) -> Result<()> {
        set_cmp_mask(&self.scalars.at(at)?)?;
        barrier_v()?;
        select_cmp_mask_scalar(dst, bits, src, 1, BINARY)
    }

    /// `a = a op b` on the bit masks of `count` elements (16 bits per uint16 lane).
    fn bits(&self, op: BitOp, a: &LocalTensor<u8>, b: &LocalTensor<u8>, count: u32) -> Result<()> {
        set_vector_mask::<f32>(MaskMode::COUNTER, count.div_ceil(16) as u64)?;
        let (a, b) = (a.reinterpret_cast::<u16>(), b.reinterpret_cast::<u16>());
        match op {
            BitOp::And => and_l0(&a, &b, &a, MASK_PLACEHOLDER, 1, BINARY),
            BitOp::Or => or_l0(&a, &b, &a, MASK_PLACEHOLDER, 1, BINARY),
        }
    }

    /// `CommonPowerF`: `dst = src0^src1` for `count` elements under the current counter mask.
    fn power(
        &self,
        dst: &LocalTensor<f32>,
        s0: &LocalTensor<f32>,
        s1: &LocalTensor<f32>,
        count: u32,
    ) -> Result<()> {
        let repeat = (count * 4).div_ceil(256) as u8;
        let cmps = |dst: &LocalTensor<u8>, src: &LocalTensor<f32>, v: f32, mode: CMPMODE| {
            compare_repeats(dst, src, v, mode, repeat)
        };
        let all = |count: u32| set_vector_mask::<f32>(MaskMode::COUNTER, count as u64);
        let (t1, t2, t3) = (&self.t1, &self.t2, &self.t3);
        let (m1, m2, m3) = (&self.m1, &self.m2, &self.m3);
        let inf = f32::INFINITY;
        barrier_v()?;
        // dst = e^(src1 · ln|src0|)
        abs_l0(dst, s0, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        ln_l0(dst, dst, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        mul_l0(dst, s1, dst, MASK_PLACEHOLDER, 1, BINARY)?;
        barrier_v()?;
        exp_l0(dst, dst, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        // t1 = −1 for odd exponents, 1 for even ones.
        abs_l0(t1, s1, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        self.round(t1, t1, RoundMode::CAST_RINT)?;
        barrier_v()?;
        muls_l0(t2, t1, 0.5, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        self.round(t2, t2, RoundMode::CAST_FLOOR)?;
        barrier_v()?;
        muls_l0(t2, t2, 2.0, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        sub_l0(t1, t1, t2, MASK_PLACEHOLDER, 1, BINARY)?;
        barrier_v()?;
        muls_l0(t1, t1, -2.0, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        adds_l0(t1, t1, 1.0, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        self.round(t1, t1, RoundMode::CAST_RINT)?;
        barrier_v()?;
        // m1 = src0 negative and src1 integral (|src1 − rint src1| < 1e-8).
        self.sign_bit(s0, count, repeat)?;
        barrier_v()?;
        abs_l0(t2, s1, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        self.round(t3, t2, RoundMode::CAST_RINT)?;
        barrier_v()?;
        sub_l0(t3, t2, t3, MASK_PLACEHOLDER, 1, BINARY)?;
        barrier_v()?;
        abs_l0(t3, t3, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        cmps(&self.integral, t3, 0.00000001, CMPMODE::LT)?;
        barrier_v()?;
        self.bits(BitOp::And, m1, &self.integral, count)?;
        all(count)?;
        barrier_v()?;
        self.select(t2, m1, t1, 0)?;
        barrier_v()?;
        mul_l0(dst, t2, dst, MASK_PLACEHOLDER, 1, BINARY)?;
        barrier_v()?;
        // 1 where src1 = ±0, or src0 = 1, or src0 = −1 and |src1| = ∞.
        abs_l0(t1, s1, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        cmps(m1, t1, 0.0, CMPMODE::NE)?;
        barrier_v()?;
        cmps(m2, s0, 1.0, CMPMODE::NE)?;
        barrier_v()?;
        self.bits(BitOp::And, m1, m2, count)?;
        all(count)?;
        barrier_v()?;
        cmps(m2, s0, -1.0, CMPMODE::NE)?;
        barrier_v()?;
        cmps(m3, t1, inf, CMPMODE::NE)?;
        barrier_v()?;
        self.bits(BitOp::Or, m2, m3, count)?;
        barrier_v()?;
        self.bits(BitOp::And, m1, m2, count)?;
        all(count)?;
        barrier_v()?;
        self.select(dst, m1, dst, 0)?;
        barrier_v()?;
        // NaN unless |src1| = ∞, src1 integral, src0 ≥ 0 or src0 = −∞.
        abs_l0(t1, s1, MASK_PLACEHOLDER, 1, UNARY)?;
        barrier_v()?;
        cmps(m1, t1, inf, CMPMODE::EQ)?;
        barrier_v()?;
        self.bits(BitOp::Or, m1, &self.integral, count)?;
        all(count)?;
        cmps(m2, s0, 0.0, CMPMODE::GE)?;
        cmps(m3, s0, -inf, CMPMODE::EQ)?;
        barrier_v()?;
        self.bits(BitOp::Or, m2, m3, count)?;
        barrier_v()?;
        self.bits(BitOp::Or, m1, m2, count)?;
        all(count)?;
        barrier_v()?;
        self.select(dst, m1, dst, 8)?;
        barrier_v()
    }

    /// `GrepSignBit`: bit `i` of `m1` = the sign bit of `src[i]`.
    fn sign_bit(&self, src: &LocalTensor<f32>, count: u32, repeat: u8) -> Result<()> {
        let (t2, t4) = (&self.t2, &self.t4);
        if self.v200 {
            let (a, b) = (t2.reinterpret_cast::<u32>(), t4.reinterpret_cast::<u32>());
            duplicate_l0(&a, 0x8000_0000, MASK_PLACEHOLDER, 1, 1, 8)?;
            duplicate_l0(&b, 0x3f80_0000, MASK_PLACEHOLDER, 1, 1, 8)?;
            barrier_v()?;
            set_vector_mask::<u16>(MaskMode::COUNTER, count as u64 * 2)?;
            let (a, b) = (a.reinterpret_cast::<u16>(), b.reinterpret_cast::<u16>());
            and_l0(&a, &src.reinterpret_cast(), &a, MASK_PLACEHOLDER, 1, BINARY)?;
            barrier_v()?;
            or_l0(&a, &b, &a, MASK_PLACEHOLDER, 1, BINARY)?;
            barrier_v()?;
            set_vector_mask::<u16>(MaskMode::COUNTER, count as u64)?;
            compare_repeats(&self.m1, t2, 0.0, CMPMODE::LT, repeat)
        } else {
            let bits = t2.reinterpret_cast::<u32>();
            shift_right_l0(
                &bits,
                &src.reinterpret_cast(),
                31,
                MASK_PLACEHOLDER,
                1,
                UNARY,
                false,
            )?;
            barrier_v()?;
            compare_repeats(
                &self.m1,
                &t2.reinterpret_cast::<i32>(),
                1,
                CMPMODE::EQ,
                repeat,
            )
        }
    }
}

#[derive(Clone, Copy)]
enum BitOp {
    And,
    Or,
}

/// Float chunk length for a buffer of `bytes` with `units` 4-byte units per element after the
/// 256 bytes of constants; an error when that is zero.
fn split(bytes: u32, units: u32) -> Result<u32> {
    let need = SCALARS + units * 4 * 32;
    if bytes <= SCALARS {
        return Err(too_small(API, bytes, need));
    }
    let split = (bytes - SCALARS) / 4 / units / 32 * 32;
    if split == 0 {
        return Err(too_small(API, bytes, need));
    }
    Ok(split)
}

/// Calls `body(offset, length, is_tail)` for each chunk of `split` elements; the counter is
/// set to the tail's length before the tail (the caller sets it to `split` first).
fn chunks(
    count: u32,
    split: u32,
    mut body: impl FnMut(u32, u32, bool) -> Result<()>,
) -> Result<()> {
    let (loops, tail) = (count / split, count % split);
    for i in 0..loops {
        body(i * split, split, false)?;
    }
    if tail > 0 {
        set_vector_mask::<f32>(MaskMode::COUNTER, tail as u64)?;
        body(loops * split, tail, true)?;
    }
    Ok(())
}

/// float: the operands are used in place; a scalar is duplicated into a chunk.
pub(super) fn float(
    v200: bool,
    form: Form,
    dst: &LocalTensor<f32>,
    base: Operand<f32>,
    exp: Operand<f32>,
    buf: &LocalTensor<u8>,
    count: u32,
) -> Result<()> {
    let units = match (form, v200) {
        (Form::TensorTensor, false) => 4,
        (Form::TensorTensor, true) => 5,
        (Form::WithScalar, false) => 5,
        (Form::WithScalar, true) => 6,
    };
    let split = split(buf.get_size(), units)?;
    let scalar_chunk = buf.at(SCALARS)?.reinterpret_cast::<f32>();
    let work_at = if form == Form::TensorTensor {
        SCALARS
    } else {
        SCALARS + split * 4
    };
    let w = Work::new(v200, buf, work_at, split)?;
    w.init_scalars()?;
    set_vector_mask::<f32>(MaskMode::COUNTER, split as u64)?;
    let fill = |s: f32| -> Result<LocalTensor<f32>> {
        barrier_v()?;
        duplicate_l0(&scalar_chunk, s, MASK_PLACEHOLDER, 1, 1, 8)?;
        barrier_v()?;
        Ok(scalar_chunk)
    };
    let (b, e) = match (base, exp) {
        (Operand::Tensor(b), Operand::Tensor(e)) => (Some(b), Some(e)),
        (Operand::Tensor(b), Operand::Scalar(s)) => (Some(b), {
            fill(s)?;
            None
        }),
        (Operand::Scalar(s), Operand::Tensor(e)) => (
            {
                fill(s)?;
                None
            },
            Some(e),
        ),
        (Operand::Scalar(_), Operand::Scalar(_)) => unreachable!("checked by power"),
    };
    chunks(count, split, |off, len, tail| {
        if form == Form::TensorTensor && !tail {
            barrier_v()?;
        }
        let s0 = match &b {
            Some(t) => t.at(off)?,
            None => scalar_chunk,
        };
        let s1 = match &e {
            Some(t) => t.at(off)?,
            None => scalar_chunk,
        };
        w.power(&dst.at(off)?, &s0, &s1, len)
    })
}

/// half: each chunk is widened into float chunks, raised, and narrowed back.
pub(super) fn half(
    v200: bool,
    dst: &LocalTensor<f16>,
    base: Operand<f16>,
    exp: Operand<f16>,
    buf: &LocalTensor<u8>,
    count: u32,
) -> Result<()> {
    let split = split(buf.get_size(), if v200 { 8 } else { 7 })?;
    let f = buf.at(SCALARS)?.reinterpret_cast::<f32>();
    let (s0, s1, out) = (f.at(0)?, f.at(split)?, f.at(2 * split)?);
    let w = Work::new(v200, buf, SCALARS + 3 * split * 4, split)?;
    w.init_scalars()?;
    set_vector_mask::<f16>(MaskMode::COUNTER, split as u64)?;
    match (base, exp) {
        (Operand::Tensor(_), Operand::Scalar(s)) => {
            duplicate_l0(&s1, s.to_f32(), MASK_PLACEHOLDER, 1, 1, 8)?;
        }
        (Operand::Scalar(s), Operand::Tensor(_)) => {
            barrier_v()?;
            duplicate_l0(&s0, s.to_f32(), MASK_PLACEHOLDER, 1, 1, 8)?;
        }
        _ => {}
    }
    chunks(count, split, |off, len, _| {
        if let Operand::Tensor(t) = base {
            cast_l0(
                &s0,
                &t.at(off)?,
                RoundMode::CAST_NONE,
                MASK_PLACEHOLDER,
                1,
                WIDEN,
            )?;
        }
        if let Operand::Tensor(t) = exp {
            cast_l0(
                &s1,
                &t.at(off)?,
                RoundMode::CAST_NONE,
                MASK_PLACEHOLDER,
                1,
                WIDEN,
            )?;
        }
        barrier_v()?;
        w.power(&out, &s0, &s1, len)?;
        cast_l0(
            &dst.at(off)?,
            &out,
            RoundMode::CAST_NONE,
            MASK_PLACEHOLDER,
            1,
            NARROW,
        )?;
        barrier_v()
    })
}
