//! Vector instructions: the parameter structs, the mask argument, and the lowering of level-0
//! (mask + repeat + strides) and level-2 (element count) calls onto the vector unit.

pub mod binary;
pub mod cast;
pub(crate) mod cast_int4;
pub mod cmp_mask;
pub mod compare;
pub mod control;
pub mod copy;
pub(crate) mod dense;
pub mod dequant;
pub mod duplicate;
pub mod fill;
pub mod fused;
pub mod gather;
pub mod interp;
pub mod layout_support;
pub mod mask;
pub(crate) mod operand;
pub mod operators;
pub mod padding;
pub mod reduce;
pub mod scalar;
pub mod support;
pub mod trans_data;
pub mod transpose;
pub mod unary;

use super::tensor::{LocalTensor, Owner};
use crate::core::trace::Access;
use crate::core::vector::{contiguous_mask_bits, Enable, Operand, Shape, BLOCK};
use crate::core::Core;
use crate::dtype::Element;
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::position::Hardware;

/// Strides of a two-source instruction (`BinaryRepeatParams`), in 32-byte blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BinaryRepeatParams {
    /// Destination block stride.
    pub dst_blk_stride: u8,
    /// First source block stride.
    pub src0_blk_stride: u8,
    /// Second source block stride.
    pub src1_blk_stride: u8,
    /// Destination repeat stride.
    pub dst_rep_stride: u8,
    /// First source repeat stride.
    pub src0_rep_stride: u8,
    /// Second source repeat stride.
    pub src1_rep_stride: u8,
}

impl Default for BinaryRepeatParams {
    fn default() -> Self {
        BinaryRepeatParams::new(1, 1, 1, 8, 8, 8)
    }
}

impl BinaryRepeatParams {
    /// `{dstBlk, src0Blk, src1Blk, dstRep, src0Rep, src1Rep}`: block strides first, then repeat strides.
    pub const fn new(
        dst_blk: u8,
        src0_blk: u8,
        src1_blk: u8,
        dst_rep: u8,
        src0_rep: u8,
        src1_rep: u8,
    ) -> Self {
        BinaryRepeatParams {
            dst_blk_stride: dst_blk,
            src0_blk_stride: src0_blk,
            src1_blk_stride: src1_blk,
            dst_rep_stride: dst_rep,
            src0_rep_stride: src0_rep,
            src1_rep_stride: src1_rep,
        }
    }
}

impl From<[u8; 6]> for BinaryRepeatParams {
    fn from(v: [u8; 6]) -> Self {
        BinaryRepeatParams::new(v[0], v[1], v[2], v[3], v[4], v[5])
    }
}

/// Strides of a one-source instruction (`UnaryRepeatParams`), in 32-byte blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnaryRepeatParams {
    /// Destination block stride.
    pub dst_blk_stride: u16,
    /// Source block stride.
    pub src_blk_stride: u16,
    /// Destination repeat stride.
    pub dst_rep_stride: u8,
    /// Source repeat stride.
    pub src_rep_stride: u8,
}

impl Default for UnaryRepeatParams {
    fn default() -> Self {
        UnaryRepeatParams::new(1, 1, 8, 8)
    }
}

impl UnaryRepeatParams {
    /// `{dstBlk, srcBlk, dstRep, srcRep}`.
    pub const fn new(dst_blk: u16, src_blk: u16, dst_rep: u8, src_rep: u8) -> Self {
        UnaryRepeatParams {
            dst_blk_stride: dst_blk,
            src_blk_stride: src_blk,
            dst_rep_stride: dst_rep,
            src_rep_stride: src_rep,
        }
    }
}

/// The mask argument of a level-0 call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mask {
    /// Contiguous mode: the first `n` lanes of every repeat.
    Count(u64),
    /// Bitwise mode: `[low, high]`, bit `k` enables lane `k` (`uint64_t mask[2]`).
    Bits([u64; 2]),
    /// `isSetMask = false`: use the mask the program set with `set_vector_mask` (`MASK_PLACEHOLDER`).
    Keep,
}

/// `isSetMask = false` with `MASK_PLACEHOLDER`: the instruction uses the current mask register.
pub const MASK_PLACEHOLDER: Mask = Mask::Keep;

impl From<u64> for Mask {
    fn from(n: u64) -> Self {
        Mask::Count(n)
    }
}
impl From<u32> for Mask {
    fn from(n: u32) -> Self {
        Mask::Count(n as u64)
    }
}
impl From<i32> for Mask {
    fn from(n: i32) -> Self {
        Mask::Count(n as u64)
    }
}
impl From<[u64; 2]> for Mask {
    fn from(b: [u64; 2]) -> Self {
        Mask::Bits(b)
    }
}

