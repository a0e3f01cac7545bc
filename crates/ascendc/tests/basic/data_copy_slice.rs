//! Slice DataCopy: the seed example with distinct values, and rules S1–S11 (checker cases).

use crate::common;
use ascendc::prelude::*;
use ascendc::Category;
use common::*;

/// GM→UB with the given slices (GM shape {88|87, 3}, UB shape {48, 2}); returns UB.
fn slice_in(
    gm_w: u32,
    src: [SliceInfo; 2],
    dst: [SliceInfo; 2],
) -> std::result::Result<Vec<f32>, ascendc::SimError> {
    let input: Vec<f32> = (0..gm_w * 3).map(|i| i as f32).collect();
    let g = GmBuffer::from_slice(&input);
    let a = g.addr();
    let out = Slot::new();
    let r = ascendc::Launch::new(1).run(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 96 * 4)?;
        let mut gs = GlobalTensor::<f32>::new();
        gs.set_global_buffer(a.clone());
        gs.set_shape_info(ShapeInfo::new(&[gm_w, 3], DataFormat::ND)?);
        let mut t = q.alloc_tensor::<f32>()?;
        t.set_shape_info(ShapeInfo::new(&[48, 2], DataFormat::ND)?);
        data_copy(&t, &gs, (&dst[..], &src[..], 2))?;
        out.put(t.to_vec()?);
        q.free_tensor(&t)
    });
    match r {
        Ok(_) => Ok(out.get()),
        Err(e) => Err(e.errors[0].clone()),
    }
}

const D1_SRC: SliceInfo = SliceInfo::new(0, 2, 1, 1);
const D1_DST: SliceInfo = SliceInfo::new(0, 1, 0, 1);

#[test]
fn seed_slice_with_distinct_values() {
    let u = slice_in(
        87,
        [SliceInfo::new(16, 70, 7, 3), D1_SRC],
        [SliceInfo::new(0, 47, 0, 3), D1_DST],
    )
    .unwrap();
    let want: Vec<f32> = (16..40)
        .chain(47..71)
        .chain(190..214)
        .chain(221..245)
        .map(|v| v as f32)
        .collect();
    assert_eq!(u, want);
}

#[test]
fn checker_pass_case() {
    let u = slice_in(
        88,
        [SliceInfo::new(16, 71, 8, 3), D1_SRC],
        [SliceInfo::new(0, 47, 0, 3), D1_DST],
    )
    .unwrap();
    let want: Vec<f32> = (16..40)
        .chain(48..72)
        .chain(192..216)
        .chain(224..248)
        .map(|v| v as f32)
        .collect();
    assert_eq!(u, want);
}

#[test]
fn checker_fail_cases() {
    let ok_dst = [SliceInfo::new(0, 47, 0, 3), D1_DST];
    let e = slice_in(88, [SliceInfo::new(16, 71, 7, 3), D1_SRC], ok_dst).unwrap_err();
    assert!(
        e.message.contains("cannot construct the block count")
            && e.message.contains("= 63")
            && e.message.contains("= 31"),
        "{e}"
    );
    let e = slice_in(
        88,
        [SliceInfo::new(16, 71, 8, 3), D1_SRC],
        [SliceInfo::new(0, 47, 1, 3), D1_DST],
    )
    .unwrap_err();
    assert_eq!(e.category, Category::Align);
    assert!(
        e.message
            .contains("stride 1 elements = 4 bytes should be a multiple of 32"),
        "{e}"
    );
    let e = slice_in(88, [SliceInfo::new(16, 72, 8, 3), D1_SRC], ok_dst).unwrap_err();
    assert!(
        e.message.contains("cannot construct the block count"),
        "{e}"
    );
    let e = slice_in(
        88,
        [SliceInfo::new(16, 71, 8, 3), D1_SRC],
        [SliceInfo::new(0, 49, 0, 3), D1_DST],
    )
    .unwrap_err();
    assert!(
        e.message
            .contains("dstSliceInfo[0]: end index 49 should be less than the shape 48"),
        "{e}"
    );
    let e = slice_in(88, [SliceInfo::new(16, 88, 8, 3), D1_SRC], ok_dst).unwrap_err();
    assert!(
        e.message
            .contains("srcSliceInfo[0]: end index 88 should be less than the shape 88"),
        "{e}"
    );
    let e = slice_in(
        88,
        [SliceInfo::new(16, 71, 8, 3), D1_SRC],
        [SliceInfo::new(54, 47, 0, 3), D1_DST],
    )
    .unwrap_err();
    assert!(
        e.message
            .contains("start index 54 should be less than end index 47"),
        "{e}"
    );
    let e = slice_in(88, [SliceInfo::new(71, 71, 8, 3), D1_SRC], ok_dst).unwrap_err();
    assert!(
        e.message
            .contains("start index 71 should be less than end index 71"),
        "{e}"
    );
    let e = slice_in(
        88,
        [SliceInfo::new(16, 71, 8, 3), D1_SRC],
        [SliceInfo::new(0, 47, 0, 1), D1_DST],
    )
    .unwrap_err();
    assert!(
        e.message.contains("burst lengths must be equal")
            && e.message.contains("= 1")
            && e.message.contains("= 3"),
        "{e}"
    );
    let e = slice_in(
        88,
        [SliceInfo::new(16, 71, 8, 3), SliceInfo::new(0, 2, 1, 2)],
        [SliceInfo::new(0, 47, 0, 3), SliceInfo::new(0, 1, 0, 2)],
    )
    .unwrap_err();
    assert!(
        e.message
            .contains("dimension 1 burst length must be 1, it is 2"),
        "{e}"
    );
    let e = slice_in(
        88,
        [SliceInfo::new(16, 71, 8, 3), SliceInfo::new(0, 2, 0, 1)],
        ok_dst,
    )
    .unwrap_err();
    assert!(
        e.message
            .contains("source selects 3 dimension-0 rows and the destination 2"),
        "{e}"
    );
    assert!(e.location.unwrap().file.ends_with("data_copy_slice.rs"));
}

