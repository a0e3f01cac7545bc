//! A Matmul whose element types are known at run time (front ends, the mixed-mode server):
//! [`MatmulOps`] over a [`MatmulCore`] of the declared types, GM operands passed as
//! [`GmOperand`]s checked against the declaration.

use super::kernel::{MatmulCore, MmInput};
use super::spec::MatmulSpec;
use super::tiling::TCubeTiling;
use crate::dtype::{bf16, f16, DType, Element, TensorElement};
use crate::error::{Category, Result, SimError};
use crate::{GlobalTensor, GmAddr, LocalTensor, TPipe};

/// A GM operand of any element type: where it starts and how many elements it has (0: not
/// given).
#[derive(Clone)]
pub struct GmOperand {
    /// The first element.
    pub addr: GmAddr,
    /// Elements (`SetGlobalBuffer`'s size; 0 when not given).
    pub size: u64,
    /// The element type.
    pub dtype: DType,
}

impl GmOperand {
    /// The operand as a tensor of `T`, which must be its type.
    fn tensor<T: TensorElement>(&self, api: &'static str, what: &str) -> Result<GlobalTensor<T>> {
        if self.dtype != T::DTYPE {
            return Err(SimError::new(
                Category::Type,
                api,
                format!(
                    "{what} is a GlobalTensor of {} but the Matmul declares {}",
                    self.dtype,
                    T::DTYPE
                ),
            ));
        }
        let mut g = GlobalTensor::<T>::new();
        g.set_global_buffer_with_size(self.addr.clone(), self.size);
        Ok(g)
    }

    /// A tensor's operand.
    pub fn of<T: TensorElement>(g: &GlobalTensor<T>, api: &'static str) -> Result<GmOperand> {
        Ok(GmOperand {
            addr: g.gm(api)?.clone(),
            size: g.get_size(),
            dtype: T::DTYPE,
        })
    }
}

/// The kernel-side Matmul calls, element types checked at run time.
pub trait MatmulOps {
    /// The declaration.
    fn spec(&self) -> &MatmulSpec;
    /// `Init(&tiling)`.
    fn init(&mut self, pipe: &mut TPipe, tiling: &TCubeTiling) -> Result<()>;
    /// `SetOrgShape(M, N, Ka, Kb, Kc)`.
    fn set_org_shape(&mut self, s: [i32; 5]) -> Result<()>;
    /// `SetTail(m, n, k)` / `SetSingleShape`.
    fn set_tail(&mut self, m: i32, n: i32, k: i32) -> Result<()>;
    /// `SetTensorA(gm, trans)`.
    fn set_tensor_a(&mut self, a: &GmOperand, trans: bool) -> Result<()>;
    /// `SetTensorB(gm, trans)`.
    fn set_tensor_b(&mut self, b: &GmOperand, trans: bool) -> Result<()>;
    /// `SetTensorA/B(localTensor, trans)` (`b`: B) of a TSCM operand, as bytes.
    fn set_tensor_l1(&mut self, b: bool, t: &LocalTensor<u8>, trans: bool) -> Result<()>;
    /// `SetBias(gm)`.
    fn set_bias(&mut self, bias: &GmOperand) -> Result<()>;
    /// `DisableBias()`.
    fn disable_bias(&mut self);
    /// `SetQuantScalar(word)`.
    fn set_quant_scalar(&mut self, word: u64);
    /// `SetHF32(enableHF32, transMode)`.
    fn set_hf32(&mut self, enable: bool, trans_mode: i32) -> Result<()>;
    /// `SetSparseIndex(gm)`.
    fn set_sparse_index(&mut self, index: &GmOperand) -> Result<()>;
    /// `SetQuantVector(gm)`.
    fn set_quant_vector(&mut self, words: &GmOperand) -> Result<()>;
    /// `Iterate()`.
    fn iterate(&mut self) -> Result<bool>;
    /// (rows, columns) of the block `Iterate` computed and `GetTensorC` has not taken.
    fn block_shape(&self) -> Option<(u32, u32)>;
    /// `Iterate(enPartialSum, l0cTensor)`: the next block into the caller's CO1 tensor (bytes).
    fn iterate_into(&mut self, l0c: &LocalTensor<u8>) -> Result<bool>;
    /// `GetTensorC(gm, enAtomic, enSequentialWrite)`.
    fn get_tensor_c(&mut self, c: &GmOperand, atomic: u8, sequential: bool) -> Result<()>;
    /// `IterateAll(gm, enAtomic)`.
    fn iterate_all(&mut self, c: &GmOperand, atomic: u8) -> Result<()>;
    /// `IterateBatch(gm, batchA, batchB)` (`loops` 1) or `IterateNBatch(loops, batchA, batchB)`
    /// into the workspace `c`.
    fn iterate_batch(
        &mut self,
        c: &GmOperand,
        batch_a: u32,
        batch_b: u32,
        loops: u32,
    ) -> Result<()>;
    /// `End()`.
    fn end(&mut self) -> Result<()>;
}

