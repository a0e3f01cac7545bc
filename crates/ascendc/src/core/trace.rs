//! The instruction record: every API call executes as one or more instructions on a named pipe,
//! each listing the memory it reads and writes. The hazard checker and timing model read this.

use crate::error::SourceLoc;
use crate::position::Hardware;
use rustc_hash::FxHashMap as HashMap;
use std::fmt;
use std::sync::OnceLock;

mod image;

pub(crate) use image::RecordImage;

/// The execution pipes of an AI core.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(clippy::upper_case_acronyms)]
pub enum Pipe {
    /// Scalar unit.
    S = 0,
    /// Vector unit.
    V,
    /// Cube unit.
    M,
    /// L1 → L0A/L0B/BT moves.
    MTE1,
    /// GM → local moves.
    MTE2,
    /// Local → GM moves.
    MTE3,
    /// Fixpipe (L0C → GM/L1, L1 → FB).
    FIX,
    /// Every pipe (barriers only).
    ALL,
}

impl Pipe {
    /// All pipes, in `Pipe as usize` order.
    pub const ALL_PIPES: [Pipe; 8] = [
        Pipe::S,
        Pipe::V,
        Pipe::M,
        Pipe::MTE1,
        Pipe::MTE2,
        Pipe::MTE3,
        Pipe::FIX,
        Pipe::ALL,
    ];

    /// The Ascend C spelling (`PIPE_MTE2`, …).
    pub const fn c_name(self) -> &'static str {
        match self {
            Pipe::S => "PIPE_S",
            Pipe::V => "PIPE_V",
            Pipe::M => "PIPE_M",
            Pipe::MTE1 => "PIPE_MTE1",
            Pipe::MTE2 => "PIPE_MTE2",
            Pipe::MTE3 => "PIPE_MTE3",
            Pipe::FIX => "PIPE_FIX",
            Pipe::ALL => "PIPE_ALL",
        }
    }
}

impl fmt::Display for Pipe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.c_name())
    }
}

/// Hardware events (`HardEvent`): the second pipe waits for the first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(non_camel_case_types, clippy::upper_case_acronyms, missing_docs)]
pub enum HardEvent {
    MTE2_MTE1 = 0,
    MTE1_MTE2,
    MTE1_M,
    M_MTE1,
    MTE2_V,
    V_MTE2,
    MTE3_V,
    V_MTE3,
    M_V,
    V_M,
    V_V,
    MTE3_MTE1,
    MTE1_MTE3,
    MTE1_V,
    MTE2_M,
    M_MTE2,
    V_MTE1,
    M_FIX,
    FIX_M,
    MTE3_MTE2,
    MTE2_MTE3,
    S_V,
    V_S,
    S_MTE2,
    MTE2_S,
    S_MTE3,
    MTE3_S,
    MTE2_FIX,
    FIX_MTE2,
    FIX_S,
    M_S,
    FIX_MTE3,
    MTE1_FIX,
    FIX_MTE1,
    FIX_FIX,
}

impl HardEvent {
    /// Number of event kinds.
    pub const COUNT: usize = 35;

    /// Every event kind, indexed by `HardEvent as usize`.
    pub const ALL: [HardEvent; HardEvent::COUNT] = {
        use HardEvent::*;
        [
            MTE2_MTE1, MTE1_MTE2, MTE1_M, M_MTE1, MTE2_V, V_MTE2, MTE3_V, V_MTE3, M_V, V_M, V_V,
            MTE3_MTE1, MTE1_MTE3, MTE1_V, MTE2_M, M_MTE2, V_MTE1, M_FIX, FIX_M, MTE3_MTE2,
            MTE2_MTE3, S_V, V_S, S_MTE2, MTE2_S, S_MTE3, MTE3_S, MTE2_FIX, FIX_MTE2, FIX_S, M_S,
            FIX_MTE3, MTE1_FIX, FIX_MTE1, FIX_FIX,
        ]
    };

    /// The (setting, waiting) pipes of the event.
    pub const fn pipes(self) -> (Pipe, Pipe) {
        use HardEvent::*;
        use Pipe::*;
        match self {
            MTE2_MTE1 => (MTE2, MTE1),
            MTE1_MTE2 => (MTE1, MTE2),
            MTE1_M => (MTE1, M),
            M_MTE1 => (M, MTE1),
            MTE2_V => (MTE2, V),
            V_MTE2 => (V, MTE2),
            MTE3_V => (MTE3, V),
            V_MTE3 => (V, MTE3),
            M_V => (M, V),
            V_M => (V, M),
            V_V => (V, V),
            MTE3_MTE1 => (MTE3, MTE1),
            MTE1_MTE3 => (MTE1, MTE3),
            MTE1_V => (MTE1, V),
            MTE2_M => (MTE2, M),
            M_MTE2 => (M, MTE2),
            V_MTE1 => (V, MTE1),
            M_FIX => (M, FIX),
            FIX_M => (FIX, M),
            MTE3_MTE2 => (MTE3, MTE2),
            MTE2_MTE3 => (MTE2, MTE3),
            S_V => (S, V),
            V_S => (V, S),
            S_MTE2 => (S, MTE2),
            MTE2_S => (MTE2, S),
            S_MTE3 => (S, MTE3),
            MTE3_S => (MTE3, S),
            MTE2_FIX => (MTE2, FIX),
            FIX_MTE2 => (FIX, MTE2),
            FIX_S => (FIX, S),
            M_S => (M, S),
            FIX_MTE3 => (FIX, MTE3),
            MTE1_FIX => (MTE1, FIX),
            FIX_MTE1 => (FIX, MTE1),
            FIX_FIX => (FIX, FIX),
        }
    }
}

