//! `LoadData` for convolution (image to column) with `LoadData3DParamsV2` / `V2Pro` and its
//! registers (`SetFmatrix`, `SetLoadDataPaddingValue`, `SetLoadDataRepeat`,
//! `SetLoadDataBoundary`). The expected destinations follow the reference pseudo-code of the
//! vendor's load_data_l12l0 sample (load3d.py: the im2col array, the slice, and the reshapes and
//! transposes of move_to_l0a / move_to_l0b), written out here with plain loops; the seven test
//! cases of that script are reproduced, plus padding, strides, dilation, repeats and the
//! boundary.

use crate::common;
use ascendc::api::cube::load3d::*;
use ascendc::chip::{ASCEND310B, ASCEND310P, ASCEND910};
use ascendc::prelude::*;
use ascendc::{Category, ChipProfile, TensorElement};
use common::*;

/// A feature map `c1 × h × w × c0` and the kernel geometry.
#[derive(Clone, Copy)]
struct Case {
    c1: usize,
    h: usize,
    w: usize,
    c0: usize,
    pad: [usize; 4],
    stride: (usize, usize),
    filter: (usize, usize),
    dilation: (usize, usize),
    m_start: usize,
    k_start: usize,
    m_ext: usize,
    k_ext: usize,
}

/// load3d.py's nc1hwc0_im2col: `[c1][kh · fw + kw][pixel][c0]`, pad value outside the map.
fn im2col<T: Copy>(fm: &[T], c: &Case, pad_value: T) -> (Vec<T>, usize, usize) {
    let [pl, pr, pt, pb] = c.pad;
    let (fh, fw) = c.filter;
    let (dh, dw) = c.dilation;
    let (hp, wp) = (c.h + pt + pb, c.w + pl + pr);
    let (ho, wo) = (
        (hp - ((fh - 1) * dh + 1)) / c.stride.0 + 1,
        (wp - ((fw - 1) * dw + 1)) / c.stride.1 + 1,
    );
    let kflat = fh * fw;
    let mut out = vec![pad_value; c.c1 * kflat * ho * wo * c.c0];
    for g in 0..c.c1 {
        for kh in 0..fh {
            for kw in 0..fw {
                for oh in 0..ho {
                    for ow in 0..wo {
                        let (y, x) = (oh * c.stride.0 + kh * dh, ow * c.stride.1 + kw * dw);
                        for q in 0..c.c0 {
                            let v = if y < pt || x < pl || y - pt >= c.h || x - pl >= c.w {
                                pad_value
                            } else {
                                fm[((g * c.h + y - pt) * c.w + x - pl) * c.c0 + q]
                            };
                            out[(((g * kflat + kh * fw + kw) * ho + oh) * wo + ow) * c.c0 + q] = v;
                        }
                    }
                }
            }
        }
    }
    (out, ho * wo, kflat)
}

/// The slice S[m][k] of the 2-D view `[c1 · kflat][pixel][c0]`.
fn slice<T: Copy>(im: &[T], rows: usize, c: &Case, m: usize, k: usize) -> T {
    let (kk, p) = (c.k_start + k, c.m_start + m);
    im[((kk / c.c0) * rows + p) * c.c0 + kk % c.c0]
}

