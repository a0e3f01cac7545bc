//! The high-level GM initialisation: `Fill`, `InitGlobalMemory`, `InitOutput` — values, chunking
//! through the free UB, the instructions recorded, the per-product routes and the checks.

use ascendc::adv::{fill, init_global_memory, init_output};
use ascendc::chip::{ASCEND310B, ASCEND310P, ASCEND910, ASCEND910_93};
use ascendc::prelude::*;
use ascendc::{Category, ChipProfile, LaunchReport};

fn gt<T: Element>(a: &GmAddr, size: u64) -> GlobalTensor<T> {
    let mut g = GlobalTensor::<T>::new();
    g.set_global_buffer_with_size(a.clone(), size);
    g
}

/// One block on `profile`: a pipe with `taken` bytes of UB given out, then `f`.
fn run_on(
    profile: &'static ChipProfile,
    taken: u32,
    f: impl Fn(&TPipe) -> Result<()> + Sync,
) -> std::result::Result<LaunchReport, ascendc::LaunchError> {
    Launch::new(1).profile(profile).run(|| {
        let mut pipe = TPipe::new();
        if taken > 0 {
            let mut t: TBuf<QuePosition::VECCALC> = TBuf::new();
            pipe.init_buffer(&mut t, 1, taken)?;
        }
        f(&pipe)
    })
}

#[test]
fn every_block_fills_its_part_as_on_the_documentation_page() {
    const INIT_SIZE: usize = 20000;
    let z = GmBuffer::from_slice(&vec![-1.0f32; 8 * INIT_SIZE + 8]);
    Launch::new(8)
        .run(|| {
            let pipe = TPipe::new();
            let b = get_block_idx() as usize;
            let g = gt::<f32>(&z.addr().add_bytes(b * INIT_SIZE * 4), INIT_SIZE as u64);
            fill(&pipe, &g, INIT_SIZE as u64, b as f32)
        })
        .unwrap();
    let v = z.to_vec::<f32>();
    for b in 0..8 {
        assert!(
            v[b * INIT_SIZE..(b + 1) * INIT_SIZE]
                .iter()
                .all(|x| *x == b as f32),
            "block {b}"
        );
    }
    // Nothing past the filled elements.
    assert_eq!(&v[8 * INIT_SIZE..], &[-1.0; 8]);
}

/// Fills `size` halves with 2.5 after leaving `free` bytes of UB; returns the report and GM.
fn fill_halves(profile: &'static ChipProfile, free: u32, size: usize) -> (LaunchReport, Vec<f16>) {
    let ub = profile.size_of(ascendc::position::Hardware::UB);
    let z = GmBuffer::from_slice(&vec![f16::from_f32(-1.0); size + 16]);
    let r = run_on(profile, ub - free, |pipe| {
        fill(
            pipe,
            &gt::<f16>(&z.addr(), size as u64 + 16),
            size as u64,
            f16::from_f32(2.5),
        )
    })
    .unwrap();
    (r, z.to_vec::<f16>())
}

fn check_halves(v: &[f16], size: usize) {
    assert!(v[..size].iter().all(|x| x.to_f32() == 2.5));
    assert!(v[size..].iter().all(|x| x.to_f32() == -1.0));
}

#[test]
fn fill_copies_the_staged_chunk_round_after_round_then_the_tail() {
    // A2: 64 free bytes hold 32 halves: 100 = 3 chunks of 32 and a tail of 4, each one
    // DataCopyPad on MTE3, after one Duplicate and the V -> MTE3 flag; then PipeBarrier<MTE3>.
    let (r, v) = fill_halves(&ascendc::chip::ASCEND910B, 64, 100);
    check_halves(&v, 100);
    let b = &r.blocks[0];
    assert_eq!(b.count(Pipe::V), 1 + 1, "Duplicate and SetFlag");
    assert_eq!(
        b.count(Pipe::MTE3),
        4 + 1 + 1,
        "copies, WaitFlag and barrier"
    );
    // With the whole UB free a chunk is 255 * 256 bytes = 32640 halves.
    let (r, v) = fill_halves(&ascendc::chip::ASCEND910B, 192 * 1024, 32640 * 2 + 3);
    check_halves(&v, 32640 * 2 + 3);
    assert_eq!(r.blocks[0].count(Pipe::MTE3), 3 + 1 + 1);
}

#[test]
fn on_310p_whole_32_byte_units_are_copied_and_the_rest_is_stored_by_the_scalar_unit() {
    // 64 free bytes: chunks of 32 halves (64 bytes, whole units); the tail of 20 halves is one
    // 32-byte unit (16 halves) by DataCopy and 4 SetValue.
    let (r, v) = fill_halves(&ASCEND310P, 64, 3 * 32 + 20);
    check_halves(&v, 3 * 32 + 20);
    let b = &r.blocks[0];
    assert_eq!(b.count(Pipe::MTE3), 4 + 1 + 1);
    assert!(b.count(Pipe::S) >= 4);
    // Fewer than 16 halves: no DataCopy at all.
    let (r, v) = fill_halves(&ASCEND310P, 64, 5);
    check_halves(&v, 5);
    assert_eq!(r.blocks[0].count(Pipe::MTE3), 1 + 1);
}

