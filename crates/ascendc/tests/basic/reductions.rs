//! Reductions: the vectors of `test-vectors.md` (Reductions), the worked examples of
//! `reductions.md`, and the validation rules of `validation.md` for reductions.

use ascendc::chip::{ASCEND310B, ASCEND310P, ASCEND910, ASCEND910B, ASCEND910_93};
use ascendc::prelude::*;
use ascendc::{Category, ChipProfile, Element, LaunchError, LaunchReport, Severity, SimError};
use std::sync::Mutex;

type Buf = TBuf<QuePosition::VECCALC>;

/// Runs `f` on one block with a 64 KiB VECCALC buffer; returns its value and the report.
fn run<R: Send>(
    launch: Launch,
    f: impl Fn(&Buf) -> Result<R> + Sync,
) -> std::result::Result<(R, LaunchReport), LaunchError> {
    let out = Mutex::new(None);
    let report = launch.run(|| {
        let mut pipe = TPipe::new();
        let mut buf = Buf::new();
        pipe.init_buffer(&mut buf, 1, 64 * 1024)?;
        let r = f(&buf)?;
        *out.lock().unwrap() = Some(r);
        Ok(())
    })?;
    Ok((out.into_inner().unwrap().unwrap(), report))
}

fn ok<R: Send>(launch: Launch, f: impl Fn(&Buf) -> Result<R> + Sync) -> R {
    run(launch, f).unwrap_or_else(|e| panic!("{e}")).0
}

/// The first error of a launch that must fail.
fn err<R: Send + std::fmt::Debug>(
    launch: Launch,
    f: impl Fn(&Buf) -> Result<R> + Sync,
) -> SimError {
    run(launch, f).expect_err("the call must fail").errors[0].clone()
}

fn a2() -> Launch {
    Launch::new(1)
}

fn on(p: &'static ChipProfile) -> Launch {
    Launch::new(1).profile(p)
}

/// `n` elements of T at byte `offset` of the buffer.
fn t<T: Element>(b: &Buf, offset: u32, n: u32) -> Result<LocalTensor<T>> {
    b.get_with_offset::<T>(n, offset)
}

fn fill<T: Element>(t: &LocalTensor<T>, v: &[T]) -> Result<()> {
    for (i, x) in v.iter().enumerate() {
        t.set_value(i as u32, *x)?;
    }
    Ok(())
}

fn h(x: f32) -> f16 {
    f16::from_f32(x)
}

fn hv(xs: &[f32]) -> Vec<f16> {
    xs.iter().map(|&x| h(x)).collect()
}

fn bits(v: &[f16]) -> Vec<u16> {
    v.iter().map(|x| x.to_bits()).collect()
}

const SENTINEL: f32 = -7.0;

/// RepeatReduceSum of one repeat over `data` (padded with zeros to `lanes`) with `mask` lanes.
fn rrs_half(launch: Launch, data: &[f32], mask: i32) -> u16 {
    ok(launch, |b| {
        let src = t::<f16>(b, 0, 128)?;
        let dst = t::<f16>(b, 1024, 16)?;
        let mut v = hv(data);
        v.resize(128, f16::ZERO);
        fill(&src, &v)?;
        repeat_reduce_sum(&dst, &src, 1, mask, 0, 1, 1, 8)?;
        Ok(dst.get_value(0)?.to_bits())
    })
}

fn rrs_float(launch: Launch, data: &[f32], mask: i32) -> u32 {
    ok(launch, |b| {
        let src = t::<f32>(b, 0, 64)?;
        let dst = t::<f32>(b, 1024, 8)?;
        let mut v = data.to_vec();
        v.resize(64, 0.0);
        fill(&src, &v)?;
        repeat_reduce_sum(&dst, &src, 1, mask, 0, 1, 1, 8)?;
        Ok(dst.get_value(0)?.to_bits())
    })
}

// ---- test-vectors.md R1–R4 and reductions.md §3 -------------------------------------------

#[test]
fn r1_seed_example_saturates_at_every_level_gives_35584() {
    // The seed prints 35604, exact arithmetic: no half has that value. Level 1 saturates
    // 120000 → 65504 and rounds −29900 → −29904; level 2 ties 35600 → 35584.
    let r = rrs_half(a2(), &[60000.0, 60000.0, -30000.0, 100.0], 4);
    assert_eq!(r, 0x7858);
    assert_eq!(f16::from_bits(r).to_f32(), 35584.0);
}

#[test]
fn r2_seed_example_in_ieee_mode_is_inf() {
    let r = rrs_half(
        a2().fp16_inf_nan(true),
        &[60000.0, 60000.0, -30000.0, 100.0],
        4,
    );
    assert_eq!(r, 0x7C00);
}

#[test]
fn seed_example_saturates_on_every_product() {
    for p in ChipProfile::all() {
        let r = rrs_half(on(p), &[60000.0, 60000.0, -30000.0, 100.0], 4);
        assert_eq!(r, 0x7858, "{}", p.soc);
    }
    let r = rrs_half(
        on(&ASCEND910_93).fp16_inf_nan(true),
        &[60000.0, 60000.0, -30000.0, 100.0],
        4,
    );
    assert_eq!(r, 0x7C00);
}

#[test]
fn r3_tree_order_not_sequential() {
    let mut v = vec![1.0f32; 128];
    v[0] = 2048.0;
    assert_eq!(rrs_half(a2(), &v, 128), 0x683F); // 2174
}

#[test]
fn r4_float_tree_cancels() {
    assert_eq!(rrs_float(a2(), &[1e8, 1.0, -1e8, 1.0], 4), 0);
}

#[test]
fn float_tree_overflows_to_inf_in_any_mode() {
    let x = [3e38, 3e38, -3e38, 0.0];
    assert_eq!(rrs_float(a2(), &x, 4), 0x7F80_0000);
    assert_eq!(rrs_float(a2().fp16_inf_nan(true), &x, 4), 0x7F80_0000);
}

#[test]
fn seed_001_kernel_2048_ones_16_repeats() {
    let out = ok(a2(), |b| {
        let src = t::<f16>(b, 0, 2048)?;
        let dst = t::<f16>(b, 4096, 16)?;
        fill(&src, &vec![f16::ONE; 2048])?;
        repeat_reduce_sum(&dst, &src, 16, 128, 0, 1, 1, 8)?;
        dst.to_vec()
    });
    assert_eq!(bits(&out), vec![0x5800; 16]); // 128.0
}

