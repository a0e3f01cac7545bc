//! Loading and launching kernels (`acl/acl_rt.h`: `aclrtBinaryLoadFromData`,
//! `aclrtBinaryGetFunction`, `aclrtBinaryUnLoad` and the `aclrtLaunchKernel*` forms) on the
//! simulator.
//!
//! A binary is the shared object `aclrtcGetBinData` returns; loading writes it to a temporary
//! file and `dlopen`s it (the program exports the simulator's C ABI, so its kernels run on the
//! program's simulator). It stays mapped until the process ends, also after `aclrtBinaryUnLoad`:
//! the simulator's diagnostics keep the source names it holds. Its functions are the entries of
//! `include/ascendc/rtc_entry.h`. A launch runs the kernel like a `<<<>>>` launch, synchronously:
//! it returns when every block has finished, and a failed block makes it return
//! `ACL_ERROR_RT_AICORE_EXCEPTION` (the errors are printed).
//!
//! Parameters come as an array of pointers to each value (`aclrtLaunchKernelWithArgsArray`), or
//! packed in one buffer, each value at the next offset aligned for its type, as a C struct of the
//! parameters lays them out (`aclrtLaunchKernel`, `aclrtLaunchKernelV2` from device memory,
//! `aclrtLaunchKernelWithHostArgs` from host memory).
#![allow(non_snake_case)]

use crate::abi::AscLoc;
use crate::acl::{check_stream, fail, ACL_ERROR_INVALID_PARAM, ACL_ERROR_INVALID_RESOURCE_HANDLE};
use crate::handles::Handles;
use std::ffi::{c_char, c_void, CStr, CString};
use std::sync::Arc;

/// `ACL_ERROR_RT_SYMBOL_NOT_FOUND`: no kernel of that name in the binary.
pub const ACL_ERROR_RT_SYMBOL_NOT_FOUND: i32 = 107_042;
/// `ACL_ERROR_RT_FEATURE_NOT_SUPPORT`.
pub const ACL_ERROR_RT_FEATURE_NOT_SUPPORT: i32 = 207_000;
/// `ACL_ERROR_RT_AICORE_EXCEPTION`: a block of the kernel failed.
pub const ACL_ERROR_RT_AICORE_EXCEPTION: i32 = 507_015;

/// `ACL_RT_BINARY_MAGIC_ELF_AICORE`, `_VECTOR_CORE`, `_CUBE_CORE`.
const MAGICS: [u32; 3] = [0x4355_4245, 0x4141_5246, 0x4149_4343];

/// The C++ launcher of one entry.
type LaunchFn = unsafe extern "C" fn(*const c_char, u32, *const *mut c_void, AscLoc) -> i32;

/// `AscendC::detail::RtcEntry`.
#[repr(C)]
struct RtcEntry {
    name: *const c_char,
    lowered: *const c_char,
    argc: u32,
    sizes: *const u32,
    aligns: *const u32,
    launch: LaunchFn,
}

/// `aclrtBinaryLoadOption`: the type, then a 16-byte union.
#[repr(C)]
pub struct LoadOption {
    ty: u32,
    value: [u32; 4],
}

/// `aclrtBinaryLoadOptions`.
#[repr(C)]
pub struct LoadOptions {
    options: *const LoadOption,
    num_opt: usize,
}

/// `aclrtLaunchKernelAttr`: the id, then a 16-byte union.
#[repr(C)]
pub struct LaunchAttr {
    id: u32,
    value: [u32; 4],
}

/// `aclrtLaunchKernelCfg`.
#[repr(C)]
pub struct LaunchCfg {
    attrs: *const LaunchAttr,
    num_attrs: usize,
}

/// One kernel of a loaded binary.
struct Kernel {
    name: CString,
    lowered: Option<String>,
    sizes: Vec<u32>,
    aligns: Vec<u32>,
    launch: LaunchFn,
}

