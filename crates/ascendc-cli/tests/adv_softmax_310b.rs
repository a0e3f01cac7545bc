//! The SoftMax family on Atlas 200I/500 A2 end to end: a single-source C++ kernel
//! (tests/cpp/adv/softmax_310b.cpp: SoftMax float/half, SimpleSoftMax, SoftmaxFlashV2 with
//! update, SoftmaxGrad, SoftmaxGradFront, host tilings through TILING_DATA_FIELD_DEF_STRUCT)
//! through `ascendc run --product 310B`, and LogSoftMax refused there.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn run_310b(file: &Path, dir: &Path) -> (bool, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .args(["run", "--product", "310B"])
        .arg(file)
        .current_dir(dir)
        .output()
        .unwrap();
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn softmax_family_on_310b() {
    let dir = tempfile::tempdir().unwrap();
    let (ok, out, err) = run_310b(&repo().join("tests/cpp/adv/softmax_310b.cpp"), dir.path());
    assert!(ok, "{out}\n{err}");
    assert!(out.contains("softmax 310B ok"), "{out}\n{err}");
    assert!(out.contains("bad 0"), "{out}\n{err}");
    assert!(!err.contains("warning"), "{err}");
}

#[test]
fn log_softmax_is_refused_on_310b() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("log_softmax.cpp");
    std::fs::write(
        &file,
        r#"#include "tikicpulib.h"
#include "kernel_operator.h"
#include "tiling/tiling_api.h"

__global__ __vector__ void log_kernel(GM_ADDR x) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 16384);
    AscendC::LocalTensor<float> src = buf.Get<float>(64);
    AscendC::LocalTensor<float> st = buf.GetWithOffset<float>(8, 256);
    AscendC::LocalTensor<uint8_t> tmp = buf.GetWithOffset<uint8_t>(4096, 512);
    LogSoftMaxTiling t;
    AscendC::SoftMaxShapeInfo shape = {1, 64, 1, 64};
    AscendC::LogSoftMax<float>(src, st, st, src, tmp, t, shape);
}

int main() {
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(256);
    ICPU_RUN_KF(log_kernel, 1, x);
    return 0;
}
"#,
    )
    .unwrap();
    let (ok, out, err) = run_310b(&file, dir.path());
    assert!(!ok, "{out}\n{err}");
    assert!(
        err.contains("LogSoftMax is not available on Ascend310B"),
        "{out}\n{err}"
    );
}