#[test]
fn seed_snippet_four_repeats_and_strides() {
    // Seed: RepeatReduceSum<half>(dst, src, 4, 128, 0, 1, 1, 8) on 512 contiguous halves; here with
    // repeat r holding r + 1 in every lane, and a dst stride of 2 elements / src block stride 2.
    let (a, b2) = ok(a2(), |b| {
        let src = t::<f16>(b, 0, 1024)?;
        let dst = t::<f16>(b, 4096, 16)?;
        let v: Vec<f16> = (0..1024).map(|i| h((i / 128 + 1) as f32)).collect();
        fill(&src, &v)?;
        fill(&dst, &[h(SENTINEL); 16])?;
        repeat_reduce_sum(&dst, &src, 4, 128, 0, 1, 1, 8)?;
        let a = dst.to_vec()?;
        // Block stride 2, repeat stride 16: repeat r reads blocks 0, 2, …, 14 of rows 2r, 2r+1.
        repeat_reduce_sum(&dst, &src, 4, 128, 99, 2, 2, 16)?;
        Ok((a, dst.to_vec()?))
    });
    assert_eq!(
        bits(&a[..5]),
        bits(&hv(&[128.0, 256.0, 384.0, 512.0, SENTINEL]))
    );
    // Repeat r: blocks 0–3 from row 2r (value 2r+1), blocks 4–7 from row 2r+1 (value 2r+2).
    let s = SENTINEL;
    let want = [192.0, 256.0, 448.0, 512.0, 704.0, s, 960.0, s];
    assert_eq!(bits(&b2[..8]), bits(&hv(&want)));
}

// ---- WholeReduce*, BlockReduce*, PairReduceSum (R5–R8, R11, R12, §4–§6) ---------------------

#[test]
fn r5_whole_reduce_sum_bitwise_mask_is_positional() {
    let r = ok(a2(), |b| {
        let src = t::<f32>(b, 0, 64)?;
        let dst = t::<f32>(b, 1024, 8)?;
        let mut v = vec![0.0f32; 64];
        v[..4].copy_from_slice(&[1.0, 777.0, 1e8, -1e8]);
        fill(&src, &v)?;
        whole_reduce_sum(&dst, &src, [0b1101u64, 0], 1, 1, 1, 8)?;
        dst.get_value(0)
    });
    assert_eq!(r.to_bits(), 0x3F80_0000);
}

/// WholeReduceMax/Min of one half repeat, full mask, returning the first `n` output slots.
fn whole_half(launch: Launch, data: &[f32], mask: Mask, max: bool, order: ReduceOrder) -> Vec<u16> {
    ok(launch, |b| {
        let src = t::<f16>(b, 0, 128)?;
        let dst = t::<f16>(b, 1024, 16)?;
        let mut v = hv(data);
        v.resize(128, h(1.0));
        fill(&src, &v)?;
        fill(&dst, &[h(SENTINEL); 16])?;
        if max {
            whole_reduce_max(&dst, &src, mask, 1, 1, 1, 8, order)?;
        } else {
            whole_reduce_min(&dst, &src, mask, 1, 1, 1, 8, order)?;
        }
        Ok(bits(&dst.to_vec()?[..3]))
    })
}

#[test]
fn r7_whole_reduce_max_tie_takes_smallest_index() {
    let mut v = vec![0.0; 128];
    v[..5].copy_from_slice(&[3.0, 7.0, 7.0, 1.0, 7.0]);
    let out = whole_half(
        a2(),
        &v,
        Mask::Count(128),
        true,
        ReduceOrder::ORDER_VALUE_INDEX,
    );
    assert_eq!(out[..2], [0x4700, 0x0001]);
}

#[test]
fn r8_whole_reduce_max_doc_example_every_order() {
    let mut v = vec![1.0; 128];
    v[52] = 11.0;
    let s = h(SENTINEL).to_bits();
    let run = |o| whole_half(a2(), &v, Mask::Count(128), true, o);
    assert_eq!(run(ReduceOrder::ORDER_VALUE_INDEX), [0x4980, 0x0034, s]);
    assert_eq!(run(ReduceOrder::ORDER_INDEX_VALUE), [0x0034, 0x4980, s]);
    assert_eq!(run(ReduceOrder::ORDER_ONLY_VALUE), [0x4980, s, s]);
    // A uint32 index even for half: printed as two halves [3.0994e-06, 0].
    assert_eq!(run(ReduceOrder::ORDER_ONLY_INDEX), [0x0034, 0x0000, s]);
}

#[test]
fn whole_reduce_max_contiguous_mask_skips_disabled_lanes() {
    let mut v = vec![0.0; 128];
    v[..5].copy_from_slice(&[5.0, -2.0, 9.0, 9.0, 100.0]);
    let out = whole_half(
        a2(),
        &v,
        Mask::Count(4),
        true,
        ReduceOrder::ORDER_VALUE_INDEX,
    );
    assert_eq!(out[..2], [0x4880, 0x0002]);
}

#[test]
fn whole_reduce_min_doc_example_four_repeats() {
    let out = ok(a2(), |b| {
        let src = t::<f16>(b, 0, 512)?;
        let dst = t::<f16>(b, 2048, 16)?;
        let mut v = vec![h(9.0); 512];
        for (r, lane, x) in [(0, 52, 1.0), (1, 100, 2.0), (2, 7, 4.0), (3, 19, 3.0)] {
            v[r * 128 + lane] = h(x);
        }
        fill(&src, &v)?;
        whole_reduce_min(&dst, &src, 128, 4, 1, 1, 8, ReduceOrder::ORDER_VALUE_INDEX)?;
        dst.to_vec()
    });
    let want = [
        0x3C00, 0x0034, 0x4000, 0x0064, 0x4400, 0x0007, 0x4200, 0x0013,
    ];
    assert_eq!(bits(&out[..8]), want);
}

