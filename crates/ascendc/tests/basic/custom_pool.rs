//! Custom TBufPools (`EXTERN_IMPL_BUFPOOL`): the owner places queue and TBuf buffers with
//! `GetBufHandle` / `GetCurAddr` / `SetCurAddr` / `GetCurBufSize` / `SetCurBufSize` and the
//! queue side `InitStartBufHandle` / `InitBufHandle`; `Reset` ends the buffers and the memory.

use ascendc::api::custom_pool::{CustomPoolBuffer, TBufHandle};
use ascendc::prelude::*;
use ascendc::LaunchError;
use std::sync::Mutex;

/// The vendor example's custom pool: buffers placed one after another from the pool's cursor.
struct MyBufPool {
    pool: TBufPool<QuePosition::VECCALC>,
}

impl MyBufPool {
    fn new() -> Self {
        let mut pool = TBufPool::custom(16);
        pool.init();
        MyBufPool { pool }
    }

    fn init_buffer<B: CustomPoolBuffer>(&mut self, buf: &mut B, num: u8, len: u32) -> Result<()> {
        let len = len.div_ceil(32) * 32;
        let h = self.pool.get_buf_handle(self.pool.get_cur_buf_size())?;
        let addr = self.pool.get_cur_addr();
        buf.init_start_buf_handle(h, num, len)?;
        for i in 0..num as u32 {
            buf.init_buf_handle(&mut self.pool, i, h, addr + i * len, len)?;
        }
        self.pool.set_cur_addr(addr + num as u32 * len)?;
        self.pool
            .set_cur_buf_size(self.pool.get_cur_buf_size() + num)
    }
}

fn run<R: Send>(f: impl Fn(&mut TPipe) -> Result<R> + Sync) -> std::result::Result<R, LaunchError> {
    let out = Mutex::new(None);
    Launch::new(1).run(|| {
        let mut pipe = TPipe::new();
        *out.lock().unwrap() = Some(f(&mut pipe)?);
        Ok(())
    })?;
    Ok(out.into_inner().unwrap().unwrap())
}

fn fails<R: Send + std::fmt::Debug>(f: impl Fn(&mut TPipe) -> Result<R> + Sync) -> String {
    let e = run(f).unwrap_err();
    assert_eq!(e.errors.len(), 1, "{e}");
    e.errors[0].to_string()
}

fn gt<T: Element>(a: &GmAddr) -> GlobalTensor<T> {
    let mut g = GlobalTensor::<T>::new();
    g.set_global_buffer(a.clone());
    g
}

#[test]
fn a_custom_pool_places_a_queue_a_tbuf_and_a_queue_and_they_compute() {
    const N: u32 = 1024;
    let x: Vec<f32> = (0..N).map(|i| i as f32 * 0.5).collect();
    let y: Vec<f32> = (0..N).map(|i| 1000.0 - i as f32).collect();
    let (xb, yb, zb) = (
        GmBuffer::from_slice(&x),
        GmBuffer::from_slice(&y),
        GmBuffer::zeroed(N as usize * 4),
    );
    let addrs = run(|pipe| {
        // A buffer before the pool, so the pool does not start at 0.
        let mut before = TBuf::<QuePosition::VECCALC>::new();
        pipe.init_buffer(&mut before, 1, 96)?;
        let mut my = MyBufPool::new();
        pipe.init_buf_pool(&mut my.pool, 3 * N * 4)?;
        let mut src0 = TQue::<QuePosition::VECIN, 1>::new();
        let mut src1 = TBuf::<QuePosition::VECIN>::new();
        let mut dst = TQue::<QuePosition::VECOUT, 1>::new();
        my.init_buffer(&mut src0, 1, N * 4)?;
        my.init_buffer(&mut src1, 1, N * 4)?;
        my.init_buffer(&mut dst, 1, N * 4)?;
        let a = src0.alloc_tensor::<f32>()?;
        let b = src1.get::<f32>()?;
        data_copy(&a, &gt::<f32>(&xb.addr()), N)?;
        data_copy(&b, &gt::<f32>(&yb.addr()), N)?;
        src0.enque(&a)?;
        let a = src0.deque::<f32>()?;
        let c = dst.alloc_tensor::<f32>()?;
        pipe_barrier(Pipe::ALL)?;
        add(&c, &a, &b, N)?;
        dst.enque(&c)?;
        let c = dst.deque::<f32>()?;
        data_copy(&gt::<f32>(&zb.addr()), &c, N)?;
        let addrs = (
            a.get_phy_addr(),
            b.get_phy_addr(),
            c.get_phy_addr(),
            my.pool.get_cur_addr(),
            my.pool.get_cur_buf_size(),
        );
        src0.free_tensor(&a)?;
        dst.free_tensor(&c)?;
        my.pool.reset()?;
        Ok(addrs)
    })
    .unwrap();
    // The pool starts after the 96-byte TBuf; blocks of 4096 bytes follow each other.
    assert_eq!(addrs, (96, 96 + 4096, 96 + 8192, 96 + 3 * 4096, 3));
    let want: Vec<f32> = x.iter().zip(&y).map(|(a, b)| a + b).collect();
    assert_eq!(zb.to_vec::<f32>(), want);
}

