//! The level-2 fast paths (dense vector operands, contiguous copies) against the general path
//! (`Launch::fast_paths(false)`): same UB bytes, same mask state afterwards, same instruction
//! counts and records, same diagnostics, on a normal-mode product (910, where a long count
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

/// What a run leaves: the scratch bytes, the V-pipe instruction count, the diagnostics and the
/// recorded instructions (empty with the record off).
type Outcome = (Vec<u8>, u64, Vec<String>, Vec<String>);

fn run(
    profile: &'static ChipProfile,
    fast: bool,
    record: bool,
    op: Op,
    n: u32,
    offs: [u32; 3],
) -> std::result::Result<Outcome, String> {
    let out = Mutex::new(Vec::new());
    let report = Launch::new(1)
        .profile(profile)
        .fast_paths(fast)
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
    let trace = &report.blocks[0].trace;
    let instrs = trace
        .instructions()
        .iter()
        .map(|i| format!("{:?} {} {:?}", i.pipe, i.api, trace.accesses(i)))
        .collect();
    Ok((out.into_inner().unwrap(), v_count, diags, instrs))
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
        record in any::<bool>(),
    ) {
        let profile = if normal_mode { &ASCEND910 } else { &ASCEND910B };
        let offs = layout.map(|b| b * 32);
        let general = run(profile, false, record, op, n, offs);
        let fast = run(profile, true, record, op, n, offs);
        prop_assert_eq!(general, fast);
    }
}

/// A count long enough to need two 255-repeat instructions plus a tail on 910 (normal mode).
#[test]
fn long_count_splits_into_instructions_on_normal_mode_products() {
    let n = 255 * 128 + 60 * 128 + 7;
    let general = run(&ASCEND910, false, true, Op::HalfAdd, n, [0, 0, 80 * 1024]).unwrap();
    let fast = run(&ASCEND910, true, true, Op::HalfAdd, n, [0, 0, 80 * 1024]).unwrap();
    // Two instructions for the 315 full repeats (255 + 60), one for the tail, one probe.
    assert_eq!(fast.1, 4);
    assert_eq!(general, fast);
}

/// What a copy run leaves: the output GM bytes, the recorded (pipe, accesses) of every
/// instruction, or the error.
type CopyOutcome = std::result::Result<(Vec<u8>, Vec<String>), String>;

/// Loads `count` elements from element `goff` of a GM buffer into UB at byte `uoff`, stores
/// them back to a second buffer at element `goff`, by level-2 counts (`level2`) or by the
/// level-0 `DataCopyParams {1, count·size/32, 0, 0}` the count lowers to.
fn copy_run<T: ascendc::Element>(level2: bool, count: u32, goff: u64, uoff: u32) -> CopyOutcome {
    const GM_BYTES: usize = 64 * 1024;
    let src: Vec<u8> = (0..GM_BYTES).map(|i| (i * 7 % 251) as u8).collect();
    let (sg, dg) = (GmBuffer::from_slice(&src), GmBuffer::zeroed(GM_BYTES));
    let (sa, da) = (sg.addr(), dg.addr());
    let report = Launch::new(1)
        .record_trace(true)
        .run(|| {
            let mut pipe = TPipe::new();
            let mut buf = TBuf::<QuePosition::VECCALC>::new();
            pipe.init_buffer(&mut buf, 1, 96 * 1024)?;
            let ub = buf.get::<u8>()?.at(uoff)?.reinterpret_cast::<T>();
            let mut s = GlobalTensor::<T>::new();
            s.set_global_buffer(sa.clone());
            let mut d = GlobalTensor::<T>::new();
            d.set_global_buffer(da.clone());
            let units = (count as usize * T::SIZE / 32) as u16;
            if level2 {
                data_copy(&ub, &s.at(goff)?, count)?;
                data_copy(&d.at(goff)?, &ub, count)?;
            } else {
                let p = DataCopyParams::new(1, units, 0, 0);
                data_copy(&ub, &s.at(goff)?, p)?;
                data_copy(&d.at(goff)?, &ub, p)?;
            }
            Ok(())
        })
        .map_err(|e| e.to_string())?;
    let record = report.blocks[0]
        .trace
        .instructions()
        .iter()
        .map(|i| {
            format!("{:?} {:?}", i.pipe, report.blocks[0].trace.accesses(i))
                .replace(&format!("Gm({})", sg.addr().region_id()), "Gm(src)")
                .replace(&format!("Gm({})", dg.addr().region_id()), "Gm(dst)")
        })
        .collect();
    Ok((dg.to_vec::<u8>(), record))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Whole 32-byte units: the level-2 fast path and the level-0 general path move the same
    /// bytes and record the same instructions, or both fail.
    #[test]
    fn level2_copies_match_their_level0_lowering(
        units in 1u32..600,
        goff_blocks in 0u64..2100,
        goff_skew in prop_oneof![Just(0u64), 1u64..8],
        uoff in prop_oneof![(0u32..1500).prop_map(|b| b * 32), 0u32..48_000],
        half in any::<bool>(),
    ) {
        let (general, fast) = if half {
            let count = units * 16;
            let goff = goff_blocks * 16 + goff_skew;
            (copy_run::<f16>(false, count, goff, uoff), copy_run::<f16>(true, count, goff, uoff))
        } else {
            let count = units * 8;
            let goff = goff_blocks * 8 + goff_skew;
            (copy_run::<f32>(false, count, goff, uoff), copy_run::<f32>(true, count, goff, uoff))
        };
        prop_assert_eq!(general.is_ok(), fast.is_ok(), "{:?} / {:?}", general.as_ref().err(), fast.as_ref().err());
        if let (Ok(g), Ok(f)) = (general, fast) {
            prop_assert!(g.0 == f.0, "the copies leave different GM bytes");
            prop_assert_eq!(g.1, f.1);
        }
    }
}
