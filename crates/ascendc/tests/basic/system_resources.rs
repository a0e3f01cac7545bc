//! Scalar GM access without the data cache, the CTRL register and saturation modes, the
//! store-atomic configuration, the SPM buffer, PopStackBuffer, TQueConfig and the use of a
//! TBufPool's buffers after its Reset — with the worked examples of their pages.

use crate::common;

use ascendc::chip::{ChipProfile, ASCEND310B, ASCEND310P, ASCEND910, ASCEND910B, ASCEND910_93};
use ascendc::prelude::*;
use ascendc::{
    disable_dma_atomic, get_ctrl_spr, get_saturation_flag, get_store_atomic_config,
    pop_stack_buffer, read_gm_by_pass_dcache, set_atomic_add, set_atomic_max, set_ctrl_spr,
    set_overflow, set_saturation_flag_mode, set_store_atomic_config, write_gm_by_pass_dcache,
    AtomicDtype, AtomicOp, Category, Hardware, LaunchReport, SaturationMode, TQueConfig,
};
use common::*;

fn api_pipes(r: &LaunchReport, api: &str) -> Vec<Pipe> {
    let t = &r.blocks[0].trace;
    t.instructions()
        .iter()
        .filter(|i| i.api == api)
        .map(|i| i.pipe)
        .collect()
}

// ---- WriteGmByPassDCache / ReadGmByPassDCache ----

/// The pages' example: block 0 writes the data, then the flag; block 1 polls the flag, then
/// reads the data and writes twice it.
#[test]
fn gm_bypass_flag_handshake_between_blocks() {
    const DATA_VALUE: i32 = 21;
    const SYNC_FLAG: i32 = 1;
    let src = GmBuffer::zeroed(64);
    let dst = GmBuffer::zeroed(64);
    let r = Launch::new(2)
        .run(|| {
            let (s, d) = (src.addr(), dst.addr());
            if get_block_idx() == 0 {
                write_gm_by_pass_dcache::<i32>(&s.add_bytes(4), DATA_VALUE)?;
                write_gm_by_pass_dcache::<i32>(&s, SYNC_FLAG)?;
            } else {
                for _ in 0..100_000_000u64 {
                    if read_gm_by_pass_dcache::<i32>(&s)? == SYNC_FLAG {
                        let v = read_gm_by_pass_dcache::<i32>(&s.add_bytes(4))?;
                        return write_gm_by_pass_dcache::<i32>(&d, 2 * v);
                    }
                    std::hint::spin_loop();
                }
                panic!("block 1 never saw the flag");
            }
            Ok(())
        })
        .unwrap();
    assert_eq!(dst.to_vec::<i32>()[0], 42);
    assert_eq!(&src.to_vec::<i32>()[..2], &[SYNC_FLAG, DATA_VALUE]);
    // The polling read is unordered with block 0's write: the race check says so.
    assert!(
        r.diagnostics().any(|d| d.category == Category::Sync),
        "{:?}",
        warnings(&r)
    );
}

/// The sample of the pages: one value read, 100 added, written back; every integer type.
#[test]
fn gm_bypass_round_trip_on_the_scalar_pipe() {
    let src = GmBuffer::from_slice(&[-5i32, 9]);
    let dst = GmBuffer::zeroed(8);
    let r = run(|| {
        let v = read_gm_by_pass_dcache::<i32>(&src.addr())?;
        write_gm_by_pass_dcache::<i32>(&dst.addr(), v + 100)?;
        let w = read_gm_by_pass_dcache::<i32>(&src.addr().add_bytes(4))?;
        write_gm_by_pass_dcache::<i32>(&dst.addr().add_bytes(4), w + 100)
    });
    assert_eq!(dst.to_vec::<i32>(), vec![95, 109]);
    assert_eq!(api_pipes(&r, "ReadGmByPassDCache"), vec![Pipe::S, Pipe::S]);
    assert_eq!(api_pipes(&r, "WriteGmByPassDCache"), vec![Pipe::S, Pipe::S]);
    let g = GmBuffer::zeroed(16);
    run(|| {
        let a = g.addr();
        write_gm_by_pass_dcache::<u8>(&a, 0xAB)?;
        write_gm_by_pass_dcache::<i16>(&a.add_bytes(2), -2)?;
        write_gm_by_pass_dcache::<u64>(&a.add_bytes(8), 0x0102_0304_0506_0708)?;
        assert_eq!(read_gm_by_pass_dcache::<i8>(&a)?, 0xABu8 as i8);
        assert_eq!(read_gm_by_pass_dcache::<u16>(&a.add_bytes(2))?, 0xFFFE);
        assert_eq!(read_gm_by_pass_dcache::<u32>(&a.add_bytes(8))?, 0x0506_0708);
        Ok(())
    });
    assert_eq!(
        g.to_bytes()[..16],
        [0xAB, 0, 0xFE, 0xFF, 0, 0, 0, 0, 8, 7, 6, 5, 4, 3, 2, 1]
    );
}

