//! The worked examples of the programming-model spec (TPipe, TQue, TBuf, tensors) and the queue /
//! pipe / tensor validation rules (Q*, T*).

use crate::common;

use ascendc::chip::{ASCEND310P, ASCEND910, ASCEND910B};
use ascendc::prelude::*;
use ascendc::{Category, DataFormat, ShapeInfo, SimError};
use common::{assert_mentions, fail, fail_on, run, run_on};

type VecIn = TQue<QuePosition::VECIN, 1>;
type VecOut = TQue<QuePosition::VECOUT, 1>;

#[test]
fn queue_trace_round_up_and_sizes() {
    run(|| {
        let mut pipe = TPipe::new();
        let mut q = VecIn::new();
        pipe.init_buffer(&mut q, 2, 1000)?;
        let a = q.alloc_tensor::<f16>()?;
        assert_eq!(
            (a.get_phy_addr(), a.get_length(), a.get_size()),
            (0, 1024, 512)
        );
        let b = q.alloc_tensor::<f16>()?;
        assert_eq!(b.get_phy_addr(), 1024);
        assert_eq!(a.get_position(), TPosition::VECIN);
        Ok(())
    });
}

#[test]
fn third_alloc_over_two_buffers_fails() {
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut q = VecIn::new();
        pipe.init_buffer(&mut q, 2, 1000)?;
        q.alloc_tensor::<f16>()?;
        q.alloc_tensor::<f16>()?;
        q.alloc_tensor::<f16>()?;
        Ok(())
    });
    assert_eq!(e.category, Category::Resource);
    assert_mentions(
        &e,
        &[
            "TQue::AllocTensor",
            "searched 3 times",
            "2 buffers",
            "programming_model.rs",
        ],
    );
}

#[test]
fn enque_beyond_depth_fails() {
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut q = VecIn::new();
        pipe.init_buffer(&mut q, 2, 1000)?;
        let a = q.alloc_tensor::<f16>()?;
        let b = q.alloc_tensor::<f16>()?;
        q.enque(&a)?;
        q.enque(&b)
    });
    assert_eq!(e.category, Category::QueueState);
    assert_mentions(&e, &["TQue::EnQue", "usedCount is 1", "depth limit 1"]);
}

#[test]
fn double_buffer_pattern_with_depth_one_and_round_robin() {
    run(|| {
        let mut pipe = TPipe::new();
        let mut q = VecIn::new();
        pipe.init_buffer(&mut q, 2, 1000)?;
        let a = q.alloc_tensor::<f16>()?;
        let b = q.alloc_tensor::<f16>()?;
        q.enque(&a)?;
        let x = q.deque::<f16>()?;
        assert_eq!(x.get_phy_addr(), 0);
        q.free_tensor(&x)?;
        q.enque(&b)?;
        let y = q.deque::<f16>()?;
        assert_eq!(y.get_phy_addr(), 1024);
        q.free_tensor(&y)?;
        // Alloc → B0, Alloc → B1, Free(B0), Alloc → B0 (the cursor wrapped to 0).
        let c = q.alloc_tensor::<f16>()?;
        let d = q.alloc_tensor::<f16>()?;
        assert_eq!((c.get_phy_addr(), d.get_phy_addr()), (0, 1024));
        q.free_tensor(&c)?;
        assert_eq!(q.alloc_tensor::<f16>()?.get_phy_addr(), 0);
        Ok(())
    });
    run(|| {
        // Alloc A(B0), Alloc B(B1), Free(B1), Alloc → checks B0 (busy), then B1.
        let mut pipe = TPipe::new();
        let mut q = VecIn::new();
        pipe.init_buffer(&mut q, 2, 1000)?;
        let _a = q.alloc_tensor::<f16>()?;
        let b = q.alloc_tensor::<f16>()?;
        q.free_tensor(&b)?;
        assert_eq!(q.alloc_tensor::<f16>()?.get_phy_addr(), 1024);
        Ok(())
    });
}

#[test]
fn double_free_fails() {
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut q = VecIn::new();
        pipe.init_buffer(&mut q, 1, 64)?;
        let a = q.alloc_tensor::<f32>()?;
        q.enque(&a)?;
        let x = q.deque::<f32>()?;
        q.free_tensor(&x)?;
        q.free_tensor(&x)
    });
    assert_eq!(e.category, Category::QueueState);
    assert_mentions(
        &e,
        &["TQue::FreeTensor", "can not be Free", "double FreeTensor"],
    );
}

