//! Missing synchronisation inside one core, found with a vector-clock model over the
//! instruction record (`sync-and-launch.md` §5).
//!
//! Pipes run concurrently and a pipe may start an instruction before its previous one has
//! finished writing. Two accesses to the same bytes, at least one a write, are ordered only by a
//! `PipeBarrier` on the pipe, or by a `SetFlag` on the first pipe issued after the first access
//! and a matching `WaitFlag` on the second pipe issued before the second access (queue
//! operations record exactly these flags). Pairs the compiler's automatic synchronisation
//! orders (vector after vector, anything with the scalar pipe) are not reported.
//!
//! The work is linear in the record: an access is kept only while some pipe that still issues
//! accesses later is not yet ordered after it, so a synchronised kernel keeps a handful of
//! accesses alive however long it runs, and a query visits only the live accesses near its bytes.

use super::{overlap_span, runs_into};
use crate::core::trace::{Access, HardEvent, InstrKind, Pipe, RecordImage, Space, Trace};
use crate::error::{Category, Diagnostic, Severity, SourceLoc};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::cell::Cell;
use std::collections::VecDeque;

const PIPES: usize = 8;

/// A pipe's instruction count, as the clocks hold it (a block's record could not hold 2^32
/// instructions).
type Clock = u32;

/// An access still able to conflict with later ones.
#[derive(Clone, Copy)]
struct Live {
    /// Its shape (an index into [`Trace::shapes`]) and base address.
    shape: u32,
    base: u64,
    /// Its pattern regardless of direction ([`Facts::pattern`]).
    pattern: u32,
    /// First byte past its last run, and whether it writes and is solid ([`solid`]).
    end: u64,
    write: bool,
    solid: bool,
    pipe: Pipe,
    /// The pipe's instruction count when it issued the access.
    seq: Clock,
    /// Call site, as an index into the trace's site table.
    site: u32,
    /// The buckets it is filed under (`None`: the wide list).
    span: Span,
    /// Index of its memory in the address index ([`Buckets::space`]).
    sp: u32,
    /// Issue order over all accesses; identifies the occupant of a slot.
    id: u64,
    /// False while the slot is free.
    alive: bool,
    /// The last query that visited this access (to visit it once per query).
    seen: u64,
}

/// What the checker needs of an access shape, found once per shape of the record.
struct Facts {
    /// The shape as an access at base 0.
    at0: Access,
    /// Checked at all: it touches bytes, and writes or reads a memory the record writes.
    keep: bool,
    /// Bytes from the base to the end of its last run.
    extent: u64,
    solid: bool,
    /// Shapes alike but for the direction share this number.
    pattern: u32,
}

/// A shape's pattern regardless of direction: memory, run length, runs per group, their
/// stride, groups and their stride.
type PatternKey = (Space, u32, u32, u64, u32, u64);

impl Facts {
    /// Fills `facts` and `keep` with the facts of every shape of `trace` (`patterns` is
    /// working memory).
    fn fill(
        trace: &Trace,
        facts: &mut Vec<Facts>,
        keep: &mut Vec<bool>,
        patterns: &mut HashMap<PatternKey, u32>,
    ) {
        facts.clear();
        keep.clear();
        patterns.clear();
        // A read of a memory that nothing in the record writes can not take part in a hazard:
        // such reads (a kernel's input tensors) are skipped.
        let mut written: Vec<Space> = Vec::new();
        for s in trace.shapes().filter(|s| s.write) {
            if !written.contains(&s.space) {
                written.push(s.space);
            }
        }
        for at0 in trace.shapes() {
            let key = (
                at0.space,
                at0.len,
                at0.blocks,
                at0.block_stride,
                at0.repeats,
                at0.repeat_stride,
            );
            let next = patterns.len() as u32;
            let f = Facts {
                at0,
                keep: nonempty(&at0) && (at0.write || written.contains(&at0.space)),
                extent: at0.end(),
                solid: solid(&at0),
                pattern: *patterns.entry(key).or_insert(next),
            };
            keep.push(f.keep);
            facts.push(f);
        }
    }

    /// The access of this shape at `base`.
    fn at(&self, base: u64) -> Access {
        Access { base, ..self.at0 }
    }
}

/// Bytes per page: the unit of the order in which a query meets earlier accesses.
const PAGE: u64 = 4096;
/// Accesses spanning more pages than this are kept in one list every query visits.
const MAX_PAGES: u64 = 256;
/// Bytes per bucket of the address index.
const BUCKET: u64 = 512;

/// First and last bucket of an access, `None` when it spans more than [`MAX_PAGES`] pages.
type Span = Option<(u64, u64)>;

/// The buckets the bytes `base .. end` touch (see [`Span`]); `end > base`.
fn buckets(base: u64, end: u64) -> Span {
    let last = end - 1;
    (last / PAGE - base / PAGE < MAX_PAGES).then_some((base / BUCKET, last / BUCKET))
}

/// True when the pattern's runs tile `[base, end)` without gaps or overlaps, in order.
fn solid(a: &Access) -> bool {
    let len = a.len as u64;
    (a.blocks == 1 || a.block_stride == len)
        && (a.repeats == 1 || a.repeat_stride == len * a.blocks as u64)
}

/// Buckets per memory held in a vector (from the first one used; 32 MiB); others go to a map.
const DENSE: u64 = 1 << 16;

/// The address index: per memory and bucket, the slots of the live accesses touching it (in no
/// particular order). Emptied lists hand their storage back to a pool.
#[derive(Default)]
struct Buckets {
    /// Per memory: the first bucket used and the lists from it on.
    spaces: Vec<(Space, u64, Vec<Vec<u32>>)>,
    /// Per slot `id % 8`, a GM allocation `id` looked up and its index in `spaces` plus one
    /// (0: empty): a kernel alternates between a few allocations.
    gm: [(u64, usize); 8],
    /// Per on-chip memory (by `Hardware as usize`), its index in `spaces` plus one (0: none).
    local: [usize; 8],
    /// Lists outside a memory's dense range, by (index in `spaces`, bucket).
    sparse: HashMap<(usize, u64), Vec<u32>>,
    spare: Vec<Vec<u32>>,
}