#[test]
fn gm_bypass_refusals() {
    let g = GmBuffer::zeroed(8);
    for p in [&ASCEND910, &ASCEND310P, &ASCEND310B] {
        let e = fail_on(p, || write_gm_by_pass_dcache::<i32>(&g.addr(), 1));
        assert_eq!(e.category, Category::Unsupported);
        assert_mentions(
            &e,
            &[
                "WriteGmByPassDCache",
                "not supported on",
                "Atlas A2",
                "Atlas A3",
            ],
        );
    }
    let e = fail(|| read_gm_by_pass_dcache::<f32>(&g.addr()).map(|_| ()));
    assert_eq!(e.category, Category::Type);
    assert_mentions(&e, &["ReadGmByPassDCache", "float"]);
    let e = fail(|| write_gm_by_pass_dcache::<u64>(&g.addr().add_bytes(4), 1));
    assert_eq!(e.category, Category::Memory);
    assert_mentions(&e, &["byte 4 of a 8-byte GM allocation"]);
    assert_eq!(g.to_vec::<u32>(), vec![0, 0]);
}

// ---- SetCtrlSpr / GetCtrlSpr / SetSaturationFlag / GetSaturationFlag ----

/// `SetCtrlSpr<48, 48>(1)` (the pages' example) keeps Inf through half arithmetic; writing 0
/// saturates again. The CTRL sample: INF + 1 = INF, CTRL[48] reads 1 after the set, 0 after.
fn half_add_with_ctrl48(bit: Option<i64>) -> (Vec<f16>, i64, bool) {
    let out = Slot::new();
    run(|| {
        let mut pipe = TPipe::new();
        let mut buf = TBuf::<QuePosition::VECCALC>::new();
        pipe.init_buffer(&mut buf, 1, 3 * 256)?;
        let x = buf.get_with_offset::<f16>(128, 0)?;
        let y = buf.get_with_offset::<f16>(128, 256)?;
        let z = buf.get_with_offset::<f16>(128, 512)?;
        for i in 0..128 {
            let v = if i < 64 {
                f16::from_f32(i as f32)
            } else {
                f16::INFINITY
            };
            x.set_value(i, v)?;
            y.set_value(i, f16::ONE)?;
        }
        if let Some(b) = bit {
            set_ctrl_spr(48, 48, b)?;
        }
        add(&z, &x, &y, 128)?;
        out.put((
            z.to_vec()?,
            get_ctrl_spr(48, 48)?,
            get_saturation_flag(SaturationMode::FLOAT)?,
        ));
        Ok(())
    });
    out.get()
}

#[test]
fn ctrl_bit_48_is_the_fp16_overflow_mode() {
    let (z, bit, sat) = half_add_with_ctrl48(Some(1));
    assert_eq!((bit, sat), (1, false));
    assert_eq!(z[5], f16::from_f32(6.0));
    assert!(z[64..].iter().all(|v| *v == f16::INFINITY));
    let (z, bit, sat) = half_add_with_ctrl48(Some(0));
    assert_eq!((bit, sat), (0, true));
    assert!(z[64..].iter().all(|v| *v == f16::MAX));
    let (z, bit, sat) = half_add_with_ctrl48(None);
    assert_eq!((bit, sat), (0, true), "saturation is the reset state");
    assert_eq!(z[127], f16::MAX);
    // SetSaturationFlag<FLOAT> writes the same bit, inverted.
    run(|| {
        set_saturation_flag_mode(SaturationMode::FLOAT, false)?;
        assert_eq!(get_ctrl_spr(48, 48)?, 1);
        set_saturation_flag(true)?;
        assert_eq!(get_ctrl_spr(48, 48)?, 0);
        Ok(())
    });
}