/// The destination move_to_l0a / move_to_l0b builds, as (element index, value).
fn reference<T: Copy>(
    im: &[T],
    rows: usize,
    c: &Case,
    to_b: bool,
    transpose: bool,
) -> Vec<(usize, T)> {
    let (m1, c0) = (c.m_ext.div_ceil(16), c.c0);
    let s = |m: usize, k: usize| slice(im, rows, c, m, k);
    let mut out = Vec::new();
    match (to_b, transpose, c0) {
        // [m1][k1][16][c0]
        (false, false, _) => {
            let k1 = c.k_ext / c0;
            for mb in 0..m1 {
                for kb in 0..k1 {
                    for r in 0..16 {
                        for q in 0..c0 {
                            if mb * 16 + r < c.m_ext {
                                out.push((
                                    ((mb * k1 + kb) * 16 + r) * c0 + q,
                                    s(mb * 16 + r, kb * c0 + q),
                                ));
                            }
                        }
                    }
                }
            }
        }
        // b16, L0A transposed: [k1][m1][c0][16]; L0B: [m1][k1][c0][16].
        (_, _, 16) => {
            let k1 = c.k_ext / 16;
            for mb in 0..m1 {
                for kb in 0..k1 {
                    for q in 0..16 {
                        for r in (0..16).filter(|r| mb * 16 + r < c.m_ext) {
                            let f = if to_b { mb * k1 + kb } else { kb * m1 + mb };
                            out.push(((f * 16 + q) * 16 + r, s(mb * 16 + r, kb * 16 + q)));
                        }
                    }
                }
            }
        }
        // b32: rows split into halves of 8, K padded to 16 (padding not written).
        (_, _, 8) => {
            let kp = c.k_ext.div_ceil(16) * 16;
            for mb in 0..m1 {
                for half in 0..2 {
                    for k in 0..c.k_ext {
                        for mm in (0..8).filter(|mm| mb * 16 + half * 8 + mm < c.m_ext) {
                            let v = s(mb * 16 + half * 8 + mm, k);
                            let at = if to_b {
                                ((mb * 2 + half) * kp + k) * 8 + mm
                            } else {
                                ((((k / 16) * m1 + mb) * 2 + half) * 16 + k % 16) * 8 + mm
                            };
                            out.push((at, v));
                        }
                    }
                }
            }
        }
        _ => unreachable!(),
    }
    out
}

fn params<T: TensorElement>(c: &Case, transpose: bool, pad_value: T) -> LoadData3DParamsV2<T> {
    LoadData3DParamsV2 {
        pad_list: c.pad.map(|x| x as u8),
        l1_h: c.h as u16,
        l1_w: c.w as u16,
        channel_size: (c.c1 * c.c0) as u16,
        k_extension: c.k_ext as u16,
        m_extension: c.m_ext as u16,
        k_start_pt: c.k_start as u16,
        m_start_pt: c.m_start as u16,
        stride_w: c.stride.1 as u8,
        stride_h: c.stride.0 as u8,
        filter_w: c.filter.1 as u8,
        filter_h: c.filter.0 as u8,
        dilation_filter_w: c.dilation.1 as u8,
        dilation_filter_h: c.dilation.0 as u8,
        en_transpose: transpose,
        pad_value,
        ..Default::default()
    }
}

/// The feature map: element i is `i % 251` (as T).
fn feature_map<T: Element>(c: &Case) -> Vec<T> {
    (0..c.c1 * c.h * c.w * c.c0)
        .map(|i| T::from_f64((i % 251) as f64))
        .collect()
}

/// Loads `fm` into L1 and runs `load` into a destination of `dst_elems` elements first holding
/// 99; returns the destination.
fn run_load<T: Element>(
    profile: &'static ChipProfile,
    fm: &[T],
    to_b: bool,
    dst_elems: usize,
    load: impl Fn(&LocalTensor<T>, &LocalTensor<T>) -> Result<()> + Sync,
) -> Vec<T> {
    run_load_over(profile, fm, to_b, dst_elems, T::from_f64(99.0), load)
}

/// [`run_load`] for any tensor element type, the destination first holding `sentinel`.
fn run_load_over<T: TensorElement>(
    profile: &'static ChipProfile,
    fm: &[T],
    to_b: bool,
    dst_elems: usize,
    sentinel: T,
    load: impl Fn(&LocalTensor<T>, &LocalTensor<T>) -> Result<()> + Sync,
) -> Vec<T> {
    let out = Slot::new();
    run_on(profile, || {
        let src = LocalTensor::<T>::new_at(TPosition::A1, 0, fm.len() as u32)?;
        for (i, &v) in fm.iter().enumerate() {
            src.set_value(i as u32, v)?;
        }
        let pos = if to_b { TPosition::B2 } else { TPosition::A2 };
        let dst = LocalTensor::<T>::new_at(pos, 0, dst_elems as u32)?;
        for i in 0..dst_elems as u32 {
            dst.set_value(i, sentinel)?;
        }
        load(&dst, &src)?;
        out.put(dst.to_vec()?);
        Ok(())
    });
    out.get()
}