impl Kernel {
    /// Each parameter's offset in a packed buffer, the end of the last one and the largest
    /// alignment.
    fn layout(&self) -> (Vec<usize>, usize, usize) {
        let mut offsets = Vec::new();
        let mut end = 0usize;
        let mut max = 1usize;
        for (&s, &a) in self.sizes.iter().zip(&self.aligns) {
            let a = (a as usize).max(1);
            let at = end.next_multiple_of(a);
            offsets.push(at);
            end = at + s as usize;
            max = max.max(a);
        }
        (offsets, end, max)
    }

    fn describe(&self) -> String {
        self.lowered.as_ref().map_or_else(
            || self.name.to_string_lossy().into_owned(),
            |l| format!("{} (lowered name {l})", self.name.to_string_lossy()),
        )
    }
}

/// Loaded binaries: their kernels.
static BINARIES: Handles<Vec<Arc<Kernel>>> = Handles::new();
/// Functions: the binary's handle and the kernel.
static FUNCTIONS: Handles<(usize, Arc<Kernel>)> = Handles::new();

/// Checks the load options.
///
/// # Safety
/// `options` is null or valid, its array of `num_opt` elements.
unsafe fn check_load_options(api: &str, options: *const LoadOptions) -> i32 {
    let Some(o) = options.as_ref() else { return 0 };
    if o.num_opt > 0 && o.options.is_null() {
        return fail(
            ACL_ERROR_INVALID_PARAM,
            api,
            format!("options has numOpt {} but a null options array", o.num_opt),
        );
    }
    for i in 0..o.num_opt {
        let opt = &*o.options.add(i);
        let v = opt.value[0];
        let problem = match opt.ty {
            1 if v <= 1 => None,
            1 => Some(format!("ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD value {v} is not 0 or 1")),
            2 if MAGICS.contains(&v) => None,
            2 => Some(format!(
                "ACL_RT_BINARY_LOAD_OPT_MAGIC value {v:#x} is not ACL_RT_BINARY_MAGIC_ELF_AICORE, _VECTOR_CORE or _CUBE_CORE"
            )),
            3 => {
                return fail(
                    ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    api,
                    "ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE loads AI CPU kernels, which the simulator does not run".into(),
                )
            }
            t => Some(format!("option type {t} is not an aclrtBinaryLoadOptionType (1, 2 or 3)")),
        };
        if let Some(p) = problem {
            return fail(ACL_ERROR_INVALID_PARAM, api, format!("option {i}: {p}"));
        }
    }
    0
}

/// The last `dlerror()` message.
fn dl_error() -> String {
    // SAFETY: dlerror returns null or a NUL-terminated message.
    let e = unsafe { libc::dlerror() };
    if e.is_null() {
        "unknown error".into()
    } else {
        // SAFETY: as above.
        unsafe { CStr::from_ptr(e) }.to_string_lossy().into_owned()
    }
}

