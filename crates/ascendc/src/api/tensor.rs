//! `LocalTensor` and `GlobalTensor`: typed views of on-chip memory and of GM.

use super::context::with_core;
use crate::core::dma::{self, Endpoint};
use crate::core::trace::{Access, Pipe, Space};
use crate::dtype::TensorElement;
use crate::error::{Category, Result, SimError, SourceLoc};
use crate::gm::GmAddr;
use crate::position::{Hardware, TPosition};
use std::fmt;
use std::marker::PhantomData;
use std::mem::ManuallyDrop;

/// The queue buffer a tensor came from (for the queue state machine checks).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Owner {
    pub queue: u32,
    pub buf: u16,
    /// The allocation (generation) of the buffer this tensor belongs to.
    pub gen: u32,
}

impl Owner {
    /// Fails when the tensor's allocation was freed (`FreeTensor`) on `core`.
    #[inline]
    pub(crate) fn check_live(
        owner: Option<Owner>,
        core: &crate::core::Core,
        api: &'static str,
        name: &str,
    ) -> Result<()> {
        match owner {
            Some(o) => core.lives.check(api, name, o.queue, o.buf, o.gen),
            None => Ok(()),
        }
    }
}

/// A queue tensor's owner as plain data: queue id, buffer index, allocation (generation).
#[doc(hidden)]
pub type OwnerParts = (u32, u16, u32);

/// Tensor shape description (`ShapeInfo`): up to 8 dimensions. Laid out as the C++ struct
/// (C layout, fields in its order), so that foreign front ends read a stored one in place.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(C)]
pub struct ShapeInfo {
    /// Number of dimensions used in `shape`.
    pub shape_dim: u8,
    /// Number of dimensions used in `original_shape`.
    pub original_shape_dim: u8,
    /// Layout.
    pub data_format: DataFormat,
    /// Extent of each dimension, in elements.
    pub shape: [u32; 8],
    /// Extent of each original dimension, in elements.
    pub original_shape: [u32; 8],
}

/// Data layouts a `ShapeInfo` can name (one byte: ND 0, NZ 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[allow(clippy::upper_case_acronyms)]
#[repr(u8)]
pub enum DataFormat {
    /// Row-major.
    #[default]
    ND,
    /// Fractal (zN) layout.
    NZ,
}

/// The one shared copy of `info`. Tensors hold their ShapeInfo by reference, so that a handle
/// stays a few machine words however many dimensions it describes; a kernel uses a handful of
/// distinct shapes, each stored once for the life of the process.
pub(crate) fn intern(info: ShapeInfo) -> &'static ShapeInfo {
    use std::sync::Mutex;
    static SHAPES: Mutex<Vec<&'static ShapeInfo>> = Mutex::new(Vec::new());
    let mut shapes = SHAPES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(s) = shapes.iter().find(|s| ***s == info) {
        return s;
    }
    let s: &'static ShapeInfo = Box::leak(Box::new(info));
    shapes.push(s);
    s
}

impl ShapeInfo {
    /// A shape whose original shape equals its shape. Fails with more than 8 dimensions.
    #[track_caller]
    pub fn new(shape: &[u32], data_format: DataFormat) -> Result<ShapeInfo> {
        ShapeInfo::with_original(shape, shape, data_format)
    }

    /// A shape with a separate original shape. Fails with more than 8 dimensions.
    #[track_caller]
    pub fn with_original(
        shape: &[u32],
        original: &[u32],
        data_format: DataFormat,
    ) -> Result<ShapeInfo> {
        for (name, s) in [("shapeDim", shape), ("originalShapeDim", original)] {
            if s.len() > 8 {
                return Err(
                    SimError::range("ShapeInfo", name, s.len(), "[0, 8]").at(SourceLoc::caller())
                );
            }
        }
        let mut info = ShapeInfo {
            shape_dim: shape.len() as u8,
            original_shape_dim: original.len() as u8,
            data_format,
            ..ShapeInfo::default()
        };
        info.shape[..shape.len()].copy_from_slice(shape);
        info.original_shape[..original.len()].copy_from_slice(original);
        Ok(info)
    }
}

