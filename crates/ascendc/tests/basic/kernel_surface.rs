//! The kernel-side helpers: DumpTensor / DumpAccChkPoint text, GetSystemCycle, the core-kind
//! tests, KERNEL_TASK_TYPE, the system workspace, LocalMemAllocator and LocalTensor at an address.

use crate::common;

use ascendc::chip::{ASCEND310P, ASCEND910B};
use ascendc::prelude::*;
use ascendc::{
    dump_text, get_sys_workspace_ptr, get_system_cycle, get_user_workspace, is_aic, is_aiv,
    kernel_task_type, set_sys_workspace, Category, Hardware, KernelMetaType, LocalMemAllocator,
};
use common::{assert_mentions, fail, fail_on, run, run_on, Slot};

fn halves(n: usize) -> GmBuffer {
    GmBuffer::from_slice(
        &(0..n)
            .map(|i| f16::from_f64(i as f64 * 0.25))
            .collect::<Vec<_>>(),
    )
}

#[test]
fn dump_text_plain_shaped_and_offset() {
    let gm = halves(64);
    let text = Slot::new();
    run(|| {
        let mut g = GlobalTensor::<f16>::new();
        g.set_global_buffer_with_size(gm.addr(), 64);
        let mut ub = LocalMemAllocator::new(Hardware::UB)?;
        ub.alloc::<i32>(8)?;
        let t = ub.alloc::<f16>(64)?;
        data_copy(&t, &g, 64)?;
        let mut out = dump_text(&g, 7, 0, 3, None)?;
        out += &dump_text(&t, 8, 4, 2, None)?;
        out += &dump_text(&t, 9, 0, 6, Some(&ShapeInfo::new(&[2, 3], DataFormat::ND)?))?;
        out += &dump_text(
            &t,
            10,
            0,
            4,
            Some(&ShapeInfo::new(&[3, 2], DataFormat::ND)?),
        )?;
        out += &dump_text(
            &t,
            11,
            0,
            4,
            Some(&ShapeInfo::new(&[1, 3], DataFormat::ND)?),
        )?;
        text.put(out);
        Ok(())
    });
    assert_eq!(
        text.get(),
        "DumpTensor: desc=7, addr=0x0, data_type=float16, position=GM, dump_size=3\n\
         [0.000000, 0.250000, 0.500000]\n\
         DumpTensor: desc=8, addr=0x28, data_type=float16, position=UB, dump_size=2\n\
         [1.000000, 1.250000]\n\
         DumpTensor: desc=9, addr=0x20, data_type=float16, position=UB, dump_size=6\n\
         [[0.000000,0.250000,0.500000],\n[0.750000,1.000000,1.250000]]\n\
         DumpTensor: desc=10, addr=0x20, data_type=float16, position=UB, dump_size=4\n\
         shape is [3, 2], dumpSize is 4, data is not enough.\n\
         [[0.000000,0.250000],\n[0.500000,0.750000],\n[-,-]]\n\
         DumpTensor: desc=11, addr=0x20, data_type=float16, position=UB, dump_size=4\n\
         shape is [1, 3], dumpSize is 4, dumpSize is greater than shapeSize.\n\
         [[0.000000,0.250000,0.500000]]\n"
    );
}

#[test]
fn dump_integers_print_in_decimal() {
    let gm = GmBuffer::from_slice(&[-3i32, 0, 70000]);
    let text = Slot::new();
    run(|| {
        let mut g = GlobalTensor::<i32>::new();
        g.set_global_buffer(gm.addr());
        text.put(dump_text(&g, 0, 0, 3, None)?);
        Ok(())
    });
    assert_eq!(
        text.get(),
        "DumpTensor: desc=0, addr=0x0, data_type=int32, position=GM, dump_size=3\n[-3, 0, 70000]\n"
    );
}

#[test]
fn dump_past_the_tensor_fails() {
    let e = fail(|| {
        let mut ub = LocalMemAllocator::new(Hardware::UB)?;
        let t = ub.alloc::<f32>(16)?;
        dump_text(&t, 1, 10, 8, None)?;
        Ok(())
    });
    assert_eq!(e.category, Category::Size);
    assert_mentions(&e, &["DumpTensor", "offset 10 + dumpSize 8", "16 elements"]);
}

#[test]
fn dump_over_30_kib_prints_nothing_with_a_warning() {
    let text = Slot::new();
    let report = run(|| {
        let mut ub = LocalMemAllocator::new(Hardware::UB)?;
        let t = ub.alloc::<f32>(8192)?;
        text.put(dump_text(&t, 1, 0, 8192, None)?);
        Ok(())
    });
    assert_eq!(text.get(), "");
    assert!(report
        .diagnostics()
        .any(|d| d.to_string().contains("exceeds the 30720-byte limit")));
}

