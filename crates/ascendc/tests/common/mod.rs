//! Helpers shared by the integration tests.
#![allow(dead_code)]

use ascendc::chip::ChipProfile;
use ascendc::{Launch, LaunchReport, Result, SimError};

/// Runs a one-block kernel on the default product.
pub fn run(kernel: impl Fn() -> Result<()> + Sync) -> LaunchReport {
    run_on(ChipProfile::default_profile(), kernel)
}

/// Runs a one-block kernel on `profile`, panicking with the error when it fails.
pub fn run_on(
    profile: &'static ChipProfile,
    kernel: impl Fn() -> Result<()> + Sync,
) -> LaunchReport {
    Launch::new(1)
        .profile(profile)
        .run(kernel)
        .unwrap_or_else(|e| panic!("kernel failed: {e}"))
}

/// Runs a one-block kernel that must fail and returns its error.
pub fn fail(kernel: impl Fn() -> Result<()> + Sync) -> SimError {
    fail_on(ChipProfile::default_profile(), kernel)
}

/// Runs a one-block kernel on `profile` that must fail and returns its error.
pub fn fail_on(profile: &'static ChipProfile, kernel: impl Fn() -> Result<()> + Sync) -> SimError {
    match Launch::new(1).profile(profile).run(kernel) {
        Ok(_) => panic!("the kernel was expected to fail"),
        Err(e) => {
            assert_eq!(e.errors.len(), 1);
            e.errors.into_iter().next().unwrap()
        }
    }
}

/// Asserts that `e` mentions every fragment.
pub fn assert_mentions(e: &SimError, fragments: &[&str]) {
    let text = e.to_string();
    for f in fragments {
        assert!(text.contains(f), "error `{text}` does not mention `{f}`");
    }
}
