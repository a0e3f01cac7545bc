//! The cost of one recorded instruction under a product's [`CostTable`]: DMA from bytes, bursts
//! and the path's bandwidth, vector instructions from repeats and UB bank conflicts computed from
//! the operands' actual addresses and strides, scalar and register costs from the table.

use super::table::{CostTable, UbBanks};
use crate::core::trace::{Access, Instr, InstrKind, Pipe, Space, Trace};
use crate::position::Hardware;
use rustc_hash::{FxHashMap, FxHasher};
use std::hash::{Hash, Hasher};

/// What an instruction costs before scheduling.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Cost {
    /// Cycles the instruction occupies its pipe (GM transfer time excluded: see `gm_bytes`).
    pub busy: u64,
    /// Cycles after the occupancy until the result is readable.
    pub latency: u64,
    /// `busy` without avoidable UB bank conflicts (vector instructions; else `busy`).
    pub ideal: u64,
    /// GM bytes moved, paid at the core's share of GM bandwidth when scheduled.
    pub gm_bytes: u64,
    /// The GM side is written (MTE3) rather than read.
    pub gm_write: bool,
}

/// Repeats beyond which bank beats are extrapolated from the first ones.
const EXACT_REPEATS: u32 = 4096;

/// Bytes of one GM access granule: a burst is rounded up to whole 32-byte blocks (the DMA unit
/// of DataCopy, vendor `DataCopy` page).
const GM_GRANULE: u64 = 32;

/// The cost of instruction `ins` of `trace`.
pub fn cost(table: &CostTable, trace: &Trace, ins: &Instr) -> Cost {
    cost_of(table, ins, trace.accesses(ins), &mut VectorMemo::default())
}

/// Vector instructions' bank-conflict beats by (cycles per repeat, accesses): a kernel's loop
/// issues the same instruction on the same buffers over and over.
#[derive(Debug, Default)]
pub(crate) struct VectorMemo(FxHashMap<u64, Beats>);

/// One remembered input of [`vector_cycles`] (cycles per repeat, accesses) and its result.
type Beats = (u32, Box<[Access]>, (u64, u64));

impl VectorMemo {
    /// [`vector_cycles`] of `acc` at `cpr` under `table`'s banks, computed once per distinct
    /// input.
    fn cycles(&mut self, table: &CostTable, acc: &[Access], cpr: u32) -> (u64, u64) {
        let mut h = FxHasher::default();
        (cpr, acc).hash(&mut h);
        let key = h.finish();
        match self.0.get(&key) {
            Some((c, a, r)) if *c == cpr && **a == *acc => *r,
            _ => {
                let r = vector_cycles(table.ub_banks, acc, cpr);
                self.0.insert(key, (cpr, acc.into(), r));
                r
            }
        }
    }
}

/// [`cost`] of `ins` with its accesses `acc`, the beats of vector instructions remembered in
/// `memo`.
pub(crate) fn cost_of(
    table: &CostTable,
    ins: &Instr,
    acc: &[Access],
    memo: &mut VectorMemo,
) -> Cost {
    let fixed = |c: u64| Cost {
        busy: c,
        ideal: c,
        ..Cost::default()
    };
    match ins.kind {
        InstrKind::Barrier => fixed(table.barrier as u64),
        InstrKind::SetFlag(..) | InstrKind::WaitFlag(..) => fixed(1),
        InstrKind::Op => match ins.pipe {
            Pipe::S => fixed(scalar_cycles(table, ins.api)),
            Pipe::V if ins.lanes > 0 => {
                let cpr = table.cycles_per_repeat(ins.api, ins.lanes);
                let (busy, ideal) = memo.cycles(table, acc, cpr);
                Cost {
                    busy,
                    ideal,
                    latency: table.latency(ins.api) as u64,
                    ..Cost::default()
                }
            }
            Pipe::V => {
                // A vector-pipe move without repeat structure (enhanced DataCopy, the tail of a
                // whole-tensor reduction): UB → UB bandwidth.
                let bytes: u64 = acc.iter().filter(|a| !a.write).map(Access::bytes).sum();
                let bpc = table.local_bytes_per_cycle(Hardware::UB, Hardware::UB) as u64;
                let c = bytes.div_ceil(bpc).max(1);
                Cost {
                    busy: c,
                    ideal: c,
                    latency: table.vector_latency as u64,
                    ..Cost::default()
                }
            }
            // The cube: the cycles its Mmad recorded (the documented m1·n1·k1 over the cube's
            // parallelism), at least one.
            Pipe::M => fixed((ins.lanes as u64).max(1)),
            Pipe::ALL => fixed(1),
            Pipe::MTE1 | Pipe::MTE2 | Pipe::MTE3 | Pipe::FIX => dma_cost(table, acc),
        },
    }
}

