//! ReduceSum / ReduceMax / ReduceMin over a whole tensor (level 2 and level 0 with a work buffer).

use super::*;

/// How a whole-tensor reduction names its input.
#[derive(Debug, Clone, Copy)]
pub(super) enum Extent {
    /// Level 2: the first `count` elements.
    Count(i64),
    /// Level 0: `repeat` repeats of the mask, `srcRepStride` blocks apart (block stride 1).
    Repeats {
        mask: Mask,
        repeat: i32,
        src_rep_stride: i32,
    },
}

/// Work-buffer elements ReduceMax/Min need with `calIndex` (the CPU-debug checker's formula,
/// `validation.md` §2.7), for `r` first-level repeats, `e` elements per block and `l` lanes.
pub(super) fn max_index_work(r: u64, e: u64, l: u64) -> u64 {
    let a = |x: u64| x.div_ceil(e) * e;
    let c = |x: u64| 2 * x.div_ceil(l);
    let it1 = 2 * r;
    if it1 == 2 {
        return 2;
    }
    let s2 = a(it1);
    let it2 = c(it1);
    if it2 == 2 {
        return s2 + 2;
    }
    let s3 = a(s2 + it2);
    if it2 > l {
        a(s3 + c(it2)) + 2
    } else {
        s3 + 2
    }
}

/// Per-repeat tree sums of `shape` over `src`.
pub(super) fn partial_sums<T: ReduceElement>(
    ub: &[u8],
    src: &Operand,
    shape: &Shape,
    sat: bool,
) -> Vec<T> {
    let l = shape.lanes;
    let mut v = [T::ZERO; 128];
    let mut en = [false; 128];
    (0..shape.repeats)
        .map(|r| {
            gather(ub, src, r, shape.bits(r), l, &mut v, &mut en);
            tree(&mut v[..l as usize], sat)
        })
        .collect()
}

/// Per-repeat (value, lane) selections of `shape` over `src`.
pub(super) fn partial_best<T: ReduceElement>(
    ub: &[u8],
    src: &Operand,
    shape: &Shape,
    op: Op,
) -> Vec<(T, u32)> {
    (0..shape.repeats)
        .map(|r| {
            let mut best: Option<(T, u32)> = None;
            for_lanes(shape.bits(r), shape.lanes, |k| {
                let x = read::<T>(ub, src.lane_addr(T::SIZE, r, k));
                if best.is_none_or(|b| better(op, x, b.0)) {
                    best = Some((x, k));
                }
            });
            best.unwrap_or((T::ZERO, 0))
        })
        .collect()
}

/// TREE-OF-TREES (`reductions.md` §7.1): the partials are reduced `l` at a time, each group a
/// tree padded with +0, until one value is left. Returns the value and the length of every level.
pub(super) fn tree_of_trees<T: ReduceElement>(p: &mut [T], l: usize, sat: bool) -> (T, Vec<usize>) {
    let mut len = p.len();
    let mut levels = vec![len];
    let mut v = [T::ZERO; 128];
    while len > 1 {
        let m = len.div_ceil(l);
        for j in 0..m {
            let chunk = &p[j * l..len.min((j + 1) * l)];
            v[..l].fill(T::ZERO);
            v[..chunk.len()].copy_from_slice(chunk);
            p[j] = tree(&mut v[..l], sat);
        }
        len = m;
        levels.push(len);
    }
    (p[0], levels)
}

pub(super) fn ub_access(write: bool, base: u64, len: u64) -> Access {
    Access::contiguous(write, Space::Local(Hardware::UB), base, len)
}

/// A contiguous level-2 shape of `n` lanes starting at repeat 0 (counter mode or one masked repeat).
pub(super) fn count_shape(l: u32, n: u64) -> Shape {
    Shape {
        lanes: l,
        repeats: n.div_ceil(l as u64) as u32,
        enable: Enable::Counter(n),
    }
}

