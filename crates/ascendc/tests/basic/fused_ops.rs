//! Fused converting instructions and CastDequant: the pages' worked examples, reference-model
//! checks (round to nearest even, fp16 and integer saturation) and the per-product tables.

use crate::page_examples;
use crate::ub_harness;

use ascendc::prelude::*;
use ascendc::Category;
use page_examples::*;
use ub_harness::*;

const FULL: [u64; 2] = [u64::MAX, u64::MAX];

/// The three call forms of a two-source page example: level 0 with a contiguous mask, level 0
/// with a bit mask, level 2.
#[derive(Clone, Copy, Debug)]
enum Form {
    Contiguous,
    Bits,
    Count,
}
const FORMS: [Form; 3] = [Form::Contiguous, Form::Bits, Form::Count];

/// A half → int8 two-source page example over 512 elements (4 repeats of 128 lanes at level 0)
/// in `form`: `$f` is the level-2 call, `$f0` the level-0 one; the destination starts as
/// `init`. Gives the destination.
macro_rules! in_form {
    ($form:expr, $f:ident, $f0:ident, $a:expr, $b:expr, $init:expr) => {
        run(|ub| {
            let (s0, s1) = (ub.from($a), ub.from($b));
            let d = ub.tensor(512, $init);
            let p = BinaryRepeatParams::new(1, 1, 1, 4, 8, 8);
            match $form {
                Form::Contiguous => $f0(&d, &s0, &s1, 128u64, 4, p)?,
                Form::Bits => $f0(&d, &s0, &s1, FULL, 4, p)?,
                Form::Count => $f(&d, &s0, &s1, 512)?,
            }
            d.to_vec()
        })
    };
}

#[test]
fn add_relu_cast_page_example_every_form() {
    let a: Vec<f16> = (0..512)
        .map(|i| h(if i == 1 { 1.0 } else { (i + 1) as f32 }))
        .collect();
    let b: Vec<f16> = (0..512)
        .map(|i| {
            h(match i {
                0 => 0.0,
                1 => 0.5,
                2 => -4.0,
                _ => -(i as f32 + 2.0),
            })
        })
        .collect();
    let mut want = vec![0i8; 512];
    want[0] = 1;
    want[1] = 2;
    for form in FORMS {
        let out = in_form!(form, add_relu_cast, add_relu_cast_l0, &a, &b, 99i8);
        assert_eq!(out, want, "{form:?}");
    }
}

#[test]
fn sub_relu_cast_page_example_every_form() {
    let a: Vec<f16> = (0..512).map(|i| h((i + 1) as f32)).collect();
    let b: Vec<f16> = (0..512)
        .map(|i| {
            h(match i {
                0 => 0.0,
                1 => 0.5,
                _ => i as f32 + 2.0,
            })
        })
        .collect();
    let mut want = vec![0i8; 512];
    want[0] = 1;
    want[1] = 2;
    for form in FORMS {
        let out = in_form!(form, sub_relu_cast, sub_relu_cast_l0, &a, &b, 99i8);
        assert_eq!(out, want, "{form:?}");
    }
}

#[test]
fn mul_cast_page_example_every_form() {
    let mut a: Vec<f16> = (0..512).map(|i| h([1.0, -2.0, 3.0][i % 3])).collect();
    let mut b: Vec<f16> = (0..512).map(|i| h([1.0, 3.0, -4.0][i % 3])).collect();
    (a[511], b[511]) = (h(-6.0), h(5.0));
    let mut want: Vec<i8> = (0..512).map(|i| [1, -6, -12][i % 3]).collect();
    want[511] = -30;
    for form in FORMS {
        let out = in_form!(form, mul_cast, mul_cast_l0, &a, &b, 0i8);
        assert_eq!(out, want, "{form:?}");
    }
}

