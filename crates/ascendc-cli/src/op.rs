//! `ascendc op run`: runs a framework operator (`op_host/` with its tiling definition,
//! TilingFunc and OpDef; `op_kernel/` with its kernel entry) from its two source directories.
//!
//! The op_host sources are compiled with the host-side headers and the host program
//! (`include/ascendc/host/op_host_main.cpp`), which picks the data-type combination, runs
//! InferShape / InferDataType and the TilingFunc on the selected product and prints the outcome.
//! The kernel is then compiled with a prelude (type macros, the tiling struct) and a generated
//! launcher, and run on the simulator with the tiling bytes, tiling key, block dim and workspace.

use crate::npy::Array;
use crate::op_gen::{self, LaunchFiles};
use crate::op_io::{self, TensorArg};
use crate::op_tpl;
use crate::{op_layout, product, toolchain};
use ascendc::{ChipProfile, DType};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// What `ascendc op run` was given.
pub struct OpRun<'a> {
    /// The directory holding `op_host/` and `op_kernel/`.
    pub dir: &'a Path,
    /// `NAME=FILE` inputs.
    pub inputs: &'a [String],
    /// `NAME=FILE` outputs.
    pub outputs: &'a [String],
    /// `NAME=VALUE` attributes.
    pub attrs: &'a [String],
    /// Product name (`--product`).
    pub product: Option<&'a str>,
    /// Operator type, when op_host registers several.
    pub op: Option<&'a str>,
    /// Print the tiling outcome to stderr.
    pub verbose: bool,
    /// Extra include directories for op_host and op_kernel (a library's common headers).
    pub includes: &'a [PathBuf],
    /// Extra compiler flags for both builds.
    pub cxxflags: &'a [String],
    /// Environment of the kernel program (schedule, checker, report, trace settings).
    pub env: &'a [(&'static str, String)],
}

/// A field of a tiling struct as op_host lays it out.
#[derive(Debug, Clone, PartialEq)]
pub struct TilingField {
    /// C element type or nested struct name.
    pub ty: String,
    /// Field name.
    pub name: String,
    /// Byte offset in the struct.
    pub offset: u64,
    /// Element count (1 for scalars and nested structs).
    pub count: u64,
}

/// A tiling struct: name, size in bytes and fields.
#[derive(Debug, Clone, PartialEq)]
pub struct TilingStruct {
    /// Class name.
    pub name: String,
    /// Bytes.
    pub size: u64,
    /// Fields in declaration order.
    pub fields: Vec<TilingField>,
}

/// One output: name, type and shape (elements per dimension).
#[derive(Debug, Clone, PartialEq)]
pub struct OutputDesc {
    /// Output name.
    pub name: String,
    /// Element type.
    pub dtype: DType,
    /// Shape.
    pub shape: Vec<u64>,
}

impl OutputDesc {
    /// Size in bytes.
    pub fn bytes(&self) -> u64 {
        self.shape.iter().product::<u64>() * self.dtype.size() as u64
    }
}

/// What the host program reports.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Outcome {
    /// Operator type.
    pub op: String,
    /// Inputs in definition order with their type (`None`: an absent optional input).
    pub inputs: Vec<(String, Option<DType>)>,
    /// Shapes of the inputs in definition order (empty for absent ones).
    pub input_shapes: Vec<Vec<u64>>,
    /// Outputs in definition order.
    pub outputs: Vec<OutputDesc>,
    /// Blocks to launch.
    pub block_dim: u32,
    /// Tiling key.
    pub tiling_key: u64,
    /// Workspace bytes the TilingFunc requested (system plus user).
    pub workspace: u64,
    /// Tiling bytes declared.
    pub tiling_size: u64,
    /// The registered tiling class.
    pub tiling_class: Option<String>,
    /// The tiling structs, nested ones first.
    pub structs: Vec<TilingStruct>,
    /// The kernel entry file the product's configuration names (`opFile.value`).
    pub kernel_file: Option<String>,
    /// Inputs and outputs of type bool (held as `Uint8`: one byte, 0 or 1, per element).
    pub bools: Vec<String>,
    /// Per input in definition order: the tensor count of a DYNAMIC (list) input, else `None`.
    pub input_lists: Vec<Option<usize>>,
}

fn num<T: std::str::FromStr>(w: Option<&str>, line: &str) -> Result<T, String> {
    w.and_then(|t| t.parse().ok())
        .ok_or_else(|| format!("unreadable line from the host program: {line}"))
}