#[test]
fn second_deque_after_one_enque_fails_on_state() {
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut q = VecOut::new();
        pipe.init_buffer(&mut q, 1, 64)?;
        let a = q.alloc_tensor::<f32>()?;
        q.enque(&a)?;
        q.deque::<f32>()?;
        q.deque::<f32>()?;
        Ok(())
    });
    assert_mentions(&e, &["TQue::DeQue", "state is Deque", "can only be Enque"]);
}

#[test]
fn deque_of_never_used_queue_is_null() {
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut q = VecOut::new();
        pipe.init_buffer(&mut q, 1, 64)?;
        q.deque::<f32>()?;
        Ok(())
    });
    assert_mentions(&e, &["TQue::DeQue", "cannot be null"]);
}

#[test]
fn init_buffer_gives_a_tbuf_exactly_one_buffer() {
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut tmp: TBuf<QuePosition::VECCALC> = TBuf::new();
        pipe.init_buffer(&mut tmp, 2, 100)
    });
    assert_eq!(e.category, Category::Range);
    assert_mentions(
        &e,
        &[
            "TPipe::InitBuffer",
            "`num` = 2",
            "init_buffer(&mut buf, 1, len)",
        ],
    );
}

#[test]
fn tbuf_worked_example() {
    run(|| {
        let mut pipe = TPipe::new();
        let mut tmp: TBuf<QuePosition::VECCALC> = TBuf::new();
        pipe.init_buffer(&mut tmp, 1, 100)?;
        assert_eq!(tmp.get_count::<f32>(16)?.get_length(), 64);
        assert_eq!(tmp.get::<f16>()?.get_size(), 64);
        // Every Get returns the same base.
        assert_eq!(
            tmp.get::<f32>()?.get_phy_addr(),
            tmp.get_count::<f32>(8)?.get_phy_addr()
        );
        Ok(())
    });
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut tmp: TBuf<QuePosition::VECCALC> = TBuf::new();
        pipe.init_buffer(&mut tmp, 1, 100)?;
        tmp.get_count::<f32>(10)?;
        Ok(())
    });
    assert_mentions(
        &e,
        &["TBuf::Get", "`len` = 10", "40 bytes", "multiple of 32"],
    );
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut tmp: TBuf<QuePosition::VECCALC> = TBuf::new();
        pipe.init_buffer(&mut tmp, 1, 100)?;
        tmp.get_count::<f32>(40)?;
        Ok(())
    });
    assert_mentions(
        &e,
        &["TBuf::Get", "160 bytes", "exceeds the buffer's 128 bytes"],
    );
}

#[test]
fn tbuf_get_with_offset_checks() {
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut tmp: TBuf<QuePosition::VECCALC> = TBuf::new();
        pipe.init_buffer(&mut tmp, 1, 256)?;
        tmp.get_with_offset::<f32>(8, 16)?;
        Ok(())
    });
    assert_eq!(e.category, Category::Align);
    assert_mentions(
        &e,
        &["TBuf::GetWithOffset", "`bufOffset` = 16", "32-byte aligned"],
    );
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut tmp: TBuf<QuePosition::VECCALC> = TBuf::new();
        pipe.init_buffer(&mut tmp, 1, 256)?;
        let t = tmp.get_with_offset::<f32>(8, 224)?;
        assert_eq!(t.get_phy_addr(), 224);
        tmp.get_with_offset::<f32>(16, 224)?;
        Ok(())
    });
    assert_mentions(
        &e,
        &["64 bytes) at offset 224 exceed the buffer's 256 bytes"],
    );
}

#[test]
fn local_tensor_views() {
    run(|| {
        let mut pipe = TPipe::new();
        let mut pad = VecIn::new();
        let mut q = VecIn::new();
        pipe.init_buffer(&mut pad, 1, 2048)?;
        pipe.init_buffer(&mut q, 1, 1024)?;
        let t = q.alloc_tensor::<f16>()?;
        assert_eq!((t.get_phy_addr(), t.get_size()), (2048, 512));
        let u = t.at(16)?;
        assert_eq!((u.get_phy_addr(), u.get_size()), (2080, 496));
        let v = t.at(5)?;
        assert_eq!(v.get_phy_addr(), 2058);
        assert_eq!(t.reinterpret_cast::<f32>().get_size(), 256);
        Ok(())
    });
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut q = VecIn::new();
        pipe.init_buffer(&mut q, 1, 1024)?;
        let t = q.alloc_tensor::<f16>()?;
        t.at(512)?;
        Ok(())
    });
    assert_mentions(
        &e,
        &[
            "LocalTensor::operator[]",
            "offset 512 (1024 bytes)",
            "data length 1024 bytes",
        ],
    );
}