#[test]
fn conversion_rounds_to_nearest_even_and_saturates() {
    // half → int8 after the half sum: ties to even, saturation at 127.
    let (i8s, u8s, warns) = {
        let a = [0.25f32, 0.5, 1.5, 2.5, 126.5, 127.5, 300.0, 65504.0, -3.0];
        let b = [0.25f32, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 65504.0, 1.0];
        let r = run(move |ub| {
            let s0 = ub.from(&a.map(h));
            let s1 = ub.from(&b.map(h));
            let d = ub.tensor(32, 0i8);
            add_relu_cast(&d, &s0, &s1, 9)?;
            let m0 = ub.from(&[h(-2.0), h(2.5), h(300.0), h(0.5)]);
            let m1 = ub.from(&[h(3.0), h(1.0), h(1.0), h(3.0)]);
            let du = ub.tensor(32, 7u8);
            mul_cast(&du, &m0, &m1, 4)?;
            Ok((d.to_vec()?, du.to_vec()?))
        });
        let w = warnings_on("a2", |ub| {
            let m0 = ub.from(&[h(-2.0)]);
            let m1 = ub.from(&[h(3.0)]);
            let du = ub.tensor(32, 7u8);
            mul_cast(&du, &m0, &m1, 1)
        });
        (r.0, r.1, w)
    };
    assert_eq!(&i8s[..9], &[0, 0, 2, 2, 126, 127, 127, 127, 0]);
    assert_eq!(&u8s[..4], &[0, 2, 255, 2]);
    assert!(
        warns.iter().any(|w| w.contains("hardware exception")),
        "{warns:?}"
    );
    // float → half: RNE, +overflow saturates to 65504 by default and is +Inf in Inf/NaN mode.
    let f = |ub: &mut Ub| {
        let s0 = ub.from(&[65519.0f32, 65520.0, 1.0 + 1.0 / 2048.0, 1.0 + 3.0 / 2048.0]);
        let s1 = ub.from(&[0.0f32; 4]);
        let d = ub.tensor(16, h(9.0));
        add_relu_cast(&d, &s0, &s1, 4)?;
        Ok(bits16(&d.to_vec()?[..4]))
    };
    assert_eq!(run(f), [0x7BFF, 0x7BFF, 0x3C00, 0x3C02]);
    assert_eq!(run_inf(f), [0x7BFF, 0x7C00, 0x3C00, 0x3C02]);
    // int16 → int8: the int16 difference wraps, then saturates.
    let i = run(|ub| {
        let s0 = ub.from(&[100i16, -32768, 5, 1000]);
        let s1 = ub.from(&[-100i16, 1, 7, 0]);
        let d = ub.tensor(32, 1i8);
        sub_relu_cast(&d, &s0, &s1, 4)?;
        d.to_vec()
    });
    assert_eq!(&i[..4], &[127, 127, 0, 127]);
}

/// A small deterministic generator for the reference-model checks.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// A finite half with a wide spread of exponents, either sign.
    fn half(&mut self) -> f16 {
        loop {
            let v = f16::from_bits(self.next() as u16 & 0x7FFF);
            if v.is_finite() && v.to_f32() < 512.0 {
                return if self.next() & 1 == 0 { v } else { -v };
            }
        }
    }
}

/// Reference: the half sum rounded once (RNE, saturating), ReLU, RNE to an integer, clamp.
fn reference_relu_cast(a: f16, b: f16, sub: bool) -> i8 {
    let s = if sub {
        a.to_f64() - b.to_f64()
    } else {
        a.to_f64() + b.to_f64()
    };
    let hs = f16::from_f64(s);
    let hs = if hs.is_infinite() {
        f16::MAX.to_f64().copysign(hs.to_f64())
    } else {
        hs.to_f64()
    };
    hs.max(0.0).round_ties_even().clamp(-128.0, 127.0) as i8
}

#[test]
fn relu_casts_match_the_reference_model() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let a: Vec<f16> = (0..1024).map(|_| rng.half()).collect();
    let b: Vec<f16> = (0..1024).map(|_| rng.half()).collect();
    let (add, sub) = run(|ub| {
        let (s0, s1) = (ub.from(&a), ub.from(&b));
        let (d0, d1) = (ub.tensor(1024, 0i8), ub.tensor(1024, 0i8));
        add_relu_cast(&d0, &s0, &s1, 1024)?;
        sub_relu_cast(&d1, &s0, &s1, 1024)?;
        Ok((d0.to_vec()?, d1.to_vec()?))
    });
    for (i, (&x, &y)) in a.iter().zip(&b).enumerate() {
        assert_eq!(add[i], reference_relu_cast(x, y, false), "add {i}");
        assert_eq!(sub[i], reference_relu_cast(x, y, true), "sub {i}");
    }
}

