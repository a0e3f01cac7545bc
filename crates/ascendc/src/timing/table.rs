//! The timing figures of each product, as data. Every figure names its source: a rule of the
//! behavioural spec (`P1`…`P13` of the performance facts), a page of the vendor's guides
//! (`guide/…`, `api/附录/…` under the vendor documentation's `docs/zh/`), or is marked
//! "estimate" where nothing public gives it.

use crate::chip::{ChipProfile, Product};
use crate::position::Hardware;

/// Throughput of one vector API at one lane count.
#[derive(Debug, Clone, Copy)]
pub struct VectorRate {
    /// API name as recorded (`Exp`, `WholeReduceSum`, …).
    pub api: &'static str,
    /// Lanes per repeat the figure is for (128: 16-bit elements, 64: 32-bit elements).
    pub lanes: u16,
    /// Cycles one repeat occupies the vector unit (lanes / documented elements per cycle).
    pub cycles_per_repeat: u32,
}

/// Bandwidth of an on-chip copy path.
#[derive(Debug, Clone, Copy)]
pub struct LocalPath {
    /// Source memory.
    pub src: Hardware,
    /// Destination memory.
    pub dst: Hardware,
    /// Bytes per cycle.
    pub bytes_per_cycle: u32,
}

/// The UB bank layout (spec P2, P6): `group = (addr / row) mod groups`,
/// `bank = groups · floor(addr / bank_span) + group`.
#[derive(Debug, Clone, Copy)]
pub struct UbBanks {
    /// Bank groups.
    pub groups: u32,
    /// Bytes of one bank row (one beat moves one row per group).
    pub row: u32,
    /// Bytes after which the bank index moves on to the next bank of each group.
    pub bank_span: u32,
}

/// One product's timing model. Cycles are AI-core clock cycles.
#[derive(Debug, Clone, Copy)]
pub struct CostTable {
    /// AI-core clock in GHz (estimate: no public page gives it).
    pub clock_ghz: f64,
    /// One core's GM → local bandwidth in GB/s (10^9 bytes per second).
    pub gm_read_gbps: f64,
    /// One core's local → GM bandwidth in GB/s.
    pub gm_write_gbps: f64,
    /// GM bandwidth all cores share, in GB/s.
    pub gm_total_gbps: f64,
    /// Fixed cycles of every DMA instruction (request set-up and first-byte latency).
    pub dma_startup: u32,
    /// Extra cycles per burst after the first of a strided DMA (estimate).
    pub dma_burst: u32,
    /// On-chip copy bandwidths; other on-chip paths use `local_default`.
    pub local_paths: &'static [LocalPath],
    /// Bytes per cycle of on-chip paths not in `local_paths` (estimate).
    pub local_default: u32,
    /// Cycles from the start of a vector instruction's last repeat to its result being readable
    /// (what a `PipeBarrier<PIPE_V>` or a flag waits for on top of the repeats).
    pub vector_latency: u32,
    /// Result latency of repeat-reduction instructions (WholeReduce*, RepeatReduceSum, ReduceSum …).
    pub reduce_repeat_latency: u32,
    /// Result latency of block-reduction instructions (BlockReduce*, PairReduceSum).
    pub reduce_block_latency: u32,
    /// Vector throughputs that differ from one repeat per cycle.
    pub vector_rates: &'static [VectorRate],
    /// UB bank layout; `None` where no conflict rule is documented (no conflicts modelled).
    pub ub_banks: Option<UbBanks>,
    /// Cycles the scalar unit spends issuing one instruction to another pipe.
    pub scalar_issue: u32,
    /// Cycles of a scalar `GetValue`/`SetValue` on a local tensor.
    pub scalar_access: u32,
    /// Cycles of a mask/mode register write (`SetVectorMask`, `SetMaskCount`, …).
    pub register_write: u32,
    /// Cycles from a `SetFlag` to the matching `WaitFlag` releasing its pipe.
    pub flag_latency: u32,
    /// Cycles a `PipeBarrier` occupies its pipe.
    pub barrier: u32,
}

