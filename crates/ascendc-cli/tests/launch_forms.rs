//! The `<<<blockDim, l2ctrl, stream>>>` launch forms of vendor code (`tests/cpp/launch_*`), run by
//! `ascendc run` in both host branches: launches in macro bodies and kernels declared through
//! macros, `__mix__(cube, vec)` / `__cube__` / `__vector__` kernels on their cores, launches
//! through function pointers and constexpr variables, `void*` arguments, kernels named like C
//! library functions (also as an operator's entry under `ascendc op run`), and `ascendc cxx`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn cpp(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/cpp")
        .join(name)
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

/// Runs `tests/cpp/<files>` in both host branches and checks that each case printed PASS.
fn run_cases(files: &[&str], cases: &[&str]) {
    for mode in ["cpu", "npu"] {
        let mut args = vec!["run".to_string(), "--run-mode".into(), mode.into()];
        args.extend(files.iter().map(|f| cpp(f).display().to_string()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = ascendc(Path::new("."), &args);
        let (out, err) = text(&o);
        assert!(o.status.success(), "{mode}: {out}\n{err}");
        for case in cases {
            assert!(
                out.contains(&format!("{case}: PASS\n")),
                "{mode}: {case}\n{out}\n{err}"
            );
        }
        assert_eq!(out.lines().count(), cases.len(), "{mode}: {out}");
        assert!(!err.contains("warning"), "{mode}: {err}");
    }
}

#[test]
fn launches_in_macro_bodies_and_kernels_declared_through_macros() {
    run_cases(
        &["launch_macros.asc"],
        &[
            "LAUNCH(k)",
            "LAUNCH_ARGS(k, ...)",
            "LAUNCH_DOUBLE",
            "macro-declared kernel",
        ],
    );
}

#[test]
fn execution_space_qualifiers_choose_the_cores() {
    run_cases(
        &["launch_mix.asc"],
        &[
            "__mix__(1, 2)",
            "__mix__(1, 1)",
            "__mix__(1, 0)",
            "__cube__",
            "template __mix__(1, 2)",
            "macro-declared __mix__(1, 2)",
            "__cube__ through a pointer",
            "template __cube__ through a constexpr variable",
            "template __mix__(1, 2) through a constexpr variable",
            "__vector__ after SetKernelMode(AIC_MODE)",
            "no qualifier after SetKernelMode(AIC_MODE)",
        ],
    );
}

#[test]
fn launches_through_pointers_and_constexpr_variables_with_untyped_arguments() {
    run_cases(
        &["launch_pointers.asc"],
        &[
            "pointer chosen at run time",
            "constexpr variable",
            "constexpr lambda's pick",
            "pointer parameter, uint8_t* arguments",
            "void* arguments to GM_ADDR",
            "void* arguments to __gm__ float*",
        ],
    );
}

#[test]
fn kernels_named_like_c_library_functions_in_one_source() {
    run_cases(
        &["launch_libc_names.asc"],
        &[
            "extern \"C\" sqrt",
            "extern \"C\" exp",
            "extern \"C\" log",
            "abs",
            "host C library",
        ],
    );
}

#[test]
fn kernels_named_like_c_library_functions_in_a_kernel_file() {
    run_cases(
        &["launch_libc_names_kernel.cpp", "launch_libc_names_main.cpp"],
        &["sqrt", "exp"],
    );
}

#[test]
fn operator_entry_named_like_a_c_library_function() {
    let dir = tempfile::tempdir().unwrap();
    let x: Vec<f32> = (1..=64).map(|i| i as f32 * 0.25).collect();
    let bytes: Vec<u8> = x.iter().flat_map(|v| v.to_le_bytes()).collect();
    std::fs::write(dir.path().join("x.bin"), bytes).unwrap();
    let op = cpp("ops/sqrt").display().to_string();
    let args = [
        "op",
        "run",
        &op,
        "--input",
        "x=x.bin:float32:64",
        "--output",
        "y=y.bin",
    ];
    let o = ascendc(dir.path(), &args);
    assert!(o.status.success(), "{:?}", text(&o));
    let y: Vec<f32> = std::fs::read(dir.path().join("y.bin"))
        .unwrap()
        .chunks(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let want: Vec<f32> = x.iter().map(|v| v.sqrt()).collect();
    assert_eq!(y, want);
}

#[test]
fn cxx_compiles_and_links_macro_launches() {
    let dir = tempfile::tempdir().unwrap();
    let src = cpp("launch_macros.asc").display().to_string();
    let o = ascendc(dir.path(), &["cxx", "-c", &src, "-o", "m.o"]);
    assert!(o.status.success(), "{:?}", text(&o));
    let o = ascendc(dir.path(), &["cxx", "m.o", "-o", "m"]);
    assert!(o.status.success(), "{:?}", text(&o));
    let o = Command::new(dir.path().join("m")).output().unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert_eq!(out.matches(": PASS\n").count(), 4, "{out}");
}

/// Compiles `src` as `name` with `ascendc run` and returns its stderr; the build must fail.
fn build_error(name: &str, src: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(name), src).unwrap();
    let o = ascendc(dir.path(), &["run", name]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{out}\n{err}");
    err
}

#[test]
fn unsupported_qualifiers_are_errors_at_the_kernel() {
    let head = "#include \"kernel_operator.h\"\n";
    let err = build_error(
        "ratio.asc",
        &format!("{head}__global__ __mix__(2, 1) void k(GM_ADDR x) {{}}\nint main() {{}}\n"),
    );
    assert!(err.contains("ratio.asc:2:"), "{err}");
    assert!(
        err.contains(
            "the supported ratios of cube to vector cores are (1, 0), (0, 1), (1, 1) and (1, 2)"
        ),
        "{err}"
    );
    let err = build_error(
        "two.asc",
        &format!("{head}__global__ __cube__ __mix__(1, 2) void k(GM_ADDR x) {{}}\n"),
    );
    assert!(
        err.contains("two.asc:2:1: error: two execution-space qualifiers (__cube__ and __mix__)"),
        "{err}"
    );
}

#[test]
fn arguments_that_do_not_fit_the_kernel_are_compile_errors_at_the_launch() {
    let src = concat!(
        "#include \"kernel_operator.h\"\n",
        "__global__ __aicore__ void k(GM_ADDR x) {}\n",
        "int main() {\n",
        "    const void* c = nullptr;\n",
        "    k<<<1, nullptr, nullptr>>>(c);\n",
        "}\n",
    );
    let err = build_error("args.asc", src);
    assert!(err.contains("args.asc:5:"), "{err}");
    assert!(
        err.contains("the kernel cannot be called with these arguments (one does not convert"),
        "{err}"
    );
}
