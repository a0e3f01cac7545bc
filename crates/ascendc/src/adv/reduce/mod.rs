//! The reduce family (归约操作): `Sum`, `Mean`, and the patterned `ReduceSum`, `ReduceMean`,
//! `ReduceMax` and `ReduceMin`.

pub mod mean;
mod pattern;
pub mod patterned;
pub mod sum;

pub use mean::{mean, MeanParams};
pub use patterned::{reduce_max, reduce_mean, reduce_min, reduce_sum, ReducePattern};
pub use sum::{sum, SumParams};
