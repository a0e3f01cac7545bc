//! Element-wise numerics: test-vectors.md N1–N11 and C1–C8, numerics.md §3.4 and §6.1,
//! vector-ops.md §7 examples 1–6.

#![allow(clippy::needless_range_loop)]

use crate::ub_harness;
use ascendc::prelude::*;
use ub_harness::*;

/// A level-2 binary op on half.
type Op = fn(&LocalTensor<f16>, &LocalTensor<f16>, &LocalTensor<f16>, i32) -> Result<()>;

/// `op(a, b)` on one half lane, level 2, returning the result bits.
fn half2(inf_nan: bool, a: f16, b: f16, op: Op) -> u16 {
    let f = move |ub: &mut Ub| {
        let (x, y, d) = (ub.from(&[a]), ub.from(&[b]), ub.tensor(16, h(0.0)));
        op(&d, &x, &y, 1)?;
        d.get_value(0)
    };
    let r = if inf_nan { run_inf(f) } else { run(f) };
    r.to_bits()
}

#[test]
fn n1_to_n3_round_to_nearest_even_and_example_1() {
    let out = run(|ub| {
        let a = ub.from(&[h(2048.0), h(2050.0), f16::from_bits(0x2E66)]);
        let b = ub.from(&[h(1.0), h(1.0), f16::from_bits(0x3266)]);
        let d = ub.tensor(3, h(0.0));
        add(&d, &a, &b, 3)?;
        d.to_vec()
    });
    assert_eq!(bits16(&out), [0x6800, 0x6802, 0x34CC]);
}

#[test]
fn n4_n5_n6_n7_n8_overflow_modes() {
    let addf: Op = add;
    let mulf: Op = mul;
    let inf = f16::INFINITY;
    let cases: [(f16, f16, Op, u16, u16); 8] = [
        (h(65504.0), h(16.0), addf, 0x7C00, 0x7BFF),
        (h(65504.0), h(15.0), addf, 0x7BFF, 0x7BFF),
        (h(60000.0), h(10000.0), addf, 0x7C00, 0x7BFF),
        (h(300.0), h(-300.0), mulf, 0xFC00, 0xFBFF),
        (inf, h(1.0), addf, 0x7C00, 0x7BFF),
        (h(1e-4), h(1e-4), mulf, 0x0000, 0x0000),
        (f16::from_bits(0x0400), h(0.5), mulf, 0x0200, 0x0200),
        (h(2048.0), h(1.0), addf, 0x6800, 0x6800),
    ];
    for (a, b, op, ieee, sat) in cases {
        assert_eq!(half2(true, a, b, op), ieee, "{a} {b} Inf/NaN mode");
        assert_eq!(half2(false, a, b, op), sat, "{a} {b} saturation mode");
    }
    // N7: inf + (−inf) = NaN / 0.
    let nan = half2(true, inf, f16::NEG_INFINITY, addf);
    assert!(f16::from_bits(nan).is_nan());
    assert_eq!(half2(false, inf, f16::NEG_INFINITY, addf), 0x0000);
}

#[test]
fn saturation_flag_switches_at_run_time_on_a2() {
    let out = run(|ub| {
        let a = ub.from(&[h(65504.0)]);
        let b = ub.from(&[h(16.0)]);
        let d = ub.tensor(2, h(0.0));
        set_saturation_flag(false)?;
        add(&d, &a, &b, 1)?;
        let ieee = d.get_value(0)?;
        set_saturation_flag(true)?;
        add(&d, &a, &b, 1)?;
        Ok((ieee, d.get_value(0)?))
    });
    assert_eq!((out.0.to_bits(), out.1.to_bits()), (0x7C00, 0x7BFF));
}

#[test]
fn float_never_saturates() {
    let out = run(|ub| {
        let a = ub.from(&[f32::MAX, 1.0]);
        let b = ub.from(&[f32::MAX, 0.0]);
        let d = ub.tensor(2, 0.0f32);
        add(&d, &a, &b, 2)?;
        let s = d.get_value(0)?;
        div(&d, &a, &b, 2)?;
        Ok((s, d.get_value(1)?))
    });
    assert_eq!(out.0, f32::INFINITY);
    assert_eq!(out.1, f32::INFINITY);
}

