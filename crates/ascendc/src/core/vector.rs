//! The vector unit: mask state and the repeat / block-stride / repeat-stride execution engine.
//!
//! Lane `k` of operand X in repeat `r` lives at
//! `addr_X + 32·(r·repStride_X + ⌊k/E_X⌋·blkStride_X) + (k mod E_X)·size_X`, `E_X = 32/size_X`.
//! Repeats run in order; within a repeat every enabled source lane is read before any
//! destination lane is written. Disabled lanes leave the destination untouched.

use super::trace::{Access, Space};
use crate::position::Hardware;
use bytemuck::Pod;

/// Bytes per data block.
pub const BLOCK: u64 = 32;
/// Bytes per repeat of a full-width operand.
pub const REPEAT_BYTES: u64 = 256;
/// Most lanes a repeat can have.
pub const MAX_LANES: usize = 128;

/// Mask register and control bits of the vector unit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VectorState {
    /// MASK register as `[low, high]` (lanes 0–63, lanes 64–127).
    pub mask: [u64; 2],
    /// `CTRL[56]`: counter mode (`MASK[31:0]` = total element count).
    pub counter_mode: bool,
    /// fp16 results saturate (±65504, NaN → 0) instead of producing Inf/NaN.
    pub fp16_saturation: bool,
    /// `SetDeqScale` factor of the int32 → half Cast.
    pub deq_scale: half::f16,
}

impl VectorState {
    /// The reset state: normal mode, every lane enabled.
    pub fn new(fp16_saturation: bool) -> VectorState {
        VectorState {
            mask: [u64::MAX; 2],
            counter_mode: false,
            fp16_saturation,
            deq_scale: half::f16::ONE,
        }
    }

    /// The lane pattern the current state gives an instruction of `lanes` lanes and `repeats`
    /// repeats (the repeat count is ignored in counter mode).
    pub fn shape(&self, lanes: u32, repeats: u32) -> Shape {
        if self.counter_mode {
            let n = self.mask[0] & 0xFFFF_FFFF;
            Shape {
                lanes,
                repeats: n.div_ceil(lanes as u64) as u32,
                enable: Enable::Counter(n),
            }
        } else {
            let [lo, hi] = self.mask;
            let bits = if lanes <= 64 {
                [
                    if lanes == 64 {
                        lo
                    } else {
                        lo & ((1u64 << lanes) - 1)
                    },
                    0,
                ]
            } else {
                [lo, hi & (u64::MAX >> (128 - lanes))]
            };
            Shape {
                lanes,
                repeats,
                enable: Enable::Bits(bits),
            }
        }
    }
}

/// Converts a contiguous mask length to the bit pattern the hardware sees (`SetMask<T>(len)`):
/// the first `len` lanes, clamped to the type's lane count. Returns `[low, high]`.
pub fn contiguous_mask_bits(len: u64, type_lanes: u32) -> [u64; 2] {
    if len == 64 {
        [u64::MAX, 0]
    } else if len == type_lanes as u64 || len >= 128 {
        [u64::MAX, u64::MAX]
    } else if len > 64 {
        [u64::MAX, (1u64 << (len - 64)) - 1]
    } else {
        [(1u64 << len) - 1, 0]
    }
}

/// Which lanes of which repeats are enabled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Enable {
    /// The same lane bits in every repeat (`[low, high]`).
    Bits([u64; 2]),
    /// The first `n` elements of the whole instruction.
    Counter(u64),
}

/// The lane geometry of one instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    /// Lanes per repeat (`256 / widest element size`, at most 128).
    pub lanes: u32,
    /// Repeats to run.
    pub repeats: u32,
    /// Enabled lanes.
    pub enable: Enable,
}

impl Shape {
    /// Enabled-lane bits of repeat `r`.
    #[inline]
    pub fn bits(&self, r: u32) -> [u64; 2] {
        match self.enable {
            Enable::Bits(b) => b,
            Enable::Counter(n) => {
                let done = r as u64 * self.lanes as u64;
                let left = n.saturating_sub(done).min(self.lanes as u64);
                contiguous_bits(left)
            }
        }
    }

