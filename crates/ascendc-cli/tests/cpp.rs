//! The C++ front end end to end: the project's C++ kernels (`tests/cpp/`) compiled with the
//! machine's g++ by `ascendc run`, their outputs checked, and `ascendc compare` on the results.

use ascendc::f16;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn cpp(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/cpp")
        .join(name)
}

fn ascendc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .args(args)
        .output()
        .expect("ascendc runs")
}

fn run(sources: &[&str], args: &[&str]) -> Output {
    let paths: Vec<String> = sources
        .iter()
        .map(|s| cpp(s).display().to_string())
        .collect();
    let mut all: Vec<&str> = vec!["run"];
    all.extend(paths.iter().map(String::as_str));
    all.push("--");
    all.extend(args);
    ascendc(&all)
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn f32s(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn write_f32(path: &Path, v: &[f32]) {
    std::fs::write(
        path,
        v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>(),
    )
    .unwrap();
}

#[test]
fn seed000_queues_datacopy_add() {
    let dir = tempfile::tempdir().unwrap();
    let sources = [cpp("seed000_add.cpp"), cpp("seed000_main.cpp")];
    let o = ascendc(&[
        "run",
        "--report",
        sources[0].to_str().unwrap(),
        sources[1].to_str().unwrap(),
        "--",
        dir.path().to_str().unwrap(),
    ]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    // The launch summary: one core, instructions on the vector and both copy pipes.
    let summary = err
        .lines()
        .find(|l| l.starts_with("kernel `add_half`: "))
        .unwrap_or_else(|| panic!("{err}"));
    assert!(
        summary.contains("(Ascend910B): 1 core(s), instructions V "),
        "{summary}"
    );
    assert!(
        summary.contains(", MTE2 ") && summary.contains(", MTE3 "),
        "{summary}"
    );
    let bytes = std::fs::read(dir.path().join("out.bin")).unwrap();
    let got: Vec<f32> = bytes
        .chunks_exact(2)
        .map(|c| f16::from_le_bytes([c[0], c[1]]).to_f32())
        .collect();
    let want: Vec<f32> = (1..=512).map(|i| 2.0 * i as f32).collect();
    assert_eq!(got, want);
}

#[test]
fn tiled_double_buffered_add_on_8_blocks_with_bin_golden() {
    let dir = tempfile::tempdir().unwrap();
    let n = 8 * 2048;
    let x: Vec<f32> = (0..n).map(|i| (i % 97) as f32 * 0.25 - 7.0).collect();
    let y: Vec<f32> = (0..n).map(|i| (i % 13) as f32 * 1.5 + 0.125).collect();
    let golden: Vec<f32> = x.iter().zip(&y).map(|(a, b)| a + b).collect();
    write_f32(&dir.path().join("x.bin"), &x);
    write_f32(&dir.path().join("y.bin"), &y);
    write_f32(&dir.path().join("golden.bin"), &golden);
    let o = run(
        &["add_tiled.cpp", "add_tiled_main.cpp"],
        &[dir.path().to_str().unwrap()],
    );
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    for file in ["z_value.bin", "z_gm.bin"] {
        let path = dir.path().join(file);
        assert_eq!(f32s(&std::fs::read(&path).unwrap()), golden, "{file}");
        let c = ascendc(&[
            "compare",
            path.to_str().unwrap(),
            dir.path().join("golden.bin").to_str().unwrap(),
            "--dtype",
            "float32",
        ]);
        let (cout, _) = text(&c);
        assert!(c.status.success(), "{cout}");
        assert!(cout.contains("0 of 16384 elements not close"), "{cout}");
    }
}

#[test]
fn user_kernel_file_runs_unchanged() {
    let o = run(&["user/data_copy_kernel.cpp", "user/main.cpp"], &[]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert!(
        out.contains("Output (dstGlobal): [2 4 6 ... 1024]"),
        "{out}"
    );
    assert!(out.contains("PASS"), "{out}");
}

#[test]
fn misaligned_datacopy_fails_with_api_rule_and_cpp_line() {
    let o = run(&["misaligned_copy.cpp", "misaligned_main.cpp"], &[]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}\n{err}");
    assert!(!out.contains("the launch returned"), "{out}");
    assert!(
        err.contains("kernel `misaligned_copy`") && err.contains("failed in 2 of 2 block(s)"),
        "{err}"
    );
    for block in 0..2 {
        let line = err
            .lines()
            .find(|l| l.contains(&format!("block {block}")) && l.contains("DataCopy:"))
            .unwrap_or_else(|| panic!("no error line for block {block}:\n{err}"));
        assert!(
            line.contains("destination start address 6 (0x6) in UB must be 32-byte aligned"),
            "{line}"
        );
        assert!(line.contains("misaligned_copy.cpp:12"), "{line}");
    }
}

#[test]
fn flags_name_headers_and_library() {
    let o = ascendc(&["flags"]);
    let (out, _) = text(&o);
    assert!(o.status.success());
    let include = out
        .split_whitespace()
        .find_map(|f| f.strip_prefix("-I"))
        .expect("an include flag");
    assert!(
        Path::new(include).join("kernel_operator.h").is_file(),
        "{out}"
    );
    assert!(Path::new(include).join("tikicpulib.h").is_file(), "{out}");
    let lib = out
        .split_whitespace()
        .find(|f| f.ends_with(".a"))
        .expect("the library");
    assert!(Path::new(lib).is_file(), "{out}");
    assert!(
        out.contains("-DASCENDC_CPU_DEBUG=1") && out.contains("-lpthread"),
        "{out}"
    );
}

#[test]
fn repeat_reduce_sum_in_half() {
    let o = run(
        &["repeat_reduce_sum.cpp", "repeat_reduce_sum_main.cpp"],
        &[],
    );
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    let want: Vec<String> = (0..16).map(|r| (128 * r + 224).to_string()).collect();
    assert!(out.starts_with(&want.join(" ")), "{out}");
    assert!(out.contains("PASS"), "{out}");
}

#[test]
fn datacopypad_slice_and_nz_to_nd() {
    let o = run(&["copy_family.cpp", "copy_family_main.cpp"], &[]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    for kernel in ["pad_rows", "slice_rows", "nz_to_nd"] {
        assert!(out.contains(&format!("{kernel}: PASS")), "{out}");
    }
}

#[test]
fn shape_info_is_kept_by_tensors_queues_and_views_and_checked_when_set() {
    let o = run(&["shape_info.cpp", "shape_info_main.cpp"], &[]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert_eq!(
        out.lines().filter(|l| l.ends_with(": held")).count(),
        12,
        "{out}"
    );
    assert_eq!(out.lines().last(), Some("PASS"));
    // Nine dimensions: refused at the SetShapeInfo call, the block stops there.
    let o = run(&["shape_info.cpp", "shape_info_main.cpp"], &["1"]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}\n{err}");
    assert!(
        err.contains("`shapeDim` = 9 is out of range [0, 8]") && err.contains("shape_info.cpp:32"),
        "{err}"
    );
}

#[test]
fn vector_instructions_match_host_arithmetic() {
    let o = run(&["vec_ops.cpp", "vec_ops_main.cpp"], &[]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    let ops = [
        "Sub",
        "Mul",
        "Div",
        "Max",
        "Abs",
        "Adds+Muls",
        "Compare+Select",
        "Cast",
        "Exp",
        "Add l0",
    ];
    for op in ops {
        assert!(out.contains(&format!("{op}: PASS")), "{out}");
    }
}

#[test]
fn user_reduce_kernel_in_the_bin_workflow() {
    let dir = tempfile::tempdir().unwrap();
    let (input, output, golden) = (
        dir.path().join("input.bin"),
        dir.path().join("output.bin"),
        dir.path().join("golden.bin"),
    );
    let one = f16::from_f32(1.0).to_le_bytes();
    std::fs::write(&input, one.repeat(2048)).unwrap();
    std::fs::write(&golden, f16::from_f32(128.0).to_le_bytes().repeat(16)).unwrap();
    let o = run(
        &["user/reduce_kernel.cpp", "user/reduce_main.cpp"],
        &[input.to_str().unwrap(), output.to_str().unwrap()],
    );
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    let c = ascendc(&[
        "compare",
        output.to_str().unwrap(),
        golden.to_str().unwrap(),
        "--dtype",
        "float16",
    ]);
    let (cout, _) = text(&c);
    assert!(c.status.success(), "{cout}");
    assert!(cout.contains("0 of 16 elements not close"), "{cout}");
}

#[test]
fn event_ids_and_flags_on_4_blocks() {
    let o = run(&["event_flags.cpp", "event_flags_main.cpp"], &[]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    for block in 0..4 {
        let line = format!("block {block}: y[0] = {}", 3 * (64 * block - 100));
        assert!(out.lines().any(|l| l == line), "{line}\n{out}");
    }
    assert_eq!(out.lines().last(), Some("PASS"));
    assert!(!err.contains("warning"), "{err}");
}

#[test]
fn host_pointer_argument_warns_and_gm_access_through_it_is_refused() {
    let o = run(&["seed000_add.cpp", "bad_arg_main.cpp"], &[]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}\n{err}");
    assert!(!out.contains("the launch returned"), "{out}");
    let warnings: Vec<&str> = err.lines().filter(|l| l.starts_with("warning:")).collect();
    assert_eq!(warnings.len(), 1, "{err}");
    assert!(
        warnings[0].contains("bad_arg_main.cpp:14: kernel argument 3 `out` (")
            && warnings[0].contains("not bounds-checked"),
        "{err}"
    );
    assert!(
        err.contains("block 0: DataCopy: GM pointer")
            && err.contains("is not inside a live GM allocation")
            && err.contains("seed000_add.cpp:36"),
        "{err}"
    );
}

#[test]
fn host_tiling_struct_by_address_is_read_with_one_warning() {
    let o = run(&["host_pointer_arg.cpp"], &[]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        ["round 1: 10 20 30 40", "round 2: 20 40 60 80"]
    );
    let warnings: Vec<&str> = err.lines().filter(|l| l.starts_with("warning:")).collect();
    assert_eq!(
        warnings.len(),
        1,
        "one warning for two launches at one call site: {err}"
    );
    assert!(
        warnings[0].contains("host_pointer_arg.cpp:28: kernel argument 2 `(uint8_t*)&tiling` (")
            && warnings[0].contains("accesses through it are not bounds-checked"),
        "{err}"
    );
}

#[test]
fn user_workspace_is_the_whole_workspace_in_cpu_debug_and_follows_the_system_part_on_device() {
    let src = cpp("user_workspace.cpp").display().to_string();
    for (mode, line) in [
        ("cpu", "user workspace at +0: PASS"),
        ("npu", "user workspace at +16777216: PASS"),
    ] {
        let o = ascendc(&["run", &src, "--run-mode", mode]);
        let (out, err) = text(&o);
        assert!(o.status.success(), "{mode}\n{out}\n{err}");
        assert_eq!(out.trim(), line, "{mode}\n{err}");
    }
}

#[test]
fn acl_finalize_without_acl_init_succeeds_quietly() {
    let o = run(&["acl_finalize_uninit.cpp"], &[]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "aclFinalize without aclInit: 0",
            "aclInit: 0",
            "aclFinalize: 0",
            "aclFinalize again: 100037",
        ],
        "{err}"
    );
    // Only the repeated aclFinalize is reported.
    assert_eq!(
        err.lines().collect::<Vec<_>>(),
        ["error: aclFinalize: acl is already finalized (acl error 100037)"],
        "{err}"
    );
}

#[test]
fn acl_runtime_runs_a_kernel_on_device_memory_and_reports_misuse() {
    let o = run(&["seed000_add.cpp", "acl_runtime_main.cpp"], &[]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert_eq!(out.lines().last(), Some("PASS"), "{out}");
    for line in [
        "device count 1",
        "z = [2 4 ... 1024], 0 wrong",
        "fp16 of 1+2^-11 = 0x3c00, of 70000 = 0x7c00",
        "count above destMax: 100000 | aclrtMemcpy: count 32 bytes exceeds destMax 16 bytes (acl error 100000)",
        "aclFinalize again: 100037 | aclFinalize: acl is already finalized (acl error 100037)",
    ] {
        assert!(out.lines().any(|l| l == line), "{line}\n{out}");
    }
    let past = out
        .lines()
        .find(|l| l.starts_with("copy past the device allocation: 100000 | "))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        past.contains("100 bytes run past the end of the source device memory")
            && past.contains("(24 bytes from there to the end of its allocation)"),
        "{past}"
    );
    // Every failed call is also reported on stderr; no launch warnings for aclrtMalloc memory.
    assert_eq!(
        err.lines().filter(|l| l.starts_with("error: acl")).count(),
        11,
        "{err}"
    );
    assert!(!err.contains("warning"), "{err}");
}

#[test]
fn saturation_flag_switches_fp16_overflow_on_a2_only() {
    let o = run(&["saturation.cpp"], &[]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert!(out.contains("saturated 0x7bff, ieee 0x7c00"), "{out}");
    let path = cpp("saturation.cpp").display().to_string();
    let o = ascendc(&["run", "--product", "310P", &path]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}\n{err}");
    assert!(err.contains("SetSaturationFlag"), "{err}");
    assert!(err.contains("saturation.cpp:21"), "{err}");
}
