//! The SoftMax family's tiling: the `SoftMaxTiling` struct the host fills and the kernel reads
//! (16 `uint32_t` fields, the vendor's layout), the shape argument `SoftMaxShapeInfo`, the host
//! tiling functions and temporary-space formulas, and the kernel's own re-tiling when the call's
//! shape differs from the tiling's.

/// Elements of one 32-byte block for an element of `type_size` bytes.
fn per_block(type_size: u32) -> u32 {
    32 / type_size.max(1)
}

/// Rows of one basic block of the row split (8).
const BASIC_TILE: u32 = 8;
/// Floats of one repeat: the per-row scratch the reductions fold into (64).
const UNIT: u32 = 64;

/// `SoftMaxTiling` (also `LogSoftMaxTiling`): how the rows are split over the temporary buffer.
/// Sizes count elements; `reduce*` describe the per-row max/sum tensors (one 32-byte block per
/// row: `reduceK` = 8 for float, 16 for half).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SoftMaxTiling {
    pub src_m: u32,
    pub src_k: u32,
    pub src_size: u32,
    pub out_max_m: u32,
    pub out_max_k: u32,
    pub out_max_size: u32,
    pub split_m: u32,
    pub split_k: u32,
    pub split_size: u32,
    pub reduce_m: u32,
    pub reduce_k: u32,
    pub reduce_size: u32,
    pub range_m: u32,
    pub tail_m: u32,
    pub tail_split_size: u32,
    pub tail_reduce_size: u32,
}

impl SoftMaxTiling {
    /// The struct as its 16 words in declaration order.
    pub fn to_words(&self) -> [u32; 16] {
        [
            self.src_m,
            self.src_k,
            self.src_size,
            self.out_max_m,
            self.out_max_k,
            self.out_max_size,
            self.split_m,
            self.split_k,
            self.split_size,
            self.reduce_m,
            self.reduce_k,
            self.reduce_size,
            self.range_m,
            self.tail_m,
            self.tail_split_size,
            self.tail_reduce_size,
        ]
    }

    /// The struct from its 16 words.
    pub fn from_words(w: &[u32; 16]) -> Self {
        SoftMaxTiling {
            src_m: w[0],
            src_k: w[1],
            src_size: w[2],
            out_max_m: w[3],
            out_max_k: w[4],
            out_max_size: w[5],
            split_m: w[6],
            split_k: w[7],
            split_size: w[8],
            reduce_m: w[9],
            reduce_k: w[10],
            reduce_size: w[11],
            range_m: w[12],
            tail_m: w[13],
            tail_split_size: w[14],
            tail_reduce_size: w[15],
        }
    }

    /// Fills the fields that follow from `m` rows of `k`, `base_m` rows per pass and
    /// `per_blk` elements per row of the max/sum tensors.
    pub(crate) fn fill(m: u32, k: u32, base_m: u32, per_blk: u32) -> Self {
        let (range_m, tail) = m
            .checked_div(base_m)
            .map_or((0, 0), |range| (range, m % base_m));
        SoftMaxTiling {
            src_m: m,
            src_k: k,
            src_size: m * k,
            out_max_m: m,
            out_max_k: per_blk,
            out_max_size: m * per_blk,
            split_m: base_m,
            split_k: k,
            split_size: base_m * k,
            reduce_m: base_m,
            reduce_k: per_blk,
            reduce_size: base_m * per_blk,
            range_m,
            tail_m: tail,
            tail_split_size: tail * k,
            tail_reduce_size: tail * per_blk,
        }
    }
}

/// `SoftMaxShapeInfo {srcM, srcK, oriSrcM, oriSrcK}`: the rows and (32-byte aligned) row length
/// of the call, and the original ones. All zero: the source tensor's shape.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SoftMaxShapeInfo {
    pub src_m: u32,
    pub src_k: u32,
    pub ori_src_m: u32,
    pub ori_src_k: u32,
}

/// `(rows, last axis)` of a shape: the last dimension and the product of the others.
pub fn last_axis(dims: &[u64]) -> (u32, u32) {
    let size: u64 = dims.iter().product();
    let k = dims.last().copied().unwrap_or(1).max(1);
    ((size / k) as u32, k as u32)
}