    /// True when no lane of any repeat is enabled.
    pub fn is_empty(&self) -> bool {
        self.repeats == 0
            || match self.enable {
                Enable::Bits(b) => b == [0, 0],
                Enable::Counter(n) => n == 0,
            }
    }

    /// When the enabled lanes of all repeats, laid end to end, are a prefix of the
    /// `repeats × lanes` lane sequence, its length; otherwise `None`.
    #[inline]
    pub fn dense_prefix(&self) -> Option<u64> {
        match self.enable {
            Enable::Counter(n) => Some(n),
            Enable::Bits(b) => {
                let full = contiguous_bits(self.lanes as u64);
                if b == full {
                    Some(self.repeats as u64 * self.lanes as u64)
                } else if self.repeats == 1 && is_prefix(b) {
                    Some((b[0].count_ones() + b[1].count_ones()) as u64)
                } else {
                    None
                }
            }
        }
    }

    /// Highest enabled lane + 1 over all repeats (0 when none).
    pub fn lane_span(&self) -> u32 {
        match self.enable {
            Enable::Counter(n) => (n.min(self.lanes as u64)) as u32,
            Enable::Bits([lo, hi]) => {
                if hi != 0 {
                    128 - hi.leading_zeros()
                } else {
                    64 - lo.leading_zeros()
                }
            }
        }
    }
}

fn contiguous_bits(n: u64) -> [u64; 2] {
    match n {
        0 => [0, 0],
        1..=63 => [(1 << n) - 1, 0],
        64 => [u64::MAX, 0],
        65..=127 => [u64::MAX, (1 << (n - 64)) - 1],
        _ => [u64::MAX, u64::MAX],
    }
}

fn is_prefix(b: [u64; 2]) -> bool {
    let n = (b[0].count_ones() + b[1].count_ones()) as u64;
    b == contiguous_bits(n)
}

/// One operand of a vector instruction: a UB byte address and its strides in 32-byte blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Operand {
    /// UB byte address of lane 0 of repeat 0.
    pub addr: u64,
    /// Blocks between consecutive blocks of one repeat.
    pub blk_stride: u32,
    /// Blocks between the first blocks of consecutive repeats.
    pub rep_stride: u32,
}

impl Operand {
    /// A contiguous operand (block stride 1, repeat stride = the blocks one repeat uses).
    #[inline]
    pub fn contiguous(addr: u64, elem_size: usize, lanes: u32) -> Operand {
        Operand {
            addr,
            blk_stride: 1,
            rep_stride: (lanes as u64 * elem_size as u64 / BLOCK).max(1) as u32,
        }
    }

    /// Byte address of lane `k` in repeat `r` for elements of `size` bytes.
    #[inline]
    pub fn lane_addr(&self, size: usize, r: u32, k: u32) -> u64 {
        let e = (BLOCK as usize / size) as u32;
        self.addr
            + BLOCK * (r as u64 * self.rep_stride as u64 + (k / e) as u64 * self.blk_stride as u64)
            + (k % e) as u64 * size as u64
    }

    /// First byte past every lane the shape can touch (for bounds checks).
    pub fn end(&self, size: usize, shape: &Shape) -> u64 {
        let span = shape.lane_span();
        if shape.is_empty() || span == 0 {
            return self.addr;
        }
        let last_r = shape.repeats - 1;
        if self.blk_stride == 0 {
            // Every block of a repeat sits on the same 32 bytes: the furthest byte belongs to the
            // enabled lane furthest into its block, not to the last enabled lane. Repeats only
            // move forward, so the first, the last and the last full one bound the rest.
            let mut end = self.addr;
            for r in [0, last_r.saturating_sub(1), last_r] {
                for_lanes(shape.bits(r), shape.lanes, |k| {
                    end = end.max(self.lane_addr(size, r, k) + size as u64)
                });
            }
            return end;
        }
        if let Enable::Counter(n) = shape.enable {
            // Full repeats, then a last repeat with the remaining lanes.
            let tail = shape.bits(last_r);
            let tail_span = if tail[1] != 0 {
                128 - tail[1].leading_zeros()
            } else {
                64 - tail[0].leading_zeros()
            };
            let mut end = self.lane_addr(size, 0, span - 1);
            if tail_span > 0 {
                end = end.max(self.lane_addr(size, last_r, tail_span - 1));
            }
            if last_r > 0 && n > shape.lanes as u64 {
                end = end.max(self.lane_addr(size, last_r - 1, shape.lanes - 1));
            }
            return end + size as u64;
        }
        // The furthest lane is the last enabled lane of the last repeat or of the first one
        // (repeat stride 0), so take the maximum over both.
        let a = self.lane_addr(size, last_r, span - 1);
        let b = self.lane_addr(size, 0, span - 1);
        a.max(b) + size as u64
    }

