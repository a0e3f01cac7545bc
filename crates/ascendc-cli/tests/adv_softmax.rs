//! The SoftMax family end to end: the framework operator samples/ops/softmax_custom (SoftMax
//! with its host tiling: SoftMaxTilingFunc in the TilingFunc, TILING_DATA_FIELD_DEF_STRUCT(
//! SoftMaxTiling, …) read by the kernel) through `ascendc op run` against a float64 softmax,
//! and a single-source C++ kernel through `ascendc run`.

use ascendc::f16;
use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Deterministic inputs in [−8, 8).
fn inputs(n: usize, seed: u64) -> Vec<f32> {
    let mut s = seed ^ 0x9E37_79B9_7F4A_7C15;
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 40) as f64 / (1u64 << 24) as f64 * 16.0 - 8.0) as f32
        })
        .collect()
}

fn golden(x: &[f64], cols: usize) -> Vec<f64> {
    x.chunks(cols)
        .flat_map(|row| {
            let m = row.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let e: Vec<f64> = row.iter().map(|v| (v - m).exp()).collect();
            let s: f64 = e.iter().sum();
            e.into_iter().map(move |v| v / s)
        })
        .collect()
}

/// Runs softmax_custom on `rows × cols` of `dtype` on `product`; returns the max abs error.
fn softmax_custom(product: &str, dtype: &str, rows: usize, cols: usize) -> f64 {
    let dir = tempfile::tempdir().unwrap();
    let x = inputs(rows * cols, (rows * 131 + cols) as u64);
    let (bytes, xs): (Vec<u8>, Vec<f64>) = if dtype == "float16" {
        let h: Vec<f16> = x.iter().map(|&v| f16::from_f32(v)).collect();
        (
            h.iter().flat_map(|v| v.to_bits().to_le_bytes()).collect(),
            h.iter().map(|v| v.to_f32() as f64).collect(),
        )
    } else {
        (
            x.iter().flat_map(|v| v.to_le_bytes()).collect(),
            x.iter().map(|&v| v as f64).collect(),
        )
    };
    let xin = dir.path().join("x.bin");
    let yout = dir.path().join("y.bin");
    std::fs::write(&xin, bytes).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .args(["op", "run"])
        .arg(repo().join("samples/ops/softmax_custom"))
        .args(["--product", product, "--input"])
        .arg(format!("x={}:{dtype}:{rows},{cols}", xin.display()))
        .arg("--output")
        .arg(format!("y={}", yout.display()))
        .arg("-v")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("SoftmaxCustomTilingData"), "{err}");
    assert!(!err.contains("warning"), "{err}");
    let y = std::fs::read(&yout).unwrap();
    let ys: Vec<f64> = if dtype == "float16" {
        y.chunks(2)
            .map(|b| f16::from_bits(u16::from_le_bytes([b[0], b[1]])).to_f32() as f64)
            .collect()
    } else {
        y.chunks(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64)
            .collect()
    };
    assert_eq!(ys.len(), rows * cols);
    let g = golden(&xs, cols);
    ys.iter()
        .zip(&g)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max)
}

#[test]
fn softmax_custom_float32_matches_float64_on_a2() {
    // 40 rows over 40 cores; rows of 200 (the tail block of the reduction).
    let e = softmax_custom("A2", "float32", 40, 200);
    assert!(e < 1e-6, "max abs error {e}");
}

#[test]
fn softmax_custom_float32_several_tiles_per_core() {
    // 100 rows of 1024 on A2: tiles of 8 rows, the reduction's ≥ 512 path.
    let e = softmax_custom("A2", "float32", 100, 1024);
    assert!(e < 1e-6, "max abs error {e}");
}

#[test]
fn softmax_custom_float16_on_310p() {
    let e = softmax_custom("310P", "float16", 37, 64);
    assert!(e < 1e-3, "max abs error {e}");
}

#[test]
fn vendor_style_single_source_kernel() {
    let dir = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .arg("run")
        .arg(repo().join("tests/cpp/adv/softmax_basic.asc"))
        .current_dir(dir.path())
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{out}\n{err}");
    assert!(out.contains("softmax ok"), "{out}\n{err}");
    assert!(!err.contains("redefined"), "{err}");
}
