//! DataCopy level 0 / level 2: the worked examples of `data-movement.md` §2–3 and the DataCopy,
//! launch and GM validation rules (D*, L*).

use crate::common;

use ascendc::chip::{ASCEND310B, ASCEND310P, ASCEND910, ASCEND910B};
use ascendc::core::trace::{InstrKind, Space};
use ascendc::prelude::*;
use ascendc::{Category, CountRounding, Severity};
use common::{assert_mentions, fail, fail_on, run, run_on};

fn halves(range: std::ops::RangeInclusive<u32>) -> Vec<f16> {
    range.map(|i| f16::from_f32(i as f32)).collect()
}

/// Copies `src` GM→UB with `params`, then the whole `ub_elems`-element buffer UB→GM, after
/// pre-filling UB with `fill`.
fn gm_ub_gm(src: &[f16], params: DataCopyParams, ub_elems: u32, fill: f16) -> Vec<f16> {
    let gin = GmBuffer::from_slice(src);
    let gout = GmBuffer::zeroed(ub_elems as usize * 2);
    let (a, b) = (gin.addr(), gout.addr());
    run(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, ub_elems * 2)?;
        let (mut gi, mut go) = (GlobalTensor::<f16>::new(), GlobalTensor::<f16>::new());
        gi.set_global_buffer(a.clone());
        go.set_global_buffer(b.clone());
        let t = q.alloc_tensor::<f16>()?;
        for i in 0..ub_elems {
            t.set_value(i, fill)?;
        }
        data_copy(&t, &gi, params)?;
        data_copy(&go, &t, ub_elems)
    });
    gout.to_vec()
}

#[test]
fn seed_example_two_blocks_with_a_destination_gap() {
    let fill = f16::from_f32(-1.0);
    let out = gm_ub_gm(&halves(1..=256), DataCopyParams::new(2, 8, 0, 1), 272, fill);
    assert_eq!(out[..128], halves(1..=128)[..]);
    assert!(out[128..144].iter().all(|v| *v == fill));
    assert_eq!(out[144..272], halves(129..=256)[..]);
}

#[test]
fn both_gaps() {
    let fill = f16::from_f32(-1.0);
    let out = gm_ub_gm(&halves(1..=128), DataCopyParams::new(2, 3, 1, 2), 128, fill);
    assert_eq!(out[..48], halves(1..=48)[..]);
    assert!(out[48..80].iter().all(|v| *v == fill));
    assert_eq!(out[80..128], halves(65..=112)[..]);
}

#[test]
fn count_form_rounds_down_with_a_warning() {
    let src = halves(1..=100);
    let gin = GmBuffer::from_slice(&src);
    let gout = GmBuffer::zeroed(112 * 2);
    let (a, b) = (gin.addr(), gout.addr());
    let report = run(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 256)?;
        let (mut gi, mut go) = (GlobalTensor::<f16>::new(), GlobalTensor::<f16>::new());
        gi.set_global_buffer(a.clone());
        go.set_global_buffer(b.clone());
        let t = q.alloc_tensor::<f16>()?;
        for i in 96..100 {
            t.set_value(i, f16::from_f32(7.0))?;
        }
        data_copy(&t, &gi, 100)?;
        data_copy(&go, &t, 112)?;
        Ok(())
    });
    let out = gout.to_vec::<f16>();
    assert_eq!(out[..96], src[..96]);
    assert!(out[96..100].iter().all(|v| v.to_f32() == 7.0));
    let d: Vec<_> = report.diagnostics().collect();
    assert_eq!(d.len(), 1);
    assert_eq!(
        (d[0].severity, d[0].category),
        (Severity::Warning, Category::DataLoss)
    );
    assert!(
        d[0].message
            .contains("calCount = 100: 200 bytes is not a multiple of 32 bytes"),
        "{}",
        d[0]
    );
    assert!(
        d[0].message
            .contains("moves 96 elements and the last 4 are not copied"),
        "{}",
        d[0]
    );
}