#[test]
fn whole_reduce_max_float_index_is_uint32_bits() {
    let out = ok(a2(), |b| {
        let src = t::<f32>(b, 0, 64)?;
        let dst = t::<f32>(b, 1024, 8)?;
        let mut v = vec![-1.0f32; 64];
        v[63] = 2.5;
        fill(&src, &v)?;
        whole_reduce_max(&dst, &src, 64, 1, 1, 1, 8, ReduceOrder::ORDER_VALUE_INDEX)?;
        dst.to_vec()
    });
    assert_eq!([out[0].to_bits(), out[1].to_bits()], [0x4020_0000, 63]);
}

fn block_example() -> Vec<f16> {
    let mut v = Vec::new();
    v.push(h(1024.0));
    v.extend(std::iter::repeat_n(h(0.5), 15));
    for x in [1.0, 2.0, -3.0, 0.25, 100.0, 0.0] {
        v.extend(std::iter::repeat_n(h(x), 16));
    }
    v.extend([h(65504.0), h(65504.0)]);
    v.resize(128, f16::ZERO);
    v
}

fn block_sum(launch: Launch) -> Vec<u16> {
    ok(launch, |b| {
        let src = t::<f16>(b, 0, 128)?;
        let dst = t::<f16>(b, 1024, 16)?;
        fill(&src, &block_example())?;
        block_reduce_sum(&dst, &src, 1, 128, 1, 1, 8)?;
        Ok(bits(&dst.to_vec()?[..8]))
    })
}

#[test]
fn r6_block_reduce_sum_doc_example() {
    let want = [1031.0, 16.0, 32.0, -48.0, 4.0, 1600.0, 0.0, 65504.0];
    assert_eq!(block_sum(a2()), bits(&hv(&want)));
    assert_eq!(block_sum(a2())[0], 0x6407);
    let mut ieee = bits(&hv(&want));
    ieee[7] = 0x7C00;
    assert_eq!(block_sum(a2().fp16_inf_nan(true)), ieee);
}

#[test]
fn block_reduce_sum_float_tree_cancels() {
    let r = ok(a2(), |b| {
        let src = t::<f32>(b, 0, 64)?;
        let dst = t::<f32>(b, 1024, 8)?;
        let mut v = vec![0.0f32; 64];
        v[..4].copy_from_slice(&[1e8, 1.0, -1e8, 1.0]);
        fill(&src, &v)?;
        block_reduce_sum(&dst, &src, 1, 64, 1, 1, 8)?;
        dst.get_value(0)
    });
    assert_eq!(r.to_bits(), 0);
}

fn block_max_float(launch: Launch) -> Vec<f32> {
    ok(launch, |b| {
        let src = t::<f32>(b, 0, 64)?;
        let dst = t::<f32>(b, 1024, 8)?;
        let v: Vec<f32> = (0..64).map(|i| ((i * 37) % 64) as f32).collect();
        fill(&src, &v)?;
        fill(&dst, &[SENTINEL; 8])?;
        block_reduce_max(&dst, &src, 1, 32, 1, 1, 8)?;
        dst.to_vec()
    })
}

#[test]
fn r12_block_reduce_max_empty_blocks_per_product() {
    let maxima: Vec<f32> = (0..4)
        .map(|blk| {
            (0..8)
                .map(|i| ((blk * 8 + i) * 37 % 64) as f32)
                .fold(f32::MIN, f32::max)
        })
        .collect();
    let a2_out = block_max_float(a2());
    assert_eq!(a2_out[..4], maxima[..]);
    assert_eq!(a2_out[4..], [SENTINEL; 4]);
    let b_out = block_max_float(on(&ASCEND310B));
    assert_eq!(b_out[..4], maxima[..]);
    assert_eq!(b_out[4..], [f32::NEG_INFINITY; 4]);
}

#[test]
fn block_reduce_min_and_dst_rep_stride_unit() {
    // Two repeats, dstRepStride 2 → repeat 1's eight minima start 16 elements in.
    let out = ok(a2(), |b| {
        let src = t::<f16>(b, 0, 256)?;
        let dst = t::<f16>(b, 1024, 32)?;
        let v: Vec<f16> = (0..256).map(|i| h((255 - i) as f32)).collect();
        fill(&src, &v)?;
        fill(&dst, &[h(SENTINEL); 32])?;
        block_reduce_min(&dst, &src, 2, 128, 2, 1, 8)?;
        dst.to_vec()
    });
    let mut want = vec![SENTINEL; 32];
    for r in 0..2 {
        for blk in 0..8 {
            want[16 * r + blk] = (255 - (128 * r + 16 * blk + 15)) as f32;
        }
    }
    assert_eq!(bits(&out), bits(&hv(&want)));
}

fn pair_float(launch: Launch) -> Vec<f32> {
    ok(launch, |b| {
        let src = t::<f32>(b, 0, 64)?;
        let dst = t::<f32>(b, 1024, 32)?;
        let v: Vec<f32> = (1..=64).map(|i| i as f32).collect();
        fill(&src, &v)?;
        fill(&dst, &[SENTINEL; 32])?;
        pair_reduce_sum(&dst, &src, 1, 62, 1, 1, 8)?;
        dst.to_vec()
    })
}

#[test]
fn r11_pair_reduce_sum_doc_example_per_product() {
    let sums: Vec<f32> = (0..31).map(|i| (4 * i + 3) as f32).collect();
    let out = pair_float(a2());
    assert_eq!(out[..31], sums[..]);
    assert_eq!(out[31], SENTINEL);
    let out = pair_float(on(&ASCEND310B));
    assert_eq!(out[..31], sums[..]);
    assert_eq!(out[31].to_bits(), 0);
}

// ---- ReduceSum / ReduceMax / ReduceMin (R9, R10, §7) ----------------------------------------

/// Half source of `reps` repeats whose lane 0 holds `lane0[r]` (rest 0), plus `tail` lanes.
fn partials_half(lane0: &[f32], tail: &[f32]) -> Vec<f16> {
    let mut v = vec![f16::ZERO; 128 * lane0.len()];
    for (r, x) in lane0.iter().enumerate() {
        v[128 * r] = h(*x);
    }
    v.extend(hv(tail));
    v
}

fn reduce_sum_half(launch: Launch, data: Vec<f16>, level0: bool) -> u16 {
    ok(launch, |b| {
        let n = data.len() as u32;
        let src = t::<f16>(b, 0, n.div_ceil(16) * 16)?;
        let work = t::<f16>(b, 8192, 64)?;
        let dst = t::<f16>(b, 16384, 16)?;
        fill(&src, &data)?;
        if level0 {
            reduce_sum_l0(&dst, &src, &work, 128, (n / 128) as i32, 8)?;
        } else {
            reduce_sum(&dst, &src, &work, n as i32)?;
        }
        Ok(dst.get_value(0)?.to_bits())
    })
}

