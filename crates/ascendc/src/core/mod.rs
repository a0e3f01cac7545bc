//! The simulated AI core: memories, DMA engine, vector unit, pipes and the instruction record.
//! The Ascend C API layer (`crate::api`) lowers every call onto this.

pub mod cube;
pub mod dma;
pub mod ia_check;
pub mod lifetime;
pub mod memory;
pub mod spare;
pub mod spr;
pub mod trace;
pub mod vector;

use crate::chip::ChipProfile;
use crate::error::{Category, Diagnostic, Result, Severity, SimError, SourceLoc};
use crate::position::Hardware;
use memory::LocalMemory;
use trace::{Access, HardEvent, InstrKind, Pipe, Trace};
use vector::VectorState;

/// What a level-2 `DataCopy` does with an element count whose bytes are not a multiple of 32.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CountRounding {
    /// Round the byte count down as the hardware does, with a warning (the seeds' rule).
    #[default]
    Hardware,
    /// Fail, as the vendor CPU-debug library does.
    Strict,
}

/// What DataCopyPad writes as padding and dummy bytes while the pad-value register was never set
/// (the documentation's "random values"): every byte is `0xA5`, a pattern later checks can flag.
pub const PAD_POISON: u64 = 0xA5A5_A5A5_A5A5_A5A5;

/// Per-launch settings every core sees.
#[derive(Debug, Clone, Copy)]
pub struct CoreOptions {
    /// Keep the full instruction record (otherwise only per-pipe counts).
    pub record_trace: bool,
    /// Keep the GM footprint the inter-core race check reads (multi-core launches).
    pub gm_log: bool,
    /// Level-2 DataCopy count rounding.
    pub count_rounding: CountRounding,
    /// fp16 results saturate (±65504, NaN → 0) instead of producing Inf/NaN.
    pub fp16_saturation: bool,
    /// Calls may take their fast paths (direct contiguous copies and element-wise passes);
    /// otherwise every call goes through the general lowering, with the same results.
    pub fast_paths: bool,
}

impl Default for CoreOptions {
    fn default() -> Self {
        CoreOptions {
            record_trace: true,
            gm_log: false,
            count_rounding: CountRounding::Hardware,
            fp16_saturation: true,
            fast_paths: true,
        }
    }
}

/// The kind of a simulated core.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CoreKind {
    /// A coupled AI Core (cube + vector + scalar): 910, 310P, 310B.
    AiCore,
    /// A cube core of a separated product (A2/A3).
    Aic,
    /// A vector core of a separated product (A2/A3).
    Aiv,
}

/// Which core of a launch this is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CoreId {
    /// The core's kind.
    pub kind: CoreKind,
    /// Index among the launch's cores of this kind (`AIV_3` has index 3).
    pub index: u32,
    /// `GetBlockIdx()`.
    pub block_idx: u32,
    /// `GetSubBlockIdx()`: 0 or 1 on the vector cores of a 1:2 mixed group, else 0.
    pub sub_block_idx: u32,
    /// `GetTaskRatio()`: 2 on the vector cores of a 1:2 mixed group, else 1.
    pub task_ratio: u32,
}

impl CoreId {
    /// The only core of block `block` of a non-mixed launch.
    pub fn single(kind: CoreKind, block: u32) -> CoreId {
        CoreId {
            kind,
            index: block,
            block_idx: block,
            sub_block_idx: 0,
            task_ratio: 1,
        }
    }
}

impl std::fmt::Display for CoreId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let prefix = match self.kind {
            CoreKind::AiCore => "CORE",
            CoreKind::Aic => "AIC",
            CoreKind::Aiv => "AIV",
        };
        write!(f, "{prefix}_{}", self.index)
    }
}

