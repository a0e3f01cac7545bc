//! The worked examples of the LoadData, LoadDataWithTranspose, Mmad and Fixpipe pages, with
//! exact values, and the cube unit's validation errors.

use crate::common;
use ascendc::api::cube::layout::{nd_to_nz, nd_to_zz};
use ascendc::chip::{ASCEND310B, ASCEND310P, ASCEND910};
use ascendc::prelude::*;
use ascendc::{Category, ChipProfile, SimError};
use common::*;

/// Puts `data` into a fresh A1 (L1) tensor through GM.
fn l1<T: Element>(
    pipe: &mut TPipe,
    q: &mut TQue<QuePosition::A1, 1>,
    g: &GmAddr,
    n: u32,
) -> Result<LocalTensor<T>> {
    pipe.init_buffer(q, 1, n * T::SIZE as u32)?;
    let mut gt = GlobalTensor::<T>::new();
    gt.set_global_buffer(g.clone());
    let t = q.alloc_tensor::<T>()?;
    data_copy(&t, &gt, n)?;
    Ok(t)
}

/// Runs `loads` from an L1 tensor holding 0, 1, 2, … into an L0A (or L0B) tensor of `dst_elems`
/// elements; returns the destination before and after.
fn load_example<T: Element>(
    src_elems: u32,
    dst_elems: u32,
    to_b: bool,
    loads: impl Fn(&LocalTensor<T>, &LocalTensor<T>) -> Result<()> + Sync,
) -> (Vec<T>, Vec<T>) {
    let src: Vec<T> = (0..src_elems as usize).map(pat::<T>).collect();
    let g = GmBuffer::from_slice(&src);
    let ga = g.addr();
    let out = Slot::new();
    run(|| {
        let mut pipe = TPipe::new();
        let mut qa1: TQue<QuePosition::A1, 1> = TQue::new();
        let s = l1::<T>(&mut pipe, &mut qa1, &ga, src_elems)?;
        let mut qa2: TQue<QuePosition::A2, 1> = TQue::new();
        let mut qb2: TQue<QuePosition::B2, 1> = TQue::new();
        let d = if to_b {
            pipe.init_buffer(&mut qb2, 1, dst_elems * T::SIZE as u32)?;
            qb2.alloc_tensor::<T>()?
        } else {
            pipe.init_buffer(&mut qa2, 1, dst_elems * T::SIZE as u32)?;
            qa2.alloc_tensor::<T>()?
        };
        let before = d.to_vec()?;
        loads(&d, &s)?;
        out.put((before, d.to_vec()?));
        Ok(())
    });
    out.get()
}

/// Fractal `f` (of `fe` elements) of a vector.
fn frac<T: Copy>(v: &[T], f: usize, fe: usize) -> Vec<T> {
    v[f * fe..(f + 1) * fe].to_vec()
}

/// Element `i` of the source pattern: its index modulo 2000 (251 for 8-bit types).
fn pat<T: Element>(i: usize) -> T {
    T::from_f64((i % if T::SIZE == 1 { 251 } else { 2000 }) as f64)
}

/// The source fractal `f` of the pattern.
fn src_frac<T: Element>(f: usize, fe: usize) -> Vec<T> {
    (f * fe..(f + 1) * fe).map(pat::<T>).collect()
}

fn transposed16<T: Copy>(v: &[T]) -> Vec<T> {
    (0..256).map(|i| v[(i % 16) * 16 + i / 16]).collect()
}

#[test]
fn load2d_noncontiguous_float_to_l0a() {
    // startIndex 0, repeatTimes 4, srcStride 2, dstGap 2: fractal 2i → fractal 3i.
    let (before, after) = load_example::<f32>(8 * 128, 12 * 128, false, |d, s| {
        load_data(d, s, LoadData2DParams::new(0, 4, 2, 0, 2, false, 0))
    });
    for i in 0..4 {
        assert_eq!(frac(&after, 3 * i, 128), src_frac::<f32>(2 * i, 128));
        if i < 3 {
            let (a, b) = (frac(&after, 3 * i + 1, 128), frac(&before, 3 * i + 1, 128));
            assert_eq!(format!("{a:?}"), format!("{b:?}")); // stale data, NaNs included
        }
    }
}

#[test]
fn load2d_six_float_fractals_in_three_calls() {
    // Each call: source + 2 fractals, destination + 1 fractal, repeatTimes 2, srcStride 1, dstGap 2.
    let (_, after) = load_example::<f32>(6 * 128, 6 * 128, false, |d, s| {
        for c in 0..3u32 {
            load_data(
                &d.at(c * 128)?,
                &s.at(2 * c * 128)?,
                LoadData2DParams::new(0, 2, 1, 0, 2, false, 0),
            )?;
        }
        Ok(())
    });
    for c in 0..3 {
        assert_eq!(frac(&after, c, 128), src_frac::<f32>(2 * c, 128));
        assert_eq!(frac(&after, c + 3, 128), src_frac::<f32>(2 * c + 1, 128));
    }
}

