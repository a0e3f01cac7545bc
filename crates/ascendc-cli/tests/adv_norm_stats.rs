//! The normalization statistics and LayerNorm-gradient APIs through the C++ headers:
//! `tests/cpp/adv/welford_apis.cpp` (WelfordUpdate half with the stack buffer, WelfordFinalize
//! with head/tail counts; checked bit-exact against an emulation of the device's instructions)
//! and `tests/cpp/adv/layernorm_grad_apis.cpp` (LayerNormGrad + LayerNormGradBeta float with
//! host tiling; checked against a float64 reference), on A2 and 310P.

use ascendc::f16;
use std::path::Path;
use std::process::Command;

/// Pseudo-random values in [lo, hi).
fn values(n: usize, seed: u64, lo: f32, hi: f32) -> Vec<f32> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            lo + (hi - lo) * ((s >> 40) as f32 / (1u64 << 24) as f32)
        })
        .collect()
}

fn tree64(v: &[f32]) -> f32 {
    let mut l = [0f32; 64];
    l[..v.len()].copy_from_slice(v);
    let mut n = 64;
    while n > 1 {
        for i in 0..n / 2 {
            l[i] = l[2 * i] + l[2 * i + 1];
        }
        n /= 2;
    }
    l[0]
}

fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|a| a.to_le_bytes()).collect()
}

