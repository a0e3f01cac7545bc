//! Compares and the CMPMASK register: Compare into the register, GetCmpMask, SetCmpMask and the
//! Select forms that read it; the pages' worked examples and the per-product refusals.

use crate::page_examples;
use crate::ub_harness;

use ascendc::prelude::*;
use ascendc::Category;
use page_examples::*;
use ub_harness::*;

fn floats(bits: &[u32]) -> Vec<f32> {
    bits.iter().map(|b| f32::from_bits(*b)).collect()
}

#[test]
fn compares_page_example_every_form() {
    let scalar = f32::from_bits(COMPARES_SCALARS[0]);
    for form in 0..3 {
        let out = run(|ub| {
            let src = ub.from(&floats(&COMPARES_SRC0));
            let dst = ub.tensor(32, 0xAAu8);
            let p = UnaryRepeatParams::new(1, 1, 8, 8);
            match form {
                0 => compares(&dst, &src, scalar, CMPMODE::LT, 256)?,
                1 => compares_l0(&dst, &src, scalar, CMPMODE::LT, 64u64, 4, p)?,
                _ => compares_l0(&dst, &src, scalar, CMPMODE::LT, [u64::MAX, 0], 4, p)?,
            }
            dst.to_vec()
        });
        assert_eq!(out, COMPARES_OUT.to_vec(), "form {form}");
    }
}

#[test]
fn compares_types_per_product() {
    // 310B compares int16 / uint32; A2 takes int32 with EQ only; 910 has no Compares.
    let v = run_p("310b", |ub| {
        let s = ub.from(&[-3i16, 5, 7, -1]);
        let mut all = vec![0i16; 128];
        all[..4].copy_from_slice(&s.to_vec()?);
        let s = ub.from(&all);
        let d = ub.tensor(32, 0u8);
        compares(&d, &s, 0i16, CMPMODE::GT, 128)?;
        Ok(d.to_vec()?[0])
    });
    assert_eq!(v, 0b0110);
    let v = run(|ub| {
        let mut all = vec![0i32; 64];
        all[3] = 9;
        let s = ub.from(&all);
        let d = ub.tensor(32, 0u8);
        compares(&d, &s, 9i32, CMPMODE::EQ, 64)?;
        Ok(d.to_vec()?[0])
    });
    assert_eq!(v, 0b1000);
    let e = error_on("a2", |ub| {
        let s = ub.from(&[0i32; 64]);
        let d = ub.tensor(32, 0u8);
        compares(&d, &s, 9i32, CMPMODE::NE, 64)
    });
    assert!(e.to_string().contains("only CMPMODE::EQ"), "{e}");
    let e = error_on("910", |ub| {
        let s = ub.from(&[h(0.0); 128]);
        let d = ub.tensor(32, 0u8);
        compares(&d, &s, h(1.0), CMPMODE::LT, 128)
    });
    assert_eq!(e.category, Category::Unsupported);
    assert!(e.to_string().contains("Compares"), "{e}");
    // The earlier spelling keeps its own table.
    let v = run_p("910", |ub| {
        let s = ub.from(&[h(0.0); 128]);
        let d = ub.tensor(32, 0u8);
        compare_scalar(&d, &s, h(1.0), CMPMODE::LT, 128)?;
        Ok(d.to_vec()?[0])
    });
    assert_eq!(v, 0xFF);
}

#[test]
fn compare_into_the_register_page_example() {
    for bits_form in [false, true] {
        let out = run(|ub| {
            let a = ub.from(&floats(&CMP_REG_SRC0));
            let b = ub.from(&floats(&CMP_REG_SRC1));
            let p = BinaryRepeatParams::new(1, 1, 1, 8, 8, 8);
            if bits_form {
                compare_cmp_mask(&a, &b, CMPMODE::LT, [u64::MAX, 0], p)?;
            } else {
                compare_cmp_mask(&a, &b, CMPMODE::LT, 64u64, p)?;
            }
            let d = ub.tensor(128, 0xEEu8);
            get_cmp_mask(&d)?;
            d.to_vec()
        });
        assert_eq!(&out[..8], &CMP_REG_OUT, "bits form {bits_form}");
        // Bits 64–127 were never written (zero at reset); bytes past 16 are untouched.
        assert!(out[8..16].iter().all(|&b| b == 0));
        assert!(out[16..].iter().all(|&b| b == 0xEE));
    }
}

#[test]
fn register_compare_keeps_the_bits_of_disabled_lanes() {
    let out = run(|ub| {
        let ones = ub.from(&[0xFFu8; 32]);
        set_cmp_mask(&ones)?;
        let a = ub.from(&[h(1.0); 128]);
        let b = ub.from(&[h(2.0); 128]);
        // Lanes 0..4 compare (1 > 2 is false); the rest keep their 1 bits.
        compare_cmp_mask(&a, &b, CMPMODE::GT, 4u64, BinaryRepeatParams::default())?;
        let d = ub.tensor(64, 0u16);
        get_cmp_mask(&d)?;
        Ok(d.reinterpret_cast::<u8>().to_vec()?[..16].to_vec())
    });
    let mut want = [0xFFu8; 16];
    want[0] = 0xF0;
    assert_eq!(out, want);
}

/// The page's Select data: `src0[i] = i`, `src1[i] = 1000 + i`, float, 64 lanes, 4 repeats.
fn select_inputs(ub: &mut Ub) -> (LocalTensor<f32>, LocalTensor<f32>, LocalTensor<f32>) {
    let a: Vec<f32> = (0..256).map(|i| i as f32).collect();
    let b: Vec<f32> = (0..256).map(|i| 1000.0 + i as f32).collect();
    (ub.from(&a), ub.from(&b), ub.tensor(256, -1.0f32))
}

