//! Synchronisation: `TQueSync`, `DataSyncBarrier`, `SetNextTaskStart`, `WaitPreTaskEnd`, and
//! deterministic block-ordered computation with `InitDetermineComputeWorkspace`,
//! `WaitPreBlock` and `NotifyNextBlock`.

use crate::common;

use ascendc::chip::{ChipProfile, ASCEND310B, ASCEND310P, ASCEND910, ASCEND910B, ASCEND910_93};
use ascendc::prelude::*;
use ascendc::{
    data_sync_barrier, disable_dma_atomic, init_determine_compute_workspace, notify_next_block,
    set_atomic_add, set_next_task_start, wait_pre_block, wait_pre_task_end, Category, LaunchError,
    MemDsbT, Schedule, TQueSync,
};
use common::{assert_mentions, fail_on, run_on, warnings};

const FIVE: [&ChipProfile; 5] = [
    &ASCEND910,
    &ASCEND310P,
    &ASCEND910B,
    &ASCEND910_93,
    &ASCEND310B,
];

fn supported_on(listed: &[&ChipProfile], api: &str, kernel: impl Fn() -> Result<()> + Sync) {
    for p in FIVE {
        if listed.iter().any(|l| l.product == p.product) {
            run_on(p, &kernel);
        } else {
            let e = fail_on(p, &kernel);
            assert_eq!(e.category, Category::Unsupported, "{e}");
            assert_mentions(&e, &[api, "documentation does not list"]);
        }
    }
}

fn gt<T: Element>(a: &GmAddr) -> GlobalTensor<T> {
    let mut g = GlobalTensor::<T>::new();
    g.set_global_buffer(a.clone());
    g
}

/// Every way of running a launch: free threads, sequential, and the schedules.
fn all_schedules(n: u32) -> Vec<Launch> {
    let mut v = vec![Launch::new(n), Launch::new(n).sequential()];
    for s in [
        Schedule::Order,
        Schedule::Reverse,
        Schedule::Shuffle(1),
        Schedule::Shuffle(2),
        Schedule::Shuffle(3),
    ] {
        v.push(Launch::new(n).schedule(s));
    }
    v
}

// ---- TQueSync ----

/// z = x + y over 64 floats with the pipes ordered by TQueSync objects (or not at all).
fn add_with_que_sync(x: &GmAddr, y: &GmAddr, z: &GmAddr, sync: bool) -> Result<()> {
    let mut pipe = TPipe::new();
    let mut b: TBuf<QuePosition::VECCALC> = TBuf::new();
    pipe.init_buffer(&mut b, 1, 3 * 256)?;
    let a = b.get_with_offset::<f32>(64, 0)?;
    let c = b.get_with_offset::<f32>(64, 256)?;
    let d = b.get_with_offset::<f32>(64, 512)?;
    data_copy(&a, &gt::<f32>(x), 64)?;
    data_copy(&c, &gt::<f32>(y), 64)?;
    let mte2_v = TQueSync::new(PIPE_MTE2, PIPE_V);
    let v_mte3 = TQueSync::new(PIPE_V, PIPE_MTE3);
    if sync {
        mte2_v.set_flag(0)?;
        mte2_v.wait_flag(0)?;
    }
    add(&d, &a, &c, 64)?;
    if sync {
        v_mte3.set_flag(1)?;
        v_mte3.wait_flag(1)?;
    }
    data_copy(&gt::<f32>(z), &d, 64)
}