/// `AscendCUtils::SetOverflow`: 1 is the Inf/NaN mode (CTRL[48] = 1 on A2/A3), 0 saturation; on
/// 310P, whose simulated vector unit always saturates, 1 warns and 0 does nothing.
#[test]
fn set_overflow_is_the_fp16_overflow_mode() {
    run(|| {
        set_overflow(1)?;
        assert_eq!(get_ctrl_spr(48, 48)?, 1);
        assert!(!get_saturation_flag(SaturationMode::FLOAT)?);
        set_overflow(0)?;
        assert_eq!(get_ctrl_spr(48, 48)?, 0);
        Ok(())
    });
    let r = run_on(&ASCEND310P, || {
        set_overflow(0)?;
        set_overflow(1)
    });
    let w: Vec<String> = warnings(&r).iter().map(|d| d.to_string()).collect();
    assert!(
        w.len() == 1
            && w[0].contains("AscendCUtils::SetOverflow")
            && w[0].contains("keep saturating"),
        "{w:?}"
    );
}

/// `SetSaturationFlag<CAST>(true)` / `GetSaturationFlag<CAST>()` (the pages' examples), and
/// what switching CAST saturation off does: integer Cast results keep their low bits.
#[test]
fn cast_saturation_mode() {
    let out = Slot::new();
    run_on(&ASCEND910_93, || {
        let mut pipe = TPipe::new();
        let mut buf = TBuf::<QuePosition::VECCALC>::new();
        pipe.init_buffer(&mut buf, 1, 1024)?;
        let s32 = buf.get_with_offset::<i32>(64, 0)?;
        let f = buf.get_with_offset::<f32>(64, 256)?;
        let d16 = buf.get_with_offset::<i16>(64, 512)?;
        let e16 = buf.get_with_offset::<i16>(64, 768)?;
        s32.set_value(0, 70000)?;
        s32.set_value(1, -70000)?;
        s32.set_value(2, 1234)?;
        f.set_value(0, 40000.0)?;
        f.set_value(1, -40000.4)?;
        f.set_value(2, f32::NAN)?;
        assert!(get_saturation_flag(SaturationMode::CAST)?);
        set_saturation_flag_mode(SaturationMode::CAST, true)?;
        assert!(get_saturation_flag(SaturationMode::CAST)?);
        cast(&d16, &s32, RoundMode::CAST_NONE, 64)?;
        cast(&e16, &f, RoundMode::CAST_RINT, 64)?;
        let sat = (d16.to_vec()?[..3].to_vec(), e16.to_vec()?[..3].to_vec());
        set_saturation_flag_mode(SaturationMode::CAST, false)?;
        assert!(!get_saturation_flag(SaturationMode::CAST)?);
        assert!(
            get_saturation_flag(SaturationMode::FLOAT)?,
            "the modes are independent"
        );
        cast(&d16, &s32, RoundMode::CAST_NONE, 64)?;
        cast(&e16, &f, RoundMode::CAST_RINT, 64)?;
        out.put((
            sat,
            (d16.to_vec()?[..3].to_vec(), e16.to_vec()?[..3].to_vec()),
        ));
        Ok(())
    });
    let (sat, trunc) = out.get();
    assert_eq!(sat, (vec![32767, -32768, 1234], vec![32767, -32768, 0]));
    assert_eq!(trunc, (vec![4464, -4464, 1234], vec![-25536, 25536, 0]));
}

