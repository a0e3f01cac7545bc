//! Errors and diagnostics: every one names the API, the parameter, the value, the rule and the
//! kernel source line.

use std::cell::Cell;
use std::fmt;
use std::panic::Location;

thread_local! {
    static FOREIGN: Cell<Option<SourceLoc>> = const { Cell::new(None) };
}

/// A kernel source position (Rust `#[track_caller]` location or a C++ `source_location`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SourceLoc {
    /// Source file path.
    pub file: &'static str,
    /// 1-based line.
    pub line: u32,
    /// 1-based column (0 when unknown).
    pub column: u32,
}

impl SourceLoc {
    /// The location of the caller (through `#[track_caller]` frames), or the foreign call site
    /// set by [`SourceLoc::scope`].
    #[track_caller]
    #[inline]
    pub fn caller() -> SourceLoc {
        let here = Location::caller();
        let loc = FOREIGN.with(Cell::get).unwrap_or_else(|| here.into());
        crate::watchdog::note(loc);
        loc
    }

    /// Runs `f` with every API call inside it reporting `self` as its location: the C++ call
    /// site of a call made through the C ABI.
    #[inline]
    pub fn scope<R>(self, f: impl FnOnce() -> R) -> R {
        struct Restore(Option<SourceLoc>);
        impl Drop for Restore {
            #[inline]
            fn drop(&mut self) {
                FOREIGN.with(|c| c.set(self.0));
            }
        }
        let _restore = Restore(FOREIGN.with(|c| c.replace(Some(self))));
        crate::watchdog::note(self);
        f()
    }
}

impl From<&'static Location<'static>> for SourceLoc {
    fn from(l: &'static Location<'static>) -> Self {
        SourceLoc {
            file: l.file(),
            line: l.line(),
            column: l.column(),
        }
    }
}

impl fmt::Display for SourceLoc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.column > 0 {
            write!(f, "{}:{}:{}", self.file, self.line, self.column)
        } else {
            write!(f, "{}:{}", self.file, self.line)
        }
    }
}

/// What kind of rule was broken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Category {
    /// A parameter outside its documented range.
    Range,
    /// A start address or length that breaks an alignment rule.
    Align,
    /// A tensor in a position the API or path does not accept.
    Position,
    /// A tensor, buffer or pool too small for the access.
    Size,
    /// An element type the API does not accept.
    Type,
    /// A queue used against its state machine.
    QueueState,
    /// A resource (buffers, event IDs) exhausted.
    Resource,
    /// A call that does nothing (warning).
    Nop,
    /// An API or path the product does not support.
    Unsupported,
    /// A synchronisation misuse.
    Sync,
    /// An access outside memory that exists.
    Memory,
    /// A launch configuration problem.
    Launch,
    /// Source and destination overlap in a way the API does not support.
    Overlap,
    /// Data is lost or changed silently (e.g. a count rounded down).
    DataLoss,
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            Category::Range => "range",
            Category::Align => "alignment",
            Category::Position => "position",
            Category::Size => "size",
            Category::Type => "type",
            Category::QueueState => "queue state",
            Category::Resource => "resource",
            Category::Nop => "no-op",
            Category::Unsupported => "unsupported",
            Category::Sync => "sync",
            Category::Memory => "memory",
            Category::Launch => "launch",
            Category::Overlap => "overlap",
            Category::DataLoss => "data loss",
        };
        f.write_str(s)
    }
}

/// A failed API call. Its details sit behind one pointer (read them through `Deref`), so that
/// `Result<T>` stays as small as `T` on the hot path of every API call.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct SimError(Box<ErrorDetail>);

/// What a [`SimError`] says.
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorDetail {
    /// The rule's category.
    pub category: Category,
    /// The Ascend C API name (`DataCopy`, `TQue::EnQue`, …).
    pub api: &'static str,
    /// What went wrong: parameter, value and the rule.
    pub message: String,
    /// Kernel source line of the call.
    pub location: Option<SourceLoc>,
    /// Block (`GetBlockIdx`) that made the call, when inside a launch.
    pub block: Option<u32>,
    /// The core that made the call, when inside a launch.
    pub core: Option<crate::core::CoreId>,
}

