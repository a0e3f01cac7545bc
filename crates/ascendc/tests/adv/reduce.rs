//! The index and reduce families of the high-level API: ArithProgression, Sum, Mean and the
//! patterned ReduceMax/ReduceMin/ReduceSum/ReduceMean, exact against a host emulation of the
//! device's instruction sequence, plus the pages' examples and the error cases.

use crate::ub_harness;

use ascendc::adv::common::Tmp;
use ascendc::adv::index::arith_progression;
use ascendc::adv::reduce::mean::mean_max_min_tmp_size;
use ascendc::adv::reduce::patterned::{reduce_max_max_min_tmp_size, reduce_sum_max_min_tmp_size};
use ascendc::adv::reduce::sum::sum_max_min_tmp_size;
use ascendc::adv::reduce::{
    mean, reduce_max, reduce_mean, reduce_min, reduce_sum, sum, ReducePattern, SumParams,
};
use ascendc::prelude::*;
use ascendc::Category;
use ub_harness::{error_on, run_p};

const PRODUCTS: [&str; 2] = ["a2", "310p"];

/// A deterministic value stream in roughly [-scale, scale).
fn values(n: usize, seed: u64, scale: f32) -> Vec<f32> {
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * scale
        })
        .collect()
}

/// The pairwise tree of one repeat: `lanes` lanes, those beyond `v` as +0, `add` per level.
fn tree<T: Copy>(v: &[T], lanes: usize, zero: T, add: impl Fn(T, T) -> T) -> T {
    let mut w: Vec<T> = (0..lanes)
        .map(|i| v.get(i).copied().unwrap_or(zero))
        .collect();
    while w.len() > 1 {
        w = w.chunks(2).map(|p| add(p[0], p[1])).collect();
    }
    w[0]
}

/// RepeatReduceSum in counter mode: one tree per repeat of `lanes`.
fn repeat_sums<T: Copy>(v: &[T], lanes: usize, zero: T, add: impl Fn(T, T) -> T + Copy) -> Vec<T> {
    v.chunks(lanes).map(|c| tree(c, lanes, zero, add)).collect()
}

/// Sum's sequence: repeat sums, then over the partial sums until one is left.
fn sum_row<T: Copy>(v: &[T], lanes: usize, zero: T, add: impl Fn(T, T) -> T + Copy) -> T {
    let mut w = repeat_sums(v, lanes, zero, add);
    while w.len() > 1 {
        w = repeat_sums(&w, lanes, zero, add);
    }
    w[0]
}

fn hadd(a: f16, b: f16) -> f16 {
    f16::from_f32(a.to_f32() + b.to_f32())
}

// ---------------------------------------------------------------- ArithProgression

/// The device's sequence: the first block by the scalar unit, then `Adds` of block and repeat
/// steps.
fn progression_f32(first: f32, diff: f32, count: usize) -> Vec<f32> {
    let (blk, rep) = (8, 64);
    let end = count.div_ceil(blk) * blk;
    let mut v = vec![0.0f32; end.max(if count > rep { rep } else { 0 })];
    for (i, x) in v.iter_mut().enumerate().take(blk.min(count)) {
        *x = first + diff * i as f32;
    }
    if count > blk {
        let (bstep, rstep) = (diff * blk as f32, diff * rep as f32);
        for i in blk..end.min(rep).max(if count > rep { rep } else { 0 }) {
            v[i] = v[i - blk] + bstep;
        }
        for i in rep..end {
            v[i] = v[i - rep] + rstep;
        }
    }
    v.truncate(count);
    v
}

#[test]
fn arith_progression_float_matches_the_device_sequence() {
    for p in PRODUCTS {
        for &count in &[1usize, 5, 8, 9, 63, 64, 65, 100, 128, 1000] {
            let (first, diff) = (0.3f32, 1.7f32);
            let got = run_p(p, |ub| {
                let d = ub.tensor::<f32>(1024, -1.0);
                arith_progression(&d, first, diff, count as i32)?;
                (0..count as u32)
                    .map(|i| d.get_value(i))
                    .collect::<Result<Vec<_>>>()
            });
            let want = progression_f32(first, diff, count);
            assert_eq!(
                got.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                want.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                "{p} count {count}"
            );
        }
    }
}

