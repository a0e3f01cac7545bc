//! BatchNorm through the C++ headers: `tests/cpp/adv/batchnorm_apis.cpp` runs the page's example
//! (float, sharedTmpBuffer) and a half case in two passes on the stack buffer (inputs
//! `((37·i) mod 101) / 10 − 5`, gamm = beta = `0.5 + 0.25·b`), checked here against the page's
//! numbers and float64 on A2 and 310P.

use ascendc::f16;
use std::path::Path;
use std::process::Command;

fn read(dir: &Path, name: &str, size: usize) -> Vec<f64> {
    let bytes = std::fs::read(dir.join(name)).unwrap();
    match size {
        4 => bytes
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()) as f64)
            .collect(),
        _ => bytes
            .chunks_exact(2)
            .map(|c| f16::from_bits(u16::from_le_bytes([c[0], c[1]])).to_f64())
            .collect(),
    }
}

#[test]
fn batch_norm_through_cpp() {
    for product in ["A2", "310P"] {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("output")).unwrap();
        let src =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/cpp/adv/batchnorm_apis.cpp");
        let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
            .current_dir(dir.path())
            .args(["run", "--product", product, src.to_str().unwrap()])
            .output()
            .expect("ascendc runs");
        let stdout = String::from_utf8_lossy(&o.stdout);
        assert!(
            o.status.success(),
            "{product}\n{stdout}\n{}",
            String::from_utf8_lossy(&o.stderr)
        );
        // min = 3·8·32 + 2·32; one pass of 8 columns. Half: 32 columns then a tail of 16; the
        // basic block refuses B = 4.
        assert!(
            stdout.contains("float tmp 1 832 832 tiling 1 sh 8 loops 1"),
            "{stdout}"
        );
        assert!(
            stdout.contains("half tiling 1 sh 32 loops 1 tail 64"),
            "{stdout}"
        );
        assert!(stdout.contains("basic block 0"), "{stdout}");
        let out = dir.path().join("output");

        let page = [
            0.0,
            -0.091073155,
            0.6907122,
            2.345356,
            4.8728585,
            8.27322,
            12.546439,
            17.692516,
        ];
        let o = read(&out, "out_f.bin", 4);
        for (i, w) in page.iter().enumerate() {
            for k in 0..8 {
                let g = o[i * 8 + k];
                assert!(
                    (g - w).abs() <= 1e-6 * w.abs().max(1.0),
                    "{product} row {i}: {g} vs {w}"
                );
            }
        }
        let m = read(&out, "mean_f.bin", 4);
        assert_eq!(m, (28..36).map(|v| v as f64).collect::<Vec<_>>());
        assert_eq!(read(&out, "var_f.bin", 4), vec![336.0; 8]);

        let (b, sh) = (4usize, 48usize);
        let x: Vec<f64> = (0..b * sh)
            .map(|i| f16::from_f32(((i * 37) % 101) as f32 / 10.0 - 5.0).to_f64())
            .collect();
        let gb: Vec<f64> = (0..b).map(|i| 0.5 + 0.25 * i as f64).collect();
        let (o, m, v) = (
            read(&out, "out_h.bin", 2),
            read(&out, "mean_h.bin", 2),
            read(&out, "var_h.bin", 2),
        );
        let eps = f16::from_f32(0.001).to_f64();
        for j in 0..sh {
            let wm = (0..b).map(|i| x[i * sh + j]).sum::<f64>() / b as f64;
            let wv = (0..b).map(|i| (x[i * sh + j] - wm).powi(2)).sum::<f64>() / b as f64;
            assert!(
                (m[j] - wm).abs() <= 2e-3 * wm.abs().max(1.0),
                "{product} mean {j}"
            );
            assert!(
                (v[j] - wv).abs() <= 2e-3 * wv.abs().max(1.0),
                "{product} var {j}"
            );
            for i in 0..b {
                let w = gb[i] * (x[i * sh + j] - wm) / (wv + eps).sqrt() + gb[i];
                let g = o[i * sh + j];
                assert!(
                    (g - w).abs() <= 2e-3 * w.abs().max(1.0),
                    "{product} out {i},{j}: {g} vs {w}"
                );
            }
        }
    }
}
