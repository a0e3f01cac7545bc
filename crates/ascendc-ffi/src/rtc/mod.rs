//! The aclrtc runtime compilation API (`acl/acl_rt_compile.h`) on the simulator: a program is an
//! Ascend C source compiled at run time into a shared object ([`compile`]) whose bytes are the
//! binary; `aclrtBinaryLoadFromData` loads it (module `acl_kernel`). Every name expression and
//! every non-template `__global__` definition ([`scan`]) gets an entry that
//! `aclrtBinaryGetFunction` finds: a name expression by its lowered name, a non-template kernel by
//! its qualified name.
//!
//! Failures return the documented `ACL_ERROR_RTC_*` codes, print the reason and keep it for
//! `aclGetRecentErrMsg`; a failed compilation leaves the compiler's messages in the compile log.
#![allow(non_snake_case)]

pub mod compile;
pub mod scan;

use crate::acl::fail;
use crate::handles::Handles;
use std::ffi::{c_char, c_int, c_void, CStr, CString};

/// `ACL_ERROR_RTC_INVALID_PROG`: not a live program handle.
pub const ACL_ERROR_RTC_INVALID_PROG: i32 = 176_000;
/// `ACL_ERROR_RTC_INVALID_INPUT`: a parameter other than the program is invalid.
pub const ACL_ERROR_RTC_INVALID_INPUT: i32 = 176_001;
/// `ACL_ERROR_RTC_NO_NAME_EXPR_AFTER_COMPILATION`: a name expression added after compiling.
pub const ACL_ERROR_RTC_NO_NAME_EXPR_AFTER_COMPILATION: i32 = 176_005;
/// `ACL_ERROR_RTC_NO_LOWERED_NAMES_BEFORE_COMPILATION`: a lowered name asked before compiling.
pub const ACL_ERROR_RTC_NO_LOWERED_NAMES_BEFORE_COMPILATION: i32 = 176_006;
/// `ACL_ERROR_RTC_NAME_EXPR_NOT_VALID`: a name expression that is not registered, or malformed.
pub const ACL_ERROR_RTC_NAME_EXPR_NOT_VALID: i32 = 176_007;

/// One program.
struct Prog {
    name: String,
    src: String,
    /// Include name and text of each header given at creation.
    headers: Vec<(String, String)>,
    /// Name expressions in order of registration, with their lowered names.
    name_exprs: Vec<(String, CString)>,
    /// The binary of the last successful compilation.
    bin: Option<Vec<u8>>,
    /// The log of the last compilation (empty before one).
    log: CString,
}

static PROGS: Handles<Prog> = Handles::new();

/// `s` as a Rust string; `None` for a null pointer.
///
/// # Safety
/// `s` is null or NUL-terminated.
unsafe fn text(s: *const c_char) -> Option<String> {
    (!s.is_null()).then(|| CStr::from_ptr(s).to_string_lossy().into_owned())
}

fn bad_prog(api: &str, prog: *const c_void) -> i32 {
    fail(
        ACL_ERROR_RTC_INVALID_PROG,
        api,
        format!(
            "{prog:p} is not a live aclrtcProg (never created by aclrtcCreateProg, or destroyed)"
        ),
    )
}

fn bad_input(api: &str, what: &str) -> i32 {
    fail(ACL_ERROR_RTC_INVALID_INPUT, api, what.to_string())
}

/// Runs `f` on the program `prog`, or fails with `ACL_ERROR_RTC_INVALID_PROG`.
fn with_prog(api: &str, prog: *const c_void, f: impl FnOnce(&mut Prog) -> i32) -> i32 {
    PROGS.with(prog, f).unwrap_or_else(|| bad_prog(api, prog))
}

/// An include name usable as a relative path: not empty, not absolute, no `..`.
fn include_name_ok(n: &str) -> bool {
    !n.is_empty() && !n.starts_with('/') && !n.split('/').any(|p| p == "..")
}

