//! The slice DataCopy example kernel of the Ascend C documentation, ported line by line: from a
//! GM tensor of shape {87, 3} (floats), dimension-0 indices 16..=70 in runs of 3 blocks with
//! stride 7 and rows 0 and 2 are gathered into a {48, 2} VECIN tensor, then copied to GM.
//!
//! Run: `cargo run --release --example data_copy_slice`

use ascendc::prelude::*;

struct KernelDataCopySliceGm2Ub<T: Element> {
    pipe: TPipe,
    in_queue_src_vec_in: TQue<QuePosition::VECIN, 1>,
    src_global: GlobalTensor<T>,
    dst_global: GlobalTensor<T>,
    dst_slice_info: [SliceInfo; K_MAX_DIM],
    src_slice_info: [SliceInfo; K_MAX_DIM],
    dim_value: u32,
}

impl<T: Element> KernelDataCopySliceGm2Ub<T> {
    fn new() -> Self {
        KernelDataCopySliceGm2Ub {
            pipe: TPipe::new(),
            in_queue_src_vec_in: TQue::new(),
            src_global: GlobalTensor::new(),
            dst_global: GlobalTensor::new(),
            dst_slice_info: [SliceInfo::default(); K_MAX_DIM],
            src_slice_info: [SliceInfo::default(); K_MAX_DIM],
            dim_value: 0,
        }
    }

    fn init(&mut self, dst_gm: GmAddr, src_gm: GmAddr) -> Result<()> {
        let src_slice_info_in = [SliceInfo::new(16, 70, 7, 3), SliceInfo::new(0, 2, 1, 1)];
        let dst_slice_info_in = [SliceInfo::new(0, 47, 0, 3), SliceInfo::new(0, 1, 0, 1)];
        let dim_value_in = 2u32;
        let dst_data_size = 96u32;
        self.dim_value = dim_value_in;
        let n = dim_value_in as usize;
        self.src_slice_info[..n].copy_from_slice(&src_slice_info_in[..n]);
        self.dst_slice_info[..n].copy_from_slice(&dst_slice_info_in[..n]);
        let src_gm_shape = [87u32, 3];
        let dst_gm_shape = [48u32, 2];
        let src_shape_info = ShapeInfo::new(&src_gm_shape, DataFormat::ND)?;
        let dst_shape_info = ShapeInfo::new(&dst_gm_shape, DataFormat::ND)?;
        self.src_global.set_global_buffer(src_gm);
        self.dst_global.set_global_buffer(dst_gm);
        self.src_global.set_shape_info(src_shape_info);
        self.dst_global.set_shape_info(dst_shape_info);
        self.pipe.init_buffer(
            &mut self.in_queue_src_vec_in,
            1,
            dst_data_size * T::SIZE as u32,
        )
    }

    fn process(&mut self) -> Result<()> {
        self.copy_in()?;
        self.copy_out()
    }

    fn copy_in(&mut self) -> Result<()> {
        let mut src_local = self.in_queue_src_vec_in.alloc_tensor::<T>()?;
        let ub_local_shape = [48u32, 2];
        let local_shape_info = ShapeInfo::new(&ub_local_shape, DataFormat::ND)?;
        src_local.set_shape_info(local_shape_info);
        data_copy(
            &src_local,
            &self.src_global,
            (
                &self.dst_slice_info[..],
                &self.src_slice_info[..],
                self.dim_value,
            ),
        )?;
        self.in_queue_src_vec_in.enque(&src_local)
    }

    fn copy_out(&mut self) -> Result<()> {
        let src_out_local = self.in_queue_src_vec_in.deque::<T>()?;
        data_copy(
            &self.dst_global,
            &src_out_local,
            (
                &self.dst_slice_info[..],
                &self.dst_slice_info[..],
                self.dim_value,
            ),
        )?;
        self.in_queue_src_vec_in.free_tensor(&src_out_local)
    }
}

fn kernel_data_copy_slice_out2ub(src_gm: GmAddr, dst_gm: GmAddr) -> Result<()> {
    let mut op = KernelDataCopySliceGm2Ub::<f32>::new();
    op.init(dst_gm, src_gm)?;
    op.process()
}

fn main() {
    // Rows 0 and 2: 16 zeros, 24 ones, 7 zeros, 24 ones, 16 zeros; row 1: 87 zeros.
    let row: Vec<f32> = [(16, 0.0), (24, 1.0), (7, 0.0), (24, 1.0), (16, 0.0)]
        .iter()
        .flat_map(|&(n, v)| std::iter::repeat_n(v, n))
        .collect();
    let input: Vec<f32> = [row.clone(), vec![0.0; 87], row].concat();
    let src = GmBuffer::from_slice(&input);
    let dst = GmBuffer::zeroed(96 * 4);
    let (a, b) = (src.addr(), dst.addr());
    let report = Launch::new(1)
        .run(|| kernel_data_copy_slice_out2ub(a.clone(), b.clone()))
        .unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(1)
        });
    println!("{report}");
    println!("{}", dst.format::<f32>());
}