/// ReduceSum / ReduceMax / ReduceMin: validation, the product's algorithm, the records.
#[allow(clippy::too_many_arguments)]
pub(super) fn reduce_whole<T: ReduceElement>(
    api: &'static str,
    op: Op,
    loc: SourceLoc,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    work: &LocalTensor<T>,
    extent: Extent,
    cal_index: bool,
) -> Result<()> {
    with_core(api, loc, |core| {
        let table = if op == Op::Sum {
            &support::REDUCE_SUM
        } else {
            &support::REDUCE_OTHER
        };
        check_dtype(core, api, T::DTYPE, table)?;
        let rules = ReduceRules::of(core.profile.product);
        let (s, l) = (T::SIZE, lanes::<T>());
        let e = (BLOCK as usize / s) as u64;
        check_operand(core, api, "dst", dst, s as u64)?;
        check_operand(core, api, "src", src, BLOCK)?;
        check_operand(core, api, "sharedTmpBuffer", work, BLOCK)?;
        let src_op;
        // The source shape: one instruction's lanes (level 0), or all `count` elements.
        let shape;
        // First-level repeats that go through the work buffer.
        let first;
        match extent {
            Extent::Count(n) => {
                let max = core.mem.size(Hardware::UB) as i64 / s as i64;
                if !(1..=max).contains(&n) {
                    return Err(SimError::range(
                        api,
                        "count",
                        n,
                        format!(
                            "[1, {max}] ({} bytes of UB / sizeof({}))",
                            max * s as i64,
                            T::DTYPE
                        ),
                    ));
                }
                src_op = Operand::contiguous(src.addr as u64, s, l);
                shape = count_shape(l, n as u64);
                first = (n as u32 / l).max(1);
                check_fits(
                    api,
                    "src",
                    src,
                    src.addr as u64 + n as u64 * s as u64,
                    "calcount mode",
                )?;
            }
            Extent::Repeats {
                mask,
                repeat,
                src_rep_stride,
            } => {
                if repeat < 0 {
                    return Err(SimError::range(api, "repeatTime", repeat, "[0, 2^31)"));
                }
                let rep = check_param(api, "srcRepStride", src_rep_stride, 65535)?;
                let bits = match mask {
                    Mask::Keep => {
                        return Err(SimError::new(
                            Category::Unsupported,
                            api,
                            format!("parameter `mask` = MASK_PLACEHOLDER: {api} has no isSetMask form; pass a lane count or lane bits"),
                        ))
                    }
                    Mask::Count(n) => {
                        let v = n as i64;
                        if !(0..=l as i64).contains(&v) {
                            return Err(SimError::range(
                                api,
                                "mask",
                                v,
                                format!("[1, {l}] for {}", T::DTYPE),
                            ));
                        }
                        contiguous_mask_bits(v as u64, l)
                    }
                    Mask::Bits(b) if l <= 64 => [b[0], 0],
                    Mask::Bits(b) => b,
                };
                if bits == [0, 0] || repeat == 0 {
                    if bits == [0, 0] && !core.profile.mask_zero_is_nop {
                        return Err(SimError::range(
                            api,
                            "mask",
                            0,
                            format!(
                                "[1, {l}] on {} (a mask of 0 cannot be used)",
                                core.profile.soc
                            ),
                        ));
                    }
                    let why = if repeat == 0 {
                        "repeatTime = 0"
                    } else {
                        "the mask enables no lane"
                    };
                    core.warn(
                        Category::Nop,
                        api,
                        format!("{why}: {api} is equivalent to a NOP"),
                        loc,
                    );
                    return Ok(());
                }
                src_op = Operand {
                    addr: src.addr as u64,
                    blk_stride: 1,
                    rep_stride: rep,
                };
                shape = Shape {
                    lanes: l,
                    repeats: repeat as u32,
                    enable: Enable::Bits(bits),
                };
                first = repeat as u32;
                check_fits(api, "src", src, src_end(&src_op, s, &shape), "normal mode")?;
            }
        }
        let is_count = matches!(extent, Extent::Count(_));
        let dst_elems = if op != Op::Sum && cal_index { 2 } else { 1 };
        check_fits(
            api,
            "dst",
            dst,
            dst.addr as u64 + dst_elems * s as u64,
            "this call",
        )?;
        let sequential = op == Op::Sum && is_count && rules.count_sum == CountSumOrder::Sequential;
        let r = first as u64;
        let (need, doc_need) = match op {
            Op::Sum => (r, r.div_ceil(e) * e),
            _ if cal_index => (max_index_work(r, e, l as u64), 0),
            _ => (2 * r, 0),
        };
        if !sequential && (work.len as u64) < need * s as u64 {
            return Err(SimError::new(
                Category::Size,
                api,
                format!(
                    "sharedTmpBuffer's size should be more than {need} elements ({} bytes) for {r} repeat(s){}, while it has only {} bytes",
                    need * s as u64,
                    if op != Op::Sum && cal_index { " with calIndex" } else { "" },
                    work.len
                ),
            ));
        }
        if !sequential && (work.len as u64) < doc_need * s as u64 {
            core.warn(
                Category::Size,
                api,
                format!("sharedTmpBuffer has {} bytes, less than the documented ceil({r}/{e})·{e} = {doc_need} elements", work.len),
                loc,
            );
        }

        let sat = core.vector.fp16_saturation;
        let w = work.addr as u64;
        let d = dst.addr as u64;
        let step = (l as u64 * s as u64 / BLOCK) as u32;
        if op == Op::Sum {
            let ub = core.mem.bytes_mut(Hardware::UB);
            if sequential {
                let p = partial_sums::<T>(ub, &src_op, &shape, sat);
                let acc = p[1..].iter().fold(p[0], |a, &x| T::add(a, x, sat));
                write(ub, d, acc);
                if matches!(extent, Extent::Count(_)) {
                    core.spr.sum = Some((T::DTYPE, raw_bits(acc)));
                }
                let src_acc = src_op.access(false, s, &shape);
                core.issue_vector(api, loc, &[src_acc], l);
                core.issue(Pipe::S, api, loc, &[ub_access(true, d, s as u64)]);
            } else {
                // The tree part: full repeats only in the count form, with the tail added last.
                let (body_shape, tail) = match extent {
                    Extent::Count(n) if n as u32 >= l => {
                        let nfull = n as u32 / l;
                        (count_shape(l, (nfull * l) as u64), n as u32 % l)
                    }
                    _ => (shape, 0),
                };
                let mut p = partial_sums::<T>(ub, &src_op, &body_shape, sat);
                for (i, x) in p.iter().enumerate() {
                    write(ub, w + (i * s) as u64, *x);
                }
                let mut records = Vec::new();
                let mut done = 0u32;
                while done < body_shape.repeats {
                    let n = (body_shape.repeats - done).min(255);
                    let chunk = Shape {
                        repeats: n,
                        ..body_shape
                    };
                    let op0 = Operand {
                        addr: src_op.addr + BLOCK * done as u64 * src_op.rep_stride as u64,
                        ..src_op
                    };
                    records.push([
                        ub_access(
                            true,
                            w + (done as usize * s) as u64,
                            (n as usize * s) as u64,
                        ),
                        op0.access(false, s, &chunk),
                    ]);
                    done += n;
                }
                let (mut value, levels) = tree_of_trees(&mut p, l as usize, sat);
                // The levels run in place: the work buffer ends with each level's survivors.
                if let Some(&m) = levels.get(1) {
                    for (j, x) in p[..m].iter().enumerate() {
                        write(ub, w + (j * s) as u64, *x);
                    }
                }
                for pair in levels.windows(2) {
                    let (len, m) = (pair[0] as u64, pair[1] as u64);
                    records.push([
                        ub_access(true, w, m * s as u64),
                        ub_access(false, w, len * s as u64),
                    ]);
                }
                if tail > 0 {
                    let tail_op = Operand {
                        addr: src_op.addr + BLOCK * (body_shape.repeats * step) as u64,
                        ..src_op
                    };
                    let tail_shape = count_shape(l, tail as u64);
                    let t = partial_sums::<T>(ub, &tail_op, &tail_shape, sat)[0];
                    value = T::add(value, t, sat);
                    records.push([
                        ub_access(true, w, s as u64),
                        tail_op.access(false, s, &tail_shape),
                    ]);
                }
                write(ub, d, value);
                if matches!(extent, Extent::Count(_)) {
                    core.spr.sum = Some((T::DTYPE, raw_bits(value)));
                }
                for rec in &records {
                    core.issue_vector(api, loc, rec, l);
                }
                core.issue(
                    Pipe::V,
                    api,
                    loc,
                    &[ub_access(true, d, s as u64), ub_access(false, w, s as u64)],
                );
            }
        } else {
            let ub = core.mem.bytes_mut(Hardware::UB);
            let elem_of = |r: u32, k: u32| -> u64 {
                match extent {
                    Extent::Count(_) => r as u64 * l as u64 + k as u64,
                    Extent::Repeats { .. } => r as u64 * src_op.rep_stride as u64 * e + k as u64,
                }
            };
            let p = partial_best::<T>(ub, &src_op, &shape, op);
            let mut best = (p[0].0, elem_of(0, p[0].1));
            for (r, &(x, k)) in p.iter().enumerate().skip(1) {
                if better(op, x, best.0) {
                    best = (x, elem_of(r as u32, k));
                }
            }
            for (r, &(x, k)) in p.iter().take(first as usize).enumerate() {
                write(ub, w + (2 * r * s) as u64, x);
                write(ub, w + ((2 * r + 1) * s) as u64, T::index_slot(k));
            }
            write(ub, d, best.0);
            core.spr.max_min = Some(MaxMinSpr {
                dtype: T::DTYPE,
                value_bits: raw_bits(best.0),
                index: best.1,
                contiguous: src_op.blk_stride == 1 && src_op.rep_stride == 8,
            });
            if cal_index {
                write(ub, d + s as u64, T::index_slot(best.1 as u32));
            }
            let body = Shape {
                repeats: first.min(shape.repeats),
                ..shape
            };
            let mut done = 0u32;
            while done < body.repeats {
                let n = (body.repeats - done).min(255);
                let op0 = Operand {
                    addr: src_op.addr + BLOCK * done as u64 * src_op.rep_stride as u64,
                    ..src_op
                };
                let acc = [
                    ub_access(
                        true,
                        w + (2 * done as usize * s) as u64,
                        (2 * n as usize * s) as u64,
                    ),
                    op0.access(false, s, &Shape { repeats: n, ..body }),
                ];
                core.issue_vector(api, loc, &acc, l);
                done += n;
            }
            if let (Extent::Count(n), true) = (extent, shape.repeats > body.repeats) {
                let tail_op = Operand {
                    addr: src_op.addr + BLOCK * (body.repeats * step) as u64,
                    ..src_op
                };
                let tail_shape = count_shape(l, n as u64 - body.repeats as u64 * l as u64);
                core.issue_vector(api, loc, &[tail_op.access(false, s, &tail_shape)], l);
            }
            core.issue(
                Pipe::V,
                api,
                loc,
                &[ub_access(false, w, 2 * first as u64 * s as u64)],
            );
            core.issue(
                Pipe::S,
                api,
                loc,
                &[ub_access(true, d, dst_elems * s as u64)],
            );
            if cal_index && best.1 > T::INDEX_MAX as u64 {
                core.warn(
                    Category::DataLoss,
                    api,
                    format!(
                        "the index {} does not fit the {}-bit slot of {}: stored modulo 2^{}",
                        best.1,
                        8 * s,
                        T::DTYPE,
                        8 * s
                    ),
                    loc,
                );
            }
        }
        core.vector.counter_mode = false;
        core.vector.mask = [u64::MAX; 2];
        Ok(())
    })
}