impl Buckets {
    /// Index of `space` in `spaces`, added with bucket `first` as its first dense one when new.
    fn space(&mut self, space: Space, first: u64) -> usize {
        let id = match space {
            Space::Local(h) => {
                let k = &mut self.local[h as usize % 8];
                if *k == 0 {
                    self.spaces.push((space, first, Vec::new()));
                    *k = self.spaces.len();
                }
                return *k - 1;
            }
            Space::Gm(id) => id,
        };
        let slot = &mut self.gm[id as usize % 8];
        if slot.0 == id && slot.1 != 0 {
            return slot.1 - 1;
        }
        let i = match self.spaces.iter().position(|e| e.0 == space) {
            Some(i) => i,
            None => {
                self.spaces.push((space, first, Vec::new()));
                self.spaces.len() - 1
            }
        };
        *slot = (id, i + 1);
        i
    }

    /// The list of bucket `bucket` of memory `sp` (an index from [`Buckets::space`]).
    #[inline]
    fn list(&self, sp: usize, bucket: u64) -> Option<&Vec<u32>> {
        let (_, origin, dense) = &self.spaces[sp];
        match bucket.checked_sub(*origin).filter(|&d| d < DENSE) {
            Some(d) => dense.get(d as usize),
            None => self.sparse.get(&(sp, bucket)),
        }
    }

    #[inline]
    fn push(&mut self, sp: usize, bucket: u64, slot: u32) {
        let (_, origin, dense) = &mut self.spaces[sp];
        let list = match bucket.checked_sub(*origin).filter(|&d| d < DENSE) {
            Some(d) => {
                let d = d as usize;
                if dense.len() <= d {
                    dense.resize_with(d + 1, Vec::new);
                }
                &mut dense[d]
            }
            None => self.sparse.entry((sp, bucket)).or_default(),
        };
        if list.capacity() == 0 {
            if let Some(v) = self.spare.pop() {
                *list = v;
            }
        }
        list.push(slot);
    }

    #[inline]
    fn remove(&mut self, sp: usize, bucket: u64, slot: u32) {
        let (_, origin, dense_lists) = &mut self.spaces[sp];
        let dense = bucket.checked_sub(*origin).filter(|&d| d < DENSE);
        let list = match dense {
            Some(d) => dense_lists.get_mut(d as usize),
            None => self.sparse.get_mut(&(sp, bucket)),
        };
        let Some(list) = list else {
            return;
        };
        if let Some(k) = list.iter().position(|&j| j == slot) {
            list.swap_remove(k);
        }
        if list.is_empty() {
            self.spare.push(std::mem::take(list));
            if dense.is_none() {
                self.sparse.remove(&(sp, bucket));
            }
        }
    }
}

/// The live accesses, in slots reused as accesses retire. Indexed by the address buckets they
/// touch, so that a query visits only accesses near its own bytes; and per pipe in issue order,
/// so that accesses every later pipe is ordered after are retired from the front. A later
/// access of the same pipe to the same pattern replaces an earlier one (a read only replaces a
/// read): it conflicts with everything the earlier one would.
#[derive(Default)]
struct LiveSet {
    slots: Vec<Live>,
    free: Vec<u32>,
    buckets: Buckets,
    wide: Vec<u32>,
    /// Per pipe, `(slot, id)` of its accesses in issue order (entries whose slot has since been
    /// freed or reused are skipped).
    by_pipe: [VecDeque<(u32, u64)>; PIPES],
    live: usize,
    /// Per pipe, the horizon of the last retirement (accesses at or before it are gone).
    horizon: [Clock; PIPES],
    next_id: u64,
    query: u64,
    /// Per shape of the record, the index of its memory in [`Buckets::spaces`] once known
    /// (`u32::MAX` before).
    sp_of: Vec<u32>,
}

/// A checked access: its shape and base, what [`Facts`] says of the shape, the buckets it
/// touches and its memory's index in [`Buckets::spaces`].
#[derive(Clone, Copy)]
struct Query {
    shape: u32,
    base: u64,
    /// First byte past its last run.
    end: u64,
    write: bool,
    solid: bool,
    pattern: u32,
    span: Span,
    sp: usize,
}

impl LiveSet {
    /// The access of shape `shape` (with `facts` of every shape) at `base`, ready to be checked
    /// and inserted.
    fn query(&mut self, facts: &[Facts], shape: u32, base: u64) -> Query {
        let f = &facts[shape as usize];
        let end = base + f.extent;
        let span = buckets(base, end);
        let sp = match self.sp_of.get(shape as usize) {
            Some(&sp) if sp != u32::MAX => sp as usize,
            _ => {
                let first = span.map_or(base / BUCKET, |s| s.0);
                let sp = self.buckets.space(f.at0.space, first);
                if let Some(known) = self.sp_of.get_mut(shape as usize) {
                    *known = sp as u32;
                }
                sp
            }
        };
        Query {
            shape,
            base,
            end,
            write: f.at0.write,
            solid: f.solid,
            pattern: f.pattern,
            span,
            sp,
        }
    }

    /// Calls `f` once for every live access that may share bytes with `q`, in no particular
    /// order.
    #[inline]
    fn near(&mut self, q: &Query, mut f: impl FnMut(u32, &Live)) {
        let LiveSet {
            slots,
            buckets: index,
            wide,
            query,
            ..
        } = self;
        for &i in wide.iter() {
            f(i, &slots[i as usize]);
        }
        match q.span {
            // One bucket: each access in it once.
            Some((first, last)) if first == last => {
                if let Some(list) = index.list(q.sp, first) {
                    for &i in list {
                        f(i, &slots[i as usize]);
                    }
                }
            }
            Some((first, last)) => {
                *query += 1;
                let n = *query;
                for bucket in first..last + 1 {
                    if let Some(list) = index.list(q.sp, bucket) {
                        for &i in list {
                            let l = &mut slots[i as usize];
                            if l.seen != n {
                                l.seen = n;
                                f(i, l);
                            }
                        }
                    }
                }
            }
            None => {
                for (i, l) in slots.iter().enumerate() {
                    if l.alive && l.span.is_some() && l.sp == q.sp as u32 {
                        f(i as u32, l);
                    }
                }
            }
        }
    }

