//! Broadcast through the C++ headers: `tests/cpp/adv/broadcast_apis.asc` spreads a float column
//! along axis 1 (with sharedTmpBuffer), a half row along axis 0 (stack buffer) and one int8
//! element to a 1-D tensor, checked on the host; GetBroadCastMaxMinTmpSize per product.

use std::path::Path;
use std::process::Command;

fn run(product: &str) -> String {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/cpp/adv/broadcast_apis.asc");
    let dir = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .current_dir(dir.path())
        .args(["run", "--product", product, src.to_str().unwrap()])
        .output()
        .expect("ascendc runs");
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "{product}\n{out}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

#[test]
fn broadcast_matches_the_host_on_a2_and_310p() {
    // A2: ⌈16/8⌉·8 blocks of 8 floats, and 8 of them; 310P: the whole result, and 8 · ⌈24/8⌉ floats.
    for (product, sizes) in [
        ("A2", "Broadcast tmp 512 256"),
        ("310P", "Broadcast tmp 1568 128"),
    ] {
        let out = run(product);
        for case in ["Broadcast.axis1", "Broadcast.axis0", "Broadcast.scalar"] {
            assert!(
                out.contains(&format!("{case} bad 0\n")),
                "{product}: {case}\n{out}"
            );
        }
        assert!(out.contains("total bad 0"), "{out}");
        assert!(out.contains(sizes), "{product}\n{out}");
    }
}
