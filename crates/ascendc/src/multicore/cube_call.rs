//! Work a vector core of a mixed launch hands to the cube core of its AI Core. On Atlas A2/A3 a
//! vector core has no path into L1: its `DataCopy` from GM into a TSCM tensor (the cube core's
//! L1) is emulated in software as a message to the cube core, which performs the copy while it
//! serves Matmul requests (`REGIST_MATMUL_OBJ`), as the vendor's runtime does. The message and
//! its answer order the two cores like any cross-core synchronisation.

use super::sched::{self, Sched};
use crate::api::context::with_core;
use crate::core::trace::Pipe;
use crate::core::Core;
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::position::TPosition;

/// A call the cube core runs for one of its vector cores, on the cube core's state.
pub struct CubeCall(pub Box<dyn FnOnce() -> Result<()> + Send>);

/// True when a tensor at `pos` on the running core belongs to its cube core: a TSCM tensor on a
/// vector core that has one.
pub fn is_remote(pos: TPosition) -> bool {
    pos == TPosition::TSCM
        && crate::api::context::try_with_core(|c| c.id.kind == crate::core::CoreKind::Aiv)
            .unwrap_or(false)
        && sched::current("DataCopy").is_ok_and(|(s, me)| s.has_partner(me))
}

/// Runs `f` on the cube core of the running vector core's AI Core and waits for it.
pub fn call(
    api: &'static str,
    loc: SourceLoc,
    f: impl FnOnce() -> Result<()> + Send + 'static,
) -> Result<()> {
    let (sched, me) = sched::current(api)?;
    let cube = sched.group_cube_core(me).ok_or_else(|| {
        SimError::new(
            Category::Launch,
            api,
            "a vector core reaches L1 only through the cube core of its AI Core: launch the kernel as a mixed kernel",
        )
    })?;
    with_core(api, loc, |core| {
        core.issue(Pipe::S, api, loc, &[]);
        sched.post(me, cube, Box::new(CubeCall(Box::new(f))));
        let answer = sched.await_reply(me, api, loc)?;
        fence(core, &sched, me);
        let answer = *answer
            .downcast::<Result<()>>()
            .expect("a cube call is answered with its result");
        answer.map_err(|mut e| {
            e.location = e.location.or(Some(loc));
            e.block = Some(core.id.block_idx);
            e.core = Some(core.id);
            e
        })
    })
}

/// Records the core's new clock after a synchronisation with another core (for the GM race
/// check).
pub(crate) fn fence(core: &mut Core, sched: &Sched, me: usize) {
    let at = core.trace.seq();
    core.trace.gm_fence();
    core.sync.clocks.push((at, sched.clock(me)));
}
