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

/// The newest `libascendc_ffi.a` in `dir` or its `deps/` (where cargo leaves it when the
/// library is built as a dependency: unsuffixed, as the crate also builds a shared library,
/// or `libascendc_ffi-HASH.a` from older builds).
fn newest_in(dir: &Path) -> Option<PathBuf> {
    let name = format!("lib{}", ascendc_ffi::LIB_NAME);
    let mut found: Vec<PathBuf> = vec![dir.join(lib_file()), dir.join("deps").join(lib_file())];
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

/// Linker flags: the simulator library, then the system libraries it needs. The shared library
/// (`libascendc_ffi.so`, found beside the static one, with its directory as the program's run
/// path) when there is one: linking it takes milliseconds and the program stays small. Else the
/// static library whole. Either way exported (`-rdynamic`): the kernels a program compiles at
/// run time (`aclrtcCompileProg`) are shared objects that call the program's simulator, any
/// entry of its C ABI.
pub fn libs() -> Result<Vec<String>, String> {
    Ok(link_library()?.0)
}

/// Linker flags of the static library alone (`ascendc flags --libs`, for build systems that
/// keep the program apart from this checkout).
pub fn static_libs() -> Result<Vec<String>, String> {
    let mut f = vec![
        "-rdynamic".to_string(),
        "-Wl,--whole-archive".into(),
        library()?.display().to_string(),
        "-Wl,--no-whole-archive".into(),
    ];
    f.extend(SYSTEM_LIBS.iter().map(|s| s.to_string()));
    Ok(f)
}

/// [`libs`], and whether the library is the shared one.
fn link_library() -> Result<(Vec<String>, bool), String> {
    let library = library()?;
    let mut f = vec!["-rdynamic".to_string()];
    let shared = shared_library(&library);
    match &shared {
        Some(so) => {
            f.push(so.display().to_string());
            let dir = so.parent().unwrap_or(Path::new("."));
            f.push(format!("-Wl,-rpath,{}", dir.display()));
        }
        None => f.extend([
            "-Wl,--whole-archive".into(),
            library.display().to_string(),
            "-Wl,--no-whole-archive".into(),
        ]),
    }
    f.extend(SYSTEM_LIBS.iter().map(|s| s.to_string()));
    Ok((f, shared.is_some()))
}

/// True for a file name the C++ compiler gets as a source.
pub fn is_source(p: &Path) -> bool {
    p.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| SOURCE_EXTENSIONS.contains(&e))
}

/// One source as the compiler gets it: the original, or its rewrite in the run's temporary
/// directory (launches turned into calls, `#line` back to the original).
pub struct Unit {
    /// The file the compiler reads.
    pub file: String,
    /// Compiled under `-x c++` (an `.asc` file kept as it is).
    pub asc: bool,
}

impl Unit {
    /// The compiler arguments naming this source.
    fn args(&self) -> Vec<String> {
        if self.asc {
            ["-x", "c++", &self.file, "-x", "none"]
                .map(String::from)
                .to_vec()
        } else {
            vec![self.file.clone()]
        }
    }
}

/// Sources prepared for the compiler, plus `-iquote` for the directories of rewritten files so
/// their `#include "…"` still resolve.
pub struct Prepared {
    /// The sources, in order.
    pub units: Vec<Unit>,
    /// `-iquote dir` for each rewritten source's directory.
    pub quote_dirs: Vec<String>,
}

impl Prepared {
    /// Arguments naming the sources, in order (`.asc` under `-x c++`).
    pub fn args(&self) -> Vec<String> {
        self.units.iter().flat_map(Unit::args).collect()
    }
}

/// Rewrites the `<<<…>>>` launches and kernel declarations of `sources` into files in `tmp`.
/// `dirs` are the include directories searched for the headers that declare kernels.
pub fn prepare(sources: &[PathBuf], dirs: &[PathBuf], tmp: &Path) -> Result<Prepared, String> {
    let kernels = chevron::KernelIndex::of(sources, dirs);
    let mut out = Prepared {
        units: Vec::new(),
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
                out.units.push(Unit {
                    file: file.display().to_string(),
                    asc: false,
                });
            }
            None => out.units.push(Unit {
                asc: s.extension().is_some_and(|e| e == "asc"),
                file: shown,
            }),
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
    /// Extra compiler flags; source files among them are compiled with the others.
    pub extra: &'a [String],
    /// The run's temporary directory (rewritten sources and objects go there; files of the
    /// run there enter the build cache's keys by content, wherever they are named).
    pub tmp: &'a Path,
}

