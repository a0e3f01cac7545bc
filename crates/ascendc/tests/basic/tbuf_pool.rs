//! TBufPool: pools from the pipe, shared pools, nested pools, Reset, and the pool limits.

use ascendc::prelude::*;
use ascendc::{Category, LaunchError};
use std::sync::Mutex;

fn run<R: Send>(f: impl Fn(&mut TPipe) -> Result<R> + Sync) -> std::result::Result<R, LaunchError> {
    let out = Mutex::new(None);
    Launch::new(1).run(|| {
        let mut pipe = TPipe::new();
        *out.lock().unwrap() = Some(f(&mut pipe)?);
        Ok(())
    })?;
    Ok(out.into_inner().unwrap().unwrap())
}

#[test]
fn shared_pools_reuse_the_same_memory_across_phases() {
    let addrs = run(|pipe| {
        let mut before = TBuf::<QuePosition::VECCALC>::new();
        pipe.init_buffer(&mut before, 1, 256)?;
        let mut pool1 = TBufPool::<QuePosition::VECCALC>::new();
        let mut pool2 = TBufPool::<QuePosition::VECCALC>::new();
        pipe.init_buf_pool(&mut pool1, 3 * 1024)?;
        pipe.init_buf_pool_shared(&mut pool2, 3 * 1024, &pool1)?;
        let mut q0 = TQue::<QuePosition::VECIN, 1>::new();
        let mut q1 = TQue::<QuePosition::VECOUT, 1>::new();
        pool1.init_buffer(&mut q0, 1, 1024)?;
        pool1.init_buffer(&mut q1, 1, 1000)?;
        let a0 = q0.alloc_tensor::<f32>()?;
        let a1 = q1.alloc_tensor::<f32>()?;
        let phase1 = [a0.get_phy_addr(), a1.get_phy_addr(), a1.get_size()];
        q0.free_tensor(&a0)?;
        q1.free_tensor(&a1)?;
        pool1.reset()?;
        let mut q2 = TQue::<QuePosition::VECIN, 1>::new();
        let mut t = TBuf::<QuePosition::VECCALC>::new();
        pool2.init_buffer(&mut q2, 1, 2048)?;
        pool2.init_buffer(&mut t, 1, 512)?;
        let b0 = q2.alloc_tensor::<f32>()?;
        let phase2 = [b0.get_phy_addr(), t.get::<f32>()?.get_phy_addr()];
        // After the pool: the pipe's cursor moved past pool1 only.
        let mut after = TBuf::<QuePosition::VECCALC>::new();
        pipe.init_buffer(&mut after, 1, 32)?;
        Ok((phase1, phase2, after.get::<u8>()?.get_phy_addr()))
    })
    .unwrap();
    assert_eq!(addrs.0, [256, 256 + 1024, 1024 / 4]);
    assert_eq!(addrs.1, [256, 256 + 2048]);
    assert_eq!(addrs.2, 256 + 3 * 1024);
}

#[test]
fn nested_pools_carve_from_their_parent() {
    let a = run(|pipe| {
        let mut outer = TBufPool::<QuePosition::VECCALC>::new();
        pipe.init_buf_pool(&mut outer, 4096)?;
        let mut first = TBuf::<QuePosition::VECCALC>::new();
        outer.init_buffer(&mut first, 1, 100)?;
        let mut inner = TBufPool::<QuePosition::VECCALC>::new();
        outer.init_buf_pool(&mut inner, 1024)?;
        let mut t = TBuf::<QuePosition::VECCALC>::new();
        inner.init_buffer(&mut t, 1, 64)?;
        let mut inner2 = TBufPool::<QuePosition::VECCALC>::new();
        outer.init_buf_pool_shared(&mut inner2, 512, &inner)?;
        let mut t2 = TBuf::<QuePosition::VECCALC>::new();
        inner2.init_buffer(&mut t2, 1, 64)?;
        Ok([
            first.get::<u8>()?.get_phy_addr(),
            t.get::<u8>()?.get_phy_addr(),
            t2.get::<u8>()?.get_phy_addr(),
            inner.len(),
        ])
    })
    .unwrap();
    assert_eq!(a, [0, 128, 128, 1024]);
}

fn fails<R: Send + std::fmt::Debug>(
    f: impl Fn(&mut TPipe) -> Result<R> + Sync,
) -> ascendc::SimError {
    run(f).expect_err("must fail").errors[0].clone()
}

#[test]
fn pool_limits() {
    let e = fails(|pipe| {
        let mut p = TBufPool::<QuePosition::VECCALC>::new();
        pipe.init_buf_pool(&mut p, 1024)?;
        let mut t = TBuf::<QuePosition::VECCALC>::new();
        p.init_buffer(&mut t, 1, 2048)
    });
    assert_eq!(e.category, Category::Size);
    assert!(e.message.contains("1024 of 1024 bytes left"), "{e}");
    let e = fails(|pipe| {
        let mut p = TBufPool::<QuePosition::VECCALC>::with_buf_id_size(1);
        pipe.init_buf_pool(&mut p, 1024)?;
        let mut q = TQue::<QuePosition::VECIN, 2>::new();
        p.init_buffer(&mut q, 2, 64)
    });
    assert_eq!(e.category, Category::Resource);
    assert!(e.message.contains("at most 1 buffers"), "{e}");
    let e = fails(|pipe| {
        let mut a = TBufPool::<QuePosition::VECCALC>::new();
        let mut b = TBufPool::<QuePosition::VECCALC>::new();
        pipe.init_buf_pool(&mut a, 1024)?;
        pipe.init_buf_pool_shared(&mut b, 2048, &a)
    });
    assert!(e.message.contains("shared pool"), "{e}");
    let e = fails(|_| {
        let mut p = TBufPool::<QuePosition::VECCALC>::new();
        let mut t = TBuf::<QuePosition::VECCALC>::new();
        p.init_buffer(&mut t, 1, 64)
    });
    assert_eq!(e.category, Category::QueueState);
    // A pool in UB gives no memory to an L1 queue.
    let e = fails(|pipe| {
        let mut p = TBufPool::<QuePosition::VECCALC>::new();
        pipe.init_buf_pool(&mut p, 1024)?;
        let mut q = TQue::<QuePosition::A1, 1>::new();
        p.init_buffer(&mut q, 1, 64)
    });
    assert_eq!(e.category, Category::Position);
    // The pool exceeding UB.
    let e = fails(|pipe| {
        let mut p = TBufPool::<QuePosition::VECCALC>::new();
        pipe.init_buf_pool(&mut p, 4 << 20)
    });
    assert_eq!(e.api, "TPipe::InitBufPool");
}
