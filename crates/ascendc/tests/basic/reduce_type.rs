//! ReduceRepeat / ReduceDataBlock / ReducePairElem (the `ReduceType` spellings) and the
//! reduction result registers: the pages' worked examples plus edge cases.

use ascendc::chip::{ASCEND310B, ASCEND310P, ASCEND910, ASCEND910B};
use ascendc::prelude::*;
use ascendc::{Category, ChipProfile, LaunchReport, SimError};
use std::sync::Mutex;

type Buf = TBuf<QuePosition::VECCALC>;

fn run<R: Send>(
    p: &'static ChipProfile,
    f: impl Fn(&Buf) -> Result<R> + Sync,
) -> std::result::Result<(R, LaunchReport), ascendc::LaunchError> {
    let out = Mutex::new(None);
    let report = Launch::new(1).profile(p).run(|| {
        let mut pipe = TPipe::new();
        let mut buf = Buf::new();
        pipe.init_buffer(&mut buf, 1, 64 * 1024)?;
        *out.lock().unwrap() = Some(f(&buf)?);
        Ok(())
    })?;
    Ok((out.into_inner().unwrap().unwrap(), report))
}

fn ok<R: Send>(p: &'static ChipProfile, f: impl Fn(&Buf) -> Result<R> + Sync) -> R {
    run(p, f).unwrap_or_else(|e| panic!("{e}")).0
}

fn err<R: Send + std::fmt::Debug>(
    p: &'static ChipProfile,
    f: impl Fn(&Buf) -> Result<R> + Sync,
) -> SimError {
    run(p, f).expect_err("the call must fail").errors[0].clone()
}

fn h(x: f32) -> f16 {
    f16::from_f32(x)
}

fn load<T: Element>(t: &LocalTensor<T>, v: &[T]) -> Result<()> {
    for (i, x) in v.iter().enumerate() {
        t.set_value(i as u32, *x)?;
    }
    Ok(())
}

/// The ReduceRepeat page's MAX input: 4 repeats of 128 halves, base value r+1 (repeat 2: 2.5)
/// with one peak per repeat (11 at lane 52, 12 at lane 100, 12.5 at lane 7, 13 at lane 19).
fn max_input(low: bool) -> Vec<f16> {
    let base = [1.0, 2.0, 2.5, 3.0];
    let peak = [(52, 11.0), (100, 12.0), (7, 12.5), (19, 13.0)];
    let mut v = Vec::new();
    for r in 0..4 {
        for lane in 0..128 {
            let x = if lane == peak[r].0 {
                peak[r].1
            } else {
                base[r]
            };
            // The MIN example: base ×10, the marked lane holds r+1.
            let x = if low {
                if lane == peak[r].0 {
                    base[r]
                } else {
                    peak[r].1 * 10.0
                }
            } else {
                x
            };
            v.push(h(x));
        }
    }
    v
}

fn reduce_repeat_bits(t: ReduceType, order: ReduceOrder, low: bool, bitmask: bool) -> Vec<u16> {
    ok(&ASCEND910B, |b| {
        let src = b.get_with_offset::<f16>(512, 0)?;
        let dst = b.get_with_offset::<f16>(16, 2048)?;
        load(&src, &max_input(low))?;
        load(&dst, &[h(-1.0); 16])?;
        if bitmask {
            reduce_repeat(t, &dst, &src, [u64::MAX, u64::MAX], 4, 1, 1, 8, order)?;
        } else {
            reduce_repeat(t, &dst, &src, 128, 4, 1, 1, 8, order)?;
        }
        Ok(dst.to_vec()?.iter().map(|x| x.to_bits()).collect())
    })
}