#[test]
fn r9_reduce_sum_a2_count_form_is_sequential() {
    let d = partials_half(&[2048.0, 1.0, 1.0, 2.0], &[]);
    assert_eq!(reduce_sum_half(a2(), d.clone(), false), 0x6801); // 2050
    assert_eq!(reduce_sum_half(on(&ASCEND910_93), d, false), 0x6801);
}

#[test]
fn r10_reduce_sum_tree_forms() {
    let d = partials_half(&[2048.0, 1.0, 1.0, 2.0], &[]);
    assert_eq!(reduce_sum_half(a2(), d.clone(), true), 0x6802); // 2052
    for p in [&ASCEND910, &ASCEND310P, &ASCEND310B] {
        assert_eq!(
            reduce_sum_half(on(p), d.clone(), false),
            0x6802,
            "{}",
            p.soc
        );
        assert_eq!(reduce_sum_half(on(p), d.clone(), true), 0x6802, "{}", p.soc);
    }
}

#[test]
fn reduce_sum_tail_repeat_per_product() {
    // count 515: A2 adds the tail partial sequentially; 910/310P add its tree to the body last.
    let d = partials_half(&[2048.0, 1.0, 1.0, 2.0], &[0.5, 0.5, 0.25]);
    assert_eq!(reduce_sum_half(a2(), d.clone(), false), h(2052.0).to_bits());
    for p in [&ASCEND910, &ASCEND310P, &ASCEND310B] {
        assert_eq!(
            reduce_sum_half(on(p), d.clone(), false),
            h(2054.0).to_bits(),
            "{}",
            p.soc
        );
    }
}

#[test]
fn reduce_sum_float_partials_per_product() {
    let go = |launch: Launch, level0: bool| {
        ok(launch, |b| {
            let src = t::<f32>(b, 0, 256)?;
            let work = t::<f32>(b, 2048, 64)?;
            let dst = t::<f32>(b, 4096, 8)?;
            let mut v = vec![0.0f32; 256];
            for (r, x) in [1e8, 1.0, -1e8, 1.0].into_iter().enumerate() {
                v[64 * r] = x;
            }
            fill(&src, &v)?;
            if level0 {
                reduce_sum_l0(&dst, &src, &work, 64, 4, 8)?;
            } else {
                reduce_sum(&dst, &src, &work, 256)?;
            }
            Ok(dst.get_value(0)?.to_bits())
        })
    };
    assert_eq!(go(a2(), false), 0x3F80_0000);
    assert_eq!(go(a2(), true), 0);
    assert_eq!(go(on(&ASCEND310P), false), 0);
    assert_eq!(go(on(&ASCEND310B), false), 0);
}

#[test]
fn reduce_sum_short_count_is_one_masked_tree() {
    let mut v = vec![1.0f32; 100];
    v[0] = 2048.0;
    let d = hv(&v);
    // Tree of 100 lanes padded with +0: the 99 ones meet 2048 only at the last levels.
    let want = {
        let mut lanes = d.clone();
        lanes.resize(128, f16::ZERO);
        let mut n = 128;
        while n > 1 {
            for i in 0..n / 2 {
                lanes[i] = f16::from_f32(lanes[2 * i].to_f32() + lanes[2 * i + 1].to_f32());
            }
            n /= 2;
        }
        lanes[0].to_bits()
    };
    assert_eq!(want, h(2146.0).to_bits());
    for p in ChipProfile::all() {
        assert_eq!(reduce_sum_half(on(p), d.clone(), false), want, "{}", p.soc);
    }
}

#[test]
fn reduce_sum_many_repeats_tree_of_trees() {
    // 300 repeats of ones (level 0, srcRepStride 0 re-reads one repeat): per repeat 128, then
    // 300 partials in three groups of ≤ 128: 128·128 = 16384, 16384, 44·128 = 5632 → 38400.
    let r = ok(a2(), |b| {
        let src = t::<f16>(b, 0, 128)?;
        let work = t::<f16>(b, 1024, 320)?;
        let dst = t::<f16>(b, 2048, 16)?;
        fill(&src, &[f16::ONE; 128])?;
        reduce_sum_l0(&dst, &src, &work, 128, 300, 0)?;
        Ok(dst.get_value(0)?.to_bits())
    });
    assert_eq!(r, h(38400.0).to_bits());
}

fn reduce_minmax_half(launch: Launch, data: &[f32], max: bool) -> [u16; 2] {
    ok(launch, |b| {
        let n = data.len() as u32;
        let src = t::<f16>(b, 0, n.div_ceil(16) * 16)?;
        let work = t::<f16>(b, 16384, 256)?;
        let dst = t::<f16>(b, 24576, 16)?;
        fill(&src, &hv(data))?;
        if max {
            reduce_max(&dst, &src, &work, n as i32, true)?;
        } else {
            reduce_min(&dst, &src, &work, n as i32, true)?;
        }
        Ok([dst.get_value(0)?.to_bits(), dst.get_value(1)?.to_bits()])
    })
}

#[test]
fn reduce_max_min_first_occurrence_across_repeats_and_tail() {
    let mut v: Vec<f32> = (0..515).map(|i| (i % 50) as f32).collect();
    v[300] = 99.0;
    v[514] = 99.0; // tail tie: the body's earlier index wins
    v[7] = -5.0;
    v[400] = -5.0;
    for p in ChipProfile::all() {
        assert_eq!(
            reduce_minmax_half(on(p), &v, true),
            [h(99.0).to_bits(), 300],
            "{}",
            p.soc
        );
        assert_eq!(
            reduce_minmax_half(on(p), &v, false),
            [h(-5.0).to_bits(), 7],
            "{}",
            p.soc
        );
    }
    // Maximum only in the tail.
    v[513] = 1000.0;
    assert_eq!(
        reduce_minmax_half(a2(), &v, true),
        [h(1000.0).to_bits(), 513]
    );
}

