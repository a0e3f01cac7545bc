//! `Sigmoid` (激活函数/Sigmoid): `1 / (1 + e^(−x))` element-wise. half and float; A2, A3 and
//! 310P.
//!
//! As the device does it (the same on every product): in counter mode, chunk by chunk,
//! `Muls −1`, `Exp`, `Adds 1` into the destination, a chunk of ones (`Duplicate`) in the
//! temporary buffer, and `Div` ones ÷ destination. The chunk is the buffer's capacity in
//! elements of `T` (no rounding).

use super::support::{check_type, BIN, HALF_FLOAT, SAME};
use crate::adv::common::{barrier_v, check_count, counter_loop, require, run, Tmp, A2_A3_310P};
use crate::api::vec::binary::div_l0;
use crate::api::vec::duplicate::duplicate_l0;
use crate::api::vec::scalar::{adds_l0, muls_l0};
use crate::api::vec::unary::exp_l0;
use crate::dtype::{DType, Element};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::numeric::FloatArith;
use crate::{f16, LocalTensor, MASK_PLACEHOLDER};

const API: &str = "Sigmoid";

/// `Sigmoid<T, isReuseSource>(dst, src, [sharedTmpBuffer,] [calCount])`:
/// `dst[i] = 1 / (1 + e^(−src[i]))` for the first `count` elements (`srcTensor.GetSize()` in the
/// forms without it). `T`: half or float. `tmp` is the caller's buffer or the pipe's stack; it
/// holds one chunk of ones, at least `sizeof(T)` bytes (`GetSigmoidMaxMinTmpSize`: 256 bytes at
/// least, `count · sizeof(T)` for one pass).
#[track_caller]
pub fn sigmoid<T: Element>(
    dst: &LocalTensor<T>,
    src: &LocalTensor<T>,
    tmp: Tmp,
    count: u32,
) -> Result<()> {
    run(API, SourceLoc::caller(), || {
        check_type::<T>(API, HALF_FLOAT)?;
        require(API, A2_A3_310P)?;
        check_count(
            API,
            count,
            &[("dstTensor", dst.get_size()), ("srcTensor", src.get_size())],
        )?;
        let buf = tmp.buffer(API)?;
        let split = buf.get_size() / T::SIZE as u32;
        if split == 0 {
            return Err(SimError::new(
                Category::Size,
                API,
                format!(
                    "sharedTmpBuffer of {} bytes holds no element of {}: size it with GetSigmoidMaxMinTmpSize",
                    buf.get_size(),
                    T::DTYPE
                ),
            ));
        }
        if T::DTYPE == DType::Float {
            chunks::<f32>(
                &dst.reinterpret_cast(),
                &src.reinterpret_cast(),
                &buf.reinterpret_cast(),
                split,
                count,
            )
        } else {
            chunks::<f16>(
                &dst.reinterpret_cast(),
                &src.reinterpret_cast(),
                &buf.reinterpret_cast(),
                split,
                count,
            )
        }
    })
}

/// The counter-mode loop over chunks of `split` elements; `ones` is the temporary buffer.
fn chunks<U: FloatArith>(
    dst: &LocalTensor<U>,
    src: &LocalTensor<U>,
    ones: &LocalTensor<U>,
    split: u32,
    count: u32,
) -> Result<()> {
    counter_loop::<U>(count, split, |at| {
        let (d, s) = (dst.at(at)?, src.at(at)?);
        barrier_v()?;
        muls_l0(&d, &s, U::from_f64(-1.0), MASK_PLACEHOLDER, 1, SAME)?;
        barrier_v()?;
        exp_l0(&d, &d, MASK_PLACEHOLDER, 1, SAME)?;
        barrier_v()?;
        adds_l0(&d, &d, U::from_f64(1.0), MASK_PLACEHOLDER, 1, SAME)?;
        duplicate_l0(ones, U::from_f64(1.0), MASK_PLACEHOLDER, 1, 1, 8)?;
        barrier_v()?;
        div_l0(&d, ones, &d, MASK_PLACEHOLDER, 1, BIN)?;
        barrier_v()
    })
}

/// `GetSigmoidMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue)`: bytes of
/// temporary space for `elements` elements of `type_size` bytes, as `(max, min)`:
/// max(elements · type_size, 256) at most (one pass), 256 at least.
pub fn sigmoid_max_min_tmp_size(elements: u32, type_size: u32) -> (u32, u32) {
    ((elements * type_size).max(256), 256)
}