/// A typed view of on-chip memory (`LocalTensor<T>`): a logical position, the physical buffer,
/// a byte address in it and a byte length. Copying the handle does not copy data.
///
/// C layout, the same for every `T`: foreign front ends hold handles as
/// [`ForeignLocal`](super::foreign::ForeignLocal), field for field this struct.
#[repr(C)]
pub struct LocalTensor<T> {
    pub(crate) addr: u32,
    pub(crate) len: u32,
    /// Owning queue id (0: not a queue buffer), allocation and buffer index ([`Owner`]).
    pub(crate) owner_queue: u32,
    pub(crate) owner_gen: u32,
    pub(crate) owner_buf: u16,
    pub(crate) pos: TPosition,
    pub(crate) hw: Hardware,
    pub(crate) shape: Option<&'static ShapeInfo>,
    _t: PhantomData<T>,
}

impl<T> Clone for LocalTensor<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for LocalTensor<T> {}

impl<T> fmt::Debug for LocalTensor<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "LocalTensor({} in {} at byte {}, {} bytes)",
            self.pos, self.hw, self.addr, self.len
        )
    }
}

impl<T: TensorElement> Default for LocalTensor<T> {
    /// An empty VECCALC tensor (what a default-constructed C++ `LocalTensor` is before assignment).
    fn default() -> Self {
        LocalTensor::raw(TPosition::VECCALC, Hardware::UB, 0, 0, None)
    }
}

impl<T: TensorElement> LocalTensor<T> {
    pub(crate) fn raw(
        pos: TPosition,
        hw: Hardware,
        addr: u32,
        len: u32,
        owner: Option<Owner>,
    ) -> Self {
        let o = owner.unwrap_or(Owner {
            queue: 0,
            buf: 0,
            gen: 0,
        });
        LocalTensor {
            addr,
            len,
            owner_queue: o.queue,
            owner_gen: o.gen,
            owner_buf: o.buf,
            pos,
            hw,
            shape: None,
            _t: PhantomData,
        }
    }

    /// Fails when the tensor is a queue buffer whose allocation was freed on `core`
    /// ([`Owner::check_live`] without building the owner), or when it does not lie inside this
    /// core's buffer (a tensor kept from a launch on another product).
    #[inline(always)]
    pub(crate) fn check_live(
        &self,
        core: &crate::core::Core,
        api: &'static str,
        name: &str,
    ) -> Result<()> {
        inside_buffer(core, api, name, self.hw, self.addr, self.len)?;
        if self.owner_queue == 0 {
            return Ok(());
        }
        core.lives
            .check(api, name, self.owner_queue, self.owner_buf, self.owner_gen)
    }

    /// The queue buffer the tensor came from, if any.
    #[inline(always)]
    pub(crate) fn owner(&self) -> Option<Owner> {
        (self.owner_queue != 0).then_some(Owner {
            queue: self.owner_queue,
            buf: self.owner_buf,
            gen: self.owner_gen,
        })
    }

    /// Number of elements (`GetSize`).
    pub fn get_size(&self) -> u32 {
        T::elements(self.len as u64) as u32
    }

    /// The handle as plain data (position, buffer, byte address, byte length, owning queue,
    /// buffer and allocation), for front ends in other languages that hold tensors by value.
    #[doc(hidden)]
    pub fn to_parts(&self) -> (TPosition, Hardware, u32, u32, Option<OwnerParts>) {
        let owner = self.owner().map(|o| (o.queue, o.buf, o.gen));
        (self.pos, self.hw, self.addr, self.len, owner)
    }

    /// The handle [`LocalTensor::to_parts`] took apart, checked: the byte range
    /// `addr .. addr + len` must lie inside the physical on-chip buffer `hw` of the running core
    /// (front ends pass handles through foreign code, which may have changed them).
    #[doc(hidden)]
    #[track_caller]
    pub fn from_parts(
        pos: TPosition,
        hw: Hardware,
        addr: u32,
        len: u32,
        owner: Option<OwnerParts>,
    ) -> Result<Self> {
        const API: &str = "LocalTensor";
        let sizes = super::foreign::LocalSizes::current().ok_or_else(|| {
            fail_outside(SimError::new(
                Category::Launch,
                API,
                "a local tensor exists only inside a running kernel",
            ))
        })?;
        if hw != Hardware::GM && addr as u64 + len as u64 <= sizes.size(hw) as u64 {
            let owner = owner.map(|(queue, buf, gen)| Owner { queue, buf, gen });
            return Ok(LocalTensor::raw(pos, hw, addr, len, owner));
        }
        let size = sizes.size(hw);
        Err(fail_outside(SimError::new(
            Category::Memory,
            API,
            format!(
                "tensor of {len} bytes at byte {addr} does not lie inside the {size}-byte {hw}"
            ),
        )))
    }

