//! Tensor transforms and data filtering of the high-level API (Pad, UnPad, Select with a byte
//! mask, DropOut): exact results against host references on A2 and 310P, the pages' worked
//! examples, the host tiling formulas, and the checks.

use crate::ub_harness;

use ascendc::adv::common::Tmp;
use ascendc::adv::filter::{
    drop_out, drop_out_max_min_tmp_size, select_max_min_tmp_size, select_with_bytes_mask,
    DropOutShapeInfo, SelectScalar, SelectWithBytesMaskShapeInfo,
};
use ascendc::adv::pad::{
    pad, pad_max_min_tmp_size, pad_tiling, unpad, unpad_max_min_tmp_size, unpad_tiling, PadParams,
    UnPadParams,
};
use ascendc::{f16, Category, Element, Product};
use ub_harness::*;

const PRODUCTS: [&str; 2] = ["A2", "310P"];

/// A small deterministic generator (xorshift).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn f32(&mut self) -> f32 {
        (self.next() % 20001) as f32 / 100.0 - 100.0
    }
}

// ---------------------------------------------------------------- Pad / UnPad

/// Pad of a `height × width` source of `T` by `left`/`right` columns of `value`, with the
/// minimum temporary space (more chunks) or the maximum, on `product`.
fn pad_case<T: Element>(
    product: &str,
    height: u32,
    width: u32,
    left: u16,
    right: u16,
    min_tmp: bool,
) {
    let src: Vec<T> = (0..height * width)
        .map(|i| T::from_f64((i % 2000) as f64))
        .collect();
    let (max, min) = pad_max_min_tmp_size(height, width, T::SIZE as u32);
    let tmp_bytes = if min_tmp { min } else { max };
    let tiling = pad_tiling(height, width, width, tmp_bytes, T::SIZE as u32);
    let out_w = width + left as u32 + right as u32;
    let got = run_p(product, |ub| {
        let s = ub.from(&src);
        let d = ub.tensor::<T>(height * out_w.div_ceil(16) * 16 + 64, T::from_f64(-1.0));
        let t = ub.tensor::<u8>(tmp_bytes, 0);
        let params = PadParams {
            left_pad: left,
            right_pad: right,
            pad_value: 321,
        };
        pad(&d, &s, &params, Tmp::Shared(&t), &tiling)?;
        d.to_vec()
    });
    for r in 0..height {
        for c in 0..out_w {
            let want = if c < left as u32 || c >= left as u32 + width {
                321.0
            } else {
                src[(r * width + c - left as u32) as usize].to_f64()
            };
            let g = got[(r * out_w + c) as usize].to_f64();
            assert_eq!(
                g, want,
                "{product} {height}x{width} +{left}/{right}: row {r} col {c}"
            );
        }
    }
}

#[test]
fn pad_page_example_half_16x15() {
    // 调用示例: 16×15 half, right pad 1 with 321 → rows of 0..14 then 321.
    for p in PRODUCTS {
        pad_case::<f16>(p, 16, 15, 0, 1, false);
    }
}

#[test]
fn pad_unaligned_float_and_int_several_chunks() {
    for p in PRODUCTS {
        pad_case::<f32>(p, 16, 31, 0, 1, false);
        pad_case::<f32>(p, 16, 31, 0, 1, true);
        pad_case::<f32>(p, 4, 70, 1, 1, true);
        pad_case::<i32>(p, 8, 13, 2, 1, true);
        pad_case::<u16>(p, 8, 41, 3, 4, true);
        pad_case::<i16>(p, 40, 15, 0, 1, false);
    }
}

#[test]
fn pad_aligned_width_overwrites_redundant_columns() {
    for p in PRODUCTS {
        // 16 × 16 half whose last 2 columns are redundant: they become 321, nothing else moves.
        let src: Vec<f16> = (0..256).map(|i| f16::from_f32(i as f32)).collect();
        let tiling = pad_tiling(16, 16, 14, 0, 2);
        let got = run_p(p, |ub| {
            let s = ub.from(&src);
            let d = ub.tensor::<f16>(256, h(-1.0));
            let t = ub.tensor::<u8>(32, 0);
            let params = PadParams {
                left_pad: 0,
                right_pad: 2,
                pad_value: 321,
            };
            pad(&d, &s, &params, Tmp::Shared(&t), &tiling)?;
            d.to_vec()
        });
        for (i, g) in got.iter().enumerate() {
            let want = if i % 16 >= 14 { 321.0 } else { i as f32 };
            assert_eq!(g.to_f32(), want, "{p} element {i}");
        }
    }
}

