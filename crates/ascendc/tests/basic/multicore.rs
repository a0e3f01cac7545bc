//! Multi-core runtime: GM atomics, SyncAll (hardware and software), IBSet/IBWait, cross-core
//! flags between AIC and AIV, deadlock detection, inter-block races and schedule checks.

use ascendc::chip::{ASCEND310B, ASCEND910};
use ascendc::prelude::*;
use ascendc::{
    cross_core_set_flag, cross_core_wait_flag, disable_dma_atomic, ib_set, ib_wait, set_atomic_add,
    set_atomic_max, sync_all, sync_all_soft, Category, LaunchError, Schedule,
};

/// Every way of running a launch: free threads, and the three kinds of schedule.
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

fn gt<T: Element>(a: &GmAddr) -> GlobalTensor<T> {
    let mut g = GlobalTensor::<T>::new();
    g.set_global_buffer(a.clone());
    g
}

/// Each block atomically adds its 8-float row of `x` into `out` (one DataCopyPad of 4 bytes
/// for element 0 when `scalar`, else a whole 32-byte DataCopy).
fn atomic_row_sum<T: Element>(x: &GmAddr, out: &GmAddr, scalar: bool) -> Result<()> {
    let per = 32 / T::SIZE as u32;
    let mut pipe = TPipe::new();
    let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
    pipe.init_buffer(&mut q, 1, 32)?;
    let t = q.alloc_tensor::<T>()?;
    data_copy(&t, &gt::<T>(x).at((get_block_idx() * per) as u64)?, per)?;
    set_atomic_add::<T>()?;
    if scalar {
        let p = DataCopyExtParams {
            block_count: 1,
            block_len: T::SIZE as u32,
            ..Default::default()
        };
        data_copy_pad(&gt::<T>(out), &t, p, ())?;
    } else {
        data_copy(&gt::<T>(out), &t, per)?;
    }
    disable_dma_atomic()?;
    q.free_tensor(&t)
}

#[test]
fn atomic_add_fp32_partials_into_one_scalar_round_once_per_add_in_schedule_order() {
    // Partials whose float sum depends on the order: 1e8 + 1 loses the 1, 1 + 1 keeps it.
    let partials = [1.0e8f32, 1.0, 1.0, -1.0e8, 3.0, 1.0, 0.5, 7.25];
    let n = partials.len();
    let mut x = vec![0f32; n * 8];
    for (b, p) in partials.iter().enumerate() {
        x[b * 8] = *p;
    }
    let xb = GmBuffer::from_slice(&x);
    let out = GmBuffer::zeroed(32);
    let fold =
        |order: &mut dyn Iterator<Item = usize>| order.fold(0f32, |acc, b| acc + partials[b]);
    for (s, expect) in [
        (Schedule::Order, fold(&mut (0..n))),
        (Schedule::Reverse, fold(&mut (0..n).rev())),
    ] {
        out.write_slice(0, &[0f32; 8]).unwrap();
        let r = Launch::new(n as u32)
            .schedule(s)
            .run(|| atomic_row_sum::<f32>(&xb.addr(), &out.addr(), true))
            .unwrap();
        assert_eq!(out.to_vec::<f32>()[0], expect, "{s}");
        assert_eq!(&out.to_vec::<f32>()[1..], &[0.0; 7]);
        assert_eq!(r.diagnostics().count(), 0, "{r}");
    }
    // The two orders round differently (8 vs 11.75 + …): the check is not vacuous.
    assert_ne!(fold(&mut (0..n)), fold(&mut (0..n).rev()));
    // Free-running threads: some order, so the per-order rounding of some permutation.
    out.write_slice(0, &[0f32; 8]).unwrap();
    Launch::new(n as u32)
        .run(|| atomic_row_sum::<f32>(&xb.addr(), &out.addr(), true))
        .unwrap();
    let v = out.to_vec::<f32>()[0];
    let mut perm: Vec<usize> = (0..n).collect();
    let mut possible = vec![fold(&mut perm.iter().copied())];
    // Heap's algorithm over all 8! orders.
    let mut c = vec![0; n];
    let mut i = 0;
    while i < n {
        if c[i] < i {
            perm.swap(if i % 2 == 0 { 0 } else { c[i] }, i);
            possible.push(fold(&mut perm.iter().copied()));
            c[i] += 1;
            i = 0;
        } else {
            c[i] = 0;
            i += 1;
        }
    }
    assert!(possible.contains(&v), "{v}");
}

