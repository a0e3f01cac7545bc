//! `ascendc compare`: element-wise closeness of an output `.bin` against a golden one, as numpy's
//! `isclose` decides it (`|a − b| ≤ atol + rtol·|b|`, NaN never close unless `equal_nan`,
//! infinities close only to themselves).

use ascendc::{bf16, f16, DType, Int4};
use std::fmt;

/// Tolerances and the pass criterion.
#[derive(Debug, Clone, Copy)]
pub struct Tolerance {
    /// Relative tolerance (`rtol`).
    pub rtol: f64,
    /// Absolute tolerance (`atol`).
    pub atol: f64,
    /// NaN compares equal to NaN.
    pub equal_nan: bool,
    /// Largest mismatch ratio that still passes.
    pub error_ratio: f64,
}

/// One element that is not close.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mismatch {
    /// Element index.
    pub index: usize,
    /// Golden value.
    pub expected: f64,
    /// Output value.
    pub actual: f64,
}

impl Mismatch {
    /// `|actual − expected| / |expected|` (infinite when expected is 0 and they differ).
    pub fn relative(&self) -> f64 {
        (self.actual - self.expected).abs() / self.expected.abs()
    }
}

/// The outcome of a comparison.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// Elements compared.
    pub total: usize,
    /// Mismatches, in index order.
    pub mismatches: Vec<Mismatch>,
    /// The criterion applied.
    pub tolerance: Tolerance,
}

impl Outcome {
    /// Mismatches / total (0 for empty files).
    pub fn ratio(&self) -> f64 {
        if self.total == 0 {
            0.0
        } else {
            self.mismatches.len() as f64 / self.total as f64
        }
    }

    /// True when the mismatch ratio is within the limit.
    pub fn passed(&self) -> bool {
        self.ratio() <= self.tolerance.error_ratio
    }

    /// The report with at most `show` mismatches listed.
    pub fn report(&self, show: usize) -> Report<'_> {
        Report {
            outcome: self,
            show,
        }
    }
}

/// Printable form of an [`Outcome`].
pub struct Report<'a> {
    outcome: &'a Outcome,
    show: usize,
}

impl fmt::Display for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let o = self.outcome;
        if !o.mismatches.is_empty() {
            writeln!(
                f,
                "{:>10}  {:>16}  {:>16}  {:>12}",
                "index", "expected", "actual", "rel. diff"
            )?;
            for m in o.mismatches.iter().take(self.show) {
                writeln!(
                    f,
                    "{:>10}  {:>16}  {:>16}  {:>12.6e}",
                    m.index,
                    m.expected,
                    m.actual,
                    m.relative()
                )?;
            }
            if o.mismatches.len() > self.show {
                writeln!(f, "{:>10}", "…")?;
            }
        }
        write!(
            f,
            "{} of {} elements not close (ratio {:.6}, limit {}; rtol {}, atol {}): {}",
            o.mismatches.len(),
            o.total,
            o.ratio(),
            o.tolerance.error_ratio,
            o.tolerance.rtol,
            o.tolerance.atol,
            if o.passed() { "PASS" } else { "FAIL" }
        )
    }
}

/// numpy's `isclose(a, b)` for one pair (`b` is the reference).
pub fn isclose(a: f64, b: f64, t: &Tolerance) -> bool {
    if a.is_nan() || b.is_nan() {
        t.equal_nan && a.is_nan() && b.is_nan()
    } else if a.is_infinite() || b.is_infinite() {
        a == b
    } else {
        (a - b).abs() <= t.atol + t.rtol * b.abs()
    }
}

/// Decodes little-endian elements of `dtype` as `f64` (`int4b_t`: two to a byte, low nibble
/// first).
pub fn decode(bytes: &[u8], dtype: DType) -> Result<Vec<f64>, String> {
    if dtype == DType::Int4 {
        return Ok(Int4::unpack(bytes)
            .iter()
            .map(|v| v.value() as f64)
            .collect());
    }
    let size = dtype.size();
    if !bytes.len().is_multiple_of(size) {
        return Err(format!(
            "{} bytes is not a whole number of {dtype} elements ({size} bytes each)",
            bytes.len()
        ));
    }
    Ok(bytes
        .chunks_exact(size)
        .map(|c| {
            let mut b = [0u8; 8];
            b[..size].copy_from_slice(c);
            let u16v = u16::from_le_bytes([b[0], b[1]]);
            let u32v = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            let u64v = u64::from_le_bytes(b);
            match dtype {
                DType::Int8 => b[0] as i8 as f64,
                DType::Uint8 => b[0] as f64,
                DType::Int16 => u16v as i16 as f64,
                DType::Uint16 => u16v as f64,
                DType::Int32 => u32v as i32 as f64,
                DType::Uint32 => u32v as f64,
                DType::Int64 => u64v as i64 as f64,
                DType::Uint64 => u64v as f64,
                DType::Half => f16::from_bits(u16v).to_f64(),
                DType::Bfloat16 => bf16::from_bits(u16v).to_f64(),
                DType::Float => f32::from_bits(u32v) as f64,
                DType::Double => f64::from_bits(u64v),
                DType::Int4 => unreachable!("int4b_t is decoded above"),
            }
        })
        .collect())
}

