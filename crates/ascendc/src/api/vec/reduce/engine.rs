//! Validation of reduction operands and parameters, and the level-0 instruction engine.

use super::*;

/// Checks an operand is a live UB tensor whose start is `align`-byte aligned.
pub(super) fn check_operand<T: Element>(
    core: &Core,
    api: &'static str,
    name: &str,
    t: &LocalTensor<T>,
    align: u64,
) -> Result<()> {
    t.check_live(core, api, name)?;
    if t.hw != Hardware::UB {
        return Err(SimError::new(
            Category::Position,
            api,
            format!(
                "tensor `{name}` is in {} ({}); supported positions are VECIN/VECCALC/VECOUT (UB)",
                t.pos, t.hw
            ),
        ));
    }
    if !(t.addr as u64).is_multiple_of(align) {
        return Err(SimError::align(
            api,
            &format!("tensor `{name}`"),
            t.addr as u64,
            align as u32,
            "UB",
        ));
    }
    Ok(())
}

pub(super) fn check_fits<T: Element>(
    api: &'static str,
    name: &str,
    t: &LocalTensor<T>,
    end: u64,
    mode: &str,
) -> Result<()> {
    let need = end - t.addr as u64;
    if need > t.len as u64 {
        return Err(SimError::new(
            Category::Size,
            api,
            format!(
                "tensor `{name}` size in {mode}: the instruction touches {need} bytes from its start, while the tensor has only {} bytes ({} elements)",
                t.len,
                t.get_size()
            ),
        ));
    }
    Ok(())
}

/// A stride or repeat parameter of a reduction (`int32_t`, documented range).
pub(super) fn check_param(api: &'static str, name: &str, v: i32, hi: i32) -> Result<u32> {
    if (0..=hi).contains(&v) {
        Ok(v as u32)
    } else {
        Err(SimError::range(api, name, v, format!("[0, {hi}]")))
    }
}

/// The mask/mode state a level-0 call runs with (not yet written to the core), and the shape.
pub(super) fn level0_shape<T: Element>(
    core: &mut Core,
    form: &Form,
    loc: SourceLoc,
    mask: Mask,
    repeat: u32,
) -> Result<(crate::core::vector::VectorState, Shape)> {
    let api = form.api;
    let l = lanes::<T>();
    let mut st = core.vector;
    let param = if form.contiguous_only {
        "elemsInOneRepeat"
    } else {
        "mask"
    };
    match mask {
        Mask::Keep => {}
        Mask::Count(n) => {
            let v = n as i64;
            if !st.counter_mode && !(0..=l as i64).contains(&v) {
                return Err(SimError::range(
                    api,
                    param,
                    v,
                    format!("[1, {l}] for {} ({l} lanes per repeat)", T::DTYPE),
                ));
            }
            st.mask = contiguous_mask_bits(v.max(0) as u64, l);
            if st.counter_mode {
                core.warn(
                    Category::Range,
                    api,
                    format!(
                        "counter mode with the contiguous `{param}` = {v}: the mask register becomes the first-{v}-lanes bit pattern and the counter reads its low 32 bits ({} elements); pass MASK_PLACEHOLDER after SetVectorMask, or a [count, 0] bit mask",
                        st.mask[0] & 0xFFFF_FFFF
                    ),
                    loc,
                );
            }
        }
        Mask::Bits(b) => {
            if form.contiguous_only {
                return Err(SimError::new(
                    Category::Unsupported,
                    api,
                    format!("parameter `{param}` = [{:#x}, {:#x}]: {api} takes only a contiguous element count; use WholeReduceSum for a bitwise mask", b[0], b[1]),
                ));
            }
            st.mask = if l <= 64 && !st.counter_mode {
                [b[0], 0]
            } else {
                b
            };
        }
    }
    let shape = st.shape(l, repeat);
    Ok((st, shape))
}