/// Maps the shared object `bytes` and reads its kernel entries.
fn load(bytes: &[u8]) -> Result<Vec<Arc<Kernel>>, String> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("ascendc-rtc-{}-bin{n}.so", std::process::id()));
    std::fs::write(&path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let c_path = CString::new(path.as_os_str().as_encoded_bytes()).map_err(|e| e.to_string())?;
    // SAFETY: a NUL-terminated path; the object is never closed (see the module documentation).
    let handle = unsafe { libc::dlopen(c_path.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
    let opened = if handle.is_null() {
        Err(dl_error())
    } else {
        Ok(handle)
    };
    let _ = std::fs::remove_file(&path);
    let handle = opened.map_err(|e| {
        format!(
            "cannot load the binary: {e} (a program using runtime-compiled kernels is linked with `-rdynamic` and \
             the whole simulator library: build it with ascendc run / ascendc cxx, or link with `ascendc flags --libs`)"
        )
    })?;
    // SAFETY: a live handle and a NUL-terminated symbol name.
    let table =
        unsafe { libc::dlsym(handle, c"ascendc_rtc_entries".as_ptr()) } as *const *const RtcEntry;
    if table.is_null() {
        return Err("the data is a shared object without kernel entries, not a binary from aclrtcGetBinData".into());
    }
    let mut kernels = Vec::new();
    // SAFETY: the table is the null-terminated array rtc_entry.h defines, its entries constant
    // data of the mapped object.
    unsafe {
        let mut p = table;
        while let Some(e) = (*p).as_ref() {
            let argc = e.argc as usize;
            kernels.push(Arc::new(Kernel {
                name: CStr::from_ptr(e.name).to_owned(),
                lowered: (!e.lowered.is_null())
                    .then(|| CStr::from_ptr(e.lowered).to_string_lossy().into_owned()),
                sizes: std::slice::from_raw_parts(e.sizes, argc).to_vec(),
                aligns: std::slice::from_raw_parts(e.aligns, argc).to_vec(),
                launch: e.launch,
            }));
            p = p.add(1);
        }
    }
    Ok(kernels)
}

/// `aclrtBinaryLoadFromData(data, length, options, binHandle)`: loads a binary from
/// `aclrtcGetBinData`.
///
/// # Safety
/// `data` is null or valid for `length` bytes, `options` null or valid, `bin` null or valid for a
/// write.
#[no_mangle]
pub unsafe extern "C" fn aclrtBinaryLoadFromData(
    data: *const c_void,
    length: usize,
    options: *const LoadOptions,
    bin: *mut *mut c_void,
) -> i32 {
    const API: &str = "aclrtBinaryLoadFromData";
    if data.is_null() || bin.is_null() || length == 0 {
        return fail(
            ACL_ERROR_INVALID_PARAM,
            API,
            format!("data ({data:p}) and binHandle ({bin:p}) must not be null and length ({length}) not 0"),
        );
    }
    match check_load_options(API, options) {
        0 => {}
        e => return e,
    }
    let bytes = std::slice::from_raw_parts(data as *const u8, length);
    if !bytes.starts_with(b"\x7fELF") {
        return fail(
            ACL_ERROR_INVALID_PARAM,
            API,
            format!("the {length} bytes at {data:p} are not a binary from aclrtcGetBinData (no ELF header)"),
        );
    }
    match load(bytes) {
        Ok(kernels) => {
            *bin = BINARIES.insert(kernels);
            0
        }
        Err(msg) => fail(ACL_ERROR_INVALID_PARAM, API, msg),
    }
}

/// `aclrtBinaryUnLoad(binHandle)`: its functions can no longer be launched.
#[no_mangle]
pub extern "C" fn aclrtBinaryUnLoad(bin: *mut c_void) -> i32 {
    if BINARIES.remove(bin).is_some() {
        return 0;
    }
    fail(
        ACL_ERROR_INVALID_RESOURCE_HANDLE,
        "aclrtBinaryUnLoad",
        format!("{bin:p} is not a loaded binary (unloaded twice, or never loaded)"),
    )
}

/// `aclrtBinaryGetFunction(binHandle, kernelName, funcHandle)`: a kernel of the binary by its
/// lowered name (name expressions) or its qualified name (non-template kernels).
///
/// # Safety
/// `name` is null or NUL-terminated; `func` null or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn aclrtBinaryGetFunction(
    bin: *mut c_void,
    name: *const c_char,
    func: *mut *mut c_void,
) -> i32 {
    const API: &str = "aclrtBinaryGetFunction";
    if name.is_null() || func.is_null() {
        return fail(
            ACL_ERROR_INVALID_PARAM,
            API,
            "kernelName and funcHandle must not be null pointers".into(),
        );
    }
    let name = CStr::from_ptr(name).to_string_lossy();
    let Some(kernels) = BINARIES.with(bin, |k| k.clone()) else {
        return fail(
            ACL_ERROR_INVALID_RESOURCE_HANDLE,
            API,
            format!("{bin:p} is not a loaded binary (unloaded, or never loaded)"),
        );
    };
    let found = kernels.iter().find(|k| match &k.lowered {
        Some(l) => *l == name,
        None => k.name.to_bytes() == name.as_bytes(),
    });
    if let Some(k) = found {
        *func = FUNCTIONS.insert((bin as usize, k.clone()));
        return 0;
    }
    let msg = match kernels.iter().find(|k| k.lowered.is_some() && k.name.to_bytes() == name.as_bytes()) {
        Some(k) => format!(
            "`{name}` is a name expression: find its kernel by the lowered name aclrtcGetLoweredName returns ({})",
            k.lowered.as_deref().unwrap_or_default()
        ),
        None => {
            let all: Vec<String> = kernels.iter().map(|k| k.describe()).collect();
            format!("the binary has no kernel `{name}`; it has: {}", all.join(", "))
        }
    };
    fail(ACL_ERROR_RT_SYMBOL_NOT_FOUND, API, msg)
}

/// Checks a launch configuration: attribute ids 1–9; a block index offset and a dynamic UB size
/// (Ascend 950) are refused, the other attributes change nothing here.
///
/// # Safety
/// `cfg` is null or valid, its array of `num_attrs` elements.
unsafe fn check_cfg(api: &str, cfg: *const LaunchCfg) -> i32 {
    let Some(c) = cfg.as_ref() else { return 0 };
    if c.num_attrs > 0 && c.attrs.is_null() {
        return fail(
            ACL_ERROR_INVALID_PARAM,
            api,
            format!("cfg has numAttrs {} but a null attrs array", c.num_attrs),
        );
    }
    for i in 0..c.num_attrs {
        let a = &*c.attrs.add(i);
        match (a.id, a.value[0]) {
            (2, v) if v != 0 => {
                return fail(
                    ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    api,
                    format!("attribute {i}: ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE {v} (dynamic UB is an Ascend 950 feature, not simulated)"),
                )
            }
            (4, v) if v != 0 => {
                return fail(
                    ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    api,
                    format!("attribute {i}: ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET {v} is not simulated (only 0)"),
                )
            }
            (1..=9, _) => {}
            (id, _) => {
                return fail(ACL_ERROR_INVALID_PARAM, api, format!("attribute {i}: id {id} is not an aclrtLaunchKernelAttrId (1 … 9)"))
            }
        }
    }
    0
}

/// Where a launch's parameters come from.
enum Params<'a> {
    /// `args[i]` points to parameter i.
    Array(*const *mut c_void),
    /// The parameters packed in one buffer.
    Packed(&'a [u8]),
}

/// One 64-byte aligned block of a packed parameter copy.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Align64([u8; 64]);

/// Launches the kernel of `func` with `params`.
///
/// # Safety
/// `cfg` is null or valid; an argument array holds a valid pointer per parameter.
unsafe fn launch(
    api: &str,
    loc: AscLoc,
    func: *mut c_void,
    blocks: u32,
    stream: *mut c_void,
    cfg: *const LaunchCfg,
    params: Params,
) -> i32 {
    let Some((bin, kernel)) = FUNCTIONS.with(func, |f| f.clone()) else {
        return fail(
            ACL_ERROR_INVALID_RESOURCE_HANDLE,
            api,
            format!("{func:p} is not a function handle from aclrtBinaryGetFunction"),
        );
    };
    if BINARIES.with(bin as *const c_void, |_| ()).is_none() {
        return fail(
            ACL_ERROR_INVALID_RESOURCE_HANDLE,
            api,
            format!(
                "the binary of kernel `{}` was unloaded (aclrtBinaryUnLoad)",
                kernel.name.to_string_lossy()
            ),
        );
    }
    if blocks == 0 {
        return fail(
            ACL_ERROR_INVALID_PARAM,
            api,
            "numBlocks is 0 (at least 1 block)".into(),
        );
    }
    for check in [check_stream(api, stream), check_cfg(api, cfg)] {
        if check != 0 {
            return check;
        }
    }
    let argc = kernel.sizes.len();
    let mut copy: Vec<Align64> = Vec::new();
    let args: Vec<*mut c_void> = match params {
        Params::Array(a) => {
            if argc > 0 && a.is_null() {
                return fail(
                    ACL_ERROR_INVALID_PARAM,
                    api,
                    format!(
                        "args is a null pointer, but kernel `{}` has {argc} parameters",
                        kernel.describe()
                    ),
                );
            }
            let v: Vec<*mut c_void> = (0..argc).map(|i| *a.add(i)).collect();
            if let Some(i) = v.iter().position(|p| p.is_null()) {
                return fail(
                    ACL_ERROR_INVALID_PARAM,
                    api,
                    format!("args[{i}] is a null pointer (each element points to the value of one kernel parameter)"),
                );
            }
            v
        }
        Params::Packed(bytes) => {
            let (offsets, end, align) = kernel.layout();
            let most = end.next_multiple_of(align.max(8));
            if bytes.len() < end || bytes.len() > most {
                return fail(
                    ACL_ERROR_INVALID_PARAM,
                    api,
                    format!(
                        "argsSize is {} bytes, but the {argc} parameters of kernel `{}` (sizes {:?}, each at an offset aligned for its type) take {end} bytes{}",
                        bytes.len(),
                        kernel.describe(),
                        kernel.sizes,
                        if most > end { format!(" ({most} with the padding of a struct)") } else { String::new() }
                    ),
                );
            }
            copy = vec![Align64([0; 64]); bytes.len().div_ceil(64).max(1)];
            let base = copy.as_mut_ptr() as *mut u8;
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), base, bytes.len());
            offsets
                .iter()
                .map(|&o| base.add(o) as *mut c_void)
                .collect()
        }
    };
    let status = (kernel.launch)(kernel.name.as_ptr(), blocks, args.as_ptr(), loc);
    drop(copy);
    if status != 0 {
        return fail(
            ACL_ERROR_RT_AICORE_EXCEPTION,
            api,
            format!(
                "kernel `{}` failed (its errors are printed above)",
                kernel.name.to_string_lossy()
            ),
        );
    }
    0
}

