//! The documented-unsupported source/destination overlaps of `vector-model.md` §8 are warned
//! about (the results are the in-order model's); the supported ones are not.

use ascendc::prelude::*;
use ascendc::{Category, Diagnostic};

/// Runs `f` on a 3072-half VECCALC buffer holding 0, 1, 2, …; returns the overlap warnings and
/// the buffer afterwards.
fn overlap(f: impl Fn(&LocalTensor<f16>) -> Result<()> + Sync) -> (Vec<Diagnostic>, Vec<f16>) {
    let out = std::sync::Mutex::new(Vec::new());
    let r = Launch::new(1)
        .run(|| {
            let mut pipe = TPipe::new();
            let mut buf: TBuf<QuePosition::VECCALC> = TBuf::new();
            pipe.init_buffer(&mut buf, 1, 3072 * 2)?;
            let t = buf.get::<f16>()?;
            for i in 0..3072 {
                t.set_value(i, f16::from_f32((i % 512) as f32))?;
            }
            f(&t)?;
            *out.lock().unwrap() = t.to_vec()?;
            Ok(())
        })
        .unwrap();
    let d = r
        .diagnostics()
        .filter(|d| d.category == Category::Overlap)
        .cloned()
        .collect();
    (d, out.into_inner().unwrap())
}

#[test]
fn partial_overlap_inside_a_repeat_is_warned_about() {
    let (d, _) = overlap(|t| add(&t.at(16)?, t, &t.at(1024)?, 128));
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(
        d[0].message
            .contains("operand `src0` partially overlaps the destination inside repeat 0"),
        "{}",
        d[0]
    );
}

#[test]
fn reading_what_an_earlier_repeat_wrote_is_warned_about_and_computed_in_order() {
    // dst = t[128..384], src0 = t[0..256]: repeat 1 reads t[128..256], which repeat 0 wrote.
    let (d, out) = overlap(|t| adds(&t.at(128)?, t, f16::ONE, 256));
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(
        d[0].message
            .contains("operand `src` is read in repeat 1 where repeat 0 wrote"),
        "{}",
        d[0]
    );
    // In order: repeat 0 writes t[128 + i] = t[i] + 1, then repeat 1 reads those new values, so
    // t[256] = (t[0] + 1) + 1 rather than the old t[128] + 1 = 129.
    assert_eq!(out[128].to_f32(), 1.0);
    assert_eq!(out[256].to_f32(), 2.0);
}

#[test]
fn in_place_and_accumulating_forms_are_not_warned_about() {
    let (d, _) = overlap(|t| add(t, t, &t.at(1024)?, 1024));
    assert!(d.is_empty(), "{d:?}");
    // The documented exception: dst = src1 with repeat stride 0 accumulates all repeats.
    let (d, out) = overlap(|t| {
        let x = t.at(2048)?;
        add_l0(
            &x,
            &t.at(0)?,
            &x,
            128u64,
            4,
            BinaryRepeatParams::new(1, 1, 1, 0, 8, 0),
        )
    });
    assert!(d.is_empty(), "{d:?}");
    // Lane 0: 0 + 0 + 128 + 256 + 384 (t[2048] held 0).
    assert_eq!(out[2048].to_f32(), 768.0);
}