/// Compiles and links `sources` into `out` ([`build_program`]); each source's directory is on
/// the include path.
pub fn compile(sources: &[PathBuf], build: &Build, out: &Path) -> Result<(), String> {
    let dirs: Vec<PathBuf> = sources
        .iter()
        .filter_map(|s| s.parent().filter(|d| !d.as_os_str().is_empty()))
        .map(Path::to_path_buf)
        .collect();
    let mut prepared = prepare(sources, &dirs, build.tmp)?;
    // Sources among the extra flags (the product registration) are compiled like the others.
    let extra_sources = crate::cxx::source_positions(build.extra);
    let mut extra = Vec::new();
    for (i, a) in build.extra.iter().enumerate() {
        if extra_sources.contains(&i) {
            prepared.units.push(Unit {
                asc: a.ends_with(".asc"),
                file: a.clone(),
            });
        } else {
            extra.push(a.clone());
        }
    }
    let mut flags = cflags(Some(build.std), build.mode, build.profile);
    flags.extend(["-g".into(), "-O1".into()]);
    flags.extend(dirs.iter().map(|d| format!("-I{}", d.display())));
    flags.extend(prepared.quote_dirs.iter().cloned());
    flags.extend(extra.iter().cloned());
    build_program(&prepared.units, &flags, extra, build.tmp, out)
}

/// Compiles `units` with `flags` (each on its own, in parallel, from the build cache
/// ([`crate::build_cache`]) when nothing they depend on changed) and links them with
/// `link_flags` and the simulator library into `out`; `tmp` is the run's temporary directory.
/// The program links the shared simulator library when there is one (a small program, started
/// in milliseconds, and itself cached), else the static one.
pub fn build_program(
    units: &[Unit],
    flags: &[String],
    mut link_flags: Vec<String>,
    tmp: &Path,
    out: &Path,
) -> Result<(), String> {
    let (cxx, lead) = compiler();
    let job = Job {
        cxx: &cxx,
        lead: &lead,
        tmp,
        cache: crate::build_cache::Cache::open(),
    };
    let objects = job.objects(units, flags)?;
    let (libs, shared) = link_library()?;
    link_flags.extend(libs);
    job.link(&objects, &link_flags, shared, out)
}

/// The shared simulator library built with the static `library` (beside it), if any and not
/// declined with `ASCENDC_LINK=static` (a program that does not depend on this checkout).
fn shared_library(library: &Path) -> Option<PathBuf> {
    if std::env::var("ASCENDC_LINK").is_ok_and(|v| v == "static") {
        return None;
    }
    let so = library.with_file_name(format!("lib{}.so", ascendc_ffi::LIB_NAME));
    so.is_file().then_some(so)
}

/// One program's build: the compiler, the run's temporary directory, the cache.
struct Job<'a> {
    cxx: &'a str,
    lead: &'a [String],
    tmp: &'a Path,
    cache: Option<crate::build_cache::Cache>,
}

/// A compiled source: the object file and its cache key (its identity in the program's key).
struct Object {
    file: PathBuf,
    key: String,
}

