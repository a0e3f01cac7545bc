//! SoftmaxFlashV2 end to end: a single-source C++ kernel (tests/cpp/adv/softmax_flash.asc)
//! through `ascendc run` on A2 and 310P — rows walked in column chunks with isUpdate, on the
//! general, basic-block and half-with-float-stats paths, the host tiling from
//! SoftMaxFlashV2TilingFunc — checked in the program against float64.

use std::path::Path;
use std::process::Command;

#[test]
fn softmax_flash_v2_kernel_runs_on_a2_and_310p() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/cpp/adv/softmax_flash.asc");
    for product in ["A2", "310P"] {
        let dir = tempfile::tempdir().unwrap();
        let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
            .current_dir(dir.path())
            .args(["run", "--product", product])
            .arg(&src)
            .output()
            .unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{product}: {out}\n{err}");
        assert!(out.contains("softmax flash ok"), "{product}: {out}\n{err}");
        // The three tilings: 4 rows (general), 16 (basic block), 5 (half: passes and a tail).
        assert!(out.contains("splitM 4 16 5"), "{product}: {out}");
        assert!(out.contains("bad 0"), "{product}: {out}");
    }
}

/// SOFTMAX_OUTPUT_WITHOUT_BRC (tests/cpp/adv/softmax_flash_without_brc.asc): one max/sum value a
/// row and the outReduceMax overload on A2; refused on 310P, as the device asserts.
#[test]
fn softmax_flash_v2_without_brc_runs_on_a2() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/cpp/adv/softmax_flash_without_brc.asc");
    for product in ["A2", "310P"] {
        let dir = tempfile::tempdir().unwrap();
        let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
            .current_dir(dir.path())
            .args(["run", "--product", product])
            .arg(&src)
            .output()
            .unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        let err = String::from_utf8_lossy(&o.stderr);
        if product == "310P" {
            assert!(!o.status.success(), "{product}: {out}\n{err}");
            assert!(
                format!("{out}{err}").contains("SOFTMAX_OUTPUT_WITHOUT_BRC"),
                "{product}: {out}\n{err}"
            );
            continue;
        }
        assert!(o.status.success(), "{product}: {out}\n{err}");
        assert!(out.contains("softmax flash without brc ok"), "{out}\n{err}");
        assert!(out.contains("splitM 16"), "{out}");
        assert!(out.contains("bad 0"), "{out}");
    }
}

/// isDataFormatNZ (tests/cpp/adv/softmax_flash_nz.asc): half NZ data with float max/sum, two
/// column chunks (isUpdate on the second), passes of 16 rows and a tail, on A2 and 310P.
#[test]
fn softmax_flash_v2_nz_runs_on_a2_and_310p() {
    let src =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/cpp/adv/softmax_flash_nz.asc");
    for product in ["A2", "310P"] {
        let dir = tempfile::tempdir().unwrap();
        let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
            .current_dir(dir.path())
            .args(["run", "--product", product])
            .arg(&src)
            .output()
            .unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{product}: {out}\n{err}");
        assert!(
            out.contains("softmax flash nz ok"),
            "{product}: {out}\n{err}"
        );
        assert!(out.contains("bad 0"), "{product}: {out}");
    }
}