/// Runs case `c` with `LoadData3DParamsV2` and checks the destination against the reference,
/// and that nothing else was written.
fn check<T: Element>(c: Case, to_b: bool, transpose: bool, pad_value: T) {
    let fm = feature_map::<T>(&c);
    let (im, rows, _) = im2col(&fm, &c, pad_value);
    let want = reference(&im, rows, &c, to_b, transpose);
    let elems = 4096;
    let got = run_load(ChipProfile::default_profile(), &fm, to_b, elems, |d, s| {
        load_data_3d_v2(
            d,
            s,
            params(&c, transpose, pad_value),
            IS_RESER_LOAD3D_DEFAULT_CONFIG,
        )
    });
    let mut expect = vec![T::from_f64(99.0); elems];
    for (at, v) in want {
        expect[at] = v;
    }
    assert_eq!(got, expect);
}

const BASE: Case = Case {
    c1: 3,
    h: 8,
    w: 8,
    c0: 16,
    pad: [0; 4],
    stride: (1, 1),
    filter: (1, 1),
    dilation: (1, 1),
    m_start: 32,
    k_start: 0,
    m_ext: 32,
    k_ext: 32,
};

#[test]
fn script_case_b8_to_l0a() {
    let c = Case {
        c0: 32,
        k_ext: 64,
        ..BASE
    };
    check::<i8>(c, false, false, 0);
}

/// int4b_t into L0A (A2/A3/200I-500 A2; C0 = 64, two elements to a byte): the same unfold, on
/// nibbles; a 2 × 3 kernel with padding so pad values land between real ones.
#[test]
fn int4_to_l0a() {
    let c = Case {
        c1: 2,
        h: 4,
        w: 5,
        c0: 64,
        pad: [1, 0, 1, 1],
        filter: (2, 3),
        m_start: 0,
        k_start: 64,
        m_ext: 16,
        k_ext: 384,
        ..BASE
    };
    let fm: Vec<Int4> = (0..c.c1 * c.h * c.w * c.c0)
        .map(|i| Int4::new((i % 13) as i32 - 6))
        .collect();
    let pad_value = Int4::new(-8);
    let (im, rows, _) = im2col(&fm, &c, pad_value);
    let elems = 8192;
    let sentinel = Int4::new(7);
    let got = run_load_over(
        ChipProfile::default_profile(),
        &fm,
        false,
        elems,
        sentinel,
        |d, s| {
            load_data_3d_v2(
                d,
                s,
                params(&c, false, pad_value),
                IS_RESER_LOAD3D_DEFAULT_CONFIG,
            )
        },
    );
    let mut expect = vec![sentinel; elems];
    for (at, v) in reference(&im, rows, &c, false, false) {
        expect[at] = v;
    }
    assert_eq!(got, expect);
    // int4b_t does not go to L0B, and is not transposed.
    let e = fail(|| {
        let src = LocalTensor::<Int4>::new_at(TPosition::A1, 0, 4096)?;
        let dst = LocalTensor::<Int4>::new_at(TPosition::B2, 0, 4096)?;
        load_data_3d_v2(
            &dst,
            &src,
            params(&c, false, pad_value),
            IS_RESER_LOAD3D_DEFAULT_CONFIG,
        )
    });
    assert_eq!(e.category, Category::Type);
}

#[test]
fn script_cases_b16_to_l0a_plain_and_transposed() {
    check::<f16>(BASE, false, false, f16::ZERO);
    check::<f16>(BASE, false, true, f16::ZERO);
}

#[test]
fn script_cases_b32_to_l0a_plain_and_transposed() {
    // kExtension 24 covers the last column (3 groups of 8).
    let c = Case {
        c0: 8,
        k_ext: 24,
        ..BASE
    };
    check::<i32>(c, false, false, 0);
    check::<i32>(c, false, true, 0);
}

#[test]
fn script_cases_to_l0b_with_a_2x2_filter() {
    let c = Case {
        m_start: 16,
        filter: (2, 2),
        ..BASE
    };
    check::<f16>(c, true, false, f16::ZERO);
    check::<i32>(Case { c0: 8, ..c }, true, false, 0);
}

#[test]
fn padding_strides_and_dilation() {
    // 2 × 5 × 6 map, pad [left 1, right 2, top 1, bottom 0], stride (2, 1), 3 × 2 kernel with
    // dilation (1, 2): 2 × 7 = 14 output pixels, all of them moved; pad value 7 (L0A), -1.5 (L0B).
    let c = Case {
        c1: 2,
        h: 5,
        w: 6,
        pad: [1, 2, 1, 0],
        stride: (2, 1),
        filter: (3, 2),
        dilation: (1, 2),
        m_start: 0,
        k_start: 32,
        m_ext: 14,
        k_ext: 160,
        ..BASE
    };
    check::<f16>(c, false, false, f16::from_f32(7.0));
    check::<f16>(c, true, false, f16::from_f32(-1.5));
}