/// Which memory an access touches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Space {
    /// A GM allocation, by region id.
    Gm(u64),
    /// An on-chip memory of the core.
    Local(Hardware),
}

/// A two-level strided byte pattern: `repeats` groups, each of `blocks` runs of `len` bytes.
/// Run `(r, b)` starts at `base + r·repeat_stride + b·block_stride`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Access {
    /// True for a write, false for a read.
    pub write: bool,
    /// The memory.
    pub space: Space,
    /// First byte.
    pub base: u64,
    /// Bytes per run.
    pub len: u32,
    /// Runs per group.
    pub blocks: u32,
    /// Bytes between run starts inside a group.
    pub block_stride: u64,
    /// Number of groups.
    pub repeats: u32,
    /// Bytes between group starts.
    pub repeat_stride: u64,
}

impl Access {
    /// One contiguous run of `len` bytes.
    pub fn contiguous(write: bool, space: Space, base: u64, len: u64) -> Access {
        Access {
            write,
            space,
            base,
            len: len.min(u32::MAX as u64) as u32,
            blocks: 1,
            block_stride: 0,
            repeats: 1,
            repeat_stride: 0,
        }
    }

    /// First byte past the pattern's furthest run (`base` when empty).
    pub fn end(&self) -> u64 {
        if self.len == 0 || self.blocks == 0 || self.repeats == 0 {
            return self.base;
        }
        self.base
            + (self.repeats as u64 - 1) * self.repeat_stride
            + (self.blocks as u64 - 1) * self.block_stride
            + self.len as u64
    }

    /// Total bytes moved (runs × len; overlapping runs count twice).
    pub fn bytes(&self) -> u64 {
        self.len as u64 * self.blocks as u64 * self.repeats as u64
    }
}

/// What an instruction does besides touching memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InstrKind {
    /// Data movement or computation.
    Op,
    /// `PipeBarrier<pipe>`.
    Barrier,
    /// `SetFlag<event>(id)`.
    SetFlag(HardEvent, u32),
    /// `WaitFlag<event>(id)`.
    WaitFlag(HardEvent, u32),
}

/// One recorded instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Instr {
    /// Pipe it runs on.
    pub pipe: Pipe,
    /// API that issued it.
    pub api: &'static str,
    /// Kind.
    pub kind: InstrKind,
    /// Kernel source line of the API call.
    pub location: SourceLoc,
    /// Lanes per repeat of a vector instruction (`256 / widest element size` bytes, at most 128),
    /// the cube cycles of a PIPE_M instruction (`timing::table::cube_steps`), 0 for others: the
    /// timing model's key for per-type throughput.
    pub lanes: u16,
    accesses: (u32, u32),
}

/// One entry of the GM footprint: GM bytes an instruction (or a run of instructions from one
/// call site between two synchronisations, whose contiguous accesses were merged) touched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GmTouch {
    /// The pattern (its `space` is the GM allocation).
    pub access: Access,
    /// Sequence number of the first instruction (its index in the full record when one is kept).
    pub seq: u32,
    /// API that issued it.
    pub api: &'static str,
    /// Kernel source line of the API call.
    pub location: SourceLoc,
    epoch: u32,
}

/// One kept instruction (12 bytes): its call site as an index into the trace's site table and
/// its number of accesses (the accesses of consecutive instructions follow one another).
#[derive(Debug, Clone, Copy)]
#[repr(C)]
struct Packed {
    site: u32,
    /// Lanes per repeat (operations, barriers) or the flag id (`SetFlag`, `WaitFlag`).
    arg: u32,
    pipe: Pipe,
    /// 0: operation, 1: barrier, 2: `SetFlag`, 3: `WaitFlag`.
    tag: u8,
    /// The flag's event (any for the other tags).
    event: HardEvent,
    /// Number of accesses; [`MANY`]: listed in [`Record::many`].
    accesses: u8,
}

/// [`Packed::accesses`] of an instruction with this many accesses or more.
const MANY: u8 = u8::MAX;

const _: () = assert!(std::mem::size_of::<Packed>() == 12);

impl Packed {
    /// The bytes of `instrs`, to compare records at the speed of `memcmp`.
    fn bytes(instrs: &[Packed]) -> &[u8] {
        // SAFETY: `Packed` is `repr(C)` with no padding (four bytes, four bytes, four one-byte
        // fields: 12 bytes, asserted above), so every byte of the slice is initialised.
        unsafe { std::slice::from_raw_parts(instrs.as_ptr().cast(), std::mem::size_of_val(instrs)) }
    }

    fn new(pipe: Pipe, kind: InstrKind, site: u32, lanes: u16, accesses: usize) -> Packed {
        let (tag, event, arg) = match kind {
            InstrKind::Op => (0, HardEvent::MTE2_MTE1, lanes as u32),
            InstrKind::Barrier => (1, HardEvent::MTE2_MTE1, lanes as u32),
            InstrKind::SetFlag(e, id) => (2, e, id),
            InstrKind::WaitFlag(e, id) => (3, e, id),
        };
        Packed {
            site,
            arg,
            pipe,
            tag,
            event,
            accesses: accesses.min(MANY as usize) as u8,
        }
    }

    fn kind(&self) -> InstrKind {
        let e = self.event;
        match self.tag {
            0 => InstrKind::Op,
            1 => InstrKind::Barrier,
            2 => InstrKind::SetFlag(e, self.arg),
            _ => InstrKind::WaitFlag(e, self.arg),
        }
    }

