//! The vendor headers' long tail of names, types and overloads, through `ascendc run` as a user
//! runs a kernel: `tests/cpp/compat_*.cpp` print `<case>: PASS` per checked case.

use std::path::Path;
use std::process::{Command, Output};

fn run(file: &str, extra: &[&str]) -> Output {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/cpp")
        .join(file);
    Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .arg("run")
        .args(extra)
        .arg(path)
        .output()
        .expect("ascendc runs")
}

fn assert_cases(o: &Output, cases: &[&str]) {
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{out}\n{err}");
    for case in cases {
        assert!(
            out.contains(&format!("{case}: PASS")),
            "{case}\n{out}\n{err}"
        );
    }
}

#[test]
fn names_types_and_overloads() {
    let o = run("compat_names.cpp", &[]);
    assert_cases(
        &o,
        &[
            "block_idx/block_num/tik2",
            "bool/TBuf queue methods/in-place AllocTensor",
            "tensor operators",
            "Coord/MakeCoord/Crd2Idx",
        ],
    );
    // KERNEL_LOG writes one line per block to stderr with the level, file and line.
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("[INFO] ") && err.contains("compat_names.cpp:"),
        "{err}"
    );
    for b in 0..3 {
        assert!(
            err.contains(&format!("[block {b}] block {b} of 3")),
            "{err}"
        );
    }
}

#[test]
fn asserts_compile_to_nothing_in_the_device_branch() {
    let o = run("compat_assert.cpp", &["--run-mode", "npu"]);
    assert_cases(&o, &["asserts compiled out"]);
    // The CPU-debug branch checks them: the block fails on the first, with its message and line.
    let o = run("compat_assert.cpp", &[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{err}");
    assert!(
        err.contains("assertion `AscendC::GetBlockNum() == 0` failed: block count 1")
            && err.contains("compat_assert.cpp:12"),
        "{err}"
    );
}

#[test]
fn tiling_data_in_template_kernels() {
    let o = run("compat_tiling.cpp", &[]);
    assert_cases(&o, &["GET_TILING_DATA in template kernels"]);
}

#[test]
fn asc_dump_prints_gm_ub_and_l1_buffers() {
    let o = run("compat_dump.cpp", &[]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    for (header, values) in [
        (
            "desc=1, addr=0x0, data_type=float16, position=GM, dump_size=4",
            "[0.500000, 1.500000, 2.500000, 3.500000]",
        ),
        (
            "desc=2, addr=0x8, data_type=float16, position=UB, dump_size=3",
            "[4.500000, 5.500000, 6.500000]",
        ),
        (
            "desc=3, addr=0x0, data_type=float16, position=L1, dump_size=2",
            "[0.500000, 1.500000]",
        ),
    ] {
        assert!(out.contains(header), "{header}\n{out}");
        assert!(out.contains(values), "{values}\n{out}");
    }
}

#[test]
fn a_failed_standard_assert_fails_its_block_instead_of_aborting() {
    for mode in ["npu", "cpu"] {
        let o = run("compat_std_assert.asc", &["--run-mode", mode]);
        let out = String::from_utf8_lossy(&o.stdout);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{mode}\n{out}\n{err}");
        assert!(out.contains("first launch: 10 11 12 13"), "{out}");
        assert!(!out.contains("second launch returned"), "{out}");
        assert!(
            err.contains("kernel failed in 2 of 4 block(s)")
                && err
                    .contains("block 2 (AIV_2): assert: assertion `AscendC::GetBlockIdx() < limit")
                && err.contains("block 3 (AIV_3)")
                && err.contains("compat_std_assert.asc:12"),
            "{mode}\n{err}"
        );
        assert!(
            out.contains("[ASSERT]") || err.contains("[ASSERT]"),
            "{out}\n{err}"
        );
    }
}