/// Runs one level-0 reduction instruction after validating every operand and parameter.
#[allow(clippy::too_many_arguments)]
pub(super) fn level0<T: ReduceElement>(
    form: Form,
    loc: SourceLoc,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    mask: Mask,
    repeat: i32,
    dst_rep_stride: i32,
    src_blk_stride: i32,
    src_rep_stride: i32,
) -> Result<()> {
    let api = form.api;
    with_core(api, loc, |core| {
        check_dtype(core, api, T::DTYPE, form.support)?;
        let rules = ReduceRules::of(core.profile.product);
        let s = T::SIZE;
        let l = lanes::<T>();
        // Output geometry: dstRepStride unit, bytes of one output, outputs per repeat.
        let (unit, out_bytes, groups, dst_align) = match form.group {
            Group::Repeat => {
                let b = form.order.bytes(s);
                (b, b, 1u32, b)
            }
            Group::Block => (8 * s as u64, s as u64, 8, 8 * s as u64),
            Group::Pair => (128, s as u64, l / 2, 32),
        };
        check_operand(core, api, "dst", dst, dst_align)?;
        check_operand(core, api, "src", src, BLOCK)?;
        let repeat = check_param(api, "repeatTime", repeat, 255)?;
        let dst_rep = check_param(api, "dstRepStride", dst_rep_stride, 65535)?;
        let src_blk = check_param(api, "srcBlkStride", src_blk_stride, 65535)?;
        let src_rep = check_param(api, "srcRepStride", src_rep_stride, 65535)?;
        if dst_rep == 0
            && !rules.dst_rep_stride_zero
            && form.op == Op::Sum
            && form.group != Group::Block
        {
            return Err(SimError::range(
                api,
                "dstRepStride",
                0,
                format!("[1, 65535] on {} (0 is not supported)", core.profile.soc),
            ));
        }
        if form.group == Group::Repeat && form.op != Op::Sum && !rules.orders[form.order as usize] {
            let ok: Vec<String> = (0..4)
                .filter(|&i| rules.orders[i])
                .map(|i| format!("{i}"))
                .collect();
            return Err(SimError::new(
                Category::Unsupported,
                api,
                format!(
                    "parameter `order` = {:?} ({}) is not supported on {} (supported: {})",
                    form.order,
                    form.order as u8,
                    core.profile.soc,
                    ok.join(", ")
                ),
            ));
        }
        let (state, shape) = level0_shape::<T>(core, &form, loc, mask, repeat)?;
        if shape.is_empty() {
            let mask_empty = repeat != 0 || state.counter_mode;
            if mask_empty && !core.profile.mask_zero_is_nop {
                return Err(SimError::range(
                    api,
                    if form.contiguous_only {
                        "elemsInOneRepeat"
                    } else {
                        "mask"
                    },
                    0,
                    format!(
                        "[1, {l}] on {} (a mask of 0 cannot be used)",
                        core.profile.soc
                    ),
                ));
            }
            core.vector = state;
            let why = if mask_empty {
                "the mask enables no lane"
            } else {
                "repeatTime = 0"
            };
            core.warn(
                Category::Nop,
                api,
                format!("{why}: {api} is equivalent to a NOP"),
                loc,
            );
            return Ok(());
        }
        let src_op = Operand {
            addr: src.addr as u64,
            blk_stride: src_blk,
            rep_stride: src_rep,
        };
        let mode = if state.counter_mode {
            "counter mode"
        } else {
            "normal mode"
        };
        check_fits(api, "src", src, src_end(&src_op, s, &shape), mode)?;
        let writes_default = rules.empty_group_default;
        // Bytes written by repeat r, relative to its output start.
        let e = BLOCK as u32 / s as u32;
        let glanes = match form.group {
            Group::Repeat => l,
            Group::Block => e,
            Group::Pair => 2,
        };
        let written = |r: u32| -> u64 {
            if form.group == Group::Repeat {
                return out_bytes;
            }
            let last_group = if writes_default {
                groups
            } else {
                span(shape.bits(r)).div_ceil(glanes)
            };
            last_group as u64 * out_bytes
        };
        let dst_at = |r: u32| dst.addr as u64 + r as u64 * dst_rep as u64 * unit;
        let dst_end = boundary_repeats(&shape)
            .iter()
            .map(|&r| dst_at(r) + written(r))
            .max()
            .unwrap_or(dst.addr as u64);
        check_fits(api, "dst", dst, dst_end, mode)?;
        check_overlap(api, &shape, &src_op, s, dst_at, &written)?;

        core.vector = state;
        let sat = core.vector.fp16_saturation;
        let ub = core.mem.bytes_mut(Hardware::UB);
        let mut v = [T::ZERO; 128];
        let mut en = [false; 128];
        let dense_sums = form.op == Op::Sum
            && form.group == Group::Repeat
            && shape.dense_prefix().is_some()
            && src_op.is_dense(s, l);
        if dense_sums {
            // Fast path: full-mask dense source, one pairwise tree per repeat straight from UB.
            let n = shape.dense_prefix().unwrap_or(0) as usize;
            let a = src_op.addr as usize;
            let vals: &[T] = bytemuck::cast_slice(&ub[a..a + n * s]);
            let mut sums = Vec::with_capacity(shape.repeats as usize);
            for chunk in vals.chunks(l as usize) {
                v[..chunk.len()].copy_from_slice(chunk);
                v[chunk.len()..l as usize].fill(T::ZERO);
                sums.push(tree(&mut v[..l as usize], sat));
            }
            for (r, sum) in sums.into_iter().enumerate() {
                write(ub, dst_at(r as u32), sum);
            }
        }
        // With both repeat strides 0 every repeat reads the same source and writes the same
        // destination (which, checked above, the source does not overlap): only the last
        // repeat's result stays, so the first and the last (a counter-mode tail) are enough.
        let same_place = src_op.rep_stride == 0 && dst_rep == 0 && shape.repeats > 2;
        let repeats: Box<dyn Iterator<Item = u32>> = if dense_sums {
            Box::new(0..0)
        } else if same_place {
            Box::new([0, shape.repeats - 1].into_iter())
        } else {
            Box::new(0..shape.repeats)
        };
        // The max/min register: the extreme over every repeat, indexed in read order.
        let mut overall: Option<(T, u64)> = None;
        for r in repeats {
            let bits = shape.bits(r);
            gather(ub, &src_op, r, bits, l, &mut v, &mut en);
            let base = dst_at(r);
            for g in 0..groups {
                let lo = (g * glanes) as usize;
                let hi = lo + glanes as usize;
                let any = if form.group == Group::Repeat {
                    bits != [0, 0]
                } else {
                    en[lo..hi].iter().any(|&x| x)
                };
                let out = base + g as u64 * out_bytes;
                if !any {
                    if writes_default {
                        let d = match form.op {
                            Op::Sum => T::ZERO,
                            Op::Max => T::MAX_DEFAULT,
                            Op::Min => T::MIN_DEFAULT,
                        };
                        write(ub, out, d);
                    }
                    continue;
                }
                match form.op {
                    Op::Sum => {
                        let sum = tree(&mut v[lo..hi], sat);
                        write(ub, out, sum);
                    }
                    op => {
                        let mut best = (T::ZERO, u32::MAX);
                        for k in lo..hi {
                            if en[k] && (best.1 == u32::MAX || better(op, v[k], best.0)) {
                                best = (v[k], k as u32);
                            }
                        }
                        if form.group == Group::Repeat {
                            write_value_index(ub, out, form.order, best.0, best.1);
                            let at = r as u64 * l as u64 + best.1 as u64;
                            if overall.is_none_or(|(x, _)| better(op, best.0, x)) {
                                overall = Some((best.0, at));
                            }
                        } else {
                            write(ub, out, best.0);
                        }
                    }
                }
            }
        }
        if let Some((value, index)) = overall {
            core.spr.max_min = Some(MaxMinSpr {
                dtype: T::DTYPE,
                value_bits: raw_bits(value),
                index,
                contiguous: !state.counter_mode && src_blk == 1 && src_rep == 8,
            });
        }
        let dst_acc = Access {
            write: true,
            space: Space::Local(Hardware::UB),
            base: dst.addr as u64,
            len: written(0) as u32,
            blocks: 1,
            block_stride: 0,
            repeats: shape.repeats,
            repeat_stride: dst_rep as u64 * unit,
        };
        let src_acc = src_op.access(false, s, &shape);
        core.issue_vector(api, loc, &[dst_acc, src_acc], shape.lanes);
        Ok(())
    })
}

