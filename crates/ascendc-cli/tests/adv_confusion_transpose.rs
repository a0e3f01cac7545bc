//! Transpose (ConfusionTranspose) through the C++ headers: `tests/cpp/adv/confusion_transpose.asc`
//! runs scenes 1–7 (the page's example among them) with the host tiling from
//! `GetTransposeTilingInfo` and the older helper names, on the stack buffer and on a
//! sharedTmpBuffer; every valid element of each destination is checked here against the
//! documented layouts on A2 and 310P, and the host helpers' refusal of scene 13.

use std::path::Path;
use std::process::Command;

fn up(x: usize) -> usize {
    x.div_ceil(16) * 16
}

/// The bit pattern the kernel's host puts at source element `i`.
fn tag(i: usize, size: usize) -> u32 {
    if size == 2 {
        ((i as u32) + 1) & 0x7bff
    } else {
        i as u32 + 0x3f00_0001
    }
}

fn read(path: &Path, size: usize) -> Vec<u32> {
    let bytes = std::fs::read(path).unwrap();
    bytes
        .chunks_exact(size)
        .map(|c| {
            if size == 2 {
                u16::from_le_bytes([c[0], c[1]]) as u32
            } else {
                u32::from_le_bytes(c.try_into().unwrap())
            }
        })
        .collect()
}

/// (source offset, destination offset) of every valid element of scene 1–6 for [B, N, S, D].
fn pairs(scene: u32, b: usize, n: usize, s: usize, d: usize) -> Vec<(usize, usize)> {
    let (sp, dp, hp) = (up(s), up(d), up(n * d));
    // [B, N, S, D] in NZ [B, N, D'/16, S'/16, 16, 16].
    let nz_bnsd = |bb: usize, nn: usize, ss: usize, dd: usize| {
        bb * n * sp * dp + nn * sp * dp + (dd / 16) * sp * 16 + ss * 16 + dd % 16
    };
    // [B, S, H] in NZ [B, H'/16, S'/16, 16, 16].
    let nz_bsh =
        |bb: usize, ss: usize, h: usize| bb * hp * sp + (h / 16) * sp * 16 + ss * 16 + h % 16;
    let mut v = Vec::new();
    for bb in 0..b {
        for nn in 0..n {
            for ss in 0..s {
                for dd in 0..d {
                    let h = nn * d + dd;
                    v.push(match scene {
                        // ND [B, S', N, D'].
                        1 => (
                            nz_bnsd(bb, nn, ss, dd),
                            bb * sp * n * dp + ss * n * dp + nn * dp + dd,
                        ),
                        // Per (b, s) the [N, D'] matrix in fractal columns of N rows.
                        2 => (
                            nz_bnsd(bb, nn, ss, dd),
                            bb * sp * n * dp + ss * n * dp + (dd / 16) * n * 16 + nn * 16 + dd % 16,
                        ),
                        3 => (nz_bsh(bb, ss, h), nz_bnsd(bb, nn, ss, dd)),
                        // ND [B, N, S', D'].
                        4 => (
                            nz_bsh(bb, ss, h),
                            bb * n * sp * dp + nn * sp * dp + ss * dp + dd,
                        ),
                        // ND [B, S', H'].
                        5 => (nz_bnsd(bb, nn, ss, dd), bb * sp * hp + ss * hp + h),
                        _ => (nz_bnsd(bb, nn, ss, dd), nz_bsh(bb, ss, h)),
                    });
                }
            }
        }
    }
    v
}

#[test]
fn confusion_transpose_through_cpp() {
    for product in ["A2", "310P"] {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("output")).unwrap();
        let src = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/cpp/adv/confusion_transpose.asc");
        let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
            .current_dir(dir.path())
            .args(["run", "--product", product, src.to_str().unwrap()])
            .output()
            .expect("ascendc runs");
        let stdout = String::from_utf8_lossy(&o.stdout);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{product}\n{stdout}\n{stderr}");
        // The page's example: min one half fractal, max a column of 4.
        assert!(
            stdout.contains("scene 1 tmp 2048 512 newPopSize 256"),
            "{stdout}"
        );
        assert!(stdout.contains("scene 5 tmp 1024 1024"), "{stdout}");
        assert!(stdout.contains("scene 7 repeat 6 stride 32"), "{stdout}");
        assert!(stdout.contains("scene 13 tmp 0 0"), "{stdout}");
        assert!(
            stderr.contains("scene 13") && stderr.contains("950"),
            "{stderr}"
        );
        let out = dir.path().join("output");
        // (scene, element size, [B, N, S, D]).
        for (scene, size, [b, n, s, d]) in [
            (1u32, 2usize, [1usize, 2, 64, 32]),
            (2, 4, [2, 2, 32, 20]),
            (3, 2, [2, 3, 32, 20]),
            (4, 4, [1, 4, 24, 8]),
            (5, 2, [2, 3, 32, 20]),
            (6, 4, [1, 3, 16, 48]),
        ] {
            let got = read(&out.join(format!("s{scene}.bin")), size);
            for (i, o) in pairs(scene, b, n, s, d) {
                assert_eq!(
                    got[o],
                    tag(i, size),
                    "{product} scene {scene}: dst[{o}] should be src[{i}]"
                );
            }
        }
        let got = read(&out.join("s7.bin"), 4);
        for r in 0..32 {
            for c in 0..48 {
                assert_eq!(
                    got[c * 32 + r],
                    tag(r * 48 + c, 4),
                    "{product} scene 7 ({r}, {c})"
                );
            }
        }
    }
}
