//! The Ascend C API layer: the kernel-facing types and functions, lowered onto `crate::core`.

pub mod availability;
pub mod cache;
pub(crate) mod context;
pub mod ctrl_spr;
pub mod cube;
pub mod custom_pool;
pub mod data_copy;
pub mod debug;
pub mod debug_check;
#[doc(hidden)]
pub mod foreign;
pub mod gm_bypass;
pub mod local_alloc;
pub mod prof;
pub mod que_config;
pub mod que_sync;
pub mod scalar_compute;
pub mod sort;
pub mod spm;
pub mod stack_buffer;
pub mod store_atomic;
pub mod sync;
pub mod sys_support;
pub mod sys_var;
pub mod system;
pub mod tbuf;
pub mod tbuf_pool;
pub mod tensor;
pub mod tpipe;
pub mod tque;
pub mod vec;
pub mod workspace;
