//! `ascendc run --check` on C++ kernels: the synchronisation checker finds the three classic
//! mistakes and stays quiet on correct queue, ping-pong and hand-synchronised kernels.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn cpp(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/cpp")
        .join(name)
}

/// `ascendc run [--check] sources -- args`, in a fresh working directory.
fn run(check: bool, sources: &[&str], args: &[&str]) -> (Output, String, String) {
    let dir = tempfile::tempdir().unwrap();
    // Inputs for the kernels that read `x.bin` / `y.bin` (add_tiled: 8 × 2048 floats).
    for name in ["x.bin", "y.bin"] {
        let v: Vec<u8> = (0..8 * 2048)
            .flat_map(|i| (i as f32).to_le_bytes())
            .collect();
        std::fs::write(dir.path().join(name), v).unwrap();
    }
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ascendc"));
    cmd.current_dir(dir.path()).arg("run");
    if check {
        cmd.arg("--check");
    }
    cmd.args(sources.iter().map(|s| cpp(s)))
        .arg("--")
        .args(args);
    let o = cmd.output().expect("ascendc runs");
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    (o, out, err)
}

#[test]
fn check_finds_missing_v_to_mte3_sync() {
    let (o, out, err) = run(
        true,
        &["robust_hazards.cpp", "robust_hazards_main.cpp"],
        &["1"],
    );
    assert!(o.status.success(), "{out}\n{err}");
    assert!(
        err.contains("RAW hazard") && err.contains("PIPE_V") && err.contains("PIPE_MTE3"),
        "{err}"
    );
    assert!(err.contains("robust_hazards.cpp:"), "{err}");
    // Without --check the simulator computes in program order and says nothing.
    let (o, _, err) = run(
        false,
        &["robust_hazards.cpp", "robust_hazards_main.cpp"],
        &["1"],
    );
    assert!(o.status.success() && !err.contains("hazard"), "{err}");
}

#[test]
fn check_finds_an_unpaired_set_flag() {
    let (o, out, err) = run(
        true,
        &["robust_hazards.cpp", "robust_hazards_main.cpp"],
        &["2"],
    );
    assert!(o.status.success(), "{out}\n{err}");
    assert!(
        err.contains("SetFlag<HardEvent::V_MTE3>(1) is never waited for"),
        "{err}"
    );
}

#[test]
fn check_finds_war_between_mte2_and_v() {
    let (o, out, err) = run(
        true,
        &["robust_hazards.cpp", "robust_hazards_main.cpp"],
        &["3"],
    );
    assert!(o.status.success(), "{out}\n{err}");
    assert!(
        err.contains("WAR hazard") && err.contains("PIPE_V") && err.contains("PIPE_MTE2"),
        "{err}"
    );
}

#[test]
fn check_is_quiet_on_correct_kernels() {
    for (sources, args) in [
        (
            &["robust_hazards.cpp", "robust_hazards_main.cpp"][..],
            &["0"][..],
        ),
        (&["event_flags.cpp", "event_flags_main.cpp"][..], &[][..]),
        (&["add_tiled.cpp", "add_tiled_main.cpp"][..], &["."][..]),
        (&["seed000_add.cpp", "seed000_main.cpp"][..], &["."][..]),
    ] {
        let (o, out, err) = run(true, sources, args);
        assert!(o.status.success(), "{sources:?}\n{out}\n{err}");
        assert!(
            !err.contains("hazard") && !err.contains("warning"),
            "{sources:?}: {err}"
        );
    }
}

#[test]
fn a_wait_flag_nobody_sets_fails_the_launch_with_its_line() {
    let (o, out, err) = run(
        false,
        &["robust_hazards.cpp", "robust_hazards_main.cpp"],
        &["4"],
    );
    assert_eq!(o.status.code(), Some(1), "{out}\n{err}");
    assert!(
        err.contains("WaitFlag<HardEvent::V_MTE3>(2) has no SetFlag")
            && err.contains("robust_hazards.cpp:31")
            && err.contains("block 0"),
        "{err}"
    );
}

