//! # ascendc-ffi — the C ABI behind the C++ headers
//!
//! `include/kernel_operator.h` declares the Ascend C API in C++; every call forwards to one of the
//! `extern "C"` functions here, which run the `ascendc` implementation on the current simulated
//! core. Tensors cross the boundary as plain data ([`abi::AscLocal`], [`abi::AscGlobal`]), element
//! types as [`ascendc::DType`] indices, and every call carries its C++ source location, so errors
//! name the kernel's own file and line.
//!
//! A call returns 0 on success and 1 on failure; the C++ side then stops the block (an exception
//! caught by the launch trampoline), and the launch reports the block's first error.

pub mod abi;
pub mod acl;
pub mod acl_event;
pub mod acl_graph;
pub mod acl_kernel;
pub mod adv;
pub mod copy;
pub mod copy_pad;
pub mod cube;
pub mod debug;
pub mod debug_check;
pub mod ext_pool;
pub mod fault;
pub mod fill;
pub mod gather;
pub mod gm;
pub mod gm_bypass;
pub mod group_barrier;
pub mod handles;
pub mod init_global_memory;
pub mod launch;
pub mod layout;
pub mod local_alloc;
pub mod multicore;
pub mod order_sync;
pub mod pipe;
pub mod platform;
pub mod pool;
pub mod que_config;
pub mod reduce;
pub mod rtc;
pub mod scalar;
pub mod sort;
pub mod spm;
pub mod stack_buffer;
pub mod sync;
pub mod sys_cache;
pub mod sys_regs;
pub mod system;
pub mod tensor;
pub mod vec;
pub mod vec_copy;
pub mod vec_fused;

use std::path::PathBuf;

/// The directory holding `kernel_operator.h`, `tikicpulib.h`, `data_utils.h` and `acl/acl.h`.
pub fn include_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../include"))
}

/// The name of the static library to link (`-lascendc_ffi`).
pub const LIB_NAME: &str = "ascendc_ffi";
