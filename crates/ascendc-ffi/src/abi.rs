//! The plain-data types that cross the C ABI, and the call wrapper that gives every call its C++
//! source location and turns errors into status codes.

use ascendc::api::foreign::{ForeignLocal, LocalSizes};
use ascendc::error::{panic_text, Category, SimError, SourceLoc};
use ascendc::position::{Hardware, TPosition};
use ascendc::{DType, DataFormat, LocalTensor, ShapeInfo};
use rustc_hash::FxHashMap;
use std::any::Any;
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

/// The name a null file pointer stands for.
const UNKNOWN_FILE: &str = "<unknown>";

thread_local! {
    /// File names this thread has seen, by the address of the C++ string literal: a call site's
    /// `__FILE__` is one literal of the program (kernels are linked in, never unloaded), so the
    /// address identifies the name without reading it. The last one is kept apart, as
    /// consecutive calls mostly come from one file: finding it is one thread-local load.
    static SEEN: RefCell<FxHashMap<usize, &'static str>> = RefCell::new(FxHashMap::default());
    static LAST_FILE: Cell<(usize, &'static str)> = const { Cell::new((0, UNKNOWN_FILE)) };
}

impl AscLoc {
    /// The location as the simulator records it. File names are interned once per name (and
    /// looked up once per thread and literal).
    #[inline(always)]
    pub fn source(self) -> SourceLoc {
        let (key, last) = LAST_FILE.with(Cell::get);
        let file = if key == self.file as usize {
            last
        } else {
            self.file_name()
        };
        SourceLoc {
            file,
            line: self.line,
            column: self.column,
        }
    }

    /// The interned name of this location's file, remembered as this thread's last one.
    #[cold]
    #[inline(never)]
    fn file_name(self) -> &'static str {
        let key = self.file as usize;
        let f = SEEN.with(|seen| {
            if let Some(f) = seen.borrow().get(&key) {
                return *f;
            }
            let f = intern(self.file);
            seen.borrow_mut().insert(key, f);
            f
        });
        LAST_FILE.with(|last| last.set((key, f)));
        f
    }
}

