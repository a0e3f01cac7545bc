//! C++ kernels of GroupBarrier, the GM Fill family and custom TBufPools
//! (`tests/cpp/group_barrier.cpp`, `init_global_memory.cpp`, `custom_buf_pool.cpp`) run by
//! `ascendc run`; each prints `<case>: PASS` per checked case.

use std::path::Path;
use std::process::Command;

/// Runs `tests/cpp/<file>` on `product`; returns stdout and stderr after checking that every
/// case in `cases` passed.
fn run_cases(file: &str, product: &str, cases: &[&str]) -> (String, String) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/cpp")
        .join(file);
    let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .args(["run", "--product", product, path.to_str().unwrap()])
        .output()
        .expect("ascendc runs");
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "{out}\n{err}");
    for case in cases {
        assert!(
            out.contains(&format!("{case}: PASS")),
            "{case}\n{out}\n{err}"
        );
    }
    (out, err)
}

#[test]
fn group_barrier_rounds_and_workspace() {
    let (out, err) = run_cases(
        "group_barrier.cpp",
        "A2",
        &["GroupBarrier rounds", "GroupBarrier workspace"],
    );
    // The barrier orders every GM access between the groups: no race reported.
    assert!(!err.contains("warning"), "{out}\n{err}");
}

#[test]
fn fill_init_global_memory_and_init_output() {
    run_cases(
        "init_global_memory.cpp",
        "A2",
        &["Fill", "InitGlobalMemory", "InitOutput"],
    );
}

#[test]
fn custom_buf_pool_places_queues_and_a_tbuf() {
    run_cases(
        "custom_buf_pool.cpp",
        "A2",
        &[
            "custom pool add",
            "custom pool placement",
            "custom pool reset",
        ],
    );
}