#[test]
fn count_form_strict_mode_fails() {
    let gin = GmBuffer::zeroed(256);
    let a = gin.addr();
    let e = Launch::new(1)
        .count_rounding(CountRounding::Strict)
        .run(|| {
            let mut pipe = TPipe::new();
            let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
            pipe.init_buffer(&mut q, 1, 256)?;
            let mut gi = GlobalTensor::<f16>::new();
            gi.set_global_buffer(a.clone());
            data_copy(&q.alloc_tensor::<f16>()?, &gi, 100)
        })
        .unwrap_err();
    assert_mentions(
        &e.errors[0],
        &["DataCopy", "calCount = 100", "not a multiple of 32 bytes"],
    );
}

fn copy_seven_floats(profile: &'static ascendc::ChipProfile) -> Result<(), ascendc::SimError> {
    let gin = GmBuffer::zeroed(64);
    let a = gin.addr();
    ascendc::Launch::new(1)
        .profile(profile)
        .run(|| {
            let mut pipe = TPipe::new();
            let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
            pipe.init_buffer(&mut q, 1, 64)?;
            let mut gi = GlobalTensor::<f32>::new();
            gi.set_global_buffer(a.clone());
            data_copy(&q.alloc_tensor::<f32>()?, &gi, 7)
        })
        .map(|r| {
            assert!(
                r.diagnostics().any(|d| d.category == Category::Nop),
                "A2 reports the no-op"
            );
            assert_eq!(r.blocks[0].count(Pipe::MTE2), 0);
        })
        .map_err(|e| e.errors[0].clone())
}

#[test]
fn seven_floats_copy_nothing_nop_on_a2_error_on_310p() {
    copy_seven_floats(&ASCEND910B).unwrap();
    let e = copy_seven_floats(&ASCEND310P).unwrap_err();
    assert_mentions(&e, &["`blockLen` = 0", "[1, 65535] on Ascend310P"]);
}

#[test]
fn copies_are_recorded_with_their_access_patterns() {
    let gin = GmBuffer::from_slice(&halves(1..=256));
    let a = gin.addr();
    let report = run(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 1024)?;
        let mut gi = GlobalTensor::<f16>::new();
        gi.set_global_buffer(a.clone());
        data_copy(
            &q.alloc_tensor::<f16>()?,
            &gi,
            DataCopyParams::new(2, 8, 0, 1),
        )
    });
    let t = &report.blocks[0].trace;
    let copy = t
        .instructions()
        .iter()
        .find(|i| i.kind == InstrKind::Op)
        .unwrap();
    assert_eq!((copy.pipe, copy.api), (Pipe::MTE2, "DataCopy"));
    assert_eq!(copy.location.file, file!());
    let acc = t.accesses(copy);
    assert_eq!(acc.len(), 2);
    assert!(!acc[0].write && acc[0].space == Space::Gm(a.region_id()));
    assert_eq!(
        (acc[0].len, acc[0].blocks, acc[0].block_stride),
        (256, 2, 256)
    );
    assert!(acc[1].write && acc[1].space == Space::Local(ascendc::position::Hardware::UB));
    assert_eq!(
        (acc[1].base, acc[1].len, acc[1].blocks, acc[1].block_stride),
        (0, 256, 2, 288)
    );
}

