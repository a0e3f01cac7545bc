//! AscendDequant and AscendAntiQuant: bit-exact against a host emulation of the device's
//! instruction sequence (per-instruction f32/f16 arithmetic in the same order), the pages'
//! worked examples, the host helpers, and the error cases, on A2 and 310P.

use crate::ub_harness;

use ascendc::adv::common::Tmp;
use ascendc::adv::quantization::{
    ascend_antiquant, ascend_antiquant_max_min_tmp_size, ascend_antiquant_tmp_buffer_factor_size,
    ascend_dequant, ascend_dequant_max_min_tmp_size, ascend_dequant_scalar,
    ascend_dequant_tmp_buffer_factor_size, AntiQuantParams, AntiQuantShapeInfo, AntiQuantShapes,
    DeQuantMode, DequantExtent, DequantParams,
};
use ascendc::{bf16, f16, DType, Element, Int4, LocalTensor};
use ub_harness::*;

/// A small deterministic generator (xorshift).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// Uniform in [lo, hi).
    fn f(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * ((self.next() >> 40) as f32 / (1u64 << 24) as f32)
    }
    fn i(&mut self, lo: i32, hi: i32) -> i32 {
        (lo as i64 + (self.next() % (hi as i64 - lo as i64) as u64) as i64) as i32
    }
}

/// int32 sources with edge values: 0, ±1, the extremes, values rounding in float.
fn int_src(rng: &mut Rng, n: usize) -> Vec<i32> {
    let edges = [
        0,
        1,
        -1,
        i32::MAX,
        i32::MIN,
        16_777_217,
        -16_777_219,
        123_456_789,
        65_504,
        -65_520,
    ];
    (0..n)
        .map(|i| {
            if i < edges.len() {
                edges[i]
            } else if i % 3 == 0 {
                rng.i(-1 << 30, 1 << 30)
            } else {
                rng.i(-300, 300)
            }
        })
        .collect()
}

/// Float scales with edge values: ±0, a denormal, ±inf, NaN, large and small.
fn float_scales(rng: &mut Rng, n: usize) -> Vec<f32> {
    let edges = [
        2.2,
        -0.0,
        f32::INFINITY,
        f32::NAN,
        1e-40,
        f32::NEG_INFINITY,
        3.0e38,
        1e-3,
    ];
    (0..n)
        .map(|i| {
            if i < edges.len() {
                edges[i]
            } else {
                rng.f(-4.0, 4.0)
            }
        })
        .collect()
}

/// Bit-equality that takes any NaN as equal to any NaN.
fn same_f32(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

/// The output element type of a dequantisation, as bits comparable with the emulation.
trait Out: Element {
    fn of(x: f32) -> Self;
    fn same(a: Self, b: Self) -> bool;
}
impl Out for f32 {
    fn of(x: f32) -> f32 {
        x
    }
    fn same(a: f32, b: f32) -> bool {
        same_f32(a, b)
    }
}
impl Out for f16 {
    /// Rounded to nearest even, with the default fp16 saturation (±inf → ±65504, NaN → 0).
    fn of(x: f32) -> f16 {
        let h = f16::from_f32(x);
        if h.is_nan() {
            f16::ZERO
        } else if h.is_infinite() {
            f16::from_f32(65504.0f32.copysign(x))
        } else {
            h
        }
    }
    fn same(a: f16, b: f16) -> bool {
        a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
    }
}
impl Out for bf16 {
    /// Rounded to nearest even, with the default saturation (±inf → ±max, NaN → 0).
    fn of(x: f32) -> bf16 {
        let b = bf16::from_f32(x);
        if b.is_nan() {
            bf16::ZERO
        } else if b.is_infinite() {
            if x < 0.0 {
                bf16::MIN
            } else {
                bf16::MAX
            }
        } else {
            b
        }
    }
    fn same(a: bf16, b: bf16) -> bool {
        a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
    }
}

/// Host emulation of AscendDequant: `(index, value)` of every element written. `n`/`cal` after
/// the DEQUANT_WITH_SINGLE_ROW update; `count` elements of the source converted; `all` (the forms
/// without DequantParams) scales every converted element. `scale` is the float row as the device
/// holds it (see [`float_row`]); a float result is the product plus 0 (`Adds 0`).
fn dequant_host<D: Out>(
    src: &[i32],
    scale: &[f32],
    (n, cal): (usize, usize),
    count: usize,
    all: bool,
) -> Vec<(usize, D)> {
    let row = n.div_ceil(32 / D::SIZE) * (32 / D::SIZE);
    (0..count)
        .map(|e| {
            let (r, j) = (e / n, e % n);
            let x = src[e] as f32;
            let y = if all || j < cal { x * scale[j] } else { x };
            let y = if D::DTYPE == ascendc::DType::Float {
                y + 0.0
            } else {
                y
            };
            (r * row + j, D::of(y))
        })
        .collect()
}

/// The device's float copy of a scale row of `S`: a float row is copied by `Adds 0` (−0 → +0),
/// a bfloat16 one converted exactly, a uint64 one gathered as it is.
fn float_row<S: Element>(v: &[S]) -> Vec<f32> {
    v.iter()
        .map(|x| {
            let f = x.to_f64() as f32;
            if S::DTYPE == ascendc::DType::Float {
                f + 0.0
            } else {
                f
            }
        })
        .collect()
}

const FILL: f32 = 777.0;

/// Runs AscendDequant (scale row of `S`) on `product` and compares with the emulation.
#[allow(clippy::too_many_arguments)]
fn check_row<D: Out, S: Element>(
    product: &str,
    src: &[i32],
    scale: &[S],
    scale_f32: &[f32],
    extent: DequantExtent,
    mode: DeQuantMode,
    tmp_bytes: u32,
    expect: &[(usize, D)],
    dst_len: u32,
) {
    let got = run_p(product, |ub| {
        let s = ub.from(src);
        let sc = ub.from(scale);
        let d = ub.tensor::<D>(dst_len, D::from_f64(FILL as f64));
        let t = ub.tensor::<u8>(tmp_bytes, 0);
        ascend_dequant(&d, &s, &sc, Tmp::Shared(&t), extent, mode)?;
        d.to_vec()
    });
    let _ = scale_f32;
    let mut want = vec![D::from_f64(FILL as f64); dst_len as usize];
    for &(i, v) in expect {
        want[i] = v;
    }
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert!(
            D::same(*g, *w),
            "{product} {} ← {}: element {i}: got {:?}, want {:?}",
            D::DTYPE,
            S::DTYPE,
            g.to_f64(),
            w.to_f64()
        );
    }
}

