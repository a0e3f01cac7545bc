//! Finding the headers and the simulator library, and compiling C++ kernels with the machine's
//! C++ compiler ([`compiler`]): `<<<…>>>` launches rewritten first, `.asc` files compiled
//! as C++, the product's macros and the host branch's macros defined.

use crate::{chevron, product};
use ascendc::ChipProfile;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Defines of the CPU-debug host branch (`--run-mode cpu`, the default): the spellings kernels
/// and host files test for.
pub const CPU_DEBUG_DEFINES: [&str; 2] = ["-DASCENDC_CPU_DEBUG=1", "-D__CCE_KT_TEST__=1"];

/// Libraries the simulator library needs besides itself.
pub const SYSTEM_LIBS: [&str; 3] = ["-lpthread", "-ldl", "-lm"];

/// File name endings compiled as C++ sources (`.asc` with `-x c++`).
pub const SOURCE_EXTENSIONS: [&str; 5] = ["cpp", "cc", "cxx", "c++", "asc"];

/// Which host branch a build compiles: `cpu` defines `ASCENDC_CPU_DEBUG` and `__CCE_KT_TEST__`
/// (GmAlloc / ICPU_RUN_KF hosts), `npu` defines neither (aclrtMalloc / `<<<>>>` hosts). Both run
/// on the simulator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum RunMode {
    /// The `#ifdef ASCENDC_CPU_DEBUG` / `__CCE_KT_TEST__` branch.
    Cpu,
    /// The device branch (neither macro defined).
    Npu,
}

impl RunMode {
    /// `$ASCENDC_RUN_MODE` (`cpu` or `npu`), else `cpu`.
    pub fn from_env() -> Result<RunMode, String> {
        match std::env::var("ASCENDC_RUN_MODE").as_deref() {
            Err(_) | Ok("cpu") => Ok(RunMode::Cpu),
            Ok("npu") => Ok(RunMode::Npu),
            Ok(other) => Err(format!("ASCENDC_RUN_MODE={other}: expected cpu or npu")),
        }
    }
}

/// The C++ compiler as a program and its leading arguments: `$ASCENDC_CXX`, else `$CXX` (split
/// at white space, e.g. `ccache g++`) unless it names `ascendc` itself (as `make CXX="ascendc
/// cxx"` exports it), else `g++`.
pub fn compiler() -> (String, Vec<String>) {
    let chosen = std::env::var("ASCENDC_CXX").ok().or_else(|| {
        std::env::var("CXX").ok().filter(|c| {
            !c.split_whitespace().next().is_some_and(|p| {
                Path::new(p)
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("ascendc"))
            })
        })
    });
    let mut words = chosen
        .as_deref()
        .unwrap_or("g++")
        .split_whitespace()
        .map(String::from);
    let program = words.next().unwrap_or_else(|| "g++".into());
    (program, words.collect())
}

/// The repository root the binary was built from (the headers and the library are found there
/// when nothing else says where they are).
fn built_from() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    root.canonicalize().unwrap_or(root)
}

/// `$ASCENDC_HOME`: a checkout of this project (its `include/` and `target/release/`).
fn home() -> Option<PathBuf> {
    std::env::var_os("ASCENDC_HOME").map(PathBuf::from)
}

/// The header directory: `$ASCENDC_INCLUDE_DIR`, else `$ASCENDC_HOME/include`, else the
/// `include/` of the checkout this binary was built from.
pub fn include_dir() -> PathBuf {
    let dir = std::env::var_os("ASCENDC_INCLUDE_DIR")
        .map(PathBuf::from)
        .or_else(|| home().map(|h| h.join("include")))
        .unwrap_or_else(ascendc_ffi::include_dir);
    dir.canonicalize().unwrap_or(dir)
}

fn lib_file() -> String {
    format!("lib{}.a", ascendc_ffi::LIB_NAME)
}

/// The newest `libascendc_ffi.a` in `dir` or its `deps/`.
fn newest_in(dir: &Path) -> Option<PathBuf> {
    let name = format!("lib{}", ascendc_ffi::LIB_NAME);
    let mut found: Vec<PathBuf> = vec![dir.join(lib_file())];
    if let Ok(entries) = std::fs::read_dir(dir.join("deps")) {
        found.extend(entries.flatten().map(|e| e.path()).filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(&format!("{name}-")) && n.ends_with(".a"))
        }));
    }
    found
        .into_iter()
        .filter_map(|p| Some((p.metadata().ok()?.modified().ok()?, p)))
        .max()
        .map(|(_, p)| p)
}

/// `libascendc_ffi.a`: `$ASCENDC_LIB_DIR`, else `$ASCENDC_HOME/target/release`, else next to
/// this executable (cargo's target directory), else the `target/release` of the checkout this
/// binary was built from — built there with cargo when it is missing (an installed `ascendc`).
pub fn library() -> Result<PathBuf, String> {
    if let Some(dir) = std::env::var_os("ASCENDC_LIB_DIR") {
        let p = Path::new(&dir).join(lib_file());
        return if p.is_file() {
            Ok(p)
        } else {
            Err(format!("ASCENDC_LIB_DIR has no {}", p.display()))
        };
    }
    if let Some(h) = home() {
        return newest_in(&h.join("target/release")).ok_or_else(|| {
            format!(
                "ASCENDC_HOME={} has no target/release/{}: run `cargo build --release -p ascendc-ffi` there",
                h.display(),
                lib_file()
            )
        });
    }
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    if let Some(p) = exe.parent().and_then(newest_in) {
        return Ok(p);
    }
    let root = built_from();
    let target = root.join("target/release");
    if let Some(p) = newest_in(&target) {
        return Ok(p);
    }
    if root.join("Cargo.toml").is_file() {
        eprintln!(
            "ascendc: building the simulator library in {} (once)",
            root.display()
        );
        let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args(["build", "--release", "--quiet", "-p", "ascendc-ffi"])
            .current_dir(&root)
            .status();
        if status.is_ok_and(|s| s.success()) {
            if let Some(p) = newest_in(&target) {
                return Ok(p);
            }
        }
    }
    Err(format!(
        "{} not found next to {} nor in {}: run `cargo build --release -p ascendc-ffi` in the checkout, or set ASCENDC_HOME (the checkout) or ASCENDC_LIB_DIR",
        lib_file(),
        exe.display(),
        target.display()
    ))
}

