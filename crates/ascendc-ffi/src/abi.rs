//! The plain-data types that cross the C ABI, and the call wrapper that gives every call its C++
//! source location and turns errors into status codes.

use ascendc::error::{Category, SimError, SourceLoc};
use ascendc::position::{Hardware, TPosition};
use ascendc::{DType, DataFormat, LocalTensor, ShapeInfo};
use rustc_hash::FxHashMap;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::ffi::{c_char, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Mutex;

/// A C++ call site (`std::source_location` or `__builtin_FILE()` / `__builtin_LINE()`).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct AscLoc {
    /// NUL-terminated file name.
    pub file: *const c_char,
    /// 1-based line.
    pub line: u32,
    /// 1-based column, 0 when the compiler does not provide it.
    pub column: u32,
}

static FILES: Mutex<Option<HashMap<Vec<u8>, &'static str>>> = Mutex::new(None);

thread_local! {
    /// File names this thread has seen, by the address of the C++ string literal: a call site's
    /// `__FILE__` is one literal of the program (kernels are linked in, never unloaded), so the
    /// address identifies the name without reading it. The last one is kept apart, as
    /// consecutive calls mostly come from one file.
    static SEEN: RefCell<FxHashMap<usize, &'static str>> = RefCell::new(FxHashMap::default());
    static LAST_FILE: Cell<(usize, &'static str)> = const { Cell::new((0, "")) };
}

impl AscLoc {
    /// The location as the simulator records it. File names are interned once per name (and
    /// looked up once per thread and literal).
    pub fn source(self) -> SourceLoc {
        let key = self.file as usize;
        let file = LAST_FILE.with(|last| {
            let (k, f) = last.get();
            if k == key && key != 0 {
                return f;
            }
            let f = SEEN.with(|seen| {
                if let Some(f) = seen.borrow().get(&key) {
                    return *f;
                }
                let f = intern(self.file);
                seen.borrow_mut().insert(key, f);
                f
            });
            last.set((key, f));
            f
        });
        SourceLoc {
            file,
            line: self.line,
            column: self.column,
        }
    }
}

/// The interned copy of a C file name (`<unknown>` for null).
fn intern(file: *const c_char) -> &'static str {
    let name = if file.is_null() {
        b"<unknown>".to_vec()
    } else {
        // SAFETY: the C++ side passes a NUL-terminated string literal.
        unsafe { CStr::from_ptr(file) }.to_bytes().to_vec()
    };
    let mut files = FILES.lock().unwrap_or_else(|e| e.into_inner());
    files
        .get_or_insert_with(HashMap::new)
        .entry(name)
        .or_insert_with_key(|n| Box::leak(String::from_utf8_lossy(n).into_owned().into_boxed_str()))
}

/// `ShapeInfo` as C++ lays it out.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct AscShape {
    /// Dimensions used in `shape`.
    pub shape_dim: u8,
    /// Dimensions used in `original_shape`.
    pub original_shape_dim: u8,
    /// `DataFormat` index (ND 0, NZ 1).
    pub data_format: u8,
    /// Extents.
    pub shape: [u32; 8],
    /// Original extents.
    pub original_shape: [u32; 8],
}

impl AscShape {
    /// The simulator's ShapeInfo; more than 8 dimensions is an error.
    pub fn info(&self) -> Result<ShapeInfo, SimError> {
        let dims = |n: u8, v: &[u32; 8]| -> Vec<u32> {
            (0..n as usize)
                .map(|i| v.get(i).copied().unwrap_or(0))
                .collect()
        };
        let format = if self.data_format == 1 {
            DataFormat::NZ
        } else {
            DataFormat::ND
        };
        ShapeInfo::with_original(
            &dims(self.shape_dim, &self.shape),
            &dims(self.original_shape_dim, &self.original_shape),
            format,
        )
    }

    /// The plain-data form of a ShapeInfo.
    pub fn of(s: &ShapeInfo) -> AscShape {
        AscShape {
            shape_dim: s.shape_dim,
            original_shape_dim: s.original_shape_dim,
            data_format: (s.data_format == DataFormat::NZ) as u8,
            shape: s.shape,
            original_shape: s.original_shape,
        }
    }
}

/// A `LocalTensor` by value: position and buffer indices, byte address and length, the queue
/// buffer it came from (`owner_queue` 0: none) and its ShapeInfo (`has_shape` 0: none).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct AscLocal {
    /// Byte address in the physical buffer.
    pub addr: u32,
    /// Length in bytes.
    pub len: u32,
    /// Owning queue id, 0 when the tensor is not a queue buffer.
    pub owner_queue: u32,
    /// Allocation (generation) of the owning queue buffer the tensor belongs to.
    pub owner_gen: u32,
    /// Buffer index in the owning queue.
    pub owner_buf: u16,
    /// `TPosition` index.
    pub pos: u8,
    /// `Hardware` index.
    pub hw: u8,
    /// 1 when `shape` is set.
    pub has_shape: u8,
    /// The ShapeInfo.
    pub shape: AscShape,
}

/// A `GlobalTensor` by value: the GM pointer, the size given to `SetGlobalBuffer` and the
/// ShapeInfo (`has_shape` 0: none).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct AscGlobal {
    /// Host address inside a `GmAlloc` allocation.
    pub ptr: *const u8,
    /// Element count (0 when not given).
    pub size: u64,
    /// 1 when `shape` is set.
    pub has_shape: u8,
    /// The ShapeInfo.
    pub shape: AscShape,
}