/// Parses the host program's report.
pub fn parse_outcome(text: &str) -> Result<Outcome, String> {
    let mut o = Outcome::default();
    for line in text.lines() {
        let mut w = line.split_whitespace();
        match w.next() {
            Some("op") => o.op = w.next().unwrap_or_default().to_string(),
            Some(key @ ("input" | "input_list")) => {
                let name = w.next().unwrap_or_default().to_string();
                let n: i64 = num(w.next(), line)?;
                let dtype = if n < 0 {
                    None
                } else if n == op_gen::GE_BOOL {
                    o.bools.push(name.clone());
                    Some(DType::Uint8)
                } else {
                    Some(op_gen::from_ge(n).ok_or_else(|| {
                        format!("input {name}: data type {n} is not supported by the simulator")
                    })?)
                };
                o.inputs.push((name, dtype));
                o.input_lists.push(if key == "input_list" {
                    Some(num(w.next(), line)?)
                } else {
                    None
                });
            }
            Some("output") => {
                let name = w.next().unwrap_or_default().to_string();
                let n: i64 = num(w.next(), line)?;
                if n == op_gen::GE_BOOL {
                    o.bools.push(name.clone());
                }
                let dtype = (n == op_gen::GE_BOOL)
                    .then_some(DType::Uint8)
                    .or_else(|| op_gen::from_ge(n))
                    .ok_or_else(|| {
                    format!(
                        "output {name}: data type {n} is not supported by the simulator (InferDataType or the OpDef's DataType list)"
                    )
                })?;
                let rank: usize = num(w.next(), line)?;
                let shape = (0..rank)
                    .map(|_| num(w.next(), line))
                    .collect::<Result<Vec<u64>, _>>()?;
                o.outputs.push(OutputDesc { name, dtype, shape });
            }
            Some("block_dim") => o.block_dim = num(w.next(), line)?,
            Some("tiling_key") => o.tiling_key = num(w.next(), line)?,
            Some("workspace") => o.workspace = num(w.next(), line)?,
            Some("tiling_size") => o.tiling_size = num(w.next(), line)?,
            Some("tiling_class") => o.tiling_class = w.next().map(String::from),
            Some("struct") => o.structs.push(TilingStruct {
                name: w.next().unwrap_or_default().to_string(),
                size: num(w.next(), line)?,
                fields: Vec::new(),
            }),
            Some("field") => {
                let s = o
                    .structs
                    .last_mut()
                    .ok_or_else(|| format!("field outside a struct: {line}"))?;
                s.fields.push(TilingField {
                    ty: w.next().unwrap_or_default().to_string(),
                    name: w.next().unwrap_or_default().to_string(),
                    offset: num(w.next(), line)?,
                    count: num(w.next(), line)?,
                });
            }
            Some("kernel_file") => o.kernel_file = w.next().map(String::from),
            _ => {}
        }
    }
    Ok(o)
}

/// Compiles the op_host `sources` with the host program and runs it on `request`; returns its
/// report (which it writes to `report`).
fn run_host(
    r: &OpRun,
    sources: &[PathBuf],
    tmp: &Path,
    request: &Path,
    report: &Path,
) -> Result<String, String> {
    let host_dir = r.dir.join("op_host");
    let exe = tmp.join("op_host");
    let include = toolchain::include_dir();
    let mut flags: Vec<String> = vec!["-std=c++17".into(), "-g".into(), "-O0".into()];
    flags.push(format!("-I{}", include.display()));
    flags.push(format!("-I{}", host_dir.display()));
    flags.extend(r.includes.iter().map(|d| format!("-I{}", d.display())));
    flags.extend(r.cxxflags.iter().cloned());
    let units: Vec<toolchain::Unit> = sources
        .iter()
        .cloned()
        .chain([include.join("ascendc/host/op_host_main.cpp")])
        .map(|s| toolchain::Unit {
            file: s.display().to_string(),
            asc: false,
        })
        .collect();
    toolchain::build_program(&units, &flags, r.cxxflags.to_vec(), tmp, &exe)
        .map_err(|e| format!("compiling {} failed ({e})", host_dir.display()))?;
    let out = Command::new(&exe)
        .arg(request)
        .output()
        .map_err(|e| format!("cannot run the op_host program: {e}"))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        // The host program's own message (which may span lines), else all it printed.
        return Err(match stderr.find("error: ") {
            Some(at) => stderr[at + "error: ".len()..].trim_end().to_string(),
            None => format!(
                "the op_host program (InferShape / InferDataType / TilingFunc) ended abnormally ({}) {}",
                out.status,
                stderr.trim_end()
            ),
        });
    }
    // What the host functions printed.
    print!("{}", String::from_utf8_lossy(&out.stdout));
    eprint!("{stderr}");
    std::fs::read_to_string(report).map_err(|e| format!("cannot read the op_host report: {e}"))
}