#[test]
fn every_listed_dtype_moves_between_gm_and_ub() {
    fn round_trip<T: ascendc::Element>(profile: &'static ascendc::ChipProfile) {
        let n = 64 / T::SIZE;
        let bytes: Vec<u8> = (0..64u8).map(|i| i.wrapping_mul(37)).collect();
        let gin = GmBuffer::from_bytes(bytes.clone());
        let gout = GmBuffer::zeroed(64);
        let (a, b) = (gin.addr(), gout.addr());
        run_on(profile, || {
            let mut pipe = TPipe::new();
            let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
            let mut r: TQue<QuePosition::VECOUT, 1> = TQue::new();
            pipe.init_buffer(&mut q, 1, 64)?;
            pipe.init_buffer(&mut r, 1, 64)?;
            let (mut gi, mut go) = (GlobalTensor::<T>::new(), GlobalTensor::<T>::new());
            gi.set_global_buffer(a.clone());
            go.set_global_buffer(b.clone());
            let x = q.alloc_tensor::<T>()?;
            let y = r.alloc_tensor::<T>()?;
            data_copy(&x, &gi, n)?;
            data_copy(&y, &x, n)?;
            data_copy(&go, &y, n)
        });
        assert_eq!(gout.to_bytes(), bytes, "{}", T::DTYPE);
    }
    for p in [&ASCEND910, &ASCEND310P, &ASCEND910B] {
        round_trip::<i8>(p);
        round_trip::<u8>(p);
        round_trip::<i16>(p);
        round_trip::<u16>(p);
        round_trip::<i32>(p);
        round_trip::<u32>(p);
        round_trip::<i64>(p);
        round_trip::<u64>(p);
        round_trip::<f16>(p);
        round_trip::<f32>(p);
        round_trip::<f64>(p);
    }
    round_trip::<bf16>(&ASCEND910B);
}

#[test]
fn bf16_is_refused_between_gm_and_ub_on_910() {
    let g = GmBuffer::zeroed(64);
    let a = g.addr();
    let e = fail_on(&ASCEND910, || {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 64)?;
        let mut gi = GlobalTensor::<bf16>::new();
        gi.set_global_buffer(a.clone());
        data_copy(&q.alloc_tensor::<bf16>()?, &gi, 32)
    });
    assert_eq!(e.category, Category::Type);
    assert_mentions(
        &e,
        &["element type bfloat16_t is not supported between GM and UB on Ascend910"],
    );
}

#[test]
fn gm_to_l1_and_l1_to_gm() {
    let src: Vec<i32> = (0..64).collect();
    let gin = GmBuffer::from_slice(&src);
    let gout = GmBuffer::zeroed(256);
    let (a, b) = (gin.addr(), gout.addr());
    let report = run(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::A1, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 256)?;
        let (mut gi, mut go) = (GlobalTensor::<i32>::new(), GlobalTensor::<i32>::new());
        gi.set_global_buffer(a.clone());
        go.set_global_buffer(b.clone());
        let t = q.alloc_tensor::<i32>()?;
        data_copy(&t, &gi, 64)?;
        data_copy(&go, &t, 64)
    });
    assert_eq!(gout.to_vec::<i32>(), src);
    assert_eq!(
        (
            report.blocks[0].count(Pipe::MTE2),
            report.blocks[0].count(Pipe::MTE3)
        ),
        (1, 1)
    );
}

#[test]
fn ub_to_ub_runs_on_the_vector_pipe() {
    let src: Vec<f32> = (0..16).map(|i| i as f32).collect();
    let gin = GmBuffer::from_slice(&src);
    let gout = GmBuffer::zeroed(64);
    let (a, b) = (gin.addr(), gout.addr());
    let report = run(|| {
        let mut pipe = TPipe::new();
        let mut q: TQueBind<QuePosition::VECIN, QuePosition::VECOUT, 1> = TQueBind::new();
        let mut tmp: TBuf<QuePosition::VECCALC> = TBuf::new();
        pipe.init_buffer(&mut q, 1, 64)?;
        pipe.init_buffer(&mut tmp, 1, 64)?;
        let (mut gi, mut go) = (GlobalTensor::<f32>::new(), GlobalTensor::<f32>::new());
        gi.set_global_buffer(a.clone());
        go.set_global_buffer(b.clone());
        let x = q.alloc_tensor::<f32>()?;
        let c = tmp.get::<f32>()?;
        data_copy(&x, &gi, 16)?;
        data_copy(&c, &x, DataCopyParams::new(2, 1, 0, 0))?;
        data_copy(&go, &c, 16)
    });
    assert_eq!(gout.to_vec::<f32>(), src);
    assert_eq!(report.blocks[0].count(Pipe::V), 1);
}

