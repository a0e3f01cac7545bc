//! GroupBarrier: an Arrive group releasing a Wait group round after round through GM counters,
//! on every schedule; the workspace layout; deadlocks; the documented checks.

use ascendc::chip::{ASCEND310P, ASCEND910_93};
use ascendc::prelude::*;
use ascendc::{set_atomic_add, Category, GroupBarrier, LaunchError, PipeMode, Schedule};

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

const ARRIVE: u32 = 3;
const WAIT: u32 = 5;
const ROUNDS: u32 = 6;

/// Blocks 0..3 arrive, 3..8 wait, for 6 rounds. In round r each arriving block b writes
/// 100·r + b into word (r mod 3)·3 + b of `shared` (three rounds share the words); each waiting
/// block w reads the round's three words after its Wait and stores their sum in
/// `sums[r·5 + w]`. A waiter reads round r's words before its Wait of round r + 1, and an
/// arriver writes them again in round r + 3, after its Arrive of round r + 2, which waits for
/// every Wait of round r + 1: without that wait the arrivers could run ahead and overwrite words
/// not yet read.
fn rounds_kernel(ws: &GmAddr, shared: &GmAddr, sums: &GmAddr) -> Result<()> {
    let pipe = TPipe::new();
    let mut bar = GroupBarrier::new(&pipe, PipeMode::MTE3_MODE, ws, ARRIVE, WAIT)?;
    let (shared, sums) = (gt::<i32>(shared), gt::<i32>(sums));
    let b = get_block_idx();
    for r in 0..ROUNDS {
        let words = (r % 3 * ARRIVE) as u64;
        if b < ARRIVE {
            shared.set_value(words + b as u64, (100 * r + b) as i32)?;
            bar.arrive(b)?;
        } else {
            let w = b - ARRIVE;
            bar.wait(w)?;
            let sum: i32 = (0..ARRIVE as u64)
                .map(|i| shared.get_value(words + i))
                .sum::<Result<i32>>()?;
            sums.set_value((r * WAIT + w) as u64, sum)?;
        }
    }
    Ok(())
}

#[test]
fn the_arrive_group_releases_the_wait_group_every_round_on_every_schedule() {
    for launch in all_schedules(ARRIVE + WAIT) {
        let ws = GmBuffer::zeroed(WAIT as usize * 512);
        let shared = GmBuffer::zeroed(3 * ARRIVE as usize * 4);
        let sums = GmBuffer::zeroed((ROUNDS * WAIT) as usize * 4);
        let r = launch
            .run(|| rounds_kernel(&ws.addr(), &shared.addr(), &sums.addr()))
            .unwrap();
        // Round r: (100r + 0) + (100r + 1) + (100r + 2).
        let want: Vec<i32> = (0..ROUNDS)
            .flat_map(|r| std::iter::repeat_n(300 * r as i32 + 3, WAIT as usize))
            .collect();
        assert_eq!(sums.to_vec::<i32>(), want);
        // The barrier orders the words' writes and reads: no race between blocks.
        assert_eq!(r.diagnostics().count(), 0, "{r}");
        // Slot i (512 bytes, i < max(3, 5)): the Arrive counter at byte 0 counts every Arrive,
        // the Wait counter at byte 64 every Wait.
        let words = ws.to_vec::<u32>();
        for slot in 0..WAIT as usize {
            assert_eq!(words[slot * 128], ARRIVE * ROUNDS, "slot {slot}");
            assert_eq!(words[slot * 128 + 16], WAIT * ROUNDS, "slot {slot}");
        }
    }
}