impl Mask {
    /// The bitwise form from the two words in `SetVectorMask(maskHigh, maskLow)` order.
    pub const fn high_low(high: u64, low: u64) -> Mask {
        Mask::Bits([low, high])
    }
}

/// The element-count argument of a level-2 call: a number of elements (`int32_t count`), or
/// [`KEEP_MASK`] for `isSetMask = false`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Count {
    /// The first `n` elements of every operand.
    Elements(i64),
    /// `isSetMask = false`: one instruction of one repeat with contiguous default strides under
    /// the mask and mode the program set (`SetVectorMask` / `SetMaskCount`); the state is left
    /// untouched. In counter mode the mask register's count gives the number of elements.
    KeepMask,
}

/// Level-2 `isSetMask = false` (pass it as the `count` argument; Ascend C ignores `count` then).
pub const KEEP_MASK: Count = Count::KeepMask;

impl From<i32> for Count {
    fn from(n: i32) -> Self {
        Count::Elements(n as i64)
    }
}
impl From<u32> for Count {
    fn from(n: u32) -> Self {
        Count::Elements(n as i64)
    }
}
impl From<i64> for Count {
    fn from(n: i64) -> Self {
        Count::Elements(n)
    }
}
impl From<usize> for Count {
    fn from(n: usize) -> Self {
        Count::Elements(n as i64)
    }
}

/// How a call asks for work: level 0 or level 2.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Issue {
    /// Mask + repeat count; strides come with the operands.
    Level0 { mask: Mask, repeat: u8 },
    /// The first `n` elements of every operand.
    Count(i64),
    /// Level 2 with `isSetMask = false`: one repeat under the current mask state.
    KeepMask,
}

/// How [`run_lowered`] turns a call into instructions: as an [`Issue`] says, or as `Copy` does in
/// counter mode (its own form, unlike the other instructions'): the mask register's count `n`
/// is the element count of every repeat, `⌈n·size/32⌉` blocks at the block stride, and `repeat`
/// repeats at the repeat stride.
#[derive(Debug, Clone, Copy)]
enum Lowering {
    Issue(Issue),
    CopyCounter { mask: Mask, repeat: u8 },
}

impl From<Count> for Issue {
    fn from(c: Count) -> Self {
        match c {
            Count::Elements(n) => Issue::Count(n),
            Count::KeepMask => Issue::KeepMask,
        }
    }
}

impl Issue {
    /// A level-0 issue.
    pub fn level0(mask: impl Into<Mask>, repeat: u8) -> Issue {
        Issue::Level0 {
            mask: mask.into(),
            repeat,
        }
    }
}

/// One operand of a vector call.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Opnd {
    pub name: &'static str,
    pub pos: crate::position::TPosition,
    pub hw: Hardware,
    pub addr: u32,
    pub len: u32,
    pub size: usize,
    pub blk: u32,
    pub rep: u32,
    pub write: bool,
    pub owner: Option<Owner>,
}

impl Opnd {
    /// An operand from a tensor with level-0 strides.
    pub fn of<T: Element>(
        name: &'static str,
        t: &LocalTensor<T>,
        blk: u32,
        rep: u32,
        write: bool,
    ) -> Opnd {
        Opnd {
            name,
            pos: t.pos,
            hw: t.hw,
            addr: t.addr,
            len: t.len,
            size: T::SIZE,
            blk,
            rep,
            write,
            owner: t.owner(),
        }
    }
}

/// Checks that an element type is supported by an operation on this product.
#[inline]
pub(crate) fn check_dtype(
    core: &Core,
    api: &'static str,
    t: crate::dtype::DType,
    op: &support::OpSupport,
) -> Result<()> {
    let set = op.types(core.profile.product);
    if set.contains(t) {
        Ok(())
    } else if set == crate::dtype::DTypeSet::EMPTY {
        Err(SimError::new(
            Category::Unsupported,
            api,
            format!("{api} is not supported on {}", core.profile),
        ))
    } else {
        Err(SimError::new(
            Category::Type,
            api,
            format!(
                "element type {t} is not supported on {} (supported: {set})",
                core.profile.soc
            ),
        ))
    }
}

/// Validates the operands, lowers the call into one or more instructions and runs `exec` for each
/// with the instruction's shape and per-operand addresses (same order as `ops`).
pub(crate) fn run(
    core: &mut Core,
    api: &'static str,
    loc: SourceLoc,
    lanes: u32,
    issue: Issue,
    ops: &[Opnd],
    exec: impl FnMut(&mut [u8], &Shape, &[Operand]),
) -> Result<()> {
    run_bits(core, api, loc, lanes, issue, ops, &[], exec)
}

/// An operand holding one bit per lane (Compare's destination, Select's `selMask`): repeat `r`
/// of an instruction uses bytes `[r·L/8, (r+1)·L/8)` after the instruction's first element, or
/// always the first `L/8` bytes when `advance` is false.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BitOpnd {
    pub name: &'static str,
    pub pos: crate::position::TPosition,
    pub hw: Hardware,
    pub addr: u32,
    pub len: u32,
    pub write: bool,
    pub advance: bool,
    pub owner: Option<Owner>,
}