fn floats(b: Vec<u8>) -> Vec<f32> {
    b.chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Runs `file` in a fresh directory holding `inputs`; returns stdout and the directory.
fn run(product: &str, file: &str, inputs: &[(&str, Vec<u8>)]) -> (String, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("input")).unwrap();
    std::fs::create_dir_all(dir.path().join("output")).unwrap();
    for (name, bytes) in inputs {
        std::fs::write(dir.path().join("input").join(name), bytes).unwrap();
    }
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/cpp/adv")
        .join(file);
    let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .current_dir(dir.path())
        .args(["run", "--product", product, src.to_str().unwrap()])
        .output()
        .expect("ascendc runs");
    let stdout = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(
        o.status.success(),
        "{product}\n{stdout}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    (stdout, dir)
}

/// The floats of output file `name`.
fn output(dir: &tempfile::TempDir, name: &str) -> Vec<f32> {
    floats(std::fs::read(dir.path().join("output").join(name)).unwrap())
}

fn welford(product: &str) {
    const AB: usize = 128;
    const P: usize = 64;
    let x: Vec<f32> = values(AB, 3, -8.0, 8.0)
        .iter()
        .map(|v| f16::from_f32(*v).to_f32())
        .collect();
    let m0 = values(AB, 5, -1.0, 1.0);
    let v0 = values(AB, 7, 0.0, 3.0);
    let pm = values(P, 9, -2.0, 2.0);
    let pv = values(P, 11, 0.0, 5.0);
    let hx: Vec<u8> = x
        .iter()
        .flat_map(|v| f16::from_f32(*v).to_bits().to_le_bytes())
        .collect();
    let (stdout, dir) = run(
        product,
        "welford_apis.cpp",
        &[
            ("x.bin", hx),
            ("mean.bin", f32_bytes(&m0)),
            ("var.bin", f32_bytes(&v0)),
            ("pm.bin", f32_bytes(&pm)),
            ("pv.bin", f32_bytes(&pv)),
        ],
    );
    let read = |name: &str| output(&dir, name);
    assert!(
        stdout.contains("update tmp 1536 768 finalize tmp 1024 1024"),
        "{stdout}"
    );
    // WelfordUpdate: 100 computed, the last block-rounded 32 copied (inplace), 96..100 computed.
    let (um, uv) = (read("um.bin"), read("uv.bin"));
    for i in 0..AB {
        let (wm, wv) = if i < 100 {
            let d = x[i] - m0[i];
            let m = d * 0.25 + m0[i];
            (m, d * (x[i] - m) + v0[i])
        } else {
            (m0[i], v0[i])
        };
        assert_eq!(um[i].to_bits(), wm.to_bits(), "{product} mean {i}");
        assert_eq!(uv[i].to_bits(), wv.to_bits(), "{product} M {i}");
    }
    // WelfordFinalize: head 40 partials of count 3, tail 24 of count 2, rRec = 1/168.
    let r_rec = 1.0f32 / 168.0;
    let ratio = 3.0f32 / 2.0;
    let w: Vec<f32> = (0..P)
        .map(|i| {
            let t = pm[i] * 2.0 * r_rec;
            if i < 40 {
                t * ratio
            } else {
                t
            }
        })
        .collect();
    let mean = tree64(&w);
    let a: Vec<f32> = (0..P)
        .map(|i| {
            let d = pm[i] - mean;
            let mut t = d * d * 2.0;
            if i < 40 {
                t *= ratio;
            }
            (pv[i] + t) * r_rec
        })
        .collect();
    let var = tree64(&a);
    let (fm, fv) = (read("fm.bin"), read("fv.bin"));
    assert_eq!(fm[0].to_bits(), mean.to_bits(), "{product} final mean");
    assert_eq!(fv[0].to_bits(), var.to_bits(), "{product} final var");
    assert_eq!(&fm[1..], &[0.0; 7]);
    assert_eq!(&fv[1..], &[0.0; 7]);
}

#[test]
fn welford_through_cpp_a2() {
    welford("A2");
}

#[test]
fn welford_through_cpp_310p() {
    welford("310P");
}

fn layernorm_grad(product: &str) {
    const R: usize = 16;
    const H: usize = 64;
    let dy = values(R * H, 13, -1.0, 1.0);
    let x = values(R * H, 17, -2.0, 2.0);
    let var = values(R, 19, 0.2, 2.0);
    let mean = values(R, 23, -0.5, 0.5);
    let g = values(H, 29, -1.0, 1.0);
    let (stdout, dir) = run(
        product,
        "layernorm_grad_apis.cpp",
        &[
            ("dy.bin", f32_bytes(&dy)),
            ("x.bin", f32_bytes(&x)),
            ("var.bin", f32_bytes(&var)),
            ("mean.bin", f32_bytes(&mean)),
            ("gamma.bin", f32_bytes(&g)),
        ],
    );
    let read = |name: &str| output(&dir, name);
    assert!(
        stdout.contains("grad tmp 98304 24576 beta tmp 8192 512"),
        "{stdout}"
    );
    assert!(
        stdout.contains("grad rows 8 loops 2 beta rows 4 loops 4"),
        "{stdout}"
    );
    let (pdx, rg, pg, pb) = (
        read("pdx.bin"),
        read("rg.bin"),
        read("pg.bin"),
        read("pb.bin"),
    );
    let eps = 1e-5f64;
    let close = |got: f32, want: f64, what: &str| {
        assert!(
            (got as f64 - want).abs() <= 2e-5 * (1.0 + want.abs()),
            "{product} {what}: {got} vs {want}"
        );
    };
    let mut wg = vec![0f64; H];
    let mut wb = vec![0f64; H];
    for r in 0..R {
        let v = var[r] as f64 + eps;
        let rs = v.powf(-0.5);
        let row = r * H..(r + 1) * H;
        let x2: Vec<f64> = x[row.clone()]
            .iter()
            .map(|a| *a as f64 - mean[r] as f64)
            .collect();
        let x1: Vec<f64> = dy[row.clone()]
            .iter()
            .zip(&g)
            .map(|(a, b)| *a as f64 * *b as f64)
            .collect();
        let pd_var: f64 = x1
            .iter()
            .zip(&x2)
            .map(|(a, b)| -0.5 * a * b * v.powf(-1.5))
            .sum();
        let pd_mean: f64 = x1.iter().map(|a| -a * rs).sum::<f64>()
            + pd_var / H as f64 * x2.iter().map(|b| -2.0 * b).sum::<f64>();
        for k in 0..H {
            let want = x1[k] * rs + pd_var * 2.0 / H as f64 * x2[k] + pd_mean / H as f64;
            close(pdx[r * H + k], want, "pdX");
            close(rg[r * H + k], x2[k] * rs, "resForGamma");
            wg[k] += dy[r * H + k] as f64 * rg[r * H + k] as f64;
            wb[k] += dy[r * H + k] as f64;
        }
    }
    for k in 0..H {
        close(pg[k], wg[k], "pdGamma");
        close(pb[k], wb[k], "pdBeta");
    }
}

#[test]
fn layernorm_grad_through_cpp_a2() {
    layernorm_grad("A2");
}

#[test]
fn layernorm_grad_through_cpp_310p() {
    layernorm_grad("310P");
}