#[test]
fn reduce_repeat_max_every_order_matches_the_page() {
    let v = |x: f32| h(x).to_bits();
    let idx = [0x0034u16, 0x0064, 0x0007, 0x0013];
    let vals = [v(11.0), v(12.0), v(12.5), v(13.0)];
    for bitmask in [false, true] {
        let r = reduce_repeat_bits(
            ReduceType::MAX,
            ReduceOrder::ORDER_VALUE_INDEX,
            false,
            bitmask,
        );
        let want: Vec<u16> = (0..4).flat_map(|i| [vals[i], idx[i]]).collect();
        assert_eq!(r[..8], want[..]);
        let r = reduce_repeat_bits(
            ReduceType::MAX,
            ReduceOrder::ORDER_INDEX_VALUE,
            false,
            bitmask,
        );
        let want: Vec<u16> = (0..4).flat_map(|i| [idx[i], vals[i]]).collect();
        assert_eq!(r[..8], want[..]);
        let r = reduce_repeat_bits(
            ReduceType::MAX,
            ReduceOrder::ORDER_ONLY_VALUE,
            false,
            bitmask,
        );
        assert_eq!(r[..4], vals[..]);
        assert_eq!(r[4], v(-1.0), "only 4 slots written");
        // ORDER_ONLY_INDEX: a uint32 per repeat, read as [index, 0] half slots.
        let r = reduce_repeat_bits(
            ReduceType::MAX,
            ReduceOrder::ORDER_ONLY_INDEX,
            false,
            bitmask,
        );
        let want: Vec<u16> = (0..4).flat_map(|i| [idx[i], 0]).collect();
        assert_eq!(r[..8], want[..]);
    }
    // The page's 3.09944e-06 is the half with bits 0x0034.
    assert_eq!(h(3.09944e-06).to_bits(), 0x34);
}

#[test]
fn reduce_repeat_min_and_sum() {
    let v = |x: f32| h(x).to_bits();
    let r = reduce_repeat_bits(ReduceType::MIN, ReduceOrder::ORDER_VALUE_INDEX, true, true);
    assert_eq!(
        r[..8],
        [v(1.0), 0x34, v(2.0), 0x64, v(2.5), 0x07, v(3.0), 0x13]
    );
    // SUM ignores `order`: 127·1 + 11, 127·2 + 12, 127·2.5 + 12.5, 127·3 + 13.
    let r = reduce_repeat_bits(ReduceType::SUM, ReduceOrder::ORDER_INDEX_VALUE, false, true);
    assert_eq!(r[..5], [v(138.0), v(266.0), v(330.0), v(394.0), v(-1.0)]);
}

#[test]
fn reduce_repeat_tables_per_product() {
    // float SUM: supported on 310P, refused on 910 (half only, unlike WholeReduceSum).
    let sum = |p: &'static ChipProfile| {
        run(p, |b| {
            let src = b.get_with_offset::<f32>(64, 0)?;
            let dst = b.get_with_offset::<f32>(8, 1024)?;
            load(&src, &(0..64).map(|i| i as f32).collect::<Vec<_>>())?;
            reduce_repeat(
                ReduceType::SUM,
                &dst,
                &src,
                64,
                1,
                1,
                1,
                8,
                ReduceOrder::ORDER_VALUE_INDEX,
            )?;
            dst.get_value(0)
        })
    };
    assert_eq!(sum(&ASCEND310P).unwrap().0, 2016.0);
    let e = sum(&ASCEND910).unwrap_err().errors[0].clone();
    assert_eq!(e.category, Category::Type);
    assert!(e.message.contains("float"), "{e}");
    // 310B: ORDER_INDEX_VALUE is refused.
    let e = err(&ASCEND310B, |b| {
        let src = b.get_with_offset::<f16>(128, 0)?;
        let dst = b.get_with_offset::<f16>(16, 1024)?;
        reduce_repeat(
            ReduceType::MAX,
            &dst,
            &src,
            128,
            1,
            1,
            1,
            8,
            ReduceOrder::ORDER_INDEX_VALUE,
        )
    });
    assert_eq!(e.api, "ReduceRepeat");
    assert!(e.message.contains("order"), "{e}");
}