#[test]
fn ctrl_spr_refusals() {
    let e = fail(|| set_ctrl_spr(47, 48, 1));
    assert_eq!(e.category, Category::Unsupported);
    assert_mentions(
        &e,
        &["SetCtrlSpr", "CTRL[48:47] includes bit 47", "only CTRL[48]"],
    );
    // The SetCtrlSpr page's second example configures atomics through CTRL[8:6], a bit range
    // the page documents for later products only.
    let e = fail(|| set_ctrl_spr(6, 8, 2));
    assert_eq!(e.category, Category::Unsupported);
    assert_mentions(&e, &["CTRL[8:6] includes bit 6"]);
    let e = fail(|| get_ctrl_spr(0, 63).map(|_| ()));
    assert_mentions(&e, &["GetCtrlSpr", "includes bit 0"]);
    let e = fail(|| set_ctrl_spr(48, 48, 2));
    assert_eq!(e.category, Category::Range);
    assert_mentions(&e, &["`value` = 2", "[0, 1]"]);
    let e = fail(|| set_ctrl_spr(48, 48, -1));
    assert_eq!(e.category, Category::Range);
    let e = fail(|| get_ctrl_spr(64, 64).map(|_| ()));
    assert_mentions(&e, &["startBit", "[0, 63]"]);
    let e = fail(|| get_ctrl_spr(49, 48).map(|_| ()));
    assert_mentions(&e, &["startBit = 49 must be ≤ endBit = 48"]);
    for p in [&ASCEND910, &ASCEND310P, &ASCEND310B] {
        let e = fail_on(p, || set_ctrl_spr(48, 48, 1));
        assert_eq!(e.category, Category::Unsupported);
        let e = fail_on(p, || get_saturation_flag(SaturationMode::CAST).map(|_| ()));
        assert_mentions(&e, &["GetSaturationFlag", "not supported on"]);
    }
}

// ---- SetStoreAtomicConfig / GetStoreAtomicConfig ----

/// The pages' example: ATOMIC_F16 with ATOMIC_SUM reads back as (2, 0), and the later UB → GM
/// copy adds.
#[test]
fn store_atomic_config_is_the_gm_atomic_state() {
    let gm = GmBuffer::from_slice(&[f16::from_f32(1.5); 16]);
    let codes = Slot::new();
    for p in [&ASCEND910B, &ASCEND910_93, &ASCEND310B] {
        run_on(p, || {
            let mut c = vec![get_store_atomic_config()?];
            set_store_atomic_config(AtomicDtype::ATOMIC_F16, AtomicOp::ATOMIC_SUM)?;
            c.push(get_store_atomic_config()?);
            set_store_atomic_config(AtomicDtype::ATOMIC_S32, AtomicOp::ATOMIC_SUM)?;
            c.push(get_store_atomic_config()?);
            set_store_atomic_config(AtomicDtype::ATOMIC_NONE, AtomicOp::ATOMIC_SUM)?;
            c.push(get_store_atomic_config()?);
            set_atomic_add::<f32>()?;
            c.push(get_store_atomic_config()?);
            disable_dma_atomic()?;
            c.push(get_store_atomic_config()?);
            codes.put(c);
            Ok(())
        });
        assert_eq!(
            codes.get(),
            vec![(0, 0), (2, 0), (4, 0), (0, 0), (1, 0), (0, 0)]
        );
    }
    run(|| {
        set_atomic_max::<f32>()?;
        assert_eq!(get_store_atomic_config()?, (1, 1));
        let mut pipe = TPipe::new();
        let mut buf = TBuf::<QuePosition::VECCALC>::new();
        pipe.init_buffer(&mut buf, 1, 32)?;
        let t = buf.get::<f16>()?;
        duplicate(&t, f16::from_f32(2.0), 16)?;
        set_store_atomic_config(AtomicDtype::ATOMIC_F16, AtomicOp::ATOMIC_SUM)?;
        let mut g = GlobalTensor::<f16>::new();
        g.set_global_buffer_with_size(gm.addr(), 16);
        set_flag(HardEvent::V_MTE3, 0)?;
        wait_flag(HardEvent::V_MTE3, 0)?;
        data_copy(&g, &t, 16)
    });
    assert_eq!(gm.to_vec::<f16>(), vec![f16::from_f32(3.5); 16]);
}

#[test]
fn store_atomic_config_refusals() {
    let e = fail_on(&ASCEND310B, || {
        set_store_atomic_config(AtomicDtype::ATOMIC_S8, AtomicOp::ATOMIC_SUM)
    });
    assert_eq!(e.category, Category::Type);
    assert_mentions(&e, &["SetStoreAtomicConfig", "int8"]);
    for p in [&ASCEND910, &ASCEND310P] {
        let e = fail_on(p, || {
            set_store_atomic_config(AtomicDtype::ATOMIC_F32, AtomicOp::ATOMIC_SUM)
        });
        assert_eq!(e.category, Category::Unsupported);
        let e = fail_on(p, || get_store_atomic_config().map(|_| ()));
        assert_mentions(&e, &["GetStoreAtomicConfig", "not supported on"]);
    }
}

