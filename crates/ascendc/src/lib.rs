//! # ascendc — the Ascend C kernel programming model on a simulated AI core
//!
//! Kernels written against this crate read like Ascend C: a class with `Init` / `Process`,
//! `TPipe`, `TQue<QuePosition::VECIN, 1>`, `GlobalTensor`, `LocalTensor`, `data_copy`, `add`… and
//! run bit-faithfully on a simulated core of the chosen product. [`Launch`] runs `blockDim`
//! blocks on host threads.
//!
//! Every API call returns a [`Result`]; an error names the API, the parameter, the value, the
//! rule and the kernel source line, and fails the launch with the block index.
//!
//! ```
//! use ascendc::prelude::*;
//!
//! let x = GmBuffer::from_slice(&[1.0f32; 64]);
//! let y = GmBuffer::zeroed(64 * 4);
//! let (xa, ya) = (x.addr(), y.addr());
//! Launch::new(1).run(|| {
//!     let mut pipe = TPipe::new();
//!     let mut q: TQue<QuePosition::VECIN, 1> = TQue::new();
//!     pipe.init_buffer(&mut q, 1, 64 * 4)?;
//!     let mut gx = GlobalTensor::<f32>::new();
//!     gx.set_global_buffer(xa.clone());
//!     let mut gy = GlobalTensor::<f32>::new();
//!     gy.set_global_buffer(ya.clone());
//!     let t = q.alloc_tensor::<f32>()?;
//!     data_copy(&t, &gx, 64)?;
//!     add(&t, &t, &t, 64)?;
//!     data_copy(&gy, &t, 64)?;
//!     q.free_tensor(&t)
//! })
//! .unwrap();
//! assert_eq!(y.to_vec::<f32>(), vec![2.0; 64]);
//! ```

pub mod adv;
pub mod api;
pub mod check;
pub mod chip;
pub mod core;
pub mod dtype;
pub mod error;
pub mod gm;
pub mod launch;
pub mod multicore;
pub mod numeric;
pub mod position;
mod signal_stack;
pub mod timing;
mod watchdog;

pub use api::context::running_block;
pub use api::cube::fixpipe::{
    fixpipe, FixpipeConfig, FixpipeParamsM300, FixpipeParamsV220, QuantMode, CFG_NZ, CFG_ROW_MAJOR,
};
pub use api::cube::load::{
    load_data, load_data_with_transpose, LoadData2DParams, LoadData2DParamsV2,
    LoadData2dTransposeParams,
};
pub use api::cube::mmad::{mmad, MmadParams};
pub use api::data_copy::enhanced::{BlockMode, DataCopyEnhancedParams, DeqScale, PadMode};
pub use api::data_copy::nz::{Nd2NzParams, Nz2NdParamsFull};
pub use api::data_copy::pad::{
    data_copy_pad, set_pad_value, DataCopyExtParams, DataCopyPadExtParams, DataCopyPadParams,
};
pub use api::data_copy::slice::{SliceInfo, K_MAX_DIM, MAX_SLICE_SIZE};
pub use api::data_copy::{data_copy, DataCopyArgs, DataCopyParams};
pub use api::sync::{
    get_block_idx, get_block_num, get_sub_block_idx, get_task_ratio, pipe_barrier, set_flag,
    wait_flag,
};
pub use api::tbuf::TBuf;
pub use api::tbuf_pool::TBufPool;
pub use api::tensor::{DataFormat, GlobalTensor, LocalTensor, ShapeInfo};
pub use api::tpipe::{PipeBuffer, TPipe};
pub use api::tque::{TQue, TQueBind};
pub use api::vec::binary::{add, add_l0};
pub use api::vec::compare::{SelectSrc1, CMPMODE, SELMODE};
pub use api::vec::mask::MaskMode;
pub use api::vec::reduce::{
    block_reduce_max, block_reduce_min, block_reduce_sum, pair_reduce_sum, reduce_max,
    reduce_max_l0, reduce_min, reduce_min_l0, reduce_sum, reduce_sum_l0, repeat_reduce_sum,
    whole_reduce_max, whole_reduce_min, whole_reduce_sum, ReduceElement, ReduceOrder,
};
pub use api::vec::{
    BinaryRepeatParams, Count, Mask, UnaryRepeatParams, KEEP_MASK, MASK_PLACEHOLDER,
};
pub use chip::{ChipProfile, Product};
pub use core::trace::{HardEvent, Pipe};
pub use core::CountRounding;
pub use dtype::{bf16, f16, DType, Element, Int4, TensorElement};
pub use error::{Category, Diagnostic, ErrorDetail, Result, Severity, SimError, SourceLoc};
pub use gm::{GmAddr, GmBuffer};
pub use launch::{KernelMode, Launch, LaunchError, LaunchReport};
pub use multicore::api::{
    cross_core_set_flag, cross_core_wait_flag, disable_dma_atomic, ib_set, ib_wait, set_atomic_add,
    set_atomic_max, set_atomic_min, set_atomic_none, set_atomic_type, sync_all, sync_all_mix,
    sync_all_soft,
};
pub use multicore::group_barrier::{GroupBarrier, PipeMode};
pub use multicore::schedule::Schedule;
pub use multicore::schedule_check::{ScheduleCheck, ScheduleDifference};
pub use numeric::RoundMode;
pub use position::{QuePosition, TPosition};

