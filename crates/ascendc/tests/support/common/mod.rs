//! Helpers shared by the integration tests.
#![allow(dead_code)]

use ascendc::chip::ChipProfile;
use ascendc::{Diagnostic, Launch, LaunchReport, Result, SimError};
use std::sync::Mutex;

/// Runs a one-block kernel on `profile`, keeping the instruction record for the tests that read
/// it; panics with the error when it fails.
pub fn run_on(
    profile: &'static ChipProfile,
    kernel: impl Fn() -> Result<()> + Sync,
) -> LaunchReport {
    Launch::new(1)
        .profile(profile)
        .record_trace(true)
        .run(kernel)
        .unwrap_or_else(|e| panic!("kernel failed: {e}"))
}

/// Runs a one-block kernel on the default profile.
pub fn run(kernel: impl Fn() -> Result<()> + Sync) -> LaunchReport {
    run_on(ChipProfile::default_profile(), kernel)
}

/// Runs a kernel that must fail and returns its error; checks it names a source line.
pub fn fail_on(profile: &'static ChipProfile, kernel: impl Fn() -> Result<()> + Sync) -> SimError {
    let e = Launch::new(1)
        .profile(profile)
        .run(kernel)
        .expect_err("the kernel should fail");
    assert_eq!(e.errors.len(), 1);
    let err = e.errors[0].clone();
    let loc = err.location.expect("errors carry the source line");
    assert!(loc.file.ends_with(".rs") && loc.line > 0, "{err}");
    err
}

/// [`fail_on`] on the default profile.
pub fn fail(kernel: impl Fn() -> Result<()> + Sync) -> SimError {
    fail_on(ChipProfile::default_profile(), kernel)
}

/// Asserts that `e` mentions every fragment.
pub fn assert_mentions(e: &SimError, fragments: &[&str]) {
    let text = e.to_string();
    for f in fragments {
        assert!(text.contains(f), "error `{text}` does not mention `{f}`");
    }
}

/// Asserts that one warning of `r` mentions every fragment.
pub fn assert_warns(r: &LaunchReport, fragments: &[&str]) {
    let w = warnings(r);
    assert!(
        w.iter()
            .any(|d| fragments.iter().all(|f| d.message.contains(f))),
        "no warning mentions {fragments:?}: {w:?}"
    );
}

/// Warnings of a report.
pub fn warnings(r: &LaunchReport) -> Vec<Diagnostic> {
    r.diagnostics().cloned().collect()
}

/// A slot a kernel stores a value into for the test to read after the launch.
pub struct Slot<T>(Mutex<Option<T>>);

impl<T: Clone> Slot<T> {
    pub fn new() -> Self {
        Slot(Mutex::new(None))
    }
    pub fn put(&self, v: T) {
        *self.0.lock().unwrap() = Some(v);
    }
    pub fn get(&self) -> T {
        self.0
            .lock()
            .unwrap()
            .clone()
            .expect("the kernel stored a value")
    }
}