#[test]
fn arith_progression_integers_and_half() {
    let got = run_p("a2", |ub| {
        let d = ub.tensor::<i32>(256, 0);
        arith_progression(&d, -5i32, 3, 200)?;
        (0..200).map(|i| d.get_value(i)).collect::<Result<Vec<_>>>()
    });
    assert_eq!(got, (0..200).map(|i| -5 + 3 * i).collect::<Vec<i32>>());
    let got = run_p("310p", |ub| {
        let d = ub.tensor::<i16>(256, 0);
        arith_progression(&d, 7i16, 2, 150)?;
        (0..150).map(|i| d.get_value(i)).collect::<Result<Vec<_>>>()
    });
    assert_eq!(
        got,
        (0..150).map(|i| 7 + 2 * i as i16).collect::<Vec<i16>>()
    );
    // half: integers up to 2048 are exact, so the sequence is exact.
    let got = run_p("a2", |ub| {
        let d = ub.tensor::<f16>(512, f16::ZERO);
        arith_progression(&d, f16::from_f32(1.0), f16::from_f32(2.0), 300)?;
        (0..300).map(|i| d.get_value(i)).collect::<Result<Vec<_>>>()
    });
    assert_eq!(
        got.iter().map(|x| x.to_f32()).collect::<Vec<_>>(),
        (0..300).map(|i| 1.0 + 2.0 * i as f32).collect::<Vec<_>>()
    );
}

#[test]
fn arange_page_example() {
    // firstValue 1, diffValue 2, count 16 (the example's shape) as float.
    let got = run_p("a2", |ub| {
        let d = ub.tensor::<f32>(16, 0.0);
        arith_progression(&d, 1.0f32, 2.0, 16)?;
        (0..16).map(|i| d.get_value(i)).collect::<Result<Vec<_>>>()
    });
    assert_eq!(
        got,
        (0..16).map(|i| 1.0 + 2.0 * i as f32).collect::<Vec<_>>()
    );
}

#[test]
fn arith_progression_errors() {
    let e = error_on("a2", |ub| {
        let d = ub.tensor::<f32>(8, 0.0);
        arith_progression(&d, 0.0f32, 1.0, 0)
    });
    assert_eq!(e.category, Category::Range);
    assert!(e.message.contains("count"), "{e}");
    let e = error_on("a2", |ub| {
        let d = ub.tensor::<f32>(8, 0.0);
        arith_progression(&d, 0.0f32, 1.0, 9)
    });
    assert_eq!(e.category, Category::Size);
    let e = error_on("a2", |ub| {
        let d = ub.tensor::<u8>(64, 0);
        arith_progression(&d, 0u8, 1, 9)
    });
    assert_eq!(e.category, Category::Type);
}

// ---------------------------------------------------------------- Sum / Mean

#[test]
fn sum_page_example() {
    let got = run_p("a2", |ub| {
        let mut x = vec![f16::ZERO; 32];
        for (i, v) in [1.0, 2.0, 3.0].iter().enumerate() {
            x[i] = f16::from_f32(*v);
            x[16 + i] = f16::from_f32(*v + 3.0);
        }
        let s = ub.from(&x);
        let d = ub.tensor::<f16>(16, f16::ZERO);
        let t = ub.tensor::<u8>(32, 0);
        sum(
            &d,
            &s,
            Tmp::Shared(&t),
            SumParams {
                outter: 2,
                inner: 16,
                n: 3,
            },
        )?;
        (0..2).map(|i| d.get_value(i)).collect::<Result<Vec<_>>>()
    });
    assert_eq!(
        got.iter().map(|x| x.to_f32()).collect::<Vec<_>>(),
        vec![6.0, 15.0]
    );
}