#[test]
fn atomic_add_fp16_rounds_each_add_and_saturates() {
    // In half each add of 1 to 2048 is a tie that rounds to even (2048); 1 + 1 + 1 + 1 first
    // keeps the 4.
    let partials = [2048.0f32, 1.0, 1.0, 1.0, 1.0];
    let n = partials.len();
    let mut x = vec![f16::ZERO; n * 16];
    for (b, p) in partials.iter().enumerate() {
        x[b * 16] = f16::from_f32(*p);
        x[b * 16 + 1] = f16::from_f32(40000.0);
    }
    let xb = GmBuffer::from_slice(&x);
    let out = GmBuffer::zeroed(32);
    let fold = |order: Vec<usize>| {
        order.into_iter().fold(f16::ZERO, |acc, b| {
            f16::from_f64(acc.to_f64() + f16::from_f32(partials[b]).to_f64())
        })
    };
    for (s, order) in [
        (Schedule::Order, (0..n).collect::<Vec<_>>()),
        (Schedule::Reverse, (0..n).rev().collect()),
    ] {
        out.write_slice(0, &[f16::ZERO; 16]).unwrap();
        Launch::new(n as u32)
            .schedule(s)
            .run(|| atomic_row_sum::<f16>(&xb.addr(), &out.addr(), false))
            .unwrap();
        let got = out.to_vec::<f16>();
        assert_eq!(got[0], fold(order), "{s}");
        // 4 × 40000 overflows half: saturation keeps 65504.
        assert_eq!(got[1].to_f32(), 65504.0);
    }
    assert_eq!(fold((0..n).collect()).to_f32(), 2048.0);
    assert_eq!(fold((0..n).rev().collect()).to_f32(), 2052.0);
}

#[test]
fn atomic_types_and_paths_follow_the_product_tables() {
    let e = Launch::new(1)
        .profile(&ASCEND910)
        .run(|| set_atomic_add::<f16>())
        .unwrap_err();
    assert!(
        e.errors[0].message.contains("supports float, not half"),
        "{e}"
    );
    let e = Launch::new(1)
        .profile(&ASCEND310B)
        .run(|| set_atomic_max::<f32>())
        .unwrap_err();
    assert_eq!(e.errors[0].category, Category::Unsupported, "{e}");
    // Integer max on A2.
    let x = GmBuffer::from_slice(&[5i32, -3, 7, 0, 0, 0, 0, 0, -1, 9, 2, 0, 0, 0, 0, 0]);
    let out = GmBuffer::from_slice(&[i32::MIN; 8]);
    Launch::new(2)
        .run(|| {
            let mut pipe = TPipe::new();
            let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
            pipe.init_buffer(&mut q, 1, 32)?;
            let t = q.alloc_tensor::<i32>()?;
            data_copy(&t, &gt::<i32>(&x.addr()).at(get_block_idx() as u64 * 8)?, 8)?;
            set_atomic_max::<i32>()?;
            data_copy(&gt::<i32>(&out.addr()), &t, 8)?;
            disable_dma_atomic()
        })
        .unwrap();
    assert_eq!(out.to_vec::<i32>(), vec![5, 9, 7, 0, 0, 0, 0, 0]);
}