#[test]
fn misaligned_view_fails_in_data_copy() {
    let gm = GmBuffer::zeroed(4096);
    let g = gm.addr();
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut q = VecIn::new();
        pipe.init_buffer(&mut q, 1, 1024)?;
        let t = q.alloc_tensor::<f16>()?;
        let mut src = GlobalTensor::<f16>::new();
        src.set_global_buffer(g.clone());
        data_copy(&t.at(5)?, &src, 16)
    });
    assert_eq!(e.category, Category::Align);
    assert_mentions(
        &e,
        &[
            "DataCopy",
            "destination start address 10",
            "32-byte aligned",
        ],
    );
}

#[test]
fn get_and_set_value_are_bounded_scalar_accesses() {
    let report = run(|| {
        let mut pipe = TPipe::new();
        let mut q = VecIn::new();
        pipe.init_buffer(&mut q, 1, 64)?;
        let t = q.alloc_tensor::<i32>()?;
        t.set_value(3, -7)?;
        assert_eq!(t.get_value(3)?, -7);
        Ok(())
    });
    assert_eq!(report.blocks[0].count(Pipe::S), 2);
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut q = VecIn::new();
        pipe.init_buffer(&mut q, 1, 64)?;
        q.alloc_tensor::<i32>()?.get_value(16)?;
        Ok(())
    });
    assert_mentions(
        &e,
        &[
            "LocalTensor::GetValue",
            "index 16 (64 bytes)",
            "data length 64 bytes",
        ],
    );
}

#[test]
fn set_size_must_stay_in_the_buffer() {
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut q = VecIn::new();
        pipe.init_buffer(&mut q, 1, 64)?;
        let mut t = q.alloc_tensor::<f32>()?;
        t.set_size(32)?;
        assert_eq!(t.get_size(), 32);
        t.set_size(49_153)?;
        Ok(())
    });
    assert_mentions(
        &e,
        &["LocalTensor::SetSize", "buffer overflow", "196608-byte UB"],
    );
}

#[test]
fn shape_info_has_at_most_eight_dims() {
    assert!(ShapeInfo::new(&[1; 8], DataFormat::ND).is_ok());
    let e = ShapeInfo::new(&[1; 9], DataFormat::ND).unwrap_err();
    assert_mentions(&e, &["ShapeInfo", "`shapeDim` = 9", "[0, 8]"]);
}

#[test]
fn global_tensor_views_keep_size() {
    let gm = GmBuffer::from_slice(&(0..1000).map(|i| i as f32).collect::<Vec<_>>());
    let g = gm.addr();
    run(|| {
        let mut t = GlobalTensor::<f32>::new();
        t.set_global_buffer_with_size(g.clone(), 1000);
        let h = t.at(100)?;
        assert_eq!(h.get_phy_addr().unwrap().offset(), 400);
        assert_eq!(h.get_size(), 1000);
        assert_eq!(h.get_value(1)?, 101.0);
        h.set_value(0, -1.0)?;
        Ok(())
    });
    assert_eq!(gm.to_vec::<f32>()[100], -1.0);
    let e = fail(|| {
        let mut t = GlobalTensor::<f32>::new();
        t.set_global_buffer(g.clone());
        t.get_value(1000)?;
        Ok(())
    });
    assert_eq!(e.category, Category::Memory);
    assert_mentions(&e, &["GlobalTensor::GetValue", "4000-byte allocation"]);
}

