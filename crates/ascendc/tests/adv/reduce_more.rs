//! ReduceProd, ReduceAny, ReduceAll (patterned, A2) and ReduceXorSum (A2 and 310P) against a
//! host emulation of the device's order of operations, the pages' examples, the host sizes
//! and the error cases.

use crate::ub_harness;

use ascendc::adv::common::Tmp;
use ascendc::adv::reduce::logical::{
    reduce_any_all_max_min_tmp_size, reduce_prod_max_min_tmp_size,
};
use ascendc::adv::reduce::xor_sum::reduce_xor_sum_max_min_tmp_size;
use ascendc::adv::reduce::{reduce_all, reduce_any, reduce_prod, reduce_xor_sum, ReducePattern};
use ascendc::prelude::*;
use ascendc::{Category, Element};
use ub_harness::{error_on, run_p};

/// A deterministic value stream in [lo, hi).
fn values(n: usize, seed: u64, lo: f32, hi: f32) -> Vec<f32> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            lo + (hi - lo) * ((s >> 40) as f32 / (1u64 << 24) as f32)
        })
        .collect()
}

/// The largest power of two not above `n`.
fn pow2(n: usize) -> usize {
    1 << (usize::BITS - 1 - n.leading_zeros())
}

/// ReduceProd of one row in the device's order: fold the part past the power-of-two prefix,
/// halve to 8 lanes, then (Brcb'd blocks) fold and halve the lanes.
fn prod_row(row: &[f32]) -> f32 {
    let last = row.len();
    let split = pow2(last);
    let remain = last - split;
    let mut v = row.to_vec();
    if last >= 8 && remain != 0 {
        for i in 0..remain {
            v[i] *= v[split + i];
        }
    }
    let mut k = split;
    while k > 8 {
        k /= 2;
        for i in 0..k {
            v[i] *= v[i + k];
        }
    }
    let mut tail = if last < 8 { split } else { 8 };
    if split != last && tail < 8 {
        for i in 0..remain {
            v[i] *= v[split + i];
        }
    }
    while tail > 1 {
        tail /= 2;
        for i in 0..tail {
            v[i] *= v[i + tail];
        }
    }
    v[0]
}

/// The first-axis halving of `rows` (each a column vector slice) with `op`.
fn by_first<T: Copy>(rows: &[Vec<T>], op: impl Fn(T, T) -> T) -> Vec<T> {
    let first = rows.len();
    let mut split = pow2(first);
    let remain = first - split;
    let mut t: Vec<Vec<T>> = rows[..split].to_vec();
    if remain != 0 {
        for i in 0..remain {
            t[i] = t[i]
                .iter()
                .zip(&rows[split + i])
                .map(|(&a, &b)| op(a, b))
                .collect();
        }
    }
    while split > 1 {
        split /= 2;
        for i in 0..split {
            t[i] = t[i]
                .iter()
                .zip(&t[i + split])
                .map(|(&a, &b)| op(a, b))
                .collect();
        }
    }
    t[0].clone()
}

/// A patterned reduction's signature: `(dst, src, tmp, pattern, isReuseSource, shape,
/// isSrcInnerPad)`.
type Patterned<T> =
    fn(&LocalTensor<T>, &LocalTensor<T>, Tmp, ReducePattern, bool, [u32; 2], bool) -> Result<()>;

/// Runs a patterned reduction of `[first, last]` rows padded to `pad` (tmp from the host size).
#[allow(clippy::too_many_arguments)]
fn run_patterned<T: Element>(
    f: Patterned<T>,
    data: &[T],
    first: u32,
    last: u32,
    pattern: ReducePattern,
    reuse: bool,
    tmp_bytes: u32,
) -> Vec<T> {
    run_p("a2", |ub| {
        let tmp = ub.tensor::<u8>(tmp_bytes.max(32), 0);
        let s = ub.from(data);
        let n = if pattern == ReducePattern::AR {
            first
        } else {
            last
        };
        let d = ub.tensor::<T>(n.div_ceil(32) * 32, T::default());
        f(
            &d,
            &s,
            Tmp::Shared(&tmp),
            pattern,
            reuse,
            [first, last],
            true,
        )?;
        Ok((0..n).map(|i| d.get_value(i).unwrap()).collect())
    })
}

