//! Runtime compilation (aclrtc) and the acl runtime's binaries, launches, events, asynchronous
//! calls and ACLGraph capture, run by `ascendc run` on C++ host programs in `tests/cpp/`, each printing
//! `<case>: PASS` per checked case.

use std::path::Path;
use std::process::{Command, Output};

fn run(file: &str, mode: &str) -> Output {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/cpp")
        .join(file);
    Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .args(["run", "--run-mode", mode, path.to_str().unwrap()])
        .env_remove("ASCENDC_CLI")
        .output()
        .expect("ascendc runs")
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn assert_cases(out: &str, err: &str, cases: &[&str]) {
    for case in cases {
        assert!(
            out.lines().any(|l| l == format!("{case}: PASS")),
            "{case}\n{out}\n{err}"
        );
    }
}

#[test]
fn a_templated_add_compiled_at_run_time_computes_the_sums() {
    let o = run("rtc_template_add.cpp", "npu");
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert_cases(
        &out,
        &err,
        &[
            "compile",
            "args array, float",
            "packed device args, half",
            "host args, kernel by name",
            "lookup and launch errors",
            "unload and destroy",
        ],
    );
}

#[test]
fn compile_errors_land_in_the_log_and_misuse_gets_its_code() {
    let o = run("rtc_errors.cpp", "cpu");
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert_cases(
        &out,
        &err,
        &[
            "compile error",
            "options",
            "bad name expression",
            "order of calls",
            "handles",
            "failing kernel",
        ],
    );
    // The failing block's error names the runtime-compiled program's file and line.
    assert!(
        err.lines().any(|l| l.contains("DataCopy")
            && l.contains("32-byte aligned")
            && l.contains("misaligned.asc:8")),
        "{err}"
    );
    assert!(
        err.contains("error: kernel `misaligned` launched at "),
        "{err}"
    );
}

#[test]
fn events_and_async_calls_complete_at_once_and_check_their_handles() {
    let o = run("acl_events_async.cpp", "npu");
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert_cases(
        &out,
        &err,
        &[
            "current device",
            "create events",
            "async copy, record, wait",
            "synchronise and time",
            "kernel result",
            "misuse",
        ],
    );
}

#[test]
fn aclgraph_captures_copies_launches_and_event_waits_and_replays_them() {
    // The program writes its aclmdlRI JSON into its working directory.
    let dir = std::env::temp_dir().join(format!("ascendc-acl-graph-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/cpp/acl_graph_capture.asc");
    for mode in ["npu", "cpu"] {
        let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
            .args(["run", "--run-mode", mode, path.to_str().unwrap()])
            .env_remove("ASCENDC_CLI")
            .current_dir(&dir)
            .output()
            .expect("ascendc runs");
        let (out, err) = text(&o);
        assert!(o.status.success(), "{mode}\n{out}\n{err}");
        assert_cases(
            &out,
            &err,
            &[
                "capture runs nothing",
                "single stream replays with new inputs",
                "debug json lists the tasks",
                "two streams joined by events",
                "launch after the capture runs at once",
                "misuse",
            ],
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}
