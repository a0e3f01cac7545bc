//! Digamma and Lgamma through the C++ headers: `tests/cpp/adv/gamma_apis.asc` calls both APIs in
//! their vendor overloads (sharedTmpBuffer or the pipe's stack, isReuseSource false and true)
//! for float and half; every row must equal, bit for bit, the Rust API on the same inputs. The
//! host helpers' answers too.

use ascendc::adv::math::gamma::{self, digamma, lgamma};
use ascendc::adv::math::Tmp;
use ascendc::prelude::*;
use ascendc::ChipProfile;
use std::path::Path;
use std::process::Command;
use std::sync::Mutex;

const N: usize = 512;
const PART: u32 = 500;

/// Row → (API is Lgamma, calCount, isReuseSource).
const ROWS: [(bool, u32, bool); 6] = [
    (false, PART, false),
    (false, N as u32, false),
    (true, PART, false),
    (true, N as u32, false),
    (false, PART, true),
    (true, PART, true),
];

/// (−9.5, 9.5) in steps that pass close to the poles.
fn inputs() -> Vec<f32> {
    (0..N)
        .map(|i| (i as f32 - 256.0) * 0.0371 + 0.013)
        .collect()
}

/// Runs the kernel on `product`: (float rows, half rows, host helper answers, stdout).
fn run(product: &str) -> (Vec<f32>, Vec<f16>, Vec<u32>, String) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("input")).unwrap();
    std::fs::create_dir_all(dir.path().join("output")).unwrap();
    let x: Vec<u8> = inputs().iter().flat_map(|x| x.to_le_bytes()).collect();
    std::fs::write(dir.path().join("input/x.bin"), x).unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/cpp/adv/gamma_apis.asc");
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
    let read = |name: &str| std::fs::read(dir.path().join("output").join(name)).unwrap();
    let f = read("float.bin")
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let h = read("half.bin")
        .chunks_exact(2)
        .map(|c| f16::from_bits(u16::from_le_bytes([c[0], c[1]])))
        .collect();
    let host = read("host.bin")
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    (f, h, host, out)
}

/// Every row computed with the Rust API on `product` with a `tmp_bytes` buffer.
fn rust_rows<T: Element>(product: &str, xs: &[T], tmp_bytes: u32) -> Vec<T> {
    let out = Mutex::new(Vec::new());
    Launch::new(1)
        .profile(ChipProfile::by_name(product).unwrap())
        .run(|| {
            let mut pipe = TPipe::new();
            let mut buf = TBuf::<QuePosition::VECCALC>::new();
            pipe.init_buffer(&mut buf, 1, 65536)?;
            let b = buf.get::<u8>()?;
            let bytes = (N * T::SIZE) as u32;
            let tensor = |slot: u32| -> Result<LocalTensor<T>> {
                let mut t = b.at(slot * bytes)?.reinterpret_cast::<T>();
                t.set_size(N as u32)?;
                Ok(t)
            };
            let (src, dst) = (tensor(0)?, tensor(1)?);
            let mut tmp = b.at(2 * bytes)?;
            tmp.set_size(tmp_bytes)?;
            let mut rows = Vec::new();
            for &(lg, n, reuse) in &ROWS {
                for (i, &x) in xs.iter().enumerate() {
                    src.set_value(i as u32, x)?;
                    dst.set_value(i as u32, T::default())?;
                }
                if lg {
                    lgamma(&dst, &src, Tmp::Shared(&tmp), n, reuse)?;
                } else {
                    digamma(&dst, &src, Tmp::Shared(&tmp), n, reuse)?;
                }
                for i in 0..N as u32 {
                    rows.push(dst.get_value(i)?);
                }
            }
            *out.lock().unwrap() = rows;
            Ok(())
        })
        .unwrap();
    out.into_inner().unwrap()
}

#[test]
fn every_overload_matches_the_rust_api_on_a2_and_310p() {
    let xs = inputs();
    let hx: Vec<f16> = xs.iter().map(|&x| f16::from_f32(x)).collect();
    for product in ["A2", "310P"] {
        let (f, h, _, out) = run(product);
        assert!(out.contains("tmp float 2048 half 6656"), "{out}");
        let (rf, rh) = (rust_rows(product, &xs, 2048), rust_rows(product, &hx, 6656));
        for (row, &(lg, n, _)) in ROWS.iter().enumerate() {
            for i in 0..N {
                let at = row * N + i;
                assert_eq!(
                    f[at].to_bits(),
                    rf[at].to_bits(),
                    "{product} float row {row} [{i}] x = {}",
                    xs[i]
                );
                assert_eq!(
                    h[at].to_bits(),
                    rh[at].to_bits(),
                    "{product} half row {row} [{i}] x = {}",
                    hx[i]
                );
                // Digamma rounds its last chunk up to 8 elements (500 → 504); Lgamma does not.
                let end = if lg { n } else { n.div_ceil(8) * 8 };
                if i as u32 >= end {
                    assert_eq!(
                        (f[at], h[at].to_f32()),
                        (0.0, 0.0),
                        "row {row} past calCount"
                    );
                } else {
                    assert!(f[at] != 0.0, "row {row} [{i}] not computed");
                }
            }
        }
        // Spot values: ψ(1) = −γ, ln Γ(3) = ln 2 are not on the grid; ψ and lnΓ at x[256] = 0.013.
        let x = xs[256] as f64;
        let psi = -1.0 / x - 0.5772156649 + 1.6449340668 * x;
        assert!((f[256] as f64 - psi).abs() < 1e-3, "ψ({x}) = {}", f[256]);
        let lg = -(x.ln()) - 0.5772156649 * x;
        assert!(
            (f[2 * N + 256] as f64 - lg).abs() < 1e-3,
            "lnΓ({x}) = {}",
            f[2 * N + 256]
        );
    }
}

#[test]
fn host_helpers_answer_through_the_headers() {
    let (_, _, host, _) = run("A2");
    let mut want = Vec::new();
    for ts in [4u32, 2] {
        let n = N as u32;
        let d = gamma::digamma_max_min_tmp_size(n, ts, false);
        let df = gamma::digamma_tmp_buffer_factor_size(ts);
        let dr = gamma::digamma_max_min_tmp_size(n, ts, true);
        let l = gamma::lgamma_max_min_tmp_size(n, ts, false);
        let lf = gamma::lgamma_tmp_buffer_factor_size(ts);
        let lr = gamma::lgamma_max_min_tmp_size(n, ts, true);
        want.extend([
            d.0, d.1, df.0, df.1, dr.0, dr.1, l.0, l.1, lf.0, lf.1, lr.0, lr.1,
        ]);
    }
    assert_eq!(host, want);
    // float: Digamma 7 · 2048 / 7 · 256, reuse 6; Lgamma 8, reuse 7; half: 16 and 26 (13 live).
    assert_eq!(
        &host[0..12],
        &[14336, 1792, 7, 0, 12288, 1536, 16384, 2048, 8, 0, 14336, 1792]
    );
    assert_eq!(
        &host[12..24],
        &[16384, 4096, 16, 0, 16384, 4096, 26624, 6656, 13, 0, 26624, 6656]
    );
}
