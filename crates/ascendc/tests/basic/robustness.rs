//! Inputs that once broke the host process: each now gives a clear error or bounded work, and the
//! process goes on.

use crate::ub_harness;

use ascendc::prelude::*;
use ub_harness::*;

/// Counter mode with `ResetMask` asks for 2^32 - 1 elements; with repeat stride 0 every repeat
/// reads and writes the same 256 bytes. The overlap analysis looks at the repeats that can
/// differ, not at all 33 million of them, and the instruction runs to completion.
#[test]
fn counter_mode_reset_mask_with_repeat_stride_0_is_bounded_work() {
    let (warnings, out) = {
        let (v, report) = run_on(Launch::new(1), |ub| {
            let a = ub.tensor::<i16>(128, 3);
            let b = ub.tensor::<i16>(128, 5);
            set_mask_count()?;
            reset_mask()?;
            max_l0(
                &a,
                &a,
                &b,
                MASK_PLACEHOLDER,
                1,
                BinaryRepeatParams::new(1, 1, 1, 0, 0, 0),
            )?;
            set_mask_norm()?;
            reset_mask()?;
            a.to_vec()
        })
        .unwrap();
        let w: Vec<String> = report.diagnostics().map(|d| d.to_string()).collect();
        (w, v)
    };
    assert_eq!(out, vec![5i16; 128]);
    // dst = src0 exactly (100% overlap) is supported; repeats re-reading earlier results are not.
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("Max") && w.contains("where repeat 0 wrote the destination")),
        "{warnings:?}"
    );
}

/// A handle rebuilt from parts must lie inside its physical buffer.
#[test]
fn local_tensor_from_parts_outside_ub_is_an_error() {
    let e = error_on("A2", |_| {
        let t = LocalTensor::<f32>::from_parts(
            TPosition::VECCALC,
            ascendc::position::Hardware::UB,
            190 * 1024,
            8 * 1024,
            None,
        )?;
        duplicate(&t, 1.0f32, 2048)
    });
    assert_eq!(e.category, ascendc::Category::Memory);
    assert!(
        e.message.contains("does not lie inside the 196608-byte UB"),
        "{e}"
    );
    let e = error_on("A2", |_| {
        LocalTensor::<f32>::from_parts(
            TPosition::VECCALC,
            ascendc::position::Hardware::UB,
            u32::MAX,
            64,
            None,
        )?;
        Ok(())
    });
    assert!(e.message.contains("does not lie inside"), "{e}");
}

/// A tensor handle kept from a launch on a product with a larger UB (310P: 256 KiB) and used
/// in a launch on A2 (192 KiB): every use is an error naming the API, never a panic.
#[test]
fn a_tensor_kept_from_a_launch_on_another_product_is_an_error() {
    let kept = std::sync::Mutex::new(None);
    Launch::new(1)
        .profile(ascendc::ChipProfile::by_name("310P").unwrap())
        .run(|| {
            let t = LocalTensor::<f32>::new_at(TPosition::VECCALC, 240 * 1024, 1024)?;
            duplicate(&t, 2.0f32, 1024)?;
            *kept.lock().unwrap() = Some(t);
            Ok(())
        })
        .unwrap();
    let t = kept.lock().unwrap().unwrap();
    for (api, e) in [
        ("Duplicate", error_on("A2", |_| duplicate(&t, 1.0f32, 64))),
        ("Adds", error_on("A2", |_| adds(&t, &t, 1.0f32, 64))),
        (
            "ReduceSum",
            error_on("A2", |ub| {
                let d = ub.tensor::<f32>(8, 0.0);
                let w = ub.tensor::<f32>(64, 0.0);
                reduce_sum(&d, &t, &w, 64)
            }),
        ),
        ("GetValue", error_on("A2", |_| t.get_value(3).map(|_| ()))),
    ] {
        assert_eq!(e.category, ascendc::Category::Memory, "{api}: {e}");
        assert!(
            e.message.contains("does not lie inside the 196608-byte UB")
                && e.message.contains("another launch"),
            "{api}: {e}"
        );
    }
}