#[test]
fn load2d_eight_float_fractals_to_l0b_in_two_calls() {
    // Each call: source + 1, destination + 1, repeatTimes 4, srcStride 2, dstGap 1.
    let (_, after) = load_example::<f32>(8 * 128, 8 * 128, true, |d, s| {
        for c in 0..2u32 {
            load_data(
                &d.at(c * 128)?,
                &s.at(c * 128)?,
                LoadData2DParams::new(0, 4, 2, 0, 1, false, 0),
            )?;
        }
        Ok(())
    });
    for f in 0..8 {
        assert_eq!(frac(&after, f, 128), src_frac::<f32>(f, 128));
    }
}

#[test]
fn load2d_start_index_skips_the_first_fractal() {
    let (_, after) = load_example::<f32>(8 * 128, 12 * 128, false, |d, s| {
        load_data(d, s, LoadData2DParams::new(1, 4, 2, 0, 2, false, 0))
    });
    for i in 0..4 {
        assert_eq!(frac(&after, 3 * i, 128), src_frac::<f32>(1 + 2 * i, 128));
    }
}

#[test]
fn load2d_transpose_demos() {
    // Demo 1: repeatTimes 2, srcStride 2, dstGap 2, ifTranspose.
    let (_, after) = load_example::<f16>(4 * 256, 6 * 256, false, |d, s| {
        load_data(d, s, LoadData2DParams::new(0, 2, 2, 0, 2, true, 0))
    });
    for i in 0..2 {
        assert_eq!(
            frac(&after, 3 * i, 256),
            transposed16(&src_frac::<f16>(2 * i, 256))
        );
    }
    // Demo 2: six fractals in two calls (offset 1 each), repeatTimes 3, srcStride 2, dstGap 1.
    let (_, after) = load_example::<f16>(6 * 256, 6 * 256, false, |d, s| {
        for c in 0..2u32 {
            load_data(
                &d.at(c * 256)?,
                &s.at(c * 256)?,
                LoadData2DParams::new(0, 3, 2, 0, 1, true, 0),
            )?;
        }
        Ok(())
    });
    for f in 0..6 {
        assert_eq!(frac(&after, f, 256), transposed16(&src_frac::<f16>(f, 256)));
    }
}

#[test]
fn load2d_call_example_transposed_a_becomes_zz() {
    // A is stored transposed (k × m ND → NZ in L1); the page's loop yields A in ZZ.
    let (m, k) = (32usize, 48usize);
    let a: Vec<f16> = (0..m * k)
        .map(|i| f16::from_f32((i % 1000) as f32))
        .collect();
    let at: Vec<f16> = (0..k * m).map(|i| a[(i % m) * k + i / m]).collect();
    let nz = nd_to_nz(&at, k, m, 16, 16);
    let g = GmBuffer::from_slice(&nz);
    let ga = g.addr();
    let out = Slot::new();
    run(|| {
        let mut pipe = TPipe::new();
        let mut qa1: TQue<QuePosition::A1, 1> = TQue::new();
        let s = l1::<f16>(&mut pipe, &mut qa1, &ga, (m * k) as u32)?;
        let mut qa2: TQue<QuePosition::A2, 1> = TQue::new();
        pipe.init_buffer(&mut qa2, 1, (m * k * 2) as u32)?;
        let d = qa2.alloc_tensor::<f16>()?;
        let k1 = (k / 16) as u32;
        for i in 0..(m / 16) as u32 {
            let p = LoadData2DParams::new(0, k1 as u8, 1, 0, 0, true, 0);
            load_data(&d.at(i * k1 * 256)?, &s.at(i * k1 * 256)?, p)?;
        }
        out.put(d.to_vec()?);
        Ok(())
    });
    assert_eq!(out.get(), nd_to_zz(&a, m, k, 16));
}

/// The LoadDataWithTranspose pseudo-code, literally: element indices of the destination.
fn with_transpose_reference(
    bits: usize,
    start: usize,
    repeat: usize,
    src_stride: usize,
    dst_gap: usize,
    frac_gap: usize,
    dst: &mut [u32],
) {
    let (num, fshape, sq) = match bits {
        8 => (2, [16, 32], 32),
        16 => (1, [16, 16], 16),
        _ => (2, [16, 8], 16),
    };
    let fsize = fshape[0] * fshape[1];
    let ssize = fsize * num;
    let src = |i: usize| i as u32;
    let base = start * ssize;
    for i in 0..repeat {
        let s = base + src_stride * i * ssize;
        let d = (dst_gap + 1) * i * fsize;
        if bits == 32 {
            let off = fshape[1] * fshape[1];
            let parts = [
                (0, 0),
                (off, (frac_gap + 1) * fsize),
                (fsize, off),
                (fsize + off, (frac_gap + 1) * fsize + off),
            ];
            for (so, dof) in parts {
                for k in 0..fshape[1] {
                    for t in 0..fshape[1] {
                        dst[d + dof + fshape[1] * k + t] = src(s + so + k + t * fshape[1]);
                    }
                }
            }
        } else {
            for j in 0..num {
                let df = d + fsize * (frac_gap + 1) * j;
                for k in 0..fshape[0] {
                    for t in 0..fshape[1] {
                        dst[df + k * fshape[1] + t] = src(s + j * fshape[0] + k + t * sq);
                    }
                }
            }
        }
    }
}

