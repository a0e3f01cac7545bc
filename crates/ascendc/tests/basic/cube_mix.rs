//! MIX 1:2 kernels on Atlas A2: the cube core (AIC) of each AI Core computes a matmul tile into a
//! GM workspace and raises a cross-core flag; its two vector cores (AIV) wait for it and apply
//! LeakyReLU to their half of the tile. AIC and AIV have their own memories.

use crate::common;
use ascendc::core::CoreKind;
use ascendc::prelude::*;
use ascendc::{cross_core_set_flag, cross_core_wait_flag, is_aic, Category, Schedule};
use common::*;

const T: usize = 32; // tile edge
const GROUPS: u32 = 3; // blockDim in AIC units

fn halves(n: usize, seed: u32) -> Vec<f16> {
    (0..n)
        .map(|i| f16::from_f32((((i as u32 * 73 + seed) % 61) as f32 - 30.0) / 8.0))
        .collect()
}

/// The AIC side: C_g = A_g × B (32 × 32 × 32, half → float) into `ws[g]`.
fn cube_side(a: &GmAddr, b: &GmAddr, ws: &GmAddr) -> Result<()> {
    let g = get_block_idx();
    let mut pipe = TPipe::new();
    let mut qa1: TQue<QuePosition::A1, 1> = TQue::new();
    let mut qb1: TQue<QuePosition::B1, 1> = TQue::new();
    let mut qa2: TQue<QuePosition::A2, 1> = TQue::new();
    let mut qb2: TQue<QuePosition::B2, 1> = TQue::new();
    let mut qc: TQue<QuePosition::CO1, 1> = TQue::new();
    for q in [&mut qa1 as &mut dyn Init, &mut qb1, &mut qa2, &mut qb2] {
        q.init(&mut pipe, (T * T * 2) as u32)?;
    }
    pipe.init_buffer(&mut qc, 1, (T * T * 4) as u32)?;
    let (mut ga, mut gb, mut gw) = (
        GlobalTensor::<f16>::new(),
        GlobalTensor::<f16>::new(),
        GlobalTensor::<f32>::new(),
    );
    ga.set_global_buffer(a.clone());
    gb.set_global_buffer(b.clone());
    gw.set_global_buffer(ws.clone());
    let a1 = qa1.alloc_tensor::<f16>()?;
    data_copy(
        &a1,
        &ga.at((g as usize * T * T) as u64)?,
        Nd2NzParams::new(1, 32, 32, 0, 32, 32, 1, 0),
    )?;
    qa1.enque(&a1)?;
    let b1 = qb1.alloc_tensor::<f16>()?;
    data_copy(&b1, &gb, Nd2NzParams::new(1, 32, 32, 0, 32, 32, 1, 0))?;
    qb1.enque(&b1)?;
    let (a1, b1) = (qa1.deque::<f16>()?, qb1.deque::<f16>()?);
    let (a2, b2) = (qa2.alloc_tensor::<f16>()?, qb2.alloc_tensor::<f16>()?);
    for i in 0..2u32 {
        load_data(
            &a2.at(i * 512)?,
            &a1.at(i * 256)?,
            LoadData2DParams::new(0, 2, 2, 0, 0, false, 0),
        )?;
        load_data(
            &b2.at(i * 512)?,
            &b1.at(i * 256)?,
            LoadData2DParams::new(0, 2, 2, 0, 0, true, 0),
        )?;
    }
    qa2.enque(&a2)?;
    qb2.enque(&b2)?;
    qa1.free_tensor(&a1)?;
    qb1.free_tensor(&b1)?;
    let (a2, b2) = (qa2.deque::<f16>()?, qb2.deque::<f16>()?);
    let c = qc.alloc_tensor::<f32>()?;
    mmad(&c, &a2, &b2, (), MmadParams::new(32, 32, 32, false))?;
    qc.enque(&c)?;
    qa2.free_tensor(&a2)?;
    qb2.free_tensor(&b2)?;
    let c = qc.deque::<f32>()?;
    let p = FixpipeParamsV220::new(32, 32, 32, 32, false);
    fixpipe(
        &gw.at((g as usize * T * T) as u64)?,
        &c,
        None,
        p,
        CFG_ROW_MAJOR,
    )?;
    qc.free_tensor(&c)?;
    // Mode 2: each of this AI Core's two AIVs gets one count of flag 3 once PIPE_FIX is done.
    cross_core_set_flag(2, Pipe::FIX, 3)
}

/// Queue initialisation as a trait object, to initialise four queues in one loop.
trait Init {
    fn init(&mut self, pipe: &mut TPipe, bytes: u32) -> Result<()>;
}
impl<P: ascendc::position::QuePos> Init for TQue<P, 1> {
    fn init(&mut self, pipe: &mut TPipe, bytes: u32) -> Result<()> {
        pipe.init_buffer(self, 1, bytes)
    }
}