#[test]
fn system_cycle_increases_with_issued_instructions() {
    let cycles = Slot::new();
    run(|| {
        let c0 = get_system_cycle()?;
        let mut ub = LocalMemAllocator::new(Hardware::UB)?;
        let t = ub.alloc::<f32>(64)?;
        duplicate(&t, 1.0f32, 64)?;
        let c1 = get_system_cycle()?;
        let c2 = get_system_cycle()?;
        cycles.put((c0, c1, c2));
        Ok(())
    });
    let (c0, c1, c2) = cycles.get();
    assert_eq!(c0, 1, "the first call counts itself");
    assert_eq!(c1, c0 + 2, "one Duplicate, then this call");
    assert_eq!(c2, c1 + 1);
}

#[test]
fn core_kind_follows_the_kernel_mode() {
    for (mode, expect) in [
        (KernelMode::Aiv, (true, false)),
        (KernelMode::Aic, (false, true)),
    ] {
        let seen = Slot::new();
        Launch::new(1)
            .kernel_mode(mode)
            .run(|| {
                seen.put((is_aiv(), is_aic()));
                Ok(())
            })
            .unwrap();
        assert_eq!(seen.get(), expect, "{mode:?}");
    }
    let seen = Slot::new();
    run_on(&ASCEND310P, || {
        seen.put((is_aiv(), is_aic()));
        Ok(())
    });
    assert_eq!(seen.get(), (true, true), "a coupled AI Core is both");
}

#[test]
fn vector_only_kernel_on_a_cube_core_fails() {
    let e = Launch::new(1)
        .kernel_mode(KernelMode::Aic)
        .run(|| kernel_task_type(KernelMetaType::KERNEL_TYPE_AIV_ONLY))
        .expect_err("an AIV-only kernel on an AIC");
    assert_mentions(
        &e.errors[0],
        &["KERNEL_TASK_TYPE", "KERNEL_TYPE_AIV_ONLY", "AIC_0"],
    );
    run(|| kernel_task_type(KernelMetaType::KERNEL_TYPE_MIX_AIC_1_2));
}

#[test]
fn user_workspace_follows_the_product_system_workspace() {
    for (profile, sys) in [(&ASCEND910B, 16 << 20), (&ASCEND310P, 2 << 20)] {
        let ws = GmBuffer::zeroed(sys + 64);
        let offsets = Slot::new();
        run_on(profile, || {
            let before = get_sys_workspace_ptr()?.is_none();
            set_sys_workspace(&ws.addr())?;
            let sys_ptr = get_sys_workspace_ptr()?.expect("set");
            let user = get_user_workspace(&ws.addr())?;
            offsets.put((before, sys_ptr.offset(), user.offset()));
            Ok(())
        });
        assert_eq!(offsets.get(), (true, 0, sys), "{profile}");
    }
}

#[test]
fn workspace_shorter_than_the_system_part_fails() {
    let ws = GmBuffer::zeroed(1024);
    let e = fail(|| {
        get_user_workspace(&ws.addr())?;
        Ok(())
    });
    assert_eq!(e.category, Category::Memory);
    assert_mentions(&e, &["GetUserWorkspace", "1024 bytes", "16777216 bytes"]);
}

#[test]
fn allocator_aligns_fills_and_refuses_past_the_end() {
    let addrs = Slot::new();
    run(|| {
        let mut ub = LocalMemAllocator::new(Hardware::UB)?;
        let a = ub.alloc::<f16>(3)?;
        let b = ub.alloc_at::<f32>(TPosition::VECOUT, 8)?;
        let l1 = LocalMemAllocator::new(Hardware::L1)?.alloc::<f16>(16)?;
        addrs.put((
            a.get_phy_addr(),
            a.get_position(),
            b.get_phy_addr(),
            ub.get_cur_addr(),
            l1.get_position(),
        ));
        Ok(())
    });
    assert_eq!(addrs.get(), (0, TPosition::VECCALC, 32, 64, TPosition::A1));
    let e = fail(|| {
        let mut ub = LocalMemAllocator::new(Hardware::UB)?;
        ub.alloc::<u8>(192 * 1024)?;
        ub.alloc::<u8>(1)?;
        Ok(())
    });
    assert_eq!(e.category, Category::Memory);
    assert_mentions(&e, &["LocalMemAllocator::Alloc", "196608 bytes", "UB"]);
    let e = fail(|| {
        LocalMemAllocator::new(Hardware::UB)?.alloc_at::<f16>(TPosition::A1, 16)?;
        Ok(())
    });
    assert_mentions(&e, &["A1", "L1", "not in the allocator's UB"]);
}

#[test]
fn local_tensor_at_an_address_is_checked() {
    let t = Slot::new();
    run(|| {
        let x = LocalTensor::<f32>::new_at(TPosition::VECIN, 256, 16)?;
        t.put((x.get_phy_addr(), x.get_size(), x.hardware()));
        Ok(())
    });
    assert_eq!(t.get(), (256, 16, Hardware::UB));
    let e = fail(|| {
        LocalTensor::<f32>::new_at(TPosition::VECIN, 100, 16)?;
        Ok(())
    });
    assert_eq!(e.category, Category::Align);
    let e = fail_on(&ASCEND910B, || {
        LocalTensor::<f32>::new_at(TPosition::VECIN, 192 * 1024 - 32, 16)?;
        Ok(())
    });
    assert_mentions(&e, &["16 elements (64 bytes)", "196608 bytes"]);
}