/// `aclrtcCreateProg(prog, src, name, numHeaders, headers, includeNames)`.
///
/// # Safety
/// Non-null pointers are valid: `prog` for a write, the strings NUL-terminated, the arrays of
/// `numHeaders` elements.
#[no_mangle]
pub unsafe extern "C" fn aclrtcCreateProg(
    prog: *mut *mut c_void,
    src: *const c_char,
    name: *const c_char,
    num_headers: c_int,
    headers: *const *const c_char,
    include_names: *const *const c_char,
) -> i32 {
    const API: &str = "aclrtcCreateProg";
    if prog.is_null() {
        return bad_input(API, "prog is a null pointer");
    }
    let (Some(src), Some(name)) = (text(src), text(name)) else {
        return bad_input(API, "src and name must not be null pointers");
    };
    if num_headers < 0 {
        return bad_input(API, &format!("numHeaders {num_headers} is negative"));
    }
    if num_headers > 0 && (headers.is_null() || include_names.is_null()) {
        return bad_input(
            API,
            &format!("numHeaders is {num_headers} but headers or includeNames is a null pointer"),
        );
    }
    let mut hs = Vec::new();
    for i in 0..num_headers as usize {
        let (Some(h), Some(n)) = (text(*headers.add(i)), text(*include_names.add(i))) else {
            return bad_input(
                API,
                &format!("header {i} or its include name is a null pointer"),
            );
        };
        if !include_name_ok(&n) {
            return bad_input(
                API,
                &format!("include name `{n}` of header {i} is not a relative file name (no leading /, no ..)"),
            );
        }
        hs.push((n, h));
    }
    *prog = PROGS.insert(Prog {
        name,
        src,
        headers: hs,
        name_exprs: Vec::new(),
        bin: None,
        log: CString::default(),
    });
    0
}

/// `aclrtcDestroyProg(prog)`: the program and its lowered names are released; `*prog` becomes null.
///
/// # Safety
/// `prog` is null or valid for a read and a write.
#[no_mangle]
pub unsafe extern "C" fn aclrtcDestroyProg(prog: *mut *mut c_void) -> i32 {
    const API: &str = "aclrtcDestroyProg";
    if prog.is_null() {
        return bad_input(API, "prog is a null pointer");
    }
    if PROGS.remove(*prog).is_none() {
        return bad_prog(API, *prog);
    }
    *prog = std::ptr::null_mut();
    0
}

/// `aclrtcAddNameExpr(prog, nameExpression)`: before compiling.
///
/// # Safety
/// `expr` is null or NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn aclrtcAddNameExpr(prog: *mut c_void, expr: *const c_char) -> i32 {
    const API: &str = "aclrtcAddNameExpr";
    let expr = text(expr);
    with_prog(API, prog, |p| {
        let Some(expr) = expr else {
            return bad_input(API, "nameExpression is a null pointer");
        };
        if p.bin.is_some() {
            return fail(
                ACL_ERROR_RTC_NO_NAME_EXPR_AFTER_COMPILATION,
                API,
                format!(
                    "`{}` is already compiled: add name expressions before aclrtcCompileProg",
                    p.name
                ),
            );
        }
        if expr.trim().is_empty() || expr.contains(['\n', '\r']) {
            return fail(
                ACL_ERROR_RTC_NAME_EXPR_NOT_VALID,
                API,
                format!("{expr:?} is not a name expression (e.g. \"add_custom<float>\")"),
            );
        }
        if !p.name_exprs.iter().any(|(e, _)| *e == expr) {
            let lowered = compile::lowered_name(p.name_exprs.len(), &expr);
            p.name_exprs
                .push((expr, CString::new(lowered).unwrap_or_default()));
        }
        0
    })
}

/// The first line of a compiler log that reports an error, else its first line.
fn first_error(log: &str) -> &str {
    log.lines()
        .find(|l| l.contains("error"))
        .or_else(|| log.lines().next())
        .unwrap_or("")
        .trim()
}

