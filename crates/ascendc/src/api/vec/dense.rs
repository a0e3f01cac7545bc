//! The level-2 fast path of element-wise calls whose operands all have one element type: when
//! every operand is a whole-block-aligned run of the first `count` elements of a live UB tensor
//! and the destination either is a source exactly or overlaps none, the call is one contiguous
//! pass over the elements. The general path ([`super::run`]) gives the same bytes, counts, mask
//! state and instruction record, and reports any error; this path only steps aside.

use super::binary::lanes_for;
use super::{Issue, BLOCK};
use crate::api::tensor::LocalTensor;
use crate::core::trace::{Access, Pipe, Space};
use crate::core::vector::{contiguous_mask_bits, Enable, Operand, Shape};
use crate::core::Core;
use crate::dtype::Element;
use crate::error::SourceLoc;
use crate::position::Hardware;

/// The element count of a level-2 call of `n` elements writing `dst` from `srcs` when it can run
/// as one contiguous pass (fast paths on, no IA check active); `None` sends the call down the
/// general path.
#[inline]
fn same_type_run<T: Element>(
    core: &Core,
    api: &'static str,
    n: i64,
    dst: &LocalTensor<T>,
    srcs: &[&LocalTensor<T>],
) -> Option<usize> {
    if !core.options.fast_paths || core.ia.active() || !(1..=i32::MAX as i64).contains(&n) {
        return None;
    }
    let bytes = n as u64 * T::SIZE as u64;
    // Inlined whole: the check runs for every operand of every call.
    #[inline(always)]
    fn fits<T: Element>(t: &LocalTensor<T>, bytes: u64, core: &Core, api: &'static str) -> bool {
        t.hw == Hardware::UB
            && (t.addr as u64).is_multiple_of(BLOCK)
            && bytes <= t.len as u64
            && t.check_live(core, api, "").is_ok()
    }
    let fits = |t: &LocalTensor<T>| fits(t, bytes, core, api);
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

/// Runs a same-type level-2 call writing `dst` from `srcs` as one contiguous pass when it can
/// ([`same_type_run`]): `pass` gets the UB bytes, the element count and the byte addresses of
/// `dst` and `srcs`; the instructions are then counted or recorded ([`finish`]). Returns
/// `false`, having done nothing, when the call needs the general path.
#[inline(always)]
pub(crate) fn try_pass<T: Element, const N: usize>(
    core: &mut Core,
    api: &'static str,
    loc: SourceLoc,
    issue: Issue,
    dst: &LocalTensor<T>,
    srcs: [&LocalTensor<T>; N],
    pass: impl FnOnce(&mut [u8], usize, u64, [u64; N]),
) -> bool {
    const { assert!(N < 6, "a vector instruction has at most six operands") };
    let Issue::Count(n) = issue else {
        return false;
    };
    let Some(n) = same_type_run(core, api, n, dst, &srcs) else {
        return false;
    };
    let (d, a) = (dst.addr as u64, srcs.map(|s| s.addr as u64));
    let end = d as usize + n * T::SIZE;
    pass(
        core.mem.bytes_mut_writing(Hardware::UB, d as usize, end),
        n,
        d,
        a,
    );
    let mut ops = [(d, T::SIZE, true); 6];
    for (o, &s) in ops[1..].iter_mut().zip(&a) {
        *o = (s, T::SIZE, false);
    }
    finish(core, api, loc, lanes_for(T::SIZE), n as u64, &ops[..N + 1]);
    true
}

/// One operand of a contiguous pass: byte address in UB, element size in bytes, written or read.
pub(crate) type RunOperand = (u64, usize, bool);

/// Counts the instructions a contiguous pass of `n` elements at `lanes` lanes per repeat over
/// `ops` stands for (recording them as the general path would when the record is kept), and
/// leaves the mask state as they would: counter mode ends with it off and the mask full;
/// otherwise the mask keeps the last repeat's lanes.
#[inline(always)]
pub(crate) fn finish(
    core: &mut Core,
    api: &'static str,
    loc: SourceLoc,
    lanes: u32,
    n: u64,
    ops: &[RunOperand],
) {
    let per = lanes as u64;
    let tail = n % per;
    if core.trace.enabled() {
        record(core, api, loc, lanes, n, ops);
    } else {
        let instructions = if core.profile.counter_mode {
            1
        } else {
            (n / per).div_ceil(255) + u64::from(tail > 0)
        };
        core.trace.count(Pipe::V, instructions);
    }
    if core.profile.counter_mode {
        core.vector.counter_mode = false;
        core.vector.mask = [u64::MAX; 2];
    } else {
        core.vector.mask = contiguous_mask_bits(if tail > 0 { tail } else { per }, lanes);
    }
}

/// Records the instructions of a contiguous pass as the general path lowers a level-2 count:
/// one counter-mode instruction, or (normal mode) instructions of at most 255 full repeats and
/// one for the partial tail, each operand contiguous.
#[cold]
#[inline(never)]
fn record(
    core: &mut Core,
    api: &'static str,
    loc: SourceLoc,
    lanes: u32,
    n: u64,
    ops: &[RunOperand],
) {
    let per = lanes as u64;
    let issue = |core: &mut Core, shape: Shape, first: u64| {
        let mut acc = [Access::contiguous(false, Space::Local(Hardware::UB), 0, 0); 6];
        for (a, &(addr, size, write)) in acc.iter_mut().zip(ops) {
            *a = Operand::contiguous(addr + first * size as u64, size, lanes)
                .access(write, size, &shape);
        }
        core.issue_vector(api, loc, &acc[..ops.len()], lanes);
    };
    if core.profile.counter_mode {
        let shape = Shape {
            lanes,
            repeats: n.div_ceil(per) as u32,
            enable: Enable::Counter(n),
        };
        issue(core, shape, 0);
        return;
    }
    let (nrep, tail) = (n / per, n % per);
    let mut done = 0;
    while done < nrep {
        let r = (nrep - done).min(255);
        let shape = Shape {
            lanes,
            repeats: r as u32,
            enable: Enable::Bits(contiguous_mask_bits(per, lanes)),
        };
        issue(core, shape, done * per);
        done += r;
    }
    if tail > 0 {
        let shape = Shape {
            lanes,
            repeats: 1,
            enable: Enable::Bits(contiguous_mask_bits(tail, lanes)),
        };
        issue(core, shape, nrep * per);
    }
}
