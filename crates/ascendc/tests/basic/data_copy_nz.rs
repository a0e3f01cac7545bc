//! ND→NZ and NZ→ND copies: the worked examples of the specification and rules N1–N10.

use crate::common;
use ascendc::prelude::*;
use ascendc::Category;
use common::*;

fn h(v: f32) -> f16 {
    f16::from_f32(v)
}

/// Runs GM→A1 ND2NZ of `src` into a `dst_elems` half tensor; returns (before, after) as bits.
fn nd2nz_a1(src: &[f16], p: Nd2NzParams, dst_elems: u32) -> (Vec<u16>, Vec<u16>) {
    let g = GmBuffer::from_slice(src);
    let a = g.addr();
    let out = Slot::new();
    run(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::A1, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, dst_elems * 2)?;
        let mut gs = GlobalTensor::<f16>::new();
        gs.set_global_buffer(a.clone());
        let t = q.alloc_tensor::<f16>()?;
        let before = t.to_vec()?;
        data_copy(&t, &gs, p)?;
        let bits = |v: Vec<f16>| v.iter().map(|x| x.to_bits()).collect::<Vec<u16>>();
        out.put((bits(before), bits(t.to_vec()?)));
        q.free_tensor(&t)
    });
    out.get()
}

#[test]
fn nd2nz_example_a_zero_fills_the_last_group() {
    let src: Vec<f16> = (0..3 * 24)
        .map(|i| h((100 * (i / 24) + i % 24) as f32))
        .collect();
    let (before, after) = nd2nz_a1(&src, Nd2NzParams::new(1, 3, 20, 0, 24, 4, 1, 0), 128);
    let row = |k: usize| after[k * 16..k * 16 + 16].to_vec();
    let vals = |v: Vec<f32>| v.into_iter().map(|x| h(x).to_bits()).collect::<Vec<u16>>();
    for r in 0..3 {
        let base = 100.0 * r as f32;
        assert_eq!(row(r), vals((0..16).map(|c| base + c as f32).collect()));
        let mut tail: Vec<f32> = (16..20).map(|c| base + c as f32).collect();
        tail.extend([0.0; 12]);
        assert_eq!(row(4 + r), vals(tail));
    }
    assert_eq!(after[48..64], before[48..64]);
    assert_eq!(after[112..128], before[112..128]);
}

#[test]
fn nd2nz_example_b_two_matrices() {
    let src: Vec<f16> = (0..64)
        .map(|i| h((1000 * (i / 32) + 100 * (i % 32 / 16) + i % 16) as f32))
        .collect();
    let (before, after) = nd2nz_a1(&src, Nd2NzParams::new(2, 2, 16, 32, 16, 2, 1, 48), 80);
    let want = |v: f32| {
        (0..16)
            .map(|c| h(v + c as f32).to_bits())
            .collect::<Vec<u16>>()
    };
    assert_eq!(after[0..16], want(0.0)[..]);
    assert_eq!(after[16..32], want(100.0)[..]);
    assert_eq!(after[32..48], before[32..48]);
    assert_eq!(after[48..64], want(1000.0)[..]);
    assert_eq!(after[64..80], want(1100.0)[..]);
}

#[test]
fn nd2nz_example_c_non_contiguous_strides() {
    let src: Vec<f16> = (0..768).map(|i| h(i as f32)).collect();
    let (_, after) = nd2nz_a1(&src, Nd2NzParams::new(2, 8, 23, 384, 32, 37, 2, 320), 1152);
    assert_eq!(after[1012], h(500.0).to_bits());
    assert_eq!(after[823], 0);
    // (m=0, n=7, d=22) is the last data element of matrix 0, row 7.
    assert_eq!(
        after[37 * 16 + 7 * 32 + 6],
        h((7 * 32 + 22) as f32).to_bits()
    );
}

#[test]
fn nd2nz_into_vecin_uses_the_same_mapping() {
    let src: Vec<f16> = (0..3 * 24)
        .map(|i| h((100 * (i / 24) + i % 24) as f32))
        .collect();
    let g = GmBuffer::from_slice(&src);
    let a = g.addr();
    let out = Slot::new();
    run(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 256)?;
        let mut gs = GlobalTensor::<f16>::new();
        gs.set_global_buffer(a.clone());
        let t = q.alloc_tensor::<f16>()?;
        data_copy(&t, &gs, Nd2NzParams::new(1, 3, 20, 0, 24, 4, 1, 0))?;
        out.put(t.to_vec()?);
        q.free_tensor(&t)
    });
    let u = out.get();
    assert_eq!(u[16], h(100.0));
    assert_eq!(u[64..68], [h(16.0), h(17.0), h(18.0), h(19.0)]);
    assert_eq!(u[68..80], [h(0.0); 12]);
}

fn nd2nz_err(p: Nd2NzParams) -> ascendc::SimError {
    let g = GmBuffer::zeroed(1 << 16);
    let a = g.addr();
    fail(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::B1, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 512)?;
        let mut gs = GlobalTensor::<f16>::new();
        gs.set_global_buffer(a.clone());
        let t = q.alloc_tensor::<f16>()?;
        data_copy(&t, &gs, p)
    })
}

