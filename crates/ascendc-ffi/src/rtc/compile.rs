//! Compiling an aclrtc program on the simulator: the program's source followed by its kernel
//! entries (`include/ascendc/rtc_entry.h`) is built by `ascendc cxx` into a shared object, with the
//! macros, headers and `<<<>>>` preparation of `ascendc run` for the simulated product and the
//! program's host branch. The shared object's bytes are the binary `aclrtcGetBinData` returns.
//!
//! The `ascendc` command is `$ASCENDC_CLI`, else `target/release/ascendc` of `$ASCENDC_HOME`, else
//! that of the checkout this library was built from, else `ascendc` on `PATH`.

use ascendc::ChipProfile;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU8, Ordering};

/// `ACL_ERROR_RTC_INVALID_OPTION`.
pub const INVALID_OPTION: i32 = 176_002;
/// `ACL_ERROR_RTC_COMPILATION`.
pub const COMPILATION: i32 = 176_003;
/// `ACL_ERROR_RTC_LINKING`.
pub const LINKING: i32 = 176_004;
/// `ACL_ERROR_RTC_FAILURE`.
pub const FAILURE: i32 = 576_000;

/// The host branch the program was built in: 0 unknown, 1 cpu, 2 npu.
static BUILD_MODE: AtomicU8 = AtomicU8::new(0);

/// Records the host branch the program was compiled in (`acl/acl_rt_compile.h` calls it before
/// `main`): runtime-compiled kernels get the same macros.
#[no_mangle]
pub extern "C" fn ascendc_rtc_build_mode(cpu_debug: i32) {
    BUILD_MODE.store(if cpu_debug != 0 { 1 } else { 2 }, Ordering::Relaxed);
}

/// What a program is compiled from.
pub struct Unit<'a> {
    /// The program's name (`aclrtcCreateProg`'s `name`): the file name in messages.
    pub name: &'a str,
    pub src: &'a str,
    /// Headers given to `aclrtcCreateProg`: include name and text.
    pub headers: &'a [(String, String)],
    /// Name expressions with their lowered names.
    pub name_exprs: &'a [(String, String)],
    /// Non-template kernels found by name.
    pub kernels: &'a [String],
}

/// A failed compilation: the acl error code and the compile log.
pub struct Failure {
    pub code: i32,
    pub log: String,
}

impl Failure {
    fn new(code: i32, log: impl Into<String>) -> Failure {
        Failure {
            code,
            log: log.into(),
        }
    }
}

/// The lowered name of the `index`-th name expression `expr`.
pub fn lowered_name(index: usize, expr: &str) -> String {
    let compact: String = expr.split_whitespace().collect();
    format!("_ascendc_rtc{index}_{compact}")
}

