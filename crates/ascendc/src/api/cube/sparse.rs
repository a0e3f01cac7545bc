//! 4:2 structured sparsity (Atlas A2/A3): `LoadDataWithSparse` moves the densified B matrix
//! (int8, ZN, `k/2 × n`) from L1 into L0B and its index matrix into the cube's index buffer
//! (PIPE_MTE1); `MmadWithSparse` multiplies the full `m × k` A (int8, ZZ) by it (PIPE_M).
//!
//! The index buffer is a quarter of L0B: the 128-byte index fractal (16 columns × 8 bytes, each
//! byte four 2-bit indices, the first in the low bits) of the B fractal at L0B byte `a` lives at
//! index-buffer byte `a / 4`. Dense rows `2t` and `2t + 1` of B come from A's columns `4t .. 4t +
//! 4`: row `2t` pairs with column `4t + i0`, row `2t + 1` with `4t + max(i0, 1 + i1)`, where `i0`
//! and `i1` are their indices (in {0, 1, 2}; the pages' selection table, including the two rows
//! where both pick the same element).

use super::layout::FRACTAL_BYTES;
use super::load::LoadData2DParams;
use super::mmad::MmadParams;
use super::support::cube_facts;
use super::{local_access, operand, require};
use crate::api::context::with_core;
use crate::api::tensor::LocalTensor;
use crate::core::trace::{Access, Pipe, Space};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::position::Hardware;

const LOAD: &str = "LoadDataWithSparse";
const MMAD: &str = "MmadWithSparse";

/// Bytes of an index fractal.
const INDEX_BYTES: u64 = FRACTAL_BYTES as u64 / 4;

/// `LoadDataWithSparse(dst, src, idx, loadDataParam)`: B fractals `startIndex ..
/// startIndex + repeatTimes` of `src` (B1) to consecutive fractals of `dst` (B2), and the index
/// fractals with the same numbers of `idx` (B1, 128 bytes each) to the index buffer. Only
/// `startIndex` and `repeatTimes` are used; transposing is not supported.
#[track_caller]
pub fn load_data_with_sparse(
    dst: &LocalTensor<i8>,
    src: &LocalTensor<i8>,
    idx: &LocalTensor<u8>,
    params: LoadData2DParams,
) -> Result<()> {
    let loc = SourceLoc::caller();
    with_core(LOAD, loc, |core| {
        require(core, LOAD, cube_facts(core.profile).sparse, LOAD)?;
        if params.if_transpose {
            return Err(SimError::range(
                LOAD,
                "ifTranspose",
                true,
                "false (LoadDataWithSparse does not transpose)",
            ));
        }
        if params.repeat_times == 0 {
            return Ok(());
        }
        let f = FRACTAL_BYTES as u64;
        let (first, n) = (params.start_index as u64, params.repeat_times as u64);
        operand(
            core,
            loc,
            LOAD,
            "source",
            src,
            Hardware::L1,
            "B1",
            32,
            (first + n) * f,
        )?;
        operand(
            core,
            loc,
            LOAD,
            "idx",
            idx,
            Hardware::L1,
            "B1",
            32,
            (first + n) * INDEX_BYTES,
        )?;
        operand(
            core,
            loc,
            LOAD,
            "destination",
            dst,
            Hardware::L0B,
            "B2",
            512,
            n * f,
        )?;
        let (s0, i0, d0) = (src.addr as u64, idx.addr as u64, dst.addr as u64);
        let l1 = core.mem.bytes(Hardware::L1);
        let b = l1[(s0 + first * f) as usize..(s0 + (first + n) * f) as usize].to_vec();
        let ix = l1[(i0 + first * INDEX_BYTES) as usize..(i0 + (first + n) * INDEX_BYTES) as usize]
            .to_vec();
        core.mem.bytes_mut(Hardware::L0B)[d0 as usize..(d0 + n * f) as usize].copy_from_slice(&b);
        let index_size = core.mem.size(Hardware::L0B) as u64 / 4;
        core.cube.write_sparse_index(d0 / 4, &ix, index_size);
        let acc = [
            Access::contiguous(false, Space::Local(Hardware::L1), s0 + first * f, n * f),
            Access::contiguous(
                false,
                Space::Local(Hardware::L1),
                i0 + first * INDEX_BYTES,
                n * INDEX_BYTES,
            ),
            Access::contiguous(true, Space::Local(Hardware::L0B), d0, n * f),
        ];
        core.issue(Pipe::MTE1, LOAD, loc, &acc);
        Ok(())
    })
}