/// Phase 1: block b writes 8 copies of b+1 to its row of `work`; SyncAll; phase 2: block b sums
/// every other block's row into its row of `out`.
fn two_phase(work: &GmAddr, out: &GmAddr, soft: Option<&GmAddr>) -> Result<()> {
    let (b, n) = (get_block_idx(), get_block_num());
    let mut pipe = TPipe::new();
    let mut q: TQue<QuePosition::VECOUT, 1> = TQue::new();
    let mut ws: TBuf<QuePosition::VECCALC> = TBuf::new();
    pipe.init_buffer(&mut q, 2, 32)?;
    pipe.init_buffer(&mut ws, 1, n * 32)?;
    let t = q.alloc_tensor::<i32>()?;
    for k in 0..8 {
        t.set_value(k, b as i32 + 1)?;
    }
    data_copy(&gt::<i32>(work).at(b as u64 * 8)?, &t, 8)?;
    match soft {
        None => sync_all()?,
        Some(sync) => sync_all_soft(&gt::<i32>(sync), &ws.get::<i32>()?, 0)?,
    }
    let acc = q.alloc_tensor::<i32>()?;
    duplicate(&acc, 0, 8)?;
    for other in (0..n).filter(|&o| o != b) {
        data_copy(&t, &gt::<i32>(work).at(other as u64 * 8)?, 8)?;
        add(&acc, &acc, &t, 8)?;
    }
    data_copy(&gt::<i32>(out).at(b as u64 * 8)?, &acc, 8)?;
    q.free_tensor(&t)?;
    q.free_tensor(&acc)
}

fn check_two_phase(n: u32, out: &GmBuffer) {
    let total: i32 = (1..=n as i32).sum();
    let got = out.to_vec::<i32>();
    for b in 0..n as usize {
        assert_eq!(
            got[b * 8..b * 8 + 8],
            [total - (b as i32 + 1); 8],
            "block {b}"
        );
    }
}

#[test]
fn two_phase_kernel_with_sync_all_reads_what_other_blocks_wrote() {
    let n = 8;
    for launch in all_schedules(n) {
        let work = GmBuffer::zeroed(n as usize * 32);
        let out = GmBuffer::zeroed(n as usize * 32);
        let r = launch
            .run(|| two_phase(&work.addr(), &out.addr(), None))
            .unwrap();
        check_two_phase(n, &out);
        // SyncAll orders phase 1's writes before phase 2's reads: no race.
        assert_eq!(r.diagnostics().count(), 0, "{r}");
    }
}

#[test]
fn software_sync_all_with_a_zeroed_workspace() {
    let n = 6;
    for launch in all_schedules(n) {
        let work = GmBuffer::zeroed(n as usize * 32);
        let out = GmBuffer::zeroed(n as usize * 32);
        let sync = GmBuffer::zeroed(n as usize * 32);
        let r = launch
            .run(|| two_phase(&work.addr(), &out.addr(), Some(&sync.addr())))
            .unwrap();
        check_two_phase(n, &out);
        assert_eq!(r.diagnostics().count(), 0, "{r}");
        // Each block's slot counts its arrivals.
        let slots: Vec<i32> = sync.to_vec::<i32>().iter().step_by(8).copied().collect();
        assert_eq!(slots, vec![1; n as usize]);
    }
    // The same on the coupled 910 (software form only).
    let work = GmBuffer::zeroed(4 * 32);
    let out = GmBuffer::zeroed(4 * 32);
    let sync = GmBuffer::zeroed(4 * 32);
    Launch::new(4)
        .profile(&ASCEND910)
        .run(|| two_phase(&work.addr(), &out.addr(), Some(&sync.addr())))
        .unwrap();
    check_two_phase(4, &out);
}

