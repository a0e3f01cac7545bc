//! DataCopyPad: the worked examples of the specification and every validation rule (P1–P10).

use crate::common;
use ascendc::chip::{ASCEND310B, ASCEND310P, ASCEND910};
use ascendc::prelude::*;
use ascendc::{Category, Severity};
use common::*;

fn h(v: f32) -> f16 {
    f16::from_f32(v)
}

/// Seed 003: 20 halves in, right padding 2 with value 0, written back: GM past element 20 untouched.
#[test]
fn seed_kernel_pads_in_ub_and_writes_exactly_20_halves() {
    let src = GmBuffer::from_slice(&(1..=32).map(|i| h(i as f32)).collect::<Vec<_>>());
    let dst = GmBuffer::from_slice(&[h(-7.0); 32]);
    let (s, d) = (src.addr(), dst.addr());
    let ub = Slot::new();
    run(|| {
        let mut pipe = TPipe::new();
        let mut qi: TQue<QuePosition::VECIN, 1> = TQue::new();
        pipe.init_buffer(&mut qi, 1, 64)?;
        let mut gs = GlobalTensor::<f16>::new();
        gs.set_global_buffer(s.clone());
        let mut gd = GlobalTensor::<f16>::new();
        gd.set_global_buffer(d.clone());
        let t = qi.alloc_tensor::<f16>()?;
        let p = DataCopyExtParams::new(1, 40, 0, 0, 0);
        data_copy_pad(&t, &gs, p, DataCopyPadExtParams::new(true, 0, 2, h(0.0)))?;
        ub.put(t.to_vec()?);
        data_copy_pad(&gd, &t, p, ())?;
        qi.free_tensor(&t)
    });
    let mut want: Vec<f16> = (1..=20).map(|i| h(i as f32)).collect();
    want.extend([h(0.0); 12]);
    assert_eq!(ub.get(), want);
    let out = dst.to_vec::<f16>();
    assert_eq!(out[..20], want[..20]);
    assert_eq!(out[20..], [h(-7.0); 12]);
}

/// Configuration example 2: int8, 47-byte blocks, GM stride 1 byte, UB stride 1 block, and back.
#[test]
fn unaligned_int8_blocks_with_gaps_and_first_element_dummy() {
    let src = GmBuffer::from_slice(&(0..119).map(|k| k as i8 + 1).collect::<Vec<i8>>());
    let fill = GmBuffer::from_slice(&[-18i8; 160]);
    let back = GmBuffer::from_slice(&[-18i8; 119]);
    let (s, f, b) = (src.addr(), fill.addr(), back.addr());
    let ub = Slot::new();
    run(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 160)?;
        let (mut gs, mut gf, mut gb) = (
            GlobalTensor::<i8>::new(),
            GlobalTensor::new(),
            GlobalTensor::new(),
        );
        gs.set_global_buffer(s.clone());
        gf.set_global_buffer(f.clone());
        gb.set_global_buffer(b.clone());
        let t = q.alloc_tensor::<i8>()?;
        data_copy(&t, &gf, 160)?;
        let p = DataCopyExtParams::new(2, 47, 1, 1, 0);
        data_copy_pad(&t, &gs, p, DataCopyPadExtParams::<i8>::default())?;
        ub.put(t.to_vec()?);
        data_copy_pad(&gb, &t, DataCopyExtParams::new(2, 47, 1, 1, 0), ())?;
        q.free_tensor(&t)
    });
    let u = ub.get();
    assert_eq!(u[..47], (1..=47).collect::<Vec<i8>>()[..]);
    assert_eq!(u[47..64], [1i8; 17]);
    assert_eq!(u[64..96], [-18i8; 32]);
    assert_eq!(u[96..143], (49..=95).collect::<Vec<i8>>()[..]);
    assert_eq!(u[143..160], [49i8; 17]);
    let g = back.to_vec::<i8>();
    assert_eq!(g[..47], (1..=47).collect::<Vec<i8>>()[..]);
    assert_eq!(g[47], -18);
    assert_eq!(g[48..95], (49..=95).collect::<Vec<i8>>()[..]);
    assert_eq!(g[95..], [-18i8; 24]);
}