/// Huge indices never wrap around in release builds.
#[test]
fn huge_gm_indices_are_range_errors() {
    let gm = GmBuffer::from_slice(&(0..1024).map(|i| i as f32).collect::<Vec<_>>());
    for i in [1u64 << 62, u64::MAX, 1 << 61, 1024] {
        let e = error_on("A2", |_| {
            let mut t = GlobalTensor::<f32>::new();
            t.set_global_buffer_with_size(gm.addr(), 1024);
            t.get_value(i)?;
            Ok(())
        });
        assert!(e.api == "GlobalTensor::GetValue", "{e}");
        let e = error_on("A2", |_| {
            let mut t = GlobalTensor::<f32>::new();
            t.set_global_buffer_with_size(gm.addr(), 1024);
            t.set_value(i, 1.0)
        });
        assert!(e.api == "GlobalTensor::SetValue", "{e}");
    }
    assert_eq!(gm.to_vec::<f32>()[0], 0.0);
    assert_eq!(gm.to_vec::<f32>()[5], 5.0);
    assert!(gm.write_slice(usize::MAX / 2, &[1.0f32]).is_err());
    let e = error_on("A2", |ub| {
        let t = ub.tensor::<f32>(64, 0.0);
        let mut g = GlobalTensor::<f32>::new();
        g.set_global_buffer(gm.addr());
        data_copy(&t, &g, 1usize << 40)
    });
    assert!(
        e.message.contains("calCount") && e.message.contains("[0, 2^32)"),
        "{e}"
    );
}

/// A WaitFlag no SetFlag precedes would hang the device: it fails the launch without opting in
/// to the hazard checker; a SetFlag never waited for is a warning.
#[test]
fn unpaired_flags_are_reported_without_the_hazard_checker() {
    let e = Launch::new(2)
        .run(|| {
            set_flag(HardEvent::MTE2_V, 0)?;
            wait_flag(HardEvent::MTE2_V, 0)?;
            wait_flag(HardEvent::V_MTE3, 1)
        })
        .unwrap_err();
    assert_eq!(e.errors.len(), 2);
    let msg = e.errors[0].to_string();
    assert!(
        msg.contains("WaitFlag<HardEvent::V_MTE3>(1) has no SetFlag<HardEvent::V_MTE3>(1)")
            && msg.contains("wait here forever")
            && msg.contains("robustness.rs"),
        "{msg}"
    );
    let report = Launch::new(1)
        .run(|| set_flag(HardEvent::V_MTE3, 2))
        .unwrap();
    let w: Vec<String> = report.diagnostics().map(|d| d.to_string()).collect();
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].contains("SetFlag<HardEvent::V_MTE3>(2) is never waited for"),
        "{w:?}"
    );
}

/// Repeats that neither move nor change anything are skipped; ones that accumulate still run.
#[test]
fn repeat_stride_0_instructions_keep_their_repeat_by_repeat_result() {
    let out = run(|ub| {
        let a = ub.tensor::<f32>(64, 1.0);
        let b = ub.tensor::<f32>(64, 0.5);
        let d = ub.tensor::<f32>(64, 0.0);
        let p = BinaryRepeatParams::new(1, 1, 1, 0, 0, 0);
        // a += b, 200 times: no fixed point, every repeat counts.
        add_l0(&a, &a, &b, 64u64, 200, p)?;
        // d = a + b, 200 times over the same bytes: the same as once.
        add_l0(&d, &a, &b, 64u64, 200, p)?;
        // Counter mode, 1000 elements: 15 full repeats and a 40-lane tail over the same bytes.
        set_mask_count()?;
        set_vector_mask::<f32>(MaskMode::COUNTER, 1000u64)?;
        add_l0(&a, &a, &b, MASK_PLACEHOLDER, 1, p)?;
        set_mask_norm()?;
        reset_mask()?;
        Ok((a.to_vec()?, d.to_vec()?))
    });
    // 1 + 200·0.5 = 101, then 101 + 0.5·16 (lanes 0..39, in all 16 repeats) or ·15 (lanes 40..63).
    let expect_a: Vec<f32> = (0..64)
        .map(|k| if k < 40 { 109.0 } else { 108.5 })
        .collect();
    assert_eq!(out.0, expect_a);
    assert_eq!(out.1, vec![101.5f32; 64]);
}

