//! C++ cube kernels (`tests/cpp/cube_*.cpp`) run by `ascendc run`: the sample-style matmul
//! (LoadData, LoadDataWithTranspose, Mmad, Fixpipe) for half and int8, and the MIX kernel where
//! the cube cores compute a matmul tile and the vector cores apply LeakyReLU to it.

use std::path::Path;
use std::process::Command;

fn run(source: &str, opts: &[&str]) -> (bool, String, String) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/cpp")
        .join(source);
    let mut all = vec!["run".to_string(), src.display().to_string()];
    all.extend(opts.iter().map(|s| s.to_string()));
    let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .args(&all)
        .output()
        .expect("ascendc runs");
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn matmul_half_and_int8_match_the_host_reference() {
    let (ok, out, err) = run("cube_matmul.cpp", &[]);
    assert!(ok, "{out}\n{err}");
    for line in [
        "half 32x32x32: 0 wrong",
        "half 256x256x64: 0 wrong",
        "int8 32x32x32: 0 wrong",
        "int8 256x256x64: 0 wrong",
        "PASS",
    ] {
        assert!(
            out.lines().any(|l| l == line),
            "missing `{line}` in\n{out}\n{err}"
        );
    }
    assert!(!err.contains("warning"), "{err}");
}

#[test]
fn matmul_on_a_product_without_fixpipe_names_the_reason() {
    let (ok, out, err) = run("cube_matmul.cpp", &["--product", "310P"]);
    assert!(!ok, "{out}\n{err}");
    assert!(
        err.contains("Fixpipe is not supported on Atlas inference series")
            && err.contains("cube_matmul.cpp:"),
        "{err}"
    );
}

#[test]
fn mix_kernel_aic_matmul_aiv_leaky_relu() {
    for s in [
        &[][..],
        &["--schedule", "reverse"],
        &["--schedule", "shuffle:3"],
    ] {
        let (ok, out, err) = run("cube_mix.cpp", s);
        assert!(ok, "{s:?}\n{out}\n{err}");
        assert_eq!(out.trim(), "PASS", "{s:?}\n{err}");
        assert!(!err.contains("warning"), "{s:?}\n{err}");
    }
}
