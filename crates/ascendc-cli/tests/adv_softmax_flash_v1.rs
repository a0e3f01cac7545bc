//! SoftmaxFlash (the first version) end to end through the C++ headers:
//! `tests/cpp/adv/softmax_flash_v1.cpp` sizes its buffer with GetSoftMaxFlashMin/MaxTmpSize,
//! tiles with SoftMaxFlashTilingFunc through TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, …),
//! runs a step without update (framework temporary space, in place) and one with update
//! (sharedTmpBuffer, passes with a tail, sum/max in place), and checks dst, sum, max and expMax
//! against a float64 model on A2 and 310P; on 310B the API is refused.

use std::path::Path;
use std::process::Command;

fn run(product: &str) -> std::process::Output {
    let dir = tempfile::tempdir().unwrap();
    let src =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/cpp/adv/softmax_flash_v1.cpp");
    Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .current_dir(dir.path())
        .args(["run", "--product", product, src.to_str().unwrap()])
        .output()
        .expect("ascendc runs")
}

#[test]
fn flash_steps_match_the_float64_model() {
    for product in ["A2", "310P"] {
        let o = run(product);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            o.status.success() && out.contains("softmax flash ok"),
            "{product}: {out}\n{}",
            String::from_utf8_lossy(&o.stderr)
        );
        // min = 4 · (4 · 16 + 2 · 144) bytes; 12 rows fit → passes of 8 and a tail of 4.
        assert!(
            out.contains("min 1408 max 28160 splitM 8 rangeM 2 tailM 4"),
            "{out}"
        );
    }
}

#[test]
fn flash_is_refused_on_310b() {
    let o = run("310B");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success(),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert!(err.contains("SoftmaxFlash"), "{err}");
}