#[test]
fn software_sync_all_checks_its_workspace() {
    let (work, out) = (GmBuffer::zeroed(4 * 32), GmBuffer::zeroed(4 * 32));
    let dirty = GmBuffer::from_slice(&[7i32; 32]);
    let e = Launch::new(4)
        .run(|| two_phase(&work.addr(), &out.addr(), Some(&dirty.addr())))
        .unwrap_err();
    assert!(
        e.errors[0].message.contains("must be zero-initialised"),
        "{e}"
    );
    let small = GmBuffer::zeroed(3 * 32);
    let e = Launch::new(4)
        .run(|| two_phase(&work.addr(), &out.addr(), Some(&small.addr())))
        .unwrap_err();
    assert!(
        e.errors[0]
            .message
            .contains("gmWorkspace holds 96 bytes; at least 128"),
        "{e}"
    );
    let e = Launch::new(1)
        .profile(&ASCEND310B)
        .run(|| sync_all())
        .unwrap_err();
    assert_eq!(e.errors[0].category, Category::Unsupported);
    let e = Launch::new(2)
        .profile(&ASCEND910)
        .run(|| sync_all())
        .unwrap_err();
    assert!(e.errors[0].message.contains("use the software form"), "{e}");
}

#[test]
fn cross_core_sync_needs_every_block_resident() {
    let e = Launch::new(49).run(|| sync_all()).unwrap_err();
    assert!(
        e.errors[0]
            .message
            .contains("blockDim 49 exceeds the 48 vector cores (AIV)"),
        "{e}"
    );
    // Without cross-core waits the same launch runs (the pooled path).
    Launch::new(49).run(|| Ok(())).unwrap();
}

/// MIX kernel: each AIC moves a 16-float tile GM → L1 → GM workspace and sets flag 3 (mode 2);
/// both AIVs of its AI Core wait for it, read their half of the tile, double it and store it.
fn mix_handover(src: &GmAddr, ws: &GmAddr, out: &GmAddr) -> Result<()> {
    let mut pipe = TPipe::new();
    if get_task_ratio() == 1 {
        // The AIC of AI Core `group`.
        let group = get_block_idx() as u64;
        let mut l1: TQue<QuePosition::A1, 1> = TQue::new();
        pipe.init_buffer(&mut l1, 1, 64)?;
        let t = l1.alloc_tensor::<f32>()?;
        data_copy(&t, &gt::<f32>(src).at(group * 16)?, 16)?;
        data_copy(&gt::<f32>(ws).at(group * 16)?, &t, 16)?;
        cross_core_set_flag(2, PIPE_MTE3, 3)?;
        l1.free_tensor(&t)
    } else {
        let (v, group) = (get_block_idx() as u64, get_block_idx() as u64 / 2);
        let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
        pipe.init_buffer(&mut q, 1, 32)?;
        cross_core_wait_flag(2, PIPE_MTE2, 3)?;
        let t = q.alloc_tensor::<f32>()?;
        data_copy(&t, &gt::<f32>(ws).at(group * 16 + (v % 2) * 8)?, 8)?;
        add(&t, &t, &t, 8)?;
        data_copy(&gt::<f32>(out).at(v * 8)?, &t, 8)?;
        q.free_tensor(&t)
    }
}

#[test]
fn mix_kernel_hands_tiles_from_aic_to_aiv_with_cross_core_flags() {
    let blocks = 3u32;
    let src: Vec<f32> = (0..blocks * 16).map(|i| i as f32).collect();
    for launch in all_schedules(blocks) {
        let (s, ws, out) = (
            GmBuffer::from_slice(&src),
            GmBuffer::zeroed(blocks as usize * 64),
            GmBuffer::zeroed(blocks as usize * 64),
        );
        let r = launch
            .kernel_mode(KernelMode::Mix)
            .run(|| mix_handover(&s.addr(), &ws.addr(), &out.addr()))
            .unwrap();
        let expect: Vec<f32> = src.iter().map(|x| 2.0 * x).collect();
        assert_eq!(out.to_vec::<f32>(), expect);
        // The flag orders the AIC's write before the AIVs' reads: no race.
        assert_eq!(r.diagnostics().count(), 0, "{r}");
    }
}

fn deadlock(e: &LaunchError) -> String {
    assert!(
        e.errors.iter().all(|x| x.message.contains("deadlock")),
        "{e}"
    );
    e.to_string()
}