#[test]
fn sum_float_and_half_match_the_tree() {
    for p in PRODUCTS {
        for &n in &[1u32, 7, 64, 65, 200, 4100] {
            let inner = n.div_ceil(8) * 8;
            let outter = 3;
            let x = values((outter * inner) as usize, n as u64, 100.0);
            let (got, want): (Vec<f32>, Vec<f32>) = (
                run_p(p, |ub| {
                    let s = ub.from(&x);
                    let d = ub.tensor::<f32>(8, 0.0);
                    let t = ub.tensor::<u8>(sum_max_min_tmp_size(n, 4).1.max(32), 0);
                    sum(&d, &s, Tmp::Shared(&t), SumParams { outter, inner, n })?;
                    (0..outter)
                        .map(|i| d.get_value(i))
                        .collect::<Result<Vec<_>>>()
                }),
                (0..outter as usize)
                    .map(|r| {
                        let row = &x[r * inner as usize..r * inner as usize + n as usize];
                        sum_row(row, 64, 0.0, |a, b| a + b)
                    })
                    .collect(),
            );
            assert_eq!(got, want, "{p} float n {n}");
            let inner = n.div_ceil(16) * 16;
            let xh: Vec<f16> = values((outter * inner) as usize, n as u64 + 9, 4.0)
                .iter()
                .map(|v| f16::from_f32(*v))
                .collect();
            let got = run_p(p, |ub| {
                let s = ub.from(&xh);
                let d = ub.tensor::<f16>(16, f16::ZERO);
                let t = ub.tensor::<u8>(sum_max_min_tmp_size(n, 2).1.max(32), 0);
                sum(&d, &s, Tmp::Shared(&t), SumParams { outter, inner, n })?;
                (0..outter)
                    .map(|i| d.get_value(i))
                    .collect::<Result<Vec<_>>>()
            });
            let want: Vec<f16> = (0..outter as usize)
                .map(|r| {
                    let row = &xh[r * inner as usize..r * inner as usize + n as usize];
                    sum_row(row, 128, f16::ZERO, hadd)
                })
                .collect();
            assert_eq!(
                got.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                want.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                "{p} half n {n}"
            );
        }
    }
}

#[test]
fn sum_edge_values() {
    let x = [
        f32::INFINITY,
        1.0,
        -0.0,
        1e-40,
        f32::MAX,
        f32::MAX,
        0.0,
        0.0,
    ];
    let got = run_p("a2", |ub| {
        let s = ub.from(&x);
        let d = ub.tensor::<f32>(8, 0.0);
        let t = ub.tensor::<u8>(32, 0);
        sum(
            &d,
            &s,
            Tmp::Shared(&t),
            SumParams {
                outter: 1,
                inner: 8,
                n: 8,
            },
        )?;
        d.get_value(0)
    });
    assert_eq!(got, tree(&x, 64, 0.0, |a, b| a + b));
}

