//! `Cast` to and from `int4b_t` (half ↔ int4b_t on Atlas A2/A3, half → int4b_t on the Atlas
//! inference series).
//!
//! The call has 128 lanes per repeat (the half side's); the int4b_t side packs two lanes into a
//! byte, a 32-byte block holding 64 of them. It runs on the vector engine as 64 lanes of element
//! pairs: two halves (4 bytes) against one byte of two nibbles, the even lane in the low nibble.
//! The documented constraints make this exact: the count and a contiguous mask are even, and a
//! bitwise mask enables both lanes of a pair or neither (bits 0–1 equal, 2–3 equal, …).
//! half → int4b_t rounds with the mode and saturates to [-8, 7] (NaN → 0), or keeps the low four
//! bits after `SetSaturationFlag<CAST>(false)`; int4b_t → half is exact.

use super::cast::{cast_kind, check_overlap, CastCall, API};
use super::{level0_mask, run, Issue, Mask, Opnd};
use crate::api::context::with_core;
use crate::api::tensor::LocalTensor;
use crate::core::vector::{map1, Operand, Shape};
use crate::core::Core;
use crate::dtype::{f16, DType, Int4, TensorElement};
use crate::error::{Category, Result, SimError};
use crate::numeric::{round_integral, RoundMode};

/// Lanes of element pairs per repeat.
const PAIR_LANES: u32 = 64;

/// `dst ← src` where one side is `int4b_t` (the rules allow only half on the other side).
pub(crate) fn cast_packed<D: TensorElement, S: TensorElement>(
    call: CastCall,
    dst: &LocalTensor<D>,
    src: &LocalTensor<S>,
) -> Result<()> {
    let CastCall {
        loc,
        mode,
        issue,
        params: p,
    } = call;
    with_core(API, loc, |core| {
        cast_kind(core, S::DTYPE, D::DTYPE, mode)?;
        let ops = [
            pair_operand("dst", dst, p.dst_blk_stride, p.dst_rep_stride, true),
            pair_operand("src", src, p.src_blk_stride, p.src_rep_stride, false),
        ];
        let wrap = core.spr.cast_overflow.truncate;
        let exec = |ub: &mut [u8], shape: &Shape, o: &[Operand]| {
            if D::DTYPE == DType::Int4 {
                map1(ub, shape, o[0], o[1], |pair: u32| {
                    let lo = half_to_int4(f16::from_bits(pair as u16), mode, wrap);
                    let hi = half_to_int4(f16::from_bits((pair >> 16) as u16), mode, wrap);
                    lo.nibble() | hi.nibble() << 4
                })
            } else {
                map1(ub, shape, o[0], o[1], |byte: u8| {
                    let [lo, hi] = [byte, byte >> 4].map(|n| Int4::new(n as i32).value());
                    let h = |v: i8| f16::from_f64(v as f64).to_bits() as u32;
                    h(lo) | h(hi) << 16
                })
            }
        };
        match issue {
            Issue::Count(n) => {
                check_overlap(dst, src, n)?;
                if n >= 0 {
                    even(n as u64, "count")?;
                }
                let pairs = if n >= 0 { n / 2 } else { n };
                run(core, API, loc, PAIR_LANES, Issue::Count(pairs), &ops, exec)
            }
            Issue::Level0 {
                mask: Mask::Keep,
                repeat,
            } => with_pair_register(core, |core| {
                let issue = Issue::Level0 {
                    mask: Mask::Keep,
                    repeat,
                };
                run(core, API, loc, PAIR_LANES, issue, &ops, exec)
            }),
            Issue::KeepMask => with_pair_register(core, |core| {
                run(core, API, loc, PAIR_LANES, Issue::KeepMask, &ops, exec)
            }),
            Issue::Level0 { mask, repeat } => {
                if let (Mask::Count(n), false) = (mask, core.vector.counter_mode) {
                    even(n, "mask")?;
                }
                let full = level0_mask(core, API, loc, 128, mask)?;
                let pairs = pair_mask(core, full)?;
                let issue = Issue::Level0 {
                    mask: Mask::Bits(pairs),
                    repeat,
                };
                let before = core.vector.mask;
                let r = run(core, API, loc, PAIR_LANES, issue, &ops, exec);
                // A call that ran wrote its mask to the register: in lanes of elements.
                core.vector.mask = if r.is_ok() { full } else { before };
                r
            }
        }
    })
}