#[test]
fn registers_feature_map_pad_value_and_v2_pro() {
    let c = Case {
        pad: [1, 1, 0, 0],
        m_start: 0,
        m_ext: 16,
        ..BASE
    };
    let fm = feature_map::<f16>(&c);
    let (im, rows, _) = im2col(&fm, &c, f16::from_f32(3.0));
    let mut expect = vec![f16::from_f32(99.0); 1024];
    for (at, v) in reference(&im, rows, &c, false, false) {
        expect[at] = v;
    }
    // V2 with isSetFMatrix / isSetPadding false: the parameters' shape and pad value are not used.
    let got = run_load(ChipProfile::default_profile(), &fm, false, 1024, |d, s| {
        set_fmatrix(8, 8, [1, 1, 0, 0], FmatrixMode::FMATRIX_LEFT)?;
        set_load_data_padding_value(f16::from_f32(3.0))?;
        let mut p = params(&c, false, f16::from_f32(-9.0));
        p.l1_h = 4;
        p.pad_list = [0; 4];
        let cfg = IsResetLoad3dConfig {
            is_set_fmatrix: false,
            is_set_padding: false,
        };
        load_data_3d_v2(d, s, p, cfg)
    });
    assert_eq!(got, expect);
    // The same through LoadData3DParamsV2Pro.
    let got = run_load(ChipProfile::default_profile(), &fm, false, 1024, |d, s| {
        set_fmatrix(8, 8, [1, 1, 0, 0], FmatrixMode::FMATRIX_LEFT)?;
        set_load_data_padding_value(f16::from_f32(3.0))?;
        let p = LoadData3DParamsV2Pro {
            channel_size: 48,
            ext_config: (16 << 16) | 32,
            ..Default::default()
        };
        load_data_3d_v2_pro(d, s, p)
    });
    assert_eq!(got, expect);
    // A load that sets its own shape leaves it in the registers for the next one.
    let got = run_load(ChipProfile::default_profile(), &fm, false, 1024, |d, s| {
        load_data_3d_v2(
            d,
            s,
            params(&c, false, f16::from_f32(3.0)),
            IS_RESER_LOAD3D_DEFAULT_CONFIG,
        )?;
        let p = LoadData3DParamsV2Pro {
            channel_size: 48,
            ext_config: (16 << 16) | 32,
            ..Default::default()
        };
        load_data_3d_v2_pro(d, s, p)
    });
    assert_eq!(got, expect);
}

#[test]
fn repeat_along_m_and_k() {
    let c = Case {
        m_start: 0,
        m_ext: 16,
        ..BASE
    };
    let fm = feature_map::<f16>(&c);
    let (im, rows, _) = im2col(&fm, &c, f16::ZERO);
    // Mode 0: two blocks of 16 rows, 32 rows apart (repeatStride 2), stacked as one 32 × 16
    // matrix; mode 1: two blocks of 16 columns, 32 columns apart (repeatStride 2), side by side.
    for (mode, times, stride) in [(0u8, 2u8, 2u16), (1, 2, 2)] {
        let big = if mode == 0 {
            Case {
                m_ext: 32,
                k_ext: 16,
                ..c
            }
        } else {
            Case { k_ext: 32, ..c }
        };
        let got = run_load(ChipProfile::default_profile(), &fm, false, 4096, |d, s| {
            set_load_data_repeat(LoadDataRepeatParam {
                repeat_stride: stride,
                repeat_time: times,
                repeat_mode: mode,
            })?;
            let mut p = params(&c, false, f16::ZERO);
            p.k_extension = 16;
            load_data_3d_v2(d, s, p, IS_RESER_LOAD3D_DEFAULT_CONFIG)
        });
        // Block b of the big matrix comes from rows (or columns) 32 · b on.
        let mut expect = vec![f16::from_f32(99.0); 4096];
        let k1 = big.k_ext / 16;
        for m in 0..big.m_ext {
            for k in 0..big.k_ext {
                let (sm, sk) = if mode == 0 {
                    (m % 16 + 32 * (m / 16), k)
                } else {
                    (m, k % 16 + 32 * (k / 16))
                };
                let at = (((m / 16) * k1 + k / 16) * 16 + m % 16) * 16 + k % 16;
                expect[at] = slice(&im, rows, &c, sm, sk);
            }
        }
        assert_eq!(got, expect, "mode {mode}");
    }
}