/// `ReduceSum(dst, src, sharedTmpBuffer, count)`: `dst[0]` = the sum of the first `count`
/// elements, in the product's order (A2/A3: tree per repeat, then sequential across repeats
/// without the work buffer; 910/310P/310B: a tree of trees over the full repeats, the tail's tree
/// added last). `shared_tmp_buffer` holds ≥ max(1, count / lanes) elements where it is used.
/// Leaves the mask register all-ones in normal mode.
#[track_caller]
pub fn reduce_sum<T: ReduceElement>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    shared_tmp_buffer: &LocalTensor<T>,
    count: impl Into<Count>,
) -> Result<()> {
    let n = level2_count("ReduceSum", count.into())?;
    reduce_whole(
        "ReduceSum",
        Op::Sum,
        SourceLoc::caller(),
        dst,
        src,
        shared_tmp_buffer,
        Extent::Count(n),
        false,
    )
}

/// `ReduceSum(dst, src, sharedTmpBuffer, mask, repeatTime, srcRepStride)`: level 0, `dst[0]` = the
/// tree of trees over the per-repeat tree sums of `repeat_time` repeats (may exceed 255) of the
/// mask, `src_rep_stride` 32-byte blocks apart. `shared_tmp_buffer` holds ≥ `repeat_time` elements.
#[track_caller]
pub fn reduce_sum_l0<T: ReduceElement>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    shared_tmp_buffer: &LocalTensor<T>,
    mask: impl Into<Mask>,
    repeat_time: i32,
    src_rep_stride: i32,
) -> Result<()> {
    let extent = Extent::Repeats {
        mask: mask.into(),
        repeat: repeat_time,
        src_rep_stride,
    };
    reduce_whole(
        "ReduceSum",
        Op::Sum,
        SourceLoc::caller(),
        dst,
        src,
        shared_tmp_buffer,
        extent,
        false,
    )
}