impl BitOpnd {
    /// A bit operand from a tensor of any element type.
    pub fn of<T: Element>(
        name: &'static str,
        t: &LocalTensor<T>,
        write: bool,
        advance: bool,
    ) -> BitOpnd {
        BitOpnd {
            name,
            pos: t.pos,
            hw: t.hw,
            addr: t.addr,
            len: t.len,
            write,
            advance,
            owner: t.owner(),
        }
    }
}

/// [`run`] with bit operands after the element operands; `exec` gets their operands last, with
/// `addr` = the byte of the instruction's first lane bit.
#[allow(clippy::too_many_arguments)]
pub(crate) fn run_bits(
    core: &mut Core,
    api: &'static str,
    loc: SourceLoc,
    lanes: u32,
    issue: Issue,
    ops: &[Opnd],
    bits: &[BitOpnd],
    exec: impl FnMut(&mut [u8], &Shape, &[Operand]),
) -> Result<()> {
    let how = Lowering::Issue(issue);
    run_lowered(core, api, loc, lanes, how, ops, bits, exec)
}

/// [`run`] for `Copy` in counter mode: `mask` (written to the mask register unless it is
/// `Mask::Keep`) holds the element count of each of the `repeat` repeats.
pub(crate) fn run_copy_counter(
    core: &mut Core,
    api: &'static str,
    loc: SourceLoc,
    lanes: u32,
    (mask, repeat): (Mask, u8),
    ops: &[Opnd],
    exec: impl FnMut(&mut [u8], &Shape, &[Operand]),
) -> Result<()> {
    let how = Lowering::CopyCounter { mask, repeat };
    run_lowered(core, api, loc, lanes, how, ops, &[], exec)
}

