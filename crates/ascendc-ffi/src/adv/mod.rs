//! The high-level API's C ABI: one module per family, each an entry for its element-wise
//! kernel calls and one for its host helpers.

pub mod activation;
pub mod batch_group_norm;
pub mod broadcast;
pub mod confusion_transpose;
pub mod filter;
pub mod index;
pub mod layernorm;
pub mod layernorm_grad;
pub mod math_exp_log;
pub mod math_gamma;
pub mod math_round;
pub mod math_trig;
pub mod matmul;
pub mod matmul_tiling;
pub mod norm_stats;
pub mod normalization;
pub mod pad;
pub mod quantization;
pub mod reduce;
pub mod softmax;
pub mod softmax_flash;
pub mod softmax_flash_v1;
pub mod softmax_flash_v3;
pub mod softmax_grad;
pub mod topk;
pub mod trans_data;

use crate::abi::AscLocal;
use ascendc::adv::math::Tmp;
use ascendc::error::SimError;
use ascendc::{LocalTensor, TPipe, TensorElement};

/// The temporary space of a call: the `tmp` tensor, or (null) the stack buffer of `pipe`.
///
/// # Safety
/// `tmp` null or a valid handle; `pipe` null or from `ascendc_pipe_new`.
pub(crate) unsafe fn with_tmp<R>(
    api: &'static str,
    tmp: *const AscLocal,
    pipe: *const TPipe,
    f: impl FnOnce(Tmp) -> Result<R, SimError>,
) -> Result<R, SimError> {
    if let Some(t) = tmp.as_ref() {
        let t: LocalTensor<u8> = t.tensor()?;
        return f(Tmp::Shared(&t));
    }
    let pipe = pipe.as_ref().ok_or_else(|| {
        SimError::new(
            ascendc::Category::QueueState,
            api,
            "no TPipe exists in this kernel: without a sharedTmpBuffer the temporary space is the UB GetTPipePtr() has not given out",
        )
    })?;
    f(Tmp::Stack(pipe))
}

/// The two tensors of an element-wise call.
pub(crate) fn pair<T: TensorElement>(
    dst: *const AscLocal,
    src: *const AscLocal,
) -> Result<(LocalTensor<T>, LocalTensor<T>), SimError> {
    // SAFETY: the C++ side passes its tensors' handles.
    unsafe { Ok(((*dst).tensor()?, (*src).tensor()?)) }
}

/// Writes a host helper's pair of results.
///
/// # Safety
/// Both pointers valid for writes.
pub(crate) unsafe fn put_pair(a: *mut u32, b: *mut u32, (x, y): (u32, u32)) {
    *a = x;
    *b = y;
}