impl<A: MmInput, C: Element, Bias: Element> MatmulOps for MatmulCore<A, C, Bias> {
    fn spec(&self) -> &MatmulSpec {
        MatmulCore::spec(self)
    }
    fn init(&mut self, pipe: &mut TPipe, tiling: &TCubeTiling) -> Result<()> {
        MatmulCore::init(self, pipe, tiling)
    }
    fn set_org_shape(&mut self, s: [i32; 5]) -> Result<()> {
        MatmulCore::set_org_shape(self, s[0], s[1], s[2], s[3], s[4])
    }
    fn set_tail(&mut self, m: i32, n: i32, k: i32) -> Result<()> {
        MatmulCore::set_tail(self, m, n, k)
    }
    fn set_tensor_a(&mut self, a: &GmOperand, trans: bool) -> Result<()> {
        let g = a.tensor::<A>("Matmul::SetTensorA", "A")?;
        MatmulCore::set_tensor_a(self, &g, trans)
    }
    fn set_tensor_b(&mut self, b: &GmOperand, trans: bool) -> Result<()> {
        let g = b.tensor::<A>("Matmul::SetTensorB", "B")?;
        MatmulCore::set_tensor_b(self, &g, trans)
    }
    fn set_tensor_l1(&mut self, b: bool, t: &LocalTensor<u8>, trans: bool) -> Result<()> {
        MatmulCore::set_tensor_l1(self, b, &t.reinterpret_cast::<A>(), trans)
    }
    fn set_bias(&mut self, bias: &GmOperand) -> Result<()> {
        let g = bias.tensor::<Bias>("Matmul::SetBias", "the bias")?;
        MatmulCore::set_bias(self, &g)
    }
    fn disable_bias(&mut self) {
        MatmulCore::disable_bias(self)
    }
    fn set_quant_scalar(&mut self, word: u64) {
        MatmulCore::set_quant_scalar(self, word)
    }
    fn set_hf32(&mut self, enable: bool, trans_mode: i32) -> Result<()> {
        MatmulCore::set_hf32(self, enable, trans_mode)
    }
    fn set_sparse_index(&mut self, index: &GmOperand) -> Result<()> {
        let g = index.tensor::<u8>("Matmul::SetSparseIndex", "the index matrix")?;
        MatmulCore::set_sparse_index(self, &g)
    }
    fn set_quant_vector(&mut self, words: &GmOperand) -> Result<()> {
        let g = words.tensor::<u64>("Matmul::SetQuantVector", "the quantisation words")?;
        MatmulCore::set_quant_vector(self, &g);
        Ok(())
    }
    fn iterate(&mut self) -> Result<bool> {
        MatmulCore::iterate(self)
    }
    fn block_shape(&self) -> Option<(u32, u32)> {
        MatmulCore::block_shape(self)
    }
    fn iterate_into(&mut self, l0c: &LocalTensor<u8>) -> Result<bool> {
        MatmulCore::iterate_into(self, &l0c.reinterpret_cast::<A::Acc>())
    }
    fn get_tensor_c(&mut self, c: &GmOperand, atomic: u8, sequential: bool) -> Result<()> {
        let g = c.tensor::<C>("Matmul::GetTensorC", "C")?;
        MatmulCore::get_tensor_c(self, &g, atomic, sequential)
    }
    fn iterate_all(&mut self, c: &GmOperand, atomic: u8) -> Result<()> {
        let g = c.tensor::<C>("Matmul::IterateAll", "C")?;
        MatmulCore::iterate_all(self, &g, atomic)
    }
    fn iterate_batch(
        &mut self,
        c: &GmOperand,
        batch_a: u32,
        batch_b: u32,
        loops: u32,
    ) -> Result<()> {
        let g = c.tensor::<C>("Matmul::IterateBatch", "C")?;
        let bias_batch = self.spec().cfg.bias_batch;
        MatmulCore::iterate_n_batch(self, &g, loops, batch_a, batch_b, bias_batch)
    }
    fn end(&mut self) -> Result<()> {
        MatmulCore::end(self)
    }
}

/// A Matmul of `spec`'s element types: A and B the same input type (half, bfloat16, float,
/// int8 or int4), C float/half (half input), float/bfloat16 (bfloat16), float (float),
/// int32/half/int8 (int8), int32 (int4); the bias float, half, bfloat16 or int32.
pub fn new_matmul(spec: MatmulSpec) -> Result<Box<dyn MatmulOps>> {
    use DType::*;
    macro_rules! bias {
        ($a:ty, $c:ty) => {
            match spec.bias.dtype {
                Float => Ok(Box::new(MatmulCore::<$a, $c, f32>::new(spec)) as Box<dyn MatmulOps>),
                Half => Ok(Box::new(MatmulCore::<$a, $c, f16>::new(spec)) as Box<dyn MatmulOps>),
                Bfloat16 => {
                    Ok(Box::new(MatmulCore::<$a, $c, bf16>::new(spec)) as Box<dyn MatmulOps>)
                }
                Int32 => Ok(Box::new(MatmulCore::<$a, $c, i32>::new(spec)) as Box<dyn MatmulOps>),
                _ => Err(unsupported(&spec)),
            }
        };
    }
    if spec.a.dtype != spec.b.dtype {
        return Err(unsupported(&spec));
    }
    match (spec.a.dtype, spec.c.dtype) {
        (Half, Float) => bias!(f16, f32),
        (Half, Half) => bias!(f16, f16),
        (Bfloat16, Float) => bias!(bf16, f32),
        (Bfloat16, Bfloat16) => bias!(bf16, bf16),
        (Float, Float) => bias!(f32, f32),
        (Int8, Int32) => bias!(i8, i32),
        (Int8, Half) => bias!(i8, f16),
        (Int8, Int8) => bias!(i8, i8),
        (Int4, Int32) => bias!(crate::dtype::Int4, i32),
        _ => Err(unsupported(&spec)),
    }
}

fn unsupported(spec: &MatmulSpec) -> SimError {
    SimError::new(
        Category::Unsupported,
        "Matmul",
        format!(
            "A {}, B {}, C {}, bias {}: not a type combination of the Matmul (half/bfloat16/float/int8/int4 inputs with their accumulator or converted outputs)",
            spec.a.dtype, spec.b.dtype, spec.c.dtype, spec.bias.dtype
        ),
    )
}