#[test]
fn mean_all_accumulations() {
    for p in PRODUCTS {
        for &n in &[3u32, 64, 300] {
            // float / float
            let inner = n.div_ceil(8) * 8;
            let x = values((2 * inner) as usize, n as u64 + 3, 10.0);
            let got = run_p(p, |ub| {
                let s = ub.from(&x);
                let d = ub.tensor::<f32>(8, 0.0);
                let t = ub.tensor::<u8>(mean_max_min_tmp_size(n, 4, 4).1.max(64), 0);
                mean::<f32, f32>(
                    &d,
                    &s,
                    Tmp::Shared(&t),
                    SumParams {
                        outter: 2,
                        inner,
                        n,
                    },
                )?;
                (0..2).map(|i| d.get_value(i)).collect::<Result<Vec<_>>>()
            });
            let scale = 1.0f32 / n as f32;
            let want: Vec<f32> = (0..2)
                .map(|r| {
                    sum_row(&x[r * inner as usize..][..n as usize], 64, 0.0, |a, b| {
                        a + b
                    }) * scale
                })
                .collect();
            assert_eq!(got, want, "{p} float n {n}");
            // half / float
            let inner = n.div_ceil(16) * 16;
            let xh: Vec<f16> = values((2 * inner) as usize, n as u64 + 5, 10.0)
                .iter()
                .map(|v| f16::from_f32(*v))
                .collect();
            let got = run_p(p, |ub| {
                let s = ub.from(&xh);
                let d = ub.tensor::<f16>(16, f16::ZERO);
                let t = ub.tensor::<u8>(mean_max_min_tmp_size(n, 2, 4).1.max(64), 0);
                mean::<f16, f32>(
                    &d,
                    &s,
                    Tmp::Shared(&t),
                    SumParams {
                        outter: 2,
                        inner,
                        n,
                    },
                )?;
                (0..2).map(|i| d.get_value(i)).collect::<Result<Vec<_>>>()
            });
            let want: Vec<f16> = (0..2)
                .map(|r| {
                    let w: Vec<f32> = xh[r * inner as usize..][..n as usize]
                        .iter()
                        .map(|v| v.to_f32())
                        .collect();
                    let m = sum_row(&w, 64, 0.0, |a, b| a + b) * scale;
                    hadd(f16::from_f32(m), f16::ZERO)
                })
                .collect();
            assert_eq!(got, want, "{p} half/float n {n}");
            // half / half
            let got = run_p(p, |ub| {
                let s = ub.from(&xh);
                let d = ub.tensor::<f16>(16, f16::ZERO);
                let t = ub.tensor::<u8>(mean_max_min_tmp_size(n, 2, 2).1.max(64), 0);
                mean::<f16, f16>(
                    &d,
                    &s,
                    Tmp::Shared(&t),
                    SumParams {
                        outter: 2,
                        inner,
                        n,
                    },
                )?;
                (0..2).map(|i| d.get_value(i)).collect::<Result<Vec<_>>>()
            });
            let hs = f16::from_f32(scale);
            let want: Vec<f16> = (0..2)
                .map(|r| {
                    let s = sum_row(
                        &xh[r * inner as usize..][..n as usize],
                        128,
                        f16::ZERO,
                        hadd,
                    );
                    f16::from_f32(s.to_f32() * hs.to_f32())
                })
                .collect();
            assert_eq!(got, want, "{p} half/half n {n}");
        }
    }
}

#[test]
fn sum_and_mean_errors() {
    let e = error_on("a2", |ub| {
        let s = ub.tensor::<f32>(256, 1.0);
        let d = ub.tensor::<f32>(8, 0.0);
        let t = ub.tensor::<u8>(32, 0);
        sum(
            &d,
            &s,
            Tmp::Shared(&t),
            SumParams {
                outter: 1,
                inner: 256,
                n: 0,
            },
        )
    });
    assert_eq!(e.category, Category::Range);
    let e = error_on("a2", |ub| {
        let s = ub.tensor::<f32>(256, 1.0);
        let d = ub.tensor::<f32>(8, 0.0);
        let t = ub.tensor::<u8>(32, 0);
        sum(
            &d,
            &s,
            Tmp::Shared(&t),
            SumParams {
                outter: 2,
                inner: 256,
                n: 256,
            },
        )
    });
    assert_eq!(e.category, Category::Size);
    let e = error_on("a2", |ub| {
        let s = ub.tensor::<f32>(1024, 1.0);
        let d = ub.tensor::<f32>(8, 0.0);
        let t = ub.tensor::<u8>(32, 0);
        sum(
            &d,
            &s,
            Tmp::Shared(&t),
            SumParams {
                outter: 1,
                inner: 1024,
                n: 1024,
            },
        )
    });
    assert!(e.message.contains("sharedTmpBuffer"), "{e}");
    let e = error_on("a2", |ub| {
        let s = ub.tensor::<i32>(64, 1);
        let d = ub.tensor::<i32>(8, 0);
        sum(
            &d,
            &s,
            Tmp::Shared(&ub.tensor::<u8>(32, 0)),
            SumParams {
                outter: 1,
                inner: 8,
                n: 8,
            },
        )
    });
    assert_eq!(e.category, Category::Type);
    assert_eq!(sum_max_min_tmp_size(3, 2), (32, 32));
    assert_eq!(sum_max_min_tmp_size(4100, 4), (288, 288));
    assert_eq!(
        mean_max_min_tmp_size(300, 2, 4),
        (32 + 304 * 4, 32 + 304 * 4)
    );
}

