//! TransDataTo5HD: sixteen 32-byte blocks in, sixteen out, transposed element by element
//! (the NCHW → NC1HWC0 building block), in its three forms: a list of tensors, a list of UB
//! addresses, and two `uint64_t` tensors holding the addresses.

use super::check_dtype;
use super::layout_support as table;
use super::operand::Ub;
use crate::api::context::with_core;
use crate::api::tensor::LocalTensor;
use crate::core::trace::{Access, Space};
use crate::core::vector::BLOCK;
use crate::core::Core;
use crate::dtype::Element;
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::position::Hardware;

const API: &str = "TransDataTo5HD";

/// `NCHW_CONV_ADDR_LIST_SIZE`: the length of the address lists.
pub const NCHW_CONV_ADDR_LIST_SIZE: usize = 16;

/// `TransDataTo5HDParams`: repeat count and the per-repeat block strides of TransDataTo5HD.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TransDataTo5HDParams {
    /// 1-byte types: write the low (false) or high (true) 16 bytes of each destination block.
    /// Ignored for other types.
    pub dst_high_half: bool,
    /// 1-byte types: read the low (false) or high (true) 16 bytes of each source block. Ignored
    /// for other types.
    pub src_high_half: bool,
    /// Repeats, [0, 255]; 0 does nothing.
    pub repeat_times: u8,
    /// Destination stride between repeats, in 32-byte blocks. With `repeat_times = 1` the one
    /// repeat starts this far after the listed addresses (pass 0 to use them as they are).
    pub dst_rep_stride: u16,
    /// Source stride between repeats, in 32-byte blocks (same rule for `repeat_times = 1`).
    pub src_rep_stride: u16,
}

impl Default for TransDataTo5HDParams {
    fn default() -> Self {
        TransDataTo5HDParams::new(false, false, 1, 0, 0)
    }
}

impl TransDataTo5HDParams {
    /// `{dstHighHalf, srcHighHalf, repeatTimes, dstRepStride, srcRepStride}`.
    pub const fn new(
        dst_high_half: bool,
        src_high_half: bool,
        repeat_times: u8,
        dst_rep_stride: u16,
        src_rep_stride: u16,
    ) -> Self {
        TransDataTo5HDParams {
            dst_high_half,
            src_high_half,
            repeat_times,
            dst_rep_stride,
            src_rep_stride,
        }
    }

    /// Blocks the listed addresses move by in repeat `r`: `r·stride`, or `stride` when there is
    /// only one repeat (the documented single-repeat rule).
    fn offset(&self, stride: u16, r: u32) -> u64 {
        let s = stride as u64;
        if self.repeat_times == 1 {
            s
        } else {
            r as u64 * s
        }
    }
}

/// One listed block address: its name in errors, UB byte address, and the end of the memory it
/// may reach (its tensor's end, or the end of UB for a raw address).
#[derive(Debug, Clone)]
struct Slot {
    name: String,
    addr: u64,
    limit: u64,
}

/// `TransDataTo5HD(dstList, srcList, params)` with two lists of 16 tensors (each 32-byte aligned
/// in UB). Repeat `r` reads block `k` at `srcList[k] + off·32` and writes block `j` at
/// `dstList[j] + off'·32`:
/// * 2-byte types: element `k` of destination block `j` = element `j` of source block `k`;
/// * 4-byte types: element `i` of destination block `j` = element `j / 2` of source block
///   `8·(j mod 2) + i` (8 rows of 16 values, two blocks per row);
/// * 1-byte types: byte `16·dstHighHalf + k` of destination block `j` = byte
///   `16·srcHighHalf + j` of source block `k`; the other half of the block is untouched.
#[track_caller]
pub fn trans_data_to_5hd<T: Element>(
    dst_list: &[LocalTensor<T>; NCHW_CONV_ADDR_LIST_SIZE],
    src_list: &[LocalTensor<T>; NCHW_CONV_ADDR_LIST_SIZE],
    params: TransDataTo5HDParams,
) -> Result<()> {
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        let d = tensor_slots(core, "dstList", dst_list)?;
        let s = tensor_slots(core, "srcList", src_list)?;
        run::<T>(core, loc, &d, &s, params, Vec::new())
    })
}

