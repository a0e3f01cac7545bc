//! What the high-level APIs share: the temporary buffer (given, or the
//! UB the pipe has not given out), the counter-mode loop over chunks the buffer holds, and the
//! call wrapper that locates errors at the user's call and names the high-level API.

use crate::api::context::with_core;
use crate::api::stack_buffer::pop_stack_buffer;
use crate::api::system::{is_aic, is_aiv};
use crate::api::vec::mask::{reset_mask, set_mask_count, set_mask_norm, set_vector_mask};
use crate::chip::Product;
use crate::dtype::Element;
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::position::QuePosition;
use crate::{pipe_barrier, LocalTensor, MaskMode, Pipe, TPipe};

/// Bytes of one 32-byte block; chunk lengths are rounded down to whole blocks of elements.
pub const ONE_BLK_SIZE: u32 = 32;

/// Bytes one full vector repeat covers.
pub const ONE_REPEAT_BYTES: u32 = 256;

/// Where a high-level API takes its temporary space from: the caller's `sharedTmpBuffer`, or
/// (the overloads without it) the UB the pipe has not given out (`PopStackBuffer` at LCM).
#[derive(Clone, Copy)]
pub enum Tmp<'a> {
    /// `sharedTmpBuffer`: a `uint8_t` tensor the caller reserved (size from the API's
    /// `Get<Api>MaxMinTmpSize`).
    Shared(&'a LocalTensor<u8>),
    /// The stack buffer of the kernel's pipe.
    Stack(&'a TPipe),
}

impl Tmp<'_> {
    /// The buffer itself.
    pub(crate) fn buffer(self, api: &'static str) -> Result<LocalTensor<u8>> {
        match self {
            Tmp::Shared(t) => Ok(*t),
            Tmp::Stack(pipe) => {
                pop_stack_buffer::<u8, QuePosition::VECCALC>(pipe)?.ok_or_else(|| {
                    SimError::new(
                    Category::Resource,
                    api,
                    "no temporary space: the pipe has given out all of UB (pass a sharedTmpBuffer)",
                )
                })
            }
        }
    }
}

/// The product of the running core.
pub(crate) fn product(api: &'static str) -> Result<Product> {
    with_core(api, SourceLoc::caller(), |core| Ok(core.profile.product))
}

/// Runs high-level API `api` called at `loc`: every instruction it issues reports `loc`, and an
/// error of one of them names `api` and the instruction. On a cube core of a separated product
/// the API does nothing, as on the device (vector APIs return on AIC).
pub(crate) fn run(api: &'static str, loc: SourceLoc, f: impl FnOnce() -> Result<()>) -> Result<()> {
    if is_aic() && !is_aiv() {
        return Ok(());
    }
    loc.scope(f).map_err(|e| within(api, e))
}

/// `e`, raised by an instruction of `api`, as `api`'s error.
#[cold]
fn within(api: &'static str, e: SimError) -> SimError {
    if e.api == api {
        return e;
    }
    let mut out = SimError::new(e.category, api, format!("its {}: {}", e.api, e.message));
    out.location = e.location;
    out.block = e.block;
    out.core = e.core;
    out
}

/// Elements of one chunk: `tmp_bytes / bytes_per_elem`, rounded down to a whole number of
/// 32-byte blocks of elements (`/ 32 * 32`, as the device's implementations count). An error
/// when that is zero (the buffer is smaller than the API's minimum).
pub(crate) fn split_count(api: &'static str, tmp_bytes: u32, bytes_per_elem: u32) -> Result<u32> {
    let split = tmp_bytes / bytes_per_elem / ONE_BLK_SIZE * ONE_BLK_SIZE;
    if split == 0 {
        return Err(SimError::new(
            Category::Size,
            api,
            format!(
                "sharedTmpBuffer of {tmp_bytes} bytes is too small: one chunk needs {} bytes ({bytes_per_elem} per element, whole 32-element units); size it with the API's Get…MaxMinTmpSize",
                bytes_per_elem * ONE_BLK_SIZE
            ),
        ));
    }
    Ok(split)
}

/// The counter-mode loop of the element-wise APIs: `SetMaskCount`, then `body(offset)` for each
/// chunk of `split` elements with the counter set to the chunk's length (`SetVectorMask<T,
/// COUNTER>`), then `SetMaskNorm` and `ResetMask`.
pub(crate) fn counter_loop<T: Element>(
    count: u32,
    split: u32,
    mut body: impl FnMut(u32) -> Result<()>,
) -> Result<()> {
    let (loops, tail) = (count / split, count % split);
    set_mask_count()?;
    set_vector_mask::<T>(MaskMode::COUNTER, split as u64)?;
    for i in 0..loops {
        body(i * split)?;
    }
    if tail > 0 {
        set_vector_mask::<T>(MaskMode::COUNTER, tail as u64)?;
        body(loops * split)?;
    }
    set_mask_norm()?;
    reset_mask()
}

/// `PipeBarrier<PIPE_V>()` between dependent vector instructions.
pub(crate) fn barrier_v() -> Result<()> {
    pipe_barrier(Pipe::V)
}

/// The `calCount` check every element-wise API makes: at most the elements of each operand.
pub(crate) fn check_count(api: &'static str, count: u32, sizes: &[(&str, u32)]) -> Result<()> {
    for &(name, size) in sizes {
        if count > size {
            return Err(SimError::new(
                Category::Size,
                api,
                format!("parameter `calCount` = {count} exceeds the {size} elements of `{name}`"),
            ));
        }
    }
    Ok(())
}

/// A2, A3 and 310P: where the documentation lists most high-level APIs.
pub const A2_A3_310P: &[Product] = &[
    Product::Ascend910B,
    Product::Ascend910_93,
    Product::Ascend310P,
];

/// An error unless the running core's product is one of `products` (the API page's
/// "支持的型号" list); the product otherwise.
pub(crate) fn require(api: &'static str, products: &[Product]) -> Result<Product> {
    let p = product(api)?;
    if products.contains(&p) {
        Ok(p)
    } else {
        Err(SimError::new(
            Category::Unsupported,
            api,
            format!("{api} is not available on {p:?}: its page lists {products:?}"),
        ))
    }
}

/// `SetFlag<event>` + `WaitFlag<event>` on the lowest free event ID (the
/// `GetTPipePtr()->FetchEventID(event)` hand-over between the scalar and vector pipes).
pub(crate) fn sync_event(api: &'static str, event: crate::HardEvent) -> Result<()> {
    let id = with_core(api, SourceLoc::caller(), |core| {
        Ok(core.fetch_event_id(event))
    })?;
    crate::api::sync::set_flag(event, id)?;
    crate::api::sync::wait_flag(event, id)
}