#[test]
fn tque_sync_orders_the_pipes_like_set_flag_wait_flag() {
    let x: Vec<f32> = (0..64).map(|i| i as f32 * 0.25).collect();
    let y: Vec<f32> = (0..64).map(|i| 100.0 - i as f32).collect();
    let (xb, yb) = (GmBuffer::from_slice(&x), GmBuffer::from_slice(&y));
    for p in FIVE {
        let zb = GmBuffer::zeroed(256);
        let r = Launch::new(1)
            .profile(p)
            .check_hazards(true)
            .record_trace(true)
            .run(|| add_with_que_sync(&xb.addr(), &yb.addr(), &zb.addr(), true))
            .unwrap();
        assert_eq!(r.diagnostics().count(), 0, "{p}: {r:?}");
        let z = zb.to_vec::<f32>();
        for ((z, x), y) in z.iter().zip(&x).zip(&y) {
            assert_eq!(*z, x + y);
        }
        let flags: Vec<_> = r.blocks[0]
            .trace
            .instructions()
            .iter()
            .filter(|i| i.api == "SetFlag" || i.api == "WaitFlag")
            .map(|i| (i.api, i.pipe))
            .collect();
        assert_eq!(
            flags,
            [
                ("SetFlag", PIPE_MTE2),
                ("WaitFlag", PIPE_V),
                ("SetFlag", PIPE_V),
                ("WaitFlag", PIPE_MTE3)
            ]
        );
    }
    // Without the synchronisation the hazard checker reports the unordered pipes.
    let zb = GmBuffer::zeroed(256);
    let r = Launch::new(1)
        .check_hazards(true)
        .run(|| add_with_que_sync(&xb.addr(), &yb.addr(), &zb.addr(), false))
        .unwrap();
    assert!(r.diagnostics().count() >= 2, "{r:?}");
}

#[test]
fn tque_sync_rejects_pipe_pairs_without_an_event_and_bad_ids() {
    let e = fail_on(&ASCEND910B, || TQueSync::new(PIPE_S, PIPE_M).set_flag(0));
    assert_eq!(e.api, "TQueSync::SetFlag");
    assert_mentions(&e, &["TQueSync<PIPE_S, PIPE_M>", "no hardware event"]);
    // A SetFlag never waited for is reported as with SetFlag.
    let r = run_on(&ASCEND910B, || TQueSync::new(PIPE_MTE2, PIPE_V).set_flag(0));
    let w = warnings(&r);
    assert_eq!(w.len(), 1);
    assert!(
        w[0].message
            .contains("SetFlag<HardEvent::MTE2_V>(0) is never waited for"),
        "{w:?}"
    );
    let e = fail_on(&ASCEND910B, || {
        TQueSync::new(PIPE_V, PIPE_MTE3).wait_flag(99)
    });
    assert_eq!(e.category, Category::Range);
}

// ---- DataSyncBarrier, SetNextTaskStart, WaitPreTaskEnd ----

#[test]
fn data_sync_barrier_is_a_scalar_instruction_on_the_listed_products() {
    let r = run_on(&ASCEND910B, || {
        for m in [MemDsbT::ALL, MemDsbT::DDR, MemDsbT::UB, MemDsbT::SEQ] {
            data_sync_barrier(m)?;
        }
        Ok(())
    });
    let ins: Vec<_> = r.blocks[0]
        .trace
        .instructions()
        .iter()
        .map(|i| (i.api, i.pipe))
        .collect();
    assert_eq!(ins, [("DataSyncBarrier", PIPE_S); 4]);
    supported_on(
        &[&ASCEND910B, &ASCEND910_93, &ASCEND310B],
        "DataSyncBarrier",
        || data_sync_barrier(MemDsbT::DDR),
    );
}

