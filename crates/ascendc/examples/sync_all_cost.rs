//! What a hardware SyncAll costs in the simulator: 40 vector blocks on Atlas A2, 100 phases of
//! tiny work (one scalar GM store) each ended by `SyncAll()`, against the same launch without
//! the barriers. Prints the time per SyncAll (all 40 cores passing one barrier).
//!
//! `cargo run --release -p ascendc --example sync_all_cost`

use ascendc::prelude::*;
use ascendc::sync_all;
use std::time::Instant;

const BLOCKS: u32 = 40;
const PHASES: u32 = 100;

fn launch(out: &GmAddr, sync: bool) -> f64 {
    let start = Instant::now();
    Launch::new(BLOCKS)
        .record_trace(false)
        .run(|| {
            let mut g = GlobalTensor::<i32>::new();
            g.set_global_buffer(out.clone());
            for phase in 0..PHASES {
                g.set_value(get_block_idx() as u64, phase as i32)?;
                if sync {
                    sync_all()?;
                }
            }
            Ok(())
        })
        .expect("the launch runs");
    start.elapsed().as_secs_f64()
}

fn main() {
    let out = GmBuffer::zeroed(BLOCKS as usize * 4);
    let a = out.addr();
    let best = |sync: bool| {
        (0..5)
            .map(|_| launch(&a, sync))
            .fold(f64::INFINITY, f64::min)
    };
    let (with, without) = (best(true), best(false));
    println!(
        "{BLOCKS} blocks x {PHASES} phases: {:.2} ms with SyncAll, {:.2} ms without: {:.1} us per SyncAll",
        with * 1e3,
        without * 1e3,
        (with - without) / PHASES as f64 * 1e6
    );
}
