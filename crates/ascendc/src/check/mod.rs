//! Checks that read the instruction record after a launch.

mod gm_overlap;
mod hazard;

pub use gm_overlap::multi_core_gm_overlap;
pub use hazard::{hazards, hazards_and_forget, release_state};

use crate::core::trace::Access;

/// The byte runs `[start, end)` of an access pattern, sorted by start.
pub(crate) fn runs(acc: &Access) -> Vec<(u64, u64)> {
    let mut out = Vec::new();
    runs_into(acc, &mut out);
    out
}

/// [`runs`] into `out` (cleared first), reusing its storage.
pub(crate) fn runs_into(acc: &Access, out: &mut Vec<(u64, u64)>) {
    out.clear();
    out.reserve((acc.blocks as usize) * (acc.repeats as usize));
    for r in 0..acc.repeats as u64 {
        for k in 0..acc.blocks as u64 {
            let start = acc.base + r * acc.repeat_stride + k * acc.block_stride;
            out.push((start, start + acc.len as u64));
        }
    }
    out.sort_unstable();
}

/// The span (first shared byte, last shared byte + 1) of what two sorted run lists share, if
/// they share anything.
pub(crate) fn overlap_span(a: &[(u64, u64)], b: &[(u64, u64)]) -> Option<(u64, u64)> {
    let (mut i, mut j) = (0, 0);
    let mut span: Option<(u64, u64)> = None;
    while i < a.len() && j < b.len() {
        let lo = a[i].0.max(b[j].0);
        let hi = a[i].1.min(b[j].1);
        if lo < hi {
            span = Some(span.map_or((lo, hi), |(s, e)| (s.min(lo), e.max(hi))));
        }
        // A run that ends first cannot meet any later run of the other list.
        if a[i].1 <= b[j].1 {
            i += 1;
        } else {
            j += 1;
        }
    }
    span
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::trace::Space;
    use crate::position::Hardware;

    #[test]
    fn overlap_of_strided_patterns() {
        let a = Access {
            write: true,
            space: Space::Local(Hardware::UB),
            base: 0,
            len: 32,
            blocks: 4,
            block_stride: 64,
            repeats: 1,
            repeat_stride: 0,
        };
        let b = Access { base: 32, ..a };
        assert_eq!(overlap_span(&runs(&a), &runs(&b)), None);
        let c = Access { base: 48, ..a };
        assert_eq!(overlap_span(&runs(&a), &runs(&c)), Some((64, 208)));
    }
}