#[test]
fn masked_lanes_keep_the_destination() {
    let out = run(|ub| {
        let s0 = ub.from(&[h(3.0); 128]);
        let s1 = ub.from(&[h(1.0); 128]);
        let d = ub.tensor(128, 99i8);
        add_relu_cast_l0(
            &d,
            &s0,
            &s1,
            5u64,
            1,
            BinaryRepeatParams::new(1, 1, 1, 4, 8, 8),
        )?;
        let d2 = ub.tensor(128, h(-1.0));
        let m = ub.from(&[h(2.0); 128]);
        mul_add_relu_l0(
            &d2,
            &m,
            &s1,
            [0b1010u64, 0],
            1,
            BinaryRepeatParams::default(),
        )?;
        Ok((d.to_vec()?, bits16(&d2.to_vec()?[..5])))
    });
    assert_eq!(&out.0[..6], &[4, 4, 4, 4, 4, 99]);
    assert!(out.0[5..].iter().all(|&v| v == 99));
    // Lanes 1 and 3: max(0, 2 × −1 + 1) = 0; the others keep −1.
    assert_eq!(out.1, [0xBC00, 0x0000, 0xBC00, 0x0000, 0xBC00]);
}

#[test]
fn add_deq_relu_page_example() {
    let s0v = [70, 36, 43, 54, 28, 49, 27, 82, 95];
    let s1v = [19, 33, 34, 50, 42, 2, 97, 93, 99];
    let want = [
        8.8984375,
        6.8984375,
        7.699_218_8,
        10.398_438,
        7.0,
        5.097_656_3,
        12.398_438,
        17.5,
        19.390_625,
    ];
    let printed = [
        "8.9", "6.9", "7.7", "10.4", "7.0", "5.1", "12.4", "17.5", "19.4",
    ];
    for form in FORMS {
        let out = run(|ub| {
            let mut a = vec![0i32; 256];
            let mut b = vec![0i32; 256];
            a[..9].copy_from_slice(&s0v);
            b[..9].copy_from_slice(&s1v);
            let (s0, s1) = (ub.from(&a), ub.from(&b));
            let d = ub.tensor(256, h(0.0));
            set_deq_scale(h(0.1))?;
            let p = BinaryRepeatParams::new(1, 1, 1, 4, 8, 8);
            match form {
                Form::Contiguous => add_deq_relu_l0(&d, &s0, &s1, 64u64, 4, p)?,
                Form::Bits => add_deq_relu_l0(&d, &s0, &s1, FULL, 4, p)?,
                Form::Count => add_deq_relu(&d, &s0, &s1, 256)?,
            }
            d.to_vec()
        });
        for (i, (w, p)) in want.iter().zip(printed).enumerate() {
            assert_eq!(out[i].to_bits(), h(*w).to_bits(), "{form:?} {i}");
            assert_eq!(format!("{:.1}", out[i].to_f32()), p);
        }
    }
}

#[test]
fn add_deq_relu_edges_and_register_form() {
    let out = run(|ub| {
        let s0 = ub.from(&[-5i32, 1 << 30, i32::MAX, 3]);
        let s1 = ub.from(&[1i32, 0, 1, 0]);
        let d = ub.tensor(16, h(9.0));
        set_deq_scale(h(1.0))?;
        add_deq_relu(&d, &s0, &s1, 4)?;
        Ok(bits16(&d.to_vec()?[..4]))
    });
    // Negative → 0; 2^30 saturates to 65504; i32::MAX + 1 wraps to −2^31 → 0.
    assert_eq!(out, [0x0000, 0x7BFF, 0x0000, 0x4200]);
    let e = error_on("a2", |ub| {
        let s = ub.from(&[1i32; 8]);
        let d = ub.tensor(16, h(0.0));
        set_deq_scale_quant(1.0, 0, true)?;
        add_deq_relu(&d, &s, &s, 8)
    });
    assert_eq!(e.category, Category::Unsupported);
    assert!(e.to_string().contains("SetDeqScale(half scale)"), "{e}");
}

#[test]
fn mul_add_relu_page_example_every_form() {
    for form in FORMS {
        let out = run(|ub| {
            let s0 = ub.from(&MUL_ADD_RELU_SRC0.map(f16::from_bits));
            let s1 = ub.from(&MUL_ADD_RELU_SRC1.map(f16::from_bits));
            let d = ub.from(&MUL_ADD_RELU_DST.map(f16::from_bits));
            let p = BinaryRepeatParams::default();
            match form {
                Form::Contiguous => mul_add_relu_l0(&d, &s0, &s1, 128u64, 2, p)?,
                Form::Bits => mul_add_relu_l0(&d, &s0, &s1, FULL, 2, p)?,
                Form::Count => mul_add_relu(&d, &s0, &s1, 256)?,
            }
            Ok(bits16(&d.to_vec()?))
        });
        assert_eq!(out, MUL_ADD_RELU_OUT.to_vec(), "{form:?}");
    }
}

