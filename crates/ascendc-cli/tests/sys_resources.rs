//! `tests/cpp/sys_resources.cpp` through `ascendc run`: the scalar GM bypass, CTRL register,
//! saturation modes, store-atomic configuration, SPM buffer, PopStackBuffer, TQueConfig and
//! TBufPool::Reset from C++, with the pages' examples; and the errors of three mistakes, which
//! name the C++ lines.

use std::path::Path;
use std::process::{Command, Output};

fn run(product: &str, mode: &str) -> (Output, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/cpp/sys_resources.cpp");
    let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .current_dir(dir.path())
        .args([
            "run",
            "--product",
            product,
            src.to_str().unwrap(),
            "--",
            mode,
        ])
        .output()
        .expect("ascendc runs");
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    (o, out, err)
}

#[test]
fn every_case_passes_on_a2() {
    let (o, out, err) = run("A2", "0");
    assert!(o.status.success(), "{out}\n{err}");
    for case in [
        "CtrlSpr",
        "SaturationFlag CAST",
        "StoreAtomicConfig",
        "SpmBuffer",
        "TQueConfig",
        "TBufPool Reset",
        "PopStackBuffer",
        "GmByPassDCache",
    ] {
        assert!(
            out.contains(&format!("{case}: PASS")),
            "{case}\n{out}\n{err}"
        );
    }
    // The polling read of the handshake is not ordered by any cross-core synchronisation.
    assert!(err.contains("block 0 writes and block 1 reads"), "{err}");
}

#[test]
fn spm_buffer_in_l1_on_310p() {
    let (o, out, err) = run("310P", "10");
    assert!(o.status.success(), "{out}\n{err}");
    assert!(out.contains("SpmBuffer L1: PASS"), "{out}\n{err}");
}

#[test]
fn mistakes_fail_with_their_lines() {
    for (mode, fragments) in [
        (
            "1",
            &[
                "Duplicate: tensor `dst` lies in a buffer of a TBufPool that was Reset at",
                "sys_resources.cpp:180",
                "sys_resources.cpp:182",
            ][..],
        ),
        (
            "2",
            &[
                "SetCtrlSpr: CTRL[48:47] includes bit 47",
                "supports only CTRL[48]",
                "sys_resources.cpp:197",
            ][..],
        ),
        (
            "3",
            &[
                "ReadGmByPassDCache: T = float is not supported",
                "sys_resources.cpp:202",
            ][..],
        ),
    ] {
        let (o, out, err) = run("A2", mode);
        assert!(!o.status.success(), "mode {mode}\n{out}\n{err}");
        for f in fragments {
            assert!(err.contains(f), "mode {mode}: `{f}`\n{err}");
        }
    }
}
