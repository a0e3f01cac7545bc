//! The fused vector instructions, CastDequant, Compares and the CMPMASK register through the
//! C++ headers (`tests/cpp/basic_fused.cpp`, kernel and host in one file), run by `ascendc run`;
//! the kernel prints `<case>: PASS` per checked case.

use std::path::Path;
use std::process::Command;

fn run(file: &str, product: &str) -> (bool, String) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/cpp")
        .join(file);
    let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .args(["run", "--product", product, path.to_str().unwrap()])
        .output()
        .expect("ascendc runs");
    let text = format!(
        "{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    (o.status.success(), text)
}

#[test]
fn fused_ops_cast_dequant_and_cmp_mask_on_a2() {
    let (ok, out) = run("basic_fused.cpp", "A2");
    assert!(ok, "{out}");
    for case in [
        "ReluCast",
        "AddDeqRelu",
        "MulAdd",
        "CastDequant",
        "Compares+CmpMask",
        "Select CMPMASK",
    ] {
        assert!(out.contains(&format!("{case}: PASS")), "{case}\n{out}");
    }
}

#[test]
fn the_same_kernel_is_refused_on_910_with_the_reason() {
    // 910 has none of these instructions: the first call fails and names the kernel's line.
    let (ok, out) = run("basic_fused.cpp", "910");
    assert!(!ok, "{out}");
    assert!(out.contains("AddReluCast is not supported"), "{out}");
    assert!(out.contains("basic_fused.cpp:"), "{out}");
}