#[test]
fn pad_aligned_more_than_255_rows() {
    let src: Vec<f32> = (0..300 * 8).map(|i| i as f32).collect();
    let tiling = pad_tiling(300, 8, 7, 0, 4);
    let got = run_p("A2", |ub| {
        let s = ub.from(&src);
        let d = ub.tensor::<f32>(300 * 8, -1.0);
        let t = ub.tensor::<u8>(32, 0);
        let params = PadParams {
            left_pad: 0,
            right_pad: 1,
            pad_value: -5,
        };
        pad(&d, &s, &params, Tmp::Shared(&t), &tiling)?;
        d.to_vec()
    });
    for (i, g) in got.iter().enumerate() {
        let want = if i % 8 == 7 { -5.0 } else { i as f32 };
        assert_eq!(*g, want, "element {i}");
    }
}

#[test]
fn unpad_drops_right_columns() {
    for p in PRODUCTS {
        for (height, width, right) in [(16u32, 16u32, 1u16), (5, 48, 16), (3, 64, 16)] {
            let src: Vec<f16> = (0..height * width)
                .map(|i| f16::from_f32((i % 1000) as f32))
                .collect();
            let product = if p == "A2" {
                Product::Ascend910B
            } else {
                Product::Ascend310P
            };
            let (max, _) = unpad_max_min_tmp_size(product, height, width, 2);
            let tiling = unpad_tiling(height, width, max, 2);
            let out_w = width - right as u32;
            let got = run_p(p, |ub| {
                let s = ub.from(&src);
                let d = ub.tensor::<f16>(height * width + 64, h(-1.0));
                let t = ub.tensor::<u8>(max.max(32), 0);
                let params = UnPadParams {
                    left_pad: 0,
                    right_pad: right,
                };
                unpad(&d, &s, &params, Tmp::Shared(&t), &tiling)?;
                d.to_vec()
            });
            for r in 0..height {
                for c in 0..out_w {
                    let want = src[(r * width + c) as usize].to_f32();
                    assert_eq!(
                        got[(r * out_w + c) as usize].to_f32(),
                        want,
                        "{p} {height}x{width}-{right} r{r} c{c}"
                    );
                }
            }
        }
    }
}

#[test]
fn pad_host_formulas() {
    // GetPadMaxMinTmpSize: 2 halves of ⌈h·w/16⌉ units of 16 blocks; min one unit each.
    assert_eq!(pad_max_min_tmp_size(16, 31, 4), (31 * 1024, 1024));
    assert_eq!(pad_max_min_tmp_size(16, 15, 2), (15 * 1024, 1024));
    assert_eq!(
        unpad_max_min_tmp_size(Product::Ascend910B, 16, 16, 2),
        (0, 0)
    );
    assert_eq!(
        unpad_max_min_tmp_size(Product::Ascend310P, 16, 16, 2),
        (16 * 1024, 1024)
    );
    let t = pad_tiling(16, 31, 31, 1024, 4);
    assert_eq!(
        (
            t.tmp_buffer1_block_num,
            t.tmp_buffer1_row_num,
            t.tmp_buffer2_offset
        ),
        (1, 16, 128)
    );
    assert_eq!(
        (
            t.width_tiling,
            t.width_fractal,
            t.width_fractal_tail,
            t.width_fractal_tail_alingned
        ),
        (16, 1, 15, 16)
    );
    assert_eq!(
        (t.brcb_tiling, t.brcb_fractal, t.brcb_fractal_tail),
        (16, 31, 0)
    );
    assert_eq!(
        (
            t.max_repeat_times,
            t.brcb_tiling_repeat_times,
            t.brcb_tiling_repeat_times_tail
        ),
        (254, 0, 2)
    );
    assert_eq!(
        (
            t.blocks_per_row,
            t.height_tiling,
            t.height_fractal,
            t.height_fractal_tail
        ),
        (3, 255, 0, 16)
    );
    let u = unpad_tiling(16, 16, 2048, 2);
    assert_eq!(
        (
            u.tmp_buffer1_block_num,
            u.width_tiling,
            u.width_fractal,
            u.width_fractal_tail
        ),
        (2, 32, 1, 16)
    );
}

