//! The normalization family as a framework operator: samples/ops/rms_norm_custom (RmsNorm with
//! its host tiling: GetRmsNormMaxMinTmpSize and GetRmsNormTilingInfo in the TilingFunc, three
//! `TILING_DATA_FIELD_DEF_STRUCT(RmsNormTiling, …)` fields read by the kernel, an `epsilon`
//! attribute) through `ascendc op run`, against gen_data.py's float64 numpy golden.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn sample() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/ops/rms_norm_custom")
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Runs the operator on `gen_data.py DTYPE ROWS H EPSILON SEED` on `product`; returns the max
/// error relative to max(|golden|, 1) (numpy) and `op run -v`'s stderr.
fn rms_norm(product: &str, dtype: &str, rows: u32, h: u32, eps: &str) -> (f64, String) {
    let dir = tempfile::tempdir().unwrap();
    let gen = [
        dtype.to_string(),
        rows.to_string(),
        h.to_string(),
        eps.to_string(),
        rows.to_string(),
    ];
    let o = Command::new("python3")
        .arg(sample().join("scripts/gen_data.py"))
        .args(&gen)
        .current_dir(dir.path())
        .output()
        .expect("python3 runs");
    assert!(o.status.success(), "gen_data.py: {:?}", text(&o));
    let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .args(["op", "run"])
        .arg(sample())
        .args(["--product", product, "-v"])
        .args([
            "--input",
            "x=input/x.npy",
            "--input",
            "gamma=input/gamma.npy",
        ])
        .args(["--attr", &format!("epsilon={eps}"), "--output", "y=y.npy"])
        .current_dir(dir.path())
        .output()
        .expect("ascendc runs");
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    let script = "import numpy as np\n\
y = np.load('y.npy').astype(np.float64); g = np.load('output/golden.npy')\n\
assert y.shape == g.shape, (y.shape, g.shape)\n\
print((np.abs(y - g) / np.maximum(np.abs(g), 1.0)).max())\n";
    let o = Command::new("python3")
        .args(["-c", script])
        .current_dir(dir.path())
        .output()
        .expect("python3 runs");
    let (out, perr) = text(&o);
    assert!(o.status.success(), "{out}\n{perr}");
    (out.trim().parse().unwrap(), err)
}

#[test]
fn rms_norm_custom_float32_one_row_per_core_on_a2() {
    let (e, err) = rms_norm("A2", "float32", 40, 256, "1e-6");
    assert!(
        err.contains("block dim 40") && err.contains("RmsNormCustomTilingData"),
        "{err}"
    );
    assert!(e < 2e-6, "max relative error {e}");
}

#[test]
fn rms_norm_custom_float32_several_tiles_and_a_shorter_last_one() {
    // 100 rows on 40 cores: 20 cores take 3 rows, 20 take 2, in tiles of 2 rows (H 2048).
    let (e, _) = rms_norm("A2", "float32", 100, 2048, "1e-5");
    assert!(e < 2e-6, "max relative error {e}");
}

#[test]
fn rms_norm_custom_float16_on_310p() {
    let (e, err) = rms_norm("310P", "float16", 37, 64, "1e-6");
    assert!(err.contains("block dim"), "{err}");
    assert!(e < 4e-3, "max relative error {e}");
}
