//! `Fill` (earlier `InitConstValue`) with [`InitConstValueParams`]: sets blocks of L1 (A1/B1,
//! 32-byte blocks, PIPE_MTE2) or L0A/L0B (A2/B2, 512-byte blocks, PIPE_MTE1) to one value.
//! Atlas training and 310P take only `repeatTimes` and `initValue`: each iteration sets 512
//! contiguous bytes.

use super::support::cube_facts;
use crate::api::context::with_core;
use crate::api::tensor::LocalTensor;
use crate::core::trace::{Access, Pipe, Space};
use crate::dtype::Element;
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::position::Hardware;

const API: &str = "Fill";

/// `InitConstValueParams<T>`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct InitConstValueParams<T> {
    /// Iterations, [0, 32767] (0: no-op).
    pub repeat_times: u16,
    /// Blocks set per iteration (32 bytes in L1, 512 in L0A/L0B), [0, 32767] (0: no-op).
    pub block_num: u16,
    /// Blocks skipped between iterations (end to start), [0, 32767].
    pub dst_gap: u16,
    /// The value.
    pub init_value: T,
}

impl<T: Element> InitConstValueParams<T> {
    /// `InitConstValueParams(repeatTimes, blockNum, dstGap, initValue)`.
    pub fn new(repeat_times: u16, block_num: u16, dst_gap: u16, init_value: T) -> Self {
        InitConstValueParams {
            repeat_times,
            block_num,
            dst_gap,
            init_value,
        }
    }

    /// `InitConstValueParams(repeatTimes, initValue)`: `blockNum` and `dstGap` 0.
    pub fn repeats(repeat_times: u16, init_value: T) -> Self {
        InitConstValueParams::new(repeat_times, 0, 0, init_value)
    }
}

/// `Fill(dst, initConstValueParams)`: iteration `i` sets `blockNum` blocks starting `i ·
/// (blockNum + dstGap)` blocks into `dst` (512 bytes at `512 · i` where only the repeat count is
/// configurable).
#[track_caller]
pub fn fill<T: Element>(dst: &LocalTensor<T>, params: InitConstValueParams<T>) -> Result<()> {
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        let facts = cube_facts(core.profile);
        if !facts.fill_dtypes.contains(T::DTYPE) {
            return Err(SimError::new(
                Category::Type,
                API,
                format!(
                    "element type {} is not supported on {}: {}",
                    T::DTYPE,
                    core.profile,
                    facts.fill_dtypes
                ),
            ));
        }
        let (block, pipe) = match dst.hw {
            Hardware::L1 => (32u64, Pipe::MTE2),
            Hardware::L0A | Hardware::L0B => (512, Pipe::MTE1),
            hw => {
                return Err(SimError::new(
                    Category::Position,
                    API,
                    format!(
                    "the destination is {} in {hw}; Fill sets A1/B1 in L1, A2 in L0A or B2 in L0B",
                    dst.pos
                ),
                ))
            }
        };
        for (name, v) in [
            ("repeatTimes", params.repeat_times),
            ("blockNum", params.block_num),
            ("dstGap", params.dst_gap),
        ] {
            if v > 32767 {
                return Err(SimError::range(API, name, v, "[0, 32767]"));
            }
        }
        let (len, step) = if facts.fill_blocks {
            let len = params.block_num as u64 * block;
            (len, len + params.dst_gap as u64 * block)
        } else {
            (512, 512)
        };
        let n = params.repeat_times as u64;
        if n == 0 || len == 0 {
            return Ok(());
        }
        super::operand(
            core,
            loc,
            API,
            "destination",
            dst,
            dst.hw,
            "A1/B1/A2/B2",
            block as u32,
            (n - 1) * step + len,
        )?;
        let value = bytemuck::bytes_of(&params.init_value);
        let d0 = dst.addr as u64;
        let mem = core.mem.bytes_mut(dst.hw);
        for i in 0..n {
            let at = (d0 + i * step) as usize;
            for chunk in mem[at..at + len as usize].chunks_exact_mut(T::SIZE) {
                chunk.copy_from_slice(value);
            }
        }
        let acc = Access {
            write: true,
            space: Space::Local(dst.hw),
            base: d0,
            len: len as u32,
            blocks: n as u32,
            block_stride: step,
            repeats: 1,
            repeat_stride: 0,
        };
        core.issue(pipe, API, loc, &[acc]);
        Ok(())
    })
}
