//! Reductions: RepeatReduceSum, WholeReduce*, BlockReduce*, PairReduceSum and ReduceSum/Max/Min
//! (level 2 and level 0).

use crate::abi::{call, dtype, AscLoc, AscLocal};
use crate::vec::AscMask;
use ascendc::api::vec::reduce::*;
use ascendc::error::{Category, SimError};
use ascendc::{f16, DType, Mask};

/// The arguments of every reduction form; each form reads the ones it has.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct AscReduceArgs {
    /// Repeat times.
    pub repeat: i32,
    /// `dstBlkStride`, `srcBlkStride`, `dstRepStride`, `srcRepStride`.
    pub strides: [i32; 4],
    /// Element count of the level-2 ReduceSum/Max/Min.
    pub count: i32,
    /// `ReduceOrder` index of WholeReduceMax/Min.
    pub order: u8,
    /// `calIndex` of ReduceMax/Min.
    pub cal_index: u8,
}

fn order(i: u8) -> Result<ReduceOrder, SimError> {
    use ReduceOrder::*;
    [
        ORDER_VALUE_INDEX,
        ORDER_INDEX_VALUE,
        ORDER_ONLY_VALUE,
        ORDER_ONLY_INDEX,
    ]
    .get(i as usize)
    .copied()
    .ok_or_else(|| SimError::range("WholeReduce", "order", i, "[0, 3]"))
}

fn reduce_type(i: u8) -> ReduceType {
    [ReduceType::SUM, ReduceType::MAX, ReduceType::MIN][i as usize % 3]
}

fn reduce<T: ReduceElement>(
    op: u8,
    [dst, src, tmp]: [&AscLocal; 3],
    mask: Mask,
    a: &AscReduceArgs,
) -> Result<(), SimError> {
    let (d, s) = (dst.tensor::<T>()?, src.tensor::<T>()?);
    let [dst_blk, src_blk, dst_rep, src_rep] = a.strides;
    let r = a.repeat;
    let idx = a.cal_index != 0;
    match op {
        0 => repeat_reduce_sum(&d, &s, r, mask, dst_blk, src_blk, dst_rep, src_rep),
        1 => whole_reduce_sum(&d, &s, mask, r, dst_rep, src_blk, src_rep),
        2 => whole_reduce_max(&d, &s, mask, r, dst_rep, src_blk, src_rep, order(a.order)?),
        3 => whole_reduce_min(&d, &s, mask, r, dst_rep, src_blk, src_rep, order(a.order)?),
        4 => block_reduce_sum(&d, &s, r, mask, dst_rep, src_blk, src_rep),
        5 => block_reduce_max(&d, &s, r, mask, dst_rep, src_blk, src_rep),
        6 => block_reduce_min(&d, &s, r, mask, dst_rep, src_blk, src_rep),
        7 => pair_reduce_sum(&d, &s, r, mask, dst_rep, src_blk, src_rep),
        8 => reduce_sum(&d, &s, &tmp.tensor::<T>()?, a.count),
        9 => reduce_max(&d, &s, &tmp.tensor::<T>()?, a.count, idx),
        10 => reduce_min(&d, &s, &tmp.tensor::<T>()?, a.count, idx),
        11 => reduce_sum_l0(&d, &s, &tmp.tensor::<T>()?, mask, r, src_rep),
        12 => reduce_max_l0(&d, &s, &tmp.tensor::<T>()?, mask, r, src_rep, idx),
        13 => reduce_min_l0(&d, &s, &tmp.tensor::<T>()?, mask, r, src_rep, idx),
        14..=16 => reduce_repeat(
            reduce_type(op - 14),
            &d,
            &s,
            mask,
            r,
            dst_rep,
            src_blk,
            src_rep,
            order(a.order)?,
        ),
        17..=19 => reduce_data_block(
            reduce_type(op - 17),
            &d,
            &s,
            mask,
            r,
            dst_rep,
            src_blk,
            src_rep,
        ),
        20..=22 => reduce_pair_elem(
            reduce_type(op - 20),
            &d,
            &s,
            mask,
            r,
            dst_rep,
            src_blk,
            src_rep,
        ),
        _ => Err(SimError::new(
            Category::Unsupported,
            "C ABI",
            format!("reduction {op} is not available in this build"),
        )),
    }
}

/// Reduction `op`: 0 RepeatReduceSum, 1–3 WholeReduceSum/Max/Min, 4–6 BlockReduceSum/Max/Min,
/// 7 PairReduceSum, 8–10 ReduceSum/Max/Min (count), 11–13 ReduceSum/Max/Min (mask, repeat),
/// 14–16 ReduceRepeat, 17–19 ReduceDataBlock, 20–22 ReducePairElem (each SUM, MAX, MIN).
/// `tmp` may be null for the forms without a work buffer.
///
/// # Safety
/// `dst`, `src`, `mask` and `args` are valid for reads; `tmp` is null or valid.
#[no_mangle]
pub unsafe extern "C" fn ascendc_vec_reduce(
    op: u8,
    elem: u8,
    dst: *const AscLocal,
    src: *const AscLocal,
    tmp: *const AscLocal,
    mask: *const AscMask,
    args: *const AscReduceArgs,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let none = AscLocal::default();
        let ops = [&*dst, &*src, tmp.as_ref().unwrap_or(&none)];
        let mask = Mask::from(*mask);
        match dtype(elem)? {
            DType::Half => reduce::<f16>(op, ops, mask, &*args),
            DType::Float => reduce::<f32>(op, ops, mask, &*args),
            t => Err(SimError::new(
                Category::Type,
                "reduction",
                format!("element type {t} is not supported (supported: half/float)"),
            )),
        }
    })
}

fn spr<T: ReduceElement>(op: u8, value: *mut u8, index: *mut u8) -> Result<(), SimError> {
    let (v, i) = match op {
        0 => {
            let (v, i) = get_reduce_repeat_max_min_spr::<T>()?;
            (v, Some(i))
        }
        1 => (get_reduce_repeat_max_min_spr_value::<T>()?, None),
        _ => (get_reduce_repeat_sum_spr::<T>()?, None),
    };
    // SAFETY (caller): `value` and, for op 0, `index` point to a writable T.
    unsafe {
        (value as *mut T).write_unaligned(v);
        if let Some(i) = i {
            (index as *mut T).write_unaligned(i);
        }
    }
    Ok(())
}

/// Reads a reduction result register: op 0 `GetReduceRepeatMaxMinSpr(value, index)`, 1
/// `GetReduceRepeatMaxMinSpr(value)`, 2 `GetReduceRepeatSumSpr()` (into `value`).
///
/// # Safety
/// `value` (and `index` for op 0) point to a writable element of type `elem`.
#[no_mangle]
pub unsafe extern "C" fn ascendc_reduce_spr(
    op: u8,
    elem: u8,
    value: *mut u8,
    index: *mut u8,
    loc: AscLoc,
) -> i32 {
    call(loc, || match dtype(elem)? {
        DType::Half => spr::<f16>(op, value, index),
        DType::Float => spr::<f32>(op, value, index),
        t => Err(SimError::new(
            Category::Type,
            "GetReduceRepeatSpr",
            format!("element type {t} is not supported (supported: half/float)"),
        )),
    })
}