/// Rows of `n` rounded up to 32 bytes of D, `m` of them.
fn dst_len<D: Element>(m: u32, n: u32) -> u32 {
    let b = 32 / D::SIZE as u32;
    m * n.div_ceil(b) * b
}

/// Every tensor-scale combination on A2 over shapes that exercise the chunk loop, its tail, the
/// 64-element repeats and the bitmask tail of a row.
fn dequant_row_cases<D: Out, S: Element>(product: &str, to_s: impl Fn(f32) -> S) {
    let mut rng = Rng(0x5eed_0001 ^ D::SIZE as u64);
    // (m, n, calCount, tmp bytes): min tmp, a chunk of a few rows, more than the source.
    let shapes = [
        (4u32, 8u32, 6u32, 4096u32),
        (5, 80, 70, (64 + 80 + 80 + 8) * 4),
        (7, 136, 136, (72 + 136 * 3) * 4),
        (3, 200, 129, 64 * 1024 / 4),
        (1, 64, 40, 2048),
    ];
    for &(m, n, cal, tmp) in &shapes {
        let src = int_src(&mut rng, (m * n) as usize);
        let sf = float_scales(&mut rng, n as usize);
        let sc: Vec<S> = sf.iter().map(|&x| to_s(x)).collect();
        let sf = float_row(&sc);
        let want = dequant_host::<D>(
            &src,
            &sf,
            (n as usize, cal as usize),
            (m * n) as usize,
            false,
        );
        check_row::<D, S>(
            product,
            &src,
            &sc,
            &sf,
            DequantExtent::Params(DequantParams {
                m,
                n,
                cal_count: cal,
            }),
            DeQuantMode::MultiRow,
            tmp,
            &want,
            dst_len::<D>(m, n),
        );
    }
}

#[test]
fn dequant_scale_row_is_bit_exact_on_a2() {
    dequant_row_cases::<f32, f32>("A2", |x| x);
    dequant_row_cases::<f32, bf16>("A2", bf16::from_f32);
    dequant_row_cases::<bf16, bf16>("A2", bf16::from_f32);
    dequant_row_cases::<bf16, f32>("A2", |x| x);
}

#[test]
fn dequant_scale_row_is_bit_exact_on_310p() {
    dequant_row_cases::<f32, f32>("310P", |x| x);
}

/// uint64 scales: the low word is the float scale, the high word ignored.
fn dequant_u64_case(product: &str) {
    let mut rng = Rng(77);
    for &(m, n, cal) in &[(4u32, 16u32, 16u32), (3, 72, 65)] {
        let src = int_src(&mut rng, (m * n) as usize);
        let sf = float_scales(&mut rng, n as usize);
        let sc: Vec<u64> = sf
            .iter()
            .map(|x| 0xdead_0000_0000_0000 | x.to_bits() as u64)
            .collect();
        let want = dequant_host::<f16>(
            &src,
            &sf,
            (n as usize, cal as usize),
            (m * n) as usize,
            false,
        );
        check_row::<f16, u64>(
            product,
            &src,
            &sc,
            &sf,
            DequantExtent::Params(DequantParams {
                m,
                n,
                cal_count: cal,
            }),
            DeQuantMode::MultiRow,
            4096,
            &want,
            dst_len::<f16>(m, n),
        );
    }
}

#[test]
fn dequant_uint64_scale_to_half_on_a2_and_310p() {
    dequant_u64_case("A2");
    dequant_u64_case("310P");
}