    /// True when consecutive lanes of consecutive repeats are consecutive elements.
    #[inline]
    pub fn is_dense(&self, size: usize, lanes: u32) -> bool {
        let rep_bytes = lanes as u64 * size as u64;
        (self.blk_stride == 1 || rep_bytes <= BLOCK)
            && self.rep_stride as u64 * BLOCK == rep_bytes.max(BLOCK)
            && rep_bytes.is_multiple_of(BLOCK)
    }

    /// The access pattern this operand makes in `shape`.
    pub fn access(&self, write: bool, size: usize, shape: &Shape) -> Access {
        let blocks = (shape.lanes as u64 * size as u64).div_ceil(BLOCK) as u32;
        Access {
            write,
            space: Space::Local(Hardware::UB),
            base: self.addr,
            len: (BLOCK as usize).min(shape.lanes as usize * size) as u32,
            blocks: if shape.is_empty() { 0 } else { blocks },
            block_stride: self.blk_stride as u64 * BLOCK,
            repeats: shape.repeats,
            repeat_stride: self.rep_stride as u64 * BLOCK,
        }
    }
}

#[inline]
fn read<T: Pod>(ub: &[u8], addr: u64) -> T {
    bytemuck::pod_read_unaligned(&ub[addr as usize..addr as usize + std::mem::size_of::<T>()])
}

#[inline]
fn write<T: Pod>(ub: &mut [u8], addr: u64, v: T) {
    let a = addr as usize;
    ub[a..a + std::mem::size_of::<T>()].copy_from_slice(bytemuck::bytes_of(&v));
}

/// Byte range `[start, end)` of `n` dense elements of `size` bytes at `addr`.
fn range(addr: u64, size: usize, n: u64) -> (u64, u64) {
    (addr, addr + n * size as u64)
}

fn disjoint(a: (u64, u64), b: (u64, u64)) -> bool {
    a.1 <= b.0 || b.1 <= a.0
}

/// How a dense destination relates to a dense source.
fn dense_alias_ok(d: (u64, u64), s: (u64, u64)) -> Option<bool> {
    if disjoint(d, s) {
        Some(false)
    } else if d == s {
        Some(true)
    } else {
        None
    }
}

fn aligned<T>(addr: u64) -> bool {
    addr.is_multiple_of(std::mem::align_of::<T>() as u64)
}

/// `d = v` on every enabled lane (a fill).
pub fn map0<D: Pod>(ub: &mut [u8], shape: &Shape, d: Operand, v: D) {
    if shape.is_empty() {
        return;
    }
    let sd = std::mem::size_of::<D>();
    if let Some(n) = shape.dense_prefix() {
        if d.is_dense(sd, shape.lanes) {
            let (a, b) = range(d.addr, sd, n);
            for c in ub[a as usize..b as usize].chunks_exact_mut(sd) {
                c.copy_from_slice(bytemuck::bytes_of(&v));
            }
            return;
        }
    }
    for r in 0..shape.repeats {
        for_lanes(shape.bits(r), shape.lanes, |k| {
            write(ub, d.lane_addr(sd, r, k), v)
        });
    }
}

