//! The hazard checker: the worked examples of `sync-and-launch.md` §5 and `data-movement.md` §9.

use ascendc::prelude::*;
use ascendc::{Category, Diagnostic};

fn hazards(kernel: impl Fn() -> Result<()> + Sync) -> Vec<Diagnostic> {
    Launch::new(1)
        .check_hazards(true)
        .run(kernel)
        .unwrap_or_else(|e| panic!("{e}"))
        .diagnostics()
        .filter(|d| d.category == Category::Sync)
        .cloned()
        .collect()
}

#[test]
fn overlapping_gm_destinations_of_two_mte3_copies_need_a_barrier() {
    let gm = GmBuffer::zeroed(384 * 4);
    let g = gm.addr();
    let kernel = |barrier: bool| {
        let g = g.clone();
        move || {
            let mut pipe = TPipe::new();
            let mut q: TQue<QuePosition::VECOUT, 1> = TQue::new();
            pipe.init_buffer(&mut q, 1, 512 * 4)?;
            let t = q.alloc_tensor::<f32>()?;
            let mut out = GlobalTensor::<f32>::new();
            out.set_global_buffer(g.clone());
            data_copy(&out, &t, 256)?;
            if barrier {
                pipe_barrier(PIPE_MTE3)?;
            }
            data_copy(&out.at(128)?, &t.at(256)?, 256)
        }
    };
    let d = hazards(kernel(false));
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(
        d[0].message.starts_with("WAW hazard on GM allocation"),
        "{}",
        d[0]
    );
    assert!(d[0].message.contains("bytes 512..1024"), "{}", d[0]);
    assert!(
        d[0].message.contains("missing PipeBarrier<PIPE_MTE3>"),
        "{}",
        d[0]
    );
    assert!(hazards(kernel(true)).is_empty());
}

#[test]
fn static_tensors_need_flags_between_mte2_and_v() {
    let gm = GmBuffer::zeroed(256 * 4);
    let g = gm.addr();
    let kernel = |flags: bool| {
        let g = g.clone();
        move || {
            let mut pipe = TPipe::new();
            let mut buf: TBuf<QuePosition::VECCALC> = TBuf::new();
            pipe.init_buffer(&mut buf, 1, 2 * 256 * 4)?;
            let ub = buf.get_with_offset::<f32>(256, 0)?;
            let z = buf.get_with_offset::<f32>(256, 1024)?;
            let mut src = GlobalTensor::<f32>::new();
            src.set_global_buffer(g.clone());
            data_copy(&ub, &src, 256)?;
            if flags {
                set_flag(HardEvent::MTE2_V, 0)?;
                wait_flag(HardEvent::MTE2_V, 0)?;
            }
            add(&z, &ub, &ub, 256)
        }
    };
    let d = hazards(kernel(false));
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(
        d[0].message.starts_with("RAW hazard on UB bytes 0..1024"),
        "{}",
        d[0]
    );
    assert!(d[0].message.contains("DataCopy (PIPE_MTE2)"), "{}", d[0]);
    assert!(d[0].message.contains("Add (PIPE_V)"), "{}", d[0]);
    assert!(
        d[0].message.contains("missing SetFlag/WaitFlag<MTE2_V>"),
        "{}",
        d[0]
    );
    assert!(hazards(kernel(true)).is_empty());
}

#[test]
fn flag_misuse_is_reported() {
    let d = hazards(|| {
        set_flag(HardEvent::MTE2_V, 0)?;
        set_flag(HardEvent::MTE2_V, 0)?;
        wait_flag(HardEvent::MTE2_V, 0)
    });
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(d[0]
        .message
        .contains("SetFlag<MTE2_V>(0) while the flag is already set"));
}

#[test]
fn queue_synchronised_kernels_are_clean() {
    let (x, y) = (
        GmBuffer::from_slice(&[1.0f32; 1024]),
        GmBuffer::zeroed(1024 * 4),
    );
    let (xa, ya) = (x.addr(), y.addr());
    let d = hazards(|| {
        let mut pipe = TPipe::new();
        let mut qi: TQue<QuePosition::VECIN, 2> = TQue::new();
        let mut qo: TQue<QuePosition::VECOUT, 2> = TQue::new();
        pipe.init_buffer(&mut qi, 2, 256 * 4)?;
        pipe.init_buffer(&mut qo, 2, 256 * 4)?;
        let (mut gx, mut gy) = (GlobalTensor::<f32>::new(), GlobalTensor::<f32>::new());
        gx.set_global_buffer(xa.clone());
        gy.set_global_buffer(ya.clone());
        for i in 0..4u64 {
            let a = qi.alloc_tensor::<f32>()?;
            data_copy(&a, &gx.at(i * 256)?, 256)?;
            qi.enque(&a)?;
            let a = qi.deque::<f32>()?;
            let b = qo.alloc_tensor::<f32>()?;
            add(&b, &a, &a, 256)?;
            qo.enque(&b)?;
            qi.free_tensor(&a)?;
            let b = qo.deque::<f32>()?;
            data_copy(&gy.at(i * 256)?, &b, 256)?;
            qo.free_tensor(&b)?;
        }
        Ok(())
    });
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(y.to_vec::<f32>(), vec![2.0; 1024]);
}

#[test]
fn using_a_tensor_without_deque_is_a_hazard() {
    let (x, y) = (
        GmBuffer::from_slice(&[1.0f32; 256]),
        GmBuffer::zeroed(256 * 4),
    );
    let (xa, ya) = (x.addr(), y.addr());
    let d = hazards(|| {
        let mut pipe = TPipe::new();
        let mut qi: TQue<QuePosition::VECIN, 1> = TQue::new();
        let mut qo: TQue<QuePosition::VECOUT, 1> = TQue::new();
        pipe.init_buffer(&mut qi, 1, 256 * 4)?;
        pipe.init_buffer(&mut qo, 1, 256 * 4)?;
        let (mut gx, mut gy) = (GlobalTensor::<f32>::new(), GlobalTensor::<f32>::new());
        gx.set_global_buffer(xa.clone());
        gy.set_global_buffer(ya.clone());
        let a = qi.alloc_tensor::<f32>()?;
        data_copy(&a, &gx, 256)?;
        let b = qo.alloc_tensor::<f32>()?;
        add(&b, &a, &a, 256)?;
        qo.enque(&b)?;
        let b = qo.deque::<f32>()?;
        data_copy(&gy, &b, 256)
    });
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(
        d[0].message.contains("missing SetFlag/WaitFlag<MTE2_V>"),
        "{}",
        d[0]
    );
}

#[path = "../../examples/kernels/add.rs"]
mod add_kernel;

#[test]
fn the_double_buffered_add_custom_kernel_is_clean_on_every_block() {
    let n = 8 * 2048;
    let x = GmBuffer::from_slice(&vec![1.5f32; n]);
    let y = GmBuffer::from_slice(&vec![2.0f32; n]);
    let z = GmBuffer::zeroed(n * 4);
    let (xa, ya, za) = (x.addr(), y.addr(), z.addr());
    let tiling = add_kernel::AddTiling {
        total_length: n as u32,
        tile_num: 8,
    };
    let r = Launch::new(8)
        .check_hazards(true)
        .run(|| add_kernel::add_custom(xa.clone(), ya.clone(), za.clone(), tiling))
        .unwrap();
    let d: Vec<_> = r.diagnostics().collect();
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(z.to_vec::<f32>(), vec![3.5; n]);
}
