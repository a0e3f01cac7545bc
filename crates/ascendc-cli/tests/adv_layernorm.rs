//! LayerNorm (both forms), Normalize and DeepNorm through the C++ headers:
//! `tests/cpp/adv/layernorm_apis.cpp` makes its inputs (`((i·k) mod 101) / 10 − 5`), runs the
//! kernels with host-made tilings (one a `TILING_DATA_FIELD_DEF_STRUCT` field saved with
//! `SaveToBuffer`) and writes the outputs, checked here against float64 on A2 and 310P.

use ascendc::f16;
use std::path::Path;
use std::process::Command;

const B_S: usize = 16;
const H: usize = 40;
const A: usize = 6;
const R: usize = 20;
const RP: usize = 32;
const DS: usize = 16;
const DH: usize = 64;

fn input(i: usize, k: usize) -> f32 {
    ((i * k) % 101) as f32 / 10.0 - 5.0
}

fn half(v: f32) -> f32 {
    f16::from_f32(v).to_f32()
}

/// (mean, variance) of a row in float64.
fn stats(row: &[f64]) -> (f64, f64) {
    let n = row.len() as f64;
    let m = row.iter().sum::<f64>() / n;
    (m, row.iter().map(|v| (v - m).powi(2)).sum::<f64>() / n)
}

fn close(what: &str, got: f32, want: f64, abs: f64, rel: f64) {
    let e = (got as f64 - want).abs();
    assert!(e <= abs + rel * want.abs(), "{what}: {got} vs {want}");
}

struct Out(std::path::PathBuf);
impl Out {
    fn f32s(&self, name: &str) -> Vec<f32> {
        std::fs::read(self.0.join(name))
            .unwrap()
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    }
    fn f16s(&self, name: &str) -> Vec<f32> {
        std::fs::read(self.0.join(name))
            .unwrap()
            .chunks_exact(2)
            .map(|c| f16::from_bits(u16::from_le_bytes([c[0], c[1]])).to_f32())
            .collect()
    }
}

fn run(product: &str) -> (tempfile::TempDir, Out) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("output")).unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/cpp/adv/layernorm_apis.cpp");
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
    // The float LayerNorm ran in several passes with a tail; DeepNorm took all 16 rows at once.
    assert!(stdout.contains("loops 5 tail 40"), "{stdout}");
    assert!(stdout.contains("rows 16"), "{stdout}");
    let out = Out(dir.path().join("output"));
    (dir, out)
}

#[test]
fn layer_norm_normalize_deep_norm_through_cpp() {
    for product in ["A2", "310P"] {
        let (_dir, out) = run(product);
        // [B, S, H] float.
        let (y, m, v) = (
            out.f32s("ln_y.bin"),
            out.f32s("ln_mean.bin"),
            out.f32s("ln_var.bin"),
        );
        for r in 0..B_S {
            let row: Vec<f64> = (0..H).map(|c| input(r * H + c, 37) as f64).collect();
            let (mean, var) = stats(&row);
            close(&format!("{product} ln mean {r}"), m[r], mean, 1e-5, 1e-5);
            close(&format!("{product} ln var {r}"), v[r], var, 1e-5, 1e-5);
            for c in 0..H {
                let want = (row[c] - mean) / (var + 1e-5).sqrt() * input(c, 13) as f64
                    + input(c, 7) as f64;
                close(
                    &format!("{product} ln y {r},{c}"),
                    y[r * H + c],
                    want,
                    1e-5,
                    1e-5,
                );
            }
        }
        // [A, R] half, and Normalize (half x, float β, no γ) of the same rows.
        let (y, m, rs) = (
            out.f16s("ar_y.bin"),
            out.f32s("ar_mean.bin"),
            out.f32s("ar_rstd.bin"),
        );
        let (ny, nrs) = (out.f16s("nz_y.bin"), out.f32s("nz_rstd.bin"));
        for a in 0..A {
            let row: Vec<f64> = (0..R).map(|c| half(input(a * RP + c, 37)) as f64).collect();
            let (mean, var) = stats(&row);
            let rstd = 1.0 / (var + 1e-3).sqrt();
            close(&format!("{product} ar mean {a}"), m[a], mean, 1e-5, 1e-5);
            close(&format!("{product} ar rstd {a}"), rs[a], rstd, 0.0, 1e-5);
            close(&format!("{product} nz rstd {a}"), nrs[a], rstd, 0.0, 1e-4);
            for c in 0..R {
                let n = (row[c] - mean) * rstd;
                let want = n * half(input(c, 13)) as f64 + half(input(c, 7)) as f64;
                close(
                    &format!("{product} ar y {a},{c}"),
                    y[a * RP + c],
                    want,
                    2e-3,
                    2e-3,
                );
                let want = n + input(c, 7) as f64;
                close(
                    &format!("{product} nz y {a},{c}"),
                    ny[a * RP + c],
                    want,
                    2e-3,
                    2e-3,
                );
            }
        }
        // DeepNorm half: X = 0.5·x + gx.
        let (y, m, v) = (
            out.f16s("dn_y.bin"),
            out.f16s("dn_mean.bin"),
            out.f16s("dn_var.bin"),
        );
        for r in 0..DS {
            let row: Vec<f64> = (0..DH)
                .map(|c| {
                    let i = r * DH + c;
                    0.5 * half(input(i, 37)) as f64 + half(input(i, 53)) as f64
                })
                .collect();
            let (mean, var) = stats(&row);
            close(&format!("{product} dn mean {r}"), m[r], mean, 1e-3, 1e-3);
            close(&format!("{product} dn var {r}"), v[r], var, 1e-3, 1e-3);
            for c in 0..DH {
                let want = (row[c] - mean) / (var + half(1e-3) as f64).sqrt()
                    * half(input(c, 13)) as f64
                    + half(input(c, 7)) as f64;
                close(
                    &format!("{product} dn y {r},{c}"),
                    y[r * DH + c],
                    want,
                    4e-3,
                    2e-3,
                );
            }
        }
    }
}
