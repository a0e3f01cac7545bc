//! Element types a kernel can move and compute with.

mod int4;

use std::fmt;

pub use half::{bf16, f16};
pub use int4::Int4;

/// The element types of Ascend C tensors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(non_camel_case_types)]
pub enum DType {
    Int8,
    Uint8,
    Int16,
    Uint16,
    Int32,
    Uint32,
    Int64,
    Uint64,
    Half,
    Bfloat16,
    Float,
    Double,
    /// `int4b_t`: 4 bits, two elements to a byte.
    Int4,
}

impl DType {
    /// Every element type, in declaration order.
    pub const ALL: [DType; 13] = [
        DType::Int8,
        DType::Uint8,
        DType::Int16,
        DType::Uint16,
        DType::Int32,
        DType::Uint32,
        DType::Int64,
        DType::Uint64,
        DType::Half,
        DType::Bfloat16,
        DType::Float,
        DType::Double,
        DType::Int4,
    ];

    /// Size of one element in bytes. `int4b_t`, half a byte, counts as 1 here (its storage unit,
    /// C++ `sizeof(int4b_t)`): lengths and offsets of `int4b_t` tensors go through
    /// [`DType::bits`].
    pub const fn size(self) -> usize {
        match self {
            DType::Int8 | DType::Uint8 | DType::Int4 => 1,
            DType::Int16 | DType::Uint16 | DType::Half | DType::Bfloat16 => 2,
            DType::Int32 | DType::Uint32 | DType::Float => 4,
            DType::Int64 | DType::Uint64 | DType::Double => 8,
        }
    }

    /// Bits of one element in memory (4 for `int4b_t`).
    pub const fn bits(self) -> u32 {
        match self {
            DType::Int4 => 4,
            d => d.size() as u32 * 8,
        }
    }

    /// The Ascend C spelling of the type (`half`, `int32_t`, …).
    pub const fn c_name(self) -> &'static str {
        match self {
            DType::Int8 => "int8_t",
            DType::Uint8 => "uint8_t",
            DType::Int16 => "int16_t",
            DType::Uint16 => "uint16_t",
            DType::Int32 => "int32_t",
            DType::Uint32 => "uint32_t",
            DType::Int64 => "int64_t",
            DType::Uint64 => "uint64_t",
            DType::Half => "half",
            DType::Bfloat16 => "bfloat16_t",
            DType::Float => "float",
            DType::Double => "double",
            DType::Int4 => "int4b_t",
        }
    }

    /// Parses a type name as numpy or Ascend C spells it (`float16`, `half`, `int32`, `int32_t`, …).
    pub fn parse(name: &str) -> Option<DType> {
        Some(match name {
            "int8" | "int8_t" | "i8" => DType::Int8,
            "uint8" | "uint8_t" | "u8" => DType::Uint8,
            "int16" | "int16_t" | "i16" => DType::Int16,
            "uint16" | "uint16_t" | "u16" => DType::Uint16,
            "int32" | "int32_t" | "i32" => DType::Int32,
            "uint32" | "uint32_t" | "u32" => DType::Uint32,
            "int64" | "int64_t" | "i64" => DType::Int64,
            "uint64" | "uint64_t" | "u64" => DType::Uint64,
            "float16" | "half" | "fp16" | "f16" => DType::Half,
            "bfloat16" | "bfloat16_t" | "bf16" => DType::Bfloat16,
            "float32" | "float" | "fp32" | "f32" => DType::Float,
            "float64" | "double" | "fp64" | "f64" => DType::Double,
            _ => return None,
        })
    }

    /// Bit of this type in a [`DTypeSet`].
    const fn bit(self) -> u16 {
        1 << (self as u16)
    }

    /// True for half, bfloat16, float and double.
    pub const fn is_float(self) -> bool {
        matches!(
            self,
            DType::Half | DType::Bfloat16 | DType::Float | DType::Double
        )
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.c_name())
    }
}

/// A set of element types (what a product supports on a path or for an operation).
#[derive(Clone, Copy, PartialEq, Eq, Default)]
pub struct DTypeSet(u16);

impl DTypeSet {
    /// The empty set.
    pub const EMPTY: DTypeSet = DTypeSet(0);

    /// Builds a set from a list of types.
    pub const fn of(types: &[DType]) -> DTypeSet {
        let mut bits = 0u16;
        let mut i = 0;
        while i < types.len() {
            bits |= types[i].bit();
            i += 1;
        }
        DTypeSet(bits)
    }

    /// True when `t` is in the set.
    pub const fn contains(self, t: DType) -> bool {
        self.0 & t.bit() != 0
    }

    /// The union of two sets.
    pub const fn union(self, other: DTypeSet) -> DTypeSet {
        DTypeSet(self.0 | other.0)
    }

    /// The members, in declaration order.
    pub fn iter(self) -> impl Iterator<Item = DType> {
        DType::ALL.into_iter().filter(move |t| self.contains(*t))
    }
}

impl fmt::Debug for DTypeSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl fmt::Display for DTypeSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.iter().map(DType::c_name).collect();
        f.write_str(&names.join("/"))
    }
}

mod sealed {
    pub trait Sealed {}
}

