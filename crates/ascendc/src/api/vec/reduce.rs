//! Reductions (`reductions.md`): the one-instruction forms RepeatReduceSum, WholeReduceSum/Max/Min,
//! BlockReduceSum/Max/Min and PairReduceSum, and the whole-tensor sequences ReduceSum/Max/Min that
//! use a work buffer (`sharedTmpBuffer`).
//!
//! Sums use the pairwise tree over lane positions (disabled lanes contribute +0), rounded to `T`
//! and — for half in saturation mode — saturated at every level. Max/Min select exactly and keep
//! the smallest index on ties.

use super::support::{self, CountSumOrder, OpSupport, ReduceRules};
use super::{check_dtype, Mask};
use crate::api::context::with_core;
use crate::api::tensor::LocalTensor;
use crate::core::trace::{Access, Pipe, Space};
use crate::core::vector::{contiguous_mask_bits, for_lanes, Enable, Operand, Shape, BLOCK};
use crate::core::Core;
use crate::dtype::{f16, Element};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::numeric::Arith;
use crate::position::Hardware;

/// Element types the reductions compute on (half and float).
pub trait ReduceElement: Arith + PartialOrd {
    /// +0.
    const ZERO: Self;
    /// What a MAX over an empty group writes on products that write defaults (−65504 / −inf).
    const MAX_DEFAULT: Self;
    /// What a MIN over an empty group writes on products that write defaults (+65504 / +inf).
    const MIN_DEFAULT: Self;
    /// Largest index a `T` slot can hold (65535 for half's uint16, 2^32 − 1 for float's uint32).
    const INDEX_MAX: u32;
    /// A `T` slot holding the raw bits of the unsigned index `i` (uint16 for half, uint32 for float).
    fn index_slot(i: u32) -> Self;
}

impl ReduceElement for f16 {
    const ZERO: Self = f16::ZERO;
    const MAX_DEFAULT: Self = f16::MIN;
    const MIN_DEFAULT: Self = f16::MAX;
    const INDEX_MAX: u32 = u16::MAX as u32;
    fn index_slot(i: u32) -> Self {
        f16::from_bits(i as u16)
    }
}

impl ReduceElement for f32 {
    const ZERO: Self = 0.0;
    const MAX_DEFAULT: Self = f32::NEG_INFINITY;
    const MIN_DEFAULT: Self = f32::INFINITY;
    const INDEX_MAX: u32 = u32::MAX;
    fn index_slot(i: u32) -> Self {
        f32::from_bits(i)
    }
}

/// `ReduceOrder`: what WholeReduceMax/Min write per repeat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum ReduceOrder {
    /// `[value, index]` (the default).
    ORDER_VALUE_INDEX = 0,
    /// `[index, value]`.
    ORDER_INDEX_VALUE = 1,
    /// `[value]`.
    ORDER_ONLY_VALUE = 2,
    /// `[index]` as a uint32, also for half.
    ORDER_ONLY_INDEX = 3,
}

