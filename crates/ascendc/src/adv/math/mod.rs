//! The math family (数学计算): element-wise functions built from vector instructions, each
//! with its host helpers (`Get<Api>MaxMinTmpSize`, `Get<Api>TmpBufferFactorSize`).

pub mod exp_log;
pub mod gamma;
pub mod round;
pub mod trig;

pub use crate::adv::common::Tmp;
pub use exp_log::{erf, erfc, exp, log, log10, log2, power, PowerOperand};
pub use gamma::{digamma, lgamma};
pub use round::{
    axpy, ceil, clamp_max, clamp_min, cum_sum, floor, fmod, frac, round, sign, trunc, xor,
    CumSumConfig, CumSumInfo,
};
pub use trig::{acos, acosh, asin, asinh, atan, atanh, cos, cosh, sin, sinh, tan, tanh};