/// The kernel sources: the entry file the product's configuration names, else
/// `<kernel>.cpp`, in `op_kernel/` or the product's `op_kernel/arch<NN>/`; else every source in
/// `op_kernel/`. Whichever it is must define the kernel entry `<kernel>(…)`.
fn kernel_sources(
    op_dir: &Path,
    profile: &ChipProfile,
    file: Option<&str>,
    kernel: &str,
) -> Result<Vec<PathBuf>, String> {
    let kernel_dir = op_dir.join("op_kernel");
    let sources = match op_layout::kernel_file(op_dir, profile, file.unwrap_or(kernel)) {
        Some(f) => vec![f],
        None if file.is_some() => {
            return Err(format!(
                "the configuration of {} names the kernel file {}.cpp (opFile.value), which is not in {} nor its arch directory",
                profile.soc,
                file.unwrap_or_default(),
                kernel_dir.display()
            ))
        }
        None => op_layout::sources_in(&kernel_dir),
    };
    let defines = sources.iter().any(|s| {
        std::fs::read_to_string(s).is_ok_and(|t| {
            t.match_indices(kernel).any(|(i, _)| {
                let before = t[..i].chars().next_back();
                let after = t[i + kernel.len()..].trim_start().chars().next();
                !before.is_some_and(|c| c.is_alphanumeric() || c == '_') && after == Some('(')
            })
        })
    });
    if !defines {
        return Err(format!(
            "{} defines no kernel entry {kernel}(…) (the operator type in snake case)",
            kernel_dir.display()
        ));
    }
    Ok(sources)
}