impl ReduceOrder {
    /// Bytes written per repeat (also the `dstRepStride` unit and the dst alignment).
    fn bytes(self, size: usize) -> u64 {
        match self {
            ReduceOrder::ORDER_VALUE_INDEX | ReduceOrder::ORDER_INDEX_VALUE => 2 * size as u64,
            ReduceOrder::ORDER_ONLY_VALUE => size as u64,
            ReduceOrder::ORDER_ONLY_INDEX => 4,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Sum,
    Max,
    Min,
}

/// Lanes a group reduces: the whole repeat, one 32-byte block, or a pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Group {
    Repeat,
    Block,
    Pair,
}

/// One level-0 reduction instruction form.
#[derive(Debug, Clone, Copy)]
struct Form {
    api: &'static str,
    support: &'static OpSupport,
    op: Op,
    group: Group,
    order: ReduceOrder,
    /// `RepeatReduceSum`: contiguous mask only, parameter named `elemsInOneRepeat`.
    contiguous_only: bool,
}

fn lanes<T: Element>() -> u32 {
    (256 / T::SIZE) as u32
}

fn read<T: Element>(ub: &[u8], addr: u64) -> T {
    bytemuck::pod_read_unaligned(&ub[addr as usize..addr as usize + T::SIZE])
}

fn write<T: Element>(ub: &mut [u8], addr: u64, v: T) {
    ub[addr as usize..addr as usize + T::SIZE].copy_from_slice(bytemuck::bytes_of(&v));
}

/// The pairwise tree: `v.len()` a power of two; every level rounded (and saturated) by `T::add`.
fn tree<T: Arith>(v: &mut [T], sat: bool) -> T {
    match v.len() {
        128 => tree_n::<T, 128>(v.try_into().expect("128 lanes"), sat),
        64 => tree_n::<T, 64>(v.try_into().expect("64 lanes"), sat),
        _ => tree_any(v, sat),
    }
}

/// [`tree`] for a fixed lane count (lets the compiler unroll and vectorise the levels).
#[inline(always)]
fn tree_n<T: Arith, const N: usize>(v: &mut [T; N], sat: bool) -> T {
    let mut n = N;
    while n > 1 {
        for i in 0..n / 2 {
            v[i] = T::add(v[2 * i], v[2 * i + 1], sat);
        }
        n /= 2;
    }
    v[0]
}

fn tree_any<T: Arith>(v: &mut [T], sat: bool) -> T {
    let mut n = v.len();
    while n > 1 {
        for i in 0..n / 2 {
            v[i] = T::add(v[2 * i], v[2 * i + 1], sat);
        }
        n /= 2;
    }
    v[0]
}

/// Loads the enabled lanes of repeat `r` into `v` (disabled lanes as +0) and marks them in `en`.
/// A source whose blocks are contiguous and whose enabled lanes are a prefix is read as one slice.
fn gather<T: ReduceElement>(
    ub: &[u8],
    src: &Operand,
    r: u32,
    bits: [u64; 2],
    lanes: u32,
    v: &mut [T; 128],
    en: &mut [bool; 128],
) {
    let l = lanes as usize;
    let n = span(bits) as usize;
    let prefix = (bits[0].count_ones() + bits[1].count_ones()) as usize == n;
    v[..l].fill(T::ZERO);
    en[..l].fill(false);
    if prefix && (src.blk_stride == 1 || n * T::SIZE <= BLOCK as usize) {
        let a = src.lane_addr(T::SIZE, r, 0) as usize;
        let bytes = &ub[a..a + n * T::SIZE];
        match bytemuck::try_cast_slice::<u8, T>(bytes) {
            Ok(vals) => v[..n].copy_from_slice(vals),
            Err(_) => {
                for (k, c) in bytes.chunks_exact(T::SIZE).enumerate() {
                    v[k] = bytemuck::pod_read_unaligned(c);
                }
            }
        }
        en[..n].fill(true);
    } else {
        for_lanes(bits, lanes, |k| {
            v[k as usize] = read::<T>(ub, src.lane_addr(T::SIZE, r, k));
            en[k as usize] = true;
        });
    }
}

/// True when `cand` replaces `best` in a MAX (MIN) selection: strictly better, NaN wins, the
/// earlier one wins ties.
fn better<T: ReduceElement>(op: Op, cand: T, best: T) -> bool {
    #[allow(clippy::eq_op)]
    let (cn, bn) = (cand != cand, best != best);
    if bn {
        false
    } else if cn {
        true
    } else if op == Op::Max {
        cand > best
    } else {
        cand < best
    }
}

/// Highest enabled lane + 1 in `bits`.
fn span(bits: [u64; 2]) -> u32 {
    if bits[1] != 0 {
        128 - bits[1].leading_zeros()
    } else {
        64 - bits[0].leading_zeros()
    }
}

/// First byte past the first `span` lanes of repeat `r` (block strides may be 0 or overlap).
fn lanes_end(op: &Operand, size: usize, r: u32, span: u32) -> u64 {
    let e = (BLOCK as usize / size) as u32;
    let nb = span.div_ceil(e);
    let last = span - (nb - 1) * e;
    let bs = |j: u32| {
        op.addr + BLOCK * (r as u64 * op.rep_stride as u64 + j as u64 * op.blk_stride as u64)
    };
    let mut end = bs(nb - 1) + last as u64 * size as u64;
    if nb >= 2 {
        end = end.max(bs(nb - 2) + BLOCK);
    }
    end
}

/// The repeats whose extents bound an instruction's footprint (first, last full, last).
fn boundary_repeats(shape: &Shape) -> [u32; 3] {
    let last = shape.repeats - 1;
    [0, last.saturating_sub(1), last]
}

/// First byte past everything the source operand reads.
fn src_end(op: &Operand, size: usize, shape: &Shape) -> u64 {
    boundary_repeats(shape)
        .iter()
        .map(|&r| match span(shape.bits(r)) {
            0 => op.addr,
            s => lanes_end(op, size, r, s),
        })
        .max()
        .unwrap_or(op.addr)
}

/// Byte ranges repeat `r` reads: from each block with an enabled lane, up to its last enabled lane.
fn src_ranges(op: &Operand, size: usize, shape: &Shape, r: u32, out: &mut Vec<(u64, u64)>) {
    out.clear();
    let e = (BLOCK as usize / size) as u32;
    let bits = shape.bits(r);
    for j in 0..shape.lanes / e {
        let mut hi = None;
        for_lanes(bits, shape.lanes, |k| {
            if k / e == j {
                hi = Some(k % e);
            }
        });
        if let Some(h) = hi {
            let s = op.lane_addr(size, r, j * e);
            out.push((s, s + (h as u64 + 1) * size as u64));
        }
    }
}

fn intersects(a: (u64, u64), b: (u64, u64)) -> bool {
    a.0 < b.1 && b.0 < a.1
}

/// Checks an operand is a UB tensor whose start is `align`-byte aligned.
fn check_operand<T: Element>(
    api: &'static str,
    name: &str,
    t: &LocalTensor<T>,
    align: u64,
) -> Result<()> {
    if t.hw != Hardware::UB {
        return Err(SimError::new(
            Category::Position,
            api,
            format!(
                "tensor `{name}` is in {} ({}); supported positions are VECIN/VECCALC/VECOUT (UB)",
                t.pos, t.hw
            ),
        ));
    }
    if t.addr as u64 % align != 0 {
        return Err(SimError::align(
            api,
            &format!("tensor `{name}`"),
            t.addr as u64,
            align as u32,
            "UB",
        ));
    }
    Ok(())
}

fn check_fits<T: Element>(
    api: &'static str,
    name: &str,
    t: &LocalTensor<T>,
    end: u64,
    mode: &str,
) -> Result<()> {
    let need = end - t.addr as u64;
    if need > t.len as u64 {
        return Err(SimError::new(
            Category::Size,
            api,
            format!(
                "tensor `{name}` size in {mode}: the instruction touches {need} bytes from its start, while the tensor has only {} bytes ({} elements)",
                t.len,
                t.get_size()
            ),
        ));
    }
    Ok(())
}

/// A stride or repeat parameter of a reduction (`int32_t`, documented range).
fn check_param(api: &'static str, name: &str, v: i32, hi: i32) -> Result<u32> {
    if (0..=hi).contains(&v) {
        Ok(v as u32)
    } else {
        Err(SimError::range(api, name, v, format!("[0, {hi}]")))
    }
}

/// The mask/mode state a level-0 call runs with (not yet written to the core), and the shape.
fn level0_shape<T: Element>(
    core: &mut Core,
    form: &Form,
    loc: SourceLoc,
    mask: Mask,
    repeat: u32,
) -> Result<(crate::core::vector::VectorState, Shape)> {
    let api = form.api;
    let l = lanes::<T>();
    let mut st = core.vector;
    let param = if form.contiguous_only {
        "elemsInOneRepeat"
    } else {
        "mask"
    };
    match mask {
        Mask::Keep => {}
        Mask::Count(n) => {
            let v = n as i64;
            if !st.counter_mode && !(0..=l as i64).contains(&v) {
                return Err(SimError::range(
                    api,
                    param,
                    v,
                    format!("[1, {l}] for {} ({l} lanes per repeat)", T::DTYPE),
                ));
            }
            st.mask = contiguous_mask_bits(v.max(0) as u64, l);
            if st.counter_mode {
                core.warn(
                    Category::Range,
                    api,
                    format!(
                        "counter mode with the contiguous `{param}` = {v}: the mask register becomes the first-{v}-lanes bit pattern and the counter reads its low 32 bits ({} elements); pass MASK_PLACEHOLDER after SetVectorMask, or a [count, 0] bit mask",
                        st.mask[0] & 0xFFFF_FFFF
                    ),
                    loc,
                );
            }
        }
        Mask::Bits(b) => {
            if form.contiguous_only {
                return Err(SimError::new(
                    Category::Unsupported,
                    api,
                    format!("parameter `{param}` = [{:#x}, {:#x}]: {api} takes only a contiguous element count; use WholeReduceSum for a bitwise mask", b[0], b[1]),
                ));
            }
            st.mask = if l <= 64 && !st.counter_mode {
                [b[0], 0]
            } else {
                b
            };
        }
    }
    let shape = st.shape(l, repeat);
    Ok((st, shape))
}

/// Runs one level-0 reduction instruction after validating every operand and parameter.
#[allow(clippy::too_many_arguments)]
fn level0<T: ReduceElement>(
    form: Form,
    loc: SourceLoc,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    mask: Mask,
    repeat: i32,
    dst_rep_stride: i32,
    src_blk_stride: i32,
    src_rep_stride: i32,
) -> Result<()> {
    let api = form.api;
    with_core(api, loc, |core| {
        check_dtype(core, api, T::DTYPE, form.support)?;
        let rules = ReduceRules::of(core.profile.product);
        let s = T::SIZE;
        let l = lanes::<T>();
        // Output geometry: dstRepStride unit, bytes of one output, outputs per repeat.
        let (unit, out_bytes, groups, dst_align) = match form.group {
            Group::Repeat => {
                let b = form.order.bytes(s);
                (b, b, 1u32, b)
            }
            Group::Block => (8 * s as u64, s as u64, 8, 8 * s as u64),
            Group::Pair => (128, s as u64, l / 2, 32),
        };
        check_operand(api, "dst", dst, dst_align)?;
        check_operand(api, "src", src, BLOCK)?;
        let repeat = check_param(api, "repeatTime", repeat, 255)?;
        let dst_rep = check_param(api, "dstRepStride", dst_rep_stride, 65535)?;
        let src_blk = check_param(api, "srcBlkStride", src_blk_stride, 65535)?;
        let src_rep = check_param(api, "srcRepStride", src_rep_stride, 65535)?;
        if dst_rep == 0
            && !rules.dst_rep_stride_zero
            && form.op == Op::Sum
            && form.group != Group::Block
        {
            return Err(SimError::range(
                api,
                "dstRepStride",
                0,
                format!("[1, 65535] on {} (0 is not supported)", core.profile.soc),
            ));
        }
        if form.group == Group::Repeat && form.op != Op::Sum && !rules.orders[form.order as usize] {
            let ok: Vec<String> = (0..4)
                .filter(|&i| rules.orders[i])
                .map(|i| format!("{i}"))
                .collect();
            return Err(SimError::new(
                Category::Unsupported,
                api,
                format!(
                    "parameter `order` = {:?} ({}) is not supported on {} (supported: {})",
                    form.order,
                    form.order as u8,
                    core.profile.soc,
                    ok.join(", ")
                ),
            ));
        }
        let (state, shape) = level0_shape::<T>(core, &form, loc, mask, repeat)?;
        if shape.is_empty() {
            let mask_empty = repeat != 0 || state.counter_mode;
            if mask_empty && !core.profile.mask_zero_is_nop {
                return Err(SimError::range(
                    api,
                    if form.contiguous_only {
                        "elemsInOneRepeat"
                    } else {
                        "mask"
                    },
                    0,
                    format!(
                        "[1, {l}] on {} (a mask of 0 cannot be used)",
                        core.profile.soc
                    ),
                ));
            }
            core.vector = state;
            let why = if mask_empty {
                "the mask enables no lane"
            } else {
                "repeatTime = 0"
            };
            core.warn(
                Category::Nop,
                api,
                format!("{why}: {api} is equivalent to a NOP"),
                loc,
            );
            return Ok(());
        }
        let src_op = Operand {
            addr: src.addr as u64,
            blk_stride: src_blk,
            rep_stride: src_rep,
        };
        let mode = if state.counter_mode {
            "counter mode"
        } else {
            "normal mode"
        };
        check_fits(api, "src", src, src_end(&src_op, s, &shape), mode)?;
        let writes_default = rules.empty_group_default;
        // Bytes written by repeat r, relative to its output start.
        let e = BLOCK as u32 / s as u32;
        let glanes = match form.group {
            Group::Repeat => l,
            Group::Block => e,
            Group::Pair => 2,
        };
        let written = |r: u32| -> u64 {
            if form.group == Group::Repeat {
                return out_bytes;
            }
            let last_group = if writes_default {
                groups
            } else {
                span(shape.bits(r)).div_ceil(glanes)
            };
            last_group as u64 * out_bytes
        };
        let dst_at = |r: u32| dst.addr as u64 + r as u64 * dst_rep as u64 * unit;
        let dst_end = boundary_repeats(&shape)
            .iter()
            .map(|&r| dst_at(r) + written(r))
            .max()
            .unwrap_or(dst.addr as u64);
        check_fits(api, "dst", dst, dst_end, mode)?;
        check_overlap(api, &shape, &src_op, s, dst_at, &written)?;

        core.vector = state;
        let sat = core.vector.fp16_saturation;
        let ub = core.mem.bytes_mut(Hardware::UB);
        let mut v = [T::ZERO; 128];
        let mut en = [false; 128];
        let dense_sums = form.op == Op::Sum
            && form.group == Group::Repeat
            && shape.dense_prefix().is_some()
            && src_op.is_dense(s, l);
        if dense_sums {
            // Fast path: full-mask dense source, one pairwise tree per repeat straight from UB.
            let n = shape.dense_prefix().unwrap_or(0) as usize;
            let a = src_op.addr as usize;
            let vals: &[T] = bytemuck::cast_slice(&ub[a..a + n * s]);
            let mut sums = Vec::with_capacity(shape.repeats as usize);
            for chunk in vals.chunks(l as usize) {
                v[..chunk.len()].copy_from_slice(chunk);
                v[chunk.len()..l as usize].fill(T::ZERO);
                sums.push(tree(&mut v[..l as usize], sat));
            }
            for (r, sum) in sums.into_iter().enumerate() {
                write(ub, dst_at(r as u32), sum);
            }
        }
        for r in 0..if dense_sums { 0 } else { shape.repeats } {
            let bits = shape.bits(r);
            gather(ub, &src_op, r, bits, l, &mut v, &mut en);
            let base = dst_at(r);
            for g in 0..groups {
                let lo = (g * glanes) as usize;
                let hi = lo + glanes as usize;
                let any = if form.group == Group::Repeat {
                    bits != [0, 0]
                } else {
                    en[lo..hi].iter().any(|&x| x)
                };
                let out = base + g as u64 * out_bytes;
                if !any {
                    if writes_default {
                        let d = match form.op {
                            Op::Sum => T::ZERO,
                            Op::Max => T::MAX_DEFAULT,
                            Op::Min => T::MIN_DEFAULT,
                        };
                        write(ub, out, d);
                    }
                    continue;
                }
                match form.op {
                    Op::Sum => {
                        let sum = tree(&mut v[lo..hi], sat);
                        write(ub, out, sum);
                    }
                    op => {
                        let mut best = (T::ZERO, u32::MAX);
                        for k in lo..hi {
                            if en[k] && (best.1 == u32::MAX || better(op, v[k], best.0)) {
                                best = (v[k], k as u32);
                            }
                        }
                        if form.group == Group::Repeat {
                            write_value_index(ub, out, form.order, best.0, best.1);
                        } else {
                            write(ub, out, best.0);
                        }
                    }
                }
            }
        }
        let dst_acc = Access {
            write: true,
            space: Space::Local(Hardware::UB),
            base: dst.addr as u64,
            len: written(0) as u32,
            blocks: 1,
            block_stride: 0,
            repeats: shape.repeats,
            repeat_stride: dst_rep as u64 * unit,
        };
        let src_acc = src_op.access(false, s, &shape);
        core.issue(Pipe::V, api, loc, &[dst_acc, src_acc]);
        Ok(())
    })
}

/// Writes one WholeReduceMax/Min result in the requested order.
fn write_value_index<T: ReduceElement>(
    ub: &mut [u8],
    at: u64,
    order: ReduceOrder,
    value: T,
    index: u32,
) {
    let s = T::SIZE as u64;
    match order {
        ReduceOrder::ORDER_VALUE_INDEX => {
            write(ub, at, value);
            write(ub, at + s, T::index_slot(index));
        }
        ReduceOrder::ORDER_INDEX_VALUE => {
            write(ub, at, T::index_slot(index));
            write(ub, at + s, value);
        }
        ReduceOrder::ORDER_ONLY_VALUE => write(ub, at, value),
        ReduceOrder::ORDER_ONLY_INDEX => write(ub, at, index),
    }
}

/// The documented overlap rules: within a repeat, source and destination may overlap only when
/// they start at the same address; a later repeat must not read what an earlier one wrote.
fn check_overlap(
    api: &'static str,
    shape: &Shape,
    src: &Operand,
    size: usize,
    dst_at: impl Fn(u32) -> u64,
    written: &dyn Fn(u32) -> u64,
) -> Result<()> {
    let read_hull = (src.addr, src_end(src, size, shape));
    let last = shape.repeats - 1;
    let write_hull = (dst_at(0), dst_at(last) + written(last).max(written(0)));
    if !intersects(read_hull, write_hull) {
        return Ok(());
    }
    let mut reads = Vec::with_capacity(8);
    for r in 0..shape.repeats {
        let w = (dst_at(r), dst_at(r) + written(r));
        src_ranges(src, size, shape, r, &mut reads);
        if reads.iter().any(|&x| intersects(x, w)) && w.0 != src.lane_addr(size, r, 0) {
            return Err(SimError::new(
                Category::Overlap,
                api,
                format!(
                    "repeat {r} writes `dst` bytes {}..{} that partially overlap the `src` bytes it reads: source and destination may overlap only 100% (same start address)",
                    w.0, w.1
                ),
            ));
        }
        let mut r2 = r + 1;
        while r2 < shape.repeats {
            let start = src.addr + BLOCK * r2 as u64 * src.rep_stride as u64;
            if src.rep_stride != 0 && start >= w.1 {
                break;
            }
            src_ranges(src, size, shape, r2, &mut reads);
            if reads.iter().any(|&x| intersects(x, w)) {
                return Err(SimError::new(
                    Category::Overlap,
                    api,
                    format!(
                        "repeat {r} writes `dst` bytes {}..{} that repeat {r2} then reads from `src`: with repeatTime > 1 a repeat must not read what an earlier repeat wrote",
                        w.0, w.1
                    ),
                ));
            }
            // With a repeat stride of 0 every repeat but a counter-mode tail reads the same bytes.
            r2 = if src.rep_stride == 0 && r2 + 1 < last {
                last
            } else {
                r2 + 1
            };
        }
    }
    Ok(())
}

const REPEAT_REDUCE_SUM: Form = Form {
    api: "RepeatReduceSum",
    support: &support::REDUCE_SUM,
    op: Op::Sum,
    group: Group::Repeat,
    order: ReduceOrder::ORDER_ONLY_VALUE,
    contiguous_only: true,
};

const fn whole(api: &'static str, op: Op, order: ReduceOrder) -> Form {
    Form {
        api,
        support: if matches!(op, Op::Sum) {
            &support::REDUCE_SUM
        } else {
            &support::REDUCE_OTHER
        },
        op,
        group: Group::Repeat,
        order,
        contiguous_only: false,
    }
}

const fn grouped(api: &'static str, op: Op, group: Group) -> Form {
    Form {
        api,
        support: &support::REDUCE_OTHER,
        op,
        group,
        order: ReduceOrder::ORDER_ONLY_VALUE,
        contiguous_only: false,
    }
}

/// `RepeatReduceSum<T, isSetMask>(dst, src, repeat, elemsInOneRepeat, dstBlkStride, srcBlkStride,
/// dstRepStride, srcRepStride)`: the pairwise-tree sum of the first `elems_in_one_repeat` lanes of
/// each of `repeat` repeats, one element per repeat.
///
/// `elems_in_one_repeat`: lanes per repeat ([1, 128] half, [1, 64] float), or `MASK_PLACEHOLDER`
/// for `isSetMask = false` (the current mask register and mode). `dst_blk_stride` is ignored.
/// `src_blk_stride` and `src_rep_stride` are in 32-byte blocks; `dst_rep_stride` in elements.
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn repeat_reduce_sum<T: ReduceElement>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    repeat: i32,
    elems_in_one_repeat: impl Into<Mask>,
    _dst_blk_stride: i32,
    src_blk_stride: i32,
    dst_rep_stride: i32,
    src_rep_stride: i32,
) -> Result<()> {
    level0(
        REPEAT_REDUCE_SUM,
        SourceLoc::caller(),
        dst,
        src,
        elems_in_one_repeat.into(),
        repeat,
        dst_rep_stride,
        src_blk_stride,
        src_rep_stride,
    )
}