#[test]
fn select_mode_0_reuses_the_register_bits_every_repeat() {
    let out = run(|ub| {
        let (s0, s1, dst) = select_inputs(ub);
        let mut sel = [0u8; 32];
        sel[0] = 0b0000_0101;
        sel[7] = 0x80;
        let sel = ub.from(&sel);
        set_cmp_mask(&sel)?;
        set_vector_mask::<f32>(MaskMode::NORMAL, 64u64)?;
        select_cmp_mask(
            &dst,
            &s0,
            &s1,
            SELMODE::VSEL_CMPMASK_SPR,
            4,
            BinaryRepeatParams::default(),
        )?;
        dst.to_vec()
    });
    for r in 0..4 {
        for k in 0..64 {
            let i = r * 64 + k;
            let pick0 = k == 0 || k == 2 || k == 63;
            let want = if pick0 { i as f32 } else { 1000.0 + i as f32 };
            assert_eq!(out[i], want, "lane {i}");
        }
    }
}

#[test]
fn select_mode_1_takes_the_scalar_from_the_register() {
    let out = run(|ub| {
        let (s0, _, dst) = select_inputs(ub);
        let tmp = ub.tensor(32, 0.0f32);
        set_vector_mask::<u32>(MaskMode::NORMAL, 32u64)?;
        duplicate_l0(&tmp, 1.5f32, MASK_PLACEHOLDER, 1, 1, 8)?;
        set_cmp_mask(&tmp)?;
        let mut sel = [0u8; 32];
        sel[8] = 1; // repeat 1, lane 0
        sel[31] = 0x80; // repeat 3, lane 63
        let sel = ub.from(&sel);
        // Only the first 16 lanes of every repeat run; the rest keep −1.
        set_vector_mask::<f32>(MaskMode::NORMAL, [0xFFFFu64, 0])?;
        select_cmp_mask_scalar(&dst, &sel, &s0, 4, BinaryRepeatParams::default())?;
        dst.to_vec()
    });
    for (i, got) in out.iter().enumerate() {
        let k = i % 64;
        let want = if k >= 16 {
            -1.0
        } else if i == 64 {
            64.0
        } else {
            1.5
        };
        assert_eq!(*got, want, "lane {i}");
    }
}

#[test]
fn select_mode_2_reads_the_sel_mask_at_the_register_address() {
    let out = run(|ub| {
        let (s0, s1, dst) = select_inputs(ub);
        let mut sel = [0u8; 32];
        sel[0] = 1;
        sel[8] = 2;
        sel[16] = 4;
        sel[24] = 8;
        let sel = ub.from(&sel);
        let addr = ub.from(&[sel.get_phy_addr() as u64, 0]);
        set_cmp_mask(&addr)?;
        set_vector_mask::<f32>(MaskMode::NORMAL, 64u64)?;
        select_cmp_mask(
            &dst,
            &s0,
            &s1,
            SELMODE::VSEL_TENSOR_TENSOR_MODE,
            4,
            BinaryRepeatParams::default(),
        )?;
        dst.to_vec()
    });
    for r in 0..4 {
        for k in 0..64 {
            let i = r * 64 + k;
            let want = if k == r { i as f32 } else { 1000.0 + i as f32 };
            assert_eq!(out[i], want, "lane {i}");
        }
    }
}

#[test]
fn cmp_mask_apis_refuse_with_the_reason() {
    for p in ["910", "310b"] {
        let e = error_on(p, |ub| {
            let d = ub.tensor(128, 0u8);
            get_cmp_mask(&d)
        });
        assert_eq!(e.category, Category::Unsupported);
        assert!(e.to_string().contains("no CMPMASK register"), "{e}");
        let e = error_on(p, |ub| {
            let (s0, s1, d) = select_inputs(ub);
            select_cmp_mask(
                &d,
                &s0,
                &s1,
                SELMODE::VSEL_CMPMASK_SPR,
                1,
                BinaryRepeatParams::default(),
            )
        });
        assert_eq!(e.category, Category::Unsupported);
    }
    let e = error_on("a2", |ub| {
        let d = ub.tensor(16, 0u8);
        get_cmp_mask(&d)
    });
    assert_eq!(e.category, Category::Size);
    let e = error_on("a2", |ub| {
        let d = ub.tensor(64, 0u8).at(8)?;
        set_cmp_mask(&d)
    });
    assert_eq!(e.category, Category::Align);
    let e = error_on("a2", |ub| {
        let d = ub.tensor(64, 0u64);
        get_cmp_mask(&d)
    });
    assert_eq!(e.category, Category::Type);
    let e = error_on("a2", |ub| {
        let (s0, s1, d) = select_inputs(ub);
        let bad = ub.from(&[0x7u64, 0]);
        set_cmp_mask(&bad)?;
        select_cmp_mask(
            &d,
            &s0,
            &s1,
            SELMODE::VSEL_TENSOR_TENSOR_MODE,
            1,
            BinaryRepeatParams::default(),
        )
    });
    assert_eq!(e.category, Category::Memory);
    let e = error_on("a2", |ub| {
        let (s0, s1, d) = select_inputs(ub);
        select_cmp_mask(
            &d,
            &s0,
            &s1,
            SELMODE::VSEL_TENSOR_SCALAR_MODE,
            1,
            BinaryRepeatParams::default(),
        )
    });
    assert_eq!(e.category, Category::Range);
    let e = error_on("a2", |ub| {
        let a = ub.from(&[0i32; 64]);
        compare_cmp_mask(&a, &a, CMPMODE::EQ, 64u64, BinaryRepeatParams::default())
    });
    assert_eq!(e.category, Category::Type);
}