#[test]
fn reduce_data_block_examples() {
    // The page's MAX input: 8 blocks of 16 halves, 2 in block 0, 3 in block 1, 4 in block 7.
    let run_type = |t: ReduceType, bitmask: bool| -> Vec<f32> {
        ok(&ASCEND910B, |b| {
            let src = b.get_with_offset::<f16>(128, 0)?;
            let dst = b.get_with_offset::<f16>(16, 1024)?;
            let mut v = vec![h(1.0); 128];
            v[10] = h(2.0);
            v[29] = h(3.0);
            v[115] = h(4.0);
            v[64] = h(-5.0);
            load(&src, &v)?;
            if bitmask {
                reduce_data_block(t, &dst, &src, [u64::MAX, u64::MAX], 1, 1, 1, 8)?;
            } else {
                reduce_data_block(t, &dst, &src, 128, 1, 1, 1, 8)?;
            }
            Ok(dst.to_vec()?[..8].iter().map(|x| x.to_f32()).collect())
        })
    };
    for bm in [false, true] {
        assert_eq!(
            run_type(ReduceType::MAX, bm),
            [2.0, 3.0, 1.0, 1.0, 1.0, 1.0, 1.0, 4.0]
        );
    }
    assert_eq!(
        run_type(ReduceType::MIN, true),
        [1.0, 1.0, 1.0, 1.0, -5.0, 1.0, 1.0, 1.0]
    );
    assert_eq!(
        run_type(ReduceType::SUM, false),
        [17.0, 18.0, 16.0, 16.0, 10.0, 16.0, 16.0, 19.0]
    );
}

#[test]
fn reduce_pair_elem_example_and_sum_only() {
    let out = ok(&ASCEND910B, |b| {
        let src = b.get_with_offset::<f16>(128, 0)?;
        let dst = b.get_with_offset::<f16>(64, 1024)?;
        let row = [
            1., 1., 1., -1., 2., 2., -1., 2., 3., 3., 3., -1., 4., 4., -2., 4.,
        ];
        let v: Vec<f16> = (0..128).map(|i| h(row[i % 16])).collect();
        load(&src, &v)?;
        reduce_pair_elem(ReduceType::SUM, &dst, &src, 128, 1, 1, 1, 8)?;
        Ok(dst.to_vec()?[..8]
            .iter()
            .map(|x| x.to_f32())
            .collect::<Vec<_>>())
    });
    assert_eq!(out, [2.0, 0.0, 4.0, 1.0, 6.0, 2.0, 8.0, 2.0]);
    let e = err(&ASCEND910B, |b| {
        let src = b.get_with_offset::<f16>(128, 0)?;
        let dst = b.get_with_offset::<f16>(64, 1024)?;
        reduce_pair_elem(ReduceType::MAX, &dst, &src, 128, 1, 1, 1, 8)
    });
    assert_eq!(e.category, Category::Unsupported);
    assert!(e.message.contains("SUM"), "{e}");
}

