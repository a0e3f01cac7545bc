//! `ascendc compare` on .bin files against pass/fail decisions worked out by hand with numpy's
//! documented rule: `isclose(a, b) = |a − b| <= atol + rtol·|b|` (b = golden; NaN is never close
//! with the default `equal_nan=False`; an infinity is close only to the same infinity), and a
//! file passes when `mean(!isclose) <= error_ratio`. Each expectation below carries its arithmetic;
//! `tests/numpy/compare_against_numpy.py` (run by CI) checks the verdicts against numpy itself.

use std::path::Path;
use std::process::Command;

fn write(path: &Path, bytes: Vec<u8>) {
    std::fs::write(path, bytes).unwrap();
}

fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn compare(dir: &Path, out: Vec<u8>, golden: Vec<u8>, args: &[&str]) -> (bool, String) {
    let (o, g) = (dir.join("out.bin"), dir.join("golden.bin"));
    write(&o, out);
    write(&g, golden);
    let r = Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .arg("compare")
        .args([o.to_str().unwrap(), g.to_str().unwrap()])
        .args(args)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&r.stdout).into_owned();
    assert!(matches!(r.status.code(), Some(0 | 1)), "{text}");
    (r.status.success(), text)
}

#[test]
fn float32_cases() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let golden = f32_bytes(&[1.0, 100.0, -3.0, 0.0]);
    // Identical: every |a − b| = 0 → pass.
    assert!(compare(d, golden.clone(), golden.clone(), &["--dtype", "float32"]).0);
    // 100.0009 vs 100 with numpy defaults: 0.0009 <= 1e-8 + 1e-5·100 = 0.00100001 → close → pass.
    let near = f32_bytes(&[1.0, 100.0009, -3.0, 0.0]);
    assert!(compare(d, near, golden.clone(), &["--dtype", "float32"]).0);
    // 100.002: 0.002 > 0.00100001 → one of four not close, ratio 0.25 > 0 → fail, and listed.
    let far = f32_bytes(&[1.0, 100.002, -3.0, 0.0]);
    let (pass, text) = compare(d, far.clone(), golden.clone(), &["--dtype", "float32"]);
    assert!(!pass);
    assert!(
        text.contains("1 of 4 elements not close (ratio 0.250000"),
        "{text}"
    );
    let row = text.lines().nth(1).unwrap();
    let cols: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(cols[..3], ["1", "100", "100.00199890136719"], "{text}");
    // Same file with error_ratio 0.25: 0.25 <= 0.25 → pass.
    assert!(
        compare(
            d,
            far.clone(),
            golden.clone(),
            &["--dtype", "float32", "--error-ratio", "0.25"]
        )
        .0
    );
    // rtol 1e-4: 0.002 <= 1e-8 + 1e-4·100 = 0.01000001 → close → pass.
    assert!(
        compare(
            d,
            far,
            golden.clone(),
            &["--dtype", "float32", "--rtol", "1e-4"]
        )
        .0
    );
    // 0 golden: only atol counts. 5e-9 <= 1e-8 → close; 2e-8 > 1e-8 → not close.
    assert!(
        compare(
            d,
            f32_bytes(&[1.0, 100.0, -3.0, 5e-9]),
            golden.clone(),
            &["--dtype", "float32"]
        )
        .0
    );
    assert!(
        !compare(
            d,
            f32_bytes(&[1.0, 100.0, -3.0, 2e-8]),
            golden.clone(),
            &["--dtype", "float32"]
        )
        .0
    );
    // NaN output: never close with equal_nan=False → fail; NaN vs NaN golden needs --equal-nan.
    let nan = f32_bytes(&[f32::NAN, 100.0, -3.0, 0.0]);
    assert!(!compare(d, nan.clone(), golden, &["--dtype", "float32"]).0);
    assert!(!compare(d, nan.clone(), nan.clone(), &["--dtype", "float32"]).0);
    assert!(compare(d, nan.clone(), nan, &["--dtype", "float32", "--equal-nan"]).0);
    // Infinities: +inf vs +inf close; +inf vs -inf and +inf vs 3e38 not close.
    let inf = f32_bytes(&[f32::INFINITY]);
    assert!(compare(d, inf.clone(), inf.clone(), &["--dtype", "float32"]).0);
    assert!(
        !compare(
            d,
            inf.clone(),
            f32_bytes(&[f32::NEG_INFINITY]),
            &["--dtype", "float32"]
        )
        .0
    );
    assert!(
        !compare(
            d,
            inf,
            f32_bytes(&[3e38]),
            &["--dtype", "float32", "--rtol", "1"]
        )
        .0
    );
}

#[test]
fn float16_and_int32_cases() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // half 1.0 = 0x3c00, 1.0009765625 = 0x3c01 (one ulp), 2.0 = 0x4000.
    let golden = vec![0x00, 0x3c, 0x00, 0x40];
    let one_ulp = vec![0x01, 0x3c, 0x00, 0x40];
    // |1.0009765625 − 1| = 0.0009765625 > 1e-8 + 1e-5 → fail with numpy defaults ...
    assert!(!compare(d, one_ulp.clone(), golden.clone(), &["--dtype", "float16"]).0);
    // ... and <= 1e-3 + 1e-3·1 = 0.002 with rtol = atol = 1e-3 → pass.
    assert!(
        compare(
            d,
            one_ulp,
            golden,
            &["--dtype", "float16", "--rtol", "1e-3", "--atol", "1e-3"]
        )
        .0
    );
    // int32 [10, -7] vs [10, -8]: |−7 − (−8)| = 1 > 1e-8 + 8e-5 → one of two → ratio 0.5.
    let i32s = |v: &[i32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let (pass, text) = compare(d, i32s(&[10, -7]), i32s(&[10, -8]), &["--dtype", "int32"]);
    assert!(
        !pass && text.contains("1 of 2 elements not close (ratio 0.500000"),
        "{text}"
    );
    assert!(
        compare(
            d,
            i32s(&[10, -7]),
            i32s(&[10, -8]),
            &["--dtype", "int32", "--error-ratio", "0.5"]
        )
        .0
    );
}

#[test]
fn size_mismatch_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(&d.join("a.bin"), f32_bytes(&[1.0, 2.0]));
    write(&d.join("b.bin"), f32_bytes(&[1.0]));
    let r = Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .args([
            "compare",
            d.join("a.bin").to_str().unwrap(),
            d.join("b.bin").to_str().unwrap(),
            "--dtype",
            "float32",
        ])
        .output()
        .unwrap();
    assert_eq!(r.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&r.stderr).contains("the output has 2 elements, the golden 1"));
}

#[test]
fn nan_negative_and_out_of_range_tolerances_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (o, g) = (dir.path().join("out.bin"), dir.path().join("golden.bin"));
    write(&o, f32_bytes(&[1.0]));
    write(&g, f32_bytes(&[2.0]));
    for (flag, value) in [
        ("--rtol", "nan"),
        ("--atol", "-1"),
        ("--rtol", "inf"),
        ("--error-ratio", "1.5"),
        ("--error-ratio", "NaN"),
    ] {
        let r = Command::new(env!("CARGO_BIN_EXE_ascendc"))
            .arg("compare")
            .args([o.to_str().unwrap(), g.to_str().unwrap()])
            .args(["--dtype", "float32", &format!("{flag}={value}")])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&r.stderr);
        assert_eq!(r.status.code(), Some(2), "{flag} {value}: {err}");
        assert!(err.contains(flag) && err.contains(value), "{err}");
    }
}