/// Writes one WholeReduceMax/Min result in the requested order.
pub(super) fn write_value_index<T: ReduceElement>(
    ub: &mut [u8],
    at: u64,
    order: ReduceOrder,
    value: T,
    index: u32,
) {
    let s = T::SIZE as u64;
    match order {
        ReduceOrder::ORDER_VALUE_INDEX => {
            write(ub, at, value);
            write(ub, at + s, T::index_slot(index));
        }
        ReduceOrder::ORDER_INDEX_VALUE => {
            write(ub, at, T::index_slot(index));
            write(ub, at + s, value);
        }
        ReduceOrder::ORDER_ONLY_VALUE => write(ub, at, value),
        ReduceOrder::ORDER_ONLY_INDEX => write(ub, at, index),
    }
}

/// The documented overlap rules: within a repeat, source and destination may overlap only when
/// they start at the same address; a later repeat must not read what an earlier one wrote.
pub(super) fn check_overlap(
    api: &'static str,
    shape: &Shape,
    src: &Operand,
    size: usize,
    dst_at: impl Fn(u32) -> u64,
    written: &dyn Fn(u32) -> u64,
) -> Result<()> {
    let read_hull = (src.addr, src_end(src, size, shape));
    let last = shape.repeats - 1;
    let write_hull = (dst_at(0), dst_at(last) + written(last).max(written(0)));
    if !intersects(read_hull, write_hull) {
        return Ok(());
    }
    let mut reads = Vec::with_capacity(8);
    for r in 0..shape.repeats {
        let w = (dst_at(r), dst_at(r) + written(r));
        src_ranges(src, size, shape, r, &mut reads);
        if reads.iter().any(|&x| intersects(x, w)) && w.0 != src.lane_addr(size, r, 0) {
            return Err(SimError::new(
                Category::Overlap,
                api,
                format!(
                    "repeat {r} writes `dst` bytes {}..{} that partially overlap the `src` bytes it reads: source and destination may overlap only 100% (same start address)",
                    w.0, w.1
                ),
            ));
        }
        let mut r2 = r + 1;
        while r2 < shape.repeats {
            let start = src.addr + BLOCK * r2 as u64 * src.rep_stride as u64;
            if src.rep_stride != 0 && start >= w.1 {
                break;
            }
            src_ranges(src, size, shape, r2, &mut reads);
            if reads.iter().any(|&x| intersects(x, w)) {
                return Err(SimError::new(
                    Category::Overlap,
                    api,
                    format!(
                        "repeat {r} writes `dst` bytes {}..{} that repeat {r2} then reads from `src`: with repeatTime > 1 a repeat must not read what an earlier repeat wrote",
                        w.0, w.1
                    ),
                ));
            }
            // With a repeat stride of 0 every repeat but a counter-mode tail reads the same bytes.
            r2 = if src.rep_stride == 0 && r2 + 1 < last {
                last
            } else {
                r2 + 1
            };
        }
    }
    Ok(())
}

/// The raw bits of an element, zero-extended.
pub(super) fn raw_bits<T: Element>(x: T) -> u64 {
    let mut b = [0u8; 8];
    b[..T::SIZE].copy_from_slice(bytemuck::bytes_of(&x));
    u64::from_le_bytes(b)
}
