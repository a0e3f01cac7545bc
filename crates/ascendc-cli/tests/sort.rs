//! The sorting family through the C++ headers: `tests/cpp/sort_topk.cpp` takes the top 32 of
//! 256 half scores (Sort32 + MrgSort on the pairs layout, ProposalConcat + RpSort16 + MrgSort4 +
//! ProposalExtract on the region-proposal layout), checked against a stable sort computed here.

use ascendc::f16;
use std::path::Path;
use std::process::Command;

const N: usize = 256;
const K: usize = 32;

/// Scores with many ties (values from a small set), as halves.
fn scores() -> Vec<f16> {
    (0..N)
        .map(|i| f16::from_f32(((i * 7919 + 13) % 61) as f32 * 0.5 - 12.0))
        .collect()
}

/// Positions by descending score, ties in input order.
fn stable_desc(s: &[f32]) -> Vec<usize> {
    let mut o: Vec<usize> = (0..s.len()).collect();
    o.sort_by(|&a, &b| s[b].partial_cmp(&s[a]).unwrap());
    o
}

/// Runs the kernel on `product`; returns (values, indices, counts).
fn run(product: &str, x: &[f16]) -> (Vec<f32>, Vec<u32>, Vec<u16>) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("input")).unwrap();
    std::fs::create_dir_all(dir.path().join("output")).unwrap();
    let bytes: Vec<u8> = x.iter().flat_map(|v| v.to_bits().to_le_bytes()).collect();
    std::fs::write(dir.path().join("input/x.bin"), bytes).unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/cpp/sort_topk.cpp");
    let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .current_dir(dir.path())
        .args(["run", "--product", product, src.to_str().unwrap()])
        .output()
        .expect("ascendc runs");
    assert!(
        o.status.success(),
        "{product}\n{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let read = |name: &str| std::fs::read(dir.path().join("output").join(name)).unwrap();
    let values = read("values.bin")
        .chunks_exact(2)
        .map(|c| f16::from_bits(u16::from_le_bytes([c[0], c[1]])).to_f32())
        .collect();
    let index = read("index.bin")
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let counts = read("counts.bin")
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    (values, index, counts)
}

/// The golden top-k: (values, indices).
fn golden(x: &[f16]) -> (Vec<f32>, Vec<u32>) {
    let s: Vec<f32> = x.iter().map(|v| v.to_f32()).collect();
    let o = stable_desc(&s);
    (
        o[..K].iter().map(|&i| s[i]).collect(),
        o[..K].iter().map(|&i| i as u32).collect(),
    )
}

#[test]
fn top_k_on_the_pairs_layout() {
    let x = scores();
    let (gv, gi) = golden(&x);
    for product in ["A2", "310B"] {
        let (v, i, c) = run(product, &x);
        assert_eq!(v, gv, "{product} values");
        assert_eq!(i, gi, "{product} indices");
        // The suspending merge of the two 128-pair halves: list 1 holds indices < 128, ties go
        // to it, so the merge walks the stable order and stops once either half is used up.
        let s: Vec<f32> = x.iter().map(|v| v.to_f32()).collect();
        let (mut a, mut b) = (0u16, 0u16);
        for &p in &stable_desc(&s) {
            if p < 128 {
                a += 1;
            } else {
                b += 1;
            }
            if a == 128 || b == 128 {
                break;
            }
        }
        let want = vec![a, b, 0, 0];
        assert_eq!(c, want, "{product} counts");
    }
}

#[test]
fn top_k_on_the_region_proposal_layout() {
    let x = scores();
    let (gv, gi) = golden(&x);
    for product in ["910", "310P"] {
        let (v, i, _) = run(product, &x);
        assert_eq!(v, gv, "{product} values");
        assert_eq!(i, gi, "{product} indices");
    }
}

/// `tests/cpp/sort_high_level.cpp`: the high-level Concat / Sort / Extract / MrgSort /
/// GetSortOffset / GetSortLen pages' examples on A2 (pairs) and 310P (region proposals).
#[test]
fn high_level_sort_api() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/cpp/sort_high_level.cpp");
    for product in ["A2", "310P"] {
        let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
            .args(["run", "--product", product, src.to_str().unwrap()])
            .output()
            .expect("ascendc runs");
        let out = String::from_utf8_lossy(&o.stdout);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{product}\n{out}\n{err}");
        for case in ["Sort full", "MrgSort", "GetSortOffset/GetSortLen"] {
            assert!(
                out.contains(&format!("{case}: PASS")),
                "{product} {case}\n{out}"
            );
        }
    }
}
