//! The level-2 vector fast path (dense operands, record off) against the general path (taken
//! whenever the instruction record is kept): same UB bytes, same mask state afterwards, same
//! instruction counts, same diagnostics, on a normal-mode product (910, where a long count
//! lowers to several 255-repeat instructions) and a counter-mode one (A2).

use ascendc::chip::{ChipProfile, ASCEND910, ASCEND910B};
use ascendc::prelude::*;
use proptest::prelude::*;
use std::sync::Mutex;

/// Bytes of the scratch buffer the operands live in.
const SCRATCH: u32 = 160 * 1024;

#[derive(Debug, Clone, Copy)]
enum Op {
    Add,
    Mul,
    Max,
    Adds,
    Exp,
    CastToHalf,
    HalfAdd,
}

/// What a run leaves: the scratch bytes, the V-pipe instruction count and the diagnostics.
type Outcome = (Vec<u8>, u64, Vec<String>);

fn run(
    profile: &'static ChipProfile,
    record: bool,
    op: Op,
    n: u32,
    offs: [u32; 3],
) -> std::result::Result<Outcome, String> {
    let out = Mutex::new(Vec::new());
    let report = Launch::new(1)
        .profile(profile)
        .record_trace(record)
        .run(|| {
            let mut pipe = TPipe::new();
            let mut buf = TBuf::<QuePosition::VECCALC>::new();
            pipe.init_buffer(&mut buf, 1, SCRATCH)?;
            let bytes = buf.get::<u8>()?;
            for i in 0..SCRATCH {
                bytes.set_value(i, (i.wrapping_mul(2654435761) >> 13) as u8 & 0x3F)?;
            }
            let f =
                |o: u32| -> Result<LocalTensor<f32>> { Ok(bytes.at(o)?.reinterpret_cast::<f32>()) };
            let h =
                |o: u32| -> Result<LocalTensor<f16>> { Ok(bytes.at(o)?.reinterpret_cast::<f16>()) };
            match op {
                Op::Add => add(&f(offs[0])?, &f(offs[1])?, &f(offs[2])?, n)?,
                Op::Mul => mul(&f(offs[0])?, &f(offs[1])?, &f(offs[2])?, n)?,
                Op::Max => max(&f(offs[0])?, &f(offs[1])?, &f(offs[2])?, n)?,
                Op::Adds => adds(&f(offs[0])?, &f(offs[1])?, 1.5f32, n)?,
                Op::Exp => exp(&f(offs[0])?, &f(offs[1])?, n)?,
                Op::CastToHalf => cast(&h(offs[0])?, &f(offs[1])?, RoundMode::CAST_RINT, n)?,
                Op::HalfAdd => add(&h(offs[0])?, &h(offs[1])?, &h(offs[2])?, n)?,
            }
            // Expose the mask state the call left: a level-0 call under MASK_PLACEHOLDER.
            let probe = f(SCRATCH - 1024)?;
            adds_l0(
                &probe,
                &probe,
                1.0f32,
                MASK_PLACEHOLDER,
                1,
                UnaryRepeatParams::default(),
            )?;
            let mut v = Vec::with_capacity(SCRATCH as usize);
            for i in 0..SCRATCH {
                v.push(bytes.get_value(i)?);
            }
            *out.lock().unwrap() = v;
            Ok(())
        })
        .map_err(|e| e.to_string())?;
    let diags = report.diagnostics().map(|d| d.message.clone()).collect();
    let v_count = report.blocks[0].count(Pipe::V);
    Ok((out.into_inner().unwrap(), v_count, diags))
}

fn op_strategy() -> impl Strategy<Value = Op> {
    prop_oneof![
        Just(Op::Add),
        Just(Op::Mul),
        Just(Op::Max),
        Just(Op::Adds),
        Just(Op::Exp),
        Just(Op::CastToHalf),
        Just(Op::HalfAdd),
    ]
}

/// Operand offsets in 32-byte blocks: disjoint, the destination on a source, or partial
/// overlaps (which take the general path on both sides).
fn layout_strategy() -> impl Strategy<Value = [u32; 3]> {
    prop_oneof![
        Just([0, 1600, 3200]),
        Just([0, 0, 2400]),
        Just([0, 2400, 0]),
        Just([0, 3, 2400]),
        (0u32..1600, 0u32..1600, 0u32..1600).prop_map(|(a, b, c)| [a, b, c]),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn fast_and_general_paths_agree(
        op in op_strategy(),
        n in prop_oneof![1u32..300, 300u32..12_000],
        layout in layout_strategy(),
        normal_mode in any::<bool>(),
    ) {
        let profile = if normal_mode { &ASCEND910 } else { &ASCEND910B };
        let offs = layout.map(|b| b * 32);
        let general = run(profile, true, op, n, offs);
        let fast = run(profile, false, op, n, offs);
        prop_assert_eq!(general, fast);
    }
}

/// A count long enough to need two 255-repeat instructions plus a tail on 910 (normal mode).
#[test]
fn long_count_splits_into_instructions_on_normal_mode_products() {
    let n = 255 * 128 + 60 * 128 + 7;
    let general = run(&ASCEND910, true, Op::HalfAdd, n, [0, 0, 80 * 1024]).unwrap();
    let fast = run(&ASCEND910, false, Op::HalfAdd, n, [0, 0, 80 * 1024]).unwrap();
    // Two instructions for the 315 full repeats (255 + 60), one for the tail, one probe.
    assert_eq!(fast.1, 4);
    assert_eq!(general, fast);
}