#[test]
fn sync_all_skipped_by_one_block_is_a_deadlock_on_every_schedule() {
    for launch in all_schedules(4) {
        let e = launch
            .run(|| {
                if get_block_idx() == 2 {
                    return Ok(());
                }
                sync_all()
            })
            .unwrap_err();
        let s = deadlock(&e);
        assert_eq!(e.errors.len(), 3, "{s}");
        assert!(s.contains("not arrived: AIV_2 (block 2, finished)"), "{s}");
        assert!(s.contains("tests/basic/multicore.rs:"), "{s}");
    }
}

#[test]
fn ib_wait_never_set_is_a_deadlock_on_every_schedule() {
    for launch in all_schedules(2) {
        let sync = GmBuffer::zeroed(4 * 32);
        let e = launch
            .run(|| {
                let mut pipe = TPipe::new();
                let mut ws: TBuf<QuePosition::VECCALC> = TBuf::new();
                pipe.init_buffer(&mut ws, 1, 32)?;
                let g = gt::<i32>(&sync.addr());
                if get_block_idx() == 1 {
                    ib_wait(&g, &ws.get::<i32>()?, 0, 1)?;
                } else {
                    // Block 0 sets event 0, not the event 1 block 1 waits for.
                    ib_set(&g, &ws.get::<i32>()?, 0, 0)?;
                }
                Ok(())
            })
            .unwrap_err();
        let s = deadlock(&e);
        assert!(s.contains("IBSet(blockIdx 0, eventID 1)"), "{s}");
        assert!(s.contains("AIV_0 (block 0, finished)"), "{s}");
    }
}

#[test]
fn ib_set_and_wait_order_two_blocks() {
    for launch in all_schedules(2) {
        let sync = GmBuffer::zeroed(4 * 32);
        let data = GmBuffer::zeroed(64);
        let r = launch
            .run(|| {
                let mut pipe = TPipe::new();
                let mut ws: TBuf<QuePosition::VECCALC> = TBuf::new();
                let mut q: TQue<QuePosition::VECOUT, 1> = TQue::new();
                pipe.init_buffer(&mut ws, 1, 32)?;
                pipe.init_buffer(&mut q, 1, 32)?;
                let g = gt::<i32>(&sync.addr());
                let d = gt::<i32>(&data.addr());
                let t = q.alloc_tensor::<i32>()?;
                if get_block_idx() == 0 {
                    duplicate(&t, 21, 8)?;
                    data_copy(&d, &t, 8)?;
                    ib_set(&g, &ws.get::<i32>()?, 0, 0)?;
                } else {
                    ib_wait(&g, &ws.get::<i32>()?, 0, 0)?;
                    data_copy(&t, &d, 8)?;
                    add(&t, &t, &t, 8)?;
                    data_copy(&d.at(8)?, &t, 8)?;
                }
                q.free_tensor(&t)
            })
            .unwrap();
        assert_eq!(data.to_vec::<i32>()[8..], [42; 8]);
        assert_eq!(r.diagnostics().count(), 0, "{r}");
    }
}

