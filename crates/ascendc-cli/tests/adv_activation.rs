//! The element-wise activations through the C++ headers: `tests/cpp/adv/act_elementwise.asc`
//! calls every overload of Sigmoid, Silu, Swish, Gelu, FasterGelu, FasterGeluV2, SwiGLU, GeGLU
//! and ReGlu on float and half (with a sharedTmpBuffer sized by the host helpers, and on the
//! pipe's free UB); each row must equal the same call of the Rust API bit for bit, on A2 and
//! 310P, and be close to the float64 function. The host helpers' answers are checked too.

use ascendc::adv::activation::{
    faster_gelu, faster_gelu_v2, geglu, gelu, reglu, sigmoid, silu, swiglu, swish, GeluMode, Tmp,
};
use ascendc::prelude::*;
use ascendc::{ChipProfile, Element};
use std::path::Path;
use std::process::Command;

const N: usize = 512;
const PART: u32 = 500;
const ROWS: usize = 14;

/// Inputs: edge values first, then a spread over [−6, 6).
fn inputs(seed: usize) -> Vec<f32> {
    let mut v = vec![
        0.0,
        -0.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        1e-40,
        30.0,
        -30.0,
        1.0,
    ];
    v.extend((v.len()..N).map(|i| ((i * 7919 + seed * 104_729) % 1200) as f32 / 100.0 - 6.0));
    v
}