#[test]
fn dequant_scalar_scale_is_bit_exact() {
    fn case<D: Out, S: Element>(product: &str, s: f32) {
        let mut rng = Rng(99);
        for &(m, n, cal, tmp) in &[(4u32, 8u32, 5u32, 1024u32), (6, 96, 90, 2048)] {
            let src = int_src(&mut rng, (m * n) as usize);
            let sv = S::from_f64(s as f64);
            // The duplicated scalar is copied by `Adds 0` too.
            let row = vec![sv.to_f64() as f32 + 0.0; n as usize];
            let want = dequant_host::<D>(
                &src,
                &row,
                (n as usize, cal as usize),
                (m * n) as usize,
                false,
            );
            let len = dst_len::<D>(m, n);
            let got = run_p(product, |ub| {
                let x = ub.from(&src);
                let d = ub.tensor::<D>(len, D::from_f64(FILL as f64));
                let t = ub.tensor::<u8>(tmp, 0);
                let p = DequantParams {
                    m,
                    n,
                    cal_count: cal,
                };
                ascend_dequant_scalar(&d, &x, sv, Tmp::Shared(&t), p, DeQuantMode::MultiRow)?;
                d.to_vec()
            });
            for &(i, w) in &want {
                assert!(
                    D::same(got[i], w),
                    "{product} {}: element {i}: got {:?}, want {:?}",
                    D::DTYPE,
                    got[i].to_f64(),
                    w.to_f64()
                );
            }
        }
    }
    case::<f32, f32>("A2", 2.2);
    case::<f32, bf16>("A2", -0.37);
    case::<bf16, bf16>("A2", 1.5e-3);
    case::<bf16, f32>("A2", 3.3);
    case::<f32, f32>("310P", -7.25);
}

/// DEQUANT_WITH_SINGLE_ROW turns {1, 16, 8} into {2, 8, 8} for a float result (8 floats are a
/// block); with bfloat16 (16 to a block) or DEQUANT_WITH_MULTI_ROW it stays one row.
#[test]
fn dequant_single_row_mode_splits_one_row() {
    let src: Vec<i32> = (1..=16).collect();
    let sc: Vec<f32> = (0..16).map(|i| 1.0 + i as f32).collect();
    let p = DequantParams {
        m: 1,
        n: 16,
        cal_count: 8,
    };
    let run_mode = |mode| {
        run(|ub| {
            let x = ub.from(&src);
            let s = ub.from(&sc);
            let d = ub.tensor::<f32>(16, 0.0);
            let t = ub.tensor::<u8>(1024, 0);
            ascend_dequant(&d, &x, &s, Tmp::Shared(&t), DequantExtent::Params(p), mode)?;
            d.to_vec()
        })
    };
    let single = run_mode(DeQuantMode::SingleRow);
    let multi = run_mode(DeQuantMode::MultiRow);
    for j in 0..16 {
        let x = (j + 1) as f32;
        assert_eq!(single[j], x * sc[j % 8], "single row, element {j}");
        let m = if j < 8 { x * sc[j] } else { x };
        assert_eq!(multi[j], m, "multi row, element {j}");
    }
    let bf = run(|ub| {
        let x = ub.from(&src);
        let s = ub.from(&sc);
        let d = ub.tensor::<bf16>(16, bf16::ZERO);
        let t = ub.tensor::<u8>(1024, 0);
        ascend_dequant(
            &d,
            &x,
            &s,
            Tmp::Shared(&t),
            DequantExtent::Params(p),
            DeQuantMode::SingleRow,
        )?;
        d.to_vec()
    });
    for (j, v) in bf.iter().enumerate().skip(8) {
        assert_eq!(v.to_f32(), (j + 1) as f32, "bfloat16 stays one row: {j}");
    }
}

/// The forms without DequantParams: every converted element is scaled, the partial last row too.
#[test]
fn dequant_count_and_whole_forms() {
    let mut rng = Rng(5);
    let src = int_src(&mut rng, 96);
    let sf = float_scales(&mut rng, 16);
    for (extent, count) in [
        (DequantExtent::Count(53), 53usize),
        (DequantExtent::Whole, 96),
    ] {
        let want = dequant_host::<f32>(&src, &float_row(&sf), (16, 16), count, true);
        // Small chunks (two rows) so the tail holds a partial row.
        check_row::<f32, f32>(
            "A2",
            &src,
            &sf,
            &sf,
            extent,
            DeQuantMode::SingleRow,
            (64 + 16 + 32) * 4,
            &want,
            96,
        );
    }
}

/// The page's worked example (4 × 8 int32, calCount 6, float scale row, float result).
#[test]
fn dequant_page_example() {
    let src: Vec<i32> = (-16..16).collect();
    let sc = [2.2f32, -2.2, 2.2, -2.2, 2.2, -2.2, 0.0, 0.0];
    let got = run(|ub| {
        let x = ub.from(&src);
        let s = ub.from(&sc);
        let d = ub.tensor::<f32>(32, 0.0);
        let t = ub.tensor::<u8>(1024, 0);
        let p = DequantParams {
            m: 4,
            n: 8,
            cal_count: 6,
        };
        ascend_dequant(
            &d,
            &x,
            &s,
            Tmp::Shared(&t),
            DequantExtent::Params(p),
            DeQuantMode::SingleRow,
        )?;
        d.to_vec()
    });
    let want = [
        [-35.2, 33., -30.8, 28.6, -26.4, 24.2, -10., -9.],
        [-17.6, 15.4, -13.2, 11., -8.8, 6.6, -2., -1.],
        [0., -2.2, 4.4, -6.6, 8.8, -11., 6., 7.],
        [17.6, -19.8, 22., -24.2, 26.4, -28.6, 14., 15.],
    ];
    for (i, w) in want.iter().flatten().enumerate() {
        assert!((got[i] - w).abs() < 1e-5, "element {i}: {} vs {w}", got[i]);
    }
}

