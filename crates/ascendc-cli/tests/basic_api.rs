//! The C++ kernels of the basic-API families (`tests/cpp/basic_*.cpp`, `vec_select_copy.cpp`,
//! `nd2nz_c1.cpp`, kernel and host in one file) run by `ascendc run`; each prints `<case>: PASS`
//! per checked case.

use std::path::Path;
use std::process::Command;

/// Runs `tests/cpp/<file>` on `product` and checks that every case in `cases` passed.
fn run_cases(file: &str, product: &str, cases: &[&str]) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/cpp")
        .join(file);
    let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .args(["run", "--product", product, path.to_str().unwrap()])
        .output()
        .expect("ascendc runs");
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

/// Runs `tests/cpp/<file>` with `args` on A2 and checks that it printed `<case>: PASS` and no
/// warning.
fn run_case(file: &str, args: &[&str], case: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/cpp")
        .join(file);
    let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .args(["run", path.to_str().unwrap(), "--"])
        .args(args)
        .output()
        .expect("ascendc runs");
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{case}\n{out}\n{err}");
    assert!(
        out.contains(&format!("{case}: PASS")),
        "{case}\n{out}\n{err}"
    );
    assert!(!err.contains("warning"), "{case}\n{err}");
}

#[test]
fn select_with_a_scalar_src1() {
    run_case("vec_select_copy.cpp", &["select_scalar"], "select_scalar");
}

#[test]
fn copy_in_counter_mode_counts_elements_per_repeat() {
    run_case("vec_select_copy.cpp", &["copy_counter"], "copy_counter");
}

#[test]
fn strided_copy_with_disjoint_written_blocks_is_not_an_overlap() {
    run_case("vec_select_copy.cpp", &["copy_nd2nz"], "copy_nd2nz");
}

#[test]
fn nd2nz_data_copy_into_c1() {
    run_case("nd2nz_c1.cpp", &[], "nd2nz_c1");
}

#[test]
fn reduce_type_spellings_and_registers() {
    run_cases(
        "basic_reduce.cpp",
        "A2",
        &[
            "ReduceRepeat",
            "GetReduceRepeatMaxMinSpr",
            "ReduceDataBlock",
            "ReducePairElem",
            "GetReduceRepeatSumSpr",
        ],
    );
}

#[test]
fn gather_family() {
    run_cases(
        "basic_gather.cpp",
        "A2",
        &[
            "GatherMask builtin",
            "GatherMask tensor",
            "Gather",
            "Gatherb",
        ],
    );
}

#[test]
fn scalar_compute_and_tbuf_pool() {
    run_cases("basic_scalar_pool.cpp", "A2", &["scalar", "TBufPool+Copy"]);
}

/// samples/row_compact: GatherMask compacts unaligned rows, Brcb broadcasts the row maxima,
/// two TBufPools share UB between the phases; checked against `x - rowmax(x)`.
#[test]
fn row_compact_sample() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("input")).unwrap();
    std::fs::create_dir_all(dir.path().join("output")).unwrap();
    let x: Vec<f32> = (0..40)
        .map(|i| ((i * 37 % 23) as f32 - 11.0) * 0.75 + 0.125)
        .collect();
    std::fs::write(
        dir.path().join("input/x.bin"),
        x.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>(),
    )
    .unwrap();
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/row_compact");
    let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .current_dir(dir.path())
        .args([
            "run",
            sample.join("row_compact.cpp").to_str().unwrap(),
            sample.join("main.cpp").to_str().unwrap(),
        ])
        .output()
        .expect("ascendc runs");
    assert!(
        o.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let y: Vec<f32> = std::fs::read(dir.path().join("output/y.bin"))
        .unwrap()
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let want: Vec<f32> = x
        .chunks(5)
        .flat_map(|row| {
            let m = row.iter().copied().fold(f32::MIN, f32::max);
            row.iter().map(move |v| v - m).collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(y, want);
}
