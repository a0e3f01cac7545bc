//! The SPM buffer of a pipe (`TPipe::InitSpmBuffer`, `WriteSpmBuffer`, `ReadSpmBuffer`): a spill
//! area of the size given at initialisation for data that does not fit in UB, either in a GM
//! workspace of the block or (910, 310P) in L1 carved from the pipe. Writes move UB → SPM on
//! PIPE_MTE3; reads move SPM → UB on PIPE_MTE2 from GM and PIPE_MTE1 from L1.

use super::context::with_core;
use super::data_copy::DataCopyParams;
use super::sys_support::require;
use super::tensor::{GlobalTensor, LocalTensor};
use super::tpipe::TPipe;
use crate::core::dma::{self, Blocks, Endpoint};
use crate::core::trace::Pipe;
use crate::core::Core;
use crate::dtype::Element;
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::gm::GmAddr;
use crate::position::Hardware;

/// Where a pipe's SPM buffer lives.
#[derive(Debug, Clone)]
pub(crate) enum SpmBuffer {
    /// `size` bytes of GM from `addr`.
    Gm { addr: GmAddr, size: u32 },
    /// `size` bytes of L1 from byte `addr`.
    L1 { addr: u32, size: u32 },
}

impl SpmBuffer {
    fn size(&self) -> u32 {
        match self {
            SpmBuffer::Gm { size, .. } | SpmBuffer::L1 { size, .. } => *size,
        }
    }
}

const INIT: &str = "TPipe::InitSpmBuffer";
const WRITE: &str = "TPipe::WriteSpmBuffer";
const READ: &str = "TPipe::ReadSpmBuffer";

fn check_size(size: i32) -> Result<u32> {
    if size <= 0 {
        return Err(SimError::range(INIT, "bufferSize", size, "> 0 bytes"));
    }
    Ok(size as u32)
}

/// A copy between UB and the SPM buffer: the run pattern and the byte offset in the SPM buffer.
struct SpmCopy {
    blocks_local: u64,
    blocks: Blocks,
}

/// The run pattern of the `DataCopyParams` form (block lengths and gaps in 32-byte units);
/// `to_spm` says which side is the source.
fn params_pattern(api: &'static str, p: DataCopyParams, to_spm: bool) -> Result<SpmCopy> {
    if !(1..=4095).contains(&p.block_count) {
        return Err(SimError::range(
            api,
            "blockCount",
            p.block_count,
            "[1, 4095]",
        ));
    }
    if p.block_len == 0 {
        return Err(SimError::range(api, "blockLen", p.block_len, "[1, 65535]"));
    }
    let len = p.block_len as u64 * 32;
    let (src_stride, dst_stride) = (
        len + p.src_stride as u64 * 32,
        len + p.dst_stride as u64 * 32,
    );
    let local_stride = if to_spm { src_stride } else { dst_stride };
    Ok(SpmCopy {
        blocks_local: (p.block_count as u64 - 1) * local_stride + len,
        blocks: Blocks {
            count: p.block_count as u32,
            len,
            src_stride,
            dst_stride,
        },
    })
}

/// The run pattern of the element-count form.
fn count_pattern<T: Element>(api: &'static str, count: i32) -> Result<SpmCopy> {
    if count <= 0 {
        return Err(SimError::range(api, "size", count, "> 0 elements"));
    }
    let len = count as u64 * T::SIZE as u64;
    Ok(SpmCopy {
        blocks_local: len,
        blocks: Blocks::contiguous(len),
    })
}

