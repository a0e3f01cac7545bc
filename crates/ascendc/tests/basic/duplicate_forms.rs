//! Duplicate: the page's worked example in its three forms, every element type on every
//! product, block strides and masked lanes, and the 950-only types refused.

use crate::ub_harness;

use ascendc::prelude::*;
use ascendc::Category;
use ub_harness::*;

#[test]
fn page_example_every_form() {
    for form in 0..3 {
        let out = run(|ub| {
            let d = ub.tensor(256, h(0.0));
            match form {
                0 => duplicate_l0(&d, h(18.0), 128u64, 2, 1, 8)?,
                1 => duplicate_l0(&d, h(18.0), [u64::MAX, u64::MAX], 2, 1, 8)?,
                _ => duplicate(&d, h(18.0), 256)?,
            }
            Ok(bits16(&d.to_vec()?))
        });
        assert_eq!(out, vec![h(18.0).to_bits(); 256], "form {form}");
    }
}

fn all_types_on(p: &str) {
    fn one<T: Element + PartialEq + std::fmt::Debug>(ub: &mut Ub, v: T, zero: T) -> Result<()> {
        let lanes = 256 / T::SIZE as u32;
        let d = ub.tensor(2 * lanes, zero);
        // Lanes 0 and 2 of repeat 0 and 1 (repeat stride 8 blocks).
        duplicate_l0(&d, v, [0b101u64, 0], 2, 1, 8)?;
        let got = d.to_vec()?;
        for (i, g) in got.iter().enumerate() {
            let k = i as u32 % lanes;
            assert_eq!(
                *g,
                if k == 0 || k == 2 { v } else { zero },
                "{} lane {i}",
                T::DTYPE
            );
        }
        Ok(())
    }
    run_p(p, |ub| {
        one(ub, -7i16, 0)?;
        one(ub, 0xBEEFu16, 0)?;
        one(ub, h(-2.5), h(0.0))?;
        one(ub, bf16::from_f32(3.0), bf16::from_f32(0.0))?;
        one(ub, -70000i32, 0)?;
        one(ub, 0xDEAD_BEEFu32, 0)?;
        one(ub, 1.25f32, 0.0)
    });
}

#[test]
fn every_type_on_every_product() {
    for p in ["910", "310p", "a2", "a3", "310b"] {
        all_types_on(p);
    }
}

#[test]
fn block_stride_skips_blocks_and_masked_lanes_keep_values() {
    let out = run(|ub| {
        let d = ub.tensor(64, h(1.0));
        // 32 lanes = 2 blocks of 16 halves; block stride 2 writes blocks 0 and 2.
        duplicate_l0(&d, h(5.0), 32u64, 1, 2, 8)?;
        d.to_vec()
    });
    for (i, v) in out.iter().enumerate() {
        let want = if i < 16 || (32..48).contains(&i) {
            5.0
        } else {
            1.0
        };
        assert_eq!(v.to_f32(), want, "{i}");
    }
}

#[test]
fn types_of_other_products_are_refused() {
    let e = error_on("a2", |ub| {
        let d = ub.tensor(32, 0i8);
        duplicate(&d, 1i8, 32)
    });
    assert_eq!(e.category, Category::Type);
    assert!(e.to_string().contains("int8_t"), "{e}");
}
