//! The DataCopyPad example kernel of the Ascend C documentation, ported line by line: 20 halves
//! (40 bytes, not a multiple of 32) are copied GM→VECIN with 2 elements of right padding, 0 is
//! added, and the 20 halves are copied VECOUT→GM; GM past element 20 is left untouched.
//!
//! Run: `cargo run --release --example data_copy_pad`

use ascendc::prelude::*;

struct TestDataCopyPad {
    pipe: TPipe,
    in_queue_src: TQue<QuePosition::VECIN, 1>,
    out_queue_dst: TQue<QuePosition::VECOUT, 1>,
    src_global: GlobalTensor<f16>,
    dst_global: GlobalTensor<f16>,
    scalar: f16,
}

impl TestDataCopyPad {
    fn new() -> Self {
        TestDataCopyPad {
            pipe: TPipe::new(),
            in_queue_src: TQue::new(),
            out_queue_dst: TQue::new(),
            src_global: GlobalTensor::new(),
            dst_global: GlobalTensor::new(),
            scalar: f16::ZERO,
        }
    }

    fn init(&mut self, src_gm: GmAddr, dst_gm: GmAddr) -> Result<()> {
        self.src_global.set_global_buffer(src_gm);
        self.dst_global.set_global_buffer(dst_gm);
        self.pipe.init_buffer(&mut self.in_queue_src, 1, 32 * 2)?;
        self.pipe.init_buffer(&mut self.out_queue_dst, 1, 32 * 2)
    }

    fn process(&mut self) -> Result<()> {
        self.copy_in()?;
        self.compute()?;
        self.copy_out()
    }

    fn copy_in(&mut self) -> Result<()> {
        let src_local = self.in_queue_src.alloc_tensor::<f16>()?;
        let copy_params = DataCopyExtParams::new(1, 20 * 2, 0, 0, 0);
        let pad_params = DataCopyPadExtParams::new(true, 0, 2, f16::ZERO);
        data_copy_pad(&src_local, &self.src_global, copy_params, pad_params)?;
        self.in_queue_src.enque(&src_local)
    }

    fn compute(&mut self) -> Result<()> {
        let src_local = self.in_queue_src.deque::<f16>()?;
        let dst_local = self.out_queue_dst.alloc_tensor::<f16>()?;
        adds(&dst_local, &src_local, self.scalar, 20)?;
        self.out_queue_dst.enque(&dst_local)?;
        self.in_queue_src.free_tensor(&src_local)
    }

    fn copy_out(&mut self) -> Result<()> {
        let dst_local = self.out_queue_dst.deque::<f16>()?;
        let copy_params = DataCopyExtParams::new(1, 20 * 2, 0, 0, 0);
        data_copy_pad(&self.dst_global, &dst_local, copy_params, ())?;
        self.out_queue_dst.free_tensor(&dst_local)
    }
}

fn kernel_data_copy_pad_kernel(src_gm: GmAddr, dst_gm: GmAddr) -> Result<()> {
    let mut op = TestDataCopyPad::new();
    op.init(src_gm, dst_gm)?;
    op.process()
}

fn main() {
    let input: Vec<f16> = (1..=32).map(|i| f16::from_f32(i as f32)).collect();
    let src = GmBuffer::from_slice(&input);
    let dst = GmBuffer::zeroed(20 * 2);
    let (a, b) = (src.addr(), dst.addr());
    let report = Launch::new(1)
        .run(|| kernel_data_copy_pad_kernel(a.clone(), b.clone()))
        .unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(1)
        });
    println!("{report}");
    println!("{}", dst.format::<f16>());
}
