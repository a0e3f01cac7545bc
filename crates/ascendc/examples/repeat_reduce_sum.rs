//! The RepeatReduceSum example kernel of the Ascend C documentation, ported line by line: 2048
//! halves of 1.0 are copied GM→VECIN, summed 128 at a time into 16 halves, and copied VECOUT→GM.
//!
//! Run: `cargo run --release --example repeat_reduce_sum`

use ascendc::prelude::*;

struct KernelReduce {
    pipe: TPipe,
    in_queue_src: TQue<QuePosition::VECIN, 1>,
    out_queue_dst: TQue<QuePosition::VECOUT, 1>,
    src_global: GlobalTensor<f16>,
    dst_global: GlobalTensor<f16>,
    src_data_size: i32,
    dst_data_size: i32,
    elems_in_one_repeate: i32,
    repeat: i32,
}

impl KernelReduce {
    fn new() -> Self {
        KernelReduce {
            pipe: TPipe::new(),
            in_queue_src: TQue::new(),
            out_queue_dst: TQue::new(),
            src_global: GlobalTensor::new(),
            dst_global: GlobalTensor::new(),
            src_data_size: 2048,
            dst_data_size: 16,
            elems_in_one_repeate: 128,
            repeat: 0,
        }
    }

    fn init(&mut self, src: GmAddr, dst_gm: GmAddr) -> Result<()> {
        self.src_global.set_global_buffer(src);
        self.dst_global.set_global_buffer(dst_gm);
        self.repeat = self.src_data_size / self.elems_in_one_repeate;
        self.pipe
            .init_buffer(&mut self.in_queue_src, 1, self.src_data_size as u32 * 2)?;
        self.pipe
            .init_buffer(&mut self.out_queue_dst, 1, self.dst_data_size as u32 * 2)
    }

    fn process(&mut self) -> Result<()> {
        self.copy_in()?;
        self.compute()?;
        self.copy_out()
    }

    fn copy_in(&mut self) -> Result<()> {
        let src_local = self.in_queue_src.alloc_tensor::<f16>()?;
        data_copy(&src_local, &self.src_global, self.src_data_size as u32)?;
        self.in_queue_src.enque(&src_local)
    }

    fn compute(&mut self) -> Result<()> {
        let src_local = self.in_queue_src.deque::<f16>()?;
        let dst_local = self.out_queue_dst.alloc_tensor::<f16>()?;
        repeat_reduce_sum(
            &dst_local,
            &src_local,
            self.repeat,
            self.elems_in_one_repeate,
            0,
            1,
            1,
            8,
        )?;
        self.out_queue_dst.enque(&dst_local)?;
        self.in_queue_src.free_tensor(&src_local)
    }

    fn copy_out(&mut self) -> Result<()> {
        let dst_local = self.out_queue_dst.deque::<f16>()?;
        data_copy(&self.dst_global, &dst_local, self.dst_data_size as u32)?;
        self.out_queue_dst.free_tensor(&dst_local)
    }
}

fn reduce_kernel(src: GmAddr, dst_gm: GmAddr) -> Result<()> {
    let mut op = KernelReduce::new();
    op.init(src, dst_gm)?;
    op.process()
}

fn main() {
    let src = GmBuffer::from_slice(&[f16::ONE; 2048]);
    let dst = GmBuffer::zeroed(16 * 2);
    let (a, b) = (src.addr(), dst.addr());
    let report = Launch::new(1)
        .run(|| reduce_kernel(a.clone(), b.clone()))
        .unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(1)
        });
    println!("{report}");
    println!("{}", dst.format::<f16>());
}
