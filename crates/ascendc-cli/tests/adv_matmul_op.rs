//! The Matmul high-level API as a framework operator: samples/ops/matmul_custom (op_host
//! TilingFunc with MultiCoreMatmulTiling over the vector cores, `TILING_DATA_FIELD_DEF_STRUCT(
//! TCubeTiling, …)`, a mixed op_kernel whose vector cores drive the cube cores) through
//! `ascendc op run`, against gen_data.py's float64 numpy golden.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn sample() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/ops/matmul_custom")
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Runs the operator on `gen_data.py M N K SEED`; returns the max error relative to
/// max(|golden|, 1).
fn matmul(m: u32, n: u32, k: u32) -> f64 {
    let dir = tempfile::tempdir().unwrap();
    let o = Command::new("python3")
        .arg(sample().join("scripts/gen_data.py"))
        .args([m.to_string(), n.to_string(), k.to_string(), m.to_string()])
        .current_dir(dir.path())
        .output()
        .expect("python3 runs");
    assert!(o.status.success(), "gen_data.py: {:?}", text(&o));
    let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .args(["op", "run"])
        .arg(sample())
        .args(["--product", "A2"])
        .args(["--input", "a=input/a.npy", "--input", "b=input/b.npy"])
        .args(["--input", "bias=input/bias.npy", "--output", "c=c.npy"])
        .current_dir(dir.path())
        .output()
        .expect("ascendc runs");
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    let script = "import numpy as np\n\
c = np.load('c.npy').astype(np.float64); g = np.load('output/golden.npy')\n\
assert c.shape == g.shape, (c.shape, g.shape)\n\
print((np.abs(c - g) / np.maximum(np.abs(g), 1.0)).max())\n";
    let o = Command::new("python3")
        .args(["-c", script])
        .current_dir(dir.path())
        .output()
        .expect("python3 runs");
    let (out, perr) = text(&o);
    assert!(o.status.success(), "{out}\n{perr}");
    out.trim().parse().unwrap()
}

#[test]
fn matmul_custom_with_tails_on_many_cores() {
    // fp32 accumulation of exact fp16 products, rounded once per 16-wide K fractal.
    let e = matmul(300, 200, 130);
    assert!(e < 1e-5, "{e}");
}

#[test]
fn matmul_custom_one_row_and_a_long_k() {
    let e = matmul(1, 48, 1000);
    assert!(e < 1e-5, "{e}");
}