/// A Rust type that is an Ascend C element type. Implemented for `i8`…`u64`, [`f16`](struct@f16), [`bf16`],
/// `f32` and `f64`.
pub trait Element:
    bytemuck::Pod
    + Default
    + PartialEq
    + fmt::Debug
    + fmt::Display
    + Send
    + Sync
    + sealed::Sealed
    + 'static
{
    /// The element type tag.
    const DTYPE: DType;
    /// Size in bytes.
    const SIZE: usize = Self::DTYPE.size();
    /// Converts from `f64` the way a C cast `T(v)` does (floats round to nearest even, integers
    /// truncate towards zero and saturate at the type's range).
    fn from_f64(v: f64) -> Self;
    /// The value as `f64` (exact for every type but 64-bit integers beyond 2^53).
    fn to_f64(self) -> f64;
}

/// What a tensor can hold: every [`Element`], and [`Int4`] (`int4b_t`, two to a byte). Tensor
/// handles, queues, buffers and the APIs documented for `int4b_t` take it; an element count
/// becomes bytes with [`TensorElement::bytes`].
pub trait TensorElement:
    bytemuck::Pod + Default + fmt::Debug + fmt::Display + Send + Sync + sealed::Sealed + 'static
{
    /// The element type tag.
    const DTYPE: DType;
    /// Bits of one element in memory.
    const BITS: u32 = Self::DTYPE.bits();

    /// Bytes that `n` elements occupy (a trailing half byte is not counted).
    #[inline(always)]
    fn bytes(n: u64) -> u64 {
        n * Self::BITS as u64 / 8
    }

    /// Elements that `bytes` bytes hold.
    #[inline(always)]
    fn elements(bytes: u64) -> u64 {
        bytes * 8 / Self::BITS as u64
    }

    /// Element `i` of the packed run starting at `run[0]`.
    fn get(run: &[u8], i: usize) -> Self;

    /// Writes element `i` of the packed run starting at `run[0]`, leaving its neighbours.
    fn put(run: &mut [u8], i: usize, v: Self);

    /// The value as `f64` (exact but for 64-bit integers beyond 2^53).
    fn as_f64(self) -> f64;
}

impl<T: Element> TensorElement for T {
    const DTYPE: DType = <T as Element>::DTYPE;

    #[inline(always)]
    fn get(run: &[u8], i: usize) -> T {
        bytemuck::pod_read_unaligned(&run[i * T::SIZE..(i + 1) * T::SIZE])
    }

    #[inline(always)]
    fn put(run: &mut [u8], i: usize, v: T) {
        run[i * T::SIZE..(i + 1) * T::SIZE].copy_from_slice(bytemuck::bytes_of(&v));
    }

    #[inline(always)]
    fn as_f64(self) -> f64 {
        self.to_f64()
    }
}

macro_rules! int_element {
    ($t:ty, $d:ident) => {
        impl sealed::Sealed for $t {}
        impl Element for $t {
            const DTYPE: DType = DType::$d;
            fn from_f64(v: f64) -> Self {
                v as $t
            }
            fn to_f64(self) -> f64 {
                self as f64
            }
        }
    };
}
int_element!(i8, Int8);
int_element!(u8, Uint8);
int_element!(i16, Int16);
int_element!(u16, Uint16);
int_element!(i32, Int32);
int_element!(u32, Uint32);
int_element!(i64, Int64);
int_element!(u64, Uint64);

impl sealed::Sealed for f32 {}
impl Element for f32 {
    const DTYPE: DType = DType::Float;
    fn from_f64(v: f64) -> Self {
        v as f32
    }
    fn to_f64(self) -> f64 {
        self as f64
    }
}
impl sealed::Sealed for f64 {}
impl Element for f64 {
    const DTYPE: DType = DType::Double;
    fn from_f64(v: f64) -> Self {
        v
    }
    fn to_f64(self) -> f64 {
        self
    }
}
impl sealed::Sealed for f16 {}
impl Element for f16 {
    const DTYPE: DType = DType::Half;
    fn from_f64(v: f64) -> Self {
        crate::numeric::f16_from_f64(v)
    }
    fn to_f64(self) -> f64 {
        f16::to_f64(self)
    }
}
impl sealed::Sealed for bf16 {}
impl Element for bf16 {
    const DTYPE: DType = DType::Bfloat16;
    fn from_f64(v: f64) -> Self {
        crate::numeric::bf16_from_f64(v)
    }
    fn to_f64(self) -> f64 {
        bf16::to_f64(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_names() {
        assert_eq!(DType::Half.size(), 2);
        assert_eq!(DType::Double.size(), 8);
        assert_eq!(<f16 as Element>::SIZE, 2);
        assert_eq!(DType::parse("float16"), Some(DType::Half));
        assert_eq!(DType::parse("int32_t"), Some(DType::Int32));
        assert_eq!(DType::parse("complex"), None);
        assert_eq!(DType::Int4.bits(), 4);
        assert_eq!(DType::Int4.c_name(), "int4b_t");
        assert_eq!(<Int4 as TensorElement>::bytes(6), 3);
        assert_eq!(<Int4 as TensorElement>::elements(3), 6);
        assert_eq!(<f16 as TensorElement>::bytes(6), 12);
    }

    #[test]
    fn sets() {
        let s = DTypeSet::of(&[DType::Half, DType::Float]);
        assert!(s.contains(DType::Half));
        assert!(!s.contains(DType::Int8));
        assert_eq!(s.to_string(), "half/float");
    }
}