/// `aclrtcCompileProg(prog, numOptions, options)`: compiles for the simulated product (see
/// [`compile`]); the log of this compilation replaces the previous one.
///
/// # Safety
/// `options` is null or holds `numOptions` pointers, each null or NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn aclrtcCompileProg(
    prog: *mut c_void,
    num_options: c_int,
    options: *const *const c_char,
) -> i32 {
    const API: &str = "aclrtcCompileProg";
    let Some((name, src, headers, name_exprs)) = PROGS.with(prog, |p| {
        let exprs: Vec<(String, String)> = p
            .name_exprs
            .iter()
            .map(|(e, l)| (e.clone(), l.to_string_lossy().into_owned()))
            .collect();
        (p.name.clone(), p.src.clone(), p.headers.clone(), exprs)
    }) else {
        return bad_prog(API, prog);
    };
    if num_options < 0 || (num_options > 0 && options.is_null()) {
        return bad_input(
            API,
            &format!("numOptions is {num_options} and options is {options:p}"),
        );
    }
    let mut opts = Vec::new();
    for i in 0..num_options as usize {
        match text(*options.add(i)) {
            Some(o) => opts.push(o),
            None => return bad_input(API, &format!("option {i} is a null pointer")),
        }
    }
    let result = crate::platform::profile()
        .map_err(|msg| compile::Failure {
            code: compile::FAILURE,
            log: msg + "\n",
        })
        .and_then(|profile| {
            if name.ends_with(".aicpu") {
                return Err(compile::Failure {
                    code: compile::COMPILATION,
                    log: "[ERROR] aicpu compile is not supported yet (the simulator runs AI Core kernels)\n".into(),
                });
            }
            let flags = compile::compiler_options(&opts, profile)?;
            let kernels = scan::kernel_definitions(&src);
            let unit = compile::Unit {
                name: &name,
                src: &src,
                headers: &headers,
                name_exprs: &name_exprs,
                kernels: &kernels,
            };
            compile::build(&unit, &flags, profile)
        });
    let (bin, log, code) = match result {
        Ok((bin, log)) => (Some(bin), log, 0),
        Err(f) => (None, f.log, f.code),
    };
    let first = first_error(&log).to_string();
    let stored = PROGS.with(prog, |p| {
        p.bin = bin;
        p.log = CString::new(log.replace('\0', " ")).unwrap_or_default();
    });
    if stored.is_none() {
        return bad_prog(API, prog);
    }
    if code != 0 {
        return fail(
            code,
            API,
            format!("`{name}` was not compiled: {first} (the whole log: aclrtcGetCompileLog)"),
        );
    }
    0
}

/// The binary of a compiled program, or the failure.
fn with_bin(api: &str, prog: *const c_void, f: impl FnOnce(&[u8])) -> i32 {
    with_prog(api, prog, |p| match &p.bin {
        Some(b) => {
            f(b);
            0
        }
        None => fail(
            ACL_ERROR_RTC_INVALID_PROG,
            api,
            format!(
                "`{}` has no binary: aclrtcCompileProg has not succeeded on it",
                p.name
            ),
        ),
    })
}

/// `aclrtcGetBinDataSize(prog, binDataSizeRet)`: bytes of the compiled binary.
///
/// # Safety
/// `size` is null or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn aclrtcGetBinDataSize(prog: *mut c_void, size: *mut usize) -> i32 {
    const API: &str = "aclrtcGetBinDataSize";
    if size.is_null() {
        return bad_input(API, "binDataSizeRet is a null pointer");
    }
    with_bin(API, prog, |b| *size = b.len())
}

/// `aclrtcGetBinData(prog, binData)`: copies the binary (`aclrtcGetBinDataSize` bytes).
///
/// # Safety
/// `data` is null or valid for `aclrtcGetBinDataSize` bytes.
#[no_mangle]
pub unsafe extern "C" fn aclrtcGetBinData(prog: *mut c_void, data: *mut c_char) -> i32 {
    const API: &str = "aclrtcGetBinData";
    if data.is_null() {
        return bad_input(API, "binData is a null pointer");
    }
    with_bin(API, prog, |b| {
        std::ptr::copy_nonoverlapping(b.as_ptr(), data as *mut u8, b.len())
    })
}

