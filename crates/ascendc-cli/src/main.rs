//! `ascendc`: runs Ascend C kernels written in C++ on the simulator, prints the flags to build
//! them elsewhere, wraps the C++ compiler for other build systems, and compares output `.bin`
//! files against goldens.

mod build_cache;
mod chevron;
mod child;
mod cmake;
mod compare;
mod cxx;
mod npy;
mod op;
mod op_gen;
mod op_io;
mod op_layout;
mod op_tpl;
mod product;
mod toolchain;

use ascendc::DType;
use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use toolchain::RunMode;

#[derive(Parser)]
#[command(
    name = "ascendc",
    version,
    about = "Ascend C kernels on the ascendc simulator"
)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Compile C++ sources (kernel and host main) against the headers and the simulator, then run.
    Run {
        /// Kernel and host sources (`.cpp`, `.cc`, `.asc`; `kernel.cpp main.cpp`, or one file with
        /// both), or a sample directory: its sources, and the program runs in that directory. A
        /// directory with a CMakeLists.txt is built by CMake with the project's package (the
        /// vendor's `find_package(ASC)` flow) and its one program run.
        #[arg(required = true)]
        sources: Vec<PathBuf>,
        /// C++ standard (C++20 adds columns to error locations).
        #[arg(long, default_value = "c++17")]
        std: String,
        /// Product to simulate, with its `__NPU_ARCH__` / `__CCE_AICORE__` / `__DAV_*` macros: a
        /// series (910, 310P, A2, A3, 310B), a SoC with its own core counts (Ascend910B3,
        /// Ascend310P1, Ascend910_9382, …) or an NPU architecture (dav-2201, …) (default:
        /// `$ASCENDC_PRODUCT`, else A2).
        #[arg(long)]
        product: Option<String>,
        /// Host branch to compile: `cpu` defines ASCENDC_CPU_DEBUG and __CCE_KT_TEST__ (GmAlloc,
        /// ICPU_RUN_KF), `npu` defines neither (aclrtMalloc, `<<<>>>`). Both run on the simulator.
        #[arg(long, value_enum, default_value = "cpu")]
        run_mode: RunMode,
        /// Print a summary of every launch (cores, instructions per pipe) and its estimated
        /// timing (per-pipe utilisation, longest stalls, UB bank conflicts) to stderr.
        #[arg(long)]
        report: bool,
        /// Write each launch's estimated timeline as a Chrome/Perfetto trace-event JSON file
        /// (sets `ASCENDC_TRACE`; a second launch writes NAME.1.json, …).
        #[arg(long, value_name = "FILE")]
        trace: Option<PathBuf>,
        /// Run the synchronisation checker on every launch (sets `ASCENDC_CHECK=1`): unordered
        /// RAW/WAR/WAW pairs between pipes and flag misuse are reported as warnings.
        #[arg(long)]
        check: bool,
        /// Extra compiler flags (repeatable), e.g. `--cxxflag=-DTILE=64`.
        #[arg(long = "cxxflag", allow_hyphen_values = true)]
        cxxflags: Vec<String>,
        /// Block schedule of every launch: order, reverse or shuffle:SEED (one core at a time).
        #[arg(long)]
        schedule: Option<String>,
        /// Run every launch under N schedules and report GM output that differs between them.
        #[arg(long, value_name = "N")]
        schedule_check: Option<u32>,
        /// End the program after SECONDS (sets `ASCENDC_TIMEOUT`): it stops with status 124 and
        /// names every block running then with its last API call.
        #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
        timeout: Option<f64>,
        /// Keep the executable at this path instead of a temporary one.
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Arguments for the program (after `--`).
        #[arg(last = true)]
        args: Vec<String>,
    },
    /// Print the compiler and linker flags for building kernels with your own build system.
    Flags {
        /// Only the compiler flags.
        #[arg(long, conflicts_with = "libs")]
        cflags: bool,
        /// Only the linker flags.
        #[arg(long)]
        libs: bool,
        /// C++ standard for the compiler flags.
        #[arg(long, default_value = "c++17")]
        std: String,
        /// Product whose macros to define: a series, SoC or NPU architecture as for `run`
        /// (default: `$ASCENDC_PRODUCT`, else A2).
        #[arg(long)]
        product: Option<String>,
        /// Host branch: cpu (ASCENDC_CPU_DEBUG, __CCE_KT_TEST__) or npu (neither).
        #[arg(long, value_enum, default_value = "cpu")]
        run_mode: RunMode,
        /// Only the directory of the CMake package (`find_package(ASC)`), for
        /// `cmake -DCMAKE_PREFIX_PATH=…`.
        #[arg(long, conflicts_with_all = ["cflags", "libs"])]
        cmake: bool,
    },
    /// The C++ compiler with `<<<>>>` launches rewritten, `.asc` as C++, the headers, macros and
    /// (when linking) the library added: `make CXX="ascendc cxx"`; also runs as `ascendc-cxx`.
    Cxx {
        /// The compiler's arguments, passed through.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Framework operators (op_host/ + op_kernel/ directories).
    Op {
        #[command(subcommand)]
        command: OpCmd,
    },
    /// Compare an output .bin with a golden .bin element by element (numpy isclose semantics).
    Compare {
        /// The kernel's output.
        output: PathBuf,
        /// The expected values.
        golden: PathBuf,
        /// Element type: float16, bfloat16, float32, float64, int8 … uint64 (numpy or C names).
        #[arg(long)]
        dtype: String,
        /// Relative tolerance (finite, ≥ 0).
        #[arg(long, default_value_t = 1e-5, value_parser = tolerance)]
        rtol: f64,
        /// Absolute tolerance (finite, ≥ 0).
        #[arg(long, default_value_t = 1e-8, value_parser = tolerance)]
        atol: f64,
        /// Largest fraction of elements allowed to differ, in [0, 1].
        #[arg(long, default_value_t = 0.0, value_parser = ratio)]
        error_ratio: f64,
        /// Treat NaN as equal to NaN.
        #[arg(long)]
        equal_nan: bool,
        /// How many mismatches to list.
        #[arg(long, default_value_t = 10)]
        show: usize,
    },
}