#[test]
fn dequant_errors() {
    let e = error_on("A2", |ub| {
        let x = ub.tensor::<i32>(64, 1);
        let s = ub.tensor::<f32>(64, 1.0);
        let d = ub.tensor::<f32>(64, 0.0);
        let t = ub.tensor::<u8>(64, 0);
        let p = DequantParams {
            m: 1,
            n: 64,
            cal_count: 64,
        };
        ascend_dequant(
            &d,
            &x,
            &s,
            Tmp::Shared(&t),
            DequantExtent::Params(p),
            DeQuantMode::MultiRow,
        )
    });
    assert!(e.message.contains("too small"), "{e}");
    let e = error_on("310P", |ub| {
        let x = ub.tensor::<i32>(64, 1);
        let s = ub.tensor::<bf16>(64, bf16::ONE);
        let d = ub.tensor::<f32>(64, 0.0);
        let t = ub.tensor::<u8>(1024, 0);
        let p = DequantParams {
            m: 1,
            n: 64,
            cal_count: 64,
        };
        ascend_dequant(
            &d,
            &x,
            &s,
            Tmp::Shared(&t),
            DequantExtent::Params(p),
            DeQuantMode::MultiRow,
        )
    });
    assert!(e.message.contains("not supported on Ascend310P"), "{e}");
    let e = error_on("A2", |ub| {
        let x = ub.tensor::<i32>(64, 1);
        let d = ub.tensor::<f16>(240, f16::ZERO);
        let t = ub.tensor::<u8>(1024, 0);
        let p = DequantParams {
            m: 1,
            n: 64,
            cal_count: 64,
        };
        ascend_dequant_scalar(&d, &x, 1.0f32, Tmp::Shared(&t), p, DeQuantMode::MultiRow)
    });
    assert!(e.message.contains("dstT = half"), "{e}");
    for (p, what) in [
        (
            DequantParams {
                m: 2,
                n: 12,
                cal_count: 4,
            },
            "multiple of 8",
        ),
        (
            DequantParams {
                m: 2,
                n: 16,
                cal_count: 17,
            },
            "params.calCount",
        ),
        (
            DequantParams {
                m: 9,
                n: 8,
                cal_count: 8,
            },
            "exceeds the 64 elements",
        ),
        (
            DequantParams {
                m: 2,
                n: 32,
                cal_count: 0,
            },
            "params.calCount",
        ),
    ] {
        let e = error_on("A2", |ub| {
            let x = ub.tensor::<i32>(64, 1);
            let s = ub.tensor::<f32>(64, 1.0);
            let d = ub.tensor::<f32>(64, 0.0);
            let t = ub.tensor::<u8>(1024, 0);
            ascend_dequant(
                &d,
                &x,
                &s,
                Tmp::Shared(&t),
                DequantExtent::Params(p),
                DeQuantMode::MultiRow,
            )
        });
        assert!(e.message.contains(what), "{what}: {e}");
        assert_eq!(e.api, "AscendDequant");
    }
    // bfloat16 rows of 8 int32 are padded to 16: 4 rows need 64 elements.
    let e = error_on("A2", |ub| {
        let x = ub.tensor::<i32>(32, 1);
        let s = ub.tensor::<f32>(8, 1.0);
        let d = ub.tensor::<bf16>(48, bf16::ZERO);
        let t = ub.tensor::<u8>(1024, 0);
        let p = DequantParams {
            m: 4,
            n: 8,
            cal_count: 8,
        };
        ascend_dequant(
            &d,
            &x,
            &s,
            Tmp::Shared(&t),
            DequantExtent::Params(p),
            DeQuantMode::MultiRow,
        )
    });
    assert!(e.message.contains("need 64"), "{e}");
    let e = error_on("A2", |ub| {
        let x = ub.tensor::<i32>(40, 1);
        let s = ub.tensor::<f32>(16, 1.0);
        let d = ub.tensor::<f32>(48, 0.0);
        let t = ub.tensor::<u8>(1024, 0);
        ascend_dequant(
            &d,
            &x,
            &s,
            Tmp::Shared(&t),
            DequantExtent::Whole,
            DeQuantMode::MultiRow,
        )
    });
    assert!(e.message.contains("multiple of the 16"), "{e}");
}

#[test]
fn dequant_host_helpers() {
    // [2, 1024] int32: (64 + 2048 + 1032) · 4 and (64 + 1024 + 1032) · 4.
    assert_eq!(
        ascend_dequant_max_min_tmp_size(&[2, 1024], 4).unwrap(),
        (12576, 8480)
    );
    assert_eq!(
        ascend_dequant_max_min_tmp_size(&[128, 32], 4).unwrap(),
        ((64 + 4096 + 40) * 4, (64 + 32 + 40) * 4)
    );
    assert_eq!(
        ascend_dequant_max_min_tmp_size(&[256], 4).unwrap(),
        ((64 + 256 + 264) * 4, (64 + 256 + 264) * 4)
    );
    assert!(ascend_dequant_max_min_tmp_size(&[2, 2, 2], 4).is_err());
    assert!(ascend_dequant_max_min_tmp_size(&[2, 8], 2).is_err());
    assert_eq!(ascend_dequant_tmp_buffer_factor_size(&[2, 1024]), (1, 1096));
    assert_eq!(ascend_dequant_tmp_buffer_factor_size(&[1024]), (2, 72));
    assert_eq!(ascend_dequant_tmp_buffer_factor_size(&[1, 2, 3]), (0, 0));
}