#[test]
fn task_sync_examples_run_once_per_core_on_every_product() {
    let x: Vec<f32> = (0..64).map(|i| i as f32).collect();
    let xb = GmBuffer::from_slice(&x);
    for p in FIVE {
        let zb = GmBuffer::zeroed(256);
        let r = Launch::new(2)
            .profile(p)
            .run(|| {
                let mut pipe = TPipe::new();
                let mut b: TBuf<QuePosition::VECCALC> = TBuf::new();
                pipe.init_buffer(&mut b, 1, 256)?;
                let t = b.get::<f32>()?;
                // Before the first copy.
                wait_pre_task_end(false)?;
                data_copy(
                    &t,
                    &gt::<f32>(&xb.addr()).at(get_block_idx() as u64 * 32)?,
                    32,
                )?;
                set_flag(HardEvent::MTE2_MTE3, 0)?;
                wait_flag(HardEvent::MTE2_MTE3, 0)?;
                data_copy(
                    &gt::<f32>(&zb.addr()).at(get_block_idx() as u64 * 32)?,
                    &t,
                    32,
                )?;
                // After the last copy, with the defaults.
                let aic = if p.separated { PIPE_FIX } else { PIPE_MTE3 };
                set_next_task_start(PIPE_MTE3, aic, false)
            })
            .unwrap();
        assert_eq!(zb.to_vec::<f32>(), x);
        assert!(warnings(&r).is_empty());
    }
    let e = fail_on(&ASCEND910_93, || {
        set_next_task_start(PIPE_MTE3, PIPE_FIX, false)?;
        set_next_task_start(PIPE_MTE3, PIPE_FIX, false)
    });
    assert_mentions(
        &e,
        &["SetNextTaskStart is called more than once on this core"],
    );
    let e = fail_on(&ASCEND910_93, || {
        wait_pre_task_end(true)?;
        wait_pre_task_end(true)
    });
    assert_mentions(&e, &["WaitPreTaskEnd is called more than once"]);
    let e = fail_on(&ASCEND910B, || set_next_task_start(PIPE_M, PIPE_FIX, false));
    assert_eq!(e.category, Category::Range);
    assert_mentions(
        &e,
        &[
            "AIV_PIPE",
            "PIPE_M",
            "PIPE_MTE2, PIPE_MTE3, PIPE_S or PIPE_V",
        ],
    );
    let e = fail_on(&ASCEND910B, || set_next_task_start(PIPE_V, PIPE_V, false));
    assert_mentions(&e, &["AIC_PIPE", "PIPE_V"]);
}

// ---- InitDetermineComputeWorkspace / WaitPreBlock / NotifyNextBlock ----

const BLOCKS: u32 = 8;
const DATA_SIZE: u32 = 256;
const TILE_NUM: u32 = 2;

/// The documentation's sequential-block example: every block adds the 256 floats of `x`, tile by
/// tile, into `z` in block order.
fn sequential_block_sync(x: &GmAddr, z: &GmAddr, work: &GmAddr) -> Result<()> {
    let mut pipe = TPipe::new();
    let tile = DATA_SIZE / TILE_NUM;
    let src = gt::<f32>(x);
    let dst = gt::<f32>(z);
    let gm_ws = gt::<i32>(work);
    let mut que_tmp: TQue<QuePosition::VECIN, 1> = TQue::new();
    pipe.init_buffer(&mut que_tmp, 1, BLOCKS * 32 + 32)?;
    let ub_ws = que_tmp.alloc_tensor::<i32>()?;
    init_determine_compute_workspace(&gm_ws, &ub_ws)?;
    let mut que: TQue<QuePosition::VECIN, 1> = TQue::new();
    pipe.init_buffer(&mut que, 1, DATA_SIZE * 4)?;
    for i in 0..TILE_NUM {
        let t = que.alloc_tensor::<f32>()?;
        data_copy(&t, &src.at((i * tile) as u64)?, tile)?;
        wait_pre_block(&gm_ws, &ub_ws)?;
        set_atomic_add::<f32>()?;
        data_copy(&dst.at((i * tile) as u64)?, &t, tile)?;
        disable_dma_atomic()?;
        notify_next_block(&gm_ws, &ub_ws)?;
        que.free_tensor(&t)?;
    }
    que_tmp.free_tensor(&ub_ws)
}

