//! `Power` (数学计算/Power): `base^exp` element-wise, with a tensor or a scalar for either
//! operand. half, float and int32; A2, A3 and 310P.
//!
//! As the device does it: float (half widened chunk by chunk) is `e^(exp · ln|base|)`, its sign
//! fixed for negative bases with integral exponents, 1 where the exponent is ±0 or the base is 1
//! (or −1 with an infinite exponent), NaN for negative finite bases with non-integral exponents;
//! int32 is square-and-multiply, one vector step per bit of the largest exponent, then one
//! multiplication per remaining unit, `1/x` truncated for negative exponents. See
//! `power_float` and `power_int` for the instruction sequences.

use super::power_float;
use super::power_int;
use crate::adv::common::{check_count, require, run, Tmp, A2_A3_310P};
use crate::api::vec::mask::{reset_mask, set_mask_count, set_mask_norm};
use crate::chip::Product;
use crate::dtype::{DType, Element};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::LocalTensor;

pub(super) const API: &str = "Power";

/// One operand of `Power`: a tensor, or a scalar applied to every element.
#[derive(Clone, Copy)]
pub enum PowerOperand<'a, T> {
    /// `src0Tensor` / `src1Tensor`.
    Tensor(&'a LocalTensor<T>),
    /// `src0Scalar` / `src1Scalar`.
    Scalar(T),
}

/// An operand seen as element type `U` (same size as `T`).
#[derive(Clone, Copy)]
pub(super) enum Operand<U> {
    Tensor(LocalTensor<U>),
    Scalar(U),
}

impl<T: Element> PowerOperand<'_, T> {
    fn view<U: Element>(self) -> Operand<U> {
        match self {
            PowerOperand::Tensor(t) => Operand::Tensor(t.reinterpret_cast()),
            PowerOperand::Scalar(s) => Operand::Scalar(bytemuck::cast(s)),
        }
    }
}

/// `Power<T, isReuseSource>(dst, base, exp, [sharedTmpBuffer,] [calCount])`: `dst[i] =
/// base[i]^exp[i]` for the first `count` elements, either operand a tensor or a scalar (not
/// both). `T`: half, float or int32. `tmp` is the caller's buffer or the pipe's stack; its
/// minimum depends on the form, type and product (`GetPowerMaxMinTmpSize`).
#[track_caller]
pub fn power<T: Element>(
    dst: &LocalTensor<T>,
    base: PowerOperand<T>,
    exp: PowerOperand<T>,
    tmp: Tmp,
    count: u32,
) -> Result<()> {
    run(API, SourceLoc::caller(), || {
        let mut sizes = vec![("dstTensor", dst.get_size())];
        if let PowerOperand::Tensor(t) = base {
            sizes.push(("src0Tensor", t.get_size()));
        }
        if let PowerOperand::Tensor(t) = exp {
            sizes.push(("src1Tensor", t.get_size()));
        }
        if sizes.len() == 1 {
            return Err(SimError::new(
                Category::Range,
                API,
                "base and exponent are both scalars: one of them must be a tensor",
            ));
        }
        check_count(API, count, &sizes)?;
        let v200 = require(API, A2_A3_310P)? == Product::Ascend310P;
        let form = Form::of(
            matches!(base, PowerOperand::Tensor(_)),
            matches!(exp, PowerOperand::Tensor(_)),
        );
        let buf = tmp.buffer(API)?;
        set_mask_count()?;
        match T::DTYPE {
            DType::Float => power_float::float(
                v200,
                form,
                &dst.reinterpret_cast(),
                base.view(),
                exp.view(),
                &buf,
                count,
            ),
            DType::Half => power_float::half(
                v200,
                &dst.reinterpret_cast(),
                base.view(),
                exp.view(),
                &buf,
                count,
            ),
            DType::Int32 => power_int::int(
                v200,
                form,
                &dst.reinterpret_cast(),
                base.view(),
                exp.view(),
                &buf,
                count,
            ),
            other => Err(SimError::new(
                Category::Type,
                API,
                format!("T = {other} is not supported: Power takes half, float or int32"),
            )),
        }?;
        set_mask_norm()?;
        reset_mask()
    })
}

