//! Products by the names users give them — a SoC (`Ascend910B3`, `Ascend310P1`, …), an NPU
//! architecture (`dav-2002`) or a series — through `ascendc run --product`, `$ASCENDC_PRODUCT`
//! and `ascendc cxx --product / --npu-arch`, with the core counts host code (PlatformAscendC) and
//! kernels (a launch on every core, SyncAll's residency rule) see: `tests/cpp/soc_cores.asc`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn soc_cores() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/cpp/soc_cores.asc")
}

fn ascendc(args: &[&str], product_env: Option<&str>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ascendc"));
    cmd.args(args).env_remove("ASCENDC_PRODUCT");
    if let Some(p) = product_env {
        cmd.env("ASCENDC_PRODUCT", p);
    }
    cmd.output().expect("ascendc runs")
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Runs soc_cores.asc with `args` and checks the platform line and the launch on every core.
fn check(args: &[&str], product_env: Option<&str>, platform: &str, blocks: u32) {
    let path = soc_cores();
    let mut all = vec!["run"];
    all.extend(args);
    all.push(path.to_str().unwrap());
    let o = ascendc(&all, product_env);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{args:?}\n{out}\n{err}");
    assert!(
        out.contains(&format!("platform: {platform}\n")),
        "{args:?}\n{out}"
    );
    assert!(
        out.contains(&format!("blocks {blocks} on every core: PASS")),
        "{args:?}\n{out}"
    );
}

#[test]
fn socs_report_their_own_core_counts() {
    let a2_20 = "aic 20 aiv 40 vector 0 ub 196608 soc ASCEND910B";
    check(&["--product", "Ascend910B3"], None, a2_20, 40);
    check(
        &["--product", "ascend910b1"],
        None,
        "aic 24 aiv 48 vector 0 ub 196608 soc ASCEND910B",
        48,
    );
    check(
        &["--product", "Ascend310P1", "--run-mode", "npu"],
        None,
        "aic 10 aiv 10 vector 8 ub 262144 soc ASCEND310P",
        10,
    );
    // An NPU architecture names its series; the series keeps its counts.
    check(
        &["--product", "dav-2002"],
        None,
        "aic 8 aiv 8 vector 7 ub 262144 soc ASCEND310P",
        8,
    );
    // $ASCENDC_PRODUCT takes the same names.
    check(&[], Some("Ascend910B4-1"), a2_20, 40);
}

#[test]
fn a_launch_beyond_the_socs_cores_is_refused() {
    let path = soc_cores();
    let o = ascendc(
        &[
            "run",
            "--product",
            "Ascend910B3",
            "--cxxflag=-DEXTRA=1",
            path.to_str().unwrap(),
        ],
        None,
    );
    let (out, err) = text(&o);
    assert!(!o.status.success(), "{out}\n{err}");
    assert!(
        err.contains("blockDim 41 exceeds the 40 vector cores (AIV)"),
        "{out}\n{err}"
    );
}

#[test]
fn unknown_products_list_the_accepted_names() {
    let path = soc_cores();
    let o = ascendc(
        &["run", "--product", "Ascend910Z", path.to_str().unwrap()],
        None,
    );
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with("error: unknown product Ascend910Z; accepted: series 910, 310P, A2"),
        "{err}"
    );
    for name in [
        "Ascend910B3",
        "Ascend910_9391",
        "Ascend310P3",
        "Ascend310B4",
        "dav-2201",
    ] {
        assert!(err.contains(name), "{name}: {err}");
    }
    let o = ascendc(&["flags", "--product", "dav-3510"], None);
    let (_, err) = text(&o);
    assert!(
        err.starts_with("error: Ascend 950 (dav-3510) is not simulated; accepted: "),
        "{err}"
    );
}