#[test]
fn the_boundary_wraps_l1_reads() {
    // Channel group 1 of a 32 × 1 map of halves starts at byte 1024: with the boundary at 1024 it
    // reads group 0 again (the vendor's set_loaddata_boundary sample).
    let c = Case {
        c1: 2,
        h: 32,
        w: 1,
        m_start: 0,
        ..BASE
    };
    let fm = feature_map::<f16>(&c);
    let got = run_load(ChipProfile::default_profile(), &fm, false, 1024, |d, s| {
        set_load_data_boundary(1024)?;
        load_data_3d_v2(
            d,
            s,
            params(&c, false, f16::ZERO),
            IS_RESER_LOAD3D_DEFAULT_CONFIG,
        )
    });
    let wrapped: Vec<f16> = fm[..512].iter().chain(&fm[..512]).copied().collect();
    let (im, rows, _) = im2col(&wrapped, &c, f16::ZERO);
    let mut expect = vec![f16::from_f32(99.0); 1024];
    for (at, v) in reference(&im, rows, &c, false, false) {
        expect[at] = v;
    }
    assert_eq!(got, expect);
}

#[test]
fn the_inference_series_runs_v2_without_repeat() {
    let c = Case {
        c0: 32,
        k_ext: 64,
        ..BASE
    };
    let fm = feature_map::<u8>(&c);
    let (im, rows, _) = im2col(&fm, &c, 0);
    let got = run_load(&ASCEND310P, &fm, false, 4096, |d, s| {
        load_data_3d_v2(d, s, params(&c, false, 0), IS_RESER_LOAD3D_DEFAULT_CONFIG)
    });
    for (at, v) in reference(&im, rows, &c, false, false) {
        assert_eq!(got[at], v);
    }
}

fn expect_error(
    profile: &'static ChipProfile,
    f: impl Fn() -> Result<()> + Sync,
    cat: Category,
    words: &[&str],
) {
    let e = fail_on(profile, f);
    assert_eq!(e.category, cat, "{e}");
    assert_mentions(&e, words);
}