// ---------------------------------------------------------------- patterned reductions

/// `by_first_axis`: fold rows beyond the largest power of two, then halve.
fn first_axis<T: Copy>(rows: Vec<Vec<T>>, op: impl Fn(T, T) -> T) -> Vec<T> {
    let first = rows.len();
    let mut split = 1usize << (usize::BITS - 1 - first.leading_zeros());
    let remain = first - split;
    let mut acc: Vec<Vec<T>>;
    if remain != 0 {
        acc = rows[..split].to_vec();
        for i in 0..remain {
            acc[i] = acc[i]
                .iter()
                .zip(&rows[split + i])
                .map(|(a, b)| op(*a, *b))
                .collect();
        }
    } else if split > 1 {
        split >>= 1;
        acc = (0..split)
            .map(|i| {
                rows[i]
                    .iter()
                    .zip(&rows[split + i])
                    .map(|(a, b)| op(*a, *b))
                    .collect()
            })
            .collect();
    } else {
        return rows[0].clone();
    }
    while split > 1 {
        split >>= 1;
        for i in 0..split {
            acc[i] = acc[i]
                .iter()
                .zip(&acc[split + i])
                .map(|(a, b)| op(*a, *b))
                .collect();
        }
    }
    acc[0].clone()
}

/// ReduceSum AR of one float row (the device's folding).
fn ar_sum_row(row: &[f32]) -> f32 {
    let last = row.len();
    let add = |a: f32, b: f32| a + b;
    if last <= 8 {
        return tree(row, 8, 0.0, add);
    }
    if last <= 64 {
        return tree(row, 64, 0.0, add);
    }
    let split = 1usize << (usize::BITS - 1 - last.leading_zeros());
    let mut per_row = split.max(8);
    if last == split {
        per_row >>= 1;
    }
    let tail = if last == split {
        last - per_row
    } else {
        last - split
    };
    let mut v = row[..per_row].to_vec();
    for i in 0..tail {
        v[i] += row[per_row + i];
    }
    while v.len() > 64 {
        v = v.chunks(2).map(|p| p[0] + p[1]).collect();
    }
    let b: Vec<f32> = v.chunks(8).map(|c| tree(c, 8, 0.0, add)).collect();
    tree(&b, 8, 0.0, add)
}

fn padded(x: &[f32], first: usize, last: usize, pad: usize) -> Vec<f32> {
    let mut v = vec![0.0; first * pad];
    for r in 0..first {
        v[r * pad..r * pad + last].copy_from_slice(&x[r * last..r * last + last]);
    }
    v
}

