//! The index family (索引计算): `ArithProgression` / `Arange`.

pub mod arith_progression;

pub use arith_progression::{arith_progression, arith_progression_max_min_tmp_size};