// ---- SPM buffer ----

fn spm_round_trip(
    profile: &'static ChipProfile,
    in_l1: bool,
) -> (Vec<f16>, Vec<f16>, Vec<f16>, LaunchReport) {
    let ws = GmBuffer::zeroed(2048);
    let out = Slot::new();
    let r = run_on(profile, || {
        let mut pipe = TPipe::new();
        let mut g = GlobalTensor::<f16>::new();
        g.set_global_buffer_with_size(ws.addr(), 1024);
        if in_l1 {
            pipe.init_spm_buffer_l1(1024 * 2)?;
        } else {
            pipe.init_spm_buffer(&g.at(get_block_idx() as u64 * 1024)?, 1024 * 2)?;
        }
        let mut buf = TBuf::<QuePosition::VECCALC>::new();
        pipe.init_buffer(&mut buf, 1, 256)?;
        let local = buf.get_count::<f16>(128)?;
        for i in 0..128 {
            local.set_value(i, f16::from_f32(i as f32))?;
        }
        // The pages' first example: two blocks of two 32-byte units, one unit apart on both sides.
        let params = DataCopyParams::new(2, 2, 1, 1);
        pipe.write_spm_buffer(&local, params, 32)?;
        duplicate(&local, f16::ZERO, 128)?;
        pipe.read_spm_buffer(&local, params, 32)?;
        let blocks = local.to_vec()?[..80].to_vec();
        // The second: 32 contiguous elements at byte 32.
        for i in 0..128 {
            local.set_value(i, f16::from_f32(-(i as f32)))?;
        }
        pipe.write_spm_buffer_count(&local, 32, 32)?;
        duplicate(&local, f16::ZERO, 128)?;
        pipe.read_spm_buffer_count(&local, 32, 32)?;
        let contiguous = local.to_vec()?[..40].to_vec();
        out.put((blocks, contiguous));
        Ok(())
    });
    let (b, c) = out.get();
    (b, c, ws.to_vec::<f16>(), r)
}

#[test]
fn spm_buffer_in_a_workspace() {
    let h = |v: f32| f16::from_f32(v);
    for p in [&ASCEND910B, &ASCEND910_93, &ASCEND910, &ASCEND310P] {
        let (blocks, contiguous, ws, r) = spm_round_trip(p, false);
        let want: Vec<f16> = (0..80)
            .map(|i| {
                if (32..48).contains(&i) {
                    h(0.0)
                } else {
                    h(i as f32)
                }
            })
            .collect();
        assert_eq!(blocks, want, "{p}");
        let want: Vec<f16> = (0..40)
            .map(|i| if i < 32 { h(-(i as f32)) } else { h(0.0) })
            .collect();
        assert_eq!(contiguous, want);
        // SPM bytes 32..96 hold the last write (elements 0..32 negated); bytes 128..192 still the
        // second block of the first write (elements 48..80).
        assert_eq!(ws[16], h(-0.0));
        assert_eq!(ws[47], h(-31.0));
        assert_eq!(
            ws[64..96],
            (48..80).map(|i| h(i as f32)).collect::<Vec<_>>()[..]
        );
        assert_eq!(ws[48..64], vec![h(0.0); 16][..]);
        assert_eq!(api_pipes(&r, "TPipe::WriteSpmBuffer"), vec![Pipe::MTE3; 2]);
        assert_eq!(api_pipes(&r, "TPipe::ReadSpmBuffer"), vec![Pipe::MTE2; 2]);
    }
}

