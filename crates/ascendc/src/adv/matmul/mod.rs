//! Matrix multiplication (矩阵计算): the kernel-side Matmul (`kernel`: the cube core's walk over
//! C's blocks, issuing the basic API's copies, loads, Mmads and Fixpipes; `object`: the same with
//! element types chosen at run time; `spec`: MatmulType and MatmulConfig) and the host tiling
//! library (`matmul_tiling::MatmulApiTiling`, `MultiCoreMatmulTiling`, `BatchMatmulTiling`) that
//! fills a [`TCubeTiling`].

pub mod handle;
pub mod kernel;
pub mod kfc;
pub mod object;
pub mod spec;
pub mod tiling;

pub use handle::{Kernel, MatmulHandle};
pub use kernel::{MatmulCore, MmInput};
pub use object::{new_matmul, GmOperand, MatmulOps};
pub use spec::{IterateOrder, MatType, MatmulConfig, MatmulSpec, Schedule};
pub use tiling::{
    matmul_get_tmp_buf_size, CubeFormat, MatmulTilingRequest, MmDataType, MmPosition,
    SysTilingTempBufSize, TCubeTiling, TilingKind,
};
