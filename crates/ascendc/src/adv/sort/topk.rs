//! `TopK` (排序操作/TopK): the `k` largest (or smallest) values of each row of an
//! `[outter, inner]` source and their indices, by the merge-sort algorithm of A2/A3 (`Sort32`,
//! `MrgSort`, `GatherMask`) and of the Atlas inference series (`ProposalConcat`, `RpSort16`,
//! `MrgSort4`, `ProposalExtract`), with the host helpers `GetTopKMaxMinTmpSize` and
//! `TopKTilingFunc` that fill the [`TopkTiling`] the kernel reads.
//!
//! The kernel follows the tiling it is given, as on the device: every offset into the
//! temporary buffer, mask and repeat count comes from [`TopkTiling`].

use crate::adv::common::{barrier_v, require, run, sync_event, Tmp, A2_A3_310P};
use crate::adv::index::arith_progression::arith_progression;
use crate::api::sort::{
    mrg_sort, mrg_sort4, proposal_concat, proposal_extract, rp_sort16, sort32, MrgSort4Info,
    MrgSortSrcList,
};
use crate::api::vec::cast::{cast_l0, CastType};
use crate::api::vec::copy::{copy, CopyRepeatParams};
use crate::api::vec::duplicate::duplicate_l0;
use crate::api::vec::gather::{gather_mask, gather_mask_tensor, GatherMaskParams};
use crate::api::vec::mask::{reset_mask, set_mask_count, set_mask_norm, set_vector_mask};
use crate::api::vec::scalar::{adds_l0, muls_l0};
use crate::chip::Product;
use crate::data_copy;
use crate::dtype::{DType, Element};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::numeric::{Arith, RoundMode};
use crate::{
    f16, DataCopyParams, HardEvent, LocalTensor, MaskMode, UnaryRepeatParams, MASK_PLACEHOLDER,
};

const API: &str = "TopK";

/// The longest row Normal mode takes (`TopKInfo::inner`).
pub const TOPK_NORMAL_INNER_MAX: i32 = 4096;
/// The row length Small mode takes.
pub const TOPK_NSMALL_INNER: i32 = 32;
/// The longest half row the Atlas inference series takes when it numbers the elements itself.
const TOPK_HALF_INNER_MAX_310P: i32 = 2048;

/// `TopKMode`: the general mode, or the one for rows of exactly 32 elements.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TopKMode {
    /// `TopKMode::TOPK_NORMAL`: rows of 32 to 4096 elements (a multiple of 32).
    #[default]
    Normal,
    /// `TopKMode::TOPK_NSMALL`: rows of 32 elements, all rows sorted at once.
    NSmall,
}

/// `TopKInfo`: the source's shape. `inner` (a multiple of 32) is the row length in memory,
/// `n` (1..=inner) the elements of each row taking part.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TopKInfo {
    /// Rows.
    pub outter: i32,
    /// Row length in elements, 32-aligned.
    pub inner: i32,
    /// Valid elements per row.
    pub n: i32,
}

/// The template switches of `TopK<T, isInitIndex, isHasfinish, isReuseSrc, topkMode>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TopKOptions {
    /// `isInitIndex`: the indices come from `srcIndexLocal` (else `0..inner`).
    pub is_init_index: bool,
    /// `isHasfinish`: rows whose `finishLocal` byte is true get every index set to `n`
    /// (Normal mode only).
    pub is_has_finish: bool,
    /// `isReuseSrc`: reserved on these products.
    pub is_reuse_src: bool,
    /// `topkMode`.
    pub mode: TopKMode,
}

/// `TopkTiling` (`optiling::TopkTiling` / the kernel struct of the same name): 24 four-byte
/// fields then 8 `uint16_t`, 112 bytes, as `TopKTilingFunc` fills them. Sizes and offsets
/// count elements of the value type unless named otherwise.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[allow(missing_docs)]
pub struct TopkTiling {
    /// Temporary elements the kernel uses.
    pub tmp_local_size: i32,
    pub all_data_size: i32,
    /// Elements of one sort buffer (the second starts here).
    pub inner_data_size: i32,
    pub sort_repeat: u32,
    pub mrg_sort_repeat: i32,
    pub k_align_four_bytes: i32,
    pub k_align_two_bytes: i32,
    pub mask_offset: i32,
    pub mask_vreducev2_four_bytes: i32,
    pub mask_vreducev2_two_bytes: i32,
    pub mrg_sort_src1offset: i32,
    pub mrg_sort_src2offset: i32,
    pub mrg_sort_src3offset: i32,
    pub mrg_sort_two_queue_src1_offset: i32,
    pub mrg_four_queue_tail_para1: i32,
    pub mrg_four_queue_tail_para2: i32,
    pub src_index_offset: i32,
    /// 32-byte blocks of one sort buffer.
    pub copy_ub_to_ub_block_count: u32,
    pub topk_mrg_src1_mask_size_offset: i32,
    pub topk_nsmall_src_index_offset: i32,
    pub vreduce_val_mask0: u32,
    pub vreduce_val_mask1: u32,
    pub vreduce_idx_mask0: u32,
    pub vreduce_idx_mask1: u32,
    /// `vreducehalfValMask0..7`.
    pub vreducehalf_val_mask: [u16; 8],
}

/// Bytes of [`TopkTiling`].
pub const TOPK_TILING_BYTES: usize = 112;
const _: () = assert!(std::mem::size_of::<TopkTiling>() == TOPK_TILING_BYTES);

