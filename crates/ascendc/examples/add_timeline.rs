//! The multi-core Add kernel of `add_custom` with its estimated timeline: writes a Chrome/Perfetto
//! trace (open it in ui.perfetto.dev, `chrome://tracing` or speedscope) and prints the timing
//! report: per-pipe utilisation, double-buffer overlap, stalls and UB bank conflicts.
//!
//! Run: `cargo run --release --example add_timeline -- [trace.json]`

#[path = "kernels/add.rs"]
mod kernels;

use ascendc::prelude::*;
use kernels::{add_custom, AddTiling};

const BLOCK_DIM: u32 = 4;
const TOTAL_LENGTH: u32 = 4 * 8192;

fn main() {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "add_timeline.json".to_string());
    let n = TOTAL_LENGTH as usize;
    let x: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
    let y: Vec<f32> = (0..n).map(|i| (i % 97) as f32).collect();
    let (xg, yg, zg) = (
        GmBuffer::from_slice(&x),
        GmBuffer::from_slice(&y),
        GmBuffer::zeroed(n * 4),
    );
    let (xa, ya, za) = (xg.addr(), yg.addr(), zg.addr());
    let tiling = AddTiling {
        total_length: TOTAL_LENGTH,
        tile_num: 4,
    };
    let started = std::time::Instant::now();
    let report = Launch::new(BLOCK_DIM)
        .trace(&path)
        .report(true)
        .run(|| add_custom(xa.clone(), ya.clone(), za.clone(), tiling))
        .unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(1)
        });
    let elapsed = started.elapsed();
    let ok = zg
        .to_vec::<f32>()
        .iter()
        .zip(x.iter().zip(&y))
        .all(|(z, (a, b))| *z == a + b);
    println!("{report}");
    println!("trace written to {path}; simulated and timed in {elapsed:.2?}");
    println!("{}", if ok { "PASS" } else { "FAIL" });
    if !ok {
        std::process::exit(1);
    }
}