fn with_transpose_case<T: Element>(bits: usize, p: LoadData2dTransposeParams, dst_elems: usize) {
    // Source holds its own element index (mod 2^bits for 8-bit types, compared as such).
    let n_src = 4096usize / T::SIZE;
    let (before, after) = load_example::<T>(n_src as u32, dst_elems as u32, true, |d, s| {
        load_data_with_transpose(d, s, p)
    });
    let mut want = vec![u32::MAX; dst_elems];
    with_transpose_reference(
        bits,
        p.start_index as usize,
        p.repeat_times as usize,
        p.src_stride as usize,
        p.dst_gap as usize,
        p.dst_frac_gap as usize,
        &mut want,
    );
    for (i, w) in want.iter().enumerate() {
        if *w == u32::MAX {
            let (a, b) = (after[i], before[i]);
            assert_eq!(
                format!("{a:?}"),
                format!("{b:?}"),
                "element {i} must be untouched"
            );
        } else {
            assert_eq!(after[i], pat::<T>(*w as usize), "element {i}");
        }
    }
}

#[test]
fn load_with_transpose_pseudo_code_examples() {
    // b32: repeatTimes 2, srcStride 1, dstGap 2, dstFracGap 0.
    with_transpose_case::<f32>(
        32,
        LoadData2dTransposeParams::new(0, 2, 1, 2, 0, false),
        6 * 128,
    );
    // b16: one square.
    with_transpose_case::<f16>(
        16,
        LoadData2dTransposeParams::new(0, 1, 0, 0, 0, false),
        2 * 256,
    );
    // b8: two 32 × 16 fractals, one fractal apart (dstFracGap 1).
    let p = LoadData2dTransposeParams::new(0, 1, 0, 0, 1, false);
    let (_, after) = load_example::<u8>(4096, 3 * 512, true, |d, s| {
        load_data_with_transpose(d, s, p)
    });
    let mut want = vec![u32::MAX; 3 * 512];
    with_transpose_reference(8, 0, 1, 0, 0, 1, &mut want);
    for (i, w) in want.iter().enumerate() {
        if *w != u32::MAX {
            assert_eq!(after[i], pat::<u8>(*w as usize), "element {i}");
        }
    }
}

/// A2 `Mmad` of the page's M = 30, K = 70, N = 40 half example: the padding of every fractal
/// (rows 30–31 of A, rows 70–79 of B, which hold stale L1 data) is ignored.
#[test]
fn mmad_unaligned_example_ignores_padding() {
    let (m, k, n) = (30usize, 70usize, 40usize);
    let a: Vec<f16> = (0..m * k)
        .map(|i| f16::from_f32(((i * 7) % 13) as f32 - 6.0))
        .collect();
    let b: Vec<f16> = (0..k * n)
        .map(|i| f16::from_f32(((i * 5) % 11) as f32 - 5.0))
        .collect();
    let (ga, gb) = (GmBuffer::from_slice(&a), GmBuffer::from_slice(&b));
    let gc = GmBuffer::zeroed(m * n * 4);
    let (aa, ba, ca) = (ga.addr(), gb.addr(), gc.addr());
    run(|| {
        let mut pipe = TPipe::new();
        let mut qa1: TQue<QuePosition::A1, 1> = TQue::new();
        let mut qb1: TQue<QuePosition::B1, 1> = TQue::new();
        let mut qa2: TQue<QuePosition::A2, 1> = TQue::new();
        let mut qb2: TQue<QuePosition::B2, 1> = TQue::new();
        let mut qc: TQue<QuePosition::CO1, 1> = TQue::new();
        let (m1, k1, n1) = (2u32, 5u32, 3u32);
        pipe.init_buffer(&mut qa1, 1, m1 * k1 * 512)?;
        pipe.init_buffer(&mut qb1, 1, k1 * n1 * 512)?;
        pipe.init_buffer(&mut qa2, 1, m1 * k1 * 512)?;
        pipe.init_buffer(&mut qb2, 1, k1 * n1 * 512)?;
        pipe.init_buffer(&mut qc, 1, m1 * n1 * 1024)?;
        let (mut gta, mut gtb, mut gtc) = (
            GlobalTensor::<f16>::new(),
            GlobalTensor::<f16>::new(),
            GlobalTensor::<f32>::new(),
        );
        gta.set_global_buffer(aa.clone());
        gtb.set_global_buffer(ba.clone());
        gtc.set_global_buffer(ca.clone());
        let a1 = qa1.alloc_tensor::<f16>()?;
        data_copy(&a1, &gta, Nd2NzParams::new(1, 30, 70, 0, 70, 32, 1, 0))?;
        let b1 = qb1.alloc_tensor::<f16>()?;
        data_copy(&b1, &gtb, Nd2NzParams::new(1, 70, 40, 0, 40, 80, 1, 0))?;
        let a2 = qa2.alloc_tensor::<f16>()?;
        for i in 0..m1 {
            load_data(
                &a2.at(i * k1 * 256)?,
                &a1.at(i * 256)?,
                LoadData2DParams::new(0, k1 as u8, m1 as u16, 0, 0, false, 0),
            )?;
        }
        let b2 = qb2.alloc_tensor::<f16>()?;
        for kb in 0..k1 {
            load_data(
                &b2.at(kb * n1 * 256)?,
                &b1.at(kb * 256)?,
                LoadData2DParams::new(0, n1 as u8, k1 as u16, 0, 0, true, 0),
            )?;
        }
        let c = qc.alloc_tensor::<f32>()?;
        pipe_barrier(Pipe::ALL)?;
        mmad(&c, &a2, &b2, (), MmadParams::new(30, 40, 70, false))?;
        pipe_barrier(Pipe::ALL)?;
        fixpipe(
            &gtc,
            &c,
            None,
            FixpipeParamsV220::new(40, 30, 32, 40, false),
            CFG_ROW_MAJOR,
        )
    });
    let c = gc.to_vec::<f32>();
    for i in 0..m {
        for j in 0..n {
            let exact: f64 = (0..k)
                .map(|kk| a[i * k + kk].to_f64() * b[kk * n + j].to_f64())
                .sum();
            assert_eq!(c[i * n + j] as f64, exact, "C[{i}][{j}]"); // small integers: exact
        }
    }
}