/// `TopK<T, isInitIndex, isHasfinish, isReuseSrc, topkMode>(dstValueLocal, dstIndexLocal,
/// srcLocal, srcIndexLocal, finishLocal, [tmpLocal,] k, tiling, topKInfo, isLargest)`: for each
/// of the `outter` rows of `src` the `k` largest (`is_largest`) or smallest values, in order,
/// and their indices (equal values: the lower index first; NaN first either way).
///
/// `T`: half or float; A2, A3 and the Atlas inference series (310P). Normal mode writes rows
/// of `k` rounded up to 32 bytes (`dst_value`) and to 8 (`dst_index`); Small mode packs rows of
/// `k`. `src_index` (int32) is read with `is_init_index`: one row of `inner` in Normal mode,
/// `outter` rows in Small mode. `finish` holds one bool byte per row. Temporary space:
/// `tiling.tmp_local_size` elements of `T` (`topk_max_min_tmp_size` bytes).
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn topk<T: Element>(
    dst_value: &LocalTensor<T>,
    dst_index: &LocalTensor<i32>,
    src: &LocalTensor<T>,
    src_index: &LocalTensor<i32>,
    finish: &LocalTensor<u8>,
    tmp: Tmp,
    k: i32,
    tiling: &TopkTiling,
    info: TopKInfo,
    is_largest: bool,
    opts: TopKOptions,
) -> Result<()> {
    run(API, SourceLoc::caller(), || {
        let product = require(API, A2_A3_310P)?;
        let v200 = product == Product::Ascend310P;
        check::<T>(v200, k, info, opts)?;
        let buf = tmp.buffer(API)?;
        let need = tiling.tmp_local_size.max(0) as u64 * T::SIZE as u64;
        if (buf.get_size() as u64) < need {
            return Err(SimError::new(
                Category::Size,
                API,
                format!(
                    "the temporary buffer holds {} bytes, fewer than the tiling's tmpLocalSize = {} elements ({need} bytes; GetTopKMaxMinTmpSize)",
                    buf.get_size(),
                    tiling.tmp_local_size
                ),
            ));
        }
        macro_rules! go {
            ($t:ty) => {{
                let c = Call::<$t> {
                    dv: dst_value.reinterpret_cast(),
                    di: *dst_index,
                    src: src.reinterpret_cast(),
                    si: *src_index,
                    fin: *finish,
                    tmp: buf.reinterpret_cast(),
                    k: k as u32,
                    t: tiling,
                    outter: info.outter as u32,
                    inner: info.inner as u32,
                    n: info.n,
                    largest: is_largest,
                    init: opts.is_init_index,
                    has_finish: opts.is_has_finish,
                };
                match (v200, opts.mode) {
                    (false, TopKMode::Normal) => c.normal_v220(),
                    (false, TopKMode::NSmall) => c.small_v220(),
                    (true, TopKMode::Normal) => c.normal_v200(),
                    (true, TopKMode::NSmall) => c.small_v200(),
                }
            }};
        }
        if T::DTYPE == DType::Half {
            go!(f16)
        } else {
            go!(f32)
        }
    })
}

/// The device's input checks (`TopkInputCheck`).
fn check<T: Element>(v200: bool, k: i32, info: TopKInfo, opts: TopKOptions) -> Result<()> {
    let err = |c, m: String| Err(SimError::new(c, API, m));
    if !matches!(T::DTYPE, DType::Half | DType::Float) {
        return err(
            Category::Type,
            format!(
                "T = {} is not supported: TopK takes half or float",
                T::DTYPE
            ),
        );
    }
    let TopKInfo { outter, inner, n } = info;
    if outter < 1 {
        return err(
            Category::Range,
            format!("topKInfo.outter = {outter}: must be at least 1"),
        );
    }
    if inner <= 0 || inner % 32 != 0 {
        return err(
            Category::Range,
            format!("topKInfo.inner = {inner}: must be a positive multiple of 32"),
        );
    }
    if !(1..=inner).contains(&n) {
        return err(
            Category::Range,
            format!("topKInfo.n = {n}: must be in [1, inner = {inner}]"),
        );
    }
    if !(1..=n).contains(&k) {
        return err(
            Category::Range,
            format!("parameter `k` = {k}: must be in [1, n = {n}]"),
        );
    }
    match opts.mode {
        TopKMode::Normal if inner > TOPK_NORMAL_INNER_MAX => {
            return err(
                Category::Range,
                format!(
                    "topKInfo.inner = {inner}: Normal mode takes at most {TOPK_NORMAL_INNER_MAX}"
                ),
            )
        }
        TopKMode::NSmall if inner != TOPK_NSMALL_INNER => {
            return err(
                Category::Range,
                format!("topKInfo.inner = {inner}: Small mode takes exactly {TOPK_NSMALL_INNER}"),
            )
        }
        TopKMode::NSmall if opts.is_has_finish => {
            return err(
                Category::Unsupported,
                "isHasfinish = true is not supported in Small mode (TOPK_NSMALL)".into(),
            )
        }
        _ => {}
    }
    if v200 && T::SIZE == 2 && !opts.is_init_index && inner > TOPK_HALF_INNER_MAX_310P {
        return err(
            Category::Range,
            format!(
                "topKInfo.inner = {inner}: half with isInitIndex = false takes at most {TOPK_HALF_INNER_MAX_310P} on the Atlas inference series"
            ),
        );
    }
    Ok(())
}

/// One call's operands, tiling and switches.
struct Call<'a, T> {
    dv: LocalTensor<T>,
    di: LocalTensor<i32>,
    src: LocalTensor<T>,
    si: LocalTensor<i32>,
    fin: LocalTensor<u8>,
    tmp: LocalTensor<T>,
    k: u32,
    t: &'a TopkTiling,
    outter: u32,
    inner: u32,
    n: i32,
    largest: bool,
    init: bool,
    has_finish: bool,
}

