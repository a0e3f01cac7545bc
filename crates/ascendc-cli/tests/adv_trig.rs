//! The trigonometric and hyperbolic APIs through the C++ headers: `tests/cpp/adv/trig_apis.asc`
//! calls the twelve APIs in their vendor overloads (sharedTmpBuffer or the pipe's stack,
//! calCount or the whole tensor, isReuseSource, the default config) for float and half; every
//! row must equal, bit for bit, the Rust API on the same inputs, and be close to f64 math. The
//! host helpers' answers too.

use ascendc::adv::math::trig::{self, asin_acos, atan, hyperbolic, inverse_hyperbolic, sin_cos};
use ascendc::adv::math::Tmp;
use ascendc::prelude::*;
use ascendc::ChipProfile;
use std::path::Path;
use std::process::Command;
use std::sync::Mutex;

const N: usize = 512;
const PART: u32 = 500;

/// Row → (API name, source: 0 any sign, 1 in (−1, 1), 2 ≥ 1; calCount).
const ROWS: [(&str, usize, u32); 15] = [
    ("Sin", 0, PART),
    ("Sin", 0, N as u32),
    ("Cos", 0, N as u32),
    ("Cos", 0, PART),
    ("Tan", 0, PART),
    ("Atan", 0, PART),
    ("Asin", 1, PART),
    ("Acos", 1, N as u32),
    ("Sinh", 0, PART),
    ("Cosh", 0, N as u32),
    ("Tanh", 0, PART),
    ("Asinh", 0, PART),
    ("Acosh", 2, PART),
    ("Atanh", 1, PART),
    ("Sin", 0, PART),
];

fn inputs() -> [Vec<f32>; 3] {
    let any = (0..N).map(|i| (i as f32 - 256.0) * 0.0123).collect();
    let unit = (0..N).map(|i| (i as f32 - 255.5) / 260.0).collect();
    let big = (0..N).map(|i| 1.0 + i as f32 * 0.731).collect();
    [any, unit, big]
}

fn le_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Runs the kernel on `product`: (float rows, half rows, host helper answers, stdout).
fn run(product: &str) -> (Vec<f32>, Vec<f16>, Vec<u32>, String) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("input")).unwrap();
    std::fs::create_dir_all(dir.path().join("output")).unwrap();
    for (k, x) in inputs().iter().enumerate() {
        std::fs::write(dir.path().join(format!("input/x{k}.bin")), le_bytes(x)).unwrap();
    }
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/cpp/adv/trig_apis.asc");
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

fn call<T: Element>(
    api: &str,
    d: &LocalTensor<T>,
    s: &LocalTensor<T>,
    t: Tmp,
    n: u32,
) -> Result<()> {
    match api {
        "Sin" => trig::sin(d, s, t, n, false),
        "Cos" => trig::cos(d, s, t, n, false),
        "Tan" => trig::tan(d, s, t, n),
        "Atan" => trig::atan(d, s, t, n),
        "Asin" => trig::asin(d, s, t, n),
        "Acos" => trig::acos(d, s, t, n),
        "Sinh" => trig::sinh(d, s, t, n),
        "Cosh" => trig::cosh(d, s, t, n),
        "Tanh" => trig::tanh(d, s, t, n),
        "Asinh" => trig::asinh(d, s, t, n),
        "Acosh" => trig::acosh(d, s, t, n),
        _ => trig::atanh(d, s, t, n),
    }
}

