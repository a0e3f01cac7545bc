//! The normalization family (归一化操作): `RmsNorm`, `LayerNorm` (both forms), `Normalize`,
//! `DeepNorm`, `BatchNorm`, `GroupNorm`, `WelfordUpdate` / `WelfordFinalize`, `LayerNormGrad` / `LayerNormGradBeta`, with
//! their host tiling helpers.

pub mod batchnorm;
pub mod deepnorm;
pub mod groupnorm;
pub mod layernorm;
pub mod layernorm_grad;
pub mod normalize;
pub mod rmsnorm;
pub mod welford;

pub use batchnorm::{
    batch_norm, batch_norm_max_min_tmp_size, batch_norm_tiling_info, BatchNormTiling,
};
pub use deepnorm::{deep_norm, deep_norm_max_min_tmp_size, deep_norm_tiling_info, DeepNormTiling};
pub use groupnorm::{
    group_norm, group_norm_max_min_tmp_size, group_norm_tiling_info, GroupNormTiling,
};
pub use layernorm::{
    layer_norm, layer_norm_max_min_tmp_size, layer_norm_nd_tiling_info, layer_norm_rstd,
    layer_norm_rstd_max_min_tmp_size, layer_norm_separate_tiling_info, LayerNormConfig,
    LayerNormPara, LayerNormSeparateTiling, LayerNormTiling, LNCFG_NORM,
};
pub use layernorm_grad::{
    layer_norm_grad, layer_norm_grad_beta, layer_norm_grad_beta_max_min_tmp_size,
    layer_norm_grad_beta_tiling_info, layer_norm_grad_max_min_tmp_size,
    layer_norm_grad_tiling_info, LayerNormGradBetaTiling, LayerNormGradTiling,
};
pub use normalize::{
    normalize, normalize_max_min_tmp_size, NormalizeConfig, NormalizePara, NLCFG_NORM,
};
pub use rmsnorm::{rms_norm, rms_norm_max_min_tmp_size, rms_norm_tiling_info, RmsNormTiling};
pub use welford::{
    welford_finalize, welford_finalize_max_min_tmp_size, welford_update,
    welford_update_max_min_tmp_size, WelfordFinalizePara, WelfordUpdateParam,
};