/// float `Mmad` with `kDirectionAlign` (the K-direction alignment page): A's rows of fractals are
/// K aligned to 16 apart, while B in L0B (K chunks outer) needs only the chunks holding a valid
/// k — a B2 tensor declared with K aligned to 8, as the vendor's float examples do, is enough.
#[test]
fn mmad_k_direction_align_strides_a_not_b() {
    let (m, k, n) = (32usize, 8usize, 16usize);
    let a_at = |i: usize, kk: usize| ((i / 16) * 2 + kk / 8) * 128 + (i % 16) * 8 + kk % 8;
    let b_at = |kk: usize, j: usize| (kk / 8 + j / 16) * 128 + (j % 16) * 8 + kk % 8;
    let av = |i: usize, kk: usize| ((i * 3 + kk * 5) % 7) as f32 - 3.0;
    let bv = |kk: usize, j: usize| ((kk * 2 + j) % 5) as f32 - 2.0;
    let gc = GmBuffer::zeroed(m * n * 4);
    let ca = gc.addr();
    run(|| {
        let mut p = TPipe::new();
        let a = alloc::<QuePosition::A2, f32>(&mut p, 1536)?;
        let b = alloc::<QuePosition::B2, f32>(&mut p, 512)?;
        let c = alloc::<QuePosition::CO1, f32>(&mut p, 2048)?;
        for i in 0..m {
            // K 8..15 of A's first row of fractals is the alignment padding: never read.
            for kk in 0..if i < 16 { 16 } else { k } {
                let v = if kk < k { av(i, kk) } else { f32::NAN };
                a.set_value(a_at(i, kk) as u32, v)?;
            }
        }
        for kk in 0..k {
            for j in 0..n {
                b.set_value(b_at(kk, j) as u32, bv(kk, j))?;
            }
        }
        let mut mp = MmadParams::new(m as u16, n as u16, k as u16, false);
        mp.k_direction_align = true;
        pipe_barrier(Pipe::ALL)?;
        mmad(&c, &a, &b, (), mp)?;
        pipe_barrier(Pipe::ALL)?;
        let mut gtc = GlobalTensor::<f32>::new();
        gtc.set_global_buffer(ca.clone());
        fixpipe(
            &gtc,
            &c,
            None,
            FixpipeParamsV220::new(n as u16, m as u16, m as u16, n as u32, false),
            CFG_ROW_MAJOR,
        )
    });
    let c = gc.to_vec::<f32>();
    for i in 0..m {
        for j in 0..n {
            let want: f32 = (0..k).map(|kk| av(i, kk) * bv(kk, j)).sum();
            assert_eq!(c[i * n + j], want, "C[{i}][{j}]"); // small integers: exact
        }
    }
}

/// Fills a CO1 tensor of `elems` floats with `f(i)` through SetValue.
fn co1_kernel(
    elems: u32,
    f: impl Fn(u32) -> f32 + Sync,
    body: impl Fn(&LocalTensor<f32>, &mut TPipe) -> Result<()> + Sync,
) {
    run(|| {
        let mut pipe = TPipe::new();
        let mut qc: TQue<QuePosition::CO1, 1> = TQue::new();
        pipe.init_buffer(&mut qc, 1, elems * 4)?;
        let c = qc.alloc_tensor::<f32>()?;
        for i in 0..elems {
            c.set_value(i, f(i))?;
        }
        body(&c, &mut pipe)
    });
}

