//! Matmul in a mixed kernel (the vendor's KFC): the vector cores hold Matmul clients whose calls
//! travel as messages to the cube core of their AI Core; the cube core, inside
//! `REGIST_MATMUL_OBJ`, serves them until every vector core of its AI Core has finished, and
//! never runs the rest of the kernel. Each vector core has its own Matmul state on the cube core
//! (per object); all of them share the cube core's L1, L0 and BiasTable from one start, as the
//! device's `InitShareBufStart` makes them, so the server serves one client at a time: a
//! synchronous `Iterate` keeps it on that client until `End`, `IterateAll` or `IterateBatch`
//! (the device's lock), and a switch between clients or objects waits for every pipe. Messages
//! and answers order the cores like any cross-core synchronisation (the GM race check and the
//! deadlock detection see them). A result for a vector core's UB goes through GM, as on Atlas
//! A2/A3 (no L0C → UB path): the cube core writes the block densely into the client's staging
//! buffer and the vector core copies it into UB.

use super::object::{new_matmul, GmOperand, MatmulOps};
use super::spec::MatmulSpec;
use super::tiling::TCubeTiling;
use crate::api::context::with_core;
use crate::core::trace::Pipe;
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::multicore::cube_call::{fence, CubeCall};
use crate::multicore::sched::{self, Mail, Sched};
use crate::{pipe_barrier, TPipe};
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

/// What a message does on the cube core.
type Op =
    Box<dyn FnOnce(&mut dyn MatmulOps, &mut TPipe) -> Result<Box<dyn std::any::Any + Send>> + Send>;

/// How a message changes which client the server keeps to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lock {
    /// No change.
    Keep,
    /// Serve only this client until a releasing message (synchronous `Iterate`).
    Acquire,
    /// Serve any client again (`End`, `IterateAll`, `IterateBatch`).
    Release,
}

/// A client's message: which of the registered objects, what to do, the lock.
struct Request {
    obj: usize,
    op: Op,
    lock: Lock,
}

/// The answer: the operation's result.
type Answer = Result<Box<dyn std::any::Any + Send>>;

/// A Matmul client on a vector core: its object index in `REGIST_MATMUL_OBJ` and the cube core
/// that serves it.
pub struct Client {
    obj: usize,
    me: usize,
    cube: usize,
    sched: Arc<Sched>,
}

impl Client {
    /// The client of object `obj` on the running vector core.
    pub fn new(obj: usize, api: &'static str) -> Result<Client> {
        let (sched, me) = sched::current(api)?;
        let cube = sched.group_cube_core(me).ok_or_else(|| {
            SimError::new(
                Category::Launch,
                api,
                "a Matmul called on a vector core needs a cube core in its AI Core: launch the kernel as a mixed kernel (__mix__(1, 2), KERNEL_TYPE_MIX_AIC_1_2) or define ASCENDC_CUBE_ONLY and launch it on cube cores",
            )
        })?;
        Ok(Client {
            obj,
            me,
            cube,
            sched,
        })
    }

    /// Sends `op` to the cube core and waits for its answer.
    pub fn call<R: Send + 'static>(
        &self,
        api: &'static str,
        lock: Lock,
        op: impl FnOnce(&mut dyn MatmulOps, &mut TPipe) -> Result<R> + Send + 'static,
    ) -> Result<R> {
        let loc = SourceLoc::caller();
        let op: Op =
            Box::new(move |m, p| op(m, p).map(|r| Box::new(r) as Box<dyn std::any::Any + Send>));
        let req: Mail = Box::new(Request {
            obj: self.obj,
            op,
            lock,
        });
        with_core(api, loc, |core| {
            core.issue(Pipe::S, api, loc, &[]);
            self.sched.post(self.me, self.cube, req);
            let answer = self.sched.await_reply(self.me, api, loc)?;
            fence(core, &self.sched, self.me);
            let answer = *answer
                .downcast::<Answer>()
                .expect("the server answers with an Answer");
            let value = answer.map_err(|mut e| {
                // The failing call is the client's: its location and block.
                e.location = e.location.or(Some(loc));
                e.block = Some(core.id.block_idx);
                e.core = Some(core.id);
                e
            })?;
            Ok(*value
                .downcast::<R>()
                .expect("the operation's own result type"))
        })
    }
}

