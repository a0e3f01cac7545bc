//! Multi-core launch: block indices, threads vs sequential, failing blocks.

use ascendc::prelude::*;
use ascendc::Category;

fn tag_blocks(launch: Launch) -> Vec<u32> {
    let out = GmBuffer::zeroed(16 * 8 * 4);
    let a = out.addr();
    launch
        .run(|| {
            let mut g = GlobalTensor::<u32>::new();
            g.set_global_buffer(a.clone());
            let i = get_block_idx();
            for k in 0..8 {
                g.set_value((i * 8 + k) as u64, i * 100 + get_block_num())?;
            }
            Ok(())
        })
        .unwrap();
    out.to_vec()
}

#[test]
fn every_block_sees_its_index_threaded_and_sequential() {
    let expect: Vec<u32> = (0..16).flat_map(|i| [i * 100 + 16; 8]).collect();
    assert_eq!(tag_blocks(Launch::new(16)), expect);
    assert_eq!(tag_blocks(Launch::new(16).sequential()), expect);
    assert_eq!(tag_blocks(Launch::new(16).threads(3)), expect);
}

#[test]
fn a_failing_block_is_named_and_the_others_finish() {
    let out = GmBuffer::zeroed(4 * 4);
    let a = out.addr();
    let e = Launch::new(4)
        .run(|| {
            let mut g = GlobalTensor::<u32>::new();
            g.set_global_buffer(a.clone());
            let i = get_block_idx();
            g.set_value(i as u64, 1)?;
            if i == 2 {
                pipe_barrier(PIPE_S)?;
            }
            Ok(())
        })
        .unwrap_err();
    assert_eq!(e.errors.len(), 1);
    assert_eq!(e.errors[0].block, Some(2));
    assert_eq!(e.errors[0].category, Category::Sync);
    assert!(
        e.to_string()
            .contains("block 2 (AIV_2): PipeBarrier: PIPE_S is not allowed"),
        "{e}"
    );
    assert_eq!(out.to_vec::<u32>(), vec![1, 1, 1, 1]);
    assert_eq!(e.report.blocks.len(), 4);
}

#[test]
fn an_ignored_error_still_fails_the_launch() {
    let e = Launch::new(1)
        .run(|| {
            let _ = pipe_barrier(PIPE_S);
            Ok(())
        })
        .unwrap_err();
    assert_eq!(e.errors[0].api, "PipeBarrier");
}

#[test]
fn a_panicking_kernel_is_reported_not_propagated() {
    let e = Launch::new(2)
        .run(|| {
            if get_block_idx() == 1 {
                panic!("boom");
            }
            Ok(())
        })
        .unwrap_err();
    assert_eq!(e.errors.len(), 1);
    assert!(e.errors[0].message.contains("the kernel panicked: boom"));
    assert_eq!(e.errors[0].block, Some(1));
}

#[test]
fn barriers_and_flags_are_recorded() {
    let r = Launch::new(1)
        .run(|| {
            pipe_barrier(PIPE_V)?;
            pipe_barrier(PIPE_ALL)?;
            set_flag(HardEvent::V_MTE3, 0)?;
            wait_flag(HardEvent::V_MTE3, 0)
        })
        .unwrap();
    let b = &r.blocks[0];
    assert_eq!(
        (b.count(Pipe::V), b.count(Pipe::ALL), b.count(Pipe::MTE3)),
        (2, 1, 1)
    );
    let e = Launch::new(1)
        .run(|| set_flag(HardEvent::V_MTE3, 8))
        .unwrap_err();
    assert!(e.errors[0]
        .message
        .contains("`eventID` = 8 is out of range [0, 8)"));
}

#[test]
fn inf_nan_mode_only_where_the_hardware_switches() {
    assert!(Launch::new(1).fp16_inf_nan(true).run(|| Ok(())).is_ok());
    let e = Launch::new(1)
        .profile(&ascendc::chip::ASCEND310P)
        .fp16_inf_nan(true)
        .run(|| Ok(()))
        .unwrap_err();
    assert!(e.errors[0]
        .message
        .contains("not available on Atlas inference series"));
}