#[test]
fn a_block_may_arrive_and_then_wait_in_the_same_round() {
    // Both blocks arrive and wait: each round's Wait passes once both have arrived.
    for launch in all_schedules(2) {
        let ws = GmBuffer::zeroed(2 * 512);
        let out = GmBuffer::zeroed(64);
        launch
            .run(|| {
                let pipe = TPipe::new();
                let mut bar = GroupBarrier::new(&pipe, PipeMode::MTE3_MODE, &ws.addr(), 2, 2)?;
                let g = gt::<i32>(&out.addr());
                let b = get_block_idx();
                for r in 0..3u32 {
                    g.set_value((b * 4 + r) as u64, (10 * r + b) as i32)?;
                    bar.arrive(b)?;
                    bar.wait(b)?;
                    // The other block's word of this round is there.
                    let other = g.get_value(((1 - b) * 4 + r) as u64)?;
                    g.set_value((b * 4 + r + 4 * 2) as u64, other)?;
                }
                Ok(())
            })
            .unwrap();
        let v = out.to_vec::<i32>();
        assert_eq!(&v[..3], &[0, 10, 20]);
        assert_eq!(&v[4..7], &[1, 11, 21]);
        // Block 0 saw block 1's words, block 1 block 0's.
        assert_eq!(&v[8..11], &[1, 11, 21]);
        assert_eq!(&v[12..15], &[0, 10, 20]);
    }
}