#[test]
fn reduce_max_level0_index_counts_src_rep_stride() {
    let out = ok(a2(), |b| {
        let src = t::<f32>(b, 0, 512)?;
        let work = t::<f32>(b, 4096, 64)?;
        let dst = t::<f32>(b, 8192, 8)?;
        let mut v = vec![0.0f32; 512];
        v[2 * 128 + 5] = 3.0; // repeat 2 (srcRepStride 16 blocks = 128 floats), lane 5
        v[2 * 128 + 100] = 9.0; // beyond the 64 lanes: never read
        fill(&src, &v)?;
        reduce_max_l0(&dst, &src, &work, 64, 4, 16, true)?;
        let a = [dst.get_value(0)?.to_bits(), dst.get_value(1)?.to_bits()];
        reduce_min_l0(&dst, &src, &work, [0b10u64, 0], 4, 16, false)?;
        Ok((a, dst.get_value(0)?.to_bits()))
    });
    assert_eq!(out.0, [3.0f32.to_bits(), 261]);
    assert_eq!(out.1, 0);
}

// ---- validation.md reduction rules ----------------------------------------------------------

fn assert_err(e: &SimError, cat: Category, api: &str, words: &[&str]) {
    assert_eq!(e.category, cat, "{e}");
    assert_eq!(e.api, api, "{e}");
    for w in words {
        assert!(e.message.contains(w), "`{w}` missing in: {}", e.message);
    }
    assert!(e
        .location
        .is_some_and(|l| l.file.ends_with("reductions.rs")));
}

#[test]
fn v_tensor_position_must_be_ub() {
    let e = Launch::new(1)
        .run(|| {
            let mut pipe = TPipe::new();
            let mut ub = Buf::new();
            let mut l1 = TBuf::<QuePosition::A1>::new();
            pipe.init_buffer(&mut ub, 1, 1024)?;
            pipe.init_buffer(&mut l1, 1, 1024)?;
            let src = ub.get::<f16>()?;
            let dst = l1.get::<f16>()?;
            repeat_reduce_sum(&dst, &src, 1, 128, 0, 1, 1, 8)
        })
        .unwrap_err()
        .errors[0]
        .clone();
    assert_err(
        &e,
        Category::Position,
        "RepeatReduceSum",
        &["`dst`", "A1", "VECIN/VECCALC/VECOUT"],
    );
}

/// A half tensor starting `bytes` into the buffer (any byte offset, through a uint8 view).
fn at_byte(b: &Buf, bytes: u32) -> Result<LocalTensor<f16>> {
    Ok(t::<u8>(b, 0, 8192)?.at(bytes)?.reinterpret_cast::<f16>())
}

#[test]
fn v_alignment_per_api() {
    // RepeatReduceSum dst: 2 B for half.
    let e = err(a2(), |b| {
        let src = t::<f16>(b, 0, 128)?;
        repeat_reduce_sum(&at_byte(b, 4097)?, &src, 1, 128, 0, 1, 1, 8)
    });
    assert_err(
        &e,
        Category::Align,
        "RepeatReduceSum",
        &["`dst`", "4097", "2-byte"],
    );
    // …a 2-byte offset is fine.
    ok(a2(), |b| {
        let src = t::<f16>(b, 0, 128)?;
        repeat_reduce_sum(&at_byte(b, 4098)?, &src, 1, 128, 0, 1, 1, 8)
    });
    // Sources: 32 B.
    let e = err(a2(), |b| {
        let src = t::<f16>(b, 0, 256)?.at(1)?;
        whole_reduce_sum(&t::<f16>(b, 4096, 8)?, &src, 128, 1, 1, 1, 8)
    });
    assert_err(&e, Category::Align, "WholeReduceSum", &["`src`", "32-byte"]);
    // WholeReduceMax [value, index]: 2·sizeof(T).
    let e = err(a2(), |b| {
        let dst = t::<f16>(b, 4096, 16)?.at(1)?;
        whole_reduce_max(
            &dst,
            &t::<f16>(b, 0, 128)?,
            128,
            1,
            1,
            1,
            8,
            ReduceOrder::ORDER_VALUE_INDEX,
        )
    });
    assert_err(&e, Category::Align, "WholeReduceMax", &["`dst`", "4-byte"]);
    // BlockReduce*: 16 B for half; PairReduceSum: 32 B.
    let e = err(a2(), |b| {
        let dst = t::<f16>(b, 4096, 32)?.at(4)?;
        block_reduce_max(&dst, &t::<f16>(b, 0, 128)?, 1, 128, 1, 1, 8)
    });
    assert_err(&e, Category::Align, "BlockReduceMax", &["16-byte"]);
    let e = err(a2(), |b| {
        let dst = t::<f16>(b, 4096, 128)?.at(8)?;
        pair_reduce_sum(&dst, &t::<f16>(b, 0, 128)?, 1, 128, 1, 1, 8)
    });
    assert_err(&e, Category::Align, "PairReduceSum", &["32-byte"]);
    // ReduceSum: the work buffer is a vector source (32 B).
    let e = err(on(&ASCEND310P), |b| {
        let work = t::<f16>(b, 4096, 64)?.at(1)?;
        reduce_sum(&t::<f16>(b, 8192, 16)?, &t::<f16>(b, 0, 256)?, &work, 256)
    });
    assert_err(
        &e,
        Category::Align,
        "ReduceSum",
        &["`sharedTmpBuffer`", "32-byte"],
    );
}

#[test]
fn v_repeat_and_stride_ranges() {
    let call = |repeat: i32, src_rep: i32| {
        err(a2(), move |b| {
            let src = t::<f16>(b, 0, 128)?;
            repeat_reduce_sum(&t::<f16>(b, 4096, 16)?, &src, repeat, 128, 0, 1, 1, src_rep)
        })
    };
    assert_err(
        &call(256, 0),
        Category::Range,
        "RepeatReduceSum",
        &["`repeatTime` = 256", "[0, 255]"],
    );
    assert_err(
        &call(-1, 0),
        Category::Range,
        "RepeatReduceSum",
        &["`repeatTime` = -1"],
    );
    assert_err(
        &call(1, 65536),
        Category::Range,
        "RepeatReduceSum",
        &["`srcRepStride` = 65536", "[0, 65535]"],
    );
}

