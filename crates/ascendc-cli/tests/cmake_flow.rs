//! The vendor's CMake flow with the project's package (`cmake/`): `samples/scaled_add` built and
//! run exactly as its README does (`mkdir -p build && cd build && cmake .. && make -j`,
//! `gen_data.py`, `./demo`, `verify_result.py`), on the architecture and SoC the configuration
//! names, and the same directory through `ascendc run DIR`. Needs `cmake` (`pip install cmake`)
//! and numpy.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A copy of samples/scaled_add (its build/, input/ and output/ stay out of the checkout).
fn sample_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let src = repo().join("samples/scaled_add");
    for rel in [
        "CMakeLists.txt",
        "scaled_add.asc",
        "scripts/gen_data.py",
        "scripts/verify_result.py",
    ] {
        let to = dir.path().join(rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(src.join(rel), to).unwrap();
    }
    dir
}

fn run(cmd: &mut Command) -> (String, String) {
    let o: Output = cmd
        .env_remove("ASCENDC_PRODUCT")
        .output()
        .unwrap_or_else(|e| panic!("{cmd:?}: {e} (cmake comes with `pip install cmake`)"));
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "{cmd:?}\n{out}\n{err}");
    (out, err)
}

/// The README sequence in `dir`/build with extra configure definitions; returns ./demo's output.
fn readme_sequence(dir: &Path, defines: &[&str], scenario: &str) -> String {
    let build = dir.join("build");
    std::fs::create_dir_all(&build).unwrap();
    let (prefix, _) = run(Command::new(env!("CARGO_BIN_EXE_ascendc")).args(["flags", "--cmake"]));
    run(Command::new("cmake")
        .current_dir(&build)
        .arg(format!("-DCMAKE_PREFIX_PATH={}", prefix.trim()))
        .arg(format!(
            "-DASCENDC_EXECUTABLE={}",
            env!("CARGO_BIN_EXE_ascendc")
        ))
        .arg(format!("-DSCENARIO_NUM={scenario}"))
        .args(defines)
        .arg(".."));
    run(Command::new("make").current_dir(&build).arg("-j2"));
    let scenario_arg = format!("-scenarioNum={scenario}");
    run(Command::new("python3")
        .current_dir(&build)
        .args(["../scripts/gen_data.py", &scenario_arg]));
    let (demo, _) = run(Command::new("./demo").current_dir(&build));
    let (verdict, _) = run(Command::new("python3").current_dir(&build).args([
        "../scripts/verify_result.py",
        &scenario_arg,
        "output/output.bin",
        "output/golden.bin",
    ]));
    assert_eq!(verdict, "test pass!\n");
    demo
}

#[test]
fn the_vendor_readme_sequence_builds_and_runs_the_sample() {
    let dir = sample_copy();
    // The CMakeLists' own default architecture, dav-2201: the A2 series, 48 vector cores.
    let demo = readme_sequence(dir.path(), &[], "1");
    assert_eq!(
        demo,
        "blockDim 48 (GetCoreNumAiv), tile 4096 elements, 4-byte elements\n"
    );
    // A SoC of that architecture, and the float16 scenario.
    std::fs::remove_dir_all(dir.path().join("build")).unwrap();
    let demo = readme_sequence(dir.path(), &["-DASCENDC_PRODUCT=Ascend910B3"], "2");
    assert_eq!(
        demo,
        "blockDim 40 (GetCoreNumAiv), tile 8192 elements, 2-byte elements\n"
    );
    // The inference series by architecture, in the CPU-debug host branch.
    std::fs::remove_dir_all(dir.path().join("build")).unwrap();
    let demo = readme_sequence(
        dir.path(),
        &[
            "-DCMAKE_ASC_ARCHITECTURES=dav-2002",
            "-DCMAKE_ASC_RUN_MODE=cpu",
        ],
        "1",
    );
    assert_eq!(
        demo,
        "blockDim 8 (GetCoreNumAiv), tile 5456 elements, 4-byte elements\n"
    );
}

#[test]
fn configuring_for_an_unsimulated_architecture_names_the_accepted_ones() {
    let dir = sample_copy();
    let build = dir.path().join("build");
    std::fs::create_dir_all(&build).unwrap();
    let o = Command::new("cmake")
        .current_dir(&build)
        .env_remove("ASCENDC_PRODUCT")
        .arg(format!(
            "-DCMAKE_PREFIX_PATH={}",
            repo().join("cmake").display()
        ))
        .arg(format!(
            "-DASCENDC_EXECUTABLE={}",
            env!("CARGO_BIN_EXE_ascendc")
        ))
        .arg("-DCMAKE_ASC_ARCHITECTURES=dav-3510")
        .arg("..")
        .output()
        .expect("cmake runs (pip install cmake)");
    // CMake wraps the message: compare it word by word.
    let err = String::from_utf8_lossy(&o.stderr)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(!o.status.success());
    assert!(
        err.contains("find_package(ASC): product dav-3510: Ascend 950 (dav-3510) is not simulated; accepted: series 910, 310P"),
        "{err}"
    );
}

#[test]
fn ascendc_run_builds_a_cmake_directory_with_its_defaults() {
    let dir = sample_copy();
    let d = dir.path();
    run(Command::new("python3")
        .current_dir(d)
        .args(["scripts/gen_data.py", "-scenarioNum=2"]));
    // SCENARIO_NUM comes from the command line through to the CMake variable and the define.
    let (out, _) = run(Command::new(env!("CARGO_BIN_EXE_ascendc")).args([
        "run",
        "--product",
        "Ascend910B4",
        "--cxxflag=-DSCENARIO_NUM=2",
        d.to_str().unwrap(),
    ]));
    assert_eq!(
        out,
        "blockDim 40 (GetCoreNumAiv), tile 8192 elements, 2-byte elements\n"
    );
    let (verdict, _) = run(Command::new("python3").current_dir(d).args([
        "scripts/verify_result.py",
        "-scenarioNum=2",
        "output/output.bin",
        "output/golden.bin",
    ]));
    assert_eq!(verdict, "test pass!\n");
    // Without it, the CMakeLists' cache default (scenario 1, float): the float16 inputs are too
    // short for it.
    let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .env_remove("ASCENDC_PRODUCT")
        .args(["run", d.to_str().unwrap()])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(!o.status.success());
    assert!(
        out.starts_with("blockDim 48 (GetCoreNumAiv), tile 4096 elements, 4-byte elements"),
        "{out}"
    );
}