// ---------------------------------------------------------------- AscendAntiQuant

/// Half arithmetic as the vector unit does it: the f32 result rounded once, saturated.
fn hround(x: f32) -> f16 {
    <f16 as Out>::of(x)
}

/// How a coefficient pair is applied to a source value: in half for a half result, in float
/// then `CAST_RINT` to bfloat16 otherwise.
fn apply<D: Out>(x: i8, offset: Option<f32>, scale: f32) -> D {
    if D::DTYPE == DType::Half {
        let mut h = f16::from_f32(x as f32);
        if let Some(o) = offset {
            h = hround(h.to_f32() + f16::from_f32(o).to_f32());
        }
        let h = hround(h.to_f32() * f16::from_f32(scale).to_f32());
        D::from_f64(h.to_f64())
    } else {
        let mut v = x as f32;
        if let Some(o) = offset {
            v += o;
        }
        D::of(v * scale)
    }
}

/// Coefficients representable in D (half or bfloat16) with edge values.
fn coefs<D: Element>(rng: &mut Rng, n: usize, lo: f32, hi: f32) -> Vec<D> {
    (0..n)
        .map(|i| match i {
            0 => D::from_f64(0.0),
            1 => D::from_f64(-0.0),
            2 => D::from_f64(1000.0),
            3 => D::from_f64(6e-8),
            _ => D::from_f64(rng.f(lo, hi) as f64),
        })
        .collect()
}

fn int8_src(rng: &mut Rng, n: usize) -> Vec<i8> {
    (0..n)
        .map(|i| match i {
            0 => -128,
            1 => 127,
            2 => 0,
            _ => rng.i(-128, 128) as i8,
        })
        .collect()
}

/// A source tensor: int8 as it is, or packed to int4b_t (values clamped to [-8, 7]).
trait Src: ascendc::TensorElement {
    fn value(x: i8) -> i8;
    fn make(ub: &mut Ub, v: &[i8]) -> LocalTensor<Self>;
}
impl Src for i8 {
    fn value(x: i8) -> i8 {
        x
    }
    fn make(ub: &mut Ub, v: &[i8]) -> LocalTensor<i8> {
        ub.from(v)
    }
}
impl Src for Int4 {
    fn value(x: i8) -> i8 {
        x >> 4
    }
    fn make(ub: &mut Ub, v: &[i8]) -> LocalTensor<Int4> {
        let bytes: Vec<u8> = v
            .chunks(2)
            .map(|p| {
                ((<Int4 as Src>::value(p[0]) as u8) & 0xF)
                    | (((<Int4 as Src>::value(p[1]) as u8) & 0xF) << 4)
            })
            .collect();
        ub.from(&bytes).reinterpret_cast()
    }
}

/// Which coefficients a test passes.
#[derive(Clone, Copy, PartialEq)]
enum Form {
    Channel,
    ChannelScale,
    Tensor,
    TensorScale,
}

struct AqCase {
    /// Rows and columns of the source as stored (`[K, N]`, or `[N, K]` transposed).
    rows: u32,
    cols: u32,
    transpose: bool,
    form: Form,
    /// Scale (and offset) shape `[h, w]`.
    coef: (u32, u32),
    tmp: u32,
}

/// Runs one AscendAntiQuant case and compares with the emulation of the formula the device's
/// path computes.
fn antiquant_case<S: Src, D: Out>(product: &str, c: &AqCase, seed: u64) {
    let mut rng = Rng(seed);
    let total = (c.rows * c.cols) as usize;
    let raw = int8_src(&mut rng, total);
    let (h, w) = c.coef;
    let offs: Vec<D> = coefs(&mut rng, (h * w) as usize, -3.0, 3.0);
    let scs: Vec<D> = coefs(&mut rng, (h * w) as usize, -2.0, 2.0);
    let (ov, sv) = (D::from_f64(1.5), D::from_f64(-0.75));
    let k = if c.transpose { c.cols } else { c.rows };
    let shape = AntiQuantShapeInfo {
        offset_height: h,
        offset_width: w,
        scale_height: h,
        scale_width: w,
    };
    let got = run_p(product, |ub| {
        let x = S::make(ub, &raw);
        let o = ub.from(&offs);
        let s = ub.from(&scs);
        let d = ub.tensor::<D>(total as u32, D::from_f64(FILL as f64));
        let t = ub.tensor::<u8>(c.tmp.max(32), 0);
        let p = match c.form {
            Form::Channel => AntiQuantParams::Channel {
                offset: &o,
                scale: &s,
            },
            Form::ChannelScale => AntiQuantParams::ChannelScale { scale: &s },
            Form::Tensor => AntiQuantParams::Tensor {
                offset: ov,
                scale: sv,
            },
            Form::TensorScale => AntiQuantParams::TensorScale { scale: sv },
        };
        ascend_antiquant(&d, &x, p, Tmp::Shared(&t), k, c.transpose, shape)?;
        d.to_vec()
    });
    let f = |v: D| v.to_f64() as f32;
    for r in 0..c.rows as usize {
        for col in 0..c.cols as usize {
            let e = r * c.cols as usize + col;
            let x = S::value(raw[e]);
            // The coefficient index: per column group of a row (transposed: per row and group of
            // columns; not transposed: per group of rows and column).
            let ci = if c.transpose {
                r * w as usize + col / (k as usize / w as usize)
            } else {
                (r / (k as usize / h as usize)) * w as usize + col
            };
            let want: D = match c.form {
                Form::Channel => apply(x, Some(f(offs[ci])), f(scs[ci])),
                Form::ChannelScale => apply(x, None, f(scs[ci])),
                Form::Tensor => apply(x, Some(f(ov)), f(sv)),
                Form::TensorScale => apply(x, None, f(sv)),
            };
            assert!(
                D::same(got[e], want),
                "{product} {}→{} {}: [{r}, {col}] (x = {x}): got {:?}, want {:?}",
                S::DTYPE,
                D::DTYPE,
                if c.transpose { "transposed" } else { "" },
                got[e].to_f64(),
                want.to_f64()
            );
        }
    }
}

