//! Pad, UnPad, Select (byte mask) and DropOut through the C++ headers and host tiling helpers:
//! `tests/cpp/adv/xform_filter.asc` on A2 and 310P, its outputs checked against the definitions.

use ascendc::f16;
use std::path::Path;
use std::process::Command;

/// Runs the kernel on `product`; returns the output directory.
fn run(product: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("output")).unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/cpp/adv/xform_filter.asc");
    let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .current_dir(dir.path())
        .args(["run", "--product", product, src.to_str().unwrap()])
        .output()
        .expect("ascendc runs");
    assert!(
        o.status.success() && String::from_utf8_lossy(&o.stdout).contains("xform done"),
        "{product}\n{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    dir
}

fn halves(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(2)
        .map(|c| f16::from_bits(u16::from_le_bytes([c[0], c[1]])).to_f32())
        .collect()
}

fn floats(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

#[test]
fn pad_unpad_select_dropout_through_cpp() {
    for product in ["A2", "310P"] {
        let dir = run(product);
        let read = |n: &str| std::fs::read(dir.path().join("output").join(n)).unwrap();
        let pad = halves(&read("pad.bin"));
        for (i, v) in pad.iter().enumerate() {
            let (r, c) = (i / 16, i % 16);
            let want = if c == 15 { 321.0 } else { (r * 15 + c) as f32 };
            assert_eq!(*v, want, "{product} pad {i}");
        }
        let unpad = floats(&read("unpad.bin"));
        for (i, v) in unpad.iter().enumerate() {
            let (r, c) = (i / 15, i % 15);
            assert_eq!(*v, (r * 16 + c) as f32 * 0.5, "{product} unpad {i}");
        }
        let sel = floats(&read("select.bin"));
        for (i, v) in sel.iter().enumerate() {
            let (r, c) = (i / 64, i % 64);
            let m = r * 96 + c;
            let want = if (m * 7 + 3) % 3 == 0 {
                5.0
            } else {
                (i % 97) as f32 - 40.0
            };
            assert_eq!(*v, want, "{product} select {i}");
        }
        let drop = halves(&read("dropout.bin"));
        for (i, v) in drop.iter().enumerate() {
            let x = ((i % 53) as f32 - 20.0) * 0.25;
            let want = if i % 3 != 0 { x * 2.0 } else { 0.0 };
            assert_eq!(*v, want, "{product} dropout {i}");
        }
    }
}
