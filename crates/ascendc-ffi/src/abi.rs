//! The plain-data types that cross the C ABI, and the call wrapper that gives every call its C++
//! source location and turns errors into status codes.

use ascendc::error::{Category, SimError, SourceLoc};
use ascendc::position::{Hardware, TPosition};
use ascendc::{DType, LocalTensor};
use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::{c_char, CStr};
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

impl AscLoc {
    /// The location as the simulator records it. File names are interned once per name.
    pub fn source(self) -> SourceLoc {
        let name = if self.file.is_null() {
            b"<unknown>".to_vec()
        } else {
            // SAFETY: the C++ side passes a NUL-terminated string literal.
            unsafe { CStr::from_ptr(self.file) }.to_bytes().to_vec()
        };
        let mut files = FILES.lock().unwrap_or_else(|e| e.into_inner());
        let file = *files
            .get_or_insert_with(HashMap::new)
            .entry(name)
            .or_insert_with_key(|n| {
                Box::leak(String::from_utf8_lossy(n).into_owned().into_boxed_str())
            });
        SourceLoc {
            file,
            line: self.line,
            column: self.column,
        }
    }
}

/// A `LocalTensor` by value: position and buffer indices, byte address and length, and the queue
/// buffer it came from (`owner_queue` 0: none).
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct AscLocal {
    /// Byte address in the physical buffer.
    pub addr: u32,
    /// Length in bytes.
    pub len: u32,
    /// Owning queue id, 0 when the tensor is not a queue buffer.
    pub owner_queue: u32,
    /// Buffer index in the owning queue.
    pub owner_buf: u16,
    /// `TPosition` index.
    pub pos: u8,
    /// `Hardware` index.
    pub hw: u8,
}

/// A `GlobalTensor` by value: the GM pointer and the size given to `SetGlobalBuffer`.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct AscGlobal {
    /// Host address inside a `GmAlloc` allocation.
    pub ptr: *const u8,
    /// Element count (0 when not given).
    pub size: u64,
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

fn hardware(i: u8) -> Result<Hardware, SimError> {
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
        let owner = (self.owner_queue != 0).then_some((self.owner_queue, self.owner_buf));
        Ok(LocalTensor::from_parts(
            position(self.pos)?,
            hardware(self.hw)?,
            self.addr,
            self.len,
            owner,
        ))
    }

    /// The plain-data form of a simulator handle.
    pub fn of<T: ascendc::Element>(t: &LocalTensor<T>) -> AscLocal {
        let (pos, hw, addr, len, owner) = t.to_parts();
        let (owner_queue, owner_buf) = owner.unwrap_or((0, 0));
        AscLocal {
            addr,
            len,
            owner_queue,
            owner_buf,
            pos: POSITIONS.iter().position(|p| *p == pos).unwrap_or(0) as u8,
            hw: hw as u8,
        }
    }
}

thread_local! {
    static LAST: RefCell<Option<SimError>> = const { RefCell::new(None) };
}

/// Runs one API call for the C++ side: `f` sees `loc` as its source location; an error is kept
/// as this thread's last error and becomes status 1.
pub fn call(loc: AscLoc, f: impl FnOnce() -> Result<(), SimError>) -> i32 {
    let loc = loc.source();
    match loc.scope(f) {
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