#[test]
fn d2_block_count_above_4095() {
    let g = GmBuffer::zeroed(1 << 20);
    let a = g.addr();
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 4096 * 32)?;
        let mut gi = GlobalTensor::<f32>::new();
        gi.set_global_buffer(a.clone());
        data_copy(
            &q.alloc_tensor::<f32>()?,
            &gi,
            DataCopyParams::new(4096, 1, 0, 0),
        )
    });
    assert_eq!(e.category, Category::Range);
    assert_mentions(
        &e,
        &[
            "DataCopy",
            "`blockCount` = 4096",
            "[1, 4095]",
            "data_movement.rs",
        ],
    );
}

#[test]
fn d3_zero_block_count_is_a_nop_on_a2_and_d4_an_error_on_310p() {
    let g = GmBuffer::zeroed(64);
    let a = g.addr();
    let kernel = || {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 64)?;
        let mut gi = GlobalTensor::<f32>::new();
        gi.set_global_buffer(a.clone());
        data_copy(
            &q.alloc_tensor::<f32>()?,
            &gi,
            DataCopyParams::new(0, 1, 0, 0),
        )
    };
    let r = run(kernel);
    let d: Vec<_> = r.diagnostics().collect();
    assert_eq!(d.len(), 1);
    assert!(
        d[0].message
            .contains("`blockCount` = 0: the copy does nothing"),
        "{}",
        d[0]
    );
    let e = fail_on(&ASCEND310P, kernel);
    assert_mentions(&e, &["`blockCount` = 0", "[1, 4095] on Ascend310P"]);
}

#[test]
fn d5_gm_copies_need_ub_or_l1() {
    let g = GmBuffer::zeroed(1024);
    let a = g.addr();
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::A2, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 1024)?;
        let mut gi = GlobalTensor::<f16>::new();
        gi.set_global_buffer(a.clone());
        data_copy(&q.alloc_tensor::<f16>()?, &gi, 512)
    });
    assert_eq!(e.category, Category::Position);
    assert_mentions(
        &e,
        &["tensor position check failed", "destination is in L0A"],
    );
}

#[test]
fn d6_unsupported_local_route() {
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut a: TQue<QuePosition::A1, 1> = TQue::new();
        let mut b: TQue<QuePosition::VECIN, 1> = TQue::new();
        pipe.init_buffer(&mut a, 1, 64)?;
        pipe.init_buffer(&mut b, 1, 64)?;
        data_copy(&b.alloc_tensor::<f16>()?, &a.alloc_tensor::<f16>()?, 32)
    });
    assert_mentions(
        &e,
        &[
            "no local route L1 → UB",
            "supported routes are UB→UB, UB→L1",
        ],
    );
}

#[test]
fn d7_local_destination_alignment() {
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
        let mut r: TQue<QuePosition::VECOUT, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 128)?;
        pipe.init_buffer(&mut r, 1, 128)?;
        let x = q.alloc_tensor::<f32>()?;
        data_copy(&r.alloc_tensor::<f32>()?.at(4)?, &x, 8)
    });
    assert_mentions(
        &e,
        &[
            "destination start address",
            "32-byte aligned",
            "(144 mod 32 = 16)",
        ],
    );
}

#[test]
fn d10_tensor_view_too_small() {
    let g = GmBuffer::zeroed(4096);
    let a = g.addr();
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 1024)?;
        let mut gi = GlobalTensor::<f32>::new();
        gi.set_global_buffer(a.clone());
        data_copy(
            &q.alloc_tensor::<f32>()?,
            &gi,
            DataCopyParams::new(2, 16, 0, 1),
        )
    });
    assert_eq!(e.category, Category::Size);
    assert_mentions(
        &e,
        &[
            "destination tensor must hold at least 1056 bytes",
            "it has only 1024",
        ],
    );
}