    fn lanes(&self) -> u16 {
        match self.tag {
            0 | 1 => self.arg as u16,
            _ => 0,
        }
    }
}

/// An access pattern without its base address (interned: a loop repeats a few of them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Shape {
    write: bool,
    space: Space,
    len: u32,
    blocks: u32,
    block_stride: u64,
    repeats: u32,
    repeat_stride: u64,
}

impl Shape {
    /// The shape of `a`.
    fn of(a: &Access) -> Shape {
        Shape {
            write: a.write,
            space: a.space,
            len: a.len,
            blocks: a.blocks,
            block_stride: a.block_stride,
            repeats: a.repeats,
            repeat_stride: a.repeat_stride,
        }
    }

    /// The access of this shape at `base`.
    fn at(&self, base: u64) -> Access {
        Access {
            write: self.write,
            space: self.space,
            base,
            len: self.len,
            blocks: self.blocks,
            block_stride: self.block_stride,
            repeats: self.repeats,
            repeat_stride: self.repeat_stride,
        }
    }
}

/// True when site-table entry `e` is call site (`api`, `location`), compared by address (a site
/// is one string in the binary).
#[inline(always)]
fn is_site(e: &(&'static str, SourceLoc), api: &'static str, location: &SourceLoc) -> bool {
    std::ptr::eq(e.0, api)
        && std::ptr::eq(e.1.file, location.file)
        && e.1.line == location.line
        && e.1.column == location.column
}

/// Accesses per call site whose shape is guessed from the site's previous instruction (a vector
/// instruction has up to four operands).
const GUESSED: usize = 4;

/// Call sites and shapes a cleared record keeps in its tables at most.
const KEPT_TABLES: usize = 1024;

/// Entries of the direct-mapped caches in front of the site and shape tables (log2).
const CACHE_BITS: u32 = 10;

/// A call site by address: API string and file string (pointer, length), line, column.
type SiteKey = ((usize, usize), (usize, usize), u32, u32);

/// A direct-mapped cache of table indices (`u32::MAX`: empty), `1 << CACHE_BITS` entries.
type Cache = Box<[u32; 1 << CACHE_BITS]>;

/// The kept record: 12 bytes per instruction and 12 per access, call sites and access shapes
/// stored once each.
#[derive(Debug)]
struct Record {
    instrs: Vec<Packed>,
    /// Access counts of [`MANY`] or more, by instruction index.
    many: HashMap<u32, u32>,
    bases: Vec<u64>,
    shapes: Vec<u32>,
    site_table: Vec<(&'static str, SourceLoc)>,
    site_index: HashMap<SiteKey, u32>,
    site_cache: Cache,
    shape_table: Vec<Shape>,
    shape_index: HashMap<Shape, u32>,
    shape_cache: Cache,
    /// Per call site, the site recorded after it last time (`u32::MAX`: none yet): a loop
    /// records its sites in the same order.
    next_site: Vec<u32>,
    /// Per call site, the shapes of its first [`GUESSED`] accesses last time (`u32::MAX`: none
    /// yet).
    site_shapes: Vec<[u32; GUESSED]>,
    /// The site recorded last (`u32::MAX`: none yet).
    last_site: u32,
}

impl Clone for Record {
    fn clone(&self) -> Record {
        let mut r = Record::default();
        r.clone_from(self);
        r
    }

    /// Field by field, reusing this record's memory (the pattern names every field, so that a
    /// new one is not forgotten here).
    fn clone_from(&mut self, src: &Record) {
        let Record {
            instrs,
            many,
            bases,
            shapes,
            site_table,
            site_index,
            site_cache,
            shape_table,
            shape_index,
            shape_cache,
            next_site,
            site_shapes,
            last_site,
        } = self;
        instrs.clone_from(&src.instrs);
        many.clone_from(&src.many);
        bases.clone_from(&src.bases);
        shapes.clone_from(&src.shapes);
        site_table.clone_from(&src.site_table);
        site_index.clone_from(&src.site_index);
        site_cache.clone_from(&src.site_cache);
        shape_table.clone_from(&src.shape_table);
        shape_index.clone_from(&src.shape_index);
        shape_cache.clone_from(&src.shape_cache);
        next_site.clone_from(&src.next_site);
        site_shapes.clone_from(&src.site_shapes);
        *last_site = src.last_site;
    }
}

impl Default for Record {
    fn default() -> Record {
        Record {
            instrs: Vec::new(),
            many: HashMap::default(),
            bases: Vec::new(),
            shapes: Vec::new(),
            site_table: Vec::new(),
            site_index: HashMap::default(),
            site_cache: Box::new([u32::MAX; 1 << CACHE_BITS]),
            shape_table: Vec::new(),
            shape_index: HashMap::default(),
            shape_cache: Box::new([u32::MAX; 1 << CACHE_BITS]),
            next_site: Vec::new(),
            site_shapes: Vec::new(),
            last_site: u32::MAX,
        }
    }
}

/// The cache entry of key hash `h` (its top bits after a multiplicative mix).
fn cache_slot(h: u64) -> usize {
    (h.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - CACHE_BITS)) as usize
}

impl Record {
    /// Empties the record, keeping its memory. The call-site and shape tables are kept too
    /// (the next block on the thread mostly runs the same calls, and refilling the tables cost
    /// more than a small block's own instructions), unless they have grown past
    /// [`KEPT_TABLES`] entries.
    fn clear(&mut self) {
        self.instrs.clear();
        self.many.clear();
        self.bases.clear();
        self.shapes.clear();
        self.last_site = u32::MAX;
        if self.site_table.len() + self.shape_table.len() <= KEPT_TABLES {
            return;
        }
        self.site_table.clear();
        self.site_index.clear();
        self.site_cache.fill(u32::MAX);
        self.shape_table.clear();
        self.shape_index.clear();
        self.shape_cache.fill(u32::MAX);
        self.next_site.clear();
        self.site_shapes.clear();
    }

    /// The index of call site (`api`, `location`) in the site table, added when new. The site
    /// that followed the last one the previous time is tried first.
    #[inline(always)]
    fn site(&mut self, api: &'static str, location: SourceLoc) -> u32 {
        let last = self.last_site as usize;
        let guess = self.next_site.get(last).copied().unwrap_or(u32::MAX);
        let i = match self.site_table.get(guess as usize) {
            Some(e) if is_site(e, api, &location) => guess,
            _ => {
                let i = self.site_lookup(api, location);
                if let Some(next) = self.next_site.get_mut(last) {
                    *next = i;
                }
                i
            }
        };
        self.last_site = i;
        i
    }

    /// The index of shape of access `a`, the `k`th of an instruction at `site`, in the shape
    /// table, added when new. The shape the site's `k`th access had last time is tried first.
    #[inline(always)]
    fn shape_at(&mut self, site: u32, k: usize, a: &Access) -> u32 {
        let shape = Shape::of(a);
        let guess = match self.site_shapes[site as usize].get(k) {
            Some(&g) => g,
            None => return self.shape_lookup(shape),
        };
        if self.shape_table.get(guess as usize) == Some(&shape) {
            return guess;
        }
        let i = self.shape_lookup(shape);
        self.site_shapes[site as usize][k] = i;
        i
    }

    /// [`Record::site`] by hash.
    #[inline(never)]
    fn site_lookup(&mut self, api: &'static str, location: SourceLoc) -> u32 {
        // Two call sites rarely share an API string, file and line; the cache entry is checked.
        let h = (api.as_ptr() as u64)
            ^ (location.file.as_ptr() as u64).rotate_left(24)
            ^ ((location.line as u64) << 40 | location.column as u64);
        let slot = cache_slot(h);
        let cached = self.site_cache[slot];
        if let Some(e) = self.site_table.get(cached as usize) {
            if is_site(e, api, &location) {
                return cached;
            }
        }
        let key = (
            (api.as_ptr() as usize, api.len()),
            (location.file.as_ptr() as usize, location.file.len()),
            location.line,
            location.column,
        );
        let (table, next, shapes) = (
            &mut self.site_table,
            &mut self.next_site,
            &mut self.site_shapes,
        );
        let i = *self.site_index.entry(key).or_insert_with(|| {
            table.push((api, location));
            next.push(u32::MAX);
            shapes.push([u32::MAX; GUESSED]);
            (table.len() - 1) as u32
        });
        self.site_cache[slot] = i;
        i
    }

    /// [`Record::shape_at`] by hash.
    #[inline(never)]
    fn shape_lookup(&mut self, shape: Shape) -> u32 {
        let a = &shape;
        let space = match a.space {
            Space::Gm(id) => id,
            Space::Local(h) => h as u64 | 1 << 63,
        };
        let slot = cache_slot(
            space
                ^ (a.write as u64) << 62
                ^ (a.len as u64 | (a.blocks as u64) << 32).rotate_left(16)
                ^ (a.block_stride ^ (a.repeats as u64) << 40).rotate_left(32)
                ^ a.repeat_stride.rotate_left(48),
        );
        let cached = self.shape_cache[slot];
        if self.shape_table.get(cached as usize) == Some(&shape) {
            return cached;
        }
        let table = &mut self.shape_table;
        let i = *self.shape_index.entry(shape).or_insert_with(|| {
            table.push(shape);
            (table.len() - 1) as u32
        });
        self.shape_cache[slot] = i;
        i
    }

    fn access(&self, k: usize) -> Access {
        self.shape_table[self.shapes[k] as usize].at(self.bases[k])
    }

    /// Number of accesses of instruction `i`.
    #[inline]
    fn count(&self, i: usize) -> usize {
        match self.instrs[i].accesses {
            MANY => self.many[&(i as u32)] as usize,
            n => n as usize,
        }
    }
}

/// The kept instructions in order, each with the index range of its accesses.
struct InstrIter<'a> {
    record: Option<&'a Record>,
    /// Next instruction from the front, and its first access.
    front: (usize, usize),
    /// One past the next instruction from the back, and one past its last access.
    back: (usize, usize),
}