#[test]
fn a_lent_global_tensor_reads_and_writes_at_its_offset_and_its_clone_outlives_it() {
    let gm = GmBuffer::from_slice(&(0..64).map(|i| i as f32).collect::<Vec<_>>());
    run(|| {
        let base = gm.addr();
        let kept = GlobalTensor::<f32>::lend(&base, 16, 60, None, |t| {
            assert_eq!(t.get_size(), 60);
            assert_eq!(t.get_phy_addr().unwrap().offset(), 16);
            assert_eq!(t.get_value(0)?, 4.0);
            t.set_value(1, -5.0)?;
            Ok::<_, SimError>(t.clone())
        })?;
        // The base address is gone; the clone holds its own reference.
        drop(base);
        assert_eq!(kept.get_value(1)?, -5.0);
        assert_eq!(kept.at(2)?.get_value(0)?, 6.0);
        Ok(())
    });
    assert_eq!(gm.to_vec::<f32>()[5], -5.0);
}

#[test]
fn global_tensor_view_past_the_allocation_is_an_error() {
    let gm = GmBuffer::from_slice(&[0f32; 1000]);
    let g = gm.addr();
    run(|| {
        let mut t = GlobalTensor::<f32>::new();
        t.set_global_buffer(g.clone());
        // A view at the very end is an end pointer: allowed.
        assert_eq!(t.at(1000)?.get_phy_addr().unwrap().offset(), 4000);
        Ok(())
    });
    for offset in [1001u64, 1 << 62, u64::MAX] {
        let e = fail(|| {
            let mut t = GlobalTensor::<f32>::new();
            t.set_global_buffer(g.clone());
            t.at(offset)?;
            Ok(())
        });
        assert_eq!(e.category, Category::Memory);
        assert_mentions(
            &e,
            &[
                "GlobalTensor::operator[]",
                &format!("offset {offset}"),
                "4000 bytes",
            ],
        );
    }
}

#[test]
fn allocation_map_on_a2() {
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut qx = VecIn::new();
        let mut qy = VecOut::new();
        let mut tmp: TBuf<QuePosition::VECCALC> = TBuf::new();
        let mut qa: TQue<QuePosition::A1, 1> = TQue::new();
        let mut qz = VecIn::new();
        pipe.init_buffer(&mut qx, 2, 1000)?;
        pipe.init_buffer(&mut qy, 2, 64)?;
        pipe.init_buffer(&mut tmp, 1, 100)?;
        pipe.init_buffer(&mut qa, 1, 4096)?;
        assert_eq!(qx.alloc_tensor::<u8>()?.get_phy_addr(), 0);
        assert_eq!(qy.alloc_tensor::<u8>()?.get_phy_addr(), 2048);
        assert_eq!(qy.alloc_tensor::<u8>()?.get_phy_addr(), 2112);
        assert_eq!(tmp.get::<u8>()?.get_phy_addr(), 2176);
        let a = qa.alloc_tensor::<u8>()?;
        assert_eq!(
            (a.hardware(), a.get_phy_addr(), a.get_position()),
            (ascendc::position::Hardware::L1, 0, TPosition::A1)
        );
        pipe.init_buffer(&mut qz, 1, 190 * 1024)
    });
    assert_eq!(e.category, Category::Size);
    assert_mentions(
        &e,
        &[
            "TPipe::InitBuffer",
            "pool cursor 196864 exceeds the limit 196608",
        ],
    );
}

#[test]
fn capacity_differs_per_product() {
    let e = fail_on(&ASCEND910B, || {
        let mut pipe = TPipe::new();
        let mut q = VecIn::new();
        pipe.init_buffer(&mut q, 2, 100 * 1024)
    });
    assert_mentions(&e, &["buffer size exceeds the limit", "204800 > 196608"]);
    run_on(&ASCEND910, || {
        let mut pipe = TPipe::new();
        let mut q = VecIn::new();
        pipe.init_buffer(&mut q, 2, 100 * 1024)?;
        assert_eq!(q.alloc_tensor::<u8>()?.get_phy_addr(), 0);
        assert_eq!(q.alloc_tensor::<u8>()?.get_phy_addr(), 102_400);
        Ok(())
    });
}

#[test]
fn co2_queue_is_gm_on_a2_and_ub_on_310p() {
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::CO2, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 1024)
    });
    assert_eq!(e.category, Category::Position);
    assert_mentions(&e, &["buffer position cannot be GM", "CO2"]);
    run_on(&ASCEND310P, || {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::CO2, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 1024)?;
        assert_eq!(
            q.alloc_tensor::<f16>()?.hardware(),
            ascendc::position::Hardware::UB
        );
        Ok(())
    });
}

