//! The API fuzzer at CI size: 100,000 random calls (`ASCENDC_FUZZ_CALLS` changes the count,
//! `ASCENDC_FUZZ_SEED` the seed) on A2 and a share on 910, whose lowering differs.

use crate::fuzz_engine;

use ascendc::chip::{ASCEND910, ASCEND910B};

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn random_api_calls_break_no_invariant() {
    let calls = env("ASCENDC_FUZZ_CALLS", 100_000);
    let seed = env("ASCENDC_FUZZ_SEED", 0x5EED);
    for (profile, share) in [(&ASCEND910B, 4), (&ASCEND910, 1)] {
        let f = fuzz_engine::fuzz(seed, calls * share / 5, profile);
        assert!(f.clean(), "{profile}: {f:#?}");
        // The generator must reach both outcomes, or it tests nothing.
        assert!(
            f.errors > f.calls / 10 && f.errors < f.calls * 9 / 10,
            "{f:?}"
        );
    }
}