impl<'a> InstrIter<'a> {
    fn new(record: Option<&'a Record>) -> InstrIter<'a> {
        InstrIter {
            record,
            front: (0, 0),
            back: record.map_or((0, 0), |r| (r.instrs.len(), r.bases.len())),
        }
    }
}

impl<'a> Iterator for InstrIter<'a> {
    type Item = InstrRef<'a>;

    #[inline]
    fn next(&mut self) -> Option<InstrRef<'a>> {
        if self.front.0 == self.back.0 {
            return None;
        }
        let record = self.record?;
        let (index, first) = self.front;
        let end = first + record.count(index);
        self.front = (index + 1, end);
        Some(InstrRef {
            record,
            index,
            accesses: first..end,
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.back.0 - self.front.0;
        (n, Some(n))
    }
}

impl DoubleEndedIterator for InstrIter<'_> {
    #[inline]
    fn next_back(&mut self) -> Option<Self::Item> {
        if self.front.0 == self.back.0 {
            return None;
        }
        let record = self.record?;
        let (index, end) = (self.back.0 - 1, self.back.1);
        let first = end - record.count(index);
        self.back = (index, first);
        Some(InstrRef {
            record,
            index,
            accesses: first..end,
        })
    }
}

impl ExactSizeIterator for InstrIter<'_> {}

/// One kept instruction as the checks read it, without building an [`Instr`].
#[derive(Debug, Clone)]
pub(crate) struct InstrRef<'a> {
    record: &'a Record,
    index: usize,
    /// Index range of its accesses in the record.
    accesses: std::ops::Range<usize>,
}