#[allow(clippy::too_many_arguments)]
fn run_lowered(
    core: &mut Core,
    api: &'static str,
    loc: SourceLoc,
    lanes: u32,
    how: Lowering,
    ops: &[Opnd],
    bits: &[BitOpnd],
    mut exec: impl FnMut(&mut [u8], &Shape, &[Operand]),
) -> Result<()> {
    let level2 = matches!(how, Lowering::Issue(Issue::Count(_)));
    if let (Lowering::Issue(Issue::Count(n)), true) = (how, bits.is_empty()) {
        if run_dense_count(core, api, loc, lanes, n, ops, &mut exec) {
            return Ok(());
        }
    }
    for (name, pos, hw, addr, owner, len) in ops
        .iter()
        .map(|o| (o.name, o.pos, o.hw, o.addr, o.owner, o.len))
        .chain(
            bits.iter()
                .map(|o| (o.name, o.pos, o.hw, o.addr, o.owner, o.len)),
        )
    {
        Owner::check_live(owner, core, api, name)?;
        crate::api::tensor::inside_buffer(core, api, name, hw, addr, len)?;
        let o = Opnd {
            name,
            pos,
            hw,
            addr,
            len: 0,
            size: 1,
            blk: 0,
            rep: 0,
            write: false,
            owner,
        };
        if o.hw != Hardware::UB {
            return Err(SimError::new(
                Category::Position,
                api,
                format!("operand `{}` is in {} ({}); vector instructions take VECIN/VECCALC/VECOUT tensors in UB", o.name, o.pos, o.hw),
            ));
        }
        if !(o.addr as u64).is_multiple_of(BLOCK) {
            return Err(SimError::align(
                api,
                &format!("operand `{}`", o.name),
                o.addr as u64,
                32,
                "UB",
            ));
        }
    }
    let type_lanes = lanes;
    let mut instrs: Vec<(Shape, u64)> = Vec::with_capacity(2);
    let mut new_mask = None;
    match how {
        Lowering::Issue(Issue::Level0 { mask, repeat }) => {
            let mut state = core.vector;
            state.mask = level0_mask(core, api, loc, type_lanes, mask)?;
            let shape = state.shape(lanes, repeat as u32);
            if !check_empty(core, api, loc, type_lanes, &shape, repeat == 0)? {
                core.vector.mask = state.mask;
                return Ok(());
            }
            new_mask = Some(state.mask);
            for o in ops.iter().filter(|o| o.write) {
                let e = (BLOCK / o.size as u64) as u32;
                let blocks = (lanes as u64 * o.size as u64).div_ceil(BLOCK);
                warn_dst_overlap(core, api, loc, o, shape.repeats as u64, blocks, |r, j| {
                    block_lanes(shape.bits(r as u32), j as u32, e)
                });
            }
            instrs.push((shape, 0));
        }
        Lowering::CopyCounter { mask, repeat } => {
            let m = level0_mask(core, api, loc, type_lanes, mask)?;
            let n = m[0] & 0xFFFF_FFFF;
            if repeat == 0 || n == 0 {
                core.vector.mask = m;
                let why = if repeat == 0 {
                    "repeatTime = 0"
                } else {
                    "the counter-mode element count is 0"
                };
                let msg = format!("{why}: the instruction does nothing");
                core.warn(Category::Nop, api, msg, loc);
                return Ok(());
            }
            new_mask = Some(m);
            // One instruction per repeat: its engine repeats are the repeat's blocks, eight at a
            // time, and the counter gives the last one its remaining lanes.
            let shape = Shape {
                lanes,
                repeats: n.div_ceil(lanes as u64) as u32,
                enable: Enable::Counter(n),
            };
            for o in ops.iter().filter(|o| o.write) {
                let e = BLOCK / o.size as u64;
                let blocks = (n * o.size as u64).div_ceil(BLOCK);
                warn_dst_overlap(core, api, loc, o, repeat as u64, blocks, |_, j| {
                    let left = n.saturating_sub(j * e).min(e);
                    ((1u64 << left) - 1) as u32
                });
            }
            instrs.extend((0..repeat as u64).map(|r| (shape, r)));
        }
        Lowering::Issue(Issue::KeepMask) => {
            let shape = core.vector.shape(lanes, 1);
            if !check_empty(core, api, loc, type_lanes, &shape, false)? {
                return Ok(());
            }
            instrs.push((shape, 0));
        }
        Lowering::Issue(Issue::Count(n)) => {
            if !(0..=i32::MAX as i64).contains(&n) {
                return Err(SimError::range(api, "count", n, "[0, 2^31 − 1]"));
            }
            let n = n as u64;
            if n == 0 {
                core.warn(Category::Nop, api, "count = 0: the call does nothing", loc);
                return Ok(());
            }
            if core.profile.counter_mode {
                instrs.push((
                    Shape {
                        lanes,
                        repeats: n.div_ceil(lanes as u64) as u32,
                        enable: Enable::Counter(n),
                    },
                    0,
                ));
            } else {
                let per = lanes as u64;
                let (nrep, tail) = (n / per, n % per);
                let mut done = 0u64;
                while done < nrep {
                    let r = (nrep - done).min(255);
                    instrs.push((
                        Shape {
                            lanes,
                            repeats: r as u32,
                            enable: Enable::Bits(contiguous_mask_bits(per, lanes)),
                        },
                        done * per,
                    ));
                    done += r;
                }
                if tail > 0 {
                    instrs.push((
                        Shape {
                            lanes,
                            repeats: 1,
                            enable: Enable::Bits(contiguous_mask_bits(tail, lanes)),
                        },
                        nrep * per,
                    ));
                }
            }
        }
    }
    // Check every instruction's extents before any of them runs: a failing call writes nothing.
    let mode = if core.vector.counter_mode || level2 && core.profile.counter_mode {
        "counter"
    } else {
        "normal"
    };
    let mut planned = Vec::with_capacity(instrs.len());
    // `first_elem`: the instruction's first element, or its repeat for a counter-mode `Copy`.
    for (shape, first_elem) in &instrs {
        let mut operands = [Operand {
            addr: 0,
            blk_stride: 1,
            rep_stride: 8,
        }; 6];
        let mut accesses =
            [Access::contiguous(false, crate::core::trace::Space::Local(Hardware::UB), 0, 0); 6];
        for (i, o) in ops.iter().enumerate() {
            let blocks = (lanes as u64 * o.size as u64 / BLOCK).max(1) as u32;
            let (blk, rep, addr) = match how {
                Lowering::Issue(Issue::Level0 { .. }) => (o.blk, o.rep, o.addr as u64),
                Lowering::CopyCounter { .. } => (
                    o.blk,
                    blocks * o.blk,
                    o.addr as u64 + first_elem * o.rep as u64 * BLOCK,
                ),
                Lowering::Issue(Issue::Count(_) | Issue::KeepMask) => {
                    (1, blocks, o.addr as u64 + first_elem * o.size as u64)
                }
            };
            let op = Operand {
                addr,
                blk_stride: blk,
                rep_stride: rep,
            };
            let end = op.end(o.size, shape);
            let limit = o.addr as u64 + o.len as u64;
            if end > limit {
                return Err(SimError::new(
                    Category::Size,
                    api,
                    format!(
                        "operand `{}` size check failed in {mode} mode: the tensor needs to be at least {} bytes, while its size is only {} bytes ({} elements)",
                        o.name,
                        end - o.addr as u64,
                        o.len,
                        o.len as usize / o.size
                    ),
                ));
            }
            operands[i] = op;
            accesses[i] = op.access(o.write, o.size, shape);
        }
        for (j, b) in bits.iter().enumerate() {
            let per = lanes as u64 / 8;
            let (start, bytes) = if b.advance {
                (first_elem / 8, shape.repeats as u64 * per)
            } else {
                (0, per)
            };
            if start + bytes > b.len as u64 {
                return Err(SimError::new(
                    Category::Size,
                    api,
                    format!(
                        "operand `{}` size check failed in {mode} mode: the tensor needs to be at least {} bytes ({} bits, one per lane), while its size is only {} bytes",
                        b.name,
                        start + bytes,
                        (start + bytes) * 8,
                        b.len
                    ),
                ));
            }
            let addr = b.addr as u64 + start;
            operands[ops.len() + j] = Operand {
                addr,
                blk_stride: 0,
                rep_stride: 0,
            };
            accesses[ops.len() + j] = Access::contiguous(
                b.write,
                crate::core::trace::Space::Local(Hardware::UB),
                addr,
                bytes,
            );
        }
        planned.push((*shape, operands, accesses));
    }
    if let Some(m) = new_mask {
        core.vector.mask = m;
    }
    if let Some((shape, operands, _)) = planned.first() {
        warn_on_overlap(core, api, loc, ops, &operands[..ops.len()], shape);
    }
    let n = ops.len() + bits.len();
    let fixed_operands = bits.iter().all(|b| !b.advance);
    for (shape, operands, accesses) in &planned {
        let (start, end) = written_span(&accesses[..n]);
        let ub = core.mem.bytes_mut_writing(Hardware::UB, start, end);
        if fixed_operands && operands[..ops.len()].iter().all(|o| o.rep_stride == 0) {
            run_in_place(ub, shape, &operands[..n], ops, &mut exec);
        } else {
            exec(ub, shape, &operands[..n]);
        }
        core.issue_vector(api, loc, &accesses[..n], shape.lanes);
    }
    if level2 {
        if core.profile.counter_mode {
            core.vector.counter_mode = false;
            core.vector.mask = [u64::MAX; 2];
        } else if let Some((shape, _)) = instrs.last() {
            if let Enable::Bits(b) = shape.enable {
                core.vector.mask = b;
            }
        }
    }
    Ok(())
}