/// `SetVectorMask<T, COUNTER>(0, n)`.
fn count<T: Element>(n: impl TryInto<u64>) -> Result<()> {
    set_vector_mask::<T>(MaskMode::COUNTER, n.try_into().unwrap_or(0))
}

/// `Muls<T, false>(dst, src, -1, MASK_PLACEHOLDER, 1, {1, 1, 8, 8})`.
fn negate<T: Arith>(dst: &LocalTensor<T>, src: &LocalTensor<T>) -> Result<()> {
    muls_l0(
        dst,
        src,
        T::from_f64(-1.0),
        MASK_PLACEHOLDER,
        1,
        UnaryRepeatParams::default(),
    )
}

/// `DataCopy(dst, src, {blocks, 1, 0, 0})` inside UB.
fn ub_copy<T: Element>(dst: &LocalTensor<T>, src: &LocalTensor<T>, blocks: u32) -> Result<()> {
    data_copy(dst, src, DataCopyParams::new(blocks as u16, 1, 0, 0))
}

/// `SetMaskNorm(); ResetMask();`.
fn finish_masks() -> Result<()> {
    set_mask_norm()?;
    reset_mask()
}

/// `Cast<D, S, false>(dst, src, mode, MASK_PLACEHOLDER, 1, {1, 1, dstRep, srcRep})`.
fn cast<D: CastType, S: CastType>(
    dst: &LocalTensor<D>,
    src: &LocalTensor<S>,
    mode: RoundMode,
    dst_rep: u8,
    src_rep: u8,
) -> Result<()> {
    cast_l0(
        dst,
        src,
        mode,
        MASK_PLACEHOLDER,
        1,
        UnaryRepeatParams::new(1, 1, dst_rep, src_rep),
    )
}

/// The merge-pass lengths after the four-way passes stop at runs of `z`: runs of `z`,
/// `z / 4`, … (down to `min_run`) that make up `inner`.
fn two_way_runs(z: u32, inner: u32, min_run: u32) -> Vec<u32> {
    let mut runs = Vec::new();
    let mut rest = inner;
    let mut i = z;
    while i >= min_run {
        for _ in 0..rest / i {
            runs.push(i);
        }
        rest -= rest / i * i;
        i /= 4;
    }
    runs
}

