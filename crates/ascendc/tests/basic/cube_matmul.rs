//! Matmul kernels in the style of the public samples (TQue A1/B1/A2/B2/CO1, LoadData, Mmad,
//! Fixpipe) against host references: fp16 → fp32 bit-exact against the documented accumulation
//! model (and close to the exact product), int8 → int32 exact.

use crate::common;
use ascendc::api::cube::layout::nd_to_nz;
use ascendc::core::trace::InstrKind;
use ascendc::prelude::*;
use ascendc::LaunchReport;
use common::*;

/// Deterministic small values: halves with few mantissa bits, int8 over the full range.
fn halves(n: usize, seed: u32) -> Vec<f16> {
    (0..n)
        .map(|i| {
            let x = (i as u32).wrapping_mul(2_654_435_761).wrapping_add(seed) >> 20;
            f16::from_f32(((x % 257) as f32 - 128.0) / 32.0)
        })
        .collect()
}

fn int8s(n: usize, seed: u32) -> Vec<i8> {
    (0..n)
        .map(|i| ((i as u32).wrapping_mul(2_246_822_519).wrapping_add(seed) >> 13) as u8 as i8)
        .collect()
}

/// The model's fp16 → fp32 reference: per output, the exact products of each 16-wide K fractal
/// are added to the fp32 accumulator with one rounding.
fn ref_f16(a: &[f16], b: &[f16], m: usize, n: usize, k: usize) -> Vec<f32> {
    let mut c = vec![0f32; m * n];
    for i in 0..m {
        for j in 0..n {
            let mut acc = 0f32;
            for f in (0..k).step_by(16) {
                let mut s = acc as f64;
                for kk in f..(f + 16).min(k) {
                    s += a[i * k + kk].to_f64() * b[kk * n + j].to_f64();
                }
                acc = s as f32;
            }
            c[i * n + j] = acc;
        }
    }
    c
}

fn ref_i8(a: &[i8], b: &[i8], m: usize, n: usize, k: usize) -> Vec<i32> {
    let mut c = vec![0i32; m * n];
    for i in 0..m {
        for j in 0..n {
            c[i * n + j] = (0..k)
                .map(|kk| a[i * k + kk] as i32 * b[kk * n + j] as i32)
                .sum();
        }
    }
    c
}

/// One block computes a `tm × tn` tile of C = A (m × k) × B (k × n) with the whole K.
/// `T` is half or int8; `C` the accumulator type.
struct Tile {
    m: u32,
    n: u32,
    k: u32,
    tm: u32,
    tn: u32,
}

