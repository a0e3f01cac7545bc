//! The sort family (排序操作): `TopK` and its host helpers, and the host side of the
//! high-level `Sort`'s temporary-space query.

pub mod sort_tiling;
pub mod topk;

pub use topk::{topk, TopKInfo, TopKMode, TopKOptions, TopkTiling};