/// The host's basic-block adjustment: with rows a multiple of 8 and a row a multiple of 64
/// elements, `base_m` becomes a multiple of 8 dividing the rows, halved while one pass reaches
/// 64 · 256 elements.
pub(crate) fn adjust_basic_block(base_m: &mut u32, m: u32, k: u32) {
    if *base_m > BASIC_TILE && m.is_multiple_of(BASIC_TILE) && k.is_multiple_of(UNIT) {
        *base_m = *base_m / BASIC_TILE * BASIC_TILE;
        while !m.is_multiple_of(*base_m) {
            *base_m -= BASIC_TILE;
        }
        while *base_m * k >= UNIT * 256 {
            *base_m /= 2;
        }
    }
}

/// Rounds `base_m` below the rows down to whole 8-row units (`unit`).
pub(crate) fn round_rows(base_m: u32, m: u32, unit: u32) -> u32 {
    let base_m = base_m.min(m);
    if base_m < m && base_m > unit {
        base_m / unit * unit
    } else {
        base_m
    }
}

/// `GetSoftMaxMaxTmpSize` (and `GetLogSoftMaxMaxTmpSize`): bytes for all `m` rows of `k` in
/// one pass: `4 · m · (32/typeSize + k + 64)`.
pub fn softmax_max_tmp_size(m: u32, k: u32, type_size: u32) -> u32 {
    m * (per_block(type_size) + k + UNIT) * 4
}

/// `GetSoftMaxMinTmpSize` (and `GetLogSoftMaxMinTmpSize`): bytes for one row per pass:
/// `4 · (32/typeSize + k + 64)`.
pub fn softmax_min_tmp_size(k: u32, type_size: u32) -> u32 {
    (per_block(type_size) + k + UNIT) * 4
}

/// `SoftMaxTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, tiling)` (also
/// `LogSoftMaxTilingFunc`): rows per pass = the buffer's floats / (32/typeSize + k + 64), in
/// whole 8-row units below the row count, adjusted to basic blocks.
pub fn softmax_tiling(m: u32, k: u32, type_size: u32, work_bytes: u32) -> SoftMaxTiling {
    let per_blk = per_block(type_size);
    let base = (work_bytes / 4) / (per_blk + k + UNIT);
    let mut base_m = round_rows(base, m, BASIC_TILE);
    adjust_basic_block(&mut base_m, m, k);
    SoftMaxTiling::fill(m, k, base_m, per_blk)
}

/// `GetSoftMaxFlashV2MaxTmpSize` on A2/A3/310P (bytes).
pub fn flash_v2_max_tmp_size(m: u32, k: u32, size1: u32, size2: u32, basic: bool) -> u32 {
    let per_blk = per_block(size2);
    let mut m = m;
    let need = if basic && k.is_multiple_of(UNIT) && m.is_multiple_of(BASIC_TILE) {
        while m * k >= UNIT * 256 {
            m /= 2;
        }
        let unit = if k == 1024 { UNIT * 2 } else { UNIT };
        if size1 == 2 {
            m * (per_blk + k + unit)
        } else {
            m * (per_blk + unit)
        }
    } else if size1 == 2 {
        m * (per_blk * 2 + k + UNIT)
    } else {
        m * (per_blk + UNIT)
    };
    need * 4
}

/// `GetSoftMaxFlashV2MinTmpSize` on A2/A3/310P (bytes).
pub fn flash_v2_min_tmp_size(
    m: u32,
    k: u32,
    size1: u32,
    size2: u32,
    basic: bool,
    output_brc: bool,
) -> u32 {
    let per_blk = per_block(size2);
    let basic = basic && k.is_multiple_of(UNIT);
    let mut need = if basic {
        let unit = if k == 1024 { UNIT * 2 } else { UNIT };
        if size1 == 2 {
            BASIC_TILE * (per_blk + k + unit)
        } else {
            BASIC_TILE * (per_blk + unit)
        }
    } else if size1 == 2 {
        per_blk * 2 + k + UNIT
    } else {
        per_blk + UNIT
    };
    if output_brc {
        let rows = per_block(size1).min(m);
        need = if basic {
            need / BASIC_TILE * rows
        } else {
            need * rows
        };
    }
    need * 4
}

/// `SoftMaxFlashV2TilingFunc(srcShape, dataTypeSize1, dataTypeSize2, localWorkSpaceSize, tiling,
/// isUpdate, isBasicBlock, isFlashOutputBrc)`.
pub fn flash_v2_tiling(
    m: u32,
    k: u32,
    size1: u32,
    size2: u32,
    work_bytes: u32,
    basic: bool,
    output_brc: bool,
) -> SoftMaxTiling {
    let per_blk = per_block(size2);
    let work = work_bytes / 4;
    let mut base_m = if basic && k.is_multiple_of(UNIT) && m.is_multiple_of(BASIC_TILE) {
        let unit = if k == 1024 { UNIT * 2 } else { UNIT };
        let b = if size1 == 2 {
            work / (per_blk + k + unit)
        } else {
            work / (per_blk + unit)
        };
        let mut b = b.min(m);
        adjust_basic_block(&mut b, m, k);
        b
    } else if size1 == 2 {
        work / (per_blk * 2 + k + UNIT)
    } else {
        work / (per_blk + UNIT)
    };
    let unit = if output_brc && size1 == 2 {
        16
    } else {
        BASIC_TILE
    };
    base_m = round_rows(base_m, m, unit);
    SoftMaxTiling::fill(m, k, base_m, per_blk)
}