/// `s` as the inside of a C string literal.
fn c_escaped(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The compile unit: the source under the program's name, then the kernel entries and their
/// table (each name expression's entry under a `#line` naming it, so that a bad expression is
/// reported as itself).
pub fn unit_text(u: &Unit) -> String {
    const ENTRIES: &str = "aclrtc kernel entries";
    let mut t = format!("#line 1 \"{}\"\n{}\n", c_escaped(u.name), u.src);
    t += &format!("#line 1 \"{ENTRIES}\"\n#include \"ascendc/rtc_entry.h\"\nnamespace {{\n");
    let mut names = Vec::new();
    for (i, (expr, lowered)) in u.name_exprs.iter().enumerate() {
        t += &format!(
            "#line 1 \"aclrtcAddNameExpr({})\"\nconstexpr ::AscendC::detail::RtcEntry ascendc_rtc_entry{i} = \
             ::AscendC::detail::RtcKernel< &{expr} >::Entry(\"{}\", \"{}\");\n",
            c_escaped(expr),
            c_escaped(expr),
            c_escaped(lowered)
        );
        names.push(format!("&ascendc_rtc_entry{i}"));
    }
    t += &format!("#line 1 \"{ENTRIES}\"\n");
    for (k, kernel) in u.kernels.iter().enumerate() {
        let i = u.name_exprs.len() + k;
        t += &format!(
            "constexpr ::AscendC::detail::RtcEntry ascendc_rtc_entry{i} = \
             ::AscendC::detail::RtcKernel< &::{kernel} >::Entry(\"{kernel}\", nullptr);\n"
        );
        names.push(format!("&ascendc_rtc_entry{i}"));
    }
    names.push("nullptr".into());
    t += &format!(
        "}}  // namespace\nextern \"C\" const ::AscendC::detail::RtcEntry* const ascendc_rtc_entries[] = {{{}}};\n",
        names.join(", ")
    );
    t
}

/// The compiler options of `options` (the vendor compiler's spellings): `--npu-arch` checked
/// against the simulated product and dropped, `--cce-*` code-generation options dropped, the
/// rest passed on; anything else is refused.
pub fn compiler_options(options: &[String], profile: &ChipProfile) -> Result<Vec<String>, Failure> {
    const PASSED: [&str; 8] = ["-D", "-U", "-I", "-O", "-g", "-W", "-w", "-std="];
    let mut out = Vec::new();
    let mut it = options.iter();
    while let Some(o) = it.next() {
        if o.is_empty() {
            return Err(Failure::new(
                INVALID_OPTION,
                "an option is the empty string",
            ));
        }
        let arch = match o.as_str() {
            "--npu-arch" => Some(it.next().map(String::as_str).unwrap_or_default()),
            _ => o.strip_prefix("--npu-arch="),
        };
        if let Some(arch) = arch {
            check_arch(arch, profile)?;
        } else if o == "-xaicpu" {
            return Err(Failure::new(
                COMPILATION,
                "[ERROR] aicpu compile is not supported yet (the simulator runs AI Core kernels)\n",
            ));
        } else if o.starts_with("--cce-") {
            // Device code generation tuning: nothing to tune here.
        } else if ["-D", "-U", "-I"].contains(&o.as_str()) {
            let value = it.next().ok_or_else(|| {
                Failure::new(
                    INVALID_OPTION,
                    format!("option {o} needs a value (the next option)"),
                )
            })?;
            out.push(format!("{o}{value}"));
        } else if PASSED.iter().any(|p| o.starts_with(p)) {
            out.push(o.clone());
        } else {
            return Err(Failure::new(
                INVALID_OPTION,
                format!(
                    "option `{o}` is not accepted: the simulator's runtime compiler takes --npu-arch=dav-XXXX, \
                     -D, -U, -I, -O, -g, -W, -w and -std=, and ignores --cce-* options\n"
                ),
            ));
        }
    }
    Ok(out)
}

/// Checks `--npu-arch=arch` against the simulated product.
fn check_arch(arch: &str, profile: &ChipProfile) -> Result<(), Failure> {
    let bad = |why: String| Failure::new(INVALID_OPTION, format!("--npu-arch={arch}: {why}\n"));
    if !arch.to_ascii_lowercase().starts_with("dav-") {
        return Err(bad("not an NPU architecture (dav-2201, …)".into()));
    }
    match ChipProfile::by_name(arch) {
        Some(p) if p.npu_arch == profile.npu_arch => Ok(()),
        Some(p) => Err(bad(format!(
            "NPU architecture {}, but the program simulates {profile} (architecture {}; ascendc run --product / $ASCENDC_PRODUCT)",
            p.npu_arch, profile.npu_arch
        ))),
        None => Err(bad(format!(
            "an NPU architecture the simulator does not have ({})",
            ChipProfile::accepted_names()
        ))),
    }
}

/// The `ascendc` command that compiles programs.
fn cli() -> PathBuf {
    if let Some(p) = std::env::var_os("ASCENDC_CLI") {
        return PathBuf::from(p);
    }
    let homes = std::env::var_os("ASCENDC_HOME")
        .map(PathBuf::from)
        .into_iter()
        .chain([crate::include_dir().join("..")]);
    for home in homes {
        let p = home.join("target/release/ascendc");
        if p.is_file() {
            return p;
        }
    }
    PathBuf::from("ascendc")
}

/// A fresh directory for one compilation, removed when dropped.
struct WorkDir(PathBuf);

impl WorkDir {
    fn new() -> std::io::Result<WorkDir> {
        use std::sync::atomic::AtomicUsize;
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        loop {
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let p = std::env::temp_dir().join(format!("ascendc-rtc-{}-{n}", std::process::id()));
            match std::fs::create_dir(&p) {
                Ok(()) => return Ok(WorkDir(p)),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
    }
}

impl Drop for WorkDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Writes `text` to `path`, creating its directory.
fn write(path: &Path, text: &str) -> Result<(), Failure> {
    if let Some(d) = path.parent() {
        std::fs::create_dir_all(d)
            .map_err(|e| Failure::new(FAILURE, format!("cannot create {}: {e}\n", d.display())))?;
    }
    std::fs::write(path, text)
        .map_err(|e| Failure::new(FAILURE, format!("cannot write {}: {e}\n", path.display())))
}

/// Compiles `u` with `options` (already checked by [`compiler_options`]) for `profile`: the
/// shared object's bytes and the compile log.
pub fn build(
    u: &Unit,
    options: &[String],
    profile: &ChipProfile,
) -> Result<(Vec<u8>, String), Failure> {
    let dir = WorkDir::new().map_err(|e| {
        Failure::new(
            FAILURE,
            format!("cannot create a temporary directory: {e}\n"),
        )
    })?;
    let headers = dir.0.join("include");
    for (name, text) in u.headers {
        write(&headers.join(name), text)?;
    }
    let source = dir.0.join("program.cpp");
    write(&source, &unit_text(u))?;
    let out = dir.0.join("program.so");
    let cli = cli();
    let mut cmd = Command::new(&cli);
    cmd.args(["cxx", "-shared", "-fPIC", "-O1"])
        .arg(format!("-I{}", headers.display()))
        .args(options)
        .arg("-o")
        .arg(&out)
        .arg(&source)
        .env("ASCENDC_PRODUCT", profile.soc);
    match BUILD_MODE.load(Ordering::Relaxed) {
        1 => cmd.env("ASCENDC_RUN_MODE", "cpu"),
        2 => cmd.env("ASCENDC_RUN_MODE", "npu"),
        _ => &mut cmd,
    };
    let output = cmd.output().map_err(|e| {
        Failure::new(
            FAILURE,
            format!(
                "cannot run `{} cxx`: {e} (set ASCENDC_CLI to the ascendc command, or build it with `cargo build --release -p ascendc-cli`)\n",
                cli.display()
            ),
        )
    })?;
    let mut log = String::from_utf8_lossy(&output.stdout).into_owned();
    log += &String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        let code = if log.contains("ld returned") {
            LINKING
        } else {
            COMPILATION
        };
        return Err(Failure::new(code, log));
    }
    let bin = std::fs::read(&out).map_err(|e| {
        Failure::new(
            FAILURE,
            format!("{log}cannot read {}: {e}\n", out.display()),
        )
    })?;
    Ok((bin, log))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_checked_and_translated() {
        let a2 = ChipProfile::by_name("A2").unwrap();
        let opts =
            |v: &[&str]| compiler_options(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>(), a2);
        assert_eq!(
            opts(&[
                "--npu-arch=dav-2201",
                "-DN=4",
                "-I",
                "inc",
                "--cce-auto-sync",
                "-O2"
            ])
            .ok(),
            Some(vec!["-DN=4".to_string(), "-Iinc".into(), "-O2".into()])
        );
        let e = opts(&["--npu-arch=dav-2002"]).err().unwrap();
        assert_eq!(e.code, INVALID_OPTION);
        assert!(
            e.log
                .contains("NPU architecture 2002, but the program simulates"),
            "{}",
            e.log
        );
        let e = opts(&["-fno-rtti"]).err().unwrap();
        assert!(
            e.log.starts_with("option `-fno-rtti` is not accepted"),
            "{}",
            e.log
        );
        assert_eq!(opts(&[""]).err().unwrap().code, INVALID_OPTION);
        assert_eq!(opts(&["-xaicpu"]).err().unwrap().code, COMPILATION);
    }

    #[test]
    fn the_unit_names_each_entry() {
        let exprs = [(
            "ns::k<float>".to_string(),
            lowered_name(0, "ns::k< float >"),
        )];
        let t = unit_text(&Unit {
            name: "add.asc",
            src: "SRC",
            headers: &[],
            name_exprs: &exprs,
            kernels: &["hello".to_string()],
        });
        assert!(t.starts_with("#line 1 \"add.asc\"\nSRC\n"), "{t}");
        assert!(
            t.contains("#line 1 \"aclrtcAddNameExpr(ns::k<float>)\"\n"),
            "{t}"
        );
        assert!(t.contains("RtcKernel< &ns::k<float> >::Entry(\"ns::k<float>\", \"_ascendc_rtc0_ns::k<float>\")"), "{t}");
        assert!(
            t.contains("RtcKernel< &::hello >::Entry(\"hello\", nullptr)"),
            "{t}"
        );
        assert!(
            t.ends_with(
                "ascendc_rtc_entries[] = {&ascendc_rtc_entry0, &ascendc_rtc_entry1, nullptr};\n"
            ),
            "{t}"
        );
    }
}