fn pad_float(
    p: DataCopyExtParams,
    pad: DataCopyPadExtParams<f32>,
    gm: &[f32],
    ub_len: u32,
) -> Vec<f32> {
    let src = GmBuffer::from_slice(gm);
    let s = src.addr();
    let ub = Slot::new();
    run(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, ub_len)?;
        let mut gs = GlobalTensor::<f32>::new();
        gs.set_global_buffer(s.clone());
        let t = q.alloc_tensor::<f32>()?;
        data_copy_pad(&t, &gs, p, pad)?;
        ub.put(t.to_vec()?);
        q.free_tensor(&t)
    });
    ub.get()
}

#[test]
fn float_with_both_paddings() {
    let u = pad_float(
        DataCopyExtParams::new(2, 12, 0, 0, 0),
        DataCopyPadExtParams::new(true, 1, 2, -1.0),
        &[10.0, 20.0, 30.0, 40.0, 50.0, 60.0],
        64,
    );
    let m = -1.0;
    assert_eq!(
        u,
        [m, 10.0, 20.0, 30.0, m, m, m, m, m, 40.0, 50.0, 60.0, m, m, m, m]
    );
}

#[test]
fn aligned_rows_with_right_padding_form_a_matrix() {
    let gm: Vec<f32> = (0..32 * 59).map(|i| i as f32 + 1.0).collect();
    let u = pad_float(
        DataCopyExtParams::new(32, 59 * 4, 0, 0, 0),
        DataCopyPadExtParams::new(true, 0, 5, 0.0),
        &gm,
        32 * 64 * 4,
    );
    for r in 0..32 {
        for c in 0..64 {
            let want = if c < 59 {
                (r * 59 + c) as f32 + 1.0
            } else {
                0.0
            };
            assert_eq!(u[r * 64 + c], want, "row {r} col {c}");
        }
    }
}

#[test]
fn unset_pad_register_gives_the_poison_pattern_and_a_warning_then_keeps_the_last_value() {
    let src = GmBuffer::from_slice(&[5.0f32, 6.0]);
    let s = src.addr();
    let ub = Slot::new();
    let r = run(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 64)?;
        let mut gs = GlobalTensor::<f32>::new();
        gs.set_global_buffer(s.clone());
        let t = q.alloc_tensor::<f32>()?;
        let t2 = t.at(8)?;
        let p = DataCopyExtParams::new(1, 8, 0, 0, 0);
        data_copy_pad(&t, &gs, p, DataCopyPadExtParams::new(false, 1, 0, 0.0))?;
        data_copy_pad(&t2, &gs, p, DataCopyPadExtParams::new(true, 1, 0, 3.0))?;
        data_copy_pad(&t2, &gs, p, DataCopyPadExtParams::new(false, 0, 1, 0.0))?;
        ub.put(t.to_vec()?);
        q.free_tensor(&t)
    });
    let poison = f32::from_bits(0xA5A5_A5A5);
    let u = ub.get();
    assert_eq!(u[..3], [poison, 5.0, 6.0]);
    assert!(u[3..8].iter().all(|v| v.to_bits() == 0xA5A5_A5A5));
    assert_eq!(u[8..], [5.0, 6.0, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0]);
    let w = warnings(&r);
    assert_eq!(w.len(), 1, "{w:?}");
    assert_eq!(w[0].severity, Severity::Warning);
    assert!(
        w[0].message.contains("never set") && w[0].message.contains("0xA5"),
        "{}",
        w[0]
    );
    assert!(w[0].location.unwrap().file.ends_with("data_copy_pad.rs"));
}