/// `d = f(a)` on every enabled lane.
pub fn map1<D: Pod, A: Pod>(
    ub: &mut [u8],
    shape: &Shape,
    d: Operand,
    a: Operand,
    f: impl Fn(A) -> D,
) {
    if shape.is_empty() {
        return;
    }
    let (sd, sa) = (std::mem::size_of::<D>(), std::mem::size_of::<A>());
    if let Some(n) = shape.dense_prefix() {
        if d.is_dense(sd, shape.lanes)
            && a.is_dense(sa, shape.lanes)
            && aligned::<D>(d.addr)
            && aligned::<A>(a.addr)
        {
            let (rd, ra) = (range(d.addr, sd, n), range(a.addr, sa, n));
            if let Some(same) = dense_alias_ok(rd, ra) {
                if !same || sd == sa {
                    dense1(ub, n as usize, d.addr, a.addr, same, f);
                    return;
                }
            }
        }
    }
    let mut av = [A::zeroed(); MAX_LANES];
    for r in 0..shape.repeats {
        let bits = shape.bits(r);
        for_lanes(bits, shape.lanes, |k| {
            av[k as usize] = read(ub, a.lane_addr(sa, r, k))
        });
        for_lanes(bits, shape.lanes, |k| {
            write(ub, d.lane_addr(sd, r, k), f(av[k as usize]))
        });
    }
}

/// `d = f(a, b)` on every enabled lane.
pub fn map2<D: Pod, A: Pod, B: Pod>(
    ub: &mut [u8],
    shape: &Shape,
    d: Operand,
    a: Operand,
    b: Operand,
    f: impl Fn(A, B) -> D,
) {
    if shape.is_empty() {
        return;
    }
    let (sd, sa, sb) = (
        std::mem::size_of::<D>(),
        std::mem::size_of::<A>(),
        std::mem::size_of::<B>(),
    );
    if let Some(n) = shape.dense_prefix() {
        if d.is_dense(sd, shape.lanes)
            && a.is_dense(sa, shape.lanes)
            && b.is_dense(sb, shape.lanes)
            && aligned::<D>(d.addr)
            && aligned::<A>(a.addr)
            && aligned::<B>(b.addr)
        {
            let (rd, ra, rb) = (
                range(d.addr, sd, n),
                range(a.addr, sa, n),
                range(b.addr, sb, n),
            );
            if let (Some(sa_), Some(sb_)) = (dense_alias_ok(rd, ra), dense_alias_ok(rd, rb)) {
                if (!sa_ || sd == sa) && (!sb_ || sd == sb) {
                    dense2(ub, n as usize, d.addr, a.addr, b.addr, sa_ || sb_, f);
                    return;
                }
            }
        }
    }
    let mut av = [A::zeroed(); MAX_LANES];
    let mut bv = [B::zeroed(); MAX_LANES];
    for r in 0..shape.repeats {
        let bits = shape.bits(r);
        for_lanes(bits, shape.lanes, |k| {
            av[k as usize] = read(ub, a.lane_addr(sa, r, k));
            bv[k as usize] = read(ub, b.lane_addr(sb, r, k));
        });
        for_lanes(bits, shape.lanes, |k| {
            write(ub, d.lane_addr(sd, r, k), f(av[k as usize], bv[k as usize]))
        });
    }
}

/// `d = f(a, b, d)` on every enabled lane (the destination is also read).
pub fn map3<D: Pod, A: Pod, B: Pod>(
    ub: &mut [u8],
    shape: &Shape,
    d: Operand,
    a: Operand,
    b: Operand,
    f: impl Fn(A, B, D) -> D,
) {
    if shape.is_empty() {
        return;
    }
    let (sd, sa, sb) = (
        std::mem::size_of::<D>(),
        std::mem::size_of::<A>(),
        std::mem::size_of::<B>(),
    );
    let mut av = [A::zeroed(); MAX_LANES];
    let mut bv = [B::zeroed(); MAX_LANES];
    let mut dv = [D::zeroed(); MAX_LANES];
    for r in 0..shape.repeats {
        let bits = shape.bits(r);
        for_lanes(bits, shape.lanes, |k| {
            av[k as usize] = read(ub, a.lane_addr(sa, r, k));
            bv[k as usize] = read(ub, b.lane_addr(sb, r, k));
            dv[k as usize] = read(ub, d.lane_addr(sd, r, k));
        });
        for_lanes(bits, shape.lanes, |k| {
            let k = k as usize;
            write(ub, d.lane_addr(sd, r, k as u32), f(av[k], bv[k], dv[k]))
        });
    }
}

