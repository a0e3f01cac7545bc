//! Matrix multiplication (矩阵计算): the host tiling library of the Matmul high-level API
//! (`matmul_tiling::MatmulApiTiling`, `MultiCoreMatmulTiling`, `BatchMatmulTiling`) that fills a
//! [`TCubeTiling`]. The kernel-side Matmul is not modelled yet.

pub mod tiling;

pub use tiling::{
    matmul_get_tmp_buf_size, CubeFormat, MatmulTilingRequest, MmDataType, MmPosition,
    SysTilingTempBufSize, TCubeTiling, TilingKind,
};