#[test]
fn set_pad_value_feeds_is_pad_false_on_a2_and_is_refused_on_310b() {
    let src = GmBuffer::from_slice(&[1i16, 2, 3]);
    let s = src.addr();
    let ub = Slot::new();
    run(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 32)?;
        let mut gs = GlobalTensor::<i16>::new();
        gs.set_global_buffer(s.clone());
        let t = q.alloc_tensor::<i16>()?;
        set_pad_value(-9i16)?;
        let p = DataCopyParams::new(1, 6, 0, 0);
        data_copy_pad(&t, &gs, p, DataCopyPadExtParams::new(false, 2, 0, 0i16))?;
        ub.put(t.to_vec()?);
        q.free_tensor(&t)
    });
    let mut want = vec![-9i16, -9, 1, 2, 3];
    want.extend([-9i16; 11]);
    assert_eq!(ub.get(), want);
    let e = fail_on(&ASCEND310B, || set_pad_value(1.0f32));
    assert_eq!((e.api, e.category), ("SetPadValue", Category::Unsupported));
    assert!(e.message.contains("Ascend310B"), "{e}");
}

#[test]
fn sixty_four_bit_types_pad_in_four_byte_units() {
    let x = 0x1111_2222_3333_4444i64;
    let src = GmBuffer::from_slice(&[x]);
    let s = src.addr();
    let ub = Slot::new();
    run(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 64)?;
        let mut gs = GlobalTensor::<i64>::new();
        gs.set_global_buffer(s.clone());
        let t = q.alloc_tensor::<i64>()?;
        let p = DataCopyExtParams::new(1, 8, 0, 0, 0);
        data_copy_pad(&t, &gs, p, DataCopyPadExtParams::new(true, 1, 0, 0i64))?;
        data_copy_pad(&t.at(4)?, &gs, p, DataCopyPadExtParams::<i64>::default())?;
        ub.put(t.to_vec()?);
        q.free_tensor(&t)
    });
    let d = 0x3333_4444_3333_4444i64;
    assert_eq!(ub.get(), [0, x, 0, 0, x, d, d, d]);
}

#[test]
fn ub_to_tscm_follows_the_seed_layout() {
    // UB rows of 7 blocks (16 halves each): A1..A7, B1..B7, C1..C6 (+ 1 spare block).
    let label = |row: usize, k: usize| h((100 * (row + 1) + k) as f32);
    let ub_data: Vec<f16> = (0..21 * 16)
        .map(|i| label(i / 16 / 7, i / 16 % 7 + 1))
        .collect();
    let src = GmBuffer::from_slice(&ub_data);
    let s = src.addr();
    let out = Slot::new();
    let r = run(|| {
        let mut pipe = TPipe::new();
        let mut qv: TQue<QuePosition::VECOUT, 1> = TQue::new();
        let mut qt: TQue<QuePosition::TSCM, 1> = TQue::new();
        pipe.init_buffer(&mut qv, 1, 21 * 32)?;
        pipe.init_buffer(&mut qt, 1, 42 * 32)?;
        let mut gs = GlobalTensor::<f16>::new();
        gs.set_global_buffer(s.clone());
        let v = qv.alloc_tensor::<f16>()?;
        data_copy(&v, &gs, 21 * 16)?;
        let t = qt.alloc_tensor::<f16>()?;
        let before = t.to_vec()?;
        let p = DataCopyExtParams::new(3, 192, 1, 64, 0);
        let nz = Nd2NzParams::new(1, 3, 96, 0, 128, 7, 2, 1);
        data_copy_pad(&t, &v, p, nz)?;
        out.put((before, t.to_vec()?));
        qv.free_tensor(&v)?;
        qt.free_tensor(&t)
    });
    let (before, after) = out.get();
    let block = |v: &Vec<f16>, b: usize| {
        v[b * 16..b * 16 + 16]
            .iter()
            .map(|x| x.to_bits())
            .collect::<Vec<u16>>()
    };
    for b in 0..42 {
        let (k, slot) = (b / 7 + 1, b % 7);
        match slot {
            0 | 2 | 4 => assert_eq!(
                block(&after, b),
                vec![label(slot / 2, k).to_bits(); 16],
                "L1 block {b}"
            ),
            _ => assert_eq!(
                block(&after, b),
                block(&before, b),
                "L1 block {b} must be untouched"
            ),
        }
    }
    let ins = &r.blocks[0].trace;
    let pipes: Vec<Pipe> = ins
        .instructions()
        .iter()
        .filter(|i| i.api == "DataCopyPad")
        .map(|i| i.pipe)
        .collect();
    assert_eq!(pipes, [Pipe::MTE3, Pipe::MTE2]);
}