#[test]
fn reduce_max_min_float_and_half() {
    for &(first, last) in &[
        (5u32, 3u32),
        (9, 8),
        (20, 8),
        (7, 13),
        (4, 64),
        (3, 100),
        (2, 2100),
        (6, 1),
        (1, 70),
    ] {
        for pattern in [ReducePattern::AR, ReducePattern::RA] {
            for reuse in [false, true] {
                let (f, l) = (first as usize, last as usize);
                let pad = l.div_ceil(8) * 8;
                let x = values(f * l, (first * 31 + last) as u64, 1000.0);
                let src = padded(&x, f, l, pad);
                let n_out = if pattern == ReducePattern::AR { f } else { l };
                let (mx, mn) = run_p("a2", |ub| {
                    let s = ub.from(&src);
                    let s2 = ub.from(&src);
                    let d = ub.tensor::<f32>(n_out as u32 + 8, 0.0);
                    let d2 = ub.tensor::<f32>(n_out as u32 + 8, 0.0);
                    let t = ub.tensor::<u8>(
                        reduce_max_max_min_tmp_size([first, last], 4, pattern, reuse)
                            .1
                            .max(32),
                        0,
                    );
                    reduce_max(&d, &s, Tmp::Shared(&t), pattern, reuse, [first, last], true)?;
                    reduce_min(
                        &d2,
                        &s2,
                        Tmp::Shared(&t),
                        pattern,
                        reuse,
                        [first, last],
                        true,
                    )?;
                    let a = (0..n_out as u32)
                        .map(|i| d.get_value(i))
                        .collect::<Result<Vec<_>>>()?;
                    let b = (0..n_out as u32)
                        .map(|i| d2.get_value(i))
                        .collect::<Result<Vec<_>>>()?;
                    Ok((a, b))
                });
                let (wmx, wmn): (Vec<f32>, Vec<f32>) = if pattern == ReducePattern::AR {
                    (
                        (0..f)
                            .map(|r| x[r * l..][..l].iter().cloned().fold(f32::MIN, f32::max))
                            .collect(),
                        (0..f)
                            .map(|r| x[r * l..][..l].iter().cloned().fold(f32::MAX, f32::min))
                            .collect(),
                    )
                } else {
                    (
                        (0..l)
                            .map(|c| (0..f).map(|r| x[r * l + c]).fold(f32::MIN, f32::max))
                            .collect(),
                        (0..l)
                            .map(|c| (0..f).map(|r| x[r * l + c]).fold(f32::MAX, f32::min))
                            .collect(),
                    )
                };
                assert_eq!(mx, wmx, "max {first}x{last} {pattern:?} reuse {reuse}");
                assert_eq!(mn, wmn, "min {first}x{last} {pattern:?} reuse {reuse}");
            }
        }
    }
    // half, rows longer than a repeat
    let (first, last) = (3u32, 300u32);
    let x: Vec<f16> = values(3 * 304, 77, 100.0)
        .iter()
        .map(|v| f16::from_f32(*v))
        .collect();
    let got = run_p("a2", |ub| {
        let s = ub.from(&x);
        let d = ub.tensor::<f16>(16, f16::ZERO);
        let t = ub.tensor::<u8>(
            reduce_max_max_min_tmp_size([first, last], 2, ReducePattern::AR, false).1,
            0,
        );
        reduce_max(
            &d,
            &s,
            Tmp::Shared(&t),
            ReducePattern::AR,
            false,
            [first, last],
            true,
        )?;
        (0..3).map(|i| d.get_value(i)).collect::<Result<Vec<_>>>()
    });
    let want: Vec<f16> = (0..3)
        .map(|r| {
            x[r * 304..r * 304 + 300]
                .iter()
                .cloned()
                .fold(f16::MIN, f16::max)
        })
        .collect();
    assert_eq!(got, want);
}