#[test]
fn sequential_block_sync_example_gives_eight_times_x() {
    let x = vec![1.0f32; DATA_SIZE as usize];
    let xb = GmBuffer::from_slice(&x);
    for p in [&ASCEND310P, &ASCEND910B, &ASCEND910_93] {
        for l in all_schedules(BLOCKS) {
            let z = GmBuffer::zeroed(DATA_SIZE as usize * 4);
            // The workspace need not be zero.
            let work = GmBuffer::from_slice(&[0x55i32; 64]);
            let r = l
                .profile(p)
                .run(|| sequential_block_sync(&xb.addr(), &z.addr(), &work.addr()))
                .unwrap();
            assert_eq!(z.to_vec::<f32>(), vec![8.0f32; DATA_SIZE as usize], "{p}");
            assert_eq!(r.diagnostics().count(), 0, "{r:?}");
            // Each block's slot counts its two notifications.
            let w = work.to_vec::<i32>();
            for b in 0..BLOCKS as usize {
                assert_eq!(w[b * 8], 2);
            }
        }
    }
    supported_on(
        &[&ASCEND310P, &ASCEND910B, &ASCEND910_93],
        "InitDetermineComputeWorkspace",
        || {
            let work = GmBuffer::zeroed(64);
            let z = GmBuffer::zeroed(1024);
            sequential_block_sync(&xb.addr(), &z.addr(), &work.addr())
        },
    );
}

/// Partials whose float sum depends on the order of the additions.
const PARTIALS: [[f32; 8]; 2] = [
    [1.0e8, 1.0, 1.0, -1.0e8, 3.0, 1.0, 0.5, 7.25],
    [0.1, 3.0e7, 0.3, 1.0, -3.0e7, 0.7, 0.2, 5.0],
];

/// Each block adds its partial of each round into one float, in turn.
fn ordered_accumulate(out: &GmAddr, work: &GmAddr, rounds: usize) -> Result<()> {
    let mut pipe = TPipe::new();
    let mut b: TBuf<QuePosition::VECCALC> = TBuf::new();
    pipe.init_buffer(&mut b, 1, 32 + BLOCKS * 32 + 32)?;
    let t = b.get_with_offset::<f32>(8, 0)?;
    let ub_ws = b.get_with_offset::<i32>(BLOCKS * 8 + 8, 32)?;
    let gm_ws = gt::<i32>(work);
    init_determine_compute_workspace(&gm_ws, &ub_ws)?;
    for round in PARTIALS.iter().take(rounds) {
        duplicate(&t, 0.0f32, 8)?;
        t.set_value(0, round[get_block_idx() as usize])?;
        set_flag(HardEvent::V_MTE3, 0)?;
        wait_flag(HardEvent::V_MTE3, 0)?;
        wait_pre_block(&gm_ws, &ub_ws)?;
        set_atomic_add::<f32>()?;
        let p = DataCopyExtParams {
            block_count: 1,
            block_len: 4,
            ..Default::default()
        };
        data_copy_pad(&gt::<f32>(out), &t, p, ())?;
        disable_dma_atomic()?;
        notify_next_block(&gm_ws, &ub_ws)?;
        set_flag(HardEvent::MTE3_V, 0)?;
        wait_flag(HardEvent::MTE3_V, 0)?;
    }
    Ok(())
}

#[test]
fn block_ordered_accumulation_equals_the_sequential_sum_bit_for_bit_on_every_schedule() {
    let sequential = PARTIALS.iter().flatten().fold(0f32, |acc, p| acc + p);
    let reversed = PARTIALS.iter().flatten().rev().fold(0f32, |acc, p| acc + p);
    // The order matters for these partials: the check is not vacuous.
    assert_ne!(sequential.to_bits(), reversed.to_bits());
    for l in all_schedules(BLOCKS) {
        let out = GmBuffer::zeroed(32);
        let work = GmBuffer::zeroed(BLOCKS as usize * 32);
        l.profile(&ASCEND910B)
            .run(|| ordered_accumulate(&out.addr(), &work.addr(), 2))
            .unwrap();
        assert_eq!(out.to_vec::<f32>()[0].to_bits(), sequential.to_bits());
    }
}

fn deadlock(e: &LaunchError) -> String {
    let s = e.to_string();
    assert!(
        e.errors.iter().all(|x| x.message.contains("deadlock")),
        "{s}"
    );
    s
}