#[test]
fn reduce_prod_matches_the_device_order() {
    for (seed, &(first, last)) in [
        (2u32, 8u32),
        (3, 5),
        (4, 13),
        (2, 64),
        (3, 100),
        (1, 300),
        (5, 1),
        (7, 31),
    ]
    .iter()
    .enumerate()
    {
        let pad = last.div_ceil(8) * 8;
        let raw = values((first * pad) as usize, seed as u64, 0.5, 1.6);
        let rows: Vec<Vec<f32>> = (0..first as usize)
            .map(|r| raw[r * pad as usize..r * pad as usize + last as usize].to_vec())
            .collect();
        for pattern in [ReducePattern::AR, ReducePattern::RA] {
            for reuse in [false, true] {
                let (tmp, _) = reduce_prod_max_min_tmp_size([first, last], pattern, reuse);
                let got = run_patterned(reduce_prod::<f32>, &raw, first, last, pattern, reuse, tmp);
                let want: Vec<f32> = match pattern {
                    ReducePattern::AR => rows.iter().map(|r| prod_row(r)).collect(),
                    ReducePattern::RA => by_first(&rows, |a, b| a * b),
                };
                let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(
                    bits(&got),
                    bits(&want),
                    "[{first}, {last}] {pattern:?} reuse {reuse}"
                );
            }
        }
    }
    // The page's example.
    let src = [
        1., 2., 3., 4., 5., 6., 7., 8., 1., 2., 0.5, 4., 0.5, 0.5, 5., 6.,
    ];
    let got = run_patterned(reduce_prod::<f32>, &src, 2, 8, ReducePattern::AR, true, 256);
    assert_eq!(got, [40320.0, 30.0]);
}

#[test]
fn reduce_any_all_take_the_maximum_and_minimum() {
    for (seed, &(first, last)) in [
        (2u32, 8u32),
        (3, 5),
        (4, 40),
        (2, 64),
        (3, 100),
        (1, 700),
        (5, 33),
    ]
    .iter()
    .enumerate()
    {
        for size in [4u32, 1] {
            let per_blk = 32 / size;
            let pad = last.div_ceil(per_blk) * per_blk;
            let bits: Vec<f32> = values((first * pad) as usize, 7 + seed as u64, 0.0, 1.0)
                .iter()
                .map(|&x| if x < 0.9 { 0.0 } else { 1.0 })
                .collect();
            let rows: Vec<Vec<f32>> = (0..first as usize)
                .map(|r| bits[r * pad as usize..r * pad as usize + last as usize].to_vec())
                .collect();
            for pattern in [ReducePattern::AR, ReducePattern::RA] {
                for reuse in [false, true] {
                    let (tmp, _) =
                        reduce_any_all_max_min_tmp_size([first, last], size, pattern, reuse);
                    let want_any: Vec<f32> = match pattern {
                        ReducePattern::AR => rows
                            .iter()
                            .map(|r| r.iter().cloned().fold(0.0, f32::max))
                            .collect(),
                        ReducePattern::RA => by_first(&rows, f32::max),
                    };
                    let want_all: Vec<f32> = match pattern {
                        ReducePattern::AR => rows
                            .iter()
                            .map(|r| r.iter().cloned().fold(1.0, f32::min))
                            .collect(),
                        ReducePattern::RA => by_first(&rows, f32::min),
                    };
                    let what = format!("[{first}, {last}] size {size} {pattern:?} reuse {reuse}");
                    if size == 4 {
                        let any = run_patterned(
                            reduce_any::<f32>,
                            &bits,
                            first,
                            last,
                            pattern,
                            reuse,
                            tmp,
                        );
                        let all = run_patterned(
                            reduce_all::<f32>,
                            &bits,
                            first,
                            last,
                            pattern,
                            reuse,
                            tmp,
                        );
                        assert_eq!((any, all), (want_any, want_all), "{what}");
                    } else {
                        let b: Vec<u8> = bits.iter().map(|&x| x as u8).collect();
                        let any =
                            run_patterned(reduce_any::<u8>, &b, first, last, pattern, reuse, tmp);
                        let all =
                            run_patterned(reduce_all::<u8>, &b, first, last, pattern, reuse, tmp);
                        let u = |v: Vec<f32>| v.iter().map(|&x| x as u8).collect::<Vec<_>>();
                        assert_eq!((any, all), (u(want_any), u(want_all)), "{what}");
                    }
                }
            }
        }
    }
    // The page's example.
    let src = [
        0., 1., 1., 0., 1., 0., 1., 1., 0., 1., 0., 1., 0., 1., 1., 0.,
    ];
    assert_eq!(
        run_patterned(reduce_any::<f32>, &src, 2, 8, ReducePattern::AR, true, 0),
        [1.0, 1.0]
    );
    assert_eq!(
        run_patterned(reduce_all::<f32>, &src, 2, 8, ReducePattern::AR, true, 0),
        [0.0, 0.0]
    );
}