#[test]
fn d14_paths_each_product_lacks() {
    // 310B has no UB→UB copy; 910 has no UB→L1 copy.
    let e = fail_on(&ASCEND310B, || {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
        let mut r: TQue<QuePosition::VECOUT, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 64)?;
        pipe.init_buffer(&mut r, 1, 64)?;
        data_copy(&r.alloc_tensor::<f32>()?, &q.alloc_tensor::<f32>()?, 16)
    });
    assert_eq!(e.category, Category::Unsupported);
    assert_mentions(&e, &["UbUb data path is not supported", "Ascend310B"]);
    let e = fail_on(&ASCEND910, || {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::VECOUT, 1> = TQue::new();
        let mut r: TQue<QuePosition::A1, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 64)?;
        pipe.init_buffer(&mut r, 1, 64)?;
        data_copy(&r.alloc_tensor::<f32>()?, &q.alloc_tensor::<f32>()?, 16)
    });
    assert_mentions(&e, &["UbL1 data path is not supported", "Ascend910"]);
}

#[test]
fn gm_alignment_is_element_alignment() {
    let g = GmBuffer::zeroed(1024);
    let a = g.addr().add_bytes(2);
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 64)?;
        let mut gi = GlobalTensor::<f32>::new();
        gi.set_global_buffer(a.clone());
        data_copy(&q.alloc_tensor::<f32>()?, &gi, 16)
    });
    assert_mentions(
        &e,
        &["source start address 2", "in GM must be 4-byte aligned"],
    );
}

#[test]
fn l3_gm_access_past_the_allocation_fails_and_gm_stays_intact() {
    let g = GmBuffer::from_slice(&[5.0f32; 8]);
    let out = GmBuffer::from_slice(&[9.0f32; 8]);
    let (a, b) = (g.addr(), out.addr());
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 128)?;
        let (mut gi, mut go) = (GlobalTensor::<f32>::new(), GlobalTensor::<f32>::new());
        gi.set_global_buffer(a.clone());
        go.set_global_buffer(b.clone());
        let t = q.alloc_tensor::<f32>()?;
        data_copy(&t, &gi, 8)?;
        data_copy(&go, &t, 16)
    });
    assert_eq!(e.category, Category::Memory);
    assert_mentions(
        &e,
        &[
            "DataCopy",
            "GM access of 64 bytes at byte 0 of a 32-byte allocation",
        ],
    );
    assert_eq!(out.to_vec::<f32>(), vec![9.0; 8]);
}

#[test]
fn l6_block_dim_range_and_l1_cpu_debug_limit() {
    let e = Launch::new(0).run(|| Ok(())).unwrap_err();
    assert_mentions(&e.errors[0], &["`blockDim` = 0", "[1, 65535]"]);
    let text = e.to_string();
    assert!(
        text.starts_with("the launch was refused before any block ran")
            && !text.contains("of 0 block"),
        "{text}"
    );
    let r = Launch::new(64).record_trace(false).run(|| Ok(())).unwrap();
    assert_eq!(r.blocks.len(), 64);
    let w: Vec<_> = r.diagnostics().collect();
    assert_eq!(w.len(), 1);
    assert!(w[0].message.contains("blockDim 64 exceeds 50"), "{}", w[0]);
}

#[test]
fn uninitialised_global_tensor_is_an_error() {
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 64)?;
        data_copy(&q.alloc_tensor::<f32>()?, &GlobalTensor::<f32>::new(), 16)
    });
    assert_mentions(&e, &["GlobalTensor used before SetGlobalBuffer"]);
}