    /// Length in bytes (`GetLength`).
    pub fn get_length(&self) -> u32 {
        self.len
    }

    /// Logical position (`GetPosition`).
    pub fn get_position(&self) -> TPosition {
        self.pos
    }

    /// The physical buffer the tensor lives in.
    pub fn hardware(&self) -> Hardware {
        self.hw
    }

    /// Byte address inside the physical buffer (`GetPhyAddr`).
    pub fn get_phy_addr(&self) -> u32 {
        self.addr
    }

    /// A view starting `offset` elements in (`operator[]`): same buffer and position, length
    /// reduced accordingly. No alignment check here (a misaligned view fails in the API that
    /// uses it), but an `int4b_t` view must start on a byte: `offset` even.
    #[track_caller]
    pub fn at(&self, offset: u32) -> Result<LocalTensor<T>> {
        const API: &str = "LocalTensor::operator[]";
        if let Err(e) = whole_bytes::<T>(API, "offset", offset as u64) {
            return Err(fail_outside(e));
        }
        let bytes = T::bytes(offset as u64);
        if bytes >= self.len as u64 {
            return Err(fail_outside(SimError::new(
                    Category::Size,
                    API,
                    format!(
                        "offset {offset} ({bytes} bytes) can not be larger than or equal to the data length {} bytes",
                        self.len
                    ),
            )));
        }
        Ok(LocalTensor {
            addr: self.addr + bytes as u32,
            len: self.len - bytes as u32,
            shape: None,
            ..*self
        })
    }

    /// The same bytes as elements of `U` (`ReinterpretCast`).
    pub fn reinterpret_cast<U: TensorElement>(&self) -> LocalTensor<U> {
        LocalTensor {
            addr: self.addr,
            len: self.len,
            owner_queue: self.owner_queue,
            owner_gen: self.owner_gen,
            owner_buf: self.owner_buf,
            pos: self.pos,
            hw: self.hw,
            shape: self.shape,
            _t: PhantomData,
        }
    }

    /// Sets the length to `n` elements (`SetSize`; even for `int4b_t`); it must stay inside the
    /// physical buffer.
    #[track_caller]
    pub fn set_size(&mut self, n: u32) -> Result<()> {
        let loc = SourceLoc::caller();
        let (addr, hw) = (self.addr, self.hw);
        let bytes = T::bytes(n as u64);
        with_core("LocalTensor::SetSize", loc, |core| {
            whole_bytes::<T>("LocalTensor::SetSize", "size", n as u64)?;
            let size = core.mem.size(hw) as u64;
            if addr as u64 + bytes > size {
                return Err(SimError::new(
                    Category::Size,
                    "LocalTensor::SetSize",
                    format!("buffer overflow: {n} elements from byte {addr} end at byte {} beyond the {size}-byte {hw}", addr as u64 + bytes),
                ));
            }
            Ok(())
        })?;
        self.len = bytes as u32;
        Ok(())
    }

    /// Stores a shape description (`SetShapeInfo`).
    pub fn set_shape_info(&mut self, info: ShapeInfo) {
        self.shape = Some(intern(info));
    }

    /// The stored shape description (`GetShapeInfo`), if any.
    pub fn get_shape_info(&self) -> Option<ShapeInfo> {
        self.shape.copied()
    }

    /// The byte address holding element `i`, or a range error.
    fn check_index(&self, api: &'static str, i: u32) -> Result<u64> {
        let b = T::bytes(i as u64);
        if i >= self.get_size() {
            Err(SimError::new(
                Category::Size,
                api,
                format!(
                    "index {i} ({b} bytes) can not be larger than or equal to the data length {} bytes ({} elements)",
                    self.len,
                    self.get_size()
                ),
            ))
        } else {
            Ok(self.addr as u64 + b)
        }
    }

