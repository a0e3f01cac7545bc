//! The tensor-operator form (`dst = src0 + src1;` in Ascend C) as methods on the destination:
//! `dst.assign_add(&src0, &src1)` is the level-2 call with `count = dst.GetSize()`. Comparisons
//! (`dst = src0 < src1;`) are `dst.assign_compare(&src0, &src1, CMPMODE::LT)` with
//! `count = src0.GetSize()` (the destination holds one bit per element).

use super::binary;
use super::compare::{self, ByteMask, CMPMODE};
use crate::api::tensor::LocalTensor;
use crate::error::Result;
use crate::numeric::{Arith, BitArith, FloatArith};

impl<T: Arith> LocalTensor<T> {
    /// `dst = src0 + src1` over `self.get_size()` elements.
    #[track_caller]
    pub fn assign_add(&self, src0: &LocalTensor<T>, src1: &LocalTensor<T>) -> Result<()> {
        binary::add(self, src0, src1, self.get_size())
    }

    /// `dst = src0 - src1` over `self.get_size()` elements.
    #[track_caller]
    pub fn assign_sub(&self, src0: &LocalTensor<T>, src1: &LocalTensor<T>) -> Result<()> {
        binary::sub(self, src0, src1, self.get_size())
    }

    /// `dst = src0 * src1` over `self.get_size()` elements.
    #[track_caller]
    pub fn assign_mul(&self, src0: &LocalTensor<T>, src1: &LocalTensor<T>) -> Result<()> {
        binary::mul(self, src0, src1, self.get_size())
    }
}

impl<T: FloatArith> LocalTensor<T> {
    /// `dst = src0 / src1` over `self.get_size()` elements.
    #[track_caller]
    pub fn assign_div(&self, src0: &LocalTensor<T>, src1: &LocalTensor<T>) -> Result<()> {
        binary::div(self, src0, src1, self.get_size())
    }
}

impl<T: BitArith> LocalTensor<T> {
    /// `dst = src0 & src1` over `self.get_size()` elements.
    #[track_caller]
    pub fn assign_and(&self, src0: &LocalTensor<T>, src1: &LocalTensor<T>) -> Result<()> {
        binary::and(self, src0, src1, self.get_size())
    }

    /// `dst = src0 | src1` over `self.get_size()` elements.
    #[track_caller]
    pub fn assign_or(&self, src0: &LocalTensor<T>, src1: &LocalTensor<T>) -> Result<()> {
        binary::or(self, src0, src1, self.get_size())
    }
}

impl<U: ByteMask> LocalTensor<U> {
    /// `dst = src0 <cmp> src1` (one bit per element) over `src0.get_size()` elements.
    #[track_caller]
    pub fn assign_compare<T: Arith>(
        &self,
        src0: &LocalTensor<T>,
        src1: &LocalTensor<T>,
        cmp_mode: CMPMODE,
    ) -> Result<()> {
        compare::compare(self, src0, src1, cmp_mode, src0.get_size())
    }
}