impl InstrRef<'_> {
    /// Pipe it runs on.
    pub(crate) fn pipe(&self) -> Pipe {
        self.record.instrs[self.index].pipe
    }

    /// Kind.
    pub(crate) fn kind(&self) -> InstrKind {
        self.record.instrs[self.index].kind()
    }

    /// Index of its call site in the trace's site table ([`Trace::site`]).
    pub(crate) fn site(&self) -> u32 {
        self.record.instrs[self.index].site
    }

    /// The instruction as [`Trace::instructions`] lists it, built from the compact record.
    pub(crate) fn instr(&self) -> Instr {
        let p = self.record.instrs[self.index];
        let (api, location) = self.record.site_table[p.site as usize];
        Instr {
            pipe: p.pipe,
            api,
            kind: p.kind(),
            location,
            lanes: p.lanes(),
            accesses: (self.accesses.start as u32, self.accesses.end as u32),
        }
    }

    /// Replaces the contents of `out` with its accesses.
    pub(crate) fn accesses_into(&self, out: &mut Vec<Access>) {
        out.clear();
        out.extend(self.accesses.clone().map(|k| self.record.access(k)));
    }

    /// Its accesses whose shape (an index into [`Trace::shapes`]) `keep` is true for, as the
    /// shape and the base address; the others are not read.
    pub(crate) fn shaped<'k>(&'k self, keep: &'k [bool]) -> impl Iterator<Item = (u32, u64)> + 'k {
        self.accesses.clone().filter_map(|k| {
            let shape = self.record.shapes[k];
            keep[shape as usize].then(|| (shape, self.record.bases[k]))
        })
    }
}

thread_local! {
    /// The memory of the last record this thread forgot, for its next one.
    static SPARE: std::cell::Cell<Option<Box<Kept>>> = const { std::cell::Cell::new(None) };
}

/// The compact record and, once asked for, its expansion.
#[derive(Debug, Clone, Default)]
struct Kept {
    record: Record,
    /// The record as [`Instr`]s and [`Access`]es, built on first request.
    expanded: OnceLock<(Vec<Instr>, Vec<Access>)>,
}