#[test]
fn n9_int16_wraps() {
    let out = run(|ub| {
        let a = ub.from(&[32767i16, -32768]);
        let b = ub.from(&[1i16, 1]);
        let d = ub.tensor(2, 0i16);
        add(&d, &a, &b, 2)?;
        let s = d.get_value(0)?;
        sub(&d, &b, &a, 2)?;
        Ok((s, d.get_value(1)?))
    });
    assert_eq!(out.0 as u16, 0x8000);
    assert_eq!(out.1, -32767);
}

#[test]
fn n10_n11_shifts() {
    let out = run(|ub| {
        let x = ub.from(&[0xAAAAu16 as i16; 16]);
        let d = ub.tensor(16, 0i16);
        shift_left(&d, &x, 1, 16)?;
        let s1 = d.get_value(0)?;
        shift_left(&d, &x, 3, 16)?;
        let s3 = d.get_value(0)?;
        let y = ub.from(&[17i16; 16]);
        shift_right_l0(&d, &y, 5, 16u64, 1, UnaryRepeatParams::default(), true)?;
        let r = d.get_value(0)?;
        shift_right(&d, &y, 5, 16)?;
        Ok((s1 as u16, s3 as u16, r, d.get_value(0)?))
    });
    assert_eq!(out, (0xD554, 0xD550, 1, 0));
}

#[test]
fn shifts_unsigned_and_full_width() {
    let out = run(|ub| {
        let x = ub.from(&[0x8001u16; 16]);
        let d = ub.tensor(16, 0u16);
        shift_left(&d, &x, 1, 16)?;
        let l = d.get_value(0)?;
        shift_right(&d, &x, 16, 16)?;
        let r = d.get_value(0)?;
        let y = ub.from(&[-8i32; 8]);
        let e = ub.tensor(8, 0i32);
        shift_right(&e, &y, 32, 8)?;
        let s = e.get_value(0)?;
        shift_right(&e, &y, 1, 8)?;
        Ok((l, r, s, e.get_value(0)?))
    });
    assert_eq!(out, (0x0002, 0, -1, -4));
}

#[test]
fn c1_c2_float_to_half_every_mode() {
    use RoundMode::*;
    let modes = [
        CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC, CAST_ODD,
    ];
    let x1 = 0.5f32 + 2f32.powi(-12);
    let x2 = -(1.0f32 + 2f32.powi(-11));
    let out = run(move |ub| {
        let s = ub.from(&[x1, x2]);
        let d = ub.tensor(2, h(0.0));
        let mut r = Vec::new();
        for m in modes {
            cast(&d, &s, m, 2)?;
            r.push(bits16(&d.to_vec()?));
        }
        Ok(r)
    });
    let c1: Vec<u16> = out.iter().map(|v| v[0]).collect();
    let c2: Vec<u16> = out.iter().map(|v| v[1]).collect();
    assert_eq!(c1, [0x3800, 0x3800, 0x3801, 0x3801, 0x3800, 0x3801]);
    assert_eq!(c2, [0xBC00, 0xBC01, 0xBC00, 0xBC01, 0xBC00, 0xBC01]);
}

const FIVE: [RoundMode; 5] = [
    RoundMode::CAST_RINT,
    RoundMode::CAST_FLOOR,
    RoundMode::CAST_CEIL,
    RoundMode::CAST_ROUND,
    RoundMode::CAST_TRUNC,
];

#[test]
fn c3_c4_and_the_rounding_table_half_to_int32() {
    // numerics.md §6.1: rows 2.5, −2.5, −1.5, −0.5, 3.7 (3.7 in half is 3.69921875).
    let xs = [2.5f32, -2.5, -1.5, -0.5, 3.7];
    let out = run(move |ub| {
        let s = ub.from(&xs.map(h));
        let d = ub.tensor(8, 0i32);
        let mut r = Vec::new();
        for m in FIVE {
            cast(&d, &s, m, 5)?;
            r.push(d.to_vec()?[..5].to_vec());
        }
        Ok(r)
    });
    // out[mode][x]
    let by_x: Vec<Vec<i32>> = (0..5).map(|i| out.iter().map(|m| m[i]).collect()).collect();
    assert_eq!(by_x[0], [2, 2, 3, 3, 2]);
    assert_eq!(by_x[1], [-2, -3, -2, -3, -2]);
    assert_eq!(by_x[2], [-2, -2, -1, -2, -1]);
    assert_eq!(by_x[3], [0, -1, 0, -1, 0]);
    assert_eq!(by_x[4], [4, 3, 4, 4, 3]);
}

