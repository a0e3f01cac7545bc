//! A realistic multi-core Add kernel: blockDim 8, 8×2048 float inputs, each block's 2048
//! elements tiled into 8 tiles and double-buffered, checked against a golden computed on the host.
//!
//! Run: `cargo run --release --example add_custom`

#[path = "kernels/add.rs"]
mod kernels;

use ascendc::prelude::*;
use kernels::{add_custom, AddTiling};

const BLOCK_DIM: u32 = 8;
const TOTAL_LENGTH: u32 = 8 * 2048;

fn main() {
    let n = TOTAL_LENGTH as usize;
    let x: Vec<f32> = (0..n)
        .map(|i| ((i * 7919) % 1000) as f32 / 7.0 - 50.0)
        .collect();
    let y: Vec<f32> = (0..n).map(|i| ((i * 104_729) % 997) as f32 / 3.0).collect();
    let golden: Vec<f32> = x.iter().zip(&y).map(|(a, b)| a + b).collect();
    let (xg, yg, zg) = (
        GmBuffer::from_slice(&x),
        GmBuffer::from_slice(&y),
        GmBuffer::zeroed(n * 4),
    );
    let (xa, ya, za) = (xg.addr(), yg.addr(), zg.addr());
    let tiling = AddTiling {
        total_length: TOTAL_LENGTH,
        tile_num: 8,
    };
    let started = std::time::Instant::now();
    let result =
        Launch::new(BLOCK_DIM).run(|| add_custom(xa.clone(), ya.clone(), za.clone(), tiling));
    let elapsed = started.elapsed();
    let report = match result {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            println!("FAIL");
            std::process::exit(1);
        }
    };
    let out = zg.to_vec::<f32>();
    let mismatches = out
        .iter()
        .zip(&golden)
        .filter(|(a, b)| a.to_bits() != b.to_bits())
        .count();
    let counts = report.total_counts();
    println!(
        "{} blocks on {} in {:.2?}: MTE2 {} / V {} / MTE3 {} instructions, {} diagnostics",
        report.blocks.len(),
        report.profile.soc,
        elapsed,
        counts[Pipe::MTE2 as usize],
        counts[Pipe::V as usize],
        counts[Pipe::MTE3 as usize],
        report.diagnostics().count()
    );
    println!("{mismatches} of {n} elements differ from the golden");
    println!("{}", if mismatches == 0 { "PASS" } else { "FAIL" });
    if mismatches != 0 {
        std::process::exit(1);
    }
}