fn cases_not_transposed() -> Vec<AqCase> {
    let c = |rows, cols, form, coef, tmp| AqCase {
        rows,
        cols,
        transpose: false,
        form,
        coef,
        tmp,
    };
    vec![
        // The vendor example's shape, a column tail, more than 255 rows.
        c(8, 128, Form::Channel, (1, 128), 8 * 1024),
        c(6, 160, Form::Channel, (1, 160), 8 * 1024),
        c(300, 64, Form::Channel, (1, 64), 2 * 64 * 4 + 64 * 300 * 4),
        c(8, 128, Form::ChannelScale, (2, 128), 4096),
        c(4, 256, Form::Tensor, (1, 1), 1024),
        c(4, 256, Form::TensorScale, (1, 1), 1024),
    ]
}

#[test]
fn antiquant_not_transposed_is_bit_exact_on_a2() {
    for (i, c) in cases_not_transposed().iter().enumerate() {
        antiquant_case::<i8, f16>("A2", c, 10 + i as u64);
        antiquant_case::<i8, bf16>("A2", c, 20 + i as u64);
        antiquant_case::<Int4, f16>("A2", c, 30 + i as u64);
        if c.cols % 64 == 0 {
            // (An int4b_t column tail of the bfloat16 path keeps the device's stride quirk.)
            antiquant_case::<Int4, bf16>("A2", c, 40 + i as u64);
        }
    }
}

#[test]
fn antiquant_not_transposed_is_bit_exact_on_310p() {
    for (i, c) in cases_not_transposed().iter().enumerate() {
        antiquant_case::<i8, f16>("310P", c, 50 + i as u64);
    }
}

/// Bfloat16 per channel with a buffer below the fast path's: a row at a time through float.
#[test]
fn antiquant_bf16_small_buffer_takes_the_row_path() {
    let c = AqCase {
        rows: 4,
        cols: 128,
        transpose: false,
        form: Form::Channel,
        coef: (1, 128),
        tmp: 1024,
    };
    antiquant_case::<i8, bf16>("A2", &c, 7);
}

fn cases_transposed() -> Vec<AqCase> {
    let c = |rows, cols, form, coef, tmp| AqCase {
        rows,
        cols,
        transpose: true,
        form,
        coef,
        tmp,
    };
    vec![
        // K < 128 (the tail path alone), K = 128 + 32 (strips and tail), float strips.
        c(16, 64, Form::Channel, (16, 1), 80 * 16 * 4),
        c(32, 160, Form::Channel, (32, 1), 80 * 32 * 4),
        c(16, 128, Form::ChannelScale, (16, 1), 80 * 16 * 4),
        c(16, 256, Form::Tensor, (1, 1), 16 * 256 * 4),
    ]
}

#[test]
fn antiquant_transposed_is_bit_exact() {
    for (i, c) in cases_transposed().iter().enumerate() {
        antiquant_case::<i8, f16>("A2", c, 60 + i as u64);
        if c.cols % 64 == 0 {
            // int4b_t rows of whole 32-byte blocks.
            antiquant_case::<Int4, f16>("A2", c, 65 + i as u64);
        }
        antiquant_case::<i8, bf16>("A2", c, 70 + i as u64);
        antiquant_case::<i8, f16>("310P", c, 80 + i as u64);
    }
    // K not a multiple of 64 (bfloat16) and a buffer below the broadcast's (half): per row and
    // group with scalar coefficients; groups of 32 columns.
    let c = AqCase {
        rows: 4,
        cols: 96,
        transpose: true,
        form: Form::Channel,
        coef: (4, 3),
        tmp: 1024,
    };
    antiquant_case::<i8, bf16>("A2", &c, 90);
    let c = AqCase {
        tmp: 32,
        cols: 64,
        coef: (4, 2),
        ..c
    };
    antiquant_case::<i8, f16>("A2", &c, 91);
}