#[derive(Subcommand)]
enum OpCmd {
    /// Compile op_host and op_kernel, run the TilingFunc on the inputs and the kernel on the
    /// simulator, write the outputs.
    Run {
        /// The operator directory (holds op_host/ and op_kernel/).
        op_dir: PathBuf,
        /// An input: NAME=x.npy or NAME=x.bin:DTYPE:SHAPE (e.g. x=x.bin:float16:8,2048).
        #[arg(long = "input", value_name = "NAME=FILE")]
        inputs: Vec<String>,
        /// An output: NAME=z.npy or NAME=z.bin (optionally z.bin:DTYPE:SHAPE to check them).
        #[arg(long = "output", value_name = "NAME=FILE")]
        outputs: Vec<String>,
        /// An attribute: NAME=VALUE (lists comma-separated, e.g. axes=0,1).
        #[arg(long = "attr", value_name = "NAME=VALUE")]
        attrs: Vec<String>,
        /// Product whose platform the TilingFunc sees and the kernel runs on: a series, SoC or
        /// NPU architecture as for `run` (default: `$ASCENDC_PRODUCT`, else A2).
        #[arg(long)]
        product: Option<String>,
        /// Operator type, when op_host registers several.
        #[arg(long)]
        op: Option<String>,
        /// Print the tiling outcome (block dim, tiling key, workspace, tiling size).
        #[arg(short, long)]
        verbose: bool,
        /// An include directory for op_host and op_kernel, e.g. an operator library's common
        /// headers (repeatable).
        #[arg(short = 'I', long = "include", value_name = "DIR")]
        includes: Vec<PathBuf>,
        /// Extra compiler flags for both builds (repeatable), e.g. `--cxxflag=-DMY_OPTION`.
        #[arg(long = "cxxflag", allow_hyphen_values = true)]
        cxxflags: Vec<String>,
        /// Print the launch summary and estimated timing to stderr, as `run --report` does.
        #[arg(long)]
        report: bool,
        /// Run the synchronisation checker on the launch, as `run --check` does.
        #[arg(long)]
        check: bool,
        /// Block schedule: order, reverse or shuffle:SEED, as for `run`.
        #[arg(long)]
        schedule: Option<String>,
        /// Run the launch under N schedules and report GM output that differs between them.
        #[arg(long, value_name = "N")]
        schedule_check: Option<u32>,
        /// End the program after SECONDS (sets `ASCENDC_TIMEOUT`): it stops with status 124 and
        /// names every block running then with its last API call.
        #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
        timeout: Option<f64>,
    },
}