    /// Forgets every access and memory, keeping the storage for the next record.
    fn clear(&mut self) {
        let b = &mut self.buckets;
        for (_, _, lists) in b.spaces.drain(..) {
            b.spare
                .extend(lists.into_iter().filter(|l| l.capacity() > 0).map(|mut l| {
                    l.clear();
                    l
                }));
        }
        b.spare.extend(b.sparse.drain().map(|(_, mut l)| {
            l.clear();
            l
        }));
        (b.gm, b.local) = Default::default();
        self.slots.clear();
        self.free.clear();
        self.wide.clear();
        self.by_pipe.iter_mut().for_each(VecDeque::clear);
        self.live = 0;
        self.horizon = [0; PIPES];
        self.sp_of.clear();
    }

    fn insert(&mut self, pipe: Pipe, seq: Clock, q: &Query, site: u32) {
        // At most one live access per (pipe, pattern, write): a write replaces both. `same` is
        // the one of the same direction, `other` a read a write replaces.
        let (mut same, mut other) = (None, None);
        let slots = &self.slots;
        let first = match q.span {
            Some((first, _)) => self.buckets.list(q.sp, first),
            None => Some(&self.wide),
        };
        for &i in first.into_iter().flatten() {
            let l = &slots[i as usize];
            if l.base == q.base && l.pipe == pipe && (q.write || !l.write) && l.pattern == q.pattern
            {
                if l.write == q.write {
                    same = Some(i);
                } else {
                    other = Some(i);
                }
                if same.is_some() && (other.is_some() || !q.write) {
                    break;
                }
            }
        }
        let id = self.next_id;
        self.next_id += 1;
        if let Some(i) = other {
            self.remove(i);
        }
        // The same access again (the common case of a loop over queue buffers) takes over its
        // predecessor's slot and index entries.
        if let Some(i) = same {
            let l = &mut self.slots[i as usize];
            (l.seq, l.site, l.id) = (seq, site, id);
            self.push_fifo(pipe, i, id);
            return;
        }
        let entry = Live {
            shape: q.shape,
            base: q.base,
            pattern: q.pattern,
            end: q.end,
            write: q.write,
            solid: q.solid,
            pipe,
            seq,
            site,
            span: q.span,
            sp: q.sp as u32,
            id,
            alive: true,
            seen: 0,
        };
        let i = match self.free.pop() {
            Some(i) => {
                self.slots[i as usize] = entry;
                i
            }
            None => {
                self.slots.push(entry);
                (self.slots.len() - 1) as u32
            }
        };
        self.live += 1;
        match q.span {
            Some((first, last)) => {
                for bucket in first..last + 1 {
                    self.buckets.push(q.sp, bucket, i);
                }
            }
            None => self.wide.push(i),
        }
        self.push_fifo(pipe, i, id);
    }

    /// Lists access `id` in slot `i` last in its pipe's issue order (compacting the list when
    /// most of its entries are stale).
    fn push_fifo(&mut self, pipe: Pipe, i: u32, id: u64) {
        let fifo = &mut self.by_pipe[pipe as usize];
        if fifo.len() > 64 && fifo.len() > 2 * self.live {
            let slots = &self.slots;
            fifo.retain(|&(s, id)| slots[s as usize].alive && slots[s as usize].id == id);
        }
        fifo.push_back((i, id));
    }

    /// Drops a live access from the index and frees its slot.
    fn remove(&mut self, i: u32) {
        let l = &mut self.slots[i as usize];
        l.alive = false;
        let (sp, span) = (l.sp as usize, l.span);
        match span {
            Some((first, last)) => {
                for bucket in first..last + 1 {
                    self.buckets.remove(sp, bucket, i);
                }
            }
            None => {
                if let Some(k) = self.wide.iter().position(|&j| j == i) {
                    self.wide.swap_remove(k);
                }
            }
        }
        self.free.push(i);
        self.live -= 1;
    }

    /// Retires the accesses every watcher of their pipe is ordered after: those of pipe `p`
    /// issued at or before `min(vc[q][p])` over its watchers `q` (all of them when it has none).
    /// Only pipes watched by a clock row in the mask `changed` are looked at (all of them when
    /// `changed` is [`ALL_ROWS`]).
    fn retire(&mut self, vc: &[[Clock; PIPES]; PIPES], watchers: &[u8; PIPES], changed: u8) {
        for p in 0..PIPES {
            if watchers[p] & changed == 0 && changed != ALL_ROWS || self.by_pipe[p].is_empty() {
                continue;
            }
            let mut h = Clock::MAX;
            let mut w = watchers[p];
            while w != 0 {
                h = h.min(vc[w.trailing_zeros() as usize][p]);
                w &= w - 1;
            }
            if h == self.horizon[p] {
                continue;
            }
            self.horizon[p] = h;
            while let Some(&(i, id)) = self.by_pipe[p].front() {
                let l = &self.slots[i as usize];
                if l.alive && l.id == id {
                    if l.seq > h {
                        break;
                    }
                    self.remove(i);
                }
                self.by_pipe[p].pop_front();
            }
        }
    }
}

/// True when the compiler's automatic synchronisation orders the pair (`sync-and-launch.md` §4.2).
fn auto_synced(a: Pipe, b: Pipe) -> bool {
    a == Pipe::S || b == Pipe::S || (a == Pipe::V && b == Pipe::V)
}

/// Live accesses below which retirement waits.
const RETIRE_FROM: usize = 32;

/// Every clock row (and the watchers) changed.
const ALL_ROWS: u8 = u8::MAX;

/// Per pipe, the pipes (a bit mask) still to issue an access and not automatically ordered
/// with it: an access of the pipe can meet only these unordered.
fn watchers(pending: &[bool; PIPES]) -> [u8; PIPES] {
    let mut w = [0u8; PIPES];
    for (p, mask) in w.iter_mut().enumerate() {
        for (q, &pending) in pending.iter().enumerate() {
            if pending && !auto_synced(Pipe::ALL_PIPES[p], Pipe::ALL_PIPES[q]) {
                *mask |= 1 << q;
            }
        }
    }
    w
}