/// True when the running core has a partner of the other kind in its AI Core (a mixed launch).
pub fn paired() -> bool {
    sched::current("REGIST_MATMUL_OBJ").is_ok_and(|(s, me)| s.has_partner(me))
}

/// One registered object on the cube core: its declaration and the tiling `REGIST_MATMUL_OBJ`
/// gave (none: the client's `Init` brings it).
pub struct Registered {
    /// The declaration.
    pub spec: MatmulSpec,
    /// The tiling.
    pub tiling: Option<TCubeTiling>,
}

/// `REGIST_MATMUL_OBJ` on the cube core of a mixed kernel: serves the vector cores of its AI
/// Core until all of them have finished.
pub fn serve(pipe: &mut TPipe, objects: &[Registered]) -> Result<()> {
    const API: &str = "REGIST_MATMUL_OBJ";
    let loc = SourceLoc::caller();
    let (sched, me) = sched::current(API)?;
    let start = pipe.cursors();
    let mut states: HashMap<(usize, usize), Box<dyn MatmulOps>> = HashMap::new();
    let mut deferred: VecDeque<(usize, Request)> = VecDeque::new();
    let mut locked: Option<usize> = None;
    let mut current: Option<(usize, usize)> = None;
    loop {
        let next = match deferred
            .iter()
            .position(|(from, _)| locked.is_none_or(|l| l == *from))
        {
            Some(i) => deferred.remove(i),
            None => {
                let got = with_core(API, loc, |core| {
                    let got = sched.receive(me, API, loc)?;
                    fence(core, &sched, me);
                    Ok(got)
                })?;
                match got {
                    Some((from, mail)) => match mail.downcast::<Request>() {
                        Ok(req) => Some((from, *req)),
                        Err(mail) => {
                            // A vector core's copy into TSCM: done at once, in message order.
                            let call = mail
                                .downcast::<CubeCall>()
                                .expect("a Matmul request or a cube call");
                            let r: Result<()> = (call.0)();
                            sched.reply(me, from, Box::new(r));
                            continue;
                        }
                    },
                    None => None,
                }
            }
        };
        let Some((from, req)) = next else {
            break;
        };
        if locked.is_some_and(|l| l != from) {
            deferred.push_back((from, req));
            continue;
        }
        let key = (from, req.obj);
        let answer: Answer = (|| {
            let reg = objects.get(req.obj).ok_or_else(|| {
                SimError::new(
                    Category::Range,
                    API,
                    format!(
                        "Matmul object {} is not registered on the cube core ({} registered)",
                        req.obj,
                        objects.len()
                    ),
                )
            })?;
            if current != Some(key) {
                // Another object's buffers alias these: wait for every pipe first.
                if current.is_some() {
                    pipe_barrier(Pipe::ALL)?;
                }
                current = Some(key);
            }
            let m = match states.entry(key) {
                std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
                std::collections::hash_map::Entry::Vacant(e) => {
                    let mut m = new_matmul(reg.spec)?;
                    if let Some(t) = &reg.tiling {
                        pipe.set_cursors(start);
                        m.init(pipe, t)?;
                    }
                    e.insert(m)
                }
            };
            pipe.set_cursors(start);
            (req.op)(m.as_mut(), pipe)
        })();
        match req.lock {
            Lock::Keep => {}
            Lock::Acquire => locked = Some(from),
            Lock::Release => locked = None,
        }
        sched.reply(me, from, Box::new(answer));
    }
    Ok(())
}

/// The GM buffer a client's UB results pass through: one L0C's worth (128 KiB).
pub const STAGING_BYTES: usize = 128 * 1024;

/// A staging buffer's operand for C of `dtype`.
pub fn staging(buf: &crate::GmBuffer, dtype: crate::DType) -> GmOperand {
    GmOperand {
        addr: buf.addr(),
        size: (STAGING_BYTES / dtype.size()) as u64,
        dtype,
    }
}