impl<T: Arith + CastType> Call<'_, T> {
    fn at(&self, off: impl TryInto<u32>) -> Result<LocalTensor<T>> {
        self.tmp.at(off.try_into().unwrap_or(u32::MAX))
    }

    /// The two sort buffers: 0 at the start of the temporary buffer, 1 `innerDataSize` on.
    fn half_buf(&self, i: u32) -> Result<LocalTensor<T>> {
        self.at(self.t.inner_data_size as u32 * i)
    }

    /// `ArithProgression(tmp[offset] as int32, 0, 1, inner)` and the barrier (`!isInitIndex`).
    fn numbering(&self, offset: i32) -> Result<LocalTensor<i32>> {
        let idx = self.at(offset)?.reinterpret_cast::<i32>();
        arith_progression(&idx, 0, 1, self.inner as i32)?;
        barrier_v()?;
        Ok(idx)
    }

    /// `isHasfinish`: when row `j`'s flag is set, its `k` indices become `n`.
    fn finish_row(&self, j: u32, dst_off: u32) -> Result<()> {
        let done = self.fin.get_value(j)? != 0;
        sync_event(API, HardEvent::S_V)?;
        if done {
            self.dup_n(dst_off)?;
        }
        Ok(())
    }

    /// `Duplicate<int32_t, false>(dstIndex[dst_off], n, MASK_PLACEHOLDER, 1, 1, 8)` over `k`.
    fn dup_n(&self, dst_off: u32) -> Result<()> {
        count::<T>(self.k)?;
        duplicate_l0(&self.di.at(dst_off)?, self.n, MASK_PLACEHOLDER, 1, 1, 8)
    }

    /// The closing `Muls` by −1 of the values when the smallest were asked for.
    fn restore_sign(&self) -> Result<()> {
        if !self.largest {
            count::<T>(self.t.mask_offset)?;
            negate(&self.dv, &self.dv)?;
        }
        Ok(())
    }

    // ---- A2 / A3 ----

    /// `TopKNormal` (v220): per row `Sort32`, four-way `MrgSort` passes, two-way passes (cut to
    /// `k`), then `GatherMask` of the values and indices.
    fn normal_v220(&self) -> Result<()> {
        let t = self.t;
        if !self.init {
            self.numbering(t.src_index_offset)?;
        }
        set_mask_count()?;
        let idx: LocalTensor<u32> = if self.init {
            self.si.reinterpret_cast()
        } else {
            self.at(t.src_index_offset)?.reinterpret_cast()
        };
        let second = self.half_buf(1)?;
        for j in 0..self.outter {
            let dst_off = j * t.k_align_four_bytes as u32;
            let row = self.src.at(j * self.inner)?;
            if !self.largest {
                count::<T>(self.inner)?;
                negate(&second, &row)?;
                barrier_v()?;
                sort32(&self.tmp, &second, &idx, t.sort_repeat as i32)?;
            } else {
                sort32(&self.tmp, &row, &idx, t.sort_repeat as i32)?;
            }
            barrier_v()?;
            ub_copy(&second, &self.tmp, t.copy_ub_to_ub_block_count)?;
            barrier_v()?;
            let (z, merges) = self.four_way(32, false)?;
            let dst_idx = self.two_way(z, merges, 32, false)?;
            self.gather_v220(j, dst_idx, dst_off)?;
            if self.has_finish {
                self.finish_row(j, dst_off)?;
            }
            barrier_v()?;
        }
        self.restore_sign()?;
        finish_masks()
    }

    /// Four-way merges of runs of `z`, `4z`, … while four runs fit in a row, each copied back
    /// to the other buffer; `(z, passes)` after them.
    fn four_way(&self, mut z: u32, proposals: bool) -> Result<(u32, u32)> {
        let t = self.t;
        let mut passes = 0;
        let offs = [
            t.mrg_sort_src1offset as u32,
            t.mrg_sort_src2offset as u32,
            t.mrg_sort_src3offset as u32,
        ];
        while z * 4 <= self.inner & 0xFFFF {
            let src = self.half_buf(passes % 2)?;
            let dst = self.half_buf((passes + 1) % 2)?;
            passes += 1;
            let list = MrgSortSrcList::new(
                src,
                src.at(z * offs[0])?,
                src.at(z * offs[1])?,
                src.at(z * offs[2])?,
            );
            let info = MrgSort4Info::new(
                [z as u16; 4],
                false,
                0b1111,
                (t.mrg_sort_repeat as u32 / z) as u16,
            );
            if proposals {
                mrg_sort4(&dst, &list, &info)?;
            } else {
                mrg_sort(&dst, &list, &info)?;
            }
            barrier_v()?;
            ub_copy(&src, &dst, t.copy_ub_to_ub_block_count)?;
            barrier_v()?;
            z *= 4;
        }
        Ok((z, passes))
    }

    /// Two-way merges of the remaining runs into the first; the buffer holding the result.
    /// A2/A3 cut both lists to `k` pairs; the inference series merges whole lists.
    fn two_way(&self, z: u32, passes: u32, min_run: u32, proposals: bool) -> Result<u32> {
        let mut dst_idx = passes % 2;
        if z >= self.inner {
            return Ok(dst_idx);
        }
        let runs = two_way_runs(z, self.inner, min_run);
        let step = if proposals {
            8
        } else {
            self.t.mrg_sort_two_queue_src1_offset as u32
        };
        let mut sorted = 0u32;
        for i in 0..runs.len().saturating_sub(1) {
            let src = self.half_buf((passes + i as u32) % 2)?;
            dst_idx = (passes + 1 + i as u32) % 2;
            let dst = self.half_buf(dst_idx)?;
            sorted = (sorted + runs[i]) & 0xFFFF;
            let (a, b) = if proposals {
                (sorted, runs[i + 1])
            } else {
                (sorted.min(self.k), runs[i + 1].min(self.k))
            };
            let list = MrgSortSrcList::new(src, src.at(sorted * step)?, src, src);
            let info = MrgSort4Info::new([a as u16, b as u16, 0, 0], false, 0b0011, 1);
            if proposals {
                mrg_sort4(&dst, &list, &info)?;
            } else {
                mrg_sort(&dst, &list, &info)?;
            }
            barrier_v()?;
        }
        Ok(dst_idx)
    }

    /// `GatherDstValAndDstIdx`: the first `k` values (pattern 1 of float pairs, 3 of half
    /// pairs) and indices (pattern 2, as float) of the sorted pairs in buffer `dst_idx`.
    fn gather_v220(&self, j: u32, dst_idx: u32, dst_off: u32) -> Result<()> {
        let t = self.t;
        let sorted = self.half_buf(dst_idx)?;
        let p = GatherMaskParams::new(1, 1, 8, 1);
        if T::SIZE == 4 {
            let m = t.mask_vreducev2_four_bytes as u32;
            gather_mask(&self.dv.at(dst_off)?, &sorted, 1, true, m, p)?;
        } else {
            let off = j * t.k_align_two_bytes as u32;
            let m = t.mask_vreducev2_two_bytes as u32;
            gather_mask(&self.dv.at(off)?, &sorted, 3, true, m, p)?;
        }
        barrier_v()?;
        let di = self.di.at(dst_off)?.reinterpret_cast::<f32>();
        let m = t.mask_vreducev2_four_bytes as u32;
        gather_mask(&di, &sorted.reinterpret_cast::<f32>(), 2, true, m, p)?;
        barrier_v()?;
        set_mask_count()
    }

    /// `TopKNSmall` (v220): one `Sort32` repeat per row, then `GatherMask` with pattern
    /// tensors written by the scalar unit.
    fn small_v220(&self) -> Result<()> {
        let t = self.t;
        if !self.init {
            let idx = self.numbering(t.topk_nsmall_src_index_offset)?;
            if self.outter > 1 {
                let params = CopyRepeatParams::new(1, 1, 4, 0);
                copy(
                    &idx.at(self.inner)?,
                    &idx,
                    32u32,
                    (self.outter - 1) as u8,
                    params,
                )?;
                barrier_v()?;
            }
        }
        set_mask_count()?;
        let second = self.at(t.inner_data_size)?;
        if !self.largest {
            count::<T>(t.all_data_size)?;
            negate(&second, &self.src)?;
            barrier_v()?;
        }
        let idx: LocalTensor<u32> = if self.init {
            self.si.reinterpret_cast()
        } else {
            self.at(t.topk_nsmall_src_index_offset)?.reinterpret_cast()
        };
        let values = if self.largest { self.src } else { second };
        sort32(&self.tmp, &values, &idx, self.outter as i32)?;
        barrier_v()?;
        let moff = t.topk_mrg_src1_mask_size_offset as u32;
        let p = GatherMaskParams::new(1, self.outter as u16, 8, 0);
        let di = self.di.reinterpret_cast::<f32>();
        let tf = self.tmp.reinterpret_cast::<f32>();
        if T::SIZE == 4 {
            let mut pat = self.at(moff)?.reinterpret_cast::<u32>();
            sync_event(API, HardEvent::V_S)?;
            pat.set_size(10)?;
            pat.set_value(0, t.vreduce_val_mask0)?;
            pat.set_value(1, t.vreduce_val_mask1)?;
            pat.set_value(8, t.vreduce_idx_mask0)?;
            pat.set_value(9, t.vreduce_idx_mask1)?;
            sync_event(API, HardEvent::S_V)?;
            gather_mask_tensor(&self.dv, &self.tmp, &pat, true, 64, p)?;
            let ipat = self.at(moff + 8)?.reinterpret_cast::<u32>();
            gather_mask_tensor(&di, &tf, &ipat, true, 64, p)?;
        } else {
            let mut pat = self.at(moff)?.reinterpret_cast::<u16>();
            sync_event(API, HardEvent::V_S)?;
            pat.set_size(8)?;
            for (i, &m) in t.vreducehalf_val_mask.iter().enumerate() {
                pat.set_value(i as u32, m)?;
            }
            let mut ipat = self.at(moff + 16)?.reinterpret_cast::<u32>();
            ipat.set_size(2)?;
            ipat.set_value(0, t.vreduce_idx_mask0)?;
            ipat.set_value(1, t.vreduce_idx_mask1)?;
            sync_event(API, HardEvent::S_V)?;
            gather_mask_tensor(&self.dv, &self.tmp, &pat, true, 128, p)?;
            barrier_v()?;
            let ipat = tf.at((moff + 16) / 2)?.reinterpret_cast::<u32>();
            gather_mask_tensor(&di, &tf, &ipat, true, 64, p)?;
        }
        barrier_v()?;
        if !self.largest {
            barrier_v()?;
            set_mask_count()?;
        }
        self.restore_sign()?;
        finish_masks()
    }

    // ---- Atlas inference series ----

    /// `CastIdxTypeToValType`: the int32 indices (`srcIndexLocal`, or the numbering at
    /// `offset`) to float at `offset`, then to half for half values; `n` elements.
    fn index_to_value_type(&self, n: u32, offset: i32) -> Result<()> {
        count::<T>(n)?;
        let at = self.at(offset)?;
        let f = at.reinterpret_cast::<f32>();
        if self.init {
            cast(&f, &self.si, RoundMode::CAST_NONE, 8, 8)?;
        } else {
            cast(
                &f,
                &at.reinterpret_cast::<i32>(),
                RoundMode::CAST_NONE,
                8,
                8,
            )?;
        }
        barrier_v()?;
        if T::SIZE == 2 {
            cast(
                &at.reinterpret_cast::<f16>(),
                &f,
                RoundMode::CAST_NONE,
                4,
                8,
            )?;
            barrier_v()?;
        }
        Ok(())
    }

    /// `TopKNormal` (v200): per row region proposals (value in field 4, index in field 0),
    /// `RpSort16`, `MrgSort4` passes, `ProposalExtract`, the indices back to int32.
    fn normal_v200(&self) -> Result<()> {
        let t = self.t;
        if !self.init {
            self.numbering(t.src_index_offset)?;
        }
        set_mask_count()?;
        self.index_to_value_type(self.inner, t.src_index_offset)?;
        let second = self.half_buf(1)?;
        let index = self.at(t.src_index_offset)?;
        let reps = t.sort_repeat as i32;
        for j in 0..self.outter {
            let dst_off = j * t.k_align_four_bytes as u32;
            let row = self.src.at(j * self.inner)?;
            if !self.largest {
                count::<T>(self.inner)?;
                negate(&second, &row)?;
                barrier_v()?;
                proposal_concat(&self.tmp, &second, reps, 4)?;
            } else {
                proposal_concat(&self.tmp, &row, reps, 4)?;
            }
            proposal_concat(&self.tmp, &index, reps, 0)?;
            barrier_v()?;
            rp_sort16(&second, &self.tmp, reps)?;
            barrier_v()?;
            ub_copy(&self.tmp, &second, t.copy_ub_to_ub_block_count)?;
            barrier_v()?;
            let (z, passes) = self.four_way(16, true)?;
            let dst_idx = self.two_way(z, passes, 16, true)?;
            self.extract_v200(j, dst_idx, dst_off)?;
            if self.has_finish {
                sync_event(API, HardEvent::V_S)?;
                if self.fin.get_value(j)? != 0 {
                    self.dup_n(dst_off)?;
                    barrier_v()?;
                }
            }
        }
        self.restore_sign()?;
        finish_masks()
    }

    /// `ProposalExtractValIdx`: the first `k` values and indices of the sorted proposals in
    /// buffer `dst_idx`, through the other buffer.
    fn extract_v200(&self, j: u32, dst_idx: u32, dst_off: u32) -> Result<()> {
        let t = self.t;
        let sorted = self.half_buf(dst_idx)?;
        let out = self.half_buf(1 - dst_idx)?;
        let reps = t.sort_repeat as i32;
        let params = UnaryRepeatParams::default();
        proposal_extract(&out, &sorted, reps, 4)?;
        barrier_v()?;
        let val_off = if T::SIZE == 2 {
            j * t.k_align_two_bytes as u32
        } else {
            dst_off
        };
        count::<T>(self.k)?;
        adds_l0(
            &self.dv.at(val_off)?,
            &out,
            T::from_f64(0.0),
            MASK_PLACEHOLDER,
            1,
            params,
        )?;
        barrier_v()?;
        proposal_extract(&out, &sorted, reps, 0)?;
        barrier_v()?;
        count::<T>(self.inner)?;
        let mut index = out;
        if T::SIZE == 2 {
            index = out.at(self.inner)?;
            cast(
                &index.reinterpret_cast::<f32>(),
                &out,
                RoundMode::CAST_NONE,
                8,
                4,
            )?;
            barrier_v()?;
        }
        let as_int = index.reinterpret_cast::<i32>();
        cast(
            &as_int,
            &index.reinterpret_cast::<f32>(),
            RoundMode::CAST_ROUND,
            8,
            8,
        )?;
        barrier_v()?;
        count::<T>(self.k)?;
        adds_l0(
            &self.di.at(dst_off)?,
            &as_int,
            0,
            MASK_PLACEHOLDER,
            1,
            params,
        )?;
        barrier_v()
    }

    /// `TopKNSmall` (v200): all rows as proposals at once, `RpSort16`, one `MrgSort4` of the
    /// two sorted halves per row (when `n > 16`), `ProposalExtract`, `GatherMask` of the first
    /// `k` of each row.
    fn small_v200(&self) -> Result<()> {
        let t = self.t;
        let ioff = t.topk_nsmall_src_index_offset;
        if !self.init {
            let idx = self.numbering(ioff)?;
            if self.outter > 1 {
                set_mask_norm()?;
                reset_mask()?;
                set_vector_mask::<i32>(MaskMode::NORMAL, self.inner)?;
                let params = UnaryRepeatParams::new(1, 1, 4, 0);
                let reps = (self.outter - 1) as u8;
                adds_l0(
                    &idx.at(self.inner)?,
                    &idx,
                    0,
                    MASK_PLACEHOLDER,
                    reps,
                    params,
                )?;
                barrier_v()?;
            }
        }
        set_mask_count()?;
        let second = self.at(t.inner_data_size)?;
        if !self.largest {
            count::<T>(t.all_data_size)?;
            negate(&second, &self.src)?;
            barrier_v()?;
        }
        self.index_to_value_type(t.all_data_size as u32, ioff)?;
        let reps = t.sort_repeat as i32;
        let values = if self.largest { self.src } else { second };
        proposal_concat(&self.tmp, &values, reps, 4)?;
        proposal_concat(&self.tmp, &self.at(ioff)?, reps, 0)?;
        barrier_v()?;
        rp_sort16(&second, &self.tmp, reps)?;
        barrier_v()?;
        if self.n > 16 {
            let row = t.mrg_sort_src1offset as u32;
            let info = MrgSort4Info::new([16, 16, 0, 0], false, 0b0011, 1);
            for j in 0..self.outter {
                let s = self.at(t.inner_data_size as u32 + row * j)?;
                let list =
                    MrgSortSrcList::new(s, s.at(t.mrg_sort_two_queue_src1_offset as u32)?, s, s);
                mrg_sort4(&self.at(row * j)?, &list, &info)?;
            }
        } else {
            ub_copy(&self.tmp, &second, t.copy_ub_to_ub_block_count)?;
        }
        barrier_v()?;
        proposal_extract(&second, &self.tmp, reps, 4)?;
        proposal_extract(&self.at(ioff)?, &self.tmp, reps, 0)?;
        barrier_v()?;
        // CastIdxToInt
        count::<T>(t.all_data_size)?;
        let index = self.at(t.src_index_offset)?;
        if T::SIZE == 2 {
            cast(
                &index.reinterpret_cast::<f32>(),
                &self.at(ioff)?,
                RoundMode::CAST_NONE,
                8,
                4,
            )?;
            barrier_v()?;
        }
        let as_f32 = index.reinterpret_cast::<f32>();
        cast(
            &index.reinterpret_cast::<i32>(),
            &as_f32,
            RoundMode::CAST_ROUND,
            8,
            8,
        )?;
        barrier_v()?;
        self.gather_small_v200(&second, &index)?;
        if !self.largest {
            barrier_v()?;
            set_mask_count()?;
        }
        self.restore_sign()?;
        finish_masks()
    }

    /// `TopKNSmallGet{Float,Half}TopKValue` (v200): pattern tensors built with `Duplicate`,
    /// then normal-mode `GatherMask` of the first `k` of each row.
    fn gather_small_v200(&self, values: &LocalTensor<T>, index: &LocalTensor<T>) -> Result<()> {
        let t = self.t;
        let dup = |pat: &LocalTensor<u32>, n: u32, v: u32| -> Result<()> {
            count::<T>(n)?;
            duplicate_l0(pat, v, MASK_PLACEHOLDER, 1, 1, 8)
        };
        let mut pat = self.tmp.reinterpret_cast::<u32>();
        if T::SIZE == 4 {
            pat.set_size(8)?;
            dup(&pat, 8, 0)?;
            sync_event(API, HardEvent::V_S)?;
            dup(&pat, 1, t.vreduce_val_mask0)?;
            barrier_v()?;
            finish_masks()?;
            set_vector_mask::<f32>(MaskMode::NORMAL, self.inner)?;
            let p = GatherMaskParams::new(1, self.outter as u16, 4, 0);
            gather_mask_tensor(&self.dv, values, &pat, false, 0, p)?;
            gather_mask_tensor(&self.di.reinterpret_cast::<T>(), index, &pat, false, 0, p)?;
            return Ok(());
        }
        let mut pat16 = self.tmp.reinterpret_cast::<u16>();
        pat16.set_size(8)?;
        let dup16 = |n: u32, v: u16| -> Result<()> {
            count::<T>(n)?;
            duplicate_l0(&pat16, v, MASK_PLACEHOLDER, 1, 1, 8)
        };
        dup16(8, 0)?;
        sync_event(API, HardEvent::V_S)?;
        dup16(2, t.vreduce_val_mask1 as u16)?;
        dup16(1, t.vreduce_val_mask0 as u16)?;
        barrier_v()?;
        finish_masks()?;
        set_vector_mask::<f16>(MaskMode::NORMAL, self.inner)?;
        let p = GatherMaskParams::new(1, self.outter as u16, 2, 0);
        gather_mask_tensor(&self.dv, values, &pat16, false, 0, p)?;
        barrier_v()?;
        set_mask_count()?;
        dup(&pat, 2, 0)?;
        dup(&pat, 1, t.vreduce_idx_mask0)?;
        barrier_v()?;
        finish_masks()?;
        set_vector_mask::<f32>(MaskMode::NORMAL, self.inner)?;
        let p = GatherMaskParams::new(1, self.outter as u16, 4, 0);
        let di = self.di.reinterpret_cast::<f32>();
        gather_mask_tensor(&di, &index.reinterpret_cast::<f32>(), &pat, false, 0, p)?;
        Ok(())
    }
}