/// Tensor^tensor, or one operand a scalar.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Form {
    TensorTensor,
    WithScalar,
}

impl Form {
    fn of(base_is_tensor: bool, exp_is_tensor: bool) -> Form {
        if base_is_tensor && exp_is_tensor {
            Form::TensorTensor
        } else {
            Form::WithScalar
        }
    }
}

/// Per-product factors of the temporary space (`calc proc`, 4-byte units per element).
struct Factors {
    half_tt: u32,
    int_tt: u32,
    float_tt: u32,
    half_ts: u32,
    int_ts: u32,
    float_ts: u32,
}

/// The factors of the host formulas on `product`; an error off A2, A3 and 310P.
fn factors(product: Product) -> Result<Factors> {
    match product {
        Product::Ascend310P => Ok(Factors {
            half_tt: 16,
            int_tt: 7,
            float_tt: 5,
            half_ts: 16,
            int_ts: 8,
            float_ts: 6,
        }),
        p if A2_A3_310P.contains(&p) => Ok(Factors {
            half_tt: 14,
            int_tt: 6,
            float_tt: 4,
            half_ts: 14,
            int_ts: 7,
            float_ts: 5,
        }),
        p => Err(SimError::new(
            Category::Unsupported,
            "GetPowerMaxMinTmpSize",
            format!("Power is not available on {p:?}: its page lists {A2_A3_310P:?}"),
        )),
    }
}

/// One operand's shape for the host helpers: `None` for a scalar (shape `{1}`), else its
/// element count.
pub type PowerShape = Option<u32>;

/// `GetPowerMaxMinTmpSize(srcShape1, srcShape2, typeIsInt, typeSize, isReuseSource, maxValue,
/// minValue)` on `product`: bytes of temporary space as `(max, min)`. The element count is the
/// base's, or the exponent's when the base is a scalar.
pub fn power_max_min_tmp_size(
    product: Product,
    base: PowerShape,
    exp: PowerShape,
    type_is_int: bool,
    type_size: u32,
) -> Result<(u32, u32)> {
    let f = factors(product)?;
    let tt = base.is_some() && exp.is_some();
    let n = base.or(exp).unwrap_or(1);
    let pick = |a: u32, b: u32| if tt { a } else { b };
    let one = if type_size == 4 {
        (n * type_size).max(256)
    } else {
        (n * type_size).max(128)
    };
    Ok(if type_is_int {
        (
            one * pick(f.int_tt, f.int_ts),
            256 * pick(f.int_tt, f.int_ts),
        )
    } else if type_size == 4 {
        (
            one * pick(f.float_tt, f.float_ts) + 256,
            256 * pick(f.float_tt, f.float_ts) + 256,
        )
    } else {
        (
            one * pick(f.half_tt, f.half_ts) + 256,
            256 * pick(f.half_tt, f.half_ts) / 2 + 256,
        )
    })
}

/// `GetPowerTmpBufferFactorSize(baseIsTensor, expIsTensor, typeIsInt, typeSize,
/// maxLiveNodeCount, extraBuffer)` on `product`, as `(maxLiveNodeCount, extraBuffer)`.
pub fn power_tmp_buffer_factor_size(
    product: Product,
    base_is_tensor: bool,
    exp_is_tensor: bool,
    type_is_int: bool,
    type_size: u32,
) -> Result<(u32, u32)> {
    let f = factors(product)?;
    let tt = base_is_tensor && exp_is_tensor;
    let pick = |a: u32, b: u32| if tt { a } else { b };
    Ok(if type_is_int {
        (pick(f.int_tt, f.int_ts), 0)
    } else if type_size == 4 {
        (pick(f.float_tt, f.float_ts), 256)
    } else {
        (pick(f.half_tt, f.half_ts), 256)
    })
}