#[test]
fn user_placed_buffers() {
    run(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
        pipe.init_buffer_at(&mut q, &[(0, 1024), (2048, 2048), (8192, 4096)])?;
        let a = q.alloc_tensor::<u8>()?;
        let b = q.alloc_tensor::<u8>()?;
        let c = q.alloc_tensor::<u8>()?;
        assert_eq!(
            [
                (a.get_phy_addr(), a.get_length()),
                (b.get_phy_addr(), b.get_length()),
                (c.get_phy_addr(), c.get_length())
            ],
            [(0, 1024), (2048, 2048), (8192, 4096)]
        );
        Ok(())
    });
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut q = VecIn::new();
        pipe.init_buffer_at(&mut q, &[(196_000, 1024)])
    });
    assert_mentions(
        &e,
        &["buffer at byte 196000 of 1024 bytes exceeds the limit 196608"],
    );
}

#[test]
fn init_buffer_ranges() {
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut q = VecIn::new();
        pipe.init_buffer(&mut q, 65, 32)
    });
    assert_mentions(&e, &["TPipe::InitBuffer", "`num` = 65", "[1, 64]"]);
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut q = VecIn::new();
        pipe.init_buffer(&mut q, 1, 0)
    });
    assert_mentions(&e, &["`len` = 0", "196608"]);
}

#[test]
fn sixty_four_handles_then_refused() {
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut qs: Vec<VecIn> = (0..8).map(|_| VecIn::new()).collect();
        for q in &mut qs {
            pipe.init_buffer(q, 8, 32)?;
        }
        let mut t: TBuf<QuePosition::VECCALC> = TBuf::new();
        pipe.init_buffer(&mut t, 1, 32)
    });
    assert_eq!(e.category, Category::Resource);
    assert_mentions(&e, &["(0, 64]", "64 in use"]);
}

#[test]
fn tscm_is_allocated_top_down_and_must_not_meet_l1_buffers() {
    run(|| {
        let mut pipe = TPipe::new();
        let mut t: TQue<QuePosition::TSCM, 1> = TQue::new();
        pipe.init_buffer(&mut t, 2, 1024)?;
        assert_eq!(t.alloc_tensor::<u8>()?.get_phy_addr(), 512 * 1024 - 2048);
        Ok(())
    });
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut a: TQue<QuePosition::A1, 1> = TQue::new();
        let mut t: TQue<QuePosition::TSCM, 1> = TQue::new();
        pipe.init_buffer(&mut a, 1, 500 * 1024)?;
        pipe.init_buffer(&mut t, 1, 20 * 1024)
    });
    assert_mentions(
        &e,
        &["TSCM", "overlap the L1 buffers that end at byte 512000"],
    );
}

#[test]
fn event_ids_run_out_after_eight_freed_buffers() {
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut qs: Vec<VecIn> = (0..9).map(|_| VecIn::new()).collect();
        for q in &mut qs {
            pipe.init_buffer(q, 1, 32)?;
        }
        for q in &mut qs {
            let t = q.alloc_tensor::<f32>()?;
            q.enque(&t)?;
            let t = q.deque::<f32>()?;
            q.free_tensor(&t)?;
        }
        Ok(())
    });
    assert_eq!(e.category, Category::Resource);
    assert_mentions(&e, &["TQue::FreeTensor", "V_MTE2", "ID 8 found, at most 8"]);
}

#[test]
fn event_ids_are_four_on_910_and_free_all_event_releases_them() {
    let e = fail_on(&ASCEND910, || {
        let mut pipe = TPipe::new();
        let mut qs: Vec<VecIn> = (0..5).map(|_| VecIn::new()).collect();
        for q in &mut qs {
            pipe.init_buffer(q, 1, 32)?;
        }
        for q in &mut qs {
            let t = q.alloc_tensor::<f32>()?;
            q.enque(&t)?;
            let t = q.deque::<f32>()?;
            q.free_tensor(&t)?;
        }
        Ok(())
    });
    assert_mentions(&e, &["ID 4 found, at most 4"]);
    run_on(&ASCEND910, || {
        let mut pipe = TPipe::new();
        let mut qs: Vec<VecIn> = (0..5).map(|_| VecIn::new()).collect();
        for q in &mut qs {
            pipe.init_buffer(q, 1, 32)?;
            let t = q.alloc_tensor::<f32>()?;
            q.enque(&t)?;
            let t = q.deque::<f32>()?;
            q.free_tensor(&t)?;
            q.free_all_event()?;
        }
        Ok(())
    });
}

