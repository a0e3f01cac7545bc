//! `TQueConfig`: the queue-configuration template argument of `TQue` / `TQueBind` (also the
//! integer `mask` form: bit 0 = nd2nz, bit 1 = nz2nd).
//!
//! `bufferLen` / `bufferNumber` announce at compile time what `InitBuffer` will be given: a
//! non-zero value that differs from the `InitBuffer` argument is an error. The format
//! conversions (`nd2nz`, `nz2nd`) exist only on the Atlas inference series (310P) and only for
//! A1/B1 resp. CO2 queues; their on-the-fly conversion of the queue's copies is not modelled, so
//! a configuration that asks for one is refused (copy with `Nd2NzParams` instead).
//! `scmBlockGroup`, `consumerSize`, `consumer`, `enableStaticEvtId` and `enableLoopQueue` are
//! reserved parameters: accepted (`consumerSize` ≤ 8), with no effect.

use super::sys_support::require;
use super::tque::{Queue, QueueState, TQue, TQueBind};
use crate::core::Core;
use crate::error::{Category, Result, SimError};
use crate::position::{QuePos, TPosition};

/// The configuration of a queue (`TQueConfig`); `Default` is every field off / 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TQueConfig {
    /// ND → NZ conversion of the queue's copies (A1/B1 queues, 310P).
    pub nd2nz: bool,
    /// NZ → ND conversion of the queue's copies (CO2 queues, 310P).
    pub nz2nd: bool,
    /// Reserved (TSCM).
    pub scm_block_group: bool,
    /// Bytes per buffer `InitBuffer` will be given; 0 = decided at `InitBuffer`.
    pub buffer_len: u32,
    /// Buffers `InitBuffer` will be given; 0 = decided at `InitBuffer`.
    pub buffer_number: u32,
    /// Reserved: number of valid `consumer` entries, [0, 8].
    pub consumer_size: u32,
    /// Reserved: consumer positions.
    pub consumer: [Option<TPosition>; 8],
    /// Reserved.
    pub enable_static_evt_id: bool,
    /// Reserved.
    pub enable_loop_queue: bool,
}

impl TQueConfig {
    /// The configuration of the integer `mask` template argument: bit 0 = nd2nz, bit 1 =
    /// nz2nd; other bits must be 0.
    pub fn from_mask(mask: i32) -> Result<TQueConfig> {
        if !(0..=3).contains(&mask) {
            return Err(SimError::range(
                "TQue",
                "mask",
                mask,
                "bits 0 (nd2nz) and 1 (nz2nd) only: [0, 3]",
            ));
        }
        Ok(TQueConfig {
            nd2nz: mask & 1 != 0,
            nz2nd: mask & 2 != 0,
            ..TQueConfig::default()
        })
    }
}

/// Checks a queue's configuration against its position, the product and the `InitBuffer`
/// arguments (`num` buffers of `len` bytes).
pub(super) fn check_init(
    q: &QueueState,
    core: &Core,
    api: &'static str,
    num: u32,
    len: u32,
) -> Result<()> {
    let Some(c) = q.config else {
        return Ok(());
    };
    if c.consumer_size > 8 {
        return Err(SimError::range(
            api,
            "TQueConfig.consumerSize",
            c.consumer_size,
            "[0, 8]",
        ));
    }
    for (name, on, positions) in [
        ("nd2nz", c.nd2nz, &[TPosition::A1, TPosition::B1][..]),
        ("nz2nd", c.nz2nd, &[TPosition::CO2][..]),
    ] {
        if !on {
            continue;
        }
        require(core.profile, api, "TQueConfig format conversion")?;
        if !positions.contains(&q.pos) {
            let names: Vec<String> = positions.iter().map(|p| p.to_string()).collect();
            return Err(SimError::new(
                Category::Position,
                api,
                format!(
                    "TQueConfig.{name} applies only to queues at {}, not {}",
                    names.join("/"),
                    q.pos
                ),
            ));
        }
        return Err(SimError::new(
            Category::Unsupported,
            api,
            format!(
                "TQueConfig.{name}: the conversion of the queue's copies on the fly is not modelled; \
                 convert with DataCopy and Nd2NzParams / Nz2NdParamsFull instead"
            ),
        ));
    }
    for (name, announced, given) in [
        ("bufferLen", c.buffer_len, len),
        ("bufferNumber", c.buffer_number, num),
    ] {
        if announced != 0 && announced != given {
            return Err(SimError::new(
                Category::Range,
                api,
                format!(
                    "TQueConfig.{name} = {announced} but InitBuffer gives {given}: the configuration must \
                     match InitBuffer (or be 0 to leave it to InitBuffer)"
                ),
            ));
        }
    }
    Ok(())
}

impl<P: QuePos, const DEPTH: u8> TQue<P, DEPTH> {
    /// A queue with a configuration (`TQue<pos, depth, &config>`), checked at `InitBuffer`.
    pub fn with_config(config: TQueConfig) -> Self {
        let mut q = Self::new();
        set_config(&mut q, config);
        q
    }
}

impl<S: QuePos, D: QuePos, const DEPTH: u8> TQueBind<S, D, DEPTH> {
    /// A queue with a configuration (`TQueBind<src, dst, depth, &config>`), checked at
    /// `InitBuffer`.
    pub fn with_config(config: TQueConfig) -> Self {
        let mut q = Self::new();
        set_config(&mut q, config);
        q
    }
}

/// Gives queue `q` a configuration (the C ABI's queues are configured after construction).
#[doc(hidden)]
pub fn set_config<Q: Queue>(q: &mut Q, config: TQueConfig) {
    q.state_mut().config = Some(config);
}
