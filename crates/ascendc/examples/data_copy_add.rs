//! The DataCopy example kernel of the Ascend C documentation, ported line by line: two inputs of
//! 512 halves are copied GM→VECIN, added, and copied VECOUT→GM.
//!
//! Run: `cargo run --release --example data_copy_add`

use ascendc::prelude::*;

struct KernelDataCopy {
    pipe: TPipe,
    in_queue_src0: TQue<QuePosition::VECIN, 1>,
    in_queue_src1: TQue<QuePosition::VECIN, 1>,
    out_queue_dst: TQue<QuePosition::VECOUT, 1>,
    src0_global: GlobalTensor<f16>,
    src1_global: GlobalTensor<f16>,
    dst_global: GlobalTensor<f16>,
}

impl KernelDataCopy {
    fn new() -> Self {
        KernelDataCopy {
            pipe: TPipe::new(),
            in_queue_src0: TQue::new(),
            in_queue_src1: TQue::new(),
            out_queue_dst: TQue::new(),
            src0_global: GlobalTensor::new(),
            src1_global: GlobalTensor::new(),
            dst_global: GlobalTensor::new(),
        }
    }

    fn init(&mut self, src0_gm: GmAddr, src1_gm: GmAddr, dst_gm: GmAddr) -> Result<()> {
        self.src0_global.set_global_buffer(src0_gm);
        self.src1_global.set_global_buffer(src1_gm);
        self.dst_global.set_global_buffer(dst_gm);
        self.pipe.init_buffer(&mut self.in_queue_src0, 1, 512 * 2)?;
        self.pipe.init_buffer(&mut self.in_queue_src1, 1, 512 * 2)?;
        self.pipe.init_buffer(&mut self.out_queue_dst, 1, 512 * 2)
    }

    fn process(&mut self) -> Result<()> {
        self.copy_in()?;
        self.compute()?;
        self.copy_out()
    }

    fn copy_in(&mut self) -> Result<()> {
        let src0_local = self.in_queue_src0.alloc_tensor::<f16>()?;
        let src1_local = self.in_queue_src1.alloc_tensor::<f16>()?;
        data_copy(&src0_local, &self.src0_global, 512)?;
        data_copy(&src1_local, &self.src1_global, 512)?;
        self.in_queue_src0.enque(&src0_local)?;
        self.in_queue_src1.enque(&src1_local)
    }

    fn compute(&mut self) -> Result<()> {
        let src0_local = self.in_queue_src0.deque::<f16>()?;
        let src1_local = self.in_queue_src1.deque::<f16>()?;
        let dst_local = self.out_queue_dst.alloc_tensor::<f16>()?;
        add(&dst_local, &src0_local, &src1_local, 512)?;
        self.out_queue_dst.enque(&dst_local)?;
        self.in_queue_src0.free_tensor(&src0_local)?;
        self.in_queue_src1.free_tensor(&src1_local)
    }

    fn copy_out(&mut self) -> Result<()> {
        let dst_local = self.out_queue_dst.deque::<f16>()?;
        data_copy(&self.dst_global, &dst_local, 512)?;
        self.out_queue_dst.free_tensor(&dst_local)
    }
}

fn data_copy_kernel(src0_gm: GmAddr, src1_gm: GmAddr, dst_gm: GmAddr) -> Result<()> {
    let mut op = KernelDataCopy::new();
    op.init(src0_gm, src1_gm, dst_gm)?;
    op.process()
}

fn main() {
    let input: Vec<f16> = (1..=512).map(|i| f16::from_f32(i as f32)).collect();
    let src0 = GmBuffer::from_slice(&input);
    let src1 = GmBuffer::from_slice(&input);
    let dst = GmBuffer::zeroed(512 * 2);
    let (a, b, c) = (src0.addr(), src1.addr(), dst.addr());
    let report = Launch::new(1)
        .run(|| data_copy_kernel(a.clone(), b.clone(), c.clone()))
        .unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(1)
        });
    println!("{report}");
    println!("{}", dst.format::<f16>());
    // The expected values: element i of both inputs is i + 1, so the sum is 2i + 2 (exact in half).
    let expected: Vec<f16> = (1..=512).map(|i| f16::from_f32(2.0 * i as f32)).collect();
    if dst.to_vec::<f16>() == expected {
        println!("PASS: all 512 results equal the expected 2, 4, … 1024");
    } else {
        println!("FAIL: the results differ from the expected 2, 4, … 1024");
        std::process::exit(1);
    }
}