// ---- host helpers ----

/// Which implementation a product runs: the inference series' (v200) or A2/A3's (v220).
fn is_v200(product: Product) -> bool {
    product == Product::Ascend310P
}

/// `GetTopKMaxMinTmpSize(platform, inner, outter, isReuseSource, isInitIndex, mode,
/// isLargest, dataTypeSize, maxValue, minValue)`: `(max, min)` temporary bytes (equal).
/// A2/A3 Normal: `16 · inner` (+ `4 · inner` without `isInitIndex`); Small: `8 · all + 64`
/// (+ `4 · all` for the smallest, + `4 · all` without `isInitIndex`), `all = inner · outter`.
/// Inference series Normal: `16 · inner · size + 4 · inner`; Small: `16 · all · size`.
#[allow(clippy::too_many_arguments)]
pub fn topk_max_min_tmp_size(
    product: Product,
    inner: i32,
    outter: i32,
    _is_reuse_source: bool,
    is_init_index: bool,
    mode: TopKMode,
    is_largest: bool,
    type_size: u32,
) -> (u32, u32) {
    let (inner, all, size) = (inner as u32, (inner * outter) as u32, type_size);
    let v = if is_v200(product) {
        match mode {
            TopKMode::Normal => inner * 8 * size * 2 + inner * 4,
            TopKMode::NSmall => all * 8 * size * 2,
        }
    } else {
        match mode {
            TopKMode::Normal => (16 + if is_init_index { 0 } else { 4 }) * inner,
            TopKMode::NSmall => {
                let neg = if is_largest { 0 } else { all * 4 };
                let index = if is_init_index { 0 } else { all * 4 };
                all * 8 + neg + 64 + index
            }
        }
    };
    (v, v)
}

