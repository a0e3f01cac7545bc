//! C++ multi-core kernels (`tests/cpp/multicore_*.cpp`) run by `ascendc run`: atomic sums with
//! per-order rounding, SyncAll (both forms), IBSet/IBWait handshakes, a MIX hand-over with
//! cross-core flags, deadlocks reported with the wait-for graph, races, and `--schedule` /
//! `--schedule-check`.

use std::path::Path;
use std::process::{Command, Output};

fn run(source: &str, opts: &[&str], args: &[&str]) -> (Output, String, String) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/cpp")
        .join(source);
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

const SCHEDULES: [&[&str]; 5] = [
    &[],
    &["--schedule", "order"],
    &["--schedule", "reverse"],
    &["--schedule", "shuffle:1"],
    &["--schedule", "shuffle:7"],
];

#[test]
fn atomic_sums_round_once_per_add_in_the_scheduled_order() {
    // fp32 partials 1e8, 1, 1, -1e8, 3, 1, 0.5, 7.25: in block order the 1s vanish into 1e8
    // (11.75); in reverse order the small ones are summed first and survive (8). fp16: 2048 then
    // four 1s (each a tie that rounds back to 2048) vs the 1s first (2052); 5 × 40000 saturates.
    for (schedule, f32_bits, f16_bits) in [("order", 11.75f32, 0x6800), ("reverse", 8.0, 0x6802)] {
        let (o, out, err) = run("multicore_atomic_sum.cpp", &["--schedule", schedule], &[]);
        assert!(o.status.success(), "{out}\n{err}");
        let line = format!(
            "f32 0x{:08x} f16 0x{f16_bits:04x} sat 0x7bff",
            f32_bits.to_bits()
        );
        assert_eq!(out.trim(), line, "{schedule}\n{err}");
        assert!(!err.contains("warning"), "{err}");
    }
}

#[test]
fn sync_all_hardware_and_software_forms_order_two_phases() {
    for form in ["hard", "soft"] {
        for s in SCHEDULES {
            let (o, out, err) = run("multicore_sync_all.cpp", s, &[form]);
            assert!(o.status.success(), "{form} {s:?}\n{out}\n{err}");
            assert_eq!(out.trim(), "PASS");
            assert!(!err.contains("warning"), "{form} {s:?}\n{err}");
        }
    }
}

#[test]
fn mix_kernel_hands_tiles_from_aic_to_aiv() {
    for s in SCHEDULES {
        let (o, out, err) = run("multicore_mix.cpp", s, &[]);
        assert!(o.status.success(), "{s:?}\n{out}\n{err}");
        assert_eq!(out.trim(), "PASS");
        assert!(!err.contains("warning"), "{s:?}\n{err}");
    }
}

#[test]
fn ib_handshakes_through_one_slot_consume_each_set_under_every_schedule() {
    for s in SCHEDULES {
        let (o, out, err) = run("multicore_ib_handshake.cpp", s, &[]);
        assert!(o.status.success(), "{s:?}\n{out}\n{err}");
        assert_eq!(out.trim(), "PASS", "{s:?}\n{err}");
        assert!(!err.contains("warning"), "{s:?}\n{err}");
    }
    let (o, out, err) = run(
        "multicore_ib_handshake.cpp",
        &["--schedule-check", "8"],
        &[],
    );
    assert!(o.status.success(), "{out}\n{err}");
    assert!(
        err.contains("8 schedules") && err.contains("give the same GM output"),
        "{err}"
    );
    assert_eq!(out.trim(), "PASS");
}

#[test]
fn deadlocks_fail_with_the_wait_for_graph_on_every_schedule() {
    let cases = [
        (
            "syncall",
            &[
                "deadlock",
                "multicore_deadlock.cpp:15",
                "not arrived: AIV_2 (block 2, finished)",
            ][..],
        ),
        (
            "ibwait",
            &[
                "deadlock",
                "multicore_deadlock.cpp:27",
                "IBSet(blockIdx 0, eventID 1)",
                "AIV_0 (block 0, finished)",
            ][..],
        ),
        (
            "crosscore",
            &[
                "deadlock",
                "multicore_deadlock.cpp:36",
                "CrossCoreSetFlag<mode 2>(flagId 5); not set by: AIC_0 (block 0, finished)",
            ][..],
        ),
    ];
    for (which, expect) in cases {
        for s in SCHEDULES {
            let (o, out, err) = run("multicore_deadlock.cpp", s, &[which]);
            assert_eq!(o.status.code(), Some(1), "{which} {s:?}\n{out}\n{err}");
            for e in expect {
                assert!(err.contains(e), "{which} {s:?}: {e}\n{err}");
            }
        }
    }
}

#[test]
fn plain_writes_race_and_atomic_adds_do_not() {
    let (o, out, err) = run("multicore_race.cpp", &[], &["plain"]);
    assert!(o.status.success(), "{out}\n{err}");
    assert!(
        err.contains("blocks 0 and 1 both write GM bytes 0..32")
            && err.contains("multicore_race.cpp:24"),
        "{err}"
    );
    let (o, out, err) = run("multicore_race.cpp", &[], &["atomic"]);
    assert!(o.status.success(), "{out}\n{err}");
    assert_eq!(out.trim(), "out[0] = 10");
    assert!(!err.contains("warning"), "{err}");
}

#[test]
fn schedule_check_flags_order_dependence_only() {
    let (o, out, err) = run("multicore_race.cpp", &["--schedule-check", "8"], &["plain"]);
    assert_eq!(o.status.code(), Some(1), "{out}\n{err}");
    assert!(
        err.contains("GM output differs between schedules")
            && err.contains("under schedule order vs")
            && err.contains("depends on the block schedule"),
        "{err}"
    );
    let (o, out, err) = run(
        "multicore_race.cpp",
        &["--schedule-check", "8"],
        &["atomic"],
    );
    assert!(o.status.success(), "{out}\n{err}");
    assert!(err.contains("8 schedules"), "{err}");
    assert!(err.contains("give the same GM output"), "{err}");
    assert_eq!(out.trim(), "out[0] = 10");
    // Float atomic sums that differ only by summation order are named as such, not failed.
    let (o, out, err) = run("multicore_atomic_sum.cpp", &["--schedule-check", "4"], &[]);
    assert!(o.status.success(), "{out}\n{err}");
    assert!(err.contains("differ by summation order"), "{err}");
}
