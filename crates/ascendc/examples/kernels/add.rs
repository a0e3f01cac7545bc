//! The multi-core Add kernel used by the `add_custom` example and the throughput benchmark:
//! each block adds its share of two float vectors, tiled and double-buffered (two buffers per
//! queue, depth-2 queues), as the classic Ascend C `add_custom` sample does.

use ascendc::prelude::*;

/// Buffers per queue (double buffering).
pub const BUFFER_NUM: u32 = 2;

/// Tiling data passed to the kernel by value.
#[derive(Debug, Clone, Copy)]
pub struct AddTiling {
    /// Elements over all blocks.
    pub total_length: u32,
    /// Tiles per block (each split in `BUFFER_NUM` halves).
    pub tile_num: u32,
}

struct KernelAdd {
    pipe: TPipe,
    in_queue_x: TQue<QuePosition::VECIN, 2>,
    in_queue_y: TQue<QuePosition::VECIN, 2>,
    out_queue_z: TQue<QuePosition::VECOUT, 2>,
    x_gm: GlobalTensor<f32>,
    y_gm: GlobalTensor<f32>,
    z_gm: GlobalTensor<f32>,
    tile_num: u32,
    tile_length: u32,
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
            tile_num: 0,
            tile_length: 0,
        }
    }

    fn init(&mut self, x: GmAddr, y: GmAddr, z: GmAddr, tiling: AddTiling) -> Result<()> {
        let block_length = tiling.total_length / get_block_num();
        self.tile_num = tiling.tile_num;
        self.tile_length = block_length / tiling.tile_num / BUFFER_NUM;
        let offset = (block_length * get_block_idx()) as usize * 4;
        self.x_gm
            .set_global_buffer_with_size(x.add_bytes(offset), block_length as u64);
        self.y_gm
            .set_global_buffer_with_size(y.add_bytes(offset), block_length as u64);
        self.z_gm
            .set_global_buffer_with_size(z.add_bytes(offset), block_length as u64);
        let bytes = self.tile_length * 4;
        self.pipe
            .init_buffer(&mut self.in_queue_x, BUFFER_NUM, bytes)?;
        self.pipe
            .init_buffer(&mut self.in_queue_y, BUFFER_NUM, bytes)?;
        self.pipe
            .init_buffer(&mut self.out_queue_z, BUFFER_NUM, bytes)
    }

    fn process(&mut self) -> Result<()> {
        let loop_count = self.tile_num * BUFFER_NUM;
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
        let off = (progress * self.tile_length) as u64;
        data_copy(&x_local, &self.x_gm.at(off)?, self.tile_length)?;
        data_copy(&y_local, &self.y_gm.at(off)?, self.tile_length)?;
        self.in_queue_x.enque(&x_local)?;
        self.in_queue_y.enque(&y_local)
    }

    fn compute(&mut self) -> Result<()> {
        let x_local = self.in_queue_x.deque::<f32>()?;
        let y_local = self.in_queue_y.deque::<f32>()?;
        let z_local = self.out_queue_z.alloc_tensor::<f32>()?;
        add(&z_local, &x_local, &y_local, self.tile_length as i32)?;
        self.out_queue_z.enque(&z_local)?;
        self.in_queue_x.free_tensor(&x_local)?;
        self.in_queue_y.free_tensor(&y_local)
    }

    fn copy_out(&mut self, progress: u32) -> Result<()> {
        let z_local = self.out_queue_z.deque::<f32>()?;
        let off = (progress * self.tile_length) as u64;
        data_copy(&self.z_gm.at(off)?, &z_local, self.tile_length)?;
        self.out_queue_z.free_tensor(&z_local)
    }
}

/// `extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, AddTiling tiling)`.
pub fn add_custom(x: GmAddr, y: GmAddr, z: GmAddr, tiling: AddTiling) -> Result<()> {
    let mut op = KernelAdd::new();
    op.init(x, y, z, tiling)?;
    op.process()
}