impl CostTable {
    /// The table of a product.
    pub fn of(profile: &ChipProfile) -> &'static CostTable {
        match profile.product {
            Product::Ascend910B | Product::Ascend910_93 => &A2_A3,
            Product::Ascend910 | Product::Ascend310P | Product::Ascend310B => &COUPLED,
        }
    }

    /// Cycles per repeat of vector API `api` at `lanes` lanes per repeat (1 unless listed).
    pub fn cycles_per_repeat(&self, api: &str, lanes: u16) -> u32 {
        self.vector_rates
            .iter()
            .find(|r| r.api == api && (r.lanes == lanes || r.lanes == 0))
            .map_or(1, |r| r.cycles_per_repeat)
    }

    /// Result latency of vector API `api`.
    pub fn latency(&self, api: &str) -> u32 {
        if api.starts_with("BlockReduce") || api == "PairReduceSum" {
            self.reduce_block_latency
        } else if api.contains("Reduce") {
            self.reduce_repeat_latency
        } else {
            self.vector_latency
        }
    }

    /// Bytes per cycle of an on-chip copy from `src` to `dst`.
    pub fn local_bytes_per_cycle(&self, src: Hardware, dst: Hardware) -> u32 {
        self.local_paths
            .iter()
            .find(|p| p.src == src && p.dst == dst)
            .map_or(self.local_default, |p| p.bytes_per_cycle)
    }

    /// Converts cycles to microseconds at the table's clock.
    pub fn micros(&self, cycles: u64) -> f64 {
        cycles as f64 / (self.clock_ghz * 1000.0)
    }

    /// Bytes per cycle of a GM bandwidth in GB/s at the table's clock.
    pub fn bytes_per_cycle(&self, gbps: f64) -> f64 {
        gbps / self.clock_ghz
    }
}

const fn rate(api: &'static str, lanes: u16, cycles_per_repeat: u32) -> VectorRate {
    VectorRate {
        api,
        lanes,
        cycles_per_repeat,
    }
}

/// Vector throughputs of A2/A3 that are not one repeat per cycle, from the vendor's table of
/// theoretical vector performance (`api/附录/Vector指令理论性能汇总.md`, tables 6–15):
/// cycles per repeat = lanes / documented elements per cycle.
const A2_RATES: &[VectorRate] = &[
    // Table 6: Exp, Ln, Sqrt, Div: 32 elements/cycle for half and float.
    rate("Exp", 128, 4),
    rate("Exp", 64, 2),
    rate("Ln", 128, 4),
    rate("Ln", 64, 2),
    rate("Sqrt", 128, 4),
    rate("Sqrt", 64, 2),
    rate("Div", 128, 4),
    rate("Div", 64, 2),
    // Table 8: MulAddDst 64 (half) / 32 (float) elements per cycle.
    rate("MulAddDst", 128, 2),
    rate("MulAddDst", 64, 2),
    // Table 11: ReduceRepeat (WholeReduce*) 128/7 half, 64/7 float; ReduceDataBlock
    // (BlockReduce*) 128/7 half, 64 float; ReducePairElem 128 / 64.
    rate("WholeReduceSum", 0, 7),
    rate("WholeReduceMax", 0, 7),
    rate("WholeReduceMin", 0, 7),
    rate("RepeatReduceSum", 0, 7),
    rate("ReduceSum", 0, 7),
    rate("ReduceMax", 0, 7),
    rate("ReduceMin", 0, 7),
    rate("BlockReduceSum", 128, 7),
    rate("BlockReduceMax", 128, 7),
    rate("BlockReduceMin", 128, 7),
    // Table 14: Sort32 / MrgSort 2 elements per cycle.
    rate("Sort32", 0, 16),
    rate("MrgSort", 0, 16),
    // Table 15: Gather 5 elements per cycle.
    rate("Gather", 128, 26),
    rate("Gather", 64, 13),
];

/// Cycles the cube spends on one `Mmad` of `m × n × k` with inputs of `bits` bits (`hf32`: float
/// inputs in HF32 mode): `ceil(m/16) · ceil(n/16) · ceil(k/k0) · k0/cube_k`, the theoretical
/// figure of the vendor's Cube performance table (`api/附录/Cube指令理论性能汇总.md`, table 1,
/// `__NPU_ARCH__` 2201): the cube takes 16 × 16 × cube_k per cycle, cube_k = k0 for half,
/// bfloat16, int8 and int4 (16, 16, 32, 64) and for HF32 (8), and 4 for float (k0 8), so float
/// runs at half rate. The head overhead Δt is not published and is not added. The other
/// products' cubes are taken to be the same (an estimate).
pub fn cube_steps(m: u32, n: u32, k: u32, bits: u32, hf32: bool) -> u32 {
    let k0 = 256 / bits;
    let per_chunk = if bits == 32 && !hf32 { 2 } else { 1 };
    m.div_ceil(16) * n.div_ceil(16) * k.div_ceil(k0) * per_chunk
}