/// Scalar-pipe cost of an API.
fn scalar_cycles(table: &CostTable, api: &str) -> u64 {
    if api.ends_with("GetValue") || api.ends_with("SetValue") {
        table.scalar_access as u64
    } else if api.starts_with("Set") || api == "ResetMask" {
        table.register_write as u64
    } else {
        1
    }
}

/// DMA: a fixed start-up, an extra per burst, and the bytes over the path's bandwidth (GM bytes
/// are left to the scheduler, which knows how many cores share GM at the time).
fn dma_cost(table: &CostTable, acc: &[Access]) -> Cost {
    let gm = || acc.iter().filter(|a| matches!(a.space, Space::Gm(_)));
    let bursts: u64 = acc
        .iter()
        .map(|a| a.blocks as u64 * a.repeats as u64)
        .max()
        .unwrap_or(1)
        .max(1);
    let fixed = table.dma_startup as u64 + (bursts - 1) * table.dma_burst as u64;
    if gm().next().is_some() {
        let bytes = gm()
            .map(|a| {
                (a.len as u64).div_ceil(GM_GRANULE)
                    * GM_GRANULE
                    * a.blocks as u64
                    * a.repeats as u64
            })
            .sum();
        return Cost {
            busy: fixed,
            ideal: fixed,
            gm_bytes: bytes,
            gm_write: gm().any(|a| a.write),
            ..Cost::default()
        };
    }
    let hw = |write: bool| {
        acc.iter()
            .find(|a| a.write == write)
            .and_then(|a| match a.space {
                Space::Local(h) => Some(h),
                Space::Gm(_) => None,
            })
    };
    let bpc = match (hw(false), hw(true)) {
        (Some(s), Some(d)) => table.local_bytes_per_cycle(s, d),
        _ => table.local_default,
    } as u64;
    let bytes: u64 = acc.iter().filter(|a| a.write).map(Access::bytes).sum();
    let c = fixed + bytes.div_ceil(bpc);
    Cost {
        busy: c,
        ideal: c,
        ..Cost::default()
    }
}

/// Bank-group occupancy of one repeat's reads or writes.
struct Occupancy {
    /// Rows per bank group (the first `UbBanks::groups` entries).
    groups: [u32; MAX_GROUPS],
    rows: u32,
}

/// The most bank groups a cost table may give ([`Occupancy`] counts them in place).
pub(crate) const MAX_GROUPS: usize = 64;

impl Occupancy {
    fn new() -> Occupancy {
        Occupancy {
            groups: [0; MAX_GROUPS],
            rows: 0,
        }
    }

    fn clear(&mut self, b: &UbBanks) {
        self.groups[..b.groups as usize].fill(0);
        self.rows = 0;
    }

    fn add(&mut self, b: &UbBanks, a: &Access, r: u32) {
        let (row, groups) = (b.row as u64, b.groups as usize);
        for k in 0..a.blocks as u64 {
            let start = a.base + r as u64 * a.repeat_stride + k * a.block_stride;
            let last = start + (a.len.max(1) as u64) - 1;
            let (first, rows) = (start / row, last / row - start / row + 1);
            // Row `first + i` is in group `(first + i) % groups`: one division per block.
            let mut g = (first % groups as u64) as usize;
            for _ in 0..rows {
                self.groups[g] += 1;
                g += 1;
                if g == groups {
                    g = 0;
                }
            }
            self.rows += rows as u32;
        }
    }

