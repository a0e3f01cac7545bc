//! The `tikicpulib` CMake package (`cmake/tikicpulib/`) the vendor's kernel unit tests link:
//! `tests/data/tikicpulib_ut`, a UT in their form (gtest + `tikicpulib::<SoC>`; the TilingFunc
//! registered with IMPL_OP_OPTILING run in-process through `gert::OpTilingContextBuilder` and
//! `DefaultOpImplSpaceRegistryV2`, its key / block dim / workspace / tiling bytes checked; then
//! ICPU_RUN_KF of an `extern "C"` kernel named `sqrt`, data made and compared by numpy scripts),
//! configured with
//! `find_package(tikicpulib)` through `ascendc flags --cmake`, built with make and run. Needs
//! `cmake`, Debian's `libgtest-dev` and numpy.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn run(cmd: &mut Command) -> (String, String) {
    let o: Output = cmd
        .env_remove("ASCENDC_PRODUCT")
        .output()
        .unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "{cmd:?}\n{out}\n{err}");
    (out, err)
}

/// A copy of the UT project (its build directory stays out of the checkout).
fn ut_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/tikicpulib_ut");
    for rel in [
        "CMakeLists.txt",
        "sqrt.cpp",
        "sqrt_tiling.h",
        "sqrt_tiling.cpp",
        "test_sqrt.cpp",
        "scripts/gen_data.py",
        "scripts/compare_data.py",
    ] {
        let to = dir.path().join(rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(src.join(rel), to).unwrap();
    }
    dir
}

#[test]
fn a_gtest_kernel_ut_builds_with_the_package_and_passes() {
    let dir = ut_copy();
    let build = dir.path().join("build");
    std::fs::create_dir_all(&build).unwrap();
    let (prefix, _) = run(Command::new(env!("CARGO_BIN_EXE_ascendc")).args(["flags", "--cmake"]));
    let (configured, _) = run(Command::new("cmake")
        .current_dir(&build)
        .arg(format!("-DCMAKE_PREFIX_PATH={}", prefix.trim()))
        .arg(format!(
            "-DASCENDC_EXECUTABLE={}",
            env!("CARGO_BIN_EXE_ascendc")
        ))
        .arg("-DSOC_VERSION=Ascend910B1")
        .arg(".."));
    assert!(
        configured.contains("-- tikicpulib: ascendc-sim"),
        "{configured}"
    );
    run(Command::new("make").current_dir(&build).arg("-j2"));
    // The product the target named is recorded in the program.
    let record =
        std::fs::read_to_string(build.join("tikicpulib/build_product_Ascend910B1.cpp")).unwrap();
    assert!(
        record.contains("ascendc_set_build_product(\"Ascend910B1\")"),
        "{record}"
    );
    let (out, _) = run(Command::new("./kernel_ut").current_dir(&build));
    assert!(out.contains("compare result: True"), "{out}");
    assert!(out.contains("[  PASSED  ] 2 tests."), "{out}");
}

#[test]
fn the_package_defines_a_target_for_every_modelled_product() {
    let config =
        std::fs::read_to_string(repo().join("cmake/tikicpulib/tikicpulibConfig.cmake")).unwrap();
    let start = config.find("set(TIKICPULIB_PRODUCTS").unwrap();
    let listed: Vec<&str> = config[start..config[start..].find(')').unwrap() + start]
        .split_whitespace()
        .skip(1)
        .collect();
    // `ascendc flags` lists the accepted names when a product is unknown.
    let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .args(["flags", "--cflags", "--product", "NoSuchChip"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    let socs = err
        .split("SoCs ")
        .nth(1)
        .and_then(|s| s.split(';').next())
        .unwrap_or_else(|| panic!("{err}"));
    for soc in socs.split(", ") {
        assert!(
            listed.contains(&soc),
            "{soc} has no tikicpulib:: target: {listed:?}"
        );
    }
    for series in [
        "Ascend910",
        "Ascend310P",
        "Ascend910B",
        "Ascend910_93",
        "Ascend310B",
    ] {
        assert!(listed.contains(&series), "{series}: {listed:?}");
    }
    // Every listed name is one the simulator accepts.
    for name in &listed {
        run(Command::new(env!("CARGO_BIN_EXE_ascendc")).args([
            "flags",
            "--cflags",
            "--product",
            name,
        ]));
    }
}
