//! The C++ kernels of the basic-API families (`tests/cpp/basic_*.cpp`, kernel and host in one
//! file) run by `ascendc run`; each prints `<case>: PASS` per checked case.

use std::path::Path;
use std::process::Command;

/// Runs `tests/cpp/<file>` on `product` and checks that every case in `cases` passed.
fn run_cases(file: &str, product: &str, cases: &[&str]) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/cpp")
        .join(file);
    let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .args(["run", "--product", product, path.to_str().unwrap()])
        .output()
        .expect("ascendc runs");
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
fn reduce_type_spellings_and_registers() {
    run_cases(
        "basic_reduce.cpp",
        "A2",
        &[
            "ReduceRepeat",
            "GetReduceRepeatMaxMinSpr",
            "ReduceDataBlock",
            "ReducePairElem",
            "GetReduceRepeatSumSpr",
        ],
    );
}

#[test]
fn gather_family() {
    run_cases(
        "basic_gather.cpp",
        "A2",
        &[
            "GatherMask builtin",
            "GatherMask tensor",
            "Gather",
            "Gatherb",
        ],
    );
}