#[test]
fn v_mask_ranges_and_forms() {
    let e = err(a2(), |b| {
        repeat_reduce_sum(
            &t::<f16>(b, 4096, 16)?,
            &t::<f16>(b, 0, 128)?,
            1,
            129,
            0,
            1,
            1,
            8,
        )
    });
    assert_err(
        &e,
        Category::Range,
        "RepeatReduceSum",
        &["`elemsInOneRepeat` = 129", "[1, 128]"],
    );
    let e = err(a2(), |b| {
        repeat_reduce_sum(
            &t::<f32>(b, 4096, 8)?,
            &t::<f32>(b, 0, 64)?,
            1,
            65,
            0,
            1,
            1,
            8,
        )
    });
    assert_err(&e, Category::Range, "RepeatReduceSum", &["= 65", "[1, 64]"]);
    let e = err(a2(), |b| {
        repeat_reduce_sum(
            &t::<f16>(b, 4096, 16)?,
            &t::<f16>(b, 0, 128)?,
            1,
            -3,
            0,
            1,
            1,
            8,
        )
    });
    assert_err(&e, Category::Range, "RepeatReduceSum", &["= -3"]);
    let e = err(a2(), |b| {
        repeat_reduce_sum(
            &t::<f16>(b, 4096, 16)?,
            &t::<f16>(b, 0, 128)?,
            1,
            [1u64, 1],
            0,
            1,
            1,
            8,
        )
    });
    assert_err(
        &e,
        Category::Unsupported,
        "RepeatReduceSum",
        &["contiguous"],
    );
    // Mask 0: an error on 910/310P, a NOP warning elsewhere (dst untouched).
    for p in [&ASCEND910, &ASCEND310P] {
        let e = err(on(p), |b| {
            whole_reduce_sum(
                &t::<f16>(b, 4096, 16)?,
                &t::<f16>(b, 0, 128)?,
                [0u64, 0],
                1,
                1,
                1,
                8,
            )
        });
        assert_err(&e, Category::Range, "WholeReduceSum", &["`mask` = 0"]);
    }
    for p in [&ASCEND910B, &ASCEND310B] {
        let (v, rep) = run(on(p), |b| {
            let dst = t::<f16>(b, 4096, 16)?;
            fill(&dst, &[h(SENTINEL)])?;
            whole_reduce_sum(&dst, &t::<f16>(b, 0, 128)?, 0, 1, 1, 1, 8)?;
            dst.get_value(0)
        })
        .unwrap();
        assert_eq!(v, h(SENTINEL));
        let d: Vec<_> = rep.diagnostics().collect();
        assert!(d.iter().any(|d| d.severity == Severity::Warning
            && d.category == Category::Nop
            && d.message.contains("no lane")));
    }
    // repeatTime 0: a NOP warning.
    let (_, rep) = run(a2(), |b| {
        repeat_reduce_sum(
            &t::<f16>(b, 4096, 16)?,
            &t::<f16>(b, 0, 128)?,
            0,
            128,
            0,
            1,
            1,
            8,
        )
    })
    .unwrap();
    assert!(rep
        .diagnostics()
        .any(|d| d.message.contains("repeatTime = 0")));
    assert_eq!(rep.total_counts()[Pipe::V as usize], 0);
}

#[test]
fn v_dst_rep_stride_zero_refused_on_910_only() {
    let go = |launch: Launch| {
        run(launch, |b| {
            let src = t::<f16>(b, 0, 256)?;
            let dst = t::<f16>(b, 4096, 16)?;
            let v: Vec<f16> = (0..256).map(|i| h((i / 128 + 1) as f32)).collect();
            fill(&src, &v)?;
            repeat_reduce_sum(&dst, &src, 2, 128, 0, 1, 0, 8)?;
            dst.get_value(0)
        })
    };
    let e = go(on(&ASCEND910)).unwrap_err().errors[0].clone();
    assert_err(
        &e,
        Category::Range,
        "RepeatReduceSum",
        &["`dstRepStride` = 0", "Ascend910"],
    );
    // Elsewhere every result lands on dst[0]; the last repeat wins.
    assert_eq!(go(a2()).unwrap().0, h(256.0));
}

#[test]
fn v_order_support_per_product() {
    let go = |launch: Launch, order| {
        run(launch, move |b| {
            whole_reduce_max(
                &t::<f16>(b, 4096, 16)?,
                &t::<f16>(b, 0, 128)?,
                128,
                1,
                1,
                1,
                8,
                order,
            )
        })
    };
    let e = go(on(&ASCEND910), ReduceOrder::ORDER_INDEX_VALUE)
        .unwrap_err()
        .errors[0]
        .clone();
    assert_err(
        &e,
        Category::Unsupported,
        "WholeReduceMax",
        &["ORDER_INDEX_VALUE", "Ascend910", "supported: 0"],
    );
    let e = go(on(&ASCEND310B), ReduceOrder::ORDER_INDEX_VALUE)
        .unwrap_err()
        .errors[0]
        .clone();
    assert_err(
        &e,
        Category::Unsupported,
        "WholeReduceMax",
        &["supported: 0, 2"],
    );
    let e = go(on(&ASCEND310P), ReduceOrder::ORDER_ONLY_INDEX)
        .unwrap_err()
        .errors[0]
        .clone();
    assert_err(
        &e,
        Category::Unsupported,
        "WholeReduceMax",
        &["supported: 0, 1"],
    );
    assert!(go(on(&ASCEND310B), ReduceOrder::ORDER_ONLY_VALUE).is_ok());
    assert!(go(on(&ASCEND910_93), ReduceOrder::ORDER_ONLY_INDEX).is_ok());
}

#[test]
fn v_dtype_per_product() {
    let e = err(on(&ASCEND910), |b| {
        whole_reduce_min(
            &t::<f32>(b, 4096, 8)?,
            &t::<f32>(b, 0, 64)?,
            64,
            1,
            1,
            1,
            8,
            ReduceOrder::ORDER_VALUE_INDEX,
        )
    });
    assert_err(
        &e,
        Category::Type,
        "WholeReduceMin",
        &["float", "Ascend910", "half"],
    );
    // Sums accept float on 910.
    ok(on(&ASCEND910), |b| {
        repeat_reduce_sum(
            &t::<f32>(b, 4096, 8)?,
            &t::<f32>(b, 0, 64)?,
            1,
            64,
            0,
            1,
            1,
            8,
        )
    });
}