/// Runs the kernel on `product`: (float rows, half rows, host helpers).
fn run_cpp(product: &str, x0: &[f32], x1: &[f32]) -> (Vec<f32>, Vec<f16>, Vec<u32>) {
    let dir = tempfile::tempdir().unwrap();
    for d in ["input", "output"] {
        std::fs::create_dir_all(dir.path().join(d)).unwrap();
    }
    let le = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    std::fs::write(dir.path().join("input/x0.bin"), le(x0)).unwrap();
    std::fs::write(dir.path().join("input/x1.bin"), le(x1)).unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/cpp/adv/act_elementwise.asc");
    let o = Command::new(env!("CARGO_BIN_EXE_ascendc"))
        .current_dir(dir.path())
        .args(["run", "--product", product, src.to_str().unwrap()])
        .output()
        .expect("ascendc runs");
    assert!(
        o.status.success(),
        "{product}\n{}\n{}",
        String::from_utf8_lossy(&o.stdout),
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
    (f, h, host)
}

/// The kernel's rows computed with the Rust API on `product` (`tmp_bytes` of shared buffer).
fn run_rust<T: Element + Send + Sync + Default>(
    product: &str,
    x0: &[T],
    x1: &[T],
    tmp_bytes: u32,
) -> Vec<T> {
    let out = std::sync::Mutex::new(Vec::new());
    let profile = ChipProfile::by_name(product).unwrap();
    Launch::new(1)
        .profile(profile)
        .run(|| {
            let mut pipe = TPipe::new();
            let mut buf = TBuf::<QuePosition::VECCALC>::new();
            let bytes = (N * T::SIZE) as u32;
            pipe.init_buffer(&mut buf, 1, 3 * bytes + tmp_bytes)?;
            let raw = buf.get::<u8>()?;
            let tensor = |k: u32| -> Result<LocalTensor<T>> {
                let mut t = raw.at(k * bytes)?.reinterpret_cast::<T>();
                t.set_size(N as u32)?;
                Ok(t)
            };
            let (a, b, d) = (tensor(0)?, tensor(1)?, tensor(2)?);
            let mut tmp = raw.at(3 * bytes)?;
            tmp.set_size(tmp_bytes)?;
            for i in 0..N as u32 {
                a.set_value(i, x0[i as usize])?;
                b.set_value(i, x1[i as usize])?;
            }
            let (t, s) = (Tmp::Shared(&tmp), Tmp::Stack(&pipe));
            let mut rows = Vec::new();
            for row in 0..ROWS {
                for i in 0..N as u32 {
                    d.set_value(i, T::default())?;
                }
                match row {
                    0 => sigmoid(&d, &a, t, PART)?,
                    1 => sigmoid(&d, &a, s, N as u32)?,
                    2 => silu(&d, &a, PART)?,
                    3 => swish(&d, &a, PART, T::from_f64(1.5))?,
                    4 => gelu(&d, &a, t, PART, GeluMode::default())?,
                    5 => gelu(
                        &d,
                        &a,
                        s,
                        PART,
                        GeluMode {
                            high_precision: true,
                            high_performance: false,
                        },
                    )?,
                    6 => faster_gelu(
                        &d,
                        &a,
                        t,
                        PART,
                        GeluMode {
                            high_precision: false,
                            high_performance: true,
                        },
                    )?,
                    7 => faster_gelu_v2(
                        &d,
                        &a,
                        t,
                        PART,
                        GeluMode {
                            high_precision: true,
                            high_performance: true,
                        },
                    )?,
                    8 => swiglu(&d, &a, &b, 0.75, t, PART)?,
                    9 => swiglu(&d, &a, &b, 0.75, s, N as u32)?,
                    10 => geglu(&d, &a, &b, t, PART)?,
                    11 => geglu(&d, &a, &b, s, N as u32)?,
                    12 => reglu(&d, &a, &b, t, PART)?,
                    _ => reglu(&d, &a, &b, s, PART)?,
                }
                for i in 0..N as u32 {
                    rows.push(d.get_value(i)?);
                }
            }
            *out.lock().unwrap() = rows;
            Ok(())
        })
        .unwrap();
    out.into_inner().unwrap()
}

const NAMES: [&str; ROWS] = [
    "Sigmoid(tmp, n)",
    "Sigmoid()",
    "Silu",
    "Swish",
    "Gelu(tmp)",
    "Gelu<hp>()",
    "FasterGelu<perf>",
    "FasterGeluV2<hp,perf>",
    "SwiGLU(tmp, n)",
    "SwiGLU()",
    "GeGLU(tmp, n)",
    "GeGLU()",
    "ReGlu(tmp, n)",
    "ReGlu(n)",
];

/// float64 value of row `row` at `x0`, `x1` (GELU rows: the tanh form).
fn reference(row: usize, x0: f64, x1: f64) -> f64 {
    let sig = |x: f64| 1.0 / (1.0 + (-x).exp());
    let gelu = |x: f64| {
        0.5 * x * (1.0 + ((2.0 / std::f64::consts::PI).sqrt() * (x + 0.044715 * x * x * x)).tanh())
    };
    match row {
        0 | 1 => sig(x0),
        2 => x0 * sig(x0),
        3 => x0 * sig(1.5 * x0),
        4 | 5 => gelu(x0),
        6 => x0 * sig(1.702 * x0),
        7 => gelu(x0),
        8 | 9 => x0 * x1 * sig(0.75 * x1),
        10 | 11 => x0 * gelu(x1),
        _ => x0 * x1.max(0.0),
    }
}

fn count(row: usize) -> usize {
    if matches!(row, 1 | 9 | 11) {
        N
    } else {
        PART as usize
    }
}

#[test]
fn every_overload_matches_the_rust_api_on_a2_and_310p() {
    let (x0, x1) = (inputs(1), inputs(2));
    let (h0, h1): (Vec<f16>, Vec<f16>) = (
        x0.iter().map(|&v| f16::from_f32(v)).collect(),
        x1.iter().map(|&v| f16::from_f32(v)).collect(),
    );
    for product in ["A2", "310P"] {
        let (f, h, host) = run_cpp(product, &x0, &x1);
        // float: the largest minimum is Gelu's 768 bytes; half: SwiGLU's and ReGlu's 1536.
        let rf = run_rust(product, &x0, &x1, 768);
        let rh = run_rust(product, &h0, &h1, 1536);
        for row in 0..ROWS {
            for i in 0..N {
                let k = row * N + i;
                assert_eq!(
                    f[k].to_bits(),
                    rf[k].to_bits(),
                    "{product} float {}: element {i}",
                    NAMES[row]
                );
                assert_eq!(
                    h[k].to_bits(),
                    rh[k].to_bits(),
                    "{product} half {}: element {i}",
                    NAMES[row]
                );
            }
            // Elements past the count stay as Duplicate left them.
            assert!(
                f[row * N + count(row)..(row + 1) * N]
                    .iter()
                    .all(|&v| v == 0.0),
                "{}",
                NAMES[row]
            );
            // Finite inputs: close to the function (FasterGelu/V2 approximate GELU less closely).
            let tol = match row {
                6 | 7 => 0.03,
                _ => 2e-3,
            };
            for i in 8..count(row) {
                let want = reference(row, x0[i] as f64, x1[i] as f64);
                let err = (f[row * N + i] as f64 - want).abs() / want.abs().max(1.0);
                assert!(
                    err < tol,
                    "{product} float {} at x = {}: {} vs {want}",
                    NAMES[row],
                    x0[i],
                    f[row * N + i]
                );
            }
        }
        assert_eq!(
            host,
            [
                // float: Sigmoid, Silu, Swish, Gelu (max/min, then the single helpers), SwiGLU,
                // GeGLU, ReGlu, the factors of SwiGLU and GeGLU.
                2048, 256, 0, 0, 0, 0, 6144, 768, 6144, 768, 0, 0, 0, 0, 256, 256, 0, 0, 0, 0,
                // half.
                1024, 256, 0, 0, 0, 0, 6144, 768, 6144, 768, 6144, 1536, 4096, 1024, 6144, 1536, 6,
                0, 4, 0,
            ]
        );
    }
}
