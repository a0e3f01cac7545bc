//! GM initialisation: `Fill(gmWorkspaceAddr, size, value)` (张量变换), its earlier name
//! `InitGlobalMemory`, and the deprecated `InitOutput(gmWorkspaceAddr, size, value)`.
//!
//! On a vector core the UB the pipe has not given out (`PopStackBuffer` at LCM) is set to `value`
//! (`Duplicate`, at most 255 · 256 bytes; 255 · 32 for `InitOutput`), handed from PIPE_V to
//! PIPE_MTE3 (`SetFlag`/`WaitFlag` on an event ID fetched from the pipe) and copied to GM chunk by
//! chunk: `DataCopyPad` on A2/A3; on 310P a `DataCopy` of whole 32-byte units and scalar
//! `SetValue` for each chunk's last partial unit. `Fill` and `InitGlobalMemory` end with
//! `PipeBarrier<PIPE_MTE3>`. A cube core does nothing. The documentation allows `Fill` only before
//! `InitBuffer`; as on the device the staging buffer is what the pipe has not given out, so later
//! calls work while free UB remains.

use crate::api::context::with_core;
use crate::api::vec::duplicate::duplicate;
use crate::chip::Product;
use crate::core::CoreKind;
use crate::dtype::{DType, DTypeSet, Element};
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::position::QuePosition;
use crate::{
    data_copy, data_copy_pad, pipe_barrier, pop_stack_buffer, set_flag, wait_flag,
    DataCopyExtParams, DataCopyParams, GlobalTensor, HardEvent, LocalTensor, Pipe, TPipe,
};

/// Element types of `Fill` / `InitGlobalMemory` (A2, A3, 310P).
pub const FILL_TYPES: DTypeSet = DTypeSet::of(&[
    DType::Uint16,
    DType::Int16,
    DType::Half,
    DType::Uint32,
    DType::Int32,
    DType::Float,
]);

/// Element types of `InitOutput`: those of its `Duplicate`.
pub const INIT_OUTPUT_TYPES: DTypeSet = DTypeSet::of(&[
    DType::Uint16,
    DType::Int16,
    DType::Half,
    DType::Bfloat16,
    DType::Uint32,
    DType::Int32,
    DType::Float,
]);

/// Most repeats of one `Duplicate`.
const MAX_REPEAT_TIMES: u64 = 255;

/// The three spellings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    Fill,
    InitGlobalMemory,
    InitOutput,
}

impl Form {
    fn api(self) -> &'static str {
        match self {
            Form::Fill => "Fill",
            Form::InitGlobalMemory => "InitGlobalMemory",
            Form::InitOutput => "InitOutput",
        }
    }

    /// Bytes one chunk holds at most: `Duplicate`'s 255 repeats of 256 bytes (of 32 bytes for
    /// `InitOutput`).
    fn burst_bytes(self) -> u64 {
        MAX_REPEAT_TIMES * if self == Form::InitOutput { 32 } else { 256 }
    }
}

/// How the staged value reaches GM.
#[derive(Debug, Clone, Copy)]
enum Route {
    /// `DataCopyPad` of each chunk (A2, A3).
    Pad,
    /// `DataCopy` of whole 32-byte units, `SetValue` for the rest (310P).
    Units,
}

/// `Fill<T>(gmWorkspaceAddr, size, value)`: sets the first `size` elements of `gm` to `value`.
/// `T`: uint16, int16, half, uint32, int32, float. A2, A3 and 310P; `size` must not exceed the
/// tensor's `SetGlobalBuffer` size (or its allocation when none was given). Calls on one core
/// with different values need MTE3 → V synchronisation between them, and UB use after it MTE3 →
/// MTE2; other blocks see the values after a `SyncAll`.
#[track_caller]
pub fn fill<T: Element>(pipe: &TPipe, gm: &GlobalTensor<T>, size: u64, value: T) -> Result<()> {
    run(Form::Fill, pipe, gm, size, value, SourceLoc::caller())
}

/// `InitGlobalMemory<T>(gmWorkspaceAddr, size, value)`: the earlier name of [`fill`].
#[track_caller]
pub fn init_global_memory<T: Element>(
    pipe: &TPipe,
    gm: &GlobalTensor<T>,
    size: u64,
    value: T,
) -> Result<()> {
    run(
        Form::InitGlobalMemory,
        pipe,
        gm,
        size,
        value,
        SourceLoc::caller(),
    )
}

/// `InitOutput<T>(gmWorkspaceAddr, size, value)` (deprecated for [`fill`]): the same on A2/A3 in
/// chunks of 255 · 32 bytes and without the closing `PipeBarrier<PIPE_MTE3>`; it does nothing on
/// the other products (warned).
#[track_caller]
pub fn init_output<T: Element>(
    pipe: &TPipe,
    gm: &GlobalTensor<T>,
    size: u32,
    value: T,
) -> Result<()> {
    run(
        Form::InitOutput,
        pipe,
        gm,
        size as u64,
        value,
        SourceLoc::caller(),
    )
}