#[test]
fn free_all_event_refuses_enqueued_buffers() {
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut q = VecIn::new();
        pipe.init_buffer(&mut q, 1, 32)?;
        let t = q.alloc_tensor::<f32>()?;
        q.enque(&t)?;
        q.free_all_event()
    });
    assert_mentions(&e, &["TQue::FreeAllEvent", "enqueue event ID"]);
}

#[test]
fn queue_misuse_errors() {
    let e = fail(|| {
        let mut q = VecIn::new();
        q.alloc_tensor::<f32>()?;
        Ok(())
    });
    assert_mentions(&e, &["TQue::AllocTensor", "bufNum must be > 0"]);
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let (mut a, mut b) = (VecIn::new(), VecIn::new());
        pipe.init_buffer(&mut a, 1, 32)?;
        pipe.init_buffer(&mut b, 1, 32)?;
        let t = a.alloc_tensor::<f32>()?;
        b.enque(&t)
    });
    assert_mentions(&e, &["TQue::EnQue", "does not belong to this queue"]);
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut q = VecIn::new();
        pipe.init_buffer(&mut q, 1, 32)?;
        let t = q.alloc_tensor::<f32>()?;
        q.enque(&t)?;
        q.enque(&t)
    });
    assert_mentions(&e, &["TQue::EnQue"]);
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::VECIN, 2> = TQue::new();
        pipe.init_buffer(&mut q, 1, 32)?;
        let t = q.alloc_tensor::<f32>()?;
        q.enque(&t)?;
        q.enque(&t)
    });
    assert_mentions(&e, &["TQue::EnQue", "state is Enque", "Occupied"]);
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::VECCALC, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 32)
    });
    assert_mentions(&e, &["VECCALC is not a valid queue position", "TBuf"]);
}

#[test]
fn a_second_pipe_fails_the_launch() {
    let e = fail(|| {
        let _a = TPipe::new();
        let mut b = TPipe::new();
        let mut q = VecIn::new();
        b.init_buffer(&mut q, 1, 32)
    });
    assert_eq!(e.category, Category::Resource);
    assert_mentions(&e, &["TPipe::TPipe", "a TPipe already exists"]);
    run(|| {
        let mut a = TPipe::new();
        a.destroy();
        let mut b = TPipe::new();
        let mut q = VecIn::new();
        b.init_buffer(&mut q, 1, 32)
    });
}

#[test]
fn reset_starts_allocation_over() {
    run(|| {
        let mut pipe = TPipe::new();
        let mut q = VecIn::new();
        pipe.init_buffer(&mut q, 1, 4096)?;
        pipe.reset();
        let mut r = VecIn::new();
        pipe.init_buffer(&mut r, 1, 64)?;
        assert_eq!(r.alloc_tensor::<u8>()?.get_phy_addr(), 0);
        Ok(())
    });
}

#[test]
fn queue_operations_record_flags_on_the_right_pipes() {
    let report = run(|| {
        let mut pipe = TPipe::new();
        let mut q = VecIn::new();
        pipe.init_buffer(&mut q, 1, 32)?;
        let t = q.alloc_tensor::<f32>()?;
        q.enque(&t)?;
        let t = q.deque::<f32>()?;
        q.free_tensor(&t)?;
        q.alloc_tensor::<f32>()?;
        Ok(())
    });
    use ascendc::core::trace::InstrKind;
    let kinds: Vec<(Pipe, InstrKind)> = report.blocks[0]
        .trace
        .instructions()
        .iter()
        .map(|i| (i.pipe, i.kind))
        .collect();
    assert_eq!(
        kinds,
        vec![
            (Pipe::MTE2, InstrKind::SetFlag(HardEvent::MTE2_V, 0)),
            (Pipe::V, InstrKind::WaitFlag(HardEvent::MTE2_V, 0)),
            (Pipe::V, InstrKind::SetFlag(HardEvent::V_MTE2, 0)),
            (Pipe::MTE2, InstrKind::WaitFlag(HardEvent::V_MTE2, 0)),
        ]
    );
}

#[test]
fn calls_outside_a_launch_are_errors() {
    let mut q = VecIn::new();
    let e = q.alloc_tensor::<f32>().unwrap_err();
    assert_eq!(e.category, Category::Launch);
    assert_mentions(&e, &["outside a kernel launch"]);
}