#[test]
fn c5_c6_c7_saturating_and_integer_sources() {
    let out = run(|ub| {
        let hs = ub.from(&[h(127.5), h(-300.0)]);
        let i8d = ub.tensor(32, 0i8);
        let fs = ub.from(&[4194304.5f32, -1e9]);
        let i16d = ub.tensor(16, 0i16);
        let is = ub.from(&[(1 << 25) + 3, i32::MAX]);
        let fd = ub.tensor(8, 0f32);
        let mut r = Vec::new();
        for m in FIVE {
            cast(&i8d, &hs, m, 2)?;
            cast(&i16d, &fs, m, 2)?;
            cast(&fd, &is, m, 2)?;
            r.push((
                i8d.get_value(0)?,
                i8d.get_value(1)?,
                i16d.get_value(0)?,
                i16d.get_value(1)?,
                fd.get_value(0)?,
            ));
        }
        Ok(r)
    });
    let two25 = 33554432.0f32;
    for (i, (a, b, c, d, e)) in out.into_iter().enumerate() {
        assert_eq!((a, b), (127, -128), "mode {i}");
        assert_eq!((c, d), (32767, -32768), "mode {i}");
        let want = if i == 1 || i == 4 { two25 } else { two25 + 4.0 };
        assert_eq!(e, want, "mode {i}");
    }
}

#[test]
fn c8_float_to_half_overflow_follows_the_mode() {
    let f = |ub: &mut Ub| {
        let s = ub.from(&[1e6f32, -1e6]);
        let d = ub.tensor(2, h(0.0));
        cast(&d, &s, RoundMode::CAST_RINT, 2)?;
        Ok(bits16(&d.to_vec()?))
    };
    assert_eq!(run(f), [0x7BFF, 0xFBFF]);
    assert_eq!(run_inf(f), [0x7C00, 0xFC00]);
    // Toward-zero modes give ±MAX even in Inf/NaN mode.
    let t = run_inf(|ub| {
        let s = ub.from(&[1e6f32, -1e6]);
        let d = ub.tensor(2, h(0.0));
        cast(&d, &s, RoundMode::CAST_TRUNC, 2)?;
        Ok(bits16(&d.to_vec()?))
    });
    assert_eq!(t, [0x7BFF, 0xFBFF]);
}

#[test]
fn float_to_float_rounds_to_integral_and_int64_paths() {
    let out = run(|ub| {
        let s = ub.from(&[0.5f32, -2.5]);
        let d = ub.tensor(8, 0f32);
        let mut r = Vec::new();
        for m in FIVE {
            cast(&d, &s, m, 2)?;
            r.push((d.get_value(0)?, d.get_value(1)?));
        }
        let big = ub.from(&[(1i64 << 60) + (1 << 36) + 1, -5]);
        let fd = ub.tensor(8, 0f32);
        cast(&fd, &big, RoundMode::CAST_RINT, 2)?;
        let rint = fd.get_value(0)?;
        cast(&fd, &big, RoundMode::CAST_TRUNC, 2)?;
        let trunc = fd.get_value(0)?;
        let wide = ub.tensor(4, 0i64);
        let i32s = ub.from(&[-7i32, i32::MIN]);
        cast(&wide, &i32s, RoundMode::CAST_NONE, 2)?;
        let back = ub.tensor(8, 0i32);
        let huge = ub.from(&[i64::MAX, i64::MIN]);
        cast(&back, &huge, RoundMode::CAST_NONE, 2)?;
        Ok((
            r,
            rint,
            trunc,
            wide.to_vec()?,
            back.get_value(0)?,
            back.get_value(1)?,
        ))
    });
    let r: Vec<(f32, f32)> = out.0;
    assert_eq!(
        r,
        [
            (0.0, -2.0),
            (0.0, -3.0),
            (1.0, -2.0),
            (1.0, -3.0),
            (0.0, -2.0)
        ]
    );
    // 2^60 + 2^36 + 1: f32 spacing at 2^60 is 2^37, so the value is just above the midpoint.
    assert_eq!(out.1, 2f32.powi(60) + 2f32.powi(37));
    assert_eq!(out.2, 2f32.powi(60));
    assert_eq!(out.3[..2], [-7, i32::MIN as i64]);
    assert_eq!((out.4, out.5), (i32::MAX, i32::MIN));
}