/// Compiler flags: the standard (when given), the host branch's and the product's macros, the
/// header directory.
pub fn cflags(std: Option<&str>, mode: RunMode, profile: &ChipProfile) -> Vec<String> {
    let mut f: Vec<String> = std.map(|s| format!("-std={s}")).into_iter().collect();
    if mode == RunMode::Cpu {
        f.extend(CPU_DEBUG_DEFINES.iter().map(|s| s.to_string()));
    }
    f.extend(product::defines(profile));
    f.push(format!("-I{}", include_dir().display()));
    f
}

/// Linker flags: the library by path, whole and exported (`-rdynamic`: the kernels a program
/// compiles at run time, `aclrtcCompileProg`, are shared objects that call the program's
/// simulator, any entry of its C ABI), then the system libraries it needs.
pub fn libs() -> Result<Vec<String>, String> {
    let mut f = vec![
        "-rdynamic".to_string(),
        "-Wl,--whole-archive".into(),
        library()?.display().to_string(),
        "-Wl,--no-whole-archive".into(),
    ];
    f.extend(SYSTEM_LIBS.iter().map(|s| s.to_string()));
    Ok(f)
}

/// True for a file name the C++ compiler gets as a source.
pub fn is_source(p: &Path) -> bool {
    p.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| SOURCE_EXTENSIONS.contains(&e))
}

/// Sources prepared for the compiler: each original, or its rewrite in `tmp` (launches turned
/// into calls, `#line` back to the original), as compiler arguments (`.asc` under `-x c++`),
/// plus `-iquote` for the directories of rewritten files so their `#include "…"` still resolve.
pub struct Prepared {
    /// Arguments naming the sources, in order.
    pub args: Vec<String>,
    /// `-iquote dir` for each rewritten source's directory.
    pub quote_dirs: Vec<String>,
}

/// Rewrites the `<<<…>>>` launches and kernel declarations of `sources` into files in `tmp`.
/// `dirs` are the include directories searched for the headers that declare kernels.
pub fn prepare(sources: &[PathBuf], dirs: &[PathBuf], tmp: &Path) -> Result<Prepared, String> {
    let kernels = chevron::KernelIndex::of(sources, dirs);
    let mut out = Prepared {
        args: Vec::new(),
        quote_dirs: Vec::new(),
    };
    for (n, s) in sources.iter().enumerate() {
        let text =
            std::fs::read_to_string(s).map_err(|e| format!("cannot read {}: {e}", s.display()))?;
        let shown = s.display().to_string();
        match chevron::rewrite(&text, &shown, &kernels).map_err(|d| d.to_string())? {
            Some(rewritten) => {
                let stem = s.file_stem().and_then(|x| x.to_str()).unwrap_or("source");
                let dir = tmp.join(format!("src{n}"));
                std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
                let file = dir.join(format!("{stem}.cpp"));
                std::fs::write(&file, rewritten)
                    .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
                let parent = s
                    .parent()
                    .filter(|d| !d.as_os_str().is_empty())
                    .unwrap_or(Path::new("."));
                out.quote_dirs.push("-iquote".into());
                out.quote_dirs.push(parent.display().to_string());
                out.args.push(file.display().to_string());
            }
            None if s.extension().is_some_and(|e| e == "asc") => {
                out.args
                    .extend(["-x".into(), "c++".into(), shown, "-x".into(), "none".into()]);
            }
            None => out.args.push(shown),
        }
    }
    Ok(out)
}

/// How `compile` builds a program.
pub struct Build<'a> {
    /// C++ standard.
    pub std: &'a str,
    /// Host branch.
    pub mode: RunMode,
    /// Product whose macros are defined.
    pub profile: &'static ChipProfile,
    /// Extra compiler flags.
    pub extra: &'a [String],
}

/// Compiles and links `sources` into `out`; each source's directory is on the include path.
pub fn compile(sources: &[PathBuf], build: &Build, out: &Path) -> Result<(), String> {
    let (cxx, lead) = compiler();
    let tmp =
        tempfile::tempdir().map_err(|e| format!("cannot create a temporary directory: {e}"))?;
    let dirs: Vec<PathBuf> = sources
        .iter()
        .filter_map(|s| s.parent().filter(|d| !d.as_os_str().is_empty()))
        .map(Path::to_path_buf)
        .collect();
    let prepared = prepare(sources, &dirs, tmp.path())?;
    let mut cmd = Command::new(&cxx);
    cmd.args(&lead)
        .args(cflags(Some(build.std), build.mode, build.profile))
        .args(["-g", "-O1"]);
    for d in &dirs {
        cmd.arg(format!("-I{}", d.display()));
    }
    cmd.args(&prepared.quote_dirs)
        .args(build.extra)
        .args(&prepared.args)
        .arg("-o")
        .arg(out)
        .args(libs()?);
    let status = cmd
        .status()
        .map_err(|e| format!("cannot run {cxx}: {e} (install g++ or set CXX)"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{cxx} failed ({status})"))
    }
}
