//! The index and reduce families through the C++ headers: `tests/cpp/adv/reduce_index.cpp`
//! (Arange, Sum, Mean, the patterned ReduceMax/ReduceSum/ReduceMean beside the basic ReduceMax)
//! checks its own results and prints `bad 0`.

use std::path::Path;
use std::process::Command;

#[test]
fn reduce_and_index_through_the_cpp_headers() {
    let dir = tempfile::tempdir().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/cpp/adv/reduce_index.cpp");
    let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .current_dir(dir.path())
        .args(["run", "--product", "A2", src.to_str().unwrap()])
        .output()
        .expect("ascendc runs");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success() && out.contains("bad 0"),
        "{out}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
}
