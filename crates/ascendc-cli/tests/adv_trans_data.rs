//! TransData and Layout through the C++ headers: `tests/cpp/adv/trans_data.asc` runs the four
//! conversions of an NCDHW (18, 17, 2, 2, 3) tensor in every 16-bit type, with a sharedTmpBuffer
//! of GetTransDataMaxMinTmpSize bytes and (half) the framework-allocated form, and checks each
//! element on the host against the documented layouts; here the Layout accessors, the host
//! helper's sizes (from the page's rules) and the refusal on 310P.

use std::path::Path;
use std::process::Command;

fn run(product: &str) -> (bool, String, String) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/cpp/adv/trans_data.asc");
    let dir = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .current_dir(dir.path())
        .args(["run", "--product", product, src.to_str().unwrap()])
        .output()
        .expect("ascendc runs");
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Bytes of temporary space for NCDHW (n, c, d, h, w), by the page's rules (2-byte elements).
fn rule(scene: usize, [n, c, d, h, w]: [u32; 5]) -> u32 {
    let (c1, n1, p) = (c.div_ceil(16), n.div_ceil(16), (h * w).div_ceil(16) * 16);
    match scene {
        0 => 2 * (d * p + d * c1 * 16 * p),
        1 => 2 * d * c1 * 16 * p + 512,
        2 => 2 * (c * d * p).max(d * h * w * n1 * 16) + 2 * n1 * 16 * d * c1 * 16 * p,
        _ => {
            let one = 2 * n1 * 16 * c1 * 16 * d * p;
            if n.is_multiple_of(16) && c.is_multiple_of(16) {
                one
            } else {
                2 * one
            }
        }
    }
}

#[test]
fn trans_data_through_cpp_on_a2_and_a3() {
    for product in ["A2", "A3"] {
        let (ok, out, err) = run(product);
        assert!(ok, "{product}\n{out}\n{err}");
        // Layout (10, 20, 30) : (1, 100, 200): GetShape, GetStride, GetShape<0, 2>, the offsets
        // of (1, 2, 3) and of linear 25 = (5, 2, 0), is_layout.
        assert!(
            out.contains("layout 10 20 30 | 1 100 200 | 10 30 | 801 205 | 1 0 0"),
            "{out}"
        );
        let names = [
            "NCDHW->NDC1HWC0",
            "NDC1HWC0->NCDHW",
            "NCDHW->FRACTAL_Z_3D",
            "FRACTAL_Z_3D->NCDHW",
        ];
        for (s, name) in names.iter().enumerate() {
            let b = rule(s, [18, 17, 2, 2, 3]);
            assert!(out.contains(&format!("tmp {name} 1 {b} {b}\n")), "{out}");
            for ty in ["half", "bfloat16_t", "int16_t", "uint16_t"] {
                assert!(
                    out.contains(&format!("{name} {ty} shared bad 0\n")),
                    "{name} {ty}\n{out}"
                );
            }
            assert!(out.contains(&format!("{name} half stack bad 0\n")), "{out}");
        }
        assert!(out.contains("float 0"), "{out}");
        assert!(
            err.contains("DT_FLOAT16/DT_BF16/DT_UINT16/DT_INT16"),
            "{err}"
        );
        assert!(out.contains("total bad 0"), "{out}");
    }
}

#[test]
fn trans_data_refused_on_310p() {
    let (ok, out, err) = run("310P");
    assert!(!ok, "{out}");
    assert!(out.contains("tmp NCDHW->NDC1HWC0 0"), "{out}");
    let all = format!("{out}{err}");
    assert!(all.contains("TransData is not available on"), "{all}");
}