#[test]
fn init_global_memory_is_fill_and_init_output_uses_smaller_chunks_without_the_barrier() {
    let a = GmBuffer::zeroed(5000 * 4);
    let b = GmBuffer::zeroed(5000 * 4);
    let r = Launch::new(1)
        .run(|| {
            let pipe = TPipe::new();
            init_global_memory(&pipe, &gt::<i32>(&a.addr(), 5000), 5000, -7)?;
            init_output(&pipe, &gt::<u32>(&b.addr(), 5000), 5000, 9)
        })
        .unwrap();
    assert_eq!(a.to_vec::<i32>(), vec![-7; 5000]);
    assert_eq!(b.to_vec::<u32>(), vec![9; 5000]);
    // InitGlobalMemory: 65280 bytes hold all 5000 int32: one copy, the WaitFlag, the barrier.
    // InitOutput: chunks of 255 * 32 bytes = 2040 elements: three copies and the WaitFlag.
    assert_eq!(r.blocks[0].count(Pipe::MTE3), (1 + 1 + 1) + (3 + 1));
}

#[test]
fn init_output_does_nothing_off_a2_and_a3_and_says_so() {
    let z = GmBuffer::zeroed(64);
    for profile in [&ASCEND310P, &ASCEND910, &ASCEND310B] {
        let r = run_on(profile, 0, |pipe| {
            init_output(pipe, &gt::<i32>(&z.addr(), 16), 16, 3)
        })
        .unwrap();
        assert_eq!(z.to_vec::<i32>(), vec![0; 16]);
        let d: Vec<String> = r.diagnostics().map(|d| d.to_string()).collect();
        assert!(
            d.iter().any(|d| d.contains("InitOutput does nothing")),
            "{d:?}"
        );
    }
    let r = run_on(&ASCEND910_93, 0, |pipe| {
        init_output(pipe, &gt::<i32>(&z.addr(), 16), 16, 3)
    })
    .unwrap();
    assert_eq!(z.to_vec::<i32>(), vec![3; 16]);
    assert_eq!(r.diagnostics().count(), 0);
}

#[test]
fn two_fills_of_one_core_need_mte3_to_v_synchronisation_between_them() {
    let z = GmBuffer::zeroed(256);
    let run = |sync: bool| {
        Launch::new(1)
            .check_hazards(true)
            .run(|| {
                let pipe = TPipe::new();
                fill(&pipe, &gt::<f32>(&z.addr(), 64), 32, 1.0)?;
                if sync {
                    set_flag(HardEvent::MTE3_V, 0)?;
                    wait_flag(HardEvent::MTE3_V, 0)?;
                }
                fill(&pipe, &gt::<f32>(&z.addr().add_bytes(128), 32), 32, 2.0)
            })
            .unwrap()
    };
    let r = run(false);
    let d: Vec<String> = r
        .diagnostics()
        .filter(|d| d.category == Category::Sync)
        .map(|d| d.to_string())
        .collect();
    assert!(d.iter().any(|d| d.contains("Duplicate")), "{d:?}");
    let r = run(true);
    assert_eq!(r.diagnostics().count(), 0, "{r}");
    let v = z.to_vec::<f32>();
    assert!(v[..32].iter().all(|x| *x == 1.0) && v[32..].iter().all(|x| *x == 2.0));
}

#[test]
fn bad_fills_name_the_rule() {
    let z = GmBuffer::zeroed(256);
    let err =
        |profile: &'static ChipProfile, taken: u32, f: &(dyn Fn(&TPipe) -> Result<()> + Sync)| {
            run_on(profile, taken, f).unwrap_err().errors[0].clone()
        };
    let a2 = &ascendc::chip::ASCEND910B;
    let e = err(a2, 0, &|p| fill(p, &gt::<i8>(&z.addr(), 256), 16, 1));
    assert_eq!(e.category, Category::Type);
    assert!(
        e.to_string().contains("Fill: T = int8_t is not supported"),
        "{e}"
    );
    let e = err(a2, 0, &|p| fill(p, &gt::<f32>(&z.addr(), 32), 33, 1.0));
    assert!(
        e.to_string()
            .contains("`size` = 33 is out of range [0, 32]"),
        "{e}"
    );
    // Without a SetGlobalBuffer size the allocation bounds the fill.
    let e = err(a2, 0, &|p| {
        let mut g = GlobalTensor::<f32>::new();
        g.set_global_buffer(z.addr().add_bytes(128));
        fill(p, &g, 33, 1.0)
    });
    assert!(e.to_string().contains("[0, 32]"), "{e}");
    for profile in [&ASCEND910, &ASCEND310B] {
        let e = err(profile, 0, &|p| {
            init_global_memory(p, &gt::<f32>(&z.addr(), 64), 8, 1.0)
        });
        assert_eq!(e.category, Category::Unsupported, "{e}");
    }
    let e = err(a2, 192 * 1024, &|p| {
        fill(p, &gt::<f32>(&z.addr(), 64), 8, 1.0)
    });
    assert!(e.to_string().contains("no space left"), "{e}");
}
