//! `ascendc run --trace FILE --report` on a C++ kernel: the trace-event JSON of every launch and
//! the timing report on stderr.

#[path = "../../ascendc/tests/support/trace_json/mod.rs"]
mod trace_json;

use std::path::{Path, PathBuf};
use std::process::Command;

fn cpp(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/cpp")
        .join(name)
}

fn write_f32(path: &Path, v: &[f32]) {
    std::fs::write(
        path,
        v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>(),
    )
    .unwrap();
}

#[test]
fn run_writes_a_trace_per_launch_and_reports_timing() {
    let dir = tempfile::tempdir().unwrap();
    let n = 8 * 2048;
    let x: Vec<f32> = (0..n).map(|i| i as f32).collect();
    write_f32(&dir.path().join("x.bin"), &x);
    write_f32(&dir.path().join("y.bin"), &x);
    let trace = dir.path().join("add.json");
    let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .arg("run")
        .arg("--report")
        .arg("--trace")
        .arg(&trace)
        .arg(cpp("add_tiled.cpp"))
        .arg(cpp("add_tiled_main.cpp"))
        .arg("--")
        .arg(dir.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    // Two launches (add_tiled, add_tiled_gm): the report of each, and one trace each.
    assert_eq!(
        err.matches("timing estimate (Ascend910B model").count(),
        2,
        "{err}"
    );
    assert!(err.contains("pipe utilisation: MTE2 "), "{err}");
    assert!(err.contains("double buffering: MTE2 overlaps V"), "{err}");
    for file in ["add.json", "add.1.json"] {
        let text = std::fs::read_to_string(dir.path().join(file)).unwrap();
        let json = trace_json::Json::parse(&text).unwrap();
        let s = trace_json::validate(&json).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(s.processes, 8, "{file}");
        assert!(s.threads.contains(&(0, "MTE2".to_string())));
        // Source lines point into the C++ kernel.
        assert!(
            s.sources.iter().any(|l| l.contains("add_tiled.cpp:")),
            "{:?}",
            s.sources
        );
    }
}

#[test]
fn an_unwritable_trace_path_is_refused_before_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("no/such/dir/add.json");
    let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .arg("run")
        .arg("--trace")
        .arg(&trace)
        .arg(cpp("add_tiled.cpp"))
        .arg(cpp("add_tiled_main.cpp"))
        .arg("--")
        .arg(dir.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--trace: cannot write") && err.contains("no/such/dir/add.json"),
        "{err}"
    );
}