fn gm_to_ub_err<T: Element>(
    p: DataCopyExtParams,
    pad: DataCopyPadExtParams<T>,
) -> ascendc::SimError {
    let src = GmBuffer::zeroed(4096);
    let s = src.addr();
    fail(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 256)?;
        let mut gs = GlobalTensor::<T>::new();
        gs.set_global_buffer(s.clone());
        let t = q.alloc_tensor::<T>()?;
        data_copy_pad(&t, &gs, p, pad)
    })
}

#[test]
fn p1_padding_limit_is_32_bytes() {
    let e = gm_to_ub_err(
        DataCopyExtParams::new(1, 40, 0, 0, 0),
        DataCopyPadExtParams::new(true, 0, 17, h(0.0)),
    );
    assert_eq!((e.api, e.category), ("DataCopyPad", Category::Range));
    assert!(
        e.message.contains("rightPadding") && e.message.contains("0 ~ 16"),
        "{e}"
    );
    let e = gm_to_ub_err(
        DataCopyExtParams::new(1, 8, 0, 0, 0),
        DataCopyPadExtParams::new(true, 33, 0, 0i8),
    );
    assert!(
        e.message.contains("leftPadding") && e.message.contains("0 ~ 32"),
        "{e}"
    );
    let src = GmBuffer::zeroed(64);
    let s = src.addr();
    run(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 64)?;
        let mut gs = GlobalTensor::<i8>::new();
        gs.set_global_buffer(s.clone());
        let t = q.alloc_tensor::<i8>()?;
        data_copy_pad(
            &t,
            &gs,
            DataCopyExtParams::new(1, 8, 0, 0, 0),
            DataCopyPadExtParams::new(true, 32, 0, 0i8),
        )
    });
}

#[test]
fn p2_b64_padding_value_must_be_zero() {
    let e = gm_to_ub_err(
        DataCopyExtParams::new(1, 8, 0, 0, 0),
        DataCopyPadExtParams::new(true, 1, 0, 5i64),
    );
    assert_eq!(e.category, Category::Range);
    assert!(
        e.message.contains("B64") && e.message.contains("paddingValue must be 0"),
        "{e}"
    );
}

#[test]
fn p3_legacy_pad_params_accept_only_zero() {
    let src = GmBuffer::zeroed(64);
    let s = src.addr();
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 64)?;
        let mut gs = GlobalTensor::<f16>::new();
        gs.set_global_buffer(s.clone());
        let t = q.alloc_tensor::<f16>()?;
        data_copy_pad(
            &t,
            &gs,
            DataCopyParams::new(1, 8, 0, 0),
            DataCopyPadParams::new(true, 1, 0, 1),
        )
    });
    assert!(
        e.message.contains("DataCopyPadParams.paddingValue") && e.message.contains("only 0"),
        "{e}"
    );
}

#[test]
fn p4_ranges() {
    let e = gm_to_ub_err(
        DataCopyExtParams::new(4096, 32, 0, 0, 0),
        DataCopyPadExtParams::new(false, 0, 0, 0i8),
    );
    assert!(
        e.message.contains("`blockCount` = 4096") && e.message.contains("[1, 4095]"),
        "{e}"
    );
    let e = gm_to_ub_err(
        DataCopyExtParams::new(1, 2_097_152, 0, 0, 0),
        DataCopyPadExtParams::new(false, 0, 0, 0i8),
    );
    assert!(
        e.message.contains("`blockLen` = 2097152") && e.message.contains("2097151"),
        "{e}"
    );
}

