//! A realistic multi-core Add kernel: blockDim 8, each block takes 2048 floats of each input,
//! tiled into 8 tiles of 256 and double-buffered (two buffers per queue), checked against a golden
//! computed on the host.
//!
//! Run: `cargo run --release --example add_custom`

use ascendc::prelude::*;

const TOTAL_LENGTH: u32 = 8 * 2048;
const USE_CORE_NUM: u32 = 8;
const BLOCK_LENGTH: u32 = TOTAL_LENGTH / USE_CORE_NUM;
const TILE_NUM: u32 = 8;
const BUFFER_NUM: u32 = 2;
const TILE_LENGTH: u32 = BLOCK_LENGTH / TILE_NUM / BUFFER_NUM;

struct KernelAdd {
    pipe: TPipe,
    in_queue_x: TQue<QuePosition::VECIN, 2>,
    in_queue_y: TQue<QuePosition::VECIN, 2>,
    out_queue_z: TQue<QuePosition::VECOUT, 2>,
    x_gm: GlobalTensor<f32>,
    y_gm: GlobalTensor<f32>,
    z_gm: GlobalTensor<f32>,
}

impl KernelAdd {
    fn new() -> Self {
        KernelAdd {
            pipe: TPipe::new(),
            in_queue_x: TQue::new(),
            in_queue_y: TQue::new(),
            out_queue_z: TQue::new(),
            x_gm: GlobalTensor::new(),
            y_gm: GlobalTensor::new(),
            z_gm: GlobalTensor::new(),
        }
    }

    fn init(&mut self, x: GmAddr, y: GmAddr, z: GmAddr) -> Result<()> {
        let offset = (BLOCK_LENGTH * get_block_idx()) as usize * 4;
        self.x_gm
            .set_global_buffer_with_size(x.add_bytes(offset), BLOCK_LENGTH as u64);
        self.y_gm
            .set_global_buffer_with_size(y.add_bytes(offset), BLOCK_LENGTH as u64);
        self.z_gm
            .set_global_buffer_with_size(z.add_bytes(offset), BLOCK_LENGTH as u64);
        self.pipe
            .init_buffer(&mut self.in_queue_x, BUFFER_NUM, TILE_LENGTH * 4)?;
        self.pipe
            .init_buffer(&mut self.in_queue_y, BUFFER_NUM, TILE_LENGTH * 4)?;
        self.pipe
            .init_buffer(&mut self.out_queue_z, BUFFER_NUM, TILE_LENGTH * 4)
    }

    fn process(&mut self) -> Result<()> {
        let loop_count = TILE_NUM * BUFFER_NUM;
        for i in 0..loop_count {
            self.copy_in(i)?;
            self.compute()?;
            self.copy_out(i)?;
        }
        Ok(())
    }

    fn copy_in(&mut self, progress: u32) -> Result<()> {
        let x_local = self.in_queue_x.alloc_tensor::<f32>()?;
        let y_local = self.in_queue_y.alloc_tensor::<f32>()?;
        let off = (progress * TILE_LENGTH) as u64;
        data_copy(&x_local, &self.x_gm.at(off), TILE_LENGTH)?;
        data_copy(&y_local, &self.y_gm.at(off), TILE_LENGTH)?;
        self.in_queue_x.enque(&x_local)?;
        self.in_queue_y.enque(&y_local)
    }

    fn compute(&mut self) -> Result<()> {
        let x_local = self.in_queue_x.deque::<f32>()?;
        let y_local = self.in_queue_y.deque::<f32>()?;
        let z_local = self.out_queue_z.alloc_tensor::<f32>()?;
        add(&z_local, &x_local, &y_local, TILE_LENGTH as i32)?;
        self.out_queue_z.enque(&z_local)?;
        self.in_queue_x.free_tensor(&x_local)?;
        self.in_queue_y.free_tensor(&y_local)
    }

    fn copy_out(&mut self, progress: u32) -> Result<()> {
        let z_local = self.out_queue_z.deque::<f32>()?;
        data_copy(
            &self.z_gm.at((progress * TILE_LENGTH) as u64),
            &z_local,
            TILE_LENGTH,
        )?;
        self.out_queue_z.free_tensor(&z_local)
    }
}

fn add_custom(x: GmAddr, y: GmAddr, z: GmAddr) -> Result<()> {
    let mut op = KernelAdd::new();
    op.init(x, y, z)?;
    op.process()
}

fn main() {
    let n = TOTAL_LENGTH as usize;
    let x: Vec<f32> = (0..n)
        .map(|i| ((i * 7919) % 1000) as f32 / 7.0 - 50.0)
        .collect();
    let y: Vec<f32> = (0..n).map(|i| ((i * 104_729) % 997) as f32 / 3.0).collect();
    let golden: Vec<f32> = x.iter().zip(&y).map(|(a, b)| a + b).collect();
    let (xg, yg, zg) = (
        GmBuffer::from_slice(&x),
        GmBuffer::from_slice(&y),
        GmBuffer::zeroed(n * 4),
    );
    let (xa, ya, za) = (xg.addr(), yg.addr(), zg.addr());
    let started = std::time::Instant::now();
    let result = Launch::new(USE_CORE_NUM).run(|| add_custom(xa.clone(), ya.clone(), za.clone()));
    let elapsed = started.elapsed();
    let report = match result {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            println!("FAIL");
            std::process::exit(1);
        }
    };
    let out = zg.to_vec::<f32>();
    let mismatches = out
        .iter()
        .zip(&golden)
        .filter(|(a, b)| a.to_bits() != b.to_bits())
        .count();
    let counts = report.total_counts();
    println!(
        "{} blocks on {} in {:.2?}: MTE2 {} / V {} / MTE3 {} instructions, {} diagnostics",
        report.blocks.len(),
        report.profile.soc,
        elapsed,
        counts[Pipe::MTE2 as usize],
        counts[Pipe::V as usize],
        counts[Pipe::MTE3 as usize],
        report.diagnostics().count()
    );
    println!("{} of {n} elements differ from the golden", mismatches);
    println!("{}", if mismatches == 0 { "PASS" } else { "FAIL" });
    if mismatches != 0 {
        std::process::exit(1);
    }
}
