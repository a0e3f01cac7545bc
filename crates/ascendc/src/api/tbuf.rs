//! `TBuf`: scratch memory without queue semantics.

use super::context::with_core;
use super::tensor::{LocalTensor, Owner};
use crate::core::Core;
use crate::dtype::TensorElement;
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::position::{Hardware, QuePos};
use std::marker::PhantomData;

/// Scratch memory without queue semantics (`TBuf<pos>`).
pub struct TBuf<P: QuePos> {
    pub(super) hw: Hardware,
    pub(super) addr: u32,
    pub(super) len: u32,
    /// The allocation of a TBuf a `TBufPool` gave memory to (ended by the pool's `Reset`).
    pub(super) owner: Option<Owner>,
    /// The buffer handle and length of `InitStartBufHandle` (a custom pool places the TBuf).
    pub(super) start_handle: Option<(super::custom_pool::TBufHandle, u32)>,
    _p: PhantomData<P>,
}

impl<P: QuePos> Default for TBuf<P> {
    fn default() -> Self {
        Self::new()
    }
}

impl<P: QuePos> TBuf<P> {
    /// A TBuf with no memory yet.
    pub fn new() -> Self {
        TBuf {
            hw: Hardware::UB,
            addr: 0,
            len: 0,
            owner: None,
            start_handle: None,
            _p: PhantomData,
        }
    }

    fn check_init(&self, core: &Core, api: &'static str) -> Result<()> {
        Owner::check_live(self.owner, core, api, "the TBuf")?;
        core.check_buffer(api, self.hw)?;
        if self.len == 0 {
            Err(SimError::new(
                Category::QueueState,
                api,
                "this TBuf has no memory: call TPipe::InitBuffer on it first",
            ))
        } else {
            Ok(())
        }
    }

    /// The whole buffer as a tensor (`Get<T>()`).
    #[track_caller]
    pub fn get<T: TensorElement>(&self) -> Result<LocalTensor<T>> {
        let loc = SourceLoc::caller();
        with_core("TBuf::Get", loc, |core| {
            self.check_init(core, "TBuf::Get")?;
            Ok(self.tensor(self.addr, self.len))
        })
    }

    /// The first `count` elements of the buffer (`Get<T>(count)`); `count·sizeof(T)` must be a
    /// positive multiple of 32 bytes within the buffer.
    #[track_caller]
    pub fn get_count<T: TensorElement>(&self, count: u32) -> Result<LocalTensor<T>> {
        let loc = SourceLoc::caller();
        const API: &str = "TBuf::Get";
        with_core(API, loc, |core| {
            self.check_init(core, API)?;
            let bytes = T::bytes(count as u64);
            if count == 0 || !(count as u64 * T::BITS as u64).is_multiple_of(256) {
                return Err(SimError::new(
                    Category::Range,
                    API,
                    format!("parameter `len` = {count} elements ({bytes} bytes) must be > 0 and a multiple of 32 bytes"),
                ));
            }
            if bytes > self.len as u64 {
                return Err(SimError::new(
                    Category::Size,
                    API,
                    format!("parameter `len` = {count} elements ({bytes} bytes) exceeds the buffer's {} bytes", self.len),
                ));
            }
            Ok(self.tensor(self.addr, bytes as u32))
        })
    }

    /// `count` elements starting `offset` bytes into the buffer (`GetWithOffset<T>(count, offset)`);
    /// `offset` must be 32-byte aligned and the view must fit.
    #[track_caller]
    pub fn get_with_offset<T: TensorElement>(
        &self,
        count: u32,
        offset: u32,
    ) -> Result<LocalTensor<T>> {
        let loc = SourceLoc::caller();
        const API: &str = "TBuf::GetWithOffset";
        with_core(API, loc, |core| {
            self.check_init(core, API)?;
            if !offset.is_multiple_of(32) {
                return Err(SimError::new(
                    Category::Align,
                    API,
                    format!("parameter `bufOffset` = {offset} bytes must be 32-byte aligned"),
                ));
            }
            super::tensor::whole_bytes::<T>(API, "len", count as u64)?;
            let bytes = T::bytes(count as u64);
            if bytes + offset as u64 > self.len as u64 {
                return Err(SimError::new(
                    Category::Size,
                    API,
                    format!(
                        "{count} elements ({bytes} bytes) at offset {offset} exceed the buffer's {} bytes",
                        self.len
                    ),
                ));
            }
            Ok(self.tensor(self.addr + offset, bytes as u32))
        })
    }

    fn tensor<T: TensorElement>(&self, addr: u32, len: u32) -> LocalTensor<T> {
        LocalTensor::raw(P::POS, self.hw, addr, len, self.owner)
    }
}