thread_local! {
    static GM_LAST_STACK: super::spare::VecStack<(u64, bool, usize)> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Tables of last footprint entries of ended blocks, for the thread's next block.
static SPARE_GM_LAST: super::spare::Spares<(u64, bool, usize)> =
    super::spare::Spares::new(&GM_LAST_STACK);

/// The per-core instruction record.
#[derive(Debug, Clone, Default)]
pub struct Trace {
    enabled: bool,
    /// The kept record, behind one pointer so that a block's report stays small to move (a
    /// launch of tens of thousands of blocks moves each report several times).
    kept: Option<Box<Kept>>,
    counts: [u64; 8],
    seq: u32,
    gm_log: bool,
    gm: Vec<GmTouch>,
    /// Per (allocation, write): the index in `gm` of the last entry, the one a contiguous next
    /// access may extend.
    gm_last: Vec<(u64, bool, usize)>,
    epoch: u32,
}

impl Trace {
    /// A trace that keeps full records when `enabled`, otherwise only per-pipe counts.
    pub fn new(enabled: bool) -> Trace {
        Trace {
            enabled,
            ..Trace::default()
        }
    }

    /// [`Trace::new`], also keeping the GM footprint (for the inter-core race check) when
    /// `gm_log`.
    pub fn with_gm_log(enabled: bool, gm_log: bool) -> Trace {
        Trace {
            enabled,
            gm_log,
            ..Trace::default()
        }
    }

    /// Sequence number the next instruction gets: the number issued so far.
    pub fn seq(&self) -> u32 {
        self.seq
    }

    /// Ends the current merge window of the GM footprint: accesses after a synchronisation or an
    /// atomic-mode change are never merged with earlier ones.
    pub fn gm_fence(&mut self) {
        self.epoch = self.epoch.wrapping_add(1);
    }

    /// The GM footprint (empty unless kept).
    pub fn gm_touches(&self) -> &[GmTouch] {
        &self.gm
    }

    /// Adds the GM accesses of an instruction to the footprint.
    #[inline(always)]
    fn log_gm(&mut self, api: &'static str, location: SourceLoc, accesses: &[Access]) {
        for a in accesses {
            if let Space::Gm(region) = a.space {
                if !self.extend_last(region, api, location, a) {
                    self.log_gm_entry(region, api, location, a);
                }
            }
        }
    }

    /// Grows the footprint entry last made for (`region`, write/read) by `a` when both are one
    /// contiguous run from the same call site in the same merge window and `a` starts where the
    /// entry ends (the common case of a loop copying tile after tile).
    #[inline(always)]
    fn extend_last(
        &mut self,
        region: u64,
        api: &'static str,
        location: SourceLoc,
        a: &Access,
    ) -> bool {
        if a.blocks != 1 || a.repeats != 1 || a.len == 0 {
            return false;
        }
        let Some(&(_, _, i)) = self
            .gm_last
            .iter()
            .find(|&&(r, w, _)| r == region && w == a.write)
        else {
            return false;
        };
        let epoch = self.epoch;
        let Some(last) = self.gm.get_mut(i) else {
            return false;
        };
        let l = &mut last.access;
        // Same call site, compared by address (a site is one string in the binary).
        if l.base.wrapping_add(l.len as u64) != a.base
            || last.epoch != epoch
            || l.blocks != 1
            || l.repeats != 1
            || last.location.line != location.line
            || last.location.column != location.column
            || !std::ptr::eq(last.api, api)
            || !std::ptr::eq(last.location.file, location.file)
        {
            return false;
        }
        match l.len.checked_add(a.len) {
            Some(len) => {
                l.len = len;
                true
            }
            None => false,
        }
    }

    /// Starts a footprint entry for `a` (unless it touches nothing).
    #[inline(never)]
    fn log_gm_entry(&mut self, region: u64, api: &'static str, location: SourceLoc, a: &Access) {
        if a.len == 0 || a.blocks == 0 || a.repeats == 0 {
            return;
        }
        let idx = self.gm.len();
        self.gm.push(GmTouch {
            access: *a,
            seq: self.seq,
            api,
            location,
            epoch: self.epoch,
        });
        match self
            .gm_last
            .iter_mut()
            .find(|(r, w, _)| *r == region && *w == a.write)
        {
            Some(slot) => slot.2 = idx,
            None => {
                if self.gm_last.capacity() == 0 {
                    self.gm_last = SPARE_GM_LAST.take();
                }
                self.gm_last.push((region, a.write, idx))
            }
        }
    }

    /// Ends the block's footprint: no entry is extended any more, and the table of last entries
    /// goes to the thread's next block.
    pub fn end_gm_log(&mut self) {
        SPARE_GM_LAST.give(std::mem::take(&mut self.gm_last));
    }

    /// Records one instruction.
    #[inline(always)]
    pub fn record(
        &mut self,
        pipe: Pipe,
        api: &'static str,
        kind: InstrKind,
        location: SourceLoc,
        accesses: &[Access],
    ) {
        self.record_lanes(pipe, api, kind, location, accesses, 0);
    }

    /// Records one instruction with its lanes per repeat (vector instructions).
    #[inline(always)]
    pub fn record_lanes(
        &mut self,
        pipe: Pipe,
        api: &'static str,
        kind: InstrKind,
        location: SourceLoc,
        accesses: &[Access],
        lanes: u16,
    ) {
        self.counts[pipe as usize] += 1;
        if self.gm_log && !accesses.is_empty() {
            self.log_gm(api, location, accesses);
        }
        self.seq = self.seq.wrapping_add(1);
        if self.enabled {
            // `accesses` is a constant at the flag and barrier call sites: they take the
            // smaller entry point.
            if accesses.is_empty() {
                self.push_bare(pipe, api, kind, location, lanes);
            } else {
                self.push(pipe, api, kind, location, accesses, lanes);
            }
        }
    }

    /// Drops the kept record (counts and the GM footprint stay). Its memory goes to the next
    /// record this thread starts, so that a launch checking block after block does not allocate
    /// and fault in fresh pages for each.
    pub fn forget_record(&mut self) {
        if let Some(mut kept) = self.kept.take() {
            kept.record.clear();
            kept.expanded = OnceLock::new();
            SPARE.with(|s| s.set(Some(kept)));
        }
    }

    /// Frees the memory [`Trace::forget_record`] left for this thread's next record.
    pub fn release_spare() {
        SPARE.with(|s| drop(s.take()));
    }

    /// The record to add to: this thread's spare one when none is kept yet, its expansion
    /// dropped.
    #[inline(always)]
    fn record_mut(&mut self) -> &mut Record {
        if !matches!(&self.kept, Some(k) if k.expanded.get().is_none()) {
            self.start_record();
        }
        &mut self
            .kept
            .as_mut()
            .expect("start_record keeps a record")
            .record
    }

    /// Takes a record to add to (this thread's spare one, or a new one), or drops the
    /// expansion of the kept one (it is rebuilt when next asked for).
    #[cold]
    #[inline(never)]
    fn start_record(&mut self) {
        let kept = self
            .kept
            .get_or_insert_with(|| SPARE.with(|s| s.take()).unwrap_or_default());
        kept.expanded = OnceLock::new();
    }

    /// Appends an instruction without accesses (flags, barriers).
    #[inline(never)]
    fn push_bare(
        &mut self,
        pipe: Pipe,
        api: &'static str,
        kind: InstrKind,
        location: SourceLoc,
        lanes: u16,
    ) {
        let r = self.record_mut();
        let site = r.site(api, location);
        r.instrs.push(Packed::new(pipe, kind, site, lanes, 0));
    }

    #[inline(never)]
    fn push(
        &mut self,
        pipe: Pipe,
        api: &'static str,
        kind: InstrKind,
        location: SourceLoc,
        accesses: &[Access],
        lanes: u16,
    ) {
        let r = self.record_mut();
        let site = r.site(api, location);
        for (k, a) in accesses.iter().enumerate() {
            let shape = r.shape_at(site, k, a);
            r.shapes.push(shape);
            r.bases.push(a.base);
        }
        if accesses.len() >= MANY as usize {
            r.many.insert(r.instrs.len() as u32, accesses.len() as u32);
        }
        r.instrs
            .push(Packed::new(pipe, kind, site, lanes, accesses.len()));
    }

    /// Counts `n` instructions on `pipe` without recording them (only valid while the record
    /// is off: a kept record must list every instruction).
    pub fn count(&mut self, pipe: Pipe, n: u64) {
        debug_assert!(!self.enabled, "a kept record must list every instruction");
        self.counts[pipe as usize] += n;
        self.seq = self.seq.wrapping_add(n as u32);
    }

    /// True when full records are kept.
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// Instructions issued per pipe, indexed by `Pipe as usize`.
    pub fn counts(&self) -> [u64; 8] {
        self.counts
    }

    /// The recorded instructions (empty when recording was off). The record is kept compact;
    /// the first call builds this list (and the accesses) from it.
    pub fn instructions(&self) -> &[Instr] {
        &self.expanded().0
    }

    /// The memory accesses of one recorded instruction.
    pub fn accesses(&self, instr: &Instr) -> &[Access] {
        &self.expanded().1[instr.accesses.0 as usize..instr.accesses.1 as usize]
    }

    fn expanded(&self) -> &(Vec<Instr>, Vec<Access>) {
        static NONE: (Vec<Instr>, Vec<Access>) = (Vec::new(), Vec::new());
        let Some(kept) = &self.kept else {
            return &NONE;
        };
        kept.expanded.get_or_init(|| {
            let r = &kept.record;
            (
                InstrIter::new(Some(r)).map(|i| i.instr()).collect(),
                (0..r.bases.len()).map(|k| r.access(k)).collect(),
            )
        })
    }

    /// The recorded instructions in order, read from the compact record.
    pub(crate) fn instrs(
        &self,
    ) -> impl DoubleEndedIterator<Item = InstrRef<'_>> + ExactSizeIterator + '_ {
        InstrIter::new(self.kept.as_deref().map(|k| &k.record))
    }

    /// Each distinct access shape of the kept record (few: a loop repeats them) as an access at
    /// base 0, in the order [`InstrRef::shaped`] indexes them. A record reusing a forgotten
    /// one's memory may also list shapes only earlier blocks used.
    pub(crate) fn shapes(&self) -> impl ExactSizeIterator<Item = Access> + '_ {
        let table = self
            .kept
            .as_ref()
            .map_or(&[][..], |k| &k.record.shape_table[..]);
        table.iter().map(|s| s.at(0))
    }

    /// API and source line of a call site of [`InstrRef::site`].
    pub(crate) fn site(&self, site: u32) -> (&'static str, SourceLoc) {
        let kept = self.kept.as_ref().expect("a site implies a record");
        kept.record.site_table[site as usize]
    }

    /// Bytes the kept record holds (instructions, accesses and their tables).
    pub fn record_bytes(&self) -> usize {
        let Some(kept) = &self.kept else {
            return 0;
        };
        let r = &kept.record;
        r.instrs.len() * std::mem::size_of::<Packed>()
            + r.bases.len() * (8 + 4)
            + r.site_table.len() * std::mem::size_of::<(&str, SourceLoc)>()
            + r.shape_table.len() * std::mem::size_of::<Shape>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn access_extent() {
        let a = Access {
            write: true,
            space: Space::Local(Hardware::UB),
            base: 64,
            len: 256,
            blocks: 2,
            block_stride: 288,
            repeats: 1,
            repeat_stride: 0,
        };
        assert_eq!(a.end(), 64 + 288 + 256);
        assert_eq!(a.bytes(), 512);
    }

    #[test]
    fn every_event_is_listed_at_its_index() {
        for (i, e) in HardEvent::ALL.iter().enumerate() {
            assert_eq!(*e as usize, i, "{e:?}");
        }
    }

    #[test]
    fn counts_without_records() {
        let mut t = Trace::new(false);
        let loc = SourceLoc::caller();
        t.record(Pipe::V, "Add", InstrKind::Op, loc, &[]);
        assert_eq!(t.counts()[Pipe::V as usize], 1);
        assert!(t.instructions().is_empty());
        let mut t = Trace::new(true);
        let acc = [Access::contiguous(false, Space::Gm(1), 0, 32)];
        t.record(Pipe::MTE2, "DataCopy", InstrKind::Op, loc, &acc);
        assert_eq!(t.accesses(&t.instructions()[0]), &acc);
    }

    #[test]
    fn sites_in_changing_order_with_changing_shapes_read_back_exactly() {
        let mut t = Trace::new(true);
        let sites = [
            SourceLoc::caller(),
            SourceLoc::caller(),
            SourceLoc::caller(),
        ];
        let ub = Space::Local(Hardware::UB);
        let mut expected = Vec::new();
        for k in 0..300u64 {
            // The order of the sites changes from step to step; a site's accesses change in
            // number, direction and length (a shorter tail tile every seventh step).
            let loc = sites[(k * k % 3) as usize];
            let len = if k % 7 == 6 { 96 } else { 512 };
            let acc = [
                Access::contiguous(k % 2 == 0, Space::Gm(3), k * 512, len),
                Access::contiguous(k % 3 == 0, ub, 0, len),
                Access::contiguous(true, ub, 1024, len + 32 * (k % 2)),
                Access::contiguous(false, ub, 2048 + 32 * (k % 3), len),
                // Past the accesses whose shape a site remembers.
                Access::contiguous(k % 5 == 0, ub, 4096, len + 32 * (k % 4)),
            ];
            let n = (k % 6) as usize;
            t.record(Pipe::MTE2, "DataCopy", InstrKind::Op, loc, &acc[..n]);
            expected.push((loc, acc[..n].to_vec()));
        }
        let got = t.instructions();
        assert_eq!(got.len(), expected.len());
        for (ins, (loc, acc)) in got.iter().zip(&expected) {
            assert_eq!(ins.location, *loc);
            assert_eq!(t.accesses(ins), &acc[..]);
        }
        // Read in place from the compact record, as the timing model reads it.
        let mut read = Vec::new();
        assert_eq!(t.instrs().len(), expected.len());
        for (ins, (loc, acc)) in t.instrs().zip(&expected) {
            assert_eq!(ins.instr().location, *loc);
            ins.accesses_into(&mut read);
            assert_eq!(read, acc[..]);
        }
    }

    #[test]
    fn the_kept_record_is_compact_and_reads_back_exactly() {
        let mut t = Trace::new(true);
        let (here, there) = (SourceLoc::caller(), SourceLoc::caller());
        let ub = Space::Local(Hardware::UB);
        let mut expected = Vec::new();
        for k in 0..10_000u64 {
            let copy = [
                Access::contiguous(false, Space::Gm(7), k * 512, 512),
                Access::contiguous(true, ub, (k % 2) * 512, 512),
            ];
            t.record(Pipe::MTE2, "DataCopy", InstrKind::Op, here, &copy);
            let e = InstrKind::SetFlag(HardEvent::MTE2_V, (k % 2) as u32);
            t.record(Pipe::MTE2, "SetFlag", e, there, &[]);
            let add = [Access {
                blocks: 8,
                block_stride: 32,
                repeats: 2,
                repeat_stride: 256,
                len: 32,
                ..copy[1]
            }];
            t.record_lanes(Pipe::V, "Add", InstrKind::Op, there, &add, 64);
            expected.push((
                Pipe::MTE2,
                "DataCopy",
                InstrKind::Op,
                here,
                0,
                copy.to_vec(),
            ));
            expected.push((Pipe::MTE2, "SetFlag", e, there, 0, Vec::new()));
            expected.push((Pipe::V, "Add", InstrKind::Op, there, 64, add.to_vec()));
        }
        // 12 bytes per instruction and 12 per access, plus a few sites and shapes.
        let n = t.instructions().len();
        assert_eq!(n, 30_000);
        assert!(
            t.record_bytes() < 12 * n + 12 * 30_000 + 1024,
            "{}",
            t.record_bytes()
        );
        // An instruction with more accesses than the packed count holds, between two others.
        let many: Vec<Access> = (0..300)
            .map(|k| Access::contiguous(false, ub, k * 64, 32))
            .collect();
        let wait = InstrKind::WaitFlag(HardEvent::FIX_FIX, 70_000);
        t.record(Pipe::V, "Gather", InstrKind::Op, here, &many);
        t.record(Pipe::FIX, "WaitFlag", wait, there, &[]);
        let tail = [Access::contiguous(true, ub, 0, 32)];
        t.record(Pipe::V, "Duplicate", InstrKind::Op, here, &tail);
        expected.push((Pipe::V, "Gather", InstrKind::Op, here, 0, many));
        expected.push((Pipe::FIX, "WaitFlag", wait, there, 0, Vec::new()));
        expected.push((Pipe::V, "Duplicate", InstrKind::Op, here, 0, tail.to_vec()));
        assert_eq!(t.instructions().len(), expected.len());
        for (ins, (pipe, api, kind, loc, lanes, acc)) in t.instructions().iter().zip(&expected) {
            assert_eq!(
                (ins.pipe, ins.api, ins.kind, ins.location, ins.lanes),
                (*pipe, *api, *kind, *loc, *lanes)
            );
            assert_eq!(t.accesses(ins), &acc[..]);
        }
        // The checks' reader walks the record both ways, reading the shapes it is asked for.
        let shapes: Vec<Access> = t.shapes().collect();
        let read = |i: InstrRef<'_>, keep: &[bool]| -> Vec<Access> {
            i.shaped(keep)
                .map(|(s, base)| Access {
                    base,
                    ..shapes[s as usize]
                })
                .collect()
        };
        let all = vec![true; shapes.len()];
        let forward: Vec<Vec<Access>> = t.instrs().map(|i| read(i, &all)).collect();
        let mut backward: Vec<Vec<Access>> = t.instrs().rev().map(|i| read(i, &all)).collect();
        backward.reverse();
        assert_eq!(forward, backward);
        assert!(forward.iter().zip(&expected).all(|(a, e)| a == &e.5));
        let writes: Vec<bool> = shapes.iter().map(|s| s.write).collect();
        let written: Vec<Vec<Access>> = t.instrs().map(|i| read(i, &writes)).collect();
        let expected_writes = expected
            .iter()
            .map(|e| e.5.iter().filter(|a| a.write).copied());
        assert!(written
            .iter()
            .zip(expected_writes)
            .all(|(a, e)| a.iter().copied().eq(e)));
        // Recording after a read rebuilds the lists.
        t.record(Pipe::MTE3, "DataCopy", InstrKind::Barrier, here, &[]);
        let last = t.instructions().last().copied().unwrap();
        assert_eq!((last.pipe, last.kind), (Pipe::MTE3, InstrKind::Barrier));
        assert!(t.accesses(&last).is_empty());
    }
}