#[test]
fn c2_and_c2pipe2gm_use_64_and_128_byte_units() {
    let words: Vec<u64> = (0..64).collect();
    let g = GmBuffer::from_slice(&words);
    let a = g.addr();
    let report = run(|| {
        let mut pipe = TPipe::new();
        let mut c1: TQue<QuePosition::C1, 1> = TQue::new();
        let mut c2: TQue<QuePosition::C2, 1> = TQue::new();
        let mut fb: TQue<QuePosition::C2PIPE2GM, 1> = TQue::new();
        pipe.init_buffer(&mut c1, 1, 512)?;
        pipe.init_buffer(&mut c2, 1, 256)?;
        pipe.init_buffer(&mut fb, 1, 512)?;
        let mut gi = GlobalTensor::<u64>::new();
        gi.set_global_buffer(a.clone());
        let l1 = c1.alloc_tensor::<u64>()?;
        data_copy(&l1, &gi, 64)?;
        // Two 64-byte units with a one-unit destination gap: 16 words land at words 0..8 and 16..24.
        let bt = c2.alloc_tensor::<u64>()?;
        assert_eq!(bt.hardware(), ascendc::position::Hardware::BIAS);
        data_copy(&bt, &l1, DataCopyParams::new(2, 1, 0, 1))?;
        // One 128-byte unit into the Fixpipe buffer.
        let f = fb.alloc_tensor::<u64>()?;
        assert_eq!(f.hardware(), ascendc::position::Hardware::FIXBUF);
        data_copy(&f, &l1, DataCopyParams::new(1, 1, 0, 0))?;
        Ok(())
    });
    let t = &report.blocks[0].trace;
    let ops: Vec<_> = t
        .instructions()
        .iter()
        .filter(|i| i.kind == InstrKind::Op)
        .collect();
    assert_eq!(ops.len(), 3);
    let bt = t.accesses(ops[1]);
    assert_eq!(
        (ops[1].pipe, bt[1].len, bt[1].blocks, bt[1].block_stride),
        (Pipe::MTE1, 64, 2, 128)
    );
    let fbw = t.accesses(ops[2]);
    assert_eq!((ops[2].pipe, fbw[1].len), (Pipe::FIX, 128));
}

#[test]
fn bias_table_needs_64_byte_alignment() {
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut c1: TQue<QuePosition::C1, 1> = TQue::new();
        let mut c2: TQue<QuePosition::C2, 1> = TQue::new();
        pipe.init_buffer(&mut c1, 1, 512)?;
        pipe.init_buffer(&mut c2, 1, 256)?;
        let bt = c2.alloc_tensor::<f32>()?.at(8)?;
        data_copy(
            &bt,
            &c1.alloc_tensor::<f32>()?,
            DataCopyParams::new(1, 1, 0, 0),
        )
    });
    assert_mentions(
        &e,
        &[
            "destination start address 32",
            "BIAS must be 64-byte aligned",
        ],
    );
}

#[test]
fn l1_to_bias_table_widens_half_to_float() {
    let src: Vec<f16> = (0..64)
        .map(|i| f16::from_f32(i as f32 * 0.5 - 3.0))
        .collect();
    let g = GmBuffer::from_slice(&src);
    let a = g.addr();
    let out = std::sync::Mutex::new(Vec::new());
    let report = run(|| {
        let mut pipe = TPipe::new();
        let mut c1: TQue<QuePosition::C1, 1> = TQue::new();
        let mut c2: TQue<QuePosition::C2, 1> = TQue::new();
        pipe.init_buffer(&mut c1, 1, 128)?;
        pipe.init_buffer(&mut c2, 1, 512)?;
        let mut gi = GlobalTensor::<f16>::new();
        gi.set_global_buffer(a.clone());
        let l1 = c1.alloc_tensor::<f16>()?;
        data_copy(&l1, &gi, 64)?;
        let bt = c2.alloc_tensor::<f32>()?;
        // Two 64-byte units of halves (32 each); one 64-byte gap between them in the table.
        data_copy(&bt, &l1, DataCopyParams::new(2, 1, 0, 1))?;
        *out.lock().unwrap() = (0..128)
            .map(|i| bt.get_value(i))
            .collect::<Result<Vec<f32>>>()?;
        Ok(())
    });
    let out = out.into_inner().unwrap();
    let want: Vec<f32> = src.iter().map(|h| h.to_f32()).collect();
    assert_eq!(out[..32], want[..32]);
    assert_eq!(out[48..80], want[32..64]);
    let ops: Vec<_> = report.blocks[0]
        .trace
        .instructions()
        .iter()
        .filter(|i| i.kind == InstrKind::Op && i.pipe == Pipe::MTE1)
        .collect();
    assert_eq!(ops.len(), 1);
}