#[test]
fn two_queues_may_share_one_block_and_a_queue_gets_several_buffers() {
    let addrs = run(|pipe| {
        let mut pool = TBufPool::<QuePosition::VECCALC>::custom(8);
        pipe.init_buf_pool(&mut pool, 4096)?;
        let base = pool.get_cur_addr();
        let h = pool.get_buf_handle(0)?;
        // Two buffers for q0: the start handle, or each block's own handle, both name them.
        let mut q0 = TQue::<QuePosition::VECIN, 2>::new();
        q0.init_start_buf_handle(h, 2, 512)?;
        q0.init_buf_handle(&mut pool, 0, h, base + 1024, 512)?;
        let h1 = pool.get_buf_handle(1)?;
        q0.init_buf_handle(&mut pool, 1, h1, base, 512)?;
        // q1 shares q0's second block.
        let mut q1 = TQue::<QuePosition::VECOUT, 1>::new();
        let h2 = pool.get_buf_handle(2)?;
        q1.init_start_buf_handle(h2, 1, 512)?;
        q1.init_buf_handle(&mut pool, 0, h2, base, 512)?;
        pool.set_cur_buf_size(3)?;
        pool.set_cur_addr(base + 1536)?;
        let a = q0.alloc_tensor::<u8>()?;
        let b = q0.alloc_tensor::<u8>()?;
        let c = q1.alloc_tensor::<u8>()?;
        Ok([
            a.get_phy_addr(),
            b.get_phy_addr(),
            c.get_phy_addr(),
            a.get_size(),
            pool.get_cur_addr() - base,
        ])
    })
    .unwrap();
    assert_eq!(addrs, [1024, 0, 0, 512, 1536]);
}

#[test]
fn reset_ends_the_buffers_and_gives_the_memory_back() {
    let s = fails(|pipe| {
        let mut my = MyBufPool::new();
        pipe.init_buf_pool(&mut my.pool, 1024)?;
        let mut q = TQue::<QuePosition::VECIN, 1>::new();
        my.init_buffer(&mut q, 1, 512)?;
        let t = q.alloc_tensor::<f32>()?;
        my.pool.reset()?;
        assert_eq!((my.pool.get_cur_addr(), my.pool.get_cur_buf_size()), (0, 0));
        // A reset custom pool may be reset again, and gets memory anew from InitBufPool.
        my.pool.reset()?;
        pipe.init_buf_pool(&mut my.pool, 1024)?;
        assert_eq!(my.pool.get_cur_addr(), 1024);
        duplicate(&t, 1.0f32, 64)
    });
    assert!(s.contains("Duplicate") && s.contains("was Reset at"), "{s}");
}

#[test]
fn a_queue_allocates_only_once_every_buffer_is_placed() {
    let s = fails(|pipe| {
        let mut pool = TBufPool::<QuePosition::VECCALC>::custom(4);
        pipe.init_buf_pool(&mut pool, 2048)?;
        let h = pool.get_buf_handle(0)?;
        let mut q = TQue::<QuePosition::VECIN, 2>::new();
        q.init_start_buf_handle(h, 2, 512)?;
        q.init_buf_handle(&mut pool, 0, h, 0, 512)?;
        q.alloc_tensor::<f32>()
    });
    assert!(s.contains("TQue::AllocTensor"), "{s}");
}