/// The call site of a launch, or the API's name when the caller did not give one.
fn site(api: &'static CStr, file: *const c_char, line: u32) -> AscLoc {
    let (file, line) = if file.is_null() {
        (api.as_ptr(), 0)
    } else {
        (file, line)
    };
    AscLoc {
        file,
        line,
        column: 0,
    }
}

/// Device memory of `size` bytes at `data`, for `aclrtLaunchKernel` / `V2`.
///
/// # Safety
/// `data` is null or a pointer the simulator may look up.
unsafe fn device_args<'a>(api: &str, data: *const c_void, size: usize) -> Result<&'a [u8], i32> {
    let Ok(a) = crate::gm::lookup("aclrtLaunchKernel", data as *const u8) else {
        return Err(fail(
            ACL_ERROR_INVALID_PARAM,
            api,
            format!("argsData {data:p} is not device memory (the parameters are copied to aclrtMalloc memory first)"),
        ));
    };
    let room = a.region_len() - a.offset();
    if size > room {
        return Err(fail(
            ACL_ERROR_INVALID_PARAM,
            api,
            format!("argsSize {size} bytes runs past the end of the device memory at {data:p} ({room} bytes from there)"),
        ));
    }
    Ok(std::slice::from_raw_parts(data as *const u8, size))
}