#[test]
fn v_extents() {
    let e = err(a2(), |b| {
        let dst = t::<f16>(b, 16384, 16)?;
        repeat_reduce_sum(&dst, &t::<f16>(b, 0, 4096)?, 17, 128, 0, 1, 1, 8)
    });
    assert_err(
        &e,
        Category::Size,
        "RepeatReduceSum",
        &["`dst`", "34 bytes", "32 bytes"],
    );
    let e = err(a2(), |b| {
        whole_reduce_sum(
            &t::<f16>(b, 4096, 16)?,
            &t::<f16>(b, 0, 128)?,
            128,
            4,
            1,
            1,
            8,
        )
    });
    assert_err(
        &e,
        Category::Size,
        "WholeReduceSum",
        &["`src`", "1024 bytes", "256 bytes"],
    );
    let e = err(a2(), |b| {
        whole_reduce_max(
            &t::<f16>(b, 4096, 16)?,
            &t::<f16>(b, 0, 1024)?,
            128,
            5,
            4,
            1,
            8,
            ReduceOrder::ORDER_VALUE_INDEX,
        )
    });
    assert_err(&e, Category::Size, "WholeReduceMax", &["`dst`", "68 bytes"]);
    let e = err(a2(), |b| {
        block_reduce_sum(
            &t::<f16>(b, 4096, 16)?,
            &t::<f16>(b, 0, 512)?,
            3,
            128,
            1,
            1,
            8,
        )
    });
    assert_err(&e, Category::Size, "BlockReduceSum", &["`dst`", "48 bytes"]);
    let e = err(a2(), |b| {
        pair_reduce_sum(
            &t::<f32>(b, 4096, 32)?,
            &t::<f32>(b, 0, 128)?,
            2,
            64,
            1,
            1,
            8,
        )
    });
    assert_err(&e, Category::Size, "PairReduceSum", &["`dst`", "256 bytes"]);
    let e = err(a2(), |b| {
        reduce_sum(
            &t::<f16>(b, 4096, 16)?,
            &t::<f16>(b, 0, 128)?,
            &t::<f16>(b, 8192, 16)?,
            200,
        )
    });
    assert_err(&e, Category::Size, "ReduceSum", &["`src`", "400 bytes"]);
}

#[test]
fn v_overlap_rules() {
    // repeat 1: 100% overlap (same start) works in place; a partial overlap is refused and
    // writes nothing.
    let v = ok(a2(), |b| {
        let x = t::<f16>(b, 0, 128)?;
        fill(&x, &[f16::ONE; 128])?;
        repeat_reduce_sum(&x, &x, 1, 128, 0, 1, 1, 8)?;
        x.get_value(0)
    });
    assert_eq!(v, h(128.0));
    let (e, before, after) = {
        let res = Mutex::new((Vec::new(), Vec::new()));
        let e = Launch::new(1)
            .run(|| {
                let mut pipe = TPipe::new();
                let mut b = Buf::new();
                pipe.init_buffer(&mut b, 1, 4096)?;
                let x = t::<f16>(&b, 0, 256)?;
                fill(&x, &[f16::ONE; 256])?;
                let before = x.to_vec()?;
                let r = repeat_reduce_sum(&x.at(3)?, &x, 1, 128, 0, 1, 1, 8);
                *res.lock().unwrap() = (before, x.to_vec()?);
                r
            })
            .unwrap_err()
            .errors[0]
            .clone();
        let (a, b) = res.into_inner().unwrap();
        (e, a, b)
    };
    assert_err(
        &e,
        Category::Overlap,
        "RepeatReduceSum",
        &["partially overlap", "100%"],
    );
    assert_eq!(before, after);
    // repeat > 1: repeat 0 writes element 128, which repeat 1 reads.
    let e = err(a2(), |b| {
        let x = t::<f16>(b, 0, 512)?;
        repeat_reduce_sum(&x.at(128)?, &x, 2, 128, 0, 1, 1, 8)
    });
    assert_err(
        &e,
        Category::Overlap,
        "RepeatReduceSum",
        &["repeat 0", "repeat 1"],
    );
    // The seed's in-place pattern (results packed at the start) has no dependency.
    let v = ok(a2(), |b| {
        let x = t::<f16>(b, 0, 2048)?;
        fill(&x, &vec![f16::ONE; 2048])?;
        repeat_reduce_sum(&x, &x, 16, 128, 0, 1, 1, 8)?;
        Ok(x.to_vec()?[..17].to_vec())
    });
    let mut want = vec![h(128.0); 16];
    want.push(f16::ONE);
    assert_eq!(v, want);
}

#[test]
fn v_work_buffer_sizes() {
    // ReduceSum tree forms need count/L elements (here 4); the A2 count form does not use it.
    let go = |launch: Launch, work: u32| {
        run(launch, move |b| {
            reduce_sum(
                &t::<f16>(b, 4096, 16)?,
                &t::<f16>(b, 0, 512)?,
                &t::<f16>(b, 8192, work)?,
                512,
            )
        })
    };
    let e = go(on(&ASCEND310P), 3).unwrap_err().errors[0].clone();
    assert_err(
        &e,
        Category::Size,
        "ReduceSum",
        &[
            "sharedTmpBuffer's size should be more than 4 elements",
            "6 bytes",
        ],
    );
    let (_, rep) = go(on(&ASCEND310P), 4).unwrap();
    assert!(rep
        .diagnostics()
        .any(|d| d.category == Category::Size && d.message.contains("documented")));
    assert!(go(a2(), 1).is_ok());
    // ReduceMax with calIndex over 20 repeats: the checker needs A(40) + 2 = 50 elements.
    let max = |work: u32, idx: bool| {
        run(a2(), move |b| {
            reduce_max_l0(
                &t::<f16>(b, 4096, 16)?,
                &t::<f16>(b, 0, 128)?,
                &t::<f16>(b, 8192, work)?,
                128,
                20,
                0,
                idx,
            )
        })
    };
    let e = max(49, true).unwrap_err().errors[0].clone();
    assert_err(
        &e,
        Category::Size,
        "ReduceMax",
        &["50 elements", "calIndex"],
    );
    assert!(max(50, true).is_ok());
    assert!(max(40, false).is_ok());
    let e = max(39, false).unwrap_err().errors[0].clone();
    assert_err(&e, Category::Size, "ReduceMax", &["40 elements"]);
}