/// The interned copy of a C file name (`<unknown>` for null).
fn intern(file: *const c_char) -> &'static str {
    let name = if file.is_null() {
        UNKNOWN_FILE.as_bytes().to_vec()
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
        let format = if self.data_format == 1 {
            DataFormat::NZ
        } else {
            DataFormat::ND
        };
        let (n, m) = (self.shape_dim as usize, self.original_shape_dim as usize);
        if n <= 8 && m <= 8 {
            return ShapeInfo::with_original(&self.shape[..n], &self.original_shape[..m], format);
        }
        // More than 8 dimensions: the dimension count (padded with zeros) is what gets reported.
        let dims = |n: usize, v: &[u32; 8]| -> Vec<u32> {
            (0..n).map(|i| v.get(i).copied().unwrap_or(0)).collect()
        };
        ShapeInfo::with_original(
            &dims(n, &self.shape),
            &dims(m, &self.original_shape),
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

/// A `LocalTensor` by value, as the C++ side holds it (`detail::RawLocal`): the simulator's own
/// handle layout ([`ForeignLocal`]), so that it crosses the ABI without conversion.
#[repr(transparent)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AscLocal(pub ForeignLocal);

impl std::ops::Deref for AscLocal {
    type Target = ForeignLocal;
    fn deref(&self) -> &ForeignLocal {
        &self.0
    }
}

/// A `GlobalTensor` by value: the GM pointer, the size given to `SetGlobalBuffer` and the
/// ShapeInfo (null: none; otherwise from [`ascendc_shape_intern`]).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct AscGlobal {
    /// Host address inside a `GmAlloc` allocation.
    pub ptr: *const u8,
    /// Element count (0 when not given).
    pub size: u64,
    /// The stored ShapeInfo, or null.
    pub shape: *const ShapeInfo,
}

// The C++ `ShapeInfo` is read in place from the simulator's stored copies.
const _: () = {
    use std::mem::{offset_of, size_of};
    assert!(size_of::<AscShape>() == size_of::<ShapeInfo>());
    assert!(offset_of!(AscShape, shape_dim) == offset_of!(ShapeInfo, shape_dim));
    assert!(offset_of!(AscShape, original_shape_dim) == offset_of!(ShapeInfo, original_shape_dim));
    assert!(offset_of!(AscShape, data_format) == offset_of!(ShapeInfo, data_format));
    assert!(offset_of!(AscShape, shape) == offset_of!(ShapeInfo, shape));
    assert!(offset_of!(AscShape, original_shape) == offset_of!(ShapeInfo, original_shape));
};

/// `SetShapeInfo`: stores `shape` once for the life of the process and gives its address, which
/// tensor handles hold (`GetShapeInfo` reads it in place). More than 8 dimensions is an error.
///
/// # Safety
/// `shape` is valid for reads and `out` for writes.
#[no_mangle]
pub unsafe extern "C" fn ascendc_shape_intern(
    shape: *const AscShape,
    out: *mut *const ShapeInfo,
    loc: AscLoc,
) -> i32 {
    call(loc, || {
        *out = (*shape).info()?.interned();
        Ok(())
    })
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

// The C++ index of a position is its discriminant.
const _: () = {
    let mut i = 0;
    while i < POSITIONS.len() {
        assert!(POSITIONS[i] as usize == i);
        i += 1;
    }
};

/// The buffers in C++ `Hardware` numbering: GM, then the on-chip buffers.
const BUFFERS: [Hardware; 1 + Hardware::LOCAL.len()] = {
    let mut b = [Hardware::GM; 1 + Hardware::LOCAL.len()];
    let mut i = 0;
    while i < Hardware::LOCAL.len() {
        b[i + 1] = Hardware::LOCAL[i];
        assert!(Hardware::LOCAL[i] as usize == i + 1);
        i += 1;
    }
    b
};

/// The position with C++ index `i` (`TPosition` numbering).
#[inline]
pub fn position(i: u8) -> Result<TPosition, SimError> {
    POSITIONS
        .get(i as usize)
        .copied()
        .ok_or_else(|| invalid("TPosition", i))
}

/// The element type with C++ index `i` ([`DType`] order).
#[inline]
pub fn dtype(i: u8) -> Result<DType, SimError> {
    DType::ALL
        .get(i as usize)
        .copied()
        .ok_or_else(|| invalid("element type", i))
}

/// The buffer with C++ index `i` (`Hardware` numbering).
#[inline]
pub fn hardware(i: u8) -> Result<Hardware, SimError> {
    BUFFERS
        .get(i as usize)
        .copied()
        .ok_or_else(|| invalid("buffer", i))
}

#[cold]
#[inline(never)]
fn invalid(what: &str, i: u8) -> SimError {
    SimError::new(
        Category::Range,
        "C ABI",
        format!("invalid {what} index {i} from the C++ side"),
    )
}

thread_local! {
    /// The on-chip buffer sizes of the core this thread's block runs on, read when the block
    /// starts ([`block_scope`]): handles coming back from C++ are bounds-checked against them
    /// without entering the core.
    static SIZES: Cell<Option<LocalSizes>> = const { Cell::new(None) };
}

/// Runs `f`, one block of a C++ kernel on the running core, with that core's buffer sizes kept
/// for [`AscLocal::tensor`].
pub fn block_scope<R>(f: impl FnOnce() -> R) -> R {
    struct Restore(Option<LocalSizes>);
    impl Drop for Restore {
        fn drop(&mut self) {
            SIZES.with(|s| s.set(self.0));
        }
    }
    let _restore = Restore(SIZES.with(|s| s.replace(LocalSizes::current())));
    f()
}

impl AscLocal {
    /// The tensor as the simulator's handle, when its indices are valid and its bytes lie in
    /// their buffer: checked against this block's cached buffer sizes without entering the
    /// core ([`AscLocal::views`]), or on the running core (which reports a bad handle, or one
    /// made outside a kernel).
    #[inline(always)]
    pub fn tensor<T: ascendc::TensorElement>(&self) -> Result<LocalTensor<T>, SimError> {
        match Self::views([self]) {
            Some([t]) => Ok(*t),
            None => self.checked(),
        }
    }

    /// [`AscLocal::tensor`] the long way: the indices decoded (an invalid one reported), the
    /// rest checked on the running core.
    #[inline(never)]
    fn checked<T: ascendc::TensorElement>(&self) -> Result<LocalTensor<T>, SimError> {
        let (pos, hw) = (position(self.pos)?, hardware(self.hw)?);
        // SAFETY: C++ handles come from `ForeignLocal::of` and `ascendc_shape_intern`.
        unsafe { self.0.checked(pos, hw) }
    }

    /// The tensors as the simulator's handles in place, when every one has valid indices and
    /// lies in its buffer by this block's cached sizes; `None` when [`AscLocal::tensor`] must
    /// check (and report) the long way.
    #[inline(always)]
    pub fn views<T: ascendc::TensorElement, const N: usize>(
        raw: [&AscLocal; N],
    ) -> Option<[&LocalTensor<T>; N]> {
        // Read in place: only the address leaves `with`.
        let sizes = SIZES.with(Cell::as_ptr);
        // SAFETY: the cell is this thread's, alive for this call, and set only by
        // `block_scope` around the whole block.
        let sizes = unsafe { &*sizes }.as_ref()?;
        for r in raw {
            // SAFETY: C++ handles come from `ForeignLocal::of` and `ascendc_shape_intern`.
            unsafe { r.0.view::<T>(sizes) }?;
        }
        // SAFETY: every handle passed `view`, which reads it in place as a `LocalTensor<T>`
        // (`AscLocal` is a transparent `ForeignLocal`): the views are the same pointers.
        Some(unsafe { std::mem::transmute_copy::<[&AscLocal; N], [&LocalTensor<T>; N]>(&raw) })
    }

    /// Runs `f` on this tensor as the simulator's handle: the C++ handle itself when it passes
    /// the block's cached checks ([`AscLocal::views`]), a checked copy otherwise.
    #[inline(always)]
    pub fn with<T: ascendc::TensorElement, R>(
        &self,
        f: impl FnOnce(&LocalTensor<T>) -> Result<R, SimError>,
    ) -> Result<R, SimError> {
        match Self::views([self]) {
            Some([t]) => f(t),
            None => f(&self.tensor()?),
        }
    }

    /// Makes `t` the simulator's handle of this tensor, as [`AscLocal::tensor`] gives it.
    #[inline(always)]
    pub fn load<T: ascendc::TensorElement>(&self, t: &mut LocalTensor<T>) -> Result<(), SimError> {
        *t = self.tensor()?;
        Ok(())
    }

    /// [`AscLocal::load`] for a call made at `loc` outside a location scope ([`call_at`]).
    #[inline(always)]
    pub fn load_at<T: ascendc::TensorElement>(
        &self,
        t: &mut LocalTensor<T>,
        loc: SourceLoc,
    ) -> Result<(), SimError> {
        if let Some([v]) = Self::views([self]) {
            *t = *v;
            return Ok(());
        }
        *t = loc.scope(|| self.checked())?;
        Ok(())
    }

    /// The C++ form of a simulator handle.
    #[inline(always)]
    pub fn of<T: ascendc::TensorElement>(t: &LocalTensor<T>) -> AscLocal {
        AscLocal(ForeignLocal::of(t))
    }

    /// Writes the C++ form of `t` into `out`.
    ///
    /// # Safety
    /// `out` is valid for writes.
    #[inline(always)]
    pub unsafe fn write<T: ascendc::TensorElement>(t: &LocalTensor<T>, out: *mut AscLocal) {
        out.write(AscLocal::of(t));
    }
}

thread_local! {
    static LAST: RefCell<Option<SimError>> = const { RefCell::new(None) };
}

/// Runs one API call for the C++ side: `f` sees `loc` as its source location; an error (or a
/// panic) is kept as this thread's last error and becomes status 1.
#[inline(always)]
pub fn call(loc: AscLoc, f: impl FnOnce() -> Result<(), SimError>) -> i32 {
    call_at(loc, |loc| loc.scope(f))
}

/// [`call`] for an entry point that hands the C++ call site to the API itself: `f` gets the
/// location, and no location scope is set around it.
#[inline(always)]
pub fn call_at(loc: AscLoc, f: impl FnOnce(SourceLoc) -> Result<(), SimError>) -> i32 {
    let loc = loc.source();
    // A panic must not unwind into C++: it becomes the call's error. Only the status leaves the
    // unwind guard, so that the error (kept by `failed`) is not moved on the common path.
    catch_unwind(AssertUnwindSafe(|| match f(loc) {
        Ok(()) => 0,
        Err(e) => failed(e, loc),
    }))
    .unwrap_or_else(|panic| failed(panic_error(panic), loc))
}

/// Keeps `e` (located at `loc` unless it has a location) as this thread's last error; status 1.
#[cold]
#[inline(never)]
fn failed(mut e: SimError, loc: SourceLoc) -> i32 {
    e.location.get_or_insert(loc);
    LAST.with(|l| *l.borrow_mut() = Some(e));
    1
}

/// The error a panic inside a call becomes.
#[cold]
#[inline(never)]
fn panic_error(panic: Box<dyn Any + Send>) -> SimError {
    SimError::new(
        Category::Launch,
        "C ABI",
        format!("internal error in the simulator: {}", panic_text(&*panic)),
    )
}

/// Takes this thread's last error.
pub fn take_last_error() -> Option<SimError> {
    LAST.with(|l| l.borrow_mut().take())
}

/// Dispatches on a [`DType`]: binds the type alias `$t` to the Rust element type and evaluates
/// `$body`. `int4b_t`, which only the APIs of `with_tensor_dtype!` take, returns
/// [`packed_type`]'s error from the enclosing function.
#[macro_export]
macro_rules! with_dtype {
    ($d:expr, $t:ident => $body:expr) => {
        match $d {
            ascendc::DType::Int4 => return Err($crate::abi::packed_type()),
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

/// [`with_dtype!`] for the APIs that take `int4b_t` too (tensor handles, buffers, `Cast`, the
/// cube loads and ND→NZ copies): `int4b_t` binds `$t` to [`ascendc::Int4`].
#[macro_export]
macro_rules! with_tensor_dtype {
    ($d:expr, $t:ident => $body:expr) => {
        match $d {
            ascendc::DType::Int4 => {
                type $t = ascendc::Int4;
                $body
            }
            d => $crate::with_dtype!(d, $t => $body),
        }
    };
}

/// The error of an `int4b_t` tensor passed to an API that does not take the type.
#[cold]
pub fn packed_type() -> SimError {
    SimError::new(
        Category::Type,
        "C ABI",
        "element type int4b_t is not supported by this API (it is documented for LocalTensor/GlobalTensor, \
         TBuf/LocalMemAllocator buffers, Cast to and from half, DataCopy ND→NZ into L1, LoadData, \
         LoadDataWithTranspose and Mmad)",
    )
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

#[cfg(test)]
mod tests {
    use super::*;
    use ascendc::chip::ChipProfile;
    use ascendc::Launch;

    fn at(file: &'static CStr, line: u32) -> AscLoc {
        AscLoc {
            file: file.as_ptr(),
            line,
            column: 0,
        }
    }

    #[test]
    fn call_sites_name_their_file() {
        let (a, b) = (at(c"a.cpp", 3), at(c"dir/b.cpp", 9));
        for _ in 0..2 {
            assert_eq!(a.source().to_string(), "a.cpp:3");
            assert_eq!(b.source().to_string(), "dir/b.cpp:9");
        }
        let none = AscLoc {
            file: std::ptr::null(),
            line: 4,
            column: 2,
        };
        assert_eq!(none.source().to_string(), "<unknown>:4:2");
    }

    #[test]
    fn errors_and_panics_become_status_1_with_the_call_site() {
        assert_eq!(call(at(c"k.cpp", 1), || Ok(())), 0);
        let fail = || Err(SimError::new(Category::Size, "Add", "too long"));
        assert_eq!(call(at(c"k.cpp", 12), fail), 1);
        let e = take_last_error().unwrap();
        assert_eq!((e.api, e.message.as_str()), ("Add", "too long"));
        assert_eq!(e.location.unwrap().to_string(), "k.cpp:12");
        assert_eq!(call(at(c"k.cpp", 13), || panic!("boom")), 1);
        let e = take_last_error().unwrap();
        assert_eq!(e.message, "internal error in the simulator: boom");
        assert_eq!(e.location.unwrap().to_string(), "k.cpp:13");
        assert!(take_last_error().is_none());
    }

    /// A 64-byte VECIN tensor at `addr` in UB, owned by buffer 1 of queue 3.
    fn vecin(addr: u32) -> AscLocal {
        AscLocal(ForeignLocal {
            addr,
            len: 64,
            owner_queue: 3,
            owner_gen: 7,
            owner_buf: 1,
            pos: TPosition::VECIN as u8,
            hw: Hardware::UB as u8,
            ..ForeignLocal::default()
        })
    }

    #[test]
    fn handles_are_checked_inside_the_block_with_and_without_cached_sizes() {
        let e = vecin(0).tensor::<f32>().unwrap_err();
        assert_eq!(
            e.message,
            "a local tensor exists only inside a running kernel"
        );
        let ub = ChipProfile::default_profile().buffer_size[0];
        let e = Launch::new(1)
            .run(|| {
                let check = || -> Result<(), SimError> {
                    let t = vecin(ub - 64).tensor::<f32>()?;
                    let parts = (TPosition::VECIN, Hardware::UB, ub - 64, 64, Some((3, 1, 7)));
                    assert_eq!(t.to_parts(), parts);
                    assert_eq!(AscLocal::of(&t).tensor::<f32>()?.to_parts(), parts);
                    let mut shaped = vecin(0);
                    let info = ShapeInfo::new(&[4, 4], DataFormat::ND)?;
                    let mut out = std::ptr::null();
                    let c = AscShape::of(&info);
                    assert_eq!(
                        unsafe { ascendc_shape_intern(&c, &mut out, at(c"k.cpp", 3)) },
                        0
                    );
                    shaped.0.shape = out;
                    let t = shaped.tensor::<f32>()?;
                    assert_eq!(t.get_shape_info(), Some(info));
                    // The C++ side reads the stored ShapeInfo in place.
                    let read = unsafe { &*(AscLocal::of(&t).shape as *const AscShape) };
                    assert_eq!((read.shape_dim, read.shape[..2].to_vec()), (2, vec![4, 4]));
                    let e = AscLocal(ForeignLocal {
                        pos: 16,
                        ..vecin(0).0
                    })
                    .tensor::<f32>()
                    .unwrap_err();
                    assert_eq!(e.message, "invalid TPosition index 16 from the C++ side");
                    let e = AscLocal(ForeignLocal {
                        hw: 8,
                        ..vecin(0).0
                    })
                    .tensor::<f32>()
                    .unwrap_err();
                    assert_eq!(e.message, "invalid buffer index 8 from the C++ side");
                    Ok(())
                };
                check()?;
                block_scope(check)?;
                // Past the end of UB, with the sizes cached: reported by the core.
                block_scope(|| vecin(ub - 32).tensor::<f32>().map(|_| ()))
            })
            .unwrap_err();
        assert_eq!(e.errors.len(), 1, "{e}");
        assert_eq!(
            e.errors[0].message,
            format!(
                "tensor of 64 bytes at byte {} does not lie inside the {ub}-byte UB",
                ub - 32
            )
        );
    }

    #[test]
    fn shapes_of_more_than_8_dimensions_are_rejected() {
        let shape = AscShape {
            shape_dim: 9,
            ..AscShape::default()
        };
        let e = shape.info().unwrap_err();
        assert!(e.message.contains("shapeDim"), "{e}");
        let shape = AscShape {
            shape_dim: 2,
            original_shape_dim: 3,
            data_format: 1,
            shape: [2, 3, 0, 0, 0, 0, 0, 0],
            original_shape: [1, 2, 3, 0, 0, 0, 0, 0],
        };
        let info = shape.info().unwrap();
        assert_eq!((info.shape_dim, info.original_shape_dim), (2, 3));
        assert_eq!(info.data_format, DataFormat::NZ);
        assert_eq!(info.original_shape[..3], [1, 2, 3]);
    }
}