/// `aclrtLaunchKernelWithArgsArray(func, numBlocks, stream, cfg, args)`.
///
/// # Safety
/// `cfg` is null or valid; `args` holds a pointer to each parameter's value.
#[no_mangle]
pub unsafe extern "C" fn aclrtLaunchKernelWithArgsArray(
    func: *mut c_void,
    blocks: u32,
    stream: *mut c_void,
    cfg: *const LaunchCfg,
    args: *const *mut c_void,
) -> i32 {
    ascendc_launch_kernel_with_args_array_at(std::ptr::null(), 0, func, blocks, stream, cfg, args)
}

/// `aclrtLaunchKernelWithArgsArray` with its call site (what `acl/acl_rt.h` calls).
///
/// # Safety
/// As [`aclrtLaunchKernelWithArgsArray`]; `file` is null or a NUL-terminated literal.
#[no_mangle]
pub unsafe extern "C" fn ascendc_launch_kernel_with_args_array_at(
    file: *const c_char,
    line: u32,
    func: *mut c_void,
    blocks: u32,
    stream: *mut c_void,
    cfg: *const LaunchCfg,
    args: *const *mut c_void,
) -> i32 {
    const API: &CStr = c"aclrtLaunchKernelWithArgsArray";
    launch(
        "aclrtLaunchKernelWithArgsArray",
        site(API, file, line),
        func,
        blocks,
        stream,
        cfg,
        Params::Array(args),
    )
}