#[test]
fn counter_mode_reset_mask_is_bounded_work_in_cpp() {
    let (o, out, err) = run(
        false,
        &["robust_hazards.cpp", "robust_hazards_main.cpp"],
        &["5"],
    );
    assert!(o.status.success(), "{out}\n{err}");
    assert_eq!(out.lines().last(), Some("PASS"), "{out}\n{err}");
}

/// Native code faults: each reported with the block and what went wrong, never silent.
#[test]
fn raw_overrun_past_a_gm_allocation_faults_deterministically() {
    for _ in 0..3 {
        let (o, out, err) = run(
            false,
            &["robust_faults.cpp", "robust_faults_main.cpp"],
            &["1"],
        );
        assert_eq!(o.status.code(), Some(1), "{out}\n{err}");
        assert!(
            err.contains("error: block 0: a raw access at")
                && err.contains("past the end of GM allocation")
                && err.contains("(248 bytes at"),
            "{err}"
        );
    }
}

#[test]
fn small_raw_overrun_is_found_when_the_buffer_is_freed() {
    let (o, out, err) = run(
        false,
        &["robust_faults.cpp", "robust_faults_main.cpp"],
        &["4"],
    );
    assert_eq!(o.status.code(), Some(1), "{out}\n{err}");
    assert!(
        err.contains("GmFree") && err.contains("248 bytes") && err.contains("were overrun"),
        "{err}"
    );
}

#[test]
fn an_exception_names_the_kernel_and_its_launch() {
    let (o, out, err) = run(
        false,
        &["robust_faults.cpp", "robust_faults_main.cpp"],
        &["2"],
    );
    assert_eq!(o.status.code(), Some(1), "{out}\n{err}");
    assert!(
        err.contains("tile count mismatch")
            && err.contains("(kernel `misbehave`)")
            && err.contains("robust_faults_main.cpp:23")
            && !err.contains("<kernel>:0"),
        "{err}"
    );
}

#[test]
fn allocations_past_the_host_are_refused_not_aborted() {
    let (o, out, err) = run(
        false,
        &["robust_faults.cpp", "robust_faults_main.cpp"],
        &["5"],
    );
    assert_eq!(o.status.code(), Some(0), "{out}\n{err}");
    assert!(
        out.contains("GmAlloc null 1, aclrtMalloc 200000, devPtr null 1"),
        "{out}\n{err}"
    );
    assert!(
        err.contains("GmAlloc(1125899906842624)") && err.contains("aclrtMalloc"),
        "{err}"
    );
}

#[test]
fn exit_inside_a_kernel_is_reported_with_the_block() {
    let (o, out, err) = run(
        false,
        &["robust_faults.cpp", "robust_faults_main.cpp"],
        &["3"],
    );
    assert_eq!(o.status.code(), Some(1), "{out}\n{err}");
    assert!(
        err.contains("block 0: the kernel called exit()") && !out.contains("goes on"),
        "{err}"
    );
}

/// A queue tensor used after its FreeTensor fails the launch with the queue, the FreeTensor line
/// and the line of the use; the correct kernel passes.
#[test]
fn use_after_free_tensor_fails_with_both_lines() {
    let sources = [
        "robust_use_after_free.cpp",
        "robust_use_after_free_main.cpp",
    ];
    let (o, out, err) = run(false, &sources, &["0"]);
    assert!(o.status.success(), "{out}\n{err}");
    assert_eq!(out.lines().last(), Some("PASS"), "{out}\n{err}");
    for (mode, api, queue, freed, used) in [
        ("1", "Add", "VECIN", 26, 28),
        ("2", "DataCopy", "VECOUT", 33, 35),
    ] {
        let (o, out, err) = run(false, &sources, &[mode]);
        assert_eq!(o.status.code(), Some(1), "{out}\n{err}");
        assert!(
            err.contains(api)
                && err.contains(&format!("{queue} queue"))
                && err.contains("freed by FreeTensor at "),
            "{err}"
        );
        assert!(
            err.contains(&format!("robust_use_after_free.cpp:{freed}"))
                && err.contains(&format!("robust_use_after_free.cpp:{used}"))
                && err.contains("block 0"),
            "{err}"
        );
    }
    let (o, out, err) = run(false, &sources, &["3"]);
    assert_eq!(o.status.code(), Some(1), "{out}\n{err}");
    assert!(
        err.contains("Muls")
            && err.contains("now belongs to a later AllocTensor (at ")
            && err.contains("robust_use_after_free.cpp:38")
            && err.contains("robust_use_after_free.cpp:40"),
        "{err}"
    );
}