#[test]
fn p5_zero_is_a_nop_on_a2_and_an_error_on_310b() {
    let src = GmBuffer::from_slice(&[1.0f32; 8]);
    let dst = GmBuffer::from_slice(&[2.0f32; 8]);
    let (s, d) = (src.addr(), dst.addr());
    let kernel = || {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::VECOUT, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 32)?;
        let (mut gs, mut gd) = (GlobalTensor::<f32>::new(), GlobalTensor::<f32>::new());
        gs.set_global_buffer(s.clone());
        gd.set_global_buffer(d.clone());
        let t = q.alloc_tensor::<f32>()?;
        data_copy(&t, &gs, 8)?;
        data_copy_pad(&gd, &t, DataCopyExtParams::new(1, 0, 0, 0, 0), ())?;
        q.free_tensor(&t)
    };
    let r = run(kernel);
    assert_eq!(dst.to_vec::<f32>(), [2.0; 8]);
    let w = warnings(&r);
    assert!(
        w.iter()
            .any(|d| d.category == Category::Nop && d.message.contains("`blockLen` = 0")),
        "{w:?}"
    );
    let e = fail_on(&ASCEND310B, kernel);
    assert!(
        e.message.contains("`blockLen` = 0") && e.message.contains("[1, 2097151]"),
        "{e}"
    );
}

#[test]
fn p6_block_len_must_be_a_multiple_of_the_element_size() {
    let e = gm_to_ub_err(
        DataCopyExtParams::new(1, 41, 0, 0, 0),
        DataCopyPadExtParams::new(false, 0, 0, h(0.0)),
    );
    assert!(
        e.message.contains("`blockLen` = 41")
            && e.message.contains("divisible by sizeof(half) = 2"),
        "{e}"
    );
}

#[test]
fn p7_positions_and_alignment() {
    let src = GmBuffer::zeroed(256);
    let s = src.addr();
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::A1, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 64)?;
        let mut gs = GlobalTensor::<f16>::new();
        gs.set_global_buffer(s.clone());
        let t = q.alloc_tensor::<f16>()?;
        data_copy_pad(
            &t,
            &gs,
            DataCopyExtParams::new(1, 32, 0, 0, 0),
            DataCopyPadExtParams::new(false, 0, 0, h(0.0)),
        )
    });
    assert_eq!(e.category, Category::Position);
    assert!(
        e.message.contains("A1 in L1") && e.message.contains("GM → UB"),
        "{e}"
    );
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::VECOUT, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 64)?;
        let mut gs = GlobalTensor::<f16>::new();
        gs.set_global_buffer(s.clone());
        let t = q.alloc_tensor::<f16>()?;
        data_copy_pad(&gs, &t.at(3)?, DataCopyExtParams::new(1, 6, 0, 0, 0), ())
    });
    assert_eq!(e.category, Category::Align);
    assert!(
        e.message.contains("source start address 6") && e.message.contains("32-byte aligned"),
        "{e}"
    );
}

#[test]
fn p8_destination_must_hold_the_padded_blocks() {
    let e = gm_to_ub_err(
        DataCopyExtParams::new(4, 40, 0, 1, 0),
        DataCopyPadExtParams::new(true, 0, 2, h(0.0)),
    );
    // 4 × roundUp(40 + 4, 32) + 3 × 32 = 352 > 256
    assert_eq!(e.category, Category::Size);
    assert!(
        e.message.contains("at least 352 bytes") && e.message.contains("only 256"),
        "{e}"
    );
}

