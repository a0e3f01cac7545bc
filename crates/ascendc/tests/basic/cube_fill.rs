//! `Fill` with `InitConstValueParams`: the page's examples (a 16 × 16 float matrix set to 1, the
//! last three columns of blocks of an L1 region and every other pair of L0A fractals set to 0),
//! the fixed 512-byte iterations of Atlas training/310P, the pipes, and the validation errors.

use crate::common;
use ascendc::api::cube::fill::{fill, InitConstValueParams};
use ascendc::chip::{ASCEND310P, ASCEND910};
use ascendc::core::trace::InstrKind;
use ascendc::prelude::*;
use ascendc::{Category, ChipProfile, LaunchReport};
use common::*;

/// Runs `f` on a tensor of `elems` elements at address 0 of `pos`, first filled with 7; returns
/// the tensor's contents after `f`, and the report.
fn filled<T: Element>(
    profile: &'static ChipProfile,
    pos: TPosition,
    elems: u32,
    f: impl Fn(&LocalTensor<T>) -> Result<()> + Sync,
) -> (Vec<T>, LaunchReport) {
    let out = Slot::new();
    let report = run_on(profile, || {
        let t = LocalTensor::<T>::new_at(pos, 0, elems)?;
        for i in 0..elems {
            t.set_value(i, T::from_f64(7.0))?;
        }
        f(&t)?;
        out.put(t.to_vec()?);
        Ok(())
    });
    (out.get(), report)
}

/// The pipes `Fill` instructions were recorded on.
fn fill_pipes(report: &LaunchReport) -> Vec<Pipe> {
    report.blocks[0]
        .trace
        .instructions()
        .iter()
        .filter(|i| i.api == "Fill" && i.kind == InstrKind::Op)
        .map(|i| i.pipe)
        .collect()
}

#[test]
fn page_example_sets_a_16x16_float_matrix_to_one_in_32_byte_blocks() {
    // Fill(leftMatrix, {1, 16 * 16 * sizeof(float) / 32, 0, 1}) on an L1 tensor.
    let (v, report) = filled::<f32>(ChipProfile::default_profile(), TPosition::A1, 300, |t| {
        fill(t, InitConstValueParams::new(1, 16 * 16 * 4 / 32, 0, 1.0))
    });
    assert!(v[..256].iter().all(|&x| x == 1.0));
    assert!(v[256..].iter().all(|&x| x == 7.0));
    assert_eq!(fill_pipes(&report), vec![Pipe::MTE2]);
}

#[test]
fn l1_figure_last_three_blocks_of_five_rows() {
    // Rows of 8 blocks (32 bytes: 16 halves); the tensor starts at block 5 of row 0:
    // repeatTimes 5, blockNum 3, dstGap 5 zero blocks 5..8 of every row.
    let (v, _) = filled::<f16>(
        ChipProfile::default_profile(),
        TPosition::B1,
        5 * 128,
        |t| {
            fill(
                &t.at(5 * 16)?,
                InitConstValueParams::new(5, 3, 5, f16::from_f32(0.0)),
            )
        },
    );
    for row in 0..5 {
        for block in 0..8 {
            let want = if block >= 5 { 0.0 } else { 7.0 };
            let at = row * 128 + block * 16;
            assert!(
                v[at..at + 16].iter().all(|x| x.to_f32() == want),
                "row {row} block {block}"
            );
        }
    }
}

#[test]
fn l0a_figure_two_fractals_every_five() {
    // repeatTimes 5, blockNum 2 (512-byte fractals), dstGap 3.
    let (v, report) = filled::<i32>(
        ChipProfile::default_profile(),
        TPosition::A2,
        25 * 128,
        |t| fill(t, InitConstValueParams::new(5, 2, 3, 0)),
    );
    for f in 0..25 {
        let want = if f % 5 < 2 { 0 } else { 7 };
        assert!(
            v[f * 128..(f + 1) * 128].iter().all(|&x| x == want),
            "fractal {f}"
        );
    }
    assert_eq!(fill_pipes(&report), vec![Pipe::MTE1]);
}