pub use api::cache::{
    data_cache_clean_and_invalid, data_cache_preload, get_icache_preload_status, icache_preload,
    CacheLine, DcciDst, DcciTarget,
};
pub use api::debug::{dump_acc_chk_point, dump_tensor, dump_tensor_shaped, dump_text, DumpSource};
pub use api::debug_check::{
    assert_check, assert_check_with, check_local_memory_ia, trap, CheckLocalMemoryIAParam,
};
pub use api::local_alloc::LocalMemAllocator;
pub use api::prof::{
    metrics_prof_start, metrics_prof_stop, print_time_stamp, time_stamp, TimeStamp,
};
pub use api::que_sync::{
    data_sync_barrier, set_next_task_start, wait_pre_task_end, MemDsbT, TQueSync,
};
pub use api::sys_var::{
    async_on, get_arch_version, get_data_block_size_in_bytes, get_program_counter,
    get_sub_block_num, EngineType,
};
pub use api::system::{
    get_system_cycle, init_soc_state, is_aic, is_aiv, kernel_task_type, KernelMetaType,
};
pub use api::workspace::{
    get_sys_workspace_ptr, get_user_workspace, set_sys_workspace, sys_workspace_bytes,
};
pub use multicore::determine::{
    init_determine_compute_workspace, notify_next_block, wait_pre_block,
};
pub use position::Hardware;

pub use api::ctrl_spr::{
    get_ctrl_spr, get_saturation_flag, set_ctrl_spr, set_overflow, set_saturation_flag_mode,
    SaturationMode,
};
pub use api::gm_bypass::{read_gm_by_pass_dcache, write_gm_by_pass_dcache};
pub use api::que_config::TQueConfig;
pub use api::stack_buffer::pop_stack_buffer;
pub use api::store_atomic::{
    get_store_atomic_config, set_store_atomic_config, AtomicDtype, AtomicOp,
};

/// `PIPE_S`.
pub const PIPE_S: Pipe = Pipe::S;
/// `PIPE_V`.
pub const PIPE_V: Pipe = Pipe::V;
/// `PIPE_M`.
pub const PIPE_M: Pipe = Pipe::M;
/// `PIPE_MTE1`.
pub const PIPE_MTE1: Pipe = Pipe::MTE1;
/// `PIPE_MTE2`.
pub const PIPE_MTE2: Pipe = Pipe::MTE2;
/// `PIPE_MTE3`.
pub const PIPE_MTE3: Pipe = Pipe::MTE3;
/// `PIPE_FIX`.
pub const PIPE_FIX: Pipe = Pipe::FIX;
/// `PIPE_ALL`.
pub const PIPE_ALL: Pipe = Pipe::ALL;

/// Everything a kernel usually needs: `use ascendc::prelude::*;`.
pub mod prelude {
    pub use crate::api::scalar_compute::*;
    pub use crate::api::sort::{
        concat, extract, get_mrg_sort_result, get_sort_len, get_sort_offset, mrg_sort, mrg_sort4,
        mrg_sort_with_counts, proposal_concat, proposal_extract, rp_sort16, sort, sort32,
        MrgSort4Info, MrgSortSrcList, SortLayout,
    };
    pub use crate::api::vec::binary::*;
    pub use crate::api::vec::cast::*;
    pub use crate::api::vec::compare::*;
    pub use crate::api::vec::control::*;
    pub use crate::api::vec::copy::*;
    pub use crate::api::vec::duplicate::*;
    pub use crate::api::vec::fill::*;
    pub use crate::api::vec::gather::*;
    pub use crate::api::vec::interp::*;
    pub use crate::api::vec::mask::*;
    pub use crate::api::vec::padding::*;
    pub use crate::api::vec::reduce::*;
    pub use crate::api::vec::scalar::*;
    pub use crate::api::vec::trans_data::*;
    pub use crate::api::vec::transpose::*;
    pub use crate::api::vec::unary::*;
    pub use crate::api::vec::{cmp_mask::*, dequant::*, fused::*};
    pub use crate::{
        bf16, data_copy, data_copy_pad, f16, get_block_idx, get_block_num, get_sub_block_idx,
        get_task_ratio, pipe_barrier, set_flag, set_pad_value, wait_flag, BinaryRepeatParams,
        BlockMode, Count, DataCopyEnhancedParams, DataCopyExtParams, DataCopyPadExtParams,
        DataCopyPadParams, DataCopyParams, DataFormat, DeqScale, Element, GlobalTensor, GmAddr,
        GmBuffer, HardEvent, Int4, KernelMode, Launch, LocalTensor, Mask, Nd2NzParams,
        Nz2NdParamsFull, PadMode, Pipe, QuePosition, Result, RoundMode, ShapeInfo, SliceInfo, TBuf,
        TBufPool, TPipe, TPosition, TQue, TQueBind, TensorElement, UnaryRepeatParams, KEEP_MASK,
        K_MAX_DIM, MASK_PLACEHOLDER, PIPE_ALL, PIPE_FIX, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3,
        PIPE_S, PIPE_V,
    };
    pub use crate::{
        fixpipe, load_data, load_data_with_transpose, mmad, FixpipeParamsM300, FixpipeParamsV220,
        LoadData2DParams, LoadData2DParamsV2, LoadData2dTransposeParams, MmadParams, QuantMode,
        CFG_NZ, CFG_ROW_MAJOR,
    };
}
