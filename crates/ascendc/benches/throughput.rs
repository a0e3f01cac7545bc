//! Simulator throughput against native Rust doing the same arithmetic in the same run.
//!
//! Run: `cargo bench -p ascendc --bench throughput` (optionally `-- <elements>`).

#[path = "../examples/kernels/add.rs"]
mod kernels;

use ascendc::prelude::*;
use kernels::{add_custom, AddTiling};
use std::hint::black_box;
use std::time::{Duration, Instant};

const RUNS: usize = 5;

/// Median wall time of `RUNS` runs of `f`.
fn time(mut f: impl FnMut()) -> Duration {
    let mut t: Vec<Duration> = (0..RUNS)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed()
        })
        .collect();
    t.sort();
    t[RUNS / 2]
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
}