/// One simulated AI core running one block of a launch.
pub struct Core {
    /// The product being simulated.
    pub profile: &'static ChipProfile,
    /// Which core of the launch this is.
    pub id: CoreId,
    /// `GetBlockIdx()`.
    pub block_idx: u32,
    /// `GetBlockNum()`.
    pub block_num: u32,
    /// On-chip memories.
    pub mem: LocalMemory,
    /// Vector unit state (mask, mode, overflow mode).
    pub vector: VectorState,
    /// Instruction record.
    pub trace: Trace,
    /// Launch options.
    pub options: CoreOptions,
    /// The DataCopyPad pad-value register (`isPad = true` or `SetPadValue` set it); `None` until
    /// then, when padding reads [`PAD_POISON`].
    pub pad_register: Option<u64>,
    /// The system workspace `SetSysWorkspace` recorded (`GetSysWorkSpacePtr`).
    pub sys_workspace: Option<crate::gm::GmAddr>,
    /// Cross-core state: GM atomic mode and the ordering record of the race check.
    pub sync: crate::multicore::CoreSync,
    /// Which allocation of each queue buffer is live (use-after-FreeTensor check).
    pub lives: lifetime::BufferLives,
    /// Cube-unit state (L0C unit flags).
    pub cube: cube::CubeState,
    /// Result registers of reductions and GatherMask.
    pub spr: spr::SpecialRegs,
    /// `CheckLocalMemoryIA` registers.
    pub ia: ia_check::IaChecks,
    diags: Vec<Diagnostic>,
    /// (API, source line, topic) of the warnings given once per call site.
    warned_once: std::collections::HashSet<(&'static str, SourceLoc, String)>,
    first_error: Option<SimError>,
    events: [u64; HardEvent::COUNT],
    /// Kernel-level `SetFlag`s not yet waited for: (event, ID, where it was set).
    flags_set: Vec<(HardEvent, u32, SourceLoc)>,
    pipe_alive: bool,
}

impl Core {
    /// The core `id` of a launch of `block_num` blocks.
    pub fn new(
        profile: &'static ChipProfile,
        id: CoreId,
        block_num: u32,
        options: CoreOptions,
    ) -> Core {
        Core::with_memory(profile, id, block_num, options, None)
    }

    /// [`Core::new`], reusing `memory` from a finished core when it has the profile's sizes (it
    /// is refilled with this core's initial pattern, so the result is the same).
    pub fn with_memory(
        profile: &'static ChipProfile,
        id: CoreId,
        block_num: u32,
        options: CoreOptions,
        memory: Option<LocalMemory>,
    ) -> Core {
        // Every core of a kind starts from the same pattern, so a reused memory only needs the
        // parts the previous core wrote restored.
        let seed = 0x5EED_0000 ^ ((id.kind as u64) << 32);
        let mem = match memory {
            Some(mut m) if m.fits(profile) => {
                m.refill(seed);
                m
            }
            _ => LocalMemory::new(profile, seed),
        };
        Core {
            profile,
            id,
            block_idx: id.block_idx,
            block_num,
            mem,
            vector: VectorState::new(options.fp16_saturation),
            trace: Trace::with_gm_log(options.record_trace, options.gm_log),
            options,
            pad_register: None,
            sys_workspace: None,
            sync: Default::default(),
            lives: Default::default(),
            cube: Default::default(),
            spr: Default::default(),
            ia: Default::default(),
            diags: Vec::new(),
            warned_once: Default::default(),
            first_error: None,
            events: [0; HardEvent::COUNT],
            flags_set: Vec::new(),
            pipe_alive: false,
        }
    }

    /// Records an instruction.
    #[inline(always)]
    pub fn issue(&mut self, pipe: Pipe, api: &'static str, loc: SourceLoc, accesses: &[Access]) {
        if self.ia.active() {
            self.ia.check(pipe, api, accesses);
        }
        self.trace.record(pipe, api, InstrKind::Op, loc, accesses);
    }

    /// Records a vector instruction of `lanes` lanes per repeat.
    #[inline]
    pub fn issue_vector(
        &mut self,
        api: &'static str,
        loc: SourceLoc,
        accesses: &[Access],
        lanes: u32,
    ) {
        self.issue_counted(Pipe::V, api, loc, accesses, lanes);
    }

    /// Records a cube instruction (PIPE_M) that keeps the cube busy for `steps` cycles (the
    /// timing model's key: see `timing::table::cube_steps`).
    pub fn issue_cube(
        &mut self,
        api: &'static str,
        loc: SourceLoc,
        accesses: &[Access],
        steps: u32,
    ) {
        self.issue_counted(Pipe::M, api, loc, accesses, steps);
    }

    /// Records an instruction with its timing key (`Instr::lanes`, saturated to 16 bits).
    #[inline(always)]
    fn issue_counted(
        &mut self,
        pipe: Pipe,
        api: &'static str,
        loc: SourceLoc,
        accesses: &[Access],
        count: u32,
    ) {
        if self.ia.active() {
            self.ia.check(pipe, api, accesses);
        }
        self.trace.record_lanes(
            pipe,
            api,
            InstrKind::Op,
            loc,
            accesses,
            count.min(u16::MAX as u32) as u16,
        );
    }