/// `aclrtLaunchKernelWithHostArgs(funcHandle, numBlocks, stream, cfg, hostArgs, argsSize,
/// placeHolderArray, placeHolderNum)`: the parameters packed in host memory; placeholders are not
/// supported.
///
/// # Safety
/// `cfg` is null or valid; `host` is null or valid for `size` bytes.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn aclrtLaunchKernelWithHostArgs(
    func: *mut c_void,
    blocks: u32,
    stream: *mut c_void,
    cfg: *const LaunchCfg,
    host: *mut c_void,
    size: usize,
    place_holders: *const c_void,
    place_holder_num: usize,
) -> i32 {
    ascendc_launch_kernel_with_host_args_at(
        std::ptr::null(),
        0,
        func,
        blocks,
        stream,
        cfg,
        host,
        size,
        place_holders,
        place_holder_num,
    )
}

/// `aclrtLaunchKernelWithHostArgs` with its call site.
///
/// # Safety
/// As [`aclrtLaunchKernelWithHostArgs`]; `file` is null or a NUL-terminated literal.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_launch_kernel_with_host_args_at(
    file: *const c_char,
    line: u32,
    func: *mut c_void,
    blocks: u32,
    stream: *mut c_void,
    cfg: *const LaunchCfg,
    host: *mut c_void,
    size: usize,
    _place_holders: *const c_void,
    place_holder_num: usize,
) -> i32 {
    const API: &CStr = c"aclrtLaunchKernelWithHostArgs";
    let api = "aclrtLaunchKernelWithHostArgs";
    if place_holder_num > 0 {
        return fail(
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
            api,
            format!("placeHolderNum is {place_holder_num}: placeholders are not simulated (pass device pointers in hostArgs)"),
        );
    }
    if host.is_null() && size > 0 {
        return fail(
            ACL_ERROR_INVALID_PARAM,
            api,
            format!("hostArgs is a null pointer and argsSize {size}"),
        );
    }
    let bytes: &[u8] = if size == 0 {
        &[]
    } else {
        std::slice::from_raw_parts(host as *const u8, size)
    };
    launch(
        api,
        site(API, file, line),
        func,
        blocks,
        stream,
        cfg,
        Params::Packed(bytes),
    )
}

/// `aclrtLaunchKernel(funcHandle, numBlocks, argsData, argsSize, stream)`: the parameters packed
/// in device memory.
///
/// # Safety
/// `args` is null or a pointer the simulator may look up.
#[no_mangle]
pub unsafe extern "C" fn aclrtLaunchKernel(
    func: *mut c_void,
    blocks: u32,
    args: *const c_void,
    size: usize,
    stream: *mut c_void,
) -> i32 {
    ascendc_launch_kernel_v2_at(
        std::ptr::null(),
        0,
        func,
        blocks,
        args,
        size,
        std::ptr::null(),
        stream,
    )
}