/// `aclrtcGetLoweredName(prog, nameExpression, loweredName)`: the name `aclrtBinaryGetFunction`
/// finds the expression's kernel by, valid until `aclrtcDestroyProg`.
///
/// # Safety
/// `expr` is null or NUL-terminated; `lowered` is null or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn aclrtcGetLoweredName(
    prog: *mut c_void,
    expr: *const c_char,
    lowered: *mut *const c_char,
) -> i32 {
    const API: &str = "aclrtcGetLoweredName";
    let expr = text(expr);
    with_prog(API, prog, |p| {
        let Some(expr) = expr.filter(|_| !lowered.is_null()) else {
            return bad_input(
                API,
                "nameExpression and loweredName must not be null pointers",
            );
        };
        if p.bin.is_none() {
            return fail(
                ACL_ERROR_RTC_NO_LOWERED_NAMES_BEFORE_COMPILATION,
                API,
                format!(
                    "`{}` is not compiled yet: lowered names exist after aclrtcCompileProg",
                    p.name
                ),
            );
        }
        match p.name_exprs.iter().find(|(e, _)| *e == expr) {
            Some((_, l)) => {
                *lowered = l.as_ptr();
                0
            }
            None => {
                let known: Vec<&str> = p.name_exprs.iter().map(|(e, _)| e.as_str()).collect();
                fail(
                    ACL_ERROR_RTC_NAME_EXPR_NOT_VALID,
                    API,
                    format!(
                        "`{expr}` was not registered with aclrtcAddNameExpr (the same string is needed); registered: {known:?}"
                    ),
                )
            }
        }
    })
}

/// `aclrtcGetCompileLogSize(prog, logSizeRet)`: bytes of the log with its terminating NUL.
///
/// # Safety
/// `size` is null or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn aclrtcGetCompileLogSize(prog: *mut c_void, size: *mut usize) -> i32 {
    const API: &str = "aclrtcGetCompileLogSize";
    if size.is_null() {
        return bad_input(API, "logSizeRet is a null pointer");
    }
    with_prog(API, prog, |p| {
        *size = p.log.as_bytes_with_nul().len();
        0
    })
}

/// `aclrtcGetCompileLog(prog, log)`: the log of the last compilation, NUL-terminated.
///
/// # Safety
/// `log` is null or valid for `aclrtcGetCompileLogSize` bytes.
#[no_mangle]
pub unsafe extern "C" fn aclrtcGetCompileLog(prog: *mut c_void, log: *mut c_char) -> i32 {
    const API: &str = "aclrtcGetCompileLog";
    if log.is_null() {
        return bad_input(API, "log is a null pointer");
    }
    with_prog(API, prog, |p| {
        let b = p.log.as_bytes_with_nul();
        std::ptr::copy_nonoverlapping(b.as_ptr(), log as *mut u8, b.len());
        0
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn programs_check_their_handles_and_the_order_of_calls() {
        let mut p: *mut c_void = std::ptr::null_mut();
        let mut size = 0usize;
        let mut lowered: *const c_char = std::ptr::null();
        // SAFETY: valid pointers and NUL-terminated strings.
        unsafe {
            assert_eq!(
                aclrtcCreateProg(
                    &mut p,
                    c"int x;".as_ptr(),
                    c"p".as_ptr(),
                    0,
                    std::ptr::null(),
                    std::ptr::null()
                ),
                0
            );
            assert_eq!(aclrtcAddNameExpr(p, c"k<float>".as_ptr()), 0);
            assert_eq!(
                aclrtcAddNameExpr(p, c" ".as_ptr()),
                ACL_ERROR_RTC_NAME_EXPR_NOT_VALID
            );
            assert_eq!(
                aclrtcGetLoweredName(p, c"k<float>".as_ptr(), &mut lowered),
                ACL_ERROR_RTC_NO_LOWERED_NAMES_BEFORE_COMPILATION
            );
            assert_eq!(
                aclrtcGetBinDataSize(p, &mut size),
                ACL_ERROR_RTC_INVALID_PROG
            );
            assert_eq!(aclrtcGetCompileLogSize(p, &mut size), 0);
            assert_eq!(size, 1);
            let bad = [c"-fno-rtti".as_ptr()];
            assert_eq!(
                aclrtcCompileProg(p, 1, bad.as_ptr()),
                compile::INVALID_OPTION
            );
            assert_eq!(aclrtcGetCompileLogSize(p, &mut size), 0);
            assert!(size > 30);
            assert_eq!(aclrtcDestroyProg(&mut p), 0);
            assert!(p.is_null());
            assert_eq!(aclrtcDestroyProg(&mut p), ACL_ERROR_RTC_INVALID_PROG);
            let names = [c"../x.h".as_ptr()];
            let texts = [c"".as_ptr()];
            assert_eq!(
                aclrtcCreateProg(
                    &mut p,
                    c"".as_ptr(),
                    c"p".as_ptr(),
                    1,
                    texts.as_ptr(),
                    names.as_ptr()
                ),
                ACL_ERROR_RTC_INVALID_INPUT
            );
        }
    }
}