    /// Records a `PipeBarrier`.
    pub fn barrier(&mut self, pipe: Pipe, api: &'static str, loc: SourceLoc) {
        self.trace.record(pipe, api, InstrKind::Barrier, loc, &[]);
    }

    /// Records `SetFlag` (on the event's first pipe).
    #[inline]
    pub fn set_flag(&mut self, event: HardEvent, id: u32, api: &'static str, loc: SourceLoc) {
        self.trace.record(
            event.pipes().0,
            api,
            InstrKind::SetFlag(event, id),
            loc,
            &[],
        );
    }

    /// Records `WaitFlag` (on the event's second pipe).
    #[inline]
    pub fn wait_flag(&mut self, event: HardEvent, id: u32, api: &'static str, loc: SourceLoc) {
        self.trace.record(
            event.pipes().1,
            api,
            InstrKind::WaitFlag(event, id),
            loc,
            &[],
        );
    }

    /// Adds a diagnostic.
    pub fn diag(
        &mut self,
        severity: Severity,
        category: Category,
        api: &'static str,
        message: impl Into<String>,
        loc: SourceLoc,
    ) {
        self.diags.push(Diagnostic {
            severity,
            category,
            api,
            message: message.into(),
            location: Some(loc),
            block: Some(self.block_idx),
        });
    }

    /// Adds a warning.
    pub fn warn(
        &mut self,
        category: Category,
        api: &'static str,
        message: impl Into<String>,
        loc: SourceLoc,
    ) {
        self.diag(Severity::Warning, category, api, message, loc);
    }

    /// Adds a warning unless one on `topic` was given for this API at this source line (a call in
    /// a loop warns once).
    pub fn warn_once(
        &mut self,
        category: Category,
        api: &'static str,
        topic: &str,
        message: impl Into<String>,
        loc: SourceLoc,
    ) {
        if self.warned_once.insert((api, loc, topic.to_string())) {
            self.warn(category, api, message, loc);
        }
    }

    /// Diagnostics so far.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diags
    }

    /// Stamps an error with this core's block and keeps the first one (an error the kernel
    /// ignores still fails the launch).
    pub fn fail(&mut self, mut e: SimError, loc: SourceLoc) -> SimError {
        e.block = Some(self.block_idx);
        e.core = Some(self.id);
        if e.location.is_none() {
            e.location = Some(loc);
        }
        if self.first_error.is_none() {
            self.first_error = Some(e.clone());
        }
        e
    }

    /// The first error any API call of this block returned.
    pub fn first_error(&self) -> Option<&SimError> {
        self.first_error.as_ref()
    }

    /// Splits the finished core into its record, diagnostics, first error and memory.
    /// Ends the block: a kernel-level `SetFlag` never waited for is reported (on the device the
    /// flag stays set and the next wait on it passes too early). Returns the record, diagnostics,
    /// first error and memory.
    pub fn finish(mut self) -> (Trace, Vec<Diagnostic>, Option<SimError>, LocalMemory) {
        for (event, id, loc) in std::mem::take(&mut self.flags_set) {
            self.warn(
                Category::Sync,
                "SetFlag",
                format!(
                    "SetFlag<HardEvent::{event:?}>({id}) is never waited for by a WaitFlag before the kernel ends"
                ),
                loc,
            );
        }
        self.trace.end_gm_log();
        (self.trace, self.diags, self.first_error, self.mem)
    }

    /// A kernel-level `SetFlag<event>(id)`: recorded, and remembered until a `WaitFlag` takes it.
    pub fn kernel_set_flag(&mut self, event: HardEvent, id: u32, loc: SourceLoc) {
        if !self.flags_set.iter().any(|f| f.0 == event && f.1 == id) {
            self.flags_set.push((event, id, loc));
        }
        self.set_flag(event, id, "SetFlag", loc);
    }

