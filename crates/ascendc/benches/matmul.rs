//! The high-level Matmul on one cube core against native Rust doing the same arithmetic in the
//! same run: half × half → float in the cube's accumulation order (one fp32 rounding per
//! 16-wide K fractal, docs/cube.md) and int8 × int8 → int32, results compared bit for bit.
//!
//! Run: `cargo bench -p ascendc --bench matmul` (optionally `-- <m> <n> <k>`, default 512³).

use ascendc::adv::matmul::{
    CubeFormat, MatmulCore, MatmulSpec, MatmulTilingRequest, MmDataType as D, MmInput,
    MmPosition as P, TCubeTiling, TilingKind,
};
use ascendc::chip::ChipProfile;
use ascendc::prelude::*;
use ascendc::DType;
mod common;

use std::hint::black_box;
use std::time::Duration;

const RUNS: usize = 3;

/// Median wall time of `RUNS` runs of `f`.
fn time(f: impl FnMut()) -> Duration {
    common::median_time(RUNS, f)
}

fn tiling(m: u32, n: u32, k: u32, a: D, c: D) -> TCubeTiling {
    let p = ChipProfile::by_name("A2").expect("A2 profile");
    let mut r = MatmulTilingRequest::new(p, TilingKind::MultiCore);
    r.set_a_type(P::GM, CubeFormat::ND, a, false)
        .set_b_type(P::GM, CubeFormat::ND, a, false)
        .set_c_type(P::GM, CubeFormat::ND, c)
        .set_bias_type(P::GM, CubeFormat::ND, c)
        .set_shape(m as i32, n as i32, k as i32)
        .set_org_shape(m as i32, n as i32, k as i32, k as i32)
        .set_dim(1);
    r.get_tiling().expect("tiling")
}

/// C = A × B on one cube core, whole matrices.
fn simulate<A: MmInput + Element, C: Element>(
    t: &TCubeTiling,
    spec: MatmulSpec,
    a: &[A],
    b: &[A],
) -> Vec<C> {
    let (ga, gb) = (GmBuffer::from_slice(a), GmBuffer::from_slice(b));
    let gc = GmBuffer::zeroed(t.M as usize * t.N as usize * C::SIZE);
    let (aa, ba, ca, t) = (ga.addr(), gb.addr(), gc.addr(), *t);
    Launch::new(1)
        .kernel_mode(KernelMode::Aic)
        .record_trace(false)
        .run(|| {
            let mut pipe = TPipe::new();
            let mut mm = MatmulCore::<A, C, C>::new(spec);
            mm.init(&mut pipe, &t)?;
            let (mut x, mut y, mut z) = (
                GlobalTensor::<A>::new(),
                GlobalTensor::<A>::new(),
                GlobalTensor::<C>::new(),
            );
            x.set_global_buffer(aa.clone());
            y.set_global_buffer(ba.clone());
            z.set_global_buffer(ca.clone());
            mm.set_tensor_a(&x, false)?;
            mm.set_tensor_b(&y, false)?;
            mm.iterate_all(&z, 0)?;
            mm.end()
        })
        .expect("matmul runs");
    gc.to_vec()
}

/// The cube's half → float order natively: per element, 16-wide K fractals, each summed exactly
/// in f64 onto the fp32 accumulator and rounded once.
fn native_half(a: &[f16], b: &[f16], (m, n, k): (usize, usize, usize)) -> Vec<f32> {
    let (a, b): (Vec<f64>, Vec<f64>) = (
        a.iter().map(|v| v.to_f64()).collect(),
        b.iter().map(|v| v.to_f64()).collect(),
    );
    let mut c = vec![0f32; m * n];
    let mut s = vec![0f64; n];
    for i in 0..m {
        let acc = &mut c[i * n..(i + 1) * n];
        for f in (0..k).step_by(16) {
            for (sj, &aj) in s.iter_mut().zip(acc.iter()) {
                *sj = aj as f64;
            }
            for kk in f..(f + 16).min(k) {
                let av = a[i * k + kk];
                for (sj, &bv) in s.iter_mut().zip(&b[kk * n..(kk + 1) * n]) {
                    *sj += av * bv;
                }
            }
            for (aj, &sj) in acc.iter_mut().zip(&s) {
                *aj = sj as f32;
            }
        }
    }
    c
}

fn native_int8(a: &[i8], b: &[i8], (m, n, k): (usize, usize, usize)) -> Vec<i32> {
    let mut c = vec![0i32; m * n];
    for i in 0..m {
        let row = &mut c[i * n..(i + 1) * n];
        for kk in 0..k {
            let av = a[i * k + kk] as i32;
            for (cj, &bv) in row.iter_mut().zip(&b[kk * n..(kk + 1) * n]) {
                *cj = cj.wrapping_add(av * bv as i32);
            }
        }
    }
    c
}

fn row(name: &str, sim: Duration, native: Duration, macs: f64) {
    println!(
        "{name:<30} {:>10.2?} {:>10.2?} {:>7.2}x {:>8.0} M MAC/s",
        sim,
        native,
        sim.as_secs_f64() / native.as_secs_f64(),
        macs / sim.as_secs_f64() / 1e6
    );
}

fn main() {
    let dims: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let (m, n, k) = match dims[..] {
        [m, n, k, ..] => (m, n, k),
        _ => (512, 512, 512),
    };
    let macs = (m * n * k) as f64;
    println!("Matmul {m} × {n} × {k} on one cube core (A2), median of {RUNS} runs");
    println!(
        "{:<30} {:>10} {:>10} {:>8}",
        "", "simulated", "native", "ratio"
    );

    let a: Vec<f16> = (0..m * k)
        .map(|i| f16::from_f32(((i * 37 % 257) as f32 - 128.0) / 32.0))
        .collect();
    let b: Vec<f16> = (0..k * n)
        .map(|i| f16::from_f32(((i * 91 % 251) as f32 - 125.0) / 64.0))
        .collect();
    let t = tiling(m as u32, n as u32, k as u32, D::Float16, D::Float);
    let spec = MatmulSpec::gm(DType::Half, DType::Float, DType::Float);
    let mut got = Vec::new();
    let sim = time(|| got = simulate::<f16, f32>(&t, spec, &a, &b));
    let mut want = Vec::new();
    let native = time(|| want = black_box(native_half(&a, &b, (m, n, k))));
    assert!(
        got.iter()
            .zip(&want)
            .all(|(g, w)| g.to_bits() == w.to_bits()),
        "simulated and native half results differ"
    );
    row("half × half → float", sim, native, macs);

    let a: Vec<i8> = (0..m * k).map(|i| (i * 37 % 255) as u8 as i8).collect();
    let b: Vec<i8> = (0..k * n).map(|i| (i * 91 % 253) as u8 as i8).collect();
    let t = tiling(m as u32, n as u32, k as u32, D::Int8, D::Int32);
    let spec = MatmulSpec::gm(DType::Int8, DType::Int32, DType::Int32);
    let mut got = Vec::new();
    let sim = time(|| got = simulate::<i8, i32>(&t, spec, &a, &b));
    let mut want = Vec::new();
    let native = time(|| want = black_box(native_int8(&a, &b, (m, n, k))));
    assert_eq!(got, want, "simulated and native int8 results differ");
    row("int8 × int8 → int32", sim, native, macs);
}