#[test]
fn half_to_uint8_negative_is_zero_with_a_warning() {
    let w = warnings_on("A2", |ub| {
        let s = ub.from(&[h(-3.0), h(300.0), h(7.6)]);
        let d = ub.tensor(32, 0u8);
        cast(&d, &s, RoundMode::CAST_RINT, 3)?;
        assert_eq!(d.to_vec()?[..3], [0, 255, 8]);
        Ok(())
    });
    assert!(w
        .iter()
        .any(|m| m.contains("1 negative value(s) converted to unsigned uint8_t")));
}

#[test]
fn deq_scale_int32_to_half() {
    let out = run(|ub| {
        let s = ub.from(&[3i32, -300_000]);
        let d = ub.tensor(16, h(0.0));
        set_deq_scale(h(0.5))?;
        cast(&d, &s, RoundMode::CAST_NONE, 2)?;
        Ok(bits16(&d.to_vec()?[..2]))
    });
    assert_eq!(out, [h(1.5).to_bits(), 0xFBFF]);
}

#[test]
fn example_2_and_3_in_both_modes_via_muls_and_adds() {
    let f = |ub: &mut Ub| {
        let s = ub.from(&[h(65504.0), h(300.0)]);
        let d = ub.tensor(16, h(0.0));
        adds(&d, &s, h(16.0), 1)?;
        let a = d.get_value(0)?;
        let t = s.at(1)?;
        muls(&d, &t, h(-300.0), 1)?;
        Ok(bits16(&[a, d.get_value(0)?]))
    };
    // `t` is not 32-byte aligned: the call must fail, so use an aligned layout instead.
    let e = error_on("A2", |ub| {
        f(ub)?;
        Ok(())
    });
    assert!(e.message.contains("32-byte aligned"), "{e}");
    let g = |ub: &mut Ub| {
        let s = ub.from(&[h(65504.0)]);
        let t = ub.from(&[h(300.0)]);
        let d = ub.tensor(16, h(0.0));
        adds(&d, &s, h(16.0), 1)?;
        let a = d.get_value(0)?;
        muls(&d, &t, h(-300.0), 1)?;
        Ok(bits16(&[a, d.get_value(0)?]))
    };
    assert_eq!(run(g), [0x7BFF, 0xFBFF]);
    assert_eq!(run_inf(g), [0x7C00, 0xFC00]);
}