    /// Reads element `i` on the scalar pipe (`GetValue`).
    #[track_caller]
    pub fn get_value(&self, i: u32) -> Result<T> {
        let loc = SourceLoc::caller();
        const API: &str = "LocalTensor::GetValue";
        with_core(API, loc, |core| {
            self.check_live(core, API, "tensor")?;
            let a = self.check_index(API, i)?;
            let mut run = [0u8; 8];
            let run = &mut run[..element_span::<T>()];
            dma::read(core, API, Endpoint::Local(self.hw, a), run)?;
            core.issue(
                Pipe::S,
                API,
                loc,
                &[Access::contiguous(
                    false,
                    Space::Local(self.hw),
                    a,
                    run.len() as u64,
                )],
            );
            Ok(T::get(run, in_byte::<T>(i as u64)))
        })
    }

    /// Writes element `i` on the scalar pipe (`SetValue`).
    #[track_caller]
    pub fn set_value(&self, i: u32, v: T) -> Result<()> {
        let loc = SourceLoc::caller();
        const API: &str = "LocalTensor::SetValue";
        with_core(API, loc, |core| {
            self.check_live(core, API, "tensor")?;
            let a = self.check_index(API, i)?;
            let mut run = [0u8; 8];
            let run = &mut run[..element_span::<T>()];
            if T::BITS < 8 {
                // A nibble: the byte's other element stays.
                dma::read(core, API, Endpoint::Local(self.hw, a), run)?;
            }
            T::put(run, in_byte::<T>(i as u64), v);
            dma::write(core, API, Endpoint::Local(self.hw, a), run)?;
            core.issue(
                Pipe::S,
                API,
                loc,
                &[Access::contiguous(
                    true,
                    Space::Local(self.hw),
                    a,
                    run.len() as u64,
                )],
            );
            Ok(())
        })
    }

    /// Reads the whole view into a vector (a host-side convenience for tests and debugging; not
    /// an Ascend C API and not recorded as an instruction).
    #[track_caller]
    pub fn to_vec(&self) -> Result<Vec<T>> {
        let loc = SourceLoc::caller();
        with_core("LocalTensor::to_vec", loc, |core| {
            let mut bytes = vec![0u8; self.len as usize];
            dma::read(
                core,
                "LocalTensor::to_vec",
                Endpoint::Local(self.hw, self.addr as u64),
                &mut bytes,
            )?;
            Ok((0..self.get_size() as usize)
                .map(|i| T::get(&bytes, i))
                .collect())
        })
    }
}

/// Fails unless the `len` bytes at `addr` of local buffer `hw` lie inside this core's `hw`: a
/// tensor handle kept (in a `static`, say) from a launch on a product with a larger buffer.
#[inline(always)]
pub(crate) fn inside_buffer(
    core: &crate::core::Core,
    api: &'static str,
    name: &str,
    hw: Hardware,
    addr: u32,
    len: u32,
) -> Result<()> {
    let size = core.mem.size(hw) as u64;
    let end = addr as u64 + len as u64;
    if hw == Hardware::GM || end <= size {
        return Ok(());
    }
    Err(SimError::new(
        Category::Memory,
        api,
        format!(
            "{name}: the tensor at {hw} bytes {addr}..{end} does not lie inside the {size}-byte {hw} of {}: \
             a tensor handle kept from another launch (made for another product) is not valid here",
            core.profile
        ),
    ))
}

/// Fails unless `n` elements of `T` fill whole bytes (`int4b_t`: `n` even); `what` names the
/// parameter.
pub(crate) fn whole_bytes<T: TensorElement>(api: &'static str, what: &str, n: u64) -> Result<()> {
    if ((n % 8) * T::BITS as u64).is_multiple_of(8) {
        return Ok(());
    }
    Err(SimError::new(
        Category::Align,
        api,
        format!(
            "{what} = {n} elements of {} ends inside a byte: {} elements share a byte, the count must be a multiple of {}",
            T::DTYPE,
            8 / T::BITS,
            8 / T::BITS
        ),
    ))
}