#[test]
fn n1_ranges() {
    let e = nd2nz_err(Nd2NzParams::new(1, 2, 16, 0, 0, 2, 1, 0));
    assert!(
        e.message.contains("`Nd2NzParams.srcDValue` = 0") && e.message.contains("[1, 65535]"),
        "{e}"
    );
    let e = nd2nz_err(Nd2NzParams::new(4096, 2, 16, 0, 16, 2, 1, 0));
    assert!(e.message.contains("`Nd2NzParams.ndNum` = 4096"), "{e}");
    let e = nd2nz_err(Nd2NzParams::new(1, 16385, 16, 0, 16, 2, 1, 0));
    assert!(
        e.message.contains("`Nd2NzParams.nValue` = 16385") && e.message.contains("[0, 16384]"),
        "{e}"
    );
    let e = nd2nz_err(Nd2NzParams::new(1, 2, 16, 0, 16, 16385, 1, 0));
    assert!(
        e.message.contains("`Nd2NzParams.dstNzC0Stride` = 16385"),
        "{e}"
    );
    let e = nd2nz_err(Nd2NzParams::new(1, 2, 16, 0, 16, 2, 0, 0));
    assert!(e.message.contains("`Nd2NzParams.dstNzNStride` = 0"), "{e}");
}

#[test]
fn n2_zero_counts_are_a_nop_with_a_warning() {
    let g = GmBuffer::zeroed(64);
    let a = g.addr();
    let r = run(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::A1, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 64)?;
        let mut gs = GlobalTensor::<f16>::new();
        gs.set_global_buffer(a.clone());
        let t = q.alloc_tensor::<f16>()?;
        data_copy(&t, &gs, Nd2NzParams::new(1, 0, 16, 0, 16, 1, 1, 0))
    });
    let w = warnings(&r);
    assert!(
        w.iter()
            .any(|d| d.category == Category::Nop && d.message.contains("`Nd2NzParams.nValue` = 0")),
        "{w:?}"
    );
    assert_eq!(r.total_counts()[Pipe::MTE2 as usize], 0);
}

#[test]
fn n3_destination_position_and_alignment() {
    let g = GmBuffer::zeroed(1024);
    let a = g.addr();
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::VECOUT, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 512)?;
        let mut gs = GlobalTensor::<f16>::new();
        gs.set_global_buffer(a.clone());
        let t = q.alloc_tensor::<f16>()?;
        data_copy(&t, &gs, Nd2NzParams::new(1, 1, 16, 0, 16, 1, 1, 0))
    });
    assert_eq!(e.category, Category::Position);
    assert!(
        e.message.contains("VECOUT in UB")
            && e.message
                .contains("A1/B1/TSCM (L1), C1 where it is L1, and VECIN"),
        "{e}"
    );
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::A1, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 512)?;
        let mut gs = GlobalTensor::<f16>::new();
        gs.set_global_buffer(a.clone());
        let t = q.alloc_tensor::<f16>()?;
        data_copy(&t.at(8)?, &gs, Nd2NzParams::new(1, 1, 16, 0, 16, 1, 1, 0))
    });
    assert_eq!(e.category, Category::Align);
    assert!(
        e.message.contains("16") && e.message.contains("32-byte aligned"),
        "{e}"
    );
}

#[test]
fn n4_destination_overflow() {
    // (2−1)·2·32 + (2−1)·2·32 + 32 = 160 bytes needed, 128 available.
    let g = GmBuffer::zeroed(1024);
    let a = g.addr();
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::A1, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 128)?;
        let mut gs = GlobalTensor::<f16>::new();
        gs.set_global_buffer(a.clone());
        let t = q.alloc_tensor::<f16>()?;
        data_copy(&t, &gs, Nd2NzParams::new(1, 2, 32, 0, 32, 2, 2, 0))
    });
    assert_eq!(e.category, Category::Size);
    assert!(
        e.message.contains("at least 160 bytes") && e.message.contains("only 128"),
        "{e}"
    );
}

/// Seed 004 NZ→ND: 32×32 halves 1…1024.
#[test]
fn nz2nd_seed_example() {
    let input: Vec<f16> = (1..=1024).map(|i| h(i as f32)).collect();
    let src = GmBuffer::from_slice(&input);
    let dst = GmBuffer::zeroed(2048);
    let (s, d) = (src.addr(), dst.addr());
    let r = run(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::VECOUT, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 2048)?;
        let (mut gs, mut gd) = (GlobalTensor::<f16>::new(), GlobalTensor::<f16>::new());
        gs.set_global_buffer(s.clone());
        gd.set_global_buffer(d.clone());
        let t = q.alloc_tensor::<f16>()?;
        data_copy(&t, &gs, 1024)?;
        data_copy(&gd, &t, Nz2NdParamsFull::new(1, 32, 32, 1, 32, 32, 1))?;
        q.free_tensor(&t)
    });
    let out = dst.to_vec::<f16>();
    for row in 0..32 {
        for c in 0..32 {
            let want = if c < 16 {
                16 * row + c + 1
            } else {
                512 + 16 * row + (c - 16) + 1
            };
            assert_eq!(out[row * 32 + c], h(want as f32), "row {row} col {c}");
        }
    }
    assert_eq!(
        r.blocks[0]
            .trace
            .instructions()
            .iter()
            .filter(|i| i.api == "DataCopy" && i.pipe == Pipe::MTE3)
            .count(),
        1
    );
}