    /// A kernel-level `WaitFlag<event>(id)`: fails when no `SetFlag<event>(id)` of this core is
    /// outstanding, the wait the device would never return from.
    pub fn kernel_wait_flag(&mut self, event: HardEvent, id: u32, loc: SourceLoc) -> Result<()> {
        let Some(i) = self
            .flags_set
            .iter()
            .position(|f| f.0 == event && f.1 == id)
        else {
            return Err(SimError::new(
                Category::Sync,
                "WaitFlag",
                format!(
                    "WaitFlag<HardEvent::{event:?}>({id}) has no SetFlag<HardEvent::{event:?}>({id}) \
                     before it on this core: the device would wait here forever"
                ),
            ));
        };
        self.flags_set.swap_remove(i);
        self.wait_flag(event, id, "WaitFlag", loc);
        Ok(())
    }

    /// Takes the lowest free ID of an event kind (`AllocEventID`).
    #[inline]
    pub fn alloc_event_id(&mut self, event: HardEvent, api: &'static str) -> Result<u32> {
        let id = self.fetch_event_id(event);
        if id >= self.profile.max_event_ids {
            return Err(self.no_event_id(event, id, api));
        }
        self.events[event as usize] |= 1 << id;
        Ok(id)
    }

    #[cold]
    #[inline(never)]
    fn no_event_id(&self, event: HardEvent, id: u32, api: &'static str) -> SimError {
        SimError::new(
                Category::Resource,
                api,
                format!(
                    "no event ID of {event:?} left: ID {id} found, at most {} per event kind on {} \
                     (buffers freed but not re-allocated plus buffers enqueued, per event kind, must not exceed {})",
                    self.profile.max_event_ids, self.profile.soc, self.profile.max_event_ids
                ),
            )
    }

    /// The lowest free ID of an event kind without taking it (`FetchEventID`).
    #[inline]
    pub fn fetch_event_id(&self, event: HardEvent) -> u32 {
        self.events[event as usize].trailing_ones()
    }

    /// Gives an event ID back (`ReleaseEventID`).
    #[inline]
    pub fn release_event_id(&mut self, event: HardEvent, id: u32, api: &'static str) -> Result<()> {
        if id >= self.profile.max_event_ids {
            return Err(self.bad_event_id(id, api));
        }
        self.events[event as usize] &= !(1 << id);
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn bad_event_id(&self, id: u32, api: &'static str) -> SimError {
        SimError::range(
            api,
            "id",
            id,
            format!("[0, {})", self.profile.max_event_ids),
        )
    }

    /// Fails when this core has no `hw` (checked when a tensor of it is taken, not when a buffer
    /// is placed): a cube core (AIC) has no Unified Buffer, and a vector
    /// core (AIV) of a mixed launch has no L0A/L0B/L0C, BiasTable or Fixpipe buffer
    /// ([`crate::chip::AIC_BUFFERS`], [`crate::chip::AIV_BUFFERS`]). A vector-only launch (the
    /// default mode) and the coupled AI Cores keep every memory.
    pub fn check_buffer(&self, api: &'static str, hw: Hardware) -> Result<()> {
        let (has, list): (bool, &[Hardware]) = match self.id.kind {
            CoreKind::AiCore => (true, &[]),
            CoreKind::Aic => (
                crate::chip::AIC_BUFFERS.contains(&hw),
                &crate::chip::AIC_BUFFERS,
            ),
            CoreKind::Aiv => (
                !self.sync.mixed || crate::chip::AIV_BUFFERS.contains(&hw),
                &crate::chip::AIV_BUFFERS,
            ),
        };
        if has {
            return Ok(());
        }
        let names: Vec<String> = list.iter().map(|h| h.to_string()).collect();
        Err(SimError::new(
            Category::Position,
            api,
            format!(
                "{} has no {hw}: its memories are {} (use ASCEND_IS_AIC / ASCEND_IS_AIV to keep cube and vector code on their cores)",
                self.id,
                names.join(", ")
            ),
        ))
    }

    /// Marks a TPipe as constructed; fails when one is already alive.
    pub fn register_pipe(&mut self) -> Result<()> {
        if self.pipe_alive {
            return Err(SimError::new(
                Category::Resource,
                "TPipe::TPipe",
                "a TPipe already exists in this kernel: create exactly one (call Destroy on the first before creating another)",
            ));
        }
        self.pipe_alive = true;
        self.events = [0; HardEvent::COUNT];
        Ok(())
    }

    /// Marks the TPipe as destroyed.
    pub fn unregister_pipe(&mut self) {
        self.pipe_alive = false;
    }

    /// Clears every event ID (`TPipe::Reset`).
    pub fn reset_events(&mut self) {
        self.events = [0; HardEvent::COUNT];
    }
}
