//! AscendDequant and AscendAntiQuant through the C++ headers: `tests/cpp/adv/dequant_apis.asc`
//! runs the page examples, the scalar, whole-tensor and uint64 forms of AscendDequant and the
//! per-channel, per-tensor and scale-only forms of AscendAntiQuant, checked against host values;
//! the host helpers' sizes too.

use std::path::Path;
use std::process::Command;

fn run(product: &str) -> String {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/cpp/adv/dequant_apis.asc");
    let dir = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .current_dir(dir.path())
        .args(["run", "--product", product, src.to_str().unwrap()])
        .output()
        .expect("ascendc runs");
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "{product}\n{out}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

#[test]
fn every_form_matches_the_host_on_a2_and_310p() {
    for product in ["A2", "310P"] {
        let out = run(product);
        for case in [
            "AscendDequant.page",
            "AscendDequant.scalar",
            "AscendDequant.whole",
            "AscendDequant.uint64",
            "AscendAntiQuant.page",
            "AscendAntiQuant.tensor",
            "AscendAntiQuant.scale",
        ] {
            assert!(
                out.contains(&format!("{case} bad 0\n")),
                "{product}: {case}\n{out}"
            );
        }
        assert!(out.contains("total bad 0"), "{out}");
        assert!(
            out.contains("Dequant tmp 12576 8480 factor 1 1096"),
            "{out}"
        );
        assert!(
            out.contains("AntiQuant tmp 3072 3072 factor 0 3072 half 0"),
            "{out}"
        );
    }
}