#[test]
fn max_min_register_after_reduce_repeat() {
    // The page's A2 example: float, mask 64, one repeat; then the same over 3 repeats, where the
    // index counts from the first element read.
    let (one, three) = ok(&ASCEND910B, |b| {
        let src = b.get_with_offset::<f32>(192, 0)?;
        let dst = b.get_with_offset::<f32>(16, 1024)?;
        let mut v: Vec<f32> = (0..192).map(|i| (i % 64) as f32 * 0.5).collect();
        v[70] = 100.0;
        v[150] = 100.0;
        load(&src, &v)?;
        reduce_repeat(
            ReduceType::MAX,
            &dst,
            &src,
            64,
            1,
            1,
            1,
            8,
            ReduceOrder::ORDER_VALUE_INDEX,
        )?;
        let one = get_reduce_repeat_max_min_spr::<f32>()?;
        reduce_repeat(
            ReduceType::MAX,
            &dst,
            &src,
            64,
            3,
            1,
            1,
            8,
            ReduceOrder::ORDER_VALUE_INDEX,
        )?;
        let three = get_reduce_repeat_max_min_spr::<f32>()?;
        Ok((one, three))
    });
    assert_eq!((one.0, one.1.to_bits()), (31.5, 63));
    assert_eq!((three.0, three.1.to_bits()), (100.0, 70));
    // 310P: the one-output form; the two-output form is refused there and the reverse on A2.
    let v = ok(&ASCEND310P, |b| {
        let src = b.get_with_offset::<f16>(128, 0)?;
        let dst = b.get_with_offset::<f16>(16, 1024)?;
        load(&src, &(0..128).map(|i| h(-(i as f32))).collect::<Vec<_>>())?;
        reduce_repeat(
            ReduceType::MIN,
            &dst,
            &src,
            128,
            1,
            1,
            1,
            8,
            ReduceOrder::ORDER_VALUE_INDEX,
        )?;
        get_reduce_repeat_max_min_spr_value::<f16>()
    });
    assert_eq!(v.to_f32(), -127.0);
    let e = err(&ASCEND310P, |_| get_reduce_repeat_max_min_spr::<f16>());
    assert!(e.message.contains("one-output"), "{e}");
    let e = err(&ASCEND910, |_| get_reduce_repeat_max_min_spr_value::<f16>());
    assert_eq!(e.category, Category::Unsupported);
    // Nothing ran yet / non-contiguous source / other element type.
    let e = err(&ASCEND910B, |_| get_reduce_repeat_max_min_spr::<f32>());
    assert!(e.message.contains("no ReduceRepeat"), "{e}");
    let e = err(&ASCEND910B, |b| {
        let src = b.get_with_offset::<f32>(256, 0)?;
        let dst = b.get_with_offset::<f32>(16, 2048)?;
        reduce_repeat(
            ReduceType::MAX,
            &dst,
            &src,
            64,
            2,
            1,
            1,
            16,
            ReduceOrder::ORDER_VALUE_INDEX,
        )?;
        get_reduce_repeat_max_min_spr::<f32>()
    });
    assert!(e.message.contains("contiguously"), "{e}");
    let e = err(&ASCEND910B, |b| {
        let src = b.get_with_offset::<f32>(64, 0)?;
        let dst = b.get_with_offset::<f32>(16, 1024)?;
        reduce_repeat(
            ReduceType::MAX,
            &dst,
            &src,
            64,
            1,
            1,
            1,
            8,
            ReduceOrder::ORDER_VALUE_INDEX,
        )?;
        get_reduce_repeat_max_min_spr::<f16>()
    });
    assert_eq!(e.category, Category::Type);
}

#[test]
fn max_min_register_after_reduce_max() {
    // The page's ReduceMax example: mask 64, 1 repeat, srcRepStride 8: the value is exact.
    let v = ok(&ASCEND910B, |b| {
        let src = b.get_with_offset::<f32>(64, 0)?;
        let work = b.get_with_offset::<f32>(64, 1024)?;
        let dst = b.get_with_offset::<f32>(8, 2048)?;
        load(
            &src,
            &(0..64).map(|i| ((i * 37) % 64) as f32).collect::<Vec<_>>(),
        )?;
        reduce_max_l0(&dst, &src, &work, 64, 1, 8, true)?;
        Ok(get_reduce_repeat_max_min_spr::<f32>()?.0)
    });
    assert_eq!(v, 63.0);
}

#[test]
fn sum_register_after_reduce_sum() {
    // The page's example: ReduceSum over 128 floats, then GetReduceRepeatSumSpr.
    let (v, d) = ok(&ASCEND910B, |b| {
        let src = b.get_with_offset::<f32>(128, 0)?;
        let work = b.get_with_offset::<f32>(64, 1024)?;
        let dst = b.get_with_offset::<f32>(8, 2048)?;
        load(&src, &(0..128).map(|i| i as f32 * 0.25).collect::<Vec<_>>())?;
        reduce_sum(&dst, &src, &work, 128)?;
        Ok((get_reduce_repeat_sum_spr::<f32>()?, dst.get_value(0)?))
    });
    assert_eq!(v, 2032.0);
    assert_eq!(v, d);
    let e = err(&ASCEND310P, |_| get_reduce_repeat_sum_spr::<f32>());
    assert_eq!(e.category, Category::Unsupported);
    let e = err(&ASCEND910B, |_| get_reduce_repeat_sum_spr::<f16>());
    assert!(e.message.contains("no ReduceSum"), "{e}");
}