#[test]
fn fixpipe_nz2nd_example_two_matrices() {
    // The NZ2ND page's example: ndNum 2, nSize 32, mSize 48, srcStride 64, dstStride 64,
    // dstNdStride 4096, the matrices 256 C0_Size (16 KiB) apart. The page counts srcNdStride in
    // C0_Size (its 950 unit: 256); on A2 it counts 16 · C0_Size (1024-byte fractals, the
    // parameter table's unit and the A2 batch matmul sample's): 16.
    // Matrix t, row r, column c holds 10000 t + 100 r + c.
    let val = |t: u32, r: u32, c: u32| (10000 * t + 100 * r + c) as f32;
    let at = |i: u32| {
        let (t, rest) = (i / 4096, i % 4096); // 256 rows of 16 floats per matrix
        let (col16, rest) = (rest / 1024, rest % 1024); // srcStride 64 rows per column group
        let (r, c) = (rest / 16, rest % 16);
        val(t, r, col16 * 16 + c)
    };
    let g = GmBuffer::zeroed(8192 * 4);
    let ga = g.addr();
    co1_kernel(8192, at, |c, _| {
        let mut gt = GlobalTensor::<f32>::new();
        gt.set_global_buffer(ga.clone());
        let mut p = FixpipeParamsV220::new(32, 48, 64, 64, false);
        p.nd_num = 2;
        p.src_nd_stride = 16;
        p.dst_nd_stride = 4096;
        fixpipe(&gt, c, None, p, CFG_ROW_MAJOR)
    });
    let out = g.to_vec::<f32>();
    for t in 0..2 {
        for r in 0..48 {
            for c in 0..64 {
                let got = out[(t * 4096 + r * 64 + c) as usize];
                let want = if c < 32 { val(t, r, c) } else { 0.0 };
                assert_eq!(got, want, "matrix {t} row {r} col {c}");
            }
        }
    }
}

#[test]
fn fixpipe_quantisation_and_relu() {
    // float → half with ReLU.
    let g = GmBuffer::zeroed(256 * 2);
    let ga = g.addr();
    co1_kernel(
        256,
        |i| i as f32 - 128.5,
        |c, _| {
            let mut gt = GlobalTensor::<f16>::new();
            gt.set_global_buffer(ga.clone());
            let mut p = FixpipeParamsV220::new(16, 16, 16, 16, true);
            p.quant_pre = QuantMode::F322F16;
            fixpipe(&gt, c, None, p, CFG_ROW_MAJOR)
        },
    );
    let h = g.to_vec::<f16>();
    assert_eq!(h[0].to_f32(), 0.0);
    assert_eq!(h[255].to_f32(), 126.5);
    // int32 → int8 with a per-column word from L1 (VREQ8): scale 0.5 + column, offset 3, signed.
    let g8 = GmBuffer::zeroed(256);
    let g8a = g8.addr();
    let words: Vec<u64> = (0..16)
        .map(|c| (0.5f32 + c as f32).to_bits() as u64 | (3u64 << 37) | (1u64 << 46))
        .collect();
    let gw = GmBuffer::from_slice(&words);
    let gwa = gw.addr();
    run(|| {
        let mut pipe = TPipe::new();
        let mut qc: TQue<QuePosition::CO1, 1> = TQue::new();
        pipe.init_buffer(&mut qc, 1, 1024)?;
        let c = qc.alloc_tensor::<i32>()?;
        for i in 0..256 {
            c.set_value(i, i as i32 - 100)?;
        }
        let mut qw: TQue<QuePosition::A1, 1> = TQue::new();
        let w = l1::<u64>(&mut pipe, &mut qw, &gwa, 16)?;
        let mut gt = GlobalTensor::<i8>::new();
        gt.set_global_buffer(g8a.clone());
        let mut p = FixpipeParamsV220::new(16, 16, 16, 16, false);
        p.quant_pre = QuantMode::VREQ8;
        fixpipe(&gt, &c, Some(&w), p, CFG_ROW_MAJOR)
    });
    let q = g8.to_vec::<i8>();
    assert_eq!(q.len(), 256);
    for (i, got) in q.iter().enumerate() {
        let (x, col) = (i as f32 - 100.0, (i % 16) as f32);
        let want =
            ((x * (0.5 + col)).clamp(-256.0, 255.0).round_ties_even() as i32 + 3).clamp(-128, 127);
        assert_eq!(*got as i32, want, "element {i}");
    }
}