#[test]
fn spm_buffer_in_l1() {
    for p in [&ASCEND910, &ASCEND310P] {
        let (blocks, contiguous, ws, r) = spm_round_trip(p, true);
        assert_eq!(blocks[79], f16::from_f32(79.0));
        assert_eq!(blocks[40], f16::ZERO);
        assert_eq!(contiguous[31], f16::from_f32(-31.0));
        assert!(
            ws.iter().all(|v| *v == f16::ZERO),
            "the L1 form leaves GM alone"
        );
        assert_eq!(api_pipes(&r, "TPipe::ReadSpmBuffer"), vec![Pipe::MTE1; 2]);
    }
    let e = fail_on(&ASCEND910B, || TPipe::new().init_spm_buffer_l1(64));
    assert_eq!(e.category, Category::Unsupported);
    assert_mentions(
        &e,
        &[
            "TPipe::InitSpmBuffer",
            "Atlas training series",
            "Atlas inference series",
        ],
    );
}

#[test]
fn spm_buffer_refusals() {
    let ws = GmBuffer::zeroed(256);
    let with = |f: &(dyn Fn(&TPipe, LocalTensor<f32>) -> Result<()> + Sync)| {
        let ws = &ws;
        fail(move || {
            let mut pipe = TPipe::new();
            let mut g = GlobalTensor::<f32>::new();
            g.set_global_buffer(ws.addr());
            pipe.init_spm_buffer(&g, 128)?;
            let mut buf = TBuf::<QuePosition::VECCALC>::new();
            pipe.init_buffer(&mut buf, 1, 256)?;
            f(&pipe, buf.get::<f32>()?)
        })
    };
    let e = with(&|p, t| p.write_spm_buffer_count(&t, 32, 32));
    assert_eq!(e.category, Category::Size);
    assert_mentions(
        &e,
        &["reaches byte 160 of the SPM buffer, which has 128 bytes"],
    );
    let e = with(&|p, t| p.read_spm_buffer(&t, DataCopyParams::new(0, 1, 0, 0), 0));
    assert_mentions(&e, &["blockCount", "[1, 4095]"]);
    let e = with(&|p, t| p.write_spm_buffer(&t, DataCopyParams::new(3, 3, 0, 0), 0));
    assert_mentions(
        &e,
        &["spans 288 bytes of `writeBuffer`, which has 256 bytes"],
    );
    let e = with(&|p, t| p.write_spm_buffer_count(&t, 4, -32));
    assert_mentions(&e, &["writeOffset", "≥ 0"]);
    let e = fail(|| {
        let pipe = TPipe::new();
        let mut buf = TBuf::<QuePosition::VECCALC>::new();
        let mut p2 = pipe;
        p2.init_buffer(&mut buf, 1, 64)?;
        p2.write_spm_buffer_count(&buf.get::<f32>()?, 4, 0)
    });
    assert_eq!(e.category, Category::QueueState);
    assert_mentions(&e, &["no SPM buffer"]);
    let e = fail(|| {
        let mut g = GlobalTensor::<f32>::new();
        g.set_global_buffer(ws.addr());
        TPipe::new().init_spm_buffer(&g, 512)
    });
    assert_mentions(&e, &["TPipe::InitSpmBuffer"]);
    let e = fail_on(&ASCEND310B, || {
        let mut g = GlobalTensor::<f32>::new();
        g.set_global_buffer(ws.addr());
        TPipe::new().init_spm_buffer(&g, 64)
    });
    assert_eq!(e.category, Category::Unsupported);
    let e = fail_on(&ASCEND310P, || {
        let mut pipe = TPipe::new();
        pipe.init_spm_buffer_l1(256)?;
        let mut buf = TBuf::<QuePosition::VECCALC>::new();
        pipe.init_buffer(&mut buf, 1, 64)?;
        pipe.write_spm_buffer_count(&buf.get::<f16>()?, 16, 16)
    });
    assert_eq!(e.category, Category::Align);
    assert_mentions(&e, &["in L1", "`writeOffset` (16)"]);
}

// ---- PopStackBuffer ----

