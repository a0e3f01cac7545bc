//! The level-2 fast path of element-wise calls whose operands all have one element type: when
//! every operand is a whole-block-aligned run of the first `count` elements of a live UB tensor
//! and the destination either is a source exactly or overlaps none, the call is one contiguous
//! pass over the elements. The general path ([`super::run`]) gives the same bytes, counts and
//! mask state, and reports any error; this path only steps aside.

use super::BLOCK;
use crate::api::tensor::{LocalTensor, Owner};
use crate::core::trace::Pipe;
use crate::core::vector::contiguous_mask_bits;
use crate::core::Core;
use crate::dtype::Element;
use crate::position::Hardware;

/// The element count of a level-2 call of `n` elements writing `dst` from `srcs` when it can run
/// as one contiguous pass (no instruction record or IA check active); `None` sends the call down
/// the general path.
#[inline]
pub(crate) fn same_type_run<T: Element>(
    core: &Core,
    api: &'static str,
    n: i64,
    dst: &LocalTensor<T>,
    srcs: &[&LocalTensor<T>],
) -> Option<usize> {
    if core.trace.enabled() || core.ia.active() || !(1..=i32::MAX as i64).contains(&n) {
        return None;
    }
    let bytes = n as u64 * T::SIZE as u64;
    let fits = |t: &LocalTensor<T>| {
        t.hw == Hardware::UB
            && (t.addr as u64).is_multiple_of(BLOCK)
            && bytes <= t.len as u64
            && Owner::check_live(t.owner, core, api, "").is_ok()
    };
    let (d0, d1) = (dst.addr as u64, dst.addr as u64 + bytes);
    if !fits(dst) {
        return None;
    }
    for s in srcs {
        let s0 = s.addr as u64;
        if !fits(s) || !(s0 == d0 || s0 + bytes <= d0 || d1 <= s0) {
            return None;
        }
    }
    Some(n as usize)
}

/// Counts the instructions a contiguous pass of `n` elements at `lanes` lanes per repeat stands
/// for, and leaves the mask state as they would (counter mode ends with it off and the mask full;
/// otherwise the mask keeps the last repeat's lanes).
#[inline]
pub(crate) fn finish(core: &mut Core, lanes: u32, n: u64) {
    let per = lanes as u64;
    if core.profile.counter_mode {
        core.trace.count(Pipe::V, 1);
        core.vector.counter_mode = false;
        core.vector.mask = [u64::MAX; 2];
    } else {
        let (nrep, tail) = (n / per, n % per);
        core.trace
            .count(Pipe::V, nrep.div_ceil(255) + u64::from(tail > 0));
        core.vector.mask = contiguous_mask_bits(if tail > 0 { tail } else { per }, lanes);
    }
}
