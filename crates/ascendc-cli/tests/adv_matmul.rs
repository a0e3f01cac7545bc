//! The kernel-side Matmul through the C++ headers as operator code uses it, with the host tiling
//! from MultiCoreMatmulTiling: `tests/cpp/adv/matmul_cube.asc` (cube-only kernels on 15–20 cube
//! cores: IterateAll, a transposed B, Iterate + GetTensorC; tails in M, N and K, a bias) and
//! `tests/cpp/adv/matmul_mix.asc` (mixed kernels without a qualifier: 40 vector cores driving
//! the cube cores with IterateAll; 4 vector cores taking each block into UB, scaling it and
//! copying it out; vector cores copying their rows of A into TSCM for a Matmul that reads A from
//! L1). Each program checks every element bit for bit against the documented
//! accumulation order and prints "<case> bad <n>".

use std::path::Path;
use std::process::Command;

fn run(file: &str) -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/cpp/adv");
    let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .current_dir(&dir)
        .args(["run", "--product", "A2", file])
        .output()
        .expect("ascendc runs");
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "{file}: {}\n{out}",
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

fn check(out: &str, cases: &[&str]) {
    for case in cases {
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("{case} ")))
            .unwrap_or_else(|| panic!("no line for {case}:\n{out}"));
        assert!(line.starts_with(&format!("{case} bad 0 ")), "{line}");
    }
}

#[test]
fn cube_only_kernels_are_bit_exact() {
    check(&run("matmul_cube.asc"), &["all", "trans_b", "by_block"]);
}

#[test]
fn mixed_kernels_drive_the_cube_cores_from_the_vector_cores() {
    check(
        &run("matmul_mix.asc"),
        &["mix_all", "mix_fused", "mix_tscm"],
    );
}