/// The UB bytes `[start, end)` spanning what the writing accesses of an instruction reach
/// (`(0, 0)` when none writes).
fn written_span(accesses: &[Access]) -> (usize, usize) {
    let (start, end) = accesses
        .iter()
        .filter(|a| a.write && a.bytes() > 0)
        .fold((u64::MAX, 0), |(s, e), a| (s.min(a.base), e.max(a.end())));
    (start.min(end) as usize, end as usize)
}

/// The common level-2 call, without building the general path's instruction plan: every
/// operand a live, 32-byte aligned UB tensor holding `n` dense elements, each source either
/// disjoint from the destination or the same bytes of the same type, fast paths on and no
/// `CheckLocalMemoryIA` range armed. The general path would give no warning for such a call,
/// lower it to instructions that differ only in how the elements are grouped (the operation is
/// element-wise), and leave the same mask state; this runs them as one counter-shaped pass and
/// counts (or records) the instructions. Returns `false`, having done nothing, when the call
/// needs the general path (which also reports any error).
fn run_dense_count(
    core: &mut Core,
    api: &'static str,
    loc: SourceLoc,
    lanes: u32,
    n: i64,
    ops: &[Opnd],
    exec: &mut impl FnMut(&mut [u8], &Shape, &[Operand]),
) -> bool {
    if !core.options.fast_paths
        || core.ia.active()
        || !(1..=i32::MAX as i64).contains(&n)
        || ops.len() > 6
    {
        return false;
    }
    let n = n as u64;
    let extent = |o: &Opnd| (o.addr as u64, o.addr as u64 + n * o.size as u64);
    for o in ops {
        if o.hw != Hardware::UB
            || !(o.addr as u64).is_multiple_of(BLOCK)
            || !(lanes as u64 * o.size as u64).is_multiple_of(BLOCK)
            || n * o.size as u64 > o.len as u64
            || Owner::check_live(o.owner, core, api, o.name).is_err()
            || crate::api::tensor::inside_buffer(core, api, o.name, o.hw, o.addr, o.len).is_err()
        {
            return false;
        }
    }
    for w in ops.iter().filter(|o| o.write) {
        let (ws, we) = extent(w);
        for r in ops.iter().filter(|o| !o.write) {
            let (rs, re) = extent(r);
            let same = ws == rs && w.size == r.size;
            if !(same || we <= rs || re <= ws) {
                return false;
            }
        }
    }
    let mut operands = [Operand {
        addr: 0,
        blk_stride: 1,
        rep_stride: 8,
    }; 6];
    for (slot, o) in operands.iter_mut().zip(ops) {
        *slot = Operand::contiguous(o.addr as u64, o.size, lanes);
    }
    let shape = Shape {
        lanes,
        repeats: n.div_ceil(lanes as u64) as u32,
        enable: Enable::Counter(n),
    };
    let (start, end) = ops
        .iter()
        .filter(|o| o.write)
        .map(|o| (o.addr as usize, o.addr as usize + n as usize * o.size))
        .fold((usize::MAX, 0), |(s, e), (a, b)| (s.min(a), e.max(b)));
    exec(
        core.mem
            .bytes_mut_writing(Hardware::UB, start.min(end), end),
        &shape,
        &operands[..ops.len()],
    );
    let mut run_ops = [(0, 0, false); 6];
    for (r, o) in run_ops.iter_mut().zip(ops) {
        *r = (o.addr as u64, o.size, o.write);
    }
    dense::finish(core, api, loc, lanes, n, &run_ops[..ops.len()]);
    true
}