#[test]
fn fixpipe_to_l1_and_mmad_with_bias() {
    // C = A × B + bias, A = I (16 × 16), B = 2·I, bias[j] = j / 2 (half in L1 widened to the
    // BiasTable), then Fixpipe into L1 and back.
    let eye: Vec<f16> = (0..256)
        .map(|i| f16::from_f32(if i % 17 == 0 { 1.0 } else { 0.0 }))
        .collect();
    let two: Vec<f16> = eye
        .iter()
        .map(|x| f16::from_f32(x.to_f32() * 2.0))
        .collect();
    let bias: Vec<f16> = (0..32).map(|j| f16::from_f32(j as f32 / 2.0)).collect();
    let (ge, gt2, gb) = (
        GmBuffer::from_slice(&eye),
        GmBuffer::from_slice(&two),
        GmBuffer::from_slice(&bias),
    );
    let (ea, ta, ba) = (ge.addr(), gt2.addr(), gb.addr());
    let out = Slot::new();
    run(|| {
        let mut pipe = TPipe::new();
        let (mut qa1, mut qb1, mut qc1): (
            TQue<QuePosition::A1, 1>,
            TQue<QuePosition::A1, 1>,
            TQue<QuePosition::A1, 1>,
        ) = (TQue::new(), TQue::new(), TQue::new());
        let a1 = l1::<f16>(&mut pipe, &mut qa1, &ea, 256)?;
        let b1 = l1::<f16>(&mut pipe, &mut qb1, &ta, 256)?;
        let bias1 = l1::<f16>(&mut pipe, &mut qc1, &ba, 32)?;
        let mut qa2: TQue<QuePosition::A2, 1> = TQue::new();
        let mut qb2: TQue<QuePosition::B2, 1> = TQue::new();
        let mut qbt: TQue<QuePosition::C2, 1> = TQue::new();
        let mut qc: TQue<QuePosition::CO1, 1> = TQue::new();
        let mut qo: TQue<QuePosition::A1, 1> = TQue::new();
        pipe.init_buffer(&mut qa2, 1, 512)?;
        pipe.init_buffer(&mut qb2, 1, 512)?;
        pipe.init_buffer(&mut qbt, 1, 128)?;
        pipe.init_buffer(&mut qc, 1, 1024)?;
        pipe.init_buffer(&mut qo, 1, 1024)?;
        let (a2, b2) = (qa2.alloc_tensor::<f16>()?, qb2.alloc_tensor::<f16>()?);
        load_data(&a2, &a1, LoadData2DParams::new(0, 1, 0, 0, 0, false, 0))?;
        load_data(&b2, &b1, LoadData2DParams::new(0, 1, 0, 0, 0, true, 0))?;
        let bt = qbt.alloc_tensor::<f32>()?;
        data_copy(&bt, &bias1, DataCopyParams::new(1, 1, 0, 0))?;
        let c = qc.alloc_tensor::<f32>()?;
        let o = qo.alloc_tensor::<f32>()?;
        let mut both = Vec::new();
        // The bias form, then the form without a bias tensor that starts C from the
        // BiasTable (cmatrixSource with cmatrixInitVal = false; bt is at BiasTable byte 0).
        for with_tensor in [true, false] {
            pipe_barrier(Pipe::ALL)?;
            if with_tensor {
                mmad(&c, &a2, &b2, &bt, MmadParams::new(16, 16, 16, false))?;
            } else {
                let mut mp = MmadParams::new(16, 16, 16, false);
                mp.cmatrix_init_val = false;
                mp.cmatrix_source = true;
                mmad(&c, &a2, &b2, (), mp)?;
            }
            pipe_barrier(Pipe::ALL)?;
            fixpipe(
                &o,
                &c,
                None,
                FixpipeParamsV220::new(16, 16, 16, 16, false),
                CFG_ROW_MAJOR,
            )?;
            pipe_barrier(Pipe::ALL)?;
            both.push(o.to_vec()?);
        }
        out.put(both);
        Ok(())
    });
    for got in out.get() {
        for i in 0..16 {
            for j in 0..16 {
                let want = if i == j { 2.0 } else { 0.0 } + j as f32 / 2.0;
                assert_eq!(got[i * 16 + j], want, "C[{i}][{j}]");
            }
        }
    }
}

#[test]
fn gemv_reads_a_as_contiguous_k() {
    // m = 1: A is 32 contiguous halves in L0A; C row 0 of each fractal.
    let a: Vec<f16> = (0..256)
        .map(|i| f16::from_f32(if i < 32 { i as f32 } else { 0.0 }))
        .collect();
    let b: Vec<f16> = (0..32 * 16)
        .map(|i| f16::from_f32((i % 3) as f32))
        .collect();
    let zn = ascendc::api::cube::layout::nd_to_zn(&b, 32, 16, 16);
    let (ga, gb) = (GmBuffer::from_slice(&a), GmBuffer::from_slice(&zn));
    let (aa, ba) = (ga.addr(), gb.addr());
    let out = Slot::new();
    run(|| {
        let mut pipe = TPipe::new();
        let (mut qa1, mut qb1): (TQue<QuePosition::A1, 1>, TQue<QuePosition::A1, 1>) =
            (TQue::new(), TQue::new());
        let a1 = l1::<f16>(&mut pipe, &mut qa1, &aa, 256)?;
        let b1 = l1::<f16>(&mut pipe, &mut qb1, &ba, 512)?;
        let mut qa2: TQue<QuePosition::A2, 1> = TQue::new();
        let mut qb2: TQue<QuePosition::B2, 1> = TQue::new();
        let mut qc: TQue<QuePosition::CO1, 1> = TQue::new();
        pipe.init_buffer(&mut qa2, 1, 512)?;
        pipe.init_buffer(&mut qb2, 1, 1024)?;
        pipe.init_buffer(&mut qc, 1, 1024)?;
        let (a2, b2, c) = (
            qa2.alloc_tensor::<f16>()?,
            qb2.alloc_tensor::<f16>()?,
            qc.alloc_tensor::<f32>()?,
        );
        load_data(&a2, &a1, LoadData2DParams::new(0, 1, 0, 0, 0, false, 0))?;
        load_data(&b2, &b1, LoadData2DParams::new(0, 2, 1, 0, 0, false, 0))?;
        pipe_barrier(Pipe::ALL)?;
        mmad(&c, &a2, &b2, (), MmadParams::new(1, 16, 32, false))?;
        pipe_barrier(Pipe::ALL)?;
        out.put(c.to_vec()?[..16].to_vec());
        Ok(())
    });
    let got = out.get();
    for (j, g) in got.iter().enumerate() {
        let want: f32 = (0..32)
            .map(|kk| kk as f32 * ((kk * 16 + j) % 3) as f32)
            .sum();
        assert_eq!(*g, want);
    }
}