#[test]
fn reduce_sum_and_mean_match_the_device_folding() {
    for &(first, last) in &[
        (5u32, 3u32),
        (9, 8),
        (3, 20),
        (4, 64),
        (3, 65),
        (2, 128),
        (3, 200),
        (30, 72),
        (1, 1000),
    ] {
        for pattern in [ReducePattern::AR, ReducePattern::RA] {
            for reuse in [false, true] {
                let (f, l) = (first as usize, last as usize);
                let pad = l.div_ceil(8) * 8;
                let x = values(f * l, (first * 7 + last) as u64, 50.0);
                let src = padded(&x, f, l, pad);
                let n_out = if pattern == ReducePattern::AR { f } else { l };
                let (got, got_mean) = run_p("a2", |ub| {
                    let s = ub.from(&src);
                    let s2 = ub.from(&src);
                    let d = ub.tensor::<f32>(n_out as u32 + 8, 0.0);
                    let d2 = ub.tensor::<f32>(n_out as u32 + 8, 0.0);
                    let t = ub.tensor::<u8>(
                        reduce_sum_max_min_tmp_size([first, last], pattern, reuse)
                            .1
                            .max(32),
                        0,
                    );
                    reduce_sum(&d, &s, Tmp::Shared(&t), pattern, reuse, [first, last], true)?;
                    reduce_mean(
                        &d2,
                        &s2,
                        Tmp::Shared(&t),
                        pattern,
                        reuse,
                        [first, last],
                        true,
                    )?;
                    let a = (0..n_out as u32)
                        .map(|i| d.get_value(i))
                        .collect::<Result<Vec<_>>>()?;
                    let b = (0..n_out as u32)
                        .map(|i| d2.get_value(i))
                        .collect::<Result<Vec<_>>>()?;
                    Ok((a, b))
                });
                let want: Vec<f32> = if pattern == ReducePattern::AR {
                    (0..f).map(|r| ar_sum_row(&x[r * l..][..l])).collect()
                } else {
                    first_axis(
                        (0..f).map(|r| x[r * l..][..l].to_vec()).collect(),
                        |a, b| a + b,
                    )
                };
                assert_eq!(got, want, "sum {first}x{last} {pattern:?} reuse {reuse}");
                let over = if pattern == ReducePattern::AR {
                    last
                } else {
                    first
                };
                let scale = 1.0f32 / over as f32;
                let want_mean: Vec<f32> = want.iter().map(|v| v * scale).collect();
                assert_eq!(
                    got_mean, want_mean,
                    "mean {first}x{last} {pattern:?} reuse {reuse}"
                );
            }
        }
    }
}

#[test]
fn reduce_page_example_and_errors() {
    // ReduceSum AR of a 2 × 3 float matrix (padded to 8): [6, 15].
    let got = run_p("a2", |ub| {
        let s = ub.from(&[
            1.0f32, 2.0, 3.0, 0.0, 0.0, 0.0, 0.0, 0.0, 4.0, 5.0, 6.0, 0.0, 0.0, 0.0, 0.0, 0.0,
        ]);
        let d = ub.tensor::<f32>(8, 0.0);
        let t = ub.tensor::<u8>(32, 0);
        reduce_sum(
            &d,
            &s,
            Tmp::Shared(&t),
            ReducePattern::AR,
            false,
            [2, 3],
            true,
        )?;
        (0..2).map(|i| d.get_value(i)).collect::<Result<Vec<_>>>()
    });
    assert_eq!(got, vec![6.0, 15.0]);
    let e = error_on("310p", |ub| {
        let s = ub.tensor::<f32>(16, 1.0);
        let d = ub.tensor::<f32>(8, 0.0);
        reduce_max(
            &d,
            &s,
            Tmp::Shared(&ub.tensor::<u8>(32, 0)),
            ReducePattern::AR,
            false,
            [2, 3],
            true,
        )
    });
    assert_eq!(e.category, Category::Unsupported);
    let e = error_on("a2", |ub| {
        let s = ub.tensor::<f16>(32, f16::ZERO);
        let d = ub.tensor::<f16>(16, f16::ZERO);
        reduce_sum(
            &d,
            &s,
            Tmp::Shared(&ub.tensor::<u8>(32, 0)),
            ReducePattern::AR,
            false,
            [2, 3],
            true,
        )
    });
    assert_eq!(e.category, Category::Type);
    let e = error_on("a2", |ub| {
        let s = ub.tensor::<f32>(16, 1.0);
        let d = ub.tensor::<f32>(8, 0.0);
        reduce_max(
            &d,
            &s,
            Tmp::Shared(&ub.tensor::<u8>(32, 0)),
            ReducePattern::AR,
            false,
            [2, 3],
            false,
        )
    });
    assert!(e.message.contains("srcInnerPad"), "{e}");
    let e = error_on("a2", |ub| {
        let s = ub.tensor::<f32>(4 * 24, 1.0);
        let d = ub.tensor::<f32>(8, 0.0);
        reduce_max(
            &d,
            &s,
            Tmp::Shared(&ub.tensor::<u8>(32, 0)),
            ReducePattern::AR,
            false,
            [4, 20],
            true,
        )
    });
    assert!(e.message.contains("sharedTmpBuffer"), "{e}");
    assert_eq!(
        reduce_sum_max_min_tmp_size([3, 200], ReducePattern::AR, false),
        (3 * 128 * 4, 3 * 128 * 4)
    );
    assert_eq!(
        reduce_max_max_min_tmp_size([5, 3], 4, ReducePattern::RA, false),
        (4 * 32, 4 * 32)
    );
}

