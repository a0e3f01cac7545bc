//! HF32 (`SetHF32Mode`, `SetHF32TransMode`) and the result order (`SetMMRowMajor` /
//! `SetMMColumnMajor`): the HF32 page's sequence (enable, NEAREST_ZERO, Mmad, back to the reset
//! state) against a host model of the rounding, ties in both modes, half inputs unaffected, the
//! order bits without effect on values, and the products without them.

use crate::common;
use ascendc::api::cube::layout::{nd_to_zn, nd_to_zz};
use ascendc::api::cube::mode::*;
use ascendc::chip::{ASCEND310B, ASCEND310P};
use ascendc::core::trace::InstrKind;
use ascendc::prelude::*;
use ascendc::{Category, LaunchReport};
use common::*;

/// Rounds to HF32 on the host: keep 11 mantissa bits, ties to even or away from zero.
fn hf32(x: f32, away: bool) -> f32 {
    let q = 2f64.powi(x.abs().log2().floor() as i32 - 11);
    let t = x as f64 / q;
    let r = if (t - t.trunc()).abs() == 0.5 {
        if away {
            t.trunc() + t.signum()
        } else if t.trunc() % 2.0 == 0.0 {
            t.trunc()
        } else {
            t.trunc() + t.signum()
        }
    } else {
        t.round()
    };
    (r * q) as f32
}

/// The float Mmad model: fp32 accumulation one K fractal (8 products, added in double) at a time.
fn model(a: &[f32], b: &[f32], (m, n, k): (usize, usize, usize)) -> Vec<f32> {
    (0..m * n)
        .map(|x| {
            let (i, j) = (x / n, x % n);
            let mut acc = 0f32;
            for f in (0..k).step_by(8) {
                let mut s = acc as f64;
                for q in f..(f + 8).min(k) {
                    s += a[i * k + q] as f64 * b[q * n + j] as f64;
                }
                acc = s as f32;
            }
            acc
        })
        .collect()
}

fn put<T: Element>(pos: TPosition, v: &[T]) -> Result<LocalTensor<T>> {
    let t = LocalTensor::<T>::new_at(pos, 0, v.len() as u32)?;
    for (i, &x) in v.iter().enumerate() {
        t.set_value(i as u32, x)?;
    }
    Ok(t)
}

/// Runs `modes` then `Mmad` on float A (m × k) and B (k × n); returns C in ND and the report.
fn matmul(
    a: &[f32],
    b: &[f32],
    (m, n, k): (usize, usize, usize),
    modes: impl Fn() -> Result<()> + Sync,
) -> (Vec<f32>, LaunchReport) {
    let out = Slot::new();
    let report = run(|| {
        let a2 = put(TPosition::A2, &nd_to_zz(a, m, k, 8))?;
        let b2 = put(TPosition::B2, &nd_to_zn(b, k, n, 8))?;
        let c = LocalTensor::<f32>::new_at(
            TPosition::CO1,
            0,
            (m.div_ceil(16) * n.div_ceil(16) * 256) as u32,
        )?;
        modes()?;
        mmad(
            &c,
            &a2,
            &b2,
            (),
            MmadParams::new(m as u16, n as u16, k as u16, false),
        )?;
        set_hf32_mode(HF32Mode::Disable)?;
        set_hf32_trans_mode(HF32TransMode::NearestEven)?;
        let v = c.to_vec()?;
        let m1 = m.div_ceil(16);
        out.put(
            (0..m * n)
                .map(|x| {
                    let (i, j) = (x / n, x % n);
                    v[(j / 16 * m1 + i / 16) * 256 + i % 16 * 16 + j % 16]
                })
                .collect::<Vec<f32>>(),
        );
        Ok(())
    });
    (out.get(), report)
}

fn inputs(m: usize, n: usize, k: usize) -> (Vec<f32>, Vec<f32>) {
    let a = (0..m * k)
        .map(|x| (x as f32 * 0.3719 + 1.0).sin() * (1.0 + (x % 5) as f32 * 1e-3))
        .collect();
    let b = (0..k * n)
        .map(|x| (x as f32 * 0.7331 - 2.0).cos() * 3.000_123)
        .collect();
    (a, b)
}

