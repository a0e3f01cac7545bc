//! `LoadData` from GM into L1 with `LoadData2DParams`: the page's example (a 32 × 32 half matrix in
//! two calls of two fractals, srcStride 2, dstGap 1), decreasing addresses, the pipe and the
//! validation errors.

use crate::common;
use ascendc::api::cube::load_gm::load_data_from_gm;
use ascendc::chip::{ASCEND310P, ASCEND910};
use ascendc::core::trace::InstrKind;
use ascendc::prelude::*;
use ascendc::{Category, ChipProfile, LaunchReport};
use common::*;

/// Loads from a GM buffer holding `i % 100` at element `i` into an A1 tensor of `dst_elems` elements
/// first holding 7; returns the tensor and the report.
fn load<T: Element>(
    profile: &'static ChipProfile,
    src_elems: usize,
    dst_elems: u32,
    f: impl Fn(&LocalTensor<T>, &GlobalTensor<T>) -> Result<()> + Sync,
) -> (Vec<T>, LaunchReport) {
    let src: Vec<T> = (0..src_elems)
        .map(|i| T::from_f64((i % 100) as f64))
        .collect();
    let g = GmBuffer::from_slice(&src);
    let ga = g.addr();
    let out = Slot::new();
    let report = run_on(profile, || {
        let mut gt = GlobalTensor::<T>::new();
        gt.set_global_buffer(ga.clone());
        let d = LocalTensor::<T>::new_at(TPosition::A1, 0, dst_elems)?;
        for i in 0..dst_elems {
            d.set_value(i, T::from_f64(7.0))?;
        }
        f(&d, &gt)?;
        out.put(d.to_vec()?);
        Ok(())
    });
    (out.get(), report)
}

#[test]
fn page_example_32x32_half_in_two_calls() {
    // m = k = 32: repeatTimes k/16 = 2, srcStride m/16 = 2, dstGap m/16 - 1 = 1; call i starts
    // at fractal i of both: fractal i + 2j goes to fractal i + 2j, the NZ matrix unchanged.
    let (v, report) = load::<f16>(ChipProfile::default_profile(), 1024, 1024, |d, g| {
        for i in 0..2u32 {
            load_data_from_gm(
                &d.at(i * 256)?,
                &g.at(i as u64 * 256)?,
                LoadData2DParams::new(0, 2, 2, 0, 1, false, 0),
            )?;
        }
        Ok(())
    });
    let want: Vec<f16> = (0..1024).map(|i| f16::from_f32((i % 100) as f32)).collect();
    assert_eq!(v, want);
    let pipes: Vec<Pipe> = report.blocks[0]
        .trace
        .instructions()
        .iter()
        .filter(|i| i.api == "LoadData" && i.kind == InstrKind::Op)
        .map(|i| i.pipe)
        .collect();
    assert_eq!(pipes, vec![Pipe::MTE2, Pipe::MTE2]);
}

#[test]
fn decreasing_addresses_and_gaps() {
    // addrMode 1: fractals 3, 2, 1, 0 of the source; dstGap 1 leaves every other fractal.
    let (v, _) = load::<i32>(ChipProfile::default_profile(), 4 * 128, 8 * 128, |d, g| {
        load_data_from_gm(d, g, LoadData2DParams::new(3, 4, 1, 0, 1, false, 1))
    });
    for j in 0..8 {
        let got = &v[j * 128..(j + 1) * 128];
        if j % 2 == 0 {
            let f = 3 - j / 2;
            let want = |e: usize| ((f * 128 + e) % 100) as i32;
            assert!(
                got.iter().enumerate().all(|(e, &x)| x == want(e)),
                "fractal {j}"
            );
        } else {
            assert!(got.iter().all(|&x| x == 7), "fractal {j}");
        }
    }
}

#[test]
fn the_training_series_loads_without_gaps() {
    let (v, _) = load::<i8>(&ASCEND910, 1024, 1024, |d, g| {
        load_data_from_gm(d, g, LoadData2DParams::new(1, 1, 0, 0, 0, false, 0))
    });
    assert!(v[..512]
        .iter()
        .enumerate()
        .all(|(e, &x)| x == ((512 + e) % 100) as i8));
    assert!(v[512..].iter().all(|&x| x == 7));
}

#[test]
fn parameters_and_products_are_checked() {
    let e = fail_on(&ASCEND910, || {
        let g = GmBuffer::zeroed(2048);
        let mut gt = GlobalTensor::<f16>::new();
        gt.set_global_buffer(g.addr());
        let d = LocalTensor::<f16>::new_at(TPosition::A1, 0, 1024)?;
        load_data_from_gm(&d, &gt, LoadData2DParams::new(0, 2, 1, 0, 1, false, 0))
    });
    assert_eq!(e.category, Category::Range);
    assert_mentions(&e, &["dstGap", "Atlas training"]);
    let case = |p: LoadData2DParams, dst_pos: TPosition| {
        fail(move || {
            let g = GmBuffer::zeroed(2048);
            let mut gt = GlobalTensor::<f16>::new();
            gt.set_global_buffer(g.addr());
            let d = LocalTensor::<f16>::new_at(dst_pos, 0, 1024)?;
            load_data_from_gm(&d, &gt, p)
        })
    };
    let e = case(
        LoadData2DParams::new(1, 3, 1, 0, 0, false, 1),
        TPosition::A1,
    );
    assert_mentions(&e, &["addrMode 1", "fractal 0"]);
    let e = case(
        LoadData2DParams::new(1, 4, 1, 0, 0, false, 0),
        TPosition::A1,
    );
    assert_eq!(e.category, Category::Memory);
    let e = case(
        LoadData2DParams::new(0, 1, 1, 0, 0, false, 0),
        TPosition::A2,
    );
    assert_eq!(e.category, Category::Position);
    let e = case(
        LoadData2DParams::new(0, 1, 1, 0, 0, false, 2),
        TPosition::A1,
    );
    assert_mentions(&e, &["addrMode"]);
    let e = fail_on(&ASCEND310P, || {
        let g = GmBuffer::zeroed(2048);
        let mut gt = GlobalTensor::<f32>::new();
        gt.set_global_buffer(g.addr());
        let d = LocalTensor::<f32>::new_at(TPosition::A1, 0, 128)?;
        load_data_from_gm(&d, &gt, LoadData2DParams::new(0, 1, 1, 0, 0, false, 0))
    });
    assert_eq!(e.category, Category::Type);
}