impl std::ops::Deref for SimError {
    type Target = ErrorDetail;
    fn deref(&self) -> &ErrorDetail {
        &self.0
    }
}

impl std::ops::DerefMut for SimError {
    fn deref_mut(&mut self) -> &mut ErrorDetail {
        &mut self.0
    }
}

impl fmt::Display for ErrorDetail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.block, self.core) {
            (Some(b), Some(c)) if c.kind != crate::core::CoreKind::AiCore => {
                write!(f, "block {b} ({c}): ")?
            }
            (Some(b), _) => write!(f, "block {b}: ")?,
            _ => {}
        }
        write!(f, "{}: {} [{}]", self.api, self.message, self.category)?;
        if let Some(l) = self.location {
            write!(f, " at {l}")?;
        }
        Ok(())
    }
}

/// The message of a caught panic (its `&str` or `String` payload).
pub fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into())
}

impl SimError {
    /// A new error without location or block (those are filled in by the API layer).
    #[cold]
    pub fn new(category: Category, api: &'static str, message: impl Into<String>) -> SimError {
        SimError(Box::new(ErrorDetail {
            category,
            api,
            message: message.into(),
            location: None,
            block: None,
            core: None,
        }))
    }

    /// Sets the source location.
    pub fn at(mut self, loc: SourceLoc) -> SimError {
        self.location = Some(loc);
        self
    }

    /// "parameter `p` = v is out of range [lo, hi]".
    pub fn range(
        api: &'static str,
        param: &str,
        value: impl fmt::Display,
        allowed: impl fmt::Display,
    ) -> SimError {
        SimError::new(
            Category::Range,
            api,
            format!("parameter `{param}` = {value} is out of range {allowed}"),
        )
    }

    /// "`what` at byte address a is not n-byte aligned".
    pub fn align(
        api: &'static str,
        what: &str,
        addr: u64,
        align: u32,
        buffer: impl fmt::Display,
    ) -> SimError {
        SimError::new(
            Category::Align,
            api,
            format!(
                "{what} start address {addr} (0x{addr:x}) in {buffer} must be {align}-byte aligned ({addr} mod {align} = {})",
                addr % align as u64
            ),
        )
    }
}

/// Result of a simulator API call.
pub type Result<T, E = SimError> = std::result::Result<T, E>;

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Worth knowing (e.g. behaviour that differs between products).
    Info,
    /// Probably a bug: the call did something other than what it seems to ask.
    Warning,
}

/// A non-fatal finding recorded during a launch.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnostic {
    /// Severity.
    pub severity: Severity,
    /// Category of the rule.
    pub category: Category,
    /// API name.
    pub api: &'static str,
    /// What happened.
    pub message: String,
    /// Kernel source line.
    pub location: Option<SourceLoc>,
    /// Block that made the call.
    pub block: Option<u32>,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Info => "info",
            Severity::Warning => "warning",
        };
        write!(f, "{sev}")?;
        if let Some(b) = self.block {
            write!(f, " [block {b}]")?;
        }
        write!(f, ": {}: {} [{}]", self.api, self.message, self.category)?;
        if let Some(l) = self.location {
            write!(f, " at {l}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caller_is_the_rust_call_site_unless_a_foreign_scope_is_active() {
        let here = SourceLoc::caller();
        assert!(here.file.ends_with("error.rs"), "{here}");
        assert_eq!(here.line, line!() - 2);
        let cpp = SourceLoc {
            file: "kernel.cpp",
            line: 12,
            column: 0,
        };
        assert_eq!(cpp.scope(SourceLoc::caller), cpp);
        assert_eq!(SourceLoc::caller().line, line!());
    }
}
