//! Inputs that once broke the host process: each now gives a clear error or bounded work, and the
//! process goes on.

mod ub_harness;

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