/// Runs an instruction whose operands do not move between repeats (repeat stride 0 everywhere):
/// every full repeat applies the same function to the same bytes, so once a repeat leaves them
/// unchanged the remaining full repeats would too, and only the last (possibly partial) repeat
/// is left to run. The result is the repeat-by-repeat one; the work is bounded even for the
/// 2^32 − 1 elements counter mode allows.
fn run_in_place(
    ub: &mut [u8],
    shape: &Shape,
    operands: &[Operand],
    ops: &[Opnd],
    exec: &mut impl FnMut(&mut [u8], &Shape, &[Operand]),
) {
    if shape.repeats <= 2 {
        return exec(ub, shape, operands);
    }
    let full = Shape {
        repeats: 1,
        enable: Enable::Bits(shape.bits(0)),
        ..*shape
    };
    // The bytes one repeat touches: every operand's extent.
    let lo = operands.iter().map(|o| o.addr).min().unwrap_or(0) as usize;
    let hi = operands
        .iter()
        .zip(ops.iter().map(|o| o.size).chain(std::iter::repeat(1)))
        .map(|(o, size)| o.end(size, &full).max(o.addr + BLOCK))
        .max()
        .unwrap_or(0)
        .min(ub.len() as u64) as usize;
    exec(ub, &full, operands);
    let mut done = 1;
    let mut before = Vec::with_capacity(hi.saturating_sub(lo));
    while done < shape.repeats - 1 {
        before.clear();
        before.extend_from_slice(&ub[lo..hi]);
        exec(ub, &full, operands);
        done += 1;
        if ub[lo..hi] == before[..] {
            break;
        }
    }
    // Full repeats left once a fixed point is reached change nothing; run the last repeat.
    if done < shape.repeats {
        let last = shape.repeats - 1;
        let tail = Shape {
            repeats: 1,
            enable: Enable::Bits(shape.bits(last)),
            ..*shape
        };
        exec(ub, &tail, operands);
    }
}

/// The mask register value a level-0 mask argument sets (`isSetMask = true`), checked against
/// the lanes of the instruction.
pub(crate) fn level0_mask(
    core: &mut Core,
    api: &'static str,
    loc: SourceLoc,
    lanes: u32,
    mask: Mask,
) -> Result<[u64; 2]> {
    let counter = core.vector.counter_mode;
    match mask {
        Mask::Keep => Ok(core.vector.mask),
        Mask::Count(n) => {
            if counter {
                core.warn(
                    Category::Range,
                    api,
                    format!("contiguous `mask` = {n} in counter mode is converted to a lane bit pattern, whose low 32 bits become the element count; pass the count as `[count, 0]` or set it with SetVectorMask and MASK_PLACEHOLDER"),
                    loc,
                );
            } else if n > lanes as u64 {
                let lo = if core.profile.mask_zero_is_nop { 0 } else { 1 };
                return Err(SimError::range(
                    api,
                    "mask",
                    n,
                    format!(
                        "[{lo}, {lanes}] (256 bytes / element size lanes per repeat) on {}",
                        core.profile.soc
                    ),
                ));
            }
            Ok(contiguous_mask_bits(n, lanes))
        }
        Mask::Bits(b) => {
            if counter && b[0] > u32::MAX as u64 {
                core.warn(
                    Category::Range,
                    api,
                    format!("counter-mode `mask[0]` = {:#x} exceeds 2^32 − 1: only MASK[31:0] = {} is the element count", b[0], b[0] & 0xFFFF_FFFF),
                    loc,
                );
            } else if !counter && lanes <= 32 && b[0] > u32::MAX as u64 {
                return Err(SimError::range(
                    api,
                    "mask[0]",
                    format!("{:#x}", b[0]),
                    "[0, 2^32 − 1] for 64-bit elements (32 lanes)",
                ));
            }
            Ok(b)
        }
    }
}