#[test]
fn s1_ub_operand_position_and_s11_dim_value() {
    let g = GmBuffer::zeroed(1024);
    let a = g.addr();
    let sl = [SliceInfo::with_shape(0, 15, 0, 2, 16)];
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::A1, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 256)?;
        let mut gs = GlobalTensor::<f32>::new();
        gs.set_global_buffer(a.clone());
        let t = q.alloc_tensor::<f32>()?;
        data_copy(&t, &gs, (&sl[..], &sl[..], 1))
    });
    assert_eq!(e.category, Category::Position);
    assert!(
        e.message.contains("tensor position check failed") && e.message.contains("A1 in L1"),
        "{e}"
    );
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 256)?;
        let mut gs = GlobalTensor::<f32>::new();
        gs.set_global_buffer(a.clone());
        let t = q.alloc_tensor::<f32>()?;
        let nine = [SliceInfo::with_shape(0, 15, 0, 2, 16); 9];
        data_copy(&t, &gs, (&nine[..], &nine[..], 9))
    });
    assert!(
        e.message.contains("`dimValue` = 9") && e.message.contains("[1, 8]"),
        "{e}"
    );
}

#[test]
fn s10_ub_alignment_and_shape_values_and_copy_out() {
    let input: Vec<f32> = (0..64).map(|i| i as f32).collect();
    let g = GmBuffer::from_slice(&input);
    let o = GmBuffer::from_slice(&[-1.0f32; 64]);
    let (a, b) = (g.addr(), o.addr());
    // shapeValue form: 3 dims {16, 2, 2}, take columns 0..7 (1 block) of every row, gather and scatter back.
    let sl = [
        SliceInfo::with_shape(0, 7, 8, 1, 16),
        SliceInfo::with_shape(0, 1, 0, 1, 2),
        SliceInfo::with_shape(0, 1, 0, 1, 2),
    ];
    let ub_sl = [
        SliceInfo::with_shape(0, 7, 0, 1, 8),
        SliceInfo::with_shape(0, 1, 0, 1, 2),
        SliceInfo::with_shape(0, 1, 0, 1, 2),
    ];
    let out = Slot::new();
    run(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 128)?;
        let (mut gs, mut gd) = (GlobalTensor::<f32>::new(), GlobalTensor::<f32>::new());
        gs.set_global_buffer(a.clone());
        gd.set_global_buffer(b.clone());
        let t = q.alloc_tensor::<f32>()?;
        data_copy(&t, &gs, (&ub_sl[..], &sl[..], 3))?;
        out.put(t.to_vec()?);
        data_copy(&gd, &t, (&sl[..], &ub_sl[..], 3))?;
        q.free_tensor(&t)
    });
    let want: Vec<f32> = (0..4)
        .flat_map(|r| (0..8).map(move |c| (r * 16 + c) as f32))
        .collect();
    assert_eq!(out.get(), want);
    let back = o.to_vec::<f32>();
    for (i, v) in back.iter().enumerate() {
        let w = if i % 16 < 8 { i as f32 } else { -1.0 };
        assert_eq!(*v, w, "GM element {i}");
    }
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 256)?;
        let mut gs = GlobalTensor::<f32>::new();
        gs.set_global_buffer(a.clone());
        let t = q.alloc_tensor::<f32>()?;
        data_copy(&t.at(2)?, &gs, (&ub_sl[..], &sl[..], 3))
    });
    assert_eq!(e.category, Category::Align);
    assert!(
        e.message.contains("start address 8") && e.message.contains("32-byte aligned"),
        "{e}"
    );
}

#[test]
fn missing_shape_info_is_an_error() {
    let g = GmBuffer::zeroed(1024);
    let a = g.addr();
    let sl = [SliceInfo::new(0, 15, 0, 2), SliceInfo::new(0, 1, 0, 1)];
    let e = fail(|| {
        let mut pipe = TPipe::new();
        let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 256)?;
        let mut gs = GlobalTensor::<f32>::new();
        gs.set_global_buffer(a.clone());
        let t = q.alloc_tensor::<f32>()?;
        data_copy(&t, &gs, (&sl[..], &sl[..], 2))
    });
    assert!(e.message.contains("source tensor has no ShapeInfo"), "{e}");
}