#[test]
fn v_count_range() {
    let go = |n: i32| {
        err(a2(), move |b| {
            reduce_min(
                &t::<f16>(b, 4096, 16)?,
                &t::<f16>(b, 0, 128)?,
                &t::<f16>(b, 8192, 16)?,
                n,
                false,
            )
        })
    };
    assert_err(
        &go(0),
        Category::Range,
        "ReduceMin",
        &["`count` = 0", "[1, 98304]"],
    );
    assert_err(&go(98305), Category::Range, "ReduceMin", &["98305"]);
}

// ---- mask state and the instruction record ---------------------------------------------------

#[test]
fn is_set_mask_false_uses_the_mask_register() {
    let v = ok(a2(), |b| {
        let src = t::<f16>(b, 0, 128)?;
        let dst = t::<f16>(b, 4096, 16)?;
        fill(&src, &[f16::ONE; 128])?;
        // A level-0 call leaves its mask (4 lanes) in the register…
        whole_reduce_sum(&dst, &src, 4, 1, 1, 1, 8)?;
        // …which MASK_PLACEHOLDER (isSetMask = false) then uses.
        repeat_reduce_sum(&dst, &src, 1, MASK_PLACEHOLDER, 0, 1, 1, 8)?;
        let a = dst.get_value(0)?;
        whole_reduce_max(
            &dst,
            &src,
            [0u64, 1 << 20],
            1,
            1,
            1,
            8,
            ReduceOrder::ORDER_VALUE_INDEX,
        )?;
        block_reduce_sum(&dst, &src, 1, MASK_PLACEHOLDER, 1, 1, 8)?;
        Ok((a, dst.to_vec()?[..8].to_vec()))
    });
    assert_eq!(v.0, h(4.0));
    // Lane 84 only: block 5 sums to 1; the other blocks keep the WholeReduceMax output / old data.
    assert_eq!(v.1[5], f16::ONE);
}

#[test]
fn one_pipe_v_instruction_with_its_accesses() {
    let (_, rep) = run(a2().record_trace(true), |b| {
        repeat_reduce_sum(
            &t::<f16>(b, 4096, 16)?,
            &t::<f16>(b, 0, 2048)?,
            16,
            128,
            0,
            1,
            1,
            8,
        )
    })
    .unwrap();
    let tr = &rep.blocks[0].trace;
    let v: Vec<_> = tr
        .instructions()
        .iter()
        .filter(|i| i.pipe == Pipe::V)
        .collect();
    assert_eq!(v.len(), 1);
    let acc = tr.accesses(v[0]);
    assert!(acc[0].write && acc[0].base == 4096 && acc[0].end() == 4096 + 32);
    assert!(!acc[1].write && acc[1].base == 0 && acc[1].end() == 4096);
}

/// Pairwise-tree reference for one repeat, straight from the rule (lanes past `m` are +0).
fn model_tree(lanes: &[f16], l: usize, sat: bool) -> f16 {
    use ascendc::numeric::Arith;
    let mut v = vec![f16::ZERO; l];
    v[..lanes.len()].copy_from_slice(lanes);
    while v.len() > 1 {
        v = v.chunks(2).map(|p| f16::add(p[0], p[1], sat)).collect();
    }
    v[0]
}

proptest::proptest! {
    /// The dense full-mask fast path and the lane-by-lane path (taken with a block stride of 2
    /// over a copy spread out in UB) agree with the tree model, for full and partial masks.
    #[test]
    fn repeat_reduce_sum_fast_and_general_paths_match_the_model(
        data in proptest::collection::vec(-3000.0f32..3000.0, 128 * 6),
        repeat in 1i32..=6,
        mask in 1i32..=128,
    ) {
        let x = hv(&data);
        let (fast, general) = ok(a2(), |b| {
            let src = t::<f16>(b, 0, 768)?;
            let spread = t::<f16>(b, 2048, 1536)?;
            let (d1, d2) = (t::<f16>(b, 8192, 16)?, t::<f16>(b, 8224, 16)?);
            fill(&src, &x)?;
            for r in 0..6u32 {
                for blk in 0..8u32 {
                    for e in 0..16u32 {
                        let i = r * 128 + blk * 16 + e;
                        spread.set_value(r * 256 + blk * 32 + e, x[i as usize])?;
                    }
                }
            }
            repeat_reduce_sum(&d1, &src, repeat, mask, 0, 1, 1, 8)?;
            repeat_reduce_sum(&d2, &spread, repeat, mask, 0, 2, 1, 16)?;
            Ok((d1.to_vec()?, d2.to_vec()?))
        });
        for r in 0..repeat as usize {
            let want = model_tree(&x[r * 128..r * 128 + mask as usize], 128, true);
            proptest::prop_assert_eq!(fast[r].to_bits(), want.to_bits());
            proptest::prop_assert_eq!(general[r].to_bits(), want.to_bits());
        }
    }
}

#[test]
fn whole_tensor_reductions_take_the_element_wise_count_type() {
    // `usize`, `u32` and `i32` counts are all accepted, as for element-wise ops.
    let sums = ok(a2(), |b| {
        let src = t::<f32>(b, 0, 256)?;
        let dst = t::<f32>(b, 1024, 8)?;
        let work = t::<f32>(b, 2048, 64)?;
        fill(&src, &[1.0; 256])?;
        reduce_sum(&dst, &src, &work, 256usize)?;
        let a = dst.get_value(0)?;
        reduce_sum(&dst, &src, &work, 100u32)?;
        let b2 = dst.get_value(0)?;
        reduce_max(&dst, &src, &work, 7i32, false)?;
        Ok((a, b2, dst.get_value(0)?))
    });
    assert_eq!(sums, (256.0, 100.0, 1.0));
    let e = err(a2(), |b| {
        let src = t::<f32>(b, 0, 256)?;
        reduce_min(&src, &src, &src, KEEP_MASK, false)
    });
    assert_eq!(e.category, Category::Range);
    assert_eq!(e.api, "ReduceMin");
    for w in ["KEEP_MASK", "element count"] {
        assert!(e.message.contains(w), "`{w}` missing in: {}", e.message);
    }
}