#[test]
fn other_binary_and_unary_ops_exact_values() {
    let out = run(|ub| {
        let a = ub.from(&[h(3.0), h(-2.0), h(0.5), h(-0.0)]);
        let b = ub.from(&[h(2.0), h(5.0), h(-4.0), h(0.0)]);
        let d = ub.tensor(4, h(0.0));
        let mut r = Vec::new();
        for op in [sub, mul, div, max, min, add_relu, sub_relu] {
            op(&d, &a, &b, 4)?;
            r.push(bits16(&d.to_vec()?));
        }
        abs(&d, &a, 4)?;
        r.push(bits16(&d.to_vec()?));
        relu(&d, &a, 4)?;
        r.push(bits16(&d.to_vec()?));
        leaky_relu(&d, &a, h(0.25), 4)?;
        r.push(bits16(&d.to_vec()?));
        maxs(&d, &a, h(1.0), 4)?;
        r.push(bits16(&d.to_vec()?));
        mins(&d, &a, h(1.0), 4)?;
        r.push(bits16(&d.to_vec()?));
        Ok(r)
    });
    let hb = |v: [f32; 4]| v.map(|x| h(x).to_bits()).to_vec();
    assert_eq!(out[0], hb([1.0, -7.0, 4.5, -0.0]));
    assert_eq!(out[1], hb([6.0, -10.0, -2.0, -0.0]));
    assert_eq!(
        out[2],
        hb([1.5, -0.4, -0.125, f32::NAN])
            .iter()
            .take(3)
            .copied()
            .chain([0])
            .collect::<Vec<_>>()
    );
    assert_eq!(out[3], hb([3.0, 5.0, 0.5, 0.0]));
    assert_eq!(out[4], hb([2.0, -2.0, -4.0, -0.0]));
    assert_eq!(out[5], hb([5.0, 3.0, 0.0, 0.0]));
    assert_eq!(out[6], hb([1.0, 0.0, 4.5, 0.0]));
    assert_eq!(out[7], hb([3.0, 2.0, 0.5, 0.0]));
    assert_eq!(out[8], hb([3.0, 0.0, 0.5, 0.0]));
    assert_eq!(out[9], hb([3.0, -0.5, 0.5, -0.0]));
    assert_eq!(out[10], hb([3.0, 1.0, 1.0, 1.0]));
    assert_eq!(out[11], hb([1.0, -2.0, 0.5, -0.0]));
}

#[test]
fn integer_and_bitwise_ops() {
    let out = run(|ub| {
        let a = ub.from(&[0x0F0Fu16 as i16, -1, 12, i16::MIN]);
        let b = ub.from(&[0x00FFi16, 0x1234, -5, -1]);
        let d = ub.tensor(4, 0i16);
        let mut r = Vec::new();
        for op in [and, or] {
            op(&d, &a, &b, 4)?;
            r.push(d.to_vec()?);
        }
        not(&d, &a, 4)?;
        r.push(d.to_vec()?);
        mul(&d, &a, &b, 4)?;
        r.push(d.to_vec()?);
        add_relu(&d, &a, &b, 4)?;
        r.push(d.to_vec()?);
        Ok(r)
    });
    assert_eq!(out[0], [0x000F, 0x1234, 12 & -5, i16::MIN]);
    assert_eq!(out[1], [0x0FFF, -1, 12 | -5, -1]);
    assert_eq!(out[2], [!0x0F0Fi16, 0, !12, i16::MAX]);
    assert_eq!(out[3], [(0x0F0Fi32 * 0xFF) as i16, -0x1234, -60, i16::MIN]);
    assert_eq!(out[4], [0x0F0E + 0x100 - 0xFF + 0xFF, 0x1233, 7, i16::MAX]);
}

#[test]
fn multiply_adds_round_twice_and_mixed_half_float() {
    let out = run(|ub| {
        let a = ub.from(&[h(2.0), h(1.0 + 2f32.powi(-10))]);
        let b = ub.from(&[h(3.0), h(1.0 + 2f32.powi(-10))]);
        let d = ub.from(&[h(10.0), h(-1.0)]);
        fused_mul_add(&d, &a, &b, 2)?; // d = a·d + b
        let fma = bits16(&d.to_vec()?);
        let d2 = ub.from(&[h(10.0), h(-1.0)]);
        mul_add_dst(&d2, &a, &b, 2)?; // d = a·b + d
        let mad = bits16(&d2.to_vec()?);
        let df = ub.from(&[10.0f32, -1.0]);
        mul_add_dst(&df, &a, &b, 2)?;
        let mixed = df.to_vec()?;
        let ax = ub.from(&[1.0f32, 2.0]);
        axpy(&ax, &a, h(0.5), 2)?;
        let axpy_mixed = ax.to_vec()?;
        let ah = ub.from(&[h(1.0), h(2.0)]);
        axpy(&ah, &a, h(0.5), 2)?;
        Ok((fma, mad, mixed, axpy_mixed, bits16(&ah.to_vec()?)))
    });
    let e = 2f32.powi(-10);
    // fused: 2·10 + 3 = 23; (1+e)(−1) + (1+e) = 0.
    assert_eq!(out.0, [h(23.0).to_bits(), 0]);
    // (1+e)² = 1 + 2e + e² rounds to 1 + 2e in half; minus 1 = 2e (two roundings).
    assert_eq!(out.1, [h(16.0).to_bits(), h(2.0 * e).to_bits()]);
    // half × half is exact in float: 2e + e².
    assert_eq!(out.2, [16.0, 2.0 * e + e * e]);
    assert_eq!(out.3, [2.0, 2.5 + 0.5 * e]);
    assert_eq!(out.4, [h(2.0).to_bits(), h(2.5).to_bits()]);
}

