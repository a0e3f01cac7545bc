//! Time stamps and profiling ranges: `PrintTimeStamp`, `MetricsProfStart`, `MetricsProfStop`.

use super::availability::require;
use super::context::with_core;
use super::sys_var::program_counter;
use crate::core::trace::Pipe;
use crate::error::{Category, Result, SourceLoc};
use std::fmt;

/// One `PrintTimeStamp` record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeStamp {
    /// The caller's identifier (values above 0xffff are the user's).
    pub desc_id: u32,
    /// Reserved, 0.
    pub rsv: u32,
    /// The core's cycle counter: instructions issued so far, this one included (as
    /// `GetSystemCycle`).
    pub time_stamp: u64,
    /// The simulated program counter of the call site (as `GetProgramCounter`).
    pub pc_ptr: u64,
    /// The cycle counter when the kernel started, 0.
    pub entry: u64,
}

impl fmt::Display for TimeStamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "descId is {}, rsv is {}, timeStamp is {}, pcPtr is {}, entry is {}.",
            self.desc_id, self.rsv, self.time_stamp, self.pc_ptr, self.entry
        )
    }
}

/// `PrintTimeStamp(descId)` without the printing: a `PIPE_S` instruction whose record is
/// returned (A2, A3, 310B).
#[track_caller]
pub fn time_stamp(desc_id: u32) -> Result<TimeStamp> {
    const API: &str = "PrintTimeStamp";
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        require(core, API)?;
        core.issue(Pipe::S, API, loc, &[]);
        Ok(TimeStamp {
            desc_id,
            rsv: 0,
            time_stamp: core.trace.counts().iter().sum(),
            pc_ptr: program_counter(loc) as u64,
            entry: 0,
        })
    })
}

/// `PrintTimeStamp(descId)`: prints `descId is …, rsv is 0, timeStamp is …, pcPtr is …, entry is
/// ….` on stdout (see [`TimeStamp`]). `descId` values up to 0xffff are reserved for the library.
#[track_caller]
pub fn print_time_stamp(desc_id: u32) -> Result<()> {
    let t = time_stamp(desc_id)?;
    println!("{t}");
    Ok(())
}

fn prof(api: &'static str, start: bool, loc: SourceLoc) -> Result<()> {
    with_core(api, loc, |core| {
        require(core, api)?;
        let open = core.sync.marks.contains(&"MetricsProfStart");
        if open == start {
            core.warn(
                Category::Sync,
                api,
                if start {
                    "MetricsProfStart while a profiling range is already open: the range starts at the first one"
                } else {
                    "MetricsProfStop without an open MetricsProfStart: no range is closed"
                },
                loc,
            );
        } else if start {
            core.sync.marks.push("MetricsProfStart");
        } else {
            core.sync.marks.retain(|a| *a != "MetricsProfStart");
        }
        core.issue(Pipe::S, api, loc, &[]);
        Ok(())
    })
}

/// `MetricsProfStart()`: opens the code range the profiler measures (A2/A3). A `PIPE_S`
/// instruction marking the range in the instruction record; a second start warns.
#[track_caller]
pub fn metrics_prof_start() -> Result<()> {
    prof("MetricsProfStart", true, SourceLoc::caller())
}

/// `MetricsProfStop()`: closes the range opened by [`metrics_prof_start`] (A2/A3); a stop
/// without a start warns.
#[track_caller]
pub fn metrics_prof_stop() -> Result<()> {
    prof("MetricsProfStop", false, SourceLoc::caller())
}