#[test]
fn overlapping_gm_writes_by_different_blocks_are_reported() {
    let out = GmBuffer::zeroed(1024);
    let a = out.addr();
    let kernel = |stride: u64| {
        let a = a.clone();
        move || {
            let mut pipe = TPipe::new();
            let mut q: TQue<QuePosition::VECOUT, 1> = TQue::new();
            pipe.init_buffer(&mut q, 1, 256)?;
            let mut g = GlobalTensor::<f32>::new();
            g.set_global_buffer(a.clone());
            let t = q.alloc_tensor::<f32>()?;
            data_copy(&g.at(get_block_idx() as u64 * stride)?, &t, 64)
        }
    };
    let r = Launch::new(3).run(kernel(32)).unwrap();
    let d: Vec<_> = r.diagnostics().collect();
    assert_eq!(d.len(), 2, "{d:?}");
    assert!(
        d[0].message
            .contains("blocks 0 and 1 both write GM bytes 128..256"),
        "{}",
        d[0]
    );
    assert!(
        d[1].message
            .contains("blocks 1 and 2 both write GM bytes 256..384"),
        "{}",
        d[1]
    );
    let r = Launch::new(3).run(kernel(64)).unwrap();
    assert_eq!(r.diagnostics().count(), 0);
}

#[test]
fn mixed_mode_runs_one_cube_and_two_vector_cores_per_block() {
    use ascendc::core::CoreKind;
    // sync-and-launch.md §7.1: A2, MIX, 2 blocks → AIC_0, AIV_0, AIV_1, AIC_1, AIV_2, AIV_3.
    let seen = std::sync::Mutex::new(Vec::new());
    let r = Launch::new(2)
        .kernel_mode(KernelMode::Mix)
        .run(|| {
            seen.lock().unwrap().push((
                get_block_idx(),
                get_block_num(),
                get_sub_block_idx(),
                get_task_ratio(),
            ));
            Ok(())
        })
        .unwrap();
    let names: Vec<String> = r.blocks.iter().map(|b| b.core.to_string()).collect();
    assert_eq!(
        names,
        ["AIC_0", "AIV_0", "AIV_1", "AIC_1", "AIV_2", "AIV_3"]
    );
    let aiv3 = r
        .blocks
        .iter()
        .find(|b| b.core.to_string() == "AIV_3")
        .unwrap();
    assert_eq!(
        (
            aiv3.block_idx,
            aiv3.core.sub_block_idx,
            aiv3.core.task_ratio
        ),
        (3, 1, 2)
    );
    let mut seen = seen.into_inner().unwrap();
    seen.sort();
    assert_eq!(
        seen,
        [
            (0, 2, 0, 1),
            (0, 2, 0, 2),
            (1, 2, 0, 1),
            (1, 2, 1, 2),
            (2, 2, 0, 2),
            (3, 2, 1, 2)
        ]
    );
    assert_eq!(r.blocks[0].core.kind, CoreKind::Aic);
    // Coupled products ignore the mode.
    let r = Launch::new(2)
        .profile(&ascendc::chip::ASCEND310P)
        .kernel_mode(KernelMode::Mix)
        .run(|| Ok(()))
        .unwrap();
    assert_eq!(r.blocks.len(), 2);
    assert_eq!(r.blocks[1].core.to_string(), "CORE_1");
    // The vendor CPU-debug library allows at most 25 mixed blocks on A2.
    let r = Launch::new(26)
        .kernel_mode(KernelMode::Mix)
        .record_trace(false)
        .run(|| Ok(()))
        .unwrap();
    assert!(r
        .diagnostics()
        .any(|d| d.message.contains("blockDim 26 exceeds 25")));
}

#[test]
fn errors_name_the_core_in_mixed_mode() {
    let e = Launch::new(1)
        .kernel_mode(KernelMode::Mix)
        .run(|| {
            if get_sub_block_idx() == 1 {
                pipe_barrier(PIPE_S)?;
            }
            Ok(())
        })
        .unwrap_err();
    assert!(
        e.to_string().contains("block 1 (AIV_1): PipeBarrier"),
        "{e}"
    );
}