/// Bytes read or written to reach one element of `T` (one byte for `int4b_t`).
const fn element_span<T: TensorElement>() -> usize {
    (T::BITS as usize).div_ceil(8)
}

/// The index of element `i` within the bytes of [`element_span`] that hold it.
const fn in_byte<T: TensorElement>(i: u64) -> usize {
    if T::BITS < 8 {
        (i % (8 / T::BITS as u64)) as usize
    } else {
        0
    }
}

/// Reports an error that has no core context yet (it gets one if a core is current).
#[track_caller]
pub(crate) fn fail_outside(e: SimError) -> SimError {
    let loc = SourceLoc::caller();
    super::context::try_with_core(|core| core.fail(e.clone(), loc)).unwrap_or_else(|| e.at(loc))
}

/// A typed view of GM (`GlobalTensor<T>`).
pub struct GlobalTensor<T> {
    pub(crate) addr: Option<GmAddr>,
    pub(crate) size: u64,
    pub(crate) shape: Option<&'static ShapeInfo>,
    _t: PhantomData<T>,
}

impl<T> Clone for GlobalTensor<T> {
    fn clone(&self) -> Self {
        GlobalTensor {
            addr: self.addr.clone(),
            size: self.size,
            shape: self.shape,
            _t: PhantomData,
        }
    }
}

impl<T> Default for GlobalTensor<T> {
    fn default() -> Self {
        GlobalTensor {
            addr: None,
            size: 0,
            shape: None,
            _t: PhantomData,
        }
    }
}

impl<T> fmt::Debug for GlobalTensor<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GlobalTensor({:?}, {} elements)", self.addr, self.size)
    }
}

impl<T: TensorElement> GlobalTensor<T> {
    /// An unset tensor; call [`GlobalTensor::set_global_buffer`] before use.
    pub fn new() -> Self {
        Self::default()
    }

    /// Runs `f` on a tensor at `addr` moved by `bytes` bytes, of `size` elements and `shape`,
    /// without taking a reference on the allocation (for a caller that holds `addr` anyway:
    /// the lent tensor lives only as long as the call).
    #[inline(always)]
    pub fn lend<R>(
        addr: &GmAddr,
        bytes: usize,
        size: u64,
        shape: Option<&'static ShapeInfo>,
        f: impl FnOnce(&GlobalTensor<T>) -> R,
    ) -> R {
        // SAFETY: the alias lives in a `ManuallyDrop` for the length of `f`, which only borrows
        // it (a clone takes its own reference), while `addr` is borrowed.
        let t = ManuallyDrop::new(GlobalTensor {
            addr: Some(ManuallyDrop::into_inner(unsafe { addr.alias_at(bytes) })),
            size,
            shape,
            _t: PhantomData,
        });
        f(&t)
    }

    /// Points the tensor at `addr` without a size (`SetGlobalBuffer(ptr)`; `GetSize()` is 0).
    pub fn set_global_buffer(&mut self, addr: GmAddr) {
        self.addr = Some(addr);
        self.size = 0;
    }

    /// Points the tensor at `addr` holding `size` elements (`SetGlobalBuffer(ptr, size)`).
    pub fn set_global_buffer_with_size(&mut self, addr: GmAddr, size: u64) {
        self.addr = Some(addr);
        self.size = size;
    }

    /// Element count given to `SetGlobalBuffer` (`GetSize`).
    pub fn get_size(&self) -> u64 {
        self.size
    }

    /// The GM address (`GetPhyAddr`), if set.
    pub fn get_phy_addr(&self) -> Option<&GmAddr> {
        self.addr.as_ref()
    }

    /// A view `offset` elements further (`operator[]`): size and shape are unchanged, as in Ascend C.
    /// Fails when the view would start past the end of the GM allocation (a view at the very end is
    /// allowed, as an end pointer is), or inside a byte (`int4b_t`: `offset` odd); like
    /// [`LocalTensor::at`], it returns a `Result`.
    #[track_caller]
    #[inline]
    pub fn at(&self, offset: u64) -> Result<GlobalTensor<T>> {
        if let Err(e) = whole_bytes::<T>("GlobalTensor::operator[]", "offset", offset) {
            return Err(fail_outside(e));
        }
        let addr = match &self.addr {
            Some(a) => {
                let end = offset
                    .checked_mul(T::BITS as u64)
                    .map(|b| b / 8)
                    .and_then(|b| b.checked_add(a.offset() as u64))
                    .filter(|e| *e <= a.region_len() as u64);
                match end {
                    Some(e) => Some(a.add_bytes((e - a.offset() as u64) as usize)),
                    None => return Err(Self::outside(a, offset)),
                }
            }
            None => None,
        };
        Ok(GlobalTensor {
            addr,
            size: self.size,
            shape: self.shape,
            _t: PhantomData,
        })
    }

