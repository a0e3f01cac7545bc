//! `int4b_t` through the C++ headers (`tests/cpp/int4_cast_mmad.cpp`, kernel and host in one
//! file, run by `ascendc run`): Cast half ↔ int4b_t as the vendor's Cast example calls it, tensor
//! handles of packed nibbles, and Mmad int4b_t × int4b_t → int32_t; the program checks its
//! results and prints `<case>: PASS`.

use std::path::Path;
use std::process::Command;

#[test]
fn int4_cast_tensors_and_mmad() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/cpp/int4_cast_mmad.cpp");
    let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .args(["run", "--product", "A2", path.to_str().unwrap()])
        .output()
        .expect("ascendc runs");
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{out}\n{err}");
    for case in [
        "half->int4b_t",
        "int4b_t->half",
        "int4b_t tensors",
        "Mmad int4b_t",
    ] {
        assert!(
            out.contains(&format!("{case}: PASS")),
            "{case}\n{out}\n{err}"
        );
    }
}

/// An int4b_t view that would start inside a byte (an odd offset) stops the block, naming the
/// rule and the C++ call site.
#[test]
fn odd_int4_offset_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("int4_add.cpp");
    std::fs::write(
        &src,
        r#"#include "kernel_operator.h"
#include "tikicpulib.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<int4b_t> a = ub.Alloc<int4b_t, 128>();
    LocalTensor<int4b_t> b = a[1];
}
int main() {
    uint8_t* x = (uint8_t*)GmAlloc(64);
    ICPU_RUN_KF(k, 1, (GM_ADDR)x);
    GmFree(x);
    return 0;
}
"#,
    )
    .unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .args(["run", "--product", "A2", src.to_str().unwrap()])
        .output()
        .expect("ascendc runs");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    for fragment in [
        "LocalTensor::operator[]",
        "offset = 1",
        "int4b_t",
        "int4_add.cpp:7",
    ] {
        assert!(err.contains(fragment), "`{fragment}` in\n{err}");
    }
}
