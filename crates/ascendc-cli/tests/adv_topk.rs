//! TopK and the new reductions through the C++ headers: `tests/cpp/adv/topk.asc` (Normal mode
//! float with a finished row, Small mode half with given indices; tiling from TopKTilingFunc
//! in a TILING_DATA_FIELD_DEF_STRUCT) and `tests/cpp/adv/reduce_prod_xor.asc` (ReduceProd,
//! ReduceAny, ReduceAll, ReduceXorSum), each checking itself against a host computation.

use std::path::Path;
use std::process::Command;

/// Runs `file` on `product`; its stdout.
fn run(product: &str, file: &str) -> String {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/cpp/adv")
        .join(file);
    let dir = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .current_dir(dir.path())
        .args(["run", "--product", product, src.to_str().unwrap()])
        .output()
        .expect("ascendc runs");
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "{product} {file}\n{out}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

#[test]
fn topk_normal_and_small_on_a2_and_310p() {
    for p in ["A2", "310P"] {
        assert!(run(p, "topk.asc").contains("topk ok"), "{p}");
    }
}

#[test]
fn reduce_prod_any_all_xor_sum() {
    assert!(run("A2", "reduce_prod_xor.asc").contains("reduce ok"));
    assert!(run("310P", "reduce_prod_xor.asc").contains("xor ok"));
}