/// The page's worked example: src all 1, offset 2, scale 3 → 9.
#[test]
fn antiquant_page_example() {
    let got = run(|ub| {
        let x = ub.tensor::<i8>(128, 1);
        let o = ub.tensor::<f16>(64, f16::from_f32(2.0));
        let s = ub.tensor::<f16>(64, f16::from_f32(3.0));
        let d = ub.tensor::<f16>(128, f16::ZERO);
        let t = ub.tensor::<u8>(1024, 0);
        let shape = AntiQuantShapeInfo {
            offset_height: 1,
            offset_width: 64,
            scale_height: 1,
            scale_width: 64,
        };
        let p = AntiQuantParams::Channel {
            offset: &o,
            scale: &s,
        };
        ascend_antiquant(&d, &x, p, Tmp::Shared(&t), 2, false, shape)?;
        d.to_vec()
    });
    assert!(got.iter().all(|v| v.to_f32() == 9.0), "{got:?}");
}

#[test]
fn antiquant_errors() {
    let go = |p: &'static str, k: u32, transpose: bool| {
        error_on(p, move |ub| {
            let x = ub.tensor::<i8>(128, 1);
            let d = ub.tensor::<bf16>(128, bf16::ZERO);
            let t = ub.tensor::<u8>(1024, 0);
            let p = AntiQuantParams::TensorScale { scale: bf16::ONE };
            ascend_antiquant(
                &d,
                &x,
                p,
                Tmp::Shared(&t),
                k,
                transpose,
                AntiQuantShapeInfo::default(),
            )
        })
    };
    assert!(go("310P", 2, false)
        .message
        .contains("not supported on Ascend310P"));
    assert!(go("A2", 0, false).message.contains("`k` = 0"));
    assert!(go("A2", 3, false).message.contains("divide"));
    assert!(go("A2", 16, true).message.contains("multiple of 32 bytes"));
    let e = error_on("A2", |ub| {
        let x = ub.tensor::<i8>(128, 1);
        let d = ub.tensor::<bf16>(128, bf16::ZERO);
        let s = ub.tensor::<bf16>(64, bf16::ONE);
        let t = ub.tensor::<u8>(1024, 0);
        let p = AntiQuantParams::ChannelScale { scale: &s };
        ascend_antiquant(
            &d,
            &x,
            p,
            Tmp::Shared(&t),
            2,
            false,
            AntiQuantShapeInfo::default(),
        )
    });
    assert!(e.message.contains("shape is unknown"), "{e}");
    let e = error_on("A2", |ub| {
        let x = ub.tensor::<i8>(64, 1);
        let d = ub.tensor::<bf16>(64, bf16::ZERO);
        let t = ub.tensor::<u8>(4, 0);
        let p = AntiQuantParams::TensorScale { scale: bf16::ONE };
        ascend_antiquant(
            &d,
            &x,
            p,
            Tmp::Shared(&t),
            2,
            false,
            AntiQuantShapeInfo::default(),
        )
    });
    assert!(e.message.contains("too small"), "{e}");
}

#[test]
fn antiquant_host_helpers() {
    let s = |src: &'static [u32], scale: &'static [u32], transpose, half_output| AntiQuantShapes {
        src,
        scale,
        transpose,
        fp4_input: false,
        half_output,
    };
    // Half results need none.
    assert_eq!(
        ascend_antiquant_max_min_tmp_size(&s(&[8, 128], &[128], false, true)),
        (0, 0)
    );
    // Per channel [K, N]: 8 · N + 256 · K.
    assert_eq!(
        ascend_antiquant_max_min_tmp_size(&s(&[8, 128], &[128], false, false)),
        (128 * 8 + 256 * 8, 128 * 8 + 256 * 8)
    );
    // Per channel transposed: 80 · N floats.
    assert_eq!(
        ascend_antiquant_max_min_tmp_size(&s(&[16, 64], &[16, 1], true, false)),
        (80 * 16 * 4, 80 * 16 * 4)
    );
    // Per tensor: 4 bytes per element, at least 1024.
    assert_eq!(
        ascend_antiquant_max_min_tmp_size(&s(&[4, 256], &[1], false, false)),
        (4096, 1024)
    );
    assert_eq!(
        ascend_antiquant_tmp_buffer_factor_size(&s(&[4, 256], &[1], false, false)),
        (1, 0)
    );
    assert_eq!(
        ascend_antiquant_tmp_buffer_factor_size(&s(&[16, 64], &[16, 1], true, false)),
        (0, 80 * 16 * 4)
    );
    assert_eq!(
        ascend_antiquant_tmp_buffer_factor_size(&s(&[4, 256], &[1], false, true)),
        (0, 0)
    );
}

// ---------------------------------------------------------------- error against float64

/// (max abs error, max relative error where |exact| ≥ 1e-2).
fn errors(got: &[f64], exact: &[f64]) -> (f64, f64) {
    let mut m = (0.0f64, 0.0f64);
    for (g, e) in got.iter().zip(exact) {
        let a = (g - e).abs();
        m.0 = m.0.max(a);
        if e.abs() >= 1e-2 {
            m.1 = m.1.max(a / e.abs());
        }
    }
    m
}

