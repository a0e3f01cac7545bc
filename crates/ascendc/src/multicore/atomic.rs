//! GM atomics: `SetAtomicAdd/Max/Min<T>`, `SetAtomicType<T>`, `DisableDmaAtomic`
//! (`SetAtomicNone`). While an operation is set, every DMA write to GM combines the moved
//! elements with what GM holds instead of overwriting it, atomically with respect to the other
//! cores of the launch.

use crate::chip::{ChipProfile, Product};
use crate::dtype::{bf16, f16, DType, DTypeSet};
use crate::error::{Category, Result, SimError};
use crate::position::Hardware;
use std::sync::Mutex;

/// The combining operation of a GM atomic write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AtomicOp {
    /// GM ← GM + data (`SetAtomicAdd`).
    Add,
    /// GM ← max(GM, data) (`SetAtomicMax`).
    Max,
    /// GM ← min(GM, data) (`SetAtomicMin`).
    Min,
}

/// The atomic state of a core: the operation (none: plain stores) and the element type the
/// operation reads GM and the data as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AtomicState {
    /// The operation, `None` after `DisableDmaAtomic` (the initial state).
    pub op: Option<AtomicOp>,
    /// The element type (`SetAtomicType<T>` or the type argument of the operation).
    pub dtype: Option<DType>,
}

/// What a product supports for GM atomics (the documentation's per-product tables).
#[derive(Debug, Clone, Copy)]
pub struct AtomicSupport {
    /// Element types of `SetAtomicAdd`.
    pub add: DTypeSet,
    /// Element types of `SetAtomicMax` / `SetAtomicMin` (empty: not supported).
    pub max_min: DTypeSet,
    /// `SetAtomicType` exists.
    pub set_type: bool,
    /// Source buffers whose writes to GM the atomic applies to.
    pub sources: &'static [Hardware],
}

use DType::*;
const A2_TYPES: DTypeSet = DTypeSet::of(&[Int8, Int16, Half, Bfloat16, Int32, Float]);

/// The atomic support of a product.
pub fn support(profile: &ChipProfile) -> AtomicSupport {
    match profile.product {
        Product::Ascend910B | Product::Ascend910_93 => AtomicSupport {
            add: A2_TYPES,
            max_min: A2_TYPES,
            set_type: true,
            sources: &[Hardware::UB, Hardware::L0C, Hardware::L1],
        },
        Product::Ascend310B => AtomicSupport {
            add: DTypeSet::of(&[Int16, Half, Int32, Float]),
            max_min: DTypeSet::EMPTY,
            set_type: true,
            sources: &[Hardware::UB, Hardware::L0C, Hardware::L1],
        },
        Product::Ascend310P => AtomicSupport {
            add: DTypeSet::of(&[Int16, Half, Float]),
            max_min: DTypeSet::EMPTY,
            set_type: true,
            sources: &[Hardware::UB],
        },
        Product::Ascend910 => AtomicSupport {
            add: DTypeSet::of(&[Float]),
            max_min: DTypeSet::EMPTY,
            set_type: false,
            sources: &[Hardware::UB],
        },
    }
}

impl AtomicState {
    /// Checks that the operation in force may apply to a run of `len` bytes written to GM from
    /// `src` on `profile`; returns the operation and element type.
    pub(crate) fn check_write(
        &self,
        profile: &ChipProfile,
        api: &'static str,
        src: Hardware,
        len: u64,
    ) -> Result<(AtomicOp, DType)> {
        let op = self.op.expect("called with an operation set");
        let dtype = self.dtype.expect("an operation always sets a type");
        let s = support(profile);
        if !s.sources.contains(&src) {
            let names: Vec<String> = s.sources.iter().map(|h| h.to_string()).collect();
            return Err(SimError::new(
                Category::Unsupported,
                api,
                format!(
                    "GM atomic {op:?} is in force but {profile} applies atomics only to writes from {}; this write comes from {src}",
                    names.join("/")
                ),
            ));
        }
        if !len.is_multiple_of(dtype.size() as u64) {
            return Err(SimError::new(
                Category::Size,
                api,
                format!(
                    "GM atomic {op:?} on {dtype} needs whole elements: a run of {len} bytes is not a multiple of {} bytes",
                    dtype.size()
                ),
            ));
        }
        Ok((op, dtype))
    }
}

const STRIPES: usize = 64;
const STRIPE_BYTES: usize = 512;
static LOCKS: [Mutex<()>; STRIPES] = [const { Mutex::new(()) }; STRIPES];

/// Combines `data` into the GM bytes at `dst` element by element, holding the lock of each
/// 512-byte stripe of the destination while it is updated (two cores updating the same bytes
/// serialise; different stripes proceed in parallel).
///
/// # Safety
/// `dst .. dst + data.len()` must lie inside the live GM allocation `region`.
pub(crate) unsafe fn apply(
    region: u64,
    dst: *mut u8,
    data: &[u8],
    op: AtomicOp,
    dtype: DType,
    sat: bool,
) {
    let size = dtype.size();
    let mut done = 0;
    while done < data.len() {
        let addr = dst as usize + done;
        // A chunk ends at the first element boundary at or past the stripe boundary.
        let stripe_end = (addr / STRIPE_BYTES + 1) * STRIPE_BYTES;
        let n = ((stripe_end - addr).div_ceil(size) * size).min(data.len() - done);
        let key = (region as usize).wrapping_mul(0x9E37_79B9) ^ (addr / STRIPE_BYTES);
        let _g = LOCKS[key % STRIPES]
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let mut k = 0;
        while k < n {
            let p = dst.add(done + k);
            let mut old = [0u8; 8];
            std::ptr::copy_nonoverlapping(p, old.as_mut_ptr(), size);
            let new = combine(
                op,
                dtype,
                &old[..size],
                &data[done + k..done + k + size],
                sat,
            );
            std::ptr::copy_nonoverlapping(new.as_ptr(), p, size);
            k += size;
        }
        done += n;
    }
}

