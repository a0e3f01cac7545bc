//! Block schedules: the order in which a launch starts its blocks and, when blocks synchronise
//! across cores, which runnable block proceeds at each synchronisation point.

use std::fmt;

/// How a launch orders its blocks.
///
/// Without a schedule ([`Launch::schedule`](crate::Launch::schedule) never called) blocks run
/// in parallel on host threads and the interleaving is whatever the host gives. With one, exactly
/// one block runs at a time and the schedule decides, at every block start and every
/// synchronisation point (`SyncAll`, `IBSet`/`IBWait`, `CrossCoreSetFlag`/`CrossCoreWaitFlag`),
/// which runnable block continues — the same schedule always gives the same run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Schedule {
    /// Lowest runnable core of the launch first (block order).
    Order,
    /// Highest runnable core first (reverse block order).
    Reverse,
    /// A pseudo-random runnable core, drawn from a generator seeded with the value.
    Shuffle(u64),
}

impl Schedule {
    /// Parses `order`, `reverse` or `shuffle:SEED`.
    pub fn parse(s: &str) -> Option<Schedule> {
        match s {
            "order" => Some(Schedule::Order),
            "reverse" => Some(Schedule::Reverse),
            _ => s
                .strip_prefix("shuffle:")
                .and_then(|n| n.parse().ok())
                .map(Schedule::Shuffle),
        }
    }

    /// The `i`-th schedule of a schedule check: order, reverse, then shuffles seeded 1, 2, ….
    pub fn nth(i: usize) -> Schedule {
        match i {
            0 => Schedule::Order,
            1 => Schedule::Reverse,
            _ => Schedule::Shuffle(i as u64 - 1),
        }
    }
}

impl fmt::Display for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Schedule::Order => f.write_str("order"),
            Schedule::Reverse => f.write_str("reverse"),
            Schedule::Shuffle(s) => write!(f, "shuffle:{s}"),
        }
    }
}

/// Picks one of `candidates` (sorted core indices, non-empty) as the schedule says.
pub(crate) fn pick(schedule: Schedule, rng: &mut u64, candidates: &[usize]) -> usize {
    match schedule {
        Schedule::Order => candidates[0],
        Schedule::Reverse => candidates[candidates.len() - 1],
        Schedule::Shuffle(_) => candidates[(splitmix(rng) % candidates.len() as u64) as usize],
    }
}

/// The splitmix64 generator: the next value from `state`.
pub(crate) fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_pick() {
        assert_eq!(Schedule::parse("shuffle:7"), Some(Schedule::Shuffle(7)));
        assert_eq!(Schedule::parse("reverse"), Some(Schedule::Reverse));
        assert_eq!(Schedule::parse("random"), None);
        let mut r = 0;
        assert_eq!(pick(Schedule::Reverse, &mut r, &[1, 4, 9]), 9);
        let a: Vec<usize> = (0..8)
            .map(|_| pick(Schedule::Shuffle(3), &mut r, &[0, 1, 2, 3]))
            .collect();
        assert!(a.iter().any(|&x| x != a[0]), "{a:?}");
    }
}