/// `WholeReduceSum(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride)`: the
/// pairwise-tree sum of the enabled lanes of each repeat (disabled lanes count as +0 in place).
///
/// `mask`: lane count, `[low, high]` lane bits, or `MASK_PLACEHOLDER` (`isSetMask = false`).
/// `dst_rep_stride` in elements; `src_blk_stride`, `src_rep_stride` in 32-byte blocks.
#[track_caller]
pub fn whole_reduce_sum<T: ReduceElement>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    mask: impl Into<Mask>,
    repeat_time: i32,
    dst_rep_stride: i32,
    src_blk_stride: i32,
    src_rep_stride: i32,
) -> Result<()> {
    level0(
        whole("WholeReduceSum", Op::Sum, ReduceOrder::ORDER_ONLY_VALUE),
        SourceLoc::caller(),
        dst,
        src,
        mask.into(),
        repeat_time,
        dst_rep_stride,
        src_blk_stride,
        src_rep_stride,
    )
}

/// `WholeReduceMax(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, order)`:
/// per repeat the maximum of the enabled lanes and its lane index (smallest on ties), laid out by
/// `order`; the index is the raw bits of an unsigned integer in a `T` slot.
///
/// `dst_rep_stride` in units of one repeat's output (`order`: 2 slots, 1 slot or 4 bytes);
/// `src_blk_stride`, `src_rep_stride` in 32-byte blocks.
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn whole_reduce_max<T: ReduceElement>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    mask: impl Into<Mask>,
    repeat_time: i32,
    dst_rep_stride: i32,
    src_blk_stride: i32,
    src_rep_stride: i32,
    order: ReduceOrder,
) -> Result<()> {
    level0(
        whole("WholeReduceMax", Op::Max, order),
        SourceLoc::caller(),
        dst,
        src,
        mask.into(),
        repeat_time,
        dst_rep_stride,
        src_blk_stride,
        src_rep_stride,
    )
}

