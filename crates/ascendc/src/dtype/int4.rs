//! `int4b_t`: the signed 4-bit element type of the cube and of `Cast`.

use super::{sealed, DType, TensorElement};
use std::fmt;

/// `int4b_t`: a signed 4-bit integer, [-8, 7]. In a tensor two share a byte, the element with
/// the even index in the low nibble; a value on its own keeps its nibble in the low four bits of
/// a byte (C++ `int4b_t::storage`), and the high four bits are ignored.
#[repr(transparent)]
#[derive(Clone, Copy, Default)]
pub struct Int4(u8);

// SAFETY: one `u8` (`repr(transparent)`); every bit pattern is a value (only the low nibble is read).
unsafe impl bytemuck::Zeroable for Int4 {}
// SAFETY: as above; no padding, no pointers.
unsafe impl bytemuck::Pod for Int4 {}

impl Int4 {
    /// The smallest value.
    pub const MIN: i8 = -8;
    /// The largest value.
    pub const MAX: i8 = 7;

    /// The low four bits of `v`, as the C++ constructor from an integer keeps them
    /// (`Int4::new(9)` is -7).
    pub const fn new(v: i32) -> Int4 {
        Int4((v & 0xF) as u8)
    }

    /// `v` clamped to [-8, 7].
    pub fn saturating(v: i64) -> Int4 {
        Int4::new(v.clamp(Int4::MIN as i64, Int4::MAX as i64) as i32)
    }

    /// The value, sign-extended.
    pub const fn value(self) -> i8 {
        ((self.0 << 4) as i8) >> 4
    }

    /// The four bits as stored (0..=15).
    pub const fn nibble(self) -> u8 {
        self.0 & 0xF
    }

    /// `values` two to a byte, the first of each pair in the low nibble (an odd count leaves
    /// the last high nibble 0): how a tensor of them lies in memory.
    pub fn pack(values: &[Int4]) -> Vec<u8> {
        values
            .chunks(2)
            .map(|p| p[0].nibble() | p.get(1).map_or(0, |h| h.nibble() << 4))
            .collect()
    }

    /// The `2 * bytes.len()` values packed in `bytes`, low nibble first.
    pub fn unpack(bytes: &[u8]) -> Vec<Int4> {
        bytes
            .iter()
            .flat_map(|b| [Int4(b & 0xF), Int4(b >> 4)])
            .collect()
    }
}

impl PartialEq for Int4 {
    fn eq(&self, other: &Int4) -> bool {
        self.nibble() == other.nibble()
    }
}
impl Eq for Int4 {}

impl fmt::Debug for Int4 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Int4({})", self.value())
    }
}

impl fmt::Display for Int4 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.value())
    }
}

impl From<Int4> for i8 {
    fn from(v: Int4) -> i8 {
        v.value()
    }
}

impl sealed::Sealed for Int4 {}

impl TensorElement for Int4 {
    const DTYPE: DType = DType::Int4;

    #[inline]
    fn get(run: &[u8], i: usize) -> Int4 {
        Int4(run[i / 2] >> (4 * (i % 2)))
    }

    #[inline]
    fn put(run: &mut [u8], i: usize, v: Int4) {
        let shift = 4 * (i % 2);
        let b = &mut run[i / 2];
        *b = (*b & !(0xF << shift)) | (v.nibble() << shift);
    }

    #[inline]
    fn as_f64(self) -> f64 {
        self.value() as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_and_nibbles() {
        assert_eq!(Int4::new(7).value(), 7);
        assert_eq!(Int4::new(-8).value(), -8);
        assert_eq!(Int4::new(-1).nibble(), 0xF);
        assert_eq!(Int4::new(9).value(), -7);
        assert_eq!(Int4::saturating(100).value(), 7);
        assert_eq!(Int4::saturating(-100).value(), -8);
        assert_eq!(Int4::new(3), Int4(0xF3));
    }

    #[test]
    fn packing_is_low_nibble_first() {
        let v = [Int4::new(6), Int4::new(7), Int4::new(-1), Int4::new(-8)];
        assert_eq!(Int4::pack(&v), vec![0x76, 0x8F]);
        assert_eq!(Int4::unpack(&[0x76, 0x8F]), v.to_vec());
        assert_eq!(Int4::pack(&v[..3]), vec![0x76, 0x0F]);
        let mut run = [0x76u8, 0x8F];
        assert_eq!(Int4::get(&run, 3).value(), -8);
        Int4::put(&mut run, 2, Int4::new(2));
        assert_eq!(run, [0x76, 0x82]);
        Int4::put(&mut run, 1, Int4::new(-3));
        assert_eq!(run, [0xD6, 0x82]);
    }
}
