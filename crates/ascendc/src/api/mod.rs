//! The Ascend C API layer: the kernel-facing types and functions, lowered onto `crate::core`.

pub(crate) mod context;
pub mod cube;
pub mod data_copy;
pub mod debug;
pub mod local_alloc;
pub mod scalar_compute;
pub mod sort;
pub mod sync;
pub mod system;
pub mod tbuf;
pub mod tbuf_pool;
pub mod tensor;
pub mod tpipe;
pub mod tque;
pub mod vec;
pub mod workspace;
