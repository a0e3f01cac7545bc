//! A multi-core activation kernel built from the high-level API: each of 4 blocks takes its
//! 4096 elements of two float vectors in tiles of 1024 (double-buffered queues) and computes
//! `Sigmoid(x0)`, `Gelu(x0)` and `SwiGLU(x0, x1, β = 1)`, the temporary buffer sized by
//! `GetGeluMaxMinTmpSize`. The results are checked against float64 references.
//!
//! Run: `cargo run --release -p ascendc --example high_level_activation`

use ascendc::adv::activation::gelu::gelu_max_min_tmp_size;
use ascendc::adv::activation::{gelu, sigmoid, swiglu, GeluMode, Tmp};
use ascendc::prelude::*;

const BLOCK_DIM: u32 = 4;
const BLOCK_LENGTH: u32 = 4096;
const TILE: u32 = 1024;
const BETA: f32 = 1.0;
/// The three results of one tile, one after another in the output queue's buffer.
const OUTPUTS: u32 = 3;

struct KernelActivation {
    pipe: TPipe,
    in_x0: TQue<QuePosition::VECIN, 2>,
    in_x1: TQue<QuePosition::VECIN, 2>,
    out: TQue<QuePosition::VECOUT, 2>,
    tmp: TBuf<QuePosition::VECCALC>,
    x0_gm: GlobalTensor<f32>,
    x1_gm: GlobalTensor<f32>,
    y_gm: [GlobalTensor<f32>; 3],
}

impl KernelActivation {
    fn new(x0: GmAddr, x1: GmAddr, y: [GmAddr; 3], tmp_bytes: u32) -> Result<Self> {
        let offset = (BLOCK_LENGTH * get_block_idx()) as usize * 4;
        let gt = |a: &GmAddr| {
            let mut g = GlobalTensor::<f32>::new();
            g.set_global_buffer_with_size(a.add_bytes(offset), BLOCK_LENGTH as u64);
            g
        };
        let mut k = KernelActivation {
            pipe: TPipe::new(),
            in_x0: TQue::new(),
            in_x1: TQue::new(),
            out: TQue::new(),
            tmp: TBuf::new(),
            x0_gm: gt(&x0),
            x1_gm: gt(&x1),
            y_gm: [gt(&y[0]), gt(&y[1]), gt(&y[2])],
        };
        k.pipe.init_buffer(&mut k.in_x0, 2, TILE * 4)?;
        k.pipe.init_buffer(&mut k.in_x1, 2, TILE * 4)?;
        k.pipe.init_buffer(&mut k.out, 2, OUTPUTS * TILE * 4)?;
        k.pipe.init_buffer(&mut k.tmp, 1, tmp_bytes)?;
        Ok(k)
    }

    fn process(&mut self) -> Result<()> {
        for tile in 0..BLOCK_LENGTH / TILE {
            let off = (tile * TILE) as u64;
            let (a, b) = (
                self.in_x0.alloc_tensor::<f32>()?,
                self.in_x1.alloc_tensor::<f32>()?,
            );
            data_copy(&a, &self.x0_gm.at(off)?, TILE)?;
            data_copy(&b, &self.x1_gm.at(off)?, TILE)?;
            self.in_x0.enque(&a)?;
            self.in_x1.enque(&b)?;

            let (a, b) = (self.in_x0.deque::<f32>()?, self.in_x1.deque::<f32>()?);
            let y = self.out.alloc_tensor::<f32>()?;
            let tmp = self.tmp.get::<u8>()?;
            let part = |k: u32| -> Result<LocalTensor<f32>> {
                let mut t = y.at(k * TILE)?;
                t.set_size(TILE)?;
                Ok(t)
            };
            sigmoid(&part(0)?, &a, Tmp::Shared(&tmp), TILE)?;
            gelu(&part(1)?, &a, Tmp::Shared(&tmp), TILE, GeluMode::default())?;
            swiglu(&part(2)?, &a, &b, BETA, Tmp::Shared(&tmp), TILE)?;
            self.out.enque(&y)?;
            self.in_x0.free_tensor(&a)?;
            self.in_x1.free_tensor(&b)?;

            let y = self.out.deque::<f32>()?;
            for k in 0..OUTPUTS {
                data_copy(&self.y_gm[k as usize].at(off)?, &y.at(k * TILE)?, TILE)?;
            }
            self.out.free_tensor(&y)?;
        }
        Ok(())
    }
}

/// The worst error of `got` against `want`, relative to max(|want|, 1).
fn worst(got: &[f32], want: &[f64]) -> f64 {
    got.iter()
        .zip(want)
        .map(|(&g, &w)| (g as f64 - w).abs() / w.abs().max(1.0))
        .fold(0.0, f64::max)
}

fn main() {
    let n = (BLOCK_DIM * BLOCK_LENGTH) as usize;
    let x0: Vec<f32> = (0..n)
        .map(|i| ((i * 7919) % 4001) as f32 / 250.0 - 8.0)
        .collect();
    let x1: Vec<f32> = (0..n)
        .map(|i| ((i * 104_729) % 3989) as f32 / 249.0 - 8.0)
        .collect();
    let (g0, g1) = (GmBuffer::from_slice(&x0), GmBuffer::from_slice(&x1));
    let ys = [
        GmBuffer::zeroed(n * 4),
        GmBuffer::zeroed(n * 4),
        GmBuffer::zeroed(n * 4),
    ];
    let (a0, a1) = (g0.addr(), g1.addr());
    let y = [ys[0].addr(), ys[1].addr(), ys[2].addr()];
    // One pass per tile: the maximum of `GetGeluMaxMinTmpSize` (Sigmoid needs less; float SwiGLU
    // none).
    let tmp_bytes = gelu_max_min_tmp_size(TILE).0;
    let result = Launch::new(BLOCK_DIM)
        .run(|| KernelActivation::new(a0.clone(), a1.clone(), y.clone(), tmp_bytes)?.process());
    if let Err(e) = result {
        eprintln!("{e}");
        println!("FAIL");
        std::process::exit(1);
    }

    let sig: Vec<f64> = x0
        .iter()
        .map(|&x| 1.0 / (1.0 + (-x as f64).exp()))
        .collect();
    let gel: Vec<f64> = x0
        .iter()
        .map(|&x| {
            let x = x as f64;
            let inner = (2.0 / std::f64::consts::PI).sqrt() * (x + 0.044715 * x * x * x);
            0.5 * x * (1.0 + inner.tanh())
        })
        .collect();
    let swi: Vec<f64> = x0
        .iter()
        .zip(&x1)
        .map(|(&a, &b)| {
            let b = b as f64;
            a as f64 * b / (1.0 + (-(BETA as f64) * b).exp())
        })
        .collect();
    let mut pass = true;
    for (name, out, want) in [
        ("Sigmoid", &ys[0], &sig),
        ("Gelu", &ys[1], &gel),
        ("SwiGLU", &ys[2], &swi),
    ] {
        let err = worst(&out.to_vec::<f32>(), want);
        let ok = err < 1e-5;
        pass &= ok;
        println!("{name:8} {n} elements: max error {err:.2e} (relative to max(|ref|, 1))");
    }
    println!("{}", if pass { "PASS" } else { "FAIL" });
    if !pass {
        std::process::exit(1);
    }
}