/// `GetSoftMaxGradMaxTmpSize(srcShape, typeSize, isFront, isReuseSource)` (bytes).
pub fn grad_max_tmp_size(m: u32, k: u32, type_size: u32, front: bool) -> u32 {
    m * grad_row(k, type_size, front) * 4
}

/// `GetSoftMaxGradMinTmpSize(srcShape, typeSize, isFront, isReuseSource)` (bytes).
pub fn grad_min_tmp_size(k: u32, type_size: u32, front: bool) -> u32 {
    grad_row(k, type_size, front) * 4
}

/// Floats one row of SoftmaxGrad needs.
fn grad_row(k: u32, type_size: u32, front: bool) -> u32 {
    let per_blk = per_block(type_size);
    if type_size == 2 {
        per_blk * 2 + k * 3 + UNIT
    } else if front {
        per_blk + k + UNIT
    } else {
        per_blk * 2 + k + UNIT
    }
}

/// `SoftMaxGradTilingFunc(srcShape, typeSize, localWorkSpaceSize, tiling, isFront)`.
pub fn grad_tiling(m: u32, k: u32, type_size: u32, work_bytes: u32, front: bool) -> SoftMaxTiling {
    let base = (work_bytes / 4) / grad_row(k, type_size, front);
    let mut base_m = round_rows(base, m, BASIC_TILE);
    adjust_basic_block(&mut base_m, m, k);
    SoftMaxTiling::fill(m, k, base_m, per_block(type_size))
}

/// `IsBasicBlockInSoftMax(tiling, dataTypeSize)`: no tail rows and a row of a multiple of 64
/// elements in [256/typeSize, 2048).
pub fn is_basic_block(tiling: &SoftMaxTiling, type_size: u32) -> bool {
    type_size != 0
        && tiling.tail_m == 0
        && tiling.src_k >= 256 / type_size
        && tiling.src_k < 2048
        && tiling.src_k.is_multiple_of(UNIT)
}

/// The kernel's re-tiling of SoftMax / LogSoftMax when the call's shape differs from the
/// tiling's: rows per pass from the buffer's `work_floats`, for sources of `size1` bytes and
/// max/sum of `size2` bytes (`None` when not even one row fits).
pub(crate) fn kernel_tiling(
    work_floats: u32,
    shape: &SoftMaxShapeInfo,
    size1: u32,
    size2: u32,
    basic: bool,
) -> Option<SoftMaxTiling> {
    let per_blk = per_block(size2);
    let (m, k, ori_m) = (shape.src_m, shape.src_k, shape.ori_src_m);
    let mut split = if size1 == 2 {
        work_floats / (per_blk + k + UNIT)
    } else {
        work_floats / (per_blk + UNIT)
    };
    split = split.min(m);
    if basic && split > BASIC_TILE && m.is_multiple_of(BASIC_TILE) {
        split = split / BASIC_TILE * BASIC_TILE;
        while !m.is_multiple_of(split) {
            split -= BASIC_TILE;
        }
        while split * k >= UNIT * 256 {
            split /= 2;
        }
    }
    let mut reduce_m = split;
    if reduce_m < ori_m && reduce_m > BASIC_TILE {
        reduce_m = reduce_m / BASIC_TILE * BASIC_TILE;
    }
    reduce_m = reduce_m.min(ori_m);
    if reduce_m == 0 {
        return None;
    }
    let mut t = SoftMaxTiling::fill(ori_m, k, reduce_m, per_blk);
    t.src_m = m;
    t.src_size = m * k;
    t.out_max_m = m;
    t.out_max_size = m * per_blk;
    Some(t)
}

impl SoftMaxShapeInfo {
    /// `{m, k, m, k}`: `m` rows of `k`, nothing padded.
    pub fn default_for(m: u32, k: u32) -> Self {
        SoftMaxShapeInfo {
            src_m: m,
            src_k: k,
            ori_src_m: m,
            ori_src_k: k,
        }
    }
}