#[test]
fn each_ib_wait_consumes_one_ib_set_of_a_reused_slot() {
    // Block 0 writes row k, then IBSet; block 1 IBWaits, then reads row k. An IBWait that passed on
    // an IBSet already consumed would read a row not yet written (0).
    for launch in all_schedules(2) {
        let sync = GmBuffer::zeroed(2 * 32);
        let rows = GmBuffer::zeroed(3 * 32);
        let seen = GmBuffer::zeroed(3 * 32);
        let r = launch
            .run(|| {
                let mut pipe = TPipe::new();
                let mut ws: TBuf<QuePosition::VECCALC> = TBuf::new();
                let mut q: TQue<QuePosition::VECOUT, 1> = TQue::new();
                pipe.init_buffer(&mut ws, 1, 32)?;
                pipe.init_buffer(&mut q, 1, 32)?;
                let g = gt::<i32>(&sync.addr());
                let t = q.alloc_tensor::<i32>()?;
                for k in 0..3u64 {
                    if get_block_idx() == 0 {
                        duplicate(&t, 10 * (k as i32 + 1), 8)?;
                        pipe_barrier(PIPE_ALL)?;
                        data_copy(&gt::<i32>(&rows.addr()).at(8 * k)?, &t, 8)?;
                        ib_set(&g, &ws.get::<i32>()?, 0, 0)?;
                    } else {
                        ib_wait(&g, &ws.get::<i32>()?, 0, 0)?;
                        data_copy(&t, &gt::<i32>(&rows.addr()).at(8 * k)?, 8)?;
                        pipe_barrier(PIPE_ALL)?;
                        data_copy(&gt::<i32>(&seen.addr()).at(8 * k)?, &t, 8)?;
                        pipe_barrier(PIPE_ALL)?;
                    }
                }
                q.free_tensor(&t)
            })
            .unwrap();
        let want: Vec<i32> = [10, 20, 30].iter().flat_map(|&v| [v; 8]).collect();
        assert_eq!(seen.to_vec::<i32>(), want);
        assert_eq!(
            sync.to_vec::<i32>()[0],
            0,
            "the last IBWait leaves the slot at 0"
        );
        assert_eq!(r.diagnostics().count(), 0, "{r}");
    }
}

#[test]
fn ib_set_on_an_unconsumed_slot_waits_for_its_ib_wait() {
    for launch in all_schedules(2) {
        let sync = GmBuffer::zeroed(2 * 32);
        let e = launch
            .run(|| {
                let mut pipe = TPipe::new();
                let mut ws: TBuf<QuePosition::VECCALC> = TBuf::new();
                pipe.init_buffer(&mut ws, 1, 32)?;
                if get_block_idx() == 0 {
                    let g = gt::<i32>(&sync.addr());
                    ib_set(&g, &ws.get::<i32>()?, 0, 0)?;
                    ib_set(&g, &ws.get::<i32>()?, 0, 0)?;
                }
                Ok(())
            })
            .unwrap_err();
        let s = deadlock(&e);
        assert!(
            s.contains("IBWait(blockIdx 0, eventID 0) to consume the slot's earlier IBSet"),
            "{s}"
        );
        assert_eq!(sync.to_vec::<i32>()[0], 1);
    }
}

#[test]
fn cross_core_wait_flag_never_set_is_a_deadlock_on_every_schedule() {
    for launch in all_schedules(2) {
        let e = launch
            .kernel_mode(KernelMode::Mix)
            .run(|| {
                if get_task_ratio() == 2 {
                    cross_core_wait_flag(2, PIPE_V, 5)?;
                }
                Ok(())
            })
            .unwrap_err();
        let s = deadlock(&e);
        assert_eq!(e.errors.len(), 4, "{s}");
        assert!(
            s.contains("CrossCoreSetFlag<mode 2>(flagId 5); not set by: AIC_0 (block 0, finished)"),
            "{s}"
        );
    }
}

/// Every block writes its index + 1 to all 8 elements of `out` (overwriting, or atomically
/// adding).
fn all_write_one_row(out: &GmAddr, atomic: bool) -> Result<()> {
    let mut pipe = TPipe::new();
    let mut q: TQue<QuePosition::VECOUT, 1> = TQue::new();
    pipe.init_buffer(&mut q, 1, 32)?;
    let t = q.alloc_tensor::<i32>()?;
    duplicate(&t, get_block_idx() as i32 + 1, 8)?;
    if atomic {
        set_atomic_add::<i32>()?;
    }
    data_copy(&gt::<i32>(out), &t, 8)?;
    if atomic {
        disable_dma_atomic()?;
    }
    q.free_tensor(&t)
}

