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