/// `TransDataTo5HD<T>(dstList, srcList, params)` with two arrays of 16 UB byte addresses (as
/// `LocalTensor::get_phy_addr` gives them). Each address must be 32-byte aligned and every block
/// the repeats touch must lie inside UB; semantics as [`trans_data_to_5hd`].
#[track_caller]
pub fn trans_data_to_5hd_addr<T: Element>(
    dst_list: &[u64; NCHW_CONV_ADDR_LIST_SIZE],
    src_list: &[u64; NCHW_CONV_ADDR_LIST_SIZE],
    params: TransDataTo5HDParams,
) -> Result<()> {
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        let d = addr_slots(core, "dstList", dst_list)?;
        let s = addr_slots(core, "srcList", src_list)?;
        run::<T>(core, loc, &d, &s, params, Vec::new())
    })
}

/// `TransDataTo5HD<T>(dst, src, params)` with two `uint64_t` UB tensors holding the 16
/// destination and 16 source addresses; semantics as [`trans_data_to_5hd_addr`]. The address
/// tensors are read by the instruction.
#[track_caller]
pub fn trans_data_to_5hd_addr_tensor<T: Element>(
    dst: &LocalTensor<u64>,
    src: &LocalTensor<u64>,
    params: TransDataTo5HDParams,
) -> Result<()> {
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        let mut lists = [[0u64; NCHW_CONV_ADDR_LIST_SIZE]; 2];
        let mut reads = Vec::new();
        for (i, (name, t)) in [("dst", dst), ("src", src)].into_iter().enumerate() {
            let u = Ub::of(API, name, t, BLOCK)?;
            let bytes = NCHW_CONV_ADDR_LIST_SIZE as u64 * 8;
            u.fits(API, u.addr + bytes, "16 addresses of 8 bytes")?;
            let ub = core.mem.bytes(Hardware::UB);
            for (k, a) in lists[i].iter_mut().enumerate() {
                let at = (u.addr + k as u64 * 8) as usize;
                *a = u64::from_le_bytes(ub[at..at + 8].try_into().unwrap_or([0; 8]));
            }
            reads.push(Ub::access(false, u.addr, u.addr + bytes));
        }
        let d = addr_slots(core, "dst", &lists[0])?;
        let s = addr_slots(core, "src", &lists[1])?;
        run::<T>(core, loc, &d, &s, params, reads)
    })
}

fn tensor_slots<T: Element>(
    core: &Core,
    list: &str,
    tensors: &[LocalTensor<T>; NCHW_CONV_ADDR_LIST_SIZE],
) -> Result<Vec<Slot>> {
    tensors
        .iter()
        .enumerate()
        .map(|(k, t)| {
            t.check_live(core, API, list)?;
            let name = format!("{list}[{k}]");
            if t.hw != Hardware::UB {
                return Err(SimError::new(
                    Category::Position,
                    API,
                    format!(
                        "tensor `{name}` is in {} ({}); supported positions are VECIN/VECCALC/VECOUT (UB)",
                        t.pos, t.hw
                    ),
                ));
            }
            let addr = t.addr as u64;
            if !addr.is_multiple_of(BLOCK) {
                return Err(SimError::align(API, &format!("tensor `{name}`"), addr, 32, "UB"));
            }
            Ok(Slot {
                name,
                addr,
                limit: addr + t.len as u64,
            })
        })
        .collect()
}

fn addr_slots(
    core: &Core,
    list: &str,
    addrs: &[u64; NCHW_CONV_ADDR_LIST_SIZE],
) -> Result<Vec<Slot>> {
    let ub = core.mem.size(Hardware::UB) as u64;
    addrs
        .iter()
        .enumerate()
        .map(|(k, &addr)| {
            let name = format!("{list}[{k}]");
            if addr >= ub {
                return Err(SimError::range(
                    API,
                    &name,
                    format!("{addr} ({addr:#x})"),
                    format!("[0, {ub}) (a byte address inside UB, as GetPhyAddr gives it)"),
                ));
            }
            if !addr.is_multiple_of(BLOCK) {
                return Err(SimError::align(
                    API,
                    &format!("address `{name}`"),
                    addr,
                    32,
                    "UB",
                ));
            }
            Ok(Slot {
                name,
                addr,
                limit: ub,
            })
        })
        .collect()
}

