//! The pairwise tree, lane gathering and the geometry helpers the reductions share.

use super::*;

pub(super) fn lanes<T: Element>() -> u32 {
    (256 / T::SIZE) as u32
}

pub(super) fn read<T: Element>(ub: &[u8], addr: u64) -> T {
    bytemuck::pod_read_unaligned(&ub[addr as usize..addr as usize + T::SIZE])
}

pub(super) fn write<T: Element>(ub: &mut [u8], addr: u64, v: T) {
    ub[addr as usize..addr as usize + T::SIZE].copy_from_slice(bytemuck::bytes_of(&v));
}

/// The pairwise tree: `v.len()` a power of two; every level rounded (and saturated) by `T::add`.
pub(super) fn tree<T: Arith>(v: &mut [T], sat: bool) -> T {
    match v.len() {
        128 => tree_n::<T, 128>(v.try_into().expect("128 lanes"), sat),
        64 => tree_n::<T, 64>(v.try_into().expect("64 lanes"), sat),
        _ => tree_any(v, sat),
    }
}

/// [`tree`] for a fixed lane count (lets the compiler unroll and vectorise the levels).
#[inline(always)]
pub(super) fn tree_n<T: Arith, const N: usize>(v: &mut [T; N], sat: bool) -> T {
    let mut n = N;
    while n > 1 {
        for i in 0..n / 2 {
            v[i] = T::add(v[2 * i], v[2 * i + 1], sat);
        }
        n /= 2;
    }
    v[0]
}

pub(super) fn tree_any<T: Arith>(v: &mut [T], sat: bool) -> T {
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
pub(super) fn gather<T: ReduceElement>(
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
pub(super) fn better<T: ReduceElement>(op: Op, cand: T, best: T) -> bool {
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
pub(super) fn span(bits: [u64; 2]) -> u32 {
    if bits[1] != 0 {
        128 - bits[1].leading_zeros()
    } else {
        64 - bits[0].leading_zeros()
    }
}

/// First byte past the first `span` lanes of repeat `r` (block strides may be 0 or overlap).
pub(super) fn lanes_end(op: &Operand, size: usize, r: u32, span: u32) -> u64 {
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
pub(super) fn boundary_repeats(shape: &Shape) -> [u32; 3] {
    let last = shape.repeats - 1;
    [0, last.saturating_sub(1), last]
}

/// First byte past everything the source operand reads.
pub(super) fn src_end(op: &Operand, size: usize, shape: &Shape) -> u64 {
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
pub(super) fn src_ranges(
    op: &Operand,
    size: usize,
    shape: &Shape,
    r: u32,
    out: &mut Vec<(u64, u64)>,
) {
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

pub(super) fn intersects(a: (u64, u64), b: (u64, u64)) -> bool {
    a.0 < b.1 && b.0 < a.1
}
