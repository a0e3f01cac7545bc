//! Validation rules of validation.md for the element-wise instructions: each error names the
//! API, the parameter, the value and the rule, with the kernel source line.

use crate::ub_harness;
use ascendc::prelude::*;
use ascendc::Category;
use ub_harness::*;

const P: BinaryRepeatParams = BinaryRepeatParams::new(1, 1, 1, 8, 8, 8);

#[test]
fn position_must_be_ub() {
    let err = Launch::new(1)
        .run(|| {
            let mut pipe = TPipe::new();
            let mut q: TQue<QuePosition::A1, 1> = TQue::new();
            pipe.init_buffer(&mut q, 1, 1024)?;
            let t = q.alloc_tensor::<f16>()?;
            add(&t, &t, &t, 16)
        })
        .unwrap_err();
    let e = &err.errors[0];
    assert_eq!(e.category, Category::Position);
    assert!(
        e.message.contains("operand `dst`") && e.message.contains("UB"),
        "{e}"
    );
}

#[test]
fn start_address_alignment() {
    let e = error_on("A2", |ub| {
        let t = ub.tensor(64, 1.0f32);
        let v = t.at(1)?;
        exp(&v, &t, 8)
    });
    assert_eq!(e.category, Category::Align);
    assert!(
        e.message.contains("`dst`") && e.message.contains("32-byte aligned"),
        "{e}"
    );
    assert!(e.location.unwrap().file.ends_with("vector_validation.rs"));
}

#[test]
fn extent_level0_and_level2_and_nothing_written() {
    // 128 halves, full mask, repeat 4 needs 1024 bytes (checker unit-test example).
    let e = error_on("A2", |ub| {
        let t = ub.tensor(128, h(1.0));
        let d = ub.tensor(128, h(0.0));
        let r = add_l0(&d, &t, &t, 128u64, 4, P);
        assert!(
            d.to_vec()?.iter().all(|x| *x == h(0.0)),
            "a failing call writes nothing"
        );
        r
    });
    assert_eq!(e.category, Category::Size);
    assert!(
        e.message.contains("at least 1024 bytes") && e.message.contains("only 256 bytes"),
        "{e}"
    );
    let e = error_on("A2", |ub| {
        let t = ub.tensor(128, h(1.0));
        add(&t, &t, &t, 256)
    });
    assert!(
        e.message.contains("at least 512 bytes") && e.message.contains("counter mode"),
        "{e}"
    );
    // 910 level 2 is split: the last chunk is checked before the first one runs.
    let e = error_on("910", |ub| {
        let t = ub.tensor(128, h(1.0));
        let d = ub.tensor(128, h(0.0));
        let r = add(&d, &t, &t, 200);
        assert!(d.to_vec()?.iter().all(|x| *x == h(0.0)));
        r
    });
    assert!(e.message.contains("normal mode"), "{e}");
}

#[test]
fn mask_zero_error_on_910_and_310p_warning_elsewhere() {
    for p in ["910", "310P"] {
        let e = error_on(p, |ub| {
            let t = ub.tensor(64, 1.0f32);
            add_l0(&t, &t, &t, 0u64, 1, P)
        });
        assert!(e.message.contains("parameter `mask` = 0"), "{p}: {e}");
    }
    let w = warnings_on("A2", |ub| {
        let t = ub.tensor(64, 1.0f32);
        add_l0(&t, &t, &t, [0u64, 0], 1, P)
    });
    assert!(
        w.iter().any(|m| m.contains("the mask enables no lane")),
        "{w:?}"
    );
}

#[test]
fn contiguous_mask_beyond_the_lanes() {
    let e = error_on("A2", |ub| {
        let t = ub.tensor(64, 1.0f32);
        add_l0(&t, &t, &t, 65u64, 1, P)
    });
    assert_eq!(e.category, Category::Range);
    assert!(
        e.message.contains("`mask` = 65") && e.message.contains("[0, 64]"),
        "{e}"
    );
}

#[test]
fn sixty_four_bit_mask_word_and_counter_warnings() {
    let e = error_on("A2", |ub| {
        let s = ub.tensor(32, 1i32);
        let d = ub.tensor(32, 0i64);
        cast_l0(
            &d,
            &s,
            RoundMode::CAST_NONE,
            [1u64 << 40, 0],
            1,
            UnaryRepeatParams::new(1, 1, 8, 4),
        )
    });
    assert!(
        e.message.contains("`mask[0]`") && e.message.contains("2^32 − 1"),
        "{e}"
    );
    let w = warnings_on("A2", |ub| {
        let t = ub.tensor(256, 1.0f32);
        let d = ub.tensor(256, 0.0f32);
        set_mask_count()?;
        // Contiguous 5 becomes bits 0x1F: the counter then runs 31 elements.
        adds_l0(&d, &t, 1.0, 5u64, 1, UnaryRepeatParams::default())?;
        set_mask_norm()?;
        assert_eq!(d.to_vec()?.iter().filter(|x| **x == 2.0).count(), 31);
        Ok(())
    });
    assert!(
        w.iter()
            .any(|m| m.contains("in counter mode is converted to a lane bit pattern")),
        "{w:?}"
    );
}