fn matmul_tile<T: Element, C: Element>(
    t: &Tile,
    a: &GmAddr,
    b: &GmAddr,
    c: &GmAddr,
    tiles_n: u32,
) -> Result<()> {
    let es = T::SIZE as u32;
    let c0 = 32 / es; // 16 for half, 32 for int8
    let (tm, tn, k) = (t.tm, t.tn, t.k);
    let (m1, n1, k1) = (tm / 16, tn / 16, k / c0);
    let blk = get_block_idx();
    let (bm, bn) = (blk / tiles_n, blk % tiles_n);
    let mut pipe = TPipe::new();
    let mut qa1: TQue<QuePosition::A1, 1> = TQue::new();
    let mut qb1: TQue<QuePosition::B1, 1> = TQue::new();
    let mut qa2: TQue<QuePosition::A2, 1> = TQue::new();
    let mut qb2: TQue<QuePosition::B2, 1> = TQue::new();
    let mut qc: TQue<QuePosition::CO1, 1> = TQue::new();
    pipe.init_buffer(&mut qa1, 1, tm * k * es)?;
    pipe.init_buffer(&mut qb1, 1, k * tn * es)?;
    pipe.init_buffer(&mut qa2, 1, tm * k * es)?;
    pipe.init_buffer(&mut qb2, 1, k * tn * es)?;
    pipe.init_buffer(&mut qc, 1, tm * tn * 4)?;
    let mut ga = GlobalTensor::<T>::new();
    ga.set_global_buffer(a.clone());
    let mut gb = GlobalTensor::<T>::new();
    gb.set_global_buffer(b.clone());
    let mut gc = GlobalTensor::<C>::new();
    gc.set_global_buffer(c.clone());
    // CopyIn: ND → NZ into L1.
    let a1 = qa1.alloc_tensor::<T>()?;
    let p = Nd2NzParams::new(1, tm as u16, k as u16, 0, t.k as u16, tm as u16, 1, 0);
    data_copy(&a1, &ga.at((bm * tm * t.k) as u64)?, p)?;
    qa1.enque(&a1)?;
    let b1 = qb1.alloc_tensor::<T>()?;
    let p = Nd2NzParams::new(1, k as u16, tn as u16, 0, t.n as u16, k as u16, 1, 0);
    data_copy(&b1, &gb.at((bn * tn) as u64)?, p)?;
    qb1.enque(&b1)?;
    // SplitA: NZ → ZZ, one row of fractals per call.
    let a1 = qa1.deque::<T>()?;
    let a2 = qa2.alloc_tensor::<T>()?;
    let fr = 512 / es; // elements per fractal
    for i in 0..m1 {
        let p = LoadData2DParams::new(0, k1 as u8, m1 as u16, 0, 0, false, 0);
        load_data(&a2.at(i * k1 * fr)?, &a1.at(i * fr)?, p)?;
    }
    qa2.enque(&a2)?;
    qa1.free_tensor(&a1)?;
    // SplitB: NZ → ZN.
    let b1 = qb1.deque::<T>()?;
    let b2 = qb2.alloc_tensor::<T>()?;
    if es == 2 {
        // Each 16 × 16 fractal transposed; one row of K fractals per call.
        for kb in 0..k1 {
            let p = LoadData2DParams::new(0, n1 as u8, k1 as u16, 0, 0, true, 0);
            load_data(&b2.at(kb * n1 * fr)?, &b1.at(kb * fr)?, p)?;
        }
    } else {
        // 32 × 32 squares transposed into two 32 × 16 fractals.
        for kb in 0..k1 {
            let p = LoadData2dTransposeParams::new(0, (n1 / 2) as u8, k1 as u16, 1, 0, false);
            load_data_with_transpose(&b2.at(kb * n1 * fr)?, &b1.at(kb * 2 * fr)?, p)?;
        }
    }
    qb2.enque(&b2)?;
    qb1.free_tensor(&b1)?;
    // Compute.
    let a2 = qa2.deque::<T>()?;
    let b2 = qb2.deque::<T>()?;
    let co1 = qc.alloc_tensor::<C>()?;
    mmad(
        &co1,
        &a2,
        &b2,
        (),
        MmadParams::new(tm as u16, tn as u16, k as u16, false),
    )?;
    qc.enque(&co1)?;
    qa2.free_tensor(&a2)?;
    qb2.free_tensor(&b2)?;
    // CopyOut: NZ → ND into GM.
    let co1 = qc.deque::<C>()?;
    let p = FixpipeParamsV220::new(tn as u16, tm as u16, tm as u16, t.n, false);
    fixpipe(
        &gc.at((bm * tm * t.n + bn * tn) as u64)?,
        &co1,
        None,
        p,
        CFG_ROW_MAJOR,
    )?;
    qc.free_tensor(&co1)
}

fn run_matmul<T: Element, C: Element>(t: Tile, a: &[T], b: &[T]) -> (Vec<C>, LaunchReport) {
    let ga = GmBuffer::from_slice(a);
    let gb = GmBuffer::from_slice(b);
    let gc = GmBuffer::zeroed((t.m * t.n * 4) as usize);
    let (aa, ba, ca) = (ga.addr(), gb.addr(), gc.addr());
    let tiles = (t.m / t.tm) * (t.n / t.tn);
    let tiles_n = t.n / t.tn;
    let report = Launch::new(tiles)
        .kernel_mode(KernelMode::Aic)
        .check_hazards(true)
        .record_trace(true)
        .run(|| matmul_tile::<T, C>(&t, &aa, &ba, &ca, tiles_n))
        .unwrap_or_else(|e| panic!("{e}"));
    (gc.to_vec::<C>(), report)
}

