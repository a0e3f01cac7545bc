//! Vector instructions: the parameter structs, the mask argument, and the lowering of level-0
//! (mask + repeat + strides) and level-2 (element count) calls onto the vector unit.

pub mod binary;
pub mod reduce;
pub mod support;

use super::tensor::LocalTensor;
use crate::core::trace::{Access, Pipe};
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

/// How a call asks for work: level 0 or level 2.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Issue {
    /// Mask + repeat count; strides come with the operands.
    Level0 { mask: Mask, repeat: u8 },
    /// The first `n` elements of every operand.
    Count(i64),
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
        }
    }
}

/// Checks that an element type is supported by an operation on this product.
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
    mut exec: impl FnMut(&mut [u8], &Shape, &[Operand]),
) -> Result<()> {
    for o in ops {
        if o.hw != Hardware::UB {
            return Err(SimError::new(
                Category::Position,
                api,
                format!("operand `{}` is in {} ({}); vector instructions take VECIN/VECCALC/VECOUT tensors in UB", o.name, o.pos, o.hw),
            ));
        }
        if o.addr as u64 % BLOCK != 0 {
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
    match issue {
        Issue::Level0 { mask, repeat } => {
            match mask {
                Mask::Keep => {}
                Mask::Count(n) => {
                    if n > type_lanes as u64 && !core.vector.counter_mode {
                        core.warn(
                            Category::Range,
                            api,
                            format!("parameter `mask` = {n} exceeds the {type_lanes} lanes of a repeat; treated as {type_lanes}"),
                            loc,
                        );
                    }
                    core.vector.mask = contiguous_mask_bits(n, type_lanes);
                }
                Mask::Bits(b) => core.vector.mask = b,
            }
            let shape = core.vector.shape(lanes, repeat as u32);
            if shape.is_empty() {
                let mask_empty = repeat != 0 || core.vector.counter_mode;
                if mask_empty && !core.profile.mask_zero_is_nop {
                    return Err(SimError::range(
                        api,
                        "mask",
                        0,
                        format!("[1, {type_lanes}] on {}", core.profile.soc),
                    ));
                }
                let why = if mask_empty {
                    "the mask enables no lane"
                } else {
                    "repeatTimes = 0"
                };
                core.warn(
                    Category::Nop,
                    api,
                    format!("{why}: the instruction does nothing"),
                    loc,
                );
                return Ok(());
            }
            instrs.push((shape, 0));
        }
        Issue::Count(n) => {
            if n < 0 {
                return Err(SimError::range(api, "count", n, "[0, 2^31)"));
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
    let mut operands = [Operand {
        addr: 0,
        blk_stride: 1,
        rep_stride: 8,
    }; 4];
    let mut accesses =
        [Access::contiguous(false, crate::core::trace::Space::Local(Hardware::UB), 0, 0); 4];
    for (shape, first_elem) in &instrs {
        for (i, o) in ops.iter().enumerate() {
            let (blk, rep) = match issue {
                Issue::Level0 { .. } => (o.blk, o.rep),
                Issue::Count(_) => (1, (lanes as u64 * o.size as u64 / BLOCK).max(1) as u32),
            };
            let op = Operand {
                addr: o.addr as u64 + first_elem * o.size as u64,
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
                        "operand `{}` would be accessed up to byte {end} of UB, beyond its tensor (bytes {}..{limit}, {} elements)",
                        o.name,
                        o.addr,
                        o.len as usize / o.size
                    ),
                ));
            }
            operands[i] = op;
            accesses[i] = op.access(o.write, o.size, shape);
        }
        exec(
            core.mem.bytes_mut(Hardware::UB),
            shape,
            &operands[..ops.len()],
        );
        core.issue(Pipe::V, api, loc, &accesses[..ops.len()]);
    }
    if let Issue::Count(_) = issue {
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
