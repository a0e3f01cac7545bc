//! `ascendc cxx`: a C++ compiler wrapper for other build systems (`make CXX="ascendc cxx"`, or
//! CMake with `CMAKE_CXX_COMPILER` set to an `ascendc-cxx` link to `ascendc`, or the ASC language
//! of the CMake package in `cmake/`). Sources on the command line get their `<<<…>>>` launches
//! rewritten into temporary files (`#line` keeps the original names and lines), `.asc` files are
//! compiled as C++, the header directory and the macros of `ascendc run` are added, `-std=c++17`
//! when no `-std=` is given, and the simulator library when the command links (with the product,
//! which the program then simulates). Everything else passes through to the compiler
//! (`$ASCENDC_CXX`, else `$CXX` unless it names `ascendc`, else `g++`).
//!
//! As a compiler launcher (CMake's `CMAKE_CXX_COMPILER_LAUNCHER`, which the `tikicpulib` package
//! sets): `ascendc cxx /usr/bin/c++ -c …`, a first argument naming a program (an executable file,
//! or a command on `PATH`; neither an option nor a source) is the compiler to run, and only the
//! sources are rewritten: no headers, macros, standard or library are added (the build system's
//! targets carry them).
//!
//! The wrapper's own options, taken out of the arguments wherever they stand: `--product NAME`
//! (else `$ASCENDC_PRODUCT`), `--run-mode cpu|npu` (else `$ASCENDC_RUN_MODE`), the vendor
//! compiler's `--npu-arch dav-XXXX` (selects that architecture's series, or checks that the
//! product is of it), and the vendor compiler's `--cce-*` code-generation options (ignored: they
//! tune device code).

use crate::product;
use crate::toolchain::{self, RunMode};
use ascendc::ChipProfile;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// Options whose value is the next argument.
const TAKES_VALUE: [&str; 14] = [
    "-o",
    "-I",
    "-D",
    "-U",
    "-include",
    "-imacros",
    "-isystem",
    "-iquote",
    "-idirafter",
    "-MF",
    "-MT",
    "-MQ",
    "-x",
    "-Xlinker",
];

/// Options that stop before linking.
const NO_LINK: [&str; 5] = ["-c", "-S", "-E", "-M", "-MM"];

/// The positions of source files among `args` (not option values).
pub(crate) fn source_positions(args: &[String]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut skip = false;
    for (i, a) in args.iter().enumerate() {
        if std::mem::take(&mut skip) {
            continue;
        }
        if TAKES_VALUE.contains(&a.as_str()) {
            skip = true;
            continue;
        }
        if !a.starts_with('-') && toolchain::is_source(Path::new(a)) {
            out.push(i);
        }
    }
    out
}

/// The `-I` directories among `args`.
fn include_dirs(args: &[String]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "-I" {
            out.extend(it.next().map(PathBuf::from));
        } else if let Some(d) = a.strip_prefix("-I") {
            out.push(PathBuf::from(d));
        }
    }
    out
}

/// The wrapper's options (see the module documentation) and the compiler's arguments.
#[derive(Debug, Default, PartialEq)]
struct Split {
    product: Option<String>,
    run_mode: Option<String>,
    npu_arch: Option<String>,
    rest: Vec<String>,
}

/// Takes the wrapper's options out of `args`.
fn split(args: &[String]) -> Result<Split, String> {
    let mut out = Split::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let slot = match a.split_once('=').map_or(a.as_str(), |(k, _)| k) {
            "--product" => &mut out.product,
            "--run-mode" => &mut out.run_mode,
            "--npu-arch" => &mut out.npu_arch,
            k if k.starts_with("--cce-") => continue,
            _ => {
                out.rest.push(a.clone());
                continue;
            }
        };
        let value = match a.split_once('=') {
            Some((_, v)) => v.to_string(),
            None => it
                .next()
                .cloned()
                .ok_or_else(|| format!("{a} needs a value"))?,
        };
        *slot = Some(value);
    }
    Ok(out)
}

/// The product of a command: `--product` (else `$ASCENDC_PRODUCT`), checked against
/// `--npu-arch`; else the `--npu-arch` series; else the default.
fn chosen_profile(s: &Split) -> Result<&'static ChipProfile, String> {
    let arch = s.npu_arch.as_deref().map(product::lookup).transpose()?;
    let named = match &s.product {
        Some(n) => Some(product::lookup(n)?),
        None => std::env::var("ASCENDC_PRODUCT")
            .ok()
            .map(|n| product::lookup(&n))
            .transpose()?,
    };
    match (named, arch) {
        (Some(p), Some(a)) if p.npu_arch != a.npu_arch => Err(format!(
            "--npu-arch={} is NPU architecture {}, but the product is {} (architecture {})",
            s.npu_arch.as_deref().unwrap_or_default(),
            a.npu_arch,
            p.soc,
            p.npu_arch
        )),
        (Some(p), _) | (None, Some(p)) => Ok(p),
        (None, None) => Ok(ChipProfile::default_profile()),
    }
}

