//! The vendor headers' long tail of names, types and overloads, through `ascendc run` as a user
//! runs a kernel: `tests/cpp/compat_*.cpp` print `<case>: PASS` per checked case.

use std::path::Path;
use std::process::{Command, Output};

fn run(file: &str, extra: &[&str]) -> Output {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/cpp")
        .join(file);
    Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .arg("run")
        .args(extra)
        .arg(path)
        .output()
        .expect("ascendc runs")
}

fn assert_cases(o: &Output, cases: &[&str]) {
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{out}\n{err}");
    for case in cases {
        assert!(
            out.contains(&format!("{case}: PASS")),
            "{case}\n{out}\n{err}"
        );
    }
}

#[test]
fn names_types_and_overloads() {
    let o = run("compat_names.cpp", &[]);
    assert_cases(
        &o,
        &[
            "block_idx/block_num/tik2",
            "bool/TBuf queue methods/in-place AllocTensor",
        ],
    );
    // KERNEL_LOG writes one line per block to stderr with the level, file and line.
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("[INFO] ") && err.contains("compat_names.cpp:"),
        "{err}"
    );
    for b in 0..3 {
        assert!(
            err.contains(&format!("[block {b}] block {b} of 3")),
            "{err}"
        );
    }
}

#[test]
fn asserts_compile_to_nothing_in_the_device_branch() {
    let o = run("compat_assert.cpp", &["--run-mode", "npu"]);
    assert_cases(&o, &["asserts compiled out"]);
    // The CPU-debug branch checks them: the block fails on the first, with its message and line.
    let o = run("compat_assert.cpp", &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{err}");
    assert!(
        err.contains("assertion `AscendC::GetBlockNum() == 0` failed: block count 1")
            && err.contains("compat_assert.cpp:12"),
        "{err}"
    );
}

#[test]
fn tiling_data_in_template_kernels() {
    let o = run("compat_tiling.cpp", &[]);
    assert_cases(&o, &["GET_TILING_DATA in template kernels"]);
}