/// Handles an instruction whose shape enables nothing: a no-op with a warning, or an error on
/// products where a zero mask is rejected (normal mode on 910/310P). Returns whether to run.
pub(crate) fn check_empty(
    core: &mut Core,
    api: &'static str,
    loc: SourceLoc,
    lanes: u32,
    shape: &Shape,
    repeat_zero: bool,
) -> Result<bool> {
    if !shape.is_empty() {
        return Ok(true);
    }
    let counter = core.vector.counter_mode;
    if !repeat_zero && !counter && !core.profile.mask_zero_is_nop {
        return Err(SimError::range(
            api,
            "mask",
            0,
            format!(
                "[1, {lanes}]: a mask enabling no lane is rejected on {}",
                core.profile.soc
            ),
        ));
    }
    let why = if counter {
        "the counter-mode element count is 0"
    } else if repeat_zero {
        "repeatTimes = 0"
    } else {
        "the mask enables no lane"
    };
    core.warn(
        Category::Nop,
        api,
        format!("{why}: the instruction does nothing"),
        loc,
    );
    Ok(false)
}

/// Lanes a written operand's blocks are examined for at most by [`warn_dst_overlap`]: past this
/// the layout runs beyond UB (the extent check refuses the call) unless it overlaps early.
const OVERLAP_SCAN_LIMIT: usize = 1 << 16;

/// Warns when two enabled lanes of the written operand `o` land on the same bytes: two blocks of
/// one repeat (block stride 0), or two repeats (a repeat stride shorter than what a repeat
/// writes; a repeat stride of 0, which rewrites the same bytes on purpose, is not warned about).
/// `lanes_of(r, j)` gives the enabled lanes of block `j` of repeat `r` as bits (lane `k` of the
/// block is bit `k`), for `repeats` repeats of `blocks` blocks. The lanes are compared exactly, so
/// strided layouts whose written blocks interleave (ND → NZ) are not warned about.
fn warn_dst_overlap(
    core: &mut Core,
    api: &'static str,
    loc: SourceLoc,
    o: &Opnd,
    repeats: u64,
    blocks: u64,
    lanes_of: impl Fn(u64, u64) -> u32,
) {
    let (blk, rep) = (o.blk as u64, o.rep as u64);
    // The last enabled block of any repeat (the first repeat is the fullest: a counter-mode tail
    // only ever has fewer lanes).
    let Some(last) = (0..blocks).rev().find(|&j| lanes_of(0, j) != 0) else {
        return;
    };
    // Blocks of a repeat at distinct positions, and repeats apart by more than a repeat spans:
    // nothing can meet.
    if blk > 0 && (rep == 0 || repeats < 2 || rep > last * blk) {
        return;
    }
    let reps = if rep == 0 { 1 } else { repeats };
    // (block position in 32-byte units from the operand, lanes, repeat, block)
    let mut written: Vec<(u64, u32, u64, u64)> = Vec::new();
    'fill: for r in 0..reps {
        for j in 0..blocks {
            let m = lanes_of(r, j);
            if m != 0 {
                if written.len() == OVERLAP_SCAN_LIMIT {
                    break 'fill;
                }
                written.push((r * rep + j * blk, m, r, j));
            }
        }
    }
    written.sort_unstable_by_key(|w| (w.0, w.2, w.3));
    // The first two writes of one position whose lanes meet (lanes of earlier writes merged).
    let meet = written.chunk_by(|a, b| a.0 == b.0).find_map(|run| {
        let mut lanes = run[0].1;
        run[1..].iter().find_map(|b| {
            let hit = lanes & b.1 != 0;
            lanes |= b.1;
            hit.then(|| {
                let a = run.iter().find(|a| a.1 & b.1 != 0).expect("met above");
                ((a.2, a.3), (b.2, b.3))
            })
        })
    });
    let Some(((r0, j0), (r1, j1))) = meet else {
        return;
    };
    let msg = if r0 == r1 {
        format!(
            "`{}` block stride {blk}: blocks {j0} and {j1} of repeat {r0} write the same bytes (unsupported on hardware; the last block wins here)",
            o.name
        )
    } else {
        let which = if r1 == r0 + 1 { "consecutive " } else { "" };
        format!(
            "`{}` repeat stride {rep} makes {which}repeats overlap: repeats {r0} and {r1} write the same bytes (unsupported on hardware; later repeats win here)",
            o.name
        )
    };
    core.warn(Category::Overlap, api, msg, loc);
}

/// The bits of lanes `[j·e, (j+1)·e)` of a `[low, high]` lane mask, as bits `0..e` (`e` divides
/// 64, so a block's lanes sit in one word).
fn block_lanes([lo, hi]: [u64; 2], j: u32, e: u32) -> u32 {
    let start = j * e;
    let bits = match start {
        0..64 => lo >> start,
        64..128 => hi >> (start - 64),
        _ => 0,
    };
    (bits & ((1u64 << e) - 1)) as u32
}

