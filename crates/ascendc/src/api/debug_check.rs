//! Exception detection: `ascendc_assert` / `assert`, `Trap` and `CheckLocalMemoryIA`.
//!
//! A failed assertion or a trap stops the block: the call returns an error naming the API, the
//! condition, the message and the kernel source line, and the launch fails with it (the host
//! process carries on).

use super::availability::require;
use super::context::with_core;
use crate::core::ia_check::IaRegister;
use crate::core::trace::Pipe;
use crate::error::{Category, Result, SimError, SourceLoc};

/// The check behind `ascendc_assert(expr, fmt, args…)` (`api` = `"ascendc_assert"`) and
/// `assert(expr, fmt, args…)` (`"assert"`): refused on products the page does not list (910);
/// when `holds` is false, prints ``[ASSERT] <file>:<line>: Assertion `<expr>' <message>`` on stdout
/// and fails the block. `message` is formatted only on failure. Use the [`ascendc_assert!`] macro.
///
/// [`ascendc_assert!`]: crate::ascendc_assert
#[track_caller]
pub fn assert_check(
    api: &'static str,
    holds: bool,
    expr: &str,
    message: impl FnOnce() -> String,
) -> Result<()> {
    assert_check_with(api, holds, expr, message, |line| println!("{line}"))
}

/// [`assert_check`] handing the printed line to `print` (without a newline).
#[track_caller]
pub fn assert_check_with(
    api: &'static str,
    holds: bool,
    expr: &str,
    message: impl FnOnce() -> String,
    print: impl FnOnce(&str),
) -> Result<()> {
    let loc = SourceLoc::caller();
    with_core(api, loc, |core| require(core, api))?;
    if holds {
        return Ok(());
    }
    // Formatted outside the core: the message may call other API functions.
    let message = message();
    print(&assert_line(loc, expr, &message));
    with_core(api, loc, |_| Err(assert_error(api, expr, &message)))
}

/// The line a failed assertion prints: ``[ASSERT] <file>:<line>: Assertion `<expr>' <message>``.
pub fn assert_line(loc: SourceLoc, expr: &str, message: &str) -> String {
    format!(
        "[ASSERT] {}:{}: Assertion `{expr}' {message}",
        loc.file, loc.line
    )
    .trim_end()
    .to_string()
}

/// The error of a failed assertion.
pub(crate) fn assert_error(api: &'static str, expr: &str, message: &str) -> SimError {
    let message = message.trim_end();
    SimError::new(
        Category::Launch,
        api,
        if message.is_empty() {
            format!("assertion `{expr}` failed")
        } else {
            format!("assertion `{expr}` failed: {message}")
        },
    )
}

/// `ascendc_assert(expr)` / `ascendc_assert(expr, fmt, args…)` (also the Rust spelling of
/// Ascend C's `assert`, Rust's own `assert!` being a panic): evaluates to `Result<()>`, an error
/// naming the condition, the formatted message and this line when `expr` is false.
///
/// ```no_run
/// # fn kernel() -> ascendc::Result<()> {
/// let flag = 10;
/// ascendc::ascendc_assert!(flag != 10, "The assertFlag value is {}.", flag)?;
/// # Ok(()) }
/// ```
#[macro_export]
macro_rules! ascendc_assert {
    ($cond:expr $(,)?) => {
        $crate::api::debug_check::assert_check("ascendc_assert", $cond, stringify!($cond), String::new)
    };
    ($cond:expr, $($fmt:tt)+) => {
        $crate::api::debug_check::assert_check("ascendc_assert", $cond, stringify!($cond), || {
            format!($($fmt)+)
        })
    };
}

/// `Trap()`: stops the AI core (310P, A2, A3). Always returns the error that fails the block.
#[track_caller]
pub fn trap() -> Result<()> {
    const API: &str = "Trap";
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        require(core, API)?;
        core.issue(Pipe::S, API, loc, &[]);
        Err(SimError::new(
            Category::Launch,
            API,
            "the kernel called Trap(): the AI core stops",
        ))
    })
}

/// `CheckLocalMemoryIAParam`: one UB access-check register's configuration.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CheckLocalMemoryIAParam {
    /// The register, 0–3.
    pub enable_bit: u8,
    /// Range start in 32-byte units (excluded), 0–65535.
    pub start_addr: u32,
    /// Range end in 32-byte units (included), 0–65535.
    pub end_addr: u32,
    /// Check scalar reads.
    pub is_scalar_read: bool,
    /// Check scalar writes.
    pub is_scalar_write: bool,
    /// Check vector reads.
    pub is_vector_read: bool,
    /// Check vector writes.
    pub is_vector_write: bool,
    /// Check MTE reads.
    pub is_mte_read: bool,
    /// Check MTE writes.
    pub is_mte_write: bool,
    /// Enable the register (`false` resets it).
    pub is_enable: bool,
    /// Reserved.
    pub reserved: u32,
}

/// `CheckLocalMemoryIA(checkParams)`: enables (or, with `is_enable = false`, resets) UB
/// access-check register `enable_bit`. While enabled, every UB access of a selected kind into the
/// 32-byte units `(startAddr, endAddr]` — bytes `[(startAddr + 1)·32, (endAddr + 1)·32)` — is an
/// AI Core exception: the API call that issues it fails, naming the access and the register.
/// A `PIPE_S` instruction (310P, A2, A3, 310B).
#[track_caller]
pub fn check_local_memory_ia(p: CheckLocalMemoryIAParam) -> Result<()> {
    const API: &str = "CheckLocalMemoryIA";
    let loc = SourceLoc::caller();
    with_core(API, loc, |core| {
        require(core, API)?;
        if p.enable_bit > 3 {
            return Err(SimError::range(API, "enableBit", p.enable_bit, "[0, 3]"));
        }
        if !p.is_enable {
            core.ia.set(p.enable_bit as usize, None);
            core.issue(Pipe::S, API, loc, &[]);
            return Ok(());
        }
        for (name, v) in [("startAddr", p.start_addr), ("endAddr", p.end_addr)] {
            if v > 65535 {
                return Err(SimError::range(API, name, v, "[0, 65535] (32-byte units)"));
            }
        }
        let kinds = [
            p.is_scalar_read,
            p.is_scalar_write,
            p.is_vector_read,
            p.is_vector_write,
            p.is_mte_read,
            p.is_mte_write,
        ];
        if p.start_addr >= p.end_addr || !kinds.contains(&true) {
            core.warn(
                Category::Nop,
                API,
                format!(
                    "register {} checks nothing: {}",
                    p.enable_bit,
                    if p.start_addr >= p.end_addr {
                        format!(
                            "the range (startAddr {}, endAddr {}] is empty",
                            p.start_addr, p.end_addr
                        )
                    } else {
                        "no access kind is selected".to_string()
                    }
                ),
                loc,
            );
        }
        core.ia.set(
            p.enable_bit as usize,
            Some(IaRegister {
                start_addr: p.start_addr,
                end_addr: p.end_addr,
                kinds,
                set_at: loc,
            }),
        );
        core.issue(Pipe::S, API, loc, &[]);
        Ok(())
    })
}
