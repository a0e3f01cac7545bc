//! `Broadcast`'s C ABI: the kernel call and `GetBroadCastMaxMinTmpSize`.

use super::with_tmp;
use crate::abi::{call, dtype, AscLoc, AscLocal};
use ascendc::adv::pad::broadcast::{broadcast, broadcast_max_min_tmp_size};
use ascendc::error::SimError;
use ascendc::{bf16, f16, Category, DType, Element, LocalTensor, TPipe, TensorElement};

/// `Broadcast<T, dim, axis>` on elements of type `elem`: `dim` dimensions at `dst_shape` and
/// `src_shape`. `tmp` null takes `pipe`'s stack buffer.
///
/// # Safety
/// Tensor handles valid; both shapes valid for `dim` reads; `pipe` null or from
/// `ascendc_pipe_new`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_broadcast(
    elem: u8,
    dim: u32,
    axis: u32,
    dst: *const AscLocal,
    src: *const AscLocal,
    dst_shape: *const u32,
    src_shape: *const u32,
    tmp: *const AscLocal,
    pipe: *const TPipe,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        let ds = std::slice::from_raw_parts(dst_shape, dim as usize);
        let ss = std::slice::from_raw_parts(src_shape, dim as usize);
        let c = Call {
            dst,
            src,
            ds,
            ss,
            axis,
            tmp,
            pipe,
        };
        match dtype(elem)? {
            DType::Int8 => c.run::<i8>(),
            DType::Uint8 => c.run::<u8>(),
            DType::Int16 => c.run::<i16>(),
            DType::Uint16 => c.run::<u16>(),
            DType::Half => c.run::<f16>(),
            DType::Bfloat16 => c.run::<bf16>(),
            DType::Int32 => c.run::<i32>(),
            DType::Uint32 => c.run::<u32>(),
            DType::Float => c.run::<f32>(),
            other => Err(SimError::new(
                Category::Type,
                "Broadcast",
                format!("T = {other} is not supported: Broadcast takes 1-, 2- or 4-byte elements"),
            )),
        }
    })
}

/// The arguments of one [`ascendc_adv_broadcast`] call.
struct Call<'a> {
    dst: *const AscLocal,
    src: *const AscLocal,
    ds: &'a [u32],
    ss: &'a [u32],
    axis: u32,
    tmp: *const AscLocal,
    pipe: *const TPipe,
}

impl Call<'_> {
    fn run<T: Element + TensorElement>(&self) -> Result<(), SimError> {
        // SAFETY: the handles are valid as `ascendc_adv_broadcast` requires.
        unsafe {
            let d: LocalTensor<T> = (*self.dst).tensor()?;
            let s: LocalTensor<T> = (*self.src).tensor()?;
            with_tmp("Broadcast", self.tmp, self.pipe, |t| {
                broadcast(&d, &s, self.ds, self.ss, self.axis, t)
            })
        }
    }
}

/// `GetBroadCastMaxMinTmpSize` (`v200`: the platform is 310P): false, outputs untouched, when
/// the vendor's checks fail.
///
/// # Safety
/// `src`/`dst` valid for `src_rank`/`dst_rank` reads; `max`, `min` valid for writes.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_adv_broadcast_tmp_size(
    src: *const i64,
    src_rank: u32,
    dst: *const i64,
    dst_rank: u32,
    type_size: u32,
    v200: bool,
    max: *mut u32,
    min: *mut u32,
) -> bool {
    let dims = |p: *const i64, n: u32| -> Vec<u32> {
        if p.is_null() {
            return Vec::new();
        }
        std::slice::from_raw_parts(p, n as usize)
            .iter()
            .map(|&d| d as u32)
            .collect()
    };
    match broadcast_max_min_tmp_size(&dims(src, src_rank), &dims(dst, dst_rank), type_size, v200) {
        Some((hi, lo)) => {
            *max = hi;
            *min = lo;
            true
        }
        None => false,
    }
}
