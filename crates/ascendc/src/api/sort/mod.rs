//! The sorting family (排序组合): descending sorts and 4-way merges of scored items, in the two
//! layouts the products use (docs/sort.md).
//!
//! * **(score, index) pairs** (Atlas A2 / A3, Atlas 200I/500 A2): `Sort32`, `MrgSort`. Each item
//!   is 8 bytes: the score in the low bytes (a float in bytes 0–3, or a half in bytes 0–1 with
//!   bytes 2–3 reserved) and the `uint32_t` index in bytes 4–7.
//! * **Region proposals** (Atlas training series, Atlas inference series AI Core):
//!   `ProposalConcat`, `ProposalExtract`, `RpSort16`, `MrgSort4`. Each item is 8 elements of
//!   `T` (`[x1, y1, x2, y2, score, label, reserved, reserved]`): 16 bytes for half, 32 for float.
//!
//! Both merges leave per-list counts in a special register that `GetMrgSortResult` reads.
//! Ordering is by score, largest first; equal scores keep their input order (inside a sort the
//! earlier element first, across merged lists the lower-numbered list first). NaN scores are an
//! error: the documentation does not place them.

pub mod high_level;
pub mod merge;
pub mod pairs;
pub mod proposal;
pub mod support;

use crate::api::vec::operand::{bytes, Ub};
use crate::core::trace::{Access, Space};
use crate::dtype::DType;
use crate::error::{Category, Result, SimError};
use crate::f16;
use crate::position::Hardware;

pub use high_level::{
    concat, extract, get_sort_len, get_sort_offset, mrg_sort_with_counts, sort, SortLayout,
};
pub use merge::{get_mrg_sort_result, MrgSort4Info, MrgSortSrcList};
pub use pairs::{mrg_sort, sort32};
pub use proposal::{mrg_sort4, proposal_concat, proposal_extract, rp_sort16};

/// Checks an `int32_t repeatTime` against `[min, 255]`; returns it as a count.
fn repeat_in(api: &'static str, name: &str, value: i64, min: i64) -> Result<u64> {
    if !(min..=255).contains(&value) {
        return Err(SimError::range(api, name, value, format!("[{min}, 255]")));
    }
    Ok(value as u64)
}

/// The score stored at byte `at` as `f32` (half scores widen exactly).
fn score_at(ub: &[u8], at: u64, dt: DType) -> f32 {
    if dt == DType::Half {
        let b = bytes(ub, at, 2);
        f16::from_bits(u16::from_le_bytes([b[0], b[1]])).to_f32()
    } else {
        let b = bytes(ub, at, 4);
        f32::from_le_bytes([b[0], b[1], b[2], b[3]])
    }
}

/// The scores of `n` items of `item` bytes from `base` (score at byte `score_off` of each item);
/// a NaN score is an error naming the operand and the item.
#[allow(clippy::too_many_arguments)]
fn scores(
    api: &'static str,
    what: &str,
    ub: &[u8],
    base: u64,
    n: u64,
    item: u64,
    score_off: u64,
    dt: DType,
) -> Result<Vec<f32>> {
    (0..n)
        .map(|i| {
            let s = score_at(ub, base + i * item + score_off, dt);
            if s.is_nan() {
                Err(SimError::new(
                    Category::Range,
                    api,
                    format!(
                        "{what} item {i} has a NaN score: the ordering of NaN is not documented (scores must be numbers)"
                    ),
                ))
            } else {
                Ok(s)
            }
        })
        .collect()
}

/// Positions `0..n` ordered by descending score; equal scores (−0 and +0 included) keep their
/// order. Scores are NaN-free.
fn descending(s: &[f32]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..s.len()).collect();
    order.sort_by(|&a, &b| s[b].partial_cmp(&s[a]).unwrap_or(std::cmp::Ordering::Equal));
    order
}

/// `repeats` runs of `len` bytes, `stride` bytes apart, from `base` in UB.
fn runs(write: bool, base: u64, len: u64, repeats: u64, stride: u64) -> Access {
    Access {
        write,
        space: Space::Local(Hardware::UB),
        base,
        len: len as u32,
        blocks: 1,
        block_stride: 0,
        repeats: repeats as u32,
        repeat_stride: stride,
    }
}

/// `bytes` contiguous bytes from `base`, recorded as whole `chunk`-byte repeats plus a tail (so
/// the record carries the instruction's repeat count).
fn chunked(write: bool, base: u64, total: u64, chunk: u64) -> Vec<Access> {
    let full = total / chunk;
    let mut v = Vec::new();
    if full > 0 {
        v.push(runs(write, base, chunk, full, chunk));
    }
    if !total.is_multiple_of(chunk) {
        v.push(Ub::access(write, base + full * chunk, base + total));
    }
    v
}