#[test]
fn pad_checks() {
    let e = error_on("A2", |ub| {
        let s = ub.tensor::<f32>(64, 0.0);
        let d = ub.tensor::<f32>(64, 0.0);
        let t = ub.tensor::<u8>(32, 0);
        let tiling = pad_tiling(4, 15, 15, 512, 4);
        pad(
            &d,
            &s,
            &PadParams {
                left_pad: 0,
                right_pad: 1,
                pad_value: 0,
            },
            Tmp::Shared(&t),
            &tiling,
        )
    });
    assert_eq!(e.category, Category::Size);
    assert!(e.message.contains("tmpBuffer1BlockNum"), "{}", e.message);
    let e = error_on("A2", |ub| {
        let s = ub.tensor::<u8>(64, 0);
        let d = ub.tensor::<u8>(64, 0);
        let tiling = pad_tiling(2, 32, 30, 0, 1);
        pad(&d, &s, &PadParams::default(), Tmp::Shared(&d), &tiling)
    });
    assert_eq!(e.category, Category::Type);
    let e = error_on("A2", |ub| {
        let s = ub.tensor::<f16>(64, h(0.0));
        let d = ub.tensor::<f16>(64, h(0.0));
        let tiling = pad_tiling(4, 16, 14, 0, 2);
        pad(
            &d,
            &s,
            &PadParams {
                left_pad: 0,
                right_pad: 3,
                pad_value: 0,
            },
            Tmp::Shared(&d.reinterpret_cast()),
            &tiling,
        )
    });
    assert_eq!(e.category, Category::Range);
}

// ---------------------------------------------------------------- Select

/// Select of `rows × src_last` elements with `rows × mask_last` masks of `U`, both scalar
/// positions, against the definition.
fn select_case<T: Element, U: Element>(
    product: &str,
    rows: u32,
    src_last: u32,
    mask_last: u32,
    reuse: bool,
) {
    let mut rng = Rng(0x1234_5678 + rows as u64 * 31 + mask_last as u64);
    let src: Vec<T> = (0..rows * src_last)
        .map(|_| T::from_f64(rng.f32() as f64))
        .collect();
    // Masks: mostly 0/1, some other bit patterns (any nonzero element selects).
    let mask: Vec<U> = (0..rows * mask_last)
        .map(|_| match rng.next() % 5 {
            0 | 1 => U::from_f64(0.0),
            2 | 3 => U::from_f64(1.0),
            _ => U::from_f64((rng.next() % 100 + 1) as f64),
        })
        .collect();
    let scalar = T::from_f64(-7.5);
    let (_, min) =
        select_max_min_tmp_size(rows * src_last, src_last, mask_last, U::SIZE as u32, reuse);
    for which in [SelectScalar::Second, SelectScalar::First] {
        let got = run_p(product, |ub| {
            let s = ub.from(&src);
            let m = ub.from(&mask);
            let d = ub.tensor::<T>(rows * src_last, T::from_f64(99.0));
            let t = ub.tensor::<u8>(min, 0);
            let info = SelectWithBytesMaskShapeInfo {
                first_axis: rows,
                src_last_axis: src_last,
                mask_last_axis: mask_last,
            };
            select_with_bytes_mask(&d, &s, scalar, which, &m, &t, &info, reuse)?;
            d.to_vec()
        });
        for r in 0..rows {
            for c in 0..src_last {
                let i = (r * src_last + c) as usize;
                let set = mask[(r * mask_last + c) as usize].to_f64() != 0.0;
                let want = match (which, set) {
                    (SelectScalar::Second, false) | (SelectScalar::First, true) => src[i],
                    _ => scalar,
                };
                assert_eq!(
                    got[i].to_f64(),
                    want.to_f64(),
                    "{product} {which:?} row {r} col {c}"
                );
            }
        }
    }
}

#[test]
fn select_matches_definition() {
    for p in PRODUCTS {
        select_case::<f16, u8>(p, 4, 64, 64, true);
        select_case::<f32, u8>(p, 3, 40, 64, false);
        select_case::<f32, u16>(p, 2, 1000, 1000, true);
        select_case::<f16, i16>(p, 5, 32, 48, true);
        select_case::<f16, u32>(p, 2, 64, 72, false);
        select_case::<f32, i32>(p, 4, 16, 16, true);
        select_case::<f16, u8>(p, 1, 8000, 8000, true);
    }
}

