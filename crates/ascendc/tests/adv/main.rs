//! The high-level API (`ascendc::adv`): one test binary, one module per family.

#[path = "../support/ub_harness/mod.rs"]
mod ub_harness;

mod activation;
mod batch_group_norm;
mod broadcast;
mod confusion_transpose;
mod exp_log;
mod gamma;
mod groupnorm;
mod layernorm;
mod layernorm_grad;
mod matmul;
mod matmul_tiling;
mod norm;
mod norm_stats;
mod quant;
mod reduce;
mod reduce_more;
mod round;
mod softmax;
mod softmax_310b;
mod softmax_flash;
mod softmax_flash_v1;
mod softmax_flash_v3;
mod softmax_grad;
mod topk;
mod trans_data;
mod transform;
mod trig;