/// The trace record of one list over the repeats: one pattern when the listed addresses are
/// evenly spaced upwards, else one per address. `lo..lo + len` is the part of each block touched.
fn list_accesses(
    write: bool,
    slots: &[Slot],
    params: &TransDataTo5HDParams,
    stride: u16,
    lo: u64,
    len: u32,
) -> Vec<Access> {
    let first = params.offset(stride, 0) * BLOCK;
    let (repeats, repeat_stride) = (params.repeat_times as u32, stride as u64 * BLOCK);
    let one = |base: u64, blocks: u32, block_stride: u64| Access {
        write,
        space: Space::Local(Hardware::UB),
        base: base + first + lo,
        len,
        blocks,
        block_stride,
        repeats,
        repeat_stride,
    };
    let step = slots[1].addr.wrapping_sub(slots[0].addr);
    let even = slots[0].addr < slots[1].addr
        && slots
            .windows(2)
            .all(|w| w[1].addr.wrapping_sub(w[0].addr) == step);
    if even {
        vec![one(slots[0].addr, slots.len() as u32, step)]
    } else {
        slots.iter().map(|s| one(s.addr, 1, 0)).collect()
    }
}

fn run<T: Element>(
    core: &mut Core,
    loc: SourceLoc,
    dst: &[Slot],
    src: &[Slot],
    params: TransDataTo5HDParams,
    mut accesses: Vec<Access>,
) -> Result<()> {
    check_dtype(core, API, T::DTYPE, &table::TRANS_DATA_TO_5HD)?;
    if params.repeat_times == 0 {
        core.warn(
            Category::Nop,
            API,
            "repeatTimes = 0: the instruction does nothing",
            loc,
        );
        return Ok(());
    }
    let reps = params.repeat_times as u32;
    let last = reps - 1;
    for (slots, stride, field) in [
        (dst, params.dst_rep_stride, "dstRepStride"),
        (src, params.src_rep_stride, "srcRepStride"),
    ] {
        let off = params.offset(stride, last) * BLOCK;
        for s in slots {
            let end = s.addr + off + BLOCK;
            if end > s.limit {
                return Err(SimError::new(
                    Category::Size,
                    API,
                    format!(
                        "`{}` at UB byte {} reaches byte {end} with repeatTimes {} and {field} {stride} (blocks), past the end of its memory at byte {}",
                        s.name, s.addr, params.repeat_times, s.limit
                    ),
                ));
            }
        }
    }
    let size = T::SIZE;
    let (half_lo, half_len) = if size == 1 {
        (16 * params.dst_high_half as u64, 16)
    } else {
        (0, BLOCK as u32)
    };
    let mut acc = list_accesses(true, dst, &params, params.dst_rep_stride, half_lo, half_len);
    acc.extend(list_accesses(
        false,
        src,
        &params,
        params.src_rep_stride,
        0,
        BLOCK as u32,
    ));
    acc.append(&mut accesses);
    let ub = core.mem.bytes_mut(Hardware::UB);
    let b = BLOCK as usize;
    for r in 0..reps {
        let so = (params.offset(params.src_rep_stride, r) * BLOCK) as usize;
        let dof = (params.offset(params.dst_rep_stride, r) * BLOCK) as usize;
        // The instruction reads its 16 source blocks before writing.
        let blocks: Vec<u8> = src
            .iter()
            .flat_map(|s| {
                let a = s.addr as usize + so;
                ub[a..a + b].to_vec()
            })
            .collect();
        for (j, d) in dst.iter().enumerate() {
            let at = d.addr as usize + dof;
            let out = &mut ub[at..at + b];
            match size {
                1 => {
                    let (dh, sh) = (
                        16 * params.dst_high_half as usize,
                        16 * params.src_high_half as usize,
                    );
                    for k in 0..16 {
                        out[dh + k] = blocks[k * b + sh + j];
                    }
                }
                2 => {
                    for k in 0..16 {
                        let from = k * b + j * 2;
                        out[k * 2..k * 2 + 2].copy_from_slice(&blocks[from..from + 2]);
                    }
                }
                _ => {
                    for i in 0..8 {
                        let from = (8 * (j % 2) + i) * b + (j / 2) * 4;
                        out[i * 4..i * 4 + 4].copy_from_slice(&blocks[from..from + 4]);
                    }
                }
            }
        }
    }
    core.issue_vector(API, loc, &acc, 16);
    Ok(())
}