/// One element of an atomic operation: `old` (GM) combined with `new` (data), both
/// little-endian `dtype` bytes; the result in the first `dtype.size()` bytes. Float sums round
/// once to nearest even; fp16 saturates (±65504, NaN → 0) when `sat`; integers wrap.
pub fn combine(op: AtomicOp, dtype: DType, old: &[u8], new: &[u8], sat: bool) -> [u8; 8] {
    let mut out = [0u8; 8];
    macro_rules! int {
        ($t:ty) => {{
            let a = <$t>::from_le_bytes(old.try_into().expect("element bytes"));
            let b = <$t>::from_le_bytes(new.try_into().expect("element bytes"));
            let r = match op {
                AtomicOp::Add => a.wrapping_add(b),
                AtomicOp::Max => a.max(b),
                AtomicOp::Min => a.min(b),
            };
            out[..std::mem::size_of::<$t>()].copy_from_slice(&r.to_le_bytes());
        }};
    }
    match dtype {
        Int8 => int!(i8),
        Uint8 => int!(u8),
        Int16 => int!(i16),
        Uint16 => int!(u16),
        Int32 => int!(i32),
        Uint32 => int!(u32),
        Int64 => int!(i64),
        Uint64 => int!(u64),
        Half => {
            let a = f16::from_le_bytes([old[0], old[1]]).to_f64();
            let b = f16::from_le_bytes([new[0], new[1]]).to_f64();
            // Two halves add exactly in f64, so one rounding to half is the correctly rounded sum.
            let mut r = f16::from_f64(float_op(op, a, b));
            if sat {
                r = crate::numeric::saturate_f16(r);
            }
            out[..2].copy_from_slice(&r.to_le_bytes());
        }
        Bfloat16 => {
            let a = bf16::from_le_bytes([old[0], old[1]]).to_f64();
            let b = bf16::from_le_bytes([new[0], new[1]]).to_f64();
            out[..2].copy_from_slice(&bf16::from_f64(float_op(op, a, b)).to_le_bytes());
        }
        Float => {
            let a = f32::from_le_bytes(old.try_into().expect("element bytes"));
            let b = f32::from_le_bytes(new.try_into().expect("element bytes"));
            let r = match op {
                AtomicOp::Add => a + b,
                AtomicOp::Max => a.max(b),
                AtomicOp::Min => a.min(b),
            };
            out[..4].copy_from_slice(&r.to_le_bytes());
        }
        Double => {
            let a = f64::from_le_bytes(old.try_into().expect("element bytes"));
            let b = f64::from_le_bytes(new.try_into().expect("element bytes"));
            out.copy_from_slice(&float_op(op, a, b).to_le_bytes());
        }
        Int4 => unreachable!("GM atomics are set for Element types only; int4b_t is not one"),
    }
    out
}

fn float_op(op: AtomicOp, a: f64, b: f64) -> f64 {
    match op {
        AtomicOp::Add => a + b,
        AtomicOp::Max => a.max(b),
        AtomicOp::Min => a.min(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(x: f32) -> [u8; 2] {
        f16::from_f32(x).to_le_bytes()
    }

    fn half(r: [u8; 8]) -> f16 {
        f16::from_le_bytes([r[0], r[1]])
    }

    #[test]
    fn half_add_rounds_once_and_saturates() {
        // 2048 + 1 is a tie in half: nearest even keeps 2048; 2048 + 3 → 2052.
        assert_eq!(
            half(combine(AtomicOp::Add, Half, &h(2048.0), &h(1.0), true)).to_f32(),
            2048.0
        );
        assert_eq!(
            half(combine(AtomicOp::Add, Half, &h(2048.0), &h(3.0), true)).to_f32(),
            2052.0
        );
        let sum = combine(AtomicOp::Add, Half, &h(65504.0), &h(65504.0), true);
        assert_eq!(half(sum).to_f32(), 65504.0);
        let sum = combine(AtomicOp::Add, Half, &h(65504.0), &h(65504.0), false);
        assert!(half(sum).is_infinite());
    }

    #[test]
    fn integers_wrap_and_compare() {
        assert_eq!(
            combine(AtomicOp::Add, Int8, &[127], &[1], true)[0] as i8,
            -128
        );
        let r = combine(
            AtomicOp::Max,
            Int32,
            &(-5i32).to_le_bytes(),
            &3i32.to_le_bytes(),
            true,
        );
        assert_eq!(i32::from_le_bytes(r[..4].try_into().unwrap()), 3);
        let r = combine(
            AtomicOp::Min,
            Float,
            &1.5f32.to_le_bytes(),
            &(-2.0f32).to_le_bytes(),
            true,
        );
        assert_eq!(f32::from_le_bytes(r[..4].try_into().unwrap()), -2.0);
    }
}