/// A positive, finite number of seconds.
fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v > 0.0 && v.is_finite() => Ok(v),
        _ => Err(format!("{s}: expected a positive number of seconds")),
    }
}

/// How `ascendc run` builds and runs the program.
struct RunOptions<'a> {
    std: &'a str,
    product: Option<&'a str>,
    run_mode: RunMode,
    report: bool,
    check: bool,
    trace: Option<PathBuf>,
    cxxflags: &'a [String],
    /// `ASCENDC_SCHEDULE` / `ASCENDC_SCHEDULE_CHECK` for the program.
    schedule: [(&'static str, Option<String>); 2],
    /// `--timeout`: seconds.
    timeout: Option<f64>,
}

/// The sources named on the command line, a directory standing for its C++ and `.asc` files, and
/// the directory to run the program in (the one directory given, if any).
fn expand_sources(given: &[PathBuf]) -> Result<(Vec<PathBuf>, Option<PathBuf>), String> {
    let mut sources = Vec::new();
    let mut run_dir = None;
    for p in given {
        if !p.is_dir() {
            sources.push(p.clone());
            continue;
        }
        let mut found: Vec<PathBuf> = std::fs::read_dir(p)
            .map_err(|e| format!("cannot read {}: {e}", p.display()))?
            .flatten()
            .map(|e| e.path())
            .filter(|f| f.is_file() && toolchain::is_source(f))
            .collect();
        found.sort();
        if found.is_empty() {
            return Err(format!(
                "{} has no C++ sources (.cpp, .cc, .cxx, .asc)",
                p.display()
            ));
        }
        sources.extend(found);
        run_dir = Some(p.clone());
    }
    Ok((sources, run_dir))
}

fn run(
    sources: &[PathBuf],
    opts: RunOptions,
    output: Option<PathBuf>,
    args: &[String],
) -> Result<ExitCode, String> {
    let tmp =
        tempfile::tempdir().map_err(|e| format!("cannot create a temporary directory: {e}"))?;
    let profile = product::resolve(opts.product)?;
    // One directory with a CMakeLists.txt is built the vendor's way.
    let cmake_dir = match sources {
        [d] if d.is_dir() && cmake::usable_for(d) => Some(d.as_path()),
        _ => None,
    };
    let (sources, run_dir) = match cmake_dir {
        Some(d) => (Vec::new(), Some(d.to_path_buf())),
        None => expand_sources(sources)?,
    };
    // An absolute path, so that a bare `-o name` runs that file rather than a search of PATH.
    let exe = std::path::absolute(output.unwrap_or_else(|| tmp.path().join("kernel")))
        .map_err(|e| format!("cannot resolve the output path: {e}"))?;
    match cmake_dir {
        Some(dir) => {
            let cmake_opts = cmake::Options {
                profile,
                mode: opts.run_mode,
                std: opts.std,
                cxxflags: opts.cxxflags,
            };
            let built = cmake::build(dir, &cmake_opts, &tmp.path().join("build"))?;
            std::fs::copy(&built, &exe).map_err(|e| {
                format!("cannot copy {} to {}: {e}", built.display(), exe.display())
            })?;
        }
        None => {
            let mut extra = opts.cxxflags.to_vec();
            extra.push(
                product::registration_source(profile, tmp.path())?
                    .display()
                    .to_string(),
            );
            let build = toolchain::Build {
                std: opts.std,
                mode: opts.run_mode,
                profile,
                extra: &extra,
                tmp: tmp.path(),
            };
            toolchain::compile(&sources, &build, &exe)?;
        }
    }
    let mut cmd = Command::new(&exe);
    cmd.args(args);
    if let Some(d) = &run_dir {
        cmd.current_dir(d);
    }
    if opts.report {
        cmd.env("ASCENDC_REPORT", "1");
    }
    if opts.check {
        cmd.env("ASCENDC_CHECK", "1");
    }
    if let Some(t) = &opts.trace {
        // Absolute: a sample directory runs the program in that directory.
        let t = std::path::absolute(t)
            .map_err(|e| format!("cannot resolve the trace path {}: {e}", t.display()))?;
        // Refused before the run, not warned about after it.
        std::fs::File::create(&t)
            .map_err(|e| format!("--trace: cannot write {}: {e}", t.display()))?;
        cmd.env("ASCENDC_TRACE", t);
    }
    // The simulated product is the one whose macros the build defined.
    cmd.env("ASCENDC_PRODUCT", profile.soc);
    // Kernels the program compiles at run time (aclrtcCompileProg) are built by this `ascendc`.
    if let Ok(me) = std::env::current_exe() {
        cmd.env("ASCENDC_CLI", me);
    }
    for (k, v) in opts
        .schedule
        .iter()
        .filter_map(|(k, v)| Some((k, v.as_ref()?)))
    {
        cmd.env(k, v);
    }
    if let Some(t) = opts.timeout {
        cmd.env("ASCENDC_TIMEOUT", t.to_string());
    }
    let ended = child::run(&mut cmd, opts.timeout)
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    Ok(match ended {
        child::Ended::Exited(status) => match status.code() {
            Some(0) => ExitCode::SUCCESS,
            Some(c) => ExitCode::from(c.clamp(1, 255) as u8),
            None => {
                eprintln!("error: the program was killed by a signal ({status})");
                ExitCode::FAILURE
            }
        },
        child::Ended::Interrupted(sig) => {
            eprintln!(
                "ascendc: stopped by signal {sig}; the program was ended and its files removed"
            );
            ExitCode::from((128 + sig).clamp(1, 255) as u8)
        }
    })
}

fn flags(
    cflags: bool,
    libs: bool,
    std: &str,
    product: Option<&str>,
    mode: RunMode,
    cmake: bool,
) -> Result<ExitCode, String> {
    if cmake {
        println!("{}", cmake::package_dir().display());
        return Ok(ExitCode::SUCCESS);
    }
    let mut out = Vec::new();
    if !libs {
        out.extend(toolchain::cflags(
            Some(std),
            mode,
            product::resolve(product)?,
        ));
    }
    if !cflags {
        out.extend(toolchain::static_libs()?);
    }
    println!("{}", out.join(" "));
    Ok(ExitCode::SUCCESS)
}

fn compare_files(
    output: &PathBuf,
    golden: &PathBuf,
    dtype: &str,
    tolerance: compare::Tolerance,
    show: usize,
) -> Result<ExitCode, String> {
    let dtype = DType::parse(dtype).ok_or_else(|| format!("unknown dtype {dtype}"))?;
    let read = |p: &PathBuf| {
        std::fs::read(p)
            .map_err(|e| format!("cannot read {}: {e}", p.display()))
            .and_then(|b| compare::decode(&b, dtype).map_err(|e| format!("{}: {e}", p.display())))
    };
    let outcome = compare::compare(&read(output)?, &read(golden)?, tolerance)?;
    println!("{}", outcome.report(show));
    Ok(if outcome.passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// True when this executable was started as `ascendc-cxx` (a link for build systems that take
/// a single compiler path).
fn started_as_cxx() -> bool {
    std::env::args_os()
        .next()
        .and_then(|a| {
            Path::new(&a)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
        })
        .is_some_and(|n| n == "ascendc-cxx" || n == "ascendc-c++")
}

fn main() -> ExitCode {
    if started_as_cxx() {
        let args: Vec<String> = std::env::args().skip(1).collect();
        return cxx::run(&args).unwrap_or_else(|e| {
            eprintln!("error: {e}");
            ExitCode::from(2)
        });
    }
    let result = match Cli::parse().command {
        Cmd::Run {
            sources,
            std,
            product,
            run_mode,
            report,
            trace,
            check,
            cxxflags,
            schedule,
            schedule_check,
            timeout,
            output,
            args,
        } => {
            let opts = RunOptions {
                std: &std,
                product: product.as_deref(),
                run_mode,
                report,
                check,
                trace,
                cxxflags: &cxxflags,
                schedule: [
                    ("ASCENDC_SCHEDULE", schedule),
                    (
                        "ASCENDC_SCHEDULE_CHECK",
                        schedule_check.map(|n| n.to_string()),
                    ),
                ],
                timeout,
            };
            run(&sources, opts, output, &args)
        }
        Cmd::Flags {
            cflags,
            libs,
            std,
            product,
            run_mode,
            cmake,
        } => flags(cflags, libs, &std, product.as_deref(), run_mode, cmake),
        Cmd::Cxx { args } => cxx::run(&args),
        Cmd::Op {
            command:
                OpCmd::Run {
                    op_dir,
                    inputs,
                    outputs,
                    attrs,
                    product,
                    op,
                    verbose,
                    includes,
                    cxxflags,
                    report,
                    check,
                    schedule,
                    schedule_check,
                    timeout,
                },
        } => {
            let mut env = Vec::new();
            if let Some(t) = timeout {
                env.push(("ASCENDC_TIMEOUT", t.to_string()));
            }
            if report {
                env.push(("ASCENDC_REPORT", "1".to_string()));
            }
            if check {
                env.push(("ASCENDC_CHECK", "1".to_string()));
            }
            if let Some(s) = schedule {
                env.push(("ASCENDC_SCHEDULE", s));
            }
            if let Some(n) = schedule_check {
                env.push(("ASCENDC_SCHEDULE_CHECK", n.to_string()));
            }
            op::run(&op::OpRun {
                dir: &op_dir,
                inputs: &inputs,
                outputs: &outputs,
                attrs: &attrs,
                product: product.as_deref(),
                op: op.as_deref(),
                verbose,
                includes: &includes,
                cxxflags: &cxxflags,
                env: &env,
            })
        }
        Cmd::Compare {
            output,
            golden,
            dtype,
            rtol,
            atol,
            error_ratio,
            equal_nan,
            show,
        } => compare_files(
            &output,
            &golden,
            &dtype,
            compare::Tolerance {
                rtol,
                atol,
                equal_nan,
                error_ratio,
            },
            show,
        ),
    };
    result.unwrap_or_else(|e| {
        eprintln!("error: {e}");
        ExitCode::from(2)
    })
}

/// A tolerance of `compare`: a finite number ≥ 0 (NaN or a negative value would make every
/// comparison fail or pass silently).
fn tolerance(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .parse()
        .map_err(|e| format!("{s:?} is not a number: {e}"))?;
    if v.is_finite() && v >= 0.0 {
        Ok(v)
    } else {
        Err(format!("{s} is not a finite number ≥ 0"))
    }
}

/// `--error-ratio`: a fraction in [0, 1].
fn ratio(s: &str) -> Result<f64, String> {
    let v = tolerance(s)?;
    if v <= 1.0 {
        Ok(v)
    } else {
        Err(format!("{s} is not a fraction in [0, 1]"))
    }
}