/// Checks one copy; returns the SPM buffer.
fn check_copy<'a, T: Element>(
    core: &Core,
    api: &'static str,
    spm: Option<&'a SpmBuffer>,
    local: &LocalTensor<T>,
    c: &SpmCopy,
    offset: i32,
    to_spm: bool,
) -> Result<&'a SpmBuffer> {
    require(core.profile, api, api)?;
    let spm = spm.ok_or_else(|| {
        SimError::new(
            Category::QueueState,
            api,
            "the pipe has no SPM buffer: call TPipe::InitSpmBuffer first",
        )
    })?;
    let name = if to_spm { "writeBuffer" } else { "readBuffer" };
    local.check_live(core, api, name)?;
    if local.hw != Hardware::UB {
        return Err(SimError::new(
            Category::Position,
            api,
            format!(
                "`{name}` is in {} ({}): the SPM buffer holds data spilled from UB (VECIN, VECOUT, VECCALC)",
                local.hw, local.pos
            ),
        ));
    }
    let off_name = if to_spm { "writeOffset" } else { "readOffset" };
    if offset < 0 {
        return Err(SimError::range(api, off_name, offset, "≥ 0 bytes"));
    }
    if let SpmBuffer::L1 { .. } = spm {
        let b = &c.blocks;
        if !b.len.is_multiple_of(32) || !(offset as u64).is_multiple_of(32) {
            return Err(SimError::new(
                Category::Align,
                api,
                format!(
                    "the SPM buffer is in L1: the copied bytes ({}) and `{off_name}` ({offset}) must be multiples of 32",
                    b.len
                ),
            ));
        }
    }
    if c.blocks_local > local.len as u64 {
        return Err(SimError::new(
            Category::Size,
            api,
            format!(
                "the copy spans {} bytes of `{name}`, which has {} bytes",
                c.blocks_local, local.len
            ),
        ));
    }
    let b = &c.blocks;
    let spm_stride = if to_spm { b.dst_stride } else { b.src_stride };
    let end = offset as u64 + (b.count as u64 - 1) * spm_stride + b.len;
    if end > spm.size() as u64 {
        return Err(SimError::new(
            Category::Size,
            api,
            format!(
                "the copy reaches byte {end} of the SPM buffer, which has {} bytes (`{off_name}` = {offset})",
                spm.size()
            ),
        ));
    }
    Ok(spm)
}

fn run_copy<T: Element>(
    pipe: &TPipe,
    api: &'static str,
    loc: SourceLoc,
    local: &LocalTensor<T>,
    c: Result<SpmCopy>,
    offset: i32,
    to_spm: bool,
) -> Result<()> {
    with_core(api, loc, |core| {
        let c = c?;
        let spm = check_copy(core, api, pipe.spm.as_ref(), local, &c, offset, to_spm)?;
        let ub = Endpoint::Local(Hardware::UB, local.addr as u64);
        let (far, pipe_id) = match spm {
            SpmBuffer::Gm { addr, .. } => (
                Endpoint::Gm(addr, offset as u64),
                if to_spm { Pipe::MTE3 } else { Pipe::MTE2 },
            ),
            SpmBuffer::L1 { addr, .. } => (
                Endpoint::Local(Hardware::L1, *addr as u64 + offset as u64),
                if to_spm { Pipe::MTE3 } else { Pipe::MTE1 },
            ),
        };
        let (dst, src) = if to_spm { (far, ub) } else { (ub, far) };
        let acc = dma::copy(core, api, dst, src, c.blocks)?;
        core.issue(pipe_id, api, loc, &acc);
        Ok(())
    })
}

impl TPipe {
    /// `InitSpmBuffer(workspace, bufferSize)`: the SPM buffer is `buffer_size` bytes of GM from
    /// `workspace` (a block's own part of a workspace). 910, 310P, A2, A3.
    #[track_caller]
    pub fn init_spm_buffer<T: Element>(
        &mut self,
        workspace: &GlobalTensor<T>,
        buffer_size: i32,
    ) -> Result<()> {
        let loc = SourceLoc::caller();
        self.check_alive()?;
        with_core(INIT, loc, |core| {
            require(core.profile, INIT, INIT)?;
            self.fresh_spm()?;
            let size = check_size(buffer_size)?;
            let addr = workspace.gm(INIT)?;
            addr.check(INIT, 0, size as u64)?;
            self.spm = Some(SpmBuffer::Gm {
                addr: addr.clone(),
                size,
            });
            Ok(())
        })
    }