/// Runs one bad call on a pool with 1024 bytes at UB byte 0 and 4 blocks.
fn bad(f: impl Fn(&mut TBufPool<QuePosition::VECCALC>, TBufHandle) -> Result<()> + Sync) -> String {
    fails(|pipe| {
        let mut pool = TBufPool::<QuePosition::VECCALC>::custom(4);
        pipe.init_buf_pool(&mut pool, 1024)?;
        let h = pool.get_buf_handle(0)?;
        f(&mut pool, h)
    })
}

#[test]
fn bad_calls_name_the_rule() {
    let s = bad(|pool, _| pool.get_buf_handle(4).map(drop));
    assert!(
        s.contains("GetBufHandle") && s.contains("[0, 3] (BUFID_SIZE 4)"),
        "{s}"
    );
    let s = bad(|pool, _| pool.set_cur_addr(1025));
    assert!(s.contains("SetCurAddr") && s.contains("[0, 1024]"), "{s}");
    let s = bad(|pool, _| {
        pool.reset()?;
        pool.set_cur_addr(0)
    });
    assert!(
        s.contains("SetCurAddr") && s.contains("has no memory"),
        "{s}"
    );
    let s = bad(|pool, _| pool.set_cur_buf_size(5));
    assert!(s.contains("SetCurBufSize") && s.contains("[0, 4]"), "{s}");
    let s = bad(|pool, h| {
        let mut q = TQue::<QuePosition::VECIN, 1>::new();
        q.init_buf_handle(pool, 0, h, 0, 512)
    });
    assert!(s.contains("call InitStartBufHandle first"), "{s}");
    let s = bad(|pool, h| {
        let mut q = TQue::<QuePosition::VECIN, 1>::new();
        q.init_start_buf_handle(h, 1, 512)?;
        q.init_buf_handle(pool, 0, h, 768, 512)
    });
    assert!(
        s.contains("InitBufHandle")
            && s.contains("768..1280 lies outside the pool's memory 0..1024"),
        "{s}"
    );
    let s = bad(|pool, h| {
        let mut q = TQue::<QuePosition::VECIN, 1>::new();
        q.init_start_buf_handle(h, 1, 512)?;
        q.init_buf_handle(pool, 0, h, 16, 512)
    });
    assert!(s.contains("32-byte aligned"), "{s}");
    let s = bad(|pool, h| {
        let mut q = TQue::<QuePosition::VECIN, 1>::new();
        q.init_start_buf_handle(h, 1, 256)?;
        q.init_buf_handle(pool, 1, h, 0, 256)
    });
    assert!(s.contains("`index` = 1") && s.contains("[0, 0]"), "{s}");
    let s = bad(|pool, h| {
        let mut q = TQue::<QuePosition::VECIN, 2>::new();
        q.init_start_buf_handle(h, 2, 256)?;
        let h3 = pool.get_buf_handle(3)?;
        q.init_buf_handle(pool, 0, h3, 0, 256)
    });
    assert!(s.contains("bufhandle is block 3"), "{s}");
    let s = bad(|pool, _| {
        let other = TBufPool::<QuePosition::VECCALC>::custom(4);
        let mut q = TQue::<QuePosition::VECIN, 1>::new();
        let h = other.get_buf_handle(0)?;
        q.init_start_buf_handle(h, 1, 256)?;
        q.init_buf_handle(pool, 0, h, 0, 256)
    });
    assert!(s.contains("another pool"), "{s}");
    let s = bad(|pool, h| {
        let mut t = TBuf::<QuePosition::VECCALC>::new();
        t.init_start_buf_handle(h, 2, 256)?;
        t.init_buf_handle(pool, 0, h, 0, 256)
    });
    assert!(
        s.contains("InitStartBufHandle") && s.contains("a TBuf is one buffer"),
        "{s}"
    );
    let s = bad(|pool, h| {
        let mut q = TQue::<QuePosition::A1, 1>::new();
        q.init_start_buf_handle(h, 1, 256)?;
        q.init_buf_handle(pool, 0, h, 0, 256)
    });
    assert!(s.contains("lives in L1, the pool in UB"), "{s}");
}
