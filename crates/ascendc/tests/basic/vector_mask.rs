//! Addressing, masks and mask state: test-vectors.md V3–V8, seed 002's four Add calls, the mask
//! APIs, level-2 with `KEEP_MASK`.

#![allow(clippy::needless_range_loop)]

use crate::ub_harness;
use ascendc::core::trace::InstrKind;
use ascendc::prelude::*;
use ub_harness::*;

const P: BinaryRepeatParams = BinaryRepeatParams::new(1, 1, 1, 8, 8, 8);

#[test]
fn seed_002_add_mask_64_int16_and_int32() {
    let (a, b) = run(|ub| {
        let s: Vec<i16> = (1..=128).collect();
        let s = ub.from(&s);
        let d = ub.tensor(128, 0x7777i16);
        add_l0(&d, &s, &s, 64u64, 1, P)?;
        let s32: Vec<i32> = (1..=64).collect();
        let s32 = ub.from(&s32);
        let d32 = ub.tensor(64, 0x7777i32);
        add_l0(&d32, &s32, &s32, 64u64, 1, P)?;
        Ok((d.to_vec()?, d32.to_vec()?))
    });
    for i in 0..128 {
        let want = if i < 64 { 2 * (i as i16 + 1) } else { 0x7777 };
        assert_eq!(a[i], want, "int16 element {i}");
    }
    assert_eq!(b, (1..=64).map(|i| 2 * i).collect::<Vec<i32>>());
}

#[test]
fn seed_002_bitwise_masks_v4() {
    let m = 6148914691236517205u64;
    assert_eq!(m, 0x5555_5555_5555_5555);
    let (a, b) = run(move |ub| {
        let s: Vec<i16> = (1..=128).collect();
        let s = ub.from(&s);
        let d = ub.tensor(128, 0x7777i16);
        add_l0(&d, &s, &s, [m, m], 1, P)?;
        let s32: Vec<i32> = (1..=64).collect();
        let s32 = ub.from(&s32);
        let d32 = ub.tensor(64, 0x7777i32);
        add_l0(&d32, &s32, &s32, [m, 0], 1, P)?;
        Ok((d.to_vec()?, d32.to_vec()?))
    });
    assert_eq!((a[0], a[126]), (0x0002, 0x00FE));
    for i in 0..128 {
        let want = if i % 2 == 0 {
            2 * (i as i16 + 1)
        } else {
            0x7777
        };
        assert_eq!(a[i], want, "int16 element {i}");
    }
    for i in 0..64 {
        let want = if i % 2 == 0 {
            2 * (i as i32 + 1)
        } else {
            0x7777
        };
        assert_eq!(b[i], want, "int32 element {i}");
    }
}

#[test]
fn v3_counter_mode_with_strides() {
    let out = run(|ub| {
        let s = ub.tensor(512, h(0.0));
        let d = ub.tensor(512, h(-1.0));
        set_mask_count()?;
        set_vector_mask::<f16>(MaskMode::COUNTER, 130u64)?;
        adds_l0(
            &d,
            &s,
            h(1.0),
            MASK_PLACEHOLDER,
            1,
            UnaryRepeatParams::new(2, 2, 16, 16),
        )?;
        set_mask_norm()?;
        reset_mask()?;
        d.to_vec()
    });
    let changed: Vec<usize> = (0..512).filter(|&i| out[i] == h(1.0)).collect();
    let mut want: Vec<usize> = (0..8).flat_map(|b| 32 * b..32 * b + 16).collect();
    want.extend([256, 257]);
    assert_eq!(changed, want);
    assert!(out.iter().all(|x| *x == h(1.0) || *x == h(-1.0)));
}

#[test]
fn v7_accumulate_all_repeats_into_one_block() {
    let out = run(|ub| {
        let x = ub.tensor(64, 1.0f32);
        let y: Vec<f32> = (0..256).map(|i| (i / 64 + 1) as f32).collect();
        let y = ub.from(&y);
        add_l0(
            &x,
            &y,
            &x,
            64u64,
            4,
            BinaryRepeatParams::new(1, 1, 1, 0, 8, 0),
        )?;
        x.to_vec()
    });
    assert_eq!(out, vec![11.0; 64]);
}

#[test]
fn v8_level2_on_910_is_full_repeats_plus_a_masked_tail() {
    let l = Launch::new(1)
        .profile(ascendc::chip::ChipProfile::by_name("910").unwrap())
        .record_trace(true);
    let (base, report) = ub_harness::run_on(l, |ub| {
        let a = ub.tensor(1000, h(1.0));
        let d = ub.tensor(1000, h(0.0));
        add(&d, &a, &a, 1000)?;
        assert!(d.to_vec()?.iter().all(|x| *x == h(2.0)));
        Ok(d.get_phy_addr() as u64)
    })
    .unwrap();
    let t = &report.blocks[0].trace;
    let adds: Vec<_> = t
        .instructions()
        .iter()
        .filter(|i| i.api == "Add" && i.kind == InstrKind::Op)
        .collect();
    assert_eq!(adds.len(), 2);
    let dst0 = t.accesses(adds[0])[0];
    let dst1 = t.accesses(adds[1])[0];
    assert_eq!((dst0.base, dst0.repeats), (base, 7));
    assert_eq!((dst1.base, dst1.repeats), (base + 896 * 2, 1));
    // A2: one counter-mode instruction.
    let (_, report) = ub_harness::run_on(Launch::new(1).record_trace(true), |ub| {
        let a = ub.tensor(1000, h(1.0));
        add(&a, &a, &a, 1000)
    })
    .unwrap();
    let n = report.blocks[0]
        .trace
        .instructions()
        .iter()
        .filter(|i| i.api == "Add")
        .count();
    assert_eq!(n, 1);
}