#[test]
fn pop_stack_buffer_takes_the_rest_of_the_buffer() {
    for p in ChipProfile::all() {
        let ub = p.size_of(Hardware::UB);
        let got = Slot::new();
        run_on(p, || {
            let mut pipe = TPipe::new();
            let mut buf = TBuf::<QuePosition::VECCALC>::new();
            pipe.init_buffer(&mut buf, 1, 1000)?;
            // The page's example.
            let t = pop_stack_buffer::<i16, QuePosition::VECCALC>(&pipe)?.expect("space left");
            t.set_value(t.get_size() - 1, -7)?;
            got.put((
                t.get_phy_addr(),
                t.get_size(),
                t.get_value(t.get_size() - 1)?,
            ));
            Ok(())
        });
        assert_eq!(got.get(), (1024, (ub - 1024) / 2, -7), "{p}");
    }
    let none = Slot::new();
    run(|| {
        let mut pipe = TPipe::new();
        let mut buf = TBuf::<QuePosition::VECCALC>::new();
        pipe.init_buffer(&mut buf, 1, ASCEND910B.size_of(Hardware::UB))?;
        none.put(pop_stack_buffer::<f32, QuePosition::VECIN>(&pipe)?.is_none());
        Ok(())
    });
    assert!(none.get(), "a full UB leaves nothing to pop");
    let e = fail(|| {
        let pipe = TPipe::new();
        pop_stack_buffer::<bf16, QuePosition::VECCALC>(&pipe).map(|_| ())
    });
    assert_eq!(e.category, Category::Type);
    assert_mentions(&e, &["PopStackBuffer", "bfloat16"]);
    let e = fail(|| {
        let pipe = TPipe::new();
        pop_stack_buffer::<f32, QuePosition::GM>(&pipe).map(|_| ())
    });
    assert_eq!(e.category, Category::Position);
}

// ---- TQueConfig ----

#[test]
fn que_config_matches_init_buffer() {
    // The page's example: bufferNumber announced as 1, InitBuffer with 1 buffer.
    let conf = TQueConfig {
        buffer_number: 1,
        ..TQueConfig::default()
    };
    run(|| {
        let mut pipe = TPipe::new();
        let mut x = TQue::<QuePosition::VECIN, 1>::with_config(conf);
        let mut y = TQue::<QuePosition::VECOUT, 1>::with_config(conf);
        pipe.init_buffer(&mut x, 1, 1024)?;
        pipe.init_buffer(&mut y, 1, 256)?;
        let t = x.alloc_tensor::<f32>()?;
        assert_eq!(t.get_size(), 256);
        x.free_tensor(&t)
    });
    let e = fail(|| {
        let mut q = TQue::<QuePosition::VECIN, 2>::with_config(TQueConfig {
            buffer_number: 2,
            ..TQueConfig::default()
        });
        TPipe::new().init_buffer(&mut q, 1, 1024)
    });
    assert_eq!(e.category, Category::Range);
    assert_mentions(&e, &["TQueConfig.bufferNumber = 2 but InitBuffer gives 1"]);
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut pool = TBufPool::<QuePosition::VECCALC>::new();
        pipe.init_buf_pool(&mut pool, 4096)?;
        let mut q =
            TQueBind::<QuePosition::VECIN, QuePosition::VECOUT, 1>::with_config(TQueConfig {
                buffer_len: 512,
                ..TQueConfig::default()
            });
        pool.init_buffer(&mut q, 1, 1024)
    });
    assert_mentions(
        &e,
        &[
            "TBufPool::InitBuffer",
            "TQueConfig.bufferLen = 512 but InitBuffer gives 1024",
        ],
    );
}

#[test]
fn que_config_format_conversions() {
    let nd2nz = TQueConfig::from_mask(1).unwrap();
    assert!(nd2nz.nd2nz && !nd2nz.nz2nd);
    assert!(TQueConfig::from_mask(2).unwrap().nz2nd);
    assert!(TQueConfig::from_mask(4).is_err());
    let e = fail(|| {
        let mut q = TQue::<QuePosition::A1, 1>::with_config(nd2nz);
        TPipe::new().init_buffer(&mut q, 1, 1024)
    });
    assert_eq!(e.category, Category::Unsupported);
    assert_mentions(&e, &["not supported on Atlas A2", "Atlas inference series"]);
    let e = fail_on(&ASCEND310P, || {
        let mut q = TQue::<QuePosition::VECIN, 1>::with_config(nd2nz);
        TPipe::new().init_buffer(&mut q, 1, 1024)
    });
    assert_eq!(e.category, Category::Position);
    assert_mentions(
        &e,
        &["TQueConfig.nd2nz applies only to queues at A1/B1, not VECIN"],
    );
    let e = fail_on(&ASCEND310P, || {
        let mut q = TQue::<QuePosition::A1, 1>::with_config(nd2nz);
        TPipe::new().init_buffer(&mut q, 1, 1024)
    });
    assert_eq!(e.category, Category::Unsupported);
    assert_mentions(&e, &["not modelled", "Nd2NzParams"]);
    // The reserved fields are accepted.
    run(|| {
        let mut q = TQue::<QuePosition::VECIN, 1>::with_config(TQueConfig {
            scm_block_group: true,
            consumer_size: 8,
            enable_loop_queue: true,
            ..TQueConfig::default()
        });
        TPipe::new().init_buffer(&mut q, 1, 64)
    });
}