// ---- validation ----

fn cube_fail(
    profile: &'static ascendc::ChipProfile,
    body: impl Fn(&mut TPipe) -> Result<()> + Sync,
) -> SimError {
    fail_on(profile, || {
        let mut pipe = TPipe::new();
        body(&mut pipe)
    })
}

fn alloc<P: ascendc::position::QuePos, T: Element>(
    pipe: &mut TPipe,
    bytes: u32,
) -> Result<LocalTensor<T>> {
    let mut q: TQue<P, 1> = TQue::new();
    pipe.init_buffer(&mut q, 1, bytes)?;
    let t = q.alloc_tensor::<T>()?;
    std::mem::forget(q);
    Ok(t)
}

#[test]
fn misaligned_k_and_l0_overflow() {
    // float with kDirectionAlign: K = 8 pads to 16, so A's second row of fractals starts at
    // fractal 2 and the instruction reads three; the tensor holds two: a warning.
    let r = run(|| {
        let mut p = TPipe::new();
        let a = alloc::<QuePosition::A2, f32>(&mut p, 1024)?;
        let b = alloc::<QuePosition::B2, f32>(&mut p, 512)?;
        let c = alloc::<QuePosition::CO1, f32>(&mut p, 2048)?;
        let mut mp = MmadParams::new(32, 16, 8, false);
        mp.k_direction_align = true;
        mmad(&c, &a, &b, (), mp)
    });
    assert_warns(&r, &["fm (A)", "1536 bytes", "declared with 1024"]);
    // kDirectionAlign does not exist on 200I/500 A2.
    let e = cube_fail(&ASCEND310B, |p| {
        let a = alloc::<QuePosition::A2, f32>(p, 1024)?;
        let b = alloc::<QuePosition::B2, f32>(p, 1024)?;
        let c = alloc::<QuePosition::CO1, f32>(p, 1024)?;
        let mut mp = MmadParams::new(16, 16, 16, false);
        mp.k_direction_align = true;
        mmad(&c, &a, &b, (), mp)
    });
    assert_eq!(e.category, Category::Unsupported);
    // LoadData past the end of the L0A tensor: a warning; past the end of L0A: an error.
    let r = run(|| {
        let mut p = TPipe::new();
        let s = alloc::<QuePosition::A1, f16>(&mut p, 4096)?;
        let d = alloc::<QuePosition::A2, f16>(&mut p, 1024)?;
        load_data(&d, &s, LoadData2DParams::new(0, 3, 1, 0, 0, false, 0))
    });
    assert_warns(&r, &["destination", "1536 bytes"]);
    let e = fail(|| {
        let s = LocalTensor::<f16>::new_at(TPosition::A1, 0, 2048)?;
        let d = LocalTensor::<f16>::new_at(TPosition::A2, 64512, 512)?;
        load_data(&d, &s, LoadData2DParams::new(0, 3, 1, 0, 0, false, 0))
    });
    assert_eq!(e.category, Category::Memory);
    assert_mentions(&e, &["destination", "65536-byte"]);
    // The C tensor smaller than m × n: a warning naming what is written.
    let r = run(|| {
        let mut p = TPipe::new();
        let a = alloc::<QuePosition::A2, f16>(&mut p, 2048)?;
        let b = alloc::<QuePosition::B2, f16>(&mut p, 2048)?;
        let c = alloc::<QuePosition::CO1, f32>(&mut p, 1024)?;
        mmad(&c, &a, &b, (), MmadParams::new(32, 32, 32, false))
    });
    assert_warns(&r, &["dst (C)", "4096"]);
}

#[test]
fn wrong_positions() {
    let e = cube_fail(ChipProfile::default_profile(), |p| {
        let s = alloc::<QuePosition::VECIN, f16>(p, 512)?;
        let d = alloc::<QuePosition::A2, f16>(p, 512)?;
        load_data(&d, &s, LoadData2DParams::new(0, 1, 0, 0, 0, false, 0))
    });
    assert_eq!(e.category, Category::Position);
    assert_mentions(&e, &["VECIN", "A1/B1 in L1"]);
    let e = cube_fail(ChipProfile::default_profile(), |p| {
        let a = alloc::<QuePosition::A2, f16>(p, 512)?;
        let b = alloc::<QuePosition::B2, f16>(p, 512)?;
        let c = alloc::<QuePosition::VECOUT, f32>(p, 1024)?;
        mmad(&c, &a, &b, (), MmadParams::new(16, 16, 16, false))
    });
    assert_mentions(&e, &["VECOUT", "CO1 in L0C"]);
    let e = cube_fail(ChipProfile::default_profile(), |p| {
        let s = alloc::<QuePosition::A1, i8>(p, 512)?;
        let d = alloc::<QuePosition::A2, i8>(p, 512)?;
        load_data(&d, &s, LoadData2DParams::new(0, 1, 0, 0, 0, true, 0))
    });
    assert_eq!(e.category, Category::Type);
    assert_mentions(&e, &["ifTranspose", "16-bit"]);
}