/// `GenerateBinary1`: the low `k` bits.
fn ones(k: i32) -> u32 {
    (0..k).fold(0u32, |m, _| (m << 1) | 1)
}

/// `k` copies of the 2-bit group `g`.
fn pairs(k: i32, g: u32) -> u32 {
    (1..k).fold(g, |m, _| (m << 2) | m)
}

/// `k` copies of the 4-bit group `0001`.
fn nibbles(k: i32) -> u16 {
    (1..k).fold(1u16, |m, _| (m << 4) | m)
}

/// `TopKTilingFunc(platform, inner, outter, k, dataTypeSize, isInitIndex, mode, isLargest,
/// topKTiling)`: the tiling of a call (the device's values per product).
#[allow(clippy::too_many_arguments)]
pub fn topk_tiling(
    product: Product,
    inner: i32,
    outter: i32,
    k: i32,
    type_size: u32,
    is_init_index: bool,
    mode: TopKMode,
    is_largest: bool,
) -> TopkTiling {
    let mut t = TopkTiling::default();
    if type_size == 0 {
        return t;
    }
    let size = type_size as i32;
    let k4 = (k + 7) / 8 * 8;
    let k2 = (k + 15) / 16 * 16;
    if is_v200(product) {
        match mode {
            TopKMode::Normal => {
                let merge = inner * 16;
                t.tmp_local_size = merge + inner * 4 / size;
                t.src_index_offset = merge;
                t.inner_data_size = inner * 8;
                t.sort_repeat = (inner / 16) as u32;
                t.copy_ub_to_ub_block_count = (inner * 8 * size / 32) as u32;
                t.mrg_sort_src1offset = 8;
                t.mrg_sort_src2offset = 16;
                t.mrg_sort_src3offset = 24;
                t.mrg_sort_repeat = inner / 4;
                t.mask_offset = outter * if size == 2 { k2 } else { k4 };
                t.k_align_two_bytes = k2;
                t.k_align_four_bytes = k4;
            }
            TopKMode::NSmall => {
                let proposals = inner * outter * 8;
                t.tmp_local_size = proposals * 2;
                t.topk_nsmall_src_index_offset = proposals + inner * outter;
                t.inner_data_size = proposals;
                t.mask_offset = outter * k;
                t.all_data_size = inner * outter;
                t.sort_repeat = (inner * outter / 16) as u32;
                t.copy_ub_to_ub_block_count = (proposals * size / 32) as u32;
                t.mrg_sort_two_queue_src1_offset = 128;
                t.mrg_sort_src1offset = inner * 8;
                t.vreduce_idx_mask0 = ones(k);
                if size == 4 {
                    t.src_index_offset = t.topk_nsmall_src_index_offset;
                    t.vreduce_val_mask0 = ones(k);
                } else {
                    t.src_index_offset = t.topk_nsmall_src_index_offset + inner * outter;
                    if k <= 16 {
                        t.vreduce_val_mask0 = ones(k);
                    } else if k <= 32 {
                        t.vreduce_val_mask0 = 0xFFFF;
                        t.vreduce_val_mask1 = ones(k - 16);
                    }
                }
            }
        }
        return t;
    }
    t.all_data_size = inner * outter;
    t.k_align_four_bytes = k4;
    match mode {
        TopKMode::Normal => {
            t.tmp_local_size = 4 * inner;
            t.inner_data_size = inner * 2;
            t.copy_ub_to_ub_block_count = (inner * 2 * 4 / 32) as u32;
            t.sort_repeat = (inner / 32) as u32;
            t.mrg_sort_repeat = inner / 4;
            t.k_align_two_bytes = k2;
            t.mask_offset = outter * k4;
            t.mask_vreducev2_four_bytes = 2 * k;
            t.mask_vreducev2_two_bytes = 4 * k;
            (
                t.mrg_sort_src1offset,
                t.mrg_sort_src2offset,
                t.mrg_sort_src3offset,
            ) = (2, 4, 6);
            t.mrg_sort_two_queue_src1_offset = 2;
            t.mrg_four_queue_tail_para1 = inner * 2;
            t.mrg_four_queue_tail_para2 = 4 / size;
            if size == 2 {
                t.tmp_local_size = 8 * inner;
                t.mask_offset = outter * k2;
                t.inner_data_size = inner * 4;
                (
                    t.mrg_sort_src1offset,
                    t.mrg_sort_src2offset,
                    t.mrg_sort_src3offset,
                ) = (4, 8, 12);
                t.mrg_sort_two_queue_src1_offset = 4;
            }
            if !is_init_index {
                let (base, extra) = if size == 2 { (8, 2) } else { (4, 1) };
                t.tmp_local_size = base * inner + extra * inner;
                t.src_index_offset = base * inner;
            }
        }
        TopKMode::NSmall => {
            let data = inner * outter * (8 / size);
            t.inner_data_size = data;
            t.mask_offset = outter * k;
            let neg = if is_largest { 0 } else { inner * outter };
            let mask_at = data + neg;
            t.topk_mrg_src1_mask_size_offset = mask_at;
            t.tmp_local_size = mask_at + 64 / size;
            if !is_init_index {
                let at = mask_at + 64 / size;
                t.tmp_local_size = at + inner * outter * 4 / size;
                t.topk_nsmall_src_index_offset = at;
            }
            if k < 17 {
                t.vreduce_idx_mask0 = pairs(k, 2);
            } else if k <= 32 {
                t.vreduce_idx_mask0 = 0xAAAA_AAAA;
                t.vreduce_idx_mask1 = pairs(k - 16, 2);
            }
            if size == 4 {
                if k < 17 {
                    t.vreduce_val_mask0 = pairs(k, 1);
                } else if k <= 32 {
                    t.vreduce_val_mask0 = pairs(16, 1);
                    t.vreduce_val_mask1 = pairs(k - 16, 1);
                }
            } else {
                for (i, m) in t.vreducehalf_val_mask.iter_mut().enumerate() {
                    let lo = 4 * i as i32;
                    *m = if i == 0 && k < 5 {
                        nibbles(k)
                    } else if k > lo + 4 {
                        0x1111
                    } else if k > lo {
                        nibbles(k - lo)
                    } else {
                        0
                    };
                }
            }
        }
    }
    t
}