#[test]
fn nz2nd_two_matrices_with_row_pitch() {
    // float, 2 matrices of 2×16, source matrices 1 fractal apart, destination rows 20 apart.
    let input: Vec<f32> = (0..512).map(|i| i as f32).collect();
    let src = GmBuffer::from_slice(&input);
    let dst = GmBuffer::from_slice(&[-1.0f32; 100]);
    let (s, d) = (src.addr(), dst.addr());
    run(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::VECOUT, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 2048)?;
        let (mut gs, mut gd) = (GlobalTensor::<f32>::new(), GlobalTensor::<f32>::new());
        gs.set_global_buffer(s.clone());
        gd.set_global_buffer(d.clone());
        let t = q.alloc_tensor::<f32>()?;
        data_copy(&t, &gs, 512)?;
        data_copy(&gd, &t, Nz2NdParamsFull::new(2, 2, 16, 1, 0, 20, 50))?;
        q.free_tensor(&t)
    });
    let out = dst.to_vec::<f32>();
    let r = |k: usize| out[k..k + 16].to_vec();
    let seq = |a: usize| (a..a + 16).map(|v| v as f32).collect::<Vec<f32>>();
    assert_eq!(r(0), seq(0));
    assert_eq!(r(20), seq(16));
    assert_eq!(r(50), seq(256));
    assert_eq!(r(70), seq(272));
    assert_eq!(out[16..20], [-1.0; 4]);
    assert_eq!(out[86..], [-1.0; 14]);
}

fn nz2nd_err<T: Element>(p: Nz2NdParamsFull, ub_bytes: u32) -> ascendc::SimError {
    let g = GmBuffer::zeroed(1 << 20);
    let a = g.addr();
    fail(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::VECOUT, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, ub_bytes)?;
        let mut gd = GlobalTensor::<T>::new();
        gd.set_global_buffer(a.clone());
        let t = q.alloc_tensor::<T>()?;
        data_copy(&gd, &t, p)
    })
}

#[test]
fn n5_to_n8_and_n10() {
    let e = nz2nd_err::<f16>(Nz2NdParamsFull::new(1, 0, 16, 1, 0, 16, 1), 512);
    assert!(
        e.message.contains("`Nz2NdParamsFull.nValue` = 0") && e.message.contains("[1, 8192]"),
        "{e}"
    );
    let e = nz2nd_err::<f16>(Nz2NdParamsFull::new(1, 1, 16, 513, 0, 16, 1), 512);
    assert!(
        e.message
            .contains("`Nz2NdParamsFull.srcNdMatrixStride` = 513")
            && e.message.contains("[1, 512]"),
        "{e}"
    );
    let e = nz2nd_err::<f16>(Nz2NdParamsFull::new(1, 1, 16, 1, 4096, 16, 1), 512);
    assert!(
        e.message.contains("`Nz2NdParamsFull.srcNStride` = 4096"),
        "{e}"
    );
    let e = nz2nd_err::<f16>(Nz2NdParamsFull::new(1, 1, 20, 1, 1, 20, 1), 512);
    assert!(
        e.message.contains("dValue` = 20 must be divisible by 16"),
        "{e}"
    );
    let e = nz2nd_err::<i8>(Nz2NdParamsFull::new(1, 1, 16, 1, 1, 16, 1), 512);
    assert_eq!(e.category, Category::Type);
    assert!(e.message.contains("only 2- and 4-byte types"), "{e}");
    let e = nz2nd_err::<f16>(Nz2NdParamsFull::new(2, 3, 16, 1, 1, 16, 48), 2048);
    assert!(
        e.message.contains("divisible by nValue × sizeof(T) = 6"),
        "{e}"
    );
    // (2−1)·32·16·2 + 16·32·2 = 2048 > 1024
    let e = nz2nd_err::<f16>(Nz2NdParamsFull::new(1, 32, 32, 1, 32, 32, 1), 1024);
    assert_eq!(e.category, Category::Size);
    assert!(
        e.message.contains("at least 2048 bytes") && e.message.contains("only 1024"),
        "{e}"
    );
}

#[test]
fn n9_source_must_be_ub() {
    let g = GmBuffer::zeroed(1024);
    let a = g.addr();
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::A1, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 1024)?;
        let mut gd = GlobalTensor::<f16>::new();
        gd.set_global_buffer(a.clone());
        let t = q.alloc_tensor::<f16>()?;
        data_copy(&gd, &t, Nz2NdParamsFull::new(1, 1, 16, 1, 1, 16, 1))
    });
    assert_eq!(e.category, Category::Position);
    assert!(
        e.message.contains("A1 in L1") && e.message.contains("UB (VECOUT)"),
        "{e}"
    );
}