/// SIGTERM to `ascendc run` (what `timeout` and `kill` send) reaches the running program: both
/// end, and the temporary executable is removed.
#[test]
fn a_signal_to_ascendc_ends_the_program_and_removes_its_files() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pid");
    let mut cli = Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .arg("run")
        .arg(cpp("robust_signal_main.cpp"))
        .arg("--")
        .arg(&pidfile)
        .spawn()
        .expect("ascendc runs");
    let started = std::time::Instant::now();
    while !pidfile.exists() {
        assert!(
            started.elapsed().as_secs() < 300,
            "the program did not start"
        );
        if let Some(status) = cli.try_wait().unwrap() {
            panic!("ascendc ended early: {status}");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let text = std::fs::read_to_string(&pidfile).unwrap();
    let (pid, exe) = text.trim().split_once(' ').unwrap();
    assert!(Path::new(exe).exists(), "{exe}");
    let killed = Command::new("kill")
        .args(["-TERM", &cli.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = cli.wait().unwrap();
    assert_eq!(status.code(), Some(128 + 15), "{status}");
    assert!(
        !Path::new(&format!("/proc/{pid}")).exists(),
        "the program {pid} outlived ascendc"
    );
    assert!(!Path::new(exe).exists(), "{exe} was left behind");
}

/// `--timeout`: a kernel that never ends is stopped after the limit with status 124 and the
/// last API call of every block still running (block 0 spins after its `Adds` on line 28,
/// block 1 before it).
#[test]
fn timeout_ends_a_runaway_kernel_and_says_where_each_block_was() {
    let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .args(["run", "--timeout", "2"])
        .arg(cpp("robust_runaway.cpp"))
        .output()
        .expect("ascendc runs");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(124), "{err}");
    assert!(
        err.contains("the program ran longer than ASCENDC_TIMEOUT (2 s) and was ended"),
        "{err}"
    );
    let line = |block: u32| {
        err.lines()
            .find(|l| l.contains(&format!("(block {block}): last API call at")))
            .map(|l| l.rsplit(':').next().unwrap().to_string())
    };
    assert_eq!(line(0).as_deref(), Some("28"), "{err}");
    if let Some(l) = line(1) {
        assert_ne!(l, "28", "{err}");
    }
    assert!(!String::from_utf8_lossy(&o.stdout).contains("unreachable"));
    // A limit that is not a positive number is refused before anything runs.
    let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .args(["run", "--timeout=0"])
        .arg(cpp("robust_runaway.cpp"))
        .output()
        .expect("ascendc runs");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("expected a positive number of seconds"));
}

/// Native faults inside a kernel name the block: an integer division by zero (SIGFPE), abort()
/// and a stack overflow (reported from the thread's alternate signal stack), on one block (the
/// launching thread) and on two (worker threads). abort() in host code stays an abort.
#[test]
fn native_faults_in_a_kernel_name_the_block() {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("faults");
    let built = Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .args(["run", "-o"])
        .arg(&exe)
        .arg(cpp("robust_native_faults.cpp"))
        .output()
        .expect("ascendc runs");
    assert!(
        String::from_utf8_lossy(&built.stdout).contains("finished 0"),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    for blocks in ["1", "2"] {
        for (mode, says) in [
            ("1", "arithmetic fault (SIGFPE)"),
            ("2", "the kernel called abort()"),
            ("3", "stack overflow"),
        ] {
            let o = Command::new(&exe).args([mode, blocks]).output().unwrap();
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(
                o.status.code(),
                Some(1),
                "mode {mode}, {blocks} blocks: {err}"
            );
            assert!(err.contains("error: block "), "{err}");
            assert!(err.contains(says), "mode {mode}, {blocks} blocks: {err}");
        }
    }
    let o = Command::new(&exe).arg("4").output().unwrap();
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(o.status.signal(), Some(6), "{:?}", o.status);
    assert!(!String::from_utf8_lossy(&o.stderr).contains("the kernel called abort()"));
}