/// Calls `f(k)` for every enabled lane `k < lanes`, in increasing order.
#[inline]
pub fn for_lanes(bits: [u64; 2], lanes: u32, mut f: impl FnMut(u32)) {
    for (w, word) in bits.iter().enumerate() {
        let mut m = *word;
        while m != 0 {
            let k = w as u32 * 64 + m.trailing_zeros();
            if k >= lanes {
                return;
            }
            f(k);
            m &= m - 1;
        }
    }
}

/// Panics (caught by the launch as a simulator fault) unless `n` elements of `E` at byte `at` lie
/// inside `ub` and are aligned for `E`: the invariant the raw-pointer loops below rely on, checked
/// once per instruction whatever the API layer checked before.
#[inline]
fn assert_dense_range<E>(ub: &[u8], at: u64, n: usize) {
    let end = (n as u64)
        .checked_mul(std::mem::size_of::<E>() as u64)
        .and_then(|b| b.checked_add(at));
    assert!(
        end.is_some_and(|e| e <= ub.len() as u64)
            && (ub.as_ptr() as usize + at as usize).is_multiple_of(std::mem::align_of::<E>()),
        "dense vector access of {n} elements at byte {at} lies outside the {}-byte buffer or is misaligned",
        ub.len()
    );
}

/// `d[i] = f(a[i])` over `n` elements at byte addresses `d` and `a` of `ub` (each an aligned run
/// inside it, checked here); the runs are disjoint or the same bytes (`same`).
#[inline]
pub(crate) fn dense1<D: Pod, A: Pod>(
    ub: &mut [u8],
    n: usize,
    d: u64,
    a: u64,
    same: bool,
    f: impl Fn(A) -> D,
) {
    assert_dense_range::<D>(ub, d, n);
    assert_dense_range::<A>(ub, a, n);
    let base = ub.as_mut_ptr();
    // SAFETY: both dense ranges lie in `ub` and are aligned for their types (asserted above); the
    // caller passes ranges that are disjoint or identical (`same`).
    unsafe {
        let pa = base.add(a as usize) as *const A;
        let pd = base.add(d as usize) as *mut D;
        if same {
            for i in 0..n {
                pd.add(i).write(f(pa.add(i).read()));
            }
        } else {
            let sa = std::slice::from_raw_parts(pa, n);
            let sd = std::slice::from_raw_parts_mut(pd, n);
            for (o, x) in sd.iter_mut().zip(sa) {
                *o = f(*x);
            }
        }
    }
}