#[test]
fn forms_products_and_parameters_are_checked() {
    let a2 = ChipProfile::default_profile();
    let with = |p: LoadData3DParamsV2<f16>, to_b: bool| {
        move || {
            let s = LocalTensor::<f16>::new_at(TPosition::A1, 0, 4096)?;
            let pos = if to_b { TPosition::B2 } else { TPosition::A2 };
            let d = LocalTensor::<f16>::new_at(pos, 0, 4096)?;
            load_data_3d_v2(&d, &s, p, IS_RESER_LOAD3D_DEFAULT_CONFIG)
        }
    };
    let base = params(&BASE, false, f16::ZERO);
    expect_error(
        a2,
        with(
            LoadData3DParamsV2 {
                f_matrix_ctrl: true,
                ..base
            },
            false,
        ),
        Category::Range,
        &["fMatrixCtrl"],
    );
    expect_error(
        a2,
        with(
            LoadData3DParamsV2 {
                en_small_k: true,
                ..base
            },
            false,
        ),
        Category::Range,
        &["enSmallK"],
    );
    expect_error(
        a2,
        with(
            LoadData3DParamsV2 {
                channel_size: 36,
                ..base
            },
            false,
        ),
        Category::Unsupported,
        &["channelSize 36", "not modelled"],
    );
    expect_error(
        a2,
        with(
            LoadData3DParamsV2 {
                k_start_pt: 8,
                ..base
            },
            false,
        ),
        Category::Range,
        &["kStartPt", "multiple of 16"],
    );
    expect_error(
        a2,
        with(
            LoadData3DParamsV2 {
                k_extension: 24,
                ..base
            },
            false,
        ),
        Category::Range,
        &["kExtension"],
    );
    expect_error(
        a2,
        with(
            LoadData3DParamsV2 {
                m_extension: 24,
                ..base
            },
            false,
        ),
        Category::Range,
        &["mExtension"],
    );
    expect_error(
        a2,
        with(
            LoadData3DParamsV2 {
                stride_w: 0,
                ..base
            },
            false,
        ),
        Category::Range,
        &["strideW"],
    );
    expect_error(
        a2,
        with(
            LoadData3DParamsV2 {
                k_extension: 64,
                k_start_pt: 16,
                ..base
            },
            false,
        ),
        Category::Range,
        &["kStartPt + kExtension", "48"],
    );
    expect_error(
        a2,
        with(
            LoadData3DParamsV2 {
                filter_w: 9,
                ..base
            },
            false,
        ),
        Category::Range,
        &["larger than the padded feature map"],
    );
    // 8-bit types do not transpose into L0A, nor go to L0B.
    expect_error(
        a2,
        || {
            let s = LocalTensor::<i8>::new_at(TPosition::A1, 0, 8192)?;
            let d = LocalTensor::<i8>::new_at(TPosition::A2, 0, 8192)?;
            let c = Case {
                c0: 32,
                k_ext: 64,
                ..BASE
            };
            load_data_3d_v2(&d, &s, params(&c, true, 0), IS_RESER_LOAD3D_DEFAULT_CONFIG)
        },
        Category::Type,
        &["enTranspose"],
    );
    expect_error(
        a2,
        || {
            let s = LocalTensor::<i8>::new_at(TPosition::B1, 0, 8192)?;
            let d = LocalTensor::<i8>::new_at(TPosition::B2, 0, 8192)?;
            let c = Case {
                c0: 32,
                k_ext: 64,
                ..BASE
            };
            load_data_3d_v2(&d, &s, params(&c, false, 0), IS_RESER_LOAD3D_DEFAULT_CONFIG)
        },
        Category::Type,
        &["int8_t", "L0B"],
    );
    expect_error(
        a2,
        || {
            set_load_data_boundary(512)?;
            with(base, false)()
        },
        Category::Range,
        &["boundaryValue", "1024"],
    );
    expect_error(
        a2,
        || {
            let s = LocalTensor::<f16>::new_at(TPosition::A1, 0, 4096)?;
            let d = LocalTensor::<f16>::new_at(TPosition::A2, 0, 4096)?;
            load_data_3d_v2_pro(&d, &s, LoadData3DParamsV2Pro::default())
        },
        Category::Sync,
        &["SetFmatrix"],
    );
    expect_error(
        a2,
        || set_fmatrix(0, 1, [0; 4], FmatrixMode::FMATRIX_LEFT),
        Category::Range,
        &["l1H"],
    );
    expect_error(
        a2,
        || set_fmatrix(1, 1, [0; 4], FmatrixMode::FMATRIX_RIGHT),
        Category::Range,
        &["FMATRIX_LEFT"],
    );
    expect_error(
        &ASCEND910,
        || set_fmatrix(1, 1, [0; 4], FmatrixMode::FMATRIX_LEFT),
        Category::Unsupported,
        &["SetFmatrix"],
    );
    expect_error(
        &ASCEND310P,
        || set_load_data_repeat(LoadDataRepeatParam::default()),
        Category::Unsupported,
        &["SetLoadDataRepeat"],
    );
    expect_error(
        &ASCEND310B,
        || set_load_data_boundary(0),
        Category::Unsupported,
        &["SetLoadDataBoundary"],
    );
    expect_error(
        &ASCEND310P,
        || set_load_data_padding_value(1.0f32),
        Category::Type,
        &["float"],
    );
    expect_error(
        a2,
        || {
            set_load_data_repeat(LoadDataRepeatParam {
                repeat_mode: 2,
                ..Default::default()
            })
        },
        Category::Range,
        &["repeatMode"],
    );
    // The V1 form of the training and inference series is refused with the reason.
    expect_error(
        &ASCEND910,
        || {
            let s = LocalTensor::<f16>::new_at(TPosition::A1, 0, 4096)?;
            let d = LocalTensor::<f16>::new_at(TPosition::A2, 0, 4096)?;
            load_data_3d_v1(
                &d,
                &s,
                LoadData3DParamsV1::default(),
                IS_RESER_LOAD3D_DEFAULT_CONFIG,
            )
        },
        Category::Unsupported,
        &["LoadData3DParamsV1 is not modelled"],
    );
    expect_error(
        &ASCEND910,
        with(base, false),
        Category::Unsupported,
        &["LoadData3DParamsV2"],
    );
}