#[test]
fn bfloat16_into_l0b() {
    let one = bf16::from_f32(-2.5);
    let (v, _) = filled::<bf16>(
        ChipProfile::default_profile(),
        TPosition::B2,
        3 * 256,
        |t| fill(t, InitConstValueParams::new(2, 1, 1, one)),
    );
    for f in 0..3 {
        let want = if f == 1 { 7.0 } else { -2.5 };
        assert!(v[f * 256..(f + 1) * 256].iter().all(|x| x.to_f32() == want));
    }
}

#[test]
fn training_and_310p_set_512_contiguous_bytes_per_iteration() {
    for profile in [&ASCEND910, &ASCEND310P] {
        // blockNum and dstGap are not configurable there: 3 iterations set 3 × 512 bytes of L1.
        let (v, _) = filled::<f16>(profile, TPosition::A1, 4 * 256, |t| {
            fill(t, InitConstValueParams::new(3, 1, 9, f16::from_f32(1.5)))
        });
        assert!(v[..768].iter().all(|x| x.to_f32() == 1.5), "{profile}");
        assert!(v[768..].iter().all(|x| x.to_f32() == 7.0), "{profile}");
    }
    // The two-value form: repeatTimes and initValue.
    let (v, _) = filled::<i16>(&ASCEND310P, TPosition::B2, 2 * 256, |t| {
        fill(t, InitConstValueParams::repeats(1, -3))
    });
    assert!(v[..256].iter().all(|&x| x == -3) && v[256..].iter().all(|&x| x == 7));
}

#[test]
fn zero_repeats_or_blocks_are_no_ops() {
    for p in [
        InitConstValueParams::new(0, 4, 0, 1i32),
        InitConstValueParams::repeats(4, 1i32),
    ] {
        let (v, report) = filled::<i32>(ChipProfile::default_profile(), TPosition::A1, 64, |t| {
            fill(t, p)
        });
        assert!(v.iter().all(|&x| x == 7));
        assert!(fill_pipes(&report).is_empty());
    }
}

#[test]
fn element_types_per_product() {
    let e = fail_on(&ASCEND310P, || {
        let t = LocalTensor::<f32>::new_at(TPosition::A1, 0, 128)?;
        fill(&t, InitConstValueParams::new(1, 1, 0, 1.0))
    });
    assert_eq!(e.category, Category::Type);
    assert_mentions(&e, &["Fill", "float", "int16_t"]);
    let e = fail_on(&ASCEND910, || {
        let t = LocalTensor::<i16>::new_at(TPosition::A2, 0, 256)?;
        fill(&t, InitConstValueParams::new(1, 1, 0, 1))
    });
    assert_eq!(e.category, Category::Type);
    let e = fail(|| {
        let t = LocalTensor::<u8>::new_at(TPosition::A1, 0, 32)?;
        fill(&t, InitConstValueParams::new(1, 1, 0, 1))
    });
    assert_eq!(e.category, Category::Type);
}

#[test]
fn positions_alignment_ranges_and_sizes_are_checked() {
    let e = fail(|| {
        let t = LocalTensor::<f32>::new_at(TPosition::VECCALC, 0, 64)?;
        fill(&t, InitConstValueParams::new(1, 1, 0, 1.0))
    });
    assert_eq!(e.category, Category::Position);
    assert_mentions(&e, &["A1/B1 in L1, A2 in L0A or B2 in L0B"]);
    // L0A starts 512-byte aligned.
    let e = fail(|| {
        let t = LocalTensor::<f32>::new_at(TPosition::A2, 0, 512)?;
        fill(&t.at(64)?, InitConstValueParams::new(1, 1, 0, 1.0))
    });
    assert_eq!(e.category, Category::Align);
    let e = fail(|| {
        let t = LocalTensor::<f32>::new_at(TPosition::A1, 0, 64)?;
        fill(&t, InitConstValueParams::new(32768, 1, 0, 1.0))
    });
    assert_eq!(e.category, Category::Range);
    assert_mentions(&e, &["repeatTimes", "32768", "[0, 32767]"]);
    // 3 iterations of 2 blocks with a gap of 1 write 8 blocks (256 bytes); a 63-float tensor
    // is one float short: a warning.
    let r = run(|| {
        let t = LocalTensor::<f32>::new_at(TPosition::A1, 0, 63)?;
        fill(&t, InitConstValueParams::new(3, 2, 1, 1.0))
    });
    assert_warns(&r, &["256 bytes", "declared with 252"]);
}
