//! Simulator throughput against native Rust doing the same arithmetic in the same run.
//!
//! Run: `cargo bench -p ascendc --bench throughput` (optionally `-- <elements>`).
//!
//! First the `add_custom` kernel end to end (GM → UB → vector → GM on `blockDim` blocks), then
//! single vector instructions on data that stays in UB, each against a native loop doing the
//! same arithmetic in the same order; the results are compared bit for bit.

mod common;
#[path = "../examples/kernels/add.rs"]
mod kernels;

use ascendc::prelude::*;
use kernels::{add_custom, AddTiling};
use std::hint::black_box;
use std::time::Duration;

const RUNS: usize = 5;

/// Median wall time of `RUNS` runs of `f`.
fn time(f: impl FnMut()) -> Duration {
    common::median_time(RUNS, f)
}

fn row(name: &str, sim: Duration, native: Duration, n: usize) {
    println!(
        "{name:<34} {:>10.2?} {:>10.2?} {:>7.2}x {:>9.0} M elem/s",
        sim,
        native,
        sim.as_secs_f64() / native.as_secs_f64(),
        n as f64 / sim.as_secs_f64() / 1e6
    );
}

fn main() {
    let n: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(16 << 20);
    let block_dim = 8u32;
    let tiling = AddTiling {
        total_length: n as u32,
        tile_num: (n as u32 / block_dim / 2 / 4096).max(1),
    };
    let x: Vec<f32> = (0..n).map(|i| (i % 1000) as f32 * 0.5).collect();
    let y: Vec<f32> = (0..n).map(|i| (i % 777) as f32 * 0.25).collect();
    let (xg, yg, zg) = (
        GmBuffer::from_slice(&x),
        GmBuffer::from_slice(&y),
        GmBuffer::zeroed(n * 4),
    );
    let (xa, ya, za) = (xg.addr(), yg.addr(), zg.addr());
    let threads = std::thread::available_parallelism().map_or(1, |t| t.get());
    println!("{n} float elements, blockDim {block_dim}, median of {RUNS} runs, {threads} host threads available");
    println!(
        "{:<34} {:>10} {:>10} {:>8}",
        "", "simulated", "native", "ratio"
    );

    let mut z = vec![0f32; n];
    let native = time(|| {
        for ((o, a), b) in z.iter_mut().zip(&x).zip(&y) {
            *o = a + b;
        }
        black_box(&mut z);
    });
    let launch = |l: Launch| {
        time(|| {
            l.clone()
                .record_trace(false)
                .run(|| add_custom(xa.clone(), ya.clone(), za.clone(), tiling))
                .expect("kernel runs");
        })
    };
    let one_thread = launch(Launch::new(block_dim).threads(1));
    let all_threads = launch(Launch::new(block_dim));
    assert_eq!(zg.to_vec::<f32>(), z, "simulated and native results differ");
    row("add_custom, 1 host thread", one_thread, native, n);
    row(
        &format!("add_custom, {threads} host threads"),
        all_threads,
        native,
        n,
    );
    let traced = time(|| {
        Launch::new(block_dim)
            .run(|| add_custom(xa.clone(), ya.clone(), za.clone(), tiling))
            .expect("kernel runs");
    });
    row("add_custom, full instruction record", traced, native, n);

    println!("\nvector unit on UB-resident data, {n} elements per op, 1 host thread");
    ub_resident(n);
}

/// Elements per UB tile in the UB-resident runs.
const TILE: u32 = 8192;