/// The host branch of a command: `--run-mode` (`sim` as `npu`), else `$ASCENDC_RUN_MODE`.
fn chosen_mode(s: &Split) -> Result<RunMode, String> {
    match s.run_mode.as_deref() {
        None => RunMode::from_env(),
        Some("cpu") => Ok(RunMode::Cpu),
        Some("npu" | "sim") => Ok(RunMode::Npu),
        Some(other) => Err(format!("--run-mode {other}: expected cpu or npu")),
    }
}

/// The compiler command line for `args`, with rewritten sources in `tmp`.
pub fn command_line(args: &[String], tmp: &Path) -> Result<Vec<String>, String> {
    build_line(args, tmp, false)
}

/// The launcher's command line for `args` (the compiler named before them): the sources
/// rewritten, nothing added — the build system's targets carry the headers and macros (the
/// `tikicpulib::<SoC>` targets do), so host sources compiled through the same launcher (a
/// TilingFunc) keep the host branch of the headers.
fn launcher_line(args: &[String], tmp: &Path) -> Result<Vec<String>, String> {
    build_line(args, tmp, true)
}

fn build_line(args: &[String], tmp: &Path, launcher: bool) -> Result<Vec<String>, String> {
    let split = split(args)?;
    let profile = chosen_profile(&split)?;
    let mode = chosen_mode(&split)?;
    let args = &split.rest[..];
    let inputs = args
        .iter()
        .any(|a| !a.starts_with('-') && Path::new(a).is_file());
    if !inputs {
        // `--version`, `-dumpversion` and the like.
        return Ok(args.to_vec());
    }
    let positions = source_positions(args);
    let sources: Vec<PathBuf> = positions.iter().map(|&i| PathBuf::from(&args[i])).collect();
    let prepared = toolchain::prepare(&sources, &include_dirs(args), tmp)?;
    let std = (!args.iter().any(|a| a.starts_with("-std="))).then_some("c++17");
    let mut out = if launcher {
        Vec::new()
    } else {
        toolchain::cflags(std, mode, profile)
    };
    out.extend(prepared.quote_dirs.iter().cloned());
    // Replace each source by its prepared arguments, in place.
    let mut prepared_args = prepared.args().into_iter().peekable();
    for (i, a) in args.iter().enumerate() {
        if !positions.contains(&i) {
            out.push(a.clone());
            continue;
        }
        // A source is one argument, or `-x c++ file -x none` for an `.asc` file.
        let first = prepared_args.next().unwrap_or_else(|| a.clone());
        if first == "-x" {
            out.push(first);
            out.extend(prepared_args.by_ref().take(4));
        } else {
            out.push(first);
        }
    }
    // A shared object gets neither the library nor the product: its code binds to the
    // simulator of the program that loads it (aclrtBinaryLoadFromData).
    if !launcher
        && !args
            .iter()
            .any(|a| NO_LINK.contains(&a.as_str()) || a == "-shared")
    {
        out.push(
            product::registration_source(profile, tmp)?
                .display()
                .to_string(),
        );
        out.extend(toolchain::libs()?);
    }
    Ok(out)
}

/// True when `p` is a file with an execute bit.
fn executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    p.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// The compiler a launcher invocation names first (see the module documentation): a path to an
/// executable file, or a bare command found on `PATH` that is no file here; not `ascendc` itself.
fn leading_compiler(args: &[String]) -> Option<&str> {
    let first = args.first()?;
    let path = Path::new(first);
    if first.starts_with('-') || toolchain::is_source(path) {
        return None;
    }
    let is_self = path
        .file_name()
        .is_some_and(|n| n.to_string_lossy().starts_with("ascendc"));
    let found = if first.contains('/') {
        executable(path)
    } else {
        !path.exists()
            && std::env::var_os("PATH").is_some_and(|dirs| {
                std::env::split_paths(&dirs).any(|d| executable(&d.join(first)))
            })
    };
    (found && !is_self).then_some(first.as_str())
}

