//! The reduce family (归约操作): `Sum`, `Mean`, `ReduceXorSum`, and the patterned `ReduceSum`,
//! `ReduceMean`, `ReduceMax`, `ReduceMin`, `ReduceProd`, `ReduceAny` and `ReduceAll`.

pub mod logical;
pub mod mean;
mod pattern;
pub mod patterned;
pub mod sum;
pub mod xor_sum;

pub use logical::{reduce_all, reduce_any, reduce_prod};
pub use mean::{mean, MeanParams};
pub use patterned::{reduce_max, reduce_mean, reduce_min, reduce_sum, ReducePattern};
pub use sum::{sum, SumParams};
pub use xor_sum::reduce_xor_sum;
