//! BatchNorm and GroupNorm (see `group_norm_through_cpp`) through the C++ headers:
//! `tests/cpp/adv/batchnorm_apis.cpp` runs the page's example
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

/// GroupNorm's float64 reference of one case: (output [N, C, hwAlign] with zero padding, mean,
/// variance) for x [N, C, hw] (`xs(i)`), γ = 0.5 + 0.25·c, β = 0.1·c.
fn group_norm_ref(
    n: usize,
    c: usize,
    hw: usize,
    hwa: usize,
    groups: usize,
    eps: f64,
    xs: impl Fn(usize) -> f64,
) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let d = c / groups;
    let (mut out, mut mean, mut var) = (vec![0f64; n * c * hwa], vec![], vec![]);
    for k in 0..n * groups {
        let vals: Vec<f64> = (0..d * hw).map(|i| xs(k * d * hw + i)).collect();
        let m = vals.iter().sum::<f64>() / vals.len() as f64;
        let v = vals.iter().map(|x| (x - m).powi(2)).sum::<f64>() / vals.len() as f64;
        for ch in 0..d {
            let cc = (k * d + ch) % c;
            let (g, b) = (0.5 + 0.25 * cc as f64, 0.1 * cc as f64);
            for j in 0..hw {
                out[(k * d + ch) * hwa + j] = (vals[ch * hw + j] - m) / (v + eps).sqrt() * g + b;
            }
        }
        mean.push(m);
        var.push(v);
    }
    (out, mean, var)
}

fn close(got: &[f64], want: &[f64], tol: f64, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= tol * w.abs().max(1.0),
            "{what} at {i}: {g} vs {w}"
        );
    }
}

/// GroupNorm through the C++ headers: `tests/cpp/adv/groupnorm_apis.cpp` runs the page's example
/// (float, small shape, sharedTmpBuffer), the Tiling page's half [2, 16, 8, 8] (stack buffer) and a
/// float [1, 4, 10, 10] on the general path, on A2 and A3; 310P refuses it.
#[test]
fn group_norm_through_cpp() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/cpp/adv/groupnorm_apis.cpp");
    for product in ["A2", "A3", "310P"] {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("output")).unwrap();
        let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
            .current_dir(dir.path())
            .args(["run", "--product", product, src.to_str().unwrap()])
            .output()
            .expect("ascendc runs");
        let stdout = String::from_utf8_lossy(&o.stdout);
        let stderr = String::from_utf8_lossy(&o.stderr);
        if product == "310P" {
            assert!(!o.status.success(), "{stdout}");
            assert!(
                stderr.contains("GroupNorm is not available on"),
                "{stdout}\n{stderr}"
            );
            continue;
        }
        assert!(o.status.success(), "{product}\n{stdout}\n{stderr}");
        // Page: max 3·2·8·32 + 2·32, min 3·2·32 + 2·32. Half: 3·2·16·256 + 64, 3·4·256 + 64.
        // General: H·W = 100 floats → 104; 3·4·416 + 2·32, 3·2·416 + 2·32.
        assert!(
            stdout.contains("page tmp 1600 256 small 1 loops 1 bs 8"),
            "{stdout}"
        );
        assert!(
            stdout.contains("half tmp 24640 3136 small 1 loops 1"),
            "{stdout}"
        );
        assert!(
            stdout.contains("general tmp 5056 2560 small 0 loops 2 hwAlign 104"),
            "{stdout}"
        );
        let out = dir.path().join("output");

        let page_rows = [
            (8, [1.1084652, 1.3253956, 1.542326, 1.7592564]),
            (16, [-1.2539563, -0.8200953, -0.38623452, 0.047626257]),
            (120, [7.7592564, 9.277769, 10.796282, 12.314795]),
        ];
        let o = read(&out, "out_p.bin", 4);
        for (at, want) in page_rows {
            close(
                &o[at..at + 4],
                &want,
                1e-6,
                &format!("{product} page row {at}"),
            );
        }
        assert_eq!(
            read(&out, "mean_p.bin", 4),
            (0..8).map(|k| 7.5 + 16.0 * k as f64).collect::<Vec<_>>()
        );
        assert_eq!(read(&out, "var_p.bin", 4), vec![21.25; 8]);

        let input = |i: usize| ((i * 37) % 101) as f64 / 10.0 - 5.0;
        let xh = |i: usize| f16::from_f64(input(i)).to_f64();
        let (wo, wm, wv) = group_norm_ref(2, 16, 64, 64, 4, f16::from_f32(1e-3).to_f64(), xh);
        close(
            &read(&out, "out_h.bin", 2),
            &wo,
            4e-3,
            &format!("{product} half out"),
        );
        close(
            &read(&out, "mean_h.bin", 2),
            &wm,
            2e-3,
            &format!("{product} half mean"),
        );
        close(
            &read(&out, "var_h.bin", 2),
            &wv,
            2e-3,
            &format!("{product} half var"),
        );

        let xf = |i: usize| input(i) as f32 as f64;
        let (wo, wm, wv) = group_norm_ref(1, 4, 100, 104, 2, 1e-5, xf);
        close(
            &read(&out, "out_g.bin", 4),
            &wo,
            1e-5,
            &format!("{product} general out"),
        );
        close(
            &read(&out, "mean_g.bin", 4),
            &wm,
            1e-5,
            &format!("{product} general mean"),
        );
        close(
            &read(&out, "var_g.bin", 4),
            &wv,
            1e-5,
            &format!("{product} general var"),
        );
    }
}