#[test]
fn transcendentals_within_tolerance() {
    let xs = [0.5f32, 1.0, 2.0, 3.0, 10.0, 0.125, 7.5, 50.0];
    let out = run(move |ub| {
        let s = ub.from(&xs);
        let d = ub.tensor(8, 0f32);
        let mut r = Vec::new();
        for op in [exp, ln, sqrt, rsqrt, reciprocal] {
            op(&d, &s, 8)?;
            r.push(d.to_vec()?);
        }
        let sh = ub.from(&xs.map(h));
        let dh = ub.tensor(16, h(0.0));
        exp(&dh, &sh, 8)?;
        Ok((r, dh.to_vec()?))
    });
    let refs: [fn(f64) -> f64; 5] = [
        f64::exp,
        f64::ln,
        f64::sqrt,
        |x| 1.0 / x.sqrt(),
        |x| 1.0 / x,
    ];
    for (got, f) in out.0.iter().zip(refs) {
        for (g, x) in got.iter().zip(xs) {
            let want = f(x as f64);
            assert!(
                ((*g as f64) - want).abs() <= want.abs() * 1.2e-7,
                "{x}: {g} vs {want}"
            );
        }
    }
    // exact cases
    assert_eq!(out.0[2][1..3], [1.0, std::f32::consts::SQRT_2]);
    assert_eq!(out.0[4][2], 0.5);
    // half exp saturates: e^50 → 65504; e^10 = 22026.47 → 22032 (nearest half).
    assert_eq!(out.1[7].to_bits(), 0x7BFF);
    assert_eq!(out.1[4], h(22026.465));
}

#[test]
fn example_7_relu_mask_2_and_v6() {
    let out = run(|ub| {
        let s = ub.from(&[-1.5f32, 3.0, -7.0, 4.0, 5.0, 6.0, 7.0, 8.0]);
        let d = ub.tensor(8, 9.0f32);
        relu_l0(&d, &s, 2u64, 1, UnaryRepeatParams::default())?;
        d.to_vec()
    });
    assert_eq!(out, [0.0, 3.0, 9.0, 9.0, 9.0, 9.0, 9.0, 9.0]);
    assert!(out[0].is_sign_positive());
}

#[test]
fn example_8_v5_duplicate_with_strides() {
    let out = run(|ub| {
        let d = ub.tensor(64, h(-1.0));
        duplicate_l0(&d, h(1.5), 16u64, 2, 1, 2)?;
        Ok(bits16(&d.to_vec()?))
    });
    for (i, b) in out.iter().enumerate() {
        let want = if i < 16 || (32..48).contains(&i) {
            0x3E00
        } else {
            h(-1.0).to_bits()
        };
        assert_eq!(*b, want, "element {i}");
    }
}

#[test]
fn example_9_compare_lt() {
    let out = run(|ub| {
        let a: Vec<f32> = (0..64).map(|i| i as f32).collect();
        let a = ub.from(&a);
        let b = ub.tensor(64, 30.5f32);
        let d = ub.tensor(32, 0xAAu8);
        compare(&d, &a, &b, CMPMODE::LT, 64)?;
        let v = d.to_vec()?;
        let s = ub.tensor(32, 0u8);
        compare_scalar(&s, &a, 30.5, CMPMODE::LT, 64)?;
        let op = ub.tensor(32, 0u8);
        op.assign_compare(&a, &b, CMPMODE::GE)?;
        Ok((v, s.to_vec()?, op.to_vec()?))
    });
    assert_eq!(out.0[..8], [0xFF, 0xFF, 0xFF, 0x7F, 0, 0, 0, 0]);
    assert_eq!(out.0[8], 0xAA, "bytes past the 64 bits are untouched");
    assert_eq!(out.1[..8], out.0[..8]);
    assert_eq!(out.2[..8], [0, 0, 0, 0x80, 0xFF, 0xFF, 0xFF, 0xFF]);
}