/// Runs the compiler on `args` (see the module documentation); its exit status is returned.
pub fn run(args: &[String]) -> Result<ExitCode, String> {
    let tmp =
        tempfile::tempdir().map_err(|e| format!("cannot create a temporary directory: {e}"))?;
    let (cxx, lead, line) = match leading_compiler(args) {
        Some(c) => (
            c.to_string(),
            Vec::new(),
            launcher_line(&args[1..], tmp.path())?,
        ),
        None => {
            let (c, l) = toolchain::compiler();
            (c, l, command_line(args, tmp.path())?)
        }
    };
    let status = Command::new(&cxx)
        .args(&lead)
        .args(&line)
        .status()
        .map_err(|e| format!("cannot run {cxx}: {e} (install g++ or set CXX)"))?;
    Ok(match status.code() {
        Some(0) => ExitCode::SUCCESS,
        Some(c) => ExitCode::from(c.clamp(1, 255) as u8),
        None => ExitCode::FAILURE,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn sources_are_found_outside_option_values() {
        let dir = tempfile::tempdir().unwrap();
        let k = dir.path().join("k.asc");
        std::fs::write(&k, "int x;\n").unwrap();
        let k = k.display().to_string();
        let args = strings(&["-c", "-o", "out.cpp", "-I", "inc.cpp", &k, "-DX=1"]);
        assert_eq!(source_positions(&args), [5]);
        assert_eq!(include_dirs(&args), [PathBuf::from("inc.cpp")]);
        let tmp = tempfile::tempdir().unwrap();
        let line = command_line(&args, tmp.path()).unwrap();
        let at = line.iter().position(|a| *a == k).unwrap();
        assert_eq!(
            line[at - 2..at + 3],
            strings(&["-x", "c++", &k, "-x", "none"])
        );
        assert!(line.contains(&"-std=c++17".to_string()), "{line:?}");
        assert!(
            !line.iter().any(|a| a.ends_with(".a")),
            "-c does not link: {line:?}"
        );
    }

    #[test]
    fn wrapper_options_are_taken_out_and_choose_the_product() {
        let s = split(&strings(&[
            "--product=Ascend910B3",
            "-c",
            "--npu-arch",
            "dav-2201",
            "--cce-simd-vf-fusion=false",
            "--run-mode=sim",
            "k.asc",
        ]))
        .unwrap();
        assert_eq!(s.rest, strings(&["-c", "k.asc"]));
        assert_eq!(chosen_profile(&s).unwrap().vector_cores, 40);
        assert_eq!(chosen_mode(&s).unwrap(), RunMode::Npu);
        let arch_only = split(&strings(&["--npu-arch=dav-2002", "-c", "k.asc"])).unwrap();
        if std::env::var_os("ASCENDC_PRODUCT").is_none() {
            assert_eq!(chosen_profile(&arch_only).unwrap().soc, "Ascend310P");
        }
        let clash = split(&strings(&[
            "--product",
            "Ascend310P3",
            "--npu-arch=dav-2201",
        ]))
        .unwrap();
        assert_eq!(
            chosen_profile(&clash).unwrap_err(),
            "--npu-arch=dav-2201 is NPU architecture 2201, but the product is Ascend310P3 (architecture 2002)"
        );
        assert_eq!(
            split(&strings(&["--product"])).unwrap_err(),
            "--product needs a value"
        );
    }

    #[test]
    fn a_launcher_invocation_names_the_compiler_first() {
        let dir = tempfile::tempdir().unwrap();
        let k = dir.path().join("k.cpp");
        std::fs::write(&k, "int x;\n").unwrap();
        let k = k.display().to_string();
        assert_eq!(
            leading_compiler(&strings(&["/bin/sh", "-c", &k])),
            Some("/bin/sh")
        );
        assert_eq!(leading_compiler(&strings(&["sh", "-c", &k])), Some("sh"));
        // Launched, the line is the build system's with the sources rewritten: no macros added.
        let tmp = tempfile::tempdir().unwrap();
        let line = launcher_line(&strings(&["-DX=1", "-c", &k]), tmp.path()).unwrap();
        assert_eq!(line, strings(&["-DX=1", "-c", &k]));
        assert_eq!(leading_compiler(&strings(&[&k, "-c"])), None);
        assert_eq!(leading_compiler(&strings(&["-c", &k])), None);
        assert_eq!(
            leading_compiler(&strings(&["/no/such/c++", "-c", &k])),
            None
        );
    }

    #[test]
    fn version_queries_pass_through() {
        let tmp = tempfile::tempdir().unwrap();
        let args = strings(&["--version"]);
        assert_eq!(command_line(&args, tmp.path()).unwrap(), args);
    }
}
