//! `Mmad`: `C = A × B (+ C | + bias)` on PIPE_M. A is `m × k` in L0A (ZZ fractals), B is `k × n`
//! in L0B (ZN fractals), C is `m × n` in L0C (NZ, 16 × 16 fractals). With `m = 1` the cube runs
//! in GEMV mode and reads A as `k` contiguous elements.
//!
//! Numerics (docs/cube.md): integer products are summed exactly and wrap to 32 bits. Floating
//! products are exact (half, bfloat16 and float products fit a double); the accumulator is fp32
//! and takes one K fractal (`C0` products) at a time: the fractal's exact dot product is added
//! to it with one round-to-nearest-even to fp32. A half result (Atlas training/310P) is rounded
//! once more, to half, when written.
//!
//! `int4b_t × int4b_t → int32_t` (where [`MMAD_INT4`] lists it) reads A and B as fractals of
//! 16 × 64 and 64 × 16 elements, two to a byte (the even one in the low nibble); `k` must be
//! even, and the form with a bias tensor does not take it.
//!
//! Where C starts: the bias form starts every row from the bias tensor (C2, BiasTable). The form
//! without one starts from 0 when `cmatrixInitVal` is set and `isBias` is not; otherwise from
//! the BiasTable at byte 0 with `cmatrixSource`, else from C itself (accumulation).

use super::support::cube_facts;
use super::{local_access, operand, require};
use crate::api::context::with_core;
use crate::api::tensor::LocalTensor;
use crate::chip::Product;
use crate::core::Core;
use crate::dtype::{DType, Element, TensorElement};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::numeric::round_f16;
use crate::position::Hardware;

const API: &str = "Mmad";

/// Products whose `Mmad` takes `int4b_t × int4b_t → int32_t`.
pub const MMAD_INT4: [Product; 4] = [
    Product::Ascend910B,
    Product::Ascend910_93,
    Product::Ascend310B,
    Product::Ascend310P,
];

/// `MmadParams`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MmadParams {
    /// Rows of A and C, [0, 4095] (0: no-op).
    pub m: u16,
    /// Columns of B and C, [0, 4095] (0: no-op).
    pub n: u16,
    /// Columns of A, rows of B, [0, 4095] (0: no-op).
    pub k: u16,
    /// Deprecated: `true` accumulates onto C (`C += A × B`).
    pub is_bias: bool,
    /// Unused on the modelled products (kept for source compatibility).
    pub fm_offset: i32,
    /// Unused on the modelled products.
    pub en_ssparse: bool,
    /// Unused on the modelled products.
    pub en_winograd_a: bool,
    /// Unused on the modelled products.
    pub en_winograd_b: bool,
    /// 0 off, 2 or 3: hand L0C over to Fixpipe unit by unit (Atlas A2/A3).
    pub unit_flag: u8,
    /// float inputs: K padded to 16 (true) instead of 8 in L0A/L0B (Atlas A2/A3).
    pub k_direction_align: bool,
    /// With `cmatrixInitVal = false` (or `isBias`), in the form without a bias tensor: C starts
    /// from the BiasTable row at BiasTable byte 0, where a C1 → C2 `DataCopy` left it (the
    /// instruction without a bias operand has no BiasTable address). Ignored by the bias form.
    pub cmatrix_source: bool,
    /// `true` (default): C starts at 0.
    pub cmatrix_init_val: bool,
}

impl Default for MmadParams {
    fn default() -> Self {
        MmadParams {
            m: 0,
            n: 0,
            k: 0,
            is_bias: false,
            fm_offset: 0,
            en_ssparse: false,
            en_winograd_a: false,
            en_winograd_b: false,
            unit_flag: 0,
            k_direction_align: false,
            cmatrix_source: false,
            cmatrix_init_val: true,
        }
    }
}

impl MmadParams {
    /// `MmadParams(m, n, k, isBias, fmOffset, enSsparse, enWinogradA, enWinogradB)`, other
    /// fields at their defaults.
    pub fn new(m: u16, n: u16, k: u16, is_bias: bool) -> Self {
        MmadParams {
            m,
            n,
            k,
            is_bias,
            ..MmadParams::default()
        }
    }
}

/// The bias argument of [`mmad`]: `()` for the form without bias, `&LocalTensor<V>` (C2 in the
/// BiasTable) for the form with it.
pub trait MmadBias {
    /// The bias tensor as (element type, physical buffer, byte address, byte length), if any.
    fn parts(&self) -> Option<(DType, Hardware, u32, u32, crate::position::TPosition)>;
}