/// `ReduceMax(dst, src, sharedTmpBuffer, count, calIndex)`: `dst[0]` = the maximum of the first
/// `count` elements; with `cal_index`, `dst[1]` = the element number of its first occurrence as
/// the raw bits of an unsigned integer (uint16 for half, uint32 for float).
#[track_caller]
pub fn reduce_max<T: ReduceElement>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    shared_tmp_buffer: &LocalTensor<T>,
    count: impl Into<Count>,
    cal_index: bool,
) -> Result<()> {
    let n = level2_count("ReduceMax", count.into())?;
    reduce_whole(
        "ReduceMax",
        Op::Max,
        SourceLoc::caller(),
        dst,
        src,
        shared_tmp_buffer,
        Extent::Count(n),
        cal_index,
    )
}

/// `ReduceMin(dst, src, sharedTmpBuffer, count, calIndex)`: as [`reduce_max`] with the minimum.
#[track_caller]
pub fn reduce_min<T: ReduceElement>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    shared_tmp_buffer: &LocalTensor<T>,
    count: impl Into<Count>,
    cal_index: bool,
) -> Result<()> {
    let n = level2_count("ReduceMin", count.into())?;
    reduce_whole(
        "ReduceMin",
        Op::Min,
        SourceLoc::caller(),
        dst,
        src,
        shared_tmp_buffer,
        Extent::Count(n),
        cal_index,
    )
}