impl Job<'_> {
    /// A cache key of `kind` starting with the compiler's identity and arguments.
    fn key(&self, kind: &str, args: &[String]) -> crate::build_cache::Key {
        let mut k = crate::build_cache::Key::new(kind);
        k.add_file_identity(&which(self.cxx));
        k.add(self.cxx.as_bytes());
        for a in self.lead.iter().chain(args) {
            k.add_arg(a, self.tmp);
        }
        k
    }

    /// Compiles each unit (from the cache when unchanged), as many at once as there are CPUs;
    /// the compiler's messages are printed in source order.
    fn objects(&self, units: &[Unit], flags: &[String]) -> Result<Vec<Object>, String> {
        let cwd = std::env::current_dir().unwrap_or_default();
        let cwd = cwd.as_path();
        let width = std::thread::available_parallelism().map_or(1, |n| n.get());
        let mut done: Vec<Result<(Object, String), String>> = Vec::new();
        for chunk in units.chunks(width).enumerate() {
            let (base, chunk) = chunk;
            let results: Vec<_> = std::thread::scope(|s| {
                let handles: Vec<_> = chunk
                    .iter()
                    .enumerate()
                    .map(|(i, u)| s.spawn(move || self.object(base * width + i, u, flags, cwd)))
                    .collect();
                handles
                    .into_iter()
                    .map(|h| {
                        h.join()
                            .unwrap_or_else(|_| Err("compiler thread panicked".into()))
                    })
                    .collect()
            });
            done.extend(results);
        }
        let mut objects = Vec::new();
        let mut failure = None;
        for r in done {
            match r {
                Ok((o, messages)) => {
                    eprint!("{messages}");
                    objects.push(o);
                }
                Err(e) => {
                    failure.get_or_insert(e);
                }
            }
        }
        failure.map_or(Ok(objects), Err)
    }

    /// Compiles one unit to an object: the object and the compiler's messages.
    fn object(
        &self,
        n: usize,
        unit: &Unit,
        flags: &[String],
        cwd: &Path,
    ) -> Result<(Object, String), String> {
        let mut key = self.key("object", flags);
        key.add(cwd.as_os_str().as_encoded_bytes());
        for a in unit.args() {
            key.add_arg(&a, self.tmp);
        }
        key.add_file_contents(Path::new(&unit.file), self.tmp);
        let key = key.finish();
        let obj = self.tmp.join(format!("unit{n}.o"));
        // A hit is linked (or copied) into the run's directory first, so that another run
        // pruning the cache meanwhile cannot take it away before the link.
        if let Some((cached, messages)) = self.cache.as_ref().and_then(|c| c.object(&key, self.tmp))
        {
            if place(&cached, &obj).is_ok() {
                return Ok((Object { file: obj, key }, messages));
            }
        }
        let dep = self.tmp.join(format!("unit{n}.d"));
        let out = Command::new(self.cxx)
            .args(self.lead)
            .args(flags)
            .args(unit.args())
            .arg("-c")
            .arg("-o")
            .arg(&obj)
            .arg("-MD")
            .arg("-MF")
            .arg(&dep)
            .output()
            .map_err(|e| format!("cannot run {}: {e} (install g++ or set CXX)", self.cxx))?;
        let messages = String::from_utf8_lossy(&out.stderr).into_owned();
        if !out.status.success() {
            eprint!("{messages}");
            return Err(format!("{} failed ({})", self.cxx, out.status));
        }
        if let Some(c) = &self.cache {
            c.store_object(&key, &obj, &dep, &messages, self.tmp);
        }
        Ok((Object { file: obj, key }, messages))
    }

    /// Links `objects` with `flags` into `out`; the program comes from (and, when `cacheable`,
    /// goes to) the cache.
    fn link(
        &self,
        objects: &[Object],
        flags: &[String],
        cacheable: bool,
        out: &Path,
    ) -> Result<(), String> {
        let mut key = self.key("program", flags);
        for o in objects {
            key.add(o.key.as_bytes());
        }
        for f in flags
            .iter()
            .filter(|f| f.ends_with(".so") || f.ends_with(".a"))
        {
            key.add_file_identity(Path::new(f));
        }
        let key = key.finish();
        let cache = self.cache.as_ref().filter(|_| cacheable);
        if let Some(exe) = cache.and_then(|c| c.program(&key)) {
            // Pruned by another run meanwhile: link it anew.
            if place(&exe, out).is_ok() {
                return Ok(());
            }
        }
        let status = Command::new(self.cxx)
            .args(self.lead)
            .args(objects.iter().map(|o| &o.file))
            .arg("-o")
            .arg(out)
            .args(flags)
            .status()
            .map_err(|e| format!("cannot run {}: {e} (install g++ or set CXX)", self.cxx))?;
        if !status.success() {
            return Err(format!("{} failed ({status})", self.cxx));
        }
        if let Some(c) = cache {
            c.store_program(&key, out);
        }
        Ok(())
    }
}

/// Puts the cached program `exe` at `out`: a hard link when both are on one file system, else a
/// copy.
fn place(exe: &Path, out: &Path) -> Result<(), String> {
    let _ = std::fs::remove_file(out);
    if std::fs::hard_link(exe, out).is_ok() {
        return Ok(());
    }
    std::fs::copy(exe, out)
        .map(|_| ())
        .map_err(|e| format!("cannot copy {} to {}: {e}", exe.display(), out.display()))
}

/// The file a command name runs: itself when it has a `/`, else the first match on `PATH`.
fn which(program: &str) -> PathBuf {
    if program.contains('/') {
        return PathBuf::from(program);
    }
    std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .map(|d| d.join(program))
        .find(|p| p.is_file())
        .unwrap_or_else(|| PathBuf::from(program))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_newest_archive_of_a_target_directory_is_found_with_or_without_a_hash() {
        let dir = tempfile::tempdir().unwrap();
        let deps = dir.path().join("deps");
        std::fs::create_dir_all(&deps).unwrap();
        assert_eq!(newest_in(dir.path()), None);
        let old = deps.join(format!("lib{}-0123abcd.a", ascendc_ffi::LIB_NAME));
        std::fs::write(&old, b"old").unwrap();
        assert_eq!(newest_in(dir.path()), Some(old.clone()));
        // Built as a dependency next to its shared library: no hash in the name.
        let plain = deps.join(lib_file());
        std::fs::write(&plain, b"new").unwrap();
        let earlier = std::time::SystemTime::now() - std::time::Duration::from_secs(60);
        std::fs::File::options()
            .append(true)
            .open(&old)
            .unwrap()
            .set_modified(earlier)
            .unwrap();
        assert_eq!(newest_in(dir.path()), Some(plain.clone()));
        let so = deps.join(format!("lib{}.so", ascendc_ffi::LIB_NAME));
        assert_eq!(shared_library(&plain), None);
        std::fs::write(&so, b"so").unwrap();
        assert_eq!(shared_library(&plain), Some(so));
    }
}