impl MmadBias for () {
    fn parts(&self) -> Option<(DType, Hardware, u32, u32, crate::position::TPosition)> {
        None
    }
}

impl<V: Element> MmadBias for &LocalTensor<V> {
    fn parts(&self) -> Option<(DType, Hardware, u32, u32, crate::position::TPosition)> {
        Some((V::DTYPE, self.hw, self.addr, self.len, self.pos))
    }
}

/// `Mmad(dst, fm, filter[, bias], params)`: dst (CO1, L0C) = fm (A2, L0A) × filter (B2, L0B),
/// starting from 0, from dst itself or from the bias row (`bias`: `()` or a C2 tensor).
#[track_caller]
pub fn mmad<D: Element, U: TensorElement, S: TensorElement>(
    dst: &LocalTensor<D>,
    fm: &LocalTensor<U>,
    filter: &LocalTensor<S>,
    bias: impl MmadBias,
    params: MmadParams,
) -> Result<()> {
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        run(core, loc, dst, fm, filter, bias.parts(), params)
    })
}

type BiasParts = Option<(DType, Hardware, u32, u32, crate::position::TPosition)>;

fn read<T: Element>(mem: &[u8], at: usize) -> f64 {
    bytemuck::pod_read_unaligned::<T>(&mem[at..at + T::SIZE]).to_f64()
}

