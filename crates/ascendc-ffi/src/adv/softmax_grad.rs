//! SoftmaxGrad / SoftmaxGradFront's C ABI: `ascendc_adv_softmax_grad` (the tiling travels as
//! its 16 words, the shape as 4; the host helpers are the SoftMax family's
//! `ascendc_adv_softmax_tmp_size` / `ascendc_adv_softmax_tiling`, `which` = 2).

use super::with_tmp;
use crate::abi::{call, dtype, AscLoc, AscLocal};
use ascendc::adv::activation::softmax::{
    softmax_grad, softmax_grad_front, SoftMaxShapeInfo, SoftMaxTiling,
};
use ascendc::error::SimError;
use ascendc::{f16, Category, DType, Element, LocalTensor, TPipe, TensorElement};

/// `flags` bit 0: SoftmaxGradFront (else SoftmaxGrad).
const GRAD_FRONT_API: u32 = 1;
/// `flags` bit 1: SoftmaxGrad's `isFront`.
const GRAD_IS_FRONT: u32 = 2;
/// `flags` bit 2: SoftmaxGradFront's `isBasicBlock`.
const GRAD_BASIC_BLOCK: u32 = 4;
/// `flags` bit 3: `isDataFormatNZ`.
const GRAD_NZ: u32 = 8;

/// A SoftmaxGrad or SoftmaxGradFront call on data of type `elem` (`flags` as the constants
/// above); `tmp` null takes `pipe`'s stack buffer.
///
/// # Safety
/// Handles valid (`tmp` may be null); `tiling` 16 words; `shape` 4 words.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_softmax_grad(
    elem: u8,
    flags: u32,
    dst: *const AscLocal,
    grad: *const AscLocal,
    src: *const AscLocal,
    tmp: *const AscLocal,
    pipe: *const TPipe,
    tiling: *const u32,
    shape: *const u32,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let front_api = flags & GRAD_FRONT_API != 0;
        let name = if front_api {
            "SoftmaxGradFront"
        } else {
            "SoftmaxGrad"
        };
        let tl = SoftMaxTiling::from_words(&*(tiling as *const [u32; 16]));
        let s = std::slice::from_raw_parts(shape, 4);
        let sh = SoftMaxShapeInfo {
            src_m: s[0],
            src_k: s[1],
            ori_src_m: s[2],
            ori_src_k: s[3],
        };
        let nz = flags & GRAD_NZ != 0;
        fn go<T: TensorElement + Element>(
            name: &'static str,
            (front_api, flags, nz): (bool, u32, bool),
            (dst, grad, src): (*const AscLocal, *const AscLocal, *const AscLocal),
            (tmp, pipe): (*const AscLocal, *const TPipe),
            tl: &SoftMaxTiling,
            sh: SoftMaxShapeInfo,
        ) -> Result<(), SimError> {
            // SAFETY: the C++ side passes its tensors' handles and pipe.
            unsafe {
                let (d, g, x): (LocalTensor<T>, LocalTensor<T>, LocalTensor<T>) =
                    ((*dst).tensor()?, (*grad).tensor()?, (*src).tensor()?);
                with_tmp(name, tmp, pipe, |tm| {
                    if front_api {
                        let basic = flags & GRAD_BASIC_BLOCK != 0;
                        softmax_grad_front(&d, &g, &x, tm, tl, sh, basic, nz)
                    } else {
                        let front = flags & GRAD_IS_FRONT != 0;
                        softmax_grad(&d, &g, &x, tm, tl, front, sh, nz)
                    }
                })
            }
        }
        let args = (front_api, flags, nz);
        let io = (dst, grad, src);
        match dtype(elem)? {
            DType::Float => go::<f32>(name, args, io, (tmp, pipe), &tl, sh),
            DType::Half => go::<f16>(name, args, io, (tmp, pipe), &tl, sh),
            d => Err(SimError::new(
                Category::Type,
                name,
                format!("T = {d} is not supported: half or float"),
            )),
        }
    })
}
