//! The API fuzzer at any size: `cargo run --release --example fuzz_api -- CALLS [SEED]` makes
//! CALLS random API calls (default 1,000,000) on Atlas A2 and prints what it found; exits 1 when
//! an invariant broke (a panic escaping a call, a failed call that changed memory, a successful
//! call that wrote outside its destination).

#[path = "../tests/basic/fuzz_engine/mod.rs"]
mod fuzz;

use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let calls: u64 = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(0x5EED);
    let start = Instant::now();
    let f = fuzz::fuzz(seed, calls, &ascendc::chip::ASCEND910B);
    println!(
        "{} calls (seed {seed}) in {:.1} s: {} errors, {} escaped panics, {} failed calls that changed memory, {} writes outside destinations",
        f.calls,
        start.elapsed().as_secs_f64(),
        f.errors,
        f.panics.len(),
        f.changed_on_error.len(),
        f.wrote_outside.len()
    );
    println!("slowest call: {:.3} s: {}", f.slowest.0, f.slowest.1);
    for x in f
        .panics
        .iter()
        .chain(&f.changed_on_error)
        .chain(&f.wrote_outside)
        .take(20)
    {
        println!("  {x}");
    }
    std::process::exit(if f.clean() { 0 } else { 1 });
}