const POSITIONS: [TPosition; 16] = {
    use TPosition::*;
    [
        GM,
        A1,
        A2,
        B1,
        B2,
        C1,
        C2,
        CO1,
        CO2,
        VECIN,
        VECOUT,
        VECCALC,
        SPM,
        TSCM,
        C2PIPE2GM,
        C2PIPE2LOCAL,
    ]
};

/// The position with C++ index `i` (`TPosition` numbering).
pub fn position(i: u8) -> Result<TPosition, SimError> {
    POSITIONS
        .get(i as usize)
        .copied()
        .ok_or_else(|| invalid("TPosition", i))
}

/// The element type with C++ index `i` ([`DType`] order).
pub fn dtype(i: u8) -> Result<DType, SimError> {
    DType::ALL
        .get(i as usize)
        .copied()
        .ok_or_else(|| invalid("element type", i))
}

/// The buffer with C++ index `i` (`Hardware` numbering).
pub fn hardware(i: u8) -> Result<Hardware, SimError> {
    std::iter::once(Hardware::GM)
        .chain(Hardware::LOCAL)
        .nth(i as usize)
        .ok_or_else(|| invalid("buffer", i))
}

fn invalid(what: &str, i: u8) -> SimError {
    SimError::new(
        Category::Range,
        "C ABI",
        format!("invalid {what} index {i} from the C++ side"),
    )
}

impl AscLocal {
    /// The tensor as the simulator's handle.
    pub fn tensor<T: ascendc::Element>(&self) -> Result<LocalTensor<T>, SimError> {
        let owner =
            (self.owner_queue != 0).then_some((self.owner_queue, self.owner_buf, self.owner_gen));
        let mut t = LocalTensor::from_parts(
            position(self.pos)?,
            hardware(self.hw)?,
            self.addr,
            self.len,
            owner,
        )?;
        if self.has_shape != 0 {
            t.set_shape_info(self.shape.info()?);
        }
        Ok(t)
    }

    /// The plain-data form of a simulator handle.
    pub fn of<T: ascendc::Element>(t: &LocalTensor<T>) -> AscLocal {
        let (pos, hw, addr, len, owner) = t.to_parts();
        let (owner_queue, owner_buf, owner_gen) = owner.unwrap_or((0, 0, 0));
        let shape = t.get_shape_info();
        AscLocal {
            addr,
            len,
            owner_queue,
            owner_gen,
            owner_buf,
            pos: POSITIONS.iter().position(|p| *p == pos).unwrap_or(0) as u8,
            hw: hw as u8,
            has_shape: shape.is_some() as u8,
            shape: shape.as_ref().map(AscShape::of).unwrap_or_default(),
        }
    }
}

thread_local! {
    static LAST: RefCell<Option<SimError>> = const { RefCell::new(None) };
}

/// Runs one API call for the C++ side: `f` sees `loc` as its source location; an error (or a
/// panic) is kept as this thread's last error and becomes status 1.
pub fn call(loc: AscLoc, f: impl FnOnce() -> Result<(), SimError>) -> i32 {
    let loc = loc.source();
    // A panic must not unwind into C++: it becomes the call's error.
    let outcome = catch_unwind(AssertUnwindSafe(|| loc.scope(f))).unwrap_or_else(|panic| {
        let msg = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        Err(SimError::new(
            Category::Launch,
            "C ABI",
            format!("internal error in the simulator: {msg}"),
        ))
    });
    match outcome {
        Ok(()) => 0,
        Err(mut e) => {
            e.location.get_or_insert(loc);
            LAST.with(|l| *l.borrow_mut() = Some(e));
            1
        }
    }
}

/// Takes this thread's last error.
pub fn take_last_error() -> Option<SimError> {
    LAST.with(|l| l.borrow_mut().take())
}

/// Dispatches on a [`DType`]: binds the type alias `$t` to the Rust element type and evaluates
/// `$body`.
#[macro_export]
macro_rules! with_dtype {
    ($d:expr, $t:ident => $body:expr) => {
        match $d {
            ascendc::DType::Int8 => {
                type $t = i8;
                $body
            }
            ascendc::DType::Uint8 => {
                type $t = u8;
                $body
            }
            ascendc::DType::Int16 => {
                type $t = i16;
                $body
            }
            ascendc::DType::Uint16 => {
                type $t = u16;
                $body
            }
            ascendc::DType::Int32 => {
                type $t = i32;
                $body
            }
            ascendc::DType::Uint32 => {
                type $t = u32;
                $body
            }
            ascendc::DType::Int64 => {
                type $t = i64;
                $body
            }
            ascendc::DType::Uint64 => {
                type $t = u64;
                $body
            }
            ascendc::DType::Half => {
                type $t = ascendc::f16;
                $body
            }
            ascendc::DType::Bfloat16 => {
                type $t = ascendc::bf16;
                $body
            }
            ascendc::DType::Float => {
                type $t = f32;
                $body
            }
            ascendc::DType::Double => {
                type $t = f64;
                $body
            }
        }
    };
}

/// Prints this thread's last error to stderr (the C++ side calls it for a failure outside a
/// kernel launch, then exits).
#[no_mangle]
pub extern "C" fn ascendc_print_last_error() {
    match take_last_error() {
        Some(e) => eprintln!("error: {e}"),
        None => eprintln!("error: an Ascend C API call failed"),
    }
}