#[test]
fn get_workspace_len_is_the_larger_group_times_512() {
    let ws = GmBuffer::zeroed(4096);
    Launch::new(8)
        .run(|| {
            let pipe = TPipe::new();
            for ((a, w), len) in [
                ((3, 6), 3072),
                ((2, 6), 3072),
                ((7, 2), 3584),
                ((1, 1), 512),
            ] {
                let bar = GroupBarrier::new(&pipe, PipeMode::MTE3_MODE, &ws.addr(), a, w)?;
                assert_eq!(bar.get_workspace_len(), len);
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn a_wait_group_whose_arrivals_never_come_is_a_deadlock_on_every_schedule() {
    for launch in all_schedules(3) {
        let ws = GmBuffer::zeroed(2 * 512);
        let e = launch
            .run(|| {
                let pipe = TPipe::new();
                let mut bar = GroupBarrier::new(&pipe, PipeMode::MTE3_MODE, &ws.addr(), 2, 1)?;
                match get_block_idx() {
                    0 => bar.arrive(0),
                    // Block 1 should arrive as index 1 but does not.
                    1 => Ok(()),
                    _ => bar.wait(0),
                }
            })
            .unwrap_err();
        assert_eq!(e.errors.len(), 1, "{e}");
        let s = e.to_string();
        assert!(
            s.contains("GroupBarrier::Wait") && s.contains("deadlock"),
            "{s}"
        );
        assert!(s.contains("2 Arrive calls") && s.contains("holds 1"), "{s}");
        assert!(s.contains("AIV_0 (block 0, finished)"), "{s}");
        assert!(s.contains("tests/basic/group_barrier.rs:"), "{s}");
    }
}

#[test]
fn more_waiting_blocks_than_wait_size_are_found_by_the_next_arrive() {
    // Reverse order: blocks 2 and 1 wait first, block 0 arrives, both waits pass (each adds to
    // the Wait counters), and block 0's second Arrive finds 2 Wait calls where 1 is the rule.
    let ws = GmBuffer::zeroed(512);
    let e = Launch::new(3)
        .schedule(Schedule::Reverse)
        .run(|| {
            let pipe = TPipe::new();
            let mut bar = GroupBarrier::new(&pipe, PipeMode::MTE3_MODE, &ws.addr(), 1, 1)?;
            if get_block_idx() == 0 {
                bar.arrive(0)?;
                bar.arrive(0)
            } else {
                bar.wait(0)
            }
        })
        .unwrap_err();
    let s = e.to_string();
    assert!(
        s.contains("GroupBarrier::Arrive") && s.contains("holds 2, more than the 1 Wait calls"),
        "{s}"
    );
}

#[test]
fn arrive_leaves_the_dma_atomic_mode_off() {
    let ws = GmBuffer::zeroed(512);
    let out = GmBuffer::zeroed(32);
    Launch::new(1)
        .run(|| {
            let mut pipe = TPipe::new();
            let mut q: TQue<QuePosition::VECOUT, 1> = TQue::new();
            pipe.init_buffer(&mut q, 1, 32)?;
            let mut bar = GroupBarrier::new(&pipe, PipeMode::MTE3_MODE, &ws.addr(), 1, 1)?;
            let t = q.alloc_tensor::<i32>()?;
            duplicate(&t, 5, 8)?;
            pipe_barrier(Pipe::ALL)?;
            set_atomic_add::<i32>()?;
            bar.arrive(0)?;
            let g = gt::<i32>(&out.addr());
            data_copy(&g, &t, 8)?;
            data_copy(&g, &t, 8)?;
            q.free_tensor(&t)
        })
        .unwrap();
    // Overwritten twice, not added.
    assert_eq!(out.to_vec::<i32>(), vec![5; 8]);
}

fn fails(launch: Launch, f: impl Fn(&TPipe) -> Result<()> + Sync) -> String {
    let e: LaunchError = launch
        .run(|| {
            let pipe = TPipe::new();
            f(&pipe)
        })
        .unwrap_err();
    e.errors[0].to_string()
}

#[test]
fn bad_barriers_name_the_rule() {
    let ws = GmBuffer::zeroed(8192);
    let w = ws.addr();
    let new = |pipe: &TPipe, a: u32, b: u32| {
        GroupBarrier::new(pipe, PipeMode::MTE3_MODE, &w, a, b).map(drop)
    };
    let s = fails(Launch::new(4), |p| new(p, 5, 1));
    assert!(
        s.contains("arriveSizeIn") && s.contains("[1, 4] (GetBlockNum())"),
        "{s}"
    );
    let s = fails(Launch::new(4), |p| new(p, 1, 0));
    assert!(s.contains("waitSizeIn"), "{s}");
    let s = fails(Launch::new(1), |p| {
        GroupBarrier::new(p, PipeMode::SCALAR_MODE, &w, 1, 1).map(drop)
    });
    assert!(s.contains("MTE3_MODE only"), "{s}");
    let s = fails(Launch::new(1), |p| {
        GroupBarrier::new(p, PipeMode::MTE3_MODE, &w.add_bytes(32), 1, 1).map(drop)
    });
    assert!(s.contains("512-byte aligned (32 mod 512 = 32)"), "{s}");
    let small = GmBuffer::zeroed(1024);
    let s = fails(Launch::new(4), |p| {
        GroupBarrier::new(p, PipeMode::MTE3_MODE, &small.addr(), 1, 3).map(drop)
    });
    assert!(
        s.contains("1024 bytes") && s.contains("1536 are needed"),
        "{s}"
    );
    let s = fails(Launch::new(2), |p| {
        let mut bar = GroupBarrier::new(p, PipeMode::MTE3_MODE, &w, 2, 1)?;
        bar.arrive(2)
    });
    assert!(
        s.contains("`arriveIndex` = 2") && s.contains("[0, 1]"),
        "{s}"
    );
    let s = fails(Launch::new(2), |p| {
        let mut bar = GroupBarrier::new(p, PipeMode::MTE3_MODE, &w, 2, 1)?;
        bar.wait(1)
    });
    assert!(s.contains("`waitIndex` = 1") && s.contains("[0, 0]"), "{s}");
    for profile in [&ASCEND910_93, &ASCEND310P] {
        let e = Launch::new(1)
            .profile(profile)
            .run(|| {
                let pipe = TPipe::new();
                GroupBarrier::new(&pipe, PipeMode::MTE3_MODE, &w, 1, 1).map(drop)
            })
            .unwrap_err();
        assert_eq!(e.errors[0].category, Category::Unsupported, "{e}");
    }
}

#[test]
fn the_last_1600_bytes_of_ub_must_stay_free() {
    let ws = GmBuffer::zeroed(512);
    let run = |taken: u32| {
        Launch::new(1).run(|| {
            let mut pipe = TPipe::new();
            let mut t: TBuf<QuePosition::VECCALC> = TBuf::new();
            pipe.init_buffer(&mut t, 1, taken)?;
            let mut bar = GroupBarrier::new(&pipe, PipeMode::MTE3_MODE, &ws.addr(), 1, 1)?;
            bar.arrive(0)?;
            bar.wait(0)
        })
    };
    let s = run(192 * 1024 - 1024).unwrap_err().to_string();
    assert!(
        s.contains("last 1600 bytes of UB (bytes 195008..196608)")
            && s.contains("up to byte 195584"),
        "{s}"
    );
    // 1600 bytes left free are enough.
    run(192 * 1024 - 1600).unwrap();
}