/// ReduceXorSum on `p`: the int16 result.
fn xor_sum(p: &str, a: &[i16], b: &[i16], reuse: bool) -> i16 {
    let (tmp, _) = reduce_xor_sum_max_min_tmp_size(a.len() as u32, 2, reuse);
    run_p(p, |ub| {
        let t = ub.tensor::<u8>(tmp, 0);
        let (x, y) = (ub.from(a), ub.from(b));
        let d = ub.tensor::<i16>(16, 0);
        reduce_xor_sum(&d, &x, &y, Tmp::Shared(&t), reuse, a.len() as u32)?;
        d.get_value(0)
    })
}

#[test]
fn reduce_xor_sum_sums_the_xors() {
    for p in ["a2", "310p"] {
        for (seed, n) in [32usize, 96, 1024, 3008].into_iter().enumerate() {
            let a: Vec<i16> = values(n, seed as u64, -16.0, 16.0)
                .iter()
                .map(|&x| x as i16)
                .collect();
            let b: Vec<i16> = values(n, 99 + seed as u64, -16.0, 16.0)
                .iter()
                .map(|&x| x as i16)
                .collect();
            let sum: i32 = a.iter().zip(&b).map(|(&x, &y)| (x ^ y) as i32).sum();
            // The inference series goes through half on the way back.
            let want = if p == "310p" {
                f16::from_f32(sum as f32).to_f32() as i32
            } else {
                sum
            };
            let want = want.clamp(-32768, 32767) as i16;
            for reuse in [false, true] {
                assert_eq!(xor_sum(p, &a, &b, reuse), want, "{p} n {n} reuse {reuse}");
            }
        }
        // The page's example.
        assert_eq!(xor_sum(p, &[0; 32], &[1; 32], false), 32);
    }
}

#[test]
fn host_sizes_follow_the_devices_formulas() {
    use ReducePattern::{AR, RA};
    assert_eq!(reduce_prod_max_min_tmp_size([2, 8], AR, true), (256, 256));
    assert_eq!(
        reduce_prod_max_min_tmp_size([4, 100], AR, false),
        ((64 + 32) * 4 + 256, (64 + 32) * 4 + 256)
    );
    assert_eq!(
        reduce_prod_max_min_tmp_size([4, 64], AR, false).0,
        (32 + 32) * 4 + 256
    );
    assert_eq!(reduce_prod_max_min_tmp_size([5, 3], RA, false).0, 4 * 32);
    assert_eq!(
        reduce_any_all_max_min_tmp_size([3, 40], 1, AR, true).0,
        64 * 2 + 96
    );
    assert_eq!(
        reduce_any_all_max_min_tmp_size([8, 40], 1, RA, false).0,
        4 * 64
    );
    assert_eq!(
        reduce_any_all_max_min_tmp_size([3, 40], 4, AR, false).0,
        3 * 8 * 4
    );
    assert_eq!(reduce_xor_sum_max_min_tmp_size(100, 2, false), (768, 768));
    assert_eq!(reduce_xor_sum_max_min_tmp_size(10, 2, true), (512, 512));
}