    fn max_group(&self, b: &UbBanks) -> u64 {
        self.groups[..b.groups as usize]
            .iter()
            .copied()
            .max()
            .unwrap_or(0) as u64
    }
}

/// Beats of a vector instruction over its repeats, the spec's first-order model (P3–P5, section
/// 2): per beat one 32-byte row per bank group is read and one written; the rows of one repeat's
/// sources that share a group are read in successive beats (read–read conflict), likewise the
/// destination's rows (write–write conflict); the destination of repeat r is written while
/// repeat r + 1 is read. A repeat takes at least `cpr` cycles (the API's throughput). Returns
/// (cycles, cycles with every repeat's rows spread evenly over the groups).
pub fn vector_cycles(banks: Option<UbBanks>, acc: &[Access], cpr: u32) -> (u64, u64) {
    let repeats = acc.iter().map(|a| a.repeats).max().unwrap_or(0);
    let cpr = cpr.max(1) as u64;
    let Some(b) = banks else {
        let c = (repeats as u64 * cpr).max(1);
        return (c, c);
    };
    if repeats == 0 {
        return (1, 1);
    }
    let exact = repeats.min(EXACT_REPEATS);
    let groups = b.groups as u64;
    let (mut reads, mut writes, mut prev) = (Occupancy::new(), Occupancy::new(), Occupancy::new());
    let (mut busy, mut ideal) = (0u64, 0u64);
    for r in 0..exact {
        reads.clear(&b);
        writes.clear(&b);
        for a in acc
            .iter()
            .filter(|a| r < a.repeats && matches!(a.space, Space::Local(Hardware::UB)))
        {
            if a.write {
                writes.add(&b, a, r);
            } else {
                reads.add(&b, a, r);
            }
        }
        let beats = reads.max_group(&b).max(prev.max_group(&b)).max(1);
        let floor = (reads.rows as u64)
            .div_ceil(groups)
            .max((prev.rows as u64).div_ceil(groups))
            .max(1);
        busy += beats.max(cpr);
        ideal += floor.max(cpr);
        std::mem::swap(&mut prev, &mut writes);
    }
    // The last repeat's writes drain after its reads.
    busy += prev.max_group(&b);
    ideal += (prev.rows as u64).div_ceil(groups);
    if exact < repeats {
        busy = busy * repeats as u64 / exact as u64;
        ideal = ideal * repeats as u64 / exact as u64;
    }
    (busy, ideal)
}

/// A change of one operand that removes bank conflicts.
#[derive(Debug, Clone, PartialEq)]
pub struct WhatIf {
    /// The operand's role (`dst`, `src0`, `src1`, …).
    pub operand: String,
    /// What to change, e.g. `start address +256 bytes` or `block stride 512 → 544 bytes`.
    pub change: String,
    /// Cycles of the instruction after the change.
    pub cycles: u64,
}

/// The smallest single-operand change (a start shifted by whole rows, or a block stride grown
/// by one row) that brings the instruction's cycles down the most, if any helps.
pub fn what_if(table: &CostTable, trace: &Trace, ins: &Instr) -> Option<WhatIf> {
    what_if_of(table, ins, trace.accesses(ins))
}

