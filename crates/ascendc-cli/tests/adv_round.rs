//! The rounding, sign and remainder APIs through the C++ headers: `tests/cpp/adv/round_apis.asc`
//! runs Floor, Ceil, Trunc, Round, Frac, Sign, Fmod, ClampMax/ClampMin, Axpy, CumSum and Xor in
//! their vendor overloads and checks each against host values; the host helpers' sizes too.

use std::path::Path;
use std::process::Command;

fn run(product: &str) -> String {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/cpp/adv/round_apis.asc");
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
fn every_api_matches_the_host_on_a2_and_310p() {
    for product in ["A2", "310P"] {
        let out = run(product);
        for api in [
            "Floor",
            "Ceil",
            "Trunc",
            "Round",
            "Frac",
            "Sign",
            "Fmod",
            "ClampMax",
            "ClampMin",
            "Floor<half>",
            "Fmod<half>",
            "Axpy<float,half>",
            "CumSum",
            "CumSum.lastRow",
            "Xor",
        ] {
            assert!(
                out.contains(&format!("\n{api} bad 0\n"))
                    || out.starts_with(&format!("{api} bad 0\n")),
                "{product}: {api}\n{out}"
            );
        }
        assert!(out.contains("total bad 0"), "{out}");
        assert!(out.contains("Ceil tmp 4000 512"), "{out}");
        assert!(out.contains("Fmod tmp 16000 2048"), "{out}");
        assert!(out.contains("Sign factor 3 0"), "{out}");
        assert!(out.contains("Clamp tmp 1000 64"), "{out}");
        assert!(out.contains("CumSum tmp 3072 1536"), "{out}");
    }
}