#[test]
fn p9_ub_to_tscm_rules() {
    let tscm = |p: DataCopyExtParams, nz: Nd2NzParams| {
        fail(move || {
            let mut pipe = TPipe::new();
            let mut qv: TQue<QuePosition::VECOUT, 1> = TQue::new();
            let mut qt: TQue<QuePosition::TSCM, 1> = TQue::new();
            pipe.init_buffer(&mut qv, 1, 512)?;
            pipe.init_buffer(&mut qt, 1, 512)?;
            let v = qv.alloc_tensor::<f16>()?;
            let t = qt.alloc_tensor::<f16>()?;
            data_copy_pad(&t, &v, p, nz)
        })
    };
    let e = tscm(
        DataCopyExtParams::new(1, 32, 0, 0, 0),
        Nd2NzParams::new(2, 1, 16, 16, 16, 1, 1, 256),
    );
    assert!(
        e.message.contains("`Nd2NzParams.ndNum` = 2") && e.message.contains("{1}"),
        "{e}"
    );
    let e = tscm(
        DataCopyExtParams::new(0, 32, 0, 0, 0),
        Nd2NzParams::new(1, 1, 16, 0, 16, 1, 1, 0),
    );
    assert!(e.message.contains("`blockCount` = 0"), "{e}");
    let e = tscm(
        DataCopyExtParams::new(1, 32, 0, 0, 0),
        Nd2NzParams::new(1, 2, 16, 0, 16, 1, 1, 0),
    );
    assert!(e.message.contains("staging area"), "{e}");
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut qv: TQue<QuePosition::VECOUT, 1> = TQue::new();
        let mut qa: TQue<QuePosition::A1, 1> = TQue::new();
        pipe.init_buffer(&mut qv, 1, 512)?;
        pipe.init_buffer(&mut qa, 1, 512)?;
        let v = qv.alloc_tensor::<f16>()?;
        let t = qa.alloc_tensor::<f16>()?;
        data_copy_pad(
            &t,
            &v,
            DataCopyExtParams::new(1, 32, 0, 0, 0),
            Nd2NzParams::new(1, 1, 16, 0, 16, 1, 1, 0),
        )
    });
    assert!(
        e.message.contains("A1 in L1") && e.message.contains("TSCM"),
        "{e}"
    );
}

#[test]
fn p10_not_supported_on_910_and_310p() {
    for prof in [&ASCEND910, &ASCEND310P] {
        let e = gm_to_ub_err_on(prof);
        assert_eq!(e.category, Category::Unsupported);
        assert!(
            e.message.contains("DataCopyPad data path is not supported")
                && e.message.contains(prof.soc),
            "{e}"
        );
    }
}

fn gm_to_ub_err_on(prof: &'static ascendc::ChipProfile) -> ascendc::SimError {
    let src = GmBuffer::zeroed(64);
    let s = src.addr();
    fail_on(prof, || {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 64)?;
        let mut gs = GlobalTensor::<f32>::new();
        gs.set_global_buffer(s.clone());
        let t = q.alloc_tensor::<f32>()?;
        data_copy_pad(
            &t,
            &gs,
            DataCopyExtParams::new(1, 8, 0, 0, 0),
            DataCopyPadExtParams::new(true, 0, 0, 0.0f32),
        )
    })
}

#[test]
fn records_one_mte2_and_one_mte3_instruction_with_exact_ranges() {
    let src = GmBuffer::from_slice(&[0u8; 100]);
    let dst = GmBuffer::zeroed(100);
    let (s, d) = (src.addr(), dst.addr());
    let r = run(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 256)?;
        let (mut gs, mut gd) = (GlobalTensor::<u8>::new(), GlobalTensor::<u8>::new());
        gs.set_global_buffer(s.clone());
        gd.set_global_buffer(d.clone());
        let t = q.alloc_tensor::<u8>()?;
        data_copy_pad(
            &t,
            &gs,
            DataCopyExtParams::new(2, 47, 1, 1, 0),
            DataCopyPadExtParams::<u8>::default(),
        )?;
        data_copy_pad(&gd, &t, DataCopyExtParams::new(2, 47, 1, 1, 0), ())?;
        q.free_tensor(&t)
    });
    let tr = &r.blocks[0].trace;
    let ins: Vec<_> = tr
        .instructions()
        .iter()
        .filter(|i| i.api == "DataCopyPad")
        .collect();
    assert_eq!(ins.len(), 2);
    assert_eq!(ins[0].pipe, Pipe::MTE2);
    let a = tr.accesses(ins[0]);
    assert_eq!((a[0].len, a[0].blocks, a[0].block_stride), (47, 2, 48));
    assert_eq!((a[1].len, a[1].blocks, a[1].block_stride), (64, 2, 96));
    assert_eq!(ins[1].pipe, Pipe::MTE3);
    let a = tr.accesses(ins[1]);
    assert_eq!(
        (a[0].len, a[0].block_stride, a[1].len, a[1].block_stride),
        (47, 96, 47, 48)
    );
}