    /// The error of a view `offset` elements from `a` that leaves the allocation.
    #[cold]
    #[inline(never)]
    #[track_caller]
    fn outside(a: &GmAddr, offset: u64) -> SimError {
        fail_outside(SimError::new(
            Category::Memory,
            "GlobalTensor::operator[]",
            format!(
                "offset {offset} elements of {} from byte {} leaves the GM allocation of {} bytes",
                T::DTYPE,
                a.offset(),
                a.region_len()
            ),
        ))
    }

    /// Stores a shape description (`SetShapeInfo`).
    pub fn set_shape_info(&mut self, info: ShapeInfo) {
        self.shape = Some(intern(info));
    }

    /// The stored shape description (`GetShapeInfo`), if any.
    pub fn get_shape_info(&self) -> Option<ShapeInfo> {
        self.shape.copied()
    }

    /// The address, or an error naming the API when `SetGlobalBuffer` was never called.
    pub(crate) fn gm(&self, api: &'static str) -> Result<&GmAddr> {
        self.addr.as_ref().ok_or_else(|| {
            SimError::new(
                Category::Memory,
                api,
                "GlobalTensor used before SetGlobalBuffer",
            )
        })
    }

    /// Reads element `i` on the scalar pipe (`GetValue`); checked against the GM allocation.
    #[track_caller]
    pub fn get_value(&self, i: u64) -> Result<T> {
        let loc = SourceLoc::caller();
        const API: &str = "GlobalTensor::GetValue";
        with_core(API, loc, |core| {
            let g = self.gm(API)?;
            let off = element_offset::<T>(API, g, i)?;
            let mut run = [0u8; 8];
            let run = &mut run[..element_span::<T>()];
            dma::read(core, API, Endpoint::Gm(g, off), run)?;
            core.issue(
                Pipe::S,
                API,
                loc,
                &[Access::contiguous(
                    false,
                    Space::Gm(g.region_id()),
                    g.offset() as u64 + off,
                    run.len() as u64,
                )],
            );
            Ok(T::get(run, in_byte::<T>(i)))
        })
    }

    /// Writes element `i` on the scalar pipe (`SetValue`); checked against the GM allocation.
    #[track_caller]
    pub fn set_value(&self, i: u64, v: T) -> Result<()> {
        let loc = SourceLoc::caller();
        const API: &str = "GlobalTensor::SetValue";
        with_core(API, loc, |core| {
            let g = self.gm(API)?;
            let off = element_offset::<T>(API, g, i)?;
            let mut run = [0u8; 8];
            let run = &mut run[..element_span::<T>()];
            if T::BITS < 8 {
                // A nibble: the byte's other element stays.
                dma::read(core, API, Endpoint::Gm(g, off), run)?;
            }
            T::put(run, in_byte::<T>(i), v);
            dma::write(core, API, Endpoint::Gm(g, off), run)?;
            core.issue(
                Pipe::S,
                API,
                loc,
                &[Access::contiguous(
                    true,
                    Space::Gm(g.region_id()),
                    g.offset() as u64 + off,
                    run.len() as u64,
                )],
            );
            Ok(())
        })
    }
}

/// Offset of the byte holding element `i`, or a range error when it cannot be represented (no
/// wrapping).
fn element_offset<T: TensorElement>(api: &'static str, g: &GmAddr, i: u64) -> Result<u64> {
    i.checked_mul(T::BITS as u64).map(|b| b / 8).ok_or_else(|| {
        SimError::range(
            api,
            "index",
            i,
            format!(
                "[0, {}) elements of the {}-byte GM allocation",
                T::elements(g.region_len() as u64),
                g.region_len()
            ),
        )
    })
}
