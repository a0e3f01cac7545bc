//! The vendor's CMake flow: where the project's CMake package (`cmake/`: `find_package(ASC)` and
//! the ASC language) is, and building a sample directory's own `CMakeLists.txt` with it for
//! `ascendc run DIR`.

use crate::toolchain::RunMode;
use ascendc::ChipProfile;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The directory holding `ASCConfig.cmake`: `$ASCENDC_HOME/cmake`, else the `cmake/` of the
/// checkout this binary was built from.
pub fn package_dir() -> PathBuf {
    let dir = match std::env::var_os("ASCENDC_HOME") {
        Some(h) => PathBuf::from(h).join("cmake"),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../cmake"),
    };
    dir.canonicalize().unwrap_or(dir)
}

/// The `cmake` program: `$CMAKE`, else `cmake`.
fn program() -> String {
    std::env::var("CMAKE").unwrap_or_else(|_| "cmake".into())
}

/// True when `dir` has a `CMakeLists.txt` and `cmake` runs; a `CMakeLists.txt` without `cmake`
/// gets a warning (the directory's sources are then compiled as a whole).
pub fn usable_for(dir: &Path) -> bool {
    if !dir.join("CMakeLists.txt").is_file() {
        return false;
    }
    let found = Command::new(program())
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        eprintln!(
            "warning: {} not read: `{}` was not found (pip install cmake); compiling every source in {}",
            dir.join("CMakeLists.txt").display(),
            program(),
            dir.display()
        );
    }
    found
}

/// How `ascendc run` builds a CMake directory.
pub struct Options<'a> {
    /// Product: `ASCENDC_PRODUCT` and the matching `CMAKE_ASC_ARCHITECTURES`.
    pub profile: &'static ChipProfile,
    /// Host branch: `CMAKE_ASC_RUN_MODE`.
    pub mode: RunMode,
    /// C++ standard.
    pub std: &'a str,
    /// `--cxxflag`s: added to `CMAKE_ASC_FLAGS`; a `-DNAME=VALUE` among them also sets the CMake
    /// variable NAME (so a `set(NAME … CACHE …)` default and the checks on it see the value).
    pub cxxflags: &'a [String],
}

/// Configures and builds `dir`'s `CMakeLists.txt` with the package in `build` and returns the one
/// program it built.
pub fn build(dir: &Path, o: &Options, build: &Path) -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot locate ascendc: {e}"))?;
    let mut flags = vec![format!("-std={}", o.std), "-g".into(), "-O1".into()];
    flags.extend(o.cxxflags.iter().cloned());
    let mut configure = Command::new(program());
    configure
        .arg("-S")
        .arg(dir)
        .arg("-B")
        .arg(build)
        .arg(format!("-DCMAKE_PREFIX_PATH={}", package_dir().display()))
        .arg(format!("-DASCENDC_EXECUTABLE={}", exe.display()))
        .arg(format!("-DASCENDC_PRODUCT={}", o.profile.soc))
        .arg(format!(
            "-DCMAKE_ASC_ARCHITECTURES=dav-{}",
            o.profile.npu_arch
        ))
        .arg(format!(
            "-DCMAKE_ASC_RUN_MODE={}",
            match o.mode {
                RunMode::Cpu => "cpu",
                RunMode::Npu => "npu",
            }
        ))
        .arg(format!("-DCMAKE_ASC_FLAGS={}", flags.join(" ")));
    for f in o.cxxflags {
        if let Some(def) = f.strip_prefix("-D") {
            let (name, value) = def.split_once('=').unwrap_or((def, "1"));
            configure.arg(format!("-D{name}={value}"));
        }
    }
    step(configure, "configuring", dir)?;
    let mut make = Command::new(program());
    make.arg("--build").arg(build).arg("--parallel");
    step(make, "building", dir)?;
    let mut programs = Vec::new();
    find_programs(build, &mut programs);
    programs.sort();
    match programs.len() {
        1 => Ok(programs.remove(0)),
        0 => Err(format!(
            "{}/CMakeLists.txt builds no program",
            dir.display()
        )),
        _ => Err(format!(
            "{}/CMakeLists.txt builds several programs ({}): name the sources to run instead",
            dir.display(),
            programs
                .iter()
                .map(|p| p.file_name().unwrap_or_default().to_string_lossy())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// Runs a CMake step, its output shown only when it fails.
fn step(mut cmd: Command, what: &str, dir: &Path) -> Result<(), String> {
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run {}: {e}", program()))?;
    if out.status.success() {
        return Ok(());
    }
    eprint!("{}", String::from_utf8_lossy(&out.stdout));
    eprint!("{}", String::from_utf8_lossy(&out.stderr));
    Err(format!(
        "{what} {}/CMakeLists.txt failed ({}); CMake's output is above",
        dir.display(),
        out.status
    ))
}

/// The executables CMake wrote under `dir` (shared libraries and its own `CMakeFiles`
/// directories skipped).
fn find_programs(dir: &Path, out: &mut Vec<PathBuf>) {
    use std::os::unix::fs::PermissionsExt;
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        let Ok(meta) = e.metadata() else { continue };
        if meta.is_dir() {
            if e.file_name() != "CMakeFiles" {
                find_programs(&path, out);
            }
        } else {
            let name = e.file_name().to_string_lossy().into_owned();
            let shared = name.ends_with(".so") || name.contains(".so.");
            if meta.permissions().mode() & 0o111 != 0 && !shared {
                out.push(path);
            }
        }
    }
}