/// On-chip path bandwidths of `__NPU_ARCH__` 2201 (`guide/编程指南/高级编程/硬件实现/架构规格/
/// NPU架构版本2201.md`, "不同数据通路的带宽") and UB → UB DataCopy (vector table 3: 256 B/cycle).
const A2_PATHS: &[LocalPath] = &[
    LocalPath {
        src: Hardware::L1,
        dst: Hardware::L0A,
        bytes_per_cycle: 256,
    },
    LocalPath {
        src: Hardware::L1,
        dst: Hardware::L0B,
        bytes_per_cycle: 128,
    },
    LocalPath {
        src: Hardware::UB,
        dst: Hardware::UB,
        bytes_per_cycle: 256,
    },
];

/// Atlas A2 / A3 (`__NPU_ARCH__` 2201).
///
/// GM figures are derived from the vendor's Add tuning case (`guide/算子实践参考/典型算子实践案例/
/// SIMD算子实现/Add矢量算子实践/中级性能优化.md`, 8192×8192 half, two inputs one output):
/// * shared GM bandwidth: case 4 moves 3 × 128 MiB in 264.02 µs at 97.3 % MTE2 utilisation
///   → 1525 GB/s;
/// * per-core bandwidth and DMA start-up: case 1 (one core, 8 KiB copies) reads 256 MiB in
///   87.3 % of 6909.6 µs (44.5 GB/s effective) and writes 128 MiB in 37.8 % (51.4 GB/s
///   effective); growing copies from 8 KiB to 32 KiB (case 2 → 3) saves 12.5 %, which makes
///   the start-up 0.198 × the 8 KiB transfer time. Solving both: 53.3 GB/s read,
///   61.6 GB/s write, 56 cycles start-up at the estimated clock.
pub static A2_A3: CostTable = CostTable {
    clock_ghz: 1.85,
    gm_read_gbps: 53.3,
    gm_write_gbps: 61.6,
    gm_total_gbps: 1525.0,
    dma_startup: 56,
    dma_burst: 2,
    local_paths: A2_PATHS,
    local_default: 128,
    // P8: reduction latency is 2–5× an Add's; the reduction latencies below are fitted to the
    // P9 figures (see docs/timing.md), the Add latency is the fitted ReduceRepeat one / 3.
    vector_latency: 25,
    reduce_repeat_latency: 74,
    reduce_block_latency: 62,
    vector_rates: A2_RATES,
    // P2, P6: 16 bank groups × 3 banks of 4 KiB (128 rows × 32 B).
    ub_banks: Some(UbBanks {
        groups: 16,
        row: 32,
        bank_span: 65536,
    }),
    // Estimate: one issue slot per instruction.
    scalar_issue: 1,
    // Estimate from the Add case 0 (scalar loop, 1239689.1 µs for 8192² elements ≈ 34 cycles
    // per element for two GetValue, one SetValue and the loop).
    scalar_access: 10,
    // P7 and the vector table 16: SetMaskCount / SetMaskNorm / SetVectorMask / ResetMask 1.
    register_write: 1,
    // Estimate.
    flag_latency: 4,
    // Estimate.
    barrier: 1,
};

/// Coupled products (910, 310P, 310B): no product-specific figures are public; the A2/A3
/// figures are used as estimates, without a UB bank-conflict model (P2–P6 document A2/A3 only).
pub static COUPLED: CostTable = CostTable {
    ub_banks: None,
    ..A2_A3
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_product_has_at_most_the_bank_groups_the_model_counts() {
        for p in ChipProfile::all() {
            if let Some(b) = CostTable::of(p).ub_banks {
                assert!(b.groups >= 1 && b.groups as usize <= super::super::cost::MAX_GROUPS);
            }
        }
    }
}