/// Max relative error vs a float64 reference (printed for the docs' table; bounded here).
#[test]
fn error_against_f64() {
    let n = 4096u32;
    let x = values(n as usize, 4242, 1.0);
    let exact: f64 = x.iter().map(|v| *v as f64).sum();
    let (s, m, r, a) = run_p("a2", |ub| {
        let s = ub.from(&x);
        let d = ub.tensor::<f32>(8, 0.0);
        let t = ub.tensor::<u8>(1024, 0);
        sum(
            &d,
            &s,
            Tmp::Shared(&t),
            SumParams {
                outter: 1,
                inner: n,
                n,
            },
        )?;
        let sv = d.get_value(0)?;
        mean::<f32, f32>(
            &d,
            &s,
            Tmp::Shared(&t),
            SumParams {
                outter: 1,
                inner: n,
                n,
            },
        )?;
        let mv = d.get_value(0)?;
        let t2 = ub.tensor::<u8>(
            reduce_sum_max_min_tmp_size([1, n], ReducePattern::AR, false).1,
            0,
        );
        reduce_sum(
            &d,
            &s,
            Tmp::Shared(&t2),
            ReducePattern::AR,
            false,
            [1, n],
            true,
        )?;
        let rv = d.get_value(0)?;
        let p = ub.tensor::<f32>(4000, 0.0);
        arith_progression(&p, 0.1f32, 0.37, 4000)?;
        let mut worst = 0f64;
        for i in 0..4000 {
            let e = 0.1f64 + 0.37f64 * i as f64;
            worst = worst.max(((p.get_value(i)? as f64) - e).abs() / e);
        }
        Ok((sv, mv, rv, worst))
    });
    let rel = |v: f32, e: f64| ((v as f64) - e).abs() / e.abs();
    println!(
        "Sum float n=4096: {:e}; Mean float: {:e}; ReduceSum AR: {:e}; ArithProgression float 4000: {:e}",
        rel(s, exact),
        rel(m, exact / n as f64),
        rel(r, exact),
        a
    );
    assert!(rel(s, exact) < 1e-4 && rel(r, exact) < 1e-4 && a < 1e-5);
    let xh: Vec<f16> = values(2048, 99, 1.0)
        .iter()
        .map(|v| f16::from_f32(*v + 1.5))
        .collect();
    let exact: f64 = xh.iter().map(|v| v.to_f64()).sum();
    let (hs, hm) = run_p("a2", |ub| {
        let s = ub.from(&xh);
        let d = ub.tensor::<f16>(16, f16::ZERO);
        let t = ub.tensor::<u8>(16384, 0);
        sum(
            &d,
            &s,
            Tmp::Shared(&t),
            SumParams {
                outter: 1,
                inner: 2048,
                n: 2048,
            },
        )?;
        let a = d.get_value(0)?;
        mean::<f16, f32>(
            &d,
            &s,
            Tmp::Shared(&t),
            SumParams {
                outter: 1,
                inner: 2048,
                n: 2048,
            },
        )?;
        Ok((a, d.get_value(0)?))
    });
    println!(
        "Sum half n=2048: {:e}; Mean half/float: {:e}",
        rel(hs.to_f32(), exact),
        rel(hm.to_f32(), exact / 2048.0)
    );
    assert!(rel(hs.to_f32(), exact) < 2e-2 && rel(hm.to_f32(), exact / 2048.0) < 1e-3);
}