/// `d[i] = f(a[i], b[i])` over `n` elements at byte addresses `d`, `a`, `b` of `ub` (each an
/// aligned run inside it, checked here); the sources may only alias the destination exactly
/// (`aliased`).
#[inline]
pub(crate) fn dense2<D: Pod, A: Pod, B: Pod>(
    ub: &mut [u8],
    n: usize,
    d: u64,
    a: u64,
    b: u64,
    aliased: bool,
    f: impl Fn(A, B) -> D,
) {
    assert_dense_range::<D>(ub, d, n);
    assert_dense_range::<A>(ub, a, n);
    assert_dense_range::<B>(ub, b, n);
    let base = ub.as_mut_ptr();
    // SAFETY: every range lies in `ub` and is aligned (asserted above); sources only alias the
    // destination exactly (`aliased`), and then only raw reads/writes of the same index are used.
    unsafe {
        let pa = base.add(a as usize) as *const A;
        let pb = base.add(b as usize) as *const B;
        let pd = base.add(d as usize) as *mut D;
        if aliased {
            for i in 0..n {
                pd.add(i).write(f(pa.add(i).read(), pb.add(i).read()));
            }
        } else {
            let sa = std::slice::from_raw_parts(pa, n);
            let sb = std::slice::from_raw_parts(pb, n);
            let sd = std::slice::from_raw_parts_mut(pd, n);
            for ((o, x), y) in sd.iter_mut().zip(sa).zip(sb) {
                *o = f(*x, *y);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn v1_worked_example_a_addresses() {
        // vector-model.md §4 example A: half, blk 2, rep 16, base 0x1000.
        let op = Operand {
            addr: 0x1000,
            blk_stride: 2,
            rep_stride: 16,
        };
        assert_eq!(op.lane_addr(2, 0, 0), 0x1000);
        assert_eq!(op.lane_addr(2, 0, 15), 0x101E);
        assert_eq!(op.lane_addr(2, 0, 16), 0x1040);
        assert_eq!(op.lane_addr(2, 0, 127), 0x11DE);
        assert_eq!(op.lane_addr(2, 1, 0), 0x1200);
        assert_eq!(op.lane_addr(2, 1, 17), 0x1242);
    }

    #[test]
    fn worked_example_b_mixed_width() {
        // Cast half→int32, lane 37 of repeat 1: src rep 4, dst rep 8.
        let src = Operand {
            addr: 0,
            blk_stride: 1,
            rep_stride: 4,
        };
        let dst = Operand {
            addr: 0,
            blk_stride: 1,
            rep_stride: 8,
        };
        assert_eq!(src.lane_addr(2, 1, 37), 202);
        assert_eq!(dst.lane_addr(4, 1, 37), 404);
    }

    #[test]
    fn v2_contiguous_mask_conversion() {
        assert_eq!(contiguous_mask_bits(0, 128), [0, 0]);
        assert_eq!(contiguous_mask_bits(64, 128), [u64::MAX, 0]);
        assert_eq!(contiguous_mask_bits(128, 128), [u64::MAX, u64::MAX]);
        assert_eq!(contiguous_mask_bits(5, 128), [0x1F, 0]);
        assert_eq!(contiguous_mask_bits(70, 128), [u64::MAX, 0x3F]);
        assert_eq!(contiguous_mask_bits(200, 128), [u64::MAX, u64::MAX]);
        assert_eq!(contiguous_mask_bits(64, 64), [u64::MAX, 0]);
        assert_eq!(contiguous_mask_bits(100, 64), [u64::MAX, 0xF_FFFF_FFFF]);
    }

    #[test]
    fn counter_mode_worked_example_d() {
        // half, N = 130, blk 2, rep 16: repeat 1 starts at element 256 and enables lanes 0, 1.
        let st = VectorState {
            mask: [130, 0],
            counter_mode: true,
            ..VectorState::new(true)
        };
        let sh = st.shape(128, 99);
        assert_eq!(sh.repeats, 2);
        assert_eq!(sh.bits(1), [0b11, 0]);
        let op = Operand {
            addr: 0,
            blk_stride: 2,
            rep_stride: 16,
        };
        assert_eq!(op.lane_addr(2, 1, 0) / 2, 256);
        assert_eq!(op.lane_addr(2, 0, 16) / 2, 32);
    }

    #[test]
    fn v4_masked_lanes_keep_destination() {
        let mut ub = vec![0u8; 1024];
        for i in 0..128u16 {
            ub[2 * i as usize..2 * i as usize + 2].copy_from_slice(&(i + 1).to_le_bytes());
            ub[512 + 2 * i as usize..514 + 2 * i as usize]
                .copy_from_slice(&0x7777u16.to_le_bytes());
        }
        let sh = Shape {
            lanes: 128,
            repeats: 1,
            enable: Enable::Bits([0x5555_5555_5555_5555; 2]),
        };
        let src = Operand::contiguous(0, 2, 128);
        let dst = Operand::contiguous(512, 2, 128);
        map2(&mut ub, &sh, dst, src, src, |a: i16, b: i16| {
            a.wrapping_add(b)
        });
        let out: Vec<i16> = ub[512..768]
            .chunks(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        assert_eq!(out[0], 2);
        assert_eq!(out[1], 0x7777);
        assert_eq!(out[126], 254);
        assert_eq!(out[127], 0x7777);
    }

    /// The address formula applied lane by lane, in the model's order (reads of a repeat, then
    /// its writes): the reference every execution path must match.
    fn reference2(ub: &mut [u8], sh: &Shape, d: Operand, a: Operand, b: Operand) {
        for r in 0..sh.repeats {
            let bits = sh.bits(r);
            let mut vals = Vec::new();
            for k in 0..sh.lanes {
                let on = if k < 64 {
                    bits[0] >> k & 1
                } else {
                    bits[1] >> (k - 64) & 1
                };
                if on == 1 {
                    let x: i16 = read(ub, a.lane_addr(2, r, k));
                    let y: i16 = read(ub, b.lane_addr(2, r, k));
                    vals.push((k, x.wrapping_mul(3).wrapping_add(y)));
                }
            }
            for (k, v) in vals {
                write(ub, d.lane_addr(2, r, k), v);
            }
        }
    }

    use proptest::prelude::*;

    fn operand(dense: bool) -> impl Strategy<Value = Operand> {
        (0u64..8, 0u32..4, 0u32..20).prop_map(move |(blk, b, r)| {
            if dense {
                Operand::contiguous(blk * 1024, 2, 128)
            } else {
                Operand {
                    addr: blk * 1024,
                    blk_stride: b,
                    rep_stride: r,
                }
            }
        })
    }

    fn shape() -> impl Strategy<Value = Shape> {
        prop_oneof![
            (1u32..6).prop_map(|r| Shape {
                lanes: 128,
                repeats: r,
                enable: Enable::Bits([u64::MAX; 2])
            }),
            (1u64..700).prop_map(|n| Shape {
                lanes: 128,
                repeats: n.div_ceil(128) as u32,
                enable: Enable::Counter(n)
            }),
            (any::<u64>(), any::<u64>(), 1u32..4).prop_map(|(lo, hi, r)| Shape {
                lanes: 128,
                repeats: r,
                enable: Enable::Bits([lo, hi])
            }),
        ]
    }

    proptest! {
        #[test]
        fn map2_matches_the_address_formula(
            seed in any::<u64>(),
            sh in shape(),
            dense in any::<bool>(),
            d in operand(true),
            a in operand(false),
            b in operand(false),
            da in operand(true),
            db in operand(true),
        ) {
            let (a, b) = if dense { (da, db) } else { (a, b) };
            let mut ub = vec![0u8; 16 * 1024];
            let mut x = seed | 1;
            for byte in ub.iter_mut() {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                *byte = x as u8;
            }
            let mut want = ub.clone();
            reference2(&mut want, &sh, d, a, b);
            map2(&mut ub, &sh, d, a, b, |p: i16, q: i16| p.wrapping_mul(3).wrapping_add(q));
            prop_assert!(ub == want);
        }

        #[test]
        fn map1_and_map0_match_the_address_formula(
            sh in shape(),
            d in operand(true),
            a in operand(true),
            s in operand(false),
            strided in any::<bool>(),
        ) {
            let a = if strided { s } else { a };
            let mut ub: Vec<u8> = (0..16 * 1024).map(|i| (i * 7 + 3) as u8).collect();
            let mut want = ub.clone();
            let zero = Operand { addr: 15 * 1024, blk_stride: 0, rep_stride: 0 };
            for i in 0..16 {
                write(&mut want, zero.addr + 2 * i, 0i16);
                write(&mut ub, zero.addr + 2 * i, 0i16);
            }
            reference2(&mut want, &sh, d, a, zero);
            map1(&mut ub, &sh, d, a, |p: i16| p.wrapping_mul(3));
            prop_assert!(ub == want);
            let mut fill = ub.clone();
            map0(&mut fill, &sh, d, 0x5A5Ai16);
            for r in 0..sh.repeats {
                let bits = sh.bits(r);
                for_lanes(bits, sh.lanes, |k| write(&mut ub, d.lane_addr(2, r, k), 0x5A5Ai16));
            }
            prop_assert!(ub == fill);
        }
    }
}