#[test]
fn mul_add_relu_float_and_saturation() {
    let out = run(|ub| {
        let s0 = ub.from(&[h(300.0), h(300.0), h(1.0)]);
        let s1 = ub.from(&[h(0.0), h(0.0), h(f32::NAN)]);
        let d = ub.from(&[h(300.0), h(-300.0), h(1.0)]);
        mul_add_relu(&d, &s0, &s1, 3)?;
        let f0 = ub.from(&[1.5f32, -2.0]);
        let f1 = ub.from(&[0.25f32, 1.0]);
        let fd = ub.from(&[2.0f32, 2.0]);
        mul_add_relu(&fd, &f0, &f1, 2)?;
        Ok((bits16(&d.to_vec()?[..3]), fd.to_vec()?))
    });
    // 300 × 300 saturates to 65504; −90000 → −65504 → 0; NaN → 0.
    assert_eq!(out.0, [0x7BFF, 0x0000, 0x0000]);
    assert_eq!(out.1, [3.25, 0.0]);
}

#[test]
fn cast_dequant_page_example_every_form() {
    for form in FORMS {
        let out = run(|ub| {
            let src = ub.from(&CAST_DEQUANT_SRC);
            let dst = ub.tensor(512, 0u8);
            let vdeq = ub.tensor(16, 0u64);
            let info = VdeqInfo::new([1.0; 16], [0; 16], [false; 16]);
            set_deq_scale_vector(&vdeq, &info)?;
            let p = UnaryRepeatParams::default();
            match form {
                Form::Contiguous => cast_dequant_l0(&dst, &src, true, true, 128u64, 2, p)?,
                Form::Bits => cast_dequant_l0(&dst, &src, true, true, FULL, 2, p)?,
                Form::Count => cast_dequant(&dst, &src, true, true, 256)?,
            }
            dst.to_vec()
        });
        assert_eq!(out, CAST_DEQUANT_OUT.to_vec(), "{form:?}");
    }
}

#[test]
fn cast_dequant_scalar_word_rounding_offset_and_halves() {
    let out = run(|ub| {
        let mut v = vec![0i16; 32];
        v[..6].copy_from_slice(&[10, 11, -300, 300, 5, 0]);
        v[16] = 4;
        let src = ub.from(&v);
        let dst = ub.tensor(64, 0x55i8);
        set_deq_scale_quant(0.5, -3, true)?;
        cast_dequant(&dst, &src, false, false, 32)?;
        // A scale whose fraction bits past the tenth are dropped: 0.5 + 2^-20 acts as 0.5.
        let src2 = ub.from(&[5i16; 16]);
        set_deq_scale_quant(0.5 + 1.0 / 1048576.0, 0, false)?;
        let dst2 = ub.tensor(32, 0u8);
        cast_dequant(&dst2, &src2, false, true, 16)?;
        Ok((dst.to_vec()?, dst2.to_vec()?))
    });
    // rint(5) − 3, rint(5.5) − 3, −150 − 3 → −128, 150 − 3, rint(2.5) − 3, 0 − 3.
    assert_eq!(&out.0[..6], &[2, 3, -128, 127, -1, -3]);
    // halfBlock = false: bytes 0–15 of each block; bytes 16–31 keep their contents.
    assert!(out.0[16..32].iter().all(|&b| b == 0x55));
    assert_eq!(out.0[32], -1);
    assert!(out.1[..16].iter().all(|&b| b == 0));
    assert!(out.1[16..].iter().all(|&b| b == 2));
}

#[test]
fn cast_dequant_vector_table_uses_one_word_per_block_lane() {
    let out = run(|ub| {
        let src = ub.from(&[10i16; 32]);
        let dst = ub.tensor(64, 0u8);
        let vdeq = ub.tensor(16, 0u64);
        let scale: [f32; 16] = std::array::from_fn(|i| i as f32);
        let offset: [i16; 16] = std::array::from_fn(|i| i as i16);
        set_deq_scale_vector(&vdeq, &VdeqInfo::new(scale, offset, [false; 16]))?;
        cast_dequant(&dst, &src, true, false, 32)?;
        dst.to_vec()
    });
    let want: Vec<u8> = (0..16).map(|j| (10 * j + j).min(255) as u8).collect();
    assert_eq!(&out[..16], &want[..]);
    assert_eq!(&out[32..48], &want[..]);
}

