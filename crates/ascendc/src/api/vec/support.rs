//! Which element types each vector operation accepts on each product (`vector-ops.md` tables).

use crate::chip::Product;
use crate::dtype::{DType, DTypeSet};

/// An operation's type support: one set per product (910, 310P, A2, A3, 310B).
#[derive(Debug, Clone, Copy)]
pub struct OpSupport {
    /// Types on each product, in [`Product`] order.
    pub per_product: [DTypeSet; 5],
}

impl OpSupport {
    /// The same set on 310P, A2, A3 and 310B, and `on_910` on the training series.
    pub const fn uniform(on_910: DTypeSet, others: DTypeSet) -> OpSupport {
        OpSupport {
            per_product: [on_910, others, others, others, others],
        }
    }

    /// Types supported on `p`.
    pub const fn types(&self, p: Product) -> DTypeSet {
        self.per_product[p as usize]
    }
}

use DType::*;

const H_I32_F: DTypeSet = DTypeSet::of(&[Half, Int32, Float]);
const I16_H_I32_F: DTypeSet = DTypeSet::of(&[Int16, Half, Int32, Float]);

/// Add, Sub, Mul, Max, Min.
pub const ARITH: OpSupport = OpSupport::uniform(H_I32_F, I16_H_I32_F);