/// `ReduceMax(dst, src, sharedTmpBuffer, mask, repeatTime, srcRepStride, calIndex)`: level 0; the
/// index is `r · srcRepStride · (32 / sizeof(T)) + lane` of the first occurrence.
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn reduce_max_l0<T: ReduceElement>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    shared_tmp_buffer: &LocalTensor<T>,
    mask: impl Into<Mask>,
    repeat_time: i32,
    src_rep_stride: i32,
    cal_index: bool,
) -> Result<()> {
    let extent = Extent::Repeats {
        mask: mask.into(),
        repeat: repeat_time,
        src_rep_stride,
    };
    reduce_whole(
        "ReduceMax",
        Op::Max,
        SourceLoc::caller(),
        dst,
        src,
        shared_tmp_buffer,
        extent,
        cal_index,
    )
}

/// `ReduceMin(dst, src, sharedTmpBuffer, mask, repeatTime, srcRepStride, calIndex)`: as
/// [`reduce_max_l0`] with the minimum.
#[track_caller]
#[allow(clippy::too_many_arguments)]
pub fn reduce_min_l0<T: ReduceElement>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    shared_tmp_buffer: &LocalTensor<T>,
    mask: impl Into<Mask>,
    repeat_time: i32,
    src_rep_stride: i32,
    cal_index: bool,
) -> Result<()> {
    let extent = Extent::Repeats {
        mask: mask.into(),
        repeat: repeat_time,
        src_rep_stride,
    };
    reduce_whole(
        "ReduceMin",
        Op::Min,
        SourceLoc::caller(),
        dst,
        src,
        shared_tmp_buffer,
        extent,
        cal_index,
    )
}

/// The element count of a level-2 whole-tensor reduction: `KEEP_MASK` has no meaning there.
#[track_caller]
fn level2_count(api: &'static str, count: Count) -> Result<i64> {
    match count {
        Count::Elements(n) => Ok(n),
        Count::KeepMask => Err(crate::api::tensor::fail_outside(SimError::new(
            Category::Range,
            api,
            "parameter `count` = KEEP_MASK: this reduction has no isSetMask = false form; pass an element count",
        ))),
    }
}
