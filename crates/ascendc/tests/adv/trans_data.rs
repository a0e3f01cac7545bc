//! TransData against a host permutation of the documented layouts: the four conversions, every
//! 16-bit type, C and N that are not multiples of 16, H·W with and without padding, D > 1, both
//! temporary-space forms, the page's example, GetTransDataMaxMinTmpSize, and errors.

use ascendc::adv::common::Tmp;
use ascendc::adv::transpose::trans_data::{
    trans_data, trans_data_max_min_tmp_size, DataFormat, TransDataConfig,
};
use ascendc::chip::{ChipProfile, Product};
use ascendc::prelude::*;
use ascendc::{bf16, f16, Category, DType, LocalTensor, SimError};
use std::sync::Mutex;

use DataFormat::{FRACTAL_Z_3D, NCDHW, NDC1HWC0};

/// A poison value for the NCDHW row padding the caller leaves.
const PAD: u16 = 0xBEEF;

#[derive(Clone, Copy, Debug)]
struct S {
    n: usize,
    c: usize,
    d: usize,
    h: usize,
    w: usize,
}

impl S {
    fn hw(&self) -> usize {
        self.h * self.w
    }
    fn pad_hw(&self) -> usize {
        self.hw().div_ceil(16) * 16
    }
    fn c1(&self) -> usize {
        self.c.div_ceil(16)
    }
    fn n1(&self) -> usize {
        self.n.div_ceil(16)
    }
    fn ncdhw(&self) -> Vec<i64> {
        [self.n, self.c, self.d, self.h, self.w]
            .iter()
            .map(|&v| v as i64)
            .collect()
    }
    fn six(&self) -> Vec<i64> {
        [self.n, self.d, self.c1(), self.h, self.w, 16]
            .iter()
            .map(|&v| v as i64)
            .collect()
    }
    fn fz(&self) -> Vec<i64> {
        [self.d, self.c1(), self.h, self.w, self.n1(), 16, 16]
            .iter()
            .map(|&v| v as i64)
            .collect()
    }
    /// Offset of (n, c, d, hw) in the padded NCDHW operand.
    fn at_ncdhw(&self, n: usize, c: usize, d: usize, hw: usize) -> usize {
        ((n * self.c + c) * self.d + d) * self.pad_hw() + hw
    }
    fn len_ncdhw(&self) -> usize {
        self.n * self.c * self.d * self.pad_hw()
    }
    fn at_six(&self, n: usize, d: usize, c1: usize, hw: usize, c0: usize) -> usize {
        (((n * self.d + d) * self.c1() + c1) * self.hw() + hw) * 16 + c0
    }
    fn len_six(&self) -> usize {
        self.n * self.d * self.c1() * self.hw() * 16
    }
    fn at_fz(&self, d: usize, c1: usize, hw: usize, n1: usize, n0: usize, c0: usize) -> usize {
        ((((d * self.c1() + c1) * self.hw() + hw) * self.n1() + n1) * 16 + n0) * 16 + c0
    }
    fn len_fz(&self) -> usize {
        self.d * self.c1() * self.hw() * self.n1() * 256
    }
}

/// Distinct nonzero bit patterns.
fn val(i: usize) -> u16 {
    ((i * 7 + 1) % 0xBEE0) as u16 + 1
}

/// An NCDHW input: distinct values, the row padding poisoned.
fn ncdhw_input(s: &S) -> Vec<u16> {
    let mut v = vec![PAD; s.len_ncdhw()];
    for n in 0..s.n {
        for c in 0..s.c {
            for d in 0..s.d {
                for hw in 0..s.hw() {
                    let i = s.at_ncdhw(n, c, d, hw);
                    v[i] = val(i);
                }
            }
        }
    }
    v
}

/// NCDHW → NDC1HWC0 on the host (missing channels zero).
fn golden_6hd(s: &S, x: &[u16]) -> Vec<u16> {
    let mut out = vec![0; s.len_six()];
    for n in 0..s.n {
        for d in 0..s.d {
            for c1 in 0..s.c1() {
                for hw in 0..s.hw() {
                    for c0 in 0..16 {
                        let c = c1 * 16 + c0;
                        if c < s.c {
                            out[s.at_six(n, d, c1, hw, c0)] = x[s.at_ncdhw(n, c, d, hw)];
                        }
                    }
                }
            }
        }
    }
    out
}