#[test]
fn compare_nan_and_int32_eq() {
    let out = run(|ub| {
        let a = ub.from(&[f32::NAN; 64]);
        let d = ub.tensor(32, 0u8);
        compare_scalar(&d, &a, 1.0, CMPMODE::NE, 64)?;
        let ne = d.get_value(0)?;
        compare_scalar(&d, &a, 1.0, CMPMODE::EQ, 64)?;
        let eq = d.get_value(0)?;
        let i: Vec<i32> = (0..64).collect();
        let i = ub.from(&i);
        compare_scalar(&d, &i, 9, CMPMODE::EQ, 64)?;
        Ok((ne, eq, d.get_value(1)?))
    });
    assert_eq!(out, (0xFF, 0x00, 0x02));
}

#[test]
fn select_modes() {
    let out = run(|ub| {
        let a: Vec<f32> = (0..128).map(|i| i as f32).collect();
        let a = ub.from(&a);
        let b = ub.tensor(128, -1.0f32);
        // Bits: byte k = 0b0000_0101 for the first 8 bytes, 0xFF for the next 8.
        let mut m = vec![0x05u8; 8];
        m.extend([0xFF; 8]);
        m.extend([0; 16]);
        let m = ub.from(&m);
        let d0 = ub.tensor(128, 0f32);
        select(&d0, &m, &a, &b, SELMODE::VSEL_CMPMASK_SPR, 128)?;
        let d1 = ub.tensor(128, 0f32);
        select(
            &d1,
            &m,
            &a,
            SelectSrc1::Scalar(7.0),
            SELMODE::VSEL_TENSOR_SCALAR_MODE,
            128,
        )?;
        let d2 = ub.tensor(128, 0f32);
        select(&d2, &m, &a, &b, SELMODE::VSEL_TENSOR_TENSOR_MODE, 128)?;
        Ok((d0.to_vec()?, d1.to_vec()?, d2.to_vec()?))
    });
    let bit = |i: usize| {
        if i < 64 {
            i.is_multiple_of(8) || i % 8 == 2
        } else {
            (64..128).contains(&i)
        }
    };
    for i in 0..128 {
        let m0 = if bit(i % 64) { i as f32 } else { -1.0 };
        assert_eq!(out.0[i], m0, "mode 0 element {i}");
        let m1 = if bit(i) { i as f32 } else { 7.0 };
        assert_eq!(out.1[i], m1, "mode 1 element {i}");
        let m2 = if bit(i) { i as f32 } else { -1.0 };
        assert_eq!(out.2[i], m2, "mode 2 element {i}");
    }
}

#[test]
fn tensor_operator_methods() {
    let out = run(|ub| {
        let a = ub.from(&[6.0f32; 8]);
        let b = ub.from(&[4.0f32; 8]);
        let d = ub.tensor(8, 0f32);
        let mut r = Vec::new();
        d.assign_add(&a, &b)?;
        r.push(d.get_value(7)?);
        d.assign_sub(&a, &b)?;
        r.push(d.get_value(7)?);
        d.assign_mul(&a, &b)?;
        r.push(d.get_value(7)?);
        d.assign_div(&a, &b)?;
        r.push(d.get_value(7)?);
        let x = ub.from(&[0x0Fi16; 16]);
        let y = ub.from(&[0x3Ci16; 16]);
        let z = ub.tensor(16, 0i16);
        z.assign_and(&x, &y)?;
        let and_v = z.get_value(15)?;
        z.assign_or(&x, &y)?;
        Ok((r, and_v, z.get_value(15)?))
    });
    assert_eq!(out, (vec![10.0, 2.0, 24.0, 1.5], 0x0C, 0x3F));
}
