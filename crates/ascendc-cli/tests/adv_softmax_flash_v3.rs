//! SoftmaxFlashV3 end to end through the C++ headers: `tests/cpp/adv/softmax_flash_v3.asc` sizes
//! its buffer with GetSoftMaxFlashV3MaxMinTmpSize, tiles with SoftMaxFlashV3TilingFunc through a
//! TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, …) struct, runs a step without update (framework
//! temporary space) and one with update in place (sharedTmpBuffer), and checks dst, the
//! statistics and expMax against a float64 model; on 310P the API is refused.

use std::path::Path;
use std::process::Command;

fn run(product: &str) -> std::process::Output {
    let dir = tempfile::tempdir().unwrap();
    let src =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/cpp/adv/softmax_flash_v3.asc");
    Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .current_dir(dir.path())
        .args(["run", "--product", product, src.to_str().unwrap()])
        .output()
        .expect("ascendc runs")
}

#[test]
fn flash_v3_steps_match_the_float64_model() {
    let o = run("A2");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success() && out.contains("softmax flash v3 ok"),
        "{out}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // min = 4 · (40 + 2 · 1024 + 64) bytes; 4 rows per pass over 8 rows.
    assert!(
        out.contains("min 8608 max 68864 splitM 4 rangeM 2"),
        "{out}"
    );
}

#[test]
fn flash_v3_is_refused_on_310p() {
    let o = run("310P");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success(),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert!(
        err.contains("SoftmaxFlashV3") && err.contains("not available"),
        "{err}"
    );
}
