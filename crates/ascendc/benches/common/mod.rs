//! What the benches share: the median wall time of a few runs.

use std::time::{Duration, Instant};

/// Median wall time of `runs` runs of `f`.
pub fn median_time(runs: usize, mut f: impl FnMut()) -> Duration {
    let mut t: Vec<Duration> = (0..runs)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed()
        })
        .collect();
    t.sort();
    t[runs / 2]
}