/// With block stride 0 the furthest byte of a repeat belongs to the enabled lane furthest into
/// its block (found by the fuzzer: the last enabled lane, 56, sits at the start of its block while
/// lane 55 reaches its end).
#[test]
fn block_stride_0_extent_counts_the_furthest_lane() {
    // Lanes 0..=56 of int32 (8 per block), 2 repeats one block apart: repeat 1 writes bytes
    // 32..64, lane 56 only 32..36.
    let mask = [(1u64 << 57) - 1, 0];
    let e = error_on("A2", |ub| {
        let d = ub.tensor::<i32>(9, 0);
        duplicate_l0(&d, 7i32, mask, 2, 0, 1)
    });
    assert!(
        e.message.contains("size check failed") && e.message.contains("at least 64 bytes"),
        "{e}"
    );
    let v = run(|ub| {
        let d = ub.tensor::<i32>(16, 0);
        duplicate_l0(&d, 7i32, mask, 2, 0, 1)?;
        d.to_vec()
    });
    assert_eq!(v, vec![7; 16]);
}

/// A counter-mode WholeReduceSum over 2^32 − 1 elements with both repeat strides 0 (found by
/// the fuzzer taking 87 s) writes the last repeat's sum, at once.
#[test]
fn counter_mode_whole_reduce_with_repeat_stride_0_is_bounded_work() {
    let out = run(|ub| {
        let src = ub.tensor::<f16>(128, f16::from_f32(1.0));
        let dst = ub.tensor::<f16>(16, f16::from_f32(0.0));
        set_mask_count()?;
        // A contiguous mask of 100 in counter mode reads as 2^32 − 1 elements (vector-model §5.4).
        whole_reduce_sum(&dst, &src, 100u64, 1, 0, 1, 0)?;
        set_mask_norm()?;
        reset_mask()?;
        dst.get_value(0)
    });
    // The last repeat has (2^32 − 1) mod 128 = 127 lanes of 1.0.
    assert_eq!(out, f16::from_f32(127.0));
}

/// The first error of a one-block launch of `kernel`.
fn first_error(kernel: impl Fn() -> Result<()> + Sync) -> ascendc::SimError {
    let e = Launch::new(1).run(kernel).unwrap_err();
    e.errors[0].clone()
}

/// Using a queue tensor after its FreeTensor fails at the using call, naming the queue's position,
/// the FreeTensor line and the use line; the freed buffer keeps its contents.
#[test]
fn use_after_free_tensor_is_an_error_naming_the_free_and_the_use() {
    let gm = GmBuffer::from_slice(&[2.0f32; 64]);
    let out = GmBuffer::from_slice(&[-1.0f32; 64]);
    let (g, o) = (gm.addr(), out.addr());
    let free_line = line!() + 12;
    let kernel = |what: u32| {
        let (g, o) = (g.clone(), o.clone());
        move || -> Result<()> {
            let mut pipe = TPipe::new();
            let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
            pipe.init_buffer(&mut q, 1, 256)?;
            let (mut gi, mut go) = (GlobalTensor::<f32>::new(), GlobalTensor::<f32>::new());
            gi.set_global_buffer(g.clone());
            go.set_global_buffer(o.clone());
            let t = q.alloc_tensor::<f32>()?;
            data_copy(&t, &gi, 64)?;
            q.free_tensor(&t)?;
            match what {
                0 => add(&t, &t, &t, 64),
                1 => data_copy(&go, &t, 64),
                2 => t.get_value(3).map(|_| ()),
                3 => reduce_sum(&t, &t, &t, 64),
                4 => q.enque(&t),
                _ => {
                    // The same buffer handed out again: the old handle is stale.
                    let fresh = q.alloc_tensor::<f32>()?;
                    muls(&fresh, &fresh, 2.0, 64)?;
                    adds(&t, &t, 1.0, 64)
                }
            }
        }
    };
    let apis = [
        "Add",
        "DataCopy",
        "LocalTensor::GetValue",
        "ReduceSum",
        "TQue::EnQue",
    ];
    for (what, api) in apis.iter().enumerate() {
        let e = first_error(kernel(what as u32));
        assert_eq!(e.api, *api, "{e}");
        assert!(
            e.message.contains("VECIN queue")
                && e.message
                    .contains(&format!("freed by FreeTensor at {}:{free_line}", file!())),
            "{e}"
        );
        let loc = e.location.expect("the use line");
        assert!(
            loc.line > free_line && loc.file.ends_with("robustness.rs"),
            "{e}"
        );
    }
    let e = first_error(kernel(5));
    assert_eq!(e.api, "Adds", "{e}");
    assert!(
        e.message.contains("now belongs to a later AllocTensor"),
        "{e}"
    );
    assert_eq!(out.to_vec::<f32>(), vec![-1.0f32; 64]);
}