#[test]
fn d8_half_to_float_only_into_the_bias_table() {
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut a: TQue<QuePosition::VECIN, 1> = TQue::new();
        let mut b: TQue<QuePosition::VECOUT, 1> = TQue::new();
        pipe.init_buffer(&mut a, 1, 128)?;
        pipe.init_buffer(&mut b, 1, 256)?;
        data_copy(
            &b.alloc_tensor::<f32>()?,
            &a.alloc_tensor::<f16>()?,
            DataCopyParams::new(1, 1, 0, 0),
        )
    });
    assert_eq!(e.category, Category::Type);
    assert_mentions(
        &e,
        &[
            "half → float DataCopy runs only L1 (C1) → BiasTable (C2)",
            "UB → UB",
        ],
    );
}

proptest::proptest! {
    /// Level-2 Add lowers to counter mode on A2/310P and to full repeats plus a masked tail on 910;
    /// both give the same elements, and nothing past `count` changes.
    #[test]
    fn level2_lowerings_agree_across_products(count in 1u32..3000, seed in proptest::prelude::any::<u16>()) {
        let a: Vec<f16> = (0..3072u32).map(|i| f16::from_f32(((i * 37 + seed as u32) % 2001) as f32 / 8.0 - 125.0)).collect();
        let b: Vec<f16> = (0..3072u32).map(|i| f16::from_f32(((i * 101 + seed as u32) % 997) as f32 / 4.0)).collect();
        let run_on_product = |p: &'static ascendc::ChipProfile| {
            let (ga, gb, gz) = (GmBuffer::from_slice(&a), GmBuffer::from_slice(&b), GmBuffer::zeroed(3072 * 2));
            let (xa, xb, xz) = (ga.addr(), gb.addr(), gz.addr());
            run_on(p, || {
                let mut pipe = TPipe::new();
                let mut buf: TBuf<QuePosition::VECCALC> = TBuf::new();
                pipe.init_buffer(&mut buf, 1, 3 * 3072 * 2)?;
                let x = buf.get_with_offset::<f16>(3072, 0)?;
                let y = buf.get_with_offset::<f16>(3072, 6144)?;
                let z = buf.get_with_offset::<f16>(3072, 12288)?;
                let (mut g1, mut g2, mut g3) = (GlobalTensor::new(), GlobalTensor::new(), GlobalTensor::new());
                g1.set_global_buffer(xa.clone());
                g2.set_global_buffer(xb.clone());
                g3.set_global_buffer(xz.clone());
                data_copy(&x, &g1, 3072)?;
                data_copy(&y, &g2, 3072)?;
                data_copy(&z, &g2, 3072)?;
                add(&z, &x, &y, count as i32)?;
                data_copy(&g3, &z, 3072)
            });
            gz.to_vec::<f16>()
        };
        let on_a2 = run_on_product(&ASCEND910B);
        let on_910 = run_on_product(&ASCEND910);
        proptest::prop_assert_eq!(&on_a2, &on_910);
        for i in 0..3072usize {
            let want = if (i as u32) < count { ascendc::numeric::round_f16(a[i].to_f32() + b[i].to_f32(), true) } else { b[i] };
            proptest::prop_assert_eq!(on_a2[i].to_bits(), want.to_bits(), "element {}", i);
        }
    }
}