#[test]
fn repeat_zero_and_count_zero_are_nops_with_warnings() {
    let w = warnings_on("910", |ub| {
        let t = ub.tensor(64, 1.0f32);
        mul_l0(&t, &t, &t, 64u64, 0, P)?;
        mul(&t, &t, &t, 0)?;
        assert!(t.to_vec()?.iter().all(|x| *x == 1.0));
        Ok(())
    });
    assert!(w.iter().any(|m| m.contains("repeatTimes = 0")));
    assert!(w.iter().any(|m| m.contains("count = 0")));
}

#[test]
fn negative_count() {
    let e = error_on("A2", |ub| {
        let t = ub.tensor(64, 1.0f32);
        sub(&t, &t, &t, -1)
    });
    assert!(e.message.contains("`count` = -1"), "{e}");
}

#[test]
fn dtype_tables_per_product() {
    let e = error_on("910", |ub| {
        let t = ub.tensor(128, 1i16);
        add(&t, &t, &t, 128)
    });
    assert_eq!(e.category, Category::Type);
    assert!(
        e.message.contains("int16_t") && e.message.contains("Ascend910"),
        "{e}"
    );
    let e = error_on("910", |ub| {
        let t = ub.tensor(128, h(1.0));
        add_relu(&t, &t, &t, 128)
    });
    assert_eq!(e.category, Category::Unsupported);
    let e = error_on("A2", |ub| {
        let s = ub.tensor(64, 1.0f32);
        let d = ub.tensor(64, 0u8);
        cast(&d, &s, RoundMode::CAST_RINT, 64)
    });
    assert!(e.message.contains("float → uint8_t"), "{e}");
    let e = error_on("A2", |ub| {
        let s = ub.tensor(64, h(1.0));
        let d = ub.tensor(64, 0i32);
        cast(&d, &s, RoundMode::CAST_ODD, 64)
    });
    assert!(e.message.contains("`roundMode` = CAST_ODD"), "{e}");
    let e = error_on("A2", |ub| {
        let s = ub.tensor(64, 1i32);
        let d = ub.tensor(32, 0u8);
        compare(&d, &s, &s, CMPMODE::LT, 64)
    });
    assert!(e.message.contains("only CMPMODE::EQ"), "{e}");
    let e = error_on("910", |ub| {
        let s = ub.tensor(64, 1.0f32);
        let m = ub.tensor(32, 0u8);
        select(&s, &m, &s, &s, SELMODE::VSEL_TENSOR_TENSOR_MODE, 64)
    });
    assert!(e.message.contains("`selMode`"), "{e}");
}

#[test]
fn shift_amount_and_round_en() {
    let e = error_on("A2", |ub| {
        let t = ub.tensor(16, 1i16);
        shift_left(&t, &t, 17, 16)
    });
    assert!(
        e.message.contains("`scalarValue` = 17") && e.message.contains("[0, 16]"),
        "{e}"
    );
    let e = error_on("A2", |ub| {
        let t = ub.tensor(16, 1u16);
        shift_right_l0(&t, &t, 1, 16u64, 1, UnaryRepeatParams::default(), true)
    });
    assert!(
        e.message.contains("`roundEn`") && e.message.contains("unsigned"),
        "{e}"
    );
    let e = error_on("310B", |ub| {
        let t = ub.tensor(16, 1i16);
        shift_right_l0(&t, &t, 1, 16u64, 1, UnaryRepeatParams::default(), true)
    });
    assert!(e.message.contains("not supported on Ascend310B"), "{e}");
}

#[test]
fn counter_mode_and_saturation_switch_are_product_rules() {
    let e = error_on("910", |_| set_mask_count());
    assert!(
        e.message.contains("counter mask mode is not available"),
        "{e}"
    );
    for p in ["910", "310P", "310B"] {
        let e = error_on(p, |_| set_saturation_flag(false));
        assert_eq!(e.category, Category::Unsupported);
        assert!(e.message.contains("cannot be switched"), "{p}: {e}");
    }
}

#[test]
fn cast_level2_overlap() {
    let e = error_on("A2", |ub| {
        let t = ub.tensor(256, h(1.0));
        let wide = t.reinterpret_cast::<f32>();
        cast(&wide, &t, RoundMode::CAST_NONE, 64)
    });
    assert_eq!(e.category, Category::Overlap);
}

#[test]
fn compare_count_not_whole_repeats_warns() {
    let w = warnings_on("A2", |ub| {
        let a = ub.tensor(128, 1.0f32);
        let d = ub.tensor(32, 0u8);
        compare_scalar(&d, &a, 2.0, CMPMODE::LT, 100)?;
        assert_eq!(
            d.to_vec()?[..10],
            [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0]
        );
        Ok(())
    });
    assert!(
        w.iter()
            .any(|m| m.contains("the last 36 element(s) are not compared")),
        "{w:?}"
    );
}

#[test]
fn destination_stride_overlap_warns() {
    let w = warnings_on("A2", |ub| {
        let t = ub.tensor(512, h(1.0));
        add_l0(
            &t,
            &t,
            &t,
            128u64,
            2,
            BinaryRepeatParams::new(0, 1, 1, 8, 8, 8),
        )?;
        add_l0(
            &t,
            &t,
            &t,
            128u64,
            2,
            BinaryRepeatParams::new(1, 1, 1, 4, 8, 8),
        )
    });
    assert!(w.iter().any(|m| m.contains("block stride 0")));
    assert!(w
        .iter()
        .any(|m| m.contains("repeat stride 4 makes consecutive repeats overlap")));
}