/// Set flags: their setter's clock snapshot, by event and id (small ids in an array).
struct Flags {
    small: Vec<Option<[Clock; PIPES]>>,
    other: HashMap<(HardEvent, u32), [Clock; PIPES]>,
}

/// Flag ids below this live in the array.
const SMALL_IDS: usize = 16;

impl Default for Flags {
    fn default() -> Flags {
        Flags {
            small: vec![None; HardEvent::COUNT * SMALL_IDS],
            other: HashMap::default(),
        }
    }
}

impl Flags {
    /// Clears every flag.
    fn clear(&mut self) {
        self.small.fill(None);
        self.other.clear();
    }

    fn slot(e: HardEvent, id: u32) -> Option<usize> {
        ((id as usize) < SMALL_IDS).then(|| e as usize * SMALL_IDS + id as usize)
    }

    /// Sets the flag to the setter's clock `row` with its own entry `p` at `count`; true when
    /// it was already set.
    fn set(&mut self, e: HardEvent, id: u32, row: &[Clock; PIPES], p: usize, count: Clock) -> bool {
        let (was, snap) = match Self::slot(e, id) {
            Some(k) => {
                let f = &mut self.small[k];
                let was = f.is_some();
                (was, f.insert(*row))
            }
            None => {
                let was = self.other.contains_key(&(e, id));
                (was, self.other.entry((e, id)).insert_entry(*row).into_mut())
            }
        };
        snap[p] = count;
        was
    }

    /// Clears the flag and merges the clock it was set with into `row`; false when it was not
    /// set.
    fn take_into(&mut self, e: HardEvent, id: u32, row: &mut [Clock; PIPES]) -> bool {
        let snap = match Self::slot(e, id) {
            Some(k) => self.small[k].take(),
            None => self.other.remove(&(e, id)),
        };
        let Some(snap) = snap else {
            return false;
        };
        for (r, s) in row.iter_mut().zip(snap) {
            *r = (*r).max(s);
        }
        true
    }
}

fn space_name(s: Space) -> String {
    match s {
        Space::Gm(id) => format!("GM allocation #{id}"),
        Space::Local(h) => h.to_string(),
    }
}

fn event_name(first: Pipe, second: Pipe) -> String {
    let short = |p: Pipe| p.c_name().trim_start_matches("PIPE_").to_string();
    format!("{}_{}", short(first), short(second))
}

fn nonempty(acc: &Access) -> bool {
    acc.len > 0 && acc.blocks > 0 && acc.repeats > 0
}

/// Reports the hazards of one core's record as warnings tagged with `block`.
///
/// A record that repeats the last one this thread found clean, but for one shift of the
/// addresses per memory (the next block of an SPMD kernel, on its own slice of GM), is clean
/// too and is not checked again: every pair of its accesses overlaps, and is ordered, exactly
/// as the pair it repeats.
pub fn hazards(trace: &Trace, block: u32) -> Vec<Diagnostic> {
    with_state(|state| {
        let (out, newly_clean) = check_unless_repeated(state, trace, block);
        if newly_clean {
            trace.image_into(&mut state.clean);
        }
        out
    })
}

/// [`hazards`], then drops the record ([`Trace::forget_record`]): a clean one is kept as the
/// record the next ones are compared with, moved rather than copied.
pub fn hazards_and_forget(trace: &mut Trace, block: u32) -> Vec<Diagnostic> {
    with_state(|state| {
        let (out, newly_clean) = check_unless_repeated(state, trace, block);
        match newly_clean {
            true => trace.forget_record_into(&mut state.clean),
            false => trace.forget_record(),
        }
        out
    })
}

/// The hazards of `trace`, none when it repeats the last clean record; and whether it was
/// checked and found clean (then the caller keeps it as `state.clean`).
fn check_unless_repeated(state: &mut State, trace: &Trace, block: u32) -> (Vec<Diagnostic>, bool) {
    if state.clean_known && trace.repeats(&mut state.clean) {
        return (Vec::new(), false);
    }
    let out = check(state, trace, block, RETIRE_FROM);
    state.clean_known = out.is_empty();
    (out, state.clean_known)
}

/// Runs `f` on this thread's checker memory.
fn with_state<R>(f: impl FnOnce(&mut State) -> R) -> R {
    let mut state = STATE.with(Cell::take).unwrap_or_default();
    let out = f(&mut state);
    STATE.with(|s| s.set(Some(state)));
    out
}

/// [`hazards`] without the repeat shortcut, retiring accesses once `retire_from` are live
/// (the reports do not depend on it).
#[cfg(test)]
fn hazards_retiring_from(trace: &Trace, block: u32, retire_from: usize) -> Vec<Diagnostic> {
    with_state(|state| check(state, trace, block, retire_from))
}