/// `WholeReduceMin(…)`: as [`whole_reduce_max`] with the minimum.
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn whole_reduce_min<T: ReduceElement>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    mask: impl Into<Mask>,
    repeat_time: i32,
    dst_rep_stride: i32,
    src_blk_stride: i32,
    src_rep_stride: i32,
    order: ReduceOrder,
) -> Result<()> {
    level0(
        whole("WholeReduceMin", Op::Min, order),
        SourceLoc::caller(),
        dst,
        src,
        mask.into(),
        repeat_time,
        dst_rep_stride,
        src_blk_stride,
        src_rep_stride,
    )
}

macro_rules! grouped_api {
    ($(#[$doc:meta])* $name:ident, $api:literal, $op:expr, $group:expr) => {
        $(#[$doc])*
        #[track_caller]
        pub fn $name<T: ReduceElement>(
            dst: &LocalTensor<T>,
            src: &LocalTensor<T>,
            repeat_time: i32,
            mask: impl Into<Mask>,
            dst_rep_stride: i32,
            src_blk_stride: i32,
            src_rep_stride: i32,
        ) -> Result<()> {
            level0(
                grouped($api, $op, $group),
                SourceLoc::caller(),
                dst,
                src,
                mask.into(),
                repeat_time,
                dst_rep_stride,
                src_blk_stride,
                src_rep_stride,
            )
        }
    };
}

grouped_api!(
    /// `BlockReduceSum(dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride)`: per
    /// repeat 8 results, the pairwise-tree sum of each 32-byte block's enabled lanes.
    /// `dst_rep_stride` in units of 8 elements; `src_blk_stride`, `src_rep_stride` in 32-byte blocks.
    block_reduce_sum, "BlockReduceSum", Op::Sum, Group::Block
);
grouped_api!(
    /// `BlockReduceMax(…)`: as [`block_reduce_sum`] with the maximum of each block.
    block_reduce_max, "BlockReduceMax", Op::Max, Group::Block
);
grouped_api!(
    /// `BlockReduceMin(…)`: as [`block_reduce_sum`] with the minimum of each block.
    block_reduce_min, "BlockReduceMin", Op::Min, Group::Block
);
grouped_api!(
    /// `PairReduceSum(dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride)`: per
    /// repeat L/2 results, lane 2i + lane 2i+1. `dst_rep_stride` in units of 128 bytes;
    /// `src_blk_stride`, `src_rep_stride` in 32-byte blocks.
    pair_reduce_sum, "PairReduceSum", Op::Sum, Group::Pair
);

/// How a whole-tensor reduction names its input.
#[derive(Debug, Clone, Copy)]
enum Extent {
    /// Level 2: the first `count` elements.
    Count(i32),
    /// Level 0: `repeat` repeats of the mask, `srcRepStride` blocks apart (block stride 1).
    Repeats {
        mask: Mask,
        repeat: i32,
        src_rep_stride: i32,
    },
}

/// Work-buffer elements ReduceMax/Min need with `calIndex` (the CPU-debug checker's formula,
/// `validation.md` §2.7), for `r` first-level repeats, `e` elements per block and `l` lanes.
fn max_index_work(r: u64, e: u64, l: u64) -> u64 {
    let a = |x: u64| x.div_ceil(e) * e;
    let c = |x: u64| 2 * x.div_ceil(l);
    let it1 = 2 * r;
    if it1 == 2 {
        return 2;
    }
    let s2 = a(it1);
    let it2 = c(it1);
    if it2 == 2 {
        return s2 + 2;
    }
    let s3 = a(s2 + it2);
    if it2 > l {
        a(s3 + c(it2)) + 2
    } else {
        s3 + 2
    }
}

/// Per-repeat tree sums of `shape` over `src`.
fn partial_sums<T: ReduceElement>(ub: &[u8], src: &Operand, shape: &Shape, sat: bool) -> Vec<T> {
    let l = shape.lanes;
    let mut v = [T::ZERO; 128];
    let mut en = [false; 128];
    (0..shape.repeats)
        .map(|r| {
            gather(ub, src, r, shape.bits(r), l, &mut v, &mut en);
            tree(&mut v[..l as usize], sat)
        })
        .collect()
}

/// Per-repeat (value, lane) selections of `shape` over `src`.
fn partial_best<T: ReduceElement>(
    ub: &[u8],
    src: &Operand,
    shape: &Shape,
    op: Op,
) -> Vec<(T, u32)> {
    (0..shape.repeats)
        .map(|r| {
            let mut best: Option<(T, u32)> = None;
            for_lanes(shape.bits(r), shape.lanes, |k| {
                let x = read::<T>(ub, src.lane_addr(T::SIZE, r, k));
                if best.map_or(true, |b| better(op, x, b.0)) {
                    best = Some((x, k));
                }
            });
            best.unwrap_or((T::ZERO, 0))
        })
        .collect()
}

/// TREE-OF-TREES (`reductions.md` §7.1): the partials are reduced `l` at a time, each group a
/// tree padded with +0, until one value is left. Returns the value and the length of every level.
fn tree_of_trees<T: ReduceElement>(p: &mut [T], l: usize, sat: bool) -> (T, Vec<usize>) {
    let mut len = p.len();
    let mut levels = vec![len];
    let mut v = [T::ZERO; 128];
    while len > 1 {
        let m = len.div_ceil(l);
        for j in 0..m {
            let chunk = &p[j * l..len.min((j + 1) * l)];
            v[..l].fill(T::ZERO);
            v[..chunk.len()].copy_from_slice(chunk);
            p[j] = tree(&mut v[..l], sat);
        }
        len = m;
        levels.push(len);
    }
    (p[0], levels)
}

fn ub_access(write: bool, base: u64, len: u64) -> Access {
    Access::contiguous(write, Space::Local(Hardware::UB), base, len)
}

/// A contiguous level-2 shape of `n` lanes starting at repeat 0 (counter mode or one masked repeat).
fn count_shape(l: u32, n: u64) -> Shape {
    Shape {
        lanes: l,
        repeats: n.div_ceil(l as u64) as u32,
        enable: Enable::Counter(n),
    }
}

/// ReduceSum / ReduceMax / ReduceMin: validation, the product's algorithm, the records.
#[allow(clippy::too_many_arguments)]
fn reduce_whole<T: ReduceElement>(
    api: &'static str,
    op: Op,
    loc: SourceLoc,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    work: &LocalTensor<T>,
    extent: Extent,
    cal_index: bool,
) -> Result<()> {
    with_core(api, loc, |core| {
        let table = if op == Op::Sum {
            &support::REDUCE_SUM
        } else {
            &support::REDUCE_OTHER
        };
        check_dtype(core, api, T::DTYPE, table)?;
        let rules = ReduceRules::of(core.profile.product);
        let (s, l) = (T::SIZE, lanes::<T>());
        let e = (BLOCK as usize / s) as u64;
        check_operand(api, "dst", dst, s as u64)?;
        check_operand(api, "src", src, BLOCK)?;
        check_operand(api, "sharedTmpBuffer", work, BLOCK)?;
        let src_op;
        // The source shape: one instruction's lanes (level 0), or all `count` elements.
        let shape;
        // First-level repeats that go through the work buffer.
        let first;
        match extent {
            Extent::Count(n) => {
                let max = core.mem.size(Hardware::UB) as i64 / s as i64;
                if !(1..=max).contains(&(n as i64)) {
                    return Err(SimError::range(
                        api,
                        "count",
                        n,
                        format!(
                            "[1, {max}] ({} bytes of UB / sizeof({}))",
                            max * s as i64,
                            T::DTYPE
                        ),
                    ));
                }
                src_op = Operand::contiguous(src.addr as u64, s, l);
                shape = count_shape(l, n as u64);
                first = (n as u32 / l).max(1);
                check_fits(
                    api,
                    "src",
                    src,
                    src.addr as u64 + n as u64 * s as u64,
                    "calcount mode",
                )?;
            }
            Extent::Repeats {
                mask,
                repeat,
                src_rep_stride,
            } => {
                if repeat < 0 {
                    return Err(SimError::range(api, "repeatTime", repeat, "[0, 2^31)"));
                }
                let rep = check_param(api, "srcRepStride", src_rep_stride, 65535)?;
                let bits = match mask {
                    Mask::Keep => {
                        return Err(SimError::new(
                            Category::Unsupported,
                            api,
                            format!("parameter `mask` = MASK_PLACEHOLDER: {api} has no isSetMask form; pass a lane count or lane bits"),
                        ))
                    }
                    Mask::Count(n) => {
                        let v = n as i64;
                        if !(0..=l as i64).contains(&v) {
                            return Err(SimError::range(
                                api,
                                "mask",
                                v,
                                format!("[1, {l}] for {}", T::DTYPE),
                            ));
                        }
                        contiguous_mask_bits(v as u64, l)
                    }
                    Mask::Bits(b) if l <= 64 => [b[0], 0],
                    Mask::Bits(b) => b,
                };
                if bits == [0, 0] || repeat == 0 {
                    if bits == [0, 0] && !core.profile.mask_zero_is_nop {
                        return Err(SimError::range(
                            api,
                            "mask",
                            0,
                            format!(
                                "[1, {l}] on {} (a mask of 0 cannot be used)",
                                core.profile.soc
                            ),
                        ));
                    }
                    let why = if repeat == 0 {
                        "repeatTime = 0"
                    } else {
                        "the mask enables no lane"
                    };
                    core.warn(
                        Category::Nop,
                        api,
                        format!("{why}: {api} is equivalent to a NOP"),
                        loc,
                    );
                    return Ok(());
                }
                src_op = Operand {
                    addr: src.addr as u64,
                    blk_stride: 1,
                    rep_stride: rep,
                };
                shape = Shape {
                    lanes: l,
                    repeats: repeat as u32,
                    enable: Enable::Bits(bits),
                };
                first = repeat as u32;
                check_fits(api, "src", src, src_end(&src_op, s, &shape), "normal mode")?;
            }
        }
        let is_count = matches!(extent, Extent::Count(_));
        let dst_elems = if op != Op::Sum && cal_index { 2 } else { 1 };
        check_fits(
            api,
            "dst",
            dst,
            dst.addr as u64 + dst_elems * s as u64,
            "this call",
        )?;
        let sequential = op == Op::Sum && is_count && rules.count_sum == CountSumOrder::Sequential;
        let r = first as u64;
        let (need, doc_need) = match op {
            Op::Sum => (r, r.div_ceil(e) * e),
            _ if cal_index => (max_index_work(r, e, l as u64), 0),
            _ => (2 * r, 0),
        };
        if !sequential && (work.len as u64) < need * s as u64 {
            return Err(SimError::new(
                Category::Size,
                api,
                format!(
                    "sharedTmpBuffer's size should be more than {need} elements ({} bytes) for {r} repeat(s){}, while it has only {} bytes",
                    need * s as u64,
                    if op != Op::Sum && cal_index { " with calIndex" } else { "" },
                    work.len
                ),
            ));
        }
        if !sequential && (work.len as u64) < doc_need * s as u64 {
            core.warn(
                Category::Size,
                api,
                format!("sharedTmpBuffer has {} bytes, less than the documented ceil({r}/{e})·{e} = {doc_need} elements", work.len),
                loc,
            );
        }

        let sat = core.vector.fp16_saturation;
        let w = work.addr as u64;
        let d = dst.addr as u64;
        let step = (l as u64 * s as u64 / BLOCK) as u32;
        if op == Op::Sum {
            let ub = core.mem.bytes_mut(Hardware::UB);
            if sequential {
                let p = partial_sums::<T>(ub, &src_op, &shape, sat);
                let acc = p[1..].iter().fold(p[0], |a, &x| T::add(a, x, sat));
                write(ub, d, acc);
                let src_acc = src_op.access(false, s, &shape);
                core.issue(Pipe::V, api, loc, &[src_acc]);
                core.issue(Pipe::S, api, loc, &[ub_access(true, d, s as u64)]);
            } else {
                // The tree part: full repeats only in the count form, with the tail added last.
                let (body_shape, tail) = match extent {
                    Extent::Count(n) if n as u32 >= l => {
                        let nfull = n as u32 / l;
                        (count_shape(l, (nfull * l) as u64), n as u32 % l)
                    }
                    _ => (shape, 0),
                };
                let mut p = partial_sums::<T>(ub, &src_op, &body_shape, sat);
                for (i, x) in p.iter().enumerate() {
                    write(ub, w + (i * s) as u64, *x);
                }
                let mut records = Vec::new();
                let mut done = 0u32;
                while done < body_shape.repeats {
                    let n = (body_shape.repeats - done).min(255);
                    let chunk = Shape {
                        repeats: n,
                        ..body_shape
                    };
                    let op0 = Operand {
                        addr: src_op.addr + BLOCK * done as u64 * src_op.rep_stride as u64,
                        ..src_op
                    };
                    records.push([
                        ub_access(
                            true,
                            w + (done as usize * s) as u64,
                            (n as usize * s) as u64,
                        ),
                        op0.access(false, s, &chunk),
                    ]);
                    done += n;
                }
                let (mut value, levels) = tree_of_trees(&mut p, l as usize, sat);
                // The levels run in place: the work buffer ends with each level's survivors.
                if let Some(&m) = levels.get(1) {
                    for (j, x) in p[..m].iter().enumerate() {
                        write(ub, w + (j * s) as u64, *x);
                    }
                }
                for pair in levels.windows(2) {
                    let (len, m) = (pair[0] as u64, pair[1] as u64);
                    records.push([
                        ub_access(true, w, m * s as u64),
                        ub_access(false, w, len * s as u64),
                    ]);
                }
                if tail > 0 {
                    let tail_op = Operand {
                        addr: src_op.addr + BLOCK * (body_shape.repeats * step) as u64,
                        ..src_op
                    };
                    let tail_shape = count_shape(l, tail as u64);
                    let t = partial_sums::<T>(ub, &tail_op, &tail_shape, sat)[0];
                    value = T::add(value, t, sat);
                    records.push([
                        ub_access(true, w, s as u64),
                        tail_op.access(false, s, &tail_shape),
                    ]);
                }
                write(ub, d, value);
                for rec in &records {
                    core.issue(Pipe::V, api, loc, rec);
                }
                core.issue(
                    Pipe::V,
                    api,
                    loc,
                    &[ub_access(true, d, s as u64), ub_access(false, w, s as u64)],
                );
            }
        } else {
            let ub = core.mem.bytes_mut(Hardware::UB);
            let elem_of = |r: u32, k: u32| -> u64 {
                match extent {
                    Extent::Count(_) => r as u64 * l as u64 + k as u64,
                    Extent::Repeats { .. } => r as u64 * src_op.rep_stride as u64 * e + k as u64,
                }
            };
            let p = partial_best::<T>(ub, &src_op, &shape, op);
            let mut best = (p[0].0, elem_of(0, p[0].1));
            for (r, &(x, k)) in p.iter().enumerate().skip(1) {
                if better(op, x, best.0) {
                    best = (x, elem_of(r as u32, k));
                }
            }
            for (r, &(x, k)) in p.iter().take(first as usize).enumerate() {
                write(ub, w + (2 * r * s) as u64, x);
                write(ub, w + ((2 * r + 1) * s) as u64, T::index_slot(k));
            }
            write(ub, d, best.0);
            if cal_index {
                write(ub, d + s as u64, T::index_slot(best.1 as u32));
            }
            let body = Shape {
                repeats: first.min(shape.repeats),
                ..shape
            };
            let mut done = 0u32;
            while done < body.repeats {
                let n = (body.repeats - done).min(255);
                let op0 = Operand {
                    addr: src_op.addr + BLOCK * done as u64 * src_op.rep_stride as u64,
                    ..src_op
                };
                let acc = [
                    ub_access(
                        true,
                        w + (2 * done as usize * s) as u64,
                        (2 * n as usize * s) as u64,
                    ),
                    op0.access(false, s, &Shape { repeats: n, ..body }),
                ];
                core.issue(Pipe::V, api, loc, &acc);
                done += n;
            }
            if let (Extent::Count(n), true) = (extent, shape.repeats > body.repeats) {
                let tail_op = Operand {
                    addr: src_op.addr + BLOCK * (body.repeats * step) as u64,
                    ..src_op
                };
                let tail_shape = count_shape(l, n as u64 - body.repeats as u64 * l as u64);
                core.issue(Pipe::V, api, loc, &[tail_op.access(false, s, &tail_shape)]);
            }
            core.issue(
                Pipe::V,
                api,
                loc,
                &[ub_access(false, w, 2 * first as u64 * s as u64)],
            );
            core.issue(
                Pipe::S,
                api,
                loc,
                &[ub_access(true, d, dst_elems * s as u64)],
            );
            if cal_index && best.1 > T::INDEX_MAX as u64 {
                core.warn(
                    Category::DataLoss,
                    api,
                    format!(
                        "the index {} does not fit the {}-bit slot of {}: stored modulo 2^{}",
                        best.1,
                        8 * s,
                        T::DTYPE,
                        8 * s
                    ),
                    loc,
                );
            }
        }
        core.vector.counter_mode = false;
        core.vector.mask = [u64::MAX; 2];
        Ok(())
    })
}

/// `ReduceSum(dst, src, sharedTmpBuffer, count)`: `dst[0]` = the sum of the first `count`
/// elements, in the product's order (A2/A3: tree per repeat, then sequential across repeats
/// without the work buffer; 910/310P/310B: a tree of trees over the full repeats, the tail's tree
/// added last). `shared_tmp_buffer` holds ≥ max(1, count / lanes) elements where it is used.
/// Leaves the mask register all-ones in normal mode.
#[track_caller]
pub fn reduce_sum<T: ReduceElement>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    shared_tmp_buffer: &LocalTensor<T>,
    count: i32,
) -> Result<()> {
    reduce_whole(
        "ReduceSum",
        Op::Sum,
        SourceLoc::caller(),
        dst,
        src,
        shared_tmp_buffer,
        Extent::Count(count),
        false,
    )
}

/// `ReduceSum(dst, src, sharedTmpBuffer, mask, repeatTime, srcRepStride)`: level 0, `dst[0]` = the
/// tree of trees over the per-repeat tree sums of `repeat_time` repeats (may exceed 255) of the
/// mask, `src_rep_stride` 32-byte blocks apart. `shared_tmp_buffer` holds ≥ `repeat_time` elements.
#[track_caller]
pub fn reduce_sum_l0<T: ReduceElement>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    shared_tmp_buffer: &LocalTensor<T>,
    mask: impl Into<Mask>,
    repeat_time: i32,
    src_rep_stride: i32,
) -> Result<()> {
    let extent = Extent::Repeats {
        mask: mask.into(),
        repeat: repeat_time,
        src_rep_stride,
    };
    reduce_whole(
        "ReduceSum",
        Op::Sum,
        SourceLoc::caller(),
        dst,
        src,
        shared_tmp_buffer,
        extent,
        false,
    )
}