/// Runs `op(dst, src0, src1)` over `n / TILE` tiles that stay in UB, one block on one thread.
fn sim_tiles(
    n: usize,
    x: &[f32],
    y: &[f32],
    op: impl Fn(&LocalTensor<f32>, &LocalTensor<f32>, &LocalTensor<f32>) -> Result<()> + Sync,
) -> (Duration, Vec<f32>) {
    let (xg, yg, zg) = (
        GmBuffer::from_slice(x),
        GmBuffer::from_slice(y),
        GmBuffer::zeroed(TILE as usize * 4),
    );
    let (xa, ya, za) = (xg.addr(), yg.addr(), zg.addr());
    let iters = n / TILE as usize;
    let kernel = || {
        let mut pipe = TPipe::new();
        let mut buf: TBuf<QuePosition::VECCALC> = TBuf::new();
        pipe.init_buffer(&mut buf, 1, 3 * TILE * 4)?;
        let xl = buf.get_with_offset::<f32>(TILE, 0)?;
        let yl = buf.get_with_offset::<f32>(TILE, TILE * 4)?;
        let zl = buf.get_with_offset::<f32>(TILE, 2 * TILE * 4)?;
        let (mut gx, mut gy, mut gz) = (
            GlobalTensor::new(),
            GlobalTensor::new(),
            GlobalTensor::new(),
        );
        gx.set_global_buffer(xa.clone());
        gy.set_global_buffer(ya.clone());
        gz.set_global_buffer(za.clone());
        data_copy(&xl, &gx, TILE)?;
        data_copy(&yl, &gy, TILE)?;
        for _ in 0..iters {
            op(&zl, &xl, &yl)?;
        }
        data_copy(&gz, &zl, TILE)
    };
    let t = time(|| {
        Launch::new(1)
            .record_trace(false)
            .run(kernel)
            .expect("kernel runs");
    });
    (t, zg.to_vec())
}

/// Pairwise-tree sum of 64 floats, neighbours first (the vector unit's reduction order).
fn tree64(chunk: &[f32]) -> f32 {
    let mut v = [0f32; 64];
    v.copy_from_slice(chunk);
    let mut m = 64;
    while m > 1 {
        for i in 0..m / 2 {
            v[i] = v[2 * i] + v[2 * i + 1];
        }
        m /= 2;
    }
    v[0]
}

fn ub_resident(n: usize) {
    let t = TILE as usize;
    let x: Vec<f32> = (0..t).map(|i| (i % 1000) as f32 * 0.5).collect();
    let y: Vec<f32> = (0..t).map(|i| (i % 777) as f32 * 0.25).collect();
    let iters = n / t;

    let (sim, out) = sim_tiles(n, &x, &y, |z, a, b| add(z, a, b, TILE as i32));
    let mut z = vec![0f32; t];
    let native = time(|| {
        for _ in 0..iters {
            for ((o, a), b) in z.iter_mut().zip(&x).zip(black_box(&y)) {
                *o = a + b;
            }
            black_box(&mut z);
        }
    });
    assert_eq!(out, z, "add differs from native");
    row("add (level 2)", sim, native, n);

    let xs: Vec<f32> = x.iter().map(|v| v / 100.0 - 2.0).collect();
    let (sim, out) = sim_tiles(n, &xs, &y, |z, a, _| exp(z, a, TILE as i32));
    let native = time(|| {
        for _ in 0..iters {
            for (o, a) in z.iter_mut().zip(black_box(&xs)) {
                *o = (*a as f64).exp() as f32;
            }
            black_box(&mut z);
        }
    });
    assert_eq!(out, z, "exp differs from native");
    row("exp (level 2, binary64 reference)", sim, native, n);

    let (sim, out) = sim_tiles(n, &x, &y, |z, a, _| {
        repeat_reduce_sum(z, a, (TILE / 64) as i32, 64, 0, 1, 1, 8)
    });
    let mut r = vec![0f32; t / 64];
    let native = time(|| {
        for _ in 0..iters {
            for (o, c) in r.iter_mut().zip(black_box(&x).chunks(64)) {
                *o = tree64(c);
            }
            black_box(&mut r);
        }
    });
    assert_eq!(
        out[..t / 64],
        r[..],
        "repeat_reduce_sum differs from native"
    );
    row("repeat_reduce_sum (64 per repeat)", sim, native, n);
}