/// The instructions whose destination may accumulate over a source (`vector-model.md` §8 rule 2).
const ACCUMULATING: [&str; 7] = ["Add", "Sub", "Mul", "Max", "Min", "AddRelu", "SubRelu"];

/// Warns about the source/destination overlaps `vector-model.md` §8 documents as unsupported: a
/// partial overlap inside one repeat, or a repeat reading what an earlier repeat wrote (except
/// the documented accumulation into `src1` with a repeat stride of 0). The simulator computes
/// the in-order result; hardware results are unspecified.
fn warn_on_overlap(
    core: &mut Core,
    api: &'static str,
    loc: SourceLoc,
    ops: &[Opnd],
    operands: &[Operand],
    shape: &Shape,
) {
    let Some(di) = ops.iter().position(|o| o.write) else {
        return;
    };
    let (d, dsize) = (operands[di], ops[di].size);
    let dst_end = d.end(dsize, shape);
    for (i, o) in ops.iter().enumerate() {
        let s = operands[i];
        if o.write || s.addr >= dst_end || d.addr >= s.end(o.size, shape) {
            continue;
        }
        if ACCUMULATING.contains(&api)
            && o.name == "src1"
            && (s.rep_stride == 0 || d.rep_stride == 0)
        {
            continue;
        }
        let same = s == d && o.size == dsize;
        if same && repeats_disjoint(&s, o.size, shape.lanes) {
            continue;
        }
        if let Some((wr, rr)) = first_conflict(shape, (d, dsize), (s, o.size), same) {
            let what = if wr == rr {
                format!("partially overlaps the destination inside repeat {rr} (only a 100% overlap is supported)")
            } else {
                format!("is read in repeat {rr} where repeat {wr} wrote the destination (repeats must not depend on each other)")
            };
            core.warn(
                Category::Overlap,
                api,
                format!("operand `{}` {what}; the simulator computes repeats in order, hardware results are unspecified", o.name),
                loc,
            );
            return;
        }
    }
}

/// True when no two repeats of an operand touch the same bytes.
fn repeats_disjoint(op: &Operand, size: usize, lanes: u32) -> bool {
    let blocks = (lanes as u64 * size as u64).div_ceil(BLOCK);
    let footprint = (blocks - 1) * op.blk_stride as u64 * BLOCK + BLOCK;
    op.rep_stride as u64 * BLOCK >= footprint
}

/// The first (writing repeat, reading repeat) pair where the source reads destination bytes in
/// a way the overlap rules forbid.
fn first_conflict(
    shape: &Shape,
    (d, dsize): (Operand, usize),
    (s, ssize): (Operand, usize),
    same: bool,
) -> Option<(u32, u32)> {
    // When neither operand moves between repeats (repeat stride 0), every full repeat touches the
    // same bytes: repeats 0 and 1 and the last one (the only one that may be partial) show every
    // conflict there is, whatever the repeat count (counter mode allows up to 2^32 - 1 elements).
    // Otherwise the operands' extents, checked against the physical buffer before this runs, bound
    // the repeat count by the buffer size.
    let reps: Vec<u32> = if d.rep_stride == 0 && s.rep_stride == 0 && shape.repeats > 3 {
        vec![0, 1, shape.repeats - 1]
    } else {
        (0..shape.repeats).collect()
    };
    // Byte runs (start, end, repeat, is_destination) of every enabled 32-byte block.
    let mut runs = Vec::new();
    for r in reps {
        let span = match shape.enable {
            Enable::Counter(n) => n
                .saturating_sub(r as u64 * shape.lanes as u64)
                .min(shape.lanes as u64) as u32,
            Enable::Bits(_) => shape.lane_span(),
        };
        for (op, size, is_dst) in [(d, dsize, true), (s, ssize, false)] {
            let e = (BLOCK as usize / size) as u32;
            for blk in 0..span.div_ceil(e) {
                let start = op.lane_addr(size, r, blk * e);
                let lanes = (span - blk * e).min(e);
                runs.push((start, start + lanes as u64 * size as u64, r, is_dst));
            }
        }
    }
    runs.sort_unstable();
    let mut active: Vec<(u64, u64, u32, bool)> = Vec::new();
    let mut found: Option<(u32, u32)> = None;
    for run in runs {
        active.retain(|a| a.1 > run.0);
        for a in &active {
            if a.3 == run.3 {
                continue;
            }
            let (w, rd) = if a.3 { (a, &run) } else { (&run, a) };
            let conflict = if w.2 == rd.2 { !same } else { rd.2 > w.2 };
            if conflict && found.is_none_or(|f| (w.2, rd.2) < f) {
                found = Some((w.2, rd.2));
            }
        }
        active.push(run);
    }
    found
}
