//! `BroadCastVecToMM` (Atlas inference series AI Core): the page's example (a [1, 32] bias
//! broadcast to a [32, 32] NZ matrix), the sample's [1, 16] → [16, 16], source and destination
//! gaps, every element type, the pipe and the validation errors.

use crate::common;
use ascendc::api::cube::broadcast::broad_cast_vec_to_mm;
use ascendc::api::cube::layout::nz_to_nd;
use ascendc::chip::ASCEND310P;
use ascendc::core::trace::InstrKind;
use ascendc::prelude::*;
use ascendc::{Category, LaunchReport};
use common::*;

/// Puts `src` at VECIN address 0 and a CO1 tensor of `dst_elems` elements filled with 9 at L0C
/// address 0, runs `f`, and returns the CO1 contents and the report.
fn broadcast<T: Element>(
    src: &[T],
    dst_elems: u32,
    f: impl Fn(&LocalTensor<T>, &LocalTensor<T>) -> Result<()> + Sync,
) -> (Vec<T>, LaunchReport) {
    let out = Slot::new();
    let report = run_on(&ASCEND310P, || {
        let s = LocalTensor::<T>::new_at(TPosition::VECIN, 0, src.len() as u32)?;
        for (i, &v) in src.iter().enumerate() {
            s.set_value(i as u32, v)?;
        }
        let d = LocalTensor::<T>::new_at(TPosition::CO1, 0, dst_elems)?;
        for i in 0..dst_elems {
            d.set_value(i, T::from_f64(9.0))?;
        }
        f(&d, &s)?;
        out.put(d.to_vec()?);
        Ok(())
    });
    (out.get(), report)
}

#[test]
fn page_example_bias_1x32_to_32x32_nz() {
    let bias: Vec<f32> = (0..32).map(|i| i as f32 * 1.5 - 7.0).collect();
    // As a matmul starts from its bias: for each row block i, the N/16 column blocks
    // (blockCount 2, blockLen 1) are M/16 = 2 fractals apart (dstGap 1).
    let (c, report) = broadcast(&bias, 32 * 32, |d, s| {
        for i in 0..2 {
            broad_cast_vec_to_mm(&d.at(i * 256)?, s, 2, 1, 0, 1)?;
        }
        Ok(())
    });
    let nd = nz_to_nd(&c, 32, 32, 16, 16);
    for r in 0..32 {
        assert_eq!(&nd[r * 32..(r + 1) * 32], &bias[..], "row {r}");
    }
    let pipes: Vec<Pipe> = report.blocks[0]
        .trace
        .instructions()
        .iter()
        .filter(|i| i.api == "BroadCastVecToMM" && i.kind == InstrKind::Op)
        .map(|i| i.pipe)
        .collect();
    assert_eq!(pipes, vec![Pipe::V, Pipe::V]);
}

#[test]
fn sample_16_floats_to_one_fractal() {
    let x: Vec<f32> = (0..16).map(|i| (i * i) as f32 - 30.25).collect();
    let (c, _) = broadcast(&x, 2 * 256, |d, s| broad_cast_vec_to_mm(d, s, 1, 1, 0, 1));
    for r in 0..16 {
        assert_eq!(&c[r * 16..(r + 1) * 16], &x[..]);
    }
    assert!(c[256..].iter().all(|&v| v == 9.0));
}

#[test]
fn half_blocks_with_source_and_destination_gaps() {
    // Two blocks of 32 halves (blockLen 2), one 32-byte block skipped between them in UB, one
    // fractal skipped between them in L0C.
    let x: Vec<f16> = (0..80).map(|i| f16::from_f32(i as f32)).collect();
    let (c, _) = broadcast(&x, 6 * 256, |d, s| broad_cast_vec_to_mm(d, s, 2, 2, 1, 1));
    let chunk = |first: usize| -> Vec<f16> { x[first..first + 16].to_vec() };
    // Fractals 0, 1: source elements 0..16, 16..32; fractal 2 untouched; fractals 3, 4: source
    // elements 48..64, 64..80 (block 1 starts 32 + 16 elements in).
    let want = [Some(0), Some(16), None, Some(48), Some(64), None];
    for (f, w) in want.iter().enumerate() {
        for r in 0..16 {
            let row = &c[f * 256 + r * 16..f * 256 + (r + 1) * 16];
            match w {
                Some(first) => assert_eq!(row, &chunk(*first)[..], "fractal {f} row {r}"),
                None => assert!(row.iter().all(|v| v.to_f32() == 9.0), "fractal {f}"),
            }
        }
    }
}