/// `MmadWithSparse(dst, fm, filter, mmadParams)`: `C (m × n, int32) = A (m × k) × B` where B is
/// the densified `k/2 × n` int8 matrix `LoadDataWithSparse` put in L0B and A's columns are picked
/// by its indices; C starts from 0 (`cmatrixInitVal`) or from itself. `k` counts A's columns
/// (even); GEMV (`m = 1`), `kDirectionAlign` and a C from the BiasTable are not available.
#[track_caller]
pub fn mmad_with_sparse(
    dst: &LocalTensor<i32>,
    fm: &LocalTensor<i8>,
    filter: &LocalTensor<i8>,
    p: MmadParams,
) -> Result<()> {
    let loc = SourceLoc::caller();
    with_core(MMAD, loc, |core| {
        let facts = cube_facts(core.profile);
        require(core, MMAD, facts.sparse, MMAD)?;
        for (name, v) in [("m", p.m), ("n", p.n), ("k", p.k)] {
            if v > 4095 {
                return Err(SimError::range(MMAD, name, v, "[0, 4095]"));
            }
        }
        if !p.k.is_multiple_of(2) {
            return Err(SimError::range(
                MMAD,
                "k",
                p.k,
                "even (A's columns; B holds k / 2 dense rows)",
            ));
        }
        if p.m == 1 {
            return Err(SimError::range(
                MMAD,
                "m",
                1,
                "not 1 (MmadWithSparse has no GEMV mode)",
            ));
        }
        if p.k_direction_align {
            return Err(SimError::range(MMAD, "kDirectionAlign", true, "false"));
        }
        if !matches!(p.unit_flag, 0 | 2 | 3) {
            return Err(SimError::range(MMAD, "unitFlag", p.unit_flag, "0, 2 or 3"));
        }
        if p.cmatrix_source && !p.cmatrix_init_val {
            return Err(SimError::new(
                Category::Position,
                MMAD,
                "cmatrixSource = true starts C from the BiasTable, which needs the Mmad form with a bias tensor",
            ));
        }
        if p.m == 0 || p.n == 0 || p.k == 0 {
            return Ok(());
        }
        let (m, n, k) = (p.m as usize, p.n as usize, p.k as usize);
        let kd = k / 2;
        let (m1, n1, k1, kd1) = (
            m.div_ceil(16),
            n.div_ceil(16),
            k.div_ceil(32),
            kd.div_ceil(32),
        );
        let a_need = (m1 * k1 * 512) as u64;
        let b_need = (kd1 * n1 * 512) as u64;
        let c_need = (n1 * m1 * 1024) as u64;
        operand(
            core,
            loc,
            MMAD,
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
            MMAD,
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
            MMAD,
            "dst (C)",
            dst,
            Hardware::L0C,
            "CO1",
            1024,
            c_need,
        )?;
        let (c0, c_end) = (dst.addr as u64, dst.addr as u64 + c_need);
        if p.unit_flag != 0 {
            require(core, MMAD, facts.unit_flag, "unitFlag")?;
            let mut a = c0;
            while a < c_end {
                if core.cube.flag(a) {
                    return Err(SimError::new(
                        Category::Sync,
                        MMAD,
                        format!(
                            "unitFlag {}: L0C byte {a} was handed to Fixpipe by a Mmad with unitFlag 3 and no \
                             Fixpipe with unitFlag 3 has read it: the device would wait here forever",
                            p.unit_flag
                        ),
                    ));
                }
                a += crate::core::cube::UNIT_BYTES;
            }
        }
        // The index of dense row r, column j: its B fractal's index fractal, column j, byte r / 4.
        let ib = filter.addr as u64 / 4;
        let mut index = vec![0u8; kd * n];
        for r in 0..kd {
            for j in 0..n {
                let frac = ((r / 32) * n1 + j / 16) as u64;
                let at = ib + frac * INDEX_BYTES + ((j % 16) * 8 + (r % 32) / 4) as u64;
                let byte = core.cube.sparse_index(at).ok_or_else(|| {
                    SimError::new(
                        Category::Sync,
                        MMAD,
                        format!(
                            "the index of B fractal {frac} (L0B byte {}) was not loaded: LoadDataWithSparse \
                             puts B and its index matrix into L0B and the index buffer",
                            filter.addr as u64 + frac * FRACTAL_BYTES as u64
                        ),
                    )
                })?;
                let v = (byte >> (2 * (r % 4))) & 3;
                if v == 3 {
                    return Err(SimError::range(
                        MMAD,
                        "index",
                        format!("3 (dense row {r}, column {j})"),
                        "0, 1 or 2",
                    ));
                }
                index[r * n + j] = v;
            }
        }
        let a_mem = core.mem.bytes(Hardware::L0A);
        let b_mem = core.mem.bytes(Hardware::L0B);
        let c_mem = core.mem.bytes(Hardware::L0C);
        let (ab, bb, cb) = (fm.addr as usize, filter.addr as usize, dst.addr as usize);
        let a_at =
            |i: usize, kk: usize| ab + ((i / 16) * k1 + kk / 32) * 512 + (i % 16) * 32 + kk % 32;
        let b_at =
            |r: usize, j: usize| bb + ((r / 32) * n1 + j / 16) * 512 + (j % 16) * 32 + r % 32;
        let c_at = |i: usize, j: usize| {
            cb + ((j / 16) * m1 + i / 16) * 1024 + ((i % 16) * 16 + j % 16) * 4
        };
        let accumulate = p.is_bias || !p.cmatrix_init_val;
        let mut out = Vec::with_capacity(m * n);
        for i in 0..m {
            for j in 0..n {
                let mut acc: i32 = if accumulate {
                    i32::from_le_bytes(
                        c_mem[c_at(i, j)..c_at(i, j) + 4]
                            .try_into()
                            .expect("4 bytes"),
                    )
                } else {
                    0
                };
                for r in 0..kd {
                    let t = r / 2;
                    let sel = if r.is_multiple_of(2) {
                        index[r * n + j]
                    } else {
                        index[(r - 1) * n + j].max(1 + index[r * n + j])
                    };
                    let a = a_mem[a_at(i, 4 * t + sel as usize)] as i8 as i32;
                    let b = b_mem[b_at(r, j)] as i8 as i32;
                    acc = acc.wrapping_add(a * b);
                }
                out.push((c_at(i, j), acc));
            }
        }
        let c_mem = core.mem.bytes_mut(Hardware::L0C);
        for (at, v) in out {
            c_mem[at..at + 4].copy_from_slice(&v.to_le_bytes());
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
        let steps = crate::timing::table::cube_steps(p.m as u32, p.n as u32, p.k as u32, 8, false);
        core.issue_cube(MMAD, loc, &acc, steps);
        Ok(())
    })
}