/// `ReduceMax(dst, src, sharedTmpBuffer, count, calIndex)`: `dst[0]` = the maximum of the first
/// `count` elements; with `cal_index`, `dst[1]` = the element number of its first occurrence as
/// the raw bits of an unsigned integer (uint16 for half, uint32 for float).
#[track_caller]
pub fn reduce_max<T: ReduceElement>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    shared_tmp_buffer: &LocalTensor<T>,
    count: i32,
    cal_index: bool,
) -> Result<()> {
    reduce_whole(
        "ReduceMax",
        Op::Max,
        SourceLoc::caller(),
        dst,
        src,
        shared_tmp_buffer,
        Extent::Count(count),
        cal_index,
    )
}

/// `ReduceMin(dst, src, sharedTmpBuffer, count, calIndex)`: as [`reduce_max`] with the minimum.
#[track_caller]
pub fn reduce_min<T: ReduceElement>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    shared_tmp_buffer: &LocalTensor<T>,
    count: i32,
    cal_index: bool,
) -> Result<()> {
    reduce_whole(
        "ReduceMin",
        Op::Min,
        SourceLoc::caller(),
        dst,
        src,
        shared_tmp_buffer,
        Extent::Count(count),
        cal_index,
    )
}

/// `ReduceMax(dst, src, sharedTmpBuffer, mask, repeatTime, srcRepStride, calIndex)`: level 0; the
/// index is `r · srcRepStride · (32 / sizeof(T)) + lane` of the first occurrence.
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn reduce_max_l0<T: ReduceElement>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    shared_tmp_buffer: &LocalTensor<T>,
    mask: impl Into<Mask>,
    repeat_time: i32,
    src_rep_stride: i32,
    cal_index: bool,
) -> Result<()> {
    let extent = Extent::Repeats {
        mask: mask.into(),
        repeat: repeat_time,
        src_rep_stride,
    };
    reduce_whole(
        "ReduceMax",
        Op::Max,
        SourceLoc::caller(),
        dst,
        src,
        shared_tmp_buffer,
        extent,
        cal_index,
    )
}