// ---- TBufPool::Reset ends the pool's buffers ----

#[test]
fn pool_buffers_are_dead_after_reset() {
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut pool = TBufPool::<QuePosition::VECCALC>::new();
        pipe.init_buf_pool(&mut pool, 4096)?;
        let mut q = TQue::<QuePosition::VECIN, 1>::new();
        pool.init_buffer(&mut q, 1, 1024)?;
        let t = q.alloc_tensor::<f32>()?;
        pool.reset()?;
        adds(&t, &t, 1.0f32, 256)
    });
    assert_eq!(e.category, Category::QueueState);
    assert_mentions(&e, &["tensor `dst`", "TBufPool that was Reset at"]);
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut pool = TBufPool::<QuePosition::VECCALC>::new();
        pipe.init_buf_pool(&mut pool, 4096)?;
        let mut b = TBuf::<QuePosition::VECCALC>::new();
        pool.init_buffer(&mut b, 1, 1024)?;
        let t = b.get::<i32>()?;
        t.set_value(0, 1)?;
        pool.reset()?;
        t.get_value(0).map(|_| ())
    });
    assert_mentions(&e, &["LocalTensor::GetValue", "TBufPool that was Reset at"]);
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut pool = TBufPool::<QuePosition::VECCALC>::new();
        pipe.init_buf_pool(&mut pool, 4096)?;
        let mut b = TBuf::<QuePosition::VECCALC>::new();
        pool.init_buffer(&mut b, 1, 1024)?;
        pool.reset()?;
        b.get::<i32>().map(|_| ())
    });
    assert_mentions(&e, &["TBuf::Get", "Reset at"]);
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut pool = TBufPool::<QuePosition::VECCALC>::new();
        pipe.init_buf_pool(&mut pool, 4096)?;
        let mut q = TQue::<QuePosition::VECIN, 1>::new();
        pool.init_buffer(&mut q, 1, 1024)?;
        let t = q.alloc_tensor::<f32>()?;
        q.free_tensor(&t)?;
        pool.reset()?;
        q.alloc_tensor::<f32>().map(|_| ())
    });
    assert_mentions(
        &e,
        &[
            "TQue::AllocTensor",
            "TBufPool that was Reset at",
            "give the queue memory again",
        ],
    );
    // Given memory again after the Reset, the same queue and TBuf work; tensors from before
    // stay dead.
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut pool = TBufPool::<QuePosition::VECCALC>::new();
        pipe.init_buf_pool(&mut pool, 4096)?;
        let mut q = TQue::<QuePosition::VECIN, 1>::new();
        let mut b = TBuf::<QuePosition::VECCALC>::new();
        pool.init_buffer(&mut q, 1, 1024)?;
        pool.init_buffer(&mut b, 1, 1024)?;
        let old = b.get::<f32>()?;
        let t = q.alloc_tensor::<f32>()?;
        q.free_tensor(&t)?;
        pool.reset()?;
        pool.init_buffer(&mut b, 1, 2048)?;
        pool.init_buffer(&mut q, 1, 512)?;
        let n = b.get::<f32>()?;
        let t = q.alloc_tensor::<f32>()?;
        assert_eq!(
            (n.get_phy_addr(), n.get_size(), t.get_phy_addr()),
            (0, 512, 2048)
        );
        adds(&n, &n, 1.0f32, 512)?;
        q.free_tensor(&t)?;
        adds(&old, &n, 1.0f32, 64)
    });
    assert_mentions(&e, &["tensor `dst`", "Reset at"]);
}
