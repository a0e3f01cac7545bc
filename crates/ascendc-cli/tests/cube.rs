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

#[test]
fn vendor_parameter_spellings_compile_and_compute() {
    for product in ["A2", "A3"] {
        let (ok, out, err) = run("cube_params.cpp", &["--product", product]);
        assert!(ok, "{product}\n{out}\n{err}");
        for line in [
            "five-value FixpipeParamsV220 (ReLU): PASS",
            "eleven-value FixpipeParamsV220 (F322F16, no ReLU): PASS",
            "PASS",
        ] {
            assert!(
                out.lines().any(|l| l == line),
                "{product}: missing `{line}` in\n{out}\n{err}"
            );
        }
    }
}

#[test]
fn fill_sets_l1_and_l0_buffers() {
    let (ok, out, err) = run("cube_fill.cpp", &[]);
    assert!(ok, "{out}\n{err}");
    for line in [
        "L0A/L0B ones, Mmad: PASS",
        "L1 blocks with gaps: PASS",
        "PASS",
    ] {
        assert!(
            out.lines().any(|l| l == line),
            "missing `{line}` in\n{out}\n{err}"
        );
    }
    let (ok, out, err) = run("cube_fill.cpp", &["--product", "310P", "--", "inference"]);
    assert!(ok, "{out}\n{err}");
    assert!(
        out.lines().any(|l| l == "repeatTimes only: PASS"),
        "{out}\n{err}"
    );
    assert!(!err.contains("warning"), "{err}");
}

#[test]
fn broadcast_vec_to_mm_fills_l0c_on_the_inference_series() {
    let (ok, out, err) = run("cube_broadcast.cpp", &["--product", "310P"]);
    assert!(ok, "{out}\n{err}");
    for line in [
        "float [1, 16] -> [16, 16]: PASS",
        "half [1, 32] -> [32, 32] NZ: PASS",
        "PASS",
    ] {
        assert!(
            out.lines().any(|l| l == line),
            "missing `{line}` in\n{out}\n{err}"
        );
    }
    let (ok, _, err) = run("cube_broadcast.cpp", &[]);
    assert!(!ok);
    assert!(
        err.contains("BroadCastVecToMM is not supported on Atlas A2")
            && err.contains("cube_broadcast.cpp:"),
        "{err}"
    );
}

#[test]
fn data_copy_from_l0c_with_the_fixpipe_registers() {
    let (ok, out, err) = run("cube_copy_out.cpp", &[]);
    assert!(ok, "{out}\n{err}");
    for line in [
        "scalar DEQF16, ReLU, NZ2ND: PASS",
        "vector VDEQF16 from the Fixpipe buffer, NZ: PASS",
        "float -> half into L1: PASS",
        "SetFixPipeConfig unit-flag reset: PASS",
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
fn sparse_matmul_matches_the_dense_product() {
    let (ok, out, err) = run("cube_sparse.cpp", &[]);
    assert!(ok, "{out}\n{err}");
    assert!(
        out.lines().any(|l| l == "sparse 64x48x128: 0 wrong"),
        "{out}\n{err}"
    );
    assert_eq!(out.lines().last(), Some("PASS"), "{out}\n{err}");
    let (ok, _, err) = run("cube_sparse.cpp", &["--product", "310B"]);
    assert!(!ok);
    assert!(
        err.contains("is not supported on Atlas 200I/500 A2"),
        "{err}"
    );
}

#[test]
fn hf32_and_result_order_bits() {
    let (ok, out, err) = run("cube_mode.cpp", &[]);
    assert!(ok, "{out}\n{err}");
    for line in [
        "fp32: PASS",
        "HF32 ties to even: PASS",
        "HF32 ties away (NEAREST_ZERO): PASS",
        "bool forms, row major: PASS",
        "column major: PASS",
        "PASS",
    ] {
        assert!(
            out.lines().any(|l| l == line),
            "missing `{line}` in\n{out}\n{err}"
        );
    }
}

#[test]
fn convolution_through_load3d_and_gm_to_l1_loads() {
    for product in ["A2", "310B"] {
        let (ok, out, err) = run("cube_load3d.cpp", &["--product", product]);
        assert!(ok, "{product}\n{out}\n{err}");
        for line in [
            "LoadData3DParamsV2: PASS",
            "registers (SetFmatrix, padding, repeat): PASS",
            "LoadData3DParamsV2Pro: PASS",
            "PASS",
        ] {
            assert!(
                out.lines().any(|l| l == line),
                "{product}: missing `{line}` in\n{out}\n{err}"
            );
        }
        assert!(!err.contains("warning"), "{product}: {err}");
    }
}