/// Checks a call; `None` when it has nothing to do on this core.
fn plan<T: Element>(
    form: Form,
    gm: &GlobalTensor<T>,
    size: u64,
    loc: SourceLoc,
) -> Result<Option<Route>> {
    let api = form.api();
    with_core(api, loc, |core| {
        if core.id.kind == CoreKind::Aic {
            return Ok(None);
        }
        let product = core.profile.product;
        let route = match product {
            Product::Ascend910B | Product::Ascend910_93 => Route::Pad,
            Product::Ascend310P if form != Form::InitOutput => Route::Units,
            _ if form == Form::InitOutput => {
                core.warn(
                    Category::Unsupported,
                    api,
                    format!("InitOutput does nothing on {} (it is implemented for A2/A3 only): use Fill", core.profile),
                    loc,
                );
                return Ok(None);
            }
            _ => {
                return Err(SimError::new(
                    Category::Unsupported,
                    api,
                    format!(
                        "{api} is not available on {} (A2, A3 and the 310P AI Core only)",
                        core.profile
                    ),
                ))
            }
        };
        let types = if form == Form::InitOutput {
            INIT_OUTPUT_TYPES
        } else {
            FILL_TYPES
        };
        if !types.contains(T::DTYPE) {
            return Err(SimError::new(
                Category::Type,
                api,
                format!("T = {} is not supported (supported: {types})", T::DTYPE),
            ));
        }
        let addr = gm.get_phy_addr().ok_or_else(|| {
            SimError::new(
                Category::Memory,
                api,
                "gmWorkspaceAddr has no GM buffer: call SetGlobalBuffer first",
            )
        })?;
        let avail = if gm.get_size() > 0 {
            gm.get_size()
        } else {
            ((addr.region_len() - addr.offset()) / T::SIZE) as u64
        };
        if size > avail {
            return Err(SimError::range(
                api,
                "size",
                size,
                format!("[0, {avail}] (the elements of gmWorkspaceAddr)"),
            ));
        }
        Ok(Some(route))
    })
}

/// Records `e` as the call's error.
fn fail<R>(api: &'static str, loc: SourceLoc, e: SimError) -> Result<R> {
    with_core(api, loc, |_| Err(e))
}

#[track_caller]
fn run<T: Element>(
    form: Form,
    pipe: &TPipe,
    gm: &GlobalTensor<T>,
    size: u64,
    value: T,
    loc: SourceLoc,
) -> Result<()> {
    let api = form.api();
    let Some(route) = plan(form, gm, size, loc)? else {
        return Ok(());
    };
    let Some(stage) = pop_stack_buffer::<T, QuePosition::VECCALC>(pipe)? else {
        return fail(
            api,
            loc,
            SimError::new(
                Category::Size,
                api,
                "no space left to allocate in Unified Buffer: the staging buffer is the UB the pipe has not given out",
            ),
        );
    };
    let chunk = (stage.get_size() as u64).min(form.burst_bytes() / T::SIZE as u64);
    duplicate(&stage, value, chunk as u32)?;
    let event = pipe.fetch_event_id(HardEvent::V_MTE3)?;
    set_flag(HardEvent::V_MTE3, event)?;
    wait_flag(HardEvent::V_MTE3, event)?;
    let (rounds, tail) = (size / chunk, size % chunk);
    for k in 0..rounds {
        copy_chunk(route, &gm.at(k * chunk)?, &stage, chunk, value)?;
    }
    if tail != 0 {
        copy_chunk(route, &gm.at(rounds * chunk)?, &stage, tail, value)?;
    }
    if form != Form::InitOutput {
        pipe_barrier(Pipe::MTE3)?;
    }
    Ok(())
}

/// Copies the first `n` staged elements to `dst`.
#[track_caller]
fn copy_chunk<T: Element>(
    route: Route,
    dst: &GlobalTensor<T>,
    src: &LocalTensor<T>,
    n: u64,
    value: T,
) -> Result<()> {
    let bytes = n * T::SIZE as u64;
    match route {
        Route::Pad => data_copy_pad(
            dst,
            src,
            DataCopyExtParams::new(1, bytes as u32, 0, 0, 0),
            (),
        ),
        Route::Units => {
            let units = bytes / 32;
            if units > 0 {
                data_copy(dst, src, DataCopyParams::new(1, units as u16, 0, 0))?;
            }
            for i in units * 32 / T::SIZE as u64..n {
                dst.set_value(i, value)?;
            }
            Ok(())
        }
    }
}