/// The AIV side: rows 16·sub … 16·sub + 15 of C_g, LeakyReLU(α = 0.125), into `out`.
fn vector_side(ws: &GmAddr, out: &GmAddr) -> Result<()> {
    let v = get_block_idx(); // 2·g + sub-block
    let half = (T * T / 2) as u32;
    let mut pipe = TPipe::new();
    let mut qin: TQue<QuePosition::VECIN, 1> = TQue::new();
    let mut qout: TQue<QuePosition::VECOUT, 1> = TQue::new();
    pipe.init_buffer(&mut qin, 1, half * 4)?;
    pipe.init_buffer(&mut qout, 1, half * 4)?;
    let (mut gw, mut go) = (GlobalTensor::<f32>::new(), GlobalTensor::<f32>::new());
    gw.set_global_buffer(ws.clone());
    go.set_global_buffer(out.clone());
    cross_core_wait_flag(2, Pipe::MTE2, 3)?;
    let x = qin.alloc_tensor::<f32>()?;
    data_copy(&x, &gw.at((v * half) as u64)?, half)?;
    qin.enque(&x)?;
    let x = qin.deque::<f32>()?;
    let y = qout.alloc_tensor::<f32>()?;
    leaky_relu(&y, &x, 0.125f32, half)?;
    qout.enque(&y)?;
    qin.free_tensor(&x)?;
    let y = qout.deque::<f32>()?;
    data_copy(&go.at((v * half) as u64)?, &y, half)?;
    qout.free_tensor(&y)
}

fn reference(a: &[f16], b: &[f16]) -> Vec<f32> {
    let mut out = Vec::new();
    for g in 0..GROUPS as usize {
        for i in 0..T {
            for j in 0..T {
                let mut acc = 0f32;
                for f in (0..T).step_by(16) {
                    let mut s = acc as f64;
                    for kk in f..f + 16 {
                        s += a[g * T * T + i * T + kk].to_f64() * b[kk * T + j].to_f64();
                    }
                    acc = s as f32;
                }
                out.push(if acc >= 0.0 { acc } else { acc * 0.125 });
            }
        }
    }
    out
}

#[test]
fn aic_matmul_then_aiv_leaky_relu_in_mix_1_2() {
    let a = halves(GROUPS as usize * T * T, 1);
    let b = halves(T * T, 2);
    let (ga, gb) = (GmBuffer::from_slice(&a), GmBuffer::from_slice(&b));
    let gw = GmBuffer::zeroed(GROUPS as usize * T * T * 4);
    let go = GmBuffer::zeroed(GROUPS as usize * T * T * 4);
    let (aa, ba, wa, oa) = (ga.addr(), gb.addr(), gw.addr(), go.addr());
    for schedule in [None, Some(Schedule::Reverse), Some(Schedule::Shuffle(5))] {
        let mut launch = Launch::new(GROUPS)
            .kernel_mode(KernelMode::Mix)
            .check_hazards(true);
        if let Some(s) = schedule {
            launch = launch.schedule(s);
        }
        let report = launch
            .run(|| {
                if is_aic() {
                    cube_side(&aa, &ba, &wa)
                } else {
                    vector_side(&wa, &oa)
                }
            })
            .unwrap_or_else(|e| panic!("{e}"));
        let kinds: Vec<CoreKind> = report.blocks.iter().map(|b| b.core.kind).collect();
        assert_eq!(
            kinds.iter().filter(|k| **k == CoreKind::Aic).count(),
            GROUPS as usize
        );
        assert_eq!(
            kinds.iter().filter(|k| **k == CoreKind::Aiv).count(),
            2 * GROUPS as usize
        );
        let got: Vec<u32> = go.to_vec::<f32>().iter().map(|x| x.to_bits()).collect();
        let want: Vec<u32> = reference(&a, &b).iter().map(|x| x.to_bits()).collect();
        assert_eq!(got, want, "{schedule:?}");
        assert!(is_aiv_free_of_cube(&report));
    }
}

/// No AIV of the report issued a cube instruction.
fn is_aiv_free_of_cube(report: &ascendc::LaunchReport) -> bool {
    report
        .blocks
        .iter()
        .filter(|b| b.core.kind == CoreKind::Aiv)
        .all(|b| b.count(Pipe::M) == 0 && b.count(Pipe::FIX) == 0)
}

#[test]
fn cores_of_a_mix_launch_have_their_own_memories() {
    // The AIV has no L0C; the AIC has no Unified Buffer.
    for (aic, want) in [
        (false, ["AIV_0 has no L0C", "UB, L1"]),
        (true, ["AIC_0 has no UB", "L1, L0A, L0B, L0C, BIAS, FIXBUF"]),
    ] {
        let e = Launch::new(1)
            .kernel_mode(KernelMode::Mix)
            .run(|| {
                let mut pipe = TPipe::new();
                // Placing the buffer is bookkeeping (kernels share init code across cores);
                // taking a tensor of it is the error.
                if is_aic() == aic {
                    if aic {
                        let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
                        pipe.init_buffer(&mut q, 1, 256)?;
                        q.alloc_tensor::<f32>()?;
                    } else {
                        let mut q: TQue<QuePosition::CO1, 1> = TQue::new();
                        pipe.init_buffer(&mut q, 1, 1024)?;
                        q.alloc_tensor::<f32>()?;
                    }
                }
                Ok(())
            })
            .expect_err("the buffer does not exist on that core");
        assert_eq!(e.errors[0].category, Category::Position);
        assert_mentions(&e.errors[0], &want);
    }
    // A cube-only launch: the AIC has no UB either.
    let e = Launch::new(1)
        .kernel_mode(KernelMode::Aic)
        .run(|| {
            let mut pipe = TPipe::new();
            let mut q: TQue<QuePosition::VECOUT, 1> = TQue::new();
            pipe.init_buffer(&mut q, 1, 256)?;
            q.alloc_tensor::<f32>().map(drop)
        })
        .expect_err("no UB on a cube core");
    assert_mentions(&e.errors[0], &["AIC_0 has no UB"]);
}
