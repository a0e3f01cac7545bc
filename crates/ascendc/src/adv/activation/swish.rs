//! `Silu` and `Swish` (激活函数/Silu, Swish): `x / (1 + e^(−β·x))` element-wise, β = 1 for Silu.
//! half and float; A2, A3 and 310P; no temporary space.
//!
//! As the device does it: one counter-mode pass of `Muls −β`, `Exp`, `Adds 1` into the
//! destination and `Div` source ÷ destination, in `T`.

use super::support::{check_type, counter_pass, swish_steps, HALF_FLOAT};
use crate::adv::common::{check_count, require, run, A2_A3_310P};
use crate::dtype::{DType, Element};
use crate::error::{Result, SourceLoc};
use crate::numeric::FloatArith;
use crate::{f16, LocalTensor};

/// `Silu<T, isReuseSource>(dst, src, dataSize)`: `dst[i] = src[i] / (1 + e^(−src[i]))` for the
/// first `count` elements. `T`: half or float.
#[track_caller]
pub fn silu<T: Element>(dst: &LocalTensor<T>, src: &LocalTensor<T>, count: u32) -> Result<()> {
    const API: &str = "Silu";
    run(API, SourceLoc::caller(), || {
        check(API, dst, src, count)?;
        if T::DTYPE == DType::Float {
            pass::<f32>(
                &dst.reinterpret_cast(),
                &src.reinterpret_cast(),
                count,
                -1.0,
            )
        } else {
            pass::<f16>(
                &dst.reinterpret_cast(),
                &src.reinterpret_cast(),
                count,
                f16::from_f32(-1.0),
            )
        }
    })
}

/// `Swish<T, isReuseSource>(dst, src, dataSize, scalarValue)`:
/// `dst[i] = src[i] / (1 + e^(−β·src[i]))` for the first `count` elements, β = `beta`. `T`: half
/// or float.
#[track_caller]
pub fn swish<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    count: u32,
    beta: T,
) -> Result<()> {
    const API: &str = "Swish";
    run(API, SourceLoc::caller(), || {
        check(API, dst, src, count)?;
        // `T(-1.0f · float(β))`: exact.
        let scale = -beta.to_f64();
        if T::DTYPE == DType::Float {
            pass::<f32>(
                &dst.reinterpret_cast(),
                &src.reinterpret_cast(),
                count,
                scale as f32,
            )
        } else {
            pass::<f16>(
                &dst.reinterpret_cast(),
                &src.reinterpret_cast(),
                count,
                f16::from_f64(scale),
            )
        }
    })
}

fn check<T: Element>(
    api: &'static str,
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    count: u32,
) -> Result<()> {
    check_type::<T>(api, HALF_FLOAT)?;
    require(api, A2_A3_310P)?;
    check_count(
        api,
        count,
        &[("dstTensor", dst.get_size()), ("srcTensor", src.get_size())],
    )
}

fn pass<U: FloatArith>(
    dst: &LocalTensor<U>,
    src: &LocalTensor<U>,
    count: u32,
    scale: U,
) -> Result<()> {
    counter_pass::<U>(count, || swish_steps(dst, src, scale))
}

/// `GetSiluTmpSize` / `GetSwishTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue)`:
/// `(0, 0)`, neither needs temporary space.
pub fn swish_tmp_size() -> (u32, u32) {
    (0, 0)
}