#[test]
fn report_summary_and_tensor_format() {
    let g = GmBuffer::from_slice(&[1i16, -2, 3]);
    assert_eq!(g.format::<i16>(), "[1 -2 3]");
    let r = Launch::new(2)
        .run(|| {
            pipe_barrier(PIPE_V)?;
            if get_block_idx() == 1 {
                set_flag(HardEvent::V_MTE3, 0)?;
                wait_flag(HardEvent::V_MTE3, 0)?;
            }
            Ok(())
        })
        .unwrap();
    assert_eq!(
        r.to_string(),
        "Atlas A2 training/inference series (Ascend910B): 2 core(s), instructions V 3, MTE3 1"
    );
}

/// Runs `write` (on a UB tensor of `N` floats and a GM tensor of `N` floats) in 5 blocks on one
/// thread, each block first saving the UB bytes it finds; panics unless every block found the
/// same bytes. Every block after the first gets the memory the block before wrote, so they
/// agree only if the simulator undid each write before the next block.
fn every_block_finds_the_same_ub(
    what: &str,
    write: impl Fn(&LocalTensor<f32>, &GlobalTensor<f32>) -> ascendc::Result<()> + Sync,
) {
    const BLOCKS: u32 = 5;
    const N: u32 = 2048;
    let src: Vec<f32> = (0..N).map(|i| i as f32 + 0.5).collect();
    let gin = GmBuffer::from_slice(&src);
    let seen = GmBuffer::zeroed((BLOCKS * N * 4) as usize);
    let (a, s) = (gin.addr(), seen.addr());
    Launch::new(BLOCKS)
        .sequential()
        .run(|| {
            let mut pipe = TPipe::new();
            let mut buf: TBuf<QuePosition::VECCALC> = TBuf::new();
            pipe.init_buffer(&mut buf, 1, N * 4)?;
            let ub = buf.get::<f32>()?;
            let (mut gi, mut go) = (GlobalTensor::<f32>::new(), GlobalTensor::<f32>::new());
            gi.set_global_buffer(a.clone());
            go.set_global_buffer(s.add_bytes((get_block_idx() * N * 4) as usize));
            data_copy(&go, &ub, N)?;
            write(&ub, &gi)
        })
        .unwrap();
    let seen: Vec<u32> = seen.to_vec();
    let first = &seen[..N as usize];
    assert!(
        first.iter().any(|&w| w != 0),
        "{what}: block 0 saved its UB"
    );
    for (b, block) in seen.chunks(N as usize).enumerate() {
        assert!(
            block == first,
            "{what}: block {b} found UB bytes a previous block wrote"
        );
    }
}

#[test]
fn a_reused_core_memory_starts_from_the_pattern_again() {
    every_block_finds_the_same_ub("contiguous DataCopy in", |ub, g| {
        data_copy(&ub.at(256)?, g, 256)
    });
    every_block_finds_the_same_ub("strided DataCopy in", |ub, g| {
        data_copy(&ub.at(512)?, g, DataCopyParams::new(4, 2, 1, 3))
    });
    every_block_finds_the_same_ub("contiguous Add", |ub, _| {
        add(&ub.at(1024)?, &ub.at(8)?, &ub.at(16)?, 64)
    });
    every_block_finds_the_same_ub("masked level-0 Duplicate", |ub, _| {
        duplicate_l0(&ub.at(1536)?, 7.0, 40u64, 2, 2, 16)
    });
    every_block_finds_the_same_ub("SetValue", |ub, _| ub.set_value(2043, 1.25));
    every_block_finds_the_same_ub("UB-to-UB DataCopy", |ub, _| {
        data_copy(&ub.at(1800)?, &ub.at(64)?, 64)
    });
}

#[test]
fn reports_come_in_block_order_whatever_thread_ran_them() {
    for threads in [1, 2, 3, 7] {
        let report = Launch::new(300)
            .threads(threads)
            .run(|| {
                // Uneven work, so that the threads take blocks in an interleaved order.
                if get_block_idx().is_multiple_of(3) {
                    pipe_barrier(PIPE_V)?;
                }
                Ok(())
            })
            .unwrap();
        let order: Vec<u32> = report.blocks.iter().map(|b| b.block_idx).collect();
        assert_eq!(order, (0..300).collect::<Vec<u32>>(), "{threads} threads");
        let barriers: u64 = report.blocks.iter().map(|b| b.count(Pipe::V)).sum();
        assert_eq!(barriers, 100);
    }
}
