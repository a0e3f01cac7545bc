//! The debugging, tool, cache-control and synchronisation APIs through the C++ headers
//! (`tests/cpp/debug_sync.cpp`), run by `ascendc run`: the passing cases print `<case>: PASS`;
//! the failing kernels (assert, Trap, CheckLocalMemoryIA, a wait that never ends) fail the launch
//! with an error naming the block and the kernel line.

use std::path::Path;
use std::process::{Command, Output};

fn run(opts: &[&str], args: &[&str]) -> (Output, String, String) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/cpp/debug_sync.cpp");
    let mut all = vec!["run".to_string(), src.display().to_string()];
    all.extend(opts.iter().map(|s| s.to_string()));
    all.push("--".into());
    all.extend(args.iter().map(|s| s.to_string()));
    let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .args(&all)
        .output()
        .expect("ascendc runs");
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    (o, out, err)
}

#[test]
fn passing_cases_on_every_schedule() {
    // In block order the 1s vanish into 1e8: 11.75.
    let sum = format!("ordered sum 0x{:08x}", 11.75f32.to_bits());
    for s in [
        &[][..],
        &["--schedule", "reverse"][..],
        &["--schedule", "shuffle:3"][..],
    ] {
        let mut opts = vec!["--product", "A2"];
        opts.extend_from_slice(s);
        let (o, out, err) = run(&opts, &[]);
        assert!(o.status.success(), "{s:?}\n{out}\n{err}");
        for case in [
            "determine example",
            "determine order",
            "sys vars",
            "cache control",
            "TQueSync",
            "Async",
            "CheckLocalMemoryIA reset",
        ] {
            assert!(
                out.contains(&format!("{case}: PASS")),
                "{case} {s:?}\n{out}\n{err}"
            );
        }
        assert!(out.contains(&sum), "{out}");
        assert!(out.contains("core version is 2201\n"), "{out}");
        let stamp = out
            .lines()
            .find(|l| l.starts_with("descId is 65577, rsv is 0, timeStamp is "))
            .unwrap_or_else(|| panic!("no time stamp\n{out}"));
        assert!(stamp.ends_with(", entry is 0."), "{stamp}");
        assert!(!err.contains("warning"), "{err}");
    }
}

#[test]
fn ascendc_assert_and_assert_fail_the_launch_with_the_line() {
    let (o, out, err) = run(&["--product", "A2"], &["ascendc_assert"]);
    assert_eq!(o.status.code(), Some(1), "{out}\n{err}");
    assert!(
        out.contains(
            "debug_sync.cpp:192: Assertion `assertFlag != 10' The assertFlag value is 10."
        ),
        "{out}"
    );
    assert!(out.contains("[ASSERT] "), "{out}");
    for e in [
        "block 0",
        "ascendc_assert",
        "assertion `assertFlag != 10` failed: The assertFlag value is 10.",
        "debug_sync.cpp:192",
    ] {
        assert!(err.contains(e), "{e}\n{err}");
    }
    let (o, out, err) = run(&["--product", "310B"], &["assert"]);
    assert_eq!(o.status.code(), Some(1), "{out}\n{err}");
    assert!(
        out.contains("debug_sync.cpp:194: Assertion `assertFlag != 10'\n"),
        "{out}"
    );
    assert!(
        err.contains("assert: assertion `assertFlag != 10` failed"),
        "{err}"
    );
    // The Atlas training series is not listed: even a passing assert is refused.
    let (o, _, err) = run(&["--product", "910"], &["assert"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(err.contains("ascendc_assert is not available on"), "{err}");
}

#[test]
fn trap_and_local_memory_check_stop_the_block() {
    let (o, out, err) = run(&["--product", "A3"], &["trap"]);
    assert_eq!(o.status.code(), Some(1), "{out}\n{err}");
    assert!(err.contains("Trap: the kernel called Trap()"), "{err}");
    assert!(err.contains("debug_sync.cpp:202"), "{err}");
    let (o, _, err) = run(&["--product", "310B"], &["trap"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(err.contains("Trap is not available on"), "{err}");
    let (o, out, err) = run(&["--product", "A2"], &["ia"]);
    assert_eq!(o.status.code(), Some(1), "{out}\n{err}");
    for e in [
        "Add: AI Core exception: vector write of UB bytes",
        "CheckLocalMemoryIA register 0",
        "debug_sync.cpp:183",
    ] {
        assert!(err.contains(e), "{e}\n{err}");
    }
}

#[test]
fn wait_pre_block_without_notification_is_a_deadlock() {
    for s in [&[][..], &["--schedule", "reverse"][..]] {
        let mut opts = vec!["--product", "A2"];
        opts.extend_from_slice(s);
        let (o, out, err) = run(&opts, &["deadlock"]);
        assert_eq!(o.status.code(), Some(1), "{out}\n{err}");
        for e in [
            "deadlock",
            "debug_sync.cpp:214",
            "NotifyNextBlock number 1 of block 1 on this workspace, which has notified 0 time(s)",
        ] {
            assert!(err.contains(e), "{e} {s:?}\n{err}");
        }
    }
}