#[test]
fn level0_mask_persists_and_keep_mask_uses_it() {
    let out = run(|ub| {
        let s = ub.tensor(256, 1i32);
        let d = ub.tensor(256, 0i32);
        add_l0(&d, &s, &s, 3u64, 1, P)?; // MASK := first 3 lanes
        adds_l0(
            &d,
            &s,
            10,
            MASK_PLACEHOLDER,
            2,
            UnaryRepeatParams::default(),
        )?;
        let after_l0 = d.to_vec()?;
        let e = ub.tensor(256, 0i32);
        set_vector_mask::<i32>(MaskMode::NORMAL, Mask::high_low(0, 0b1001))?;
        muls(&e, &s, 5, KEEP_MASK)?; // one repeat under the current mask
        let keep = e.to_vec()?;
        Ok((after_l0, keep))
    });
    assert_eq!(out.0[..3], [11, 11, 11]);
    assert_eq!(out.0[3..64], vec![0; 61][..]);
    assert_eq!(out.0[64..67], [11, 11, 11]);
    assert_eq!(out.1[..4], [5, 0, 0, 5]);
    assert!(out.1[4..].iter().all(|x| *x == 0));
}

#[test]
fn keep_mask_in_counter_mode_runs_the_register_count() {
    let out = run(|ub| {
        let s = ub.tensor(256, h(2.0));
        let d = ub.tensor(256, h(0.0));
        set_mask_count()?;
        set_vector_mask::<f16>(MaskMode::COUNTER, 200u64)?;
        exp(&d, &s, KEEP_MASK)?;
        set_mask_norm()?;
        reset_mask()?;
        d.to_vec()
    });
    assert!(out[..200].iter().all(|x| *x == h(7.389)));
    assert!(out[200..].iter().all(|x| *x == h(0.0)));
}

#[test]
fn level2_restores_normal_mode_and_full_mask_on_a2() {
    let out = run(|ub| {
        let s = ub.tensor(128, h(1.0));
        let d = ub.tensor(128, h(0.0));
        add_l0(&d, &s, &s, 5u64, 1, P)?;
        add(&d, &s, &s, 1)?;
        // MASK is all ones again: a Keep call covers the whole repeat.
        adds_l0(
            &d,
            &s,
            h(2.0),
            MASK_PLACEHOLDER,
            1,
            UnaryRepeatParams::default(),
        )?;
        d.to_vec()
    });
    assert!(out.iter().all(|x| *x == h(3.0)));
}

#[test]
fn contiguous_mask_conversion_v2() {
    // The register after a contiguous level-0 mask, seen through a Keep call on int16.
    for (len, lanes) in [(0u64, 0usize), (5, 5), (64, 64), (70, 70), (128, 128)] {
        let out = run(move |ub| {
            let s = ub.tensor(128, 1i16);
            let d = ub.tensor(128, 0i16);
            set_vector_mask::<i16>(MaskMode::NORMAL, len)?;
            adds_l0(&d, &s, 1, MASK_PLACEHOLDER, 1, UnaryRepeatParams::default())?;
            d.to_vec()
        });
        let n = out.iter().filter(|x| **x == 2).count();
        assert_eq!(n, lanes, "len {len}");
        assert!(out[..lanes].iter().all(|x| *x == 2));
    }
}

#[test]
fn mixed_width_cast_geometry() {
    // half → int32 level 0: 64 lanes, src repeat stride 4 blocks, dst 8 (vector-model.md §4 B).
    let out = run(|ub| {
        let s: Vec<f16> = (0..128).map(|i| h(i as f32)).collect();
        let s = ub.from(&s);
        let d = ub.tensor(128, -1i32);
        cast_l0(
            &d,
            &s,
            RoundMode::CAST_RINT,
            64u64,
            2,
            UnaryRepeatParams::new(1, 1, 8, 4),
        )?;
        d.to_vec()
    });
    assert_eq!(out, (0..128).collect::<Vec<i32>>());
    assert_eq!(out[101], 101);
}

#[test]
fn mul_add_dst_half_float_uses_64_lanes() {
    let out = run(|ub| {
        let a = ub.tensor(128, h(2.0));
        let d = ub.tensor(128, 1.0f32);
        mul_add_dst_l0(
            &d,
            &a,
            &a,
            64u64,
            1,
            BinaryRepeatParams::new(1, 1, 1, 8, 4, 4),
        )?;
        d.to_vec()
    });
    assert!(out[..64].iter().all(|x| *x == 5.0));
    assert!(out[64..].iter().all(|x| *x == 1.0));
}

#[test]
fn level0_select_keeps_masked_lanes() {
    let out = run(|ub| {
        let a = ub.tensor(64, 1.0f32);
        let b = ub.tensor(64, 2.0f32);
        let m = ub.tensor(32, 0xFFu8);
        let d = ub.tensor(64, 9.0f32);
        select_l0(&d, &m, &a, &b, SELMODE::VSEL_TENSOR_TENSOR_MODE, 4u64, 1, P)?;
        d.to_vec()
    });
    assert_eq!(out[..5], [1.0, 1.0, 1.0, 1.0, 9.0]);
}