#[test]
fn products_without_the_path() {
    let e = cube_fail(&ASCEND310P, |p| {
        let c = alloc::<QuePosition::CO1, f32>(p, 1024)?;
        let g = GmBuffer::zeroed(1024);
        let mut gt = GlobalTensor::<f32>::new();
        gt.set_global_buffer(g.addr());
        fixpipe(
            &gt,
            &c,
            None,
            FixpipeParamsV220::new(16, 16, 16, 16, false),
            CFG_ROW_MAJOR,
        )
    });
    assert_eq!(e.category, Category::Unsupported);
    assert_mentions(&e, &["Fixpipe", "CO1 → CO2", "Ascend310P"]);
    let e = cube_fail(&ASCEND310B, |p| {
        let c = alloc::<QuePosition::CO1, f32>(p, 1024)?;
        let g = GmBuffer::zeroed(1024);
        let mut gt = GlobalTensor::<f32>::new();
        gt.set_global_buffer(g.addr());
        fixpipe(
            &gt,
            &c,
            None,
            FixpipeParamsV220::new(16, 16, 16, 16, false),
            CFG_ROW_MAJOR,
        )
    });
    assert_mentions(&e, &["FixpipeParamsM300"]);
    let e = cube_fail(&ASCEND910, |p| {
        let s = alloc::<QuePosition::A1, f16>(p, 512)?;
        let d = alloc::<QuePosition::B2, f16>(p, 512)?;
        load_data_with_transpose(&d, &s, LoadData2dTransposeParams::new(0, 1, 0, 0, 0, false))
    });
    assert_mentions(&e, &["LoadDataWithTranspose", "not supported", "Ascend910"]);
    let e = cube_fail(ChipProfile::default_profile(), |p| {
        let s = alloc::<QuePosition::A1, f16>(p, 512)?;
        let d = alloc::<QuePosition::A2, f16>(p, 512)?;
        load_data(&d, &s, LoadData2DParamsV2::default())
    });
    assert_mentions(&e, &["LoadData2DParamsV2", "not supported"]);
    let e = cube_fail(&ASCEND310P, |p| {
        let a = alloc::<QuePosition::A2, f32>(p, 512)?;
        let b = alloc::<QuePosition::B2, f32>(p, 512)?;
        let c = alloc::<QuePosition::CO1, f32>(p, 1024)?;
        mmad(&c, &a, &b, (), MmadParams::new(16, 16, 8, false))
    });
    assert_eq!(e.category, Category::Type);
    assert_mentions(&e, &["float×float→float", "half×half→half"]);
}

#[test]
fn unit_flag_hand_over() {
    // Mmad without unitFlag then Fixpipe with unitFlag 3: the Fixpipe would wait forever.
    let e = cube_fail(ChipProfile::default_profile(), |p| {
        let a = alloc::<QuePosition::A2, f16>(p, 512)?;
        let b = alloc::<QuePosition::B2, f16>(p, 512)?;
        let c = alloc::<QuePosition::CO1, f32>(p, 1024)?;
        mmad(&c, &a, &b, (), MmadParams::new(16, 16, 16, false))?;
        let g = GmBuffer::zeroed(1024);
        let mut gt = GlobalTensor::<f32>::new();
        gt.set_global_buffer(g.addr());
        let mut fp = FixpipeParamsV220::new(16, 16, 16, 16, false);
        fp.unit_flag = 3;
        fixpipe(&gt, &c, None, fp, CFG_ROW_MAJOR)
    });
    assert_eq!(e.category, Category::Sync);
    // 2, 2, 3 along K, then Fixpipe with 3, then the next Mmad may write again.
    run(|| {
        let mut pipe = TPipe::new();
        let a = alloc::<QuePosition::A2, f16>(&mut pipe, 512)?;
        let b = alloc::<QuePosition::B2, f16>(&mut pipe, 512)?;
        let c = alloc::<QuePosition::CO1, f32>(&mut pipe, 1024)?;
        let g = GmBuffer::zeroed(1024);
        let mut gt = GlobalTensor::<f32>::new();
        gt.set_global_buffer(g.addr());
        for uf in [2, 2, 3] {
            let mut mp = MmadParams::new(16, 16, 16, false);
            mp.unit_flag = uf;
            mp.cmatrix_init_val = false;
            mmad(&c, &a, &b, (), mp)?;
        }
        let mut fp = FixpipeParamsV220::new(16, 16, 16, 16, false);
        fp.unit_flag = 3;
        fixpipe(&gt, &c, None, fp, CFG_ROW_MAJOR)?;
        let mut mp = MmadParams::new(16, 16, 16, false);
        mp.unit_flag = 3;
        mmad(&c, &a, &b, (), mp)
    });
}