/// Checks `trace` with the working memory `state`, retiring accesses once `retire_from` are
/// live.
fn check(state: &mut State, trace: &Trace, block: u32, retire_from: usize) -> Vec<Diagnostic> {
    let State {
        flags,
        live,
        scratch,
        accesses,
        facts,
        keep,
        patterns,
        ..
    } = state;
    Facts::fill(trace, facts, keep, patterns);
    let (facts, keep) = (&facts[..], &keep[..]);
    // The last instruction at which each pipe checks an access: after it, the pipe can no
    // longer meet an earlier access. Found from the end; the scan stops once every pipe with
    // instructions has been seen.
    let mut last = [usize::MAX; PIPES];
    let mut unseen = trace.counts().iter().filter(|&&n| n > 0).count();
    for (i, ins) in trace.instrs().enumerate().rev() {
        if unseen == 0 {
            break;
        }
        let p = ins.pipe() as usize;
        if last[p] == usize::MAX
            && matches!(ins.kind(), InstrKind::Op)
            && ins.shaped(keep).next().is_some()
        {
            last[p] = i;
            unseen -= 1;
        }
    }
    let mut pending = last.map(|l| l != usize::MAX);
    let mut watch = watchers(&pending);
    let mut count: [Clock; PIPES] = [0; PIPES];
    let mut vc = [[0 as Clock; PIPES]; PIPES];
    live.sp_of.resize(facts.len(), u32::MAX);
    let mut out = Vec::new();
    let mut reported = HashSet::default();
    let warn = |api: &'static str, loc: SourceLoc, message: String| Diagnostic {
        severity: Severity::Warning,
        category: Category::Sync,
        api,
        message,
        location: Some(loc),
        block: Some(block),
    };
    // Clock rows changed since the last retirement, and the live count that starts the next.
    let (mut stale, mut retire_at) = (0u8, retire_from);
    for (i, ins) in trace.instrs().enumerate() {
        let (pipe, kind) = (ins.pipe(), ins.kind());
        let p = pipe as usize;
        // Clock rows this instruction changed.
        let mut changed = 0u8;
        match kind {
            InstrKind::Barrier if pipe == Pipe::ALL => {
                for row in vc.iter_mut() {
                    *row = count;
                }
                changed = ALL_ROWS;
            }
            InstrKind::Barrier => {
                vc[p][p] = count[p];
                changed = 1 << p;
            }
            InstrKind::SetFlag(e, id) => {
                if flags.set(e, id, &vc[p], p, count[p]) {
                    let (api, location) = trace.site(ins.site());
                    out.push(warn(
                        api,
                        location,
                        format!("SetFlag<{e:?}>({id}) while the flag is already set (a second set is lost on hardware)"),
                    ));
                }
            }
            InstrKind::WaitFlag(e, id) => {
                if flags.take_into(e, id, &mut vc[p]) {
                    changed = 1 << p;
                } else {
                    let (api, location) = trace.site(ins.site());
                    out.push(warn(
                        api,
                        location,
                        format!("WaitFlag<{e:?}>({id}) without a preceding SetFlag: the pipe would wait forever on hardware"),
                    ));
                }
            }
            InstrKind::Op => {
                count[p] += 1;
                let site = ins.site();
                accesses.clear();
                for (shape, base) in ins.shaped(keep) {
                    accesses.push(live.query(facts, shape, base));
                }
                for q in accesses.iter() {
                    check_access(pipe, q, facts, &vc, live, scratch, |l, lo, hi| {
                        let kind = match (l.write, q.write) {
                            (true, true) => "WAW",
                            (true, false) => "RAW",
                            _ => "WAR",
                        };
                        let (api, location) = trace.site(site);
                        let (l_api, l_location) = trace.site(l.site);
                        if !reported.insert((l_location, location, kind)) {
                            return;
                        }
                        let fix = if l.pipe == pipe {
                            format!("PipeBarrier<{}>", pipe.c_name())
                        } else {
                            format!("SetFlag/WaitFlag<{}>", event_name(l.pipe, pipe))
                        };
                        out.push(warn(
                            api,
                            location,
                            format!(
                                "{kind} hazard on {} bytes {lo}..{hi}: {} ({}) at {} and {} ({}) are not ordered; missing {fix}",
                                space_name(facts[q.shape as usize].at0.space),
                                l_api,
                                l.pipe.c_name(),
                                l_location,
                                api,
                                pipe.c_name(),
                            ),
                        ));
                    });
                }
                if last[p] == i {
                    pending[p] = false;
                    watch = watchers(&pending);
                    changed = ALL_ROWS;
                }
                // An access no later pipe can meet unordered is not kept at all.
                if watch[p] != 0 {
                    for q in accesses.iter() {
                        live.insert(pipe, count[p], q, site);
                    }
                }
            }
        }
        // Retiring only saves work (a retired access would not be reported again), so it waits
        // for the live set to grow: one pass then retires many accesses.
        stale |= changed;
        if stale != 0 && live.live >= retire_at {
            live.retire(&vc, &watch, stale);
            stale = 0;
            retire_at = retire_from.max(2 * live.live);
        }
    }
    live.clear();
    flags.clear();
    out
}

/// The checker's working memory, kept between the blocks a thread checks: a launch of many
/// small blocks would otherwise spend more on allocating it than on checking.
#[derive(Default)]
struct State {
    flags: Flags,
    live: LiveSet,
    scratch: Scratch,
    /// The checked accesses of the current instruction.
    accesses: Vec<Query>,
    /// What the checker needs of each shape of the record, and whether it checks it at all.
    facts: Vec<Facts>,
    keep: Vec<bool>,
    patterns: HashMap<PatternKey, u32>,
    /// The last record found clean (when `clean_known`).
    clean: RecordImage,
    clean_known: bool,
}

thread_local! {
    static STATE: Cell<Option<Box<State>>> = const { Cell::new(None) };
}

/// Frees the working memory [`hazards`] keeps on this thread for its next record.
pub fn release_state() {
    STATE.with(|s| drop(s.take()));
}

/// Reusable buffers: the query's runs, a live access's runs, and the hits of a query as
/// (order key, slot, first shared byte, last shared byte + 1).
#[derive(Default)]
struct Scratch {
    mine: Vec<(u64, u64)>,
    theirs: Vec<(u64, u64)>,
    hits: Vec<(Order, u32, u64, u64)>,
}

/// The order in which a query reports what it meets: accesses too wide to index first, then by
/// the first page they share with the query, then in issue order.
type Order = (bool, u64, u64);

