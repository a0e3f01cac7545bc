//! Per-call and per-block overhead: the double-buffered add pattern at the tile sizes real
//! kernels use, against a native loop in the same run, the launch cost of an empty kernel, and
//! the add pattern with two small tiles per block at the empty kernel's blockDim.
//!
//! Run: `cargo run --release -p ascendc --example overhead [-- <elements> <empty blockDim>]`
//! (0 elements skips the add pattern, an empty blockDim of 0 the empty kernel and the small
//! blocks).
//! Prints the peak memory a default launch and a hazard-checked one add at the smallest tile, one
//! row per tile size (simulated time and its ratio to the native loop) with the instruction
//! record off, kept, and with the hazard checker (also as a ratio to the record-off time), and
//! with the record off on one host thread (then the speed-up of the default threads over one),
//! and with a timing report (the launch with its timeline, also as a ratio to the record-off
//! time), then the cost per block of an empty kernel and of the add pattern at 256
//! floats per block (plain and with the hazard checker). Each simulated run is paired with a
//! native run just before it, and a ratio is the median of the pairs' ratios, so that the
//! machine's drift between runs (memory bandwidth on a shared host) does not show as a change
//! of ratio.

#[path = "kernels/add.rs"]
mod kernels;

use ascendc::prelude::*;
use kernels::{add_custom, AddTiling, BUFFER_NUM};
use std::hint::black_box;
use std::time::{Duration, Instant};

const RUNS: usize = 5;

/// Wall time of one run of `f`.
fn once(f: &mut impl FnMut()) -> Duration {
    let s = Instant::now();
    f();
    s.elapsed()
}

/// The median of `v`.
fn median<T: PartialOrd + Copy>(mut v: Vec<T>) -> T {
    v.sort_by(|a, b| a.partial_cmp(b).expect("no NaN"));
    v[v.len() / 2]
}

/// Median wall time of `RUNS` runs of `f`.
fn time(mut f: impl FnMut()) -> Duration {
    median((0..RUNS).map(|_| once(&mut f)).collect())
}

/// `RUNS` runs of `f`, each after a run of `native`: the median time of `f` and the median of
/// the pairs' time ratios.
fn paired(native: &mut impl FnMut(), mut f: impl FnMut()) -> (Duration, f64) {
    let pairs: Vec<(Duration, f64)> = (0..RUNS)
        .map(|_| {
            let n = once(native);
            let t = once(&mut f);
            (t, t.as_secs_f64() / n.as_secs_f64())
        })
        .collect();
    (
        median(pairs.iter().map(|p| p.0).collect()),
        median(pairs.iter().map(|p| p.1).collect()),
    )
}

fn main() {
    let mut args = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse::<usize>().ok());
    let n = args.next().unwrap_or(16 << 20);
    let empty_blocks = args.next().unwrap_or(65_535) as u32;
    // Every block takes whole double-buffered tiles of the largest size.
    const UNIT: usize = 8 * 2 * 2048;
    if n % UNIT != 0 {
        eprintln!("overhead: <elements> = {n} must be a multiple of {UNIT} (8 blocks x 2 buffers x 2048-element tiles)");
        std::process::exit(2);
    }
    if n > 0 {
        add_pattern(n);
    }
    if empty_blocks == 0 {
        return;
    }
    let empty = time(|| {
        Launch::new(empty_blocks)
            .record_trace(false)
            .run(|| Ok(()))
            .expect("kernel runs");
    });
    println!(
        "empty kernel, blockDim {empty_blocks}: {empty:.2?}, {:.2} µs per block",
        empty.as_secs_f64() * 1e6 / empty_blocks as f64
    );
    small_blocks(empty_blocks);
}

/// Floats per block of [`small_blocks`]: two 128-element tiles.
const SMALL_BLOCK: usize = 256;

/// The add pattern with little work per block and many blocks (one block per token and head is
/// common in LLM operators): `blocks` blocks of [`SMALL_BLOCK`] floats, against a native loop.
fn small_blocks(blocks: u32) {
    let n = blocks as usize * SMALL_BLOCK;
    let (x, y, [xg, yg, zg]) = add_inputs(n);
    let (xa, ya, za) = (xg.addr(), yg.addr(), zg.addr());
    let mut z = vec![0f32; n];
    let mut native_loop = || native_add(&x, &y, &mut z);
    let tiling = AddTiling {
        total_length: n as u32,
        tile_num: (SMALL_BLOCK / BUFFER_NUM as usize / 128) as u32,
    };
    let run = |check: bool| {
        Launch::new(blocks)
            .record_trace(false)
            .check_hazards(check)
            .run(|| add_custom(xa.clone(), ya.clone(), za.clone(), tiling))
            .expect("kernel runs");
    };
    let (sim, ratio) = paired(&mut native_loop, || run(false));
    check_sum(&zg, &x, &y);
    println!(
        "add pattern, blockDim {blocks}, {SMALL_BLOCK} floats per block (two 128-float tiles): {sim:.2?} ({:.2} µs per block), {ratio:.2}x the native loop",
        sim.as_secs_f64() * 1e6 / blocks as f64
    );
    let (checked, ratio) = paired(&mut native_loop, || run(true));
    println!(
        "  with the hazard checker: {checked:.2?} ({:.2} µs per block), {ratio:.2}x the native loop, {:.2}x the plain run",
        checked.as_secs_f64() * 1e6 / blocks as f64,
        checked.as_secs_f64() / sim.as_secs_f64()
    );
}