#[test]
fn select_checks() {
    let e = error_on("A2", |ub| {
        let s = ub.tensor::<f32>(64, 0.0);
        let m = ub.tensor::<u8>(64, 0);
        let t = ub.tensor::<u8>(512, 0);
        let info = SelectWithBytesMaskShapeInfo {
            first_axis: 1,
            src_last_axis: 64,
            mask_last_axis: 64,
        };
        select_with_bytes_mask(&s, &s, 1.0, SelectScalar::Second, &m, &t, &info, true)
    });
    assert_eq!(e.category, Category::Size);
    assert!(e.message.contains("1024"), "{}", e.message);
    let e = error_on("A2", |ub| {
        let s = ub.tensor::<i32>(64, 0);
        let m = ub.tensor::<u8>(64, 0);
        let t = ub.tensor::<u8>(2048, 0);
        let info = SelectWithBytesMaskShapeInfo {
            first_axis: 1,
            src_last_axis: 64,
            mask_last_axis: 64,
        };
        select_with_bytes_mask(&s, &s, 1, SelectScalar::Second, &m, &t, &info, true)
    });
    assert_eq!(e.category, Category::Type);
    assert_eq!(select_max_min_tmp_size(64, 64, 64, 1, false), (1024, 1024));
    assert_eq!(
        select_max_min_tmp_size(10000, 100, 128, 1, false),
        (20544 + 10016, 8704 + 10016)
    );
    assert_eq!(
        select_max_min_tmp_size(10000, 100, 128, 1, true),
        (20544, 8704)
    );
}

// ---------------------------------------------------------------- DropOut

/// DropOut of `rows × src_last` elements with byte masks of `mask_last` bytes per row (or bit
/// masks when `bits`), against the device's arithmetic: `src · mask` (exact) then `· T(1/p)`
/// rounded to `T`.
fn dropout_case<T: Element>(
    product: &str,
    rows: u32,
    src_last: u32,
    mask_last: u32,
    bits: bool,
    tmp_bytes: u32,
) {
    let mut rng = Rng(0xdead_beef ^ (src_last as u64) << 8);
    let src: Vec<T> = (0..rows * src_last)
        .map(|_| T::from_f64(rng.f32() as f64))
        .collect();
    let mask: Vec<u8> = (0..rows * mask_last)
        .map(|_| {
            if bits {
                rng.next() as u8
            } else {
                (rng.next() % 2) as u8
            }
        })
        .collect();
    let keep = 0.7f32;
    let div = T::from_f64((1.0f32 / keep) as f64);
    let got = run_p(product, |ub| {
        let s = ub.from(&src);
        let m = ub.from(&mask);
        let d = ub.tensor::<T>(rows * src_last, T::from_f64(99.0));
        let t = ub.tensor::<u8>(tmp_bytes, 0);
        let info = DropOutShapeInfo {
            first_axis: rows,
            src_last_axis: src_last,
            mask_last_axis: mask_last,
        };
        drop_out(&d, &s, &m, Tmp::Shared(&t), keep, &info, false, 0)?;
        d.to_vec()
    });
    for r in 0..rows {
        for c in 0..src_last {
            let i = (r * src_last + c) as usize;
            let keep_it = if bits {
                mask[(r * mask_last + c / 8) as usize] >> (c % 8) & 1 == 1
            } else {
                mask[(r * mask_last + c) as usize] != 0
            };
            let kept = if keep_it { src[i].to_f64() } else { 0.0 };
            let want = T::from_f64(kept * div.to_f64());
            assert_eq!(got[i].to_f64(), want.to_f64(), "{product} row {r} col {c}");
        }
    }
}

#[test]
fn dropout_byte_and_bit_modes() {
    for p in PRODUCTS {
        dropout_case::<f16>(p, 4, 64, 64, false, 512);
        dropout_case::<f32>(p, 4, 64, 64, false, 512);
        dropout_case::<f32>(p, 3, 32, 64, false, 1024);
        dropout_case::<f16>(p, 2, 512, 64, true, 512);
        dropout_case::<f32>(p, 2, 256, 64, true, 512);
        dropout_case::<f16>(p, 1, 3000, 3000, false, 512);
    }
}

#[test]
fn dropout_checks() {
    assert_eq!(drop_out_max_min_tmp_size(16), (512, 512));
    assert_eq!(drop_out_max_min_tmp_size(1000), (8000, 512));
    let e = error_on("A2", |ub| {
        let s = ub.tensor::<f32>(64, 0.0);
        let m = ub.tensor::<u8>(64, 0);
        let t = ub.tensor::<u8>(160, 0);
        let info = DropOutShapeInfo {
            first_axis: 1,
            src_last_axis: 64,
            mask_last_axis: 64,
        };
        drop_out(&s, &s, &m, Tmp::Shared(&t), 0.5, &info, false, 0)
    });
    assert_eq!(e.category, Category::Size);
    let e = error_on("A2", |ub| {
        let s = ub.tensor::<f32>(64, 0.0);
        let m = ub.tensor::<u8>(64, 0);
        let t = ub.tensor::<u8>(512, 0);
        let info = DropOutShapeInfo {
            first_axis: 1,
            src_last_axis: 64,
            mask_last_axis: 64,
        };
        drop_out(&s, &s, &m, Tmp::Shared(&t), 0.5, &info, false, 7)
    });
    assert_eq!(e.category, Category::Range);
}
