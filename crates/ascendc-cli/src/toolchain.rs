//! Finding the headers and the simulator library, and compiling C++ kernels with the machine's
//! C++ compiler (`$CXX`, else `g++`).

use std::path::{Path, PathBuf};
use std::process::Command;

/// Defines every kernel build gets: the CPU-debug spelling kernels and host files test for.
pub const DEFINES: [&str; 2] = ["-DASCENDC_CPU_DEBUG=1", "-D__CCE_KT_TEST__=1"];

/// Libraries the simulator library needs besides itself.
pub const SYSTEM_LIBS: [&str; 3] = ["-lpthread", "-ldl", "-lm"];

/// The header directory: `$ASCENDC_INCLUDE_DIR`, else the project's `include/`.
pub fn include_dir() -> PathBuf {
    let dir = std::env::var_os("ASCENDC_INCLUDE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(ascendc_ffi::include_dir);
    dir.canonicalize().unwrap_or(dir)
}

/// The directory of `libascendc_ffi.a`: `$ASCENDC_LIB_DIR`, else the newest copy cargo built
/// next to this executable (`target/<profile>/` or its `deps/`).
pub fn library() -> Result<PathBuf, String> {
    let name = format!("lib{}", ascendc_ffi::LIB_NAME);
    if let Some(dir) = std::env::var_os("ASCENDC_LIB_DIR") {
        let p = Path::new(&dir).join(format!("{name}.a"));
        return if p.is_file() {
            Ok(p)
        } else {
            Err(format!("ASCENDC_LIB_DIR has no {}", p.display()))
        };
    }
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let dir = exe.parent().ok_or("the executable has no directory")?;
    let mut found: Vec<PathBuf> = vec![dir.join(format!("{name}.a"))];
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
        .ok_or_else(|| {
            format!(
                "{name}.a not found next to {}: build it with `cargo build -p ascendc-ffi` (same profile) or set ASCENDC_LIB_DIR",
                exe.display()
            )
        })
}

/// Compiler flags for kernels and host files.
pub fn cflags(std: &str) -> Vec<String> {
    let mut f = vec![format!("-std={std}")];
    f.extend(DEFINES.iter().map(|s| s.to_string()));
    f.push(format!("-I{}", include_dir().display()));
    f
}

/// Linker flags: the library by path, then the system libraries it needs.
pub fn libs() -> Result<Vec<String>, String> {
    let mut f = vec![library()?.display().to_string()];
    f.extend(SYSTEM_LIBS.iter().map(|s| s.to_string()));
    Ok(f)
}

/// Compiles and links `sources` into `out`; each source's directory is on the include path.
pub fn compile(sources: &[PathBuf], extra: &[String], std: &str, out: &Path) -> Result<(), String> {
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "g++".into());
    let mut cmd = Command::new(&cxx);
    cmd.args(cflags(std)).args(["-g", "-O1"]);
    for s in sources {
        if let Some(d) = s.parent().filter(|d| !d.as_os_str().is_empty()) {
            cmd.arg(format!("-I{}", d.display()));
        }
    }
    cmd.args(extra)
        .args(sources)
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