/// Reports every live access `q` of `pipe` meets unordered, with the span of shared bytes, in
/// [`Order`].
fn check_access(
    pipe: Pipe,
    q: &Query,
    facts: &[Facts],
    vc: &[[Clock; PIPES]; PIPES],
    live: &mut LiveSet,
    scratch: &mut Scratch,
    mut report: impl FnMut(&Live, u64, u64),
) {
    let (base, end, solid_q, sp) = (q.base, q.end, q.solid, q.sp as u32);
    // The access's own runs, filled on first need.
    let mut mine = false;
    let Scratch {
        mine: runs,
        theirs,
        hits,
    } = scratch;
    hits.clear();
    live.near(
        q,
        #[inline(always)]
        |slot, l| {
            let (lb, le) = (l.base, l.end);
            // Every run lies inside `[base, end)`.
            if le <= base
                || end <= lb
                || l.sp != sp
                || !(l.write || q.write)
                || auto_synced(l.pipe, pipe)
                || vc[pipe as usize][l.pipe as usize] >= l.seq
            {
                return;
            }
            let shared = if solid_q && l.solid {
                Some((lb.max(base), le.min(end)))
            } else {
                if !mine {
                    runs_into(&facts[q.shape as usize].at(base), runs);
                    mine = true;
                }
                runs_into(&facts[l.shape as usize].at(lb), theirs);
                overlap_span(theirs, runs)
            };
            if let Some((lo, hi)) = shared {
                let page = match (l.span, q.span) {
                    (Some(_), Some(_)) => (lb / PAGE).max(base / PAGE),
                    _ => 0,
                };
                hits.push(((l.span.is_some(), page, l.id), slot, lo, hi));
            }
        },
    );
    if hits.len() > 1 {
        hits.sort_unstable_by_key(|h| h.0);
    }
    for &(_, slot, lo, hi) in hits.iter() {
        report(&live.slots[slot as usize], lo, hi);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Hardware;
    use proptest::prelude::*;

    /// True when `a` and `b` are the same pattern on the same memory, whether read or write.
    fn same_pattern(a: &Access, b: &Access) -> bool {
        a.space == b.space
            && a.base == b.base
            && a.len == b.len
            && a.blocks == b.blocks
            && a.block_stride == b.block_stride
            && a.repeats == b.repeats
            && a.repeat_stride == b.repeat_stride
    }

    /// The checker written out directly: every access against every earlier one still standing
    /// (not replaced by a later access of its pipe to the same pattern), visited in report
    /// order (accesses too wide to index first, then by the first page shared with the query,
    /// then in issue order), reporting the first pair per (earlier site, later site, kind).
    fn reference(trace: &Trace) -> Vec<String> {
        struct Past {
            acc: Access,
            pipe: Pipe,
            seq: u64,
            api: &'static str,
            location: SourceLoc,
            standing: bool,
        }
        let mut count = [0u64; PIPES];
        let mut vc = [[0u64; PIPES]; PIPES];
        let mut flags: std::collections::HashMap<(HardEvent, u32), [u64; PIPES]> =
            Default::default();
        let mut past: Vec<Past> = Vec::new();
        let mut out = Vec::new();
        let mut reported = std::collections::HashSet::new();
        for ins in trace.instructions() {
            let p = ins.pipe as usize;
            match ins.kind {
                InstrKind::Barrier if ins.pipe == Pipe::ALL => vc = [count; PIPES],
                InstrKind::Barrier => vc[p][p] = count[p],
                InstrKind::SetFlag(e, id) => {
                    let mut snap = vc[p];
                    snap[p] = count[p];
                    if flags.insert((e, id), snap).is_some() {
                        out.push(format!("double set {e:?} {id}"));
                    }
                }
                InstrKind::WaitFlag(e, id) => match flags.remove(&(e, id)) {
                    Some(snap) => {
                        for q in 0..PIPES {
                            vc[p][q] = vc[p][q].max(snap[q]);
                        }
                    }
                    None => out.push(format!("wait without set {e:?} {id}")),
                },
                InstrKind::Op => {
                    count[p] += 1;
                    for acc in trace.accesses(ins).iter().filter(|a| nonempty(a)) {
                        let key = |l: &Past| match (wide(&l.acc), wide(acc)) {
                            (true, _) => (0, 0),
                            (false, false) => (1, (l.acc.base / PAGE).max(acc.base / PAGE)),
                            (false, true) => (1, 0),
                        };
                        let mut order: Vec<usize> = (0..past.len()).collect();
                        order.sort_by_key(|&k| key(&past[k]));
                        for k in order {
                            let l = &past[k];
                            if !l.standing
                                || l.acc.space != acc.space
                                || !(l.acc.write || acc.write)
                                || auto_synced(l.pipe, ins.pipe)
                                || vc[p][l.pipe as usize] >= l.seq
                            {
                                continue;
                            }
                            let Some((lo, hi)) =
                                overlap_span(&super::super::runs(&l.acc), &super::super::runs(acc))
                            else {
                                continue;
                            };
                            let kind = match (l.acc.write, acc.write) {
                                (true, true) => "WAW",
                                (true, false) => "RAW",
                                _ => "WAR",
                            };
                            if reported.insert((l.location, ins.location, kind)) {
                                out.push(format!(
                                    "{kind} {:?} {lo}..{hi} {} {} {}",
                                    acc.space, l.api, l.pipe, ins.api
                                ));
                            }
                        }
                    }
                    for acc in trace.accesses(ins).iter().filter(|a| nonempty(a)) {
                        for l in past.iter_mut() {
                            if l.pipe == ins.pipe
                                && (acc.write || !l.acc.write)
                                && same_pattern(&l.acc, acc)
                            {
                                l.standing = false;
                            }
                        }
                        past.push(Past {
                            acc: *acc,
                            pipe: ins.pipe,
                            seq: count[p],
                            api: ins.api,
                            location: ins.location,
                            standing: true,
                        });
                    }
                }
            }
        }
        out
    }

    /// True when the access spans too many pages to index.
    fn wide(acc: &Access) -> bool {
        (acc.end() - 1) / PAGE - acc.base / PAGE >= MAX_PAGES
    }

    /// The checker's diagnostics in the reference's terms.
    fn summary(d: &Diagnostic) -> String {
        let m = &d.message;
        if let Some(rest) = m.strip_prefix("SetFlag<") {
            let (e, id) = rest.split_once(">(").unwrap();
            return format!("double set {e} {}", id.split(')').next().unwrap());
        }
        if let Some(rest) = m.strip_prefix("WaitFlag<") {
            let (e, id) = rest.split_once(">(").unwrap();
            return format!("wait without set {e} {}", id.split(')').next().unwrap());
        }
        // "KIND hazard on SPACE bytes LO..HI: API (PIPE) at LOC and API (PIPE) ..."
        let kind = &m[..3];
        let bytes = m.split(" bytes ").nth(1).unwrap();
        let (range, rest) = bytes.split_once(": ").unwrap();
        let first_api = rest.split(" (").next().unwrap();
        let first_pipe = rest.split(" (").nth(1).unwrap().split(')').next().unwrap();
        let space = if m.contains("GM allocation #1 ") {
            format!("{:?}", Space::Gm(1))
        } else {
            format!("{:?}", Space::Local(Hardware::UB))
        };
        format!("{kind} {space} {range} {first_api} {first_pipe} {}", d.api)
    }

    const APIS: [&str; 4] = ["A", "B", "C", "D"];
    const LOC: SourceLoc = SourceLoc {
        file: "k.rs",
        line: 1,
        column: 1,
    };

    const EVENTS: [HardEvent; 3] = [HardEvent::MTE2_V, HardEvent::V_MTE3, HardEvent::MTE3_MTE2];

    /// write, GM (else UB), base, len, blocks, block stride, repeats, repeat stride.
    /// (write, memory, base, len, blocks, block stride, repeats, repeat stride); memory 0 is UB,
    /// 1 a GM allocation, 2 a GM allocation only read (a kernel input).
    type RawAccess = (bool, u8, u64, u32, u32, u64, u32, u64);

    #[derive(Debug, Clone)]
    enum Step {
        Op(usize, usize, Vec<RawAccess>),
        Barrier(usize),
        Set(usize, u32),
        Wait(usize, u32),
    }

    /// Operations on up to three accesses drawn from `access`, flags and barriers.
    fn steps_of(access: impl Strategy<Value = RawAccess>) -> impl Strategy<Value = Step> {
        prop_oneof![
            6 => (0usize..8, 0usize..4, prop::collection::vec(access, 0..3))
                .prop_map(|(p, a, acc)| Step::Op(p, a, acc)),
            1 => (0usize..8).prop_map(Step::Barrier),
            2 => (0usize..3, 0u32..2).prop_map(|(e, id)| Step::Set(e, id)),
            2 => (0usize..3, 0u32..2).prop_map(|(e, id)| Step::Wait(e, id)),
        ]
    }

    /// Operations on a few fixed patterns (a loop over queue buffers), flags and barriers.
    fn repeated_step() -> impl Strategy<Value = Step> {
        let pattern = prop_oneof![
            Just((0u64, 512u32, 1u32, 0u64, 1u32, 0u64)),
            Just((512, 512, 1, 0, 1, 0)),
            Just((256, 32, 4, 64, 2, 512)),
            Just((0, 2048, 1, 0, 1, 0)),
        ];
        let access = (any::<bool>(), 0u8..3, pattern).prop_map(
            |(write, mem, (base, len, blocks, bs, repeats, rs))| {
                (write, mem, base, len, blocks, bs, repeats, rs)
            },
        );
        steps_of(access)
    }

    fn step() -> impl Strategy<Value = Step> {
        let access = (
            any::<bool>(),
            0u8..3,
            prop_oneof![0u64..1024, 0u64..(3 << 20)],
            prop_oneof![Just(0u32), 1u32..64, 1u32..8192],
            0u32..4,
            prop_oneof![Just(32u64), 0u64..256, 0u64..(1 << 20)],
            0u32..4,
            prop_oneof![Just(256u64), 0u64..2048, 0u64..(1 << 21)],
        );
        steps_of(access)
    }

    fn build(steps: &[Step]) -> Trace {
        let mut t = Trace::new(true);
        let loc = |k: usize| SourceLoc {
            file: "k.rs",
            line: k as u32 + 1,
            column: 1,
        };
        for s in steps {
            match s {
                Step::Op(p, a, accs) => {
                    let accs: Vec<Access> = accs
                        .iter()
                        .map(|&(write, mem, base, len, blocks, bs, repeats, rs)| Access {
                            write: write && mem != 2,
                            space: match mem {
                                0 => Space::Local(Hardware::UB),
                                1 => Space::Gm(1),
                                _ => Space::Gm(2),
                            },
                            base,
                            len,
                            blocks,
                            block_stride: bs,
                            repeats,
                            repeat_stride: rs,
                        })
                        .collect();
                    t.record(Pipe::ALL_PIPES[*p], APIS[*a], InstrKind::Op, loc(*a), &accs);
                }
                Step::Barrier(p) => {
                    t.record(Pipe::ALL_PIPES[*p], "B", InstrKind::Barrier, loc(9), &[])
                }
                Step::Set(e, id) => {
                    let (set, _) = EVENTS[*e].pipes();
                    t.record(set, "S", InstrKind::SetFlag(EVENTS[*e], *id), loc(10), &[])
                }
                Step::Wait(e, id) => {
                    let (_, wait) = EVENTS[*e].pipes();
                    t.record(
                        wait,
                        "W",
                        InstrKind::WaitFlag(EVENTS[*e], *id),
                        loc(11),
                        &[],
                    )
                }
            }
        }
        t
    }

    /// The checker's reports on `steps`, retiring from each of `thresholds`, are the
    /// reference's.
    fn matches_reference(steps: &[Step], thresholds: &[usize]) -> Result<(), TestCaseError> {
        let t = build(steps);
        let expected = reference(&t);
        for &retire_from in thresholds {
            let got: Vec<String> = hazards_retiring_from(&t, 0, retire_from)
                .iter()
                .map(summary)
                .collect();
            prop_assert_eq!(&got, &expected);
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]
        #[test]
        fn matches_the_quadratic_reference(steps in prop::collection::vec(step(), 0..60)) {
            matches_reference(&steps, &[1, RETIRE_FROM])?;
        }

        #[test]
        fn repeated_patterns_match_the_reference(
            steps in prop::collection::vec(repeated_step(), 0..120),
        ) {
            matches_reference(&steps, &[1, 4, RETIRE_FROM])?;
        }

        /// A record checked after a clean one (the repeat shortcut may answer for it) gets the
        /// reference's reports, whether it moves every access to a memory alike (it repeats
        /// the clean one) or each access on its own (then accesses may meet), and whether the
        /// clean one was copied or taken over.
        #[test]
        fn a_record_after_a_clean_one_matches_the_reference(
            ops in prop::collection::vec(
                (0usize..8, 0usize..4, prop::collection::vec((any::<bool>(), 0u8..2, 1u32..512), 1..3)),
                1..40,
            ),
            moves in prop::collection::vec(0u64..3, 1..4),
            forget in any::<bool>(),
        ) {
            // Access `k` at `k` KiB, moved by `moves[k % moves.len()]` half KiB: apart from
            // every other access before the move, maybe on the next one's bytes after it.
            let at = |moved: bool| -> Vec<Step> {
                let mut k = 0;
                ops.iter()
                    .map(|(p, a, accs)| {
                        let accs = accs
                            .iter()
                            .map(|&(w, mem, len)| {
                                k += 1;
                                let by = if moved { moves[k as usize % moves.len()] * 512 } else { 0 };
                                (w, mem, k * 1024 + by, len, 1, 0, 1, 0)
                            })
                            .collect();
                        Step::Op(*p, *a, accs)
                    })
                    .collect()
            };
            // Checked as a launch that keeps the records does, or as one that drops them.
            let run = |t: &mut Trace| match forget {
                true => hazards_and_forget(t, 0),
                false => hazards(t, 0),
            };
            prop_assert!(run(&mut build(&at(false))).is_empty());
            let mut then = build(&at(true));
            let expected = reference(&then);
            let got: Vec<String> = run(&mut then).iter().map(summary).collect();
            prop_assert_eq!(got, expected);
        }

        #[test]
        fn solid_overlap_matches_the_run_lists(
            a in (0u64..4096, 1u32..64, 1u32..4, 1u32..4),
            b in (0u64..4096, 1u32..64, 1u32..4, 1u32..4),
        ) {
            let pat = |(base, len, blocks, repeats): (u64, u32, u32, u32)| Access {
                write: true,
                space: Space::Local(Hardware::UB),
                base,
                len,
                blocks,
                block_stride: len as u64,
                repeats,
                repeat_stride: len as u64 * blocks as u64,
            };
            let (a, b) = (pat(a), pat(b));
            prop_assert!(solid(&a) && solid(&b));
            let direct = (a.base.max(b.base) < a.end().min(b.end()))
                .then(|| (a.base.max(b.base), a.end().min(b.end())));
            prop_assert_eq!(direct, overlap_span(&super::super::runs(&a), &super::super::runs(&b)));
        }
    }

    #[test]
    fn a_repeated_record_with_hazards_is_reported_again() {
        // MTE2 writes, V reads the same bytes without a flag: a RAW hazard, block after block
        // (each at its own GM offset), whether the checker copies clean records or takes them.
        let record = |gm: u64| {
            let mut t = Trace::new(true);
            let ub = Space::Local(Hardware::UB);
            let copy_in = [
                Access::contiguous(false, Space::Gm(1), gm, 512),
                Access::contiguous(true, ub, 0, 512),
            ];
            t.record(Pipe::MTE2, "DataCopy", InstrKind::Op, LOC, &copy_in);
            let add = [Access::contiguous(false, ub, 0, 512)];
            t.record(Pipe::V, "Adds", InstrKind::Op, LOC, &add);
            t
        };
        for block in 0..4u32 {
            let mut t = record(block as u64 * 4096);
            let found = match block % 2 {
                0 => hazards(&t, block),
                _ => hazards_and_forget(&mut t, block),
            };
            assert_eq!(found.len(), 1, "block {block}: {found:?}");
            assert!(
                found[0].message.starts_with("RAW hazard"),
                "{}",
                found[0].message
            );
            assert_eq!(found[0].block, Some(block));
        }
    }

    #[test]
    fn synchronised_accesses_retire() {
        // MTE2 writes, V reads after a flag, repeatedly: the live set stays small.
        let mut t = Trace::new(true);
        let ub = Space::Local(Hardware::UB);
        for k in 0..1000u64 {
            let w = [Access::contiguous(true, ub, k * 512, 512)];
            t.record(Pipe::MTE2, "DataCopy", InstrKind::Op, LOC, &w);
            let e = InstrKind::SetFlag(HardEvent::MTE2_V, 0);
            t.record(Pipe::MTE2, "SetFlag", e, LOC, &[]);
            let e = InstrKind::WaitFlag(HardEvent::MTE2_V, 0);
            t.record(Pipe::V, "WaitFlag", e, LOC, &[]);
            let r = [Access::contiguous(false, ub, k * 512, 512)];
            t.record(Pipe::V, "Adds", InstrKind::Op, LOC, &r);
            let e = InstrKind::SetFlag(HardEvent::V_MTE2, 0);
            t.record(Pipe::V, "SetFlag", e, LOC, &[]);
            let e = InstrKind::WaitFlag(HardEvent::V_MTE2, 0);
            t.record(Pipe::MTE2, "WaitFlag", e, LOC, &[]);
        }
        assert!(hazards(&t, 0).is_empty());
        // Without the flags back to MTE2 every V read stays live for a later MTE2 write.
        let mut set = LiveSet::default();
        let acc = Access::contiguous(true, ub, 0, 512);
        let facts = [Facts {
            at0: acc,
            keep: true,
            extent: acc.end(),
            solid: true,
            pattern: 0,
        }];
        let q = set.query(&facts, 0, 0);
        set.insert(Pipe::MTE2, 1, &q, 0);
        set.insert(Pipe::MTE2, 2, &q, 0);
        assert_eq!(
            set.live, 1,
            "a repeated pattern replaces the earlier access"
        );
        let mut vc = [[0; PIPES]; PIPES];
        let watch = watchers(&[true; PIPES]);
        set.retire(&vc, &watch, ALL_ROWS);
        assert_eq!(set.live, 1, "no pipe is ordered after the write yet");
        for q in [
            Pipe::V,
            Pipe::M,
            Pipe::MTE1,
            Pipe::MTE2,
            Pipe::MTE3,
            Pipe::FIX,
            Pipe::ALL,
        ] {
            vc[q as usize][Pipe::MTE2 as usize] = 2;
        }
        set.retire(&vc, &watch, ALL_ROWS);
        assert_eq!(set.live, 0);
        assert!(set
            .buckets
            .spaces
            .iter()
            .all(|s| s.2.iter().all(Vec::is_empty)));
        assert!(set.buckets.sparse.is_empty());
    }
}