/// Runs the operator; see the module documentation.
pub fn run(r: &OpRun) -> Result<ExitCode, String> {
    let host_dir = r.dir.join("op_host");
    let kernel_dir = r.dir.join("op_kernel");
    for d in [&host_dir, &kernel_dir] {
        if !d.is_dir() {
            return Err(format!(
                "{} is not a directory: an operator directory holds op_host/ and op_kernel/",
                d.display()
            ));
        }
    }
    let profile = product::resolve(r.product)?;
    let host_sources = op_layout::host_sources(r.dir, profile)?;
    for d in r.includes {
        if !d.is_dir() {
            return Err(format!("-I {}: not a directory", d.display()));
        }
    }
    let inputs = r
        .inputs
        .iter()
        .map(|t| op_io::parse_arg("--input", t))
        .collect::<Result<Vec<TensorArg>, _>>()?;
    let outputs = r
        .outputs
        .iter()
        .map(|t| op_io::parse_arg("--output", t))
        .collect::<Result<Vec<TensorArg>, _>>()?;
    // An input name may repeat (the tensors of a DYNAMIC input; op_host checks which may).
    for (i, a) in outputs.iter().enumerate() {
        if outputs[..i].iter().any(|b| b.name == a.name) {
            return Err(format!("--output {} is given twice", a.name));
        }
    }
    let tmp =
        tempfile::tempdir().map_err(|e| format!("cannot create a temporary directory: {e}"))?;
    let t = tmp.path();

    // The request for the host program.
    let mut request = format!("{}\n", ascendc_ffi::platform::platform_line(profile));
    if let Some(op) = r.op {
        request.push_str(&format!("op {op}\n"));
    }
    let mut arrays = Vec::new();
    for (i, a) in inputs.iter().enumerate() {
        let arr = op_io::read_input(a)?;
        let raw = t.join(format!("input{i}.bin"));
        std::fs::write(&raw, &arr.data).map_err(|e| e.to_string())?;
        let dims: Vec<String> = arr.shape.iter().map(u64::to_string).collect();
        request.push_str(&format!(
            "input {} {} {} {} {}\n",
            a.name,
            if arr.boolean {
                op_gen::GE_BOOL as u32
            } else {
                op_gen::ge_number(arr.dtype)
            },
            raw.display(),
            arr.shape.len(),
            dims.join(" ")
        ));
        arrays.push(arr);
    }
    for o in &outputs {
        match &o.spec {
            // The shape given on the command line (used when there is no InferShape).
            Some((_, shape)) => {
                let dims: Vec<String> = shape.iter().map(u64::to_string).collect();
                request.push_str(&format!(
                    "output {} {} {}\n",
                    o.name,
                    shape.len(),
                    dims.join(" ")
                ));
            }
            None => request.push_str(&format!("output {}\n", o.name)),
        }
    }
    for a in r.attrs {
        let (name, value) = a
            .split_once('=')
            .filter(|(n, _)| !n.is_empty())
            .ok_or_else(|| format!("--attr {a}: expected NAME=VALUE"))?;
        if value.contains('\n') {
            return Err(format!("--attr {name}: the value has a line break"));
        }
        request.push_str(&format!("attr {name} {value}\n"));
    }
    let tiling_file = t.join("tiling.bin");
    request.push_str(&format!("tiling_file {}\n", tiling_file.display()));
    let report = t.join("report.txt");
    request.push_str(&format!("report_file {}\n", report.display()));
    let request_file = t.join("request.txt");
    std::fs::write(&request_file, &request).map_err(|e| e.to_string())?;

    let host_report = run_host(r, &host_sources, t, &request_file, &report)?;
    let mut outcome = parse_outcome(&host_report)?;
    for (name, _) in &outcome.inputs {
        let shape = inputs
            .iter()
            .zip(&arrays)
            .find(|(a, _)| &a.name == name)
            .map(|(_, arr)| arr.shape.clone())
            .unwrap_or_default();
        outcome.input_shapes.push(shape);
    }
    if r.verbose {
        eprintln!(
            "{}: block dim {}, tiling key {}, workspace {} bytes, tiling {} bytes{}",
            outcome.op,
            outcome.block_dim,
            outcome.tiling_key,
            outcome.workspace,
            outcome.tiling_size,
            outcome
                .tiling_class
                .as_ref()
                .map(|c| format!(" ({c})"))
                .unwrap_or_default()
        );
    }
    if outcome.block_dim > profile.cpu_debug_max_blocks {
        return Err(format!(
            "the TilingFunc of {} set block dim {}; {} launches at most {} blocks",
            outcome.op, outcome.block_dim, profile.soc, profile.cpu_debug_max_blocks
        ));
    }
    // The workspace holds the system workspace first; a request smaller than that gets the
    // system workspace anyway, with a warning.
    let sys = u64::from(profile.workspace_bytes);
    if outcome.workspace > 0 && outcome.workspace < sys {
        eprintln!(
            "warning: the TilingFunc of {} requested {} workspace bytes, less than the system workspace of {} ({sys} bytes, GetLibApiWorkSpaceSize()): {sys} bytes are allocated; request user size + GetLibApiWorkSpaceSize()",
            outcome.op, outcome.workspace, profile.soc
        );
    }
    let workspace = outcome.workspace.max(sys);

    // The kernel build.
    let kernel = op_gen::snake_case(&outcome.op);
    let mut sources = kernel_sources(r.dir, profile, outcome.kernel_file.as_deref(), &kernel)?;
    let tpl_include = op_tpl::instantiate(&mut sources, &kernel, &host_report, t)?;
    let prelude = t.join("op_prelude.h");
    std::fs::write(&prelude, op_gen::prelude(&outcome)).map_err(|e| e.to_string())?;
    // A plain input's file; a list input's files and shapes.
    let in_files: Vec<Option<String>> = outcome
        .inputs
        .iter()
        .zip(&outcome.input_lists)
        .map(|((name, _), list)| {
            inputs
                .iter()
                .position(|a| &a.name == name)
                .filter(|_| list.is_none())
                .map(|i| t.join(format!("input{i}.bin")).display().to_string())
        })
        .collect();
    let lists: Vec<Vec<(String, Vec<u64>)>> = outcome
        .inputs
        .iter()
        .zip(&outcome.input_lists)
        .map(|((name, _), list)| {
            inputs
                .iter()
                .zip(&arrays)
                .enumerate()
                .filter(|(_, (a, _))| list.is_some() && &a.name == name)
                .map(|(i, (_, arr))| {
                    (
                        t.join(format!("input{i}.bin")).display().to_string(),
                        arr.shape.clone(),
                    )
                })
                .collect()
        })
        .collect();
    let out_files: Vec<String> = (0..outcome.outputs.len())
        .map(|i| t.join(format!("output{i}.bin")).display().to_string())
        .collect();
    let launcher = t.join("op_launch.cpp");
    let files = LaunchFiles {
        inputs: &in_files,
        outputs: &out_files,
        lists: &lists,
        tiling: &tiling_file.display().to_string(),
        run_dir: &t.display().to_string(),
    };
    for i in 0..outcome.outputs.len() {
        if let Some(j) = op_gen::in_place(&outcome, &files, i) {
            let bytes = outcome.input_shapes[j].iter().product::<u64>()
                * outcome.inputs[j].1.map_or(0, |d| d.size() as u64);
            let out = &outcome.outputs[i];
            if out.bytes() != bytes {
                return Err(format!(
                    "output {} of {} is its input {} updated in place, but it is {} of shape {:?} and the input has {bytes} bytes",
                    out.name, outcome.op, out.name, out.dtype.c_name(), out.shape
                ));
            }
        }
    }
    std::fs::write(
        &launcher,
        op_gen::launcher(&outcome, &kernel, workspace, &files),
    )
    .map_err(|e| e.to_string())?;
    sources.push(launcher);
    let mut extra = vec![
        "-include".to_string(),
        prelude.display().to_string(),
        product::registration_source(profile, t)?
            .display()
            .to_string(),
    ];
    extra.extend(tpl_include);
    extra.extend(r.includes.iter().map(|d| format!("-I{}", d.display())));
    extra.extend(r.cxxflags.iter().cloned());
    let build = toolchain::Build {
        std: "c++17",
        mode: toolchain::RunMode::Cpu,
        profile,
        extra: &extra,
        tmp: t,
    };
    let exe = t.join("op_kernel");
    toolchain::compile(&sources, &build, &exe)?;
    let mut cmd = Command::new(&exe);
    cmd.env("ASCENDC_PRODUCT", profile.soc);
    cmd.env("ASCENDC_OP_TMP", t);
    for (k, v) in r.env {
        cmd.env(k, v);
    }
    let ended = crate::child::run(&mut cmd, timeout(r.env))
        .map_err(|e| format!("cannot run the kernel program: {e}"))?;
    let status = match ended {
        crate::child::Ended::Exited(status) => status,
        crate::child::Ended::Interrupted(sig) => {
            return Err(format!(
                "stopped by signal {sig}; the kernel program was ended and its files removed"
            ))
        }
    };
    if !status.success() {
        return Err(format!(
            "the kernel {kernel} failed ({status}); the errors are above"
        ));
    }

    // The outputs.
    for (desc, raw) in outcome.outputs.iter().zip(&out_files) {
        let Some(arg) = outputs.iter().find(|a| a.name == desc.name) else {
            continue;
        };
        let data = std::fs::read(raw).map_err(|e| format!("cannot read {raw}: {e}"))?;
        let arr = Array {
            dtype: desc.dtype,
            boolean: outcome.bools.contains(&desc.name),
            shape: desc.shape.clone(),
            data,
        };
        op_io::write_output(arg, &arr)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The `--timeout` the program gets (its `ASCENDC_TIMEOUT`), in seconds.
fn timeout(env: &[(&str, String)]) -> Option<f64> {
    env.iter()
        .find(|(k, _)| *k == "ASCENDC_TIMEOUT")
        .and_then(|(_, v)| v.parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_report_parses() {
        let o = parse_outcome(
            "op AddCustom\ninput x 1\ninput bias -1\noutput z 0 2 8 16\nblock_dim 8\ntiling_key 2\n\
workspace 16777472\ntiling_size 12\ntiling_class T\nstruct T 12 4\nfield uint32_t a 0 1 0\n\
field uint32_t b 4 2 0\nend_struct\n",
        )
        .unwrap();
        assert_eq!(
            o.inputs,
            [("x".into(), Some(DType::Half)), ("bias".into(), None)]
        );
        assert_eq!(o.outputs[0].shape, [8, 16]);
        assert_eq!(o.outputs[0].bytes(), 512);
        assert_eq!((o.block_dim, o.tiling_key, o.tiling_size), (8, 2, 12));
        assert_eq!(o.structs[0].fields[1].count, 2);
        assert!(parse_outcome("block_dim x").is_err());
    }
}
