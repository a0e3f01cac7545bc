//! The basic API, the runtime and the checkers: one test binary (modules per area).

#[path = "../support/common/mod.rs"]
mod common;
mod fuzz_engine;
mod page_examples;
#[path = "../support/trace_json/mod.rs"]
mod trace_json;
#[path = "../support/ub_harness/mod.rs"]
mod ub_harness;

mod cmp_mask;
mod cube_broadcast;
mod cube_copy_out;
mod cube_examples;
mod cube_fill;
mod cube_hf32;
mod cube_load3d;
mod cube_load_gm;
mod cube_matmul;
mod cube_mix;
mod cube_sparse;
mod custom_pool;
mod data_copy_enhanced;
mod data_copy_nz;
mod data_copy_pad;
mod data_copy_products;
mod data_copy_slice;
mod data_movement;
mod debug_tools;
mod duplicate_forms;
mod fast_paths;
mod fill;
mod fused_ops;
mod fuzz;
mod gather;
mod group_barrier;
mod hazards;
mod init_global_memory;
mod int4;
mod kernel_surface;
mod launch;
mod layout;
mod multicore;
mod programming_model;
mod reduce_type;
mod reductions;
mod robustness;
mod scalar_compute;
mod sort;
mod sync_order;
mod system_resources;
mod tbuf_pool;
mod timing;
mod vector_mask;
mod vector_numerics;
mod vector_overlap;
mod vector_validation;