/// The host checks of `GetTopKMaxMinTmpSize` / `TopKTilingFunc` (`CheckTopKHostCommon`, and
/// `k` in `[1, inner]` when `k` is given); `ub_bytes` the UB size.
#[allow(clippy::too_many_arguments)]
pub fn topk_host_check(
    product: Product,
    api: &str,
    inner: i32,
    outter: i32,
    k: Option<i32>,
    is_init_index: bool,
    mode: TopKMode,
    type_size: u32,
    ub_bytes: u64,
) -> std::result::Result<(), String> {
    let fail = |m: String| Err(format!("[TopK][{api}] {m}"));
    if inner <= 0 || inner % 32 != 0 {
        return fail(format!(
            "the inner axis length {inner} must be a positive multiple of 32"
        ));
    }
    if mode == TopKMode::NSmall && inner != 32 {
        return fail(format!(
            "in Small mode the inner axis length must be 32, not {inner}"
        ));
    }
    if is_v200(product) && !is_init_index && inner > TOPK_HALF_INNER_MAX_310P {
        return fail(format!(
            "on the Atlas inference series with isInitIndex = false the inner axis length must be at most 2048, not {inner}"
        ));
    }
    if outter <= 0 {
        return fail(format!(
            "the outter axis length {outter} must be greater than 0"
        ));
    }
    if type_size != 2 && type_size != 4 {
        return fail(format!("type size {type_size} is unsupported (2 or 4)"));
    }
    let bytes = inner as u64 * outter as u64 * type_size as u64;
    if bytes > ub_bytes {
        return fail(format!(
            "the source of {bytes} bytes does not fit in UB ({ub_bytes} bytes)"
        ));
    }
    if let Some(k) = k {
        if !(1..=inner).contains(&k) {
            return fail(format!("k = {k} is outside [1, {inner}]"));
        }
    }
    Ok(())
}