#[test]
fn hf32_page_sequence_nearest_zero() {
    let (m, n, k) = (32, 32, 40);
    let (a, b) = inputs(m, n, k);
    let (c, report) = matmul(&a, &b, (m, n, k), || {
        set_hf32_mode(HF32Mode::Enable)?;
        set_hf32_trans_mode(HF32TransMode::NearestZero)
    });
    let ra: Vec<f32> = a.iter().map(|&x| hf32(x, true)).collect();
    let rb: Vec<f32> = b.iter().map(|&x| hf32(x, true)).collect();
    let want = model(&ra, &rb, (m, n, k));
    assert_eq!(
        c.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
        want.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
    );
    // Not the fp32 product.
    assert_ne!(c, model(&a, &b, (m, n, k)));
    let s: Vec<&str> = report.blocks[0]
        .trace
        .instructions()
        .iter()
        .filter(|i| i.pipe == Pipe::S && i.kind == InstrKind::Op && i.api.starts_with("SetHF32"))
        .map(|i| i.api)
        .collect();
    assert_eq!(
        s,
        [
            "SetHF32Mode",
            "SetHF32TransMode",
            "SetHF32Mode",
            "SetHF32TransMode"
        ]
    );
}

#[test]
fn ties_round_to_even_or_away_and_the_reset_state_is_plain_fp32() {
    // 1 + 2^-12 is halfway between two HF32 values; 1 + 3 · 2^-12 above an odd last bit.
    let a = [1.0 + 2f32.powi(-12), 1.0 + 3.0 * 2f32.powi(-12)];
    let b = [1.0f32];
    let run_mode = |enable: bool, away: bool| {
        matmul(&a, &b, (2, 1, 1), move || {
            if enable {
                set_hf32_mode(HF32Mode::Enable)?;
            }
            if away {
                set_hf32_trans_mode(HF32TransMode::NearestZero)?;
            }
            Ok(())
        })
        .0
    };
    assert_eq!(run_mode(false, false), a.to_vec());
    assert_eq!(run_mode(true, false), vec![1.0, 1.0 + 2f32.powi(-10)]);
    assert_eq!(
        run_mode(true, true),
        vec![1.0 + 2f32.powi(-11), 1.0 + 2f32.powi(-10)]
    );
}

#[test]
fn half_inputs_are_not_rounded_and_the_order_bits_change_nothing() {
    let (m, n, k) = (16, 32, 16);
    let (a, b) = inputs(m, n, k);
    let (plain, _) = matmul(&a, &b, (m, n, k), || Ok(()));
    for order in [set_mm_row_major as fn() -> Result<()>, set_mm_column_major] {
        let (c, _) = matmul(&a, &b, (m, n, k), order);
        assert_eq!(c, plain);
    }
    let ah: Vec<f16> = a.iter().map(|&x| f16::from_f32(x)).collect();
    let bh: Vec<f16> = b.iter().map(|&x| f16::from_f32(x)).collect();
    let results: Vec<Vec<f32>> = [false, true]
        .iter()
        .map(|&on| {
            let out = Slot::new();
            run(|| {
                let a2 = put(TPosition::A2, &nd_to_zz(&ah, m, k, 16))?;
                let b2 = put(TPosition::B2, &nd_to_zn(&bh, k, n, 16))?;
                let c = LocalTensor::<f32>::new_at(TPosition::CO1, 0, (n / 16 * 256) as u32)?;
                if on {
                    set_hf32_mode(HF32Mode::Enable)?;
                }
                mmad(
                    &c,
                    &a2,
                    &b2,
                    (),
                    MmadParams::new(m as u16, n as u16, k as u16, false),
                )?;
                out.put(c.to_vec()?);
                Ok(())
            });
            out.get()
        })
        .collect();
    assert_eq!(results[0], results[1]);
}

#[test]
fn the_bits_exist_on_a2_a3_and_200i_500_a2_only() {
    run_on(&ASCEND310B, || set_hf32_mode(HF32Mode::Enable));
    for f in [
        (|| set_hf32_mode(HF32Mode::Enable)) as fn() -> Result<()>,
        || set_hf32_trans_mode(HF32TransMode::NearestZero),
        set_mm_row_major,
        set_mm_column_major,
    ] {
        let e = fail_on(&ASCEND310P, f);
        assert_eq!(e.category, Category::Unsupported);
        assert_mentions(&e, &["Atlas inference series"]);
    }
}