#[test]
fn unordered_writes_are_a_race_and_atomic_adds_are_not() {
    let out = GmBuffer::zeroed(32);
    let r = Launch::new(2)
        .run(|| all_write_one_row(&out.addr(), false))
        .unwrap();
    let d: Vec<String> = r.diagnostics().map(|d| d.to_string()).collect();
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(
        d[0].contains("blocks 0 and 1 both write GM bytes 0..32"),
        "{}",
        d[0]
    );
    assert!(
        d[0].contains("DataCopy at") && d[0].contains("tests/basic/multicore.rs:"),
        "{}",
        d[0]
    );
    let out = GmBuffer::zeroed(32);
    let r = Launch::new(2)
        .run(|| all_write_one_row(&out.addr(), true))
        .unwrap();
    assert_eq!(r.diagnostics().count(), 0, "{r}");
    assert_eq!(out.to_vec::<i32>(), vec![3; 8]);
}

#[test]
fn schedule_check_flags_an_order_dependent_kernel_and_passes_an_independent_one() {
    let out = GmBuffer::zeroed(32);
    let c = Launch::new(4)
        .schedule_check(8, &[&out], || all_write_one_row(&out.addr(), false))
        .unwrap();
    assert_eq!(c.schedules.len(), 8);
    assert!(!c.is_deterministic());
    let d = &c.differences[0];
    assert_eq!((d.buffer, d.offset), (0, 0));
    assert_eq!(d.reference.0, Schedule::Order);
    assert_eq!(d.reference.1[0], 4, "the last block in order wins");
    assert!(!d.summation_order_only);
    assert!(c.to_string().contains("under schedule reverse"), "{c}");
    // Afterwards GM holds the first schedule's output.
    assert_eq!(out.to_vec::<i32>(), vec![4; 8]);

    let out = GmBuffer::zeroed(32);
    let c = Launch::new(4)
        .schedule_check(8, &[&out], || all_write_one_row(&out.addr(), true))
        .unwrap();
    assert!(c.is_deterministic(), "{c}");
    assert_eq!(out.to_vec::<i32>(), vec![10; 8]);
}

#[test]
fn schedule_check_tells_float_summation_order_apart() {
    let partials = [1.0e8f32, 1.0, 1.0, -1.0e8];
    let mut x = vec![0f32; 32];
    for (b, p) in partials.iter().enumerate() {
        x[b * 8] = *p;
    }
    let xb = GmBuffer::from_slice(&x);
    let out = GmBuffer::zeroed(32);
    let c = Launch::new(4)
        .schedule_check(8, &[&out], || {
            atomic_row_sum::<f32>(&xb.addr(), &out.addr(), false)
        })
        .unwrap();
    assert!(!c.is_deterministic());
    assert!(c.differences.iter().all(|d| d.summation_order_only), "{c}");
    assert!(c.to_string().contains("differ by summation order"), "{c}");
}

#[test]
fn schedules_start_thousands_of_blocks_in_their_order() {
    // Each hand-over looks only at the started cores and one end of the unstarted ones, so a
    // scheduled launch is linear in its blocks (it looked at every core, and searched the
    // unstarted list for each, per hand-over: cubic).
    let n = 5000u32;
    let started = |s: Schedule| {
        let order = std::sync::Mutex::new(Vec::new());
        Launch::new(n)
            .schedule(s)
            .run(|| {
                order.lock().unwrap().push(get_block_idx());
                Ok(())
            })
            .unwrap();
        order.into_inner().unwrap()
    };
    assert_eq!(started(Schedule::Order), (0..n).collect::<Vec<_>>());
    assert_eq!(started(Schedule::Reverse), (0..n).rev().collect::<Vec<_>>());
    let shuffled = started(Schedule::Shuffle(7));
    assert_ne!(shuffled, (0..n).collect::<Vec<_>>());
    let mut sorted = shuffled.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, (0..n).collect::<Vec<_>>());
    assert_eq!(
        started(Schedule::Shuffle(7)),
        shuffled,
        "a seed names one order"
    );
}
