//! `ascendc`: runs Ascend C kernels written in C++ on the simulator, prints the flags to build
//! them elsewhere, and compares output `.bin` files against goldens.

mod compare;
mod toolchain;

use ascendc::DType;
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::{Command, ExitCode};

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
        /// Kernel and host sources (`kernel.cpp main.cpp`, or one file with both).
        #[arg(required = true)]
        sources: Vec<PathBuf>,
        /// C++ standard (C++20 adds columns to error locations).
        #[arg(long, default_value = "c++17")]
        std: String,
        /// Product to simulate: 910, 310P, A2, A3, 310B.
        #[arg(long)]
        product: Option<String>,
        /// Print a summary of every launch (cores, instructions per pipe) to stderr.
        #[arg(long)]
        report: bool,
        /// Run the synchronisation checker on every launch (sets `ASCENDC_CHECK=1`): unordered
        /// RAW/WAR/WAW pairs between pipes and flag misuse are reported as warnings.
        #[arg(long)]
        check: bool,
        /// Extra compiler flags (repeatable), e.g. `--cxxflag=-DTILE=64`.
        #[arg(long = "cxxflag", allow_hyphen_values = true)]
        cxxflags: Vec<String>,
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
        /// Relative tolerance.
        #[arg(long, default_value_t = 1e-5)]
        rtol: f64,
        /// Absolute tolerance.
        #[arg(long, default_value_t = 1e-8)]
        atol: f64,
        /// Largest fraction of elements allowed to differ.
        #[arg(long, default_value_t = 0.0)]
        error_ratio: f64,
        /// Treat NaN as equal to NaN.
        #[arg(long)]
        equal_nan: bool,
        /// How many mismatches to list.
        #[arg(long, default_value_t = 10)]
        show: usize,
    },
}

/// How `ascendc run` builds and runs the program.
struct RunOptions<'a> {
    std: &'a str,
    product: Option<&'a str>,
    report: bool,
    check: bool,
    cxxflags: &'a [String],
}

fn run(
    sources: &[PathBuf],
    opts: RunOptions,
    output: Option<PathBuf>,
    args: &[String],
) -> Result<ExitCode, String> {
    let tmp =
        tempfile::tempdir().map_err(|e| format!("cannot create a temporary directory: {e}"))?;
    let exe = output.unwrap_or_else(|| tmp.path().join("kernel"));
    toolchain::compile(sources, opts.cxxflags, opts.std, &exe)?;
    let mut cmd = Command::new(&exe);
    cmd.args(args);
    if opts.report {
        cmd.env("ASCENDC_REPORT", "1");
    }
    if opts.check {
        cmd.env("ASCENDC_CHECK", "1");
    }
    if let Some(p) = opts.product {
        if ascendc::ChipProfile::by_name(p).is_none() {
            return Err(format!("unknown product {p} (910, 310P, A2, A3, 310B)"));
        }
        cmd.env("ASCENDC_PRODUCT", p);
    }
    let status = cmd
        .status()
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    Ok(match status.code() {
        Some(0) => ExitCode::SUCCESS,
        Some(c) => ExitCode::from(c.clamp(1, 255) as u8),
        None => {
            eprintln!("error: the program was killed by a signal ({status})");
            ExitCode::FAILURE
        }
    })
}

fn flags(cflags: bool, libs: bool, std: &str) -> Result<ExitCode, String> {
    let mut out = Vec::new();
    if !libs {
        out.extend(toolchain::cflags(std));
    }
    if !cflags {
        out.extend(toolchain::libs()?);
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

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Cmd::Run {
            sources,
            std,
            product,
            report,
            check,
            cxxflags,
            output,
            args,
        } => {
            let opts = RunOptions {
                std: &std,
                product: product.as_deref(),
                report,
                check,
                cxxflags: &cxxflags,
            };
            run(&sources, opts, output, &args)
        }
        Cmd::Flags { cflags, libs, std } => flags(cflags, libs, &std),
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