#[test]
fn waiting_for_a_block_that_never_notifies_is_a_deadlock_on_every_schedule() {
    for l in all_schedules(4) {
        let work = GmBuffer::zeroed(4 * 32);
        let e = l
            .profile(&ASCEND910_93)
            .run(|| {
                let mut pipe = TPipe::new();
                let mut b: TBuf<QuePosition::VECCALC> = TBuf::new();
                pipe.init_buffer(&mut b, 1, 5 * 32)?;
                let ub = b.get::<i32>()?;
                let gm = gt::<i32>(&work.addr());
                init_determine_compute_workspace(&gm, &ub)?;
                wait_pre_block(&gm, &ub)?;
                if get_block_idx() != 1 {
                    notify_next_block(&gm, &ub)?;
                }
                Ok(())
            })
            .unwrap_err();
        let s = deadlock(&e);
        // Blocks 2 and 3 wait (3 behind 2 behind 1); block 2's wait names block 1.
        assert_eq!(e.errors.len(), 2, "{s}");
        assert_eq!(e.errors[0].block, Some(2));
        assert_eq!(e.errors[0].api, "WaitPreBlock");
        assert_mentions(
            &e.errors[0],
            &[
                "NotifyNextBlock number 1 of block 1",
                "notified 0 time(s)",
                "finished",
            ],
        );
    }
}

#[test]
fn determine_workspace_and_call_order_are_checked() {
    let work = GmBuffer::zeroed(2 * 32);
    let kernel = |ub_bytes: u32, gm_bytes: usize, init: bool| {
        let work = &work;
        move || -> Result<()> {
            let mut pipe = TPipe::new();
            let mut b: TBuf<QuePosition::VECCALC> = TBuf::new();
            pipe.init_buffer(&mut b, 1, 256)?;
            let ub = b.get_with_offset::<i32>(ub_bytes / 4, 0)?;
            let mut gm = GlobalTensor::<i32>::new();
            gm.set_global_buffer_with_size(work.addr(), gm_bytes as u64 / 4);
            if init {
                init_determine_compute_workspace(&gm, &ub)?;
            }
            wait_pre_block(&gm, &ub)?;
            notify_next_block(&gm, &ub)
        }
    };
    let run2 = |k| Launch::new(2).profile(&ASCEND910B).run(k);
    run2(kernel(96, 64, true)).unwrap();
    let e = run2(kernel(64, 64, true)).unwrap_err();
    assert_mentions(
        &e.errors[0],
        &[
            "InitDetermineComputeWorkspace",
            "ubWorkspace holds 64 bytes; at least 96",
        ],
    );
    let e = run2(kernel(96, 32, true)).unwrap_err();
    assert_mentions(&e.errors[0], &["gmWorkspace holds 32 bytes; at least 64"]);
    let e = run2(kernel(96, 64, false)).unwrap_err();
    assert_mentions(
        &e.errors[0],
        &[
            "WaitPreBlock",
            "has not called InitDetermineComputeWorkspace",
        ],
    );
    // A notification without a wait warns.
    let r = Launch::new(1)
        .profile(&ASCEND910B)
        .run(|| {
            let mut pipe = TPipe::new();
            let mut b: TBuf<QuePosition::VECCALC> = TBuf::new();
            pipe.init_buffer(&mut b, 1, 64)?;
            let ub = b.get::<i32>()?;
            let gm = gt::<i32>(&work.addr());
            init_determine_compute_workspace(&gm, &ub)?;
            notify_next_block(&gm, &ub)
        })
        .unwrap();
    let w = warnings(&r);
    assert_eq!(w.len(), 1);
    assert!(
        w[0].message.contains("without a matching WaitPreBlock"),
        "{w:?}"
    );
    // Cube cores take no part.
    let e = Launch::new(1)
        .profile(&ASCEND910B)
        .kernel_mode(KernelMode::Aic)
        .run(|| {
            let gm = gt::<i32>(&work.addr());
            init_determine_compute_workspace(&gm, &LocalTensor::<i32>::default())
        })
        .unwrap_err();
    assert_mentions(&e.errors[0], &["vector cores only"]);
}