/// The docs' error table: 4096 values per row against float64; run with `--nocapture` to print
/// it. The bounds are the roundings of each path (float: 2 roundings of 2^-24; bfloat16 one of
/// 2^-8; half one of 2^-11, AntiQuant half two).
#[test]
fn error_against_float64() {
    let mut rng = Rng(2024);
    let (m, n) = (32u32, 128u32);
    let src: Vec<i32> = (0..m * n).map(|_| rng.i(-(1 << 26), 1 << 26)).collect();
    let small: Vec<i32> = (0..m * n).map(|_| rng.i(-30000, 30000)).collect();
    let sc: Vec<f32> = (0..n).map(|_| rng.f(-2.0, 2.0)).collect();
    let p = DequantParams { m, n, cal_count: n };
    fn go<D: Element>(x: &[i32], sc: &[f32], p: DequantParams) -> Vec<f64> {
        let len = p.m * p.n;
        run(|ub| {
            let s = ub.from(x);
            let c = ub.from(sc);
            let d = ub.tensor::<D>(len, D::default());
            let t = ub.tensor::<u8>(8192, 0);
            ascend_dequant(
                &d,
                &s,
                &c,
                Tmp::Shared(&t),
                DequantExtent::Params(p),
                DeQuantMode::MultiRow,
            )?;
            Ok(d.to_vec()?.iter().map(|v| v.to_f64()).collect())
        })
    }
    let exact = |x: &[i32]| -> Vec<f64> {
        x.iter()
            .enumerate()
            .map(|(i, &v)| v as f64 * sc[i % n as usize] as f64)
            .collect()
    };
    let f = errors(&go::<f32>(&src, &sc, p), &exact(&src));
    let b = errors(&go::<bf16>(&src, &sc, p), &exact(&src));
    println!("| AscendDequant | int32 → float (float scale) | {:.3e} | {:.3e} | int32 in ±2^26, scale in ±2 |", f.0, f.1);
    println!("| AscendDequant | int32 → bfloat16 (float scale) | {:.3e} | {:.3e} | int32 in ±2^26, scale in ±2 |", b.0, b.1);
    assert!(f.1 <= 2.0 * 2f64.powi(-24) * 1.01 && b.1 <= 2f64.powi(-8));
    // half through uint64 scales; results within the half range.
    let sc64: Vec<u64> = sc.iter().map(|v| v.to_bits() as u64).collect();
    let hs = run(|ub| {
        let s = ub.from(&small);
        let c = ub.from(&sc64);
        let d = ub.tensor::<f16>(m * n, f16::ZERO);
        let t = ub.tensor::<u8>(8192, 0);
        ascend_dequant(
            &d,
            &s,
            &c,
            Tmp::Shared(&t),
            DequantExtent::Params(p),
            DeQuantMode::MultiRow,
        )?;
        Ok(d.to_vec()?.iter().map(|v| v.to_f64()).collect::<Vec<_>>())
    });
    let h = errors(&hs, &exact(&small));
    println!("| AscendDequant | int32 → half (uint64 scale) | {:.3e} | {:.3e} | int32 in ±30000, scale in ±2 |", h.0, h.1);
    assert!(h.1 <= 2f64.powi(-11) * 1.01);
    // AscendAntiQuant per channel, half and bfloat16.
    let q: Vec<i8> = (0..4096).map(|_| rng.i(-128, 128) as i8).collect();
    let (k, cols) = (32u32, 128u32);
    let offs: Vec<f32> = (0..cols).map(|_| rng.f(-4.0, 4.0)).collect();
    let scs: Vec<f32> = (0..cols).map(|_| rng.f(-0.1, 0.1)).collect();
    fn aq<D: Element>(q: &[i8], o: &[f32], s: &[f32], k: u32) -> (Vec<f64>, Vec<f32>, Vec<f32>) {
        let ov: Vec<D> = o.iter().map(|&v| D::from_f64(v as f64)).collect();
        let sv: Vec<D> = s.iter().map(|&v| D::from_f64(v as f64)).collect();
        let out = run(|ub| {
            let x = ub.from(q);
            let oo = ub.from(&ov);
            let ss = ub.from(&sv);
            let d = ub.tensor::<D>(q.len() as u32, D::default());
            let t = ub.tensor::<u8>(32 * 1024, 0);
            let p = AntiQuantParams::Channel {
                offset: &oo,
                scale: &ss,
            };
            let shape = AntiQuantShapeInfo {
                offset_height: 1,
                offset_width: ov.len() as u32,
                scale_height: 1,
                scale_width: sv.len() as u32,
            };
            ascend_antiquant(&d, &x, p, Tmp::Shared(&t), k, false, shape)?;
            Ok(d.to_vec()?.iter().map(|v| v.to_f64()).collect::<Vec<_>>())
        });
        let f = |v: &[D]| v.iter().map(|x| x.to_f64() as f32).collect();
        (out, f(&ov), f(&sv))
    }
    for (name, (got, o, s)) in [
        ("int8 → half", aq::<f16>(&q, &offs, &scs, k)),
        ("int8 → bfloat16", aq::<bf16>(&q, &offs, &scs, k)),
    ] {
        let exact: Vec<f64> = q
            .iter()
            .enumerate()
            .map(|(i, &x)| (x as f64 + o[i % 128] as f64) * s[i % 128] as f64)
            .collect();
        let e = errors(&got, &exact);
        println!("| AscendAntiQuant | {name} (per channel) | {:.3e} | {:.3e} | int8, offset in ±4, scale in ±0.1 |", e.0, e.1);
        assert!(e.1 <= 2.0 * 2f64.powi(-if name.ends_with("half") { 11 } else { 8 }) * 1.01 + 1e-3);
    }
}
