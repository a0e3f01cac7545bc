//! The NZ→ND DataCopy example kernel of the Ascend C documentation, ported line by line: 32×32
//! halves are copied GM→VECIN→VECOUT unchanged, then written to GM converting NZ (16-column
//! groups) to ND.
//!
//! Run: `cargo run --release --example data_copy_nz2nd`

use ascendc::prelude::*;

struct KernelDataCopyUb2GmNz2Nd {
    pipe: TPipe,
    in_queue_src_vec_in: TQue<QuePosition::VECIN, 1>,
    in_queue_src_vec_out: TQue<QuePosition::VECOUT, 1>,
    src_global: GlobalTensor<f16>,
    dst_global: GlobalTensor<f16>,
    intri_params: Nz2NdParamsFull,
}

impl KernelDataCopyUb2GmNz2Nd {
    fn new() -> Self {
        KernelDataCopyUb2GmNz2Nd {
            pipe: TPipe::new(),
            in_queue_src_vec_in: TQue::new(),
            in_queue_src_vec_out: TQue::new(),
            src_global: GlobalTensor::new(),
            dst_global: GlobalTensor::new(),
            intri_params: Nz2NdParamsFull::default(),
        }
    }

    fn init(&mut self, dst_gm: GmAddr, src_gm: GmAddr) -> Result<()> {
        let intri_params_in = Nz2NdParamsFull::new(1, 32, 32, 1, 32, 32, 1);
        self.intri_params = intri_params_in;
        self.src_global.set_global_buffer(src_gm);
        self.dst_global.set_global_buffer(dst_gm);
        let bytes = self.intri_params.n_value as u32 * self.intri_params.d_value as u32 * 2;
        self.pipe
            .init_buffer(&mut self.in_queue_src_vec_in, 1, bytes)?;
        self.pipe
            .init_buffer(&mut self.in_queue_src_vec_out, 1, bytes)
    }

    fn process(&mut self) -> Result<()> {
        self.copy_in()?;
        self.compute()?;
        self.copy_out()
    }

    fn copy_in(&mut self) -> Result<()> {
        let src_local = self.in_queue_src_vec_in.alloc_tensor::<f16>()?;
        let count = self.intri_params.n_value as u32 * self.intri_params.d_value as u32;
        data_copy(&src_local, &self.src_global, count)?;
        self.in_queue_src_vec_in.enque(&src_local)
    }

    fn compute(&mut self) -> Result<()> {
        let dst_local = self.in_queue_src_vec_in.deque::<f16>()?;
        let src_out_local = self.in_queue_src_vec_out.alloc_tensor::<f16>()?;
        let count = self.intri_params.n_value as u32 * self.intri_params.d_value as u32;
        data_copy(&src_out_local, &dst_local, count)?;
        self.in_queue_src_vec_out.enque(&src_out_local)?;
        self.in_queue_src_vec_in.free_tensor(&dst_local)
    }

    fn copy_out(&mut self) -> Result<()> {
        let src_out_local_de = self.in_queue_src_vec_out.deque::<f16>()?;
        data_copy(&self.dst_global, &src_out_local_de, self.intri_params)?;
        self.in_queue_src_vec_out.free_tensor(&src_out_local_de)
    }
}

fn kernel_data_copy_nz2nd_ub2out(src_gm: GmAddr, dst_gm: GmAddr) -> Result<()> {
    let mut op = KernelDataCopyUb2GmNz2Nd::new();
    op.init(dst_gm, src_gm)?;
    op.process()
}

fn main() {
    let input: Vec<f16> = (1..=1024).map(|i| f16::from_f32(i as f32)).collect();
    let src = GmBuffer::from_slice(&input);
    let dst = GmBuffer::zeroed(1024 * 2);
    let (a, b) = (src.addr(), dst.addr());
    let report = Launch::new(1)
        .run(|| kernel_data_copy_nz2nd_ub2out(a.clone(), b.clone()))
        .unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(1)
        });
    println!("{report}");
    println!("{}", dst.format::<f16>());
}