/// NCDHW → FRACTAL_Z_3D on the host (missing channels and batches zero).
fn golden_fz(s: &S, x: &[u16]) -> Vec<u16> {
    let mut out = vec![0; s.len_fz()];
    for d in 0..s.d {
        for c1 in 0..s.c1() {
            for hw in 0..s.hw() {
                for n1 in 0..s.n1() {
                    for n0 in 0..16 {
                        for c0 in 0..16 {
                            let (n, c) = (n1 * 16 + n0, c1 * 16 + c0);
                            if n < s.n && c < s.c {
                                out[s.at_fz(d, c1, hw, n1, n0, c0)] = x[s.at_ncdhw(n, c, d, hw)];
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

/// The valid (n, c, d, hw) offsets of an NCDHW output with, for each, where it comes from in a
/// NDC1HWC0 (`six`) or FRACTAL_Z_3D source.
fn ncdhw_sources(s: &S, six: bool) -> Vec<(usize, usize)> {
    let mut v = Vec::new();
    for n in 0..s.n {
        for c in 0..s.c {
            for d in 0..s.d {
                for hw in 0..s.hw() {
                    let from = if six {
                        s.at_six(n, d, c / 16, hw, c % 16)
                    } else {
                        s.at_fz(d, c / 16, hw, n / 16, n % 16, c % 16)
                    };
                    v.push((s.at_ncdhw(n, c, d, hw), from));
                }
            }
        }
    }
    v
}

/// Bytes of temporary space, from the page's rules as the device's helper states them.
fn tmp_rule(s: &S, cfg: (DataFormat, DataFormat)) -> usize {
    let (c1, n1, p) = (s.c1(), s.n1(), s.pad_hw());
    match cfg {
        (NCDHW, NDC1HWC0) => 2 * (s.d * p + s.d * c1 * 16 * p),
        (NDC1HWC0, NCDHW) => 2 * s.d * c1 * 16 * p + 512,
        (NCDHW, FRACTAL_Z_3D) => {
            2 * (s.c * s.d * p).max(s.d * s.hw() * n1 * 16) + 2 * n1 * 16 * s.d * c1 * 16 * p
        }
        _ => {
            let one = 2 * n1 * 16 * c1 * 16 * s.d * p;
            if s.n.is_multiple_of(16) && s.c.is_multiple_of(16) {
                one
            } else {
                2 * one
            }
        }
    }
}

/// A scratch UB (a TBuf of `bytes`) handing out 32-byte-aligned tensors.
struct Ub {
    buf: TBuf<QuePosition::VECCALC>,
    next: u32,
}

impl Ub {
    fn from(&mut self, v: &[u16]) -> LocalTensor<u16> {
        let mut t = self
            .buf
            .get::<u8>()
            .unwrap()
            .at(self.next)
            .unwrap()
            .reinterpret_cast::<u16>();
        t.set_size(v.len() as u32).unwrap();
        self.next += (v.len() as u32 * 2).div_ceil(32) * 32;
        for (i, x) in v.iter().enumerate() {
            t.set_value(i as u32, *x).unwrap();
        }
        t
    }
    fn zeros(&mut self, n: usize) -> LocalTensor<u16> {
        self.from(&vec![0x5A5A; n])
    }
}

fn launch<R: Send>(
    product: &str,
    ub_bytes: u32,
    f: impl Fn(&mut Ub, &TPipe) -> Result<R> + Sync,
) -> std::result::Result<R, SimError> {
    let out = Mutex::new(None);
    let l = Launch::new(1).profile(ChipProfile::by_name(product).unwrap());
    l.run(|| {
        let mut pipe = TPipe::new();
        let mut buf = TBuf::<QuePosition::VECCALC>::new();
        pipe.init_buffer(&mut buf, 1, ub_bytes)?;
        let mut ub = Ub { buf, next: 0 };
        let r = f(&mut ub, &pipe)?;
        *out.lock().unwrap() = Some(r);
        Ok(())
    })
    .map_err(|e| e.errors[0].clone())?;
    Ok(out.into_inner().unwrap().unwrap())
}

/// `trans_data::<T>` on u16 views.
fn call(
    dt: DType,
    dst: &LocalTensor<u16>,
    src: &LocalTensor<u16>,
    tmp: Tmp,
    cfg: TransDataConfig,
    ss: &[i64],
    ds: &[i64],
) -> Result<()> {
    macro_rules! go {
        ($t:ty) => {
            trans_data::<$t>(
                &dst.reinterpret_cast::<$t>(),
                &src.reinterpret_cast::<$t>(),
                tmp,
                cfg,
                ss,
                ds,
            )
        };
    }
    match dt {
        DType::Half => go!(f16),
        DType::Bfloat16 => go!(bf16),
        DType::Int16 => go!(i16),
        DType::Uint16 => go!(u16),
        DType::Int32 => go!(i32),
        _ => unreachable!(),
    }
}

const TYPES: [DType; 4] = [DType::Half, DType::Bfloat16, DType::Int16, DType::Uint16];

/// Runs one conversion of `input` (src shape `ss`, dst shape `ds`) into `dst_len` elements:
/// with a sharedTmpBuffer of exactly GetTransDataMaxMinTmpSize bytes, or (`stack`) the pipe's
/// free UB.
#[allow(clippy::too_many_arguments)]
fn convert(
    product: &str,
    dt: DType,
    cfg: (DataFormat, DataFormat),
    ss: &[i64],
    ds: &[i64],
    input: &[u16],
    dst_len: usize,
    tmp_bytes: usize,
    stack: bool,
) -> std::result::Result<Vec<u16>, SimError> {
    let cfg = TransDataConfig::new(cfg.0, cfg.1);
    let ub = if stack {
        ((input.len() + dst_len) * 2 + 64) as u32
    } else {
        ((input.len() + dst_len) * 2 + tmp_bytes + 96) as u32
    };
    launch(product, ub, |ub, pipe| {
        let src = ub.from(input);
        let dst = ub.zeros(dst_len);
        let tmp = if stack {
            Tmp::Stack(pipe)
        } else {
            let t = ub.zeros(tmp_bytes / 2).reinterpret_cast::<u8>();
            return call(dt, &dst, &src, Tmp::Shared(&t), cfg, ss, ds).map(|_| {
                (0..dst_len as u32)
                    .map(|i| dst.get_value(i).unwrap())
                    .collect()
            });
        };
        call(dt, &dst, &src, tmp, cfg, ss, ds)?;
        Ok((0..dst_len as u32)
            .map(|i| dst.get_value(i).unwrap())
            .collect())
    })
}

fn host_tmp(s: &S, cfg: (DataFormat, DataFormat), ss: &[i64], ds: &[i64], dt: DType) -> usize {
    let (max, min) = trans_data_max_min_tmp_size(
        Product::Ascend910B,
        ss,
        ds,
        dt,
        TransDataConfig::new(cfg.0, cfg.1),
    )
    .unwrap();
    assert_eq!(max, min);
    assert_eq!(min as usize, tmp_rule(s, cfg), "{s:?} {cfg:?}");
    min as usize
}

/// The four conversions of `s` in type `dt` on `product`, checked against the host permutation.
fn check_all(product: &str, dt: DType, s: S, stack: bool) {
    let what = format!("{product} {dt} {s:?} stack={stack}");
    // NCDHW -> NDC1HWC0
    let x = ncdhw_input(&s);
    let cfg = (NCDHW, NDC1HWC0);
    let tmp = host_tmp(&s, cfg, &s.ncdhw(), &s.six(), dt);
    let six = convert(
        product,
        dt,
        cfg,
        &s.ncdhw(),
        &s.six(),
        &x,
        s.len_six(),
        tmp,
        stack,
    )
    .unwrap();
    assert_eq!(six, golden_6hd(&s, &x), "NCDHW -> NDC1HWC0 {what}");
    // NDC1HWC0 -> NCDHW, from an input whose padding channels hold values too.
    let src6: Vec<u16> = (0..s.len_six()).map(|i| val(i + 3)).collect();
    let cfg = (NDC1HWC0, NCDHW);
    let tmp = host_tmp(&s, cfg, &s.six(), &s.ncdhw(), dt);
    let back = convert(
        product,
        dt,
        cfg,
        &s.six(),
        &s.ncdhw(),
        &src6,
        s.len_ncdhw(),
        tmp,
        stack,
    )
    .unwrap();
    for (o, from) in ncdhw_sources(&s, true) {
        assert_eq!(back[o], src6[from], "NDC1HWC0 -> NCDHW {what} at {o}");
    }
    // NCDHW -> FRACTAL_Z_3D
    let cfg = (NCDHW, FRACTAL_Z_3D);
    let tmp = host_tmp(&s, cfg, &s.ncdhw(), &s.fz(), dt);
    let fz = convert(
        product,
        dt,
        cfg,
        &s.ncdhw(),
        &s.fz(),
        &x,
        s.len_fz(),
        tmp,
        stack,
    )
    .unwrap();
    assert_eq!(fz, golden_fz(&s, &x), "NCDHW -> FRACTAL_Z_3D {what}");
    // FRACTAL_Z_3D -> NCDHW, from an input whose padding holds values too.
    let srcf: Vec<u16> = (0..s.len_fz()).map(|i| val(i + 5)).collect();
    let cfg = (FRACTAL_Z_3D, NCDHW);
    let tmp = host_tmp(&s, cfg, &s.fz(), &s.ncdhw(), dt);
    let back = convert(
        product,
        dt,
        cfg,
        &s.fz(),
        &s.ncdhw(),
        &srcf,
        s.len_ncdhw(),
        tmp,
        stack,
    )
    .unwrap();
    for (o, from) in ncdhw_sources(&s, false) {
        assert_eq!(back[o], srcf[from], "FRACTAL_Z_3D -> NCDHW {what} at {o}");
    }
}

fn s(n: usize, c: usize, d: usize, h: usize, w: usize) -> S {
    S { n, c, d, h, w }
}

#[test]
fn trans_data_every_type_padded_tails() {
    // C and N not multiples of 16, H·W = 6 padded to 16, D = 2.
    for dt in TYPES {
        check_all("a2", dt, s(18, 17, 2, 2, 3), false);
    }
}

#[test]
fn trans_data_shapes() {
    // Aligned C and N with unpadded H·W; one batch, one channel; D = 3 with H·W = 20.
    check_all("a2", DType::Half, s(16, 16, 2, 4, 4), false);
    check_all("a3", DType::Half, s(1, 1, 1, 1, 1), false);
    check_all("a3", DType::Int16, s(5, 3, 3, 4, 5), false);
    check_all("a2", DType::Uint16, s(3, 33, 1, 2, 8), false);
}

#[test]
fn trans_data_stack_buffer() {
    check_all("a2", DType::Half, s(18, 17, 2, 2, 3), true);
    check_all("a3", DType::Bfloat16, s(16, 32, 1, 4, 4), true);
}

#[test]
fn trans_data_page_example() {
    // The page's call names NCDHW (1, 32, 2, 2, 8), but its data (512 values, 16 per channel,
    // the second output group starting at 256) are those of D = 1: (1, 32, 1, 2, 8) ->
    // NDC1HWC0 (1, 1, 2, 2, 8, 16), half, input 0..511.
    let x: Vec<u16> = (0..512)
        .map(|i| f16::from_f32(i as f32).to_bits())
        .collect();
    let sh = s(1, 32, 1, 2, 8);
    let out = convert(
        "a2",
        DType::Half,
        (NCDHW, NDC1HWC0),
        &sh.ncdhw(),
        &sh.six(),
        &x,
        512,
        tmp_rule(&sh, (NCDHW, NDC1HWC0)),
        false,
    )
    .unwrap();
    let v: Vec<f32> = out.iter().map(|&b| f16::from_bits(b).to_f32()).collect();
    // The page's first rows and its last row.
    let row = |r: usize| v[r * 16..r * 16 + 16].to_vec();
    let want0: Vec<f32> = (0..16).map(|k| (k * 16) as f32).collect();
    let want1: Vec<f32> = (0..16).map(|k| (1 + k * 16) as f32).collect();
    let want_last: Vec<f32> = (0..16).map(|k| (271 + k * 16) as f32).collect();
    assert_eq!(row(0), want0);
    assert_eq!(row(1), want1);
    assert_eq!(row(31), want_last);
    assert_eq!(out, golden_6hd(&sh, &x));
}

#[test]
fn trans_data_host_helper() {
    // The page's example: (1,16,2,4,4) -> (1,2,1,4,4,16), half.
    let sh = s(1, 16, 2, 4, 4);
    let cfg = TransDataConfig::new(NCDHW, NDC1HWC0);
    let r = trans_data_max_min_tmp_size(
        Product::Ascend910B,
        &sh.ncdhw(),
        &sh.six(),
        DType::Half,
        cfg,
    );
    assert_eq!(r, Ok((1088, 1088)));
    let r = trans_data_max_min_tmp_size(
        Product::Ascend910_93,
        &sh.ncdhw(),
        &sh.six(),
        DType::Uint16,
        cfg,
    );
    assert_eq!(r, Ok((1088, 1088)));
    for p in [Product::Ascend310P, Product::Ascend310B, Product::Ascend910] {
        let e =
            trans_data_max_min_tmp_size(p, &sh.ncdhw(), &sh.six(), DType::Half, cfg).unwrap_err();
        assert!(e.contains("not available on"), "{e}");
    }
    let e = trans_data_max_min_tmp_size(
        Product::Ascend910B,
        &sh.ncdhw(),
        &sh.six(),
        DType::Float,
        cfg,
    )
    .unwrap_err();
    assert!(e.contains("DT_FLOAT16/DT_BF16/DT_UINT16/DT_INT16"), "{e}");
    // Mismatched shapes and ranks, an unsupported conversion.
    let e = trans_data_max_min_tmp_size(
        Product::Ascend910B,
        &sh.ncdhw(),
        &[1, 2, 2, 4, 4, 16],
        DType::Half,
        cfg,
    )
    .unwrap_err();
    assert!(e.contains("its C1 is 2, must be 1"), "{e}");
    let e =
        trans_data_max_min_tmp_size(Product::Ascend910B, &sh.ncdhw(), &sh.fz(), DType::Half, cfg)
            .unwrap_err();
    assert!(e.contains("it has 6"), "{e}");
    let e = trans_data_max_min_tmp_size(
        Product::Ascend910B,
        &sh.ncdhw(),
        &sh.ncdhw(),
        DType::Half,
        TransDataConfig::new(NCDHW, NCDHW),
    )
    .unwrap_err();
    assert!(e.contains("not supported"), "{e}");
    // FRACTAL_Z_3D: the N split.
    let e = trans_data_max_min_tmp_size(
        Product::Ascend910B,
        &sh.ncdhw(),
        &[2, 1, 4, 4, 2, 16, 16],
        DType::Half,
        TransDataConfig::new(NCDHW, FRACTAL_Z_3D),
    )
    .unwrap_err();
    assert!(e.contains("its N1 is 2, must be 1"), "{e}");
}

#[test]
fn trans_data_errors() {
    let sh = s(2, 17, 2, 2, 3);
    let cfg = (NCDHW, NDC1HWC0);
    let x = ncdhw_input(&sh);
    let tmp = tmp_rule(&sh, cfg);
    let run = |p: &str, dt: DType, ss: Vec<i64>, ds: Vec<i64>, tmp: usize, dst_len: usize| {
        convert(p, dt, cfg, &ss, &ds, &x, dst_len, tmp, false).unwrap_err()
    };
    for p in ["310p", "310b", "910"] {
        let e = run(p, DType::Half, sh.ncdhw(), sh.six(), tmp, sh.len_six());
        assert_eq!(e.category, Category::Unsupported, "{p}");
        assert!(e.message.contains("not available on"), "{}", e.message);
    }
    let e = run("a2", DType::Int32, sh.ncdhw(), sh.six(), tmp, sh.len_six());
    assert_eq!(e.category, Category::Type);
    let e = run(
        "a2",
        DType::Half,
        sh.ncdhw(),
        sh.six(),
        tmp - 32,
        sh.len_six(),
    );
    assert_eq!(e.category, Category::Size);
    assert!(
        e.message.contains("GetTransDataMaxMinTmpSize"),
        "{}",
        e.message
    );
    let e = run(
        "a2",
        DType::Half,
        sh.ncdhw(),
        sh.six(),
        tmp,
        sh.len_six() - 16,
    );
    assert!(e.message.contains("`dstTensor` holds"), "{}", e.message);
    let e = run(
        "a2",
        DType::Half,
        sh.ncdhw(),
        vec![2, 2, 2, 2, 3, 8],
        tmp,
        sh.len_six(),
    );
    assert_eq!(e.category, Category::Range);
    assert!(
        e.message.contains("its C0 is 8, must be 16"),
        "{}",
        e.message
    );
    let e = run("a2", DType::Half, sh.ncdhw(), sh.fz(), tmp, sh.len_six());
    assert!(e.message.contains("has 7 dimensions"), "{}", e.message);
    // Unsupported conversion.
    let e = convert(
        "a2",
        DType::Half,
        (NDC1HWC0, FRACTAL_Z_3D),
        &sh.six(),
        &sh.fz(),
        &x,
        sh.len_fz(),
        tmp,
        false,
    )
    .unwrap_err();
    assert!(e.message.contains("is not supported"), "{}", e.message);
    // Overlapping source and destination.
    let e = launch("a2", 65536, |ub, _| {
        let src = ub.from(&x);
        let t = ub.zeros(tmp / 2).reinterpret_cast::<u8>();
        call(
            DType::Half,
            &src,
            &src,
            Tmp::Shared(&t),
            TransDataConfig::new(NCDHW, NDC1HWC0),
            &sh.ncdhw(),
            &sh.six(),
        )
    })
    .unwrap_err();
    assert_eq!(e.category, Category::Overlap);
}

#[test]
fn trans_data_round_trips() {
    // NCDHW -> FRACTAL_Z_3D -> NCDHW and NCDHW -> NDC1HWC0 -> NCDHW give the input back.
    let sh = s(17, 20, 1, 1, 5);
    let x = ncdhw_input(&sh);
    let t = |cfg| tmp_rule(&sh, cfg);
    let fz = convert(
        "a2",
        DType::Half,
        (NCDHW, FRACTAL_Z_3D),
        &sh.ncdhw(),
        &sh.fz(),
        &x,
        sh.len_fz(),
        t((NCDHW, FRACTAL_Z_3D)),
        false,
    )
    .unwrap();
    let back = convert(
        "a2",
        DType::Half,
        (FRACTAL_Z_3D, NCDHW),
        &sh.fz(),
        &sh.ncdhw(),
        &fz,
        sh.len_ncdhw(),
        t((FRACTAL_Z_3D, NCDHW)),
        false,
    )
    .unwrap();
    let six = convert(
        "a2",
        DType::Half,
        (NCDHW, NDC1HWC0),
        &sh.ncdhw(),
        &sh.six(),
        &x,
        sh.len_six(),
        t((NCDHW, NDC1HWC0)),
        false,
    )
    .unwrap();
    let back6 = convert(
        "a2",
        DType::Half,
        (NDC1HWC0, NCDHW),
        &sh.six(),
        &sh.ncdhw(),
        &six,
        sh.len_ncdhw(),
        t((NDC1HWC0, NCDHW)),
        false,
    )
    .unwrap();
    for n in 0..sh.n {
        for c in 0..sh.c {
            for d in 0..sh.d {
                for hw in 0..sh.hw() {
                    let o = sh.at_ncdhw(n, c, d, hw);
                    assert_eq!(back[o], x[o]);
                    assert_eq!(back6[o], x[o]);
                }
            }
        }
    }
}