/// [`what_if`] of `ins` with its accesses `acc`.
pub(crate) fn what_if_of(table: &CostTable, ins: &Instr, acc: &[Access]) -> Option<WhatIf> {
    let b = table.ub_banks?;
    let cpr = table.cycles_per_repeat(ins.api, ins.lanes);
    let (now, _) = vector_cycles(Some(b), acc, cpr);
    let mut best: Option<WhatIf> = None;
    let names = roles(acc);
    for (i, a) in acc.iter().enumerate() {
        let mut tries: Vec<(Access, String)> = (1..b.groups as u64)
            .map(|k| {
                let d = k * b.row as u64;
                (
                    Access {
                        base: a.base + d,
                        ..*a
                    },
                    format!("start address +{d} bytes"),
                )
            })
            .collect();
        if a.blocks > 1 && a.block_stride > 0 {
            let s = a.block_stride + b.row as u64;
            tries.push((
                Access {
                    block_stride: s,
                    ..*a
                },
                format!("block stride {} → {s} bytes (one more row, as the vendor's bank-conflict guide does)", a.block_stride),
            ));
        }
        for (moved, change) in tries {
            let mut v = acc.to_vec();
            v[i] = moved;
            let (c, _) = vector_cycles(Some(b), &v, cpr);
            if c < now && best.as_ref().is_none_or(|w| c < w.cycles) {
                best = Some(WhatIf {
                    operand: names[i].clone(),
                    change,
                    cycles: c,
                });
            }
        }
    }
    best
}

/// Role names of a vector instruction's operands: writes are `dst` (numbered when several),
/// reads `src0`, `src1`, … in record order.
pub fn roles(acc: &[Access]) -> Vec<String> {
    let writes = acc.iter().filter(|a| a.write).count();
    let (mut w, mut r) = (0, 0);
    acc.iter()
        .map(|a| {
            if a.write {
                w += 1;
                if writes > 1 {
                    format!("dst{}", w - 1)
                } else {
                    "dst".to_string()
                }
            } else {
                r += 1;
                format!("src{}", r - 1)
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ub(write: bool, base: u64, blk: u64, repeats: u32) -> Access {
        Access {
            write,
            space: Space::Local(Hardware::UB),
            base,
            len: 32,
            blocks: 8,
            block_stride: blk,
            repeats,
            repeat_stride: 256,
        }
    }

    const BANKS: Option<UbBanks> = Some(UbBanks {
        groups: 16,
        row: 32,
        bank_span: 65536,
    });

    #[test]
    fn contiguous_operands_take_one_beat_per_repeat() {
        let acc = [ub(true, 0x4000, 32, 10), ub(false, 0, 32, 10)];
        // 10 repeats of one beat, plus the last repeat's write.
        assert_eq!(vector_cycles(BANKS, &acc, 1), (11, 11));
    }

    #[test]
    fn same_group_sources_conflict() {
        // src1 at the same offset modulo 512 as src0: every group is read twice.
        let acc = [
            ub(true, 0x8000, 32, 4),
            ub(false, 0, 32, 4),
            ub(false, 0x2000, 32, 4),
        ];
        assert_eq!(vector_cycles(BANKS, &acc, 1), (4 * 2 + 1, 4 + 1));
        let acc = [
            ub(true, 0x8000, 32, 4),
            ub(false, 0, 32, 4),
            ub(false, 0x2100, 32, 4),
        ];
        assert_eq!(vector_cycles(BANKS, &acc, 1), (4 + 1, 4 + 1));
    }

    #[test]
    fn remembered_beats_are_those_of_their_own_operands() {
        let table = CostTable::of(crate::chip::ChipProfile::default_profile());
        let conflicting = [
            ub(true, 0x8000, 32, 4),
            ub(false, 0, 32, 4),
            ub(false, 0x2000, 32, 4),
        ];
        let apart = [
            ub(true, 0x8000, 32, 4),
            ub(false, 0, 32, 4),
            ub(false, 0x2100, 32, 4),
        ];
        let mut memo = VectorMemo::default();
        for acc in [&conflicting, &apart, &conflicting, &apart] {
            for cpr in [1, 2] {
                let beats = vector_cycles(table.ub_banks, acc, cpr);
                assert_eq!(memo.cycles(table, acc, cpr), beats);
            }
        }
        assert_eq!(memo.0.len(), 4);
    }

    #[test]
    fn roles_name_operands() {
        let acc = [ub(true, 0, 32, 1), ub(false, 0, 32, 1), ub(false, 0, 32, 1)];
        assert_eq!(roles(&acc), ["dst", "src0", "src1"]);
    }
}