/// The operand of `t` in lanes of element pairs: 4 bytes for half, 1 for int4b_t.
fn pair_operand<T: TensorElement>(
    name: &'static str,
    t: &LocalTensor<T>,
    blk: u16,
    rep: u8,
    write: bool,
) -> Opnd {
    Opnd {
        name,
        pos: t.pos,
        hw: t.hw,
        addr: t.addr,
        len: t.len,
        size: (2 * T::BITS / 8) as usize,
        blk: blk as u32,
        rep: rep as u32,
        write,
        owner: t.owner(),
    }
}

/// Runs `f` with the mask register in lanes of element pairs, then puts the register back.
fn with_pair_register(core: &mut Core, f: impl FnOnce(&mut Core) -> Result<()>) -> Result<()> {
    let full = core.vector.mask;
    core.vector.mask = pair_mask(core, full)?;
    let r = f(core);
    core.vector.mask = full;
    r
}

/// The mask in lanes of element pairs: the counter-mode count halved, or one bit per pair of
/// lane bits (which must agree).
fn pair_mask(core: &Core, [lo, hi]: [u64; 2]) -> Result<[u64; 2]> {
    if core.vector.counter_mode {
        let n = lo & 0xFFFF_FFFF;
        even(n, "mask (counter-mode element count)")?;
        return Ok([n / 2, 0]);
    }
    const EVEN_BITS: u64 = 0x5555_5555_5555_5555;
    for (w, word) in [lo, hi].into_iter().enumerate() {
        let split = (word ^ (word >> 1)) & EVEN_BITS;
        if split != 0 {
            let k = 64 * w as u32 + split.trailing_zeros();
            return Err(SimError::new(
                Category::Range,
                API,
                format!(
                    "mask bits {k} and {} differ: with int4b_t the two lanes of one byte must be enabled together \
                     (mask bits 0–1 equal, 2–3 equal, …)",
                    k + 1
                ),
            ));
        }
    }
    Ok([even_bits(lo) | even_bits(hi) << 32, 0])
}

/// Bits 0, 2, 4, … 62 of `x`, packed into the low 32 bits.
fn even_bits(x: u64) -> u64 {
    (0..32).fold(0, |acc, j| acc | ((x >> (2 * j)) & 1) << j)
}

/// Fails unless `n` lanes fill whole bytes of int4b_t.
fn even(n: u64, what: &str) -> Result<()> {
    if n.is_multiple_of(2) {
        return Ok(());
    }
    Err(SimError::new(
        Category::Range,
        API,
        format!("parameter `{what}` = {n} must be even when the source or destination is int4b_t (two elements to a byte)"),
    ))
}

/// One half → int4b_t conversion: rounded with `mode`, then saturated to [-8, 7] or (`wrap`)
/// reduced to its low four bits; NaN → 0.
fn half_to_int4(h: f16, mode: RoundMode, wrap: bool) -> Int4 {
    let x = h.to_f64();
    if x.is_nan() {
        return Int4::new(0);
    }
    let r = round_integral(x, mode);
    if wrap {
        Int4::new((r as i128 & 0xF) as i32)
    } else {
        Int4::saturating(r as i64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_and_saturation() {
        let h = |x: f64| f16::from_f64(x);
        let v = |x: f64, m: RoundMode| half_to_int4(h(x), m, false).value();
        assert_eq!(v(1.5, RoundMode::CAST_RINT), 2);
        assert_eq!(v(2.5, RoundMode::CAST_RINT), 2);
        assert_eq!(v(2.5, RoundMode::CAST_NONE), 2);
        assert_eq!(v(-1.5, RoundMode::CAST_FLOOR), -2);
        assert_eq!(v(-1.5, RoundMode::CAST_CEIL), -1);
        assert_eq!(v(2.5, RoundMode::CAST_ROUND), 3);
        assert_eq!(v(-2.7, RoundMode::CAST_TRUNC), -2);
        assert_eq!(v(7.6, RoundMode::CAST_RINT), 7);
        assert_eq!(v(-100.0, RoundMode::CAST_RINT), -8);
        assert_eq!(v(f64::INFINITY, RoundMode::CAST_RINT), 7);
        assert_eq!(v(f64::NAN, RoundMode::CAST_RINT), 0);
        assert_eq!(half_to_int4(h(9.0), RoundMode::CAST_RINT, true).value(), -7);
    }

    #[test]
    fn pair_bits() {
        assert_eq!(even_bits(0b1100_0011), 0b1001);
        assert_eq!(even_bits(u64::MAX), u32::MAX as u64);
    }
}