#[test]
fn int32_values_are_copied_bit_for_bit() {
    let x: Vec<i32> = (0..16).map(|i| i32::MIN + i * 977).collect();
    let (c, _) = broadcast(&x, 256, |d, s| broad_cast_vec_to_mm(d, s, 1, 1, 0, 0));
    assert!((0..16).all(|r| c[r * 16..(r + 1) * 16] == x[..]));
}

#[test]
fn only_the_inference_ai_core_has_it() {
    let e = fail(|| {
        let s = LocalTensor::<f32>::new_at(TPosition::VECIN, 0, 16)?;
        let d = LocalTensor::<f32>::new_at(TPosition::CO1, 0, 256)?;
        broad_cast_vec_to_mm(&d, &s, 1, 1, 0, 0)
    });
    assert_eq!(e.category, Category::Unsupported);
    assert_mentions(&e, &["BroadCastVecToMM", "Atlas A2"]);
}

#[test]
fn types_ranges_positions_and_alignment_are_checked() {
    let e = fail_on(&ASCEND310P, || {
        let s = LocalTensor::<f16>::new_at(TPosition::VECIN, 0, 16)?;
        let d = LocalTensor::<f32>::new_at(TPosition::CO1, 0, 256)?;
        broad_cast_vec_to_mm(&d, &s, 1, 1, 0, 0)
    });
    assert_eq!(e.category, Category::Type);
    assert_mentions(&e, &["half → float"]);
    let e = fail_on(&ASCEND310P, || {
        let s = LocalTensor::<i16>::new_at(TPosition::VECIN, 0, 16)?;
        let d = LocalTensor::<i16>::new_at(TPosition::CO1, 0, 256)?;
        broad_cast_vec_to_mm(&d, &s, 1, 1, 0, 0)
    });
    assert_eq!(e.category, Category::Type);
    for (count, len, param) in [
        (0, 1, "blockCount"),
        (256, 1, "blockCount"),
        (1, 0, "blockLen"),
    ] {
        let e = fail_on(&ASCEND310P, || {
            let s = LocalTensor::<f32>::new_at(TPosition::VECIN, 0, 16)?;
            let d = LocalTensor::<f32>::new_at(TPosition::CO1, 0, 256)?;
            broad_cast_vec_to_mm(&d, &s, count, len, 0, 0)
        });
        assert_eq!(e.category, Category::Range);
        assert_mentions(&e, &[param, "[1, 255]"]);
    }
    // The destination starts on 256 elements (1024 bytes of float).
    let e = fail_on(&ASCEND310P, || {
        let s = LocalTensor::<f32>::new_at(TPosition::VECIN, 0, 16)?;
        let d = LocalTensor::<f32>::new_at(TPosition::CO1, 0, 512)?;
        broad_cast_vec_to_mm(&d.at(128)?, &s, 1, 1, 0, 0)
    });
    assert_eq!(e.category, Category::Align);
    let e = fail_on(&ASCEND310P, || {
        let s = LocalTensor::<f32>::new_at(TPosition::A1, 0, 16)?;
        let d = LocalTensor::<f32>::new_at(TPosition::CO1, 0, 256)?;
        broad_cast_vec_to_mm(&d, &s, 1, 1, 0, 0)
    });
    assert_eq!(e.category, Category::Position);
    // Two blocks one fractal apart touch 3 fractals: past a 2-fractal tensor, a warning (the
    // device writes on into L0C); past the end of L0C, an error.
    let r = run_on(&ASCEND310P, || {
        let s = LocalTensor::<f32>::new_at(TPosition::VECIN, 0, 32)?;
        let d = LocalTensor::<f32>::new_at(TPosition::CO1, 0, 512)?;
        broad_cast_vec_to_mm(&d, &s, 2, 1, 0, 1)
    });
    assert_warns(&r, &["3072 bytes", "declared with 2048"]);
    let e = fail_on(&ASCEND310P, || {
        let s = LocalTensor::<f32>::new_at(TPosition::VECIN, 0, 32)?;
        let d = LocalTensor::<f32>::new_at(TPosition::CO1, 261120, 256)?;
        broad_cast_vec_to_mm(&d, &s, 2, 1, 0, 1)
    });
    assert_eq!(e.category, Category::Memory);
    assert_mentions(&e, &["runs past the end"]);
}