#[test]
fn a_program_built_by_ascendc_cxx_simulates_its_product() {
    let dir = tempfile::tempdir().unwrap();
    let src = soc_cores();
    let build = |args: &[&str], exe: &str| {
        let out = dir.path().join(exe);
        let mut all = vec!["cxx"];
        all.extend(args);
        all.extend([src.to_str().unwrap(), "-o", out.to_str().unwrap()]);
        let o = ascendc(&all, None);
        assert!(o.status.success(), "{args:?}\n{}", text(&o).1);
        out
    };
    let run = |exe: &Path, env: Option<&str>| {
        let mut cmd = Command::new(exe);
        cmd.env_remove("ASCENDC_PRODUCT");
        if let Some(p) = env {
            cmd.env("ASCENDC_PRODUCT", p);
        }
        let o = cmd.output().unwrap();
        assert!(o.status.success(), "{:?}", text(&o));
        text(&o)
    };
    // The vendor compiler's --npu-arch selects the series; the program runs it without any
    // environment.
    let p310 = build(&["--npu-arch=dav-2002", "--run-mode=npu"], "p310");
    let (out, _) = run(&p310, None);
    assert!(
        out.contains("platform: aic 8 aiv 8 vector 7 ub 262144 soc ASCEND310P"),
        "{out}"
    );
    // A SoC of the same architecture is checked against --npu-arch and kept.
    let b3 = build(
        &["--product", "Ascend910B3", "--npu-arch", "dav-c220-vec"],
        "b3",
    );
    let (out, err) = run(&b3, None);
    assert!(out.contains("platform: aic 20 aiv 40 vector 0"), "{out}");
    assert!(out.contains("blocks 40 on every core: PASS"), "{out}");
    assert!(err.is_empty(), "{err}");
    // $ASCENDC_PRODUCT still wins, with a warning naming both.
    let (out, err) = run(&b3, Some("Ascend910B1"));
    assert!(out.contains("platform: aic 24 aiv 48 vector 0"), "{out}");
    assert!(
        err.contains("ASCENDC_PRODUCT=Ascend910B1 overrides the product the program was built for: simulating Ascend910B1 (its product macros are Ascend910B3's)"),
        "{err}"
    );
    // A product of another architecture than --npu-arch is refused.
    let o = ascendc(
        &[
            "cxx",
            "--product=Ascend310P3",
            "--npu-arch=dav-2201",
            "-c",
            src.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(
        text(&o).1.trim(),
        "error: --npu-arch=dav-2201 is NPU architecture 2201, but the product is Ascend310P3 (architecture 2002)"
    );
}

/// Host code that names its SoC (`GetInstance(customSocVersion)`, the form for hosts without an
/// NPU) and prints the core count the platform answers with.
fn run_named_soc(name: &str, product: &str) -> Output {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("named_soc.cpp");
    std::fs::write(
        &src,
        format!(
            "#include <cstdio>\n#include \"tiling/platform/platform_ascendc.h\"\n\
             int main() {{\n\
             auto* p = platform_ascendc::PlatformAscendCManager::GetInstance(\"{name}\");\n\
             std::printf(\"aiv %u\\n\", p->GetCoreNumAiv());\n  return 0;\n}}\n"
        ),
    )
    .unwrap();
    ascendc(&["run", "--product", product, src.to_str().unwrap()], None)
}

#[test]
fn get_instance_with_a_soc_name_answers_for_the_simulated_product() {
    let o = run_named_soc("Ascend910B1", "Ascend910B3");
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert!(out.contains("aiv 40\n"), "{out}");

    let o = run_named_soc("Ascend950PR_9589", "A2");
    let (out, err) = text(&o);
    assert!(!o.status.success(), "{out}\n{err}");
    assert!(
        err.contains("GetInstance(\"Ascend950PR_9589\"): no modelled SoC of that name"),
        "{err}"
    );

    let o = run_named_soc("Ascend310P1", "A2");
    let (out, err) = text(&o);
    assert!(!o.status.success(), "{out}\n{err}");
    assert!(
        err.contains("names a Ascend310P SoC, but the simulated product is Ascend910B"),
        "{err}"
    );
}