/// `aclrtLaunchKernelV2(funcHandle, numBlocks, argsData, argsSize, cfg, stream)`.
///
/// # Safety
/// As [`aclrtLaunchKernel`]; `cfg` is null or valid.
#[no_mangle]
pub unsafe extern "C" fn aclrtLaunchKernelV2(
    func: *mut c_void,
    blocks: u32,
    args: *const c_void,
    size: usize,
    cfg: *const LaunchCfg,
    stream: *mut c_void,
) -> i32 {
    ascendc_launch_kernel_v2_at(std::ptr::null(), 0, func, blocks, args, size, cfg, stream)
}

/// `aclrtLaunchKernel` / `aclrtLaunchKernelV2` with their call site.
///
/// # Safety
/// As [`aclrtLaunchKernelV2`]; `file` is null or a NUL-terminated literal.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn ascendc_launch_kernel_v2_at(
    file: *const c_char,
    line: u32,
    func: *mut c_void,
    blocks: u32,
    args: *const c_void,
    size: usize,
    cfg: *const LaunchCfg,
    stream: *mut c_void,
) -> i32 {
    const API: &CStr = c"aclrtLaunchKernel";
    let api = "aclrtLaunchKernel";
    let bytes = match device_args(api, args, size) {
        Ok(b) => b,
        Err(e) => return e,
    };
    launch(
        api,
        site(API, file, line),
        func,
        blocks,
        stream,
        cfg,
        Params::Packed(bytes),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    unsafe extern "C" fn never(_: *const c_char, _: u32, _: *const *mut c_void, _: AscLoc) -> i32 {
        1
    }

    #[test]
    fn packed_parameters_sit_at_their_alignment() {
        let k = Kernel {
            name: CString::default(),
            lowered: None,
            sizes: vec![8, 4, 2, 8],
            aligns: vec![8, 4, 2, 8],
            launch: never,
        };
        assert_eq!(k.layout(), (vec![0, 8, 12, 16], 24, 8));
    }

    #[test]
    fn loading_checks_the_data_and_the_options() {
        let mut bin: *mut c_void = std::ptr::null_mut();
        let junk = [0u8; 16];
        let lazy = [LoadOption {
            ty: 1,
            value: [2, 0, 0, 0],
        }];
        let opts = LoadOptions {
            options: lazy.as_ptr(),
            num_opt: 1,
        };
        // SAFETY: valid pointers of the stated sizes.
        unsafe {
            assert_eq!(
                aclrtBinaryLoadFromData(junk.as_ptr().cast(), 16, std::ptr::null(), &mut bin),
                ACL_ERROR_INVALID_PARAM
            );
            assert_eq!(
                aclrtBinaryLoadFromData(junk.as_ptr().cast(), 16, &opts, &mut bin),
                ACL_ERROR_INVALID_PARAM
            );
            let mut f: *mut c_void = std::ptr::null_mut();
            assert_eq!(
                aclrtBinaryGetFunction(0x10 as *mut c_void, c"k".as_ptr(), &mut f),
                ACL_ERROR_INVALID_RESOURCE_HANDLE
            );
            assert_eq!(
                aclrtLaunchKernelWithArgsArray(
                    0x10 as *mut c_void,
                    1,
                    std::ptr::null_mut(),
                    std::ptr::null(),
                    std::ptr::null()
                ),
                ACL_ERROR_INVALID_RESOURCE_HANDLE
            );
        }
        assert_eq!(
            aclrtBinaryUnLoad(0x10 as *mut c_void),
            ACL_ERROR_INVALID_RESOURCE_HANDLE
        );
    }
}
