//! The normalization and quantization APIs through the C++ headers: `tests/cpp/adv/
//! norm_rmsnorm_quant.cpp` runs RmsNorm (half, host tiling through GM) and AscendQuant (float,
//! per tensor and per channel, stack buffer) on A2 and 310P; checked here against an
//! emulation of the device's instruction sequence.

use ascendc::f16;
use std::path::Path;
use std::process::Command;

const B: usize = 2;
const S: usize = 8;
const H: usize = 48;
const H0: usize = 40;
const QN: usize = 1024;
const QK: usize = 128;

fn h(v: f32) -> f16 {
    f16::from_f32(v)
}

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

/// 64-lane pairwise tree (absent lanes +0).
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

fn quant(x: f32, s: f32, o: f32) -> i8 {
    let v = h(h(h(x).to_f32() * h(s).to_f32()).to_f32() + h(o).to_f32());
    v.to_f32().round_ties_even().clamp(-128.0, 127.0) as i8
}

fn run(product: &str) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("input")).unwrap();
    std::fs::create_dir_all(dir.path().join("output")).unwrap();
    let mut x = values(B * S * H, 3, -3.0, 3.0);
    for r in 0..B * S {
        for c in H0..H {
            x[r * H + c] = 0.0; // padding
        }
    }
    let g = values(H, 5, -1.0, 1.0);
    let q = values(QN, 9, -80.0, 80.0);
    let sc = values(QK, 11, -2.0, 2.0);
    let half_bytes = |v: &[f32]| -> Vec<u8> {
        v.iter()
            .flat_map(|a| h(*a).to_bits().to_le_bytes())
            .collect()
    };
    let f32_bytes = |v: &[f32]| -> Vec<u8> { v.iter().flat_map(|a| a.to_le_bytes()).collect() };
    std::fs::write(dir.path().join("input/x.bin"), half_bytes(&x)).unwrap();
    std::fs::write(dir.path().join("input/gamma.bin"), half_bytes(&g)).unwrap();
    std::fs::write(dir.path().join("input/q.bin"), f32_bytes(&q)).unwrap();
    std::fs::write(dir.path().join("input/scale.bin"), f32_bytes(&sc)).unwrap();
    let src =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/cpp/adv/norm_rmsnorm_quant.cpp");
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
    // The host helpers as the vendor computes them: min (2·48 + 8)·4 = 416 bytes, 3× that gives
    // 3 rows per pass: 5 passes and one row of tail.
    assert!(
        stdout.contains("tmp 6208 416 rows 3 loops 5 tail 1"),
        "{stdout}"
    );
    assert!(stdout.contains("quant tmp 2048 512"), "{stdout}");
    let read = |name: &str| std::fs::read(dir.path().join("output").join(name)).unwrap();

    // RmsNorm, half: widened; sums over the original 40 columns; exp(-0.5·ln(·)).
    let eps = h(1e-4).to_f32();
    let recip = (1.0f64 / H0 as f32 as f64) as f32;
    let mut want = Vec::new();
    for r in 0..B * S {
        let row: Vec<f32> = x[r * H..(r + 1) * H]
            .iter()
            .map(|v| h(*v).to_f32())
            .collect();
        let sq: Vec<f32> = row.iter().map(|v| v * v).collect();
        let sum = tree64(&sq[..H0]);
        let f = ((sum * recip + eps) as f64).ln() as f32 * -0.5;
        let f = (f as f64).exp() as f32;
        for c in 0..H {
            want.push(h(row[c] * f * h(g[c]).to_f32()).to_bits());
        }
    }
    let got: Vec<u16> = read("rms.bin")
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    assert_eq!(got, want, "{product} RmsNorm");

    let got: Vec<i8> = read("quant.bin").iter().map(|b| *b as i8).collect();
    let want: Vec<i8> = q.iter().map(|v| quant(*v, 2.0, 0.9)).collect();
    assert_eq!(got, want, "{product} AscendQuant per tensor");
    let got: Vec<i8> = read("quant_ch.bin").iter().map(|b| *b as i8).collect();
    let want: Vec<i8> = (0..QN).map(|i| quant(q[i], sc[i % QK], 0.5)).collect();
    assert_eq!(got, want, "{product} AscendQuant per channel");
}

#[test]
fn rmsnorm_and_quant_through_cpp_a2() {
    run("A2");
}

#[test]
fn rmsnorm_and_quant_through_cpp_310p() {
    run("310P");
}