/// C = A × B for `m × k` and `k × n` inputs made by `input` (seeds `seed` and `seed + 1`), in
/// `tm × tn` tiles on one cube core each: the inputs, the product and the launch report.
fn product<T: Element, C: Element>(
    (m, n, k): (u32, u32, u32),
    (tm, tn): (u32, u32),
    input: fn(usize, u32) -> Vec<T>,
    seed: u32,
) -> (Vec<T>, Vec<T>, Vec<C>, LaunchReport) {
    let a = input((m * k) as usize, seed);
    let b = input((k * n) as usize, seed + 1);
    let (c, report) = run_matmul::<T, C>(Tile { m, n, k, tm, tn }, &a, &b);
    (a, b, c, report)
}

/// The pipes of the recorded instructions `api` issued.
fn ops(report: &LaunchReport, api: &str) -> Vec<Pipe> {
    report
        .blocks
        .iter()
        .flat_map(|b| b.trace.instructions().iter())
        .filter(|i| i.api == api && i.kind == InstrKind::Op)
        .map(|i| i.pipe)
        .collect()
}

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn fp16_32x32x32_matches_the_model_bit_for_bit() {
    let (m, n, k) = (32, 32, 32);
    let (a, b, c, report) = product::<f16, f32>((32, 32, 32), (32, 32), halves, 1);
    let want = ref_f16(&a, &b, m, n, k);
    assert_eq!(bits(&c), bits(&want));
    // And the model is close to the exact product.
    for i in 0..m * n {
        let exact: f64 = (0..k)
            .map(|kk| a[(i / n) * k + kk].to_f64() * b[kk * n + i % n].to_f64())
            .sum();
        assert!((c[i] as f64 - exact).abs() <= 1e-6 * exact.abs().max(1.0));
    }
    assert_eq!(ops(&report, "Mmad"), vec![Pipe::M]);
    assert_eq!(ops(&report, "Fixpipe"), vec![Pipe::FIX]);
    // Two LoadData for A (one per row of fractals), two for B (one per row of K fractals).
    assert_eq!(ops(&report, "LoadData"), vec![Pipe::MTE1; 4]);
}

#[test]
fn fp16_tiled_256x256x64_on_four_cube_cores() {
    let (a, b, c, report) = product::<f16, f32>((256, 256, 64), (128, 128), halves, 3);
    assert_eq!(bits(&c), bits(&ref_f16(&a, &b, 256, 256, 64)));
    assert_eq!(ops(&report, "Mmad"), vec![Pipe::M; 4]);
}

#[test]
fn int8_32x32x32_is_exact() {
    let (a, b, c, _) = product::<i8, i32>((32, 32, 32), (32, 32), int8s, 5);
    assert_eq!(c, ref_i8(&a, &b, 32, 32, 32));
}

#[test]
fn int8_tiled_256x256x64_is_exact() {
    let (a, b, c, _) = product::<i8, i32>((256, 256, 64), (128, 128), int8s, 7);
    assert_eq!(c, ref_i8(&a, &b, 256, 256, 64));
}

#[test]
fn l1_layout_is_the_host_nz_helper() {
    // GM → A1 with Nd2NzParams produces exactly the layout nd_to_nz describes.
    let a = halves(32 * 48, 9);
    let g = GmBuffer::from_slice(&a);
    let ga = g.addr();
    let out = Slot::new();
    run(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::A1, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 32 * 48 * 2)?;
        let mut gt = GlobalTensor::<f16>::new();
        gt.set_global_buffer(ga.clone());
        let t = q.alloc_tensor::<f16>()?;
        data_copy(&t, &gt, Nd2NzParams::new(1, 32, 48, 0, 48, 32, 1, 0))?;
        out.put(t.to_vec()?);
        q.free_tensor(&t)
    });
    assert_eq!(out.get(), nd_to_nz(&a, 32, 48, 16, 16));
}