#[test]
fn cast_dequant_int32_to_half_uses_the_half_factor() {
    let out = run(|ub| {
        let s = ub.from(&[3i32, -300_000, 7]);
        let d = ub.tensor(16, h(0.0));
        set_deq_scale(h(0.5))?;
        cast_dequant(&d, &s, true, true, 3)?;
        Ok(bits16(&d.to_vec()?[..3]))
    });
    assert_eq!(out, [h(1.5).to_bits(), 0xFBFF, h(3.5).to_bits()]);
}

#[test]
fn cast_dequant_register_form_and_sign_mode_are_checked() {
    let e = error_on("a2", |ub| {
        let src = ub.from(&[1i16; 16]);
        let dst = ub.tensor(32, 0i8);
        set_deq_scale_quant(1.0, 0, false)?;
        cast_dequant(&dst, &src, false, true, 16)
    });
    assert_eq!(e.category, Category::Type);
    assert!(e.to_string().contains("signMode"), "{e}");
    let e = error_on("a2", |ub| {
        let src = ub.from(&[1i16; 16]);
        let dst = ub.tensor(32, 0i8);
        set_deq_scale_quant(1.0, 0, true)?;
        cast_dequant(&dst, &src, true, true, 16)
    });
    assert!(
        e.to_string()
            .contains("isVecDeq = true needs SetDeqScale(vdeq, vdeqInfo)"),
        "{e}"
    );
    let w = warnings_on("a2", |_| set_deq_scale_quant(1.0, 300, true));
    assert!(w.iter().any(|w| w.contains("low 9 bits")), "{w:?}");
}

#[test]
fn product_tables_refuse_with_the_reason() {
    let e = error_on("910", |ub| {
        let s = ub.from(&[h(1.0); 16]);
        let d = ub.tensor(32, 0i8);
        add_relu_cast(&d, &s, &s, 16)
    });
    assert_eq!(e.category, Category::Unsupported);
    let e = error_on("310b", |ub| {
        let s = ub.from(&[1i16; 16]);
        let d = ub.tensor(32, 0i8);
        sub_relu_cast(&d, &s, &s, 16)
    });
    assert_eq!(e.category, Category::Type);
    assert!(e.to_string().contains("half → int8_t, float → half"), "{e}");
    let e = error_on("a2", |ub| {
        let s = ub.from(&[h(1.0); 16]);
        let d = ub.tensor(16, 0i16);
        mul_cast(&d, &s, &s, 16)
    });
    assert_eq!(e.category, Category::Type);
    let e = error_on("310b", |ub| {
        let s = ub.from(&[1i32; 8]);
        let d = ub.tensor(16, h(0.0));
        add_deq_relu(&d, &s, &s, 8)
    });
    assert_eq!(e.category, Category::Unsupported);
    let e = error_on("310p", |ub| {
        let s = ub.from(&[1i32; 8]);
        let d = ub.tensor(16, h(0.0));
        cast_dequant(&d, &s, true, true, 8)
    });
    assert_eq!(e.category, Category::Type);
    assert!(e.to_string().contains("int16_t → int8_t"), "{e}");
    let e = error_on("910", |_| set_deq_scale_quant(1.0, 0, true));
    assert_eq!(e.category, Category::Unsupported);
    let e = error_on("910", |ub| {
        let s = ub.from(&[h(1.0); 16]);
        mul_add_relu(&s, &s, &s, 16)
    });
    assert_eq!(e.category, Category::Unsupported);
    // The products that have them run them.
    for p in ["310p", "a2", "a3", "310b"] {
        let v = run_p(p, |ub| {
            let s0 = ub.from(&[h(2.0); 16]);
            let s1 = ub.from(&[h(3.0); 16]);
            let d = ub.tensor(32, 0u8);
            mul_cast(&d, &s0, &s1, 16)?;
            mul_add_relu(&s0, &s1, &s1, 16)?;
            Ok((d.to_vec()?[0], s0.to_vec()?[0]))
        });
        assert_eq!(v, (6, h(9.0)), "{p}");
    }
}