/// `ReduceMin(dst, src, sharedTmpBuffer, mask, repeatTime, srcRepStride, calIndex)`: as
/// [`reduce_max_l0`] with the minimum.
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn reduce_min_l0<T: ReduceElement>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    shared_tmp_buffer: &LocalTensor<T>,
    mask: impl Into<Mask>,
    repeat_time: i32,
    src_rep_stride: i32,
    cal_index: bool,
) -> Result<()> {
    let extent = Extent::Repeats {
        mask: mask.into(),
        repeat: repeat_time,
        src_rep_stride,
    };
    reduce_whole(
        "ReduceMin",
        Op::Min,
        SourceLoc::caller(),
        dst,
        src,
        shared_tmp_buffer,
        extent,
        cal_index,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::tpipe::{TBuf, TPipe};
    use crate::launch::Launch;
    use crate::position::QuePosition;
    use std::sync::Mutex;

    #[test]
    fn tree_pairs_neighbours_level_by_level() {
        // [a, b, c, d] → (a + b) + (c + d): 2048 + 1 ties to 2048 before 1 + 1 is added.
        let mut v = [2048.0, 1.0, 1.0, 0.0].map(f16::from_f32);
        assert_eq!(tree(&mut v, true).to_f32(), 2048.0);
        let mut v = [2048.0, 1.0, 1.0, 1.0].map(f16::from_f32);
        assert_eq!(tree(&mut v, true).to_f32(), 2050.0);
    }

    #[test]
    fn checker_work_formula() {
        // validation.md §2.7, half (E 16, L 128).
        assert_eq!(max_index_work(1, 16, 128), 2);
        assert_eq!(max_index_work(20, 16, 128), 50);
        // 100 repeats: it1 200, s2 208, it2 4, s3 A(212) = 224 → 226.
        assert_eq!(max_index_work(100, 16, 128), 226);
        // 8192 repeats: it2 = 2·128 = 256 > L → A(s3 + c(256)) + 2.
        let s3 = (16384 + 256u64).div_ceil(16) * 16;
        assert_eq!(
            max_index_work(8192, 16, 128),
            (s3 + 4).div_ceil(16) * 16 + 2
        );
    }

    /// Counter mode (set on the core directly, as `SetMaskCount` + `SetVectorMask` would):
    /// N = 130 halves run two repeats, the second with lanes 0 and 1 only.
    #[test]
    fn counter_mode_with_mask_placeholder() {
        let out = Mutex::new(Vec::new());
        let report = Launch::new(1)
            .run(|| {
                let mut pipe = TPipe::new();
                let mut buf = TBuf::<QuePosition::VECCALC>::new();
                pipe.init_tbuf(&mut buf, 4096)?;
                let src = buf.get_with_offset::<f16>(256, 0)?;
                let dst = buf.get_with_offset::<f16>(16, 1024)?;
                for i in 0..256 {
                    src.set_value(i, f16::from_f32(if i == 129 { 5.0 } else { 1.0 }))?;
                }
                let loc = SourceLoc::caller();
                with_core("test", loc, |core| {
                    core.vector.counter_mode = true;
                    core.vector.mask = [130, 0];
                    Ok(())
                })?;
                whole_reduce_sum(&dst, &src, Mask::Keep, 1, 1, 1, 8)?;
                let sums = [dst.get_value(0)?, dst.get_value(1)?];
                whole_reduce_max(
                    &dst,
                    &src,
                    Mask::Keep,
                    1,
                    1,
                    1,
                    8,
                    ReduceOrder::ORDER_VALUE_INDEX,
                )?;
                let mut v = sums.to_vec();
                v.extend(dst.to_vec()?[..4].iter().copied());
                // A contiguous mask in counter mode becomes a bit pattern: warned about.
                whole_reduce_sum(&dst, &src, 3, 1, 1, 1, 8)?;
                *out.lock().unwrap() = v;
                Ok(())
            })
            .unwrap();
        let v: Vec<u16> = out
            .into_inner()
            .unwrap()
            .iter()
            .map(|x| x.to_bits())
            .collect();
        let h = |x: f32| f16::from_f32(x).to_bits();
        assert_eq!(v, [h(128.0), h(6.0), h(1.0), 0, h(5.0), 1]);
        assert!(report.diagnostics().any(|d| d
            .message
            .contains("counter mode with the contiguous `mask` = 3")));
    }
}