    /// `InitSpmBuffer(bufferSize)`: the SPM buffer is `buffer_size` bytes (rounded up to 32) of L1
    /// carved from the pipe. 910 and 310P (A2/A3 have only the workspace form).
    #[track_caller]
    pub fn init_spm_buffer_l1(&mut self, buffer_size: i32) -> Result<()> {
        let loc = SourceLoc::caller();
        self.check_alive()?;
        with_core(INIT, loc, |core| {
            require(core.profile, INIT, "TPipe::InitSpmBuffer(L1)")?;
            self.fresh_spm()?;
            let size = check_size(buffer_size)?.div_ceil(32) * 32;
            let addr = self.alloc(core, INIT, Hardware::L1, size)?;
            self.spm = Some(SpmBuffer::L1 { addr, size });
            Ok(())
        })
    }

    fn fresh_spm(&self) -> Result<()> {
        if self.spm.is_some() {
            return Err(SimError::new(
                Category::QueueState,
                INIT,
                "the pipe already has an SPM buffer: InitSpmBuffer may be called once (until TPipe::Reset)",
            ));
        }
        Ok(())
    }

    /// `WriteSpmBuffer(writeBuffer, copyParams, writeOffset)`: copies `copy_params.block_count`
    /// blocks of `block_len`·32 bytes from UB tensor `write_buffer` (gaps `src_stride`·32 bytes)
    /// to the SPM buffer at byte `write_offset` (gaps `dst_stride`·32 bytes), on PIPE_MTE3.
    #[track_caller]
    pub fn write_spm_buffer<T: Element>(
        &self,
        write_buffer: &LocalTensor<T>,
        copy_params: DataCopyParams,
        write_offset: i32,
    ) -> Result<()> {
        let loc = SourceLoc::caller();
        let c = params_pattern(WRITE, copy_params, true);
        run_copy(self, WRITE, loc, write_buffer, c, write_offset, true)
    }

    /// `WriteSpmBuffer(writeBuffer, writeSize, writeOffset)`: copies the first `write_size`
    /// elements of `write_buffer` to the SPM buffer at byte `write_offset`, on PIPE_MTE3.
    #[track_caller]
    pub fn write_spm_buffer_count<T: Element>(
        &self,
        write_buffer: &LocalTensor<T>,
        write_size: i32,
        write_offset: i32,
    ) -> Result<()> {
        let loc = SourceLoc::caller();
        let c = count_pattern::<T>(WRITE, write_size);
        run_copy(self, WRITE, loc, write_buffer, c, write_offset, true)
    }

    /// `ReadSpmBuffer(readBuffer, copyParams, readOffset)`: the reverse of
    /// [`TPipe::write_spm_buffer`] (source gaps in the SPM buffer, destination gaps in UB), on
    /// PIPE_MTE2 (GM) or PIPE_MTE1 (L1).
    #[track_caller]
    pub fn read_spm_buffer<T: Element>(
        &self,
        read_buffer: &LocalTensor<T>,
        copy_params: DataCopyParams,
        read_offset: i32,
    ) -> Result<()> {
        let loc = SourceLoc::caller();
        let c = params_pattern(READ, copy_params, false);
        run_copy(self, READ, loc, read_buffer, c, read_offset, false)
    }

    /// `ReadSpmBuffer(readBuffer, readSize, readOffset)`: copies `read_size` elements from the
    /// SPM buffer at byte `read_offset` to the start of `read_buffer`.
    #[track_caller]
    pub fn read_spm_buffer_count<T: Element>(
        &self,
        read_buffer: &LocalTensor<T>,
        read_size: i32,
        read_offset: i32,
    ) -> Result<()> {
        let loc = SourceLoc::caller();
        let c = count_pattern::<T>(READ, read_size);
        run_copy(self, READ, loc, read_buffer, c, read_offset, false)
    }
}