#[test]
fn errors_name_the_parameter_and_the_rule() {
    let e = error_on("a2", |ub| {
        let t = ub.tensor::<u8>(64, 0);
        let s = ub.tensor::<f32>(64, 1.0);
        reduce_prod(
            &s,
            &s.at(32)?,
            Tmp::Shared(&t),
            ReducePattern::AR,
            false,
            [4, 8],
            true,
        )
    });
    assert_eq!(e.category, Category::Size);
    assert!(e.message.contains("GetReduceProdMaxMinTmpSize"), "{e}");
    let e = error_on("a2", |ub| {
        let t = ub.tensor::<u8>(1024, 0);
        let s = ub.tensor::<f16>(64, f16::ONE);
        reduce_prod(
            &s,
            &s,
            Tmp::Shared(&t),
            ReducePattern::AR,
            false,
            [4, 8],
            true,
        )
    });
    assert_eq!(e.category, Category::Type);
    let e = error_on("310p", |ub| {
        let t = ub.tensor::<u8>(1024, 0);
        let s = ub.tensor::<u8>(64, 1);
        reduce_any(
            &s,
            &s,
            Tmp::Shared(&t),
            ReducePattern::AR,
            false,
            [2, 32],
            true,
        )
    });
    assert_eq!(e.category, Category::Unsupported);
    let e = error_on("a2", |ub| {
        let t = ub.tensor::<u8>(1024, 0);
        let s = ub.tensor::<u8>(64, 1);
        reduce_all(
            &s,
            &s,
            Tmp::Shared(&t),
            ReducePattern::RA,
            false,
            [2, 32],
            false,
        )
    });
    assert!(e.message.contains("srcInnerPad"), "{e}");
    let e = error_on("a2", |ub| {
        let t = ub.tensor::<u8>(600, 0);
        let s = ub.tensor::<i16>(128, 1);
        reduce_xor_sum(&s, &s, &s, Tmp::Shared(&t), false, 128)
    });
    assert!(e.message.contains("calCount = 128"), "{e}");
    // The host size of 1000 elements splits into parts of 992 (whole 32s): the device's check
    // refuses it too.
    let e = error_on("a2", |ub| {
        let t = ub.tensor::<u8>(reduce_xor_sum_max_min_tmp_size(1000, 2, false).0, 0);
        let s = ub.tensor::<i16>(1000, 1);
        reduce_xor_sum(&s, &s, &s, Tmp::Shared(&t), false, 1000)
    });
    assert!(e.message.contains("992 elements"), "{e}");
    let e = error_on("a2", |ub| {
        let t = ub.tensor::<u8>(1024, 0);
        let s = ub.tensor::<i32>(64, 1);
        reduce_xor_sum(&s, &s, &s, Tmp::Shared(&t), false, 64)
    });
    assert_eq!(e.category, Category::Type);
    let e = error_on("a2", |ub| {
        let t = ub.tensor::<u8>(1024, 0);
        let s = ub.tensor::<i16>(64, 1);
        reduce_xor_sum(&s, &s, &s, Tmp::Shared(&t), false, 65)
    });
    assert!(e.message.contains("`calCount` = 65"), "{e}");
}

#[test]
fn reduce_prod_error_against_f64() {
    let (first, last) = (4u32, 1000u32);
    let raw = values((first * last) as usize, 5, 0.99, 1.01);
    let (tmp, _) = reduce_prod_max_min_tmp_size([first, last], ReducePattern::AR, false);
    let got = run_patterned(
        reduce_prod::<f32>,
        &raw,
        first,
        last,
        ReducePattern::AR,
        false,
        tmp,
    );
    let mut worst = 0f64;
    for r in 0..first as usize {
        let p: f64 = raw[r * 1000..(r + 1) * 1000]
            .iter()
            .map(|&x| x as f64)
            .product();
        worst = worst.max(((got[r] as f64 - p) / p).abs());
    }
    println!("ReduceProd AR float, 4 x 1000 in [0.99, 1.01): max rel error {worst:.2e}");
    assert!(worst < 2e-6, "{worst}");
}