/// Compares `actual` against `expected` element by element.
pub fn compare(actual: &[f64], expected: &[f64], tolerance: Tolerance) -> Result<Outcome, String> {
    if actual.len() != expected.len() {
        return Err(format!(
            "the output has {} elements, the golden {}",
            actual.len(),
            expected.len()
        ));
    }
    let mismatches = actual
        .iter()
        .zip(expected)
        .enumerate()
        .filter(|(_, (a, b))| !isclose(**a, **b, &tolerance))
        .map(|(index, (a, b))| Mismatch {
            index,
            expected: *b,
            actual: *a,
        })
        .collect();
    Ok(Outcome {
        total: actual.len(),
        mismatches,
        tolerance,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const NUMPY: Tolerance = Tolerance {
        rtol: 1e-5,
        atol: 1e-8,
        equal_nan: false,
        error_ratio: 0.0,
    };

    // Expected values worked out by hand from numpy's documented rule
    // `absolute(a - b) <= atol + rtol * absolute(b)` (numpy.isclose, equal_nan=False).
    #[test]
    fn isclose_matches_numpy_rule() {
        assert!(isclose(1.0, 1.0, &NUMPY));
        // |1.00001 - 1| = 1e-5 (up to rounding) vs 1e-8 + 1e-5: close.
        assert!(isclose(1.000_009_9, 1.0, &NUMPY));
        assert!(!isclose(1.000_02, 1.0, &NUMPY));
        // Asymmetric: b is the reference. |0 - 1e-8| <= 1e-8 + 0 → close; the reverse is too.
        assert!(isclose(1e-8, 0.0, &NUMPY));
        assert!(!isclose(2e-8, 0.0, &NUMPY));
        // rtol scales with |b| only: a = 100, b = 100.0015 with rtol 1e-5: 0.0015 <= 1e-8 + 0.001000015 → false.
        assert!(!isclose(100.0, 100.0015, &NUMPY));
        assert!(!isclose(f64::NAN, f64::NAN, &NUMPY));
        assert!(isclose(
            f64::NAN,
            f64::NAN,
            &Tolerance {
                equal_nan: true,
                ..NUMPY
            }
        ));
        assert!(!isclose(f64::NAN, 1.0, &NUMPY));
        assert!(isclose(f64::INFINITY, f64::INFINITY, &NUMPY));
        assert!(!isclose(f64::INFINITY, f64::NEG_INFINITY, &NUMPY));
        assert!(!isclose(f64::INFINITY, 1e308, &NUMPY));
        assert!(!isclose(
            1.0,
            f64::INFINITY,
            &Tolerance { rtol: 1.0, ..NUMPY }
        ));
    }

    #[test]
    fn decodes_every_type() {
        assert_eq!(
            decode(&[0xff, 0xff, 0xff, 0x7f], DType::Int16).unwrap(),
            vec![-1.0, 32767.0]
        );
        assert_eq!(
            decode(&[0x00, 0x3c, 0x00, 0xc0], DType::Half).unwrap(),
            vec![1.0, -2.0]
        );
        assert_eq!(decode(&[0x80, 0x3f], DType::Bfloat16).unwrap(), vec![1.0]);
        assert_eq!(
            decode(&1.5f32.to_le_bytes(), DType::Float).unwrap(),
            vec![1.5]
        );
        assert_eq!(
            decode(&(-7i32).to_le_bytes(), DType::Int32).unwrap(),
            vec![-7.0]
        );
        assert_eq!(decode(&[0xfe], DType::Int8).unwrap(), vec![-2.0]);
        assert_eq!(
            decode(&[0x76, 0x8f], DType::Int4).unwrap(),
            vec![6.0, 7.0, -1.0, -8.0]
        );
        assert!(decode(&[0, 0, 0], DType::Float).is_err());
    }

    #[test]
    fn ratio_decides_pass() {
        let golden = [1.0, 2.0, 3.0, 4.0];
        let out = [1.0, 2.5, 3.0, f64::NAN];
        let strict = compare(&out, &golden, NUMPY).unwrap();
        assert_eq!(strict.mismatches.len(), 2);
        assert_eq!(
            strict.mismatches[0],
            Mismatch {
                index: 1,
                expected: 2.0,
                actual: 2.5
            }
        );
        assert_eq!(strict.mismatches[0].relative(), 0.25);
        assert!(!strict.passed());
        let loose = compare(
            &out,
            &golden,
            Tolerance {
                error_ratio: 0.5,
                ..NUMPY
            },
        )
        .unwrap();
        assert!(loose.passed());
        let text = strict.report(1).to_string();
        assert!(
            text.contains("2 of 4 elements not close (ratio 0.500000"),
            "{text}"
        );
        assert!(text.contains("FAIL"), "{text}");
        assert!(compare(&out[..3], &golden, NUMPY).is_err());
    }
}
