//! The sample directories run as a user runs them: copied to a fresh directory, inputs and
//! goldens from their numpy script, `ascendc run` on the sources, `ascendc compare` on the outputs.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn sample(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../samples")
        .join(name)
}

/// A copy of the sample directory with its numpy inputs and goldens generated.
fn prepared(name: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(sample(name)).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            std::fs::copy(&path, dir.path().join(path.file_name().unwrap())).unwrap();
        }
    }
    let gen = Command::new("python3")
        .arg("gen_data.py")
        .current_dir(dir.path())
        .output()
        .expect("python3 runs");
    assert!(
        gen.status.success(),
        "{}",
        String::from_utf8_lossy(&gen.stderr)
    );
    dir
}

fn ascendc(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("ascendc runs")
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn compare(dir: &Path, dtype: &str, output: &str, golden: &str) {
    let o = ascendc(dir, &["compare", "--dtype", dtype, output, golden]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{output}: {out}\n{err}");
    assert!(out.contains("PASS"), "{out}");
}

#[test]
fn tik2_sample_runs_its_cce_kt_test_branch() {
    let dir = prepared("tik2_add");
    let o = ascendc(dir.path(), &["run", "add_custom.cpp", "main.cpp"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    compare(
        dir.path(),
        "float16",
        "output/output_z.bin",
        "output/golden.bin",
    );
}

#[test]
fn kernel_surface_values_and_dump_text() {
    let dir = prepared("kernel_surface");
    let o = ascendc(dir.path(), &["run", "kernel_surface.cpp", "main.cpp"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    let dumps: String = out
        .lines()
        .filter(|l| !l.starts_with("surface_static"))
        .map(|l| format!("{l}\n"))
        .collect();
    let golden = std::fs::read_to_string(dir.path().join("output/golden_dump.txt")).unwrap();
    assert_eq!(dumps, golden);
    assert!(
        out.contains("surface_static: scale 0.50, z[1] * scale = 0.75"),
        "{out}"
    );
    compare(dir.path(), "float16", "output/z.bin", "output/golden_z.bin");
    compare(
        dir.path(),
        "int32",
        "output/info.bin",
        "output/golden_info.bin",
    );
    compare(dir.path(), "float32", "output/y.bin", "output/golden_y.bin");
    compare(
        dir.path(),
        "int32",
        "output/flags.bin",
        "output/golden_flags.bin",
    );
}

#[test]
fn failing_assert_is_a_block_error_with_its_line() {
    let dir = prepared("kernel_surface");
    let o = ascendc(
        dir.path(),
        &["run", "kernel_surface.cpp", "main.cpp", "--", "assert"],
    );
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}\n{err}");
    let line = std::fs::read_to_string(dir.path().join("kernel_surface.cpp"))
        .unwrap()
        .lines()
        .position(|l| l.contains("ASSERT(t.n == N + 1"))
        .unwrap()
        + 1;
    assert!(
        err.contains("kernel `surface_assert`")
            && err.contains("block 0: ASSERT: assertion `t.n == N + 1` failed: n is 64")
            && err.contains(&format!("kernel_surface.cpp:{line}")),
        "{err}"
    );
}

/// Writes `kernel` and a `main` that launches `k` to a directory and runs them.
fn run_kernel(kernel: &str) -> Output {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("k.cpp"), kernel).unwrap();
    std::fs::write(
        dir.path().join("main.cpp"),
        "#include \"tikicpulib.h\"\nextern \"C\" __global__ __aicore__ void k();\n\
         int main() { ICPU_RUN_KF(k, 1); return 0; }\n",
    )
    .unwrap();
    ascendc(dir.path(), &["run", "k.cpp", "main.cpp"])
}

#[test]
fn exhausted_local_mem_allocator_names_the_buffer() {
    let o = run_kernel(
        "#include \"kernel_operator.h\"\nextern \"C\" __global__ __aicore__ void k() {\n\
         AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;\n\
         ub.Alloc<float>(40 * 1024);\n\
         ub.Alloc<float>(16 * 1024);\n}\n",
    );
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}\n{err}");
    assert!(
        err.contains("LocalMemAllocator::Alloc")
            && err.contains("196608 bytes")
            && err.contains("k.cpp:5"),
        "{err}"
    );
}

#[test]
fn missing_apis_stay_compile_errors_naming_the_symbol() {
    let o = run_kernel(
        "#include \"kernel_operator.h\"\nextern \"C\" __global__ __aicore__ void k() {\n\
         AscendC::LocalTensor<float> t;\nAscendC::NoSuchVectorOp(t, t, 64);\n}\n",
    );
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("NoSuchVectorOp"), "{err}");
    let o = run_kernel(
        "#include \"kernel_operator.h\"\nstruct A { int v; };\n\
         extern \"C\" __global__ __aicore__ void k() {\n\
         REGISTER_TILING_FOR_TILINGKEY(\"TILING_KEY_VAR == 1\", A);\n}\n",
    );
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("REGISTER_TILING_FOR_TILINGKEY is not supported"),
        "{err}"
    );
}