/// The add pattern over `n` floats at three tile sizes, record off and on, against native.
fn add_pattern(n: usize) {
    let block_dim = 8u32;
    let (x, y, [xg, yg, zg]) = add_inputs(n);
    let (xa, ya, za) = (xg.addr(), yg.addr(), zg.addr());
    let mut z = vec![0f32; n];
    let mut native_loop = || native_add(&x, &y, &mut z);
    let native = time(&mut native_loop);
    println!(
        "add pattern, {n} floats, blockDim {block_dim}, depth-2 queues, median of {RUNS} runs"
    );
    println!("native loop: {native:.2?}");
    // Memory first, while the high-water mark is still that of the data, at the smallest tile.
    let tiling = AddTiling {
        total_length: n as u32,
        tile_num: n as u32 / block_dim / BUFFER_NUM / 128,
    };
    let before = peak_rss_kib();
    // A default launch (the GM race check on, no instruction record), then one with the hazard
    // checker, which keeps the record in the report (the high-water mark only grows, so the
    // second figure includes the first launch).
    for (what, check) in [("default launch", false), ("hazard checker", true)] {
        Launch::new(block_dim)
            .check_hazards(check)
            .run(|| add_custom(xa.clone(), ya.clone(), za.clone(), tiling))
            .expect("kernel runs");
        if let (Some(b), Some(a)) = (before, peak_rss_kib()) {
            println!(
                "peak RSS above the data, {what} at tile 128: {:.1} MiB",
                a.saturating_sub(b) as f64 / 1024.0
            );
        }
    }
    println!(
        "{:>6} {:>12} {:>8} {:>12} {:>8} {:>12} {:>8} {:>9} {:>12} {:>8} {:>12} {:>9}",
        "tile",
        "record off",
        "ratio",
        "record kept",
        "ratio",
        "hazard check",
        "ratio",
        "over off",
        "1 thread",
        "speed-up",
        "timing",
        "over off"
    );
    for tile in [128u32, 512, 2048] {
        let tiling = AddTiling {
            total_length: n as u32,
            tile_num: n as u32 / block_dim / BUFFER_NUM / tile,
        };
        let mut run = |record: bool, check: bool, threads: Option<usize>, timing: bool| {
            paired(&mut native_loop, || {
                let launch = Launch::new(block_dim);
                let launch = match threads {
                    Some(n) => launch.threads(n),
                    None => launch,
                };
                let report = launch
                    .record_trace(record)
                    .check_hazards(check)
                    .report(timing)
                    .run(|| add_custom(xa.clone(), ya.clone(), za.clone(), tiling))
                    .expect("kernel runs");
                assert_eq!(report.diagnostics().count(), 0, "the add kernel is correct");
                assert_eq!(report.timeline.is_some(), timing);
            })
        };
        let (off, on, checked, one, timed) = (
            run(false, false, None, false),
            run(true, false, None, false),
            run(false, true, None, false),
            run(false, false, Some(1), false),
            run(false, false, None, true),
        );
        check_sum(&zg, &x, &y);
        println!(
            "{tile:>6} {:>12.2?} {:>7.2}x {:>12.2?} {:>7.2}x {:>12.2?} {:>7.2}x {:>8.2}x {:>12.2?} {:>7.2}x {:>12.2?} {:>8.1}x",
            off.0,
            off.1,
            on.0,
            on.1,
            checked.0,
            checked.1,
            checked.0.as_secs_f64() / off.0.as_secs_f64(),
            one.0,
            one.0.as_secs_f64() / off.0.as_secs_f64(),
            timed.0,
            timed.0.as_secs_f64() / off.0.as_secs_f64()
        );
    }
}

/// The two input vectors of the add pattern over `n` floats, and GM holding them and a zeroed
/// output.
fn add_inputs(n: usize) -> (Vec<f32>, Vec<f32>, [GmBuffer; 3]) {
    let x: Vec<f32> = (0..n).map(|i| (i % 1000) as f32 * 0.5).collect();
    let y: Vec<f32> = (0..n).map(|i| (i % 777) as f32 * 0.25).collect();
    let gm = [
        GmBuffer::from_slice(&x),
        GmBuffer::from_slice(&y),
        GmBuffer::zeroed(n * 4),
    ];
    (x, y, gm)
}

/// The native loop the simulated add is timed against: `z = x + y`.
fn native_add(x: &[f32], y: &[f32], z: &mut [f32]) {
    for ((o, a), b) in z.iter_mut().zip(x).zip(y) {
        *o = a + b;
    }
    black_box(z);
}

/// Panics unless GM output `zg` holds `x + y` exactly.
fn check_sum(zg: &GmBuffer, x: &[f32], y: &[f32]) {
    let expected: Vec<f32> = x.iter().zip(y).map(|(a, b)| a + b).collect();
    assert_eq!(
        zg.to_vec::<f32>(),
        expected,
        "simulated and native results differ"
    );
}

/// The process's peak resident set (`VmHWM`), in KiB, where the OS reports it.
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
