//! The exponential, logarithm, power and error-function APIs through the C++ headers:
//! `tests/cpp/adv/exp_log_apis.asc` runs Exp (high-level and basic side by side), Log, Log2,
//! Log10, Erf, Erfc and Power (every form, float/half/int32) in their vendor overloads and checks
//! each against <cmath>; the host helpers' sizes too, Power's per product.

use std::path::Path;
use std::process::Command;

fn run(product: &str) -> String {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/cpp/adv/exp_log_apis.asc");
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
fn every_api_matches_cmath_on_a2_and_310p() {
    for (product, power_tmp, power_factor) in [
        ("A2", "Power tmp 20736 1536", "Power factor 6 0"),
        ("310P", "Power tmp 24832 1792", "Power factor 7 0"),
    ] {
        let out = run(product);
        for api in [
            "Exp",
            "Exp.basic",
            "Exp<half>",
            "Log",
            "Log2",
            "Log10",
            "Log2<half>",
            "Erf",
            "Erfc",
            "Erf<half>",
            "Power",
            "Power.scalarExp",
            "Power.scalarBase",
            "Power<half>",
            "Power<int32_t>",
        ] {
            assert!(
                out.starts_with(&format!("{api} bad 0\n"))
                    || out.contains(&format!("\n{api} bad 0\n")),
                "{product}: {api}\n{out}"
            );
        }
        assert!(out.contains("total bad 0"), "{out}");
        assert!(out.contains("Exp tmp 12288 768"), "{out}");
        assert!(out.contains("Erfc tmp 32768 4096"), "{out}");
        assert!(out.contains("Log2 factor 2 0"), "{out}");
        assert!(out.contains(power_tmp), "{product}: {out}");
        assert!(out.contains(power_factor), "{product}: {out}");
    }
}