fn run<D: Element, U: TensorElement, S: TensorElement>(
    core: &mut Core,
    loc: SourceLoc,
    dst: &LocalTensor<D>,
    fm: &LocalTensor<U>,
    filter: &LocalTensor<S>,
    bias: BiasParts,
    p: MmadParams,
) -> Result<()> {
    let facts = cube_facts(core.profile);
    let types = (U::DTYPE, S::DTYPE, D::DTYPE);
    let int4 = MMAD_INT4.contains(&core.profile.product);
    let int4_types = (DType::Int4, DType::Int4, DType::Int32);
    if !(facts.mmad_types.contains(&types) || int4 && types == int4_types) {
        let list: Vec<String> = facts
            .mmad_types
            .iter()
            .chain(int4.then_some(&int4_types))
            .map(|(a, b, c)| format!("{a}×{b}→{c}"))
            .collect();
        return Err(SimError::new(
            Category::Type,
            API,
            format!(
                "{}×{}→{} is not a cube type combination on {}: supported {}",
                types.0,
                types.1,
                types.2,
                core.profile,
                list.join(", ")
            ),
        ));
    }
    for (name, v) in [("m", p.m), ("n", p.n), ("k", p.k)] {
        if v > 4095 {
            return Err(SimError::range(API, name, v, "[0, 4095]"));
        }
    }
    if !matches!(p.unit_flag, 0 | 2 | 3) {
        return Err(SimError::range(
            API,
            "unitFlag",
            p.unit_flag,
            "0 (off), 2 (keep the unit flags) or 3 (set them for Fixpipe)",
        ));
    }
    if p.unit_flag != 0 {
        require(core, API, facts.unit_flag, "unitFlag")?;
    }
    if p.k_direction_align {
        require(core, API, facts.k_direction_align, "kDirectionAlign = true")?;
    }
    if (bias.is_some() || p.cmatrix_source) && !facts.mmad_bias {
        require(core, API, false, "Mmad with a bias (BiasTable)")?;
    }
    if U::DTYPE == DType::Int4 {
        if !p.k.is_multiple_of(2) {
            return Err(SimError::range(
                API,
                "k",
                p.k,
                "an even number for int4b_t × int4b_t (two elements to a byte)",
            ));
        }
        if bias.is_some() {
            return Err(SimError::new(
                Category::Type,
                API,
                "the Mmad form with a bias tensor does not take int4b_t × int4b_t (int8_t, half, float and \
                 bfloat16_t inputs only)",
            ));
        }
    }
    // The instruction's own initial-value bit: `isBias` (deprecated) clears it.
    let init_zero = p.cmatrix_init_val && !p.is_bias;
    let from_table = bias.is_none() && !init_zero && p.cmatrix_source;
    if p.m == 0 || p.n == 0 || p.k == 0 {
        return Ok(());
    }
    let (m, n, k) = (p.m as usize, p.n as usize, p.k as usize);
    // Elements of A per 32 bytes: K of one fractal row.
    let k0 = 256 / U::BITS as usize;
    let k1 = if U::DTYPE == DType::Float && p.k_direction_align {
        k.div_ceil(16) * 2
    } else {
        k.div_ceil(k0)
    };
    let (m1, n1) = (m.div_ceil(16), n.div_ceil(16));
    let gemv = m == 1;
    // The fractals the instruction reads: A's rows of fractals are k1 apart (K aligned to 16 with
    // kDirectionAlign), but the last row and B (K-chunk outer, N inner) end at the last K chunk
    // holding a valid k, so a tensor declared with K aligned to 8 is enough for B.
    let k_chunks = k.div_ceil(k0);
    let a_need = if gemv {
        (k * U::BITS as usize).div_ceil(256) * 32
    } else {
        ((m1 - 1) * k1 + k_chunks) * 512
    } as u64;
    let b_need = (k_chunks * n1 * 512) as u64;
    let c_need = (n1 * m1 * 256 * D::SIZE) as u64;
    operand(
        core,
        loc,
        API,
        "fm (A)",
        fm,
        Hardware::L0A,
        "A2",
        512,
        a_need,
    )?;
    operand(
        core,
        loc,
        API,
        "filter (B)",
        filter,
        Hardware::L0B,
        "B2",
        512,
        b_need,
    )?;
    operand(
        core,
        loc,
        API,
        "dst (C)",
        dst,
        Hardware::L0C,
        "CO1",
        1024,
        c_need,
    )?;
    let want_bias = if D::DTYPE == DType::Float {
        DType::Float
    } else {
        DType::Int32
    };
    let bias_at = match bias {
        None if from_table => {
            let table = core.mem.bytes(Hardware::BIAS).len();
            if n * 4 > table {
                return Err(SimError::new(
                    Category::Size,
                    API,
                    format!(
                        "cmatrixSource = true starts C from the BiasTable's first n = {n} values ({} bytes); \
                         the BiasTable holds {table}",
                        n * 4
                    ),
                ));
            }
            Some(0)
        }
        None => None,
        Some((bt, hw, addr, len, pos)) => {
            if bt != want_bias {
                return Err(SimError::new(
                    Category::Type,
                    API,
                    format!(
                        "the bias of a {} result must be {want_bias}, not {bt}",
                        D::DTYPE
                    ),
                ));
            }
            if hw != Hardware::BIAS {
                return Err(SimError::new(
                    Category::Position,
                    API,
                    format!("the bias is {pos} in {hw}; it must be C2 in the BiasTable"),
                ));
            }
            if addr % 64 != 0 {
                return Err(SimError::align(
                    API,
                    "bias",
                    addr as u64,
                    64,
                    Hardware::BIAS,
                ));
            }
            if ((n * 4) as u64) > len as u64 {
                return Err(SimError::new(
                    Category::Size,
                    API,
                    format!(
                        "the bias must hold n = {n} values ({} bytes), it has {len}",
                        n * 4
                    ),
                ));
            }
            Some(addr as usize)
        }
    };
    // Unit flags: a unit that a Mmad with unitFlag 3 left for Fixpipe blocks further writes.
    let (c0, c_end) = (dst.addr as u64, dst.addr as u64 + c_need);
    if p.unit_flag != 0 {
        let mut a = c0;
        while a < c_end {
            if core.cube.flag(a) {
                return Err(SimError::new(
                    Category::Sync,
                    API,
                    format!(
                        "unitFlag {}: L0C byte {a} was handed to Fixpipe by a Mmad with unitFlag 3 and no Fixpipe \
                         with unitFlag 3 has read it: the device would wait here forever",
                        p.unit_flag
                    ),
                ));
            }
            a += crate::core::cube::UNIT_BYTES;
        }
    }
    let accumulate = bias.is_none() && !init_zero && !from_table;
    let a_mem = core.mem.bytes(Hardware::L0A);
    let b_mem = core.mem.bytes(Hardware::L0B);
    let c_mem = core.mem.bytes(Hardware::L0C);
    let bt = core.mem.bytes(Hardware::BIAS);
    // A and B positions as element indices into L0A / L0B (fractals of 4096 bits).
    let (ua, ub) = (U::BITS as usize, S::BITS as usize);
    let (ab, bb, cb) = (
        fm.addr as usize * 8 / ua,
        filter.addr as usize * 8 / ub,
        dst.addr as usize,
    );
    let a_at = |i: usize, kk: usize| {
        if gemv {
            ab + kk
        } else {
            ab + ((i / 16) * k1 + kk / k0) * (4096 / ua) + (i % 16) * k0 + kk % k0
        }
    };
    let b_at = |kk: usize, j: usize| {
        bb + ((kk / k0) * n1 + j / 16) * (4096 / ub) + (j % 16) * k0 + kk % k0
    };
    let c_at = |i: usize, j: usize| {
        cb + ((j / 16) * m1 + i / 16) * 256 * D::SIZE + ((i % 16) * 16 + j % 16) * D::SIZE
    };
    // Gather A and B once.
    let a: Vec<f64> = (0..m * k)
        .map(|x| U::get(a_mem, a_at(x / k, x % k)).as_f64())
        .collect();
    let b: Vec<f64> = (0..k * n)
        .map(|x| S::get(b_mem, b_at(x / n, x % n)).as_f64())
        .collect();
    // HF32 mode (SetHF32Mode): float inputs are rounded to HF32 before they are multiplied.
    let (a, b) = if core.cube.hf32 && U::DTYPE == DType::Float {
        let away = core.cube.hf32_away;
        let hf32 = |v: &f64| super::mode::round_hf32(*v as f32, away) as f64;
        (a.iter().map(hf32).collect(), b.iter().map(hf32).collect())
    } else {
        (a, b)
    };
    let integer = D::DTYPE != DType::Float && D::DTYPE != DType::Half;
    let sat = core.vector.fp16_saturation; // CTRL[48]
    let b_int: Vec<i32> = if integer {
        b.iter().map(|&v| v as i32).collect()
    } else {
        Vec::new()
    };
    // One row of C at a time, all its columns together: each element still sums its products
    // in K order (per fractal for floats), and the columns are independent, so the inner loop
    // over them vectorises.
    let mut out: Vec<(usize, [u8; 4])> = Vec::with_capacity(m * n);
    let mut init = vec![0f64; n];
    for i in 0..m {
        for (j, v) in init.iter_mut().enumerate() {
            *v = match bias_at {
                Some(o) => read::<D>(bt, o + j * 4),
                None if accumulate => read::<D>(c_mem, c_at(i, j)),
                None => 0.0,
            };
        }
        let row = &a[i * k..(i + 1) * k];
        if integer {
            // Integer sums wrap to 32 bits, so 32-bit wrapping arithmetic is exact.
            let mut acc: Vec<i32> = init.iter().map(|&v| v as i64 as i32).collect();
            for (kk, &av) in row.iter().enumerate() {
                let av = av as i32;
                for (c, &bv) in acc.iter_mut().zip(&b_int[kk * n..(kk + 1) * n]) {
                    *c = c.wrapping_add(av.wrapping_mul(bv));
                }
            }
            for (j, c) in acc.into_iter().enumerate() {
                out.push((c_at(i, j), c.to_le_bytes()));
            }
        } else {
            let mut acc: Vec<f32> = init.iter().map(|&v| v as f32).collect();
            let mut s = vec![0f64; n];
            for f in (0..k).step_by(k0) {
                for (sj, &aj) in s.iter_mut().zip(&acc) {
                    *sj = aj as f64;
                }
                for kk in f..(f + k0).min(k) {
                    let av = row[kk];
                    for (sj, &bv) in s.iter_mut().zip(&b[kk * n..(kk + 1) * n]) {
                        *sj += av * bv;
                    }
                }
                for (aj, &sj) in acc.iter_mut().zip(&s) {
                    *aj = sj as f32;
                }
            }
            for (j, v) in acc.into_iter().enumerate() {
                let mut bytes = [0u8; 4];
                if D::DTYPE == DType::Half {
                    bytes[..2].copy_from_slice(&round_f16(v, sat).to_bits().to_le_bytes());
                } else {
                    bytes.copy_from_slice(&v.to_le_bytes());
                }
                out.push((c_at(i, j), bytes));
            }
        }
    }
    let c_mem = core.mem.bytes_mut(Hardware::L0C);
    for (at, bytes) in out {
        c_mem[at..at + D::SIZE].copy_from_slice(&bytes[..D::SIZE]);
    }
    if p.unit_flag == 3 {
        core.cube.set_flags(c0, c_end, true);
    }
    let mut acc = vec![
        local_access(false, fm, a_need),
        local_access(false, filter, b_need),
        local_access(true, dst, c_need),
    ];
    if accumulate {
        acc.push(local_access(false, dst, c_need));
    }
    if let Some(o) = bias_at {
        acc.push(crate::core::trace::Access::contiguous(
            false,
            crate::core::trace::Space::Local(Hardware::BIAS),
            o as u64,
            (n * 4) as u64,
        ));
    }
    let steps =
        crate::timing::table::cube_steps(m as u32, n as u32, k as u32, U::BITS, core.cube.hf32);
    core.issue_cube(API, loc, &acc, steps);
    Ok(())
}
