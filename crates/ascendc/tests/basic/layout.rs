//! Transpose, TransDataTo5HD, VectorPadding and BilinearInterpolation: the pages' worked
//! examples, the per-product tables, validation, and property tests against plain reference
//! permutations.

use ascendc::chip::{ASCEND310B, ASCEND310P, ASCEND910, ASCEND910B, ASCEND910_93};
use ascendc::prelude::*;
use ascendc::{Category, ChipProfile, LaunchReport, SimError};
use proptest::strategy::Strategy;
use std::sync::Mutex;

type Buf = TBuf<QuePosition::VECCALC>;

const ALL: [&ChipProfile; 5] = [
    &ASCEND910,
    &ASCEND310P,
    &ASCEND910B,
    &ASCEND910_93,
    &ASCEND310B,
];

fn run<R: Send>(
    p: &'static ChipProfile,
    f: impl Fn(&Buf) -> Result<R> + Sync,
) -> std::result::Result<(R, LaunchReport), ascendc::LaunchError> {
    let out = Mutex::new(None);
    let report = Launch::new(1).profile(p).run(|| {
        let mut pipe = TPipe::new();
        let mut buf = Buf::new();
        pipe.init_buffer(&mut buf, 1, 96 * 1024)?;
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

fn fill<T: ascendc::dtype::Element>(t: &LocalTensor<T>, v: &[T]) -> Result<()> {
    for (i, x) in v.iter().enumerate() {
        t.set_value(i as u32, *x)?;
    }
    Ok(())
}

fn halves(v: &[f16]) -> Vec<f32> {
    v.iter().map(|x| x.to_f32()).collect()
}

// ---------------------------------------------------------------- Transpose

#[test]
fn transpose_matches_the_page_on_every_product() {
    // [16, 16] halves 0 … 255 → their transpose.
    for p in ALL {
        let v = ok(p, |b| {
            let src = b.get_with_offset::<f16>(256, 0)?;
            let dst = b.get_with_offset::<f16>(256, 512)?;
            fill(&src, &(0..256).map(|i| h(i as f32)).collect::<Vec<_>>())?;
            transpose(&dst, &src)?;
            dst.to_vec()
        });
        let want: Vec<f32> = (0..256).map(|i| ((i % 16) * 16 + i / 16) as f32).collect();
        assert_eq!(halves(&v), want, "{}", p.soc);
    }
}

#[test]
fn transpose_in_place_and_integer_types() {
    let v = ok(&ASCEND910B, |b| {
        let t = b.get_with_offset::<i16>(256, 0)?;
        fill(&t, &(0..256).map(|i| i as i16 - 128).collect::<Vec<_>>())?;
        transpose(&t, &t)?;
        t.to_vec()
    });
    for r in 0..16 {
        for c in 0..16 {
            assert_eq!(v[r * 16 + c], (c * 16 + r) as i16 - 128);
        }
    }
}

#[test]
fn transpose_refuses_other_types_and_short_tensors() {
    let e = err(&ASCEND910B, |b| {
        let t = b.get_with_offset::<f32>(256, 0)?;
        transpose(&t, &t)
    });
    assert_eq!(e.category, Category::Type);
    assert!(e.message.contains("float"), "{e}");
    let e = err(&ASCEND910B, |b| {
        let s = b.get_with_offset::<u16>(255, 0)?;
        let d = b.get_with_offset::<u16>(256, 1024)?;
        transpose(&d, &s)
    });
    assert_eq!(e.category, Category::Size);
    assert!(e.message.contains("`src`"), "{e}");
    let e = err(&ASCEND910B, |b| {
        let s = b.get_with_offset::<u16>(512, 0)?;
        transpose(&s.at(256)?, &s.at(8)?)
    });
    assert_eq!(e.category, Category::Align);
}

#[test]
fn enhanced_nd2nd_b16_takes_uint16_where_documented() {
    let params = TransposeParamsExt::new(0, 0, 16, 16, TransposeType::TRANSPOSE_ND2ND_B16);
    for p in [&ASCEND310P, &ASCEND910B, &ASCEND910_93, &ASCEND310B] {
        let v = ok(p, |b| {
            let src = b.get_with_offset::<u16>(256, 0)?;
            let dst = b.get_with_offset::<u16>(256, 512)?;
            let tmp = b.get_with_offset::<u8>(32, 1024)?;
            fill(&src, &(0..256).map(|i| i as u16 * 3).collect::<Vec<_>>())?;
            transpose_ext(&dst, &src, &tmp, params)?;
            dst.to_vec()
        });
        let want: Vec<u16> = (0..256).map(|i| ((i % 16) * 16 + i / 16) * 3).collect();
        assert_eq!(v, want, "{}", p.soc);
    }
    // half is only in the basic form's list; the training series has no enhanced form.
    let e = err(&ASCEND910B, |b| {
        let t = b.get_with_offset::<f16>(256, 0)?;
        transpose_ext(&t, &t, &b.get_with_offset::<u8>(32, 1024)?, params)
    });
    assert_eq!(e.category, Category::Type);
    let e = err(&ASCEND910, |b| {
        let t = b.get_with_offset::<u16>(256, 0)?;
        transpose_ext(&t, &t, &b.get_with_offset::<u8>(32, 1024)?, params)
    });
    assert_eq!(e.category, Category::Unsupported);
    assert!(e.message.contains("Ascend910"), "{e}");
    let e = err(&ASCEND910B, |b| {
        let t = b.get_with_offset::<u16>(256, 0)?;
        let p = TransposeParamsExt {
            w_size: 8,
            ..params
        };
        transpose_ext(&t, &t, &b.get_with_offset::<u8>(32, 1024)?, p)
    });
    assert_eq!(e.category, Category::Range);
    assert!(e.message.contains("wSize"), "{e}");
}

/// `[N, C, H, W] → [N, H, W, C]` (or back) on a flat vector.
fn permute<T: Copy>(src: &[T], n: usize, c: usize, hw: usize, to_nhwc: bool) -> Vec<T> {
    let mut out = src.to_vec();
    for b in 0..n {
        for ch in 0..c {
            for p in 0..hw {
                let nchw = b * c * hw + ch * hw + p;
                let nhwc = b * c * hw + p * c + ch;
                if to_nhwc {
                    out[nhwc] = src[nchw];
                } else {
                    out[nchw] = src[nhwc];
                }
            }
        }
    }
    out
}

#[test]
fn enhanced_nchw2nhwc_matches_the_sample() {
    // The sample's scenario 2: half [3, 3, 2, 8] → [3, 2, 8, 3] with a 2560-byte tmp buffer.
    let params = TransposeParamsExt::new(3, 3, 2, 8, TransposeType::TRANSPOSE_NCHW2NHWC);
    let input: Vec<f16> = (0..144).map(|i| h(i as f32 * 0.5 - 30.0)).collect();
    for p in [&ASCEND310P, &ASCEND910B, &ASCEND910_93] {
        let v = ok(p, |b| {
            let src = b.get_with_offset::<f16>(144, 0)?;
            let dst = b.get_with_offset::<f16>(144, 512)?;
            let tmp = b.get_with_offset::<u8>(2560, 1024)?;
            fill(&src, &input)?;
            transpose_ext(&dst, &src, &tmp, params)?;
            dst.to_vec()
        });
        assert_eq!(v, permute(&input, 3, 3, 16, true), "{}", p.soc);
    }
    assert_eq!(
        transpose_tmp_bytes::<f16>(
            ascendc::api::vec::layout_support::TransposeTmp::Staged,
            &params
        ),
        2560
    );
}

#[test]
fn enhanced_layout_checks() {
    let nchw = TransposeParamsExt::new(2, 4, 4, 4, TransposeType::TRANSPOSE_NCHW2NHWC);
    // 310B lists only TRANSPOSE_ND2ND_B16.
    let e = err(&ASCEND310B, |b| {
        let s = b.get_with_offset::<f16>(128, 0)?;
        let d = b.get_with_offset::<f16>(128, 1024)?;
        transpose_ext(&d, &s, &b.get_with_offset::<u8>(8192, 2048)?, nchw)
    });
    assert_eq!(e.category, Category::Unsupported);
    assert!(e.message.contains("TRANSPOSE_NCHW2NHWC"), "{e}");
    // A2: (4 + 2)·16·16·2 = 3072 bytes needed for half; NHWC2NCHW (2·4 + 1)·512 = 4608.
    let e = err(&ASCEND910B, |b| {
        let s = b.get_with_offset::<f16>(128, 0)?;
        let d = b.get_with_offset::<f16>(128, 1024)?;
        transpose_ext(&d, &s, &b.get_with_offset::<u8>(3040, 2048)?, nchw)
    });
    assert_eq!(e.category, Category::Size);
    assert!(e.message.contains("3072"), "{e}");
    let e = err(&ASCEND910B, |b| {
        let s = b.get_with_offset::<f16>(128, 0)?;
        let d = b.get_with_offset::<f16>(128, 1024)?;
        let p = TransposeParamsExt {
            transpose_type: TransposeType::TRANSPOSE_NHWC2NCHW,
            ..nchw
        };
        transpose_ext(&d, &s, &b.get_with_offset::<u8>(4600, 2048)?, p)
    });
    assert!(e.message.contains("4608"), "{e}");
    // 310P needs no buffer at all.
    ok(&ASCEND310P, |b| {
        let s = b.get_with_offset::<f16>(128, 0)?;
        let d = b.get_with_offset::<f16>(128, 1024)?;
        transpose_ext(&d, &s, &b.get_with_offset::<u8>(32, 2048)?, nchw)
    });
    // h·w·sizeof(T) must be a multiple of 32 bytes; cSize ≤ 4095; no reuse of the source.
    let e = err(&ASCEND910B, |b| {
        let s = b.get_with_offset::<f16>(128, 0)?;
        let p = TransposeParamsExt::new(1, 2, 3, 3, TransposeType::TRANSPOSE_NCHW2NHWC);
        transpose_ext(
            &b.get_with_offset::<f16>(128, 1024)?,
            &s,
            &b.get_with_offset::<u8>(8192, 2048)?,
            p,
        )
    });
    assert_eq!(e.category, Category::Align);
    let e = err(&ASCEND910B, |b| {
        let s = b.get_with_offset::<i8>(128, 0)?;
        let p = TransposeParamsExt::new(1, 4096, 32, 1, TransposeType::TRANSPOSE_NCHW2NHWC);
        transpose_ext(&s, &s, &b.get_with_offset::<u8>(8192, 2048)?, p)
    });
    assert_eq!(e.category, Category::Range);
    assert!(e.message.contains("cSize"), "{e}");
    let e = err(&ASCEND910B, |b| {
        let s = b.get_with_offset::<f16>(128, 0)?;
        transpose_ext(&s, &s, &b.get_with_offset::<u8>(8192, 2048)?, nchw)
    });
    assert_eq!(e.category, Category::Overlap);
    // Types the page marks unsupported are refused on every product.
    let e = err(&ASCEND910B, |b| {
        let s = b.get_with_offset::<f16>(256, 0)?;
        let p = TransposeParamsExt::new(1, 1, 16, 16, TransposeType::TRANSPOSE_NZ2ND_0213);
        transpose_ext(&s, &s, &b.get_with_offset::<u8>(32, 2048)?, p)
    });
    assert_eq!(e.category, Category::Unsupported);
    assert!(e.message.contains("TRANSPOSE_NZ2ND_0213"), "{e}");
}

#[test]
fn enhanced_zero_axis_and_type_none_write_nothing() {
    for ty in [
        TransposeType::TRANSPOSE_TYPE_NONE,
        TransposeType::TRANSPOSE_NCHW2NHWC,
    ] {
        let (v, report) = run(&ASCEND910B, |b| {
            let s = b.get_with_offset::<f32>(64, 0)?;
            let d = b.get_with_offset::<f32>(64, 1024)?;
            fill(&s, &[1.5; 64])?;
            fill(&d, &[-2.0; 64])?;
            let p = TransposeParamsExt::new(0, 4, 4, 4, ty);
            transpose_ext(&d, &s, &b.get_with_offset::<u8>(8192, 2048)?, p)?;
            d.to_vec()
        })
        .unwrap();
        assert_eq!(v, vec![-2.0; 64]);
        assert!(
            report.diagnostics().any(|w| w.category == Category::Nop),
            "{ty:?}"
        );
    }
}

fn layout_round_trip<T>(p: &'static ChipProfile, n: u16, c: u16, hh: u16, w: u16, input: &[T])
where
    T: ascendc::dtype::Element + Copy + PartialEq + std::fmt::Debug,
{
    let total = input.len();
    let bytes = std::mem::size_of_val(input) as u32;
    let slot = bytes.div_ceil(32) * 32;
    let (fwd, back) = ok(p, |b| {
        let s = b.get_with_offset::<T>(total as u32, 0)?;
        let d = b.get_with_offset::<T>(total as u32, slot)?;
        let r = b.get_with_offset::<T>(total as u32, 2 * slot)?;
        let tmp = b.get_with_offset::<u8>(96 * 1024 - 3 * slot, 3 * slot)?;
        fill(&s, input)?;
        let to = TransposeParamsExt::new(n, c, hh, w, TransposeType::TRANSPOSE_NCHW2NHWC);
        transpose_ext(&d, &s, &tmp, to)?;
        let from = TransposeParamsExt {
            transpose_type: TransposeType::TRANSPOSE_NHWC2NCHW,
            ..to
        };
        transpose_ext(&r, &d, &tmp, from)?;
        Ok((d.to_vec()?, r.to_vec()?))
    });
    let hw = hh as usize * w as usize;
    assert_eq!(fwd, permute(input, n as usize, c as usize, hw, true));
    assert_eq!(back, input);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
    /// NCHW → NHWC equals the reference permutation and NHWC → NCHW undoes it, for 1-, 2- and
    /// 4-byte types on A2 and 310P.
    #[test]
    fn nchw_nhwc_round_trip(n in 1u16..4, c in 1u16..9, hw_blocks in 1u16..4, seed in 0i32..1000) {
        let c8 = c as usize;
        // h·w·sizeof(T) a multiple of 32 bytes: h·w = 32·k for int8, 16·k for int16, 8·k for float.
        let total8 = n as usize * c8 * 32 * hw_blocks as usize;
        let i8s: Vec<i8> = (0..total8).map(|i| ((i as i32 * 7 + seed) % 251 - 125) as i8).collect();
        layout_round_trip(&ASCEND910B, n, c, 4 * hw_blocks, 8, &i8s);
        let total16 = n as usize * c8 * 16 * hw_blocks as usize;
        let i16s: Vec<i16> = (0..total16).map(|i| (i as i32 * 31 + seed) as i16).collect();
        layout_round_trip(&ASCEND310P, n, c, 2 * hw_blocks, 8, &i16s);
        let total32 = n as usize * c8 * 8 * hw_blocks as usize;
        let f32s: Vec<f32> = (0..total32).map(|i| i as f32 * 0.25 - seed as f32).collect();
        layout_round_trip(&ASCEND910_93, n, c, hw_blocks, 8, &f32s);
    }
}

// ---------------------------------------------------------------- TransDataTo5HD

/// Which of the three call forms to use.
#[derive(Clone, Copy, Debug)]
enum Form {
    Tensors,
    Addresses,
    AddressTensors,
}

const FORMS: [Form; 3] = [Form::Tensors, Form::Addresses, Form::AddressTensors];

/// Runs TransDataTo5HD with `dst[i] = dst_base + dst_step·i` and `src[i] = src_base +
/// src_step·i` (element offsets) in the given form.
fn trans5hd<T: ascendc::dtype::Element>(
    b: &Buf,
    form: Form,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    (dst_base, dst_step): (u32, u32),
    (src_base, src_step): (u32, u32),
    params: TransDataTo5HDParams,
) -> Result<()> {
    let dl: Vec<LocalTensor<T>> = (0..16)
        .map(|i| dst.at(dst_base + dst_step * i))
        .collect::<Result<_>>()?;
    let sl: Vec<LocalTensor<T>> = (0..16)
        .map(|i| src.at(src_base + src_step * i))
        .collect::<Result<_>>()?;
    match form {
        Form::Tensors => trans_data_to_5hd(
            &dl.clone().try_into().unwrap(),
            &sl.clone().try_into().unwrap(),
            params,
        ),
        Form::Addresses => {
            let da: [u64; 16] = std::array::from_fn(|i| dl[i].get_phy_addr() as u64);
            let sa: [u64; 16] = std::array::from_fn(|i| sl[i].get_phy_addr() as u64);
            trans_data_to_5hd_addr::<T>(&da, &sa, params)
        }
        Form::AddressTensors => {
            // The address tensors sit at the end of the 96 KiB buffer.
            let da = b.get_with_offset::<u64>(16, 96 * 1024 - 256)?;
            let sa = b.get_with_offset::<u64>(16, 96 * 1024 - 128)?;
            for i in 0..16 {
                da.set_value(i as u32, dl[i].get_phy_addr() as u64)?;
                sa.set_value(i as u32, sl[i].get_phy_addr() as u64)?;
            }
            trans_data_to_5hd_addr_tensor::<T>(&da, &sa, params)
        }
    }
}

#[test]
fn trans_data_to_5hd_int8_high_halves_match_the_page() {
    // 16 blocks of 32 int8: row i = 32·(i mod 4) + j; high half in, high half out, dst zeroed.
    let input: Vec<i8> = (0..512)
        .map(|k| ((k / 32 % 4) * 32 + k % 32) as i8)
        .collect();
    for form in FORMS {
        let v = ok(&ASCEND910B, |b| {
            let src = b.get_with_offset::<i8>(512, 0)?;
            let dst = b.get_with_offset::<i8>(512, 1024)?;
            fill(&src, &input)?;
            fill(&dst, &[0; 512])?;
            let p = TransDataTo5HDParams::new(true, true, 1, 0, 0);
            trans5hd(b, form, &dst, &src, (0, 32), (0, 32), p)?;
            dst.to_vec()
        });
        for r in 0..16 {
            let row = &v[r * 32..r * 32 + 32];
            assert_eq!(&row[..16], &[0; 16], "{form:?} row {r}");
            let want: Vec<i8> = (0..16)
                .map(|k| [16, 48, 80, 112][k % 4] + r as i8)
                .collect();
            assert_eq!(&row[16..], &want[..], "{form:?} row {r}");
        }
    }
}

#[test]
fn trans_data_to_5hd_int8_halves_combine() {
    // Four calls (low/high in × low/high out) transpose a full 32×32 byte matrix.
    let input: Vec<u8> = (0..1024).map(|k| (k * 13 % 256) as u8).collect();
    let v = ok(&ASCEND310P, |b| {
        let src = b.get_with_offset::<u8>(1024, 0)?;
        let dst = b.get_with_offset::<u8>(1024, 1024)?;
        fill(&src, &input)?;
        for (dh, sh) in [(false, false), (false, true), (true, false), (true, true)] {
            // Source rows 16·dh … 16·dh + 15 become destination columns 16·dh …; destination
            // rows 16·sh … come from source columns 16·sh ….
            let p = TransDataTo5HDParams::new(dh, sh, 1, 0, 0);
            let dl: [LocalTensor<u8>; 16] =
                std::array::from_fn(|j| dst.at((16 * sh as u32 + j as u32) * 32).unwrap());
            let sl: [LocalTensor<u8>; 16] =
                std::array::from_fn(|k| src.at((16 * dh as u32 + k as u32) * 32).unwrap());
            trans_data_to_5hd(&dl, &sl, p)?;
        }
        dst.to_vec()
    });
    for r in 0..32 {
        for c in 0..32 {
            assert_eq!(v[r * 32 + c], input[c * 32 + r], "({r}, {c})");
        }
    }
}

#[test]
fn trans_data_to_5hd_half_and_int32_match_the_page() {
    let input: Vec<f16> = (0..256).map(|i| h(i as f32)).collect();
    for form in FORMS {
        let v = ok(&ASCEND910, |b| {
            let src = b.get_with_offset::<f16>(256, 0)?;
            let dst = b.get_with_offset::<f16>(256, 1024)?;
            fill(&src, &input)?;
            trans5hd(
                b,
                form,
                &dst,
                &src,
                (0, 16),
                (0, 16),
                TransDataTo5HDParams::default(),
            )?;
            dst.to_vec()
        });
        let want: Vec<f32> = (0..256).map(|i| ((i % 16) * 16 + i / 16) as f32).collect();
        assert_eq!(halves(&v), want, "{form:?}");
    }
    // int32: [16, 8] in, [8, 16] out.
    let input: Vec<i32> = (0..128).collect();
    for form in FORMS {
        let v = ok(&ASCEND910B, |b| {
            let src = b.get_with_offset::<i32>(128, 0)?;
            let dst = b.get_with_offset::<i32>(128, 1024)?;
            fill(&src, &input)?;
            trans5hd(
                b,
                form,
                &dst,
                &src,
                (0, 8),
                (0, 8),
                TransDataTo5HDParams::default(),
            )?;
            dst.to_vec()
        });
        let want: Vec<i32> = (0..128).map(|i| (i % 16) * 8 + i / 16).collect();
        assert_eq!(v, want, "{form:?}");
    }
}

#[test]
fn trans_data_to_5hd_nchw_to_nc1hwc0_matches_the_page() {
    // N 2, C 32, H 16, W 16 halves; four calls of 16 channels, 16 repeats, strides (16, 1).
    let (n, c, hw) = (2usize, 32usize, 256usize);
    let input: Vec<f16> = (0..n * c * hw)
        .map(|i| h((i % 2039) as f32 - 1000.0))
        .collect();
    for form in FORMS {
        let v = ok(&ASCEND910B, |b| {
            let src = b.get_with_offset::<f16>(16384, 0)?;
            let dst = b.get_with_offset::<f16>(16384, 32768)?;
            fill(&src, &input)?;
            let p = TransDataTo5HDParams::new(false, false, 16, 16, 1);
            for j in 0..4u32 {
                trans5hd(
                    b,
                    form,
                    &dst,
                    &src,
                    (j * 16 * 256, 16),
                    (j * 16 * 256, 256),
                    p,
                )?;
            }
            dst.to_vec()
        });
        // golden = x.reshape(2, 2, 16, 16, 16).transpose(0, 1, 3, 4, 2)
        let mut want = vec![h(0.0); n * c * hw];
        for b0 in 0..n {
            for c1 in 0..2 {
                for p in 0..hw {
                    for c0 in 0..16 {
                        want[((b0 * 2 + c1) * hw + p) * 16 + c0] =
                            input[(b0 * c + c1 * 16 + c0) * hw + p];
                    }
                }
            }
        }
        assert_eq!(v, want, "{form:?}");
    }
}

#[test]
fn trans_data_to_5hd_single_repeat_adds_the_strides() {
    // repeatTimes 1 with strides (2, 1): the one repeat starts 2 blocks after dstList and 1 block
    // after srcList.
    let input: Vec<u16> = (0..272).collect();
    let v = ok(&ASCEND910B, |b| {
        let src = b.get_with_offset::<u16>(272, 0)?;
        let dst = b.get_with_offset::<u16>(288, 1024)?;
        fill(&src, &input)?;
        fill(&dst, &[9999; 288])?;
        let p = TransDataTo5HDParams::new(false, false, 1, 2, 1);
        let dl: [LocalTensor<u16>; 16] = std::array::from_fn(|j| dst.at(j as u32 * 16).unwrap());
        let sl: [LocalTensor<u16>; 16] = std::array::from_fn(|k| src.at(k as u32 * 16).unwrap());
        trans_data_to_5hd(&dl, &sl, p)?;
        dst.to_vec()
    });
    assert_eq!(&v[..32], &[9999; 32]);
    for j in 0..16 {
        for k in 0..16 {
            assert_eq!(v[32 + j * 16 + k], ((k + 1) * 16 + j) as u16);
        }
    }
}

#[test]
fn trans_data_to_5hd_validation() {
    // int32 is not in the training series' list.
    let e = err(&ASCEND910, |b| {
        let t = b.get_with_offset::<i32>(128, 0)?;
        let l: [LocalTensor<i32>; 16] = std::array::from_fn(|i| t.at(i as u32 * 8).unwrap());
        trans_data_to_5hd(&l, &l, TransDataTo5HDParams::default())
    });
    assert_eq!(e.category, Category::Type);
    // A misaligned address, an address outside UB, a repeat running past a tensor.
    let e = err(&ASCEND910B, |_| {
        let mut a = [0u64; 16];
        a[3] = 48;
        trans_data_to_5hd_addr::<f16>(&a, &[0; 16], TransDataTo5HDParams::default())
    });
    assert_eq!(e.category, Category::Align);
    assert!(e.message.contains("dstList[3]"), "{e}");
    let e = err(&ASCEND910B, |_| {
        let mut a = [0u64; 16];
        a[15] = 1 << 40;
        trans_data_to_5hd_addr::<f16>(&[0; 16], &a, TransDataTo5HDParams::default())
    });
    assert_eq!(e.category, Category::Range);
    assert!(e.message.contains("srcList[15]"), "{e}");
    let e = err(&ASCEND910B, |b| {
        let t = b.get_with_offset::<f16>(256, 0)?;
        let l: [LocalTensor<f16>; 16] = std::array::from_fn(|i| t.at(i as u32 * 16).unwrap());
        trans_data_to_5hd(&l, &l, TransDataTo5HDParams::new(false, false, 2, 1, 1))
    });
    assert_eq!(e.category, Category::Size);
    assert!(e.message.contains("dstList[15]"), "{e}");
    // repeatTimes 0 is a warned no-op.
    let (v, report) = run(&ASCEND910B, |b| {
        let t = b.get_with_offset::<f16>(256, 0)?;
        fill(&t, &(0..256).map(|i| h(i as f32)).collect::<Vec<_>>())?;
        let l: [LocalTensor<f16>; 16] = std::array::from_fn(|i| t.at(i as u32 * 16).unwrap());
        trans_data_to_5hd(&l, &l, TransDataTo5HDParams::new(false, false, 0, 0, 0))?;
        t.to_vec()
    })
    .unwrap();
    assert_eq!(halves(&v), (0..256).map(|i| i as f32).collect::<Vec<_>>());
    assert!(report.diagnostics().any(|w| w.category == Category::Nop));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(32))]
    /// Scattered 16-entry lists over several repeats equal a per-element reference for 1-, 2-
    /// and 4-byte types.
    #[test]
    fn trans_data_to_5hd_matches_reference(
        perm in proptest::sample::subsequence((0u32..40).collect::<Vec<_>>(), 16).prop_shuffle(),
        dperm in proptest::sample::subsequence((0u32..40).collect::<Vec<_>>(), 16).prop_shuffle(),
        reps in 1u8..4, srs in 0u16..3, drs in 0u16..3, size_sel in 0usize..3, dh in proptest::bool::ANY, sh in proptest::bool::ANY,
    ) {
        let size = [1usize, 2, 4][size_sel];
        // Blocks: sources at 40 + perm[k] + r·srs (blocks), destinations at 200 + dperm[j] + r·drs.
        let src_bytes: Vec<u8> = (0..96 * 32).map(|i| (i * 7 % 253) as u8).collect();
        let params = TransDataTo5HDParams::new(dh, sh, reps, drs, srs);
        let got = ok(&ASCEND910B, |b| {
            let all = b.get_with_offset::<u8>(96 * 1024 - 512, 0)?;
            fill(&all.at(40 * 32)?, &src_bytes)?;
            fill(&all.at(1000 * 32)?, &[0; 96 * 32])?;
            let sa: [u64; 16] = std::array::from_fn(|k| (40 + perm[k] as u64 * 2) * 32);
            let da: [u64; 16] = std::array::from_fn(|j| (1000 + dperm[j] as u64 * 2) * 32);
            match size {
                1 => trans_data_to_5hd_addr::<u8>(&da, &sa, params)?,
                2 => trans_data_to_5hd_addr::<u16>(&da, &sa, params)?,
                _ => trans_data_to_5hd_addr::<f32>(&da, &sa, params)?,
            }
            Ok(all.at(1000 * 32)?.to_vec()?[..96 * 32].to_vec())
        });
        let mut want = vec![0u8; 96 * 32];
        let off = |stride: u16, r: usize| if reps == 1 { stride as usize } else { r * stride as usize };
        for r in 0..reps as usize {
            let sblk = |k: usize| (2 * perm[k] as usize + off(srs, r)) * 32;
            let dblk = |j: usize| (2 * dperm[j] as usize + off(drs, r)) * 32;
            let s = |k: usize, byte: usize| src_bytes[sblk(k) + byte];
            for j in 0..16 {
                for byte in 0..32 {
                    let v = match size {
                        1 => {
                            let (dl, sl) = (16 * dh as usize, 16 * sh as usize);
                            if byte < dl || byte >= dl + 16 { continue; }
                            s(byte - dl, sl + j)
                        }
                        2 => s(byte / 2, j * 2 + byte % 2),
                        _ => s(8 * (j % 2) + byte / 4, (j / 2) * 4 + byte % 4),
                    };
                    want[dblk(j) + byte] = v;
                }
            }
        }
        proptest::prop_assert_eq!(got, want);
    }
}

// ---------------------------------------------------------------- VectorPadding

#[test]
fn vector_padding_matches_the_page() {
    // padMode 0, left: every block becomes copies of its first element; the three call forms.
    let input: Vec<f16> = (0..512)
        .map(|i| h(((i * 37) % 101) as f32 - 50.0))
        .collect();
    let want: Vec<f16> = (0..512).map(|i| input[i / 16 * 16]).collect();
    for form in 0..3 {
        let v = ok(&ASCEND310P, |b| {
            let src = b.get_with_offset::<f16>(512, 0)?;
            let dst = b.get_with_offset::<f16>(512, 1024)?;
            fill(&src, &input)?;
            let params = UnaryRepeatParams::new(1, 1, 8, 8);
            match form {
                0 => vector_padding_l0(&dst, &src, 0, false, 128u64, 4, params)?,
                1 => vector_padding_l0(&dst, &src, 0, false, [u64::MAX, u64::MAX], 4, params)?,
                _ => vector_padding(&dst, &src, 0, false, 512)?,
            }
            dst.to_vec()
        });
        assert_eq!(v, want, "form {form}");
    }
}

#[test]
fn vector_padding_modes_and_sides() {
    // One block a..p = 1..16 (int16) and one of 8 floats 1..8.
    let cases: [(u8, bool, [i16; 16]); 6] = [
        (0, false, [1; 16]),
        (0, true, [16; 16]),
        (
            1,
            false,
            [16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1],
        ),
        (
            1,
            true,
            [16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1],
        ),
        (
            2,
            false,
            [0, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2],
        ),
        (
            2,
            true,
            [15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
        ),
    ];
    for (mode, side, want) in cases {
        let (a, f) = ok(&ASCEND310P, |b| {
            let src = b.get_with_offset::<i16>(16, 0)?;
            let dst = b.get_with_offset::<i16>(16, 1024)?;
            fill(&src, &(1..=16).collect::<Vec<i16>>())?;
            vector_padding(&dst, &src, mode, side, 16)?;
            let fs = b.get_with_offset::<f32>(8, 2048)?;
            let fd = b.get_with_offset::<f32>(8, 4096)?;
            fill(&fs, &(1..=8).map(|x| x as f32).collect::<Vec<_>>())?;
            vector_padding(&fd, &fs, mode, side, 8)?;
            Ok((dst.to_vec()?, fd.to_vec()?))
        });
        assert_eq!(a, want, "mode {mode} side {side}");
        let fwant: Vec<f32> = match (mode, side) {
            (0, false) => vec![1.0; 8],
            (0, true) => vec![8.0; 8],
            (1, _) => (1..=8).rev().map(|x| x as f32).collect(),
            (_, false) => [0.0, 8.0, 7.0, 6.0, 5.0, 4.0, 3.0, 2.0].to_vec(),
            (_, true) => [7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0, 0.0].to_vec(),
        };
        assert_eq!(f, fwant, "float mode {mode} side {side}");
    }
}

#[test]
fn vector_padding_mask_and_product_checks() {
    // Bit mask: only lanes 0..4 and 20 written; the source blocks are still read whole.
    let v = ok(&ASCEND310P, |b| {
        let src = b.get_with_offset::<i16>(128, 0)?;
        let dst = b.get_with_offset::<i16>(128, 1024)?;
        fill(&src, &(0..128).collect::<Vec<i16>>())?;
        fill(&dst, &[-1; 128])?;
        vector_padding_l0(
            &dst,
            &src,
            1,
            true,
            [0b1111 | 1 << 20, 0],
            1,
            UnaryRepeatParams::default(),
        )?;
        dst.to_vec()
    });
    assert_eq!(&v[..5], &[15, 14, 13, 12, -1]);
    assert_eq!(v[20], 31 - 4);
    assert_eq!(v.iter().filter(|&&x| x != -1).count(), 5);
    for p in [&ASCEND910, &ASCEND910B, &ASCEND910_93, &ASCEND310B] {
        let e = err(p, |b| {
            let t = b.get_with_offset::<f16>(128, 0)?;
            vector_padding(&t, &t, 0, false, 128)
        });
        assert_eq!(e.category, Category::Unsupported, "{}", p.soc);
    }
    let e = err(&ASCEND310P, |b| {
        let t = b.get_with_offset::<f16>(128, 0)?;
        vector_padding(&b.get_with_offset::<f16>(128, 1024)?, &t, 3, false, 128)
    });
    assert_eq!(e.category, Category::Range);
    assert!(e.message.contains("padMode"), "{e}");
    let e = err(&ASCEND310P, |b| {
        let t = b.get_with_offset::<i8>(128, 0)?;
        vector_padding(&b.get_with_offset::<i8>(128, 1024)?, &t, 0, false, 128)
    });
    assert_eq!(e.category, Category::Type);
}

// ---------------------------------------------------------------- BilinearInterpolation

/// The page's setup: src0 = 1 … 512, offsets 0, 32, … 992, src1 = 2 … (2 + n1), mask 128,
/// hRepeat 2, vRepeat 2, vROffset 128, dstBlkStride 1.
fn bilinear_page(p: &'static ChipProfile, repeat_mode: bool, n1: u32, mask: Mask) -> Vec<f16> {
    ok(p, |b| {
        let src0 = b.get_with_offset::<f16>(512, 0)?;
        let off = b.get_with_offset::<u32>(32, 1024)?;
        let src1 = b.get_with_offset::<f16>(n1, 2048)?;
        let dst = b.get_with_offset::<f16>(256, 4096)?;
        let tmp = b.get_with_offset::<u8>(20480, 8192)?;
        fill(&src0, &(1..=512).map(|i| h(i as f32)).collect::<Vec<_>>())?;
        fill(&off, &(0..32).map(|i| i * 32).collect::<Vec<u32>>())?;
        fill(
            &src1,
            &(0..n1).map(|i| h(i as f32 + 2.0)).collect::<Vec<_>>(),
        )?;
        fill(&dst, &[h(-1.0); 256])?;
        bilinear_interpolation(
            &dst,
            &src0,
            &off,
            &src1,
            mask,
            2,
            repeat_mode,
            1,
            128,
            2,
            &tmp,
        )?;
        dst.to_vec()
    })
}

#[test]
fn bilinear_interpolation_matches_the_page() {
    // repeatMode false: dst[v·128 + k] = src0[256v + k]·src1[2v] + src0[256v + 128 + k]·src1[2v + 1].
    for p in [&ASCEND310P, &ASCEND910B, &ASCEND910_93] {
        for mask in [Mask::Count(128), Mask::Bits([u64::MAX, u64::MAX])] {
            let v = bilinear_page(p, false, 16, mask);
            assert_eq!(v[0].to_f32(), 389.0);
            assert_eq!(&halves(&v[..4]), &[389.0, 394.0, 399.0, 404.0]);
            assert_eq!(v[255].to_f32(), 4096.0);
            assert_eq!(v.len(), 256);
            for (k, got) in v.iter().enumerate() {
                let (vv, kk) = (k / 128, k % 128);
                let a = (256 * vv + kk + 1) as f32 * (2 * vv + 2) as f32;
                let b = (256 * vv + 128 + kk + 1) as f32 * (2 * vv + 3) as f32;
                let want = f16::from_f32(f16::from_f32(a).to_f32() + f16::from_f32(b).to_f32());
                assert_eq!(*got, want, "{} element {k}", p.soc);
            }
        }
    }
}

#[test]
fn bilinear_interpolation_repeat_mode_true_weights_each_block() {
    // The page's walk-through: iteration it weights block j with src1[8·it + j] = 2 + 8·it + j.
    let v = bilinear_page(&ASCEND910B, true, 32, Mask::Count(128));
    assert_eq!(v.len(), 256);
    for (k, got) in v.iter().enumerate() {
        let (vv, kk) = (k / 128, k % 128);
        let j = kk / 16;
        let term = |hh: usize| {
            let it = 2 * vv + hh;
            let x = (256 * vv + 128 * hh + kk + 1) as f32;
            f16::from_f32(x * (2 + 8 * it + j) as f32).to_f32()
        };
        assert_eq!(*got, f16::from_f32(term(0) + term(1)), "element {k}");
    }
    // The first product of the page: 1·2; the last block of iteration 3: 512·33.
    assert_eq!(v[0].to_f32(), f16::from_f32(2.0 + 129.0 * 10.0).to_f32());
}

#[test]
fn bilinear_interpolation_masks_and_strides() {
    // mask 20 lanes, dstBlkStride 2: blocks land every 64 bytes; other lanes keep -1.
    let v = ok(&ASCEND910B, |b| {
        let src0 = b.get_with_offset::<f16>(128, 0)?;
        let off = b.get_with_offset::<u32>(8, 1024)?;
        let src1 = b.get_with_offset::<f16>(16, 2048)?;
        let dst = b.get_with_offset::<f16>(512, 4096)?;
        let tmp = b.get_with_offset::<u8>(8192, 8192)?;
        fill(&src0, &(0..128).map(|i| h(i as f32)).collect::<Vec<_>>())?;
        // Blocks in reverse order.
        fill(&off, &(0..8).map(|i| (7 - i) * 32).collect::<Vec<u32>>())?;
        fill(&src1, &[h(0.5); 16])?;
        fill(&dst, &[h(-1.0); 512])?;
        bilinear_interpolation(&dst, &src0, &off, &src1, 20u64, 1, false, 2, 256, 1, &tmp)?;
        dst.to_vec()
    });
    for (i, x) in v.iter().enumerate() {
        let (blk, lane) = (i / 16, i % 16);
        let want = if blk == 0 {
            (112 + lane) as f32 * 0.5
        } else if blk == 2 && lane < 4 {
            (96 + lane) as f32 * 0.5
        } else {
            -1.0
        };
        assert_eq!(x.to_f32(), want, "element {i}");
    }
}

#[test]
fn bilinear_interpolation_checks() {
    for p in [&ASCEND910, &ASCEND310B] {
        let e = err(p, |b| {
            let t = b.get_with_offset::<f16>(128, 0)?;
            let o = b.get_with_offset::<u32>(8, 1024)?;
            let tmp = b.get_with_offset::<u8>(8192, 8192)?;
            bilinear_interpolation(&t, &t, &o, &t, 128u64, 1, false, 1, 128, 1, &tmp)
        });
        assert_eq!(e.category, Category::Unsupported, "{}", p.soc);
    }
    let setup = |b: &Buf| -> Result<_> {
        let src0 = b.get_with_offset::<f16>(128, 0)?;
        let off = b.get_with_offset::<u32>(16, 1024)?;
        let src1 = b.get_with_offset::<f16>(16, 2048)?;
        let dst = b.get_with_offset::<f16>(512, 4096)?;
        fill(&off, &(0..16).map(|i| (i % 8) * 32).collect::<Vec<u32>>())?;
        Ok((src0, off, src1, dst))
    };
    // A2 tmp: src0 128 + src1 16 elements → (128 + 16)·32 = 4608 bytes.
    let e = err(&ASCEND910B, |b| {
        let (s0, o, s1, d) = setup(b)?;
        let tmp = b.get_with_offset::<u8>(4576, 8192)?;
        bilinear_interpolation(&d, &s0, &o, &s1, 128u64, 1, false, 1, 128, 1, &tmp)
    });
    assert_eq!(e.category, Category::Size);
    assert!(e.message.contains("4608"), "{e}");
    // 310P tmp: src0Offset 16 entries → 64 bytes.
    ok(&ASCEND310P, |b| {
        let (s0, o, s1, d) = setup(b)?;
        let tmp = b.get_with_offset::<u8>(64, 8192)?;
        bilinear_interpolation(&d, &s0, &o, &s1, 128u64, 1, false, 1, 128, 2, &tmp)
    });
    let e = err(&ASCEND910B, |b| {
        let (s0, o, s1, d) = setup(b)?;
        let tmp = b.get_with_offset::<u8>(8192, 8192)?;
        bilinear_interpolation(&d, &s0, &o, &s1, 128u64, 1, false, 1, 100, 1, &tmp)
    });
    assert_eq!(e.category, Category::Range);
    assert!(e.message.contains("vROffset"), "{e}");
    let e = err(&ASCEND910B, |b| {
        let (s0, o, s1, d) = setup(b)?;
        let tmp = b.get_with_offset::<u8>(8192, 8192)?;
        bilinear_interpolation(&d, &s0, &o, &s1, 128u64, 0, false, 1, 128, 1, &tmp)
    });
    assert!(e.message.contains("hRepeat"), "{e}");
    // An offset off the 32-byte grid.
    let e = err(&ASCEND910B, |b| {
        let (s0, o, s1, d) = setup(b)?;
        o.set_value(5, 40)?;
        let tmp = b.get_with_offset::<u8>(8192, 8192)?;
        bilinear_interpolation(&d, &s0, &o, &s1, 128u64, 1, false, 1, 128, 1, &tmp)
    });
    assert_eq!(e.category, Category::Range);
    assert!(e.message.contains("src0Offset[5]"), "{e}");
    // Vertical iterations writing over each other (dstBlkStride 2 spans 480 bytes > 128 halves).
    let e = err(&ASCEND910B, |b| {
        let (s0, o, s1, d) = setup(b)?;
        let tmp = b.get_with_offset::<u8>(8192, 8192)?;
        bilinear_interpolation(&d, &s0, &o, &s1, 128u64, 1, false, 2, 128, 2, &tmp)
    });
    assert_eq!(e.category, Category::Overlap);
    // src1 too short for repeatMode true (8 weights per iteration).
    let e = err(&ASCEND910B, |b| {
        let (s0, o, _, d) = setup(b)?;
        let s1 = b.get_with_offset::<f16>(4, 2048)?;
        let tmp = b.get_with_offset::<u8>(8192, 8192)?;
        bilinear_interpolation(&d, &s0, &o, &s1, 128u64, 1, true, 1, 128, 1, &tmp)
    });
    assert_eq!(e.category, Category::Size);
    assert!(e.message.contains("src1"), "{e}");
}