/// Every row computed with the Rust API on `product` (zeros past calCount).
fn rust_rows<T: Element>(product: &str, xs: &[Vec<T>; 3]) -> Vec<T> {
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
            let tmp = b.at(2 * bytes)?;
            let mut rows = Vec::new();
            for &(api, k, n) in &ROWS {
                for (i, &x) in xs[k].iter().enumerate() {
                    src.set_value(i as u32, x)?;
                    dst.set_value(i as u32, T::default())?;
                }
                call(api, &dst, &src, Tmp::Shared(&tmp), n)?;
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

fn reference(api: &str, x: f64) -> f64 {
    match api {
        "Sin" => x.sin(),
        "Cos" => x.cos(),
        "Tan" => x.tan(),
        "Atan" => x.atan(),
        "Asin" => x.asin(),
        "Acos" => x.acos(),
        "Sinh" => x.sinh(),
        "Cosh" => x.cosh(),
        "Tanh" => x.tanh(),
        "Asinh" => x.asinh(),
        "Acosh" => x.acosh(),
        _ => x.atanh(),
    }
}

#[test]
fn every_overload_matches_the_rust_api_on_a2_and_310p() {
    let xs = inputs();
    let hx: [Vec<f16>; 3] = xs
        .clone()
        .map(|v| v.into_iter().map(f16::from_f32).collect());
    for product in ["A2", "310P"] {
        let (f, h, _, out) = run(product);
        let (rf, rh) = (rust_rows(product, &xs), rust_rows(product, &hx));
        for (row, &(api, k, n)) in ROWS.iter().enumerate() {
            for i in 0..N {
                let at = row * N + i;
                assert_eq!(
                    f[at].to_bits(),
                    rf[at].to_bits(),
                    "{product} float row {row} ({api}) [{i}]\n{out}"
                );
                assert_eq!(
                    h[at].to_bits(),
                    rh[at].to_bits(),
                    "{product} half row {row} ({api}) [{i}]"
                );
                if i as u32 >= n {
                    assert_eq!((f[at], h[at].to_f32()), (0.0, 0.0), "{api} past calCount");
                    continue;
                }
                let r = reference(api, xs[k][i] as f64);
                let tol = 1e-3 * r.abs().max(1.0);
                assert!(
                    (f[at] as f64 - r).abs() <= tol,
                    "{api}({}) = {} vs {r}",
                    xs[k][i],
                    f[at]
                );
                let rh = reference(api, hx[k][i].to_f64());
                let tol = 4e-3 * rh.abs().max(1.0);
                assert!(
                    (h[at].to_f64() - rh).abs() <= tol,
                    "{api} half({}) = {} vs {rh}",
                    hx[k][i],
                    h[at]
                );
            }
        }
    }
}

#[test]
fn host_helpers_answer_through_the_headers() {
    let (_, _, host, out) = run("A2");
    let mut want = Vec::new();
    for ts in [4u32, 2] {
        let n = N as u32;
        let sizes = [
            sin_cos::sin_max_min_tmp_size(n, ts, false),
            sin_cos::sin_max_min_tmp_size(n, ts, false),
            trig::tan::tan_max_min_tmp_size(n, ts),
            atan::atan_max_min_tmp_size(n, ts),
            asin_acos::asin_max_min_tmp_size(n, ts),
            asin_acos::asin_max_min_tmp_size(n, ts),
            hyperbolic::sinh_max_min_tmp_size(n, ts),
            hyperbolic::cosh_max_min_tmp_size(n, ts),
            hyperbolic::sinh_max_min_tmp_size(n, ts),
            inverse_hyperbolic::asinh_max_min_tmp_size(n, ts),
            inverse_hyperbolic::acosh_max_min_tmp_size(n, ts),
            inverse_hyperbolic::atanh_max_min_tmp_size(n, ts),
        ];
        let factors = [
            sin_cos::sin_tmp_buffer_factor_size(ts),
            sin_cos::sin_tmp_buffer_factor_size(ts),
            trig::tan::tan_tmp_buffer_factor_size(ts),
            atan::atan_tmp_buffer_factor_size(ts),
            asin_acos::asin_tmp_buffer_factor_size(ts),
            asin_acos::asin_tmp_buffer_factor_size(ts),
            hyperbolic::sinh_tmp_buffer_factor_size(ts),
            hyperbolic::cosh_tmp_buffer_factor_size(ts),
            hyperbolic::sinh_tmp_buffer_factor_size(ts),
            inverse_hyperbolic::asinh_tmp_buffer_factor_size(ts),
            inverse_hyperbolic::acosh_tmp_buffer_factor_size(ts),
            inverse_hyperbolic::atanh_tmp_buffer_factor_size(ts),
        ];
        for (s, f) in sizes.iter().zip(&factors) {
            want.extend([s.0, s.1, f.0, f.1]);
        }
        let r = sin_cos::sin_max_min_tmp_size(n, ts, true);
        want.extend([r.0, r.1]);
    }
    assert_eq!(host, want);
    // Spot values: Sin float 3 · 2048, Atan half 12 · 1024 / 12 · 256, Acosh half 2 · 512 · 2.
    assert_eq!(&host[0..4], &[6144, 768, 3, 0]);
    assert!(out.contains("tmp float 1280 half 3072"), "{out}");
}
